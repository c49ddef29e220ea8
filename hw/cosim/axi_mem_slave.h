// AxiMemSlave: an AXI4 slave (OE_COSIM_AXI_W-bit data: 32 by default, 64,
// 128 or 256, the model's AXI_DATA_W) for a Verilator model whose
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
// rising edge) and returns whether one happened. M is the model or its root
// (both name the ports m_axi_*). The slave must be the only writer of those
// inputs: without delays, drive() writes them only after a handshake changed
// what they carry (the model keeps an input's value between evaluations).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#ifndef OE_COSIM_AXI_W
#define OE_COSIM_AXI_W 32
#endif
static_assert(OE_COSIM_AXI_W == 32 || OE_COSIM_AXI_W == 64 || OE_COSIM_AXI_W == 128 ||
                  OE_COSIM_AXI_W == 256,
              "OE_COSIM_AXI_W is the model's AXI_DATA_W: 32, 64, 128 or 256");

extern "C" {
#include "openenoc/engine.h"
}

#include "vl_data_bytes.h"

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
        if (!stall_pct_ && !dirty_) {
            return;   // nothing moved since the last drive: the model holds these values
        }
        dirty_ = false;
        bool busy = rbusy_ || wbusy_ || m->m_axi_arvalid || m->m_axi_awvalid;
        if (busy && stall_pct_) {
            step();
        }
        m->m_axi_arready = !rbusy_ && !stall(0);
        m->m_axi_awready = !wbusy_ && !stall(1);
        m->m_axi_wready = wbusy_ && !bpend_ && !stall(2);
        if (rbusy_ && !rvalid_ && rhead_ < rcount_ && !stall(3)) {
            rvalid_ = true;
        }
        if (wbusy_ && bpend_ && !bvalid_ && !stall(4)) {
            bvalid_ = true;
        }
        m->m_axi_rvalid = rvalid_;
        axi_data_put(m->m_axi_rdata, rvalid_ ? rbeat_ + kBytes * rhead_ : kZero);
        m->m_axi_rresp = rresp_;
        m->m_axi_rlast = rvalid_ && rcount_ - rhead_ == 1;
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
            rhead_++;
            rvalid_ = false;
            rbusy_ = rhead_ < rcount_;
            moved = true;
        }
        if (m->m_axi_awvalid && m->m_axi_awready) {
            wbusy_ = true;
            waddr_ = m->m_axi_awaddr & ~(kBytes - 1);
            wbeats_ = m->m_axi_awlen + 1u;
            wcount_ = 0;
            moved = true;
        }
        if (m->m_axi_wvalid && m->m_axi_wready) {
            /* at most AWLEN + 1 <= kMaxBeats beats: the burst ends at its
             * count or at WLAST, and WREADY stays low until the next AW */
            axi_data_get(wbytes_ + kBytes * wcount_, m->m_axi_wdata);
            wstrb_[wcount_++] = m->m_axi_wstrb & kAllLanes;
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
        dirty_ = dirty_ || moved;
        return moved;
    }

    bool idle() const { return !rbusy_ && !wbusy_; }

private:
    static const unsigned kMaxBeats = 256;   // AXI4 INCR: ARLEN/AWLEN + 1
    static const unsigned kBytes = OE_COSIM_AXI_W / 8;   // of a beat
    static constexpr uint8_t kZero[kBytes] = {};          // R data while RVALID is low
    // WSTRB of a beat (kBytes bits: 32 at 256, where 1u << kBytes would overflow)
    typedef std::conditional<(kBytes > 16), uint32_t, uint16_t>::type Strb;
    static const Strb kAllLanes = (Strb)((uint64_t(1) << kBytes) - 1);  // a whole beat

    bool stall(unsigned k) const
    {
        return stall_pct_ && ((rng_ >> (8 * k)) & 0xFF) * 100 < stall_pct_ * 256;
    }
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
        if (rbuf_.size() < total) {
            rbuf_.resize(total);
        }
        uint8_t *buf = rbuf_.data();
        memset(buf, 0, total);
        OeMemStatus st = rd_(opaque_, addr, buf, total);
        rresp_ = (uint8_t)st;
        rhead_ = 0;
        rcount_ = len + 1;
        if (st != OE_MEM_OK) {
            memset(rbeat_, 0, kBytes * rcount_);
        } else if (unit == kBytes && first == kBytes) {
            /* full beats from an aligned address: beat b is bytes kBytes b.. */
            memcpy(rbeat_, buf, total);
        } else {
            /* each byte on its address lane, the others 0 */
            memset(rbeat_, 0, kBytes * rcount_);
            uint32_t a = addr, off = 0;
            for (unsigned b = 0; b <= len; b++) {
                uint32_t n = b == 0 ? first : unit;
                for (uint32_t k = 0; k < n; k++) {
                    rbeat_[kBytes * b + ((a + k) & (kBytes - 1))] = buf[off + k];
                }
                off += n;
                a = (a & ~(unit - 1)) + unit;
            }
        }
        rbusy_ = true;
    }

    void finish_write()
    {
        OeMemStatus st = OE_MEM_OK;
        size_t nbytes = kBytes * (size_t)wcount_;
        size_t i = 0;
        while (i < nbytes && st == OE_MEM_OK) {
            if (!strobed(i)) {
                i++;
                continue;
            }
            size_t j = i;
            while (j < nbytes && strobed(j)) {
                /* a whole beat strobed at once (a DMA burst's middle) */
                bool whole = j % kBytes == 0 && wstrb_[j / kBytes] == kAllLanes;
                j += whole ? kBytes : 1;
            }
            st = wr_(opaque_, waddr_ + (uint32_t)i, wbytes_ + i, (uint32_t)(j - i));
            i = j;
        }
        bresp_ = (uint8_t)st;
        bpend_ = true;
    }
    bool strobed(size_t byte) const
    {
        return (wstrb_[byte / kBytes] >> (byte % kBytes)) & 1;
    }

    ReadFn rd_;
    WriteFn wr_;
    void *opaque_;
    unsigned stall_pct_;
    uint64_t rng_;
    bool dirty_ = true;   // a handshake since the last drive (or none driven yet)
    // read burst in flight: beats rbeat_[rhead_ .. rcount_)
    bool rbusy_ = false, rvalid_ = false;
    uint8_t rresp_ = 0;
    unsigned rhead_ = 0, rcount_ = 0;
    uint8_t rbeat_[kBytes * kMaxBeats];   // lane k of beat b at kBytes b + k
    std::vector<uint8_t> rbuf_;   // the burst's bytes, as mem_read fills them
    // write burst in flight: wcount_ beats received
    bool wbusy_ = false, bpend_ = false, bvalid_ = false;
    uint8_t bresp_ = 0;
    uint32_t waddr_ = 0;
    unsigned wbeats_ = 0, wcount_ = 0;
    uint8_t wbytes_[kBytes * kMaxBeats];
    Strb wstrb_[kMaxBeats];
};
