/* cmd_explore.c - bcwalk explore: a bounded exhaustive walk of a unit. */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bcwalk/error.h"
#include "bcwalk/explore.h"
#include "bcwalk/solver.h"
#include "cli.h"
#include "opt.h"

/* What the command line sets: the library's options and the unit's name
 * (the library takes its index). */
typedef struct explore_args {
    bcw_explore_opts o;
    const char *unit;
    const char *link;     /* --link A.bc,B.bc */
    const char *sanitize; /* "address,undefined": into o.sanitize */
    int progress;         /* --progress: lines on stderr even off a tty */
    const char *shard;    /* --shard I/N: into o.shard_i, o.shard_n */
    int interactive;      /* test --interactive */
    int force;            /* --force: no limit on the text report */
} explore_args;

static const explore_args defaults = {.o = BCW_EXPLORE_OPTS_INIT};

const cli_word cli_walks[] = {
    {.word = "protocol",
     .value = BCW_WALK_PROTOCOL,
     .help = "every method sequence after each constructor"},
    {.word = "algebra",
     .value = BCW_WALK_ALGEBRA,
     .help = "the same, but a sequence's prefix holds only constructors "
             "and mutators"},
    {.word = "state",
     .value = BCW_WALK_STATE,
     .help = "the protocol walk from every design state"},
    {.word = "learned",
     .value = BCW_WALK_LEARNED,
     .help = "the protocol walk's sequences that are paths of a model "
             "learned from the library's tests (--from-tests)"},
    {.word = NULL}};

const cli_word cli_formats[] = {
    {.word = "text",
     .value = BCW_REPORT_TEXT,
     .help = "a report of every sequence, then the summary"},
    {.word = "json", .value = BCW_REPORT_JSON, .help = "a JSON summary"},
    {.word = "jsonl",
     .value = BCW_REPORT_JSONL,
     .help = "one JSON object per sequence, then the summary"},
    {.word = NULL}};

static const cli_word calls[] = {
    {.word = "stub", .value = 0, .help = "generated typed call stubs"},
    {.word = "ffi", .value = 1, .help = "every call through libffi"},
    {.word = NULL}};

static const cli_word combines[] = {
    {.word = "all", .value = BCW_COMBINE_ALL, .help = "every combination"},
    {.word = "pairs",
     .value = BCW_COMBINE_PAIRS,
     .help = "every pair of categories of any two parameters: fewer steps"},
    {.word = NULL}};

static const cli_word prunes[] = {
    {.word = "auto",
     .value = BCW_PRUNE_AUTO,
     .help = "state from depth 6 on; none below it or with --generator"},
    {.word = "state",
     .value = BCW_PRUNE_STATE,
     .help = "a sequence that reaches a concrete state (memory reachable "
             "from the object, and the next generated values) an earlier "
             "one reached is run but not extended"},
    {.word = "none", .value = BCW_PRUNE_NONE, .help = "extend every sequence"},
    {.word = NULL}};

