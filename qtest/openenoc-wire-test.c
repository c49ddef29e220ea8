/*
 * openenoc qtest: wire conformance. The test plays the remote endpoint over
 * a socketpair netdev and compares exact oETP bytes, written out here by
 * hand (not with the project's codec), so the device is checked against
 * spec/oetp-engine.txt independently of our own engine and codec. A qos
 * test (qos-test): the device comes from the libqos "openenoc" node, the
 * socketpair netdev from wire_before().
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include <poll.h>
#include <sys/socket.h>
#include "openenoc-qtest.h"
#include "libqos/qgraph.h"
#include "libqos/openenoc.h"

#define DEV     0x020E0C000010ull       /* the device's unicast MAC */
#define PEER    0x020E0C0000AAull       /* the test's MAC */
#define LOCAL   OE_RAM_BUF(0)           /* device memory used by the tests */

typedef struct Wire {
    QTestState *qts;
    OeDev d;
    int fd;                             /* our end of the socketpair */
} Wire;

static void wire_close(void *opaque)
{
    int *sv = opaque;

    close(sv[0]);
    close(sv[1]);
    /* a new socketpair may reuse the numbers: start a new QEMU anyway */
    qos_invalidate_command_line();
    g_free(sv);
}

/* Before each test: the socketpair netdev "n0", captured to a pcap. */
static void *wire_before(GString *cmd_line, void *arg)
{
    g_autofree char *pcap = oe_pcap_path();
    int *sv = g_new(int, 2);

    g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), ==, 0);
    g_string_append_printf(cmd_line, " -netdev socket,fd=%d,id=n0 "
                           "-object filter-dump,id=cap,netdev=n0,file=%s",
                           sv[1], pcap);
    oe_qos_args(cmd_line);
    g_test_queue_destroy(wire_close, sv);
    return sv;
}

static void wire_start(Wire *w, void *obj, void *arg)
{
    int *sv = arg;

    oe_qos_open(&w->d, obj);
    w->qts = w->d.qts;
    w->fd = sv[0];
    oe_set_macs(&w->d, DEV, 0);
}

/* QEMU and the socketpair end with the test (wire_close). */
static void wire_stop(Wire *w)
{
}

/* The socket netdev frames each packet with a 4-byte big-endian length. */
static void wire_send(Wire *w, const uint8_t *frame, size_t len)
{
    uint32_t be = cpu_to_be32(len);

    g_assert_cmpint(send(w->fd, &be, 4, 0), ==, 4);
    g_assert_cmpint(send(w->fd, frame, len, 0), ==, len);
}

static bool read_full(int fd, void *buf, size_t len, int timeout_ms)
{
    size_t got = 0;

    while (got < len) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        ssize_t n;

        if (poll(&p, 1, timeout_ms) <= 0) {
            return false;
        }
        n = recv(fd, (uint8_t *)buf + got, len - got, 0);
        if (n <= 0) {
            return false;
        }
        got += n;
    }
    return true;
}

/* Next frame from the device, or -1 if none within timeout_ms. */
static ssize_t wire_recv_fd(int fd, uint8_t *buf, size_t cap, int timeout_ms)
{
    uint32_t be;
    size_t len;

    if (!read_full(fd, &be, 4, timeout_ms)) {
        return -1;
    }
    len = be32_to_cpu(be);
    g_assert_cmpuint(len, <=, cap);
    g_assert_true(read_full(fd, buf, len, 1000));
    return len;
}

static ssize_t wire_recv(Wire *w, uint8_t *buf, size_t cap, int timeout_ms)
{
    return wire_recv_fd(w->fd, buf, cap, timeout_ms);
}

/* Hand-written frame builder: MACs big-endian octets, parameters LE. */
typedef struct Frame {
    uint8_t b[9000];
    size_t n;
} Frame;

static void f_mac(Frame *f, uint64_t mac)
{
    for (int i = 5; i >= 0; i--) {
        f->b[f->n++] = mac >> (8 * i);
    }
}

