/*
 * openenoc: choose the engine behind the seam.
 *
 * engine=c binds the C engine linked into QEMU. engine=rtl loads a shared
 * library (property rtl-model) that exports the same entry points as
 * include/openenoc/engine.h (oe_engine_new, oe_engine_csr_read, ...), e.g.
 * the Verilator model of rtl/ wrapped by hw/cosim/. The library is opened
 * with local binding so its symbols never replace the built-in engine's.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include <dlfcn.h>
#include "openenoc.h"

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

static bool openenoc_bind_symbol(void *m, const char *name, void *slot,
                                 const char *path, Error **errp)
{
    *(void **)slot = dlsym(m, name);
    if (!*(void **)slot) {
        error_setg(errp, "openenoc: rtl-model '%s' does not export %s",
                   path, name);
        return false;
    }
    return true;
}

static bool openenoc_bind_rtl(OpenenocState *s, Error **errp)
{
    OpenenocEngineOps *o = &s->eng;
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
    if (!openenoc_bind_symbol(m, "oe_engine_new", &o->new, s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_free", &o->free, s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_reset", &o->reset, s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_csr_read", &o->csr_read,
                              s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_csr_write", &o->csr_write,
                              s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_rx_frame", &o->rx_frame,
                              s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_can_receive", &o->can_receive,
                              s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_advance", &o->advance,
                              s->rtl_model, errp) ||
        !openenoc_bind_symbol(m, "oe_engine_now", &o->now, s->rtl_model, errp)) {
        dlclose(m);
        return false;
    }
    /* The RTL engine's state is not serialisable: migration is blocked. */
    o->save = NULL;
    o->load = NULL;
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

void openenoc_engine_unbind(OpenenocState *s)
{
    if (s->eng_module) {
        dlclose(s->eng_module);
        s->eng_module = NULL;
    }
}
