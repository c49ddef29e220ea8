/*
 * The oETP codec on its own (include/openenoc/oetp.h, hw/oetp/oetp.c): the
 * named offsets against the spec's layouts, in-place building (a payload
 * already at its offset gives the same bytes as a copied one), the frame a
 * failed source cuts short, the parameter parser on whole and short frames,
 * the EndOfData check and the Cmd of a frame.
 */
#include <string.h>

#include "check.h"
#include "openenoc/oetp.h"

#define DST 0x020000000001ull
#define SRC 0x020000000002ull

static void fill(uint8_t *p, uint32_t n, uint8_t seed)
{
    for (uint32_t i = 0; i < n; i++) {
        p[i] = (uint8_t)(seed + 7 * i);
    }
}

static void named_offsets_follow_the_command_layouts(void)
{
    uint8_t f[64];

    oetp_build_rmem_write_req(f, DST, SRC, 1, 0x100, 0x0000FFFF, 0xAABBCCDD);
    H_EQ(oetp_get_le32(f + OETP_OFF_RID), 1);
    H_EQ(oetp_get_le32(f + OETP_OFF_ADDR), 0x100);
    H_EQ(oetp_get_le32(f + OETP_OFF_BITEN), 0x0000FFFF);
    H_EQ(oetp_get_le32(f + OETP_OFF_WDATA), 0xAABBCCDD);
    oetp_build_dma_read_req(f, DST, SRC, 2, 0x200, 24);
    H_EQ(oetp_get_le32(f + OETP_OFF_LENGTH), 24);
    oetp_build_error_rsp(f, DST, SRC, 3, OETP_CAUSE_OVERFLOW);
    H_EQ(oetp_get_le32(f + OETP_OFF_CAUSE), OETP_CAUSE_OVERFLOW);
    oetp_build_rmem_read_rsp(f, DST, SRC, 4, 0x12345678);
    H_EQ(oetp_get_le32(f + OETP_OFF_RSP_DATA), 0x12345678);
    H_EQ(oetp_data_off(OETP_DMA_READ_RSP), OETP_OFF_READ_DATA);
    H_EQ(oetp_data_off(OETP_DMA_WRITE_REQ), OETP_OFF_WRITE_DATA);
    H_EQ(oetp_data_off(OETP_DMA_READ_REQ), 0);
    /* The logical lengths: fixed parameters plus data and EndOfData. */
    H_EQ(oetp_frame_len(OETP_RMEM_WRITE_REQ, 0), OETP_OFF_PARAM1 + 16);
    H_EQ(oetp_frame_len(OETP_DMA_WRITE_REQ, 5), OETP_OFF_WRITE_DATA + 8 + 4);
    H_EQ(oetp_frame_len(OETP_DMA_READ_RSP, 8), OETP_OFF_READ_DATA + 8 + 4);
    H_EQ(oetp_frame_len(0x50, 0), 0);
}

static void in_place_payload_builds_the_same_bytes(void)
{
    static uint8_t a[OETP_FRAME_MAX], b[OETP_FRAME_MAX];
    uint8_t data[37];
    size_t na, nb;

    fill(data, sizeof(data), 3);
    memset(a, 0xEE, sizeof(a));
    memset(b, 0x55, sizeof(b));
    na = oetp_build_dma_read_rsp(a, DST, SRC, 9, data, sizeof(data), true);
    memcpy(b + OETP_OFF_READ_DATA, data, sizeof(data));
    nb = oetp_build_dma_read_rsp(b, DST, SRC, 9, b + OETP_OFF_READ_DATA,
                                 sizeof(data), true);
    H_EQ(na, nb);
    H_EQ(na, oetp_frame_len(OETP_DMA_READ_RSP, sizeof(data)));
    H_CHECK(memcmp(a, b, na) == 0);
    H_EQ(a[OETP_OFF_READ_DATA + 37], 0);   /* word padding is zero */

    na = oetp_build_dma_write_req(a, DST, SRC, 9, 0x40, data, sizeof(data),
                                  true);
    memcpy(b + OETP_OFF_WRITE_DATA, data, sizeof(data));
    nb = oetp_build_dma_write_req(b, DST, SRC, 9, 0x40,
                                  b + OETP_OFF_WRITE_DATA, sizeof(data), true);
    H_EQ(na, nb);
    H_CHECK(memcmp(a, b, na) == 0);
}

static void cut_write_req_keeps_length_without_eod(void)
{
    uint8_t f[128], whole[128], data[40];
    size_t n;

    fill(data, sizeof(data), 1);
    n = oetp_build_dma_write_req_cut(f, DST, SRC, 5, 0x80, 40, data, 12);
    H_EQ(n, OETP_OFF_WRITE_DATA + 12);
    H_EQ(oetp_get_le32(f + OETP_OFF_LENGTH), 40);
    H_CHECK(memcmp(f + OETP_OFF_WRITE_DATA, data, 12) == 0);
    /* The same bytes as the whole frame up to the cut. */
    oetp_build_dma_write_req(whole, DST, SRC, 5, 0x80, data, 40, true);
    H_CHECK(memcmp(f, whole, n) == 0);
    H_CHECK(!oetp_eod_ok(f, n, OETP_DMA_WRITE_REQ, 40));
    /* sent is clamped to Length */
    H_EQ(oetp_build_dma_write_req_cut(f, DST, SRC, 5, 0x80, 4, data, 12),
         OETP_OFF_WRITE_DATA + 4);
}

