/*
 * Differential test: the C engine (linked in) and the RTL engine (the
 * Verilator model behind engine.h, dlopen'ed from libopenenoc_rtl.so) run
 * the same random program side by side in one process: CSR writes and
 * reads, RMEM window accesses, peer DMA starts, received oETP requests and
 * replies (well formed and mutated), raw frames, bus errors, time steps,
 * IRQ service and resets. After every step both engines are run to their
 * fixed point (every wake-up at the current cycle served) and compared:
 * transmitted frames, memory writes (byte ranges, adjacent writes merged),
 * the memory image, IRQ level changes, CSR completions, CSR read values, a
 * sweep of status registers, pending state and can_receive. Time moves only
 * in program steps and the same way for both, so only architectural
 * behaviour is compared, never cycle timing.
 *
 *   diff_engines --lib PATH [--seed S] [-n N] [--time SEC] [--ops K]
 *                [--mem-beat B] [--out DIR] [FILE|DIR...]
 *
 * --mem-beat B gives both engines the memory bus's beat bytes (engine.h's
 * mem_beat_bytes: 4, 8, 16 or 32); the RTL library refuses one it was not built
 * with (check-diff runs the 128-bit library with 16).
 *
 * FILE/DIR: byte programs to run first (the fuzz corpus works: any bytes
 * decode). Then N random programs (seeds S, S+1, ...) or as many as fit in
 * SEC seconds. The first divergence stops the run: it is printed with the
 * step, both sides' events and a reproducer file (the program bytes) to
 * replay with `diff_engines --lib PATH FILE`. OE_DIFF_TRACE=1 prints every
 * step. Exit 0 when every program agreed.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "openenoc/engine.h"
#include "openenoc/oetp.h"
#include "openenoc/regs.h"
#include "openenoc/regs_table.h"

/* ---- the two engines ------------------------------------------------------ */

typedef OeEngineApi Api;

static const Api c_api = OE_ENGINE_API_LINKED("C");
static Api rtl_api;

static void load_rtl(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        fprintf(stderr, "diff_engines: %s\n", dlerror());
        exit(2);
    }
    const char *missing = oe_engine_api_load(&rtl_api, "RTL", dlsym, h);
    if (missing) {
        fprintf(stderr, "diff_engines: %s lacks %s\n", path, missing);
        exit(2);
    }
}

/* ---- one host per engine -------------------------------------------------- */

#define MEM_SIZE 0x40000u
#define LOG_CAP (1u << 20)
#define MAX_ERRS 4

enum { EV_TX = 1, EV_MEMW, EV_IRQ, EV_CPL };

typedef struct ErrRange {
    uint32_t lo, hi;
    OeMemStatus st;
    int dir;                 /* 0 read, 1 write, 2 both */
} ErrRange;

static ErrRange errs[MAX_ERRS];
static unsigned nerrs;

typedef struct Side {
    const Api *api;
    OeEngine *e;
    uint8_t mem[MEM_SIZE];
    /* Events since the last compare, one log per kind: the order of events
     * of different kinds within one step is not architectural. */
    uint8_t log[5][LOG_CAP];
    size_t loglen[5], lastw; /* lastw: offset of the last EV_MEMW + 1 */
    bool overflow, pending, pend_write, irq;
    uint64_t wake;
    uint8_t lastreq[OETP_FRAME_MAX];   /* the last request frame sent */
    size_t lastreq_len;
} Side;

static Side sides[2];
static uint64_t now;
static int trace;

static void log_event(Side *s, uint8_t type, const void *p, size_t n)
{
    if (s->loglen[type] + 5 + n > LOG_CAP) {
        s->overflow = true;
        return;
    }
    uint8_t *o = s->log[type] + s->loglen[type];
    o[0] = type;
    memcpy(o + 1, &(uint32_t){ (uint32_t)n }, 4);
    memcpy(o + 5, p, n);
    s->loglen[type] += 5 + n;
}

static bool err_hit(uint32_t addr, uint32_t len, int dir, OeMemStatus *st)
{
    for (unsigned i = 0; i < nerrs; i++) {
        if ((errs[i].dir == dir || errs[i].dir == 2) && addr < errs[i].hi &&
            addr + (uint64_t)len > errs[i].lo) {
            *st = errs[i].st;
            return true;
        }
    }
    return false;
}

static OeMemStatus h_read(void *o, uint32_t addr, void *buf, uint32_t len)
{
    Side *s = o;
    OeMemStatus st;
    if ((uint64_t)addr + len > MEM_SIZE) {
        return OE_MEM_DECERR;
    }
    if (err_hit(addr, len, 0, &st)) {
        return st;
    }
    memcpy(buf, s->mem + addr, len);
    return OE_MEM_OK;
}

