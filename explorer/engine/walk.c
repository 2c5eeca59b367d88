/* walk.c - breadth-first enumeration of a walk (walk.h).
 *
 * Level L holds the executed sequences of L methods, each a node pointing
 * at its parent in level L-1, so a sequence is its chain of parents.  A
 * level is built from the previous level's extendable nodes (normal,
 * and in the algebra walk ending in a constructor or mutator) times the
 * methods, executed in batches, then emitted in order.  Every sequence
 * of the full tree C x (1 u M u ... u M^k) that is not run is tallied as
 * discarded at the node where its prefix was cut.
 *
 * With state pruning, a node whose key (its concrete state and the
 * generator's position, from the worker) an earlier extendable node had
 * is emitted but not extended.  Levels run in order and a level's nodes
 * are decided in enumeration order, so the kept node of each key is the
 * first one breadth first, at the least depth: every state the full walk
 * reaches within the depth is still reached. */
#define _POSIX_C_SOURCE 200809L
#include "walk.h"

#include "alloc.h"
#include "file.h"
#include "hash.h"
#include "spill.h"
#include "stateset.h"

#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#define NO_PARENT UINT32_MAX
/* Jobs a group runs, per worker (at least GROUP_MIN_JOBS): enough that
 * a worker seldom waits at a group's end for a job slowed by crashes
 * run again alone (8 jobs a group cost cJSON's algebra walk 8%).  The
 * results of a job in flight only take memory (walker.bufs). */
#define JOBS_PER_WORKER 16
#define GROUP_MIN_JOBS 64
/* the sequences ending in an observer whose state the worker hashes
 * before and after the call: all up to this length, and beyond it one
 * in OBSERVER_SAMPLE, chosen by the hash of the sequence (the same
 * whatever part of the walk runs it: a shard, or the whole) */
#define OBSERVER_ALL_TO 6
#define OBSERVER_SAMPLE 16
/* subtrees per shard at the length where a walk is shared out: enough
 * that their sizes even out */
#define SHARD_SUBTREES 64
/* ... and when the shards prune together: what one shard's part prunes
 * the others' do too, so the walk is shared out as soon as each shard
 * has a subtree, the lengths before it run by every shard */
#define SYNC_SUBTREES 1

typedef struct node {
    uint32_t parent;
    uint16_t step;
    uint8_t outcome, signo;
    uint16_t halted_at;
    uint16_t flags;   /* NODE_* */
    uint32_t out_idx; /* into walker.outs, when the step has outs */
    uint64_t ret;
    uint32_t preds, known; /* design-state predicates after it */
    uint64_t state;        /* the concrete state's hash, 0: not computed */
} node;

#define NODE_PRUNED 1u  /* its key was seen: not extended */
#define NODE_IN_DTOR 2u /* halted in the destructor, its methods returned */
#define NODE_OBSERVER_CHANGED 4u /* its observer changed the state */
/* its last call ended the object (BCW_RESULT_ENDED): no teardown */
#define NODE_ENDED 16u
/* bits 5..7: destructors that refused its object before the one that
 * tore it down (BCW_RESULT_DTOR_TRIES) */
#define NODE_DTOR_SHIFT 5

typedef struct walker {
    const bcw_walk_cfg *cfg;
    node *nodes; /* nodes_a.p */
    size_t nnodes;
    uint64_t *outs; /* outs_a.p */
    size_t nouts;
    bcw_spill spill; /* the budget nodes and outs share */
    bcw_sarr nodes_a, outs_a;
    /* scratch for one batch group */
    uint16_t *words;
    size_t capwords;
    uint32_t *off;
    size_t capoff;
    /* the jobs' results and causes, BCW_MAX_BATCH of each a buffer: a
     * job takes one as it is prepared and gives it back once absorbed,
     * so the parent's memory holds the jobs in flight, not a group's */
    struct job_buf {
        bcw_wire_result *results;
        bcw_wire_cause *causes;
    } * bufs;
    size_t nbufs, capbufs;
    size_t *free_bufs; /* indexes into bufs */
    size_t nfree, capfree;
    /* the causes of halted nodes, in node order (find_cause) */
    struct halt_cause {
        size_t node;
        bcw_wire_cause cause;
    } * causes;
    size_t ncauses, capcauses;
    size_t cause_at; /* find_cause's position: nodes are emitted in order */
    bcw_job *jobs;
    size_t capjobs;
    struct fill *fills;
    size_t capfills;
    uint64_t calls;
    /* words a sequence's pins may take (cfg->pin), 0: none */
    size_t pin_words;
    /* the next level grown as this one's nodes are emitted: its error
     * (BCW_SPILL_FULL: no room for it) */
    int grow_err;
    /* shards pruning together (cfg->shard_sync): the level's nodes whose
     * keys this shard met first, each walked method's position in
     * cfg->methods (the whole walk's breadth-first order), and where
     * level 0 starts */
    struct first_key {
        size_t node;
        uint64_t key;
    } * firsts;
    size_t nfirsts, capfirsts;
    uint16_t *mpos;
    size_t root_start;
    /* the first node of this shard's own part (SIZE_MAX: not shared
     * out): its nodes' ancestors before it name their subtrees */
    size_t share_base;
    unsigned synced_to;  /* the lengths before it exchanged */
    bcw_stateset keys;   /* of the extended nodes, when pruning */
    bcw_stateset states; /* every concrete state reached */
    /* scratch for emitting one sequence */
    uint16_t steps[65536];
    uint64_t rets[65536];
    const uint64_t *outp[65536];
} walker;

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Sequences strictly below a node at level L: sum_{j=1..depth-L} m^j. */
static uint64_t subtree(unsigned m, unsigned depth, unsigned level)
{
    uint64_t sum = 0, p = 1;
    for (unsigned j = 1; level + j <= depth; j++) {
        p = sat_mul(p, m);
        sum = sat_add(sum, p);
    }
    return sum;
}

