/* selftest.c - a small set of ints whose tests live in its own source,
 * under #ifdef SELFTEST with their own main, as many C libraries keep
 * them.  Built with -DSELFTEST it is one bitcode file holding the
 * library and its tests: `bcwalk learn selftest-tests.bc --unit iset8`
 * traces the tests' calls into the library, and not the library's calls
 * of its own helpers (tests/e2e/learn.py). */
#include <stdbool.h>
#include <stdlib.h>

typedef struct iset8 {
    int v[8];
    unsigned n;
} iset8;

iset8 *iset8_new(void)
{
    return calloc(1, sizeof(iset8));
}

void iset8_free(iset8 *s)
{
    free(s);
}

/* where x is, or s->n */
static unsigned find(const iset8 *s, int x)
{
    unsigned i = 0;
    while (i < s->n && s->v[i] != x)
        i++;
    return i;
}

bool iset8_has(const iset8 *s, int x)
{
    return find(s, x) < s->n;
}

bool iset8_add(iset8 *s, int x)
{
    if (iset8_has(s, x) || s->n == 8)
        return false;
    s->v[s->n++] = x;
    return true;
}

bool iset8_remove(iset8 *s, int x)
{
    unsigned i = find(s, x);
    if (i == s->n)
        return false;
    s->v[i] = s->v[--s->n];
    return true;
}

unsigned iset8_size(const iset8 *s)
{
    return s->n;
}

#ifdef SELFTEST
#include <assert.h>
#include <stddef.h>

static iset8 *of(int a, int b)
{
    iset8 *s = iset8_new();
    assert(iset8_add(s, a));
    assert(iset8_add(s, b));
    return s;
}

static void test_add_has(void)
{
    iset8 *s = of(1, 2);
    assert(iset8_has(s, 2));
    assert(!iset8_add(s, 1));
    assert(iset8_size(s) == 2);
    iset8_free(s);
}

static void test_remove(void)
{
    iset8 *s = of(3, 4);
    assert(iset8_remove(s, 3));
    assert(!iset8_has(s, 3));
    assert(!iset8_remove(s, 3));
    iset8_free(s);
}

static void (*const tests[])(void) = {test_add_has, test_remove, NULL};

int main(void)
{
    for (size_t i = 0; tests[i] != NULL; i++)
        tests[i]();
    return 0;
}
#endif
