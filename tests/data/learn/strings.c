/* strings.c - a test program for examples/str.c: a string past the 64
 * bytes the tracer keeps, a test passing a bad pointer for a string (the
 * tracer reading it crashes like the library would), and a test after it
 * that still runs (tests/e2e/learn.py). */
#include <stddef.h>

typedef struct str str;
str *str_new(void);
int str_from(const char *init, str **out);
void str_free(str *s);
str *str_cat(str *s, const char *t);
size_t str_len(const str *s);

void test_long(void)
{
    str *s = NULL;
    str_from("ab", &s);
    s = str_cat(
        s, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
    str_len(s);
    str_free(s);
}

void test_bad_pointer(void)
{
    str *s = NULL;
    str_from((const char *)16, &s);
}

void test_after(void)
{
    str *s = str_new();
    s = str_cat(s, "cd");
    str_free(s);
}

int main(void)
{
    test_long();
    test_bad_pointer();
    test_after();
    return 0;
}