uint64_t bcw__walk_set_size(unsigned nctors, unsigned m, unsigned depth)
{
    return sat_mul(nctors, sat_add(1, subtree(m, depth, 0)));
}

double bcw__now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Room for `need` nodes, or outs: in memory within the walk's budget,
 * else in a file (spill.h). */
static int grow_nodes(walker *w, size_t need)
{
    int err = bcw__sarr_grow(&w->spill, &w->nodes_a, need, sizeof(node));
    w->nodes = w->nodes_a.p;
    return err;
}

static int grow_outs(walker *w, size_t need)
{
    int err = bcw__sarr_grow(&w->spill, &w->outs_a, need, sizeof(uint64_t));
    w->outs = w->outs_a.p;
    return err;
}

static unsigned chain(const walker *w, size_t i, uint16_t *steps)
{
    unsigned len = 0;
    for (size_t j = i; j != NO_PARENT; j = w->nodes[j].parent)
        len++;
    for (size_t j = i, k = len; j != NO_PARENT; j = w->nodes[j].parent)
        steps[--k] = w->nodes[j].step;
    return len - 1;
}

/* One job's share of a group: what fill_job encodes. */
typedef struct fill {
    struct walker *w;
    size_t node;  /* its first sequence's node */
    size_t first; /* and its index in the group */
    size_t n;
    size_t base; /* its first word */
    size_t buf;  /* its results' buffer (walker.bufs), once prepared */
} fill;

/* Node at's pins (proto.h's BCW_SEQ_PINNED) into q, its count first:
 * the values computed from the object that its earlier calls were
 * passed, as they reported them, and those cfg->pin gives its last call
 * (steps[0..len] its steps).  The words written. */
static size_t put_pins(walker *w, size_t at, const uint16_t *steps,
                       unsigned len, uint16_t *q)
{
    const bcw_walk_cfg *cfg = w->cfg;
    const node *nd = &w->nodes[at];
    uint64_t vals[BCW_MAX_PARAMS];
    uint64_t before = nd->parent != NO_PARENT ? w->nodes[nd->parent].state : 0;
    /* the oracle is asked only for a call that has values to pin */
    uint8_t relative = cfg->step[nd->step].relative;
    uint32_t mask =
        relative != 0
            ? cfg->pin(cfg->pin_payload, steps, len, before, vals) & relative
            : 0;
    size_t n = 1;
    unsigned k = len;
    for (size_t j = at; j != NO_PARENT; j = w->nodes[j].parent, k--) {
        const node *a = &w->nodes[j];
        const uint64_t *v = vals;
        if (j != at) {
            /* a call of the prefix: run, and so reported, unless planted */
            mask = k >= cfg->nprefix ? cfg->step[a->step].relative : 0;
            v = &w->outs[a->out_idx];
        }
        for (; mask != 0; mask &= mask - 1) {
            unsigned p = (unsigned)__builtin_ctz(mask);
            q[n] = (uint16_t)k;
            q[n + 1] = (uint16_t)p;
            for (unsigned b = 0; b < 4; b++)
                q[n + 2 + b] = (uint16_t)(v[p] >> 16 * b);
            n += BCW_PIN_WORDS;
        }
    }
    q[0] = (uint16_t)((n - 1) / BCW_PIN_WORDS);
    return n;
}

/* A results buffer for a job, into *at: one given back, or a new one. */
static int take_buf(walker *w, size_t *at)
{
    if (w->nfree > 0) {
        *at = w->free_bufs[--w->nfree];
        return 0;
    }
    if (bcw__grow(&w->bufs, &w->capbufs, w->nbufs + 1, sizeof *w->bufs) < 0 ||
        bcw__grow(&w->free_bufs, &w->capfree, w->nbufs + 1,
                  sizeof *w->free_bufs) < 0)
        return BCW_ENOMEM;
    struct job_buf b = {
        bcw__calloc(BCW_MAX_BATCH, sizeof *b.results),
        bcw__calloc(BCW_MAX_BATCH, sizeof *b.causes),
    };
    if (b.results == NULL || b.causes == NULL) {
        free(b.results);
        free(b.causes);
        return BCW_ENOMEM;
    }
    *at = w->nbufs;
    w->bufs[w->nbufs++] = b;
    return 0;
}

/* A bcw_job's prepare: encodes its sequences as the protocol wants
 * them (length, constructor, methods, pins), offsets from its first
 * word. */
static int fill_job(bcw_job *job)
{
    fill *f = job->ctx;
    walker *w = f->w;
    int err = take_buf(w, &f->buf);
    if (err < 0)
        return err;
    job->results = w->bufs[f->buf].results;
    job->causes = w->bufs[f->buf].causes;
    size_t words = f->base;
    for (size_t i = 0; i < f->n; i++) {
        w->off[f->first + i] = (uint32_t)(words - f->base);
        unsigned len = chain(w, f->node + i, &w->words[words + 1]);
        uint16_t last = w->words[words + 1 + len];
        /* some sequences ending in an observer have the worker check it */
        uint16_t check = 0;
        if (len > 0 && w->cfg->step[last].observer &&
            (len <= OBSERVER_ALL_TO || w->cfg->check_observers ||
             bcw__hash(&w->words[words + 1], (len + 1) * sizeof *w->words, 0) %
                     OBSERVER_SAMPLE ==
                 0))
            check = BCW_SEQ_CHECK_OBSERVER;
        uint16_t pinned = w->pin_words > 0 ? BCW_SEQ_PINNED : 0;
        w->words[words] = (uint16_t)(len | check | pinned);
        if (pinned)
            words += put_pins(w, f->node + i, &w->words[words + 1], len,
                              &w->words[words + len + 2]);
        words += len + 2;
    }
    return 0;
}

