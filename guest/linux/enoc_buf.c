// SPDX-License-Identifier: GPL-2.0
/*
 * openenoc DMA buffer: one coherent buffer per endpoint, below 4 GiB, that
 * userspace maps and whose bus address it writes into the local_address /
 * buffer_address CSRs. It belongs to the device rather than to an open file
 * so that successive commands (fill, start DMA, verify) share it.
 *
 * Freeing memory the endpoint may still write into would corrupt the guest,
 * as with real hardware: userspace stops its DMA (and remote peers) first.
 * The driver only guarantees that no user mapping outlives the memory.
 */
#include <linux/dma-mapping.h>
#include <linux/mm.h>

#include "enoc.h"

/* Largest buffer dma_alloc_coherent can return without CMA. */
#define ENOC_BUF_MAX	(PAGE_SIZE << (MAX_ORDER - 1))

static void enoc_buf_drop(struct enoc_dev *enoc)
{
	struct enoc_buf_mem *b = &enoc->buf;

	dma_free_coherent(&enoc->pdev->dev, b->size, b->cpu, b->bus);
	b->cpu = NULL;
	b->bus = 0;
	b->size = 0;
}

/* Called with enoc->lock held. */
int enoc_buf_alloc(struct enoc_dev *enoc, size_t size)
{
	struct enoc_buf_mem *b = &enoc->buf;
	void *cpu;
	dma_addr_t bus;

	size = PAGE_ALIGN(size);
	if (!size || size > ENOC_BUF_MAX)
		return -EINVAL;
	if (b->cpu && b->size == size)
		return 0;
	if (b->map_count)
		return -EBUSY;
	cpu = dma_alloc_coherent(&enoc->pdev->dev, size, &bus,
				 GFP_KERNEL | __GFP_NOWARN);
	if (!cpu)
		return -ENOMEM;
	if (b->cpu)
		enoc_buf_drop(enoc);
	b->cpu = cpu;
	b->bus = bus;
	b->size = size;
	return 0;
}

/* Called with enoc->lock held. */
int enoc_buf_free(struct enoc_dev *enoc)
{
	if (enoc->buf.map_count)
		return -EBUSY;
	if (enoc->buf.cpu)
		enoc_buf_drop(enoc);
	return 0;
}

/* Device going away; mappings were revoked already. Lock held. */
void enoc_buf_release(struct enoc_dev *enoc)
{
	if (enoc->buf.cpu)
		enoc_buf_drop(enoc);
}

static void enoc_buf_vm_open(struct vm_area_struct *vma)
{
	struct enoc_dev *enoc = vma->vm_private_data;

	get_device(&enoc->dev);
	mutex_lock(&enoc->lock);
	enoc->buf.map_count++;
	mutex_unlock(&enoc->lock);
}

static void enoc_buf_vm_close(struct vm_area_struct *vma)
{
	struct enoc_dev *enoc = vma->vm_private_data;

	mutex_lock(&enoc->lock);
	/* The count restarts at 0 when remove() released the buffer. */
	if (enoc->buf.map_count)
		enoc->buf.map_count--;
	mutex_unlock(&enoc->lock);
	put_device(&enoc->dev);
}

static const struct vm_operations_struct enoc_buf_vm_ops = {
	.open = enoc_buf_vm_open,
	.close = enoc_buf_vm_close,
	.fault = enoc_vm_sigbus,
};

/* Called with enoc->lock held; vm_pgoff is relative to ENOC_MMAP_BUF. */
int enoc_buf_mmap(struct enoc_dev *enoc, struct vm_area_struct *vma)
{
	struct enoc_buf_mem *b = &enoc->buf;
	unsigned long len = vma->vm_end - vma->vm_start;
	int ret;

	if (!b->cpu)
		return -ENOMEM;
	if (vma->vm_pgoff > b->size >> PAGE_SHIFT ||
	    len > b->size - (vma->vm_pgoff << PAGE_SHIFT))
		return -EINVAL;
	vma->vm_flags |= VM_DONTEXPAND | VM_DONTDUMP;
	ret = dma_mmap_coherent(&enoc->pdev->dev, vma, b->cpu, b->bus, b->size);
	if (ret)
		return ret;
	vma->vm_private_data = enoc;
	vma->vm_ops = &enoc_buf_vm_ops;
	get_device(&enoc->dev);
	b->map_count++;
	return 0;
}
