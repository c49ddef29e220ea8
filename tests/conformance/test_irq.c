/*
 * IRQ controller (endpoint.md 6 and the IRQ rules of sections 2-5): one
 * 16-entry FIFO of claims, a credit reserved before enabled work starts,
 * 16-bit sequence numbers, claim/complete tokens, invalid_complete, level
 * output with an extra message per pop; event producers (peer DMA, raw,
 * direct, RMEM errors, responder failures) and the busy responder while a
 * notification is held.
 */
#include "harness.h"

#define EV(src) (1u << (src))

static HNode *dut(HWorld **wp)
{
    HWorld *w = hw_new();
    HNode *n = hw_engine(w, "A", H_MAC_A, NULL);
    if (wp) {
        *wp = w;
    }
    return n;
}

/* One raw TX event: a zero-length frame is invalid (error 1) but "the
 * event is still produced". Returns false if the request is not accepted
 * (no IRQ credit). */
static bool raw_tx_event(HNode *n)
{
    hn_wr(n, OE_RAW_TX_FRAME_LENGTH, 0);
    hn_wr(n, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(n->w);
    return !H_GET(hn_rd(n, OE_RAW_TX_COMMAND_STATUS),
                  OE_RAW_TX_COMMAND_STATUS_REQUEST);
}

static void pop(HNode *n, unsigned src, unsigned peer, unsigned seq)
{
    uint32_t c = hn_claim(n);

    H_CHECKF(c == H_CLAIM(src, peer, seq), "claim 0x%08x, want source %u "
             "peer %u sequence %u", c, src, peer, seq);
    hn_complete(n, c);
    hw_settle(n->w);
    H_EQ(hn_rd(n, OE_IRQ_COMPLETE) & OE_IRQ_COMPLETE_VALID_MASK, 0);
}

static uint32_t status(HNode *n)
{
    return hn_rd(n, OE_IRQ_STATUS);
}

static void irq_claim_complete_pops_head(void)
{
    HNode *n = dut(NULL);
    uint32_t st;

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    H_EQ(hn_claim(n), 0);
    H_CHECK(raw_tx_event(n));
    H_EQ(hn_claim(n), H_CLAIM(OE_SRC_RAW_TX, 0, 0));
    st = status(n);
    H_EQ(H_GET(st, OE_IRQ_STATUS_FIFO_LEVEL), 1);
    H_EQ(H_GET(st, OE_IRQ_STATUS_CLAIM_PENDING), 1);
    H_EQ(H_GET(st, OE_IRQ_STATUS_IRQ_ASSERTED), 1);
    H_CHECK(n->irq);
    pop(n, OE_SRC_RAW_TX, 0, 0);
    st = status(n);
    H_EQ(H_GET(st, OE_IRQ_STATUS_FIFO_LEVEL), 0);
    H_EQ(H_GET(st, OE_IRQ_STATUS_IRQ_ASSERTED), 0);
    H_EQ(H_GET(st, OE_IRQ_STATUS_INVALID_COMPLETE), 0);
    H_CHECK(!n->irq);
    H_EQ(hn_claim(n), 0);
}

static void irq_claim_read_has_no_side_effect(void)
{
    HNode *n = dut(NULL);

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    raw_tx_event(n);
    raw_tx_event(n);
    for (int i = 0; i < 5; i++) {
        H_EQ(hn_claim(n), H_CLAIM(OE_SRC_RAW_TX, 0, 0));
    }
    H_EQ(hn_fifo_level(n), 2);
}

static void irq_sequence_numbers_count_queued_claims(void)
{
    HNode *n = dut(NULL);

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    for (int i = 0; i < 3; i++) {
        H_CHECK(raw_tx_event(n));
    }
    for (unsigned i = 0; i < 3; i++) {
        pop(n, OE_SRC_RAW_TX, 0, i);
    }
    H_CHECK(raw_tx_event(n));
    pop(n, OE_SRC_RAW_TX, 0, 3);
}

/* Sixteen claims fit; enabled work waits for a credit instead of losing its
 * event, and every event comes out in order. */
static void irq_credit_holds_work_when_fifo_full(void)
{
    HNode *n = dut(NULL);
    uint32_t st;

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    for (int i = 0; i < 16; i++) {
        H_CHECKF(raw_tx_event(n), "event %d not accepted", i);
    }
    st = status(n);
    H_EQ(H_GET(st, OE_IRQ_STATUS_FIFO_LEVEL), 16);
    H_EQ(H_GET(st, OE_IRQ_STATUS_CREDIT_FULL), 1);
    H_CHECK(!raw_tx_event(n));
    H_EQ(H_GET(hn_rd(n, OE_RAW_TX_COMMAND_STATUS),
               OE_RAW_TX_COMMAND_STATUS_REQUEST), 1);
    H_EQ(hn_fifo_level(n), 16);
    pop(n, OE_SRC_RAW_TX, 0, 0);
    /* the waiting request got the freed credit */
    H_EQ(H_GET(hn_rd(n, OE_RAW_TX_COMMAND_STATUS),
               OE_RAW_TX_COMMAND_STATUS_REQUEST), 0);
    H_EQ(hn_fifo_level(n), 16);
    for (unsigned i = 1; i <= 16; i++) {
        pop(n, OE_SRC_RAW_TX, 0, i);
    }
    st = status(n);
    H_EQ(H_GET(st, OE_IRQ_STATUS_FIFO_LEVEL), 0);
    H_EQ(H_GET(st, OE_IRQ_STATUS_OVERFLOW), 0);
    H_EQ(H_GET(st, OE_IRQ_STATUS_CREDIT_FULL), 0);
}

static void irq_invalid_complete_is_sticky_until_clear_errors(void)
{
    HNode *n = dut(NULL);

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    /* completing with nothing queued */
    hn_complete(n, H_CLAIM(OE_SRC_RAW_TX, 0, 0));
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_INVALID_COMPLETE), 1);
    hn_wr(n, OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK |
          OE_IRQ_CONTROL_CLEAR_ERRORS_MASK);
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_INVALID_COMPLETE), 0);
    H_EQ(hn_rd(n, OE_IRQ_CONTROL), OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK);
    /* wrong sequence, wrong source, wrong peer: the head stays */
    raw_tx_event(n);
    hn_complete(n, H_CLAIM(OE_SRC_RAW_TX, 0, 1));
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_INVALID_COMPLETE), 1);
    hn_complete(n, H_CLAIM(OE_SRC_RAW_RX, 0, 0));
    hn_complete(n, H_CLAIM(OE_SRC_RAW_TX, 1, 0));
    H_EQ(hn_fifo_level(n), 1);
    H_EQ(hn_claim(n), H_CLAIM(OE_SRC_RAW_TX, 0, 0));
    /* still sticky after a good completion */
    pop(n, OE_SRC_RAW_TX, 0, 0);
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_INVALID_COMPLETE), 1);
    hn_wr(n, OE_IRQ_CONTROL, OE_IRQ_CONTROL_CLEAR_ERRORS_MASK);
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_INVALID_COMPLETE), 0);
}

