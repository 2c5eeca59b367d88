/* kin.c - the tree of kin.h, and a helper of its balancing that is not
 * static yet not declared in the header (as rb_tree_node_uncle in
 * c-algorithms): its precondition, a node with a grandparent, is the
 * caller's inside this file.  bcwalk tells it from the API by the header
 * beside this file; called on the root it would crash. */
#include <stdlib.h>

#include "kin.h"

struct kin_node {
    int key;
    struct kin_node *left, *right, *parent;
};

struct kin {
    struct kin_node *root;
    int size;
};

kin *kin_new(void)
{
    return calloc(1, sizeof(kin));
}

kin_node *kin_node_grandparent(kin_node *n)
{
    return n->parent->parent;
}

kin_node *kin_insert(kin *t, int key)
{
    kin_node **at = &t->root, *parent = NULL;
    while (*at != NULL) {
        parent = *at;
        at = key < parent->key ? &parent->left : &parent->right;
    }
    kin_node *n = calloc(1, sizeof *n);
    if (n == NULL)
        return NULL;
    n->key = key;
    n->parent = parent;
    *at = n;
    t->size++;
    if (parent != NULL && parent->parent != NULL &&
        kin_node_grandparent(n) == NULL)
        abort();
    return n;
}

int kin_node_key(const kin_node *n)
{
    return n->key;
}

int kin_size(const kin *t)
{
    return t->size;
}

static void free_nodes(kin_node *n)
{
    if (n == NULL)
        return;
    free_nodes(n->left);
    free_nodes(n->right);
    free(n);
}

void kin_free(kin *t)
{
    free_nodes(t->root);
    free(t);
}
