/* cmd_oracle.c - bcwalk oracle: what an oracle file holds
 * (docs/oracle.md).  `bcwalk oracle dump FILE` prints it as JSON. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>

#include "bcwalk/error.h"
#include "bcwalk/oracle.h"
#include "cli.h"
#include "opt.h"

typedef struct dump_args {
    int unused;
} dump_args;

static const dump_args defaults = {0};

static const cli_opt options[] = {{.kind = CLI_END}};

static const cli_spec spec = {
    .cmd = "oracle dump",
    .operand = "FILE",
    .operand_is = "oracle file",
    .about = "Prints an oracle file (docs/oracle.md) as one JSON document, an\n"
             "entry per line: each observation's key, the sequence that made\n"
             "it, its verdict and when it was first seen.\n",
    .after = "example:\n"
             "  bcwalk oracle dump stack.oracle.msgpack\n",
    .opts = options,
    .defaults = &defaults,
    .size = sizeof defaults};

static int dump(int argc, char **argv)
{
    dump_args a;
    cli_args given;
    int rc;
    if ((rc = cli_parse(&given, &spec, &a, argc, argv)) != CLI_RUN)
        return rc;
    bcw_oracle *o = NULL;
    int err = bcw_oracle_load(&o, given.operand);
    if (err == 0)
        err = bcw_oracle_dump(o, stdout);
    bcw_oracle_free(o);
    return err < 0 ? cli_fail_library(&spec, &given, err) : EXIT_OK;
}

int cmd_oracle(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "dump") == 0)
        return dump(argc - 1, argv + 1);
    if (argc >= 2 &&
        (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        cli_help(&spec, stdout);
        return EXIT_OK;
    }
    return cli_fail("oracle: say what to do with the oracle: dump FILE "
                    "(see bcwalk oracle --help)");
}
