// Size limits from MAX_RAW_FRAME_SIZE (8192 in this build): the 8160-byte
// fragment ceiling on both paths and the raw frame ceiling.
#include "tb_check.h"

// Fragments longer than the ceiling, or empty, are invalid parameters: the
// initiator rejects them before any frame, the receiver answers cause 1.
TB_TEST(fragment_ceiling_enforced, true)
{
    s.ini.cmds.push_back(c_dma_write(2, 0, 8164, 1));
    s.ini.cmds.push_back(c_dma_read(1, 0, 0, 2));
    CHECK(wait_cpls(s, 2));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 1);
    CHECK(s.ini.cpls[1].error && s.ini.cpls[1].code == 1);
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 9, 0, pattern(8164, 1)));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_error_rsp(MAC_PEER1, MAC_LOCAL, 9, 1));
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 10, 0, Bytes()));
    CHECK(wait_frames(s, 2));
    CHECK(s.eth_sink.done[1].bytes == f_error_rsp(MAC_PEER1, MAC_LOCAL, 10, 1));
    CHECK(s.settle());
    CHECK(s.local_sink.done.empty());      // no payload reached memory
    CHECK_EQ(s.eth_sink.done.size(), 2u);
}

// A raw frame longer than the ceiling is cut one byte past
// MAX_RAW_FRAME_SIZE (TLAST there), so the local paths see it is too long
// and reject it; the rest is drained; the next frame is intact.
TB_TEST(raw_frames_cut_at_ceiling, true)
{
    Bytes big = f_raw(MAC_LOCAL, MAC_PEER0, 0x0800, 8200, 1);
    Bytes small = f_raw(MAC_LOCAL, MAC_PEER0, 0x0800, 61, 2);
    s.send_eth(big);
    s.send_eth(small);
    CHECK(s.settle());
    CHECK_EQ(s.local_sink.done.size(), 2u);
    if (s.local_sink.done.size() == 2) {
        CHECK(s.local_sink.done[0].bytes == Bytes(big.begin(), big.begin() + 8193));
        CHECK(s.local_sink.done[1].bytes == small);
    }
}
