/*
 * Two engines over a faulty wire (oetp-engine.txt "Streaming receive and
 * partial transfers", "Transfer sequencing and timeouts"): lost, duplicated,
 * delayed, truncated, corrupted and MAC-padded frames end in the error the
 * spec names, never in a hang (with a timeout set), a stray memory access or
 * a second reply.
 */
#include <string.h>

#include "harness.h"

typedef struct Pair {
    HWorld *w;
    HNode *a, *b;
} Pair;

enum { NA = 0, NB = 1 };

static Pair pair(bool push, uint32_t len)
{
    Pair p;

    p.w = hw_new();
    p.a = hw_engine(p.w, "A", H_MAC_A, NULL);
    p.b = hw_engine(p.w, "B", H_MAC_B, NULL);
    hx_mirror(p.a, 0, p.b, 0, push, 0x1000, 0x20000, len);
    hm_pattern(push ? &p.a->mem : &p.b->mem, push ? 0x1000 : 0x20000, len, 8);
    hn_wr(p.a, OE_CONFIG_DMA_TIMEOUT, 1000);
    return p;
}

static void fault(Pair *p, HFaultKind k, int src, int cmd, unsigned skip,
                  unsigned count)
{
    hw_add_fault(p->w, &(HFault){ .kind = k, .src = src, .dst = -1,
                                  .cmd = cmd, .skip = skip, .count = count,
                                  .delay = 5000, .offset = -1,
                                  .xor_mask = 0x01 });
}

static uint32_t code(HNode *n)
{
    uint32_t v = hn_dma(n, 0);
    H_CHECKF(H_GET(v, OE_PEER_DMA_IDLE), "%s still busy: 0x%08x", n->name, v);
    return H_GET(v, OE_PEER_DMA_ERROR) ? H_GET(v, OE_PEER_DMA_ERROR_CODE) : 0;
}

static bool done(HNode *n)
{
    return H_GET(hn_dma(n, 0), OE_PEER_DMA_DONE);
}

static bool same(HNode *x, uint32_t xa, HNode *y, uint32_t ya, uint32_t len)
{
    return !memcmp(hm_ptr(&x->mem, xa, len), hm_ptr(&y->mem, ya, len), len);
}

static void fault_lost_request_times_out(void)
{
    Pair p = pair(true, 20000);

    fault(&p, HF_DROP, NA, OETP_DMA_WRITE_REQ, 1, 1);
    hn_dma_run(p.a, 0);
    H_EQ(code(p.a), OE_ERR_TIMEOUT);
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 2);   /* no retry */
    H_EQ(hn_count_tx(p.a, OETP_ERROR_RSP), 0);
}

static void fault_lost_reply_times_out(void)
{
    Pair p = pair(false, 20000);

    fault(&p, HF_DROP, NB, OETP_DMA_READ_RSP, 0, 1);
    hn_dma_run(p.a, 0);
    H_EQ(code(p.a), OE_ERR_TIMEOUT);
    H_EQ(hn_count_tx(p.a, OETP_DMA_READ_REQ), 1);
}

/* A delayed reply arriving after the timeout is discarded; the next block
 * is unaffected by it. */
static void fault_late_reply_is_discarded(void)
{
    Pair p = pair(false, 100);

    fault(&p, HF_DELAY, NB, OETP_DMA_READ_RSP, 0, 1);
    hn_dma_run(p.a, 0);
    H_EQ(code(p.a), OE_ERR_TIMEOUT);
    /* run_idle delivered the late reply too: nothing was written */
    H_EQ(hm_log_count(&p.a->mem, HM_WRITE), 0);
    hn_clear_error(p.a, 0);
    hn_dma_run(p.a, 0);
    H_CHECK(done(p.a));
    H_EQ(code(p.a), 0);
    H_CHECK(same(p.a, 0x1000, p.b, 0x20000, 100));
}

/* A duplicated request is executed twice (no duplicate suppression in v1)
 * and answered twice; the initiator takes the first reply and drops the
 * second. */
