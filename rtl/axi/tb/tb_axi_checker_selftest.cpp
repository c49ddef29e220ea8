// Seeded violations for openenoc_axi_checker: a legal exchange must pass
// clean, and each injected violation must be flagged with its kind. Built
// with the checker as the Verilator top (FATAL = 0, so it counts instead of
// stopping). Exit status 0 only if every case behaves.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "Vopenenoc_axi_checker.h"
#include "verilated.h"

namespace {

enum Kind { VALID_DROP, UNSTABLE, LAST, CROSS_4K, BURST, RESPONSE, WSTRB, NONE };
const char *kKindName[] = { "VALID_DROP", "UNSTABLE", "LAST", "CROSS_4K", "BURST",
                            "RESPONSE", "WSTRB", "none" };

struct Bench {
    VerilatedContext ctx;
    Vopenenoc_axi_checker m{&ctx};

    void idle()
    {
        m.awvalid = m.awready = m.wvalid = m.wready = m.bvalid = m.bready = 0;
        m.arvalid = m.arready = m.rvalid = m.rready = 0;
        m.awburst = m.arburst = 1;
        m.awsize = m.arsize = 2;
        m.awlen = m.arlen = 0;
        m.wlast = m.rlast = 0;
        m.wstrb = 0xF;
    }
    void edge()
    {
        m.clk = 0;
        m.eval();
        m.clk = 1;
        m.eval();
    }
    void reset()
    {
        idle();
        m.rst = 1;
        edge();
        edge();
        m.rst = 0;
    }
    // handshakes, each after `stall` cycles with VALID high and READY low
    void aw(uint32_t a, unsigned len, int stall = 0, unsigned size = 2, unsigned burst = 1)
    {
        m.awaddr = a; m.awlen = len; m.awsize = size; m.awburst = burst; m.awvalid = 1;
        for (int i = 0; i < stall; i++) edge();
        m.awready = 1; edge(); m.awvalid = 0; m.awready = 0;
    }
    void w(uint32_t d, unsigned strb, bool last, int stall = 0)
    {
        m.wdata = d; m.wstrb = strb; m.wlast = last; m.wvalid = 1;
        for (int i = 0; i < stall; i++) edge();
        m.wready = 1; edge(); m.wvalid = 0; m.wready = 0; m.wlast = 0;
    }
    void b(int stall = 0)
    {
        m.bresp = 0; m.bvalid = 1;
        for (int i = 0; i < stall; i++) edge();
        m.bready = 1; edge(); m.bvalid = 0; m.bready = 0;
    }
    void ar(uint32_t a, unsigned len, int stall = 0, unsigned size = 2, unsigned burst = 1)
    {
        m.araddr = a; m.arlen = len; m.arsize = size; m.arburst = burst; m.arvalid = 1;
        for (int i = 0; i < stall; i++) edge();
        m.arready = 1; edge(); m.arvalid = 0; m.arready = 0;
    }
    void r(uint32_t d, bool last, int stall = 0)
    {
        m.rdata = d; m.rresp = 0; m.rlast = last; m.rvalid = 1;
        for (int i = 0; i < stall; i++) edge();
        m.rready = 1; edge(); m.rvalid = 0; m.rready = 0; m.rlast = 0;
    }
    // a legal write of n beats at a (first strobe from the address) and its B
    void write(uint32_t a, unsigned n, int stall)
    {
        aw(a, n - 1, stall);
        for (unsigned i = 0; i < n; i++) {
            w(i, i == 0 ? (0xFu << (a & 3)) & 0xF : 0xF, i + 1 == n, stall);
        }
        b(stall);
    }
    void read(uint32_t a, unsigned n, int stall)
    {
        ar(a, n - 1, stall);
        for (unsigned i = 0; i < n; i++) r(i, i + 1 == n, stall);
    }
};

struct Case {
    const char *name;
    Kind expect;
    std::function<void(Bench &)> run;
};

const std::vector<Case> kCases = {
    { "legal_traffic_passes", NONE, [](Bench &t) {
        t.write(0x1002, 4, 0);
        t.write(0x1FFC, 1, 2);
        t.read(0x2000, 256, 1);
        t.read(0x3FF0, 4, 0);
        t.aw(0x4000, 1);                   // W after AW, and W before AW
        t.w(1, 0xF, false); t.w(2, 0x3, true); t.b();
        t.w(3, 0xF, true); t.aw(0x5000, 0); t.b();
        t.ar(0x7001, 2, 0, 0); t.r(0, false); t.r(0, false); t.r(0, true);
    } },
    { "awvalid_dropped", VALID_DROP, [](Bench &t) {
        t.m.awvalid = 1; t.m.awaddr = 0x100; t.edge(); t.m.awvalid = 0; t.edge();
    } },
    { "rvalid_dropped", VALID_DROP, [](Bench &t) {
        t.ar(0x100, 0); t.m.rvalid = 1; t.m.rlast = 1; t.edge(); t.m.rvalid = 0; t.edge();
    } },
    { "araddr_changed_while_stalled", UNSTABLE, [](Bench &t) {
        t.m.arvalid = 1; t.m.araddr = 0x100; t.edge(); t.m.araddr = 0x104; t.edge();
    } },
    { "awprot_changed_while_stalled", UNSTABLE, [](Bench &t) {
        t.m.awvalid = 1; t.m.awaddr = 0x100; t.edge(); t.m.awprot = 2; t.edge();
    } },
    { "arcache_changed_while_stalled", UNSTABLE, [](Bench &t) {
        t.m.arvalid = 1; t.m.araddr = 0x100; t.m.arcache = 3; t.edge(); t.m.arcache = 0; t.edge();
    } },
    { "wdata_changed_while_stalled", UNSTABLE, [](Bench &t) {
        t.aw(0x100, 0); t.m.wvalid = 1; t.m.wlast = 1; t.m.wdata = 1; t.edge();
        t.m.wdata = 2; t.edge();
    } },
    { "wlast_early", LAST, [](Bench &t) {
        t.aw(0x100, 3); t.w(0, 0xF, false); t.w(0, 0xF, true);
    } },
    { "wlast_missing", LAST, [](Bench &t) {
        t.aw(0x100, 1); t.w(0, 0xF, false); t.w(0, 0xF, false); t.w(0, 0xF, true);
    } },
    { "rlast_early", LAST, [](Bench &t) { t.ar(0x100, 3); t.r(0, true); } },
    { "incr_crosses_4k", CROSS_4K, [](Bench &t) { t.ar(0xFF0, 7); } },
    { "unaligned_incr_crosses_4k", CROSS_4K, [](Bench &t) { t.aw(0x1FFE, 1); } },
    { "reserved_burst", BURST, [](Bench &t) { t.ar(0x100, 0, 0, 2, 3); } },
    { "size_above_bus", BURST, [](Bench &t) { t.aw(0x100, 0, 0, 3, 1); } },
    { "wrap_length_3", BURST, [](Bench &t) { t.ar(0x100, 2, 0, 2, 2); } },
    { "b_without_write", RESPONSE, [](Bench &t) { t.b(); } },
    { "b_before_last_w", RESPONSE, [](Bench &t) { t.aw(0x100, 1); t.w(0, 0xF, false); t.b(); } },
    { "r_without_ar", RESPONSE, [](Bench &t) { t.r(0, true); } },
    { "strobe_below_start", WSTRB, [](Bench &t) { t.aw(0x102, 0); t.w(0, 0x1, true); } },
};

}  // namespace

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help")) {
            printf("usage: %s\nRuns the AXI checker's seeded-violation cases (TAP).\n", argv[0]);
            return 0;
        }
    }
    int fail = 0;
    printf("1..%zu\n", kCases.size());
    for (size_t i = 0; i < kCases.size(); i++) {
        const Case &c = kCases[i];
        Bench t;
        t.reset();
        c.run(t);
        t.idle();
        t.edge();
        unsigned kinds = t.m.kinds;
        bool ok = c.expect == NONE ? t.m.violations == 0 && kinds == 0
                                   : (kinds & (1u << c.expect)) != 0;
        printf("%s %zu - %s (expect %s, flagged 0x%02x, %u violations)\n", ok ? "ok" : "not ok",
               i + 1, c.name, kKindName[c.expect], kinds, (unsigned)t.m.violations);
        if (!ok) fail++;
        t.m.final();
    }
    printf("axi checker: %zu cases, %d failed\n", kCases.size(), fail);
    return fail ? 1 : 0;
}
