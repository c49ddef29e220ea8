/*
 * qtest of -object filter-fault (hw/qemu/filter-fault.c). Two socket
 * netdevs on one hub, no device: the test writes numbered frames into one
 * socketpair and reads what comes out of the other, so every property is
 * checked on the frames themselves (and against the filter's counters).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include <poll.h>
#include <sys/socket.h>
#include "qobject/qdict.h"
#include "openenoc-qtest.h"

#define FRAME_LEN   64
#define MAX_OUT     4096

typedef struct Link {
    QTestState *qts;
    int fd[2];              /* our ends: netdev a, netdev b */
} Link;

/* QEMU with netdevs a and b joined by hub 0 and a filter f0 on a. */
static void link_start(Link *l, const char *filter)
{
    int a[2], b[2];

    g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, a), ==, 0);
    g_assert_cmpint(socketpair(AF_UNIX, SOCK_STREAM, 0, b), ==, 0);
    l->qts = oe_start("-netdev socket,id=a,fd=%d "
                      "-netdev hubport,id=ha,hubid=0,netdev=a "
                      "-netdev socket,id=b,fd=%d "
                      "-netdev hubport,id=hb,hubid=0,netdev=b "
                      "-object filter-fault,id=f0,netdev=a,%s",
                      a[1], b[1], filter);
    close(a[1]);
    close(b[1]);
    l->fd[0] = a[0];
    l->fd[1] = b[0];
}

static void link_stop(Link *l)
{
    close(l->fd[0]);
    close(l->fd[1]);
    qtest_quit(l->qts);
}

/* The socket netdev frames each packet with a 4-byte big-endian length. */
static void send_frame(Link *l, int side, uint32_t seq)
{
    uint8_t buf[4 + FRAME_LEN] = { 0 };

    stl_be_p(buf, FRAME_LEN);
    memset(buf + 4, 0xff, 6);                   /* broadcast */
    stl_be_p(buf + 4 + 12, 0x88B50000u);
    stl_be_p(buf + 4 + 16, seq);
    g_assert_cmpint(write(l->fd[side], buf, sizeof(buf)), ==, sizeof(buf));
}

static bool read_all(int fd, uint8_t *buf, size_t len, int timeout_ms)
{
    struct pollfd p = { .fd = fd, .events = POLLIN };

    while (len) {
        ssize_t n;

        if (poll(&p, 1, timeout_ms) <= 0) {
            return false;
        }
        n = read(fd, buf, len);
        g_assert_cmpint(n, >, 0);
        buf += n;
        len -= n;
    }
    return true;
}

/* The next frame's sequence number on side, or -1 if none in timeout_ms. */
static int64_t recv_seq(Link *l, int side, int timeout_ms)
{
    uint8_t buf[4 + FRAME_LEN];

    if (!read_all(l->fd[side], buf, 4, timeout_ms)) {
        return -1;
    }
    g_assert_cmpuint(ldl_be_p(buf), ==, FRAME_LEN);
    g_assert_true(read_all(l->fd[side], buf + 4, FRAME_LEN, 1000));
    return ldl_be_p(buf + 4 + 16);
}

static uint64_t counter(Link *l, const char *name)
{
    QDict *rsp = qtest_qmp(l->qts, "{'execute': 'qom-get', 'arguments': "
                           "{'path': '/objects/f0', 'property': %s}}", name);
    uint64_t v;

    g_assert_true(qdict_haskey(rsp, "return"));
    v = qdict_get_int(rsp, "return");
    qobject_unref(rsp);
    return v;
}

/* Wait until the filter has seen n frames (the main loop reads them). */
static void wait_seen(Link *l, uint64_t n)
{
    for (int i = 0; i < 5000 && counter(l, "frames") < n; i++) {
        g_usleep(1000);
    }
    g_assert_cmpuint(counter(l, "frames"), ==, n);
}

/*
 * Send n frames from a to b; collect what b gets until 100 ms of silence.
 * A few frames at a time: when b's socket fills, QEMU's hub delivers a
 * frame it had to queue after later ones (it flushes the other ports'
 * queues before the full port's own), which is not the filter's doing.
 */
static int collect(Link *l, int n, uint32_t *out)
{
    int got = 0;
    int64_t seq;

    for (int i = 0; i < n; i++) {
        send_frame(l, 0, i);
        if (i % 32 == 31 || i == n - 1) {
            wait_seen(l, i + 1);
            while ((seq = recv_seq(l, 1, i == n - 1 ? 100 : 10)) >= 0) {
                g_assert_cmpint(got, <, MAX_OUT);
                out[got++] = seq;
            }
        }
    }
    return got;
}

/* A binomial count within 6 standard deviations of n * pm / 1000. */
static void assert_rate(uint64_t count, int n, unsigned pm)
{
    /* in thousandths of a frame: mean, variance and the distance */
    int64_t mean = (int64_t)n * pm;
    int64_t var = mean * (1000 - pm);
    int64_t d = (int64_t)count * 1000 - mean;

    g_test_message("%" PRIu64 " of %d frames at %u per mille", count, n, pm);
    g_assert_cmpint(d * d, <=, 36 * var);
}

