/*
 * enoc-repl: the guest side of `make demo`. One master replicates a memory
 * block to N slaves with one multicast peer DMA block (group MAC, mode 3;
 * slaves in mode 2 with the group in config.multicast_address). Multicast is
 * best effort, so each slave checks per-chunk CRC-32s and asks the master to
 * re-send missing or wrong chunks by unicast DMA (repl_proto.h). One slave
 * also reads and writes the master's memory through its RMEM window.
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

#define RESEND_MAX_CHUNKS 16
#define RESEND_PIECE_FRAGMENTS 8
#define RESEND_TRIES 8
#define RMEM_WORDS 256
/* A slave repeats a request this long after it went unanswered, then
 * twice as long each time up to the maximum. */
#define REQ_RETRY_MS 100
#define REQ_RETRY_MAX_MS 1000
/* Response timeouts: a lost frame costs this much before a retry. Answers
 * take well under a millisecond; a busy host can delay one by tens. */
#define RESPONSE_TIMEOUT_MS 50
#define RMEM_TRIES 50

typedef struct Slave {
    uint64_t mac;
    uint32_t bus;
    bool hello, finished, verified;
    unsigned rmem;              /* REPL_RMEM_* the slave reported */
    /* On the master's clock, from the start of the block: when the slave
     * said the block had arrived, when its last re-send ended. */
    uint64_t arrived_us, resent_us;
    /* The last re-send request served and its result: a repeat of it (our
     * answer was lost, or came after the slave's retry) is answered again
     * without sending the data twice. */
    uint32_t resend_seq, resend_rc;
    uint32_t recovered;
} Slave;

typedef struct Repl {
    EnocDev d;
    bool master, rmem;
    unsigned id, nslaves;
    uint32_t size, chunk, nchunks, fragment, seed;
    uint64_t mac, master_mac, group;
    int timeout_s;
    uint32_t tx_off, rmem_off;
    uint32_t seq;
    uint64_t deadline_us;
    /* master */
    Slave slaves[64];
    uint32_t *sums;
    int state;
    uint64_t push_t0, push_us;
    /* slave */
    uint32_t master_rmem_bus;
} Repl;

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
    "The guest side of the replication demo (scripts/demo.sh runs it).\n"
    "  --mac M          this endpoint's MAC\n"
    "  --master-mac M   the master's MAC (slaves)\n"
    "  --group M        the group MAC of the multicast block\n"
    "  --size B         bytes to replicate (default 4M)\n"
    "  --chunk B        checksum/recovery granularity (default 64K)\n"
    "  --fragment B     dma_max_fragment_size (default 8160)\n"
    "  --seed S         data pattern seed (default 1)\n"
    "  --timeout S      give up after S seconds (default 240)\n"
    "  --rmem           (slave) also test RMEM reads/writes against the master\n";

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

