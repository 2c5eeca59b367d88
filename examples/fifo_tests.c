/* fifo_tests.c - fifo.c's own test program, in the shape of
 * c-algorithms' test suites: a table of test functions a runner calls,
 * assert, items that are the addresses of globals.  `bcwalk learn
 * fifo_tests.bc fifo.bc --unit fifo` learns fifo's model from it. */
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);
void *fifo_peek(const fifo *q);
unsigned fifo_drop(fifo *q, unsigned n);
unsigned fifo_length(const fifo *q);
bool fifo_is_empty(const fifo *q);

typedef void (*test_fn)(void);

static int one, two, three;

/* A queue of n items, one and two in turn. */
static fifo *fifo_of(unsigned n)
{
    fifo *q = fifo_new();
    for (unsigned i = 0; i < n; i++)
        assert(fifo_push(q, i % 2 ? &two : &one));
    return q;
}

static void test_new_free(void)
{
    fifo *q = fifo_new();
    assert(q != NULL);
    assert(fifo_is_empty(q));
    fifo_free(q);
}

static void test_push_pop(void)
{
    fifo *q = fifo_new();
    assert(fifo_push(q, &one));
    assert(fifo_push(q, &two));
    assert(fifo_length(q) == 2);
    assert(fifo_pop(q) == &one);
    assert(fifo_pop(q) == &two);
    assert(fifo_pop(q) == NULL);
    fifo_free(q);
}

static void test_peek(void)
{
    fifo *q = fifo_new();
    assert(fifo_peek(q) == NULL);
    fifo_push(q, &three);
    assert(fifo_peek(q) == &three);
    assert(fifo_length(q) == 1);
    fifo_free(q);
}

/* Items popped from one queue pushed into another. */
static void test_move(void)
{
    fifo *a = fifo_of(3), *b = fifo_new();
    while (!fifo_is_empty(a))
        fifo_push(b, fifo_pop(a));
    assert(fifo_length(b) == 3);
    fifo_free(a);
    fifo_free(b);
}

static void test_drop(void)
{
    fifo *q = fifo_of(3);
    assert(fifo_drop(q, 2) == 2);
    assert(fifo_peek(q) == &one);
    assert(fifo_drop(q, 5) == 1);
    fifo_free(q);
}

/* A full ring: as many items as its first capacity. */
static void test_full(void)
{
    fifo *q = fifo_of(16);
    assert(fifo_length(q) == 16);
    assert(fifo_peek(q) == &one);
    fifo_free(q);
}

static const test_fn tests[] = {test_new_free, test_push_pop, test_peek,
                                test_move,     test_drop,     test_full,
                                NULL};

static void run_tests(const test_fn *t)
{
    for (; *t != NULL; t++)
        (*t)();
}

int main(void)
{
    run_tests(tests);
    puts("fifo: all tests passed");
    return 0;
}
