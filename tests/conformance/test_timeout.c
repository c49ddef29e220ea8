/*
 * Response timers (oetp-engine.txt "Transfer sequencing and timeouts",
 * "RMEM failure completion"): a timer of T cycles starts when the request
 * frame is handed to the host; a valid reply delivered at start + T wins;
 * the timeout fires once time passes start + T. Values are sampled per
 * operation/fragment at acceptance; zero disables; late replies die.
 * The device under test A talks to a scripted peer B.
 */
#include "harness.h"

typedef struct Fix {
    HWorld *w;
    HNode *a, *b;
} Fix;

static Fix fix(void)
{
    Fix f;
    f.w = hw_new();
    f.a = hw_engine(f.w, "A", H_MAC_A, NULL);
    f.b = hw_scripted(f.w, "B", H_MAC_B);
    /* entry 0: RMEM slice [0, 0x100) -> B's 0x8000; entry 1: push to B;
     * entry 2: pull from B. */
    hn_peer(f.a, 0, &(HPeer){ .mac = H_MAC_B, .remote_address = 0x8000,
                              .size = 0x100, .mode = 1 });
    hn_peer(f.a, 1, &(HPeer){ .mac = H_MAC_B, .local_address = 0x1000,
                              .remote_address = 0x9000, .size = 24,
                              .mode = 3 });
    hn_peer(f.a, 2, &(HPeer){ .mac = H_MAC_B, .local_address = 0x2000,
                              .remote_address = 0xA000, .size = 24,
                              .mode = 2 });
    hm_pattern(&f.a->mem, 0x1000, 24, 1);
    return f;
}

/* The single new frame A handed over since the last call. */
static const HFrame *sent(Fix *f, uint8_t cmd)
{
    const HFrame *fr;

    hw_settle(f->w);
    fr = hn_next_tx(f->a);
    H_CHECKF(fr, "A sent nothing (want cmd 0x%02x)", cmd);
    H_CHECKF(hf_cmd(fr) == cmd, "A sent cmd 0x%02x, want 0x%02x",
             hf_cmd(fr), cmd);
    H_CHECKF(!hn_unread_tx(f->a), "A sent more than one frame");
    return fr;
}

static void reply(Fix *f, uint8_t *buf, size_t len)
{
    hn_send(f->b, buf, len);
    hw_settle(f->w);
}

static uint32_t code_of(HNode *n, unsigned idx)
{
    return H_GET(hn_dma(n, idx), OE_PEER_DMA_ERROR_CODE);
}

static void rmem_read_start(Fix *f, uint32_t off, uint32_t *rid, uint64_t *t0)
{
    uint32_t v;
    const HFrame *fr;

    H_EQ(hn_csr_read(f->a, H_RMEM(off), 4, &v), OE_CSR_PENDING);
    fr = sent(f, OETP_RMEM_READ_REQ);
    *rid = hf_param(fr, 1);
    *t0 = fr->cycle;
}

static void rmem_timeout_fires_after_t_cycles(void)
{
    Fix f = fix();
    uint32_t rid;
    uint64_t t0;

    hw_run_until(f.w, 50);
    hn_wr(f.a, OE_CONFIG_RMEM_TIMEOUT, 100);
    rmem_read_start(&f, 0, &rid, &t0);
    H_EQ(t0, 50);
    hw_run_until(f.w, t0 + 100);
    H_CHECKF(f.a->csr_pending, "timed out at or before start + T");
    hw_run_until(f.w, t0 + 101);
    H_CHECKF(!f.a->csr_pending, "no timeout at start + T + 1");
    H_EQ(f.a->csr_value, 0xFFFFFFFF);
    H_EQ(code_of(f.a, 0), OE_ERR_TIMEOUT);
    H_EQ(hn_unread_tx(f.a), 0);  /* no ERROR_RSP to a silent peer */
}

