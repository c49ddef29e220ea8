// SPDX-License-Identifier: GPL-2.0
/*
 * openenoc character devices /dev/enocN: CSR and buffer mmap, event
 * read/poll, ioctls (include/openenoc/uapi_enoc.h).
 */
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "enoc.h"

static dev_t enoc_devt;
static struct class *enoc_class;
static DEFINE_IDA(enoc_ida);

/* After remove() revoked a mapping, an access is a bus error. */
vm_fault_t enoc_vm_sigbus(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static void enoc_csr_vm_open(struct vm_area_struct *vma)
{
	struct enoc_dev *enoc = vma->vm_private_data;

	get_device(&enoc->dev);
}

static void enoc_csr_vm_close(struct vm_area_struct *vma)
{
	struct enoc_dev *enoc = vma->vm_private_data;

	put_device(&enoc->dev);
}

static const struct vm_operations_struct enoc_csr_vm_ops = {
	.open = enoc_csr_vm_open,
	.close = enoc_csr_vm_close,
	.fault = enoc_vm_sigbus,
};

static int enoc_csr_mmap(struct enoc_dev *enoc, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	resource_size_t base = pci_resource_start(enoc->pdev, 0);
	int ret;

	if (vma->vm_pgoff || len > ENOC_CSR_SIZE)
		return -EINVAL;
	vma->vm_flags |= VM_IO | VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_page_prot = pgprot_noncached(vma->vm_page_prot);
	ret = io_remap_pfn_range(vma, vma->vm_start, base >> PAGE_SHIFT, len,
				 vma->vm_page_prot);
	if (ret)
		return ret;
	vma->vm_private_data = enoc;
	vma->vm_ops = &enoc_csr_vm_ops;
	get_device(&enoc->dev);
	return 0;
}

static int enoc_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct enoc_file *f = filp->private_data;
	struct enoc_dev *enoc = f->enoc;
	const unsigned long buf_pg = ENOC_MMAP_BUF >> PAGE_SHIFT;
	int ret;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	mutex_lock(&enoc->lock);
	if (!enoc->alive) {
		ret = -ENODEV;
	} else if (vma->vm_pgoff < buf_pg) {
		ret = enoc_csr_mmap(enoc, vma);
	} else {
		vma->vm_pgoff -= buf_pg;
		ret = enoc_buf_mmap(enoc, vma);
	}
	mutex_unlock(&enoc->lock);
	return ret;
}

static int enoc_open(struct inode *inode, struct file *filp)
{
	struct enoc_dev *enoc = container_of(inode->i_cdev, struct enoc_dev, cdev);
	struct enoc_file *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	f->enoc = enoc;
	f->filp = filp;
	INIT_KFIFO(f->events);
	init_waitqueue_head(&f->wait);

	mutex_lock(&enoc->lock);
	if (!enoc->alive) {
		mutex_unlock(&enoc->lock);
		kfree(f);
		return -ENODEV;
	}
	get_device(&enoc->dev);
	spin_lock_irq(&enoc->files_lock);
	list_add_tail(&f->node, &enoc->files);
	spin_unlock_irq(&enoc->files_lock);
	mutex_unlock(&enoc->lock);

	filp->private_data = f;
	return nonseekable_open(inode, filp);
}

static int enoc_release(struct inode *inode, struct file *filp)
{
	struct enoc_file *f = filp->private_data;
	struct enoc_dev *enoc = f->enoc;

	mutex_lock(&enoc->lock);
	enoc_irq_user_set(f, false);
	spin_lock_irq(&enoc->files_lock);
	list_del(&f->node);
	spin_unlock_irq(&enoc->files_lock);
	mutex_unlock(&enoc->lock);
	kfree(f);
	put_device(&enoc->dev);
	return 0;
}

static bool enoc_readable(struct enoc_file *f)
{
	return !kfifo_is_empty(&f->events) || !READ_ONCE(f->enoc->alive);
}