static OeMemStatus h_write(void *o, uint32_t addr, const void *buf, uint32_t len)
{
    Side *s = o;
    OeMemStatus st = OE_MEM_OK;
    if ((uint64_t)addr + len > MEM_SIZE) {
        st = OE_MEM_DECERR;
    } else if (!err_hit(addr, len, 1, &st)) {
        memcpy(s->mem + addr, buf, len);
    }
    /* Log address, status and bytes; a write continuing the previous one
     * (same status, next address) merges into it, so bursts cut at other
     * places compare equal. */
    uint8_t *log = s->log[EV_MEMW];
    size_t *ll = &s->loglen[EV_MEMW];
    if (s->lastw) {
        uint8_t *ev = log + s->lastw - 1;
        uint32_t n, a;
        memcpy(&n, ev + 1, 4);
        memcpy(&a, ev + 5, 4);
        if (ev[9] == (uint8_t)st && a + (n - 5) == addr && *ll + len <= LOG_CAP) {
            memcpy(log + *ll, buf, len);
            *ll += len;
            n += len;
            memcpy(ev + 1, &n, 4);
            return st;
        }
    }
    uint8_t head[5];
    memcpy(head, &addr, 4);
    head[4] = (uint8_t)st;
    size_t at = *ll;
    log_event(s, EV_MEMW, head, 5);
    if (!s->overflow && *ll + len <= LOG_CAP) {
        memcpy(log + *ll, buf, len);
        *ll += len;
        uint32_t n = 5 + len;
        memcpy(log + at + 1, &n, 4);
        s->lastw = at + 1;
    }
    return st;
}

static void h_tx(void *o, const uint8_t *f, size_t len)
{
    Side *s = o;
    log_event(s, EV_TX, f, len);
    int cmd = oetp_frame_cmd(f, len);
    if (len >= OETP_OFF_RID + 4 && len <= OETP_FRAME_MAX && cmd >= 0 &&
        !(cmd & 0x0f)) {
        memcpy(s->lastreq, f, len);
        s->lastreq_len = len;
    }
}

static void h_irq(void *o, bool level)
{
    Side *s = o;
    uint8_t b = level;
    s->irq = level;
    log_event(s, EV_IRQ, &b, 1);
}

static void h_complete(void *o, uint32_t value)
{
    Side *s = o;
    s->pending = false;
    if (s->pend_write) {
        value = 0;   /* a write's completion value is ignored (engine.h) */
    }
    log_event(s, EV_CPL, &value, 4);
}

static void h_arm(void *o, uint64_t cycle)
{
    ((Side *)o)->wake = cycle;
}

static const OeHostOps host_ops = {
    .mem_read = h_read, .mem_write = h_write, .tx_frame = h_tx,
    .set_irq = h_irq, .csr_complete = h_complete, .arm_timer = h_arm,
};

/* ---- the program ---------------------------------------------------------- */

typedef struct Prog {
    const uint8_t *p;
    size_t n, i;
} Prog;

static unsigned get8(Prog *g)
{
    return g->i < g->n ? g->p[g->i++] : 0;
}

static uint32_t get16(Prog *g)
{
    uint32_t v = get8(g);
    return v | get8(g) << 8;
}

static uint32_t get32(Prog *g)
{
    uint32_t v = get16(g);
    return v | get16(g) << 16;
}

static const uint64_t mac_a = 0x020e0c00000aull;
static const uint64_t mac_g = 0x030e0c000001ull;
static const uint64_t peer_macs[5] = {
    0x020e0c00000bull, 0x020e0c00000cull, 0x020e0c00000dull, 0x020e0c0000eeull,
    0x030e0c00000bull,   /* a group source: never valid */
};
/* Window bases of the peer table the prelude writes (tests/vectors/peers.inc). */
static const uint32_t win_base[3] = { 0x1000, 0x10000, 0x20000 };
static uint32_t max_frame;
static char why[512];
static unsigned step_no;
static uint32_t mem_beat;   /* --mem-beat: engine.h's mem_beat_bytes, 0 = own */

static void diverge(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (!why[0]) {
        vsnprintf(why, sizeof(why), fmt, ap);
    }
    va_end(ap);
}

/* Serve every wake-up due at the current cycle, on both sides. */
static void settle(void)
{
    for (int k = 0; k < 2; k++) {
        Side *s = &sides[k];
        for (unsigned n = 0; s->wake <= now; n++) {
            if (n == 100000) {
                diverge("%s engine asks for wake-ups at cycle %llu forever",
                        s->api->name, (unsigned long long)now);
                break;
            }
            s->wake = OE_TIMER_NONE;
            s->api->advance(s->e, now);
        }
    }
}

