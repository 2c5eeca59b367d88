/* pipeline.c - bitcode to a partitioned model, through the model cache:
 * the analyzer, then the solver, then the cache, so a walk of unchanged
 * bitcode does neither again. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/solver.h"
#include "file.h"
#include "model.h"

int bcw_model_open(bcw_model **out, const char *bitcode, const char *cache)
{
    *out = NULL;
    uint64_t key = 0;
    int err = bcw__hash_file(&key, bitcode);
    /* a new bcwalk may analyse differently: its own bytes are in the key */
    if (err == 0)
        err = bcw__hash_file(&key, "/proc/self/exe");
    char *root = err == 0 ? bcw__cache_root(cache) : NULL;
    char *dir = root ? bcw__sprintf("%s/models", root) : NULL;
    char *path = dir ? bcw__sprintf("%s/%016llx.model.msgpack", dir,
                                    (unsigned long long)key)
                     : NULL;
    if (err == 0 && path == NULL)
        err = BCW_ENOMEM;
    if (err == 0 && access(path, R_OK) == 0 && bcw_model_load(out, path) == 0) {
        char *p = bcw__strdup(bitcode); /* reports name the file given */
        if (p == NULL) {
            bcw_model_free(*out);
            *out = NULL;
            err = BCW_ENOMEM;
        } else {
            free((*out)->path);
            (*out)->path = p;
        }
        goto done;
    }
    /* not cached, or unreadable (then replaced): analyse and partition */
    if (err == 0)
        err = bcw_model_analyze(out, bitcode);
    if (err == 0 && (err = bcw_model_partition(*out)) < 0) {
        bcw_model_free(*out);
        *out = NULL;
    }
    if (err == 0 && bcw__mkdir_p(dir) == 0)
        bcw_model_save(*out, path); /* a cache: failing to fill it is fine */
done:
    free(root);
    free(dir);
    free(path);
    return err;
}