/* The walk's options: explore's, and test's before its own. */
#define WALK_OPTIONS                                                           \
    {.name = "unit",                                                           \
     .arg = "NAME",                                                            \
     CLI_TEXT(explore_args, unit),                                             \
     .flags = CLI_REQUIRED,                                                    \
     .help = "the unit to walk, by its name or its C type (bcwalk analyze "    \
             "lists the units)"},                                              \
        {.name = "walk",                                                       \
         .arg = "KIND",                                                        \
         CLI_WORD(explore_args, o.walk, cli_walks),                            \
         .help = "which walk"},                                                \
        {.name = "depth",                                                      \
         .arg = "K",                                                           \
         CLI_INT(explore_args, o.depth, 1, 255),                               \
         .help = "the longest method sequence"},                               \
        {.name = "format",                                                     \
         .arg = "FORMAT",                                                      \
         CLI_WORD(explore_args, o.format, cli_formats),                        \
         .help = "what is printed"},                                           \
        {.name = "jobs",                                                       \
         .arg = "N",                                                           \
         CLI_INT(explore_args, o.jobs, 1, 1024),                               \
         .help = "worker processes (default: one per core)"},                  \
        {.name = "timeout",                                                    \
         .arg = "MS",                                                          \
         CLI_INT(explore_args, o.timeout_ms, 1, 3600000),                      \
         .help = "a call that runs longer, in milliseconds, is a hang"},       \
        {.name = "worker-memory",                                              \
         .arg = "MB",                                                          \
         CLI_INT(explore_args, o.memory_mb, 1, 1048576),                       \
         .help = "a sequence holding more allocated memory, in MiB, is a "     \
                 "runaway allocation (default 1024)"},                         \
        {.name = "worker-cpu",                                                 \
         .arg = "S",                                                           \
         CLI_INT(explore_args, o.cpu_s, 1, 1000000),                           \
         .help = "CPU seconds a worker, or a process it starts, may use: a "   \
                 "call that passes them is a hang (default: 60, or twice a "   \
                 "sequence's time limit if more)"},                            \
        {.name = "sanitize",                                                   \
         .arg = "LIST",                                                        \
         CLI_TEXT(explore_args, sanitize),                                     \
         .setting = "checks compiled into the workers",                        \
         .help =                                                               \
             "address (AddressSanitizer: over-reads, use after free), "        \
             "undefined (signed overflow, shifts, division, misalignment, "    \
             "NULL to memcpy and kin) or both, comma-separated: each "         \
             "report is the outcome of the call that made it"},                \
        {.name = "shard",                                                      \
         .arg = "I/N",                                                         \
         CLI_TEXT(explore_args, shard),                                        \
         .help = "run part I of N of the walk (I from 0 to N-1), a fixed "     \
                 "part; bcwalk merge makes the N parts' results files "        \
                 "(-o) the whole walk's (docs/shards.md)"},                    \
        {.name = "shard-sync",                                                 \
         .arg = "DIR",                                                         \
         CLI_DIR_OUT(explore_args, o.shard_sync),                              \
         .help = "shards pruning by state exchange the states each length "    \
                 "reached through folder DIR, which they all reach, and "      \
                 "together run what one walk runs; they must all run at "      \
                 "once (docs/shards.md)"},                                     \
        {.name = "output",                                                     \
         .alias = 'o',                                                         \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.results_path),                           \
         .help = "save the results as msgpack (written atomically)"},          \
        {.name = "calls",                                                      \
         .arg = "HOW",                                                         \
         CLI_WORD(explore_args, o.use_ffi, calls),                             \
         .help = "how the unit's functions are called"},                       \
        {.name = "boundaries",                                                 \
         CLI_FLAG(explore_args, o.boundaries),                                 \
         .help = "walk each category's minimum and maximum too, not only its " \
                 "representative"},                                            \
        {.name = "combine",                                                    \
         .arg = "HOW",                                                         \
         CLI_WORD(explore_args, o.combine, combines),                          \
         .help = "how one call's parameter categories combine"},               \
        {.name = "max-combos",                                                 \
         .arg = "N",                                                           \
         CLI_INT(explore_args, o.max_combos, 1, 256),                          \
         .help =                                                               \
             "most combinations walked per function; the report warns when "   \
             "it cuts"},                                                       \
        {.name = "probe-depth",                                                \
         .arg = "N",                                                           \
         CLI_INT(explore_args, o.probe_depth, 1, 64),                          \
         .dflt = "12",                                                         \
         .help = "state walk: the longest constructor + mutators sequence "    \
                 "probed for design states"},                                  \
        {.name = "predicates",                                                 \
         .arg = "LIST",                                                        \
         CLI_TEXT(explore_args, o.predicates),                                 \
         .setting = "design-state predicates",                                 \
         .dflt = "the interface's, plus the bitcode ones it lacks",            \
         .help = "state walk: the predicates (comma-separated) that make the " \
                 "states; NAME:LABEL renames one"},                            \
        {.name = "graph",                                                      \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.graph_path),                             \
         .help = "state walk: write the state graph as DOT"},                  \
        {.name = "dot",                                                        \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.graph_path),                             \
         .help = "the same as --graph (report's name for it)"},                \
        {.name = "from-tests",                                                 \
         .arg = "MODEL",                                                       \
         CLI_FILE_IN(explore_args, o.from_tests),                              \
         .help = "a model learned from the library's own tests (bcwalk "       \
                 "learn -o MODEL): their values become categories, the "       \
                 "states their calls reach covers of the state walk, and "     \
                 "the report says what tests and walk each miss"},             \
        {.name = "tests-growth",                                               \
         .arg = "N",                                                           \
         CLI_INT(explore_args, o.tests_growth, 1, 1000000),                    \
         .dflt = "2",                                                          \
         .help = "--from-tests: the walk with the tests' categories has at "   \
                 "most N times the sequences of the walk without them; the "   \
                 "least used beyond are not walked (the report names them)"},  \
        {.name = "html",                                                       \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.html_path),                              \
         .help = "write the walk as one self-contained HTML page "             \
                 "(docs/reports.md)"},                                         \
        {.name = "junit",                                                      \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.junit_path),                             \
         .help = "write JUnit XML: a test case per length, or per state"},     \
        {.name = "sarif",                                                      \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.sarif_path),                             \
         .help = "write SARIF 2.1.0: a result per distinct halt, at its "      \
                 "source line"},                                               \
        {.name = "svg",                                                        \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.svg_path),                               \
         .help = "state walk: write the state graph as SVG (Graphviz)"},       \
        {.name = "emit-c",                                                     \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.emit_c_path),                            \
         .help = "write cmocka tests replaying a chosen set of the "           \
                 "sequences: every distinct halt, each state's transitions, "  \
                 "a sample of each length (test: one per oracle entry it "     \
                 "confirmed)"},                                                \
        {.name = "emit-c-all",                                                 \
         CLI_FLAG(explore_args, o.emit_c_all),                                 \
         .help = "--emit-c: a test of every sequence, not a chosen set"},      \
        {.name = "reproduce",                                                  \
         .arg = "DIR",                                                         \
         CLI_DIR_OUT(explore_args, o.reproduce_dir),                           \
         .help = "write each distinct halt as a standalone C program in DIR, " \
                 "build it with the bitcode (AddressSanitizer, no bcwalk "     \
                 "runtime) and say which halts it reproduces"},                \
        {.name = "coverage",                                                   \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.coverage_path),                          \
         .help = "measure line, branch and function coverage of the unit's "   \
                 "code; write it as an lcov tracefile"},                       \
        {.name = "permute",                                                    \
         .arg = "SEED",                                                        \
         CLI_TEXT(explore_args, o.permute),                                    \
         .setting = "buffer permutation seed",                                 \
         .help =                                                               \
             "buffer contents: every distinct permutation of SEED's bytes, "   \
             "or with '|' (\"ab|cd\") of each group on its own "               \
             "(stratified); the paired length follows the content"},           \
        {.name = "generator",                                                  \
         .arg = "FILE",                                                        \
         CLI_FILE_IN(explore_args, o.generator),                               \
         .setting = "custom generator",                                        \
         .help =                                                               \
             "custom generator (bcwalk/generator.h) for the parameters it "    \
             "takes: C (.c) or bitcode (.bc), compiled and cached, or a "      \
             "shared object (.so)"},                                           \
        {.name = "link",                                                       \
         .arg = "FILES",                                                       \
         CLI_TEXT(explore_args, link),                                         \
         .help = "bitcode files (comma-separated) that define what LIB.bc "    \
                 "calls but does not define, linked into it: the units are "   \
                 "still LIB.bc's own (one file of a library, the others "      \
                 "its callees)"},                                              \
        {.name = "setup",                                                      \
         .arg = "FN",                                                          \
         CLI_TEXT(explore_args, o.setup),                                      \
         .setting = "setup function",                                          \
         .help = "a function of the library taking no parameters (its "        \
                 "initialisation) that each worker calls once before any "     \
                 "sequence; its globals and memory are where every sequence "  \
                 "starts"},                                                    \
        {.name = "prune",                                                      \
         .arg = "HOW",                                                         \
         CLI_WORD(explore_args, o.prune, prunes),                              \
         .help = "pruning by concrete state"},                                 \
        {.name = "memory",                                                     \
         .arg = "MB",                                                          \
         CLI_INT(explore_args, o.walk_memory_mb, 1, 16777216),                 \
         .dflt = "half the machine's",                                         \
         .help = "the walk's own memory budget, in MiB: a length whose "       \
                 "sequences would pass it is not run, and the report says "    \
                 "where the walk stopped"},                                    \
        {.name = "checkpoint",                                                 \
         .arg = "FILE",                                                        \
         CLI_FILE_OUT(explore_args, o.checkpoint),                             \
         .setting = "checkpoint",                                              \
         .help = "keep every result the walk's workers give in FILE, synced "  \
                 "every few seconds, so that a walk killed at any moment "     \
                 "goes on with --resume (docs/checkpoint.md)"},                \
        {.name = "checkpoint-every",                                           \
         .arg = "S",                                                           \
         CLI_INT(explore_args, o.checkpoint_every_s, 1, 86400),                \
         .dflt = "10",                                                         \
         .help = "sync the checkpoint at least every S seconds: a kill loses " \
                 "at most that much work"},                                    \
        {.name = "resume",                                                     \
         CLI_FLAG(explore_args, o.resume),                                     \
         .help = "replay the --checkpoint file's results, then run the rest "  \
                 "of the walk: the reports are an uninterrupted run's"},       \
        {.name = "time-limit",                                                 \
         .arg = "S",                                                           \
         CLI_INT(explore_args, o.time_limit_s, 1, 31536000),                   \
         .help = "stop running sequences after S seconds: the report is of "   \
                 "the lengths finished and says partial, exit status 3; with " \
                 "--checkpoint, --resume goes on"},                            \
        {.name = "max-results",                                                \
         .arg = "MB",                                                          \
         CLI_INT(explore_args, o.max_results_mb, 1, 16777216),                 \
         .help = "stop the walk when its results file (-o) passes MB MiB: "    \
                 "the report says partial, exit status 3"},                    \
        {.name = "max-report",                                                 \
         .arg = "MB",                                                          \
         CLI_INT(explore_args, o.max_report_mb, 1, 16777216),                  \
         .help = "stop the walk when its text report passes MB MiB "           \
                 "(default 1024): the summary follows, partial, exit status "  \
                 "3"},                                                         \
        {.name = "force",                                                      \
         CLI_FLAG(explore_args, force),                                        \
         .help = "no limit on the text report (--max-report)"},                \
        {.name = "progress",                                                   \
         CLI_FLAG(explore_args, progress),                                     \
         .help = "report progress on stderr even when it is not a terminal: "  \
                 "a line every few seconds and one at the end, for logs (a "   \
                 "terminal gets a live line without it)"},

