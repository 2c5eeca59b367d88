/* analyze.c - the analyzer's entry points: bitcode in, model out. */
#define _POSIX_C_SOURCE 200809L
#include "analyze.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bitcode.h"
#include "diinfo.h"
#include "effects.h"
#include "units.h"

/* Analyses the module of `bc`, which it simplifies in place. */
static int analyze_module(bcw_model **out, bcw_bitcode *bc, const char *path)
{
    *out = NULL;
    bcw_effects *fx = NULL;
    bcw_model *m = bcw__calloc(1, sizeof *m);
    int err = m ? 0 : BCW_ENOMEM;
    if (err == 0 && (m->path = bcw__strdup(path)) == NULL)
        err = BCW_ENOMEM;
    if (err == 0)
        err = bcw__bitcode_simplify(bc);
    if (err == 0)
        err = bcw__effects_new(&fx, bc);
    bcw__di_index(bc->mod);
    if (err == 0)
        err = bcw__units_find(m, bc, fx);
    bcw__di_index(NULL);
    bcw__effects_free(fx);
    if (err < 0) {
        bcw_model_free(m);
        return err;
    }
    *out = m;
    return 0;
}

/* The analysis as the child that read the bitcode makes it: the
 * model's bytes. */
static int analyze_to_bytes(bcw_bitcode *bc, const char *path, char **data,
                            size_t *len)
{
    bcw_model *m;
    int err = analyze_module(&m, bc, path);
    if (err == 0)
        err = bcw__model_to_bytes(m, true, data, len);
    bcw_model_free(m);
    return err;
}

int bcw__model_analyze_here(bcw_model **out, const char *path)
{
    *out = NULL;
    bcw__error_clear();
    bcw_bitcode bc = {0};
    int err = bcw__bitcode_load(&bc, path);
    if (err == 0)
        err = analyze_module(out, &bc, path);
    bcw__bitcode_dispose(&bc);
    return err;
}

int bcw_model_analyze(bcw_model **out, const char *path)
{
    *out = NULL;
    bcw__error_clear();
    /* analysed where it is read, in the child that checks it: bcwalk
     * reads the file once, and never in its own process */
    char *data;
    size_t len;
    int err = bcw__bitcode_in_child(path, analyze_to_bytes, &data, &len);
    if (err == 0)
        err = bcw__model_from_bytes(out, data, len, path);
    free(data);
    return err;
}

int bcw__model_analyze_module(bcw_model **out, LLVMModuleRef mod)
{
    bcw__error_clear();
    size_t len;
    const char *name = LLVMGetModuleIdentifier(mod, &len);
    /* a copy: the analysis simplifies, and the module is the caller's */
    bcw_bitcode bc = {LLVMGetModuleContext(mod), LLVMCloneModule(mod)};
    int err = analyze_module(out, &bc, name);
    LLVMDisposeModule(bc.mod);
    return err;
}
