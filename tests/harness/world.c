/*
 * The harness world: engines and scripted peers on one simulated segment,
 * the host side of every engine callback, and the event loop that delivers
 * queued frames and serves wake-ups until the world is quiescent.
 *
 * Host-contract checks live here too: the harness records a violation when
 * the engine breaks a rule of engine.h (memory access crossing 4 KiB,
 * callbacks outside a call, completion without a pending access, an
 * oversized frame, a livelock of wake-ups) and fails the running test.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

#define H_DEFAULT_SETTLE_LIMIT 20000000ull
#define H_WAIT_LIMIT (1ull << 40)

static void violate(HWorld *w, const char *fmt, ...) H_PRINTF(2, 3);

static void violate(HWorld *w, const char *fmt, ...)
{
    va_list ap;

    if (w->violation[0]) {
        return;
    }
    va_start(ap, fmt);
    vsnprintf(w->violation, sizeof(w->violation), fmt, ap);
    va_end(ap);
}

void hw_check(HWorld *w)
{
    if (w->violation[0]) {
        char msg[sizeof(w->violation)];
        memcpy(msg, w->violation, sizeof(msg));
        w->violation[0] = 0;   /* report once */
        h_fail(__FILE__, __LINE__, "host contract violated: %s", msg);
    }
}

/* ------------------------------------------------------------------ */
/* Frame lists and delivery queues.                                     */

/* Append a frame; the list takes ownership of data (from w->pool). */
static void list_take(HWorld *w, HFrameList *l, uint8_t *data, size_t len,
                      uint64_t cycle, int src)
{
    HFrame *f;

    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->v = realloc(l->v, l->cap * sizeof(*l->v));
        if (!l->v) {
            abort();
        }
    }
    f = &l->v[l->n++];
    f->data = data;
    f->len = len;
    f->cycle = cycle;
    f->seq = w->order++;
    f->src = src;
}

static uint8_t *copy_frame(HWorld *w, const uint8_t *data, size_t len)
{
    uint8_t *p = hp_alloc(w->pool, len);

    memcpy(p, data, len);
    return p;
}

static void list_push(HWorld *w, HFrameList *l, const uint8_t *data,
                      size_t len, uint64_t cycle, int src)
{
    list_take(w, l, copy_frame(w, data, len), len, cycle, src);
}

static void frames_clear(HWorld *w, HFrameList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        hp_free(w->pool, l->v[i].data);
    }
    l->n = 0;
    l->cursor = 0;
}

