/*
 * Simulated local memory of one engine: sparse regions, injectable
 * SLVERR/DECERR ranges and a log of every access the engine made, which the
 * tests and the fuzz oracle inspect.
 */
#include <stdlib.h>
#include <string.h>

#include "harness.h"

void hm_region(HMem *m, uint32_t base, uint64_t size)
{
    HMemRegion *r;

    H_CHECKF(m->nregions < sizeof(m->regions) / sizeof(m->regions[0]),
             "too many memory regions");
    H_CHECKF(size && base + size <= (1ull << 32), "bad region");
    r = &m->regions[m->nregions++];
    r->base = base;
    r->size = size;
    r->bytes = calloc(1, size);
    H_CHECK(r->bytes != NULL);
}

static HMemRegion *find_region(HMem *m, uint32_t addr, uint64_t len)
{
    for (unsigned i = 0; i < m->nregions; i++) {
        HMemRegion *r = &m->regions[i];
        if (addr >= r->base && (uint64_t)addr + len <= r->base + r->size) {
            return r;
        }
    }
    return NULL;
}

uint8_t *hm_ptr(HMem *m, uint32_t addr, uint64_t len)
{
    HMemRegion *r = find_region(m, addr, len);

    H_CHECKF(r, "test memory access 0x%x+%llu is not backed", addr,
             (unsigned long long)len);
    return r->bytes + (addr - r->base);
}

void hm_put(HMem *m, uint32_t addr, const void *src, uint64_t len)
{
    memcpy(hm_ptr(m, addr, len), src, len);
}

void hm_get(HMem *m, uint32_t addr, void *dst, uint64_t len)
{
    memcpy(dst, hm_ptr(m, addr, len), len);
}

uint8_t hm_pattern_byte(uint64_t i, unsigned seed)
{
    /* Never 0, so zero padding and stale data stand out; period 251 keeps
     * it from aligning with word or page boundaries. */
    return (uint8_t)(1 + (i * 7 + seed * 31 + (i / 251)) % 251);
}

void hm_pattern(HMem *m, uint32_t addr, uint64_t len, unsigned seed)
{
    uint8_t *p = hm_ptr(m, addr, len);
    for (uint64_t i = 0; i < len; i++) {
        p[i] = hm_pattern_byte(i, seed);
    }
}

void hm_error(HMem *m, uint32_t base, uint64_t len, OeMemStatus status,
              unsigned ops)
{
    H_CHECKF(m->nerrors < sizeof(m->errors) / sizeof(m->errors[0]),
             "too many error ranges");
    m->errors[m->nerrors++] = (HMemError){ base, len, status, ops };
}

void hm_clear_errors(HMem *m)
{
    m->nerrors = 0;
}

void hm_log_clear(HMem *m)
{
    m->nlog = 0;
}

static bool want(const HMemAccess *a, unsigned ops)
{
    return (ops & (a->write ? HM_WRITE : HM_READ)) != 0;
}

size_t hm_log_count(const HMem *m, unsigned ops)
{
    size_t n = 0;
    for (size_t i = 0; i < m->nlog; i++) {
        n += want(&m->log[i], ops);
    }
    return n;
}

bool hm_log_within(const HMem *m, unsigned ops, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < m->nlog; i++) {
        const HMemAccess *a = &m->log[i];
        if (want(a, ops) && (a->addr < lo || (uint64_t)a->addr + a->len > hi)) {
            return false;
        }
    }
    return true;
}

uint64_t hm_log_bytes(const HMem *m, unsigned ops)
{
    uint64_t n = 0;
    for (size_t i = 0; i < m->nlog; i++) {
        if (want(&m->log[i], ops)) {
            n += m->log[i].len;
        }
    }
    return n;
}

/* The host side of mem_read/mem_write (called from world.c). */
OeMemStatus hm_access(HMem *m, bool write, uint32_t addr, void *buf,
                      uint32_t len, uint64_t cycle)
{
    OeMemStatus st = OE_MEM_OK;
    HMemRegion *r;

    for (unsigned i = 0; i < m->nerrors && st == OE_MEM_OK; i++) {
        const HMemError *e = &m->errors[i];
        if ((e->ops & (write ? HM_WRITE : HM_READ)) &&
            (uint64_t)addr < e->base + e->len &&
            (uint64_t)addr + len > e->base) {
            st = e->status;
        }
    }
    r = find_region(m, addr, len);
    if (st == OE_MEM_OK && !r) {
        st = OE_MEM_DECERR;
    }
    if (st == OE_MEM_OK) {
        uint8_t *p = r->bytes + (addr - r->base);
        if (write) {
            memcpy(p, buf, len);
        } else {
            memcpy(buf, p, len);
        }
    } else if (!write) {
        /* A failed read returns junk the engine must not use. */
        memset(buf, 0xDE, len);
    }
    if (m->nlog == m->caplog) {
        m->caplog = m->caplog ? 2 * m->caplog : 256;
        m->log = realloc(m->log, m->caplog * sizeof(*m->log));
        if (!m->log) {
            abort();
        }
    }
    m->log[m->nlog++] = (HMemAccess){ write, addr, len, st, cycle };
    return st;
}

void hm_snapshot(HMem *m)
{
    for (unsigned i = 0; i < m->nregions; i++) {
        HMemRegion *r = &m->regions[i];
        free(m->pristine[i]);
        m->pristine[i] = malloc(r->size);
        H_CHECK(m->pristine[i] != NULL);
        memcpy(m->pristine[i], r->bytes, r->size);
    }
}

void hm_restore(HMem *m)
{
    for (size_t k = 0; k < m->nlog; k++) {
        const HMemAccess *a = &m->log[k];
        HMemRegion *r;
        unsigned i;

        if (!a->write || a->status != OE_MEM_OK) {
            continue;
        }
        r = find_region(m, a->addr, a->len);
        i = (unsigned)(r - m->regions);
        if (m->pristine[i]) {
            memcpy(r->bytes + (a->addr - r->base),
                   m->pristine[i] + (a->addr - r->base), a->len);
        }
    }
    m->nlog = 0;
    m->nerrors = 0;
}

void hm_free(HMem *m)
{
    for (unsigned i = 0; i < m->nregions; i++) {
        free(m->regions[i].bytes);
        free(m->pristine[i]);
    }
    free(m->log);
    memset(m, 0, sizeof(*m));
}
