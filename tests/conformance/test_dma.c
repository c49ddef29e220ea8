/*
 * Peer bulk DMA between engines (endpoint.md 4, oetp-engine.txt "Transfer
 * sequencing and timeouts", "Multicast write completion"): block lengths,
 * fragmentation, MFS snapshot, one fragment in flight, round robin, RMEM
 * priority, abort on first error and error precedence, multicast with
 * response suppression, backpressure.
 */
#include <string.h>

#include "harness.h"

#define LA 0x1003u      /* unaligned local base */
#define RB 0x20001u     /* unaligned remote base */

typedef struct Pair {
    HWorld *w;
    HNode *a, *b;
} Pair;

static Pair pair(void)
{
    Pair p;
    p.w = hw_new();
    p.a = hw_engine(p.w, "A", H_MAC_A, NULL);
    p.b = hw_engine(p.w, "B", H_MAC_B, NULL);
    return p;
}

static uint32_t dma_code(uint32_t v)
{
    return H_GET(v, OE_PEER_DMA_ERROR_CODE);
}

static void check_done(HNode *n, unsigned idx, uint32_t v)
{
    H_CHECKF(H_GET(v, OE_PEER_DMA_DONE) && !H_GET(v, OE_PEER_DMA_ERROR) &&
             H_GET(v, OE_PEER_DMA_IDLE), "%s peer %u: dma=0x%08x (code %s)",
             n->name, idx, v, oe_error_name(dma_code(v)));
}

static void check_failed(HNode *n, unsigned idx, uint32_t v, unsigned code)
{
    H_CHECKF(!H_GET(v, OE_PEER_DMA_DONE) && H_GET(v, OE_PEER_DMA_ERROR) &&
             H_GET(v, OE_PEER_DMA_IDLE) && dma_code(v) == code,
             "%s peer %u: dma=0x%08x (%s), want error %u (%s)", n->name, idx,
             v, oe_error_name(dma_code(v)), code, oe_error_name(code));
}

/* Source bytes at src, destination dst: dst == pattern, guards intact. */
static void check_copied(HNode *dn, uint32_t dst, uint32_t len, unsigned seed)
{
    uint8_t *d = hm_ptr(&dn->mem, dst - 1, (uint64_t)len + 2);

    H_CHECKF(d[0] == 0 && d[len + 1] == 0, "%s: bytes around the block "
             "changed (%02x %02x)", dn->name, d[0], d[len + 1]);
    for (uint32_t i = 0; i < len; i++) {
        H_CHECKF(d[1 + i] == hm_pattern_byte(i, seed),
                 "%s: byte %u of the block is %02x, want %02x", dn->name, i,
                 d[1 + i], hm_pattern_byte(i, seed));
    }
}

static void run_block(bool push, uint32_t len, uint32_t mfs)
{
    Pair p = pair();
    HNode *src = push ? p.a : p.b, *dst = push ? p.b : p.a;
    uint32_t sa = push ? LA : RB, da = push ? RB : LA;
    uint32_t frags = (len + mfs - 1) / mfs;
    int req = push ? OETP_DMA_WRITE_REQ : OETP_DMA_READ_REQ;

    hx_mirror(p.a, 1, p.b, 2, push, LA, RB, len);
    if (mfs != 8160) {
        hn_wr(p.a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, mfs);
    }
    hm_pattern(&src->mem, sa, len, len);
    hm_log_clear(&src->mem);
    hm_log_clear(&dst->mem);
    check_done(p.a, 1, hn_dma_run(p.a, 1));
    check_copied(dst, da, len, len);
    H_EQ(hn_count_tx(p.a, req), frags);
    for (uint32_t i = 0; i < frags; i++) {
        const HFrame *f = hn_tx_nth(p.a, req, i);
        uint32_t flen = i + 1 < frags ? mfs : len - mfs * (frags - 1);
        H_EQ(hf_param(f, 2), RB + i * mfs);
        H_EQ(hf_param(f, 3), flen);
        H_EQ(hf_dst(f), H_MAC_B);
        H_EQ(hf_src(f), H_MAC_A);
        if (i) {
            H_EQ(hf_param(f, 1), hf_param(hn_tx_nth(p.a, req, i - 1), 1) + 1);
        }
        if (push) {
            H_EQ(f->len, 32 + 4 * ((flen + 3) / 4));
        }
    }
    /* Exactly the block's bytes were read and written, once. */
    H_CHECK(hm_log_within(&src->mem, HM_READ, sa, (uint64_t)sa + len));
    H_CHECK(hm_log_within(&dst->mem, HM_WRITE, da, (uint64_t)da + len));
    H_EQ(hm_log_bytes(&dst->mem, HM_WRITE), len);
    H_EQ(hm_log_count(&dst->mem, HM_READ), 0);
    H_EQ(hm_log_count(&src->mem, HM_WRITE), 0);
    /* Receivers record nothing on success. */
    H_EQ(hn_dma(p.b, 2) & OE_PEER_DMA_ERROR_MASK, 0);
}

static const uint32_t block_lengths[] = {
    1, 3, 4, 5, 8, 8159, 8160, 8161, 20000, 70001,
};

