/*
 * The register store: one word per CSR offset holding the software-writable
 * fields, with the writable bits and reset values taken from the generated
 * register table (regs_table.h), so rw fields need no code of their own.
 * Command bits (rw/hwclr) stay set here until the owning controller takes
 * them. Controllers read and clear fields through this store; only the
 * decoder (csr.c) writes it on behalf of software.
 */
#include <string.h>

#include "engine_internal.h"
#include "openenoc/regs_table.h"

uint64_t oe_reg_mac(const OeEngine *e, uint32_t lo_off)
{
    return (uint64_t)(oe_reg(e, lo_off + 4) & 0xFFFF) << 32 |
           oe_reg(e, lo_off);
}

void oe_reg_clear_bits(OeEngine *e, uint32_t off, uint32_t mask)
{
    e->regs[off / 4] &= ~mask;
}

void oe_store_reset(OeEngine *e)
{
    memset(e->sw_mask, 0, sizeof(e->sw_mask));
    memset(e->reset_val, 0, sizeof(e->reset_val));
    for (size_t i = 0; i < OE_REG_WORDS_COUNT; i++) {
        uint32_t w = oe_reg_words[i].offset / 4;
        e->sw_mask[w] = oe_reg_words[i].sw_mask;
        e->reset_val[w] = oe_reg_words[i].reset & oe_reg_words[i].sw_mask;
    }
    /* Build-time parameters that differ from the RDL defaults. */
    e->reset_val[OE_CONFIG_DMA_MAX_FRAGMENT_SIZE / 4] = e->frag_ceiling;
    e->reset_val[OE_CONFIG_MAC_ADDRESS / 4] = (uint32_t)e->reset_mac;
    e->reset_val[OE_CONFIG_MAC_ADDRESS_HI / 4] = (uint32_t)(e->reset_mac >> 32);
    memcpy(e->regs, e->reset_val, sizeof(e->regs));
}

bool oe_store_write(OeEngine *e, uint32_t off, uint32_t lanes,
                    uint32_t value)
{
    uint32_t wm = lanes & e->sw_mask[off / 4];
    uint32_t *r = &e->regs[off / 4];

    *r = (*r & ~wm) | (value & wm);
    return wm != 0;
}
