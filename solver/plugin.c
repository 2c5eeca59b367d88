/* plugin.c - what the opt pass does (plugin.h); the C++ in plugin.cpp
 * only registers it. */
#define _POSIX_C_SOURCE 200809L
#include "plugin.h"

#include <stdio.h>
#include <stdlib.h>

#include "analyze.h"
#include "bcwalk/solver.h"
#include "file.h"
#include "model.h"

int bcw__plugin_run(LLVMModuleRef mod)
{
    bcw_model *model = NULL;
    /* the command's model: analysed, then partitioned */
    if (bcw__model_analyze_module(&model, mod) < 0 ||
        bcw_model_partition(model) < 0) {
        fprintf(stderr, "bcwalk-analyze: %s\n", bcw_error_last());
        bcw_model_free(model);
        return -1;
    }
    const char *path = getenv("BCWALK_MODEL");
    int err = 0;
    if (path == NULL || path[0] == '\0') {
        err = bcw_model_write(model, -1, BCW_MODEL_JSON, stdout);
    } else {
        char *data = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&data, &len);
        err = mem ? bcw_model_write(model, -1, BCW_MODEL_JSON, mem) : -1;
        if (mem != NULL)
            fclose(mem);
        if (err == 0)
            err = bcw__write_file_atomic(path, data, len);
        free(data);
    }
    if (err < 0)
        fprintf(stderr, "bcwalk-analyze: %s\n", bcw_error_last());
    bcw_model_free(model);
    return err < 0 ? -1 : 0;
}
