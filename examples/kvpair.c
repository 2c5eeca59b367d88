/* kvpair.c - a parser whose constructor gives up on text without its
 * separator: kv_parse returns NULL unless strchr finds '=' in the text,
 * and kv_value is empty unless strstr finds "://" in it.  bcwalk's
 * categories for the text come from those searches ("a=", "a://") as
 * well as from comparisons, so the walk gets past the parser. */
#include <stdlib.h>
#include <string.h>

typedef struct kv {
    char *key, *value;
    int url; /* the text held "://" */
} kv;

kv *kv_parse(const char *text)
{
    const char *eq = strchr(text, '=');
    if (eq == NULL)
        return NULL;
    kv *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->key = strndup(text, (size_t)(eq - text));
    p->value = strdup(eq + 1);
    p->url = strstr(text, "://") != NULL;
    if (p->key == NULL || p->value == NULL) {
        free(p->key);
        free(p->value);
        free(p);
        return NULL;
    }
    return p;
}

const char *kv_key(const kv *p)
{
    return p->key;
}

const char *kv_value(const kv *p)
{
    return p->value;
}

int kv_is_url(const kv *p)
{
    return p->url;
}

void kv_free(kv *p)
{
    free(p->key);
    free(p->value);
    free(p);
}