static void rmem_reply_at_expiry_wins(void)
{
    Fix f = fix();
    uint32_t rid;
    uint64_t t0;
    uint8_t buf[64];

    hn_wr(f.a, OE_CONFIG_RMEM_TIMEOUT, 100);
    rmem_read_start(&f, 4, &rid, &t0);
    hw_run_until(f.w, t0 + 100);
    H_CHECK(f.a->csr_pending);
    reply(&f, buf, oetp_build_rmem_read_rsp(buf, H_MAC_A, H_MAC_B, rid,
                                            0x12345678));
    H_CHECK(!f.a->csr_pending);
    H_EQ(f.a->csr_value, 0x12345678);
    hw_run_for(f.w, 1000);
    H_EQ(hn_dma(f.a, 0) & OE_PEER_DMA_ERROR_MASK, 0);
}

static void rmem_error_reply_at_expiry_keeps_its_cause(void)
{
    Fix f = fix();
    uint32_t rid;
    uint64_t t0;
    uint8_t buf[64];

    hn_wr(f.a, OE_CONFIG_RMEM_TIMEOUT, 100);
    rmem_read_start(&f, 4, &rid, &t0);
    hw_run_until(f.w, t0 + 100);
    reply(&f, buf, oetp_build_error_rsp(buf, H_MAC_A, H_MAC_B, rid,
                                        OETP_CAUSE_RD_DECERR));
    H_CHECK(!f.a->csr_pending);
    H_EQ(f.a->csr_value, 0xFFFFFFFF);
    hw_run_for(f.w, 1000);
    H_EQ(code_of(f.a, 0), OE_ERR_REMOTE_RD_DECERR);
}

/* A reply that does not match (wrong Request ID) does not stop the timer. */
static void rmem_unmatched_reply_does_not_stop_timer(void)
{
    Fix f = fix();
    uint32_t rid;
    uint64_t t0;
    uint8_t buf[64];

    hn_wr(f.a, OE_CONFIG_RMEM_TIMEOUT, 100);
    rmem_read_start(&f, 4, &rid, &t0);
    oetp_build_rmem_read_rsp(buf, H_MAC_A, H_MAC_B, rid + 1, 1);
    reply(&f, buf, 24);   /* wrong ID: ignored */
    hw_run_until(f.w, t0 + 101);
    H_CHECK(!f.a->csr_pending);
    H_EQ(code_of(f.a, 0), OE_ERR_TIMEOUT);
}

/* The timer starts when the request has been handed over, not when the
 * operation was accepted: a closed transmit path delays it. */
static void timer_starts_at_tx_handoff(void)
{
    Fix f = fix();
    uint32_t v;
    const HFrame *fr;

    hn_wr(f.a, OE_CONFIG_RMEM_TIMEOUT, 100);
    hn_tx_open(f.a, false);
    H_EQ(hn_csr_read(f.a, H_RMEM(0), 4, &v), OE_CSR_PENDING);
    hw_run_until(f.w, 1000);
    H_CHECK(f.a->csr_pending);
    H_EQ(hn_unread_tx(f.a), 0);
    hn_tx_open(f.a, true);
    fr = sent(&f, OETP_RMEM_READ_REQ);
    H_EQ(fr->cycle, 1000);
    hw_run_until(f.w, 1100);
    H_CHECK(f.a->csr_pending);
    hw_run_until(f.w, 1101);
    H_CHECK(!f.a->csr_pending);
    H_EQ(code_of(f.a, 0), OE_ERR_TIMEOUT);
}

static void rmem_zero_timeout_waits_forever(void)
{
    Fix f = fix();
    uint32_t rid;
    uint64_t t0;
    uint8_t buf[64];

    rmem_read_start(&f, 8, &rid, &t0);
    H_CHECK(hw_run_idle(f.w, 1ull << 40));   /* nothing left to wake for */
    hw_run_for(f.w, 1ull << 36);
    H_CHECK(f.a->csr_pending);
    reply(&f, buf, oetp_build_rmem_read_rsp(buf, H_MAC_A, H_MAC_B, rid, 9));
    H_CHECK(!f.a->csr_pending);
    H_EQ(f.a->csr_value, 9);
}

/* Each DMA fragment samples dma_timeout when it is accepted; later CSR
 * writes affect later fragments only. */
