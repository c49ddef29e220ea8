/*
 * Engine lifecycle, the host entry points and the scheduler that runs after
 * each of them.
 *
 * Every entry point ends in engine_leave(), which lets the controllers make
 * progress (deliver held IRQ notifications, accept software requests, start
 * locally initiated frames) and then tells the host when to call again. At
 * most one locally initiated frame is started per host call: a long
 * multicast block or a stream of raw frames is cut into host-scheduled steps
 * (arm_timer at the current cycle), which bounds the work done inside one
 * call and lets the host interleave delivery to the other endpoints.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "openenoc/engine_config.h"

static void engine_enter(OeEngine *e)
{
    /* A nested call is a host bug (engine.h): catch it in debug builds. */
    assert(!e->in_call);
    e->in_call = true;
    e->tx_budget = 1;
    e->again = false;
}

/* Start at most tx_budget locally initiated frames, alternating fairly
 * between oETP initiator traffic, raw DMA TX and the direct stream. */
static void engine_transmit(OeEngine *e)
{
    typedef bool (*StepFn)(OeEngine *);
    static const StepFn steps[3] = {
        oe_initiator_step, oe_raw_tx_step, oe_direct_tx_step,
    };
    while (e->tx_budget > 0) {
        bool progressed = false;
        for (unsigned i = 0; i < 3 && !progressed; i++) {
            unsigned cls = (e->tx_rr + i) % 3;
            if (steps[cls](e)) {
                progressed = true;
                e->tx_rr = (uint8_t)((cls + 1) % 3);
            }
        }
        if (!progressed) {
            return;
        }
    }
}

static void engine_schedule(OeEngine *e)
{
    uint64_t when = OE_TIMER_NONE;

    if (e->again) {
        when = e->now;
    } else if (e->init.kind != OE_INIT_NONE &&
               e->init.deadline != OE_NO_DEADLINE) {
        /* A reply at the deadline cycle still wins: expire one cycle on. */
        when = e->init.deadline + 1;
    }
    if (when != e->armed) {
        e->armed = when;
        if (e->ops.arm_timer) {
            e->ops.arm_timer(e->opaque, when);
        }
    }
}

/* Deliver held notifications and let each controller take the command
 * bits software left in the register store, as far as the IRQ controller can
 * admit them. This is the only way a register write reaches a controller
 * other than the IRQ controller. When credits are short they go in this
 * fixed order (the spec leaves it open; the RTL's IRQ controller grants the
 * same one): peer DMA blocks, RMEM error events, the responder's held
 * notification, raw TX, raw RX, direct TX, the direct sink. */
static void engine_accept(OeEngine *e)
{
    oe_peer_dma_accept(e);
    oe_deliver_rmem_events(e);
    oe_responder_deliver_notification(e);
    oe_raw_accept(e);
    oe_direct_accept(e);
    oe_direct_sink_accept(e);
}

static void engine_leave(OeEngine *e)
{
    engine_accept(e);
    engine_transmit(e);
    /* Transmitting can end work without any frame coming back (a group
     * fragment, a failed source read): accept what that unblocked, and
     * come back for it if the budget is spent. */
    engine_accept(e);
    if ((oe_initiator_has_work(e) || oe_raw_has_work(e)) && oe_tx_ready(e)) {
        e->again = true;   /* a saturated host calls advance when ready */
    }
    oe_irq_update_level(e, false);
    engine_schedule(e);
    e->in_call = false;
}

bool oe_tx_ready(OeEngine *e)
{
    return !e->ops.tx_ready || e->ops.tx_ready(e->opaque);
}

void oe_tx(OeEngine *e, const uint8_t *frame, size_t len)
{
    e->ops.tx_frame(e->opaque, frame, len);
}

uint32_t oe_alloc_rid(OeEngine *e)
{
    return e->next_rid++;   /* wraps naturally at 2^32 */
}

uint64_t oe_local_mac(const OeEngine *e)
{
    return oe_reg_mac(e, OE_CONFIG_MAC_ADDRESS);
}

