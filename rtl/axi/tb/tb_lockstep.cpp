// Lockstep of two openenoc_endpoint_axi models, Vold (an earlier RTL) and
// Vnew (the working tree), on the same seeded random stimulus: every output
// is compared after every clock edge, so a refactoring that must not change
// behaviour is shown cycle for cycle equal (scripts/rtl-lockstep.sh builds
// and runs it). Stimulus: AXI4-Lite writes and reads aimed at the CSR map
// (configuration, direct stream, raw DMA, IRQ, peer table, some RMEM window),
// an AXI4 slave with random delays and occasional SLVERR/DECERR, Ethernet
// frames (mostly oETP-looking, MACs from a small set), random time steps,
// pacing and frame ceilings, and a reset every 25,000 cycles.
// Usage: tb_lockstep CYCLES SEED; PERTURB=N flips bit 0 of the read data
// given to the new model for 20,000 cycles from cycle N (the comparison's
// self-check: it must then report a mismatch).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <deque>
#include "Vold.h"
#include "Vnew.h"
#include "verilated.h"

static uint64_t rs;
static uint32_t rnd() { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return uint32_t(rs >> 16); }
static bool pct(unsigned p) { return rnd() % 100 < p; }

#define OUTS(X) X(irq) X(irq_msg) X(can_receive) X(timer_wake) X(s_axil_awready) X(s_axil_wready) \
  X(s_axil_bresp) X(s_axil_bvalid) X(s_axil_arready) X(s_axil_rdata) X(s_axil_rresp) X(s_axil_rvalid) \
  X(m_axi_awaddr) X(m_axi_awlen) X(m_axi_awsize) X(m_axi_awburst) X(m_axi_awcache) X(m_axi_awprot) \
  X(m_axi_awvalid) X(m_axi_wdata) X(m_axi_wstrb) X(m_axi_wlast) X(m_axi_wvalid) X(m_axi_bready) \
  X(m_axi_araddr) X(m_axi_arlen) X(m_axi_arsize) X(m_axi_arburst) X(m_axi_arcache) X(m_axi_arprot) \
  X(m_axi_arvalid) X(m_axi_rready) X(s_axis_eth_tready) X(m_axis_eth_tdata) X(m_axis_eth_tkeep) \
  X(m_axis_eth_tlast) X(m_axis_eth_tvalid)
#define INS(X) X(rst) X(time_step) X(local_tx_en) X(max_frame_size) X(s_axil_awaddr) X(s_axil_awprot) \
  X(s_axil_awvalid) X(s_axil_wdata) X(s_axil_wstrb) X(s_axil_wvalid) X(s_axil_bready) X(s_axil_araddr) \
  X(s_axil_arprot) X(s_axil_arvalid) X(s_axil_rready) X(m_axi_awready) X(m_axi_wready) X(m_axi_bresp) \
  X(m_axi_bvalid) X(m_axi_arready) X(m_axi_rdata) X(m_axi_rresp) X(m_axi_rlast) X(m_axi_rvalid) \
  X(s_axis_eth_tdata) X(s_axis_eth_tkeep) X(s_axis_eth_tlast) X(s_axis_eth_tvalid) X(m_axis_eth_tready)

struct In { uint64_t rst, time_step, local_tx_en, max_frame_size, s_axil_awaddr, s_axil_awprot, s_axil_awvalid,
  s_axil_wdata, s_axil_wstrb, s_axil_wvalid, s_axil_bready, s_axil_araddr, s_axil_arprot, s_axil_arvalid,
  s_axil_rready, m_axi_awready, m_axi_wready, m_axi_bresp, m_axi_bvalid, m_axi_arready, m_axi_rdata,
  m_axi_rresp, m_axi_rlast, m_axi_rvalid, s_axis_eth_tdata, s_axis_eth_tkeep, s_axis_eth_tlast,
  s_axis_eth_tvalid, m_axis_eth_tready; };