static void irq_level_is_global_enable_and_fifo_not_empty(void)
{
    HNode *n = dut(NULL);

    hn_wr(n, OE_IRQ_EVENT_ENABLE, EV(OE_SRC_RAW_TX));
    raw_tx_event(n);
    H_EQ(hn_fifo_level(n), 1);
    H_CHECK(!n->irq);
    H_EQ(n->irq_msgs, 0);
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_IRQ_ASSERTED), 0);
    hn_wr(n, OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK);
    hw_settle(n->w);
    H_CHECK(n->irq);
    H_EQ(n->irq_rises, 1);
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_IRQ_ASSERTED), 1);
    hn_wr(n, OE_IRQ_CONTROL, 0);
    hw_settle(n->w);
    H_CHECK(!n->irq);
    H_EQ(n->irq_falls, 1);
    H_EQ(hn_fifo_level(n), 1);
}

/* Edge-triggered hosts get one more message when a completion pops the
 * FIFO and it stays non-empty. */
static void irq_pop_while_not_empty_sends_another_message(void)
{
    HNode *n = dut(NULL);

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    raw_tx_event(n);
    raw_tx_event(n);
    H_EQ(n->irq_msgs, 1);
    pop(n, OE_SRC_RAW_TX, 0, 0);
    H_CHECK(n->irq);
    H_EQ(n->irq_msgs, 2);
    H_EQ(n->irq_rises, 1);
    pop(n, OE_SRC_RAW_TX, 0, 1);
    H_CHECK(!n->irq);
    H_EQ(n->irq_msgs, 2);
}

static void irq_sequence_wraps_at_16_bits(void)
{
    HNode *n = dut(NULL);

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    for (uint32_t i = 0; i < 65536 + 2; i++) {
        H_CHECK(raw_tx_event(n));
        pop(n, OE_SRC_RAW_TX, 0, i & 0xFFFF);
    }
    H_EQ(hn_fifo_level(n), 0);
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_INVALID_COMPLETE), 0);
}

