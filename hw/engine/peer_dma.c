/*
 * Peer bulk DMA (endpoint.md section 4): software-started blocks, their
 * acceptance and snapshot, fragmentation, and block completion.
 *
 * One fragment is on the wire at a time across all peers (the single
 * initiating context, initiator.c); active blocks take turns round-robin.
 */
#include "engine_internal.h"

static uint32_t dma_reg(const OeEngine *e, unsigned n)
{
    return oe_reg(e, OE_PEER_DMA(n));
}

/*
 * The destination of a fragment. The oETP initiator looks the peer up for
 * every command it accepts (oetp-engine.txt: it "snapshots its MAC addresses"
 * at command acceptance), so a fragment goes to the entry's MAC as it is now;
 * the lookup matches only the mode that permits the command ("Mode 2 permits
 * a locally initiated read ...; mode 3 permits a locally initiated write"),
 * and a group destination takes writes only, so a reconfigured entry fails
 * the fragment with code 1.
 */
static bool fragment_target(const OeEngine *e, unsigned n, uint64_t *mac)
{
    *mac = oe_peer_mac(e, n);
    return oe_peer_mode(e, n) == e->peer[n].blk.mode &&
           !(oetp_mac_is_group(*mac) &&
             e->peer[n].blk.mode == OE_MODE_MIRROR_REMOTE_TO_LOCAL);
}

/* A block's parameters are valid (checked on the snapshot). */
static bool block_valid(const OeEngine *e, const OePeerBlock *b)
{
    if (b->mode != OE_MODE_MIRROR_REMOTE_TO_LOCAL &&
        b->mode != OE_MODE_MIRROR_LOCAL_TO_REMOTE) {
        return false;
    }
    if (b->size == 0 || b->mfs < 4 || b->mfs > e->frag_ceiling) {
        return false;
    }
    if ((uint64_t)b->local + b->size > 0x100000000ull ||
        (uint64_t)b->remote + b->size > 0x100000000ull) {
        return false;
    }
    return true;
}

static void block_end(OeEngine *e, unsigned n)
{
    OePeer *p = &e->peer[n];

    oe_dma_status_end(e, &p->st, p->blk.failed ? p->blk.code : OE_ERR_NONE,
                      p->blk.irq_reserved, OE_SRC_PEER_DMA, (uint16_t)n);
    p->blk.active = false;
}

static void accept_block(OeEngine *e, unsigned n)
{
    OePeer *p = &e->peer[n];
    uint32_t dma = dma_reg(e, n);
    bool enabled = oe_irq_event_enabled(e, OE_SRC_PEER_DMA) &&
                   (dma & OE_PEER_DMA_IRQ_ENABLE_MASK);

    if (enabled && !oe_irq_reserve(e)) {
        return;   /* request stays set until a credit frees */
    }
    oe_reg_clear_bits(e, OE_PEER_DMA(n), OE_PEER_DMA_REQUEST_MASK);
    p->st.done = false;
    p->blk = (OePeerBlock) {
        .irq_reserved = enabled,
        .mode = (uint8_t)(dma & OE_PEER_DMA_MODE_MASK),
        .local = oe_reg(e, OE_PEER_LOCAL_ADDRESS(n)),
        .remote = oe_reg(e, OE_PEER_REMOTE_ADDRESS(n)),
        .size = oe_reg(e, OE_PEER_SIZE(n)),
        .mfs = oe_reg(e, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE) & ~3u,
    };
    uint64_t mac;
    if (!block_valid(e, &p->blk) || !fragment_target(e, n, &mac)) {
        p->blk.failed = true;
        p->blk.code = OE_ERR_LOCAL_INVALID;
        block_end(e, n);
        return;
    }
    p->blk.active = true;
    p->st.idle = false;
}

/* Clearing an error never aborts work or touches done/idle/IRQ claims; a
 * request waits (bit set) until the block is idle and a credit is free. */
void oe_peer_dma_accept(OeEngine *e)
{
    for (unsigned i = 0; i < OE_NUM_PEERS; i++) {
        unsigned n = (e->peer_rr + i) % OE_NUM_PEERS;
        if (!(dma_reg(e, n) & (OE_PEER_DMA_CLEAR_ERROR_MASK |
                               OE_PEER_DMA_REQUEST_MASK))) {
            continue;   /* the common case after every host call */
        }
        oe_dma_status_take_clear(e, &e->peer[n].st, OE_PEER_DMA(n),
                                 OE_PEER_DMA_CLEAR_ERROR_MASK);
        if ((dma_reg(e, n) & OE_PEER_DMA_REQUEST_MASK) && e->peer[n].st.idle) {
            accept_block(e, n);
        }
    }
}

