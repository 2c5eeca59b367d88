/* twice.c - a test program defining a function examples/fifo.c defines
 * too: it cannot be linked with it (tests/e2e/learn.py). */
typedef struct fifo fifo;
fifo *fifo_new(void);

unsigned fifo_length(const fifo *q)
{
    (void)q;
    return 0;
}

int main(void)
{
    return fifo_length(fifo_new()) != 0;
}
