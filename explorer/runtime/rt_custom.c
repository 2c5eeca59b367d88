/* rt_custom.c - the worker's side of a custom generator: loads the one
 * the plan names and draws the values of the parameters it generates
 * (BCW_FIXED_CUSTOM). */
#include "rt_custom.h"

#include <string.h>

#include "custom.h"

static bcw_custom custom;
/* what the generator is told of each parameter, by plan index; the
 * strings point into the shared plan, which outlives the worker's use */
static bcw_gen_param params[BCW_MAX_FUNCS][BCW_MAX_PARAMS];

/* The name at offset `at` of the plan's table, or NULL if out of it. */
static const char *name_at(const bcw_wire_gen *w, uint32_t at)
{
    return at < w->nnames ? &w->names[at] : NULL;
}

int bcw_rt_custom_setup(const bcw_shm *shm)
{
    const bcw_wire_gen *w = &shm->gen;
    if (w->path[0] == '\0')
        return 0;
    /* no names when the generator takes none of the plan's parameters */
    if (memchr(w->path, '\0', sizeof w->path) == NULL ||
        w->nnames > sizeof w->names ||
        (w->nnames > 0 && w->names[w->nnames - 1] != '\0'))
        return -1;
    char err[512];
    /* the parent loaded it first and reported what was wrong with it */
    if (bcw_custom_open(&custom, w->path, w->path, err, sizeof err) < 0)
        return -1;
    for (uint32_t i = 0; i < shm->nfuncs; i++) {
        const bcw_wire_func *f = &shm->funcs[i];
        for (unsigned k = 0; k < f->nparams; k++) {
            const bcw_wire_param *p = &f->params[k];
            if (p->fixed != BCW_FIXED_CUSTOM)
                continue;
            const char *fn = name_at(w, w->func[i]);
            const char *pn = name_at(w, w->param[i][k]);
            const char *ct = name_at(w, w->ctype[i][k]);
            if (!fn || !pn || !ct ||
                bcw_custom_kind_name((enum bcw_pkind)p->kind) == NULL)
                return -1;
            bcw_custom_param(&params[i][k], fn, pn, ct, (enum bcw_pkind)p->kind,
                             (enum bcw_abi)p->abi, k, w->categories[i][k]);
        }
    }
    return 0;
}

void bcw_rt_custom_reset(void)
{
    bcw_custom_reset(&custom);
}

uint64_t bcw_rt_custom_next(unsigned fi, unsigned k, const bcw_wire_param *p,
                            bcw_gen *g, const char **str)
{
    return bcw_custom_next(&custom, &params[fi][k], (enum bcw_pkind)p->kind,
                           (enum bcw_abi)p->abi, g, str);
}
