// Bulk data: lengths, word padding and EndOfData placement, streaming ahead
// of the source status, early and late source failures and draining.
#include "tb_check.h"

static const uint32_t kLengths[] = {1, 3, 4, 5, 8160};

// DMA_WRITE_REQ frames for every length match the codec byte for byte.
TB_TEST(dma_write_lengths_pad_data_and_place_eod, true)
{
    uint32_t rid = 0;
    for (uint32_t len : kLengths) {
        Bytes d = pattern(len, uint8_t(len));
        size_t n = s.eth_sink.done.size();
        source_write(s, c_dma_write(2, 0x1000 + len, len, len), d);
        CHECK(wait_frames(s, n + 1, 200000));
        if (s.eth_sink.done.size() <= n) return;
        const Bytes &f = s.eth_sink.done[n].bytes;
        CHECK(f == f_dma_write_req(MAC_PEER2, MAC_LOCAL, rid, 0x1000 + len, d));
        // EndOfData sits right after the rounded Data array
        size_t eod = OETP_OFF_WRITE_DATA + 4 * oetp_words(len);
        CHECK(f.size() == eod + 4 && oetp_get_le32(f.data() + eod) == OETP_EOD);
        s.send_eth(f_dma_write_rsp(MAC_LOCAL, MAC_PEER2, rid));
        CHECK(wait_cpls(s, ++rid));
        CHECK(!s.ini.cpls.back().error && s.ini.cpls.back().len == len);
    }
}

// Received writes deliver exactly Length bytes, without word padding or
// EndOfData, and responder reads return exactly Length bytes.
TB_TEST(dma_lengths_reach_memory_exactly, true)
{
    uint32_t rid = 100;
    for (uint32_t len : kLengths) {
        Bytes d = pattern(len, uint8_t(len * 3));
        uint32_t addr = 0x2000 + (len & 3);
        Bytes guard(s.rsp.mem.begin() + addr + len, s.rsp.mem.begin() + addr + len + 4);
        size_t frags = s.local_sink.done.size(), frames = s.eth_sink.done.size();
        s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, rid, addr, d));
        CHECK(wait_frames(s, frames + 1, 200000));
        CHECK(s.eth_sink.done.back().bytes == f_dma_write_rsp(MAC_PEER1, MAC_LOCAL, rid));
        CHECK(Bytes(s.rsp.mem.begin() + addr, s.rsp.mem.begin() + addr + len) == d);
        CHECK(Bytes(s.rsp.mem.begin() + addr + len, s.rsp.mem.begin() + addr + len + 4) == guard);
        CHECK_EQ(s.local_sink.done.size(), frags + 1);
        CHECK_EQ(s.local_sink.done.back().bytes.size(), size_t(len));
        rid++;

        Bytes src(s.rsp.mem.begin() + 0x8000, s.rsp.mem.begin() + 0x8000 + len);
        s.send_eth(f_dma_read_req(MAC_LOCAL, MAC_PEER2, rid, 0x8000, len));
        CHECK(wait_frames(s, frames + 2, 200000));
        CHECK(s.eth_sink.done.back().bytes == f_dma_read_rsp(MAC_PEER2, MAC_LOCAL, rid, src));
        rid++;
    }
}

// The initiator's read responses deliver exactly the expected length.
TB_TEST(dma_read_responses_deliver_expected_length, true)
{
    uint32_t rid = 0;
    for (uint32_t len : kLengths) {
        Bytes d = pattern(len, uint8_t(len + 9));
        s.ini.cmds.push_back(c_dma_read(1, 0x4000, len, rid));
        CHECK(wait_frames(s, rid + 1));
        s.send_eth(f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, rid, d));
        CHECK(wait_cpls(s, rid + 1, 200000));
        CHECK(!s.ini.cpls.back().error && s.ini.cpls.back().len == len);
        CHECK(s.run_until([&] { return s.local_sink.done.size() >= rid + 1; }));
        CHECK(s.local_sink.done.size() == rid + 1 && s.local_sink.done.back().bytes == d);
        rid++;
    }
}

// Data goes out before the source status; EndOfData waits for it.
TB_TEST(tx_streams_before_source_status, false)
{
    Bytes d = pattern(256, 1);
    uint64_t beats_at_status = 0;
    IniCmd c = c_dma_write(2, 0x10, 256, 1);
    s.ini.cmds.push_back(c);
    s.local_src.push(payload(d, 2, 1, false, true));
    TxStatus st{2, 1, 256, 0, nullptr};
    st.when = [&s, &beats_at_status] {
        if (!s.local_src.q.empty() || s.cycle < 400) return false;
        beats_at_status = s.eth_sink.beats;
        return true;
    };
    s.ini.status.push_back(st);
    CHECK(wait_frames(s, 1));
    // header, parameters and all Data words but the held last one were out
    CHECK_EQ(beats_at_status, uint64_t(4 + 3 + 64 - 1));
    CHECK(s.eth_sink.done[0].bytes == f_dma_write_req(MAC_PEER2, MAC_LOCAL, 0, 0x10, d));
}

