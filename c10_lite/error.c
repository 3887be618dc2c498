/* c10_lite/error.c - the thread-local error message. See Note [Error convention]. */
#include "c10_lite/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MT__ERRMSG_CAP 1024

static _Thread_local char mt__errmsg[MT__ERRMSG_CAP];
static _Thread_local int mt__errcode;

int
mt_error_set(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mt__errmsg, sizeof(mt__errmsg), fmt, ap);
    va_end(ap);
    mt__errcode = code;
    return code;
}

int
mt_error_prefix(int code, const char *fmt, ...)
{
    char old[MT__ERRMSG_CAP];
    memcpy(old, mt__errmsg, sizeof(old));
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(mt__errmsg, sizeof(mt__errmsg), fmt, ap);
    va_end(ap);
    size_t len = n < 0 ? 0 : (size_t)n;
    if (len + 2 < sizeof(mt__errmsg)) { /* append ": <old>", truncated to fit */
        memcpy(mt__errmsg + len, ": ", 2);
        len += 2;
        size_t k = strnlen(old, sizeof(mt__errmsg) - 1 - len);
        memcpy(mt__errmsg + len, old, k);
        mt__errmsg[len + k] = '\0';
    }
    mt__errcode = code;
    return code;
}

const char *
mt_error_message(void)
{
    return mt__errmsg[0] ? mt__errmsg : "unknown error";
}

int
mt_error_code(void)
{
    return mt__errcode;
}

void
mt_error_clear(void)
{
    mt__errmsg[0] = '\0';
    mt__errcode = 0;
}
