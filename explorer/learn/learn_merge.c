/* learn_merge.c - the graph of a unit's traced calls merged, James's
 * way (learn.h): k-tails over control and data edges, both ways, with a
 * strict and a loose threshold. */
#include "learn.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "learn_graph.h"

#define DEPTH_CAP 32u /* levels a tree is followed to */

typedef struct adj {
    unsigned *start; /* node i's neighbours: nb[start[i] .. start[i+1]) */
    unsigned *nb;
    uint16_t *key; /* the edge's kind and parameter */
} adj;

static void adj_free(adj *a)
{
    free(a->start);
    free(a->nb);
    free(a->key);
}

/* Neighbours following the edges forward (down) or backward (up). */
static int adj_build(adj *a, const bcw_lgraph *g, bool down)
{
    a->start = bcw__calloc(g->nnodes + 1, sizeof *a->start);
    a->nb = bcw__calloc(g->nedges + 1, sizeof *a->nb);
    a->key = bcw__calloc(g->nedges + 1, sizeof *a->key);
    if (a->start == NULL || a->nb == NULL || a->key == NULL)
        return BCW_ENOMEM;
    for (unsigned e = 0; e < g->nedges; e++)
        a->start[(down ? g->edges[e].from : g->edges[e].to) + 1]++;
    for (unsigned i = 0; i < g->nnodes; i++)
        a->start[i + 1] += a->start[i];
    unsigned *fill = bcw__calloc(g->nnodes + 1, sizeof *fill);
    if (fill == NULL)
        return BCW_ENOMEM;
    for (unsigned e = 0; e < g->nedges; e++) {
        const bcw_ledge *x = &g->edges[e];
        unsigned at = down ? x->from : x->to;
        unsigned k = a->start[at] + fill[at]++;
        a->nb[k] = down ? x->to : x->from;
        a->key[k] = (uint16_t)(x->kind << 8 | x->param);
    }
    free(fill);
    return 0;
}

