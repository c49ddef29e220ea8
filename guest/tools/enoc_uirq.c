/*
 * enoc-uirq: firmware-style interrupt service from Linux userspace.
 *
 * The endpoint's CSRs are mapped and its IRQ claim FIFO is serviced by this
 * process, as a bare-metal HAL's interrupt routine does (read claim while
 * valid, handle, write the claim into complete, wait for it to be taken).
 * An IRQ thread takes the place of the CPU's interrupt entry: it sleeps
 * until the kernel signals an interrupt, runs the service routine, and
 * unmasks. Three routes give the mapping and the signal:
 *   enoc   /dev/enocN in the driver's userspace-interrupt mode
 *          (ENOC_IOC_IRQ_USER): read()/write() of a counter, as UIO;
 *   uio    uio_pci_generic: /dev/uioN for the signal, BAR0 through sysfs
 *          resource0, INTx unmasked through the command register;
 *   vfio   vfio-pci (no-IOMMU mode here): BAR0 from the device fd, bus
 *          mastering on (an MSI-X message is a memory write), MSI-X vector 0
 *          on an eventfd (VFIO_DEVICE_SET_IRQS).
 * The test is an IRQ storm: COUNT direct-stream frames with the direct-TX
 * completion event enabled, sent as fast as the endpoint takes them. Every
 * frame must give exactly one claim, with consecutive sequence numbers, and
 * the endpoint must report no FIFO overflow and no invalid completion.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/vfio.h>

#include "cli.h"
#include "enoc.h"

static const char usage[] =
    "usage: enoc-uirq --route enoc|uio|vfio --dev DEV [--count N] [--size BYTES]\n"
    "                 [--timeout MS]\n"
    "Service the endpoint's IRQ claim FIFO from this process (an IRQ thread\n"
    "in place of the CPU's interrupt entry) during a storm of direct-TX\n"
    "completion events, and check that none is lost.\n"
    "  --route enoc  DEV is N of /dev/enocN (openenoc.ko, userspace-interrupt mode)\n"
    "  --route uio   DEV is N of /dev/uioN (uio_pci_generic, INTx)\n"
    "  --route vfio  DEV is the PCI name, e.g. 0000:00:03.0 (vfio-pci, MSI-X)\n"
    "  --count N     frames, hence events (default 1000)\n"
    "  --size BYTES  frame length (default 60)\n"
    "  --timeout MS  longest wait for one interrupt (default 10000)\n"
    "Prints one result line; exits 0 when every event arrived exactly once.\n";

typedef struct Route {
    const char *name;
    EnocDev dev;                /* csr mapped; fd unused by the HAL calls */
    int irq_fd;                 /* poll()able signal */
    int cfg_fd;                 /* uio: PCI config space */
    int container, group;       /* vfio */
    int (*ack)(struct Route *r);        /* consume the signal */
    int (*unmask)(struct Route *r);
} Route;

/* What the service routine saw; written by the IRQ thread only. */
typedef struct Service {
    Route *r;
    unsigned want;
    int timeout_ms;
    unsigned events, irqs, gaps, bad_source, not_taken;
    int expect_seq;             /* -1 until the first claim */
    atomic_bool stop;
    int err;                    /* 0, or the errno of a failed wait */
} Service;

/* ---- routes ---- */

static int read_counter(Route *r)
{
    uint32_t n;

    return read(r->irq_fd, &n, sizeof(n)) == sizeof(n) ? 0 : -errno;
}

static int write_one(Route *r)
{
    uint32_t one = 1;

    return write(r->irq_fd, &one, sizeof(one)) == sizeof(one) ? 0 : -errno;
}

static int read_eventfd(Route *r)
{
    uint64_t n;

    return read(r->irq_fd, &n, sizeof(n)) == sizeof(n) ? 0 : -errno;
}

static int no_unmask(Route *r)
{
    return 0;       /* MSI-X through VFIO is edge-triggered, never masked */
}

/* uio_pci_generic masked INTx in the command register: clear Interrupt
 * Disable (bit 10, bit 2 of the high byte) again. */
static int uio_unmask(Route *r)
{
    uint8_t hi;

    if (pread(r->cfg_fd, &hi, 1, 5) != 1) {
        return -errno;
    }
    hi &= ~0x4;
    return pwrite(r->cfg_fd, &hi, 1, 5) == 1 ? 0 : -errno;
}

