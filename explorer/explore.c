/* explore.c - bcw_explore_run: native build, workers, the walk, and its
 * reports, wired together. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "alloc.h"
#include "build.h"
#include "engine.h"
#include "file.h"
#include "hash.h"
#include "judge.h"
#include "learn.h"
#include "plan.h"
#include "report.h"

#define MAX_DEPTH 255
/* enough for a capacity-10 stack to reach Full */
#define DEFAULT_PROBE_DEPTH 12

typedef struct sinks {
    bcw_reporter report;
    bcw_results *results;
    bcw_judge *judge; /* bcwalk test's */
    bcw_verdict_of verdict;
    struct bcw_judged *judged;
    bool training;        /* the reference's walk: observed, not reported */
    uint64_t max_results; /* bytes, 0: no limit (max_results_mb) */
    bool results_full;    /* the walk stopped there */
    enum bcw_answer (*ask)(void *payload); /* --interactive, until stopped */
    void *ask_payload;
    bcw_exports *exports; /* report --html, --junit ..., or NULL */
} sinks;

/* A person's answer for the sequence just printed, if it waits for one. */
static int ask(sinks *s)
{
    if (s->ask == NULL || !bcw__judge_asks(s->judge))
        return 0;
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

static int emit(void *payload, const bcw_seq *seq)
{
    sinks *s = payload;
    int err = s->judge != NULL ? bcw__judge_seq(s->judge, &s->report, seq,
                                                s->judged, &s->verdict)
                               : 0;
    bool extend = err == 0 && s->verdict.extend;
    if (s->training)
        return err < 0 ? err : extend ? BCW_EMIT_EXTEND : 0;
    if (err == 0)
        err = bcw__report_seq(&s->report, seq);
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

/* What the walk's sequences run on: the workers, through the journal
 * (the checkpoint, and the time limit) when there is one, or in a
 * replay the results recorded; and the results kept for the results
 * file's replay section. */
typedef struct executor {
    bcw_pool *pool;
    bcw_journal *journal;
    bcw_recorded *recorded;
    bcw_buf *record;
} executor;

/* A job finished: its results kept for the replay section, then
 * handed to the walk. */
typedef struct finishing {
    executor *x;
    bcw_job_done done;
    void *ctx;
} finishing;

static int finished(void *ctx, bcw_job *job)
{
    finishing *f = ctx;
    int err = 0;
    for (uint32_t i = 0; err == 0 && f->x->record != NULL && i < job->nseq; i++)
        err = bcw__record_put(f->x->record, job, i);
    return err == 0 ? f->done(f->ctx, job) : err;
}

static int exec(void *payload, bcw_job *jobs, size_t njobs, bcw_job_done done,
                void *ctx)
{
    executor *x = payload;
    finishing f = {x, done, ctx};
    if (x->recorded != NULL) {
        int err = bcw__replay_exec(x->recorded, jobs, njobs);
        for (size_t k = 0; err == 0 && k < njobs; k++)
            err = finished(&f, &jobs[k]);
        return err;
    }
    return x->journal != NULL
               ? bcw__journal_exec(x->journal, x->pool, jobs, njobs, finished,
                                   &f)
               : bcw__pool_run_each(x->pool, jobs, njobs, finished, &f);
}

/* The walk a checkpoint or results file is of: the bytes of the model
 * (`bytes`, len), of the bitcode (and the reference's), and the options
 * that change which sequences run or what they give.  0 or an error. */
static int walk_key(uint64_t *key, const char *bytes, size_t len,
                    const bcw_explore_opts *o)
{
    int err = 0;
    uint64_t h = bcw__hash(bytes, len, 0);
    if ((err = bcw__hash_file(&h, o->bitcode)) < 0 ||
        (o->reference != NULL && (err = bcw__hash_file(&h, o->reference)) < 0))
        return err;
    char *text = bcw__sprintf(
        "%d %d %u %u %u %u %u %d %u %d %d %u %d %d %d %d|%s|%s|%s|%s|%s",
        o->unit, o->walk, o->depth, o->timeout_ms, o->memory_mb, o->cpu_s,
        o->max_combos, o->combine, o->probe_depth, o->prune, o->use_ffi,
        o->sanitize, o->boundaries, o->replan, o->accept,
        o->coverage_path != NULL, o->predicates ? o->predicates : "",
        o->permute ? o->permute : "", o->generator ? o->generator : "",
        o->setup ? o->setup : "", o->oracle_path ? o->oracle_path : "");
    if (text == NULL)
        return BCW_ENOMEM;
    *key = bcw__hash(text, strlen(text), h);
    free(text);
    return 0;
}

/* The model's bytes and the walk's key (walk_key), the recorded ones
 * in a replay: for the checkpoint and the replay section. */
typedef struct walk_id {
    const char *model;
    size_t len;
    uint64_t key;
    char *own; /* the bytes, when made here */
} walk_id;

static int identify(walk_id *id, const bcw_model *model,
                    const bcw_explore_opts *o)
{
    if (o->recorded != NULL) {
        *id = (walk_id){o->recorded->model, o->recorded->model_len,
                        o->recorded->key, NULL};
        return 0;
    }
    int err = bcw__model_to_bytes(model, &id->own, &id->len);
    id->model = id->own;
    return err < 0 ? err : walk_key(&id->key, id->model, id->len, o);
}

/* The results file's replay section: the command, the model, the key,
 * and the results `record` kept (replay.h). */
static int write_replay(bcw_results *results, const walk_id *id,
                        const bcw_explore_opts *o, const bcw_buf *record,
                        const bcw_symbols *symbols, const bcw_cov_map *cov,
                        const uint8_t *hits)
{
    if (record->data == NULL && record->err != 0)
        return record->err;
    bcw_replay_rec x = {.argv = o->argv,
                        .argc = o->argc,
                        .key = id->key,
                        .model = id->model,
                        .model_len = id->len,
                        .shard_i = o->shard_i,
                        .shard_n = o->shard_n,
                        .symbols = symbols,
                        .records = (const unsigned char *)record->data,
                        .records_len = record->len,
                        .cov = hits != NULL ? cov : NULL,
                        .hits = hits};
    return bcw__results_replay(results, &x);
}

/* Walks prune by concrete state from this depth on, unless told. */
#define PRUNE_FROM_DEPTH 6

static bool prunes(const bcw_explore_opts *o)
{
    switch (o->prune) {
    case BCW_PRUNE_STATE:
        return true;
    case BCW_PRUNE_NONE:
        return false;
    default:
        /* a custom generator's values may depend on how often it was
         * asked, which the state's key cannot see */
        return o->depth >= PRUNE_FROM_DEPTH && o->generator == NULL;
    }
}

/* "bstack_peek was classified an observer but changed the concrete
 * state in 3 runs": one warning per observer the walk caught. */
static int observer_warnings(bcw_strlist *warnings, const bcw_unit *u,
                             const bcw_step *steps, unsigned nsteps,
                             const uint64_t *changed)
{
    for (unsigned i = 0, j; i < nsteps; i = j) {
        /* a function walked in several categories (consecutive steps) is
         * one warning */
        uint64_t n = 0;
        for (j = i; j < nsteps && steps[j].func == steps[i].func; j++)
            n += changed[j];
        if (n == 0)
            continue;
        int err = bcw__strlist_add(
            warnings,
            bcw__sprintf("%s was classified an observer but changed the "
                         "concrete state in %llu run%s (a side effect the "
                         "analysis missed)",
                         u->funcs[steps[i].func].name, (unsigned long long)n,
                         n == 1 ? "" : "s"));
        if (err < 0)
            return err;
    }
    return 0;
}

/* "tally_dump returns nothing and was classified an observer ...": a
 * void function that writes nothing of the unit does nothing a walk can
 * see (its effect, if any, is elsewhere: a global, a file, output). */
static int void_observer_warnings(bcw_strlist *warnings, const bcw_unit *u,
                                  const bcw_step *steps, unsigned nsteps)
{
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        if (f->role != BCW_ROLE_OBSERVER || f->ret.kind != BCW_PK_NONE ||
            (i > 0 && steps[i - 1].func == steps[i].func))
            continue;
        /* one given memory it may write (an iterator to set up, an out
         * cell, a callback's) has its effect there */
        bool out = false;
        for (unsigned k = 0; k < f->nparams; k++) {
            enum bcw_pkind kind = f->params[k].kind;
            out = out || !(kind == BCW_PK_UNIT || kind == BCW_PK_INT ||
                           kind == BCW_PK_BOOL || kind == BCW_PK_CHAR ||
                           kind == BCW_PK_FLOAT || kind == BCW_PK_ENUM ||
                           kind == BCW_PK_STRING || kind == BCW_PK_LENGTH ||
                           kind == BCW_PK_ELEMENT);
        }
        if (out)
            continue;
        int err = bcw__strlist_add(
            warnings,
            bcw__sprintf("%s returns nothing and was classified an observer: "
                         "it changes nothing of the unit a walk can see (its "
                         "effect, if any, is elsewhere)",
                         f->name));
        if (err < 0)
            return err;
    }
    return 0;
}

/* The bytes the walk's tree may hold in memory (walk_memory_mb, or half
 * the machine's memory). */
static uint64_t walk_memory(const bcw_explore_opts *o)
{
    uint64_t bytes = (uint64_t)o->walk_memory_mb << 20;
    if (bytes == 0) {
        long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        bytes = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 2
                                      : (uint64_t)1 << 32;
    }
    return bytes;
}

/* An unpruned walk whose tree cannot fit in its memory budget and the
 * free disk it spills to is refused before it starts, with the
 * estimate (a pruned walk's size, or a learned walk's, is not known
 * ahead). */
static int fits(const bcw_explore_opts *o, unsigned nctors, unsigned nmethods)
{
    if (prunes(o) || o->walk == BCW_WALK_STATE || o->walk == BCW_WALK_LEARNED ||
        o->recorded != NULL)
        return 0;
    uint64_t n = bcw__walk_set_size(nctors, nmethods, o->depth);
    double need = (double)n * (double)bcw__walk_bytes_per_sequence();
    const char *dir = bcw__tmp_dir();
    struct statvfs fs;
    double disk =
        statvfs(dir, &fs) == 0 ? (double)fs.f_bavail * (double)fs.f_frsize : 0;
    double mem = (double)walk_memory(o);
    if (need <= mem + disk)
        return 0;
    return bcw__error(BCW_EINPUT,
                      "the walk cannot fit: its %.3g sequences would take "
                      "about %.3g GiB, past its memory budget (%.3g GiB, "
                      "--memory) and the free disk it spills to (%.3g GiB "
                      "in %s); a smaller --depth, or --prune state",
                      (double)n, need / (1 << 30), mem / (1 << 30),
                      disk / (1 << 30), dir);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Is `name` a function of unit u? */
static bool has_func(const bcw_unit *u, const char *name)
{
    for (unsigned i = 0; i < u->nfuncs; i++)
        if (strcmp(u->funcs[i].name, name) == 0)
            return true;
    return false;
}

/* bcwalk test: the plan comes from the model of the build the oracle
 * was made from, whatever this build's analysis says (a fault changes
 * roles and categories), when this build defines every function it
 * calls: *kept is that model, the caller's.  An oracle with no model,
 * or --replan, takes this build's (`model`).  What this build has that
 * the oracle's plan does not walk is a warning. */
static int oracle_plan(bcw_judge *jd, const bcw_model *model, const bcw_unit *u,
                       const bcw_explore_opts *o, bcw_model **kept,
                       bcw_strlist *warnings)
{
    *kept = NULL;
    bcw_oracle *oracle = bcw__judge_oracle(jd);
    size_t len = 0;
    const void *bytes = bcw_oracle_model(oracle, &len);
    if (bytes == NULL || o->replan) {
        char *data = NULL;
        size_t n = 0;
        int err = bcw__model_to_bytes(model, &data, &n);
        if (err == 0)
            err = bcw_oracle_set_model(oracle, data, n);
        free(data);
        bcw__judge_changed(jd);
        return err;
    }
    bcw_model *m = NULL;
    int err = bcw__model_from_bytes(&m, bytes, len, o->oracle_path);
    if (err < 0)
        return err;
    int k = bcw_model_find_unit(m, u->name);
    const char *missing = k < 0 ? u->name : NULL;
    for (unsigned i = 0; missing == NULL && i < m->nsyms; i++) {
        unsigned j = 0;
        while (j < model->nsyms && strcmp(model->syms[j], m->syms[i]) != 0)
            j++;
        if (j == model->nsyms)
            missing = m->syms[i];
    }
    if (missing != NULL) {
        err = bcw__strlist_add(
            warnings,
            bcw__sprintf("the oracle's plan (the build it was made from) "
                         "walks %s, which this build does not: the walk is "
                         "planned from this build, whose roles and "
                         "categories may differ (--replan makes its plan "
                         "the oracle's)",
                         missing));
        bcw_model_free(m);
        return err;
    }
    for (unsigned i = 0; i < u->nfuncs && err == 0; i++)
        if (!has_func(&m->units[k], u->funcs[i].name))
            err = bcw__strlist_add(
                warnings, bcw__sprintf("%s is not in the oracle's plan (the "
                                       "build it was made from): not walked "
                                       "(--replan walks it, and makes this "
                                       "build's plan the oracle's)",
                                       u->funcs[i].name));
    if (err < 0) {
        bcw_model_free(m);
        return err;
    }
    *kept = m;
    return 0;
}

/* What one walk of the plan on a native build needs: the plan's run
 * (bcw_explore_run's), and what the walks share. */
typedef struct walk_ctx {
    const bcw_model *model;
    const bcw_explore_opts *o;
    bcw_alphabet *a;
    bcw_walk_cfg *cfg;
    sinks *sk;
    bcw_states *states;
    char **worker;        /* the last build's executable, the caller's */
    bcw_journal *journal; /* the checkpoint, or NULL */
    bcw_buf *record;      /* the results kept for the results file, or
                             NULL */
    bool probed;          /* the state walk's states are found: walk them */
    unsigned nnotes;      /* the states' notes after probing */
    bcw_cov_map *cov;     /* coverage of the build under test, or NULL */
    uint8_t **hits;       /* its hits (coverage.h), made with the pool */
    bcw_tseqs *tests;     /* --from-tests: the tests' sequences, or NULL */
} walk_ctx;

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

/* The walk on the native build of `bitcode`, its summary in *out; the
 * build's warning, if any, after `say`. */
static int walk_build(walk_ctx *w, bcw_summary *out, const char *bitcode,
                      const char *say)
{
    const bcw_explore_opts *o = w->o;
    const bcw_unit *u = &w->model->units[o->unit];
    char *note = NULL;
    bcw_pool *pool = NULL;
    free(*w->worker);
    *w->worker = NULL;
    /* coverage is of the build under test, not of the reference */
    bool cover = w->cov != NULL && bitcode == o->bitcode && o->recorded == NULL;
    /* a replay builds and runs nothing */
    int err = o->recorded != NULL
                  ? 0
                  : bcw__build_worker(w->worker, &note, cover ? w->cov : NULL,
                                      w->model, bitcode, o->setup, o->sanitize,
                                      o->cache_dir);
    w->a->plan->ncov = cover && err == 0 ? w->cov->nflags : 0;
    if (cover && err == 0)
        err = cover_scope(w->cov, w->model, w->a->plan);
    if (err == 0 && cover && *w->hits == NULL &&
        (*w->hits = bcw__calloc(w->cov->nflags ? w->cov->nflags : 1, 1)) ==
            NULL)
        err = BCW_ENOMEM;
    if (err == 0 && note != NULL) {
        char *said = bcw__sprintf("%s%s", say, note);
        free(note);
        err = bcw__strlist_add(&w->sk->report.warnings, said);
    }
    if (err == 0 && o->recorded == NULL)
        err = bcw__pool_new(&pool, *w->worker, w->a->plan, o->jobs,
                            o->timeout_ms, o->sanitize);
    if (err == 0 && o->recorded == NULL)
        err = bcw__symbols_exe(w->sk->report.symbols, *w->worker);
    if (err == 0 && cover) {
        bcw__pool_cover(pool, *w->hits);
        if (w->journal != NULL)
            bcw__journal_cover(w->journal, *w->hits, w->cov->nflags);
    }
    if (err < 0) {
        bcw__pool_free(pool);
        return err;
    }
    executor x = {pool, w->journal, o->recorded, w->record};
    w->cfg->exec_payload = &x;
    /* the walk's clock starts when workers are up: build time is not
     * throughput */
    double t0 = now_s();
    if (o->walk == BCW_WALK_STATE) {
        /* probe with the constructors and mutators, then walk from
         * every state's cover */
        if (!w->probed) {
            /* probing's budget goes to the analysis' categories: the
             * tests' values reach their states through the tests' own
             * sequences */
            uint16_t *probe = bcw__calloc(w->a->nmutators + 1, sizeof *probe);
            unsigned nprobe = 0;
            for (unsigned i = 0; probe != NULL && i < w->a->nmutators; i++)
                if (w->tests == NULL ||
                    !bcw__learned_step(u, &w->a->steps[w->a->mutators[i]]))
                    probe[nprobe++] = w->a->mutators[i];
            err =
                probe == NULL
                    ? BCW_ENOMEM
                    : bcw__states_probe(
                          w->states, w->cfg, probe, nprobe,
                          o->probe_depth ? o->probe_depth : DEFAULT_PROBE_DEPTH,
                          o->prune != BCW_PRUNE_NONE && o->generator == NULL, u,
                          w->tests);
            free(probe);
            w->nnotes = w->states->notes.n;
        }
        w->sk->report.states = w->states;
        if (err == 0 && w->states->nstates == 0) {
            /* no design state: the protocol walk from the constructors */
            bcw_walk_cfg cfg = *w->cfg;
            cfg.kind = BCW_WALK_PROTOCOL;
            err = bcw__walk_run(out, &cfg);
        } else if (err == 0) {
            err =
                bcw__states_walk(w->states, w->cfg, u, bcw__report_begin_state,
                                 &w->sk->report, out);
        }
    } else {
        err = bcw__walk_run(out, w->cfg);
    }
    out->elapsed_s = now_s() - t0;
    out->worker_restarts = pool != NULL ? bcw__pool_restarts(pool) : 0;
    bcw__pool_free(pool);
    w->cfg->exec_payload = NULL;
    return err;
}

/* The summary's coverage counts, and the map and hits the report
 * prints. */
static int cover_summary(bcw_reporter *r, const bcw_cov_map *map,
                         const uint8_t *hits, bcw_summary *out)
{
    bcw_cov_summary s;
    int err = bcw__cov_summarize(map, hits, 0, &s);
    if (err < 0)
        return err;
    out->coverage =
        (struct bcw_coverage){.on = 1,
                              .lines = s.total.n[BCW_COV_LINES],
                              .lines_hit = s.hit.n[BCW_COV_LINES],
                              .branches = s.total.n[BCW_COV_BRANCHES],
                              .branches_hit = s.hit.n[BCW_COV_BRANCHES],
                              .functions = s.total.n[BCW_COV_FUNCTIONS],
                              .functions_hit = s.hit.n[BCW_COV_FUNCTIONS]};
    bcw__cov_summary_free(&s);
    r->cov = map;
    r->hits = hits;
    return 0;
}

/* The learned walk's extends: a path of the learned model. */
static bool on_model(void *payload, const uint16_t *seq, unsigned len,
                     uint16_t next)
{
    return bcw__lwalk_extends(payload, seq, len, next);
}

/* --from-tests: the learned model, and a copy of `model` whose unit has
 * its tests' values as categories (*taught, the caller's). */
static int from_tests(bcw_learned *l, bcw_model **taught, unsigned *added,
                      const bcw_model *model, const bcw_unit *u,
                      const char *path)
{
    int err = bcw__learned_load(l, path);
    if (err < 0)
        return err;
    if (strcmp(l->unit, u->name) != 0)
        return bcw__error(BCW_EINPUT,
                          "%s: a model learned of unit %s, not of %s", path,
                          l->unit, u->name);
    char *data = NULL;
    size_t n = 0;
    if ((err = bcw__model_to_bytes(model, &data, &n)) == 0)
        err = bcw__model_from_bytes(taught, data, n, "the model");
    free(data);
    if (err == 0)
        err = bcw__learned_categories(
            *taught, (unsigned)bcw_model_find_unit(*taught, u->name), l, added);
    return err;
}

int bcw_explore_run(bcw_summary *out, const bcw_model *model,
                    const bcw_explore_opts *o)
{
    memset(out, 0, sizeof *out);
    bcw__error_clear();
    if (o->unit < 0 || (unsigned)o->unit >= model->nunits)
        return bcw__error(BCW_EINPUT, "no unit number %d", o->unit);
    if (o->depth > MAX_DEPTH)
        return bcw__error(BCW_EINPUT, "depth %u is above the limit of %d",
                          o->depth, MAX_DEPTH);
    if (o->reference != NULL && o->oracle_path != NULL)
        return bcw__error(BCW_EINPUT, "an oracle file or a reference build, "
                                      "not both");
    if (o->walk != BCW_WALK_STATE &&
        (o->predicates != NULL || o->graph_path != NULL || o->probe_depth))
        return bcw__error(BCW_EINPUT,
                          "design-state predicates, probe depth and state "
                          "graph apply to the state walk only");
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
    const bcw_unit *u = &model->units[o->unit];
    const bcw_model *given = model; /* the results file's, for replay */
    sinks sk = {0};
    bcw_usergen *gen = NULL;
    bcw_alphabet a = {0};
    bcw_states states = {0};
    uint64_t *changed = NULL;
    char *worker = NULL;
    bcw_model *kept = NULL;   /* the oracle's model, planning the walk */
    bcw_model *taught = NULL; /* with the tests' values (--from-tests) */
    bcw_learned learned = {0};
    bcw_tseqs tseqs = {0};
    bcw_gaps gaps = {0};
    bcw_lwalk lw = {0};
    bcw_journal *journal = NULL;
    bcw_symbols *own_symbols = NULL;
    bcw_cov_map cov = {0};
    const bcw_cov_map *covp = &cov; /* the recorded one in a replay */
    uint8_t *hits = NULL;
    walk_id id = {0};
    bcw_buf record;
    bcw__buf_init(&record, (size_t)16 << 30);
    int err = 0;
    sk.report.symbols = o->recorded != NULL
                            ? o->recorded->symbols
                            : (own_symbols = bcw__symbols_new());
    if (sk.report.symbols == NULL)
        return BCW_ENOMEM;
    if (o->oracle_path != NULL && o->reference == NULL) {
        err =
            bcw__judge_open(&sk.judge, o->oracle_path, u->name, o->accept != 0);
        if (err == 0)
            err =
                oracle_plan(sk.judge, model, u, o, &kept, &sk.report.warnings);
        if (err < 0)
            goto done;
        if (kept != NULL) {
            model = kept;
            u = &kept->units[bcw_model_find_unit(kept, u->name)];
        }
    }
    if (o->from_tests != NULL) {
        if ((err = from_tests(&learned, &taught, &gaps.categories, model, u,
                              o->from_tests)) < 0)
            goto done;
        model = taught;
        u = &taught->units[bcw_model_find_unit(taught, u->name)];
    }
    if (o->recorded != NULL && o->recorded->hits != NULL) {
        covp = &o->recorded->cov;
        if ((hits = bcw__malloc(covp->nflags ? covp->nflags : 1)) == NULL) {
            err = BCW_ENOMEM;
            goto done;
        }
        memcpy(hits, o->recorded->hits, covp->nflags);
    } else if (o->recorded != NULL && o->coverage_path != NULL) {
        err = bcw__error(BCW_EINPUT,
                         "the walk was run without --coverage: its results "
                         "have no coverage to write");
        goto done;
    }
    if (o->generator)
        err = bcw__generator_open(&gen, o->generator, u, o->cache_dir);
    if (err == 0)
        err = bcw__alphabet_make(&a, model, u, o, gen, &sk.report.warnings);
    if (err == 0)
        err = void_observer_warnings(&sk.report.warnings, u, a.steps, a.nsteps);
    if (err < 0)
        goto done;
    if (o->from_tests != NULL &&
        (err = bcw__learned_seqs(&tseqs, &learned, u, a.steps, a.nsteps,
                                 a.ctors, a.nctors, a.methods, a.nmethods)) < 0)
        goto done;
    if ((changed = bcw__calloc(a.nsteps, sizeof *changed)) == NULL) {
        err = BCW_ENOMEM;
        goto done;
    }
    if ((err = bcw__generator_plan(gen, &a.plan->gen, a.plan->funcs, u, a.steps,
                                    a.nsteps)) < 0 ||
        (err = fits(o, a.nctors, a.nmethods)) < 0)
        goto done;
    if (o->walk == BCW_WALK_STATE &&
        (err = bcw__states_plan(&states, a.plan, u, a.steps, a.nsteps,
                                o->predicates)) < 0)
        goto done;
    a.plan->use_ffi = o->use_ffi != 0;
    a.plan->memory_mb = o->memory_mb ? o->memory_mb : 1024;
    if ((a.plan->cpu_s = o->cpu_s) == 0) {
        uint64_t twice = 2 * ((uint64_t)o->depth + 2) *
                         (o->timeout_ms ? o->timeout_ms : 1000);
        a.plan->cpu_s = (uint32_t)(twice / 1000 > 60 ? twice / 1000 : 60);
    }
    unsigned stopped = 0;
    /* states are hashed in every walk: they are counted, and observers
     * are checked, with or without pruning */
    a.plan->state_flags |= BCW_STATE_HASH;
    bcw_walk_cfg cfg = {.kind = o->walk,
                        .depth = o->depth,
                        .nctors = a.nctors,
                        .ctors = a.ctors,
                        .nmethods = a.nmethods,
                        .methods = a.methods,
                        .step = a.walk,
                        .prune_state = prunes(o),
                        .shard_i = o->shard_i,
                        .shard_n = o->shard_n,
                        .memory = walk_memory(o),
                        .stopped = &stopped,
                        .observer_changed = changed,
                        .exec = exec,
                        .emit = emit,
                        .emit_payload = &sk,
                        .progress = o->progress,
                        .progress_payload = o->payload};
    if (o->walk == BCW_WALK_LEARNED) {
        if ((err = bcw__lwalk_new(&lw, &learned, u, a.steps, a.nsteps)) < 0)
            goto done;
        cfg.extends = on_model;
        cfg.extends_payload = &lw;
    }
    sk.report.model = model;
    sk.report.unit = u;
    sk.report.steps = a.steps;
    sk.report.nsteps = a.nsteps;
    sk.report.dtors = a.plan->destructors;
    sk.report.ndtors = a.plan->ndestructors;
    sk.report.walk = o->walk;
    sk.report.depth = o->depth;
    sk.report.timeout_ms = o->timeout_ms;
    sk.report.format = o->format;
    sk.report.f = o->report;
    sk.report.gen = gen;
    sk.max_results = (uint64_t)o->max_results_mb << 20;
    if ((err = bcw__exports_new(&sk.exports, o)) < 0)
        goto done;
    if (o->results_path != NULL &&
        (err = bcw__results_open(&sk.results, o->results_path, u, a.steps,
                                 a.nsteps, o->walk, o->depth)) < 0)
        goto done;
    walk_ctx w = {.model = model,
                  .o = o,
                  .a = &a,
                  .cfg = &cfg,
                  .sk = &sk,
                  .states = &states,
                  .worker = &worker,
                  .cov = o->coverage_path != NULL ? &cov : NULL,
                  .hits = &hits,
                  .record = o->results_path != NULL && o->argv != NULL &&
                                    o->reference == NULL
                                ? &record
                                : NULL,
                  .tests = o->from_tests != NULL ? &tseqs : NULL};
    if ((o->checkpoint != NULL || w.record != NULL) &&
        (err = identify(&id, given, o)) < 0)
        goto done;
    if (o->checkpoint != NULL || o->time_limit_s > 0) {
        bcw_journal_cfg jc = {
            .path = o->checkpoint,
            .resume = o->resume != 0,
            .time_limit_s = o->time_limit_s,
            .every_s = o->checkpoint_every_s ? o->checkpoint_every_s : 10};
        jc.key = id.key;
        if ((err = bcw__journal_open(&journal, &jc)) < 0)
            goto done;
        w.journal = journal;
    }
    if (o->reference != NULL) {
        /* the reference's walk first, observed into an oracle in memory;
         * then the same plan's on the build under test, judged by it */
        struct bcw_judged scratch = {0};
        if ((err = bcw__judge_open(&sk.judge, NULL, u->name, true)) < 0)
            goto done;
        sk.judged = &scratch;
        sk.training = true;
        if ((err = walk_build(&w, out, o->reference, "reference build: ")) ==
            BCW_STOPPED) {
            /* stopped in the reference's walk: nothing judged yet */
            memset(out, 0, sizeof *out);
            goto stopped;
        }
        if (err < 0)
            goto done;
        bcw__judge_against(sk.judge);
        sk.training = false;
        memset(changed, 0, a.nsteps * sizeof *changed);
        bcw__states_rewind(&states, w.nnotes);
        w.probed = true;
        sk.report.reference = true;
    }
    if (sk.judge != NULL) {
        sk.judged = &out->judged;
        sk.report.verdict = &sk.verdict;
        sk.ask = o->reference == NULL ? o->ask : NULL;
        sk.ask_payload = o->ask_payload;
    }
    /* a JSON summary with no results file or oracle reads no sequence:
     * the walk only counts them */
    if (o->format == BCW_REPORT_JSON && sk.results == NULL &&
        sk.judge == NULL && sk.exports == NULL && o->walk != BCW_WALK_STATE)
        cfg.emit = NULL;
    if ((err = walk_build(&w, out, o->bitcode, "")) == BCW_STOPPED)
        goto stopped;
    if (err < 0)
        goto done;
    if (o->walk == BCW_WALK_STATE &&
        (err = bcw__results_states(sk.results, &states)) < 0)
        goto done;
    if (err == 0)
        err = observer_warnings(&sk.report.warnings, u, a.steps, a.nsteps,
                                changed);
    if (err == 0 && o->from_tests != NULL) {
        err = bcw__learned_gaps(
            &gaps, &learned, &tseqs, o->walk == BCW_WALK_STATE ? &states : NULL,
            u, a.steps, a.ctors, a.nctors, a.methods, a.nmethods, o->depth);
        sk.report.gaps = &gaps;
    }
    out->stopped_at = stopped;
    if (err == 0 && out->spilled_at > 0)
        err = bcw__strlist_add(
            &sk.report.warnings,
            bcw__sprintf("the walk's tree passed its memory budget of %llu "
                         "MiB (--memory) at length %u: from there on it was "
                         "kept in a file, paged by the system",
                         (unsigned long long)(walk_memory(o) >> 20),
                         out->spilled_at));
    if (err == 0 && stopped > 0)
        err = bcw__strlist_add(
            &sk.report.warnings,
            bcw__sprintf("the walk stopped before length %u: the disk had no "
                         "room for its tree past the memory budget of %llu "
                         "MiB (--memory); the lengths before it ran whole",
                         stopped, (unsigned long long)(walk_memory(o) >> 20)));
stopped:
    if (err == BCW_STOPPED) {
        out->partial = 1;
        out->results_full = sk.results_full;
        err = bcw__strlist_add(
            &sk.report.warnings,
            sk.results_full
                ? bcw__sprintf("the walk stopped when its results file "
                               "passed its limit of %u MiB (--max-results): "
                               "the file holds the sequences before",
                               o->max_results_mb)
            : o->checkpoint != NULL
                ? bcw__sprintf("the walk stopped at its time limit, %u s "
                               "(--time-limit): its results so far are in "
                               "%s, and --resume goes on from there",
                               o->time_limit_s, o->checkpoint)
                : bcw__sprintf("the walk stopped at its time limit, %u s "
                               "(--time-limit); without --checkpoint a new "
                               "run starts over",
                               o->time_limit_s));
    }
    /* the oracle with what this walk saw, before the summary counts
     * what it no longer reaches (not from a walk cut short) */
    if (sk.judge != NULL && out->partial) {
        bcw__judge_close(sk.judge, NULL, false);
        sk.judge = NULL;
    }
    if (sk.judge != NULL) {
        out->judged.on = 1;
        out->judged.reference = o->reference != NULL;
        int jerr = bcw__judge_close(sk.judge, &out->judged, err == 0);
        sk.judge = NULL;
        if (err == 0)
            err = jerr;
    }
    if (err == 0)
        err = bcw__symbols_err(sk.report.symbols);
    if (err == 0 && hits != NULL)
        err = cover_summary(&sk.report, covp, hits, out);
    if (err == 0 && hits != NULL && covp->nlines == 0)
        err = bcw__strlist_add(
            &sk.report.warnings,
            bcw__sprintf("coverage: the bitcode has no debug information "
                         "(clang -g): it counts functions only, no source "
                         "lines nor branch arms, and the lcov file has "
                         "none"));
    if (err == 0)
        err = bcw__report_summary(&sk.report, out);
    /* the files last, so that a run that failed leaves none */
    if (err == 0 && o->graph_path != NULL && !out->partial)
        err = bcw__states_dot(&states, u, a.steps, o->graph_path);
    if (err == 0)
        err = bcw__exports_write(sk.exports, &sk.report, out,
                                 o->walk == BCW_WALK_STATE ? &states : NULL);
    /* what a walk cut short covered is covered too */
    if (err == 0 && hits != NULL && o->coverage_path != NULL)
        err = bcw__cov_lcov(covp, hits, u->name, o->coverage_path);
    if (err == 0 && w.record != NULL && !out->partial)
        err = write_replay(sk.results, &id, o, &record, sk.report.symbols,
                           sk.report.cov, hits);
done:
    if (journal != NULL) {
        uint64_t recorded;
        bcw__journal_counts(journal, &out->replayed, &recorded);
        int jerr = bcw__journal_close(journal);
        if (err == 0)
            err = jerr;
    }
    if (sk.results != NULL) {
        int cerr = bcw__results_close(sk.results, err == 0 ? out : NULL);
        if (err == 0)
            err = cerr;
    }
    bcw__judge_close(sk.judge, NULL, false);
    bcw__exports_free(sk.exports);
    bcw__buf_free(&record);
    bcw__cov_map_free(&cov);
    free(hits);
    free(id.own);
    bcw__symbols_free(own_symbols);
    bcw__strlist_free(&sk.report.warnings);
    bcw__generator_free(gen);
    free(worker);
    bcw__alphabet_free(&a);
    bcw__states_free(&states);
    free(changed);
    bcw_model_free(kept);
    bcw_model_free(taught);
    bcw__learned_free(&learned);
    bcw__tseqs_free(&tseqs);
    bcw__gaps_free(&gaps);
    bcw__lwalk_free(&lw);
    return err;
}
