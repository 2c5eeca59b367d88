/* generator.h - custom generators: user code that supplies the argument
 * values of a walk in place of bcwalk's master generator (JWalk's
 * CustomGenerator).
 *
 * bcwalk draws every argument that is not the unit itself from its master
 * generator: quasi-unique values in call order within a sequence (ints
 * 1, 2, 3 ..., chars 'a', 'b' ..., strings from a fixed list) or, where Z3
 * split a parameter into categories, each category's representative.  A
 * custom generator takes over the parameters it chooses, and hands any
 * single draw back to the master.  It is a C file defining one constant:
 *
 *     #include <bcwalk/generator.h>
 *
 *     static int handles(const bcw_gen_param *p, void *payload) { ... }
 *     static int next(const bcw_gen_param *p, bcw_gen_value *out,
 *                     void *payload) { ... }
 *     static void reset(void *payload) { ... }
 *
 *     const bcw_generator bcw_generator_main = {
 *         BCW_GENERATOR_VERSION, "mine", handles, next, reset, NULL};
 *
 * and is named on the command line:
 *
 *     bcwalk explore lib.bc --unit U --generator mine.c
 *
 * A .c file is compiled by bcwalk (clang -shared -fPIC -O1, with this
 * header on the include path), a .bc file is linked the same way, a .so is
 * loaded as it is; builds are cached by content.  examples/gen_index.c is
 * JWalk's IndexGenerator (0, 0, 1, 1, 2, 2 ...).
 *
 * Determinism.  The code under test runs in worker processes while bcwalk
 * prints the report in its own process, so the generator runs on both
 * sides: the worker calls it to make the calls, bcwalk calls it again to
 * show the same arguments.  Both see the same calls in the same order
 * after the same reset(), and must get the same values: a generator's
 * values may depend only on its parameters and on the calls since the
 * last reset(), never on time, randomness, files or addresses.  Keep its
 * state in static variables (or behind `payload`) and clear all of it in
 * reset().
 *
 * Failures.  A generator runs in-process, unprotected: if it crashes in a
 * worker, the sequence in flight is reported as a crash; if it crashes
 * while bcwalk replays it, bcwalk crashes.  It must not call into the code
 * under test. */
#ifndef BCWALK_GENERATOR_H
#define BCWALK_GENERATOR_H

#include <stdint.h>

/* The version of this interface; bcw_generator.version must equal it.
 * bcwalk refuses a generator built against another version. */
#define BCW_GENERATOR_VERSION 1

/* The symbol bcwalk looks up in the generator's shared object. */
#define BCW_GENERATOR_SYMBOL "bcw_generator_main"

/* Return values of next(). */
#define BCW_GEN_OK 0 /* *out holds the value */
#define BCW_GEN_DELEGATE                                                       \
    1 /* use the master generator's next value for                             \
         this parameter (any value but BCW_GEN_OK                              \
         means this too) */

/* A parameter bcwalk asks about.  Every string is borrowed from bcwalk and
 * valid only during the call it is passed to: copy what you keep. */
typedef struct bcw_gen_param {
    const char *function; /* the function called: "bstack_push" */
    const char *name;     /* the parameter's name from debug info ("x"), or
                             "p<index>" without it */
    const char *ctype;    /* its C type as written: "int", "const char *",
                             "enum mode"; a guess without debug info */
    const char *kind;     /* what bcwalk takes it for, as `bcwalk analyze
                             --format json` shows it: "int", "enum",
                             "bool", "char", "float", "string" (a C
                             string) or "element" (a `void *` element) */
    unsigned index;       /* its position: 0 for the first parameter */
    unsigned bits;        /* width: 8, 16, 32 or 64 for integers, enums
                             and chars; 32 or 64 for floats (float,
                             double); 1 for bool; 0 for pointers */
    int is_signed;        /* 1 for signed integer types */
    unsigned categories;  /* how many Z3 categories bcwalk found for it:
                             handling such a parameter replaces them (the
                             function is then called once, not once per
                             category); 0 if none */
} bcw_gen_param;

/* A generated value; next() sets the member the parameter's kind uses. */
typedef struct bcw_gen_value {
    /* "int", "enum", "char": the value, truncated to the parameter's
       width; "bool": 0 is false, anything else true; "element": which
       element cell to pass, 0 to 4095 (taken modulo 4096), shown as
       Obj#<n>, the cells the master generator hands out too */
    int64_t i;
    /* "float": the value, rounded to float for a float parameter */
    double f;
    /* "string": the string to pass, or NULL to pass a NULL pointer.
       Borrowed: bcwalk copies it at once (into the sequence's 1 MiB
       arena; a longer total aborts the sequence), so a string literal or
       a static buffer reused on the next call is fine. */
    const char *s;
} bcw_gen_value;

/* A custom generator: what the user's file exports, as a constant named
 * bcw_generator_main. */
typedef struct bcw_generator {
    /* BCW_GENERATOR_VERSION */
    int version;

    /* A short name for messages, or NULL. */
    const char *name;

    /* Does the generator make the values of parameter *p?  Non-zero: yes,
     * every value of this parameter comes from next() (which may still
     * delegate one draw or all); 0: the master generator keeps it.  Asked
     * once per parameter of each function of the unit, in bcwalk's
     * process only, before the walk starts: the answer must depend on *p
     * alone.  Parameters bcwalk makes itself (the unit, out-parameters,
     * buffers and their lengths, callbacks, other units) are never
     * offered.  NULL: every offered parameter is handled. */
    int (*handles)(const bcw_gen_param *p, void *payload);

    /* The next value for parameter *p, a parameter handles() took, into
     * *out (zeroed by bcwalk before the call).  Returns BCW_GEN_OK, or
     * BCW_GEN_DELEGATE to pass the master generator's next value for
     * this parameter instead (JWalk's delegation back to the owner).
     * Called once per call of the function, parameters left to right,
     * calls in sequence order, after the sequence's reset().  Required. */
    int (*next)(const bcw_gen_param *p, bcw_gen_value *out, void *payload);

    /* Called at the start of every sequence, before its first next():
     * return to the initial state, as the master generator does.  A
     * generator whose values depend on nothing before may leave it NULL. */
    void (*reset)(void *payload);

    /* Passed to the three functions as is. */
    void *payload;
} bcw_generator;

#endif
