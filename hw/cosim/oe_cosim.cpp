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
 * nothing. Quiescence: the model's idle output (nothing moved inside for a
 * few cycles, no memory transfer in flight) after a cycle in which nothing
 * moved on a port.
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
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "Vopenenoc_endpoint_axi.h"
#include "Vopenenoc_endpoint_axi___024root.h"
#include "axi_mem_slave.h"
#include "verilated.h"
#include "verilated_save.h"
#ifdef OE_COSIM_TRACE
#include <set>
#include "verilated_fst_c.h"
#endif

#include "openenoc/cosim.h"
#include "openenoc/engine.h"
#include "openenoc/engine_config.h"
#include "openenoc/regs.h"

namespace {

/* Cycles one host call may run before it hands back to the host (and asks
 * to be called again at once), so a long block never stalls the host: at
 * about 1.5 M simulated cycles/s this is some 1.5 ms, short enough for
 * QEMU's main loop (and the register reads queued behind it) to keep going. */
const uint64_t kSliceCycles = 2000;

/* Random READY/VALID delays of the memory slave, in percent: 0 here; the
 * AXI check's library (mk/axi.mk) builds with a non-zero value. */
#ifndef OE_COSIM_AXI_STALL_PCT
#define OE_COSIM_AXI_STALL_PCT 0
#endif

/* The AXI4-Lite master's transaction in flight: each channel's VALID is
 * held until its handshake. */
struct LiteXfer {
    bool aw = false, w = false, ar = false;
};

}  // namespace

struct OeEngine {
    OeHostOps ops;
    void *opaque;
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vopenenoc_endpoint_axi> m;
    uint64_t reset_mac;
    uint32_t max_frame;
    uint32_t frag_ceiling;
    uint64_t now = 0;
    uint64_t armed = OE_TIMER_NONE;
    bool again = false;                    // the last call ran out of its slice
    bool irq_level = false;
    bool tx_open = true;                   // the host's tx_ready, asked at
                                           // each call and after each frame
    unsigned irq_msgs = 0;

    std::deque<std::vector<uint8_t>> rxq;  // frames to feed
    std::vector<uint8_t> snap;             // the model at the idle hint (fixed-point check)
    size_t rx_pos = 0;                     // bytes of rxq.front() fed
    std::vector<uint8_t> txf;              // frame being transmitted
    std::unique_ptr<AxiMemSlave> mem;
    LiteXfer lite;

    // CSR access in flight
    bool csr_busy = false;
    bool csr_pending = false;              // returned PENDING to the host
    bool csr_done = false;
    bool csr_is_read = false;
    uint32_t csr_offset = 0;
    unsigned csr_size = 4;
    uint32_t csr_value = 0;

    uint64_t cycles = 0;                   // model clock cycles run
#ifdef OE_COSIM_TRACE
    std::unique_ptr<VerilatedFstC> fst;    // open while a trace window is due
    uint64_t trace_origin = 0;             // cycle of the oe_cosim_trace call
    uint64_t trace_start = 0, trace_end = 0;
#endif
};

namespace {

const char kStateMagic[8] = { 'O', 'E', 'R', 'T', 'L', 'S', 'T', '1' };
const uint64_t kStateVersion = 1;

uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 0x100000001b3ull;
    }
    return h;
}

void put(std::vector<uint8_t> &v, const void *p, size_t n)
{
    const uint8_t *b = static_cast<const uint8_t *>(p);
    v.insert(v.end(), b, b + n);
}

void put64(std::vector<uint8_t> &v, uint64_t x)
{
    for (int i = 0; i < 8; i++) {
        v.push_back((uint8_t)(x >> (8 * i)));
    }
}

uint64_t get64(const uint8_t *p)
{
    uint64_t x = 0;
    for (int i = 0; i < 8; i++) {
        x |= (uint64_t)p[i] << (8 * i);
    }
    return x;
}

/* Verilator serialization into / out of memory. */
class BlobWriter final : public VerilatedSerialize {
public:
    explicit BlobWriter(std::vector<uint8_t> &out) : m_out(out) { m_isOpen = true; }
    ~BlobWriter() override { close(); }
    void close() override { flush(); m_isOpen = false; }
    void flush() override
    {
        m_out.insert(m_out.end(), m_bufp, m_cp);
        m_cp = m_bufp;
    }

private:
    std::vector<uint8_t> &m_out;
};

class BlobReader final : public VerilatedDeserialize {
public:
    BlobReader(const uint8_t *p, size_t n) : m_p(p), m_left(n)
    {
        m_isOpen = true;
        m_endp = m_bufp;
    }

private:
    void fill() override
    {
        size_t keep = (size_t)(m_endp - m_cp);
        memmove(m_bufp, m_cp, keep);
        m_cp = m_bufp;
        m_endp = m_bufp + keep;
        size_t room = bufferSize() - keep;
        size_t n = m_left < room ? m_left : room;
        memcpy(m_endp, m_p, n);
        m_p += n;
        m_left -= n;
        m_endp += n;
    }
    const uint8_t *m_p;
    size_t m_left;
};