static ssize_t enoc_read(struct file *filp, char __user *ubuf, size_t count,
			 loff_t *ppos)
{
	struct enoc_file *f = filp->private_data;
	struct enoc_dev *enoc = f->enoc;
	struct enoc_event ev[16];
	unsigned int n;
	int ret;

	if (READ_ONCE(enoc->irq_owner) == f)
		return enoc_irq_user_read(f, ubuf, count);
	if (count < sizeof(ev[0]))
		return -EINVAL;
	count = min_t(size_t, count / sizeof(ev[0]), ARRAY_SIZE(ev));
	for (;;) {
		spin_lock_irq(&enoc->files_lock);
		n = kfifo_out(&f->events, ev, count);
		if (n && f->lost) {
			ev[0].flags |= ENOC_EVENT_LOST_BEFORE;
			f->lost = false;
		}
		spin_unlock_irq(&enoc->files_lock);
		if (n)
			break;
		if (!READ_ONCE(enoc->alive))
			return -ENODEV;
		if (filp->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(f->wait, enoc_readable(f));
		if (ret)
			return ret;
	}
	if (copy_to_user(ubuf, ev, n * sizeof(ev[0])))
		return -EFAULT;
	return n * sizeof(ev[0]);
}

/* The owner in userspace-interrupt mode writes 1 to unmask, 0 to mask. */
static ssize_t enoc_write(struct file *filp, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	struct enoc_file *f = filp->private_data;
	u32 v;
	int ret;

	if (count != sizeof(v))
		return -EINVAL;
	if (copy_from_user(&v, ubuf, sizeof(v)))
		return -EFAULT;
	if (v > 1)
		return -EINVAL;
	if (!READ_ONCE(f->enoc->alive))
		return -ENODEV;
	ret = enoc_irq_user_mask(f, !v);
	return ret ? ret : sizeof(v);
}

static __poll_t enoc_poll(struct file *filp, poll_table *wait)
{
	struct enoc_file *f = filp->private_data;
	__poll_t mask = 0;

	poll_wait(filp, &f->wait, wait);
	if (!kfifo_is_empty(&f->events) || enoc_irq_user_pending(f))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (!READ_ONCE(f->enoc->alive))
		mask |= EPOLLHUP | EPOLLERR;
	return mask;
}

static void enoc_fill_info(struct enoc_dev *enoc, struct enoc_info *info)
{
	struct pci_dev *pdev = enoc->pdev;

	memset(info, 0, sizeof(*info));
	info->uapi_version = ENOC_UAPI_VERSION;
	info->index = enoc->index;
	strscpy(info->pci_name, pci_name(pdev), sizeof(info->pci_name));
	info->vendor = pdev->vendor;
	info->device = pdev->device;
	info->revision = pdev->revision;
	info->irq_mode = enoc->irq_mode;
	info->irq = enoc->irq;
	info->csr_size = ENOC_CSR_SIZE;
	info->csr_phys = pci_resource_start(pdev, 0);
	info->buf_size = enoc->buf.size;
	info->buf_bus = enoc->buf.bus;
	spin_lock_irq(&enoc->files_lock);
	info->irq_count = enoc->irq_count;
	info->event_count = enoc->event_count;
	info->spurious = enoc->spurious;
	spin_unlock_irq(&enoc->files_lock);
}

static long enoc_ioctl_locked(struct enoc_file *f, unsigned int cmd,
			      void __user *arg)
{
	struct enoc_dev *enoc = f->enoc;
	struct enoc_info info;
	struct enoc_buf b;
	u32 on;
	int ret;

	switch (cmd) {
	case ENOC_IOC_INFO:
		enoc_fill_info(enoc, &info);
		return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
	case ENOC_IOC_BUF_ALLOC:
		if (copy_from_user(&b, arg, sizeof(b)))
			return -EFAULT;
		ret = enoc_buf_alloc(enoc, b.size);
		if (ret)
			return ret;
		fallthrough;
	case ENOC_IOC_BUF_GET:
		b.size = enoc->buf.size;
		b.bus = enoc->buf.bus;
		b.mmap_offset = ENOC_MMAP_BUF;
		return copy_to_user(arg, &b, sizeof(b)) ? -EFAULT : 0;
	case ENOC_IOC_BUF_FREE:
		return enoc_buf_free(enoc);
	case ENOC_IOC_IRQ_USER:
		if (copy_from_user(&on, arg, sizeof(on)))
			return -EFAULT;
		if (on > 1)
			return -EINVAL;
		return enoc_irq_user_set(f, on);
	default:
		return -ENOTTY;
	}
}

static long enoc_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	struct enoc_file *f = filp->private_data;
	struct enoc_dev *enoc = f->enoc;
	long ret;

	mutex_lock(&enoc->lock);
	ret = enoc->alive ? enoc_ioctl_locked(f, cmd, (void __user *)arg) :
			    -ENODEV;
	mutex_unlock(&enoc->lock);
	return ret;
}