static void test_drop(void)
{
    const int n = 2000;
    g_autofree uint32_t *out = g_new(uint32_t, MAX_OUT);
    Link l;
    int got;

    link_start(&l, "drop=200,seed=11");
    got = collect(&l, n, out);
    assert_rate(counter(&l, "dropped"), n, 200);
    g_assert_cmpint(got, ==, n - counter(&l, "dropped"));
    for (int i = 1; i < got; i++) {
        g_assert_cmpuint(out[i], >, out[i - 1]);       /* order kept */
    }
    link_stop(&l);
}

static void test_duplicate(void)
{
    const int n = 2000;
    g_autofree uint32_t *out = g_new(uint32_t, MAX_OUT);
    uint32_t next = 0, twice = 0;
    Link l;
    int got;

    link_start(&l, "duplicate=100,seed=12");
    got = collect(&l, n, out);
    assert_rate(counter(&l, "duplicated"), n, 100);
    /* every frame once, in order, some of them twice in a row */
    for (int i = 0; i < got; i++) {
        if (i && out[i] == out[i - 1]) {
            twice++;
            continue;
        }
        g_assert_cmpuint(out[i], ==, next++);
    }
    g_assert_cmpuint(next, ==, n);
    g_assert_cmpuint(twice, ==, counter(&l, "duplicated"));
    g_assert_cmpint(got, ==, n + twice);
    link_stop(&l);
}

static void test_reorder(void)
{
    const int n = 2000;
    g_autofree uint32_t *out = g_new(uint32_t, MAX_OUT);
    uint32_t swaps = 0;
    Link l;
    int got;

    link_start(&l, "reorder=150,seed=13");
    got = collect(&l, n, out);
    /* the last frame may still be held: turning the filter off sends it */
    if (got < n) {
        qtest_qmp_assert_success(l.qts, "{'execute': 'qom-set', 'arguments':"
                                 " {'path': '/objects/f0', 'property': "
                                 "'status', 'value': 'off'}}");
        out[got] = recv_seq(&l, 1, 1000);
        got++;
    }
    g_assert_cmpint(got, ==, n);
    assert_rate(counter(&l, "reordered"), n, 150);
    /* a held frame k comes right after k + 1; nothing else moves */
    for (int i = 0; i < n; i++) {
        if (out[i] != i) {
            g_assert_cmpint(i + 1, <, n);
            g_assert_cmpuint(out[i], ==, i + 1);
            g_assert_cmpuint(out[i + 1], ==, i);
            swaps++;
            i++;
        }
    }
    /* a frame held last and sent at status=off is not a swap */
    g_assert_cmpuint(swaps, >=, counter(&l, "reordered") - 1);
    g_assert_cmpuint(swaps, <=, counter(&l, "reordered"));
    link_stop(&l);
}

/*
 * Delay on the virtual clock: nothing before delay-us, everything after
 * delay-us + jitter-us, in order, spread over the jitter.
 */
static void test_delay_jitter(void)
{
    const int n = 50;
    uint32_t next = 0;
    int steps_with_frames = 0;
    Link l;

    link_start(&l, "delay-us=1000,jitter-us=1000,seed=14");
    for (int i = 0; i < n; i++) {
        send_frame(&l, 0, i);
    }
    wait_seen(&l, n);
    g_assert_cmpint(recv_seq(&l, 1, 100), ==, -1);
    qtest_clock_step(l.qts, 999 * SCALE_US);
    g_assert_cmpint(recv_seq(&l, 1, 100), ==, -1);
    for (int t = 0; t < 10; t++) {
        int64_t seq;
        bool any = false;

        qtest_clock_step(l.qts, 100 * SCALE_US + (t == 9 ? SCALE_US : 0));
        while ((seq = recv_seq(&l, 1, 50)) >= 0) {
            g_assert_cmpint(seq, ==, next++);
            any = true;
        }
        steps_with_frames += any;
    }
    g_assert_cmpuint(next, ==, n);
    g_assert_cmpint(steps_with_frames, >=, 3);      /* jitter spreads them */
    g_assert_cmpuint(counter(&l, "delayed"), ==, n);
    link_stop(&l);
}

/* delay=N: about N per mille of frames wait, the others pass at once. */
static void test_delay_rate(void)
{
    const int n = 100;
    unsigned late = 0;
    Link l;

    link_start(&l, "delay=300,delay-us=1000,seed=15");
    for (int i = 0; i < n; i++) {
        send_frame(&l, 0, i);
        wait_seen(&l, i + 1);
        if (recv_seq(&l, 1, 20) < 0) {
            late++;
            qtest_clock_step(l.qts, 1000 * SCALE_US);
            g_assert_cmpint(recv_seq(&l, 1, 1000), ==, i);
        }
    }
    g_assert_cmpuint(late, ==, counter(&l, "delayed"));
    assert_rate(late, n, 300);
    link_stop(&l);
}

