/* trace_run.c - a library's test program traced (trace.h): linked and
 * instrumented (trace_link.c), built with clang against the tracer
 * runtime (explorer/runtime/tr_trace.c) in a folder of its own, run
 * (trace_exec.c), and the folder cleaned up. */
#define _GNU_SOURCE
#include "trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "build.h"
#include "file.h"
#include "trace_exec.h"
#include "trace_link.h"

/* Builds program `prog` with clang from the instrumented bitcode `bc`,
 * the tracer runtime `runtime` and the libraries opts->libs names; clang's
 * output into `log`.  0, 1 if clang failed, or a negative error if it
 * could not be run. */
static int build(const char *prog, const char *bc, const char *runtime,
                 const char *log, const bcw_trace_opts *opts)
{
    const char *argv[64];
    size_t k = 0;
    argv[k++] = BCW_CLANG;
    argv[k++] = "-O1";
    argv[k++] = "-no-pie";
    argv[k++] = "-w";
#if BCW_LLVM_MAJOR < 15
    argv[k++] = "-mllvm";
    argv[k++] = "-opaque-pointers";
#endif
#ifdef BCW_SANITIZE_WORKERS
    argv[k++] = "-fsanitize=address,undefined"; /* the runtime's */
#endif
    argv[k++] = bc;
    argv[k++] = runtime;
    char libs[1024] = "", *save = NULL;
    if (opts->libs != NULL)
        snprintf(libs, sizeof libs, "%s", opts->libs);
    char flags[24][64];
    unsigned nf = 0;
    for (char *l = strtok_r(libs, ",", &save); l != NULL && nf < 24;
         l = strtok_r(NULL, ",", &save)) {
        snprintf(flags[nf], sizeof flags[nf], "-l%s", l);
        argv[k++] = flags[nf++];
    }
    argv[k++] = "-lm";
    argv[k++] = "-o";
    argv[k++] = prog;
    argv[k] = NULL;
    return bcw__build_clang(argv, log);
}

int bcw__trace_run(bcw_trace *out, const bcw_model *model, const char *tests,
                   const char *lib, const bcw_trace_opts *opts)
{
    memset(out, 0, sizeof *out);
    char *runtime = NULL, *dir = NULL, *bc = NULL, *prog = NULL, *log = NULL;
    bool failed_build = false; /* its folder stays: the message names
                                  the log */
    int err = bcw__install_path(&runtime, BCW_TRACE_RT_REL);
    if (err < 0)
        return err;
    char tmpl[4096];
    if (opts->keep != NULL) {
        if ((err = bcw__mkdir_p(opts->keep)) < 0)
            goto done;
        dir = bcw__strdup(opts->keep);
    } else {
        snprintf(tmpl, sizeof tmpl, "%s/bcwalk-learn.XXXXXX", bcw__tmp_dir());
        if (mkdtemp(tmpl) == NULL) {
            err =
                bcw__error(BCW_ERROR, "mkdtemp %s: %s", tmpl, strerror(errno));
            goto done;
        }
        dir = bcw__strdup(tmpl);
    }
    if (dir == NULL || (bc = bcw__sprintf("%s/traced.bc", dir)) == NULL ||
        (prog = bcw__sprintf("%s/traced", dir)) == NULL ||
        (log = bcw__sprintf("%s/clang.log", dir)) == NULL) {
        err = BCW_ENOMEM;
        goto done;
    }
    if ((err = bcw__trace_link(out, model, tests, lib, bc)) < 0)
        goto done;
    int rc = build(prog, bc, runtime, log, opts);
    if (rc < 0) {
        err = rc;
        goto done;
    }
    if (rc > 0) {
        err = bcw__build_failed_hint(
            tests, "building the traced test program",
            "link the test program's own files into TESTS.bc with llvm-link, "
            "and name the libraries it uses with --lib (cmocka)",
            log);
        failed_build = true;
        goto done;
    }
    err = bcw__trace_exec(out, prog, dir, opts);
done:
    if (dir != NULL && opts->keep == NULL && !failed_build) {
        unlink(bc);
        unlink(prog);
        char *rec = bcw__sprintf("%s/records", dir);
        if (rec != NULL)
            unlink(rec);
        free(rec);
        unlink(log);
        rmdir(dir);
    }
    free(runtime);
    free(dir);
    free(bc);
    free(prog);
    free(log);
    if (err < 0)
        bcw__trace_free(out);
    return err;
}

void bcw__trace_free(bcw_trace *t)
{
    for (unsigned i = 0; i < t->nsites; i++) {
        bcw_trace_site *s = &t->sites[i];
        free(s->fn);
        free(s->caller);
        free(s->file);
        for (unsigned j = 0; j < TR_MAX_ARGS; j++)
            free(s->named[j]);
    }
    free(t->sites);
    for (unsigned i = 0; i < t->ntests; i++) {
        bcw_trace_test *x = &t->tests[i];
        free(x->name);
        free(x->message);
        for (unsigned j = 0; j < x->ncalls; j++)
            for (unsigned a = 0; a < TR_MAX_ARGS; a++)
                free(x->calls[j].strs[a]);
        free(x->calls);
    }
    free(t->tests);
    bcw__strv_free(t->found, t->nfound);
    free(t->how);
    memset(t, 0, sizeof *t);
}
