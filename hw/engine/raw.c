/*
 * Raw (non-oETP) DMA (endpoint.md "raw (non-oETP) DMA"): whole Ethernet
 * frames between local memory and the wire, one TX and one RX descriptor.
 * Each request is accepted after IRQ admission (a credit is reserved when its
 * completion event is enabled), so the completion is never lost.
 */
#include "engine_internal.h"

uint32_t oe_raw_tx_status(const OeEngine *e)
{
    return oe_dma_status_bits(&e->raw_tx.st);
}

uint32_t oe_raw_rx_status(const OeEngine *e)
{
    return oe_dma_status_bits(&e->raw_rx.st) |
           (e->raw_rx.armed ? OE_RAW_RX_COMMAND_STATUS_ARMED_MASK : 0);
}

/* A buffer [base, base + len) of 1..MAX bytes that does not wrap 2^32. */
static bool buffer_valid(const OeEngine *e, uint32_t base, uint32_t len)
{
    return len >= 1 && len <= e->max_frame &&
           (uint64_t)base + len <= 0x100000000ull;
}

static void raw_tx_end(OeEngine *e, uint8_t code)
{
    e->raw_tx.active = false;
    oe_dma_status_end(e, &e->raw_tx.st, code, e->raw_tx.irq_reserved,
                      OE_SRC_RAW_TX, 0);
}

static void raw_rx_end(OeEngine *e, uint8_t code)
{
    e->raw_rx.armed = false;
    oe_dma_status_end(e, &e->raw_rx.st, code, e->raw_rx.irq_reserved,
                      OE_SRC_RAW_RX, 0);
}

/* Accept a pending request once IRQ admission allows it. */
static bool admit(OeEngine *e, unsigned source, bool *reserved)
{
    *reserved = oe_irq_event_enabled(e, source);
    return !*reserved || oe_irq_reserve(e);
}

static void raw_tx_accept(OeEngine *e)
{
    OeRawTx *t = &e->raw_tx;

    oe_dma_status_take_clear(e, &t->st, OE_RAW_TX_COMMAND_STATUS,
                             OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    if (!(oe_reg(e, OE_RAW_TX_COMMAND_STATUS) &
          OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK) || t->active ||
        !admit(e, OE_SRC_RAW_TX, &t->irq_reserved)) {
        return;
    }
    oe_reg_clear_bits(e, OE_RAW_TX_COMMAND_STATUS,
                      OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    t->st.done = false;
    t->transferred = 0;
    t->base = oe_reg(e, OE_RAW_TX_BUFFER_ADDRESS);
    t->len = oe_reg(e, OE_RAW_TX_FRAME_LENGTH);
    if (!buffer_valid(e, t->base, t->len)) {
        raw_tx_end(e, OE_ERR_LOCAL_INVALID);
        return;
    }
    t->active = true;
    t->st.idle = false;
}

static void raw_rx_accept(OeEngine *e)
{
    OeRawRx *r = &e->raw_rx;

    oe_dma_status_take_clear(e, &r->st, OE_RAW_RX_COMMAND_STATUS,
                             OE_RAW_RX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    if (!(oe_reg(e, OE_RAW_RX_COMMAND_STATUS) &
          OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK) || !r->st.idle ||
        !admit(e, OE_SRC_RAW_RX, &r->irq_reserved)) {
        return;
    }
    oe_reg_clear_bits(e, OE_RAW_RX_COMMAND_STATUS,
                      OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    r->st.done = false;
    r->received = 0;
    r->base = oe_reg(e, OE_RAW_RX_BUFFER_ADDRESS);
    r->capacity = oe_reg(e, OE_RAW_RX_BUFFER_CAPACITY);
    if (!buffer_valid(e, r->base, r->capacity)) {
        raw_rx_end(e, OE_ERR_LOCAL_INVALID);
        return;
    }
    r->armed = true;
    r->st.idle = false;
}

void oe_raw_accept(OeEngine *e)
{
    const uint32_t cmds = OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK |
                          OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK;

    /* Most host calls find no command bit set (the rx word has the same
     * layout, checked in status.c). */
    if ((oe_reg(e, OE_RAW_TX_COMMAND_STATUS) |
         oe_reg(e, OE_RAW_RX_COMMAND_STATUS)) & cmds) {
        raw_tx_accept(e);
        raw_rx_accept(e);
    }
}

bool oe_raw_tx_step(OeEngine *e)
{
    OeRawTx *t = &e->raw_tx;
    OeMemStatus st;

    if (!t->active || !oe_tx_ready(e)) {
        return false;
    }
    t->transferred = oe_mem_read_stream(e, t->base, e->txbuf, t->len, &st);
    if (t->transferred) {
        /* The frame streams out as it is read: a source failure ends it
         * early (the bytes read so far), one that hits the first burst
         * sends nothing. */
        oe_tx(e, e->txbuf, t->transferred);
    }
    raw_tx_end(e, st == OE_MEM_OK ? OE_ERR_NONE : oe_mem_read_code(st));
    return t->transferred != 0;
}

bool oe_raw_has_work(const OeEngine *e)
{
    return e->raw_tx.active || e->dtx.ready_to_send;
}

/* An admitted non-oETP frame: the armed RX descriptor claims it once,
 * otherwise it goes to the direct stream sink. */
bool oe_raw_receive(OeEngine *e, const uint8_t *f, size_t len)
{
    OeRawRx *r = &e->raw_rx;

    if (!r->armed) {
        /* Rejected at the ceiling: the sink never holds it. */
        return len <= e->max_frame && oe_direct_sink_push(e, f, len);
    }
    /* The capacity is at most the ceiling, so a frame above the ceiling
     * also ends with error 3 (rejected), after the capacity's bytes. */
    uint32_t n = len < r->capacity ? (uint32_t)len : r->capacity;
    OeMemStatus st;
    r->received = oe_mem_write(e, r->base, f, n, &st);
    if (st != OE_MEM_OK) {
        raw_rx_end(e, oe_mem_write_code(st));
    } else if (len > r->capacity) {
        raw_rx_end(e, OE_ERR_LOCAL_OVERFLOW);
    } else {
        raw_rx_end(e, OE_ERR_NONE);
    }
    return true;
}
