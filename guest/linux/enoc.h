/* SPDX-License-Identifier: GPL-2.0 */
/*
 * openenoc driver internals: one struct enoc_dev per endpoint.
 *
 * Lifetime: the struct embeds the class device; its release frees it. Open
 * files and mappings hold a reference, so remove() can run while userspace
 * still has the device open: it marks the device dead, revokes every mapping
 * and wakes readers, and the struct goes when the last reference does.
 */
#ifndef ENOC_H
#define ENOC_H

#include <linux/cdev.h>
#include <linux/device.h>
#include <linux/kfifo.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include <openenoc/regs.h>
#include <openenoc/uapi_enoc.h>

#define ENOC_DRV_NAME		"openenoc"
#define ENOC_MAX_DEVICES	64
/* Events queued per reader before the oldest are dropped. */
#define ENOC_EVENT_QUEUE	512
/*
 * Claims serviced per interrupt before handing the CPU back; the level (or
 * the next MSI the device sends when completion pops a non-empty FIFO)
 * brings us back for the rest.
 */
#define ENOC_CLAIM_BUDGET	64

struct enoc_buf_mem {
	void *cpu;
	dma_addr_t bus;
	size_t size;
	bool pooled;		/* from the dma_pool, at pool_off */
	size_t pool_off;
	unsigned int map_count;	/* live user mappings of this buffer */
};

struct enoc_dev {
	struct device dev;		/* /dev/enocN; owns this struct */
	struct cdev cdev;
	struct pci_dev *pdev;
	void __iomem *csr;
	int index;
	int irq;
	enum enoc_irq_mode irq_mode;

	struct mutex lock;		/* alive, buf; held to change files */
	bool alive;
	struct enoc_buf_mem buf;

	spinlock_t files_lock;		/* files list vs. the IRQ handler */
	struct list_head files;
	u64 irq_count;
	u64 event_count;
	u64 spurious;
	/* Userspace-interrupt mode (ENOC_IOC_IRQ_USER), under files_lock. */
	struct enoc_file *irq_owner;	/* claims and completes; NULL: we do */
	u32 user_irq_count;		/* interrupts signalled to the owner */
	bool user_masked;		/* we masked the interrupt for it */
};

struct enoc_file {
	struct enoc_dev *enoc;
	struct file *filp;
	struct list_head node;
	wait_queue_head_t wait;
	DECLARE_KFIFO(events, struct enoc_event, ENOC_EVENT_QUEUE);
	bool lost;			/* queue overflowed since last read */
	u32 irq_seen;			/* user_irq_count at the last read */
};

static inline u32 enoc_rd(struct enoc_dev *enoc, u32 off)
{
	return ioread32(enoc->csr + off);
}

static inline void enoc_wr(struct enoc_dev *enoc, u32 off, u32 val)
{
	iowrite32(val, enoc->csr + off);
}

/* enoc_irq.c */
int enoc_irq_setup(struct enoc_dev *enoc);
void enoc_irq_teardown(struct enoc_dev *enoc);
int enoc_irq_user_set(struct enoc_file *f, bool on);
int enoc_irq_user_mask(struct enoc_file *f, bool mask);
ssize_t enoc_irq_user_read(struct enoc_file *f, char __user *ubuf, size_t count);
bool enoc_irq_user_pending(struct enoc_file *f);

/* enoc_cdev.c */
int enoc_cdev_init(void);
void enoc_cdev_exit(void);
struct enoc_dev *enoc_dev_alloc(struct pci_dev *pdev);
int enoc_cdev_add(struct enoc_dev *enoc);
void enoc_cdev_del(struct enoc_dev *enoc);
vm_fault_t enoc_vm_sigbus(struct vm_fault *vmf);

/* enoc_buf.c */
int enoc_pool_init(void);
void enoc_pool_exit(void);
int enoc_buf_alloc(struct enoc_dev *enoc, size_t size);
int enoc_buf_free(struct enoc_dev *enoc);
void enoc_buf_release(struct enoc_dev *enoc);
int enoc_buf_mmap(struct enoc_dev *enoc, struct vm_area_struct *vma);

#endif /* ENOC_H */
