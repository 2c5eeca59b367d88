/* nulls.c - a test program for examples/fifo.c that pushes NULL, an
 * element the walk's own elements cannot stand for: with --from-tests it
 * is a category of its own (tests/e2e/learn.py). */
#include <assert.h>
#include <stddef.h>

typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);
unsigned fifo_length(const fifo *q);

void test_null_item(void)
{
    fifo *q = fifo_new();
    assert(fifo_push(q, NULL) == 1);
    assert(fifo_length(q) == 1);
    assert(fifo_pop(q) == NULL);
    fifo_free(q);
}

int main(void)
{
    test_null_item();
    return 0;
}
