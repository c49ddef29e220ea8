/*
 * bench_engine: two C engines wired back to back in one process.
 *
 *   engine.dma.mbps             64 MiB mirror-to-remote block, 8160-byte
 *                               fragments, unicast (every fragment answered)
 *   engine.dma.ratio_vs_memcpy  the same against memcpy of the same bytes,
 *                               timed in the same run
 *   engine.mcast.mbps           the same block as a group write (no replies)
 *   engine.rmem.ops_per_s       RMEM window read round trips
 *
 * A frame goes straight into the peer engine when that engine is not inside
 * a call (engine.h only forbids re-entering the engine whose callback is
 * running); otherwise it is queued and delivered after the call returns, as
 * every host must.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "openenoc/engine.h"
#include "openenoc/oetp.h"
#include "openenoc/regs.h"

#define MEM_BASE 0x10000000u

typedef struct Node Node;
struct Node {
    OeEngine *e;
    Node *peer;
    uint8_t *mem;
    uint32_t mem_size;
    bool busy;                  /* inside a call into e */
    uint8_t queue[4][OETP_FRAME_MAX];
    size_t qlen[4];
    unsigned qhead, qcount;     /* frames waiting for e */
    bool wake;                  /* e asked for an advance */
    bool csr_done;
    uint32_t csr_value;
};

static OeMemStatus mem_read(void *opaque, uint32_t addr, void *buf, uint32_t len)
{
    Node *n = opaque;
    if (addr < MEM_BASE || (uint64_t)addr - MEM_BASE + len > n->mem_size) {
        return OE_MEM_DECERR;
    }
    memcpy(buf, n->mem + (addr - MEM_BASE), len);
    return OE_MEM_OK;
}

static OeMemStatus mem_write(void *opaque, uint32_t addr, const void *buf,
                             uint32_t len)
{
    Node *n = opaque;
    if (addr < MEM_BASE || (uint64_t)addr - MEM_BASE + len > n->mem_size) {
        return OE_MEM_DECERR;
    }
    memcpy(n->mem + (addr - MEM_BASE), buf, len);
    return OE_MEM_OK;
}

static void deliver(Node *to, const uint8_t *f, size_t len)
{
    if (!to->busy && to->qcount == 0) {
        to->busy = true;
        oe_engine_rx_frame(to->e, f, len);
        to->busy = false;
        return;
    }
    if (to->qcount == 4) {
        fprintf(stderr, "bench_engine: frame queue overflow\n");
        exit(1);
    }
    unsigned slot = (to->qhead + to->qcount++) % 4;
    memcpy(to->queue[slot], f, len);
    to->qlen[slot] = len;
}

static void tx_frame(void *opaque, const uint8_t *f, size_t len)
{
    deliver(((Node *)opaque)->peer, f, len);
}

static void arm_timer(void *opaque, uint64_t cycle)
{
    ((Node *)opaque)->wake = cycle != OE_TIMER_NONE;
}

static void csr_complete(void *opaque, uint32_t value)
{
    Node *n = opaque;
    n->csr_done = true;
    n->csr_value = value;
}

static const OeHostOps ops = {
    .mem_read = mem_read,
    .mem_write = mem_write,
    .tx_frame = tx_frame,
    .arm_timer = arm_timer,
    .csr_complete = csr_complete,
};

/* Run queued deliveries and wake-ups until both engines are quiet. */
static void settle(Node *a, Node *b)
{
    for (;;) {
        bool any = false;
        Node *nodes[2] = { a, b };
        for (int i = 0; i < 2; i++) {
            Node *n = nodes[i];
            if (n->qcount) {
                unsigned slot = n->qhead;
                n->qhead = (n->qhead + 1) % 4;
                n->qcount--;
                n->busy = true;
                oe_engine_rx_frame(n->e, n->queue[slot], n->qlen[slot]);
                n->busy = false;
                any = true;
            } else if (n->wake) {
                n->wake = false;
                n->busy = true;
                oe_engine_advance(n->e, oe_engine_now(n->e));
                n->busy = false;
                any = true;
            }
        }
        if (!any) {
            return;
        }
    }
}