static const cli_opt options[] = {WALK_OPTIONS{.kind = CLI_END}};

static const cli_opt test_options[] = {
    WALK_OPTIONS{.name = "oracle",
                 .arg = "FILE",
                 CLI_FILE_OUT(explore_args, o.oracle_path),
                 .setting = "oracle",
                 .help = "the oracle the walk is judged against "
                         "(docs/oracle.md), made if it is not there; what "
                         "it does not have is added to it, pending"},
    {.name = "reference",
     .arg = "OTHER.bc",
     CLI_FILE_IN(explore_args, o.reference),
     .setting = "reference build",
     .help = "judge against another implementation of the unit instead of "
             "an oracle: the walk runs, with OTHER.bc's plan, on OTHER.bc "
             "then on LIB.bc, and what LIB.bc does otherwise fails"},
    {.name = "accept",
     CLI_FLAG(explore_args, o.accept),
     .help = "record every pending observation as passing: a baseline"},
    {.name = "replan",
     CLI_FLAG(explore_args, o.replan),
     .help = "plan the walk from this build's analysis, and keep it in the "
             "oracle for later runs (by default an oracle's walks follow "
             "the plan of the build it was made from)"},
    {.name = "interactive",
     CLI_FLAG(explore_args, interactive),
     .help = "ask about each pending sequence as it is printed, reading "
             "answers from standard input: Enter or y records it as "
             "passing, n as a known failure, q asks no more, anything else "
             "leaves it pending"},
    {.kind = CLI_END}};

