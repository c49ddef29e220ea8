/*
 * openenoc fault matrix (make check-faults): two QEMU processes joined by a
 * dgram link with -object filter-fault on QEMU A's netdev (both directions,
 * so A's virtual clock, which moves while A's RMEM window access blocks,
 * times every fault). For each fault and rate A runs peer DMA push and pull
 * blocks, RMEM reads and writes and multicast blocks against B. Every
 * operation must end in success with verified data or in a spec code
 * within its timeout; then the peer is killed mid-block and restarted, and
 * the link is set down and up. Prints a table and BENCH lines.
 *
 * Skipped unless OPENENOC_FAULTS=1 (make check-faults sets it), so that
 * make check-qtest stays short.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "openenoc-faults.h"

static void node_start(Rig *r, int i)
{
    Node *n = &r->n[i];

    n->qts = oe_start("-netdev dgram,id=n0,local.type=inet,"
                      "local.host=127.0.0.1,local.port=%d,"
                      "remote.type=inet,remote.host=127.0.0.1,"
                      "remote.port=%d "
                      "-device openenoc,netdev=n0,addr=0x4,id=oe0 %s",
                      r->port[i], r->port[!i],
                      i == 0 ? "-object filter-fault,id=f0,netdev=n0" : "");
    n->bus = oe_bus(n->qts);
    oe_open(&n->d, n->qts, n->bus, 4);
    oe_set_macs(&n->d, OE_MAC(i), i == 1 ? OE_GROUP : 0);
    oe_wr(&n->d, OE_CONFIG_DMA_TIMEOUT, TIMEOUT_CYCLES);
    oe_wr(&n->d, OE_CONFIG_RMEM_TIMEOUT, TIMEOUT_CYCLES);
    oe_wr(&n->d, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, MFS);
}

/* B's entry for A: one window, in the mode the next operation needs. */
static void b_mode(Rig *r, unsigned mode)
{
    oe_peer(&r->n[1].d, 0, OE_MAC(0), mode, B_WIN, 0, WINDOW, 0);
}

static void rig_start(Rig *r)
{
    memset(r, 0, sizeof(*r));
    r->port[0] = free_udp_port();
    r->port[1] = free_udp_port();
    node_start(r, 0);
    node_start(r, 1);
}

static void filter_set(Rig *r, const char *prop, uint64_t v)
{
    qtest_qmp_assert_success(r->n[0].qts, "{'execute': 'qom-set', "
                             "'arguments': {'path': '/objects/f0', "
                             "'property': %s, 'value': %" PRIu64 "}}",
                             prop, v);
}

static uint32_t block_wait(Rig *r, unsigned n, Row *row, int64_t t0)
{
    return block_wait_on(r, 0, n, row, t0);
}

static void op_block(Rig *r, Row *row, bool push, unsigned area)
{
    QTestState *a = r->n[0].qts, *b = r->n[1].qts;
    uint32_t size = push ? PUSH_SIZE : PULL_SIZE;
    uint32_t seed = ++r->seed;
    uint32_t local = A_BUF(area), remote = B_BUF(area);
    int64_t t0;
    uint32_t v;

    b_mode(r, push ? OE_MODE_MIRROR_REMOTE_TO_LOCAL
                   : OE_MODE_MIRROR_LOCAL_TO_REMOTE);
    oe_ram_fill(push ? a : b, push ? local : remote, size, seed);
    qtest_memset(push ? b : a, push ? remote : local, 0, size);
    oe_peer(&r->n[0].d, 0, OE_MAC(1), push ? OE_MODE_MIRROR_LOCAL_TO_REMOTE :
            OE_MODE_MIRROR_REMOTE_TO_LOCAL, local, remote, size, 0);
    clear_error(&r->n[0].d, 0);
    t0 = g_get_monotonic_time();
    oe_peer_start(&r->n[0].d, 0);
    v = block_wait(r, 0, row, t0);
    clear_error(&r->n[0].d, 0);
    if (!v) {
        return;
    }
    if (outcome(row, push ? OP_PUSH : OP_PULL, code_of(v), t0) &&
        oe_ram_check(push ? b : a, push ? remote : local, size, seed) >= 0) {
        row->mismatch++;
    }
}

