/*
 * Vector runner: plays the wire-level conformance vectors of tests/vectors/
 * (format in tests/README.md) against one engine, the device under test,
 * standing on a segment with one scripted peer. The vectors know only CSR
 * names from regs_table.h, frame bytes and cycles, so the RTL engine can run
 * the same files behind the same interface.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "openenoc/regs_table.h"

#define MAX_LINE 65536
#define MAX_TOKENS 4096
#define MAX_FRAME 16384
#define MAX_DEFINES 128
#define MAX_INCLUDE_DEPTH 8

typedef struct Define {
    char name[64];
    char *text;
} Define;

typedef struct Vec {
    HWorld *w;
    HNode *dut;
    HNode *wire;
    Define defs[MAX_DEFINES];
    int ndefs;
    const char *file;   /* for messages */
    int line;
} Vec;

/* Bytes plus a wildcard mask (1 = must match). */
typedef struct Bytes {
    uint8_t b[MAX_FRAME];
    uint8_t care[MAX_FRAME];
    size_t n;
} Bytes;

#define VFAIL(v, ...) \
    do { \
        h_note("%s:%d:", (v)->file, (v)->line); \
        h_fail(__FILE__, __LINE__, __VA_ARGS__); \
    } while (0)

/* ------------------------------------------------------------------ */

static void vec_free(void *p)
{
    Vec *v = p;
    for (int i = 0; i < v->ndefs; i++) {
        free(v->defs[i].text);
    }
    free(v);
}

static void new_dut(Vec *v, const OeEngineConfig *cfg)
{
    /* A fresh world: the DUT (node 0) and the scripted wire peer. */
    v->w = hw_new();
    v->dut = hw_engine(v->w, "dut", 0, cfg);
    v->wire = hw_scripted(v->w, "wire", 0);
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;

    errno = 0;
    *out = strtoull(s, &end, 0);
    return *s && !*end && !errno;
}

static uint64_t num(Vec *v, const char *s)
{
    uint64_t x;

    if (!s || !parse_u64(s, &x)) {
        VFAIL(v, "expected a number, got \"%s\"", s ? s : "(nothing)");
    }
    return x;
}

static uint32_t reg_offset(Vec *v, const char *s)
{
    uint64_t x;
    char full[128];

    if (!s) {
        VFAIL(v, "missing register");
    }
    if (parse_u64(s, &x)) {
        return (uint32_t)x;
    }
    if (!strncmp(s, "rmem+", 5)) {
        return OE_RMEM + (uint32_t)num(v, s + 5);
    }
    snprintf(full, sizeof(full), "endpoint.%s", s);
    for (size_t i = 0; i < OE_REG_WORDS_COUNT; i++) {
        if (!strcmp(oe_reg_words[i].name, s) ||
            !strcmp(oe_reg_words[i].name, full)) {
            return oe_reg_words[i].offset;
        }
    }
    VFAIL(v, "unknown register \"%s\"", s);
}

/* key=value option among the tokens, or NULL. */
static const char *opt(char **tok, int ntok, const char *key)
{
    size_t k = strlen(key);
    for (int i = 0; i < ntok; i++) {
        if (!strncmp(tok[i], key, k) && tok[i][k] == '=') {
            return tok[i] + k + 1;
        }
    }
    return NULL;
}

static bool has_word(char **tok, int ntok, const char *word)
{
    for (int i = 0; i < ntok; i++) {
        if (!strcmp(tok[i], word)) {
            return true;
        }
    }
    return false;
}

static void push_byte(Vec *v, Bytes *b, uint8_t x, bool care)
{
    if (b->n >= MAX_FRAME) {
        VFAIL(v, "byte list longer than %d", MAX_FRAME);
    }
    b->b[b->n] = x;
    b->care[b->n] = care;
    b->n++;
}

