/* fmt.c - values that carry their own printer, as json-c's objects
 * carry their serializer: the library installs fmt_text, a static
 * function, on text values only, and val_set_format lets a caller pick
 * another.  No caller can name a static function, so the walk gives
 * val_set_format only the library's external printers (fmt_number),
 * never fmt_text on a number, whose NULL text it would read
 * (tests/e2e/callbacks.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct val;
typedef int fmt_fn(const struct val *v, char *out, size_t n);

typedef struct val {
    int number;
    char *text;
    fmt_fn *fmt;
} val;

static int fmt_text(const val *v, char *out, size_t n)
{
    size_t len = strlen(v->text);
    return snprintf(out, n, "\"%.*s\"", (int)len, v->text);
}

int fmt_number(const val *v, char *out, size_t n)
{
    return snprintf(out, n, "%d", v->number);
}

val *val_new_number(int number)
{
    val *v = calloc(1, sizeof *v);
    if (v != NULL) {
        v->number = number;
        v->fmt = fmt_number;
    }
    return v;
}

val *val_new_text(const char *text)
{
    val *v = calloc(1, sizeof *v);
    if (v != NULL && (v->text = strdup(text)) == NULL) {
        free(v);
        return NULL;
    }
    if (v != NULL)
        v->fmt = fmt_text;
    return v;
}

void val_free(val *v)
{
    free(v->text);
    free(v);
}

void val_set_format(val *v, fmt_fn *fmt)
{
    v->fmt = fmt;
}

/* the value as text into out (n bytes): its length */
int val_print(const val *v, char *out, size_t n)
{
    return v->fmt(v, out, n);
}