static void op_rmem(Rig *r, Row *row, bool write)
{
    QTestState *b = r->n[1].qts;
    OeDev *d = &r->n[0].d;
    uint32_t base = B_BUF(8);

    b_mode(r, OE_MODE_RMEM);
    oe_peer(d, 1, OE_MAC(1), OE_MODE_RMEM, 0, base,
            RMEM_WORDS * 4, RMEM_SLICE);
    for (unsigned k = 0; k < RMEM_WORDS; k++) {
        uint32_t want = 0x5A000000u | (++r->seed & 0xffffff);
        int64_t t0;
        unsigned code;
        uint32_t got = 0;

        if (write) {
            qtest_writel(b, base + 4 * k, 0);
        } else {
            qtest_writel(b, base + 4 * k, want);
        }
        t0 = g_get_monotonic_time();
        if (write) {
            oe_wr(d, OE_RMEM + RMEM_SLICE + 4 * k, want);
        } else {
            got = oe_rd(d, OE_RMEM + RMEM_SLICE + 4 * k);
        }
        if ((g_get_monotonic_time() - t0) / 1000 > HANG_MS) {
            row->hang++;
        }
        code = code_of(oe_rd(d, OE_PEER_DMA(1)));
        if (outcome(row, write ? OP_RMEM_WR : OP_RMEM_RD, code, t0)) {
            if (write) {
                /* the response came: the word is in B's memory */
                if (qtest_readl(b, base + 4 * k) != want) {
                    row->mismatch++;
                }
            } else if (got != want) {
                row->mismatch++;
            }
        } else {
            /* a failed read returns all ones, never stale data */
            if (!write && got != 0xffffffffu) {
                row->mismatch++;
            }
            clear_error(d, 1);
        }
    }
}

/*
 * A group write completes when its frames have left A; B keeps what
 * arrives. Every byte there must be the new data or untouched (0): a
 * lost fragment is allowed (best effort), a wrong byte is not.
 */
static void op_mcast(Rig *r, Row *row, unsigned area)
{
    QTestState *a = r->n[0].qts, *b = r->n[1].qts;
    uint32_t seed = ++r->seed, local = A_BUF(4 + area);
    uint32_t remote = B_BUF(4 + area);
    int64_t t0;
    uint32_t v;

    b_mode(r, OE_MODE_MIRROR_REMOTE_TO_LOCAL);
    oe_ram_fill(a, local, MCAST_SIZE, seed);
    qtest_memset(b, remote, 0, MCAST_SIZE);
    oe_peer(&r->n[0].d, 2, OE_GROUP, OE_MODE_MIRROR_LOCAL_TO_REMOTE, local,
            remote, MCAST_SIZE, 0);
    t0 = g_get_monotonic_time();
    oe_peer_start(&r->n[0].d, 2);
    v = block_wait(r, 2, row, t0);
    clear_error(&r->n[0].d, 2);
    if (!v) {
        return;
    }
    settle(r);
    if (!outcome(row, OP_MCAST, code_of(v), t0)) {
        return;
    }
    mcast_check(b, remote, MCAST_SIZE, seed, row);
}

/* One cell: every kind of operation, a few times, alternating areas. */
static void run_cell(Rig *r, Row *row, int rounds)
{
    for (int k = 0; k < rounds; k++) {
        op_block(r, row, true, k & 1);
        settle(r);
        op_block(r, row, false, 2 + (k & 1));
        settle(r);
        op_rmem(r, row, false);
        op_rmem(r, row, true);
        settle(r);
        op_mcast(r, row, k & 1);
    }
}

static bool enabled(void)
{
    if (!getenv("OPENENOC_FAULTS")) {
        g_test_skip("run by make check-faults (OPENENOC_FAULTS=1)");
        return false;
    }
    return true;
}

static void test_matrix(void)
{
    static const struct {
        const char *prop;
        const char *label;
    } faults[] = {
        { "drop", "drop" },
        { "duplicate", "duplicate" },
        { "reorder", "reorder" },
        { "delay", "delay>timeout" },
    };
    static const unsigned pct[] = { 1, 5, 20 };
    Rig r;
    Row base = { .name = "none" };

    if (!enabled()) {
        return;
    }
    rig_start(&r);
    table_head();
    run_cell(&r, &base, 2);
    row_print(&base);
    g_assert_cmpuint(base.ok, ==, base.ops);
    for (size_t f = 0; f < ARRAY_SIZE(faults); f++) {
        for (size_t p = 0; p < ARRAY_SIZE(pct); p++) {
            g_autofree char *name = g_strdup_printf("%s %u%%",
                                                    faults[f].label, pct[p]);
            Row row = { .name = name };

            filter_set(&r, "seed", 1000 * f + p);
            if (!strcmp(faults[f].prop, "delay")) {
                /* the picked frames wait 1.5 timeouts: too late */
                filter_set(&r, "delay-us", TIMEOUT_US * 3 / 2);
            }
            filter_set(&r, faults[f].prop, pct[p] * 10);
            run_cell(&r, &row, 6);
            filter_set(&r, faults[f].prop, 0);
            filter_set(&r, "delay-us", 0);
            settle(&r);
            row_print(&row);
        }
    }
    /* the link is clean again: everything succeeds */
    {
        Row after = { .name = "none (after)" };

        run_cell(&r, &after, 1);
        row_print(&after);
        g_assert_cmpuint(after.ok, ==, after.ops);
    }
    node_stop(&r.n[0]);
    node_stop(&r.n[1]);
    g_assert_cmpuint(total.hangs, ==, 0);
    g_assert_cmpuint(total.mismatches, ==, 0);
}