static const cli_spec test_spec;

static const cli_spec spec = {
    .cmd = "explore",
    .operand = "LIB.bc",
    .operand_is = "bitcode file",
    .about =
        "Runs every call sequence of the unit up to length K (JWalk's\n"
        "protocol walk TP_k, the algebra walk TA_k whose prefixes hold\n"
        "only constructors and mutators, the state walk TS_k: TP_k from\n"
        "each design state's cover, or the learned walk: TP_k's sequences\n"
        "that are paths of a model learned from the library's tests) in\n"
        "crash-isolated workers, and reports each sequence's result and\n"
        "the summary counts.\n",
    .after =
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
        "# pruned: seconds\n"
        "  bcwalk explore range.bc --unit range --depth 2 "
        "--setup range_lib_init\n",
    .opts = options,
    .defaults = &defaults,
    .size = sizeof defaults};

static const cli_spec test_spec = {
    .cmd = "test",
    .operand = "LIB.bc",
    .operand_is = "bitcode file",
    .about =
        "Runs the walk explore runs and judges each sequence's last call\n"
        "against an oracle (docs/oracle.md): what the oracle has passes or\n"
        "fails as it was judged; what it does not have, or has otherwise,\n"
        "is pending and printed for a person to judge, and added to the\n"
        "oracle. A failed contract or assertion fails whatever the oracle\n"
        "says. Exit 1 when anything failed or is pending.\n",
    .after = "examples:\n"
             "  bcwalk test stack.bc --unit bstack --depth 4 --oracle "
             "stack.oracle.msgpack --accept   # a baseline\n"
             "  bcwalk test stack.bc --unit bstack --depth 4 --oracle "
             "stack.oracle.msgpack\n",
    .opts = test_options,
    .defaults = &defaults,
    .size = sizeof defaults};

