/*
 * Helpers shared by the guest tools: messages, number parsing, checksums.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_prog = "enoc";

static void cli_vmsg(const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: ", cli_prog);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void cli_die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cli_vmsg(fmt, ap);
    va_end(ap);
    exit(1);
}

void cli_usage_error(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    cli_vmsg(fmt, ap);
    va_end(ap);
    fprintf(stderr, "(try '%s --help')\n", cli_prog);
    exit(2);
}

void cli_check(int err)
{
    if (err < 0) {
        cli_die("%s", enoc_last_error());
    }
}

uint64_t cli_num(const char *what, const char *s, uint64_t max)
{
    char *end;
    unsigned long long v;

    if (!s || !*s || *s == '-') {
        cli_usage_error("%s: '%s' is not a number", what, s ? s : "");
    }
    errno = 0;
    v = strtoull(s, &end, 0);
    if (errno) {
        cli_usage_error("%s: '%s' is out of range", what, s);
    }
    switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    }
    if (*end) {
        cli_usage_error("%s: '%s' is not a number", what, s);
    }
    if (v > max) {
        cli_usage_error("%s: %s is larger than %llu", what, s, (unsigned long long)max);
    }
    return v;
}

uint64_t cli_mac(const char *s)
{
    uint64_t mac;

    if (enoc_mac_parse(s, &mac) < 0) {
        cli_usage_error("%s", enoc_last_error());
    }
    return mac;
}

uint32_t cli_addr(EnocDev *d, const char *s)
{
    uint64_t off = 0;

    if (strncmp(s, "buf", 3) != 0) {
        return cli_num("address", s, UINT32_MAX);
    }
    if (s[3] == '+') {
        off = cli_num("buffer offset", s + 4, UINT32_MAX);
    } else if (s[3]) {
        cli_usage_error("address '%s': want a number, buf or buf+OFFSET", s);
    }
    cli_check(enoc_buf_map(d, 0));
    if (off > d->buf_size) {
        cli_die("offset %llu is past the %u-byte buffer", (unsigned long long)off,
                d->buf_size);
    }
    return d->buf_bus + (uint32_t)off;
}

/* CRC-32 (IEEE 802.3, reflected), table built on first use. */
uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
    static uint32_t table[256];
    const uint8_t *p = data;

    if (!table[1]) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++) {
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            }
            table[i] = c;
        }
    }
    crc = ~crc;
    while (len--) {
        crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    }
    return ~crc;
}

void pattern_fill(uint8_t *p, size_t len, uint32_t seed, uint64_t start)
{
    /* Word-wise xorshift of the absolute word index: any range can be
     * regenerated on its own, and neighbouring words differ. */
    for (size_t i = 0; i < len; i++) {
        uint64_t pos = start + i;
        uint32_t x = (uint32_t)(pos / 4) * 2654435761u ^ seed;

        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        p[i] = x >> (8 * (pos % 4));
    }
}
