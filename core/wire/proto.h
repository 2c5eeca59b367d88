/* proto.h - the parent/worker protocol: shared memory layout, fds and
 * messages.  Both sides include it; docs/worker-protocol.md explains it.
 *
 * The parent writes the plan (the unit's callable functions with their
 * parameter kinds), `struct bcw_shm`, into a memfd it seals against
 * writing, and gives each worker a second memfd of its own, `struct
 * bcw_batch`, for batches and results.  It starts the worker executable,
 * the fork server, with these fds:
 *   BCW_FD_SHM         the plan's memfd, mapped read-only
 *   BCW_FD_BATCH       the batch's memfd, mapped shared
 *   BCW_FD_CMD         pipe parent -> worker: 4-byte commands
 *   BCW_FD_STATUS      pipe worker -> parent: 4-byte replies
 *   BCW_FD_SRV_CMD     pipe parent -> fork server: BCW_CMD_FORK
 *   BCW_FD_SRV_STATUS  pipe fork server -> parent
 * The server maps both and closes their fds, sets up (checks the plan,
 * prepares the calls, runs the library's setup function) and answers
 * BCW_MSG_HELLO | version on BCW_FD_SRV_STATUS.  For each BCW_CMD_FORK it
 * forks a worker, a copy of itself set up, and answers the worker's pid;
 * when that worker ends, the server answers its wait status and waits
 * for the next FORK.  The worker never holds the server's descriptors.
 *
 * For each batch the parent fills `seqs`, sets `nonce`, `tail`, `nseq`,
 * `first` and `slot`, and sends BCW_CMD_RUN on BCW_FD_CMD; the worker
 * copies the batch, runs sequences first..nseq-1, writing
 * results[slot][i] and its check word (bcw_wire_check) as each ends, and
 * replies BCW_MSG_DONE.  The results of two runs one after the other go
 * to the two slots: the parent sends the next run as soon as it reads
 * DONE, and reads the results of the run before while it runs.
 * `cur` and `cur_call` name the sequence and the call in flight.
 *
 * The parent trusts nothing the code under test can write: a result
 * whose check word is wrong, or whose fields are out of range, was
 * written over, and its sequence is run again alone; a death after
 * other sequences ran in the same worker is confirmed the same way.
 * The parent's own clock decides a hang: no move of (cur, cur_call)
 * within the time limit, a move to a sequence whose predecessors'
 * results do not check counting as none, or a batch past the limit
 * times its calls.  A fatal signal in the code under test is recorded
 * in results[cur] by the worker, which then exits with BCW_EXIT_FAULT;
 * if the worker dies any other way the parent records the outcome
 * itself.  Either way the parent asks the server for a fresh worker and
 * resumes at cur + 1. */
#ifndef BCW_PROTO_H
#define BCW_PROTO_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"

#define BCW_SHM_MAGIC 0x31574342u /* "BCW1" */
/* docs/worker-protocol.md states it (tests/check_versions.py compares) */
#define BCW_PROTO_VERSION 17u

#define BCW_FD_BATCH 194
#define BCW_FD_SRV_CMD 195
#define BCW_FD_SRV_STATUS 196
#define BCW_FD_SHM 197
#define BCW_FD_CMD 198
#define BCW_FD_STATUS 199

#define BCW_CMD_RUN 0x52554e00u   /* "RUN" */
#define BCW_CMD_QUIT 0x51554954u  /* "QUIT" */
#define BCW_CMD_FORK 0x464f524bu  /* "FORK" */
#define BCW_MSG_HELLO 0x48490000u /* "HI" | version */
#define BCW_MSG_DONE 0x444f4e45u  /* "DONE" */
/* A worker's last words before it exits (BCW_EXIT_FAULT or
 * BCW_EXIT_RESTART): struct bcw_wire_last, in one write to the status
 * pipe, where nothing the code under test left running can change it. */
#define BCW_MSG_LAST 0x4c415354u /* "LAST" */
/* The signal the parent sends a worker's main thread whose call hung:
 * the worker records the hang on the call in flight and exits; one that
 * does not within BCW_HANG_GRACE_MS is killed. */
#define BCW_HANG_SIGNAL SIGXCPU
#define BCW_HANG_GRACE_MS 250

#define BCW_EXIT_FAULT 86 /* recorded a fatal signal in results[cur] */
#define BCW_EXIT_SETUP 87 /* could not start: bad plan or shm */
/* the unit's setup function (explore --setup) aborted, failed an assert
 * or exited, before HELLO; a fatal signal in it is BCW_EXIT_FAULT then */
#define BCW_EXIT_UNIT_SETUP 88
/* results[cur] is complete, but the code under test changed the
 * process's state (signal dispositions, timers, limits, threads,
 * children): a fresh worker runs the next sequence */
#define BCW_EXIT_RESTART 89

/* What confines the code under test (bcw_batch.sandbox) */
#define BCW_SANDBOX_FILES 1u /* writes only in the scratch folder */
#define BCW_SANDBOX_TCP 2u   /* no TCP connect or bind */
#define BCW_SANDBOX_SCOPED                                                     \
    4u /* no signals or abstract unix sockets to                               \
          processes outside the worker's */
