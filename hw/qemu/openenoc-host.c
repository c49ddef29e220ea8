/*
 * openenoc: the engine call boundary.
 *
 * Every call into the engine is made from this file, bracketed by
 * openenoc_engine_enter/leave, which (a) tells the engine what cycle it is,
 * (b) engages the device's memory re-entrancy guard so a DMA aimed at our
 * own BARs fails instead of re-entering the engine, and (c) sends the
 * frames the call produced once it has returned and lets work deferred
 * during the call run afterwards. The callers: the CSR accesses of
 * openenoc-mmio.c, reset and migration, frames from the net layer, the
 * engine's wake-up timer and the bottom half.
 *
 * The engine calls back into the host operations below from inside its own
 * calls, so none of them calls into the engine: frames are queued by
 * openenoc-net.c and sent or delivered later, completions only record the
 * value. This file uses openenoc-net.c (frame queues, backend, pacing);
 * openenoc-net.c never calls back here: it wakes the bottom half.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "system/dma.h"
#include "openenoc.h"
#include "trace.h"

#define OPENENOC_BH_BUDGET      256    /* frames delivered per BH run */
#define OPENENOC_BH_BUDGET_NS   (2 * SCALE_MS) /* and host time per BH run */

/* Engines of all openenoc devices in this process that are mid-call. */
static unsigned openenoc_engines_busy;

bool openenoc_engine_busy_anywhere(void)
{
    return openenoc_engines_busy > 0;
}

static uint64_t openenoc_cycles_now(OpenenocState *s)
{
    return muldiv64(qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL), s->clock_hz,
                    NANOSECONDS_PER_SECOND);
}

/*
 * The per-frame paths below reach the parent objects through their fields:
 * a checked QOM cast per call showed up in the dgram profile.
 */
static void openenoc_engine_enter(OpenenocState *s)
{
    DeviceState *dev = &s->parent_obj.qdev;
    uint64_t now;

    assert(!s->in_engine);
    s->in_engine = true;
    openenoc_engines_busy++;
    s->guard_saved = dev->mem_reentrancy_guard.engaged_in_io;
    dev->mem_reentrancy_guard.engaged_in_io = true;
    if (trace_event_get_state_backends(TRACE_OPENENOC_ENGINE_CALL)) {
        s->call_ns = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
        s->call_cycles = s->eng.cycles ? s->eng.cycles(s->engine) : 0;
    }

    now = openenoc_cycles_now(s);
    if (now > s->eng.now(s->engine)) {
        s->eng.advance(s->engine, now);
    }
}

static void openenoc_engine_leave(OpenenocState *s)
{
    DeviceState *dev = &s->parent_obj.qdev;

    assert(s->in_engine);
    if (trace_event_get_state_backends(TRACE_OPENENOC_ENGINE_CALL)) {
        trace_openenoc_engine_call(
            s->eng.cycles ? s->eng.cycles(s->engine) - s->call_cycles : 0,
            qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - s->call_ns);
    }
    dev->mem_reentrancy_guard.engaged_in_io = s->guard_saved;
    openenoc_engines_busy--;
    s->in_engine = false;
    /* Frames the call produced leave now that it has returned. */
    if (!QSIMPLEQ_EMPTY(&s->txq)) {
        openenoc_net_tx_flush(s);
    }
    if (s->bh_deferred) {
        s->bh_deferred = false;
        qemu_bh_schedule(s->bh);
    }
}

/* One CSR access; OE_CSR_PENDING: csr_complete() gives the result later. */
OeCsrStatus openenoc_engine_csr(OpenenocState *s, uint32_t offset,
                                unsigned size, bool is_write, uint32_t *value)
{
    OeCsrStatus st;

    openenoc_engine_enter(s);
    if (is_write) {
        st = s->eng.csr_write(s->engine, offset, size, *value);
    } else {
        st = s->eng.csr_read(s->engine, offset, size, value);
    }
    openenoc_engine_leave(s);
    return st;
}

/* The endpoint's hard reset; work the engine asked for is forgotten. */
void openenoc_engine_reset(OpenenocState *s)
{
    timer_del(s->timer);
    s->again = false;
    openenoc_engine_enter(s);
    s->eng.reset(s->engine);
    openenoc_engine_leave(s);
}

/* The engine's state as a new buffer; 0 if it changed size meanwhile. */
size_t openenoc_engine_save(OpenenocState *s, uint8_t **buf)
{
    size_t n, len;

    openenoc_engine_enter(s);
    n = s->eng.save(s->engine, NULL, 0);
    *buf = g_malloc(n);
    len = s->eng.save(s->engine, *buf, n);
    openenoc_engine_leave(s);
    return len == n ? n : 0;
}

