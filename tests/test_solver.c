/* test_solver.c - Z3 categories of parameters, on the examples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bcwalk/error.h"
#include "bcwalk/solver.h"
#include "model.h"

static bcw_model *partitioned(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", BCW_EXAMPLES, name);
    bcw_model *m = NULL;
    if (bcw_model_analyze(&m, path) < 0 || bcw_model_partition(m) < 0)
        fail_msg("%s: %s", path, bcw_error_last());
    return m;
}

static const bcw_param *param(const bcw_model *m, const char *fn, unsigned k)
{
    for (unsigned i = 0; i < m->nunits; i++)
        for (unsigned j = 0; j < m->units[i].nfuncs; j++)
            if (strcmp(m->units[i].funcs[j].name, fn) == 0)
                return &m->units[i].funcs[j].params[k];
    fail_msg("no function %s", fn);
    return NULL;
}

static void expect(const bcw_param *p, unsigned c, const char *label,
                   unsigned n, const int64_t *values)
{
    assert_true(c < p->nparts);
    assert_string_equal(p->parts[c].label, label);
    assert_int_equal(p->parts[c].nvalues, n);
    for (unsigned i = 0; i < n; i++)
        assert_int_equal(p->parts[c].values[i], values[i]);
}

static void test_solver__range_categories_with_boundaries(void **state)
{
    (void)state;
    bcw_model *m = partitioned("faulty.bc");
    const bcw_param *cap = param(m, "faulty_with_capacity", 0);
    assert_int_equal(cap->nparts, 2);
    /* representative first (nearest 1), then minimum and maximum */
    expect(cap, 0, "cap >= 100", 2, (int64_t[]){100, INT32_MAX});
    expect(cap, 1, "cap < 100", 3, (int64_t[]){1, INT32_MIN, 99});
    bcw_model_free(m);
}

static void test_solver__switch_cases_are_categories(void **state)
{
    (void)state;
    bcw_model *m = partitioned("sbuf.bc");
    const bcw_param *mode = param(m, "sbuf_set_case", 1);
    assert_int_equal(mode->nparts, 4);
    /* implied conditions are left out of labels */
    expect(mode, 0, "mode != 0 && mode != 1 && mode != 4", 3,
           (int64_t[]){2, INT32_MIN, INT32_MAX});
    expect(mode, 1, "mode == 0", 1, (int64_t[]){0});
    expect(mode, 3, "mode == 4", 1, (int64_t[]){4});
    bcw_model_free(m);
}

static void test_solver__unconstrained_and_field_relative(void **state)
{
    (void)state;
    bcw_model *m = partitioned("account.bc");
    const bcw_param *dep = param(m, "account_deposit", 1);
    assert_int_equal(dep->nparts, 2);
    expect(dep, 1, "amount > 0", 2, (int64_t[]){1, INT64_MAX});
    /* withdraw compares amount with balance + limit: categories whose
     * bound is read from the live object */
    const bcw_param *wd = param(m, "account_withdraw", 1);
    assert_int_equal(wd->nparts, 4);
    const bcw_part *in = &wd->parts[1];
    assert_string_equal(in->label,
                        "amount > 0 && amount <= ((balance + limit) + 1)");
    assert_true(in->rel >= 0);
    assert_int_equal(in->nrel, 2);
    assert_string_equal(in->rel_text, "(balance + limit) + 1");
    assert_int_equal(wd->nodes[in->rel].op, BCW_C_UPPER);
    assert_int_equal(wd->nodes[in->rel].value, 0);
    assert_string_equal(wd->parts[3].rel_text, "(balance + limit) + 1 + 1");
    assert_null(wd->parts_note);
    bcw_model_free(m);
    m = partitioned("bstack.bc");
    /* push's value decides nothing: the master generator stays */
    assert_int_equal(param(m, "bstack_push", 1)->nparts, 0);
    assert_null(param(m, "bstack_push", 1)->parts_note);
    bcw_model_free(m);
}

static void test_solver__conditions_in_callees(void **state)
{
    (void)state;
    bcw_model *m = partitioned("callee.bc");
    /* in_range(rate, 1, 10): the helper's bounds are the caller's
     * constants */
    const bcw_param *rate = param(m, "tank_set_rate", 1);
    assert_int_equal(rate->nconds, 2);
    assert_string_equal(rate->conds[0].text, "rate >= 1");
    assert_string_equal(rate->conds[1].negated, "rate > 10");
    assert_int_equal(rate->nparts, 3);
    expect(rate, 0, "rate > 10", 2, (int64_t[]){11, INT32_MAX});
    expect(rate, 1, "rate < 1", 2, (int64_t[]){0, INT32_MIN});
    expect(rate, 2, "rate >= 1 && rate <= 10", 2, (int64_t[]){1, 10});
    /* too_many(n + 1) tests y > 10: the caller's expression */
    const bcw_param *n = param(m, "tank_drain", 1);
    assert_int_equal(n->nparts, 2);
    expect(n, 0, "(n + 1) <= 10", 3, (int64_t[]){1, INT32_MIN, INT32_MAX});
    expect(n, 1, "(n + 1) > 10", 2, (int64_t[]){10, INT32_MAX - 1});
    /* a switch two calls down */
    const bcw_param *mode = param(m, "tank_set_mode", 1);
    assert_int_equal(mode->nparts, 4);
    expect(mode, 0, "mode != 0 && mode != 1 && mode != 2", 3,
           (int64_t[]){3, INT32_MIN, INT32_MAX});
    expect(mode, 3, "mode == 2", 1, (int64_t[]){2});
    /* a recursive helper is scanned once */
    const bcw_param *v = param(m, "tank_digits", 1);
    assert_int_equal(v->nconds, 1);
    expect(v, 1, "v < 10", 3, (int64_t[]){1, INT32_MIN, 9});
    bcw_model_free(m);
}

