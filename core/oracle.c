/* oracle.c - the oracle store (bcwalk/oracle.h, docs/oracle.md): its
 * entries in memory with a hash index by key, the msgpack file, and its
 * JSON dump. */
#define _POSIX_C_SOURCE 200809L
#include "bcwalk/oracle.h"

#include <msgpack.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "file.h"
#include "hash.h"
#include "pack.h"
#include "text.h"
#include "unpack.h"

#define ORACLE_FORMAT "bcwalk-oracle"
/* docs/oracle.md states it (tests/check_versions.py compares). */
#define ORACLE_VERSION 6
#define ORACLE_LIMIT ((size_t)1 << 32)

struct bcw_oracle {
    char *unit;
    char *model; /* the model file's bytes its walks are planned from */
    size_t nmodel;
    bcw_oracle_entry *entries; /* their strings the oracle's own */
    size_t n, cap;
    bcw_index index;          /* key hash -> entry */
    bcw_index by_seq;         /* its sequence's hash -> entry */
    bcw_oracle_states states; /* its own copies; n 0: none */
};

static const char *const verdicts[] = {"pending", "pass", "fail"};

/* The hash of a whole sequence. */
static uint64_t seq_hash(const char *const *calls, unsigned ncalls)
{
    uint64_t h = 0x5eed;
    for (unsigned i = 0; i < ncalls; i++)
        h = bcw__hash(calls[i], strlen(calls[i]) + 1, h);
    return h;
}

/* The hash of an entry's key (bcw_oracle_find). */
static uint64_t key_hash(uint64_t state, const char *const *calls,
                         unsigned ncalls)
{
    if (state != 0)
        return bcw__hash(calls[ncalls - 1], strlen(calls[ncalls - 1]), state);
    return seq_hash(calls, ncalls);
}

typedef struct key {
    const bcw_oracle *o;
    uint64_t state;
    const char *const *calls;
    unsigned ncalls;
} key;

/* Has entry i the sequence the key names (whatever its state)? */
static int same_sequence(uint32_t i, const void *payload)
{
    const key *k = payload;
    const bcw_oracle_entry *e = &k->o->entries[i];
    if (e->ncalls != k->ncalls)
        return 0;
    for (unsigned c = 0; c < k->ncalls; c++)
        if (strcmp(e->calls[c], k->calls[c]) != 0)
            return 0;
    return 1;
}

/* Has entry i the key: its state and last call, or with no state its
 * whole sequence? */
static int same_key(uint32_t i, const void *payload)
{
    const key *k = payload;
    const bcw_oracle_entry *e = &k->o->entries[i];
    if (e->state != k->state)
        return 0;
    if (k->state != 0)
        return strcmp(e->calls[e->ncalls - 1], k->calls[k->ncalls - 1]) == 0;
    return same_sequence(i, payload);
}

long bcw_oracle_find_sequence(const bcw_oracle *o, const char *const *calls,
                              unsigned ncalls)
{
    if (ncalls == 0)
        return -1;
    key k = {o, 0, calls, ncalls};
    uint32_t i =
        bcw__index_get(&o->by_seq, seq_hash(calls, ncalls), same_sequence, &k);
    return i == UINT32_MAX ? -1 : (long)i;
}

long bcw_oracle_find(const bcw_oracle *o, uint64_t state,
                     const char *const *calls, unsigned ncalls)
{
    if (ncalls == 0)
        return -1;
    key k = {o, state, calls, ncalls};
    uint32_t i =
        bcw__index_get(&o->index, key_hash(state, calls, ncalls), same_key, &k);
    return i == UINT32_MAX ? -1 : (long)i;
}

static void free_obs(bcw_observation *o)
{
    free((char *)o->outcome);
    free((char *)o->cause);
    free((char *)o->result);
    bcw__strv_free((char **)o->out, 2 * o->nout);
    memset(o, 0, sizeof *o);
}

static void free_entry(bcw_oracle_entry *e)
{
    bcw__strv_free((char **)e->calls, e->ncalls);
    free((char *)e->walk);
    free((uint16_t *)e->args.steps);
    free_obs(&e->obs);
    free_obs(&e->proposed);
}

/* A copy of v's n strings (NULLs kept), or NULL with *ok false. */
static const char *const *copy_strv(const char *const *v, unsigned n, bool *ok)
{
    if (n == 0)
        return NULL;
    char **c = bcw__calloc(n, sizeof *c);
    *ok &= c != NULL;
    for (unsigned i = 0; c != NULL && i < n; i++)
        if (v[i] != NULL && (c[i] = bcw__strdup(v[i])) == NULL)
            *ok = false;
    return (const char *const *)c;
}

