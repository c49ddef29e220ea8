// AxiMemSlave: an AXI4 slave (32-bit data) for a Verilator model whose
// master ports are named m_axi_* (openenoc_endpoint_axi: the co-simulation
// hw/cosim/oe_cosim.cpp; tb_axi_mem: the memory master's bench), that
// serves every burst from engine.h-style memory callbacks: one mem_read call
// per read burst for exactly the bytes it addresses (from the unaligned
// start, ARSIZE beats), one mem_write call per run of strobed bytes of a
// write burst, and the call's OeMemStatus as RRESP for every beat of the
// burst and as BRESP. Bursts are served one at a time, in order.
//
// Optional random delays (stall_pct, a seeded xorshift that only steps while
// a burst is in flight): READY on AR/AW/W and VALID on R/B come late; a VALID
// once raised is held, and its payload kept, until READY.
//
// Use per clock cycle: drive(m) sets the slave's inputs of the model, the host
// evaluates the model with clk low, tick(m) samples the handshakes (before the
// rising edge) and returns whether one happened.
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <vector>

extern "C" {
#include "openenoc/engine.h"
}

class AxiMemSlave {
public:
    typedef OeMemStatus (*ReadFn)(void *opaque, uint32_t addr, void *buf, uint32_t len);
    typedef OeMemStatus (*WriteFn)(void *opaque, uint32_t addr, const void *buf, uint32_t len);

    AxiMemSlave(ReadFn rd, WriteFn wr, void *opaque, unsigned stall_pct = 0, uint64_t seed = 1)
        : rd_(rd), wr_(wr), opaque_(opaque), stall_pct_(stall_pct), rng_(seed | 1)
    {
    }

    template <class M> void drive(M *m)
    {
        bool busy = rbusy_ || wbusy_ || m->m_axi_arvalid || m->m_axi_awvalid;
        if (busy && stall_pct_) {
            step();
        }
        m->m_axi_arready = !rbusy_ && !stall(0);
        m->m_axi_awready = !wbusy_ && !stall(1);
        m->m_axi_wready = wbusy_ && !bpend_ && !stall(2);
        if (rbusy_ && !rvalid_ && !rbeats_.empty() && !stall(3)) {
            rvalid_ = true;
        }
        if (wbusy_ && bpend_ && !bvalid_ && !stall(4)) {
            bvalid_ = true;
        }
        m->m_axi_rvalid = rvalid_;
        m->m_axi_rdata = rvalid_ ? rbeats_.front() : 0;
        m->m_axi_rresp = rresp_;
        m->m_axi_rlast = rvalid_ && rbeats_.size() == 1;
        m->m_axi_bvalid = bvalid_;
        m->m_axi_bresp = bresp_;
    }

    template <class M> bool tick(M *m)
    {
        bool moved = false;
        if (m->m_axi_arvalid && m->m_axi_arready) {
            start_read(m->m_axi_araddr, m->m_axi_arlen, m->m_axi_arsize);
            moved = true;
        }
        if (m->m_axi_rvalid && m->m_axi_rready) {
            rbeats_.pop_front();
            rvalid_ = false;
            rbusy_ = !rbeats_.empty();
            moved = true;
        }
        if (m->m_axi_awvalid && m->m_axi_awready) {
            wbusy_ = true;
            waddr_ = m->m_axi_awaddr & ~3u;
            wbeats_ = m->m_axi_awlen + 1u;
            wbytes_.clear();
            wstrb_.clear();
            moved = true;
        }
        if (m->m_axi_wvalid && m->m_axi_wready) {
            uint32_t d = m->m_axi_wdata;
            for (unsigned k = 0; k < 4; k++) {
                wbytes_.push_back((uint8_t)(d >> (8 * k)));
                wstrb_.push_back((m->m_axi_wstrb >> k) & 1);
            }
            if (--wbeats_ == 0 || m->m_axi_wlast) {
                finish_write();
            }
            moved = true;
        }
        if (m->m_axi_bvalid && m->m_axi_bready) {
            bvalid_ = false;
            bpend_ = false;
            wbusy_ = false;
            moved = true;
        }
        return moved;
    }

    bool idle() const { return !rbusy_ && !wbusy_; }

private:
    bool stall(unsigned k) const { return stall_pct_ && ((rng_ >> (8 * k)) & 0xFF) * 100 < stall_pct_ * 256; }
    void step()
    {
        rng_ ^= rng_ << 13;
        rng_ ^= rng_ >> 7;
        rng_ ^= rng_ << 17;
    }

    void start_read(uint32_t addr, unsigned len, unsigned size)
    {
        uint32_t unit = 1u << size;
        uint32_t first = unit - (addr & (unit - 1));
        uint32_t total = first + unit * len;
        std::vector<uint8_t> buf(total);
        OeMemStatus st = rd_(opaque_, addr, buf.data(), total);
        rresp_ = (uint8_t)st;
        uint32_t a = addr, off = 0;
        for (unsigned b = 0; b <= len; b++) {
            uint32_t n = b == 0 ? first : unit;
            uint32_t w = 0;
            for (uint32_t k = 0; k < n; k++) {
                w |= (uint32_t)buf[off + k] << (8 * ((a + k) & 3));
            }
            rbeats_.push_back(st == OE_MEM_OK ? w : 0);
            off += n;
            a = (a & ~(unit - 1)) + unit;
        }
        rbusy_ = true;
    }

    void finish_write()
    {
        OeMemStatus st = OE_MEM_OK;
        size_t i = 0;
        while (i < wstrb_.size() && st == OE_MEM_OK) {
            if (!wstrb_[i]) {
                i++;
                continue;
            }
            size_t j = i;
            while (j < wstrb_.size() && wstrb_[j]) {
                j++;
            }
            st = wr_(opaque_, waddr_ + (uint32_t)i, wbytes_.data() + i, (uint32_t)(j - i));
            i = j;
        }
        bresp_ = (uint8_t)st;
        bpend_ = true;
    }

    ReadFn rd_;
    WriteFn wr_;
    void *opaque_;
    unsigned stall_pct_;
    uint64_t rng_;
    // read burst in flight
    bool rbusy_ = false, rvalid_ = false;
    uint8_t rresp_ = 0;
    std::deque<uint32_t> rbeats_;
    // write burst in flight
    bool wbusy_ = false, bpend_ = false, bvalid_ = false;
    uint8_t bresp_ = 0;
    uint32_t waddr_ = 0;
    unsigned wbeats_ = 0;
    std::vector<uint8_t> wbytes_, wstrb_;
};
