/*
 * openenoc qtest: guest mistakes and hostility. Random accesses all over
 * BAR0 of two devices that talk to each other, DMA aimed outside RAM, at the
 * device itself and at its neighbour, with bus mastering toggled; then a
 * malicious peer sending garbage and crafted oETP frames. QEMU must stay up
 * and the spec's error codes must appear. Every loop is bounded.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include <sys/socket.h>
#include "openenoc-qtest.h"

#define UNASSIGNED 0xD0000000u

static uint32_t raw_tx(OeDev *d, uint32_t addr, uint32_t len)
{
    oe_wr(d, OE_RAW_TX_COMMAND_STATUS,
          OE_RAW_TX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    oe_wr(d, OE_RAW_TX_BUFFER_ADDRESS, addr);
    oe_wr(d, OE_RAW_TX_FRAME_LENGTH, len);
    oe_wr(d, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    return oe_poll(d, OE_RAW_TX_COMMAND_STATUS,
                   OE_RAW_TX_COMMAND_STATUS_IDLE_MASK |
                   OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK,
                   OE_RAW_TX_COMMAND_STATUS_IDLE_MASK, 2000);
}

static unsigned raw_code(uint32_t st)
{
    return st >> OE_RAW_TX_COMMAND_STATUS_ERROR_CODE_SHIFT;
}

static void set_master(OeDev *d, bool on)
{
    qpci_config_writew(d->pci, PCI_COMMAND, PCI_COMMAND_MEMORY |
                       (on ? PCI_COMMAND_MASTER : 0));
}

/* DMA sources that must fail with the documented codes. */
static void directed_dma(OeDev *a, OeDev *b)
{
    /* unassigned address: DECERR, read code 5 */
    g_assert_cmpuint(raw_code(raw_tx(a, UNASSIGNED, 64)), ==, 5);
    /* the device's own BAR0: the re-entrancy guard refuses, SLVERR 4 */
    g_assert_cmpuint(raw_code(raw_tx(a, a->bar0.addr, 64)), ==, 4);
    /*
     * the neighbour's registers and RMEM window: readable or refused, never
     * a hang (the window must not block inside another engine's call)
     */
    raw_tx(a, b->bar0.addr + OE_RMEM, 64);
    raw_tx(a, b->bar0.addr + OE_IRQ_CLAIM - 8, 64);
    /* bus mastering off: every access DECERR */
    set_master(a, false);
    g_assert_cmpuint(raw_code(raw_tx(a, OE_RAM_BUF(0), 64)), ==, 5);
    set_master(a, true);
    g_assert_cmpuint(raw_code(raw_tx(a, OE_RAM_BUF(0), 64)), ==, 0);
    /* a frame that would wrap past 4 GiB or is oversized: invalid */
    g_assert_cmpuint(raw_code(raw_tx(a, 0xFFFFFFF0u, 64)), !=, 0);
    g_assert_cmpuint(raw_code(raw_tx(a, OE_RAM_BUF(0), 8193)), ==, 1);

    /* raw RX into the device's own BAR0: write SLVERR 6 */
    oe_wr(b, OE_RAW_RX_COMMAND_STATUS,
          OE_RAW_RX_COMMAND_STATUS_CLEAR_ERRORS_MASK);
    oe_wr(b, OE_CONFIG_NON_OETP_CONTROL, 3);
    oe_wr(b, OE_RAW_RX_BUFFER_ADDRESS, b->bar0.addr);
    oe_wr(b, OE_RAW_RX_BUFFER_CAPACITY, 4096);
    oe_wr(b, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    qtest_memset(a->qts, OE_RAM_BUF(0), 0xFF, 64);   /* broadcast frame */
    raw_tx(a, OE_RAM_BUF(0), 64);
    g_assert_cmpuint(oe_poll(b, OE_RAW_RX_COMMAND_STATUS,
                             OE_RAW_RX_COMMAND_STATUS_ERROR_MASK,
                             OE_RAW_RX_COMMAND_STATUS_ERROR_MASK, 2000) >>
                     OE_RAW_RX_COMMAND_STATUS_ERROR_CODE_SHIFT, ==, 6);
}

/* Interesting DMA targets for random register values. */
static uint32_t hostile_addr(GRand *r, OeDev *a, OeDev *b)
{
    switch (g_rand_int_range(r, 0, 7)) {
    case 0:
        return UNASSIGNED + g_rand_int_range(r, 0, 0x10000);
    case 1:
        return a->bar0.addr + g_rand_int_range(r, 0, 0x2000);
    case 2:
        return b->bar0.addr + g_rand_int_range(r, 0, 0x2000);
    case 3:
        return 0xFEC00000u;                     /* IOAPIC */
    case 4:
        return 0xFFFFFFFFu - g_rand_int_range(r, 0, 64);
    default:
        return OE_RAM_BUF(0) + g_rand_int_range(r, 0, 0x100000);
    }
}

static void test_random_bar0(void)
{
    g_autofree char *hub = oe_hub_args(2, "");
    QTestState *qts = oe_start("%s", hub);
    QPCIBus *bus = oe_bus(qts);
    GRand *r = g_rand_new_with_seed(0x0e0c);
    OeDev d[2];

    for (int i = 0; i < 2; i++) {
        oe_open(&d[i], qts, bus, 4 + i);
    }
    directed_dma(&d[0], &d[1]);
    for (int i = 0; i < 4000; i++) {
        OeDev *x = &d[g_rand_int_range(r, 0, 2)];
        unsigned size = 1u << g_rand_int_range(r, 0, 3);
        uint32_t off = g_rand_int_range(r, 0, 0x2000) & ~(size - 1);
        uint32_t val = g_rand_int(r);

        if (off >= OE_RMEM && off < OE_RMEM + OE_RMEM_SIZE) {
            /* a window access may wait for the peer: bound the wait */
            oe_wr(x, OE_CONFIG_RMEM_TIMEOUT, 1000);
        } else if ((off & ~3u) == OE_CONFIG_RMEM_TIMEOUT) {
            continue;
        }
        if (g_rand_boolean(r) && g_rand_int_range(r, 0, 4) == 0) {
            val = hostile_addr(r, &d[0], &d[1]);
            size = 4;
            off &= ~3u;
        }
        if (g_rand_int_range(r, 0, 50) == 0) {
            set_master(x, g_rand_boolean(r));
        }
        if (g_rand_boolean(r)) {
            switch (size) {
            case 1:
                qpci_io_writeb(x->pci, x->bar0, off, val);
                break;
            case 2:
                qpci_io_writew(x->pci, x->bar0, off, val);
                break;
            default:
                qpci_io_writel(x->pci, x->bar0, off, val);
            }
        } else {
            qpci_io_readl(x->pci, x->bar0, off & ~3u);
        }
        if (i % 500 == 0) {
            qtest_clock_step(qts, 100000);      /* let timeouts fire */
        }
    }
    /* still alive and still an openenoc endpoint */
    for (int i = 0; i < 2; i++) {
        set_master(&d[i], true);
        g_assert_cmphex(oe_rd(&d[i], ENOC_MODEL_MAGIC_OFF), ==,
                        ENOC_MODEL_MAGIC);
        g_free(d[i].pci);
    }
    qtest_qmp_assert_success(qts, "{'execute': 'query-status'}");
    g_rand_free(r);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

/*
 * Send one length-framed packet; fail rather than hang if QEMU stops
 * reading for 5 s.
 */
static void send_frame(int fd, const uint8_t *buf, size_t len)
{
    uint32_t be = cpu_to_be32(len);
    struct timeval tv = { .tv_sec = 5 };

    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    g_assert_cmpint(send(fd, &be, 4, 0), ==, 4);
    g_assert_cmpint(send(fd, buf, len, 0), ==, len);
}

/*
 * A malicious peer: random bytes, truncated and oversized frames, and
 * well-formed oETP requests aimed anywhere in the 4 GiB space through a
 * window that admits everything.
 */
static void test_malicious_peer(void)
{
    const uint64_t evil = 0x020E0C0000EEull;
    static uint8_t buf[65536];  /* the socket netdev refuses more */
    g_autofree char *pcap = oe_pcap_path();
    GRand *r = g_rand_new_with_seed(0xbad);
    QTestState *qts;
    QPCIBus *bus;
    int sv[2];
    OeDev d;

    g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    qts = oe_start("-netdev socket,fd=%d,id=n0 "
                   "-device openenoc,netdev=n0,addr=0x4 "
                   "-object filter-dump,id=cap,netdev=n0,file=%s", sv[1], pcap);
    close(sv[1]);
    bus = oe_bus(qts);
    oe_open(&d, qts, bus, 4);
    oe_set_macs(&d, OE_MAC(0), OE_GROUP);
    /*
     * non-oETP frames are dropped: an unread direct sink would (rightly)
     * backpressure the link and stall this test's sender
     */
    oe_wr(&d, OE_CONFIG_NON_OETP_CONTROL, 0);
    oe_peer(&d, 0, evil, OE_MODE_RMEM, 0, 0, 0xFFFFFFFFu, 0);
    oe_peer(&d, 1, evil | 0x100, OE_MODE_MIRROR_REMOTE_TO_LOCAL, 0, 0,
            0xFFFFFFFFu, 0);
    for (int i = 0; i < 3000; i++) {
        size_t len = g_rand_int_range(r, 0, 100) < 3 ?
                     g_rand_int_range(r, 8193, sizeof(buf)) :
                     g_rand_int_range(r, 0, 9000);
        static const uint8_t cmds[] = { 0x10, 0x11, 0x20, 0x21, 0x30, 0x31,
                                        0x40, 0x41, 0xFF, 0x00, 0x7E };

        for (size_t k = 0; k < len; k++) {
            buf[k] = g_rand_int(r);
        }
        if (len >= 32 && g_rand_boolean(r)) {
            uint8_t cmd = cmds[g_rand_int_range(r, 0, sizeof(cmds))];
            uint32_t addr = hostile_addr(r, &d, &d);

            oetp_put_header(buf, g_rand_boolean(r) ? OE_MAC(0) : OE_GROUP,
                            g_rand_boolean(r) ? evil : evil | 0x100, cmd);
            oetp_put_le32(buf + 20, addr);
            oetp_put_le32(buf + 24, g_rand_boolean(r) ? len - 32 :
                          g_rand_int(r));
        }
        send_frame(sv[0], buf, len);
        if (i % 100 == 0) {
            /* drain whatever the device answered */
            while (recv(sv[0], buf, sizeof(buf), MSG_DONTWAIT) > 0) {
                continue;
            }
            g_assert_cmphex(oe_rd(&d, ENOC_MODEL_MAGIC_OFF), ==,
                            ENOC_MODEL_MAGIC);
        }
    }
    g_assert_cmphex(oe_rd(&d, ENOC_MODEL_MAGIC_OFF), ==, ENOC_MODEL_MAGIC);
    qtest_qmp_assert_success(qts, "{'execute': 'query-status'}");
    g_free(d.pci);
    g_rand_free(r);
    qpci_free_pc(bus);
    qtest_quit(qts);
    close(sv[0]);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/hostile/random-bar0-and-dma-targets",
                   test_random_bar0);
    qtest_add_func("/openenoc/hostile/malicious-peer", test_malicious_peer);
    return g_test_run();
}
