/*
 * Helpers of the fault matrix and the soak; see openenoc-faults.h.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include <sys/socket.h>
#include <netinet/in.h>
#include "openenoc-faults.h"

static const char *const op_names[OP__MAX] = {
    "push", "pull", "rmem-rd", "rmem-wr", "mcast",
};

Totals total;

int free_udp_port(void)
{
    struct sockaddr_in a = { .sin_family = AF_INET };
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_DGRAM, 0), port;

    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    g_assert_cmpint(bind(fd, (struct sockaddr *)&a, sizeof(a)), ==, 0);
    g_assert_cmpint(getsockname(fd, (struct sockaddr *)&a, &len), ==, 0);
    port = ntohs(a.sin_port);
    close(fd);
    return port;
}

unsigned code_of(uint32_t dma)
{
    return (dma & OE_PEER_DMA_ERROR_CODE_MASK) >> OE_PEER_DMA_ERROR_CODE_SHIFT;
}

/* Errors are sticky: clear entry n's before its next operation. */
void clear_error(OeDev *d, unsigned n)
{
    uint32_t v = oe_rd(d, OE_PEER_DMA(n));

    oe_wr(d, OE_PEER_DMA(n), (v & OE_PEER_DMA_MODE_MASK) |
          OE_PEER_DMA_CLEAR_ERROR_MASK);
}

/* Let delayed frames out and the link go quiet (both clocks move). */
void settle(Rig *r)
{
    for (int i = 0; i < ARRAY_SIZE(r->n); i++) {
        if (r->n[i].qts) {
            qtest_clock_step(r->n[i].qts, 4 * TIMEOUT_US * SCALE_US);
        }
    }
    g_usleep(3000);
}

/*
 * Wait for A's block on entry n, moving both virtual clocks a little per
 * poll (timeouts and delays are on the virtual clock, which stands still
 * under qtest otherwise). Returns the dma register, or 0 on a hang.
 */
uint32_t block_wait_on(Rig *r, int who, unsigned n, Row *row,
                              int64_t t0)
{
    for (;;) {
        uint32_t v = oe_rd(&r->n[who].d, OE_PEER_DMA(n));

        if ((v & (OE_PEER_DMA_IDLE_MASK | OE_PEER_DMA_REQUEST_MASK)) ==
            OE_PEER_DMA_IDLE_MASK) {
            return v;
        }
        if (g_get_monotonic_time() - t0 > HANG_MS * 1000) {
            g_test_message("%s: hang, QEMU %d entry %u dma 0x%08x",
                           row->name, who, n, v);
            row->hang++;
            return 0;
        }
        for (int i = 0; i < ARRAY_SIZE(r->n); i++) {
            if (r->n[i].qts) {
                qtest_clock_step(r->n[i].qts, STEP_NS);
            }
        }
        g_usleep(50);
    }
}

/* Count one outcome; returns true when the operation succeeded. */
bool outcome(Row *row, int op, unsigned code, int64_t t0)
{
    int64_t ms = (g_get_monotonic_time() - t0) / 1000;

    if (code && getenv("OPENENOC_FAULTS_VERBOSE")) {
        g_test_message("%s: %s code %u after %" PRId64 " ms", row->name,
                       op_names[op], code, ms);
    }
    row->ops++;
    row->max_ms = MAX(row->max_ms, ms);
    row->codes[code & 15]++;
    if (code == 0) {
        row->ok++;
    } else if (code == OE_ERR_TIMEOUT) {
        row->timeout++;
    } else {
        row->other++;
    }
    return code == 0;
}

void row_print(const Row *row)
{
    GString *codes = g_string_new("");

    for (int c = 1; c < 16; c++) {
        if (row->codes[c]) {
            g_string_append_printf(codes, "%s%d:%u", codes->len ? "," : "",
                                   c, row->codes[c]);
        }
    }
    g_test_message("FAULTS %-22s %5u %5u %7u %5u %8u %5u %8u %6" PRId64
                   "  %s", row->name, row->ops, row->ok, row->timeout,
                   row->other, row->mismatch, row->hang, row->partial,
                   row->max_ms, codes->len ? codes->str : "-");
    g_string_free(codes, true);
    total.ops += row->ops;
    total.hangs += row->hang;
    total.mismatches += row->mismatch;
}

void table_head(void)
{
    g_test_message("FAULTS %-22s %5s %5s %7s %5s %8s %5s %8s %6s  %s",
                   "fault", "ops", "ok", "timeout", "other", "mismatch",
                   "hang", "lost", "max_ms", "codes");
}

void node_stop(Node *n)
{
    g_free(n->d.pci);
    qpci_free_pc(n->bus);
    qtest_quit(n->qts);
}

void mcast_check(QTestState *qts, uint32_t addr, uint32_t size,
                 uint32_t seed, Row *row)
{
    g_autofree uint8_t *want = g_malloc(size);
    g_autofree uint8_t *got = g_malloc(size);
    bool lost = false;

    oe_fill(want, size, seed);
    qtest_memread(qts, addr, got, size);
    for (uint32_t i = 0; i < size; i++) {
        if (got[i] != want[i]) {
            lost = true;
            if (got[i] != 0) {
                row->mismatch++;
                break;
            }
        }
    }
    row->partial += lost;
}
