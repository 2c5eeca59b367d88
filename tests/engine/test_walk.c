/* test_walk.c - the walk enumeration, run against an in-process model of
 * JWalk's BoundedStack instead of workers: the JWalk paper's counts,
 * pruning, and the order sequences are emitted in. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bcwalk/error.h"
#include "walk.h"

/* Plan indices of the model stack. */
enum { NEW, PUSH, POP, TOP, SIZE, IS_EMPTY, IS_FULL, NPLAN };

static const uint16_t ctors[] = {NEW};
static const uint16_t methods[] = {PUSH, POP, TOP, SIZE, IS_EMPTY, IS_FULL};
static const bcw_walk_step step[NPLAN] = {
    [PUSH] = {.mutator = true, .returns_void = true},
    [POP] = {.mutator = true, .returns_void = true},
    [TOP] = {.observer = true},
    [SIZE] = {.observer = true},
    [IS_EMPTY] = {.observer = true},
    [IS_FULL] = {.observer = true}};

static uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

/* Plan index of an "observer" that counts its calls in the state. */
static int sneaky = -1;

/* Runs every sequence of the jobs through `run`, a model of the worker
 * writing its result (zeroed first), and hands each job to done: what
 * the fake executors below are made of. */
static int run_each(bcw_job *jobs, size_t njobs, bcw_job_done done, void *ctx,
                    void (*run)(void *payload, const uint16_t *w,
                                bcw_wire_result *r),
                    void *payload)
{
    for (size_t j = 0; j < njobs; j++) {
        assert_int_equal(bcw__job_prepare(&jobs[j]), 0);
        for (uint32_t i = 0; i < jobs[j].nseq; i++) {
            memset(&jobs[j].results[i], 0, sizeof jobs[j].results[i]);
            run(payload, &jobs[j].words[jobs[j].off[i]], &jobs[j].results[i]);
        }
        int err = done(ctx, &jobs[j]);
        if (err < 0)
            return err;
    }
    return 0;
}

/* Runs a sequence on a capacity-10 stack: pop and top abort when
 * empty, push on full is ignored.  A normal sequence's state is the
 * worker's: the size and all ten slots, stale ones included (a fresh
 * slot holds 0), and its key adds the next pushed value. */
static void stack_run(void *payload, const uint16_t *w, bcw_wire_result *r)
{
    uint64_t *executed = payload;
    int size = 0, data[10] = {0}, reads = 0;
    unsigned len = w[0] & BCW_SEQ_LEN_MASK, next = 1;
    r->calls = 2 + len;
    (*executed)++;
    for (unsigned k = 1; k <= len; k++) {
        uint64_t ret = 0;
        switch (w[1 + k]) {
        case PUSH:
            if (size < 10)
                data[size++] = (int)next;
            next++;
            break;
        case POP:
        case TOP:
            if (size == 0) {
                r->outcome = BCW_RUN_ABORT;
                r->halted_at = (uint16_t)k;
                r->calls = 1 + k;
                k = len;
                break;
            }
            if (w[1 + k] == POP)
                size--;
            else
                ret = (uint64_t)data[size - 1];
            break;
        case SIZE:
            ret = (uint64_t)size;
            break;
        case IS_EMPTY:
            ret = size == 0;
            break;
        case IS_FULL:
            ret = size == 10;
            break;
        }
        r->ret = ret;
    }
    if (r->outcome != BCW_RUN_NORMAL)
        return;
    for (unsigned k = 1; k <= len; k++)
        reads += w[1 + k] == sneaky;
    uint64_t h = mix((uint64_t)reads, (uint64_t)size);
    for (unsigned k = 0; k < 10; k++)
        h = mix(h, (uint64_t)data[k]);
    r->state = h | 1;
    r->key = mix(r->state, next) | 1;
    /* the worker's own check: the sneaky observer, last, moved
     * the state it found */
    if ((w[0] & BCW_SEQ_CHECK_OBSERVER) && w[1 + len] == sneaky)
        r->flags |= BCW_RESULT_OBSERVER_CHANGED;
}

static int fake_exec(void *payload, bcw_job *jobs, size_t njobs,
                     bcw_job_done done, void *ctx)
{
    return run_each(jobs, njobs, done, ctx, stack_run, payload);
}

typedef struct seen {
    unsigned last_len;
    bool ordered;
    uint64_t count;
} seen;

