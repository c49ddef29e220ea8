// A reply whose last word is taken in the very cycle its response timer
// expires wins, as in the C engine (a reply at the deadline cycle completes;
// the timer fires one cycle on), whichever state takes that word: RX_CLASSIFY
// for the 20-byte RMEM_WRITE_RSP and DMA_WRITE_RSP (their Request ID word
// ends the frame) and for an RMEM_READ_RSP cut after its Request ID (a
// malformed but associated reply: code 10, not a timeout), RX_META for the
// 24-byte RMEM_READ_RSP.
#include "Vtb_oetp_engine___024root.h"
#include "tb_check.h"

namespace {

enum class Rsp { RmemWrite, DmaWrite, RmemRead, RmemReadCut };

// One run: the request goes out, its reply comes `delay` cycles after it.
// Returns whether RX took the reply's last word in the cycle the waiting
// initiator's timer expires (time_step is 1 in the bench: the cycle where
// cnt_q has reached tmo_q).
bool run_one(Rsp k, uint32_t delay, uint32_t tmo)
{
    Sim t(17 + delay);
    const bool dma = k == Rsp::DmaWrite;
    t.set_conf(MAC_LOCAL, MAC_GROUP, 1, dma ? 0 : tmo, dma ? tmo : 0);
    Bytes rsp;
    switch (k) {
    case Rsp::RmemWrite:
        t.ini.cmds.push_back(c_rmem_write(0, 0x10, 0xFFFFFFFF, 0x5A5A5A5A, 1));
        rsp = f_rmem_write_rsp(MAC_LOCAL, MAC_PEER0, 0);
        break;
    case Rsp::DmaWrite:
        source_write(t, c_dma_write(2, 0x10, 8, 1), pattern(8, 4));
        rsp = f_dma_write_rsp(MAC_LOCAL, MAC_PEER2, 0);
        break;
    case Rsp::RmemRead:
        t.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
        rsp = f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0x1234);
        break;
    case Rsp::RmemReadCut:
        t.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
        rsp = f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0x1234);
        rsp.resize(20);
        break;
    }
    CHECK(wait_frames(t, 1));
    t.run(delay);
    t.send_eth(rsp);
    auto *r = t.top->rootp;
    // RX takes the reply's last word in the cycle before last_seen_q rises
    // (RX_FINAL follows at 32; the stream reaches RX through a slice, so the
    // port's TLAST handshake is earlier). INI_WAIT is state 4 (the order of
    // ini_state_e).
    int when = -1;   // -1: not seen; 0 before expiry; 1 at it; 2 after
    for (int i = 0; i < 200; i++) {
        t.top->clk = 0;
        t.top->eval();
        bool seen = r->tb_oetp_engine__DOT__u_dut__DOT__u_rx__DOT__last_seen_q;
        bool waiting = r->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__state_q == 4;
        uint32_t cnt = r->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__cnt_q;
        uint32_t lim = r->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__tmo_q;
        t.tick();
        if (when < 0 && !seen && r->tb_oetp_engine__DOT__u_dut__DOT__u_rx__DOT__last_seen_q)
            when = !waiting ? 2 : cnt >= lim ? 1 : 0;
    }
    CHECK(t.settle());
    CHECK(when >= 0);
    CHECK_EQ(t.ini.cpls.size(), 1u);
    if (t.ini.cpls.size() == 1) {
        const Cpl &c = t.ini.cpls[0];
        if (when <= 1) {
            // in time, or completed at the expiry cycle: the reply wins
            const bool cut = k == Rsp::RmemReadCut;
            if (c.error != cut) std::fprintf(stderr, "  delay %u: code %u\n", delay, c.code);
            CHECK(c.error == cut && c.code == (cut ? 10u : 0u));
            if (k == Rsp::RmemRead) CHECK_EQ(c.rdata, 0x1234u);
        } else {
            CHECK(c.error && c.code == 8);
        }
    }
    return when == 1;
}

void sweep(Rsp k)
{
    const uint32_t tmo = 40;
    bool at_expiry = false;
    for (uint32_t delay = 20; delay < 60; delay++) at_expiry |= run_one(k, delay, tmo);
    CHECK(at_expiry);   // the race itself was run
}

}  // namespace

TB_TEST(rmem_write_rsp_at_expiry_wins, false) { sweep(Rsp::RmemWrite); }
TB_TEST(dma_write_rsp_at_expiry_wins, false) { sweep(Rsp::DmaWrite); }
TB_TEST(rmem_read_rsp_at_expiry_wins, false) { sweep(Rsp::RmemRead); }
TB_TEST(cut_rmem_read_rsp_at_expiry_wins, false) { sweep(Rsp::RmemReadCut); }
