/* roles.h - which unit a function belongs to and its role there, by the
 * structs its slots name, by its name, and by what it frees. */
#ifndef BCW_ROLES_H
#define BCW_ROLES_H

#include <stddef.h>

#include "finder.h"
#include "model.h"
#include "sig.h"

/* Does `s` construct a unit?  Returns the unit's name and *slot, the
 * slot that holds the new unit (0 the result, i parameter i), or NULL.
 * The name is borrowed from s, or written into buf (n bytes) when the
 * function's name prefix names the unit. */
BCW_INTERNAL const char *bcw__roles_constructs(const bcw_sig *s, unsigned *slot,
                                               char *buf, size_t n);

/* Is slot i of `s` a T **out it fills with a new T made from what the
 * slots before it give: t_new_conf(const conf *c, T **out), named as a
 * constructor before its last word, the cell only written? */
BCW_INTERNAL bool bcw__roles_makes_from(const bcw_sig *s, unsigned i);

/* Does `s` take a pointer to a struct (other than a T **out)? */
BCW_INTERNAL bool bcw__roles_takes_struct(const bcw_sig *s);

/* The unit of `s` among the units found so far, or -1, and *role, the
 * role its name and signature say; *self is the parameter that is the
 * unit (-1 for constructors), *out a constructor's T **out parameter
 * (else -1).  An observer here may become a mutator by its effects
 * (funcs.c). */
BCW_INTERNAL int bcw__roles_of(const bcw_finder *f, const bcw_sig *s,
                               enum bcw_role *role, int *self, int *out);

/* For each unit in its caller's storage (made by an init function):
 * its mutators that release memory the unit reaches, allocate none and
 * store nothing but constants into it (vring_destroy freeing what
 * vring_init acquired; not a pop linking the next node in) are its
 * destructors, when it has none, or those named as destructors when it
 * has (of its heap form); then each destructor's teardown (what it
 * frees).  No later step takes the instance. */
BCW_INTERNAL void bcw__roles_release_inits(bcw_finder *f);

/* Marks the functions taking a reference to their unit (bcw_func's
 * retains): returning the unit they are given, they count up the field
 * the unit's destructor counts down (json_object_get, json_object_put). */
BCW_INTERNAL void bcw__roles_retains(bcw_finder *f);

#endif
