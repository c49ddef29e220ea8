/*
 * The RTL engine's AXI4-Lite master for the CSR aperture (see oe_cosim.cpp):
 * one transaction per access; an access the model has not answered when
 * the call ends pends until it does (csr_complete).
 */
#include <cstdint>

#include "oe_cosim_engine.h"
#include "openenoc/regs.h"

namespace oe_cosim {

void csr_issue(OeEngine *e, uint32_t offset, unsigned size, bool is_read,
               uint32_t value)
{
    Vopenenoc_endpoint_axi *m = e->m.get();
    uint32_t shift = 8 * (offset & 3);
    uint32_t strb = ((1u << size) - 1) << (offset & 3);

    e->csr_busy = true;
    e->csr_done = false;
    e->csr_is_read = is_read;
    e->csr_offset = offset;
    e->csr_size = size;
    e->lite.aw = e->lite.w = !is_read;
    e->lite.ar = is_read;
    e->drive_due = true;
    m->s_axil_awaddr = offset;
    m->s_axil_araddr = offset;
    m->s_axil_awprot = 0;
    m->s_axil_arprot = 0;
    m->s_axil_wdata = value << shift;
    m->s_axil_wstrb = is_read ? 0 : strb;
}

OeCsrStatus csr_access(OeEngine *e, uint32_t offset, unsigned size,
                       bool is_read, uint32_t *value)
{
    if ((size != 1 && size != 2 && size != 4) || (offset & (size - 1)) ||
        offset >= OE_CSR_APERTURE_SIZE || e->csr_pending) {
        if (is_read) {
            *value = 0;
        }
        return OE_CSR_DONE;
    }
    csr_issue(e, offset, size, is_read, is_read ? 0 : *value);
    settle(e);
    if (e->csr_done) {
        e->csr_done = false;
        if (is_read) {
            *value = e->csr_value;
        }
        leave(e);
        return OE_CSR_DONE;
    }
    e->csr_pending = true;
    leave(e);
    return OE_CSR_PENDING;
}

}  // namespace oe_cosim