static int record(void *payload, const bcw_seq *s)
{
    seen *sn = payload;
    if (s->len < sn->last_len)
        sn->ordered = false;
    sn->last_len = s->len;
    sn->count++;
    return 0;
}

/* The walk after a prefix of `nprefix` calls, pruning by concrete state
 * if `prune`, counting observers that changed it into `changed`. */
static bcw_summary walk_with(enum bcw_walk_kind kind, unsigned depth,
                             const uint16_t *prefix, unsigned nprefix,
                             bool prune, bcw_step_seen *changed,
                             uint64_t *executed,
                             seen *sn)
{
    bcw_walk_cfg cfg = {.kind = kind,
                        .depth = depth,
                        .nctors = 1,
                        .ctors = ctors,
                        .nprefix = nprefix,
                        .prefix = prefix,
                        .nmethods = 6,
                        .methods = methods,
                        .step = step,
                        .prune_state = prune,
                        .seen = changed,
                        .exec = fake_exec,
                        .exec_payload = executed,
                        .emit = record,
                        .emit_payload = sn};
    bcw_summary s;
    assert_int_equal(bcw__walk_run(&s, &cfg), 0);
    return s;
}

static bcw_summary walk(enum bcw_walk_kind kind, unsigned depth,
                        uint64_t *executed, seen *sn)
{
    return walk_with(kind, depth, NULL, 0, false, NULL, executed, sn);
}

static void test_walk__protocol_depth3_matches_jwalk(void **state)
{
    (void)state;
    uint64_t executed = 0;
    seen sn = {.ordered = true};
    bcw_summary s = walk(BCW_WALK_PROTOCOL, 3, &executed, &sn);
    assert_int_equal(s.normal, 111);
    assert_int_equal(s.terminated, 28);
    assert_int_equal(s.discarded, 120);
    assert_int_equal(s.pruned_observer, 0);
    assert_int_equal(executed, 139);
    assert_int_equal(sn.count, 139);
    assert_true(sn.ordered);
}

static void test_walk__algebra_depth3_matches_jwalk(void **state)
{
    (void)state;
    uint64_t executed = 0;
    seen sn = {.ordered = true};
    bcw_summary s = walk(BCW_WALK_ALGEBRA, 3, &executed, &sn);
    assert_int_equal(s.normal, 21);
    assert_int_equal(s.terminated, 4);
    assert_int_equal(s.discarded, 234);
    assert_int_equal(s.predicted_void, 6);
    /* 234 = 150 below observer prefixes + 84 below pop/top on empty */
    assert_int_equal(s.pruned_observer, 150);
    assert_int_equal(executed, 25);
}

static void test_walk__counts_add_up_to_the_whole_set(void **state)
{
    (void)state;
    for (unsigned depth = 1; depth <= 6; depth++) {
        for (int kind = 0; kind < 2; kind++) {
            uint64_t executed = 0;
            seen sn = {.ordered = true};
            bcw_summary s =
                walk((enum bcw_walk_kind)kind, depth, &executed, &sn);
            assert_int_equal(s.normal + s.terminated + s.discarded,
                             bcw__walk_set_size(1, 6, depth));
            assert_int_equal(s.normal + s.terminated, executed);
            assert_true(sn.ordered);
        }
    }
}

/* Pruning by state: the figures of an independent breadth-first model
 * of the stack (the size and ten slots, and the push counter: 139, 787
 * and 4111 sequences run; 42, 226 and 1195 distinct states), the same
 * states as the unpruned walk, and the whole set still accounted for. */
static void test_walk__state_pruning_keeps_every_state(void **state)
{
    (void)state;
    static const struct {
        unsigned depth;
        uint64_t run, states;
    } want[] = {{6, 139, 42}, {9, 787, 226}, {12, 4111, 1195}};
    for (unsigned i = 0; i < 3; i++) {
        uint64_t executed = 0;
        seen sn = {.ordered = true};
        bcw_summary s = walk_with(BCW_WALK_PROTOCOL, want[i].depth, NULL, 0,
                                  true, NULL, &executed, &sn);
        assert_int_equal(executed, want[i].run);
        assert_int_equal(s.normal + s.terminated, want[i].run);
        assert_int_equal(s.concrete_states, want[i].states);
        assert_int_equal(s.normal + s.terminated + s.discarded,
                         bcw__walk_set_size(1, 6, want[i].depth));
        assert_true(s.pruned_state > 0 && s.pruned_state <= s.discarded);
        assert_true(s.prune_state);
        assert_true(sn.ordered);
    }
    uint64_t executed = 0;
    seen sn = {.ordered = true};
    bcw_summary none =
        walk_with(BCW_WALK_PROTOCOL, 6, NULL, 0, false, NULL, &executed, &sn);
    assert_int_equal(none.concrete_states, 42);
    assert_int_equal(none.pruned_state, 0);
    assert_int_equal(executed, 17935);
}

