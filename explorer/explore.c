/* explore.c - bcw_explore_run: a walk as the steps of its stages over one
 * walk context: the options checked and shared out to the stages, the
 * model the walk is planned from, the plan, the outputs opened, the
 * reference's walk (judge), the walk on the build under test (build and
 * engine), the judgement closed, and the report with its files. */
#define _GNU_SOURCE /* fopencookie: the text report's bytes counted */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "build.h"
#include "engine.h"
#include "file.h"
#include "judge.h"
#include "learn.h"
#include "plan.h"
#include "report.h"
#include "walk_id.h"

#define MAX_DEPTH 255
/* enough for a capacity-10 stack to reach Full */
#define DEFAULT_PROBE_DEPTH 12

/* Where each sequence the walk runs goes, in its order: judged (judge),
 * reported, exported, put to a person, recorded in the results file
 * (report). */
typedef struct sinks {
    bcw_reporter report;
    bcw_results *results;
    bcw_judge *judge; /* bcwalk test's */
    bcw_verdict_of verdict;
    struct bcw_judged *judged;
    bool training;        /* the reference's walk: observed, not reported */
    uint64_t max_results; /* bytes, 0: no limit (max_results_mb) */
    bool results_full;    /* the walk stopped there */
    /* the text report's stream, counting what it passes on to the
     * caller's (max_report_mb), or NULL */
    FILE *counted;
    FILE *report_to;
    /* the text report's sequences, held in a temporary file until its
     * summary and distinct halts are printed (unless a person is asked
     * about each as it comes: --interactive), or NULL */
    FILE *spill;
    uint64_t report_bytes, max_report;
    bool report_full; /* the walk stopped there */
    /* the text report's growth, length by length (protocol and algebra
     * walks): where the current length began, the last one's bytes, and
     * the size projected to `depth` once it passes max_report */
    bool project;
    unsigned depth, nmethods, cur_len, projected_after;
    uint64_t len_start, len_seqs, len_normal;
    double projected;
    enum bcw_answer (*ask)(void *payload); /* --interactive, until stopped */
    void *ask_payload;
    bcw_exports *exports; /* report --html, --junit ..., or NULL */
} sinks;

/* At the first sequence of length `len`: the text report's size at the
 * walk's depth projected from the length just done (from length 2 on,
 * the first whose share of normal sequences tells), where each normal
 * sequence is extended by every method (the walk prunes none): as many
 * sequences as that at the next length, normal in the same share, each
 * a call longer.  True, the walk to stop now, when it would pass
 * max_report. */
static bool project(sinks *s, unsigned len)
{
    if (s->counted != NULL)
        fflush(s->counted);
    uint64_t now = s->report_bytes, bytes = now - s->len_start;
    unsigned done = s->cur_len;
    bool stop = false;
    if (s->len_seqs > 0 && len == done + 1 && done >= 2) {
        double share = (double)s->len_normal / (double)s->len_seqs;
        double n = (double)s->len_normal * s->nmethods;
        double each = (double)bytes / (double)s->len_seqs, total = (double)now;
        for (unsigned k = len; k <= s->depth && total < 1e18; k++) {
            each = each * (k + 3) / (k + 2);
            total += n * each;
            n *= share * s->nmethods;
        }
        if (total > (double)s->max_report) {
            s->report_full = true;
            s->projected = total;
            s->projected_after = done;
            stop = true;
        }
    }
    s->len_start = now;
    s->len_seqs = s->len_normal = 0;
    s->cur_len = len;
    return stop;
}

/* A person's answer for the sequence just printed, if it waits for one. */
static int ask(sinks *s)
{
    if (s->ask == NULL || !bcw__judge_asks(s->judge))
        return 0;
    /* the sequence asked about in the caller's stream first (the
     * counted stream, count_report, buffers its own) */
    if (s->counted != NULL)
        fflush(s->counted);
    switch (s->ask(s->ask_payload)) {
    case BCW_ANSWER_PASS:
        return bcw__judge_answer(s->judge, BCW_VERDICT_PASS, s->judged);
    case BCW_ANSWER_FAIL:
        return bcw__judge_answer(s->judge, BCW_VERDICT_FAIL, s->judged);
    case BCW_ANSWER_STOP:
        s->ask = NULL;
        return 0;
    default:
        return 0;
    }
}

/* The walk's emit: sequence seq through the sinks `payload`.  0,
 * BCW_EMIT_EXTEND (the judge asks to extend a sequence pruned by this
 * build's state), BCW_STOPPED (the results file's limit), or an
 * error. */
static int emit(void *payload, const bcw_seq *seq)
{
    sinks *s = payload;
    /* a shard's layout, before the sequence's causes name symbols */
    int err = bcw__results_part(s->results, seq,
                                bcw__symbols_nused(s->report.symbols));
    if (err == 0 && s->judge != NULL)
        err = bcw__judge_seq(s->judge, &s->report, seq, s->judged, &s->verdict);
    bool extend = err == 0 && s->verdict.extend;
    if (s->training)
        return err < 0 ? err : extend ? BCW_EMIT_EXTEND : 0;
    if (err == 0 && s->project && seq->len - seq->nprefix != s->cur_len &&
        project(s, seq->len - seq->nprefix))
        return BCW_STOPPED;
    if (err == 0)
        err = bcw__report_seq(&s->report, seq);
    s->len_seqs++;
    s->len_normal += seq->outcome == BCW_RUN_NORMAL;
    if (err == 0 && s->max_report > 0 && s->report_bytes > s->max_report) {
        s->report_full = true;
        return BCW_STOPPED;
    }
    if (err == 0)
        err = bcw__exports_seq(s->exports, &s->report, seq);
    if (err == 0)
        err = ask(s);
    if (err == 0 && s->results != NULL) {
        char cause[512], leak[512];
        bcw__report_words(&s->report, seq, cause, sizeof cause, leak,
                          sizeof leak);
        err = bcw__results_seq(s->results, seq,
                               s->report.state ? s->report.state_index : -1,
                               cause, leak);
        if (err == 0 && s->max_results > 0 &&
            bcw__results_size(s->results) > s->max_results) {
            s->results_full = true;
            return BCW_STOPPED;
        }
    }
    return err == 0 && extend ? BCW_EMIT_EXTEND : err;
}