static void dma_push_block_lengths(void)
{
    for (size_t i = 0; i < sizeof(block_lengths) / sizeof(block_lengths[0]);
         i++) {
        run_block(true, block_lengths[i], 8160);
    }
}

static void dma_pull_block_lengths(void)
{
    for (size_t i = 0; i < sizeof(block_lengths) / sizeof(block_lengths[0]);
         i++) {
        run_block(false, block_lengths[i], 8160);
    }
}

static void dma_mfs_fragmentation_push_and_pull(void)
{
    run_block(true, 2500, 1000);
    run_block(false, 2500, 1000);
    run_block(true, 13, 4);
    run_block(false, 13, 4);
    run_block(true, 8161, 8160);
}

static void dma_large_block_1mib_unaligned(void)
{
    Pair p = pair();
    const uint32_t len = (1u << 20) + 3;

    hm_region(&p.a->mem, 0x100000, 0x110000);
    hm_region(&p.b->mem, 0x300000, 0x110000);
    hx_mirror(p.a, 0, p.b, 0, true, 0x100001, 0x300002, len);
    hm_pattern(&p.a->mem, 0x100001, len, 77);
    check_done(p.a, 0, hn_dma_run(p.a, 0));
    check_copied(p.b, 0x300002, len, 77);
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), (len + 8159) / 8160);
}

/*
 * A 3000-byte push from a (entry 0) to b, fragments of mfs bytes, b's replies
 * delayed 1000 cycles: returns with the first fragment sent and unanswered,
 * so a test can reconfigure a while its block runs.
 */
static void start_held_push(HWorld *w, HNode *a, HNode *b, uint32_t mfs,
                            unsigned seed)
{
    hx_mirror(a, 0, b, 0, true, LA, RB, 3000);
    hm_pattern(&a->mem, LA, 3000, seed);
    hn_wr(a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, mfs);
    hw_add_fault(w, &(HFault){ .kind = HF_DELAY, .src = 1, .dst = 0,
                               .cmd = -1, .delay = 1000 });
    hn_dma_request(a, 0);
    hw_settle(w);
    H_EQ(hn_count_tx(a, OETP_DMA_WRITE_REQ), 1);
}

/* The effective MFS is snapshotted when the block is accepted. */
static void dma_mfs_snapshot_at_acceptance(void)
{
    Pair p = pair();

    start_held_push(p.w, p.a, p.b, 1003, 1);
    hn_wr(p.a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 4);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    check_done(p.a, 0, hn_dma(p.a, 0));
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 3);
    for (unsigned i = 0; i < 3; i++) {
        H_EQ(hf_param(hn_tx_nth(p.a, OETP_DMA_WRITE_REQ, i), 3),
             1000);
    }
    check_copied(p.b, RB, 3000, 1);
    /* The next block uses the new value. */
    check_done(p.a, 0, hn_dma_run(p.a, 0));
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 3 + 750);
}

/*
 * The initiator looks the peer entry up for every fragment it accepts
 * (oetp-engine.txt: it snapshots the MAC addresses at command acceptance;
 * endpoint.md 4.1 snapshots mode, bases, size and MFS, not the MAC): a MAC
 * rewritten while a block runs applies from the next fragment on.
 */
static void dma_fragment_goes_to_the_entrys_current_mac(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);
    HNode *c = hw_engine(w, "C", H_MAC_C, NULL);

    hx_mirror(a, 1, c, 0, true, LA, RB, 3000);   /* C accepts A's writes */
    start_held_push(w, a, b, 1000, 4);
    hn_wr64(a, OE_PEER_MAC_ADDRESS(0), H_MAC_C);
    H_CHECK(hw_run_idle(w, 1 << 20));
    check_done(a, 0, hn_dma(a, 0));
    H_EQ(hn_count_tx(a, OETP_DMA_WRITE_REQ), 3);
    H_EQ(hf_dst(hn_tx_nth(a, OETP_DMA_WRITE_REQ, 0)), H_MAC_B);
    H_EQ(hf_dst(hn_tx_nth(a, OETP_DMA_WRITE_REQ, 1)), H_MAC_C);
    H_EQ(hf_dst(hn_tx_nth(a, OETP_DMA_WRITE_REQ, 2)), H_MAC_C);
    H_CHECK(memcmp(hm_ptr(&b->mem, RB, 1000), hm_ptr(&a->mem, LA, 1000),
                   1000) == 0);
    H_CHECK(memcmp(hm_ptr(&c->mem, RB + 1000, 2000),
                   hm_ptr(&a->mem, LA + 1000, 2000), 2000) == 0);
}

/* An entry that no longer holds a DMA mode fails the block's next fragment
 * with code 1 (the lookup by index matches modes 2 and 3 only). */
static void dma_entry_disabled_mid_block_fails_next_fragment(void)
{
    Pair p = pair();

    start_held_push(p.w, p.a, p.b, 1000, 5);
    hn_wr(p.a, OE_PEER_DMA(0), 0);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    check_failed(p.a, 0, hn_dma(p.a, 0), OE_ERR_LOCAL_INVALID);
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 1);
}

