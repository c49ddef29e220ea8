/*
 * libenoc: raw frames through the direct stream (CSR-driven AXI-Stream beats).
 * Byte lane k of tdata is frame byte 4i+k.
 */
#include <errno.h>
#include <sched.h>
#include <string.h>

#include "enoc.h"

/* Spin on a CSR bit, yielding, until it has the wanted value or time runs out. */
static bool enoc_poll_bit(EnocDev *d, uint32_t off, uint32_t mask, bool want,
                          int timeout_ms)
{
    uint64_t end = enoc_now_us() + (uint64_t)timeout_ms * 1000;
    unsigned spins = 0;

    while (!!(enoc_rd(d, off) & mask) != want) {
        if (timeout_ms == 0) {
            return false;       /* a poll, not a wait */
        }
        if (timeout_ms >= 0 && ++spins % 64 == 0 && enoc_now_us() > end) {
            return false;
        }
        sched_yield();
    }
    return true;
}

int enoc_direct_send(EnocDev *d, const void *frame, size_t len, int timeout_ms)
{
    const uint8_t *p = frame;

    if (len == 0 || len > OETP_FRAME_MAX) {
        return enoc_fail(EINVAL, "frame length %zu is not 1..%u", len, OETP_FRAME_MAX);
    }
    for (size_t i = 0; i < len; i += 4) {
        size_t n = len - i < 4 ? len - i : 4;
        uint32_t data = 0, ctl;

        for (size_t k = 0; k < n; k++) {
            data |= (uint32_t)p[i + k] << (8 * k);
        }
        if (!enoc_poll_bit(d, OE_DIRECT_SOURCE_CONTROL,
                           OE_DIRECT_SOURCE_CONTROL_TVALID_MASK, false, timeout_ms)) {
            return enoc_fail(ETIMEDOUT, "enoc%d: direct TX stalled at byte %zu",
                             d->index, i);
        }
        ctl = OE_DIRECT_SOURCE_CONTROL_TVALID_MASK |
              ((1u << n) - 1) << OE_DIRECT_SOURCE_CONTROL_TKEEP_SHIFT;
        if (i + n == len) {
            ctl |= OE_DIRECT_SOURCE_CONTROL_TLAST_MASK;
        }
        enoc_wr(d, OE_DIRECT_SOURCE_DATA, data);
        enoc_wr(d, OE_DIRECT_SOURCE_CONTROL, ctl);
    }
    return 0;
}

int enoc_direct_recv(EnocDev *d, void *frame, size_t cap, int timeout_ms)
{
    uint8_t *p = frame;
    size_t len = 0;
    bool truncated = false;

    for (;;) {
        uint32_t st, data;
        unsigned keep;

        /* Only the first beat waits for the caller's timeout; the rest of a
         * frame follows at once. */
        if (!enoc_poll_bit(d, OE_DIRECT_SINK_STATUS, OE_DIRECT_SINK_STATUS_TVALID_MASK,
                           true, len ? 1000 : timeout_ms)) {
            if (len == 0) {
                return -EAGAIN;
            }
            return enoc_fail(EIO, "enoc%d: direct RX frame stopped after %zu bytes",
                             d->index, len);
        }
        st = enoc_rd(d, OE_DIRECT_SINK_STATUS);
        data = enoc_rd(d, OE_DIRECT_SINK_DATA);
        keep = (st >> OE_DIRECT_SINK_STATUS_TKEEP_SHIFT) & 0xf;
        for (unsigned k = 0; k < 4; k++) {
            if (!(keep & (1u << k))) {
                continue;
            }
            if (len < cap) {
                p[len] = data >> (8 * k);
            } else {
                truncated = true;
            }
            len++;
        }
        enoc_wr(d, OE_DIRECT_SINK_CONTROL, OE_DIRECT_SINK_CONTROL_TREADY_MASK);
        if (!enoc_poll_bit(d, OE_DIRECT_SINK_CONTROL, OE_DIRECT_SINK_CONTROL_TREADY_MASK,
                           false, 1000)) {
            return enoc_fail(EIO, "enoc%d: direct RX beat not consumed", d->index);
        }
        if (st & OE_DIRECT_SINK_STATUS_TLAST_MASK) {
            break;
        }
    }
    if (truncated) {
        return enoc_fail(EMSGSIZE, "frame of %zu bytes truncated to %zu", len, cap);
    }
    return (int)len;
}
