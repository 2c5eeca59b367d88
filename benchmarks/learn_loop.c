/* learn_loop.c - a test program for examples/fifo.c whose one test makes
 * LOOP_CALLS library calls in a loop: bench_learn.py times it native
 * and traced by bcwalk learn (what a traced call costs). */
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>

#ifndef LOOP_CALLS
#define LOOP_CALLS 4000000
#endif

typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);

static int item;

static void test_loop(void)
{
    fifo *q = fifo_new();
    for (long i = 0; i < LOOP_CALLS / 2; i++) {
        fifo_push(q, &item);
        assert(fifo_pop(q) == &item);
    }
    fifo_free(q);
}

static void (*const tests[])(void) = {test_loop, NULL};

int main(void)
{
    for (size_t i = 0; tests[i] != NULL; i++)
        tests[i]();
    return 0;
}