static const char *copy_str(const char *s, bool *ok)
{
    char *c = s != NULL ? bcw__strdup(s) : NULL;
    *ok &= s == NULL || c != NULL;
    return c;
}

/* Are the n strings of v all there? */
static bool all_there(const char *const *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (v[i] == NULL)
            return false;
    return true;
}

/* A copy of `obs` into *c; false when out of memory (*c then freed). */
static bool copy_obs(bcw_observation *c, const bcw_observation *obs)
{
    bool ok = true;
    *c = *obs;
    c->outcome = copy_str(obs->outcome, &ok);
    c->cause = copy_str(obs->cause, &ok);
    c->result = copy_str(obs->result, &ok);
    c->out = copy_strv(obs->out, 2 * obs->nout, &ok);
    if (!ok)
        free_obs(c);
    return ok;
}

/* Is `obs` whole: an outcome, and every out name and value? */
static bool whole_obs(const bcw_observation *obs)
{
    return obs->outcome != NULL && all_there(obs->out, 2 * obs->nout);
}

static void free_states(bcw_oracle_states *s)
{
    bcw__strv_free((char **)s->preds, s->npreds);
    for (unsigned i = 0; i < s->n; i++) {
        const bcw_oracle_state *d = &s->v[i];
        free((char *)d->name);
        free((uint16_t *)d->steps);
        bcw__strv_free((char **)d->fns, d->ncover + 1);
    }
    free((bcw_oracle_state *)s->v);
    memset(s, 0, sizeof *s);
}

/* Is state d whole: a name, and a cover of at least its constructor
 * with each step's function? */
static bool whole_state(const bcw_oracle_state *d)
{
    return d->name != NULL && d->steps != NULL && d->fns != NULL &&
           all_there(d->fns, d->ncover + 1);
}

int bcw_oracle_set_states(bcw_oracle *o, const bcw_oracle_states *s)
{
    if (s != NULL && s->npreds > 32)
        return bcw__error(BCW_EINPUT, "oracle states: more than 32 "
                                      "predicates");
    for (unsigned i = 0; s != NULL && i < s->n; i++)
        if (!whole_state(&s->v[i]))
            return bcw__error(BCW_EINPUT,
                              "oracle state %u: no name or no "
                              "cover",
                              i);
    bcw_oracle_states c = {0};
    bool ok = true;
    if (s != NULL && s->n > 0) {
        c.plan_steps = s->plan_steps;
        c.npreds = s->npreds;
        c.preds = copy_strv(s->preds, s->npreds, &ok);
        bcw_oracle_state *v = bcw__calloc(s->n, sizeof *v);
        c.v = v;
        ok &= v != NULL;
        for (unsigned i = 0; ok && i < s->n; i++, c.n++) {
            const bcw_oracle_state *d = &s->v[i];
            uint16_t *steps = bcw__calloc(d->ncover + 1, sizeof *steps);
            v[i] = (bcw_oracle_state){copy_str(d->name, &ok), d->value,
                                      d->ncover, steps,
                                      copy_strv(d->fns, d->ncover + 1, &ok)};
            ok &= steps != NULL;
            if (steps != NULL)
                memcpy(steps, d->steps, (d->ncover + 1) * sizeof *steps);
        }
    }
    if (!ok) {
        free_states(&c);
        return BCW_ENOMEM;
    }
    free_states(&o->states);
    o->states = c;
    return 0;
}

const bcw_oracle_states *bcw_oracle_get_states(const bcw_oracle *o)
{
    return o->states.n > 0 ? &o->states : NULL;
}

/* Appends `e`, whose strings become the oracle's, to the entries and the
 * index: its index, or BCW_ENOMEM (e then still the caller's). */
static long append(bcw_oracle *o, const bcw_oracle_entry *e)
{
    if (bcw__grow(&o->entries, &o->cap, o->n + 1, sizeof *o->entries) < 0 ||
        bcw__index_put(&o->index, key_hash(e->state, e->calls, e->ncalls),
                       (uint32_t)o->n) < 0 ||
        bcw__index_put(&o->by_seq, seq_hash(e->calls, e->ncalls),
                       (uint32_t)o->n) < 0)
        return BCW_ENOMEM;
    o->entries[o->n] = *e;
    return (long)o->n++;
}

