/* cursor.c - a list with an iterator in the caller's storage whose
 * remove acts on "the entry next returned last", as Collections-C's
 * iterators do: init leaves `last` NULL, next sets it, remove follows it
 * without a check; init leaves `mark` unset, and clist_iter_marked follows
 * what clist_iter_mark set (rax's raxRandomWalk after raxSeek).  A walk
 * makes remove only once `last` is set, marked once `mark` is (until then
 * the call is not made, counted as rejected), so they act on an element
 * and halt nowhere (tests/e2e/handles.py). */
#include <stdlib.h>

typedef struct node {
    struct node *next;
    void *value;
} node;

typedef struct clist {
    node *head;
    size_t len;
} clist;

typedef struct clist_iter {
    clist *list;
    node **at;   /* the link to the entry next returns */
    node **last; /* the link to the entry next returned last, or NULL */
    node *mark;  /* the entry clist_iter_mark marked: init leaves it unset */
} clist_iter;

clist *clist_new(void)
{
    return calloc(1, sizeof(clist));
}

void clist_free(clist *l)
{
    while (l->head != NULL) {
        node *n = l->head;
        l->head = n->next;
        free(n);
    }
    free(l);
}

int clist_push(clist *l, void *value)
{
    node *n = malloc(sizeof *n);
    if (n == NULL)
        return 0;
    n->value = value;
    n->next = l->head;
    l->head = n;
    l->len++;
    return 1;
}

size_t clist_len(const clist *l)
{
    return l->len;
}

void clist_iter_init(clist_iter *it, clist *l)
{
    it->list = l;
    it->at = &l->head;
    it->last = NULL;
}

/* the next value into *out: 1, or 0 at the end */
int clist_iter_next(clist_iter *it, void **out)
{
    if (*it->at == NULL)
        return 0;
    *out = (*it->at)->value;
    it->last = it->at;
    it->at = &(*it->at)->next;
    return 1;
}

/* marks the entry next returns (rax's raxSeek setting it->node) */
void clist_iter_mark(clist_iter *it)
{
    it->mark = *it->at;
}

/* the marked entry's value: call it after a mark that found one */
void *clist_iter_marked(const clist_iter *it)
{
    return it->mark->value;
}

/* removes the entry next returned last; call it after next */
void clist_iter_remove(clist_iter *it)
{
    node *n = *it->last;
    *it->last = n->next;
    it->at = it->last;
    free(n);
    it->list->len--;
}