/* Words a sequence of up to `calls` calls takes, its pins included. */
static size_t seq_words(const walker *w, size_t calls)
{
    return calls + 1 + (w->pin_words > 0 ? 1 + w->pin_words * calls : 0);
}

/* Sequences per job: a full batch, unless long sequences would overflow
 * the job's word area. */
static size_t job_size(size_t words)
{
    size_t by_words = BCW_MAX_SEQ_WORDS / words;
    return by_words < BCW_MAX_BATCH ? by_words : BCW_MAX_BATCH;
}

/* Did node nd's calls all return, or only its destructor halt?  The
 * extensions of the latter end with the next destructor in turn: they
 * are run. */
static bool ran(const node *nd)
{
    return nd->outcome == BCW_RUN_NORMAL || (nd->flags & NODE_IN_DTOR);
}

static bool extendable(const bcw_walk_cfg *cfg, const node *nd, unsigned level)
{
    if (!ran(nd))
        return false;
    return cfg->kind == BCW_WALK_PROTOCOL || level == 0 ||
           cfg->step[nd->step].mutator;
}

/* Records node nd's concrete state from its result r, and prunes it
 * when its key was seen; nodes come in enumeration order. */
static int note_state(walker *w, node *nd, const bcw_wire_result *r,
                      unsigned level)
{
    const bcw_walk_cfg *cfg = w->cfg;
    bool added;
    nd->state = nd->outcome == BCW_RUN_NORMAL ? r->state : 0;
    if (nd->state == 0)
        return 0;
    int err = bcw__stateset_add(&w->states, nd->state, &added);
    /* an observer must leave the state as it found it: the worker hashed
     * both in the same run */
    if (err == 0 && cfg->step[nd->step].observer &&
        (r->flags & BCW_RESULT_OBSERVER_CHANGED)) {
        nd->flags |= NODE_OBSERVER_CHANGED;
        if (cfg->seen != NULL)
            cfg->seen[nd->step].changed++;
    }
    /* only nodes that would grow may stand for others: a state first
     * reached by an observer in the algebra walk is not a reason to cut */
    if (err == 0 && cfg->prune_state && r->key != 0 && level < cfg->depth &&
        extendable(cfg, nd, level)) {
        err = bcw__stateset_add(&w->keys, r->key, &added);
        if (err == 0 && !added)
            nd->flags |= NODE_PRUNED;
        if (err == 0 && added && w->mpos != NULL) {
            if (bcw__grow(&w->firsts, &w->capfirsts, w->nfirsts + 1,
                          sizeof *w->firsts) < 0)
                return BCW_ENOMEM;
            w->firsts[w->nfirsts++] =
                (struct first_key){(size_t)(nd - w->nodes), r->key};
        }
    }
    return err;
}

size_t bcw__walk_bytes_per_sequence(void)
{
    /* arrays grow by doubling: up to twice what they hold */
    return 2 * sizeof(node) + (BCW_MAX_PARAMS + BCW_SEQ_TEXT_WORDS) * 8;
}

/* What a group's jobs are absorbed into: its first node, its length;
 * the summary its nodes are emitted into, and whether the next level
 * grows from them as they are. */
typedef struct absorbing {
    walker *w;
    size_t from;
    unsigned level;
    bcw_summary *out;
    bool grow;
} absorbing;

/* Node from + i takes the result r of the group's sequence i, with its
 * cause c. */
static int absorb(walker *w, size_t from, size_t i, unsigned level,
                  const bcw_wire_result *r, const bcw_wire_cause *c)
{
    const bcw_walk_cfg *cfg = w->cfg;
    node *nd = &w->nodes[from + i];
    nd->outcome = r->outcome;
    nd->signo = r->signo;
    nd->halted_at = r->halted_at;
    /* the methods before it: the level's, after the prefix */
    unsigned len = level + cfg->nprefix;
    if (r->outcome != BCW_RUN_NORMAL && r->halted_at >= len + 1u)
        nd->flags |= NODE_IN_DTOR;
    if (r->flags & BCW_RESULT_ENDED)
        nd->flags |= NODE_ENDED;
    nd->flags |= (uint16_t)(((r->flags & BCW_RESULT_DTOR_TRIES) >>
                             BCW_RESULT_DTOR_SHIFT)
                            << NODE_DTOR_SHIFT);
    if (cfg->seen != NULL && (r->flags & BCW_RESULT_ENDED))
        cfg->seen[nd->step].ended++;
    if (cfg->seen != NULL && (r->flags & BCW_RESULT_REPLACED))
        cfg->seen[nd->step].replaced++;
    /* a halt's cause, or a normal sequence's leak */
    if ((r->flags & BCW_RESULT_CAUSE) &&
        (r->outcome != BCW_RUN_NORMAL || (r->flags & BCW_RESULT_LEAK))) {
        if (bcw__grow(&w->causes, &w->capcauses, w->ncauses + 1,
                      sizeof *w->causes) < 0)
            return BCW_ENOMEM;
        w->causes[w->ncauses++] = (struct halt_cause){from + i, *c};
    }
    nd->ret = r->ret;
    nd->preds = r->preds;
    nd->known = r->known;
    w->calls += r->calls;
    const bcw_walk_step *ws = &cfg->step[nd->step];
    if (ws->nout > 0 || ws->text) {
        size_t words = BCW_MAX_PARAMS + (ws->text ? BCW_SEQ_TEXT_WORDS : 0);
        int gerr = grow_outs(w, w->nouts + words);
        if (gerr < 0)
            return gerr;
        nd->out_idx = (uint32_t)w->nouts;
        uint64_t *o = &w->outs[w->nouts];
        memcpy(o, r->out, sizeof r->out);
        if (ws->text) {
            o[BCW_MAX_PARAMS] = (uint64_t)((r->flags & BCW_RESULT_TEXT) != 0) |
                                (uint64_t)r->text_of << 8 |
                                (uint64_t)r->ntext << 16 |
                                (uint64_t)(r->text_cut != 0) << 24;
            memcpy(&o[BCW_MAX_PARAMS + 1], r->text, sizeof r->text);
        }
        w->nouts += words;
    }
    return note_state(w, nd, r, level);
}

