/* explore.c - bcw_explore_run: native build, workers, the walk, and its
 * reports, wired together. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "explorer/build.h"
#include "explorer/generator.h"
#include "explorer/pool.h"
#include "explorer/report.h"
#include "explorer/results.h"
#include "explorer/walk.h"

#define MAX_DEPTH 255

typedef struct sinks {
    bcw_reporter report;
    bcw_results *results;
} sinks;

static int emit(void *payload, const bcw_seq *seq)
{
    sinks *s = payload;
    int err = bcw__report_seq(&s->report, seq);
    if (err == 0 && s->results != NULL)
        err = bcw__results_seq(s->results, seq);
    return err;
}

static int exec(void *payload, bcw_job *jobs, size_t njobs)
{
    return bcw__pool_run(payload, jobs, njobs);
}

static void wire_param(bcw_wire_param *w, const bcw_param *p)
{
    w->kind = (uint8_t)p->kind;
    w->abi = (uint8_t)p->abi;
    w->pointee = (uint8_t)p->pointee;
    w->size = p->pointee_size;
}

#define MAX_STEPS_PER_FUNC 64

static bool partitioned(const bcw_param *p)
{
    return p->nparts > 0 && (p->kind == BCW_PK_INT || p->kind == BCW_PK_ENUM ||
                             p->kind == BCW_PK_CHAR);
}

/* The walk's alphabet: each function once per combination of its
 * parameters' categories (all combinations, in order, at most
 * MAX_STEPS_PER_FUNC), each category by its representative value; a
 * function without categories is one step.  *out is the caller's. */
static int make_steps(bcw_step **out, unsigned *nout, const bcw_unit *u,
                      const bcw_usergen *gen)
{
    size_t cap = 0;
    *out = NULL;
    *nout = 0;
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *f = &u->funcs[i];
        unsigned combos = 1;
        /* a parameter the custom generator takes has no categories */
        bool cat[BCW_MAX_PARAMS];
        for (unsigned k = 0; k < f->nparams; k++)
            cat[k] =
                partitioned(&f->params[k]) && !bcw__generator_takes(gen, i, k);
        for (unsigned k = 0; k < f->nparams; k++)
            if (cat[k] && (combos *= f->params[k].nparts) > MAX_STEPS_PER_FUNC)
                combos = MAX_STEPS_PER_FUNC;
        for (unsigned c = 0; c < combos; c++) {
            if (bcw__grow(out, &cap, *nout + 1, sizeof **out) < 0)
                return BCW_ENOMEM;
            bcw_step *st = &(*out)[(*nout)++];
            memset(st, 0, sizeof *st);
            st->func = i;
            /* combination c in mixed radix over the partitioned params */
            for (unsigned k = 0, rest = c; k < f->nparams; k++) {
                const bcw_param *p = &f->params[k];
                st->custom[k] = bcw__generator_takes(gen, i, k);
                if (!cat[k])
                    continue;
                const bcw_part *part = &p->parts[rest % p->nparts];
                rest /= p->nparts;
                st->fixed[k] = true;
                st->value[k] = part->nvalues ? part->values[0] : 0;
                st->label[k] = part->label;
                st->relative[k] = part->rel >= 0 ? part : NULL;
            }
        }
    }
    if (*nout > BCW_MAX_FUNCS)
        return bcw__error(BCW_EINPUT,
                          "unit %s has %u steps (functions times "
                          "categories); at most %d can be walked",
                          u->name, *nout, BCW_MAX_FUNCS);
    return 0;
}

/* The plan: plan index i is step i. */
/* Copies p's expression nodes into the plan's pool for a category with
 * bounds on the object; operands are re-based on the pool. */
static int pool_bounds(bcw_plan *plan, const bcw_param *p, const bcw_part *c,
                       bcw_wire_param *w)
{
    if (plan->npool + p->nnodes > BCW_MAX_PLAN_NODES)
        return bcw__error(BCW_EINPUT,
                          "%s: its categories need more than %d expression "
                          "nodes",
                          p->name, BCW_MAX_PLAN_NODES);
    uint32_t base = plan->npool;
    for (unsigned i = 0; i < p->nnodes; i++) {
        bcw_cnode n = p->nodes[i];
        n.a += base;
        n.b += base;
        plan->pool[plan->npool++] = n;
    }
    w->fixed = BCW_FIXED_BOUNDS;
    w->bounds = (uint16_t)(base + (uint32_t)c->rel);
    w->nbounds = (uint16_t)c->nrel;
    return 0;
}