uint32_t lane_mask(unsigned size)
{
    return size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
}

Vopenenoc_endpoint_axi___024root *root(OeEngine *e)
{
    return e->m->rootp;
}

#ifdef OE_COSIM_TRACE
/* Engines with an open trace, closed at exit so the FST is complete even
 * when the host never frees its engine (QEMU at quit). */
struct TraceRegistry {
    std::set<OeEngine *> open;
    ~TraceRegistry()
    {
        for (OeEngine *e : open) {
            e->fst->close();
        }
    }
};
TraceRegistry traces;

void trace_close(OeEngine *e)
{
    if (e->fst) {
        e->fst->close();
        e->fst.reset();
        traces.open.erase(e);
    }
}

/* Dump half cycle `half` (0: clk low, 1: clk high) of the current cycle. */
void trace_dump(OeEngine *e, unsigned half)
{
    if (e->fst && e->cycles >= e->trace_start) {
        if (e->cycles >= e->trace_end) {
            trace_close(e);
            return;
        }
        e->fst->dump(2 * (e->cycles - e->trace_origin) + half);
    }
}
#else
void trace_dump(OeEngine *, unsigned) {}
#endif

/* The host's transmit path changes only by the frames handed to it or
 * between calls: asked then, not every cycle. */
void ask_tx_ready(OeEngine *e)
{
    e->tx_open = !e->ops.tx_ready || e->ops.tx_ready(e->opaque);
}

/* Drive the model's inputs for the coming cycle. */
void drive(OeEngine *e, uint32_t step)
{
    Vopenenoc_endpoint_axi *m = e->m.get();
    m->time_step = step;
    m->max_frame_size = e->max_frame;
    m->local_tx_en = e->tx_open;
    m->m_axis_eth_tready = 1;

    if (!e->rxq.empty()) {
        const std::vector<uint8_t> &f = e->rxq.front();
        size_t left = f.size() - e->rx_pos;
        uint32_t w = 0;
        unsigned n = left < 4 ? (unsigned)left : 4;
        for (unsigned k = 0; k < n; k++) {
            w |= (uint32_t)f[e->rx_pos + k] << (8 * k);
        }
        m->s_axis_eth_tvalid = 1;
        m->s_axis_eth_tdata = w;
        m->s_axis_eth_tkeep = (1u << n) - 1;
        m->s_axis_eth_tlast = left <= 4;
    } else {
        m->s_axis_eth_tvalid = 0;
    }

    m->s_axil_awvalid = e->lite.aw;
    m->s_axil_wvalid = e->lite.w;
    m->s_axil_arvalid = e->lite.ar;
    m->s_axil_bready = 1;
    m->s_axil_rready = 1;
    e->mem->drive(m);
}

/* One clock cycle: inputs, handshakes seen before the edge, the edge.
 * Returns whether anything moved on a port. */
