/* test_analyzer.c - unit discovery, roles and bad input, on bitcode of
 * the examples built by CMake. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "alloc.h"
#include "analyze.h"
#include "bcwalk/error.h"
#include "model.h"

static bcw_model *analyze(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", BCW_EXAMPLES, name);
    bcw_model *m = NULL;
    int err = bcw_model_analyze(&m, path);
    if (err < 0)
        fail_msg("%s: %s", path, bcw_error_last());
    return m;
}

static const bcw_func *func(const bcw_unit *u, const char *name)
{
    for (unsigned i = 0; i < u->nfuncs; i++)
        if (strcmp(u->funcs[i].name, name) == 0)
            return &u->funcs[i];
    fail_msg("no function %s in unit %s", name, u->name);
    return NULL;
}

static bool has(char **v, unsigned n, const char *s)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(v[i], s) == 0)
            return true;
    return false;
}

static void check_bstack(const char *file)
{
    bcw_model *m = analyze(file);
    assert_int_equal(bcw_model_unit_count(m), 1);
    const bcw_unit *u = &m->units[0];
    assert_string_equal(u->name, "bstack");
    assert_int_equal(u->size, 16);
    assert_int_equal(func(u, "bstack_new")->role, BCW_ROLE_CONSTRUCTOR);
    assert_int_equal(func(u, "bstack_free")->role, BCW_ROLE_DESTRUCTOR);
    assert_int_equal(func(u, "bstack_push")->role, BCW_ROLE_MUTATOR);
    assert_int_equal(func(u, "bstack_pop")->role, BCW_ROLE_MUTATOR);
    assert_int_equal(func(u, "bstack_top")->role, BCW_ROLE_OBSERVER);
    assert_int_equal(func(u, "bstack_size")->role, BCW_ROLE_OBSERVER);
    assert_int_equal(func(u, "bstack_is_empty")->role, BCW_ROLE_OBSERVER);
    assert_int_equal(func(u, "bstack_is_full")->role, BCW_ROLE_OBSERVER);
    const bcw_func *push = func(u, "bstack_push");
    assert_int_equal(push->nparams, 2);
    assert_int_equal(push->params[0].kind, BCW_PK_UNIT);
    assert_int_equal(push->params[1].kind, BCW_PK_INT);
    assert_int_equal(push->params[1].abi, BCW_ABI_S32);
    assert_int_equal(func(u, "bstack_is_empty")->ret.kind, BCW_PK_BOOL);
    assert_int_equal(func(u, "bstack_free")->role, BCW_ROLE_DESTRUCTOR);
    bcw_model_free(m);
}

static void test_analyzer__bstack_roles_at_O0(void **state)
{
    (void)state;
    check_bstack("bstack.bc");
    bcw_model *m = analyze("bstack.bc");
    const bcw_func *push = func(&m->units[0], "bstack_push");
    /* debug info gives names and C spellings */
    assert_string_equal(push->params[0].name, "s");
    assert_string_equal(push->params[0].ctype, "bstack *");
    assert_string_equal(push->params[1].name, "x");
    assert_string_equal(m->units[0].ctype, "bstack");
    bcw_model_free(m);
}

static void test_analyzer__bstack_roles_at_O2(void **state)
{
    (void)state;
    check_bstack("bstack-O2.bc");
}

static void test_analyzer__bstack_roles_without_debug_info(void **state)
{
    (void)state;
    check_bstack("bstack-nodebug.bc");
}

static void test_analyzer__bstack_roles_with_opaque_pointers(void **state)
{
    (void)state;
    check_bstack("bstack-opaque.bc");
    check_bstack("bstack-O2-opaque.bc");
    check_bstack("bstack-O2-nodebug.bc");
}

static void check_counter(const char *file)
{
    bcw_model *m = analyze(file);
    assert_int_equal(bcw_model_unit_count(m), 1);
    const bcw_unit *u = &m->units[0];
    assert_string_equal(u->name, "counter");
    assert_int_equal(func(u, "counter_init")->role, BCW_ROLE_INIT_CONSTRUCTOR);
    /* writes a module global: a mutator even without touching c */
    assert_int_equal(func(u, "counter_step")->role, BCW_ROLE_MUTATOR);
    const bcw_func *step = func(u, "counter_step");
    assert_true(has(step->wrote, step->nwrote, "global calls"));
    const bcw_func *rd = func(u, "counter_read");
    assert_true(has(rd->reads, rd->nreads, "global calls"));
    assert_false(has(rd->wrote, rd->nwrote, "global calls"));
    assert_int_equal(func(u, "counter_reset")->role, BCW_ROLE_MUTATOR);
    /* writes only its out-parameter */
    const bcw_func *read = func(u, "counter_read");
    assert_int_equal(read->role, BCW_ROLE_OBSERVER);
    assert_int_equal(read->params[1].kind, BCW_PK_OUT);
    assert_int_equal(read->params[1].pointee, BCW_ABI_S64);
    /* the header's static inline is API; the .c file's clamp is not */
    const bcw_func *value = func(u, "counter_value");
    assert_true(value->is_static);
    assert_int_equal(value->role, BCW_ROLE_OBSERVER);
    for (unsigned i = 0; i < u->nfuncs; i++)
        assert_string_not_equal(u->funcs[i].name, "clamp");
    bcw_model_free(m);
}

