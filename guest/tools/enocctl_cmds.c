/*
 * enocctl subcommands: info, config, peer, buf, dma, rmem, raw, events.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "enocctl.h"

#define RAW_ETHERTYPE_DEFAULT 0x88B6 /* IEEE local experimental 2 */

/* Parse options of a subcommand; prints usage for --help. */
#define HELP_OR_DIE(usage) do { fputs(usage, stdout); return 0; } while (0)

static int parse_opts(int argc, char **argv, const struct option *opts,
                      const char *usage, void (*apply)(int opt, const char *arg, void *ctx),
                      void *ctx)
{
    int opt;

    optind = 1;
    while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        if (opt == 'h') {
            fputs(usage, stdout);
            exit(0);
        }
        if (opt == '?') {
            cli_usage_error("bad option for '%s'", argv[0]);
        }
        apply(opt, optarg, ctx);
    }
    return optind;
}

/* ---- info ---- */

static const char info_usage[] =
    "usage: enocctl [-d N] info\n"
    "Print the endpoint's PCI identity, interrupt mode, model identification,\n"
    "feature word (info CSR), DMA buffer and interrupt counters.\n";

int cmd_info(EnocDev *d, int argc, char **argv)
{
    uint64_t info;
    const struct enoc_info *i;
    uint32_t ver;

    if (!d) {
        HELP_OR_DIE(info_usage);
    }
    if (argc > 1) {
        cli_usage_error("info takes no arguments");
    }
    i = &d->info;
    info = (uint64_t)enoc_rd(d, OE_INFO_HI) << 32 | enoc_rd(d, OE_INFO);
    ver = enoc_rd(d, ENOC_MODEL_VERSION_OFF);
    printf("device:   enoc%u at %s (%04x:%04x rev %u), irq %s (%u)\n", i->index,
           i->pci_name, i->vendor, i->device, i->revision,
           enoc_irq_mode_name(i->irq_mode), i->irq);
    if (enoc_rd(d, ENOC_MODEL_MAGIC_OFF) == ENOC_MODEL_MAGIC) {
        printf("model:    version %u.%u, clock %u Hz, engine %s\n", ver >> 16,
               ver & 0xffff, enoc_rd(d, ENOC_MODEL_CLOCK_OFF),
               enoc_rd(d, ENOC_MODEL_ENGINE_OFF) ? "RTL" : "C");
    } else {
        printf("model:    no identification block (FPGA endpoint?)\n");
    }
    printf("endpoint: %u peers, RMEM %u words, max DMA frame %u bytes, features:%s%s%s%s%s\n",
           (unsigned)((info & OE_INFO_NUM_OF_PEERS_MASK) >> OE_INFO_NUM_OF_PEERS_SHIFT),
           (unsigned)(info & OE_INFO_RMEM_TOTAL_DEPTH_MASK),
           (unsigned)((info & OE_INFO_MAX_DMA_FRAME_SIZE_BYTES_MASK) >>
                      OE_INFO_MAX_DMA_FRAME_SIZE_BYTES_SHIFT),
           info & OE_INFO_PEER_DMA_SUPPORTED_MASK ? " peer-dma" : "",
           info & OE_INFO_NON_OETP_DMA_SUPPORTED_MASK ? " raw-dma" : "",
           info & OE_INFO_DIRECT_AXIS_SUPPORTED_MASK ? " direct" : "",
           info & OE_INFO_RMEM_SUPPORTED_MASK ? " rmem" : "",
           info & OE_INFO_IRQ_SUPPORTED_MASK ? " irq" : "");
    if (i->buf_size) {
        printf("buffer:   %u bytes at bus 0x%08x\n", i->buf_size, i->buf_bus);
    } else {
        printf("buffer:   none\n");
    }
    printf("irq:      %llu interrupts, %llu events, %llu spurious; status 0x%08x\n",
           (unsigned long long)i->irq_count, (unsigned long long)i->event_count,
           (unsigned long long)i->spurious, enoc_rd(d, OE_IRQ_STATUS));
    return 0;
}

/* ---- config ---- */

