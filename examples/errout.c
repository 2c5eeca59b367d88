/* errout.c - an error report the caller may give or leave NULL:
 * eo_parse fills the caller's struct eo_error, or a placeholder of its
 * own when given NULL (as json-c's json_patch_apply does).  That struct
 * is what the call writes, not an argument bcwalk made up and the call
 * reads: a halt after it is the unit's own, never suspect. */
#include <stddef.h>
#include <stdlib.h>

struct eo_error {
    int code;
    const char *what;
    size_t at;
};

typedef struct eo {
    int *vals;
    size_t n;
} eo;

eo *eo_new(void)
{
    return calloc(1, sizeof(eo));
}

/* takes `count` values 1, 2, ...; why it stopped goes into *err (or a
 * placeholder) */
int eo_parse(eo *e, int count, struct eo_error *err)
{
    struct eo_error placeholder;
    if (err == NULL)
        err = &placeholder;
    err->code = 0;
    err->what = NULL;
    err->at = 0;
    if (count < 0) {
        err->code = 1;
        err->what = "a negative count";
        return -1;
    }
    int *vals = realloc(e->vals, (size_t)count * sizeof *vals + 1);
    if (vals == NULL) {
        err->code = 2;
        err->what = "out of memory";
        return -1;
    }
    for (int i = 0; i < count; i++)
        vals[i] = i + 1;
    e->vals = vals;
    e->n = (size_t)count;
    err->at = e->n;
    return 0;
}

/* the first value; none is the caller's mistake */
int eo_first(const eo *e)
{
    if (e->n == 0)
        abort();
    return e->vals[0];
}

void eo_free(eo *e)
{
    free(e->vals);
    free(e);
}
