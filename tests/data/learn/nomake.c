/* nomake.c - a test program for examples/faulty.c (tests/e2e/learn.py):
 * test_small's constructor returns NULL (a capacity under 100), so it
 * gives a walk no sequence, which the walk says; test_big's capacity,
 * 250, becomes a category of the walk's constructor and its calls a
 * sequence. */
#include <stddef.h>

typedef struct faulty faulty;
faulty *faulty_with_capacity(int cap);
void faulty_free(faulty *f);
void faulty_add(faulty *f, int v);

void test_small(void)
{
    faulty *f = faulty_with_capacity(5);
    if (f != NULL)
        faulty_free(f);
}

void test_big(void)
{
    faulty *f = faulty_with_capacity(250);
    faulty_add(f, 1);
    faulty_free(f);
}

int main(void)
{
    test_small();
    test_big();
    return 0;
}
