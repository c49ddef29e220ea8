/*
 * Helpers shared by the openenoc qtests: starting QEMU with openenoc
 * devices, BAR0 access, peer-table setup, guest memory and waiting.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef OPENENOC_QTEST_H
#define OPENENOC_QTEST_H

#include "qemu/bswap.h"
#include "qemu/timer.h"
#include "qemu/units.h"
#include "hw/pci/pci_regs.h"
#include "libqtest.h"
#include "libqos/pci.h"
#include "libqos/pci-pc.h"
#include "libqos/openenoc.h"
#include "openenoc/regs.h"
#include "openenoc/oetp.h"

#include "openenoc/uapi_enoc.h"

#define OE_NS_PER_CYCLE 8                  /* at the default 125 MHz clock */

/* Peer modes are OE_MODE_* of openenoc/regs.h. */

/* MACs used throughout: unicast 02:0E:0C:00:00:1n, group 03:0E:0C:00:00:99. */
#define OE_MAC(n)       (0x020E0C000010ull + (n))
#define OE_GROUP        0x030E0C000099ull

/* Guest RAM used by the tests (the machine gets -m 256M). */
#define OE_RAM_BUF(n)   (0x01000000u + (n) * 0x01000000u)  /* 16 MiB apart */

typedef struct OeDev {
    QTestState *qts;
    QPCIDevice *pci;
    QPCIBar bar0;
    uint64_t bar0_size;
    int slot;
} OeDev;

/*
 * Start QEMU (-accel qtest, machine pc, 256 MiB; QEMU finds the firmware
 * itself, as make qemu configures it with Debian's firmware folders)
 * with the extra arguments given.
 */
/* Does the run use the built-in C engine (not OPENENOC_QTEST_RTL_MODEL)? */
bool oe_engine_is_c(void);
QTestState *oe_start(const char *fmt, ...) G_GNUC_PRINTF(1, 2);
/*
 * "-netdev hubport ... -device openenoc ..." for n devices on hub 0,
 * device i at slot 4 + i with mac OE_MAC(i). extra is appended to every
 * -device (may be ""). Caller frees.
 */
char *oe_hub_args(int n, const char *extra);

QPCIBus *oe_bus(QTestState *qts);
/*
 * qos tests: the OeDev of the graph's openenoc node (owned by libqos: not
 * freed by the test), and what oe_start adds to QEMU's command line besides
 * the machine (memory size, the engine under test), for a before() hook.
 */
void oe_qos_open(OeDev *d, QOpenenoc *o);
void oe_qos_args(GString *cmd_line);
/* Find, enable (memory + bus master) and map the device at slot. */
void oe_open(OeDev *d, QTestState *qts, QPCIBus *bus, int slot);

uint32_t oe_rd(OeDev *d, uint32_t off);
void oe_wr(OeDev *d, uint32_t off, uint32_t val);
uint64_t oe_rd64(OeDev *d, uint32_t off);
void oe_wr_mac(OeDev *d, uint32_t off, uint64_t mac);

/* config.mac_address = mac; multicast_address = group (0 = none). */
void oe_set_macs(OeDev *d, uint64_t mac, uint64_t group);
void oe_peer(OeDev *d, unsigned n, uint64_t mac, unsigned mode, uint32_t local,
             uint32_t remote, uint32_t size, uint32_t rmem_off);

/* Start peer n's block; wait until idle; return the dma register. */
void oe_peer_start(OeDev *d, unsigned n);
uint32_t oe_peer_wait(OeDev *d, unsigned n);
/*
 * Poll reg until (value & mask) == want, up to timeout_ms of host time
 * (the main loop moves frames between devices meanwhile). Returns the last
 * value read.
 */
uint32_t oe_poll(OeDev *d, uint32_t reg, uint32_t mask, uint32_t want,
                 int timeout_ms);

/* Deterministic pattern for buffers. */
void oe_fill(uint8_t *buf, size_t len, uint32_t seed);
void oe_ram_fill(QTestState *qts, uint64_t addr, size_t len, uint32_t seed);
/* Compare guest memory with the pattern; returns the first bad offset or -1. */
ssize_t oe_ram_check(QTestState *qts, uint64_t addr, size_t len, uint32_t seed);

/*
 * Wait (host time) until guest memory holds the pattern; returns the first
 * bad offset of the last check, -1 when it matched.
 */
ssize_t oe_ram_wait(QTestState *qts, uint64_t addr, size_t len, uint32_t seed,
                    int timeout_ms);

/* IRQ FIFO: read claim; complete it; returns the claim word. */
uint32_t oe_claim(OeDev *d);
void oe_complete(OeDev *d, uint32_t claim);

/*
 * Two QEMU processes, one device each (slot 4, MAC OE_MAC(i)), joined by a
 * dgram netdev on loopback; extra0 goes to QEMU 0 only. The link is either
 * the documented form (local and remote addresses: QEMU sends each frame
 * with an addressed sendto) or sockets the test connects to each other and
 * passes in (local.type=fd: plain send, no route lookup per frame).
 */
typedef enum OeLink {
    OE_LINK_ADDRESSED,
    OE_LINK_CONNECTED,
} OeLink;

typedef struct OePair {
    QTestState *qts[2];
    QPCIBus *bus[2];
    OeDev d[2];
} OePair;

void oe_pair_start(OePair *p, OeLink link, const char *extra0);
void oe_pair_stop(OePair *p);

/* Unique path under the test's temporary directory. */
char *oe_tmp_path(const char *name);
/*
 * Capture file of the running test case: $OPENENOC_PCAP_DIR/<suite>-<case>.pcap
 * (the last two parts of the test path) when that variable is set (make
 * check-wireshark decodes these), else a temporary file.
 */
char *oe_pcap_path(void);

/* Run QEMU with args and no qtest; returns exit status, stderr in *err. */
int oe_run_qemu(const char *args, char **out, char **err);

#endif

/* MSI-X vector 0 -> a guest RAM word; returns the message data used. */
uint32_t oe_msix_to_ram(OeDev *d, uint64_t addr);
/* MSI (one vector) -> a guest RAM word. */
void oe_msi_to_ram(OeDev *d, uint64_t addr, uint16_t data);
/* INTx as the device drives it: PCI status "interrupt" bit. */
bool oe_intx(OeDev *d);

/* Frames of a classic pcap file (each a GByteArray), or NULL. */
GPtrArray *oe_pcap_frames(const char *path);