/* A peer whose block has an unsent fragment, round-robin; -1 if none. */
int oe_peer_next_fragment(OeEngine *e)
{
    for (unsigned i = 0; i < OE_NUM_PEERS; i++) {
        unsigned n = (e->peer_rr + i) % OE_NUM_PEERS;
        const OePeerBlock *b = &e->peer[n].blk;
        if (b->active && !b->failed && b->issued < b->size) {
            e->peer_rr = (uint8_t)((n + 1) % OE_NUM_PEERS);
            return (int)n;
        }
    }
    return -1;
}

bool oe_peer_has_fragment(const OeEngine *e)
{
    for (unsigned n = 0; n < OE_NUM_PEERS; n++) {
        const OePeerBlock *b = &e->peer[n].blk;
        if (b->active && !b->failed && b->issued < b->size) {
            return true;
        }
    }
    return false;
}

/* Start the next fragment of peer n's block. */
void oe_peer_send_fragment(OeEngine *e, unsigned n)
{
    OePeerBlock *b = &e->peer[n].blk;
    uint32_t left = b->size - b->issued;
    uint32_t len = left < b->mfs ? left : b->mfs;
    uint32_t local = b->local + b->issued;
    uint32_t remote = b->remote + b->issued;
    uint64_t mac;
    uint64_t src = oe_local_mac(e);

    b->issued += len;
    b->seq++;
    if (!fragment_target(e, n, &mac)) {
        oe_peer_fragment_done(e, n, OE_ERR_LOCAL_INVALID);
        return;
    }
    uint32_t rid = oe_alloc_rid(e);
    bool group = oetp_mac_is_group(mac);
    if (b->mode == OE_MODE_MIRROR_REMOTE_TO_LOCAL) {
        size_t flen = oetp_build_dma_read_req(e->txbuf, mac, src, rid,
                                              remote, len);
        oe_tx(e, e->txbuf, flen);
        oe_initiator_wait(e, OE_INIT_DMA_READ, n, rid, mac, local, len,
                          oe_reg(e, OE_CONFIG_DMA_TIMEOUT));
        return;
    }

    /* Mode 3: stream local bytes straight into a DMA_WRITE_REQ. */
    uint8_t *data = e->txbuf + OETP_OFF_WRITE_DATA;
    OeMemStatus st;
    uint32_t got = oe_mem_read_stream(e, local, data, len, &st);
    if (got == 0 && st != OE_MEM_OK) {
        /* Failure known before the frame started: nothing is sent. */
        oe_peer_fragment_done(e, n, oe_mem_read_code(st));
        return;
    }
    size_t flen = st == OE_MEM_OK ?
        oetp_build_dma_write_req(e->txbuf, mac, src, rid, remote, data, len,
                                 true) :
        oetp_build_dma_write_req_cut(e->txbuf, mac, src, rid, remote, len,
                                     data, got);
    /* A source failure after the frame started ends it without EndOfData;
     * the failed fragment does not wait for a reply to that frame. */
    oe_tx(e, e->txbuf, flen);
    if (st != OE_MEM_OK) {
        oe_peer_fragment_done(e, n, oe_mem_read_code(st));
    } else if (group) {
        oe_peer_fragment_done(e, n, OE_ERR_NONE);   /* local completion */
    } else {
        oe_initiator_wait(e, OE_INIT_DMA_WRITE, n, rid, mac, local, len,
                          oe_reg(e, OE_CONFIG_DMA_TIMEOUT));
    }
}

void oe_peer_fragment_done(OeEngine *e, unsigned n, uint8_t code)
{
    OePeerBlock *b = &e->peer[n].blk;

    if (!b->active) {
        return;
    }
    if (code != OE_ERR_NONE && !b->failed) {
        b->failed = true;   /* the first failure fixes the block's code */
        b->code = code;
    }
    if (b->failed || b->issued == b->size) {
        block_end(e, n);
    }
}