/* The counted stream's writes: passed on to the spill, or the caller's
 * stream. */
static ssize_t counted_write(void *payload, const char *buf, size_t n)
{
    sinks *s = payload;
    size_t put = fwrite(buf, 1, n, s->spill ? s->spill : s->report_to);
    s->report_bytes += put;
    return put == n ? (ssize_t)n : -1;
}

/* Where the text report's sequences go: a temporary file, printed after
 * the summary (route_report), unless a person is asked about them; then
 * through a stream counting their bytes, when they have a limit
 * (--max-report): the walk stops past it.  0, BCW_ENOMEM or BCW_ERROR. */
static int route_report(sinks *s, const bcw_explore_opts *o)
{
    if (o->report == NULL || o->format != BCW_REPORT_TEXT)
        return 0;
    s->report_to = o->report;
    if (o->ask == NULL) {
        char *path = bcw__sprintf("%s/bcwalk-report.XXXXXX", bcw__tmp_dir());
        int fd = path != NULL ? mkstemp(path) : -1;
        if (fd >= 0)
            unlink(path);
        if (fd < 0 || (s->spill = fdopen(fd, "w+")) == NULL) {
            int err = path == NULL
                          ? BCW_ENOMEM
                          : bcw__error(BCW_ERROR,
                                       "a temporary file for the report "
                                       "in %s: %s",
                                       bcw__tmp_dir(), strerror(errno));
            if (fd >= 0)
                close(fd);
            free(path);
            return err;
        }
        free(path);
        s->report.f = s->spill;
    }
    if (o->max_report_mb == 0)
        return 0;
    s->max_report = (uint64_t)o->max_report_mb << 20;
    s->depth = o->depth;
    cookie_io_functions_t io = {.write = counted_write};
    s->counted = fopencookie(s, "w", io);
    if (s->counted == NULL)
        return BCW_ENOMEM;
    s->report.f = s->counted;
    return 0;
}

/* The held sequences after what was printed, `gap` a blank line first.
 * 0 or BCW_ERROR. */
static int unspill(sinks *s, bool gap)
{
    if (s->spill == NULL)
        return 0;
    if (s->counted != NULL)
        fflush(s->counted);
    FILE *f = s->spill;
    s->spill = NULL;
    s->report.f = s->counted != NULL ? s->counted : s->report_to;
    bool ok = fflush(f) == 0 && fseek(f, 0, SEEK_SET) == 0;
    if (ok && gap)
        fputc('\n', s->report_to);
    char buf[1 << 16];
    size_t n;
    while (ok && (n = fread(buf, 1, sizeof buf, f)) > 0)
        ok = fwrite(buf, 1, n, s->report_to) == n;
    ok = !ferror(f) && ok;
    fclose(f);
    return ok ? 0 : bcw__error(BCW_ERROR, "writing the report failed");
}

/* The unit's code, for coverage: the functions the plan calls and
 * what they refer to (the map of a build serves every unit of its
 * model). */
static int cover_scope(bcw_cov_map *cov, const bcw_model *model,
                       const bcw_plan *plan)
{
    const char **roots = bcw__calloc(plan->nfuncs + 1, sizeof *roots);
    if (roots == NULL)
        return BCW_ENOMEM;
    uint32_t n = 0;
    /* a cell unit's "(empty)" constructor is no function */
    for (uint32_t i = 0; i < plan->nfuncs; i++)
        if (plan->funcs[i].sym < model->nsyms)
            roots[n++] = model->syms[plan->funcs[i].sym];
    bcw__cov_scope(cov, roots, n);
    free(roots);
    return 0;
}

/* The learned walk's extends: a path of the learned model. */
static bool on_model(void *payload, const uint16_t *seq, unsigned len,
                     uint16_t next)
{
    return bcw__lwalk_extends(payload, seq, len, next);
}

/* A walk of one unit as bcw_explore_run runs it: each stage's settings,
 * drawn from the options once, and what each step makes for the next.
 * Everything here is the walk's, freed by walk_end. */
typedef struct walk {
    const bcw_explore_opts *o; /* for the walk's identity alone (its key,
                                  its command line) */
    bcw_summary *out;
    /* the stages' settings */
    bcw_plan_opts plan_o;
    bcw_build_opts build_o;
    bcw_judge_opts judge_o;
    bcw_export_opts export_o;
    bcw_journal_cfg journal_o;
    bcw_walk_cfg cfg; /* the engine's: the walk to run */
    unsigned probe_depth;
    bool probe_prune;
    unsigned jobs, timeout_ms; /* the workers' */
    const char *bitcode, *from_tests, *generator, *predicates;
    const char *graph_path, *coverage_path, *results_path;
    bcw_recorded *recorded; /* a replay's results, or NULL */
    unsigned max_results_mb, time_limit_s;
    /* the model the walk is planned from, and its unit */
    const bcw_model *given; /* the caller's: the results file's in a replay */
    const bcw_model *model;
    const bcw_unit *u;
    bcw_model *kept;           /* the oracle's model, planning the walk */
    bcw_model *taught;         /* with the tests' values (--from-tests) */
    const bcw_model *untaught; /* the model before them, and its unit */
    const bcw_unit *untaught_u;
    /* the plan */
    bcw_usergen *gen;
    bcw_alphabet a;
    bcw_states states;
    bcw_step_seen *seen; /* by step: what the runtime saw it do */
    bcw_learned learned;
    bcw_tseqs tseqs;
    bcw_gaps gaps;
    bcw_lwalk lw;
    unsigned stopped; /* the length the walk stopped before (cfg.stopped) */
    /* the build */
    char *worker;            /* the last build's executable */
    bcw_cov_map cov;         /* coverage of the build under test */
    const bcw_cov_map *covp; /* the map the hits are of: the recorded one
                                in a replay */
    uint8_t *hits;           /* or NULL: no coverage */
    bcw_symbols *own_symbols;
    /* the run */
    bcw_journal *journal; /* the checkpoint, or NULL */
    walk_id id;
    bcw_buf record; /* the results kept for the results file */
    bool keep_record;
    bcw_summary shared_from;   /* a shard's counts as it was shared out */
    struct bcw_judged scratch; /* the reference walk's counts */
    bool probed;     /* the state walk's states are found: walk them */
    unsigned nnotes; /* the states' notes after probing */
    /* the judgement and the report */
    sinks sk;
} walk;

