/*
 * enoc-repl: the guest side of `make demo`. One master replicates a memory
 * block to N slaves with one multicast peer DMA block (group MAC, mode 3;
 * slaves in mode 2 with the group in config.multicast_address). Multicast is
 * best effort, so recovery is NACK-based, after NORM (RFC 5740) and PGM
 * (RFC 3208): the master publishes a sum and the last word of every DMA
 * fragment before the push; each slave checks fragments as they land and
 * NACKs the ones that did not (compact ranges); the master gathers NACKs
 * for a fraction of the round trip and repairs fragments missed by two or
 * more slaves with one multicast block, those missed by a single slave by
 * unicast, while the push is still going out; a block carries up to 16
 * scattered fragments through a staging area that the slaves copy them out
 * of (repair_start). Timers come from the measured
 * round trip. The master stops when every slave has confirmed the CRC-32 of
 * the whole block, or has gone silent (reported). docs/guest.md has the
 * protocol; repl_proto.h the messages. One slave also reads and writes the
 * master's memory through its RMEM window.
 *
 * Results go to stdout as "OE-RESULT key=value ..." lines for the host.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "repl_proto.h"

#define MAX_SLAVES 64
#define RMEM_WORDS 256
#define RMEM_TRIES 50
/* Repairs go through staging areas (see repair_start): STAGE_AREAS of
 * STAGE_SLOTS fragments each, used in turn, behind the block in every
 * endpoint's buffer. A repair block fills one area, so it is small (a
 * fragment someone else NACKs meanwhile is not stuck behind a long unicast
 * run), and an area is written again only STAGE_AREAS blocks later, which
 * gives a slave that long to copy the fragments out (4 areas, 10 ms of
 * repairs at 400 Mbit/s, were too few for slaves not scheduled for longer:
 * 4 slaves at 5 % loss got 4.6 repair fragments per lost one, 2.3 with 8). */
#define STAGE_SLOTS 16
#define STAGE_AREAS 8
/* Single-slave repairs go unicast only when no more fragments than this
 * wait for repair (see unicast_blocks). */
#define UNICAST_BACKLOG 4
/* Round trip assumed until one is measured (the first HELLO only). */
#define RTT_INITIAL_US 20000
/* Extra round-trip samples a slave takes before it says it is ready. */
#define RTT_PROBES 4
/* A repeated NACK's timeout doubles at most this many times. */
#define RTO_BACKOFF 2
/* Bounds of every timer derived from the round trip. */
#define RTO_MIN_US 1000
#define RTO_MAX_US 1000000
/* How often a slave looks at its buffer while fragments come in. Every
 * wake-up of a vCPU costs the host CPU its QEMU and the master share: with
 * 4 slaves every 250 us the master's vCPU went 20-40 ms without running
 * during a push (its first repair 17-80 ms after the first NACK); every
 * 1 ms, 5 ms at most, and the push's losses were mostly repaired during
 * it. A millisecond more to notice a loss is small against that. */
#define SCAN_US 1000
/* A look at the buffer walks on past the highest fragment seen so far
 * until this many in a row are missing. Each fragment's last word lies on
 * a page of its own, and a guest page touched is a softmmu TLB fill under
 * TCG: a look at every fragment of an 8 MiB block, every SCAN_US, kept a
 * waiting slave's vCPU 90 % busy, taking the host CPU the QEMU main loops
 * need to move the block. The block arrives in order, so the walk follows
 * it; everything is looked at once the push has ended (fragments past a
 * longer run of losses are found then). */
#define SCAN_AHEAD 16
/* Response timeout of the slave's RMEM accesses and of the master's DMA
 * until a round trip is known. */
#define RESPONSE_TIMEOUT_MS 50

/* The master's peer entries. An incoming request resolves to the lowest
 * entry with its source MAC, so slave 1's RMEM entry sits below the unicast
 * repair entry, which may hold slave 1's MAC. */
enum { PEER_PUSH = 0, PEER_RMEM = 1, PEER_MREPAIR = 2, PEER_UREPAIR = 3 };
/* The slave's: the window the master's writes land in (the lowest entry
 * with the master's MAC, so incoming writes resolve to it), then RMEM's. */
enum { SLAVE_WINDOW = 0, SLAVE_RMEM = 1 };

typedef struct Slave {
    uint64_t mac;
    uint32_t bus;
    bool hello, ready, have_all, finished, verified, vanished;
    unsigned rmem;              /* REPL_RMEM_* the slave reported */
    uint32_t rtt_us;            /* as the slave measured it */
    uint64_t heard_us;          /* last frame from it, our clock */
    uint64_t complete_us;       /* its HAVE_ALL, from the push start */
    uint32_t lost, recovered;   /* fragments lost in the push; bytes */
} Slave;

/* A repair block in flight on one peer entry. */
typedef struct Repair {
    bool active;
    unsigned area;              /* staging area it was sent from */
    uint32_t count, frags[STAGE_SLOTS];
    int slave;                  /* index, or -1 for the multicast entry */
} Repair;

typedef struct Repl {
    EnocDev d;
    bool master, rmem, x_vanish, trace;
    unsigned id, nslaves;
    uint32_t size, fragment, seed;
    uint32_t frag, nfrags;      /* bytes per DMA fragment (fragment & ~3) */
    uint64_t mac, master_mac, group;
    int timeout_s, vanish_s;
    uint32_t stage_off, tx_off, rmem_off;  /* behind the block in the buffer */
    uint32_t seq;
    uint32_t rtt_us;            /* smoothed round trip of requests */
    uint64_t deadline_us;
    uint32_t *fsum, *flast;     /* per fragment: sum, last word */
    /* master */
    Slave slaves[MAX_SLAVES];
    uint32_t crc;               /* of the whole block */
    int state;
    uint64_t push_t0, push_us;
    uint64_t *need;             /* per fragment: slaves that NACKed it */
    uint64_t *nacked_at;        /* per fragment: first NACK since repaired */
    uint32_t pending;           /* fragments with need != 0 */
    uint32_t agg_us;            /* NACK gathering window */
    Repair rep[2];              /* on repair_entry[] */
    unsigned next_area;         /* staging area of the next repair */
    uint64_t mcast_repair, ucast_repair;    /* bytes */
    /* For the log: repair blocks (multicast ones during the push), the
     * first NACK and the last repair start, from the push start. */
    unsigned mblocks, mblocks_push, ublocks;
    uint64_t first_nack_us, last_repair_us;
    /* slave */
    uint32_t master_rmem_bus;
} Repl;

/* --trace: the master's NACKs and repair blocks, kept in memory and printed
 * at the end (a console line costs milliseconds under TCG). */
#define TRACE_MAX 4096
static struct TraceEv {
    uint32_t us;                /* from the push start */
    char what;                  /* N NACK (a slave, b first fragment, c
                                 * ranges), R repair (a slave or 0 = group,
                                 * b first fragment, c count), P push end */
    uint32_t a, b, c;
} trace_ev[TRACE_MAX];
static unsigned trace_n;

