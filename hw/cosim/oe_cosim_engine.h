/*
 * What the files of the RTL engine wrapper share (private to hw/cosim/):
 * the OeEngine behind include/openenoc/engine.h's handle and the helpers
 * one file defines for the others. The wrapper's design is described in
 * oe_cosim.cpp; its files are
 *   oe_cosim.cpp        the engine.h entry points, reset
 *   oe_cosim_run.cpp    the clock: one cycle on the ports, settling, leaving a call
 *   oe_cosim_csr.cpp    the AXI4-Lite master of the CSR aperture
 *   oe_cosim_state.cpp  migration state (oe_engine_save/load)
 *   oe_cosim_trace.cpp  FST waveforms (oe_cosim_trace)
 */
#ifndef OE_COSIM_ENGINE_H
#define OE_COSIM_ENGINE_H

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "Vopenenoc_endpoint_axi.h"
#include "Vopenenoc_endpoint_axi___024root.h"
#include "axi_mem_slave.h"
#include "verilated.h"
#ifdef OE_COSIM_TRACE
#include "verilated_fst_c.h"
#endif

#include "openenoc/engine.h"

/* The width of the model's Ethernet streams (the top's ETH_W, given to
 * Verilator as -GETH_W): 32 (the default library), 64, 128 or 256. */
#ifndef OE_COSIM_ETH_W
#define OE_COSIM_ETH_W 32
#endif
#if OE_COSIM_ETH_W != 32 && OE_COSIM_ETH_W != 64 && OE_COSIM_ETH_W != 128 && OE_COSIM_ETH_W != 256
#error "OE_COSIM_ETH_W must be 32, 64, 128 or 256"
#endif

namespace oe_cosim {

/* The AXI4-Lite master's transaction in flight: each channel's VALID is
 * held until its handshake. */
struct LiteXfer {
    bool aw = false, w = false, ar = false;
};

}  // namespace oe_cosim

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
    bool at_rest = false;                  // no cycle since settle found a fixed point
    bool irq_level = false;
    bool tx_open = true;                   // the host's tx_ready, asked at
                                           // each call and after each frame
    unsigned irq_msgs = 0;

    bool drive_due = true;                 // the state behind the model's inputs
                                           // changed: the next cycle drives them
    std::deque<std::vector<uint8_t>> rxq;  // frames to feed, each followed by
                                           // kRxPad zero bytes
    size_t rx_pos = 0;                     // bytes of rxq.front() fed
    std::vector<uint8_t> snap;             // the model after the last quiet cycle (fixed-point check)
    std::vector<uint8_t> txf;              // frame being transmitted: its first
    size_t tx_len = 0;                     // tx_len bytes
    std::unique_ptr<AxiMemSlave> mem;
    oe_cosim::LiteXfer lite;

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

namespace oe_cosim {

inline Vopenenoc_endpoint_axi___024root *root(OeEngine *e)
{
    return e->m->rootp;
}

/* oe_cosim_run.cpp */
/* Bytes of an Ethernet beat; as many zero bytes follow each queued frame:
 * a beat's bytes are read at once (an empty frame's one beat reads only
 * these), and the lanes past the frame's end carry zeros. */
const size_t kEthBytes = OE_COSIM_ETH_W / 8;
const size_t kRxPad = kEthBytes;
void ask_tx_ready(OeEngine *e);
bool cycle(OeEngine *e, uint32_t step);
void settle(OeEngine *e);
void leave(OeEngine *e);

/* oe_cosim_csr.cpp */
void csr_issue(OeEngine *e, uint32_t offset, unsigned size, bool is_read,
               uint32_t value);
OeCsrStatus csr_access(OeEngine *e, uint32_t offset, unsigned size,
                       bool is_read, uint32_t *value);

/* oe_cosim.cpp */
void ports_reset(OeEngine *e);
void hard_reset(OeEngine *e);

/* oe_cosim_trace.cpp; trace_dump runs twice a cycle, so it is inline */
#ifdef OE_COSIM_TRACE
void trace_close(OeEngine *e);

/* Dump half cycle `half` (0: clk low, 1: clk high) of the current cycle. */
inline void trace_dump(OeEngine *e, unsigned half)
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
inline void trace_dump(OeEngine *, unsigned) {}
#endif

}  // namespace oe_cosim

#endif