/* Two files of the walk that are one: an output named twice (one of
 * the two would be lost), or an output that is an input.  0 or
 * BCW_EINPUT naming both. */
static int distinct_files(const bcw_explore_opts *o)
{
    const struct {
        const char *opt, *path;
        bool out;
    } files[] = {{"the bitcode", o->bitcode, false},
                 {"--reference", o->reference, false},
                 {"--from-tests", o->from_tests, false},
                 {"--generator", o->generator, false},
                 {"-o", o->results_path, true},
                 {"--graph", o->graph_path, true},
                 {"--coverage", o->coverage_path, true},
                 {"--html", o->html_path, true},
                 {"--junit", o->junit_path, true},
                 {"--sarif", o->sarif_path, true},
                 {"--svg", o->svg_path, true},
                 {"--emit-c", o->emit_c_path, true},
                 {"--oracle", o->oracle_path, true},
                 {"--checkpoint", o->checkpoint, true}};
    const size_t n = sizeof files / sizeof *files;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            int same = files[i].path != NULL && files[j].path != NULL &&
                               (files[i].out || files[j].out)
                           ? bcw__same_file(files[i].path, files[j].path)
                           : 0;
            if (same < 0)
                return same;
            if (same)
                return bcw__error(BCW_EINPUT,
                                  "%s and %s name one file, %s: each output "
                                  "needs a file of its own, and no input "
                                  "is written over",
                                  files[i].opt, files[j].opt, files[j].path);
        }
    return 0;
}

/* Options that cannot make a walk, refused before anything runs. */
static int check_options(const bcw_model *model, const bcw_explore_opts *o)
{
    int err = distinct_files(o);
    if (err < 0)
        return err;
    if (o->unit < 0 || (unsigned)o->unit >= model->nunits)
        return bcw__error(BCW_EINPUT, "no unit number %d", o->unit);
    if (o->depth > MAX_DEPTH)
        return bcw__error(BCW_EINPUT, "depth %u is above the limit of %d",
                          o->depth, MAX_DEPTH);
    if (o->reference != NULL && o->oracle_path != NULL)
        return bcw__error(BCW_EINPUT, "an oracle file or a reference build, "
                                      "not both");
    /* each named, for the caller to tell which setting to blame */
    if (o->walk != BCW_WALK_STATE && o->predicates != NULL)
        return bcw__error(BCW_EINPUT, "design-state predicates apply to the "
                                      "state walk only");
    if (o->walk != BCW_WALK_STATE && o->probe_depth)
        return bcw__error(BCW_EINPUT,
                          "the probe depth applies to the state walk only");
    if (o->walk != BCW_WALK_STATE &&
        (o->graph_path != NULL || o->svg_path != NULL))
        return bcw__error(BCW_EINPUT,
                          "the state graph (%s) is drawn by the state walk "
                          "only: this is the %s walk",
                          o->graph_path != NULL ? "DOT" : "SVG",
                          bcw__walk_name(o->walk));
    if (o->shard_n > 0 && o->shard_i >= o->shard_n)
        return bcw__error(BCW_EINPUT, "shard %u of %u: shards count from 0",
                          o->shard_i, o->shard_n);
    if ((o->shard_n > 0 || o->recorded != NULL) &&
        (o->oracle_path != NULL || o->reference != NULL))
        return bcw__error(BCW_EINPUT,
                          "a walk judged by an oracle or a reference build "
                          "is not sharded nor replayed (its judgement is "
                          "the oracle's file)");
    if (o->walk == BCW_WALK_LEARNED && o->from_tests == NULL)
        return bcw__error(BCW_EINPUT, "the learned walk walks a model learned "
                                      "from the tests: give it (bcwalk learn "
                                      "-o MODEL, then --from-tests MODEL)");
    if (o->recorded != NULL && (o->checkpoint != NULL || o->time_limit_s))
        return bcw__error(BCW_EINPUT, "a replay runs nothing: no checkpoint, "
                                      "no time limit");
    return 0;
}

