/*
 * The harness's frame-buffer pool (tests/harness/framepool.c): a buffer
 * keeps its bytes while handed out, freed buffers are reused first in,
 * first out (late reuse, like ASan's quarantine), and under ASan only the
 * bytes of a frame are addressable: a use after free, past the frame's
 * length (also after a trim) or before its start is reported.
 */
#include <string.h>

#include "check.h"
#include "framepool.h"

static HFramePool *pool;

static void destroy(void *p)
{
    hp_destroy(p);
}

static HFramePool *new_pool(void)
{
    pool = hp_new();
    h_cleanup(destroy, pool);
    return pool;
}

static void buffers_keep_their_bytes_and_are_reused_in_fifo_order(void)
{
    HFramePool *p = new_pool();
    uint8_t *a = hp_alloc(p, 10), *b = hp_alloc(p, 60), *c, *d, *e, *big;

    H_CHECK(a != b);
    memset(a, 0xAA, 10);
    memset(b, 0xBB, 60);
    H_EQ(a[9], 0xAA);
    H_EQ(b[0], 0xBB);
    hp_free(p, a);
    hp_free(p, b);
    c = hp_alloc(p, 64);       /* same 64-byte class: the first freed */
    d = hp_alloc(p, 1);
    H_CHECK(c == a);
    H_CHECK(d == b);
    e = hp_alloc(p, 33);             /* the class is empty: a new one */
    H_CHECK(e != a && e != b);
    big = hp_alloc(p, 100000);       /* beyond every class */
    memset(big, 1, 100000);
    hp_free(p, big);
    hp_free(p, NULL);
    /* freed ones are released by hp_destroy (LeakSanitizer checks it) */
    hp_free(p, c);
    hp_free(p, d);
    hp_free(p, e);
}

static void only_a_frames_bytes_are_addressable_under_asan(void)
{
#ifdef HP_ASAN
    HFramePool *p = new_pool();
    uint8_t *a = hp_alloc(p, 10), *big;

    H_CHECK(!__asan_region_is_poisoned(a, 10));
    H_CHECK(__asan_address_is_poisoned(a + 10));   /* past the length */
    H_CHECK(__asan_address_is_poisoned(a + 63));   /* rest of the class */
    H_CHECK(__asan_address_is_poisoned(a - 1));    /* the pool's header */
    hp_trim(a, 5);
    H_CHECK(!__asan_region_is_poisoned(a, 5));
    H_CHECK(__asan_address_is_poisoned(a + 5));
    hp_free(p, a);
    H_CHECK(__asan_address_is_poisoned(a));        /* use after free */
    a = hp_alloc(p, 64);
    H_CHECK(!__asan_region_is_poisoned(a, 64));
    hp_free(p, a);
    big = hp_alloc(p, 70000);
    H_CHECK(!__asan_region_is_poisoned(big, 70000));
    H_CHECK(__asan_address_is_poisoned(big + 70000));
    hp_free(p, big);
#else
    h_skip("not built with AddressSanitizer");
#endif
}

int main(int argc, char **argv)
{
    static const HTest tests[] = {
        H_TEST(buffers_keep_their_bytes_and_are_reused_in_fifo_order),
        H_TEST(only_a_frames_bytes_are_addressable_under_asan),
    };
    return h_main(argc, argv, tests, sizeof(tests) / sizeof(tests[0]));
}