// A source that fails before the frame starts sends nothing; its beats are
// drained; the completion carries the local cause.
TB_TEST(early_source_failure_sends_no_frame, true)
{
    // no data at all
    s.ini.cmds.push_back(c_dma_write(2, 0x10, 64, 1));
    s.ini.status.push_back(TxStatus{2, 1, 0, 4, nullptr});
    CHECK(wait_cpls(s, 1));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 4);
    // data that arrives only after the failed status
    s.ini.cmds.push_back(c_dma_write(2, 0x10, 64, 2));
    s.ini.status.push_back(TxStatus{2, 2, 8, 5, nullptr});
    CHECK(s.run_until([&] { return s.ini.status.empty(); }));
    s.local_src.push(payload(pattern(8, 3), 2, 2, false, true));
    CHECK(wait_cpls(s, 2));
    CHECK(s.ini.cpls[1].error && s.ini.cpls[1].code == 5);
    // a raw frame ahead of a failed source's beats is sent, not drained
    s.ini.cmds.push_back(c_dma_write(2, 0x10, 64, 4));
    s.ini.status.push_back(TxStatus{2, 4, 8, 5, nullptr});
    CHECK(s.run_until([&] { return s.ini.status.empty(); }));
    Bytes raw = f_raw(MAC_OTHER, MAC_LOCAL, 0x0800, 90, 1);
    s.local_src.push(to_beats(raw, 0, dest_of(ROUTE_DIRECT, 0), 0));
    s.local_src.push(payload(pattern(8, 3), 2, 4, false, true));
    CHECK(wait_cpls(s, 3));
    CHECK(s.ini.cpls[2].error && s.ini.cpls[2].code == 5);
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done.size() == 1 && s.eth_sink.done[0].bytes == raw);
    s.eth_sink.done.clear();
    CHECK(s.settle());
    CHECK(s.local_src.q.empty());
    CHECK_EQ(s.eth_sink.done.size(), 0u);
    // the context is reusable; each accepted fragment took a Request ID
    Bytes d = pattern(12, 4);
    source_write(s, c_dma_write(2, 0x20, 12, 5), d);
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_dma_write_req(MAC_PEER2, MAC_LOCAL, 3, 0x20, d));
}

// A source failing after the frame started ends it without EndOfData and
// does not wait for a reply; the next fragment works.
TB_TEST(late_source_failure_truncates_without_eod, true)
{
    Bytes d = pattern(5, 0x40);
    source_write(s, c_dma_write(2, 0x30, 5, 1), d, 4, true);
    CHECK(wait_cpls(s, 1));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 4);
    CHECK_EQ(s.eth_sink.done.size(), 1u);
    if (!s.eth_sink.done.empty()) {
        // payload emission stops at the failure: the frame is the codec's
        // frame without EndOfData, or a word-aligned prefix of it
        CHECK(word_prefix(s.eth_sink.done[0].bytes,
                          f_dma_write_req(MAC_PEER2, MAC_LOCAL, 0, 0x30, d, false), 32));
    }
    // a source that delivers more words than Length is cut the same way
    Bytes d2 = pattern(5, 0x50);
    s.ini.cmds.push_back(c_dma_write(2, 0x40, 5, 2));
    std::vector<Beat> b = payload(pattern(12, 0x50), 2, 2, false, true);
    b[1].keep = 1;
    s.local_src.push(b);
    s.ini.status.push_back(TxStatus{2, 2, 5, 0, nullptr});
    CHECK(wait_cpls(s, 2));
    CHECK(s.ini.cpls[1].error && s.ini.cpls[1].code == 2);
    if (s.eth_sink.done.size() >= 2)
        CHECK(s.eth_sink.done[1].bytes == f_dma_write_req(MAC_PEER2, MAC_LOCAL, 1, 0x40, d2, false));
    CHECK(s.settle());
    CHECK(s.local_src.q.empty());
    // drained: a later fragment is unaffected
    Bytes d3 = pattern(9, 0x60);
    source_write(s, c_dma_write(2, 0x50, 9, 3), d3);
    CHECK(wait_frames(s, 3));
    CHECK(s.eth_sink.done[2].bytes == f_dma_write_req(MAC_PEER2, MAC_LOCAL, 2, 0x50, d3));
    s.send_eth(f_dma_write_rsp(MAC_LOCAL, MAC_PEER2, 2));
    CHECK(wait_cpls(s, 3));
    CHECK(!s.ini.cpls[2].error);
}

// The responder side: a failed source read before the reply frame becomes
// ERROR_RSP with the local cause; after it started, the frame loses EndOfData.
TB_TEST(responder_read_failures, true)
{
    s.rsp.read_fail_cause = 4;
    s.send_eth(f_dma_read_req(MAC_LOCAL, MAC_PEER2, 0x10, 0x100, 20));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_error_rsp(MAC_PEER2, MAC_LOCAL, 0x10, 4));
    CHECK(s.settle());
    s.rsp.read_fail_cause = 5;
    s.rsp.read_fail_late = true;
    Bytes src(s.rsp.mem.begin() + 0x100, s.rsp.mem.begin() + 0x100 + 20);
    s.send_eth(f_dma_read_req(MAC_LOCAL, MAC_PEER2, 0x11, 0x100, 20));
    CHECK(wait_frames(s, 2));
    CHECK(word_prefix(s.eth_sink.done[1].bytes,
                      f_dma_read_rsp(MAC_PEER2, MAC_LOCAL, 0x11, src, false), 24));
    CHECK(s.settle());
    CHECK_EQ(s.eth_sink.done.size(), 2u);   // never a second ERROR_RSP
    s.rsp.read_fail_cause = 0;
    s.send_eth(f_dma_read_req(MAC_LOCAL, MAC_PEER2, 0x12, 0x100, 20));
    CHECK(wait_frames(s, 3));
    CHECK(s.eth_sink.done[2].bytes == f_dma_read_rsp(MAC_PEER2, MAC_LOCAL, 0x12, src));
}
