/*
 * oETP wire format (spec/oetp-engine.txt), written once for the C engine, the
 * QEMU shell, the tests, the RTL test bench and the guest tools.
 *
 * Frames are untagged Ethernet frames without FCS. Offsets count from the
 * first destination MAC octet. Parameters are 32-bit little-endian words at
 * frame offset 16 + 4*(i-1). MAC addresses are 48-bit values whose first wire
 * octet is bits 47:40 (the same encoding as the MAC CSRs).
 *
 * The codec (hw/oetp/oetp.c) is pure: bytes in, values out; every reader
 * checks bounds first. It owns the frame layout: the engines, the tests and
 * the tools name fields through the offsets, builders and parsers below and
 * never compute an offset of their own.
 */
#ifndef OPENENOC_OETP_H
#define OPENENOC_OETP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "openenoc/regs.h"           /* OE_ERR_*: the CSR error codes */

#ifdef __cplusplus
extern "C" {
#endif

#define OETP_ETHERTYPE      0x88B5u
#define OETP_MAGIC          0x0Eu
#define OETP_EOD            0xE0D0E0D0u  /* on the wire: D0 E0 D0 E0 */

#define OETP_ETH_HDR_LEN    14u          /* destination, source, EtherType */
#define OETP_OFF_DST        0u
#define OETP_OFF_SRC        6u
#define OETP_OFF_ETHERTYPE  12u
#define OETP_OFF_MAGIC      14u
#define OETP_OFF_CMD        15u
#define OETP_OFF_PARAM1     16u          /* parameter i at 16 + 4*(i-1) */

/* Named parameter offsets (the command layouts of oetp-engine.txt). */
#define OETP_OFF_RID        OETP_OFF_PARAM1        /* every command */
#define OETP_OFF_ADDR       (OETP_OFF_PARAM1 + 4)  /* *_REQ: Address */
#define OETP_OFF_RSP_DATA   (OETP_OFF_PARAM1 + 4)  /* RMEM_READ_RSP: Data */
#define OETP_OFF_CAUSE      (OETP_OFF_PARAM1 + 4)  /* ERROR_RSP: Cause */
#define OETP_OFF_LENGTH     (OETP_OFF_PARAM1 + 8)  /* DMA_*_REQ: Length */
#define OETP_OFF_BITEN      (OETP_OFF_PARAM1 + 8)  /* RMEM_WRITE_REQ: BitEn */
#define OETP_OFF_WDATA      (OETP_OFF_PARAM1 + 12) /* RMEM_WRITE_REQ: Data */
#define OETP_OFF_READ_DATA  (OETP_OFF_PARAM1 + 4)  /* DMA_READ_RSP: Data[] */
#define OETP_OFF_WRITE_DATA (OETP_OFF_PARAM1 + 12) /* DMA_WRITE_REQ: Data[] */

#define OETP_FRAME_MAX      8192u        /* L_FRAME_MAX, excluding FCS */
#define OETP_MIN_ETH_PAYLOAD 46u         /* external MAC pads to this */
#define OETP_PADDED_FRAME_LEN (OETP_ETH_HDR_LEN + OETP_MIN_ETH_PAYLOAD) /* 60 */
#define OETP_DMA_OVERHEAD   32u          /* DMA_WRITE_REQ bytes besides data */
#define OETP_FRAG_CEILING   8160u        /* 4*floor((8192-32)/4) */

/* Command codes (Cmd octet). */
enum {
    OETP_RMEM_READ_REQ  = 0x10,
    OETP_RMEM_READ_RSP  = 0x11,
    OETP_RMEM_WRITE_REQ = 0x20,
    OETP_RMEM_WRITE_RSP = 0x21,
    OETP_DMA_READ_REQ   = 0x30,
    OETP_DMA_READ_RSP   = 0x31,
    OETP_DMA_WRITE_REQ  = 0x40,
    OETP_DMA_WRITE_RSP  = 0x41,
    OETP_ERROR_RSP      = 0xFF,
};

/* Wire causes of ERROR_RSP (1..7); CSR code = 8 + cause on the initiator. */
enum {
    OETP_CAUSE_INVALID      = 1,
    OETP_CAUSE_AXIS         = 2,
    OETP_CAUSE_OVERFLOW     = 3,
    OETP_CAUSE_RD_SLVERR    = 4,
    OETP_CAUSE_RD_DECERR    = 5,
    OETP_CAUSE_WR_SLVERR    = 6,
    OETP_CAUSE_WR_DECERR    = 7,
};

/* Name of a CSR error code ("NONE", "LOCAL_INVALID", ...; "?" if > 15). */
const char *oe_error_name(unsigned code);

/* csr_error_from_wire: full 32-bit cause 1..7 -> 9..15, anything else -> 1. */
static inline unsigned oetp_csr_error_from_wire(uint32_t cause)
{
    return (cause >= 1 && cause <= 7) ? 8u + cause : OE_ERR_LOCAL_INVALID;
}

static inline bool oetp_mac_is_group(uint64_t mac)
{
    return (mac >> 40) & 1;
}

#define OETP_MAC_BROADCAST 0xFFFFFFFFFFFFull

/* Number of 4-byte parameters before the data array / fixed layouts. */
static inline uint32_t oetp_words(uint32_t bytes)
{
    return (uint32_t)(((uint64_t)bytes + 3) / 4);
}

/*
 * Logical PDU length (Magic through last parameter) of a command, or 0 for an
 * unassigned Cmd. data_len is Length for DMA_WRITE_REQ and the expected length
 * for DMA_READ_RSP (ignored otherwise).
 */
size_t oetp_pdu_len(uint8_t cmd, uint32_t data_len);

/* Offset of the data array of DMA_READ_RSP or DMA_WRITE_REQ (0 otherwise). */
static inline size_t oetp_data_off(uint8_t cmd)
{
    return cmd == OETP_DMA_READ_RSP ? OETP_OFF_READ_DATA :
           cmd == OETP_DMA_WRITE_REQ ? OETP_OFF_WRITE_DATA : 0;
}

/* Frame length (header + PDU) for a command; 0 for an unassigned Cmd. */
static inline size_t oetp_frame_len(uint8_t cmd, uint32_t data_len)
{
    size_t pdu = oetp_pdu_len(cmd, data_len);
    return pdu ? OETP_ETH_HDR_LEN + pdu : 0;
}

/*
 * The length-acceptance rule: the received frame has exactly the logical
 * length, or the logical PDU is shorter than 46 bytes and the frame is padded
 * to exactly 60 bytes.
 */
static inline bool oetp_frame_len_ok(size_t frame_len, size_t logical_frame)
{
    return frame_len == logical_frame ||
           (logical_frame < OETP_PADDED_FRAME_LEN &&
            frame_len == OETP_PADDED_FRAME_LEN);
}

/* Byte helpers. */
static inline uint32_t oetp_get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline void oetp_put_le32(uint8_t *p, uint32_t v)
{
    p[0] = v;
    p[1] = v >> 8;
    p[2] = v >> 16;
    p[3] = v >> 24;
}

static inline uint64_t oetp_get_mac(const uint8_t *p)
{
    uint64_t m = 0;
    for (int i = 0; i < 6; i++) {
        m = m << 8 | p[i];
    }
    return m;
}

static inline void oetp_put_mac(uint8_t *p, uint64_t mac)
{
    for (int i = 0; i < 6; i++) {
        p[i] = mac >> (40 - 8 * i);
    }
}

/* Parameter i (1-based) of a frame; the caller has checked the length. */
static inline uint32_t oetp_param(const uint8_t *frame, unsigned i)
{
    return oetp_get_le32(frame + OETP_OFF_PARAM1 + 4 * (i - 1));
}

/*
 * Header of a received frame. oetp is true when EtherType is 0x88B5 and
 * Magic is 0x0E; cmd is 0 (unassigned) if the frame ends before Cmd.
 */
typedef struct OetpHeader {
    uint64_t dst;
    uint64_t src;
    uint16_t ethertype;
    bool oetp;
    uint8_t cmd;             /* valid when oetp */
} OetpHeader;

/* Returns false when the frame is shorter than an Ethernet header. */
bool oetp_parse_header(const uint8_t *frame, size_t len, OetpHeader *h);

/* The Cmd octet of an oETP frame long enough to hold one, or -1 for any
 * other frame. */
int oetp_frame_cmd(const uint8_t *frame, size_t len);

/*
 * The fixed parameters of a received frame of command cmd, read in place.
 * count is how many of the command's fixed parameters the frame holds
 * whole (a short frame gives fewer; fields it lacks read 0). For the two
 * data-carrying commands data points at the data array and data_avail is
 * the number of frame bytes from there on (0 and NULL when the frame ends
 * before it).
 */
typedef struct OetpParams {
    unsigned count;
    uint32_t rid;
    uint32_t addr;           /* RMEM_*_REQ, DMA_*_REQ */
    uint32_t length;         /* DMA_READ_REQ, DMA_WRITE_REQ */
    uint32_t biten;          /* RMEM_WRITE_REQ */
    uint32_t data;           /* RMEM_READ_RSP, RMEM_WRITE_REQ */
    uint32_t cause;          /* ERROR_RSP */
    const uint8_t *payload;  /* DMA_READ_RSP, DMA_WRITE_REQ */
    size_t payload_avail;
} OetpParams;

/* Number of fixed parameters (before any data array) of a command. */
unsigned oetp_fixed_params(uint8_t cmd);

void oetp_parse_params(const uint8_t *frame, size_t len, uint8_t cmd,
                       OetpParams *p);

/*
 * True when a DMA_READ_RSP / DMA_WRITE_REQ frame of len bytes holds the
 * whole data array of data_len bytes followed by EndOfData.
 */
bool oetp_eod_ok(const uint8_t *frame, size_t len, uint8_t cmd,
                 uint32_t data_len);

/*
 * Builders. Each writes a complete logical frame (no Ethernet padding) into
 * buf, which must hold oetp_frame_len(cmd, len) bytes, and returns its
 * length. Data is copied in source order; the final data word is
 * zero-padded. The data builders also work in place: a sender that reads
 * its payload straight to buf + oetp_data_off(cmd) passes that pointer as
 * data and nothing is copied.
 */
size_t oetp_build_rmem_read_req(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid, uint32_t addr);
size_t oetp_build_rmem_read_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid, uint32_t data);
size_t oetp_build_rmem_write_req(uint8_t *buf, uint64_t dst, uint64_t src,
                                 uint32_t rid, uint32_t addr,
                                 uint32_t biten, uint32_t data);
