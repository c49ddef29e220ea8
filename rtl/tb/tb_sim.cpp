// Clocking of the engine and its models (see tb_sim.h).
#include "tb_sim.h"

Sim::Sim(uint32_t seed) : top(new Top), rng(seed)
{
    rsp.local_src = &local_src;
    rsp.local_sink = &local_sink;
    set_conf(MAC_LOCAL, MAC_GROUP, 1, 0, 0);
    default_peers();
    reset();
}

Sim::~Sim()
{
    top->final();
}

void Sim::set_conf(uint64_t mac, uint64_t mcast, unsigned mode, uint32_t rmem_tmo,
                   uint32_t dma_tmo)
{
    top->conf_mac_address = mac;
    top->conf_multicast_address = mcast;
    top->conf_receive_mode = mode;
    top->conf_rmem_timeout = rmem_tmo;
    top->conf_dma_timeout = dma_tmo;
}

// Peer 0: RMEM (mode 1); peer 1: mirror remote-to-local (2); peer 2: mirror
// local-to-remote (3); peer 3: the multicast group, local-to-remote.
void Sim::default_peers()
{
    lookup.table[0] = {MAC_PEER0, OE_MODE_RMEM};
    lookup.table[1] = {MAC_PEER1, OE_MODE_MIRROR_REMOTE_TO_LOCAL};
    lookup.table[2] = {MAC_PEER2, OE_MODE_MIRROR_LOCAL_TO_REMOTE};
    lookup.table[3] = {MAC_GROUP, OE_MODE_MIRROR_LOCAL_TO_REMOTE};
}

