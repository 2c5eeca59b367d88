/* dict.c - a map from string keys the caller owns to ints, compared with
 * strcmp against the keys it copied, as cJSON finds an object's member by
 * name.  No condition compares a key with a literal, so each key is a
 * new string or the same one again ("a"): what dict_set stores under "a",
 * dict_get then finds (tests/e2e/categories.py). */
#include <stdlib.h>
#include <string.h>

#define DICT_MAX 8

typedef struct dict {
    char *keys[DICT_MAX];
    int values[DICT_MAX];
    int n;
} dict;

dict *dict_new(void)
{
    return calloc(1, sizeof(dict));
}

void dict_free(dict *d)
{
    for (int i = 0; i < d->n; i++)
        free(d->keys[i]);
    free(d);
}

static int find(const dict *d, const char *key)
{
    for (int i = 0; i < d->n; i++)
        if (strcmp(d->keys[i], key) == 0)
            return i;
    return -1;
}

/* stores value under a copy of key: 1, or 0 when full */
int dict_set(dict *d, const char *key, int value)
{
    int i = find(d, key);
    if (i < 0) {
        if (d->n == DICT_MAX || (d->keys[d->n] = strdup(key)) == NULL)
            return 0;
        i = d->n++;
    }
    d->values[i] = value;
    return 1;
}

/* the value stored under key, or -1 */
int dict_get(const dict *d, const char *key)
{
    int i = find(d, key);
    return i < 0 ? -1 : d->values[i];
}
