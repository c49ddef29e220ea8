/*
 * Bench of the Ethernet width converters (rtl/openenoc_axis_word_align.sv,
 * rtl/openenoc_axis_word_pack.sv) at one ETH_W (TB_ETH_W, 64, 128 or 256):
 * random frames of 1..300 bytes (so a random tkeep on each frame's last
 * beat), random VALID gaps and backpressure, each checked against a
 * reference model of the frame's words.
 *
 * Aligner: packed beats in; each cycle the consumer takes one word, all
 * presented words, both, or nothing, at random (and sometimes asserts a take
 * while its valid is low, which must be ignored), with a random bound
 * w_all_max on the words presented (N half of the cycles). Every cycle the
 * model checks what must be presented: w_one_valid exactly when a word
 * handed in at an earlier edge is not taken yet, word 0's bytes, keep and
 * last; w_all_valid exactly when w_all_max such words are there or a
 * frame's last word is among them, every presented lane's bytes and keep,
 * keep 0 past them, and w_all_last. s_tready must not change with the takes
 * (no path from them).
 * Packer: 1..N words a cycle in (unused lanes carry random bytes), beats out
 * under random TREADY; every beat must be the next ETH_W/8 bytes of the
 * frame (full keep unless it ends the frame), TLAST exactly at the frame's
 * end, and a beat waiting for TREADY must not change. Run on the packer
 * with PASS 0 and with PASS 1 (pack_pass); with PASS 1 a beat offered while
 * every word handed in before has left, carrying N words or a frame's end,
 * must be presented in the cycle it is offered.
 * A last run at full rate (no gaps, take_all / N words every cycle, TREADY
 * high) must never stall the input: N words a cycle through each.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "Vtb_axis_width.h"
#include "vl_data_bytes.h"
#include "verilated.h"

#ifndef TB_ETH_W
#error "TB_ETH_W (64, 128 or 256) must match the model's ETH_W"
#endif

namespace {

const unsigned kBytes = TB_ETH_W / 8;

/* byte k of a beat-wide data port */
template <class P> uint8_t beat_byte(const P &port, unsigned k)
{
    uint8_t b[kBytes];
    axi_data_get(b, port);
    return b[k];
}
const unsigned kN = TB_ETH_W / 32;

struct Word {
    uint8_t b[4];
    unsigned keep;
    bool last;
};

struct Opts {
    unsigned seed = 1;
    unsigned frames = 3000;
    unsigned gap = 30;       // percent of cycles a source idles
    unsigned stall = 30;     // percent of cycles a sink holds back
    unsigned max_len = 300;
};

unsigned fails = 0;

void fail(uint64_t cyc, const std::string &what)
{
    if (fails++ < 10) {
        fprintf(stderr, "FAIL cycle %llu: %s\n", (unsigned long long)cyc, what.c_str());
    }
}

std::vector<std::vector<uint8_t>> make_frames(std::mt19937 &rng, const Opts &o)
{
    std::vector<std::vector<uint8_t>> fs(o.frames);
    for (auto &f : fs) {
        f.resize(1 + rng() % o.max_len);
        for (auto &b : f) {
            b = (uint8_t)rng();
        }
    }
    return fs;
}

std::vector<Word> frame_words(const std::vector<std::vector<uint8_t>> &fs)
{
    std::vector<Word> w;
    for (const auto &f : fs) {
        for (size_t p = 0; p < f.size(); p += 4) {
            Word x{};
            unsigned n = f.size() - p < 4 ? (unsigned)(f.size() - p) : 4;
            memcpy(x.b, f.data() + p, n);
            x.keep = (1u << n) - 1;
            x.last = p + 4 >= f.size();
            w.push_back(x);
        }
    }
    return w;
}

void tick(Vtb_axis_width *m)
{
    m->clk = 1;
    m->eval();
    m->clk = 0;
    m->eval();
}

void reset(Vtb_axis_width *m)
{
    m->clk = 0;
    m->rst = 1;
    m->a_tvalid = 0;
    m->a_take_one = 0;
    m->a_take_all = 0;
    m->pi_tvalid = 0;
    m->po_tready = 0;
    m->eval();
    tick(m);
    tick(m);
    m->rst = 0;
    m->eval();
}

bool pct(std::mt19937 &rng, unsigned p)
{
    return rng() % 100 < p;
}

