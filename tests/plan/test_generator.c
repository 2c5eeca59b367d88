/* test_generator.c - custom generators: values by kind, delegation to
 * the master generator, reset, and what a parameter is told. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "custom.h"

/* A generator in memory: each next() hands out the values queued in
 * `vals`, or delegates when `delegate` is set. */
static bcw_gen_value vals[8];
static unsigned nvals, at, resets;
static int delegate;

static int next(const bcw_gen_param *p, bcw_gen_value *out, void *payload)
{
    (void)p, (void)payload;
    if (delegate || at >= nvals)
        return BCW_GEN_DELEGATE;
    *out = vals[at++];
    return BCW_GEN_OK;
}

static void reset(void *payload)
{
    (void)payload;
    resets++;
    at = 0;
}

static const bcw_generator fake = {
    BCW_GENERATOR_VERSION, "fake", NULL, next, reset, NULL};

static bcw_custom loaded(void)
{
    bcw_custom c = {NULL, &fake};
    memset(vals, 0, sizeof vals);
    nvals = at = resets = 0;
    delegate = 0;
    return c;
}

static bcw_gen_param param(enum bcw_pkind kind, enum bcw_abi abi)
{
    bcw_gen_param p;
    bcw_custom_param(&p, "f", "x", "int", kind, abi, 1, 0);
    return p;
}

static void test_generator__values_by_kind(void **state)
{
    (void)state;
    bcw_custom c = loaded();
    bcw_gen g = {0};
    const char *s = "untouched";
    vals[0].i = -1;
    vals[1].i = 7;
    vals[2].i = 'z';
    vals[3].f = 2.25;
    vals[4].f = 2.25;
    vals[5].i = 4097;
    vals[6].s = NULL;
    vals[7].s = "mine";
    nvals = 8;
    bcw_gen_param p = param(BCW_PK_INT, BCW_ABI_S32);
    char buf[64];
    uint64_t raw = bcw_custom_next(&c, &p, BCW_PK_INT, BCW_ABI_S32, &g, &s);
    /* the callee sees the low 32 bits; the report shows them signed */
    assert_string_equal(
        bcw_value_format(buf, sizeof buf, BCW_PK_INT, BCW_ABI_S32, raw, 0),
        "-1");
    assert_string_equal(s, "untouched");
    assert_int_equal(bcw_custom_next(&c, &p, BCW_PK_BOOL, BCW_ABI_BOOL, &g, &s),
                     1);
    assert_int_equal(bcw_custom_next(&c, &p, BCW_PK_CHAR, BCW_ABI_S8, &g, &s),
                     'z');
    raw = bcw_custom_next(&c, &p, BCW_PK_FLOAT, BCW_ABI_FLOAT, &g, &s);
    float f;
    uint32_t bits = (uint32_t)raw;
    memcpy(&f, &bits, sizeof f);
    assert_true(f == 2.25f);
    raw = bcw_custom_next(&c, &p, BCW_PK_FLOAT, BCW_ABI_DOUBLE, &g, &s);
    double d;
    memcpy(&d, &raw, sizeof d);
    assert_true(d == 2.25);
    /* element cells wrap around the table */
    assert_int_equal(
        bcw_custom_next(&c, &p, BCW_PK_ELEMENT, BCW_ABI_PTR, &g, &s), 1);
    assert_int_equal(
        bcw_custom_next(&c, &p, BCW_PK_STRING, BCW_ABI_PTR, &g, &s), 0);
    assert_null(s);
    bcw_custom_next(&c, &p, BCW_PK_STRING, BCW_ABI_PTR, &g, &s);
    assert_string_equal(s, "mine");
    /* none of it was the master's */
    bcw_gen fresh = {0};
    assert_memory_equal(&g, &fresh, sizeof g);
}

static void test_generator__delegation_draws_from_the_master(void **state)
{
    (void)state;
    bcw_custom c = loaded();
    bcw_gen g = {0};
    const char *s = NULL;
    vals[0].i = 100;
    nvals = 1;
    bcw_gen_param p = param(BCW_PK_INT, BCW_ABI_S32);
    assert_int_equal(bcw_custom_next(&c, &p, BCW_PK_INT, BCW_ABI_S32, &g, &s),
                     100);
    /* out of values: the master's 1, 2 as if alone */
    assert_int_equal(bcw_custom_next(&c, &p, BCW_PK_INT, BCW_ABI_S32, &g, &s),
                     1);
    assert_int_equal(bcw_custom_next(&c, &p, BCW_PK_INT, BCW_ABI_S32, &g, &s),
                     2);
    delegate = 1;
    bcw_custom_next(&c, &p, BCW_PK_STRING, BCW_ABI_PTR, &g, &s);
    assert_string_equal(s, bcw_gen_strings[0]);
    /* reset starts the generator over */
    bcw_custom_reset(&c);
    delegate = 0;
    assert_int_equal(resets, 1);
    assert_int_equal(bcw_custom_next(&c, &p, BCW_PK_INT, BCW_ABI_S32, &g, &s),
                     100);
    /* no generator at all: the master */
    bcw_custom none = {0};
    bcw_custom_reset(&none);
    assert_int_equal(
        bcw_custom_next(&none, &p, BCW_PK_INT, BCW_ABI_S32, &g, &s), 3);
}

static void test_generator__what_a_parameter_is_told(void **state)
{
    (void)state;
    bcw_gen_param p;
    bcw_custom_param(&p, "bstack_push", "x", "int", BCW_PK_INT, BCW_ABI_S32, 1,
                     2);
    assert_string_equal(p.function, "bstack_push");
    assert_string_equal(p.name, "x");
    assert_string_equal(p.ctype, "int");
    assert_string_equal(p.kind, "int");
    assert_int_equal(p.index, 1);
    assert_int_equal(p.bits, 32);
    assert_int_equal(p.is_signed, 1);
    assert_int_equal(p.categories, 2);
    bcw_custom_param(&p, "f", "c", "unsigned char", BCW_PK_CHAR, BCW_ABI_U8, 0,
                     0);
    assert_int_equal(p.bits, 8);
    assert_int_equal(p.is_signed, 0);
    bcw_custom_param(&p, "f", "s", "const char *", BCW_PK_STRING, BCW_ABI_PTR,
                     0, 0);
    assert_string_equal(p.kind, "string");
    assert_int_equal(p.bits, 0);
    /* what bcwalk makes itself is never offered */
    assert_null(bcw_custom_kind_name(BCW_PK_UNIT));
    assert_null(bcw_custom_kind_name(BCW_PK_OUT));
    assert_null(bcw_custom_kind_name(BCW_PK_LENGTH));
    assert_string_equal(bcw_custom_kind_name(BCW_PK_ELEMENT), "element");
}

static void test_generator__open_names_the_problem(void **state)
{
    (void)state;
    bcw_custom c;
    char err[512];
    assert_int_equal(
        bcw_custom_open(&c, "/nonexistent/g.so", "g.c", err, sizeof err), -1);
    assert_non_null(strstr(err, "g.c: cannot load the generator"));
    assert_null(c.gen);
    bcw_custom_close(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generator__values_by_kind),
        cmocka_unit_test(test_generator__delegation_draws_from_the_master),
        cmocka_unit_test(test_generator__what_a_parameter_is_told),
        cmocka_unit_test(test_generator__open_names_the_problem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