typedef struct Msg {
    uint64_t src;
    unsigned type, id;
    uint32_t seq;
    unsigned nwords;
    uint32_t w[REPL_MAX_WORDS + 4];
} Msg;

static const char usage[] =
    "usage: enoc-repl master --slaves N [options]\n"
    "       enoc-repl slave --id K [--rmem] [options]\n"
    "The guest side of the replication demo (scripts/demo.sh runs it):\n"
    "multicast push, per-fragment NACKs, multicast/unicast repair.\n"
    "  --mac M          this endpoint's MAC\n"
    "  --master-mac M   the master's MAC (slaves)\n"
    "  --group M        the group MAC of the multicast block\n"
    "  --size B         bytes to replicate (default 4M)\n"
    "  --fragment B     dma_max_fragment_size, the unit of loss detection and\n"
    "                   repair (default 8160)\n"
    "  --seed S         data pattern seed (default 1)\n"
    "  --timeout S      give up after S seconds (default 240)\n"
    "  --vanish S       (master) a registered slave silent this long is\n"
    "                   reported gone and not waited for (default 20)\n"
    "  --rmem           (slave) also test RMEM reads/writes against the master\n"
    "  --x-vanish       (slave, testing) exit silently once ready, as a slave\n"
    "                   whose VM died would\n"
    "  --trace          (master) print every NACK and repair block with its\n"
    "                   time from the push start (OE-TRACE lines) at the end\n";

/* "OE-INFO <guest seconds> ...": progress for the log, with the time so that
 * a slow phase shows. */
static void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void info(const char *fmt, ...)
{
    va_list ap;

    printf("OE-INFO %.3f ", enoc_now_us() / 1e6);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    fflush(stdout);
}

static void trace(const Repl *r, char what, uint32_t a, uint32_t b, uint32_t c)
{
    if (r->trace && trace_n < TRACE_MAX) {
        trace_ev[trace_n++] = (struct TraceEv) {
            (uint32_t)(enoc_now_us() - r->push_t0), what, a, b, c };
    }
}

static void trace_print(void)
{
    for (unsigned i = 0; i < trace_n; i++) {
        const struct TraceEv *t = &trace_ev[i];

        printf("OE-TRACE %u us %s %u %u %u\n", t->us,
               t->what == 'N' ? "nack slave/first/ranges" :
               t->what == 'R' ? "repair slave/first/count" : "push-end", t->a, t->b, t->c);
    }
}

static bool timed_out(Repl *r)
{
    return enoc_now_us() > r->deadline_us;
}

static uint32_t clamp_us(uint64_t v)
{
    return v < RTO_MIN_US ? RTO_MIN_US : v > RTO_MAX_US ? RTO_MAX_US : (uint32_t)v;
}

static uint32_t frag_len(const Repl *r, uint32_t k)
{
    uint32_t off = k * r->frag;

    return r->size - off < r->frag ? r->size - off : r->frag;
}

/*
 * The per-fragment sum: Fletcher-style over 64-bit words (the tail bytes
 * zero-extended). Fast under TCG, where a slave sums every fragment as it
 * lands; it finds a fragment missing or stale. The CRC-32 of the whole
 * block is the final check.
 */
static uint32_t frag_sum(const uint8_t *p, uint32_t len)
{
    uint64_t a = len, b = 0, w;
    uint32_t i = 0;

    for (; i + 8 <= len; i += 8) {
        memcpy(&w, p + i, 8);
        a += w;
        b += a;
    }
    if (i < len) {
        w = 0;
        memcpy(&w, p + i, len - i);
        a += w;
        b += a;
    }
    b ^= b >> 29;
    return (uint32_t)(a ^ (a >> 32) ^ (b * 0x9E3779B97F4A7C15ull >> 32));
}

static uint32_t last_word(const Repl *r, uint32_t k)
{
    return *(const volatile uint32_t *)(r->d.buf + k * r->frag + frag_len(r, k) - 4);
}

static void send_msg(Repl *r, uint64_t dst, unsigned type, unsigned id, uint32_t seq,
                     const uint32_t *w, unsigned n)
{
    uint8_t *f = r->d.buf + r->tx_off;
    size_t len = REPL_HDR + 4 * (size_t)n;
    int rc;

    oetp_put_mac(f, dst);
    oetp_put_mac(f + OETP_OFF_SRC, r->mac);
    f[12] = REPL_ETHERTYPE >> 8;
    f[13] = REPL_ETHERTYPE & 0xff;
    oetp_put_le32(f + 14, REPL_MAGIC);
    f[18] = type;
    f[19] = id;
    f[20] = f[21] = 0;
    oetp_put_le32(f + 22, seq);
    for (unsigned i = 0; i < n; i++) {
        oetp_put_le32(f + REPL_HDR + 4 * i, w[i]);
    }
    if (len < OETP_PADDED_FRAME_LEN) {
        memset(f + len, 0, OETP_PADDED_FRAME_LEN - len);
        len = OETP_PADDED_FRAME_LEN;
    }
    rc = enoc_raw_tx(&r->d, r->tx_off, (uint32_t)len, 2000);
    cli_check(rc);
    if (rc) {
        enoc_raw_clear_errors(&r->d);
        fprintf(stderr, "enoc-repl: raw TX error %d (%s)\n", rc, oe_error_name(rc));
    }
}

/* 1 with a protocol message in *m, 0 when nothing came within timeout_ms. */
static int recv_msg(Repl *r, Msg *m, int timeout_ms)
{
    static uint8_t f[OETP_FRAME_MAX];
    uint64_t end = enoc_now_us() + (uint64_t)timeout_ms * 1000;
    struct enoc_event ev;

    for (;;) {
        int len = enoc_direct_recv(&r->d, f, sizeof(f), 0);

        if (len == -EAGAIN) {
            uint64_t now = enoc_now_us();
            if (now >= end) {
                return 0;
            }
            /* Sleep until the endpoint says a frame is there. */
            cli_check(enoc_event_wait(&r->d, ENOC_SRC_DIRECT_RX, -1, &ev,
                                      (int)((end - now) / 1000) + 1));
            continue;
        }
        if (len < 0) {
            fprintf(stderr, "enoc-repl: %s\n", enoc_last_error());
            continue;
        }
        if (len < (int)REPL_HDR || (f[12] << 8 | f[13]) != REPL_ETHERTYPE ||
            oetp_get_le32(f + 14) != REPL_MAGIC) {
            continue;       /* someone else's frame */
        }
        m->src = oetp_get_mac(f + OETP_OFF_SRC);
        m->type = f[18];
        m->id = f[19];
        m->seq = oetp_get_le32(f + 22);
        m->nwords = (unsigned)(len - REPL_HDR) / 4;
        if (m->nwords > REPL_MAX_WORDS + 4) {
            m->nwords = REPL_MAX_WORDS + 4;
        }
        for (unsigned i = 0; i < m->nwords; i++) {
            m->w[i] = oetp_get_le32(f + REPL_HDR + 4 * i);
        }
        return 1;
    }
}

