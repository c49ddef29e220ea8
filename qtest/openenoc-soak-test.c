/*
 * openenoc soak (make soak SOAK_SECONDS=N; make check runs 60 s): three
 * QEMU processes, filter-fault on every link, mixed traffic with every
 * byte verified, one QEMU live-migrated twice under load. Prints a table,
 * errors by code and BENCH soak.* lines.
 *
 * Skipped unless OPENENOC_SOAK_SECONDS is set (make soak sets it).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qobject/qdict.h"
#include "openenoc-faults.h"

/*
 * Soak: three QEMUs (A, B, C) on one loopback multicast segment, each
 * with filter-fault on its netdev (0.1 % drop, 0.2 % duplicate, 0.1 %
 * reorder per filter; a frame crosses two). Peer tables:
 *   A: 0 = B push, 1 = C RMEM window, 2 = group push
 *   B: 0 = A window (push, multicast), 1 = C window (C pulls)
 *   C: 0 = B pull, 1 = A window (multicast), 2 = A RMEM
 * Raw DMA goes A -> B, the direct stream C -> A. C migrates to a new
 * process twice, with its pull in flight.
 */
#define SOAK_FILTER     "drop=1,duplicate=2,reorder=1"
#define RAW_LEN         77
#define RAW_MAX         128
#define ETH_P_RARP_SOAK 0x8035      /* the RARP frames QEMU announces with */

enum { SOAK_PUSH, SOAK_PULL, SOAK_MCAST, SOAK_RMEM, SOAK_RAW, SOAK_DIRECT,
       SOAK__MAX };
static const char *const soak_names[SOAK__MAX] = {
    "push A>B", "pull C<B", "mcast A>BC", "rmem C>A", "raw A>B",
    "direct C>A",
};

/*
 * Raw frames that did not reach B within the wait (the row's `lost`), by
 * cause. Raw DMA has no response and no timeout, so each is classified:
 * - late: it completed B's descriptor after the wait (seen by the next raw
 *   operation: the descriptor done with that frame);
 * - filter: not late, and a filter-fault on its path (A's or B's) counted
 *   a drop or a hold during the operation (a held frame goes out only
 *   after the next frame in its direction: usually the next operation);
 * - unexplained: neither.
 */
typedef struct RawLoss {
    unsigned late, filter, unexplained;
    uint32_t tag;               /* the last lost frame, not yet classified */
    bool by_filter;             /* ... and whether a filter may have done it */
} RawLoss;

typedef struct Soak {
    Rig r;
    int port;
    unsigned migrations;
    uint32_t raw_tag;
    RawLoss raw_loss;
    Row rows[SOAK__MAX + 1];    /* + migration */
} Soak;

static QTestState *soak_qemu(Soak *k, int i, const char *extra)
{
    return oe_start("-netdev socket,id=n0,mcast=230.0.0.1:%d,"
                    "localaddr=127.0.0.1 "
                    "-device openenoc,netdev=n0,addr=0x4,id=oe0 "
                    "-object filter-fault,id=f0,netdev=n0," SOAK_FILTER
                    ",seed=%d %s", k->port, i, extra);
}

static void soak_open(Soak *k, int i, QTestState *qts)
{
    Node *n = &k->r.n[i];

    n->qts = qts;
    n->bus = oe_bus(qts);
    oe_open(&n->d, qts, n->bus, 4);
}

static void soak_config(Soak *k)
{
    OeDev *a = &k->r.n[0].d, *b = &k->r.n[1].d, *c = &k->r.n[2].d;

    for (int i = 0; i < 3; i++) {
        OeDev *d = &k->r.n[i].d;

        oe_set_macs(d, OE_MAC(i), i ? OE_GROUP : 0);
        oe_wr(d, OE_CONFIG_DMA_TIMEOUT, TIMEOUT_CYCLES);
        oe_wr(d, OE_CONFIG_RMEM_TIMEOUT, TIMEOUT_CYCLES);
        oe_wr(d, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, MFS);
    }
    oe_peer(a, 1, OE_MAC(2), OE_MODE_RMEM, B_WIN, 0, WINDOW, 0);
    oe_peer(b, 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
            B_WIN, 0, WINDOW, 0);
    oe_peer(b, 1, OE_MAC(2), OE_MODE_MIRROR_LOCAL_TO_REMOTE,
            B_WIN, 0, WINDOW, 0);
    oe_peer(c, 1, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
            B_WIN, 0, WINDOW, 0);
    oe_peer(c, 2, OE_MAC(0), OE_MODE_RMEM, 0, B_BUF(8), RMEM_WORDS * 4,
            RMEM_SLICE);
}

