/*
 * The RTL engine: include/openenoc/engine.h implemented by the Verilator
 * model of rtl/axi/openenoc_endpoint_axi.sv, the endpoint with its standard
 * ports (AXI4-Lite CSR slave, AXI4 memory master, AXI-Stream Ethernet, IRQ).
 *
 * Time: the model's clock is the simulation vehicle; endpoint time is what
 * the host says. Every host call runs the model to quiescence with
 * time_step = 0 (pipeline latency is hidden, as the C engine does its work
 * in zero time), and oe_engine_advance(T) gives one edge with time_step =
 * T - now, so response timers count host cycles exactly and idle time costs
 * nothing. Quiescence: a fixed point, a cycle in which nothing moved on a
 * port leaving the model's state unchanged, checked where the model's idle
 * hint (no reset, no CSR access or memory transfer in flight) says it may be
 * (oe_cosim_run.cpp, settle).
 *
 * The wrapper serves the model's ports: an AXI4-Lite master for the CSR
 * aperture (one transaction per access; RMEM window accesses pend until the
 * model answers), the AXI-Stream Ethernet ports (rx_frame feeds the receive
 * stream, transmitted frames go to tx_frame at their TLAST handshake), an
 * AXI4 slave for the memory master (AxiMemSlave, axi_mem_slave.h: host
 * mem_read/mem_write per burst, their status as RRESP/BRESP) and the
 * interrupt output.
 *
 * Built with -DOE_COSIM_TRACE against a --trace-fst model (make cosim-trace)
 * it can also write an FST waveform (oe_cosim_trace, include/openenoc/cosim.h).
 *
 * This file holds the engine.h entry points and reset; the other parts are
 * listed in oe_cosim_engine.h.
 */
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

#include "oe_cosim_engine.h"
#include "openenoc/cosim.h"
#include "openenoc/engine_config.h"
#include "openenoc/regs.h"

namespace oe_cosim {

/* Random READY/VALID delays of the memory slave, in percent: 0 here; the
 * AXI check's library (mk/axi.mk) builds with a non-zero value. */
#ifndef OE_COSIM_AXI_STALL_PCT
#define OE_COSIM_AXI_STALL_PCT 0
#endif

/* Nothing in flight on the wrapper's side of the ports. */
void ports_reset(OeEngine *e)
{
    e->rxq.clear();
    e->rx_pos = 0;
    e->tx_len = 0;
    e->drive_due = true;   /* the next cycle drives the inputs from this state */
    e->mem.reset(new AxiMemSlave(e->ops.mem_read, e->ops.mem_write, e->opaque,
                                 OE_COSIM_AXI_STALL_PCT));
    e->lite = LiteXfer();
    e->csr_busy = false;
    e->csr_done = false;
    e->at_rest = false;
}

void hard_reset(OeEngine *e)
{
    Vopenenoc_endpoint_axi *m = e->m.get();
    ports_reset(e);
    m->rst = 1;
    m->eval();   // outputs from the state, before the first edge samples them
    for (int i = 0; i < 4; i++) {
        cycle(e, 0);
    }
    m->rst = 0;
    cycle(e, 0);
    e->irq_msgs = 0;
    /* Board-level settings applied after every reset, as the C engine's
     * reset values: the host's MAC property (the FPGA itself resets the MAC
     * to 0) and, for a frame ceiling other than the RDL's, the fragment size
     * ceiling 4*floor((max - 32)/4). */
    if (e->frag_ceiling != OE_CONFIG_DMA_MAX_FRAGMENT_SIZE_RESET) {
        csr_issue(e, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 4, false, e->frag_ceiling);
        settle(e);
    }
    if (e->reset_mac) {
        csr_issue(e, OE_CONFIG_MAC_ADDRESS, 4, false, (uint32_t)e->reset_mac);
        settle(e);
        csr_issue(e, OE_CONFIG_MAC_ADDRESS_HI, 4, false, (uint32_t)(e->reset_mac >> 32));
        settle(e);
        e->csr_done = false;
    }
    settle(e);
}

}  // namespace oe_cosim

using namespace oe_cosim;

