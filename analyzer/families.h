/* families.h - which objects of its unit each function works on, where
 * the unit's functions take one field to point to different structs
 * (families.c). */
#ifndef BCW_FAMILIES_H
#define BCW_FAMILIES_H

#include "finder.h"

/* Gives each function of every unit whose functions take a field to
 * point to different structs its view of that field (bcw_func's
 * `family`).  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__families_find(bcw_finder *f);

#endif
