/*
 * enocctl subcommands. Each gets the open device (NULL when only --help was
 * asked for) and its own argv (argv[0] is the subcommand name); it returns
 * the process exit status.
 */
#ifndef ENOCCTL_H
#define ENOCCTL_H

#include "enoc.h"

bool cli_wants_help(int argc, char **argv);

int cmd_info(EnocDev *d, int argc, char **argv);
int cmd_config(EnocDev *d, int argc, char **argv);
int cmd_peer(EnocDev *d, int argc, char **argv);
int cmd_buf(EnocDev *d, int argc, char **argv);
int cmd_dma(EnocDev *d, int argc, char **argv);
int cmd_rmem(EnocDev *d, int argc, char **argv);
int cmd_raw(EnocDev *d, int argc, char **argv);
int cmd_events(EnocDev *d, int argc, char **argv);
int cmd_selftest(EnocDev *d, int argc, char **argv);

#endif /* ENOCCTL_H */
