/*
 * openenoc: the host side of the engine seam.
 *
 * The engine calls back into these operations from inside its own calls,
 * so none of them calls into the engine: frames are queued and sent or
 * delivered later from a bottom half, completions only record the value.
 * Every call into the engine is bracketed by openenoc_engine_enter/leave,
 * which (a) tells the engine what cycle it is, (b) engages the device's
 * memory re-entrancy guard so a DMA aimed at our own BARs fails instead of
 * re-entering the engine, and (c) lets work deferred during the call run
 * afterwards.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "system/dma.h"
#include "openenoc.h"
#include "trace.h"

/* Engines of all openenoc devices in this process that are mid-call. */
static unsigned openenoc_engines_busy;

bool openenoc_engine_busy_anywhere(void)
{
    return openenoc_engines_busy > 0;
}

uint64_t openenoc_cycles_now(OpenenocState *s)
{
    return muldiv64(qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), s->clock_hz,
                    NANOSECONDS_PER_SECOND);
}

/*
 * The per-frame paths below reach the parent objects through their fields:
 * a checked QOM cast per call showed up in the dgram profile.
 */
void openenoc_engine_enter(OpenenocState *s)
{
    DeviceState *dev = &s->parent_obj.qdev;
    uint64_t now;

    assert(!s->in_engine);
    s->in_engine = true;
    openenoc_engines_busy++;
    s->guard_saved = dev->mem_reentrancy_guard.engaged_in_io;
    dev->mem_reentrancy_guard.engaged_in_io = true;

    now = openenoc_cycles_now(s);
    if (now > s->eng.now(s->engine)) {
        s->eng.advance(s->engine, now);
    }
}

void openenoc_engine_leave(OpenenocState *s)
{
    DeviceState *dev = &s->parent_obj.qdev;

    assert(s->in_engine);
    dev->mem_reentrancy_guard.engaged_in_io = s->guard_saved;
    openenoc_engines_busy--;
    s->in_engine = false;
    /* Frames the call produced leave now that it has returned. */
    if (!QSIMPLEQ_EMPTY(&s->txq)) {
        openenoc_tx_flush(s);
    }
    if (s->bh_deferred) {
        s->bh_deferred = false;
        qemu_bh_schedule(s->bh);
    }
}

/* After a CSR access or a reset the engine may accept frames again. */
void openenoc_rx_unblock(OpenenocState *s)
{
    s->rx_engine_blocked = false;
    if (!QSIMPLEQ_EMPTY(&s->rxq) || s->rx_refused) {
        qemu_bh_schedule(s->bh);
    }
}

/* Run whatever is due in the engine, even if the cycle did not move. */
void openenoc_engine_kick(OpenenocState *s)
{
    openenoc_engine_enter(s);
    s->eng.advance(s->engine, MAX(openenoc_cycles_now(s),
                                  s->eng.now(s->engine)));
    openenoc_engine_leave(s);
}

/* Engine wake-up at the cycle it asked for. */
void openenoc_timer_cb(void *opaque)
{
    OpenenocState *s = opaque;

    if (s->in_engine) {
        /*
         * Never expected (no main loop runs inside an engine call), but
         * calls must not nest: retry a little later.
         */
        timer_mod(s->timer, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + SCALE_MS);
        return;
    }
    openenoc_engine_kick(s);
}

/* Memory: the engine's bus master is the PCI bus master. */
static OeMemStatus openenoc_mem_status(MemTxResult r)
{
    if (r == MEMTX_OK) {
        return OE_MEM_OK;
    }
    return r & MEMTX_DECODE_ERROR ? OE_MEM_DECERR : OE_MEM_SLVERR;
}

static OeMemStatus openenoc_mem_rw(OpenenocState *s, uint32_t addr, void *buf,
                                   uint32_t len, DMADirection dir)
{
    PCIDevice *pci = &s->parent_obj;
    OeMemStatus st;

    if (!(pci_get_word(pci->config + PCI_COMMAND) & PCI_COMMAND_MASTER)) {
        st = OE_MEM_DECERR;
    } else {
        st = openenoc_mem_status(pci_dma_rw(pci, addr, buf, len, dir,
                                            MEMTXATTRS_UNSPECIFIED));
    }
    if (dir == DMA_DIRECTION_TO_DEVICE) {
        trace_openenoc_dma_read(addr, len, st);
    } else {
        trace_openenoc_dma_write(addr, len, st);
    }
    if (st != OE_MEM_OK) {
        /* the guest (or a remote peer it admitted) aimed it there */
        qemu_log_mask(LOG_GUEST_ERROR, "openenoc: DMA %s of %u bytes at "
                      "0x%08x failed: %s\n",
                      dir == DMA_DIRECTION_TO_DEVICE ? "read" : "write", len,
                      addr, st == OE_MEM_DECERR ? "no target (DECERR)" :
                      "target error (SLVERR)");
    }
    return st;
}

