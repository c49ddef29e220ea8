/*
 * openenoc qtest: migration and savevm/loadvm in the middle of a
 * multi-fragment block. Two devices on a hub in one VM; the paced block is
 * still running when the VM migrates to a second QEMU (or is snapshotted);
 * it completes there (or after loading the snapshot) with the right data.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qobject/qdict.h"
#include "qobject/qlist.h"
#include "openenoc-qtest.h"

#define BLOCK   (2 * MiB + 3)

static void open_pair(QTestState *qts, QPCIBus *bus, OeDev d[2])
{
    oe_open(&d[0], qts, bus, 4);
    oe_open(&d[1], qts, bus, 5);
}

/*
 * Poll a QMP query whose answer has a "status" until it reads `want`
 * (never `fail`, if given).
 */
static void wait_status(QTestState *qts, const char *query, const char *want,
                        const char *fail)
{
    for (int i = 0; i < 3000; i++) {
        QDict *rsp = qtest_qmp(qts, "{'execute': %s}", query);
        QDict *ret = qdict_get_qdict(rsp, "return");
        const char *st = ret ? qdict_get_try_str(ret, "status") : NULL;
        bool done = st && !strcmp(st, want);

        g_assert_true(!st || !fail || strcmp(st, fail));
        qobject_unref(rsp);
        if (done) {
            return;
        }
        g_usleep(10000);
    }
    g_assert_not_reached();
}

static void test_migrate_mid_block(void)
{
    g_autofree char *hub = oe_hub_args(2, "link-speed=100");
    g_autofree char *sock = oe_tmp_path("migrate.sock");
    g_autofree char *uri = NULL;
    QTestState *src, *dst;
    QPCIBus *sbus, *dbus;
    OeDev s[2], d[2];
    uint32_t dma;

    src = oe_start("%s", hub);
    dst = oe_start("%s -incoming unix:%s", hub, sock);
    sbus = oe_bus(src);
    open_pair(src, sbus, s);
    oe_set_macs(&s[0], OE_MAC(0), 0);
    oe_set_macs(&s[1], OE_MAC(1), 0);
    oe_ram_fill(src, OE_RAM_BUF(0), BLOCK, 42);
    oe_wr(&s[0], OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 4096);
    oe_peer(&s[0], 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            OE_RAM_BUF(1), BLOCK, 0);
    oe_peer(&s[1], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL, OE_RAM_BUF(1),
            0, 16 * MiB, 0);
    /* 513 fragments at 100 Mbit/s take about 0.2 s: migrate meanwhile */
    oe_peer_start(&s[0], 0);
    g_usleep(20000);
    if (!oe_engine_is_c()) {
        /*
         * The RTL model keeps the main loop busy for the whole block, so
         * the migration thread would get the big lock only after the block
         * ended: migrate the VM stopped mid-block instead.
         */
        qtest_qmp_assert_success(src, "{'execute': 'stop'}");
    }
    uri = g_strdup_printf("unix:%s", sock);
    qtest_qmp_assert_success(src, "{'execute': 'migrate', 'arguments': "
                             "{'uri': %s}}", uri);
    wait_status(src, "query-migrate", "completed", "failed");

    /* the source stopped mid-block */
    dma = oe_rd(&s[0], OE_PEER_DMA(0));
    g_test_message("source peer dma at stop: 0x%08x", dma);
    g_assert_cmphex(dma & OE_PEER_DMA_IDLE_MASK, ==, 0);
    g_assert_cmpint(oe_ram_check(src, OE_RAM_BUF(1), BLOCK, 42), >=, 0);

    /* the destination finishes it (BARs keep the migrated addresses) */
    if (!oe_engine_is_c()) {
        /* a stopped source's VM stays paused on the destination */
        wait_status(dst, "query-status", "paused", NULL);
        qtest_qmp_assert_success(dst, "{'execute': 'cont'}");
    }
    qtest_qmp_eventwait(dst, "RESUME");
    dbus = oe_bus(dst);
    d[0].qts = d[1].qts = dst;
    for (int i = 0; i < 2; i++) {
        d[i].pci = qpci_device_find(dbus, QPCI_DEVFN(4 + i, 0));
        d[i].bar0 = s[i].bar0;
    }
    dma = oe_peer_wait(&d[0], 0);
    g_assert_cmphex(dma & (OE_PEER_DMA_DONE_MASK | OE_PEER_DMA_ERROR_MASK), ==,
                    OE_PEER_DMA_DONE_MASK);
    g_assert_cmpint(oe_ram_wait(dst, OE_RAM_BUF(1), BLOCK, 42, 5000), ==, -1);
    /* and the responder saw every fragment exactly as sent */
    g_assert_cmpuint(oe_rd(&d[1], OE_PEER_DMA(0)) & OE_PEER_DMA_ERROR_MASK,
                     ==, 0);

    for (int i = 0; i < 2; i++) {
        g_free(s[i].pci);
        g_free(d[i].pci);
    }
    qpci_free_pc(sbus);
    qpci_free_pc(dbus);
    qtest_quit(src);
    qtest_quit(dst);
}