/* Parse byte tokens from tok[0..ntok). */
static void parse_bytes(Vec *v, char **tok, int ntok, Bytes *b, bool wild_ok)
{
    b->n = 0;
    for (int i = 0; i < ntok; i++) {
        char *t = tok[i];
        unsigned long long a, c, d;

        if (!strncmp(t, "le32:", 5)) {
            uint32_t x = (uint32_t)num(v, t + 5);
            for (int k = 0; k < 4; k++) {
                push_byte(v, b, (uint8_t)(x >> (8 * k)), true);
            }
        } else if (!strncmp(t, "z:", 2)) {
            for (uint64_t k = num(v, t + 2); k; k--) {
                push_byte(v, b, 0, true);
            }
        } else if (!strncmp(t, "x:", 2)) {
            if (!wild_ok) {
                VFAIL(v, "wildcards only in expectations");
            }
            for (uint64_t k = num(v, t + 2); k; k--) {
                push_byte(v, b, 0, false);
            }
        } else if (sscanf(t, "seq:%lli:%lli:%lli", &a, &c, &d) == 3 ||
                   (d = 1, sscanf(t, "seq:%lli:%lli", &a, &c) == 2)) {
            for (unsigned long long k = 0; k < a; k++) {
                push_byte(v, b, (uint8_t)(c + k * d), true);
            }
        } else if (sscanf(t, "pat:%lli:%lli:%lli", &a, &c, &d) == 3 ||
                   (d = 0, sscanf(t, "pat:%lli:%lli", &a, &c) == 2)) {
            for (unsigned long long k = 0; k < a; k++) {
                push_byte(v, b, hm_pattern_byte(d + k, (unsigned)c), true);
            }
        } else if (!strcmp(t, "xx")) {
            if (!wild_ok) {
                VFAIL(v, "wildcards only in expectations");
            }
            push_byte(v, b, 0, false);
        } else {
            size_t len = strlen(t);
            if (len % 2) {
                VFAIL(v, "odd hex token \"%s\"", t);
            }
            for (size_t k = 0; k < len; k += 2) {
                char hx[3] = { t[k], t[k + 1], 0 };
                char *end;
                unsigned long x = strtoul(hx, &end, 16);
                if (*end || !isxdigit((unsigned char)hx[0])) {
                    VFAIL(v, "bad hex token \"%s\"", t);
                }
                push_byte(v, b, (uint8_t)x, true);
            }
        }
    }
}

static bool bytes_match(const Bytes *want, const uint8_t *got, size_t len)
{
    if (len != want->n) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        if (want->care[i] && want->b[i] != got[i]) {
            return false;
        }
    }
    return true;
}

static void show_mismatch(const Bytes *want, const uint8_t *got, size_t len)
{
    size_t i;
    for (i = 0; i < len && i < want->n; i++) {
        if (want->care[i] && want->b[i] != got[i]) {
            break;
        }
    }
    h_hexdump("got ", got, len);
    h_hexdump("want", want->b, want->n);
    h_note("lengths %zu (got) vs %zu (want); first difference at %zu "
           "(wildcard bytes show as 00 in want)", len, want->n, i);
}

/* EXPECT is N or N|N|...; matches under mask. */
static bool value_matches(Vec *v, const char *expect, uint32_t got,
                          uint32_t mask)
{
    char buf[256];
    char *save = NULL;

    snprintf(buf, sizeof(buf), "%s", expect);
    for (char *alt = strtok_r(buf, "|", &save); alt;
         alt = strtok_r(NULL, "|", &save)) {
        if (((uint32_t)num(v, alt) & mask) == (got & mask)) {
            return true;
        }
    }
    return false;
}

static unsigned access_size(Vec *v, char **tok, int ntok)
{
    const char *s = opt(tok, ntok, "size");
    unsigned size = s ? (unsigned)num(v, s) : 4;
    if (size != 1 && size != 2 && size != 4) {
        VFAIL(v, "size must be 1, 2 or 4");
    }
    return size;
}

static uint32_t mask_opt(Vec *v, char **tok, int ntok)
{
    const char *s = opt(tok, ntok, "mask");
    return s ? (uint32_t)num(v, s) : 0xFFFFFFFFu;
}

