/* test_plan.c - the plan's generators of steps and contents: all
 * combinations and all pairs of a call's parameter categories, and
 * BETUnit's distinct and stratified permutations of a buffer's
 * content. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bcwalk/error.h"
#include "combine.h"
#include "permute.h"

/* All combinations in mixed radix; all pairs cover every pair of
 * categories of any two parameters with fewer rows, the same each run. */
static void test_plan__combinations_and_all_pairs(void **state)
{
    (void)state;
    const unsigned counts[] = {3, 0, 4, 2, 3};
    bcw_combo *rows = NULL;
    unsigned n = 0;
    uint64_t total = 0;
    assert_int_equal(
        bcw__combine(&rows, &n, &total, counts, 5, BCW_COMBINE_ALL, 256), 0);
    assert_int_equal(total, 72);
    assert_int_equal(n, 72);
    assert_int_equal(rows[1].cat[0], 1);
    assert_int_equal(rows[3].cat[2], 1);
    free(rows);
    assert_int_equal(
        bcw__combine(&rows, &n, &total, counts, 5, BCW_COMBINE_ALL, 10), 0);
    assert_int_equal(total, 72);
    assert_int_equal(n, 10);
    free(rows);

    assert_int_equal(
        bcw__combine(&rows, &n, &total, counts, 5, BCW_COMBINE_PAIRS, 256), 0);
    assert_true(n >= 12 && n < 72); /* at least 3 x 4 rows */
    for (unsigned i = 0; i < 5; i++)
        for (unsigned j = i + 1; j < 5; j++)
            for (unsigned a = 0; a < (counts[i] ? counts[i] : 1); a++)
                for (unsigned b = 0; b < (counts[j] ? counts[j] : 1); b++) {
                    bool found = false;
                    for (unsigned r = 0; r < n && !found; r++)
                        found = rows[r].cat[i] == a && rows[r].cat[j] == b;
                    assert_true(found);
                }
    bcw_combo *again = NULL;
    unsigned n2 = 0;
    assert_int_equal(
        bcw__combine(&again, &n2, &total, counts, 5, BCW_COMBINE_PAIRS, 256),
        0);
    assert_int_equal(n2, n);
    assert_memory_equal(again, rows, n * sizeof *rows);
    free(again);
    free(rows);
}

static void free_contents(char **v, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* BETUnit's generators: distinct permutations of a multiset, and the
 * stratified kind (each group on its own: x1! * x2! contents). */
static void test_plan__permutations_and_stratified(void **state)
{
    (void)state;
    char **v = NULL;
    unsigned n = 0;
    uint64_t total = 0;
    assert_int_equal(bcw__permutations(&v, &n, &total, "caab", 64), 0);
    assert_int_equal(total, 12); /* 4! / 2! */
    assert_int_equal(n, 12);
    assert_string_equal(v[0], "aabc");
    assert_string_equal(v[1], "aacb");
    assert_string_equal(v[11], "cbaa");
    for (unsigned i = 0; i + 1 < n; i++)
        assert_true(strcmp(v[i], v[i + 1]) < 0); /* distinct, in order */
    free_contents(v, n);

    assert_int_equal(bcw__permutations(&v, &n, &total, "ba|dc", 64), 0);
    assert_int_equal(n, 4);
    const char *const want[] = {"abcd", "abdc", "bacd", "badc"};
    for (unsigned i = 0; i < 4; i++)
        assert_string_equal(v[i], want[i]);
    free_contents(v, n);

    assert_int_equal(bcw__permutations(&v, &n, &total, "abcdefg", 10), 0);
    assert_int_equal(total, 5040);
    assert_int_equal(n, 10);
    free_contents(v, n);

    assert_int_equal(bcw__permutations(&v, &n, &total, "ab||c", 10),
                     BCW_EINPUT);
    assert_null(v);
    assert_int_equal(bcw__permutations(&v, &n, &total, "", 10), BCW_EINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan__combinations_and_all_pairs),
        cmocka_unit_test(test_plan__permutations_and_stratified),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
