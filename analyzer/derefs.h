/* derefs.h - the pointer fields of a parameter a function follows
 * without checking them for NULL (derefs.c). */
#ifndef BCW_DEREFS_H
#define BCW_DEREFS_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdint.h>

#include "model.h"

/* The pointer fields of what parameter k of fn points to that fn loads,
 * before it sets them itself, and then follows (a load or store through the
 * value, or a module function given it that does) where no load of that field
 * is compared with NULL: bit i for the pointer at byte 8 * i (i < 64).  0 for a
 * declaration. */
BCW_INTERNAL uint64_t bcw__derefs_unchecked(LLVMTargetDataRef td,
                                            LLVMValueRef fn, unsigned k);

/* The pointer fields of what parameter k of fn points to that fn leaves
 * NULL or unset: all but those it stores something else than NULL into
 * (an iterator's init leaving its current entry for next to set); bits
 * as bcw__derefs_unchecked's. */
BCW_INTERNAL uint64_t bcw__derefs_nulled(LLVMTargetDataRef td, LLVMValueRef fn,
                                         unsigned k);

/* The pointer fields of what parameter k of fn points to that fn
 * follows, before it sets them itself, checked for NULL or not; bits as
 * bcw__derefs_unchecked's. */
BCW_INTERNAL uint64_t bcw__derefs_followed(LLVMTargetDataRef td,
                                           LLVMValueRef fn, unsigned k);

/* The pointer fields of what parameter k of fn points to that fn sets to
 * a "none" marker of the library's: a value read from a field the module
 * compares pointers with (a tree's sentinel, `it->current =
 * t->sentinel`); bits as bcw__derefs_unchecked's. */
BCW_INTERNAL uint64_t bcw__derefs_sentinelled(LLVMTargetDataRef td,
                                              LLVMValueRef fn, unsigned k);

#endif
