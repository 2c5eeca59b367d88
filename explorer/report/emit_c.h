/* emit_c.h - a walk's sequences as C files of cmocka tests (bcwalk
 * report --emit-c; docs/reports.md): each sequence replayed by plain
 * calls, asserting what the walk observed, a call that halted expected
 * to halt in a child process; a chosen set of them unless all are asked
 * for (--emit-c-all). */
#ifndef BCW_EMIT_C_H
#define BCW_EMIT_C_H

#include "report.h"

typedef struct bcw_emit_c bcw_emit_c;

/* How a halt looks in a native run of its calls. */
enum bcw_expect {
    EXPECT_SIGNAL,    /* the same fatal signal (a bad address, the stack) */
    EXPECT_ABORT,     /* SIGABRT: abort, a failed assert or contract */
    EXPECT_EXIT,      /* exit with the same status */
    EXPECT_HANG,      /* still running when its time is up */
    EXPECT_CHECKED,   /* in or past a heap block: a checker's report */
    EXPECT_INVARIANT, /* the invariant false after the call */
    EXPECT_LEAK,      /* blocks nothing reaches after the destructor */
    EXPECT_UNDEFINED, /* bcwalk's checks of undefined behaviour compiled
                         in, as the walk's --sanitize undefined did */
    EXPECT_NONE       /* nothing a native run shows */
};

/* What sequence s's halt should look like natively; *code the signal or
 * exit status; *why (for EXPECT_NONE) why a native run cannot show it. */
BCW_INTERNAL enum bcw_expect bcw__halt_expect(const bcw_seq *s, int *code,
                                              const char **why);

/* An emitter for the walk r reports, of every sequence's test when
 * `all`, else of a chosen set; 0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__emit_c_new(bcw_emit_c **out, const bcw_reporter *r,
                                 bool all);

/* The test of an executed sequence, in group number `group` (a length,
 * or a state of the state walk): kept whatever the sample when `pin` (a
 * distinct halt's shortest sequence, a state's transition, a confirmed
 * oracle entry), else one the group's sample may keep. */
BCW_INTERNAL int bcw__emit_c_seq(bcw_emit_c *e, const bcw_reporter *r,
                                 const bcw_seq *s, unsigned group, bool pin);

/* The files, written atomically: `path`, then as many more as the tests
 * need (path's stem _2.c, _3.c ...), each with the declarations, its
 * tests and a function running them by group (groups: by number, their
 * names); main() in the first.  `from` names what they were made
 * from. */
BCW_INTERNAL int bcw__emit_c_write(bcw_emit_c *e, const bcw_reporter *r,
                                   const char *from, const char *const *groups,
                                   unsigned ngroups, const char *path);

BCW_INTERNAL void bcw__emit_c_free(bcw_emit_c *e);

#endif
