/*
 * openenoc qtest: findings of QEMU's generic-fuzz (make fuzz-qemu), each
 * replayed as the fuzzer's qtest commands (scripts/qemu/fuzz-reproduce.sh).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "openenoc-qtest.h"

/*
 * generic-fuzz, 2026-12-01: an RMEM window write after the fuzzer had
 * filled a peer entry with junk. rmem_timeout is 0 after reset (wait
 * forever for a silent peer, the spec's rule) and under qtest the wait runs
 * the main loop, so the access never returned: without x-wait-limit-ms
 * these commands block until QEMU is told to quit. With the limit the
 * access is abandoned (as a VM stop would) and the device keeps answering.
 */
static void test_window_wait_limit(void)
{
    QTestState *s = oe_start(
        "-netdev hubport,id=n0,hubid=0 -netdev hubport,id=n1,hubid=0 "
        "-device openenoc,netdev=n0,addr=0x4,mac=02:0e:0c:00:00:0a,"
        "x-wait-limit-ms=100 "
        "-device openenoc,netdev=n1,addr=0x5,mac=02:0e:0c:00:00:0b,"
        "x-wait-limit-ms=100");
    uint32_t magic;

    /* the fuzzer's BAR setup of the device in slot 5 */
    qtest_outl(s, 0xcf8, 0x80002810);
    qtest_outl(s, 0xcfc, 0xe0000000);
    qtest_outl(s, 0xcf8, 0x80002814);
    qtest_outl(s, 0xcfc, 0xe0002000);
    qtest_outl(s, 0xcf8, 0x80002804);
    qtest_outw(s, 0xcfc, 0x7);
    /* its input */
    qtest_writeq(s, 0xe000094d, 0x574db24dc900654d);
    qtest_readw(s, 0xe0001e55);
    qtest_writeq(s, 0xe0000d24, 0xe7ff34ffffff4d4d);
    /* reached only if the window write returned; the device still works */
    magic = qtest_readl(s, 0xe0000000 + ENOC_MODEL_MAGIC_OFF);
    g_assert_cmphex(magic, ==, ENOC_MODEL_MAGIC);
    qtest_quit(s);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/fuzz/window-wait-limit", test_window_wait_limit);
    return g_test_run();
}
