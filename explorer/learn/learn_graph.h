/* learn_graph.h - the graph of the tests' named calls, what its merging
 * (learn_merge.c) shares of it: its edges kept in order, its nodes folded
 * into one another. */
#ifndef BCW_LEARN_GRAPH_H
#define BCW_LEARN_GRAPH_H

#include "learn.h"

/* Sorts g's edges by (from, to, kind, param) and drops repeated ones. */
BCW_INTERNAL void bcw__lgraph_settle(bcw_lgraph *g);

/* Folds node src into dst: its count, its tests and values (each list
 * sorted, its length capped).  src is unchanged and still its owner's.
 * 0 or BCW_ENOMEM (dst then holds part of src's). */
BCW_INTERNAL int bcw__lnode_fold(bcw_lnode *dst, const bcw_lnode *src);

/* Frees what node nd holds (not nd). */
BCW_INTERNAL void bcw__lnode_free(bcw_lnode *nd);

#endif
