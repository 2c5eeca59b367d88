/* test_solver.c - Z3 categories of parameters, on the examples. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/error.h"
#include "bcwalk/solver.h"
#include "callbacks.h"
#include "model.h"
#include "session.h"

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
    /* the enumerators first; the cases equal to one are not repeated */
    expect(mode, 0, "SBUF_KEEP", 1, (int64_t[]){0});
    expect(mode, 2, "SBUF_LOWER", 1, (int64_t[]){4});
    /* implied conditions are left out of labels */
    expect(mode, 3, "mode != 0 && mode != 1 && mode != 4", 3,
           (int64_t[]){2, INT32_MIN, INT32_MAX});
    bcw_model_free(m);
}

static void test_solver__stored_enum_gets_its_enumerators(void **state)
{
    (void)state;
    bcw_model *m = partitioned("range.bc");
    const bcw_param *mode = param(m, "range_new", 0);
    assert_int_equal(mode->nconds, 0);
    assert_int_equal(mode->nparts, 3);
    expect(mode, 0, "RANGE_GROW", 1, (int64_t[]){0});
    expect(mode, 1, "RANGE_FIXED", 1, (int64_t[]){1});
    expect(mode, 2, "RANGE_SORTED", 1, (int64_t[]){4});
    assert_null(mode->parts_note);
    bcw_model_free(m);
}