static OeMemStatus openenoc_mem_read(void *opaque, uint32_t addr, void *buf,
                                     uint32_t len)
{
    return openenoc_mem_rw(opaque, addr, buf, len, DMA_DIRECTION_TO_DEVICE);
}

static OeMemStatus openenoc_mem_write(void *opaque, uint32_t addr,
                                      const void *buf, uint32_t len)
{
    return openenoc_mem_rw(opaque, addr, (void *)buf, len,
                           DMA_DIRECTION_FROM_DEVICE);
}

static void openenoc_tx_frame(void *opaque, const uint8_t *frame, size_t len)
{
    openenoc_queue_tx(opaque, frame, len);
}

static bool openenoc_tx_ready(void *opaque)
{
    OpenenocState *s = opaque;

    if (openenoc_tx_ready_now(s)) {
        return true;
    }
    s->tx_throttled = true;
    return false;
}

/*
 * The engine reports rising edges (and one more true per completion that
 * leaves the FIFO non-empty) and falling edges: a message per true with
 * MSI-X or MSI, the level itself on INTx.
 */
static void openenoc_set_irq(void *opaque, bool level)
{
    OpenenocState *s = opaque;
    PCIDevice *pci = PCI_DEVICE(s);

    s->irq_level = level;
    if (msix_enabled(pci)) {
        trace_openenoc_irq(level, "msix");
        if (level) {
            msix_notify(pci, 0);
        }
    } else if (msi_enabled(pci)) {
        trace_openenoc_irq(level, "msi");
        if (level) {
            msi_notify(pci, 0);
        }
    } else {
        trace_openenoc_irq(level, "intx");
        pci_set_irq(pci, level);
    }
}

static void openenoc_csr_complete(void *opaque, uint32_t value)
{
    OpenenocState *s = opaque;

    s->csr_value = value;
    s->csr_done = true;
    if (s->csr_abandoned) {
        /* nobody waits for this one any more */
        s->csr_abandoned = false;
        s->csr_pending = false;
    }
    qemu_cond_broadcast(&s->csr_cond);
}

static void openenoc_arm_timer(void *opaque, uint64_t cycle)
{
    OpenenocState *s = opaque;
    uint64_t ns;

    if (cycle == OE_TIMER_NONE) {
        trace_openenoc_timer(cycle, -1);
        timer_del(s->timer);
        return;
    }
    if (cycle <= openenoc_cycles_now(s)) {
        /*
         * "At once" (more work to do) runs from the bottom half, in the
         * next main-loop iteration. A timer at the current time would run
         * again in the same pass over the timer list whenever the clock
         * stands still (qtest, icount), so a long operation would starve
         * everything else, register reads included, until it ended.
         */
        trace_openenoc_timer(cycle, 0);
        timer_del(s->timer);
        s->again = true;
        qemu_bh_schedule(s->bh);
        return;
    }
    if (cycle / s->clock_hz >= (uint64_t)INT64_MAX / NANOSECONDS_PER_SECOND) {
        ns = INT64_MAX;     /* beyond any run: never */
    } else {
        /* First nanosecond at which the cycle count reaches `cycle`. */
        ns = muldiv64(cycle, NANOSECONDS_PER_SECOND, s->clock_hz);
        if (muldiv64(ns, s->clock_hz, NANOSECONDS_PER_SECOND) < cycle) {
            ns++;
        }
    }
    trace_openenoc_timer(cycle, ns);
    timer_mod(s->timer, ns);
}

const OeHostOps openenoc_host_ops = {
    .mem_read = openenoc_mem_read,
    .mem_write = openenoc_mem_write,
    .tx_frame = openenoc_tx_frame,
    .tx_ready = openenoc_tx_ready,
    .set_irq = openenoc_set_irq,
    .csr_complete = openenoc_csr_complete,
    .arm_timer = openenoc_arm_timer,
};
