// Response timers: start at the Ethernet TLAST handshake, snapshot at
// acceptance, disabled at zero, late replies dropped, abort of a streaming
// read response, and response-at-expiry precedence.
#include "Vtb_oetp_engine___024root.h"
#include "tb_check.h"

// The timer does not run while the request's last beat waits in the TX
// slice; it expires about its configured count after the TLAST handshake.
TB_TEST(timeout_starts_at_eth_tlast, false)
{
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 20, 0);
    s.eth_sink.p_ready = 0;
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
    s.run(300);
    CHECK(s.ini.cpls.empty());
    s.eth_sink.p_ready = 1;
    CHECK(wait_cpls(s, 1));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 8 && s.ini.cpls[0].len == 0);
    CHECK_EQ(s.ini.cpls[0].rdata, 0xFFFFFFFFu);
    uint64_t after = s.ini.cpls[0].cycle - s.eth_sink.done[0].last_cycle;
    CHECK(after >= 20 && after <= 28);
}

// The timeout is sampled at acceptance: later CSR writes do not change it.
TB_TEST(timeout_snapshot_at_acceptance, true)
{
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 0, 40);
    s.ini.cmds.push_back(c_dma_read(1, 0x10, 8, 1));
    CHECK(s.run_until([&] { return s.ini.cmds.empty(); }));
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 0, 0);
    CHECK(wait_cpls(s, 1, 2000));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 8);
    // and the reverse: accepted with 0, a later non-zero value does not apply
    s.ini.cmds.push_back(c_dma_read(1, 0x10, 8, 2));
    CHECK(s.run_until([&] { return s.ini.cmds.empty(); }));
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 0, 10);
    s.run(3000);
    CHECK_EQ(s.ini.cpls.size(), 1u);
    s.send_eth(f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 1, pattern(8, 1)));
    CHECK(wait_cpls(s, 2));
    CHECK(!s.ini.cpls[1].error);
}

// A reply to a timed-out Request ID is drained: no completion, no memory
// write; the next request gets the next ID and its own reply completes it.
TB_TEST(late_reply_after_timeout_is_discarded, true)
{
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 30, 30);
    s.ini.cmds.push_back(c_dma_read(1, 0x10, 8, 1));
    CHECK(wait_cpls(s, 1, 5000));
    CHECK(s.ini.cpls[0].code == 8);
    s.send_eth(f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 0, pattern(8, 1)));
    CHECK(s.settle());
    CHECK_EQ(s.ini.cpls.size(), 1u);
    CHECK(s.local_sink.done.empty());
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 0, 0);
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 2));
    CHECK(wait_frames(s, 2));
    CHECK(s.eth_sink.done[1].bytes == f_rmem_read_req(MAC_PEER0, MAC_LOCAL, 1, 0x10));
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0xBAD));   // the old ID
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 1, 0x600D));
    CHECK(wait_cpls(s, 2));
    CHECK(!s.ini.cpls[1].error && s.ini.cpls[1].rdata == 0x600D);
}

// Expiry while a read response streams: the local payload is closed with
// TLAST, the rest of the frame drained, and TIMEOUT reports the bytes given.
TB_TEST(timeout_aborts_streaming_read_response, false)
{
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 0, 300);
    s.ini.cmds.push_back(c_dma_read(1, 0x10, 8160, 1));
    CHECK(wait_frames(s, 1));
    s.eth_src.p_valid = 0.05;
    s.send_eth(f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 0, pattern(8160, 2)));
    CHECK(wait_cpls(s, 1, 20000));
    CHECK(s.run_until([&] { return s.local_sink.done.size() >= 1; }));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 8);
    if (!s.local_sink.done.empty()) {
        const Packet &p = s.local_sink.done[0];
        CHECK(p.bytes.size() > 0 && p.bytes.size() < 8160);
        CHECK_EQ(uint64_t(s.ini.cpls[0].len), uint64_t(p.bytes.size()));
        Bytes all = pattern(8160, 2);
        CHECK(p.bytes == Bytes(all.begin(), all.begin() + long(p.bytes.size())));
    }
    s.eth_src.p_valid = 1;
    CHECK(s.settle());
    CHECK_EQ(s.local_sink.done.size(), 1u);
    CHECK_EQ(s.ini.cpls.size(), 1u);
}

// A zero timeout waits for as long as it takes.
TB_TEST(zero_timeout_waits_forever, true)
{
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
    s.run(20000);
    CHECK(s.ini.cpls.empty());
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 42));
    CHECK(wait_cpls(s, 1));
    CHECK(!s.ini.cpls[0].error && s.ini.cpls[0].rdata == 42);
}

// A response validated in the very cycle the timer expires wins. The reply
// is offered at every delay around the expiry; in the run where validation
// and expiry coincide (seen on the public timer registers) it must succeed,
// and every run completes exactly once.
TB_TEST(response_at_expiry_wins, false)
{
    const uint32_t tmo = 40;
    bool coincided = false;
    for (uint32_t delay = 20; delay < 60; delay++) {
        Sim t(7 + delay);
        t.set_conf(MAC_LOCAL, MAC_GROUP, 1, tmo, 0);
        t.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
        CHECK(wait_frames(t, 1));
        t.run(delay);
        t.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0x1234));
        bool same_cycle = false;
        auto *r = t.top->rootp;
        for (int i = 0; i < 200 && t.ini.cpls.empty(); i++) {
            t.top->clk = 0;
            t.top->eval();
            // INI_WAIT is state 4 (the order of ini_state_e); the reply's
            // TLAST is taken in this very cycle
            if (r->tb_oetp_engine__DOT__u_dut__DOT__u_rx__DOT__ending &&
                r->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__state_q == 4 &&
                r->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__cnt_q >=
                    r->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__tmo_q)
                same_cycle = true;
            t.tick();
        }
        t.run(100);
        CHECK_EQ(t.ini.cpls.size(), 1u);
        if (t.ini.cpls.size() == 1 && same_cycle) {
            coincided = true;
            CHECK(!t.ini.cpls[0].error && t.ini.cpls[0].rdata == 0x1234);
        }
    }
    CHECK(coincided);
}
