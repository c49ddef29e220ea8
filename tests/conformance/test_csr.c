/*
 * CSR block rules (endpoint.md sections 1-3 and 8): reset values from the
 * RDL, access types, byte lanes of 1/2/4-byte accesses, unmapped offsets,
 * engine configuration (MAX_RAW_FRAME_SIZE, reset MAC).
 */
#include "harness.h"
#include "openenoc/regs_table.h"

static HNode *one_engine(const OeEngineConfig *cfg)
{
    HWorld *w = hw_new();
    return hw_engine(w, "dut", 0, cfg);
}

/* Words whose command bits would start work if written as ones. */
static bool has_side_effects(const OeRegWord *r)
{
    return r->cmd_mask != 0;
}

/*
 * Hardware-driven live status that legitimately differs from the RDL's
 * storage reset value once written: pause_done follows pause_request.
 */
static uint32_t live_bits(const OeRegWord *r)
{
    switch (r->offset) {
    case OE_SWITCH_FORWARDING_CONTROL:   /* checked below */
        return OE_SWITCH_FORWARDING_CONTROL_PAUSE_DONE_MASK;
    default:
        return 0;
    }
}

static void check_all_reset_values(HNode *n)
{
    for (size_t i = 0; i < OE_REG_WORDS_COUNT; i++) {
        const OeRegWord *r = &oe_reg_words[i];
        uint32_t v = hn_rd(n, r->offset) & ~live_bits(r);
        H_CHECKF(v == r->reset, "%s (0x%04x) reads 0x%08x, reset 0x%08x",
                 r->name, r->offset, v, r->reset);
    }
}

static void csr_reset_values_match_rdl(void)
{
    check_all_reset_values(one_engine(NULL));
}

static void csr_info_advertises_default_build(void)
{
    HNode *n = one_engine(NULL);

    /* endpoint.md: "word 0x800 reads 0x0000_0100 and word 0x804 reads
     * 0x2000_F804 in the default build" (written out, not from regs.h). */
    H_EQ(hn_rd(n, 0x800), 0x00000100);
    H_EQ(hn_rd(n, 0x804), 0x2000F804);
    H_EQ(hn_rd(n, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE), 8160);
    H_EQ(hn_rd(n, OE_CONFIG_NON_OETP_CONTROL), 1);
    H_EQ(hn_rd(n, OE_SWITCH_INFO), 0x00040008);
}

static void csr_rw_fields_hold_written_value_ro_fields_ignore_writes(void)
{
    HNode *n = one_engine(NULL);

    for (size_t i = 0; i < OE_REG_WORDS_COUNT; i++) {
        const OeRegWord *r = &oe_reg_words[i];
        uint32_t ones = 0xFFFFFFFFu & ~r->cmd_mask;
        uint32_t want = (ones & r->sw_mask) | (r->reset & ~r->sw_mask);
        uint32_t v;

        if (has_side_effects(r) && r->sw_mask == r->cmd_mask) {
            continue;   /* command-only words: covered by their own rules */
        }
        hn_wr(n, r->offset, ones);
        v = hn_rd(n, r->offset) & ~live_bits(r);
        H_CHECKF(v == want, "%s: wrote 0x%08x, read 0x%08x, want 0x%08x",
                 r->name, ones, v, want);
        hn_wr(n, r->offset, 0);
        v = hn_rd(n, r->offset) & ~live_bits(r);
        H_CHECKF(v == (r->reset & ~r->sw_mask),
                 "%s: wrote 0, read 0x%08x", r->name, v);
    }
}

static void csr_byte_and_halfword_writes_touch_only_their_lanes(void)
{
    HNode *n = one_engine(NULL);

    hn_wr(n, OE_TEST_REG, 0x11223344);
    hn_wr_sz(n, OE_TEST_REG + 1, 1, 0xAB);
    H_EQ(hn_rd(n, OE_TEST_REG), 0x1122AB44);
    hn_wr_sz(n, OE_TEST_REG + 2, 2, 0xCDEF);
    H_EQ(hn_rd(n, OE_TEST_REG), 0xCDEFAB44);
    hn_wr_sz(n, OE_TEST_REG + 3, 1, 0x5A);
    H_EQ(hn_rd(n, OE_TEST_REG), 0x5AEFAB44);
    /* regB's four 8-bit fields, one byte store each (packed structs). */
    for (unsigned k = 0; k < 4; k++) {
        hn_wr_sz(n, OE_REGB + k, 1, 0x10 + k);
    }
    H_EQ(hn_rd(n, OE_REGB), 0x13121110);
    /* A byte store to a 64-bit MAC's high word. */
    hn_wr64(n, OE_CONFIG_MAC_ADDRESS, 0x020E0C000011ull);
    hn_wr_sz(n, OE_CONFIG_MAC_ADDRESS_HI, 1, 0x06);
    H_EQ(hn_rd64(n, OE_CONFIG_MAC_ADDRESS), 0x02060C000011ull);
}