/* A block from initiator `who`, entry e; verify dst_addr on success. */
static void soak_block(Soak *k, Row *row, int who, unsigned e, uint64_t peer,
                       unsigned mode, uint32_t local, uint32_t remote,
                       uint32_t size, int src, int dst, uint32_t dst_addr)
{
    Rig *r = &k->r;
    uint32_t seed = ++r->seed;
    uint32_t src_addr = dst_addr == local ? remote : local;
    int64_t t0;
    uint32_t v;

    oe_ram_fill(r->n[src].qts, src_addr, size, seed);
    qtest_memset(r->n[dst].qts, dst_addr, 0, size);
    oe_peer(&r->n[who].d, e, peer, mode, local, remote, size, 0);
    clear_error(&r->n[who].d, e);
    t0 = g_get_monotonic_time();
    oe_peer_start(&r->n[who].d, e);
    v = block_wait_on(r, who, e, row, t0);
    if (v && outcome(row, OP_PUSH, code_of(v), t0) && peer != OE_GROUP &&
        oe_ram_check(r->n[dst].qts, dst_addr, size, seed) >= 0) {
        row->mismatch++;
    }
}

/* Group write A -> B, C: every byte at B and C new or untouched (0). */
static void soak_mcast(Soak *k, Row *row)
{
    Rig *r = &k->r;
    uint32_t seed = r->seed + 1, size = MCAST_SIZE;

    qtest_memset(r->n[2].qts, B_BUF(4), 0, size);
    soak_block(k, row, 0, 2, OE_GROUP, OE_MODE_MIRROR_LOCAL_TO_REMOTE, A_BUF(4),
               B_BUF(4), size, 0, 1, B_BUF(4));
    settle(r);
    for (int i = 1; i < 3; i++) {
        mcast_check(r->n[i].qts, B_BUF(4), size, seed, row);
    }
}

static void soak_rmem(Soak *k, Row *row)
{
    Rig *r = &k->r;
    OeDev *c = &r->n[2].d;
    QTestState *a = r->n[0].qts;

    for (unsigned w = 0; w < 4; w++) {
        uint32_t want = 0x5A000000u | (++r->seed & 0xffffff);
        uint32_t addr = B_BUF(8) + 4 * w, got;
        int64_t t0 = g_get_monotonic_time();
        bool write = w & 1;

        qtest_writel(a, addr, write ? 0 : want);
        if (write) {
            oe_wr(c, OE_RMEM + RMEM_SLICE + 4 * w, want);
            got = qtest_readl(a, addr);
        } else {
            got = oe_rd(c, OE_RMEM + RMEM_SLICE + 4 * w);
        }
        if (outcome(row, write ? OP_RMEM_WR : OP_RMEM_RD,
                    code_of(oe_rd(c, OE_PEER_DMA(2))), t0)) {
            row->mismatch += got != want;
        } else {
            row->mismatch += !write && got != 0xffffffffu;
            clear_error(c, 2);
        }
    }
}

/* A raw frame: addresses, IPv4 type, a tag, then the tag's pattern. */
static void raw_frame(uint8_t *f, uint32_t tag, uint64_t dst, uint64_t src)
{
    oe_fill(f, RAW_LEN, tag);
    oetp_put_mac(f, dst);
    oetp_put_mac(f + 6, src);
    f[12] = 0x08;
    f[13] = 0x00;
    stl_le_p(f + 14, tag);
}

/*
 * Is this, byte for byte, one of the raw frames src sent to dst (this
 * one, or a late or duplicated copy of an earlier one)?
 */
static bool raw_valid(const uint8_t *got, int len, uint64_t dst, uint64_t src)
{
    uint8_t want[RAW_LEN];

    if (len != RAW_LEN) {
        return false;
    }
    raw_frame(want, ldl_le_p(got + 14), dst, src);
    return !memcmp(got, want, RAW_LEN);
}

/*
 * The next frame in d's direct sink: its length, -1 if none came within
 * timeout_ms, -2 if it broke off.
 */
