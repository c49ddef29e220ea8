/*
 * openenoc qtest: two and three devices in one QEMU on a hub. Peer DMA in
 * both modes (unaligned sizes, several MFS values), multicast with response
 * suppression, RMEM through the window, ERROR_RSP paths, timeouts driven by
 * clock steps, raw DMA and the direct stream, IRQ claims via MSI-X, MSI and
 * INTx, a lossy link.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "openenoc-qtest.h"

#define WINDOW  0x00400000u     /* responder windows: 4 MiB */

typedef struct Hub {
    QTestState *qts;
    QPCIBus *bus;
    OeDev d[3];
    int n;
    char *pcap;
} Hub;

/*
 * n devices on hub 0 plus extra command-line arguments (filters on the
 * ports p0..); with pcap, device 0's port is captured.
 */
static void hub_start_with(Hub *h, int n, const char *dev_extra, bool pcap,
                           const char *extra)
{
    g_autofree char *args = oe_hub_args(n, dev_extra);
    g_autofree char *dump = NULL;

    memset(h, 0, sizeof(*h));
    if (pcap) {
        h->pcap = oe_pcap_path();
        dump = g_strdup_printf("-object filter-dump,id=dump0,netdev=p0,"
                               "file=%s", h->pcap);
    }
    h->qts = oe_start("%s %s %s", args, dump ? dump : "", extra);
    h->bus = oe_bus(h->qts);
    h->n = n;
    for (int i = 0; i < n; i++) {
        oe_open(&h->d[i], h->qts, h->bus, 4 + i);
        oe_set_macs(&h->d[i], OE_MAC(i), 0);
    }
}

static void hub_start(Hub *h, int n, const char *dev_extra, bool pcap)
{
    hub_start_with(h, n, dev_extra, pcap, "");
}

static void hub_stop(Hub *h)
{
    for (int i = 0; i < h->n; i++) {
        g_free(h->d[i].pci);
    }
    qpci_free_pc(h->bus);
    qtest_quit(h->qts);
    g_free(h->pcap);
}

static unsigned dma_code(uint32_t dma)
{
    return (dma & OE_PEER_DMA_ERROR_CODE_MASK) >> OE_PEER_DMA_ERROR_CODE_SHIFT;
}

/* Expect a finished block: done and no error (code 0), or error with code. */
static void expect_block(uint32_t dma, unsigned code)
{
    g_assert_cmphex(dma & OE_PEER_DMA_IDLE_MASK, ==, OE_PEER_DMA_IDLE_MASK);
    g_assert_cmphex(dma & OE_PEER_DMA_REQUEST_MASK, ==, 0);
    if (code) {
        g_assert_cmphex(dma & OE_PEER_DMA_DONE_MASK, ==, 0);
        g_assert_cmphex(dma & OE_PEER_DMA_ERROR_MASK, ==,
                        OE_PEER_DMA_ERROR_MASK);
    } else {
        g_assert_cmphex(dma & (OE_PEER_DMA_DONE_MASK | OE_PEER_DMA_ERROR_MASK),
                        ==, OE_PEER_DMA_DONE_MASK);
    }
    g_assert_cmpuint(dma_code(dma), ==, code);
}

typedef struct BlockCase {
    uint32_t size;
    uint32_t mfs;           /* as written to dma_max_fragment_size */
    uint32_t src_off;       /* misalignment of the source */
    uint32_t dst_off;       /* misalignment of the destination */
} BlockCase;

static const BlockCase block_cases[] = {
    { 1, 8160, 0, 0 },
    { 3, 31, 1, 2 },            /* MFS 31 -> 28 */
    { 5, 7, 3, 1 },             /* MFS 7 -> 4: five fragments... of 4 and 1 */
    { 4095, 1000, 2, 3 },
    { 8160, 8160, 0, 0 },
    { 8161, 8163, 1, 0 },       /* MFS 8163 -> 8160: 8160 + 1 */
    { 100003, 4096, 3, 2 },
    { 262147, 8160, 1, 3 },
};

/*
 * One block from `from` to `to`: initiator device i uses mode (3 = push,
 * 2 = pull) against responder j, which has the complementary mode over a
 * window. Data lands at the destination exactly, guard bytes untouched.
 */
static void run_block(Hub *h, int i, int j, unsigned mode, const BlockCase *c,
                      uint32_t seed)
{
    OeDev *ini = &h->d[i], *rsp = &h->d[j];
    uint32_t ibuf = OE_RAM_BUF(2 * i), rbuf = OE_RAM_BUF(2 * j + 1);
    uint32_t src, dst, ilocal, rlocal;
    bool push = mode == OE_MODE_MIRROR_LOCAL_TO_REMOTE;
    uint8_t guard[2];

    /* the initiator's local and the responder's window-relative address */
    ilocal = ibuf + (push ? c->src_off : c->dst_off);
    rlocal = rbuf + (push ? c->dst_off : c->src_off);
    src = push ? ilocal : rlocal;
    dst = push ? rlocal : ilocal;

    oe_ram_fill(h->qts, src, c->size, seed);
    qtest_memset(h->qts, dst - 1, 0, c->size + 2);
    oe_wr(ini, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, c->mfs);
    oe_peer(ini, 0, OE_MAC(j), mode, ilocal, rlocal, c->size, 0);
    oe_peer(rsp, 0, OE_MAC(i), push ? OE_MODE_MIRROR_REMOTE_TO_LOCAL
                                    : OE_MODE_MIRROR_LOCAL_TO_REMOTE,
            rbuf, 0, WINDOW, 0);
    oe_peer_start(ini, 0);
    expect_block(oe_peer_wait(ini, 0), 0);
    g_assert_cmpint(oe_ram_check(h->qts, dst, c->size, seed), ==, -1);
    qtest_memread(h->qts, dst - 1, &guard[0], 1);
    qtest_memread(h->qts, dst + c->size, &guard[1], 1);
    g_assert_cmphex(guard[0] | guard[1], ==, 0);
    /* the responder saw no error */
    g_assert_cmpuint(dma_code(oe_rd(rsp, OE_PEER_DMA(0))), ==, 0);
    /* the register keeps the unrounded value */
    g_assert_cmpuint(oe_rd(ini, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE), ==, c->mfs);
}

