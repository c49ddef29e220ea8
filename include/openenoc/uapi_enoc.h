/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * openenoc Linux driver: everything userspace sees (guest/linux/).
 *
 * Each endpoint is a character device /dev/enocN:
 *  - mmap at offset ENOC_MMAP_CSR maps the 8 KiB CSR aperture (BAR0);
 *  - mmap at offset ENOC_MMAP_BUF maps the endpoint's DMA buffer, a coherent
 *    buffer below 4 GiB (the CSR address fields are 32 bits wide) allocated
 *    with ENOC_IOC_BUF_ALLOC; its bus address is what goes into the
 *    local_address / buffer_address CSRs. The buffer belongs to the device,
 *    not to the open file, so one command can fill it and the next start a
 *    DMA from it; it is freed by ENOC_IOC_BUF_FREE or when the device goes;
 *  - read() returns whole struct enoc_event records, one per IRQ claim the
 *    interrupt handler took from the endpoint's claim FIFO (and completed)
 *    since this file was opened; it blocks unless O_NONBLOCK; poll() reports
 *    POLLIN when an event is queued.
 * Register offsets and fields: include/openenoc/regs.h.
 */
#ifndef OPENENOC_UAPI_ENOC_H
#define OPENENOC_UAPI_ENOC_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define ENOC_UAPI_VERSION	1

/* PCI identity (spec/pci-device.md). */
#define ENOC_PCI_VENDOR_ID	0x1234
#define ENOC_PCI_DEVICE_ID	0x0e0c

/* Model identification block in BAR0 (the FPGA endpoint reads 0 there). */
#define ENOC_MODEL_MAGIC_OFF	0x1f00
#define ENOC_MODEL_VERSION_OFF	0x1f04
#define ENOC_MODEL_CLOCK_OFF	0x1f08
#define ENOC_MODEL_ENGINE_OFF	0x1f0c
#define ENOC_MODEL_MAGIC	0x434f4e45	/* "ENOC" in little-endian bytes */

#define ENOC_CSR_SIZE		0x2000

/* mmap offsets (bytes; page aligned). */
#define ENOC_MMAP_CSR		0x00000000ULL
#define ENOC_MMAP_BUF		0x10000000ULL

/* Interrupt mode the driver obtained (enoc_info.irq_mode). */
enum enoc_irq_mode {
	ENOC_IRQ_NONE = 0,
	ENOC_IRQ_INTX = 1,
	ENOC_IRQ_MSI = 2,
	ENOC_IRQ_MSIX = 3,
};

/* IRQ claim sources (irq.claim.source): enum enoc_irq_source, ENOC_SRC_*,
 * generated from the register map. */
#include "uapi_enoc_regs.h"

/* One serviced IRQ claim, as read() returns it. */
struct enoc_event {
	__u64 timestamp_ns;	/* CLOCK_MONOTONIC when the handler claimed it */
	__u32 claim;		/* the raw claim word (valid bit set) */
	__u16 source;		/* enum enoc_irq_source */
	__u16 peer;		/* peer_idx */
	__u16 sequence;		/* the endpoint's 16-bit claim sequence */
	__u16 flags;		/* ENOC_EVENT_* */
	__u32 reserved;
};

/* Events were lost before this one because this reader's queue was full. */
#define ENOC_EVENT_LOST_BEFORE	0x0001

struct enoc_info {
	__u32 uapi_version;	/* ENOC_UAPI_VERSION */
	__u32 index;		/* N of /dev/enocN */
	char pci_name[32];	/* e.g. "0000:00:03.0" */
	__u16 vendor;
	__u16 device;
	__u8 revision;
	__u8 irq_mode;		/* enum enoc_irq_mode */
	__u16 reserved0;
	__u32 irq;		/* Linux IRQ number */
	__u32 csr_size;		/* bytes of BAR0 */
	__u64 csr_phys;		/* BAR0 bus address */
	__u32 buf_size;		/* 0 when no buffer is allocated */
	__u32 buf_bus;		/* bus address of the buffer */
	__u64 irq_count;	/* interrupts handled */
	__u64 event_count;	/* claims serviced */
	__u64 spurious;		/* interrupts with no valid claim */
	__u64 reserved1[4];
};

struct enoc_buf {
	__u32 size;		/* in: bytes (rounded up to pages); out: size */
	__u32 bus;		/* out: bus address (below 4 GiB) */
	__u64 mmap_offset;	/* out: ENOC_MMAP_BUF */
};

#define ENOC_IOC_MAGIC		'E'
#define ENOC_IOC_INFO		_IOR(ENOC_IOC_MAGIC, 0, struct enoc_info)
/* Allocate the buffer, or return the current one if it already has this
 * size; EBUSY if a buffer of another size is still mapped. */
#define ENOC_IOC_BUF_ALLOC	_IOWR(ENOC_IOC_MAGIC, 1, struct enoc_buf)
/* Current buffer (size 0 if none). */
#define ENOC_IOC_BUF_GET	_IOR(ENOC_IOC_MAGIC, 2, struct enoc_buf)
/* Free the buffer; EBUSY while it is mapped. */
#define ENOC_IOC_BUF_FREE	_IO(ENOC_IOC_MAGIC, 3)
/*
 * Userspace-interrupt mode (argument: __u32 1 on, 0 off; EBUSY if another
 * file has it). The kernel then never reads claims: on an interrupt it masks
 * it and signals this file, which claims and completes the endpoint's IRQ
 * entries itself through the mapped CSRs, as a bare-metal HAL does. As with
 * UIO, read() of a __u32 then blocks until an interrupt came and returns the
 * interrupt count; write() of a __u32 1 unmasks (0 masks). Entries already
 * queued when the mode starts are this file's to service; when it ends (or
 * the file is closed) the kernel services what is left.
 */
#define ENOC_IOC_IRQ_USER	_IOW(ENOC_IOC_MAGIC, 4, __u32)

#endif /* OPENENOC_UAPI_ENOC_H */
