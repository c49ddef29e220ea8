/*
 * The engine configuration's rules, written once for both implementations of
 * engine.h (the C engine, hw/engine/engine.c, and the RTL co-simulation,
 * hw/cosim/oe_cosim.cpp): which host ops are required, the accepted
 * max_raw_frame_size, and the values derived from the configuration.
 */
#ifndef OPENENOC_ENGINE_CONFIG_H
#define OPENENOC_ENGINE_CONFIG_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "openenoc/engine.h"
#include "openenoc/oetp.h"

/* The configuration in force, from oe_engine_config_resolve(). */
typedef struct OeEngineSettings {
    uint32_t max_frame;     /* MAX_RAW_FRAME_SIZE: 36..OETP_FRAME_MAX */
    uint32_t frag_ceiling;  /* 4*floor((max_frame - 32)/4): the reset value
                             * of config.dma_max_fragment_size_bytes */
    uint64_t reset_mac;     /* reset value of config.mac_address (48 bits) */
    uint32_t mem_beat;      /* mem_beat_bytes as given: 4, 8, 16, 32, or 0 for
                             * the engine's own */
} OeEngineSettings;

/*
 * Check what oe_engine_new() was given and fill *out. Returns true when the
 * configuration is valid; else false, with the static error message
 * oe_engine_new() reports in *err (err may be NULL). cfg may be NULL for the
 * defaults. Both engines start oe_engine_new() with this one call.
 */
static inline bool oe_engine_config_resolve(const OeHostOps *ops,
                                            const OeEngineConfig *cfg,
                                            OeEngineSettings *out,
                                            const char **err)
{
    uint32_t max = cfg && cfg->max_raw_frame_size ? cfg->max_raw_frame_size
                                                  : OETP_FRAME_MAX;
    const char *bad = NULL;

    if (!ops || !ops->mem_read || !ops->mem_write || !ops->tx_frame) {
        bad = "host ops mem_read, mem_write and tx_frame are required";
    } else if (max < 36 || max > OETP_FRAME_MAX) {
        bad = "max_raw_frame_size must be 36..8192";
    } else if (cfg && cfg->mem_beat_bytes != 0 && cfg->mem_beat_bytes != 4 &&
               cfg->mem_beat_bytes != 8 && cfg->mem_beat_bytes != 16 &&
               cfg->mem_beat_bytes != 32) {
        bad = "mem_beat_bytes must be 0, 4, 8, 16 or 32";
    }
    if (bad) {
        if (err) {
            *err = bad;
        }
        return false;
    }
    out->max_frame = max;
    out->frag_ceiling = 4 * ((max - OETP_DMA_OVERHEAD) / 4);
    out->reset_mac = cfg ? cfg->reset_mac & 0xFFFFFFFFFFFFull : 0;
    out->mem_beat = cfg ? cfg->mem_beat_bytes : 0;
    return true;
}

#endif
