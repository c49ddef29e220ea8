/*
 * The harness's frame-buffer pool (see framepool.h). Why: every frame a
 * node sends is copied into its TX list and into each receiver's queue;
 * with one malloc per copy, a fuzz input spent a quarter of its time in
 * ASan's allocator and page faults (its quarantine hands out fresh memory).
 *
 * Buffers come in power-of-two size classes (64 B .. 64 KiB; larger ones
 * are malloc'ed alone). A free list is first in, first out, so a freed
 * buffer is reused as late as possible: a stale pointer into it meets
 * poisoned memory for as long as the pool allows, much as ASan's
 * quarantine does for freed heap memory. The free lists are rings of
 * pointers outside the buffers: LeakSanitizer does not follow pointers
 * stored in poisoned memory, so links inside free buffers read as leaks.
 */
#include <stdlib.h>

#include "framepool.h"

#ifdef HP_ASAN
#define HP_POISON(a, n)   ASAN_POISON_MEMORY_REGION((a), (n))
#define HP_UNPOISON(a, n) ASAN_UNPOISON_MEMORY_REGION((a), (n))
#else
#define HP_POISON(a, n)   ((void)(a), (void)(n))
#define HP_UNPOISON(a, n) ((void)(a), (void)(n))
#endif

#define HP_MIN_SHIFT 6
#define HP_CLASSES 11          /* 64 B << 0 .. 10: up to 64 KiB */

/* Before every buffer; poisoned except while the pool reads it (so an
 * underrun of a frame is caught too). 16 bytes keeps data aligned. */
typedef struct HpHdr {
    uint64_t cap;              /* data bytes */
    int64_t cls;               /* -1: larger than every class */
} HpHdr;

/* Free buffers of one class: v[head .. head + n) modulo cap. */
typedef struct HpRing {
    HpHdr **v;
    size_t head, n, cap;
} HpRing;

struct HFramePool {
    HpRing free[HP_CLASSES];
};

static uint8_t *hdr_data(HpHdr *h)
{
    return (uint8_t *)(h + 1);
}

static HpHdr *data_hdr(uint8_t *buf)
{
    HpHdr *h = (HpHdr *)buf - 1;

    HP_UNPOISON(h, sizeof(*h));
    return h;
}

static void hdr_close(HpHdr *h)
{
    HP_POISON(h, sizeof(*h));
}

HFramePool *hp_new(void)
{
    HFramePool *p = calloc(1, sizeof(*p));

    if (!p) {
        abort();
    }
    return p;
}

static void ring_put(HpRing *r, HpHdr *h)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        HpHdr **v = malloc(cap * sizeof(*v));
        if (!v) {
            abort();
        }
        for (size_t i = 0; i < r->n; i++) {
            v[i] = r->v[(r->head + i) % r->cap];
        }
        free(r->v);
        r->v = v;
        r->cap = cap;
        r->head = 0;
    }
    r->v[(r->head + r->n++) % r->cap] = h;
}

static HpHdr *ring_take(HpRing *r)
{
    HpHdr *h;

    if (!r->n) {
        return NULL;
    }
    h = r->v[r->head];
    r->head = (r->head + 1) % r->cap;
    r->n--;
    return h;
}

void hp_destroy(HFramePool *p)
{
    if (!p) {
        return;
    }
    for (int c = 0; c < HP_CLASSES; c++) {
        HpHdr *h;
        while ((h = ring_take(&p->free[c])) != NULL) {
            HP_UNPOISON(h, sizeof(*h) + ((size_t)1 << (HP_MIN_SHIFT + c)));
            free(h);
        }
        free(p->free[c].v);
    }
    free(p);
}

uint8_t *hp_alloc(HFramePool *p, size_t len)
{
    int c = 0;
    HpHdr *h = NULL;

    while (c < HP_CLASSES && ((size_t)1 << (HP_MIN_SHIFT + c)) < len) {
        c++;
    }
    if (c < HP_CLASSES) {
        h = ring_take(&p->free[c]);
    }
    if (!h) {
        size_t cap = c < HP_CLASSES ? (size_t)1 << (HP_MIN_SHIFT + c) : len;
        h = malloc(sizeof(*h) + cap);
        if (!h) {
            abort();
        }
        h->cap = cap;
        h->cls = c < HP_CLASSES ? c : -1;
        hdr_close(h);
        HP_POISON(hdr_data(h), cap);
    }
    HP_UNPOISON(hdr_data(h), len);
    return hdr_data(h);
}

void hp_trim(uint8_t *buf, size_t len)
{
    HpHdr *h = data_hdr(buf);

    if (len > h->cap) {
        abort();
    }
    HP_POISON(buf + len, h->cap - len);
    hdr_close(h);
}

void hp_free(HFramePool *p, uint8_t *buf)
{
    HpHdr *h;

    if (!buf) {
        return;
    }
    h = data_hdr(buf);
    if (h->cls < 0) {
        HP_UNPOISON(buf, h->cap);
        free(h);
        return;
    }
    HP_POISON(buf, h->cap);
    ring_put(&p->free[h->cls], h);
    hdr_close(h);
}