static int finish_node(walker *w, size_t i, unsigned level, bcw_summary *out,
                       bool grow);

/* A job of the group finished (in order, while the workers run the
 * jobs after it): its nodes take their results, and are emitted (and
 * the next level grown from them) in order. */
static int absorb_job(void *ctx, bcw_job *job)
{
    const absorbing *a = ctx;
    walker *w = a->w;
    const fill *f = &w->fills[job - w->jobs];
    const struct job_buf *b = &w->bufs[f->buf];
    int err = 0;
    for (size_t i = 0; err == 0 && i < f->n; i++)
        err = absorb(w, a->from, f->first + i, a->level, &b->results[i],
                     &b->causes[i]);
    /* taken in: its buffer goes to the next job prepared */
    w->free_bufs[w->nfree++] = f->buf;
    for (size_t i = f->first; err == 0 && a->out != NULL && i < f->first + f->n;
         i++)
        err = finish_node(a->w, a->from + i, a->level, a->out, a->grow);
    return err;
}

/* Executes nodes [from, to) of `level` in jobs of job_size() sequences,
 * emitting them into `out` (and growing the next level from them when
 * `grow`) as their jobs finish; out NULL: not yet. */
static int execute(walker *w, size_t from, size_t to, unsigned level,
                   bcw_summary *out, bool grow)
{
    const bcw_walk_cfg *cfg = w->cfg;
    size_t maxw = seq_words(w, cfg->depth + cfg->nprefix + 1);
    size_t n = to - from, per = job_size(maxw);
    size_t njobs = (n + per - 1) / per;
    if (bcw__grow(&w->jobs, &w->capjobs, njobs, sizeof *w->jobs) < 0 ||
        bcw__grow(&w->off, &w->capoff, n, sizeof *w->off) < 0 ||
        bcw__grow(&w->words, &w->capwords, n * maxw, sizeof *w->words) < 0)
        return BCW_ENOMEM;
    if (bcw__grow(&w->fills, &w->capfills, njobs, sizeof *w->fills) < 0)
        return BCW_ENOMEM;
    for (size_t j = 0; j < njobs; j++) {
        size_t first = j * per, end = first + per < n ? first + per : n;
        /* each job its own stretch of words: jobs fill independently */
        w->fills[j] = (fill){w, from + first, first, end - first, first * maxw};
        w->jobs[j] = (bcw_job){.words = &w->words[first * maxw],
                               .off = &w->off[first],
                               .nseq = (uint32_t)(end - first),
                               .prepare = fill_job,
                               .ctx = &w->fills[j]};
    }
    absorbing a = {w, from, level, out, grow};
    return cfg->exec(cfg->exec_payload, w->jobs, njobs, absorb_job, &a);
}

/* Sequence steps[0..len] halted in call `at` (or leaked: at is past its
 * calls): did it halt after a call given an argument bcwalk fabricated
 * (s->suspect), or in a call given the target as another argument of
 * its own type, or after one that may have changed the target so
 * (s->aliasing)? */
static void halted_after(const bcw_walk_cfg *cfg, unsigned at,
                         const uint16_t *steps, bcw_seq *s)
{
    for (unsigned k = 0; k <= s->len && k <= at; k++) {
        const bcw_walk_step *st = &cfg->step[steps[k]];
        s->suspect = s->suspect || st->fabricates;
        s->aliasing =
            s->aliasing || st->aliases == 2 || (st->aliases == 1 && k == at);
    }
}

/* The cause the worker gave for node i's halt or leak, or NULL.  Nodes
 * are emitted in increasing order, as their causes were recorded: a
 * cursor, not a search, and the causes behind it are dropped. */
static const bcw_wire_cause *find_cause(walker *w, size_t i)
{
    while (w->cause_at < w->ncauses && w->causes[w->cause_at].node < i)
        w->cause_at++;
    /* all behind the cursor, none is asked again: the list starts over
     * (it holds the halts of the nodes not yet emitted, not the walk's) */
    if (w->cause_at == w->ncauses)
        w->ncauses = w->cause_at = 0;
    return w->cause_at < w->ncauses && w->causes[w->cause_at].node == i
               ? &w->causes[w->cause_at].cause
               : NULL;
}

/* The subtree node i is in (bcw_seq.part): its ancestor before the
 * share-out. */
static uint64_t part_of(const walker *w, size_t i)
{
    if (i < w->share_base)
        return BCW_SEQ_EVERY_SHARD;
    while (i >= w->share_base)
        i = w->nodes[i].parent;
    return i;
}