#define BCW_SANDBOX_NET                                                        \
    8u                       /* a network namespace of its own: no             \
                                network at all */
#define BCW_SANDBOX_UNIX 16u /* no unix sockets (seccomp) */

#define BCW_MAX_FUNCS 256
/* The storage an init function (or an empty cell) is given: the most a
 * unit walked so may take, aligned to a page. */
#define BCW_MAX_UNIT_STORAGE (1u << 16)
/* destructors a walk's sequences end with, in turn */
#define BCW_MAX_DESTRUCTORS 8
#define BCW_MAX_BATCH 4096
#define BCW_MAX_PLAN_STRINGS 16384
/* set in a sequence's length word: hash the state before its last call
 * too, which is an observer (BCW_RESULT_OBSERVER_CHANGED) */
#define BCW_SEQ_CHECK_OBSERVER 0x8000u
/* set in a sequence's length word: its steps are followed by a count N
 * and N pins of BCW_PIN_WORDS words each, the call (0 the constructor),
 * the parameter, then a value's four 16-bit words, low first: that
 * BCW_FIXED_BOUNDS parameter of that call takes the value as it is (one
 * the oracle recorded, bcwalk test) instead of its bounds solved on the
 * object */
#define BCW_SEQ_PINNED 0x4000u
#define BCW_SEQ_LEN_MASK 0x3fffu
#define BCW_PIN_WORDS 6u
#define BCW_MAX_SEQ_WORDS (BCW_MAX_BATCH * 18)

/* How a call (and so a sequence) ended.  Classified in one place on each
 * side: rt_seq.c's run_call and pool.c's worker_died. */
enum bcw_outcome {
    BCW_RUN_NORMAL = 0, /* returned */
    BCW_RUN_CRASH,      /* fatal signal: SIGSEGV, SIGBUS, SIGFPE, SIGILL */
    BCW_RUN_ABORT,      /* abort(), a failed assert() or exit() */
    BCW_RUN_HANG,       /* no progress within the per-call time limit */
    BCW_RUN_REJECTED,   /* no object (the constructor returned NULL), or
                           a REQUIRES failed: a meaningless test */
    BCW_RUN_FAILURE     /* an ENSURES or INVARIANT failed */
};

typedef struct bcw_wire_param {
    uint8_t kind;    /* enum bcw_pkind */
    uint8_t abi;     /* enum bcw_abi */
    uint8_t pointee; /* enum bcw_abi of an out-parameter's target */
    uint8_t fixed;   /* BCW_FIXED_*: a category's value, not a generated one */
    uint32_t size;   /* bytes of scratch for OUT, SCRATCH and BUFFER */
    int64_t value;   /* the BCW_FIXED_* value */
    uint16_t bounds, nbounds;        /* BCW_FIXED_BOUNDS: pool[bounds ...] */
    int8_t pair;                     /* BUFFER: its LENGTH parameter, or -1 */
    uint8_t nsig;                    /* BCW_FIXED_CLOSURE: the callback's ABI */
    uint8_t sig[BCW_MAX_PARAMS + 1]; /* result, then parameters */
    uint8_t filled;    /* BUFFER: not const, the call may fill it: its
                          content after the call is observed */
    uint8_t entry;     /* BCW_FIXED_HANDLE: an entry of the target (a list's
                          node): passed only while the target reaches it,
                          else the call is not made (signo BCW_SIG_NO_ARG) */
    uint8_t elem_size; /* a constructor's: its value is the size of the
                          elements the unit copies (bcw_param.elem_size) */
    uint8_t taken;     /* STRING or BUFFER the library takes over
                          (bcw_param.taken): a heap block of the walk's,
                          not the arena */
    uint64_t needs;    /* BCW_FIXED_HANDLE: bit i, the handle's pointer at byte
                          8 * i must be neither NULL nor what it was when the
                          handle was given out (bcw_param.needs_set), else
                          the call is not made (signo BCW_SIG_NO_ARG) */
} bcw_wire_param;

#define BCW_FIXED_VALUE 1u
/* Bounds on the live object: LOWER/UPPER/EQUAL/UNEQUAL nodes of the plan's node
 * pool, whose operands index the pool too; the value passed is the one
 * nearest 1 within them. */
#define BCW_FIXED_BOUNDS 2u
/* A BCW_FIXED_BOUNDS parameter's value: an ordinary value inside the
 * category on the live object rather than its boundary. */
#define BCW_BOUNDS_ORDINARY 1
/* value: offset of a C string in `strings` */
#define BCW_FIXED_STRING 3u
/* value: a symbol, passed as its address */
#define BCW_FIXED_SYMBOL 4u
/* value: enum bcw_callback, a closure of signature `sig`; out[k] counts
 * its calls */
#define BCW_FIXED_CLOSURE 5u
/* A custom generator's (bcw_wire_gen): the worker asks it for each value. */
#define BCW_FIXED_CUSTOM 6u
/* Derived handles (a list's nodes).  On a parameter: value is the slot
 * (0 .. BCW_MAX_HANDLES - 1) of the handle type plus BCW_MAX_HANDLES
 * times its age, and the argument is the handle given out last in the
 * sequence (age 0), or the one given out before it (age 1) ...; with none
 * (or NULL) given out
 * the call is not made and the sequence is rejected (signo
 * BCW_SIG_NO_ARG), and a handle into a block freed since is not passed
 * and the sequence is rejected (signo BCW_SIG_FREED): the walk's misuse,
 * not the library's.  On a result: the
 * result is given out as the handle of slot `value`. */
