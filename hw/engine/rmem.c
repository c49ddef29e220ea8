/*
 * RMEM initiator (endpoint.md section 5): a load or store in the CSR window
 * 0xC00..0xFFF becomes a remote 32-bit access through the peer whose RMEM
 * slice contains it. The bus access stays pending until the operation ends;
 * it always completes OK on the bus, with all ones for a failed read.
 */
#include "engine_internal.h"

static uint32_t lanes_of(unsigned size, unsigned byte)
{
    uint32_t m = size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
    return m << (8 * byte);
}

static void rmem_failed(OeEngine *e, unsigned n, uint8_t code)
{
    oe_peer_record_error(e, n, code);
    /* The enable is sampled at detection; repeated failures before the
     * event is admitted coalesce into one claim. */
    if (oe_irq_event_enabled(e, OE_SRC_RMEM_ERROR)) {
        e->peer[n].rmem_event_pending = true;
    }
}

void oe_deliver_rmem_events(OeEngine *e)
{
    for (unsigned n = 0; n < OE_NUM_PEERS; n++) {
        if (e->peer[n].rmem_event_pending && oe_irq_reserve(e)) {
            e->peer[n].rmem_event_pending = false;
            oe_irq_commit(e, OE_SRC_RMEM_ERROR, (uint16_t)n, true);
        }
    }
}

void oe_rmem_finish(OeEngine *e, uint32_t word)
{
    OeRmemAccess *a = &e->rmem;
    uint32_t byte = a->offset & 3;
    uint32_t value = a->size == 4 ? word
                     : (word >> (8 * byte)) & ((1u << (8 * a->size)) - 1);

    a->valid = false;
    if (e->rmem_sync) {
        e->rmem_sync_done = true;
        e->rmem_sync_value = value;
    } else if (e->ops.csr_complete) {
        e->ops.csr_complete(e->opaque, value);
    }
}

/* The access ended with a failure: reads see all ones, writes just end. */
static void rmem_end_failed(OeEngine *e, uint8_t code)
{
    rmem_failed(e, e->rmem.peer, code);
    oe_rmem_finish(e, 0xFFFFFFFFu);
}

OeCsrStatus oe_rmem_access(OeEngine *e, uint32_t off, unsigned size,
                           bool is_write, uint32_t value, uint32_t *rvalue)
{
    uint32_t woff = off & ~3u;
    unsigned byte = off & 3;
    int n = oe_peer_by_rmem(e, woff);

    *rvalue = 0;
    if (n < 0) {
        /* A miss records nothing; reads return all ones. */
        *rvalue = size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1;
        return OE_CSR_DONE;
    }
    e->rmem = (OeRmemAccess) {
        .valid = true,
        .is_write = is_write,
        .size = (uint8_t)size,
        .offset = (uint16_t)off,
        .peer = (uint8_t)n,
        .biten = lanes_of(size, byte),
        .wdata = value << (8 * byte),
    };
    uint64_t disp = woff - oe_reg(e, OE_PEER_RMEM_ADDRESS(n));
    uint64_t remote = oe_reg(e, OE_PEER_REMOTE_ADDRESS(n)) + disp;
    bool group = oetp_mac_is_group(oe_peer_mac(e, (unsigned)n));
    if (disp + 4 > oe_reg(e, OE_PEER_SIZE(n)) || remote + 4 > 0x100000000ull ||
        (group && !is_write)) {
        rmem_end_failed(e, OE_ERR_LOCAL_INVALID);
    } else {
        e->rmem.remote = (uint32_t)remote;
    }
    /* Started by oe_initiator_step() once no fragment is in flight; an
     * access that ends inside this CSR call (as the failure above) is
     * turned into DONE by engine.c's csr_access. */
    return OE_CSR_PENDING;
}

/* Send the pending access (the initiating slot is free, TX is ready). */
void oe_rmem_start(OeEngine *e)
{
    OeRmemAccess *a = &e->rmem;
    unsigned n = a->peer;
    uint64_t mac = oe_peer_mac(e, n);
    uint64_t src = oe_local_mac(e);
    uint32_t rid = oe_alloc_rid(e);
    size_t len;

    a->started = true;
    if (oetp_mac_is_group(mac) && !a->is_write) {
        /* Reconfigured to a group since the access arrived: reads of a
         * group are rejected locally, never transmitted. */
        rmem_end_failed(e, OE_ERR_LOCAL_INVALID);
        return;
    }
    if (a->is_write) {
        len = oetp_build_rmem_write_req(e->txbuf, mac, src, rid, a->remote,
                                        a->biten, a->wdata);
    } else {
        len = oetp_build_rmem_read_req(e->txbuf, mac, src, rid, a->remote);
    }
    oe_tx(e, e->txbuf, len);
    if (oetp_mac_is_group(mac)) {
        oe_rmem_finish(e, 0);   /* group write: done once the frame left */
        return;
    }
    oe_initiator_wait(e, a->is_write ? OE_INIT_RMEM_WRITE : OE_INIT_RMEM_READ,
                      n, rid, mac, 0, 4, oe_reg(e, OE_CONFIG_RMEM_TIMEOUT));
}

void oe_rmem_done(OeEngine *e, uint8_t code, uint32_t data)
{
    if (code != OE_ERR_NONE) {
        rmem_end_failed(e, code);
    } else {
        oe_rmem_finish(e, e->rmem.is_write ? 0 : data);
    }
}