/* word i of the stream vs lane `lane` of the aligner's presentation */
void check_lane(uint64_t cyc, Vtb_axis_width *m, unsigned lane, const Word &w, size_t i)
{
    unsigned keep = ((unsigned)m->a_keep >> (4 * lane)) & 0xF;
    if (keep != w.keep) {
        fail(cyc, "aligner lane " + std::to_string(lane) + " (word " + std::to_string(i) +
                  ") keep " + std::to_string(keep) + " expected " + std::to_string(w.keep));
    }
    for (unsigned k = 0; k < 4; k++) {
        if ((w.keep >> k & 1) && beat_byte(m->a_data, 4 * lane + k) != w.b[k]) {
            fail(cyc, "aligner lane " + std::to_string(lane) + " (word " + std::to_string(i) +
                      ") byte " + std::to_string(k) + " differs");
        }
    }
}

/* Returns the input stalls (VALID high, READY low) seen. */
uint64_t run_align(Vtb_axis_width *m, const Opts &o, std::mt19937 &rng, bool full_rate,
                   uint64_t *cycles_out, uint64_t *words_out)
{
    auto fs = make_frames(rng, o);
    auto words = frame_words(fs);
    reset(m);
    size_t fi = 0, pos = 0;         // source: frame, byte
    bool src_valid = false;
    size_t arrived = 0, taken = 0;  // words handed in at earlier edges, taken
    uint64_t cyc = 0, stalls = 0, limit = 40ull * words.size() + 1000;
    uint8_t beat[kBytes];
    while (taken < words.size() && cyc < limit && fails == 0) {
        // source: a beat held until its handshake
        if (!src_valid && fi < fs.size() && (full_rate || !pct(rng, o.gap))) {
            const auto &f = fs[fi];
            unsigned n = f.size() - pos < kBytes ? (unsigned)(f.size() - pos) : kBytes;
            memset(beat, 0, sizeof beat);
            memcpy(beat, f.data() + pos, n);
            axi_data_put(m->a_tdata, beat);   // zeros past the frame
            m->a_tkeep = (uint32_t)((1ull << n) - 1);
            m->a_tlast = pos + n >= f.size();
            src_valid = true;
        }
        m->a_tvalid = src_valid;
        m->a_take_one = 0;
        m->a_take_all = 0;
        // the bound on a take_all: mostly N, else 0..N+1 (0 counts as 1,
        // above N as N)
        unsigned max = full_rate || pct(rng, 50) ? kN : rng() % (kN + 2);
        unsigned lim = max == 0 ? 1 : max > kN ? kN : max;
        m->a_all_max = max;
        m->eval();
        bool ready = m->a_tready;

        // what must be presented
        size_t avail = arrived - taken;
        unsigned pres = 0;
        while (pres < lim && pres < avail) {
            pres++;
            if (words[taken + pres - 1].last) {
                break;
            }
        }
        bool exp_all = pres == lim || (pres > 0 && words[taken + pres - 1].last);
        if ((bool)m->a_one_valid != (avail > 0)) {
            fail(cyc, "w_one_valid " + std::to_string(m->a_one_valid) + " with " +
                      std::to_string(avail) + " words stored");
        }
        if ((bool)m->a_all_valid != exp_all) {
            fail(cyc, "w_all_valid " + std::to_string(m->a_all_valid) + " with " +
                      std::to_string(pres) + " words presentable");
        }
        for (unsigned l = 0; l < pres; l++) {
            check_lane(cyc, m, l, words[taken + l], taken + l);
        }
        if (pres < kN && ((unsigned)m->a_keep >> (4 * pres)) != 0) {
            fail(cyc, "w_keep set past the " + std::to_string(pres) + " presented words");
        }
        if (avail > 0 && (bool)m->a_one_last != words[taken].last) {
            fail(cyc, "w_one_last wrong for word " + std::to_string(taken));
        }
        if (exp_all && (bool)m->a_all_last != words[taken + pres - 1].last) {
            fail(cyc, "w_all_last wrong");
        }

        // consumer
        bool t1 = false, ta = false;
        if (full_rate) {
            ta = true;
        } else if (!pct(rng, o.stall)) {
            unsigned r = rng() % 8;
            t1 = r < 3 || r == 7;
            ta = r >= 3;
        }
        if (!full_rate && pct(rng, 5)) {   // a take while its valid is low
            t1 = t1 || !m->a_one_valid;
            ta = ta || !m->a_all_valid;
        }
        m->a_take_one = t1;
        m->a_take_all = ta;
        m->eval();
        if ((bool)m->a_tready != ready) {
            fail(cyc, "s_tready changed with w_take_one/w_take_all");
        }
        size_t n_take = ta && exp_all ? pres : (t1 && avail > 0 ? 1 : 0);
        bool fire = src_valid && ready;
        stalls += src_valid && !ready;
        tick(m);
        cyc++;
        taken += n_take;
        if (fire) {
            const auto &f = fs[fi];
            unsigned n = f.size() - pos < kBytes ? (unsigned)(f.size() - pos) : kBytes;
            arrived += (n + 3) / 4;
            pos += n;
            if (pos >= f.size()) {
                fi++;
                pos = 0;
            }
            src_valid = false;
        }
    }
    if (taken < words.size() && fails == 0) {
        fail(cyc, "aligner stuck: " + std::to_string(taken) + " of " +
                  std::to_string(words.size()) + " words taken");
    }
    *cycles_out = cyc;
    *words_out = taken;
    return stalls;
}