static void test_analyzer__init_constructor_and_static_inline(void **state)
{
    (void)state;
    check_counter("counter.bc");
    check_counter("counter-opaque.bc");
}

static void test_analyzer__parameter_kinds(void **state)
{
    (void)state;
    bcw_model *m = analyze("sbuf.bc");
    assert_int_equal(bcw_model_unit_count(m), 2);
    const bcw_unit *u = &m->units[0];
    const bcw_param *mode = &func(u, "sbuf_set_case")->params[1];
    assert_int_equal(mode->kind, BCW_PK_ENUM);
    assert_string_equal(mode->detail,
                        "SBUF_KEEP=0, SBUF_UPPER=1, SBUF_LOWER=4");
    const bcw_func *app = func(u, "sbuf_append");
    assert_int_equal(app->params[1].kind, BCW_PK_BUFFER);
    assert_int_equal(app->params[2].kind, BCW_PK_LENGTH);
    assert_int_equal(app->params[1].pair, 2);
    const bcw_func *each = func(u, "sbuf_each");
    assert_int_equal(each->params[1].kind, BCW_PK_CALLBACK);
    assert_string_equal(each->params[1].detail, "void (*)(char, void *)");
    /* no module function of its type: a built-in visitor closure */
    assert_null(each->unwalkable);
    assert_int_equal(each->params[1].nsig, 3);
    assert_int_equal(each->params[1].sig[0], BCW_ABI_VOID);
    assert_int_equal(each->params[1].sig[1], BCW_ABI_S8);
    assert_non_null(strstr(func(u, "sbuf_vprintf")->unwalkable, "va_list"));
    assert_true(func(u, "sbuf_copy_to")->params[1].nullable);
    assert_false(func(u, "sbuf_last")->params[0].nullable);
    assert_true(func(u, "sbuf_data")->ret.into_unit);
    assert_false(func(u, "sbuf_copy_to")->ret.into_unit);
    const bcw_param *out = &func(u, "sbuf_last")->params[1];
    assert_int_equal(out->kind, BCW_PK_OUT);
    assert_int_equal(out->pointee, BCW_ABI_S8);
    const bcw_param *ref = &func(&m->units[1], "sbuf_pool_put")->params[1];
    assert_int_equal(ref->kind, BCW_PK_UNIT_REF);
    assert_string_equal(ref->detail, "sbuf");
    bcw_model_free(m);
}

static void test_analyzer__unit_shapes(void **state)
{
    (void)state;
    const char *files[] = {"str.bc", "str-nodebug.bc"};
    for (int i = 0; i < 2; i++) {
        bcw_model *m = analyze(files[i]);
        const bcw_unit *u = &m->units[0];
        /* int str_from(const char *init, str **out) */
        const bcw_func *from = func(u, "str_from");
        assert_int_equal(from->role, BCW_ROLE_CONSTRUCTOR);
        assert_int_equal(from->self, -1);
        assert_int_equal(from->params[1].kind, BCW_PK_UNIT_OUT);
        assert_int_equal(from->params[0].kind, BCW_PK_STRING);
        /* s = str_cat(s, t): reallocates, returns the new handle */
        const bcw_func *cat = func(u, "str_cat");
        assert_int_equal(cat->role, BCW_ROLE_MUTATOR);
        assert_true(cat->rebinds);
        assert_false(func(u, "str_len")->rebinds);
        /* int str_compare_to(const char *t, const str *s) */
        const bcw_func *cmp = func(u, "str_compare_to");
        assert_int_equal(cmp->self, 1);
        assert_int_equal(cmp->role, BCW_ROLE_OBSERVER);
        assert_int_equal(cmp->params[1].kind, BCW_PK_UNIT);
        bcw_model_free(m);
    }
}

/* Every example, in every build (examples/CMakeLists.txt), has the same
 * units with the same functions in the same roles as its -O0 -g build. */
