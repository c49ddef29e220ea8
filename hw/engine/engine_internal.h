/*
 * Internal state of the C endpoint engine, shared by its controllers. The
 * layers, from the host inwards:
 *   engine.c     lifecycle, host entry points, scheduling, time
 *   csr.c        CSR decode: composes status on read, routes writes to the
 *                store and the IRQ controller's write hooks
 *   store.c      the register store (software-writable fields, command bits)
 *   irq.c        IRQ controller (claim FIFO, credits, level)
 *   peer.c       peer table lookups and the per-peer error record
 *   status.c     the DMA status fields raw and peer DMA share
 *   peer_dma.c   peer bulk DMA blocks and fragments
 *   rmem.c       RMEM window accesses (initiator side)
 *   initiator.c  the single initiating context: start, reply matching, timeout
 *   responder.c  servicing received oETP requests
 *   rx.c         receive classification and dispatch; received data arrays
 *   raw.c        raw (non-oETP) DMA
 *   direct.c     the direct CSR stream
 *   mem.c        local memory access in AXI-sized bursts
 *   state.c      migration state
 * Controllers read the store and take their command bits from it when the
 * engine accepts work (engine.c), never through the decoder. Frames are built
 * and parsed only by the codec (include/openenoc/oetp.h).
 *
 * The engine is behavioural: each host call runs to completion (memory
 * accesses are synchronous), so contexts exist only while waiting for the
 * network, for IRQ credits or for the transmit path.
 */
#ifndef OPENENOC_ENGINE_INTERNAL_H
#define OPENENOC_ENGINE_INTERNAL_H

#include "openenoc/engine.h"
#include "openenoc/oetp.h"
#include "openenoc/regs.h"

#define OE_NUM_PEERS        OE_PEER_COUNT
#define OE_IRQ_FIFO_DEPTH   16u
#define OE_SINK_CAPACITY    16384u       /* direct-stream sink: 4096 words */
/* The sink buffer keeps a frame until it is read whole, so it also holds the
 * already read part of the head frame beyond the sink's own capacity. */
#define OE_SINK_HELD        (OE_SINK_CAPACITY + OETP_FRAME_MAX)
#define OE_SINK_MAX_FRAMES  (OE_SINK_CAPACITY / OETP_ETH_HDR_LEN + 1)
#define OE_CSR_WORDS        (OE_CSR_APERTURE_SIZE / 4)
#define OE_NO_DEADLINE      UINT64_MAX

typedef struct OeIrqEntry {
    uint16_t peer_idx;
    uint8_t source;
    uint16_t sequence;
} OeIrqEntry;

typedef struct OeIrq {
    OeIrqEntry fifo[OE_IRQ_FIFO_DEPTH];
    uint8_t head;
    uint8_t count;
    uint8_t reserved;           /* credits reserved by started operations */
    uint16_t next_seq;
    bool overflow;
    bool invalid_complete;
    bool level;                 /* last level reported to the host */
} OeIrq;

/* idle/done/error/error_code of a peer's bulk DMA, raw TX or raw RX. */
typedef struct OeDmaStatus {
    bool idle;
    bool done;
    bool error;
    uint8_t error_code;
} OeDmaStatus;

/* A software-started peer bulk block, snapshotted at acceptance. */
typedef struct OePeerBlock {
    bool active;
    bool irq_reserved;          /* completion event credit held */
    bool failed;                /* first failing fragment seen */
    uint8_t mode;
    uint8_t code;               /* error code of the first failure */
    uint32_t local;
    uint32_t remote;
    uint32_t size;
    uint32_t mfs;
    uint32_t issued;            /* bytes handed to fragments so far */
    uint32_t seq;               /* next fragment sequence */
} OePeerBlock;

typedef struct OePeer {
    OeDmaStatus st;             /* dma status fields */
    OePeerBlock blk;
    bool rmem_event_pending;    /* coalesced RMEM_ERROR notification */
} OePeer;

/* What the single initiating context is waiting for. */
typedef enum OeInitKind {
    OE_INIT_NONE = 0,
    OE_INIT_RMEM_READ,
    OE_INIT_RMEM_WRITE,
    OE_INIT_DMA_READ,
    OE_INIT_DMA_WRITE,
} OeInitKind;