/*
 * A slave's request: repeat until the master's answer of the same seq. The
 * first repeat comes after a few measured round trips (RTT_INITIAL_US until
 * one is known), then twice as long each time. An answer to a request sent
 * once is a round-trip sample (Karn's rule: a repeated one is ambiguous);
 * the timers use the smallest: samples taken while other VMs boot on the
 * same host are tens of milliseconds, the path itself one or two.
 */
static void request(Repl *r, unsigned type, const uint32_t *w, unsigned n,
                    unsigned want, Msg *m)
{
    uint32_t seq = ++r->seq;
    uint32_t retry_us = clamp_us(4ull * r->rtt_us);
    unsigned sent = 0;

    while (!timed_out(r)) {
        uint64_t t0 = enoc_now_us(), end = t0 + retry_us;

        send_msg(r, r->master_mac, type, r->id, seq, w, n);
        sent++;
        while (enoc_now_us() < end) {
            if (recv_msg(r, m, (int)(retry_us / 1000) + 1) && m->type == want &&
                m->seq == seq) {
                if (sent == 1) {
                    uint32_t sample = (uint32_t)(enoc_now_us() - t0);
                    r->rtt_us = sample < r->rtt_us ? sample : r->rtt_us;
                }
                return;
            }
        }
        retry_us = clamp_us(2ull * retry_us);
    }
    cli_die("slave %u: no answer from the master (type %u) before the timeout", r->id, type);
}

static uint32_t clock_hz(Repl *r)
{
    uint32_t hz = enoc_rd(&r->d, ENOC_MODEL_CLOCK_OFF);

    return hz ? hz : 125000000u;
}

static void set_timeouts(Repl *r, uint32_t dma_us, uint32_t rmem_us)
{
    EnocConfig c;

    enoc_config_get(&r->d, &c);
    c.dma_timeout = (uint32_t)((uint64_t)clock_hz(r) * dma_us / 1000000);   /* per fragment */
    c.rmem_timeout = (uint32_t)((uint64_t)clock_hz(r) * rmem_us / 1000000);
    enoc_config_set(&r->d, &c);
}

static void setup_endpoint(Repl *r)
{
    EnocConfig c;

    r->stage_off = (r->size + 63) & ~63u;
    r->tx_off = r->stage_off + STAGE_AREAS * STAGE_SLOTS * r->frag;
    r->rmem_off = r->tx_off + 8192;
    cli_check(enoc_buf_map(&r->d, r->rmem_off + 8192));
    enoc_config_get(&r->d, &c);
    c.mac = r->mac;
    c.multicast = r->master ? 0 : r->group;
    c.rx_mode = 1;
    c.max_fragment = r->fragment;
    enoc_config_set(&r->d, &c);
    /* Bounded waits turn a lost frame into error 8 / all ones, which the
     * recovery handles, instead of a hang. */
    set_timeouts(r, RESPONSE_TIMEOUT_MS * 1000, RESPONSE_TIMEOUT_MS * 1000);
    enoc_raw_clear_errors(&r->d);
    enoc_event_enable(&r->d, OE_IRQ_EVENT_ENABLE_PEER_DMA_COMPLETE_MASK |
                      OE_IRQ_EVENT_ENABLE_NON_OETP_DMA_TX_COMPLETE_MASK |
                      OE_IRQ_EVENT_ENABLE_NON_OETP_DIRECT_RX_AVAILABLE_MASK);
}

static uint32_t rmem_word(unsigned i)
{
    return 0xC0DE0000u ^ (i * 0x9E3779B1u);
}

/* ---- master ---- */

static bool in_repair(const Repair *rp, uint32_t k, int slave)
{
    if (!rp->active || (rp->slave >= 0 && rp->slave != slave)) {
        return false;
    }
    for (uint32_t i = 0; i < rp->count; i++) {
        if (rp->frags[i] == k) {
            return true;
        }
    }
    return false;
}

static Slave *slave_of(Repl *r, Msg *m)
{
    if (m->id < 1 || m->id > r->nslaves) {
        return NULL;
    }
    return &r->slaves[m->id - 1];
}

/* The repair entries: the first multicast only, the second either. */
static const unsigned repair_entry[2] = { PEER_MREPAIR, PEER_UREPAIR };

/*
 * Repair fragments frags[0..count-1] to the group (slave < 0) or one slave,
 * on repair entry i. They need not be adjacent: the master copies them into
 * the next staging area, one per slot, and one DMA block writes the area to
 * the same place in the slaves' buffers; a slave finds each fragment there
 * by its published last word and sum and copies it into place. So one block
 * (one master loop turn, one completion event) repairs up to STAGE_SLOTS
 * scattered losses: with one block per run of adjacent losses, at 5 % loss
 * the repairs left at the end of a push went out about one per
 * millisecond, each waiting for a master loop turn on a loaded host.
 */
static void repair_start(Repl *r, unsigned i, int slave, const uint32_t *frags,
                         uint32_t count)
{
    unsigned n = repair_entry[i], area = r->next_area % STAGE_AREAS;
    uint32_t off, len = count * r->frag;
    EnocPeer p = { .mac = slave < 0 ? r->group : r->slaves[slave].mac,
                   .mode = OE_MODE_MIRROR_LOCAL_TO_REMOTE, .irq_enable = true };

    /* Not the area the other entry's block is still reading. */
    if (r->rep[!i].active && r->rep[!i].area == area) {
        area = (area + 1) % STAGE_AREAS;
    }
    r->next_area = area + 1;
    off = r->stage_off + area * STAGE_SLOTS * r->frag;
    r->rep[i] = (Repair) { .active = true, .area = area, .count = count, .slave = slave };
    for (uint32_t j = 0; j < count; j++) {
        uint32_t k = frags[j], fl = frag_len(r, k);
        uint8_t *slot = r->d.buf + off + j * r->frag;

        memcpy(slot, r->d.buf + k * r->frag, fl);
        memset(slot + fl, 0, r->frag - fl);     /* the block's short tail */
        r->rep[i].frags[j] = k;
        r->need[k] = 0;
        r->nacked_at[k] = 0;
        r->pending--;
    }
    p.local = r->d.buf_bus + off;
    p.remote = (slave < 0 ? r->slaves[0].bus : r->slaves[slave].bus) + off;
    p.size = len;
    cli_check(enoc_peer_set(&r->d, n, &p));
    enoc_peer_clear_error(&r->d, n);
    cli_check(enoc_dma_start(&r->d, n));
    if (slave < 0) {
        r->mcast_repair += len;
        r->mblocks++;
        r->mblocks_push += r->state == REPL_PUSHING;
    } else {
        r->ucast_repair += len;
        r->ublocks++;
    }
    r->last_repair_us = enoc_now_us() - r->push_t0;
    trace(r, 'R', slave + 1, frags[0], count);
}

/* Whether a unicast block now would hold things up: the push, or a backlog
 * of more than UNICAST_BACKLOG fragments, which two multicast blocks at a
 * time clear without a device round trip per fragment (a loaded host once
 * left 68 single-slave runs at the end of a push, 0.2 s by unicast). */
static bool unicast_blocks(const Repl *r)
{
    return r->state == REPL_PUSHING || r->pending > UNICAST_BACKLOG;
}

