/*
 * openenoc: BAR0, the CSR aperture.
 *
 * BAR0 offset X is CSR offset X of the endpoint; 0x1F00..0x1FFF is the
 * shell's own identification block. A CSR access in the RMEM window may pend
 * until the remote endpoint answers (or the engine's timeout expires). The
 * access then blocks its caller without holding the big lock, so the answer
 * can arrive through the net backend:
 *
 * - on a vCPU thread (TCG) the thread sleeps on a condition variable with the
 *   BQL dropped; the main loop delivers the answer and the completion wakes
 *   it. Another vCPU's access meanwhile waits for its turn. It also wakes to
 *   let the VM stop: a vCPU cannot pause inside an MMIO access, so a stop
 *   request (stop, savevm, migration, quit) while it waits
 *   ends the access as failed (reads all ones) and the engine's completion,
 *   when it comes, is discarded.
 * - on the main-loop thread (-accel qtest: the qtest chardev handler makes
 *   the access) sleeping would deadlock, so the thread runs nested main-loop
 *   iterations until completion. The virtual clock stands still under qtest
 *   while the test waits for the access to return, so the device lets it
 *   follow the host clock for as long as the access is blocked, as it does
 *   for a stalled vCPU under TCG: a response timeout of N cycles then expires
 *   after N / clock-frequency seconds of host time.
 * - rmem_timeout = 0 with a silent peer waits forever, as the spec says. For
 *   fuzzing (QEMU's generic-fuzz runs every access on the main loop and
 *   cannot stop the VM), x-wait-limit-ms=N abandons a wait after N ms of
 *   host time as a stop request would: the access reads all ones.
 * - a window access made while an engine of this process is mid-call (a DMA
 *   of another openenoc device aimed at our BAR) must not wait, as waiting
 *   would run the main loop inside that engine call: it fails at once.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "hw/core/cpu.h"
#include "system/qtest.h"
#include "system/runstate.h"
#include "openenoc.h"
#include "openenoc/regs.h"
#include "trace.h"

static uint32_t openenoc_id_word(OpenenocState *s, hwaddr word)
{
    switch (word) {
    case ENOC_MODEL_MAGIC_OFF:
        return ENOC_MODEL_MAGIC;
    case ENOC_MODEL_VERSION_OFF:
        return OPENENOC_MODEL_VERSION;
    case ENOC_MODEL_CLOCK_OFF:
        return s->clock_hz;
    case ENOC_MODEL_ENGINE_OFF:
        return s->eng_is_rtl ? 1 : 0;
    default:
        return 0;
    }
}

static bool openenoc_in_rmem_window(hwaddr addr)
{
    return addr >= OE_RMEM && addr < OE_RMEM + OE_RMEM_SIZE;
}

typedef bool (*OpenenocWaitFor)(OpenenocState *s);

static bool openenoc_csr_idle(OpenenocState *s)
{
    return !s->csr_pending;
}

static bool openenoc_csr_finished(OpenenocState *s)
{
    return s->csr_done;
}

/*
 * Wait until done(s) holds. Returns false if the wait had to be given up
 * (the VM is stopping or QEMU is quitting).
 */
static bool openenoc_wait_expired(OpenenocState *s, int64_t start)
{
    return s->wait_limit_ms &&
           qemu_clock_get_ms(QEMU_CLOCK_REALTIME) - start >= s->wait_limit_ms;
}

static bool openenoc_wait(OpenenocState *s, OpenenocWaitFor done)
{
    int64_t start = qemu_clock_get_ms(QEMU_CLOCK_REALTIME);
    int64_t last;

    if (current_cpu && !qtest_enabled()) {
        MemReentrancyGuard *guard = &DEVICE(s)->mem_reentrancy_guard;
        bool engaged = guard->engaged_in_io;
        bool ok = true;

        /*
         * This thread leaves the device while it sleeps without the BQL: an
         * access from another vCPU meanwhile is concurrency, not re-entry,
         * and must queue behind us (csr_pending) instead of being refused.
         */
        guard->engaged_in_io = false;
        while (!done(s)) {
            if (current_cpu->stop || !runstate_is_running() ||
                openenoc_wait_expired(s, start)) {
                ok = false;
                break;
            }
            /* Wake now and then to notice a stop request. */
            qemu_cond_timedwait_bql(&s->csr_cond, 10);
        }
        guard->engaged_in_io = engaged;
        return ok;
    }

    last = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
    while (!done(s)) {
        if (qemu_shutdown_requested_get() || openenoc_wait_expired(s, start)) {
            return false;
        }
        main_loop_wait(false);
        if (qtest_enabled()) {
            int64_t now = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);

            qemu_clock_advance_virtual_time(
                qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) + (now - last));
            last = now;
        }
    }
    return true;
}