#define BCW_FIXED_HANDLE 7u
/* (On a result whose `size` is not 0: a struct of that many bytes
 * returned by value, given out as the handle by a copy's address, or as
 * none when all its bytes are 0: an end iterator.) */
/* The same, but NULL is passed when no handle was given out: the
 * function compares the parameter with NULL. */
#define BCW_FIXED_HANDLE_OR_NULL 8u
/* A pointer to another unit: value is the plan index of that unit's
 * constructor (an entry after the one taking it, whose arguments are the
 * master generator's, callbacks, and other units' instances made so in
 * turn), called just before to make the argument: its result, its
 * T **out, or storage of `size` its init function fills; a NULL result
 * rejects the sequence (signo BCW_SIG_NO_ARG). */
#define BCW_FIXED_UNIT_CTOR 9u
/* A list in the caller's cell, its current head (BCW_PK_UNIT_DEREF) for
 * a function that does not check it for NULL: an empty list rejects the
 * call (signo BCW_SIG_NO_ARG). */
#define BCW_FIXED_NONNULL 11u
/* Storage of `size` bytes passed to the call and, after it, the handle of
 * type `value` it gave out: an iterator it_init(&it, c) fills. */
#define BCW_FIXED_HANDLE_OUT 10u

#define BCW_MAX_HANDLES 8
/* A handle parameter takes one of the last BCW_HANDLE_AGES handles of its
 * type given out in the sequence: its value is slot + BCW_MAX_HANDLES *
 * age, age 0 the handle given out last, 1 the one before it ... */
#define BCW_HANDLE_AGES 3
/* signo of a sequence halted by the worker itself, not by a signal or a
 * contract: an argument it could not make (rejected), a handle to freed
 * memory (crash). */
#define BCW_SIG_NO_ARG 0xf0u
#define BCW_SIG_FREED 0xf1u
/* signo of a call that wrote past the end of a heap block (the runtime's
 * guard bytes after each block changed): a crash, the worker restarted */
#define BCW_SIG_OVERFLOW 0xf2u
/* signo of a sequence a sanitizer stopped (--sanitize): AddressSanitizer's
 * report (the worker restarted), or undefined behaviour caught before it
 * happened (the worker goes on) */
#define BCW_SIG_SANITIZER 0xf3u
#define BCW_SIG_UNDEFINED 0xf4u
/* signo of a call that wrote over bcwalk's shared memory (the batch's
 * header changed under it, or its result did not check): a crash */
#define BCW_SIG_SCRIBBLE 0xf5u
/* signo of a failure: the unit's invariant function (bcw_shm.invariant)
 * returned false after the call */
#define BCW_SIG_INVARIANT 0xf6u
/* signo of a call not made: a parameter's category relative to the
 * object's fields has no value on the object as it is (rejected) */
#define BCW_SIG_UNMET 0xf7u
/* signo of a sequence whose init function returned its failure status
 * (BCW_WIRE_OK_*): no object (rejected) */
#define BCW_SIG_FAILED 0xf8u
/* signo of a call that returned, as a pointer, eight bytes of the
 * runtime's guard or fill (BCW_CAUSE_GARBAGE): what it read past a
 * block or before anything wrote there, on the call that read it, not
 * on the later call the pointer would crash (a crash) */
#define BCW_SIG_GARBAGE 0xf9u
/* signo of a call not made (rejected) for lifetimes the runtime saw:
 * a handle the object held when it was given out and has since let go
 * (a vertex removed from its graph), given to a call with the object
 * (LET_GO); a call not given the object that freed a block the object
 * still holds (HELD: a caller's misuse, the object left dangling); any
 * call after one that ended the object (ENDED, BCW_RESULT_ENDED) */
#define BCW_SIG_LET_GO 0xfau
#define BCW_SIG_HELD 0xfbu
#define BCW_SIG_ENDED 0xfcu
/* signo of a call not made (rejected): a function of another family
 * than the object's constructor (bcw_wire_func's `family`: inflate on a
 * stream deflateInit_ made) */
#define BCW_SIG_FAMILY 0xfdu
/* The eight guard bytes the runtime puts after every block, read as a
 * word (a BCW_CAUSE_GARBAGE addr that is not this is the fill) */
#define BCW_GUARD_WORD 0xfbfbfbfbfbfbfbfbull

typedef struct bcw_wire_func {
    uint32_t sym; /* index into the worker's bcw_unit_symtab */
    uint8_t role; /* enum bcw_role */
    uint8_t nparams;
    uint8_t flags;  /* BCW_WIRE_REBINDS, BCW_WIRE_OBSERVER */
    uint8_t family; /* 1..BCW_MAX_FAMILIES: called only on objects a
                       constructor of the same family made; 0 any */
    bcw_wire_param ret;
    bcw_wire_param params[BCW_MAX_PARAMS];
} bcw_wire_func;