static const char config_usage[] =
    "usage: enocctl [-d N] config [--mac M] [--multicast M] [--rx-mode 0-3]\n"
    "                         [--rmem-timeout CYCLES] [--dma-timeout CYCLES]\n"
    "                         [--fragment BYTES]\n"
    "Set the given fields of the endpoint configuration, then print all of it.\n"
    "  --mac M           local unicast MAC (source of every oETP frame)\n"
    "  --multicast M     group MAC accepted for oETP group frames (00:..:00 off)\n"
    "  --rx-mode 0-3     non-oETP receive filter: 0 drop, 1 own+broadcast,\n"
    "                    2 as 1 plus groups, 3 promiscuous\n"
    "  --rmem-timeout C  RMEM response timeout in endpoint cycles (0 = forever)\n"
    "  --dma-timeout C   per-fragment DMA response timeout (0 = forever)\n"
    "  --fragment B      DMA max fragment size (4..8160, rounded down to 4)\n";

static void config_apply(int opt, const char *arg, void *ctx)
{
    EnocConfig *c = ctx;

    switch (opt) {
    case 'm': c->mac = cli_mac(arg); break;
    case 'g': c->multicast = cli_mac(arg); break;
    case 'r': c->rx_mode = (unsigned)cli_num("--rx-mode", arg, 3); break;
    case 't': c->rmem_timeout = (uint32_t)cli_num("--rmem-timeout", arg, UINT32_MAX); break;
    case 'T': c->dma_timeout = (uint32_t)cli_num("--dma-timeout", arg, UINT32_MAX); break;
    case 'f': c->max_fragment = (uint32_t)cli_num("--fragment", arg, UINT32_MAX); break;
    }
}