static int emit(walker *w, size_t i, bcw_summary *sum)
{
    const bcw_walk_cfg *cfg = w->cfg;
    const node *nd = &w->nodes[i];
    /* a node with a parent ends a sequence of at least one method */
    bool predicted = nd->outcome == BCW_RUN_NORMAL &&
                     cfg->kind == BCW_WALK_ALGEBRA && nd->parent != NO_PARENT &&
                     cfg->step[nd->step].returns_void;
    bcw_seq s = {0};
    bool halted =
        nd->outcome != BCW_RUN_NORMAL && nd->outcome != BCW_RUN_REJECTED;
    const bcw_wire_cause *leak =
        nd->outcome == BCW_RUN_NORMAL ? find_cause(w, i) : NULL;
    if (halted || leak != NULL || cfg->emit != NULL) {
        s.len = chain(w, i, w->steps);
        if (halted || leak != NULL) {
            halted_after(cfg, halted ? nd->halted_at : UINT16_MAX, w->steps,
                         &s);
        }
    }
    /* a call not made (its argument's category had no value on the
     * object) is no halt of the library: counted apart */
    if (nd->outcome == BCW_RUN_NORMAL)
        sum->normal++;
    else if (nd->outcome == BCW_RUN_REJECTED && nd->signo == BCW_SIG_UNMET)
        sum->unmet++;
    else
        sum->terminated++;
    sum->leaking += leak != NULL;
    sum->suspect += s.suspect;
    sum->aliasing += s.aliasing;
    sum->predicted_void += predicted;
    if (cfg->emit == NULL)
        return 0; /* nobody reads the sequences: counted only */
    size_t j = i;
    for (unsigned k = s.len + 1; k-- > 0; j = w->nodes[j].parent) {
        const node *a = &w->nodes[j];
        bool seen = k >= cfg->nprefix; /* prefix calls are not observed */
        w->rets[k] = seen ? a->ret : 0;
        w->outp[k] =
            seen && (cfg->step[a->step].nout || cfg->step[a->step].text)
                ? &w->outs[a->out_idx]
                : NULL;
    }
    s.nprefix = cfg->nprefix;
    s.preds = nd->preds;
    s.known = nd->known;
    s.steps = w->steps;
    s.rets = w->rets;
    s.outs = w->outp;
    s.outcome = nd->outcome;
    s.signo = nd->signo;
    s.halted_at = nd->halted_at;
    s.cause = halted ? find_cause(w, i) : NULL;
    s.leak = leak;
    s.state = nd->state;
    s.before = nd->parent != NO_PARENT ? w->nodes[nd->parent].state : 0;
    s.pruned = (nd->flags & NODE_PRUNED) != 0;
    s.observer_changed = (nd->flags & NODE_OBSERVER_CHANGED) != 0;
    s.ended = (nd->flags & NODE_ENDED) != 0;
    s.dtor_tries = (uint8_t)(nd->flags >> NODE_DTOR_SHIFT & 7);
    s.predicted = predicted;
    s.part = part_of(w, i);
    int err = cfg->emit(cfg->emit_payload, &s);
    if (err == BCW_EMIT_EXTEND) {
        w->nodes[i].flags &= (uint16_t)~NODE_PRUNED;
        err = 0;
    }
    return err;
}

/* Level 0 into the tree, from *start: with a prefix, each constructor
 * and all but the last prefix step first (chains that are neither run
 * nor emitted), then each chain's last prefix step; without one, each
 * constructor. */
static int plant_roots(walker *w, size_t *start)
{
    const bcw_walk_cfg *cfg = w->cfg;
    int err = 0;
    uint32_t *ends = NULL;
    if (cfg->nprefix > 0 &&
        (ends = bcw__calloc(cfg->nctors, sizeof *ends)) == NULL)
        err = BCW_ENOMEM;
    for (unsigned c = 0; c < cfg->nctors && ends && err == 0; c++) {
        err = grow_nodes(w, w->nnodes + cfg->nprefix);
        for (unsigned k = 0; k < cfg->nprefix && err == 0; k++) {
            uint32_t parent = k == 0 ? NO_PARENT : (uint32_t)(w->nnodes - 1);
            w->nodes[w->nnodes++] =
                (node){.parent = parent,
                       .step = k == 0 ? cfg->ctors[c] : cfg->prefix[k - 1]};
        }
        ends[c] = (uint32_t)(w->nnodes - 1);
    }
    *start = w->nnodes;
    for (unsigned c = 0; c < cfg->nctors && err == 0; c++) {
        err = grow_nodes(w, w->nnodes + 1);
        if (err == 0)
            w->nodes[w->nnodes++] =
                ends ? (node){.parent = ends[c],
                              .step = cfg->prefix[cfg->nprefix - 1]}
                     : (node){.parent = NO_PARENT, .step = cfg->ctors[c]};
    }
    free(ends);
    return err;
}

/* Node p's children into the tree, at `level`: every method the model
 * (if any) allows after it. */
static int grow_children(walker *w, size_t p, unsigned level, bcw_summary *out)
{
    const bcw_walk_cfg *cfg = w->cfg;
    int err = grow_nodes(w, w->nnodes + cfg->nmethods);
    unsigned len = cfg->extends != NULL ? chain(w, p, w->steps) : 0;
    for (unsigned m = 0; m < cfg->nmethods && err == 0; m++) {
        if (cfg->extends != NULL &&
            !cfg->extends(cfg->extends_payload, w->steps, len,
                          cfg->methods[m])) {
            uint64_t cut =
                sat_add(1, subtree(cfg->nmethods, cfg->depth, level));
            out->discarded = sat_add(out->discarded, cut);
            out->pruned_model = sat_add(out->pruned_model, cut);
            continue;
        }
        w->nodes[w->nnodes++] =
            (node){.parent = (uint32_t)p, .step = cfg->methods[m]};
    }
    return err;
}

/* Level `level` into the tree: the extendable nodes of the level before
 * it, [prev_start, prev_end), each followed by every method the model
 * (if any) allows.  *shared: the walk is shared out already (this
 * shard's part is its own subtrees). */
