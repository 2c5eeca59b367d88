/* handles.h - derived handles: structs a unit's methods give out that
 * other functions take (a list's nodes). */
#ifndef BCW_HANDLES_H
#define BCW_HANDLES_H

#include "finder.h"

/* Fills each unit's handles (who gives them out, who takes them, which
 * mutators may leave them dangling) and adds their users to the unit as
 * functions taking the handle.  Runs after every function has its unit
 * and role.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__handles_find(bcw_finder *f);

#endif