void Sim::reset()
{
    top->rst = 1;
    for (int i = 0; i < 4; i++) {
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;
    top->clk = 0;
    top->eval();
}

void Sim::backpressure(double p)
{
    eth_src.p_valid = local_src.p_valid = 1.0 - p;
    eth_sink.p_ready = local_sink.p_ready = 1.0 - p;
    ini.p_valid = ini.p_cpl_ready = 1.0 - p;
    rsp.p_req_ready = rsp.p_rxs_ready = 1.0 - p;
}

bool Sim::quiet() const
{
    return eth_src.q.empty() && local_src.q.empty() && eth_sink.idle() && local_sink.idle() &&
           ini.idle() && rsp.idle() && !top->ini_cpl_valid && !top->rsp_req_valid &&
           !top->me_tvalid && !top->ml_tvalid && !top->rsp_rxs_valid && !top->lk_req_valid &&
           !top->rsp_claim_valid;
}

bool Sim::settle(uint64_t max)
{
    uint64_t calm = 0;
    for (uint64_t i = 0; i < max; i++) {
        calm = quiet() ? calm + 1 : 0;
        if (calm > 64) {
            return true;
        }
        tick();
    }
    return false;
}

// Every output of the wrapper, for the between-edges stability probe.
#define TB_OUTPUTS(X)                                                                    \
    X(sl_tready) X(ml_tvalid) X(ml_tdata) X(ml_tkeep) X(ml_tlast) X(ml_tid) X(ml_tdest)  \
    X(ml_tuser) X(se_tready) X(me_tvalid) X(me_tdata) X(me_tkeep) X(me_tlast)            \
    X(lk_req_valid) X(lk_req_type) X(lk_req_mode_mask) X(lk_req_peer_idx)                \
    X(lk_req_mac_addr) X(lk_rsp_ready) X(ini_req_ready) X(ini_ts_ready) X(ini_cpl_valid) \
    X(ini_cpl_kind) X(ini_cpl_op) X(ini_cpl_len) X(ini_cpl_peer_idx) X(ini_cpl_sequence) \
    X(ini_cpl_last) X(ini_cpl_error) X(ini_cpl_error_code) X(ini_cpl_rdata)              \
    X(rsp_claim_valid) X(rsp_req_valid) X(rsp_req_kind) X(rsp_req_op) X(rsp_req_addr)    \
    X(rsp_req_len) X(rsp_req_peer_idx) X(rsp_req_sequence) X(rsp_req_last)               \
    X(rsp_req_biten) X(rsp_req_wdata) X(rsp_req_error_code) X(rsp_req_rx_status)         \
    X(rsp_rxs_valid) X(rsp_rxs_peer_idx) X(rsp_rxs_sequence) X(rsp_rxs_len)              \
    X(rsp_rxs_error_code) X(rsp_cpl_ready)

#define TB_INPUTS(X)                                                                     \
    X(sl_tvalid) X(sl_tdata) X(sl_tkeep) X(sl_tlast) X(sl_tid) X(sl_tdest) X(sl_tuser)   \
    X(ml_tready) X(se_tvalid) X(se_tdata) X(se_tkeep) X(se_tlast) X(me_tready)           \
    X(lk_req_ready) X(lk_rsp_valid) X(lk_rsp_hit) X(lk_rsp_peer_idx) X(lk_rsp_mac_addr)  \
    X(lk_rsp_dma_mode) X(ini_req_valid) X(ini_req_kind) X(ini_req_op) X(ini_req_addr)    \
    X(ini_req_len) X(ini_req_peer_idx) X(ini_req_sequence) X(ini_req_last)               \
    X(ini_req_biten) X(ini_req_wdata) X(ini_ts_valid) X(ini_ts_peer_idx)                 \
    X(ini_ts_sequence) X(ini_ts_len) X(ini_ts_error_code) X(ini_cpl_ready)               \
    X(rsp_rx_available) X(rsp_claim_ready) X(rsp_req_ready) X(rsp_rxs_ready)             \
    X(rsp_cpl_valid) X(rsp_cpl_kind) X(rsp_cpl_op) X(rsp_cpl_len) X(rsp_cpl_peer_idx)    \
    X(rsp_cpl_sequence) X(rsp_cpl_last) X(rsp_cpl_error) X(rsp_cpl_error_code)           \
    X(rsp_cpl_rdata)

void Sim::tick()
{
    Top *t = top.get();
    t->clk = 0;
    t->eval();
    if (probe_stability) {
        // Pulse every input between edges: registered outputs must not move.
#define SAVE_OUT(n) auto o_##n = t->n;
#define SAVE_IN(n) auto i_##n = t->n;
#define JUGGLE_IN(n) t->n ^= 1;   /* the width-safe pulse: bit 0 of every input */
#define RESTORE_IN(n) t->n = i_##n;
#define CHECK_OUT(n) if (t->n != o_##n) unstable_outputs++;
        TB_OUTPUTS(SAVE_OUT)
        TB_INPUTS(SAVE_IN)
        TB_INPUTS(JUGGLE_IN)
        t->eval();
        TB_OUTPUTS(CHECK_OUT)
        TB_INPUTS(RESTORE_IN)
        t->eval();
    }
    // handshakes as they stand just before the edge
    eth_src.sample(t->se_tready);
    local_src.sample(t->sl_tready);
    Beat me{t->me_tdata, uint8_t(t->me_tkeep), bool(t->me_tlast), 0, 0, 0};
    eth_sink.sample(t->me_tvalid, me, cycle);
    Beat ml{t->ml_tdata, uint8_t(t->ml_tkeep), bool(t->ml_tlast), t->ml_tid,
            uint8_t(t->ml_tdest), uint8_t(t->ml_tuser)};
    local_sink.sample(t->ml_tvalid, ml, cycle);
    lookup.sample(t);
    ini.sample(t, cycle);
    rsp.sample(t, cycle);

    t->clk = 1;
    t->eval();
    cycle++;

    if (const Beat *b = eth_src.drive(rng)) {
        t->se_tvalid = 1;
        t->se_tdata = b->data;
        t->se_tkeep = b->keep;
        t->se_tlast = b->last;
    } else {
        t->se_tvalid = 0;
    }
    if (const Beat *b = local_src.drive(rng)) {
        t->sl_tvalid = 1;
        t->sl_tdata = b->data;
        t->sl_tkeep = b->keep;
        t->sl_tlast = b->last;
        t->sl_tid = b->id;
        t->sl_tdest = b->dest;
        t->sl_tuser = b->user;
    } else {
        t->sl_tvalid = 0;
    }
    t->me_tready = eth_sink.drive(rng);
    t->ml_tready = local_sink.drive(rng);
    lookup.drive(t, rng);
    ini.drive(t, rng);
    rsp.drive(t, rng);
}
