/* pipeline.c - bitcode to a partitioned model, through the model cache:
 * the analyzer, then the solver, then the cache, so a walk of unchanged
 * bitcode does neither again. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "api.h"
#include "bcwalk/solver.h"
#include "bitcode.h"
#include "file.h"
#include "model.h"

/* bcw_model_open, the model naming `name` as its file. */
static int open_model(bcw_model **out, const char *bitcode, const char *name,
                      const char *cache)
{
    *out = NULL;
    bcw_model *m = NULL;
    uint64_t key = 0;
    char *root = NULL, *dir = NULL, *path = NULL;
    int err = bcw__hash_file(&key, bitcode);
    /* a new bcwalk may analyse differently: its own bytes are in the key */
    if (err == 0)
        err = bcw__hash_file(&key, "/proc/self/exe");
    if (err < 0)
        goto done;
    root = bcw__cache_root(cache);
    dir = root ? bcw__sprintf("%s/models", root) : NULL;
    path = dir ? bcw__sprintf("%s/%016llx.model.msgpack", dir,
                              (unsigned long long)key)
               : NULL;
    if (path == NULL) {
        err = BCW_ENOMEM;
        goto done;
    }
    if (access(path, R_OK) == 0) {
        err = bcw_model_load(&m, path);
        /* out of memory is a failure; a file that does not load is
         * replaced below */
        if (err == BCW_ENOMEM)
            goto done;
        /* a header changed since: which functions are API may too */
        int current = err == 0 ? bcw__api_current(m) : 0;
        if (current < 0) {
            err = current;
            goto done;
        }
        if (current) {
            char *p = bcw__strdup(name); /* reports name the file given */
            if (p == NULL) {
                err = BCW_ENOMEM;
                goto done;
            }
            free(m->path);
            m->path = p;
            goto done;
        }
        bcw_model_free(m);
        m = NULL;
        err = 0;
    }
    /* not cached, or unreadable (then replaced): analyse and partition.
     * A model made under a failure is never cached: it could say less
     * than the bitcode does. */
    if ((err = bcw_model_analyze(&m, bitcode)) < 0 ||
        (err = bcw_model_partition(m)) < 0)
        goto done;
    char *p = bcw__strdup(name);
    if (p == NULL) {
        err = BCW_ENOMEM;
        goto done;
    }
    free(m->path);
    m->path = p;
    if (bcw__mkdir_p(dir) == 0)
        bcw_model_save(m, path); /* a cache: failing to fill it is fine */
done:
    if (err < 0) {
        bcw_model_free(m);
        m = NULL;
    }
    *out = m;
    free(root);
    free(dir);
    free(path);
    return err;
}

int bcw_model_open(bcw_model **out, const char *bitcode, const char *cache)
{
    return open_model(out, bitcode, bitcode, cache);
}

/* Splits comma-separated `list` into *files (pointers into *copy, both
 * the caller's); 0 or BCW_ENOMEM. */
static int split_list(const char *list, char **copy, const char ***files,
                      size_t *n)
{
    *n = 0;
    *files = NULL;
    if ((*copy = bcw__strdup(list)) == NULL)
        return BCW_ENOMEM;
    size_t cap = 0;
    for (char *save = NULL, *f = strtok_r(*copy, ",", &save); f;
         f = strtok_r(NULL, ",", &save)) {
        if (bcw__grow(files, &cap, *n + 1, sizeof **files) < 0)
            return BCW_ENOMEM;
        (*files)[(*n)++] = f;
    }
    return 0;
}

int bcw_bitcode_link(char **built, const char *bitcode, const char *link,
                     const char *cache)
{
    *built = NULL;
    if (link == NULL || link[0] == '\0')
        return (*built = bcw__strdup(bitcode)) ? 0 : BCW_ENOMEM;
    char *copy = NULL, *root = NULL, *dir = NULL;
    const char **with = NULL;
    size_t n = 0;
    uint64_t key = 0;
    int err = split_list(link, &copy, &with, &n);
    if (err == 0)
        err = bcw__hash_file(&key, bitcode);
    for (size_t i = 0; err == 0 && i < n; i++)
        err = bcw__hash_file(&key, with[i]);
    /* a linked module depends on how bcwalk links and marks it */
    if (err == 0)
        err = bcw__hash_file(&key, "/proc/self/exe");
    if (err < 0)
        goto done;
    root = bcw__cache_root(cache);
    dir = root ? bcw__sprintf("%s/linked", root) : NULL;
    *built = dir ? bcw__sprintf("%s/%016llx.bc", dir, (unsigned long long)key)
                 : NULL;
    if (*built == NULL)
        err = BCW_ENOMEM;
    else if (access(*built, R_OK) != 0 && (err = bcw__mkdir_p(dir)) == 0)
        err = bcw__bitcode_link(*built, bitcode, with, n);
done:
    if (err < 0) {
        free(*built);
        *built = NULL;
    }
    free(copy);
    free(with);
    free(root);
    free(dir);
    return err;
}

int bcw_model_open_linked(bcw_model **out, char **built, const char *bitcode,
                          const char *link, const char *cache)
{
    *out = NULL;
    int err = bcw_bitcode_link(built, bitcode, link, cache);
    if (err == 0 && (err = open_model(out, *built, bitcode, cache)) < 0) {
        free(*built);
        *built = NULL;
    }
    return err;
}
