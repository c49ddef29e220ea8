/*
 * openenoc-bench: the QEMU figures of make bench-qemu (bench/qemu-bench.sh
 * runs it after the UDP baseline and passes that baseline in). Built inside
 * the QEMU tree next to the qtests (it drives QEMU through libqtest).
 *
 *   qemu.hub.dma.mbps / .ratio_vs_memcpy   two devices on a hubport, one QEMU
 *   qemu.dgram.dma.mbps / .ratio_vs_udp    two QEMUs joined by a dgram netdev
 *   qemu.dgram.rmem.latency_us_p50 / _p99 / .ratio_vs_udp_rtt
 *
 * A block is a 64 MiB unpaced mirror in 8160-byte fragments; its time runs
 * from the request write to the poll that sees the peer idle; the best of
 * --runs (3) blocks counts. RMEM latency is
 * what the device measures from a window access to its completion (trace
 * event openenoc_mmio_complete), so the qtest transport is not counted.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "openenoc/openenoc-qtest.h"

#define SRC     0x01000000u             /* 16 MiB */
#define DST     0x08000000u             /* 128 MiB */

static uint32_t block = 64 * MiB;
static int rmem_reads = 2000;
static int runs = 3;

static double now_s(void)
{
    return g_get_monotonic_time() / 1e6;
}

static double memcpy_mbps(void)
{
    g_autofree uint8_t *a = g_malloc(block), *b = g_malloc(block);
    double best = 1e9;

    oe_fill(a, block, 1);
    memset(b, 0, block);
    for (int i = 0; i < 3; i++) {
        double t = now_s();

        memcpy(b, a, block);
        t = now_s() - t;
        best = MIN(best, t);
        a[i] ^= b[block - 1 - i];       /* keep the copies observable */
    }
    return block * 8.0 / best / 1e6;
}

/*
 * A 64 MiB push from a (memory in q0) to b (memory in q1), run `runs` times
 * over the same buffers; returns the best Mbit/s (the host is shared and
 * noisy, the best run is the device's own speed).
 */
static double run_block(QTestState *q0, OeDev *a, QTestState *q1, OeDev *b)
{
    double best = 0;
    uint32_t dma;

    oe_ram_fill(q0, SRC, block, 7);
    qtest_memset(q1, DST, 0, block);
    oe_wr(a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, OETP_FRAG_CEILING);
    oe_peer(a, 0, OE_MAC(1), OE_MODE_MIRROR_OUT, SRC, DST, block, 0);
    oe_peer(b, 0, OE_MAC(0), OE_MODE_MIRROR_IN, DST, 0, block, 0);
    for (int i = 0; i < runs; i++) {
        double t = now_s();

        oe_peer_start(a, 0);
        dma = oe_poll(a, OE_PEER_DMA(0), OE_PEER_DMA_IDLE_MASK |
                      OE_PEER_DMA_REQUEST_MASK, OE_PEER_DMA_IDLE_MASK, 600000);
        t = now_s() - t;
        if ((dma & (OE_PEER_DMA_DONE_MASK | OE_PEER_DMA_ERROR_MASK)) !=
            OE_PEER_DMA_DONE_MASK) {
            fprintf(stderr, "openenoc-bench: block failed (dma 0x%08x)\n",
                    dma);
            exit(1);
        }
        best = MAX(best, block * 8.0 / t / 1e6);
    }
    if (oe_ram_check(q1, DST, block, 7) >= 0) {
        fprintf(stderr, "openenoc-bench: block data differs\n");
        exit(1);
    }
    return best;
}

