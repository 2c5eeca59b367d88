/* test_runtime.c - cmocka: pieces of the worker runtime on their own, in
 * this process: the numbering of pointer results (rt_call.c), values
 * computed from the live object at the edges of 64-bit arithmetic
 * (rt_bounds.c) and the built-in callbacks (rt_closure.c).  The end-to-end
 * tests run the whole runtime in workers; these reach cases a walk of the
 * examples does not. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt_bounds.h"
#include "rt_call.h"
#include "rt_closure.h"

/* What bcwalk generates into a worker: no functions here. */
void *bcw_unit_symtab[1];
const uint32_t bcw_unit_nsyms = 0;
const bcw_stub bcw_unit_stubs[1];

/* A worker state with a zeroed plan and `target` as its object. */
static bcw_rt_worker *worker_new(void *target)
{
    bcw_rt_worker *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->shm = calloc(1, sizeof *w->shm);
    assert_non_null(w->shm);
    w->target = target;
    return w;
}

static void worker_free(bcw_rt_worker *w)
{
    free(w->ptrs);
    free(w->shm);
    free(w);
}

/* A sequence giving out far more than 64 pointers: each keeps its
 * number, met again or not, and the next sequence numbers from 0. */
static void test_runtime__pointers_numbered_past_64(void **state)
{
    (void)state;
    static int slots[1000];
    int object;
    bcw_rt_worker *w = worker_new(&object);
    for (int round = 0; round < 2; round++) {
        w->nptrs = 0; /* a new sequence */
        for (uint64_t i = 0; i < 1000; i++)
            assert_int_equal(bcw_rt_call_pointer(w, &slots[i]),
                             BCW_PTR_OTHER | i);
        for (uint64_t i = 1000; i-- > 0;)
            assert_int_equal(bcw_rt_call_pointer(w, &slots[i]),
                             BCW_PTR_OTHER | i);
    }
    assert_int_equal(w->nptrs, 1000);
    assert_int_equal(bcw_rt_call_pointer(w, NULL), BCW_PTR_NULL);
    assert_int_equal(bcw_rt_call_pointer(w, &object), BCW_PTR_TARGET);
    assert_int_equal(bcw_rt_call_pointer(w, w->cells[7]), BCW_PTR_CELL | 7);
    worker_free(w);
}

/* pool[i] of w's plan */
static void node(bcw_rt_worker *w, uint32_t i, enum bcw_cop op, unsigned bits,
                 int64_t value, uint32_t a, uint32_t b)
{
    w->shm->pool[i] = (bcw_cnode){.op = (uint8_t)op,
                                  .bits = (uint8_t)bits,
                                  .value = value,
                                  .a = a,
                                  .b = b};
    if (w->shm->npool <= i)
        w->shm->npool = i + 1;
}

/* A category bounded below by field / -1 or field % -1, the field
 * INT64_MIN: the one quotient a CPU traps on (SIGFPE, which the worker
 * would record as the unit's crash); LLVM's sdiv wraps it. */
static void test_runtime__bounds_divide_int64_min_by_minus_one(void **state)
{
    (void)state;
    int64_t field = INT64_MIN;
    bcw_rt_worker *w = worker_new(&field);
    bool met;
    bcw_wire_param p = {.fixed = BCW_FIXED_BOUNDS, .bounds = 3, .nbounds = 1};
    node(w, 0, BCW_C_FIELD, 64, 0, 0, 0);
    node(w, 1, BCW_C_CONST, 64, -1, 0, 0);
    node(w, 2, BCW_C_SDIV, 64, 0, 0, 1);
    node(w, 3, BCW_C_LOWER, 0, 0, 2, 0);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), (uint64_t)INT64_MIN);
    node(w, 2, BCW_C_SREM, 64, 0, 0, 1);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), 0);
    /* 32 bits: no overflow, as before */
    int32_t small = INT32_MIN;
    w->target = &small;
    node(w, 0, BCW_C_FIELD, 32, 0, 0, 0);
    node(w, 1, BCW_C_CONST, 32, -1, 0, 0);
    node(w, 2, BCW_C_SDIV, 32, 0, 0, 1);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), (uint64_t)INT32_MIN);
    worker_free(w);
}

