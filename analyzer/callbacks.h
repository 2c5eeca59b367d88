/* callbacks.h - what each callback parameter means (its kind) and the
 * module functions it can be given. */
#ifndef BCW_CALLBACKS_H
#define BCW_CALLBACKS_H

#include "finder.h"

/* The kind of callback parameter p of function `fn` (NULL: a field's),
 * the built-in closure that means what it says: the last word of its
 * name, else of its C type (a typedef), else of the function's name (a
 * setter: csv_set_free_func(p, f)), that names a kind its signature
 * allows (HashTableEqualFunc: equal), else the signature's: void
 * visits; an integer over two elements compares if signed, else
 * matches; over one hashes if unsigned and 32 bits or wider, else
 * tests; other shapes return 0. */
BCW_INTERNAL enum bcw_callback bcw__callbacks_kind(const bcw_param *p,
                                                   const char *fn);

/* For every callback parameter of every unit's functions, up to a few
 * module functions of its C type (typedefs resolved) whose names tell no
 * other kind, and none that frees, become its conditions (their `value`
 * the function's name) and symbols.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__callbacks_find(bcw_finder *f);

#endif