static void f_u8(Frame *f, uint8_t v)
{
    f->b[f->n++] = v;
}

static void f_le32(Frame *f, uint32_t v)
{
    f_u8(f, v);
    f_u8(f, v >> 8);
    f_u8(f, v >> 16);
    f_u8(f, v >> 24);
}

static void f_head(Frame *f, uint64_t dst, uint64_t src, uint8_t cmd)
{
    f->n = 0;
    f_mac(f, dst);
    f_mac(f, src);
    f_u8(f, 0x88);
    f_u8(f, 0xB5);
    f_u8(f, 0x0E);
    f_u8(f, cmd);
}

/* Data parameters: the bytes in order, the last word zero-padded. */
static void f_data(Frame *f, const uint8_t *data, size_t len)
{
    memcpy(f->b + f->n, data, len);
    f->n += len;
    while (f->n % 4 != 0) {
        f_u8(f, 0);
    }
}

static void f_eod(Frame *f)
{
    f_u8(f, 0xD0);
    f_u8(f, 0xE0);
    f_u8(f, 0xD0);
    f_u8(f, 0xE0);
}

static void f_pad60(Frame *f)
{
    while (f->n < 60) {
        f_u8(f, 0x5A);          /* padding content is ignored */
    }
}

static void expect_frame(Wire *w, const Frame *want)
{
    uint8_t got[9000];
    ssize_t n = wire_recv(w, got, sizeof(got), 5000);

    g_assert_cmpint(n, >=, 0);
    g_assert_cmpmem(got, n, want->b, want->n);
}

static void expect_silence(Wire *w, int ms)
{
    uint8_t got[9000];

    g_assert_cmpint(wire_recv(w, got, sizeof(got), ms), ==, -1);
}

static unsigned dma_code(OeDev *d, unsigned n)
{
    return (oe_rd(d, OE_PEER_DMA(n)) & OE_PEER_DMA_ERROR_CODE_MASK) >>
           OE_PEER_DMA_ERROR_CODE_SHIFT;
}

/*
 * Peer DMA write: exact DMA_WRITE_REQ (padded data word, EndOfData),
 * unpadded and padded replies both accepted, Request IDs count up.
 */
static void test_dma_write_bytes(void *obj, void *arg,
                                 QGuestAllocator *alloc)
{
    const uint8_t data[5] = { 'A', 'B', 'C', 'D', 'E' };
    Frame want, rsp;
    Wire w;

    wire_start(&w, obj, arg);
    qtest_memwrite(w.qts, LOCAL + 3, data, 5);
    oe_peer(&w.d, 0, PEER, OE_MODE_MIRROR_LOCAL_TO_REMOTE, LOCAL + 3,
            0x12345678, 5, 0);
    for (uint32_t rid = 0; rid < 2; rid++) {
        oe_peer_start(&w.d, 0);
        f_head(&want, PEER, DEV, 0x40);
        f_le32(&want, rid);
        f_le32(&want, 0x12345678);
        f_le32(&want, 5);
        f_data(&want, data, 5);
        f_eod(&want);
        g_assert_cmpuint(want.n, ==, 40);
        expect_frame(&w, &want);

        f_head(&rsp, DEV, PEER, 0x41);
        f_le32(&rsp, rid);
        if (rid == 1) {
            f_pad60(&rsp);      /* as an external MAC would pad it */
        }
        wire_send(&w, rsp.b, rsp.n);
        g_assert_cmphex(oe_peer_wait(&w.d, 0) & (OE_PEER_DMA_DONE_MASK |
                        OE_PEER_DMA_ERROR_MASK), ==, OE_PEER_DMA_DONE_MASK);
    }
    wire_stop(&w);
}

/*
 * Peer DMA read: exact DMA_READ_REQ; DMA_READ_RSP data lands in memory; a
 * bad EndOfData fails with remote code 10 (bytes already written stay).
 */
