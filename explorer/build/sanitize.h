/* sanitize.h - the checks `explore --sanitize` compiles into a unit's
 * bitcode (sanitize.cpp): the part of the worker build the LLVM C API
 * cannot do (it neither reads an instruction's nsw flag nor splits a
 * basic block). */
#ifndef BCW_SANITIZE_H
#define BCW_SANITIZE_H

#include <llvm-c/Core.h>

#include "bcwalk/explore.h"
#include "proto.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Instruments every function `mod` defines: with BCW_SANITIZE_ADDRESS
 * they get AddressSanitizer's attribute (clang -fsanitize=address then
 * instruments them); with BCW_SANITIZE_UNDEFINED, before each operation
 * whose undefined behaviour proto.h's enum bcw_ub_kind lists, a check
 * that calls
 *   void bcw_rt_ub(uint32_t kind, uint64_t a, uint64_t b, uint32_t bits)
 * (bits: the operands' width) when it would happen.  Signed overflow,
 * shifts and NULL arguments are checked only in functions clang's front
 * end left as they are (-O0: optnone); returns how many functions were
 * optimised and so checked less.  Called before the worker's own
 * functions are added to the module. */
unsigned bcw__sanitize_module(LLVMModuleRef mod, unsigned sanitize);

#ifdef __cplusplus
}
#endif

#endif
