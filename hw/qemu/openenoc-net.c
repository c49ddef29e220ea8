/*
 * openenoc: frames between the engine and QEMU's net backend.
 *
 * The engine hands over transmitted frames inside its own calls. A frame for
 * a link that leaves the process (socket, dgram, tap...) goes straight to the
 * net layer when nothing waits before it. Otherwise (a hub, pacing, a busy
 * backend) it waits in txq and leaves as soon as that call has returned, or
 * from the bottom half when the link or the backend is busy. A received frame
 * goes straight into the engine when that is safe: the engine is not
 * mid-call and we are not already inside a send of another device that
 * answered synchronously.
 * Otherwise it waits in rxq for the bottom half. So on a hub a fragment and
 * its answer cross in one synchronous hand-off, the next exchange starts
 * from the bottom half's delivery loop, the stack stays two sends deep
 * however large the block, and engine calls never nest.
 *
 * Link pacing (property link-speed, Mbit/s) releases frames no faster than
 * the line rate, measured on the host clock, counting each frame as it would
 * occupy an Ethernet link: padded to 60 bytes plus FCS, preamble and
 * inter-frame gap (24 bytes).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/bswap.h"
#include "qemu/main-loop.h"
#include "openenoc.h"
#include "openenoc/oetp.h"
#include "trace.h"

#define OPENENOC_TXQ_MAX        16     /* unpaced: frames queued for send */
#define OPENENOC_RXQ_MAX        8      /* frames accepted ahead of the engine */
#define OPENENOC_BH_BUDGET      256    /* frames delivered per BH run */
#define OPENENOC_BH_BUDGET_NS   (2 * SCALE_MS) /* and host time per BH run */

/*
 * Sends in progress in this process (all openenoc devices): a receive that
 * happens inside a send inside a send is queued instead of delivered.
 */
static unsigned openenoc_send_depth;

#define OPENENOC_WIRE_OVERHEAD  24     /* FCS 4 + preamble/SFD 8 + IFG 12 */
/*
 * A pacing timer that fires late (host scheduling) may catch up on at most
 * this much line time, so the average rate holds while a burst stays within
 * what a receiving socket holds: a default 208 KiB receive buffer takes only
 * about 12 full-size datagrams (the kernel counts buffer overhead), so the
 * burst is 64 KiB (8 full frames).
 */
#define OPENENOC_PACE_BURST     (64 * 1024)

static OpenenocFrame *openenoc_frame_new(const uint8_t *data, size_t len)
{
    OpenenocFrame *f = g_malloc(sizeof(*f) + len);

    f->len = len;
    memcpy(f->data, data, len);
    return f;
}

static void openenoc_trace_frame(bool tx, const uint8_t *buf, size_t len)
{
    OetpHeader h;
    const char *cmd = "-";
    uint32_t rid = 0;

    if (!oetp_parse_header(buf, len, &h)) {
        trace_openenoc_frame(tx ? "tx" : "rx", len, 0, 0, 0, "runt", 0);
        return;
    }
    if (h.oetp) {
        cmd = oetp_cmd_name(h.cmd) ? oetp_cmd_name(h.cmd) : "unknown";
        if (len >= OETP_OFF_PARAM1 + 4) {
            rid = oetp_param(buf, 1);
        }
    }
    trace_openenoc_frame(tx ? "tx" : "rx", len, h.dst, h.src, h.ethertype,
                         cmd, rid);
}

/* Line time of a frame of len bytes (or of len bytes of credit). */
static int64_t openenoc_wire_ns(OpenenocState *s, size_t len)
{
    uint64_t bytes = MAX(len, OETP_PADDED_FRAME_LEN) + OPENENOC_WIRE_OVERHEAD;

    /* bits / (Mbit/s) = microseconds; * 1000 for nanoseconds */
    return bytes * 8 * 1000 / s->link_mbps;
}

bool openenoc_tx_ready_now(OpenenocState *s)
{
    if (s->link_mbps) {
        /* one frame may wait for the link; the engine holds the rest */
        return s->txq_len == 0;
    }
    return s->txq_len < OPENENOC_TXQ_MAX;
}

static void openenoc_tx_sent(NetClientState *nc, ssize_t len)
{
    OpenenocState *s = qemu_get_nic_opaque(nc);

    s->tx_backend_busy = false;
    qemu_bh_schedule(s->bh);
}

/* Hand one frame to the net layer, which copies it if it cannot send now. */
static void openenoc_tx_send(OpenenocState *s, const uint8_t *data, size_t len)
{
    ssize_t sent;

    if (trace_event_get_state_backends(TRACE_OPENENOC_FRAME)) {
        openenoc_trace_frame(true, data, len);
    }
    openenoc_send_depth++;
    sent = qemu_send_packet_async(qemu_get_queue(s->nic), data, len,
                                  openenoc_tx_sent);
    openenoc_send_depth--;
    if (sent == 0) {
        /* the backend queued it and calls openenoc_tx_sent when done */
        trace_openenoc_tx_backpressure(s->txq_len);
        s->tx_backend_busy = true;
    }
}

