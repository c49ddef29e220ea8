/*
 * Conformance harness for openenoc endpoint engines.
 *
 * A world holds up to H_MAX_NODES nodes on one Ethernet segment (a hub: every
 * transmitted frame is offered to every other node). A node is either an
 * engine (behind include/openenoc/engine.h, with its own simulated memory) or
 * a scripted peer (test code sends its frames and reads what it received).
 * Frames are queued and delivered after the transmitting call returns, as the
 * interface requires, with optional per-link faults.
 *
 * The harness only knows the engine interface, so the same tests can later
 * drive the RTL engine.
 */
#ifndef OE_TEST_HARNESS_H
#define OE_TEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "openenoc/engine.h"
#include "openenoc/oetp.h"
#include "openenoc/regs.h"

#include "check.h"
#include "framepool.h"

#define H_MAX_NODES 4

/* Extract / place a register field by its generated name prefix. */
#define H_GET(v, F) ((uint32_t)(((uint64_t)(v) & F##_MASK) >> F##_SHIFT))
#define H_PUT(F, x) ((uint32_t)(((uint64_t)(x) << F##_SHIFT) & F##_MASK))

/* Example addresses used across the suite (02:0E:0C local unicast prefix,
 * 03:0E:0C local group prefix, as in the spec's examples). */
#define H_MAC_A 0x020E0C00000Aull
#define H_MAC_B 0x020E0C00000Bull
#define H_MAC_C 0x020E0C00000Cull
#define H_MAC_D 0x020E0C00000Dull
#define H_MAC_X 0x020E0C0000EEull   /* nobody's address */
#define H_MAC_G 0x030E0C000001ull   /* the replication group */

/* ------------------------------------------------------------------ */
/* Simulated local memory: sparse regions, error ranges, access log.   */

enum { HM_READ = 1, HM_WRITE = 2, HM_BOTH = 3 };

typedef struct HMemRegion {
    uint32_t base;
    uint64_t size;
    uint8_t *bytes;
} HMemRegion;

typedef struct HMemError {
    uint32_t base;
    uint64_t len;
    OeMemStatus status;
    unsigned ops;               /* HM_READ / HM_WRITE */
} HMemError;

typedef struct HMemAccess {
    bool write;
    uint32_t addr;
    uint32_t len;
    OeMemStatus status;
    uint64_t cycle;
} HMemAccess;

typedef struct HMem {
    HMemRegion regions[8];
    uint8_t *pristine[8];       /* hm_snapshot() copies, or NULL */
    unsigned nregions;
    HMemError errors[16];
    unsigned nerrors;
    HMemAccess *log;
    size_t nlog, caplog;
} HMem;

/* Add a zero-filled region (outside every region, accesses get DECERR). */
void hm_region(HMem *m, uint32_t base, uint64_t size);
/* Test-side access (not logged, ignores error ranges); fails the test if
 * the range is not backed by one region. */
uint8_t *hm_ptr(HMem *m, uint32_t addr, uint64_t len);
void hm_put(HMem *m, uint32_t addr, const void *src, uint64_t len);
void hm_get(HMem *m, uint32_t addr, void *dst, uint64_t len);
/* Deterministic non-zero pattern, different per seed. */
void hm_pattern(HMem *m, uint32_t addr, uint64_t len, unsigned seed);
uint8_t hm_pattern_byte(uint64_t i, unsigned seed);
/* Make accesses overlapping [base, base+len) fail with status. */
void hm_error(HMem *m, uint32_t base, uint64_t len, OeMemStatus status,
              unsigned ops);
void hm_clear_errors(HMem *m);
void hm_log_clear(HMem *m);
/* Remember every region's contents; hm_restore() then undoes the engine's
 * logged writes (copying back only the written bytes), clears the access
 * log and the error ranges. Test-side writes (hm_put) are not undone. */
void hm_snapshot(HMem *m);
void hm_restore(HMem *m);
/* Number of logged accesses of a kind (HM_READ/HM_WRITE/HM_BOTH). */
size_t hm_log_count(const HMem *m, unsigned ops);
/* True if every logged access of that kind lies in [lo, hi). */
bool hm_log_within(const HMem *m, unsigned ops, uint64_t lo, uint64_t hi);
/* Total bytes moved by logged accesses of that kind. */
uint64_t hm_log_bytes(const HMem *m, unsigned ops);

