/*
 * Helpers shared by the openenoc qtests.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "libqos/pci-pc.h"
#include "hw/pci/pci_regs.h"
#include "qemu/bswap.h"
#include <sys/socket.h>
#include <netinet/in.h>
#include "openenoc-qtest.h"

/*
 * OPENENOC_QTEST_RTL_MODEL=<library> runs every openenoc device of a test
 * on that engine library instead of the built-in C engine (make
 * check-qtest-rtl: the Verilator model of the RTL behind the same shell).
 */
bool oe_engine_is_c(void)
{
    const char *so = getenv("OPENENOC_QTEST_RTL_MODEL");

    return !so || !*so;
}

static char *oe_engine_globals(void)
{
    if (oe_engine_is_c()) {
        return g_strdup("");
    }
    return g_strdup_printf("-global openenoc.engine=rtl "
                           "-global openenoc.rtl-model=%s",
                           getenv("OPENENOC_QTEST_RTL_MODEL"));
}

QTestState *oe_start(const char *fmt, ...)
{
    va_list ap;
    g_autofree char *extra = NULL;
    g_autofree char *engine = oe_engine_globals();

    va_start(ap, fmt);
    extra = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    return qtest_initf("-machine pc -m 256M -nodefaults %s %s", engine, extra);
}

void oe_qos_args(GString *cmd_line)
{
    g_autofree char *engine = oe_engine_globals();

    g_string_append_printf(cmd_line, " -m 256M -nodefaults %s", engine);
}

void oe_qos_open(OeDev *d, QOpenenoc *o)
{
    memset(d, 0, sizeof(*d));
    d->qts = o->dev.bus->qts;
    d->pci = &o->dev;
    d->bar0 = o->bar0;
    d->bar0_size = o->bar0_size;
    d->slot = o->dev.devfn >> 3;
}

char *oe_hub_args(int n, const char *extra)
{
    GString *s = g_string_new("");

    for (int i = 0; i < n; i++) {
        g_string_append_printf(s, " -netdev hubport,id=p%d,hubid=0"
                               " -device openenoc,netdev=p%d,addr=0x%x,"
                               "id=oe%d,mac=02:0e:0c:00:00:%02x%s%s",
                               i, i, 4 + i, i, 0x10 + i,
                               *extra ? "," : "", extra);
    }
    return g_string_free(s, false);
}

QPCIBus *oe_bus(QTestState *qts)
{
    return qpci_new_pc(qts, NULL);
}

void oe_open(OeDev *d, QTestState *qts, QPCIBus *bus, int slot)
{
    memset(d, 0, sizeof(*d));
    d->qts = qts;
    d->slot = slot;
    d->pci = qpci_device_find(bus, QPCI_DEVFN(slot, 0));
    g_assert_nonnull(d->pci);
    qpci_device_enable(d->pci);
    d->bar0 = qpci_iomap(d->pci, 0, &d->bar0_size);
}

uint32_t oe_rd(OeDev *d, uint32_t off)
{
    return qpci_io_readl(d->pci, d->bar0, off);
}

void oe_wr(OeDev *d, uint32_t off, uint32_t val)
{
    qpci_io_writel(d->pci, d->bar0, off, val);
}

uint64_t oe_rd64(OeDev *d, uint32_t off)
{
    return oe_rd(d, off) | (uint64_t)oe_rd(d, off + 4) << 32;
}

void oe_wr_mac(OeDev *d, uint32_t off, uint64_t mac)
{
    oe_wr(d, off, (uint32_t)mac);
    oe_wr(d, off + 4, (uint32_t)(mac >> 32));
}

void oe_set_macs(OeDev *d, uint64_t mac, uint64_t group)
{
    oe_wr_mac(d, OE_CONFIG_MAC_ADDRESS, mac);
    oe_wr_mac(d, OE_CONFIG_MULTICAST_ADDRESS, group);
}

void oe_peer(OeDev *d, unsigned n, uint64_t mac, unsigned mode, uint32_t local,
             uint32_t remote, uint32_t size, uint32_t rmem_off)
{
    oe_wr_mac(d, OE_PEER_MAC_ADDRESS(n), mac);
    oe_wr(d, OE_PEER_RMEM_ADDRESS(n), rmem_off);
    oe_wr(d, OE_PEER_LOCAL_ADDRESS(n), local);
    oe_wr(d, OE_PEER_REMOTE_ADDRESS(n), remote);
    oe_wr(d, OE_PEER_SIZE(n), size);
    oe_wr(d, OE_PEER_DMA(n), mode);
}

void oe_peer_start(OeDev *d, unsigned n)
{
    uint32_t v = oe_rd(d, OE_PEER_DMA(n));

    oe_wr(d, OE_PEER_DMA(n), (v & (OE_PEER_DMA_MODE_MASK |
                                   OE_PEER_DMA_IRQ_ENABLE_MASK)) |
          OE_PEER_DMA_REQUEST_MASK);
}

