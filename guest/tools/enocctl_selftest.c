/*
 * enocctl selftest: checks one endpoint on its own, with no peer on the
 * wire: identity, CSR access widths, the DMA buffer, and the interrupt path
 * (events for raw DMA, peer DMA and direct TX completions, errors with the
 * right codes). Restores the configuration it touched.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "enocctl.h"

static const char selftest_usage[] =
    "usage: enocctl [-d N] selftest\n"
    "Check this endpoint on its own (no peer needed): identification, CSR byte\n"
    "and word access, DMA buffer, and interrupt events with their error codes.\n"
    "Prints PASS/FAIL per check and 'selftest: N passed, M failed'; exits 1\n"
    "if any check failed. Uses peer entry 3 and the first 8 KiB of the buffer\n"
    "(allocating 64 KiB if there is none).\n";

static unsigned passed, failed;

static void check(bool ok, const char *name, const char *fmt, ...)
{
    va_list ap;

    printf("%s %s", ok ? "PASS" : "FAIL", name);
    if (!ok && fmt) {
        printf(": ");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
    }
    putchar('\n');
    ok ? passed++ : failed++;
}

static void test_identity(EnocDev *d)
{
    uint32_t hi = enoc_rd(d, OE_INFO_HI);

    check(enoc_rd(d, ENOC_MODEL_MAGIC_OFF) == ENOC_MODEL_MAGIC, "model-magic",
          "0x1f00 reads %#x", enoc_rd(d, ENOC_MODEL_MAGIC_OFF));
    check(enoc_rd(d, OE_INFO) == OE_INFO_RMEM_TOTAL_DEPTH_RESET &&
          hi == (uint32_t)(OE_INFO_RESET >> 32), "info-word",
          "info reads %#x/%#x", enoc_rd(d, OE_INFO), hi);
}

static void test_csr_access(EnocDev *d)
{
    volatile uint8_t *b = (volatile uint8_t *)d->csr;
    volatile uint16_t *h = (volatile uint16_t *)d->csr;
    uint32_t save = enoc_rd(d, OE_TEST_REG), saveb = enoc_rd(d, OE_REGB);

    enoc_wr(d, OE_TEST_REG, 0xA5C3E10Fu);
    check(enoc_rd(d, OE_TEST_REG) == 0xA5C3E10Fu, "csr-word", "test_reg reads %#x",
          enoc_rd(d, OE_TEST_REG));
    enoc_wr(d, OE_REGB, 0x11223344u);
    b[OE_REGB + 2] = 0xEE;
    check(enoc_rd(d, OE_REGB) == 0x11EE3344u, "csr-byte-store",
          "regB reads %#x after a byte store", enoc_rd(d, OE_REGB));
    h[OE_REGB / 2] = 0xBEEF;
    check(enoc_rd(d, OE_REGB) == 0x11EEBEEFu && b[OE_REGB + 3] == 0x11, "csr-halfword",
          "regB reads %#x", enoc_rd(d, OE_REGB));
    enoc_wr(d, OE_TEST_REG, save);
    enoc_wr(d, OE_REGB, saveb);
}

static bool wait_event(EnocDev *d, unsigned src, int peer, const char *name)
{
    struct enoc_event ev;
    int r = enoc_event_wait(d, src, peer, &ev, 2000);

    check(r == 1, name, r < 0 ? "%s" : "no %s event within 2 s",
          r < 0 ? enoc_last_error() : enoc_source_name(src));
    return r == 1;
}

static void test_raw_dma(EnocDev *d)
{
    int rc;

    enoc_raw_clear_errors(d);
    /* Length 0 is an invalid descriptor: error 1 at once, event still raised. */
    rc = enoc_raw_tx(d, 0, 0, 2000);
    check(rc == OE_ERR_LOCAL_INVALID, "raw-tx-invalid-length", "code %d (%s)", rc,
          rc >= 0 ? oe_error_name(rc) : enoc_last_error());
    wait_event(d, ENOC_SRC_RAW_TX, -1, "raw-tx-invalid-event");
    enoc_raw_clear_errors(d);

    /* A valid broadcast frame leaves whether or not anyone listens. */
    memset(d->buf, 0xff, 6);
    memset(d->buf + 6, 0, 6);
    d->buf[12] = 0x88;
    d->buf[13] = 0xB6;
    memset(d->buf + 14, 0x5A, 46);
    rc = enoc_raw_tx(d, 0, 60, 2000);
    check(rc == 0 && enoc_rd(d, OE_RAW_TX_TRANSFERRED_LENGTH) == 60, "raw-tx-frame",
          "code %d, transferred %u", rc, enoc_rd(d, OE_RAW_TX_TRANSFERRED_LENGTH));
    wait_event(d, ENOC_SRC_RAW_TX, -1, "raw-tx-event");
}