static void irq_peer_dma_complete_needs_global_and_peer_enable(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);

    hx_mirror(a, 2, b, 0, true, 0x1000, 0x8000, 100);
    /* per-peer enable off: no event */
    hn_irq_enable(a, EV(OE_SRC_PEER_DMA));
    hn_dma_run(a, 2);
    H_EQ(hn_fifo_level(a), 0);
    /* per-peer on, event_enable off: none either */
    hn_wr(a, OE_PEER_DMA(2), 3 | OE_PEER_DMA_IRQ_ENABLE_MASK);
    hn_wr(a, OE_IRQ_EVENT_ENABLE, 0);
    hn_dma_run(a, 2);
    H_EQ(hn_fifo_level(a), 0);
    /* both: one claim naming the local peer index, for success... */
    hn_wr(a, OE_IRQ_EVENT_ENABLE, EV(OE_SRC_PEER_DMA));
    hn_dma_run(a, 2);
    H_EQ(hn_fifo_level(a), 1);
    pop(a, OE_SRC_PEER_DMA, 2, 0);
    /* ...for failure, and for a block rejected at acceptance */
    hm_error(&b->mem, 0x8000, 1, OE_MEM_SLVERR, HM_WRITE);
    hn_dma_run(a, 2);
    pop(a, OE_SRC_PEER_DMA, 2, 1);
    hn_wr(a, OE_PEER_SIZE(2), 0);
    hn_dma_run(a, 2);
    H_EQ(H_GET(hn_dma(a, 2), OE_PEER_DMA_ERROR_CODE), OE_ERR_LOCAL_INVALID);
    pop(a, OE_SRC_PEER_DMA, 2, 2);
    /* B (responder) had no events enabled: nothing queued there */
    H_EQ(hn_fifo_level(b), 0);
}

/* While a block with its event enabled is active, its credit is reserved. */
static void irq_credit_reserved_while_block_active(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);
    uint32_t st;

    hx_mirror(a, 0, b, 0, true, 0x1000, 0x8000, 100);
    hn_wr(a, OE_PEER_DMA(0), 3 | OE_PEER_DMA_IRQ_ENABLE_MASK);
    hn_irq_enable(a, EV(OE_SRC_PEER_DMA) | EV(OE_SRC_RAW_TX));
    hw_add_fault(w, &(HFault){ .kind = HF_DELAY, .src = 1, .dst = 0,
                               .cmd = -1, .delay = 100 });
    hn_dma_request(a, 0);
    hw_settle(w);
    st = status(a);
    H_EQ(H_GET(st, OE_IRQ_STATUS_RESERVED_COUNT), 1);
    H_EQ(H_GET(st, OE_IRQ_STATUS_FIFO_LEVEL), 0);
    /* 15 more fit; the 16th credit is taken */
    for (int i = 0; i < 15; i++) {
        H_CHECK(raw_tx_event(a));
    }
    H_EQ(H_GET(status(a), OE_IRQ_STATUS_CREDIT_FULL), 1);
    H_CHECK(!raw_tx_event(a));
    H_CHECK(hw_run_idle(w, 1 << 20));
    st = status(a);
    H_EQ(H_GET(st, OE_IRQ_STATUS_FIFO_LEVEL), 16);
    H_EQ(H_GET(st, OE_IRQ_STATUS_RESERVED_COUNT), 0);
    for (unsigned i = 0; i < 15; i++) {
        pop(a, OE_SRC_RAW_TX, 0, i);
    }
    pop(a, OE_SRC_PEER_DMA, 0, 15);
    pop(a, OE_SRC_RAW_TX, 0, 16);
}

/* RMEM failures raise RMEM_ERROR (source 5) for the peer when enabled;
 * failures before admission coalesce into one event, the code updates. */