static void test_dma_push(void)
{
    Hub h;

    hub_start(&h, 2, "", false);
    for (size_t k = 0; k < G_N_ELEMENTS(block_cases); k++) {
        run_block(&h, 0, 1, OE_MODE_MIRROR_LOCAL_TO_REMOTE, &block_cases[k],
                  k + 1);
        run_block(&h, 1, 0, OE_MODE_MIRROR_LOCAL_TO_REMOTE, &block_cases[k],
                  k + 100);
    }
    hub_stop(&h);
}

/*
 * Register reads keep being served while a long block runs, however long
 * the engine takes per frame (the RTL model takes milliseconds): a paced
 * 1 MiB block is seen in progress by many reads in a row, then completes
 * with the right data. A host that ran the block to its end inside one
 * main-loop pass would answer the first read only after the block. Full-size
 * fragments take the RTL model more than one call each, so its "call again
 * at once" requests are exercised too.
 */
static void test_reads_during_block(void)
{
    const uint32_t size = 1 * MiB + 3;
    unsigned running = 0;
    uint32_t dma;
    Hub h;

    hub_start(&h, 2, "link-speed=100", false);
    oe_ram_fill(h.qts, OE_RAM_BUF(0), size, 77);
    oe_wr(&h.d[0], OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, OETP_FRAG_CEILING);
    oe_peer(&h.d[0], 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE,
            OE_RAM_BUF(0), OE_RAM_BUF(1), size, 0);
    oe_peer(&h.d[1], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
            OE_RAM_BUF(1), 0, 16 * MiB, 0);
    oe_peer_start(&h.d[0], 0);
    for (int i = 0; i < 100000; i++) {
        dma = oe_rd(&h.d[0], OE_PEER_DMA(0));
        if (dma & OE_PEER_DMA_IDLE_MASK) {
            break;
        }
        running++;
        g_usleep(1000);
    }
    g_test_message("%u reads saw the block running", running);
    g_assert_cmpuint(running, >=, 10);
    expect_block(dma, 0);
    g_assert_cmpint(oe_ram_check(h.qts, OE_RAM_BUF(1), size, 77), ==, -1);
    hub_stop(&h);
}

static void test_dma_pull(void)
{
    Hub h;

    hub_start(&h, 2, "", false);
    for (size_t k = 0; k < G_N_ELEMENTS(block_cases); k++) {
        run_block(&h, 0, 1, OE_MODE_MIRROR_REMOTE_TO_LOCAL, &block_cases[k],
                  k + 200);
    }
    hub_stop(&h);
}

/* Blocks rejected at acceptance: error 1, nothing on the wire. */
static void test_dma_invalid(void)
{
    static const struct {
        unsigned mode;
        uint32_t local, size, mfs;
    } bad[] = {
        /* size 0; mode 1; MFS < 4; MFS > ceiling; the window wraps */
        { OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0), 0, 8160 },
        { OE_MODE_RMEM, OE_RAM_BUF(0), 64, 8160 },
        { OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0), 64, 3 },
        { OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0), 64, 8164 },
        { OE_MODE_MIRROR_LOCAL_TO_REMOTE, 0xfffffff0u, 0x20, 8160 },
    };
    Hub h;

    hub_start(&h, 2, "", false);
    for (size_t k = 0; k < G_N_ELEMENTS(bad); k++) {
        oe_wr(&h.d[0], OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, bad[k].mfs);
        oe_peer(&h.d[0], 0, OE_MAC(1), bad[k].mode, bad[k].local,
                OE_RAM_BUF(1), bad[k].size, 0);
        oe_peer_start(&h.d[0], 0);
        expect_block(oe_peer_wait(&h.d[0], 0), OE_ERR_LOCAL_INVALID);
        oe_wr(&h.d[0], OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);
    }
    hub_stop(&h);
}

/*
 * ERROR_RSP paths: the responder refuses (mode, window) or its memory fails
 * (unassigned address, bus mastering off); the initiator records 8 + cause.
 */