extern "C" {

OeEngine *oe_engine_new(const OeHostOps *ops, void *opaque,
                        const OeEngineConfig *cfg, const char **err)
{
    OeEngineSettings set;
    if (!oe_engine_config_resolve(ops, cfg, &set, err)) {
        return nullptr;
    }
    // the bus is fixed when the model is built: a different one asked for
    // is an error, not something to imitate
    if (set.mem_beat != 0 && set.mem_beat != OE_COSIM_AXI_W / 8) {
        if (err) {
            *err = "mem_beat_bytes differs from this RTL library's memory bus (OE_COSIM_AXI_W)";
        }
        return nullptr;
    }
    OeEngine *e = new OeEngine();
    e->ops = *ops;
    e->opaque = opaque;
    e->reset_mac = set.reset_mac;
    e->max_frame = set.max_frame;
    e->frag_ceiling = set.frag_ceiling;
    e->ctx.reset(new VerilatedContext());
#ifdef OE_COSIM_TRACE
    e->ctx->traceEverOn(true);
#endif
    e->m.reset(new Vopenenoc_endpoint_axi(e->ctx.get(), "openenoc_endpoint_axi"));
    hard_reset(e);
    return e;
}

void oe_engine_free(OeEngine *e)
{
    if (e) {
        /* Verilator erases the model's scopes from the thread's current
         * context, which may be another engine's (or a freed one). */
        Verilated::threadContextp(e->ctx.get());
#ifdef OE_COSIM_TRACE
        trace_close(e);
#endif
        e->m->final();
        e->m.reset();
        Verilated::threadContextp(nullptr);
        e->ctx.reset();
        delete e;
    }
}

void oe_engine_reset(OeEngine *e)
{
    if (e->csr_pending) {
        e->csr_pending = false;
        if (e->ops.csr_complete) {
            e->ops.csr_complete(e->opaque, 0xFFFFFFFFu);
        }
    }
    hard_reset(e);
    leave(e);
}

OeCsrStatus oe_engine_csr_read(OeEngine *e, uint32_t offset, unsigned size,
                               uint32_t *value)
{
    return csr_access(e, offset, size, true, value);
}

OeCsrStatus oe_engine_csr_write(OeEngine *e, uint32_t offset, unsigned size,
                                uint32_t value)
{
    return csr_access(e, offset, size, false, &value);
}

void oe_engine_rx_frame(OeEngine *e, const uint8_t *frame, size_t len)
{
    /* every frame goes to the model as it is (an empty one as one beat
     * with no bytes and TLAST): the RTL applies the frame ceiling */
    std::vector<uint8_t> f(len + kRxPad);
    if (len) {
        memcpy(f.data(), frame, len);
    }
    e->rxq.push_back(std::move(f));
    e->drive_due = true;
    settle(e);
    leave(e);
}

bool oe_engine_can_receive(const OeEngine *e)
{
    return e->m->can_receive;
}

/* Time passing reaches the model only through time_step, whose one reader
 * is the initiator's response timer (rtl/openenoc_oetp_initiator.sv: its
 * count, and the step of the last edge, which is 0 again at rest), and
 * timer_wake is 0 exactly when no such timer runs. A model at rest (the
 * last call ended at a fixed point, nothing touched it since) with no timer
 * running and the same inputs would therefore spend the step's edge and
 * the settling after it (three cycles) only to return to the same state:
 * time moves on without them, which under QEMU saves them on nearly every
 * engine call (the device tells the engine the time at each one). */
void oe_engine_advance(OeEngine *e, uint64_t now)
{
    bool was_open = e->tx_open;
    ask_tx_ready(e);
    bool quiet = e->at_rest && e->tx_open == was_open;   // and stays so without a cycle
    uint64_t wake = e->m->timer_wake;
    if (quiet && wake == 0) {
        e->now = std::max(e->now, now);
    }
    /* A running timer the step does not reach: the step's one edge adds it
     * to the count, and nothing else moves. The initiator waits (timer_wake
     * is non-zero only then), and the step of the last edge, which the edge
     * leaves behind, is read only where a request's frame has just been
     * sent, which no waiting initiator reaches without an edge of its own:
     * the next call's cycles clear it, as the settling would have. */
    bool counted = quiet && wake != 0 && now > e->now && now - e->now < wake;
    while (now > e->now) {
        uint64_t d = now - e->now;
        uint32_t step = d > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)d;
        cycle(e, step);
        e->now += step;
    }
    if (e->armed != OE_TIMER_NONE && e->now >= e->armed) {
        e->armed = OE_TIMER_NONE;
    }
    if (!(quiet && e->at_rest) && !counted) {
        settle(e);
    }
    leave(e);
}

uint64_t oe_engine_now(const OeEngine *e)
{
    return e->now;
}

uint64_t oe_cosim_cycles(const OeEngine *e)
{
    return e->cycles;
}

void oe_engine_test_set_request_id(OeEngine *e, uint32_t next_id)
{
    root(e)->openenoc_endpoint_axi__DOT__u_ep__DOT__u_oetp__DOT__u_initiator__DOT__rid_q = next_id;
    e->at_rest = false;   /* a state no cycle has seen yet */
}

}  // extern "C"