static int sink_frame(OeDev *d, uint8_t *buf, int timeout_ms)
{
    for (int i = 0; i < RAW_MAX; i += 4) {
        uint32_t st = oe_poll(d, OE_DIRECT_SINK_STATUS,
                              OE_DIRECT_SINK_STATUS_TVALID_MASK,
                              OE_DIRECT_SINK_STATUS_TVALID_MASK,
                              i ? 1000 : timeout_ms);
        uint32_t beat;

        if (!(st & OE_DIRECT_SINK_STATUS_TVALID_MASK)) {
            return i ? -2 : -1;
        }
        beat = cpu_to_le32(oe_rd(d, OE_DIRECT_SINK_DATA));
        memcpy(buf + i, &beat, 4);
        oe_wr(d, OE_DIRECT_SINK_CONTROL, OE_DIRECT_SINK_CONTROL_TREADY_MASK);
        if (st & OE_DIRECT_SINK_STATUS_TLAST_MASK) {
            return i + ctpop32((st & OE_DIRECT_SINK_STATUS_TKEEP_MASK) >>
                               OE_DIRECT_SINK_STATUS_TKEEP_SHIFT);
        }
    }
    return -2;
}

/*
 * Read d's sink until the frame with `tag` (or until nothing more comes):
 * every frame there must be one we sent (a late or duplicated copy), byte
 * for byte. Returns whether `tag` was found.
 */
static bool sink_expect(OeDev *d, Row *row, uint64_t dst, uint64_t src,
                        uint32_t tag, int timeout_ms)
{
    uint8_t got[RAW_MAX];
    int len;

    while ((len = sink_frame(d, got, timeout_ms)) != -1) {
        if (len >= 14 && lduw_be_p(got + 12) == ETH_P_RARP_SOAK) {
            continue;       /* QEMU's announcement after a migration */
        }
        if (!raw_valid(got, len, dst, src)) {
            g_test_message("%s: sink frame len %d: %012" PRIx64 " < %012"
                           PRIx64 " type %02x%02x tag %u", row->name, len,
                           oetp_get_mac(got), oetp_get_mac(got + 6), got[12],
                           got[13], ldl_le_p(got + 14));
            row->mismatch++;
            return false;
        }
        if (ldl_le_p(got + 14) == tag) {
            return true;
        }
    }
    return false;
}

/* Frames a node's filter dropped or held so far. */
static uint64_t filter_faults(QTestState *qts)
{
    uint64_t n = 0;

    for (int i = 0; i < 2; i++) {
        QDict *rsp = qtest_qmp(qts, "{'execute': 'qom-get', 'arguments': "
                               "{'path': '/objects/f0', 'property': %s}}",
                               i ? "reordered" : "dropped");

        g_assert_true(qdict_haskey(rsp, "return"));
        n += qdict_get_int(rsp, "return");
        qobject_unref(rsp);
    }
    return n;
}

/* Classify the previous lost frame, now that the next operation looks. */
static void raw_loss_settle(RawLoss *l, bool arrived_late)
{
    if (!l->tag) {
        return;
    }
    if (arrived_late) {
        l->late++;
    } else if (l->by_filter) {
        l->filter++;
    } else {
        l->unexplained++;
    }
    l->tag = 0;
}

