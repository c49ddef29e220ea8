/*
 * RTL co-simulation benchmark (make bench-cosim): the same mirror-to-remote
 * block between two endpoints, once with the RTL engine (the Verilator
 * model behind engine.h, loaded from build/cosim/libopenenoc_rtl.so) and
 * once with the C engine linked in, in the same run; and RMEM round trips.
 *
 *   cosim_bench [--bytes N] [--rmem N] [--repeat N] [--lib PATH] [--trace FILE.fst]
 *               [--name PREFIX] [--rtl-only]
 *
 * Prints BENCH lines: cosim.dma.mbps, cosim.c_engine.dma.mbps (the baseline),
 * cosim.dma.ratio_vs_c, cosim.rmem.ops_per_s, cosim.sim_cycles_per_s (model
 * clock cycles of both endpoints during the block per second),
 * cosim.dma.sender_cycles and cosim.dma.receiver_cycles (each endpoint's
 * model cycles during the block),
 * cosim.rmem.cycles_per_op (model cycles of both endpoints per read). --trace
 * writes an FST of the sending endpoint during the block (needs the traced
 * library, make cosim-trace).
 *
 * --name PREFIX replaces "cosim" in every name (make bench-cosim: cosim.w32
 * for the 32-bit library).
 *
 * --rtl-only skips the C engine (no baseline, no ratio): the process then
 * does nothing but the RTL engine's work, which is what
 * scripts/cosim-instr.sh counts the instructions of.
 *
 * --repeat N runs every measurement N times, the two engines in turn, and
 * prints the median of each figure (the ratio is the median of the
 * per-round ratios): a run lasts about a second, and on a shared machine a
 * single one swings with the other tenants' load. Every round starts from
 * fresh, never-touched memories (mmap), as a single run does: the C
 * engine's block time is mostly the first-touch page faults of the
 * receiving memory (docs/cosim.md, Benchmark), so reused memory would
 * change what the baseline measures from the first round to the next.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "openenoc/cosim.h"
#include "openenoc/engine.h"
#include "openenoc/regs.h"

typedef OeEngineApi Api;    /* cycles and trace: RTL only */

static const char *trace_path;  /* --trace: FST of the RTL sender */
#define MAX_REPEAT 99
static double dma_cycles_per_s; /* RTL: model cycles of both ends per second */
static double rmem_cycles;      /* RTL: model cycles of both ends per RMEM read */
static double dma_cycles[2];    /* RTL: model cycles of the block, sender and receiver */

#define MEM_SIZE (4u << 20)
#define QCAP 64

typedef struct Frame {
    uint8_t *p;
    size_t len;
} Frame;

typedef struct Node {
    const Api *api;
    OeEngine *e;
    uint8_t *mem;
    struct Node *peer;
    Frame q[QCAP];      /* frames waiting for this node */
    unsigned qh, qn;
    bool done;
    uint32_t value;
    uint64_t wake;      /* arm_timer: call advance at this cycle */
} Node;

static OeMemStatus mem_read(void *o, uint32_t addr, void *buf, uint32_t len)
{
    Node *n = o;
    if ((uint64_t)addr + len > MEM_SIZE) {
        return OE_MEM_DECERR;
    }
    memcpy(buf, n->mem + addr, len);
    return OE_MEM_OK;
}

static OeMemStatus mem_write(void *o, uint32_t addr, const void *buf, uint32_t len)
{
    Node *n = o;
    if ((uint64_t)addr + len > MEM_SIZE) {
        return OE_MEM_DECERR;
    }
    memcpy(n->mem + addr, buf, len);
    return OE_MEM_OK;
}

static void tx_frame(void *o, const uint8_t *f, size_t len)
{
    Node *d = ((Node *)o)->peer;
    if (d->qn == QCAP) {
        fprintf(stderr, "cosim_bench: frame queue full\n");
        exit(1);
    }
    Frame *fr = &d->q[(d->qh + d->qn++) % QCAP];
    fr->p = malloc(len);
    if (!fr->p) {
        exit(1);
    }
    memcpy(fr->p, f, len);
    fr->len = len;
}

