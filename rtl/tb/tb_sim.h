// The simulated engine plus all bench models, clocked together.
#ifndef TB_SIM_H
#define TB_SIM_H

#include <memory>

#include "tb_models.h"

extern "C" {
#include "openenoc/oetp.h"
}

// Test MAC addresses (local unicast prefix 02:0E:0C, group 03:0E:0C).
constexpr uint64_t MAC_LOCAL = 0x020E0C000001ull;
constexpr uint64_t MAC_PEER0 = 0x020E0C000010ull;
constexpr uint64_t MAC_PEER1 = 0x020E0C000011ull;
constexpr uint64_t MAC_PEER2 = 0x020E0C000012ull;
constexpr uint64_t MAC_GROUP = 0x030E0C0000AAull;
constexpr uint64_t MAC_OTHER = 0x020E0C0000EEull;

struct Sim {
    std::unique_ptr<Top> top;
    Rng rng;
    uint64_t cycle = 0;
    StreamSource eth_src, local_src;
    StreamSink eth_sink, local_sink;
    LookupModel lookup;
    InitiatorModel ini;
    ResponderModel rsp;
    bool probe_stability = false;
    unsigned unstable_outputs = 0;

    explicit Sim(uint32_t seed);
    ~Sim();
    void reset();
    void tick();
    // Random gaps and stalls on every port with the given probability.
    void backpressure(double p);
    // Runs until pred() holds (true) or max cycles pass (false).
    template <class F> bool run_until(F pred, uint64_t max = 200000) {
        for (uint64_t i = 0; i < max; i++) {
            if (pred()) return true;
            tick();
        }
        return pred();
    }
    bool quiet() const;              // nothing queued anywhere
    bool settle(uint64_t max = 200000);  // quiet for a while
    void run(uint64_t n) { for (uint64_t i = 0; i < n; i++) tick(); }

    // configuration
    void set_conf(uint64_t mac, uint64_t mcast, unsigned mode, uint32_t rmem_tmo, uint32_t dma_tmo);
    void default_peers();
    void send_eth(const Bytes &frame) { eth_src.push(to_beats(frame)); }
};

#endif
