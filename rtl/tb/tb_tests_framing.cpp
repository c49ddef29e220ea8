// Error mapping with full-width causes, and receive framing: truncation,
// missing or bad EndOfData, excess data, Ethernet padding, errors that show
// only after the memory TLAST.
#include "tb_check.h"

// ERROR_RSP causes are validated on all 32 bits: 1..7 -> 9..15, else 1.
TB_TEST(error_rsp_cause_maps_full_width, true)
{
    const uint32_t causes[] = {1, 2, 3, 4, 5, 6, 7, 0, 8, 0x102, 0x80000001u, 0xFFFFFFFFu};
    uint32_t rid = 0;
    for (uint32_t cause : causes) {
        s.ini.cmds.push_back(c_rmem_read(0, 0x10, rid));
        CHECK(wait_frames(s, rid + 1));
        s.send_eth(f_error_rsp(MAC_LOCAL, MAC_PEER0, rid, cause));
        CHECK(wait_cpls(s, rid + 1));
        const Cpl &c = s.ini.cpls.back();
        CHECK(c.error);
        CHECK_EQ(c.code, oetp_csr_error_from_wire(cause));
        CHECK_EQ(c.rdata, 0xFFFFFFFFu);
        rid++;
    }
}

// Servicing failures become ERROR_RSP with the local cause; malformed
// fixed-length requests with a Request ID get cause 2 without memory work.
TB_TEST(responder_failures_answer_error_rsp, true)
{
    s.rsp.rmem_fail_cause = 4;
    s.send_eth(f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 1, 0x10));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_error_rsp(MAC_PEER0, MAC_LOCAL, 1, 4));
    s.rsp.rmem_fail_cause = 6;
    s.send_eth(f_rmem_write_req(MAC_LOCAL, MAC_PEER0, 2, 0x10, ~0u, 5));
    CHECK(wait_frames(s, 2));
    CHECK(s.eth_sink.done[1].bytes == f_error_rsp(MAC_PEER0, MAC_LOCAL, 2, 6));
    s.rsp.rmem_fail_cause = 0;
    s.rsp.write_fail_cause = 7;
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 3, 0x100, pattern(16, 1)));
    CHECK(wait_frames(s, 3));
    CHECK(s.eth_sink.done[2].bytes == f_error_rsp(MAC_PEER1, MAC_LOCAL, 3, 7));
    s.rsp.write_fail_cause = 0;
    // 28 bytes is neither the exact 24 nor the padded 60
    s.send_eth(pad_to(f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 4, 0x10), 28));
    CHECK(wait_frames(s, 4));
    CHECK(s.eth_sink.done[3].bytes == f_error_rsp(MAC_PEER0, MAC_LOCAL, 4, 2));
    CHECK(!s.rsp.reqs.empty() && s.rsp.reqs.back().err == 2);
    // a frame cut inside its Request ID cannot be answered
    Bytes cut = f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 5, 0x10);
    cut.resize(18);
    size_t nreq = s.rsp.reqs.size();
    s.send_eth(cut);
    CHECK(s.settle());
    CHECK_EQ(s.eth_sink.done.size(), 4u);
    CHECK_EQ(s.rsp.reqs.size(), nreq);
    // an ERROR_RSP is never answered with another ERROR_RSP
    s.send_eth(f_error_rsp(MAC_LOCAL, MAC_PEER0, 77, 3));
    CHECK(s.settle());
    CHECK_EQ(s.eth_sink.done.size(), 4u);
}

struct WriteCase {
    const char *what;
    Bytes frame;
    uint32_t delivered;      // bytes that reach memory
};

// A received write that is cut, lacks its EndOfData or carries a wrong one,
// or runs past it, fails through rx_status with cause 2 and gets
// ERROR_RSP 2; the bytes already streamed stay written.
TB_TEST(rx_write_framing_errors_fail_late, true)
{
    Bytes d = pattern(12, 0x21);
    Bytes good = f_dma_write_req(MAC_LOCAL, MAC_PEER1, 0, 0x300, d);
    std::vector<WriteCase> cases;
    Bytes b = good; b.resize(good.size() - 8);               // cut inside Data
    cases.push_back({"truncated", b, 8});
    b = good; b.resize(good.size() - 4);                      // no trailer
    cases.push_back({"missing eod", b, 12});
    b = good; b[b.size() - 1] ^= 0x01;                        // wrong trailer
    cases.push_back({"bad eod", b, 12});
    b = good; b.insert(b.end(), {0, 0, 0, 0});                // data after the trailer
    cases.push_back({"excess", b, 12});
    b = f_dma_write_req(MAC_LOCAL, MAC_PEER1, 0, 0x300, pattern(4, 0x21), false);
    b = pad_to(b, 60);                                        // zeros cannot be a trailer
    cases.push_back({"padding for eod", b, 4});
    uint32_t rid = 0x40;
    for (WriteCase &c : cases) {
        oetp_put_le32(c.frame.data() + OETP_OFF_RID, rid);
        size_t n = s.eth_sink.done.size(), st = s.rsp.rx_status.size();
        s.send_eth(c.frame);
        CHECK(wait_frames(s, n + 1));
        if (s.eth_sink.done.size() <= n) { fprintf(stderr, "  case %s\n", c.what); return; }
        if (s.eth_sink.done[n].bytes != f_error_rsp(MAC_PEER1, MAC_LOCAL, rid, 2))
            fprintf(stderr, "  case %s: %s\n", c.what, hex(s.eth_sink.done[n].bytes).c_str());
        CHECK(s.eth_sink.done[n].bytes == f_error_rsp(MAC_PEER1, MAC_LOCAL, rid, 2));
        CHECK_EQ(s.rsp.rx_status.size(), st + 1);
        if (s.rsp.rx_status.size() > st) {
            CHECK_EQ(s.rsp.rx_status[st].code, 2u);
            CHECK_EQ(s.rsp.rx_status[st].len, c.delivered);
        }
        CHECK_EQ(s.local_sink.done.back().bytes.size(), size_t(c.delivered));
        rid++;
    }
}

