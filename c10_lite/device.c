/* c10_lite/device.c - device parsing and printing. */
#include "c10_lite/device.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c10_lite/error.h"

static const char *const mt__device_names[MT_NUM_DEVICE_TYPES] = {
    [MT_CPU] = "cpu",
    [MT_CUDA] = "cuda",
};

const char *
mt_device_type_name(mt_device_type t)
{
    return (t >= 0 && t < MT_NUM_DEVICE_TYPES) ? mt__device_names[t] : "invalid";
}

int
mt_device_parse(const char *s, mt_device *out)
{
    const char *colon = strchr(s, ':');
    size_t tlen = colon ? (size_t)(colon - s) : strlen(s);
    int type = -1;
    for (int i = 0; i < MT_NUM_DEVICE_TYPES; i++) {
        if (strlen(mt__device_names[i]) == tlen && strncmp(s, mt__device_names[i], tlen) == 0) {
            type = i;
        }
    }
    if (type < 0) {
        return mt_error_set(MT_ERUNTIME,
                            "Expected one of cpu, cuda device type at start of device string: %s",
                            s);
    }
    int index = -1;
    if (colon) {
        const char *p = colon + 1;
        char *end = NULL;
        errno = 0;
        long v = (*p >= '0' && *p <= '9') ? strtol(p, &end, 10) : -1;
        if (v < 0 || errno != 0 || end == NULL || *end != '\0' || v > 1 << 20 ||
            (p[0] == '0' && p[1] != '\0')) {
            return mt_error_set(MT_ERUNTIME, "Invalid device string: '%s'", s);
        }
        index = (int)v;
    }
    out->type = (mt_device_type)type;
    out->index = index;
    return MT_OK;
}

char *
mt_device_str(mt_device d, char *buf, size_t cap)
{
    if (d.index >= 0) {
        snprintf(buf, cap, "%s:%d", mt_device_type_name(d.type), d.index);
    }
    else {
        snprintf(buf, cap, "%s", mt_device_type_name(d.type));
    }
    return buf;
}