static volatile uint32_t *map_csr(int fd, off_t off, const char *what)
{
    void *p = mmap(NULL, ENOC_CSR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);

    if (p == MAP_FAILED) {
        cli_die("mmap of BAR0 through %s: %s", what, strerror(errno));
    }
    return p;
}

static void open_enoc(Route *r, const char *dev)
{
    uint32_t on = 1;

    cli_check(enoc_open(&r->dev, (int)cli_num("--dev", dev, 63)));
    if (ioctl(r->dev.fd, ENOC_IOC_IRQ_USER, &on) < 0) {
        cli_die("ENOC_IOC_IRQ_USER: %s", strerror(errno));
    }
    r->irq_fd = r->dev.fd;
    r->ack = read_counter;
    r->unmask = write_one;
}

static void open_uio(Route *r, const char *dev)
{
    char path[96];
    int fd;

    snprintf(path, sizeof(path), "/dev/uio%s", dev);
    r->irq_fd = open(path, O_RDWR | O_CLOEXEC);
    if (r->irq_fd < 0) {
        cli_die("%s: %s", path, strerror(errno));
    }
    snprintf(path, sizeof(path), "/sys/class/uio/uio%s/device/config", dev);
    r->cfg_fd = open(path, O_RDWR | O_CLOEXEC);
    if (r->cfg_fd < 0) {
        cli_die("%s: %s", path, strerror(errno));
    }
    snprintf(path, sizeof(path), "/sys/class/uio/uio%s/device/resource0", dev);
    fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
    if (fd < 0) {
        cli_die("%s: %s", path, strerror(errno));
    }
    r->dev.csr = map_csr(fd, 0, path);
    close(fd);
    r->ack = read_counter;
    r->unmask = uio_unmask;
}

static void vfio_ioctl(int fd, unsigned long req, void *arg, const char *what)
{
    if (ioctl(fd, req, arg) < 0) {
        cli_die("%s: %s", what, strerror(errno));
    }
}

static void open_vfio(Route *r, const char *pci)
{
    struct vfio_group_status st = { .argsz = sizeof(st) };
    struct vfio_region_info reg = { .argsz = sizeof(reg) };
    char path[128], link[PATH_MAX];
    struct vfio_irq_set *set;
    char setbuf[sizeof(*set) + sizeof(int)] __attribute__((aligned(8)));
    uint16_t cmd;
    ssize_t n;
    int devfd, efd;

    snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group", pci);
    n = readlink(path, link, sizeof(link) - 1);
    if (n < 0) {
        cli_die("%s: %s (is the device bound to vfio-pci?)", path, strerror(errno));
    }
    link[n] = 0;
    /* Without an IOMMU, vfio-pci names the group noiommu-N. */
    snprintf(path, sizeof(path), "/dev/vfio/noiommu-%s", strrchr(link, '/') + 1);
    r->group = open(path, O_RDWR | O_CLOEXEC);
    if (r->group < 0) {
        snprintf(path, sizeof(path), "/dev/vfio/%s", strrchr(link, '/') + 1);
        r->group = open(path, O_RDWR | O_CLOEXEC);
    }
    if (r->group < 0) {
        cli_die("%s: %s", path, strerror(errno));
    }
    r->container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
    if (r->container < 0) {
        cli_die("/dev/vfio/vfio: %s", strerror(errno));
    }
    vfio_ioctl(r->group, VFIO_GROUP_GET_STATUS, &st, "VFIO_GROUP_GET_STATUS");
    if (!(st.flags & VFIO_GROUP_FLAGS_VIABLE)) {
        cli_die("%s: group not viable (every device of it must be bound to vfio-pci)", path);
    }
    vfio_ioctl(r->group, VFIO_GROUP_SET_CONTAINER, &r->container, "VFIO_GROUP_SET_CONTAINER");
    if (ioctl(r->container, VFIO_SET_IOMMU, VFIO_NOIOMMU_IOMMU) < 0 &&
        ioctl(r->container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU) < 0) {
        cli_die("VFIO_SET_IOMMU: %s", strerror(errno));
    }
    devfd = ioctl(r->group, VFIO_GROUP_GET_DEVICE_FD, pci);
    if (devfd < 0) {
        cli_die("VFIO_GROUP_GET_DEVICE_FD %s: %s", pci, strerror(errno));
    }
    reg.index = VFIO_PCI_BAR0_REGION_INDEX;
    vfio_ioctl(devfd, VFIO_DEVICE_GET_REGION_INFO, &reg, "VFIO_DEVICE_GET_REGION_INFO");
    if (reg.size < ENOC_CSR_SIZE || !(reg.flags & VFIO_REGION_INFO_FLAG_MMAP)) {
        cli_die("BAR0: %llu bytes, flags %#x: not a mappable CSR aperture",
                (unsigned long long)reg.size, reg.flags);
    }
    r->dev.csr = map_csr(devfd, (off_t)reg.offset, "vfio");
    /* MSI-X messages are memory writes of the device: without Bus Master
     * Enable they never leave it. vfio-pci leaves the bit to userspace. */
    reg = (struct vfio_region_info){ .argsz = sizeof(reg),
                                     .index = VFIO_PCI_CONFIG_REGION_INDEX };
    vfio_ioctl(devfd, VFIO_DEVICE_GET_REGION_INFO, &reg, "VFIO_DEVICE_GET_REGION_INFO (config)");
    if (pread(devfd, &cmd, 2, (off_t)reg.offset + 4) != 2) {
        cli_die("reading the command register: %s", strerror(errno));
    }
    cmd |= 0x4;
    if (pwrite(devfd, &cmd, 2, (off_t)reg.offset + 4) != 2) {
        cli_die("setting Bus Master Enable: %s", strerror(errno));
    }

    efd = eventfd(0, EFD_CLOEXEC);
    if (efd < 0) {
        cli_die("eventfd: %s", strerror(errno));
    }
    set = (struct vfio_irq_set *)setbuf;
    *set = (struct vfio_irq_set){
        .argsz = sizeof(setbuf),
        .flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER,
        .index = VFIO_PCI_MSIX_IRQ_INDEX,
        .start = 0,
        .count = 1,
    };
    memcpy(set->data, &efd, sizeof(efd));
    vfio_ioctl(devfd, VFIO_DEVICE_SET_IRQS, set, "VFIO_DEVICE_SET_IRQS (MSI-X)");
    r->irq_fd = efd;
    r->ack = read_eventfd;
    r->unmask = no_unmask;
}

