/* symbolize.h - where an address of the worker executable is in the
 * unit's source (symbolize.cpp): LLVM's symbolizer over the worker's
 * debug info, which the native build keeps from the bitcode. */
#ifndef BCW_SYMBOLIZE_H
#define BCW_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The function, source file (its last part) and line of address `pc` in
 * the position-dependent executable `exe`, the innermost inlined frame:
 * 1 with at least the function known, else 0 (no symbol, no file, or an
 * unreadable executable), the outputs then empty; line 0 when debug info
 * has none. */
int bcw__symbolize(const char *exe, uint64_t pc, char *func, size_t nfunc,
                   char *file, size_t nfile, unsigned *line);

#ifdef __cplusplus
}
#endif

#endif
