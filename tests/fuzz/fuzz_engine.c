/*
 * libFuzzer target: two engines wired back to back plus a hostile third
 * party, driven by a byte program of CSR accesses, injected frames (raw
 * bytes or oETP-shaped), wire faults, time steps and resets.
 *
 * Oracle, besides "no crash, no UB, no leak, no livelock" (sanitizers and
 * the harness's host-contract checks):
 * - every memory access of an engine lies inside a window its own CSRs
 *   granted at some point: [local_address, local_address + size) of a peer
 *   entry whose mode was not 0, or the raw TX / raw RX buffer. Operations
 *   snapshot their window at acceptance, so the union of every window ever
 *   granted is a sound (slightly loose) bound;
 * - the interrupt output equals global_enable AND FIFO not empty, and the
 *   FIFO plus reserved credits never exceed 16.
 *
 * Program format (one op per leading byte, operands follow; running out of
 * input ends the program): see the OP_* list below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "openenoc/regs_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_OPS 256
#define MAX_GRANTS 512
/* A program of at most 256 ops needs far fewer engine calls; more means an
 * engine asking for wake-ups it does not need (polling). */
#define MAX_CALLS 20000000
/* At most this many frames rewritten by one "every later frame" fault of
 * the program (op_fault). */
#define REWRITE_FRAMES 1024

typedef struct Grant {
    uint64_t lo, hi;
} Grant;

/* What the IRQ oracle last read from an engine. */
typedef struct IrqSeen {
    uint64_t calls;      /* the engine's call count after that check */
    uint32_t status;
    uint32_t control;
    bool stale;          /* written or reset since: read everything */
} IrqSeen;

typedef struct Ctx {
    HWorld *w;
    HNode *eng[2];
    HNode *third;
    Grant grants[2][MAX_GRANTS];
    unsigned ngrants[2];
    Grant setup_grants[2][MAX_GRANTS];   /* what setup() granted */
    unsigned setup_ngrants[2];
    IrqSeen irq_seen[2];
    const uint8_t *p, *end;
} Ctx;

enum {
    OP_CSR_WRITE,      /* node, reg, size, value32 */
    OP_CSR_READ,       /* node, reg, size */
    OP_RAW_FRAME,      /* node, len16, bytes */
    OP_OETP_FRAME,     /* node, dst, src, cmd, flags, nparams, params */
    OP_ADVANCE,        /* cycles16 */
    OP_RUN_IDLE,       /* - */
    OP_TX_GATE,        /* node, open */
    OP_RESET,          /* node */
    OP_FAULT,          /* kind, src, cmd, count, arg16 */
    OP_SET_RID,        /* node, value32 */
    OP_PEER,           /* node, idx, macsel, mode, local16, size16, remote16 */
    OP_DMA_START,      /* node, idx, irq */
    OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
    "csr_write", "csr_read", "raw_frame", "oetp_frame", "advance", "run_idle",
    "tx_gate", "reset", "fault", "set_rid", "peer", "dma_start",
};

/* OE_FUZZ_TRACE=1 prints the decoded program (with OE_HARNESS_TRACE=1 the
 * engine's callbacks too) when replaying an input. */
static bool fuzz_trace;

static const uint64_t macs[] = {
    H_MAC_A, H_MAC_B, H_MAC_C, H_MAC_G, OETP_MAC_BROADCAST, H_MAC_X,
    0x030E0C000002ull, 0,
};

/* ------------------------------------------------------------------ */

static uint8_t u8(Ctx *c)
{
    return c->p < c->end ? *c->p++ : 0;
}

/* Operands are read strictly in input order (never two reads in one
 * expression: their order would be up to the compiler). */
static uint16_t u16(Ctx *c)
{
    uint16_t lo = u8(c);
    uint16_t hi = u8(c);
    return (uint16_t)(lo | hi << 8);
}

static uint32_t u32(Ctx *c)
{
    uint32_t lo = u16(c);
    uint32_t hi = u16(c);
    return lo | hi << 16;
}