/* ------------------------------------------------------------------ */
/* Frames and faults.                                                   */

typedef struct HFrame {
    uint8_t *data;
    size_t len;
    uint64_t cycle;   /* when it was transmitted / delivered */
    uint64_t seq;     /* world-wide order of transmissions and deliveries */
    int src;          /* transmitting node */
} HFrame;

typedef struct HFrameList {
    HFrame *v;
    size_t n, cap;
    size_t cursor;    /* next unread entry for hn_next_* helpers */
} HFrameList;

typedef enum HFaultKind {
    HF_DROP,
    HF_DUP,       /* deliver twice */
    HF_DELAY,     /* deliver `delay` cycles later */
    HF_TRUNCATE,  /* keep the first `len` bytes */
    HF_CORRUPT,   /* frame[offset] ^= xor_mask; offset < 0 counts from end */
    HF_PAD60,     /* pad to 60 bytes with pad_byte, as an external MAC does */
} HFaultKind;

typedef struct HFault {
    HFaultKind kind;
    int src, dst;         /* node index, -1 for any */
    int cmd;              /* match oETP Cmd octet, -1 for any frame */
    unsigned skip;        /* let this many matching frames pass first */
    unsigned count;       /* then affect this many; 0 = every later one */
    uint64_t delay;
    size_t len;
    long offset;
    uint8_t xor_mask;
    uint8_t pad_byte;
    unsigned seen;        /* internal: matching frames so far */
} HFault;

/* ------------------------------------------------------------------ */
/* World and nodes.                                                     */

typedef struct HWorld HWorld;

typedef struct HDelivery {
    uint8_t *data;
    size_t len;
    uint64_t due;
    int src;
    uint64_t order;       /* tie-break: FIFO among equal due times */
} HDelivery;

typedef struct HNode {
    HWorld *w;
    int idx;
    char name[16];
    uint64_t mac;          /* for scripted peers: their source address */
    OeEngine *e;           /* NULL for a scripted peer */
    uint8_t *save_buf[2];  /* quiescence check: state before / after */
    size_t save_cap[2];
    size_t save_len[2];
    int save_last;         /* buffer of the latest save, taken when ... */
    uint64_t save_calls;   /* ... calls stood at this (0: none valid) */
    uint64_t quiet_now;    /* cycle of the last passed check, and */
    bool quiet_tx;         /* whether the transmit path was open then */
    uint8_t *snap;         /* hw_snapshot() of the engine */
    size_t snap_len;
    bool snap_irq;         /* IRQ level at hw_snapshot() */
    HMem mem;

    uint64_t told;         /* last cycle passed to oe_engine_advance */
    uint64_t timer;        /* armed wake-up, OE_TIMER_NONE if none */
    unsigned arm_calls;

    bool in_call;          /* inside an engine call (callbacks allowed) */
    uint64_t calls;        /* calls into this engine so far (never reset):
                            * its state cannot change while this stands */

    /* TX backpressure model: tx_ready() returns tx_open; the harness calls
     * advance when it reopens a transmit path the engine found closed. */
    bool tx_open;
    bool tx_was_refused;
    long tx_budget;        /* frames allowed before closing; <0 unlimited */

    /* Interrupt output as seen through set_irq(). */
    bool irq;
    unsigned irq_rises;    /* false -> true transitions */
    unsigned irq_msgs;     /* set_irq(true) calls (edge messages) */
    unsigned irq_falls;

    /* Pending CSR access. */
    bool csr_pending;
    bool csr_completed;
    uint32_t csr_value;
    unsigned csr_completions;

    HFrameList tx;         /* every frame this node transmitted */
    HFrameList rx;         /* every frame delivered to this node */

    HDelivery *q;          /* frames waiting to be delivered to this node: */
    size_t qhead, nq, capq;   /* q[qhead .. qhead + nq), by due time */
} HNode;