static void csr_complete(void *o, uint32_t v)
{
    Node *n = o;
    n->done = true;
    n->value = v;
}

/* Time stands still here: a wake-up is always "at once" (more work). */
static void arm_timer(void *o, uint64_t cycle)
{
    ((Node *)o)->wake = cycle;
}

static const OeHostOps ops = {
    .mem_read = mem_read,
    .mem_write = mem_write,
    .tx_frame = tx_frame,
    .csr_complete = csr_complete,
    .arm_timer = arm_timer,
};

static void wr(Node *n, uint32_t off, uint32_t v)
{
    n->api->csr_write(n->e, off, 4, v);
}

static uint32_t rd(Node *n, uint32_t off)
{
    uint32_t v = 0;
    n->api->csr_read(n->e, off, 4, &v);
    return v;
}

/* Deliver queued frames and run asked-for wake-ups until nothing is left. */
static void run(Node *a, Node *b)
{
    for (;;) {
        bool moved = false;
        Node *ns[2] = { a, b };
        for (int i = 0; i < 2; i++) {
            Node *n = ns[i];
            uint64_t now = n->api->now(n->e);
            if (n->wake <= now) {
                n->wake = OE_TIMER_NONE;
                n->api->advance(n->e, now);
                moved = true;
            }
            if (n->qn && n->api->can_receive(n->e)) {
                Frame fr = n->q[n->qh];
                n->qh = (n->qh + 1) % QCAP;
                n->qn--;
                n->api->rx_frame(n->e, fr.p, fr.len);
                free(fr.p);
                moved = true;
            }
        }
        if (!moved) {
            return;
        }
    }
}

/* CPU time of this process: the machine is shared (2 cores, several
 * builds), and wall time would count the time others hold the CPU; on an
 * idle machine the two agree. Both engines are timed the same way. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Zeroed memory no one has touched yet: each round pays the same first-touch
 * page faults (NULL when out of memory). */
