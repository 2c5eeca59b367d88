/* calls.h - a sequence's calls in words, as every report writes them:
 * their arguments as the worker made them (bcw__report_call, report.h),
 * what a call left in its out-parameters, which calls a report shows and
 * how it names them. */
#ifndef BCW_CALLS_H
#define BCW_CALLS_H

#include "report.h"

/* A result or out value in words: a returned string or a buffer's
 * content, quoted, fits (4 characters a byte at worst) */
#define BCW_VALUE_CHARS (4 * BCW_TEXT_MAX + 16)

/* The calls shown for sequence s: up to the one that halted, the
 * destructor included when it was the one. */
BCW_INTERNAL unsigned bcw__calls_shown(const bcw_seq *s);

/* Whether call k of s shows its result: a call halted by a signal, or
 * not made, has none; nor has a call of a state's cover the walk did
 * not observe. */
BCW_INTERNAL bool bcw__calls_result_shown(const bcw_seq *s, unsigned k);

/* What parameter p of a call of step st left behind (outs: the call's
 * out block) into buf (n bytes): an out-parameter's value, how often a
 * built-in callback was called ("2 calls"), or a buffer's content.
 * False if nothing. */
BCW_INTERNAL bool bcw__calls_out(const bcw_step *st, const bcw_param *pa,
                                 unsigned p, const uint64_t *outs, char *buf,
                                 size_t n);

/* The destructor's argument as the reports show it: the object ("#0"
 * with `json`, else "target"), or NULL where the halt was its call with
 * NULL (BCW_WIRE_NULLABLE_SELF).  A static string. */
BCW_INTERNAL const char *bcw__calls_dtor_arg(const bcw_seq *s, bool json);

/* The function of call c of sequence s: its constructor (0), a method
 * or the destructor (len + 1, or len + 2 called with NULL); "?" past
 * them.  Borrowed from the model. */
BCW_INTERNAL const char *bcw__calls_name(const bcw_reporter *r,
                                         const bcw_seq *s, uint32_t c);

/* What a standalone program's calls name besides the library's
 * functions: the functions passed as callbacks by name, the built-in
 * callbacks (each of one signature), and why an argument has no C
 * spelling (NULL while every one has). */
typedef struct bcw_c_names {
    bcw_strlist callbacks;
    struct bcw_c_builtin {
        int kind; /* enum bcw_callback */
        uint8_t nsig;
        uint8_t sig[BCW_MAX_PARAMS + 1];
    } * builtins;
    unsigned nbuiltins;
    size_t capbuiltins;
    const char *why;
} bcw_c_names;

/* An argument in C, nested constructors' calls and all: a string of the
 * longest length a category makes (4096), each byte escaped, fits. */
#define BCW_C_ARG_CHARS (4 * 4096 + 256)

/* The arguments of call k of seq, a call of plan step `step` (the
 * destructor's for k past seq->len), in C into args: literals, element
 * cells bcw_obj(k), buffers bcw_bytes(n, "..."), zeroed storage
 * bcw_cell(n), handles filled in storage bcw_store("name"), results of
 * earlier calls rK, other units' instances as GNU statement expressions,
 * library functions L_name (bcw__c_name), built-in callbacks bcw_cb_i
 * (c->builtins[i]).  `gen` carries the draws from call to call. */
BCW_INTERNAL void bcw__calls_args_c(const bcw_reporter *r, const bcw_seq *seq,
                                    unsigned k, unsigned step, bcw_gen *gen,
                                    bcw_c_names *c,
                                    char (*args)[BCW_C_ARG_CHARS]);

/* A library function's name as the standalone program declares it:
 * "L_" and the name, characters C does not allow as '_', then `after`,
 * into buf (n bytes).  The characters it would take. */
BCW_INTERNAL int bcw__c_name(char *buf, size_t n, const char *name,
                             const char *after);

BCW_INTERNAL void bcw__c_names_free(bcw_c_names *c);

#endif
