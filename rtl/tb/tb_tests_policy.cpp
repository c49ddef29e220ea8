// Addressing and policy: multicast writes and response suppression, group
// read rejection, raw receive modes and one-time descriptor claims, unknown
// peers and commands, independent roles, reply priority, busy responder.
#include "tb_check.h"

// Group writes go out to the group MAC and complete locally: no reply, no
// timer.
TB_TEST(group_writes_complete_locally, true)
{
    s.set_conf(MAC_LOCAL, MAC_GROUP, 1, 5, 5);     // short timers must not fire
    Bytes d = pattern(40, 9);
    source_write(s, c_dma_write(3, 0x100, 40, 1), d);
    CHECK(wait_cpls(s, 1));
    CHECK(!s.ini.cpls[0].error && s.ini.cpls[0].len == 40);
    CHECK(s.eth_sink.done.size() == 1 &&
          s.eth_sink.done[0].bytes == f_dma_write_req(MAC_GROUP, MAC_LOCAL, 0, 0x100, d));
    s.lookup.table[3] = {MAC_GROUP, 1};
    s.ini.cmds.push_back(c_rmem_write(3, 0x20, 0xF, 0x99, 2));
    CHECK(wait_cpls(s, 2));
    CHECK(!s.ini.cpls[1].error);
    CHECK(s.eth_sink.done.size() == 2 &&
          s.eth_sink.done[1].bytes == f_rmem_write_req(MAC_GROUP, MAC_LOCAL, 1, 0x20, 0xF, 0x99));
    s.run(200);
    CHECK_EQ(s.ini.cpls.size(), 2u);
}

// Group reads are rejected locally (code 1) and never transmitted; an
// unknown peer index is rejected the same way.
TB_TEST(group_reads_rejected_locally, true)
{
    s.lookup.table[3] = {MAC_GROUP, 2};
    s.ini.cmds.push_back(c_dma_read(3, 0x100, 8, 1));
    CHECK(wait_cpls(s, 1));
    CHECK(s.ini.cpls[0].error && s.ini.cpls[0].code == 1);
    s.lookup.table[3] = {MAC_GROUP, 1};
    s.ini.cmds.push_back(c_rmem_read(3, 0x100, 2));
    CHECK(wait_cpls(s, 2));
    CHECK(s.ini.cpls[1].error && s.ini.cpls[1].code == 1 && s.ini.cpls[1].rdata == ~0u);
    s.lookup.table[3] = {0, 0};
    s.ini.cmds.push_back(c_dma_write(3, 0x100, 8, 3));
    CHECK(wait_cpls(s, 3));
    CHECK(s.ini.cpls[2].error && s.ini.cpls[2].code == 1);
    CHECK(s.settle());
    CHECK_EQ(s.eth_sink.done.size(), 0u);
    // no Request ID was spent
    s.ini.cmds.push_back(c_rmem_read(0, 0x10, 4));
    CHECK(wait_frames(s, 1));
    CHECK(s.eth_sink.done[0].bytes == f_rmem_read_req(MAC_PEER0, MAC_LOCAL, 0, 0x10));
}

