/*
 * udp-pingpong: the transport ceiling for bench-qemu. Two processes on
 * loopback UDP do what two openenoc endpoints do over a dgram netdev:
 *   bulk:  an 8206-byte datagram out (one 8160-byte DMA_WRITE_REQ frame),
 *          a 20-byte answer back (DMA_WRITE_RSP), one at a time;
 *   small: 24 bytes out, 24 bytes back (RMEM_READ_REQ / RMEM_READ_RSP).
 * Prints BENCH lines: udp.pingpong.mbps (8160 data bytes per exchange, best
 * of 3 runs) and udp.pingpong.small_rtt_us (the lowest median of 3 batches),
 * best-of like the QEMU figures measured against them: the host is shared.
 *
 * Both sockets are connected, as the fastest dgram link between two QEMUs
 * is (bench-qemu passes them connected sockets).
 *
 * --evloop shapes the bulk exchange like an emulator instead (figure
 * udp.evloop.mbps): each side sleeps in ppoll over six descriptors before
 * every receive, as QEMU's main loop does, and the bytes move through
 * memory the way DMA moves them, the requester copying each fragment out of
 * a 64 MiB source and the responder into a 64 MiB destination. It is what
 * any event-loop device model pays before its own code runs.
 *
 *   qemu_udp_pingpong [--bytes N] [--small N] [--runs N] [--mode bulk|small|both]
 *                     [--evloop]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BULK_OUT   8206
#define BULK_BACK  20
#define BULK_DATA  8160
#define SMALL      24
#define DMA_SPAN   (64L << 20)  /* --evloop: the memory the "DMA" walks */
#define LOOP_FDS   6            /* --evloop: descriptors per wait */

/* --evloop state: the descriptors of one side's wait and its DMA memory. */
typedef struct Evloop {
    bool on;
    struct pollfd fds[LOOP_FDS];
    char *mem;
    long off;
} Evloop;

static void evloop_init(Evloop *ev, int sock)
{
    ev->fds[0] = (struct pollfd){ .fd = sock, .events = POLLIN };
    for (int i = 1; i < LOOP_FDS; i++) {
        /* idle descriptors, like a main loop's notifiers and sockets */
        ev->fds[i] = (struct pollfd){ .fd = eventfd(0, 0), .events = POLLIN };
    }
    ev->mem = malloc(DMA_SPAN);
    if (!ev->mem || ev->fds[LOOP_FDS - 1].fd < 0) {
        perror("udp-pingpong: evloop");
        exit(1);
    }
    memset(ev->mem, 1, DMA_SPAN);      /* resident, like guest RAM */
    ev->off = 0;
}

/* Sleep until the socket is readable (with a timeout armed, as QEMU's
 * timers arm one). */
static void evloop_wait(Evloop *ev)
{
    struct timespec ts = { 1, 0 };

    if (ev->on) {
        ppoll(ev->fds, LOOP_FDS, &ts, NULL);
    }
}

/* The DMA of one fragment: to_mem writes the bytes into memory (responder),
 * otherwise reads them out of it (requester). */
static void evloop_dma(Evloop *ev, char *frag, bool to_mem)
{
    if (!ev->on) {
        return;
    }
    if (to_mem) {
        memcpy(ev->mem + ev->off, frag, BULK_DATA);
    } else {
        memcpy(frag, ev->mem + ev->off, BULK_DATA);
    }
    ev->off = (ev->off + BULK_DATA) % (DMA_SPAN - BULK_DATA);
}

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int udp_socket(struct sockaddr_in *addr)
{
    socklen_t len = sizeof(*addr);
    int fd = socket(AF_INET, SOCK_DGRAM, 0);

    memset(addr, 0, sizeof(*addr));
    addr->sin_family = AF_INET;
    addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || bind(fd, (struct sockaddr *)addr, sizeof(*addr)) < 0 ||
        getsockname(fd, (struct sockaddr *)addr, &len) < 0) {
        perror("udp-pingpong: socket");
        exit(1);
    }
    return fd;
}

