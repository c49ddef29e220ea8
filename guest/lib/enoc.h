/*
 * libenoc: the openENOC endpoint HAL for Linux userspace.
 *
 * Everything goes through /dev/enocN (guest/linux): the CSR aperture is
 * mapped and programmed directly, the DMA buffer is mapped and its bus
 * address used in CSRs, and IRQ claims arrive as events on the file.
 * Register layout: include/openenoc/regs.h; CSR error codes and their names:
 * include/openenoc/oetp.h (oe_error_name).
 *
 * Conventions: functions return 0 (or a count) on success and a negative
 * errno on failure, with a message in enoc_last_error(). Operations that
 * complete on the endpoint (peer DMA, raw DMA) return the endpoint's CSR
 * error code (0 = success, 1..15) when they finished, or -ETIMEDOUT.
 */
#ifndef ENOC_H
#define ENOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/types.h>
#include "openenoc/oetp.h"
#include "openenoc/regs.h"
#include "openenoc/uapi_enoc.h"

#define ENOC_BACKLOG 64

typedef struct EnocDev {
    int fd;
    int index;
    volatile uint32_t *csr;
    uint8_t *buf;               /* mapped DMA buffer, or NULL */
    uint32_t buf_bus;           /* its bus address */
    uint32_t buf_size;
    struct enoc_info info;
    /* events read while waiting for another one, delivered later */
    struct enoc_event backlog[ENOC_BACKLOG];
    unsigned backlog_head, backlog_len;
} EnocDev;

typedef struct EnocConfig {
    uint64_t mac;
    uint64_t multicast;
    unsigned rx_mode;           /* non_oetp_control.receive_mode 0..3 */
    uint32_t rmem_timeout;      /* cycles, 0 = forever */
    uint32_t dma_timeout;
    uint32_t max_fragment;      /* dma_max_fragment_size */
} EnocConfig;

typedef struct EnocPeer {
    uint64_t mac;
    uint32_t rmem_offset;
    uint32_t local;
    uint32_t remote;
    uint32_t size;
    unsigned mode;
    bool irq_enable;
} EnocPeer;

/* Decoded command/status word of a peer or raw DMA channel. */
typedef struct EnocStatus {
    bool request, idle, done, error, armed;
    unsigned code;
} EnocStatus;

const char *enoc_last_error(void);
/* printf-style setter used by the library and its tools; returns -err. */
int enoc_fail(int err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Device */
int enoc_open(EnocDev *d, int index);
void enoc_close(EnocDev *d);
int enoc_info_refresh(EnocDev *d);
unsigned enoc_num_peers(EnocDev *d);
uint32_t enoc_rd(EnocDev *d, uint32_t off);
void enoc_wr(EnocDev *d, uint32_t off, uint32_t val);
/* Map the DMA buffer; size > 0 allocates it first (or keeps one of that
 * size), size 0 maps the existing one. */
int enoc_buf_map(EnocDev *d, uint32_t size);
int enoc_buf_free(EnocDev *d);

/* MAC addresses: "02:0e:0c:00:00:01" <-> 48-bit value */
int enoc_mac_parse(const char *s, uint64_t *mac);
const char *enoc_mac_str(uint64_t mac, char out[18]);
uint64_t enoc_rd_mac(EnocDev *d, uint32_t off_lo);
void enoc_wr_mac(EnocDev *d, uint32_t off_lo, uint64_t mac);

/* Configuration and peer entries */
void enoc_config_get(EnocDev *d, EnocConfig *c);
void enoc_config_set(EnocDev *d, const EnocConfig *c);
int enoc_peer_get(EnocDev *d, unsigned n, EnocPeer *p);
/* Writes every field; leaves request clear. */
int enoc_peer_set(EnocDev *d, unsigned n, const EnocPeer *p);
EnocStatus enoc_status_decode(uint32_t word);
EnocStatus enoc_peer_status(EnocDev *d, unsigned n);
void enoc_peer_clear_error(EnocDev *d, unsigned n);

/* Peer bulk DMA: start the block configured in entry n and wait for it.
 * Returns the CSR error code (0 ok) or a negative errno. */
int enoc_dma_start(EnocDev *d, unsigned n);
int enoc_dma_wait(EnocDev *d, unsigned n, int timeout_ms);
int enoc_dma_run(EnocDev *d, unsigned n, int timeout_ms);

/* RMEM window: byte offset into the 1 KiB window, word aligned. A read of a
 * failed access returns 0xFFFFFFFF (the endpoint's rule). */
int enoc_rmem_read(EnocDev *d, uint32_t off, uint32_t *val);
int enoc_rmem_write(EnocDev *d, uint32_t off, uint32_t val);

/* Raw (non-oETP) frames by DMA from/to the mapped buffer. */
int enoc_raw_tx(EnocDev *d, uint32_t buf_off, uint32_t len, int timeout_ms);
int enoc_raw_rx_arm(EnocDev *d, uint32_t buf_off, uint32_t cap);
/* Waits for the armed frame; *len gets the received length. */
int enoc_raw_rx_wait(EnocDev *d, uint32_t *len, int timeout_ms);
void enoc_raw_clear_errors(EnocDev *d);

/* Raw frames through the direct stream, one 32-bit beat per CSR access.
 * recv returns the frame length, -EAGAIN on timeout, -EMSGSIZE if the frame
 * was longer than cap (the rest is drained). */
int enoc_direct_send(EnocDev *d, const void *frame, size_t len, int timeout_ms);
int enoc_direct_recv(EnocDev *d, void *frame, size_t cap, int timeout_ms);

/* Events (IRQ claims the driver serviced). */
void enoc_event_enable(EnocDev *d, uint32_t mask);
/* 1 with *ev filled, 0 on timeout (timeout_ms < 0 waits forever). */
int enoc_event_next(EnocDev *d, struct enoc_event *ev, int timeout_ms);
/* Waits for an event of this source (and peer, unless peer < 0); other
 * events are kept for enoc_event_next. */
int enoc_event_wait(EnocDev *d, unsigned source, int peer,
                    struct enoc_event *ev, int timeout_ms);

/* Names */
const char *enoc_source_name(unsigned source);
const char *enoc_mode_name(unsigned mode);
const char *enoc_irq_mode_name(unsigned irq_mode);

/* Milliseconds / microseconds of CLOCK_MONOTONIC */
uint64_t enoc_now_us(void);

#endif /* ENOC_H */