static void test_analyzer__same_units_in_every_build(void **state)
{
    (void)state;
    const char *examples[] = {"bstack", "ringq", "counter", "account",
                              "sbuf",   "str",   "faulty"};
    const char *variants[] = {"O0-g-opaque",  "O2-g-typed",    "O2-g-opaque",
                              "O0-nog-typed", "O0-nog-opaque", "O2-nog-typed",
                              "O2-nog-opaque"};
    for (size_t e = 0; e < sizeof examples / sizeof examples[0]; e++) {
        char name[128];
        snprintf(name, sizeof name, "%s-O0-g-typed.bc", examples[e]);
        bcw_model *ref = analyze(name);
        for (size_t v = 0; v < sizeof variants / sizeof variants[0]; v++) {
            snprintf(name, sizeof name, "%s-%s.bc", examples[e], variants[v]);
            bcw_model *m = analyze(name);
            if (m->nunits != ref->nunits)
                fail_msg("%s: %u units, not %u", name, m->nunits, ref->nunits);
            for (unsigned i = 0; i < ref->nunits; i++) {
                const bcw_unit *a = &ref->units[i], *b = &m->units[i];
                if (strcmp(a->name, b->name) != 0)
                    fail_msg("%s: unit %s, not %s", name, b->name, a->name);
                for (unsigned k = 0; k < a->nfuncs; k++) {
                    const bcw_func *fb = NULL;
                    for (unsigned j = 0; j < b->nfuncs; j++)
                        if (strcmp(b->funcs[j].name, a->funcs[k].name) == 0)
                            fb = &b->funcs[j];
                    /* -O2 drops static inline functions nobody calls;
                     * without -g nothing tells a header's static inline
                     * from a .c file's helper, and helpers are not API */
                    if (fb == NULL && a->funcs[k].is_static &&
                        (strstr(variants[v], "O2") != NULL ||
                         strstr(variants[v], "nog") != NULL))
                        continue;
                    if (fb == NULL)
                        fail_msg("%s: no function %s", name, a->funcs[k].name);
                    if (fb->role != a->funcs[k].role)
                        fail_msg("%s: %s is a %s, not a %s", name, fb->name,
                                 bcw__role_name(fb->role),
                                 bcw__role_name(a->funcs[k].role));
                }
            }
            bcw_model_free(m);
        }
        bcw_model_free(ref);
    }
}

static void test_analyzer__unit_in_callers_cell(void **state)
{
    (void)state;
    bcw_model *m = analyze("slist.bc");
    assert_int_equal(bcw_model_unit_count(m), 1);
    const bcw_unit *u = &m->units[0];
    assert_string_equal(u->name, "entry");
    assert_true(u->cell);
    assert_int_equal(u->size, sizeof(void *));
    assert_int_equal(u->funcs[0].role, BCW_ROLE_EMPTY);
    const bcw_func *push = func(u, "list_push");
    assert_int_equal(push->role, BCW_ROLE_MUTATOR);
    assert_int_equal(push->params[0].kind, BCW_PK_UNIT);
    const bcw_func *len = func(u, "list_length");
    assert_int_equal(len->role, BCW_ROLE_OBSERVER);
    assert_int_equal(len->params[0].kind, BCW_PK_UNIT_DEREF);
    assert_int_equal(func(u, "list_free")->role, BCW_ROLE_DESTRUCTOR);
    bcw_model_free(m);
}

/* clist_prepend(&list, v) returns the new entry but reads the cell
 * before it writes it: a method growing the list in the caller's cell,
 * not a constructor; the entries it gives out are handles. */
static void test_analyzer__cell_unit_whose_adders_return_entries(void **state)
{
    (void)state;
    bcw_model *m = analyze("clist.bc");
    assert_int_equal(bcw_model_unit_count(m), 1);
    const bcw_unit *u = &m->units[0];
    assert_string_equal(u->name, "centry");
    assert_string_equal(u->ctype, "CEntry *");
    assert_true(u->cell);
    assert_int_equal(u->funcs[0].role, BCW_ROLE_EMPTY);
    const char *adders[] = {"clist_prepend", "clist_append"};
    for (size_t i = 0; i < sizeof adders / sizeof adders[0]; i++) {
        const bcw_func *add = func(u, adders[i]);
        assert_int_equal(add->role, BCW_ROLE_MUTATOR);
        assert_int_equal(add->params[0].kind, BCW_PK_UNIT);
        assert_int_equal(add->ret.kind, BCW_PK_ELEMENT);
        assert_int_equal(bcw__handle_given(u, add), 0);
    }
    assert_int_equal(func(u, "clist_sort")->params[0].kind, BCW_PK_UNIT);
    assert_int_equal(func(u, "clist_remove_data")->params[0].kind, BCW_PK_UNIT);
    const bcw_func *nth = func(u, "clist_nth");
    assert_int_equal(nth->params[0].kind, BCW_PK_UNIT_DEREF);
    assert_int_equal(bcw__handle_given(u, nth), 0);
    /* every entry a function takes is the list's head: no handle users */
    assert_int_equal(u->nhandles, 1);
    assert_int_equal(u->handles[0].nusers, 0);
    assert_int_equal(func(u, "clist_free")->role, BCW_ROLE_DESTRUCTOR);
    bcw_model_free(m);
}