/* The answering side: echo a reply of the size the request asks for. */
static void serve(int fd, bool evloop)
{
    static char buf[65536];
    Evloop ev = { .on = evloop };

    if (evloop) {
        evloop_init(&ev, fd);
    }
    for (;;) {
        evloop_wait(&ev);
        ssize_t n = recv(fd, buf, sizeof(buf), 0);

        if (n <= 0 || buf[0] == 'q') {
            _exit(0);
        }
        if (n == BULK_OUT) {
            evloop_dma(&ev, buf + BULK_OUT - BULK_DATA, true);
        }
        send(fd, buf, n == BULK_OUT ? BULK_BACK : n, 0);
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    long bytes = 64L << 20, small = 5000, runs = 3;
    const char *mode = "both";
    struct sockaddr_in ca, sa;
    static char buf[65536];
    double t0, *rtt, best_bulk = 1e9, best_p50 = 0, best_p99 = 0;
    long n;
    int cfd, sfd;
    pid_t pid;
    Evloop ev = { .on = false };

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc) {
            bytes = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--small") && i + 1 < argc) {
            small = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
            mode = argv[++i];
        } else if (!strcmp(argv[i], "--evloop")) {
            ev.on = true;
        } else {
            fprintf(stderr, "usage: %s [--bytes N] [--small N] [--runs N] "
                    "[--mode bulk|small|both] [--evloop]\n"
                    "UDP loopback request/response baseline for "
                    "bench-qemu; --evloop shapes the bulk exchange like an "
                    "emulator's\n(ppoll waits, DMA copies).\n", argv[0]);
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (bytes <= 0 || small <= 0 || runs <= 0 ||
        (strcmp(mode, "bulk") && strcmp(mode, "small") && strcmp(mode, "both"))) {
        fprintf(stderr, "udp-pingpong: counts must be positive, mode "
                "bulk, small or both\n");
        return 2;
    }
    if (ev.on && strcmp(mode, "bulk")) {
        fprintf(stderr, "udp-pingpong: --evloop shapes the bulk exchange: "
                "use it with --mode bulk\n");
        return 2;
    }
    cfd = udp_socket(&ca);
    sfd = udp_socket(&sa);
    if (connect(cfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        connect(sfd, (struct sockaddr *)&ca, sizeof(ca)) < 0) {
        perror("udp-pingpong: connect");
        return 1;
    }
    pid = fork();
    if (pid == 0) {
        close(cfd);
        serve(sfd, ev.on);
    }
    close(sfd);
    if (ev.on) {
        evloop_init(&ev, cfd);
    }
    memset(buf, 0x5a, sizeof(buf));

    n = (bytes + BULK_DATA - 1) / BULK_DATA;
    for (int run = 0; run < runs && strcmp(mode, "small"); run++) {
        t0 = now_s();
        for (long i = 0; i < n; i++) {
            evloop_dma(&ev, buf + BULK_OUT - BULK_DATA, false);
            if (send(cfd, buf, BULK_OUT, 0) != BULK_OUT ||
                (evloop_wait(&ev), recv(cfd, buf, sizeof(buf), 0)) !=
                BULK_BACK) {
                fprintf(stderr, "udp-pingpong: bulk exchange failed\n");
                return 1;
            }
            buf[0] = 0x5a;
        }
        t0 = now_s() - t0;
        best_bulk = best_bulk < t0 ? best_bulk : t0;
    }
    if (strcmp(mode, "small")) {
        printf("BENCH udp.%s.mbps %.1f Mbit/s\n", ev.on ? "evloop" : "pingpong",
               n * (double)BULK_DATA * 8 / best_bulk / 1e6);
    }

    rtt = malloc(small * sizeof(*rtt));
    for (int run = 0; run < runs && strcmp(mode, "bulk"); run++) {
        for (long i = 0; i < small; i++) {
            double t = now_s();

            if (send(cfd, buf, SMALL, 0) != SMALL ||
                recv(cfd, buf, sizeof(buf), 0) != SMALL) {
                fprintf(stderr, "udp-pingpong: small exchange failed\n");
                return 1;
            }
            rtt[i] = (now_s() - t) * 1e6;
        }
        qsort(rtt, small, sizeof(*rtt), cmp_double);
        if (run == 0 || rtt[small / 2] < best_p50) {
            best_p50 = rtt[small / 2];
            best_p99 = rtt[small * 99 / 100];
        }
    }
    if (strcmp(mode, "bulk")) {
        printf("BENCH udp.pingpong.small_rtt_us %.1f us\n", best_p50);
        printf("BENCH udp.pingpong.small_rtt_us_p99 %.1f us\n", best_p99);
    }
    buf[0] = 'q';
    send(cfd, buf, 1, 0);
    waitpid(pid, NULL, 0);
    free(rtt);
    return 0;
}
