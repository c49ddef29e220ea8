/*
 * filter-fault: a net filter that injects link faults into any netdev.
 *
 *   -object filter-fault,id=f0,netdev=n0,drop=50,duplicate=10,reorder=10,
 *           delay-us=200,jitter-us=100,seed=7,queue=all
 *
 * One pseudo-random draw per frame (seeded: the same seed and the same
 * frames give the same faults) decides at most one of drop, duplicate and
 * reorder, each in per mille; so their sum is at most 1000. A reordered
 * frame is held and released right after the next frame of the same
 * direction. Then a frame that goes on waits delay-us plus a uniform
 * 0..jitter-us on the virtual clock (the clock of guest timeouts): every
 * frame, or the `delay` per mille of them; frames keep their order (one
 * that need not wait still leaves after those queued before it). A
 * corrupted frame would fail the receiving MAC's FCS check and be dropped,
 * so drop covers corruption.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "net/filter.h"
#include "net/net.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/iov.h"
#include "qemu/queue.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "qom/object.h"
#include "trace.h"

#define TYPE_FILTER_FAULT "filter-fault"
OBJECT_DECLARE_SIMPLE_TYPE(FilterFaultState, FILTER_FAULT)

#define FAULT_PER_MILLE     1000u
#define FAULT_MAX_DELAY_US  (60u * 1000 * 1000)
/*
 * Frames waiting in the delay queue beyond this are dropped (and counted):
 * a flood into a long delay must not eat the host's memory.
 */
#define FAULT_MAX_QUEUED    (16 * MiB)

typedef struct FaultFrame {
    QTAILQ_ENTRY(FaultFrame) next;
    int64_t release_ns;
    NetFilterDirection dir;
    unsigned flags;
    size_t len;
    uint8_t data[];
} FaultFrame;

/* Read-only counters, one QOM property each (qom-get). */
typedef enum FaultStat {
    FAULT_STAT_FRAMES,
    FAULT_STAT_DROPPED,
    FAULT_STAT_DUPLICATED,
    FAULT_STAT_REORDERED,
    FAULT_STAT_DELAYED,
    FAULT_STAT_OVERFLOWED,
    FAULT_STAT__MAX,
} FaultStat;

static const char *const fault_stat_names[FAULT_STAT__MAX] = {
    [FAULT_STAT_FRAMES] = "frames",
    [FAULT_STAT_DROPPED] = "dropped",
    [FAULT_STAT_DUPLICATED] = "duplicated",
    [FAULT_STAT_REORDERED] = "reordered",
    [FAULT_STAT_DELAYED] = "delayed",
    [FAULT_STAT_OVERFLOWED] = "overflowed",
};

static const char *const fault_stat_help[FAULT_STAT__MAX] = {
    [FAULT_STAT_FRAMES] = "read-only: frames seen by the filter",
    [FAULT_STAT_DROPPED] = "read-only: frames dropped",
    [FAULT_STAT_DUPLICATED] = "read-only: frames sent twice",
    [FAULT_STAT_REORDERED] = "read-only: frames held and sent after the "
                             "next one",
    [FAULT_STAT_DELAYED] = "read-only: frames that waited in the delay "
                           "queue",
    [FAULT_STAT_OVERFLOWED] = "read-only: frames dropped because the delay "
                              "queue was full (16 MiB)",
};

struct FilterFaultState {
    NetFilterState parent_obj;

    /* properties */
    uint32_t drop;
    uint32_t duplicate;
    uint32_t reorder;
    uint32_t delay;
    uint32_t delay_us;
    uint32_t jitter_us;
    uint64_t seed;

    uint64_t rng;
    /* reorder: the held frame, per direction (indexed by NetFilterDirection) */
    FaultFrame *held[NET_FILTER_DIRECTION__MAX];
    QTAILQ_HEAD(, FaultFrame) queue;    /* delayed frames, release order */
    size_t queued_bytes;
    int64_t last_release_ns[NET_FILTER_DIRECTION__MAX];
    QEMUTimer *timer;
    uint64_t stats[FAULT_STAT__MAX];
};