/*
 * A long push to B; `cut` breaks the link mid-block. A ends with code 8
 * within its timeout, still answers its own guest, and after `mend` the
 * next block succeeds.
 */
static void link_loss(Rig *r, Row *row, void (*cut)(Rig *),
                      void (*mend)(Rig *))
{
    const uint32_t size = 8 * MiB;
    Node *a = &r->n[0];
    int64_t t0, vt0;
    uint32_t v;

    b_mode(r, OE_MODE_MIRROR_REMOTE_TO_LOCAL);
    oe_ram_fill(a->qts, A_BUF(16), size, 99);
    oe_peer(&a->d, 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE, A_BUF(16),
            B_BUF(16), size, 0);
    oe_peer_start(&a->d, 0);
    g_usleep(2000);
    cut(r);
    t0 = g_get_monotonic_time();
    vt0 = qtest_clock_step(a->qts, 1);
    v = block_wait(r, 0, row, t0);
    if (v) {
        outcome(row, OP_PUSH, code_of(v), t0);
        g_assert_cmpuint(code_of(v), ==, OE_ERR_TIMEOUT);
        /*
         * within the timeout of the last fragment sent before the cut, to
         * one poll step (and the nanosecond each clock probe adds)
         */
        g_assert_cmpint(qtest_clock_step(a->qts, 1) - vt0, <=,
                        TIMEOUT_US * SCALE_US + STEP_NS + 1);
    }
    clear_error(&a->d, 0);
    /* A keeps serving its guest: registers, and RMEM ends in code 8 */
    g_assert_cmphex(oe_rd(&a->d, ENOC_MODEL_MAGIC_OFF), ==, ENOC_MODEL_MAGIC);
    oe_peer(&a->d, 1, OE_MAC(1), OE_MODE_RMEM, 0, B_BUF(8), 64, RMEM_SLICE);
    g_assert_cmphex(oe_rd(&a->d, OE_RMEM + RMEM_SLICE), ==, 0xffffffffu);
    g_assert_cmpuint(code_of(oe_rd(&a->d, OE_PEER_DMA(1))), ==,
                     OE_ERR_TIMEOUT);
    clear_error(&a->d, 1);
    mend(r);
    op_block(r, row, true, 0);
    op_rmem(r, row, false);
    g_assert_cmpuint(row->ok, ==, row->ops - 1);
}

static void kill_b(Rig *r)
{
    g_free(r->n[1].d.pci);
    qpci_free_pc(r->n[1].bus);
    qtest_kill_qemu(r->n[1].qts);
    qtest_quit(r->n[1].qts);
    r->n[1].qts = NULL;             /* dead: no clock to move */
}

static void restart_b(Rig *r)
{
    node_start(r, 1);
}

static void set_link(Rig *r, bool up)
{
    qtest_qmp_assert_success(r->n[0].qts, "{'execute': 'set_link', "
                             "'arguments': {'name': 'n0', 'up': %i}}", up);
}

static void link_down(Rig *r)
{
    set_link(r, false);
}

static void link_up(Rig *r)
{
    set_link(r, true);
}

static void test_peer_loss(void)
{
    Row killed = { .name = "peer killed" };
    Row down = { .name = "set_link down/up" };
    Rig r;

    if (!enabled()) {
        return;
    }
    rig_start(&r);
    table_head();
    link_loss(&r, &killed, kill_b, restart_b);
    row_print(&killed);
    link_loss(&r, &down, link_down, link_up);
    row_print(&down);
    node_stop(&r.n[0]);
    node_stop(&r.n[1]);
}

static void test_totals(void)
{
    if (!enabled()) {
        return;
    }
    g_test_message("BENCH faults.ops %u ops", total.ops);
    g_test_message("BENCH faults.hangs %u ops", total.hangs);
    g_test_message("BENCH faults.mismatches %u ops", total.mismatches);
    g_assert_cmpuint(total.hangs, ==, 0);
    g_assert_cmpuint(total.mismatches, ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/faults/matrix", test_matrix);
    qtest_add_func("/openenoc/faults/peer-loss", test_peer_loss);
    qtest_add_func("/openenoc/faults/totals", test_totals);
    return g_test_run();
}
