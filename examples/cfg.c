/* cfg.c - a settings store whose methods compare a string argument with
 * literals (strcmp), test its first character and its length: the
 * categories of a string parameter come from these comparisons.  Return
 * codes: 0 done, 1 a comment (or already so), -1 unknown key, command
 * or mode, -2 bad value, -3 too long.  cfg_set_mode switches on an
 * enum. */
#include <stdlib.h>
#include <string.h>

enum cfg_mode { CFG_TEXT, CFG_COLOR, CFG_MONO = 8 };

typedef struct cfg {
    int width, height;
    int verbose;
    enum cfg_mode mode;
} cfg;

cfg *cfg_new(void)
{
    cfg *c = calloc(1, sizeof *c);
    if (c != NULL) {
        c->width = 80;
        c->height = 24;
    }
    return c;
}

void cfg_free(cfg *c)
{
    free(c);
}

int cfg_set(cfg *c, const char *key, int value)
{
    if (strcmp(key, "width") == 0) {
        if (value <= 0)
            return -2;
        c->width = value;
        return 0;
    }
    if (strcmp(key, "height") == 0) {
        if (value <= 0)
            return -2;
        c->height = value;
        return 0;
    }
    if (strcmp(key, "verbose") == 0) {
        c->verbose = value != 0;
        return 0;
    }
    return -1;
}

int cfg_get(const cfg *c, const char *key)
{
    if (strcmp(key, "width") == 0)
        return c->width;
    if (strcmp(key, "height") == 0)
        return c->height;
    if (strcmp(key, "verbose") == 0)
        return c->verbose;
    return -1;
}

/* 0 done, 1 already in that mode, -1 not a mode.  The case values and
 * the current mode both decide: a mode that is no case must also differ
 * from the current one to reach `default`. */
int cfg_set_mode(cfg *c, enum cfg_mode mode)
{
    if (c->mode == mode)
        return 1;
    switch (mode) {
    case CFG_TEXT:
    case CFG_COLOR:
    case CFG_MONO:
        c->mode = mode;
        return 0;
    default:
        return -1;
    }
}

/* One line of a settings file: "# ..." is a comment, "reset" resets. */
int cfg_command(cfg *c, const char *line)
{
    if (line[0] == '#')
        return 1;
    if (strlen(line) > 16)
        return -3;
    if (strcmp(line, "reset") == 0) {
        c->width = 80;
        c->height = 24;
        c->verbose = 0;
        return 0;
    }
    return -1;
}

/* A checksum of settings data: the sum of its bytes plus the width. */
unsigned cfg_checksum(const cfg *c, const unsigned char *data, size_t len)
{
    unsigned sum = (unsigned)c->width;
    for (size_t i = 0; i < len; i++)
        sum += data[i];
    return sum;
}