/*
 * May a frame the engine hands over go to the net layer right away, inside
 * the engine call? Only if it leaves the process: a hub or a NIC peer could
 * deliver it synchronously to a device that answers into ours mid-call.
 * An unpaced link to a socket, tap or similar backend is the common remote
 * case, and sending there directly saves copying every frame through txq.
 */
static bool openenoc_tx_direct_ok(OpenenocState *s)
{
    NetClientState *peer = qemu_get_queue(s->nic)->peer;

    return peer && peer->info->type != NET_CLIENT_DRIVER_HUBPORT &&
           peer->info->type != NET_CLIENT_DRIVER_NIC && !s->link_mbps &&
           !s->tx_backend_busy && QSIMPLEQ_EMPTY(&s->txq) &&
           runstate_is_running();
}

void openenoc_queue_tx(OpenenocState *s, const uint8_t *frame, size_t len)
{
    OpenenocFrame *f;

    if (openenoc_tx_direct_ok(s)) {
        openenoc_tx_send(s, frame, len);
        return;
    }
    f = openenoc_frame_new(frame, len);
    QSIMPLEQ_INSERT_TAIL(&s->txq, f, next);
    s->txq_len++;           /* sent by openenoc_engine_leave() */
}

void openenoc_tx_flush(OpenenocState *s)
{
    OpenenocFrame *f;

    if (!runstate_is_running()) {
        return;         /* the frames stay queued (and migrate with us) */
    }
    while (!s->tx_backend_busy && (f = QSIMPLEQ_FIRST(&s->txq))) {
        if (s->link_mbps) {
            int64_t now = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
            int64_t start = s->link_free_ns;

            if (start > now) {
                trace_openenoc_pace(f->len, start - now);
                timer_mod(s->pace_timer, start);
                return;
            }
            if (now - start > openenoc_wire_ns(s, OPENENOC_PACE_BURST)) {
                start = now;        /* an idle link earns no more credit */
            }
            s->link_free_ns = start + openenoc_wire_ns(s, f->len);
        }
        QSIMPLEQ_REMOVE_HEAD(&s->txq, next);
        s->txq_len--;
        openenoc_tx_send(s, f->data, f->len);
        g_free(f);
    }
    if (s->tx_throttled && openenoc_tx_ready_now(s)) {
        qemu_bh_schedule(s->bh);    /* the engine waits for a kick */
    }
}

void openenoc_pace_cb(void *opaque)
{
    openenoc_bh(opaque);
}

/*
 * Deliver queued frames, within a budget of frames and of host time: an
 * engine may take long per frame (the RTL model takes milliseconds), and
 * the main loop must keep serving everything else meanwhile.
 */