static void dma_timeout_sampled_per_fragment(void)
{
    Fix f = fix();
    const HFrame *fr;
    uint8_t buf[64];
    uint64_t t1;

    hn_wr(f.a, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 8);
    hn_wr(f.a, OE_CONFIG_DMA_TIMEOUT, 0);
    hn_dma_request(f.a, 1);
    fr = sent(&f, OETP_DMA_WRITE_REQ);
    hn_wr(f.a, OE_CONFIG_DMA_TIMEOUT, 100);
    hw_run_for(f.w, 100000);
    H_EQ(H_GET(hn_dma(f.a, 1), OE_PEER_DMA_IDLE), 0);
    reply(&f, buf, oetp_build_dma_write_rsp(buf, H_MAC_A, H_MAC_B,
                                            hf_param(fr, 1)));
    fr = sent(&f, OETP_DMA_WRITE_REQ);
    t1 = fr->cycle;
    hn_wr(f.a, OE_CONFIG_DMA_TIMEOUT, 0);
    hw_run_until(f.w, t1 + 100);
    H_EQ(H_GET(hn_dma(f.a, 1), OE_PEER_DMA_IDLE), 0);
    hw_run_until(f.w, t1 + 101);
    H_EQ(hn_dma(f.a, 1) & ~OE_PEER_DMA_MODE_MASK,
         OE_PEER_DMA_IDLE_MASK | OE_PEER_DMA_ERROR_MASK |
         H_PUT(OE_PEER_DMA_ERROR_CODE, OE_ERR_TIMEOUT));
    /* No retry, no third fragment, no ERROR_RSP. */
    hw_run_for(f.w, 10000);
    H_EQ(hn_unread_tx(f.a), 0);
}

static void dma_reply_at_expiry_wins(void)
{
    Fix f = fix();
    const HFrame *fr;
    uint8_t buf[64];

    hn_wr(f.a, OE_CONFIG_DMA_TIMEOUT, 50);
    hn_wr(f.a, OE_PEER_SIZE(1), 4);
    hn_dma_request(f.a, 1);
    fr = sent(&f, OETP_DMA_WRITE_REQ);
    hw_run_until(f.w, fr->cycle + 50);
    reply(&f, buf, oetp_build_dma_write_rsp(buf, H_MAC_A, H_MAC_B,
                                            hf_param(fr, 1)));
    hw_run_for(f.w, 1000);
    H_EQ(hn_dma(f.a, 1) & ~OE_PEER_DMA_MODE_MASK,
         OE_PEER_DMA_IDLE_MASK | OE_PEER_DMA_DONE_MASK);
}

/* A late DMA_READ_RSP for a timed-out fragment writes nothing and cannot
 * complete the next operation. */
static void dma_late_read_reply_is_discarded(void)
{
    Fix f = fix();
    const HFrame *fr;
    uint8_t data[24], buf[128];
    uint32_t old;

    for (int i = 0; i < 24; i++) {
        data[i] = 0xA0 + i;
    }
    hn_wr(f.a, OE_CONFIG_DMA_TIMEOUT, 100);
    hn_dma_request(f.a, 2);
    fr = sent(&f, OETP_DMA_READ_REQ);
    old = hf_param(fr, 1);
    hw_run_for(f.w, 200);
    H_EQ(code_of(f.a, 2), OE_ERR_TIMEOUT);
    hm_log_clear(&f.a->mem);
    reply(&f, buf, oetp_build_dma_read_rsp(buf, H_MAC_A, H_MAC_B, old, data,
                                           24, true));
    H_EQ(hm_log_count(&f.a->mem, HM_WRITE), 0);
    H_EQ(hn_unread_tx(f.a), 0);
    /* The next block takes the next ID; the stale reply again changes
     * nothing; the right one completes it. */
    hn_clear_error(f.a, 2);
    hn_dma_request(f.a, 2);
    fr = sent(&f, OETP_DMA_READ_REQ);
    H_EQ(hf_param(fr, 1), old + 1);
    reply(&f, buf, oetp_build_dma_read_rsp(buf, H_MAC_A, H_MAC_B, old, data,
                                           24, true));
    H_EQ(hm_log_count(&f.a->mem, HM_WRITE), 0);
    H_EQ(H_GET(hn_dma(f.a, 2), OE_PEER_DMA_IDLE), 0);
    reply(&f, buf, oetp_build_dma_read_rsp(buf, H_MAC_A, H_MAC_B, old + 1,
                                           data, 24, true));
    H_EQ(hn_dma(f.a, 2) & ~OE_PEER_DMA_MODE_MASK,
         OE_PEER_DMA_IDLE_MASK | OE_PEER_DMA_DONE_MASK);
    h_check_bytes("pulled block", hm_ptr(&f.a->mem, 0x2000, 24), 24, data, 24);
}

