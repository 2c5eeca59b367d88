/* custom.c - custom generators on both sides of the worker protocol:
 * loading one, and drawing a value through it (custom.h). */
#define _GNU_SOURCE
#include "custom.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int bcw_custom_open(bcw_custom *c, const char *so, const char *shown, char *err,
                    size_t n)
{
    memset(c, 0, sizeof *c);
    /* RTLD_LOCAL: the generator's names never resolve the unit's */
    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        const char *why = dlerror();
        snprintf(err, n, "%s: cannot load the generator: %s", shown,
                 why ? why : "dlopen failed");
        return -1;
    }
    const bcw_generator *g = dlsym(dl, BCW_GENERATOR_SYMBOL);
    if (g == NULL) {
        snprintf(err, n,
                 "%s: no generator in it: define `const bcw_generator "
                 "%s` (see bcwalk/generator.h)",
                 shown, BCW_GENERATOR_SYMBOL);
        dlclose(dl);
        return -1;
    }
    if (g->version != BCW_GENERATOR_VERSION) {
        snprintf(err, n,
                 "%s: %s.version is %d, this bcwalk wants %d: rebuild it "
                 "against this bcwalk's bcwalk/generator.h",
                 shown, BCW_GENERATOR_SYMBOL, g->version,
                 BCW_GENERATOR_VERSION);
        dlclose(dl);
        return -1;
    }
    if (g->next == NULL) {
        snprintf(err, n, "%s: %s.next is NULL: a generator needs one", shown,
                 BCW_GENERATOR_SYMBOL);
        dlclose(dl);
        return -1;
    }
    c->dl = dl;
    c->gen = g;
    return 0;
}

void bcw_custom_close(bcw_custom *c)
{
    if (c->dl != NULL)
        dlclose(c->dl);
    memset(c, 0, sizeof *c);
}

const char *bcw_custom_kind_name(enum bcw_pkind kind)
{
    switch (kind) {
    case BCW_PK_INT:
        return "int";
    case BCW_PK_ENUM:
        return "enum";
    case BCW_PK_BOOL:
        return "bool";
    case BCW_PK_CHAR:
        return "char";
    case BCW_PK_FLOAT:
        return "float";
    case BCW_PK_STRING:
        return "string";
    case BCW_PK_ELEMENT:
        return "element";
    default:
        /* made by bcwalk: the unit, storage, buffers and their lengths */
        return NULL;
    }
}

void bcw_custom_param(bcw_gen_param *out, const char *function,
                      const char *name, const char *ctype, enum bcw_pkind kind,
                      enum bcw_abi abi, unsigned index, unsigned categories)
{
    static const unsigned char bits[] = {
        [BCW_ABI_BOOL] = 1,   [BCW_ABI_S8] = 8,     [BCW_ABI_U8] = 8,
        [BCW_ABI_S16] = 16,   [BCW_ABI_U16] = 16,   [BCW_ABI_S32] = 32,
        [BCW_ABI_U32] = 32,   [BCW_ABI_S64] = 64,   [BCW_ABI_U64] = 64,
        [BCW_ABI_FLOAT] = 32, [BCW_ABI_DOUBLE] = 64};
    memset(out, 0, sizeof *out);
    out->function = function;
    out->name = name;
    out->ctype = ctype;
    out->kind = bcw_custom_kind_name(kind);
    out->index = index;
    out->bits = (unsigned)abi < sizeof bits ? bits[abi] : 0;
    out->is_signed = abi == BCW_ABI_S8 || abi == BCW_ABI_S16 ||
                     abi == BCW_ABI_S32 || abi == BCW_ABI_S64;
    out->categories = categories;
}

void bcw_custom_reset(const bcw_custom *c)
{
    if (c->gen != NULL && c->gen->reset != NULL)
        c->gen->reset(c->gen->payload);
}

uint64_t bcw_custom_next(const bcw_custom *c, const bcw_gen_param *p,
                         enum bcw_pkind kind, enum bcw_abi abi, bcw_gen *g,
                         const char **str)
{
    bcw_gen_value v;
    memset(&v, 0, sizeof v);
    if (c->gen == NULL || c->gen->next(p, &v, c->gen->payload) != BCW_GEN_OK) {
        /* delegated: the master's draw, as if no generator were there */
        uint64_t raw = bcw_gen_next(g, kind, abi);
        if (kind != BCW_PK_STRING)
            return raw;
        *str = bcw_gen_strings[raw % BCW_STRINGS];
        return 0;
    }
    switch (kind) {
    case BCW_PK_BOOL:
        return v.i != 0;
    case BCW_PK_FLOAT: {
        uint64_t raw = 0;
        if (abi == BCW_ABI_FLOAT) {
            float f = (float)v.f;
            memcpy(&raw, &f, sizeof f);
        } else {
            memcpy(&raw, &v.f, sizeof v.f);
        }
        return raw;
    }
    case BCW_PK_STRING:
        *str = v.s;
        return 0;
    case BCW_PK_ELEMENT:
        return (uint64_t)v.i % BCW_CUSTOM_CELLS;
    default:
        /* integers: the callee sees the low bits, the report
           sign-extends them by the ABI class */
        return (uint64_t)v.i;
    }
}
