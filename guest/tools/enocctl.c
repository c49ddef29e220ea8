/*
 * enocctl: command-line access to an openENOC endpoint (/dev/enocN) through
 * libenoc. One subcommand per endpoint feature; each has --help, exits 0 on
 * success, 1 when the operation failed (with the endpoint's error name) and
 * 2 on bad usage.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "enocctl.h"

static const char main_usage[] =
    "usage: enocctl [-d N] COMMAND [ARGS]   (enocctl COMMAND --help for details)\n"
    "  -d N       endpoint /dev/enocN (default 0; also $ENOC_DEV)\n"
    "commands:\n"
    "  info                      identity, features, IRQ mode, buffer, counters\n"
    "  config [--mac M ...]      show or set the endpoint configuration\n"
    "  peer N [--mode M ...]     show or set peer entry N\n"
    "  buf alloc|free|show|fill|crc|dump   the DMA buffer\n"
    "  dma push|pull N           run the bulk DMA block of peer N\n"
    "  rmem read|write OFF [V]   access the RMEM window\n"
    "  raw send|recv             raw Ethernet frames by DMA or the direct stream\n"
    "  events                    print IRQ events as they come\n"
    "  selftest                  check this endpoint on its own\n";

static const struct {
    const char *name;
    int (*fn)(EnocDev *d, int argc, char **argv);
} commands[] = {
    { "info", cmd_info },
    { "config", cmd_config },
    { "peer", cmd_peer },
    { "buf", cmd_buf },
    { "dma", cmd_dma },
    { "rmem", cmd_rmem },
    { "raw", cmd_raw },
    { "events", cmd_events },
    { "selftest", cmd_selftest },
};

bool cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            return true;
        }
    }
    return false;
}

int main(int argc, char **argv)
{
    const char *env = getenv("ENOC_DEV");
    int index = env ? (int)cli_num("ENOC_DEV", env, 63) : 0;
    EnocDev d;
    int i = 1;

    cli_prog = "enocctl";
    while (i < argc && argv[i][0] == '-') {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            fputs(main_usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "-d") && i + 1 < argc) {
            index = (int)cli_num("-d", argv[i + 1], 63);
            i += 2;
            continue;
        }
        cli_usage_error("unknown option '%s'", argv[i]);
    }
    if (i >= argc) {
        fputs(main_usage, stderr);
        return 2;
    }
    for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++) {
        if (strcmp(argv[i], commands[k].name)) {
            continue;
        }
        /* --help needs no device, so it works anywhere. */
        if (cli_wants_help(argc - i, argv + i)) {
            return commands[k].fn(NULL, argc - i, argv + i);
        }
        cli_check(enoc_open(&d, index));
        int rc = commands[k].fn(&d, argc - i, argv + i);
        enoc_close(&d);
        return rc;
    }
    cli_usage_error("unknown command '%s'", argv[i]);
}