static void test_analyzer__derived_handles(void **state)
{
    (void)state;
    bcw_model *m = analyze("dlist.bc");
    /* list_first(list *) hands out a node: not a constructor of a unit */
    assert_int_equal(bcw_model_unit_count(m), 1);
    const bcw_unit *u = &m->units[0];
    assert_int_equal(u->nhandles, 1);
    const bcw_handle *h = &u->handles[0];
    assert_string_equal(h->type, "node");
    assert_true(has(h->from, h->nfrom, "dlist_first"));
    assert_true(has(h->from, h->nfrom, "node_next"));
    assert_true(has(h->users, h->nusers, "node_value"));
    assert_true(has(h->invalidators, h->ninvalidators, "dlist_remove_first"));
    assert_false(has(h->invalidators, h->ninvalidators, "dlist_append"));
    assert_true(func(u, "dlist_first")->ret.into_unit);
    /* its users are walked with the unit: no unit parameter, the handle
     * first */
    const bcw_func *value = func(u, "node_value");
    assert_non_null(value);
    assert_int_equal(value->role, BCW_ROLE_OBSERVER);
    assert_int_equal(value->self, -1);
    assert_int_equal(value->params[0].kind, BCW_PK_HANDLE);
    assert_string_equal(value->params[0].detail, "node");
    assert_int_equal(bcw__handle_given(u, func(u, "node_next")), 0);
    assert_int_equal(bcw__handle_given(u, func(u, "dlist_first")), 0);
    assert_int_equal(bcw__handle_given(u, value), -1);
    assert_int_equal(bcw__handle_index(u, "node"), 0);
    bcw_model_free(m);
}

static void test_analyzer__unit_ref_made_by_its_constructor(void **state)
{
    (void)state;
    bcw_model *m = analyze("sbuf.bc");
    int pool = bcw_model_find_unit(m, "sbuf_pool");
    assert_true(pool >= 0);
    const bcw_func *put = func(&m->units[pool], "sbuf_pool_put");
    assert_int_equal(put->params[1].kind, BCW_PK_UNIT_REF);
    unsigned other = 99;
    int ctor = bcw__unit_ref_ctor(m, &put->params[1], &other);
    assert_true(ctor >= 0);
    assert_string_equal(m->units[other].name, "sbuf");
    assert_string_equal(m->units[other].funcs[ctor].name, "sbuf_new");
    /* a constructor walks cannot call: zeroed storage, and analyze says
     * so */
    bcw_func *c = &m->units[other].funcs[ctor];
    c->unwalkable = strdup("not today");
    assert_non_null(c->unwalkable);
    assert_int_equal(bcw__unit_ref_ctor(m, &put->params[1], &other), -1);
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    assert_non_null(f);
    assert_int_equal(bcw_model_write(m, pool, BCW_MODEL_TEXT, f), 0);
    fclose(f);
    assert_non_null(strstr(data, "b: zeroed storage (sbuf has no "
                                 "constructor bcwalk can call)"));
    free(data);
    bcw_model_free(m);
}

static void test_analyzer__two_files_linked(void **state)
{
    (void)state;
    const char *files[] = {"iset.bc", "iset-O2-nodebug.bc"};
    for (int i = 0; i < 2; i++) {
        bcw_model *m = analyze(files[i]);
        assert_int_equal(bcw_model_unit_count(m), 1);
        const bcw_unit *u = &m->units[0];
        assert_int_equal(u->size, 68);
        assert_int_equal(u->nfuncs, 6); /* not the two static slot_of */
        assert_int_equal(func(u, "iset_add")->role, BCW_ROLE_MUTATOR);
        assert_int_equal(func(u, "iset_remove")->role, BCW_ROLE_MUTATOR);
        assert_int_equal(func(u, "iset_contains")->role, BCW_ROLE_OBSERVER);
        assert_int_equal(func(u, "iset_size")->role, BCW_ROLE_OBSERVER);
        bcw_model_free(m);
    }
}

static void test_analyzer__mutator_through_field_pointer(void **state)
{
    (void)state;
    bcw_model *m = analyze("faulty.bc");
    const bcw_unit *u = &m->units[0];
    /* faulty_crash stores through f->cells: LLVM's readonly on f would
     * call it an observer */
    assert_int_equal(func(u, "faulty_crash")->role, BCW_ROLE_MUTATOR);
    assert_int_equal(func(u, "faulty_check")->role, BCW_ROLE_OBSERVER);
    bcw_model_free(m);
}

static const bcw_pred *pred(const bcw_unit *u, const char *name)
{
    for (unsigned i = 0; i < u->npreds; i++)
        if (strcmp(u->preds[i].name, name) == 0)
            return &u->preds[i];
    fail_msg("no predicate '%s' in unit %s", name, u->name);
    return NULL;
}

static void test_analyzer__interface_and_bitcode_predicates(void **state)
{
    (void)state;
    bcw_model *m = analyze("bstack.bc");
    const bcw_unit *u = &m->units[0];
    assert_int_equal(u->npreds, 4);
    assert_true(pred(u, "is_empty")->interface);
    assert_true(pred(u, "is_full")->interface);
    const bcw_pred *full = pred(u, "size == capacity");
    assert_false(full->interface);
    assert_int_equal(full->op, BCW_CMP_EQ);
    assert_int_equal(full->l.kind, BCW_TERM_FIELD);
    assert_int_equal(full->l.offset, 8);
    assert_int_equal(full->l.bits, 32);
    assert_int_equal(full->r.offset, 12);
    const bcw_pred *empty = pred(u, "size == 0");
    assert_int_equal(empty->r.kind, BCW_TERM_CONST);
    assert_int_equal(empty->r.value, 0);
    /* pop branches on size == 0: != and == are one predicate */
    assert_true(has(empty->users, empty->nusers, "bstack_pop"));
    bcw_model_free(m);
}

