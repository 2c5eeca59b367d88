/* cbmap.c - callbacks declared through typedefs, as C containers take
 * them.  cbmap, a chained hash map of `void *` keys, hashes with a seed
 * (three arguments) and matches keys by equality; the module exports an
 * equality, a comparison and a seeded hash of its own, which bcwalk
 * passes where their kinds are wanted, and has no predicate, free
 * function or visitor, for which it passes built-ins.  cbset, a sorted
 * set, compares with user data (three arguments) and has no function of
 * that type: a built-in compare orders its keys.  Return codes:
 * cbmap_put 1 added, 0 replaced, -1 out of memory; cbset_add 1 added,
 * 0 already there, -1 full. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CBMAP_BUCKETS 4
#define CBSET_CAP 4

typedef size_t (*cbmap_hash_fn)(const void *key, size_t len, uint32_t seed);
typedef int (*cbmap_equal_fn)(const void *a, const void *b);
typedef int (*cbmap_compare_fn)(const void *a, const void *b);
typedef bool (*cbmap_pred_fn)(const void *key);
typedef void (*cbmap_free_fn)(void *key);
typedef void (*cbmap_visit_fn)(const void *key, void *ctx);

typedef struct cbmap_entry {
    void *key, *value;
    struct cbmap_entry *next;
} cbmap_entry;

typedef struct cbmap {
    cbmap_hash_fn hash;
    cbmap_equal_fn equal;
    uint32_t seed;
    size_t size;
    cbmap_entry *buckets[CBMAP_BUCKETS];
} cbmap;

/* Keys that point to ints. */
int cbmap_int_equal(const void *a, const void *b)
{
    return *(const int *)a == *(const int *)b;
}

int cbmap_int_compare(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* FNV-1a over the key's first len bytes, from the seed. */
size_t cbmap_str_hash(const void *key, size_t len, uint32_t seed)
{
    const unsigned char *s = key;
    size_t h = 2166136261u ^ seed;
    for (size_t i = 0; i < len; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

cbmap *cbmap_new(cbmap_hash_fn hash, cbmap_equal_fn equal)
{
    if (hash == NULL || equal == NULL)
        return NULL;
    cbmap *m = calloc(1, sizeof *m);
    if (m != NULL) {
        m->hash = hash;
        m->equal = equal;
        m->seed = 0x5eed;
    }
    return m;
}

static cbmap_entry **slot(const cbmap *m, const void *key)
{
    size_t b = m->hash(key, sizeof(int), m->seed) % CBMAP_BUCKETS;
    cbmap_entry **e = (cbmap_entry **)&m->buckets[b];
    while (*e != NULL && !m->equal((*e)->key, key))
        e = &(*e)->next;
    return e;
}

int cbmap_put(cbmap *m, void *key, void *value)
{
    cbmap_entry **e = slot(m, key);
    if (*e != NULL) {
        (*e)->value = value;
        return 0;
    }
    if ((*e = calloc(1, sizeof **e)) == NULL)
        return -1;
    (*e)->key = key;
    (*e)->value = value;
    m->size++;
    return 1;
}

void *cbmap_get(const cbmap *m, const void *key)
{
    cbmap_entry *e = *slot(m, key);
    return e != NULL ? e->value : NULL;
}

int cbmap_remove(cbmap *m, const void *key)
{
    cbmap_entry **e = slot(m, key), *gone = *e;
    if (gone == NULL)
        return 0;
    *e = gone->next;
    free(gone);
    m->size--;
    return 1;
}

size_t cbmap_size(const cbmap *m)
{
    return m->size;
}

/* The least key by cmp, or NULL when empty. */
void *cbmap_min_key(const cbmap *m, cbmap_compare_fn cmp)
{
    void *min = NULL;
    for (size_t b = 0; b < CBMAP_BUCKETS; b++)
        for (const cbmap_entry *e = m->buckets[b]; e != NULL; e = e->next)
            if (min == NULL || cmp(e->key, min) < 0)
                min = e->key;
    return min;
}

size_t cbmap_count_if(const cbmap *m, cbmap_pred_fn pred)
{
    size_t n = 0;
    for (size_t b = 0; b < CBMAP_BUCKETS; b++)
        for (const cbmap_entry *e = m->buckets[b]; e != NULL; e = e->next)
            n += pred(e->key);
    return n;
}

void cbmap_each(const cbmap *m, cbmap_visit_fn visit, void *ctx)
{
    for (size_t b = 0; b < CBMAP_BUCKETS; b++)
        for (const cbmap_entry *e = m->buckets[b]; e != NULL; e = e->next)
            visit(e->key, ctx);
}

/* Empties the map, handing each key to free_key unless it is NULL. */
static void empty(cbmap *m, cbmap_free_fn free_key)
{
    for (size_t b = 0; b < CBMAP_BUCKETS; b++)
        while (m->buckets[b] != NULL) {
            cbmap_entry *e = m->buckets[b];
            m->buckets[b] = e->next;
            if (free_key != NULL)
                free_key(e->key);
            free(e);
        }
    m->size = 0;
}

void cbmap_clear(cbmap *m, cbmap_free_fn free_key)
{
    empty(m, free_key);
}

void cbmap_free(cbmap *m)
{
    if (m != NULL)
        empty(m, NULL);
    free(m);
}

typedef int (*cbset_compare_fn)(const void *a, const void *b, void *ud);

typedef struct cbset {
    cbset_compare_fn cmp;
    void *ud;
    size_t size;
    const void *keys[CBSET_CAP];
} cbset;

cbset *cbset_new(cbset_compare_fn cmp, void *ud)
{
    if (cmp == NULL)
        return NULL;
    cbset *s = calloc(1, sizeof *s);
    if (s != NULL) {
        s->cmp = cmp;
        s->ud = ud;
    }
    return s;
}

/* The first position whose key is not below key. */
static size_t lower_bound(const cbset *s, const void *key)
{
    size_t i = 0;
    while (i < s->size && s->cmp(s->keys[i], key, s->ud) < 0)
        i++;
    return i;
}

int cbset_add(cbset *s, const void *key)
{
    size_t i = lower_bound(s, key);
    if (i < s->size && s->cmp(s->keys[i], key, s->ud) == 0)
        return 0;
    if (s->size == CBSET_CAP)
        return -1;
    memmove(&s->keys[i + 1], &s->keys[i], (s->size - i) * sizeof *s->keys);
    s->keys[i] = key;
    s->size++;
    return 1;
}

int cbset_has(const cbset *s, const void *key)
{
    size_t i = lower_bound(s, key);
    return i < s->size && s->cmp(s->keys[i], key, s->ud) == 0;
}

size_t cbset_size(const cbset *s)
{
    return s->size;
}

void cbset_free(cbset *s)
{
    free(s);
}
