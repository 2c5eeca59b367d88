/* reinit.h - a unit's other initialisers, found by what they do
 * (reinit.c). */
#ifndef BCW_REINIT_H
#define BCW_REINIT_H

#include "finder.h"

/* Every unit with an initialiser and a destructor: its mutators that
 * fill the whole storage afresh become initialisers too. */
BCW_INTERNAL void bcw__reinit_find(bcw_finder *f);

#endif