/* The options shared out to the stages that take them. */
static void share_options(walk *w, const bcw_explore_opts *o)
{
    w->plan_o = (bcw_plan_opts){.depth = o->depth,
                                .combine = o->combine,
                                .max_combos = o->max_combos,
                                .boundaries = o->boundaries,
                                .permute = o->permute,
                                .use_ffi = o->use_ffi,
                                .memory_mb = o->memory_mb,
                                .cpu_s = o->cpu_s,
                                .timeout_ms = o->timeout_ms};
    w->build_o = (bcw_build_opts){
        .setup = o->setup, .sanitize = o->sanitize, .cache_dir = o->cache_dir};
    w->judge_o = (bcw_judge_opts){.oracle_path = o->oracle_path,
                                  .reference = o->reference,
                                  .accept = o->accept != 0,
                                  .replan = o->replan != 0,
                                  .ask = o->ask,
                                  .ask_payload = o->ask_payload};
    w->export_o = (bcw_export_opts){.halts = o->report != NULL &&
                                             o->format == BCW_REPORT_TEXT,
                                    .html_path = o->html_path,
                                    .junit_path = o->junit_path,
                                    .sarif_path = o->sarif_path,
                                    .svg_path = o->svg_path,
                                    .emit_c_path = o->emit_c_path,
                                    .emit_c_all = o->emit_c_all != 0,
                                    .reproduce_dir = o->reproduce_dir,
                                    .argv = o->argv,
                                    .argc = o->argc};
    w->journal_o = (bcw_journal_cfg){
        .path = o->checkpoint,
        .resume = o->resume != 0,
        .time_limit_s = o->time_limit_s,
        .every_s = o->checkpoint_every_s ? o->checkpoint_every_s : 10};
    w->cfg = (bcw_walk_cfg){.kind = o->walk,
                            .depth = o->depth,
                            .prune_state = bcw__walk_prunes(
                                o->prune, o->depth, o->generator != NULL),
                            .shard_i = o->shard_i,
                            .shard_n = o->shard_n,
                            .shard_sync = o->shard_sync,
                            .shared_from = &w->shared_from,
                            .memory = bcw__walk_memory(o->walk_memory_mb),
                            .stopped = &w->stopped,
                            .exec = bcw__executor_run,
                            .emit = emit,
                            .emit_payload = &w->sk,
                            .progress = o->progress,
                            .progress_payload = o->payload};
    w->jobs = o->jobs;
    w->timeout_ms = o->timeout_ms;
    w->probe_depth = o->probe_depth ? o->probe_depth : DEFAULT_PROBE_DEPTH;
    w->probe_prune = o->prune != BCW_PRUNE_NONE && o->generator == NULL;
    w->bitcode = o->bitcode;
    w->from_tests = o->from_tests;
    w->generator = o->generator;
    w->predicates = o->predicates;
    w->graph_path = o->graph_path;
    w->coverage_path = o->coverage_path;
    w->results_path = o->results_path;
    w->recorded = o->recorded;
    w->max_results_mb = o->max_results_mb;
    w->time_limit_s = o->time_limit_s;
    w->keep_record =
        o->results_path != NULL && o->argv != NULL && o->reference == NULL;
    w->sk.max_results = (uint64_t)o->max_results_mb << 20;
    w->sk.report = (bcw_reporter){.unit_name = o->unit_name,
                                  .walk = o->walk,
                                  .depth = o->depth,
                                  .timeout_ms = o->timeout_ms,
                                  .format = o->format,
                                  .f = o->report};
}

/* The walk's context: its options shared out, the symbols its causes
 * are named with (the recorded ones in a replay). */
static int walk_begin(walk *w, bcw_summary *out, const bcw_model *model,
                      const bcw_explore_opts *o)
{
    memset(w, 0, sizeof *w);
    w->o = o;
    w->out = out;
    w->given = w->model = model;
    w->u = &model->units[o->unit];
    w->covp = &w->cov;
    bcw__buf_init(&w->record, (size_t)16 << 30);
    share_options(w, o);
    w->sk.report.symbols = o->recorded != NULL
                               ? o->recorded->symbols
                               : (w->own_symbols = bcw__symbols_new());
    if (w->sk.report.symbols == NULL)
        return BCW_ENOMEM;
    return route_report(&w->sk, o);
}

/* The model unit u is planned from: the oracle's (bcwalk test, the
 * judge's choice), with the tests' values as categories
 * (--from-tests). */
static int choose_model(walk *w)
{
    int err = 0;
    const char *unit = w->u->name;
    if (w->judge_o.oracle_path != NULL && w->judge_o.reference == NULL) {
        err = bcw__judge_open(&w->sk.judge, w->judge_o.oracle_path, unit,
                              w->judge_o.accept);
        if (err == 0)
            bcw__judge_walk(w->sk.judge, bcw__walk_name(w->o->walk),
                            w->o->depth);
        if (err == 0)
            err = bcw__judge_plan(w->sk.judge, w->model, w->u, &w->judge_o,
                                  &w->kept, &w->sk.report.warnings);
        if (err < 0)
            return err;
        if (w->kept != NULL) {
            w->model = w->kept;
            w->u = &w->kept->units[bcw_model_find_unit(w->kept, unit)];
        }
    }
    if (w->from_tests != NULL) {
        w->untaught = w->model;
        w->untaught_u = w->u;
        if ((err = bcw__learned_teach(&w->learned, &w->taught,
                                      &w->gaps.categories, w->model, w->u,
                                      w->from_tests)) < 0)
            return err;
        w->model = w->taught;
        w->u = &w->taught->units[bcw_model_find_unit(w->taught, unit)];
    }
    return 0;
}

/* A replay's coverage: the hits recorded, of the recorded map. */
static int recorded_coverage(walk *w)
{
    if (w->recorded == NULL)
        return 0;
    if (w->recorded->hits == NULL)
        return w->coverage_path == NULL
                   ? 0
                   : bcw__error(BCW_EINPUT,
                                "the walk was run without --coverage: its "
                                "results have no coverage to write");
    w->covp = &w->recorded->cov;
    uint32_t n = w->covp->nflags;
    if ((w->hits = bcw__malloc(n ? n : 1)) == NULL)
        return BCW_ENOMEM;
    memcpy(w->hits, w->recorded->hits, n);
    return 0;
}

/* What the tests' values add to the walk (--from-tests): its alphabet's
 * constructors and methods without them, into the gaps the summary
 * states. */
static int untaught_size(walk *w)
{
    bcw_alphabet plain = {0};
    bcw_strlist said = {0}; /* the walk's own alphabet warned already */
    int err = bcw__alphabet_make(&plain, w->untaught, w->untaught_u, &w->plan_o,
                                 w->gen, &said);
    if (err == 0) {
        w->gaps.ctors_before = plain.nctors;
        w->gaps.methods_before = plain.nmethods;
    }
    bcw__alphabet_free(&plain);
    bcw__strlist_free(&said);
    return err;
}

/* Category c of the tests as the report names it: "fn(param): from
 * tests: V (N calls)". */
static char *tcat_text(const bcw_unit *u, const bcw_tcat *c)
{
    const bcw_func *f = &u->funcs[c->func];
    return bcw__sprintf("%s(%s): %s (%u call%s)", f->name,
                        f->params[c->param].name,
                        f->params[c->param].parts[c->part].label, c->uses,
                        c->uses == 1 ? "" : "s");
}

/* The alphabet of a walk --from-tests, into w->a: with all the tests'
 * categories when the walk with them has at most tests_growth times the
 * sequences of the walk without them (untaught_size()'s), else the
 * least used are dropped from the taught model, one at a time, until it
 * has; each named in the gaps.  The learned walk, which follows the
 * tests' calls, takes them all. */