static const uint32_t vals[] = {0, 1, 2, 3, 4, 0xFFFFFFFF, 0x100, 0x1000, 64, 8160, 0x0E88B5, 0xFFFF, 0x80000000, 7};
static uint32_t val() { return pct(60) ? vals[rnd() % (sizeof vals / sizeof vals[0])] : (pct(50) ? rnd() % 0x2000 : rnd()); }
static const uint8_t macs[4][6] = {{0, 0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 2}, {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, {1, 0, 0, 0, 0, 0}};

int main(int argc, char **argv)
{
    if (argc > 1 && argv[1][0] == '-') {
        printf("usage: tb_lockstep [CYCLES [SEED]]   (PERTURB=N: self-check, see the source)\n");
        return 2;
    }
    uint64_t cycles = argc > 1 ? strtoull(argv[1], 0, 0) : 200000;
    rs = argc > 2 ? strtoull(argv[2], 0, 0) * 2654435761u + 1 : 88172645463325252ull;
    uint64_t perturb = getenv("PERTURB") ? strtoull(getenv("PERTURB"), 0, 0) : 0;
    VerilatedContext ctx;
    Vold *a = new Vold(&ctx, "old");
    Vnew *b = new Vnew(&ctx, "new");
    In in = {};
    std::deque<std::pair<uint32_t, int>> ar;     // outstanding read bursts: beats left
    int wbursts = 0, bpend = 0;                  // AW seen, W bursts done waiting for B
    uint64_t nbursts = 0, nframes = 0, nirq = 0, nlite = 0, nrx = 0;
    uint8_t frame[128]; int flen = 0, fpos = -1;
    int lite = 0;                                // 0 idle, 1 write, 2 read
    for (uint64_t c = 0; c < cycles; c++) {
        // ---- drive inputs from the (equal) outputs of the last edge ----
        in.rst = c < 4 || c % 25000 < 2;
        in.time_step = pct(95) ? 1 : (pct(50) ? 0 : rnd() % 5000);
        in.local_tx_en = pct(90);
        if (c % 50000 == 0) in.max_frame_size = pct(70) ? 8192 : 36 + rnd() % (8192 - 36);
        // AXI-Lite master: one transaction at a time, held until its handshake
        if (lite == 0 && pct(20)) {
            bool wr = pct(70);
            unsigned k = rnd() % 100;
            uint32_t addr = k < 40 ? 0x820 + 4 * (rnd() % 29) :
                            k < 75 ? 0x900 + 0x1C * (rnd() % 4) + 4 * (rnd() % 7) :
                            k < 77 ? 0xC00 + 4 * (rnd() % 256) : (rnd() % 0x2000) & ~3u;
            if (wr) { in.s_axil_awaddr = addr; in.s_axil_wdata = val(); in.s_axil_wstrb = pct(80) ? 15 : rnd() % 16;
                      in.s_axil_awvalid = 1; in.s_axil_wvalid = 1; lite = 1; }
            else { in.s_axil_araddr = addr; in.s_axil_arvalid = 1; lite = 2; }
            nlite++;
        }
        in.s_axil_bready = pct(70);
        in.s_axil_rready = pct(70);
        // AXI4 slave
        in.m_axi_arready = pct(60);
        in.m_axi_awready = pct(60);
        in.m_axi_wready = pct(60);
        if (!ar.empty() && (!in.m_axi_rvalid || a->m_axi_rready == 0)) {
            if (!in.m_axi_rvalid && pct(60)) {
                in.m_axi_rvalid = 1; in.m_axi_rdata = rnd(); in.m_axi_rresp = pct(97) ? 0 : (pct(50) ? 2 : 3);
                in.m_axi_rlast = ar.front().second == 1;
            }
        }
        if (!in.m_axi_bvalid && bpend > 0 && pct(50)) {
            in.m_axi_bvalid = 1; in.m_axi_bresp = pct(97) ? 0 : (pct(50) ? 2 : 3);
        }
        // Ethernet in: frames of 14..128 bytes, oETP-looking or not
        if (fpos < 0 && pct(2)) {
            flen = 14 + rnd() % 115;
            for (int i = 0; i < flen; i++) frame[i] = rnd();
            const uint8_t *m = macs[rnd() % 4], *sm = macs[rnd() % 4];
            for (int i = 0; i < 6; i++) { frame[i] = m[i]; frame[6 + i] = sm[i]; }
            if (pct(70)) { frame[12] = 0x88; frame[13] = 0xB5; frame[14 % flen] = 0x0E; frame[15 % flen] = rnd() % 12; }
            fpos = 0;
            nrx++;
        }
        if (fpos >= 0 && !(in.s_axis_eth_tvalid && !a->s_axis_eth_tready)) {
            if (pct(80)) {
                uint32_t d = 0; unsigned k = 0;
                for (int i = 0; i < 4 && fpos + i < flen; i++) { d |= uint32_t(frame[fpos + i]) << (8 * i); k |= 1u << i; }
                in.s_axis_eth_tdata = d; in.s_axis_eth_tkeep = k; in.s_axis_eth_tlast = fpos + 4 >= flen;
                in.s_axis_eth_tvalid = 1;
            } else in.s_axis_eth_tvalid = 0;
        }
        in.m_axis_eth_tready = pct(80);
#define SET(n) a->n = in.n; b->n = in.n;
        INS(SET)
        if (perturb && c >= perturb && c < perturb + 20000) b->m_axi_rdata ^= 1;   // self-check of the comparison
        a->clk = 0; b->clk = 0; a->eval(); b->eval();
        // handshakes seen at this edge (outputs before the edge)
        bool aw = a->m_axi_awvalid && in.m_axi_awready, w = a->m_axi_wvalid && in.m_axi_wready;
        bool arh = a->m_axi_arvalid && in.m_axi_arready, r = in.m_axi_rvalid && a->m_axi_rready;
        bool bh = in.m_axi_bvalid && a->m_axi_bready;
        bool lw = (in.s_axil_awvalid && a->s_axil_awready), lwd = (in.s_axil_wvalid && a->s_axil_wready);
        bool lar = in.s_axil_arvalid && a->s_axil_arready;
        bool lb = a->s_axil_bvalid && in.s_axil_bready, lr = a->s_axil_rvalid && in.s_axil_rready;
        bool erx = in.s_axis_eth_tvalid && a->s_axis_eth_tready;
        bool etx = a->m_axis_eth_tvalid && in.m_axis_eth_tready && a->m_axis_eth_tlast;
        uint32_t arlen = a->m_axi_arlen;
        bool wlast = a->m_axi_wlast;
        a->clk = 1; b->clk = 1; a->eval(); b->eval();
        ctx.timeInc(1);
#define CMP(n) if (a->n != b->n) { printf("MISMATCH cycle %llu: %s old %llx new %llx\n", (unsigned long long)c, #n, (unsigned long long)a->n, (unsigned long long)b->n); return 1; }
        OUTS(CMP)
        if (in.rst) { ar.clear(); bpend = 0; wbursts = 0; in.m_axi_rvalid = 0; in.m_axi_bvalid = 0; lite = 0;
                      in.s_axil_awvalid = in.s_axil_wvalid = in.s_axil_arvalid = 0; fpos = -1; in.s_axis_eth_tvalid = 0; continue; }
        if (arh) { ar.push_back({0, int(arlen) + 1}); nbursts++; }
        if (r) { in.m_axi_rvalid = 0; if (--ar.front().second == 0) ar.pop_front(); }
        if (aw) { wbursts++; nbursts++; }
        if (w && wlast) bpend++;
        if (bh) { in.m_axi_bvalid = 0; bpend--; }
        if (lw) in.s_axil_awvalid = 0;
        if (lwd) in.s_axil_wvalid = 0;
        if (lar) in.s_axil_arvalid = 0;
        if (lb || lr) lite = 0;
        if (erx) { fpos += 4; if (fpos >= flen) { fpos = -1; } in.s_axis_eth_tvalid = 0; }
        if (etx) nframes++;
        nirq += a->irq;
    }
    printf("lockstep: %llu cycles equal; %llu AXI4 bursts, %llu AXI4-Lite requests, %llu frames in, %llu frames out, %llu cycles with irq\n",
           (unsigned long long)cycles, (unsigned long long)nbursts, (unsigned long long)nlite, (unsigned long long)nrx,
           (unsigned long long)nframes, (unsigned long long)nirq);
    a->final(); b->final();
    delete a; delete b;
    return 0;
}