/* Are the recorded arguments well formed? */
static bool args_fit(const bcw_oracle_args *a)
{
    return (a->nsteps > 0 || a->pinned == 0) &&
           (a->nsteps == 0 || a->steps != NULL) &&
           a->pinned >> BCW_ORACLE_MAX_ARGS == 0;
}

/* A copy of `a`'s steps into *c (its arguments as they are); false when
 * out of memory. */
static bool copy_args(bcw_oracle_args *c, const bcw_oracle_args *a)
{
    *c = *a;
    if (a->nsteps == 0) {
        c->steps = NULL;
        return true;
    }
    uint16_t *steps = bcw__calloc(a->nsteps, sizeof *steps);
    if (steps != NULL)
        memcpy(steps, a->steps, a->nsteps * sizeof *steps);
    c->steps = steps;
    return steps != NULL;
}

long bcw_oracle_add(bcw_oracle *o, const bcw_oracle_entry *e)
{
    if (e->ncalls == 0 || !all_there(e->calls, e->ncalls) ||
        !whole_obs(&e->obs) ||
        (e->proposed.outcome != NULL && !whole_obs(&e->proposed)) ||
        (unsigned)e->verdict > BCW_VERDICT_FAIL || !args_fit(&e->args))
        return bcw__error(BCW_EINPUT, "oracle entry: no calls, a call or an "
                                      "out missing, no outcome, no "
                                      "verdict, or arguments past a call's");
    if (bcw_oracle_find(o, e->state, e->calls, e->ncalls) >= 0)
        return bcw__error(BCW_EINPUT, "oracle entry: %s is there already",
                          e->calls[e->ncalls - 1]);
    bool ok = true;
    bcw_oracle_entry c = *e;
    c.calls = copy_strv(e->calls, e->ncalls, &ok);
    c.walk = copy_str(e->walk, &ok);
    ok = copy_args(&c.args, &e->args) && ok;
    memset(&c.obs, 0, sizeof c.obs);
    memset(&c.proposed, 0, sizeof c.proposed);
    ok = copy_obs(&c.obs, &e->obs) && ok;
    if (e->proposed.outcome != NULL)
        ok = copy_obs(&c.proposed, &e->proposed) && ok;
    long i = ok ? append(o, &c) : BCW_ENOMEM;
    if (i < 0)
        free_entry(&c);
    return i;
}

int bcw_oracle_record_args(bcw_oracle *o, size_t i, const bcw_oracle_args *args)
{
    if (i >= o->n || !args_fit(args))
        return bcw__error(BCW_EINPUT,
                          "oracle entry %zu: no such entry, or "
                          "arguments past a call's",
                          i);
    bcw_oracle_args c;
    if (!copy_args(&c, args))
        return BCW_ENOMEM;
    free((uint16_t *)o->entries[i].args.steps);
    o->entries[i].args = c;
    return 0;
}

int bcw_oracle_new(bcw_oracle **out, const char *unit)
{
    *out = NULL;
    bcw_oracle *o = bcw__calloc(1, sizeof *o);
    if (o == NULL || (o->unit = bcw__strdup(unit)) == NULL) {
        free(o);
        return BCW_ENOMEM;
    }
    *out = o;
    return 0;
}

void bcw_oracle_free(bcw_oracle *o)
{
    if (o == NULL)
        return;
    for (size_t i = 0; i < o->n; i++)
        free_entry(&o->entries[i]);
    free(o->entries);
    bcw__index_free(&o->index);
    bcw__index_free(&o->by_seq);
    free_states(&o->states);
    free(o->model);
    free(o->unit);
    free(o);
}

const char *bcw_oracle_unit(const bcw_oracle *o)
{
    return o->unit;
}

int bcw_oracle_set_model(bcw_oracle *o, const void *bytes, size_t len)
{
    char *copy = len > 0 ? bcw__malloc(len) : NULL;
    if (len > 0 && copy == NULL)
        return BCW_ENOMEM;
    if (len > 0)
        memcpy(copy, bytes, len);
    free(o->model);
    o->model = copy;
    o->nmodel = len;
    return 0;
}

const void *bcw_oracle_model(const bcw_oracle *o, size_t *len)
{
    *len = o->nmodel;
    return o->model;
}

size_t bcw_oracle_count(const bcw_oracle *o)
{
    return o->n;
}

const bcw_oracle_entry *bcw_oracle_entry_at(const bcw_oracle *o, size_t i)
{
    return i < o->n ? &o->entries[i] : NULL;
}

/* An entry's observation `slot` (obs or proposed) becomes a copy of
 * `obs`, or none when NULL. */
