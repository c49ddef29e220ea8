// SPDX-License-Identifier: GPL-2.0
/*
 * openenoc interrupts: MSI-X, else MSI, else INTx; the handler drains the
 * endpoint's claim FIFO (read claim, queue the event to every reader, write
 * the claim back into complete) so that the level drops and the credits are
 * free for the next operations. In userspace-interrupt mode (one file per
 * device, ENOC_IOC_IRQ_USER) it only masks the interrupt and signals that
 * file, which services the FIFO itself.
 */
#include <linux/bitfield.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/timekeeping.h>

#include "enoc.h"

static char *irq_mode = "auto";
module_param(irq_mode, charp, 0444);
MODULE_PARM_DESC(irq_mode, "auto (MSI-X, MSI, INTx), msix, msi or intx");

/* A completion is taken at once by the model; bound the wait anyway. */
#define ENOC_COMPLETE_POLLS	1000

static void enoc_event_post(struct enoc_dev *enoc, u32 claim)
{
	struct enoc_event ev = {
		.timestamp_ns = ktime_get_ns(),
		.claim = claim,
		.source = FIELD_GET(OE_IRQ_CLAIM_SOURCE_MASK, claim),
		.peer = FIELD_GET(OE_IRQ_CLAIM_PEER_IDX_MASK, claim),
		.sequence = FIELD_GET(OE_IRQ_CLAIM_SEQUENCE_MASK, claim),
	};
	struct enoc_file *f;

	spin_lock(&enoc->files_lock);
	list_for_each_entry(f, &enoc->files, node) {
		/* A slow reader loses its oldest events, never the newest. */
		if (kfifo_is_full(&f->events)) {
			kfifo_skip(&f->events);
			f->lost = true;
		}
		kfifo_put(&f->events, ev);
		wake_up_interruptible(&f->wait);
	}
	enoc->event_count++;
	spin_unlock(&enoc->files_lock);
}

static bool enoc_complete(struct enoc_dev *enoc, u32 claim)
{
	int i;

	enoc_wr(enoc, OE_IRQ_COMPLETE, claim);
	for (i = 0; i < ENOC_COMPLETE_POLLS; i++)
		if (!(enoc_rd(enoc, OE_IRQ_COMPLETE) & OE_IRQ_COMPLETE_VALID_MASK))
			return true;
	return false;
}

/* Mask our interrupt: files_lock held, interrupts off. */
static void enoc_irq_user_do_mask(struct enoc_dev *enoc, bool mask)
{
	if (enoc->user_masked == mask)
		return;
	enoc->user_masked = mask;
	/* INTx may be shared: mask at the function, as uio_pci_generic does. */
	if (enoc->irq_mode == ENOC_IRQ_INTX)
		pci_intx(enoc->pdev, !mask);
	else if (mask)
		disable_irq_nosync(enoc->irq);
	else
		enable_irq(enoc->irq);
}

/*
 * Userspace-interrupt mode: no CSR access at all, the owner has the
 * endpoint to itself. Mask and signal; the owner unmasks with write().
 */
static irqreturn_t enoc_irq_user(struct enoc_dev *enoc)
{
	struct enoc_file *owner;
	irqreturn_t ret = IRQ_NONE;

	spin_lock(&enoc->files_lock);
	owner = enoc->irq_owner;
	if (!owner)
		goto out;
	if (enoc->irq_mode == ENOC_IRQ_INTX) {
		/* Not ours unless this function asserts INTx (and is unmasked). */
		if (enoc->user_masked || !pci_check_and_mask_intx(enoc->pdev))
			goto out;
		enoc->user_masked = true;
	} else {
		enoc_irq_user_do_mask(enoc, true);
	}
	enoc->user_irq_count++;
	wake_up_interruptible(&owner->wait);
	ret = IRQ_HANDLED;
out:
	spin_unlock(&enoc->files_lock);
	return ret;
}

/* Claims serviced, at most ENOC_CLAIM_BUDGET. */
static unsigned int enoc_service(struct enoc_dev *enoc)
{
	unsigned int n;
	u32 claim;

	for (n = 0; n < ENOC_CLAIM_BUDGET; n++) {
		claim = enoc_rd(enoc, OE_IRQ_CLAIM);
		/* All ones: the device is gone (surprise removal). */
		if (!(claim & OE_IRQ_CLAIM_VALID_MASK) || claim == ~0u)
			break;
		enoc_event_post(enoc, claim);
		if (!enoc_complete(enoc, claim)) {
			dev_warn_ratelimited(&enoc->pdev->dev,
					     "completion of claim %#x not taken\n",
					     claim);
			break;
		}
	}
	return n;
}

static irqreturn_t enoc_irq(int irq, void *data)
{
	struct enoc_dev *enoc = data;

	if (READ_ONCE(enoc->irq_owner)) {
		irqreturn_t ret = enoc_irq_user(enoc);

		/* The owner left between the check and the lock: service. */
		if (ret == IRQ_HANDLED || READ_ONCE(enoc->irq_owner))
			return ret;
	}
	if (!enoc_service(enoc)) {
		enoc->spurious++;
		return IRQ_NONE;
	}
	enoc->irq_count++;
	return IRQ_HANDLED;
}

