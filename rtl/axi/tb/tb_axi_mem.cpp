// Random test of the AXI4 memory master (tb_axi_mem.sv: the read and write
// bridges of openenoc_endpoint_axi, with the protocol checker; built per
// AXI_DATA_W, the slave's OE_COSIM_AXI_W, BURST_MAX and the memory port's
// width MEM_W, OE_TB_MEM_W) against
// AxiMemSlave (hw/cosim/axi_mem_slave.h) serving a reference memory: random byte
// addresses near 4 KiB boundaries, lengths 1..65535, random READY/VALID
// delays on the memory port and on AXI, injected SLVERR/DECERR ranges and
// unbacked addresses (DECERR; the slave answers a whole burst with its host
// call's status), and SLVERR/DECERR forced on one R beat inside a burst the
// host served (as an interconnect may answer), so failures fall on any byte
// the bursts and the bus lanes give, also inside a port beat wider than 4
// bytes. Every transfer must give exactly the port contract: read data and
// a response per 4-byte word (the words wholly before the first failed byte
// OKAY with their data, every later word of the transfer the failure's
// response), written bytes and count, memory untouched outside what was
// written, and host calls that are exact, ascending, within the transfer,
// within 4 KiB, and stop at the first failure.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vtb_axi_mem.h"
#include "axi_mem_slave.h"
#include "verilated.h"

#ifndef AXI_BURST_MAX
#error "build with -DAXI_BURST_MAX=<the model's BURST_MAX>"
#endif
const uint32_t kBusBytes = OE_COSIM_AXI_W / 8;   // the model's AXI_DATA_W / 8
#ifndef OE_TB_MEM_W
#define OE_TB_MEM_W 32
#endif
const uint32_t kMB = OE_TB_MEM_W / 8;            // bytes of a memory-port beat (MEM_W / 8)

namespace {

const uint32_t kMemSize = 0x30000;      // backed: [0, kMemSize); above: DECERR

struct Call {
    bool write;
    uint32_t addr, len;
    OeMemStatus st;
};

struct Host {
    std::vector<uint8_t> mem = std::vector<uint8_t>(kMemSize);
    uint32_t err_lo = 0, err_hi = 0;     // injected error range [lo, hi)
    OeMemStatus err_st = OE_MEM_OK;
    bool err_write = false;
    std::vector<Call> calls;

    OeMemStatus access(bool write, uint32_t a, uint32_t n)
    {
        OeMemStatus st = OE_MEM_OK;
        if (err_st != OE_MEM_OK && write == err_write && a < err_hi && a + n > err_lo) {
            st = err_st;
        } else if ((uint64_t)a + n > kMemSize) {
            st = OE_MEM_DECERR;
        }
        calls.push_back({ write, a, n, st });
        return st;
    }
    static OeMemStatus rd(void *o, uint32_t a, void *buf, uint32_t n)
    {
        Host *h = static_cast<Host *>(o);
        OeMemStatus st = h->access(false, a, n);
        if (st == OE_MEM_OK) memcpy(buf, h->mem.data() + a, n);
        return st;
    }
    static OeMemStatus wr(void *o, uint32_t a, const void *buf, uint32_t n)
    {
        Host *h = static_cast<Host *>(o);
        OeMemStatus st = h->access(true, a, n);
        if (st == OE_MEM_OK) memcpy(h->mem.data() + a, buf, n);
        return st;
    }
};

struct Rng {
    uint64_t s;
    uint32_t next()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return (uint32_t)(s >> 11);
    }
    uint32_t below(uint32_t n) { return next() % n; }
    bool pct(unsigned p) { return below(100) < p; }
};

