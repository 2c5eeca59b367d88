/* pipeline.c - bitcode to a partitioned model, through the model cache:
 * the analyzer, then the solver, then the cache, so a walk of unchanged
 * bitcode does neither again. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "alloc.h"
#include "api.h"
#include "bcwalk/solver.h"
#include "file.h"
#include "model.h"

int bcw_model_open(bcw_model **out, const char *bitcode, const char *cache)
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
            char *p = bcw__strdup(bitcode); /* reports name the file given */
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
