/*
 * openenoc endpoint engine interface: the one seam between a host (the QEMU
 * PCI shell, the conformance harness, fuzzers, benchmarks) and an endpoint
 * engine (the C engine in hw/engine/ or the Verilator RTL in hw/cosim/).
 *
 * Plain C11, no QEMU headers, no global state: any number of engines can live
 * in one process.
 *
 * Rules both sides keep:
 * - Calls are never nested. A host never calls into an engine from inside one
 *   of that engine's callbacks. A transmitted frame may be destined to another
 *   engine of the same host (or straight back): the host queues it and
 *   delivers it after the current call returns.
 * - Time is counted in endpoint clock cycles. The host tells the engine the
 *   current cycle with oe_engine_advance() before any other call once time
 *   has moved; time never goes backwards. The engine asks for a wake-up with
 *   host->arm_timer().
 * - The engine never retains pointers passed to it beyond the call.
 */
#ifndef OPENENOC_ENGINE_H
#define OPENENOC_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Size of the CSR aperture (BAR0 on PCI). */
#define OE_CSR_APERTURE_SIZE 0x2000u

/* arm_timer() argument meaning "no wake-up needed". */
#define OE_TIMER_NONE UINT64_MAX

/* Result of a local memory access, as an AXI response. */
typedef enum OeMemStatus {
    OE_MEM_OK = 0,
    OE_MEM_SLVERR = 2,   /* target error: codes 4 (read) / 6 (write) */
    OE_MEM_DECERR = 3,   /* no target at that address: codes 5 / 7 */
} OeMemStatus;

/* Result of a CSR access. */
typedef enum OeCsrStatus {
    OE_CSR_DONE = 0,     /* completed; a read's value is valid */
    OE_CSR_PENDING = 1,  /* RMEM window access waiting for the remote end:
                          * the host holds the bus access until
                          * host->csr_complete() */
} OeCsrStatus;

typedef struct OeHostOps {
    /*
     * Local memory, as the endpoint's bus master sees it. Addresses are the
     * 32-bit addresses written to the CSRs; len >= 1 and addr + len never
     * wraps 2^32. The engine never crosses a 4 KiB boundary in one call
     * (one AXI burst), so a failure is attributed to a burst.
     */
    OeMemStatus (*mem_read)(void *opaque, uint32_t addr, void *buf,
                            uint32_t len);
    OeMemStatus (*mem_write)(void *opaque, uint32_t addr, const void *buf,
                             uint32_t len);

    /*
     * Transmit one Ethernet frame (destination MAC first, no FCS, no
     * minimum-size padding). Handing the frame over is the Ethernet TLAST
     * handshake: response timers start now.
     */
    void (*tx_frame)(void *opaque, const uint8_t *frame, size_t len);

    /*
     * Optional (NULL = always true). False while the host's transmit path is
     * saturated (link pacing, a full queue): the engine then starts no new
     * locally initiated frame (peer DMA fragments, RMEM requests, raw and
     * direct frames); the host calls oe_engine_advance() when its path is
     * ready again. Replies to received requests are still sent, as they
     * have transmit priority.
     */
    bool (*tx_ready)(void *opaque);

    /*
     * The interrupt output. Called with true on every rising edge of
     * (irq.control.global_enable AND IRQ FIFO not empty), and again with true
     * when a completion pops the FIFO while it stays non-empty (one more
     * message for edge-triggered delivery); called with false on the falling
     * edge. A level-triggered host just follows the last value.
     */
    void (*set_irq)(void *opaque, bool level);

    /* Completes the one pending CSR access (value is the read data; ignored
     * for writes). */
    void (*csr_complete)(void *opaque, uint32_t value);

    /*
     * Call oe_engine_advance() once time reaches cycle (or as soon as possible
     * if cycle is not in the future). Replaces any earlier request;
     * OE_TIMER_NONE cancels.
     */
    void (*arm_timer)(void *opaque, uint64_t cycle);
} OeHostOps;

typedef struct OeEngineConfig {
    uint32_t max_raw_frame_size;  /* MAX_RAW_FRAME_SIZE, 36..8192; 0 = 8192 */
    uint64_t reset_mac;           /* reset value of config.mac_address */
    /*
     * Bytes per beat of the memory master's AXI4 bus: 4, 8, 16 or 32; 0 =
     * the engine's own (the C engine: 4; an RTL library: the bus it was
     * built with, which a nonzero value must equal). A transfer is cut into
     * host calls as that bus cuts it into bursts (at most 256 beats, from the
     * beat holding the first byte, never across 4 KiB: at 32 bytes the 4 KiB
     * rule alone, 128 beats), so a failing call covers
     * the same bytes on every engine configured alike.
     */
    uint32_t mem_beat_bytes;
} OeEngineConfig;

typedef struct OeEngine OeEngine;

/*
 * Create an engine in its hard-reset state at cycle 0. cfg may be NULL for
 * the defaults. Returns NULL (and sets *err to a static message if err is
 * not NULL) on an invalid configuration.
 */
OeEngine *oe_engine_new(const OeHostOps *ops, void *opaque,
                        const OeEngineConfig *cfg, const char **err);
void oe_engine_free(OeEngine *e);

/* Hard reset: every register, context, FIFO, pending event and the Request
 * ID counter. A pending CSR access is completed first (all ones). */
void oe_engine_reset(OeEngine *e);

/*
 * CSR access at offset (0 .. OE_CSR_APERTURE_SIZE - 1) of size 1, 2 or 4
 * bytes, naturally aligned; the value is right-aligned (byte lanes implied by
 * size and offset). Unmapped offsets read 0 and ignore writes. At most one
 * access may be pending at a time: the host must not issue another CSR access
 * to this engine until csr_complete() (only RMEM window accesses pend).
 */
