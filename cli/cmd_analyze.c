/* cmd_analyze.c - bcwalk analyze: the units of a bitcode file. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "bcwalk/error.h"
#include "bcwalk/model.h"
#include "bcwalk/solver.h"
#include "cli.h"
#include "opt.h"

/* What the command line sets. */
typedef struct analyze_args {
    const char *unit, *invariant, *output, *link;
    enum bcw_model_format format;
} analyze_args;

static const analyze_args defaults = {.format = BCW_MODEL_TEXT};

static const cli_word formats[] = {
    {.word = "text",
     .value = BCW_MODEL_TEXT,
     .help = "each unit with its functions and their roles"},
    {.word = "json", .value = BCW_MODEL_JSON, .help = "one JSON document"},
    {.word = NULL}};

static const cli_opt options[] = {
    {.name = "unit",
     .arg = "NAME",
     CLI_TEXT(analyze_args, unit),
     .help = "show only this unit (its name or its C type: the struct's "
             "tag or a typedef)"},
    {.name = "format",
     .arg = "FORMAT",
     CLI_WORD(analyze_args, format, formats),
     .help = "how the model is printed"},
    {.name = "invariant",
     .arg = "FN",
     CLI_TEXT(analyze_args, invariant),
     .help = "FN is its unit's invariant function (besides the "
             "T_invariant, T_check, T_ok, T_valid found by name)"},
    {.name = "link",
     .arg = "FILES",
     CLI_TEXT(analyze_args, link),
     .help = "bitcode files (comma-separated) that define what LIB.bc calls "
             "but does not define, linked into it: the units are still "
             "LIB.bc's own, the others' code what they call"},
    {.name = "output",
     .alias = 'o',
     .arg = "MODEL",
     CLI_FILE_OUT(analyze_args, output),
     .help = "save the model file (msgpack, docs/model.md); nothing is "
             "printed unless --format is given"},
    {.kind = CLI_END}};

static const cli_spec spec = {
    .cmd = "analyze",
    .operand = "LIB.bc",
    .operand_is = "bitcode file",
    .about = "Finds the units (a struct with its constructors, methods and\n"
             "destructors) in LLVM bitcode and classifies each method as an\n"
             "observer or a mutator by a static mod analysis.\n",
    .after = "examples:\n"
             "  clang -g -c -emit-llvm stack.c -o stack.bc\n"
             "  bcwalk analyze stack.bc\n"
             "  bcwalk analyze stack.bc --unit bstack --format json\n"
             "  bcwalk analyze stack.bc -o stack.model.msgpack\n",
    .opts = options,
    .defaults = &defaults,
    .size = sizeof defaults};

int cmd_analyze(int argc, char **argv)
{
    analyze_args a;
    cli_args given;
    int rc;
    if ((rc = cli_parse(&given, &spec, &a, argc, argv)) != CLI_RUN)
        return rc;
    bcw_model *model = NULL;
    int err, index = -1;
    if (a.link != NULL) {
        /* the linked module is cached, and so its model */
        char *built = NULL;
        err =
            bcw_model_open_linked(&model, &built, given.operand, a.link, NULL);
        free(built);
    } else if ((err = bcw_model_analyze(&model, given.operand)) == 0) {
        err = bcw_model_partition(model);
    }
    if (err < 0 ||
        (a.invariant != NULL &&
         (err = bcw_model_set_invariant(model, a.invariant)) < 0) ||
        (a.unit != NULL &&
         (err = index = bcw_model_find_unit(model, a.unit)) < 0)) {
        bcw_model_free(model);
        return cli_fail_library(&spec, &given, err);
    }
    /* with -o the model file is the output; --format prints it too */
    bool print = a.output == NULL || cli_given(&given, &spec, "format");
    if (a.output != NULL)
        err = bcw_model_save(model, a.output);
    if (err >= 0 && print)
        err = bcw_model_write(model, index, a.format, stdout);
    bcw_model_free(model);
    return err < 0 ? cli_fail_library(&spec, &given, err) : EXIT_OK;
}
