/* permute.c - distinct permutations of a multiset by the classic next
 * permutation step (Knuth's Algorithm L), which skips repeats because it
 * moves to the next larger arrangement; stratified permutations as the
 * mixed-radix product of each group's. */
#include "permute.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

#define MAX_SEED 64
#define MAX_GROUPS 8

static void swap(char *a, char *b)
{
    char t = *a;
    *a = *b;
    *b = t;
}

/* The next larger arrangement of s[0..n-1]; false after the largest. */
static bool next_permutation(char *s, size_t n)
{
    if (n < 2)
        return false;
    size_t i = n - 1;
    while (i > 0 && (unsigned char)s[i - 1] >= (unsigned char)s[i])
        i--;
    if (i == 0)
        return false;
    size_t j = n - 1;
    while ((unsigned char)s[j] <= (unsigned char)s[i - 1])
        j--;
    swap(&s[i - 1], &s[j]);
    for (size_t a = i, b = n - 1; a < b; a++, b--)
        swap(&s[a], &s[b]);
    return true;
}

static int by_byte(const void *a, const void *b)
{
    return *(const unsigned char *)a - *(const unsigned char *)b;
}

/* The distinct permutations of one group, sorted; *n of them. */
static int group_perms(char ***out, unsigned *n, const char *g, size_t len)
{
    char s[MAX_SEED + 1];
    memcpy(s, g, len);
    s[len] = '\0';
    qsort(s, len, 1, by_byte);
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    do {
        if (*n >= 100000)
            return bcw__error(BCW_EINPUT,
                              "buffer permutation seed: group \"%s\" has "
                              "too many permutations",
                              s);
        if (bcw__grow(out, &cap, *n + 1, sizeof **out) < 0 ||
            ((*out)[*n] = bcw__strndup(s, len)) == NULL)
            return BCW_ENOMEM;
        (*n)++;
    } while (next_permutation(s, len));
    return 0;
}

int bcw__permutations(char ***out, unsigned *n, uint64_t *total,
                      const char *seed, unsigned cap)
{
    *out = NULL;
    *n = 0;
    *total = 0;
    if (strlen(seed) > MAX_SEED)
        return bcw__error(BCW_EINPUT,
                          "buffer permutation seed: more than %d bytes",
                          MAX_SEED);
    char **groups[MAX_GROUPS] = {0};
    unsigned ng[MAX_GROUPS] = {0}, ngroups = 0;
    int err = 0;
    for (const char *g = seed; err == 0;) {
        size_t len = strcspn(g, "|");
        if (len == 0)
            err = bcw__error(BCW_EINPUT,
                             "buffer permutation seed: an empty group in "
                             "\"%s\"",
                             seed);
        else if (ngroups == MAX_GROUPS)
            err = bcw__error(BCW_EINPUT,
                             "buffer permutation seed: more than %d groups",
                             MAX_GROUPS);
        else
            err = group_perms(&groups[ngroups], &ng[ngroups], g, len);
        ngroups++;
        if (g[len] == '\0')
            break;
        g += len + 1;
    }
    uint64_t all = 1;
    for (unsigned i = 0; i < ngroups && err == 0; i++)
        all = all > UINT32_MAX / (ng[i] ? ng[i] : 1) ? UINT32_MAX : all * ng[i];
    *total = err == 0 ? all : 0;
    size_t want = err == 0 ? (all < cap ? all : cap) : 0;
    if (want > 0 && (*out = bcw__calloc(want, sizeof **out)) == NULL)
        err = BCW_ENOMEM;
    size_t seedlen = strlen(seed);
    for (size_t r = 0; r < want && err == 0; r++) {
        char *s = bcw__malloc(seedlen + 1), *w = s;
        if (s == NULL) {
            err = BCW_ENOMEM;
            break;
        }
        /* row r in mixed radix, the last group fastest */
        unsigned idx[MAX_GROUPS];
        uint64_t rest = r;
        for (unsigned i = ngroups; i-- > 0;) {
            idx[i] = (unsigned)(rest % ng[i]);
            rest /= ng[i];
        }
        for (unsigned i = 0; i < ngroups; i++) {
            const char *p = groups[i][idx[i]];
            size_t len = strlen(p);
            memcpy(w, p, len);
            w += len;
        }
        *w = '\0';
        (*out)[(*n)++] = s;
    }
    for (unsigned i = 0; i < ngroups && i < MAX_GROUPS; i++) {
        if (groups[i] == NULL)
            continue;
        for (unsigned j = 0; j < ng[i]; j++)
            free(groups[i][j]);
        free(groups[i]);
    }
    if (err < 0) {
        for (unsigned i = 0; i < *n; i++)
            free((*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return err;
}
