/* cmd_analyze.c - bcwalk analyze: the units of a bitcode file. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "bcwalk/error.h"
#include "bcwalk/model.h"
#include "bcwalk/solver.h"
#include "cli.h"

static void help(void)
{
    puts("usage: bcwalk analyze LIB.bc [--unit NAME] [--format text|json]\n"
         "                      [--invariant FN] [-o MODEL]\n"
         "\n"
         "Finds the units (a struct with its constructors, methods and\n"
         "destructors) in LLVM bitcode and classifies each method as an\n"
         "observer or a mutator by a static mod analysis.\n"
         "\n"
         "options:\n"
         "  --unit NAME       show only this unit\n"
         "  --format FORMAT   text (default) or json\n"
         "  --invariant FN    FN is its unit's invariant function (besides\n"
         "                    the T_invariant, T_check, T_ok, T_valid found\n"
         "                    by name)\n"
         "  -o MODEL          save the model file (msgpack, docs/model.md);\n"
         "                    nothing is printed unless --format is given\n"
         "\n"
         "examples:\n"
         "  clang -g -c -emit-llvm stack.c -o stack.bc\n"
         "  bcwalk analyze stack.bc\n"
         "  bcwalk analyze stack.bc --unit bstack --format json\n"
         "  bcwalk analyze stack.bc -o stack.model.msgpack");
}

int cmd_analyze(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"unit", required_argument, NULL, 'u'},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"invariant", required_argument, NULL, 'i'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *unit = NULL, *output = NULL, *invariant = NULL;
    enum bcw_model_format format = BCW_MODEL_TEXT;
    bool print = true, format_given = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        switch (c) {
        case 'u':
            unit = optarg;
            break;
        case 'o':
            output = optarg;
            break;
        case 'i':
            invariant = optarg;
            break;
        case 'f':
            format_given = true;
            if (strcmp(optarg, "json") == 0)
                format = BCW_MODEL_JSON;
            else if (strcmp(optarg, "text") == 0)
                format = BCW_MODEL_TEXT;
            else
                return cli_fail("analyze: unknown format '%s' (text or json)",
                                optarg);
            break;
        case 'h':
            help();
            return EXIT_OK;
        default:
            return cli_bad_option("analyze", argv, optind);
        }
    }
    if (optind + 1 != argc)
        return cli_need_one_file("analyze");
    bcw_model *model = NULL;
    if (bcw_model_analyze(&model, argv[optind]) < 0)
        return cli_fail("%s", bcw_error_last());
    if (bcw_model_partition(model) < 0) {
        bcw_model_free(model);
        return cli_fail("%s", bcw_error_last());
    }
    int index = -1;
    if ((invariant != NULL && bcw_model_set_invariant(model, invariant) < 0) ||
        (unit != NULL && (index = bcw_model_find_unit(model, unit)) < 0)) {
        bcw_model_free(model);
        return cli_fail("%s", bcw_error_last());
    }
    /* with -o the model file is the output; --format prints it too */
    print = output == NULL || format_given;
    int rc = EXIT_OK;
    if (output != NULL && bcw_model_save(model, output) < 0)
        rc = cli_fail("%s", bcw_error_last());
    if (rc == EXIT_OK && print &&
        bcw_model_write(model, index, format, stdout) < 0)
        rc = cli_fail("%s", bcw_error_last());
    bcw_model_free(model);
    return rc;
}
