/*
 * openenoc: choose the engine behind the seam.
 *
 * engine=c binds the C engine linked into QEMU. engine=rtl loads a shared
 * library (property rtl-model) that exports the same entry points as
 * include/openenoc/engine.h (oe_engine_new, oe_engine_csr_read, ...), e.g.
 * the Verilator model of rtl/ wrapped by hw/cosim/. The library is opened
 * with local binding so its symbols never replace the built-in engine's.
 * oe_engine_save/load are optional: without them the device blocks
 * migration. rtl-trace needs oe_cosim_trace (include/openenoc/cosim.h),
 * which the traced build of the model implements.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include <dlfcn.h>
#include "openenoc.h"
#include "openenoc/cosim.h"

static const OpenenocEngineOps openenoc_c_engine = {
    .new = oe_engine_new,
    .free = oe_engine_free,
    .reset = oe_engine_reset,
    .csr_read = oe_engine_csr_read,
    .csr_write = oe_engine_csr_write,
    .rx_frame = oe_engine_rx_frame,
    .can_receive = oe_engine_can_receive,
    .advance = oe_engine_advance,
    .now = oe_engine_now,
    .save = oe_engine_save,
    .load = oe_engine_load,
};

/* Entry points an engine library must export. */
static const struct {
    const char *name;
    size_t offset;
} openenoc_engine_symbols[] = {
    { "oe_engine_new", offsetof(OpenenocEngineOps, new) },
    { "oe_engine_free", offsetof(OpenenocEngineOps, free) },
    { "oe_engine_reset", offsetof(OpenenocEngineOps, reset) },
    { "oe_engine_csr_read", offsetof(OpenenocEngineOps, csr_read) },
    { "oe_engine_csr_write", offsetof(OpenenocEngineOps, csr_write) },
    { "oe_engine_rx_frame", offsetof(OpenenocEngineOps, rx_frame) },
    { "oe_engine_can_receive", offsetof(OpenenocEngineOps, can_receive) },
    { "oe_engine_advance", offsetof(OpenenocEngineOps, advance) },
    { "oe_engine_now", offsetof(OpenenocEngineOps, now) },
};

/* Bind one entry point of m into s->eng at offset; false if m lacks it. */
static bool openenoc_bind_symbol(OpenenocState *s, void *m, const char *name,
                                 size_t offset)
{
    void *fn = dlsym(m, name);

    if (fn) {
        memcpy((char *)&s->eng + offset, &fn, sizeof(fn));
    }
    return fn != NULL;
}

static bool openenoc_bind_rtl(OpenenocState *s, Error **errp)
{
    void *m;

    if (!s->rtl_model || !*s->rtl_model) {
        error_setg(errp, "openenoc: engine=rtl needs rtl-model=<path of the "
                   "Verilator model library>");
        return false;
    }
    m = dlopen(s->rtl_model, RTLD_NOW | RTLD_LOCAL);
    if (!m) {
        error_setg(errp, "openenoc: cannot load rtl-model '%s': %s",
                   s->rtl_model, dlerror());
        return false;
    }
    memset(&s->eng, 0, sizeof(s->eng));
    for (size_t i = 0; i < ARRAY_SIZE(openenoc_engine_symbols); i++) {
        if (!openenoc_bind_symbol(s, m, openenoc_engine_symbols[i].name,
                                  openenoc_engine_symbols[i].offset)) {
            error_setg(errp, "openenoc: rtl-model '%s' does not export %s",
                       s->rtl_model, openenoc_engine_symbols[i].name);
            dlclose(m);
            return false;
        }
    }
    /* migration needs both; one without the other is as good as neither */
    if (!openenoc_bind_symbol(s, m, "oe_engine_save",
                              offsetof(OpenenocEngineOps, save)) ||
        !openenoc_bind_symbol(s, m, "oe_engine_load",
                              offsetof(OpenenocEngineOps, load))) {
        s->eng.save = NULL;
        s->eng.load = NULL;
    }
    s->eng_module = m;
    s->eng_is_rtl = true;
    return true;
}

bool openenoc_engine_bind(OpenenocState *s, Error **errp)
{
    const char *kind = s->engine_kind ? s->engine_kind : "c";

    if (!strcmp(kind, "c")) {
        if (s->rtl_model && *s->rtl_model) {
            error_setg(errp, "openenoc: rtl-model is only meaningful with "
                       "engine=rtl");
            return false;
        }
        s->eng = openenoc_c_engine;
        s->eng_is_rtl = false;
        return true;
    }
    if (!strcmp(kind, "rtl")) {
        return openenoc_bind_rtl(s, errp);
    }
    error_setg(errp, "openenoc: engine must be 'c' or 'rtl', not '%s'", kind);
    return false;
}

/* rtl-trace: start the model's FST waveform once the engine exists. */
bool openenoc_engine_trace(OpenenocState *s, Error **errp)
{
    int (*trace)(OeEngine *, const char *, uint64_t, uint64_t, const char **);
    const char *why = NULL;

    if (!s->rtl_trace || !*s->rtl_trace) {
        return true;
    }
    if (!s->eng_is_rtl) {
        error_setg(errp, "openenoc: rtl-trace needs engine=rtl");
        return false;
    }
    trace = dlsym(s->eng_module, "oe_cosim_trace");
    if (!trace) {
        error_setg(errp, "openenoc: rtl-model '%s' cannot trace "
                   "(no oe_cosim_trace)", s->rtl_model);
        return false;
    }
    if (trace(s->engine, s->rtl_trace, s->rtl_trace_start,
              s->rtl_trace_cycles, &why) < 0) {
        error_setg(errp, "openenoc: rtl-trace '%s': %s", s->rtl_trace,
                   why ? why : "failed");
        return false;
    }
    return true;
}

void openenoc_engine_unbind(OpenenocState *s)
{
    if (s->eng_module) {
        dlclose(s->eng_module);
        s->eng_module = NULL;
    }
}