/* The call returns the unit's new handle: target becomes the result. */
#define BCW_WIRE_REBINDS 1u
/* An observer of the model: a sequence ending in it may ask the worker
 * to hash the state before it too (BCW_SEQ_CHECK_OBSERVER), to tell
 * whether it changed anything (BCW_RESULT_OBSERVER_CHANGED). */
#define BCW_WIRE_OBSERVER 2u
/* A destructor whose unit parameter it checks for NULL: a sequence of
 * the constructor alone also calls it with NULL after its teardown, a
 * halt there at call len + 2. */
#define BCW_WIRE_NULLABLE_SELF 4u
/* An init function whose status says whether it made the object: 0 is
 * success (BCW_WIRE_OK_ZERO) or not 0 is (BCW_WIRE_OK_NONZERO); another
 * result is no object (rejected, signo BCW_SIG_FAILED). */
#define BCW_WIRE_OK_ZERO 8u
#define BCW_WIRE_OK_NONZERO 16u
/* A call taking a reference to the target (json_object_get): returning
 * it, it counts up what the destructor counts down, so the sequence ends
 * with one more call of the destructor for each. */
#define BCW_WIRE_RETAINS 32u
/* An init function testing fields of its storage for 0 before it sets
 * them (bcw_func's `defaults`): the storage is zeroed, not filled. */
#define BCW_WIRE_DEFAULTS 64u

/* Bytes of a returned C string or a filled buffer a result carries. */
#define BCW_TEXT_MAX 64

/* A call's observation: the last call of each sequence is reported.
 * The words every result has come first, then the blocks only some have
 * (out-parameters with BCW_RESULT_OUT, text with BCW_RESULT_TEXT): a
 * result without them is copied, checked and read as its first six
 * words. */
typedef struct bcw_wire_result {
    uint8_t outcome;    /* enum bcw_outcome of the sequence */
    uint8_t signo;      /* the signal for crashes and aborts; for
                           rejected and failure the contract kind
                           (contract.h), 0 for a NULL constructor */
    uint16_t halted_at; /* call index that halted: 0 the constructor,
                           i the i-th method, len + 1 the destructor */
    uint32_t calls;     /* calls made, teardown included */
    uint64_t ret;       /* the last call's result, raw (values.h) */
    /* The state the sequence left the object in, when it ended normally
     * and the plan asks (state_flags): bit i of `preds` is predicate i's
     * value, for the bits set in `known` (an interface predicate that
     * halted, or a field behind a pointer bcwalk cannot read, is not
     * known); `state` is the concrete state's hash (0: not computed). */
    uint32_t preds, known;
    uint64_t state;
    /* With BCW_STATE_HASH: `state` mixed with what decides the next
     * calls' generated arguments (the master generator's position), so
     * equal keys have equal futures; pruning compares these.  0 when
     * state is. */
    uint64_t key;
    uint32_t flags; /* BCW_RESULT_* */
    uint32_t check; /* bcw_wire_check of the rest, the worker's last word */
    /* its out-parameters after the call (BCW_RESULT_OUT; else all 0) */
    uint64_t out[BCW_MAX_PARAMS];
    /* What the last call put in words (BCW_RESULT_TEXT; else all 0): the
     * C string it returned (text_of 0) or the buffer parameter k it
     * filled (text_of k + 1), up to its first NUL, at most BCW_TEXT_MAX
     * bytes (text_cut 1: it went on); any bytes. */
    uint8_t text_of, ntext, text_cut, pad[5];
    char text[BCW_TEXT_MAX];
} bcw_wire_result;

/* The last call is an observer (BCW_WIRE_OBSERVER) and the object's
 * concrete state after it differs from the state before it, both hashed
 * in this run. */
#define BCW_RESULT_OBSERVER_CHANGED 1u
/* The sequence halted and the worker wrote why into causes[i]; or, with
 * BCW_RESULT_LEAK, it ended normally and causes[i] is the leak. */
#define BCW_RESULT_CAUSE 2u
/* After the destructor, blocks the sequence allocated stayed that
 * nothing reaches (causes[i], BCW_CAUSE_LEAK) */
#define BCW_RESULT_LEAK 4u
/* The result carries the last call's text (text_of, ntext, text). */
#define BCW_RESULT_TEXT 8u
/* Some out-parameter of the last call is not 0 (out). */
#define BCW_RESULT_OUT 16u
/* The sequence's last call, a method, freed the block the object is in
 * and returned no live block instead: it ended the object, as a
 * destructor does, whatever the analysis said (ENDED); or it returned
 * a pointer into a live block, the object from then on (REPLACED: a
 * string that grows by moving). */
#define BCW_RESULT_ENDED 64u
#define BCW_RESULT_REPLACED 128u
/* Bits 8..10: how many destructors of the object's form refused it
 * before the one that tore it down (returned a failure and left a heap
 * object's block live: gzclose_r of a file open for writing); the
 * teardown's destructor is bcw_wire_destructor_of's with that many
 * tries. */
#define BCW_RESULT_DTOR_SHIFT 8
#define BCW_RESULT_DTOR_TRIES (7u << BCW_RESULT_DTOR_SHIFT)