struct HWorld {
    HNode *nodes[H_MAX_NODES];
    int nnodes;
    uint64_t now;
    uint64_t order;
    HFault faults[16];
    int nfaults;
    char violation[512];   /* first host-contract violation, if any */
    uint64_t settle_limit; /* engine calls per settle before "livelock" */
    uint64_t calls;        /* engine calls so far */
    uint64_t call_limit;   /* fail beyond this many calls (0: no limit):
                            * catches an engine polling with wake-ups */
    /* Optional observer of every memory access (the fuzz oracle). */
    void (*mem_hook)(HNode *n, bool write, uint32_t addr, uint32_t len,
                     void *opaque);
    void *mem_hook_opaque;
    HFramePool *pool;      /* every frame buffer of lists and queues */
    uint64_t snap_now;     /* hw_snapshot() cycle */
    bool has_snap;
};

/* A new world at cycle 0; freed automatically at the end of the test. */
HWorld *hw_new(void);
void hw_free(HWorld *w);
/* Remember the world as it is now (no frames queued, no CSR access
 * pending, no faults): every engine's saved state and every memory. */
void hw_snapshot(HWorld *w);
/* Back to the snapshot without rebuilding: each engine reloads its saved
 * state (oe_engine_load, which hard-resets first), engine memory writes
 * since are undone (hm_restore), frames, queues, faults, counters and
 * host-side CSR/timer state are cleared, the IRQ level is the snapshot's
 * and the engine is told the time (as after hn_migrate). Buffers stay allocated; the
 * fuzz target runs every input from the same snapshot this way. */
void hw_restore(HWorld *w);
/* An engine node with a default memory region [0, 0x40000). If mac != 0 it
 * is written to config.mac_address. */
HNode *hw_engine(HWorld *w, const char *name, uint64_t mac,
                 const OeEngineConfig *cfg);
/* A scripted peer with source address mac. */
HNode *hw_scripted(HWorld *w, const char *name, uint64_t mac);

int hw_add_fault(HWorld *w, const HFault *f);
void hw_clear_faults(HWorld *w);

/* Deliver everything due now and serve due timers until nothing is left
 * at the current cycle. Time does not move. */
void hw_settle(HWorld *w);
/* Move time to `cycle`, serving every event on the way. */
void hw_run_until(HWorld *w, uint64_t cycle);
void hw_run_for(HWorld *w, uint64_t cycles);
/* Run until no timer is armed and no frame is queued, jumping time to each
 * next event; false if max_cycles pass first. */
bool hw_run_idle(HWorld *w, uint64_t max_cycles);
/* Fail unless every engine is really idle: one more advance at the current
 * cycle changes no state and sends nothing (run by hw_run_idle). */
void hw_check_quiescent(HWorld *w);
/* Earliest pending event (armed timer or deliverable frame), or UINT64_MAX. */
uint64_t hw_next_event(const HWorld *w);
/* Fail the test if a host-contract violation was recorded. */
void hw_check(HWorld *w);

/* Frames. A scripted peer (or the test) sends a frame into the segment:
 * every other node gets it (faults apply), destination filtering is the
 * receivers' job. hn_deliver() instead sends to one node only. */
void hn_send(HNode *from, const uint8_t *frame, size_t len);
void hn_deliver(HNode *to, const uint8_t *frame, size_t len);
/* Next unread frame in a node's TX or RX list, or NULL. */
const HFrame *hn_next_tx(HNode *n);
const HFrame *hn_next_rx(HNode *n);
size_t hn_unread_tx(const HNode *n);
size_t hn_unread_rx(const HNode *n);
/* Mark everything read so far. */
void hn_skip_tx(HNode *n);
void hn_skip_rx(HNode *n);

/* Frame inspection (oETP fields; 0 where the frame is too short). */
uint8_t hf_cmd(const HFrame *f);      /* Cmd octet, 0 if not oETP */
uint32_t hf_param(const HFrame *f, unsigned i);
uint64_t hf_dst(const HFrame *f);
uint64_t hf_src(const HFrame *f);
/* Frames in a node's TX list with this Cmd (-1: all frames). */
size_t hn_count_tx(const HNode *n, int cmd);
/* k-th such frame (0-based) or NULL. */
const HFrame *hn_tx_nth(const HNode *n, int cmd, size_t k);

/* ------------------------------------------------------------------ */
/* CSR access.                                                          */

/* Raw accesses: issue once, no waiting. */
OeCsrStatus hn_csr_read(HNode *n, uint32_t off, unsigned size, uint32_t *v);
OeCsrStatus hn_csr_write(HNode *n, uint32_t off, unsigned size, uint32_t v);
/* Convenience: if the access pends, run the world (up to a generous cycle
 * limit) until it completes; fail the test otherwise. */
