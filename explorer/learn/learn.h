/* learn.h - a unit's model learned from the library's own tests (James):
 * the traced calls with their values named (#0 the unit, Obj#1 another
 * object, the same pointer the same name), a graph of control and data
 * dependencies between them, and that graph merged k-tails style. */
#ifndef BCW_LEARN_H
#define BCW_LEARN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "alloc.h"
#include "engine.h"
#include "model.h"
#include "plan.h"
#include "trace.h"

/* What a traced value is. */
enum bcw_lv_kind {
    BCW_LV_NONE,   /* no value: void, or the call did not return */
    BCW_LV_INT,    /* value: the integer (bool and char too) */
    BCW_LV_FLOAT,  /* text only */
    BCW_LV_STRING, /* str: the bytes */
    BCW_LV_UNIT,   /* value: k of #k, an instance of the unit */
    BCW_LV_OBJ,    /* value: k of Obj#k, any other pointer */
    BCW_LV_NULL,
    BCW_LV_FUNC /* a function the code names: text is its name */
};

typedef struct bcw_lval {
    uint8_t kind;
    int64_t value;
    char *text; /* as reports show it: "5", "#0", "Obj#2", "\"abc\"" */
    char *str;  /* BCW_LV_STRING: the bytes */
} bcw_lval;

/* A scalar word as a value of ABI class abi (its text as reports show
 * it: "5", "true", "2.5").  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__lval_scalar(uint64_t w, uint8_t abi, bcw_lval *out);

/* One traced call, named. */
typedef struct bcw_lcall {
    char *fn;
    int func; /* in the unit's funcs, -1: another library function,
                 one that made an argument of the unit's calls */
    unsigned nargs;
    bcw_lval args[TR_MAX_ARGS];
    bcw_lval result;
    unsigned nouts;
    uint8_t out_arg[TR_MAX_ARGS];
    bcw_lval outs[TR_MAX_ARGS]; /* what the call left in *args[out_arg] */
    char *outcome; /* NULL: it returned; else how the program ended in it
                      ("crash (SIGSEGV)", "abort", "exit 1", "hang") */
    char *where;   /* the test's file:line, or NULL */
} bcw_lcall;

/* One test, its calls of the unit and those that made their arguments. */
typedef struct bcw_ltest {
    char *name;
    char *end; /* "passed", "assertion failed (t.c:12: ...)", ... */
    bool passed;
    uint64_t made; /* calls into the library, all of them */
    unsigned ncalls;
    bcw_lcall *calls;
} bcw_ltest;

/* A node of the graph: calls of one function with one outcome. */
typedef struct bcw_lnode {
    char *fn;
    int func;
    char *outcome;  /* NULL: normal */
    unsigned count; /* traced calls it stands for */
    unsigned nargs;
    bcw_strlist values[TR_MAX_ARGS]; /* distinct arguments seen, sorted */
    bcw_strlist tests;               /* the tests that made them, sorted */
} bcw_lnode;

enum bcw_ledge_kind { BCW_LE_CONTROL, BCW_LE_DATA };

typedef struct bcw_ledge {
    unsigned from, to;
    uint8_t kind;  /* enum bcw_ledge_kind */
    uint8_t param; /* DATA: the argument the value goes to */
} bcw_ledge;

typedef struct bcw_lgraph {
    unsigned nnodes, nedges;
    bcw_lnode *nodes;
    bcw_ledge *edges; /* sorted by (from, to, kind, param), distinct */
} bcw_lgraph;

typedef struct bcw_learned {
    char *unit;
    char *tests_path, *lib_path;
    char *how;       /* how the tests were found */
    unsigned nfound; /* test functions found */
    unsigned runs;   /* the program's runs (one more per halt) */
    int status;      /* its exit status */
    unsigned ntests;
    bcw_ltest *tests;
    unsigned k_strict, k_loose;
    unsigned traced_nodes, traced_edges; /* before merging */
    bcw_lgraph graph;                    /* merged */
} bcw_learned;

/* The unit `unit`'s part of trace `t`: its calls and those that made
 * their arguments, named; then the graph of them, merged with
 * thresholds k_strict and k_loose.  *out is the caller's
 * (bcw__learned_free). */
