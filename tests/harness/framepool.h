/*
 * Frame buffers of the harness world (its frame lists and delivery
 * queues), reused instead of one malloc per frame. Under ASan a buffer is
 * addressable only from hp_alloc() to hp_free() and only for the length
 * asked for: a use after free or past the frame's length is still reported
 * (as a use-after-poison), as with malloc'ed frames.
 */
#ifndef OPENENOC_TESTS_FRAMEPOOL_H
#define OPENENOC_TESTS_FRAMEPOOL_H

#include <stddef.h>
#include <stdint.h>

/* HP_ASAN: built with AddressSanitizer (clang or gcc), so buffers are
 * poisoned; <sanitizer/asan_interface.h> is then available. */
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HP_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) && !defined(HP_ASAN)
#define HP_ASAN 1
#endif
#ifdef HP_ASAN
#include <sanitizer/asan_interface.h>
#endif

typedef struct HFramePool HFramePool;

HFramePool *hp_new(void);
/* Frees every buffer; those still handed out must be freed before. */
void hp_destroy(HFramePool *p);
/* A buffer of len bytes (uninitialised; len 0 allowed). */
uint8_t *hp_alloc(HFramePool *p, size_t len);
/* Only the first len bytes of buf stay addressable (len <= its size). */
void hp_trim(uint8_t *buf, size_t len);
/* Back to the pool (NULL allowed). */
void hp_free(HFramePool *p, uint8_t *buf);

#endif