/* A NACKed fragment waits this window for other slaves' NACKs. */
static bool repair_due(const Repl *r, uint32_t k, uint64_t now)
{
    return r->need[k] && now - r->nacked_at[k] >= r->agg_us;
}

/*
 * Start the next repairs among the fragments whose NACK window is over, on
 * whichever repair entry is free (two multicast blocks may run at once: a
 * master loop turn per block is slow under TCG on a loaded host). The
 * device paces them with the push (its link-speed) and interleaves their
 * fragments with it.
 * - Fragments that two or more slaves NACKed: one multicast block.
 * - Fragments that one slave NACKed: unicast, but only once the push and the
 *   multicast repairs are done and at most UNICAST_BACKLOG fragments are
 *   waiting. A unicast write waits for each fragment's
 *   acknowledgement in the device's single initiating context, which holds
 *   up every other block for a device round trip per fragment (several
 *   milliseconds on a loaded host: 47 such fragments made a 0.11 s push of
 *   4 MiB take 0.46 s). Until then such a run goes out multicast: on a
 *   shared segment that costs the wire the same, the other slaves find
 *   fragments they hold.
 */
static void repair_tick(Repl *r, uint64_t now)
{
    for (int i = 0; i < 2; i++) {
        EnocStatus st;

        if (!r->rep[i].active) {
            continue;
        }
        st = enoc_peer_status(&r->d, repair_entry[i]);
        if (!st.request && st.idle) {
            /* A failed block (a lost acknowledgement) is not retried here:
             * the slave NACKs again what it still misses. */
            r->rep[i].active = false;
        }
    }
    while (r->pending && (!r->rep[0].active || !r->rep[1].active)) {
        /* The due fragments two or more slaves missed (or any, while
         * unicast_blocks), and those the first single-slave one's slave
         * alone missed, STAGE_SLOTS at most of each. */
        uint32_t multi[STAGE_SLOTS], single[STAGE_SLOTS], nm = 0, ns = 0;
        uint64_t who = 0;

        for (uint32_t k = 0; k < r->nfrags && (nm < STAGE_SLOTS || ns < STAGE_SLOTS); k++) {
            if (!repair_due(r, k, now)) {
                continue;
            }
            if (__builtin_popcountll(r->need[k]) >= 2 || unicast_blocks(r)) {
                if (nm < STAGE_SLOTS) {
                    multi[nm++] = k;
                }
            } else if (ns < STAGE_SLOTS && (!ns || r->need[k] == who)) {
                who = r->need[k];
                single[ns++] = k;
            }
        }
        if (nm) {
            repair_start(r, r->rep[0].active, -1, multi, nm);
        } else if (ns && !r->rep[0].active && !r->rep[1].active) {
            repair_start(r, 1, __builtin_ctzll(who), single, ns);
        } else {
            break;
        }
    }
}

static void master_nack(Repl *r, Msg *m, unsigned idx)
{
    uint64_t now = enoc_now_us(), bit = 1ull << idx;
    unsigned n = m->nwords ? m->w[0] : 0;

    if (r->state == REPL_WAITING) {
        return;
    }
    if (n > (m->nwords - 1) / 2) {
        n = (m->nwords - 1) / 2;
    }
    trace(r, 'N', idx + 1, n ? m->w[1] : 0, n);
    for (unsigned i = 0; i < n; i++) {
        uint32_t first = m->w[1 + 2 * i], count = m->w[2 + 2 * i];

        if (first >= r->nfrags || count > r->nfrags - first) {
            continue;
        }
        for (uint32_t k = first; k < first + count; k++) {
            /* Already on its way to this slave: its timer asks again if
             * that repair is lost too. (Serving such repeats again cost
             * 1.45 bytes of repair per byte lost when a starved master
             * pushed slowly, against 1.02-1.13.) */
            if ((r->need[k] & bit) || in_repair(&r->rep[0], k, (int)idx) ||
                in_repair(&r->rep[1], k, (int)idx)) {
                continue;
            }
            if (!r->need[k]) {
                r->nacked_at[k] = now;
                r->pending++;
            }
            if (!r->first_nack_us) {
                r->first_nack_us = now - r->push_t0;
            }
            r->need[k] |= bit;
        }
    }
}

static void master_push_start(Repl *r)
{
    EnocPeer p = { .mac = r->group, .mode = OE_MODE_MIRROR_LOCAL_TO_REMOTE, .local = r->d.buf_bus,
                   .remote = r->slaves[0].bus, .size = r->size, .irq_enable = true };
    uint32_t rtt = 0;

    for (unsigned k = 0; k < r->nslaves; k++) {
        if (r->slaves[k].bus != r->slaves[0].bus) {
            cli_die("slaves' buffers are at different bus addresses (%#x, %#x): "
                    "boot them alike with the same openenoc.dma_pool",
                    r->slaves[0].bus, r->slaves[k].bus);
        }
        rtt = r->slaves[k].rtt_us > rtt ? r->slaves[k].rtt_us : rtt;
    }
    /* NACKs for one loss come from every slave within about half a round
     * trip of each other. A unicast repair's acknowledgement takes a device
     * round trip, well under a guest one, which is what it may wait before
     * it counts as lost. */
    r->rtt_us = rtt;
    r->agg_us = rtt / 2 < 200 ? 200 : rtt / 2 > 5000 ? 5000 : rtt / 2;
    set_timeouts(r, clamp_us(rtt), RESPONSE_TIMEOUT_MS * 1000);
    info("master: all %u slaves ready, round trip up to %u us, NACK window %u us\n",
         r->nslaves, rtt, r->agg_us);
    r->state = REPL_PUSHING;
    cli_check(enoc_peer_set(&r->d, PEER_PUSH, &p));
    enoc_peer_clear_error(&r->d, PEER_PUSH);
    r->push_t0 = enoc_now_us();
    cli_check(enoc_dma_start(&r->d, PEER_PUSH));
}

static void master_push_poll(Repl *r)
{
    EnocStatus st = enoc_peer_status(&r->d, PEER_PUSH);

    if (st.request || !st.idle) {
        return;
    }
    r->push_us = enoc_now_us() - r->push_t0;
    info("multicast block of %u bytes in %llu us: %s\n", r->size,
         (unsigned long long)r->push_us, st.error ? oe_error_name(st.code) : "OK");
    if (st.error) {
        cli_die("multicast DMA failed: error %u (%s)", st.code, oe_error_name(st.code));
    }
    r->state = REPL_PUSHED;
    trace(r, 'P', 0, 0, 0);
    /* Tell the slaves at once, twice: the end of the push is when a slave
     * knows its missing tail fragments are lost (a lost announcement still
     * costs only a status request). */
    for (int copy = 0; copy < 2; copy++) {
        for (unsigned k = 0; k < r->nslaves; k++) {
            uint32_t w[2] = { REPL_PUSHED, (uint32_t)r->push_us };

            send_msg(r, r->slaves[k].mac, REPL_STATUS, k + 1, 0, w, 2);
        }
    }
}

