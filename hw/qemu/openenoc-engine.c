/*
 * openenoc: choose the engine behind the seam.
 *
 * engine=c binds the C engine linked into QEMU. engine=rtl loads a shared
 * library (property rtl-model) that exports the same entry points as
 * include/openenoc/engine.h (oe_engine_new, oe_engine_csr_read, ...), e.g.
 * the Verilator model of rtl/ wrapped by hw/cosim/, bound with engine.h's
 * loader into the same table as the built-in engine. The library is opened
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

static const OeEngineApi openenoc_c_engine = OE_ENGINE_API_LINKED("c");

static bool openenoc_bind_rtl(OpenenocState *s, Error **errp)
{
    const char *missing;
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
    missing = oe_engine_api_load(&s->eng, "rtl", dlsym, m);
    if (missing) {
        error_setg(errp, "openenoc: rtl-model '%s' does not export %s",
                   s->rtl_model, missing);
        dlclose(m);
        return false;
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
    const char *why = NULL;

    if (!s->rtl_trace || !*s->rtl_trace) {
        return true;
    }
    if (!s->eng_is_rtl) {
        error_setg(errp, "openenoc: rtl-trace needs engine=rtl");
        return false;
    }
    if (!s->eng.trace) {
        error_setg(errp, "openenoc: rtl-model '%s' cannot trace "
                   "(no oe_cosim_trace)", s->rtl_model);
        return false;
    }
    if (s->eng.trace(s->engine, s->rtl_trace, s->rtl_trace_start,
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