/* splitmix64: small, fast, and every seed (0 too) gives a full sequence */
static uint64_t fault_rand(FilterFaultState *s)
{
    uint64_t z = (s->rng += 0x9E3779B97F4A7C15ull);

    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static const char *fault_dir_name(NetFilterDirection dir)
{
    return dir == NET_FILTER_DIRECTION_TX ? "tx" : "rx";
}

static const char *fault_id(FilterFaultState *s)
{
    return object_get_canonical_path_component(OBJECT(s)) ?: "";
}

/*
 * The sender of a frame of this direction, found again when the frame is
 * released rather than remembered: the guest's NIC may have been unplugged
 * while the frame waited (the netdev itself takes its filters with it).
 */
static NetClientState *fault_sender(FilterFaultState *s, NetFilterDirection dir)
{
    NetClientState *nc = NETFILTER(s)->netdev;

    return dir == NET_FILTER_DIRECTION_TX ? nc : nc->peer;
}

/*
 * Frames this filter sends itself carry no completion callback, so they do
 * not stop their sender when the receiver is full: they wait in the
 * receiver's queue, and QEMU's queue delivers a new frame before the queued
 * ones as soon as the receiver has room. When it has, deliver what waits
 * first, so that no fault other than reorder changes the order of frames.
 */
static void fault_flush(NetClientState *sender)
{
    if (sender && sender->peer && qemu_can_send_packet(sender)) {
        qemu_net_queue_flush(sender->peer->incoming_queue);
    }
}

static void fault_pass(FilterFaultState *s, NetFilterDirection dir,
                       unsigned flags, const struct iovec *iov, int iovcnt)
{
    NetClientState *sender = fault_sender(s, dir);

    if (sender) {
        fault_flush(sender);
        qemu_netfilter_pass_to_next(sender, flags, iov, iovcnt, s);
    }
}

static FaultFrame *fault_copy(NetFilterDirection dir, unsigned flags,
                              const struct iovec *iov, int iovcnt)
{
    size_t len = iov_size(iov, iovcnt);
    FaultFrame *f = g_malloc(sizeof(*f) + len);

    f->dir = dir;
    f->flags = flags;
    f->len = len;
    iov_to_buf(iov, iovcnt, 0, f->data, len);
    return f;
}

static void fault_arm(FilterFaultState *s)
{
    FaultFrame *f = QTAILQ_FIRST(&s->queue);

    if (f) {
        timer_mod(s->timer, f->release_ns);
    } else {
        timer_del(s->timer);
    }
}

/*
 * How long the next frame waits: delay-us + 0..jitter-us, for the delay
 * per mille of frames that are picked to wait; 0 for the others.
 */
static int64_t fault_wait_ns(FilterFaultState *s)
{
    int64_t ns;

    if (!s->delay_us && !s->jitter_us) {
        return 0;
    }
    if (s->delay < FAULT_PER_MILLE &&
        fault_rand(s) % FAULT_PER_MILLE >= s->delay) {
        return 0;
    }
    ns = (int64_t)s->delay_us * SCALE_US;
    if (s->jitter_us) {
        ns += (int64_t)(fault_rand(s) % (s->jitter_us + 1ull)) * SCALE_US;
    }
    return ns;
}

/* Send a frame on now, or through the delay queue after wait_ns. */
static void fault_emit(FilterFaultState *s, NetFilterDirection dir,
                       unsigned flags, const struct iovec *iov, int iovcnt,
                       int64_t wait_ns)
{
    size_t len = iov_size(iov, iovcnt);
    int64_t now;
    FaultFrame *f;

    if (!wait_ns && QTAILQ_EMPTY(&s->queue)) {
        fault_pass(s, dir, flags, iov, iovcnt);
        return;
    }
    if (s->queued_bytes + len > FAULT_MAX_QUEUED) {
        s->stats[FAULT_STAT_OVERFLOWED]++;
        trace_filter_fault_overflow(fault_id(s), fault_dir_name(dir), len);
        return;
    }
    now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    f = fault_copy(dir, flags, iov, iovcnt);
    /* never before an earlier frame: delay does not reorder */
    f->release_ns = MAX(now + wait_ns, s->last_release_ns[dir]);
    s->last_release_ns[dir] = f->release_ns;
    QTAILQ_INSERT_TAIL(&s->queue, f, next);
    s->queued_bytes += len;
    s->stats[FAULT_STAT_DELAYED] += wait_ns > 0;
    trace_filter_fault_delay(fault_id(s), fault_dir_name(dir), len,
                             f->release_ns - now);
    if (f == QTAILQ_FIRST(&s->queue)) {
        fault_arm(s);
    }
}

static void fault_emit_frame(FilterFaultState *s, FaultFrame *f)
{
    struct iovec iov = { .iov_base = f->data, .iov_len = f->len };

    fault_emit(s, f->dir, f->flags, &iov, 1, fault_wait_ns(s));
}

/* Release every delayed frame whose time has come (or all of them). */
static void fault_release(FilterFaultState *s, bool all)
{
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    FaultFrame *f;

    /*
     * Passing a frame on may bring a reply into this filter (a device
     * answering at once): take each frame off the queue before passing.
     */
    while ((f = QTAILQ_FIRST(&s->queue)) && (all || f->release_ns <= now)) {
        struct iovec iov = { .iov_base = f->data, .iov_len = f->len };

        QTAILQ_REMOVE(&s->queue, f, next);
        s->queued_bytes -= f->len;
        fault_pass(s, f->dir, f->flags, &iov, 1);
        g_free(f);
    }
    fault_arm(s);
}

static void fault_timer_cb(void *opaque)
{
    fault_release(opaque, false);
}

static ssize_t filter_fault_receive_iov(NetFilterState *nf,
                                        NetClientState *sender,
                                        unsigned flags,
                                        const struct iovec *iov,
                                        int iovcnt,
                                        NetPacketSent *sent_cb)
{
    FilterFaultState *s = FILTER_FAULT(nf);
    size_t len = iov_size(iov, iovcnt);
    NetFilterDirection dir = nf->direction;
    uint32_t r = fault_rand(s) % FAULT_PER_MILLE;
    bool dup = false;
    FaultFrame *held;
    int64_t wait_ns;

    if (dir == NET_FILTER_DIRECTION_ALL) {
        dir = sender == nf->netdev ? NET_FILTER_DIRECTION_TX
                                   : NET_FILTER_DIRECTION_RX;
    }
    s->stats[FAULT_STAT_FRAMES]++;
    fault_flush(sender);
    if (r < s->drop) {
        s->stats[FAULT_STAT_DROPPED]++;
        trace_filter_fault_drop(fault_id(s), fault_dir_name(dir), len);
        return len;
    }
    r -= s->drop;
    if (r < s->duplicate) {
        dup = true;
        s->stats[FAULT_STAT_DUPLICATED]++;
        trace_filter_fault_duplicate(fault_id(s), fault_dir_name(dir), len);
    } else if (r - s->duplicate < s->reorder && !s->held[dir]) {
        /* held until the next frame of this direction has gone */
        s->held[dir] = fault_copy(dir, flags, iov, iovcnt);
        s->stats[FAULT_STAT_REORDERED]++;
        trace_filter_fault_hold(fault_id(s), fault_dir_name(dir), len);
        return len;
    }

    held = s->held[dir];
    s->held[dir] = NULL;
    wait_ns = fault_wait_ns(s);
    if (!dup && !held && !wait_ns && QTAILQ_EMPTY(&s->queue)) {
        return 0;       /* untouched: on through the chain, flow control kept */
    }
    fault_emit(s, dir, flags, iov, iovcnt, wait_ns);
    if (dup) {
        fault_emit(s, dir, flags, iov, iovcnt, fault_wait_ns(s));
    }
    if (held) {
        trace_filter_fault_release(fault_id(s), fault_dir_name(dir),
                                   held->len);
        fault_emit_frame(s, held);
        g_free(held);
    }
    return len;
}

/* Turned off: nothing may stay behind, so send everything held now. */
static void filter_fault_status_changed(NetFilterState *nf, Error **errp)
{
    FilterFaultState *s = FILTER_FAULT(nf);

    if (nf->on) {
        return;
    }
    for (int d = 0; d < NET_FILTER_DIRECTION__MAX; d++) {
        FaultFrame *f = s->held[d];

        if (f) {
            struct iovec iov = { .iov_base = f->data, .iov_len = f->len };

            s->held[d] = NULL;
            fault_pass(s, f->dir, f->flags, &iov, 1);
            g_free(f);
        }
    }
    fault_release(s, true);
}

static void filter_fault_setup(NetFilterState *nf, Error **errp)
{
    FilterFaultState *s = FILTER_FAULT(nf);

    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, fault_timer_cb, s);
}

