/*
 * Raw (non-oETP) DMA (endpoint.md "raw (non-oETP) DMA"): whole Ethernet
 * frames between local memory and the wire, one TX and one RX descriptor.
 * Each request is accepted after IRQ admission (a credit is reserved when its
 * completion event is enabled), so the completion is never lost.
 */
#include "engine_internal.h"

static uint32_t raw_status_bits(bool idle, bool done, bool error, uint8_t code)
{
    return (idle ? OE_RAW_TX_COMMAND_STATUS_IDLE_MASK : 0) |
           (done ? OE_RAW_TX_COMMAND_STATUS_DONE_MASK : 0) |
           (error ? OE_RAW_TX_COMMAND_STATUS_ERROR_MASK : 0) |
           (uint32_t)code << OE_RAW_TX_COMMAND_STATUS_ERROR_CODE_SHIFT;
}

uint32_t oe_raw_tx_status(const OeEngine *e)
{
    const OeRawTx *t = &e->raw_tx;
    return raw_status_bits(t->idle, t->done, t->error, t->error_code);
}

uint32_t oe_raw_rx_status(const OeEngine *e)
{
    const OeRawRx *r = &e->raw_rx;
    return raw_status_bits(r->idle, r->done, r->error, r->error_code) |
           (r->armed ? OE_RAW_RX_COMMAND_STATUS_ARMED_MASK : 0);
}

void oe_raw_tx_written(OeEngine *e)
{
    if (oe_reg(e, OE_RAW_TX_COMMAND_STATUS) &
        OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK) {
        e->raw_tx.error = false;
        e->raw_tx.error_code = 0;
        oe_reg_clear_bits(e, OE_RAW_TX_COMMAND_STATUS,
                          OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    }
}

void oe_raw_rx_written(OeEngine *e)
{
    if (oe_reg(e, OE_RAW_RX_COMMAND_STATUS) &
        OE_RAW_RX_COMMAND_STATUS_CLEAR_ERRORS_MASK) {
        e->raw_rx.error = false;
        e->raw_rx.error_code = 0;
        oe_reg_clear_bits(e, OE_RAW_RX_COMMAND_STATUS,
                          OE_RAW_RX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    }
}

/* A buffer [base, base + len) of 1..MAX bytes that does not wrap 2^32. */
static bool buffer_valid(const OeEngine *e, uint32_t base, uint32_t len)
{
    return len >= 1 && len <= e->max_frame &&
           (uint64_t)base + len <= 0x100000000ull;
}

static void raw_tx_end(OeEngine *e, uint8_t code)
{
    OeRawTx *t = &e->raw_tx;

    t->active = false;
    t->idle = true;
    t->done = code == OE_ERR_NONE;
    if (code != OE_ERR_NONE) {
        t->error = true;
        t->error_code = code;
    }
    if (t->irq_reserved) {
        oe_irq_commit(e, OE_SRC_RAW_TX, 0, true);
    }
}

static void raw_rx_end(OeEngine *e, uint8_t code)
{
    OeRawRx *r = &e->raw_rx;

    r->armed = false;
    r->idle = true;
    r->done = code == OE_ERR_NONE;
    if (code != OE_ERR_NONE) {
        r->error = true;
        r->error_code = code;
    }
    if (r->irq_reserved) {
        oe_irq_commit(e, OE_SRC_RAW_RX, 0, true);
    }
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

    if (!(oe_reg(e, OE_RAW_TX_COMMAND_STATUS) &
          OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK) || t->active ||
        !admit(e, OE_SRC_RAW_TX, &t->irq_reserved)) {
        return;
    }
    oe_reg_clear_bits(e, OE_RAW_TX_COMMAND_STATUS,
                      OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    t->done = false;
    t->transferred = 0;
    t->base = oe_reg(e, OE_RAW_TX_BUFFER_ADDRESS);
    t->len = oe_reg(e, OE_RAW_TX_FRAME_LENGTH);
    if (!buffer_valid(e, t->base, t->len)) {
        raw_tx_end(e, OE_ERR_LOCAL_INVALID);
        return;
    }
    t->active = true;
    t->idle = false;
}

static void raw_rx_accept(OeEngine *e)
{
    OeRawRx *r = &e->raw_rx;

    if (!(oe_reg(e, OE_RAW_RX_COMMAND_STATUS) &
          OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK) || !r->idle ||
        !admit(e, OE_SRC_RAW_RX, &r->irq_reserved)) {
        return;
    }
    oe_reg_clear_bits(e, OE_RAW_RX_COMMAND_STATUS,
                      OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    r->done = false;
    r->received = 0;
    r->base = oe_reg(e, OE_RAW_RX_BUFFER_ADDRESS);
    r->capacity = oe_reg(e, OE_RAW_RX_BUFFER_CAPACITY);
    if (!buffer_valid(e, r->base, r->capacity)) {
        raw_rx_end(e, OE_ERR_LOCAL_INVALID);
        return;
    }
    r->armed = true;
    r->idle = false;
}

void oe_raw_accept(OeEngine *e)
{
    raw_tx_accept(e);
    raw_rx_accept(e);
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
