/* cmd_learn.c - bcwalk learn: a unit's model from the library's own test
 * program. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcwalk/error.h"
#include "bcwalk/learn.h"
#include "bcwalk/model.h"
#include "bcwalk/solver.h"
#include "cli.h"
#include "opt.h"

typedef struct learn_args {
    const char *unit, *k, *libs, *output, *dot, *svg, *keep;
    unsigned max_calls, per_site, time_limit_s, memory_mb;
    enum bcw_learn_format format;
} learn_args;

static const learn_args defaults = {.k = "4,1",
                                    .max_calls = 10000,
                                    .per_site = 64,
                                    .time_limit_s = 10,
                                    .memory_mb = 4096,
                                    .format = BCW_LEARN_TEXT};

static const cli_word formats[] = {
    {.word = "text",
     .value = BCW_LEARN_TEXT,
     .help = "each test with its calls, then the merged model"},
    {.word = "json", .value = BCW_LEARN_JSON, .help = "one JSON document"},
    {.word = NULL}};

static const cli_opt options[] = {
    {.name = "unit",
     .arg = "NAME",
     CLI_TEXT(learn_args, unit),
     .flags = CLI_REQUIRED,
     .help = "the unit whose calls are learned (its name or its C type)"},
    {.name = "output",
     .alias = 'o',
     .arg = "MODEL",
     CLI_FILE_OUT(learn_args, output),
     .help = "save the learned model (msgpack, docs/learn.md), for "
             "explore --from-tests"},
    {.name = "format",
     .arg = "FORMAT",
     CLI_WORD(learn_args, format, formats),
     .help = "how what was learned is printed"},
    {.name = "dot",
     .arg = "FILE",
     CLI_FILE_OUT(learn_args, dot),
     .help = "write the merged model's graph in DOT"},
    {.name = "svg",
     .arg = "FILE",
     CLI_FILE_OUT(learn_args, svg),
     .help = "write the merged model's graph as SVG (Graphviz's dot)"},
    {.name = "k",
     .arg = "STRICT[,LOOSE]",
     CLI_TEXT(learn_args, k),
     .help = "the merging thresholds: nodes whose trees of calls agree to "
             "STRICT levels merge, then those whose whole trees are alike "
             "and at least LOOSE levels deep (James's defaults)"},
    {.name = "lib",
     .arg = "LIBS",
     CLI_TEXT(learn_args, libs),
     .help = "libraries the test program links with, comma-separated "
             "(cmocka for a cmocka suite)"},
    {.name = "max-calls",
     .arg = "N",
     CLI_INT(learn_args, max_calls, 1, 1000000),
     .help = "calls recorded per test (the rest are counted)"},
    {.name = "per-site",
     .arg = "N",
     CLI_INT(learn_args, per_site, 1, 1000000),
     .help = "calls recorded per call site in a test: a loop's first "
             "iterations, then the calls after it (the rest are counted)"},
    {.name = "time-limit",
     .arg = "S",
     CLI_INT(learn_args, time_limit_s, 1, 86400),
     .help = "a test's time limit: over it, it is a hang"},
    {.name = "memory",
     .arg = "MB",
     CLI_INT(learn_args, memory_mb, 0, 1 << 20),
     .help = "the test program's address space (0: no limit)"},
    {.name = "keep",
     .arg = "DIR",
     CLI_TEXT(learn_args, keep),
     .help = "keep the traced program and its records in DIR"},
    {.kind = CLI_END}};

static const cli_spec spec = {
    .cmd = "learn",
    .operand = "TESTS.bc [LIB.bc]",
    .operand_is = "bitcode file",
    .operands = 2,
    .min_operands = 1,
    .about =
        "Runs the library's own test program (TESTS.bc, with its main,\n"
        "linked with LIB.bc) with every call its test code makes into the\n"
        "library recorded, test by test, crash-isolated; then merges the\n"
        "unit's calls into a model of control and data dependencies\n"
        "(James's k-tails merging).  Given one file, it is the library built\n"
        "with its tests (their main in its own source, under a switch such\n"
        "as -DTEST): its test code is what the unit's functions do not call.\n",
    .after = "examples:\n"
             "  clang -g -c -emit-llvm queue.c -o queue.bc\n"
             "  clang -g -c -emit-llvm test-queue.c -o test-queue.bc\n"
             "  bcwalk learn test-queue.bc queue.bc --unit Queue\n"
             "  bcwalk learn test-queue.bc queue.bc --unit Queue -o q.learned "
             "--svg q.svg\n"
             "  clang -g -c -emit-llvm -DTEST fifo.c -o fifo-tests.bc\n"
             "  bcwalk learn fifo-tests.bc --unit fifo\n",
    .opts = options,
    .defaults = &defaults,
    .size = sizeof defaults};

/* "4,1" or "4" into the two thresholds. */
static int thresholds(const char *k, unsigned *strict, unsigned *loose)
{
    char *end;
    unsigned long s = strtoul(k, &end, 10), l = 1;
    if (end == k || s < 1 || s > 32)
        return -1;
    if (*end == ',') {
        const char *at = end + 1;
        l = strtoul(at, &end, 10);
        if (end == at || l < 1 || l > s)
            return -1;
    }
    if (*end != '\0')
        return -1;
    *strict = (unsigned)s;
    *loose = (unsigned)l;
    return 0;
}

int cmd_learn(int argc, char **argv)
{
    learn_args a;
    cli_args given;
    int rc;
    if ((rc = cli_parse(&given, &spec, &a, argc, argv)) != CLI_RUN)
        return rc;
    bcw_learn_opts o = {.tests = given.operand,
                        .bitcode =
                            given.more[0] ? given.more[0] : given.operand,
                        .libs = a.libs,
                        .max_calls = a.max_calls,
                        .per_site = a.per_site,
                        .time_limit_s = a.time_limit_s,
                        .memory_mb = a.memory_mb,
                        .out_path = a.output,
                        .dot_path = a.dot,
                        .svg_path = a.svg,
                        .keep_dir = a.keep,
                        .format = a.format};
    if (thresholds(a.k, &o.k_strict, &o.k_loose) < 0)
        return cli_fail("learn: --k %s: expected STRICT[,LOOSE], 1 <= LOOSE "
                        "<= STRICT <= 32 (James: 4,1)",
                        a.k);
    /* with -o the model file is the output; --format prints it too */
    if (a.output == NULL || cli_given(&given, &spec, "format"))
        o.report = stdout;
    bcw_model *model = NULL;
    int err = bcw_model_open(&model, o.bitcode, NULL);
    if (err == 0)
        err = bcw_model_find_unit(model, a.unit);
    if (err >= 0) {
        o.unit = (unsigned)err;
        err = bcw_learn_run(model, &o);
    }
    bcw_model_free(model);
    return err < 0 ? cli_fail_library(&spec, &given, err) : EXIT_OK;
}