/*
 * Removed (or its netdev is): frames still held are lost, as on a cable
 * being pulled; the netdev may be half gone, so nothing is sent.
 */
static void filter_fault_cleanup(NetFilterState *nf)
{
    FilterFaultState *s = FILTER_FAULT(nf);
    FaultFrame *f, *tmp;

    if (s->timer) {
        timer_free(s->timer);
        s->timer = NULL;
    }
    for (int d = 0; d < NET_FILTER_DIRECTION__MAX; d++) {
        g_free(s->held[d]);
        s->held[d] = NULL;
    }
    QTAILQ_FOREACH_SAFE(f, &s->queue, next, tmp) {
        QTAILQ_REMOVE(&s->queue, f, next);
        g_free(f);
    }
    s->queued_bytes = 0;
}

/* The uint32 properties, found by their offset in the state. */
static uint32_t *fault_field(Object *obj, void *opaque)
{
    return (uint32_t *)((char *)obj + (uintptr_t)opaque);
}

static void fault_get_u32(Object *obj, Visitor *v, const char *name,
                          void *opaque, Error **errp)
{
    visit_type_uint32(v, name, fault_field(obj, opaque), errp);
}

static void fault_set_per_mille(Object *obj, Visitor *v, const char *name,
                                void *opaque, Error **errp)
{
    FilterFaultState *s = FILTER_FAULT(obj);
    uint32_t *field = fault_field(obj, opaque);
    uint32_t value, sum;

    if (!visit_type_uint32(v, name, &value, errp)) {
        return;
    }
    if (value > FAULT_PER_MILLE) {
        error_setg(errp, "filter-fault: '%s' is per mille (0 to %u), got %u",
                   name, FAULT_PER_MILLE, value);
        return;
    }
    sum = s->drop + s->duplicate + s->reorder - *field + value;
    if (field != &s->delay && sum > FAULT_PER_MILLE) {
        error_setg(errp, "filter-fault: drop + duplicate + reorder must not "
                   "exceed %u per mille (one draw per frame picks at most "
                   "one of them), '%s=%u' makes %u",
                   FAULT_PER_MILLE, name, value, sum);
        return;
    }
    *field = value;
}

