/*
 * Servicing received requests (endpoint.md section 5; oetp-engine.txt "Peer
 * access checks" and "Streaming receive").
 *
 * The source MAC resolves to a local peer entry (mode != 0, lowest index);
 * the request is checked against that peer's mode and local window in
 * widened arithmetic before any memory access. Unicast requests get exactly
 * one reply (success or ERROR_RSP); group writes never get one. A failure is
 * recorded in the peer's error field first, then notified if enabled; while
 * that notification waits for an IRQ credit the responder is busy and new
 * requests are dropped without reply.
 */
#include "engine_internal.h"

/* Everything a request needs while it is serviced. */
typedef struct OeReq {
    uint8_t cmd;
    unsigned peer;
    bool group;
    uint64_t src;               /* requester, destination of the reply */
    uint32_t rid;
} OeReq;

void oe_responder_deliver_notification(OeEngine *e)
{
    if (!e->resp_notify_pending || !oe_irq_reserve(e)) {
        return;
    }
    e->resp_notify_pending = false;
    oe_irq_commit(e, e->resp_notify_source, e->resp_notify_peer, true);
}

/*
 * Record a servicing failure: peer CSR code first, then an event if enabled
 * (PEER_DMA_COMPLETE with the per-peer enable for bulk, RMEM_ERROR for RMEM).
 */
static void record_failure(OeEngine *e, const OeReq *r, uint8_t csr_code)
{
    bool rmem = r->cmd == OETP_RMEM_READ_REQ || r->cmd == OETP_RMEM_WRITE_REQ;
    uint8_t source = rmem ? OE_SRC_RMEM_ERROR : OE_SRC_PEER_DMA;
    bool enabled = oe_irq_event_enabled(e, source) &&
                   (rmem || (oe_reg(e, OE_PEER_DMA(r->peer)) &
                             OE_PEER_DMA_IRQ_ENABLE_MASK));

    oe_peer_record_error(e, r->peer, csr_code);
    if (enabled) {
        e->resp_notify_pending = true;
        e->resp_notify_source = source;
        e->resp_notify_peer = (uint8_t)r->peer;
        oe_responder_deliver_notification(e);
    }
}

static void reply_error(OeEngine *e, const OeReq *r, uint8_t cause,
                        uint8_t csr_code)
{
    record_failure(e, r, csr_code);
    if (!r->group) {
        size_t n = oetp_build_error_rsp(e->txbuf, r->src, oe_local_mac(e),
                                        r->rid, cause);
        oe_tx(e, e->txbuf, n);
    }
}

static void reply(OeEngine *e, const OeReq *r, size_t len)
{
    if (!r->group) {
        oe_tx(e, e->txbuf, len);
    }
}

/* Window and mode check of [addr, addr + len) for peer n (33-bit math). */
static bool access_allowed(const OeEngine *e, unsigned n, uint8_t cmd,
                           uint32_t addr, uint32_t len)
{
    uint32_t mode = oe_peer_mode(e, n);
    uint64_t base = oe_reg(e, OE_PEER_LOCAL_ADDRESS(n));
    uint64_t end = base + oe_reg(e, OE_PEER_SIZE(n));

    switch (cmd) {
    case OETP_RMEM_READ_REQ:
    case OETP_RMEM_WRITE_REQ:
        if (mode != OE_MODE_RMEM || (addr & 3)) {
            return false;
        }
        break;
    case OETP_DMA_WRITE_REQ:
        if (mode != OE_MODE_MIRROR_REMOTE_TO_LOCAL) {
            return false;
        }
        break;
    case OETP_DMA_READ_REQ:
        if (mode != OE_MODE_MIRROR_LOCAL_TO_REMOTE) {
            return false;
        }
        break;
    default:
        return false;
    }
    return len > 0 && len <= e->frag_ceiling && base <= addr &&
           (uint64_t)addr + len <= end && end <= 0x100000000ull;
}

static void rmem_read(OeEngine *e, const OeReq *r, uint32_t addr)
{
    uint8_t b[4];
    OeMemStatus st;

    if (oe_mem_read(e, addr, b, 4, &st) != 4) {
        /* The local register bus has one error bit: cause 4 for reads. */
        reply_error(e, r, OETP_CAUSE_RD_SLVERR, OE_ERR_LOCAL_RD_SLVERR);
        return;
    }
    reply(e, r, oetp_build_rmem_read_rsp(e->txbuf, r->src, oe_local_mac(e),
                                         r->rid, oetp_get_le32(b)));
}

