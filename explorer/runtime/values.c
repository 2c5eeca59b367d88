/* values.c - the master generator and value formatting, shared by the
 * worker (draws) and the parent (prints the same draws). */
#include "values.h"

#include <stdio.h>
#include <string.h>

const char *const bcw_gen_strings[BCW_STRINGS] = {
    "a", "", "hello", "Hello, World!", "0", "a longer string of 32 chars.."};

int64_t bcw_value_int(enum bcw_abi abi, uint64_t raw)
{
    switch (abi) {
    case BCW_ABI_BOOL:
        return (raw & 0xff) != 0;
    case BCW_ABI_S8:
        return (int8_t)raw;
    case BCW_ABI_U8:
        return (uint8_t)raw;
    case BCW_ABI_S16:
        return (int16_t)raw;
    case BCW_ABI_U16:
        return (uint16_t)raw;
    case BCW_ABI_S32:
        return (int32_t)raw;
    case BCW_ABI_U32:
        return (uint32_t)raw;
    default:
        return (int64_t)raw;
    }
}

static char *format_pointer(char *buf, size_t n, uint64_t raw)
{
    uint64_t tag = raw & (0xffull << 56), k = raw & ((1ull << 56) - 1);
    if (raw == BCW_PTR_NULL)
        snprintf(buf, n, "NULL");
    else if (tag == BCW_PTR_TARGET)
        snprintf(buf, n, "#0");
    else if (tag == BCW_PTR_CELL)
        snprintf(buf, n, "Obj#%llu", (unsigned long long)k);
    else
        snprintf(buf, n, "ptr#%llu", (unsigned long long)k);
    return buf;
}

/* One of bcw_gen_strings as a C literal: they are printable ASCII, so
 * only quotes and backslashes need escapes (strings from elsewhere go
 * through the reports' bcw__c_quote). */
static void format_string(char *buf, size_t n, const char *s)
{
    size_t j = 0;
    if (n < 4)
        return;
    buf[j++] = '"';
    for (; *s && j + 3 < n; s++) {
        if (*s == '"' || *s == '\\')
            buf[j++] = '\\';
        buf[j++] = *s;
    }
    buf[j++] = '"';
    buf[j] = '\0';
}

char *bcw_value_format(char *buf, size_t n, enum bcw_pkind kind,
                       enum bcw_abi abi, uint64_t raw, int is_result)
{
    switch (kind) {
    case BCW_PK_UNIT:
        if (is_result)
            return format_pointer(buf, n, raw);
        snprintf(buf, n, "target");
        break;
    case BCW_PK_BOOL:
        snprintf(buf, n, "%s", bcw_value_int(abi, raw) ? "true" : "false");
        break;
    case BCW_PK_CHAR: {
        int64_t c = bcw_value_int(abi, raw);
        if (c >= 32 && c < 127 && c != '\'' && c != '\\')
            snprintf(buf, n, "'%c'", (char)c);
        else
            snprintf(buf, n, "%lld", (long long)c);
        break;
    }
    case BCW_PK_INT:
        if (abi == BCW_ABI_U64)
            snprintf(buf, n, "%llu", (unsigned long long)raw);
        else
            snprintf(buf, n, "%lld", (long long)bcw_value_int(abi, raw));
        break;
    case BCW_PK_FLOAT:
        if (abi == BCW_ABI_FLOAT) {
            float f;
            uint32_t bits = (uint32_t)raw;
            memcpy(&f, &bits, sizeof f);
            snprintf(buf, n, "%g", (double)f);
        } else {
            double d;
            memcpy(&d, &raw, sizeof d);
            snprintf(buf, n, "%g", d);
        }
        break;
    case BCW_PK_STRING:
        if (is_result)
            return format_pointer(buf, n, raw);
        format_string(buf, n, bcw_gen_strings[raw % BCW_STRINGS]);
        break;
    case BCW_PK_ELEMENT:
        if (is_result)
            return format_pointer(buf, n, raw);
        if (raw == BCW_ELEMENT_NULL)
            snprintf(buf, n, "NULL");
        else
            snprintf(buf, n, "Obj#%llu", (unsigned long long)raw);
        break;
    case BCW_PK_OUT:
        if (is_result)
            return bcw_value_format(
                buf, n,
                abi == BCW_ABI_FLOAT || abi == BCW_ABI_DOUBLE ? BCW_PK_FLOAT
                : abi == BCW_ABI_S8 || abi == BCW_ABI_U8      ? BCW_PK_CHAR
                : abi == BCW_ABI_PTR                          ? BCW_PK_ELEMENT
                                                              : BCW_PK_INT,
                abi, raw, 1);
        snprintf(buf, n, "&out");
        break;
    case BCW_PK_SCRATCH:
    case BCW_PK_UNIT_REF:
        snprintf(buf, n, "&scratch");
        break;
    case BCW_PK_FILE:
        snprintf(buf, n, "stream");
        break;
    case BCW_PK_BUFFER:
        snprintf(buf, n, "bytes[%d]", BCW_BUFFER_BYTES);
        break;
    case BCW_PK_UNIT_OUT:
    case BCW_PK_UNIT_CELL:
        snprintf(buf, n, "&target");
        break;
    case BCW_PK_UNIT_DEREF:
        snprintf(buf, n, "target");
        break;
    case BCW_PK_HANDLE: /* raw: the canonical pointer given out */
        return format_pointer(buf, n, raw);
    case BCW_PK_CALLBACK:
        snprintf(buf, n, "NULL");
        break;
    case BCW_PK_ENUM:
    case BCW_PK_LENGTH:
        return bcw_value_format(buf, n, BCW_PK_INT, abi, raw, is_result);
    case BCW_PK_NONE:
        snprintf(buf, n, "void");
        break;
    case BCW_PK_STRUCT: /* its elements are shown by the report */
        snprintf(buf, n, "{...}");
        break;
    }
    return buf;
}