static void irq_rmem_error_event_and_coalescing(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint8_t buf[64];
    uint32_t v;
    unsigned rmem_claims = 0;

    hn_peer(a, 1, &(HPeer){ .mac = H_MAC_B, .remote_address = 0x8000,
                            .size = 0x100, .mode = 1 });
    hn_wr(a, OE_CONFIG_RMEM_TIMEOUT, 10);
    hn_irq_enable(a, EV(OE_SRC_RMEM_ERROR) | EV(OE_SRC_RAW_TX));
    H_EQ(hn_rd(a, H_RMEM(0)), 0xFFFFFFFF);
    H_EQ(H_GET(hn_dma(a, 1), OE_PEER_DMA_ERROR_CODE), OE_ERR_TIMEOUT);
    pop(a, OE_SRC_RMEM_ERROR, 1, 0);

    for (int i = 0; i < 16; i++) {
        H_CHECK(raw_tx_event(a));
    }
    H_EQ(hn_rd(a, H_RMEM(0)), 0xFFFFFFFF);      /* timeout */
    H_EQ(hn_csr_read(a, H_RMEM(4), 4, &v), OE_CSR_PENDING);
    hw_settle(w);
    hn_send(b, buf, oetp_build_error_rsp(buf, H_MAC_A, H_MAC_B,
                                         hf_param(&a->tx.v[a->tx.n - 1], 1),
                                         OETP_CAUSE_OVERFLOW));
    H_EQ(hn_wait_csr(a, 1000), 0xFFFFFFFF);
    /* recorded at once although the event waits */
    H_EQ(H_GET(hn_dma(a, 1), OE_PEER_DMA_ERROR_CODE), OE_ERR_REMOTE_OVERFLOW);
    H_EQ(hn_fifo_level(a), 16);
    for (unsigned seq = 1; hn_fifo_level(a); seq++) {
        uint32_t c = hn_claim(a);
        if (H_GET(c, OE_IRQ_CLAIM_SOURCE) == OE_SRC_RMEM_ERROR) {
            H_EQ(H_GET(c, OE_IRQ_CLAIM_PEER_IDX), 1);
            rmem_claims++;
        }
        H_EQ(H_GET(c, OE_IRQ_CLAIM_SEQUENCE), seq);
        hn_complete(a, c);
        hw_settle(w);
    }
    H_EQ(rmem_claims, 1);
}

/* Failures while serving received requests: bulk ones raise source 0 if
 * the source peer's irq_enable is set, RMEM ones source 5; successes raise
 * nothing. */
static void irq_responder_failures_raise_events(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    HNode *c = hw_scripted(w, "C", H_MAC_C);
    uint8_t buf[128], d[4] = { 1, 2, 3, 4 };

    hn_peer(a, 0, &(HPeer){ .mac = H_MAC_B, .local_address = 0x1000,
                            .size = 0x100, .mode = 1 });
    hn_peer(a, 3, &(HPeer){ .mac = H_MAC_C, .local_address = 0x2000,
                            .size = 0x100, .mode = 2, .irq_enable = true });
    hn_irq_enable(a, EV(OE_SRC_PEER_DMA) | EV(OE_SRC_RMEM_ERROR));
    hn_send(b, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_B, 1, 0x1000));
    hn_send(c, buf, oetp_build_dma_write_req(buf, H_MAC_A, H_MAC_C, 2, 0x2000,
                                             d, 4, true));
    hw_settle(w);
    H_EQ(hn_fifo_level(a), 0);
    hn_send(b, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_B, 3, 0x1001));
    hw_settle(w);
    pop(a, OE_SRC_RMEM_ERROR, 0, 0);
    hn_send(c, buf, oetp_build_dma_write_req(buf, H_MAC_A, H_MAC_C, 4, 0x2100,
                                             d, 4, true));
    hw_settle(w);
    pop(a, OE_SRC_PEER_DMA, 3, 1);
    H_EQ(hn_count_tx(a, OETP_ERROR_RSP), 2);
    /* per-peer irq_enable off: recorded, no event */
    hn_wr(a, OE_PEER_DMA(3), 2);
    hn_send(c, buf, oetp_build_dma_write_req(buf, H_MAC_A, H_MAC_C, 5, 0x2100,
                                             d, 4, true));
    hw_settle(w);
    H_EQ(hn_fifo_level(a), 0);
    H_EQ(H_GET(hn_dma(a, 3), OE_PEER_DMA_ERROR), 1);
}

/*
 * A failure whose event finds the FIFO full is still recorded and
 * answered, but its notification is held and the responder takes no new
 * request (drained, no reply) until the notification is admitted.
 */