/*
 * At most one locally initiated unicast request on the wire: between two
 * requests of A, the reply to the first was delivered to A.
 */
static void check_one_in_flight(HNode *a)
{
    const HFrame *prev = NULL;

    for (size_t i = 0; i < a->tx.n; i++) {
        const HFrame *f = &a->tx.v[i];
        uint8_t c = hf_cmd(f);
        bool answered = false;
        if (c != OETP_DMA_WRITE_REQ && c != OETP_DMA_READ_REQ &&
            c != OETP_RMEM_READ_REQ && c != OETP_RMEM_WRITE_REQ) {
            continue;
        }
        if (oetp_mac_is_group(hf_dst(f))) {
            prev = NULL;
            continue;
        }
        if (prev) {
            for (size_t k = 0; k < a->rx.n; k++) {
                const HFrame *r = &a->rx.v[k];
                uint8_t rc = hf_cmd(r);
                if (r->seq > prev->seq && r->seq < f->seq &&
                    (rc == (hf_cmd(prev) | 1) || rc == OETP_ERROR_RSP) &&
                    hf_param(r, 1) == hf_param(prev, 1)) {
                    answered = true;
                }
            }
            H_CHECKF(answered, "%s sent request %zu (RID %u) before the "
                     "reply to RID %u", a->name, i, hf_param(f, 1),
                     hf_param(prev, 1));
        }
        prev = f;
    }
}

static void dma_one_fragment_in_flight_across_peers(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);
    HNode *c = hw_engine(w, "C", H_MAC_C, NULL);

    hx_mirror(a, 0, b, 0, true, 0x1000, 0x8000, 30000);
    hx_mirror(a, 1, c, 0, false, 0x10000, 0x9000, 30000);
    hm_pattern(&a->mem, 0x1000, 30000, 2);
    hm_pattern(&c->mem, 0x9000, 30000, 3);
    hw_add_fault(w, &(HFault){ .kind = HF_DELAY, .src = -1, .dst = 0,
                               .cmd = -1, .delay = 333 });
    hn_dma_request(a, 0);
    hn_dma_request(a, 1);
    H_CHECK(hw_run_idle(w, 1 << 24));
    check_done(a, 0, hn_dma(a, 0));
    check_done(a, 1, hn_dma(a, 1));
    check_copied(b, 0x8000, 30000, 2);
    check_copied(a, 0x10000, 30000, 3);
    check_one_in_flight(a);
}

/* Fragments of two active peers alternate. */
static void dma_round_robin_between_peers(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);
    HNode *c = hw_engine(w, "C", H_MAC_C, NULL);
    size_t n;
    uint64_t last = 0;
    unsigned to_b = 0, to_c = 0;

    hx_mirror(a, 0, b, 0, true, 0x1000, 0x8000, 24);
    hx_mirror(a, 3, c, 1, true, 0x2000, 0x9000, 24);
    hn_wr(a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 8);
    hn_dma_request(a, 3);
    hn_dma_request(a, 0);
    H_CHECK(hw_run_idle(w, 1 << 20));
    check_done(a, 0, hn_dma(a, 0));
    check_done(a, 3, hn_dma(a, 3));
    n = hn_count_tx(a, OETP_DMA_WRITE_REQ);
    H_EQ(n, 6);
    for (size_t i = 0; i < n; i++) {
        uint64_t d = hf_dst(hn_tx_nth(a, OETP_DMA_WRITE_REQ, i));
        H_CHECKF(d != last, "fragment %zu goes to the same peer as the "
                 "previous one while both blocks are active", i);
        last = d;
        to_b += d == H_MAC_B;
        to_c += d == H_MAC_C;
    }
    H_EQ(to_b, 3);
    H_EQ(to_c, 3);
}

/* A pending RMEM access takes the next free request slot ahead of the next
 * unsent fragment, without pre-empting the fragment already sent. */
static void dma_rmem_takes_next_free_slot(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);
    HNode *c = hw_engine(w, "C", H_MAC_C, NULL);
    uint32_t v;

    hx_mirror(a, 0, b, 0, true, 0x1000, 0x8000, 32);
    hn_wr(a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 8);
    hn_peer(a, 1, &(HPeer){ .mac = H_MAC_C, .rmem_address = 0,
                            .remote_address = 0x500, .size = 0x100,
                            .mode = 1 });
    hn_peer(c, 0, &(HPeer){ .mac = H_MAC_A, .local_address = 0x500,
                            .size = 0x100, .mode = 1 });
    hm_put(&c->mem, 0x504, "\x11\x22\x33\x44", 4);
    hw_add_fault(w, &(HFault){ .kind = HF_DELAY, .src = 1, .dst = 0,
                               .cmd = -1, .delay = 100 });
    hn_dma_request(a, 0);
    hw_settle(w);
    H_EQ(hn_count_tx(a, -1), 1);
    H_EQ(hn_csr_read(a, H_RMEM(4), 4, &v), OE_CSR_PENDING);
    hw_settle(w);
    /* The fragment on the wire is not pre-empted. */
    H_EQ(hn_count_tx(a, -1), 1);
    v = hn_wait_csr(a, 1 << 20);
    H_EQ(v, 0x44332211);
    H_CHECK(hw_run_idle(w, 1 << 20));
    check_done(a, 0, hn_dma(a, 0));
    H_EQ(hf_cmd(&a->tx.v[0]), OETP_DMA_WRITE_REQ);
    H_EQ(hf_cmd(&a->tx.v[1]), OETP_RMEM_READ_REQ);
    for (size_t i = 2; i < 5; i++) {
        H_EQ(hf_cmd(&a->tx.v[i]), OETP_DMA_WRITE_REQ);
    }
    H_EQ(a->tx.n, 5);
    check_one_in_flight(a);
}