static void test_peer_dma(EnocDev *d)
{
    const unsigned n = enoc_num_peers(d) - 1;
    EnocPeer save, p = { .mac = 0x020E0C0000FEull, .mode = OE_MODE_DISABLED,
                         .local = d->buf_bus, .size = 64, .irq_enable = true };
    int rc;

    enoc_peer_get(d, n, &save);
    /* Mode 0 is not a bulk mode: the block is rejected with error 1. */
    enoc_peer_set(d, n, &p);
    enoc_peer_clear_error(d, n);
    rc = enoc_dma_run(d, n, 2000);
    check(rc == OE_ERR_LOCAL_INVALID, "peer-dma-invalid-mode", "code %d (%s)", rc,
          rc >= 0 ? oe_error_name(rc) : enoc_last_error());
    wait_event(d, ENOC_SRC_PEER_DMA, (int)n, "peer-dma-event");
    /* A group MAC in pull mode: group reads are rejected locally. */
    p.mac = 0x030E0C0000FEull;
    p.mode = OE_MODE_MIRROR_REMOTE_TO_LOCAL;
    enoc_peer_set(d, n, &p);
    enoc_peer_clear_error(d, n);
    rc = enoc_dma_run(d, n, 2000);
    check(rc == OE_ERR_LOCAL_INVALID, "peer-dma-group-read", "code %d (%s)", rc,
          rc >= 0 ? oe_error_name(rc) : enoc_last_error());
    wait_event(d, ENOC_SRC_PEER_DMA, (int)n, "peer-dma-group-read-event");
    enoc_peer_clear_error(d, n);
    enoc_peer_set(d, n, &save);
}

static void test_rmem_miss(EnocDev *d)
{
    uint32_t v = 0;
    bool any_rmem = false;

    for (unsigned n = 0; n < enoc_num_peers(d); n++) {
        EnocPeer p;
        enoc_peer_get(d, n, &p);
        any_rmem |= p.mode == OE_MODE_RMEM;
    }
    if (any_rmem) {
        printf("SKIP rmem-miss: a peer is in RMEM mode\n");
        return;
    }
    enoc_rmem_read(d, 0x10, &v);
    check(v == 0xFFFFFFFFu, "rmem-miss-all-ones", "read %#x", v);
}

static void test_direct_tx(EnocDev *d)
{
    uint8_t f[60] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, [12] = 0x88, [13] = 0xB6 };
    int rc = enoc_direct_send(d, f, sizeof(f) - 1, 2000);

    check(rc == 0, "direct-tx", "%s", enoc_last_error());
    if (rc == 0) {
        wait_event(d, ENOC_SRC_DIRECT_TX, -1, "direct-tx-event");
    }
}

int cmd_selftest(EnocDev *d, int argc, char **argv)
{
    uint32_t enable;

    if (!d) {
        fputs(selftest_usage, stdout);
        return 0;
    }
    if (argc > 1) {
        cli_usage_error("selftest takes no arguments");
    }
    test_identity(d);
    test_csr_access(d);
    if (enoc_buf_map(d, 0) < 0) {
        cli_check(enoc_buf_map(d, 64 * 1024));
    }
    check(d->buf_bus != 0 && d->buf_size >= 8192, "buffer", "%u bytes at %#x",
          d->buf_size, d->buf_bus);
    check(d->info.irq_mode != ENOC_IRQ_NONE, "irq-vector", "no interrupt");

    enable = enoc_rd(d, OE_IRQ_EVENT_ENABLE);
    enoc_event_enable(d, OE_IRQ_EVENT_ENABLE_PEER_DMA_COMPLETE_MASK |
                      OE_IRQ_EVENT_ENABLE_NON_OETP_DMA_TX_COMPLETE_MASK |
                      OE_IRQ_EVENT_ENABLE_NON_OETP_DIRECT_TX_COMPLETE_MASK);
    test_raw_dma(d);
    test_peer_dma(d);
    test_direct_tx(d);
    test_rmem_miss(d);
    enoc_event_enable(d, enable);
    check(!(enoc_rd(d, OE_IRQ_STATUS) & (OE_IRQ_STATUS_OVERFLOW_MASK |
                                         OE_IRQ_STATUS_INVALID_COMPLETE_MASK)),
          "irq-status-clean", "irq.status %#x", enoc_rd(d, OE_IRQ_STATUS));
    printf("selftest: %u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