/* Depth 2 by hand: new (state E) is kept; push reaches a new state and
 * pop halts; top, size, is_empty and is_full leave E, already seen at
 * level 0, so each is pruned with its 6 extensions. */
static void test_walk__state_pruning_tally_by_hand(void **state)
{
    (void)state;
    uint64_t executed = 0;
    seen sn = {.ordered = true};
    bcw_summary s =
        walk_with(BCW_WALK_PROTOCOL, 2, NULL, 0, true, NULL, &executed, &sn);
    /* level 1: 6 run; level 2: only push's 6 extensions */
    assert_int_equal(executed, 1 + 6 + 6);
    assert_int_equal(s.pruned_state, 3 * 6); /* top aborts: not pruned */
    assert_int_equal(s.discarded, 3 * 6 + 2 * 6);
    assert_int_equal(s.normal + s.terminated + s.discarded, 43);
    /* algebra: observer-ended sequences are not extended anyway, and
     * their states stand for nothing (the state E the observers reach
     * at level 1 does not cut anything); every push moves the key on */
    executed = 0;
    s = walk_with(BCW_WALK_ALGEBRA, 6, NULL, 0, true, NULL, &executed, &sn);
    assert_int_equal(s.normal + s.terminated + s.discarded,
                     bcw__walk_set_size(1, 6, 6));
    bcw_summary none =
        walk_with(BCW_WALK_ALGEBRA, 6, NULL, 0, false, NULL, &executed, &sn);
    assert_int_equal(s.concrete_states, none.concrete_states);
    assert_int_equal(s.normal, none.normal);
}

/* An observer that changes the state is counted once per sequence it
 * ends, as the worker reports it. */
static void test_walk__observer_changes_are_counted(void **state)
{
    (void)state;
    bcw_step_seen changed[NPLAN] = {{0}};
    uint64_t executed = 0;
    seen sn = {.ordered = true};
    sneaky = SIZE;
    walk_with(BCW_WALK_PROTOCOL, 2, NULL, 0, false, changed, &executed, &sn);
    sneaky = -1;
    /* size after new, and after each normal one-call prefix (push,
     * size, is_empty, is_full; pop and top abort): 1 + 4 */
    assert_int_equal(changed[SIZE].changed, 5);
    assert_int_equal(changed[TOP].changed, 0);
}

static void test_walk__set_size_saturates(void **state)
{
    (void)state;
    assert_int_equal(bcw__walk_set_size(1, 6, 3), 259);
    assert_int_equal(bcw__walk_set_size(2, 6, 3), 518);
    assert_true(bcw__walk_set_size(1, 200, 200) == UINT64_MAX);
}

/* The state walk's engine: a protocol walk after each state's cover.
 * JWalk's BoundedStack at depth 3 from Empty (no cover), Default (one
 * push) and Full (ten pushes): 601 normal, 44 terminated, 132 discarded
 * in all. */
static void test_walk__prefix_covers_give_jwalk_state_figures(void **state)
{
    (void)state;
    static const uint16_t pushes[10] = {PUSH, PUSH, PUSH, PUSH, PUSH,
                                        PUSH, PUSH, PUSH, PUSH, PUSH};
    const unsigned covers[] = {0, 1, 10};
    const uint64_t want[3][3] = {{111, 28, 120}, {231, 16, 12}, {259, 0, 0}};
    uint64_t normal = 0, terminated = 0, discarded = 0;
    for (unsigned i = 0; i < 3; i++) {
        uint64_t executed = 0;
        seen sn = {0, true, 0};
        bcw_summary s = walk_with(BCW_WALK_PROTOCOL, 3, pushes, covers[i],
                                  false, NULL, &executed, &sn);
        assert_int_equal(s.normal, want[i][0]);
        assert_int_equal(s.terminated, want[i][1]);
        assert_int_equal(s.discarded, want[i][2]);
        assert_int_equal(s.normal + s.terminated + s.discarded, 259);
        normal += s.normal;
        terminated += s.terminated;
        discarded += s.discarded;
    }
    assert_int_equal(normal, 601);
    assert_int_equal(terminated, 44);
    assert_int_equal(discarded, 132);
}