static int replace_obs(bcw_observation *slot, const bcw_observation *obs)
{
    bcw_observation c = {0};
    if (obs != NULL && !copy_obs(&c, obs))
        return BCW_ENOMEM;
    free_obs(slot);
    *slot = c;
    return 0;
}

int bcw_oracle_observe(bcw_oracle *o, size_t i, const bcw_observation *obs)
{
    if (i >= o->n || !whole_obs(obs))
        return bcw__error(BCW_EINPUT,
                          "oracle entry %zu: no such entry, or "
                          "an observation missing a part",
                          i);
    return replace_obs(&o->entries[i].obs, obs);
}

int bcw_oracle_propose(bcw_oracle *o, size_t i, const bcw_observation *obs)
{
    if (i >= o->n || (obs != NULL && !whole_obs(obs)))
        return bcw__error(BCW_EINPUT,
                          "oracle entry %zu: no such entry, or "
                          "an observation missing a part",
                          i);
    return replace_obs(&o->entries[i].proposed, obs);
}

int bcw_oracle_settle(bcw_oracle *o, size_t i, enum bcw_verdict v)
{
    if (i >= o->n || (unsigned)v > BCW_VERDICT_FAIL)
        return bcw__error(BCW_EINPUT,
                          "oracle entry %zu: no such entry, or "
                          "no verdict",
                          i);
    bcw_oracle_entry *e = &o->entries[i];
    if (e->proposed.outcome != NULL) {
        free_obs(&e->obs);
        e->obs = e->proposed;
        memset(&e->proposed, 0, sizeof e->proposed);
    }
    e->verdict = v;
    return 0;
}

void bcw_observation_text(const bcw_observation *o, char *buf, size_t n)
{
    if (strcmp(o->outcome, "normal") != 0) {
        snprintf(buf, n, "*%s* %s", o->outcome, o->cause ? o->cause : "");
        return;
    }
    if (o->cause != NULL) {
        /* a normal call's cause: what else it did (an observer that
         * changed the state) */
        char first[256];
        bcw_observation_text(
            &(bcw_observation){"normal", NULL, o->result, o->nout, o->out},
            first, sizeof first);
        snprintf(buf, n, "%s (%s)", first, o->cause);
        return;
    }
    snprintf(buf, n, "%s", o->result ? o->result : "");
    for (unsigned k = 0; k < o->nout; k++) {
        size_t len = strlen(buf);
        snprintf(buf + len, n - len, "%s%s = %s", len ? ", " : "",
                 o->out[2 * k], o->out[2 * k + 1]);
    }
    if (buf[0] == '\0')
        snprintf(buf, n, "void");
}

int bcw_oracle_waiting(const bcw_oracle *o, size_t i)
{
    return i < o->n && (o->entries[i].verdict == BCW_VERDICT_PENDING ||
                        o->entries[i].proposed.outcome != NULL);
}

void bcw_oracle_judge(bcw_oracle *o, size_t i, enum bcw_verdict v)
{
    if (i < o->n && (unsigned)v <= BCW_VERDICT_FAIL)
        o->entries[i].verdict = v;
}

/* --- the file ------------------------------------------------------ */

static void pack_strv(msgpack_packer *pk, const char *const *v, unsigned n)
{
    msgpack_pack_array(pk, n);
    for (unsigned i = 0; i < n; i++)
        bcw__pack_str(pk, v[i]);
}

static void pack_obs(msgpack_packer *pk, const bcw_observation *o)
{
    if (o->outcome == NULL) {
        msgpack_pack_nil(pk);
        return;
    }
    msgpack_pack_array(pk, 4);
    bcw__pack_str(pk, o->outcome);
    bcw__pack_str(pk, o->cause);
    bcw__pack_str(pk, o->result);
    pack_strv(pk, o->out, 2 * o->nout);
}

/* The design states: nil, or [plan_steps, [preds], [[name, value,
 * [steps], [fns]], ...]]. */
static void pack_states(msgpack_packer *pk, const bcw_oracle_states *s)
{
    if (s->n == 0) {
        msgpack_pack_nil(pk);
        return;
    }
    msgpack_pack_array(pk, 3);
    msgpack_pack_uint32(pk, s->plan_steps);
    pack_strv(pk, s->preds, s->npreds);
    msgpack_pack_array(pk, s->n);
    for (unsigned i = 0; i < s->n; i++) {
        const bcw_oracle_state *d = &s->v[i];
        msgpack_pack_array(pk, 4);
        bcw__pack_str(pk, d->name);
        msgpack_pack_uint32(pk, d->value);
        msgpack_pack_array(pk, d->ncover + 1);
        for (unsigned k = 0; k <= d->ncover; k++)
            msgpack_pack_uint16(pk, d->steps[k]);
        pack_strv(pk, d->fns, d->ncover + 1);
    }
}