uint64_t run_pack(Vtb_axis_width *m, const Opts &o, std::mt19937 &rng, bool full_rate,
                  bool pass, uint64_t *cycles_out, uint64_t *beats_out)
{
    auto fs = make_frames(rng, o);
    auto words = frame_words(fs);
    m->pack_pass = pass;
    reset(m);
    size_t words_out = 0;           // words of the beats taken so far
    size_t wi = 0;                  // source: next word
    bool src_valid = false;
    unsigned src_n = 0;
    size_t fo = 0, opos = 0;        // sink: frame, byte
    bool held = false;              // last cycle's beat waited for TREADY
    uint8_t held_b[kBytes];
    unsigned held_keep = 0;
    bool held_last = false;
    uint64_t cyc = 0, stalls = 0, beats = 0, limit = 40ull * words.size() + 1000;
    uint8_t in[kBytes];
    while (fo < fs.size() && cyc < limit && fails == 0) {
        if (!src_valid && wi < words.size() && (full_rate || !pct(rng, o.gap))) {
            unsigned n = full_rate ? kN : 1 + rng() % kN;
            unsigned keep = 0;
            src_n = 0;
            for (unsigned k = 0; k < kBytes; k++) {
                in[k] = (uint8_t)rng();   // lanes past the words: noise
            }
            while (src_n < n && wi + src_n < words.size()) {
                const Word &w = words[wi + src_n];
                memcpy(in + 4 * src_n, w.b, 4);
                keep |= w.keep << (4 * src_n);
                src_n++;
                if (w.last) {
                    break;
                }
            }
            axi_data_put(m->pi_tdata, in);
            m->pi_tkeep = keep;
            m->pi_tlast = words[wi + src_n - 1].last;
            src_valid = true;
        }
        m->pi_tvalid = src_valid;
        bool tready = full_rate || !pct(rng, o.stall);
        m->po_tready = tready;
        m->eval();
        bool ready = m->pi_tready;

        bool tvalid = m->po_tvalid;
        unsigned tkeep = m->po_tkeep;
        bool tlast = m->po_tlast;
        if (pass && words_out == wi && src_valid &&
            (src_n == kN || words[wi + src_n - 1].last) && !tvalid) {
            fail(cyc, "PASS packer: a whole beat offered to the empty packer is not presented");
        }
        if (held) {
            bool same = tvalid && tkeep == held_keep && tlast == held_last;
            for (unsigned k = 0; same && k < kBytes; k++) {
                same = !(tkeep >> k & 1) || beat_byte(m->po_tdata, k) == held_b[k];
            }
            if (!same) {
                fail(cyc, "packer beat changed or dropped while TREADY was low");
            }
        }
        if (tvalid && tready) {
            const auto &f = fs[fo];
            unsigned n = f.size() - opos < kBytes ? (unsigned)(f.size() - opos) : kBytes;
            if (tkeep != (unsigned)((1ull << n) - 1)) {
                fail(cyc, "packer frame " + std::to_string(fo) + " byte " + std::to_string(opos) +
                          ": tkeep " + std::to_string(tkeep) + " expected " +
                          std::to_string((1ull << n) - 1));
            }
            for (unsigned k = 0; k < n; k++) {
                if (beat_byte(m->po_tdata, k) != f[opos + k]) {
                    fail(cyc, "packer frame " + std::to_string(fo) + " byte " +
                              std::to_string(opos + k) + " differs");
                    break;
                }
            }
            if (tlast != (opos + n >= f.size())) {
                fail(cyc, "packer frame " + std::to_string(fo) + ": tlast " +
                          std::to_string(tlast) + " at byte " + std::to_string(opos + n));
            }
            opos += n;
            words_out += (n + 3) / 4;
            if (opos >= f.size()) {
                fo++;
                opos = 0;
            }
            beats++;
        }
        held = tvalid && !tready;
        if (held) {
            held_keep = tkeep;
            held_last = tlast;
            for (unsigned k = 0; k < kBytes; k++) {
                held_b[k] = beat_byte(m->po_tdata, k);
            }
        }
        bool fire = src_valid && ready;
        stalls += src_valid && !ready;
        tick(m);
        cyc++;
        if (fire) {
            wi += src_n;
            src_valid = false;
        }
    }
    if (fo < fs.size() && fails == 0) {
        fail(cyc, "packer stuck: " + std::to_string(fo) + " of " + std::to_string(fs.size()) +
                  " frames out");
    }
    *cycles_out = cyc;
    *beats_out = beats;
    return stalls;
}

