// Bench models: see tb_models.h.
#include "tb_models.h"

// A transfer channel's payload at the bench top's flat ports P_kind, P_op,
// ... (tb_oetp_engine.sv spells them the same way on both interfaces).
#define TB_HEAD_GET(h, t, P)                                                            \
    ((h).kind = (t)->P##_kind, (h).op = (t)->P##_op, (h).len = (t)->P##_len,            \
     (h).peer = (t)->P##_peer_idx, (h).seq = (t)->P##_sequence, (h).last = (t)->P##_last)
#define TB_HEAD_PUT(t, P, h)                                                            \
    ((t)->P##_kind = (h).kind, (t)->P##_op = (h).op, (t)->P##_len = (h).len,            \
     (t)->P##_peer_idx = (h).peer, (t)->P##_sequence = (h).seq, (t)->P##_last = (h).last)
#define TB_REQ_GET(r, t, P)                                                             \
    (TB_HEAD_GET(r, t, P), (r).addr = (t)->P##_addr, (r).biten = (t)->P##_biten,         \
     (r).wdata = (t)->P##_wdata)
#define TB_REQ_PUT(t, P, r)                                                             \
    (TB_HEAD_PUT(t, P, r), (t)->P##_addr = (r).addr, (t)->P##_biten = (r).biten,         \
     (t)->P##_wdata = (r).wdata)
#define TB_CPL_GET(c, t, P)                                                             \
    (TB_HEAD_GET(c, t, P), (c).error = (t)->P##_error, (c).code = (t)->P##_error_code,   \
     (c).rdata = (t)->P##_rdata)
#define TB_CPL_PUT(t, P, c)                                                             \
    (TB_HEAD_PUT(t, P, c), (t)->P##_error = (c).error, (t)->P##_error_code = (c).code,   \
     (t)->P##_rdata = (c).rdata)

std::vector<Beat> to_beats(const Bytes &b, uint32_t id, uint8_t dest, uint8_t user)
{
    std::vector<Beat> v;
    for (size_t i = 0; i < b.size(); i += 4) {
        Beat x;
        x.keep = 0;
        for (size_t k = 0; k < 4 && i + k < b.size(); k++) {
            x.data |= uint32_t(b[i + k]) << (8 * k);
            x.keep |= 1u << k;
        }
        x.last = i + 4 >= b.size();
        x.id = id;
        x.dest = dest;
        x.user = user;
        v.push_back(x);
    }
    return v;
}

void StreamSink::sample(bool valid, const Beat &b, uint64_t cycle)
{
    if (!(valid && ready)) {
        return;
    }
    beats++;
    if (!in_packet) {
        cur = Packet();
        cur.id = b.id;
        cur.dest = b.dest;
        cur.user = b.user;
        cur.first_cycle = cycle;
        in_packet = true;
    } else if (b.id != cur.id || b.dest != cur.dest || b.user != cur.user) {
        cur.meta_stable = false;
    }
    if (!b.last && b.keep != 0xF) {
        cur.keep_ok = false;
    }
    if (b.last && b.keep != 0x1 && b.keep != 0x3 && b.keep != 0x7 && b.keep != 0xF) {
        cur.keep_ok = false;
    }
    for (int k = 0; k < 4; k++) {
        if (b.keep >> k & 1) {
            cur.bytes.push_back(uint8_t(b.data >> (8 * k)));
        }
    }
    cur.beats++;
    if (b.last) {
        cur.last_cycle = cycle;
        done.push_back(cur);
        in_packet = false;
    }
}

// Lowest index wins; the mode must be enabled and allowed by the mask.
void LookupModel::match(Top *t)
{
    queries++;
    hit = false;
    for (unsigned i = 0; i < 4 && !hit; i++) {
        const Entry &e = table[i];
        if (e.mode == 0 || !(t->lk_req_mode_mask >> e.mode & 1)) {
            continue;
        }
        if ((t->lk_req_type == 2 && e.mac == t->lk_req_mac_addr) ||
            (t->lk_req_type == 0 && i == t->lk_req_peer_idx)) {
            hit = true;
            idx = i;
            mac = e.mac;
            mode = e.mode;
        }
    }
}

void LookupModel::drive(Top *t, Rng &rng)
{
    if (rsp_fire) {
        rsp_valid = false;
    }
    if (req_fire) {
        // the snapshot is taken at acceptance (sampled before the edge)
        req_ready = false;
        pending = true;
        delay = int(rng.below(delay_span));
    } else {
        req_ready = t->lk_req_valid && !pending && !rsp_valid;
    }
    if (pending && !rsp_valid) {
        if (delay-- <= 0) {
            pending = false;
            rsp_valid = true;
        }
    }
    t->lk_req_ready = req_ready;
    t->lk_rsp_valid = rsp_valid;
    t->lk_rsp_hit = rsp_valid && hit;
    t->lk_rsp_peer_idx = hit ? idx : 0;
    t->lk_rsp_mac_addr = hit ? mac : 0;
    t->lk_rsp_dma_mode = hit ? mode : 0;
}

void InitiatorModel::sample(Top *t, uint64_t cycle)
{
    req_fire = req_valid && t->ini_req_ready;
    ts_fire = ts_valid && t->ini_ts_ready;
    if (t->ini_cpl_valid) {
        Cpl c;
        TB_CPL_GET(c, t, ini_cpl);
        if (cpl_held && !(c == held)) {
            stability_errors++;
        }
        if (cpl_ready) {
            c.cycle = cycle;
            cpls.push_back(c);
            cpl_held = false;
        } else {
            cpl_held = true;
            held = c;
        }
    } else if (cpl_held) {
        stability_errors++;      // completion withdrawn before acceptance
        cpl_held = false;
    }
}

void InitiatorModel::drive(Top *t, Rng &rng)
{
    if (req_fire) {
        cmds.pop_front();
        req_valid = false;
    }
    if (!req_valid && !cmds.empty() && rng.chance(p_valid)) {
        req_valid = true;
    }
    t->ini_req_valid = req_valid;
    if (req_valid) {
        TB_REQ_PUT(t, ini_req, cmds.front());
    }
    if (ts_fire) {
        status.pop_front();
        ts_valid = false;
    }
    if (!ts_valid && !status.empty() && (!status.front().when || status.front().when()) &&
        rng.chance(p_valid)) {
        ts_valid = true;
    }
    t->ini_ts_valid = ts_valid;
    if (ts_valid) {
        const TxStatus &s = status.front();
        t->ini_ts_peer_idx = s.peer;
        t->ini_ts_sequence = s.seq;
        t->ini_ts_len = s.len;
        t->ini_ts_error_code = s.code;
    }
    cpl_ready = rng.chance(p_cpl_ready);
    t->ini_cpl_ready = cpl_ready;
}

uint32_t ResponderModel::mem32(uint32_t a) const
{
    uint32_t v = 0;
    for (int k = 0; k < 4; k++) {
        v |= uint32_t(mem[(a + k) & (mem.size() - 1)]) << (8 * k);
    }
    return v;
}

void ResponderModel::sample(Top *t, uint64_t cycle)
{
    now = cycle;
    req_fire = t->rsp_req_valid && req_ready;
    rxs_fire = t->rsp_rxs_valid && rxs_ready;
    cpl_fire = cpl_valid && t->rsp_cpl_ready;
    claim_fire = t->rsp_claim_valid && claim_ready;
    if (claim_fire) {
        claims++;
        rx_available = false;
    }
    if (rxs_fire) {
        RxStatusRec s{t->rsp_rxs_peer_idx, t->rsp_rxs_sequence, t->rsp_rxs_len,
                      t->rsp_rxs_error_code};
        rx_status.push_back(s);
        for (auto &p : pend) {
            if (p.wait_rxs && p.c.seq == s.seq) {
                p.wait_rxs = false;
                p.c.len = s.len;
                if (s.code) {
                    p.c.error = true;
                    p.c.code = 2;       // framing failure: wire cause 2
                }
                break;
            }
        }
    }
    if (cpl_fire) {
        cpls_sent.push_back(pend.front().c);
        pend.pop_front();
    }
    if (!req_fire) {
        return;
    }
    RspReq r;
    TB_REQ_GET(r, t, rsp_req);
    r.err = t->rsp_req_error_code;
    r.rx_status = t->rsp_req_rx_status;
    reqs.push_back(r);

    Pending p{};
    static_cast<XferHead &>(p.c) = r;
    p.at = now + cpl_delay;
    p.addr = r.addr;
    uint32_t msk = uint32_t(mem.size() - 1);
    if (r.err) {
        p.c.error = true;
        p.c.code = r.err;
        p.c.len = 0;
    } else if (r.kind == KIND_RMEM && rmem_fail_cause) {
        p.c.error = true;
        p.c.code = rmem_fail_cause;
        p.c.len = 0;
    } else if (r.kind == KIND_RMEM && r.op == OP_READ) {
        p.c.rdata = mem32(r.addr);
    } else if (r.kind == KIND_RMEM) {
        uint32_t v = (mem32(r.addr) & ~r.biten) | (r.wdata & r.biten);
        for (int k = 0; k < 4; k++) {
            mem[(r.addr + k) & msk] = uint8_t(v >> (8 * k));
        }
    } else if (r.op == OP_WRITE) {
        p.wait_rxs = r.rx_status;
    } else if (read_fail_cause && !read_fail_late) {
        p.c.error = true;
        p.c.code = read_fail_cause;
        p.c.len = 0;
    } else {
        Bytes d(r.len);
        for (uint32_t i = 0; i < r.len; i++) {
            d[i] = mem[(r.addr + i) & msk];
        }
        local_src->push(to_beats(d, r.seq, uint8_t(ROUTE_PEER << 2 | r.peer), 3));
        if (read_fail_cause) {
            p.c.error = true;
            p.c.code = read_fail_cause;
            p.wait_src_empty = true;
        }
    }
    pend.push_back(p);
}

void ResponderModel::drive(Top *t, Rng &rng)
{
    if (cpl_fire) {
        cpl_valid = false;
    }
    if (!cpl_valid && !pend.empty()) {
        Pending &p = pend.front();
        bool ok = now >= p.at && !p.wait_rxs && (!p.wait_src_empty || local_src->q.empty());
        if (ok && p.c.kind == KIND_DMA && p.c.op == OP_WRITE && p.c.len) {
            // the write payload must have reached the sink (its TLAST)
            const Packet *frag = nullptr;
            for (auto it = local_sink->done.rbegin(); it != local_sink->done.rend(); ++it) {
                if (it->id == p.c.seq && (it->user & 2)) { frag = &*it; break; }
            }
            if (!frag) {
                ok = false;
            } else if (!p.c.error || p.c.code == 2) {
                for (size_t i = 0; i < frag->bytes.size(); i++) {
                    mem[(p.addr + i) & (mem.size() - 1)] = frag->bytes[i];
                }
            }
        }
        if (ok && p.c.kind == KIND_DMA && p.c.op == OP_WRITE && write_fail_cause) {
            p.c.error = true;            // a bus cause wins over a framing failure
            p.c.code = write_fail_cause;
        }
        cpl_valid = ok;
    }
    t->rsp_cpl_valid = cpl_valid;
    if (cpl_valid) {
        TB_CPL_PUT(t, rsp_cpl, pend.front().c);
    }
    req_ready = rng.chance(p_req_ready);
    rxs_ready = rng.chance(p_rxs_ready);
    claim_ready = t->rsp_claim_valid && rx_available && !claim_ready;
    t->rsp_req_ready = req_ready;
    t->rsp_rxs_ready = rxs_ready;
    t->rsp_claim_ready = claim_ready;
    t->rsp_rx_available = rx_available;
}