static void fault_duplicated_request_and_reply(void)
{
    Pair p = pair(true, 20000);

    fault(&p, HF_DUP, NA, OETP_DMA_WRITE_REQ, 0, 1);
    fault(&p, HF_DUP, NB, OETP_DMA_WRITE_RSP, 1, 1);
    hn_dma_run(p.a, 0);
    H_CHECK(done(p.a));
    H_EQ(code(p.a), 0);
    H_CHECK(same(p.a, 0x1000, p.b, 0x20000, 20000));
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 3);
    H_EQ(hn_count_tx(p.b, OETP_DMA_WRITE_RSP), 4);
    H_EQ(hn_dma(p.b, 0) & OE_PEER_DMA_ERROR_MASK, 0);
}

/* A corrupted trailer on a write: receiver records 10 and answers cause 2,
 * initiator records 10. */
static void fault_corrupted_write_trailer(void)
{
    Pair p = pair(true, 20000);

    fault(&p, HF_CORRUPT, NA, OETP_DMA_WRITE_REQ, 1, 1);
    hn_dma_run(p.a, 0);
    H_EQ(code(p.a), OE_ERR_REMOTE_AXIS);
    H_EQ(code(p.b), OE_ERR_REMOTE_AXIS);
    H_EQ(hf_param(hn_tx_nth(p.b, OETP_ERROR_RSP, 0), 2), OETP_CAUSE_AXIS);
    H_EQ(hn_count_tx(p.a, OETP_DMA_WRITE_REQ), 2);
}

static void fault_truncated_write_request(void)
{
    static const size_t cuts[] = { 14, 15, 16, 19, 20, 27, 28, 31, 32, 100,
                                   8000 };

    for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
        Pair p = pair(true, 8160);
        hw_add_fault(p.w, &(HFault){ .kind = HF_TRUNCATE, .src = NA,
                                     .dst = -1, .cmd = OETP_DMA_WRITE_REQ,
                                     .count = 1, .len = cuts[i] });
        hn_dma_run(p.a, 0);
        H_CHECKF(!done(p.a), "cut at %zu: block done", cuts[i]);
        if (cuts[i] >= 20) {
            /* Request ID intact: B answers cause 2, A records 10. */
            H_CHECKF(code(p.a) == OE_ERR_REMOTE_AXIS, "cut at %zu: code %u",
                     cuts[i], code(p.a));
        } else {
            /* nothing to answer: A's timer ends it */
            H_CHECKF(code(p.a) == OE_ERR_TIMEOUT, "cut at %zu: code %u",
                     cuts[i], code(p.a));
        }
        H_CHECK(hm_log_within(&p.b->mem, HM_WRITE, 0x20000, 0x20000 + 8160));
    }
}

static void fault_corrupted_read_reply_trailer(void)
{
    Pair p = pair(false, 20000);

    fault(&p, HF_CORRUPT, NB, OETP_DMA_READ_RSP, 1, 1);
    hn_dma_run(p.a, 0);
    H_EQ(code(p.a), OE_ERR_REMOTE_AXIS);
    H_EQ(hn_dma(p.b, 0) & OE_PEER_DMA_ERROR_MASK, 0);
    H_EQ(hn_count_tx(p.a, OETP_ERROR_RSP), 0);   /* never answered */
    H_EQ(hn_count_tx(p.a, OETP_DMA_READ_REQ), 2);
    H_CHECK(hm_log_within(&p.a->mem, HM_WRITE, 0x1000, 0x1000 + 2 * 8160));
}

static void fault_truncated_read_reply(void)
{
    Pair p = pair(false, 20000);

    hw_add_fault(p.w, &(HFault){ .kind = HF_TRUNCATE, .src = NB, .dst = -1,
                                 .cmd = OETP_DMA_READ_RSP, .count = 1,
                                 .len = 4000 });
    hn_dma_run(p.a, 0);
    H_EQ(code(p.a), OE_ERR_REMOTE_AXIS);
    H_EQ(hn_count_tx(p.a, OETP_DMA_READ_REQ), 1);
    H_CHECK(hm_log_within(&p.a->mem, HM_WRITE, 0x1000, 0x1000 + 8160));
}

/* A corrupted Request ID makes a reply unmatched: the timer ends it. */
static void fault_corrupted_reply_id_times_out(void)
{
    Pair p = pair(true, 100);

    hw_add_fault(p.w, &(HFault){ .kind = HF_CORRUPT, .src = NB, .dst = -1,
                                 .cmd = OETP_DMA_WRITE_RSP, .offset = 16,
                                 .xor_mask = 0x80 });
    hn_dma_run(p.a, 0);
    H_EQ(code(p.a), OE_ERR_TIMEOUT);
}

