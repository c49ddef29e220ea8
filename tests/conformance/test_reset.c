/*
 * Hard reset (oetp-engine.txt "Request ID allocation and hard reset",
 * endpoint.md 8) and the migration state: reset clears contexts, FIFOs,
 * events and the Request ID counter; a reply to a request from before the
 * reset cannot complete anything; a saved engine resumes where it was.
 */
#include <stdlib.h>

#include "harness.h"

static void reset_mid_block_drops_the_block_and_its_reply(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);
    uint32_t v;

    hx_mirror(a, 0, b, 0, false, 0x1000, 0x8000, 20000);
    hm_pattern(&b->mem, 0x8000, 20000, 1);
    hw_add_fault(w, &(HFault){ .kind = HF_DELAY, .src = 1, .dst = 0,
                               .cmd = -1, .delay = 100 });
    hn_dma_request(a, 0);
    hw_settle(w);
    H_EQ(hn_count_tx(a, OETP_DMA_READ_REQ), 1);
    hn_reset(a);
    v = hn_dma(a, 0);
    H_EQ(v, OE_PEER_DMA_RESET);
    hm_log_clear(&a->mem);
    H_CHECK(hw_run_idle(w, 1 << 20));
    /* the reply arrived after the reset: nothing written, nothing sent */
    H_EQ(hm_log_count(&a->mem, HM_WRITE), 0);
    H_EQ(hn_count_tx(a, -1), 1);
    H_EQ(hn_dma(a, 0), OE_PEER_DMA_RESET);
}