static void openenoc_rx_deliver(OpenenocState *s)
{
    int64_t end = qemu_clock_get_ns(QEMU_CLOCK_REALTIME) +
                  OPENENOC_BH_BUDGET_NS;
    unsigned budget = OPENENOC_BH_BUDGET;
    OpenenocFrame *f;

    while (!s->rx_engine_blocked && (f = QSIMPLEQ_FIRST(&s->rxq))) {
        if (!budget-- || qemu_clock_get_ns(QEMU_CLOCK_REALTIME) > end) {
            qemu_bh_schedule(s->bh);    /* let the main loop breathe */
            return;
        }
        openenoc_engine_enter(s);
        if (!s->eng.can_receive(s->engine)) {
            /* Only a CSR access or a reset can make room again. */
            trace_openenoc_rx_blocked(s->rxq_len);
            s->rx_engine_blocked = true;
            openenoc_engine_leave(s);
            break;
        }
        QSIMPLEQ_REMOVE_HEAD(&s->rxq, next);
        s->rxq_len--;
        s->eng.rx_frame(s->engine, f->data, f->len);
        openenoc_engine_leave(s);
        g_free(f);
    }
    if (s->rx_refused && !s->rx_engine_blocked &&
        s->rxq_len < OPENENOC_RXQ_MAX) {
        s->rx_refused = false;
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

/*
 * Deferred work: deliver received frames, send queued ones, kick the engine
 * when transmission can resume or when it asked to be called again.
 */
void openenoc_bh(void *opaque)
{
    OpenenocState *s = opaque;

    if (s->in_engine) {
        s->bh_deferred = true;      /* openenoc_engine_leave reschedules */
        return;
    }
    if (!runstate_is_running()) {
        return;                     /* resumed by openenoc_vm_state_change */
    }
    openenoc_rx_deliver(s);
    openenoc_tx_flush(s);
    if (s->tx_throttled && openenoc_tx_ready_now(s)) {
        s->tx_throttled = false;
        s->again = true;
    }
    if (s->again) {
        s->again = false;
        openenoc_engine_kick(s);
    }
}

/*
 * A stopped VM's device neither sends, receives nor touches guest memory:
 * its state is being saved or may be migrating. Work resumes with the VM.
 */
void openenoc_vm_state_change(void *opaque, bool running, RunState state)
{
    OpenenocState *s = opaque;

    if (running) {
        qemu_bh_schedule(s->bh);
        s->rx_refused = false;
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

static bool openenoc_can_receive(NetClientState *nc)
{
    OpenenocState *s = qemu_get_nic_opaque(nc);

    if (s->in_engine || s->rx_engine_blocked || !runstate_is_running() ||
        s->rxq_len >= OPENENOC_RXQ_MAX) {
        s->rx_refused = true;
        return false;
    }
    return true;
}

static ssize_t openenoc_receive(NetClientState *nc, const uint8_t *buf,
                                size_t size)
{
    OpenenocState *s = qemu_get_nic_opaque(nc);
    OpenenocFrame *f;

    if (!openenoc_can_receive(nc)) {
        return 0;                   /* the net layer queues it for us */
    }
    if (trace_event_get_state_backends(TRACE_OPENENOC_FRAME)) {
        openenoc_trace_frame(false, buf, size);
    }
    if (openenoc_send_depth <= 1 && QSIMPLEQ_EMPTY(&s->rxq)) {
        openenoc_engine_enter(s);
        if (s->eng.can_receive(s->engine)) {
            s->eng.rx_frame(s->engine, buf, size);
            openenoc_engine_leave(s);
            return size;
        }
        s->rx_engine_blocked = true;
        openenoc_engine_leave(s);
    }
    f = openenoc_frame_new(buf, size);
    QSIMPLEQ_INSERT_TAIL(&s->rxq, f, next);
    s->rxq_len++;
    qemu_bh_schedule(s->bh);
    return size;
}

NetClientInfo openenoc_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = openenoc_can_receive,
    .receive = openenoc_receive,
};

static void openenoc_queue_clear(OpenenocFrameQueue *q)
{
    OpenenocFrame *f;

    while ((f = QSIMPLEQ_FIRST(q))) {
        QSIMPLEQ_REMOVE_HEAD(q, next);
        g_free(f);
    }
}

void openenoc_queues_clear(OpenenocState *s)
{
    openenoc_queue_clear(&s->txq);
    openenoc_queue_clear(&s->rxq);
    s->txq_len = 0;
    s->rxq_len = 0;
    s->tx_throttled = false;
    s->rx_engine_blocked = false;
    if (s->pace_timer) {
        timer_del(s->pace_timer);
    }
}

/*
 * Frames in flight inside the device migrate with it, as a blob:
 * for txq then rxq: be32 count, then per frame be32 length and the bytes.
 */
static void openenoc_queue_save(GByteArray *b, OpenenocFrameQueue *q)
{
    OpenenocFrame *f;
    uint8_t word[4];
    uint32_t n = 0;

    QSIMPLEQ_FOREACH(f, q, next) {
        n++;
    }
    stl_be_p(word, n);
    g_byte_array_append(b, word, 4);
    QSIMPLEQ_FOREACH(f, q, next) {
        stl_be_p(word, f->len);
        g_byte_array_append(b, word, 4);
        g_byte_array_append(b, f->data, f->len);
    }
}

size_t openenoc_queues_save(OpenenocState *s, uint8_t **buf)
{
    GByteArray *b = g_byte_array_new();
    size_t len;

    openenoc_queue_save(b, &s->txq);
    openenoc_queue_save(b, &s->rxq);
    len = b->len;
    *buf = g_byte_array_free(b, false);
    return len;
}

static bool openenoc_queue_load(OpenenocFrameQueue *q, unsigned *count,
                                const uint8_t **p, const uint8_t *end)
{
    OpenenocFrame *f;
    uint32_t n, len;

    if (end - *p < 4) {
        return false;
    }
    n = ldl_be_p(*p);
    *p += 4;
    for (uint32_t i = 0; i < n; i++) {
        if (end - *p < 4) {
            return false;
        }
        len = ldl_be_p(*p);
        *p += 4;
        if (len > end - *p || len > NET_BUFSIZE) {
            return false;
        }
        f = openenoc_frame_new(*p, len);
        QSIMPLEQ_INSERT_TAIL(q, f, next);
        (*count)++;
        *p += len;
    }
    return true;
}

bool openenoc_queues_load(OpenenocState *s, const uint8_t *buf, size_t len)
{
    const uint8_t *p = buf, *end = buf + len;

    openenoc_queues_clear(s);
    if (!openenoc_queue_load(&s->txq, &s->txq_len, &p, end) ||
        !openenoc_queue_load(&s->rxq, &s->rxq_len, &p, end) || p != end) {
        openenoc_queues_clear(s);
        return false;
    }
    return true;
}
