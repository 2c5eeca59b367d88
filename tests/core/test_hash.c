/* test_hash.c - the results file's checksum: written in pieces of any
 * size, it is the checksum a reader takes of the whole, and it sees any
 * byte changed. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hash.h"

/* A file's worth of bytes: past XXH3's stripes and blocks, in no whole
 * number of them. */
#define M ((size_t)1 << 20)
#define N (3 * M + 12345)

static unsigned char *bytes(void)
{
    unsigned char *p = malloc(N);
    assert_non_null(p);
    uint64_t x = 0x243F6A8885A308D3ULL;
    for (size_t i = 0; i < N; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        p[i] = (unsigned char)(x >> 56);
    }
    return p;
}

static void test_hash__pieces_sum_as_the_whole(void **state)
{
    (void)state;
    unsigned char *p = bytes();
    uint64_t whole = bcw__checksum(p, N);
    /* small pieces, and pieces of a MiB and more from anywhere */
    const size_t sizes[][4] = {
        {1, 7, 100, 65536}, {M, 3, M + 5, 1}, {13, 2 * M, 29, 4096}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        bcw_hasher h;
        assert_int_equal(bcw__hasher_init(&h), 0);
        for (size_t at = 0, k = 0; at < N; k++) {
            size_t n = sizes[s][k % 4] < N - at ? sizes[s][k % 4] : N - at;
            bcw__hasher_add(&h, p + at, n);
            at += n;
        }
        assert_true(bcw__hasher_end(&h) == whole);
    }
    free(p);
}

static void test_hash__any_byte_changed_changes_it(void **state)
{
    (void)state;
    unsigned char *p = bytes();
    uint64_t whole = bcw__checksum(p, N);
    /* the first, last and some between */
    const size_t at[] = {0, 9, 17, 31, 32, M - 1, M, N - 12345, N - 1};
    for (size_t i = 0; i < sizeof at / sizeof *at; i++) {
        p[at[i]] ^= 0x10;
        assert_true(bcw__checksum(p, N) != whole);
        p[at[i]] ^= 0x10;
    }
    /* a byte less, or two words swapped */
    assert_true(bcw__checksum(p, N - 1) != whole);
    unsigned char w[8];
    memcpy(w, p + 64, 8);
    memcpy(p + 64, p + 72, 8);
    memcpy(p + 72, w, 8);
    assert_true(bcw__checksum(p, N) != whole);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash__pieces_sum_as_the_whole),
        cmocka_unit_test(test_hash__any_byte_changed_changes_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
