/* gen_index.c - JWalk's IndexGenerator as a bcwalk custom generator:
 * int parameters get repeating pairs 0, 0, 1, 1, 2, 2 ... within each
 * sequence, so a put and a get can meet at the same index; everything
 * else is left to the master generator.
 *
 *     bcwalk explore lib.bc --unit U --generator examples/gen_index.c */
#include <bcwalk/generator.h>
#include <string.h>

static int seed = -1;
static int repeat;

/* Plain integers only: enums, chars and bools keep the master's values. */
static int handles(const bcw_gen_param *p, void *payload)
{
    (void)payload;
    return strcmp(p->kind, "int") == 0;
}

static int next(const bcw_gen_param *p, bcw_gen_value *out, void *payload)
{
    (void)p, (void)payload;
    if (repeat) {
        repeat = 0; /* the value given last time */
    } else {
        repeat = 1;
        seed++; /* a new value */
    }
    out->i = seed;
    return BCW_GEN_OK;
}

/* Every sequence starts again from 0, as the master starts from 1. */
static void reset(void *payload)
{
    (void)payload;
    seed = -1;
    repeat = 0;
}

const bcw_generator bcw_generator_main = {
    BCW_GENERATOR_VERSION, "index", handles, next, reset, NULL};