static void fault_set_us(Object *obj, Visitor *v, const char *name,
                         void *opaque, Error **errp)
{
    uint32_t value;

    if (!visit_type_uint32(v, name, &value, errp)) {
        return;
    }
    if (value > FAULT_MAX_DELAY_US) {
        error_setg(errp, "filter-fault: '%s' is in microseconds, at most %u "
                   "(60 s), got %u", name, FAULT_MAX_DELAY_US, value);
        return;
    }
    *fault_field(obj, opaque) = value;
}

static void fault_get_seed(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    visit_type_uint64(v, name, &FILTER_FAULT(obj)->seed, errp);
}

/* Setting the seed restarts the sequence, also at run time (qom-set). */
static void fault_set_seed(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    FilterFaultState *s = FILTER_FAULT(obj);
    uint64_t value;

    if (visit_type_uint64(v, name, &value, errp)) {
        s->seed = value;
        s->rng = value;
    }
}

static void fault_get_stat(Object *obj, Visitor *v, const char *name,
                           void *opaque, Error **errp)
{
    uint64_t value = FILTER_FAULT(obj)->stats[(uintptr_t)opaque];

    visit_type_uint64(v, name, &value, errp);
}

static void fault_add_u32(ObjectClass *oc, const char *name, size_t offset,
                          ObjectPropertyAccessor *set, const char *help)
{
    object_class_property_add(oc, name, "uint32", fault_get_u32, set, NULL,
                              (void *)(uintptr_t)offset);
    object_class_property_set_description(oc, name, help);
}

