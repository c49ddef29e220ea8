/*
 * CSR decode of the 8 KiB aperture: reads compose hardware-driven fields
 * from the controllers' state over the register store (store.c); writes go
 * to the store, whose command bits the controllers take when the engine
 * accepts work (engine.c). Only the IRQ controller has write hooks: a claim
 * completion frees a credit the other controllers then compete for. The
 * RMEM window is passed to rmem.c.
 */
#include "engine_internal.h"

static uint64_t info_value(const OeEngine *e)
{
    return (uint64_t)OE_RMEM_ENTRIES << OE_INFO_RMEM_TOTAL_DEPTH_SHIFT |
           (uint64_t)OE_NUM_PEERS << OE_INFO_NUM_OF_PEERS_SHIFT |
           OE_INFO_PEER_DMA_SUPPORTED_MASK |
           OE_INFO_NON_OETP_DMA_SUPPORTED_MASK |
           OE_INFO_DIRECT_AXIS_SUPPORTED_MASK |
           OE_INFO_RMEM_SUPPORTED_MASK | OE_INFO_IRQ_SUPPORTED_MASK |
           (uint64_t)e->max_frame << OE_INFO_MAX_DMA_FRAME_SIZE_BYTES_SHIFT;
}

/* Peer index of a peers.entry[n].dma word, or -1. */
static int peer_dma_word(uint32_t off)
{
    if (off < OE_PEER_BASE || off >= OE_PEER_BASE + OE_NUM_PEERS * OE_PEER_STRIDE) {
        return -1;
    }
    uint32_t rel = (off - OE_PEER_BASE) % OE_PEER_STRIDE;
    return rel == OE_PEER_DMA_REL ? (int)((off - OE_PEER_BASE) / OE_PEER_STRIDE)
                                  : -1;
}

static uint32_t read_word(const OeEngine *e, uint32_t off)
{
    uint32_t stored = oe_reg(e, off);
    int n;

    switch (off) {
    case OE_INFO:
        return (uint32_t)info_value(e);
    case OE_INFO_HI:
        return (uint32_t)(info_value(e) >> 32);
    case OE_DIRECT_SOURCE_STATUS:
    case OE_DIRECT_SINK_DATA:
    case OE_DIRECT_SINK_STATUS:
        return oe_direct_read(e, off);
    case OE_RAW_TX_COMMAND_STATUS:
        return stored | oe_raw_tx_status(e);
    case OE_RAW_TX_TRANSFERRED_LENGTH:
        return e->raw_tx.transferred;
    case OE_RAW_RX_COMMAND_STATUS:
        return stored | oe_raw_rx_status(e);
    case OE_RAW_RX_RECEIVED_LENGTH:
        return e->raw_rx.received;
    case OE_IRQ_STATUS:
        return oe_irq_status(e);
    case OE_IRQ_CLAIM:
        return oe_irq_claim(e);
    case OE_SWITCH_INFO:
        return OE_SWITCH_INFO_RESET;
    case OE_SWITCH_FORWARDING_CONTROL:
        /* In the FPGA the switch acknowledges a pause at once. */
        return stored | ((stored & OE_SWITCH_FORWARDING_CONTROL_PAUSE_REQUEST_MASK)
                         ? OE_SWITCH_FORWARDING_CONTROL_PAUSE_DONE_MASK : 0);
    default:
        n = peer_dma_word(off);
        if (n >= 0) {
            return stored | oe_dma_status_bits(&e->peer[n].st);
        }
        return stored;
    }
}

/* The IRQ controller's write hooks (after the store was updated). */
static void written(OeEngine *e, uint32_t off)
{
    switch (off) {
    case OE_IRQ_CONTROL:
        oe_irq_control_written(e);
        break;
    case OE_IRQ_COMPLETE:
        oe_irq_complete_written(e);
        break;
    default:
        break;
    }
}

static bool access_ok(uint32_t offset, unsigned size)
{
    return (size == 1 || size == 2 || size == 4) && (offset & (size - 1)) == 0 &&
           offset < OE_CSR_APERTURE_SIZE;
}

OeCsrStatus oe_csr_read(OeEngine *e, uint32_t offset, unsigned size,
                        uint32_t *value)
{
    *value = 0;
    if (!access_ok(offset, size)) {
        return OE_CSR_DONE;   /* the bus never signals an error */
    }
    if (offset >= OE_RMEM && offset < OE_RMEM + OE_RMEM_SIZE) {
        return oe_rmem_access(e, offset - OE_RMEM, size, false, 0, value);
    }
    uint32_t word = read_word(e, offset & ~3u);
    uint32_t shift = (offset & 3) * 8;
    *value = size == 4 ? word : (word >> shift) & ((1u << (8 * size)) - 1);
    return OE_CSR_DONE;
}

OeCsrStatus oe_csr_write(OeEngine *e, uint32_t offset, unsigned size,
                         uint32_t value)
{
    if (!access_ok(offset, size)) {
        return OE_CSR_DONE;
    }
    if (offset >= OE_RMEM && offset < OE_RMEM + OE_RMEM_SIZE) {
        uint32_t unused;
        return oe_rmem_access(e, offset - OE_RMEM, size, true, value, &unused);
    }
    uint32_t off = offset & ~3u;
    uint32_t shift = (offset & 3) * 8;
    uint32_t lanes = (size == 4 ? 0xFFFFFFFFu : (1u << (8 * size)) - 1) << shift;
    if (oe_store_write(e, off, lanes, value << shift)) {
        written(e, off);
    }
    return OE_CSR_DONE;
}