static int fit_tests(walk *w, bcw_strlist *warnings)
{
    unsigned growth =
        w->o->tests_growth ? w->o->tests_growth : BCW_TESTS_GROWTH;
    bool all = w->o->walk == BCW_WALK_LEARNED;
    w->gaps.growth = all ? 0 : growth;
    bcw_unit *u = &w->taught->units[bcw_model_find_unit(w->taught, w->u->name)];
    bcw_tcat *cats = NULL;
    unsigned n = 0, said = warnings->n;
    int err = all ? 0 : bcw__learned_ranked(&cats, &n, u, &w->learned);
    for (unsigned i = 0; err == 0; i++) {
        err = bcw__alphabet_make(&w->a, w->taught, u, &w->plan_o, w->gen,
                                 warnings);
        if (err < 0 || all || i == n ||
            bcw__learned_growth(w->gaps.ctors_before, w->gaps.methods_before,
                                w->a.nctors, w->a.nmethods,
                                w->o->depth) <= growth)
            break;
        /* this alphabet's warnings go: the next one says its own */
        bcw__alphabet_free(&w->a);
        bcw__strlist_truncate(warnings, said);
        err = bcw__strlist_add(&w->gaps.dropped, tcat_text(u, &cats[i]));
        if (err == 0)
            bcw__learned_drop(u, &cats[i], cats + i + 1, n - i - 1);
    }
    free(cats);
    return err;
}

/* The plan: the alphabet and what the workers get, the tests'
 * sequences, the design states' predicates, and the walk's
 * configuration from them. */
static int make_plan(walk *w)
{
    const bcw_unit *u = w->u;
    bcw_alphabet *a = &w->a;
    bcw_strlist *warnings = &w->sk.report.warnings;
    int err = 0;
    if (w->generator != NULL)
        err =
            bcw__generator_open(&w->gen, w->generator, u, w->build_o.cache_dir);
    if (err == 0 && w->from_tests != NULL)
        err = untaught_size(w);
    if (err == 0)
        err = w->from_tests != NULL
                  ? fit_tests(w, warnings)
                  : bcw__alphabet_make(a, w->model, u, &w->plan_o, w->gen,
                                       warnings);
    if (err == 0)
        err = bcw__void_observer_warnings(warnings, u, a->steps, a->nsteps);
    if (err == 0 && w->from_tests != NULL)
        err = bcw__learned_seqs(&w->tseqs, &w->learned, u, a->steps, a->nsteps,
                                a->ctors, a->nctors, a->methods, a->nmethods);
    if (err == 0 &&
        (w->seen = bcw__calloc(a->nsteps, sizeof *w->seen)) == NULL)
        err = BCW_ENOMEM;
    /* a replay runs nothing */
    if (err == 0 && w->recorded == NULL)
        err = bcw__walk_fits(&w->cfg, a->nctors, a->nmethods);
    if (err == 0 && w->cfg.kind == BCW_WALK_STATE)
        err = bcw__states_plan(&w->states, a->plan, u, a->steps, a->nsteps,
                               w->predicates);
    if (err < 0)
        return err;
    w->cfg.nctors = a->nctors;
    w->cfg.ctors = a->ctors;
    w->cfg.nmethods = a->nmethods;
    w->cfg.methods = a->methods;
    w->cfg.step = a->walk;
    w->cfg.seen = w->seen;
    w->cfg.check_observers =
        w->judge_o.oracle_path != NULL || w->judge_o.reference != NULL;
    if (w->cfg.kind == BCW_WALK_LEARNED) {
        if ((err = bcw__lwalk_new(&w->lw, &w->learned, u, a->steps,
                                  a->nsteps)) < 0)
            return err;
        w->cfg.extends = on_model;
        w->cfg.extends_payload = &w->lw;
    }
    return 0;
}

/* What the walk writes as it goes: the report's view of the plan, the
 * exports, the results file, and the checkpoint (with the walk's
 * identity). */
static int open_outputs(walk *w)
{
    bcw_reporter *r = &w->sk.report;
    r->model = w->model;
    r->unit = w->u;
    if (r->unit_name == NULL)
        r->unit_name = w->u->name;
    r->steps = w->a.steps;
    r->nsteps = w->a.nsteps;
    r->dtors = w->a.plan->destructors;
    r->dtor_forms = w->a.plan->dtor_forms;
    r->ndtors = w->a.plan->ndestructors;
    r->gen = w->gen;
    int err = bcw__exports_new(&w->sk.exports, &w->export_o);
    if (err == 0 && w->results_path != NULL)
        err =
            bcw__results_open(&w->sk.results, w->results_path, w->u, w->a.steps,
                              w->a.nsteps, w->cfg.kind, w->cfg.depth);
    /* a shard's part is its subtrees, as the whole walk has them, unless
     * it prunes by states alone (another shard's may prune it); the
     * state and learned walks' shards are merged by walking again */
    if (err == 0 && w->sk.results != NULL && w->keep_record &&
        w->cfg.shard_n > 1 &&
        (w->cfg.kind == BCW_WALK_PROTOCOL || w->cfg.kind == BCW_WALK_ALGEBRA) &&
        (!w->cfg.prune_state || w->cfg.shard_sync != NULL))
        err = bcw__results_parts(w->sk.results);
    if (err == 0 && (w->journal_o.path != NULL || w->keep_record))
        err = bcw__walk_identify(&w->id, w->given, w->o);
    if (err < 0 || (w->journal_o.path == NULL && w->time_limit_s == 0))
        return err;
    w->journal_o.key = w->id.key;
    return bcw__journal_open(&w->journal, &w->journal_o);
}

/* The native build of `bitcode` (none in a replay): its worker, its
 * coverage map when it is the build under test (*cover), and its note
 * a warning after `say`. */