static void advance(uint64_t cycles)
{
    uint64_t target = now + cycles;
    /* event by event: each side is called at its own wake-ups as a host
     * would, and both at every wake-up of either, so time moves the same
     * way for both */
    while (now < target) {
        uint64_t next = target;
        for (int k = 0; k < 2; k++) {
            if (sides[k].wake > now && sides[k].wake < next) {
                next = sides[k].wake;
            }
        }
        now = next;
        for (int k = 0; k < 2; k++) {
            sides[k].api->advance(sides[k].e, now);
        }
        settle();
    }
}

static void csr_write(uint32_t off, unsigned size, uint32_t v)
{
    OeCsrStatus st[2];
    if (trace) {
        fprintf(stderr, "  csr write 0x%03x size %u 0x%x\n", off, size, v);
    }
    for (int k = 0; k < 2; k++) {
        sides[k].pend_write = true;
        st[k] = sides[k].api->csr_write(sides[k].e, off, size, v);
        sides[k].pending = st[k] == OE_CSR_PENDING;
    }
    if (st[0] != st[1]) {
        diverge("CSR write 0x%03x size %u: C %s, RTL %s", off, size,
                st[0] ? "pending" : "done", st[1] ? "pending" : "done");
    }
}

static void csr_read(uint32_t off, unsigned size)
{
    OeCsrStatus st[2];
    uint32_t v[2] = { 0, 0 };
    for (int k = 0; k < 2; k++) {
        sides[k].pend_write = false;
        st[k] = sides[k].api->csr_read(sides[k].e, off, size, &v[k]);
        sides[k].pending = st[k] == OE_CSR_PENDING;
    }
    if (st[0] != st[1]) {
        diverge("CSR read 0x%03x size %u: C %s, RTL %s", off, size,
                st[0] ? "pending" : "done", st[1] ? "pending" : "done");
    } else if (st[0] == OE_CSR_DONE && v[0] != v[1]) {
        diverge("CSR read 0x%03x size %u: C 0x%08x, RTL 0x%08x", off, size, v[0], v[1]);
    }
}

static void rx(const uint8_t *f, size_t len)
{
    bool cr[2];
    for (int k = 0; k < 2; k++) {
        cr[k] = sides[k].api->can_receive(sides[k].e);
    }
    if (cr[0] != cr[1]) {
        diverge("can_receive: C %d, RTL %d", cr[0], cr[1]);
        return;
    }
    if (!cr[0]) {
        return;   /* the host keeps the frame: so do we (dropped) */
    }
    if (trace) {
        fprintf(stderr, "  rx %zu:", len);
        for (size_t i = 0; i < len && i < 40; i++) {
            fprintf(stderr, " %02x", f[i]);
        }
        fprintf(stderr, "%s\n", len > 40 ? " ..." : "");
    }
    for (int k = 0; k < 2; k++) {
        sides[k].api->rx_frame(sides[k].e, f, len);
    }
}

static bool any_pending(void)
{
    return sides[0].pending || sides[1].pending;
}

/* The status words compared after every step (reads without side effects). */
static const uint32_t sweep_regs[] = {
    OE_PEER_DMA(0), OE_PEER_DMA(1), OE_PEER_DMA(2), OE_PEER_DMA(3),
    OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_TRANSFERRED_LENGTH,
    OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_RECEIVED_LENGTH,
    OE_IRQ_STATUS, OE_IRQ_CLAIM, OE_DIRECT_SINK_STATUS, OE_DIRECT_SINK_DATA,
    OE_DIRECT_SOURCE_STATUS, OE_DIRECT_SOURCE_CONTROL,
};

static size_t build_frame(uint8_t *f, Prog *g);
static size_t build_reply(uint8_t *f, Prog *g);
static size_t build_raw(uint8_t *f, Prog *g);

static void prelude(void)
{
    csr_write(OE_CONFIG_MAC_ADDRESS, 4, (uint32_t)mac_a);
    csr_write(OE_CONFIG_MAC_ADDRESS_HI, 4, (uint32_t)(mac_a >> 32));
    csr_write(OE_CONFIG_MULTICAST_ADDRESS, 4, (uint32_t)mac_g);
    csr_write(OE_CONFIG_MULTICAST_ADDRESS_HI, 4, (uint32_t)(mac_g >> 32));
    static const uint32_t rmem[3] = { 0, 0, 0 }, remote[3] = { 0x8000, 0x30000, 0x40000 };
    static const uint32_t size[3] = { 0x100, 0x4000, 0x4000 };
    for (unsigned n = 0; n < 3; n++) {
        csr_write(OE_PEER_MAC_ADDRESS(n), 4, (uint32_t)peer_macs[n]);
        csr_write(OE_PEER_MAC_ADDRESS_HI(n), 4, (uint32_t)(peer_macs[n] >> 32));
        csr_write(OE_PEER_RMEM_ADDRESS(n), 4, rmem[n]);
        csr_write(OE_PEER_LOCAL_ADDRESS(n), 4, win_base[n]);
        csr_write(OE_PEER_REMOTE_ADDRESS(n), 4, remote[n]);
        csr_write(OE_PEER_SIZE(n), 4, size[n]);
        csr_write(OE_PEER_DMA(n), 4, n + 1);
    }
    csr_write(OE_CONFIG_RMEM_TIMEOUT, 4, 3000);
    csr_write(OE_CONFIG_DMA_TIMEOUT, 4, 3000);
    csr_write(OE_IRQ_EVENT_ENABLE, 4, 0x3f);
    csr_write(OE_IRQ_CONTROL, 4, 1);
}

