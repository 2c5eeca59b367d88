/* cells.c - a test program for examples/clist.c, a list living in the
 * caller's cell: no call makes it, the tests' first calls take its
 * address (tests/e2e/learn.py). */
#include <assert.h>
#include <stddef.h>

typedef struct CEntry CEntry;
CEntry *clist_prepend(CEntry **list, void *data);
CEntry *clist_append(CEntry **list, void *data);
void *clist_first_data(CEntry *list);
unsigned clist_length(CEntry *list);
void clist_free(CEntry *list);

static int a, b;

void test_prepend(void)
{
    CEntry *list = NULL;
    clist_prepend(&list, &a);
    clist_prepend(&list, &b);
    assert(clist_first_data(list) == &b);
    clist_free(list);
}

void test_append(void)
{
    CEntry *list = NULL;
    clist_append(&list, &a);
    clist_append(&list, &b);
    assert(clist_length(list) == 2);
    clist_free(list);
}

int main(void)
{
    test_prepend();
    test_append();
    return 0;
}