// Received group writes are serviced with no reply, success or failure;
// group reads and foreign groups are dropped.
TB_TEST(group_requests_get_no_reply, true)
{
    s.send_eth(f_rmem_write_req(MAC_GROUP, MAC_PEER0, 1, 0x40, ~0u, 0xABCD));
    CHECK(s.settle());
    CHECK_EQ(s.rsp.mem32(0x40), 0xABCDu);
    s.rsp.rmem_fail_cause = 6;
    s.send_eth(f_rmem_write_req(MAC_GROUP, MAC_PEER0, 2, 0x40, ~0u, 0x1));
    CHECK(s.settle());
    s.rsp.rmem_fail_cause = 0;
    Bytes d = pattern(10, 0x61);
    s.send_eth(f_dma_write_req(MAC_GROUP, MAC_PEER1, 3, 0x600, d));
    CHECK(s.settle());
    CHECK(Bytes(s.rsp.mem.begin() + 0x600, s.rsp.mem.begin() + 0x60A) == d);
    Bytes bad = f_dma_write_req(MAC_GROUP, MAC_PEER1, 4, 0x600, d);
    bad.back() ^= 0xFF;
    s.send_eth(bad);
    CHECK(s.settle());
    CHECK(s.rsp.rx_status.size() == 2 && s.rsp.rx_status[1].code == 2);
    CHECK_EQ(s.rsp.reqs.size(), 4u);
    s.send_eth(f_rmem_read_req(MAC_GROUP, MAC_PEER0, 5, 0x40));
    s.send_eth(f_dma_read_req(MAC_GROUP, MAC_PEER2, 6, 0x40, 4));
    s.send_eth(f_rmem_write_req(0x030E0C0000BBull, MAC_PEER0, 7, 0x40, ~0u, 0));
    s.send_eth(f_rmem_write_req(MAC_OTHER, MAC_PEER0, 8, 0x40, ~0u, 0));
    CHECK(s.settle());
    CHECK_EQ(s.rsp.reqs.size(), 4u);
    CHECK_EQ(s.eth_sink.done.size(), 0u);
    CHECK_EQ(s.local_sink.done.size(), 2u);      // only the two group writes' payload
    // multicast 0 disables group reception; all ones accepts broadcast
    s.set_conf(MAC_LOCAL, 0, 1, 0, 0);
    s.send_eth(f_rmem_write_req(MAC_GROUP, MAC_PEER0, 9, 0x40, ~0u, 0));
    CHECK(s.settle());
    CHECK_EQ(s.rsp.reqs.size(), 4u);
    s.set_conf(MAC_LOCAL, OETP_MAC_BROADCAST, 1, 0, 0);
    s.send_eth(f_rmem_write_req(OETP_MAC_BROADCAST, MAC_PEER0, 10, 0x40, ~0u, 0x77));
    CHECK(s.settle());
    CHECK_EQ(s.rsp.reqs.size(), 5u);
    CHECK_EQ(s.rsp.mem32(0x40), 0x77u);
    CHECK_EQ(s.eth_sink.done.size(), 0u);
}

// receive_mode 0..3 against local, broadcast, group and foreign
// destinations; admitted frames reach m_axis_local unchanged.
TB_TEST(raw_receive_modes, true)
{
    const uint64_t dsts[] = {MAC_LOCAL, OETP_MAC_BROADCAST, 0x030E0C000077ull, MAC_OTHER};
    const bool admit[4][4] = {
        {false, false, false, false},
        {true, true, false, false},
        {true, true, true, false},
        {true, true, true, true},
    };
    uint8_t seed = 0;
    for (unsigned mode = 0; mode < 4; mode++) {
        s.set_conf(MAC_LOCAL, MAC_GROUP, mode, 0, 0);
        for (unsigned i = 0; i < 4; i++) {
            Bytes f = f_raw(dsts[i], MAC_PEER0, 0x0800, 66, seed++);
            size_t n = s.local_sink.done.size();
            s.send_eth(f);
            CHECK(s.settle());
            CHECK_EQ(s.local_sink.done.size(), n + (admit[mode][i] ? 1 : 0));
            if (admit[mode][i] && s.local_sink.done.size() > n) {
                const Packet &p = s.local_sink.done.back();
                CHECK(p.bytes == f);
                CHECK_EQ(p.dest, dest_of(ROUTE_DIRECT, 0));
                CHECK(p.id == 0 && p.user == 0);
            }
        }
    }
    CHECK(s.rsp.reqs.empty());
}

// 0x88B5 with another Magic is not oETP: it follows the raw policy.
static Bytes f_oetp_wrong_magic()
{
    Bytes f = f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 1, 0x10);
    f[OETP_OFF_MAGIC] = 0x0F;
    return f;
}

