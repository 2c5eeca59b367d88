/* sentinel.c - a set on a ring with a sentinel node, as red-black trees
 * and Collections-C's tree table are made: "none" is the set's `nil`,
 * never NULL.  The iterator's init sets `cur` to nil, and remove, which
 * checks `cur` only for NULL, would unlink and free the sentinel.  nil is
 * set only where the set is made and compared with links, so it is a
 * "none" marker: the walk makes remove only once `cur` changed since the
 * iterator was given out, and nothing halts (tests/e2e/handles.py). */
#include <stdlib.h>

typedef struct snode {
    struct snode *prev, *next;
    int value;
} snode;

typedef struct sset {
    snode *nil;
    int n;
} sset;

typedef struct sset_iter {
    sset *s;
    snode *cur;  /* the node next returned last, nil before, NULL after a
                    remove */
    snode *next; /* the node next returns */
} sset_iter;

sset *sset_new(void)
{
    sset *s = calloc(1, sizeof *s);
    if (s == NULL || (s->nil = calloc(1, sizeof *s->nil)) == NULL) {
        free(s);
        return NULL;
    }
    s->nil->prev = s->nil->next = s->nil;
    return s;
}

void sset_free(sset *s)
{
    for (snode *n = s->nil->next, *next; n != s->nil; n = next) {
        next = n->next;
        free(n);
    }
    free(s->nil);
    free(s);
}

int sset_add(sset *s, int value)
{
    snode *n = malloc(sizeof *n);
    if (n == NULL)
        return 0;
    n->value = value;
    n->next = s->nil->next;
    n->prev = s->nil;
    s->nil->next->prev = n;
    s->nil->next = n;
    return ++s->n;
}

int sset_size(const sset *s)
{
    return s->n;
}

void sset_iter_init(sset_iter *it, sset *s)
{
    it->s = s;
    it->cur = s->nil;
    it->next = s->nil->next;
}

/* the next value into *out: 1, or 0 at the end */
int sset_iter_next(sset_iter *it, int *out)
{
    if (it->next == it->s->nil)
        return 0;
    it->cur = it->next;
    it->next = it->next->next;
    *out = it->cur->value;
    return 1;
}

/* removes the node next returned last: 1, or 0 when it was removed */
int sset_iter_remove(sset_iter *it)
{
    snode *n = it->cur;
    if (n == NULL)
        return 0;
    n->prev->next = n->next;
    n->next->prev = n->prev;
    free(n);
    it->cur = NULL;
    it->s->n--;
    return 1;
}