/* The recorded arguments: the plan, [steps], then [[k, value], ...] of
 * the parameters pinned. */
static void pack_args(msgpack_packer *pk, const bcw_oracle_args *a)
{
    msgpack_pack_uint64(pk, a->plan);
    msgpack_pack_array(pk, a->nsteps);
    for (unsigned i = 0; i < a->nsteps; i++)
        msgpack_pack_uint16(pk, a->steps[i]);
    msgpack_pack_array(pk, (uint32_t)__builtin_popcount(a->pinned));
    for (unsigned k = 0; k < BCW_ORACLE_MAX_ARGS; k++)
        if (a->pinned >> k & 1) {
            msgpack_pack_array(pk, 2);
            msgpack_pack_uint32(pk, k);
            msgpack_pack_uint64(pk, a->args[k]);
        }
}

int bcw_oracle_save(const bcw_oracle *o, const char *path)
{
    bcw_pack p;
    bcw__pack_init(&p, "the oracle", ORACLE_LIMIT);
    msgpack_packer *pk = &p.pk;
    msgpack_pack_map(pk, 7);
    bcw__pack_str(pk, "format");
    bcw__pack_str(pk, ORACLE_FORMAT);
    bcw__pack_str(pk, "version");
    msgpack_pack_uint32(pk, ORACLE_VERSION);
    bcw__pack_str(pk, "unit");
    bcw__pack_str(pk, o->unit);
    bcw__pack_str(pk, "model");
    if (o->model != NULL) {
        msgpack_pack_bin(pk, o->nmodel);
        msgpack_pack_bin_body(pk, o->model, o->nmodel);
    } else {
        msgpack_pack_nil(pk);
    }
    bcw__pack_str(pk, "states");
    pack_states(pk, &o->states);
    bcw__pack_str(pk, "entries");
    msgpack_pack_array(pk, (uint32_t)o->n);
    for (size_t i = 0; i < o->n; i++) {
        const bcw_oracle_entry *e = &o->entries[i];
        msgpack_pack_array(pk, 12);
        msgpack_pack_uint64(pk, e->state);
        msgpack_pack_uint64(pk, e->after);
        pack_strv(pk, e->calls, e->ncalls);
        bcw__pack_str(pk, verdicts[e->verdict]);
        msgpack_pack_int64(pk, e->first_seen);
        pack_obs(pk, &e->obs);
        pack_obs(pk, &e->proposed);
        bcw__pack_str(pk, e->walk);
        msgpack_pack_uint32(pk, e->depth);
        pack_args(pk, &e->args);
    }
    bcw__pack_seal(&p);
    int err = p.err != 0 ? p.err
                         : bcw__write_file_atomic(path, p.buf.data, p.buf.len);
    bcw__pack_free(&p);
    return err;
}

static enum bcw_verdict read_verdict(bcw_rd *r, const msgpack_object *o)
{
    char *s = bcw__rd_str(r, o, false, "verdict");
    unsigned v = 0;
    while (s != NULL && v <= BCW_VERDICT_FAIL && strcmp(s, verdicts[v]) != 0)
        v++;
    if (s != NULL && v > BCW_VERDICT_FAIL)
        bcw__rd_bad(r, "verdict");
    free(s);
    return v <= BCW_VERDICT_FAIL ? (enum bcw_verdict)v : BCW_VERDICT_PENDING;
}

/* An observation of the file into *obs (nil: none, when `optional`). */
static void read_obs(bcw_rd *r, const msgpack_object *o, bool optional,
                     bcw_observation *obs)
{
    if (optional && o->type == MSGPACK_OBJECT_NIL)
        return;
    const msgpack_object *ob = bcw__rd_arr(r, o, 4, "observation");
    if (ob == NULL)
        return;
    unsigned nout = 0;
    obs->outcome = bcw__rd_str(r, &ob[0], false, "outcome");
    obs->cause = bcw__rd_str(r, &ob[1], true, "cause");
    obs->result = bcw__rd_str(r, &ob[2], true, "result");
    char **out = bcw__rd_strv(r, &ob[3], &nout, "out");
    if (nout % 2 != 0) {
        /* the strings by their count read */
        bcw__strv_free(out, nout);
        bcw__rd_bad(r, "an odd out");
        return;
    }
    obs->out = (const char *const *)out;
    obs->nout = nout / 2;
}