static void test_dma_read_bytes(void *obj, void *arg,
                                QGuestAllocator *alloc)
{
    uint8_t data[7], got[7];
    Frame want, rsp;
    Wire w;

    wire_start(&w, obj, arg);
    oe_fill(data, sizeof(data), 9);
    oe_peer(&w.d, 0, PEER, OE_MODE_MIRROR_REMOTE_TO_LOCAL, LOCAL + 1,
            0xA0000002, 7, 0);
    oe_peer_start(&w.d, 0);
    f_head(&want, PEER, DEV, 0x30);
    f_le32(&want, 0);
    f_le32(&want, 0xA0000002);
    f_le32(&want, 7);
    g_assert_cmpuint(want.n, ==, 28);
    expect_frame(&w, &want);
    f_head(&rsp, DEV, PEER, 0x31);
    f_le32(&rsp, 0);
    f_data(&rsp, data, 7);
    f_eod(&rsp);
    wire_send(&w, rsp.b, rsp.n);
    g_assert_cmphex(oe_peer_wait(&w.d, 0) & OE_PEER_DMA_ERROR_MASK, ==, 0);
    qtest_memread(w.qts, LOCAL + 1, got, 7);
    g_assert_cmpmem(got, 7, data, 7);

    /* wrong EndOfData: code 10, no reply to a reply */
    qtest_memset(w.qts, LOCAL + 1, 0, 7);
    oe_peer_start(&w.d, 0);
    f_head(&want, PEER, DEV, 0x30);
    f_le32(&want, 1);
    f_le32(&want, 0xA0000002);
    f_le32(&want, 7);
    expect_frame(&w, &want);
    f_head(&rsp, DEV, PEER, 0x31);
    f_le32(&rsp, 1);
    f_data(&rsp, data, 7);
    f_le32(&rsp, 0xE0D0E0D1);
    wire_send(&w, rsp.b, rsp.n);
    g_assert_cmphex(oe_peer_wait(&w.d, 0) & OE_PEER_DMA_ERROR_MASK, !=, 0);
    g_assert_cmpuint(dma_code(&w.d, 0), ==, OE_ERR_REMOTE_AXIS);
    qtest_memread(w.qts, LOCAL + 1, got, 7);
    g_assert_cmpmem(got, 7, data, 7);
    expect_silence(&w, 100);
    wire_stop(&w);
}

/* A received ERROR_RSP maps cause c to code 8 + c. */
static void test_error_rsp_received(void *obj, void *arg,
                                    QGuestAllocator *alloc)
{
    Frame want, rsp;
    Wire w;

    wire_start(&w, obj, arg);
    oe_peer(&w.d, 0, PEER, OE_MODE_MIRROR_LOCAL_TO_REMOTE, LOCAL, 0x1000, 8, 0);
    for (uint32_t cause = 1; cause <= 7; cause++) {
        oe_peer_start(&w.d, 0);
        g_assert_true(wire_recv(&w, want.b, sizeof(want.b), 5000) > 0);
        f_head(&rsp, DEV, PEER, 0xFF);
        f_le32(&rsp, cause - 1);        /* the Request ID just sent */
        f_le32(&rsp, cause);
        wire_send(&w, rsp.b, rsp.n);
        oe_peer_wait(&w.d, 0);
        g_assert_cmpuint(dma_code(&w.d, 0), ==, 8 + cause);
        oe_wr(&w.d, OE_PEER_DMA(0), OE_MODE_MIRROR_LOCAL_TO_REMOTE |
              OE_PEER_DMA_CLEAR_ERROR_MASK);
    }
    wire_stop(&w);
}

/*
 * The remote end of one RMEM exchange, run in a thread because the window
 * access blocks the test's qtest command until the answer arrives.
 */
typedef struct RmemPeer {
    int fd;
    Frame expect;
    Frame reply;
    bool matched;
} RmemPeer;

