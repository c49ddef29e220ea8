// SPDX-License-Identifier: GPL-2.0
/*
 * openenoc: Linux driver for the emulated openENOC endpoint (QEMU device
 * "openenoc", spec/pci-device.md). PCI probe/remove and module entry.
 *
 * The driver stays thin on purpose: the endpoint is programmed from
 * userspace through the mapped CSR aperture (guest/lib). The kernel does
 * only what userspace cannot: bus-mastering DMA memory below 4 GiB,
 * interrupt delivery (claim/complete of the IRQ FIFO) and lifetime.
 */
#include <linux/bitfield.h>
#include <linux/module.h>

#include "enoc.h"

/*
 * The endpoint's state outlives the driver: a peer entry the last user left
 * in mode 2 or 3 keeps accepting remote DMA into a window that is no longer
 * ours, and an armed raw RX writes its next frame into the old buffer. The
 * FPGA endpoint has no software reset; the QEMU model offers a function level
 * reset (PCI Advanced Features capability) that is its hard reset, so probe
 * and remove reset the function when they can. Where that fails they still
 * leave it quiet: every peer entry disabled (a pending request withdrawn),
 * no event enabled; an armed raw RX cannot be withdrawn without a reset, so
 * enoc_buf.c keeps its buffer rather than free it.
 */
static void enoc_quiesce(struct enoc_dev *enoc)
{
	u64 info = (u64)enoc_rd(enoc, OE_INFO_HI) << 32;
	unsigned int n, peers;

	/* probe and remove run under the device lock, hence _locked */
	if (!pci_reset_function_locked(enoc->pdev))
		return;
	peers = min_t(unsigned int, FIELD_GET(OE_INFO_NUM_OF_PEERS_MASK, info),
		      OE_PEER_COUNT);
	enoc_wr(enoc, OE_IRQ_EVENT_ENABLE, 0);
	for (n = 0; n < peers; n++)
		enoc_wr(enoc, OE_PEER_DMA(n), 0);
}

static int enoc_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct enoc_dev *enoc;
	u64 info;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	if (pci_resource_len(pdev, 0) < ENOC_CSR_SIZE ||
	    !(pci_resource_flags(pdev, 0) & IORESOURCE_MEM)) {
		dev_err(&pdev->dev, "BAR0 is not an 8 KiB memory BAR\n");
		return -ENODEV;
	}
	ret = pcim_iomap_regions(pdev, BIT(0), ENOC_DRV_NAME);
	if (ret)
		return ret;
	/* CSR address fields are 32 bits wide: every buffer below 4 GiB. */
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(32));
	if (ret) {
		dev_err(&pdev->dev, "no 32-bit DMA available\n");
		return ret;
	}
	pci_set_master(pdev);

	/* From here on the struct belongs to its embedded device: put_device(). */
	enoc = enoc_dev_alloc(pdev);
	if (IS_ERR(enoc))
		return PTR_ERR(enoc);
	enoc->csr = pcim_iomap_table(pdev)[0];
	pci_set_drvdata(pdev, enoc);
	enoc_quiesce(enoc);
	if (enoc_rd(enoc, OE_RAW_RX_COMMAND_STATUS) & OE_RAW_RX_COMMAND_STATUS_ARMED_MASK)
		dev_warn(&pdev->dev,
			 "raw RX still armed by an earlier user: the next frame lands at %#x\n",
			 enoc_rd(enoc, OE_RAW_RX_BUFFER_ADDRESS));

	/* The interrupt works before anyone can open the device. */
	ret = enoc_irq_setup(enoc);
	if (ret)
		goto err_put;
	ret = enoc_cdev_add(enoc);
	if (ret)
		goto err_irq;

	info = enoc_rd(enoc, OE_INFO) | (u64)enoc_rd(enoc, OE_INFO_HI) << 32;
	dev_info(&pdev->dev,
		 "enoc%d: %u peers, RMEM %u words, max frame %u, irq %s%s\n",
		 enoc->index, (u32)FIELD_GET(OE_INFO_NUM_OF_PEERS_MASK, info),
		 (u32)FIELD_GET(OE_INFO_RMEM_TOTAL_DEPTH_MASK, info),
		 (u32)FIELD_GET(OE_INFO_MAX_DMA_FRAME_SIZE_BYTES_MASK, info),
		 enoc->irq_mode == ENOC_IRQ_MSIX ? "MSI-X" :
		 enoc->irq_mode == ENOC_IRQ_MSI ? "MSI" : "INTx",
		 enoc_rd(enoc, ENOC_MODEL_MAGIC_OFF) == ENOC_MODEL_MAGIC ?
		 "" : " (no model ID block)");
	return 0;

err_irq:
	enoc_irq_teardown(enoc);
err_put:
	put_device(&enoc->dev);
	return ret;
}

/* probe in reverse: users lose the device, the IRQ goes, the endpoint goes quiet. */
static void enoc_remove(struct pci_dev *pdev)
{
	struct enoc_dev *enoc = pci_get_drvdata(pdev);

	enoc_cdev_del(enoc);
	enoc_irq_teardown(enoc);
	/*
	 * The endpoint stops touching memory before its buffer is freed: a
	 * remote peer may still be writing into our window, and a raw RX may
	 * be armed. Without bus mastering those accesses fail as DECERR.
	 */
	pci_clear_master(pdev);
	enoc_quiesce(enoc);
	mutex_lock(&enoc->lock);
	enoc_buf_release(enoc);
	mutex_unlock(&enoc->lock);
	put_device(&enoc->dev);
}

static const struct pci_device_id enoc_ids[] = {
	{ PCI_DEVICE(ENOC_PCI_VENDOR_ID, ENOC_PCI_DEVICE_ID) },
	{ }
};
MODULE_DEVICE_TABLE(pci, enoc_ids);

static struct pci_driver enoc_driver = {
	.name = ENOC_DRV_NAME,
	.id_table = enoc_ids,
	.probe = enoc_probe,
	.remove = enoc_remove,
};

static int __init enoc_init(void)
{
	int ret;

	ret = enoc_pool_init();
	if (ret)
		return ret;
	ret = enoc_cdev_init();
	if (ret)
		goto err_pool;
	ret = pci_register_driver(&enoc_driver);
	if (ret)
		goto err_cdev;
	return 0;

err_cdev:
	enoc_cdev_exit();
err_pool:
	enoc_pool_exit();
	return ret;
}

static void __exit enoc_exit(void)
{
	pci_unregister_driver(&enoc_driver);
	enoc_cdev_exit();
	enoc_pool_exit();
}

module_init(enoc_init);
module_exit(enoc_exit);

MODULE_DESCRIPTION("openENOC endpoint (emulated PCI device openenoc)");
MODULE_LICENSE("GPL");