static unsigned ops_word(char **tok, int ntok)
{
    if (has_word(tok, ntok, "read")) {
        return HM_READ;
    }
    if (has_word(tok, ntok, "write")) {
        return HM_WRITE;
    }
    return HM_BOTH;
}

/* Leading byte tokens of a command (everything but key=value options). */
static int byte_tokens(char **tok, int ntok)
{
    int n = 0;
    while (n < ntok && !strchr(tok[n], '=')) {
        n++;
    }
    return n;
}

/* ------------------------------------------------------------------ */

static void run_file(Vec *v, const char *path, int depth);

static void cmd_csr(Vec *v, char **tok, int ntok)
{
    const char *what = tok[1];
    uint32_t off = reg_offset(v, ntok > 2 ? tok[2] : NULL);
    unsigned size = access_size(v, tok, ntok);
    uint32_t mask = mask_opt(v, tok, ntok);
    bool want_pending = has_word(tok, ntok, "pending");
    OeCsrStatus st;
    uint32_t val = 0;

    hw_settle(v->w);
    if (!what) {
        VFAIL(v, "csr read|write");
    } else if (!strcmp(what, "write")) {
        st = hn_csr_write(v->dut, off, size, (uint32_t)num(v, tok[3]));
    } else if (!strcmp(what, "read")) {
        st = hn_csr_read(v->dut, off, size, &val);
    } else {
        VFAIL(v, "csr read|write, not \"%s\"", what);
    }
    if (want_pending) {
        if (st != OE_CSR_PENDING) {
            VFAIL(v, "CSR %s 0x%x completed at once (0x%08x), expected it to "
                  "pend", what, off, val);
        }
        return;
    }
    if (st == OE_CSR_PENDING) {
        /* Allowed if it finishes without anything from the wire (a local
         * RMEM failure, a group write once its frame has left). */
        hw_settle(v->w);
        if (v->dut->csr_pending) {
            VFAIL(v, "CSR %s 0x%x pends, expected it to complete", what, off);
        }
        val = v->dut->csr_value;
        v->dut->csr_completed = false;
    }
    if (!strcmp(what, "read") && !value_matches(v, tok[3], val, mask)) {
        VFAIL(v, "CSR read 0x%x: got 0x%08x, want %s (mask 0x%08x)", off, val,
              tok[3], mask);
    }
    hw_settle(v->w);
}

static void cmd_mem(Vec *v, char **tok, int ntok)
{
    HMem *m = &v->dut->mem;
    const char *what = tok[1];
    static Bytes b;

    if (!what) {
        VFAIL(v, "mem what?");
    } else if (!strcmp(what, "region")) {
        hm_region(m, (uint32_t)num(v, tok[2]), num(v, tok[3]));
    } else if (!strcmp(what, "write")) {
        parse_bytes(v, tok + 3, ntok - 3, &b, false);
        hm_put(m, (uint32_t)num(v, tok[2]), b.b, b.n);
    } else if (!strcmp(what, "pattern")) {
        hm_pattern(m, (uint32_t)num(v, tok[2]), num(v, tok[3]),
                   (unsigned)num(v, tok[4]));
    } else if (!strcmp(what, "expect")) {
        uint32_t addr = (uint32_t)num(v, tok[2]);
        parse_bytes(v, tok + 3, ntok - 3, &b, true);
        if (!bytes_match(&b, hm_ptr(m, addr, b.n), b.n)) {
            show_mismatch(&b, hm_ptr(m, addr, b.n), b.n);
            VFAIL(v, "memory at 0x%x differs", addr);
        }
    } else if (!strcmp(what, "error")) {
        const char *kind = ntok > 4 ? tok[4] : "";
        OeMemStatus st = !strcmp(kind, "slverr") ? OE_MEM_SLVERR :
                         !strcmp(kind, "decerr") ? OE_MEM_DECERR : OE_MEM_OK;
        if (st == OE_MEM_OK) {
            VFAIL(v, "mem error BASE LEN slverr|decerr [read|write]");
        }
        hm_error(m, (uint32_t)num(v, tok[2]), num(v, tok[3]), st,
                 ops_word(tok + 5, ntok - 5));
    } else if (!strcmp(what, "clear-errors")) {
        hm_clear_errors(m);
    } else if (!strcmp(what, "log-clear")) {
        hm_log_clear(m);
    } else if (!strcmp(what, "expect-no-access")) {
        hw_settle(v->w);
        if (hm_log_count(m, ops_word(tok + 2, ntok - 2))) {
            VFAIL(v, "%zu memory accesses, expected none",
                  hm_log_count(m, ops_word(tok + 2, ntok - 2)));
        }
    } else if (!strcmp(what, "expect-within")) {
        uint64_t lo = num(v, tok[2]), hi = num(v, tok[3]);
        hw_settle(v->w);
        if (!hm_log_within(m, ops_word(tok + 4, ntok - 4), lo, hi)) {
            VFAIL(v, "a memory access left [0x%" PRIx64 ", 0x%" PRIx64 ")",
                  lo, hi);
        }
    } else {
        VFAIL(v, "unknown mem command \"%s\"", what);
    }
}

