/*
 * libenoc: peer bulk DMA, raw (non-oETP) DMA and the RMEM window.
 */
#include <errno.h>
#include <string.h>

#include "enoc.h"

/* How often a wait rechecks the status word when no event comes: events are
 * only raised when the caller enabled them, so the word is the truth. */
#define ENOC_RECHECK_MS 2

/*
 * Wait until the command/status word at off shows the command accepted and
 * finished (request clear, idle set). Returns the error code (0 = done) or
 * -ETIMEDOUT.
 */
static int enoc_wait_idle(EnocDev *d, uint32_t off, unsigned source,
                          int peer, int timeout_ms, const char *what)
{
    uint64_t start = enoc_now_us();
    struct enoc_event ev;

    for (;;) {
        EnocStatus s = enoc_status_decode(enoc_rd(d, off));
        uint64_t waited_ms;
        int r;

        if (!s.request && s.idle) {
            return s.error ? (int)(s.code ? s.code : OE_ERR_LOCAL_INVALID) : 0;
        }
        waited_ms = (enoc_now_us() - start) / 1000;
        if (timeout_ms >= 0 && waited_ms >= (uint64_t)timeout_ms) {
            return enoc_fail(ETIMEDOUT, "enoc%d: %s not finished after %d ms "
                             "(status %#x)", d->index, what, timeout_ms,
                             enoc_rd(d, off));
        }
        r = enoc_event_wait(d, source, peer, &ev, ENOC_RECHECK_MS);
        if (r < 0) {
            return r;
        }
    }
}

int enoc_dma_start(EnocDev *d, unsigned n)
{
    uint32_t keep;

    if (n >= enoc_num_peers(d)) {
        return enoc_fail(EINVAL, "peer %u does not exist", n);
    }
    keep = enoc_rd(d, OE_PEER_DMA(n)) &
           (OE_PEER_DMA_MODE_MASK | OE_PEER_DMA_IRQ_ENABLE_MASK);
    enoc_wr(d, OE_PEER_DMA(n), keep | OE_PEER_DMA_REQUEST_MASK);
    return 0;
}

int enoc_dma_wait(EnocDev *d, unsigned n, int timeout_ms)
{
    return enoc_wait_idle(d, OE_PEER_DMA(n), ENOC_SRC_PEER_DMA, n,
                          timeout_ms, "peer DMA");
}

int enoc_dma_run(EnocDev *d, unsigned n, int timeout_ms)
{
    int err = enoc_dma_start(d, n);

    return err ? err : enoc_dma_wait(d, n, timeout_ms);
}

static int enoc_rmem_check(EnocDev *d, uint32_t off)
{
    if (off % 4 || off >= OE_RMEM_SIZE) {
        return enoc_fail(EINVAL, "RMEM offset %#x is not a word offset below %#x",
                         off, OE_RMEM_SIZE);
    }
    return 0;
}

int enoc_rmem_read(EnocDev *d, uint32_t off, uint32_t *val)
{
    int err = enoc_rmem_check(d, off);

    if (!err) {
        *val = enoc_rd(d, OE_RMEM + off);
    }
    return err;
}

int enoc_rmem_write(EnocDev *d, uint32_t off, uint32_t val)
{
    int err = enoc_rmem_check(d, off);

    if (!err) {
        enoc_wr(d, OE_RMEM + off, val);
    }
    return err;
}

static int enoc_buf_range(EnocDev *d, uint32_t off, uint32_t len)
{
    if (!d->buf) {
        return enoc_fail(ENOMEM, "enoc%d: no DMA buffer mapped", d->index);
    }
    if (off > d->buf_size || len > d->buf_size - off) {
        return enoc_fail(EINVAL, "range %#x+%u is outside the %u-byte buffer",
                         off, len, d->buf_size);
    }
    return 0;
}

void enoc_raw_clear_errors(EnocDev *d)
{
    enoc_wr(d, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    enoc_wr(d, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
}

int enoc_raw_tx(EnocDev *d, uint32_t buf_off, uint32_t len, int timeout_ms)
{
    int err = enoc_buf_range(d, buf_off, len);

    if (err) {
        return err;
    }
    enoc_wr(d, OE_RAW_TX_BUFFER_ADDRESS, d->buf_bus + buf_off);
    enoc_wr(d, OE_RAW_TX_FRAME_LENGTH, len);
    enoc_wr(d, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    return enoc_wait_idle(d, OE_RAW_TX_COMMAND_STATUS, ENOC_SRC_RAW_TX,
                          -1, timeout_ms, "raw DMA TX");
}

int enoc_raw_rx_arm(EnocDev *d, uint32_t buf_off, uint32_t cap)
{
    int err = enoc_buf_range(d, buf_off, cap);

    if (err) {
        return err;
    }
    enoc_wr(d, OE_RAW_RX_BUFFER_ADDRESS, d->buf_bus + buf_off);
    enoc_wr(d, OE_RAW_RX_BUFFER_CAPACITY, cap);
    enoc_wr(d, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    return 0;
}

int enoc_raw_rx_wait(EnocDev *d, uint32_t *len, int timeout_ms)
{
    int r = enoc_wait_idle(d, OE_RAW_RX_COMMAND_STATUS, ENOC_SRC_RAW_RX,
                           -1, timeout_ms, "raw DMA RX");

    if (r >= 0) {
        *len = enoc_rd(d, OE_RAW_RX_RECEIVED_LENGTH);
    }
    return r;
}
