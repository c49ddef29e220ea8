/*
 * libqos driver for the openenoc PCI device (see openenoc.h). Tests that
 * consume "openenoc" get a QOpenenoc with memory and bus mastering enabled
 * and BAR0 mapped; they add their netdev with a before() hook and
 * "netdev=..." in their edge's extra_device_opts.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "../libqtest.h"
#include "qemu/module.h"
#include "libqos/qgraph.h"
#include "libqos/pci.h"
#include "openenoc.h"
#include "openenoc/uapi_enoc.h"

static void openenoc_destructor(QOSGraphObject *obj)
{
    QOpenenoc *d = container_of(obj, QOpenenoc, obj);

    if (d->bar0_size) {
        qpci_iounmap(&d->dev, d->bar0);
    }
}

static void openenoc_start_hw(QOSGraphObject *obj)
{
    QOpenenoc *d = container_of(obj, QOpenenoc, obj);

    qpci_device_enable(&d->dev);
    d->bar0 = qpci_iomap(&d->dev, 0, &d->bar0_size);
    g_assert_cmpuint(d->bar0_size, ==, ENOC_CSR_SIZE);
}

static void *openenoc_get_driver(void *obj, const char *interface)
{
    QOpenenoc *d = obj;

    if (!g_strcmp0(interface, "openenoc")) {
        return d;
    }
    if (!g_strcmp0(interface, "pci-device")) {
        return &d->dev;
    }
    fprintf(stderr, "%s not present in openenoc\n", interface);
    g_assert_not_reached();
}

static void *openenoc_create(void *pci_bus, QGuestAllocator *alloc,
                             void *addr)
{
    QOpenenoc *d = g_new0(QOpenenoc, 1);

    qpci_device_init(&d->dev, pci_bus, addr);
    d->obj.get_driver = openenoc_get_driver;
    d->obj.start_hw = openenoc_start_hw;
    d->obj.destructor = openenoc_destructor;
    return &d->obj;
}

static void openenoc_register_nodes(void)
{
    QPCIAddress addr = {
        .devfn = QPCI_DEVFN(4, 0),
        .vendor_id = ENOC_PCI_VENDOR_ID,
        .device_id = ENOC_PCI_DEVICE_ID,
    };
    QOSGraphEdgeOptions opts = {
        .extra_device_opts = "addr=04.0",
    };

    add_qpci_address(&opts, &addr);
    qos_node_create_driver("openenoc", openenoc_create);
    qos_node_consumes("openenoc", "pci-bus", &opts);
    qos_node_produces("openenoc", "pci-device");
}

libqos_init(openenoc_register_nodes);