static void master_handle(Repl *r, Msg *m)
{
    Slave *s = slave_of(r, m);
    uint32_t w[REPL_MAX_WORDS + 2];

    if (!s || (m->type != REPL_HELLO && !s->hello)) {
        return;
    }
    s->heard_us = enoc_now_us();
    switch (m->type) {
    case REPL_HELLO:
        if (m->nwords < 2 || m->w[1] != r->size) {
            return;
        }
        s->mac = m->src;
        s->bus = m->w[0];
        s->hello = true;
        if (m->id == 1) {
            /* Slave 1 reads and writes our RMEM area through its window. */
            EnocPeer p = { .mac = s->mac, .mode = OE_MODE_RMEM,
                           .local = r->d.buf_bus + r->rmem_off, .size = 4 * RMEM_WORDS };
            cli_check(enoc_peer_set(&r->d, PEER_RMEM, &p));
        }
        w[0] = r->d.buf_bus + r->rmem_off;
        w[1] = r->frag;
        w[2] = r->nfrags;
        send_msg(r, m->src, REPL_WELCOME, m->id, m->seq, w, 3);
        break;
    case REPL_SUMS_REQ: {
        uint32_t first = m->nwords >= 2 ? m->w[0] : r->nfrags;
        uint32_t count = m->nwords >= 2 ? m->w[1] : 0;

        if (first >= r->nfrags || count > REPL_SUMS_MAX || count > r->nfrags - first) {
            return;
        }
        w[0] = first;
        w[1] = count;
        for (uint32_t i = 0; i < count; i++) {
            w[2 + 2 * i] = r->fsum[first + i];
            w[3 + 2 * i] = r->flast[first + i];
        }
        send_msg(r, m->src, REPL_SUMS, m->id, m->seq, w, 2 + 2 * count);
        break;
    }
    case REPL_READY:
        if (!s->ready && m->nwords >= 1) {
            s->ready = true;
            s->rtt_us = m->w[0];
        }
        send_msg(r, m->src, REPL_READY_ACK, m->id, m->seq, NULL, 0);
        break;
    case REPL_STATUS_REQ:
        w[0] = (uint32_t)r->state;
        w[1] = (uint32_t)r->push_us;
        send_msg(r, m->src, REPL_STATUS, m->id, m->seq, w, 2);
        break;
    case REPL_NACK:
        master_nack(r, m, m->id - 1);
        break;
    case REPL_HAVE_ALL:
        /* The first copy counts: a repeat only means our ack was lost. */
        if (!s->have_all && r->state != REPL_WAITING) {
            s->have_all = true;
            s->complete_us = enoc_now_us() - r->push_t0;
            s->lost = m->nwords >= 1 ? m->w[0] : 0;
        }
        send_msg(r, m->src, REPL_HAVE_ALL_ACK, m->id, m->seq, NULL, 0);
        break;
    case REPL_FINISHED:
        if (m->nwords >= 3 && s->have_all && !s->finished) {
            s->finished = true;
            s->verified = m->w[0] == r->crc;
            s->recovered = m->w[1];
            s->rmem = m->w[2];
        }
        w[0] = s->verified;
        w[1] = (uint32_t)s->complete_us;
        send_msg(r, m->src, REPL_BYE, m->id, m->seq, w, 2);
        break;
    }
}

static bool rmem_area_ok(Repl *r)
{
    const uint8_t *p = r->d.buf + r->rmem_off;

    for (unsigned i = 0; i < RMEM_WORDS; i++) {
        if (oetp_get_le32(p + 4 * i) != rmem_word(i)) {
            return false;
        }
    }
    return true;
}

/* Slaves done with (finished, or gone silent after registering). */
static unsigned master_settled(Repl *r, uint64_t now)
{
    unsigned n = 0;

    for (unsigned k = 0; k < r->nslaves; k++) {
        Slave *s = &r->slaves[k];

        if (r->state != REPL_WAITING && !s->finished && !s->vanished &&
            now - s->heard_us > (uint64_t)r->vanish_s * 1000000) {
            s->vanished = true;
            info("master: slave %u silent for %d s: reported gone, not waited for\n",
                 k + 1, r->vanish_s);
        }
        n += s->finished || s->vanished;
    }
    return n;
}

/* The result line; returns whether every slave verified and RMEM held. */
static bool master_report(Repl *r)
{
    unsigned nok = 0, ready = 0;
    uint64_t lost = 0;
    bool rmem_seen = false, rmem_ok = true;
    char mac[18], gone[3 * MAX_SLAVES + 2] = "-";
    size_t gl = 0;

    for (unsigned k = 0; k < r->nslaves; k++) {
        Slave *s = &r->slaves[k];

        nok += s->finished && s->verified;
        ready += s->ready;
        lost += (uint64_t)s->lost * r->frag;
        rmem_seen |= s->rmem != REPL_RMEM_NONE;
        rmem_ok &= s->rmem != REPL_RMEM_FAILED;
        if (!s->finished) {
            gl += (size_t)snprintf(gone + gl, sizeof(gone) - gl, "%s%u", gl ? "," : "", k + 1);
        }
    }
    if (r->state == REPL_WAITING) {
        info("master: only %u of %u slaves registered before the timeout\n", ready,
             r->nslaves);
    }
    /* The slave doing RMEM says whether its reads matched; the area in our
     * memory shows whether its writes landed. */
    rmem_ok &= !rmem_seen || rmem_area_ok(r);
    printf("OE-RESULT role=master mac=%s bytes=%u time_us=%llu slaves_ok=%u missing=%s "
           "fragments=%u lost_bytes=%llu mcast_repair_bytes=%llu ucast_repair_bytes=%llu "
           "rmem_area=%s verify=%s\n", enoc_mac_str(r->mac, mac), r->size,
           (unsigned long long)r->push_us, nok, gone, r->nfrags, (unsigned long long)lost,
           (unsigned long long)r->mcast_repair, (unsigned long long)r->ucast_repair,
           !rmem_seen ? "-" : rmem_ok ? "ok" : "FAIL",
           nok == r->nslaves && rmem_ok ? "ok" : "FAIL");
    return nok == r->nslaves && rmem_ok;
}

