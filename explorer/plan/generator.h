/* generator.h - custom generators on bcwalk's side: the user's file
 * (include/bcwalk/generator.h) built and loaded, which parameters it
 * takes, the plan's part for the workers, and the replay for reports. */
#ifndef BCW_EXPLORER_GENERATOR_H
#define BCW_EXPLORER_GENERATOR_H

#include "model.h"
#include "proto.h"
#include "step.h"
#include "values.h"

typedef struct bcw_usergen bcw_usergen;

/* Builds (a .c or .bc file: clang -shared -fPIC -O1, cached by content
 * under the cache root's generators/ folder) or takes (a .so) the
 * generator `file`, loads it into this process and asks its handles()
 * about every parameter of every function of `u`.  *out is the caller's,
 * freed with bcw__generator_free.  Fails with BCW_EINPUT for a missing
 * file, an unknown extension, a file without a generator or of another
 * version; with BCW_ERROR naming the compiler's first error line and its
 * log when the build fails. */
BCW_INTERNAL int bcw__generator_open(bcw_usergen **out, const char *file,
                                     const bcw_unit *u, const char *cache_dir);

/* Does the generator make parameter k of unit function `func`?  false
 * for a NULL generator. */
BCW_INTERNAL bool bcw__generator_takes(const bcw_usergen *g, unsigned func,
                                       unsigned k);

/* Writes the generator's part of the plan (bcw_plan's gen and funcs):
 * its path, and for each step's parameter it takes BCW_FIXED_CUSTOM and
 * its names.  Nothing for a NULL generator.  Fails with BCW_EINPUT if
 * the names do not fit. */
BCW_INTERNAL int bcw__generator_plan(const bcw_usergen *g, bcw_wire_gen *w,
                                     bcw_wire_func *funcs, const bcw_unit *u,
                                     const bcw_step *steps, unsigned nsteps);

/* Starts replaying a sequence: the generator's reset().  NULL accepted. */
BCW_INTERNAL void bcw__generator_reset(const bcw_usergen *g);

/* Replays the draw of parameter k of `f` as the worker made it (the
 * generator's value, or the master's when it delegates): raw bits as
 * bcw_gen_next gives them, and for strings *str (see custom.h). */
BCW_INTERNAL uint64_t bcw__generator_next(const bcw_usergen *g,
                                          const bcw_func *f, unsigned k,
                                          bcw_gen *master, const char **str);

/* Unloads and frees; NULL accepted. */
BCW_INTERNAL void bcw__generator_free(bcw_usergen *g);

#endif
