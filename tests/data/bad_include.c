/* bad_include.c - an analyzer file reaching into the explorer: the
 * build must refuse it (ctest test_layering_build). */
#include "model.h"
#include "walk.h"