static void reset_clears_irq_fifo_level_and_sequence(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);

    hn_irq_enable(a, 1u << OE_SRC_RAW_TX);
    for (int i = 0; i < 3; i++) {
        hn_wr(a, OE_RAW_TX_COMMAND_STATUS,
              OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
        hw_settle(w);
    }
    H_EQ(hn_fifo_level(a), 3);
    H_CHECK(a->irq);
    hn_reset(a);
    H_CHECK(!a->irq);
    H_EQ(hn_rd(a, OE_IRQ_STATUS), 0);
    H_EQ(hn_claim(a), 0);
    hn_irq_enable(a, 1u << OE_SRC_RAW_TX);
    hn_wr(a, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(w);
    H_EQ(hn_claim(a), H_CLAIM(OE_SRC_RAW_TX, 0, 0));
}

static void reset_completes_pending_access_and_restarts_request_ids(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint32_t v;
    HPeer p = { .mac = H_MAC_B, .remote_address = 0x8000, .size = 0x100,
                .mode = 1 };

    (void)b;
    hn_peer(a, 0, &p);
    hn_set_request_id(a, 77);
    H_EQ(hn_csr_read(a, H_RMEM(0), 4, &v), OE_CSR_PENDING);
    hw_settle(w);
    H_EQ(hf_param(hn_tx_nth(a, OETP_RMEM_READ_REQ, 0), 1), 77);
    hn_reset(a);   /* checks the all-ones completion */
    hn_set_mac(a, H_MAC_A);
    hn_peer(a, 0, &p);
    H_EQ(hn_csr_read(a, H_RMEM(0), 4, &v), OE_CSR_PENDING);
    hw_settle(w);
    H_EQ(hf_param(hn_tx_nth(a, OETP_RMEM_READ_REQ, 1), 1), 0);
}

static void reset_disarms_raw_rx(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint8_t f[60];

    hn_wr(a, OE_RAW_RX_BUFFER_ADDRESS, 0x3000);
    hn_wr(a, OE_RAW_RX_BUFFER_CAPACITY, 100);
    hn_wr(a, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hn_reset(a);
    hn_set_mac(a, H_MAC_A);
    H_EQ(hn_rd(a, OE_RAW_RX_COMMAND_STATUS), OE_RAW_RX_COMMAND_STATUS_RESET);
    h_raw_frame(f, sizeof(f), H_MAC_A, H_MAC_B, 0);
    hm_log_clear(&a->mem);
    hn_send(b, f, sizeof(f));
    hw_settle(w);
    H_EQ(hm_log_count(&a->mem, HM_WRITE), 0);
}

static void direct_beat(HNode *n, uint32_t data, unsigned keep, bool last)
{
    hn_wr(n, OE_DIRECT_SOURCE_DATA, data);
    hn_wr(n, OE_DIRECT_SOURCE_CONTROL,
          H_PUT(OE_DIRECT_SOURCE_CONTROL_TKEEP, keep) |
          H_PUT(OE_DIRECT_SOURCE_CONTROL_TLAST, last) |
          OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
    hw_settle(n->w);
}

/* Reset removes a partial direct frame: the next frame starts clean. */
static void reset_discards_partial_direct_frame(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    const HFrame *f;

    direct_beat(a, 0x11111111, 0xF, false);
    direct_beat(a, 0x22222222, 0xF, false);
    hn_reset(a);
    direct_beat(a, 0x44332211, 0x7, true);
    f = hn_next_tx(a);
    H_CHECK(f != NULL);
    h_check_bytes("frame after reset", f->data, f->len,
                  (const uint8_t *)"\x11\x22\x33", 3);
    H_EQ(hn_unread_tx(a), 0);
}

/* One direct frame at a time: the next frame's first beat waits until the
 * previous frame has entered the transmit path. */
static void direct_next_frame_waits_for_previous(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);

    hn_tx_open(a, false);
    direct_beat(a, 0x01010101, 0xF, true);
    H_EQ(hn_count_tx(a, -1), 0);
    direct_beat(a, 0x02020202, 0xF, true);
    H_EQ(H_GET(hn_rd(a, OE_DIRECT_SOURCE_CONTROL),
               OE_DIRECT_SOURCE_CONTROL_TVALID), 1);
    hn_tx_open(a, true);
    hw_settle(w);
    H_EQ(hn_count_tx(a, -1), 2);
    H_EQ(hn_tx_nth(a, -1, 0)->data[0], 1);
    H_EQ(hn_tx_nth(a, -1, 1)->data[0], 2);
}

/* Save in the middle of a block, load into a fresh engine: the block
 * finishes as if nothing happened. */
static void migration_resumes_a_block_in_flight(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "B", H_MAC_B, NULL);

    hx_mirror(a, 0, b, 0, true, 0x1000, 0x8000, 30000);
    hm_pattern(&a->mem, 0x1000, 30000, 2);
    hn_wr(a, OE_CONFIG_DMA_TIMEOUT, 100000);
    hn_irq_enable(a, 1u << OE_SRC_PEER_DMA);
    hn_wr(a, OE_PEER_DMA(0), 3 | OE_PEER_DMA_IRQ_ENABLE_MASK);
    hw_add_fault(w, &(HFault){ .kind = HF_DELAY, .src = 1, .dst = 0,
                               .cmd = -1, .delay = 50 });
    hn_dma_request(a, 0);
    hw_run_for(w, 120);
    H_EQ(H_GET(hn_dma(a, 0), OE_PEER_DMA_IDLE), 0);
    hn_migrate(a);
    hn_migrate(b);
    H_CHECK(hw_run_idle(w, 1 << 20));
    H_EQ(hn_dma(a, 0), 3 | OE_PEER_DMA_IRQ_ENABLE_MASK | OE_PEER_DMA_IDLE_MASK |
         OE_PEER_DMA_DONE_MASK);
    h_check_bytes("block", hm_ptr(&b->mem, 0x8000, 30000), 30000,
                  hm_ptr(&a->mem, 0x1000, 30000), 30000);
    H_EQ(hn_claim(a), H_CLAIM(OE_SRC_PEER_DMA, 0, 0));
    H_EQ(hn_count_tx(a, OETP_DMA_WRITE_REQ), 4);
}

/* Frames waiting in the direct sink (one partly read) and an armed raw
 * receive channel survive migration. */
static void migration_keeps_sink_frames_and_armed_rx(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    HNode *b = hw_scripted(w, "B", H_MAC_B);
    uint8_t f[100];
    uint32_t d;

    for (int i = 0; i < 100; i++) {
        f[i] = (uint8_t)(i + 1);
    }
    oetp_put_mac(f, H_MAC_A);
    hn_send(b, f, 70);
    hn_send(b, f, 61);
    hw_settle(w);
    d = hn_rd(a, OE_DIRECT_SINK_DATA);
    hn_wr(a, OE_DIRECT_SINK_CONTROL, OE_DIRECT_SINK_CONTROL_TREADY_MASK);
    hw_settle(w);
    hn_wr(a, OE_RAW_RX_BUFFER_ADDRESS, 0x3000);
    hn_wr(a, OE_RAW_RX_BUFFER_CAPACITY, 100);
    hn_wr(a, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(w);
    hn_migrate(a);
    H_EQ(d, 0x000c0e02);   /* first beat: 02 0e 0c 00 */
    /* the rest of frame 1 (66 bytes), then frame 2 (61 bytes) */
    for (int frame = 0; frame < 2; frame++) {
        size_t n = frame ? 0 : 4, want = frame ? 61 : 70;
        for (;;) {
            uint32_t st = hn_rd(a, OE_DIRECT_SINK_STATUS);
            uint32_t keep = H_GET(st, OE_DIRECT_SINK_STATUS_TKEEP);
            H_CHECK(H_GET(st, OE_DIRECT_SINK_STATUS_TVALID));
            d = hn_rd(a, OE_DIRECT_SINK_DATA);
            for (unsigned k = 0; k < 4; k++) {
                if (keep & (1u << k)) {
                    H_EQ((uint8_t)(d >> (8 * k)), f[n]);
                    n++;
                }
            }
            hn_wr(a, OE_DIRECT_SINK_CONTROL,
                  OE_DIRECT_SINK_CONTROL_TREADY_MASK);
            hw_settle(w);
            if (H_GET(st, OE_DIRECT_SINK_STATUS_TLAST)) {
                break;
            }
        }
        H_EQ(n, want);
    }
    H_EQ(hn_rd(a, OE_RAW_RX_COMMAND_STATUS), OE_RAW_RX_COMMAND_STATUS_ARMED_MASK);
    hn_send(b, f, 64);
    hw_settle(w);
    H_EQ(hn_rd(a, OE_RAW_RX_RECEIVED_LENGTH), 64);
}

/* A malformed blob is refused and leaves a hard-reset engine. */
static void migration_rejects_malformed_state(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "A", H_MAC_A, NULL);
    uint8_t junk[64];
    size_t need;
    uint8_t *blob;

    hn_wr(a, OE_TEST_REG, 0x1234);
    need = oe_engine_save(a->e, NULL, 0);
    blob = malloc(need);
    H_CHECK(blob != NULL);
    h_cleanup(free, blob);
    H_EQ(oe_engine_save(a->e, blob, need), need);
    for (size_t cut = 0; cut < need; cut += need / 7 + 1) {
        a->in_call = true;
        H_EQ(oe_engine_load(a->e, blob, cut), -1);
        a->in_call = false;
        H_EQ(hn_rd(a, OE_TEST_REG), 0);
    }
    for (size_t i = 0; i < sizeof(junk); i++) {
        junk[i] = (uint8_t)(i * 37 + 1);
    }
    a->in_call = true;
    H_EQ(oe_engine_load(a->e, junk, sizeof(junk)), -1);
    H_EQ(oe_engine_load(a->e, blob, need), 0);
    a->in_call = false;
    H_EQ(hn_rd(a, OE_TEST_REG), 0x1234);
}

static const HTest tests[] = {
    H_TEST(reset_mid_block_drops_the_block_and_its_reply),
    H_TEST(reset_clears_irq_fifo_level_and_sequence),
    H_TEST(reset_completes_pending_access_and_restarts_request_ids),
    H_TEST(reset_disarms_raw_rx),
    H_TEST(reset_discards_partial_direct_frame),
    H_TEST(direct_next_frame_waits_for_previous),
    H_TEST(migration_resumes_a_block_in_flight),
    H_TEST(migration_keeps_sink_frames_and_armed_rx),
    H_TEST(migration_rejects_malformed_state),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