static void rmem_write(OeEngine *e, const OeReq *r, uint32_t addr,
                       uint32_t biten, uint32_t data)
{
    uint8_t b[4];
    OeMemStatus st = OE_MEM_OK;

    if (biten == 0xFFFFFFFFu) {
        oetp_put_le32(b, data);
        oe_mem_write(e, addr, b, 4, &st);
    } else if (biten != 0) {
        /* A partial mask is a read-merge-write of the word; a zero mask is
         * a successful no-op. */
        if (oe_mem_read(e, addr, b, 4, &st) == 4) {
            uint32_t v = (oetp_get_le32(b) & ~biten) | (data & biten);
            oetp_put_le32(b, v);
            oe_mem_write(e, addr, b, 4, &st);
        }
    }
    if (st != OE_MEM_OK) {
        reply_error(e, r, OETP_CAUSE_WR_SLVERR, OE_ERR_LOCAL_WR_SLVERR);
        return;
    }
    reply(e, r, oetp_build_rmem_write_rsp(e->txbuf, r->src, oe_local_mac(e),
                                          r->rid));
}

static void dma_read(OeEngine *e, const OeReq *r, uint32_t addr, uint32_t len)
{
    uint8_t *data = e->txbuf + OETP_OFF_READ_DATA;
    OeMemStatus st;
    uint32_t got = oe_mem_read_stream(e, addr, data, len, &st);

    if (got == 0 && st != OE_MEM_OK) {
        /* Failure before the response started: ERROR_RSP with the cause. */
        uint8_t code = oe_mem_read_code(st);
        reply_error(e, r, code, code);
        return;
    }
    /* A failure after the response started ends it without EndOfData; no
     * second reply is sent. */
    oe_tx(e, e->txbuf, oetp_build_dma_read_rsp(e->txbuf, r->src,
                                               oe_local_mac(e), r->rid, data,
                                               got, st == OE_MEM_OK));
    if (st != OE_MEM_OK) {
        record_failure(e, r, oe_mem_read_code(st));
    }
}

/* DMA_WRITE_REQ: an incomplete frame records code 10 and answers cause 2;
 * a bus failure answers its own cause. */
static void dma_write(OeEngine *e, const OeReq *r, const uint8_t *f,
                      size_t flen, const OetpParams *p)
{
    uint8_t code = oe_rx_data(e, f, flen, OETP_DMA_WRITE_REQ, p, p->addr,
                              p->length);

    if (code == OE_ERR_REMOTE_AXIS) {
        reply_error(e, r, OETP_CAUSE_AXIS, code);
    } else if (code != OE_ERR_NONE) {
        reply_error(e, r, code, code);
    } else {
        reply(e, r, oetp_build_dma_write_rsp(e->txbuf, r->src,
                                             oe_local_mac(e), r->rid));
    }
}

/* Fixed-layout requests are accepted at their exact length or padded. */
static bool fixed_len_ok(const OeEngine *e, uint8_t cmd, size_t len)
{
    return oe_frame_len_ok(e, len, oetp_frame_len(cmd, 0));
}

void oe_responder_request(OeEngine *e, const OetpHeader *h,
                          const OetpParams *p, const uint8_t *f, size_t len)
{
    int n = oe_peer_by_mac(e, h->src);
    OeReq r = {
        .cmd = h->cmd,
        .group = oetp_mac_is_group(h->dst),
        .src = h->src,
    };

    /* Unknown sources are dropped; group reads are never answered; a busy
     * responder drains new requests; without a Request ID there is nothing
     * to answer. */
    if (n < 0 || p->count < 1 || e->resp_notify_pending ||
        (r.group && (h->cmd == OETP_RMEM_READ_REQ ||
                     h->cmd == OETP_DMA_READ_REQ))) {
        return;
    }
    r.peer = (unsigned)n;
    r.rid = p->rid;

    if (h->cmd == OETP_DMA_WRITE_REQ) {
        if (p->count < oetp_fixed_params(h->cmd)) {
            reply_error(e, &r, OETP_CAUSE_AXIS, OE_ERR_REMOTE_AXIS);
            return;
        }
        if (!access_allowed(e, r.peer, h->cmd, p->addr, p->length)) {
            reply_error(e, &r, OETP_CAUSE_INVALID, OE_ERR_LOCAL_INVALID);
            return;
        }
        dma_write(e, &r, f, len, p);
        return;
    }
    if (!fixed_len_ok(e, h->cmd, len)) {
        /* Malformed fixed-length request from a known peer. */
        reply_error(e, &r, OETP_CAUSE_AXIS, OE_ERR_LOCAL_AXIS);
        return;
    }
    uint32_t alen = h->cmd == OETP_DMA_READ_REQ ? p->length : 4;
    if (!access_allowed(e, r.peer, h->cmd, p->addr, alen)) {
        reply_error(e, &r, OETP_CAUSE_INVALID, OE_ERR_LOCAL_INVALID);
        return;
    }
    switch (h->cmd) {
    case OETP_RMEM_READ_REQ:
        rmem_read(e, &r, p->addr);
        break;
    case OETP_RMEM_WRITE_REQ:
        rmem_write(e, &r, p->addr, p->biten, p->data);
        break;
    case OETP_DMA_READ_REQ:
        dma_read(e, &r, p->addr, alen);
        break;
    default:
        break;
    }
}
