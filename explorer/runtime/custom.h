/* custom.h - custom generators (include/bcwalk/generator.h) as both
 * sides of the worker protocol use them: the worker draws arguments with
 * them, bcwalk replays the same draws to print the arguments.  Compiled
 * into the worker runtime and into bcwalk itself, like values.c. */
#ifndef BCW_CUSTOM_H
#define BCW_CUSTOM_H

#include <stddef.h>

#include "bcwalk/generator.h"
#include "values.h"

/* Element cells a generator may name (rt_worker.h's cell table). */
#define BCW_CUSTOM_CELLS 4096

/* A loaded generator.  Zeroed: none. */
typedef struct bcw_custom {
    void *dl;                 /* dlopen handle */
    const bcw_generator *gen; /* its bcw_generator_main */
} bcw_custom;

/* Loads the shared object `so` and finds its generator.  Returns 0, or -1
 * with a message naming the problem and the file as `shown` (the user's
 * file the object was built from) in err[0..n), and *c left zeroed. */
int bcw_custom_open(bcw_custom *c, const char *so, const char *shown, char *err,
                    size_t n);

/* Unloads; a zeroed `c` is accepted. */
void bcw_custom_close(bcw_custom *c);

/* The kind name a generator is told for `kind` ("int"), or NULL for the
 * kinds bcwalk never offers (the unit, out-parameters, buffers ...). */
const char *bcw_custom_kind_name(enum bcw_pkind kind);

/* Fills *out for parameter `index` of `function`.  The strings are
 * borrowed into *out: they must outlive it.  Both sides build the
 * parameter with this, so a generator sees the same on both. */
void bcw_custom_param(bcw_gen_param *out, const char *function,
                      const char *name, const char *ctype, enum bcw_pkind kind,
                      enum bcw_abi abi, unsigned index, unsigned categories);

/* Starts a sequence: the generator's reset(), if any. */
void bcw_custom_reset(const bcw_custom *c);

/* The next value of parameter *p (kind `kind`, ABI class `abi`) from the
 * generator, or from the master `g` when it delegates: raw bits as
 * bcw_gen_next gives them.  For strings *str is set to the string to pass
 * (NULL for a NULL pointer; borrowed, valid until the next draw) and the
 * raw value is 0; for other kinds *str is left alone. */
uint64_t bcw_custom_next(const bcw_custom *c, const bcw_gen_param *p,
                         enum bcw_pkind kind, enum bcw_abi abi, bcw_gen *g,
                         const char **str);

#endif