/* Why a sequence halted, as the worker saw it (results' flag
 * BCW_RESULT_CAUSE): the parent words it (explorer/report/cause.c).
 * Calls are the sequence's call indices (0 the constructor, len + 1 the
 * destructor). */
enum bcw_cause_kind {
    BCW_CAUSE_NONE,
    BCW_CAUSE_SIGNAL,      /* a fatal signal: addr the faulting address, pc
                              where (in the unit's code, else 0), access */
    BCW_CAUSE_OVERFLOW,    /* a write past a heap block: size, alloc_call,
                              alloc_site */
    BCW_CAUSE_DOUBLE_FREE, /* size, the calls and sites that allocated
                              it and freed it first, pc the second free */
    BCW_CAUSE_ASSERT,      /* text: "expr\tfile\tline", pc */
    BCW_CAUSE_ABORT,       /* abort() called at pc */
    BCW_CAUSE_EXIT,        /* exit(size), _exit, quick_exit called at pc */
    BCW_CAUSE_EXEC,        /* an exec or system() called at pc: text the
                              program, not run */
    BCW_CAUSE_MEMORY,      /* more than memory_mb MiB allocated at once:
                              size the request in bytes, pc its site */
    BCW_CAUSE_DIED,        /* the worker ended otherwise (it closed its
                              descriptors, say): size its exit status,
                              written by the parent */
    BCW_CAUSE_SANITIZER,   /* AddressSanitizer's report (--sanitize
                              address): text its words, pc the access */
    BCW_CAUSE_UNDEFINED,   /* undefined behaviour about to happen
                              (--sanitize undefined): text what, pc where */
    BCW_CAUSE_LEAK,        /* not a halt (BCW_RESULT_LEAK): addr blocks
                              of size bytes in all that the destructor left
                              and nothing reaches; alloc_call and
                              alloc_site of the first allocated */
    BCW_CAUSE_SCRIBBLE,    /* the call wrote over bcwalk's shared memory
                              (BCW_SIG_SCRIBBLE); size 1 when the parent
                              found it (the sequence's own result wrong,
                              the call unknown) */
    BCW_CAUSE_CPU,         /* a hang: the worker passed its CPU time
                              limit, size seconds (cpu_s), in the call */
    BCW_CAUSE_UNDERFLOW,   /* a write before a heap block (the header word
                              right before it): as BCW_CAUSE_OVERFLOW, or
                              alloc_call UINT32_MAX when the rest of the
                              header was written over too */
    BCW_CAUSE_GARBAGE      /* the call returned a pointer no call could
                              have made (BCW_SIG_GARBAGE): addr its value,
                              the runtime's guard bytes (read past a
                              block's end) or its fill of new blocks
                              (read before anything wrote it) */
};
#define BCW_CAUSE_LAST BCW_CAUSE_GARBAGE
/* Undefined behaviour a check compiled into the unit stops
 * (explorer/build/sanitize.cpp) before it happens; it calls the runtime's
 * bcw_rt_ub(kind, a, b, bits), which puts it in words (rt_sanitize.c). */
enum bcw_ub_kind {
    BCW_UB_ADD_OVERFLOW, /* signed +, -, * out of range: a, b operands */
    BCW_UB_SUB_OVERFLOW,
    BCW_UB_MUL_OVERFLOW,
    BCW_UB_DIV_OVERFLOW, /* INT_MIN / -1, INT_MIN % -1 */
    BCW_UB_DIV_ZERO,     /* an integer divided by 0 */
    BCW_UB_SHIFT,        /* a shifted by b >= the bits of its type */
    BCW_UB_MISALIGNED,   /* a load or store at a promising b-byte
                            alignment */
    BCW_UB_NULL_ARG      /* memcpy, memmove, memset or memcmp given NULL:
                            b the argument (0 the first) */
};
enum bcw_access { BCW_ACCESS_UNKNOWN, BCW_ACCESS_READ, BCW_ACCESS_WRITE };
/* Where a faulting address is, words that do not change from run to run
 * (heap addresses do): */
enum bcw_where {
    BCW_WHERE_LOW,   /* below 64 KiB (NULL plus an offset): addr itself */
    BCW_WHERE_BLOCK, /* in a live heap block: addr the offset, size,
                        alloc_call */
    BCW_WHERE_FREED, /* in a block freed during the sequence: also
                        free_call */
    BCW_WHERE_PAST,  /* just past a block's end: addr the bytes past */
    BCW_WHERE_WILD,  /* anywhere else */
    BCW_WHERE_STACK  /* next to the stack pointer: the stack overflowed */
};
#define BCW_LOW_ADDRESS 0x10000u

typedef struct bcw_wire_cause {
    uint8_t kind;   /* enum bcw_cause_kind */
    uint8_t access; /* enum bcw_access */
    uint8_t where;  /* enum bcw_where, of a signal's address */
    uint8_t pad;
    uint32_t size;
    uint32_t alloc_call, free_call;
    uint64_t addr;
    uint64_t pc; /* an address in the worker executable (position
                    dependent), 0 unknown */
    uint64_t alloc_site, free_site; /* where a block was allocated and
                                       freed, addresses as pc */
    char text[96];
} bcw_wire_cause;