static void test_solver__earlier_parameters_and_wraps(void **state)
{
    (void)state;
    bcw_model *m = partitioned("range.bc");
    const bcw_param *length = param(m, "range_remove", 2);
    /* index + length > len is length's, over index's value, with its wrap */
    assert_int_equal(length->nconds, 2);
    assert_string_equal(length->conds[1].text, "index + length wraps");
    const bcw_cnode *wrap = &length->nodes[length->conds[1].root];
    const bcw_cnode *sum = &length->nodes[wrap->a];
    assert_int_equal(sum->op, BCW_C_ADD);
    assert_int_equal(length->nodes[sum->a].op, BCW_C_ARG);
    assert_int_equal(length->nodes[sum->a].value, 1);
    assert_int_equal(length->nodes[sum->b].op, BCW_C_PARAM);
    /* every combination is feasible: solved at call time */
    assert_int_equal(length->nparts, 4);
    for (unsigned i = 0; i < length->nparts; i++)
        assert_string_equal(length->parts[i].rel_text, "solved");
    /* the index's own conditions do not name the later length */
    assert_int_equal(param(m, "range_remove", 1)->nconds, 1);
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
    /* hset_new checks it for NULL: NULL too */
    assert_int_equal(eq->nparts, 2);
    assert_string_equal(eq->parts[0].str, "hset_ptr_eq");
    assert_string_equal(m->syms[eq->parts[0].values[0]], "hset_ptr_eq");
    assert_string_equal(eq->parts[1].str, "NULL");
    assert_true(eq->parts[1].values[0] == BCW_CB_NULL_VALUE);
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

/* A callback's kind: the last word of its name, else of its typedef,
 * that names a kind its signature allows, in any case; else the
 * signature's. */
static void test_solver__callback_kinds_by_name_and_shape(void **state)
{
    (void)state;
    enum { V = BCW_ABI_VOID, P = BCW_ABI_PTR, I = BCW_ABI_S32 };
    static const struct {
        const char *name, *ctype;
        uint8_t nsig, sig[4];
        enum bcw_callback want;
        const char *fn; /* the function taking it, NULL: a field */
    } cases[] = {
        /* the typedef tells when the name does not (case-blind) */
        {"callback", "ArrayListEqualFunc", 3, {I, P, P}, BCW_CB_EQUAL},
        {"callback", "ListCompareFunc", 3, {I, P, P}, BCW_CB_COMPARE},
        {"equal_func", "HashTableEqualFunc", 3, {I, P, P}, BCW_CB_EQUAL},
        {"f", "strcmp_fn", 3, {I, P, P}, BCW_CB_COMPARE},
        /* the name before the typedef; its last fitting word first */
        {"key_equal", "GCompareFunc", 3, {I, P, P}, BCW_CB_EQUAL},
        {"key_free_func", "HashTableKeyFreeFunc", 2, {V, P}, BCW_CB_FREE},
        {"hash_func", "BloomFilterHashFunc", 2, {BCW_ABI_U32, P}, BCW_CB_HASH},
        /* three arguments: a seed and a length, user data */
        {"hash",
         "cc_hash_fn",
         4,
         {BCW_ABI_U64, P, I, BCW_ABI_U32},
         BCW_CB_HASH},
        {"cmp", "cmp_r_fn", 4, {I, P, P, P}, BCW_CB_COMPARE},
        {"eq", NULL, 4, {BCW_ABI_BOOL, P, P, P}, BCW_CB_EQUAL},
        /* predicates, whatever their result's type */
        {"pred",
         "bool (*)(const void *)",
         2,
         {BCW_ABI_BOOL, P},
         BCW_CB_PREDICATE},
        {"predicate", "int (*)(void *)", 2, {I, P}, BCW_CB_PREDICATE},
        {"match", NULL, 2, {I, P}, BCW_CB_PREDICATE},
        /* free functions and visitors */
        {"free_func", "SetFreeFunc", 2, {V, P}, BCW_CB_FREE},
        {"destroy", NULL, 2, {V, P}, BCW_CB_FREE},
        {"visit", "hset_visit_fn", 3, {V, P, P}, BCW_CB_VISIT},
        {"hash", NULL, 2, {V, P}, BCW_CB_VISIT},
        /* no word: the signature's kind */
        {"fn", NULL, 3, {I, P, P}, BCW_CB_COMPARE},
        {"fn", NULL, 3, {BCW_ABI_BOOL, P, P}, BCW_CB_EQUAL},
        {"fn", NULL, 2, {BCW_ABI_U64, P}, BCW_CB_HASH},
        {"fn", NULL, 2, {I, P}, BCW_CB_PREDICATE},
        {"fn", NULL, 2, {P, P}, BCW_CB_ZERO},
        {"fn", NULL, 2, {I, I}, BCW_CB_ZERO},
        /* words inside others do not count: "eq" of "seq", "is" of
         * "list" */
        {"seq_fn", "list_cb", 3, {BCW_ABI_BOOL, P, P}, BCW_CB_EQUAL},
        {"seq_fn", NULL, 3, {I, P, P}, BCW_CB_COMPARE},
        /* no word of its own: its setter's (a field's has none) */
        {"f", "void (*)(void *)", 2, {V, P}, BCW_CB_FREE, "csv_set_free_func"},
        {"f", "void (*)(void *)", 2, {V, P}, BCW_CB_VISIT, NULL},
        {"cb", NULL, 3, {I, P, P}, BCW_CB_EQUAL, "tab_find_equal"},
        {"cmp", NULL, 3, {I, P, P}, BCW_CB_COMPARE, "tab_find_equal"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bcw_param p = {.name = (char *)cases[i].name,
                       .ctype = (char *)cases[i].ctype,
                       .kind = BCW_PK_CALLBACK,
                       .nsig = cases[i].nsig};
        memcpy(p.sig, cases[i].sig, cases[i].nsig);
        if (bcw__callbacks_kind(&p, cases[i].fn) != cases[i].want)
            fail_msg("case %zu (%s, %s): kind %d, not %d", i, cases[i].name,
                     cases[i].ctype ? cases[i].ctype : "-",
                     bcw__callbacks_kind(&p, cases[i].fn), cases[i].want);
    }
}

/* The module's functions of a callback's type (typedefs resolved) and
 * kind, by symbol, else the built-in of its kind. */
static void test_solver__callbacks_of_their_kind(void **state)
{
    (void)state;
    bcw_model *m = partitioned("cbmap.bc");
    static const struct {
        const char *fn;
        unsigned k;
        const char *given;
        enum bcw_callback builtin; /* 0: the module's function */
        bool null;                 /* checked for NULL: NULL next */
    } cases[] = {
        {"cbmap_new", 0, "cbmap_str_hash", 0, true},
        {"cbmap_new", 1, "cbmap_int_equal", 0, true},
        {"cbmap_min_key", 1, "cbmap_int_compare", 0, false},
        {"cbmap_count_if", 1, "bcw_pred", BCW_CB_PREDICATE, false},
        {"cbmap_each", 1, "bcw_visit", BCW_CB_VISIT, false},
        /* checked for NULL in the helper it is passed to */
        {"cbmap_clear", 1, "bcw_free", BCW_CB_FREE, true},
        {"cbset_new", 0, "bcw_compare", BCW_CB_COMPARE, true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const bcw_param *p = param(m, cases[i].fn, cases[i].k);
        assert_int_equal(p->nparts, 1u + cases[i].null);
        if (cases[i].null)
            assert_true(p->parts[1].values[0] == BCW_CB_NULL_VALUE);
        assert_string_equal(p->parts[0].str, cases[i].given);
        if (cases[i].builtin != 0)
            assert_int_equal(p->parts[0].values[0], -(int64_t)cases[i].builtin);
        else
            assert_string_equal(m->syms[p->parts[0].values[0]], cases[i].given);
    }
    assert_string_equal(param(m, "cbmap_new", 1)->ctype, "cbmap_equal_fn");
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

/* Conditions Z3 cannot take as they are (operands of different widths,
 * a predicate LLVM does not have) are a note, never a Z3 error or a
 * crash. */
static void test_solver__untranslatable_conditions_get_a_note(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/faulty.bc", BCW_EXAMPLES);
    for (int how = 0; how < 2; how++) {
        bcw_model *m = NULL;
        if (bcw_model_analyze(&m, path) < 0)
            fail_msg("%s: %s", path, bcw_error_last());
        bcw_param *cap = (bcw_param *)param(m, "faulty_with_capacity", 0);
        assert_int_equal(cap->nconds, 1);
        bcw_cnode *cmp = &cap->nodes[cap->conds[0].root];
        assert_int_equal(cmp->op, BCW_C_ICMP);
        if (how == 0)
            cap->nodes[cmp->b].bits = 16; /* cap >= (short)100 */
        else
            cmp->pred = 99;
        assert_int_equal(bcw_model_partition(m), 0);
        assert_int_equal(cap->nparts, 0);
        assert_non_null(cap->parts_note);
        assert_non_null(strstr(cap->parts_note, "not translated to Z3"));
        bcw_model_free(m);
    }
}

/* An error Z3 reports is recorded by the session's handler (Z3's default
 * one exits) and becomes BCW_ERROR with Z3's message, sticky: no NULL
 * term goes back into Z3. */
static void test_solver__z3_errors_are_errors(void **state)
{
    (void)state;
    bcw_session s;
    assert_int_equal(bcw__session_open(&s), 0);
    Z3_ast a = bcw__session_int(&s, 1, 8), b = bcw__session_int(&s, 1, 16);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(bcw__session_check(&s), 0);
    /* operands of different widths */
    assert_null(bcw__session_keep(&s, Z3_mk_bvadd(s.z, a, b)));
    assert_int_equal(bcw__session_check(&s), BCW_ERROR);
    assert_non_null(strstr(bcw_error_last(), "Z3 failed"));
    assert_null(bcw__session_int(&s, 2, 8));
    assert_int_equal(s.err, BCW_ERROR);
    bcw__session_close(&s);
    bcw__session_close(&s); /* closing twice is harmless */
    /* a pop past the scopes pushed: an error without a term */
    assert_int_equal(bcw__session_open(&s), 0);
    Z3_solver_pop(s.z, s.sv, 3);
    assert_int_equal(bcw__session_check(&s), BCW_ERROR);
    bcw__session_close(&s);
}

/* Did the allocation made to fail fail?  The wrapper records every
 * failure it makes, and nothing else says "out of memory". */
static bool allocation_failed(void)
{
    return strstr(bcw_error_last(), "out of memory") != NULL;
}

/* Fails the Nth allocation of bcw_model_partition on `name`, for N = 1,
 * 2, ... until a run makes no failure: each run fails with BCW_ENOMEM (no
 * crash, no NULL handed to Z3, no leak under ASan, never a note instead),
 * and a run that succeeds made no failure it swallowed. */
static void partition_fails_cleanly(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", BCW_EXAMPLES, name);
    for (unsigned long nth = 1;; nth++) {
        bcw_model *m = NULL;
        if (bcw_model_analyze(&m, path) < 0)
            fail_msg("%s: %s", path, bcw_error_last());
        bcw__error_clear();
        bcw__alloc_fail_at(nth);
        int err = bcw_model_partition(m);
        bcw__alloc_fail_at(0);
        bool failed = allocation_failed();
        bcw_model_free(m);
        if (err == 0) {
            assert_false(failed);
            assert_true(nth > 1);
            break;
        }
        if (err != BCW_ENOMEM)
            fail_msg("%s, allocation %lu failing: error %d (%s)", name, nth,
                     err, bcw_error_last());
        assert_true(nth < 100000);
    }
}

static void test_solver__partition_allocation_failures(void **state)
{
    (void)state;
    /* constant ranges, relative bounds, solved conditions, switches,
     * strings, callbacks, elements and lengths */
    const char *const names[] = {"faulty.bc", "account.bc", "counter.bc",
                                 "sbuf.bc",   "cfg.bc",     "hset.bc"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        partition_fails_cleanly(names[i]);
}

/* Entries of `dir`/models (model files or anything left of writing one),
 * removed as they are counted, and then the folders themselves. */
static unsigned clear_cache(const char *dir)
{
    char models[600], file[1200];
    snprintf(models, sizeof models, "%s/models", dir);
    unsigned n = 0;
    DIR *d = opendir(models);
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(file, sizeof file, "%s/%s", models, e->d_name);
        unlink(file);
        n++;
    }
    if (d != NULL)
        closedir(d);
    rmdir(models);
    rmdir(dir);
    return n;
}

/* The same for bcw_model_open with a fresh cache folder each time: a run
 * that fails returns BCW_ENOMEM and leaves no model in the cache (a model
 * made under a failure could say less than the bitcode); the first run
 * that makes no failure caches its model.
 *
 * A run may also succeed although it made a failure, only one in
 * filling the cache, which is not an error: then no model is cached. */
static void open_fails_cleanly(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", BCW_EXAMPLES, name);
    const char *tmp = getenv("TMPDIR");
    for (unsigned long nth = 1;; nth++) {
        char dir[512];
        snprintf(dir, sizeof dir, "%s/bcw-test-solver-XXXXXX",
                 tmp != NULL && tmp[0] == '/' ? tmp : "/tmp");
        assert_non_null(mkdtemp(dir));
        bcw_model *m = NULL;
        bcw__error_clear();
        bcw__alloc_fail_at(nth);
        int err = bcw_model_open(&m, path, dir);
        bcw__alloc_fail_at(0);
        bool failed = allocation_failed();
        unsigned cached = clear_cache(dir);
        if (err == 0) {
            assert_non_null(m);
            assert_true(m->nunits > 0);
            bcw_model_free(m);
            if (failed) { /* in filling the cache: nothing cached */
                if (cached != 0)
                    fail_msg("%s, allocation %lu failing: a model made "
                             "under the failure was cached",
                             name, nth);
                continue;
            }
            assert_int_equal(cached, 1);
            assert_true(nth > 1);
            break;
        }
        assert_null(m);
        assert_int_equal(cached, 0);
        if (err != BCW_ENOMEM)
            fail_msg("%s, allocation %lu failing: error %d (%s)", name, nth,
                     err, bcw_error_last());
        assert_true(nth < 100000);
    }
}

static void test_solver__open_allocation_failures(void **state)
{
    (void)state;
    open_fails_cleanly("faulty.bc");
    open_fails_cleanly("account.bc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver__range_categories_with_boundaries),
        cmocka_unit_test(test_solver__switch_cases_are_categories),
        cmocka_unit_test(test_solver__stored_enum_gets_its_enumerators),
        cmocka_unit_test(test_solver__earlier_parameters_and_wraps),
        cmocka_unit_test(test_solver__unconstrained_and_field_relative),
        cmocka_unit_test(test_solver__conditions_in_callees),
        cmocka_unit_test(test_solver__callee_compares_with_fields),
        cmocka_unit_test(test_solver__strings_callbacks_elements_lengths),
        cmocka_unit_test(test_solver__callback_kinds_by_name_and_shape),
        cmocka_unit_test(test_solver__callbacks_of_their_kind),
        cmocka_unit_test(test_solver__unsigned_64_bit_extremes),
        cmocka_unit_test(test_solver__z3_errors_are_errors),
        cmocka_unit_test(test_solver__untranslatable_conditions_get_a_note),
        cmocka_unit_test(test_solver__partition_allocation_failures),
        cmocka_unit_test(test_solver__open_allocation_failures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
