/* tracer.h - between `bcwalk learn` (explorer/learn/) and the tracer
 * runtime it links into a test program (explorer/runtime/tr_trace.c):
 * the hooks the instrumented program calls, how an argument is recorded,
 * how the program ended.  The record format is in tr_trace.c's comment
 * and docs/learn.md. */
#ifndef BCW_WIRE_TRACER_H
#define BCW_WIRE_TRACER_H

#include <stdint.h>

#define TR_MAX_ARGS 16        /* arguments of a traced call recorded, at most */
#define TR_STRING 64          /* bytes of a string argument recorded, at most */
#define TR_STRING_CUT 0x8000u /* in a string's length: it went on */
#define TR_EXIT_HALT 86       /* the exit status of a program a halt ended */

/* How a traced call's argument is recorded (the low 4 bits of its kind
 * byte; an out-parameter's size in bytes is the high 4). */
enum tr_arg {
    TR_ARG_WORD,   /* the raw word: an integer, float bits, an address */
    TR_ARG_STRING, /* a C string: its bytes */
    TR_ARG_OUT     /* the word, and after the call what it points to */
};

/* How the program ended in a test ('H' record). */
enum tr_halt {
    TR_HALT_SIGNAL = 1, /* a fatal signal: code */
    TR_HALT_ABORT,      /* abort() */
    TR_HALT_ASSERT,     /* assert: the message */
    TR_HALT_EXIT,       /* exit(code) in a test or a library call */
    TR_HALT_HANG,       /* the test's time limit */
    TR_HALT_NEST,       /* calls nested deeper than the tracer follows */
    TR_HALT_UNKNOWN     /* the record saying how was lost (not sent) */
};

/* The number of call sites the instrumenter numbered (a constant of the
 * instrumented program). */
extern const uint32_t bcw_tr_nsites;

/* The hooks (instrumented calls; test ids and sites are the
 * instrumenter's numbers). */
/* 1: skip the test (return at once); slot: the address of the test
 * function's return address (where the stack was when it was called) */
int bcw_tr_begin(uint32_t test, void *slot);
void bcw_tr_end(uint32_t test);
void bcw_tr_enter(uint32_t site, uint32_t n, const uint64_t *words,
                  const uint8_t *kinds);
void bcw_tr_leave(uint32_t site, uint64_t result);
void bcw_tr_abort(void);
void bcw_tr_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *fn);
void bcw_tr_exit(int status);  /* exit, quick_exit */
void bcw_tr__exit(int status); /* _exit, _Exit */

#endif
