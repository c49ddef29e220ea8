/*
 * The RTL engine's clock (see oe_cosim.cpp): the model's inputs driven for
 * a cycle, the handshakes seen on its ports, running with time frozen to a
 * fixed point, and what a host call hands back when it leaves.
 */
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "oe_cosim_engine.h"
#if OE_COSIM_ETH_W > 32
#endif

#ifndef OE_COSIM_TRACE
/* Verilator 5.006's eval_step() is the model's one-time initialisation
 * (guarded by __Vm_didInit), Verilated::mtaskId(0), the scheduler
 * (___eval), and the flush of messages that mtask worker threads queued
 * for the end of the evaluation. This model has no mtasks (one thread,
 * Verilator's default: its threads() is 1), so the flush never finds one
 * (VerilatedThreadMsgQueue::post runs a message at once when mtaskId is 0,
 * which nothing here changes), and the
 * thread-local lookups around it (__tls_get_addr calls, from a shared
 * library) are pure cost on every cycle: the wrapper calls the scheduler
 * itself once the model is initialised. The traced library keeps eval():
 * a --trace model's eval_step also marks activity for the FST writer.
 * Both names are 5.006's own; another Verilator stops the build here. */
#if VERILATOR_VERSION_INTEGER != 5006000
#error "oe_cosim_run.cpp calls Verilator 5.006's model scheduler (___eval) directly: check eval_step()"
#endif
#include "Vopenenoc_endpoint_axi__Syms.h"
void Vopenenoc_endpoint_axi___024root___eval(Vopenenoc_endpoint_axi___024root *vlSelf);
#endif

