/*
 * Shared by the fault matrix (openenoc-faults-test.c) and the soak
 * (openenoc-soak-test.c): QEMUs in a Rig, operations counted in table
 * rows, waits that move every virtual clock. docs/reliability.md.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef OPENENOC_FAULTS_H
#define OPENENOC_FAULTS_H

#include "openenoc-qtest.h"

#define TIMEOUT_US      20000u                  /* DMA and RMEM timeouts */
#define TIMEOUT_CYCLES  (TIMEOUT_US * 1000 / OE_NS_PER_CYCLE)
#define STEP_NS         (100 * SCALE_US)         /* virtual time per poll */
#define HANG_MS         10000                    /* host time: a hang */
#define PUSH_SIZE       (64 * KiB + 3)
#define PULL_SIZE       (64 * KiB + 5)
#define MCAST_SIZE      (32 * KiB + 1)
#define MFS             4096
#define RMEM_WORDS      16
#define RMEM_SLICE      0x100u
#define WINDOW          (32 * MiB)

/*
 * Guest memory: A's sources/destinations, B's window, two areas per kind
 * so a late frame of one operation never lands on the next one's data.
 */
#define A_BUF(k)        (0x01000000u + (k) * 0x00100000u)
#define B_WIN           0x04000000u
#define B_BUF(k)        (B_WIN + (k) * 0x00100000u)

enum { OP_PUSH, OP_PULL, OP_RMEM_RD, OP_RMEM_WR, OP_MCAST, OP__MAX };

typedef struct Node {
    QTestState *qts;
    QPCIBus *bus;
    OeDev d;
} Node;

typedef struct Rig {
    Node n[3];                  /* the pair uses two; the soak three */
    int port[2];
    uint32_t seed;
} Rig;

/* Outcomes of one row of the table. */
typedef struct Row {
    const char *name;
    unsigned ops, ok, timeout, other, mismatch, hang, partial;
    unsigned codes[16];
    int64_t max_ms;
} Row;

/* Sums over every row printed, for the BENCH lines. */
typedef struct Totals {
    unsigned ops, hangs, mismatches;
} Totals;
extern Totals total;

/* A free loopback UDP port (bound once, then closed). */
int free_udp_port(void);
unsigned code_of(uint32_t dma);
void clear_error(OeDev *d, unsigned n);
void settle(Rig *r);
uint32_t block_wait_on(Rig *r, int who, unsigned n, Row *row, int64_t t0);
bool outcome(Row *row, int op, unsigned code, int64_t t0);
void table_head(void);
void row_print(const Row *row);
/*
 * A group write's receiver (best effort): every byte at addr must be the
 * pattern of seed or untouched (0); a lost fragment counts as partial, any
 * other byte as a mismatch.
 */
void mcast_check(QTestState *qts, uint32_t addr, uint32_t size,
                 uint32_t seed, Row *row);
/* Free n's bus and device and quit its QEMU. */
void node_stop(Node *n);

#endif