static gpointer rmem_peer_thread(gpointer opaque)
{
    RmemPeer *p = opaque;
    uint8_t got[9000];
    ssize_t n = wire_recv_fd(p->fd, got, sizeof(got), 5000);
    uint32_t be = cpu_to_be32(p->reply.n);

    p->matched = n == (ssize_t)p->expect.n && !memcmp(got, p->expect.b, n);
    if (p->reply.n) {
        g_assert_cmpint(send(p->fd, &be, 4, 0), ==, 4);
        g_assert_cmpint(send(p->fd, p->reply.b, p->reply.n, 0), ==,
                        p->reply.n);
    }
    return NULL;
}

/*
 * RMEM initiator through the window: exact requests, BitEnable from the
 * byte strobes, data in its byte lane, translated address.
 */
static void test_rmem_initiator_bytes(void *obj, void *arg,
                                      QGuestAllocator *alloc)
{
    RmemPeer p = { 0 };
    GThread *t;
    Wire w;

    wire_start(&w, obj, arg);
    /* window bytes 0x40.. map to remote 0x80000000.. */
    oe_peer(&w.d, 0, PEER, OE_MODE_RMEM, 0, 0x80000000, 0x40, 0x40);
    p.fd = w.fd;

    f_head(&p.expect, PEER, DEV, 0x10);
    f_le32(&p.expect, 0);
    f_le32(&p.expect, 0x80000008);
    f_head(&p.reply, DEV, PEER, 0x11);
    f_le32(&p.reply, 0);
    f_le32(&p.reply, 0xCAFEF00D);
    t = g_thread_new("rmem-peer", rmem_peer_thread, &p);
    g_assert_cmphex(oe_rd(&w.d, OE_RMEM + 0x48), ==, 0xCAFEF00D);
    g_thread_join(t);
    g_assert_true(p.matched);

    f_head(&p.expect, PEER, DEV, 0x20);
    f_le32(&p.expect, 1);
    f_le32(&p.expect, 0x8000000C);
    f_le32(&p.expect, 0x00FF0000);      /* byte 2 of the word */
    f_le32(&p.expect, 0x00AB0000);
    g_assert_cmpuint(p.expect.n, ==, 32);
    f_head(&p.reply, DEV, PEER, 0x21);
    f_le32(&p.reply, 1);
    t = g_thread_new("rmem-peer", rmem_peer_thread, &p);
    qpci_io_writeb(w.d.pci, w.d.bar0, OE_RMEM + 0x4E, 0xAB);
    g_thread_join(t);
    g_assert_true(p.matched);

    f_head(&p.expect, PEER, DEV, 0x20);
    f_le32(&p.expect, 2);
    f_le32(&p.expect, 0x80000000);
    f_le32(&p.expect, 0xFFFF0000);      /* upper halfword */
    f_le32(&p.expect, 0x12340000);
    f_le32(&p.reply, 0);
    p.reply.n = 0;
    f_head(&p.reply, DEV, PEER, 0x21);
    f_le32(&p.reply, 2);
    t = g_thread_new("rmem-peer", rmem_peer_thread, &p);
    qpci_io_writew(w.d.pci, w.d.bar0, OE_RMEM + 0x42, 0x1234);
    g_thread_join(t);
    g_assert_true(p.matched);
    g_assert_cmpuint(dma_code(&w.d, 0), ==, 0);
    wire_stop(&w);
}

