/*
 * openenoc: the net side, frames between the engine and QEMU's net backend:
 * the transmit and receive queues, reception flow control, link pacing and
 * the queues' migration. Nothing here calls into the engine or back into
 * openenoc-host.c (the engine call boundary, which uses this file): work for
 * the engine is handed over by scheduling its bottom half.
 *
 * The engine hands over transmitted frames inside its own calls. A frame for
 * a link that leaves the process (socket, dgram, tap...) goes straight to the
 * net layer when nothing waits before it. Otherwise (a hub, pacing, a busy
 * backend) it waits in txq and leaves as soon as that call has returned, or
 * from the bottom half when the link or the backend is busy. A received frame
 * goes straight into the engine (openenoc-host.c hands it over) when that is
 * safe: the engine is not mid-call and we are not already inside a send of
 * another device that answered synchronously (openenoc_net_rx_direct).
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

/*
 * Sends in progress in this process (all openenoc devices): a receive that
 * happens inside a send inside a send is queued instead of delivered.
 */
static unsigned openenoc_send_depth;

#define OPENENOC_WIRE_OVERHEAD  24     /* FCS 4 + preamble/SFD 8 + IFG 12 */
/*
 * A link behind its schedule sends at once until it has caught up. How far
 * behind it may be depends on why:
 * - Backlogged (a frame waited for the link and the engine held the next
 *   one): the line time was lost to the host, a pacing timer or bottom half
 *   that ran late because QEMU's main loop was not scheduled. Up to
 *   OPENENOC_PACE_CATCH_UP of it is made up, so a block keeps its line rate
 *   on a loaded host (64 KiB, what a late timer may make up, held a 2-core
 *   host with a load of 8 to 0.67 of the rate in some runs). That burst is
 *   for receivers whose socket buffers hold it (make demo sizes them for the
 *   whole block); a smaller one only gets dropped and repaired.
 * - Idle (the engine had nothing to send): a real link earns no credit, so
 *   only OPENENOC_PACE_BURST, which a default 208 KiB receive buffer (about
 *   12 full-size datagrams, the kernel counts buffer overhead) holds.
 */
#define OPENENOC_PACE_BURST     (64 * 1024)
#define OPENENOC_PACE_CATCH_UP  (1024 * 1024)

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

static bool openenoc_tx_ready_now(OpenenocState *s)
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

/*
 * The engine's transmit operations (OeHostOps.tx_frame and tx_ready),
 * called from inside an engine call.
 */
void openenoc_net_tx_frame(void *opaque, const uint8_t *frame, size_t len)
{
    OpenenocState *s = opaque;
    OpenenocFrame *f;

    if (openenoc_tx_direct_ok(s)) {
        openenoc_tx_send(s, frame, len);
        return;
    }
    f = openenoc_frame_new(frame, len);
    QSIMPLEQ_INSERT_TAIL(&s->txq, f, next);
    s->txq_len++;           /* sent by openenoc_engine_leave() */
}

bool openenoc_net_tx_ready(void *opaque)
{
    OpenenocState *s = opaque;

    if (openenoc_tx_ready_now(s)) {
        return true;
    }
    s->tx_throttled = true;     /* the engine waits for a kick */
    return false;
}

/* True once if the engine was throttled and may transmit again. */
bool openenoc_net_tx_resumed(OpenenocState *s)
{
    if (s->tx_throttled && openenoc_tx_ready_now(s)) {
        s->tx_throttled = false;
        return true;
    }
    return false;
}

