/* csrc/distributed/common/sha256.h - SHA-256 and HMAC-SHA256 (FIPS 180-4, RFC 2104). */
#ifndef CSRC_DISTRIBUTED_COMMON_SHA256_H
#define CSRC_DISTRIBUTED_COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define MT_SHA256_BYTES 32

typedef struct mt_sha256 {
    uint32_t h[8];
    uint64_t total; /* bytes hashed so far */
    unsigned char block[64];
    size_t used; /* bytes in `block` */
} mt_sha256;

void mt_sha256_init(mt_sha256 *s);
void mt_sha256_update(mt_sha256 *s, const void *data, size_t n);
void mt_sha256_final(mt_sha256 *s, unsigned char out[MT_SHA256_BYTES]);

/* HMAC-SHA256 of the concatenation of `nparts` byte strings under `key`. */
void mt_hmac_sha256(const void *key, size_t klen, int nparts, const void *const *parts,
                    const size_t *lens, unsigned char out[MT_SHA256_BYTES]);

/* 1 when a and b (n bytes each) are equal; the time taken does not depend on where they
 * differ. */
int mt_consttime_equal(const void *a, const void *b, size_t n);

#endif /* CSRC_DISTRIBUTED_COMMON_SHA256_H */
