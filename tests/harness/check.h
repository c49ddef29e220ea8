/*
 * Minimal test runner for the conformance suite: each program lists its
 * tests (named after the rule they check) and prints TAP, so meson reports
 * every test by name. A failed check ends the current test only (longjmp);
 * resources registered with h_cleanup() are released before the next one.
 */
#ifndef OE_TEST_CHECK_H
#define OE_TEST_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct HTest {
    const char *name;
    void (*fn)(void);
} HTest;

#define H_TEST(fn) { #fn, fn }

/* Runs the tests named on the command line (all if none); TAP on stdout.
 * Returns the process exit status. */
int h_main(int argc, char **argv, const HTest *tests, size_t ntests);

/* For runners with a dynamic test list (the vector runner): print the TAP
 * plan, then run each test; h_run_one returns false if it failed. */
void h_plan(size_t ntests);
bool h_run_one(size_t num, const char *name, void (*fn)(void *), void *arg);

#if defined(__GNUC__)
#define H_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define H_PRINTF(a, b)
#endif

_Noreturn void h_fail(const char *file, int line, const char *fmt, ...)
    H_PRINTF(3, 4);
/* Diagnostic line (TAP comment). */
void h_note(const char *fmt, ...) H_PRINTF(1, 2);
/* Mark the current test as skipped with a reason and end it. */
_Noreturn void h_skip(const char *why);

/* Call fn(arg) when the current test ends, however it ends. Outside a
 * test (a fuzz target) this does nothing and a failed check aborts. */
void h_cleanup(void (*fn)(void *), void *arg);

#define H_CHECK(cond) \
    do { \
        if (!(cond)) { \
            h_fail(__FILE__, __LINE__, "check failed: %s", #cond); \
        } \
    } while (0)

#define H_CHECKF(cond, ...) \
    do { \
        if (!(cond)) { \
            h_fail(__FILE__, __LINE__, __VA_ARGS__); \
        } \
    } while (0)

#define H_EQ(a, b) \
    do { \
        unsigned long long a_ = (unsigned long long)(a); \
        unsigned long long b_ = (unsigned long long)(b); \
        if (a_ != b_) { \
            h_fail(__FILE__, __LINE__, "%s == %s: got 0x%llx (%llu), " \
                   "want 0x%llx (%llu)", #a, #b, a_, a_, b_, b_); \
        } \
    } while (0)

#endif /* OE_TEST_CHECK_H */
