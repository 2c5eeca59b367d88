/* nlist.c - a list of nodes the caller makes (nl_node_new) and hands
 * over: nl_push gives back the node it was given, as clibs/list's
 * list_rpush does.  A function returning its own parameter makes
 * nothing: nl_push is a method of the list, not a constructor of nodes,
 * and the list holds what it is given.  nl_remove takes a node of the
 * list (it unlinks it, it does not store it): the walk passes a node the
 * list gave out (nl_push's, nl_pop's) while the list still holds it,
 * never a new one, and one nl_pop took off is not passed.  nl_find, a
 * lookup through an iterator of its own, is an observer of the list
 * giving out its nodes (tests/e2e/roles.py). */
#include <stdlib.h>

typedef struct nl_node {
    struct nl_node *next;
    void *val;
} nl_node;

typedef struct nlist {
    nl_node *head;
    unsigned len;
} nlist;

nlist *nl_new(void)
{
    return calloc(1, sizeof(nlist));
}

nl_node *nl_node_new(void *val)
{
    nl_node *n = malloc(sizeof *n);
    if (n != NULL) {
        n->next = NULL;
        n->val = val;
    }
    return n;
}

/* node first in l, its owner from now on; node, or NULL for none */
nl_node *nl_push(nlist *l, nl_node *node)
{
    if (node == NULL)
        return NULL;
    node->next = l->head;
    l->head = node;
    l->len++;
    return node;
}

/* the first node, off the list: the caller's again; NULL when empty */
nl_node *nl_pop(nlist *l)
{
    nl_node *n = l->head;
    if (n != NULL) {
        l->head = n->next;
        n->next = NULL;
        l->len--;
    }
    return n;
}

/* unlinks and frees node, which must be in l (as clibs/list's
 * list_remove, unchecked: a node not in l runs off its end) */
void nl_remove(nlist *l, nl_node *node)
{
    nl_node **at = &l->head;
    while (*at != node)
        at = &(*at)->next;
    *at = node->next;
    free(node);
    l->len--;
}

/* an iterator over l's nodes, first to last */
typedef struct nl_iter {
    nl_node *next;
} nl_iter;

nl_iter *nl_iter_new(nlist *l)
{
    nl_iter *it = malloc(sizeof *it);
    if (it != NULL)
        it->next = l->head;
    return it;
}

/* the next node, or NULL past the last */
nl_node *nl_iter_next(nl_iter *it)
{
    nl_node *n = it->next;
    if (n != NULL)
        it->next = n->next;
    return n;
}

void nl_iter_free(nl_iter *it)
{
    free(it);
}

/* the first node holding val, or NULL, found with an iterator it makes
 * and frees again (clibs/list's list_find): it returns a node the list
 * holds, so it is the list's observer, no maker of nodes, and the
 * iterator it writes and frees is no memory of the list's */
nl_node *nl_find(nlist *l, void *val)
{
    nl_iter *it = nl_iter_new(l);
    if (it == NULL)
        return NULL;
    nl_node *n;
    while ((n = nl_iter_next(it)) != NULL && n->val != val)
        ;
    nl_iter_free(it);
    return n;
}

unsigned nl_len(const nlist *l)
{
    return l->len;
}

void nl_free(nlist *l)
{
    for (nl_node *n = l->head, *next; n != NULL; n = next) {
        next = n->next;
        free(n);
    }
    free(l);
}
