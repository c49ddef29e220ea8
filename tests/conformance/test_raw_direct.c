/*
 * Raw (non-oETP) DMA and the direct stream (endpoint.md "raw DMA",
 * "direct stream"): bus errors, limits from MAX_RAW_FRAME_SIZE, one claim
 * per armed descriptor, transmit backpressure, and the 16 KiB sink that
 * never drops but backpressures reception.
 */
#include <string.h>

#include "harness.h"

typedef struct Fix {
    HWorld *w;
    HNode *a, *b;
} Fix;

static Fix fix(const OeEngineConfig *cfg)
{
    Fix f;
    f.w = hw_new();
    f.a = hw_engine(f.w, "A", H_MAC_A, cfg);
    f.b = hw_scripted(f.w, "B", H_MAC_B);
    return f;
}

/* A non-oETP frame of len bytes for A, payload from seed. */
static size_t raw_frame(uint8_t *f, size_t len, unsigned seed)
{
    return h_raw_frame(f, len, H_MAC_A, H_MAC_B, seed);
}

static uint32_t tx_status(HNode *n)
{
    return hn_rd(n, OE_RAW_TX_COMMAND_STATUS);
}

static uint32_t rx_status(HNode *n)
{
    return hn_rd(n, OE_RAW_RX_COMMAND_STATUS);
}