static double hub_mbps(void)
{
    g_autofree char *hub = oe_hub_args(2, "");
    QTestState *qts = oe_start("%s", hub);
    QPCIBus *bus = oe_bus(qts);
    OeDev d[2];
    double mbps;

    for (int i = 0; i < 2; i++) {
        oe_open(&d[i], qts, bus, 4 + i);
        oe_set_macs(&d[i], OE_MAC(i), 0);
    }
    mbps = run_block(qts, &d[0], qts, &d[1]);
    g_free(d[0].pci);
    g_free(d[1].pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
    return mbps;
}

static double dgram_mbps(void)
{
    OePair p;
    double mbps;

    oe_pair_start(&p, "");
    mbps = run_block(p.qts[0], &p.d[0], p.qts[1], &p.d[1]);
    oe_pair_stop(&p);
    return mbps;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

/* Window reads answered by the other QEMU; latencies from the trace. */
static void dgram_rmem(double *p50, double *p99)
{
    g_autofree char *trace = oe_tmp_path("rmem-trace.log");
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    g_autofree char *trace_args = g_strdup_printf(
        "-trace openenoc_mmio_complete -D %s", trace);
    GArray *lat = g_array_new(false, false, sizeof(double));
    OePair p;

    oe_pair_start(&p, trace_args);
    oe_peer(&p.d[0], 0, OE_MAC(1), OE_MODE_RMEM, 0, DST, 0x400, 0);
    oe_peer(&p.d[1], 0, OE_MAC(0), OE_MODE_RMEM, DST, 0, 0x400, 0);
    for (int i = 0; i < rmem_reads + 100; i++) {
        oe_rd(&p.d[0], OE_RMEM + 4 * (i % 256));
    }
    oe_pair_stop(&p);

    g_assert(g_file_get_contents(trace, &text, NULL, NULL));
    lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        const char *after = strstr(lines[i], " after ");
        double ns;

        if (after && sscanf(after, " after %lf ns", &ns) == 1) {
            g_array_append_val(lat, ns);
        }
    }
    if (lat->len < (guint)rmem_reads) {
        fprintf(stderr, "openenoc-bench: only %u RMEM completions traced\n",
                lat->len);
        exit(1);
    }
    /* the first 100 warm up caches and sockets */
    qsort(&g_array_index(lat, double, 100), lat->len - 100, sizeof(double),
          cmp_double);
    *p50 = g_array_index(lat, double, 100 + (lat->len - 100) / 2) / 1000;
    *p99 = g_array_index(lat, double, 100 + (lat->len - 100) * 99 / 100) / 1000;
    g_array_free(lat, true);
    unlink(trace);
}

int main(int argc, char **argv)
{
    double udp_mbps = 0, udp_rtt = 0, mc, hub, dg, p50, p99;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--udp-mbps") && i + 1 < argc) {
            udp_mbps = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--udp-rtt-us") && i + 1 < argc) {
            udp_rtt = atof(argv[++i]);
        } else if (!strcmp(argv[i], "--mib") && i + 1 < argc) {
            block = atoi(argv[++i]) * MiB;
        } else if (!strcmp(argv[i], "--rmem-reads") && i + 1 < argc) {
            rmem_reads = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--runs") && i + 1 < argc) {
            runs = atoi(argv[++i]);
        } else {
            printf("usage: %s [--udp-mbps X] [--udp-rtt-us Y] [--mib N] "
                   "[--rmem-reads N] [--runs N]\n(QTEST_QEMU_BINARY must name the "
                   "QEMU to measure)\n", argv[0]);
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (block == 0 || block > 96 * MiB || rmem_reads < 1 || runs < 1) {
        fprintf(stderr, "openenoc-bench: --mib must be 1..96, "
                "--rmem-reads and --runs positive\n");
        return 2;
    }

    mc = memcpy_mbps();
    hub = hub_mbps();
    printf("BENCH qemu.hub.dma.mbps %.1f Mbit/s\n", hub);
    printf("BENCH qemu.hub.dma.ratio_vs_memcpy %.3f ratio\n", hub / mc);
    dg = dgram_mbps();
    printf("BENCH qemu.dgram.dma.mbps %.1f Mbit/s\n", dg);
    if (udp_mbps > 0) {
        printf("BENCH qemu.dgram.dma.ratio_vs_udp %.3f ratio\n", dg / udp_mbps);
    }
    dgram_rmem(&p50, &p99);
    printf("BENCH qemu.dgram.rmem.latency_us_p50 %.1f us\n", p50);
    printf("BENCH qemu.dgram.rmem.latency_us_p99 %.1f us\n", p99);
    if (udp_rtt > 0) {
        printf("BENCH qemu.dgram.rmem.ratio_vs_udp_rtt %.3f ratio\n",
               p50 / udp_rtt);
    }
    fprintf(stderr, "openenoc-bench: memcpy baseline %.1f Mbit/s\n", mc);
    return 0;
}