/* x != field with the field INT64_MAX: the value just past it wraps to
 * INT64_MIN (no signed overflow), which the category allows. */
static void test_runtime__bounds_step_past_int64_max(void **state)
{
    (void)state;
    int64_t field = INT64_MAX;
    bcw_rt_worker *w = worker_new(&field);
    bool met;
    bcw_wire_param p = {.fixed = BCW_FIXED_BOUNDS, .bounds = 1, .nbounds = 1};
    node(w, 0, BCW_C_FIELD, 64, 0, 0, 0);
    node(w, 1, BCW_C_UNEQUAL, 0, 0, 0, 0);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), (uint64_t)INT64_MIN);
    worker_free(w);
}

/* A condition of a signed 64-bit parameter turning at INT64_MIN + 1
 * (x > INT64_MIN): INT64_MIN is a candidate, and its distance from 1
 * must be computed without signed overflow; 1 meets it and wins. */
static void test_runtime__solve_at_int64_min(void **state)
{
    (void)state;
    int64_t field = 0;
    bcw_rt_worker *w = worker_new(&field);
    bool met;
    bcw_wire_param p = {.fixed = BCW_FIXED_BOUNDS,
                        .abi = BCW_ABI_S64,
                        .bounds = 3,
                        .nbounds = 1};
    node(w, 0, BCW_C_PARAM, 64, 0, 0, 0);
    node(w, 1, BCW_C_CONST, 64, INT64_MIN, 0, 0);
    node(w, 2, BCW_C_ICMP, 1, 0, 0, 1);
    w->shm->pool[2].pred = 38; /* sgt */
    node(w, 3, BCW_C_HOLDS, 0, 0, 2, 0);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), 1);
    /* fails: only INT64_MIN is not greater */
    node(w, 3, BCW_C_FAILS, 0, 0, 2, 0);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), (uint64_t)INT64_MIN);
    worker_free(w);
}

/* An unsigned 32-bit length whose sum with the index passed before it
 * must wrap (index + length < index): found above the lowest quarter,
 * where the sum turns, on the index the call chose. */
static void test_runtime__solve_a_wrap_on_an_earlier_argument(void **state)
{
    (void)state;
    int64_t field = 0;
    bcw_rt_worker *w = worker_new(&field);
    bool met;
    bcw_wire_param p = {.fixed = BCW_FIXED_BOUNDS,
                        .abi = BCW_ABI_U32,
                        .bounds = 3,
                        .nbounds = 1};
    uint64_t args[2] = {0, 5};
    w->solving_args = args;
    w->nsolving_args = 2;
    node(w, 0, BCW_C_ARG, 32, 1, 0, 0);
    node(w, 1, BCW_C_PARAM, 32, 0, 0, 0);
    node(w, 4, BCW_C_ADD, 32, 0, 0, 1);
    node(w, 2, BCW_C_ICMP, 1, 0, 4, 0);
    w->shm->pool[2].pred = 36; /* ult */
    node(w, 3, BCW_C_HOLDS, 0, 0, 2, 0);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), UINT32_MAX - 4);
    assert_true(met);
    worker_free(w);
}

/* Bounds over a signed parameter do not wrap: with the field (a
 * balance) INT64_MAX, no long is above it, where the 64-bit sum
 * field + 1 would be INT64_MIN and let every amount pass for one; and
 * every long is at most field + field, the boundary INT64_MAX. */