OeCsrStatus oe_engine_csr_read(OeEngine *e, uint32_t offset, unsigned size,
                               uint32_t *value);
OeCsrStatus oe_engine_csr_write(OeEngine *e, uint32_t offset, unsigned size,
                                uint32_t value);

/* Deliver one received Ethernet frame (no FCS; padding allowed). Only call
 * when oe_engine_can_receive() is true. */
void oe_engine_rx_frame(OeEngine *e, const uint8_t *frame, size_t len);

/* False while the engine would have to backpressure reception (the direct
 * stream sink is full). The engine becomes ready again only as a result of a
 * host call (a CSR access, reset), after which the host re-checks. */
bool oe_engine_can_receive(const OeEngine *e);

/* Time is now cycle `now`: run whatever is due (timeouts, deferred work). */
void oe_engine_advance(OeEngine *e, uint64_t now);

/* Current cycle as last told by the host. */
uint64_t oe_engine_now(const OeEngine *e);

/*
 * Serialized state for migration (the whole endpoint: CSRs, contexts, IRQ
 * FIFO, timers, stream buffers). oe_engine_save() returns the number of bytes
 * needed and writes them if cap allows. oe_engine_load() returns 0 on
 * success, -1 on a malformed or incompatible blob (the engine is then hard
 * reset). A pending CSR access is not part of the state.
 */
size_t oe_engine_save(const OeEngine *e, uint8_t *buf, size_t cap);
int oe_engine_load(OeEngine *e, const uint8_t *buf, size_t len);

/* Test hook: set the Request ID counter (for wrap tests). */
void oe_engine_test_set_request_id(OeEngine *e, uint32_t next_id);

/*
 * The entry points as one table, for a host that runs an engine it loads
 * from a shared library (the QEMU device's engine=rtl, the benchmarks, the
 * differential test) beside or instead of the engine linked in. save/load
 * are optional (NULL: the engine's state cannot migrate); trace and cycles
 * are the RTL library's extras of include/openenoc/cosim.h (NULL if absent,
 * as for the C engine). name is the host's label for messages.
 */
typedef struct OeEngineApi {
    const char *name;
    OeEngine *(*create)(const OeHostOps *ops, void *opaque,
                        const OeEngineConfig *cfg, const char **err);
    void (*destroy)(OeEngine *e);
    void (*reset)(OeEngine *e);
    OeCsrStatus (*csr_read)(OeEngine *e, uint32_t offset, unsigned size,
                            uint32_t *value);
    OeCsrStatus (*csr_write)(OeEngine *e, uint32_t offset, unsigned size,
                             uint32_t value);
    void (*rx_frame)(OeEngine *e, const uint8_t *frame, size_t len);
    bool (*can_receive)(const OeEngine *e);
    void (*advance)(OeEngine *e, uint64_t now);
    uint64_t (*now)(const OeEngine *e);
    size_t (*save)(const OeEngine *e, uint8_t *buf, size_t cap);
    int (*load)(OeEngine *e, const uint8_t *buf, size_t len);
    int (*trace)(OeEngine *e, const char *path, uint64_t start,
                 uint64_t cycles, const char **err);
    uint64_t (*cycles)(const OeEngine *e);
} OeEngineApi;

/*
 * Every table entry with its exported symbol, once: X(field, symbol,
 * required). save/load count as one optional pair. The engine's own entry
 * points, then the RTL library's extras.
 */
#define OE_ENGINE_API_ENTRIES(X) \
    X(create, oe_engine_new, 1) \
    X(destroy, oe_engine_free, 1) \
    X(reset, oe_engine_reset, 1) \
    X(csr_read, oe_engine_csr_read, 1) \
    X(csr_write, oe_engine_csr_write, 1) \
    X(rx_frame, oe_engine_rx_frame, 1) \
    X(can_receive, oe_engine_can_receive, 1) \
    X(advance, oe_engine_advance, 1) \
    X(now, oe_engine_now, 1) \
    X(save, oe_engine_save, 0) \
    X(load, oe_engine_load, 0)
#define OE_ENGINE_API_EXTRAS(X) \
    X(trace, oe_cosim_trace, 0) \
    X(cycles, oe_cosim_cycles, 0)

/* The engine linked into this program (C: designated initializers). */
#define OE_ENGINE_API_LINKED_ENTRY(field, sym, required) .field = sym,
#define OE_ENGINE_API_LINKED(label) \
    { .name = (label), OE_ENGINE_API_ENTRIES(OE_ENGINE_API_LINKED_ENTRY) }

/*
 * Fill *api from a loaded library: lookup(handle, symbol) is e.g. dlsym.
 * Returns NULL, or the name of a required entry point the library does not
 * export (*api is then incomplete). Of save/load, one without the other is
 * as good as neither: both are NULL then.
 */
static inline const char *oe_engine_api_load(OeEngineApi *api,
                                             const char *label,
                                             void *(*lookup)(void *handle,
                                                             const char *sym),
                                             void *handle)
{
    void *fn;

    memset(api, 0, sizeof(*api));
    api->name = label;
#define OE_ENGINE_API_LOOKUP(field, sym, required) \
    fn = lookup(handle, #sym); \
    if (!fn && (required)) { \
        return #sym; \
    } \
    memcpy(&api->field, &fn, sizeof(fn));
    OE_ENGINE_API_ENTRIES(OE_ENGINE_API_LOOKUP)
    OE_ENGINE_API_EXTRAS(OE_ENGINE_API_LOOKUP)
#undef OE_ENGINE_API_LOOKUP
    if (!api->save || !api->load) {
        api->save = NULL;
        api->load = NULL;
    }
    return NULL;
}

#ifdef __cplusplus
}
#endif

#endif /* OPENENOC_ENGINE_H */