static void busy_responder_drops_requests_while_notification_held(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint8_t buf[64];

    hn_peer(a, 0, &(HPeer){ .mac = H_MAC_B, .local_address = 0x1000,
                            .size = 0x100, .mode = 1 });
    hm_put(&a->mem, 0x1000, "\x01\x02\x03\x04", 4);
    hn_irq_enable(a, EV(OE_SRC_RMEM_ERROR) | EV(OE_SRC_RAW_TX));
    for (int i = 0; i < 16; i++) {
        H_CHECK(raw_tx_event(a));
    }
    hn_skip_tx(a);
    hn_send(b, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_B, 1, 0x1002));
    hw_settle(w);
    H_EQ(hn_count_tx(a, OETP_ERROR_RSP), 1);
    H_EQ(H_GET(hn_dma(a, 0), OE_PEER_DMA_ERROR_CODE), OE_ERR_LOCAL_INVALID);
    hm_log_clear(&a->mem);
    hn_send(b, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_B, 2, 0x1000));
    hn_send(b, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_B, 3, 0x1003));
    hw_run_for(w, 100);
    H_EQ(hn_count_tx(a, -1), 1);
    H_EQ(hm_log_count(&a->mem, HM_BOTH), 0);
    /* one completion admits the held notification; service resumes */
    pop(a, OE_SRC_RAW_TX, 0, 0);
    H_EQ(hn_fifo_level(a), 16);
    hn_send(b, buf, oetp_build_rmem_read_req(buf, H_MAC_A, H_MAC_B, 4, 0x1000));
    hw_settle(w);
    H_EQ(hn_count_tx(a, OETP_RMEM_READ_RSP), 1);
    for (unsigned i = 1; i < 16; i++) {
        pop(a, OE_SRC_RAW_TX, 0, i);
    }
    pop(a, OE_SRC_RMEM_ERROR, 0, 16);
}

/* Raw RX: the armed channel reserves its credit; the event follows the
 * frame. Raw TX / direct TX events follow their frames. */
