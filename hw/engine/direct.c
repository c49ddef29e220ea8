/*
 * Direct CSR stream (endpoint.md "direct stream"): software moves raw frames
 * one 32-bit beat at a time. Byte lane k of tdata is frame byte 4i + k.
 *
 * TX: a beat is taken when software sets tvalid; the first beat of a frame
 * waits for IRQ admission, and for the previous frame to have entered the
 * transmit path (the direct-TX-complete event).
 * RX: admitted raw frames queue in a 16 KiB sink that never drops (a full
 * sink backpressures reception); the head frame becomes visible only after
 * IRQ admission, which raises the RX-available event if enabled.
 */
#include <string.h>

#include "engine_internal.h"

/* ---- TX (source) ---- */

static bool source_can_take(const OeEngine *e)
{
    if (e->dtx.ready_to_send) {
        return false;
    }
    return e->dtx.in_frame || !oe_irq_event_enabled(e, OE_SRC_DIRECT_TX) ||
           oe_irq_credit_free(e);
}

/* Take the beat software offered (tvalid in the store), if the source can. */
void oe_direct_accept(OeEngine *e)
{
    OeDirectTx *t = &e->dtx;
    uint32_t ctrl = oe_reg(e, OE_DIRECT_SOURCE_CONTROL);
    uint32_t data = oe_reg(e, OE_DIRECT_SOURCE_DATA);
    unsigned keep = oe_field(ctrl, OE_DIRECT_SOURCE_CONTROL_TKEEP_MASK,
                             OE_DIRECT_SOURCE_CONTROL_TKEEP_SHIFT);

    if (!(ctrl & OE_DIRECT_SOURCE_CONTROL_TVALID_MASK) || !source_can_take(e)) {
        return;
    }
    if (!t->in_frame) {
        t->irq_reserved = oe_irq_event_enabled(e, OE_SRC_DIRECT_TX) &&
                          oe_irq_reserve(e);
        t->in_frame = true;
        t->len = 0;
        t->oversize = false;
    }
    for (unsigned k = 0; k < 4; k++) {
        if (!(keep & (1u << k))) {
            continue;
        }
        if (t->len < e->max_frame) {
            t->frame[t->len++] = (uint8_t)(data >> (8 * k));
        } else {
            t->oversize = true;   /* beyond the frame ceiling: dropped */
        }
    }
    oe_reg_clear_bits(e, OE_DIRECT_SOURCE_CONTROL,
                      OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
    if (ctrl & OE_DIRECT_SOURCE_CONTROL_TLAST_MASK) {
        t->in_frame = false;
        t->ready_to_send = true;
    }
}

bool oe_direct_tx_step(OeEngine *e)
{
    OeDirectTx *t = &e->dtx;
    bool sent = false;

    if (!t->ready_to_send || !oe_tx_ready(e)) {
        return false;
    }
    if (t->len > 0 && !t->oversize) {
        oe_tx(e, t->frame, t->len);
        sent = true;
    }
    t->ready_to_send = false;
    if (t->irq_reserved) {
        oe_irq_commit(e, OE_SRC_DIRECT_TX, 0, true);
        t->irq_reserved = false;
    }
    /* A beat software already offered can now start the next frame. */
    oe_direct_accept(e);
    return sent;
}

/* ---- RX (sink) ---- */

static uint32_t head_len(const OeDirectRx *r)
{
    return r->nframes ? (uint32_t)(r->buf[0] | r->buf[1] << 8) : 0;
}

/*
 * The sink is a store of 4-byte words: a frame takes ceil(len/4) of them
 * and each beat software takes frees one (the store's fill level, which the
 * RTL's FIFO counts the same way).
 */
static uint32_t sink_words(const OeDirectRx *r)
{
    uint32_t words = 0, off = 0;

    for (uint32_t n = 0; n < r->nframes; n++) {
        uint32_t len = (uint32_t)(r->buf[off] | r->buf[off + 1] << 8);
        words += (len + 3) / 4;
        off += 2 + len;
    }
    return words - r->pos / 4;
}

bool oe_direct_sink_has_room(const OeEngine *e)
{
    const OeDirectRx *r = &e->drx;
    uint32_t words = sink_words(r);
    return words <= OE_SINK_CAPACITY / 4 &&
           OE_SINK_CAPACITY / 4 - words >= (e->max_frame + 3) / 4 &&
           r->nframes < OE_SINK_MAX_FRAMES;
}

bool oe_direct_sink_push(OeEngine *e, const uint8_t *f, size_t len)
{
    OeDirectRx *r = &e->drx;

    if (len == 0 || r->payload + len > OE_SINK_HELD ||
        r->nframes >= OE_SINK_MAX_FRAMES) {
        return false;   /* the host ignored can_receive() */
    }
    r->buf[r->used] = (uint8_t)len;
    r->buf[r->used + 1] = (uint8_t)(len >> 8);
    memcpy(r->buf + r->used + 2, f, len);
    r->used += 2 + (uint32_t)len;
    r->payload += (uint32_t)len;
    r->nframes++;
    return true;
}

static void sink_pop(OeDirectRx *r)
{
    uint32_t len = head_len(r);

    memmove(r->buf, r->buf + 2 + len, r->used - 2 - len);
    r->used -= 2 + len;
    r->payload -= len;
    r->nframes--;
    r->pos = 0;
    r->head_visible = false;
}

/* Consume the visible beat if software has raised tready. */
static void sink_consume(OeEngine *e)
{
    OeDirectRx *r = &e->drx;

    if (!r->head_visible ||
        !(oe_reg(e, OE_DIRECT_SINK_CONTROL) & OE_DIRECT_SINK_CONTROL_TREADY_MASK)) {
        return;
    }
    oe_reg_clear_bits(e, OE_DIRECT_SINK_CONTROL,
                      OE_DIRECT_SINK_CONTROL_TREADY_MASK);
    r->pos += 4;
    if (r->pos >= head_len(r)) {
        sink_pop(r);
    }
}

/* Show the head frame once IRQ admission allows it. */
static void sink_admit(OeEngine *e)
{
    OeDirectRx *r = &e->drx;

    if (r->nframes == 0 || r->head_visible) {
        return;
    }
    if (oe_irq_event_enabled(e, OE_SRC_DIRECT_RX)) {
        if (!oe_irq_reserve(e)) {
            return;   /* shown once a credit frees */
        }
        oe_irq_commit(e, OE_SRC_DIRECT_RX, 0, true);
    }
    r->head_visible = true;
    r->pos = 0;
}

void oe_direct_sink_accept(OeEngine *e)
{
    if (e->drx.nframes == 0) {
        return;   /* nothing to show or take (the common case) */
    }
    /* The visible beat goes when tready is set; the next frame is then
     * admitted, and a tready raised before its beat appeared takes it
     * (AXI-Stream). */
    sink_consume(e);
    sink_admit(e);
    sink_consume(e);
}

uint32_t oe_direct_read(const OeEngine *e, uint32_t off)
{
    const OeDirectRx *r = &e->drx;
    uint32_t len = head_len(r);
    uint32_t left = r->head_visible ? len - r->pos : 0;

    switch (off) {
    case OE_DIRECT_SOURCE_STATUS:
        return source_can_take(e) ? OE_DIRECT_SOURCE_STATUS_TREADY_MASK : 0;
    case OE_DIRECT_SINK_DATA: {
        uint32_t v = 0;
        for (uint32_t k = 0; k < 4 && k < left; k++) {
            v |= (uint32_t)r->buf[2 + r->pos + k] << (8 * k);
        }
        return v;
    }
    case OE_DIRECT_SINK_STATUS:
        if (!left) {
            return 0;
        }
        return OE_DIRECT_SINK_STATUS_TVALID_MASK |
               (left <= 4 ? OE_DIRECT_SINK_STATUS_TLAST_MASK : 0) |
               (uint32_t)(left >= 4 ? 0xF : (1u << left) - 1)
                   << OE_DIRECT_SINK_STATUS_TKEEP_SHIFT;
    default:
        return 0;
    }
}