static unsigned int enoc_irq_flags(struct device *dev)
{
	if (!strcmp(irq_mode, "msix"))
		return PCI_IRQ_MSIX;
	if (!strcmp(irq_mode, "msi"))
		return PCI_IRQ_MSI;
	if (!strcmp(irq_mode, "intx"))
		return PCI_IRQ_LEGACY;
	if (strcmp(irq_mode, "auto"))
		dev_warn(dev, "irq_mode=%s unknown, using auto\n", irq_mode);
	return PCI_IRQ_MSIX | PCI_IRQ_MSI | PCI_IRQ_LEGACY;
}

int enoc_irq_setup(struct enoc_dev *enoc)
{
	struct pci_dev *pdev = enoc->pdev;
	int ret;

	ret = pci_alloc_irq_vectors(pdev, 1, 1, enoc_irq_flags(&pdev->dev));
	if (ret < 0) {
		dev_err(&pdev->dev, "no interrupt (irq_mode=%s): %d\n",
			irq_mode, ret);
		return ret;
	}
	if (pdev->msix_enabled)
		enoc->irq_mode = ENOC_IRQ_MSIX;
	else if (pdev->msi_enabled)
		enoc->irq_mode = ENOC_IRQ_MSI;
	else
		enoc->irq_mode = ENOC_IRQ_INTX;
	enoc->irq = pci_irq_vector(pdev, 0);
	ret = request_irq(enoc->irq, enoc_irq,
			  enoc->irq_mode == ENOC_IRQ_INTX ? IRQF_SHARED : 0,
			  dev_name(&enoc->dev), enoc);
	if (ret) {
		pci_free_irq_vectors(pdev);
		return ret;
	}
	enoc_wr(enoc, OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK);
	return 0;
}

/*
 * Start or end userspace-interrupt mode for file f (enoc->lock held). On
 * the way back the kernel services what the owner left in the FIFO: an
 * edge-triggered vector would not fire again for it.
 */
int enoc_irq_user_set(struct enoc_file *f, bool on)
{
	struct enoc_dev *enoc = f->enoc;
	int ret = 0;

	spin_lock_irq(&enoc->files_lock);
	if (on && enoc->irq_owner && enoc->irq_owner != f) {
		ret = -EBUSY;
	} else if (on) {
		enoc->irq_owner = f;
		f->irq_seen = enoc->user_irq_count;
	} else if (enoc->irq_owner == f) {
		enoc->irq_owner = NULL;
		enoc_irq_user_do_mask(enoc, false);
	} else {
		ret = 1;		/* not the owner: nothing to hand back */
	}
	spin_unlock_irq(&enoc->files_lock);
	if (ret)
		return ret < 0 ? ret : 0;
	/* A kernel-mode handler still running elsewhere is done after this. */
	synchronize_irq(enoc->irq);
	if (!on && enoc->alive) {
		disable_irq(enoc->irq);
		local_irq_disable();
		enoc_service(enoc);
		local_irq_enable();
		enable_irq(enoc->irq);
	}
	return 0;
}

/* write() of the owner: 1 unmasks, 0 masks. */
int enoc_irq_user_mask(struct enoc_file *f, bool mask)
{
	struct enoc_dev *enoc = f->enoc;
	int ret = -EPERM;

	spin_lock_irq(&enoc->files_lock);
	if (enoc->irq_owner == f) {
		enoc_irq_user_do_mask(enoc, mask);
		ret = 0;
	}
	spin_unlock_irq(&enoc->files_lock);
	return ret;
}

bool enoc_irq_user_pending(struct enoc_file *f)
{
	return READ_ONCE(f->enoc->user_irq_count) != f->irq_seen;
}

static bool enoc_irq_user_readable(struct enoc_file *f)
{
	return enoc_irq_user_pending(f) || !READ_ONCE(f->enoc->alive) ||
	       READ_ONCE(f->enoc->irq_owner) != f;
}

/* read() of the owner: the interrupt count once it moved (UIO's rule). */
ssize_t enoc_irq_user_read(struct enoc_file *f, char __user *ubuf, size_t count)
{
	struct enoc_dev *enoc = f->enoc;
	u32 n;
	int ret;

	if (count < sizeof(n))
		return -EINVAL;
	for (;;) {
		spin_lock_irq(&enoc->files_lock);
		n = enoc->user_irq_count;
		ret = enoc->irq_owner != f ? -EPERM : 0;
		if (!ret && n != f->irq_seen)
			f->irq_seen = n;
		else if (!ret)
			ret = -EAGAIN;
		spin_unlock_irq(&enoc->files_lock);
		if (ret != -EAGAIN)
			break;
		if (!READ_ONCE(enoc->alive))
			return -ENODEV;
		if (f->filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(f->wait, enoc_irq_user_readable(f));
		if (ret)
			return ret;
	}
	if (ret)
		return ret;
	return copy_to_user(ubuf, &n, sizeof(n)) ? -EFAULT : sizeof(n);
}

void enoc_irq_teardown(struct enoc_dev *enoc)
{
	/* An owner still holding the file keeps it; the interrupt goes. */
	spin_lock_irq(&enoc->files_lock);
	enoc->irq_owner = NULL;
	enoc_irq_user_do_mask(enoc, false);
	spin_unlock_irq(&enoc->files_lock);
	enoc_wr(enoc, OE_IRQ_CONTROL, 0);
	free_irq(enoc->irq, enoc);
	pci_free_irq_vectors(enoc->pdev);
}