void usage(FILE *f)
{
    fprintf(f,
            "usage: tb_axis_width [--seed S] [--frames F] [--gap PCT] [--stall PCT] [--help]\n"
            "Checks openenoc_axis_word_align and openenoc_axis_word_pack at ETH_W=%d against\n"
            "a reference model: F random frames of 1..300 bytes (default 3000) with PCT %% of\n"
            "VALID gaps (default 30) and backpressure (default 30), random w_take_one/w_take_all\n"
            "and 1..N words a cycle; then a full-rate run that must never stall the input.\n"
            "Exit status 0 when every byte, keep and last matched.\n",
            TB_ETH_W);
}

}  // namespace

int main(int argc, char **argv)
{
    Opts o;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        bool has = i + 1 < argc;
        if (a == "--help" || a == "-h") {
            usage(stdout);
            return 0;
        } else if (a == "--seed" && has) {
            o.seed = (unsigned)strtoul(argv[++i], nullptr, 0);
        } else if (a == "--frames" && has) {
            o.frames = (unsigned)strtoul(argv[++i], nullptr, 0);
        } else if (a == "--gap" && has) {
            o.gap = (unsigned)strtoul(argv[++i], nullptr, 0);
        } else if (a == "--stall" && has) {
            o.stall = (unsigned)strtoul(argv[++i], nullptr, 0);
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (o.frames == 0 || o.gap > 95 || o.stall > 95) {
        fprintf(stderr, "tb_axis_width: --frames must be > 0, --gap and --stall at most 95\n");
        return 2;
    }
    auto ctx = std::make_unique<VerilatedContext>();
    auto m = std::make_unique<Vtb_axis_width>(ctx.get());
    std::mt19937 rng(o.seed);
    uint64_t cyc, words, beats;

    uint64_t st = run_align(m.get(), o, rng, false, &cyc, &words);
    printf("ETH_W=%d aligner: %u frames, %llu words in %llu cycles, %llu input stalls\n", TB_ETH_W,
           o.frames, (unsigned long long)words, (unsigned long long)cyc, (unsigned long long)st);
    for (int pass = 0; pass < 2; pass++) {
        st = run_pack(m.get(), o, rng, false, pass, &cyc, &beats);
        printf("ETH_W=%d packer PASS %d: %u frames, %llu beats in %llu cycles, %llu input stalls\n",
               TB_ETH_W, pass, o.frames, (unsigned long long)beats, (unsigned long long)cyc,
               (unsigned long long)st);
    }

    Opts fr = o;
    fr.frames = o.frames / 4 + 1;
    st = run_align(m.get(), fr, rng, true, &cyc, &words);
    printf("ETH_W=%d aligner full rate: %.2f words/cycle, %llu input stalls\n", TB_ETH_W,
           cyc ? (double)words / (double)cyc : 0.0, (unsigned long long)st);
    if (st != 0) {
        fail(cyc, "aligner stalled its input at full rate");
    }
    for (int pass = 0; pass < 2; pass++) {
        st = run_pack(m.get(), fr, rng, true, pass, &cyc, &beats);
        printf("ETH_W=%d packer PASS %d full rate: %.2f beats/cycle, %llu input stalls\n", TB_ETH_W,
               pass, cyc ? (double)beats / (double)cyc : 0.0, (unsigned long long)st);
        if (st != 0) {
            fail(cyc, "packer stalled its input at full rate");
        }
    }
    m->final();
    if (fails) {
        printf("tb_axis_width ETH_W=%d seed %u: FAILED (%u mismatches)\n", TB_ETH_W, o.seed, fails);
        return 1;
    }
    printf("tb_axis_width ETH_W=%d seed %u: passed\n", TB_ETH_W, o.seed);
    return 0;
}
