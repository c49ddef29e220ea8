// Hard reset, Request ID wrap and registered output stability.
#include "Vtb_oetp_engine___024root.h"
#include "tb_check.h"

// Hard reset in the middle of traffic restores the power-on state: the
// Request ID counter restarts at 0 and the engine works normally.
TB_TEST(hard_reset_restores_power_on_state, true)
{
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
    CHECK(wait_frames(s, 1));
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 1));
    CHECK(wait_cpls(s, 1));
    source_write(s, c_dma_write(2, 0x10, 4000, 2), pattern(4000, 1));
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 7, 0x100, pattern(2000, 2)));
    s.run(600);
    // the bench's side of every port resets with the engine
    s.eth_src = StreamSource();
    s.local_src = StreamSource();
    s.eth_sink = StreamSink();
    s.local_sink = StreamSink();
    s.ini = InitiatorModel();
    s.rsp.pend.clear();
    s.rsp.cpl_valid = false;
    s.lookup.pending = s.lookup.rsp_valid = s.lookup.req_ready = false;
    s.reset();
    s.tick();
    CHECK(!s.top->me_tvalid && !s.top->ml_tvalid && !s.top->ini_cpl_valid && !s.top->rsp_req_valid);
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 3));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_rmem_read_req(MAC_PEER0, MAC_LOCAL, 0, 0x10));
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 5));
    CHECK(wait_cpls(s, 1));
    CHECK(!s.ini.cpls[0].error && s.ini.cpls[0].rdata == 5);
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 8, 0x100, pattern(16, 3)));
    CHECK(wait_frames(s, 2));
    CHECK(s.eth_sink.done[1].bytes == f_dma_write_rsp(MAC_PEER1, MAC_LOCAL, 8));
}

// The 32-bit Request ID wraps naturally (the counter is set through its
// public register, as the spec's bench does).
TB_TEST(request_id_wraps, true)
{
    s.top->rootp->tb_oetp_engine__DOT__u_dut__DOT__u_initiator__DOT__rid_q = 0xFFFFFFFEu;
    for (uint32_t i = 0; i < 3; i++) {
        s.ini.cmds.push_back(c_rmem_read(0, 0x10, i));
        CHECK(wait_frames(s, i + 1));
        uint32_t rid = 0xFFFFFFFEu + i;
        CHECK(s.eth_sink.done[i].bytes == f_rmem_read_req(MAC_PEER0, MAC_LOCAL, rid, 0x10));
        s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, rid, i));
        CHECK(wait_cpls(s, i + 1));
        CHECK(!s.ini.cpls[i].error && s.ini.cpls[i].rdata == i);
    }
}

// Pulsing every input between clock edges never moves an output: all of
// them come from registers. Runs a mix of traffic in both directions.
TB_TEST(outputs_stable_between_edges, true)
{
    s.probe_stability = true;
    s.rsp.rx_available = true;
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 1));
    source_write(s, c_dma_write(3, 0x20, 30, 2), pattern(30, 1));
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 5, 0x100, pattern(21, 2)));
    s.send_eth(f_raw(MAC_LOCAL, MAC_PEER0, 0x0800, 70, 3));
    s.send_eth(f_dma_read_req(MAC_LOCAL, MAC_PEER2, 6, 0x100, 9));
    CHECK(wait_frames(s, 1));
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 9));
    CHECK(s.settle());
    CHECK_EQ(s.ini.cpls.size(), 2u);
    CHECK_EQ(s.eth_sink.done.size(), 4u);
    CHECK_EQ(s.unstable_outputs, 0u);
}