static void raw_tx(HNode *n, uint32_t addr, uint32_t len)
{
    hn_wr(n, OE_RAW_TX_BUFFER_ADDRESS, addr);
    hn_wr(n, OE_RAW_TX_FRAME_LENGTH, len);
    hn_wr(n, OE_RAW_TX_COMMAND_STATUS,
          OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    hn_wr(n, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(n->w);
}

static void arm_rx(HNode *n, uint32_t addr, uint32_t cap)
{
    hn_wr(n, OE_RAW_RX_BUFFER_ADDRESS, addr);
    hn_wr(n, OE_RAW_RX_BUFFER_CAPACITY, cap);
    hn_wr(n, OE_RAW_RX_COMMAND_STATUS,
          OE_RAW_RX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    hn_wr(n, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(n->w);
}

static uint32_t err_word(unsigned code)
{
    return OE_RAW_TX_COMMAND_STATUS_IDLE_MASK |
           OE_RAW_TX_COMMAND_STATUS_ERROR_MASK |
           H_PUT(OE_RAW_TX_COMMAND_STATUS_ERROR_CODE, code);
}

static void raw_tx_whole_frames_up_to_8192(void)
{
    Fix f = fix(NULL);
    static const uint32_t lens[] = { 1, 13, 60, 61, 1514, 8191, 8192 };

    hm_region(&f.a->mem, 0x100000, 0x4000);
    for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
        const HFrame *fr;
        hm_pattern(&f.a->mem, 0x100003, lens[i], (unsigned)i);
        hm_log_clear(&f.a->mem);
        raw_tx(f.a, 0x100003, lens[i]);
        fr = hn_next_tx(f.a);
        H_CHECKF(fr, "no frame for length %u", lens[i]);
        h_check_bytes("raw frame", fr->data, fr->len,
                      hm_ptr(&f.a->mem, 0x100003, lens[i]), lens[i]);
        H_EQ(tx_status(f.a), OE_RAW_TX_COMMAND_STATUS_IDLE_MASK |
             OE_RAW_TX_COMMAND_STATUS_DONE_MASK);
        H_EQ(hn_rd(f.a, OE_RAW_TX_TRANSFERRED_LENGTH), lens[i]);
        H_CHECK(hm_log_within(&f.a->mem, HM_READ, 0x100003,
                              0x100003ull + lens[i]));
    }
}

static void raw_tx_bus_errors_report_cause(void)
{
    Fix f = fix(NULL);

    hm_error(&f.a->mem, 0x2100, 1, OE_MEM_SLVERR, HM_READ);
    raw_tx(f.a, 0x2000, 1000);
    H_EQ(tx_status(f.a), err_word(OE_ERR_LOCAL_RD_SLVERR));
    H_CHECK(hn_rd(f.a, OE_RAW_TX_TRANSFERRED_LENGTH) < 1000);
    hm_clear_errors(&f.a->mem);
    hm_error(&f.a->mem, 0x2000, 1, OE_MEM_DECERR, HM_READ);
    raw_tx(f.a, 0x2000, 1000);
    H_EQ(tx_status(f.a), err_word(OE_ERR_LOCAL_RD_DECERR));
    /* a frame that did go out was not a complete one */
    for (const HFrame *fr; (fr = hn_next_tx(f.a));) {
        H_CHECK(fr->len < 1000);
    }
    /* error sticky until clear_errors, done cleared at acceptance */
    hm_clear_errors(&f.a->mem);
    hn_wr(f.a, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(f.w);
    H_EQ(tx_status(f.a), err_word(OE_ERR_LOCAL_RD_DECERR) |
         OE_RAW_TX_COMMAND_STATUS_DONE_MASK);
    hn_wr(f.a, OE_RAW_TX_COMMAND_STATUS,
          OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    H_EQ(tx_status(f.a), OE_RAW_TX_COMMAND_STATUS_IDLE_MASK |
         OE_RAW_TX_COMMAND_STATUS_DONE_MASK);
}

/*
 * The frame streams out as the source is read (as peer writes do): a read
 * failure after the first bytes ends the frame early with exactly the bytes
 * read, transferred_length says how many; a failure on the first bytes
 * sends nothing.
 */
static void raw_tx_source_failure_ends_frame_early(void)
{
    Fix f = fix(NULL);
    const HFrame *fr;
    uint32_t got;

    hm_pattern(&f.a->mem, 0x2F00, 1000, 9);
    hm_error(&f.a->mem, 0x3000, 4, OE_MEM_SLVERR, HM_READ);
    raw_tx(f.a, 0x2F00, 1000);
    H_EQ(tx_status(f.a), err_word(OE_ERR_LOCAL_RD_SLVERR));
    got = hn_rd(f.a, OE_RAW_TX_TRANSFERRED_LENGTH);
    H_CHECK(got > 0 && got <= 0x100);
    fr = hn_next_tx(f.a);
    H_CHECK(fr != NULL);
    if (fr) {
        H_EQ(fr->len, got);
        H_CHECK(memcmp(fr->data, hm_ptr(&f.a->mem, 0x2F00, got), got) == 0);
    }
    H_CHECK(hn_next_tx(f.a) == NULL);

    hm_clear_errors(&f.a->mem);
    hm_error(&f.a->mem, 0x2F00, 1, OE_MEM_SLVERR, HM_READ);
    hn_wr(f.a, OE_RAW_TX_COMMAND_STATUS,
          OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    raw_tx(f.a, 0x2F00, 1000);
    H_EQ(tx_status(f.a), err_word(OE_ERR_LOCAL_RD_SLVERR));
    H_EQ(hn_rd(f.a, OE_RAW_TX_TRANSFERRED_LENGTH), 0);
    H_CHECK(hn_next_tx(f.a) == NULL);
}

static void raw_limits_follow_max_raw_frame_size(void)
{
    OeEngineConfig cfg = { .max_raw_frame_size = 100 };
    Fix f = fix(&cfg);
    uint8_t fr[200];

    raw_tx(f.a, 0x2000, 101);
    H_EQ(tx_status(f.a), err_word(OE_ERR_LOCAL_INVALID));
    H_EQ(hn_count_tx(f.a, -1), 0);
    raw_tx(f.a, 0x2000, 100);
    H_EQ(tx_status(f.a), OE_RAW_TX_COMMAND_STATUS_IDLE_MASK |
         OE_RAW_TX_COMMAND_STATUS_DONE_MASK);
    H_EQ(hn_count_tx(f.a, -1), 1);
    arm_rx(f.a, 0x3000, 101);
    H_EQ(rx_status(f.a), err_word(OE_ERR_LOCAL_INVALID));
    arm_rx(f.a, 0x3000, 100);
    hn_send(f.b, fr, raw_frame(fr, 100, 1));
    hw_settle(f.w);
    H_EQ(rx_status(f.a), OE_RAW_RX_COMMAND_STATUS_IDLE_MASK |
         OE_RAW_RX_COMMAND_STATUS_DONE_MASK);
    H_EQ(hn_rd(f.a, OE_RAW_RX_RECEIVED_LENGTH), 100);
}

static void raw_rx_claims_one_frame_and_never_writes_past_capacity(void)
{
    Fix f = fix(NULL);
    uint8_t fr[2000];

    arm_rx(f.a, 0x3001, 1500);
    H_EQ(rx_status(f.a), OE_RAW_RX_COMMAND_STATUS_ARMED_MASK);
    hn_send(f.b, fr, raw_frame(fr, 1500, 2));
    hn_send(f.b, fr, raw_frame(fr, 64, 3));
    hw_settle(f.w);
    H_EQ(rx_status(f.a), OE_RAW_RX_COMMAND_STATUS_IDLE_MASK |
         OE_RAW_RX_COMMAND_STATUS_DONE_MASK);
    H_EQ(hn_rd(f.a, OE_RAW_RX_RECEIVED_LENGTH), 1500);
    raw_frame(fr, 1500, 2);
    h_check_bytes("raw rx buffer", hm_ptr(&f.a->mem, 0x3001, 1500), 1500, fr,
                  1500);
    /* the second frame went to the direct sink */
    H_EQ(H_GET(hn_rd(f.a, OE_DIRECT_SINK_STATUS), OE_DIRECT_SINK_STATUS_TVALID),
         1);
    /* too long: error 3, writes stay inside [base, base + capacity) */
    hm_log_clear(&f.a->mem);
    arm_rx(f.a, 0x5000, 999);
    hn_send(f.b, fr, raw_frame(fr, 1514, 4));
    hw_settle(f.w);
    H_EQ(rx_status(f.a), err_word(OE_ERR_LOCAL_OVERFLOW));
    H_CHECK(hn_rd(f.a, OE_RAW_RX_RECEIVED_LENGTH) <= 999);
    H_CHECK(hm_log_within(&f.a->mem, HM_WRITE, 0x5000, 0x5000 + 999));
    H_EQ(hm_ptr(&f.a->mem, 0x5000 + 999, 1)[0], 0);
}

/*
 * A request written while the descriptor is armed waits (the channel is not
 * idle) and is accepted in the very call that completes the descriptor:
 * done is sticky only until the next acceptance, so software polling done
 * never sees this frame's completion, and the next frame is claimed too.
 * (The soak once re-requested after a lost frame and counted every later
 * frame as lost: docs/reliability.md.)
 */
static void raw_rx_request_while_armed_is_accepted_on_completion(void)
{
    Fix f = fix(NULL);
    uint8_t fr[200];

    arm_rx(f.a, 0x3000, 200);
    hn_wr(f.a, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hw_settle(f.w);
    H_EQ(rx_status(f.a), OE_RAW_RX_COMMAND_STATUS_ARMED_MASK |
         OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    hn_send(f.b, fr, raw_frame(fr, 100, 6));
    hw_settle(f.w);
    /* claimed, then re-armed at once: done already cleared */
    H_EQ(rx_status(f.a), OE_RAW_RX_COMMAND_STATUS_ARMED_MASK);
    h_check_bytes("first frame", hm_ptr(&f.a->mem, 0x3000, 100), 100, fr, 100);
    hn_send(f.b, fr, raw_frame(fr, 120, 7));
    hw_settle(f.w);
    H_EQ(rx_status(f.a), OE_RAW_RX_COMMAND_STATUS_IDLE_MASK |
         OE_RAW_RX_COMMAND_STATUS_DONE_MASK);
    H_EQ(hn_rd(f.a, OE_RAW_RX_RECEIVED_LENGTH), 120);
    h_check_bytes("second frame", hm_ptr(&f.a->mem, 0x3000, 120), 120, fr,
                  120);
    /* nothing reached the direct sink */
    H_EQ(H_GET(hn_rd(f.a, OE_DIRECT_SINK_STATUS), OE_DIRECT_SINK_STATUS_TVALID),
         0);
}

static void raw_rx_bus_error_reports_cause(void)
{
    Fix f = fix(NULL);
    uint8_t fr[200];

    hm_error(&f.a->mem, 0x3010, 1, OE_MEM_SLVERR, HM_WRITE);
    arm_rx(f.a, 0x3000, 200);
    hn_send(f.b, fr, raw_frame(fr, 100, 5));
    hw_settle(f.w);
    H_EQ(rx_status(f.a), err_word(OE_ERR_LOCAL_WR_SLVERR));
    hm_clear_errors(&f.a->mem);
    hm_error(&f.a->mem, 0x3000, 1, OE_MEM_DECERR, HM_WRITE);
    arm_rx(f.a, 0x3000, 200);
    hn_send(f.b, fr, raw_frame(fr, 100, 5));
    hw_settle(f.w);
    H_EQ(rx_status(f.a), err_word(OE_ERR_LOCAL_WR_DECERR));
}

static void raw_tx_waits_for_transmit_path(void)
{
    Fix f = fix(NULL);

    hn_tx_open(f.a, false);
    raw_tx(f.a, 0x2000, 64);
    hw_run_for(f.w, 1000);
    H_EQ(hn_count_tx(f.a, -1), 0);
    hn_tx_open(f.a, true);
    hw_settle(f.w);
    H_EQ(hn_count_tx(f.a, -1), 1);
    H_EQ(tx_status(f.a), OE_RAW_TX_COMMAND_STATUS_IDLE_MASK |
         OE_RAW_TX_COMMAND_STATUS_DONE_MASK);
}

/* Read one frame from the direct sink through the CSR protocol. */
static size_t sink_read(HNode *n, uint8_t *out, size_t cap)
{
    size_t len = 0;

    for (;;) {
        uint32_t st = hn_rd(n, OE_DIRECT_SINK_STATUS);
        uint32_t d, keep;
        H_CHECKF(H_GET(st, OE_DIRECT_SINK_STATUS_TVALID),
                 "sink empty after %zu bytes", len);
        d = hn_rd(n, OE_DIRECT_SINK_DATA);
        keep = H_GET(st, OE_DIRECT_SINK_STATUS_TKEEP);
        H_CHECKF(keep == 1 || keep == 3 || keep == 7 || keep == 15,
                 "tkeep 0x%x", keep);
        H_CHECK(H_GET(st, OE_DIRECT_SINK_STATUS_TLAST) || keep == 15);
        for (unsigned k = 0; k < 4; k++) {
            if (keep & (1u << k)) {
                H_CHECK(len < cap);
                out[len++] = (uint8_t)(d >> (8 * k));
            }
        }
        hn_wr(n, OE_DIRECT_SINK_CONTROL, OE_DIRECT_SINK_CONTROL_TREADY_MASK);
        hw_settle(n->w);
        if (H_GET(st, OE_DIRECT_SINK_STATUS_TLAST)) {
            return len;
        }
    }
}

/* The 16 KiB sink never drops: it backpressures (can_receive false) and
 * every frame comes out whole and in order once software reads. */
static void direct_sink_backpressures_and_never_drops(void)
{
    Fix f = fix(NULL);
    static uint8_t fr[6000], got[8192];
    bool blocked = false;

    for (unsigned i = 0; i < 6; i++) {
        hn_send(f.b, fr, raw_frame(fr, 6000 - i, i));
    }
    hw_settle(f.w);
    blocked = !hn_can_receive(f.a);
    H_CHECKF(blocked, "6 x 6000 bytes fit a 16 KiB sink?");
    H_CHECK(f.a->nq > 0);
    for (unsigned i = 0; i < 6; i++) {
        size_t n = sink_read(f.a, got, sizeof(got));
        hw_settle(f.w);
        raw_frame(fr, 6000 - i, i);
        h_check_bytes("sink frame", got, n, fr, 6000 - i);
    }
    H_CHECK(hn_can_receive(f.a));
    H_EQ(f.a->nq, 0);
    H_EQ(H_GET(hn_rd(f.a, OE_DIRECT_SINK_STATUS), OE_DIRECT_SINK_STATUS_TVALID),
         0);
}

/* While reception is backpressured, frames for the oETP engine wait too,
 * but a reset releases the sink. */
static void reset_releases_sink_backpressure(void)
{
    Fix f = fix(NULL);
    static uint8_t fr[8000];

    for (unsigned i = 0; i < 4; i++) {
        hn_send(f.b, fr, raw_frame(fr, 8000, i));
    }
    hw_settle(f.w);
    H_CHECK(!hn_can_receive(f.a));
    hn_reset(f.a);
    H_CHECK(hn_can_receive(f.a));
}

/* One direct frame at a time, beats taken in order, tkeep honoured. */
static void direct_source_sends_frames_unchanged(void)
{
    Fix f = fix(NULL);
    uint8_t fr[3000];

    for (size_t len = 1; len <= 9; len++) {
        raw_frame(fr, sizeof(fr), (unsigned)len);
        for (size_t i = 0; i < len; i += 4) {
            uint32_t d = 0, nb = len - i < 4 ? (uint32_t)(len - i) : 4;
            for (unsigned k = 0; k < nb; k++) {
                d |= (uint32_t)fr[i + k] << (8 * k);
            }
            H_EQ(H_GET(hn_rd(f.a, OE_DIRECT_SOURCE_CONTROL),
                       OE_DIRECT_SOURCE_CONTROL_TVALID), 0);
            hn_wr(f.a, OE_DIRECT_SOURCE_DATA, d);
            hn_wr(f.a, OE_DIRECT_SOURCE_CONTROL,
                  H_PUT(OE_DIRECT_SOURCE_CONTROL_TKEEP, (1u << nb) - 1) |
                  H_PUT(OE_DIRECT_SOURCE_CONTROL_TLAST, i + 4 >= len) |
                  OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
            hw_settle(f.w);
        }
        {
            const HFrame *t = hn_next_tx(f.a);
            H_CHECKF(t, "no frame for length %zu", len);
            h_check_bytes("direct frame", t->data, t->len, fr, len);
        }
    }
    H_EQ(hn_unread_tx(f.a), 0);
}

/* Raw buffers may end exactly at 2^32. */
static void raw_buffers_ending_at_4gib(void)
{
    Fix f = fix(NULL);
    uint8_t fr[8192];
    const HFrame *t;

    hm_region(&f.a->mem, 0xFFFF0000, 0x10000);
    hm_pattern(&f.a->mem, 0xFFFFE000, 0x2000, 4);
    raw_tx(f.a, 0xFFFFE000, 0x2000);
    t = hn_next_tx(f.a);
    H_CHECK(t != NULL);
    h_check_bytes("raw top frame", t->data, t->len,
                  hm_ptr(&f.a->mem, 0xFFFFE000, 0x2000), 0x2000);
    arm_rx(f.a, 0xFFFFF000 - 3, 0x1003);
    hn_send(f.b, fr, raw_frame(fr, 0x1003, 6));
    hw_settle(f.w);
    H_EQ(rx_status(f.a), OE_RAW_RX_COMMAND_STATUS_IDLE_MASK |
         OE_RAW_RX_COMMAND_STATUS_DONE_MASK);
    h_check_bytes("raw top buffer", hm_ptr(&f.a->mem, 0xFFFFF000 - 3, 0x1003),
                  0x1003, fr, 0x1003);
}

static const HTest tests[] = {
    H_TEST(raw_tx_whole_frames_up_to_8192),
    H_TEST(raw_tx_bus_errors_report_cause),
    H_TEST(raw_tx_source_failure_ends_frame_early),
    H_TEST(raw_limits_follow_max_raw_frame_size),
    H_TEST(raw_rx_claims_one_frame_and_never_writes_past_capacity),
    H_TEST(raw_rx_request_while_armed_is_accepted_on_completion),
    H_TEST(raw_rx_bus_error_reports_cause),
    H_TEST(raw_tx_waits_for_transmit_path),
    H_TEST(direct_sink_backpressures_and_never_drops),
    H_TEST(reset_releases_sink_backpressure),
    H_TEST(direct_source_sends_frames_unchanged),
    H_TEST(raw_buffers_ending_at_4gib),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
