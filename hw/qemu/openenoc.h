/*
 * openenoc PCI device: state shared by the shell's files.
 *
 * openenoc.c          QOM type, PCI config, BARs, interrupts, properties,
 *                     reset and migration
 * openenoc-mmio.c     BAR0: the CSR aperture, the ID block and RMEM window
 *                     accesses that block until the engine completes them
 * openenoc-host.c     the engine call boundary: every call into the engine
 *                     (enter/leave, so calls never nest), the wake-up timer,
 *                     the bottom half, received frames, and the engine's
 *                     host operations (memory, IRQ, timer, completion)
 * openenoc-net.c      the net side: frame queues, reception flow control,
 *                     the net backend and link pacing; used by
 *                     openenoc-host.c, never calling back into it
 * openenoc-engine.c   which engine runs behind the seam (C or RTL library)
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#ifndef HW_OPENENOC_H
#define HW_OPENENOC_H

#include "hw/pci/pci_device.h"
#include "net/net.h"
#include "qemu/queue.h"
#include "qemu/thread.h"
#include "qemu/timer.h"
#include "qom/object.h"
#include "system/runstate.h"
#include "openenoc/engine.h"
#include "openenoc/uapi_enoc.h"

#define TYPE_OPENENOC "openenoc"
OBJECT_DECLARE_SIMPLE_TYPE(OpenenocState, OPENENOC)

/* IDs and the model ID block are shared with the guest driver. */
#define OPENENOC_VENDOR_ID       ENOC_PCI_VENDOR_ID
#define OPENENOC_DEVICE_ID       ENOC_PCI_DEVICE_ID
#define OPENENOC_REVISION        1
#define OPENENOC_BAR_CSR         0
#define OPENENOC_BAR_MSIX        1
#define OPENENOC_ID_BASE         ENOC_MODEL_MAGIC_OFF  /* to the end of BAR0 */
#define OPENENOC_MODEL_VERSION   0x00010000u           /* 1.0 */

#define OPENENOC_DEFAULT_CLOCK_HZ 125000000u


typedef struct OpenenocFrame {
    QSIMPLEQ_ENTRY(OpenenocFrame) next;
    size_t len;
    uint8_t data[];
} OpenenocFrame;

typedef QSIMPLEQ_HEAD(, OpenenocFrame) OpenenocFrameQueue;

struct OpenenocState {
    PCIDevice parent_obj;

    MemoryRegion mmio;
    NICConf conf;
    NICState *nic;

    /* properties */
    uint32_t clock_hz;
    uint32_t link_mbps;
    uint32_t mem_beat_bytes;     /* OeEngineConfig.mem_beat_bytes */
    char *engine_kind;
    char *rtl_model;
    char *rtl_trace;             /* FST file of the model (traced library) */
    uint64_t rtl_trace_start;    /* first model cycle traced */
    uint64_t rtl_trace_cycles;   /* cycles traced; 0 = until the end */
    uint16_t vendor_id;
    uint16_t device_id;
    uint32_t wait_limit_ms;      /* testing: abandon a CSR wait after this */

    /* the engine and its call boundary (openenoc-host.c) */
    OeEngineApi eng;             /* built-in C engine or a loaded library */
    void *eng_module;            /* dlopen handle of an RTL engine library */
    bool eng_is_rtl;
    uint8_t af_cap;             /* Advanced Features capability (FLR) */
    OeEngine *engine;
    bool in_engine;              /* inside a call into the engine */
    bool guard_saved;
    int64_t call_ns;             /* engine_call trace: start of the call */
    uint64_t call_cycles;        /* and the model's cycle count then */
    QEMUBH *bh;                  /* deferred work: frames, kicks */
    QEMUTimer *timer;            /* engine wake-up, QEMU_CLOCK_VIRTUAL */
    bool bh_deferred;            /* the bottom half ran inside an engine call */
    bool again;                  /* the engine asked to be called at once */

    /* the one CSR access the engine may hold pending (RMEM window) */
    bool csr_pending;            /* an access is under way (its owner waits) */
    bool csr_done;               /* the engine completed it */
    bool csr_abandoned;          /* its owner gave up (VM stopping) */
    uint32_t csr_value;
    QemuCond csr_cond;

    /* frames between the engine and the net backend (openenoc-net.c) */
    OpenenocFrameQueue txq;
    OpenenocFrameQueue rxq;
    unsigned txq_len;
    unsigned rxq_len;
    bool tx_backend_busy;        /* backend queued a frame: wait for it */
    bool tx_throttled;           /* tx_ready() said no: kick when it clears */
    bool rx_refused;             /* can_receive() said no: flush later */
    bool rx_engine_blocked;      /* engine cannot receive until a CSR access */
    QEMUTimer *pace_timer;       /* QEMU_CLOCK_REALTIME, runs openenoc_bh */
    int64_t link_free_ns;        /* host time at which the paced link idles */
    bool pace_backlog;           /* a frame waited for the paced link */

    bool irq_level;
    VMChangeStateEntry *vmstate_entry;

    /* migration */
    uint8_t *vm_engine;
    uint32_t vm_engine_len;
    uint8_t *vm_frames;
    uint32_t vm_frames_len;
    Error *migration_blocker;
};

/* openenoc-engine.c */
bool openenoc_engine_bind(OpenenocState *s, Error **errp);
void openenoc_engine_unbind(OpenenocState *s);
bool openenoc_engine_trace(OpenenocState *s, Error **errp);

/* openenoc-host.c */
extern NetClientInfo openenoc_net_info;
bool openenoc_engine_create(OpenenocState *s, const OeEngineConfig *cfg,
                            Error **errp);
void openenoc_engine_free(OpenenocState *s);
bool openenoc_engine_busy_anywhere(void);
OeCsrStatus openenoc_engine_csr(OpenenocState *s, uint32_t offset,
                                unsigned size, bool is_write, uint32_t *value);
void openenoc_engine_reset(OpenenocState *s);
size_t openenoc_engine_save(OpenenocState *s, uint8_t **buf);
bool openenoc_engine_load(OpenenocState *s, const uint8_t *buf, size_t len);
void openenoc_timer_cb(void *opaque);
void openenoc_bh(void *opaque);          /* also the pacing timer's */

/* openenoc-mmio.c */
extern const MemoryRegionOps openenoc_mmio_ops;

/* openenoc-net.c */
void openenoc_net_tx_frame(void *opaque, const uint8_t *frame, size_t len);
bool openenoc_net_tx_ready(void *opaque);
bool openenoc_net_tx_resumed(OpenenocState *s);
void openenoc_net_tx_flush(OpenenocState *s);
bool openenoc_net_can_receive(NetClientState *nc);
bool openenoc_net_rx_direct(OpenenocState *s, const uint8_t *buf,
                            size_t len);
void openenoc_net_rx_queue(OpenenocState *s, const uint8_t *buf, size_t len);
OpenenocFrame *openenoc_net_rx_take(OpenenocState *s);
void openenoc_net_rx_untake(OpenenocState *s, OpenenocFrame *f);
void openenoc_net_rx_resume(OpenenocState *s);
void openenoc_net_rx_unblock(OpenenocState *s);
void openenoc_vm_state_change(void *opaque, bool running, RunState state);
void openenoc_net_clear(OpenenocState *s);
size_t openenoc_net_save(OpenenocState *s, uint8_t **buf);
bool openenoc_net_load(OpenenocState *s, const uint8_t *buf, size_t len);

#endif