static void cmd_expect(Vec *v, char **tok, int ntok)
{
    const char *what = tok[1];
    static Bytes b;

    hw_settle(v->w);
    if (!what) {
        VFAIL(v, "expect what?");
    } else if (!strcmp(what, "tx")) {
        const HFrame *f = hn_next_tx(v->dut);
        parse_bytes(v, tok + 2, ntok - 2, &b, true);
        if (!f) {
            h_hexdump("want", b.b, b.n);
            VFAIL(v, "no frame transmitted");
        }
        if (!bytes_match(&b, f->data, f->len)) {
            show_mismatch(&b, f->data, f->len);
            VFAIL(v, "transmitted frame differs");
        }
    } else if (!strcmp(what, "no-tx")) {
        const HFrame *f = hn_next_tx(v->dut);
        if (f) {
            h_hexdump("got ", f->data, f->len);
            VFAIL(v, "unexpected frame transmitted");
        }
    } else if (!strcmp(what, "complete")) {
        uint32_t mask = mask_opt(v, tok, ntok);
        if (v->dut->csr_pending || !v->dut->csr_completed) {
            VFAIL(v, "the CSR access has not completed");
        }
        if (ntok > 2 && !strchr(tok[2], '=') &&
            !value_matches(v, tok[2], v->dut->csr_value, mask)) {
            VFAIL(v, "completed with 0x%08x, want %s", v->dut->csr_value,
                  tok[2]);
        }
        v->dut->csr_completed = false;
    } else if (!strcmp(what, "pending")) {
        if (!v->dut->csr_pending) {
            VFAIL(v, "no CSR access pends");
        }
    } else if (!strcmp(what, "irq")) {
        if (v->dut->irq != (num(v, tok[2]) != 0)) {
            VFAIL(v, "irq level is %d", v->dut->irq);
        }
    } else if (!strcmp(what, "can-receive")) {
        if (hn_can_receive(v->dut) != (num(v, tok[2]) != 0)) {
            VFAIL(v, "can_receive is %d", hn_can_receive(v->dut));
        }
    } else {
        VFAIL(v, "unknown expectation \"%s\"", what);
    }
}

static uint32_t rd(Vec *v, uint32_t off)
{
    uint32_t val;
    if (hn_csr_read(v->dut, off, 4, &val) != OE_CSR_DONE) {
        VFAIL(v, "CSR read 0x%x pends", off);
    }
    return val;
}

static void wr(Vec *v, uint32_t off, uint32_t val)
{
    if (hn_csr_write(v->dut, off, 4, val) != OE_CSR_DONE) {
        VFAIL(v, "CSR write 0x%x pends", off);
    }
}

/* The direct sink, read beat by beat as endpoint.md describes: while
 * tvalid, read tdata/tkeep/tlast, then write tready = 1. */
