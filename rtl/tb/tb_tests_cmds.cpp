// All nine commands in both directions: octet order, little-endian
// parameters, scalar data and BitEnable, and the memory-side contract.
#include "tb_check.h"

// Each request the initiator sends matches the codec; each matching
// response completes it with the restored local context.
TB_TEST(initiator_sends_all_requests_and_completes_on_responses, true)
{
    s.ini.cmds.push_back(c_rmem_read(0, 0x100, 7));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_rmem_read_req(MAC_PEER0, MAC_LOCAL, 0, 0x100));
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0xCAFEF00D));
    CHECK(wait_cpls(s, 1));
    Cpl c = s.ini.cpls[0];
    CHECK(!c.error && c.kind == KIND_RMEM && c.op == OP_READ && c.len == 4 && c.seq == 7);
    CHECK_EQ(c.rdata, 0xCAFEF00Du);

    s.ini.cmds.push_back(c_rmem_write(0, 0x104, 0x0000FF0F, 0x12345678, 8));
    CHECK(wait_frames(s, 2));
    CHECK(s.eth_sink.done[1].bytes ==
          f_rmem_write_req(MAC_PEER0, MAC_LOCAL, 1, 0x104, 0x0000FF0F, 0x12345678));
    s.send_eth(f_rmem_write_rsp(MAC_LOCAL, MAC_PEER0, 1));
    CHECK(wait_cpls(s, 2));
    CHECK(!s.ini.cpls[1].error && s.ini.cpls[1].op == OP_WRITE && s.ini.cpls[1].seq == 8);

    Bytes d5 = pattern(5, 0x31);
    s.ini.cmds.push_back(c_dma_read(1, 0x2000, 5, 9, true));
    CHECK(wait_frames(s, 3));
    CHECK(s.eth_sink.done[2].bytes == f_dma_read_req(MAC_PEER1, MAC_LOCAL, 2, 0x2000, 5));
    s.send_eth(f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 2, d5));
    CHECK(wait_cpls(s, 3));
    CHECK(!s.ini.cpls[2].error && s.ini.cpls[2].len == 5 && s.ini.cpls[2].seq == 9);
    // the completion may overtake the payload's TLAST in a stalled sink
    CHECK(s.run_until([&] { return s.local_sink.done.size() >= 1; }));
    CHECK_EQ(s.local_sink.done.size(), 1u);
    if (s.local_sink.done.size() == 1) {
        const Packet &p = s.local_sink.done[0];
        CHECK(p.bytes == d5);
        CHECK_EQ(p.id, 9u);
        CHECK_EQ(p.dest, dest_of(ROUTE_PEER, 1));
        CHECK_EQ(p.user, 1u);         // initiator role, LAST
    }

    Bytes w5 = pattern(5, 0x77);
    source_write(s, c_dma_write(2, 0x3000, 5, 10, false), w5);
    CHECK(wait_frames(s, 4));
    CHECK(s.eth_sink.done[3].bytes == f_dma_write_req(MAC_PEER2, MAC_LOCAL, 3, 0x3000, w5));
    s.send_eth(f_dma_write_rsp(MAC_LOCAL, MAC_PEER2, 3));
    CHECK(wait_cpls(s, 4));
    CHECK(!s.ini.cpls[3].error && s.ini.cpls[3].len == 5 && !s.ini.cpls[3].last);
    CHECK(s.settle());
    CHECK_EQ(s.eth_sink.done.size(), 4u);
}

