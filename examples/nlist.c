/* nlist.c - a list of nodes the caller makes (nl_node_new) and hands
 * over: nl_push gives back the node it was given, as clibs/list's
 * list_rpush does.  A function returning its own parameter makes
 * nothing: nl_push is a method of the list, not a constructor of nodes,
 * and the list holds what it is given.  nl_remove takes a node of the
 * list (it unlinks it, it does not store it): the walk passes a node the
 * list gave out (nl_push's, nl_pop's) while the list still holds it,
 * never a new one, and one nl_pop took off is not passed. */
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
