/* main.c - the bcwalk command: dispatches to one cmd_<name>.c per
 * subcommand, using only the public API. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bcwalk/version.h"
#include "cli.h"

static const cli_cmd commands[] = {
    {"analyze", cmd_analyze,
     "show the units of a bitcode file and their roles"},
    {"explore", cmd_explore, "run a protocol, algebra or state walk of a unit"},
    {"test", cmd_test, "run a walk and judge it against an oracle"},
    {"review", cmd_review,
     "judge an oracle's pending observations one at a time"},
    {"oracle", cmd_oracle, "print an oracle file (oracle dump FILE)"},
    {"report", cmd_report,
     "print the report of a results file again, running nothing"},
    {"merge", cmd_merge,
     "make the results file of a walk run in shards (--shard I/N)"},
    {"learn", cmd_learn,
     "learn a unit's model from the library's own test program"},
};

static void usage(FILE *f)
{
    fputs("usage: bcwalk <command> [options]\n\n"
          "bcwalk tests a C library systematically from its LLVM bitcode.\n\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fputs("\nRun 'bcwalk <command> --help' for its options.\n\n"
          "examples:\n"
          "  clang -g -c -emit-llvm stack.c -o stack.bc\n"
          "  bcwalk analyze stack.bc\n"
          "  bcwalk explore stack.bc --unit bstack --walk protocol --depth 3\n",
          f);
}

/* The standard descriptors, open: a closed one would be the number of
 * the next file bcwalk opens (a worker's shared memory), and the report
 * or an error written into it.  stdin and stderr get /dev/null; a
 * closed stdout, where reports go, is an error.  False then. */
static bool standard_fds_open(void)
{
    bool out = fcntl(1, F_GETFD) != -1;
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1) {
            int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
            if (null >= 0 && null != fd) {
                dup2(null, fd);
                close(null);
            }
        }
    return out;
}

int main(int argc, char **argv)
{
    if (!standard_fds_open())
        return cli_fail("standard output is closed: reports go there "
                        "(redirect it, to /dev/null if need be)");
    /* a file past `ulimit -f` is a write that fails (EFBIG), said as
     * any other, its temporary removed: not a signal that ends bcwalk
     * and leaves the temporary */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2)
        return usage(stderr), EXIT_USAGE;
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0)
        return usage(stdout), EXIT_OK;
    if (strcmp(argv[1], "--version") == 0)
        return printf("bcwalk %s\n", bcw_version()), EXIT_OK;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].fn(argc - 1, argv + 1);
    return cli_fail("unknown command '%s' (see bcwalk --help)", argv[1]);
}
