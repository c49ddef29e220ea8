/*
 * libenoc: opening /dev/enocN, CSR access, the DMA buffer, errors, time.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "enoc.h"

static char last_error[256];

const char *enoc_last_error(void)
{
    return last_error;
}

int enoc_fail(int err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(last_error, sizeof(last_error), fmt, ap);
    va_end(ap);
    return -err;
}

uint64_t enoc_now_us(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000u + ts.tv_nsec / 1000;
}

uint32_t enoc_rd(EnocDev *d, uint32_t off)
{
    return d->csr[off / 4];
}

void enoc_wr(EnocDev *d, uint32_t off, uint32_t val)
{
    d->csr[off / 4] = val;
}

int enoc_info_refresh(EnocDev *d)
{
    if (ioctl(d->fd, ENOC_IOC_INFO, &d->info) < 0) {
        return enoc_fail(errno, "enoc%d: ENOC_IOC_INFO: %s", d->index,
                         strerror(errno));
    }
    return 0;
}

int enoc_open(EnocDev *d, int index)
{
    char path[32];
    void *csr;
    int err;

    memset(d, 0, sizeof(*d));
    d->fd = -1;
    d->index = index;
    snprintf(path, sizeof(path), "/dev/enoc%d", index);
    d->fd = open(path, O_RDWR | O_CLOEXEC);
    if (d->fd < 0) {
        err = errno;
        return enoc_fail(err, "%s: %s%s", path, strerror(err),
                         err == ENOENT ? " (no such endpoint, or openenoc.ko not loaded)" : "");
    }
    err = enoc_info_refresh(d);
    if (err) {
        enoc_close(d);
        return err;
    }
    if (d->info.uapi_version != ENOC_UAPI_VERSION) {
        enoc_close(d);
        return enoc_fail(EPROTO, "%s: driver speaks uapi %u, library %u", path,
                         d->info.uapi_version, ENOC_UAPI_VERSION);
    }
    csr = mmap(NULL, ENOC_CSR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd,
               ENOC_MMAP_CSR);
    if (csr == MAP_FAILED) {
        err = errno;
        enoc_close(d);
        return enoc_fail(err, "%s: mmap of the CSR aperture: %s", path,
                         strerror(err));
    }
    d->csr = csr;
    return 0;
}

void enoc_close(EnocDev *d)
{
    if (d->buf) {
        munmap(d->buf, d->buf_size);
    }
    if (d->csr) {
        munmap((void *)d->csr, ENOC_CSR_SIZE);
    }
    if (d->fd >= 0) {
        close(d->fd);
    }
    d->buf = NULL;
    d->csr = NULL;
    d->fd = -1;
}

int enoc_buf_map(EnocDev *d, uint32_t size)
{
    struct enoc_buf b = { .size = size };
    void *p;
    int err;

    if (d->buf) {
        munmap(d->buf, d->buf_size);
        d->buf = NULL;
    }
    if (ioctl(d->fd, size ? ENOC_IOC_BUF_ALLOC : ENOC_IOC_BUF_GET, &b) < 0) {
        err = errno;
        return enoc_fail(err, "enoc%d: buffer of %u bytes: %s%s", d->index, size,
                         strerror(err),
                         err == EINVAL ? " (too large without openenoc.dma_pool?)" :
                         err == EBUSY ? " (a buffer of another size is mapped)" : "");
    }
    if (!b.size) {
        return enoc_fail(ENOMEM, "enoc%d: no DMA buffer allocated (enocctl buf alloc SIZE)",
                         d->index);
    }
    p = mmap(NULL, b.size, PROT_READ | PROT_WRITE, MAP_SHARED, d->fd,
             b.mmap_offset);
    if (p == MAP_FAILED) {
        err = errno;
        return enoc_fail(err, "enoc%d: mmap of the buffer: %s", d->index,
                         strerror(err));
    }
    d->buf = p;
    d->buf_bus = b.bus;
    d->buf_size = b.size;
    return 0;
}

int enoc_buf_free(EnocDev *d)
{
    if (d->buf) {
        munmap(d->buf, d->buf_size);
        d->buf = NULL;
    }
    if (ioctl(d->fd, ENOC_IOC_BUF_FREE) < 0) {
        return enoc_fail(errno, "enoc%d: free buffer: %s", d->index,
                         strerror(errno));
    }
    return 0;
}

unsigned enoc_num_peers(EnocDev *d)
{
    uint64_t info = (uint64_t)enoc_rd(d, OE_INFO_HI) << 32;
    unsigned n = (info & OE_INFO_NUM_OF_PEERS_MASK) >> OE_INFO_NUM_OF_PEERS_SHIFT;

    /* Only the first peers fit the aperture; never trust a larger value. */
    return n > OE_PEER_COUNT ? OE_PEER_COUNT : n;
}