static bool timed_out(Repl *r)
{
    return enoc_now_us() > r->deadline_us;
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
            cli_check(enoc_event_wait(&r->d, ENOC_SRC_DIRECT_RX_AVAILABLE, -1, &ev,
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
 * interval doubles up to REQ_RETRY_MAX_MS: a master busy re-sending to
 * another slave reads none of its frames meanwhile, and unread frames fill
 * its endpoint's direct sink, which then holds back all reception (the
 * DMA replies the master is waiting for included).
 */
static void request(Repl *r, unsigned type, const uint32_t *w, unsigned n,
                    unsigned want, Msg *m)
{
    uint32_t seq = ++r->seq;
    unsigned retry_ms = REQ_RETRY_MS;

    while (!timed_out(r)) {
        uint64_t end = enoc_now_us() + retry_ms * 1000;

        send_msg(r, r->master_mac, type, r->id, seq, w, n);
        while (enoc_now_us() < end) {
            if (recv_msg(r, m, (int)retry_ms) && m->type == want && m->seq == seq) {
                return;
            }
        }
        retry_ms = retry_ms * 2 > REQ_RETRY_MAX_MS ? REQ_RETRY_MAX_MS : retry_ms * 2;
    }
    cli_die("slave %u: no answer from the master (type %u) before the timeout", r->id, type);
}

static uint32_t clock_hz(Repl *r)
{
    uint32_t hz = enoc_rd(&r->d, ENOC_MODEL_CLOCK_OFF);

    return hz ? hz : 125000000u;
}

static void setup_endpoint(Repl *r)
{
    EnocConfig c;
    uint32_t buf_size = r->size + 16384;

    cli_check(enoc_buf_map(&r->d, buf_size));
    r->tx_off = r->size;
    r->rmem_off = r->size + 8192;
    enoc_config_get(&r->d, &c);
    c.mac = r->mac;
    c.multicast = r->master ? 0 : r->group;
    c.rx_mode = 1;
    /* Bounded waits turn a lost frame into error 8 / all ones, which the
     * recovery handles, instead of a hang. */
    c.dma_timeout = clock_hz(r) / 1000 * RESPONSE_TIMEOUT_MS;     /* per fragment */
    c.rmem_timeout = clock_hz(r) / 1000 * RESPONSE_TIMEOUT_MS;
    c.max_fragment = r->fragment;
    enoc_config_set(&r->d, &c);
    enoc_raw_clear_errors(&r->d);
    enoc_event_enable(&r->d, OE_IRQ_EVENT_ENABLE_PEER_DMA_COMPLETE_MASK |
                      OE_IRQ_EVENT_ENABLE_NON_OETP_DMA_TX_COMPLETE_MASK |
                      OE_IRQ_EVENT_ENABLE_NON_OETP_DIRECT_RX_AVAILABLE_MASK);
}

static uint32_t chunk_len(Repl *r, uint32_t i)
{
    uint32_t off = i * r->chunk;

    return r->size - off < r->chunk ? r->size - off : r->chunk;
}

static uint32_t rmem_word(unsigned i)
{
    return 0xC0DE0000u ^ (i * 0x9E3779B1u);
}

/* ---- master ---- */

/*
 * Re-send chunks first..first+count-1 to one slave by unicast DMA, in pieces
 * of RESEND_PIECE_FRAGMENTS fragments, each retried on failure. A lost frame
 * fails the whole block it belongs to (and costs a response timeout), so on
 * a lossy segment small pieces retried here get through far sooner than the
 * slave asking again for the whole run. Returns the CSR error code of the
 * first piece that kept failing, or 0.
 */
static int master_resend(Repl *r, Slave *s, uint32_t first, uint32_t count)
{
    uint32_t off = first * r->chunk, end = off;
    uint32_t piece = RESEND_PIECE_FRAGMENTS * (r->fragment & ~3u);
    EnocPeer p = { .mac = s->mac, .mode = ENOC_MODE_PUSH, .irq_enable = true };
    int rc = 0;

    for (uint32_t i = first; i < first + count; i++) {
        end += chunk_len(r, i);
    }
    for (; off < end && rc == 0; off += p.size) {
        p.local = r->d.buf_bus + off;
        p.remote = s->bus + off;
        p.size = end - off < piece ? end - off : piece;
        for (int tries = 0; tries < RESEND_TRIES; tries++) {
            enoc_peer_set(&r->d, 1, &p);
            enoc_peer_clear_error(&r->d, 1);
            rc = enoc_dma_run(&r->d, 1, 10000);
            rc = rc < 0 ? OE_ERR_TIMEOUT : rc;
            if (rc == 0) {
                break;
            }
        }
    }
    /* Even a failed block may have completed the slave's copy. */
    s->resent_us = enoc_now_us() - r->push_t0;
    /* Back to disabled: this slave's own RMEM requests must resolve to the
     * RMEM entry, and the lowest matching entry wins. */
    p.mode = ENOC_MODE_DISABLED;
    enoc_peer_clear_error(&r->d, 1);
    enoc_peer_set(&r->d, 1, &p);
    return rc;
}

static void master_handle(Repl *r, Msg *m);

/*
 * One multicast block to every slave. The master keeps answering while the
 * block goes out, so that a slave's "arrived" is timed on this clock.
 */
static void master_push(Repl *r)
{
    EnocPeer p = { .mac = r->group, .mode = ENOC_MODE_PUSH, .local = r->d.buf_bus,
                   .remote = r->slaves[0].bus, .size = r->size, .irq_enable = true };
    EnocStatus st;
    Msg m;

    for (unsigned k = 1; k < r->nslaves; k++) {
        if (r->slaves[k].bus != r->slaves[0].bus) {
            cli_die("slaves' buffers are at different bus addresses (%#x, %#x): "
                    "boot them alike with the same openenoc.dma_pool",
                    r->slaves[0].bus, r->slaves[k].bus);
        }
    }
    r->state = REPL_PUSHING;
    cli_check(enoc_peer_set(&r->d, 0, &p));
    enoc_peer_clear_error(&r->d, 0);
    r->push_t0 = enoc_now_us();
    cli_check(enoc_dma_start(&r->d, 0));
    for (;;) {
        st = enoc_peer_status(&r->d, 0);
        if (!st.request && st.idle) {
            break;
        }
        if (timed_out(r)) {
            cli_die("the multicast block did not finish (status %#x)",
                    enoc_rd(&r->d, OE_PEER_DMA(0)));
        }
        if (recv_msg(r, &m, 1)) {
            master_handle(r, &m);
        }
    }
    r->push_us = enoc_now_us() - r->push_t0;
    info("multicast block of %u bytes in %llu us: %s\n", r->size,
         (unsigned long long)r->push_us, st.error ? oe_error_name(st.code) : "OK");
    if (st.error) {
        cli_die("multicast DMA failed: error %u (%s)", st.code, oe_error_name(st.code));
    }
    r->state = REPL_PUSHED;
    /* Tell the slaves at once: one whose block lost fragments stops waiting
     * for them (a lost announcement costs it one status poll). */
    for (unsigned k = 0; k < r->nslaves; k++) {
        uint32_t w[2] = { REPL_PUSHED, (uint32_t)r->push_us };

        send_msg(r, r->slaves[k].mac, REPL_STATUS, k + 1, 0, w, 2);
    }
}

/* When the slave's copy was complete, on this clock from the block start. */
static uint64_t slave_complete_us(const Slave *s)
{
    return s->arrived_us > s->resent_us ? s->arrived_us : s->resent_us;
}

static Slave *slave_of(Repl *r, Msg *m)
{
    if (m->id < 1 || m->id > r->nslaves) {
        return NULL;
    }
    return &r->slaves[m->id - 1];
}

static void master_handle(Repl *r, Msg *m)
{
    Slave *s = slave_of(r, m);
    uint32_t w[REPL_MAX_WORDS + 2];

    if (!s) {
        return;
    }
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
            EnocPeer p = { .mac = s->mac, .mode = ENOC_MODE_RMEM,
                           .local = r->d.buf_bus + r->rmem_off, .size = 4 * RMEM_WORDS };
            cli_check(enoc_peer_set(&r->d, 2, &p));
        }
        w[0] = r->d.buf_bus + r->rmem_off;
        send_msg(r, m->src, REPL_WELCOME, m->id, m->seq, w, 1);
        break;
    case REPL_ARRIVED:
        /* The first copy counts: a repeat only means our ack was lost. */
        if (!s->arrived_us && r->state != REPL_WAITING) {
            s->arrived_us = enoc_now_us() - r->push_t0;
        }
        send_msg(r, m->src, REPL_ARRIVED_ACK, m->id, m->seq, NULL, 0);
        break;
    case REPL_STATUS_REQ:
        w[0] = (uint32_t)r->state;
        w[1] = (uint32_t)r->push_us;
        send_msg(r, m->src, REPL_STATUS, m->id, m->seq, w, 2);
        break;
    case REPL_SUMS_REQ: {
        uint32_t first = m->nwords >= 2 ? m->w[0] : r->nchunks;
        uint32_t count = m->nwords >= 2 ? m->w[1] : 0;

        if (first >= r->nchunks || count > REPL_MAX_WORDS || count > r->nchunks - first) {
            return;
        }
        w[0] = first;
        w[1] = count;
        memcpy(w + 2, r->sums + first, 4 * count);
        send_msg(r, m->src, REPL_SUMS, m->id, m->seq, w, 2 + count);
        break;
    }
    case REPL_RESEND_REQ:
        if (m->nwords < 2 || m->w[0] >= r->nchunks || m->w[1] == 0 ||
            m->w[1] > RESEND_MAX_CHUNKS || m->w[1] > r->nchunks - m->w[0] || !s->hello) {
            return;
        }
        if (m->seq != s->resend_seq) {
            s->resend_rc = (uint32_t)master_resend(r, s, m->w[0], m->w[1]);
            s->resend_seq = m->seq;
        }
        w[0] = m->w[0];
        w[1] = m->w[1];
        w[2] = s->resend_rc;
        send_msg(r, m->src, REPL_RESENT, m->id, m->seq, w, 3);
        break;
    case REPL_FINISHED:
        if (m->nwords >= 3) {
            s->finished = true;
            s->verified = m->w[0];
            s->recovered = m->w[1];
            s->rmem = m->w[2];
        }
        w[0] = (uint32_t)slave_complete_us(s);
        send_msg(r, m->src, REPL_BYE, m->id, m->seq, w, 1);
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

static int run_master(Repl *r)
{
    unsigned done = 0, nok = 0;
    char mac[18];
    Msg m;
    bool rmem_seen = false, rmem_ok = true;

    setup_endpoint(r);
    pattern_fill(r->d.buf, r->size, r->seed, 0);
    memset(r->d.buf + r->rmem_off, 0, 4 * RMEM_WORDS);
    r->sums = calloc(r->nchunks, 4);
    if (!r->sums) {
        cli_die("out of memory");
    }
    for (uint32_t i = 0; i < r->nchunks; i++) {
        r->sums[i] = crc32_update(0, r->d.buf + i * r->chunk, chunk_len(r, i));
    }
    info("master %s: %u bytes, %u chunks, waiting for %u slaves\n",
         enoc_mac_str(r->mac, mac), r->size, r->nchunks, r->nslaves);
    while (done < r->nslaves && !timed_out(r)) {
        if (recv_msg(r, &m, 100)) {
            master_handle(r, &m);
        }
        if (r->state == REPL_WAITING) {
            unsigned ready = 0;
            for (unsigned k = 0; k < r->nslaves; k++) {
                ready += r->slaves[k].hello;
            }
            if (ready == r->nslaves) {
                master_push(r);
            }
        }
        done = 0;
        for (unsigned k = 0; k < r->nslaves; k++) {
            done += r->slaves[k].finished;
        }
    }
    /* Linger so that BYEs lost on the wire are asked for again. */
    for (uint64_t end = enoc_now_us() + 1500000; enoc_now_us() < end;) {
        if (recv_msg(r, &m, 100)) {
            master_handle(r, &m);
        }
    }
    for (unsigned k = 0; k < r->nslaves; k++) {
        nok += r->slaves[k].finished && r->slaves[k].verified;
        rmem_seen |= r->slaves[k].rmem != REPL_RMEM_NONE;
        rmem_ok &= r->slaves[k].rmem != REPL_RMEM_FAILED;
    }
    /* The slave doing RMEM says whether its reads matched; the area in our
     * memory shows whether its writes landed. */
    rmem_ok &= !rmem_seen || rmem_area_ok(r);
    printf("OE-RESULT role=master mac=%s bytes=%u time_us=%llu slaves_ok=%u rmem_area=%s "
           "verify=%s\n", enoc_mac_str(r->mac, mac), r->size,
           (unsigned long long)r->push_us, nok,
           !rmem_seen ? "-" : rmem_ok ? "ok" : "FAIL",
           nok == r->nslaves && rmem_ok ? "ok" : "FAIL");
    return nok == r->nslaves && rmem_ok ? 0 : 1;
}

/* ---- slave ---- */

static uint32_t slave_verify(Repl *r, const uint32_t *sums, uint8_t *bad)
{
    uint32_t nbad = 0;

    for (uint32_t i = 0; i < r->nchunks; i++) {
        bad[i] = crc32_update(0, r->d.buf + i * r->chunk, chunk_len(r, i)) != sums[i];
        nbad += bad[i];
    }
    return nbad;
}

/* Re-fetch the nbad chunks marked in bad by unicast DMA until every CRC
 * matches. Returns the bytes recovered. */
static uint32_t slave_recover(Repl *r, const uint32_t *sums, uint8_t *bad,
                              uint32_t nbad)
{
    uint32_t recovered = 0;
    unsigned rounds = 0;
    Msg m;

    while (nbad && !timed_out(r) && rounds++ < 1000) {
        for (uint32_t i = 0; i < r->nchunks; i++) {
            uint32_t n = 0, w[2];

            if (!bad[i]) {
                continue;
            }
            while (i + n < r->nchunks && bad[i + n] && n < RESEND_MAX_CHUNKS) {
                n++;
            }
            w[0] = i;
            w[1] = n;
            request(r, REPL_RESEND_REQ, w, 2, REPL_RESENT, &m);
            if (m.nwords < 3 || m.w[2] != 0) {
                info("slave %u: re-send of chunks %u+%u failed: %s\n", r->id,
                     i, n, m.nwords >= 3 ? oe_error_name(m.w[2]) : "?");
            }
            /* A failed block still delivered its fragments up to the
             * failure: check each chunk again rather than trust the code. */
            for (uint32_t k = i; k < i + n; k++) {
                if (crc32_update(0, r->d.buf + k * r->chunk, chunk_len(r, k)) == sums[k]) {
                    bad[k] = 0;
                    nbad--;
                    recovered += chunk_len(r, k);
                }
            }
            i += n - 1;
        }
    }
    return recovered;
}

static int slave_rmem(Repl *r, uint32_t *p50_us)
{
    EnocPeer p = { .mac = r->master_mac, .mode = ENOC_MODE_RMEM, .rmem_offset = 0,
                   .remote = r->master_rmem_bus, .size = 4 * RMEM_WORDS };
    uint32_t lat[RMEM_WORDS];
    unsigned bad = 0;

    cli_check(enoc_peer_set(&r->d, 1, &p));
    for (unsigned i = 0; i < RMEM_WORDS; i++) {
        /* A write that met a lost frame shows as the entry's error: retry. */
        for (int tries = 0; tries < RMEM_TRIES; tries++) {
            enoc_peer_clear_error(&r->d, 1);
            enoc_rmem_write(&r->d, 4 * i, rmem_word(i));
            if (!enoc_peer_status(&r->d, 1).error) {
                break;
            }
        }
    }
    for (unsigned i = 0; i < RMEM_WORDS; i++) {
        uint32_t v = 0;

        for (int tries = 0; tries < RMEM_TRIES; tries++) {
            uint64_t t0 = enoc_now_us();

            enoc_peer_clear_error(&r->d, 1);
            enoc_rmem_read(&r->d, 4 * i, &v);
            lat[i] = (uint32_t)(enoc_now_us() - t0);
            if (!enoc_peer_status(&r->d, 1).error) {
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
    p.mode = ENOC_MODE_DISABLED;
    enoc_peer_set(&r->d, 1, &p);
    info("slave %u: RMEM %u words written and read back, %u wrong, read p50 %u us\n",
         r->id, RMEM_WORDS, bad, *p50_us);
    return bad == 0;
}

/*
 * Wait for the multicast block. Sample words (the first of every chunk and
 * the last of the block) are watched until all hold the pattern; then the
 * slave tells the master, which times the arrival on its own clock (a
 * guest's clock is its own, and a busy host may not run this vCPU while the
 * block lands). The master announces the end of the block (REPL_STATUS,
 * PUSHED): if samples are still missing shortly after, fragments were lost
 * and the recovery finds them. Returns whether everything sampled arrived.
 */
static bool slave_wait_block(Repl *r, const uint32_t *off, const uint32_t *want)
{
    uint32_t nsamples = r->nchunks + 1, seen = 0;
    uint64_t pushed_at = 0, asked_at = enoc_now_us(), changed_at = 0, first_at = 0;
    Msg m;

    while (!timed_out(r)) {
        uint64_t now = enoc_now_us();
        uint32_t n = 0;

        for (uint32_t i = 0; i < nsamples; i++) {
            n += *(volatile uint32_t *)(r->d.buf + off[i]) == want[i];
        }
        if (n != seen) {
            seen = n;
            changed_at = now;
            first_at = first_at ? first_at : now;
        }
        if (n == nsamples) {
            request(r, REPL_ARRIVED, NULL, 0, REPL_ARRIVED_ACK, &m);
            info("slave %u: block seen arriving over %llu us here, "
                 "acknowledged %llu us later\n", r->id,
                 (unsigned long long)(changed_at - first_at),
                 (unsigned long long)(enoc_now_us() - changed_at));
            break;
        }
        if (recv_msg(r, &m, 0) && m.type == REPL_STATUS && m.nwords >= 1 &&
            m.w[0] == REPL_PUSHED && !pushed_at) {
            pushed_at = now;
        }
        if (pushed_at && now - pushed_at > 100000 && now - changed_at > 100000) {
            break;      /* the block is over and some of it did not come */
        }
        if (!pushed_at && now - asked_at > 300000 && now - changed_at > 300000) {
            /* Quiet for a while: the announcement may have been lost. */
            send_msg(r, r->master_mac, REPL_STATUS_REQ, r->id, ++r->seq, NULL, 0);
            asked_at = now;
        }
        /* The master times the arrival; this only has to notice it soon,
         * and a busier poll would take the CPU the transfer needs. */
        usleep(1000);
    }
    return seen == nsamples;
}

static int run_slave(Repl *r)
{
    EnocPeer p = { .mac = r->master_mac, .mode = ENOC_MODE_PULL, .local = 0,
                   .size = 0 };
    uint32_t *sums = calloc(r->nchunks, 4);
    uint8_t *bad = calloc(r->nchunks, 1);
    uint8_t *expect = malloc(r->size);
    uint32_t *off = calloc(r->nchunks + 1, 4), *want = calloc(r->nchunks + 1, 4);
    uint32_t w[3], recovered, nbad, p50 = 0;
    bool arrived, verified, rmem_ok = false;
    char mac[18];
    Msg m;

    if (!sums || !bad || !expect || !off || !want) {
        cli_die("out of memory");
    }
    setup_endpoint(r);
    memset(r->d.buf, 0, r->size);
    /* The words slave_wait_block watches; whatever the pattern, each starts
     * out wrong. Done before the HELLO: the block may follow at once. */
    for (uint32_t i = 0; i <= r->nchunks; i++) {
        off[i] = i < r->nchunks ? i * r->chunk : r->size - 4;
        pattern_fill((uint8_t *)&want[i], 4, r->seed, off[i]);
        *(uint32_t *)(r->d.buf + off[i]) = ~want[i];
    }
    /* Our window: incoming writes from the master land in the buffer. */
    p.local = r->d.buf_bus;
    p.size = r->size;
    cli_check(enoc_peer_set(&r->d, 0, &p));
    enoc_peer_clear_error(&r->d, 0);

    w[0] = r->d.buf_bus;
    w[1] = r->size;
    request(r, REPL_HELLO, w, 2, REPL_WELCOME, &m);
    r->master_rmem_bus = m.w[0];
    info("slave %u %s: registered, window at %#x\n", r->id,
         enoc_mac_str(r->mac, mac), r->d.buf_bus);
    arrived = slave_wait_block(r, off, want);
    for (uint32_t first = 0; first < r->nchunks; first += REPL_MAX_WORDS) {
        uint32_t count = r->nchunks - first < REPL_MAX_WORDS ? r->nchunks - first
                                                              : REPL_MAX_WORDS;
        w[0] = first;
        w[1] = count;
        request(r, REPL_SUMS_REQ, w, 2, REPL_SUMS, &m);
        if (m.nwords < 2 + count || m.w[0] != first) {
            cli_die("bad checksum reply");
        }
        memcpy(sums + first, m.w + 2, 4 * count);
    }
    nbad = slave_verify(r, sums, bad);
    info("slave %u: %u of %u chunks missing or wrong after the multicast\n",
         r->id, nbad, r->nchunks);
    recovered = slave_recover(r, sums, bad, nbad);
    pattern_fill(expect, r->size, r->seed, 0);
    verified = slave_verify(r, sums, bad) == 0 && !memcmp(expect, r->d.buf, r->size);
    if (r->rmem) {
        rmem_ok = slave_rmem(r, &p50);
    }
    w[0] = verified;
    w[1] = recovered;
    w[2] = !r->rmem ? REPL_RMEM_NONE : rmem_ok ? REPL_RMEM_OK : REPL_RMEM_FAILED;
    request(r, REPL_FINISHED, w, 3, REPL_BYE, &m);
    /* time_us: from the start of the block to this copy being complete
     * (after recovery, if any was needed), on the master's clock. */
    printf("OE-RESULT role=slave id=%u mac=%s bytes=%u time_us=%u arrived=%d "
           "recovered=%u chunks=%u verify=%s rmem=%s rmem_read_us_p50=%u\n",
           r->id, enoc_mac_str(r->mac, mac), r->size, m.nwords >= 1 ? m.w[0] : 0,
           arrived, recovered, r->nchunks, verified ? "ok" : "FAIL",
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
        { "chunk", required_argument, NULL, 'c' },
        { "fragment", required_argument, NULL, 'f' },
        { "seed", required_argument, NULL, 'S' },
        { "timeout", required_argument, NULL, 't' },
        { "rmem", no_argument, NULL, 'r' },
        { "dev", required_argument, NULL, 'd' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    Repl r = { .size = 4u << 20, .chunk = 64u << 10, .fragment = 8160, .seed = 1,
               .timeout_s = 240, .mac = 0x020E0C000001ull, .master_mac = 0x020E0C000001ull,
               .group = 0x030E0C000001ull };
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
        case 'n': r.nslaves = (unsigned)cli_num("--slaves", optarg, 64); break;
        case 'i': r.id = (unsigned)cli_num("--id", optarg, 64); break;
        case 'm': r.mac = cli_mac(optarg); break;
        case 'M': r.master_mac = cli_mac(optarg); break;
        case 'g': r.group = cli_mac(optarg); break;
        case 's': r.size = (uint32_t)cli_num("--size", optarg, 1u << 30); break;
        case 'c': r.chunk = (uint32_t)cli_num("--chunk", optarg, 1u << 30); break;
        case 'f': r.fragment = (uint32_t)cli_num("--fragment", optarg, 8160); break;
        case 'S': r.seed = (uint32_t)cli_num("--seed", optarg, UINT32_MAX); break;
        case 't': r.timeout_s = (int)cli_num("--timeout", optarg, 86400); break;
        case 'r': r.rmem = true; break;
        case 'd': index = (int)cli_num("--dev", optarg, 63); break;
        case 'h': fputs(usage, stdout); return 0;
        default: cli_usage_error("bad option");
        }
    }
    if (optind != argc) {
        cli_usage_error("unexpected argument '%s'", argv[optind]);
    }
    if (r.size == 0 || r.size % 4 || r.chunk == 0 || r.chunk % 4) {
        cli_usage_error("--size and --chunk must be non-zero multiples of 4");
    }
    if (r.fragment < 4) {
        cli_usage_error("--fragment must be 4..8160");
    }
    if (!oetp_mac_is_group(r.group)) {
        cli_usage_error("--group must be a group MAC (I/G bit set)");
    }
    if (r.master ? r.nslaves == 0 : r.id == 0 || r.id > 64) {
        cli_usage_error(r.master ? "master wants --slaves N" : "slave wants --id 1..64");
    }
    r.nchunks = (r.size + r.chunk - 1) / r.chunk;
    r.deadline_us = enoc_now_us() + (uint64_t)r.timeout_s * 1000000;
    cli_check(enoc_open(&r.d, index));
    return r.master ? run_master(&r) : run_slave(&r);
}