static int grow_level(walker *w, size_t prev_start, size_t prev_end,
                      unsigned level, bool *shared, bcw_summary *out)
{
    const bcw_walk_cfg *cfg = w->cfg;
    int err = 0;
    /* shared out at the first length with enough subtrees: the lengths
     * before it are every shard's, so each decides alike */
    uint64_t nth = 0, grow = 0;
    for (size_t p = prev_start; p < prev_end && !*shared; p++)
        grow += extendable(cfg, &w->nodes[p], level - 1) &&
                !(w->nodes[p].flags & NODE_PRUNED);
    bool share =
        cfg->shard_n > 1 && !*shared &&
        grow >= (uint64_t)(w->mpos != NULL ? SYNC_SUBTREES : SHARD_SUBTREES) *
                    cfg->shard_n;
    *shared = *shared || share;
    if (share) {
        w->share_base = w->nnodes;
        if (cfg->shared_from != NULL) {
            *cfg->shared_from = *out;
            cfg->shared_from->calls = w->calls;
        }
    }
    for (size_t p = prev_start; p < prev_end && err == 0; p++) {
        if (!extendable(cfg, &w->nodes[p], level - 1) ||
            (w->nodes[p].flags & NODE_PRUNED))
            continue;
        if (share && nth++ % cfg->shard_n != cfg->shard_i)
            continue;
        err = grow_children(w, p, level, out);
    }
    return err;
}

/* Executes the level's nodes [start, end) in groups of jobs, reporting
 * progress after each group; its nodes are emitted into `out`, and the
 * next level grown from them when `grow`, as they finish. */
static int run_level(walker *w, size_t start, size_t end, unsigned level,
                     bcw_progress *prog, double t0, bcw_summary *out, bool grow)
{
    const bcw_walk_cfg *cfg = w->cfg;
    int err = 0;
    size_t jobs = (size_t)JOBS_PER_WORKER * cfg->workers;
    size_t group =
        (jobs > GROUP_MIN_JOBS ? jobs : GROUP_MIN_JOBS) * BCW_MAX_BATCH;
    for (size_t from = start; from < end && err == 0; from += group) {
        size_t to = from + group < end ? from + group : end;
        err = execute(w, from, to, level, out, grow);
        prog->done += to - from;
        prog->calls = w->calls;
        prog->level_done = to - start;
        prog->level_size = end - start;
        prog->states = w->states.len;
        prog->elapsed_s = bcw__now_s() - t0;
        if (err == 0 && cfg->progress)
            cfg->progress(prog, cfg->progress_payload);
    }
    return err;
}

/* Emits node i of `level` (nodes come in order), tallies the sequences
 * below it that will not run, by why, and when `grow` puts its children
 * into the next level; no room for them (BCW_SPILL_FULL) stops the
 * growing, and is the next level's w->grow_err. */
static int finish_node(walker *w, size_t i, unsigned level, bcw_summary *out,
                       bool grow)
{
    const bcw_walk_cfg *cfg = w->cfg;
    int err = emit(w, i, out);
    const node *nd = &w->nodes[i];
    uint64_t below = subtree(cfg->nmethods, cfg->depth, level);
    if (!ran(nd)) {
        out->discarded = sat_add(out->discarded, below);
    } else if (!extendable(cfg, nd, level)) {
        out->discarded = sat_add(out->discarded, below);
        out->pruned_observer = sat_add(out->pruned_observer, below);
    } else if (nd->flags & NODE_PRUNED) {
        out->discarded = sat_add(out->discarded, below);
        out->pruned_state = sat_add(out->pruned_state, below);
    } else if (grow && err == 0 && w->grow_err == 0) {
        w->grow_err = grow_children(w, i, level + 1, out);
        if (w->grow_err != BCW_SPILL_FULL)
            err = w->grow_err;
    }
    return err;
}

/* Shards pruning together (cfg->shard_sync).  A node's place in the
 * whole walk's breadth-first order, among the nodes of its length: its
 * level-0 ancestor's index, then the position in cfg->methods of each
 * method after it; two nodes of one length compare as these paths do,
 * lexicographically. */
static void path_of(const walker *w, size_t i, unsigned level, uint16_t *out)
{
    for (unsigned k = level; k > 0; k--) {
        out[k] = w->mpos[w->nodes[i].step];
        i = w->nodes[i].parent;
    }
    out[0] = (uint16_t)(i - w->root_start);
}

#define SYNC_MAGIC 0x53574342u /* "BCWS" */

/* The exchange file of `level` from shard `shard`. */
static char *sync_path(const walker *w, unsigned level, unsigned shard)
{
    return bcw__sprintf("%s/length-%u.shard-%u.keys", w->cfg->shard_sync, level,
                        shard);
}

/* This shard's file of `level`: the keys it met first, each with its
 * node's path (a key, then level + 1 16-bit positions). */
static int sync_write(walker *w, unsigned level)
{
    size_t rec = 8 + 2 * ((size_t)level + 1), n = w->nfirsts;
    size_t len = 16 + n * rec;
    unsigned char *data = bcw__malloc(len);
    char *path = sync_path(w, level, w->cfg->shard_i);
    int err = data != NULL && path != NULL ? 0 : BCW_ENOMEM;
    if (err == 0) {
        uint32_t head[4] = {SYNC_MAGIC, level, w->cfg->shard_i, (uint32_t)n};
        memcpy(data, head, sizeof head);
        for (size_t k = 0; k < n; k++) {
            unsigned char *at = data + 16 + k * rec;
            memcpy(at, &w->firsts[k].key, 8);
            path_of(w, w->firsts[k].node, level, w->steps);
            memcpy(at + 8, w->steps, rec - 8);
        }
        err = bcw__write_file_atomic(path, data, len);
    }
    free(data);
    free(path);
    return err;
}

