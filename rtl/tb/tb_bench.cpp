// BENCH figures of the oETP engine RTL (no backpressure, 8160-byte
// fragments): Ethernet words per cycle of back-to-back DMA_WRITE_REQ
// transmit and receive and of a DMA_READ_RSP receive, and the Verilator
// model's speed on this machine. The reference RTL moves one word every two
// cycles (0.5); the target here is >= 0.95.
#include <chrono>

#include "tb_check.h"

static const unsigned kFrags = 16;
static const uint32_t kLen = 8160;

// Cycles from the first to the last beat a counter saw move, and the beats.
struct Span {
    uint64_t first = 0, last = 0, beats = 0;
    void see(uint64_t before, uint64_t after, uint64_t cycle) {
        if (after == before) return;
        if (!beats) first = cycle;
        last = cycle;
        beats += after - before;
    }
    double rate() const { return beats ? double(beats) / double(last - first + 1) : 0; }
};

// Group writes complete locally, so fragments follow one another at the
// engine's own pace, with no reply round trip in the figure.
static double tx_rate(Sim &s, bool &ok)
{
    for (unsigned i = 0; i < kFrags; i++) {
        source_write(s, c_dma_write(3, i * kLen, kLen, i, i + 1 == kFrags), pattern(kLen, uint8_t(i)));
    }
    Span sp;
    while (s.ini.cpls.size() < kFrags && s.cycle < 2000000) {
        uint64_t b = s.eth_sink.beats;
        s.tick();
        sp.see(b, s.eth_sink.beats, s.cycle);
    }
    ok = s.ini.cpls.size() == kFrags && s.eth_sink.done.size() == kFrags;
    for (const Cpl &c : s.ini.cpls) ok = ok && !c.error;
    for (unsigned i = 0; i < kFrags && ok; i++) {
        ok = s.eth_sink.done[i].bytes ==
             f_dma_write_req(MAC_GROUP, MAC_LOCAL, i, i * kLen, pattern(kLen, uint8_t(i)));
    }
    return sp.rate();
}

// Group writes again (no reply frames), back to back on s_axis_eth.
static double rx_write_rate(Sim &s, bool &ok)
{
    for (unsigned i = 0; i < kFrags; i++) {
        s.send_eth(f_dma_write_req(MAC_GROUP, MAC_PEER1, i, 0, pattern(kLen, uint8_t(i))));
    }
    Span sp;
    while (!s.eth_src.q.empty() && s.cycle < 2000000) {
        uint64_t b = s.eth_src.beats_sent;
        s.tick();
        sp.see(b, s.eth_src.beats_sent, s.cycle);
    }
    ok = s.settle() && s.rsp.reqs.size() == kFrags && s.local_sink.done.size() == kFrags;
    for (const RxStatusRec &r : s.rsp.rx_status) ok = ok && r.code == 0 && r.len == kLen;
    return sp.rate();
}

static double rx_read_rsp_rate(Sim &s, bool &ok)
{
    s.ini.cmds.push_back(c_dma_read(1, 0, kLen, 1));
    ok = wait_frames(s, 1);
    s.send_eth(f_dma_read_rsp(MAC_LOCAL, MAC_PEER1, 0, pattern(kLen, 5)));
    Span sp;
    while (!s.eth_src.q.empty() && s.cycle < 2000000) {
        uint64_t b = s.eth_src.beats_sent;
        s.tick();
        sp.see(b, s.eth_src.beats_sent, s.cycle);
    }
    ok = ok && wait_cpls(s, 1) && !s.ini.cpls[0].error;
    return sp.rate();
}

int run_bench(int, char **)
{
    bool ok_tx = false, ok_rx = false, ok_rd = false;
    auto t0 = std::chrono::steady_clock::now();
    uint64_t cycles = 0;
    double tx, rx, rd;
    {
        Sim s(1);
        tx = tx_rate(s, ok_tx);
        cycles += s.cycle;
    }
    {
        Sim s(2);
        rx = rx_write_rate(s, ok_rx);
        cycles += s.cycle;
    }
    {
        Sim s(3);
        rd = rx_read_rsp_rate(s, ok_rd);
        cycles += s.cycle;
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("BENCH rtl.oetp.tx_words_per_cycle %.4f words/cycle\n", tx);
    printf("BENCH rtl.oetp.rx_words_per_cycle %.4f words/cycle\n", rx);
    printf("BENCH rtl.oetp.rx_read_rsp_words_per_cycle %.4f words/cycle\n", rd);
    printf("BENCH rtl.oetp.sim_cycles_per_s %.0f cycles/s\n", double(cycles) / secs);
    if (!ok_tx || !ok_rx || !ok_rd) {
        fprintf(stderr, "bench: a transfer did not complete correctly (tx %d rx %d read %d)\n",
                ok_tx, ok_rx, ok_rd);
        return 1;
    }
    if (tx < 0.95 || rx < 0.95 || rd < 0.95) {
        fprintf(stderr, "bench: below the 0.95 words/cycle target\n");
        return 1;
    }
    return 0;
}
