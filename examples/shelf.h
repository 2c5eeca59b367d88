/* shelf.h - a shelf of at most 8 items, built from two files (shelf_put.c,
 * shelf_take.c) that both use the header's static inline helpers, as
 * json-c's linkhash.h helpers are: each file emits its own copy, which
 * llvm-link renames (shelf_count.1).  The copies are one function of the
 * API, walked once. */
#ifndef SHELF_H
#define SHELF_H

#include <stdbool.h>

#define SHELF_ROOM 8

typedef struct shelf {
    int items[SHELF_ROOM];
    int n;
} shelf;

shelf *shelf_new(void);
bool shelf_put(shelf *s, int x);
int shelf_take(shelf *s);
bool shelf_room(const shelf *s);
void shelf_free(shelf *s);

static inline int shelf_count(const shelf *s)
{
    return s->n;
}

static inline bool shelf_full(const shelf *s)
{
    return s->n == SHELF_ROOM;
}

#endif
