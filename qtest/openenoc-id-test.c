/*
 * openenoc qtest: identity. PCI IDs, class, BARs and capabilities, the model
 * ID block, the info words, every CSR's reset value, access sizes, the
 * properties (help text, invalid values).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "hw/pci/pci_regs.h"
#include "openenoc-qtest.h"
#include "openenoc/regs_table.h"
#include "qobject/qdict.h"

static void test_pci_identity(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4");
    QPCIBus *bus = oe_bus(qts);
    OeDev d;

    oe_open(&d, qts, bus, 4);
    g_assert_cmphex(qpci_config_readw(d.pci, PCI_VENDOR_ID), ==,
                    ENOC_PCI_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(d.pci, PCI_DEVICE_ID), ==,
                    ENOC_PCI_DEVICE_ID);
    g_assert_cmphex(qpci_config_readw(d.pci, PCI_SUBSYSTEM_VENDOR_ID), ==,
                    ENOC_PCI_VENDOR_ID);
    g_assert_cmphex(qpci_config_readw(d.pci, PCI_SUBSYSTEM_ID), ==,
                    ENOC_PCI_DEVICE_ID);
    g_assert_cmphex(qpci_config_readb(d.pci, PCI_REVISION_ID), ==, 1);
    g_assert_cmphex(qpci_config_readw(d.pci, PCI_CLASS_DEVICE), ==, 0x0280);
    g_assert_cmphex(qpci_config_readb(d.pci, PCI_INTERRUPT_PIN), ==, 1);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

static void test_id_override(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4,vendor-id=0x1af4,"
                               "device-id=0x1234");
    QPCIBus *bus = oe_bus(qts);
    QPCIDevice *pci = qpci_device_find(bus, QPCI_DEVFN(4, 0));

    g_assert_cmphex(qpci_config_readw(pci, PCI_VENDOR_ID), ==, 0x1af4);
    g_assert_cmphex(qpci_config_readw(pci, PCI_DEVICE_ID), ==, 0x1234);
    g_free(pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

/* Size and type of a BAR by the classic all-ones probe. */
static uint32_t bar_probe(QPCIDevice *pci, int bar, uint32_t *type)
{
    uint8_t off = PCI_BASE_ADDRESS_0 + 4 * bar;
    uint32_t old = qpci_config_readl(pci, off), v;

    qpci_config_writel(pci, off, 0xffffffff);
    v = qpci_config_readl(pci, off);
    qpci_config_writel(pci, off, old);
    *type = v & 0xf;
    return ~(v & ~0xfu) + 1;
}