static void grant(Ctx *c, int k, uint64_t lo, uint64_t len)
{
    uint64_t hi = lo + len;

    if (!len) {
        return;
    }
    if (hi > (1ull << 32)) {
        hi = 1ull << 32;
    }
    for (unsigned i = 0; i < c->ngrants[k]; i++) {
        if (c->grants[k][i].lo == lo && c->grants[k][i].hi >= hi) {
            return;
        }
    }
    if (c->ngrants[k] < MAX_GRANTS) {
        c->grants[k][c->ngrants[k]++] = (Grant){ lo, hi };
    } else {
        /* Too many distinct windows to track: widen the last one rather
         * than report a false positive. */
        Grant *g = &c->grants[k][MAX_GRANTS - 1];
        g->lo = g->lo < lo ? g->lo : lo;
        g->hi = g->hi > hi ? g->hi : hi;
    }
}

static uint32_t rd(HNode *n, uint32_t off)
{
    uint32_t v = 0;
    OeCsrStatus st = hn_csr_read(n, off, 4, &v);
    H_CHECKF(st == OE_CSR_DONE, "plain CSR 0x%x pends", off);
    return v;
}

static void grant_peer(Ctx *c, int k, unsigned i)
{
    HNode *n = c->eng[k];

    if (H_GET(rd(n, OE_PEER_DMA(i)), OE_PEER_DMA_MODE)) {
        grant(c, k, rd(n, OE_PEER_LOCAL_ADDRESS(i)), rd(n, OE_PEER_SIZE(i)));
    }
}

/* Record the windows this engine's CSRs grant right now. */
static void refresh_grants(Ctx *c, int k)
{
    HNode *n = c->eng[k];

    if (n->csr_pending) {
        return;   /* nothing can have changed: writes wait too */
    }
    for (unsigned i = 0; i < OE_PEER_COUNT; i++) {
        grant_peer(c, k, i);
    }
    grant(c, k, rd(n, OE_RAW_TX_BUFFER_ADDRESS), rd(n, OE_RAW_TX_FRAME_LENGTH));
    grant(c, k, rd(n, OE_RAW_RX_BUFFER_ADDRESS),
          rd(n, OE_RAW_RX_BUFFER_CAPACITY));
}

/*
 * The same after a host write of the word at off: only a write to a
 * window's own registers can change what it grants, so only that window is
 * re-read (re-reading every window after every write was a tenth of a
 * run). Were an engine to change a window's registers any other way, its
 * accesses there would fail the memory oracle: the check only gets
 * stricter.
 */
static void refresh_grants_after(Ctx *c, int k, uint32_t off)
{
    HNode *n = c->eng[k];
    uint32_t word = off & ~3u;

    if (n->csr_pending) {
        return;
    }
    if (word >= OE_PEER_BASE &&
        word < OE_PEER_BASE + OE_PEER_COUNT * OE_PEER_STRIDE) {
        grant_peer(c, k, (word - OE_PEER_BASE) / OE_PEER_STRIDE);
    } else if (word == OE_RAW_TX_BUFFER_ADDRESS ||
               word == OE_RAW_TX_FRAME_LENGTH) {
        grant(c, k, rd(n, OE_RAW_TX_BUFFER_ADDRESS),
              rd(n, OE_RAW_TX_FRAME_LENGTH));
    } else if (word == OE_RAW_RX_BUFFER_ADDRESS ||
               word == OE_RAW_RX_BUFFER_CAPACITY) {
        grant(c, k, rd(n, OE_RAW_RX_BUFFER_ADDRESS),
              rd(n, OE_RAW_RX_BUFFER_CAPACITY));
    }
}

static void mem_oracle(HNode *n, bool write, uint32_t addr, uint32_t len,
                       void *opaque)
{
    Ctx *c = opaque;
    int k = n == c->eng[0] ? 0 : 1;

    for (unsigned i = 0; i < c->ngrants[k]; i++) {
        if (addr >= c->grants[k][i].lo &&
            (uint64_t)addr + len <= c->grants[k][i].hi) {
            return;
        }
    }
    fprintf(stderr, "%s: %s of [0x%08x, +%u) outside every granted window:\n",
            n->name, write ? "write" : "read", addr, len);
    for (unsigned i = 0; i < c->ngrants[k]; i++) {
        fprintf(stderr, "  [0x%08llx, 0x%08llx)\n",
                (unsigned long long)c->grants[k][i].lo,
                (unsigned long long)c->grants[k][i].hi);
    }
    abort();
}

/*
 * An engine's IRQ state can only change inside a call into it, and its
 * irq.control only by a host write or a reset, so the oracle reads status
 * only if the engine was called since the last check, control only after a
 * write or reset, and the claim only when status changed or after a write
 * (three reads per engine after every op were a fifth of a run). An engine
 * changing control or the FIFO any other way still fails: its IRQ output
 * or status would then disagree with what was read last.
 */