static int run_master(Repl *r)
{
    char mac[18];
    Msg m;
    struct enoc_event ev;

    setup_endpoint(r);
    pattern_fill(r->d.buf, r->size, r->seed, 0);
    memset(r->d.buf + r->rmem_off, 0, 4 * RMEM_WORDS);
    r->need = calloc(r->nfrags, sizeof(*r->need));
    r->nacked_at = calloc(r->nfrags, sizeof(*r->nacked_at));
    if (!r->need || !r->nacked_at) {
        cli_die("out of memory");
    }
    for (uint32_t k = 0; k < r->nfrags; k++) {
        r->fsum[k] = frag_sum(r->d.buf + k * r->frag, frag_len(r, k));
        r->flast[k] = last_word(r, k);
    }
    r->crc = crc32_update(0, r->d.buf, r->size);
    info("master %s: %u bytes, %u fragments, waiting for %u slaves\n",
         enoc_mac_str(r->mac, mac), r->size, r->nfrags, r->nslaves);
    while (!timed_out(r)) {
        uint64_t now;
        bool busy;

        /* A bounded batch: the push's end and the repairs must not wait
         * until no frame is left. Answers are raw DMA that waits for the
         * link; with 4 slaves asking for status while the master answered,
         * frames came faster than it sent the answers, and a push that had
         * left at 0.12 s was noticed (and repaired) at 0.34 s, the slaves
         * asking all the harder since nobody told them it had ended. */
        for (unsigned n = 0; n < 2 * r->nslaves + 2 && recv_msg(r, &m, 0); n++) {
            master_handle(r, &m);
        }
        if (r->state == REPL_WAITING) {
            unsigned ready = 0;
            for (unsigned k = 0; k < r->nslaves; k++) {
                ready += r->slaves[k].ready;
            }
            if (ready == r->nslaves) {
                master_push_start(r);
            }
        }
        if (r->state == REPL_PUSHING) {
            master_push_poll(r);
        }
        now = enoc_now_us();
        repair_tick(r, now);
        if (master_settled(r, now) == r->nslaves) {
            break;
        }
        /* Sleep until the endpoint has something (a frame, or the push or
         * a repair block finished: their entries raise an event), at most
         * a millisecond while NACKed fragments wait for their window to
         * end. A wake-up costs the vCPU CSR reads that take QEMU's lock
         * from the main loop, which is pushing the block meanwhile. */
        busy = r->pending != 0;
        if (enoc_event_next(&r->d, &ev, busy ? 1 : 10) < 0) {
            cli_die("%s", enoc_last_error());
        }
    }
    /* Linger so that BYEs lost on the wire are asked for again. */
    for (uint64_t end = enoc_now_us() + 1500000; enoc_now_us() < end;) {
        if (recv_msg(r, &m, 100)) {
            master_handle(r, &m);
        }
    }
    info("master: %u multicast repair blocks (%u during the push), %u unicast; first NACK "
         "at %llu us, last repair started at %llu us\n", r->mblocks, r->mblocks_push,
         r->ublocks, (unsigned long long)r->first_nack_us,
         (unsigned long long)r->last_repair_us);
    trace_print();
    return master_report(r) ? 0 : 1;
}

/* ---- slave ---- */

/* What a slave knows about each fragment while the block comes in. */
typedef struct Recv {
    uint8_t *good;              /* sum matched */
    uint8_t *gap;               /* seen missing behind a later fragment */
    uint8_t *nacks;             /* NACKs sent for it */
    uint64_t *nack_at;          /* last NACK */
    uint32_t ngood, lost, outstanding;
    uint64_t first_at, last_at, good_bytes;     /* arrival rate */
    /* per staging slot: its last word when last looked at, and whether
     * that look is final (the slot held a fragment we then had, or none) */
    uint32_t slot_word[STAGE_AREAS * STAGE_SLOTS];
    bool slot_done[STAGE_AREAS * STAGE_SLOTS];
} Recv;

static void mark_good(Repl *r, Recv *v, uint32_t k, uint64_t now)
{
    v->good[k] = 1;
    v->ngood++;
    v->good_bytes += frag_len(r, k);
    v->outstanding -= v->nacks[k] != 0;
    v->first_at = v->first_at ? v->first_at : now;
    v->last_at = now;
}

/* Mark the fragments that have landed since the last look, from lo to
 * SCAN_AHEAD missing ones past *hi, or to the end if all; returns how
 * many. */
static uint32_t slave_scan(Repl *r, Recv *v, uint32_t lo, uint32_t *hi, bool all,
                           uint64_t now)
{
    uint32_t n = 0, miss = 0;

    for (uint32_t k = lo; k < r->nfrags && (all || k < *hi || miss < SCAN_AHEAD); k++) {
        if (v->good[k]) {
            continue;
        }
        /* The last word first (cheap): the slave set it to something else
         * before the push. The sum then tells a complete fragment. */
        if (last_word(r, k) != r->flast[k] ||
            frag_sum(r->d.buf + k * r->frag, frag_len(r, k)) != r->fsum[k]) {
            miss += k >= *hi;
            continue;
        }
        miss = 0;
        mark_good(r, v, k, now);
        *hi = k + 1 > *hi ? k + 1 : *hi;
        n++;
    }
    return n;
}

/*
 * Copy repaired fragments out of the staging areas (repair_start): a slot
 * whose last word changed is compared with the published last word of
 * every fragment still missing, and summed when one matches. A slot caught
 * while a block was still writing it fails the sum and is looked at again.
 */
static void slave_stage(Repl *r, Recv *v, uint64_t now)
{
    for (unsigned s = 0; s < STAGE_AREAS * STAGE_SLOTS; s++) {
        const uint8_t *slot = r->d.buf + r->stage_off + s * r->frag;
        uint32_t w = *(const volatile uint32_t *)(slot + r->frag - 4);

        if (w == v->slot_word[s] && v->slot_done[s]) {
            continue;
        }
        v->slot_word[s] = w;
        v->slot_done[s] = true;
        for (uint32_t k = 0; k < r->nfrags; k++) {
            uint32_t len = frag_len(r, k);

            if (v->good[k] ||
                (len == r->frag ? w : *(const volatile uint32_t *)(slot + len - 4)) !=
                r->flast[k]) {
                continue;
            }
            if (frag_sum(slot, len) != r->fsum[k]) {
                v->slot_done[s] = false;
                continue;
            }
            memcpy(r->d.buf + k * r->frag, slot, len);
            mark_good(r, v, k, now);
            break;
        }
    }
}

/*
 * NACK every fragment below limit that is missing and due: seen missing on
 * the previous look too (a fragment overtaken by a later one on a
 * reordering link gets one look to catch up), and not NACKed within the
 * retransmission timeout. That timeout is a few round trips plus the time
 * the repairs already asked for take at the rate the push arrived, doubled
 * for each NACK of the same fragment up to RTO_BACKOFF times (a few slaves
 * cannot flood the master; a longer wait only stretches the tail).
 */
static void slave_nack(Repl *r, Recv *v, uint32_t lo, uint32_t limit, uint64_t now)
{
    uint32_t w[1 + 2 * REPL_NACK_MAX], n = 0;
    uint64_t span = v->last_at - v->first_at;
    /* bytes per microsecond; before a rate is measured, 10 MB/s */
    double rate = span > 1000 ? (double)v->good_bytes / (double)span : 10.0;
    uint32_t rto = clamp_us(3ull * r->rtt_us + (uint64_t)(v->outstanding * r->frag / rate));

    for (uint32_t k = lo; k < limit; k++) {
        bool due;

        if (v->good[k]) {
            continue;
        }
        if (!v->gap[k]) {
            v->gap[k] = 1;
            continue;
        }
        due = !v->nacks[k] ||
              now - v->nack_at[k] >= (uint64_t)clamp_us((uint64_t)rto <<
                                                        (v->nacks[k] - 1 < RTO_BACKOFF
                                                         ? v->nacks[k] - 1 : RTO_BACKOFF));
        if (!due) {
            continue;
        }
        if (!v->nacks[k]) {
            v->lost++;
            v->outstanding++;
        }
        v->nacks[k] += v->nacks[k] < 255;
        v->nack_at[k] = now;
        if (n && w[2 * n - 1] + w[2 * n] == k) {
            w[2 * n]++;             /* extends the last range */
            continue;
        }
        if (n == REPL_NACK_MAX) {
            w[0] = n;
            send_msg(r, r->master_mac, REPL_NACK, r->id, 0, w, 1 + 2 * n);
            n = 0;
        }
        n++;
        w[2 * n - 1] = k;
        w[2 * n] = 1;
    }
    if (n) {
        w[0] = n;
        send_msg(r, r->master_mac, REPL_NACK, r->id, 0, w, 1 + 2 * n);
    }
}