static uint8_t *fresh_mem(void)
{
    void *p = mmap(NULL, MEM_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void setup(const Api *api, Node *a, Node *b)
{
    const char *err = NULL;
    memset(a, 0, sizeof(*a));
    memset(b, 0, sizeof(*b));
    a->api = b->api = api;
    a->wake = b->wake = OE_TIMER_NONE;
    a->peer = b;
    b->peer = a;
    a->mem = fresh_mem();
    b->mem = fresh_mem();
    a->e = api->create(&ops, a, &(OeEngineConfig){ .reset_mac = 0x020E0C00000Aull }, &err);
    b->e = api->create(&ops, b, &(OeEngineConfig){ .reset_mac = 0x020E0C00000Bull }, &err);
    if (!a->mem || !b->mem || !a->e || !b->e) {
        fprintf(stderr, "cosim_bench: %s: %s\n", api->name, err ? err : "out of memory");
        exit(1);
    }
}

static void teardown(Node *a, Node *b)
{
    a->api->destroy(a->e);
    b->api->destroy(b->e);
    munmap(a->mem, MEM_SIZE);
    munmap(b->mem, MEM_SIZE);
}

/* One block of `bytes` from A to B; returns MB/s. */
static double dma_mbps(const Api *api, uint32_t bytes)
{
    Node a, b;
    setup(api, &a, &b);
    for (uint32_t i = 0; i < bytes; i++) {
        a.mem[i] = (uint8_t)(i * 7 + 1);
    }
    /* A entry 0: push to B (mode 3); B entry 0: admits A's writes (mode 2) */
    wr(&a, OE_PEER_MAC_ADDRESS(0), 0x0C00000B);
    wr(&a, OE_PEER_MAC_ADDRESS_HI(0), 0x020E);
    wr(&a, OE_PEER_SIZE(0), bytes);
    wr(&a, OE_PEER_DMA(0), 3);
    wr(&b, OE_PEER_MAC_ADDRESS(0), 0x0C00000A);
    wr(&b, OE_PEER_MAC_ADDRESS_HI(0), 0x020E);
    wr(&b, OE_PEER_SIZE(0), bytes);
    wr(&b, OE_PEER_DMA(0), 2);
    if (trace_path && api->trace) {
        const char *err = "";
        if (api->trace(a.e, trace_path, 0, 0, &err) < 0) {
            fprintf(stderr, "cosim_bench: --trace %s: %s\n", trace_path, err);
            exit(1);
        }
    }
    uint64_t ca = api->cycles ? api->cycles(a.e) : 0;
    uint64_t cb = api->cycles ? api->cycles(b.e) : 0;
    double t0 = now_s();
    wr(&a, OE_PEER_DMA(0), 3 | OE_PEER_DMA_REQUEST_MASK);
    run(&a, &b);
    double t = now_s() - t0;
    if (api->cycles) {
        dma_cycles[0] = (double)(api->cycles(a.e) - ca);
        dma_cycles[1] = (double)(api->cycles(b.e) - cb);
        dma_cycles_per_s = (dma_cycles[0] + dma_cycles[1]) / t;
    }
    uint32_t st = rd(&a, OE_PEER_DMA(0));
    if (!(st & OE_PEER_DMA_DONE_MASK) || memcmp(a.mem, b.mem, bytes)) {
        fprintf(stderr, "cosim_bench: %s: block failed (dma 0x%08x)\n", api->name, st);
        exit(1);
    }
    teardown(&a, &b);
    return bytes / t / 1e6;
}

/* RMEM reads from A through B; returns operations per second. */
static double rmem_ops(const Api *api, unsigned n)
{
    Node a, b;
    setup(api, &a, &b);
    wr(&a, OE_PEER_MAC_ADDRESS(0), 0x0C00000B);
    wr(&a, OE_PEER_MAC_ADDRESS_HI(0), 0x020E);
    wr(&a, OE_PEER_SIZE(0), 0x400);
    wr(&a, OE_PEER_DMA(0), 1);
    wr(&b, OE_PEER_MAC_ADDRESS(0), 0x0C00000A);
    wr(&b, OE_PEER_MAC_ADDRESS_HI(0), 0x020E);
    wr(&b, OE_PEER_SIZE(0), 0x400);
    wr(&b, OE_PEER_DMA(0), 1);
    uint64_t c0 = api->cycles ? api->cycles(a.e) + api->cycles(b.e) : 0;
    double t0 = now_s();
    for (unsigned i = 0; i < n; i++) {
        uint32_t v;
        a.done = false;
        if (api->csr_read(a.e, OE_RMEM + 4 * (i % 256), 4, &v) == OE_CSR_PENDING) {
            run(&a, &b);
            if (!a.done) {
                fprintf(stderr, "cosim_bench: %s: RMEM read never completed\n", api->name);
                exit(1);
            }
        }
    }
    double t = now_s() - t0;
    if (api->cycles) {
        rmem_cycles = (double)(api->cycles(a.e) + api->cycles(b.e) - c0) / n;
    }
    teardown(&a, &b);
    return n / t;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n values (sorts them). */
static double median(double *v, unsigned n)
{
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
    uint32_t bytes = 1u << 20;
    unsigned rmem = 2000;
    unsigned repeat = 1;
    const char *lib = "build/cosim/libopenenoc_rtl.so";
    const char *name = "cosim";     /* prefix of the BENCH names */
    bool rtl_only = false;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--bytes") && i + 1 < argc) {
            bytes = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--rmem") && i + 1 < argc) {
            rmem = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
            repeat = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--lib") && i + 1 < argc) {
            lib = argv[++i];
        } else if (!strcmp(argv[i], "--trace") && i + 1 < argc) {
            trace_path = argv[++i];
        } else if (!strcmp(argv[i], "--name") && i + 1 < argc) {
            name = argv[++i];
        } else if (!strcmp(argv[i], "--rtl-only")) {
            rtl_only = true;
        } else {
            printf("usage: %s [--bytes N (<= 4 MiB, default 1 MiB)] [--rmem N (default 2000)]\n"
                   "       [--repeat N (1..%d, default 1)] [--lib PATH] [--trace FILE.fst]\n"
                   "       [--name PREFIX (default cosim: cosim.dma.mbps ...)] [--rtl-only]\n"
                   "RTL engine vs C engine: a mirror-to-remote block and RMEM reads;\n"
                   "prints BENCH <name> <value> <unit> lines (medians over --repeat\n"
                   "rounds, the engines in turn). --trace writes an FST of the RTL\n"
                   "sender during the block (traced library only). --rtl-only skips\n"
                   "the C engine (no baseline and no ratio lines).\n", argv[0], MAX_REPEAT);
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    if (bytes == 0 || bytes > MEM_SIZE) {
        fprintf(stderr, "cosim_bench: --bytes must be 1..%u\n", MEM_SIZE);
        return 2;
    }
    if (rmem == 0) {
        fprintf(stderr, "cosim_bench: --rmem must be at least 1\n");
        return 2;
    }
    if (repeat == 0 || repeat > MAX_REPEAT) {
        fprintf(stderr, "cosim_bench: --repeat must be 1..%d\n", MAX_REPEAT);
        return 2;
    }
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "cosim_bench: %s\n", dlerror());
        return 1;
    }
    Api rtl;
    const char *missing = oe_engine_api_load(&rtl, "rtl", dlsym, h);
    if (missing) {
        fprintf(stderr, "cosim_bench: %s does not export %s\n", lib, missing);
        return 1;
    }
    const Api c = OE_ENGINE_API_LINKED("c");
    if (trace_path && !rtl.trace) {
        fprintf(stderr, "cosim_bench: %s has no oe_cosim_trace\n", lib);
        return 1;
    }
    double c_mbps[MAX_REPEAT], r_mbps[MAX_REPEAT], ratio[MAX_REPEAT], cps[MAX_REPEAT];
    double r_ops[MAX_REPEAT], c_ops[MAX_REPEAT], cpo[MAX_REPEAT];
    double snd[MAX_REPEAT], rcv[MAX_REPEAT];
    for (unsigned k = 0; k < repeat; k++) {
        c_mbps[k] = rtl_only ? 0 : dma_mbps(&c, bytes);
        r_mbps[k] = dma_mbps(&rtl, bytes);
        ratio[k] = rtl_only ? 0 : r_mbps[k] / c_mbps[k];
        cps[k] = dma_cycles_per_s;
        snd[k] = dma_cycles[0];
        rcv[k] = dma_cycles[1];
        r_ops[k] = rmem_ops(&rtl, rmem);
        cpo[k] = rmem_cycles;
        c_ops[k] = rtl_only ? 0 : rmem_ops(&c, rmem * 100);
    }
    if (!rtl_only) {
        printf("BENCH %s.c_engine.dma.mbps %.1f MB/s\n", name, median(c_mbps, repeat));
    }
    printf("BENCH %s.dma.mbps %.2f MB/s\n", name, median(r_mbps, repeat));
    if (!rtl_only) {
        printf("BENCH %s.dma.ratio_vs_c %.5f ratio\n", name, median(ratio, repeat));
    }
    if (rtl.cycles) {
        printf("BENCH %s.sim_cycles_per_s %.0f cycles/s\n", name, median(cps, repeat));
        printf("BENCH %s.dma.sender_cycles %.0f cycles\n", name, median(snd, repeat));
        printf("BENCH %s.dma.receiver_cycles %.0f cycles\n", name, median(rcv, repeat));
    }
    printf("BENCH %s.rmem.ops_per_s %.0f ops/s\n", name, median(r_ops, repeat));
    if (rtl.cycles) {
        printf("BENCH %s.rmem.cycles_per_op %.0f cycles\n", name, median(cpo, repeat));
    }
    if (!rtl_only) {
        printf("BENCH %s.c_engine.rmem.ops_per_s %.0f ops/s\n", name, median(c_ops, repeat));
    }
    return 0;
}