static int build(walk *w, const char *bitcode, const char *say, bool *cover)
{
    free(w->worker);
    w->worker = NULL;
    /* coverage is of the build under test, not of the reference */
    *cover = w->coverage_path != NULL && bitcode == w->bitcode &&
             w->recorded == NULL;
    w->a.plan->ncov = 0;
    if (w->recorded != NULL)
        return 0;
    char *note = NULL;
    int err = bcw__build_worker(&w->worker, &note, *cover ? &w->cov : NULL,
                                w->model, bitcode, &w->build_o);
    if (err == 0 && *cover) {
        w->a.plan->ncov = w->cov.nflags;
        err = cover_scope(&w->cov, w->model, w->a.plan);
    }
    if (err == 0 && *cover && w->hits == NULL &&
        (w->hits = bcw__calloc(w->cov.nflags ? w->cov.nflags : 1, 1)) == NULL)
        err = BCW_ENOMEM;
    if (err == 0 && note != NULL)
        err = bcw__strlist_add(&w->sk.report.warnings,
                               bcw__sprintf("%s%s", say, note));
    free(note);
    return err;
}

/* The workers of the last build, the symbols of its executable, and
 * the coverage flags' hits kept by the pool (and the checkpoint). */
static int start(walk *w, bool cover, bcw_pool **pool)
{
    int err = bcw__pool_new(pool, w->worker, w->a.plan, w->jobs, w->timeout_ms,
                            w->build_o.sanitize);
    if (err == 0)
        w->cfg.workers = bcw__pool_workers(*pool);
    if (err == 0)
        err = bcw__symbols_exe(w->sk.report.symbols, w->worker);
    if (err == 0 && cover) {
        bcw__pool_cover(*pool, w->hits);
        if (w->journal != NULL)
            bcw__journal_cover(w->journal, w->hits, w->cov.nflags);
    }
    return err;
}

/* Probing for the design states with the constructors and mutators
 * (and the tests' sequences). */
static int probe(walk *w)
{
    /* probing's budget goes to the analysis' categories: the tests'
     * values reach their states through the tests' own sequences */
    const bcw_alphabet *a = &w->a;
    uint16_t *mutators = bcw__calloc(a->nmutators + 1, sizeof *mutators);
    if (mutators == NULL)
        return BCW_ENOMEM;
    unsigned n = 0;
    for (unsigned i = 0; i < a->nmutators; i++)
        if (w->from_tests == NULL ||
            !bcw__learned_step(w->u, &a->steps[a->mutators[i]]))
            mutators[n++] = a->mutators[i];
    int err = bcw__states_probe(&w->states, &w->cfg, mutators, n,
                                w->probe_depth, w->probe_prune, w->u,
                                w->from_tests != NULL ? &w->tseqs : NULL);
    free(mutators);
    return err;
}

/* bcwalk test: the design states the oracle has, reached by its covers
 * on this build in place of probing it (a fault may make a state
 * unreachable: its cover then fails), when they fit the plan.  1 when
 * restored, 0 when there are none to restore, or an error. */
static int restore_states(walk *w)
{
    const bcw_oracle_states *kept =
        w->sk.judge != NULL && w->judge_o.reference == NULL &&
                !w->judge_o.replan
            ? bcw_oracle_get_states(bcw__judge_oracle(w->sk.judge))
            : NULL;
    return kept != NULL ? bcw__states_restore(&w->states, w->u, w->a.steps,
                                              w->a.nsteps, kept)
                        : 0;
}

/* The states this walk probed become the oracle's, for later tests to
 * reach by their covers: when it has none yet, or --replan. */
static int keep_states(walk *w)
{
    if (w->sk.judge == NULL || w->judge_o.reference != NULL ||
        w->cfg.kind != BCW_WALK_STATE || w->states.restored || w->out->partial)
        return 0;
    bcw_oracle *o = bcw__judge_oracle(w->sk.judge);
    if (bcw_oracle_get_states(o) != NULL && !w->judge_o.replan)
        return 0;
    bcw_oracle_states kept;
    int err =
        bcw__states_keep(&w->states, w->u, w->a.steps, w->a.nsteps, &kept);
    if (err == 0 && kept.n > 0 && (err = bcw_oracle_set_states(o, &kept)) == 0)
        bcw__judge_changed(w->sk.judge);
    bcw__states_kept_free(&kept);
    return err;
}

/* The state walk: probing (once: a reference's walk found the states
 * already; not at all when the oracle's covers reach them), then the
 * protocol walk from every state's cover, or from the constructors when
 * there is no state. */
static int walk_states(walk *w)
{
    int err = 0;
    if (!w->probed) {
        err = restore_states(w);
        if (err == 0)
            err = probe(w);
        err = err > 0 ? 0 : err;
        w->nnotes = w->states.notes.n;
    }
    w->sk.report.states = &w->states;
    if (err < 0)
        return err;
    if (w->states.nstates > 0)
        return bcw__states_walk(&w->states, &w->cfg, w->u,
                                bcw__report_begin_state, &w->sk.report, w->out);
    bcw_walk_cfg cfg = w->cfg;
    cfg.kind = BCW_WALK_PROTOCOL;
    return bcw__walk_run(w->out, &cfg);
}

/* The walk on the workers of `pool` (NULL: a replay's results), timed
 * from when they are up: build time is not throughput. */
static int run(walk *w, bcw_pool *pool)
{
    bcw_executor x = {pool, w->journal, w->recorded,
                      w->keep_record ? &w->record : NULL};
    w->cfg.exec_payload = &x;
    double t0 = bcw__now_s();
    int err = w->cfg.kind == BCW_WALK_STATE ? walk_states(w)
                                            : bcw__walk_run(w->out, &w->cfg);
    w->out->elapsed_s = bcw__now_s() - t0;
    w->out->worker_restarts = pool != NULL ? bcw__pool_restarts(pool) : 0;
    w->cfg.exec_payload = NULL;
    return err;
}

/* The walk on the native build of `bitcode`, its summary in w->out; the
 * build's warning, if any, after `say`. */
static int run_build(walk *w, const char *bitcode, const char *say)
{
    bool cover;
    bcw_pool *pool = NULL;
    /* a walk that prunes nothing grows its text report as it goes */
    w->sk.project =
        w->sk.max_report > 0 && !w->cfg.prune_state &&
        (w->cfg.kind == BCW_WALK_PROTOCOL || w->cfg.kind == BCW_WALK_ALGEBRA);
    w->sk.nmethods = w->cfg.nmethods;
    int err = build(w, bitcode, say, &cover);
    if (err == 0 && w->recorded == NULL)
        err = start(w, cover, &pool);
    if (err == 0)
        err = run(w, pool);
    bcw__pool_free(pool);
    return err;
}

