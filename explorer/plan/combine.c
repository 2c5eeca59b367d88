/* combine.c - all combinations, or all pairs by the AETG-style greedy:
 * each new row starts from the first pair not yet covered and gives
 * every other parameter, in order, the category that covers most new
 * pairs with those already chosen (ties to the lowest).  Deterministic;
 * the rows cover every pair of categories of any two parameters. */
#include "combine.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define MAX_CATS 256

typedef struct pairs {
    unsigned n;
    const unsigned *counts;
    unsigned base[BCW_MAX_PARAMS][BCW_MAX_PARAMS]; /* i < j: offset */
    bool *covered;
    size_t total, left;
} pairs;

static size_t at(const pairs *p, unsigned i, unsigned a, unsigned j, unsigned b)
{
    if (i > j) {
        unsigned t = i;
        i = j, j = t, t = a, a = b, b = t;
    }
    return p->base[i][j] + (size_t)a * p->counts[j] + b;
}

static unsigned cats(const unsigned *counts, unsigned k)
{
    return counts[k] ? counts[k] : 1;
}

static int all_pairs(bcw_combo **out, unsigned *nout, const unsigned *counts,
                     unsigned n)
{
    pairs p = {.n = n, .counts = counts};
    size_t cap = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = i + 1; j < n; j++) {
            p.base[i][j] = (unsigned)p.total;
            p.total += (size_t)cats(counts, i) * cats(counts, j);
        }
    p.left = p.total;
    if ((p.covered = bcw__calloc(p.total ? p.total : 1, 1)) == NULL)
        return BCW_ENOMEM;
    unsigned c2[BCW_MAX_PARAMS];
    for (unsigned k = 0; k < n; k++)
        c2[k] = cats(counts, k);
    p.counts = c2;
    while (p.left > 0) {
        bcw_combo row = {0};
        bool set[BCW_MAX_PARAMS] = {0};
        /* the first uncovered pair */
        bool found = false;
        for (unsigned i = 0; i < n && !found; i++)
            for (unsigned j = i + 1; j < n && !found; j++) {
                size_t base = p.base[i][j];
                size_t size = (size_t)c2[i] * c2[j], e = 0;
                while (e < size && p.covered[base + e])
                    e++;
                if (e < size) {
                    row.cat[i] = (uint8_t)(e / c2[j]);
                    row.cat[j] = (uint8_t)(e % c2[j]);
                    set[i] = set[j] = found = true;
                }
            }
        for (unsigned t = 0; t < n; t++) {
            if (set[t])
                continue;
            unsigned best = 0, gain = 0;
            for (unsigned v = 0; v < c2[t]; v++) {
                unsigned g = 0;
                for (unsigned o = 0; o < n; o++)
                    g += set[o] && !p.covered[at(&p, t, v, o, row.cat[o])];
                if (g > gain)
                    best = v, gain = g;
            }
            row.cat[t] = (uint8_t)best;
            set[t] = true;
        }
        for (unsigned i = 0; i < n; i++)
            for (unsigned j = i + 1; j < n; j++) {
                bool *c = &p.covered[at(&p, i, row.cat[i], j, row.cat[j])];
                p.left -= !*c;
                *c = true;
            }
        if (bcw__grow(out, &cap, *nout + 1, sizeof **out) < 0) {
            free(p.covered);
            return BCW_ENOMEM;
        }
        (*out)[(*nout)++] = row;
    }
    free(p.covered);
    return 0;
}

int bcw__combine(bcw_combo **out, unsigned *nout, uint64_t *total,
                 const unsigned *counts, unsigned n, enum bcw_combine mode,
                 unsigned cap)
{
    *out = NULL;
    *nout = 0;
    unsigned varied = 0;
    uint64_t product = 1;
    for (unsigned k = 0; k < n; k++) {
        if (counts[k] > MAX_CATS)
            return bcw__error(BCW_EINPUT, "%u categories for one parameter",
                              counts[k]);
        varied += counts[k] > 1;
        if (product <= UINT32_MAX)
            product *= cats(counts, k);
    }
    if (mode == BCW_COMBINE_PAIRS && varied > 2) {
        int err = all_pairs(out, nout, counts, n);
        *total = *nout;
        if (*nout > cap)
            *nout = cap;
        return err;
    }
    *total = product;
    unsigned rows = product < cap ? (unsigned)product : cap;
    if ((*out = bcw__calloc(rows ? rows : 1, sizeof **out)) == NULL)
        return BCW_ENOMEM;
    for (unsigned r = 0; r < rows; r++) {
        unsigned rest = r; /* mixed radix, the first parameter fastest */
        for (unsigned k = 0; k < n; k++) {
            (*out)[r].cat[k] = (uint8_t)(rest % cats(counts, k));
            rest /= cats(counts, k);
        }
    }
    *nout = rows;
    return 0;
}
