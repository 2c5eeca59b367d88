/* generator.c - custom generators on bcwalk's side (generator.h): the
 * user's file built into a shared object and cached like the workers,
 * loaded here to decide which parameters it takes and to replay its
 * values for reports; the workers load the same object (rt_custom.c). */
#define _GNU_SOURCE
#include "generator.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "bcwalk/version.h"
#include "build.h"
#include "custom.h"
#include "file.h"
#include "hash.h"

struct bcw_usergen {
    bcw_custom custom;
    char *so; /* absolute path of the loaded shared object */
    unsigned nfuncs;
    bool (*takes)[BCW_MAX_PARAMS]; /* by unit function and parameter */
};

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n > m && strcmp(s + n - m, tail) == 0;
}

/* The absolute path of `path` into *out (the caller's). */
static int absolute(char **out, const char *path)
{
    char *p = realpath(path, NULL);
    if (p == NULL)
        return bcw__error(BCW_EINPUT, "%s: %s", path, strerror(errno));
    *out = bcw__strdup(p);
    free(p);
    return *out ? 0 : BCW_ENOMEM;
}

/* Builds the shared object of a .c or .bc generator into the cache, or
 * finds it there whole (its bytes match the checksum file written with
 * it; else it is built again); *out is its path, the caller's. */
static int build(char **out, const char *file, const char *cache_dir)
{
    /* the compile line is part of the key: a new flag rebuilds */
    static const char flags[] = "-shared -fPIC -O1 -Wl,-Bsymbolic v1";
    uint64_t key =
        bcw__hash(BCW_CLANG, sizeof BCW_CLANG, BCW_GENERATOR_VERSION);
    key = bcw__hash(bcw_version(), strlen(bcw_version()), key);
    key = bcw__hash(flags, sizeof flags, key);
    key = bcw__hash(file + strlen(file) - 2, 2, key); /* ".c" or "bc" */
    int err = bcw__hash_file(&key, file);
    if (err < 0)
        return err;
    char *root = bcw__cache_root(cache_dir), *dir = NULL, *so = NULL,
         *tmp = NULL, *log = NULL, *kept = NULL, *inc = NULL, *iflag = NULL,
         *sum = NULL;
    /* the installed public headers: bcwalk/generator.h */
    if ((err = bcw__install_path(&inc, "include/bcwalk/generator.h")) < 0)
        goto done;
    inc[strlen(inc) - strlen("/bcwalk/generator.h")] = '\0';
    if (root == NULL || (iflag = bcw__sprintf("-I%s", inc)) == NULL ||
        (dir = bcw__sprintf("%s/generators", root)) == NULL ||
        (so = bcw__sprintf("%s/%016llx.so", dir, (unsigned long long)key)) ==
            NULL ||
        (sum = bcw__sprintf("%s/%016llx.sum", dir, (unsigned long long)key)) ==
            NULL ||
        (tmp = bcw__sprintf("%s/tmp.%016llx.%ld.so", dir,
                            (unsigned long long)key, (long)getpid())) == NULL ||
        (log = bcw__sprintf("%s/tmp.%016llx.%ld.log", dir,
                            (unsigned long long)key, (long)getpid())) == NULL) {
        err = BCW_ENOMEM;
        goto done;
    }
    int whole = access(so, R_OK) == 0
                    ? bcw__sum_check(sum, (const char *[]){so}, 1)
                    : 0;
    if (whole != 0) {
        err = whole < 0 ? whole : 0; /* cached */
        goto done;
    }
    if ((err = bcw__mkdir_p(dir)) < 0)
        goto done;
    /* -Bsymbolic: bitcode compiled without -fPIC (dso_local globals)
     * links into a shared object all the same */
    const char *argv[] = {
        BCW_CLANG, "-shared", "-fPIC", "-O1", "-Wl,-Bsymbolic",
        iflag,     file,      "-o",    tmp,   NULL};
    int rc = bcw__build_clang(argv, log);
    if (rc < 0) {
        err = rc;
        goto done;
    }
    if (rc > 0) {
        /* keep the log where the message says it is */
        kept = bcw__sprintf("%s/last-failed-generator.log", root);
        bool moved = kept != NULL && rename(log, kept) == 0;
        err = bcw__build_failed(file, "compiling the generator",
                                moved ? kept : log);
        if (err == BCW_ERROR)
            err = BCW_EINPUT; /* the user's code: theirs to fix */
        goto done;
    }
    /* the checksum first: a reader finds no .so without one */
    if ((err = bcw__sum_write(sum, (const char *[]){tmp}, 1)) < 0)
        goto done;
    if (rename(tmp, so) != 0) {
        err = bcw__error(BCW_ERROR, "rename %s to %s: %s", tmp, so,
                         strerror(errno));
        goto done;
    }
done:
    /* what a failed or cached build leaves behind */
    if (tmp != NULL)
        unlink(tmp);
    if (log != NULL)
        unlink(log);
    free(inc);
    free(iflag);
    free(root);
    free(dir);
    free(tmp);
    free(log);
    free(kept);
    free(sum);
    if (err < 0) {
        free(so);
        return err;
    }
    *out = so;
    return 0;
}

/* What the generator is told of parameter k of `f`: the same here and in
 * the workers (bcw__generator_plan hands them these strings). */
static void param_of(bcw_gen_param *out, const bcw_func *f, unsigned k)
{
    const bcw_param *p = &f->params[k];
    /* the plan has a byte for it */
    bcw_custom_param(out, f->name, p->name ? p->name : "",
                     p->ctype ? p->ctype : "", p->kind, p->abi, k,
                     p->nparts > 255 ? 255 : p->nparts);
}

