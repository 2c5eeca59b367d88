/* test_learn.c - the learned model's graph and James's merging, on
 * traces written by hand: what merges, what never does, loops, data
 * dependencies, the two thresholds, and the model's file. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bcwalk/error.h"
#include "learn.h"

static bcw_lval val(uint8_t kind, int64_t k)
{
    bcw_lval v = {.kind = kind, .value = k};
    char buf[32];
    switch (kind) {
    case BCW_LV_UNIT:
        snprintf(buf, sizeof buf, "#%lld", (long long)k);
        break;
    case BCW_LV_OBJ:
        snprintf(buf, sizeof buf, "Obj#%lld", (long long)k);
        break;
    case BCW_LV_NULL:
        snprintf(buf, sizeof buf, "NULL");
        break;
    default:
        snprintf(buf, sizeof buf, "%lld", (long long)k);
        break;
    }
    v.text = kind == BCW_LV_NONE ? NULL : strdup(buf);
    return v;
}

#define U(k) val(BCW_LV_UNIT, k)
#define OBJ(k) val(BCW_LV_OBJ, k)
#define INT(k) val(BCW_LV_INT, k)
#define NONE val(BCW_LV_NONE, 0)

/* Appends fn(args...) = result to test t; a call of the unit. */
static void call(bcw_ltest *t, const char *fn, const char *outcome,
                 bcw_lval result, unsigned nargs, ...)
{
    t->calls = realloc(t->calls, (t->ncalls + 1) * sizeof *t->calls);
    assert_non_null(t->calls);
    bcw_lcall *c = &t->calls[t->ncalls++];
    memset(c, 0, sizeof *c);
    c->fn = strdup(fn);
    c->func = 0;
    c->outcome = outcome ? strdup(outcome) : NULL;
    c->result = result;
    c->nargs = nargs;
    va_list ap;
    va_start(ap, nargs);
    for (unsigned i = 0; i < nargs; i++)
        c->args[i] = va_arg(ap, bcw_lval);
    va_end(ap);
}

static bcw_ltest *tests_new(unsigned n)
{
    bcw_ltest *t = calloc(n, sizeof *t);
    assert_non_null(t);
    for (unsigned i = 0; i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "test_%u", i);
        t[i].name = strdup(name);
        t[i].end = strdup("passed");
        t[i].passed = true;
    }
    return t;
}

/* A learned model holding the tests, its graph built and merged. */
static bcw_learned learned(bcw_ltest *tests, unsigned n, unsigned k_strict,
                           unsigned k_loose)
{
    bcw_learned l = {.unit = strdup("q"),
                     .how = strdup("by hand"),
                     .tests = tests,
                     .ntests = n,
                     .k_strict = k_strict,
                     .k_loose = k_loose};
    assert_int_equal(bcw__learn_graph(&l.graph, tests, n), 0);
    l.traced_nodes = l.graph.nnodes;
    l.traced_edges = l.graph.nedges;
    assert_int_equal(bcw__learn_merge(&l.graph, k_strict, k_loose), 0);
    return l;
}

/* The node of function fn (with outcome, or normal), the only one. */
static unsigned node(const bcw_lgraph *g, const char *fn, const char *outcome)
{
    int found = -1;
    for (unsigned i = 0; i < g->nnodes; i++)
        if (strcmp(g->nodes[i].fn, fn) == 0 &&
            (outcome ? g->nodes[i].outcome &&
                           strcmp(g->nodes[i].outcome, outcome) == 0
                     : g->nodes[i].outcome == NULL)) {
            assert_int_equal(found, -1);
            found = (int)i;
        }
    assert_true(found >= 0);
    return (unsigned)found;
}

static bool has_edge(const bcw_lgraph *g, unsigned from, unsigned to,
                     uint8_t kind, uint8_t param)
{
    for (unsigned e = 0; e < g->nedges; e++)
        if (g->edges[e].from == from && g->edges[e].to == to &&
            g->edges[e].kind == kind &&
            (kind == BCW_LE_CONTROL || g->edges[e].param == param))
            return true;
    return false;
}

#define CTRL(g, a, b) has_edge(g, a, b, BCW_LE_CONTROL, 0)