static void test_solver__callee_compares_with_fields(void **state)
{
    (void)state;
    bcw_model *m = partitioned("callee.bc");
    /* fits(t, amount) tests amt <= t->capacity - t->level: the helper's
     * unit pointer reads the caller's fields */
    const bcw_param *amt = param(m, "tank_fill", 1);
    assert_int_equal(amt->nconds, 2);
    assert_string_equal(amt->conds[0].text, "amount > 0");
    assert_string_equal(amt->conds[1].text, "amount <= (capacity - level)");
    assert_string_equal(amt->conds[1].negated, "amount > (capacity - level)");
    const bcw_cnode *cmp = &amt->nodes[amt->conds[1].root];
    const bcw_cnode *sub = &amt->nodes[cmp->b];
    assert_int_equal(amt->nodes[cmp->a].op, BCW_C_PARAM);
    assert_int_equal(sub->op, BCW_C_SUB);
    assert_int_equal(amt->nodes[sub->a].op, BCW_C_FIELD);
    assert_int_equal(amt->nodes[sub->a].value, 8); /* capacity */
    assert_int_equal(amt->nodes[sub->b].value, 0); /* level */
    assert_int_equal(amt->nparts, 4);
    const bcw_part *in = &amt->parts[3];
    assert_string_equal(in->label,
                        "amount > 0 && amount <= (capacity - level)");
    assert_true(in->rel >= 0);
    assert_string_equal(in->rel_text, "capacity - level");
    assert_int_equal(amt->nodes[in->rel].op, BCW_C_UPPER);
    bcw_model_free(m);
    /* counter_step passes value + by to clamp(v, limit) */
    m = partitioned("counter.bc");
    const bcw_param *by = param(m, "counter_step", 1);
    assert_int_equal(by->nconds, 1);
    assert_string_equal(by->conds[0].text, "(value + by) > limit");
    bcw_model_free(m);
}

/* Strings: the literals compared with, then "", one character and a
 * long string; callbacks: the module's function of the type, by symbol;
 * elements: a new cell or Obj#0; unbranched lengths: 0, 1, 16. */
static void test_solver__strings_callbacks_elements_lengths(void **state)
{
    (void)state;
    bcw_model *m = partitioned("cfg.bc");
    const bcw_param *line = param(m, "cfg_command", 1);
    const char *const want[] = {
        "#", "xxxxxxxxxxxxxxxx", "xxxxxxxxxxxxxxxxx", "reset", "", "a"};
    assert_true(line->nparts == 7);
    for (unsigned i = 0; i < 6; i++)
        assert_string_equal(line->parts[i].str, want[i]);
    assert_string_equal(line->parts[0].label, "line[0] == '#'");
    assert_string_equal(line->parts[6].label, "none of them");
    assert_true(strlen(line->parts[6].str) > 17);
    const bcw_param *len = param(m, "cfg_checksum", 2);
    assert_int_equal(len->nparts, 3);
    expect(len, 2, "len == 16", 1, (int64_t[]){16});
    bcw_model_free(m);

    m = partitioned("hset.bc");
    const bcw_param *eq = param(m, "hset_new", 1);
    assert_int_equal(eq->nparts, 1);
    assert_string_equal(eq->parts[0].str, "hset_ptr_eq");
    assert_string_equal(m->syms[eq->parts[0].values[0]], "hset_ptr_eq");
    /* no visitor in the module: the built-in closure */
    const bcw_param *visit = param(m, "hset_foreach", 1);
    assert_int_equal(visit->nparts, 1);
    assert_int_equal(visit->parts[0].values[0], -BCW_CB_VISIT);
    assert_int_equal(visit->nsig, 3);
    const bcw_param *elem = param(m, "hset_add", 1);
    assert_int_equal(elem->nparts, 2);
    assert_int_equal(elem->parts[0].nvalues, 0); /* a new element */
    expect(elem, 1, "elem == Obj#0", 1, (int64_t[]){0});
    bcw_model_free(m);
}

/* A 64-bit unsigned parameter: its categories' extremes span the whole
 * unsigned range (the maximum is UINT64_MAX, shown as -1 in int64). */
static void test_solver__unsigned_64_bit_extremes(void **state)
{
    (void)state;
    bcw_model *m = partitioned("bank.bc");
    const bcw_param *limit = param(m, "bank_set_limit", 1);
    assert_int_equal(limit->nparts, 2);
    expect(limit, 0, "limit <= 1000000", 3, (int64_t[]){1, 0, 1000000});
    expect(limit, 1, "limit > 1000000", 2, (int64_t[]){1000001, -1});
    bcw_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver__range_categories_with_boundaries),
        cmocka_unit_test(test_solver__switch_cases_are_categories),
        cmocka_unit_test(test_solver__unconstrained_and_field_relative),
        cmocka_unit_test(test_solver__conditions_in_callees),
        cmocka_unit_test(test_solver__callee_compares_with_fields),
        cmocka_unit_test(test_solver__strings_callbacks_elements_lengths),
        cmocka_unit_test(test_solver__unsigned_64_bit_extremes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