/* Received requests are served while A waits for its own reply; the
 * waiting request keeps its timer. */
static void requests_served_while_waiting(void)
{
    Fix f = fix();
    uint32_t rid;
    uint64_t t0;
    uint8_t buf[64];
    const HFrame *r;

    hn_peer(f.a, 3, &(HPeer){ .mac = H_MAC_C, .local_address = 0x3000,
                              .size = 0x10, .mode = 1 });
    {
        HNode *c = hw_scripted(f.w, "C", H_MAC_C);
        hn_wr(f.a, OE_CONFIG_RMEM_TIMEOUT, 1000);
        rmem_read_start(&f, 0, &rid, &t0);
        hm_put(&f.a->mem, 0x3004, "\x01\x02\x03\x04", 4);
        hn_send(c, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_C, 5,
                                                 0x3004));
        hw_settle(f.w);
        r = hn_next_tx(f.a);
        H_CHECK(r && hf_cmd(r) == OETP_RMEM_READ_RSP);
        H_EQ(hf_param(r, 2), 0x04030201);
        H_CHECK(f.a->csr_pending);
        hw_run_until(f.w, t0 + 1001);
        H_CHECK(!f.a->csr_pending);
    }
}

/* A failure while serving a received request is recorded in the peer's
 * entry but never changes request, idle or done of the block running on
 * the same entry. */
static void received_failure_leaves_active_block_alone(void)
{
    Fix f = fix();
    const HFrame *fr;
    uint8_t buf[64];
    uint32_t v;

    hn_wr(f.a, OE_PEER_SIZE(1), 4);
    hn_dma_request(f.a, 1);
    fr = sent(&f, OETP_DMA_WRITE_REQ);
    /* entry 0 (B, mode 1) resolves B: an unaligned RMEM read fails */
    reply(&f, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_B, 99, 3));
    H_CHECK(hf_cmd(hn_next_tx(f.a)) == OETP_ERROR_RSP);
    v = hn_dma(f.a, 1);
    H_EQ(H_GET(v, OE_PEER_DMA_IDLE), 0);
    H_EQ(H_GET(v, OE_PEER_DMA_DONE), 0);
    H_EQ(code_of(f.a, 0), OE_ERR_LOCAL_INVALID);
    reply(&f, buf, oetp_build_dma_write_rsp(buf, H_MAC_A, H_MAC_B,
                                            hf_param(fr, 1)));
    v = hn_dma(f.a, 1);
    H_EQ(v & ~OE_PEER_DMA_MODE_MASK,
         OE_PEER_DMA_IDLE_MASK | OE_PEER_DMA_DONE_MASK);
}

static const HTest tests[] = {
    H_TEST(rmem_timeout_fires_after_t_cycles),
    H_TEST(rmem_reply_at_expiry_wins),
    H_TEST(rmem_error_reply_at_expiry_keeps_its_cause),
    H_TEST(rmem_unmatched_reply_does_not_stop_timer),
    H_TEST(timer_starts_at_tx_handoff),
    H_TEST(rmem_zero_timeout_waits_forever),
    H_TEST(dma_timeout_sampled_per_fragment),
    H_TEST(dma_reply_at_expiry_wins),
    H_TEST(dma_late_read_reply_is_discarded),
    H_TEST(requests_served_while_waiting),
    H_TEST(received_failure_leaves_active_block_alone),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
