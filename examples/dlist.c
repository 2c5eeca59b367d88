/* dlist.c - a list with node handles: dlist_first gives a node, node_next
 * the one after it, node_value reads one; dlist_remove_first frees a node
 * and so invalidates the handles the caller holds. */
#include <stdlib.h>

typedef struct node {
    int value;
    struct node *next;
} node;

typedef struct dlist {
    node *head, *tail;
    int count;
} dlist;

dlist *dlist_new(void)
{
    return calloc(1, sizeof(dlist));
}

void dlist_free(dlist *l)
{
    for (node *n = l->head, *next; n != NULL; n = next) {
        next = n->next;
        free(n);
    }
    free(l);
}

int dlist_append(dlist *l, int v)
{
    node *n = calloc(1, sizeof *n);
    if (n == NULL)
        return -1;
    n->value = v;
    if (l->tail != NULL)
        l->tail->next = n;
    else
        l->head = n;
    l->tail = n;
    l->count++;
    return 0;
}

/* Frees the first node: handles to it are dangling afterwards. */
int dlist_remove_first(dlist *l)
{
    node *n = l->head;
    if (n == NULL)
        return -1;
    l->head = n->next;
    if (l->head == NULL)
        l->tail = NULL;
    free(n);
    l->count--;
    return 0;
}

/* Inserts v after node n (a handle from dlist_first or node_next);
 * 0, or -1 when out of memory. */
int dlist_insert_after(dlist *l, node *n, int v)
{
    node *m = calloc(1, sizeof *m);
    if (m == NULL)
        return -1;
    m->value = v;
    m->next = n->next;
    n->next = m;
    if (l->tail == n)
        l->tail = m;
    l->count++;
    return 0;
}

node *dlist_first(const dlist *l)
{
    return l->head;
}

int dlist_count(const dlist *l)
{
    return l->count;
}

node *node_next(const node *n)
{
    return n->next;
}

int node_value(const node *n)
{
    return n->value;
}
