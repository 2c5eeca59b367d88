/* pack.c - msgpack-c's write callback over bcw_buf, keeping the first
 * failure. */
#include "pack.h"

#include <string.h>

static int pack_write(void *data, const char *bytes, size_t len)
{
    bcw_pack *p = data;
    if (p->err == 0 && p->buf.len + len + 1 > p->buf.limit)
        p->err = bcw__error(BCW_ERROR, "%s is larger than %zu bytes", p->what,
                            p->buf.limit);
    if (p->err == 0)
        p->err = bcw__buf_put(&p->buf, bytes, len);
    return p->err == 0 ? 0 : -1;
}

void bcw__pack_init(bcw_pack *p, const char *what, size_t limit)
{
    bcw__buf_init(&p->buf, limit);
    p->what = what;
    p->err = 0;
    msgpack_packer_init(&p->pk, p, pack_write);
}

void bcw__pack_str(msgpack_packer *pk, const char *s)
{
    if (s == NULL) {
        msgpack_pack_nil(pk);
        return;
    }
    size_t n = strlen(s);
    msgpack_pack_str(pk, n);
    msgpack_pack_str_body(pk, s, n);
}

void bcw__pack_clear(bcw_pack *p)
{
    p->buf.len = 0;
}

void bcw__pack_free(bcw_pack *p)
{
    bcw__buf_free(&p->buf);
}