/* An entry's recorded arguments: its steps, then its pinned
 * parameters' pairs. */
static void read_args(bcw_rd *r, const msgpack_object *steps,
                      const msgpack_object *pairs, bcw_oracle_args *a)
{
    const msgpack_object *st = bcw__rd_arr(r, steps, 0, "steps");
    a->nsteps = st != NULL ? steps->via.array.size : 0;
    uint16_t *own = a->nsteps > 0 ? bcw__calloc(a->nsteps, sizeof *own) : NULL;
    if (a->nsteps > 0 && own == NULL && r->err == 0)
        r->err = BCW_ENOMEM;
    a->steps = own;
    for (unsigned i = 0; own != NULL && r->err == 0 && i < a->nsteps; i++)
        own[i] = (uint16_t)bcw__rd_u64(r, &st[i], UINT16_MAX, "step");
    const msgpack_object *v = bcw__rd_arr(r, pairs, 0, "arguments");
    uint32_t n = v != NULL ? pairs->via.array.size : 0;
    if (r->err == 0 && a->nsteps == 0 && n > 0)
        bcw__rd_bad(r, "arguments of no step");
    for (uint32_t i = 0; r->err == 0 && i < n; i++) {
        const msgpack_object *pair = bcw__rd_arr(r, &v[i], 2, "argument");
        unsigned k =
            pair != NULL
                ? (unsigned)bcw__rd_u64(r, &pair[0], BCW_ORACLE_MAX_ARGS - 1,
                                        "argument's parameter")
                : 0;
        uint64_t value =
            pair != NULL ? bcw__rd_u64(r, &pair[1], UINT64_MAX, "argument") : 0;
        if (r->err == 0 && (a->pinned >> k & 1))
            bcw__rd_bad(r, "an argument twice");
        a->pinned |= 1u << k;
        a->args[k] = value;
    }
}

/* Entry `o` of the file, into the oracle. */
static void read_entry(bcw_rd *r, bcw_oracle *oracle, const msgpack_object *o)
{
    const msgpack_object *f = bcw__rd_arr(r, o, 12, "entry");
    if (f == NULL)
        return;
    bcw_oracle_entry e = {0};
    e.state = bcw__rd_u64(r, &f[0], UINT64_MAX, "state");
    e.after = bcw__rd_u64(r, &f[1], UINT64_MAX, "after");
    e.calls = (const char *const *)bcw__rd_strv(r, &f[2], &e.ncalls, "calls");
    e.verdict = read_verdict(r, &f[3]);
    e.first_seen = bcw__rd_i64(r, &f[4], "first seen");
    read_obs(r, &f[5], false, &e.obs);
    read_obs(r, &f[6], true, &e.proposed);
    e.walk = bcw__rd_str(r, &f[7], true, "walk");
    e.depth = (unsigned)bcw__rd_u64(r, &f[8], 255, "depth");
    e.args.plan = bcw__rd_u64(r, &f[9], UINT64_MAX, "plan");
    read_args(r, &f[10], &f[11], &e.args);
    if (r->err == 0 && e.ncalls == 0)
        bcw__rd_bad(r, "an entry with no calls");
    if (r->err == 0 && bcw_oracle_find(oracle, e.state, e.calls, e.ncalls) >= 0)
        bcw__rd_bad(r, "two entries of one key");
    long i = r->err == 0 ? append(oracle, &e) : -1;
    if (i < 0) {
        if (r->err == 0)
            r->err = (int)i;
        free_entry(&e);
    }
}

