/* csrc/distributed/common/sha256.c - SHA-256 and HMAC-SHA256 for the job token handshake. */
#include "csrc/distributed/common/sha256.h"

#include <string.h>

static const uint32_t mt__k256[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u,
};

static inline uint32_t
mt__ror(uint32_t x, int n)
{
    return (x >> n) | (x << (32 - n));
}

static void
mt__sha256_block(mt_sha256 *s, const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++) {
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    }
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = mt__ror(w[i - 15], 7) ^ mt__ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = mt__ror(w[i - 2], 17) ^ mt__ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
    uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (mt__ror(e, 6) ^ mt__ror(e, 11) ^ mt__ror(e, 25)) + ((e & f) ^ (~e & g)) +
                      mt__k256[i] + w[i];
        uint32_t t2 = (mt__ror(a, 2) ^ mt__ror(a, 13) ^ mt__ror(a, 22)) +
                      ((a & b) ^ (a & c) ^ (b & c));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    s->h[0] += a;
    s->h[1] += b;
    s->h[2] += c;
    s->h[3] += d;
    s->h[4] += e;
    s->h[5] += f;
    s->h[6] += g;
    s->h[7] += h;
}

void
mt_sha256_init(mt_sha256 *s)
{
    static const uint32_t iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    memcpy(s->h, iv, sizeof(iv));
    s->total = 0;
    s->used = 0;
}

void
mt_sha256_update(mt_sha256 *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->total += n;
    while (n > 0) {
        size_t take = 64 - s->used < n ? 64 - s->used : n;
        memcpy(s->block + s->used, p, take);
        s->used += take;
        p += take;
        n -= take;
        if (s->used == 64) {
            mt__sha256_block(s, s->block);
            s->used = 0;
        }
    }
}

void
mt_sha256_final(mt_sha256 *s, unsigned char out[MT_SHA256_BYTES])
{
    uint64_t bits = s->total * 8;
    unsigned char pad = 0x80;
    mt_sha256_update(s, &pad, 1);
    pad = 0;
    while (s->used != 56) {
        mt_sha256_update(s, &pad, 1);
    }
    unsigned char len[8];
    for (int i = 0; i < 8; i++) {
        len[i] = (unsigned char)(bits >> (56 - 8 * i));
    }
    mt_sha256_update(s, len, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(s->h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(s->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(s->h[i] >> 8);
        out[4 * i + 3] = (unsigned char)s->h[i];
    }
}

void
mt_hmac_sha256(const void *key, size_t klen, int nparts, const void *const *parts,
               const size_t *lens, unsigned char out[MT_SHA256_BYTES])
{
    unsigned char k[64] = {0}, pad[64], inner[MT_SHA256_BYTES];
    mt_sha256 s;
    if (klen > 64) {
        mt_sha256_init(&s);
        mt_sha256_update(&s, key, klen);
        mt_sha256_final(&s, k);
    }
    else if (klen > 0) {
        memcpy(k, key, klen);
    }
    for (int i = 0; i < 64; i++) {
        pad[i] = k[i] ^ 0x36;
    }
    mt_sha256_init(&s);
    mt_sha256_update(&s, pad, 64);
    for (int i = 0; i < nparts; i++) {
        mt_sha256_update(&s, parts[i], lens[i]);
    }
    mt_sha256_final(&s, inner);
    for (int i = 0; i < 64; i++) {
        pad[i] = k[i] ^ 0x5c;
    }
    mt_sha256_init(&s);
    mt_sha256_update(&s, pad, 64);
    mt_sha256_update(&s, inner, sizeof(inner));
    mt_sha256_final(&s, out);
}

int
mt_consttime_equal(const void *a, const void *b, size_t n)
{
    const volatile unsigned char *x = a, *y = b;
    unsigned char d = 0;
    for (size_t i = 0; i < n; i++) {
        d |= x[i] ^ y[i];
    }
    return d == 0;
}