/* new; push x6; free: the pushes fold into one node with a loop. */
static void test_learn__a_repeated_call_becomes_a_loop(void **state)
{
    (void)state;
    bcw_ltest *t = tests_new(1);
    call(t, "q_new", NULL, U(0), 0);
    for (int i = 0; i < 6; i++)
        call(t, "q_push", NULL, INT(1), 2, U(0), OBJ(i % 2 + 1));
    call(t, "q_free", NULL, NONE, 1, U(0));
    bcw_learned l = learned(t, 1, 4, 1);
    assert_int_equal(l.traced_nodes, 8);
    assert_int_equal(l.traced_edges, 7);
    const bcw_lgraph *g = &l.graph;
    assert_int_equal(g->nnodes, 3);
    unsigned n = node(g, "q_new", NULL), p = node(g, "q_push", NULL),
             f = node(g, "q_free", NULL);
    assert_true(CTRL(g, n, p));
    assert_true(CTRL(g, p, p));
    assert_true(CTRL(g, p, f));
    assert_int_equal(g->nedges, 3);
    assert_int_equal(g->nodes[p].count, 6);
    assert_int_equal(g->nodes[p].values[1].n, 2); /* Obj#1, Obj#2 */
    assert_string_equal(g->nodes[p].values[1].v[0], "Obj#1");
    bcw__learned_free(&l);
}

/* With a strict threshold deeper than the pushes agree, and a loose one
 * no whole tree reaches, nothing merges: the thresholds decide. */
static void test_learn__thresholds_decide(void **state)
{
    (void)state;
    bcw_ltest *t = tests_new(1);
    call(t, "q_new", NULL, U(0), 0);
    for (int i = 0; i < 6; i++)
        call(t, "q_push", NULL, INT(1), 2, U(0), OBJ(1));
    call(t, "q_free", NULL, NONE, 1, U(0));
    bcw_learned l = learned(t, 1, 8, 8);
    assert_int_equal(l.graph.nnodes, 8);
    bcw__learned_free(&l);
}

/* new push pop free and new push free: k-tails generalises them into
 * one graph where pop is optional: four nodes, the push followed by pop
 * or free. */
static void test_learn__tests_merge_into_one_model(void **state)
{
    (void)state;
    bcw_ltest *t = tests_new(2);
    call(&t[0], "q_new", NULL, U(0), 0);
    call(&t[0], "q_push", NULL, INT(1), 2, U(0), OBJ(1));
    call(&t[0], "q_pop", NULL, OBJ(1), 1, U(0));
    call(&t[0], "q_free", NULL, NONE, 1, U(0));
    call(&t[1], "q_new", NULL, U(0), 0);
    call(&t[1], "q_push", NULL, INT(1), 2, U(0), OBJ(2));
    call(&t[1], "q_free", NULL, NONE, 1, U(0));
    bcw_learned l = learned(t, 2, 4, 1);
    const bcw_lgraph *g = &l.graph;
    assert_int_equal(l.traced_nodes, 7);
    assert_int_equal(g->nnodes, 4);
    unsigned n = node(g, "q_new", NULL), p = node(g, "q_push", NULL),
             o = node(g, "q_pop", NULL), f = node(g, "q_free", NULL);
    assert_true(CTRL(g, n, p));
    assert_true(CTRL(g, p, o));
    assert_true(CTRL(g, p, f));
    assert_true(CTRL(g, o, f));
    assert_int_equal(g->nedges, 4);
    /* the merged push keeps both tests and both items */
    assert_int_equal(g->nodes[p].tests.n, 2);
    assert_int_equal(g->nodes[p].values[1].n, 2);
    assert_int_equal(g->nodes[n].count, 2);
    bcw__learned_free(&l);
}

/* A call that crashed is never merged with the same function's normal
 * calls, nor calls of different functions with each other. */