/* The design states of the file (nil: none) into the oracle. */
static void read_states(bcw_rd *r, bcw_oracle *oracle, const msgpack_object *o)
{
    if (o->type == MSGPACK_OBJECT_NIL)
        return;
    const msgpack_object *f = bcw__rd_arr(r, o, 3, "states");
    if (f == NULL)
        return;
    bcw_oracle_states s = {0};
    s.plan_steps = (unsigned)bcw__rd_u64(r, &f[0], UINT16_MAX, "plan steps");
    s.preds =
        (const char *const *)bcw__rd_strv(r, &f[1], &s.npreds, "predicates");
    const msgpack_object *v = bcw__rd_arr(r, &f[2], 0, "states");
    uint32_t n = v != NULL ? f[2].via.array.size : 0;
    bcw_oracle_state *d = r->err == 0 ? bcw__calloc(n + 1, sizeof *d) : NULL;
    if (r->err == 0 && d == NULL)
        r->err = BCW_ENOMEM;
    s.v = d;
    for (uint32_t i = 0; r->err == 0 && i < n; i++, s.n++) {
        const msgpack_object *g = bcw__rd_arr(r, &v[i], 4, "state");
        if (g == NULL)
            break;
        d[i].name = bcw__rd_str(r, &g[0], false, "state name");
        d[i].value = (uint32_t)bcw__rd_u64(r, &g[1], UINT32_MAX, "value");
        unsigned nsteps = 0, nfns = 0;
        const msgpack_object *st = bcw__rd_arr(r, &g[2], 0, "cover");
        nsteps = st != NULL ? g[2].via.array.size : 0;
        uint16_t *steps = bcw__calloc(nsteps + 1, sizeof *steps);
        d[i].steps = steps;
        for (unsigned k = 0; steps != NULL && k < nsteps; k++)
            steps[k] = (uint16_t)bcw__rd_u64(r, &st[k], UINT16_MAX, "step");
        d[i].fns = (const char *const *)bcw__rd_strv(r, &g[3], &nfns,
                                                     "cover functions");
        d[i].ncover = nfns > 0 ? nfns - 1 : 0;
        if (r->err == 0 && (steps == NULL || nsteps == 0 || nfns != nsteps))
            bcw__rd_bad(r, "a state's cover");
    }
    if (r->err == 0 && (s.npreds > 32 || !all_there(s.preds, s.npreds)))
        bcw__rd_bad(r, "the states' predicates");
    if (r->err == 0)
        oracle->states = s;
    else
        free_states(&s);
}

int bcw_oracle_load(bcw_oracle **out, const char *path)
{
    *out = NULL;
    bcw__error_clear();
    char *data = NULL;
    size_t len = 0;
    int err = bcw__read_file(&data, &len, path, ORACLE_LIMIT);
    if (err < 0)
        return err;
    bcw_rd r = {path, "oracle", 0};
    msgpack_unpacked up;
    msgpack_unpacked_init(&up);
    bcw_oracle *o = NULL;
    const msgpack_object *root =
        bcw__rd_root(&r, &up, data, len, ORACLE_FORMAT, ORACLE_VERSION,
                     "make it again with this bcwalk (test --accept)");
    const msgpack_object *unit = root ? bcw__rd_field(root, "unit") : NULL;
    const msgpack_object *entries =
        root ? bcw__rd_field(root, "entries") : NULL;
    const msgpack_object *model = root ? bcw__rd_field(root, "model") : NULL;
    const msgpack_object *states = root ? bcw__rd_field(root, "states") : NULL;
    if (root != NULL &&
        (unit == NULL || entries == NULL || model == NULL || states == NULL))
        bcw__rd_bad(&r, "missing fields");
    if (r.err == 0 && model->type != MSGPACK_OBJECT_NIL &&
        model->type != MSGPACK_OBJECT_BIN)
        bcw__rd_bad(&r, "model");
    if (r.err == 0) {
        char *name = bcw__rd_str(&r, unit, false, "unit");
        if (name != NULL && (err = bcw_oracle_new(&o, name)) < 0)
            r.err = err;
        free(name);
    }
    if (r.err == 0 && model->type == MSGPACK_OBJECT_BIN &&
        (err = bcw_oracle_set_model(o, model->via.bin.ptr,
                                    model->via.bin.size)) < 0)
        r.err = err;
    if (r.err == 0)
        read_states(&r, o, states);
    const msgpack_object *es =
        r.err == 0 ? bcw__rd_arr(&r, entries, 0, "entries") : NULL;
    for (uint32_t i = 0;
         es != NULL && r.err == 0 && i < entries->via.array.size; i++)
        read_entry(&r, o, &es[i]);
    msgpack_unpacked_destroy(&up);
    free(data);
    if (r.err != 0) {
        bcw_oracle_free(o);
        return r.err;
    }
    *out = o;
    return 0;
}

/* --- the dump ------------------------------------------------------ */

static void json_strv(FILE *f, const char *const *v, unsigned n)
{
    fputc('[', f);
    for (unsigned i = 0; i < n; i++) {
        if (i > 0)
            fputs(", ", f);
        bcw__json_str(f, v[i]);
    }
    fputc(']', f);
}

/* A string or null. */
static void json_opt(FILE *f, const char *s)
{
    if (s == NULL)
        fputs("null", f);
    else
        bcw__json_str(f, s);
}

/* A state's 16 hex digits, or null for 0. */
static void json_state(FILE *f, uint64_t state)
{
    if (state != 0)
        fprintf(f, "\"%016llx\"", (unsigned long long)state);
    else
        fputs("null", f);
}