static void list_free(HWorld *w, HFrameList *l)
{
    frames_clear(w, l);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

/*
 * A node's delivery queue is q[qhead .. qhead + nq), sorted by due time,
 * FIFO among equals. Popping advances qhead (moving the rest down at every
 * pop made a long queue quadratic: it was a quarter of a fuzz run); the
 * array is compacted when a push finds it full.
 */
static HDelivery *queue_head(const HNode *d)
{
    return &d->q[d->qhead];
}

/* Queue a frame; the queue takes ownership of data (from w->pool). */
static void queue_take(HNode *d, uint8_t *data, size_t len, uint64_t due,
                       int src)
{
    HWorld *w = d->w;
    HDelivery *q;
    size_t pos;

    if (d->qhead + d->nq == d->capq) {
        if (d->qhead) {
            memmove(d->q, queue_head(d), d->nq * sizeof(*d->q));
            d->qhead = 0;
        } else {
            d->capq = d->capq ? 2 * d->capq : 16;
            d->q = realloc(d->q, d->capq * sizeof(*d->q));
            if (!d->q) {
                abort();
            }
        }
    }
    q = queue_head(d);
    pos = d->nq;
    while (pos > 0 && q[pos - 1].due > due) {
        pos--;
    }
    memmove(&q[pos + 1], &q[pos], (d->nq - pos) * sizeof(*q));
    q[pos].data = data;
    q[pos].len = len;
    q[pos].due = due;
    q[pos].src = src;
    q[pos].order = w->order++;
    d->nq++;
}

static void queue_push(HNode *d, const uint8_t *data, size_t len,
                       uint64_t due, int src)
{
    queue_take(d, copy_frame(d->w, data, len), len, due, src);
}

/* Remove the head entry; returns its data, now owned by the caller. */
static uint8_t *queue_pop(HNode *d)
{
    uint8_t *data = queue_head(d)->data;

    d->qhead++;
    if (!--d->nq) {
        d->qhead = 0;
    }
    return data;
}

static void queue_clear(HNode *d)
{
    for (size_t i = 0; i < d->nq; i++) {
        hp_free(d->w->pool, queue_head(d)[i].data);
    }
    d->nq = 0;
    d->qhead = 0;
}

/* ------------------------------------------------------------------ */
/* Faults and fan-out.                                                  */

static bool fault_matches(HFault *f, int src, int dst, const uint8_t *p,
                          size_t len)
{
    if ((f->src >= 0 && f->src != src) || (f->dst >= 0 && f->dst != dst)) {
        return false;
    }
    if (f->cmd >= 0) {
        if (oetp_frame_cmd(p, len) != f->cmd) {
            return false;
        }
    }
    f->seen++;
    return f->seen > f->skip && (f->count == 0 || f->seen <= f->skip + f->count);
}

static void fan_out(HWorld *w, int src, const uint8_t *data, size_t len)
{
    for (int d = 0; d < w->nnodes; d++) {
        uint8_t *p;
        size_t plen = len;
        uint64_t due = w->now;
        int copies = 1;

        if (d == src) {
            continue;
        }
        p = hp_alloc(w->pool, len > 60 ? len : 60);
        memcpy(p, data, len);
        for (int i = 0; i < w->nfaults; i++) {
            HFault *f = &w->faults[i];
            if (!fault_matches(f, src, d, p, plen)) {
                continue;
            }
            switch (f->kind) {
            case HF_DROP:
                copies = 0;
                break;
            case HF_DUP:
                copies = copies ? 2 : 0;
                break;
            case HF_DELAY:
                due += f->delay;
                break;
            case HF_TRUNCATE:
                if (f->len < plen) {
                    plen = f->len;
                }
                break;
            case HF_CORRUPT: {
                long off = f->offset < 0 ? (long)plen + f->offset : f->offset;
                if (off >= 0 && (size_t)off < plen) {
                    p[off] ^= f->xor_mask;
                }
                break;
            }
            case HF_PAD60:
                if (plen < 60) {
                    memset(p + plen, f->pad_byte, 60 - plen);
                    plen = 60;
                }
                break;
            }
        }
        if (copies == 2) {
            queue_push(w->nodes[d], p, plen, due, src);
        }
        if (copies) {
            hp_trim(p, plen);   /* the rest is not part of the frame */
            queue_take(w->nodes[d], p, plen, due, src);
        } else {
            hp_free(w->pool, p);
        }
    }
}

int hw_add_fault(HWorld *w, const HFault *f)
{
    H_CHECKF(w->nfaults < (int)(sizeof(w->faults) / sizeof(w->faults[0])),
             "too many faults");
    w->faults[w->nfaults] = *f;
    w->faults[w->nfaults].seen = 0;
    return w->nfaults++;
}

void hw_clear_faults(HWorld *w)
{
    w->nfaults = 0;
}

/* ------------------------------------------------------------------ */
/* Host callbacks.                                                      */

static bool in_call(HNode *n, const char *what)
{
    if (!n->in_call) {
        violate(n->w, "%s: %s called outside an engine call", n->name, what);
        return false;
    }
    return true;
}

static bool mem_args_ok(HNode *n, const char *what, uint32_t addr,
                        uint32_t len)
{
    if (len == 0 || (uint64_t)addr + len > (1ull << 32)) {
        violate(n->w, "%s: %s(0x%08x, %u): empty or wrapping", n->name, what,
                addr, len);
        return false;
    }
    if ((addr & 0xFFFu) + (uint64_t)len > 0x1000u) {
        violate(n->w, "%s: %s(0x%08x, %u) crosses a 4 KiB boundary", n->name,
                what, addr, len);
    }
    return true;
}

/* OE_HARNESS_TRACE=1 in the environment prints every host callback. */
static int trace_on = -1;

static void trace(HNode *n, const char *fmt, ...) H_PRINTF(2, 3);

static void trace(HNode *n, const char *fmt, ...)
{
    va_list ap;

    if (trace_on < 0) {
        const char *e = getenv("OE_HARNESS_TRACE");
        trace_on = e && *e && *e != '0';
    }
    if (!trace_on) {
        return;
    }
    va_start(ap, fmt);
    printf("# [%llu] %s: ", (unsigned long long)n->w->now, n->name);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
}

static OeMemStatus host_mem_read(void *opaque, uint32_t addr, void *buf,
                                 uint32_t len)
{
    HNode *n = opaque;

    trace(n, "mem_read 0x%08x +%u", addr, len);
    if (!in_call(n, "mem_read") || !mem_args_ok(n, "mem_read", addr, len)) {
        return OE_MEM_SLVERR;
    }
    if (n->w->mem_hook) {
        n->w->mem_hook(n, false, addr, len, n->w->mem_hook_opaque);
    }
    return hm_access(&n->mem, false, addr, buf, len, n->w->now);
}

static OeMemStatus host_mem_write(void *opaque, uint32_t addr,
                                  const void *buf, uint32_t len)
{
    HNode *n = opaque;

    trace(n, "mem_write 0x%08x +%u", addr, len);
    if (!in_call(n, "mem_write") || !mem_args_ok(n, "mem_write", addr, len)) {
        return OE_MEM_SLVERR;
    }
    if (n->w->mem_hook) {
        n->w->mem_hook(n, true, addr, len, n->w->mem_hook_opaque);
    }
    return hm_access(&n->mem, true, addr, (void *)buf, len, n->w->now);
}

/* Replies to received requests may go out while tx_ready() is false. */
static bool is_reply(const uint8_t *f, size_t len)
{
    switch (oetp_frame_cmd(f, len)) {
    case OETP_RMEM_READ_RSP:
    case OETP_RMEM_WRITE_RSP:
    case OETP_DMA_READ_RSP:
    case OETP_DMA_WRITE_RSP:
    case OETP_ERROR_RSP:
        return true;
    default:
        return false;
    }
}

static void host_tx_frame(void *opaque, const uint8_t *frame, size_t len)
{
    HNode *n = opaque;

    trace(n, "tx_frame %zu bytes, cmd 0x%02x", len,
          len > OETP_OFF_CMD ? frame[OETP_OFF_CMD] : 0);
    if (!in_call(n, "tx_frame")) {
        return;
    }
    if (len < 1 || len > OETP_FRAME_MAX) {
        violate(n->w, "%s: tx_frame of %zu bytes", n->name, len);
        return;
    }
    if (!(n->tx_open && n->tx_budget != 0) && !is_reply(frame, len)) {
        violate(n->w, "%s: locally initiated frame (%zu bytes, cmd 0x%02x) "
                "sent while tx_ready() is false", n->name, len,
                len > OETP_OFF_CMD ? frame[OETP_OFF_CMD] : 0);
    }
    list_push(n->w, &n->tx, frame, len, n->w->now, n->idx);
    if (n->tx_budget > 0) {
        n->tx_budget--;
    }
    fan_out(n->w, n->idx, frame, len);
}

static bool host_tx_ready(void *opaque)
{
    HNode *n = opaque;
    bool ready = n->tx_open && n->tx_budget != 0;

    in_call(n, "tx_ready");
    if (!ready) {
        n->tx_was_refused = true;
    }
    return ready;
}

static void host_set_irq(void *opaque, bool level)
{
    HNode *n = opaque;

    trace(n, "set_irq %d", level);
    in_call(n, "set_irq");
    if (level) {
        n->irq_msgs++;
        n->irq_rises += !n->irq;
    } else {
        n->irq_falls += n->irq;
    }
    n->irq = level;
}

static bool csr_issuing;

static void host_csr_complete(void *opaque, uint32_t value)
{
    HNode *n = opaque;

    trace(n, "csr_complete 0x%08x", value);
    in_call(n, "csr_complete");
    if (!n->csr_pending && !csr_issuing) {
        violate(n->w, "%s: csr_complete(0x%08x) without a pending access",
                n->name, value);
        return;
    }
    n->csr_pending = false;
    n->csr_completed = true;
    n->csr_value = value;
    n->csr_completions++;
}

static void host_arm_timer(void *opaque, uint64_t cycle)
{
    HNode *n = opaque;

    trace(n, "arm_timer %llu", (unsigned long long)cycle);
    in_call(n, "arm_timer");
    n->timer = cycle;
    n->arm_calls++;
}

static const OeHostOps host_ops = {
    .mem_read = host_mem_read,
    .mem_write = host_mem_write,
    .tx_frame = host_tx_frame,
    .tx_ready = host_tx_ready,
    .set_irq = host_set_irq,
    .csr_complete = host_csr_complete,
    .arm_timer = host_arm_timer,
};

/* ------------------------------------------------------------------ */
/* Calling into an engine.                                              */

static void enter(HNode *n)
{
    HWorld *w = n->w;

    H_CHECKF(n->e, "%s is not an engine", n->name);
    for (int i = 0; i < w->nnodes; i++) {
        H_CHECKF(!w->nodes[i]->in_call, "nested engine call");
    }
    H_CHECKF(!w->call_limit || w->calls < w->call_limit, "%llu engine "
             "calls by cycle %llu: wake-up polling?",
             (unsigned long long)w->calls, (unsigned long long)w->now);
    n->in_call = true;
    w->calls++;
    n->calls++;
    if (n->told < w->now) {
        /* Time moved: the engine hears about it before anything else. */
        n->told = w->now;
        if (n->timer <= w->now) {
            n->timer = OE_TIMER_NONE;
        }
        oe_engine_advance(n->e, w->now);
    }
}

static void leave(HNode *n)
{
    n->in_call = false;
    hw_check(n->w);
}

void hn_advance(HNode *n)
{
    enter(n);
    if (n->timer <= n->w->now) {
        n->timer = OE_TIMER_NONE;
    }
    oe_engine_advance(n->e, n->w->now);
    leave(n);
}

/* ------------------------------------------------------------------ */
/* World lifetime.                                                      */

static void free_cb(void *w)
{
    hw_free(w);
}

HWorld *hw_new(void)
{
    HWorld *w = calloc(1, sizeof(*w));

    H_CHECK(w != NULL);
    w->settle_limit = H_DEFAULT_SETTLE_LIMIT;
    w->pool = hp_new();
    h_cleanup(free_cb, w);
    return w;
}

void hw_free(HWorld *w)
{
    for (int i = 0; i < w->nnodes; i++) {
        HNode *n = w->nodes[i];
        if (n->e) {
            oe_engine_free(n->e);
        }
        hm_free(&n->mem);
        list_free(w, &n->tx);
        list_free(w, &n->rx);
        queue_clear(n);
        free(n->q);
        free(n->save_buf[0]);
        free(n->save_buf[1]);
        free(n->snap);
        free(n);
    }
    hp_destroy(w->pool);
    free(w);
}

static uint8_t *save_state(HNode *n, int k, size_t *len);

void hw_snapshot(HWorld *w)
{
    H_CHECKF(!w->nfaults, "hw_snapshot with faults installed");
    for (int i = 0; i < w->nnodes; i++) {
        HNode *n = w->nodes[i];

        H_CHECKF(!n->nq && !n->csr_pending, "%s: hw_snapshot with frames "
                 "queued or a CSR access pending", n->name);
        hm_snapshot(&n->mem);
        n->snap_irq = n->irq;
        if (n->e) {
            free(n->snap);
            n->snap = save_state(n, 0, &n->snap_len);
            n->save_buf[0] = NULL;   /* now owned by snap */
            n->save_cap[0] = 0;
            n->save_calls = 0;
        }
    }
    w->snap_now = w->now;
    w->has_snap = true;
}

void hw_restore(HWorld *w)
{
    H_CHECKF(w->has_snap, "hw_restore without hw_snapshot");
    w->now = w->snap_now;
    for (int i = 0; i < w->nnodes; i++) {
        HNode *n = w->nodes[i];
        int r;

        frames_clear(w, &n->tx);
        frames_clear(w, &n->rx);
        queue_clear(n);
        hm_restore(&n->mem);
        n->timer = OE_TIMER_NONE;
        n->tx_open = true;
        n->tx_was_refused = false;
        n->tx_budget = -1;
        if (!n->e) {
            continue;
        }
        /* As after a migration: engine.h promises no callbacks from a load
         * (an engine may report a reset's falling IRQ edge or complete a
         * pending CSR access, or not), so the host side takes the
         * snapshot's IRQ level, abandons any pending access, and tells the
         * engine the time so it can arm its wake-up. */
        n->in_call = true;
        n->calls++;
        r = oe_engine_load(n->e, n->snap, n->snap_len);
        n->in_call = false;
        H_CHECKF(r == 0, "%s: reloading its snapshot failed", n->name);
        n->irq = n->snap_irq;
        n->irq_rises = n->irq_msgs = n->irq_falls = 0;
        n->csr_pending = n->csr_completed = false;
        n->csr_value = 0;
        n->csr_completions = 0;
        n->told = 0;
    }
    w->order = 0;
    w->calls = 0;
    w->nfaults = 0;
    for (int i = 0; i < w->nnodes; i++) {
        if (w->nodes[i]->e) {
            hn_advance(w->nodes[i]);
        }
    }
}

static HNode *add_node(HWorld *w, const char *name, uint64_t mac)
{
    HNode *n;

    H_CHECKF(w->nnodes < H_MAX_NODES, "too many nodes");
    n = calloc(1, sizeof(*n));
    H_CHECK(n != NULL);
    n->w = w;
    n->idx = w->nnodes;
    snprintf(n->name, sizeof(n->name), "%s", name);
    n->mac = mac;
    n->timer = OE_TIMER_NONE;
    n->tx_open = true;
    n->tx_budget = -1;
    w->nodes[w->nnodes++] = n;
    return n;
}

HNode *hw_engine(HWorld *w, const char *name, uint64_t mac,
                 const OeEngineConfig *cfg)
{
    HNode *n = add_node(w, name, mac);
    const char *err = NULL;

    n->in_call = true;
    n->calls = 1;   /* creation counts: 0 means "never" to save_calls */
    n->e = oe_engine_new(&host_ops, n, cfg, &err);
    n->in_call = false;
    H_CHECKF(n->e, "oe_engine_new failed: %s", err ? err : "?");
    hw_check(w);
    n->told = 0;
    if (w->now) {
        hn_advance(n);
    }
    hm_region(&n->mem, 0, 0x40000);
    if (mac) {
        hn_set_mac(n, mac);
    }
    return n;
}

HNode *hw_scripted(HWorld *w, const char *name, uint64_t mac)
{
    return add_node(w, name, mac);
}

/* ------------------------------------------------------------------ */
/* Event loop.                                                          */

static bool deliverable(const HNode *n)
{
    return n->nq && (!n->e || oe_engine_can_receive(n->e));
}

uint64_t hw_next_event(const HWorld *w)
{
    uint64_t t = UINT64_MAX;

    for (int i = 0; i < w->nnodes; i++) {
        const HNode *n = w->nodes[i];
        if (n->e && n->timer != OE_TIMER_NONE && n->timer < t) {
            t = n->timer;
        }
        if (n->e && n->tx_was_refused && n->tx_open && n->tx_budget != 0) {
            t = w->now;
        }
        if (deliverable(n) && queue_head(n)->due < t) {
            t = queue_head(n)->due;
        }
    }
    return t < w->now ? w->now : t;
}

static bool deliver_one(HNode *n)
{
    size_t len;
    int src;
    uint8_t *data;

    if (!deliverable(n) || queue_head(n)->due > n->w->now) {
        return false;
    }
    len = queue_head(n)->len;
    src = queue_head(n)->src;
    data = queue_pop(n);
    /* The RX list takes the queued copy, logged before the engine's
     * reaction (seq order); the engine keeps no pointer to it. */
    list_take(n->w, &n->rx, data, len, n->w->now, src);
    if (n->e) {
        enter(n);
        oe_engine_rx_frame(n->e, data, len);
        n->in_call = false;
    }
    hw_check(n->w);
    return true;
}

void hw_settle(HWorld *w)
{
    uint64_t calls = 0;

    for (;;) {
        bool progress = false;

        for (int i = 0; i < w->nnodes; i++) {
            HNode *n = w->nodes[i];
            if (!n->e) {
                continue;
            }
            if (n->timer <= w->now ||
                (n->tx_was_refused && n->tx_open && n->tx_budget != 0)) {
                n->tx_was_refused = false;
                hn_advance(n);
                progress = true;
                calls++;
            }
        }
        for (int i = 0; i < w->nnodes; i++) {
            if (deliver_one(w->nodes[i])) {
                progress = true;
                calls++;
            }
        }
        if (!progress) {
            break;
        }
        if (calls > w->settle_limit) {
            h_fail(__FILE__, __LINE__, "no quiescence at cycle %llu after "
                   "%llu engine calls (wake-up livelock?)",
                   (unsigned long long)w->now, (unsigned long long)calls);
        }
    }
}

void hw_run_until(HWorld *w, uint64_t cycle)
{
    hw_settle(w);
    for (;;) {
        uint64_t t = hw_next_event(w);
        if (t > cycle) {
            break;
        }
        w->now = t;
        hw_settle(w);
    }
    if (cycle > w->now) {
        w->now = cycle;
        hw_settle(w);
    }
}

void hw_run_for(HWorld *w, uint64_t cycles)
{
    hw_run_until(w, w->now + cycles);
}

/* Save into one of the node's two reusable buffers (grown when the state
 * grows): the quiescence check saves at every idle point, and a fresh
 * allocation each time cost page faults under the sanitizers. */
static uint8_t *save_state(HNode *n, int k, size_t *len)
{
    size_t need = oe_engine_save(n->e, n->save_buf[k], n->save_cap[k]);

    if (need > n->save_cap[k]) {
        free(n->save_buf[k]);
        n->save_buf[k] = malloc(need);
        if (!n->save_buf[k]) {
            abort();
        }
        n->save_cap[k] = need;
        need = oe_engine_save(n->e, n->save_buf[k], need);
    }
    *len = need;
    return n->save_buf[k];
}

/*
 * Quiescence must be real: with no wake-up armed and nothing to deliver,
 * one more advance at the same cycle must change nothing. An engine that
 * still had work without asking for a wake-up would only make progress
 * when the host happens to call it (under QEMU: when the guest touches a
 * register), so this is checked whenever a world goes idle.
 *
 * An engine's state only changes inside a call into it, so a save taken
 * when its call count stood where it stands now is its state now (the
 * first save is skipped then), and an engine not called since it passed
 * this check at this cycle, with its transmit path as it was, is still
 * that fixed point (the check is skipped: the fuzz target goes idle often).
 */
void hw_check_quiescent(HWorld *w)
{
    /* OE_HARNESS_NO_QUIESCENCE=1 skips this, to triage other failures of
     * an input that also trips this rule. */
    if (getenv("OE_HARNESS_NO_QUIESCENCE")) {
        return;
    }
    for (int i = 0; i < w->nnodes; i++) {
        HNode *n = w->nodes[i];
        size_t frames = n->tx.n;
        bool tx = n->tx_open && n->tx_budget != 0;
        int k1, k2;
        bool same;

        if (!n->e || n->csr_pending) {
            continue;
        }
        if (n->told < w->now) {
            /* telling the time is a change of its own */
            hn_advance(n);
            hw_settle(w);
            frames = n->tx.n;
        }
        if (n->save_calls == n->calls && n->quiet_now == w->now &&
            n->quiet_tx == tx) {
            continue;
        }
        k1 = n->save_last;
        if (n->save_calls != n->calls) {
            save_state(n, k1, &n->save_len[k1]);
        }
        k2 = !k1;
        hn_advance(n);
        hw_settle(w);
        save_state(n, k2, &n->save_len[k2]);
        same = n->save_len[k1] == n->save_len[k2] &&
               !memcmp(n->save_buf[k1], n->save_buf[k2], n->save_len[k1]);
        H_CHECKF(same && n->tx.n == frames, "%s looked idle (no wake-up "
                 "armed, nothing queued) but one more advance at cycle %llu "
                 "changed its state%s", n->name,
                 (unsigned long long)w->now,
                 n->tx.n != frames ? " and sent frames" : "");
        n->save_last = k2;
        n->save_calls = n->calls;
        n->quiet_now = w->now;
        n->quiet_tx = tx;
    }
}

bool hw_run_idle(HWorld *w, uint64_t max_cycles)
{
    uint64_t end = w->now + max_cycles;

    if (end < w->now) {
        end = UINT64_MAX - 1;
    }
    hw_settle(w);
    for (;;) {
        uint64_t t = hw_next_event(w);
        if (t == UINT64_MAX) {
            hw_check_quiescent(w);
            return true;
        }
        if (t > end) {
            w->now = end;
            hw_settle(w);
            return false;
        }
        w->now = t;
        hw_settle(w);
    }
}

/* ------------------------------------------------------------------ */
/* Frames from tests.                                                   */

void hn_send(HNode *from, const uint8_t *frame, size_t len)
{
    list_push(from->w, &from->tx, frame, len, from->w->now, from->idx);
    fan_out(from->w, from->idx, frame, len);
}

void hn_deliver(HNode *to, const uint8_t *frame, size_t len)
{
    queue_push(to, frame, len, to->w->now, -1);
}

static const HFrame *next_in(HFrameList *l)
{
    return l->cursor < l->n ? &l->v[l->cursor++] : NULL;
}

const HFrame *hn_next_tx(HNode *n)
{
    return next_in(&n->tx);
}

const HFrame *hn_next_rx(HNode *n)
{
    return next_in(&n->rx);
}

size_t hn_unread_tx(const HNode *n)
{
    return n->tx.n - n->tx.cursor;
}

size_t hn_unread_rx(const HNode *n)
{
    return n->rx.n - n->rx.cursor;
}

uint8_t hf_cmd(const HFrame *f)
{
    int cmd = f ? oetp_frame_cmd(f->data, f->len) : -1;
    return cmd < 0 ? 0 : (uint8_t)cmd;
}

uint32_t hf_param(const HFrame *f, unsigned i)
{
    size_t off = OETP_OFF_PARAM1 + 4 * (size_t)(i - 1);
    return f && i >= 1 && f->len >= off + 4 ? oetp_get_le32(f->data + off) : 0;
}

uint64_t hf_dst(const HFrame *f)
{
    return f && f->len >= 6 ? oetp_get_mac(f->data) : 0;
}

uint64_t hf_src(const HFrame *f)
{
    return f && f->len >= 12 ? oetp_get_mac(f->data + 6) : 0;
}

size_t hn_count_tx(const HNode *n, int cmd)
{
    size_t k = 0;
    for (size_t i = 0; i < n->tx.n; i++) {
        k += cmd < 0 || hf_cmd(&n->tx.v[i]) == cmd;
    }
    return k;
}

const HFrame *hn_tx_nth(const HNode *n, int cmd, size_t k)
{
    for (size_t i = 0; i < n->tx.n; i++) {
        if (cmd < 0 || hf_cmd(&n->tx.v[i]) == cmd) {
            if (!k--) {
                return &n->tx.v[i];
            }
        }
    }
    return NULL;
}

void hn_skip_tx(HNode *n)
{
    n->tx.cursor = n->tx.n;
}

void hn_skip_rx(HNode *n)
{
    n->rx.cursor = n->rx.n;
}

/* ------------------------------------------------------------------ */
/* CSR access.                                                          */

static void csr_begin(HNode *n, uint32_t off, unsigned size)
{
    H_CHECKF(!n->csr_pending, "%s: CSR access 0x%x while another one pends",
             n->name, off);
    H_CHECKF((size == 1 || size == 2 || size == 4) && off % size == 0 &&
             off < OE_CSR_APERTURE_SIZE, "bad CSR access 0x%x/%u", off, size);
    enter(n);
    n->csr_completed = false;
    csr_issuing = true;
}

static void csr_end(HNode *n, OeCsrStatus st)
{
    csr_issuing = false;
    if (st == OE_CSR_DONE && n->csr_completed) {
        violate(n->w, "%s: csr_complete() for an access that returned DONE",
                n->name);
    } else if (st == OE_CSR_PENDING) {
        n->csr_pending = !n->csr_completed;
    } else if (st != OE_CSR_DONE) {
        violate(n->w, "%s: CSR status %d", n->name, (int)st);
    }
    leave(n);
}

OeCsrStatus hn_csr_read(HNode *n, uint32_t off, unsigned size, uint32_t *v)
{
    OeCsrStatus st;

    csr_begin(n, off, size);
    *v = 0xBAD0BAD0u;
    st = oe_engine_csr_read(n->e, off, size, v);
    csr_end(n, st);
    return st;
}

OeCsrStatus hn_csr_write(HNode *n, uint32_t off, unsigned size, uint32_t v)
{
    OeCsrStatus st;

    csr_begin(n, off, size);
    st = oe_engine_csr_write(n->e, off, size, v);
    csr_end(n, st);
    return st;
}

uint32_t hn_wait_csr(HNode *n, uint64_t max_cycles)
{
    HWorld *w = n->w;
    uint64_t end = w->now + max_cycles;

    hw_settle(w);
    while (n->csr_pending) {
        uint64_t t = hw_next_event(w);
        H_CHECKF(t <= end, "%s: CSR access still pending at cycle %llu",
                 n->name, (unsigned long long)w->now);
        w->now = t;
        hw_settle(w);
    }
    return n->csr_value;
}

uint32_t hn_rd_sz(HNode *n, uint32_t off, unsigned size)
{
    uint32_t v;

    if (hn_csr_read(n, off, size, &v) == OE_CSR_PENDING) {
        v = hn_wait_csr(n, H_WAIT_LIMIT);
    }
    return v;
}

uint32_t hn_rd(HNode *n, uint32_t off)
{
    return hn_rd_sz(n, off, 4);
}

void hn_wr_sz(HNode *n, uint32_t off, unsigned size, uint32_t v)
{
    if (hn_csr_write(n, off, size, v) == OE_CSR_PENDING) {
        hn_wait_csr(n, H_WAIT_LIMIT);
    }
}

void hn_wr(HNode *n, uint32_t off, uint32_t v)
{
    hn_wr_sz(n, off, 4, v);
}

uint64_t hn_rd64(HNode *n, uint32_t off)
{
    uint64_t lo = hn_rd(n, off);
    return lo | (uint64_t)hn_rd(n, off + 4) << 32;
}

void hn_wr64(HNode *n, uint32_t off, uint64_t v)
{
    hn_wr(n, off, (uint32_t)v);
    hn_wr(n, off + 4, (uint32_t)(v >> 32));
}

void hn_reset(HNode *n)
{
    bool was_pending = n->csr_pending;

    enter(n);
    csr_issuing = false;
    oe_engine_reset(n->e);
    leave(n);
    if (was_pending) {
        H_CHECKF(n->csr_completed && n->csr_value == 0xFFFFFFFFu,
                 "%s: reset must complete the pending CSR access with all "
                 "ones (completed=%d value=0x%08x)", n->name,
                 n->csr_completed, n->csr_value);
    }
    n->csr_pending = false;
}

void hn_migrate(HNode *n)
{
    size_t need, got;
    uint8_t *blob;
    const char *err = NULL;
    int r;

    H_CHECKF(!n->csr_pending, "%s: migrating with a pending CSR access",
             n->name);
    enter(n);
    need = oe_engine_save(n->e, NULL, 0);
    blob = malloc(need ? need : 1);
    got = blob ? oe_engine_save(n->e, blob, need) : 0;
    oe_engine_free(n->e);
    n->e = oe_engine_new(&host_ops, n, NULL, &err);
    r = n->e && blob ? oe_engine_load(n->e, blob, got) : -1;
    n->in_call = false;
    free(blob);
    H_CHECKF(n->e, "oe_engine_new: %s", err ? err : "?");
    H_CHECKF(got == need && need > 0, "save: %zu of %zu bytes", got, need);
    H_CHECKF(r == 0, "load of a fresh save failed");
    n->told = 0;
    hn_advance(n);
    hw_check(n->w);
}

bool hn_can_receive(HNode *n)
{
    return oe_engine_can_receive(n->e);
}

void hn_set_request_id(HNode *n, uint32_t id)
{
    enter(n);
    oe_engine_test_set_request_id(n->e, id);
    leave(n);
}

void hn_tx_open(HNode *n, bool open)
{
    n->tx_open = open;
}