static void wr(Node *n, uint32_t off, uint32_t v)
{
    n->busy = true;
    oe_engine_csr_write(n->e, off, 4, v);
    n->busy = false;
}

static uint32_t rd(Node *n, uint32_t off)
{
    uint32_t v;
    n->busy = true;
    oe_engine_csr_read(n->e, off, 4, &v);
    n->busy = false;
    return v;
}

static void set_mac(Node *n, uint32_t lo_off, uint64_t mac)
{
    wr(n, lo_off, (uint32_t)mac);
    wr(n, lo_off + 4, (uint32_t)(mac >> 32));
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void node_init(Node *n, uint32_t mem_size, uint64_t mac)
{
    const char *err = NULL;
    memset(n, 0, sizeof(*n));
    n->mem_size = mem_size;
    n->mem = malloc(mem_size);
    n->e = oe_engine_new(&ops, n, &(OeEngineConfig) { .reset_mac = mac }, &err);
    if (!n->mem || !n->e) {
        fprintf(stderr, "bench_engine: setup failed: %s\n", err ? err : "malloc");
        exit(1);
    }
}

/* One block from a to b; returns seconds. dst is b's MAC or a group. */
static double run_block(Node *a, Node *b, uint64_t dst, uint32_t size,
                        uint32_t frag)
{
    const uint64_t mac_a = 0x020E0C000001ull;
    wr(a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, frag);
    set_mac(a, OE_PEER_MAC_ADDRESS(0), dst);
    wr(a, OE_PEER_LOCAL_ADDRESS(0), MEM_BASE);
    wr(a, OE_PEER_REMOTE_ADDRESS(0), MEM_BASE);
    wr(a, OE_PEER_SIZE(0), size);
    wr(a, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK | 3);
    set_mac(b, OE_PEER_MAC_ADDRESS(0), mac_a);
    wr(b, OE_PEER_LOCAL_ADDRESS(0), MEM_BASE);
    wr(b, OE_PEER_SIZE(0), size);
    wr(b, OE_PEER_DMA(0), 2);
    set_mac(b, OE_CONFIG_MULTICAST_ADDRESS, oetp_mac_is_group(dst) ? dst : 0);

    double t0 = now_s();
    wr(a, OE_PEER_DMA(0), OE_PEER_DMA_REQUEST_MASK | 3);
    settle(a, b);
    double t = now_s() - t0;
    uint32_t st = rd(a, OE_PEER_DMA(0));
    if (!(st & OE_PEER_DMA_DONE_MASK) || (st & OE_PEER_DMA_ERROR_MASK)) {
        fprintf(stderr, "bench_engine: block failed, dma=0x%08x\n", st);
        exit(1);
    }
    return t;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: bench_engine [--size BYTES] [--frag BYTES] [--rmem-ops N]\n"
               "Moves a block between two in-process C engines and prints\n"
               "BENCH <name> <value> <unit> lines (see the source header).\n");
}

