/* cmd_explore.c - bcwalk explore: a bounded exhaustive walk of a unit. */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bcwalk/error.h"
#include "bcwalk/explore.h"
#include "bcwalk/solver.h"
#include "cli.h"

static void help(void)
{
    puts(
        "usage: bcwalk explore LIB.bc --unit NAME --walk "
        "protocol|algebra|state\n"
        "                      [--depth K] [--format text|json|jsonl]\n"
        "                      [--jobs N] [--timeout MS] [--calls stub|ffi] "
        "[-o RESULTS]\n"
        "                      [--combine all|pairs] [--max-combos N] "
        "[--generator FILE]\n"
        "                      [--permute SEED] [--prune state|none] "
        "[--boundaries]\n"
        "                      [--probe-depth N] [--predicates LIST] "
        "[--graph FILE]\n"
        "\n"
        "Runs every call sequence of the unit up to length K (JWalk's\n"
        "protocol walk TP_k, the algebra walk TA_k whose prefixes hold\n"
        "only constructors and mutators, or the state walk TS_k: TP_k from\n"
        "each design state's cover) in crash-isolated workers, and\n"
        "reports each sequence's result and the summary counts.\n"
        "\n"
        "options:\n"
        "  --unit NAME       the unit to walk (see bcwalk analyze)\n"
        "  --walk KIND       protocol (default), algebra, or state: the\n"
        "                    protocol walk from every design state\n"
        "  --depth K         longest method sequence, 1..255 (default 3)\n"
        "  --format FORMAT   text report (default), json summary, or jsonl:\n"
        "                    one object per sequence, then the summary\n"
        "  --jobs N          worker processes (default 1)\n"
        "  --timeout MS      a call that runs longer is a hang (default 1000)\n"
        "  -o FILE           save the results as msgpack (written atomically)\n"
        "  --calls HOW       stub (default): generated typed call stubs;\n"
        "                    ffi: every call through libffi\n"
        "  --boundaries      walk each category's minimum and maximum too,\n"
        "                    not only its representative\n"
        "  --combine HOW     how one call's parameter categories combine:\n"
        "                    all (default) or pairs (every pair of categories\n"
        "                    of any two parameters, fewer steps)\n"
        "  --max-combos N    most combinations walked per function, 1..256\n"
        "                    (default 64; the report warns when it cuts)\n"
        "  --probe-depth N   state walk: longest constructor + mutators\n"
        "                    sequence probed for design states (default 12)\n"
        "  --predicates LIST state walk: the predicates (comma-separated)\n"
        "                    that make the states; default: the interface's,\n"
        "                    plus bitcode ones it lacks; NAME:LABEL renames "
        "it\n"
        "  --graph FILE      state walk: write the state graph as DOT\n"
        "  --permute SEED    buffer contents: every distinct permutation of\n"
        "                    SEED's bytes, or with '|' (\"ab|cd\") of each\n"
        "                    group on its own (stratified); the paired length\n"
        "                    follows the content\n"
        "  --generator FILE  custom generator (bcwalk/generator.h) for the\n"
        "                    parameters it takes: C (.c) or bitcode (.bc),\n"
        "                    compiled and cached, or a shared object (.so)\n"
        "  --prune HOW       state: a sequence that reaches a concrete state\n"
        "                    (memory reachable from the object, and the\n"
        "                    next generated values) an earlier one reached\n"
        "                    is run but not extended; none: extend all.\n"
        "                    Default: state from depth 6 on, none below it\n"
        "                    or with --generator\n"
        "\n"
        "The native code is built with clang from the same bitcode and\n"
        "cached in $XDG_CACHE_HOME/bcwalk (default ~/.cache/bcwalk).\n"
        "\n"
        "examples:\n"
        "  bcwalk explore stack.bc --unit bstack --walk protocol --depth 3\n"
        "  bcwalk explore stack.bc --unit bstack --walk algebra --depth 3 "
        "--format json\n"
        "  bcwalk explore stack.bc --unit bstack --walk state --depth 3 "
        "--graph stack.dot\n"
        "  bcwalk explore stack.bc --unit bstack --depth 8 --jobs 2 "
        "--format json -o deep.results.msgpack\n"
        "  bcwalk explore stack.bc --unit bstack --depth 3 "
        "--generator examples/gen_index.c\n"
        "  bcwalk explore stack.bc --unit bstack --depth 12 --format json   "
        "# pruned: seconds");
}

/* Renders progress on a terminal, in place, at most ~15 times a second. */
static void progress(const bcw_progress *p, void *payload)
{
    double *last = payload;
    if (p->elapsed_s - *last < 1.0 / 15)
        return;
    *last = p->elapsed_s;
    fprintf(stderr, "\rlength %u/%u: %llu sequences, %llu calls, %.1fs",
            p->length, p->depth, (unsigned long long)p->done,
            (unsigned long long)p->calls, p->elapsed_s);
}