static void test_analyzer__ring_queue_states_from_branches(void **state)
{
    (void)state;
    const char *files[] = {"ringq.bc", "ringq-O2-nodebug.bc"};
    const char *names[][2] = {{"count == cap", "count == 0"},
                              {"@16 == @20", "@16 == 0"}};
    for (int i = 0; i < 2; i++) {
        bcw_model *m = analyze(files[i]);
        const bcw_unit *u = &m->units[0];
        assert_int_equal(u->npreds, 2);
        const bcw_pred *full = pred(u, names[i][0]);
        assert_int_equal(full->l.offset, 16);
        assert_int_equal(full->r.offset, 20);
        assert_int_equal(pred(u, names[i][1])->r.kind, BCW_TERM_CONST);
        bcw_model_free(m);
    }
}

static void test_analyzer__fields_read_and_written(void **state)
{
    (void)state;
    bcw_model *m = analyze("ringq.bc");
    const bcw_unit *u = &m->units[0];
    assert_int_equal(u->nfields, 5);
    assert_string_equal(u->fields[3].name, "count");
    assert_int_equal(u->fields[3].offset, 16);
    const bcw_func *put = func(u, "ringq_put");
    assert_true(has(put->wrote, put->nwrote, "count"));
    assert_true(has(put->wrote, put->nwrote, "*items"));
    assert_false(has(put->wrote, put->nwrote, "head"));
    const bcw_func *len = func(u, "ringq_length");
    assert_int_equal(len->nwrote, 0);
    assert_true(has(len->reads, len->nreads, "count"));
    bcw_model_free(m);
}

static const bcw_contract *contract(const bcw_func *f,
                                    enum bcw_contract_origin kind)
{
    for (unsigned i = 0; i < f->ncontracts; i++)
        if (f->contracts[i].kind == kind)
            return &f->contracts[i];
    fail_msg("%s has no %s contract", f->name, bcw__contract_name(kind));
    return NULL;
}

static void test_analyzer__contracts(void **state)
{
    (void)state;
    const char *files[] = {"account.bc", "account-O2-nodebug.bc"};
    for (int i = 0; i < 2; i++) {
        bcw_model *m = analyze(files[i]);
        const bcw_unit *u = &m->units[0];
        const bcw_func *w = func(u, "account_withdraw");
        /* contract.h keeps the condition's source text */
        assert_string_equal(contract(w, BCW_CK_REQUIRES)->expr, "amount > 0");
        assert_string_equal(contract(w, BCW_CK_ENSURES)->expr,
                            "a->balance >= -a->limit");
        assert_string_equal(
            contract(func(u, "account_freeze"), BCW_CK_ASSERT)->expr,
            "!a->frozen");
        assert_string_equal(u->funcs[u->invariant].name, "account_invariant");
        for (unsigned k = 0; k < u->npreds; k++)
            assert_string_not_equal(u->preds[k].name, "invariant");
        bcw_model_free(m);
    }
    /* abort() on a guarded path: the guard decompiled from the branch */
    bcw_model *m = analyze("account.bc");
    assert_string_equal(
        contract(func(&m->units[0], "account_deposit"), BCW_CK_ABORT)->expr,
        "frozen != 0");
    bcw_model_free(m);
    m = analyze("bstack.bc");
    assert_string_equal(
        contract(func(&m->units[0], "bstack_pop"), BCW_CK_ABORT)->expr,
        "size == 0");
    assert_int_equal(func(&m->units[0], "bstack_push")->ncontracts, 0);
    bcw_model_free(m);
}

static char *json_of(const bcw_model *m)
{
    char *data = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&data, &len);
    assert_non_null(f);
    assert_int_equal(bcw_model_write(m, -1, BCW_MODEL_JSON, f), 0);
    fclose(f);
    return data;
}

static void test_analyzer__model_file_round_trip(void **state)
{
    (void)state;
    const char *files[] = {"bstack.bc", "account.bc", "ringq.bc", "counter.bc",
                           "iset.bc",   "sbuf.bc",    "str.bc",   "slist.bc",
                           "dlist.bc",  "clist.bc"};
    char path[] = "/tmp/bcwalk-model-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        bcw_model *m = analyze(files[i]), *back = NULL;
        assert_int_equal(bcw_model_save(m, path), 0);
        assert_int_equal(bcw_model_load(&back, path), 0);
        char *a = json_of(m), *b = json_of(back);
        assert_string_equal(a, b);
        free(a);
        free(b);
        bcw_model_free(back);
        bcw_model_free(m);
    }
    unlink(path);
}

static void write_bytes(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    fclose(f);
}

