/* Hex text and byte comparison helpers for literal frames in tests. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

static int hexval(int c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    c = tolower(c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

size_t h_hex(uint8_t *out, size_t cap, const char *text)
{
    size_t n = 0;
    int hi = -1;

    for (const char *p = text; *p; p++) {
        int v;
        if (isspace((unsigned char)*p) || *p == ':' || *p == '_') {
            H_CHECKF(hi < 0, "odd hex digit count near \"%.10s\"", p);
            continue;
        }
        v = hexval((unsigned char)*p);
        H_CHECKF(v >= 0, "bad hex text near \"%.10s\"", p);
        if (hi < 0) {
            hi = v;
        } else {
            H_CHECKF(n < cap, "hex text longer than %zu bytes", cap);
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    H_CHECKF(hi < 0, "odd hex digit count");
    return n;
}

void h_hexdump(const char *prefix, const uint8_t *p, size_t len)
{
    char line[3 * 16 + 1];

    for (size_t i = 0; i < len; i += 16) {
        size_t k = 0;
        for (size_t j = i; j < len && j < i + 16; j++) {
            k += (size_t)snprintf(line + k, sizeof(line) - k, "%02x ", p[j]);
        }
        line[k ? k - 1 : 0] = 0;
        h_note("%s %04zx: %s", prefix, i, line);
        if (i >= 256 && len > 320) {
            h_note("%s ... (%zu bytes)", prefix, len);
            break;
        }
    }
}

void h_check_bytes(const char *what, const uint8_t *got, size_t glen,
                   const uint8_t *want, size_t wlen)
{
    size_t i;

    if (got && glen == wlen && !memcmp(got, want, wlen)) {
        return;
    }
    if (!got) {
        h_note("%s: nothing (want %zu bytes)", what, wlen);
        h_hexdump("want", want, wlen);
        h_fail(__FILE__, __LINE__, "%s: missing", what);
    }
    for (i = 0; i < glen && i < wlen && got[i] == want[i]; i++) {
    }
    h_hexdump("got ", got, glen);
    h_hexdump("want", want, wlen);
    h_fail(__FILE__, __LINE__, "%s: %zu bytes vs %zu wanted, first "
           "difference at offset %zu", what, glen, wlen, i);
}

size_t h_raw_frame(uint8_t *f, size_t len, uint64_t dst, uint64_t src,
                   unsigned seed)
{
    H_CHECKF(len >= 14, "raw frame of %zu bytes", len);
    oetp_put_mac(f, dst);
    oetp_put_mac(f + 6, src);
    f[12] = 0x08;
    f[13] = 0x00;
    for (size_t i = 14; i < len; i++) {
        f[i] = hm_pattern_byte(i, seed);
    }
    return len;
}
