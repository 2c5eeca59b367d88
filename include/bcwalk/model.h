/* model.h - the unit model: what the analyzer finds in a bitcode file. */
#ifndef BCWALK_MODEL_H
#define BCWALK_MODEL_H

#include <stdio.h>

typedef struct bcw_model bcw_model;

/* Output formats of the model (analyze --format). */
enum bcw_model_format { BCW_MODEL_TEXT, BCW_MODEL_JSON };

/* Reads the bitcode file at `path`, finds its units and classifies their
 * functions.  On success *out holds a new model, the caller's, freed with
 * bcw_model_free().  Returns BCW_EINPUT for a file that is not readable
 * bitcode and for a module with no unit (the message then lists the
 * structs and functions seen), and leaves *out NULL on any failure. */
int bcw_model_analyze(bcw_model **out, const char *path);

/* Saves `model` as a model file (msgpack, docs/model.md), atomically.
 * Returns 0 or BCW_ERROR naming the failing call. */
int bcw_model_save(const bcw_model *model, const char *path);

/* Reads a model file saved by bcw_model_save.  A file that is not a
 * model, is truncated or corrupt, or has another format version gives
 * BCW_EINPUT with a one-line message; *out is NULL then. */
int bcw_model_load(bcw_model **out, const char *path);

/* Frees a model; NULL is accepted. */
void bcw_model_free(bcw_model *model);

/* Number of units in the model. */
unsigned bcw_model_unit_count(const bcw_model *model);

/* Name of unit `i` (0-based), borrowed from the model. */
const char *bcw_model_unit_name(const bcw_model *model, unsigned i);

/* Index of the unit named `name`: the unit's name (the struct's tag,
 * "_ArrayList"), else the C type its users write ("ArrayList", or
 * "struct _ArrayList").  BCW_ENOTFOUND with a message listing the units
 * there are, or BCW_EINPUT listing the units when `name` is the type of
 * more than one. */
int bcw_model_find_unit(const bcw_model *model, const char *name);

/* Makes `function` the invariant function of the unit it belongs to (for
 * invariants not named T_invariant, T_check, T_ok or T_valid): an
 * observer taking only the unit.  Returns 0, or BCW_ENOTFOUND / BCW_EINPUT
 * with a message saying why it cannot be one. */
int bcw_model_set_invariant(bcw_model *model, const char *function);

/* Writes the model (all units, or only unit `unit` if >= 0) to `f`.
 * Returns 0, or BCW_ERROR if writing failed. */
int bcw_model_write(const bcw_model *model, int unit,
                    enum bcw_model_format format, FILE *f);

#endif
