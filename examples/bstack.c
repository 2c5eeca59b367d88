/* bstack.c - a bounded stack of ints, the C twin of JWalk's BoundedStack.
 * Capacity 10 (-DBSTACK_CAPACITY=3: the oracle tests' seeded fault); pop
 * and top on an empty stack abort (a broken precondition, like Java's
 * EmptyStackException); push on a full stack is ignored.  README, demo. */
#include <stdbool.h>
#include <stdlib.h>
#ifndef BSTACK_CAPACITY
#define BSTACK_CAPACITY 10
#endif

typedef struct bstack {
    int *data;
    int size;
    int capacity;
} bstack;

bstack *bstack_new(void)
{
    bstack *s = malloc(sizeof *s);
    if (s == NULL)
        return NULL;
    s->data = malloc(BSTACK_CAPACITY * sizeof *s->data);
    if (s->data == NULL) {
        free(s);
        return NULL;
    }
    s->size = 0;
    s->capacity = BSTACK_CAPACITY;
    return s;
}

void bstack_free(bstack *s)
{
    if (s == NULL)
        return;
    free(s->data);
    free(s);
}

void bstack_push(bstack *s, int x)
{
    if (s->size == s->capacity)
        return;
    s->data[s->size++] = x;
}

void bstack_pop(bstack *s)
{
    if (s->size == 0)
        abort();
    s->size--;
}

int bstack_top(const bstack *s)
{
    if (s->size == 0)
        abort();
    return s->data[s->size - 1];
}

int bstack_size(const bstack *s)
{
    return s->size;
}

bool bstack_is_empty(const bstack *s)
{
    return s->size == 0;
}

bool bstack_is_full(const bstack *s)
{
    return s->size == s->capacity;
}