static void test_learn__outcomes_and_functions_never_merge(void **state)
{
    (void)state;
    bcw_ltest *t = tests_new(2);
    call(&t[0], "q_new", NULL, U(0), 0);
    call(&t[0], "q_push", "crash (SIGSEGV)", NONE, 2, val(BCW_LV_NULL, 0),
         OBJ(1));
    call(&t[1], "q_new", NULL, U(0), 0);
    call(&t[1], "q_push", NULL, INT(1), 2, U(0), OBJ(1));
    call(&t[1], "q_peek", NULL, OBJ(1), 1, U(0));
    bcw_learned l = learned(t, 2, 1, 0);
    const bcw_lgraph *g = &l.graph;
    unsigned n = node(g, "q_new", NULL);
    unsigned crash = node(g, "q_push", "crash (SIGSEGV)");
    unsigned push = node(g, "q_push", NULL), peek = node(g, "q_peek", NULL);
    assert_int_equal(g->nnodes, 4);
    assert_true(CTRL(g, n, crash)); /* a call on no instance follows the last */
    assert_true(CTRL(g, n, push));
    assert_true(CTRL(g, push, peek));
    bcw__learned_free(&l);
}

/* Data: the object one call returns goes to the later call taking it;
 * control follows each instance on its own. */
static void test_learn__data_and_control_dependencies(void **state)
{
    (void)state;
    bcw_ltest *t = tests_new(1);
    call(t, "q_new", NULL, U(0), 0);
    call(t, "q_new", NULL, U(1), 0);
    call(t, "q_push", NULL, INT(1), 2, U(0), OBJ(1));
    call(t, "q_pop", NULL, OBJ(1), 1, U(0));
    call(t, "q_push", NULL, INT(1), 2, U(1), OBJ(1));
    call(t, "q_free", NULL, NONE, 1, U(1));
    bcw_lgraph g;
    assert_int_equal(bcw__learn_graph(&g, t, 1), 0);
    assert_int_equal(g.nnodes, 6);
    assert_true(CTRL(&g, 0, 2)); /* #0: new, push, pop */
    assert_true(CTRL(&g, 2, 3));
    assert_true(CTRL(&g, 1, 4)); /* #1: new, push, free */
    assert_true(CTRL(&g, 4, 5));
    assert_true(has_edge(&g, 3, 4, BCW_LE_DATA, 1));  /* pop's Obj#1 */
    assert_false(has_edge(&g, 2, 4, BCW_LE_DATA, 1)); /* push gave none */
    assert_int_equal(g.nedges, 5);
    bcw__lgraph_free(&g);
    bcw_learned l = {.tests = t, .ntests = 1};
    bcw__learned_free(&l);
}

/* The model's file keeps everything the reports and walks read; a
 * damaged one is refused. */
static void test_learn__model_file_round_trip(void **state)
{
    (void)state;
    bcw_ltest *t = tests_new(1);
    call(t, "q_new", NULL, U(0), 0);
    call(t, "q_push", NULL, INT(1), 2, U(0), OBJ(1));
    call(t, "q_pop", NULL, OBJ(1), 1, U(0));
    call(t, "q_push", NULL, INT(1), 2, U(0), OBJ(1));
    bcw_learned l = learned(t, 1, 4, 1);
    char path[] = "/tmp/bcwalk-test-learn-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(bcw__learned_save(&l, path), 0);
    bcw_learned back;
    assert_int_equal(bcw__learned_load(&back, path), 0);
    assert_string_equal(back.unit, "q");
    assert_int_equal(back.ntests, 1);
    assert_int_equal(back.tests[0].ncalls, 4);
    assert_string_equal(back.tests[0].calls[2].result.text, "Obj#1");
    assert_int_equal(back.graph.nnodes, l.graph.nnodes);
    assert_int_equal(back.graph.nedges, l.graph.nedges);
    assert_int_equal(back.traced_nodes, 4);
    bcw__learned_free(&back);
    /* one byte changed: the checksum no longer matches */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 40, SEEK_SET);
    int c = fgetc(f);
    fseek(f, 40, SEEK_SET);
    fputc(c ^ 0x20, f);
    fclose(f);
    assert_int_equal(bcw__learned_load(&back, path), BCW_EINPUT);
    unlink(path);
    bcw__learned_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_learn__a_repeated_call_becomes_a_loop),
        cmocka_unit_test(test_learn__thresholds_decide),
        cmocka_unit_test(test_learn__tests_merge_into_one_model),
        cmocka_unit_test(test_learn__outcomes_and_functions_never_merge),
        cmocka_unit_test(test_learn__data_and_control_dependencies),
        cmocka_unit_test(test_learn__model_file_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
