/* cmd_report.c - bcwalk report and bcwalk merge: a walk's report and
 * exports again from its results files, or its shards' files merged into
 * the whole walk's, without running anything. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcwalk/error.h"
#include "bcwalk/explore.h"
#include "cli.h"
#include "opt.h"

/* bcwalk merge and bcwalk report: a walk again from results files, its
 * command the one they recorded, each sequence's result theirs. */
typedef struct replay_args {
    const char *out;       /* merge: -o FILE */
    const char *graph;     /* --graph FILE or --dot FILE */
    const char *graph_opt; /* which of the two was given */
    const char *lcov;      /* --lcov FILE */
    const char *html, *junit, *sarif, *svg, *emit_c;
    bool emit_c_all; /* --emit-c-all */
    int format;      /* --format, -1: none given */
} replay_args;

/* Where report's and merge's option `arg` naming an export's file goes,
 * or NULL when it names none. */
static const char **replay_file(const char *arg, replay_args *r)
{
    static const char *const names[] = {"--lcov",  "--html", "--junit",
                                        "--sarif", "--svg",  "--emit-c"};
    const char **at[] = {&r->lcov,  &r->html, &r->junit,
                         &r->sarif, &r->svg,  &r->emit_c};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(arg, names[i]) == 0)
            return at[i];
    return NULL;
}

#define REPLAY_EXPORTS                                                         \
    "[--format text|json|jsonl]\n       [--html FILE] [--junit FILE] "         \
    "[--sarif FILE] [--lcov FILE]\n       [--dot FILE] [--svg FILE] "          \
    "[--emit-c FILE [--emit-c-all]]\n"

static int replay_usage(bool merge)
{
    fprintf(stderr, "%s" REPLAY_EXPORTS,
            merge ? "usage: bcwalk merge SHARD.results.msgpack... -o OUT "
                  : "usage: bcwalk report RESULTS.msgpack... ");
    return EXIT_USAGE;
}

static void replay_help(bool merge)
{
    printf("%s" REPLAY_EXPORTS "\n%s",
           merge ? "usage: bcwalk merge SHARD.results.msgpack... -o OUT "
                 : "usage: bcwalk report RESULTS.msgpack... ",
           merge ? "Makes the results file of a walk run in shards (explore "
                   "--shard I/N -o FILE)\nout of its N shards' files: OUT "
                   "is the file one run of the whole walk writes,\nbyte for "
                   "byte. Nothing is run again: the walk follows the "
                   "results the\nshards recorded. --format also prints the "
                   "walk's report; the exports are\nreport's.\n"
                 : "Prints the report of the walk a results file (-o) "
                   "holds, as explore printed\nit (text by default), "
                   "without running anything again; given a walk's\nshards, "
                   "the whole walk's. Each export is written atomically "
                   "(docs/reports.md):\n"
                   "  --html FILE   one self-contained page: summary, state "
                   "graph, halts in C, coverage\n"
                   "  --junit FILE  JUnit XML: a test case per length (per "
                   "state in a state walk)\n"
                   "  --sarif FILE  SARIF 2.1.0: a result per distinct halt, "
                   "at its source line\n"
                   "  --lcov FILE   the coverage as an lcov tracefile (a walk "
                   "with --coverage)\n"
                   "  --dot FILE    the state graph as DOT (state walks; "
                   "--graph is the same)\n"
                   "  --svg FILE    the state graph as SVG, drawn by "
                   "Graphviz's dot (state walks)\n"
                   "  --emit-c FILE C files of cmocka tests replaying "
                   "sequences, asserting what they\n"
                   "                gave: every distinct halt, each state's "
                   "transitions, a sample of\n"
                   "                each length (--emit-c-all: every "
                   "sequence)\n"
                   "An export that does not apply to the walk (--dot or "
                   "--svg of another walk than\nthe state walk, --lcov of "
                   "a walk without --coverage) is refused on a line of\n"
                   "its own, the others written: the exit status is then "
                   "2.\n");
}

/* Each export asked for that does not apply to the walk the results
 * files hold (o, as recorded), said on a line of its own and left out,
 * so that the others are still written: the state graph (--dot,
 * --graph, --svg) is the state walk's, the lcov file a walk run with
 * --coverage.  Returns how many were left out. */
static unsigned refuse_exports(const char *cmd, replay_args *r,
                               const bcw_explore_opts *o,
                               const bcw_recorded *recorded, size_t npaths)
{
    const char *walk = "unknown";
    for (size_t k = 0; cli_walks[k].word != NULL; k++)
        if (cli_walks[k].value == (int)o->walk)
            walk = cli_walks[k].word;
    const char *holds =
        npaths > 1 ? "these results files hold" : "this results file holds";
    const char *a = strchr("aeiou", walk[0]) != NULL ? "an" : "a";
    const struct {
        const char **path, *opt;
    } graphs[] = {{&r->graph, r->graph_opt}, {&r->svg, "--svg"}};
    unsigned refused = 0;
    for (size_t i = 0; i < sizeof graphs / sizeof *graphs; i++)
        if (*graphs[i].path != NULL && o->walk != BCW_WALK_STATE) {
            cli_fail("%s: %s: the state graph is drawn by the state walk "
                     "only (%s %s %s walk)",
                     cmd, graphs[i].opt, holds, a, walk);
            *graphs[i].path = NULL;
            refused++;
        }
    if (r->lcov != NULL && !bcw_recorded_covered(recorded)) {
        cli_fail("%s: --lcov: the walk was run without --coverage: its "
                 "results have no coverage to write",
                 cmd);
        r->lcov = NULL;
        refused++;
    }
    return refused;
}

