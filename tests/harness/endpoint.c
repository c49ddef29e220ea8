/* Endpoint-level helpers for tests: configuration and status through CSRs
 * only, with offsets and fields from the generated regs.h. */
#include "harness.h"

void hn_set_mac(HNode *n, uint64_t mac)
{
    hn_wr64(n, OE_CONFIG_MAC_ADDRESS, mac);
    n->mac = mac;
}

void hn_set_mcast(HNode *n, uint64_t mac)
{
    hn_wr64(n, OE_CONFIG_MULTICAST_ADDRESS, mac);
}

void hn_peer(HNode *n, unsigned idx, const HPeer *p)
{
    hn_wr64(n, OE_PEER_MAC_ADDRESS(idx), p->mac);
    hn_wr(n, OE_PEER_RMEM_ADDRESS(idx), p->rmem_address);
    hn_wr(n, OE_PEER_LOCAL_ADDRESS(idx), p->local_address);
    hn_wr(n, OE_PEER_REMOTE_ADDRESS(idx), p->remote_address);
    hn_wr(n, OE_PEER_SIZE(idx), p->size);
    hn_wr(n, OE_PEER_DMA(idx), H_PUT(OE_PEER_DMA_MODE, p->mode) |
          H_PUT(OE_PEER_DMA_IRQ_ENABLE, p->irq_enable));
}

uint32_t hn_dma(HNode *n, unsigned idx)
{
    return hn_rd(n, OE_PEER_DMA(idx));
}

void hn_dma_request(HNode *n, unsigned idx)
{
    uint32_t keep = hn_dma(n, idx) &
                    (OE_PEER_DMA_MODE_MASK | OE_PEER_DMA_IRQ_ENABLE_MASK);
    hn_wr(n, OE_PEER_DMA(idx), keep | OE_PEER_DMA_REQUEST_MASK);
}

uint32_t hn_dma_run(HNode *n, unsigned idx)
{
    uint32_t v;

    hn_dma_request(n, idx);
    H_CHECKF(hw_run_idle(n->w, 1ull << 40), "world never went idle");
    v = hn_dma(n, idx);
    H_CHECKF(!H_GET(v, OE_PEER_DMA_REQUEST) && H_GET(v, OE_PEER_DMA_IDLE),
             "%s: peer %u block not finished: dma=0x%08x", n->name, idx, v);
    return v;
}

void hn_clear_error(HNode *n, unsigned idx)
{
    uint32_t keep = hn_dma(n, idx) &
                    (OE_PEER_DMA_MODE_MASK | OE_PEER_DMA_IRQ_ENABLE_MASK);
    hn_wr(n, OE_PEER_DMA(idx), keep | OE_PEER_DMA_CLEAR_ERROR_MASK);
}

void hn_irq_enable(HNode *n, uint32_t event_mask)
{
    hn_wr(n, OE_IRQ_EVENT_ENABLE, event_mask);
    hn_wr(n, OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK);
}

uint32_t hn_claim(HNode *n)
{
    return hn_rd(n, OE_IRQ_CLAIM);
}

void hn_complete(HNode *n, uint32_t claim)
{
    hn_wr(n, OE_IRQ_COMPLETE, claim | OE_IRQ_COMPLETE_VALID_MASK);
}

unsigned hn_fifo_level(HNode *n)
{
    return H_GET(hn_rd(n, OE_IRQ_STATUS), OE_IRQ_STATUS_FIFO_LEVEL);
}

void hx_mirror(HNode *a, unsigned ia, HNode *b, unsigned ib, bool push,
               uint32_t la, uint32_t rb, uint32_t size)
{
    hn_peer(a, ia, &(HPeer){ .mac = b->mac, .local_address = la,
                             .remote_address = rb, .size = size,
                             .mode = push ? 3 : 2 });
    hn_peer(b, ib, &(HPeer){ .mac = a->mac, .local_address = rb,
                             .remote_address = la, .size = size,
                             .mode = push ? 2 : 3 });
}
