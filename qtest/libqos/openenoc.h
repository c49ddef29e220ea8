/*
 * libqos driver for the openenoc PCI device: the qos graph node
 * "openenoc" (consumes pci-bus, produces pci-device) with BAR0, the
 * endpoint's 8 KiB CSR aperture, mapped.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef QOS_OPENENOC_H
#define QOS_OPENENOC_H

#include "libqos/qgraph.h"
#include "libqos/pci.h"

typedef struct QOpenenoc {
    QOSGraphObject obj;
    QPCIDevice dev;
    QPCIBar bar0;               /* CSR aperture, mapped by start_hw */
    uint64_t bar0_size;
} QOpenenoc;

#endif