int g_fail = 0;
#define EXPECT(c, ...)                                                   \
    do {                                                                 \
        if (!(c)) {                                                      \
            printf("  FAIL %s:%d: %s: ", __FILE__, __LINE__, #c);        \
            printf(__VA_ARGS__);                                         \
            printf("\n");                                                \
            g_fail++;                                                    \
            return false;                                                \
        }                                                                \
    } while (0)

struct Bench {
    VerilatedContext ctx;
    Vtb_axi_mem m{&ctx};
    Host host;
    AxiMemSlave slave;
    Rng rng;
    unsigned port_stall;
    uint64_t cycles = 0;
    // coverage
    unsigned max_beats = 0, narrow = 0, full_bursts = 0, heads = 0, errors[4] = {};
    // AxSIZE other than the bus width (AW; AR: also byte tails and the
    // 4-byte one-word read)
    unsigned bad_size = 0;
    unsigned too_long = 0;    // bursts longer than BURST_MAX
    unsigned cut_tails = 0;   // read tails cut at BURST_MAX byte beats
    uint32_t cut_next = ~0u;  // where such a cut tail's next burst starts
    unsigned words = 0;   // 4-byte reads (ARSIZE 2) on a wider bus: the one-word path
    unsigned beat_errors = 0;   // reads failed by an R beat forced inside a burst
    unsigned split = 0;   // port beats with both OKAY and failed words (MEM_W > 32)

    Bench(unsigned stall, uint64_t seed)
        : slave(&Host::rd, &Host::wr, &host, stall, seed), rng{ seed * 7 + 3 }, port_stall(stall)
    {
        m.rst = 1;
        idle_inputs();
        for (int i = 0; i < 2; i++) edge_only();
        m.rst = 0;
    }
    void idle_inputs()
    {
        m.mem_req_valid = 0;
        m.mem_w_valid = 0;
        m.mem_r_ready = 0;
        m.mem_b_ready = 0;
    }
    void edge_only()
    {
        m.clk = 0;
        m.eval();
        m.clk = 1;
        m.eval();
    }
    // the AXI handshakes of this cycle, for coverage (before the slave's tick)
    void observe()
    {
        if (m.m_axi_arvalid && m.m_axi_arready) {
            unsigned beats = m.m_axi_arlen + 1u;
            // bus-wide bursts only: a read tail is 1..kBusBytes-1 byte beats
            if (1u << m.m_axi_arsize == kBusBytes && beats > max_beats) max_beats = beats;
            if (beats > AXI_BURST_MAX) too_long++;
            if (m.m_axi_arsize == 0) narrow++;
            // a tail cut at BURST_MAX (a BURST_MAX below kBusBytes - 1): a
            // byte burst that goes on where a BURST_MAX one ended
            if (m.m_axi_arsize == 0) {
                if (m.m_axi_araddr == cut_next) cut_tails++;
                cut_next = beats == AXI_BURST_MAX ? m.m_axi_araddr + beats : ~0u;
            }
            if (1u << m.m_axi_arsize != kBusBytes && m.m_axi_arsize != 0 &&
                !(m.m_axi_arsize == 2 && m.m_axi_arlen == 0 && !(m.m_axi_araddr & 3))) {
                bad_size++;
            }
            if (kBusBytes > 4 && m.m_axi_arsize == 2) words++;
            if (m.m_axi_araddr & (kBusBytes - 1)) heads++;
        }
        if (m.m_axi_awvalid && m.m_axi_awready) {
            unsigned beats = m.m_axi_awlen + 1u;
            if (beats > max_beats) max_beats = beats;
            if (beats > AXI_BURST_MAX) too_long++;
            if (1u << m.m_axi_awsize != kBusBytes) bad_size++;
        }
    }
    bool stall() { return port_stall && rng.pct(port_stall); }

    // an error range somewhere in the coming transfer, mostly for its direction
    void inject(bool write, uint32_t addr, uint32_t len)
    {
        host.err_st = OE_MEM_OK;
        if (rng.pct(30)) {
            host.err_st = rng.pct(50) ? OE_MEM_SLVERR : OE_MEM_DECERR;
            host.err_write = rng.pct(90) ? write : !write;
            host.err_lo = addr + rng.below(len);
            host.err_hi = host.err_lo + 1 + rng.below(64);
        }
    }

    // the host calls of one transfer: exact, ascending, contiguous from addr,
    // within 4 KiB, nothing after a failure nor after the call holding byte
    // stop of the transfer (an R beat forced to fail there); returns the
    // bytes done before the failing call
    bool calls_ok(bool write, uint32_t addr, uint32_t len, uint32_t *done, OeMemStatus *st,
                  uint32_t stop = UINT32_MAX)
    {
        uint32_t next = addr;
        bool stopped = false;
        *done = 0;
        *st = OE_MEM_OK;
        for (const Call &c : host.calls) {
            EXPECT(c.write == write, "call direction");
            EXPECT(*st == OE_MEM_OK && !stopped, "call at %08x after a failure", c.addr);
            stopped = stop != UINT32_MAX && addr + stop < c.addr + c.len;
            EXPECT(c.addr == next && c.len >= 1 && c.addr + c.len <= addr + len,
                   "call %08x+%u, expected at %08x within %08x+%u", c.addr, c.len, next, addr, len);
            EXPECT((c.addr >> 12) == ((c.addr + c.len - 1) >> 12), "call %08x+%u crosses 4 KiB",
                   c.addr, c.len);
            next += c.len;
            if (c.st == OE_MEM_OK) *done += c.len;
            else *st = c.st;
        }
        EXPECT(*st != OE_MEM_OK || stopped || next == addr + len,
               "calls end at %08x, transfer at %08x", next, addr + len);
        errors[*st]++;
        return true;
    }

    bool read(uint32_t addr, uint32_t len)
    {
        host.calls.clear();
        m.mem_req_valid = 1;
        m.mem_req_write = 0;
        m.mem_req_addr = addr;
        m.mem_req_len = len;
        uint32_t beats = (len + kMB - 1) / kMB, got = 0;
        std::vector<uint8_t> data;
        std::vector<unsigned> resp;
        // an R beat forced to fail: the inj_k-th of the transfer, mostly one
        // of the first few (inside the first bursts), else anywhere
        bool inj = rng.pct(25);
        unsigned inj_k = rng.pct(50) ? rng.below(4) : rng.below(len / kBusBytes + 2);
        unsigned inj_st = rng.pct(50) ? OE_MEM_SLVERR : OE_MEM_DECERR;
        uint32_t inj_at = UINT32_MAX;   // its first byte, counted from addr
        unsigned rbeats = 0, saved = 0;   // R beats taken; the slave's RRESP under the forced one
        bool forced = false;
        uint32_t ar_addr = 0, ar_unit = 1;   // the burst in flight (one at a time)
        unsigned ar_beat = 0;
        for (uint64_t t = 0; got < beats; t++) {
            EXPECT(t < 2000000, "read %08x+%u: %u of %u beats", addr, len, got, beats);
            m.mem_r_ready = !stall();
            // the slave writes RRESP only when it changes (without delays):
            // give it back its own before it drives
            if (forced) m.m_axi_rresp = saved;
            slave.drive(&m);
            forced = inj && rbeats == inj_k && m.m_axi_rvalid;
            if (forced) {
                saved = m.m_axi_rresp;
                m.m_axi_rresp = inj_st;
            }
            m.clk = 0;
            m.eval();
            bool req = m.mem_req_valid && m.mem_req_ready;
            bool r = m.mem_r_valid && m.mem_r_ready;
            uint8_t d[kMB];
            axi_data_get(d, m.mem_r_data);
            unsigned keep = m.mem_r_keep, last = m.mem_r_last, rr = m.mem_r_resp;
            if (m.m_axi_rvalid && m.m_axi_rready) {
                // beat b of a burst starts at its address, the later ones
                // on their AxSIZE boundaries
                uint32_t a = ar_beat ? (ar_addr & ~(ar_unit - 1)) + ar_beat * ar_unit : ar_addr;
                if (forced) inj_at = a - addr;
                ar_beat++;
                rbeats++;
            }
            if (m.m_axi_arvalid && m.m_axi_arready) {
                ar_addr = m.m_axi_araddr;
                ar_unit = 1u << m.m_axi_arsize;
                ar_beat = 0;
            }
            observe();
            slave.tick(&m);
            m.clk = 1;
            m.eval();
            cycles++;
            if (req) m.mem_req_valid = 0;
            if (r) {
                got++;
                EXPECT(last == (got == beats), "read %08x+%u: last on beat %u of %u", addr, len,
                       got, beats);
                unsigned n = got == beats && len % kMB ? len % kMB : kMB;
                EXPECT(keep == (1ull << n) - 1, "keep %x on beat %u", keep, got);
                data.insert(data.end(), d, d + kMB);
                resp.push_back(rr);
            }
        }
        m.mem_r_ready = 0;
        if (forced) m.m_axi_rresp = saved;
        uint32_t done;
        OeMemStatus st;
        if (!calls_ok(false, addr, len, &done, &st, inj_at)) return false;
        // the first failed byte and its response: the failing host call's
        // burst, or the forced beat when it came first (or is that burst's
        // first beat)
        uint32_t fail = st != OE_MEM_OK ? done : UINT32_MAX;
        unsigned fst = st;
        if (inj_at != UINT32_MAX && inj_at <= fail) {
            fail = inj_at;
            fst = inj_st;
            beat_errors++;
        }
        for (uint32_t b = 0; b < beats; b++) {
            unsigned ok = 0, bad = 0;
            for (uint32_t w = 0; w < kMB / 4 && kMB * b + 4 * w < len; w++) {
                uint32_t j = kMB * b + 4 * w;   // the word's first byte
                bool good = fail == UINT32_MAX || j + 4 <= fail;
                unsigned rw = (resp[b] >> (2 * w)) & 3;
                EXPECT(rw == (good ? OE_MEM_OK : fst), "read %08x+%u beat %u word %u resp %u, "
                       "first failure at byte %d (status %u)", addr, len, b, w, rw, (int)fail, fst);
                if (good) {
                    uint32_t n = len - j < 4 ? len - j : 4;
                    EXPECT(!memcmp(data.data() + j, host.mem.data() + addr + j, n),
                           "read %08x+%u beat %u word %u data", addr, len, b, w);
                }
                (good ? ok : bad)++;
            }
            if (ok && bad) split++;
        }
        return true;
    }

    bool write(uint32_t addr, uint32_t len, uint32_t cap)
    {
        host.calls.clear();
        std::vector<uint8_t> src(len), before = host.mem;
        for (auto &b : src) b = (uint8_t)rng.next();
        m.mem_req_valid = 1;
        m.mem_req_write = 1;
        m.mem_req_addr = addr;
        m.mem_req_len = cap;
        uint32_t sent = 0;
        bool bdone = false, wv = false;
        unsigned bresp = 0, bbytes = 0;
        for (uint64_t t = 0; !bdone; t++) {
            EXPECT(t < 2000000, "write %08x+%u: %u bytes sent", addr, len, sent);
            if (!wv && sent < len && !m.mem_req_valid && !stall()) wv = true;
            m.mem_w_valid = wv;
            uint32_t n = len - sent < kMB ? len - sent : kMB;
            uint8_t d[kMB] = {};
            memcpy(d, src.data() + sent, n);
            axi_data_put(m.mem_w_data, d);
            m.mem_w_keep = (uint32_t)((1ull << n) - 1);   // n up to 32 at MEM_W = 256
            m.mem_w_last = sent + n == len;
            m.mem_b_ready = !stall();
            slave.drive(&m);
            m.clk = 0;
            m.eval();
            bool req = m.mem_req_valid && m.mem_req_ready;
            bool w = m.mem_w_valid && m.mem_w_ready;
            bool b = m.mem_b_valid && m.mem_b_ready;
            bresp = m.mem_b_resp;
            bbytes = m.mem_b_bytes;
            observe();
            slave.tick(&m);
            m.clk = 1;
            m.eval();
            cycles++;
            if (req) m.mem_req_valid = 0;
            if (w) {
                sent += n;
                wv = false;
            }
            if (b) bdone = true;
        }
        m.mem_w_valid = 0;
        m.mem_b_ready = 0;
        EXPECT(sent == len, "write %08x+%u: response after %u bytes", addr, len, sent);
        uint32_t done;
        OeMemStatus st;
        if (!calls_ok(true, addr, len, &done, &st)) return false;
        EXPECT(bresp == (unsigned)st && bbytes == done, "write %08x+%u: resp %u bytes %u, calls "
               "say %u and %u", addr, len, bresp, bbytes, st, done);
        std::vector<uint8_t> want = before;
        memcpy(want.data() + addr, src.data(), done);
        EXPECT(want == host.mem, "write %08x+%u: memory differs (done %u)", addr, len, done);
        return true;
    }
};

}  // namespace