static void params_parse_whole_and_short_frames(void)
{
    uint8_t f[64];
    OetpParams p;
    size_t n;

    n = oetp_build_rmem_write_req(f, DST, SRC, 7, 0x44, 0xFF, 0x99);
    oetp_parse_params(f, n, OETP_RMEM_WRITE_REQ, &p);
    H_EQ(p.count, 4);
    H_EQ(p.rid, 7);
    H_EQ(p.addr, 0x44);
    H_EQ(p.biten, 0xFF);
    H_EQ(p.data, 0x99);
    H_CHECK(p.payload == NULL);
    /* A frame that ends inside parameter 3 gives two whole ones. */
    oetp_parse_params(f, OETP_OFF_PARAM1 + 10, OETP_RMEM_WRITE_REQ, &p);
    H_EQ(p.count, 2);
    H_EQ(p.addr, 0x44);
    H_EQ(p.biten, 0);
    oetp_parse_params(f, OETP_OFF_CMD + 1, OETP_RMEM_WRITE_REQ, &p);
    H_EQ(p.count, 0);

    n = oetp_build_rmem_read_rsp(f, DST, SRC, 10, 0xCAFEF00D);
    oetp_parse_params(f, n, OETP_RMEM_READ_RSP, &p);
    H_EQ(p.count, 2);
    H_EQ(p.data, 0xCAFEF00D);
    n = oetp_build_dma_read_req(f, DST, SRC, 11, 0x500, 64);
    oetp_parse_params(f, n, OETP_DMA_READ_REQ, &p);
    H_EQ(p.count, 3);
    H_EQ(p.addr, 0x500);
    H_EQ(p.length, 64);
    H_CHECK(p.payload == NULL);

    n = oetp_build_error_rsp(f, DST, SRC, 8, OETP_CAUSE_WR_DECERR);
    oetp_parse_params(f, n, OETP_ERROR_RSP, &p);
    H_EQ(p.count, 2);
    H_EQ(p.cause, OETP_CAUSE_WR_DECERR);
    H_EQ(p.data, 0);

    n = oetp_build_dma_write_req(f, DST, SRC, 6, 0x300, (const uint8_t *)"abcdef",
                                 6, true);
    oetp_parse_params(f, n, OETP_DMA_WRITE_REQ, &p);
    H_EQ(p.count, 3);
    H_EQ(p.length, 6);
    H_CHECK(p.payload == f + OETP_OFF_WRITE_DATA);
    H_EQ(p.payload_avail, n - OETP_OFF_WRITE_DATA);
    H_CHECK(oetp_eod_ok(f, n, OETP_DMA_WRITE_REQ, 6));
    H_CHECK(!oetp_eod_ok(f, n - 1, OETP_DMA_WRITE_REQ, 6));
    H_CHECK(!oetp_eod_ok(f, n, OETP_DMA_WRITE_REQ, 10));
    H_CHECK(!oetp_eod_ok(f, n, OETP_DMA_READ_REQ, 6));
    /* Ends before the data array: no payload. */
    oetp_parse_params(f, OETP_OFF_WRITE_DATA, OETP_DMA_WRITE_REQ, &p);
    H_EQ(p.count, 3);
    H_CHECK(p.payload == NULL);
    H_EQ(p.payload_avail, 0);
}

static void frame_cmd_only_for_oetp_frames(void)
{
    uint8_t f[64];
    size_t n = oetp_build_dma_write_rsp(f, DST, SRC, 1);

    H_EQ(oetp_frame_cmd(f, n), OETP_DMA_WRITE_RSP);
    H_EQ(oetp_frame_cmd(f, OETP_OFF_CMD + 1), OETP_DMA_WRITE_RSP);
    H_EQ(oetp_frame_cmd(f, OETP_OFF_CMD), -1);    /* ends before Cmd */
    f[OETP_OFF_CMD] = 0;
    H_EQ(oetp_frame_cmd(f, n), 0);                /* unassigned, still oETP */
    f[OETP_OFF_MAGIC] = OETP_MAGIC + 1;
    H_EQ(oetp_frame_cmd(f, n), -1);
    f[OETP_OFF_MAGIC] = OETP_MAGIC;
    f[OETP_OFF_ETHERTYPE + 1] ^= 1;
    H_EQ(oetp_frame_cmd(f, n), -1);
}

int main(int argc, char **argv)
{
    static const HTest tests[] = {
        H_TEST(named_offsets_follow_the_command_layouts),
        H_TEST(in_place_payload_builds_the_same_bytes),
        H_TEST(cut_write_req_keeps_length_without_eod),
        H_TEST(params_parse_whole_and_short_frames),
        H_TEST(frame_cmd_only_for_oetp_frames),
    };
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