static void soak_raw(Soak *k, Row *row)
{
    Rig *r = &k->r;
    OeDev *a = &r->n[0].d, *b = &r->n[1].d;
    RawLoss *loss = &k->raw_loss;
    uint32_t tag = ++k->raw_tag, st;
    uint8_t f[RAW_LEN], got[RAW_LEN];
    uint64_t faults0;
    int64_t t0 = g_get_monotonic_time();

    /* copies of earlier frames that reached B unarmed wait in its sink */
    sink_expect(b, row, OE_MAC(1), OE_MAC(0), 0, 0);
    st = oe_rd(b, OE_RAW_RX_COMMAND_STATUS);
    if (loss->tag && (st & OE_RAW_RX_COMMAND_STATUS_DONE_MASK)) {
        /* the last lost frame, or another late one, came after the wait */
        qtest_memread(r->n[1].qts, B_BUF(6), got, RAW_LEN);
        raw_loss_settle(loss, ldl_le_p(got + 14) == loss->tag);
    }
    raw_loss_settle(loss, false);
    raw_frame(f, tag, OE_MAC(1), OE_MAC(0));
    qtest_memwrite(r->n[0].qts, A_BUF(6), f, RAW_LEN);
    qtest_memset(r->n[1].qts, B_BUF(6), 0, RAW_LEN);
    /*
     * A descriptor still armed for a frame that never came takes this one
     * (same buffer and capacity). A request written now would wait, be
     * accepted in the very call that completes the descriptor and clear
     * its done bit at once: every later frame would then look lost.
     */
    if (!(st & OE_RAW_RX_COMMAND_STATUS_ARMED_MASK)) {
        oe_wr(b, OE_RAW_RX_BUFFER_ADDRESS, B_BUF(6));
        oe_wr(b, OE_RAW_RX_BUFFER_CAPACITY, 2048);
        oe_wr(b, OE_RAW_RX_COMMAND_STATUS,
              OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    }
    /*
     * Send only once B's descriptor is armed: a frame that comes before
     * goes to B's direct sink (and is checked there by the next raw
     * operation), which is not a loss.
     */
    oe_poll(b, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_ARMED_MASK,
            OE_RAW_RX_COMMAND_STATUS_ARMED_MASK, 200);
    faults0 = filter_faults(r->n[0].qts) + filter_faults(r->n[1].qts);
    oe_wr(a, OE_RAW_TX_BUFFER_ADDRESS, A_BUF(6));
    oe_wr(a, OE_RAW_TX_FRAME_LENGTH, RAW_LEN);
    oe_wr(a, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    st = oe_poll(b, OE_RAW_RX_COMMAND_STATUS,
                 OE_RAW_RX_COMMAND_STATUS_DONE_MASK,
                 OE_RAW_RX_COMMAND_STATUS_DONE_MASK, 200);
    outcome(row, OP_PUSH, 0, t0);
    if (!(st & OE_RAW_RX_COMMAND_STATUS_DONE_MASK)) {
        row->partial++;         /* lost on the way: raw has no timeout */
        loss->tag = tag;
        loss->by_filter = filter_faults(r->n[0].qts) +
                          filter_faults(r->n[1].qts) != faults0;
        return;
    }
    qtest_memread(r->n[1].qts, B_BUF(6), got, RAW_LEN);
    /* ours, a late copy of an earlier one or an announcement, exactly */
    if (lduw_be_p(got + 12) != ETH_P_RARP_SOAK &&
        !raw_valid(got, oe_rd(b, OE_RAW_RX_RECEIVED_LENGTH), OE_MAC(1),
                   OE_MAC(0))) {
        row->mismatch++;
    }
}

static void soak_direct(Soak *k, Row *row)
{
    Rig *r = &k->r;
    OeDev *c = &r->n[2].d, *a = &r->n[0].d;
    uint32_t tag = ++k->raw_tag;
    uint8_t f[RAW_LEN];
    int64_t t0 = g_get_monotonic_time();

    raw_frame(f, tag, OE_MAC(0), OE_MAC(2));
    for (uint32_t i = 0; i < RAW_LEN; i += 4) {
        uint32_t n = MIN(4, RAW_LEN - i), beat = 0;

        memcpy(&beat, f + i, n);
        oe_poll(c, OE_DIRECT_SOURCE_CONTROL,
                OE_DIRECT_SOURCE_CONTROL_TVALID_MASK, 0, 1000);
        oe_wr(c, OE_DIRECT_SOURCE_DATA, le32_to_cpu(beat));
        oe_wr(c, OE_DIRECT_SOURCE_CONTROL,
              ((1u << n) - 1) << OE_DIRECT_SOURCE_CONTROL_TKEEP_SHIFT |
              (i + 4 >= RAW_LEN ? OE_DIRECT_SOURCE_CONTROL_TLAST_MASK : 0) |
              OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
    }
    outcome(row, OP_PUSH, 0, t0);
    if (!sink_expect(a, row, OE_MAC(0), OE_MAC(2), tag, 200)) {
        row->partial++;
    }
}

static int64_t rss_kb(QTestState *qts)
{
    g_autofree char *path = g_strdup_printf("/proc/%d/status",
                                            (int)qtest_pid(qts));
    g_autofree char *text = NULL;
    const char *p;

    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    p = strstr(text, "VmRSS:");
    g_assert_nonnull(p);
    return g_ascii_strtoll(p + 6, NULL, 10);
}

static void wait_migrated(QTestState *qts)
{
    for (int i = 0; i < 6000; i++) {
        QDict *rsp = qtest_qmp(qts, "{'execute': 'query-migrate'}");
        QDict *ret = qdict_get_qdict(rsp, "return");
        const char *st = ret ? qdict_get_try_str(ret, "status") : NULL;
        bool done = st && !strcmp(st, "completed");

        g_assert_true(!st || strcmp(st, "failed"));
        qobject_unref(rsp);
        if (done) {
            return;
        }
        g_usleep(10000);
    }
    g_assert_not_reached();
}

/* C moves to a new process while its 1 MiB pull from B is in flight. */
static void soak_migrate(Soak *k, Row *row)
{
    Rig *r = &k->r;
    Node *c = &r->n[2];
    g_autofree char *name = g_strdup_printf("soak-%u.sock", k->migrations);
    g_autofree char *sock = oe_tmp_path(name);
    g_autofree char *inc = g_strdup_printf("-incoming unix:%s", sock);
    g_autofree char *uri = g_strdup_printf("unix:%s", sock);
    QTestState *dst = soak_qemu(k, 2, inc);
    QPCIBar bar0 = c->d.bar0;
    uint32_t seed = ++r->seed, size = 1 * MiB, v;
    int64_t t0;

    oe_ram_fill(r->n[1].qts, B_BUF(12), size, seed);
    qtest_memset(c->qts, A_BUF(12), 0, size);
    oe_peer(&c->d, 0, OE_MAC(1), OE_MODE_MIRROR_REMOTE_TO_LOCAL, A_BUF(12),
            B_BUF(12), size, 0);
    clear_error(&c->d, 0);
    t0 = g_get_monotonic_time();
    oe_peer_start(&c->d, 0);
    g_usleep(2000);
    qtest_qmp_assert_success(c->qts, "{'execute': 'migrate', 'arguments': "
                             "{'uri': %s}}", uri);
    wait_migrated(c->qts);
    qtest_qmp_eventwait(dst, "RESUME");
    /*
     * Under -accel qtest the virtual clock is qtest's own counter, which
     * migration does not carry (a real accelerator's is): set the new
     * process's clock to the old one's, or the migrated timer deadlines
     * lie seconds ahead of it.
     */
    qtest_clock_set(dst, qtest_clock_step(c->qts, 1));
    g_free(c->d.pci);
    qpci_free_pc(c->bus);
    qtest_quit(c->qts);
    soak_open(k, 2, dst);
    c->d.bar0 = bar0;           /* the BARs keep their migrated addresses */
    v = block_wait_on(r, 2, 0, row, g_get_monotonic_time());
    if (v && outcome(row, OP_PULL, code_of(v), t0) &&
        oe_ram_check(c->qts, A_BUF(12), size, seed) >= 0) {
        row->mismatch++;
    }
    k->migrations++;
}

static void soak_op(Soak *k, unsigned n)
{
    Row *row = &k->rows[n % SOAK__MAX];
    unsigned area = n & 1;

    switch (n % SOAK__MAX) {
    case SOAK_PUSH:
        soak_block(k, row, 0, 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE,
                   A_BUF(area), B_BUF(area), PUSH_SIZE, 0, 1, B_BUF(area));
        break;
    case SOAK_PULL:
        soak_block(k, row, 2, 0, OE_MAC(1), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
                   A_BUF(2 + area), B_BUF(2 + area), PULL_SIZE, 1, 2,
                   A_BUF(2 + area));
        break;
    case SOAK_MCAST:
        soak_mcast(k, row);
        break;
    case SOAK_RMEM:
        soak_rmem(k, row);
        break;
    case SOAK_RAW:
        soak_raw(k, row);
        break;
    case SOAK_DIRECT:
        soak_direct(k, row);
        break;
    }
}

static void soak_report(Soak *k, int64_t secs, int64_t warm, int64_t rss0,
                        int64_t rss1)
{
    unsigned codes[16] = { 0 };

    total.ops = total.hangs = total.mismatches = 0;
    table_head();
    for (int i = 0; i <= SOAK__MAX; i++) {
        row_print(&k->rows[i]);
        for (int c = 1; c < 16; c++) {
            codes[c] += k->rows[i].codes[c];
        }
    }
    for (int c = 1; c < 16; c++) {
        if (codes[c]) {
            g_test_message("SOAK errors with code %d: %u", c, codes[c]);
        }
    }
    g_test_message("SOAK %" PRId64 " s, %u migrations; RSS of A+B %" PRId64
                   " kB after %" PRId64 " s, %" PRId64 " kB at the end",
                   secs, k->migrations, rss0, warm / G_USEC_PER_SEC, rss1);
    raw_loss_settle(&k->raw_loss, false);
    g_test_message("SOAK raw A>B lost %u: %u arrived after the wait, %u "
                   "met a filter drop or hold, %u unexplained",
                   k->rows[SOAK_RAW].partial, k->raw_loss.late,
                   k->raw_loss.filter, k->raw_loss.unexplained);
    g_test_message("BENCH soak.ops %u ops", total.ops);
    g_test_message("BENCH soak.mismatches %u ops", total.mismatches);
    g_test_message("BENCH soak.hangs %u ops", total.hangs);
    g_test_message("BENCH soak.rss_growth_pct %.1f %%",
                   rss0 ? 100.0 * (rss1 - rss0) / rss0 : 0.0);
    g_test_message("BENCH soak.raw_lost_unexplained %u frames",
                   k->raw_loss.unexplained);
}

static void test_soak(void)
{
    const char *env = getenv("OPENENOC_SOAK_SECONDS");
    int64_t secs = env ? g_ascii_strtoll(env, NULL, 10) : 0;
    int64_t start, now, warm = 0, rss0 = 0, sample = 0;
    Soak *k;

    if (secs <= 0) {
        g_test_skip("run by make soak (OPENENOC_SOAK_SECONDS=N)");
        return;
    }
    k = g_new0(Soak, 1);
    k->port = free_udp_port();
    for (int i = 0; i < 3; i++) {
        soak_open(k, i, soak_qemu(k, i, ""));
    }
    soak_config(k);
    for (int i = 0; i < SOAK__MAX; i++) {
        k->rows[i].name = soak_names[i];
    }
    k->rows[SOAK__MAX].name = "migrate C mid-pull";
    start = g_get_monotonic_time();
    for (unsigned n = 0;; n++) {
        now = g_get_monotonic_time() - start;
        if (now >= secs * G_USEC_PER_SEC) {
            break;
        }
        /*
         * RSS of the QEMUs that live throughout (A, B), after the first
         * minute (a quarter of a shorter run), against the end
         */
        if (!warm && now >= MIN(60, secs / 4) * G_USEC_PER_SEC) {
            warm = now;
            rss0 = rss_kb(k->r.n[0].qts) + rss_kb(k->r.n[1].qts);
        }
        if (now >= sample * 10 * G_USEC_PER_SEC) {
            /* the log keeps the curve: a leak grows, a warm-up does not */
            g_test_message("rss at %3" PRId64 " s: A %" PRId64 " B %" PRId64
                           " C %" PRId64 " kB, %u ops", now / G_USEC_PER_SEC,
                           rss_kb(k->r.n[0].qts), rss_kb(k->r.n[1].qts),
                           rss_kb(k->r.n[2].qts), n);
            sample++;
        }
        if (k->migrations < 2 &&
            now >= (k->migrations + 1) * secs * G_USEC_PER_SEC / 3) {
            soak_migrate(k, &k->rows[SOAK__MAX]);
            soak_config(k);
        }
        soak_op(k, n);
    }
    soak_report(k, secs, warm, rss0,
                rss_kb(k->r.n[0].qts) + rss_kb(k->r.n[1].qts));
    for (int i = 0; i < 3; i++) {
        node_stop(&k->r.n[i]);
    }
    g_assert_cmpuint(k->migrations, ==, 2);
    for (int i = 0; i < SOAK__MAX; i++) {
        /* faults are rare: most of every kind of operation succeeds */
        g_assert_cmpuint(k->rows[i].ok * 2, >, k->rows[i].ops);
    }
    g_assert_cmpuint(total.hangs, ==, 0);
    g_assert_cmpuint(total.mismatches, ==, 0);
    g_free(k);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/soak/mixed-traffic-faults-migration",
                   test_soak);
    return g_test_run();
}