static int replay_command(int argc, char **argv, bool merge)
{
    const char *cmd = merge ? "merge" : "report";
    replay_args r = {.format = -1};
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t npaths = 0;
    if (paths == NULL)
        return cli_fail("%s: out of memory", cmd);
    int rc = CLI_RUN;
    for (int i = 1; i < argc && rc == CLI_RUN; i++) {
        const char *arg = argv[i];
        bool value = i + 1 < argc;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            replay_help(merge);
            rc = EXIT_OK;
        } else if (merge &&
                   (strcmp(arg, "-o") == 0 || strcmp(arg, "--output") == 0)) {
            rc = value ? CLI_RUN : replay_usage(merge);
            r.out = value ? argv[++i] : NULL;
        } else if (strcmp(arg, "--graph") == 0 || strcmp(arg, "--dot") == 0) {
            rc = value ? CLI_RUN : replay_usage(merge);
            r.graph = value ? argv[++i] : NULL;
            r.graph_opt = arg;
        } else if (strcmp(arg, "--emit-c-all") == 0) {
            r.emit_c_all = true;
        } else if (replay_file(arg, &r) != NULL) {
            rc = value ? CLI_RUN : replay_usage(merge);
            *replay_file(arg, &r) = value ? argv[++i] : NULL;
        } else if (strcmp(arg, "--format") == 0 && value) {
            const char *w = argv[++i];
            for (size_t k = 0; cli_formats[k].word != NULL; k++)
                if (strcmp(w, cli_formats[k].word) == 0)
                    r.format = cli_formats[k].value;
            if (r.format < 0)
                rc = cli_fail("%s: --format takes text, json or jsonl, not "
                              "'%s'",
                              cmd, w);
        } else if (arg[0] == '-') {
            rc = cli_fail("%s: unknown option '%s'", cmd, arg);
        } else {
            paths[npaths++] = arg;
        }
    }
    if (rc == CLI_RUN && (npaths == 0 || (merge && r.out == NULL)))
        rc = replay_usage(merge);
    if (rc != CLI_RUN) {
        free(paths);
        return rc;
    }
    bcw_recorded *recorded = NULL;
    bcw_model *model = NULL;
    int err = bcw_recorded_open(&recorded, paths, npaths);
    free(paths);
    unsigned refused = 0;
    if (err == 0)
        err = bcw_recorded_model(recorded, &model);
    if (err < 0) {
        rc = cli_fail("%s: %s", cmd, bcw_error_last());
        goto out;
    }
    /* the command they recorded, parsed as explore parses it */
    unsigned rargc;
    const char *const *rargv = bcw_recorded_argv(recorded, &rargc);
    bcw_explore_opts opts;
    const char *unit;
    if (cli_explore_args(&opts, &unit, rargc, rargv) != CLI_RUN) {
        rc = cli_fail("%s: the results file's command is not a walk this "
                      "bcwalk replays",
                      cmd);
        goto out;
    }
    refused = refuse_exports(cmd, &r, &opts, recorded, npaths);
    /* the results file alone: the shards' bytes copied, nothing walked */
    if (merge && refused == 0 && r.format < 0 && !r.graph && !r.lcov &&
        !r.html && !r.junit && !r.sarif && !r.svg && !r.emit_c &&
        bcw_recorded_merges(recorded)) {
        err = bcw_recorded_merge(recorded, r.out);
        rc = err < 0 ? cli_fail("%s: %s", cmd, bcw_error_last()) : EXIT_OK;
        goto out;
    }
    opts.unit = bcw_model_find_unit(model, unit);
    opts.unit_name = unit;
    opts.argv = rargv;
    opts.argc = rargc;
    opts.recorded = recorded;
    opts.results_path = merge ? r.out : NULL;
    opts.graph_path = r.graph;
    opts.coverage_path = r.lcov;
    opts.html_path = r.html;
    opts.junit_path = r.junit;
    opts.sarif_path = r.sarif;
    opts.svg_path = r.svg;
    opts.emit_c_path = r.emit_c;
    opts.emit_c_all = r.emit_c_all;
    /* one shard's file is its part; shards given together, the walk */
    if (!merge && npaths == 1)
        bcw_recorded_shard(recorded, &opts.shard_i, &opts.shard_n);
    int format = r.format >= 0 ? r.format : merge ? -1 : BCW_REPORT_TEXT;
    opts.format =
        format >= 0 ? (enum bcw_report_format)format : BCW_REPORT_JSON;
    opts.report = format >= 0 ? stdout : NULL;
    bcw_summary sum;
    err = opts.unit < 0 ? opts.unit : bcw_explore_run(&sum, model, &opts);
    /* an export refused fails the command, the others written */
    rc = err == BCW_ERROR && cli_stdout_gone() ? EXIT_PIPE
         : err < 0     ? cli_fail("%s: %s", cmd, bcw_error_last())
         : refused > 0 ? EXIT_USAGE
                       : EXIT_OK;
out:
    bcw_model_free(model);
    bcw_recorded_free(recorded);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    return replay_command(argc, argv, true);
}

int cmd_report(int argc, char **argv)
{
    return replay_command(argc, argv, false);
}