/* One step. Returns a short description for the trace. */
static const char *step(Prog *g)
{
    static uint8_t f[OETP_FRAME_MAX + 64];
    static char d[96];
    unsigned op = get8(g) % 16;
    size_t n;

    if (any_pending() && op < 8) {
        op = 8 + op % 8;   /* no CSR access while one pends (engine.h) */
    }
    switch (op) {
    case 0: case 1: {                                  /* CSR write */
        const OeRegWord *w = &oe_reg_words[get8(g) % (sizeof(oe_reg_words) / sizeof(oe_reg_words[0]))];
        unsigned kind = get8(g) % 4;
        uint32_t v = kind == 0 ? get32(g) : kind == 1 ? get8(g) : kind == 2 ? get16(g) : w->reset;
        if (w->offset == OE_CONFIG_MAC_ADDRESS || w->offset == OE_CONFIG_MAC_ADDRESS_HI) {
            v = w->offset == OE_CONFIG_MAC_ADDRESS ? (uint32_t)mac_a : (uint32_t)(mac_a >> 32);
        }
        csr_write(w->offset, 4, v);
        snprintf(d, sizeof(d), "csr write %s 0x%x", w->name, v);
        return d;
    }
    case 2: {                                          /* CSR read, any size */
        unsigned size = 1u << (get8(g) % 3);
        uint32_t off = (get16(g) % 0x2000u) & ~(size - 1);
        if (off >= OE_RMEM && off < OE_RMEM + OE_RMEM_SIZE) {
            off -= OE_RMEM;   /* the window has its own step */
        }
        csr_read(off, size);
        snprintf(d, sizeof(d), "csr read 0x%x size %u", off, size);
        return d;
    }
    case 3: {                                          /* RMEM window */
        uint32_t off = OE_RMEM + 4 * (get8(g) % 0x48);
        unsigned size = 1u << (get8(g) % 3);
        off += (get8(g) & 3) & ~(size - 1);
        if (get8(g) & 1) {
            uint32_t v = get32(g);
            csr_write(off, size, v);
            snprintf(d, sizeof(d), "rmem write 0x%x size %u 0x%x", off, size, v);
        } else {
            csr_read(off, size);
            snprintf(d, sizeof(d), "rmem read 0x%x size %u", off, size);
        }
        return d;
    }
    case 4: {                                          /* peer DMA block */
        unsigned p = get8(g) % 4;
        uint32_t size = 1 + get16(g) % (get8(g) & 1 ? 64 : 20000);
        csr_write(OE_PEER_SIZE(p), 4, size);
        if (get8(g) % 4 == 0) {
            csr_write(OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 4, get16(g) % 9000);
        }
        uint32_t v = 0x100 | (get8(g) & 1 ? 0x200 : 0) | (get8(g) % 4);
        csr_write(OE_PEER_DMA(p), 4, v);
        snprintf(d, sizeof(d), "peer %u block size %u dma 0x%x", p, size, v);
        return d;
    }
    case 5: {                                          /* raw TX / RX descriptors */
        if (get8(g) & 1) {
            csr_write(OE_RAW_TX_BUFFER_ADDRESS, 4, 0x20000 + get16(g) % 0x5000);
            csr_write(OE_RAW_TX_FRAME_LENGTH, 4, get16(g) % (max_frame + 8));
            csr_write(OE_RAW_TX_COMMAND_STATUS, 4, 0x100 | (get8(g) & 0x200));
            return "raw tx";
        }
        csr_write(OE_RAW_RX_BUFFER_ADDRESS, 4, 0x4000 + get8(g));
        csr_write(OE_RAW_RX_BUFFER_CAPACITY, 4, get16(g) % (max_frame + 8));
        csr_write(OE_RAW_RX_COMMAND_STATUS, 4, 0x100 | (get8(g) & 0x200));
        return "raw rx arm";
    }
    case 6: {                                          /* IRQ service / direct stream */
        unsigned k = get8(g) % 4;
        if (k == 0) {
            uint32_t claim = 0;
            sides[0].api->csr_read(sides[0].e, OE_IRQ_CLAIM, 4, &claim);
            uint32_t dummy;
            sides[1].api->csr_read(sides[1].e, OE_IRQ_CLAIM, 4, &dummy);
            csr_write(OE_IRQ_COMPLETE, 4, claim ^ (get8(g) % 8 == 0 ? 1u << OE_IRQ_CLAIM_SEQUENCE_SHIFT : 0));
            return "irq complete the claim";
        }
        if (k == 1) {
            csr_write(OE_DIRECT_SINK_CONTROL, 4, 1);
            return "direct sink pop";
        }
        csr_write(OE_DIRECT_SOURCE_DATA, 4, get32(g));
        csr_write(OE_DIRECT_SOURCE_CONTROL, 4, 1 | (get8(g) & 2) | (0xF << 4));
        return "direct source beat";
    }
    case 7:                                            /* reset (rare) */
        if (get8(g) % 8) {
            return "nothing";
        }
        for (int k = 0; k < 2; k++) {
            sides[k].api->reset(sides[k].e);
            sides[k].pending = false;
        }
        prelude();
        return "reset";
    case 8: case 9: case 10:                           /* a request from a peer */
        n = build_frame(f, g);
        rx(f, n);
        snprintf(d, sizeof(d), "rx oETP %s, %zu bytes", oetp_cmd_name(f[OETP_OFF_CMD]) ?
                 oetp_cmd_name(f[OETP_OFF_CMD]) : "?", n);
        return d;
    case 11: case 12:                                  /* a reply to the last request */
        n = build_reply(f, g);
        if (n) {
            rx(f, n);
        }
        snprintf(d, sizeof(d), "rx reply, %zu bytes", n);
        return d;
    case 13:                                           /* a raw frame */
        n = build_raw(f, g);
        rx(f, n);
        snprintf(d, sizeof(d), "rx raw, %zu bytes", n);
        return d;
    case 14: {                                         /* time */
        unsigned k = get8(g) % 4;
        uint64_t c = k == 0 ? 1 + get8(g) : k == 1 ? 3000 + get8(g) % 4 : get16(g);
        advance(c);
        snprintf(d, sizeof(d), "advance %llu", (unsigned long long)c);
        return d;
    }
    default: {                                         /* bus errors */
        unsigned k = get8(g) % 4;
        if (k == 0 || nerrs == MAX_ERRS) {
            nerrs = 0;
            return "clear bus errors";
        }
        ErrRange *r = &errs[nerrs++];
        r->lo = (get8(g) % 4 == 0 ? 0x1000 : 0x10000 + 0x10000 * (get8(g) % 2)) + 4 * get16(g) % 0x4000;
        r->hi = r->lo + 1 + get16(g) % 0x2000;
        r->st = get8(g) & 1 ? OE_MEM_SLVERR : OE_MEM_DECERR;
        r->dir = get8(g) % 3;
        snprintf(d, sizeof(d), "bus error [0x%x, 0x%x) dir %d", r->lo, r->hi, r->dir);
        return d;
    }
    }
}

