/*
 * Receive classification (endpoint.md section 7): oETP frames are filtered
 * by destination and dispatched to the responder (requests) or the
 * initiating context (replies); anything else follows the raw receive
 * policy. A malformed frame carrying the oETP EtherType and Magic is never
 * handed to the raw path.
 */
#include "engine_internal.h"

static bool oetp_destination_ok(const OeEngine *e, uint64_t dst)
{
    if (oetp_mac_is_group(dst)) {
        /* Zero (the reset value) cannot match: group reception is off. */
        uint64_t group = oe_reg_mac(e, OE_CONFIG_MULTICAST_ADDRESS);
        return group != 0 && dst == group;
    }
    return dst == oe_local_mac(e);
}

static bool raw_admitted(const OeEngine *e, uint64_t dst)
{
    uint32_t mode = oe_reg(e, OE_CONFIG_NON_OETP_CONTROL) &
                    OE_CONFIG_NON_OETP_CONTROL_RECEIVE_MODE_MASK;

    switch (mode) {
    case 0:
        return false;
    case 3:
        return true;
    default:
        return dst == oe_local_mac(e) || dst == OETP_MAC_BROADCAST ||
               (mode == 2 && oetp_mac_is_group(dst));
    }
}

/*
 * The data array of a DMA_WRITE_REQ or DMA_READ_RSP is written to local
 * memory as it arrives (no full-frame barrier), never beyond len; then the
 * framing and EndOfData are checked. A local write failure wins over a
 * framing failure (code 10).
 */
uint8_t oe_rx_data(OeEngine *e, const uint8_t *f, size_t flen, uint8_t cmd,
                   const OetpParams *p, uint32_t addr, uint32_t len)
{
    uint32_t n = p->payload_avail < len ? (uint32_t)p->payload_avail : len;
    OeMemStatus st = OE_MEM_OK;

    if (n) {
        oe_mem_write(e, addr, p->payload, n, &st);
    }
    if (st != OE_MEM_OK) {
        return oe_mem_write_code(st);
    }
    if (!oe_frame_len_ok(e, flen, oetp_frame_len(cmd, len)) ||
        !oetp_eod_ok(f, flen, cmd, len)) {
        return OE_ERR_REMOTE_AXIS;
    }
    return OE_ERR_NONE;
}

void oe_rx_frame(OeEngine *e, const uint8_t *f, size_t len)
{
    OetpHeader h;
    OetpParams p;

    /* Shorter than an Ethernet header. A frame above the frame ceiling
     * goes on: the ceiling is part of each path's length check (an oETP
     * frame's length is invalid, a raw frame is rejected), as it is in a
     * streaming receiver that finds the excess only at the ceiling. */
    if (!oetp_parse_header(f, len, &h)) {
        return;
    }
    if (!h.oetp) {
        if (raw_admitted(e, h.dst)) {
            oe_raw_receive(e, f, len);
        }
        return;
    }
    if (!oetp_destination_ok(e, h.dst) || oetp_mac_is_group(h.src)) {
        return;
    }
    oetp_parse_params(f, len, h.cmd, &p);
    switch (h.cmd) {
    case OETP_RMEM_READ_REQ:
    case OETP_RMEM_WRITE_REQ:
    case OETP_DMA_READ_REQ:
    case OETP_DMA_WRITE_REQ:
        oe_responder_request(e, &h, &p, f, len);
        break;
    case OETP_RMEM_READ_RSP:
    case OETP_RMEM_WRITE_RSP:
    case OETP_DMA_READ_RSP:
    case OETP_DMA_WRITE_RSP:
    case OETP_ERROR_RSP:
        oe_initiator_reply(e, &h, &p, f, len);
        break;
    default:
        break;   /* unassigned Cmd: dropped */
    }
}