/* --reference: the reference build's walk first, observed into an
 * oracle in memory, by which the same plan's walk on the build under
 * test is judged.  Stopped there, nothing is judged yet. */
static int walk_reference(walk *w)
{
    if (w->judge_o.reference == NULL)
        return 0;
    sinks *sk = &w->sk;
    int err = bcw__judge_open(&sk->judge, NULL, w->u->name, true);
    if (err < 0)
        return err;
    bcw__judge_walk(sk->judge, bcw__walk_name(w->o->walk), w->o->depth);
    sk->judged = &w->scratch;
    sk->training = true;
    err = run_build(w, w->judge_o.reference, "reference build: ");
    if (err == BCW_STOPPED)
        memset(w->out, 0, sizeof *w->out);
    if (err < 0)
        return err;
    bcw__judge_against(sk->judge);
    sk->training = false;
    memset(w->seen, 0, w->a.nsteps * sizeof *w->seen);
    bcw__states_rewind(&w->states, w->nnotes);
    w->probed = true;
    sk->report.reference = true;
    return 0;
}

/* What the walk leaves for the report: the state walk's states in the
 * results file, the observers caught changing the state, the gaps
 * between the tests and the walk, and where the walk's tree went past
 * its memory. */
static int after_walk(walk *w)
{
    bcw_strlist *warnings = &w->sk.report.warnings;
    uint64_t mib = w->cfg.memory >> 20;
    int err = w->cfg.kind == BCW_WALK_STATE
                  ? bcw__results_states(w->sk.results, &w->states)
                  : 0;
    if (err == 0)
        err = bcw__observer_warnings(warnings, w->u, w->a.steps, w->a.nsteps,
                                     w->seen);
    if (err == 0 && w->from_tests != NULL) {
        err = bcw__learned_gaps(
            &w->gaps, &w->learned, &w->tseqs,
            w->cfg.kind == BCW_WALK_STATE ? &w->states : NULL, w->u, w->a.steps,
            w->a.ctors, w->a.nctors, w->a.methods, w->a.nmethods, w->cfg.depth);
        w->sk.report.gaps = &w->gaps;
    }
    w->out->stopped_at = w->stopped;
    if (err == 0 && w->out->spilled_at > 0)
        err = bcw__strlist_add(
            warnings,
            bcw__sprintf("the walk's tree passed its memory budget of %llu "
                         "MiB (--memory) at length %u: from there on it was "
                         "kept in a file, paged by the system",
                         (unsigned long long)mib, w->out->spilled_at));
    if (err == 0 && w->stopped > 0)
        err = bcw__strlist_add(
            warnings,
            bcw__sprintf("the walk stopped before length %u: the disk had no "
                         "room for its tree past the memory budget of %llu "
                         "MiB (--memory); the lengths before it ran whole",
                         w->stopped, (unsigned long long)mib));
    return err;
}

static uint32_t pin(void *payload, const uint16_t *steps, unsigned len,
                    uint64_t before, uint64_t *vals)
{
    sinks *sk = payload;
    return bcw__judge_pin(sk->judge, &sk->report, steps, len, before, vals);
}

/* The walk on the build under test, judged if there is a judge, and
 * what it leaves for the report. */
static int walk_test(walk *w)
{
    sinks *sk = &w->sk;
    if (sk->judge != NULL) {
        sk->judged = &w->out->judged;
        sk->report.verdict = &sk->verdict;
        /* the values computed from the object the oracle recorded are
         * passed again, unless the plan is made again */
        if (!w->judge_o.replan) {
            w->cfg.pin = pin;
            w->cfg.pin_payload = sk;
        }
        sk->ask = w->judge_o.reference == NULL ? w->judge_o.ask : NULL;
        sk->ask_payload = w->judge_o.ask_payload;
    }
    /* a JSON summary with no results file or oracle reads no sequence:
     * the walk only counts them */
    if (sk->report.format == BCW_REPORT_JSON && sk->results == NULL &&
        sk->judge == NULL && sk->exports == NULL &&
        w->cfg.kind != BCW_WALK_STATE)
        w->cfg.emit = NULL;
    int err = run_build(w, w->bitcode, "");
    return err == 0 ? after_walk(w) : err;
}

/* A walk cut short by its time limit or its results file's limit: a
 * partial one, said in a warning. */
static int stopped(walk *w, int err)
{
    if (err != BCW_STOPPED)
        return err;
    w->out->partial = 1;
    w->out->results_full = w->sk.results_full;
    w->out->report_full = w->sk.report_full;
    w->out->report_projected = w->sk.projected;
    w->out->projected_after = w->sk.projected_after;
    return bcw__strlist_add(
        &w->sk.report.warnings,
        w->sk.projected > 0
            ? bcw__sprintf("the walk stopped after its sequences of length "
                           "%u: its text report would pass %llu MiB "
                           "(--max-report; --force lifts it), about %.1f MiB "
                           "by depth %u as each length has grown it: write "
                           "it with -o FILE and --format jsonl, or walk less "
                           "deep",
                           w->sk.projected_after,
                           (unsigned long long)(w->sk.max_report >> 20),
                           w->sk.projected / (1 << 20), w->sk.depth)
        : w->sk.report_full
            ? bcw__sprintf("the walk stopped when its text report passed "
                           "%llu MiB (--max-report; --force lifts it): "
                           "write it with -o FILE and --format jsonl, or "
                           "walk less deep",
                           (unsigned long long)(w->sk.max_report >> 20))
        : w->sk.results_full
            ? bcw__sprintf("the walk stopped when its results file "
                           "passed its limit of %u MiB (--max-results): "
                           "the file holds the sequences before",
                           w->max_results_mb)
        : w->journal_o.path != NULL
            ? bcw__sprintf("the walk stopped at its time limit, %u s "
                           "(--time-limit): its results so far are in "
                           "%s, and --resume goes on from there",
                           w->time_limit_s, w->journal_o.path)
            : bcw__sprintf("the walk stopped at its time limit, %u s "
                           "(--time-limit); without --checkpoint a new "
                           "run starts over",
                           w->time_limit_s));
}

