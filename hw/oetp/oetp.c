/*
 * oETP frame codec: pure byte-level builders and parsers, shared by the C
 * engine, the QEMU shell, the tests, the RTL test bench and the guest tools.
 * The layout constants live in include/openenoc/oetp.h.
 */
#include <string.h>

#include "openenoc/oetp.h"

unsigned oetp_fixed_params(uint8_t cmd)
{
    switch (cmd) {
    case OETP_RMEM_READ_REQ:
    case OETP_RMEM_READ_RSP:
    case OETP_ERROR_RSP:
        return 2;
    case OETP_RMEM_WRITE_REQ:
        return 4;
    case OETP_RMEM_WRITE_RSP:
    case OETP_DMA_WRITE_RSP:
    case OETP_DMA_READ_RSP:
        return 1;
    case OETP_DMA_READ_REQ:
    case OETP_DMA_WRITE_REQ:
        return 3;
    default:
        return 0;
    }
}

size_t oetp_pdu_len(uint8_t cmd, uint32_t data_len)
{
    unsigned fixed = oetp_fixed_params(cmd);   /* Magic, Cmd, parameters */

    if (!fixed) {
        return 0;
    }
    if (oetp_data_off(cmd)) {   /* ..., Data[], EndOfData */
        return 2 + 4 * fixed + 4 * (size_t)oetp_words(data_len) + 4;
    }
    return 2 + 4 * fixed;
}

const char *oetp_cmd_name(uint8_t cmd)
{
    switch (cmd) {
    case OETP_RMEM_READ_REQ:  return "RMEM_READ_REQ";
    case OETP_RMEM_READ_RSP:  return "RMEM_READ_RSP";
    case OETP_RMEM_WRITE_REQ: return "RMEM_WRITE_REQ";
    case OETP_RMEM_WRITE_RSP: return "RMEM_WRITE_RSP";
    case OETP_DMA_READ_REQ:   return "DMA_READ_REQ";
    case OETP_DMA_READ_RSP:   return "DMA_READ_RSP";
    case OETP_DMA_WRITE_REQ:  return "DMA_WRITE_REQ";
    case OETP_DMA_WRITE_RSP:  return "DMA_WRITE_RSP";
    case OETP_ERROR_RSP:      return "ERROR_RSP";
    default:                  return NULL;
    }
}

const char *oe_error_name(unsigned code)
{
    static const char *const names[OE_ERR_COUNT] = OE_ERR_NAMES;

    return code < OE_ERR_COUNT ? names[code] : "?";
}

bool oetp_parse_header(const uint8_t *frame, size_t len, OetpHeader *h)
{
    memset(h, 0, sizeof(*h));
    if (len < OETP_ETH_HDR_LEN) {
        return false;
    }
    h->dst = oetp_get_mac(frame + OETP_OFF_DST);
    h->src = oetp_get_mac(frame + OETP_OFF_SRC);
    h->ethertype = (uint16_t)(frame[OETP_OFF_ETHERTYPE] << 8 |
                              frame[OETP_OFF_ETHERTYPE + 1]);
    /* A frame that ends right after Magic is malformed oETP (Cmd 0 is
     * unassigned), never a raw frame. */
    if (h->ethertype == OETP_ETHERTYPE && len > OETP_OFF_MAGIC &&
        frame[OETP_OFF_MAGIC] == OETP_MAGIC) {
        h->oetp = true;
        h->cmd = len > OETP_OFF_CMD ? frame[OETP_OFF_CMD] : 0;
    }
    return true;
}

int oetp_frame_cmd(const uint8_t *frame, size_t len)
{
    OetpHeader h;

    return oetp_parse_header(frame, len, &h) && h.oetp && len > OETP_OFF_CMD ?
           h.cmd : -1;
}

/* Parameter i (1-based) when the frame holds it whole, else 0. */
static uint32_t param_or_0(const uint8_t *frame, size_t len, unsigned i)
{
    return len >= OETP_OFF_PARAM1 + 4 * (size_t)i ? oetp_param(frame, i) : 0;
}

void oetp_parse_params(const uint8_t *frame, size_t len, uint8_t cmd,
                       OetpParams *p)
{
    unsigned fixed = oetp_fixed_params(cmd);
    size_t whole = len > OETP_OFF_PARAM1 ? (len - OETP_OFF_PARAM1) / 4 : 0;
    size_t data_off = oetp_data_off(cmd);

    p->count = whole < fixed ? (unsigned)whole : fixed;
    p->rid = p->count ? oetp_param(frame, 1) : 0;
    p->addr = p->length = p->biten = p->data = p->cause = 0;
    switch (cmd) {
    case OETP_RMEM_READ_RSP:
        p->data = param_or_0(frame, len, 2);
        break;
    case OETP_ERROR_RSP:
        p->cause = param_or_0(frame, len, 2);
        break;
    case OETP_RMEM_WRITE_REQ:
        p->addr = param_or_0(frame, len, 2);
        p->biten = param_or_0(frame, len, 3);
        p->data = param_or_0(frame, len, 4);
        break;
    case OETP_RMEM_READ_REQ:
        p->addr = param_or_0(frame, len, 2);
        break;
    case OETP_DMA_READ_REQ:
    case OETP_DMA_WRITE_REQ:
        p->addr = param_or_0(frame, len, 2);
        p->length = param_or_0(frame, len, 3);
        break;
    default:
        break;
    }
    p->payload = data_off && len > data_off ? frame + data_off : NULL;
    p->payload_avail = p->payload ? len - data_off : 0;
}

