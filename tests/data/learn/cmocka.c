/* cmocka.c - a cmocka suite for examples/fifo.c: tests in a CMUnitTest
 * table, one failing a check (cmocka leaves it by a jump), linked with
 * --lib cmocka (tests/e2e/learn.py). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);
unsigned fifo_length(const fifo *q);

static int one, two;

static void pushes_and_pops(void **state)
{
    (void)state;
    fifo *q = fifo_new();
    assert_int_equal(fifo_push(q, &one), 1);
    assert_int_equal(fifo_push(q, &two), 1);
    assert_ptr_equal(fifo_pop(q), &one);
    fifo_free(q);
}

static void expects_too_much(void **state)
{
    (void)state;
    fifo *q = fifo_new();
    fifo_push(q, &one);
    assert_int_equal(fifo_length(q), 2); /* wrong: cmocka jumps out */
    fifo_free(q);
}

static void counts(void **state)
{
    (void)state;
    fifo *q = fifo_new();
    fifo_push(q, &one);
    assert_int_equal(fifo_length(q), 1);
    fifo_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pushes_and_pops),
        cmocka_unit_test(expects_too_much),
        cmocka_unit_test(counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