BCW_INTERNAL int bcw__learn(bcw_learned *out, const bcw_model *model,
                            unsigned unit, const bcw_trace *t,
                            unsigned k_strict, unsigned k_loose);

/* The graph of the tests' calls: a node per call, control edges from
 * each call on an instance of the unit to the next on it, data edges
 * from the call that returned (or wrote out) a pointer to the later
 * calls taking it. */
BCW_INTERNAL int bcw__learn_graph(bcw_lgraph *out, const bcw_ltest *tests,
                                  unsigned ntests);

/* Merges graph g in place, James's way: nodes whose trees of neighbours
 * (following edges forward, or backward) agree to k_strict levels,
 * deepest first; then those whose whole trees are equal and at least
 * k_loose levels deep.  A node's label is its function and outcome;
 * merged nodes keep the union of their values and tests. */
BCW_INTERNAL int bcw__learn_merge(bcw_lgraph *g, unsigned k_strict,
                                  unsigned k_loose);

BCW_INTERNAL void bcw__lgraph_free(bcw_lgraph *g);
BCW_INTERNAL void bcw__learned_free(bcw_learned *l);

/* Outputs (learn_out.c). */
BCW_INTERNAL int bcw__learned_text(const bcw_learned *l, FILE *f);
BCW_INTERNAL int bcw__learned_json(const bcw_learned *l, FILE *f);
/* The graph in DOT: control edges solid, data edges dashed and labelled
 * with their argument, a oneOf diamond where an argument has several
 * producers, edges on a loop bold, halting calls filled. */
BCW_INTERNAL int bcw__learned_dot(const bcw_learned *l, FILE *f);
/* The learned model's file (msgpack, docs/learn.md), atomically. */
BCW_INTERNAL int bcw__learned_save(const bcw_learned *l, const char *path);
BCW_INTERNAL int bcw__learned_load(bcw_learned *out, const char *path);

/* A learned model in a walk (explore --from-tests): the values the tests
 * pass as categories, the tests' calls on each instance as sequences of
 * the walk's steps (covers for the state walk, the gaps between tests and
 * walk), and the learned walk, which extends a sequence only along the
 * model's control edges (learn_use.c). */

/* Adds to unit `unit`'s parameters a category for each value the tests
 * pass that no category has as its value: integers, strings, and the
 * library's functions as callbacks, labelled "from tests: V", at most
 * BCW_TEST_VALUES per parameter, in the order the tests first pass
 * them.  A parameter the walk generated values for keeps a category
 * for them ("generated").  *added counts the categories.  0 or
 * BCW_ENOMEM. */
#define BCW_TEST_VALUES 8
BCW_INTERNAL int bcw__learned_categories(bcw_model *m, unsigned unit,
                                         const bcw_learned *l, unsigned *added);

/* A category the tests' values added: part `part` of parameter `param`
 * of the unit's function `func`, and how many of the tests' calls pass
 * its value. */
typedef struct bcw_tcat {
    unsigned func, param, part, uses;
} bcw_tcat;

/* The categories the tests' values added to unit u, in the order a walk
 * over its budget drops them: the least used first, and of those used
 * as much the last (by function, parameter and category) first.  *out
 * (the caller frees it) and *n.  0 or BCW_ENOMEM. */
BCW_INTERNAL int bcw__learned_ranked(bcw_tcat **out, unsigned *n,
                                     const bcw_unit *u, const bcw_learned *l);

/* Removes category c from u, and with its parameter's last one the
 * "generated" category it came with; the categories rest[0 .. nrest)
 * after c on its parameter move down one. */
BCW_INTERNAL void bcw__learned_drop(bcw_unit *u, const bcw_tcat *c,
                                    bcw_tcat *rest, unsigned nrest);

/* How many times the sequences of an unpruned walk of `depth` (a
 * constructor, then up to `depth` methods) the tests' categories make:
 * with ctors_after and methods_after steps over with the others. */
BCW_INTERNAL double bcw__learned_growth(unsigned ctors_before,
                                        unsigned methods_before,
                                        unsigned ctors_after,
                                        unsigned methods_after, unsigned depth);

/* --from-tests: the model learned at `path` (of unit u, else
 * BCW_EINPUT) into *l, and a copy of `model` whose unit has its tests'
 * values as categories (bcw__learned_categories; *taught, the caller's,
 * freed with bcw_model_free), *added counting them.  0 or an error. */