typedef struct OeInitiator {
    uint8_t kind;               /* OeInitKind; NONE = slot free */
    uint8_t peer;
    uint32_t rid;
    uint64_t peer_mac;          /* expected reply source */
    uint32_t local;             /* DMA read: local destination */
    uint32_t len;               /* DMA fragment length */
    uint64_t deadline;          /* last cycle a reply still wins */
} OeInitiator;

/* The one CSR access an RMEM window load/store keeps pending. */
typedef struct OeRmemAccess {
    bool valid;                 /* waiting to start or for its reply */
    bool started;
    bool is_write;
    uint8_t size;
    uint16_t offset;            /* byte offset of the access in the window */
    uint8_t peer;               /* matched entry */
    uint32_t remote;            /* translated remote address (word) */
    uint32_t biten;
    uint32_t wdata;
} OeRmemAccess;

typedef struct OeRawTx {
    OeDmaStatus st;
    bool active;                /* accepted, waiting for the transmit path */
    bool irq_reserved;
    uint32_t base;
    uint32_t len;
    uint32_t transferred;
} OeRawTx;

typedef struct OeRawRx {
    OeDmaStatus st;
    bool armed;
    bool irq_reserved;
    uint32_t base;
    uint32_t capacity;
    uint32_t received;
} OeRawRx;

typedef struct OeDirectTx {
    uint8_t frame[OETP_FRAME_MAX];
    uint32_t len;
    bool in_frame;              /* first beat accepted, no TLAST yet */
    bool oversize;              /* beats beyond the frame ceiling dropped */
    bool ready_to_send;         /* TLAST seen, waiting for the TX path */
    bool irq_reserved;
} OeDirectTx;

typedef struct OeDirectRx {
    /* Queued frames: [u16 length][bytes], oldest first. */
    uint8_t buf[OE_SINK_HELD + 2 * OE_SINK_MAX_FRAMES];
    uint32_t used;              /* bytes of buf in use (with headers) */
    uint32_t payload;           /* frame bytes queued (capacity check) */
    uint32_t nframes;
    uint32_t pos;               /* read position inside the head frame */
    bool head_visible;          /* head frame admitted (IRQ) and shown */
} OeDirectRx;

struct OeEngine {
    OeHostOps ops;
    void *opaque;
    uint32_t max_frame;         /* MAX_RAW_FRAME_SIZE */
    uint32_t frag_ceiling;      /* 4*floor((max_frame - 32)/4) */
    uint64_t reset_mac;
    uint32_t mem_beat;          /* memory bus bytes per beat: 4, 8, 16 or 32 */

    uint64_t now;
    uint64_t armed;             /* last value given to arm_timer */
    bool in_call;               /* guards against nested host calls */
    bool again;                 /* more work: call advance again at once */
    unsigned tx_budget;         /* initiator frames left in this call */
    uint8_t tx_rr;              /* TX fairness: next class to favour */
    uint8_t peer_rr;            /* next peer to favour for fragments */

    /* Register store (store.c): software-visible rw fields; status bits
     * are composed on read (csr.c) from the controller state below. */
    uint32_t regs[OE_CSR_WORDS];
    uint32_t sw_mask[OE_CSR_WORDS];
    uint32_t reset_val[OE_CSR_WORDS];

    uint32_t next_rid;
    OeIrq irq;
    OePeer peer[OE_NUM_PEERS];
    OeInitiator init;
    OeRmemAccess rmem;
    bool rmem_sync;             /* inside a CSR call (csr_access) */
    bool rmem_sync_done;        /* an access completed within that call */
    uint32_t rmem_sync_value;
    bool resp_notify_pending;   /* responder holds one undelivered event */
    uint8_t resp_notify_source;
    uint8_t resp_notify_peer;
    OeRawTx raw_tx;
    OeRawRx raw_rx;
    OeDirectTx dtx;
    OeDirectRx drx;

    uint8_t txbuf[OETP_FRAME_MAX];  /* frame under assembly */
};