/*
 * Receive the block: look at the buffer every SCAN_US, NACK what is
 * missing behind fragments that arrived (or anything missing once the
 * master says the push has ended), until every fragment's sum matches.
 * Returns the fragments lost in the push (NACKed at least once).
 */
static uint32_t slave_receive(Repl *r)
{
    Recv v = { .good = calloc(r->nfrags, 1), .gap = calloc(r->nfrags, 1),
               .nacks = calloc(r->nfrags, 1),
               .nack_at = calloc(r->nfrags, sizeof(uint64_t)) };
    uint32_t lo = 0, hi = 0;
    uint64_t progress_at = enoc_now_us(), asked_at = progress_at;
    bool pushed = false;
    Msg m;

    if (!v.good || !v.gap || !v.nacks || !v.nack_at) {
        cli_die("out of memory");
    }
    while (v.ngood < r->nfrags) {
        uint64_t now = enoc_now_us();
        /* Quiet this long and not told the push is over: ask (before the
         * first fragment, other slaves may still be getting ready). */
        uint64_t quiet = v.first_at ? clamp_us(4ull * r->rtt_us) : RTO_MAX_US;

        if (timed_out(r)) {
            cli_die("slave %u: %u of %u fragments after the timeout", r->id, v.ngood,
                    r->nfrags);
        }
        if (slave_scan(r, &v, lo, &hi, pushed, now)) {
            progress_at = now;
        }
        /* Repairs come only after a NACK, ours or another slave's (the
         * look touches a page per slot: not while nothing is lost). */
        if ((v.lost || pushed) && v.ngood < r->nfrags) {
            uint32_t before = v.ngood;

            slave_stage(r, &v, now);
            progress_at = v.ngood > before ? now : progress_at;
        }
        if (v.ngood == r->nfrags) {
            break;      /* no sleep before HAVE_ALL: on a busy host a
                         * vCPU's wake-up from usleep() can take 10 ms */
        }
        while (lo < r->nfrags && v.good[lo]) {
            lo++;
        }
        while (recv_msg(r, &m, 0)) {
            if (m.type == REPL_STATUS && m.nwords >= 1 && m.w[0] == REPL_PUSHED) {
                pushed = true;
            }
        }
        slave_nack(r, &v, lo, pushed ? r->nfrags : hi, now);
        if (!pushed && now - progress_at > quiet && now - asked_at > quiet) {
            send_msg(r, r->master_mac, REPL_STATUS_REQ, r->id, ++r->seq, NULL, 0);
            asked_at = now;
        }
        usleep(SCAN_US);
    }
    free(v.good);
    free(v.gap);
    free(v.nacks);
    free(v.nack_at);
    return v.lost;
}

static int slave_rmem(Repl *r, uint32_t *p50_us)
{
    EnocPeer p = { .mac = r->master_mac, .mode = OE_MODE_RMEM, .rmem_offset = 0,
                   .remote = r->master_rmem_bus, .size = 4 * RMEM_WORDS };
    uint32_t lat[RMEM_WORDS];
    unsigned bad = 0;

    cli_check(enoc_peer_set(&r->d, SLAVE_RMEM, &p));
    for (unsigned i = 0; i < RMEM_WORDS; i++) {
        /* A write that met a lost frame shows as the entry's error: retry. */
        for (int tries = 0; tries < RMEM_TRIES; tries++) {
            enoc_peer_clear_error(&r->d, SLAVE_RMEM);
            enoc_rmem_write(&r->d, 4 * i, rmem_word(i));
            if (!enoc_peer_status(&r->d, SLAVE_RMEM).error) {
                break;
            }
        }
    }
    for (unsigned i = 0; i < RMEM_WORDS; i++) {
        uint32_t v = 0;

        for (int tries = 0; tries < RMEM_TRIES; tries++) {
            uint64_t t0 = enoc_now_us();

            enoc_peer_clear_error(&r->d, SLAVE_RMEM);
            enoc_rmem_read(&r->d, 4 * i, &v);
            lat[i] = (uint32_t)(enoc_now_us() - t0);
            if (!enoc_peer_status(&r->d, SLAVE_RMEM).error) {
                break;
            }
        }
        bad += v != rmem_word(i);
    }
    for (unsigned i = 1; i < RMEM_WORDS; i++) {      /* insertion sort */
        uint32_t x = lat[i];
        unsigned j = i;
        for (; j > 0 && lat[j - 1] > x; j--) {
            lat[j] = lat[j - 1];
        }
        lat[j] = x;
    }
    *p50_us = lat[RMEM_WORDS / 2];
    p.mode = OE_MODE_DISABLED;
    enoc_peer_set(&r->d, SLAVE_RMEM, &p);
    info("slave %u: RMEM %u words written and read back, %u wrong, read p50 %u us\n",
         r->id, RMEM_WORDS, bad, *p50_us);
    return bad == 0;
}

