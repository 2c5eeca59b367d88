/* kin.h - a binary search tree of ints whose insert gives out the node
 * it made.  Its API is what this header declares: kin.c also defines
 * kin_node_grandparent, an external helper the header leaves out. */
#ifndef KIN_H
#define KIN_H

typedef struct kin kin;
typedef struct kin_node kin_node;

kin *kin_new(void);
kin_node *kin_insert(kin *t, int key);
int kin_node_key(const kin_node *n);
int kin_size(const kin *t);
void kin_free(kin *t);

#endif