/* ---- register store (store.c) ---- */
static inline uint32_t oe_reg(const OeEngine *e, uint32_t off)
{
    return e->regs[off / 4];
}
static inline uint32_t oe_field(uint32_t word, uint32_t mask, unsigned shift)
{
    return (word & mask) >> shift;
}
uint64_t oe_reg_mac(const OeEngine *e, uint32_t lo_off);
void oe_reg_clear_bits(OeEngine *e, uint32_t off, uint32_t mask);
void oe_store_reset(OeEngine *e);
/* Store value into the writable bits of lanes of word off; false when no
 * lane holds a writable bit (the write has no effect). */
bool oe_store_write(OeEngine *e, uint32_t off, uint32_t lanes,
                    uint32_t value);

/* ---- CSR decode (csr.c) ---- */
OeCsrStatus oe_csr_read(OeEngine *e, uint32_t offset, unsigned size,
                        uint32_t *value);
OeCsrStatus oe_csr_write(OeEngine *e, uint32_t offset, unsigned size,
                         uint32_t value);

/* A received oETP frame's length is valid when it is the logical length
 * (or that padded to 60 bytes) and within the frame ceiling, which counts
 * Ethernet padding (oetp-engine.txt, MAX_RAW_FRAME_SIZE note). */
static inline bool oe_frame_len_ok(const OeEngine *e, size_t len,
                                   size_t logical)
{
    return len <= e->max_frame && oetp_frame_len_ok(len, logical);
}

/* ---- DMA status (status.c) ---- */
uint32_t oe_dma_status_bits(const OeDmaStatus *s);
void oe_dma_status_fail(OeDmaStatus *s, uint8_t code);
/* End an operation with a CSR code (0 = done), then queue its reserved
 * completion claim. */
void oe_dma_status_end(OeEngine *e, OeDmaStatus *s, uint8_t code,
                       bool irq_reserved, uint8_t source, uint16_t peer);
/* Take a clear-error command bit of word off from the store (inline: it
 * runs for every peer and descriptor after every host call). */
static inline void oe_dma_status_take_clear(OeEngine *e, OeDmaStatus *s,
                                            uint32_t off, uint32_t clear_mask)
{
    if (oe_reg(e, off) & clear_mask) {
        s->error = false;
        s->error_code = 0;
        oe_reg_clear_bits(e, off, clear_mask);
    }
}

/* ---- peer table (peer.c) ---- */
static inline unsigned oe_peer_mode(const OeEngine *e, unsigned n)
{
    return oe_reg(e, OE_PEER_DMA(n)) & OE_PEER_DMA_MODE_MASK;
}
static inline uint64_t oe_peer_mac(const OeEngine *e, unsigned n)
{
    return oe_reg_mac(e, OE_PEER_MAC_ADDRESS(n));
}
int oe_peer_by_mac(const OeEngine *e, uint64_t mac);
int oe_peer_by_rmem(const OeEngine *e, uint32_t woff);
void oe_peer_record_error(OeEngine *e, unsigned n, uint8_t code);

/* ---- IRQ controller (irq.c) ---- */
/* Reserve a credit for an enabled event; false if none is free. */
bool oe_irq_reserve(OeEngine *e);
/* Queue a claim for a reserved credit (or, if !reserved, try a free one). */
void oe_irq_commit(OeEngine *e, uint8_t source, uint16_t peer, bool reserved);
bool oe_irq_credit_free(const OeEngine *e);
bool oe_irq_event_enabled(const OeEngine *e, unsigned source);
uint32_t oe_irq_status(const OeEngine *e);
uint32_t oe_irq_claim(const OeEngine *e);
/* Software wrote irq.control / irq.complete: take the command bits. */
void oe_irq_control_written(OeEngine *e);
void oe_irq_complete_written(OeEngine *e);
void oe_irq_update_level(OeEngine *e, bool pulse);
void oe_irq_reset(OeEngine *e);

/* ---- the initiating context (initiator.c) ---- */
bool oe_initiator_step(OeEngine *e);   /* start one initiator frame */
bool oe_initiator_has_work(const OeEngine *e);
void oe_initiator_wait(OeEngine *e, OeInitKind kind, unsigned peer,
                       uint32_t rid, uint64_t mac, uint32_t local,
                       uint32_t len, uint32_t timeout);