uint32_t oe_poll(OeDev *d, uint32_t reg, uint32_t mask, uint32_t want,
                 int timeout_ms)
{
    gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
    gulong pause = 10;
    uint32_t v;

    for (;;) {
        v = oe_rd(d, reg);
        if ((v & mask) == want || g_get_monotonic_time() > end) {
            return v;
        }
        /* back off so polling does not starve QEMU's main loop */
        g_usleep(pause);
        pause = MIN(pause * 2, 1000);
    }
}

uint32_t oe_peer_wait(OeDev *d, unsigned n)
{
    return oe_poll(d, OE_PEER_DMA(n),
                   OE_PEER_DMA_IDLE_MASK | OE_PEER_DMA_REQUEST_MASK,
                   OE_PEER_DMA_IDLE_MASK, 20000);
}

void oe_fill(uint8_t *buf, size_t len, uint32_t seed)
{
    uint32_t x = seed * 2654435761u + 1;

    for (size_t i = 0; i < len; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        buf[i] = x;
    }
}

/*
 * qtest scans each command line from its start as chunks arrive, so huge
 * buffers go in pieces
 */
#define OE_QTEST_CHUNK (256 * 1024)

void oe_ram_fill(QTestState *qts, uint64_t addr, size_t len, uint32_t seed)
{
    g_autofree uint8_t *buf = g_malloc(len);

    oe_fill(buf, len, seed);
    for (size_t off = 0; off < len; off += OE_QTEST_CHUNK) {
        qtest_bufwrite(qts, addr + off, buf + off,
                       MIN(OE_QTEST_CHUNK, len - off));
    }
}

ssize_t oe_ram_check(QTestState *qts, uint64_t addr, size_t len, uint32_t seed)
{
    g_autofree uint8_t *want = g_malloc(len);
    g_autofree uint8_t *got = g_malloc(len);

    oe_fill(want, len, seed);
    for (size_t off = 0; off < len; off += OE_QTEST_CHUNK) {
        qtest_bufread(qts, addr + off, got + off,
                      MIN(OE_QTEST_CHUNK, len - off));
    }
    for (size_t i = 0; i < len; i++) {
        if (want[i] != got[i]) {
            return i;
        }
    }
    return -1;
}

ssize_t oe_ram_wait(QTestState *qts, uint64_t addr, size_t len, uint32_t seed,
                    int timeout_ms)
{
    gint64 end = g_get_monotonic_time() + (gint64)timeout_ms * 1000;
    ssize_t bad;

    while ((bad = oe_ram_check(qts, addr, len, seed)) >= 0 &&
           g_get_monotonic_time() < end) {
        g_usleep(1000);
    }
    return bad;
}

uint32_t oe_claim(OeDev *d)
{
    return oe_rd(d, OE_IRQ_CLAIM);
}

void oe_complete(OeDev *d, uint32_t claim)
{
    oe_wr(d, OE_IRQ_COMPLETE, claim);
    g_assert_cmphex(oe_poll(d, OE_IRQ_COMPLETE, OE_IRQ_COMPLETE_VALID_MASK, 0,
                            1000) & OE_IRQ_COMPLETE_VALID_MASK, ==, 0);
}

char *oe_tmp_path(const char *name)
{
    static char *dir;

    if (!dir) {
        dir = g_dir_make_tmp("openenoc-qtest-XXXXXX", NULL);
        g_assert_nonnull(dir);
    }
    return g_strdup_printf("%s/%s", dir, name);
}

char *oe_pcap_path(void)
{
    const char *dir = getenv("OPENENOC_PCAP_DIR");
    g_auto(GStrv) part = g_strsplit(g_test_get_path(), "/", -1);
    guint n = g_strv_length(part);
    g_autofree char *name = NULL;

    /* the suite and the case: the same name standalone and under qos-test */
    g_assert_cmpuint(n, >=, 2);
    name = g_strdup_printf("%s-%s.pcap", part[n - 2], part[n - 1]);
    if (!dir || !*dir) {
        return oe_tmp_path(name);
    }
    return g_build_filename(dir, name, NULL);
}

int oe_run_qemu(const char *args, char **out, char **err)
{
    g_autofree char *cmd = g_strdup_printf("%s -machine pc -nodefaults %s",
                                           getenv("QTEST_QEMU_BINARY"), args);
    g_auto(GStrv) argv = NULL;
    int status = -1;

    g_assert_true(g_shell_parse_argv(cmd, NULL, &argv, NULL));
    g_assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                               out, err, &status, NULL));
    return status;
}

uint32_t oe_msix_to_ram(OeDev *d, uint64_t addr)
{
    uint32_t data = 0xC0DE0000u | d->slot;

    qpci_msix_enable(d->pci);
    qpci_io_writel(d->pci, d->pci->msix_table_bar, d->pci->msix_table_off +
                   PCI_MSIX_ENTRY_LOWER_ADDR, (uint32_t)addr);
    qpci_io_writel(d->pci, d->pci->msix_table_bar, d->pci->msix_table_off +
                   PCI_MSIX_ENTRY_UPPER_ADDR, addr >> 32);
    qpci_io_writel(d->pci, d->pci->msix_table_bar, d->pci->msix_table_off +
                   PCI_MSIX_ENTRY_DATA, data);
    qpci_io_writel(d->pci, d->pci->msix_table_bar, d->pci->msix_table_off +
                   PCI_MSIX_ENTRY_VECTOR_CTRL, 0);
    return data;
}

