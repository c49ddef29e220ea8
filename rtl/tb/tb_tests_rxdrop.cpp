// A response aborted by its timeout while it streams in, with another frame
// right behind it on s_axis_eth: the abort drains the response's remaining
// words and never one of the next frame's, whatever cycle the timer expires
// in (also the one that takes the response's last word).
#include "Vtb_oetp_engine___024root.h"
#include "tb_check.h"

namespace {

// RX's states in the order of rx_state_e (openenoc_oetp_rx.sv)
constexpr unsigned kRxMeta = 4, kRxData = 6, kRxEod = 7, kRxTail = 8;

// One run: the request goes out, the reply comes `delay` cycles after it,
// with `next` queued behind it (no gap). Returns whether the response's
// last word was taken by a state the abort sent to RX_DROP in that very
// cycle (seen on the stream's TLAST handshake and RX's state).
template <class Next>
bool run_one(uint32_t delay, uint32_t tmo, bool dma, const Bytes &next, Next &&check_next)
{
    Sim t(11 + delay);
    t.set_conf(MAC_LOCAL, MAC_GROUP, 1, dma ? 0 : tmo, dma ? tmo : 0);
    if (dma) t.ini.cmds.push_back(c_dma_read(1, 0x10, 8, 1));
    else     t.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
    CHECK(wait_frames(t, 1));
    t.run(delay);
    // the reply padded to 60 bytes: the abort can come in RX_TAIL too
    if (dma) t.send_eth(pad_to(f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 0, pattern(8, 3)), 60));
    else     t.send_eth(pad_to(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0x1234), 60));
    t.send_eth(next);
    auto *r = t.top->rootp;
    bool last_in_abort = false;
    const size_t beats = 60 / 4;
    size_t taken = 0;
    for (int i = 0; i < 400; i++) {
        t.top->clk = 0;
        t.top->eval();
        bool fire = t.top->se_tvalid && t.top->se_tready;
        unsigned st = r->tb_oetp_engine__DOT__u_dut__DOT__u_rx__DOT__state_q;
        if (fire && taken < beats) {
            taken++;
            if (taken == beats && t.top->se_tlast &&
                (st == kRxMeta || st == kRxData || st == kRxEod || st == kRxTail) &&
                r->tb_oetp_engine__DOT__u_dut__DOT__u_rx__DOT__matched_q &&
                // INI_WAIT is state 4 (ini_state_e): no longer waiting
                r->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__state_q != 4)
                last_in_abort = true;
        }
        t.tick();
    }
    CHECK(t.settle());
    CHECK_EQ(t.ini.cpls.size(), 1u);
    check_next(t);
    return last_in_abort;
}

}  // namespace

// An RMEM read reply, then a request from a peer: the request is answered.
TB_TEST(timeout_abort_keeps_next_request, false)
{
    const uint32_t tmo = 40;
    bool hit = false;
    for (uint32_t delay = 20; delay < 60; delay++) {
        hit |= run_one(delay, tmo, false, f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 9, 0x20),
                       [](Sim &t) {
                           CHECK_EQ(t.rsp.reqs.size(), 1u);
                           CHECK_EQ(t.eth_sink.done.size(), 2u);
                           if (t.eth_sink.done.size() == 2)
                               CHECK(t.eth_sink.done[1].bytes ==
                                     f_rmem_read_rsp(MAC_PEER0, MAC_LOCAL, 9, t.rsp.mem32(0x20)));
                       });
    }
    CHECK(hit);
}

// A DMA read reply (Data, EndOfData, padding), then a raw frame: the raw
// frame reaches m_axis_local whole.
TB_TEST(timeout_abort_keeps_next_raw_frame, false)
{
    const uint32_t tmo = 40;
    bool hit = false;
    Bytes raw = f_raw(MAC_LOCAL, MAC_PEER0, 0x0800, 66, 5);
    for (uint32_t delay = 20; delay < 60; delay++) {
        hit |= run_one(delay, tmo, true, raw, [&](Sim &t) {
            bool found = false;
            for (const Packet &p : t.local_sink.done) found |= p.bytes == raw;
            CHECK(found);
        });
    }
    CHECK(hit);
}