/* Option interactions; the parser checked each value on its own.
 * Returns CLI_RUN or EXIT_USAGE after saying what is wrong. */
static int verify(const cli_spec *s, const explore_args *a,
                  const cli_args *given)
{
    static const char *const state_only[] = {"predicates", "probe-depth",
                                             "graph", "dot", "svg"};
    bool test = s == &test_spec;
    if (test &&
        cli_given(given, s, "oracle") == cli_given(given, s, "reference"))
        return cli_fail("test: it judges against an oracle (--oracle FILE) "
                        "or a reference build (--reference OTHER.bc): "
                        "give one");
    if (test && cli_given(given, s, "accept") && !cli_given(given, s, "oracle"))
        return cli_fail("test: --accept records into an oracle: give "
                        "--oracle FILE");
    if (test && a->interactive &&
        (a->o.accept || !cli_given(given, s, "oracle") ||
         a->o.format != BCW_REPORT_TEXT))
        return cli_fail("test: --interactive asks about an oracle's pending "
                        "sequences as the text report prints them: give "
                        "--oracle FILE, without --accept or --format");
    if (a->shard != NULL && test)
        return cli_fail("test: --shard splits an explore walk; a judged walk "
                        "runs whole");
    if (cli_given(given, s, "shard-sync") && a->shard == NULL)
        return cli_fail("%s: --shard-sync is for a walk run in shards: give "
                        "--shard I/N",
                        s->cmd);
    if (a->shard != NULL && !cli_given(given, s, "output"))
        return cli_fail("%s: --shard keeps its part in a results file for "
                        "bcwalk merge: give -o FILE",
                        s->cmd);
    if (cli_given(given, s, "tests-growth") && a->o.from_tests == NULL)
        return cli_fail("%s: --tests-growth bounds what the tests' "
                        "categories add: give --from-tests MODEL",
                        s->cmd);
    if (a->o.resume && a->o.checkpoint == NULL)
        return cli_fail("%s: --resume goes on from a checkpoint: give "
                        "--checkpoint FILE",
                        s->cmd);
    if (a->interactive && (a->o.checkpoint != NULL || a->o.time_limit_s))
        return cli_fail("test: --interactive asks a person as the walk goes: "
                        "not with --checkpoint or --time-limit");
    for (size_t i = 0; i < sizeof state_only / sizeof *state_only; i++)
        if (a->o.walk != BCW_WALK_STATE && cli_given(given, s, state_only[i]))
            return cli_fail("%s: --%s applies to the state walk only "
                            "(--walk state)",
                            s->cmd, state_only[i]);
    return CLI_RUN;
}

