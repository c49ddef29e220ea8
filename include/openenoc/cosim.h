/*
 * Optional entry points of the RTL engine library (hw/cosim/oe_cosim.cpp),
 * beyond include/openenoc/engine.h. A host finds them with dlsym and does
 * without them when absent (the C engine has neither).
 */
#ifndef OPENENOC_COSIM_H
#define OPENENOC_COSIM_H

#include <stdint.h>

#include "openenoc/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Write an FST waveform of the model to path: skip `start` model clock
 * cycles from now, then trace `cycles` cycles (0 = until oe_engine_free or
 * the process exits) and close the file. The FST time axis counts half
 * cycles of the model clock from this call (clk low at 2n, high at 2n+1,
 * 1 ns each); endpoint time jumps show on the time_step input. Only the
 * traced build (build/cosim/libopenenoc_rtl_trace.so, make cosim-trace) can
 * trace; the default library returns -1 with a message. Returns 0 or -1
 * with *err set to a static message. Calling it again replaces the trace.
 */
int oe_cosim_trace(OeEngine *e, const char *path, uint64_t start,
                   uint64_t cycles, const char **err);

/* Model clock cycles run since oe_engine_new (for cycles/s figures). */
uint64_t oe_cosim_cycles(const OeEngine *e);

#ifdef __cplusplus
}
#endif

#endif
