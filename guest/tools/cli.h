/*
 * Helpers shared by the guest tools (enocctl, enoc-repl, enoc-test):
 * argument parsing with clear messages, and the checksum the demo uses.
 */
#ifndef ENOC_CLI_H
#define ENOC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "enoc.h"

extern const char *cli_prog;

/* Print "prog: message" (and the library's last error when lib is true) to
 * stderr and exit with status 1 (2 for usage errors). */
void cli_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void cli_usage_error(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Exit 1 with the library's message when err < 0. */
void cli_check(int err);

/* Numbers: decimal or 0x hex, with an optional K/M/G (binary) suffix. */
uint64_t cli_num(const char *what, const char *s, uint64_t max);
uint64_t cli_mac(const char *s);
/* A bus address: a number, or "buf" / "buf+OFF" for the mapped buffer. */
uint32_t cli_addr(EnocDev *d, const char *s);

uint32_t crc32_update(uint32_t crc, const void *data, size_t len);
/* Deterministic test pattern: byte i of a buffer filled with seed s. */
void pattern_fill(uint8_t *p, size_t len, uint32_t seed, uint64_t start);

#endif /* ENOC_CLI_H */