static void cmd_sink(Vec *v, char **tok, int ntok)
{
    static Bytes want;
    static uint8_t got[MAX_FRAME];
    size_t n = 0;

    hw_settle(v->w);
    if (ntok > 1 && !strcmp(tok[1], "expect-empty")) {
        if (H_GET(rd(v, OE_DIRECT_SINK_STATUS), OE_DIRECT_SINK_STATUS_TVALID)) {
            VFAIL(v, "the direct sink holds a frame");
        }
        return;
    }
    if (ntok < 2 || strcmp(tok[1], "expect")) {
        VFAIL(v, "sink expect BYTES... | sink expect-empty");
    }
    parse_bytes(v, tok + 2, ntok - 2, &want, true);
    for (;;) {
        uint32_t st = rd(v, OE_DIRECT_SINK_STATUS);
        uint32_t data, keep;
        if (!H_GET(st, OE_DIRECT_SINK_STATUS_TVALID)) {
            VFAIL(v, "the direct sink is empty after %zu bytes", n);
        }
        data = rd(v, OE_DIRECT_SINK_DATA);
        keep = H_GET(st, OE_DIRECT_SINK_STATUS_TKEEP);
        for (unsigned k = 0; k < 4; k++) {
            if (keep & (1u << k)) {
                if (n == MAX_FRAME) {
                    VFAIL(v, "direct sink frame too long");
                }
                got[n++] = (uint8_t)(data >> (8 * k));
            }
        }
        wr(v, OE_DIRECT_SINK_CONTROL, OE_DIRECT_SINK_CONTROL_TREADY_MASK);
        hw_settle(v->w);
        if (H_GET(st, OE_DIRECT_SINK_STATUS_TLAST)) {
            break;
        }
    }
    if (!bytes_match(&want, got, n)) {
        show_mismatch(&want, got, n);
        VFAIL(v, "direct sink frame differs");
    }
}

/* The direct source, one beat at a time: wait for tvalid == 0, write
 * tdata, then tkeep/tlast, then tvalid = 1. */
static void cmd_source(Vec *v, char **tok, int ntok)
{
    static Bytes b;

    if (ntok < 2 || strcmp(tok[1], "send")) {
        VFAIL(v, "source send BYTES...");
    }
    parse_bytes(v, tok + 2, ntok - 2, &b, false);
    for (size_t i = 0; i < b.n; i += 4) {
        size_t left = b.n - i;
        unsigned nb = left < 4 ? (unsigned)left : 4;
        uint32_t data = 0, ctl;
        hw_settle(v->w);
        if (H_GET(rd(v, OE_DIRECT_SOURCE_CONTROL),
                  OE_DIRECT_SOURCE_CONTROL_TVALID)) {
            VFAIL(v, "direct source did not take beat %zu", i / 4 - 1);
        }
        for (unsigned k = 0; k < nb; k++) {
            data |= (uint32_t)b.b[i + k] << (8 * k);
        }
        ctl = H_PUT(OE_DIRECT_SOURCE_CONTROL_TKEEP, (1u << nb) - 1) |
              H_PUT(OE_DIRECT_SOURCE_CONTROL_TLAST, left <= 4);
        wr(v, OE_DIRECT_SOURCE_DATA, data);
        wr(v, OE_DIRECT_SOURCE_CONTROL, ctl);
        wr(v, OE_DIRECT_SOURCE_CONTROL, ctl | OE_DIRECT_SOURCE_CONTROL_TVALID_MASK);
    }
    hw_settle(v->w);
}

static void cmd_engine(Vec *v, char **tok, int ntok)
{
    OeEngineConfig cfg = { 0 };
    const char *s;

    if ((s = opt(tok, ntok, "max_raw_frame_size"))) {
        cfg.max_raw_frame_size = (uint32_t)num(v, s);
    }
    if ((s = opt(tok, ntok, "reset_mac"))) {
        cfg.reset_mac = num(v, s);
    }
    new_dut(v, &cfg);
}

