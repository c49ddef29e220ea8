// SPDX-License-Identifier: GPL-2.0
/*
 * openenoc interrupts: MSI-X, else MSI, else INTx; the handler drains the
 * endpoint's claim FIFO (read claim, queue the event to every reader, write
 * the claim back into complete) so that the level drops and the credits are
 * free for the next operations.
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

static irqreturn_t enoc_irq(int irq, void *data)
{
	struct enoc_dev *enoc = data;
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
	if (!n) {
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

void enoc_irq_teardown(struct enoc_dev *enoc)
{
	enoc_wr(enoc, OE_IRQ_CONTROL, 0);
	free_irq(enoc->irq, enoc);
	pci_free_irq_vectors(enoc->pdev);
}
