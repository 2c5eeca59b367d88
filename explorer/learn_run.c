/* learn_run.c - bcwalk learn (bcwalk/learn.h): the test program traced
 * (learn/trace_run.c), the unit's model learned from it (learn/learn.c),
 * and what the options ask for written (learn/learn_out.c). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bcwalk/learn.h"
#include "file.h"
#include "learn.h"
#include "report.h"

/* The graph's DOT, and its SVG, into their files. */
static int write_graph(const bcw_learned *l, const bcw_learn_opts *o)
{
    char *dot = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&dot, &len);
    if (f == NULL)
        return BCW_ENOMEM;
    int err = bcw__learned_dot(l, f);
    if (fclose(f) != 0 && err == 0)
        err = BCW_ENOMEM;
    if (err == 0 && o->dot_path != NULL)
        err = bcw__write_file_atomic(o->dot_path, dot, len);
    char *svg = NULL;
    if (err == 0 && o->svg_path != NULL &&
        (err = bcw__svg_of_dot(dot, len, &svg)) == 0)
        err = bcw__write_file_atomic(o->svg_path, svg, strlen(svg));
    free(svg);
    free(dot);
    return err;
}

int bcw_learn_run(const bcw_model *model, const bcw_learn_opts *opts)
{
    if (opts->unit >= model->nunits)
        return bcw__error(BCW_EINPUT, "no unit %u in the model", opts->unit);
    bcw_trace_opts to = {.libs = opts->libs,
                         .limit = opts->max_calls,
                         .per_site = opts->per_site,
                         .time_s = opts->time_limit_s,
                         .memory_mb = opts->memory_mb,
                         .keep = opts->keep_dir};
    bcw_trace t;
    /* one file: the library built with its tests */
    const char *lib =
        strcmp(opts->tests, opts->bitcode) == 0 ? NULL : opts->bitcode;
    int err = bcw__trace_run(&t, model, opts->tests, lib, &to);
    if (err < 0)
        return err;
    bcw_learned l;
    err = bcw__learn(&l, model, opts->unit, &t, opts->k_strict, opts->k_loose);
    bcw__trace_free(&t);
    if (err == 0 && opts->out_path != NULL)
        err = bcw__learned_save(&l, opts->out_path);
    if (err == 0 && (opts->dot_path != NULL || opts->svg_path != NULL))
        err = write_graph(&l, opts);
    if (err == 0 && opts->report != NULL)
        err = opts->format == BCW_LEARN_JSON
                  ? bcw__learned_json(&l, opts->report)
                  : bcw__learned_text(&l, opts->report);
    bcw__learned_free(&l);
    return err;
}
