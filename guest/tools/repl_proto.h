/*
 * The replication demo's control protocol (above oETP; the spec leaves
 * recovery of best-effort multicast to software). Raw Ethernet frames,
 * EtherType 0x88B6 (IEEE 802 local experimental 2), always unicast; sent by
 * raw DMA and received through the direct stream.
 *
 * Payload: u32 magic, u8 type, u8 slave id, u16 0, u32 seq, then type words,
 * all little-endian. Slaves ask, the master answers; a slave repeats a
 * request until the answer with its seq arrives, so any frame may be lost.
 */
#ifndef REPL_PROTO_H
#define REPL_PROTO_H

#include <stdint.h>

#define REPL_ETHERTYPE  0x88B6u
#define REPL_MAGIC      0x4C504552u     /* "REPL" */
#define REPL_HDR        (14 + 12)       /* Ethernet + magic/type/id/seq */
#define REPL_MAX_WORDS  1024            /* type words in one frame */

enum ReplType {
    REPL_HELLO = 1,         /* s->m: [data bus address, data size] */
    REPL_WELCOME,           /* m->s: [master RMEM area bus address] */
    REPL_STATUS_REQ,        /* s->m: [] */
    REPL_STATUS,            /* m->s: [state (ReplState), push time us]; also sent
                             * unasked (seq 0) when the block has gone out */
    REPL_SUMS_REQ,          /* s->m: [first chunk, count] */
    REPL_SUMS,              /* m->s: [first, count, crc32...] */
    REPL_RESEND_REQ,        /* s->m: [first chunk, count] */
    REPL_RESENT,            /* m->s: [first, count, CSR error code] */
    REPL_FINISHED,          /* s->m: [verified 0/1, recovered bytes, ReplRmem] */
    REPL_BYE,               /* m->s: [us from block start to this slave's copy
                             * complete, on the master's clock] */
    REPL_ARRIVED,           /* s->m: [] every sampled word of the block is here */
    REPL_ARRIVED_ACK,       /* m->s: [] */
};

enum ReplState {
    REPL_WAITING = 0,       /* for every slave's HELLO */
    REPL_PUSHING = 1,
    REPL_PUSHED = 2,
};

/* What a slave's RMEM test found (REPL_FINISHED word 2). */
enum ReplRmem {
    REPL_RMEM_NONE = 0,     /* not asked to test RMEM */
    REPL_RMEM_OK = 1,
    REPL_RMEM_FAILED = 2,
};

#endif /* REPL_PROTO_H */
