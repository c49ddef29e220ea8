/*
 * openenoc qtest: capture. Two devices on a hub with -object filter-dump on
 * device 0's port; the pcap is checked frame by frame against the exchange
 * the test caused (a 3-fragment push and an RMEM read and write).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "openenoc-qtest.h"

static const uint8_t *frame_at(GPtrArray *frames, guint i, size_t *len)
{
    GByteArray *f;

    g_assert_cmpuint(i, <, frames->len);
    f = g_ptr_array_index(frames, i);
    *len = f->len;
    return f->data;
}

/* Header, command and Request ID of capture frame i. */
static const uint8_t *check_frame(GPtrArray *frames, guint i, uint64_t dst,
                                  uint64_t src, uint8_t cmd, uint32_t rid,
                                  size_t want_len)
{
    size_t len;
    const uint8_t *f = frame_at(frames, i, &len);

    g_test_message("frame %u: %zu bytes cmd 0x%02x", i, len,
                   len > 15 ? f[15] : 0);
    g_assert_cmpuint(len, ==, want_len);
    g_assert_cmphex(oetp_get_mac(f), ==, dst);
    g_assert_cmphex(oetp_get_mac(f + 6), ==, src);
    g_assert_cmphex(f[12] << 8 | f[13], ==, OETP_ETHERTYPE);
    g_assert_cmphex(f[14], ==, OETP_MAGIC);
    g_assert_cmphex(f[15], ==, cmd);
    g_assert_cmpuint(oetp_param(f, 1), ==, rid);
    return f;
}

static void test_capture(void)
{
    g_autofree char *path = oe_pcap_path();
    g_autofree char *hub = oe_hub_args(2, "");
    const uint32_t size = 20000, mfs = 8160;
    g_autoptr(GPtrArray) frames = NULL;
    g_autofree uint8_t *data = g_malloc(size);
    const uint64_t a = OE_MAC(0), b = OE_MAC(1);
    uint32_t off = 0, rid = 0;
    const uint8_t *f;
    QTestState *qts;
    QPCIBus *bus;
    OeDev d[2];
    guint i = 0;

    qts = oe_start("%s -object filter-dump,id=cap,netdev=p0,file=%s",
                   hub, path);
    bus = oe_bus(qts);
    for (int k = 0; k < 2; k++) {
        oe_open(&d[k], qts, bus, 4 + k);
        oe_set_macs(&d[k], OE_MAC(k), 0);
    }
    oe_fill(data, size, 11);
    qtest_bufwrite(qts, OE_RAM_BUF(0), data, size);
    oe_peer(&d[0], 0, b, OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            OE_RAM_BUF(1) + 1, size, 0);
    oe_peer(&d[1], 0, a, OE_MODE_MIRROR_REMOTE_TO_LOCAL, OE_RAM_BUF(1), 0,
            1 * MiB, 0);
    oe_peer_start(&d[0], 0);
    oe_peer_wait(&d[0], 0);
    /*
     * the responder resolves a source to its lowest active entry, so the
     * same entries switch to RMEM
     */
    oe_peer(&d[0], 0, b, OE_MODE_RMEM, 0, OE_RAM_BUF(1) + 0x100000, 16, 0);
    oe_peer(&d[1], 0, a, OE_MODE_RMEM, OE_RAM_BUF(1) + 0x100000, 0, 16, 0);
    qtest_writel(qts, OE_RAM_BUF(1) + 0x100004, 0x600DF00D);
    g_assert_cmphex(oe_rd(&d[0], OE_RMEM + 4), ==, 0x600DF00D);
    oe_wr(&d[0], OE_RMEM + 8, 0xFEEDBEEF);
    g_free(d[0].pci);
    g_free(d[1].pci);
    qpci_free_pc(bus);
    qtest_quit(qts);            /* flushes and closes the capture */

    frames = oe_pcap_frames(path);
    g_assert_nonnull(frames);
    /* fragments of 8160, 8160, 3680 bytes, each answered */
    while (off < size) {
        uint32_t n = MIN(mfs, size - off);

        f = check_frame(frames, i++, b, a, OETP_DMA_WRITE_REQ, rid,
                        14 + 2 + 12 + 4 * DIV_ROUND_UP(n, 4) + 4);
        g_assert_cmphex(oetp_param(f, 2), ==, OE_RAM_BUF(1) + 1 + off);
        g_assert_cmpuint(oetp_param(f, 3), ==, n);
        g_assert_cmpmem(f + 28, n, data + off, n);
        g_assert_cmphex(oetp_get_le32(f + 28 + 4 * DIV_ROUND_UP(n, 4)), ==,
                        OETP_EOD);
        check_frame(frames, i++, a, b, OETP_DMA_WRITE_RSP, rid, 20);
        off += n;
        rid++;
    }
    f = check_frame(frames, i++, b, a, OETP_RMEM_READ_REQ, rid, 24);
    g_assert_cmphex(oetp_param(f, 2), ==, OE_RAM_BUF(1) + 0x100004);
    f = check_frame(frames, i++, a, b, OETP_RMEM_READ_RSP, rid++, 24);
    g_assert_cmphex(oetp_param(f, 2), ==, 0x600DF00D);
    f = check_frame(frames, i++, b, a, OETP_RMEM_WRITE_REQ, rid, 32);
    g_assert_cmphex(oetp_param(f, 2), ==, OE_RAM_BUF(1) + 0x100008);
    g_assert_cmphex(oetp_param(f, 3), ==, 0xFFFFFFFF);
    g_assert_cmphex(oetp_param(f, 4), ==, 0xFEEDBEEF);
    check_frame(frames, i++, a, b, OETP_RMEM_WRITE_RSP, rid, 20);
    g_assert_cmpuint(frames->len, ==, i);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/pcap/filter-dump-frame-by-frame", test_capture);
    return g_test_run();
}