bool oetp_eod_ok(const uint8_t *frame, size_t len, uint8_t cmd,
                 uint32_t data_len)
{
    size_t eod_off = oetp_data_off(cmd) + 4 * (size_t)oetp_words(data_len);

    return oetp_data_off(cmd) && len >= eod_off + 4 &&
           oetp_get_le32(frame + eod_off) == OETP_EOD;
}

void oetp_put_header(uint8_t *buf, uint64_t dst, uint64_t src, uint8_t cmd)
{
    oetp_put_mac(buf + OETP_OFF_DST, dst);
    oetp_put_mac(buf + OETP_OFF_SRC, src);
    buf[OETP_OFF_ETHERTYPE] = OETP_ETHERTYPE >> 8;
    buf[OETP_OFF_ETHERTYPE + 1] = OETP_ETHERTYPE & 0xff;
    buf[OETP_OFF_MAGIC] = OETP_MAGIC;
    buf[OETP_OFF_CMD] = cmd;
}

/* Fixed-layout command: header plus n parameters. */
static size_t build_params(uint8_t *buf, uint64_t dst, uint64_t src,
                           uint8_t cmd, const uint32_t *p, unsigned n)
{
    oetp_put_header(buf, dst, src, cmd);
    for (unsigned i = 0; i < n; i++) {
        oetp_put_le32(buf + OETP_OFF_PARAM1 + 4 * i, p[i]);
    }
    return OETP_OFF_PARAM1 + 4 * n;
}

/* Data array (zero word padding) plus optional EndOfData at offset off;
 * data that already lies at buf + off stays where it is. */
static size_t put_data(uint8_t *buf, size_t off, const uint8_t *data,
                       uint32_t len, bool with_eod)
{
    size_t words = oetp_words(len);
    if (len && data != buf + off) {
        memmove(buf + off, data, len);
    }
    memset(buf + off + len, 0, words * 4 - len);
    off += words * 4;
    if (with_eod) {
        oetp_put_le32(buf + off, OETP_EOD);
        off += 4;
    }
    return off;
}

size_t oetp_build_rmem_read_req(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid, uint32_t addr)
{
    const uint32_t p[] = { rid, addr };
    return build_params(buf, dst, src, OETP_RMEM_READ_REQ, p, 2);
}

size_t oetp_build_rmem_read_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid, uint32_t data)
{
    const uint32_t p[] = { rid, data };
    return build_params(buf, dst, src, OETP_RMEM_READ_RSP, p, 2);
}

size_t oetp_build_rmem_write_req(uint8_t *buf, uint64_t dst, uint64_t src,
                                 uint32_t rid, uint32_t addr,
                                 uint32_t biten, uint32_t data)
{
    const uint32_t p[] = { rid, addr, biten, data };
    return build_params(buf, dst, src, OETP_RMEM_WRITE_REQ, p, 4);
}

size_t oetp_build_rmem_write_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                                 uint32_t rid)
{
    return build_params(buf, dst, src, OETP_RMEM_WRITE_RSP, &rid, 1);
}

size_t oetp_build_dma_read_req(uint8_t *buf, uint64_t dst, uint64_t src,
                               uint32_t rid, uint32_t addr, uint32_t len)
{
    const uint32_t p[] = { rid, addr, len };
    return build_params(buf, dst, src, OETP_DMA_READ_REQ, p, 3);
}

size_t oetp_build_dma_read_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                               uint32_t rid, const uint8_t *data,
                               uint32_t len, bool with_eod)
{
    size_t off = build_params(buf, dst, src, OETP_DMA_READ_RSP, &rid, 1);
    return put_data(buf, off, data, len, with_eod);
}

size_t oetp_build_dma_write_req(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid, uint32_t addr,
                                const uint8_t *data, uint32_t len,
                                bool with_eod)
{
    const uint32_t p[] = { rid, addr, len };
    size_t off = build_params(buf, dst, src, OETP_DMA_WRITE_REQ, p, 3);
    return put_data(buf, off, data, len, with_eod);
}

size_t oetp_build_dma_write_req_cut(uint8_t *buf, uint64_t dst, uint64_t src,
                                    uint32_t rid, uint32_t addr, uint32_t len,
                                    const uint8_t *data, uint32_t sent)
{
    const uint32_t p[] = { rid, addr, len };
    size_t off = build_params(buf, dst, src, OETP_DMA_WRITE_REQ, p, 3);
    return put_data(buf, off, data, sent < len ? sent : len, false);
}

size_t oetp_build_dma_write_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid)
{
    return build_params(buf, dst, src, OETP_DMA_WRITE_RSP, &rid, 1);
}

size_t oetp_build_error_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                            uint32_t rid, uint32_t cause)
{
    const uint32_t p[] = { rid, cause };
    return build_params(buf, dst, src, OETP_ERROR_RSP, p, 2);
}