/* The recorded arguments: ", "plan": hex, "steps": [...], "args":
 * {"k": value, ...}". */
static void json_args(FILE *f, const bcw_oracle_args *a)
{
    fputs(", \"plan\": ", f);
    json_state(f, a->plan);
    fputs(", \"steps\": [", f);
    for (unsigned i = 0; i < a->nsteps; i++)
        fprintf(f, "%s%u", i > 0 ? ", " : "", a->steps[i]);
    fputs("], \"args\": {", f);
    const char *sep = "";
    for (unsigned k = 0; k < BCW_ORACLE_MAX_ARGS; k++)
        if (a->pinned >> k & 1) {
            fprintf(f, "%s\"%u\": %llu", sep, k,
                    (unsigned long long)a->args[k]);
            sep = ", ";
        }
    fputc('}', f);
}

/* The design states: null, or {"plan_steps": N, "predicates": [...],
 * "states": [{"name": ..., "value": ..., "cover": [fns]}, ...]}. */
static void json_states(FILE *f, const bcw_oracle_states *s)
{
    if (s->n == 0) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"plan_steps\": %u, \"predicates\": ", s->plan_steps);
    json_strv(f, s->preds, s->npreds);
    fputs(", \"states\": [", f);
    for (unsigned i = 0; i < s->n; i++) {
        fputs(i > 0 ? ", {\"name\": " : "{\"name\": ", f);
        bcw__json_str(f, s->v[i].name);
        fprintf(f, ", \"value\": %u, \"cover\": ", (unsigned)s->v[i].value);
        json_strv(f, s->v[i].fns, s->v[i].ncover + 1);
        fputc('}', f);
    }
    fputs("]}", f);
}

/* An observation's members: "outcome": ..., "cause": ..., "result":
 * ..., "out": {...}. */
static void json_obs(FILE *f, const bcw_observation *o)
{
    fputs("\"outcome\": ", f);
    bcw__json_str(f, o->outcome);
    fputs(", \"cause\": ", f);
    json_opt(f, o->cause);
    fputs(", \"result\": ", f);
    json_opt(f, o->result);
    fputs(", \"out\": {", f);
    for (unsigned k = 0; k < o->nout; k++) {
        if (k > 0)
            fputs(", ", f);
        bcw__json_str(f, o->out[2 * k]);
        fputs(": ", f);
        json_opt(f, o->out[2 * k + 1]);
    }
    fputc('}', f);
}

int bcw_oracle_dump(const bcw_oracle *o, FILE *f)
{
    fputs("{\"format\": \"" ORACLE_FORMAT "\", \"version\": ", f);
    fprintf(f, "%d, \"unit\": ", ORACLE_VERSION);
    bcw__json_str(f, o->unit);
    if (o->model != NULL)
        fprintf(f, ", \"model_bytes\": %zu", o->nmodel);
    else
        fputs(", \"model_bytes\": null", f);
    fputs(", \"states\": ", f);
    json_states(f, &o->states);
    fputs(", \"entries\": [", f);
    for (size_t i = 0; i < o->n; i++) {
        const bcw_oracle_entry *e = &o->entries[i];
        char when[32] = "";
        struct tm tm;
        time_t t = (time_t)e->first_seen;
        if (gmtime_r(&t, &tm) != NULL)
            strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        fputs(i > 0 ? ",\n  " : "\n  ", f);
        fputs("{\"state\": ", f);
        json_state(f, e->state);
        fputs(", \"after\": ", f);
        json_state(f, e->after);
        fputs(", \"sequence\": ", f);
        json_strv(f, e->calls, e->ncalls);
        fprintf(f, ", \"verdict\": \"%s\", \"first_seen\": \"%s\"",
                verdicts[e->verdict], when);
        fputs(", \"walk\": ", f);
        if (e->walk != NULL)
            bcw__json_str(f, e->walk);
        else
            fputs("null", f);
        fprintf(f, ", \"depth\": %u", e->depth);
        json_args(f, &e->args);
        fputs(", ", f);
        json_obs(f, &e->obs);
        fputs(", \"proposed\": ", f);
        if (e->proposed.outcome != NULL) {
            fputc('{', f);
            json_obs(f, &e->proposed);
            fputc('}', f);
        } else {
            fputs("null", f);
        }
        fputc('}', f);
    }
    fputs(o->n > 0 ? "\n]}\n" : "]}\n", f);
    return fflush(f) == 0 && !ferror(f)
               ? 0
               : bcw__error(BCW_ERROR, "writing the oracle's dump failed");
}
