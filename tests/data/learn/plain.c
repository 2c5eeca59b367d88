/* plain.c - a test program for examples/fifo.c with no test functions:
 * main is the one test (tests/e2e/learn.py). */
#include <stdio.h>

typedef struct fifo fifo;
fifo *fifo_new(void);
void fifo_free(fifo *q);
int fifo_push(fifo *q, void *item);
void *fifo_pop(fifo *q);

int main(void)
{
    static int items[3];
    fifo *q = fifo_new();
    for (int i = 0; i < 3; i++)
        fifo_push(q, &items[i]);
    while (fifo_pop(q) != NULL)
        ;
    fifo_free(q);
    puts("done");
    return 0;
}
