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
 *   qemu_udp_pingpong [--bytes N] [--small N] [--runs N] [--mode bulk|small|both]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BULK_OUT   8206
#define BULK_BACK  20
#define BULK_DATA  8160
#define SMALL      24

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
static void serve(int fd, const struct sockaddr_in *peer)
{
    static char buf[65536];

    for (;;) {
        ssize_t n = recv(fd, buf, sizeof(buf), 0);

        if (n <= 0 || buf[0] == 'q') {
            _exit(0);
        }
        sendto(fd, buf, n == BULK_OUT ? BULK_BACK : n, 0,
               (const struct sockaddr *)peer, sizeof(*peer));
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

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc) {
            bytes = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--small") && i + 1 < argc) {
            small = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--mode") && i + 1 < argc) {
            mode = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--bytes N] [--small N] [--runs N] "
                    "[--mode bulk|small|both]\n"
                    "UDP loopback request/response baseline for "
                    "bench-qemu.\n", argv[0]);
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (bytes <= 0 || small <= 0 || runs <= 0 ||
        (strcmp(mode, "bulk") && strcmp(mode, "small") && strcmp(mode, "both"))) {
        fprintf(stderr, "udp-pingpong: counts must be positive, mode "
                "bulk, small or both\n");
        return 2;
    }
    cfd = udp_socket(&ca);
    sfd = udp_socket(&sa);
    pid = fork();
    if (pid == 0) {
        close(cfd);
        serve(sfd, &ca);
    }
    close(sfd);
    if (connect(cfd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
        perror("udp-pingpong: connect");
        return 1;
    }
    memset(buf, 0x5a, sizeof(buf));

    n = (bytes + BULK_DATA - 1) / BULK_DATA;
    for (int run = 0; run < runs && strcmp(mode, "small"); run++) {
        t0 = now_s();
        for (long i = 0; i < n; i++) {
            if (send(cfd, buf, BULK_OUT, 0) != BULK_OUT ||
                recv(cfd, buf, sizeof(buf), 0) != BULK_BACK) {
                fprintf(stderr, "udp-pingpong: bulk exchange failed\n");
                return 1;
            }
            buf[0] = 0x5a;
        }
        t0 = now_s() - t0;
        best_bulk = best_bulk < t0 ? best_bulk : t0;
    }
    if (strcmp(mode, "small")) {
        printf("BENCH udp.pingpong.mbps %.1f Mbit/s\n",
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
