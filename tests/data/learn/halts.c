/* halts.c - a test program for examples/fifo.c whose tests crash, fail an
 * assertion, hang and exit: each is recorded as its test's end, and the
 * tests after it still run (tests/e2e/learn.py). */
#include <assert.h>
#include <stdlib.h>

typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);

static int one;

void test_ok(void)
{
    fifo *q = fifo_new();
    fifo_push(q, &one);
    fifo_free(q);
}

void test_crash(void)
{
    fifo *q = fifo_new();
    fifo_push(q, &one);
    fifo_push(NULL, &one);
    fifo_free(q);
}

void test_assert(void)
{
    fifo *q = fifo_new();
    assert(fifo_pop(q) != NULL);
}

void test_hang(void)
{
    fifo *q = fifo_new();
    for (;;) {
        fifo_push(q, &one);
        fifo_pop(q);
    }
}

void test_exit(void)
{
    fifo *q = fifo_new();
    fifo_free(q);
    exit(3);
}

void test_after(void)
{
    fifo *q = fifo_new();
    fifo_pop(q);
    fifo_free(q);
}

int main(void)
{
    test_ok();
    test_crash();
    test_assert();
    test_hang();
    test_exit();
    test_after();
    return 0;
}