static void csr_narrow_reads_return_their_lanes(void)
{
    HNode *n = one_engine(NULL);

    hn_wr(n, OE_TEST_REG, 0xA1B2C3D4);
    H_EQ(hn_rd_sz(n, OE_TEST_REG, 1), 0xD4);
    H_EQ(hn_rd_sz(n, OE_TEST_REG + 1, 1), 0xC3);
    H_EQ(hn_rd_sz(n, OE_TEST_REG + 2, 1), 0xB2);
    H_EQ(hn_rd_sz(n, OE_TEST_REG + 3, 1), 0xA1);
    H_EQ(hn_rd_sz(n, OE_TEST_REG, 2), 0xC3D4);
    H_EQ(hn_rd_sz(n, OE_TEST_REG + 2, 2), 0xA1B2);
    H_EQ(hn_rd_sz(n, OE_INFO_HI + 2, 2), 0x2000);
}

static bool mapped(uint32_t off)
{
    for (size_t i = 0; i < OE_REG_WORDS_COUNT; i++) {
        if (oe_reg_words[i].offset == (off & ~3u)) {
            return true;
        }
    }
    return off >= OE_RMEM && off < OE_RMEM + OE_RMEM_SIZE;
}

static void csr_unmapped_offsets_read_zero_and_ignore_writes(void)
{
    HNode *n = one_engine(NULL);
    unsigned checked = 0;

    for (uint32_t off = 0; off < OE_CSR_APERTURE_SIZE; off += 4) {
        if (mapped(off)) {
            continue;
        }
        hn_wr(n, off, 0xFFFFFFFF);
        H_CHECKF(hn_rd(n, off) == 0, "unmapped 0x%04x reads 0x%08x", off,
                 hn_rd(n, off));
        H_CHECKF(hn_rd_sz(n, off + 2, 2) == 0, "unmapped 0x%04x", off + 2);
        checked++;
    }
    H_CHECK(checked > 1000);
    /* ...and none of those writes reached a register. */
    check_all_reset_values(n);
}

static void csr_mac_high_word_keeps_16_bits(void)
{
    HNode *n = one_engine(NULL);

    hn_wr(n, OE_CONFIG_MAC_ADDRESS_HI, 0xFFFFFFFF);
    H_EQ(hn_rd(n, OE_CONFIG_MAC_ADDRESS_HI), 0xFFFF);
    hn_wr(n, OE_PEER_MAC_ADDRESS_HI(3), 0x12345678);
    H_EQ(hn_rd(n, OE_PEER_MAC_ADDRESS_HI(3)), 0x5678);
}

static void csr_peer_entries_at_stride_0x1c(void)
{
    HNode *n = one_engine(NULL);
    static const uint32_t dma_off[4] = { 0x918, 0x934, 0x950, 0x96C };
    static const uint32_t mac_off[4] = { 0x900, 0x91C, 0x938, 0x954 };

    for (unsigned i = 0; i < 4; i++) {
        H_EQ(OE_PEER_DMA(i), dma_off[i]);
        H_EQ(OE_PEER_MAC_ADDRESS(i), mac_off[i]);
        hn_wr(n, mac_off[i], 0x100 + i);
        hn_wr(n, dma_off[i], i);   /* mode i */
    }
    for (unsigned i = 0; i < 4; i++) {
        H_EQ(hn_rd(n, OE_PEER_MAC_ADDRESS(i)), 0x100 + i);
        H_EQ(hn_rd(n, OE_PEER_DMA(i)), 0x00010000 | i);
    }
}