/* The first failing fragment fixes the error; unsent fragments are
 * discarded; nothing is rolled back or retried. */
static void dma_abort_on_first_remote_error(void)
{
    Pair p = pair();
    const uint32_t len = 4 * 8160;

    hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x20000, len);
    hm_pattern(&p.a->mem, 0x1000, len, 4);
    hm_error(&p.b->mem, 0x20000 + 8160 + 100, 1, OE_MEM_SLVERR, HM_WRITE);
    check_failed(p.a, 0, hn_dma_run(p.a, 0), OE_ERR_REMOTE_WR_SLVERR);
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 2);
    for (uint32_t i = 0; i < 8160; i++) {
        H_EQ(hm_ptr(&p.b->mem, 0x20000 + i, 1)[0], hm_pattern_byte(i, 4));
    }
    H_CHECK(hm_log_within(&p.b->mem, HM_WRITE, 0x20000, 0x20000 + 2 * 8160));
    /* The responder recorded its local cause and answered ERROR_RSP 6. */
    H_EQ(dma_code(hn_dma(p.b, 0)), OE_ERR_LOCAL_WR_SLVERR);
    H_EQ(hf_param(hn_tx_nth(p.b, OETP_ERROR_RSP, 0), 2), OETP_CAUSE_WR_SLVERR);
    H_EQ(hn_count_tx(p.b, OETP_ERROR_RSP), 1);
}

static void dma_remote_decerr_maps_to_15(void)
{
    Pair p = pair();

    hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x20000, 100);
    hm_error(&p.b->mem, 0x20000, 1, OE_MEM_DECERR, HM_WRITE);
    check_failed(p.a, 0, hn_dma_run(p.a, 0), OE_ERR_REMOTE_WR_DECERR);
    H_EQ(dma_code(hn_dma(p.b, 0)), OE_ERR_LOCAL_WR_DECERR);
}

/*
 * A responder's source read failing: either ERROR_RSP with the local cause
 * (failure known before the reply started: initiator records 8 + cause) or
 * a reply cut short without EndOfData (initiator records 10). Either way
 * the responder records its local cause and the block stops.
 */
static void dma_pull_remote_read_error(void)
{
    static const OeMemStatus sts[] = { OE_MEM_SLVERR, OE_MEM_DECERR };

    for (unsigned k = 0; k < 2; k++) {
        Pair p = pair();
        const uint32_t len = 3 * 8160;
        unsigned local = sts[k] == OE_MEM_SLVERR ? OE_ERR_LOCAL_RD_SLVERR :
                         OE_ERR_LOCAL_RD_DECERR;
        uint32_t v;
        const HFrame *f;

        hx_mirror(p.a, 0, p.b, 0, false, 0x1000, 0x20000, len);
        hm_error(&p.b->mem, 0x20000 + 8160 + 5000, 1, sts[k], HM_READ);
        v = hn_dma_run(p.a, 0);
        H_EQ(hn_count_tx(p.a, OETP_DMA_READ_REQ), 2);
        H_EQ(dma_code(hn_dma(p.b, 0)), local);
        f = &p.b->tx.v[p.b->tx.n - 1];
        if (hf_cmd(f) == OETP_ERROR_RSP) {
            H_EQ(hf_param(f, 2), local);
            check_failed(p.a, 0, v, 8 + local);
        } else {
            H_EQ(hf_cmd(f), OETP_DMA_READ_RSP);
            H_CHECKF(f->len < 14 + 2 + 4 + 8160 + 4, "a failed source must "
                     "not end its reply with EndOfData");
            check_failed(p.a, 0, v, OE_ERR_REMOTE_AXIS);
        }
        H_CHECK(hm_log_within(&p.a->mem, HM_WRITE, 0x1000, 0x1000 + 2 * 8160));
    }
}