int cmd_config(EnocDev *d, int argc, char **argv)
{
    static const struct option opts[] = {
        { "mac", required_argument, NULL, 'm' },
        { "multicast", required_argument, NULL, 'g' },
        { "rx-mode", required_argument, NULL, 'r' },
        { "rmem-timeout", required_argument, NULL, 't' },
        { "dma-timeout", required_argument, NULL, 'T' },
        { "fragment", required_argument, NULL, 'f' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    EnocConfig c;
    char a[18], b[18];

    if (!d) {
        HELP_OR_DIE(config_usage);
    }
    enoc_config_get(d, &c);
    if (parse_opts(argc, argv, opts, config_usage, config_apply, &c) < argc) {
        cli_usage_error("config takes only options");
    }
    enoc_config_set(d, &c);
    enoc_config_get(d, &c);
    printf("mac %s multicast %s rx-mode %u rmem-timeout %u dma-timeout %u fragment %u\n",
           enoc_mac_str(c.mac, a), enoc_mac_str(c.multicast, b), c.rx_mode,
           c.rmem_timeout, c.dma_timeout, c.max_fragment);
    return 0;
}

/* ---- peer ---- */

static const char peer_usage[] =
    "usage: enocctl [-d N] peer N [--mac M] [--mode MODE] [--local ADDR]\n"
    "                       [--remote ADDR] [--size BYTES] [--rmem-offset OFF]\n"
    "                       [--irq on|off] [--clear-error]\n"
    "Set the given fields of peer entry N, then print it with its DMA status.\n"
    "  MODE is 0-3 or disabled, rmem, pull (mirror remote-to-local), push\n"
    "  (mirror local-to-remote). ADDR is a bus address, or buf / buf+OFF for\n"
    "  the mapped DMA buffer (enocctl buf alloc).\n";

typedef struct PeerCtx {
    EnocDev *d;
    EnocPeer p;
    bool clear;
} PeerCtx;

static unsigned parse_mode(const char *s)
{
    for (unsigned m = 0; m < 4; m++) {
        if (!strcmp(s, enoc_mode_name(m))) {
            return m;
        }
    }
    return (unsigned)cli_num("--mode", s, 3);
}

static void peer_apply(int opt, const char *arg, void *ctx)
{
    PeerCtx *c = ctx;

    switch (opt) {
    case 'm': c->p.mac = cli_mac(arg); break;
    case 'M': c->p.mode = parse_mode(arg); break;
    case 'l': c->p.local = cli_addr(c->d, arg); break;
    case 'r': c->p.remote = cli_addr(c->d, arg); break;
    case 's': c->p.size = (uint32_t)cli_num("--size", arg, UINT32_MAX); break;
    case 'o': c->p.rmem_offset = (uint32_t)cli_num("--rmem-offset", arg, UINT32_MAX); break;
    case 'i':
        if (strcmp(arg, "on") && strcmp(arg, "off")) {
            cli_usage_error("--irq wants on or off");
        }
        c->p.irq_enable = !strcmp(arg, "on");
        break;
    case 'c': c->clear = true; break;
    }
}

static void peer_print(EnocDev *d, unsigned n)
{
    EnocPeer p;
    EnocStatus s = enoc_peer_status(d, n);
    char m[18];

    cli_check(enoc_peer_get(d, n, &p));
    printf("peer %u: mac %s mode %s local 0x%08x remote 0x%08x size %u rmem-offset %#x "
           "irq %s | %s%s%s error %u (%s)\n", n, enoc_mac_str(p.mac, m),
           enoc_mode_name(p.mode), p.local, p.remote, p.size, p.rmem_offset,
           p.irq_enable ? "on" : "off", s.idle ? "idle" : "busy",
           s.request ? " request" : "", s.done ? " done" : "", s.code,
           oe_error_name(s.code));
}

int cmd_peer(EnocDev *d, int argc, char **argv)
{
    static const struct option opts[] = {
        { "mac", required_argument, NULL, 'm' },
        { "mode", required_argument, NULL, 'M' },
        { "local", required_argument, NULL, 'l' },
        { "remote", required_argument, NULL, 'r' },
        { "size", required_argument, NULL, 's' },
        { "rmem-offset", required_argument, NULL, 'o' },
        { "irq", required_argument, NULL, 'i' },
        { "clear-error", no_argument, NULL, 'c' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    PeerCtx c = { .d = d };
    unsigned n;
    int first;

    if (!d) {
        HELP_OR_DIE(peer_usage);
    }
    if (argc < 2 || argv[1][0] == '-') {
        cli_usage_error("peer wants an entry number");
    }
    n = (unsigned)cli_num("peer", argv[1], 2047);
    cli_check(enoc_peer_get(d, n, &c.p));
    first = parse_opts(argc - 1, argv + 1, opts, peer_usage, peer_apply, &c);
    if (first < argc - 1) {
        cli_usage_error("unexpected argument '%s'", argv[first + 1]);
    }
    cli_check(enoc_peer_set(d, n, &c.p));
    if (c.clear) {
        enoc_peer_clear_error(d, n);
    }
    peer_print(d, n);
    return 0;
}

/* ---- buf ---- */

static const char buf_usage[] =
    "usage: enocctl [-d N] buf alloc SIZE | free | show\n"
    "                      fill [--seed S] [--offset O] [--length L] [--zero]\n"
    "                      crc [--offset O] [--length L]\n"
    "                      dump OFFSET LENGTH\n"
    "The endpoint's DMA buffer (kept by the driver between commands).\n"
    "  alloc SIZE  allocate (up to 4M, more with openenoc.dma_pool) and show it\n"
    "  fill        write the test pattern of seed S (default 1) or zeros\n"
    "  crc         CRC-32 of a range (default: the whole buffer)\n"
    "  dump        hex dump of a range\n";

typedef struct BufCtx {
    uint64_t seed, off, len;
    bool zero, has_len;
} BufCtx;

static void buf_apply(int opt, const char *arg, void *ctx)
{
    BufCtx *c = ctx;

    switch (opt) {
    case 's': c->seed = cli_num("--seed", arg, UINT32_MAX); break;
    case 'o': c->off = cli_num("--offset", arg, UINT32_MAX); break;
    case 'l': c->len = cli_num("--length", arg, UINT32_MAX); c->has_len = true; break;
    case 'z': c->zero = true; break;
    }
}

static void buf_range(EnocDev *d, BufCtx *c)
{
    if (!c->has_len) {
        c->len = c->off <= d->buf_size ? d->buf_size - c->off : 0;
    }
    if (c->off > d->buf_size || c->len > d->buf_size - c->off) {
        cli_die("range %llu+%llu is outside the %u-byte buffer",
                (unsigned long long)c->off, (unsigned long long)c->len, d->buf_size);
    }
}

int cmd_buf(EnocDev *d, int argc, char **argv)
{
    static const struct option opts[] = {
        { "seed", required_argument, NULL, 's' },
        { "offset", required_argument, NULL, 'o' },
        { "length", required_argument, NULL, 'l' },
        { "zero", no_argument, NULL, 'z' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    BufCtx c = { .seed = 1 };
    const char *sub;

    if (!d) {
        HELP_OR_DIE(buf_usage);
    }
    if (argc < 2) {
        cli_usage_error("buf wants alloc, free, show, fill, crc or dump");
    }
    sub = argv[1];
    if (!strcmp(sub, "alloc")) {
        if (argc != 3) {
            cli_usage_error("buf alloc wants SIZE");
        }
        uint32_t size = (uint32_t)cli_num("SIZE", argv[2], UINT32_MAX);

        if (size == 0) {
            cli_usage_error("buf alloc wants a SIZE above 0");
        }
        cli_check(enoc_buf_map(d, size));
    } else if (!strcmp(sub, "free")) {
        cli_check(enoc_buf_free(d));
        printf("buffer freed\n");
        return 0;
    } else if (!strcmp(sub, "show")) {
        cli_check(enoc_buf_map(d, 0));
    } else if (!strcmp(sub, "fill") || !strcmp(sub, "crc")) {
        if (parse_opts(argc - 1, argv + 1, opts, buf_usage, buf_apply, &c) < argc - 1) {
            cli_usage_error("unexpected argument");
        }
        cli_check(enoc_buf_map(d, 0));
        buf_range(d, &c);
        if (sub[0] == 'f') {
            if (c.zero) {
                memset(d->buf + c.off, 0, c.len);
            } else {
                pattern_fill(d->buf + c.off, c.len, (uint32_t)c.seed, c.off);
            }
        }
        printf("crc32 %08x offset %llu length %llu\n",
               crc32_update(0, d->buf + c.off, c.len),
               (unsigned long long)c.off, (unsigned long long)c.len);
        return 0;
    } else if (!strcmp(sub, "dump")) {
        if (argc != 4) {
            cli_usage_error("buf dump wants OFFSET LENGTH");
        }
        cli_check(enoc_buf_map(d, 0));
        c.off = cli_num("OFFSET", argv[2], UINT32_MAX);
        c.len = cli_num("LENGTH", argv[3], UINT32_MAX);
        c.has_len = true;
        buf_range(d, &c);
        for (uint64_t i = 0; i < c.len; i++) {
            if (i % 16 == 0) {
                printf("%08llx:", (unsigned long long)(c.off + i));
            }
            printf(i % 16 == 15 ? " %02x\n" : " %02x", d->buf[c.off + i]);
        }
        if (c.len % 16) {
            putchar('\n');
        }
        return 0;
    } else {
        cli_usage_error("unknown buf command '%s'", sub);
    }
    printf("buffer %u bytes at bus 0x%08x\n", d->buf_size, d->buf_bus);
    return 0;
}

/* ---- dma ---- */

static const char dma_usage[] =
    "usage: enocctl [-d N] dma push|pull PEER [--timeout MS] [--irq]\n"
    "Run the bulk DMA block configured in peer entry PEER (enocctl peer):\n"
    "push sets mode 3 (local-to-remote writes), pull mode 2 (remote-to-local\n"
    "reads), then requests the block and waits for it. Prints bytes, time,\n"
    "MB/s and the result; exits 1 with the error name when the block failed.\n"
    "  --timeout MS  give up waiting after MS milliseconds (default 60000)\n"
    "  --irq         wait for the PEER_DMA_COMPLETE event instead of polling\n";

typedef struct DmaCtx {
    uint64_t timeout;
    bool irq;
} DmaCtx;

static void dma_apply(int opt, const char *arg, void *ctx)
{
    DmaCtx *c = ctx;

    if (opt == 't') {
        c->timeout = cli_num("--timeout", arg, INT32_MAX);
    } else if (opt == 'i') {
        c->irq = true;
    }
}

int cmd_dma(EnocDev *d, int argc, char **argv)
{
    static const struct option opts[] = {
        { "timeout", required_argument, NULL, 't' },
        { "irq", no_argument, NULL, 'i' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    DmaCtx c = { .timeout = 60000 };
    EnocPeer p;
    unsigned n;
    uint64_t t0, us;
    int rc;

    if (!d) {
        HELP_OR_DIE(dma_usage);
    }
    if (argc < 3 || (strcmp(argv[1], "push") && strcmp(argv[1], "pull"))) {
        cli_usage_error("dma wants push|pull PEER");
    }
    n = (unsigned)cli_num("PEER", argv[2], 2047);
    if (parse_opts(argc - 2, argv + 2, opts, dma_usage, dma_apply, &c) < argc - 2) {
        cli_usage_error("unexpected argument");
    }
    cli_check(enoc_peer_get(d, n, &p));
    p.mode = !strcmp(argv[1], "push") ? OE_MODE_MIRROR_LOCAL_TO_REMOTE
                                      : OE_MODE_MIRROR_REMOTE_TO_LOCAL;
    p.irq_enable = c.irq;
    cli_check(enoc_peer_set(d, n, &p));
    if (c.irq) {
        enoc_wr(d, OE_IRQ_EVENT_ENABLE, enoc_rd(d, OE_IRQ_EVENT_ENABLE) |
                OE_IRQ_EVENT_ENABLE_PEER_DMA_COMPLETE_MASK);
    }
    t0 = enoc_now_us();
    rc = enoc_dma_run(d, n, (int)c.timeout);
    us = enoc_now_us() - t0;
    cli_check(rc);
    printf("peer %u %s: %u bytes in %.3f s (%.1f MB/s): %s\n", n, argv[1], p.size,
           us / 1e6, us ? p.size / (double)us : 0.0, rc ? oe_error_name(rc) : "OK");
    if (rc) {
        fprintf(stderr, "enocctl: DMA failed with error %d (%s)\n", rc, oe_error_name(rc));
        return 1;
    }
    return 0;
}

/* ---- rmem ---- */

static const char rmem_usage[] =
    "usage: enocctl [-d N] rmem read OFFSET [COUNT] | rmem write OFFSET VALUE\n"
    "Access the RMEM window (byte OFFSET 0..0x3fc, word aligned): the access\n"
    "goes to the peer whose entry (mode rmem) maps that offset. A failed read\n"
    "returns 0xffffffff; the peer's error code is then printed too.\n";

static void rmem_report_error(EnocDev *d)
{
    for (unsigned n = 0; n < enoc_num_peers(d); n++) {
        EnocStatus s = enoc_peer_status(d, n);
        if (s.error) {
            fprintf(stderr, "enocctl: peer %u reports error %u (%s)\n", n, s.code,
                    oe_error_name(s.code));
        }
    }
}

int cmd_rmem(EnocDev *d, int argc, char **argv)
{
    uint32_t off, val;
    uint64_t count = 1;

    if (!d) {
        HELP_OR_DIE(rmem_usage);
    }
    if (argc < 3 || (strcmp(argv[1], "read") && strcmp(argv[1], "write"))) {
        cli_usage_error("rmem wants read OFFSET [COUNT] or write OFFSET VALUE");
    }
    off = (uint32_t)cli_num("OFFSET", argv[2], UINT32_MAX);
    if (!strcmp(argv[1], "write")) {
        if (argc != 4) {
            cli_usage_error("rmem write wants OFFSET VALUE");
        }
        val = (uint32_t)cli_num("VALUE", argv[3], UINT32_MAX);
        cli_check(enoc_rmem_write(d, off, val));
        printf("rmem[0x%03x] <- 0x%08x\n", off, val);
        return 0;
    }
    if (argc == 4) {
        count = cli_num("COUNT", argv[3], OE_RMEM_ENTRIES);
    } else if (argc > 4) {
        cli_usage_error("rmem read wants OFFSET [COUNT]");
    }
    for (uint64_t i = 0; i < count; i++) {
        cli_check(enoc_rmem_read(d, off + 4 * (uint32_t)i, &val));
        printf("rmem[0x%03x] = 0x%08x\n", off + 4 * (unsigned)i, val);
        if (val == 0xffffffffu) {
            rmem_report_error(d);
        }
    }
    return 0;
}

/* ---- raw ---- */

static const char raw_usage[] =
    "usage: enocctl [-d N] raw send --dst MAC [--ethertype T] [--size N | --text S]\n"
    "                           [--count K] [--direct]\n"
    "       enocctl [-d N] raw recv [--count K] [--timeout MS] [--direct] [--hex]\n"
    "Send or receive raw (non-oETP) Ethernet frames, by raw DMA through the\n"
    "buffer (default) or beat by beat through the direct stream (--direct).\n"
    "send: destination MAC, EtherType (default 0x88b6), payload of N pattern\n"
    "      bytes (default 46) or the text S; K frames.\n"
    "recv: print K frames (default 1); fails after MS ms (default 10000).\n";

typedef struct RawCtx {
    uint64_t dst, ethertype, size, count, timeout;
    const char *text;
    bool direct, hex, has_dst;
} RawCtx;

static void raw_apply(int opt, const char *arg, void *ctx)
{
    RawCtx *c = ctx;

    switch (opt) {
    case 'a': c->dst = cli_mac(arg); c->has_dst = true; break;
    case 'e': c->ethertype = cli_num("--ethertype", arg, 0xffff); break;
    case 's': c->size = cli_num("--size", arg, OETP_FRAME_MAX - OETP_ETH_HDR_LEN); break;
    case 't': c->text = arg; break;
    case 'c': c->count = cli_num("--count", arg, 1u << 30); break;
    case 'T': c->timeout = cli_num("--timeout", arg, INT32_MAX); break;
    case 'D': c->direct = true; break;
    case 'x': c->hex = true; break;
    }
}

static int raw_send(EnocDev *d, RawCtx *c)
{
    uint8_t frame[OETP_FRAME_MAX];
    EnocConfig cfg;
    size_t plen = c->text ? strlen(c->text) : c->size;
    size_t len = OETP_ETH_HDR_LEN + plen;

    if (!c->has_dst) {
        cli_usage_error("raw send wants --dst MAC");
    }
    if (len > OETP_FRAME_MAX) {
        cli_usage_error("frame of %zu bytes is larger than %u", len, OETP_FRAME_MAX);
    }
    enoc_config_get(d, &cfg);
    oetp_put_mac(frame, c->dst);
    oetp_put_mac(frame + OETP_OFF_SRC, cfg.mac);
    frame[12] = c->ethertype >> 8;
    frame[13] = c->ethertype & 0xff;
    if (c->text) {
        memcpy(frame + OETP_ETH_HDR_LEN, c->text, plen);
    } else {
        pattern_fill(frame + OETP_ETH_HDR_LEN, plen, 7, 0);
    }
    if (!c->direct) {
        cli_check(enoc_buf_map(d, 0));
        if (d->buf_size < len) {
            cli_die("the DMA buffer (%u bytes) cannot hold a %zu-byte frame",
                    d->buf_size, len);
        }
    }
    for (uint64_t i = 0; i < c->count; i++) {
        int rc;

        if (c->direct) {
            rc = enoc_direct_send(d, frame, len, (int)c->timeout);
        } else {
            memcpy(d->buf, frame, len);
            rc = enoc_raw_tx(d, 0, (uint32_t)len, (int)c->timeout);
        }
        cli_check(rc);
        if (rc > 0) {
            cli_die("raw DMA TX failed: error %d (%s)", rc, oe_error_name(rc));
        }
    }
    printf("sent %llu frame(s) of %zu bytes%s\n", (unsigned long long)c->count, len,
           c->direct ? " (direct)" : "");
    return 0;
}

static void raw_print(const uint8_t *f, size_t len, bool hex)
{
    char a[18], b[18];

    if (len < OETP_ETH_HDR_LEN) {
        printf("runt frame of %zu bytes\n", len);
        return;
    }
    printf("%s -> %s type 0x%04x len %zu crc32 %08x\n",
           enoc_mac_str(oetp_get_mac(f + OETP_OFF_SRC), a),
           enoc_mac_str(oetp_get_mac(f), b), f[12] << 8 | f[13], len,
           crc32_update(0, f, len));
    for (size_t i = 0; hex && i < len; i++) {
        printf(i % 16 == 15 || i + 1 == len ? "%02x\n" : "%02x ", f[i]);
    }
}

static int raw_recv(EnocDev *d, RawCtx *c)
{
    uint8_t frame[OETP_FRAME_MAX];

    if (!c->direct) {
        cli_check(enoc_buf_map(d, 0));
        if (d->buf_size < OETP_FRAME_MAX) {
            cli_die("raw DMA receive needs a buffer of at least %u bytes", OETP_FRAME_MAX);
        }
    }
    for (uint64_t i = 0; i < c->count; i++) {
        uint32_t len;
        int rc;

        if (c->direct) {
            rc = enoc_direct_recv(d, frame, sizeof(frame), (int)c->timeout);
            if (rc == -EAGAIN) {
                cli_die("no frame within %llu ms", (unsigned long long)c->timeout);
            }
            cli_check(rc);
            raw_print(frame, (size_t)rc, c->hex);
            continue;
        }
        cli_check(enoc_raw_rx_arm(d, 0, OETP_FRAME_MAX));
        rc = enoc_raw_rx_wait(d, &len, (int)c->timeout);
        cli_check(rc);
        if (rc > 0) {
            cli_die("raw DMA RX failed: error %d (%s)", rc, oe_error_name(rc));
        }
        raw_print(d->buf, len, c->hex);
    }
    return 0;
}

int cmd_raw(EnocDev *d, int argc, char **argv)
{
    static const struct option opts[] = {
        { "dst", required_argument, NULL, 'a' },
        { "ethertype", required_argument, NULL, 'e' },
        { "size", required_argument, NULL, 's' },
        { "text", required_argument, NULL, 't' },
        { "count", required_argument, NULL, 'c' },
        { "timeout", required_argument, NULL, 'T' },
        { "direct", no_argument, NULL, 'D' },
        { "hex", no_argument, NULL, 'x' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    RawCtx c = { .ethertype = RAW_ETHERTYPE_DEFAULT, .size = 46, .count = 1,
                 .timeout = 10000 };

    if (!d) {
        HELP_OR_DIE(raw_usage);
    }
    if (argc < 2 || (strcmp(argv[1], "send") && strcmp(argv[1], "recv"))) {
        cli_usage_error("raw wants send or recv");
    }
    if (parse_opts(argc - 1, argv + 1, opts, raw_usage, raw_apply, &c) < argc - 1) {
        cli_usage_error("unexpected argument");
    }
    return !strcmp(argv[1], "send") ? raw_send(d, &c) : raw_recv(d, &c);
}

/* ---- events ---- */

static const char events_usage[] =
    "usage: enocctl [-d N] events [--enable LIST] [--count K] [--timeout MS]\n"
    "Print IRQ events (claims the driver serviced) as they arrive.\n"
    "  --enable LIST  set irq.event_enable first: all, none, or a comma list of\n"
    "                 source numbers 0-5 (0 peer DMA, 1 raw TX, 2 raw RX,\n"
    "                 3 direct TX, 4 direct RX, 5 RMEM error)\n"
    "  --count K      stop after K events (default: until the timeout)\n"
    "  --timeout MS   stop when no event came for MS ms (default 10000)\n";

typedef struct EventsCtx {
    const char *enable;
    uint64_t count, timeout;
} EventsCtx;

static void events_apply(int opt, const char *arg, void *ctx)
{
    EventsCtx *c = ctx;

    switch (opt) {
    case 'e': c->enable = arg; break;
    case 'c': c->count = cli_num("--count", arg, UINT32_MAX); break;
    case 't': c->timeout = cli_num("--timeout", arg, INT32_MAX); break;
    }
}

static uint32_t parse_sources(const char *s)
{
    uint32_t mask = 0;
    char buf[64], *tok, *save;

    if (!strcmp(s, "all")) {
        return (1u << ENOC_SRC_COUNT) - 1;
    }
    if (!strcmp(s, "none")) {
        return 0;
    }
    snprintf(buf, sizeof(buf), "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        mask |= 1u << cli_num("event source", tok, ENOC_SRC_COUNT - 1);
    }
    return mask;
}

int cmd_events(EnocDev *d, int argc, char **argv)
{
    static const struct option opts[] = {
        { "enable", required_argument, NULL, 'e' },
        { "count", required_argument, NULL, 'c' },
        { "timeout", required_argument, NULL, 't' },
        { "help", no_argument, NULL, 'h' },
        { 0 }
    };
    EventsCtx c = { .timeout = 10000 };
    struct enoc_event ev;
    uint64_t got = 0;

    if (!d) {
        HELP_OR_DIE(events_usage);
    }
    if (parse_opts(argc, argv, opts, events_usage, events_apply, &c) < argc) {
        cli_usage_error("events takes only options");
    }
    if (c.enable) {
        enoc_event_enable(d, parse_sources(c.enable));
    }
    while (!c.count || got < c.count) {
        int r = enoc_event_next(d, &ev, (int)c.timeout);

        cli_check(r);
        if (r == 0) {
            break;
        }
        printf("%llu.%06llu seq %5u peer %u %s%s\n",
               (unsigned long long)(ev.timestamp_ns / 1000000000u),
               (unsigned long long)(ev.timestamp_ns / 1000 % 1000000u), ev.sequence,
               ev.peer, enoc_source_name(ev.source),
               ev.flags & ENOC_EVENT_LOST_BEFORE ? " (events lost before)" : "");
        fflush(stdout);
        got++;
    }
    if (c.count && got < c.count) {
        cli_die("%llu of %llu events within the timeout", (unsigned long long)got,
                (unsigned long long)c.count);
    }
    return 0;
}