/* Length mutations shared by requests and replies. */
static size_t mutate(uint8_t *f, size_t n, Prog *g)
{
    switch (get8(g) % 10) {
    case 0: return n > 1 ? n - 1 - get8(g) % (n - 1 < 8 ? n - 1 : 8) : n;   /* truncate */
    case 1: if (n < 60) { memset(f + n, get8(g) % 2 ? 0 : 0xa5, 60 - n); return 60; } return n;
    case 2: { size_t x = 1 + get8(g) % 8; memset(f + n, 0, x); return n + x; }   /* excess */
    case 3: if (n < max_frame + 1) {   /* to just past the ceiling */
                memset(f + n, 0, max_frame + 1 - n);
                return max_frame + 1;
            }
            return n;
    case 4: f[get8(g) % n] ^= 1u << (get8(g) % 8); return n;   /* flip a bit */
    default: return n;
    }
}

static size_t build_frame(uint8_t *f, Prog *g)
{
    unsigned who = get8(g) % 5;
    uint64_t src = peer_macs[who];
    unsigned dk = get8(g) % 8;
    uint64_t dst = dk < 5 ? mac_a : dk < 7 ? mac_g : 0x020e0c000099ull;
    static const uint8_t cmds[] = { 0x10, 0x20, 0x30, 0x40, 0x11, 0x21, 0x31, 0x41, 0xff, 0x12 };
    uint8_t cmd = cmds[get8(g) % sizeof(cmds)];
    uint32_t rid = get16(g);
    unsigned w = get8(g) % 3;
    uint32_t addr = get8(g) % 8 == 0 ? get32(g) : win_base[w] + get16(g) % 0x4200;
    uint32_t len = get8(g) % 4 == 0 ? get16(g) % 9000 : 1 + get8(g) % 64;
    size_t n;

    if (cmd == 0x10 || cmd == 0x20) {
        addr &= get8(g) % 4 ? ~3u : ~0u;
    }
    switch (cmd) {
    case 0x10: n = oetp_build_rmem_read_req(f, dst, src, rid, addr); break;
    case 0x20: n = oetp_build_rmem_write_req(f, dst, src, rid, addr, get32(g), get32(g)); break;
    case 0x30: n = oetp_build_dma_read_req(f, dst, src, rid, addr, len); break;
    case 0x40: {
        uint32_t dl = len > 8160 ? 8160 : len;
        static uint8_t data[8160];
        for (uint32_t i = 0; i < dl; i++) {
            data[i] = (uint8_t)(i * 7 + rid);
        }
        n = oetp_build_dma_write_req(f, dst, src, rid, addr, data, dl, get8(g) % 8 != 0);
        if (dl != len) {
            oetp_put_le32(f + OETP_OFF_LENGTH, len);   /* Length beyond the data */
        }
        break;
    }
    default:
        oetp_put_header(f, dst, src, cmd);
        oetp_put_le32(f + OETP_OFF_RID, rid);
        oetp_put_le32(f + OETP_OFF_ADDR, addr);
        n = OETP_OFF_ADDR + 4;
        break;
    }
    return mutate(f, n, g);
}