/* A local source read error wins over whatever the remote end reports. */
static void dma_local_read_error_wins(void)
{
    static const OeMemStatus sts[] = { OE_MEM_SLVERR, OE_MEM_DECERR };

    for (unsigned k = 0; k < 2; k++) {
        Pair p = pair();
        const uint32_t len = 3 * 8160;

        hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x20000, len);
        hm_error(&p.a->mem, 0x1000 + 8160 + 7000, 1, sts[k], HM_READ);
        check_failed(p.a, 0, hn_dma_run(p.a, 0),
                     sts[k] == OE_MEM_SLVERR ? OE_ERR_LOCAL_RD_SLVERR :
                                               OE_ERR_LOCAL_RD_DECERR);
        H_CHECK(hn_count_tx(p.a, OETP_DMA_WRITE_REQ) <= 2);
        /* A cut frame, if one was sent, fails at B as code 10. */
        if (hn_count_tx(p.a, OETP_DMA_WRITE_REQ) == 2) {
            const HFrame *f = hn_tx_nth(p.a, OETP_DMA_WRITE_REQ, 1);
            H_CHECK(f->len < 32 + 8160);
            H_EQ(dma_code(hn_dma(p.b, 0)), OE_ERR_REMOTE_AXIS);
        } else {
            H_EQ(hn_dma(p.b, 0) & OE_PEER_DMA_ERROR_MASK, 0);
        }
    }
}

static void dma_local_write_error_wins(void)
{
    static const OeMemStatus sts[] = { OE_MEM_SLVERR, OE_MEM_DECERR };

    for (unsigned k = 0; k < 2; k++) {
        Pair p = pair();

        hx_mirror(p.a, 0, p.b, 0, false, 0x1000, 0x20000, 20000);
        hm_error(&p.a->mem, 0x1000 + 9000, 1, sts[k], HM_WRITE);
        check_failed(p.a, 0, hn_dma_run(p.a, 0),
                     sts[k] == OE_MEM_SLVERR ? OE_ERR_LOCAL_WR_SLVERR :
                                               OE_ERR_LOCAL_WR_DECERR);
        H_EQ(hn_count_tx(p.a, OETP_DMA_READ_REQ), 2);
        H_EQ(hn_dma(p.b, 0) & OE_PEER_DMA_ERROR_MASK, 0);
    }
}

/* request stays 1 while the peer is busy; the block runs again after. */
static void dma_request_waits_for_idle_peer(void)
{
    Pair p = pair();
    uint32_t v;

    hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x20000, 20000);
    hw_add_fault(p.w, &(HFault){ .kind = HF_DELAY, .src = 1, .dst = 0,
                                 .cmd = -1, .delay = 50 });
    hn_dma_request(p.a, 0);
    hw_settle(p.w);
    v = hn_dma(p.a, 0);
    H_CHECKF(!H_GET(v, OE_PEER_DMA_IDLE) && !H_GET(v, OE_PEER_DMA_REQUEST),
             "accepted block: dma=0x%08x", v);
    hn_dma_request(p.a, 0);
    v = hn_dma(p.a, 0);
    H_CHECKF(H_GET(v, OE_PEER_DMA_REQUEST) && !H_GET(v, OE_PEER_DMA_IDLE),
             "queued request: dma=0x%08x", v);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    check_done(p.a, 0, hn_dma(p.a, 0));
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 6);
}

/* Both ends initiate at once (A pushes to B while B pulls from A):
 * responses are served while each waits for its own. */
static void dma_both_ends_initiate_without_deadlock(void)
{
    Pair p = pair();

    /* A's entry: mode 3 (push, admits reads); B's: mode 2 (pull, admits
     * writes). */
    hn_peer(p.a, 0, &(HPeer){ .mac = H_MAC_B, .local_address = 0x1000,
                              .remote_address = 0x20000, .size = 40000,
                              .mode = 3 });
    hn_peer(p.b, 0, &(HPeer){ .mac = H_MAC_A, .local_address = 0x20000,
                              .remote_address = 0x1000, .size = 40000,
                              .mode = 2 });
    hm_pattern(&p.a->mem, 0x1000, 40000, 9);
    hn_dma_request(p.a, 0);
    hn_dma_request(p.b, 0);
    H_CHECK(hw_run_idle(p.w, 1 << 24));
    check_done(p.a, 0, hn_dma(p.a, 0));
    check_done(p.b, 0, hn_dma(p.b, 0));
    check_copied(p.b, 0x20000, 40000, 9);
    check_one_in_flight(p.a);
    check_one_in_flight(p.b);
}

/* With the transmit path closed no locally initiated frame starts, but
 * replies to received requests still go out. */
static void dma_tx_backpressure_holds_requests_not_replies(void)
{
    Pair p = pair();
    HNode *c = hw_scripted(p.w, "C", H_MAC_C);
    uint8_t f[64];
    const HFrame *r;

    hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x20000, 100);
    hn_peer(p.a, 1, &(HPeer){ .mac = H_MAC_C, .local_address = 0x3000,
                              .size = 0x100, .mode = 1 });
    hm_put(&p.a->mem, 0x3000, "\x0d\xf0\xfe\xca", 4);
    hn_tx_open(p.a, false);
    hn_dma_request(p.a, 0);
    hw_run_for(p.w, 1000);
    H_EQ(hn_count_tx(p.a, -1), 0);
    /* C's RMEM read of A is still answered. */
    hn_send(c, f, oetp_build_rmem_read_req(f, H_MAC_A, H_MAC_C, 7, 0x3000));
    hw_run_for(p.w, 10);
    hn_skip_rx(c);
    r = &c->rx.v[c->rx.n - 1];
    H_EQ(hf_cmd(r), OETP_RMEM_READ_RSP);
    H_EQ(hf_param(r, 2), 0xcafef00d);
    H_EQ(hn_count_tx(p.a, OETP_RMEM_READ_RSP), 1);
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 0);
    hn_tx_open(p.a, true);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    check_done(p.a, 0, hn_dma(p.a, 0));
}