void oe_msi_to_ram(OeDev *d, uint64_t addr, uint16_t data)
{
    uint8_t cap = qpci_find_capability(d->pci, PCI_CAP_ID_MSI, 0);

    g_assert_cmpuint(cap, !=, 0);
    qpci_config_writel(d->pci, cap + PCI_MSI_ADDRESS_LO, (uint32_t)addr);
    qpci_config_writel(d->pci, cap + PCI_MSI_ADDRESS_HI, addr >> 32);
    qpci_config_writew(d->pci, cap + PCI_MSI_DATA_64, data);
    qpci_config_writew(d->pci, cap + PCI_MSI_FLAGS,
                       qpci_config_readw(d->pci, cap + PCI_MSI_FLAGS) |
                       PCI_MSI_FLAGS_ENABLE);
}

bool oe_intx(OeDev *d)
{
    return qpci_config_readw(d->pci, PCI_STATUS) & PCI_STATUS_INTERRUPT;
}

GPtrArray *oe_pcap_frames(const char *path)
{
    g_autofree uint8_t *buf = NULL;
    gsize len, off = 24;
    GPtrArray *frames;

    if (!g_file_get_contents(path, (char **)&buf, &len, NULL) || len < 24 ||
        ldl_le_p(buf) != 0xa1b2c3d4) {
        return NULL;
    }
    frames = g_ptr_array_new_with_free_func((GDestroyNotify)g_byte_array_unref);
    while (off + 16 <= len) {
        uint32_t caplen = ldl_le_p(buf + off + 8);

        off += 16;
        if (caplen > len - off) {
            break;
        }
        g_ptr_array_add(frames, g_byte_array_append(g_byte_array_new(),
                                                    buf + off, caplen));
        off += caplen;
    }
    return frames;
}

/* A UDP socket bound to a free loopback port; *addr gets its address. */
static int oe_udp_socket(struct sockaddr_in *addr)
{
    socklen_t len = sizeof(*addr);
    int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

    memset(addr, 0, sizeof(*addr));
    addr->sin_family = AF_INET;
    addr->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    g_assert_cmpint(fd, >=, 0);
    g_assert_cmpint(bind(fd, (struct sockaddr *)addr, sizeof(*addr)), ==, 0);
    g_assert_cmpint(getsockname(fd, (struct sockaddr *)addr, &len), ==, 0);
    return fd;
}

/*
 * The -netdev of QEMU i: its connected socket, or the documented address
 * form.
 */
static char *oe_pair_netdev(OeLink link, int fd[2], struct sockaddr_in a[2],
                            int i)
{
    if (link == OE_LINK_CONNECTED) {
        return g_strdup_printf("-netdev dgram,id=n0,local.type=fd,"
                               "local.str=%d", fd[i]);
    }
    return g_strdup_printf("-netdev dgram,id=n0,local.type=inet,"
                           "local.host=127.0.0.1,local.port=%d,"
                           "remote.type=inet,remote.host=127.0.0.1,"
                           "remote.port=%d", ntohs(a[i].sin_port),
                           ntohs(a[!i].sin_port));
}

void oe_pair_start(OePair *p, OeLink link, const char *extra0)
{
    struct sockaddr_in a[2];
    int fd[2] = { oe_udp_socket(&a[0]), oe_udp_socket(&a[1]) };

    for (int i = 0; i < 2; i++) {
        if (link == OE_LINK_CONNECTED) {
            g_assert_cmpint(connect(fd[i], (struct sockaddr *)&a[!i],
                                    sizeof(a[!i])), ==, 0);
        } else {
            close(fd[i]);           /* the ports are free for QEMU to bind */
        }
    }
    for (int i = 0; i < 2; i++) {
        g_autofree char *netdev = oe_pair_netdev(link, fd, a, i);

        /*
         * QEMU i alone inherits its socket: they are close-on-exec until
         * its start
         */
        if (link == OE_LINK_CONNECTED) {
            g_assert_cmpint(fcntl(fd[i], F_SETFD, 0), ==, 0);
        }
        p->qts[i] = oe_start("%s -device openenoc,netdev=n0,addr=0x4 %s",
                             netdev, i == 0 ? extra0 : "");
        if (link == OE_LINK_CONNECTED) {
            close(fd[i]);           /* QEMU i holds its own copy now */
        }
        p->bus[i] = oe_bus(p->qts[i]);
        oe_open(&p->d[i], p->qts[i], p->bus[i], 4);
        oe_set_macs(&p->d[i], OE_MAC(i), 0);
    }
}

void oe_pair_stop(OePair *p)
{
    for (int i = 0; i < 2; i++) {
        g_free(p->d[i].pci);
        qpci_free_pc(p->bus[i]);
        qtest_quit(p->qts[i]);
    }
}