static const struct file_operations enoc_fops = {
	.owner = THIS_MODULE,
	.open = enoc_open,
	.release = enoc_release,
	.read = enoc_read,
	.write = enoc_write,
	.poll = enoc_poll,
	.mmap = enoc_mmap,
	.unlocked_ioctl = enoc_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = no_llseek,
};

static void enoc_dev_release(struct device *dev)
{
	struct enoc_dev *enoc = container_of(dev, struct enoc_dev, dev);

	ida_free(&enoc_ida, enoc->index);
	kfree(enoc);
}

/*
 * A new endpoint struct owned by its embedded device: the caller drops it
 * with put_device(), which frees it through enoc_dev_release().
 */
struct enoc_dev *enoc_dev_alloc(struct pci_dev *pdev)
{
	struct enoc_dev *enoc;
	int index, ret;

	index = ida_alloc_max(&enoc_ida, ENOC_MAX_DEVICES - 1, GFP_KERNEL);
	if (index < 0)
		return ERR_PTR(index);
	enoc = kzalloc(sizeof(*enoc), GFP_KERNEL);
	if (!enoc) {
		ida_free(&enoc_ida, index);
		return ERR_PTR(-ENOMEM);
	}
	enoc->pdev = pdev;
	enoc->index = index;
	mutex_init(&enoc->lock);
	spin_lock_init(&enoc->files_lock);
	INIT_LIST_HEAD(&enoc->files);
	enoc->alive = true;
	device_initialize(&enoc->dev);
	enoc->dev.class = enoc_class;
	enoc->dev.parent = &pdev->dev;
	enoc->dev.devt = MKDEV(MAJOR(enoc_devt), index);
	enoc->dev.release = enoc_dev_release;
	ret = dev_set_name(&enoc->dev, "enoc%d", index);
	if (ret) {
		put_device(&enoc->dev);
		return ERR_PTR(ret);
	}
	cdev_init(&enoc->cdev, &enoc_fops);
	enoc->cdev.owner = THIS_MODULE;
	return enoc;
}

/* Publishes /dev/enocN; on failure the caller still holds its reference. */
int enoc_cdev_add(struct enoc_dev *enoc)
{
	return cdev_device_add(&enoc->cdev, &enoc->dev);
}

/*
 * No new opens or mappings; existing ones are revoked; readers woken. The
 * buffer stays until the endpoint is quiet (enoc_remove).
 */
void enoc_cdev_del(struct enoc_dev *enoc)
{
	struct enoc_file *f;

	cdev_device_del(&enoc->cdev, &enoc->dev);
	mutex_lock(&enoc->lock);
	WRITE_ONCE(enoc->alive, false);
	/* The list only changes under enoc->lock plus files_lock. */
	list_for_each_entry(f, &enoc->files, node) {
		unmap_mapping_range(f->filp->f_mapping, 0, 0, 1);
		wake_up_interruptible(&f->wait);
	}
	mutex_unlock(&enoc->lock);
}

int enoc_cdev_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&enoc_devt, 0, ENOC_MAX_DEVICES, ENOC_DRV_NAME);
	if (ret)
		return ret;
	enoc_class = class_create(THIS_MODULE, ENOC_DRV_NAME);
	if (IS_ERR(enoc_class)) {
		unregister_chrdev_region(enoc_devt, ENOC_MAX_DEVICES);
		return PTR_ERR(enoc_class);
	}
	return 0;
}

void enoc_cdev_exit(void)
{
	class_destroy(enoc_class);
	unregister_chrdev_region(enoc_devt, ENOC_MAX_DEVICES);
}