/* --sanitize's list into o.sanitize; CLI_RUN or EXIT_USAGE after
 * saying what is wrong. */
static int sanitize_list(const cli_spec *s, explore_args *a)
{
    static const struct {
        const char *word;
        unsigned bit;
    } checks[] = {{"address", BCW_SANITIZE_ADDRESS},
                  {"undefined", BCW_SANITIZE_UNDEFINED}};
    for (const char *p = a->sanitize; p != NULL && *p != '\0';) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof checks / sizeof *checks &&
               !(strlen(checks[k].word) == n &&
                 strncmp(p, checks[k].word, n) == 0))
            k++;
        if (k == sizeof checks / sizeof *checks)
            return cli_fail("%s: --sanitize takes address, undefined "
                            "or both (address,undefined), not '%.*s'",
                            s->cmd, (int)n, p);
        a->o.sanitize |= checks[k].bit;
        p += n + (p[n] == ',');
    }
    return CLI_RUN;
}

/* --shard I/N into o.shard_i and o.shard_n; CLI_RUN or EXIT_USAGE after
 * saying what is wrong. */
static int shard_of(const cli_spec *s, explore_args *a)
{
    if (a->shard == NULL)
        return CLI_RUN;
    unsigned i, n;
    int used = 0;
    if (sscanf(a->shard, "%u/%u%n", &i, &n, &used) != 2 ||
        a->shard[used] != '\0' || n == 0 || n > 65535 || i >= n)
        return cli_fail("%s: --shard takes I/N, part I of N counted from 0 "
                        "(0/4 to 3/4), not '%s'",
                        s->cmd, a->shard);
    a->o.shard_i = i;
    a->o.shard_n = n;
    return CLI_RUN;
}

/* The options that do not change a walk's results: left out of the
 * command a results file records (replay.h). */