static size_t build_reply(uint8_t *f, Prog *g)
{
    const Side *s = &sides[0];
    if (!s->lastreq_len) {
        return 0;
    }
    const uint8_t *q = s->lastreq;
    uint64_t peer = oetp_get_mac(q + OETP_OFF_DST);
    uint32_t rid = oetp_get_le32(q + OETP_OFF_RID);
    uint8_t cmd = q[OETP_OFF_CMD];
    unsigned k = get8(g) % 8;
    uint64_t dst = k == 0 ? mac_g : mac_a;
    size_t n;

    if (k == 1) {
        rid ^= 1;                        /* not the active Request ID */
    } else if (k == 2) {
        peer = peer_macs[get8(g) % 4];   /* maybe another source */
    }
    if (k == 3) {
        n = oetp_build_error_rsp(f, dst, peer, rid, get8(g) % 10);
        return mutate(f, n, g);
    }
    switch (cmd) {
    case OETP_RMEM_READ_REQ:
        n = oetp_build_rmem_read_rsp(f, dst, peer, rid, get32(g));
        break;
    case OETP_RMEM_WRITE_REQ:
        n = oetp_build_rmem_write_rsp(f, dst, peer, rid);
        break;
    case OETP_DMA_READ_REQ: {
        uint32_t len = oetp_get_le32(q + OETP_OFF_LENGTH);
        static uint8_t data[8168];
        if (len > 8160) {
            len = 8160;
        }
        for (uint32_t i = 0; i < len; i++) {
            data[i] = (uint8_t)(i * 13 + rid);
        }
        n = oetp_build_dma_read_rsp(f, dst, peer, rid, data, len, get8(g) % 8 != 0);
        break;
    }
    default:
        n = oetp_build_dma_write_rsp(f, dst, peer, rid);
        break;
    }
    return mutate(f, n, g);
}

static size_t build_raw(uint8_t *f, Prog *g)
{
    unsigned dk = get8(g) % 5;
    uint64_t dst = dk == 0 ? mac_a : dk == 1 ? 0xffffffffffffull : dk == 2 ? 0x01005e000001ull :
                   dk == 3 ? 0x020e0c000099ull : mac_g;
    unsigned lk = get8(g) % 8;
    size_t n = lk == 0 ? get8(g) % 20 : lk == 1 ? max_frame - 1 + get8(g) % 3 :
               lk == 2 ? 60 : 14 + get16(g) % (max_frame > 200 ? 200 : max_frame);
    oetp_put_mac(f, dst);
    oetp_put_mac(f + 6, peer_macs[get8(g) % 4]);
    unsigned et = get8(g) % 4;
    for (size_t i = 12; i < n; i++) {
        f[i] = (uint8_t)(i * 3);
    }
    if (n > 13) {
        f[12] = et ? 0x88 : 0x08;
        f[13] = et ? 0xb5 : 0x00;
    }
    if (n > 14 && et) {
        f[14] = et == 1 ? 0x0e : 0x0f;
    }
    return n;
}

/* ---- comparing ------------------------------------------------------------ */

static void dump_log(const Side *s)
{
    fprintf(stderr, "  %s events:\n", s->api->name);
    for (int t = EV_TX; t <= EV_CPL; t++) {
    size_t i = 0;
    while (i < s->loglen[t]) {
        uint32_t n;
        memcpy(&n, s->log[t] + i + 1, 4);
        const uint8_t *p = s->log[t] + i + 5;
        switch (t) {
        case EV_TX:
            fprintf(stderr, "    tx %u bytes:", n);
            for (uint32_t k = 0; k < n && k < 48; k++) {
                fprintf(stderr, " %02x", p[k]);
            }
            fprintf(stderr, "%s\n", n > 48 ? " ..." : "");
            break;
        case EV_MEMW: {
            uint32_t a;
            memcpy(&a, p, 4);
            fprintf(stderr, "    mem write 0x%x %u bytes status %u\n", a, n - 5, p[4]);
            break;
        }
        case EV_IRQ:
            fprintf(stderr, "    irq %u\n", p[0]);
            break;
        default: {
            uint32_t v;
            memcpy(&v, p, 4);
            fprintf(stderr, "    csr complete 0x%08x\n", v);
            break;
        }
        }
        i += 5 + n;
    }
    }
}