// One armed descriptor is claimed once; the header is replayed into it;
// later frames use the direct path. Wrong Magic is raw, short frames are
// kept whole.
TB_TEST(raw_claims_descriptor_once, true)
{
    s.rsp.rx_available = true;
    Bytes f1 = f_raw(MAC_LOCAL, MAC_PEER0, 0x0800, 66, 1);
    Bytes f2 = f_oetp_wrong_magic();
    s.send_eth(f1);
    s.send_eth(f2);
    CHECK(s.settle());
    CHECK_EQ(s.rsp.claims, 1u);
    CHECK_EQ(s.local_sink.done.size(), 2u);
    if (s.local_sink.done.size() == 2) {
        CHECK(s.local_sink.done[0].bytes == f1);
        CHECK_EQ(s.local_sink.done[0].dest, dest_of(ROUTE_NON_OETP_DMA, 0));
        CHECK(s.local_sink.done[1].bytes == f2);
        CHECK_EQ(s.local_sink.done[1].dest, dest_of(ROUTE_DIRECT, 0));
    }
    Bytes f3 = f_raw(MAC_LOCAL, MAC_PEER0, 0x0806, 14, 3);   // header only
    Bytes f4 = f_raw(MAC_LOCAL, MAC_PEER0, 0x0806, 10, 4);   // not even a header
    s.send_eth(f3);
    s.send_eth(f4);
    CHECK(s.settle());
    CHECK(s.local_sink.done.size() == 3 && s.local_sink.done[2].bytes == f3);
    // a rejected frame never claims a descriptor
    s.rsp.rx_available = true;
    s.send_eth(f_raw(MAC_OTHER, MAC_PEER0, 0x0800, 64, 5));
    CHECK(s.settle());
    CHECK_EQ(s.rsp.claims, 1u);
}

// oETP frames from unknown sources, with unknown commands or a group source
// are dropped: no memory work, no reply, never raw.
TB_TEST(unknown_peers_and_commands_dropped, true)
{
    s.rsp.rx_available = true;
    s.send_eth(f_rmem_read_req(MAC_LOCAL, MAC_OTHER, 1, 0x10));
    s.send_eth(f_dma_write_req(MAC_LOCAL, MAC_OTHER, 2, 0x10, pattern(8, 1)));
    Bytes u = f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 3, 0x10);
    u[OETP_OFF_CMD] = 0x50;
    s.send_eth(u);
    u[OETP_OFF_CMD] = 0x13;                          // odd but unassigned
    s.send_eth(u);
    s.send_eth(f_rmem_read_req(MAC_LOCAL, 0x030E0C000010ull, 4, 0x10));
    s.send_eth(f_rmem_read_req(MAC_OTHER, MAC_PEER0, 5, 0x10));
    CHECK(s.settle());
    CHECK(s.rsp.reqs.empty());
    CHECK(s.eth_sink.done.empty());
    CHECK(s.local_sink.done.empty());
    CHECK_EQ(s.rsp.claims, 0u);
    // the engine still works afterwards
    s.send_eth(f_rmem_read_req(MAC_LOCAL, MAC_PEER0, 6, 0x10));
    CHECK(wait_frames(s, 1));
}

// Raw local frames leave unchanged (final KEEP kept); route DROP sends
// nothing; raw and initiator frames alternate.
TB_TEST(raw_transmit_and_fair_arbitration, true)
{
    Bytes f = f_raw(MAC_OTHER, MAC_LOCAL, 0x0800, 66, 7);
    s.local_src.push(to_beats(f, 0, dest_of(ROUTE_DIRECT, 0), 0));
    s.local_src.push(to_beats(f_raw(MAC_OTHER, MAC_LOCAL, 0x0800, 64, 8), 0,
                              dest_of(ROUTE_DROP, 0), 0));
    CHECK(wait_frames(s, 1));
    CHECK(s.settle());
    CHECK(s.eth_sink.done.size() == 1 && s.eth_sink.done[0].bytes == f);
    // a continuous raw producer cannot starve an initiator request
    for (int i = 0; i < 3; i++)
        s.local_src.push(to_beats(f_raw(MAC_OTHER, MAC_LOCAL, 0x0800, 400, uint8_t(i)), 0,
                                  dest_of(ROUTE_NON_OETP_DMA, 0), 0));
    s.ini.cmds.push_back(c_rmem_read(0, 0x44, 1));
    CHECK(wait_frames(s, 5));
    // at most one raw frame goes ahead of it
    Bytes req = f_rmem_read_req(MAC_PEER0, MAC_LOCAL, 0, 0x44);
    size_t at = 0;
    for (size_t i = 1; i < s.eth_sink.done.size(); i++)
        if (s.eth_sink.done[i].bytes == req) at = i;
    CHECK(at == 1 || at == 2);
}