/* BCW_MSG_LAST: sequence `seq`'s result and cause, result.check as in
 * the batch, and the status the worker exits with. */
typedef struct bcw_wire_last {
    uint32_t msg, seq, exit, pad;
    bcw_wire_result result;
    bcw_wire_cause cause;
} bcw_wire_last;

/* A design-state predicate: an interface observer the worker calls with
 * the object (plan entry `func`, a bool result), or a comparison of two
 * terms it reads from the object (the model's bcw_pred). */
typedef struct bcw_wire_term {
    uint8_t kind; /* enum bcw_term_kind: FIELD, CONST, NULL */
    uint8_t bits;
    uint16_t pad;
    int32_t via; /* -1: the unit; else the pointer field at this offset */
    uint32_t offset;
    uint32_t pad2;
    int64_t value;
} bcw_wire_term;

typedef struct bcw_wire_pred {
    uint8_t interface;
    uint8_t op; /* enum bcw_cmp */
    uint16_t func;
    uint32_t pad;
    bcw_wire_term l, r;
} bcw_wire_pred;

#define BCW_MAX_PREDS 16
#define BCW_STATE_PREDS 1u /* evaluate the predicates after each sequence */
#define BCW_STATE_HASH 2u  /* hash the concrete state after each sequence */

/* A custom generator (include/bcwalk/generator.h): the shared object the
 * worker loads, and what it is told of each parameter it generates
 * (BCW_FIXED_CUSTOM), by plan index.  Names are offsets into `names`,
 * each NUL-terminated; the parent writes them, the worker checks them. */
#define BCW_GEN_PATH_MAX 4096
#define BCW_GEN_NAMES 65536
typedef struct bcw_wire_gen {
    char path[BCW_GEN_PATH_MAX];  /* absolute; "" for no custom generator */
    uint32_t func[BCW_MAX_FUNCS]; /* the function's name */
    uint32_t param[BCW_MAX_FUNCS][BCW_MAX_PARAMS]; /* the parameter's */
    uint32_t ctype[BCW_MAX_FUNCS][BCW_MAX_PARAMS]; /* its C type */
    uint8_t categories[BCW_MAX_FUNCS][BCW_MAX_PARAMS];
    uint32_t nnames;
    char names[BCW_GEN_NAMES];
} bcw_wire_gen;

/* A callback field of another unit's instance its constructor left NULL,
 * set as a user sets conf.cmp after conf_init(&conf): after plan entry
 * `func` makes an instance (BCW_FIXED_UNIT_CTOR), the pointer at byte
 * `offset` of it, if NULL, becomes the built-in closure `cb` describes
 * (fixed BCW_FIXED_CLOSURE, value its bcw_callback, sig its ABI).  With
 * `param` k + 1, a member of the zeroed storage (BCW_PK_SCRATCH) entry
 * `func` is given as its parameter k: a table of callbacks. */
typedef struct bcw_wire_fill {
    uint16_t func;
    uint16_t param;
    uint32_t offset;
    bcw_wire_param cb;
} bcw_wire_fill;
#define BCW_MAX_FILLS 32

typedef struct bcw_shm {
    uint32_t magic, version;
    uint32_t nfuncs;
    uint32_t unit_size;    /* sizeof the unit, for init constructors */
    uint32_t ndestructors; /* the destructors sequences end with, in turn */
    uint16_t destructors[BCW_MAX_DESTRUCTORS]; /* plan indexes */
    uint8_t dtor_forms[BCW_MAX_DESTRUCTORS];   /* BCW_FORM_* each ends */
    uint32_t use_ffi;   /* 1: call through libffi, 0: typed stubs */
    uint32_t memory_mb; /* a sequence allocating more: BCW_CAUSE_MEMORY */
    /* RLIMIT_CPU of each worker and what it starts: passing it is a hang
     * (BCW_CAUSE_CPU); a worker that used half of it is replaced after
     * its sequence (BCW_EXIT_RESTART); 0: none */
    uint32_t cpu_s;
    bcw_wire_func funcs[BCW_MAX_FUNCS];
    uint32_t npool, nstrings;
    bcw_cnode pool[BCW_MAX_PLAN_NODES];
    char strings[BCW_MAX_PLAN_STRINGS]; /* NUL-terminated, nstrings bytes */
    uint32_t npreds, state_flags;       /* BCW_STATE_* */
    bcw_wire_pred preds[BCW_MAX_PREDS];
    /* The unit's invariant function, plan index + 1 (0: none): called on
     * the object after each call that returned normally, false is a
     * failure of that call (BCW_SIG_INVARIANT). */
    uint32_t invariant;
    uint32_t nfills;
    bcw_wire_fill fills[BCW_MAX_FILLS];
    bcw_wire_gen gen;
    /* The walk's scratch folder, the workers' working folder and the
     * only one they may write in. */
    char scratch[512];
    /* Coverage flags the unit's code sets (explorer/build/coverage.h), as
     * many as its bcw_cov_count; 0: a build without them. */
    uint32_t ncov;
} bcw_shm;

/* A worker's batch and results (BCW_FD_BATCH): everything the worker
 * writes, and so everything the code under test could write over. */
