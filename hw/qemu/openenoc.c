/*
 * openenoc: an openENOC endpoint as a PCI device (spec/pci-device.md).
 *
 * BAR0 is the endpoint's 8 KiB CSR aperture, BAR1 holds the MSI-X table.
 * The endpoint itself is an engine behind include/openenoc/engine.h; this
 * file is the QOM/PCI wrapper: configuration space, BARs, interrupts,
 * properties, reset and migration.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/units.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "hw/qdev-properties.h"
#include "migration/blocker.h"
#include "migration/vmstate.h"
#include "openenoc.h"
#include "trace.h"

#define OPENENOC_MIN_CLOCK_HZ   1000u
#define OPENENOC_MAX_LINK_MBPS  400000u
#define OPENENOC_MAX_STATE      (16 * MiB)  /* bound for a migrated blob */

static void openenoc_update_intx(OpenenocState *s)
{
    PCIDevice *pci = PCI_DEVICE(s);

    /* INTx is quiet while the guest uses message interrupts. */
    pci_set_irq(pci, s->irq_level && !msix_enabled(pci) && !msi_enabled(pci));
}

/*
 * The FPGA endpoint has no software reset, so a driver reloaded over a live
 * endpoint would inherit armed descriptors and open windows. Conventional
 * PCI's Advanced Features capability offers a function level reset that
 * drivers reach through pci_reset_function(); here it is the endpoint's hard
 * reset. Transactions never stay pending (DMA is synchronous), so TP reads 0.
 */
static void openenoc_af_init(OpenenocState *s, Error **errp)
{
    PCIDevice *pci = PCI_DEVICE(s);
    int pos = pci_add_capability(pci, PCI_CAP_ID_AF, 0, PCI_CAP_AF_SIZEOF,
                                 errp);

    if (pos < 0) {
        return;
    }
    s->af_cap = pos;
    pci_set_byte(pci->config + pos + PCI_AF_LENGTH, PCI_CAP_AF_SIZEOF);
    pci_set_byte(pci->config + pos + PCI_AF_CAP,
                 PCI_AF_CAP_TP | PCI_AF_CAP_FLR);
    pci_set_byte(pci->wmask + pos + PCI_AF_CTRL, PCI_AF_CTRL_FLR);
}

static void openenoc_write_config(PCIDevice *pci, uint32_t addr, uint32_t val,
                                  int len)
{
    OpenenocState *s = OPENENOC(pci);
    uint8_t *ctrl = pci->config + s->af_cap + PCI_AF_CTRL;

    pci_default_write_config(pci, addr, val, len);
    if (s->af_cap && (*ctrl & PCI_AF_CTRL_FLR)) {
        *ctrl &= ~PCI_AF_CTRL_FLR;  /* reads as 0, like PCIe's BCR_FLR */
        trace_openenoc_flr();
        pci_device_reset(pci);
    }
    openenoc_update_intx(s);
}

static uint64_t openenoc_reset_mac(OpenenocState *s)
{
    uint64_t mac = 0;

    for (int i = 0; i < 6; i++) {
        mac = mac << 8 | s->conf.macaddr.a[i];
    }
    return mac;
}

static bool openenoc_check_properties(OpenenocState *s, Error **errp)
{
    if (s->clock_hz < OPENENOC_MIN_CLOCK_HZ) {
        error_setg(errp, "openenoc: clock-frequency must be at least %u Hz "
                   "(got %u)", OPENENOC_MIN_CLOCK_HZ, s->clock_hz);
        return false;
    }
    if (s->link_mbps > OPENENOC_MAX_LINK_MBPS) {
        error_setg(errp, "openenoc: link-speed must be 0 (unpaced) to %u "
                   "Mbit/s (got %u)", OPENENOC_MAX_LINK_MBPS, s->link_mbps);
        return false;
    }
    if (s->conf.macaddr.a[0] & 1) {
        error_setg(errp, "openenoc: mac must be a unicast address (the "
                   "I/G bit of the first octet is set)");
        return false;
    }
    return true;
}

