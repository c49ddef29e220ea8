/*
 * The status of a DMA controller: a peer's bulk DMA (peers.entry[n].dma) and
 * raw TX / RX (raw.*.command_status) show idle, done, error and error_code
 * at the same bits and share the same rules: an operation ends idle, done
 * only without error; an error stays until software clears it, which never
 * touches done, idle or IRQ claims.
 */
#include "engine_internal.h"

uint32_t oe_dma_status_bits(const OeDmaStatus *s)
{
    return (s->idle ? OE_PEER_DMA_IDLE_MASK : 0) |
           (s->done ? OE_PEER_DMA_DONE_MASK : 0) |
           (s->error ? OE_PEER_DMA_ERROR_MASK : 0) |
           (uint32_t)s->error_code << OE_PEER_DMA_ERROR_CODE_SHIFT;
}

void oe_dma_status_fail(OeDmaStatus *s, uint8_t code)
{
    s->error = true;
    s->error_code = code;
}

void oe_dma_status_end(OeEngine *e, OeDmaStatus *s, uint8_t code,
                       bool irq_reserved, uint8_t source, uint16_t peer)
{
    s->idle = true;
    s->done = code == OE_ERR_NONE;
    if (code != OE_ERR_NONE) {
        oe_dma_status_fail(s, code);
    }
    if (irq_reserved) {
        oe_irq_commit(e, source, peer, true);
    }
}

/* The raw words reuse the peer DMA word's status layout. */
_Static_assert(OE_RAW_TX_COMMAND_STATUS_IDLE_MASK == OE_PEER_DMA_IDLE_MASK &&
               OE_RAW_TX_COMMAND_STATUS_DONE_MASK == OE_PEER_DMA_DONE_MASK &&
               OE_RAW_TX_COMMAND_STATUS_ERROR_MASK == OE_PEER_DMA_ERROR_MASK &&
               OE_RAW_TX_COMMAND_STATUS_ERROR_CODE_SHIFT ==
                   OE_PEER_DMA_ERROR_CODE_SHIFT &&
               OE_RAW_RX_COMMAND_STATUS_IDLE_MASK == OE_PEER_DMA_IDLE_MASK &&
               OE_RAW_RX_COMMAND_STATUS_DONE_MASK == OE_PEER_DMA_DONE_MASK &&
               OE_RAW_RX_COMMAND_STATUS_ERROR_MASK == OE_PEER_DMA_ERROR_MASK &&
               OE_RAW_RX_COMMAND_STATUS_ERROR_CODE_SHIFT ==
                   OE_PEER_DMA_ERROR_CODE_SHIFT &&
               OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK ==
                   OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK &&
               OE_RAW_RX_COMMAND_STATUS_CLEAR_ERRORS_MASK ==
                   OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK,
               "raw and peer DMA status fields share their bits");