/* The file a shard that stopped on an error leaves (sync_failed). */
static char *failed_path(const walker *w, unsigned shard)
{
    return bcw__sprintf("%s/shard-%u.failed", w->cfg->shard_sync, shard);
}

/* This shard stopped on an error: the others, waiting for its keys,
 * stop too instead of waiting for ever. */
static void sync_failed(walker *w, int err)
{
    char *msg = bcw__strdup(bcw_error_last());
    char *path = failed_path(w, w->cfg->shard_i);
    if (msg != NULL && path != NULL &&
        bcw__write_file_atomic(path, msg, strlen(msg)) < 0)
        bcw__error(err, "%s", msg); /* the walk's error, not the file's */
    free(msg);
    free(path);
}

/* Shard `shard`'s file of `level`, waited for: that shard is slower, or
 * has not started yet; unless it stopped on an error.  *data and *n its
 * entries. */
static int sync_read(walker *w, unsigned level, unsigned shard, char **data,
                     size_t *n)
{
    char *path = sync_path(w, level, shard);
    char *failed = failed_path(w, shard);
    if (path == NULL || failed == NULL) {
        free(path);
        free(failed);
        return BCW_ENOMEM;
    }
    size_t rec = 8 + 2 * ((size_t)level + 1), len = 0;
    int err;
    /* written by a rename: there, it is whole */
    for (;;) {
        if (access(path, F_OK) == 0) {
            err = bcw__read_file(data, &len, path, SIZE_MAX / 2);
            break;
        }
        if (access(failed, F_OK) == 0) {
            err = bcw__error(BCW_ERROR,
                             "shard %u/%u stopped on an error (%s): the "
                             "shards pruning together stop with it",
                             shard, w->cfg->shard_n, failed);
            break;
        }
        struct timespec t = {0, 20 * 1000 * 1000};
        nanosleep(&t, NULL);
    }
    free(failed);
    uint32_t head[4] = {0};
    if (err == 0 && len >= 16)
        memcpy(head, *data, sizeof head);
    if (err == 0 && (len < 16 || head[0] != SYNC_MAGIC || head[1] != level ||
                     head[2] != shard || (len - 16) % rec != 0 ||
                     (len - 16) / rec != head[3]))
        err = bcw__error(BCW_EINPUT,
                         "%s: not the keys of length %u from shard %u of "
                         "this walk (--shard-sync: a folder for the shards "
                         "of one walk, run at once)",
                         path, level, shard);
    *n = err == 0 ? head[3] : 0;
    free(path);
    return err;
}

/* After `level`, run apart: this shard's first keys out, every other
 * shard's in.  A key another shard met first at this length, earlier in
 * the whole walk's order, prunes this shard's node; every key met joins
 * those the next lengths prune by. */
static int sync_level(walker *w, unsigned level)
{
    const bcw_walk_cfg *cfg = w->cfg;
    int err = sync_write(w, level);
    bcw_index mine = {0};
    for (size_t k = 0; err == 0 && k < w->nfirsts; k++)
        err = bcw__index_put(&mine, w->firsts[k].key, (uint32_t)k);
    size_t rec = 8 + 2 * ((size_t)level + 1);
    for (unsigned s = 0; err == 0 && s < cfg->shard_n; s++) {
        if (s == cfg->shard_i)
            continue;
        char *data = NULL;
        size_t n = 0;
        err = sync_read(w, level, s, &data, &n);
        for (size_t k = 0; err == 0 && k < n; k++) {
            const char *at = data + 16 + k * rec;
            uint64_t key;
            bool added;
            memcpy(&key, at, 8);
            uint32_t m = bcw__index_get(&mine, key, NULL, NULL);
            if (m != UINT32_MAX) {
                uint16_t theirs[BCW_SEQ_LEN_MASK + 1];
                memcpy(theirs, at + 8, rec - 8);
                path_of(w, w->firsts[m].node, level, w->steps);
                unsigned d = 0;
                while (d <= level && theirs[d] == w->steps[d])
                    d++;
                if (d <= level && theirs[d] < w->steps[d])
                    w->nodes[w->firsts[m].node].flags |= NODE_PRUNED;
            }
            err = bcw__stateset_add(&w->keys, key, &added);
        }
        free(data);
    }
    bcw__index_free(&mine);
    w->nfirsts = 0;
    w->synced_to = level + 1;
    return err;
}

static void walker_free(walker *w)
{
    bcw__stateset_clear(&w->keys);
    bcw__stateset_clear(&w->states);
    bcw__sarr_free(&w->spill, &w->nodes_a, sizeof(node));
    bcw__sarr_free(&w->spill, &w->outs_a, sizeof(uint64_t));
    free(w->words);
    free(w->off);
    for (size_t b = 0; b < w->nbufs; b++) {
        free(w->bufs[b].results);
        free(w->bufs[b].causes);
    }
    free(w->bufs);
    free(w->free_bufs);
    free(w->causes);
    free(w->jobs);
    free(w->fills);
    free(w->firsts);
    free(w->mpos);
    free(w);
}

