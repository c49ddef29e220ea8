/* Test runner: TAP output, per-test longjmp recovery and cleanups. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

typedef struct HCleanup {
    void (*fn)(void *);
    void *arg;
} HCleanup;

static jmp_buf h_jmp;
static bool h_in_test;
static bool h_skipped;
static char h_skip_reason[256];
static HCleanup *h_cleanups;
static size_t h_ncleanups, h_capcleanups;

void h_cleanup(void (*fn)(void *), void *arg)
{
    if (!h_in_test) {
        return;   /* outside a test (fuzzing) the caller frees */
    }
    if (h_ncleanups == h_capcleanups) {
        h_capcleanups = h_capcleanups ? 2 * h_capcleanups : 16;
        h_cleanups = realloc(h_cleanups, h_capcleanups * sizeof(*h_cleanups));
        if (!h_cleanups) {
            abort();
        }
    }
    h_cleanups[h_ncleanups++] = (HCleanup){ fn, arg };
}

static void run_cleanups(void)
{
    while (h_ncleanups) {
        HCleanup c = h_cleanups[--h_ncleanups];
        c.fn(c.arg);
    }
}

void h_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("# ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

void h_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# FAIL %s:%d: ", file, line);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    fflush(stdout);
    if (!h_in_test) {
        abort();   /* a fuzzer records this as a crash with its input */
    }
    longjmp(h_jmp, 1);
}

void h_skip(const char *why)
{
    h_skipped = true;
    snprintf(h_skip_reason, sizeof(h_skip_reason), "%s", why);
    if (!h_in_test) {
        exit(77);
    }
    longjmp(h_jmp, 2);
}

static bool selected(int argc, char **argv, const char *name)
{
    if (argc <= 1) {
        return true;
    }
    for (int i = 1; i < argc; i++) {
        if (strstr(name, argv[i])) {
            return true;
        }
    }
    return false;
}

void h_plan(size_t ntests)
{
    printf("1..%zu\n", ntests);
}

bool h_run_one(size_t num, const char *name, void (*fn)(void *), void *arg)
{
    volatile int r;

    h_skipped = false;
    h_in_test = true;
    r = setjmp(h_jmp);
    if (r == 0) {
        fn(arg);
    }
    h_in_test = false;
    run_cleanups();
    if (r == 2) {
        printf("ok %zu - %s # SKIP %s\n", num, name, h_skip_reason);
    } else if (r == 1) {
        printf("not ok %zu - %s\n", num, name);
    } else {
        printf("ok %zu - %s\n", num, name);
    }
    fflush(stdout);
    return r != 1;
}

static void call_plain(void *fn)
{
    const HTest *t = fn;
    t->fn();
}

int h_main(int argc, char **argv, const HTest *tests, size_t ntests)
{
    size_t planned = 0, failed = 0, n = 0;

    if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        printf("usage: %s [--list] [SUBSTRING...]\n"
               "Runs the tests whose name contains any SUBSTRING (all if "
               "none) and prints TAP.\n", argv[0]);
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--list")) {
        for (size_t i = 0; i < ntests; i++) {
            puts(tests[i].name);
        }
        return 0;
    }
    for (size_t i = 0; i < ntests; i++) {
        planned += selected(argc, argv, tests[i].name);
    }
    h_plan(planned);
    for (size_t i = 0; i < ntests; i++) {
        if (selected(argc, argv, tests[i].name)) {
            failed += !h_run_one(++n, tests[i].name, call_plain,
                                 (void *)&tests[i]);
        }
    }
    free(h_cleanups);
    h_cleanups = NULL;
    h_capcleanups = 0;
    if (failed) {
        printf("# %zu of %zu tests failed\n", failed, n);
    }
    return failed ? 1 : 0;
}