static void dma_max_fragment_size_keeps_unrounded_value(void)
{
    HNode *n = one_engine(NULL);
    static const uint32_t vals[] = { 31, 7, 8161, 8163, 0, 3, 0xFFFFFFFF };

    for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
        hn_wr(n, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, vals[i]);
        H_EQ(hn_rd(n, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE), vals[i]);
    }
}

static void engine_config_max_raw_frame_size_sets_info_and_mfs_reset(void)
{
    OeEngineConfig cfg = { .max_raw_frame_size = 100 };
    HNode *n = one_engine(&cfg);

    H_EQ(H_GET(hn_rd64(n, OE_INFO), OE_INFO_MAX_DMA_FRAME_SIZE_BYTES), 100);
    /* ceiling = 4*floor((100-32)/4) = 68 */
    H_EQ(hn_rd(n, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE), 68);
}

static OeMemStatus no_mem(void *o, uint32_t addr, void *buf, uint32_t len)
{
    (void)o; (void)addr; (void)buf; (void)len;
    return OE_MEM_DECERR;
}

static OeMemStatus no_mem_w(void *o, uint32_t addr, const void *buf, uint32_t len)
{
    (void)o; (void)addr; (void)buf; (void)len;
    return OE_MEM_DECERR;
}

static void no_tx(void *o, const uint8_t *frame, size_t len)
{
    (void)o; (void)frame; (void)len;
}

/* host ops an engine accepts, so only the configured value can be refused */
#define COMPLETE_OPS { .mem_read = no_mem, .mem_write = no_mem_w, .tx_frame = no_tx }

static void engine_new_rejects_out_of_range_max_raw_frame_size(void)
{
    static const uint32_t bad[] = { 1, 35, 8193, 65536, 0xFFFFFFFF };
    static const uint32_t good[] = { 0, 36, 60, 8192 };
    static const OeHostOps ops = COMPLETE_OPS;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        OeEngineConfig cfg = { .max_raw_frame_size = bad[i] };
        const char *err = NULL;
        OeEngine *e = oe_engine_new(&ops, NULL, &cfg, &err);
        H_CHECKF(!e, "max_raw_frame_size %u accepted", bad[i]);
        H_CHECKF(err && *err, "no error message for %u", bad[i]);
    }
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        OeEngineConfig cfg = { .max_raw_frame_size = good[i] };
        HNode *n = one_engine(&cfg);
        H_EQ(H_GET(hn_rd64(n, OE_INFO), OE_INFO_MAX_DMA_FRAME_SIZE_BYTES),
             good[i] ? good[i] : 8192);
    }
}

/* the memory bus's beat bytes: 4, 8, 16 or 32 (engine.h); 0 is every engine's own */
static void engine_new_rejects_other_mem_beat_bytes(void)
{
    static const uint32_t bad[] = { 1, 2, 3, 5, 12, 24, 64, 0xFFFFFFFF };
    static const OeHostOps ops = COMPLETE_OPS;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        OeEngineConfig cfg = { .mem_beat_bytes = bad[i] };
        const char *err = NULL;
        OeEngine *e = oe_engine_new(&ops, NULL, &cfg, &err);
        H_CHECKF(!e, "mem_beat_bytes %u accepted", bad[i]);
        H_CHECKF(err && *err, "no error message for %u", bad[i]);
    }
    OeEngineConfig own = { .mem_beat_bytes = 0 };
    HNode *n = one_engine(&own);
    H_EQ(H_GET(hn_rd64(n, OE_INFO), OE_INFO_MAX_DMA_FRAME_SIZE_BYTES), 8192);
}

static void engine_config_reset_mac_is_mac_reset_value(void)
{
    OeEngineConfig cfg = { .reset_mac = 0x020E0C000042ull };
    HNode *n = one_engine(&cfg);

    H_EQ(hn_rd64(n, OE_CONFIG_MAC_ADDRESS), 0x020E0C000042ull);
    hn_wr64(n, OE_CONFIG_MAC_ADDRESS, 0x020E0C000001ull);
    hn_reset(n);
    H_EQ(hn_rd64(n, OE_CONFIG_MAC_ADDRESS), 0x020E0C000042ull);
}