/* A transmit path that accepts one frame at a time still completes. */
static void dma_tx_budget_one_frame_per_advance(void)
{
    Pair p = pair();

    hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x20000, 30000);
    hm_pattern(&p.a->mem, 0x1000, 30000, 5);
    hn_dma_request(p.a, 0);
    for (int i = 0; i < 100 && !H_GET(hn_dma(p.a, 0), OE_PEER_DMA_DONE); i++) {
        p.a->tx_budget = 1;
        hw_run_for(p.w, 10);
        p.a->tx_budget = 0;
        hw_run_for(p.w, 10);
    }
    p.a->tx_budget = -1;
    check_done(p.a, 0, hn_dma(p.a, 0));
    check_copied(p.b, 0x20000, 30000, 5);
}

/*
 * One master, two slaves on one segment: group writes reach both, nobody
 * replies (success or error), the master completes each fragment once it
 * has left, with no timer; a slave whose window is too small records the
 * error locally only; a lost fragment is simply lost.
 */
static void dma_multicast_to_two_slaves_with_suppression(void)
{
    HWorld *w = hw_new();
    HNode *m = hw_engine(w, "M", H_MAC_A, NULL);
    HNode *s1 = hw_engine(w, "S1", H_MAC_B, NULL);
    HNode *s2 = hw_engine(w, "S2", H_MAC_C, NULL);
    const uint32_t len = 20000;

    hn_peer(m, 0, &(HPeer){ .mac = H_MAC_G, .local_address = 0x1000,
                            .remote_address = 0x8000, .size = len,
                            .mode = 3 });
    hn_wr(m, OE_CONFIG_DMA_TIMEOUT, 10);
    for (int i = 0; i < 2; i++) {
        HNode *s = i ? s2 : s1;
        hn_set_mcast(s, H_MAC_G);
        hn_peer(s, 1, &(HPeer){ .mac = H_MAC_A, .local_address = 0x8000,
                                .size = len, .mode = 2 });
    }
    hm_pattern(&m->mem, 0x1000, len, 6);
    check_done(m, 0, hn_dma_run(m, 0));
    check_copied(s1, 0x8000, len, 6);
    check_copied(s2, 0x8000, len, 6);
    H_EQ(hn_count_tx(m, OETP_DMA_WRITE_REQ), 3);
    for (unsigned i = 0; i < 3; i++) {
        H_EQ(hf_dst(hn_tx_nth(m, OETP_DMA_WRITE_REQ, i)), H_MAC_G);
        H_EQ(hf_src(hn_tx_nth(m, OETP_DMA_WRITE_REQ, i)), H_MAC_A);
    }
    H_EQ(hn_count_tx(s1, -1), 0);
    H_EQ(hn_count_tx(s2, -1), 0);

    /* S2 admits only 10000 bytes: fragments 2 and 3 fail there, silently. */
    hn_wr(s2, OE_PEER_SIZE(1), 10000);
    memset(hm_ptr(&s1->mem, 0x8000, len), 0, len);
    check_done(m, 0, hn_dma_run(m, 0));
    check_copied(s1, 0x8000, len, 6);
    H_EQ(hn_count_tx(s2, -1), 0);
    H_EQ(dma_code(hn_dma(s2, 1)), OE_ERR_LOCAL_INVALID);

    /* Best effort: a fragment lost on the way to S1 stays lost. */
    memset(hm_ptr(&s1->mem, 0x8000, len), 0, len);
    hw_add_fault(w, &(HFault){ .kind = HF_DROP, .src = 0, .dst = 1,
                               .cmd = OETP_DMA_WRITE_REQ, .count = 1 });
    check_done(m, 0, hn_dma_run(m, 0));
    H_EQ(hm_ptr(&s1->mem, 0x8000, 1)[0], 0);
    H_EQ(hm_ptr(&s1->mem, 0x8000 + 8160, 1)[0], hm_pattern_byte(8160, 6));
    H_EQ(hn_count_tx(s1, -1), 0);
}

/* Group writes are best effort: each still takes a Request ID. */
static void dma_multicast_fragments_take_request_ids(void)
{
    Pair p = pair();

    hn_peer(p.a, 0, &(HPeer){ .mac = H_MAC_G, .local_address = 0x1000,
                              .remote_address = 0x8000, .size = 12,
                              .mode = 3 });
    hn_wr(p.a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 4);
    hn_set_request_id(p.a, 0x10);
    check_done(p.a, 0, hn_dma_run(p.a, 0));
    for (unsigned i = 0; i < 3; i++) {
        H_EQ(hf_param(hn_tx_nth(p.a, OETP_DMA_WRITE_REQ, i), 1), 0x10 + i);
    }
}

/* A group write completes once its frame has left: not while the
 * transmit path holds it back. The same for a group RMEM store. */
