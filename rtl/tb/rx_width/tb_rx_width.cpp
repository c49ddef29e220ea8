/*
 * Receive rate of the oETP engine at one ETH_W (tb_oetp_engine built with
 * -GETH_W=TB_ETH_W): back-to-back DMA_WRITE_REQ fragments of 8160 bytes
 * (group destination: no reply frames) on s_axis_eth, every beat full but a
 * frame's last, no gap; m_axis_local, the peer lookup and the responder side
 * always ready. Checks every fragment's payload, TLAST, sideband and
 * rx_status (length, no error), then prints the rates as BENCH lines:
 *   rx.wN.eth_words_per_cycle   frame words (header to EndOfData) taken
 *                               from s_axis_eth per cycle, first to last beat
 *   rx.wN.data_words_per_cycle  Data words out of m_axis_local per cycle,
 *                               first to last beat
 * At 32 both are at most 1; above, RX's Data phase takes up to N = ETH_W/32
 * words a cycle. --drop puts a fragment for another unicast MAC (malformed
 * for this endpoint: RX drains it, nothing comes out) before every one;
 * above 32 RX drains it N words a cycle too, so eth_words_per_cycle (which
 * counts the dropped frames' words) stays near N. Exit status 1 on any
 * mismatch. --help for options.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "Vtb_oetp_engine.h"
#include "verilated.h"

extern "C" {
#include "openenoc/oetp.h"
}

#ifndef TB_ETH_W
#error "build with -DTB_ETH_W=32, 64, 128 or 256"
#endif
static const unsigned kN = TB_ETH_W / 32;

static const uint64_t kMacLocal = 0x020E0C000001ull;
static const uint64_t kMacPeer = 0x020E0C000011ull;
static const uint64_t kMacGroup = 0x030E0C0000AAull;
static const uint64_t kMacOther = 0x020E0C000022ull;

// word i of a port of TB_ETH_W bits (uint32_t, uint64_t or VlWide)
template <class T> static void put_word(T &port, unsigned i, uint32_t w)
{
    if constexpr (sizeof(T) <= 8) {
        port = T(port | (T(w) << (32 * i)));
    } else {
        port[i] = w;
    }
}
template <class T> static void clear(T &port)
{
    if constexpr (sizeof(T) <= 8) {
        port = 0;
    } else {
        for (unsigned i = 0; i < kN; i++) port[i] = 0;
    }
}
template <class T> static uint32_t get_word(const T &port, unsigned i)
{
    if constexpr (sizeof(T) <= 8) {
        return uint32_t(uint64_t(port) >> (32 * i));
    } else {
        return port[i];
    }
}

struct Beat {
    uint32_t w[8] = {};     // up to 256 bits
    uint32_t keep = 0;      // up to 32 lanes
    bool last = false;
};

// a frame as packed ETH_W beats, bytes little-endian within a word
static void to_beats(const std::vector<uint8_t> &f, std::deque<Beat> &q)
{
    const size_t bb = TB_ETH_W / 8;
    for (size_t off = 0; off < f.size(); off += bb) {
        Beat b;
        for (size_t k = 0; k < bb && off + k < f.size(); k++) {
            b.w[k / 4] |= uint32_t(f[off + k]) << (8 * (k % 4));
            b.keep |= 1u << k;
        }
        b.last = off + bb >= f.size();
        q.push_back(b);
    }
}

static int fail(const char *what, unsigned frag)
{
    fprintf(stderr, "tb_rx_width ETH_W=%d: fragment %u: %s\n", TB_ETH_W, frag, what);
    return 1;
}

int main(int argc, char **argv)
{
    unsigned frags = 16;
    uint32_t len = 8160;
    bool drop = false;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            printf("usage: %s [--frags N] [--len BYTES] [--drop]\n"
                   "Sends N (default 16) back-to-back DMA_WRITE_REQ fragments of BYTES (default\n"
                   "8160, 1..8160) to the oETP engine at ETH_W=%d, checks the\n"
                   "payloads and rx_status, prints BENCH rx.w%d.eth_words_per_cycle and\n"
                   "rx.w%d.data_words_per_cycle. --drop: a fragment for another MAC, which\n"
                   "RX drops, before each one.\n",
                   argv[0], TB_ETH_W, TB_ETH_W, TB_ETH_W);
            return 0;
        } else if (a == "--frags" && i + 1 < argc) {
            frags = unsigned(strtoul(argv[++i], nullptr, 0));
        } else if (a == "--drop") {
            drop = true;
        } else if (a == "--len" && i + 1 < argc) {
            len = uint32_t(strtoul(argv[++i], nullptr, 0));
        } else {
            fprintf(stderr, "unknown argument %s (see --help)\n", a.c_str());
            return 2;
        }
    }
    if (!frags || !len || len > 8160) {
        fprintf(stderr, "--frags must be > 0, --len in 1..8160\n");
        return 2;
    }

    Verilated::commandArgs(argc, argv);
    Vtb_oetp_engine t;
    std::vector<std::vector<uint8_t>> data(frags);
    std::deque<Beat> src;
    uint64_t frame_words = 0;
    for (unsigned i = 0; i < frags; i++) {
        data[i].resize(len);
        for (uint32_t k = 0; k < len; k++) data[i][k] = uint8_t(k * 7 + i * 13 + (k >> 8));
        std::vector<uint8_t> f(OETP_FRAME_MAX);
        if (drop) {
            size_t m = oetp_build_dma_write_req(f.data(), kMacOther, kMacPeer, i, 0x1000 * i,
                                                data[i].data(), len, true);
            f.resize(m);
            frame_words += (m + 3) / 4;
            to_beats(f, src);
            f.resize(OETP_FRAME_MAX);
        }
        size_t n = oetp_build_dma_write_req(f.data(), kMacGroup, kMacPeer, i, 0x1000 * i,
                                            data[i].data(), len, true);
        f.resize(n);
        frame_words += (n + 3) / 4;
        to_beats(f, src);
    }

    t.conf_mac_address = kMacLocal;
    t.conf_multicast_address = kMacGroup;
    t.conf_receive_mode = 1;
    t.conf_rmem_timeout = 0;
    t.conf_dma_timeout = 0;
    t.rst = 1;
    for (int i = 0; i < 4; i++) {
        t.clk = 0;
        t.eval();
        t.clk = 1;
        t.eval();
    }
    t.rst = 0;

    // the bench's side, registered at the clock edge
    bool lk_rsp = false, cpl = false;
    uint64_t lk_mac = 0;
    std::deque<unsigned> seqs;      // admitted requests without completion, in order
    std::vector<unsigned> adm;      // every admitted request's sequence (the payload's TID)
    struct Rxs { unsigned seq, len, code; };
    std::deque<Rxs> done;
    std::vector<uint8_t> got;       // the fragment on m_axis_local so far
    unsigned frag_out = 0, got_status = 0, cpl_seq = 0;
    uint64_t cyc = 0, e_first = 0, e_last = 0, l_first = 0, l_last = 0, l_words = 0;
    bool e_seen = false, l_seen = false;
    int rc = 0;
    while ((got_status < frags || cpl) && cyc < 50ull * frags * len && !rc) {
        // drive the inputs for this cycle
        if (!src.empty()) {
            const Beat &b = src.front();
            clear(t.se_tdata);
            for (unsigned i = 0; i < kN; i++) put_word(t.se_tdata, i, b.w[i]);
            t.se_tkeep = b.keep;
            t.se_tlast = b.last;
        }
        t.se_tvalid = !src.empty();
        t.ml_tready = 1;
        t.me_tready = 1;
        t.sl_tvalid = 0;
        t.lk_req_ready = !lk_rsp;
        t.lk_rsp_valid = lk_rsp;
        t.lk_rsp_hit = 1;
        t.lk_rsp_peer_idx = 1;
        t.lk_rsp_mac_addr = lk_mac;
        t.lk_rsp_dma_mode = 1;
        t.ini_req_valid = 0;
        t.ini_ts_valid = 0;
        t.ini_cpl_ready = 1;
        t.rsp_rx_available = 0;
        t.rsp_claim_ready = 0;
        t.rsp_req_ready = 1;
        t.rsp_rxs_ready = 1;
        t.rsp_cpl_valid = cpl;
        t.rsp_cpl_kind = 0;     // DMA
        t.rsp_cpl_op = 1;       // write
        t.rsp_cpl_len = len;
        t.rsp_cpl_peer_idx = 1;
        t.rsp_cpl_sequence = cpl_seq;
        t.rsp_cpl_last = 1;
        t.rsp_cpl_error = 0;
        t.rsp_cpl_error_code = 0;
        t.rsp_cpl_rdata = 0;
        t.clk = 0;
        t.eval();

        // the handshakes as they stand before the edge
        bool se_fire = t.se_tvalid && t.se_tready;
        if (se_fire) {
            if (!e_seen) e_first = cyc;
            e_seen = true;
            e_last = cyc;
            src.pop_front();
        }
        if (t.ml_tvalid) {
            if (!l_seen) l_first = cyc;
            l_seen = true;
            l_last = cyc;
            for (unsigned k = 0; k < TB_ETH_W / 8; k++) {
                if (t.ml_tkeep >> k & 1) got.push_back(uint8_t(get_word(t.ml_tdata, k / 4) >> (8 * (k % 4))));
            }
            for (unsigned i = 0; i < kN; i++) l_words += (i == 0 || (t.ml_tkeep >> (4 * i) & 1));
            if (frag_out >= frags) {
                rc = fail("a payload beat past the last fragment", frag_out);
            } else if (frag_out >= adm.size() || t.ml_tid != adm[frag_out]) {
                rc = fail("TID is not the responder's sequence", frag_out);
            } else if (t.ml_tlast) {
                if (got != data[frag_out]) rc = fail("payload differs", frag_out);
                got.clear();
                frag_out++;
            }
        }
        bool lk_req_fire = t.lk_req_valid && t.lk_req_ready;
        if (lk_req_fire) lk_mac = t.lk_req_mac_addr;
        bool lk_fire = lk_rsp && t.lk_rsp_ready;
        if (t.rsp_req_valid && t.rsp_req_ready) {
            seqs.push_back(t.rsp_req_sequence);
            adm.push_back(t.rsp_req_sequence);
        }
        if (t.rsp_rxs_valid && t.rsp_rxs_ready) {
            done.push_back({t.rsp_rxs_sequence, t.rsp_rxs_len, t.rsp_rxs_error_code});
            if (t.rsp_rxs_len != len || t.rsp_rxs_error_code) rc = fail("rx_status not a whole, good write", got_status);
            got_status++;
        }
        bool cpl_fire = cpl && t.rsp_cpl_ready;

        t.clk = 1;
        t.eval();
        cyc++;

        if (lk_req_fire) lk_rsp = true;
        else if (lk_fire) lk_rsp = false;
        if (cpl_fire) {
            cpl = false;
            seqs.pop_front();
        }
        if (!cpl && !done.empty()) {
            if (seqs.empty() || seqs.front() != done.front().seq) {
                rc = fail("rx_status for no admitted request", got_status);
            }
            cpl_seq = done.front().seq;
            done.pop_front();
            cpl = true;
        }
    }
    if (!rc && (got_status != frags || frag_out != frags)) {
        fprintf(stderr, "after %llu cycles: %u payloads, %u rx_status, %zu admitted, %zu beats left\n",
                (unsigned long long)cyc, frag_out, got_status, adm.size(), src.size());
        rc = fail("not all fragments arrived", frag_out);
    }
    if (!rc && !src.empty()) rc = fail("s_axis_eth did not take every beat", 0);
    if (rc) return rc;
    double eth = double(frame_words) / double(e_last - e_first + 1);
    double loc = double((len + 3) / 4) * frags / double(l_last - l_first + 1);
    const char *tag = drop ? ".drop" : "";   // rx.wN.drop.*: the --drop run's rates
    printf("BENCH rx.w%d%s.eth_words_per_cycle %.3f words/cycle\n", TB_ETH_W, tag, eth);
    printf("BENCH rx.w%d%s.data_words_per_cycle %.3f words/cycle\n", TB_ETH_W, tag, loc);
    printf("tb_rx_width ETH_W=%d: %u fragments of %u bytes%s, %llu cycles, %llu m_axis_local words: ok\n",
           TB_ETH_W, frags, len, drop ? " (each after a dropped one)" : "", (unsigned long long)cyc,
           (unsigned long long)l_words);
    return 0;
}