static void filter_fault_class_init(ObjectClass *oc, void *data)
{
    NetFilterClass *nfc = NETFILTER_CLASS(oc);

    fault_add_u32(oc, "drop", offsetof(FilterFaultState, drop),
                  fault_set_per_mille, "frames dropped, per mille (0-1000)");
    fault_add_u32(oc, "duplicate", offsetof(FilterFaultState, duplicate),
                  fault_set_per_mille, "frames sent twice, per mille");
    fault_add_u32(oc, "reorder", offsetof(FilterFaultState, reorder),
                  fault_set_per_mille, "frames held and sent right after "
                  "the next frame of the same direction, per mille "
                  "(drop + duplicate + reorder <= 1000)");
    fault_add_u32(oc, "delay", offsetof(FilterFaultState, delay),
                  fault_set_per_mille, "frames that wait delay-us + "
                  "jitter, per mille (default 1000: every frame)");
    fault_add_u32(oc, "delay-us", offsetof(FilterFaultState, delay_us),
                  fault_set_us, "every frame waits this long on the "
                  "virtual clock, microseconds (0-60000000)");
    fault_add_u32(oc, "jitter-us", offsetof(FilterFaultState, jitter_us),
                  fault_set_us, "plus a uniform random 0 to jitter-us "
                  "microseconds; frames keep their order");
    object_class_property_add(oc, "seed", "uint64", fault_get_seed,
                              fault_set_seed, NULL, NULL);
    object_class_property_set_description(oc, "seed", "seed of the "
                              "pseudo-random faults: same seed and frames, "
                              "same faults (default 0)");
    for (uintptr_t i = 0; i < FAULT_STAT__MAX; i++) {
        object_class_property_add(oc, fault_stat_names[i], "uint64",
                                  fault_get_stat, NULL, NULL, (void *)i);
        object_class_property_set_description(oc, fault_stat_names[i],
                                              fault_stat_help[i]);
    }

    nfc->setup = filter_fault_setup;
    nfc->cleanup = filter_fault_cleanup;
    nfc->receive_iov = filter_fault_receive_iov;
    nfc->status_changed = filter_fault_status_changed;
}

static void filter_fault_init(Object *obj)
{
    FilterFaultState *s = FILTER_FAULT(obj);

    QTAILQ_INIT(&s->queue);
    s->delay = FAULT_PER_MILLE;
}

static const TypeInfo filter_fault_info = {
    .name = TYPE_FILTER_FAULT,
    .parent = TYPE_NETFILTER,
    .class_init = filter_fault_class_init,
    .instance_init = filter_fault_init,
    .instance_size = sizeof(FilterFaultState),
};

static void filter_fault_register_types(void)
{
    type_register_static(&filter_fault_info);
}

type_init(filter_fault_register_types);