BCW_INTERNAL int bcw__learned_teach(bcw_learned *l, bcw_model **taught,
                                    unsigned *added, const bcw_model *model,
                                    const bcw_unit *u, const char *path);

/* Does step st of unit u pass a value of a category the tests' values
 * added? */
BCW_INTERNAL bool bcw__learned_step(const bcw_unit *u, const bcw_step *st);

#define BCW_TEST_SEQ_MAX 64 /* methods of a test sequence, at most */

/* The tests' sequences: for each test and each instance of the unit it
 * makes with a walked constructor, its calls on it as long as each has a
 * step passing the same values (generated elements for its objects),
 * BCW_TEST_SEQ_MAX at most; identical ones once. */
BCW_INTERNAL int bcw__learned_seqs(bcw_tseqs *out, const bcw_learned *l,
                                   const bcw_unit *u, const bcw_step *steps,
                                   unsigned nsteps, const uint16_t *ctors,
                                   unsigned nctors, const uint16_t *methods,
                                   unsigned nmethods);
BCW_INTERNAL void bcw__tseqs_free(bcw_tseqs *s);

/* The learned walk's guide: which of the model's nodes take which step,
 * and the control edges between them. */
typedef struct bcw_lwalk {
    unsigned nnodes, nsteps;
    bool *takes;     /* [node * nsteps + step] */
    bool *root;      /* no control edge into it: a test's first call */
    bool *empty;     /* [step]: a cell unit's "(empty)" constructor */
    unsigned *start; /* node i's control successors: next[start[i] ..
                        start[i + 1]) */
    unsigned *next;
    bool *at; /* scratch: two sets of nodes */
} bcw_lwalk;

BCW_INTERNAL int bcw__lwalk_new(bcw_lwalk *w, const bcw_learned *l,
                                const bcw_unit *u, const bcw_step *steps,
                                unsigned nsteps);
BCW_INTERNAL void bcw__lwalk_free(bcw_lwalk *w);

/* Does the learned model have a path of calls of the unit along its
 * control edges that the steps seq[0..len] (constructor first) then
 * `next` take, each call passing values the model's node saw? */
BCW_INTERNAL bool bcw__lwalk_extends(bcw_lwalk *w, const uint16_t *seq,
                                     unsigned len, uint16_t next);

/* What the tests and the walk each reach that the other does not. */
typedef struct bcw_gaps {
    unsigned categories; /* categories the tests' values added */
    /* the walk's constructors and methods (steps) without them, and
     * with: how much they grow the walk */
    unsigned ctors_before, methods_before, ctors_after, methods_after;
    /* the growth the walk was held to (bcw_explore_opts' tests_growth;
     * 0: not held, the learned walk), and the categories dropped for it,
     * "fn(param): from tests: V (N calls)" */
    unsigned growth;
    bcw_strlist dropped;
    unsigned sequences;      /* the tests' sequences on the unit */
    unsigned longer;         /* of them, longer than the walk's depth */
    unsigned depth;          /* the walk's */
    bcw_strlist cut;         /* "test: why its sequence stops early" */
    bcw_strlist none;        /* "test: why it gave the walk no sequence" */
    bcw_strlist only_tests;  /* states only the tests' calls reach:
                                "name (test)" */
    bcw_strlist states;      /* design states no test reaches */
    bcw_strlist transitions; /* transitions no test makes */
    bcw_strlist methods;     /* walked functions no test calls */
    bcw_strlist unwalked;    /* the unit's functions the tests call that
                                the walk does not */
} bcw_gaps;

/* The gaps between the tests' sequences `ts` (probed, for the state
 * walk) and a walk of `depth` whose methods are `methods` and whose
 * states are `st` (NULL for the other walks). */
BCW_INTERNAL int bcw__learned_gaps(bcw_gaps *g, const bcw_learned *l,
                                   const bcw_tseqs *ts, const bcw_states *st,
                                   const bcw_unit *u, const bcw_step *steps,
                                   const uint16_t *ctors, unsigned nctors,
                                   const uint16_t *methods, unsigned nmethods,
                                   unsigned depth);
BCW_INTERNAL void bcw__gaps_free(bcw_gaps *g);

#endif
