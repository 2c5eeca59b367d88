/* callbacks.h - the module functions each callback parameter can be
 * given. */
#ifndef BCW_CALLBACKS_H
#define BCW_CALLBACKS_H

#include "finder.h"

/* For every callback parameter of every unit's functions, up to a few
 * module functions of its C type become its conditions (their `value`
 * the function's name) and symbols.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__callbacks_find(bcw_finder *f);

#endif