namespace oe_cosim {

namespace {

/* Cycles one host call may run before it hands back to the host (and asks
 * to be called again at once), so a long block never stalls the host: at
 * about 1.5 M simulated cycles/s this is some 1.5 ms, short enough for
 * QEMU's main loop (and the register reads queued behind it) to keep going. */
const uint64_t kSliceCycles = 2000;

/* Cycles a run may go on after a CSR answer to reach its fixed point
 * (settle): the answer's own cycle is followed by one to confirm the fixed
 * point when the model is at rest at once; a few more cover a write whose
 * effect takes some cycles to settle. */
const uint64_t kAnswerGrace = 4;

uint32_t lane_mask(unsigned size)
{
    return size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
}

/* TKEEP of a beat's n lowest bytes, n <= kEthBytes (32 at 256 bits, where
 * 1u << n would overflow) */
inline uint32_t keep_lanes(unsigned n)
{
    return (uint32_t)(((uint64_t)1 << n) - 1);
}
const uint32_t kEthKeepAll = keep_lanes(kEthBytes);

/* The clock's rising edge. Without the low half evaluated, the model is
 * told that its clock was low: Verilator 5.006 keeps the clock's previous
 * value, which its edge detection compares with, in __Vtrigrprev__TOP__clk
 * (a Verilator that names it otherwise fails to compile here). */
inline void rising_edge(OeEngine *e)
{
#ifndef OE_COSIM_TRACE
    Vopenenoc_endpoint_axi___024root *r = root(e);
    r->__Vtrigrprev__TOP__clk = 0;
    r->clk = 1;
    if (VL_LIKELY(r->vlSymsp->__Vm_didInit)) {
        Vopenenoc_endpoint_axi___024root___eval(r);
    } else {
        e->m->eval();
    }
#else
    e->m->clk = 1;
    e->m->eval();
#endif
}

/* The inputs that follow the wrapper's state (drive_due): the stream
 * beat, the AXI4-Lite VALIDs, local_tx_en, and the READYs and the frame
 * ceiling that never change. */
void drive(OeEngine *e)
{
    Vopenenoc_endpoint_axi___024root *r = root(e);
    r->max_frame_size = e->max_frame;
    r->local_tx_en = e->tx_open;
    r->m_axis_eth_tready = 1;
    r->s_axil_bready = 1;
    r->s_axil_rready = 1;
    r->s_axil_awvalid = e->lite.aw;   /* each VALID held until its handshake */
    r->s_axil_wvalid = e->lite.w;
    r->s_axil_arvalid = e->lite.ar;
    if (e->rxq.empty()) {
        r->s_axis_eth_tvalid = 0;
    } else {
        /* the next beat of the frame being fed (its padding makes the
         * lanes past its end zero) */
        const std::vector<uint8_t> &f = e->rxq.front();
        size_t left = f.size() - kRxPad - e->rx_pos;
        unsigned n = left < kEthBytes ? (unsigned)left : kEthBytes;
        r->s_axis_eth_tvalid = 1;
        axi_data_put(r->s_axis_eth_tdata, f.data() + e->rx_pos);
        r->s_axis_eth_tkeep = keep_lanes(n);
        r->s_axis_eth_tlast = left <= kEthBytes;
    }
    e->drive_due = false;
}

}  // namespace

/* The host's transmit path changes only by the frames handed to it or
 * between calls: asked then, not every cycle. */
void ask_tx_ready(OeEngine *e)
{
    e->tx_open = !e->ops.tx_ready || e->ops.tx_ready(e->opaque);
    e->drive_due = true;
}

/* One clock cycle: inputs, handshakes seen before the edge, the edge.
 * Returns whether anything moved on a port.
 *
 * Every VALID and READY of the model comes from its registers alone (the
 * AXI top's ports are registered; mk/cosim.mk checks the generated model
 * for an output computed from an input), so the values left by the last
 * edge are the ones the new inputs meet: the handshakes are sampled without
 * evaluating the model with the clock low, and one evaluation per cycle does
 * the rising edge. Only the traced library evaluates the low half too, for
 * the waveform. The model keeps an input's value between evaluations and
 * the wrapper is its only writer, so an input is written only in a cycle
 * after the wrapper's state behind it changed (drive_due; the memory slave
 * keeps its own account), always here before the evaluation: between
 * cycles the model holds the inputs of the last one. */
bool cycle(OeEngine *e, uint32_t step)
{
    Vopenenoc_endpoint_axi___024root *r = root(e);
    e->at_rest = false;
    if (e->drive_due) {
        drive(e);
    }
    r->time_step = step;
    e->mem->drive(r);
#ifdef OE_COSIM_TRACE
    e->m->clk = 0;
    e->m->eval();
    trace_dump(e, 0);
#endif

    bool rx_fire = r->s_axis_eth_tvalid && r->s_axis_eth_tready;
    bool tx_fire = r->m_axis_eth_tvalid;   // TREADY is always high
    auto tx_data = r->m_axis_eth_tdata;   // uint32_t, uint64_t or VlWide<4 or 8>
    unsigned tx_keep = r->m_axis_eth_tkeep;
    bool tx_last = r->m_axis_eth_tlast;
    bool aw_fire = r->s_axil_awvalid && r->s_axil_awready;
    bool w_fire = r->s_axil_wvalid && r->s_axil_wready;
    bool ar_fire = r->s_axil_arvalid && r->s_axil_arready;
    bool b_fire = r->s_axil_bvalid;        // BREADY and RREADY are always high
    bool r_fire = r->s_axil_rvalid;
    uint32_t rd_data = r->s_axil_rdata;
    bool msg = r->irq_msg;
    bool mem_moved = e->mem->tick(r);   // host memory calls happen here
    /* a burst asked for or in flight keeps the run going, however long the
     * slave delays its handshakes */
    bool mem_busy = r->m_axi_arvalid || r->m_axi_awvalid || !e->mem->idle();

    rising_edge(e);
    trace_dump(e, 1);
    e->cycles++;

    if (rx_fire) {
        e->rx_pos += kEthBytes;
        if (e->rx_pos + kRxPad >= e->rxq.front().size()) {
            e->rxq.pop_front();
            e->rx_pos = 0;
        }
        e->drive_due = true;
    }
    if (tx_fire) {
        if (e->txf.size() < e->tx_len + kEthBytes) {
            e->txf.resize(2 * e->txf.size() + 4096);
        }
        if (tx_keep == kEthKeepAll) {
            axi_data_get(e->txf.data() + e->tx_len, tx_data);
            e->tx_len += kEthBytes;
        } else {
            uint8_t b[kEthBytes];
            axi_data_get(b, tx_data);
            for (unsigned k = 0; k < kEthBytes; k++) {
                if (tx_keep & (1u << k)) {
                    e->txf[e->tx_len++] = b[k];
                }
            }
        }
        if (tx_last) {
            /* every frame, whatever its length: the host checks them */
            e->ops.tx_frame(e->opaque, e->txf.data(), e->tx_len);
            e->tx_len = 0;
            ask_tx_ready(e);
        }
    }
    if (aw_fire || w_fire || ar_fire) {
        e->lite.aw = e->lite.aw && !aw_fire;
        e->lite.w = e->lite.w && !w_fire;
        e->lite.ar = e->lite.ar && !ar_fire;
        e->drive_due = true;
    }
    /* the aperture answers OKAY only: a response ends the access */
    if (e->csr_busy && (b_fire || r_fire)) {
        uint32_t shift = 8 * (e->csr_offset & 3);
        e->csr_value = e->csr_is_read ? (rd_data >> shift) & lane_mask(e->csr_size) : 0;
        e->csr_busy = false;
        e->csr_done = true;
    }
    if (msg) {
        e->irq_msgs++;
    }
    return rx_fire || tx_fire || aw_fire || w_fire || ar_fire || b_fire || r_fire || mem_moved ||
           mem_busy;
}

namespace {

/* The fixed-point check compares the model's state at the idle hint with
 * the state one cycle later. The direct-stream frame stores (48 of the
 * model's 51 KB) are left out: every write into them stores a beat taken
 * from a stream and moves a write pointer outside them (ep_direct.sv: rxbuf
 * with sw_q, txbuf with wcount_q/in_frame_q and the beat's source), so a
 * cycle that writes them never leaves the rest unchanged. */
struct StateSpan {
    size_t off, len;
};

/* The spans compared: the root's bytes around the two stores. The layout is
 * the same for every model, so the offsets are taken once, from a live one. */
const std::vector<StateSpan> &fixed_point_spans(OeEngine *e)
{
    static const std::vector<StateSpan> spans = [e] {
        const auto *r = root(e);
        const auto *base = reinterpret_cast<const uint8_t *>(r);
        const auto span = [base](const void *p, size_t len) {
            return StateSpan{ (size_t)(static_cast<const uint8_t *>(p) - base), len };
        };
        std::vector<StateSpan> skip = {
            span(&r->openenoc_endpoint_axi__DOT__u_ep__DOT__u_direct__DOT__txbuf_q,
                 sizeof(r->openenoc_endpoint_axi__DOT__u_ep__DOT__u_direct__DOT__txbuf_q)),
            span(&r->openenoc_endpoint_axi__DOT__u_ep__DOT__u_direct__DOT__rxbuf_q,
                 sizeof(r->openenoc_endpoint_axi__DOT__u_ep__DOT__u_direct__DOT__rxbuf_q)),
        };
        std::sort(skip.begin(), skip.end(),
                  [](const StateSpan &a, const StateSpan &b) { return a.off < b.off; });
        std::vector<StateSpan> keep;
        size_t pos = 0;
        for (const StateSpan &s : skip) {
            keep.push_back({ pos, s.off - pos });
            pos = s.off + s.len;
        }
        keep.push_back({ pos, sizeof(*r) - pos });
        return keep;
    }();
    return spans;
}

void snapshot(OeEngine *e)
{
    const auto *bytes = reinterpret_cast<const uint8_t *>(root(e));
    const std::vector<StateSpan> &spans = fixed_point_spans(e);
    if (e->snap.empty()) {
        size_t n = 0;
        for (const StateSpan &s : spans) {
            n += s.len;
        }
        e->snap.resize(n);
    }
    uint8_t *saved = e->snap.data();
    for (const StateSpan &s : spans) {
        memcpy(saved, bytes + s.off, s.len);
        saved += s.len;
    }
}

/* Whether the model is as the copy holds it; where it is not, the copy is
 * brought up to date (from the first span that differs on: the ones before
 * it are equal), so a failed check leaves the copy of this cycle's state. */
bool unchanged_or_resnap(OeEngine *e)
{
    const auto *bytes = reinterpret_cast<const uint8_t *>(root(e));
    uint8_t *saved = e->snap.data();
    bool same = true;
    for (const StateSpan &s : fixed_point_spans(e)) {
        if (same && memcmp(saved, bytes + s.off, s.len) != 0) {
            same = false;
        }
        if (!same) {
            memcpy(saved, bytes + s.off, s.len);
        }
        saved += s.len;
    }
    return same;
}

}  // namespace

/* Run with time frozen until the model is at a fixed point: a cycle in
 * which nothing moved on a port left the whole model as the cycle before it
 * left it, after which the model's idle hint was set. That earlier cycle
 * may be the last one in which something moved: what the wrapper presents
 * changes only after a cycle that moved (the inputs it drives follow its
 * own state, which only a handshake or a memory slave's step changes), so
 * the quiet cycle ran on the inputs that every later cycle gets too, and a
 * model it left unchanged stays so (this also ends a stall, which the
 * caller's checks then see). Every such pair of cycles is checked, each
 * cycle's copy serving as the next one's reference, so a hint set too early
 * costs a copy and a compare, never a cycle, and never a wrong end.
 *
 * A CSR access in flight ends the run soon after it is answered: a register
 * read must not wait for a DMA block streaming meanwhile, which goes on from
 * the host's next call. The run gets kAnswerGrace more cycles to reach its
 * fixed point first, which a model that only answered (or took a write with
 * little to do) does, so the call ends there instead of asking the host for
 * another call: under QEMU that second call is a bottom half, a time step
 * and its settling, some 6 cycles and 10-20 us of host time per register
 * access (docs/cosim.md). */
void settle(OeEngine *e)
{
    bool csr_wait = e->csr_busy;
    bool saved = false;   // e->snap holds the state after the last cycle
    uint64_t end = kSliceCycles;

    ask_tx_ready(e);
    e->again = false;
    for (uint64_t n = 0; n < end; n++) {
        bool moved = cycle(e, 0);
        if (csr_wait && e->csr_done) {
            csr_wait = false;
            end = std::min(end, n + 1 + kAnswerGrace);
        }
        if (moved) {
            /* the reference of the next cycle, should nothing move in it */
            saved = e->m->idle;
            if (saved) {
                snapshot(e);
            }
            continue;
        }
        /* idle is the model's hint (nothing moved inside); a controller can
         * step for longer without a handshake, so the call ends only at a
         * fixed point: a cycle with nothing moving left the whole model
         * unchanged */
        if (saved) {
            if (unchanged_or_resnap(e)) {
                e->at_rest = true;
                return;
            }
            saved = e->m->idle;
        } else if (e->m->idle) {
            snapshot(e);
            saved = true;
        }
    }
    e->again = true;   /* not done: the host calls again at once */
}

/* After a call: interrupt edges, pending CSR completion, next wake-up. */
void leave(OeEngine *e)
{
    bool level = e->m->irq;
    if (level != e->irq_level) {
        e->irq_level = level;
        if (e->ops.set_irq) {
            e->ops.set_irq(e->opaque, level);
        }
        if (level && e->irq_msgs) {
            e->irq_msgs--;   /* the rising edge carries one message */
        }
    }
    while (e->irq_msgs) {
        e->irq_msgs--;
        if (level && e->ops.set_irq) {
            e->ops.set_irq(e->opaque, true);
        }
    }
    if (e->csr_pending && e->csr_done) {
        e->csr_pending = false;
        e->csr_done = false;
        if (e->ops.csr_complete) {
            e->ops.csr_complete(e->opaque, e->csr_value);
        }
    }
    /* A running response timer (the initiator waiting with a timeout)
     * expires once time passes start + timeout: the model says how far
     * that is (timer_wake, 0 = none). */
    uint64_t when = OE_TIMER_NONE;
    uint64_t wake = e->m->timer_wake;
    if (e->again) {
        when = e->now;
    } else if (wake != 0) {
        when = e->now + wake;
    }
    if (when != e->armed) {
        e->armed = when;
        if (e->ops.arm_timer) {
            e->ops.arm_timer(e->opaque, when);
        }
    }
}

}  // namespace oe_cosim
