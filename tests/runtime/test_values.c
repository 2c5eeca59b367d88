/* test_values.c - the master generator and value formatting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "values.h"

static void test_values__ints_are_quasi_unique_per_sequence(void **state)
{
    (void)state;
    bcw_gen g = {0};
    assert_int_equal(bcw_gen_next(&g, BCW_PK_INT, BCW_ABI_S32), 1);
    assert_int_equal(bcw_gen_next(&g, BCW_PK_INT, BCW_ABI_S64), 2);
    assert_int_equal(bcw_gen_next(&g, BCW_PK_INT, BCW_ABI_U8), 3);
    bcw_gen fresh = {0};
    assert_int_equal(bcw_gen_next(&fresh, BCW_PK_INT, BCW_ABI_S32), 1);
}

static void test_values__bools_alternate_and_chars_advance(void **state)
{
    (void)state;
    bcw_gen g = {0};
    assert_int_equal(bcw_gen_next(&g, BCW_PK_BOOL, BCW_ABI_BOOL), 1);
    assert_int_equal(bcw_gen_next(&g, BCW_PK_BOOL, BCW_ABI_BOOL), 0);
    assert_int_equal(bcw_gen_next(&g, BCW_PK_BOOL, BCW_ABI_BOOL), 1);
    assert_int_equal(bcw_gen_next(&g, BCW_PK_CHAR, BCW_ABI_S8), 'a');
    assert_int_equal(bcw_gen_next(&g, BCW_PK_CHAR, BCW_ABI_S8), 'b');
}

static void test_values__formats_results_as_c(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(bcw_value_format(buf, sizeof buf, BCW_PK_INT,
                                         BCW_ABI_S32, 0xffffffffu, 1),
                        "-1");
    assert_string_equal(bcw_value_format(buf, sizeof buf, BCW_PK_INT,
                                         BCW_ABI_U32, 0xffffffffu, 1),
                        "4294967295");
    assert_string_equal(
        bcw_value_format(buf, sizeof buf, BCW_PK_BOOL, BCW_ABI_BOOL, 1, 1),
        "true");
    assert_string_equal(bcw_value_format(buf, sizeof buf, BCW_PK_ELEMENT,
                                         BCW_ABI_PTR, BCW_PTR_NULL, 1),
                        "NULL");
    assert_string_equal(bcw_value_format(buf, sizeof buf, BCW_PK_UNIT,
                                         BCW_ABI_PTR, BCW_PTR_TARGET, 1),
                        "#0");
    assert_string_equal(bcw_value_format(buf, sizeof buf, BCW_PK_ELEMENT,
                                         BCW_ABI_PTR, BCW_PTR_CELL | 2, 1),
                        "Obj#2");
    assert_string_equal(
        bcw_value_format(buf, sizeof buf, BCW_PK_STRING, BCW_ABI_PTR, 2, 0),
        "\"hello\"");
    assert_string_equal(
        bcw_value_format(buf, sizeof buf, BCW_PK_CHAR, BCW_ABI_S8, 'q', 0),
        "'q'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values__ints_are_quasi_unique_per_sequence),
        cmocka_unit_test(test_values__bools_alternate_and_chars_advance),
        cmocka_unit_test(test_values__formats_results_as_c),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
