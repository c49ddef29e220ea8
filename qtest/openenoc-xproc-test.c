/*
 * openenoc qtest: two QEMU processes joined by a dgram netdev on loopback.
 * Under -accel qtest a window access arrives on the main-loop thread of
 * QEMU A; the answer comes from QEMU B, another process, so A must keep its
 * main loop turning while the access waits. The DMA test runs over both
 * link forms: addresses on the command line and passed connected sockets.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "openenoc-qtest.h"

static void test_rmem_across_processes(void)
{
    const uint32_t rbase = OE_RAM_BUF(1);
    OePair p;

    oe_pair_start(&p, OE_LINK_ADDRESSED, "");
    oe_peer(&p.d[0], 0, OE_MAC(1), OE_MODE_RMEM, 0, rbase, 0x400, 0);
    oe_peer(&p.d[1], 0, OE_MAC(0), OE_MODE_RMEM, rbase, 0, 0x400, 0);
    for (uint32_t k = 0; k < 0x400; k += 4) {
        qtest_writel(p.qts[1], rbase + k, 0x5A000000u | k);
    }
    for (uint32_t k = 0; k < 0x400; k += 0x44) {
        g_assert_cmphex(oe_rd(&p.d[0], OE_RMEM + k), ==, 0x5A000000u | k);
        oe_wr(&p.d[0], OE_RMEM + k, ~k);
        g_assert_cmphex(qtest_readl(p.qts[1], rbase + k), ==, ~k);
    }
    g_assert_cmphex(oe_rd(&p.d[0], OE_PEER_DMA(0)) &
                    OE_PEER_DMA_ERROR_MASK, ==, 0);
    oe_pair_stop(&p);
}

static void test_dma_across_processes(gconstpointer data)
{
    const uint32_t size = 1 * MiB + 5;
    OePair p;

    oe_pair_start(&p, GPOINTER_TO_INT(data), "");
    oe_ram_fill(p.qts[0], OE_RAM_BUF(0), size, 31);
    oe_peer(&p.d[0], 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE,
            OE_RAM_BUF(0), OE_RAM_BUF(1), size, 0);
    oe_peer(&p.d[1], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
            OE_RAM_BUF(1), 0, 16 * MiB, 0);
    oe_peer_start(&p.d[0], 0);
    g_assert_cmphex(oe_peer_wait(&p.d[0], 0) & (OE_PEER_DMA_DONE_MASK |
                    OE_PEER_DMA_ERROR_MASK), ==, OE_PEER_DMA_DONE_MASK);
    g_assert_cmpint(oe_ram_check(p.qts[1], OE_RAM_BUF(1), size, 31), ==, -1);
    oe_pair_stop(&p);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/xproc/rmem-window-answered-by-other-qemu",
                   test_rmem_across_processes);
    qtest_add_data_func("/openenoc/xproc/dma-1mib-over-dgram",
                        GINT_TO_POINTER(OE_LINK_ADDRESSED),
                        test_dma_across_processes);
    qtest_add_data_func("/openenoc/xproc/dma-1mib-over-connected-dgram",
                        GINT_TO_POINTER(OE_LINK_CONNECTED),
                        test_dma_across_processes);
    return g_test_run();
}
