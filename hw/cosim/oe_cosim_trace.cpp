/*
 * FST waveforms of the RTL engine (oe_cosim_trace, include/openenoc/cosim.h):
 * built with -DOE_COSIM_TRACE against a --trace-fst model (make cosim-trace);
 * without it oe_cosim_trace only says so.
 */
#include <cstdint>
#ifdef OE_COSIM_TRACE
#include <set>
#endif

#include "oe_cosim_engine.h"
#include "openenoc/cosim.h"

using namespace oe_cosim;

#ifdef OE_COSIM_TRACE
namespace {

/* Engines with an open trace, closed at exit so the FST is complete even
 * when the host never frees its engine (QEMU at quit). */
struct TraceRegistry {
    std::set<OeEngine *> open;
    ~TraceRegistry()
    {
        for (OeEngine *e : open) {
            e->fst->close();
        }
    }
};
TraceRegistry traces;

}  // namespace

void oe_cosim::trace_close(OeEngine *e)
{
    if (e->fst) {
        e->fst->close();
        e->fst.reset();
        traces.open.erase(e);
    }
}
#endif

extern "C" {

int oe_cosim_trace(OeEngine *e, const char *path, uint64_t start, uint64_t cycles,
                   const char **err)
{
#ifdef OE_COSIM_TRACE
    if (!path || !*path) {
        *err = "no file name";
        return -1;
    }
    trace_close(e);
    Verilated::threadContextp(e->ctx.get());
    e->fst.reset(new VerilatedFstC());
    e->m->trace(e->fst.get(), 99);
    e->fst->open(path);
    if (!e->fst->isOpen()) {
        e->fst.reset();
        *err = "cannot create the FST file";
        return -1;
    }
    traces.open.insert(e);
    e->trace_origin = e->cycles;
    e->trace_start = e->cycles + start;
    e->trace_end = cycles && e->trace_start + cycles > e->trace_start ?
                   e->trace_start + cycles : UINT64_MAX;
    return 0;
#else
    (void)e;
    (void)path;
    (void)start;
    (void)cycles;
    *err = "this model library was built without tracing: use "
           "libopenenoc_rtl_trace.so (make cosim-trace)";
    return -1;
#endif
}

}  // extern "C"
