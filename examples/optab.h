/* optab.h - a set whose constructor takes a table of callbacks
 * (optab.c). */
#ifndef OPTAB_H
#define OPTAB_H

#include <stddef.h>

typedef struct optab_ops {
    unsigned long (*hash)(const void *key);
    int (*equal)(const void *a, const void *b);
    void (*free_key)(void *key);
} optab_ops;

typedef struct optab optab;

optab *optab_new(const optab_ops *ops);
void optab_free(optab *t);
int optab_put(optab *t, void *key);
int optab_has(const optab *t, const void *key);
void *optab_first(const optab *t);
size_t optab_count(const optab *t);

#endif
