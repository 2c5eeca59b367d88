/* pack.c - msgpack-c's write callback over bcw_buf, keeping the first
 * failure. */
#include "pack.h"

#include <string.h>

#include "hash.h"
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

/* The key (0xa8, a string of 8 bytes), then a uint64 in its fixed 9-byte
 * form (0xcf, 8 bytes big-endian).  In octal: after "\xa8", the 'c'
 * would be a hex digit. */
#define CHECKSUM_KEY "\250checksum\317"
#define CHECKSUM_TAIL (sizeof CHECKSUM_KEY - 1 + 8)

void bcw__pack_seal(bcw_pack *p)
{
    bcw__pack_str(&p->pk, "checksum");
    msgpack_pack_fix_uint64(&p->pk, 0);
    if (p->err != 0)
        return;
    uint64_t sum = bcw__hash(p->buf.data, p->buf.len - 8, 0);
    for (size_t i = 0; i < 8; i++)
        p->buf.data[p->buf.len - 1 - i] = (char)(sum >> (8 * i));
}

bool bcw__pack_sealed(const char *data, size_t len)
{
    if (len < CHECKSUM_TAIL || memcmp(data + len - CHECKSUM_TAIL, CHECKSUM_KEY,
                                      sizeof CHECKSUM_KEY - 1) != 0)
        return false;
    uint64_t sum = 0;
    for (size_t i = len - 8; i < len; i++)
        sum = sum << 8 | (unsigned char)data[i];
    return sum == bcw__hash(data, len - 8, 0);
}
