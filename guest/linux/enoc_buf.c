// SPDX-License-Identifier: GPL-2.0
/*
 * openenoc DMA buffer: one buffer per endpoint, below 4 GiB, that userspace
 * maps and whose bus address it writes into the local_address /
 * buffer_address CSRs. It belongs to the device rather than to an open file
 * so that successive commands (fill, start DMA, verify) share it.
 *
 * Two sources of memory:
 *  - dma_alloc_coherent (default): up to 4 MiB (the page allocator's largest
 *    block; this kernel has no CMA), at an address the allocator picks;
 *  - the pool (module parameter dma_pool=SIZE@PHYS, memory the kernel was
 *    told to leave alone with memmap=SIZE$PHYS): any size, first fit from
 *    PHYS. Multicast replication needs this: a group DMA write carries one
 *    remote address for every slave, so every slave's window must sit at the
 *    same bus address, which identical boots with the same pool give.
 *
 * Freeing memory the endpoint may still write into would corrupt the guest,
 * as with real hardware: userspace stops its DMA (and remote peers) first.
 * The driver only guarantees that no user mapping outlives the memory.
 */
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "enoc.h"

/* Largest buffer dma_alloc_coherent can return without CMA. */
#define ENOC_BUF_MAX	(PAGE_SIZE << (MAX_ORDER - 1))

static char *dma_pool;
module_param(dma_pool, charp, 0444);
MODULE_PARM_DESC(dma_pool,
		 "SIZE@PHYS: carve buffers from memory reserved with memmap=SIZE$PHYS");

static struct {
	phys_addr_t base;
	size_t size;
	void *cpu;
	struct mutex lock;		/* the per-device slots */
	struct enoc_buf_mem *slot[ENOC_MAX_DEVICES];
} pool = { .lock = __MUTEX_INITIALIZER(pool.lock) };

int enoc_pool_init(void)
{
	char *p;

	if (!dma_pool || !*dma_pool)
		return 0;
	pool.size = memparse(dma_pool, &p);
	if (*p == '@')
		pool.base = memparse(p + 1, &p);
	if (*p || !pool.size || !PAGE_ALIGNED(pool.size) ||
	    !PAGE_ALIGNED(pool.base) || pool.base + pool.size > SZ_4G) {
		pr_err(ENOC_DRV_NAME ": dma_pool=%s: want SIZE@PHYS, page aligned, below 4 GiB\n",
		       dma_pool);
		return -EINVAL;
	}
	pool.cpu = memremap(pool.base, pool.size, MEMREMAP_WB);
	if (!pool.cpu) {
		pr_err(ENOC_DRV_NAME ": dma_pool=%s: cannot map (was memmap= given?)\n",
		       dma_pool);
		return -ENOMEM;
	}
	pr_info(ENOC_DRV_NAME ": DMA pool %zu bytes at %pa\n", pool.size, &pool.base);
	return 0;
}

void enoc_pool_exit(void)
{
	if (pool.cpu)
		memunmap(pool.cpu);
	pool.cpu = NULL;
}

/* Lowest pool offset where size bytes overlap no other device's buffer. */
static bool enoc_pool_fit(size_t size, size_t *off)
{
	size_t cand = 0;
	bool moved;
	int i;

	do {
		moved = false;
		for (i = 0; i < ENOC_MAX_DEVICES; i++) {
			struct enoc_buf_mem *o = pool.slot[i];
			size_t ostart, oend;

			if (!o)
				continue;
			ostart = o->pool_off;
			oend = ostart + o->size;
			if (cand < oend && ostart < cand + size) {
				cand = oend;
				moved = true;
			}
		}
	} while (moved && cand + size <= pool.size);
	*off = cand;
	return cand + size <= pool.size;
}

static int enoc_pool_alloc(struct enoc_dev *enoc, size_t size)
{
	struct enoc_buf_mem *b = &enoc->buf;
	dma_addr_t bus;
	size_t off;
	int ret = -ENOMEM;

	mutex_lock(&pool.lock);
	pool.slot[enoc->index] = NULL;	/* our old buffer may be reused */
	if (!enoc_pool_fit(size, &off))
		goto out;
	bus = dma_map_resource(&enoc->pdev->dev, pool.base + off, size,
			       DMA_BIDIRECTIONAL, 0);
	if (dma_mapping_error(&enoc->pdev->dev, bus))
		goto out;
	b->cpu = pool.cpu + off;
	b->bus = bus;
	b->size = size;
	b->pool_off = off;
	b->pooled = true;
	pool.slot[enoc->index] = b;
	ret = 0;
out:
	mutex_unlock(&pool.lock);
	return ret;
}

/*
 * An armed raw RX channel writes its next frame at the address it was armed
 * with, and nothing but a frame or a hard reset disarms it. If that address
 * is in this buffer, freeing the memory would let the endpoint write into
 * pages the kernel gives to someone else (even after a driver reload, once
 * bus mastering is back on). Such a buffer is kept for good instead. (A
 * pool buffer is freed anyway: the pool is memory the kernel never uses, so
 * the frame can only land in a later buffer of the pool.)
 */
static bool enoc_buf_rx_target(struct enoc_dev *enoc)
{
	struct enoc_buf_mem *b = &enoc->buf;
	u32 st = enoc_rd(enoc, OE_RAW_RX_COMMAND_STATUS), addr;

	/* All ones: the device is gone and writes nothing any more. */
	if (st == ~0u || !(st & OE_RAW_RX_COMMAND_STATUS_ARMED_MASK))
		return false;
	addr = enoc_rd(enoc, OE_RAW_RX_BUFFER_ADDRESS);
	return addr >= b->bus && addr - b->bus < b->size;
}

static void enoc_buf_drop(struct enoc_dev *enoc)
{
	struct enoc_buf_mem *b = &enoc->buf;

	if (!b->pooled && enoc_buf_rx_target(enoc)) {
		dev_warn(&enoc->pdev->dev,
			 "raw RX armed into the buffer at %pad: keeping its %zu bytes\n",
			 &b->bus, b->size);
	} else if (b->pooled) {
		dma_unmap_resource(&enoc->pdev->dev, b->bus, b->size,
				   DMA_BIDIRECTIONAL, 0);
		mutex_lock(&pool.lock);
		pool.slot[enoc->index] = NULL;
		mutex_unlock(&pool.lock);
	} else {
		dma_free_coherent(&enoc->pdev->dev, b->size, b->cpu, b->bus);
	}
	b->pooled = false;
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
	if (!size || size > (pool.cpu ? pool.size : ENOC_BUF_MAX))
		return -EINVAL;
	if (b->cpu && b->size == size)
		return 0;
	if (b->map_count)
		return -EBUSY;
	if (pool.cpu) {
		if (b->cpu)
			enoc_buf_drop(enoc);
		return enoc_pool_alloc(enoc, size);
	}
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
	if (b->pooled)
		/* x86 DMA is cache coherent: a normal write-back mapping. */
		ret = remap_pfn_range(vma, vma->vm_start,
				      PHYS_PFN(pool.base + b->pool_off) + vma->vm_pgoff,
				      len, vma->vm_page_prot);
	else
		ret = dma_mmap_coherent(&enoc->pdev->dev, vma, b->cpu, b->bus,
					b->size);
	if (ret)
		return ret;
	vma->vm_private_data = enoc;
	vma->vm_ops = &enoc_buf_vm_ops;
	get_device(&enoc->dev);
	b->map_count++;
	return 0;
}
