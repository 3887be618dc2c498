/* c10_lite/error.h - status codes and a thread-local error message for the plain-C layers. */
#ifndef C10_LITE_ERROR_H
#define C10_LITE_ERROR_H

/* Note [Error convention]
 * Every fallible C function returns an int status (0 on success, a negative
 * MT_E* code on failure) or a pointer (NULL on failure).  On failure it stores
 * a human-readable message in a thread-local buffer with mt_error_set(); the
 * CPython binding (csrc/errors.c) turns (code, message) into the matching
 * Python exception.  A function that fails leaves its outputs unmodified
 * unless its contract says otherwise. */

enum {
    MT_OK = 0,
    MT_EINVAL = -1,    /* bad value          -> ValueError          */
    MT_ETYPE = -2,     /* bad type/dtype     -> TypeError           */
    MT_EINDEX = -3,    /* out of range index -> IndexError          */
    MT_ERUNTIME = -4,  /* generic failure    -> RuntimeError        */
    MT_ENOMEM = -5,    /* allocation failed  -> MemoryError         */
    MT_ENOTIMPL = -6,  /* not implemented    -> NotImplementedError */
    MT_ETIMEOUT = -7,  /* a wait timed out   -> RuntimeError (distributed: DistError subclasses) */
    MT_ECONN = -8,     /* peer closed / network failure -> RuntimeError */
    MT_ECLOSED = -9,   /* object already closed/destroyed -> RuntimeError */
};

/* Stores a printf-style message for the calling thread and returns `code`,
 * so callers can write `return mt_error_set(MT_EINVAL, "bad dim %d", d);`. */
int mt_error_set(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prefixes the current message with more context ("while X: <old message>").
 * Returns `code`. */
int mt_error_prefix(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The calling thread's last message (borrowed; valid until the next set). */
const char *mt_error_message(void);
/* The calling thread's last code (0 when none was set since mt_error_clear). */
int mt_error_code(void);
void mt_error_clear(void);

#endif /* C10_LITE_ERROR_H */
