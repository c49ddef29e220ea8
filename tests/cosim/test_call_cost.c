/*
 * What host calls cost the RTL engine in model cycles (make check-cosim):
 * the wrapper's shortcuts (hw/cosim/oe_cosim.cpp, oe_engine_advance;
 * oe_cosim_run.cpp, settle) save cycles and nothing else. Behaviour is the
 * conformance suite's job on both engines; these checks fail when a change
 * brings the cycles back, or takes one a call needs.
 */
#include "harness.h"
#include "openenoc/cosim.h"

static HNode *one_engine(void)
{
    HWorld *w = hw_new();
    HNode *n = hw_engine(w, "dut", H_MAC_A, NULL);

    hw_settle(w);
    return n;
}

/* At rest with no response timer running, time moves on without a cycle,
 * however far, and the model is where it was. */
static void advance_at_rest_runs_no_cycle(void)
{
    HNode *n = one_engine();
    uint64_t c0 = oe_cosim_cycles(n->e);

    hw_run_until(n->w, 1000);
    hn_advance(n);
    hw_run_until(n->w, 1ull << 40);
    hn_advance(n);
    H_EQ(oe_cosim_cycles(n->e), c0);
    H_EQ(oe_engine_now(n->e), 1ull << 40);
    H_EQ(hn_rd(n, OE_PEER_MAC_ADDRESS(0)), 0);
}

/* A running response timer counts the time: a step it does not reach is
 * one edge before the call's own cycles, and the timer still expires on
 * time (test_timeout checks the exact cycle on both engines). */
static void step_with_timer_running_is_one_edge(void)
{
    HNode *n = one_engine();
    uint64_t c0, read_cost;

    hw_scripted(n->w, "B", H_MAC_B);   /* never answers */
    hn_peer(n, 0, &(HPeer){ .mac = H_MAC_B, .local_address = 0x1000,
                            .remote_address = 0x9000, .size = 24, .mode = 3 });
    hn_wr(n, OE_CONFIG_DMA_TIMEOUT, 1000);
    hn_dma_request(n, 0);
    hw_settle(n->w);
    H_CHECK(n->timer != OE_TIMER_NONE);   /* waiting for DMA_WRITE_RSP */
    c0 = oe_cosim_cycles(n->e);
    H_EQ(hn_rd(n, OE_PEER_MAC_ADDRESS(0)), (uint32_t)H_MAC_B);
    read_cost = oe_cosim_cycles(n->e) - c0;
    hw_run_until(n->w, n->w->now + 10);
    c0 = oe_cosim_cycles(n->e);
    H_EQ(hn_rd(n, OE_PEER_MAC_ADDRESS(0)), (uint32_t)H_MAC_B);
    H_EQ(oe_cosim_cycles(n->e) - c0, read_cost + 1);
    hw_run_until(n->w, n->w->now + 2000);
    H_EQ(H_GET(hn_dma(n, 0), OE_PEER_DMA_ERROR_CODE), OE_ERR_TIMEOUT);
}

/* A register access at rest is the bus transaction and the cycle that
 * finds the fixed point: no second call, no time step before it. */
static void csr_access_at_rest_costs_a_few_cycles(void)
{
    HNode *n = one_engine();

    hw_run_until(n->w, 500);
    for (int i = 0; i < 4; i++) {
        uint64_t c0 = oe_cosim_cycles(n->e);
        unsigned arms = n->arm_calls;

        if (i & 1) {
            hn_wr(n, OE_PEER_MAC_ADDRESS(0), 0x0C000000u + i);
        } else {
            H_EQ(hn_rd(n, OE_PEER_MAC_ADDRESS(0)), i ? 0x0C000000u + i - 1 : 0);
        }
        H_CHECKF(oe_cosim_cycles(n->e) - c0 <= 6, "access %d took %llu cycles", i,
                 (unsigned long long)(oe_cosim_cycles(n->e) - c0));
        H_EQ(n->arm_calls, arms);
        hw_run_until(n->w, n->w->now + 100);
    }
}

static const HTest tests[] = {
    H_TEST(advance_at_rest_runs_no_cycle),
    H_TEST(step_with_timer_running_is_one_edge),
    H_TEST(csr_access_at_rest_costs_a_few_cycles),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