static void irq_oracle(Ctx *c)
{
    for (int k = 0; k < 2; k++) {
        HNode *n = c->eng[k];
        IrqSeen *s = &c->irq_seen[k];
        uint32_t st, claim;
        unsigned level, reserved;
        bool want;

        if (n->csr_pending || (n->calls == s->calls && !s->stale)) {
            continue;
        }
        st = rd(n, OE_IRQ_STATUS);
        if (s->stale) {
            s->control = rd(n, OE_IRQ_CONTROL);
        }
        level = H_GET(st, OE_IRQ_STATUS_FIFO_LEVEL);
        reserved = H_GET(st, OE_IRQ_STATUS_RESERVED_COUNT);
        want = H_GET(s->control, OE_IRQ_CONTROL_GLOBAL_ENABLE) && level > 0;
        H_CHECKF(level + reserved <= 16, "%s: fifo %u + reserved %u > 16",
                 n->name, level, reserved);
        H_CHECKF(n->irq == want, "%s: irq output %d, global_enable AND "
                 "fifo_level %u says %d", n->name, n->irq, level, want);
        H_CHECKF(H_GET(st, OE_IRQ_STATUS_IRQ_ASSERTED) == want,
                 "%s: status.irq_asserted disagrees", n->name);
        if (s->stale || st != s->status) {
            claim = rd(n, OE_IRQ_CLAIM);
            H_CHECKF(!H_GET(claim, OE_IRQ_CLAIM_VALID) == !level,
                     "%s: claim 0x%08x with fifo_level %u (status 0x%08x)",
                     n->name, claim, level, st);
        }
        s->status = st;
        s->stale = false;
        s->calls = n->calls;
    }
}

/* The host wrote to (or reset) engine k: the oracle re-reads everything. */
static void host_wrote(Ctx *c, int k)
{
    c->irq_seen[k].stale = true;
}

/* ------------------------------------------------------------------ */

static uint32_t pick_reg(Ctx *c, unsigned *size)
{
    uint8_t sel = u8(c);
    uint32_t off;

    if (sel < 200) {
        off = oe_reg_words[sel % OE_REG_WORDS_COUNT].offset;
    } else if (sel < 240) {
        off = OE_RMEM + (uint32_t)(u8(c) % (OE_RMEM_SIZE / 4)) * 4;
    } else {
        off = u16(c) % OE_CSR_APERTURE_SIZE;
    }
    *size = 1u << (u8(c) % 3);
    off = (off & ~3u) + (u8(c) & 3 & ~(*size - 1));
    return off;
}

/*
 * A write that sets a peer's mode (and maybe its request bit in the same
 * store) can start work inside the very call: grant that entry's window
 * first.
 */
static void pre_grant(Ctx *c, int k, uint32_t off, unsigned size, uint32_t v)
{
    for (unsigned i = 0; i < OE_PEER_COUNT; i++) {
        if (off == OE_PEER_DMA(i) && H_GET(v, OE_PEER_DMA_MODE)) {
            grant(c, k, rd(c->eng[k], OE_PEER_LOCAL_ADDRESS(i)),
                  rd(c->eng[k], OE_PEER_SIZE(i)));
        }
    }
    (void)size;
}

static void op_csr(Ctx *c, bool write)
{
    int k = u8(c) & 1;
    HNode *n = c->eng[k];
    unsigned size;
    uint32_t off = pick_reg(c, &size);
    uint32_t v = write ? u32(c) : 0;

    if (n->csr_pending) {
        return;   /* the host holds the bus until the access completes */
    }
    if (write) {
        pre_grant(c, k, off, size, v);
        host_wrote(c, k);
        hn_csr_write(n, off, size, v);
    } else {
        hn_csr_read(n, off, size, &v);
    }
    if (fuzz_trace) {
        printf("#   %s 0x%03x/%u %s 0x%08x%s\n", n->name, off, size,
               write ? "<-" : "->", v, n->csr_pending ? " (pending)" : "");
    }
    /* Only the host's writes change what the CSRs grant (a read, even of
     * the claim or RMEM window, does not); a pending write takes effect
     * during the settle. */
    if (write && !n->csr_pending) {
        refresh_grants_after(c, k, off);
        hw_settle(c->w);
    } else if (write) {
        hw_settle(c->w);
        refresh_grants_after(c, k, off);
    } else {
        hw_settle(c->w);
    }
}

