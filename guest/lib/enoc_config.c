/*
 * libenoc: MAC addresses, endpoint configuration and peer entries.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "enoc.h"

int enoc_mac_parse(const char *s, uint64_t *mac)
{
    unsigned b[6];
    char tail;

    if (sscanf(s, "%2x:%2x:%2x:%2x:%2x:%2x%c", &b[0], &b[1], &b[2], &b[3],
               &b[4], &b[5], &tail) != 6 || strlen(s) != 17) {
        return enoc_fail(EINVAL, "'%s' is not a MAC address (xx:xx:xx:xx:xx:xx)", s);
    }
    *mac = 0;
    for (int i = 0; i < 6; i++) {
        *mac = *mac << 8 | b[i];
    }
    return 0;
}

const char *enoc_mac_str(uint64_t mac, char out[18])
{
    snprintf(out, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
             (unsigned)(mac >> 40) & 0xff, (unsigned)(mac >> 32) & 0xff,
             (unsigned)(mac >> 24) & 0xff, (unsigned)(mac >> 16) & 0xff,
             (unsigned)(mac >> 8) & 0xff, (unsigned)mac & 0xff);
    return out;
}

uint64_t enoc_rd_mac(EnocDev *d, uint32_t off_lo)
{
    return (uint64_t)(enoc_rd(d, off_lo + 4) & 0xffff) << 32 | enoc_rd(d, off_lo);
}

void enoc_wr_mac(EnocDev *d, uint32_t off_lo, uint64_t mac)
{
    enoc_wr(d, off_lo, (uint32_t)mac);
    enoc_wr(d, off_lo + 4, (uint32_t)(mac >> 32) & 0xffff);
}

void enoc_config_get(EnocDev *d, EnocConfig *c)
{
    c->mac = enoc_rd_mac(d, OE_CONFIG_MAC_ADDRESS);
    c->multicast = enoc_rd_mac(d, OE_CONFIG_MULTICAST_ADDRESS);
    c->rx_mode = enoc_rd(d, OE_CONFIG_NON_OETP_CONTROL) &
                 OE_CONFIG_NON_OETP_CONTROL_RECEIVE_MODE_MASK;
    c->rmem_timeout = enoc_rd(d, OE_CONFIG_RMEM_TIMEOUT);
    c->dma_timeout = enoc_rd(d, OE_CONFIG_DMA_TIMEOUT);
    c->max_fragment = enoc_rd(d, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE);
}

void enoc_config_set(EnocDev *d, const EnocConfig *c)
{
    enoc_wr_mac(d, OE_CONFIG_MAC_ADDRESS, c->mac);
    enoc_wr_mac(d, OE_CONFIG_MULTICAST_ADDRESS, c->multicast);
    enoc_wr(d, OE_CONFIG_NON_OETP_CONTROL,
            c->rx_mode & OE_CONFIG_NON_OETP_CONTROL_RECEIVE_MODE_MASK);
    enoc_wr(d, OE_CONFIG_RMEM_TIMEOUT, c->rmem_timeout);
    enoc_wr(d, OE_CONFIG_DMA_TIMEOUT, c->dma_timeout);
    enoc_wr(d, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, c->max_fragment);
}

static int enoc_peer_check(EnocDev *d, unsigned n)
{
    unsigned count = enoc_num_peers(d);

    if (n >= count) {
        return enoc_fail(EINVAL, "peer %u does not exist (the endpoint has %u)",
                         n, count);
    }
    return 0;
}

int enoc_peer_get(EnocDev *d, unsigned n, EnocPeer *p)
{
    uint32_t dma;
    int err = enoc_peer_check(d, n);

    if (err) {
        return err;
    }
    dma = enoc_rd(d, OE_PEER_DMA(n));
    p->mac = enoc_rd_mac(d, OE_PEER_MAC_ADDRESS(n));
    p->rmem_offset = enoc_rd(d, OE_PEER_RMEM_ADDRESS(n));
    p->local = enoc_rd(d, OE_PEER_LOCAL_ADDRESS(n));
    p->remote = enoc_rd(d, OE_PEER_REMOTE_ADDRESS(n));
    p->size = enoc_rd(d, OE_PEER_SIZE(n));
    p->mode = (dma & OE_PEER_DMA_MODE_MASK) >> OE_PEER_DMA_MODE_SHIFT;
    p->irq_enable = dma & OE_PEER_DMA_IRQ_ENABLE_MASK;
    return 0;
}

int enoc_peer_set(EnocDev *d, unsigned n, const EnocPeer *p)
{
    int err = enoc_peer_check(d, n);

    if (err) {
        return err;
    }
    if (p->mode >= OE_MODE_COUNT) {
        return enoc_fail(EINVAL, "peer mode %u is not 0..3", p->mode);
    }
    enoc_wr_mac(d, OE_PEER_MAC_ADDRESS(n), p->mac);
    enoc_wr(d, OE_PEER_RMEM_ADDRESS(n), p->rmem_offset);
    enoc_wr(d, OE_PEER_LOCAL_ADDRESS(n), p->local);
    enoc_wr(d, OE_PEER_REMOTE_ADDRESS(n), p->remote);
    enoc_wr(d, OE_PEER_SIZE(n), p->size);
    enoc_wr(d, OE_PEER_DMA(n), (p->mode << OE_PEER_DMA_MODE_SHIFT) |
            (p->irq_enable ? OE_PEER_DMA_IRQ_ENABLE_MASK : 0));
    return 0;
}

/* The peer dma word and both raw command/status words share this layout
 * (armed exists only on raw RX, at bit 17). */
EnocStatus enoc_status_decode(uint32_t w)
{
    EnocStatus s = {
        .request = w & OE_PEER_DMA_REQUEST_MASK,
        .idle = w & OE_PEER_DMA_IDLE_MASK,
        .done = w & OE_PEER_DMA_DONE_MASK,
        .error = w & OE_PEER_DMA_ERROR_MASK,
        .armed = w & (1u << OE_RAW_RX_COMMAND_STATUS_ARMED_SHIFT),
        .code = (w & OE_PEER_DMA_ERROR_CODE_MASK) >> OE_PEER_DMA_ERROR_CODE_SHIFT,
    };
    return s;
}

EnocStatus enoc_peer_status(EnocDev *d, unsigned n)
{
    return enoc_status_decode(enoc_rd(d, OE_PEER_DMA(n)));
}

void enoc_peer_clear_error(EnocDev *d, unsigned n)
{
    uint32_t keep = enoc_rd(d, OE_PEER_DMA(n)) &
                    (OE_PEER_DMA_MODE_MASK | OE_PEER_DMA_IRQ_ENABLE_MASK);

    enoc_wr(d, OE_PEER_DMA(n), keep | OE_PEER_DMA_CLEAR_ERROR_MASK);
}
