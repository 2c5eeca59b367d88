/* main.c - the bcwalk command: dispatches to one cmd_<name>.c per
 * subcommand, using only the public API. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcwalk/version.h"
#include "cli.h"

static const cli_cmd commands[] = {
    {"analyze", cmd_analyze,
     "show the units of a bitcode file and their roles"},
    {"explore", cmd_explore,
     "run a protocol, algebra or state walk of a unit"},
};

int cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("bcwalk: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return EXIT_USAGE;
}

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

int main(int argc, char **argv)
{
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
