/* c10_lite/device.h - device type + index, parsing and printing. */
#ifndef C10_LITE_DEVICE_H
#define C10_LITE_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum mt_device_type {
    MT_CPU = 0,
    MT_CUDA = 1,
    MT_NUM_DEVICE_TYPES
} mt_device_type;

typedef struct mt_device {
    mt_device_type type;
    int index; /* -1: unspecified ("cuda" means the current device) */
} mt_device;

#define MT_DEVICE_CPU ((mt_device){.type = MT_CPU, .index = -1})

/* Parses "cpu", "cuda", "cuda:1", "cpu:0".  Returns 0 or MT_EINVAL/MT_ETYPE with
 * torch's wording for bad strings (*out untouched on error). */
int mt_device_parse(const char *s, mt_device *out);
/* "cpu", "cuda", "cuda:1" into buf (always NUL terminated); returns buf. */
char *mt_device_str(mt_device d, char *buf, size_t cap);
const char *mt_device_type_name(mt_device_type t);
static inline bool
mt_device_eq(mt_device a, mt_device b)
{
    return a.type == b.type && a.index == b.index;
}

#endif /* C10_LITE_DEVICE_H */