uint32_t hn_rd(HNode *n, uint32_t off);
uint32_t hn_rd_sz(HNode *n, uint32_t off, unsigned size);
void hn_wr(HNode *n, uint32_t off, uint32_t v);
void hn_wr_sz(HNode *n, uint32_t off, unsigned size, uint32_t v);
uint64_t hn_rd64(HNode *n, uint32_t off);
void hn_wr64(HNode *n, uint32_t off, uint64_t v);
/* Run the world until the pending access completes; returns its value. */
uint32_t hn_wait_csr(HNode *n, uint64_t max_cycles);

void hn_reset(HNode *n);
/* Migration round trip: save the engine, replace it by a fresh one and load
 * the blob into it (fails the test if save/load fail). */
void hn_migrate(HNode *n);
void hn_advance(HNode *n);   /* tell the engine the current cycle */
bool hn_can_receive(HNode *n);
void hn_set_request_id(HNode *n, uint32_t id);
void hn_tx_open(HNode *n, bool open);

/* ------------------------------------------------------------------ */
/* Endpoint helpers (all through CSRs).                                  */

typedef struct HPeer {
    uint64_t mac;
    uint32_t rmem_address;
    uint32_t local_address;
    uint32_t remote_address;
    uint32_t size;
    unsigned mode;
    bool irq_enable;
} HPeer;

void hn_peer(HNode *n, unsigned idx, const HPeer *p);
void hn_set_mac(HNode *n, uint64_t mac);
void hn_set_mcast(HNode *n, uint64_t mac);
/* Write dma.request keeping mode and irq_enable. */
void hn_dma_request(HNode *n, unsigned idx);
uint32_t hn_dma(HNode *n, unsigned idx);
/* Request, run idle, check the block finished; returns the dma word. */
uint32_t hn_dma_run(HNode *n, unsigned idx);
void hn_clear_error(HNode *n, unsigned idx);
/*
 * A mirror between two engines: a's entry ia points at b and b's entry ib
 * at a. push: a in mode 3 writes [la, la+size) to b's [rb, rb+size), b in
 * mode 2 admits exactly that window; pull: a in mode 2 reads it from b in
 * mode 3.
 */
void hx_mirror(HNode *a, unsigned ia, HNode *b, unsigned ib, bool push,
               uint32_t la, uint32_t rb, uint32_t size);

/* IRQ helpers (sources: OE_SRC_* of regs.h). */
#define H_CLAIM(src, peer, seq) \
    (OE_IRQ_CLAIM_VALID_MASK | H_PUT(OE_IRQ_CLAIM_SOURCE, src) | \
     H_PUT(OE_IRQ_CLAIM_PEER_IDX, peer) | H_PUT(OE_IRQ_CLAIM_SEQUENCE, seq))
void hn_irq_enable(HNode *n, uint32_t event_mask);
uint32_t hn_claim(HNode *n);
void hn_complete(HNode *n, uint32_t claim);
unsigned hn_fifo_level(HNode *n);

/* RMEM window offset of byte `off` of the window. */
#define H_RMEM(off) (OE_RMEM + (off))

/* ------------------------------------------------------------------ */
/* Byte helpers.                                                        */

/* A non-oETP frame (EtherType 0x0800) of len bytes from src to dst, the
 * payload from the memory pattern of seed; returns len. */
size_t h_raw_frame(uint8_t *f, size_t len, uint64_t dst, uint64_t src,
                   unsigned seed);
/* Parse hex text ("02 0e 0c", "020e0c", whitespace and ':' ignored) into
 * out; fails the test on bad text or overflow. Returns the byte count. */
size_t h_hex(uint8_t *out, size_t cap, const char *text);
/* Fail unless the frame equals want (hexdump of both on mismatch). */
void h_check_bytes(const char *what, const uint8_t *got, size_t glen,
                   const uint8_t *want, size_t wlen);
void h_hexdump(const char *prefix, const uint8_t *p, size_t len);

/* Internal to the harness. */
OeMemStatus hm_access(HMem *m, bool write, uint32_t addr, void *buf,
                      uint32_t len, uint64_t cycle);
void hm_free(HMem *m);

#endif /* OE_TEST_HARNESS_H */