static void test_bars_and_caps(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4");
    QPCIBus *bus = oe_bus(qts);
    QPCIDevice *pci = qpci_device_find(bus, QPCI_DEVFN(4, 0));
    uint32_t type;
    uint8_t cap;

    /* BAR0: 8 KiB, 32-bit memory, not prefetchable. */
    g_assert_cmphex(bar_probe(pci, 0, &type), ==, 0x2000);
    g_assert_cmphex(type, ==, PCI_BASE_ADDRESS_SPACE_MEMORY |
                    PCI_BASE_ADDRESS_MEM_TYPE_32);
    /* BAR1: the MSI-X table and PBA, 4 KiB. */
    g_assert_cmphex(bar_probe(pci, 1, &type), ==, 0x1000);
    g_assert_cmphex(type & PCI_BASE_ADDRESS_SPACE, ==,
                    PCI_BASE_ADDRESS_SPACE_MEMORY);
    for (int bar = 2; bar < 6; bar++) {
        g_assert_cmphex(qpci_config_readl(pci, PCI_BASE_ADDRESS_0 + 4 * bar),
                        ==, 0);
    }

    cap = qpci_find_capability(pci, PCI_CAP_ID_MSIX, 0);
    g_assert_cmpuint(cap, !=, 0);
    g_assert_cmpuint(qpci_msix_table_size(pci), ==, 1);
    g_assert_cmphex(qpci_config_readl(pci, cap + PCI_MSIX_TABLE), ==, 1);
    g_assert_cmphex(qpci_config_readl(pci, cap + PCI_MSIX_PBA) & ~7u, !=, 0);
    cap = qpci_find_capability(pci, PCI_CAP_ID_MSI, 0);
    g_assert_cmpuint(cap, !=, 0);
    /* one vector requested (multiple message capable = 0), 64-bit */
    g_assert_cmphex(qpci_config_readw(pci, cap + PCI_MSI_FLAGS) &
                    (PCI_MSI_FLAGS_QMASK | PCI_MSI_FLAGS_64BIT), ==,
                    PCI_MSI_FLAGS_64BIT);
    g_free(pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

static void test_id_block(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4 "
                               "-device openenoc,addr=0x5,"
                               "clock-frequency=100000000");
    QPCIBus *bus = oe_bus(qts);
    OeDev d, e;

    oe_open(&d, qts, bus, 4);
    oe_open(&e, qts, bus, 5);
    g_assert_cmphex(d.bar0_size, ==, 0x2000);
    g_assert_cmphex(oe_rd(&d, ENOC_MODEL_MAGIC_OFF), ==, ENOC_MODEL_MAGIC);
    /* "ENOC" in little-endian bytes */
    g_assert_cmphex(qpci_io_readb(d.pci, d.bar0, ENOC_MODEL_MAGIC_OFF + 0),
                    ==, 'E');
    g_assert_cmphex(qpci_io_readb(d.pci, d.bar0, ENOC_MODEL_MAGIC_OFF + 1),
                    ==, 'N');
    g_assert_cmphex(qpci_io_readb(d.pci, d.bar0, ENOC_MODEL_MAGIC_OFF + 2),
                    ==, 'O');
    g_assert_cmphex(qpci_io_readb(d.pci, d.bar0, ENOC_MODEL_MAGIC_OFF + 3),
                    ==, 'C');
    g_assert_cmphex(qpci_io_readw(d.pci, d.bar0, ENOC_MODEL_MAGIC_OFF + 2),
                    ==, 0x434F);
    g_assert_cmphex(oe_rd(&d, ENOC_MODEL_VERSION_OFF), ==, 0x00010000);
    g_assert_cmpuint(oe_rd(&d, ENOC_MODEL_CLOCK_OFF), ==, 125000000);
    g_assert_cmpuint(oe_rd(&e, ENOC_MODEL_CLOCK_OFF), ==, 100000000);
    /*
     * 0 = the C engine, 1 = an engine library (check-qtest-rtl runs the
     * suites on the RTL model: this proves they really do)
     */
    g_assert_cmphex(oe_rd(&d, ENOC_MODEL_ENGINE_OFF), ==,
                    oe_engine_is_c() ? 0 : 1);
    /* read only, and the rest of the block reads 0 */
    oe_wr(&d, ENOC_MODEL_MAGIC_OFF, 0x12345678);
    oe_wr(&d, ENOC_MODEL_CLOCK_OFF, 1);
    g_assert_cmphex(oe_rd(&d, ENOC_MODEL_MAGIC_OFF), ==, ENOC_MODEL_MAGIC);
    g_assert_cmpuint(oe_rd(&d, ENOC_MODEL_CLOCK_OFF), ==, 125000000);
    for (uint32_t off = 0x1F10; off < 0x2000; off += 4) {
        g_assert_cmphex(oe_rd(&d, off), ==, 0);
    }
    /* info words of the default build */
    g_assert_cmphex(oe_rd(&d, OE_INFO), ==, 0x00000100);
    g_assert_cmphex(oe_rd(&d, OE_INFO_HI), ==, 0x2000F804);
    g_free(d.pci);
    g_free(e.pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

static void check_reset_values(OeDev *d)
{
    for (size_t i = 0; i < G_N_ELEMENTS(oe_reg_words); i++) {
        const OeRegWord *w = &oe_reg_words[i];
        uint32_t v = oe_rd(d, w->offset);

        if (v != w->reset) {
            g_test_message("%s (0x%04x) reads 0x%08x, reset is 0x%08x",
                           w->name, w->offset, v, w->reset);
        }
        g_assert_cmphex(v, ==, w->reset);
    }
}

/*
 * Every CSR has its reset value; rw bits read back; system reset (the
 * endpoint's hard reset) restores them all.
 */
static void test_csr_reset_values(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4");
    QPCIBus *bus = oe_bus(qts);
    OeDev d;

    oe_open(&d, qts, bus, 4);
    check_reset_values(&d);
    for (size_t i = 0; i < G_N_ELEMENTS(oe_reg_words); i++) {
        const OeRegWord *w = &oe_reg_words[i];

        if (!w->sw_mask || w->cmd_mask) {
            continue;
        }
        oe_wr(&d, w->offset, 0xffffffff);
        g_assert_cmphex(oe_rd(&d, w->offset) & w->sw_mask, ==, w->sw_mask);
    }
    g_free(d.pci);
    qtest_qmp_assert_success(qts, "{'execute': 'system_reset'}");
    oe_open(&d, qts, bus, 4);
    check_reset_values(&d);
    g_free(d.pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

/*
 * The AF capability's function level reset is the endpoint's hard reset,
 * so a driver can start from a clean endpoint (pci_reset_function).
 */
static void test_flr(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4");
    QPCIBus *bus = oe_bus(qts);
    OeDev d;
    uint8_t af;

    oe_open(&d, qts, bus, 4);
    af = qpci_find_capability(d.pci, PCI_CAP_ID_AF, 0);
    g_assert_cmpuint(af, !=, 0);
    g_assert_cmphex(qpci_config_readb(d.pci, af + PCI_AF_LENGTH), ==,
                    PCI_CAP_AF_SIZEOF);
    g_assert_cmphex(qpci_config_readb(d.pci, af + PCI_AF_CAP), ==,
                    PCI_AF_CAP_TP | PCI_AF_CAP_FLR);
    g_assert_cmphex(qpci_config_readb(d.pci, af + PCI_AF_STATUS) &
                    PCI_AF_STATUS_TP, ==, 0);

    oe_wr(&d, OE_TEST_REG, 0x12345678);
    oe_wr_mac(&d, OE_PEER_MAC_ADDRESS(1), 0x020E0C000042ull);
    oe_wr(&d, OE_PEER_DMA(1), 2);
    oe_wr(&d, OE_RAW_RX_BUFFER_ADDRESS, 0x100000);
    oe_wr(&d, OE_RAW_RX_BUFFER_CAPACITY, 2048);
    oe_wr(&d, OE_RAW_RX_COMMAND_STATUS, OE_RAW_RX_COMMAND_STATUS_REQUEST_MASK);
    g_assert_cmphex(oe_rd(&d, OE_RAW_RX_COMMAND_STATUS) &
                    OE_RAW_RX_COMMAND_STATUS_ARMED_MASK, !=, 0);

    qpci_config_writeb(d.pci, af + PCI_AF_CTRL, PCI_AF_CTRL_FLR);
    /* The request bit reads back 0; the function lost its config state. */
    g_assert_cmphex(qpci_config_readb(d.pci, af + PCI_AF_CTRL), ==, 0);
    g_assert_cmphex(qpci_config_readw(d.pci, PCI_COMMAND) &
                    (PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER), ==, 0);
    g_free(d.pci);
    oe_open(&d, qts, bus, 4);
    check_reset_values(&d);
    g_free(d.pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

static void test_mac_property(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4,"
                               "mac=02:0e:0c:12:34:56");
    QPCIBus *bus = oe_bus(qts);
    OeDev d;

    oe_open(&d, qts, bus, 4);
    g_assert_cmphex(oe_rd(&d, OE_CONFIG_MAC_ADDRESS), ==, 0x0C123456);
    g_assert_cmphex(oe_rd(&d, OE_CONFIG_MAC_ADDRESS_HI), ==, 0x020E);
    /* software may overwrite it; reset brings the property value back */
    oe_wr_mac(&d, OE_CONFIG_MAC_ADDRESS, 0x020E0C000001ull);
    g_assert_cmphex(oe_rd(&d, OE_CONFIG_MAC_ADDRESS), ==, 0x0C000001);
    g_free(d.pci);
    qtest_qmp_assert_success(qts, "{'execute': 'system_reset'}");
    oe_open(&d, qts, bus, 4);
    g_assert_cmphex(oe_rd(&d, OE_CONFIG_MAC_ADDRESS), ==, 0x0C123456);
    g_free(d.pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

/* 1-, 2-, 4- and 8-byte accesses; byte enables apply. */
static void test_access_sizes(void)
{
    QTestState *qts = oe_start("-device openenoc,addr=0x4");
    QPCIBus *bus = oe_bus(qts);
    OeDev d;

    oe_open(&d, qts, bus, 4);
    oe_wr(&d, OE_REGB, 0);
    qpci_io_writeb(d.pci, d.bar0, OE_REGB + 2, 0xa5);
    g_assert_cmphex(oe_rd(&d, OE_REGB), ==, 0x00a50000);
    qpci_io_writew(d.pci, d.bar0, OE_REGB, 0x1234);
    g_assert_cmphex(oe_rd(&d, OE_REGB), ==, 0x00a51234);
    g_assert_cmphex(qpci_io_readb(d.pci, d.bar0, OE_REGB + 1), ==, 0x12);
    g_assert_cmphex(qpci_io_readw(d.pci, d.bar0, OE_REGB + 2), ==, 0x00a5);

    /* an 8-byte access is two 4-byte accesses */
    qpci_io_writeq(d.pci, d.bar0, OE_TEST_REG, 0x1122334455667788ull);
    g_assert_cmphex(oe_rd(&d, OE_TEST_REG), ==, 0x55667788);
    g_assert_cmphex(oe_rd(&d, OE_REGB), ==, 0x11223344);
    g_assert_cmphex(qpci_io_readq(d.pci, d.bar0, OE_TEST_REG), ==,
                    0x1122334455667788ull);
    g_assert_cmphex(qpci_io_readq(d.pci, d.bar0, OE_INFO), ==,
                    0x2000F80400000100ull);

    /* unmapped offsets read 0 and ignore writes */
    oe_wr(&d, 0x100, 0xdeadbeef);
    g_assert_cmphex(oe_rd(&d, 0x100), ==, 0);
    g_assert_cmphex(qpci_io_readb(d.pci, d.bar0, 0x7ff), ==, 0);
    g_free(d.pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

static void test_help(void)
{
    g_autofree char *out = NULL, *err = NULL;
    static const char *const props[] = {
        "mac=", "netdev=", "clock-frequency=", "link-speed=", "engine=",
        "rtl-model=", "vendor-id=", "device-id=", "mem-beat-bytes=",
    };
    int status = oe_run_qemu("-device openenoc,help", &out, &err);

    g_assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    for (size_t i = 0; i < G_N_ELEMENTS(props); i++) {
        g_autofree char *line = NULL;
        const char *p = strstr(out, props[i]);

        g_assert_nonnull(p);
        /* each property line carries a description after " - " */
        line = g_strndup(p, strchrnul(p, '\n') - p);
        g_assert_nonnull(strstr(line, " - "));
    }
    g_assert_nonnull(strstr(out, "Mbit/s"));
}

typedef struct BadProp {
    const char *args;
    const char *message;
} BadProp;

static const BadProp bad_props[] = {
    { "clock-frequency=0", "clock-frequency must be at least" },
    { "clock-frequency=hello", "clock-frequency" },
    { "link-speed=500000", "link-speed must be" },
    { "link-speed=-1", "link-speed" },
    { "engine=verilog", "engine must be 'c' or 'rtl'" },
    { "engine=rtl", "needs rtl-model" },
    { "engine=rtl,rtl-model=/nonexistent/libmodel.so",
      "cannot load rtl-model" },
    { "rtl-model=/tmp/x.so", "only meaningful with engine=rtl" },
    { "mac=03:0e:0c:00:00:01", "must be a unicast address" },
    { "mac=zz", "mac" },
    { "netdev=nosuch", "nosuch" },
    { "mem-beat-bytes=3", "mem_beat_bytes must be 0, 4, 8, 16 or 32" },
};

static void test_bad_properties(void)
{
    for (size_t i = 0; i < G_N_ELEMENTS(bad_props); i++) {
        g_autofree char *args = g_strdup_printf("-accel qtest -display none "
                                                "-device openenoc,%s",
                                                bad_props[i].args);
        g_autofree char *out = NULL, *err = NULL;
        int status = oe_run_qemu(args, &out, &err);

        g_test_message("%s -> %s", bad_props[i].args, err);
        g_assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        g_assert_nonnull(strstr(err, bad_props[i].message));
    }
}

/*
 * mem-beat-bytes reaches the engine: the C engine cuts transfers for every
 * bus beat it knows, an RTL library takes only the beat of the memory bus
 * it was built with and names the difference for the others. QEMU creates
 * -device options in command-line order, so an unknown device after
 * openenoc tells that openenoc itself was created.
 */
static void test_mem_beat_bytes(void)
{
    static const unsigned beats[] = { 4, 8, 16, 32 };
    const char *so = getenv("OPENENOC_QTEST_RTL_MODEL");
    unsigned taken = 0;

    for (size_t i = 0; i < G_N_ELEMENTS(beats); i++) {
        g_autofree char *args = NULL, *out = NULL, *err = NULL;
        int status;

        args = g_strdup_printf("-accel qtest -display none -device "
                               "openenoc,mem-beat-bytes=%u%s%s "
                               "-device oe-no-such-device", beats[i],
                               oe_engine_is_c() ? "" : ",engine=rtl,rtl-model=",
                               oe_engine_is_c() ? "" : so);
        status = oe_run_qemu(args, &out, &err);
        g_test_message("mem-beat-bytes=%u -> %s", beats[i], err);
        g_assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (strstr(err, "oe-no-such-device")) {
            taken++;
        } else {
            g_assert_false(oe_engine_is_c());
            g_assert_nonnull(strstr(err, "differs from this RTL library's "
                                         "memory bus"));
        }
    }
    g_assert_cmpuint(taken, ==, oe_engine_is_c() ? G_N_ELEMENTS(beats) : 1);
}

/*
 * engine=rtl loads an engine library through rtl-model. The C engine built
 * as a library (OPENENOC_ENGINE_SO, set by run-qtests.sh) stands in for
 * the Verilator model: the ID block says RTL and the endpoint works. With
 * oe_engine_save/load the VM migrates (here into a discarding exec:); the
 * stateless build (OPENENOC_ENGINE_STATELESS_SO) exports neither, and then
 * the device blocks migration with a reason.
 */
static void test_engine_library(gconstpointer data)
{
    bool stateless = GPOINTER_TO_INT(data);
    const char *so = getenv(stateless ? "OPENENOC_ENGINE_STATELESS_SO" :
                                        "OPENENOC_ENGINE_SO");
    QTestState *qts;
    QPCIBus *bus;
    QDict *rsp;
    OeDev d;

    if (!so || !g_file_test(so, G_FILE_TEST_EXISTS)) {
        g_test_skip("no engine library in the environment");
        return;
    }
    qts = oe_start("-device openenoc,addr=0x4,engine=rtl,rtl-model=%s", so);
    bus = oe_bus(qts);
    oe_open(&d, qts, bus, 4);
    g_assert_cmphex(oe_rd(&d, ENOC_MODEL_ENGINE_OFF), ==, 1);
    g_assert_cmphex(oe_rd(&d, OE_INFO_HI), ==, 0x2000F804);
    oe_wr(&d, OE_TEST_REG, 0x5eed);
    g_assert_cmphex(oe_rd(&d, OE_TEST_REG), ==, 0x5eed);
    rsp = qtest_qmp(qts, "{'execute': 'migrate', 'arguments': "
                    "{'uri': 'exec:cat >/dev/null'}}");
    if (stateless) {
        const char *why;

        g_assert_true(qdict_haskey(rsp, "error"));
        why = qdict_get_str(qdict_get_qdict(rsp, "error"), "desc");
        g_test_message("migrate: %s", why);
        g_assert_nonnull(strstr(why, "cannot save its state"));
    } else {
        g_assert_false(qdict_haskey(rsp, "error"));
        qtest_qmp_eventwait(qts, "STOP");   /* the last pass has begun */
    }
    qobject_unref(rsp);
    g_free(d.pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

/* Hot-plug and unplug (the unplug path frees the engine, queues, timers). */
static void test_hotplug(void)
{
    QTestState *qts = oe_start("-netdev hubport,id=p0,hubid=0");
    QPCIBus *bus = oe_bus(qts);
    OeDev d;

    qtest_qmp_device_add(qts, "openenoc", "hot", "{'addr': '0x6', "
                         "'netdev': 'p0'}");
    oe_open(&d, qts, bus, 6);
    g_assert_cmphex(oe_rd(&d, ENOC_MODEL_MAGIC_OFF), ==, ENOC_MODEL_MAGIC);
    oe_wr(&d, OE_RAW_TX_BUFFER_ADDRESS, OE_RAM_BUF(0));
    oe_wr(&d, OE_RAW_TX_FRAME_LENGTH, 64);
    oe_wr(&d, OE_RAW_TX_COMMAND_STATUS, OE_RAW_TX_COMMAND_STATUS_REQUEST_MASK);
    g_free(d.pci);
    qpci_unplug_acpi_device_test(qts, "hot", 6);
    qtest_qmp_assert_success(qts, "{'execute': 'query-status'}");
    qpci_free_pc(bus);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/id/pci-identity", test_pci_identity);
    qtest_add_func("/openenoc/id/id-override", test_id_override);
    qtest_add_func("/openenoc/id/bars-and-capabilities", test_bars_and_caps);
    qtest_add_func("/openenoc/id/id-block-and-info", test_id_block);
    qtest_add_func("/openenoc/id/csr-reset-values", test_csr_reset_values);
    qtest_add_func("/openenoc/id/flr-is-hard-reset", test_flr);
    qtest_add_func("/openenoc/id/mac-property-is-reset-value",
                   test_mac_property);
    qtest_add_func("/openenoc/id/access-sizes", test_access_sizes);
    qtest_add_func("/openenoc/id/help-lists-properties", test_help);
    qtest_add_func("/openenoc/id/invalid-properties-fail", test_bad_properties);
    qtest_add_func("/openenoc/id/mem-beat-bytes", test_mem_beat_bytes);
    qtest_add_data_func("/openenoc/id/engine-library-rtl-model",
                        GINT_TO_POINTER(false), test_engine_library);
    qtest_add_data_func("/openenoc/id/engine-library-without-state",
                        GINT_TO_POINTER(true), test_engine_library);
    qtest_add_func("/openenoc/id/hotplug-unplug", test_hotplug);
    return g_test_run();
}