bool cycle(OeEngine *e, uint32_t step)
{
    Vopenenoc_endpoint_axi *m = e->m.get();
    drive(e, step);
    m->clk = 0;
    m->eval();
    trace_dump(e, 0);

    bool rx_fire = m->s_axis_eth_tvalid && m->s_axis_eth_tready;
    bool tx_fire = m->m_axis_eth_tvalid && m->m_axis_eth_tready;
    uint32_t tx_data = m->m_axis_eth_tdata;
    unsigned tx_keep = m->m_axis_eth_tkeep;
    bool tx_last = m->m_axis_eth_tlast;
    bool aw_fire = m->s_axil_awvalid && m->s_axil_awready;
    bool w_fire = m->s_axil_wvalid && m->s_axil_wready;
    bool ar_fire = m->s_axil_arvalid && m->s_axil_arready;
    bool b_fire = m->s_axil_bvalid && m->s_axil_bready;
    bool r_fire = m->s_axil_rvalid && m->s_axil_rready;
    uint32_t rd_data = m->s_axil_rdata;
    bool msg = m->irq_msg;
    bool mem_moved = e->mem->tick(m);   // host memory calls happen here
    /* a burst asked for or in flight keeps the run going, however long the
     * slave delays its handshakes */
    bool mem_busy = m->m_axi_arvalid || m->m_axi_awvalid || !e->mem->idle();

    m->clk = 1;
    m->eval();
    trace_dump(e, 1);
    e->cycles++;

    if (rx_fire) {
        e->rx_pos += 4;
        if (e->rx_pos >= e->rxq.front().size()) {
            e->rxq.pop_front();
            e->rx_pos = 0;
        }
    }
    if (tx_fire) {
        for (unsigned k = 0; k < 4; k++) {
            if (tx_keep & (1u << k)) {
                e->txf.push_back((uint8_t)(tx_data >> (8 * k)));
            }
        }
        if (tx_last) {
            /* every frame, whatever its length: the host checks them */
            e->ops.tx_frame(e->opaque, e->txf.data(), e->txf.size());
            e->txf.clear();
            ask_tx_ready(e);
        }
    }
    e->lite.aw = e->lite.aw && !aw_fire;
    e->lite.w = e->lite.w && !w_fire;
    e->lite.ar = e->lite.ar && !ar_fire;
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

/* Run with time frozen until the model is idle after a cycle in which
 * nothing moved on a port (the model and what the wrapper presents to it
 * are at a fixed point: this also ends a stall, which the caller's checks
 * then see). A CSR access in flight ends the run as soon as it is answered:
 * a register read must not wait for a DMA block streaming meanwhile, which
 * goes on from the host's next call. */
void settle(OeEngine *e)
{
    bool csr_wait = e->csr_busy;

    ask_tx_ready(e);
    e->again = false;
    for (uint64_t n = 0; n < kSliceCycles; n++) {
        bool moved = cycle(e, 0);
        if (csr_wait && e->csr_done) {
            /* the model may still be busy: the host calls again at once
             * (a call that finds it idle ends after one edge) */
            e->again = true;
            return;
        }
        if (!moved && e->m->idle) {
            /* idle is the model's hint (nothing moved inside for a few
             * cycles); a controller can step for longer without a
             * handshake, so the call ends only at a fixed point: one more
             * cycle with nothing moving leaves the whole model unchanged */
            auto *r = root(e);
            const auto *bytes = reinterpret_cast<const uint8_t *>(r);
            e->snap.assign(bytes, bytes + sizeof(*r));
            moved = cycle(e, 0);
            n++;
            if (csr_wait && e->csr_done) {
                e->again = true;
                return;
            }
            if (!moved && !memcmp(e->snap.data(), bytes, sizeof(*r))) {
                return;
            }
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

void csr_issue(OeEngine *e, uint32_t offset, unsigned size, bool is_read,
               uint32_t value)
{
    Vopenenoc_endpoint_axi *m = e->m.get();
    uint32_t shift = 8 * (offset & 3);
    uint32_t strb = ((1u << size) - 1) << (offset & 3);

    e->csr_busy = true;
    e->csr_done = false;
    e->csr_is_read = is_read;
    e->csr_offset = offset;
    e->csr_size = size;
    e->lite.aw = e->lite.w = !is_read;
    e->lite.ar = is_read;
    m->s_axil_awaddr = offset;
    m->s_axil_araddr = offset;
    m->s_axil_awprot = 0;
    m->s_axil_arprot = 0;
    m->s_axil_wdata = value << shift;
    m->s_axil_wstrb = is_read ? 0 : strb;
}

OeCsrStatus csr_access(OeEngine *e, uint32_t offset, unsigned size,
                       bool is_read, uint32_t *value)
{
    if ((size != 1 && size != 2 && size != 4) || (offset & (size - 1)) ||
        offset >= OE_CSR_APERTURE_SIZE || e->csr_pending) {
        if (is_read) {
            *value = 0;
        }
        return OE_CSR_DONE;
    }
    csr_issue(e, offset, size, is_read, is_read ? 0 : *value);
    settle(e);
    if (e->csr_done) {
        e->csr_done = false;
        if (is_read) {
            *value = e->csr_value;
        }
        leave(e);
        return OE_CSR_DONE;
    }
    e->csr_pending = true;
    leave(e);
    return OE_CSR_PENDING;
}

/* Nothing in flight on the wrapper's side of the ports. */
void ports_reset(OeEngine *e)
{
    e->rxq.clear();
    e->rx_pos = 0;
    e->txf.clear();
    e->mem.reset(new AxiMemSlave(e->ops.mem_read, e->ops.mem_write, e->opaque,
                                 OE_COSIM_AXI_STALL_PCT));
    e->lite = LiteXfer();
    e->csr_busy = false;
    e->csr_done = false;
}

void hard_reset(OeEngine *e)
{
    Vopenenoc_endpoint_axi *m = e->m.get();
    ports_reset(e);
    m->rst = 1;
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

}  // namespace

extern "C" {

OeEngine *oe_engine_new(const OeHostOps *ops, void *opaque,
                        const OeEngineConfig *cfg, const char **err)
{
    OeEngineSettings set;
    const char *bad = oe_engine_config_resolve(ops, cfg, &set);
    if (bad) {
        if (err) {
            *err = bad;
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
    e->rxq.emplace_back(frame, frame + len);
    settle(e);
    leave(e);
}

bool oe_engine_can_receive(const OeEngine *e)
{
    return e->m->can_receive;
}

void oe_engine_advance(OeEngine *e, uint64_t now)
{
    ask_tx_ready(e);
    while (now > e->now) {
        uint64_t d = now - e->now;
        uint32_t step = d > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)d;
        cycle(e, step);
        e->now += step;
    }
    if (e->armed != OE_TIMER_NONE && e->now >= e->armed) {
        e->armed = OE_TIMER_NONE;
    }
    settle(e);
    leave(e);
}

uint64_t oe_engine_now(const OeEngine *e)
{
    return e->now;
}

/*
 * Migration state: the Verilator model's own serialization (--savable) of
 * every register and memory of the RTL, plus the wrapper's configuration and
 * time, framed by a magic, a length and a checksum. Verilator treats a bad
 * stream as fatal, so a blob reaches it only after the frame checks pass.
 * Saved between host calls, the model is quiescent: nothing is in flight on
 * the ports the wrapper serves.
 */
size_t oe_engine_save(const OeEngine *e, uint8_t *buf, size_t cap)
{
    OeEngine *me = const_cast<OeEngine *>(e);
    std::vector<uint8_t> model;
    {
        BlobWriter w(model);
        Verilated::threadContextp(me->ctx.get());
        w << *me->m;
        w.close();
    }
    std::vector<uint8_t> out;
    put(out, kStateMagic, 8);
    put64(out, kStateVersion);
    put64(out, e->max_frame);
    put64(out, e->reset_mac);
    put64(out, e->now);
    put64(out, e->irq_level);
    put64(out, model.size());
    out.insert(out.end(), model.begin(), model.end());
    put64(out, fnv1a(out.data(), out.size()));
    if (buf && cap >= out.size()) {
        memcpy(buf, out.data(), out.size());
    }
    return out.size();
}

int oe_engine_load(OeEngine *e, const uint8_t *buf, size_t len)
{
    const size_t head = 8 + 6 * 8;
    uint64_t version, max, mac, now, irq, mlen;

    if (!buf || len < head + 8 || memcmp(buf, kStateMagic, 8) ||
        get64(buf + len - 8) != fnv1a(buf, len - 8)) {
        hard_reset(e);
        return -1;
    }
    version = get64(buf + 8);
    max = get64(buf + 16);
    mac = get64(buf + 24);
    now = get64(buf + 32);
    irq = get64(buf + 40);
    mlen = get64(buf + 48);
    OeEngineConfig cfg = { (uint32_t)max, mac };
    OeEngineSettings set;
    if (version != kStateVersion || !max || max >> 32 || mac >> 48 || irq > 1 ||
        mlen != len - head - 8 || oe_engine_config_resolve(&e->ops, &cfg, &set)) {
        hard_reset(e);
        return -1;
    }
    e->max_frame = set.max_frame;
    e->frag_ceiling = set.frag_ceiling;
    e->reset_mac = set.reset_mac;
    e->now = now;
    e->irq_level = irq;
    ports_reset(e);
    e->csr_pending = false;
    {
        BlobReader r(buf + head, (size_t)mlen);
        Verilated::threadContextp(e->ctx.get());
        r >> *e->m;
    }
    e->armed = OE_TIMER_NONE;
    return 0;
}

int oe_cosim_trace(OeEngine *e, const char *path, uint64_t start, uint64_t cycles,
                   const char **err)
{
#ifdef OE_COSIM_TRACE
    if (!path || !*path) {
        *err = "no file name";
        return -1;
    }
    trace_close(e);
    Verilated::threadContextp(e->ctx.get());
    e->fst.reset(new VerilatedFstC());
    e->m->trace(e->fst.get(), 99);
    e->fst->open(path);
    if (!e->fst->isOpen()) {
        e->fst.reset();
        *err = "cannot create the FST file";
        return -1;
    }
    traces.open.insert(e);
    e->trace_origin = e->cycles;
    e->trace_start = e->cycles + start;
    e->trace_end = cycles && e->trace_start + cycles > e->trace_start ?
                   e->trace_start + cycles : UINT64_MAX;
    return 0;
#else
    (void)e;
    (void)path;
    (void)start;
    (void)cycles;
    *err = "this model library was built without tracing: use "
           "libopenenoc_rtl_trace.so (make cosim-trace)";
    return -1;
#endif
}

uint64_t oe_cosim_cycles(const OeEngine *e)
{
    return e->cycles;
}

void oe_engine_test_set_request_id(OeEngine *e, uint32_t next_id)
{
    root(e)->openenoc_endpoint_axi__DOT__u_ep__DOT__u_oetp__DOT__u_initiator__DOT__rid_q = next_id;
}

}  // extern "C"