size_t oetp_build_rmem_write_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                                 uint32_t rid);
size_t oetp_build_dma_read_req(uint8_t *buf, uint64_t dst, uint64_t src,
                               uint32_t rid, uint32_t addr, uint32_t len);
/* with_eod = false builds the frame a failed source truncates: header and
 * data but no EndOfData. */
size_t oetp_build_dma_read_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                               uint32_t rid, const uint8_t *data,
                               uint32_t len, bool with_eod);
size_t oetp_build_dma_write_req(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid, uint32_t addr,
                                const uint8_t *data, uint32_t len,
                                bool with_eod);
/* The DMA_WRITE_REQ a source that failed after the frame started cuts
 * short: Length still says len, but only the first sent bytes (whole
 * beats, sent <= len) follow, word-padded, without EndOfData. */
size_t oetp_build_dma_write_req_cut(uint8_t *buf, uint64_t dst, uint64_t src,
                                    uint32_t rid, uint32_t addr, uint32_t len,
                                    const uint8_t *data, uint32_t sent);
size_t oetp_build_dma_write_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                                uint32_t rid);
size_t oetp_build_error_rsp(uint8_t *buf, uint64_t dst, uint64_t src,
                            uint32_t rid, uint32_t cause);

/* Writes destination, source, EtherType, Magic and Cmd (16 bytes). */
void oetp_put_header(uint8_t *buf, uint64_t dst, uint64_t src, uint8_t cmd);

/* Name of a command ("DMA_WRITE_REQ"), or NULL for an unassigned Cmd. */
const char *oetp_cmd_name(uint8_t cmd);

#ifdef __cplusplus
}
#endif

#endif /* OPENENOC_OETP_H */