static void engine_hard_reset(OeEngine *e)
{
    if (e->rmem.valid) {
        /* Release a CPU blocked on the window: reset ends every access. */
        e->rmem.valid = false;
        if (e->ops.csr_complete) {
            e->ops.csr_complete(e->opaque, 0xFFFFFFFFu);
        }
    }
    e->next_rid = 0;
    e->tx_rr = 0;
    e->peer_rr = 0;
    e->again = false;
    memset(&e->init, 0, sizeof(e->init));
    memset(&e->rmem, 0, sizeof(e->rmem));
    memset(e->peer, 0, sizeof(e->peer));
    for (unsigned n = 0; n < OE_NUM_PEERS; n++) {
        e->peer[n].st.idle = true;
    }
    e->resp_notify_pending = false;
    memset(&e->raw_tx, 0, sizeof(e->raw_tx));
    memset(&e->raw_rx, 0, sizeof(e->raw_rx));
    e->raw_tx.st.idle = true;
    e->raw_rx.st.idle = true;
    memset(&e->dtx, 0, sizeof(e->dtx));
    e->drx.used = e->drx.payload = e->drx.nframes = e->drx.pos = 0;
    e->drx.head_visible = false;
    oe_store_reset(e);
    oe_irq_reset(e);
}

OeEngine *oe_engine_new(const OeHostOps *ops, void *opaque,
                        const OeEngineConfig *cfg, const char **err)
{
    OeEngineSettings set;

    if (!oe_engine_config_resolve(ops, cfg, &set, err)) {
        return NULL;
    }
    OeEngine *e = calloc(1, sizeof(*e));
    if (!e) {
        if (err) {
            *err = "out of memory";
        }
        return NULL;
    }
    e->ops = *ops;
    e->opaque = opaque;
    e->max_frame = set.max_frame;
    e->frag_ceiling = set.frag_ceiling;
    e->reset_mac = set.reset_mac;
    e->mem_beat = set.mem_beat ? set.mem_beat : 4;
    e->armed = OE_TIMER_NONE;
    engine_hard_reset(e);
    return e;
}

void oe_engine_free(OeEngine *e)
{
    free(e);
}

void oe_engine_reset(OeEngine *e)
{
    engine_enter(e);
    bool was_high = e->irq.level;
    engine_hard_reset(e);
    e->irq.level = was_high;   /* let update_level report the falling edge */
    engine_leave(e);
}

void oe_engine_rx_frame(OeEngine *e, const uint8_t *frame, size_t len)
{
    engine_enter(e);
    oe_rx_frame(e, frame, len);
    engine_leave(e);
}

bool oe_engine_can_receive(const OeEngine *e)
{
    return oe_direct_sink_has_room(e);
}

void oe_engine_advance(OeEngine *e, uint64_t now)
{
    engine_enter(e);
    if (now > e->now) {
        e->now = now;
    }
    if (e->armed != OE_TIMER_NONE && e->now >= e->armed) {
        e->armed = OE_TIMER_NONE;   /* the host's wake-up is spent */
    }
    if (e->init.kind != OE_INIT_NONE && e->init.deadline != OE_NO_DEADLINE &&
        e->now > e->init.deadline) {
        oe_initiator_timeout(e);
    }
    engine_leave(e);
}

uint64_t oe_engine_now(const OeEngine *e)
{
    return e->now;
}

void oe_engine_test_set_request_id(OeEngine *e, uint32_t next_id)
{
    e->next_rid = next_id;
}

/* CSR entry points: decode lives in csr.c; these add the scheduling. */

/*
 * An RMEM window access that finishes inside the call that issued it (a
 * failed check, a group write that left at once) is returned as DONE here,
 * the one place that does it, rather than through csr_complete(), which the
 * host expects only after PENDING.
 */
static OeCsrStatus csr_access(OeEngine *e, uint32_t offset, unsigned size,
                              bool is_write, uint32_t *value)
{
    engine_enter(e);
    e->rmem_sync = true;
    e->rmem_sync_done = false;
    OeCsrStatus st = is_write ? oe_csr_write(e, offset, size, *value)
                              : oe_csr_read(e, offset, size, value);
    engine_leave(e);
    e->rmem_sync = false;
    if (st == OE_CSR_PENDING && e->rmem_sync_done) {
        st = OE_CSR_DONE;
        if (!is_write) {
            *value = e->rmem_sync_value;
        }
    }
    return st;
}

OeCsrStatus oe_engine_csr_read(OeEngine *e, uint32_t offset, unsigned size,
                               uint32_t *value)
{
    return csr_access(e, offset, size, false, value);
}

OeCsrStatus oe_engine_csr_write(OeEngine *e, uint32_t offset, unsigned size,
                                uint32_t value)
{
    return csr_access(e, offset, size, true, &value);
}
