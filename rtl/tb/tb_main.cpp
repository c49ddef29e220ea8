// Runner of the oETP engine test bench: every registered test, without and
// (where it makes sense) with random backpressure on every port.
#include <cstdlib>
#include <cstring>

#include "tb_check.h"

int run_bench(int argc, char **argv);

static void usage()
{
    printf("usage: tb_oetp [--seed N] [--stall P] [--test NAME] [--list] [--bench]\n"
           "Runs the oETP engine RTL test bench (Verilator model).\n"
           "  --seed N     random seed for stalls and gaps (default 1)\n"
           "  --stall P    stall/gap probability of the backpressure runs (default 0.3)\n"
           "  --test NAME  run only tests whose name contains NAME\n"
           "  --list       list the tests\n"
           "  --bench      print BENCH lines (throughput, simulation speed)\n");
}

// Invariants every test must keep, whatever it drove.
static void common_checks(Sim &s)
{
    for (const Packet &p : s.eth_sink.done) {
        CHECK(p.keep_ok);
    }
    for (const Packet &p : s.local_sink.done) {
        CHECK(p.keep_ok);
        CHECK(p.meta_stable);
    }
    CHECK_EQ(s.ini.stability_errors, 0u);
}

int main(int argc, char **argv)
{
    uint32_t seed = 1;
    double stall = 0.3;
    const char *only = nullptr;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            return 0;
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            seed = uint32_t(strtoul(argv[++i], nullptr, 0));
        } else if (!strcmp(argv[i], "--stall") && i + 1 < argc) {
            stall = strtod(argv[++i], nullptr);
            if (!(stall >= 0 && stall < 1)) {
                usage();
                return 2;
            }
        } else if (!strcmp(argv[i], "--test") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--list")) {
            for (auto &t : registry()) printf("%s\n", t.name);
            return 0;
        } else if (!strcmp(argv[i], "--bench")) {
            return run_bench(argc, argv);
        } else {
            usage();
            return 2;
        }
    }
    unsigned runs = 0, failed = 0;
    for (auto &t : registry()) {
        if (only && !strstr(t.name, only)) continue;
        for (int bp = 0; bp < (t.with_backpressure ? 2 : 1); bp++) {
            std::string name = std::string(t.name) + (bp ? "/backpressure" : "");
            g_test = name.c_str();
            unsigned before = g_failures;
            {
                Sim s(seed + runs);
                if (bp) s.backpressure(stall);
                t.fn(s);
                common_checks(s);
            }
            runs++;
            bool ok = g_failures == before;
            failed += !ok;
            printf("%s %s\n", ok ? "PASS" : "FAIL", name.c_str());
        }
    }
    printf("%u runs, %u failed\n", runs, failed);
    return failed || !runs ? 1 : 0;
}
