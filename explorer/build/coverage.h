/* coverage.h - line, branch and function coverage of the code under test
 * (explore --coverage, docs/coverage.md).
 *
 * bcwalk compiles a flag, one byte, into the unit's bitcode for every
 * basic block of every function the module defines, and one for every
 * arm of every conditional branch and switch (cover_pass.c): the block's
 * first instruction stores 1 into its flag, a branch stores 1 into the
 * flag of the arm it takes.  The map says what each flag means: the
 * source lines of its block (the debug information's), the function it
 * is in, the branch arm it is.  The worker hands the flags its runs set
 * to the parent, which keeps for each flag the shortest sequence length
 * that set it (the hits), so that the summary can say how coverage grew
 * with the walk's depth. */
#ifndef BCW_COVERAGE_H
#define BCW_COVERAGE_H

#include <msgpack.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "errors.h"
#include "model.h"
#include "unpack.h"

typedef struct bcw_cov_fn {
    char *name;
    uint32_t file, line; /* where it is defined: files[file], 0: unknown */
    uint32_t flag;       /* its entry block's */
    bool unit;           /* the walk can reach it (bcw__cov_scope) */
} bcw_cov_fn;

/* Line `line` of files[file] has code in the block of `flag`. */
typedef struct bcw_cov_line {
    uint32_t file, line, flag, fn;
} bcw_cov_line;

/* Arm `arm` of conditional `group` (numbered per function, in the
 * order of the code) at line `line`, column `col`: a branch's two arms
 * (0 where the IR's condition holds, 1 where not), a switch's cases in
 * order (`value` each) then its default.  An arm is named by where it
 * goes, `to_line`:`to_col` (0 when no code there has a line): which arm
 * of the IR is the source's "true" is lost, since clang branches on
 * `x` with the arms swapped for `!x`.  `block` is the flag of the block
 * the conditional ends: not set, the arm was not reached (lcov's "-"),
 * set and the arm's not, it was not taken. */
enum bcw_cov_arm { BCW_ARM_BRANCH, BCW_ARM_CASE, BCW_ARM_DEFAULT };

typedef struct bcw_cov_branch {
    uint32_t fn, file, line, block, flag;
    uint32_t group, arm;
    uint32_t kind; /* enum bcw_cov_arm */
    int64_t value; /* BCW_ARM_CASE's */
    uint32_t col, to_line, to_col;
} bcw_cov_branch;

/* A switch of more cases has no flags for its arms (a chain of as many
 * compares would slow every execution of it). */
#define BCW_COV_MAX_CASES 64

typedef struct bcw_cov_map {
    uint32_t nflags;
    uint32_t nfiles, nfns, nlines, nbranches;
    char **files;
    bcw_cov_fn *fns;
    bcw_cov_line *lines;       /* by file, line, flag */
    bcw_cov_branch *branches;  /* by file, line, group, arm */
    uint32_t switches_skipped; /* switches with too many cases for arms */
    /* The functions each refers to (calls, or takes the address of,
     * itself or through constants and globals' initializers): fns[i]'s
     * are refs[refs_at[i] .. refs_at[i + 1] - 1], indexes of fns. */
    uint32_t *refs_at, *refs;
    uint32_t nrefs;
} bcw_cov_map;

/* The unit's code (bcw_cov_fn.unit): the functions named `roots` (the
 * walk's, its plan's symbols) and every function they refer to, directly
 * or through each other. */
BCW_INTERNAL void bcw__cov_scope(bcw_cov_map *map, const char *const *roots,
                                 unsigned nroots);

/* The hits: per flag the shortest length (methods after the
 * constructor) of a sequence that set it, plus 1; 0: never set. */
#define BCW_COV_NEVER 0
#define BCW_COV_LEN_MAX 254 /* longer lengths are kept as this */

static inline uint8_t bcw_cov_at(unsigned len)
{
    return (uint8_t)(len < BCW_COV_LEN_MAX ? len + 1 : BCW_COV_LEN_MAX + 1);
}

/* Each flag set in `set` (n bytes), its hit made at most length `len`;
 * `set` is cleared. */
BCW_INTERNAL void bcw__cov_take(uint8_t *hits, uint8_t *set, uint32_t n,
                                unsigned len);

/* Each hit of `other` into `hits`, the shorter length kept. */
BCW_INTERNAL void bcw__cov_merge(uint8_t *hits, const uint8_t *other,
                                 uint32_t n);

BCW_INTERNAL void bcw__cov_map_free(bcw_cov_map *map);

/* The map as one msgpack map, and read back from o into *map (zeroed);
 * BCW_EINPUT through r for a map that is not one. */
BCW_INTERNAL void bcw__cov_map_pack(msgpack_packer *pk, const bcw_cov_map *map);
BCW_INTERNAL int bcw__cov_map_read(bcw_rd *r, const msgpack_object *o,
                                   bcw_cov_map *map);

/* The hits as a msgpack bin of map->nflags bytes, and read back into
 * *hits (the caller's). */
BCW_INTERNAL void bcw__cov_hits_pack(msgpack_packer *pk, const uint8_t *hits,
                                     uint32_t n);
BCW_INTERNAL int bcw__cov_hits_read(bcw_rd *r, const msgpack_object *o,
                                    uint32_t n, uint8_t **hits);

/* The map in a sealed file of its own (the worker cache keeps one with
 * each worker built for coverage), written atomically, and read back. */
BCW_INTERNAL int bcw__cov_map_save(const bcw_cov_map *map, const char *path);
BCW_INTERNAL int bcw__cov_map_load(bcw_cov_map *map, const char *path);

#endif