static void openenoc_realize(PCIDevice *pci, Error **errp)
{
    OpenenocState *s = OPENENOC(pci);
    DeviceState *dev = DEVICE(pci);
    OeEngineConfig cfg = { 0 };

    if (!openenoc_check_properties(s, errp) ||
        !openenoc_engine_bind(s, errp)) {
        return;
    }

    pci->config_write = openenoc_write_config;
    pci_config_set_vendor_id(pci->config, s->vendor_id);
    pci_config_set_device_id(pci->config, s->device_id);
    pci_set_word(pci->config + PCI_SUBSYSTEM_VENDOR_ID, s->vendor_id);
    pci_set_word(pci->config + PCI_SUBSYSTEM_ID, s->device_id);
    pci->config[PCI_INTERRUPT_PIN] = 1;

    memory_region_init_io(&s->mmio, OBJECT(s), &openenoc_mmio_ops, s,
                          "openenoc-csr", OE_CSR_APERTURE_SIZE);
    pci_register_bar(pci, OPENENOC_BAR_CSR, PCI_BASE_ADDRESS_SPACE_MEMORY,
                     &s->mmio);
    if (msix_init_exclusive_bar(pci, 1, OPENENOC_BAR_MSIX, errp) < 0) {
        goto fail_unbind;
    }
    msix_vector_use(pci, 0);
    if (msi_init(pci, 0, 1, true, false, errp) < 0) {
        goto fail_msix;
    }
    openenoc_af_init(s, errp);
    if (!s->af_cap) {
        goto fail_msi;
    }

    QSIMPLEQ_INIT(&s->txq);
    QSIMPLEQ_INIT(&s->rxq);
    qemu_cond_init(&s->csr_cond);
    s->bh = qemu_bh_new_guarded(openenoc_bh, s, &dev->mem_reentrancy_guard);
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, openenoc_timer_cb, s);
    s->pace_timer = timer_new_ns(QEMU_CLOCK_REALTIME, openenoc_bh, s);

    cfg.reset_mac = openenoc_reset_mac(s);
    cfg.mem_beat_bytes = s->mem_beat_bytes;
    if (!openenoc_engine_create(s, &cfg, errp)) {
        goto fail_timers;
    }
    if (!openenoc_engine_trace(s, errp)) {
        goto fail_engine;
    }

    if (!s->eng.save || !s->eng.load) {
        error_setg(&s->migration_blocker, "openenoc: the engine library "
                   "'%s' cannot save its state (no oe_engine_save/load)",
                   s->rtl_model);
        if (migrate_add_blocker(&s->migration_blocker, errp) < 0) {
            goto fail_engine;
        }
    }

    s->nic = qemu_new_nic(&openenoc_net_info, &s->conf,
                          object_get_typename(OBJECT(s)), dev->id,
                          &dev->mem_reentrancy_guard, s);
    qemu_format_nic_info_str(qemu_get_queue(s->nic), s->conf.macaddr.a);
    s->vmstate_entry = qemu_add_vm_change_state_handler(
        openenoc_vm_state_change, s);
    return;

fail_engine:
    openenoc_engine_free(s);
fail_timers:
    timer_free(s->timer);
    timer_free(s->pace_timer);
    qemu_bh_delete(s->bh);
    qemu_cond_destroy(&s->csr_cond);
fail_msi:
    msi_uninit(pci);
fail_msix:
    msix_uninit_exclusive_bar(pci);
fail_unbind:
    openenoc_engine_unbind(s);
}

static void openenoc_exit(PCIDevice *pci)
{
    OpenenocState *s = OPENENOC(pci);

    qemu_del_vm_change_state_handler(s->vmstate_entry);
    /*
     * Frames we sent that still wait in the peer's queue carry our
     * completion callback: drop them while we exist.
     */
    qemu_purge_queued_packets(qemu_get_queue(s->nic));
    qemu_del_nic(s->nic);
    migrate_del_blocker(&s->migration_blocker);
    openenoc_net_clear(s);
    openenoc_engine_free(s);
    timer_free(s->timer);
    timer_free(s->pace_timer);
    qemu_bh_delete(s->bh);
    qemu_cond_destroy(&s->csr_cond);
    msi_uninit(pci);
    msix_uninit_exclusive_bar(pci);
    openenoc_engine_unbind(s);
    g_free(s->vm_engine);
    g_free(s->vm_frames);
}