static int make_plan(bcw_plan *plan, const bcw_unit *u, const bcw_step *steps,
                     unsigned nsteps)
{
    memset(plan, 0, sizeof *plan);
    plan->nfuncs = nsteps;
    plan->unit_size = (uint32_t)u->size;
    plan->destructor = -1;
    int dtor = bcw__unit_destructor(u);
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        bcw_wire_func *w = &plan->funcs[i];
        if ((int)steps[i].func == dtor && plan->destructor < 0)
            plan->destructor = (int32_t)i;
        w->sym = f->sym;
        w->role = (uint8_t)f->role;
        w->nparams = (uint8_t)f->nparams;
        w->flags = f->rebinds ? BCW_WIRE_REBINDS : 0;
        wire_param(&w->ret, &f->ret);
        for (unsigned k = 0; k < f->nparams; k++) {
            wire_param(&w->params[k], &f->params[k]);
            w->params[k].fixed = steps[i].fixed[k] ? BCW_FIXED_VALUE : 0;
            w->params[k].value = steps[i].value[k];
            int err = steps[i].relative[k]
                          ? pool_bounds(plan, &f->params[k],
                                        steps[i].relative[k], &w->params[k])
                          : 0;
            if (err < 0)
                return err;
        }
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
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
    const bcw_unit *u = &model->units[o->unit];
    bcw_step *steps = NULL;
    unsigned nsteps = 0;
    bcw_usergen *gen = NULL;
    int err = o->generator
                  ? bcw__generator_open(&gen, o->generator, u, o->cache_dir)
                  : 0;
    if (err == 0)
        err = make_steps(&steps, &nsteps, u, gen);
    bcw_plan *plan = bcw__calloc(1, sizeof *plan);
    uint16_t *ctors = bcw__calloc(nsteps, sizeof *ctors);
    uint16_t *methods = bcw__calloc(nsteps, sizeof *methods);
    bool *mutator = bcw__calloc(nsteps, sizeof *mutator);
    bool *is_void = bcw__calloc(nsteps, sizeof *is_void);
    uint8_t *nout = bcw__calloc(nsteps, sizeof *nout);
    char *worker = NULL;
    bcw_pool *pool = NULL;
    sinks sk = {0};
    if (err < 0)
        goto done;
    if (!plan || !ctors || !methods || !mutator || !is_void || !nout) {
        err = BCW_ENOMEM;
        goto done;
    }
    if ((err = make_plan(plan, u, steps, nsteps)) < 0 ||
        (err = bcw__generator_plan(gen, plan, u, steps, nsteps)) < 0)
        goto done;
    plan->use_ffi = o->use_ffi != 0;
    bcw_walk_cfg cfg = {.kind = o->walk,
                        .depth = o->depth,
                        .ctors = ctors,
                        .methods = methods,
                        .mutator = mutator,
                        .returns_void = is_void,
                        .nout = nout,
                        .exec = exec,
                        .emit = emit,
                        .emit_payload = &sk,
                        .progress = o->progress,
                        .progress_payload = o->payload};
    for (unsigned i = 0; i < nsteps; i++) {
        const bcw_func *f = &u->funcs[steps[i].func];
        mutator[i] = f->role == BCW_ROLE_MUTATOR;
        is_void[i] = f->ret.kind == BCW_PK_NONE;
        for (unsigned k = 0; k < f->nparams; k++)
            nout[i] = (uint8_t)(nout[i] + (f->params[k].kind == BCW_PK_OUT));
        if (f->unwalkable != NULL)
            continue;
        if (f->role == BCW_ROLE_CONSTRUCTOR ||
            f->role == BCW_ROLE_INIT_CONSTRUCTOR || f->role == BCW_ROLE_EMPTY)
            ctors[cfg.nctors++] = (uint16_t)i;
        else if (f->role != BCW_ROLE_DESTRUCTOR)
            methods[cfg.nmethods++] = (uint16_t)i;
    }
    if (cfg.nctors == 0) {
        err = bcw__error(BCW_EINPUT,
                         "unit %s has no constructor bcwalk can "
                         "call",
                         u->name);
        goto done;
    }
    double t0 = now_s();
    if ((err = bcw__build_worker(&worker, model, o->bitcode, o->cache_dir)) < 0)
        goto done;
    if ((err = bcw__pool_new(&pool, worker, plan, o->jobs, o->timeout_ms)) < 0)
        goto done;
    sk.report = (bcw_reporter){.unit = u,
                               .steps = steps,
                               .gen = gen,
                               .walk = o->walk,
                               .depth = o->depth,
                               .timeout_ms = o->timeout_ms,
                               .format = o->format,
                               .f = o->report};
    if (o->results_path != NULL &&
        (err = bcw__results_open(&sk.results, o->results_path, u, steps, nsteps,
                                 o->walk, o->depth)) < 0)
        goto done;
    cfg.exec_payload = pool;
    /* the walk's clock starts when workers are up: build time is not
     * throughput */
    t0 = now_s();
    err = bcw__walk_run(out, &cfg);
    out->elapsed_s = now_s() - t0;
    out->worker_restarts = bcw__pool_restarts(pool);
    if (err == 0)
        err = bcw__report_summary(&sk.report, out);
done:
    if (sk.results != NULL) {
        int cerr = bcw__results_close(sk.results, err == 0 ? out : NULL);
        if (err == 0)
            err = cerr;
    }
    bcw__pool_free(pool);
    bcw__generator_free(gen);
    free(worker);
    free(steps);
    free(plan);
    free(ctors);
    free(methods);
    free(mutator);
    free(is_void);
    free(nout);
    return err;
}
