/* fuzz_undo_ref.c - examples/undo.c, correct, with its functions renamed
 * ref_*: the reference fuzz_undo.c links beside the build under test. */
#define undo_new ref_undo_new
#define undo_free ref_undo_free
#define undo_push ref_undo_push
#define undo_clear ref_undo_clear
#define undo_ok ref_undo_ok
#define undo_pop ref_undo_pop
#define undo_top ref_undo_top
#define undo_size ref_undo_size
#define undo_dropped ref_undo_dropped
#define undo_is_empty ref_undo_is_empty
#define undo_is_full ref_undo_is_full
#include "undo.c"