static void test_analyzer__corrupt_model_files(void **state)
{
    (void)state;
    char path[] = "/tmp/bcwalk-model-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    bcw_model *m = analyze("account.bc"), *back = (bcw_model *)1;
    assert_int_equal(bcw_model_save(m, path), 0);
    bcw_model_free(m);
    FILE *f = fopen(path, "rb");
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    assert_true(n < sizeof buf); /* the whole file */
    /* every truncation and a flipped byte everywhere: an error, never a
     * crash, and never a model (the checksum) */
    for (size_t cut = 0; cut < n; cut++) {
        write_bytes(path, buf, cut);
        assert_int_equal(bcw_model_load(&back, path), BCW_EINPUT);
        assert_null(back);
    }
    for (size_t at = 0; at < n; at++) {
        char copy[4096];
        memcpy(copy, buf, n);
        copy[at] ^= 0x5a;
        write_bytes(path, copy, n);
        assert_int_equal(bcw_model_load(&back, path), BCW_EINPUT);
        assert_null(back);
    }
    /* a byte changed inside a string still parses: only the checksum
     * tells */
    size_t name = 0;
    while (name + 15 <= n && memcmp(buf + name, "account_deposit", 15) != 0)
        name++;
    assert_true(name + 15 <= n);
    buf[name] = 'A';
    write_bytes(path, buf, n);
    assert_int_equal(bcw_model_load(&back, path), BCW_EINPUT);
    assert_non_null(strstr(bcw_error_last(), "corrupt model file (its "
                                             "checksum does not match"));
    write_bytes(path,
                "\x81\xa6"
                "format\xa3"
                "xyz",
                12);
    assert_int_equal(bcw_model_load(&back, path), BCW_EINPUT);
    assert_non_null(strstr(bcw_error_last(), "not a bcwalk model file"));
    unlink(path);
}

static void expect_input_error(const char *path, const char *needle)
{
    bcw_model *m = (bcw_model *)1;
    assert_int_equal(bcw_model_analyze(&m, path), BCW_EINPUT);
    assert_null(m);
    if (strstr(bcw_error_last(), needle) == NULL)
        fail_msg("message '%s' lacks '%s'", bcw_error_last(), needle);
}

static void test_analyzer__bad_input_is_a_clear_error(void **state)
{
    (void)state;
    char text[] = "/tmp/bcwalk-test-XXXXXX";
    int fd = mkstemp(text);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs("int main(void) { return 0; }\n", f);
    fclose(f);
    expect_input_error(text, "not LLVM bitcode");

    char src[512];
    snprintf(src, sizeof src, "%s/bstack.bc", BCW_EXAMPLES);
    FILE *in = fopen(src, "rb");
    assert_non_null(in);
    char buf[600];
    size_t n = fread(buf, 1, sizeof buf, in);
    fclose(in);
    assert_int_equal(n, sizeof buf);
    f = fopen(text, "wb");
    fwrite(buf, 1, n, f);
    fclose(f);
    expect_input_error(text, "truncated");
    unlink(text);

    expect_input_error("/nonexistent/x.bc", "No such file");
    char nounit[512];
    snprintf(nounit, sizeof nounit, "%s/nounit.bc", BCW_EXAMPLES);
    expect_input_error(nounit, "no unit found");
    assert_non_null(strstr(bcw_error_last(), "point"));
    assert_non_null(strstr(bcw_error_last(), "add"));
}

static void test_analyzer__unknown_unit_lists_units(void **state)
{
    (void)state;
    bcw_model *m = analyze("bstack.bc");
    assert_int_equal(bcw_model_find_unit(m, "stack"), BCW_ENOTFOUND);
    assert_non_null(strstr(bcw_error_last(), "bstack"));
    assert_int_equal(bcw_model_find_unit(m, "bstack"), 0);
    bcw_model_free(m);
}

/* A unit made only through T **out: its size and fields from debug
 * info, also where the constructor met first (outctor_from.c, linked
 * first) sees only the struct's declaration. */
static void test_analyzer__out_constructor_struct(void **state)
{
    (void)state;
    const char *files[] = {"outctor.bc", "outctor-linked.bc"};
    const char *names[] = {"size", "capacity", "items", "grow_by"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        bcw_model *m = analyze(files[i]);
        const bcw_unit *u = &m->units[bcw_model_find_unit(m, "OcVec")];
        assert_string_equal(u->name, "oc_vec_s");
        assert_string_equal(u->ctype, "OcVec");
        assert_int_equal(u->size, 32);
        assert_int_equal(u->nfields, 4);
        for (unsigned k = 0; k < 4; k++) {
            assert_string_equal(u->fields[k].name, names[k]);
            assert_int_equal(u->fields[k].offset, 8 * k);
        }
        const bcw_func *add = func(u, "oc_vec_add");
        assert_true(has(add->reads, add->nreads, "grow_by"));
        assert_false(has(add->wrote, add->nwrote, "grow_by"));
        bcw_model_free(m);
    }
}

/* A string handle (typedef char *hstr, its header before the
 * characters): a unit named by the typedef, made by the function that
 * returns one and taking none, its handle moved by hstr_cat. */