/* An external MAC pads every short frame to 60 bytes (zero or junk): all
 * commands still work. */
static void fault_mac_padding_everywhere(void)
{
    for (int junk = 0; junk < 2; junk++) {
        HWorld *w = hw_new();
        HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
        HNode *b = hw_engine(w, "B", H_MAC_B, NULL);
        static const uint32_t lens[] = { 1, 3, 4, 5, 13, 21 };

        hw_add_fault(w, &(HFault){ .kind = HF_PAD60, .src = -1, .dst = -1,
                                   .cmd = -1, .pad_byte = junk ? 0xA5 : 0 });
        hn_peer(a, 0, &(HPeer){ .mac = H_MAC_B, .remote_address = 0x500,
                                .size = 0x100, .mode = 1 });
        hn_peer(b, 0, &(HPeer){ .mac = H_MAC_A, .local_address = 0x500,
                                .size = 0x100, .mode = 1 });
        hn_wr(a, H_RMEM(8), 0x12345678);
        H_EQ(hn_rd(a, H_RMEM(8)), 0x12345678);
        hn_wr_sz(a, H_RMEM(9), 1, 0xAB);
        H_EQ(hn_rd(a, H_RMEM(8)), 0x1234AB78);
        /* B's entry 0 (mode 1) would win the source lookup for A. */
        hn_wr(b, OE_PEER_DMA(0), 0);
        for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
            for (int push = 0; push < 2; push++) {
                hx_mirror(a, 1, b, 1, push, 0x1000, 0x2000, lens[i]);
                hm_pattern(push ? &a->mem : &b->mem, push ? 0x1000 : 0x2000,
                           lens[i], (unsigned)(i * 2 + push));
                hn_dma_run(a, 1);
                H_CHECKF(H_GET(hn_dma(a, 1), OE_PEER_DMA_DONE) &&
                         !H_GET(hn_dma(a, 1), OE_PEER_DMA_ERROR),
                         "len %u push %d: 0x%08x", lens[i], push,
                         hn_dma(a, 1));
                H_CHECK(same(a, 0x1000, b, 0x2000, lens[i]));
            }
        }
        H_EQ(hn_dma(b, 1) & OE_PEER_DMA_ERROR_MASK, 0);
    }
}

/* RMEM over a lossy link: a lost request or reply ends in a timeout and
 * all ones, and the next access works. */
static void fault_rmem_lost_frames_time_out(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);

    hn_peer(a, 0, &(HPeer){ .mac = H_MAC_B, .remote_address = 0x500,
                            .size = 0x100, .mode = 1 });
    hn_peer(b, 0, &(HPeer){ .mac = H_MAC_A, .local_address = 0x500,
                            .size = 0x100, .mode = 1 });
    hn_wr(a, OE_CONFIG_RMEM_TIMEOUT, 500);
    hm_put(&b->mem, 0x504, "\x04\x03\x02\x01", 4);
    hw_add_fault(w, &(HFault){ .kind = HF_DROP, .src = 0, .dst = -1,
                               .cmd = OETP_RMEM_READ_REQ, .count = 1 });
    hw_add_fault(w, &(HFault){ .kind = HF_DROP, .src = 1, .dst = -1,
                               .cmd = OETP_RMEM_READ_RSP, .count = 1 });
    H_EQ(hn_rd(a, H_RMEM(4)), 0xFFFFFFFF);
    H_EQ(hn_rd(a, H_RMEM(4)), 0xFFFFFFFF);
    H_EQ(H_GET(hn_dma(a, 0), OE_PEER_DMA_ERROR_CODE), OE_ERR_TIMEOUT);
    H_EQ(hn_rd(a, H_RMEM(4)), 0x01020304);
}

static const HTest tests[] = {
    H_TEST(fault_lost_request_times_out),
    H_TEST(fault_lost_reply_times_out),
    H_TEST(fault_late_reply_is_discarded),
    H_TEST(fault_duplicated_request_and_reply),
    H_TEST(fault_corrupted_write_trailer),
    H_TEST(fault_truncated_write_request),
    H_TEST(fault_corrupted_read_reply_trailer),
    H_TEST(fault_truncated_read_reply),
    H_TEST(fault_corrupted_reply_id_times_out),
    H_TEST(fault_mac_padding_everywhere),
    H_TEST(fault_rmem_lost_frames_time_out),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