int main(int argc, char **argv)
{
    uint32_t size = 64u << 20, frag = 8160, rmem_ops = 2000000;
    static const struct option longopts[] = {
        { "size", required_argument, NULL, 's' },
        { "frag", required_argument, NULL, 'f' },
        { "rmem-ops", required_argument, NULL, 'r' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = getopt_long(argc, argv, "s:f:r:h", longopts, NULL)) != -1) {
        switch (c) {
        case 's': size = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'f': frag = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'r': rmem_ops = (uint32_t)strtoul(optarg, NULL, 0); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (size == 0 || size > (256u << 20) || frag < 4 || frag > OETP_FRAG_CEILING) {
        fprintf(stderr, "bench_engine: size must be 1..256 MiB, frag 4..8160\n");
        return 2;
    }

    static Node a, b;
    const uint64_t mac_a = 0x020E0C000001ull, mac_b = 0x020E0C000002ull;
    node_init(&a, size, mac_a);
    node_init(&b, size, mac_b);
    a.peer = &b;
    b.peer = &a;
    for (uint32_t i = 0; i < size; i++) {
        a.mem[i] = (uint8_t)(i * 131 + (i >> 13));
    }
    memset(b.mem, 0, size);

    /* Warm up both paths (page faults), then time memcpy and the engine. */
    memcpy(b.mem, a.mem, size);
    memset(b.mem, 0, size);
    double best_copy = 1e9, best_dma = 1e9, best_mcast = 1e9;
    for (int round = 0; round < 3; round++) {
        double t0 = now_s();
        memcpy(b.mem, a.mem, size);
        double t = now_s() - t0;
        best_copy = t < best_copy ? t : best_copy;
        memset(b.mem, 0, size);
        t = run_block(&a, &b, mac_b, size, frag);
        best_dma = t < best_dma ? t : best_dma;
        if (memcmp(a.mem, b.mem, size) != 0) {
            fprintf(stderr, "bench_engine: data mismatch after unicast block\n");
            return 1;
        }
        memset(b.mem, 0, size);
        t = run_block(&a, &b, 0x030E0C000100ull, size, frag);
        best_mcast = t < best_mcast ? t : best_mcast;
        if (memcmp(a.mem, b.mem, size) != 0) {
            fprintf(stderr, "bench_engine: data mismatch after group block\n");
            return 1;
        }
    }
    double mb = size / 1e6;
    printf("BENCH engine.memcpy.mbps %.0f MB/s\n", mb / best_copy);
    printf("BENCH engine.dma.mbps %.0f MB/s\n", mb / best_dma);
    printf("BENCH engine.dma.ratio_vs_memcpy %.3f ratio\n", best_copy / best_dma);
    printf("BENCH engine.mcast.mbps %.0f MB/s\n", mb / best_mcast);

    /* RMEM: a reads b's memory through window word 0 (peer entry 1). */
    set_mac(&a, OE_PEER_MAC_ADDRESS(1), mac_b);
    wr(&a, OE_PEER_RMEM_ADDRESS(1), 0);
    wr(&a, OE_PEER_REMOTE_ADDRESS(1), MEM_BASE);
    wr(&a, OE_PEER_SIZE(1), 1024);
    wr(&a, OE_PEER_DMA(1), 1);
    set_mac(&b, OE_PEER_MAC_ADDRESS(1), mac_a);
    wr(&b, OE_PEER_LOCAL_ADDRESS(1), MEM_BASE);
    wr(&b, OE_PEER_SIZE(1), 1024);
    wr(&b, OE_PEER_DMA(1), 1);
    wr(&b, OE_PEER_DMA(0), 0);   /* entry 0 also names a: keep 1 the match */
    memcpy(b.mem, "\x78\x56\x34\x12", 4);
    double t0 = now_s();
    for (uint32_t i = 0; i < rmem_ops; i++) {
        uint32_t v;
        a.csr_done = false;
        a.busy = true;
        OeCsrStatus st = oe_engine_csr_read(a.e, OE_RMEM + 4 * (i & 255), 4, &v);
        a.busy = false;
        if (st == OE_CSR_PENDING) {
            settle(&a, &b);
            v = a.csr_value;
            if (!a.csr_done) {
                fprintf(stderr, "bench_engine: RMEM read never completed\n");
                return 1;
            }
        }
        if ((i & 255) == 0 && v != 0x12345678u) {
            fprintf(stderr, "bench_engine: RMEM read 0x%08x\n", v);
            return 1;
        }
    }
    double t = now_s() - t0;
    printf("BENCH engine.rmem.ops_per_s %.0f ops/s\n", rmem_ops / t);

    oe_engine_free(a.e);
    oe_engine_free(b.e);
    free(a.mem);
    free(b.mem);
    return 0;
}
