/* ksched.c - initialisers where the names and positions vary, as in
 * real libraries: a key schedule expanded into the caller's storage
 * given last (ks_setup(key, n, ks)), and a table of labels whose
 * initialiser has a word after "init" (tags_init_sized, as a family
 * tags_init_<how> would).  Both are init constructors; tags_init_widths,
 * named so too but given a const table, fills a table of the module's
 * and is a method.  tags_forget
 * frees each label but keeps the array they sit in, tags_destroy frees
 * that array too: only the second is the destructor, though both free
 * what the table reaches and store nothing but constants. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct keysched {
    uint32_t round[8];
    unsigned nrounds;
} keysched;

/* Expands the n bytes of key into ks: one round word per 4 key bytes
 * (at most 8), each mixed with the one before. */
void ks_setup(const unsigned char *key, size_t n, keysched *ks)
{
    uint32_t prev = 0x9e3779b9u;
    ks->nrounds = 0;
    for (size_t i = 0; i + 4 <= n && ks->nrounds < 8; i += 4) {
        uint32_t w = (uint32_t)key[i] | (uint32_t)key[i + 1] << 8 |
                     (uint32_t)key[i + 2] << 16 | (uint32_t)key[i + 3] << 24;
        prev = ks->round[ks->nrounds++] = (w ^ prev) * 2654435761u;
    }
}

/* Round word i, 0 past the last. */
uint32_t ks_round(const keysched *ks, unsigned i)
{
    return i < ks->nrounds ? ks->round[i] : 0;
}

unsigned ks_rounds(const keysched *ks)
{
    return ks->nrounds;
}

typedef struct tags {
    char **labels;
    unsigned cap, used;
} tags;

/* An empty table with room for cap labels; -1 when out of memory. */
int tags_init_sized(tags *t, unsigned cap)
{
    t->labels = calloc(cap ? cap : 1, sizeof *t->labels);
    t->cap = cap ? cap : 1;
    t->used = 0;
    return t->labels != NULL ? 0 : -1;
}

/* Adds a copy of label; -1 when the table is full or out of memory. */
int tags_add(tags *t, const char *label)
{
    if (t->used == t->cap)
        return -1;
    char *copy = malloc(strlen(label) + 1);
    if (copy == NULL)
        return -1;
    strcpy(copy, label);
    t->labels[t->used++] = copy;
    return 0;
}

unsigned tags_count(const tags *t)
{
    return t->used;
}

/* The module's table of the first labels' lengths, which tags_width
 * reads. */
static size_t widths[4];

/* Fills the module's table from t: named as an initialiser, but t is
 * const, so it is a method of t, not what makes one. */
void tags_init_widths(const tags *t)
{
    for (unsigned i = 0; i < 4; i++)
        widths[i] = i < t->used ? strlen(t->labels[i]) : 0;
}

size_t tags_width(unsigned i)
{
    return i < 4 ? widths[i] : 0;
}

/* Frees every label, keeping the table for more. */
void tags_forget(tags *t)
{
    for (unsigned i = 0; i < t->used; i++) {
        free(t->labels[i]);
        t->labels[i] = NULL;
    }
    t->used = 0;
}

void tags_destroy(tags *t)
{
    tags_forget(t);
    free(t->labels);
    t->labels = NULL;
    t->cap = 0;
}