static void test_runtime__signed_bounds_do_not_wrap(void **state)
{
    (void)state;
    int64_t field = INT64_MAX;
    bcw_rt_worker *w = worker_new(&field);
    bool met;
    bcw_wire_param p = {.fixed = BCW_FIXED_BOUNDS,
                        .abi = BCW_ABI_S64,
                        .bounds = 2,
                        .nbounds = 1};
    node(w, 0, BCW_C_FIELD, 64, 0, 0, 0);
    node(w, 2, BCW_C_LOWER, 0, 1, 0, 0);
    bcw_rt_bounds_value(w, &p, &met);
    assert_false(met);
    node(w, 1, BCW_C_ADD, 64, 0, 0, 0);
    node(w, 2, BCW_C_UPPER, 0, 0, 1, 0);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), (uint64_t)INT64_MAX);
    assert_true(met);
    /* an unsigned parameter's values start at 0: index < size on an
     * empty array (size - 1 is -1, not UINT64_MAX) has none */
    p.abi = BCW_ABI_U64;
    field = 0;
    node(w, 1, BCW_C_SUB, 64, 0, 0, 3);
    node(w, 3, BCW_C_CONST, 64, 1, 0, 0);
    node(w, 2, BCW_C_UPPER, 0, 0, 1, 0);
    bcw_rt_bounds_value(w, &p, &met);
    assert_false(met);
    field = 3;
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), 2);
    assert_true(met);
    worker_free(w);
}

/* amount <= 0 && amount > field + 1: on an object whose field is 0 the
 * bounds cross and no value is of the category, which the worker must
 * not pass under its label; with the field -5 the category's boundary,
 * -3, is. */
static void test_runtime__bounds_that_cross_are_unmet(void **state)
{
    (void)state;
    int64_t field = 0;
    bcw_rt_worker *w = worker_new(&field);
    bool met;
    bcw_wire_param p = {.fixed = BCW_FIXED_BOUNDS, .bounds = 2, .nbounds = 2};
    node(w, 0, BCW_C_FIELD, 64, 0, 0, 0);
    node(w, 1, BCW_C_CONST, 64, 0, 0, 0);
    node(w, 2, BCW_C_LOWER, 0, 2, 0, 0);
    node(w, 3, BCW_C_UPPER, 0, 0, 1, 0);
    bcw_rt_bounds_value(w, &p, &met);
    assert_false(met);
    field = -5;
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), (uint64_t)-3);
    assert_true(met);
    /* a condition no candidate meets: x < field and x > field */
    p = (bcw_wire_param){.fixed = BCW_FIXED_BOUNDS,
                         .abi = BCW_ABI_S64,
                         .bounds = 7,
                         .nbounds = 2};
    node(w, 4, BCW_C_PARAM, 64, 0, 0, 0);
    node(w, 5, BCW_C_ICMP, 1, 0, 4, 0);
    w->shm->pool[5].pred = 40; /* slt */
    node(w, 6, BCW_C_ICMP, 1, 0, 4, 0);
    w->shm->pool[6].pred = 38; /* sgt */
    node(w, 7, BCW_C_HOLDS, 0, 0, 5, 0);
    node(w, 8, BCW_C_HOLDS, 0, 0, 6, 0);
    assert_int_equal(bcw_rt_bounds_value(w, &p, &met), 1);
    assert_false(met);
    worker_free(w);
}

/* The memo of solved values gives what solving gives, for each value of
 * the fields and earlier arguments a category reads (a 64-bit field, a
 * 32-bit one, an argument), met again after others took its entry; a
 * category reading more leaves than a memo key holds is solved each
 * time, rightly too. */
