/* bag.c - a bag of pointers that keeps its comparison and its allocator
 * in function-pointer fields, as many container libraries do.
 *
 * Roles by behaviour, not by name:
 * - bag_contains, bag_index_of and bag_each hand the bag's memory to a
 *   callback; the callbacks they can get (bcwalk's own: the module takes
 *   no function's address but malloc's and free's, of other types) write
 *   nothing, so they are observers;
 * - bag_destroy_cb(b, cb) frees the bag through its mem_free field, and
 *   bagRelease is camelCase: both are destructors;
 * - bag_delete(b, x) removes one element and frees nothing of the bag
 *   itself: a mutator the walks call.
 * bag_add8 (nine parameters) and bag_trace (variadic) cannot be called
 * by bcwalk: `analyze` lists them as skipped with that reason. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*bag_cmp_fn)(const void *a, const void *b);

typedef struct bag {
    void **items;
    size_t n, cap;
    bag_cmp_fn cmp;
    void *(*mem_alloc)(size_t size);
    void (*mem_free)(void *block);
} bag;

bag *bag_new(bag_cmp_fn cmp)
{
    bag *b = malloc(sizeof *b);
    if (b == NULL)
        return NULL;
    b->items = NULL;
    b->n = b->cap = 0;
    b->cmp = cmp;
    b->mem_alloc = malloc;
    b->mem_free = free;
    return b;
}

int bag_add(bag *b, void *x)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4;
        void **items = b->mem_alloc(cap * sizeof *items);
        if (items == NULL)
            return -1;
        for (size_t i = 0; i < b->n; i++)
            items[i] = b->items[i];
        b->mem_free(b->items);
        b->items = items;
        b->cap = cap;
    }
    b->items[b->n++] = x;
    return 0;
}

/* Adds eight elements, stopping at the first failure. */
int bag_add8(bag *b, void *x1, void *x2, void *x3, void *x4, void *x5, void *x6,
             void *x7, void *x8)
{
    void *xs[] = {x1, x2, x3, x4, x5, x6, x7, x8};
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++)
        if (bag_add(b, xs[i]) != 0)
            return -1;
    return 0;
}

/* printf-style trace of the bag's size and a message. */
void bag_trace(const bag *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "bag of %zu: ", b->n);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

size_t bag_size(const bag *b)
{
    return b->n;
}

int bag_contains(const bag *b, const void *x)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->cmp(b->items[i], x) == 0)
            return 1;
    return 0;
}

long bag_index_of(const bag *b, int (*eq)(const void *, const void *),
                  const void *x)
{
    for (size_t i = 0; i < b->n; i++)
        if (eq(b->items[i], x))
            return (long)i;
    return -1;
}

/* Calls fn on every element. */
void bag_each(const bag *b, void (*fn)(void *item))
{
    for (size_t i = 0; i < b->n; i++)
        fn(b->items[i]);
}

/* Removes the first element equal to x; 1 if there was one. */
int bag_delete(bag *b, const void *x)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->cmp(b->items[i], x) == 0) {
            b->items[i] = b->items[--b->n];
            return 1;
        }
    return 0;
}

void bag_destroy(bag *b)
{
    b->mem_free(b->items);
    b->mem_free(b);
}

/* Calls cb on every element, then destroys the bag. */
void bag_destroy_cb(bag *b, void (*cb)(void *item))
{
    bag_each(b, cb);
    bag_destroy(b);
}

void bagRelease(bag *b)
{
    free(b->items);
    free(b);
}