// Ethernet padding up to 60 bytes is accepted and ignored; any other
// trailing length is not.
TB_TEST(rx_accepts_mac_padding_only_to_60, true)
{
    Bytes d = pattern(4, 0x33);
    s.send_eth(pad_to(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 1, 0x400, d), 60));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_dma_write_rsp(MAC_PEER1, MAC_LOCAL, 1));
    CHECK(Bytes(s.rsp.mem.begin() + 0x400, s.rsp.mem.begin() + 0x404) == d);
    CHECK(!s.local_sink.done.empty() && s.local_sink.done.back().bytes == d);
    Bytes p = pad_to(f_rmem_write_req(MAC_LOCAL, MAC_PEER0, 2, 0x20, ~0u, 0x01020304), 60);
    for (size_t i = 32; i < 60; i++) p[i] = 0xA5;            // padding values are ignored
    s.send_eth(p);
    CHECK(wait_frames(s, 2));
    CHECK(s.eth_sink.done[1].bytes == f_rmem_write_rsp(MAC_PEER0, MAC_LOCAL, 2));
    CHECK_EQ(s.rsp.mem32(0x20), 0x01020304u);
    s.send_eth(pad_to(f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 3, 0x20), 60));
    CHECK(wait_frames(s, 3));
    CHECK(s.eth_sink.done[2].bytes == f_rmem_read_rsp(MAC_PEER0, MAC_LOCAL, 3, 0x01020304));
    s.send_eth(pad_to(f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 4, 0x20), 64));
    CHECK(wait_frames(s, 4));
    CHECK(s.eth_sink.done[3].bytes == f_error_rsp(MAC_PEER0, MAC_LOCAL, 4, 2));
    // the initiator side: padded response accepted
    s.ini.cmds.push_back(c_rmem_read(0, 0x30, 1));
    CHECK(wait_frames(s, 5));
    s.send_eth(pad_to(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0x600DF00D), 60));
    CHECK(wait_cpls(s, 1));
    CHECK(!s.ini.cpls[0].error && s.ini.cpls[0].rdata == 0x600DF00D);
}

// A read response with a bad trailer or cut short fails with code 10 after
// its bytes were delivered; a malformed fixed reply fails with code 10 too.
TB_TEST(rx_read_response_framing_errors, true)
{
    Bytes d = pattern(5, 0x44);
    s.ini.cmds.push_back(c_dma_read(1, 0x500, 5, 1));
    CHECK(wait_frames(s, 1));
    Bytes r = f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 0, d);
    r[r.size() - 2] = 0;
    s.send_eth(r);
    CHECK(wait_cpls(s, 1));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 10 && s.ini.cpls[0].len == 5);
    // the completion may overtake the stalled payload's TLAST
    CHECK(s.run_until([&] { return s.local_sink.done.size() >= 1; }));
    CHECK(!s.local_sink.done.empty() && s.local_sink.done.back().bytes == d);

    Bytes d8 = pattern(8, 0x55);
    s.ini.cmds.push_back(c_dma_read(1, 0x500, 8, 2));
    CHECK(wait_frames(s, 2));
    r = f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 1, d8);
    r.resize(r.size() - 8);
    s.send_eth(r);
    CHECK(wait_cpls(s, 2));
    CHECK(s.ini.cpls[1].error && s.ini.cpls[1].code == 10 && s.ini.cpls[1].len == 4);
    CHECK(s.run_until([&] { return s.local_sink.done.size() >= 2; }));
    CHECK(s.local_sink.done.back().bytes == Bytes(d8.begin(), d8.begin() + 4));

    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 3));
    CHECK(wait_frames(s, 3));
    s.send_eth(pad_to(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 2, 7), 28));
    CHECK(wait_cpls(s, 3));
    CHECK(s.ini.cpls[2].error && s.ini.cpls[2].code == 10);
    // a reply from the wrong source or with the wrong command is ignored
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 4));
    CHECK(wait_frames(s, 4));
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER1, 3, 1));
    s.send_eth(f_rmem_write_rsp(MAC_LOCAL, MAC_PEER0, 3));
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 4, 2));
    s.run(300);
    CHECK_EQ(s.ini.cpls.size(), 3u);
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 3, 0x33));
    CHECK(wait_cpls(s, 4));
    CHECK(!s.ini.cpls[3].error && s.ini.cpls[3].rdata == 0x33);
}