int bcw__walk_run(bcw_summary *out, const bcw_walk_cfg *cfg)
{
    memset(out, 0, sizeof *out);
    walker *w = bcw__calloc(1, sizeof *w);
    if (w == NULL)
        return BCW_ENOMEM;
    w->cfg = cfg;
    w->share_base = SIZE_MAX;
    w->spill.budget = cfg->memory;
    /* pins: the most a call of the walk may take */
    unsigned nsteps = cfg->nctors + cfg->nmethods + cfg->nprefix;
    for (unsigned i = 0; cfg->pin != NULL && i < nsteps; i++) {
        uint16_t st = i < cfg->nctors ? cfg->ctors[i]
                      : i < cfg->nctors + cfg->nmethods
                          ? cfg->methods[i - cfg->nctors]
                          : cfg->prefix[i - cfg->nctors - cfg->nmethods];
        size_t most =
            BCW_PIN_WORDS * (size_t)__builtin_popcount(cfg->step[st].relative);
        w->pin_words = most > w->pin_words ? most : w->pin_words;
    }
    int err = 0;
    /* shards pruning together emit a length after its exchange */
    bool sync = cfg->shard_sync != NULL && cfg->shard_n > 1 && cfg->prune_state;
    if (sync &&
        (w->mpos = bcw__calloc(UINT16_MAX + 1, sizeof *w->mpos)) == NULL)
        err = BCW_ENOMEM;
    if (sync && err == 0)
        err = bcw__mkdir_p(cfg->shard_sync);
    for (unsigned m = 0; sync && err == 0 && m < cfg->nmethods; m++)
        w->mpos[cfg->methods[m]] = (uint16_t)m;
    double t0 = bcw__now_s();
    bcw_progress prog = {.depth = cfg->depth};
    size_t start = 0, end = 0;
    bool shared = false; /* this shard's part is its own subtrees */
    /* the level was grown as the one before it ran: each node's children
     * as it was emitted, while the workers ran the jobs after it */
    bool grown = false;
    for (unsigned level = 0; level <= cfg->depth && err == 0; level++) {
        size_t prev_start = start, prev_end = end;
        start = grown ? end : w->nnodes;
        err = grown ? w->grow_err
              : level == 0
                  ? plant_roots(w, &start)
                  : grow_level(w, prev_start, prev_end, level, &shared, out);
        end = w->nnodes;
        if (level == 0)
            w->root_start = start;
        if (err == BCW_SPILL_FULL) {
            /* no room on disk for this length: the walk stops before it */
            if (cfg->stopped != NULL)
                *cfg->stopped = level;
            out->spill_full = 1;
            w->nnodes = start;
            err = 0;
            break;
        }
        if (err < 0 || end == start)
            break;
        if (w->spill.spilled && out->spilled_at == 0)
            out->spilled_at = level;
        if (cfg->budget > 0 && prog.done + (end - start) > cfg->budget) {
            if (cfg->stopped != NULL)
                *cfg->stopped = level;
            w->nnodes = start;
            break;
        }
        prog.length = level;
        /* a walk shared out among shards decides its share of the
         * length that first has enough subtrees from all of it */
        grown = !sync && level < cfg->depth && (cfg->shard_n <= 1 || shared);
        w->grow_err = 0;
        w->nfirsts = 0;
        err = run_level(w, start, end, level, &prog, t0, sync ? NULL : out,
                        grown);
        if (err == 0 && sync && shared && level < cfg->depth)
            err = sync_level(w, level);
        for (size_t i = start; err == 0 && sync && i < end; i++)
            err = finish_node(w, i, level, out, false);
    }
    /* a part that ended before the walk's depth (nothing left to
     * extend, or stopped) met no keys at the lengths after it: the other
     * shards are told so, not left waiting */
    for (unsigned l = w->synced_to;
         err == 0 && sync && shared && l < cfg->depth; l++) {
        w->nfirsts = 0;
        err = sync_write(w, l);
    }
    if (err < 0 && sync && w->mpos != NULL)
        sync_failed(w, err);
    out->calls = w->calls;
    out->concrete_states = w->states.len;
    out->prune_state = cfg->prune_state;
    walker_free(w);
    return err;
}

const char *bcw__walk_name(enum bcw_walk_kind kind)
{
    return kind == BCW_WALK_ALGEBRA   ? "algebra"
           : kind == BCW_WALK_STATE   ? "state"
           : kind == BCW_WALK_LEARNED ? "learned"
                                      : "protocol";
}

const char *bcw__outcome_name(unsigned outcome)
{
    static const char *const names[] = {"normal", "crash",    "abort",
                                        "hang",   "rejected", "failure"};
    return outcome < sizeof names / sizeof names[0] ? names[outcome] : "?";
}

/* Walks prune by concrete state from this depth on, unless told. */
#define PRUNE_FROM_DEPTH 6

bool bcw__walk_prunes(enum bcw_prune prune, unsigned depth, bool generator)
{
    switch (prune) {
    case BCW_PRUNE_STATE:
        return true;
    case BCW_PRUNE_NONE:
        return false;
    default:
        /* a custom generator's values may depend on how often it was
         * asked, which the state's key cannot see */
        return depth >= PRUNE_FROM_DEPTH && !generator;
    }
}

uint64_t bcw__walk_memory(unsigned mb)
{
    uint64_t bytes = (uint64_t)mb << 20;
    if (bytes == 0) {
        long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        bytes = pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size / 2
                                      : (uint64_t)1 << 32;
    }
    return bytes;
}

int bcw__walk_fits(const bcw_walk_cfg *c, unsigned nctors, unsigned nmethods)
{
    if (c->prune_state || c->kind == BCW_WALK_STATE ||
        c->kind == BCW_WALK_LEARNED)
        return 0;
    uint64_t n = bcw__walk_set_size(nctors, nmethods, c->depth);
    double need = (double)n * (double)bcw__walk_bytes_per_sequence();
    const char *dir = bcw__tmp_dir();
    struct statvfs fs;
    double disk =
        statvfs(dir, &fs) == 0 ? (double)fs.f_bavail * (double)fs.f_frsize : 0;
    double mem = (double)c->memory;
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