static void dma_multicast_completes_when_frame_has_left(void)
{
    Pair p = pair();
    uint32_t v;

    hn_peer(p.a, 0, &(HPeer){ .mac = H_MAC_G, .local_address = 0x1000,
                              .remote_address = 0x8000, .size = 100,
                              .mode = 3 });
    hn_tx_open(p.a, false);
    hn_dma_request(p.a, 0);
    hw_run_for(p.w, 5000);
    v = hn_dma(p.a, 0);
    H_CHECKF(!H_GET(v, OE_PEER_DMA_DONE), "done before the frame left: 0x%08x",
             v);
    hn_tx_open(p.a, true);
    hw_settle(p.w);
    check_done(p.a, 0, hn_dma(p.a, 0));

    hn_peer(p.a, 1, &(HPeer){ .mac = H_MAC_G, .remote_address = 0x9000,
                              .size = 0x10, .mode = 1 });
    hn_tx_open(p.a, false);
    if (hn_csr_write(p.a, H_RMEM(4), 4, 0x5A5A5A5A) == OE_CSR_PENDING) {
        hw_run_for(p.w, 5000);
        H_CHECKF(p.a->csr_pending, "group store completed before its frame "
                 "left");
        hn_tx_open(p.a, true);
        hw_settle(p.w);
        H_CHECK(!p.a->csr_pending);
    } else {
        h_fail(__FILE__, __LINE__, "group store completed at once with the "
               "transmit path closed");
    }
    H_EQ(hf_cmd(&p.a->tx.v[p.a->tx.n - 1]), OETP_RMEM_WRITE_REQ);
    H_EQ(hf_dst(&p.a->tx.v[p.a->tx.n - 1]), H_MAC_G);
}

/* Response suppression does not suppress initiator-local diagnostics. */
static void dma_multicast_local_failure_is_recorded(void)
{
    Pair p = pair();

    hn_peer(p.a, 0, &(HPeer){ .mac = H_MAC_G, .local_address = 0x1000,
                              .remote_address = 0x8000, .size = 30000,
                              .mode = 3 });
    hm_error(&p.a->mem, 0x1000 + 9000, 1, OE_MEM_SLVERR, HM_READ);
    check_failed(p.a, 0, hn_dma_run(p.a, 0), OE_ERR_LOCAL_RD_SLVERR);
    H_CHECK(hn_count_tx(p.a, OETP_DMA_WRITE_REQ) <= 2);
}

/*
 * A request written while the peer's block is active waits (request stays
 * 1) and is accepted once the peer is idle. With group writes no reply
 * comes back to wake the engine: it must resume on its own (wake-up), not
 * when the host happens to call it again. hw_run_idle checks that the
 * engine is really idle.
 */
static void dma_queued_group_block_starts_by_itself(void)
{
    Pair p = pair();
    uint32_t v;

    hn_peer(p.a, 0, &(HPeer){ .mac = H_MAC_G, .local_address = 0x1000,
                              .remote_address = 0x8000, .size = 100,
                              .mode = 3 });
    hn_tx_open(p.a, false);
    hn_dma_request(p.a, 0);
    hw_settle(p.w);
    hn_dma_request(p.a, 0);
    hn_tx_open(p.a, true);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    v = hn_dma(p.a, 0);
    H_CHECKF(!H_GET(v, OE_PEER_DMA_REQUEST), "second block never started: "
             "dma=0x%08x", v);
    check_done(p.a, 0, v);
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 2);
}

/* The same when the first block ends with a local read error before any
 * frame: the queued request must be taken up without another host call. */
static void dma_queued_block_after_local_failure_starts_by_itself(void)
{
    Pair p = pair();
    uint32_t v;

    hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x8000, 100);
    hm_error(&p.a->mem, 0x1000, 1, OE_MEM_DECERR, HM_READ);
    hn_tx_open(p.a, false);
    hn_dma_request(p.a, 0);
    hw_settle(p.w);
    hn_dma_request(p.a, 0);
    hn_tx_open(p.a, true);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    v = hn_dma(p.a, 0);
    H_CHECKF(!H_GET(v, OE_PEER_DMA_REQUEST), "second block never started: "
             "dma=0x%08x", v);
    check_failed(p.a, 0, v, OE_ERR_LOCAL_RD_DECERR);
    H_EQ(hm_log_count(&p.a->mem, HM_READ), 2);
}

/* While the transmit path is closed the engine waits for the host's next
 * advance (engine.h tx_ready): it asks for no wake-ups in the meantime, so
 * a long stall costs the host nothing. */
