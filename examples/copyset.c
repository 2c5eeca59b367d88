/* copyset.c - a set that copies its keys, as maps of fixed-size keys do:
 * the key size is given at construction, copyset_add copies that many
 * bytes of the key into the set's own array, and lookups hand the
 * user's compare function the copies.  bcwalk's elements carry their
 * number in their first bytes, and its analysis finds key_size flowing
 * into the copy's length: its built-in compare reads a key's number
 * from those bytes, so a key stored is found again, removed, and added
 * only once (tests/e2e/callbacks.py, standalone.py). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

typedef int (*copyset_cmp)(const void *a, const void *b);

typedef struct copyset {
    size_t key_size;
    size_t count, cap;
    char *keys;
    copyset_cmp cmp;
} copyset;

copyset *copyset_new(size_t key_size, copyset_cmp cmp)
{
    if (key_size == 0 || key_size > 64 || cmp == NULL)
        return NULL;
    copyset *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->key_size = key_size;
    s->cmp = cmp;
    return s;
}

void copyset_free(copyset *s)
{
    free(s->keys);
    free(s);
}

static char *slot(const copyset *s, size_t i)
{
    return s->keys + i * s->key_size;
}

/* the index of `key`'s copy, or count */
static size_t find(const copyset *s, const void *key)
{
    size_t i = 0;
    while (i < s->count && s->cmp(slot(s, i), key) != 0)
        i++;
    return i;
}

/* 1: added, 0: already there, -1: no memory */
int copyset_add(copyset *s, const void *key)
{
    if (find(s, key) < s->count)
        return 0;
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 4;
        char *keys = realloc(s->keys, cap * s->key_size);
        if (keys == NULL)
            return -1;
        s->keys = keys;
        s->cap = cap;
    }
    memcpy(slot(s, s->count), key, s->key_size);
    s->count++;
    return 1;
}

/* adds a key the caller knows is not there: asserts it is not, so
 * adding a key twice aborts (a standalone program reproduces it only
 * if its compare, too, finds the copy) */
void copyset_add_new(copyset *s, const void *key)
{
    assert(find(s, key) == s->count);
    copyset_add(s, key);
}

int copyset_has(const copyset *s, const void *key)
{
    return find(s, key) < s->count;
}

/* 1: removed, 0: not there */
int copyset_remove(copyset *s, const void *key)
{
    size_t i = find(s, key);
    if (i == s->count)
        return 0;
    memmove(slot(s, i), slot(s, i + 1), (s->count - i - 1) * s->key_size);
    s->count--;
    return 1;
}

size_t copyset_count(const copyset *s)
{
    return s->count;
}