static void engines_in_one_process_are_independent(void)
{
    HWorld *w = hw_new();
    HNode *a = hw_engine(w, "a", H_MAC_A, NULL);
    HNode *b = hw_engine(w, "b", H_MAC_B, NULL);

    hn_wr(a, OE_TEST_REG, 0xAAAA5555);
    H_EQ(hn_rd(b, OE_TEST_REG), 0);
    H_EQ(hn_rd64(a, OE_CONFIG_MAC_ADDRESS), H_MAC_A);
    H_EQ(hn_rd64(b, OE_CONFIG_MAC_ADDRESS), H_MAC_B);
}

static void switch_pause_done_follows_pause_request(void)
{
    HNode *n = one_engine(NULL);

    hn_wr(n, OE_SWITCH_FORWARDING_CONTROL,
          OE_SWITCH_FORWARDING_CONTROL_PAUSE_REQUEST_MASK);
    hw_settle(n->w);
    H_CHECK(hn_rd(n, OE_SWITCH_FORWARDING_CONTROL) &
            OE_SWITCH_FORWARDING_CONTROL_PAUSE_DONE_MASK);
    hn_wr(n, OE_SWITCH_FORWARDING_CONTROL, 0);
    hw_settle(n->w);
    H_CHECK(!(hn_rd(n, OE_SWITCH_FORWARDING_CONTROL) &
              OE_SWITCH_FORWARDING_CONTROL_PAUSE_DONE_MASK));
}

/* oe_engine_now() reports the cycle last passed to oe_engine_advance(). */
static void engine_now_reports_last_advance(void)
{
    HNode *n = one_engine(NULL);

    H_EQ(oe_engine_now(n->e), 0);
    hw_run_until(n->w, 12345);
    hn_advance(n);
    H_EQ(oe_engine_now(n->e), 12345);
}

/* A register access to an engine at rest is over when its call returns:
 * the engine asks for no wake-up "at once" to finish it. (Each such call
 * costs a host a second engine call: under QEMU, a bottom half.) */
static void csr_access_at_rest_asks_for_no_second_call(void)
{
    HNode *n = one_engine(NULL);

    hw_settle(n->w);
    H_EQ(n->timer, OE_TIMER_NONE);
    for (int i = 0; i < 3; i++) {
        unsigned arms = n->arm_calls;

        hn_wr(n, OE_PEER_MAC_ADDRESS(0), 0x0C000000u + i);
        H_EQ(hn_rd(n, OE_PEER_MAC_ADDRESS(0)), 0x0C000000u + i);
        H_EQ(n->timer, OE_TIMER_NONE);
        H_EQ(n->arm_calls, arms);
    }
}

static void reset_restores_every_register(void)
{
    HNode *n = one_engine(NULL);

    for (size_t i = 0; i < OE_REG_WORDS_COUNT; i++) {
        const OeRegWord *r = &oe_reg_words[i];
        hn_wr(n, r->offset, 0x5A5A5A5A & r->sw_mask & ~r->cmd_mask);
    }
    hn_reset(n);
    check_all_reset_values(n);
}

static const HTest tests[] = {
    H_TEST(csr_reset_values_match_rdl),
    H_TEST(csr_info_advertises_default_build),
    H_TEST(csr_rw_fields_hold_written_value_ro_fields_ignore_writes),
    H_TEST(csr_byte_and_halfword_writes_touch_only_their_lanes),
    H_TEST(csr_narrow_reads_return_their_lanes),
    H_TEST(csr_unmapped_offsets_read_zero_and_ignore_writes),
    H_TEST(csr_mac_high_word_keeps_16_bits),
    H_TEST(csr_peer_entries_at_stride_0x1c),
    H_TEST(dma_max_fragment_size_keeps_unrounded_value),
    H_TEST(engine_config_max_raw_frame_size_sets_info_and_mfs_reset),
    H_TEST(engine_new_rejects_out_of_range_max_raw_frame_size),
    H_TEST(engine_new_rejects_other_mem_beat_bytes),
    H_TEST(engine_config_reset_mac_is_mac_reset_value),
    H_TEST(engines_in_one_process_are_independent),
    H_TEST(csr_access_at_rest_asks_for_no_second_call),
    H_TEST(switch_pause_done_follows_pause_request),
    H_TEST(engine_now_reports_last_advance),
    H_TEST(reset_restores_every_register),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