/* Levels below each node, DEPTH_CAP where a cycle is reachable. */
static void heights(const adj *a, unsigned n, unsigned *h, uint8_t *state,
                    unsigned *stack, unsigned *pos)
{
    memset(state, 0, n);
    for (unsigned r = 0; r < n; r++) {
        if (state[r])
            continue;
        unsigned sp = 0;
        stack[sp] = r;
        pos[sp++] = a->start[r];
        state[r] = 1;
        h[r] = 0;
        while (sp > 0) {
            unsigned v = stack[sp - 1];
            if (pos[sp - 1] < a->start[v + 1]) {
                unsigned w = a->nb[pos[sp - 1]++];
                if (state[w] == 1)
                    h[v] = DEPTH_CAP; /* on the path: a cycle */
                else if (state[w] == 0) {
                    state[w] = 1;
                    h[w] = 0;
                    stack[sp] = w;
                    pos[sp++] = a->start[w];
                } else if (h[w] + 1 > h[v])
                    h[v] = h[w] + 1 > DEPTH_CAP ? DEPTH_CAP : h[w] + 1;
                continue;
            }
            state[v] = 2;
            sp--;
            if (sp > 0) {
                unsigned u = stack[sp - 1];
                if (h[v] + 1 > h[u])
                    h[u] = h[v] + 1 > DEPTH_CAP ? DEPTH_CAP : h[v] + 1;
            }
        }
    }
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* sig[d * n + i]: node i's tree to depth d: its label, and the set of
 * (edge, neighbour's tree to depth d - 1). */
static int signatures(const adj *a, const uint64_t *label, unsigned n,
                      uint64_t *sig)
{
    unsigned maxdeg = 0;
    for (unsigned i = 0; i < n; i++)
        if (a->start[i + 1] - a->start[i] > maxdeg)
            maxdeg = a->start[i + 1] - a->start[i];
    uint64_t *items = bcw__calloc(maxdeg + 1, sizeof *items);
    if (items == NULL)
        return BCW_ENOMEM;
    memcpy(sig, label, n * sizeof *sig);
    for (unsigned d = 1; d <= DEPTH_CAP; d++) {
        const uint64_t *prev = sig + (size_t)(d - 1) * n;
        uint64_t *cur = sig + (size_t)d * n;
        for (unsigned i = 0; i < n; i++) {
            unsigned k = 0;
            for (unsigned e = a->start[i]; e < a->start[i + 1]; e++) {
                uint64_t pair[2] = {a->key[e], prev[a->nb[e]]};
                items[k++] = bcw__hash(pair, sizeof pair, 0x5eed);
            }
            qsort(items, k, sizeof *items, u64_cmp);
            unsigned u = 0;
            for (unsigned j = 0; j < k; j++)
                if (u == 0 || items[j] != items[u - 1])
                    items[u++] = items[j];
            uint64_t hsh = bcw__hash(&label[i], sizeof label[i], d);
            cur[i] = bcw__hash(items, u * sizeof *items, hsh);
        }
    }
    free(items);
    return 0;
}

static unsigned uf_find(unsigned *parent, unsigned x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static void uf_union(unsigned *parent, unsigned x, unsigned y)
{
    x = uf_find(parent, x);
    y = uf_find(parent, y);
    if (x < y)
        parent[y] = x;
    else if (y < x)
        parent[x] = y;
}

/* Merges x and y and, to `levels` levels, their trees' matching
 * neighbours. */
static void merge_trees(const adj *a, const uint64_t *sig, unsigned n,
                        unsigned *parent, unsigned x, unsigned y,
                        unsigned levels)
{
    if (uf_find(parent, x) == uf_find(parent, y))
        return;
    uf_union(parent, x, y);
    if (levels <= 1)
        return;
    const uint64_t *below = sig + (size_t)(levels - 2) * n;
    for (unsigned e = a->start[x]; e < a->start[x + 1]; e++)
        for (unsigned f = a->start[y]; f < a->start[y + 1]; f++)
            if (a->key[e] == a->key[f] && below[a->nb[e]] == below[a->nb[f]]) {
                merge_trees(a, sig, n, parent, a->nb[e], a->nb[f], levels - 1);
                break;
            }
}

typedef struct best {
    unsigned levels; /* 0: none */
    int dir;
    unsigned depth; /* the signatures' depth */
    bool whole;     /* the loose threshold's: whole trees alike */
} best;

typedef struct ranked {
    uint64_t sig;
    unsigned node;
} ranked;

static int ranked_cmp(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->sig != y->sig)
        return x->sig < y->sig ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* The n nodes in rk, by their signature s[node], then by number: groups
 * of alike ones side by side. */
static void rank(const uint64_t *s, unsigned n, ranked *rk)
{
    for (unsigned i = 0; i < n; i++)
        rk[i] = (ranked){s[i], i};
    qsort(rk, n, sizeof *rk, ranked_cmp);
}

/* Where the trees to merge next are: the direction and depth of the
 * signatures of two that agree to the most levels (at least k_strict),
 * else of two whole and alike (at least k_loose levels). */
static void find_best(const uint64_t *const sig[2], const unsigned *const h[2],
                      unsigned n, unsigned k_strict, unsigned k_loose,
                      ranked *rk, best *out)
{
    memset(out, 0, sizeof *out);
    best loose = {0};
    for (int dir = 0; dir < 2; dir++)
        for (unsigned d = DEPTH_CAP; d >= 1; d--) {
            rank(sig[dir] + (size_t)d * n, n, rk);
            for (unsigned i = 0; i < n;) {
                unsigned j = i + 1;
                while (j < n && rk[j].sig == rk[i].sig)
                    j++;
                if (j - i >= 2) {
                    /* levels two of them agree to: the second most */
                    unsigned top = 0, second = 0;
                    bool whole = true;
                    for (unsigned m = i; m < j; m++) {
                        unsigned hh = h[dir][rk[m].node];
                        unsigned lv = (hh < d ? hh : d) + 1;
                        whole = whole && hh < d && hh < DEPTH_CAP;
                        if (lv > top)
                            second = top, top = lv;
                        else if (lv > second)
                            second = lv;
                    }
                    if (second >= k_strict && second > out->levels)
                        *out = (best){second, dir, d, false};
                    else if (whole && second >= k_loose &&
                             second > loose.levels)
                        loose = (best){second, dir, d, true};
                }
                i = j;
            }
        }
    if (out->levels == 0)
        *out = loose;
}

/* Merges each group of nodes whose signatures at b's depth agree and
 * whose trees agree to b's levels (whole, for the loose threshold), with
 * their trees: every group tied with the best, one pass. */
static void merge_groups(const adj *a, const uint64_t *sig, const unsigned *h,
                         const uint64_t *label, unsigned n, const best *b,
                         ranked *rk, unsigned *parent)
{
    for (unsigned i = 0; i < n; i++)
        parent[i] = i;
    rank(sig + (size_t)b->depth * n, n, rk);
    for (unsigned i = 0; i < n;) {
        unsigned j = i + 1;
        while (j < n && rk[j].sig == rk[i].sig)
            j++;
        int first = -1;
        for (unsigned m = i; m < j; m++) {
            unsigned v = rk[m].node, hh = h[v];
            unsigned lv = (hh < b->depth ? hh : b->depth) + 1;
            if (lv < b->levels ||
                (b->whole && (hh >= b->depth || hh >= DEPTH_CAP)))
                continue;
            if (first < 0)
                first = (int)v;
            else if (label[v] == label[first])
                merge_trees(a, sig, n, parent, (unsigned)first, v, b->levels);
        }
        i = j;
    }
}

/* The graph with each class of `parent` one node (numbered in order of
 * their smallest members). */
static int collapse(bcw_lgraph *g, unsigned *parent)
{
    unsigned n = g->nnodes, *id = bcw__calloc(n, sizeof *id);
    if (id == NULL)
        return BCW_ENOMEM;
    unsigned m = 0;
    int err = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned r = uf_find(parent, i);
        if (r == i) {
            id[i] = m;
            if (m != i)
                g->nodes[m] = g->nodes[i];
            m++;
        } else {
            id[i] = id[r];
            if (err == 0)
                err = bcw__lnode_fold(&g->nodes[id[r]], &g->nodes[i]);
            bcw__lnode_free(&g->nodes[i]);
        }
    }
    for (unsigned e = 0; e < g->nedges; e++) {
        g->edges[e].from = id[g->edges[e].from];
        g->edges[e].to = id[g->edges[e].to];
    }
    g->nnodes = m;
    bcw__lgraph_settle(g);
    free(id);
    return err;
}

static uint64_t node_label(const bcw_lnode *nd)
{
    uint64_t h = bcw__hash_str(nd->fn);
    return nd->outcome ? bcw__hash(nd->outcome, strlen(nd->outcome), h) : h;
}

int bcw__learn_merge(bcw_lgraph *g, unsigned k_strict, unsigned k_loose)
{
    if (k_strict < 1)
        k_strict = 1;
    int err = 0;
    while (err == 0 && g->nnodes > 1) {
        unsigned n = g->nnodes;
        adj a[2] = {{0}};
        uint64_t *label = bcw__calloc(n, sizeof *label);
        uint64_t *sig[2] = {
            bcw__calloc((size_t)(DEPTH_CAP + 1) * n, sizeof(uint64_t)),
            bcw__calloc((size_t)(DEPTH_CAP + 1) * n, sizeof(uint64_t))};
        unsigned *h[2] = {bcw__calloc(n, sizeof(unsigned)),
                          bcw__calloc(n, sizeof(unsigned))};
        unsigned *parent = bcw__calloc(n, sizeof *parent);
        unsigned *stack = bcw__calloc(n, sizeof *stack);
        unsigned *pos = bcw__calloc(n, sizeof *pos);
        uint8_t *state = bcw__calloc(n, 1);
        ranked *rk = bcw__calloc(n, sizeof *rk);
        if (label == NULL || sig[0] == NULL || sig[1] == NULL || h[0] == NULL ||
            h[1] == NULL || parent == NULL || stack == NULL || pos == NULL ||
            state == NULL || rk == NULL)
            err = BCW_ENOMEM;
        for (int dir = 0; dir < 2 && err == 0; dir++)
            err = adj_build(&a[dir], g, dir == 0);
        best b = {0};
        if (err == 0) {
            for (unsigned i = 0; i < n; i++)
                label[i] = node_label(&g->nodes[i]);
            for (int dir = 0; dir < 2 && err == 0; dir++) {
                heights(&a[dir], n, h[dir], state, stack, pos);
                err = signatures(&a[dir], label, n, sig[dir]);
            }
        }
        if (err == 0)
            find_best((const uint64_t *const[2]){sig[0], sig[1]},
                      (const unsigned *const[2]){h[0], h[1]}, n, k_strict,
                      k_loose, rk, &b);
        if (err == 0 && b.levels > 0) {
            merge_groups(&a[b.dir], sig[b.dir], h[b.dir], label, n, &b, rk,
                         parent);
            err = collapse(g, parent);
        }
        for (int dir = 0; dir < 2; dir++) {
            adj_free(&a[dir]);
            free(sig[dir]);
            free(h[dir]);
        }
        free(label);
        free(parent);
        free(stack);
        free(pos);
        free(state);
        free(rk);
        if (b.levels == 0)
            break;
    }
    return err;
}