static void dma_no_polling_while_tx_blocked(void)
{
    Pair p = pair();
    uint64_t calls;

    hx_mirror(p.a, 0, p.b, 0, true, 0x1000, 0x8000, 100);
    hn_wr(p.a, OE_RAW_TX_FRAME_LENGTH, 64);
    hn_tx_open(p.a, false);
    hn_dma_request(p.a, 0);
    hn_wr(p.a, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(p.w);
    calls = p.w->calls;
    hw_run_for(p.w, 1000000);
    H_CHECKF(p.w->calls - calls < 100, "%llu engine calls in 1e6 blocked "
             "cycles", (unsigned long long)(p.w->calls - calls));
    hn_tx_open(p.a, true);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    check_done(p.a, 0, hn_dma(p.a, 0));
    H_EQ(hn_count_tx(p.a, -1), 2);
}

/* A pending RMEM access takes the free request slot before the unsent
 * fragments of an accepted group block; the block follows by itself once
 * the access has ended. */
static void dma_rmem_goes_before_unsent_group_fragments(void)
{
    Pair p = pair();
    HNode *c = hw_scripted(p.w, "C", H_MAC_C);
    uint32_t v;
    uint8_t f[64];

    hn_peer(p.a, 0, &(HPeer){ .mac = H_MAC_G, .local_address = 0x1000,
                              .remote_address = 0x8000, .size = 20000,
                              .mode = 3 });
    hn_peer(p.a, 1, &(HPeer){ .mac = H_MAC_C, .remote_address = 0x500,
                              .size = 0x10, .mode = 1 });
    hn_tx_open(p.a, false);
    hn_dma_request(p.a, 0);
    hw_settle(p.w);
    H_EQ(hn_csr_read(p.a, H_RMEM(0), 4, &v), OE_CSR_PENDING);
    hn_tx_open(p.a, true);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    H_EQ(hn_count_tx(p.a, -1), 1);
    H_EQ(hf_cmd(&p.a->tx.v[0]), OETP_RMEM_READ_REQ);
    hn_send(c, f, oetp_build_rmem_read_rsp(f, H_MAC_A, H_MAC_C,
                                           hf_param(&p.a->tx.v[0], 1),
                                           0x600d));
    H_EQ(hn_wait_csr(p.a, 1000), 0x600d);
    H_CHECK(hw_run_idle(p.w, 1 << 20));
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 3);
    check_done(p.a, 0, hn_dma(p.a, 0));
}

/* Windows that end exactly at 2^32 are valid (widened arithmetic); the
 * page-by-page memory accesses must not wrap around at the top. */
static void dma_windows_ending_at_4gib(void)
{
    for (int push = 0; push < 2; push++) {
        Pair p = pair();
        const uint32_t len = 0x5003;
        const uint32_t top = (uint32_t)(0x100000000ull - len);

        hm_region(&p.a->mem, 0xFFFF0000, 0x10000);
        hm_region(&p.b->mem, 0xFFFF0000, 0x10000);
        hx_mirror(p.a, 0, p.b, 0, push, top, top, len);
        hm_pattern(push ? &p.a->mem : &p.b->mem, top, len, 12);
        hm_log_clear(&p.a->mem);
        hm_log_clear(&p.b->mem);
        check_done(p.a, 0, hn_dma_run(p.a, 0));
        h_check_bytes("top block", hm_ptr(&p.a->mem, top, len), len,
                      hm_ptr(&p.b->mem, top, len), len);
        H_CHECK(hm_log_within(&p.a->mem, HM_BOTH, top, 1ull << 32));
        H_CHECK(hm_log_within(&p.b->mem, HM_BOTH, top, 1ull << 32));
        H_EQ(hm_log_bytes(push ? &p.b->mem : &p.a->mem, HM_WRITE), len);
    }
}

static const HTest tests[] = {
    H_TEST(dma_push_block_lengths),
    H_TEST(dma_pull_block_lengths),
    H_TEST(dma_mfs_fragmentation_push_and_pull),
    H_TEST(dma_large_block_1mib_unaligned),
    H_TEST(dma_mfs_snapshot_at_acceptance),
    H_TEST(dma_one_fragment_in_flight_across_peers),
    H_TEST(dma_round_robin_between_peers),
    H_TEST(dma_rmem_takes_next_free_slot),
    H_TEST(dma_abort_on_first_remote_error),
    H_TEST(dma_remote_decerr_maps_to_15),
    H_TEST(dma_pull_remote_read_error),
    H_TEST(dma_local_read_error_wins),
    H_TEST(dma_local_write_error_wins),
    H_TEST(dma_request_waits_for_idle_peer),
    H_TEST(dma_both_ends_initiate_without_deadlock),
    H_TEST(dma_tx_backpressure_holds_requests_not_replies),
    H_TEST(dma_tx_budget_one_frame_per_advance),
    H_TEST(dma_multicast_to_two_slaves_with_suppression),
    H_TEST(dma_multicast_fragments_take_request_ids),
    H_TEST(dma_multicast_completes_when_frame_has_left),
    H_TEST(dma_multicast_local_failure_is_recorded),
    H_TEST(dma_windows_ending_at_4gib),
    H_TEST(dma_queued_group_block_starts_by_itself),
    H_TEST(dma_queued_block_after_local_failure_starts_by_itself),
    H_TEST(dma_rmem_goes_before_unsent_group_fragments),
    H_TEST(dma_no_polling_while_tx_blocked),
    H_TEST(dma_fragment_goes_to_the_entrys_current_mac),
    H_TEST(dma_entry_disabled_mid_block_fails_next_fragment),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
