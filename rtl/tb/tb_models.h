// Bench models around the oETP engine: random-backpressure stream sources
// and sinks, the registered peer-lookup table, and the DMA engine's two
// roles (requester on initiator_if, executor on responder_if).
//
// Every model follows one discipline: sample() looks at the handshakes just
// before the rising edge, drive() sets the next inputs just after it. Inputs
// therefore change only at clock edges, as registers would.
#ifndef TB_MODELS_H
#define TB_MODELS_H

#include <cstdint>
#include <deque>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "Vtb_oetp_engine.h"

using Top = Vtb_oetp_engine;
using Bytes = std::vector<uint8_t>;

enum { ROUTE_PEER = 0, ROUTE_NON_OETP_DMA = 1, ROUTE_DIRECT = 2, ROUTE_DROP = 3 };
enum { KIND_DMA = 0, KIND_RMEM = 1 };
enum { OP_READ = 0, OP_WRITE = 1 };

struct Rng {
    std::mt19937 gen;
    explicit Rng(uint32_t seed) : gen(seed) {}
    bool chance(double p) { return p >= 1.0 || std::uniform_real_distribution<>(0, 1)(gen) < p; }
    uint32_t below(uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(gen); }
};

struct Beat {
    uint32_t data = 0;
    uint8_t keep = 0xF;
    bool last = false;
    uint32_t id = 0;
    uint8_t dest = 0;
    uint8_t user = 0;
};

// Bytes of a frame or payload as 32-bit beats (byte 4i+k in lane k).
std::vector<Beat> to_beats(const Bytes &b, uint32_t id = 0, uint8_t dest = 0, uint8_t user = 0);

// A received frame or local fragment with its metadata.
struct Packet {
    Bytes bytes;
    uint32_t id = 0;
    uint8_t dest = 0;
    uint8_t user = 0;
    uint64_t first_cycle = 0, last_cycle = 0;
    unsigned beats = 0;
    bool meta_stable = true;     // TID/TDEST/TUSER equal on every beat
    bool keep_ok = true;         // full keep except a contiguous final beat
};

// One stream source (s_axis_*): a queue of beats, valid with probability p.
struct StreamSource {
    std::deque<Beat> q;
    double p_valid = 1.0;
    bool valid = false, fire = false;
    uint64_t beats_sent = 0;
    void push(const std::vector<Beat> &v) { q.insert(q.end(), v.begin(), v.end()); }
    void sample(bool ready) { fire = valid && ready; }
    const Beat *drive(Rng &rng) {
        if (fire) { q.pop_front(); valid = false; beats_sent++; }
        if (!valid && !q.empty() && rng.chance(p_valid)) valid = true;
        return valid ? &q.front() : nullptr;
    }
};

// One stream sink (m_axis_*): ready with probability p, collects packets.
struct StreamSink {
    double p_ready = 1.0;
    bool ready = false;
    std::vector<Packet> done;
    Packet cur;
    bool in_packet = false;
    uint64_t beats = 0;
    void sample(bool valid, const Beat &b, uint64_t cycle);
    bool drive(Rng &rng) { ready = rng.chance(p_ready); return ready; }
    bool idle() const { return !in_packet; }
};

// Registered peer table: grants a request the cycle after seeing it, answers
// after a small random delay with a snapshot taken at acceptance.
struct LookupModel {
    struct Entry { uint64_t mac = 0; int mode = 0; };
    Entry table[4];
    bool req_ready = false, rsp_valid = false, pending = false;
    bool req_fire = false, rsp_fire = false;
    int delay = 0;
    unsigned delay_span = 3;     // answer delay 0..delay_span-1 cycles (1: none)
    bool hit = false;
    unsigned idx = 0;
    uint64_t mac = 0;
    int mode = 0;
    unsigned queries = 0;
    void sample(Top *t) {
        req_fire = t->lk_req_valid && req_ready;
        rsp_fire = rsp_valid && t->lk_rsp_ready;
        if (req_fire) {
            match(t);
        }
    }
    void match(Top *t);
    void drive(Top *t, Rng &rng);
};