static int run_slave(Repl *r)
{
    EnocPeer p = { .mac = r->master_mac, .mode = OE_MODE_MIRROR_REMOTE_TO_LOCAL, .local = 0,
                   .size = 0 };
    uint8_t *expect = malloc(r->size);
    uint32_t w[3], lost, crc, p50 = 0;
    bool verified, rmem_ok = false;
    char mac[18];
    Msg m;

    if (!expect) {
        cli_die("out of memory");
    }
    setup_endpoint(r);
    memset(r->d.buf, 0, r->tx_off);
    /* Our window: the master's writes land in the block or, repairs, in
     * the staging areas behind it. */
    p.local = r->d.buf_bus;
    p.size = r->tx_off;
    cli_check(enoc_peer_set(&r->d, SLAVE_WINDOW, &p));
    enoc_peer_clear_error(&r->d, SLAVE_WINDOW);

    w[0] = r->d.buf_bus;
    w[1] = r->size;
    request(r, REPL_HELLO, w, 2, REPL_WELCOME, &m);
    if (m.nwords < 3 || m.w[1] != r->frag || m.w[2] != r->nfrags) {
        cli_die("the master fragments the block differently (%u bytes); "
                "give both the same --size and --fragment", m.nwords >= 3 ? m.w[1] : 0);
    }
    r->master_rmem_bus = m.w[0];
    for (uint32_t first = 0; first < r->nfrags; first += REPL_SUMS_MAX) {
        uint32_t count = r->nfrags - first < REPL_SUMS_MAX ? r->nfrags - first
                                                           : REPL_SUMS_MAX;
        w[0] = first;
        w[1] = count;
        request(r, REPL_SUMS_REQ, w, 2, REPL_SUMS, &m);
        if (m.nwords < 2 + 2 * count || m.w[0] != first) {
            cli_die("bad sums reply");
        }
        for (uint32_t i = 0; i < count; i++) {
            r->fsum[first + i] = m.w[2 + 2 * i];
            r->flast[first + i] = m.w[3 + 2 * i];
        }
    }
    /* Whatever the data, each fragment's last word starts out wrong. */
    for (uint32_t k = 0; k < r->nfrags; k++) {
        *(uint32_t *)(r->d.buf + k * r->frag + frag_len(r, k) - 4) = ~r->flast[k];
    }
    /* More round-trip samples (status requests), then ready. */
    for (int i = 0; i < RTT_PROBES; i++) {
        request(r, REPL_STATUS_REQ, NULL, 0, REPL_STATUS, &m);
    }
    w[0] = r->rtt_us;
    request(r, REPL_READY, w, 1, REPL_READY_ACK, &m);
    info("slave %u %s: ready, window at %#x, round trip %u us\n", r->id,
         enoc_mac_str(r->mac, mac), r->d.buf_bus, r->rtt_us);
    if (r->x_vanish) {
        info("slave %u: vanishing (--x-vanish)\n", r->id);
        return 3;
    }
    lost = slave_receive(r);
    w[0] = lost;
    request(r, REPL_HAVE_ALL, w, 1, REPL_HAVE_ALL_ACK, &m);
    info("slave %u: every fragment in, %u lost in the push and repaired\n", r->id, lost);
    crc = crc32_update(0, r->d.buf, r->size);
    pattern_fill(expect, r->size, r->seed, 0);
    verified = !memcmp(expect, r->d.buf, r->size);
    if (r->rmem) {
        rmem_ok = slave_rmem(r, &p50);
    }
    w[0] = crc;
    w[1] = lost * r->frag;
    w[2] = !r->rmem ? REPL_RMEM_NONE : rmem_ok ? REPL_RMEM_OK : REPL_RMEM_FAILED;
    request(r, REPL_FINISHED, w, 3, REPL_BYE, &m);
    /* The master's word on the CRC too: it is the one that stops on it. */
    verified &= m.nwords >= 2 && m.w[0] == 1;
    /* time_us: from the start of the push to this copy being complete
     * (repairs included), on the master's clock. */
    printf("OE-RESULT role=slave id=%u mac=%s bytes=%u time_us=%u lost_fragments=%u "
           "recovered=%u fragments=%u crc=%08x verify=%s rmem=%s rmem_read_us_p50=%u\n",
           r->id, enoc_mac_str(r->mac, mac), r->size, m.nwords >= 2 ? m.w[1] : 0,
           lost, lost * r->frag, r->nfrags, crc, verified ? "ok" : "FAIL",
           !r->rmem ? "-" : rmem_ok ? "ok" : "FAIL", p50);
    return verified && (!r->rmem || rmem_ok) ? 0 : 1;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "slaves", required_argument, NULL, 'n' },
        { "id", required_argument, NULL, 'i' },
        { "mac", required_argument, NULL, 'm' },
        { "master-mac", required_argument, NULL, 'M' },
        { "group", required_argument, NULL, 'g' },
        { "size", required_argument, NULL, 's' },
        { "fragment", required_argument, NULL, 'f' },
        { "seed", required_argument, NULL, 'S' },
        { "timeout", required_argument, NULL, 't' },
        { "vanish", required_argument, NULL, 'v' },
        { "rmem", no_argument, NULL, 'r' },
        { "x-vanish", no_argument, NULL, 'x' },
        { "trace", no_argument, NULL, 'T' },
        { "dev", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    Repl r = { .size = 4u << 20, .fragment = 8160, .seed = 1, .timeout_s = 240,
               .vanish_s = 20, .mac = 0x020E0C000001ull, .master_mac = 0x020E0C000001ull,
               .group = 0x030E0C000001ull, .rtt_us = RTT_INITIAL_US };
    int opt, index = 0;

    cli_prog = "enoc-repl";
    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage, stdout);
        return 0;
    }
    if (argc < 2 || (strcmp(argv[1], "master") && strcmp(argv[1], "slave"))) {
        cli_usage_error("first argument must be master or slave");
    }
    r.master = !strcmp(argv[1], "master");
    optind = 2;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (opt) {
        case 'n': r.nslaves = (unsigned)cli_num("--slaves", optarg, MAX_SLAVES); break;
        case 'i': r.id = (unsigned)cli_num("--id", optarg, MAX_SLAVES); break;
        case 'm': r.mac = cli_mac(optarg); break;
        case 'M': r.master_mac = cli_mac(optarg); break;
        case 'g': r.group = cli_mac(optarg); break;
        case 's': r.size = (uint32_t)cli_num("--size", optarg, 1u << 30); break;
        case 'f': r.fragment = (uint32_t)cli_num("--fragment", optarg, 8160); break;
        case 'S': r.seed = (uint32_t)cli_num("--seed", optarg, UINT32_MAX); break;
        case 't': r.timeout_s = (int)cli_num("--timeout", optarg, 86400); break;
        case 'v': r.vanish_s = (int)cli_num("--vanish", optarg, 86400); break;
        case 'r': r.rmem = true; break;
        case 'x': r.x_vanish = true; break;
        case 'T': r.trace = true; break;
        case 'd': index = (int)cli_num("--dev", optarg, 63); break;
        case 'h': fputs(usage, stdout); return 0;
        default: cli_usage_error("bad option");
        }
    }
    if (optind != argc) {
        cli_usage_error("unexpected argument '%s'", argv[optind]);
    }
    if (r.size == 0 || r.size % 4) {
        cli_usage_error("--size must be a non-zero multiple of 4");
    }
    if (r.fragment < 4) {
        cli_usage_error("--fragment must be 4..8160");
    }
    if (!oetp_mac_is_group(r.group)) {
        cli_usage_error("--group must be a group MAC (I/G bit set)");
    }
    if (r.master ? r.nslaves == 0 : r.id == 0) {
        cli_usage_error(r.master ? "master wants --slaves 1..64" : "slave wants --id 1..64");
    }
    if (r.vanish_s == 0) {
        cli_usage_error("--vanish wants at least 1 second");
    }
    /* The device cuts a block into fragments of fragment & ~3 bytes: the
     * unit of loss detection and repair here too. */
    r.frag = r.fragment & ~3u;
    r.nfrags = (r.size + r.frag - 1) / r.frag;
    r.fsum = calloc(r.nfrags, 4);
    r.flast = calloc(r.nfrags, 4);
    if (!r.fsum || !r.flast) {
        cli_die("out of memory");
    }
    r.deadline_us = enoc_now_us() + (uint64_t)r.timeout_s * 1000000;
    cli_check(enoc_open(&r.d, index));
    return r.master ? run_master(&r) : run_slave(&r);
}