static void irq_raw_and_direct_events(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint8_t f[64];

    h_raw_frame(f, sizeof(f), H_MAC_A, H_MAC_B, 0);
    hn_irq_enable(a, EV(OE_SRC_RAW_RX) | EV(OE_SRC_RAW_TX) |
                  EV(OE_SRC_DIRECT_TX));
    hn_wr(a, OE_RAW_RX_BUFFER_ADDRESS, 0x3000);
    hn_wr(a, OE_RAW_RX_BUFFER_CAPACITY, 100);
    hn_wr(a, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(w);
    H_EQ(H_GET(status(a), OE_IRQ_STATUS_RESERVED_COUNT), 1);
    H_EQ(hn_fifo_level(a), 0);
    hn_send(b, f, sizeof(f));
    hw_settle(w);
    H_EQ(H_GET(status(a), OE_IRQ_STATUS_RESERVED_COUNT), 0);
    pop(a, OE_SRC_RAW_RX, 0, 0);
    /* raw TX of a good frame */
    hm_put(&a->mem, 0x3100, f, 60);
    hn_wr(a, OE_RAW_TX_BUFFER_ADDRESS, 0x3100);
    hn_wr(a, OE_RAW_TX_FRAME_LENGTH, 60);
    hn_wr(a, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(w);
    H_EQ(hn_count_tx(a, -1), 1);
    pop(a, OE_SRC_RAW_TX, 0, 1);
    /* a one-beat direct frame */
    hn_wr(a, OE_DIRECT_SOURCE_DATA, 0x44332211);
    hn_wr(a, OE_DIRECT_SOURCE_CONTROL,
          H_PUT(OE_DIRECT_SOURCE_CONTROL_TKEEP, 0xF) |
          OE_DIRECT_SOURCE_CONTROL_TLAST_MASK |
          OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
    hw_settle(w);
    H_EQ(hn_count_tx(a, -1), 2);
    pop(a, OE_SRC_DIRECT_TX, 0, 2);
}

/* A frame reaches the direct sink only after IRQ admission: with event 4
 * enabled and no credit, it stays invisible until one frees. Likewise the
 * first direct TX beat waits for admission. */
static void irq_direct_frames_wait_for_admission(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint8_t f[60];

    h_raw_frame(f, sizeof(f), H_MAC_A, H_MAC_B, 0);
    hn_irq_enable(a, EV(OE_SRC_DIRECT_RX) | EV(OE_SRC_RAW_TX) |
                  EV(OE_SRC_DIRECT_TX));
    for (int i = 0; i < 16; i++) {
        H_CHECK(raw_tx_event(a));
    }
    hn_send(b, f, sizeof(f));
    hw_settle(w);
    H_EQ(H_GET(hn_rd(a, OE_DIRECT_SINK_STATUS), OE_DIRECT_SINK_STATUS_TVALID),
         0);
    hn_wr(a, OE_DIRECT_SOURCE_DATA, 0x44332211);
    hn_wr(a, OE_DIRECT_SOURCE_CONTROL,
          H_PUT(OE_DIRECT_SOURCE_CONTROL_TKEEP, 0xF) |
          OE_DIRECT_SOURCE_CONTROL_TLAST_MASK |
          OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
    hw_settle(w);
    H_EQ(H_GET(hn_rd(a, OE_DIRECT_SOURCE_CONTROL),
               OE_DIRECT_SOURCE_CONTROL_TVALID), 1);
    H_EQ(hn_count_tx(a, -1), 0);
    pop(a, OE_SRC_RAW_TX, 0, 0);
    pop(a, OE_SRC_RAW_TX, 0, 1);
    H_EQ(H_GET(hn_rd(a, OE_DIRECT_SINK_STATUS), OE_DIRECT_SINK_STATUS_TVALID),
         1);
    H_EQ(hn_count_tx(a, -1), 1);
    for (unsigned i = 2; i < 16; i++) {
        pop(a, OE_SRC_RAW_TX, 0, i);
    }
    /* the two direct events, in admission order */
    H_EQ(hn_fifo_level(a), 2);
}

/* Writing complete without its valid bit does nothing. */
static void irq_complete_without_valid_is_ignored(void)
{
    HNode *n = dut(NULL);

    hn_irq_enable(n, EV(OE_SRC_RAW_TX));
    raw_tx_event(n);
    hn_wr(n, OE_IRQ_COMPLETE, H_CLAIM(OE_SRC_RAW_TX, 0, 0) &
          ~OE_IRQ_COMPLETE_VALID_MASK);
    hw_settle(n->w);
    H_EQ(hn_fifo_level(n), 1);
    H_EQ(H_GET(status(n), OE_IRQ_STATUS_INVALID_COMPLETE), 0);
}

/* The event enable is sampled at admission: a credit reserved with the
 * event enabled still yields the event if the enable is cleared later,
 * and work admitted without it yields none. */
static void irq_event_enable_sampled_at_admission(void)
{
    HWorld *w;
    HNode *a = dut(&w);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint8_t f[60];

    h_raw_frame(f, sizeof(f), H_MAC_A, H_MAC_B, 0);
    hn_irq_enable(a, EV(OE_SRC_RAW_RX));
    hn_wr(a, OE_RAW_RX_BUFFER_ADDRESS, 0x3000);
    hn_wr(a, OE_RAW_RX_BUFFER_CAPACITY, 100);
    hn_wr(a, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(w);
    hn_wr(a, OE_IRQ_EVENT_ENABLE, 0);
    hn_send(b, f, sizeof(f));
    hw_settle(w);
    pop(a, OE_SRC_RAW_RX, 0, 0);
    hn_wr(a, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(w);
    hn_wr(a, OE_IRQ_EVENT_ENABLE, EV(OE_SRC_RAW_RX));
    hn_send(b, f, sizeof(f));
    hw_settle(w);
    H_EQ(H_GET(hn_rd(a, OE_RAW_RX_COMMAND_STATUS),
               OE_RAW_RX_COMMAND_STATUS_DONE), 1);
    H_EQ(hn_fifo_level(a), 0);
}

static const HTest tests[] = {
    H_TEST(irq_claim_complete_pops_head),
    H_TEST(irq_claim_read_has_no_side_effect),
    H_TEST(irq_sequence_numbers_count_queued_claims),
    H_TEST(irq_credit_holds_work_when_fifo_full),
    H_TEST(irq_invalid_complete_is_sticky_until_clear_errors),
    H_TEST(irq_level_is_global_enable_and_fifo_not_empty),
    H_TEST(irq_pop_while_not_empty_sends_another_message),
    H_TEST(irq_sequence_wraps_at_16_bits),
    H_TEST(irq_peer_dma_complete_needs_global_and_peer_enable),
    H_TEST(irq_credit_reserved_while_block_active),
    H_TEST(irq_rmem_error_event_and_coalescing),
    H_TEST(irq_responder_failures_raise_events),
    H_TEST(busy_responder_drops_requests_while_notification_held),
    H_TEST(irq_raw_and_direct_events),
    H_TEST(irq_direct_frames_wait_for_admission),
    H_TEST(irq_complete_without_valid_is_ignored),
    H_TEST(irq_event_enable_sampled_at_admission),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