static void cmd_define(Vec *v, char **tok, int ntok, const char *rest)
{
    Define *d;

    if (ntok < 2) {
        VFAIL(v, "define NAME TEXT");
    }
    for (int i = 0; i < v->ndefs; i++) {
        if (!strcmp(v->defs[i].name, tok[1])) {
            if (strcmp(v->defs[i].text, rest)) {
                VFAIL(v, "\"%s\" redefined differently", tok[1]);
            }
            return;
        }
    }
    if (v->ndefs == MAX_DEFINES || strlen(tok[1]) >= sizeof(d->name)) {
        VFAIL(v, "too many or too long defines");
    }
    d = &v->defs[v->ndefs++];
    snprintf(d->name, sizeof(d->name), "%s", tok[1]);
    d->text = strdup(rest);
}

/* Replace $NAME by its definition; returns a malloc'd line. */
static char *expand(Vec *v, const char *in)
{
    size_t cap = strlen(in) + 1, n = 0;
    char *out = malloc(cap);

    for (const char *p = in; *p;) {
        const char *add = p;
        size_t addlen = 1;
        if (*p == '$') {
            size_t k = 1;
            while (isalnum((unsigned char)p[k]) || p[k] == '_') {
                k++;
            }
            add = NULL;
            for (int i = 0; i < v->ndefs; i++) {
                if (strlen(v->defs[i].name) == k - 1 &&
                    !strncmp(v->defs[i].name, p + 1, k - 1)) {
                    add = v->defs[i].text;
                    addlen = strlen(add);
                }
            }
            if (!add) {
                free(out);
                VFAIL(v, "undefined $%.*s", (int)(k - 1), p + 1);
            }
            p += k;
        } else {
            p++;
        }
        if (n + addlen + 1 > cap) {
            cap = 2 * (n + addlen + 1);
            out = realloc(out, cap);
        }
        memcpy(out + n, add, addlen);
        n += addlen;
    }
    out[n] = 0;
    return out;
}

static void run_line(Vec *v, char *raw, const char *dir, int depth)
{
    static char *tok[MAX_TOKENS];
    char *line, *save = NULL, *rest;
    int ntok = 0;

    line = expand(v, raw);
    h_cleanup(free, line);
    rest = strdup(line);
    h_cleanup(free, rest);
    for (char *t = strtok_r(line, " \t\r\n", &save); t;
         t = strtok_r(NULL, " \t\r\n", &save)) {
        if (ntok == MAX_TOKENS) {
            VFAIL(v, "line has too many tokens");
        }
        tok[ntok++] = t;
    }
    if (!ntok) {
        return;
    }
    tok[ntok] = NULL;
    if (!strcmp(tok[0], "define")) {
        /* The text is everything after the name, already expanded. */
        while (isspace((unsigned char)*rest)) {
            rest++;
        }
        rest += strlen("define");
        while (isspace((unsigned char)*rest)) {
            rest++;
        }
        rest += ntok > 1 ? strlen(tok[1]) : 0;
        while (isspace((unsigned char)*rest)) {
            rest++;
        }
        cmd_define(v, tok, ntok, rest);
    } else if (!strcmp(tok[0], "include")) {
        char path[8192];
        if (ntok < 2 || depth >= MAX_INCLUDE_DEPTH) {
            VFAIL(v, "include FILE (depth %d)", depth);
        }
        snprintf(path, sizeof(path), "%s/%s", dir, tok[1]);
        {
            const char *file = v->file;
            int lineno = v->line;
            run_file(v, path, depth + 1);
            v->file = file;
            v->line = lineno;
        }
    } else if (!strcmp(tok[0], "engine")) {
        cmd_engine(v, tok, ntok);
    } else if (!strcmp(tok[0], "csr")) {
        cmd_csr(v, tok, ntok);
    } else if (!strcmp(tok[0], "mem")) {
        cmd_mem(v, tok, ntok);
    } else if (!strcmp(tok[0], "sink")) {
        cmd_sink(v, tok, ntok);
    } else if (!strcmp(tok[0], "source")) {
        cmd_source(v, tok, ntok);
    } else if (!strcmp(tok[0], "rx")) {
        static Bytes b;
        parse_bytes(v, tok + 1, byte_tokens(tok + 1, ntok - 1), &b, false);
        hn_send(v->wire, b.b, b.n);
        hw_settle(v->w);
    } else if (!strcmp(tok[0], "expect")) {
        cmd_expect(v, tok, ntok);
    } else if (!strcmp(tok[0], "advance")) {
        hw_run_for(v->w, num(v, tok[1]));
    } else if (!strcmp(tok[0], "reset")) {
        hn_reset(v->dut);
        hw_settle(v->w);
    } else if (!strcmp(tok[0], "set-request-id")) {
        hn_set_request_id(v->dut, (uint32_t)num(v, tok[1]));
    } else if (!strcmp(tok[0], "tx-ready")) {
        hn_tx_open(v->dut, num(v, tok[1]) != 0);
        hw_settle(v->w);
    } else {
        VFAIL(v, "unknown command \"%s\"", tok[0]);
    }
}