static void test_runtime__memo_answers_as_solving_does(void **state)
{
    (void)state;
    struct {
        int64_t have;
        int32_t want;
        int32_t more[6];
    } obj = {0};
    bcw_rt_worker *w = worker_new(&obj);
    uint64_t args[1] = {0};
    w->solving_args = args;
    w->nsolving_args = 1;
    /* entry 0, parameter 1: x + have + args[0] >= want, signed 32 bits */
    bcw_wire_param *p = &w->shm->funcs[0].params[1];
    *p = (bcw_wire_param){.fixed = BCW_FIXED_BOUNDS,
                          .abi = BCW_ABI_S32,
                          .bounds = 7,
                          .nbounds = 1};
    node(w, 0, BCW_C_PARAM, 32, 0, 0, 0);
    node(w, 1, BCW_C_FIELD, 32, 0, 0, 0);
    node(w, 2, BCW_C_ARG, 32, 0, 0, 0);
    node(w, 3, BCW_C_ADD, 32, 0, 0, 1);
    node(w, 4, BCW_C_ADD, 32, 0, 3, 2);
    node(w, 5, BCW_C_FIELD, 32, 8, 0, 0);
    node(w, 6, BCW_C_ICMP, 1, 0, 4, 5);
    w->shm->pool[6].pred = 39; /* sge */
    node(w, 7, BCW_C_HOLDS, 0, 0, 6, 0);
    /* parameter 2: x >= the sum of seven 32-bit fields */
    bcw_wire_param *q = &w->shm->funcs[0].params[2];
    *q =
        (bcw_wire_param){.fixed = BCW_FIXED_BOUNDS, .bounds = 22, .nbounds = 1};
    node(w, 8, BCW_C_FIELD, 32, 8, 0, 0);
    for (uint32_t i = 0; i < 6; i++) {
        node(w, 9 + i, BCW_C_FIELD, 32, 12 + 4 * i, 0, 0);
        node(w, 15 + i, BCW_C_ADD, 32, 0, i == 0 ? 8 : 14 + i, 9 + i);
    }
    node(w, 22, BCW_C_LOWER, 0, 0, 20, 0);
    bcw_rt_bounds_setup(w, 0, 1);
    bcw_rt_bounds_setup(w, 0, 2);
    assert_int_equal(w->leaves[0][1].n, 3);
    assert_true(w->leaves[0][2].n > BCW_RT_BOUNDS_LEAVES);
    uint64_t seed = 7;
    for (int round = 0; round < 20000; round++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        obj.have = (int64_t)(seed >> 33) % 9 - 4;
        obj.want = (int32_t)(seed >> 45) % 7;
        obj.more[(seed >> 20) % 6] = (int32_t)(seed >> 50) % 3;
        args[0] = (seed >> 40) % 3;
        for (unsigned k = 1; k <= 2; k++) {
            const bcw_wire_param *r = &w->shm->funcs[0].params[k];
            bool met, memo_met;
            uint64_t v = bcw_rt_bounds_value(w, r, &met);
            assert_int_equal(bcw_rt_bounds_memo(w, 0, k, &memo_met), v);
            assert_int_equal(memo_met, met);
        }
    }
    worker_free(w);
}

/* The built-in closure `kind` of signature sig (result first) for
 * parameter k of plan entry 0: what the code under test would call. */
static bcw_rt_closure *closure(bcw_rt_worker *w, unsigned k,
                               enum bcw_callback kind, const uint8_t *sig,
                               unsigned nsig)
{
    bcw_wire_param *p = &w->shm->funcs[0].params[k];
    *p = (bcw_wire_param){.kind = BCW_PK_CALLBACK,
                          .fixed = BCW_FIXED_CLOSURE,
                          .value = kind,
                          .nsig = (uint8_t)nsig};
    memcpy(p->sig, sig, nsig);
    assert_int_equal(bcw_rt_closure_make(w, p, &w->closures[0][k]), 0);
    return w->closures[0][k];
}

static void closure_free(bcw_rt_closure *c)
{
    ffi_closure_free(c->fc);
    free(c);
}

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

/* The built-ins over element cells, NULL and another pointer: compare is
 * a total order that says 0 exactly for the same element, equal says
 * the same, the same element hashes alike and distinct cells apart; a seed
 * and length between the elements and user data after them do not
 * count; the predicate holds for odd cells; free frees nothing. */