static void compare(void)
{
    Side *c = &sides[0], *r = &sides[1];
    if (c->overflow || r->overflow) {
        diverge("event log overflow");
    }
    static const char *const kinds[] = { "", "transmitted frames", "memory writes",
                                         "IRQ level changes", "CSR completions" };
    for (int t = EV_TX; t <= EV_CPL && !why[0]; t++) {
        if (c->loglen[t] != r->loglen[t] || memcmp(c->log[t], r->log[t], c->loglen[t])) {
            diverge("%s differ", kinds[t]);
        }
    }
    if (why[0]) {
    } else if (c->pending != r->pending) {
        diverge("pending CSR access: C %d, RTL %d", c->pending, r->pending);
    } else if (memcmp(c->mem, r->mem, MEM_SIZE)) {
        size_t i = 0;
        while (c->mem[i] == r->mem[i]) {
            i++;
        }
        diverge("memory differs first at 0x%zx: C %02x, RTL %02x", i, c->mem[i], r->mem[i]);
    }
    if (!why[0] && !any_pending()) {
        for (size_t k = 0; k < sizeof(sweep_regs) / sizeof(sweep_regs[0]); k++) {
            csr_read(sweep_regs[k], 4);
        }
    }
    if (!why[0]) {
        bool cr0 = c->api->can_receive(c->e), cr1 = r->api->can_receive(r->e);
        if (cr0 != cr1) {
            diverge("can_receive: C %d, RTL %d", cr0, cr1);
        }
    }
    if (why[0]) {
        dump_log(c);
        dump_log(r);
    }
    memset(c->loglen, 0, sizeof(c->loglen));
    memset(r->loglen, 0, sizeof(r->loglen));
    c->lastw = r->lastw = 0;
}

/* Run one program; returns true when the engines agreed throughout. */
static bool run(const uint8_t *p, size_t n, unsigned max_ops, const char *label)
{
    static const uint32_t frames[8] = { 8192, 8192, 8192, 1514, 100, 60, 40, 36 };
    Prog g = { p, n, 0 };
    const char *err = NULL;

    why[0] = 0;
    now = 0;
    nerrs = 0;
    max_frame = frames[get8(&g) % 8];
    for (int k = 0; k < 2; k++) {
        Side *s = &sides[k];
        s->api = k ? &rtl_api : &c_api;
        memset(s->loglen, 0, sizeof(s->loglen));
        s->lastw = 0;
        s->overflow = s->pending = s->irq = false;
        s->wake = OE_TIMER_NONE;
        s->lastreq_len = 0;
        for (uint32_t i = 0; i < MEM_SIZE; i++) {
            s->mem[i] = (uint8_t)(i * 31 + (i >> 8));
        }
        OeEngineConfig cfg = { .max_raw_frame_size = max_frame, .mem_beat_bytes = mem_beat };
        s->e = s->api->create(&host_ops, s, &cfg, &err);
        if (!s->e) {
            fprintf(stderr, "diff_engines: %s engine: %s\n", s->api->name, err);
            exit(2);
        }
    }
    prelude();
    settle();
    compare();
    for (step_no = 1; !why[0] && g.i < g.n && step_no <= max_ops; step_no++) {
        const char *d = step(&g);
        settle();
        if (trace) {
            fprintf(stderr, "%s step %u: %s\n", label, step_no, d);
        }
        compare();
        if (why[0]) {
            fprintf(stderr, "DIVERGENCE in %s at step %u (%s), max_raw_frame_size %u: %s\n",
                    label, step_no, d, max_frame, why);
        }
    }
    for (int k = 0; k < 2; k++) {
        sides[k].api->destroy(sides[k].e);
    }
    return !why[0];
}

/* ---- driver --------------------------------------------------------------- */

static uint64_t rng;
static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        return NULL;
    }
    uint8_t *b = NULL;
    size_t cap = 0;
    *n = 0;
    for (;;) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 4096;
            b = realloc(b, cap);
        }
        size_t k = fread(b + *n, 1, cap - *n, fp);
        if (!k) {
            break;
        }
        *n += k;
    }
    fclose(fp);
    return b;
}

static const char *out_dir = "build/diff";