void oe_initiator_timeout(OeEngine *e);
void oe_initiator_reply(OeEngine *e, const OetpHeader *h,
                        const OetpParams *p, const uint8_t *f, size_t len);

/* ---- peer bulk DMA (peer_dma.c) ---- */
/* Take clear-error and request bits from every peer's dma word. */
void oe_peer_dma_accept(OeEngine *e);
int oe_peer_next_fragment(OeEngine *e);
bool oe_peer_has_fragment(const OeEngine *e);
void oe_peer_send_fragment(OeEngine *e, unsigned n);
void oe_peer_fragment_done(OeEngine *e, unsigned n, uint8_t code);

/* ---- RMEM initiator (rmem.c) ---- */
OeCsrStatus oe_rmem_access(OeEngine *e, uint32_t off, unsigned size,
                           bool is_write, uint32_t value, uint32_t *rvalue);
void oe_rmem_start(OeEngine *e);
void oe_rmem_done(OeEngine *e, uint8_t code, uint32_t data);
void oe_rmem_finish(OeEngine *e, uint32_t word);
void oe_deliver_rmem_events(OeEngine *e);

/* ---- responder (responder.c) ---- */
void oe_responder_request(OeEngine *e, const OetpHeader *h,
                          const OetpParams *p, const uint8_t *f, size_t len);
void oe_responder_deliver_notification(OeEngine *e);

/* ---- receive path (rx.c) ---- */
void oe_rx_frame(OeEngine *e, const uint8_t *f, size_t len);
uint8_t oe_rx_data(OeEngine *e, const uint8_t *f, size_t flen, uint8_t cmd,
                   const OetpParams *p, uint32_t addr, uint32_t len);

/* ---- raw DMA (raw.c) ---- */
/* Take the clear-error and request bits of both descriptors. */
void oe_raw_accept(OeEngine *e);
bool oe_raw_tx_step(OeEngine *e);
bool oe_raw_receive(OeEngine *e, const uint8_t *f, size_t len);
uint32_t oe_raw_tx_status(const OeEngine *e);
uint32_t oe_raw_rx_status(const OeEngine *e);
bool oe_raw_has_work(const OeEngine *e);

/* ---- direct CSR stream (direct.c) ---- */
/* Take an offered source beat (tvalid) from the store. */
void oe_direct_accept(OeEngine *e);
bool oe_direct_tx_step(OeEngine *e);
bool oe_direct_sink_push(OeEngine *e, const uint8_t *f, size_t len);
bool oe_direct_sink_has_room(const OeEngine *e);
/* Show the head frame once admitted; take a sink beat (tready). */
void oe_direct_sink_accept(OeEngine *e);
uint32_t oe_direct_read(const OeEngine *e, uint32_t off);

/* ---- memory (mem.c) ---- */
/* Access [addr, addr+len) in bursts that never cross 4 KiB. Returns the
 * number of bytes done before the first failing burst; *st gets its status. */
uint32_t oe_mem_read(OeEngine *e, uint32_t addr, uint8_t *buf, uint32_t len,
                     OeMemStatus *st);
/* The same for a read feeding a stream: on failure, only the whole
 * four-byte beats (from the first byte) read before it count. */
uint32_t oe_mem_read_stream(OeEngine *e, uint32_t addr, uint8_t *buf,
                            uint32_t len, OeMemStatus *st);
uint32_t oe_mem_write(OeEngine *e, uint32_t addr, const uint8_t *buf,
                      uint32_t len, OeMemStatus *st);
uint8_t oe_mem_read_code(OeMemStatus st);   /* 4/5 */
uint8_t oe_mem_write_code(OeMemStatus st);  /* 6/7 */

/* ---- engine core (engine.c) ---- */
bool oe_tx_ready(OeEngine *e);
void oe_tx(OeEngine *e, const uint8_t *frame, size_t len);
uint32_t oe_alloc_rid(OeEngine *e);
uint64_t oe_local_mac(const OeEngine *e);

#endif /* OPENENOC_ENGINE_INTERNAL_H */