/* The responder: exact replies to RMEM and DMA requests from the test. */
static void test_responder_bytes(void *obj, void *arg,
                                 QGuestAllocator *alloc)
{
    uint8_t data[9], got[9];
    Frame req, want;
    Wire w;

    wire_start(&w, obj, arg);
    oe_peer(&w.d, 0, PEER, OE_MODE_RMEM, LOCAL, 0, 0x100, 0);
    qtest_writel(w.qts, LOCAL + 0x10, 0x11223344);

    /* RMEM write with a partial BitEnable: read-merge-write */
    f_head(&req, DEV, PEER, 0x20);
    f_le32(&req, 0x1001);
    f_le32(&req, LOCAL + 0x10);
    f_le32(&req, 0x0000FF0F);
    f_le32(&req, 0xAABBCCDD);
    wire_send(&w, req.b, req.n);
    f_head(&want, PEER, DEV, 0x21);
    f_le32(&want, 0x1001);
    g_assert_cmpuint(want.n, ==, 20);   /* short frames leave unpadded */
    expect_frame(&w, &want);
    g_assert_cmphex(qtest_readl(w.qts, LOCAL + 0x10), ==, 0x1122CC4D);

    /* RMEM read, request padded to 60 bytes */
    f_head(&req, DEV, PEER, 0x10);
    f_le32(&req, 0x1002);
    f_le32(&req, LOCAL + 0x10);
    f_pad60(&req);
    wire_send(&w, req.b, req.n);
    f_head(&want, PEER, DEV, 0x11);
    f_le32(&want, 0x1002);
    f_le32(&want, 0x1122CC4D);
    expect_frame(&w, &want);

    /* outside the window: ERROR_RSP cause 1 */
    f_head(&req, DEV, PEER, 0x10);
    f_le32(&req, 0x1003);
    f_le32(&req, LOCAL + 0x100);
    wire_send(&w, req.b, req.n);
    f_head(&want, PEER, DEV, 0xFF);
    f_le32(&want, 0x1003);
    f_le32(&want, 1);
    expect_frame(&w, &want);
    oe_wr(&w.d, OE_PEER_DMA(0), OE_MODE_RMEM | OE_PEER_DMA_CLEAR_ERROR_MASK);

    /* an unknown source gets no answer */
    f_head(&req, DEV, 0x020E0C0000BBull, 0x10);
    f_le32(&req, 0x1004);
    f_le32(&req, LOCAL + 0x10);
    wire_send(&w, req.b, req.n);
    expect_silence(&w, 100);

    /* DMA write (mode 2) then DMA read (mode 3) of 9 unaligned bytes */
    oe_fill(data, sizeof(data), 3);
    oe_wr(&w.d, OE_PEER_DMA(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL);
    f_head(&req, DEV, PEER, 0x40);
    f_le32(&req, 0x2001);
    f_le32(&req, LOCAL + 0x21);
    f_le32(&req, 9);
    f_data(&req, data, 9);
    f_eod(&req);
    wire_send(&w, req.b, req.n);
    f_head(&want, PEER, DEV, 0x41);
    f_le32(&want, 0x2001);
    expect_frame(&w, &want);
    qtest_memread(w.qts, LOCAL + 0x21, got, 9);
    g_assert_cmpmem(got, 9, data, 9);

    oe_wr(&w.d, OE_PEER_DMA(0), OE_MODE_MIRROR_LOCAL_TO_REMOTE);
    f_head(&req, DEV, PEER, 0x30);
    f_le32(&req, 0x2002);
    f_le32(&req, LOCAL + 0x21);
    f_le32(&req, 9);
    wire_send(&w, req.b, req.n);
    f_head(&want, PEER, DEV, 0x31);
    f_le32(&want, 0x2002);
    f_data(&want, data, 9);
    f_eod(&want);
    expect_frame(&w, &want);

    /* a DMA write with a wrong EndOfData: cause 2 on the wire, code 10 */
    oe_wr(&w.d, OE_PEER_DMA(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL);
    f_head(&req, DEV, PEER, 0x40);
    f_le32(&req, 0x2003);
    f_le32(&req, LOCAL + 0x40);
    f_le32(&req, 4);
    f_data(&req, data, 4);
    f_le32(&req, 0x12345678);
    wire_send(&w, req.b, req.n);
    f_head(&want, PEER, DEV, 0xFF);
    f_le32(&want, 0x2003);
    f_le32(&want, 2);
    expect_frame(&w, &want);
    g_assert_cmpuint(dma_code(&w.d, 0), ==, OE_ERR_REMOTE_AXIS);

    /* a group write is executed but never answered */
    oe_wr(&w.d, OE_PEER_DMA(0),
          OE_MODE_MIRROR_REMOTE_TO_LOCAL | OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_wr_mac(&w.d, OE_CONFIG_MULTICAST_ADDRESS, OE_GROUP);
    f_head(&req, OE_GROUP, PEER, 0x40);
    f_le32(&req, 0x2004);
    f_le32(&req, LOCAL + 0x60);
    f_le32(&req, 9);
    f_data(&req, data, 9);
    f_eod(&req);
    wire_send(&w, req.b, req.n);
    expect_silence(&w, 100);
    qtest_memread(w.qts, LOCAL + 0x60, got, 9);
    g_assert_cmpmem(got, 9, data, 9);
    wire_stop(&w);
}

/* Align the frozen virtual clock to a cycle boundary; returns the cycle. */
static uint64_t cycle_align(QTestState *qts)
{
    int64_t now = qtest_clock_step(qts, 1);

    if (now % OE_NS_PER_CYCLE) {
        now = qtest_clock_step(qts, OE_NS_PER_CYCLE - now % OE_NS_PER_CYCLE);
    }
    return now / OE_NS_PER_CYCLE;
}

/*
 * Response timeout driven by clock steps: a reply arriving in the deadline
 * cycle wins; one cycle later the fragment has timed out (code 8), the late
 * reply is drained, and the next request takes the next Request ID.
 */
static void test_timeout_at_expiry_and_late(void *obj, void *arg,
                                            QGuestAllocator *alloc)
{
    const uint32_t timeout = 500;
    uint8_t got[9000];
    Frame rsp;
    Wire w;

    wire_start(&w, obj, arg);
    oe_wr(&w.d, OE_CONFIG_DMA_TIMEOUT, timeout);
    oe_peer(&w.d, 0, PEER, OE_MODE_MIRROR_LOCAL_TO_REMOTE, LOCAL, 0x1000, 4, 0);

    /* reply exactly at the deadline cycle: success */
    cycle_align(w.qts);
    oe_peer_start(&w.d, 0);
    g_assert_cmpint(wire_recv(&w, got, sizeof(got), 5000), >, 0);
    qtest_clock_step(w.qts, timeout * OE_NS_PER_CYCLE);
    f_head(&rsp, DEV, PEER, 0x41);
    f_le32(&rsp, 0);
    wire_send(&w, rsp.b, rsp.n);
    g_assert_cmphex(oe_peer_wait(&w.d, 0) & (OE_PEER_DMA_DONE_MASK |
                    OE_PEER_DMA_ERROR_MASK), ==, OE_PEER_DMA_DONE_MASK);

    /* no reply: still waiting at the deadline, timed out one cycle later */
    cycle_align(w.qts);
    oe_peer_start(&w.d, 0);
    g_assert_cmpint(wire_recv(&w, got, sizeof(got), 5000), >, 0);
    g_assert_cmpuint(oetp_param(got, 1), ==, 1);
    qtest_clock_step(w.qts, timeout * OE_NS_PER_CYCLE);
    g_assert_cmphex(oe_rd(&w.d, OE_PEER_DMA(0)) & OE_PEER_DMA_IDLE_MASK, ==, 0);
    qtest_clock_step(w.qts, OE_NS_PER_CYCLE);
    g_assert_cmphex(oe_rd(&w.d, OE_PEER_DMA(0)) & OE_PEER_DMA_IDLE_MASK, !=, 0);
    g_assert_cmpuint(dma_code(&w.d, 0), ==, OE_ERR_TIMEOUT);

    /* the late reply changes nothing */
    f_head(&rsp, DEV, PEER, 0x41);
    f_le32(&rsp, 1);
    wire_send(&w, rsp.b, rsp.n);
    expect_silence(&w, 50);
    g_assert_cmpuint(dma_code(&w.d, 0), ==, OE_ERR_TIMEOUT);

    /* next block: Request ID 2, completes normally */
    oe_wr(&w.d, OE_PEER_DMA(0), OE_MODE_MIRROR_LOCAL_TO_REMOTE |
          OE_PEER_DMA_CLEAR_ERROR_MASK);
    oe_peer_start(&w.d, 0);
    g_assert_cmpint(wire_recv(&w, got, sizeof(got), 5000), >, 0);
    g_assert_cmpuint(oetp_param(got, 1), ==, 2);
    f_head(&rsp, DEV, PEER, 0x41);
    f_le32(&rsp, 2);
    wire_send(&w, rsp.b, rsp.n);
    g_assert_cmphex(oe_peer_wait(&w.d, 0) & (OE_PEER_DMA_DONE_MASK |
                    OE_PEER_DMA_ERROR_MASK), ==, OE_PEER_DMA_DONE_MASK);
    wire_stop(&w);
}

/*
 * A link that stops draining: a multicast block (no replies to wait for)
 * larger than the socket holds. The device must stop at the backend's
 * backpressure and resume when it drains, losing and reordering nothing:
 * every fragment arrives once, in address order, with its bytes.
 */
static void test_backpressure_keeps_order(void *obj, void *arg,
                                          QGuestAllocator *alloc)
{
    const uint64_t group = 0x030E0C0000BBull;
    const uint32_t frag = OETP_FRAG_CEILING, frags = 96;
    const uint32_t size = frag * frags - 5;     /* a short last fragment */
    g_autofree uint8_t *src = g_malloc(size);
    uint8_t got[9000];
    Frame want;
    Wire w;

    wire_start(&w, obj, arg);
    oe_fill(src, size, 21);
    qtest_memwrite(w.qts, LOCAL, src, size);
    oe_wr(&w.d, OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, frag);
    oe_peer(&w.d, 0, group, OE_MODE_MIRROR_LOCAL_TO_REMOTE, LOCAL, 0x40000000,
            size, 0);
    oe_peer_start(&w.d, 0);
    /* not reading: the socket fills (about 200 KiB) and the device waits */
    g_usleep(200 * 1000);
    g_assert_cmphex(oe_rd(&w.d, OE_PEER_DMA(0)) & OE_PEER_DMA_IDLE_MASK, ==,
                    0);
    for (uint32_t i = 0; i < frags; i++) {
        uint32_t off = i * frag, len = MIN(frag, size - off);
        ssize_t n = wire_recv(&w, got, sizeof(got), 5000);

        f_head(&want, group, DEV, 0x40);
        f_le32(&want, i);
        f_le32(&want, 0x40000000 + off);
        f_le32(&want, len);
        f_data(&want, src + off, len);
        f_eod(&want);
        g_assert_cmpint(n, >=, 0);
        g_assert_cmpmem(got, n, want.b, want.n);
    }
    g_assert_cmphex(oe_peer_wait(&w.d, 0) & (OE_PEER_DMA_DONE_MASK |
                    OE_PEER_DMA_ERROR_MASK), ==, OE_PEER_DMA_DONE_MASK);
    expect_silence(&w, 100);
    wire_stop(&w);
}

static void register_wire_tests(void)
{
    QOSGraphTestOptions opts = {
        .before = wire_before,
        .edge.extra_device_opts = "netdev=n0",
    };

    qos_add_test("wire/dma-write-request-bytes", "openenoc",
                 test_dma_write_bytes, &opts);
    qos_add_test("wire/dma-read-request-bytes", "openenoc",
                 test_dma_read_bytes, &opts);
    qos_add_test("wire/error-rsp-causes", "openenoc",
                 test_error_rsp_received, &opts);
    qos_add_test("wire/rmem-initiator-bytes", "openenoc",
                 test_rmem_initiator_bytes, &opts);
    qos_add_test("wire/responder-bytes", "openenoc",
                 test_responder_bytes, &opts);
    qos_add_test("wire/timeout-at-expiry-and-late-reply", "openenoc",
                 test_timeout_at_expiry_and_late, &opts);
    qos_add_test("wire/backpressure-keeps-order", "openenoc",
                 test_backpressure_keeps_order, &opts);
}

libqos_init(register_wire_tests);