static void test_dma_error_rsp(void)
{
    Hub h;
    OeDev *a, *b;

    hub_start(&h, 2, "", false);
    a = &h.d[0];
    b = &h.d[1];

    /* B's entry for A is mode 3, so an incoming write is refused: cause 1 */
    oe_peer(a, 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            OE_RAM_BUF(1), 64, 0);
    oe_peer(b, 0, OE_MAC(0), OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(1), 0,
            WINDOW, 0);
    oe_peer_start(a, 0);
    expect_block(oe_peer_wait(a, 0), OE_ERR_REMOTE_INVALID);
    g_assert_cmpuint(dma_code(oe_rd(b, OE_PEER_DMA(0))), ==,
                     OE_ERR_LOCAL_INVALID);
    oe_wr(a, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_wr(b, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);

    /* outside B's window: cause 1 */
    oe_peer(b, 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL, OE_RAM_BUF(1), 0,
            64, 0);
    oe_peer(a, 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            OE_RAM_BUF(1) + 32, 64, 0);
    oe_peer_start(a, 0);
    expect_block(oe_peer_wait(a, 0), OE_ERR_REMOTE_INVALID);
    oe_wr(a, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_wr(b, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);

    /* B's window on unassigned addresses: read DECERR -> cause 5 -> 13 */
    oe_peer(b, 0, OE_MAC(0), OE_MODE_MIRROR_LOCAL_TO_REMOTE, 0xD0000000u, 0,
            WINDOW, 0);
    oe_peer(a, 0, OE_MAC(1), OE_MODE_MIRROR_REMOTE_TO_LOCAL, OE_RAM_BUF(0),
            0xD0000000u, 100, 0);
    oe_peer_start(a, 0);
    expect_block(oe_peer_wait(a, 0), OE_ERR_REMOTE_RD_DECERR);
    oe_wr(a, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_wr(b, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);

    /* B without bus mastering: its write fails DECERR -> cause 7 -> 15 */
    oe_peer(b, 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL, OE_RAM_BUF(1), 0,
            WINDOW, 0);
    oe_peer(a, 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            OE_RAM_BUF(1), 100, 0);
    qpci_config_writew(b->pci, PCI_COMMAND, PCI_COMMAND_MEMORY);
    oe_peer_start(a, 0);
    expect_block(oe_peer_wait(a, 0), OE_ERR_REMOTE_WR_DECERR);
    qpci_config_writew(b->pci, PCI_COMMAND,
                       PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER);
    oe_wr(a, OE_PEER_DMA(0), OE_PEER_DMA_CLEAR_ERROR_MASK);

    /* A's own source unassigned: local read DECERR, code 5 */
    oe_peer(a, 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE, 0xD0000000u,
            OE_RAM_BUF(1), 100, 0);
    oe_peer_start(a, 0);
    expect_block(oe_peer_wait(a, 0), OE_ERR_LOCAL_RD_DECERR);
    hub_stop(&h);
}

static unsigned count_cmd(GPtrArray *frames, uint8_t cmd)
{
    unsigned n = 0;

    for (guint i = 0; i < frames->len; i++) {
        GByteArray *f = g_ptr_array_index(frames, i);

        if (f->len > OETP_OFF_CMD && f->data[OETP_OFF_ETHERTYPE] == 0x88 &&
            f->data[OETP_OFF_ETHERTYPE + 1] == 0xB5 &&
            f->data[OETP_OFF_CMD] == cmd) {
            n++;
        }
    }
    return n;
}

/*
 * One master, two slaves: the master's entry holds the group MAC in mode 3;
 * both slaves accept the group and have the master in mode 2. Nobody
 * answers a group write, not even with ERROR_RSP when a slave refuses.
 */
static void test_multicast(void)
{
    const uint32_t size = 50001, remote = OE_RAM_BUF(3) + 3;
    g_autoptr(GPtrArray) frames = NULL;
    g_autofree char *pcap = oe_pcap_path();     /* hub_start's capture */
    Hub h;

    hub_start(&h, 3, "", true);
    oe_ram_fill(h.qts, OE_RAM_BUF(0), size, 77);
    oe_wr(&h.d[0], OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 4000);
    oe_peer(&h.d[0], 0, OE_GROUP, OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            remote, size, 0);
    for (int s = 1; s <= 2; s++) {
        oe_set_macs(&h.d[s], OE_MAC(s), OE_GROUP);
        /*
         * the two slaves share guest RAM here: different windows would
         * collide, so both accept the same range; slave 2 gets a window
         * too small for the block and must refuse silently
         */
        oe_peer(&h.d[s], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
                OE_RAM_BUF(3), 0, s == 1 ? WINDOW : 16, 0);
    }
    qtest_memset(h.qts, OE_RAM_BUF(3), 0, size + 8);
    oe_peer_start(&h.d[0], 0);
    expect_block(oe_peer_wait(&h.d[0], 0), 0);
    /*
     * a group write completes when its frames have left: the slaves may
     * still be writing
     */
    g_assert_cmpint(oe_ram_wait(h.qts, remote, size, 77, 5000), ==, -1);
    g_assert_cmpuint(dma_code(oe_rd(&h.d[1], OE_PEER_DMA(0))), ==, 0);
    g_assert_cmpuint(dma_code(oe_rd(&h.d[2], OE_PEER_DMA(0))), ==,
                     OE_ERR_LOCAL_INVALID);

    /* a group read is rejected locally */
    oe_peer(&h.d[0], 1, OE_GROUP, OE_MODE_MIRROR_REMOTE_TO_LOCAL, OE_RAM_BUF(0),
            remote, 64, 0);
    oe_peer_start(&h.d[0], 1);
    expect_block(oe_peer_wait(&h.d[0], 1), OE_ERR_LOCAL_INVALID);

    hub_stop(&h);
    frames = oe_pcap_frames(pcap);
    g_assert_nonnull(frames);
    /*
     * 13 fragments of 4000 (50001 = 12 * 4000 + 2001), each seen once on
     * the master's port, and no response of any kind
     */
    g_assert_cmpuint(count_cmd(frames, OETP_DMA_WRITE_REQ), ==, 13);
    g_assert_cmpuint(count_cmd(frames, OETP_DMA_WRITE_RSP), ==, 0);
    g_assert_cmpuint(count_cmd(frames, OETP_ERROR_RSP), ==, 0);
    g_assert_cmpuint(count_cmd(frames, OETP_DMA_READ_REQ), ==, 0);
}

/*
 * RMEM window: A's entry 1 maps window bytes 0x100..0x13F onto B's memory at
 * rbase; B's entry for A is mode 1 over [OE_RAM_BUF(1), +4 KiB).
 */
#define RMEM_SLICE   0x100u
#define RMEM_SIZE    0x40u

static void rmem_setup(Hub *h, uint32_t rbase)
{
    oe_peer(&h->d[0], 1, OE_MAC(1), OE_MODE_RMEM, 0, rbase, RMEM_SIZE,
            RMEM_SLICE);
    oe_peer(&h->d[1], 0, OE_MAC(0), OE_MODE_RMEM, OE_RAM_BUF(1), 0, 0x1000, 0);
}

static void test_rmem(void)
{
    const uint32_t rbase = OE_RAM_BUF(1) + 0x40;
    QTestState *qts;
    OeDev *a;
    Hub h;

    hub_start(&h, 2, "", false);
    qts = h.qts;
    a = &h.d[0];
    rmem_setup(&h, rbase);
    for (uint32_t k = 0; k < RMEM_SIZE; k += 4) {
        qtest_writel(qts, rbase + k, 0xA0000000u + k);
    }

    /* reads translate window offset -> remote address */
    g_assert_cmphex(oe_rd(a, OE_RMEM + RMEM_SLICE), ==, 0xA0000000u);
    g_assert_cmphex(oe_rd(a, OE_RMEM + RMEM_SLICE + 8), ==, 0xA0000008u);
    g_assert_cmphex(oe_rd(a, OE_RMEM + RMEM_SLICE + 0x3C), ==, 0xA000003Cu);
    g_assert_cmphex(qpci_io_readb(a->pci, a->bar0, OE_RMEM + RMEM_SLICE + 9),
                    ==, 0x00);
    g_assert_cmphex(qpci_io_readw(a->pci, a->bar0, OE_RMEM + RMEM_SLICE + 14),
                    ==, 0xA000);

    /* writes: full word, then byte and halfword strobes as BitEnable */
    oe_wr(a, OE_RMEM + RMEM_SLICE + 4, 0x11223344);
    g_assert_cmphex(qtest_readl(qts, rbase + 4), ==, 0x11223344);
    qpci_io_writeb(a->pci, a->bar0, OE_RMEM + RMEM_SLICE + 0x11, 0xEE);
    g_assert_cmphex(qtest_readl(qts, rbase + 0x10), ==, 0xA000EE10u);
    qpci_io_writew(a->pci, a->bar0, OE_RMEM + RMEM_SLICE + 0x16, 0xBEEF);
    g_assert_cmphex(qtest_readl(qts, rbase + 0x14), ==, 0xBEEF0014u);
    /* an 8-byte store is two word writes */
    qpci_io_writeq(a->pci, a->bar0, OE_RMEM + RMEM_SLICE + 0x20,
                   0x0123456789abcdefull);
    g_assert_cmphex(qtest_readl(qts, rbase + 0x20), ==, 0x89abcdef);
    g_assert_cmphex(qtest_readl(qts, rbase + 0x24), ==, 0x01234567);
    g_assert_cmpuint(dma_code(oe_rd(a, OE_PEER_DMA(1))), ==, 0);

    /* a miss reads all ones and records nothing */
    g_assert_cmphex(oe_rd(a, OE_RMEM), ==, 0xffffffff);
    g_assert_cmpuint(dma_code(oe_rd(a, OE_PEER_DMA(1))), ==, 0);

    /* displacement + 4 beyond a size that is not a word multiple: error 1 */
    oe_wr(a, OE_PEER_SIZE(1), RMEM_SIZE + 2);
    g_assert_cmphex(oe_rd(a, OE_RMEM + RMEM_SLICE + RMEM_SIZE), ==,
                    0xffffffff);
    g_assert_cmpuint(dma_code(oe_rd(a, OE_PEER_DMA(1))), ==,
                     OE_ERR_LOCAL_INVALID);
    oe_wr(a, OE_PEER_DMA(1), OE_MODE_RMEM | OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_wr(a, OE_PEER_SIZE(1), RMEM_SIZE);
    hub_stop(&h);
}

/*
 * RMEM failures at the remote end: ERROR_RSP -> all ones, 8 + cause, and
 * an RMEM_ERROR claim when enabled.
 */
static void test_rmem_errors(void)
{
    OeDev *a, *b;
    uint32_t claim;
    Hub h;

    hub_start(&h, 2, "", false);
    a = &h.d[0];
    b = &h.d[1];
    oe_wr(a, OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK);
    oe_wr(a, OE_IRQ_EVENT_ENABLE, OE_IRQ_EVENT_ENABLE_RMEM_ERROR_MASK);

    /* the remote address lies outside B's window for A: cause 1 -> 9 */
    rmem_setup(&h, OE_RAM_BUF(1) + 0x2000);
    g_assert_cmphex(oe_rd(a, OE_RMEM + RMEM_SLICE), ==, 0xffffffff);
    g_assert_cmpuint(dma_code(oe_rd(a, OE_PEER_DMA(1))), ==,
                     OE_ERR_REMOTE_INVALID);
    claim = oe_claim(a);
    g_assert_cmphex(claim & OE_IRQ_CLAIM_VALID_MASK, ==,
                    OE_IRQ_CLAIM_VALID_MASK);
    g_assert_cmpuint((claim & OE_IRQ_CLAIM_SOURCE_MASK) >>
                     OE_IRQ_CLAIM_SOURCE_SHIFT, ==, OE_SRC_RMEM_ERROR);
    g_assert_cmpuint(claim & OE_IRQ_CLAIM_PEER_IDX_MASK, ==, 1);
    oe_complete(a, claim);
    oe_wr(a, OE_PEER_DMA(1), OE_MODE_RMEM | OE_PEER_DMA_CLEAR_ERROR_MASK);

    /* B's entry is mode 2, not RMEM: refused */
    rmem_setup(&h, OE_RAM_BUF(1));
    oe_wr(b, OE_PEER_DMA(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL);
    oe_wr(a, OE_RMEM + RMEM_SLICE, 1);
    g_assert_cmpuint(dma_code(oe_rd(a, OE_PEER_DMA(1))), ==,
                     OE_ERR_REMOTE_INVALID);
    oe_wr(a, OE_PEER_DMA(1), OE_MODE_RMEM | OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_complete(a, oe_claim(a));

    /* B's window on unassigned memory: the bus error is cause 4 / 6 */
    oe_peer(b, 0, OE_MAC(0), OE_MODE_RMEM, 0xD0000000u, 0, 0x1000, 0);
    oe_peer(a, 1, OE_MAC(1), OE_MODE_RMEM, 0, 0xD0000000u, RMEM_SIZE,
            RMEM_SLICE);
    g_assert_cmphex(oe_rd(a, OE_RMEM + RMEM_SLICE), ==, 0xffffffff);
    g_assert_cmpuint(dma_code(oe_rd(a, OE_PEER_DMA(1))), ==,
                     OE_ERR_REMOTE_RD_SLVERR);
    oe_wr(a, OE_PEER_DMA(1), OE_MODE_RMEM | OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_complete(a, oe_claim(a));
    oe_wr(a, OE_RMEM + RMEM_SLICE, 1);
    g_assert_cmpuint(dma_code(oe_rd(a, OE_PEER_DMA(1))), ==,
                     OE_ERR_REMOTE_WR_SLVERR);
    oe_complete(a, oe_claim(a));
    hub_stop(&h);
}

/*
 * Timeouts under clock steps: a block to a MAC nobody has fails with code 8
 * exactly one cycle after the deadline, not before.
 */
static void test_dma_timeout_clock_step(void)
{
    const uint32_t timeout = 1000;      /* cycles = 8 us */
    Hub h;

    hub_start(&h, 2, "", false);
    oe_wr(&h.d[0], OE_CONFIG_DMA_TIMEOUT, timeout);
    oe_peer(&h.d[0], 0, OE_MAC(9), OE_MODE_MIRROR_LOCAL_TO_REMOTE,
            OE_RAM_BUF(0), OE_RAM_BUF(1), 64, 0);
    oe_peer_start(&h.d[0], 0);
    qtest_clock_step(h.qts, timeout * OE_NS_PER_CYCLE);     /* at deadline */
    g_assert_cmphex(oe_rd(&h.d[0], OE_PEER_DMA(0)) & OE_PEER_DMA_IDLE_MASK,
                    ==, 0);
    qtest_clock_step(h.qts, OE_NS_PER_CYCLE);               /* one past */
    expect_block(oe_rd(&h.d[0], OE_PEER_DMA(0)), OE_ERR_TIMEOUT);

    /* timeout 0 waits forever */
    oe_wr(&h.d[0], OE_CONFIG_DMA_TIMEOUT, 0);
    oe_wr(&h.d[0], OE_PEER_DMA(0), OE_MODE_MIRROR_LOCAL_TO_REMOTE |
          OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_peer_start(&h.d[0], 0);
    qtest_clock_step(h.qts, 10 * NANOSECONDS_PER_SECOND);
    g_assert_cmphex(oe_rd(&h.d[0], OE_PEER_DMA(0)) & OE_PEER_DMA_IDLE_MASK,
                    ==, 0);
    hub_stop(&h);
}

/*
 * An RMEM read to a silent peer under qtest: the access blocks the qtest
 * command, and the device lets virtual time follow the host clock meanwhile,
 * so the timeout expires and the read returns all ones with code 8.
 */
static void test_rmem_timeout_blocked_qtest(void)
{
    const uint32_t timeout = 1250000;   /* cycles = 10 ms */
    int64_t t0, t1;
    gint64 h0;
    Hub h;

    hub_start(&h, 1, "", false);
    oe_wr(&h.d[0], OE_CONFIG_RMEM_TIMEOUT, timeout);
    oe_peer(&h.d[0], 0, OE_MAC(9), OE_MODE_RMEM, 0, OE_RAM_BUF(1), 0x40, 0);
    t0 = qtest_clock_step(h.qts, 1);
    h0 = g_get_monotonic_time();
    g_assert_cmphex(oe_rd(&h.d[0], OE_RMEM), ==, 0xffffffff);
    g_assert_cmpint(g_get_monotonic_time() - h0, >=, 10000);
    t1 = qtest_clock_step(h.qts, 1);
    g_assert_cmpint(t1 - t0, >=, (int64_t)timeout * OE_NS_PER_CYCLE);
    g_assert_cmpuint(dma_code(oe_rd(&h.d[0], OE_PEER_DMA(0))), ==,
                     OE_ERR_TIMEOUT);
    hub_stop(&h);
}

/* A non-oETP frame: raw TX on A, raw RX on B; then the direct stream. */
static void test_raw_and_direct(void)
{
    const uint32_t len = 77;
    uint8_t frame[128], got[128];
    OeDev *a, *b;
    uint32_t st, i;
    Hub h;

    hub_start(&h, 2, "", false);
    a = &h.d[0];
    b = &h.d[1];
    oe_fill(frame, sizeof(frame), 5);
    oetp_put_mac(frame, OE_MAC(1));
    oetp_put_mac(frame + 6, OE_MAC(0));
    frame[12] = 0x08;
    frame[13] = 0x00;
    qtest_memwrite(h.qts, OE_RAM_BUF(0) + 1, frame, len);

    /* raw DMA: B armed, A sends from an unaligned buffer */
    oe_wr(b, OE_RAW_RX_BUFFER_ADDRESS, OE_RAM_BUF(1) + 2);
    oe_wr(b, OE_RAW_RX_BUFFER_CAPACITY, 2048);
    oe_wr(b, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    g_assert_cmphex(oe_rd(b, OE_RAW_RX_COMMAND_STATUS) &
                    OE_RAW_RX_COMMAND_STATUS_ARMED_MASK, !=, 0);
    oe_wr(a, OE_RAW_TX_BUFFER_ADDRESS, OE_RAM_BUF(0) + 1);
    oe_wr(a, OE_RAW_TX_FRAME_LENGTH, len);
    oe_wr(a, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    st = oe_poll(a, OE_RAW_TX_COMMAND_STATUS,
                 OE_RAW_TX_COMMAND_STATUS_IDLE_MASK,
                 OE_RAW_TX_COMMAND_STATUS_IDLE_MASK, 2000);
    g_assert_cmphex(st & (OE_RAW_TX_COMMAND_STATUS_DONE_MASK |
                          OE_RAW_TX_COMMAND_STATUS_ERROR_MASK), ==,
                    OE_RAW_TX_COMMAND_STATUS_DONE_MASK);
    g_assert_cmpuint(oe_rd(a, OE_RAW_TX_TRANSFERRED_LENGTH), ==, len);
    st = oe_poll(b, OE_RAW_RX_COMMAND_STATUS,
                 OE_RAW_RX_COMMAND_STATUS_DONE_MASK,
                 OE_RAW_RX_COMMAND_STATUS_DONE_MASK, 2000);
    g_assert_cmphex(st & OE_RAW_RX_COMMAND_STATUS_ERROR_MASK, ==, 0);
    g_assert_cmpuint(oe_rd(b, OE_RAW_RX_RECEIVED_LENGTH), ==, len);
    qtest_memread(h.qts, OE_RAM_BUF(1) + 2, got, len);
    g_assert_cmpmem(got, len, frame, len);

    /* too small a capacity: error 3 */
    oe_wr(b, OE_RAW_RX_BUFFER_CAPACITY, 32);
    oe_wr(b, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    oe_wr(a, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    st = oe_poll(b, OE_RAW_RX_COMMAND_STATUS,
                 OE_RAW_RX_COMMAND_STATUS_ERROR_MASK,
                 OE_RAW_RX_COMMAND_STATUS_ERROR_MASK, 2000);
    g_assert_cmpuint((st & OE_RAW_RX_COMMAND_STATUS_ERROR_CODE_MASK) >>
                     OE_RAW_RX_COMMAND_STATUS_ERROR_CODE_SHIFT, ==, 3);

    /*
     * direct stream: A pushes the frame beat by beat, B (not armed) reads
     * it from its sink
     */
    for (i = 0; i < len; i += 4) {
        uint32_t n = MIN(4, len - i), beat = 0;
        bool last = i + 4 >= len;

        memcpy(&beat, frame + i, n);
        oe_poll(a, OE_DIRECT_SOURCE_CONTROL,
                OE_DIRECT_SOURCE_CONTROL_TVALID_MASK, 0, 1000);
        oe_wr(a, OE_DIRECT_SOURCE_DATA, le32_to_cpu(beat));
        oe_wr(a, OE_DIRECT_SOURCE_CONTROL,
              ((1u << n) - 1) << OE_DIRECT_SOURCE_CONTROL_TKEEP_SHIFT |
              (last ? OE_DIRECT_SOURCE_CONTROL_TLAST_MASK : 0) |
              OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
    }
    memset(got, 0, sizeof(got));
    for (i = 0;; i += 4) {
        uint32_t s = oe_poll(b, OE_DIRECT_SINK_STATUS,
                             OE_DIRECT_SINK_STATUS_TVALID_MASK,
                             OE_DIRECT_SINK_STATUS_TVALID_MASK, 2000);
        uint32_t beat = cpu_to_le32(oe_rd(b, OE_DIRECT_SINK_DATA));

        g_assert_cmphex(s & OE_DIRECT_SINK_STATUS_TVALID_MASK, !=, 0);
        g_assert_cmpuint(i, <, sizeof(got));
        memcpy(got + i, &beat, 4);
        oe_wr(b, OE_DIRECT_SINK_CONTROL, OE_DIRECT_SINK_CONTROL_TREADY_MASK);
        if (s & OE_DIRECT_SINK_STATUS_TLAST_MASK) {
            g_assert_cmphex((s & OE_DIRECT_SINK_STATUS_TKEEP_MASK) >>
                            OE_DIRECT_SINK_STATUS_TKEEP_SHIFT, ==,
                            (1u << (len - i)) - 1);
            break;
        }
    }
    g_assert_cmpmem(got, len, frame, len);
    hub_stop(&h);
}

/* Start a one-fragment block on A's peer n (to B) with its IRQ enabled. */
static void irq_block(Hub *h, unsigned n)
{
    oe_peer(&h->d[0], n, OE_MAC(1),
            OE_MODE_MIRROR_LOCAL_TO_REMOTE | OE_PEER_DMA_IRQ_ENABLE_MASK,
            OE_RAM_BUF(0), OE_RAM_BUF(1) + 64 * n, 64, 0);
    oe_peer_start(&h->d[0], n);
    expect_block(oe_peer_wait(&h->d[0], n), 0);
}

static void irq_setup(Hub *h)
{
    hub_start(h, 2, "", false);
    oe_peer(&h->d[1], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
            OE_RAM_BUF(1), 0, WINDOW, 0);
    oe_wr(&h->d[0], OE_IRQ_EVENT_ENABLE,
          OE_IRQ_EVENT_ENABLE_PEER_DMA_COMPLETE_MASK);
    oe_wr(&h->d[0], OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK);
}

static void check_claim(uint32_t claim, unsigned peer, unsigned seq)
{
    g_assert_cmphex(claim & OE_IRQ_CLAIM_VALID_MASK, ==,
                    OE_IRQ_CLAIM_VALID_MASK);
    g_assert_cmpuint((claim & OE_IRQ_CLAIM_SOURCE_MASK) >>
                     OE_IRQ_CLAIM_SOURCE_SHIFT, ==, OE_SRC_PEER_DMA);
    g_assert_cmpuint(claim & OE_IRQ_CLAIM_PEER_IDX_MASK, ==, peer);
    g_assert_cmpuint((claim & OE_IRQ_CLAIM_SEQUENCE_MASK) >>
                     OE_IRQ_CLAIM_SEQUENCE_SHIFT, ==, seq);
}

/*
 * A message per rising edge and one more per completion that leaves the
 * FIFO non-empty. msg_addr is where the message lands in guest RAM.
 */
static void irq_messages(Hub *h, uint64_t msg_addr, uint32_t data)
{
    QTestState *qts = h->qts;
    OeDev *a = &h->d[0];
    uint32_t c0, c1;

    qtest_writel(qts, msg_addr, 0);
    irq_block(h, 0);
    g_assert_cmphex(qtest_readl(qts, msg_addr), ==, data);
    qtest_writel(qts, msg_addr, 0);
    irq_block(h, 1);            /* FIFO 1 -> 2: no edge, no message */
    g_assert_cmphex(qtest_readl(qts, msg_addr), ==, 0);
    g_assert_false(oe_intx(a));
    c0 = oe_claim(a);
    check_claim(c0, 0, 0);
    oe_complete(a, c0);         /* pops, one left: one more message */
    g_assert_cmphex(qtest_readl(qts, msg_addr), ==, data);
    qtest_writel(qts, msg_addr, 0);
    c1 = oe_claim(a);
    check_claim(c1, 1, 1);
    oe_complete(a, c1);         /* empty: falling edge, no message */
    g_assert_cmphex(qtest_readl(qts, msg_addr), ==, 0);
    g_assert_cmphex(oe_claim(a), ==, 0);
}

static void test_irq_msix(void)
{
    const uint64_t addr = OE_RAM_BUF(5);
    uint32_t data;
    Hub h;

    irq_setup(&h);
    data = oe_msix_to_ram(&h.d[0], addr);
    irq_messages(&h, addr, data);
    hub_stop(&h);
}

static void test_irq_msi(void)
{
    const uint64_t addr = OE_RAM_BUF(5);
    Hub h;

    irq_setup(&h);
    oe_msi_to_ram(&h.d[0], addr, 0x4242);
    irq_messages(&h, addr, 0x4242);
    hub_stop(&h);
}

static void test_irq_intx(void)
{
    OeDev *a;
    uint32_t c;
    Hub h;

    irq_setup(&h);
    a = &h.d[0];
    g_assert_false(oe_intx(a));
    irq_block(&h, 0);
    g_assert_true(oe_intx(a));
    /* the level is global_enable AND FIFO non-empty */
    oe_wr(a, OE_IRQ_CONTROL, 0);
    g_assert_false(oe_intx(a));
    oe_wr(a, OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK);
    g_assert_true(oe_intx(a));
    /* a completion that does not match the head leaves the FIFO */
    c = oe_claim(a);
    oe_wr(a, OE_IRQ_COMPLETE, c ^ (1u << OE_IRQ_COMPLETE_SEQUENCE_SHIFT));
    g_assert_true(oe_intx(a));
    g_assert_cmphex(oe_rd(a, OE_IRQ_STATUS) &
                    OE_IRQ_STATUS_INVALID_COMPLETE_MASK, !=, 0);
    oe_complete(a, c);
    g_assert_false(oe_intx(a));
    /* switching to MSI-X silences INTx even with a claim pending */
    irq_block(&h, 1);
    g_assert_true(oe_intx(a));
    oe_msix_to_ram(a, OE_RAM_BUF(5));
    g_assert_false(oe_intx(a));
    qpci_msix_disable(a->pci);
    g_assert_true(oe_intx(a));
    hub_stop(&h);
}

/*
 * A lossy link (-object filter-fault on the receiver's port): a receiver
 * that loses half the frames of a group write keeps some fragments but not
 * all; one that loses everything never answers, so a unicast block times
 * out.
 */
static void test_lossy_link(void)
{
    const uint32_t size = 100 * 1024, mfs = 1024;
    g_autofree uint8_t *src = g_malloc(size);
    uint32_t hits = 0;
    Hub h;

    hub_start_with(&h, 3, "", false,
                   "-object filter-fault,id=loss,netdev=p1,drop=500,seed=7");
    oe_wr(&h.d[0], OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, mfs);
    oe_set_macs(&h.d[1], OE_MAC(1), OE_GROUP);
    oe_peer(&h.d[1], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
            OE_RAM_BUF(1), 0, WINDOW, 0);
    oe_ram_fill(h.qts, OE_RAM_BUF(0), size, 3);
    qtest_memset(h.qts, OE_RAM_BUF(1), 0, size);
    oe_peer(&h.d[0], 0, OE_GROUP, OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            OE_RAM_BUF(1), size, 0);
    oe_peer_start(&h.d[0], 0);
    expect_block(oe_peer_wait(&h.d[0], 0), 0);
    g_usleep(100000);
    oe_fill(src, size, 3);
    for (uint32_t off = 0; off < size; off += mfs) {
        uint8_t got[16];

        qtest_memread(h.qts, OE_RAM_BUF(1) + off, got, sizeof(got));
        hits += memcmp(got, src + off, sizeof(got)) == 0;
    }
    g_test_message("%u of %u fragments arrived at 50%% loss", hits,
                   size / mfs);
    g_assert_cmpuint(hits, >, 20);
    g_assert_cmpuint(hits, <, 80);

    /* all lost: the unicast block times out */
    hub_stop(&h);
    hub_start_with(&h, 2, "", false,
                   "-object filter-fault,id=loss,netdev=p1,drop=1000");
    oe_wr(&h.d[0], OE_CONFIG_DMA_TIMEOUT, 1000);
    oe_peer(&h.d[0], 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE,
            OE_RAM_BUF(0), OE_RAM_BUF(1), 64, 0);
    oe_peer(&h.d[1], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL,
            OE_RAM_BUF(1), 0, WINDOW, 0);
    oe_peer_start(&h.d[0], 0);
    qtest_clock_step(h.qts, 2000 * OE_NS_PER_CYCLE);
    expect_block(oe_rd(&h.d[0], OE_PEER_DMA(0)), OE_ERR_TIMEOUT);
    hub_stop(&h);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/hub/dma-push-unaligned-mfs", test_dma_push);
    qtest_add_func("/openenoc/hub/dma-pull-unaligned-mfs", test_dma_pull);
    qtest_add_func("/openenoc/hub/dma-invalid-block", test_dma_invalid);
    qtest_add_func("/openenoc/hub/register-reads-during-block",
                   test_reads_during_block);
    qtest_add_func("/openenoc/hub/dma-error-rsp", test_dma_error_rsp);
    qtest_add_func("/openenoc/hub/multicast-1-to-2-no-responses",
                   test_multicast);
    qtest_add_func("/openenoc/hub/rmem-window", test_rmem);
    qtest_add_func("/openenoc/hub/rmem-errors", test_rmem_errors);
    qtest_add_func("/openenoc/hub/dma-timeout-clock-step",
                   test_dma_timeout_clock_step);
    qtest_add_func("/openenoc/hub/rmem-timeout-while-blocked",
                   test_rmem_timeout_blocked_qtest);
    qtest_add_func("/openenoc/hub/raw-dma-and-direct-stream",
                   test_raw_and_direct);
    qtest_add_func("/openenoc/hub/irq-msix", test_irq_msix);
    qtest_add_func("/openenoc/hub/irq-msi", test_irq_msi);
    qtest_add_func("/openenoc/hub/irq-intx", test_irq_intx);
    qtest_add_func("/openenoc/hub/lossy-link", test_lossy_link);
    return g_test_run();
}
