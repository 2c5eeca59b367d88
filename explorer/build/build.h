/* build.h - native code of the unit under test: a worker executable
 * built from the bitcode with the system clang, cached by content. */
#ifndef BCW_BUILD_H
#define BCW_BUILD_H

#include "coverage.h"
#include "model.h"
#include "native.h"
#include "symbolize.h"

/* What a worker build takes of the walk's settings. */
typedef struct bcw_build_opts {
    const char *setup;     /* a function of the library taking no
                              arguments the workers call first, or NULL */
    unsigned sanitize;     /* BCW_SANITIZE_* bits (sanitize.h) */
    const char *cache_dir; /* the cache root, NULL: the default */
} bcw_build_opts;

/* Finds or builds the worker executable for `bitcode` (analysed as
 * `model`), whose workers call function o->setup (or nothing, if NULL)
 * before any sequence, with the checks o->sanitize asks for
 * (BCW_SANITIZE_*: sanitize.h, and AddressSanitizer's runtime linked).
 * The cache lives in o->cache_dir, or
 * $XDG_CACHE_HOME/bcwalk, or ~/.cache/bcwalk, keyed by a hash of the
 * bitcode, the setup function's name, the checks, the runtime, bcwalk
 * itself and the compiler, so an unchanged unit is never rebuilt.  An
 * entry holds the worker, its note, and a checksum of both (bcw__hash,
 * as 16 hex digits); one that does not match it (a worker truncated,
 * changed or not executable, a note changed) is built again and
 * replaced.  *out is a new path, the caller's (free()).  When clang
 * crashes optimising the unit (LLVM 14's LoopLoadElimination on some
 * bitcode), the worker is built without optimisation, and *note (else
 * NULL) says so, for this build and every later use of it; the
 * caller's.  A failed compile or link gives BCW_ERROR naming clang's
 * first error line, or its crash, and the log file; a setup function
 * that cannot be one, BCW_EINPUT
 * (bcw__native_instrument).  With `cov` (else NULL) the worker sets
 * coverage flags, a build of its own, whose entry keeps their map too,
 * and *cov is that map. */
BCW_INTERNAL int bcw__build_worker(char **out, char **note, bcw_cov_map *cov,
                                   const bcw_model *model, const char *bitcode,
                                   const bcw_build_opts *o);

/* Runs clang with `argv` (argv[0] its path), its stderr into the file
 * `log`.  Returns 0 if it exited 0, 1 if it failed, or a negative error
 * if it could not be run. */
BCW_INTERNAL int bcw__build_clang(const char *const argv[], const char *log);

/* Records "FILE: DOING failed: <clang's first error line> (full log: LOG)",
 * or "... failed: clang crashed in <its pass> (full log: LOG)", and
 * returns BCW_ERROR. */
BCW_INTERNAL int bcw__build_failed(const char *file, const char *doing,
                                   const char *log);
/* ... with `hint` saying what to do about functions no file defines. */
BCW_INTERNAL int bcw__build_failed_hint(const char *file, const char *doing,
                                        const char *hint, const char *log);

#endif