/* Wait for a QMP job to conclude without error, then dismiss it. */
static void wait_job(QTestState *qts, const char *id)
{
    for (int i = 0; i < 3000; i++) {
        QDict *rsp = qtest_qmp(qts, "{'execute': 'query-jobs'}");
        QList *jobs = qdict_get_qlist(rsp, "return");
        bool done = false;
        QListEntry *e;

        QLIST_FOREACH_ENTRY(jobs, e) {
            QDict *job = qobject_to(QDict, qlist_entry_obj(e));

            if (!strcmp(qdict_get_str(job, "id"), id) &&
                !strcmp(qdict_get_str(job, "status"), "concluded")) {
                if (qdict_haskey(job, "error")) {
                    g_test_message("job %s: %s", id,
                                   qdict_get_str(job, "error"));
                }
                g_assert_false(qdict_haskey(job, "error"));
                done = true;
            }
        }
        qobject_unref(rsp);
        if (done) {
            qtest_qmp_assert_success(qts, "{'execute': 'job-dismiss', "
                                     "'arguments': {'id': %s}}", id);
            return;
        }
        g_usleep(10000);
    }
    g_assert_not_reached();
}

/*
 * A job command (a literal, so QMP interpolation sees no format), then
 * wait for the job.
 */
#define RUN_JOB(qts, id, cmd) do {              \
        qtest_qmp_assert_success(qts, cmd);     \
        wait_job(qts, id);                      \
    } while (0)

/*
 * snapshot-save mid-block, let the block finish, wipe the destination,
 * snapshot-load: the endpoint (engine, queued frames, timer) and RAM go back
 * to the snapshot and the block completes again with the right data.
 */
static void test_savevm_loadvm_mid_block(void)
{
    g_autofree char *hub = oe_hub_args(2, "link-speed=100");
    g_autofree char *img = oe_tmp_path("snap.qcow2");
    QTestState *qts;
    QPCIBus *bus;
    uint32_t dma;
    OeDev d[2];

    g_assert_true(g_file_set_contents(img, "", 0, NULL));
    qts = oe_start("%s -blockdev driver=file,filename=%s,node-name=file0",
                   hub, img);
    RUN_JOB(qts, "create", "{'execute': 'blockdev-create', 'arguments': "
            "{'job-id': 'create', 'options': {'driver': 'qcow2', "
            "'file': 'file0', 'size': 16777216}}}");
    qtest_qmp_assert_success(qts, "{'execute': 'blockdev-add', 'arguments': "
                             "{'driver': 'qcow2', 'file': 'file0', "
                             "'node-name': 'disk0'}}");
    bus = oe_bus(qts);
    open_pair(qts, bus, d);
    oe_set_macs(&d[0], OE_MAC(0), 0);
    oe_set_macs(&d[1], OE_MAC(1), 0);
    oe_ram_fill(qts, OE_RAM_BUF(0), BLOCK, 43);
    qtest_memset(qts, OE_RAM_BUF(1), 0, BLOCK);
    oe_wr(&d[0], OE_CONFIG_DMA_MAX_FRAGMENT_SIZE, 4096);
    oe_peer(&d[0], 0, OE_MAC(1), OE_MODE_MIRROR_LOCAL_TO_REMOTE, OE_RAM_BUF(0),
            OE_RAM_BUF(1), BLOCK, 0);
    oe_peer(&d[1], 0, OE_MAC(0), OE_MODE_MIRROR_REMOTE_TO_LOCAL, OE_RAM_BUF(1),
            0, 16 * MiB, 0);
    oe_peer_start(&d[0], 0);
    g_usleep(20000);
    RUN_JOB(qts, "save", "{'execute': 'snapshot-save', 'arguments': "
            "{'job-id': 'save', 'tag': 'mid', 'vmstate': 'disk0', "
            "'devices': ['disk0']}}");
    dma = oe_peer_wait(&d[0], 0);
    g_assert_cmphex(dma & OE_PEER_DMA_DONE_MASK, !=, 0);
    g_assert_cmpint(oe_ram_wait(qts, OE_RAM_BUF(1), BLOCK, 43, 5000), ==, -1);

    /* back to the middle of the block */
    qtest_memset(qts, OE_RAM_BUF(1), 0, BLOCK);
    oe_wr(&d[0], OE_PEER_DMA(0), 0);
    RUN_JOB(qts, "load", "{'execute': 'snapshot-load', 'arguments': "
            "{'job-id': 'load', 'tag': 'mid', 'vmstate': 'disk0', "
            "'devices': ['disk0']}}");
    dma = oe_rd(&d[0], OE_PEER_DMA(0));
    g_test_message("peer dma after loadvm: 0x%08x", dma);
    g_assert_cmphex(dma & OE_PEER_DMA_MODE_MASK, ==,
                    OE_MODE_MIRROR_LOCAL_TO_REMOTE);
    dma = oe_peer_wait(&d[0], 0);
    g_assert_cmphex(dma & (OE_PEER_DMA_DONE_MASK | OE_PEER_DMA_ERROR_MASK), ==,
                    OE_PEER_DMA_DONE_MASK);
    g_assert_cmpint(oe_ram_wait(qts, OE_RAM_BUF(1), BLOCK, 43, 5000), ==, -1);

    g_free(d[0].pci);
    g_free(d[1].pci);
    qpci_free_pc(bus);
    qtest_quit(qts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    qtest_add_func("/openenoc/migration/mid-block", test_migrate_mid_block);
    qtest_add_func("/openenoc/migration/savevm-loadvm-mid-block",
                   test_savevm_loadvm_mid_block);
    return g_test_run();
}