/* Pinned values (bcwalk test's recorded arguments): a plan of a
 * constructor and `at(obj, i)`, whose i is computed from the object
 * (relative); the worker here passes a pinned value, else 100 + the
 * call's index, and reports it. */
enum { PIN_NEW, PIN_AT };
static const bcw_walk_step pin_step[] = {
    [PIN_AT] = {.mutator = true, .nout = 1, .relative = 2}};

static void pin_run(void *payload, const uint16_t *w, bcw_wire_result *r)
{
    unsigned *pins_seen = payload;
    unsigned len = w[0] & BCW_SEQ_LEN_MASK;
    assert_true(w[0] & BCW_SEQ_PINNED);
    const uint16_t *pin = &w[len + 3];
    uint64_t passed = 100 + len;
    for (unsigned k = 0; k < w[len + 2]; k++, pin += BCW_PIN_WORDS) {
        assert_true(pin[0] >= 1 && pin[0] <= len);
        assert_int_equal(pin[1], 1);
        (*pins_seen)++;
        if (pin[0] == len)
            passed = pin[2] | (uint64_t)pin[3] << 16 | (uint64_t)pin[4] << 32 |
                     (uint64_t)pin[5] << 48;
    }
    r->out[1] = passed;
    r->state = len + 1;
    r->calls = len + 2;
}

static int pin_exec(void *payload, bcw_job *jobs, size_t njobs,
                    bcw_job_done done, void *ctx)
{
    return run_each(jobs, njobs, done, ctx, pin_run, payload);
}

/* The oracle's value for the first at() only: its value, with bit 1. */
static uint32_t pin_first(void *payload, const uint16_t *steps, unsigned len,
                          uint64_t before, uint64_t *vals)
{
    (void)payload;
    if (len == 0)
        return 0;
    assert_int_equal(steps[len], PIN_AT);
    assert_int_equal(before, len); /* the state its prefix left */
    if (len != 1)
        return 0;
    vals[1] = 0xfedcba9876543210u;
    return 2;
}

static int pin_record(void *payload, const bcw_seq *s)
{
    uint64_t *outs = payload;
    if (s->len == 3)
        for (unsigned k = 1; k <= 3; k++)
            outs[k] = s->outs[k][1];
    return 0;
}

static void test_walk__pinned_values_are_passed_again(void **state)
{
    (void)state;
    static const uint16_t pin_ctors[] = {PIN_NEW}, pin_methods[] = {PIN_AT};
    unsigned pins_seen = 0;
    uint64_t outs[4] = {0};
    bcw_walk_cfg cfg = {.kind = BCW_WALK_PROTOCOL,
                        .depth = 3,
                        .nctors = 1,
                        .ctors = pin_ctors,
                        .nmethods = 1,
                        .methods = pin_methods,
                        .step = pin_step,
                        .exec = pin_exec,
                        .exec_payload = &pins_seen,
                        .pin = pin_first,
                        .emit = pin_record,
                        .emit_payload = outs};
    bcw_summary s;
    assert_int_equal(bcw__walk_run(&s, &cfg), 0);
    /* the first call takes the oracle's value in every sequence, the
     * second its own from its prefix's run, the third computes one */
    assert_int_equal(outs[1], 0xfedcba9876543210u);
    assert_int_equal(outs[2], 102);
    assert_int_equal(outs[3], 103);
    /* pins: the oracle's in at(), its prefix's in at(); at(), and its
     * prefix's two in at(); at(); at() */
    assert_int_equal(pins_seen, 1 + 1 + 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_walk__protocol_depth3_matches_jwalk),
        cmocka_unit_test(test_walk__algebra_depth3_matches_jwalk),
        cmocka_unit_test(test_walk__counts_add_up_to_the_whole_set),
        cmocka_unit_test(test_walk__state_pruning_keeps_every_state),
        cmocka_unit_test(test_walk__state_pruning_tally_by_hand),
        cmocka_unit_test(test_walk__observer_changes_are_counted),
        cmocka_unit_test(test_walk__set_size_saturates),
        cmocka_unit_test(test_walk__prefix_covers_give_jwalk_state_figures),
        cmocka_unit_test(test_walk__pinned_values_are_passed_again),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
