/*
 * libenoc: IRQ events from the driver, and names for sources and modes.
 */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "enoc.h"

void enoc_event_enable(EnocDev *d, uint32_t mask)
{
    enoc_wr(d, OE_IRQ_EVENT_ENABLE, mask);
}

static int enoc_event_read(EnocDev *d, struct enoc_event *ev, int timeout_ms)
{
    struct pollfd pfd = { .fd = d->fd, .events = POLLIN };
    ssize_t n;
    int r;

    r = poll(&pfd, 1, timeout_ms);
    if (r < 0) {
        return enoc_fail(errno, "enoc%d: poll: %s", d->index, strerror(errno));
    }
    if (r == 0) {
        return 0;
    }
    if (pfd.revents & (POLLERR | POLLHUP)) {
        return enoc_fail(ENODEV, "enoc%d: device removed", d->index);
    }
    n = read(d->fd, ev, sizeof(*ev));
    if (n < 0) {
        return errno == EAGAIN ? 0 : enoc_fail(errno, "enoc%d: read: %s",
                                               d->index, strerror(errno));
    }
    return n == sizeof(*ev) ? 1 : enoc_fail(EIO, "enoc%d: short event", d->index);
}

int enoc_event_next(EnocDev *d, struct enoc_event *ev, int timeout_ms)
{
    if (d->backlog_len) {
        *ev = d->backlog[d->backlog_head];
        d->backlog_head = (d->backlog_head + 1) % ENOC_BACKLOG;
        d->backlog_len--;
        return 1;
    }
    return enoc_event_read(d, ev, timeout_ms);
}

static void enoc_backlog_push(EnocDev *d, const struct enoc_event *ev)
{
    if (d->backlog_len == ENOC_BACKLOG) {
        /* Keep the newest, as the driver does. */
        d->backlog_head = (d->backlog_head + 1) % ENOC_BACKLOG;
        d->backlog_len--;
    }
    d->backlog[(d->backlog_head + d->backlog_len) % ENOC_BACKLOG] = *ev;
    d->backlog_len++;
}

int enoc_event_wait(EnocDev *d, unsigned source, int peer,
                    struct enoc_event *ev, int timeout_ms)
{
    uint64_t deadline = enoc_now_us() + (uint64_t)timeout_ms * 1000;

    /* The backlog first: the event may have come while we waited for another. */
    for (unsigned i = 0; i < d->backlog_len; i++) {
        unsigned k = (d->backlog_head + i) % ENOC_BACKLOG;

        if (d->backlog[k].source == source && (peer < 0 || d->backlog[k].peer == peer)) {
            *ev = d->backlog[k];
            /* Close the gap, keeping order. */
            for (; i + 1 < d->backlog_len; i++) {
                unsigned a = (d->backlog_head + i) % ENOC_BACKLOG;
                d->backlog[a] = d->backlog[(a + 1) % ENOC_BACKLOG];
            }
            d->backlog_len--;
            return 1;
        }
    }
    for (;;) {
        int left = -1, r;

        if (timeout_ms >= 0) {
            uint64_t now = enoc_now_us();
            left = now >= deadline ? 0 : (int)((deadline - now + 999) / 1000);
        }
        r = enoc_event_read(d, ev, left);
        if (r <= 0) {
            return r;
        }
        if (ev->source == source && (peer < 0 || ev->peer == peer)) {
            return 1;
        }
        enoc_backlog_push(d, ev);
    }
}

const char *enoc_source_name(unsigned source)
{
    static const char *const names[OE_SRC_COUNT] = OE_SRC_NAMES;

    return source < OE_SRC_COUNT ? names[source] : "?";
}

const char *enoc_mode_name(unsigned mode)
{
    static const char *const names[] = { "disabled", "rmem", "pull", "push" };

    return mode < OE_MODE_COUNT ? names[mode] : "?";
}

const char *enoc_irq_mode_name(unsigned irq_mode)
{
    static const char *const names[] = { "none", "INTx", "MSI", "MSI-X" };

    return irq_mode < 4 ? names[irq_mode] : "?";
}