/* Device reset is the endpoint's hard reset. */
static void openenoc_reset_hold(Object *obj, ResetType type)
{
    OpenenocState *s = OPENENOC(obj);

    trace_openenoc_reset();
    openenoc_net_clear(s);
    s->link_free_ns = 0;
    openenoc_engine_reset(s);
    s->irq_level = false;
    openenoc_update_intx(s);
    openenoc_net_rx_unblock(s);
}

static int openenoc_pre_save(void *opaque)
{
    OpenenocState *s = opaque;
    size_t n;

    g_free(s->vm_engine);
    n = openenoc_engine_save(s, &s->vm_engine);
    if (!n || n > OPENENOC_MAX_STATE) {
        error_report("openenoc: engine state changed size while saving");
        return -EINVAL;
    }
    s->vm_engine_len = n;
    g_free(s->vm_frames);
    s->vm_frames_len = openenoc_net_save(s, &s->vm_frames);
    trace_openenoc_migration("save", s->vm_engine_len, s->vm_frames_len);
    return 0;
}

static int openenoc_post_save(void *opaque)
{
    OpenenocState *s = opaque;

    g_clear_pointer(&s->vm_engine, g_free);
    g_clear_pointer(&s->vm_frames, g_free);
    return 0;
}

static bool openenoc_state_len_ok(void *opaque, int version_id)
{
    OpenenocState *s = opaque;

    return s->vm_engine_len <= OPENENOC_MAX_STATE &&
           s->vm_frames_len <= OPENENOC_MAX_STATE;
}

static int openenoc_post_load(void *opaque, int version_id)
{
    OpenenocState *s = opaque;
    int ret = 0;

    trace_openenoc_migration("load", s->vm_engine_len, s->vm_frames_len);
    if (!openenoc_engine_load(s, s->vm_engine, s->vm_engine_len)) {
        error_report("openenoc: incompatible or malformed engine state");
        ret = -EINVAL;
    }
    if (!ret && !openenoc_net_load(s, s->vm_frames, s->vm_frames_len)) {
        error_report("openenoc: malformed frame queue state");
        ret = -EINVAL;
    }
    g_clear_pointer(&s->vm_engine, g_free);
    g_clear_pointer(&s->vm_frames, g_free);
    s->csr_pending = false;
    s->csr_done = false;
    s->csr_abandoned = false;
    s->tx_backend_busy = false;
    s->link_free_ns = 0;
    openenoc_update_intx(s);
    openenoc_net_rx_unblock(s);
    s->again = true;            /* resume work the source had in hand */
    qemu_bh_schedule(s->bh);
    return ret;
}

static const VMStateDescription openenoc_vmstate = {
    .name = "openenoc",
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = openenoc_pre_save,
    .post_save = openenoc_post_save,
    .post_load = openenoc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, OpenenocState),
        VMSTATE_MSIX(parent_obj, OpenenocState),
        VMSTATE_BOOL(irq_level, OpenenocState),
        VMSTATE_TIMER_PTR(timer, OpenenocState),
        VMSTATE_UINT32(vm_engine_len, OpenenocState),
        VMSTATE_UINT32(vm_frames_len, OpenenocState),
        VMSTATE_VALIDATE("openenoc state size", openenoc_state_len_ok),
        VMSTATE_VBUFFER_ALLOC_UINT32(vm_engine, OpenenocState, 0, NULL,
                                     vm_engine_len),
        VMSTATE_VBUFFER_ALLOC_UINT32(vm_frames, OpenenocState, 0, NULL,
                                     vm_frames_len),
        VMSTATE_END_OF_LIST()
    }
};

