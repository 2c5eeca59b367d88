/* contracts.h - assert, guarded abort, contract.h calls and invariant
 * functions, found in the bitcode. */
#ifndef BCW_CONTRACTS_H
#define BCW_CONTRACTS_H

#include <llvm-c/Core.h>

#include "model.h"

/* Finds each method's contracts and the unit's invariant function. */
BCW_INTERNAL int bcw__contracts_analyze(bcw_unit *u, LLVMModuleRef mod);

#endif