void openenoc_net_tx_flush(OpenenocState *s)
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
                s->pace_backlog = true;
                return;
            }
            if (now - start > openenoc_wire_ns(s, s->pace_backlog ?
                                               OPENENOC_PACE_CATCH_UP :
                                               OPENENOC_PACE_BURST)) {
                start = now;        /* no more credit than that */
            }
            s->link_free_ns = start + openenoc_wire_ns(s, f->len);
        }
        QSIMPLEQ_REMOVE_HEAD(&s->txq, next);
        s->txq_len--;
        openenoc_tx_send(s, f->data, f->len);
        g_free(f);
        /* the engine holds another frame: the link stays backlogged */
        s->pace_backlog = s->tx_throttled || !QSIMPLEQ_EMPTY(&s->txq);
    }
    if (s->tx_throttled && openenoc_tx_ready_now(s)) {
        qemu_bh_schedule(s->bh);    /* the engine waits for a kick */
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

bool openenoc_net_can_receive(NetClientState *nc)
{
    OpenenocState *s = qemu_get_nic_opaque(nc);

    if (s->in_engine || s->rx_engine_blocked || !runstate_is_running() ||
        s->rxq_len >= OPENENOC_RXQ_MAX) {
        s->rx_refused = true;
        return false;
    }
    return true;
}

/*
 * An accepted frame: may it go straight into the engine? Not from inside
 * a send inside a send, and not past frames that already wait.
 */
bool openenoc_net_rx_direct(OpenenocState *s, const uint8_t *buf,
                            size_t len)
{
    if (trace_event_get_state_backends(TRACE_OPENENOC_FRAME)) {
        openenoc_trace_frame(false, buf, len);
    }
    return openenoc_send_depth <= 1 && QSIMPLEQ_EMPTY(&s->rxq);
}

/* Keep the frame for the bottom half. */
void openenoc_net_rx_queue(OpenenocState *s, const uint8_t *buf, size_t len)
{
    OpenenocFrame *f = openenoc_frame_new(buf, len);

    QSIMPLEQ_INSERT_TAIL(&s->rxq, f, next);
    s->rxq_len++;
    qemu_bh_schedule(s->bh);
}

/* The head of rxq, for the engine, and back if the engine was full. */
OpenenocFrame *openenoc_net_rx_take(OpenenocState *s)
{
    OpenenocFrame *f = QSIMPLEQ_FIRST(&s->rxq);

    QSIMPLEQ_REMOVE_HEAD(&s->rxq, next);
    s->rxq_len--;
    return f;
}

void openenoc_net_rx_untake(OpenenocState *s, OpenenocFrame *f)
{
    QSIMPLEQ_INSERT_HEAD(&s->rxq, f, next);
    s->rxq_len++;
}

/* rxq has drained: take the frames the net layer held for us. */
void openenoc_net_rx_resume(OpenenocState *s)
{
    if (s->rx_refused && !s->rx_engine_blocked &&
        s->rxq_len < OPENENOC_RXQ_MAX) {
        s->rx_refused = false;
        qemu_flush_queued_packets(qemu_get_queue(s->nic));
    }
}

/* After a CSR access or a reset the engine may accept frames again. */
void openenoc_net_rx_unblock(OpenenocState *s)
{
    s->rx_engine_blocked = false;
    if (!QSIMPLEQ_EMPTY(&s->rxq) || s->rx_refused) {
        qemu_bh_schedule(s->bh);
    }
}

static void openenoc_queue_clear(OpenenocFrameQueue *q)
{
    OpenenocFrame *f;

    while ((f = QSIMPLEQ_FIRST(q))) {
        QSIMPLEQ_REMOVE_HEAD(q, next);
        g_free(f);
    }
}

void openenoc_net_clear(OpenenocState *s)
{
    openenoc_queue_clear(&s->txq);
    openenoc_queue_clear(&s->rxq);
    s->txq_len = 0;
    s->rxq_len = 0;
    s->tx_throttled = false;
    s->pace_backlog = false;
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

size_t openenoc_net_save(OpenenocState *s, uint8_t **buf)
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

bool openenoc_net_load(OpenenocState *s, const uint8_t *buf, size_t len)
{
    const uint8_t *p = buf, *end = buf + len;

    openenoc_net_clear(s);
    if (!openenoc_queue_load(&s->txq, &s->txq_len, &p, end) ||
        !openenoc_queue_load(&s->rxq, &s->rxq_len, &p, end) || p != end) {
        openenoc_net_clear(s);
        return false;
    }
    return true;
}
