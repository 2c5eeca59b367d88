/* test_text.c - strings written as JSON (valid UTF-8 whatever the bytes)
 * and as C literals. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "text.h"

/* bcw__json_str(s) as a string; the caller's. */
static char *json(const char *s)
{
    char *out = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&out, &n);
    assert_non_null(f);
    bcw__json_str(f, s);
    assert_int_equal(fclose(f), 0);
    assert_true(bcw__utf8_valid(out, n));
    return out;
}

static void assert_json(const char *s, const char *want)
{
    char *got = json(s);
    assert_string_equal(got, want);
    free(got);
}

static void test_text__utf8_sequences(void **state)
{
    (void)state;
    assert_int_equal(bcw__utf8_seq("a", 1), 1);
    assert_int_equal(bcw__utf8_seq("\xc3\xaf", 2), 2);
    assert_int_equal(bcw__utf8_seq("\xe2\x82\xac", 3), 3);
    assert_int_equal(bcw__utf8_seq("\xf0\x9f\x98\x80", 4), 4);
    /* the edges of each range */
    assert_int_equal(bcw__utf8_seq("\xc2\x80", 2), 2);         /* U+0080 */
    assert_int_equal(bcw__utf8_seq("\xe0\xa0\x80", 3), 3);     /* U+0800 */
    assert_int_equal(bcw__utf8_seq("\xed\x9f\xbf", 3), 3);     /* U+D7FF */
    assert_int_equal(bcw__utf8_seq("\xee\x80\x80", 3), 3);     /* U+E000 */
    assert_int_equal(bcw__utf8_seq("\xf0\x90\x80\x80", 4), 4); /* U+10000 */
    assert_int_equal(bcw__utf8_seq("\xf4\x8f\xbf\xbf", 4), 4); /* U+10FFFF */
    /* none: empty, continuation, overlong, surrogate, too high, cut */
    assert_int_equal(bcw__utf8_seq("", 0), 0);
    assert_int_equal(bcw__utf8_seq("\x80", 1), 0);
    assert_int_equal(bcw__utf8_seq("\xc1\xbf", 2), 0);
    assert_int_equal(bcw__utf8_seq("\xe0\x9f\xbf", 3), 0);
    assert_int_equal(bcw__utf8_seq("\xf0\x8f\xbf\xbf", 4), 0);
    assert_int_equal(bcw__utf8_seq("\xed\xa0\x80", 3), 0);
    assert_int_equal(bcw__utf8_seq("\xf4\x90\x80\x80", 4), 0);
    assert_int_equal(bcw__utf8_seq("\xf5\x80\x80\x80", 4), 0);
    assert_int_equal(bcw__utf8_seq("\xe2\x82\xac", 2), 0);
    assert_int_equal(bcw__utf8_seq("\xe2\x82x", 3), 0);
    assert_true(bcw__utf8_valid("na\xc3\xafve", 6));
    assert_false(bcw__utf8_valid("caf\xe9", 4));
}

static void test_text__utf8_clean_replaces_invalid_bytes(void **state)
{
    (void)state;
    /* a mutated name, a name cut inside a character, a good one */
    char mutated[] = "i\xf3t", cut[] = "na\xc3", good[] = "na\xc3\xafve";
    bcw__utf8_clean(mutated);
    bcw__utf8_clean(cut);
    bcw__utf8_clean(good);
    assert_string_equal(mutated, "i?t");
    assert_string_equal(cut, "na?");
    assert_string_equal(good, "na\xc3\xafve");
}

static void test_text__json_escapes_quotes_and_controls(void **state)
{
    (void)state;
    assert_json("", "\"\"");
    assert_json("a \"b\" \\c", "\"a \\\"b\\\" \\\\c\"");
    assert_json("tab\there\nnl\x01\x1f\x7f",
                "\"tab\\there\\nnl\\u0001\\u001f\x7f\"");
}

static void test_text__json_passes_valid_utf8(void **state)
{
    (void)state;
    assert_json(
        "na\xc3\xafve \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf",
        "\"na\xc3\xafve \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf\"");
}

static void test_text__json_escapes_each_invalid_byte(void **state)
{
    (void)state;
    /* Latin-1 */
    assert_json("caf\xe9", "\"caf\\udce9\"");
    assert_json("d\xe9"
                "cor",
                "\"d\\udce9cor\"");
    /* lone continuation bytes */
    assert_json("\x80lone\xbf", "\"\\udc80lone\\udcbf\"");
    /* overlong forms of '/' */
    assert_json("\xc0\xaf", "\"\\udcc0\\udcaf\"");
    assert_json("\xe0\x80\xaf", "\"\\udce0\\udc80\\udcaf\"");
    assert_json("\xf0\x80\x80\xaf", "\"\\udcf0\\udc80\\udc80\\udcaf\"");
    /* the surrogate U+D800 encoded */
    assert_json("\xed\xa0\x80sur", "\"\\udced\\udca0\\udc80sur\"");
    /* bytes above F4, and F4 past U+10FFFF */
    assert_json("\xf5\x80\xff", "\"\\udcf5\\udc80\\udcff\"");
    assert_json("\xf4\x90\x80\x80", "\"\\udcf4\\udc90\\udc80\\udc80\"");
    /* a sequence cut at the end, and in the middle */
    assert_json("cut\xe2\x82", "\"cut\\udce2\\udc82\"");
    assert_json("\xf0\x9f\x98", "\"\\udcf0\\udc9f\\udc98\"");
    assert_json("\xe2\x82x\xe2\x82\xac", "\"\\udce2\\udc82x\xe2\x82\xac\"");
}

static void test_text__c_quote_escapes_bytes(void **state)
{
    (void)state;
    char *q = bcw__c_quote("caf\xe9 \"q\"\n\t\\", '"');
    assert_string_equal(q, "\"caf\\xe9 \\\"q\\\"\\n\\x09\\\\\"");
    free(q);
    /* a hex digit after a \x escape would join it: the literal splits */
    q = bcw__c_quote("d\xe9"
                     "cor \x01"
                     "f \x7f"
                     "g",
                     '"');
    assert_string_equal(q, "\"d\\xe9\"\"cor \\x01\"\"f \\x7fg\"");
    free(q);
    q = bcw__c_quote("'", '\'');
    assert_string_equal(q, "'\\''");
    free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text__utf8_sequences),
        cmocka_unit_test(test_text__utf8_clean_replaces_invalid_bytes),
        cmocka_unit_test(test_text__json_escapes_quotes_and_controls),
        cmocka_unit_test(test_text__json_passes_valid_utf8),
        cmocka_unit_test(test_text__json_escapes_each_invalid_byte),
        cmocka_unit_test(test_text__c_quote_escapes_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
