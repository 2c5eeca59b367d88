/* hset.c - a small hash set of `void *` elements with hash and equality
 * callbacks, as C containers take them.  The library exports hash and
 * equality functions for pointer keys, which bcwalk passes where the
 * callbacks are wanted; no visitor is exported, so hset_foreach gets a
 * built-in one.  Return codes: hset_add 1 added, 0 already there, -1
 * full; hset_has and hset_remove 1 or 0. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define HSET_SLOTS 2

typedef unsigned long (*hset_hash_fn)(const void *elem);
typedef int (*hset_eq_fn)(const void *a, const void *b);
typedef void (*hset_visit_fn)(const void *elem, void *ctx);

typedef struct hset {
    hset_hash_fn hash;
    hset_eq_fn eq;
    size_t count;
    const void *slots[HSET_SLOTS];
} hset;

unsigned long hset_ptr_hash(const void *elem)
{
    return (unsigned long)(uintptr_t)elem >> 4;
}

int hset_ptr_eq(const void *a, const void *b)
{
    return a == b;
}

hset *hset_new(hset_hash_fn hash, hset_eq_fn eq)
{
    if (hash == NULL || eq == NULL)
        return NULL;
    hset *s = calloc(1, sizeof *s);
    if (s != NULL) {
        s->hash = hash;
        s->eq = eq;
    }
    return s;
}

void hset_free(hset *s)
{
    free(s);
}

/* The slot holding elem, or -1; *free_slot gets the first empty one. */
static int find(const hset *s, const void *elem, int *free_slot)
{
    size_t h = s->hash(elem) % HSET_SLOTS;
    *free_slot = -1;
    for (size_t i = 0; i < HSET_SLOTS; i++) {
        size_t k = (h + i) % HSET_SLOTS;
        if (s->slots[k] == NULL) {
            if (*free_slot < 0)
                *free_slot = (int)k;
        } else if (s->eq(s->slots[k], elem)) {
            return (int)k;
        }
    }
    return -1;
}

int hset_add(hset *s, const void *elem)
{
    int slot;
    if (find(s, elem, &slot) >= 0)
        return 0;
    if (slot < 0)
        return -1;
    s->slots[slot] = elem;
    s->count++;
    return 1;
}

int hset_has(const hset *s, const void *elem)
{
    int slot;
    return find(s, elem, &slot) >= 0;
}

int hset_remove(hset *s, const void *elem)
{
    int slot, at = find(s, elem, &slot);
    if (at < 0)
        return 0;
    s->slots[at] = NULL;
    s->count--;
    return 1;
}

size_t hset_size(const hset *s)
{
    return s->count;
}

/* Calls visit on every element; returns how many it visited. */
size_t hset_foreach(const hset *s, hset_visit_fn visit, void *ctx)
{
    size_t n = 0;
    for (size_t i = 0; i < HSET_SLOTS; i++)
        if (s->slots[i] != NULL) {
            visit(s->slots[i], ctx);
            n++;
        }
    return n;
}
