/*
 * enoc-tcp: the TCP baseline of make bench-guest. Moves N bytes over one TCP
 * connection in 64 KiB writes/reads (busybox nc copies 1 KiB at a time and
 * would flatter the oETP figure) and prints
 * "OE-RESULT role=tcp-recv bytes=N time_us=T" on the receiver, timed from
 * the first byte to the last.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cli.h"

#define IO_SIZE (64 * 1024)

static const char usage[] =
    "usage: enoc-tcp recv [--port P]\n"
    "       enoc-tcp send --host A.B.C.D [--port P] [--bytes N]\n"
    "Move N bytes (default 16M) over TCP in 64 KiB writes; the receiver prints\n"
    "the byte count and the time from first to last byte.\n";

static int do_recv(unsigned port)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    static char buf[IO_SIZE];
    uint64_t total = 0, t0 = 0;
    int one = 1, ls, s;
    ssize_t n;

    ls = socket(AF_INET, SOCK_STREAM, 0);
    if (ls < 0 || setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
        bind(ls, (struct sockaddr *)&a, sizeof(a)) < 0 || listen(ls, 1) < 0) {
        cli_die("listen on port %u: %s", port, strerror(errno));
    }
    printf("OE-INFO tcp listening on %u\n", port);
    fflush(stdout);
    s = accept(ls, NULL, NULL);
    if (s < 0) {
        cli_die("accept: %s", strerror(errno));
    }
    while ((n = read(s, buf, sizeof(buf))) > 0) {
        if (!total) {
            t0 = enoc_now_us();
        }
        total += (uint64_t)n;
    }
    if (n < 0) {
        cli_die("read: %s", strerror(errno));
    }
    printf("OE-RESULT role=tcp-recv bytes=%llu time_us=%llu\n", (unsigned long long)total,
           (unsigned long long)(enoc_now_us() - t0));
    close(s);
    close(ls);
    return total ? 0 : 1;
}

static int do_send(const char *host, unsigned port, uint64_t bytes)
{
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
    static char buf[IO_SIZE];
    int s = -1;

    if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
        cli_usage_error("--host wants an IPv4 address, got '%s'", host);
    }
    pattern_fill((uint8_t *)buf, sizeof(buf), 3, 0);
    /* The receiver may not listen yet (or its link is still coming up). */
    for (int tries = 0; tries < 300; tries++) {
        s = socket(AF_INET, SOCK_STREAM, 0);
        if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof(a)) == 0) {
            break;
        }
        close(s);
        s = -1;
        usleep(100000);
    }
    if (s < 0) {
        cli_die("cannot connect to %s:%u", host, port);
    }
    while (bytes) {
        size_t n = bytes < sizeof(buf) ? (size_t)bytes : sizeof(buf);
        ssize_t w = write(s, buf, n);
        if (w <= 0) {
            cli_die("write: %s", strerror(errno));
        }
        bytes -= (uint64_t)w;
    }
    /* Wait for the receiver to close its end: the data it has not read yet
     * sits in socket buffers, and this guest powers off as soon as we
     * return (under load, before the last segments left: the receiver then
     * waited for them until its timeout). */
    if (shutdown(s, SHUT_WR) < 0) {
        cli_die("shutdown: %s", strerror(errno));
    }
    while (read(s, buf, sizeof(buf)) > 0) {
    }
    close(s);
    return 0;
}

int main(int argc, char **argv)
{
    const char *host = NULL;
    unsigned port = 5201;
    uint64_t bytes = 16u << 20;

    cli_prog = "enoc-tcp";
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(usage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    for (int i = 2; i < argc; i++) {
        if (i + 1 >= argc) {
            cli_usage_error("option %s wants a value", argv[i]);
        }
        if (!strcmp(argv[i], "--host")) {
            host = argv[++i];
        } else if (!strcmp(argv[i], "--port")) {
            port = (unsigned)cli_num("--port", argv[++i], 65535);
        } else if (!strcmp(argv[i], "--bytes")) {
            bytes = cli_num("--bytes", argv[++i], 1ull << 40);
        } else {
            cli_usage_error("unknown option '%s'", argv[i]);
        }
    }
    if (!strcmp(argv[1], "recv")) {
        return do_recv(port);
    }
    if (!strcmp(argv[1], "send")) {
        if (!host) {
            cli_usage_error("send wants --host");
        }
        return do_send(host, port, bytes);
    }
    cli_usage_error("first argument must be send or recv");
}
