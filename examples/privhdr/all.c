/* all.c - the text queue's library in one translation unit, as a
 * unity build makes it: each function keeps the file it is defined in
 * (tq.c, tq_buf.c), whose header bcwalk reads.  api/tq.h is the public
 * header, in a folder of its own; tq_buf.h, beside its source, is the
 * library's own, so tq_buf's functions are internal and tq_buf is no
 * unit (tests/e2e/roles.py). */
#include "tq_buf.c"
#include "tq.c"