static bool unrecorded(const char *name)
{
    static const char *const names[] = {"shard",
                                        "shard-sync",
                                        "output",
                                        "jobs",
                                        "format",
                                        "checkpoint",
                                        "checkpoint-every",
                                        "resume",
                                        "time-limit",
                                        "graph",
                                        "dot",
                                        "progress",
                                        "max-results",
                                        "max-report",
                                        "force",
                                        "coverage",
                                        "html",
                                        "junit",
                                        "sarif",
                                        "svg",
                                        "emit-c",
                                        "emit-c-all"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

/* argv less the options unrecorded() names, into *out (argv's strings,
 * the array the caller's); its length, or -1 out of memory. */
static int recorded_argv(const cli_spec *s, int argc, char **argv,
                         const char ***out)
{
    const char **v = calloc((size_t)argc + 1, sizeof *v);
    *out = v;
    if (v == NULL)
        return -1;
    int n = 0;
    bool operands = false;
    for (int i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const cli_opt *o = NULL;
        bool joined = false; /* its value in the same word */
        if (i > 0 && !operands && arg[0] == '-' && arg[1] != '\0') {
            operands = strcmp(arg, "--") == 0;
            size_t len = strcspn(arg + 2, "=");
            for (size_t k = 0; !operands && s->opts[k].kind != CLI_END; k++) {
                const cli_opt *c = &s->opts[k];
                if (arg[1] == '-' ? strlen(c->name) == len &&
                                        strncmp(arg + 2, c->name, len) == 0
                                  : c->alias == arg[1]) {
                    o = c;
                    joined = arg[1] == '-' ? arg[2 + len] == '=' : arg[2] != 0;
                }
            }
        }
        if (o == NULL || !unrecorded(o->name)) {
            v[n++] = arg;
            continue;
        }
        if (o->kind != CLI_FLAG && !joined)
            i++; /* its value too */
    }
    return n;
}

/* How progress is shown: in place on a terminal, ~15 times a second, or
 * a line every few seconds (--progress, for logs). */
typedef struct progress_out {
    bool tty;
    double last;
    bcw_progress seen; /* the last report, for the closing line */
} progress_out;

/* "length 5/9: 4200 of 16807, 98230 sequences, 31 states, 41000/s,
 * 0.3s left at this length, 2.4s". */
static void progress_line(const bcw_progress *p, const char *end)
{
    double rate = p->elapsed_s > 0 ? (double)p->done / p->elapsed_s : 0;
    double left = rate > 0 ? (double)(p->level_size - p->level_done) / rate : 0;
    fprintf(stderr,
            "%slength %u/%u: %llu of %llu, %llu sequences, %llu states, "
            "%.0f/s, %.1fs left at this length, %.1fs%s",
            end[0] == '\n' ? "progress: " : "\r", p->length, p->depth,
            (unsigned long long)p->level_done,
            (unsigned long long)p->level_size, (unsigned long long)p->done,
            (unsigned long long)p->states, rate, left, p->elapsed_s, end);
}

static void progress(const bcw_progress *p, void *payload)
{
    progress_out *o = payload;
    o->seen = *p;
    if (p->elapsed_s - o->last < (o->tty ? 1.0 / 15 : 5.0))
        return;
    o->last = p->elapsed_s;
    progress_line(p, o->tty ? "" : "\n");
}

/* test --interactive: a person's answer, on standard input, about the
 * sequence the report just printed. */
static enum bcw_answer ask_person(void *payload)
{
    (void)payload;
    switch (cli_ask("accept? [Y]es, [n]o: a known failure, [q]uit asking, "
                    "anything else: later: ")) {
    case '\n':
    case 'y':
        return BCW_ANSWER_PASS;
    case 'n':
        return BCW_ANSWER_FAIL;
    case 'q':
    case -1:
        return BCW_ANSWER_STOP;
    default:
        return BCW_ANSWER_LATER;
    }
}

/* explore, or test (cmd): the walk, its report, and for test its
 * judgement in the exit status. */
static int walk_command(const cli_spec *cmd, int argc, char **argv)
{
    explore_args a;
    cli_args given;
    int rc;
    if ((rc = cli_parse(&given, cmd, &a, argc, argv)) != CLI_RUN ||
        (rc = verify(cmd, &a, &given)) != CLI_RUN ||
        (rc = sanitize_list(cmd, &a)) != CLI_RUN ||
        (rc = shard_of(cmd, &a)) != CLI_RUN)
        return rc;
    const char **recorded = NULL;
    int nrecorded = recorded_argv(cmd, argc, argv, &recorded);
    if (nrecorded < 0)
        return cli_fail("%s: out of memory", cmd->cmd);
    bcw_explore_opts opts = a.o;
    if (a.force)
        opts.max_report_mb = 0;
    opts.argv = recorded;
    opts.argc = (unsigned)nrecorded;
    bcw_model *model = NULL;
    char *built = NULL, *reference = NULL;
    /* unchanged bitcode is analysed once: the model is cached; with a
     * reference, the plan is the reference's; --link applies to both */
    int err = bcw_bitcode_link(&built, given.operand, a.link, NULL);
    if (err == 0 && opts.reference != NULL)
        err = bcw_model_open_linked(&model, &reference, opts.reference, a.link,
                                    NULL);
    else if (err == 0)
        err = bcw_model_open_linked(&model, &reference, given.operand, a.link,
                                    NULL);
    if (err == 0)
        err = opts.unit = bcw_model_find_unit(model, a.unit);
    opts.unit_name = a.unit;
    if (err < 0) {
        bcw_model_free(model);
        free(built);
        free(reference);
        free(recorded);
        return cli_fail_library(cmd, &given, err);
    }
    opts.bitcode = built;
    if (opts.reference != NULL)
        opts.reference = reference;
    progress_out prog = {.tty = isatty(2) != 0};
    if (prog.tty || a.progress) {
        opts.progress = progress;
        opts.payload = &prog;
    }
    opts.report = stdout;
    if (a.interactive)
        opts.ask = ask_person;
    bcw_summary sum;
    err = bcw_explore_run(&sum, model, &opts);
    if (prog.tty && prog.last > 0)
        fputs("\r\033[K", stderr);
    else if (!prog.tty && a.progress && prog.seen.depth > 0)
        progress_line(&prog.seen, "\n");
    bcw_model_free(model);
    free(built);
    free(reference);
    free(recorded);
    if (err < 0)
        return cli_fail_library(cmd, &given, err);
    if (sum.partial && sum.report_full && sum.report_projected > 0) {
        fprintf(stderr,
                "bcwalk: %s: the walk stopped after its sequences of length "
                "%u: its text report would pass %u MiB, about %.1f MiB by "
                "depth %u (--max-report; --force lifts it); write it with -o "
                "FILE and --format jsonl, or walk less deep\n",
                cmd->cmd, sum.projected_after, opts.max_report_mb,
                sum.report_projected / (1 << 20), opts.depth);
        return EXIT_UNFINISHED;
    }
    if (sum.partial && sum.report_full) {
        fprintf(stderr,
                "bcwalk: %s: the walk stopped when its text report passed "
                "%u MiB (--max-report; --force lifts it); write it with -o "
                "FILE and --format jsonl, or walk less deep\n",
                cmd->cmd, opts.max_report_mb);
        return EXIT_UNFINISHED;
    }
    if (sum.partial && sum.results_full) {
        fprintf(stderr,
                "bcwalk: %s: the walk stopped when its results file passed "
                "%u MiB (--max-results); its report is partial\n",
                cmd->cmd, a.o.max_results_mb);
        return EXIT_UNFINISHED;
    }
    if (sum.partial) {
        fprintf(stderr,
                "bcwalk: %s: the walk stopped at its time limit (%u s); its "
                "report is partial%s\n",
                cmd->cmd, a.o.time_limit_s,
                a.o.checkpoint ? ": --resume goes on" : "");
        return EXIT_UNFINISHED;
    }
    /* with a reference nothing is pending: a failure counts, and a
     * sequence the reference did not make (unmatched); and always what
     * the oracle has that this walk should have reached */
    const struct bcw_judged *j = &sum.judged;
    uint64_t findings = j->failed + j->missing - j->dropped + j->fresh +
                        (j->reference ? 0 : j->changed + j->unjudged);
    return j->on && findings > 0 ? EXIT_FINDINGS : EXIT_OK;
}

int cmd_explore(int argc, char **argv)
{
    return walk_command(&spec, argc, argv);
}

int cmd_test(int argc, char **argv)
{
    return walk_command(&test_spec, argc, argv);
}

int cli_explore_args(bcw_explore_opts *o, const char **unit, unsigned argc,
                     const char *const *argv)
{
    explore_args a;
    cli_args given;
    if (argc == 0 || strcmp(argv[0], "explore") != 0 ||
        cli_parse(&given, &spec, &a, (int)argc, (char **)argv) != CLI_RUN ||
        sanitize_list(&spec, &a) != CLI_RUN)
        return EXIT_USAGE;
    *o = a.o;
    *unit = a.unit;
    return CLI_RUN;
}
