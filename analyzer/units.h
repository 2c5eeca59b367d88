/* units.h - unit discovery: struct types with their constructors,
 * methods and destructors, and each parameter's kind. */
#ifndef BCW_UNITS_H
#define BCW_UNITS_H

#include "bitcode.h"
#include "effects.h"
#include "model.h"

/* Fills model->units (and its symbols and skipped API) from bc's
 * simplified module.  0, BCW_EINPUT for a module with no unit (the
 * message lists the structs and functions seen), or BCW_ENOMEM. */
BCW_INTERNAL int bcw__units_find(bcw_model *model, bcw_bitcode *bc,
                                 const bcw_effects *fx);

#endif