static void close_file(void *f)
{
    fclose(f);
}

static void run_file(Vec *v, const char *path, int depth)
{
    FILE *f = fopen(path, "r");
    char *buf, *acc;
    char dir[4096];
    const char *slash = strrchr(path, '/');
    int lineno = 0;

    if (!f) {
        VFAIL(v, "cannot open %s: %s", path, strerror(errno));
    }
    snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
             slash ? path : ".");
    buf = malloc(MAX_LINE);
    acc = malloc(MAX_LINE);
    h_cleanup(close_file, f);
    h_cleanup(free, buf);
    h_cleanup(free, acc);
    acc[0] = 0;
    while (fgets(buf, MAX_LINE, f)) {
        char *hash = strchr(buf, '#');
        size_t len;
        lineno++;
        if (hash) {
            *hash = 0;
        }
        len = strlen(buf);
        while (len && isspace((unsigned char)buf[len - 1])) {
            buf[--len] = 0;
        }
        if (strlen(acc) + len + 2 >= MAX_LINE) {
            v->file = path;
            v->line = lineno;
            VFAIL(v, "line too long");
        }
        if (len && buf[len - 1] == '\\') {
            buf[len - 1] = ' ';
            strcat(acc, buf);
            continue;
        }
        strcat(acc, buf);
        v->file = path;
        v->line = lineno;
        run_line(v, acc, dir, depth);
        acc[0] = 0;
    }
    /* fclose and the buffers are released by the cleanups. */
}

static void run_vector(void *path)
{
    Vec *v = calloc(1, sizeof(*v));

    H_CHECK(v != NULL);
    h_cleanup(vec_free, v);
    new_dut(v, NULL);
    run_file(v, path, 0);
    hw_settle(v->w);
    hw_check(v->w);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    char **files = NULL;
    size_t nfiles = 0, failed = 0;

    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        printf("usage: %s FILE.vec|DIR...\n"
               "Runs conformance vectors (tests/README.md describes the "
               "format) against the C engine; a directory runs every *.vec "
               "in it. Prints TAP, one test per file.\n", argv[0]);
        return argc < 2 ? 2 : 0;
    }
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            files = realloc(files, (nfiles + 1) * sizeof(*files));
            files[nfiles++] = strdup(argv[i]);
            continue;
        }
        for (struct dirent *de; (de = readdir(d));) {
            size_t len = strlen(de->d_name);
            if (len > 4 && !strcmp(de->d_name + len - 4, ".vec")) {
                size_t plen = strlen(argv[i]) + len + 2;
                files = realloc(files, (nfiles + 1) * sizeof(*files));
                files[nfiles] = malloc(plen);
                snprintf(files[nfiles++], plen, "%s/%s", argv[i], de->d_name);
            }
        }
        closedir(d);
    }
    qsort(files, nfiles, sizeof(*files), cmp_str);
    h_plan(nfiles);
    for (size_t i = 0; i < nfiles; i++) {
        const char *base = strrchr(files[i], '/');
        failed += !h_run_one(i + 1, base ? base + 1 : files[i], run_vector,
                             files[i]);
    }
    for (size_t i = 0; i < nfiles; i++) {
        free(files[i]);
    }
    free(files);
    return failed ? 1 : 0;
}
