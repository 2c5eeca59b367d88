/* oset.c - an ordered set configured the way container libraries
 * configure theirs: oset_conf_init(&conf) sets the allocator and leaves
 * the comparison NULL for the user to set (conf.cmp = my_cmp) before
 * oset_new_conf(&conf, &out).
 *
 * An instance of the configuration made for oset_new_conf gets a
 * built-in comparison in `cmp`, the field its init function left NULL,
 * as a user sets it: a walk never calls through a NULL comparison.
 * oset_bounds_of returns a struct by value (two pointers in registers),
 * shown "{Obj#0, Obj#1}"; oset_add_batch takes one on the stack, skipped.
 * oset_remove_all_free frees the items it holds: the elements a walk
 * passes are bcwalk's, and their frees are the set taking ownership,
 * not faults. */
#include <stdlib.h>
#include <string.h>

typedef int (*oset_cmp_fn)(const void *a, const void *b);

typedef struct oset_conf {
    oset_cmp_fn cmp;
    void *(*mem_alloc)(size_t size);
    void (*mem_free)(void *block);
    size_t capacity;
} oset_conf;

typedef struct oset {
    const void **items;
    size_t len, cap;
    oset_cmp_fn cmp;
    void (*mem_free)(void *block);
} oset;

void oset_conf_init(oset_conf *conf)
{
    conf->cmp = NULL;
    conf->mem_alloc = malloc;
    conf->mem_free = free;
    conf->capacity = 4;
}

int oset_new_conf(const oset_conf *conf, oset **out)
{
    oset *s = conf->mem_alloc(sizeof *s);
    if (s == NULL)
        return -1;
    s->items = conf->mem_alloc(conf->capacity * sizeof *s->items);
    if (s->items == NULL) {
        conf->mem_free(s);
        return -1;
    }
    s->len = 0;
    s->cap = conf->capacity;
    s->cmp = conf->cmp;
    s->mem_free = conf->mem_free;
    *out = s;
    return 0;
}

/* The first position whose item is not below x. */
static size_t lower_bound(const oset *s, const void *x)
{
    size_t lo = 0, hi = s->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->cmp(s->items[mid], x) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* 0 added, 1 already there, -1 full. */
int oset_add(oset *s, const void *x)
{
    size_t at = lower_bound(s, x);
    if (at < s->len && s->cmp(s->items[at], x) == 0)
        return 1;
    if (s->len == s->cap)
        return -1;
    memmove(&s->items[at + 1], &s->items[at], (s->len - at) * sizeof *s->items);
    s->items[at] = x;
    s->len++;
    return 0;
}

int oset_contains(const oset *s, const void *x)
{
    size_t at = lower_bound(s, x);
    return at < s->len && s->cmp(s->items[at], x) == 0;
}

/* 0 removed, -1 not there. */
int oset_remove(oset *s, const void *x)
{
    size_t at = lower_bound(s, x);
    if (at == s->len || s->cmp(s->items[at], x) != 0)
        return -1;
    memmove(&s->items[at], &s->items[at + 1],
            (s->len - at - 1) * sizeof *s->items);
    s->len--;
    return 0;
}

/* Empties the set and frees its items: they are the set's once added,
 * as a caller would have allocated them. */
void oset_remove_all_free(oset *s)
{
    for (size_t i = 0; i < s->len; i++)
        s->mem_free((void *)s->items[i]);
    s->len = 0;
}

/* The least and the greatest item, returned by value in two registers
 * ({NULL, NULL} when empty). */
typedef struct oset_bounds {
    const void *lo, *hi;
} oset_bounds;

oset_bounds oset_bounds_of(const oset *s)
{
    oset_bounds b = {NULL, NULL};
    if (s->len > 0) {
        b.lo = s->items[0];
        b.hi = s->items[s->len - 1];
    }
    return b;
}

/* Several items at once, the batch passed by value on the stack (byval):
 * a shape bcwalk does not call yet, so it is skipped with its reason. */
typedef struct oset_batch {
    const void *items[4];
    size_t n;
} oset_batch;

int oset_add_batch(oset *s, oset_batch batch)
{
    int added = 0;
    for (size_t i = 0; i < batch.n && i < 4; i++)
        added += oset_add(s, batch.items[i]) == 0;
    return added;
}

size_t oset_size(const oset *s)
{
    return s->len;
}

void oset_destroy(oset *s)
{
    s->mem_free(s->items);
    s->mem_free(s);
}