// Each received request reaches the DMA engine with its parameters and is
// answered with the codec's reply.
TB_TEST(responder_services_all_requests, true)
{
    for (int i = 0; i < 0x400; i++) s.rsp.mem[i] = uint8_t(i * 13 + 5);
    s.send_eth(f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 0x11223344, 0x40));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes ==
          f_rmem_read_rsp(MAC_PEER0, MAC_LOCAL, 0x11223344, s.rsp.mem32(0x40)));
    CHECK_EQ(s.rsp.reqs.size(), 1u);
    if (!s.rsp.reqs.empty()) {
        const RspReq &r = s.rsp.reqs[0];
        CHECK(r.kind == KIND_RMEM && r.op == OP_READ && r.addr == 0x40 && r.len == 4 &&
              r.peer == 0 && r.err == 0 && !r.rx_status && r.last);
    }

    uint32_t before = s.rsp.mem32(0x44);
    s.send_eth(f_rmem_write_req(MAC_LOCAL, MAC_PEER0, 0x55, 0x44, 0x00FF00F0, 0xAABBCCDD));
    CHECK(wait_frames(s, 2));
    CHECK(s.eth_sink.done[1].bytes == f_rmem_write_rsp(MAC_PEER0, MAC_LOCAL, 0x55));
    CHECK_EQ(s.rsp.mem32(0x44), (before & ~0x00FF00F0u) | (0xAABBCCDDu & 0x00FF00F0u));
    if (s.rsp.reqs.size() >= 2) {
        CHECK_EQ(s.rsp.reqs[1].biten, 0x00FF00F0u);
        CHECK_EQ(s.rsp.reqs[1].wdata, 0xAABBCCDDu);
    }

    Bytes src(s.rsp.mem.begin() + 0x100, s.rsp.mem.begin() + 0x105);
    s.send_eth(f_dma_read_req(MAC_LOCAL, MAC_PEER2, 0x66, 0x100, 5));
    CHECK(wait_frames(s, 3));
    CHECK(s.eth_sink.done[2].bytes == f_dma_read_rsp(MAC_PEER2, MAC_LOCAL, 0x66, src));

    Bytes w = pattern(5, 0xA0);
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_PEER1, 0x77, 0x200, w));
    CHECK(wait_frames(s, 4));
    CHECK(s.eth_sink.done[3].bytes == f_dma_write_rsp(MAC_PEER1, MAC_LOCAL, 0x77));
    CHECK(Bytes(s.rsp.mem.begin() + 0x200, s.rsp.mem.begin() + 0x205) == w);
    CHECK_EQ(s.rsp.rx_status.size(), 1u);
    if (!s.rsp.rx_status.empty()) {
        CHECK_EQ(s.rsp.rx_status[0].len, 5u);
        CHECK_EQ(s.rsp.rx_status[0].code, 0u);
        CHECK_EQ(s.rsp.rx_status[0].peer, 1u);
    }
    CHECK_EQ(s.local_sink.done.size(), 1u);
    if (!s.local_sink.done.empty()) {
        const Packet &p = s.local_sink.done[0];
        CHECK(p.bytes == w);
        CHECK_EQ(p.user, 3u);          // responder role, LAST
        CHECK_EQ(p.dest, dest_of(ROUTE_PEER, 1));
        CHECK_EQ(p.id, s.rsp.reqs.back().seq);
    }
    CHECK(s.settle());
}

// The initiator's share of an RMEM read's round trip, in cycles, without
// backpressure: from the command's acceptance to the request's first
// Ethernet beat, and from the response's last Ethernet beat to the
// completion. Exact, so a pipeline stage added on either path fails here:
// an RMEM read is a CPU load waiting on a remote round trip.
TB_TEST(rmem_read_latency, false)
{
    s.ini.cmds.push_back(c_rmem_read(0, 0x100, 7));
    uint64_t accepted = 0, last_rx = 0;
    for (int i = 0; i < 200 && s.eth_sink.done.empty(); i++) {
        s.tick();
        if (s.ini.req_fire) accepted = s.cycle - 1;
    }
    CHECK_EQ(s.eth_sink.done.size(), 1u);
    CHECK(accepted != 0);
    CHECK_EQ(s.eth_sink.done[0].first_cycle - accepted, 1u);
    s.send_eth(f_rmem_read_rsp(MAC_LOCAL, MAC_PEER0, 0, 0xCAFEF00D));
    for (int i = 0; i < 200 && s.ini.cpls.empty(); i++) {
        s.tick();
        if (s.eth_src.fire) last_rx = s.cycle - 1;
    }
    CHECK_EQ(s.ini.cpls.size(), 1u);
    CHECK(!s.ini.cpls.empty() && s.ini.cpls[0].rdata == 0xCAFEF00D);
    CHECK_EQ(s.ini.cpls.empty() ? 0 : s.ini.cpls[0].cycle - last_rx, 2u);
}
