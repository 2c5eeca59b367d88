/* tinyq.c - the translation unit of the header-only tinyq.h, as a user
 * of such a library writes it. */
#include "tinyq.h"