/*
 * One CSR access through the engine; returns the read data (or all ones
 * for a read that could not complete; a write's result is not used).
 *
 * csr_pending covers the whole access, from the call into the engine until
 * its owner has taken the result, so another vCPU waiting for its turn can
 * never start an access in between and steal or clear the completion. An
 * owner that gives up (VM stopping) leaves csr_abandoned for the completion
 * callback to end the access.
 */
static uint32_t openenoc_csr_access(OpenenocState *s, hwaddr addr,
                                    unsigned size, bool is_write,
                                    uint32_t value)
{
    bool nested = openenoc_engine_busy_anywhere();
    int64_t start;
    OeCsrStatus st;

    if (s->in_engine) {
        /* Cannot happen: the re-entrancy guard blocks our own DMA. */
        qemu_log_mask(LOG_GUEST_ERROR, "openenoc: CSR 0x%" HWADDR_PRIx
                      " accessed from inside the engine\n", addr);
        return UINT32_MAX;
    }
    if (nested && (s->csr_pending || openenoc_in_rmem_window(addr))) {
        qemu_log_mask(LOG_GUEST_ERROR, "openenoc: DMA to RMEM window or busy "
                      "CSR 0x%" HWADDR_PRIx " from another device refused\n",
                      addr);
        return UINT32_MAX;
    }
    if (openenoc_in_rmem_window(addr) && !runstate_is_running()) {
        /*
         * e.g. the monitor reading memory of a stopped VM: no frame can
         * leave, so the access could never complete
         */
        qemu_log_mask(LOG_GUEST_ERROR, "openenoc: RMEM window access at 0x%"
                      HWADDR_PRIx " while the VM is stopped refused\n", addr);
        return UINT32_MAX;
    }
    if (s->csr_pending && !openenoc_wait(s, openenoc_csr_idle)) {
        trace_openenoc_mmio_abandoned(addr, is_write);
        return UINT32_MAX;
    }

    s->csr_pending = true;
    s->csr_done = false;
    st = openenoc_engine_csr(s, addr, size, is_write, &value);

    if (st == OE_CSR_PENDING) {
        trace_openenoc_mmio_pending(addr, size, is_write);
        start = qemu_clock_get_ns(QEMU_CLOCK_REALTIME);
        if (!openenoc_wait(s, openenoc_csr_finished)) {
            /* the late completion ends the access (csr_complete) */
            s->csr_abandoned = true;
            trace_openenoc_mmio_abandoned(addr, is_write);
            return UINT32_MAX;
        }
        value = s->csr_value;
        trace_openenoc_mmio_complete(addr, value,
            qemu_clock_get_ns(QEMU_CLOCK_REALTIME) - start);
    }
    s->csr_pending = false;
    qemu_cond_broadcast(&s->csr_cond);  /* let a waiting vCPU go next */
    openenoc_net_rx_unblock(s);
    return value;
}

static uint64_t openenoc_mmio_read(void *opaque, hwaddr addr, unsigned size)
{
    OpenenocState *s = opaque;
    uint32_t val;

    if (addr >= OPENENOC_ID_BASE) {
        val = openenoc_id_word(s, addr & ~3) >> (8 * (addr & 3));
        val &= size == 4 ? UINT32_MAX : (1u << (8 * size)) - 1;
    } else {
        val = openenoc_csr_access(s, addr, size, false, 0);
    }
    trace_openenoc_mmio_read(addr, size, val);
    return val;
}

static void openenoc_mmio_write(void *opaque, hwaddr addr, uint64_t val,
                                unsigned size)
{
    OpenenocState *s = opaque;

    trace_openenoc_mmio_write(addr, size, val);
    if (addr >= OPENENOC_ID_BASE) {
        qemu_log_mask(LOG_GUEST_ERROR, "openenoc: write of 0x%" PRIx64
                      " to read-only ID block offset 0x%" HWADDR_PRIx "\n",
                      val, addr);
        return;
    }
    openenoc_csr_access(s, addr, size, true, val);
}

/*
 * 1-, 2- and 4-byte naturally aligned accesses; the memory core splits an
 * 8-byte access into two 4-byte ones.
 */
const MemoryRegionOps openenoc_mmio_ops = {
    .read = openenoc_mmio_read,
    .write = openenoc_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = {
        .min_access_size = 1,
        .max_access_size = 8,
        .unaligned = false,
    },
    .impl = {
        .min_access_size = 1,
        .max_access_size = 4,
    },
};
