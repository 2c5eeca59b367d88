/* rt_halt.h - how a sequence ends early: the interposed abort, assert,
 * exit and contract failures of the code under test, and fatal signals.
 *
 * bcwalk renames abort(), __assert_fail(), exit() (_exit, _Exit and
 * quick_exit too) and contract.h's bcw_contract_fail in the unit's
 * bitcode to the functions below, so they end only the sequence: a siglongjmp
 * back to the sequence runner (rt_seq.c), no signal at all.  Fatal signals are
 * different: memory may be corrupt, so the handler records the outcome in
 * shared memory and the worker exits (BCW_EXIT_FAULT) for the parent to
 * replace.
 *
 * A sequence's result and cause are the worker's own memory while it
 * runs; bcw_rt_publish() writes them into the batch with their check
 * word when it ends, however it ends. */
#ifndef BCW_RT_HALT_H
#define BCW_RT_HALT_H

#include <setjmp.h>
#include <stdint.h>

#include "proto.h"

/* The sequence in flight, as a halt sees it: where to jump back to and
 * what to record.  Part of the worker's state (rt_worker.h); the sequence
 * runner arms it and keeps `call` and `calls` current. */
typedef struct bcw_rt_flight {
    sigjmp_buf env;     /* back into the sequence runner */
    volatile int armed; /* a sequence is in flight: a halt jumps to env */
    volatile enum bcw_outcome outcome; /* how it halted, for the runner */
    volatile int signo;
    uint32_t seq;           /* the sequence in flight: the batch's index */
    uint32_t call;          /* the call in flight: 0 the constructor */
    uint32_t calls;         /* calls made so far in the sequence */
    uint64_t nonce;         /* the batch's, as the parent gave it */
    uint32_t slot;          /* and its results' slot (proto.h) */
    bcw_wire_result result; /* the sequence's result so far */
    bcw_wire_cause cause;   /* and its cause (result.flags) */
    /* Set while an interface predicate runs: a halt in it jumps to
     * pred_env, leaving the predicate unknown instead of ending the
     * sequence. */
    sigjmp_buf pred_env;
    volatile int in_pred;
} bcw_rt_flight;

/* Says where a faulting address is, into a cause (rt_alloc.c's
 * bcw_rt_alloc_where). */
typedef void (*bcw_rt_placer)(uintptr_t addr, bcw_wire_cause *c);

/* Installs the handlers of fatal signals (on their own stack, so a stack
 * overflow in the code under test is still recorded) and remembers where
 * the halts find the sequence in flight and the shared results, and what
 * places a faulting address.  All must outlive the worker.  Called once,
 * at set-up. */
void bcw_rt_halt_setup(bcw_rt_flight *flight, bcw_batch *batch,
                       bcw_rt_placer place);

/* Writes the result (and cause) of the sequence in flight into the
 * batch, results[flight->seq], with its check word, and names it again
 * as the sequence in flight (the code under test may have written over
 * cur).  With an exit status (not 0), the worker exits next with it, and
 * the result goes down the status pipe too (BCW_MSG_LAST), out of reach
 * of what the code under test left running. */
void bcw_rt_publish(int exit_status);

/* The unit's coverage flags (explorer/build/coverage.h), 0 in a build without
 * them; the flags set so far into the batch's coverage bytes
 * (bcw_batch_cov), where the parent takes them; and the flags cleared,
 * for the next run.  bcw_rt_publish with an exit status takes them
 * too. */
uint32_t bcw_rt_cov_count(void);
void bcw_rt_cov_flush(void);
void bcw_rt_cov_clear(void);

/* Ends the sequence in flight with `outcome` (never returns): a jump
 * back to the sequence runner, or to the interface predicate running.
 * Outside a sequence the worker exits with BCW_EXIT_SETUP.  Called by the
 * interposed functions below, by the allocator when the code under test
 * frees memory twice, and by the runtime for an argument it cannot make
 * or memory it ran out of. */
void bcw_rt_halt(enum bcw_outcome outcome, int signo) __attribute__((noreturn));

/* Records the outcome for the call in flight, as a fatal signal is, and
 * ends the worker (BCW_EXIT_FAULT): its heap cannot be trusted.  The
 * parent's BCW_HANG_SIGNAL ends it so too, with a hang. */
void bcw_rt_halt_fatal(enum bcw_outcome outcome, int signo)
    __attribute__((noreturn));

/* Set in a process the code under test forked (rt_contain.c): its halts
 * and its return into the runtime end it, they record nothing. */
extern int bcw_rt_in_child;

/* Called first thing in a new worker: the process whose fatal signals
 * and hangs are recorded, not one the code under test forked past the
 * interposed fork (a raw system call), which just exits; and its CPU
 * time limit in seconds, which a hang's cause names. */
void bcw_rt_halt_worker(uint32_t cpu_s);

/* Starts the cause of the halt under way (proto.h's bcw_wire_cause):
 * the sequence in flight's slot, flagged in its result, cleared and of
 * kind `kind`; outside a sequence a spare one. */
bcw_wire_cause *bcw_rt_cause(enum bcw_cause_kind kind);

/* The sequence's call in flight (0 the constructor), 0 outside one. */
uint32_t bcw_rt_halt_call(void);

/* The interposed functions the unit's calls are renamed to (its own
 * abort, __assert_fail, exit and bcw_contract_fail). */
void bcw_rt_abort(void) __attribute__((noreturn));
void bcw_rt_assert_fail(const char *expr, const char *file, unsigned line,
                        const char *fn) __attribute__((noreturn));
void bcw_rt_contract_fail(int kind, const char *expr, const char *file,
                          int line) __attribute__((noreturn));
void bcw_rt_exit(int status) __attribute__((noreturn));

#endif