/* A zeroed frame buffer from the world's pool (a calloc per frame was
 * ASan allocator work and fresh pages in every input). */
static uint8_t *frame_buf(Ctx *c, size_t len)
{
    uint8_t *f = hp_alloc(c->w->pool, len);

    memset(f, 0, len);
    return f;
}

static void op_raw_frame(Ctx *c)
{
    HNode *n = c->eng[u8(c) & 1];
    size_t len = u16(c) % 8300;
    size_t avail = (size_t)(c->end - c->p);
    uint8_t *f = frame_buf(c, len);

    memcpy(f, c->p, len < avail ? len : avail);
    c->p += len < avail ? len : avail;
    hn_deliver(n, f, len);
    hp_free(c->w->pool, f);
    hw_settle(c->w);
}

static const uint8_t cmds[] = {
    OETP_RMEM_READ_REQ, OETP_RMEM_READ_RSP, OETP_RMEM_WRITE_REQ,
    OETP_RMEM_WRITE_RSP, OETP_DMA_READ_REQ, OETP_DMA_READ_RSP,
    OETP_DMA_WRITE_REQ, OETP_DMA_WRITE_RSP, OETP_ERROR_RSP,
};

/* An oETP-shaped frame: real header, chosen parameters, optional data,
 * EndOfData and padding, so the fuzzer gets past the parser quickly. */
static void op_oetp_frame(Ctx *c)
{
    HNode *n = c->eng[u8(c) & 1];
    uint8_t dsel = u8(c), ssel = u8(c), csel = u8(c), flags = u8(c);
    unsigned nparams = u8(c) % 8;
    uint32_t dlen = flags & 0x10 ? u16(c) % 8200 : 0;
    size_t len, cap = 16 + 4 * nparams + dlen + 8 + 64;
    uint8_t *f = frame_buf(c, cap);
    uint64_t dst = dsel & 0x80 ? n->mac : macs[dsel % 8];
    uint64_t src = macs[ssel % 8];

    oetp_put_header(f, dst, src, csel < 230 ? cmds[csel % 9] : u8(c));
    len = 16;
    for (unsigned i = 0; i < nparams; i++) {
        uint32_t v = u32(c);
        if (i == 1 && (flags & 0x01)) {
            v &= 0x3FFFF;   /* land in backed memory more often */
        }
        if (i == 2 && (flags & 0x02)) {
            v = dlen;
        }
        oetp_put_le32(f + len, v);
        len += 4;
    }
    for (uint32_t i = 0; i < (dlen + 3) / 4 * 4; i++) {
        f[len++] = (uint8_t)(i * 13 + flags);
    }
    if (flags & 0x04) {
        oetp_put_le32(f + len, OETP_EOD);
        len += 4;
    }
    if (flags & 0x08) {
        len -= len ? u8(c) % (len < 8 ? len : 8) : 0;
    }
    if ((flags & 0x20) && len < 60) {
        memset(f + len, flags & 0x40 ? 0xA5 : 0, 60 - len);
        len = 60;
    }
    hn_deliver(n, f, len);
    hp_free(c->w->pool, f);
    hw_settle(c->w);
}

static void op_fault(Ctx *c)
{
    HFault f = { 0 };
    uint8_t kind = u8(c);

    f.kind = (HFaultKind)(kind % 6);
    f.src = u8(c) % 3 - 1;
    f.dst = -1;
    f.cmd = u8(c);
    f.cmd = f.cmd < 128 ? -1 : cmds[f.cmd % 9];
    f.count = u8(c) % 4;
    f.skip = kind / 6 % 4;
    f.delay = u16(c);
    f.len = f.delay % 9000;
    f.offset = (long)(f.delay % 64) - 32;
    f.xor_mask = (uint8_t)(f.delay >> 8 | 1);
    f.pad_byte = (uint8_t)f.delay;
    /* A fault that rewrites every later frame can make the wire a request
     * generator: truncated to 15 bytes and padded with 0x10, each reply
     * (an ERROR_RSP) arrives as a well-formed RMEM_READ_REQ, which the
     * other side rightly answers, and the two endpoints exchange frames
     * for ever, at one instant, since the harness's wire takes no time.
     * That is the wire's doing, not an engine's, and it would hide every
     * other finding behind "no quiescence": such a fault ends after
     * REWRITE_FRAMES frames instead. */
    if (f.count == 0 && (f.kind == HF_TRUNCATE || f.kind == HF_CORRUPT ||
                         f.kind == HF_PAD60)) {
        f.count = REWRITE_FRAMES;
    }
    if (fuzz_trace) {
        printf("#   kind %d src %d cmd %d skip %u count %u delay %llu len %zu "
               "offset %ld xor 0x%02x pad 0x%02x\n", (int)f.kind, f.src, f.cmd,
               f.skip, f.count, (unsigned long long)f.delay, f.len, f.offset,
               f.xor_mask, f.pad_byte);
    }
    if (c->w->nfaults < 16) {
        hw_add_fault(c->w, &f);
    }
}

