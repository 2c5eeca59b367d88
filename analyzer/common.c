/* common.c - errors, the allocation wrapper, buffers, hashing and atomic
 * file writes shared by every module. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static _Thread_local char last_error[1024];
static unsigned long alloc_fail_countdown;

const char *bcw_error_last(void)
{
    return last_error;
}

int bcw__error(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return code;
}

void bcw__error_clear(void)
{
    last_error[0] = '\0';
}

void bcw__assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "bcwalk: internal error: assertion %s failed at %s:%d\n",
            expr, file, line);
    abort();
}

void bcw__alloc_fail_at(unsigned long nth)
{
    alloc_fail_countdown = nth;
}

static int alloc_should_fail(void)
{
    if (alloc_fail_countdown == 0)
        return 0;
    return --alloc_fail_countdown == 0;
}

static void *oom(size_t n)
{
    bcw__error(BCW_ENOMEM, "out of memory allocating %zu bytes", n);
    return NULL;
}

void *bcw__malloc(size_t n)
{
    void *p = alloc_should_fail() ? NULL : malloc(n ? n : 1);
    return p ? p : oom(n);
}

void *bcw__calloc(size_t n, size_t size)
{
    void *p = alloc_should_fail() ? NULL : calloc(n ? n : 1, size ? size : 1);
    return p ? p : oom(n * size);
}

void *bcw__realloc(void *old, size_t n)
{
    void *p = alloc_should_fail() ? NULL : realloc(old, n ? n : 1);
    return p ? p : oom(n);
}

char *bcw__strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = bcw__malloc(len + 1);
    if (p == NULL)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *bcw__strdup(const char *s)
{
    return bcw__strndup(s, strlen(s));
}

char *bcw__sprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    char *p = bcw__malloc((size_t)n + 1);
    if (p == NULL)
        return NULL;
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

int bcw__grow(void *pp, size_t *cap, size_t need, size_t size)
{
    void **p = pp;
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 8;
    while (n < need)
        n *= 2;
    void *q = bcw__realloc(*p, n * size);
    if (q == NULL)
        return BCW_ENOMEM;
    *p = q;
    *cap = n;
    return 0;
}

void bcw__buf_init(bcw_buf *b, size_t limit)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->limit = limit;
}

int bcw__buf_put(bcw_buf *b, const void *data, size_t n)
{
    if (b->len + n + 1 > b->limit)
        return bcw__error(BCW_ENOMEM, "buffer limit of %zu bytes reached",
                          b->limit);
    if (bcw__grow(&b->data, &b->cap, b->len + n + 1, 1) < 0)
        return BCW_ENOMEM;
    memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int bcw__buf_printf(bcw_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return bcw__error(BCW_ERROR, "vsnprintf failed");
    if ((size_t)n < sizeof small)
        return bcw__buf_put(b, small, (size_t)n);
    char *big = bcw__malloc((size_t)n + 1);
    if (big == NULL)
        return BCW_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int err = bcw__buf_put(b, big, (size_t)n);
    free(big);
    return err;
}

void bcw__buf_free(bcw_buf *b)
{
    free(b->data);
    bcw__buf_init(b, b->limit);
}

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL

static uint64_t rotl(uint64_t x, int r)
{
    return (x << r) | (x >> (64 - r));
}

uint64_t bcw__hash(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (P3 + n);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h ^= rotl(w * P2, 31) * P1;
        h = rotl(h, 27) * P1 + P3;
        p += 8;
        n -= 8;
    }
    while (n--) {
        h ^= *p++ * P3;
        h = rotl(h, 11) * P1;
    }
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

int bcw__write_file_atomic(const char *path, const void *data, size_t n)
{
    char *tmp = bcw__sprintf("%s.tmp.%ld", path, (long)getpid());
    if (tmp == NULL)
        return BCW_ENOMEM;
    int err = 0;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        err = bcw__error(BCW_ERROR, "open %s: %s", tmp, strerror(errno));
        goto done;
    }
    const char *p = data;
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            err = bcw__error(BCW_ERROR, "write %s: %s", tmp, strerror(errno));
            goto done;
        }
        p += w;
        n -= (size_t)w;
    }
    if (fsync(fd) < 0) {
        err = bcw__error(BCW_ERROR, "fsync %s: %s", tmp, strerror(errno));
        goto done;
    }
    if (close(fd) < 0) {
        fd = -1;
        err = bcw__error(BCW_ERROR, "close %s: %s", tmp, strerror(errno));
        goto done;
    }
    fd = -1;
    if (rename(tmp, path) < 0)
        err = bcw__error(BCW_ERROR, "rename %s to %s: %s", tmp, path,
                         strerror(errno));
done:
    if (fd >= 0)
        close(fd);
    if (err < 0)
        unlink(tmp);
    free(tmp);
    return err;
}

int bcw__read_file(char **out, size_t *len, const char *path, size_t limit)
{
    *out = NULL;
    *len = 0;
    int err = 0;
    char *data = NULL;
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return bcw__error(BCW_EINPUT, "%s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) < 0) {
        err = bcw__error(BCW_EINPUT, "%s: %s", path, strerror(errno));
        goto done;
    }
    if (!S_ISREG(st.st_mode)) {
        err = bcw__error(BCW_EINPUT, "%s: not a regular file", path);
        goto done;
    }
    if ((size_t)st.st_size > limit) {
        err = bcw__error(BCW_EINPUT, "%s: larger than %zu bytes", path, limit);
        goto done;
    }
    data = bcw__malloc((size_t)st.st_size + 1);
    if (data == NULL) {
        err = BCW_ENOMEM;
        goto done;
    }
    size_t got = fread(data, 1, (size_t)st.st_size, f);
    if (got != (size_t)st.st_size) {
        err = bcw__error(BCW_EINPUT, "%s: read failed", path);
        goto done;
    }
    data[got] = '\0';
    *out = data;
    *len = got;
    data = NULL;
done:
    free(data);
    fclose(f);
    return err;
}

char *bcw__c_quote(const char *s, char quote)
{
    bcw_buf b;
    bcw__buf_init(&b, 4096);
    int err = bcw__buf_put(&b, &quote, 1);
    for (const unsigned char *p = (const unsigned char *)s; *p && !err; p++) {
        if (*p == (unsigned char)quote || *p == '\\')
            err = bcw__buf_printf(&b, "\\%c", *p);
        else if (*p == '\n')
            err = bcw__buf_put(&b, "\\n", 2);
        else if (*p < 0x20 || *p >= 0x7f)
            err = bcw__buf_printf(&b, "\\x%02x", *p);
        else
            err = bcw__buf_put(&b, p, 1);
    }
    if (err == 0)
        err = bcw__buf_put(&b, &quote, 1);
    if (err == 0)
        err = bcw__buf_put(&b, "", 1);
    if (err < 0) {
        bcw__buf_free(&b);
        return NULL;
    }
    return b.data;
}

void bcw__json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\t':
            fputs("\\t", f);
            break;
        default:
            if (*p < 0x20)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

uint64_t bcw__hash_str(const char *s)
{
    return bcw__hash(s, strlen(s), 0);
}

uint64_t bcw__hash_ptr(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p * 0x9E3779B97F4A7C15ULL;
    return x ^ (x >> 29);
}

static void index_insert(bcw_index_slot *slots, size_t cap, uint64_t hash,
                         uint32_t value)
{
    size_t j = (size_t)hash & (cap - 1);
    while (slots[j].value != UINT32_MAX)
        j = (j + 1) & (cap - 1);
    slots[j].hash = hash;
    slots[j].value = value;
}

int bcw__index_put(bcw_index *ix, uint64_t hash, uint32_t value)
{
    if ((ix->len + 1) * 2 > ix->cap) {
        size_t ncap = ix->cap ? ix->cap * 2 : 64;
        bcw_index_slot *n = bcw__malloc(ncap * sizeof *n);
        if (n == NULL)
            return BCW_ENOMEM;
        for (size_t i = 0; i < ncap; i++)
            n[i].value = UINT32_MAX;
        for (size_t i = 0; i < ix->cap; i++)
            if (ix->slots[i].value != UINT32_MAX)
                index_insert(n, ncap, ix->slots[i].hash, ix->slots[i].value);
        free(ix->slots);
        ix->slots = n;
        ix->cap = ncap;
    }
    index_insert(ix->slots, ix->cap, hash, value);
    ix->len++;
    return 0;
}

uint32_t bcw__index_get(const bcw_index *ix, uint64_t hash,
                        int (*match)(uint32_t value, const void *payload),
                        const void *payload)
{
    if (ix->cap == 0)
        return UINT32_MAX;
    for (size_t j = (size_t)hash & (ix->cap - 1);
         ix->slots[j].value != UINT32_MAX; j = (j + 1) & (ix->cap - 1))
        if (ix->slots[j].hash == hash && match(ix->slots[j].value, payload))
            return ix->slots[j].value;
    return UINT32_MAX;
}

void bcw__index_free(bcw_index *ix)
{
    free(ix->slots);
    ix->slots = NULL;
    ix->cap = ix->len = 0;
}

int bcw__mkdir_p(const char *path)
{
    char *p = bcw__strdup(path);
    if (p == NULL)
        return BCW_ENOMEM;
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0755) < 0 && errno != EEXIST) {
            int err = bcw__error(BCW_ERROR, "mkdir %s: %s", p, strerror(errno));
            free(p);
            return err;
        }
        *s = '/';
    }
    int err = 0;
    if (mkdir(p, 0755) < 0 && errno != EEXIST)
        err = bcw__error(BCW_ERROR, "mkdir %s: %s", p, strerror(errno));
    free(p);
    return err;
}

char *bcw__cache_root(const char *dir)
{
    if (dir != NULL)
        return bcw__strdup(dir);
    const char *xdg = getenv("XDG_CACHE_HOME");
    if (xdg != NULL && xdg[0] == '/')
        return bcw__sprintf("%s/bcwalk", xdg);
    const char *home = getenv("HOME");
    if (home != NULL && home[0] == '/')
        return bcw__sprintf("%s/.cache/bcwalk", home);
    return bcw__sprintf("/tmp/bcwalk-cache-%ld", (long)getuid());
}

int bcw__hash_file(uint64_t *h, const char *path)
{
    char *data;
    size_t len;
    int err = bcw__read_file(&data, &len, path, (size_t)1 << 32);
    if (err < 0)
        return err;
    *h = bcw__hash(data, len, *h);
    free(data);
    return 0;
}