static void test_runtime__closures_agree(void **state)
{
    (void)state;
    int ud = 0;
    bcw_rt_worker *w = worker_new(&ud);
    typedef int (*cmp_fn)(const void *, const void *, void *);
    typedef bool (*eq_fn)(const void *, const void *);
    typedef uint64_t (*hash_fn)(const void *, int, uint32_t);
    typedef bool (*pred_fn)(const void *);
    typedef void (*free_fn)(void *);
    bcw_rt_closure *cc = closure(
        w, 0, BCW_CB_COMPARE,
        (uint8_t[]){BCW_ABI_S32, BCW_ABI_PTR, BCW_ABI_PTR, BCW_ABI_PTR}, 4);
    bcw_rt_closure *ec =
        closure(w, 1, BCW_CB_EQUAL,
                (uint8_t[]){BCW_ABI_BOOL, BCW_ABI_PTR, BCW_ABI_PTR}, 3);
    bcw_rt_closure *hc = closure(
        w, 2, BCW_CB_HASH,
        (uint8_t[]){BCW_ABI_U64, BCW_ABI_PTR, BCW_ABI_S32, BCW_ABI_U32}, 4);
    bcw_rt_closure *pc = closure(w, 3, BCW_CB_PREDICATE,
                                 (uint8_t[]){BCW_ABI_BOOL, BCW_ABI_PTR}, 2);
    bcw_rt_closure *fc =
        closure(w, 4, BCW_CB_FREE, (uint8_t[]){BCW_ABI_VOID, BCW_ABI_PTR}, 2);
    cmp_fn cmp = (cmp_fn)cc->code;
    eq_fn eq = (eq_fn)ec->code;
    hash_fn hash = (hash_fn)hc->code;
    const void *keys[] = {w->cells[0], w->cells[1],
                          w->cells[2], w->cells[BCW_RT_CELLS - 1],
                          NULL,        &ud};
    enum { N = sizeof keys / sizeof *keys };
    for (unsigned i = 0; i < N; i++)
        for (unsigned j = 0; j < N; j++) {
            int c = cmp(keys[i], keys[j], &ud);
            assert_int_equal(c == 0, i == j);
            assert_int_equal(sign(c), -sign(cmp(keys[j], keys[i], NULL)));
            assert_int_equal(eq(keys[i], keys[j]), i == j);
            if (i == j)
                assert_true(hash(keys[i], 4, 1) == hash(keys[j], 8, 2));
            for (unsigned k = 0; k < N; k++)
                if (c < 0 && cmp(keys[j], keys[k], &ud) < 0)
                    assert_true(cmp(keys[i], keys[k], &ud) < 0);
        }
    for (unsigned i = 0; i < 4; i++)
        for (unsigned j = 0; j < i; j++)
            assert_true(hash(keys[i], 4, 1) != hash(keys[j], 4, 1));
    pred_fn pred = (pred_fn)pc->code;
    assert_false(pred(w->cells[0]));
    assert_true(pred(w->cells[1]));
    assert_false(pred(w->cells[2]));
    assert_int_equal(pc->calls, 3);
    /* a cell is not the heap's: free(3) would abort here */
    ((free_fn)fc->code)(w->cells[1]);
    assert_int_equal(fc->calls, 1);
    bcw_rt_closure *all[] = {cc, ec, hc, pc, fc};
    for (size_t i = 0; i < sizeof all / sizeof *all; i++)
        closure_free(all[i]);
    worker_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runtime__pointers_numbered_past_64),
        cmocka_unit_test(test_runtime__bounds_divide_int64_min_by_minus_one),
        cmocka_unit_test(test_runtime__bounds_step_past_int64_max),
        cmocka_unit_test(test_runtime__solve_at_int64_min),
        cmocka_unit_test(test_runtime__solve_a_wrap_on_an_earlier_argument),
        cmocka_unit_test(test_runtime__bounds_that_cross_are_unmet),
        cmocka_unit_test(test_runtime__signed_bounds_do_not_wrap),
        cmocka_unit_test(test_runtime__memo_answers_as_solving_does),
        cmocka_unit_test(test_runtime__closures_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
