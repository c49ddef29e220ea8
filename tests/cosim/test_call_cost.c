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

/* A running response timer counts the time: the step is an edge. */
static void advance_with_timer_running_steps_the_model(void)
{
    HNode *n = one_engine();
    HNode *b = hw_scripted(n->w, "B", H_MAC_B);
    uint32_t v;
    uint64_t c0;

    (void)b;
    hn_peer(n, 0, &(HPeer){ .mac = H_MAC_B, .remote_address = 0x8000,
                            .size = 0x100, .mode = 1 });
    hn_wr(n, OE_CONFIG_RMEM_TIMEOUT, 1000);
    H_EQ(hn_csr_read(n, H_RMEM(0), 4, &v), OE_CSR_PENDING);
    hw_settle(n->w);
    c0 = oe_cosim_cycles(n->e);
    hw_run_until(n->w, n->w->now + 10);
    hn_advance(n);
    H_CHECK(oe_cosim_cycles(n->e) > c0);
    H_CHECK(n->csr_pending);
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
    H_TEST(advance_with_timer_running_steps_the_model),
    H_TEST(csr_access_at_rest_costs_a_few_cycles),
};

int main(int argc, char **argv)
{
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