/* queue=tx acts on frames the netdev sends (to the hub), not on others. */
static void test_queue(void)
{
    Link l;

    link_start(&l, "drop=1000,queue=tx");
    send_frame(&l, 0, 1);
    send_frame(&l, 1, 2);
    g_assert_cmpint(recv_seq(&l, 0, 1000), ==, 2);
    g_assert_cmpint(recv_seq(&l, 1, 200), ==, -1);
    g_assert_cmpuint(counter(&l, "dropped"), ==, 1);
    link_stop(&l);

    link_start(&l, "drop=1000,queue=rx");
    send_frame(&l, 0, 1);
    send_frame(&l, 1, 2);
    g_assert_cmpint(recv_seq(&l, 1, 1000), ==, 1);
    g_assert_cmpint(recv_seq(&l, 0, 200), ==, -1);
    g_assert_cmpuint(counter(&l, "dropped"), ==, 1);
    link_stop(&l);
}

/* The same seed gives the same faults; another seed other faults. */
static void test_seed(void)
{
    const char *args = "drop=200,duplicate=100,reorder=100,seed=%d";
    const int n = 500;
    uint32_t *out[3];
    int got[3];

    for (int i = 0; i < 3; i++) {
        g_autofree char *f = g_strdup_printf(args, i < 2 ? 21 : 22);
        Link l;

        out[i] = g_new(uint32_t, MAX_OUT);
        link_start(&l, f);
        got[i] = collect(&l, n, out[i]);
        link_stop(&l);
    }
    g_assert_cmpint(got[0], ==, got[1]);
    g_assert_cmpmem(out[0], got[0] * 4, out[1], got[1] * 4);
    g_assert_true(got[0] != got[2] ||
                  memcmp(out[0], out[2], got[0] * 4) != 0);
    for (int i = 0; i < 3; i++) {
        g_free(out[i]);
    }
}

static void expect_refused(const char *props, const char *msg)
{
    g_autofree char *args = g_strdup_printf("-accel qtest -display none "
                                            "-netdev hubport,id=n,hubid=0 "
                                            "-object filter-fault,id=f,"
                                            "netdev=n,%s", props);
    g_autofree char *out = NULL, *err = NULL;
    int status = oe_run_qemu(args, &out, &err);

    g_test_message("%s: %s", props, err);
    g_assert_cmpint(status, !=, 0);
    g_assert_nonnull(strstr(err, msg));
}

static void test_bad_values(void)
{
    Link l;
    QDict *rsp;

    expect_refused("drop=1001", "'drop' is per mille (0 to 1000), got 1001");
    expect_refused("reorder=5000", "'reorder' is per mille");
    expect_refused("drop=600,duplicate=500",
                   "drop + duplicate + reorder must not exceed 1000");
    expect_refused("delay-us=60000001", "at most 60000000 (60 s)");
    expect_refused("delay=1001", "'delay' is per mille");
    expect_refused("jitter-us=-1", "jitter-us");
    expect_refused("drop=lots", "drop");
    expect_refused("queue=sideways", "queue");

    /* at run time too, and the old value stays */
    link_start(&l, "drop=10");
    rsp = qtest_qmp(l.qts, "{'execute': 'qom-set', 'arguments': {'path': "
                    "'/objects/f0', 'property': 'duplicate', 'value': 995}}");
    g_assert_true(qdict_haskey(rsp, "error"));
    qobject_unref(rsp);
    rsp = qtest_qmp(l.qts, "{'execute': 'qom-get', 'arguments': {'path': "
                    "'/objects/f0', 'property': 'duplicate'}}");
    g_assert_cmpint(qdict_get_int(rsp, "return"), ==, 0);
    qobject_unref(rsp);
    link_stop(&l);
}

static void test_help(void)
{
    g_autofree char *out = NULL, *err = NULL;
    const char *props[] = { "drop=<uint32>", "duplicate=<uint32>",
                            "reorder=<uint32>", "delay=<uint32>",
                            "delay-us=<uint32>",
                            "jitter-us=<uint32>", "seed=<uint64>",
                            "queue=", "netdev=", "per mille" };

    g_assert_cmpint(oe_run_qemu("-object filter-fault,help", &out, &err),
                    ==, 0);
    for (size_t i = 0; i < ARRAY_SIZE(props); i++) {
        g_assert_nonnull(strstr(out, props[i]));
    }
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/filter-fault/drop", test_drop);
    qtest_add_func("/filter-fault/duplicate", test_duplicate);
    qtest_add_func("/filter-fault/reorder", test_reorder);
    qtest_add_func("/filter-fault/delay-jitter", test_delay_jitter);
    qtest_add_func("/filter-fault/delay-rate", test_delay_rate);
    qtest_add_func("/filter-fault/queue", test_queue);
    qtest_add_func("/filter-fault/seed", test_seed);
    qtest_add_func("/filter-fault/bad-values", test_bad_values);
    qtest_add_func("/filter-fault/help", test_help);
    return g_test_run();
}