bool openenoc_engine_load(OpenenocState *s, const uint8_t *buf, size_t len)
{
    bool ok;

    openenoc_engine_enter(s);
    ok = s->eng.load(s->engine, buf, len) == 0;
    openenoc_engine_leave(s);
    return ok;
}

/*
 * Hand one received frame to the engine. False if the engine cannot take
 * it: only a CSR access or a reset can make room again (rx_unblock).
 */
static bool openenoc_engine_rx(OpenenocState *s, const uint8_t *frame,
                               size_t len)
{
    bool ok;

    openenoc_engine_enter(s);
    ok = s->eng.can_receive(s->engine);
    if (ok) {
        s->eng.rx_frame(s->engine, frame, len);
    } else {
        trace_openenoc_rx_blocked(s->rxq_len);
        s->rx_engine_blocked = true;
    }
    openenoc_engine_leave(s);
    return ok;
}

/* Run whatever is due in the engine, even if the cycle did not move. */
static void openenoc_engine_kick(OpenenocState *s)
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

/*
 * Deliver queued frames, within a budget of frames and of host time: an
 * engine may take long per frame (the RTL model takes milliseconds), and
 * the main loop must keep serving everything else meanwhile.
 */
static void openenoc_rx_drain(OpenenocState *s)
{
    int64_t end = qemu_clock_get_ns(QEMU_CLOCK_REALTIME) +
                  OPENENOC_BH_BUDGET_NS;
    unsigned budget = OPENENOC_BH_BUDGET;
    OpenenocFrame *f;

    while (!s->rx_engine_blocked && !QSIMPLEQ_EMPTY(&s->rxq)) {
        if (!budget-- || qemu_clock_get_ns(QEMU_CLOCK_REALTIME) > end) {
            qemu_bh_schedule(s->bh);    /* let the main loop breathe */
            return;
        }
        /* off the queue first: the engine's answer may come back at once */
        f = openenoc_net_rx_take(s);
        if (!openenoc_engine_rx(s, f->data, f->len)) {
            openenoc_net_rx_untake(s, f);
            break;
        }
        g_free(f);
    }
    openenoc_net_rx_resume(s);
}

/*
 * Deferred work: deliver received frames, send queued ones, kick the engine
 * when transmission can resume or when it asked to be called again.
 */
void openenoc_bh(void *opaque)
{
    OpenenocState *s = opaque;

    if (s->in_engine) {
        s->bh_deferred = true;      /* openenoc_engine_leave reschedules */
        return;
    }
    if (!runstate_is_running()) {
        return;                     /* resumed by openenoc_vm_state_change */
    }
    openenoc_rx_drain(s);
    openenoc_net_tx_flush(s);
    if (openenoc_net_tx_resumed(s)) {
        s->again = true;
    }
    if (s->again) {
        s->again = false;
        openenoc_engine_kick(s);
    }
}

/*
 * A frame from the net layer goes straight into the engine when that is
 * safe (openenoc-net.c says when), otherwise it waits in rxq for the bottom
 * half.
 */
static ssize_t openenoc_receive(NetClientState *nc, const uint8_t *buf,
                                size_t size)
{
    OpenenocState *s = qemu_get_nic_opaque(nc);

    if (!openenoc_net_can_receive(nc)) {
        return 0;                   /* the net layer queues it for us */
    }
    if (!openenoc_net_rx_direct(s, buf, size) ||
        !openenoc_engine_rx(s, buf, size)) {
        openenoc_net_rx_queue(s, buf, size);
    }
    return size;
}

NetClientInfo openenoc_net_info = {
    .type = NET_CLIENT_DRIVER_NIC,
    .size = sizeof(NICState),
    .can_receive = openenoc_net_can_receive,
    .receive = openenoc_receive,
};

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

static const OeHostOps openenoc_host_ops = {
    .mem_read = openenoc_mem_read,
    .mem_write = openenoc_mem_write,
    .tx_frame = openenoc_net_tx_frame,
    .tx_ready = openenoc_net_tx_ready,
    .set_irq = openenoc_set_irq,
    .csr_complete = openenoc_csr_complete,
    .arm_timer = openenoc_arm_timer,
};

bool openenoc_engine_create(OpenenocState *s, const OeEngineConfig *cfg,
                            Error **errp)
{
    const char *why = NULL;

    s->engine = s->eng.create(&openenoc_host_ops, s, cfg, &why);
    if (!s->engine) {
        error_setg(errp, "openenoc: the engine refused its configuration: %s",
                   why ? why : "no reason given");
        return false;
    }
    return true;
}

void openenoc_engine_free(OpenenocState *s)
{
    s->eng.destroy(s->engine);
    s->engine = NULL;
}
