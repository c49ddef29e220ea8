/*
 * CSR block: decode of the 8 KiB aperture.
 *
 * Software-writable fields live in a word store whose writable bits come
 * from the generated register table (regs_table.h), so rw fields need no
 * code of their own. Hardware-driven fields are composed on read from the
 * controllers' state; command bits (rw/hwclr) stay set in the store until
 * the owning controller accepts them.
 */
#include <string.h>

#include "engine_internal.h"
#include "openenoc/regs_table.h"

uint64_t oe_reg_mac(const OeEngine *e, uint32_t lo_off)
{
    return (uint64_t)(oe_reg(e, lo_off + 4) & 0xFFFF) << 32 |
           oe_reg(e, lo_off);
}

void oe_reg_clear_bits(OeEngine *e, uint32_t off, uint32_t mask)
{
    e->regs[off / 4] &= ~mask;
}

void oe_csr_reset(OeEngine *e)
{
    memset(e->sw_mask, 0, sizeof(e->sw_mask));
    memset(e->reset_val, 0, sizeof(e->reset_val));
    for (size_t i = 0; i < OE_REG_WORDS_COUNT; i++) {
        uint32_t w = oe_reg_words[i].offset / 4;
        e->sw_mask[w] = oe_reg_words[i].sw_mask;
        e->reset_val[w] = oe_reg_words[i].reset & oe_reg_words[i].sw_mask;
    }
    /* Build-time parameters that differ from the RDL defaults. */
    e->reset_val[OE_CONFIG_DMA_MAX_FRAGMENT_SIZE / 4] = e->frag_ceiling;
    e->reset_val[OE_CONFIG_MAC_ADDRESS / 4] = (uint32_t)e->reset_mac;
    e->reset_val[OE_CONFIG_MAC_ADDRESS_HI / 4] = (uint32_t)(e->reset_mac >> 32);
    memcpy(e->regs, e->reset_val, sizeof(e->regs));
}

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

/* Peer index of a dma word, or -1. */
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
    uint32_t stored = e->regs[off / 4];
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
            return stored | oe_peer_dma_status(e, (unsigned)n);
        }
        return stored;
    }
}

/* Side effects of a store to a word (after the rw store was updated). */
static void written(OeEngine *e, uint32_t off, uint32_t set)
{
    int n;

    switch (off) {
    case OE_DIRECT_SOURCE_CONTROL:
        if (set & OE_DIRECT_SOURCE_CONTROL_TVALID_MASK) {
            oe_direct_source_written(e);
        }
        break;
    case OE_DIRECT_SINK_CONTROL:
        if (set & OE_DIRECT_SINK_CONTROL_TREADY_MASK) {
            oe_direct_sink_ready_written(e);
        }
        break;
    case OE_RAW_TX_COMMAND_STATUS:
        oe_raw_tx_written(e);
        break;
    case OE_RAW_RX_COMMAND_STATUS:
        oe_raw_rx_written(e);
        break;
    case OE_IRQ_CONTROL:
        if (set & OE_IRQ_CONTROL_CLEAR_ERRORS_MASK) {
            e->irq.overflow = false;
            e->irq.invalid_complete = false;
            oe_reg_clear_bits(e, off, OE_IRQ_CONTROL_CLEAR_ERRORS_MASK);
        }
        break;
    case OE_IRQ_COMPLETE:
        if (set & OE_IRQ_COMPLETE_VALID_MASK) {
            oe_irq_complete(e, oe_reg(e, off));
            oe_reg_clear_bits(e, off, OE_IRQ_COMPLETE_VALID_MASK);
        }
        break;
    default:
        n = peer_dma_word(off);
        if (n >= 0) {
            oe_peer_dma_written(e, (unsigned)n);
        }
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
    uint32_t wm = lanes & e->sw_mask[off / 4];
    if (!wm) {
        return OE_CSR_DONE;
    }
    uint32_t v = value << shift;
    uint32_t *r = &e->regs[off / 4];
    *r = (*r & ~wm) | (v & wm);
    written(e, off, v & wm);
    return OE_CSR_DONE;
}