int cmd_explore(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"unit", required_argument, NULL, 'u'},
        {"walk", required_argument, NULL, 'w'},
        {"depth", required_argument, NULL, 'd'},
        {"format", required_argument, NULL, 'f'},
        {"jobs", required_argument, NULL, 'j'},
        {"timeout", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},
        {"calls", required_argument, NULL, 'c'},
        {"combine", required_argument, NULL, 'C'},
        {"max-combos", required_argument, NULL, 'M'},
        {"generator", required_argument, NULL, 'g'},
        {"permute", required_argument, NULL, 'P'},
        {"probe-depth", required_argument, NULL, 'D'},
        {"predicates", required_argument, NULL, 'R'},
        {"graph", required_argument, NULL, 'G'},
        {"prune", required_argument, NULL, 'Q'},
        {"boundaries", no_argument, NULL, 'B'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    bcw_explore_opts opts = BCW_EXPLORE_OPTS_INIT;
    const char *unit = NULL;
    long v;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "ho:", longopts, NULL)) != -1) {
        switch (c) {
        case 'u':
            unit = optarg;
            break;
        case 'w':
            if (strcmp(optarg, "protocol") == 0)
                opts.walk = BCW_WALK_PROTOCOL;
            else if (strcmp(optarg, "algebra") == 0)
                opts.walk = BCW_WALK_ALGEBRA;
            else if (strcmp(optarg, "state") == 0)
                opts.walk = BCW_WALK_STATE;
            else
                return cli_fail("explore: unknown walk '%s' (protocol, "
                                "algebra or state)",
                                optarg);
            break;
        case 'd':
            if ((v = cli_positive(optarg, 255)) < 0)
                return cli_fail("explore: --depth must be an integer from 1 "
                                "to 255, not '%s'",
                                optarg);
            opts.depth = (unsigned)v;
            break;
        case 'f':
            if (strcmp(optarg, "text") == 0)
                opts.format = BCW_REPORT_TEXT;
            else if (strcmp(optarg, "json") == 0)
                opts.format = BCW_REPORT_JSON;
            else if (strcmp(optarg, "jsonl") == 0)
                opts.format = BCW_REPORT_JSONL;
            else
                return cli_fail("explore: unknown format '%s' (text, json or "
                                "jsonl)",
                                optarg);
            break;
        case 'j':
            if ((v = cli_positive(optarg, 1024)) < 0)
                return cli_fail("explore: --jobs must be an integer from 1 "
                                "to 1024, not '%s'",
                                optarg);
            opts.jobs = (unsigned)v;
            break;
        case 't':
            if ((v = cli_positive(optarg, 3600000)) < 0)
                return cli_fail("explore: --timeout must be a positive "
                                "number of milliseconds, not '%s'",
                                optarg);
            opts.timeout_ms = (unsigned)v;
            break;
        case 'o':
            opts.results_path = optarg;
            break;
        case 'c':
            if (strcmp(optarg, "stub") != 0 && strcmp(optarg, "ffi") != 0)
                return cli_fail("explore: unknown --calls '%s' (stub or ffi)",
                                optarg);
            opts.use_ffi = strcmp(optarg, "ffi") == 0;
            break;
        case 'C':
            if (strcmp(optarg, "all") != 0 && strcmp(optarg, "pairs") != 0)
                return cli_fail("explore: unknown --combine '%s' (all or "
                                "pairs)",
                                optarg);
            opts.combine = strcmp(optarg, "pairs") == 0 ? BCW_COMBINE_PAIRS
                                                        : BCW_COMBINE_ALL;
            break;
        case 'M':
            if ((v = cli_positive(optarg, 256)) < 0)
                return cli_fail("explore: --max-combos must be an integer "
                                "from 1 to 256, not '%s'",
                                optarg);
            opts.max_combos = (unsigned)v;
            break;
        case 'g':
            opts.generator = optarg;
            break;
        case 'P':
            opts.permute = optarg;
            break;
        case 'D':
            if ((v = cli_positive(optarg, 64)) < 0)
                return cli_fail("explore: --probe-depth must be an integer "
                                "from 1 to 64, not '%s'",
                                optarg);
            opts.probe_depth = (unsigned)v;
            break;
        case 'R':
            opts.predicates = optarg;
            break;
        case 'G':
            opts.graph_path = optarg;
            break;
        case 'Q':
            if (strcmp(optarg, "state") != 0 && strcmp(optarg, "none") != 0)
                return cli_fail("explore: unknown --prune '%s' (state or "
                                "none)",
                                optarg);
            opts.prune =
                strcmp(optarg, "state") == 0 ? BCW_PRUNE_STATE : BCW_PRUNE_NONE;
            break;
        case 'B':
            opts.boundaries = 1;
            break;
        case 'h':
            help();
            return EXIT_OK;
        default:
            return cli_bad_option("explore", argv, optind);
        }
    }
    /* verify, then run */
    if (optind + 1 != argc)
        return cli_need_one_file("explore");
    if (unit == NULL)
        return cli_fail("explore: --unit NAME is required (bcwalk analyze "
                        "lists the units)");
    opts.bitcode = argv[optind];
    bcw_model *model = NULL;
    /* unchanged bitcode is analysed once: the model is cached */
    if (bcw_model_open(&model, opts.bitcode, NULL) < 0)
        return cli_fail("%s", bcw_error_last());
    if ((opts.unit = bcw_model_find_unit(model, unit)) < 0) {
        bcw_model_free(model);
        return cli_fail("%s", bcw_error_last());
    }
    double last = 0;
    bool tty = isatty(2);
    if (tty) {
        opts.progress = progress;
        opts.payload = &last;
    }
    opts.report = stdout;
    bcw_summary sum;
    int err = bcw_explore_run(&sum, model, &opts);
    if (tty && last > 0)
        fputs("\r\033[K", stderr);
    bcw_model_free(model);
    if (err < 0)
        return cli_fail("%s", bcw_error_last());
    return EXIT_OK;
}