static const Property openenoc_properties[] = {
    DEFINE_NIC_PROPERTIES(OpenenocState, conf),
    DEFINE_PROP_UINT32("clock-frequency", OpenenocState, clock_hz,
                       OPENENOC_DEFAULT_CLOCK_HZ),
    DEFINE_PROP_UINT32("link-speed", OpenenocState, link_mbps, 0),
    DEFINE_PROP_UINT32("mem-beat-bytes", OpenenocState, mem_beat_bytes, 0),
    DEFINE_PROP_STRING("engine", OpenenocState, engine_kind),
    DEFINE_PROP_STRING("rtl-model", OpenenocState, rtl_model),
    DEFINE_PROP_STRING("rtl-trace", OpenenocState, rtl_trace),
    DEFINE_PROP_UINT64("rtl-trace-start", OpenenocState, rtl_trace_start, 0),
    DEFINE_PROP_UINT64("rtl-trace-cycles", OpenenocState, rtl_trace_cycles, 0),
    DEFINE_PROP_UINT16("vendor-id", OpenenocState, vendor_id,
                       OPENENOC_VENDOR_ID),
    DEFINE_PROP_UINT16("device-id", OpenenocState, device_id,
                       OPENENOC_DEVICE_ID),
    DEFINE_PROP_UINT32("x-wait-limit-ms", OpenenocState, wait_limit_ms, 0),
};

static void openenoc_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    k->realize = openenoc_realize;
    k->exit = openenoc_exit;
    k->vendor_id = OPENENOC_VENDOR_ID;
    k->device_id = OPENENOC_DEVICE_ID;
    k->revision = OPENENOC_REVISION;
    k->class_id = PCI_CLASS_NETWORK_OTHER;
    rc->phases.hold = openenoc_reset_hold;

    dc->desc = "openENOC endpoint (oETP over Ethernet)";
    dc->vmsd = &openenoc_vmstate;
    device_class_set_props(dc, openenoc_properties);
    set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);

    object_class_property_set_description(klass, "mac",
        "reset value of config.mac_address (unicast; 0 as on the FPGA "
        "when not given)");
    object_class_property_set_description(klass, "netdev",
        "network backend carrying the oETP and raw Ethernet frames");
    object_class_property_set_description(klass, "clock-frequency",
        "endpoint clock in Hz; timeout CSRs count these cycles on the "
        "virtual clock");
    object_class_property_set_description(klass, "link-speed",
        "line rate in Mbit/s that paces transmission on the host clock; "
        "0 = unpaced");
    object_class_property_set_description(klass, "mem-beat-bytes",
        "memory bus beat in bytes (4, 8, 16, 32; 0 = the engine's own): how a "
        "DMA transfer is cut into guest memory accesses");
    object_class_property_set_description(klass, "engine",
        "endpoint engine: 'c' (built in, default) or 'rtl' (needs rtl-model)");
    object_class_property_set_description(klass, "rtl-model",
        "path of the Verilator model library for engine=rtl");
    object_class_property_set_description(klass, "rtl-trace",
        "FST waveform file of the model (engine=rtl with the traced "
        "library libopenenoc_rtl_trace.so)");
    object_class_property_set_description(klass, "rtl-trace-start",
        "model clock cycles after device creation before rtl-trace starts");
    object_class_property_set_description(klass, "rtl-trace-cycles",
        "model clock cycles in the rtl-trace file (0 = until QEMU exits)");
    object_class_property_set_description(klass, "vendor-id",
        "PCI vendor and subsystem vendor ID (0x1234)");
    object_class_property_set_description(klass, "device-id",
        "PCI device and subsystem ID (0x0e0c)");
}

static const TypeInfo openenoc_info = {
    .name = TYPE_OPENENOC,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(OpenenocState),
    .class_init = openenoc_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_CONVENTIONAL_PCI_DEVICE },
        { }
    },
};

static void openenoc_register_types(void)
{
    type_register_static(&openenoc_info);
}

type_init(openenoc_register_types)