static void test_analyzer__string_handle(void **state)
{
    (void)state;
    bcw_model *m = analyze("sdsish.bc");
    assert_int_equal(bcw_model_unit_count(m), 1);
    const bcw_unit *u = &m->units[0];
    assert_string_equal(u->name, "hstr");
    assert_string_equal(u->ctype, "hstr");
    assert_int_equal(u->nfields, 0);
    assert_int_equal(func(u, "hstr_new")->role, BCW_ROLE_CONSTRUCTOR);
    assert_int_equal(func(u, "hstr_new")->ret.kind, BCW_PK_UNIT);
    assert_int_equal(func(u, "hstr_new")->params[0].kind, BCW_PK_STRING);
    assert_int_equal(func(u, "hstr_len")->role, BCW_ROLE_OBSERVER);
    assert_int_equal(func(u, "hstr_len")->params[0].kind, BCW_PK_UNIT);
    assert_int_equal(func(u, "hstr_clear")->role, BCW_ROLE_MUTATOR);
    assert_int_equal(func(u, "hstr_free")->role, BCW_ROLE_DESTRUCTOR);
    const bcw_func *cat = func(u, "hstr_cat");
    assert_int_equal(cat->role, BCW_ROLE_MUTATOR);
    assert_true(cat->rebinds);
    assert_int_equal(cat->params[1].kind, BCW_PK_STRING);
    bcw_model_free(m);
}

static void test_analyzer__unit_by_its_c_type(void **state)
{
    (void)state;
    bcw_model *m = analyze("outctor.bc");
    assert_int_equal(bcw_model_find_unit(m, "oc_vec_s"), 0);
    assert_int_equal(bcw_model_find_unit(m, "OcVec"), 0);
    assert_int_equal(bcw_model_find_unit(m, "struct oc_vec_s"), 0);
    assert_int_equal(bcw_model_find_unit(m, "struct OcVec"), BCW_ENOTFOUND);
    assert_non_null(strstr(bcw_error_last(), "units: oc_vec_s (OcVec)"));
    bcw_model_free(m);
    /* two structs spelled alike (typedefs of two translation units): the
     * type is ambiguous, the tags are not */
    m = analyze("sbuf.bc");
    assert_int_equal(bcw_model_unit_count(m), 2);
    for (unsigned i = 0; i < 2; i++) {
        free(m->units[i].ctype);
        m->units[i].ctype = bcw__strdup("buffer");
    }
    assert_int_equal(bcw_model_find_unit(m, "buffer"), BCW_EINPUT);
    assert_non_null(
        strstr(bcw_error_last(), "(sbuf (buffer), sbuf_pool (buffer))"));
    assert_int_equal(bcw_model_find_unit(m, "sbuf_pool"), 1);
    bcw_model_free(m);
}

/* Analyses `file` failing its 1st, 2nd, ... allocation until a run no
 * longer reaches the one to fail: every run that reached it fails
 * cleanly (`fails`, no model), never crashes and never passes off a
 * model as complete; the run that did not gives the undisturbed model.
 * `done` is what that run returns (0, or BCW_EINPUT for a module with
 * no unit).  Returns how many runs failed. */
static unsigned long analyze_failing_each(const char *file, int done)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", BCW_EXAMPLES, file);
    bcw_model *ref = NULL;
    assert_int_equal(bcw__model_analyze_here(&ref, path), done);
    char *want = ref ? json_of(ref) : NULL;
    unsigned long nth;
    for (nth = 1;; nth++) {
        bcw_model *m = (bcw_model *)1;
        bcw__alloc_fail_at(nth);
        int err = bcw__model_analyze_here(&m, path);
        bool reached = bcw__alloc_fail_at(0) == 0;
        if (!reached) {
            assert_int_equal(err, done);
            if (m != NULL) {
                char *got = json_of(m);
                assert_string_equal(got, want);
                free(got);
            }
            bcw_model_free(m);
            break;
        }
        if (err != BCW_ENOMEM)
            fail_msg("%s: allocation %lu failed, yet the analysis returned "
                     "%d (%s)",
                     file, nth, err, bcw_error_last());
        assert_null(m);
    }
    free(want);
    bcw_model_free(ref);
    return nth - 1;
}

/* The analyzer's entry point under every allocation failure, on the
 * examples with the most shapes: heap, init and cell units, derived
 * handles, callbacks, strings, contracts, callees' conditions, the
 * variant builds, and a module with no unit. */