typedef struct bcw_batch {
    /* The batch's number, the parent's, and the same again in `tail`:
     * a worker that finds either changed after a call was written over
     * by it (BCW_CAUSE_SCRIBBLE). */
    uint64_t nonce;
    /* The sequences to run, first..nseq-1: sequence i is seqs[off[i]],
     * its length L (methods), then the constructor's plan index, then L
     * method indices. */
    uint32_t nseq, first;
    uint32_t slot; /* the results' slot, 0 or 1 */
    /* What confines the code under test (BCW_SANDBOX_*: Landlock's),
     * the server's word before its hello. */
    uint32_t sandbox;
    volatile uint32_t cur;      /* sequence in flight */
    volatile uint32_t cur_call; /* call in flight: 0 the constructor */
    uint32_t off[BCW_MAX_BATCH];
    uint16_t seqs[BCW_MAX_SEQ_WORDS];
    bcw_wire_result results[2][BCW_MAX_BATCH];
    bcw_wire_cause causes[2][BCW_MAX_BATCH]; /* results[][i].flags' CAUSE */
    uint64_t tail;
    /* then, in the same shared memory, bcw_shm.ncov bytes: the coverage
     * flags the worker's runs set since the parent last took them
     * (bcw_batch_cov) */
} bcw_batch;

/* The coverage bytes after the batch: a flag the worker saw set is 1
 * there.  The worker writes them when it answers DONE, before it exits
 * in a run, and (the library's setup function's) before its hello; the
 * parent takes and clears them after each run. */
static inline uint8_t *bcw_batch_cov(bcw_batch *b)
{
    return (uint8_t *)(b + 1);
}

/* The words of the sequence at q (proto.h's seqs), its pins included,
 * reading no more than `room` words: 0 when they do not fit. */
static inline uint32_t bcw_wire_seq_words(const uint16_t *q, uint32_t room)
{
    uint32_t n = (uint32_t)(q[0] & BCW_SEQ_LEN_MASK) + 2u;
    if (n > room)
        return 0;
    if (q[0] & BCW_SEQ_PINNED) {
        if (n >= room)
            return 0;
        n += 1u + q[n] * BCW_PIN_WORDS;
    }
    return n <= room ? n : 0;
}

/* bcw_wire_check's mixing of the n 8-byte words at p into four lanes,
 * each word into the lane of its index mod 4: four independent
 * multiply chains, not one four times as long (it runs for every result,
 * in the worker and in the parent). */
static inline uint64_t bcw_wire_word(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint64_t bcw_wire_step(uint64_t h, uint64_t v)
{
    h = (h ^ v) * 0xbf58476d1ce4e5b9u;
    return h ^ (h >> 31);
}

static inline void bcw_wire_lanes(uint64_t lane[4], const unsigned char *p,
                                  size_t n)
{
    uint64_t a = lane[0], b = lane[1], c = lane[2], d = lane[3];
    size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        a = bcw_wire_step(a, bcw_wire_word(p + 8 * k));
        b = bcw_wire_step(b, bcw_wire_word(p + 8 * k + 8));
        c = bcw_wire_step(c, bcw_wire_word(p + 8 * k + 16));
        d = bcw_wire_step(d, bcw_wire_word(p + 8 * k + 24));
    }
    for (; k < n; k++)
        a = bcw_wire_step(a, bcw_wire_word(p + 8 * k));
    lane[0] = a;
    lane[1] = b;
    lane[2] = c;
    lane[3] = d;
}

/* The check word of result r of sequence i in batch `nonce`, with its
 * cause c when r has one (BCW_RESULT_CAUSE or BCW_RESULT_LEAK): a hash
 * of the 8-byte words r's flags say it has (bcw_wire_result_copy), with
 * r->check taken as 0.  Not a secret: it tells a result the worker wrote
 * from memory written over. */
static inline uint32_t bcw_wire_check(const bcw_wire_result *r,
                                      const bcw_wire_cause *c, uint32_t i,
                                      uint64_t nonce)
{
    uint64_t h = nonce ^ ((uint64_t)i * 0x9e3779b97f4a7c15u);
    uint64_t lane[4] = {h, h ^ 0x6a09e667f3bcc908u, h ^ 0xbb67ae8584caa73bu,
                        h ^ 0x3c6ef372fe94f82bu};
    bcw_wire_lanes(lane, (const unsigned char *)r,
                   offsetof(bcw_wire_result, flags) / 8);
    if (r->flags & BCW_RESULT_OUT)
        bcw_wire_lanes(lane, (const unsigned char *)r->out, BCW_MAX_PARAMS);
    if (r->flags & BCW_RESULT_TEXT)
        bcw_wire_lanes(lane, &r->text_of,
                       (sizeof *r - offsetof(bcw_wire_result, text_of)) / 8);
    if (c != NULL && (r->flags & (BCW_RESULT_CAUSE | BCW_RESULT_LEAK)))
        bcw_wire_lanes(lane, (const unsigned char *)c, sizeof *c / 8);
    for (int k = 1; k < 4; k++)
        lane[0] = (lane[0] ^ lane[k]) * 0xbf58476d1ce4e5b9u ^ (lane[0] >> 29);
    /* the word holding flags, check's neighbour */
    h = (lane[0] ^ r->flags) * 0x94d049bb133111ebu;
    h ^= h >> 32;
    return (uint32_t)h;
}