int bcw__generator_open(bcw_usergen **out, const char *file, const bcw_unit *u,
                        const char *cache_dir)
{
    *out = NULL;
    if (access(file, R_OK) != 0)
        return bcw__error(BCW_EINPUT, "custom generator %s: %s", file,
                          strerror(errno));
    bool is_so = ends_with(file, ".so");
    if (!is_so && !ends_with(file, ".c") && !ends_with(file, ".bc"))
        return bcw__error(BCW_EINPUT,
                          "%s: a generator is a .c, .bc or .so file "
                          "(see bcwalk/generator.h)",
                          file);
    bcw_usergen *g = bcw__calloc(1, sizeof *g);
    if (g == NULL)
        return BCW_ENOMEM;
    char *built = NULL;
    int err = is_so ? absolute(&g->so, file) : build(&built, file, cache_dir);
    if (err == 0 && !is_so)
        err = absolute(&g->so, built);
    free(built);
    if (err < 0)
        goto fail;
    if (strlen(g->so) >= BCW_GEN_PATH_MAX) {
        err = bcw__error(BCW_EINPUT, "%s: its path is too long", g->so);
        goto fail;
    }
    char msg[600];
    if (bcw_custom_open(&g->custom, g->so, file, msg, sizeof msg) < 0) {
        err = bcw__error(BCW_EINPUT, "%s", msg);
        goto fail;
    }
    g->nfuncs = u->nfuncs;
    g->takes = bcw__calloc(u->nfuncs ? u->nfuncs : 1, sizeof *g->takes);
    if (g->takes == NULL) {
        err = BCW_ENOMEM;
        goto fail;
    }
    const bcw_generator *gen = g->custom.gen;
    for (unsigned i = 0; i < u->nfuncs; i++) {
        const bcw_func *f = &u->funcs[i];
        for (unsigned k = 0; k < f->nparams; k++) {
            if (bcw_custom_kind_name(f->params[k].kind) == NULL)
                continue;
            bcw_gen_param p;
            param_of(&p, f, k);
            g->takes[i][k] =
                gen->handles == NULL || gen->handles(&p, gen->payload) != 0;
        }
    }
    *out = g;
    return 0;
fail:
    bcw__generator_free(g);
    return err;
}

bool bcw__generator_takes(const bcw_usergen *g, unsigned func, unsigned k)
{
    return g != NULL && func < g->nfuncs && k < BCW_MAX_PARAMS &&
           g->takes[func][k];
}

/* Appends `s` to the plan's name table; its offset into *at. */
static int put_name(bcw_wire_gen *w, uint32_t *at, const char *s)
{
    size_t n = strlen(s) + 1;
    if (n > sizeof w->names - w->nnames)
        return bcw__error(BCW_EINPUT,
                          "the names of the parameters the generator takes "
                          "are longer than the plan's %zu bytes",
                          sizeof w->names);
    memcpy(&w->names[w->nnames], s, n);
    *at = w->nnames;
    w->nnames += (uint32_t)n;
    return 0;
}

int bcw__generator_plan(const bcw_usergen *g, bcw_wire_gen *w,
                        bcw_wire_func *funcs, const bcw_unit *u,
                        const bcw_step *steps, unsigned nsteps)
{
    memset(w->path, 0, sizeof w->path);
    w->nnames = 0;
    if (g == NULL)
        return 0;
    memcpy(w->path, g->so, strlen(g->so) + 1);
    /* each function's names once, however many steps call it */
    int *first = bcw__calloc(u->nfuncs ? u->nfuncs : 1, sizeof *first);
    if (first == NULL)
        return BCW_ENOMEM;
    int err = 0;
    for (unsigned i = 0; i < nsteps && err == 0; i++) {
        const bcw_step *st = &steps[i];
        const bcw_func *f = &u->funcs[st->func];
        bcw_wire_func *wf = &funcs[i];
        int from = first[st->func] - 1;
        bool named = false;
        for (unsigned k = 0; k < f->nparams && err == 0; k++) {
            if (!st->custom[k])
                continue;
            wf->params[k].fixed = BCW_FIXED_CUSTOM;
            if (from >= 0) {
                w->func[i] = w->func[from];
                w->param[i][k] = w->param[from][k];
                w->ctype[i][k] = w->ctype[from][k];
                w->categories[i][k] = w->categories[from][k];
                continue;
            }
            bcw_gen_param p;
            param_of(&p, f, k);
            if (!named && (err = put_name(w, &w->func[i], p.function)) < 0)
                break;
            named = true;
            if ((err = put_name(w, &w->param[i][k], p.name)) == 0)
                err = put_name(w, &w->ctype[i][k], p.ctype);
            w->categories[i][k] = (uint8_t)p.categories;
        }
        if (from < 0)
            first[st->func] = (int)i + 1;
    }
    free(first);
    return err;
}

void bcw__generator_reset(const bcw_usergen *g)
{
    if (g != NULL)
        bcw_custom_reset(&g->custom);
}

uint64_t bcw__generator_next(const bcw_usergen *g, const bcw_func *f,
                             unsigned k, bcw_gen *master, const char **str)
{
    bcw_gen_param p;
    param_of(&p, f, k);
    return bcw_custom_next(&g->custom, &p, f->params[k].kind, f->params[k].abi,
                           master, str);
}

void bcw__generator_free(bcw_usergen *g)
{
    if (g == NULL)
        return;
    bcw_custom_close(&g->custom);
    free(g->so);
    free(g->takes);
    free(g);
}
