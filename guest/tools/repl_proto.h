/*
 * The replication demo's control protocol (above oETP; the spec leaves
 * recovery of best-effort multicast to software). Raw Ethernet frames,
 * EtherType 0x88B6 (IEEE 802 local experimental 2), always unicast; sent by
 * raw DMA and received through the direct stream. docs/guest.md describes
 * the protocol as a whole.
 *
 * Payload: u32 magic, u8 type, u8 slave id, u16 0, u32 seq, then type words,
 * all little-endian. Requests ("req") are repeated by the slave until the
 * answer with its seq arrives, so any frame may be lost; NACKs are not
 * answered (the repair is the answer) and are repeated on the slave's timer.
 */
#ifndef REPL_PROTO_H
#define REPL_PROTO_H

#include <stdint.h>

#define REPL_ETHERTYPE  0x88B6u
#define REPL_MAGIC      0x4C504552u     /* "REPL" */
#define REPL_HDR        (14 + 12)       /* Ethernet + magic/type/id/seq */
#define REPL_MAX_WORDS  1024            /* type words in one frame */
/* (sum, last word) pairs in one REPL_SUMS; (first, count) ranges in one
 * REPL_NACK. */
#define REPL_SUMS_MAX   ((REPL_MAX_WORDS - 2) / 2)
#define REPL_NACK_MAX   ((REPL_MAX_WORDS - 1) / 2)

enum ReplType {
    REPL_HELLO = 1,         /* s->m req: [data bus address, data size] */
    REPL_WELCOME,           /* m->s: [master RMEM area bus address,
                             *        fragment bytes, fragments] */
    REPL_STATUS_REQ,        /* s->m: [] */
    REPL_STATUS,            /* m->s: [state (ReplState), push time us]; also
                             * sent unasked (seq 0) when the push has ended */
    REPL_SUMS_REQ,          /* s->m req: [first fragment, count] */
    REPL_SUMS,              /* m->s: [first, count, (sum, last word) x count] */
    REPL_READY,             /* s->m req: [round trip us] sums in, buffer armed */
    REPL_READY_ACK,         /* m->s: [] */
    REPL_NACK,              /* s->m: [n, (first fragment, count) x n] */
    REPL_HAVE_ALL,          /* s->m req: [fragments lost in the push] every
                             * fragment's sum matches */
    REPL_HAVE_ALL_ACK,      /* m->s: [] */
    REPL_FINISHED,          /* s->m req: [CRC-32 of the block, recovered bytes,
                             *            ReplRmem] */
    REPL_BYE,               /* m->s: [CRC matched 0/1, us from the push start
                             *        to this slave's HAVE_ALL, master's clock] */
};

enum ReplState {
    REPL_WAITING = 0,       /* for every slave's READY */
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