static void save(const uint8_t *p, size_t n, const char *name, const char *lib)
{
    char path[512];
    mkdir(out_dir, 0777);
    snprintf(path, sizeof(path), "%s/%s", out_dir, name);
    FILE *fp = fopen(path, "wb");
    if (fp && fwrite(p, 1, n, fp) == n && !fclose(fp)) {
        fprintf(stderr, "reproducer: %s (replay: diff_engines --lib %s --mem-beat %u %s)\n", path,
                lib, mem_beat, path);
    } else {
        fprintf(stderr, "diff_engines: cannot write %s\n", path);
    }
}

static int run_file(const char *path, const char *lib, unsigned max_ops, unsigned *count)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *de;
        char sub[1024];
        int bad = 0;
        while (d && (de = readdir(d)) && !bad) {
            if (de->d_name[0] != '.') {
                snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
                bad = run_file(sub, lib, max_ops, count);
            }
        }
        if (d) {
            closedir(d);
        }
        return bad;
    }
    size_t n;
    uint8_t *b = slurp(path, &n);
    if (!b) {
        fprintf(stderr, "diff_engines: cannot read %s\n", path);
        return 1;
    }
    bool ok = run(b, n, max_ops, path);
    (*count)++;
    free(b);
    return !ok;
}

static void usage(FILE *fp)
{
    fprintf(fp, "usage: diff_engines --lib PATH [--seed S] [-n N] [--time SEC] [--ops K]\n"
                "                    [--len BYTES] [--mem-beat B] [--out DIR] [FILE|DIR...]\n"
                "Runs byte programs (FILE/DIR, each to its end unless --ops; then N random\n"
                "ones of BYTES (600) bytes and at most K (200) steps from seed S, or as many\n"
                "as fit in SEC seconds) through the C engine and the RTL engine side by side\n"
                "and compares them step by step; the first divergence is printed with a\n"
                "reproducer file in DIR (default build/diff). --mem-beat B: both engines on a\n"
                "memory bus of B-byte beats (4, 8, 16; default: each engine's own).\n"
                "OE_DIFF_TRACE=1 traces steps.\n");
}

int main(int argc, char **argv)
{
    const char *lib = NULL;
    uint64_t seed = 1;
    unsigned count = 0, want = 0, max_ops = 200, len = 600, files = 0;
    double secs = 0;
    int bad = 0;
    bool ops_given = false;

    trace = getenv("OE_DIFF_TRACE") != NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--lib") && i + 1 < argc) {
            lib = argv[++i];
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "-n") && i + 1 < argc) {
            want = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--time") && i + 1 < argc) {
            secs = strtod(argv[++i], NULL);
        } else if (!strcmp(argv[i], "--ops") && i + 1 < argc) {
            max_ops = (unsigned)strtoul(argv[++i], NULL, 0);
            ops_given = true;
        } else if (!strcmp(argv[i], "--len") && i + 1 < argc) {
            len = (unsigned)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out_dir = argv[++i];
        } else if (!strcmp(argv[i], "--mem-beat") && i + 1 < argc) {
            mem_beat = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (argv[i][0] == '-') {
            usage(stderr);
            return 2;
        }
    }
    if (!lib) {
        usage(stderr);
        return 2;
    }
    load_rtl(lib);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 1; i < argc && !bad; i++) {
        if (!strcmp(argv[i], "--lib") || !strcmp(argv[i], "--seed") || !strcmp(argv[i], "-n") ||
            !strcmp(argv[i], "--time") || !strcmp(argv[i], "--ops") || !strcmp(argv[i], "--len") ||
            !strcmp(argv[i], "--out") || !strcmp(argv[i], "--mem-beat")) {
            i++;
            continue;
        }
        /* a file runs to its end unless --ops bounds it */
        bad = run_file(argv[i], lib, ops_given ? max_ops : UINT32_MAX, &files);
    }
    count = files;
    uint8_t *prog = malloc(len);
    for (unsigned k = 0; !bad && (k < want || secs > 0); k++) {
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double el = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (secs > 0 && el >= secs && k >= want) {
            break;
        }
        rng = (seed + k) * 0x9E3779B97F4A7C15ull | 1;
        for (unsigned i = 0; i < len; i++) {
            prog[i] = (uint8_t)(rnd() >> 24);
        }
        char label[64];
        snprintf(label, sizeof(label), "seed %llu", (unsigned long long)(seed + k));
        if (!run(prog, len, max_ops, label)) {
            char name[64];
            snprintf(name, sizeof(name), "diff-seed-%llu.bin", (unsigned long long)(seed + k));
            save(prog, len, name, lib);
            bad = 1;
        }
        count++;
    }
    free(prog);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double el = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("diff_engines: %u programs (%u from files), %s, %.1f s, %.2f programs/s\n", count,
           files, bad ? "DIVERGED" : "all agree", el, el > 0 ? count / el : 0.0);
    return bad;
}
