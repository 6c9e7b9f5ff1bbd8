// What one HMAC code costs around OpenSSL's SHA1_Transform, measured in C so that no Swift code is
// involved: the same code built with 8-byte stores (as a C programmer writes it) and with 16-byte
// vector stores, beside the streamed limit, one chain of Transform calls and two chains interleaved.
// A probe for Benchmarks/ANALYSIS.md, not part of any build or test:
//   gcc -O2 -o /tmp/transform_calls Benchmarks/Probes/transform_calls.c -lcrypto && /tmp/transform_calls
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <emmintrin.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static _Alignas(16) uint32_t inner[16], outer[16];

__attribute__((noinline)) static uint32_t code_scalar_stores(uint64_t counter) {
    SHA_CTX c;
    memcpy(&c, inner, 20);
    uint64_t b[8] = {0};
    b[0] = __builtin_bswap64(counter);
    b[1] = __builtin_bswap64(0x80ull << 56);
    b[7] = __builtin_bswap64(72 * 8);
    SHA1_Transform(&c, (unsigned char *)b);
    uint64_t o[8] = {0};
    o[0] = __builtin_bswap64((uint64_t)c.h0 << 32 | c.h1);
    o[1] = __builtin_bswap64((uint64_t)c.h2 << 32 | c.h3);
    o[2] = __builtin_bswap64((uint64_t)c.h4 << 32 | 0x80000000u);
    o[7] = __builtin_bswap64(84 * 8);
    memcpy(&c, outer, 20);
    SHA1_Transform(&c, (unsigned char *)o);
    return c.h4 ^ c.h0;
}

__attribute__((noinline)) static uint32_t code_vector_stores(uint64_t counter) {
    _Alignas(16) uint32_t ctx[24];
    _Alignas(16) uint8_t blk[64];
    __m128i *v = (__m128i *)blk, *s = (__m128i *)ctx;
    _mm_store_si128(s, _mm_load_si128((__m128i *)inner));
    _mm_store_si128(s + 1, _mm_load_si128((__m128i *)inner + 1));
    _mm_store_si128(v, _mm_set_epi64x(0x80, __builtin_bswap64(counter)));
    _mm_store_si128(v + 1, _mm_setzero_si128());
    _mm_store_si128(v + 2, _mm_setzero_si128());
    _mm_store_si128(v + 3, _mm_set_epi32(__builtin_bswap32(576), 0, 0, 0));
    SHA1_Transform((SHA_CTX *)ctx, blk);
    _mm_store_si128(v, _mm_set_epi32(__builtin_bswap32(ctx[3]), __builtin_bswap32(ctx[2]), __builtin_bswap32(ctx[1]), __builtin_bswap32(ctx[0])));
    _mm_store_si128(v + 1, _mm_set_epi32(0, 0, 0x80, __builtin_bswap32(ctx[4])));
    _mm_store_si128(v + 3, _mm_set_epi32(__builtin_bswap32(672), 0, 0, 0));
    _mm_store_si128(s, _mm_load_si128((__m128i *)outer));
    _mm_store_si128(s + 1, _mm_load_si128((__m128i *)outer + 1));
    SHA1_Transform((SHA_CTX *)ctx, blk);
    return ctx[4] ^ ctx[0];
}

int main(void) {
    unsigned char key[64];
    SHA_CTX c;
    for (int i = 0; i < 64; i++) key[i] = 0x36 ^ (i < 20 ? '1' : 0);
    SHA1_Init(&c); SHA1_Transform(&c, key); memcpy(inner, &c, 20);
    for (int i = 0; i < 64; i++) key[i] = 0x5c ^ (i < 20 ? '1' : 0);
    SHA1_Init(&c); SHA1_Transform(&c, key); memcpy(outer, &c, 20);

    static unsigned char a[64 * 1000], b[64 * 1000];
    double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
    uint32_t sink = 0;
    for (int round = 0; round < 300; round++) {
        double t[6];
        t[0] = now();
        for (int i = 0; i < 1000; i++) sink += code_scalar_stores(i);
        t[1] = now();
        for (int i = 0; i < 1000; i++) sink += code_vector_stores(i);
        t[2] = now();
        SHA_CTX s; SHA1_Init(&s); SHA1_Update(&s, a, sizeof a); sink += s.h0;
        t[3] = now();
        SHA_CTX x; SHA1_Init(&x);
        for (int i = 0; i < 1000; i++) SHA1_Transform(&x, a + 64 * i);
        sink += x.h0;
        t[4] = now();
        SHA_CTX y, z; SHA1_Init(&y); SHA1_Init(&z);
        for (int i = 0; i < 500; i++) { SHA1_Transform(&y, a + 64 * i); SHA1_Transform(&z, b + 64 * i); }
        sink += y.h0 + z.h0;
        t[5] = now();
        for (int k = 0; k < 5; k++) if (t[k + 1] - t[k] < best[k]) best[k] = t[k + 1] - t[k];
    }
    double block = best[2] * 1e6; // ns per block: 1000 blocks per round, seconds to ns / 1000
    printf("ns per code: 8-byte stores %.1f, 16-byte stores %.1f; limit (2 streamed blocks) %.1f\n",
           best[0] * 1e6, best[1] * 1e6, 2 * block);
    printf("share of the limit: 8-byte stores %.0f%%, 16-byte stores %.0f%%\n",
           200 * block / (best[0] * 1e6), 200 * block / (best[1] * 1e6));
    printf("ns per block: streamed %.1f, one chain of Transform calls %.1f, two chains interleaved %.1f (%u)\n",
           block, best[3] * 1e6, best[4] * 1e6, sink & 1);
    return 0;
}