/* Result src into dst: the words every result has, then the blocks its
 * flags (as copied) say it has; with `zero`, dst's other blocks are
 * cleared, so dst reads as the result the worker made. */
static inline void bcw_wire_result_copy(bcw_wire_result *dst,
                                        const bcw_wire_result *src, int zero)
{
    memcpy(dst, src, offsetof(bcw_wire_result, out));
    uint32_t flags = dst->flags;
    if (flags & BCW_RESULT_OUT)
        memcpy(dst->out, src->out, sizeof dst->out);
    else if (zero)
        memset(dst->out, 0, sizeof dst->out);
    size_t text = sizeof *dst - offsetof(bcw_wire_result, text_of);
    if (flags & BCW_RESULT_TEXT)
        memcpy(&dst->text_of, &src->text_of, text);
    else if (zero)
        memset(&dst->text_of, 0, text);
}

/* The objects a destructor ends (bcw_shm.dtor_forms): those a
 * constructor returned (FORM_HEAP: it frees their block), those an init
 * function filled in storage (FORM_STORAGE: it releases what they hold),
 * or either (what it frees is unseen); and, from bit 2, those of its
 * family (bcw_wire_func's), all when it has none. */
#define BCW_FORM_HEAP 1u
#define BCW_FORM_STORAGE 2u
#define BCW_MAX_FAMILIES 6

/* The form bit of family `family` (0: none). */
static inline unsigned bcw_wire_family_form(unsigned family)
{
    return family >= 1 && family <= BCW_MAX_FAMILIES ? 4u << (family - 1)
                                                     : 0;
}

/* The form of the object a constructor of role `role` (enum bcw_role)
 * and family `family` makes. */
static inline unsigned bcw_wire_form_of(unsigned role, unsigned family)
{
    return (role == BCW_ROLE_INIT_CONSTRUCTOR ? BCW_FORM_STORAGE
                                              : BCW_FORM_HEAP) |
           bcw_wire_family_form(family);
}

/* Does a destructor of form `dtor` end objects of form `form`: the
 * same kind and, `strict`, the same family (form has one, and so does
 * dtor); else the same family where both have one? */
static inline int bcw_wire_form_fits(unsigned dtor, unsigned form, int strict)
{
    unsigned df = dtor >> 2, ff = form >> 2;
    return (dtor & form & 3u) != 0 &&
           (strict ? (df & ff) != 0 : df == 0 || ff == 0 || (df & ff) != 0);
}

/* How many of the `n` destructors (their forms in `forms`) a sequence's
 * teardown may try on objects of form `form`: those of the object's own
 * family, then those that may be of it (no family of their own), all
 * `n` when none fits. */
static inline unsigned bcw_wire_destructors_fit(unsigned n,
                                                const uint8_t *forms,
                                                unsigned form)
{
    unsigned fit = 0;
    for (unsigned i = 0; i < n; i++)
        fit += (unsigned)bcw_wire_form_fits(forms[i], form, 0);
    return fit > 0 ? fit : n;
}

/* The k-th (cyclically from `from`) of the `n` destructors that fit
 * form `form`, `strict` or only loosely; n when none does. */
static inline unsigned bcw_wire_nth_fit(unsigned n, const uint8_t *forms,
                                        unsigned form, int strict,
                                        uint32_t k)
{
    unsigned m = 0;
    for (unsigned i = 0; i < n; i++)
        m += bcw_wire_form_fits(forms[i], form, strict) &&
             (strict || !bcw_wire_form_fits(forms[i], form, 1));
    if (m == 0)
        return n;
    k %= m;
    for (unsigned i = 0; i < n; i++)
        if (bcw_wire_form_fits(forms[i], form, strict) &&
            (strict || !bcw_wire_form_fits(forms[i], form, 1)) && k-- == 0)
            return i;
    return n;
}

/* Which of the `n` destructors (their forms in `forms`) ends the
 * sequence whose constructor, making an object of form `form`, and
 * methods are steps[0..len]: of those of the object's family, else of
 * those that end such objects (all when none does), each in turn, by
 * the sum of its plan indexes, so the parent's report names the one the
 * worker called; when `tries` before it refused
 * (BCW_RESULT_DTOR_TRIES), the next of them, then of those that may be
 * of its family. */
static inline unsigned bcw_wire_destructor_of(const uint16_t *steps,
                                              unsigned len, unsigned n,
                                              const uint8_t *forms,
                                              unsigned form, unsigned tries)
{
    uint32_t sum = 0;
    for (unsigned k = 0; k <= len; k++)
        sum += steps[k];
    unsigned strict = 0;
    for (unsigned i = 0; i < n; i++)
        strict += (unsigned)bcw_wire_form_fits(forms[i], form, 1);
    if (tries < strict)
        return bcw_wire_nth_fit(n, forms, form, 1, sum + tries);
    unsigned i = bcw_wire_nth_fit(n, forms, form, 0, sum + tries - strict);
    return i < n ? i : n > 0 ? (sum + tries) % n : 0;
}

#endif