static void test_analyzer__allocation_failures_are_clean(void **state)
{
    (void)state;
    const char *files[] = {"bstack.bc",
                           "bstack-O2-opaque.bc",
                           "counter-O2-nodebug.bc",
                           "dlist.bc",
                           "slist.bc",
                           "clist.bc",
                           "sbuf.bc",
                           "cfg.bc",
                           "hset.bc",
                           "callee.bc",
                           "str.bc",
                           "str-nodebug.bc",
                           "account.bc",
                           "iset.bc",
                           "bank.bc",
                           "outctor-linked.bc",
                           "sdsish.bc"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        assert_true(analyze_failing_each(files[i], 0) > 5);
    analyze_failing_each("nounit.bc", BCW_EINPUT);
}

/* Saves and loads under every allocation failure: a failed save leaves
 * no file, not even a temporary one; a failed load returns an error
 * and no model. */
static void test_analyzer__model_files_under_allocation_failures(void **state)
{
    (void)state;
    char dir[] = "/tmp/bcwalk-model-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[600];
    snprintf(path, sizeof path, "%s/m.msgpack", dir);
    bcw_model *m = analyze("dlist.bc");
    char *want = json_of(m);
    for (unsigned long nth = 1;; nth++) {
        bcw__alloc_fail_at(nth);
        int err = bcw_model_save(m, path);
        bool reached = bcw__alloc_fail_at(0) == 0;
        if (!reached) {
            assert_int_equal(err, 0);
            assert_true(nth > 2); /* the packing, not only the file name */
            break;
        }
        assert_int_equal(err, BCW_ENOMEM);
        DIR *d = opendir(dir);
        assert_non_null(d);
        for (struct dirent *e; (e = readdir(d)) != NULL;)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                fail_msg("allocation %lu failed, yet %s was left", nth,
                         e->d_name);
        closedir(d);
    }
    for (unsigned long nth = 1;; nth++) {
        bcw_model *back = (bcw_model *)1;
        bcw__alloc_fail_at(nth);
        int err = bcw_model_load(&back, path);
        bool reached = bcw__alloc_fail_at(0) == 0;
        if (!reached) {
            assert_int_equal(err, 0);
            char *got = json_of(back);
            assert_string_equal(got, want);
            free(got);
            bcw_model_free(back);
            assert_true(nth > 5);
            break;
        }
        assert_int_equal(err, BCW_ENOMEM);
        assert_null(back);
    }
    free(want);
    bcw_model_free(m);
    unlink(path);
    rmdir(dir);
}

/* An interface predicate whose observer returns a comparison of fields
 * carries that comparison: the state walk merges the bitcode's copy by
 * it, not by observation alone. */
static void test_analyzer__observers_returning_comparisons(void **state)
{
    (void)state;
    bcw_model *m = analyze("bstack.bc");
    const bcw_unit *u = &m->units[0];
    const bcw_pred *empty = NULL, *size0 = NULL;
    for (unsigned i = 0; i < u->npreds; i++) {
        if (strcmp(u->preds[i].name, "is_empty") == 0)
            empty = &u->preds[i];
        if (strcmp(u->preds[i].name, "size == 0") == 0)
            size0 = &u->preds[i];
    }
    assert_non_null(empty);
    assert_non_null(size0);
    assert_true(empty->formal);
    assert_false(empty->negated);
    assert_int_equal(empty->op, size0->op);
    assert_int_equal(empty->l.offset, size0->l.offset);
    assert_int_equal(empty->r.kind, BCW_TERM_CONST);
    bcw_model_free(m);
    m = analyze("book.bc");
    u = &m->units[0];
    for (unsigned i = 0; i < u->npreds; i++)
        if (strcmp(u->preds[i].name, "is_on_loan") == 0) {
            assert_true(u->preds[i].formal);
            assert_true(u->preds[i].negated); /* on_loan != 0 */
        }
    bcw_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analyzer__bstack_roles_at_O0),
        cmocka_unit_test(test_analyzer__bstack_roles_at_O2),
        cmocka_unit_test(test_analyzer__bstack_roles_without_debug_info),
        cmocka_unit_test(test_analyzer__bstack_roles_with_opaque_pointers),
        cmocka_unit_test(test_analyzer__init_constructor_and_static_inline),
        cmocka_unit_test(test_analyzer__parameter_kinds),
        cmocka_unit_test(test_analyzer__unit_shapes),
        cmocka_unit_test(test_analyzer__same_units_in_every_build),
        cmocka_unit_test(test_analyzer__unit_in_callers_cell),
        cmocka_unit_test(test_analyzer__cell_unit_whose_adders_return_entries),
        cmocka_unit_test(test_analyzer__derived_handles),
        cmocka_unit_test(test_analyzer__unit_ref_made_by_its_constructor),
        cmocka_unit_test(test_analyzer__two_files_linked),
        cmocka_unit_test(test_analyzer__mutator_through_field_pointer),
        cmocka_unit_test(test_analyzer__interface_and_bitcode_predicates),
        cmocka_unit_test(test_analyzer__ring_queue_states_from_branches),
        cmocka_unit_test(test_analyzer__fields_read_and_written),
        cmocka_unit_test(test_analyzer__contracts),
        cmocka_unit_test(test_analyzer__model_file_round_trip),
        cmocka_unit_test(test_analyzer__corrupt_model_files),
        cmocka_unit_test(test_analyzer__bad_input_is_a_clear_error),
        cmocka_unit_test(test_analyzer__unknown_unit_lists_units),
        cmocka_unit_test(test_analyzer__unit_by_its_c_type),
        cmocka_unit_test(test_analyzer__out_constructor_struct),
        cmocka_unit_test(test_analyzer__string_handle),
        cmocka_unit_test(test_analyzer__allocation_failures_are_clean),
        cmocka_unit_test(test_analyzer__model_files_under_allocation_failures),
        cmocka_unit_test(test_analyzer__observers_returning_comparisons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
