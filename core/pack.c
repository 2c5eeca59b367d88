/* pack.c - msgpack-c's write callback over bcw_buf, keeping the first
 * failure. */
#include "pack.h"

#include <string.h>

#include "text.h"

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
    if (!bcw__utf8_valid(s, n)) {
        /* msgpack's str is UTF-8: other bytes (a Latin-1 literal, a state
         * named in Latin-1) are bin, which strict readers accept */
        msgpack_pack_bin(pk, n);
        msgpack_pack_bin_body(pk, s, n);
        return;
    }
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
