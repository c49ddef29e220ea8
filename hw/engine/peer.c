/*
 * The peer table (endpoint.md section 3): the lookups every controller makes
 * on peers.entry[n] (by source MAC, by RMEM window offset; the entry's mode
 * and MAC are inline in engine_internal.h), and the per-peer error record that bulk DMA, the RMEM initiator
 * and the responder share.
 */
#include "engine_internal.h"

/* Lowest-numbered enabled (mode != 0) entry with this MAC, or -1. */
int oe_peer_by_mac(const OeEngine *e, uint64_t mac)
{
    for (unsigned n = 0; n < OE_NUM_PEERS; n++) {
        if (oe_peer_mode(e, n) != OE_MODE_DISABLED && oe_peer_mac(e, n) == mac) {
            return (int)n;
        }
    }
    return -1;
}

/* Lowest-numbered mode-1 entry whose RMEM slice holds word offset woff,
 * or -1. */
int oe_peer_by_rmem(const OeEngine *e, uint32_t woff)
{
    for (unsigned n = 0; n < OE_NUM_PEERS; n++) {
        uint64_t base = oe_reg(e, OE_PEER_RMEM_ADDRESS(n));
        uint64_t size = oe_reg(e, OE_PEER_SIZE(n));
        if (oe_peer_mode(e, n) == OE_MODE_RMEM && size != 0 &&
            base <= woff && woff < base + size) {
            return (int)n;
        }
    }
    return -1;
}

void oe_peer_record_error(OeEngine *e, unsigned n, uint8_t code)
{
    oe_dma_status_fail(&e->peer[n].st, code);
}
