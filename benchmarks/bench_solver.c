/* bench_solver.c - time of the solver (Z3 categories) against the
 * analysis, per module and per partitioned parameter, on bitcode files
 * named on the command line.  Used by `make bench`. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <time.h>

#include "bcwalk/error.h"
#include "bcwalk/solver.h"
#include "model.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    printf("| bitcode | analysis s | solver s | parameters with conditions | "
           "categories | relative | ms per parameter |\n"
           "|---|---:|---:|---:|---:|---:|---:|\n");
    for (int i = 1; i < argc; i++) {
        bcw_model *m = NULL;
        double t0 = now_s();
        if (bcw_model_analyze(&m, argv[i]) < 0) {
            fprintf(stderr, "bench_solver: %s\n", bcw_error_last());
            return 1;
        }
        double t1 = now_s();
        if (bcw_model_partition(m) < 0) {
            fprintf(stderr, "bench_solver: %s\n", bcw_error_last());
            bcw_model_free(m);
            return 1;
        }
        double t2 = now_s();
        unsigned params = 0, parts = 0, relative = 0;
        for (unsigned u = 0; u < m->nunits; u++)
            for (unsigned f = 0; f < m->units[u].nfuncs; f++)
                for (unsigned k = 0; k < m->units[u].funcs[f].nparams; k++) {
                    const bcw_param *p = &m->units[u].funcs[f].params[k];
                    params += p->nconds > 0;
                    parts += p->nparts;
                    for (unsigned c = 0; c < p->nparts; c++)
                        relative += p->parts[c].rel >= 0;
                }
        const char *name = argv[i];
        for (const char *s = argv[i]; *s; s++)
            if (*s == '/')
                name = s + 1;
        printf("| %s | %.3f | %.3f | %u | %u | %u | %.1f |\n", name, t1 - t0,
               t2 - t1, params, parts, relative,
               params ? (t2 - t1) * 1e3 / params : 0.0);
        bcw_model_free(m);
    }
    return 0;
}