/* The oracle with what this walk saw, saved before the summary counts
 * what it no longer reaches (not from a walk cut short, nor a failed
 * one). */
static int close_judge(walk *w, int err)
{
    sinks *sk = &w->sk;
    if (sk->judge != NULL && w->out->partial) {
        bcw__judge_close(sk->judge, NULL, false);
        sk->judge = NULL;
    }
    if (sk->judge == NULL)
        return err;
    if (err == 0)
        err = keep_states(w);
    w->out->judged.on = 1;
    w->out->judged.reference = w->judge_o.reference != NULL;
    int jerr = bcw__judge_close(sk->judge, &w->out->judged, err == 0);
    sk->judge = NULL;
    return err == 0 ? jerr : err;
}

/* err, or 0 when it is an export refused (BCW_EINPUT: a file that
 * cannot be written, a graph with nothing to draw), kept in *refused:
 * that export fails alone, the others and the results file are
 * written. */
static int alone(int err, int *refused)
{
    if (err != BCW_EINPUT)
        return err;
    *refused = err;
    return 0;
}

/* The summary, then the files, so that a run that failed leaves none:
 * the state graph, the exports, the lcov file (what a walk cut short
 * covered is covered too) and the results file's replay section.  An
 * export refused fails alone (alone()), kept in *refused (0: none). */
static int write_report(walk *w, int *refused)
{
    sinks *sk = &w->sk;
    bcw_summary *out = w->out;
    *refused = 0;
    int err = bcw__symbols_err(sk->report.symbols);
    if (err == 0 && w->hits != NULL)
        err = bcw__report_coverage(&sk->report, w->covp, w->hits, out);
    if (err == 0)
        err = bcw__exports_reproduce(sk->exports, &sk->report, w->bitcode,
                                     w->build_o.setup, out);
    /* the text report: its summary and distinct halts, then the
     * sequences held */
    bool held = sk->spill != NULL, started = sk->report.started;
    if (held) {
        if (sk->counted != NULL)
            fflush(sk->counted);
        sk->report.f = sk->report_to;
        sk->report.started = false;
    }
    if (err == 0)
        err = bcw__report_summary(&sk->report, out);
    if (err == 0 && held) {
        bcw__exports_halts_text(sk->exports, sk->report_to);
        err = unspill(sk, started);
    }
    if (err == 0 && w->graph_path != NULL && !out->partial)
        err =
            alone(bcw__states_dot(&w->states, w->u, w->a.steps, w->graph_path),
                  refused);
    if (err == 0)
        err = alone(bcw__exports_write(
                        sk->exports, &sk->report, out,
                        w->cfg.kind == BCW_WALK_STATE ? &w->states : NULL),
                    refused);
    if (err == 0 && w->hits != NULL && w->coverage_path != NULL)
        err =
            alone(bcw__cov_lcov(w->covp, w->hits, w->u->name, w->coverage_path),
                  refused);
    if (err == 0 && w->keep_record && !out->partial)
        err = bcw__walk_write_replay(sk->results, &w->id, w->o, &w->record,
                                     sk->report.symbols, sk->report.cov,
                                     w->hits, &w->shared_from, out);
    return err;
}

/* Closes the checkpoint and the results file (renamed into place only
 * when err is 0) and frees the walk; err or the first error closing. */
static int walk_end(walk *w, int err)
{
    /* a walk that failed: the sequences it held, nothing lost */
    int uerr = unspill(&w->sk, false);
    if (err == 0)
        err = uerr;
    /* what the counted stream holds, passed on */
    if (w->sk.counted != NULL && fclose(w->sk.counted) != 0 && err == 0)
        err = bcw__error(BCW_ERROR, "writing the report failed");
    if (w->journal != NULL) {
        uint64_t recorded;
        bcw__journal_counts(w->journal, &w->out->replayed, &recorded);
        int jerr = bcw__journal_close(w->journal);
        if (err == 0)
            err = jerr;
    }
    if (w->sk.results != NULL) {
        int cerr = bcw__results_close(w->sk.results, err == 0 ? w->out : NULL);
        if (err == 0)
            err = cerr;
    }
    bcw__judge_close(w->sk.judge, NULL, false);
    bcw__exports_free(w->sk.exports);
    bcw__buf_free(&w->record);
    bcw__cov_map_free(&w->cov);
    free(w->hits);
    free(w->id.own);
    bcw__symbols_free(w->own_symbols);
    bcw__strlist_free(&w->sk.report.warnings);
    bcw__generator_free(w->gen);
    free(w->worker);
    bcw__alphabet_free(&w->a);
    bcw__states_free(&w->states);
    free(w->seen);
    bcw_model_free(w->kept);
    bcw_model_free(w->taught);
    bcw__learned_free(&w->learned);
    bcw__tseqs_free(&w->tseqs);
    bcw__gaps_free(&w->gaps);
    bcw__lwalk_free(&w->lw);
    return err;
}

int bcw_explore_run(bcw_summary *out, const bcw_model *model,
                    const bcw_explore_opts *o)
{
    memset(out, 0, sizeof *out);
    bcw__error_clear();
    int err = check_options(model, o);
    if (err < 0)
        return err;
    walk w;
    if ((err = walk_begin(&w, out, model, o)) == 0 &&
        (err = choose_model(&w)) == 0 && (err = recorded_coverage(&w)) == 0 &&
        (err = make_plan(&w)) == 0 && (err = open_outputs(&w)) == 0 &&
        (err = walk_reference(&w)) == 0)
        err = walk_test(&w);
    int refused = 0;
    if (err == 0 || err == BCW_STOPPED) {
        err = close_judge(&w, stopped(&w, err));
        if (err == 0)
            err = write_report(&w, &refused);
    }
    err = walk_end(&w, err);
    return err < 0 ? err : refused;
}