static void op_peer(Ctx *c)
{
    int k = u8(c) & 1;
    HNode *n = c->eng[k];
    unsigned idx = u8(c) % OE_PEER_COUNT;
    HPeer p = { 0 };

    p.mac = macs[u8(c) % 8];
    p.mode = u8(c) % 4;
    p.local_address = (uint32_t)u16(c) << 2;
    p.size = u16(c) % 0x9000;
    p.remote_address = (uint32_t)u16(c) << 2;
    p.rmem_address = (uint32_t)(u8(c) % 64) * 16;
    p.irq_enable = p.mode & 1;
    if (fuzz_trace) {
        printf("#   %s entry %u: mac %012llx mode %u local 0x%x size 0x%x "
               "remote 0x%x rmem 0x%x\n", n->name, idx,
               (unsigned long long)p.mac, p.mode, p.local_address, p.size,
               p.remote_address, p.rmem_address);
    }
    if (n->csr_pending) {
        return;
    }
    host_wrote(c, k);
    hn_peer(n, idx, &p);
    refresh_grants(c, k);
}

static void op_dma_start(Ctx *c)
{
    int k = u8(c) & 1;
    HNode *n = c->eng[k];
    unsigned idx = u8(c) % OE_PEER_COUNT;

    if (fuzz_trace) {
        printf("#   %s entry %u\n", n->name, idx);
    }
    if (n->csr_pending) {
        return;
    }
    host_wrote(c, k);
    hn_dma_request(n, idx);
    hw_settle(c->w);
}

/* A useful starting point: A pushes to B, B pulls from A, both serve RMEM
 * for each other and for the third party C. */
static void setup(Ctx *c)
{
    HNode *a = c->eng[0], *b = c->eng[1];

    hn_set_mcast(a, H_MAC_G);
    hn_set_mcast(b, H_MAC_G);
    hx_mirror(a, 0, b, 0, true, 0x1000, 0x8000, 0x3000);
    hn_peer(a, 1, &(HPeer){ .mac = H_MAC_C, .local_address = 0x20000,
                            .size = 0x100, .mode = 1, .rmem_address = 0,
                            .remote_address = 0x500 });
    hn_peer(b, 1, &(HPeer){ .mac = H_MAC_A, .local_address = 0x30000,
                            .remote_address = 0x20000, .size = 0x100,
                            .rmem_address = 0x100, .mode = 1 });
    hn_peer(b, 2, &(HPeer){ .mac = H_MAC_C, .local_address = 0xFFFFF000,
                            .size = 0x1000, .mode = 2 });
    hn_wr(a, OE_CONFIG_RMEM_TIMEOUT, 500);
    hn_wr(b, OE_CONFIG_DMA_TIMEOUT, 2000);
    for (int k = 0; k < 2; k++) {
        refresh_grants(c, k);
    }
}

static void restore_grants(Ctx *c)
{
    for (int k = 0; k < 2; k++) {
        c->ngrants[k] = c->setup_ngrants[k];
        memcpy(c->grants[k], c->setup_grants[k],
               c->ngrants[k] * sizeof(c->grants[k][0]));
    }
}

/*
 * The world is built and set up once per process, snapshotted, and put
 * back to that snapshot after every input (hw_restore: each engine reloads
 * its saved state, the engines' memory writes are undone): building it
 * (two engines, 256 KiB + 64 KiB of memory each, zeroed and patterned,
 * then some 40 CSR writes) cost more than most inputs. Every input, the
 * first included, starts from the same snapshot, so a crash replays alone.
 * Restoring at the end rather than the start returns the input's frames
 * to the world's pool within the input; the pool mallocs only when an
 * input holds more frames at once than any before, so libFuzzer's
 * malloc/free balance seldom starts a leak scan.
 */