int main(int argc, char **argv)
{
    unsigned n = 300, stall = 30;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            printf("usage: %s [--seed N] [--transfers N] [--stall PCT]\n"
                   "Random transfers through the AXI4 memory master of openenoc_endpoint_axi\n"
                   "(this build: AXI_DATA_W %u, BURST_MAX %u, memory port %u bits) against a\n"
                   "reference memory; exit 1 on a mismatch.\n",
                   argv[0], OE_COSIM_AXI_W, AXI_BURST_MAX, OE_TB_MEM_W);
            return 0;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = strtoull(argv[++i], nullptr, 0);
        } else if (!strcmp(argv[i], "--transfers") && i + 1 < argc) {
            n = (unsigned)strtoul(argv[++i], nullptr, 0);
        } else if (!strcmp(argv[i], "--stall") && i + 1 < argc) {
            stall = (unsigned)strtoul(argv[++i], nullptr, 0);
        } else {
            fprintf(stderr, "unknown argument %s (see --help)\n", argv[i]);
            return 2;
        }
    }
    Bench t(stall, seed);
    for (auto &b : t.host.mem) b = (uint8_t)t.rng.next();
    unsigned done = 0;
    for (unsigned i = 0; i < n && !g_fail; i++) {
        // addresses at and around 4 KiB boundaries, lengths short, around a
        // page, or long; a few past the backed memory (DECERR)
        uint32_t page = t.rng.below(kMemSize / 4096 + 1);
        uint32_t off = t.rng.pct(60) ? (t.rng.pct(50) ? t.rng.below(8) : 4088 + t.rng.below(8))
                                     : t.rng.below(4096);
        uint32_t addr = page * 4096 + off - (page && t.rng.pct(50) ? 4096 : 0);
        unsigned kind = t.rng.below(10);
        uint32_t len = kind < 4 ? 1 + t.rng.below(16) : kind < 7 ? 4090 + t.rng.below(12)
                     : kind < 9 ? 1 + t.rng.below(9000) : 1 + t.rng.below(65535);
        if (addr + len > kMemSize + 4096) addr = kMemSize + 4096 - len > kMemSize ? 0 : addr;
        if ((uint64_t)addr + len > kMemSize + 4096) len = kMemSize + 4096 - addr;
        if (t.rng.pct(5)) {   // an RMEM-style aligned word (the read bridge's one-word path)
            addr &= ~3u;
            len = 4;
        }
        bool wr = t.rng.pct(50);
        t.inject(wr, addr, len);
        bool ok = !wr ? t.read(addr, len)
                                : t.write(addr, len, t.rng.pct(50) ? len : len + t.rng.below(65536 - len));
        if (!ok) {
            printf("not ok: transfer %u (seed %llu)\n", i, (unsigned long long)seed);
            break;
        }
        done++;
        if (t.m.violations) break;
    }
    // the longest burst: BURST_MAX, or a 4 KiB page of bus words when that
    // is shorter (128 beats at 256 bits)
    unsigned longest = AXI_BURST_MAX < 4096 / kBusBytes ? AXI_BURST_MAX : 4096 / kBusBytes;
    bool covered = t.max_beats == longest && t.narrow > 0 && t.heads > 0 && t.errors[OE_MEM_SLVERR] > 0 &&
                   t.errors[OE_MEM_DECERR] > 0 && (kBusBytes == 4 || t.words > 0) && t.beat_errors > 0 &&
                   (kMB == 4 || t.split > 0) && (kBusBytes - 1 <= AXI_BURST_MAX || t.cut_tails > 0);
    printf("axi mem: %u transfers, %u AXI bursts (longest bus-wide %u beats, %u narrow tail reads, %u "
           "unaligned read heads), %u ok / %u slverr / %u decerr, %llu cycles, %u violations, "
           "%u bursts not of the bus width, %u one-word reads on a wider bus, %u reads failed "
           "by a forced R beat, %u port beats with OKAY and failed words, %u bursts longer than "
           "BURST_MAX, %u read tails cut at BURST_MAX\n",
           done, (unsigned)t.m.bursts, t.max_beats, t.narrow, t.heads, t.errors[0], t.errors[2],
           t.errors[3], (unsigned long long)t.cycles, (unsigned)t.m.violations, t.bad_size,
           t.words, t.beat_errors, t.split, t.too_long, t.cut_tails);
    if (!covered && !g_fail) {
        printf("not ok: coverage (bursts, narrow reads, heads, both errors, one-word reads, "
               "forced R beat errors, split beats, cut tails)\n");
    }
    t.m.final();
    if (t.too_long) {
        printf("not ok: %u bursts longer than BURST_MAX %u\n", t.too_long, (unsigned)AXI_BURST_MAX);
    }
    return g_fail || t.m.violations || t.bad_size || t.too_long || !covered || done != n ? 1 : 0;
}