/* ---- the HAL's interrupt service routine and the thread that runs it ---- */

static void service_fifo(Service *s)
{
    EnocDev *d = &s->r->dev;
    uint32_t claim;

    while ((claim = enoc_rd(d, OE_IRQ_CLAIM)) & OE_IRQ_CLAIM_VALID_MASK) {
        unsigned seq = (claim & OE_IRQ_CLAIM_SEQUENCE_MASK) >> OE_IRQ_CLAIM_SEQUENCE_SHIFT;
        unsigned src = (claim & OE_IRQ_CLAIM_SOURCE_MASK) >> OE_IRQ_CLAIM_SOURCE_SHIFT;
        unsigned polls = 0;

        if (s->expect_seq >= 0 && seq != (unsigned)s->expect_seq) {
            s->gaps++;
        }
        s->expect_seq = (seq + 1) & 0xffff;
        if (src != ENOC_SRC_DIRECT_TX) {
            s->bad_source++;
        }
        s->events++;
        enoc_wr(d, OE_IRQ_COMPLETE, claim);
        while (enoc_rd(d, OE_IRQ_COMPLETE) & OE_IRQ_COMPLETE_VALID_MASK) {
            if (++polls == 100000) {
                s->not_taken++;
                return;
            }
        }
    }
}

static void *irq_thread(void *arg)
{
    Service *s = arg;
    struct pollfd pfd = { .fd = s->r->irq_fd, .events = POLLIN };

    /* Entries queued before this thread took over are ours too. */
    service_fifo(s);
    while (!atomic_load(&s->stop) && s->events < s->want) {
        int n = poll(&pfd, 1, s->timeout_ms);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            s->err = n ? errno : ETIMEDOUT;
            break;
        }
        if ((s->err = -s->r->ack(s->r))) {
            break;
        }
        s->irqs++;
        service_fifo(s);
        if ((s->err = -s->r->unmask(s->r))) {
            break;
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "route", required_argument, NULL, 'r' },
        { "dev", required_argument, NULL, 'd' },
        { "count", required_argument, NULL, 'c' },
        { "size", required_argument, NULL, 's' },
        { "timeout", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    const char *route = NULL, *dev = NULL;
    unsigned count = 1000, size = 60;
    Route r = { .irq_fd = -1, .cfg_fd = -1, .container = -1, .group = -1 };
    Service s = { .r = &r, .timeout_ms = 10000, .expect_seq = -1 };
    uint8_t frame[OETP_FRAME_MAX] = { 0 };
    uint32_t status;
    pthread_t th;
    uint64_t t0, us;
    unsigned sent = 0;
    bool ok, enoc;
    int c;

    cli_prog = "enoc-uirq";
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': route = optarg; break;
        case 'd': dev = optarg; break;
        case 'c': count = (unsigned)cli_num("--count", optarg, 1u << 24); break;
        case 's': size = (unsigned)cli_num("--size", optarg, OETP_FRAME_MAX); break;
        case 't': s.timeout_ms = (int)cli_num("--timeout", optarg, INT_MAX); break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); return 2;
        }
    }
    if (optind != argc || !route || !dev) {
        cli_usage_error("--route and --dev are required (see --help)");
    }
    if (size < OETP_ETH_HDR_LEN || count == 0) {
        cli_usage_error("--size must be at least %u and --count at least 1", OETP_ETH_HDR_LEN);
    }
    r.name = route;
    r.dev.index = -1;
    enoc = !strcmp(route, "enoc");
    if (enoc) {
        open_enoc(&r, dev);
    } else if (!strcmp(route, "uio")) {
        open_uio(&r, dev);
    } else if (!strcmp(route, "vfio")) {
        open_vfio(&r, dev);
    } else {
        cli_usage_error("--route must be enoc, uio or vfio");
    }
    if (enoc_rd(&r.dev, ENOC_MODEL_MAGIC_OFF) != ENOC_MODEL_MAGIC) {
        cli_die("BAR0 does not look like an openenoc endpoint (0x1f00 reads %#x)",
                enoc_rd(&r.dev, ENOC_MODEL_MAGIC_OFF));
    }

    /* The HAL's init: only our event, errors cleared, interrupts on. */
    s.want = count;
    enoc_wr(&r.dev, OE_IRQ_EVENT_ENABLE, OE_IRQ_EVENT_ENABLE_NON_OETP_DIRECT_TX_COMPLETE_MASK);
    enoc_wr(&r.dev, OE_IRQ_CONTROL, OE_IRQ_CONTROL_GLOBAL_ENABLE_MASK |
            OE_IRQ_CONTROL_CLEAR_ERRORS_MASK);
    if (pthread_create(&th, NULL, irq_thread, &s)) {
        cli_die("pthread_create failed");
    }

    /* The storm: broadcast frames of an experimental EtherType. */
    memset(frame, 0xff, 6);
    frame[6] = 0x02;
    frame[12] = 0x88;
    frame[13] = 0xb7;
    t0 = enoc_now_us();
    for (; sent < count; sent++) {
        if (enoc_direct_send(&r.dev, frame, size, s.timeout_ms) < 0) {
            fprintf(stderr, "enoc-uirq: frame %u: %s\n", sent, enoc_last_error());
            break;
        }
    }
    if (sent < count) {
        atomic_store(&s.stop, true);
    }
    pthread_join(th, NULL);
    us = enoc_now_us() - t0;
    status = enoc_rd(&r.dev, OE_IRQ_STATUS);
    enoc_wr(&r.dev, OE_IRQ_EVENT_ENABLE, 0);

    ok = sent == count && s.events == count && !s.gaps && !s.bad_source &&
         !s.not_taken && !s.err &&
         !(status & (OE_IRQ_STATUS_OVERFLOW_MASK | OE_IRQ_STATUS_INVALID_COMPLETE_MASK));
    printf("route %s%s%s%s: %s; frames %u/%u, events %u, interrupts %u, sequence gaps %u, "
           "other sources %u, completions not taken %u, overflow %u, invalid complete %u, "
           "%.0f events/s%s%s\n",
           route, enoc ? " (" : "", enoc ? enoc_irq_mode_name(r.dev.info.irq_mode) : "",
           enoc ? ")" : "", ok ? "PASS" : "FAIL", sent, count, s.events, s.irqs, s.gaps,
           s.bad_source, s.not_taken, !!(status & OE_IRQ_STATUS_OVERFLOW_MASK),
           !!(status & OE_IRQ_STATUS_INVALID_COMPLETE_MASK),
           us ? s.events * 1e6 / us : 0.0, s.err ? "; irq wait: " : "",
           s.err ? strerror(s.err) : "");
    return ok ? 0 : 1;
}