static Ctx *world(void)
{
    static Ctx *c;

    if (c) {
        return c;
    }
    c = calloc(1, sizeof(*c));
    if (!c) {
        abort();
    }
    c->w = hw_new();
    c->w->settle_limit = 1000000;
    c->w->call_limit = MAX_CALLS;
    c->eng[0] = hw_engine(c->w, "A", H_MAC_A, NULL);
    c->eng[1] = hw_engine(c->w, "B", H_MAC_B, NULL);
    c->third = hw_scripted(c->w, "C", H_MAC_C);
    c->w->mem_hook = mem_oracle;
    c->w->mem_hook_opaque = c;
    for (int k = 0; k < 2; k++) {
        hm_region(&c->eng[k]->mem, 0xFFFF0000, 0x10000);
        hm_pattern(&c->eng[k]->mem, 0, 0x8000, (unsigned)k);
    }
    setup(c);
    hw_settle(c->w);
    hw_snapshot(c->w);
    hw_restore(c->w);
    memcpy(c->setup_grants, c->grants, sizeof(c->grants));
    memcpy(c->setup_ngrants, c->ngrants, sizeof(c->ngrants));
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Ctx *c = world();
    unsigned ops = 0;

    fuzz_trace = getenv("OE_FUZZ_TRACE") != NULL;
    host_wrote(c, 0);   /* restored from the snapshot */
    host_wrote(c, 1);
    c->p = data;
    c->end = data + size;
    while (c->p < c->end && ops++ < MAX_OPS) {
        uint8_t op = u8(c);
        if (fuzz_trace) {
            printf("# op %u at cycle %llu: %s\n", ops, (unsigned long long)
                   c->w->now, op_names[op % OP_COUNT]);
        }
        switch (op % OP_COUNT) {
        case OP_CSR_WRITE:
            op_csr(c, true);
            break;
        case OP_CSR_READ:
            op_csr(c, false);
            break;
        case OP_RAW_FRAME:
            op_raw_frame(c);
            break;
        case OP_OETP_FRAME:
            op_oetp_frame(c);
            break;
        case OP_ADVANCE:
            hw_run_for(c->w, u16(c) << (op / OP_COUNT % 8));
            break;
        case OP_RUN_IDLE:
            hw_run_idle(c->w, 1u << 24);
            break;
        case OP_TX_GATE: {
            int k = u8(c) & 1;
            bool open = u8(c) & 1;
            if (fuzz_trace) {
                printf("#   %s tx %s\n", c->eng[k]->name,
                       open ? "open" : "closed");
            }
            hn_tx_open(c->eng[k], open);
            hw_settle(c->w);
            break;
        }
        case OP_RESET: {
            int k = u8(c) & 1;
            host_wrote(c, k);
            hn_reset(c->eng[k]);
            hn_set_mac(c->eng[k], k ? H_MAC_B : H_MAC_A);
            hw_settle(c->w);
            break;
        }
        case OP_FAULT:
            op_fault(c);
            break;
        case OP_SET_RID: {
            int k = u8(c) & 1;
            hn_set_request_id(c->eng[k], u32(c));
            break;
        }
        case OP_PEER:
            op_peer(c);
            break;
        case OP_DMA_START:
            op_dma_start(c);
            break;
        }
        if (fuzz_trace) {
            for (int k = 0; k < 2; k++) {
                if (!c->eng[k]->csr_pending) {
                    printf("#   %s irq status 0x%08x claim 0x%08x\n",
                           c->eng[k]->name, rd(c->eng[k], OE_IRQ_STATUS),
                           rd(c->eng[k], OE_IRQ_CLAIM));
                }
            }
        }
        irq_oracle(c);
    }
    /* Let everything finish (all timers are bounded here or absent). */
    for (int k = 0; k < 2; k++) {
        hn_tx_open(c->eng[k], true);
    }
    hw_run_idle(c->w, 1ull << 32);
    if (fuzz_trace) {
        for (int k = 0; k < 2; k++) {
            if (!c->eng[k]->csr_pending) {
                printf("#   end: %s irq status 0x%08x claim 0x%08x\n",
                       c->eng[k]->name, rd(c->eng[k], OE_IRQ_STATUS),
                       rd(c->eng[k], OE_IRQ_CLAIM));
            }
        }
    }
    irq_oracle(c);
    hw_restore(c->w);
    restore_grants(c);
    return 0;
}
