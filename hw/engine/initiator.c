/*
 * The single initiating context (oetp-engine.txt "Transfer sequencing and
 * timeouts"): at most one locally initiated unicast request is outstanding.
 * A pending RMEM access takes the free slot ahead of the next bulk fragment;
 * replies are matched on source MAC, Request ID and expected command; the
 * response timer is sampled when the request is accepted and runs from the
 * moment its frame is handed to the host.
 */
#include "engine_internal.h"

void oe_initiator_wait(OeEngine *e, OeInitKind kind, unsigned peer,
                       uint32_t rid, uint64_t mac, uint32_t local,
                       uint32_t len, uint32_t timeout)
{
    e->init = (OeInitiator) {
        .kind = (uint8_t)kind,
        .peer = (uint8_t)peer,
        .rid = rid,
        .peer_mac = mac,
        .local = local,
        .len = len,
        .deadline = timeout ? e->now + timeout : OE_NO_DEADLINE,
    };
}

bool oe_initiator_has_work(const OeEngine *e)
{
    return e->init.kind == OE_INIT_NONE &&
           ((e->rmem.valid && !e->rmem.started) || oe_peer_has_fragment(e));
}

bool oe_initiator_step(OeEngine *e)
{
    if (!oe_initiator_has_work(e) || !oe_tx_ready(e)) {
        return false;
    }
    if (e->rmem.valid && !e->rmem.started) {
        oe_rmem_start(e);
    } else {
        oe_peer_send_fragment(e, (unsigned)oe_peer_next_fragment(e));
    }
    return true;
}

/* End the outstanding request with a CSR code (0 = success). */
static void initiator_complete(OeEngine *e, uint8_t code, uint32_t data)
{
    OeInitiator done = e->init;

    e->init.kind = OE_INIT_NONE;
    switch (done.kind) {
    case OE_INIT_RMEM_READ:
    case OE_INIT_RMEM_WRITE:
        oe_rmem_done(e, code, data);
        break;
    case OE_INIT_DMA_READ:
    case OE_INIT_DMA_WRITE:
        oe_peer_fragment_done(e, done.peer, code);
        break;
    default:
        break;
    }
}

void oe_initiator_timeout(OeEngine *e)
{
    /* The Request ID is retired: a late reply no longer matches. */
    initiator_complete(e, OE_ERR_TIMEOUT, 0);
}

static uint8_t expected_reply(uint8_t kind)
{
    switch (kind) {
    case OE_INIT_RMEM_READ:  return OETP_RMEM_READ_RSP;
    case OE_INIT_RMEM_WRITE: return OETP_RMEM_WRITE_RSP;
    case OE_INIT_DMA_READ:   return OETP_DMA_READ_RSP;
    default:                 return OETP_DMA_WRITE_RSP;
    }
}

void oe_initiator_reply(OeEngine *e, const OetpHeader *h,
                        const OetpParams *p, const uint8_t *f, size_t len)
{
    OeInitiator *c = &e->init;

    /* Unmatched or late replies are discarded without touching memory. */
    if (c->kind == OE_INIT_NONE || p->count < 1 || h->src != c->peer_mac ||
        p->rid != c->rid) {
        return;
    }
    uint8_t want = expected_reply(c->kind);
    if (h->cmd != want && h->cmd != OETP_ERROR_RSP) {
        return;
    }
    uint8_t code;

    if (h->cmd == OETP_DMA_READ_RSP) {
        /* Streamed to local memory before the trailer is checked. */
        code = oe_rx_data(e, f, len, h->cmd, p, c->local, c->len);
    } else if (!oe_frame_len_ok(e, len, oetp_frame_len(h->cmd, c->len))) {
        code = OE_ERR_REMOTE_AXIS;   /* malformed but associated reply */
    } else if (h->cmd == OETP_ERROR_RSP) {
        code = (uint8_t)oetp_csr_error_from_wire(p->cause);
    } else {
        code = OE_ERR_NONE;
    }
    /* p->data is RMEM_READ_RSP's Data, 0 for the other replies. */
    initiator_complete(e, code, code == OE_ERR_NONE ? p->data : 0);
}