// The fields every transfer request and completion carry (the kind, op,
// len, peer_idx, sequence and last ports of initiator_if and responder_if).
struct XferHead {
    int kind = 0, op = 0;
    uint32_t len = 0;
    unsigned peer = 0;
    uint32_t seq = 0;
    bool last = false;
    bool operator==(const XferHead &o) const
    {
        return kind == o.kind && op == o.op && len == o.len && peer == o.peer && seq == o.seq &&
               last == o.last;
    }
};

// A request channel's payload.
struct XferReq : XferHead {
    uint32_t addr = 0, biten = 0, wdata = 0;
};

// What the bench asks on initiator_if: a full-length bulk write by default.
struct IniCmd : XferReq {
    IniCmd()
    {
        kind = KIND_DMA;
        op = OP_WRITE;
        last = true;
    }
};

struct Cpl : XferHead {
    bool error = false;
    unsigned code = 0;
    uint32_t rdata = 0;
    uint64_t cycle = 0;              // when accepted (not part of the channel)
    bool operator==(const Cpl &o) const
    {
        return XferHead::operator==(o) && error == o.error && code == o.code && rdata == o.rdata;
    }
};

struct TxStatus {
    unsigned peer = 0;
    uint32_t seq = 0, len = 0;
    unsigned code = 0;
    std::function<bool()> when;      // presented only once this holds
};

// The DMA engine as requester on initiator_if.
struct InitiatorModel {
    std::deque<IniCmd> cmds;
    std::deque<TxStatus> status;
    std::vector<Cpl> cpls;
    std::vector<uint64_t> accept_cycles;
    double p_valid = 1.0, p_cpl_ready = 1.0;
    bool req_valid = false, ts_valid = false, cpl_ready = false;
    bool req_fire = false, ts_fire = false;
    bool cpl_held = false;           // valid && !ready in the previous cycle
    Cpl held;
    unsigned stability_errors = 0;
    void sample(Top *t, uint64_t cycle);
    void drive(Top *t, Rng &rng);
    bool idle() const { return cmds.empty() && !req_valid && status.empty() && !ts_valid; }
};

// A request as the engine presents it on responder_if.
struct RspReq : XferReq {
    unsigned err = 0;
    bool rx_status = false;
};

struct RxStatusRec { unsigned peer; uint32_t seq, len; unsigned code; };

// The DMA engine as executor on responder_if, over a byte-addressed memory.
struct ResponderModel {
    Bytes mem = Bytes(1u << 16);
    std::vector<RspReq> reqs;
    std::vector<RxStatusRec> rx_status;
    std::vector<Cpl> cpls_sent;
    double p_req_ready = 1.0, p_rxs_ready = 1.0;
    // fault injection for the next requests
    unsigned read_fail_cause = 0;     // 4/5: source read fails
    bool read_fail_late = false;      // ... after all data beats were taken
    unsigned write_fail_cause = 0;    // 6/7: memory write fails
    unsigned rmem_fail_cause = 0;
    unsigned cpl_delay = 0;           // cycles before a completion is offered
    bool rx_available = false;
    unsigned claims = 0;
    // wiring
    StreamSource *local_src = nullptr;    // s_axis_local (read data)
    StreamSink *local_sink = nullptr;     // m_axis_local (write data)
    struct Pending {
        Cpl c;
        uint64_t at;
        bool wait_src_empty, wait_rxs;
        uint32_t addr;
    };
    std::deque<Pending> pend;
    bool req_ready = false, rxs_ready = false, cpl_valid = false, claim_ready = false;
    bool req_fire = false, rxs_fire = false, cpl_fire = false, claim_fire = false;
    uint64_t now = 0;
    void sample(Top *t, uint64_t cycle);
    void drive(Top *t, Rng &rng);
    uint32_t mem32(uint32_t a) const;
    bool idle() const { return pend.empty() && !cpl_valid; }
};

#endif
