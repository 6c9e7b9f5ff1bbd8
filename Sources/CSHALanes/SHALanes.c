#include "CSHALanes.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

// The kernels are compiled for the SHA extensions one function at a time, so that the rest of the
// package keeps the baseline x86-64 target and CSHALanes_available() decides at run time.
#define KERNEL __attribute__((target("sha,sse4.1,ssse3"), always_inline)) static inline
#define ENTRY __attribute__((target("sha,sse4.1,ssse3")))

static int detect(void) {
    if (getenv("OTPKIT_DISABLE_SHA_LANES") != NULL) return 0;
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    const int ssse3 = (c >> 9) & 1, sse41 = (c >> 19) & 1;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    const int sha = (b >> 29) & 1;
    return ssse3 && sse41 && sha;
}

int CSHALanes_available(void) {
    // -1 until the first call; the race between two first calls is benign (both store the same).
    static int cached = -1;
    int value = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (value < 0) {
        value = detect();
        __atomic_store_n(&cached, value, __ATOMIC_RELAXED);
    }
    return value;
}

// MARK: SHA-1

// Four rounds for every lane, `f` the round function (0-3, an immediate). Message words live in a
// ring of four vectors per lane: w[i & 3] is the schedule's vector i, made from vectors i-4 … i-1
// as FIPS 180-4's recurrence says, four words at a time (sha1msg1/sha1msg2). `prev` keeps each
// lane's ABCD before its last group, from which sha1nexte derives E.
#define SHA1_GROUP(i, f)                                                                                                   \
    for (int l = 0; l < L; l++) {                                                                                          \
        if ((i) >= 4) {                                                                                                    \
            w[l][(i) & 3] = _mm_sha1msg2_epu32(                                                                            \
                _mm_xor_si128(_mm_sha1msg1_epu32(w[l][(i) & 3], w[l][((i) + 1) & 3]), w[l][((i) + 2) & 3]), w[l][((i) + 3) & 3]); \
        }                                                                                                                  \
        const __m128i e = (i) == 0 ? _mm_add_epi32(e0[l], w[l][0]) : _mm_sha1nexte_epu32(prev[l], w[l][(i) & 3]);          \
        prev[l] = abcd[l];                                                                                                 \
        abcd[l] = _mm_sha1rnds4_epu32(abcd[l], e, f);                                                                      \
    }

// One compression per lane, in registers: `abcd` holds A in its top word and D in its lowest (as
// sha1rnds4 takes it), `e` holds E in its top word and zeros below, `w` the block as big-endian
// words in the same order (W0 on top). Both are updated to the next chaining value, in that form.
KERNEL void sha1Compress(__m128i abcd[4], __m128i e0[4], __m128i w[4][4], const int L) {
    __m128i abcdSave[4], prev[4];
    for (int l = 0; l < L; l++) abcdSave[l] = abcd[l];
    SHA1_GROUP(0, 0) SHA1_GROUP(1, 0) SHA1_GROUP(2, 0) SHA1_GROUP(3, 0) SHA1_GROUP(4, 0)
    SHA1_GROUP(5, 1) SHA1_GROUP(6, 1) SHA1_GROUP(7, 1) SHA1_GROUP(8, 1) SHA1_GROUP(9, 1)
    SHA1_GROUP(10, 2) SHA1_GROUP(11, 2) SHA1_GROUP(12, 2) SHA1_GROUP(13, 2) SHA1_GROUP(14, 2)
    SHA1_GROUP(15, 3) SHA1_GROUP(16, 3) SHA1_GROUP(17, 3) SHA1_GROUP(18, 3) SHA1_GROUP(19, 3)
    for (int l = 0; l < L; l++) {
        e0[l] = _mm_sha1nexte_epu32(prev[l], e0[l]);
        abcd[l] = _mm_add_epi32(abcd[l], abcdSave[l]);
    }
}

// Reverses the 16 bytes of a vector: big-endian words, and the word order sha1rnds4 expects.
#define SHA1_REVERSE _mm_set_epi64x(0x0001020304050607ULL, 0x08090a0b0c0d0e0fULL)

KERNEL __m128i sha1LoadABCD(const uint32_t *state) { return _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1B); }
KERNEL __m128i sha1LoadE(const uint32_t *state) { return _mm_set_epi32((int)state[4], 0, 0, 0); }

KERNEL void sha1Lanes(uint32_t *states, const uint8_t *blocks, const int L) {
    __m128i abcd[4], e[4], w[4][4];
    for (int l = 0; l < L; l++) {
        abcd[l] = sha1LoadABCD(states + 5 * l);
        e[l] = sha1LoadE(states + 5 * l);
        for (int j = 0; j < 4; j++) {
            w[l][j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 64 * l + 16 * j)), SHA1_REVERSE);
        }
    }
    sha1Compress(abcd, e, w, L);
    for (int l = 0; l < L; l++) {
        _mm_storeu_si128((__m128i *)(states + 5 * l), _mm_shuffle_epi32(abcd[l], 0x1B));
        states[5 * l + 4] = (uint32_t)_mm_extract_epi32(e[l], 3);
    }
}

ENTRY void CSHALanes_sha1_x1(uint32_t *states, const uint8_t *blocks) { sha1Lanes(states, blocks, 1); }
ENTRY void CSHALanes_sha1_x2(uint32_t *states, const uint8_t *blocks) { sha1Lanes(states, blocks, 2); }
ENTRY void CSHALanes_sha1_x4(uint32_t *states, const uint8_t *blocks) { sha1Lanes(states, blocks, 4); }

// RFC 4226's dynamic truncation of a digest given as big-endian bytes: the offset is the low
// nibble of its last byte. The load's address depends on the digest (the code itself), within one
// 64-byte line of the stack, as in every HOTP implementation; there is no branch on it.
KERNEL uint32_t truncated(const uint8_t *digest, int length) {
    uint32_t word;
    memcpy(&word, digest + (digest[length - 1] & 0x0F), 4);
    return __builtin_bswap32(word) & 0x7FFFFFFF;
}

// HMAC-SHA-1 of 8-byte counters, both blocks built in registers, in two passes over a run of
// codes: every inner block first (the counter and its padding, 64 + 8 bytes hashed), then every
// outer block (the inner digest and its padding, 64 + 20 bytes). Groups of one pass do not depend
// on each other, so the processor overlaps the end of one group's rounds with the start of the
// next; inner then outer per group would wait on each group's own inner result.

// The inner digests of `L` codes, as the outer block's first two vectors (A…D, then E and the
// padding's first word).
KERNEL void sha1InnerGroup(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, __m128i *first,
                           __m128i *second, const int L) {
    __m128i abcd[4], e[4], w[4][4];
    for (int l = 0; l < L; l++) {
        const uint32_t *inner = keys + keyStride * (size_t)l;
        const uint64_t counter = counters[counterStride * (size_t)l];
        abcd[l] = sha1LoadABCD(inner);
        e[l] = sha1LoadE(inner);
        w[l][0] = _mm_set_epi32((int)(uint32_t)(counter >> 32), (int)(uint32_t)counter, (int)0x80000000u, 0);
        w[l][1] = _mm_setzero_si128();
        w[l][2] = _mm_setzero_si128();
        w[l][3] = _mm_set_epi32(0, 0, 0, (64 + 8) * 8);
    }
    sha1Compress(abcd, e, w, L);
    for (int l = 0; l < L; l++) {
        first[l] = abcd[l];
        second[l] = _mm_blend_epi16(_mm_set_epi32(0, (int)0x80000000u, 0, 0), e[l], 0xC0);
    }
}

// The outer blocks of `L` codes and their truncated values.
KERNEL void sha1OuterGroup(const uint32_t *keys, size_t keyStride, const __m128i *first, const __m128i *second, uint32_t *values,
                           const int L) {
    __m128i abcd[4], e[4], w[4][4];
    for (int l = 0; l < L; l++) {
        const uint32_t *outer = keys + keyStride * (size_t)l + 5;
        abcd[l] = sha1LoadABCD(outer);
        e[l] = sha1LoadE(outer);
        w[l][0] = first[l];
        w[l][1] = second[l];
        w[l][2] = _mm_setzero_si128();
        w[l][3] = _mm_set_epi32(0, 0, 0, (64 + 20) * 8);
    }
    sha1Compress(abcd, e, w, L);
    for (int l = 0; l < L; l++) {
        uint8_t digest[32] __attribute__((aligned(32)));
        _mm_store_si128((__m128i *)digest, _mm_shuffle_epi8(abcd[l], SHA1_REVERSE));
        _mm_store_si128((__m128i *)(digest + 16), _mm_shuffle_epi8(e[l], SHA1_REVERSE));
        values[l] = truncated(digest, 20);
    }
}

// MARK: SHA-256

static const uint32_t sha256K[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

// One compression per lane, in registers: the state as sha256rnds2 keeps it (ABEF and CDGH), `w`
// the block as big-endian words in memory order (W0 lowest). The state is updated in place.
KERNEL void sha256Compress(__m128i abef[4], __m128i cdgh[4], __m128i w[4][4], const int L) {
    __m128i abefSave[4], cdghSave[4];
    for (int l = 0; l < L; l++) {
        abefSave[l] = abef[l];
        cdghSave[l] = cdgh[l];
    }
    // Sixteen groups of four rounds; the schedule as for SHA-1, with sha256msg1/sha256msg2 and the
    // words i-7 … i-4 (alignr) the recurrence adds.
    for (int i = 0; i < 16; i++) {
        const __m128i k = _mm_load_si128((const __m128i *)(sha256K + 4 * i));
        for (int l = 0; l < L; l++) {
            if (i >= 4) {
                const __m128i middle = _mm_alignr_epi8(w[l][(i + 3) & 3], w[l][(i + 2) & 3], 4);
                w[l][i & 3] = _mm_sha256msg2_epu32(
                    _mm_add_epi32(_mm_sha256msg1_epu32(w[l][i & 3], w[l][(i + 1) & 3]), middle), w[l][(i + 3) & 3]);
            }
            const __m128i message = _mm_add_epi32(w[l][i & 3], k);
            cdgh[l] = _mm_sha256rnds2_epu32(cdgh[l], abef[l], message);
            abef[l] = _mm_sha256rnds2_epu32(abef[l], cdgh[l], _mm_shuffle_epi32(message, 0x0E));
        }
    }
    for (int l = 0; l < L; l++) {
        abef[l] = _mm_add_epi32(abef[l], abefSave[l]);
        cdgh[l] = _mm_add_epi32(cdgh[l], cdghSave[l]);
    }
}

// Byte-swaps each word: SHA-256 reads the block as big-endian words.
#define SHA256_SWAP _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL)

KERNEL void sha256Load(const uint32_t *state, __m128i *abef, __m128i *cdgh) {
    const __m128i dcba = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0xB1);
    const __m128i hgfe = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(state + 4)), 0x1B);
    *abef = _mm_alignr_epi8(dcba, hgfe, 8);
    *cdgh = _mm_blend_epi16(hgfe, dcba, 0xF0);
}

// The chaining value in word order, H0…H3 and H4…H7 (each lowest word first).
KERNEL void sha256Words(__m128i abef, __m128i cdgh, __m128i *low, __m128i *high) {
    const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    *low = _mm_blend_epi16(feba, dchg, 0xF0);
    *high = _mm_alignr_epi8(dchg, feba, 8);
}

KERNEL void sha256Lanes(uint32_t *states, const uint8_t *blocks, const int L) {
    __m128i abef[4], cdgh[4], w[4][4];
    for (int l = 0; l < L; l++) {
        sha256Load(states + 8 * l, &abef[l], &cdgh[l]);
        for (int j = 0; j < 4; j++) {
            w[l][j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 64 * l + 16 * j)), SHA256_SWAP);
        }
    }
    sha256Compress(abef, cdgh, w, L);
    for (int l = 0; l < L; l++) {
        __m128i low, high;
        sha256Words(abef[l], cdgh[l], &low, &high);
        _mm_storeu_si128((__m128i *)(states + 8 * l), low);
        _mm_storeu_si128((__m128i *)(states + 8 * l + 4), high);
    }
}

ENTRY void CSHALanes_sha256_x1(uint32_t *states, const uint8_t *blocks) { sha256Lanes(states, blocks, 1); }
ENTRY void CSHALanes_sha256_x2(uint32_t *states, const uint8_t *blocks) { sha256Lanes(states, blocks, 2); }
ENTRY void CSHALanes_sha256_x4(uint32_t *states, const uint8_t *blocks) { sha256Lanes(states, blocks, 4); }

// As for SHA-1: the inner block hashes 64 + 8 bytes, the outer 64 + 32. The inner digests are
// the outer block's first two vectors as they are (H0…H3, H4…H7).
KERNEL void sha256InnerGroup(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, __m128i *first,
                             __m128i *second, const int L) {
    __m128i abef[4], cdgh[4], w[4][4];
    for (int l = 0; l < L; l++) {
        const uint64_t counter = counters[counterStride * (size_t)l];
        sha256Load(keys + keyStride * (size_t)l, &abef[l], &cdgh[l]);
        w[l][0] = _mm_set_epi32(0, (int)0x80000000u, (int)(uint32_t)counter, (int)(uint32_t)(counter >> 32));
        w[l][1] = _mm_setzero_si128();
        w[l][2] = _mm_setzero_si128();
        w[l][3] = _mm_set_epi32((64 + 8) * 8, 0, 0, 0);
    }
    sha256Compress(abef, cdgh, w, L);
    for (int l = 0; l < L; l++) sha256Words(abef[l], cdgh[l], &first[l], &second[l]);
}

KERNEL void sha256OuterGroup(const uint32_t *keys, size_t keyStride, const __m128i *first, const __m128i *second, uint32_t *values,
                             const int L) {
    __m128i abef[4], cdgh[4], w[4][4];
    for (int l = 0; l < L; l++) {
        sha256Load(keys + keyStride * (size_t)l + 8, &abef[l], &cdgh[l]);
        w[l][0] = first[l];
        w[l][1] = second[l];
        w[l][2] = _mm_set_epi32(0, 0, 0, (int)0x80000000u);
        w[l][3] = _mm_set_epi32((64 + 32) * 8, 0, 0, 0);
    }
    sha256Compress(abef, cdgh, w, L);
    for (int l = 0; l < L; l++) {
        __m128i low, high;
        sha256Words(abef[l], cdgh[l], &low, &high);
        uint8_t digest[32] __attribute__((aligned(32)));
        _mm_store_si128((__m128i *)digest, _mm_shuffle_epi8(low, SHA256_SWAP));
        _mm_store_si128((__m128i *)(digest + 16), _mm_shuffle_epi8(high, SHA256_SWAP));
        values[l] = truncated(digest, 32);
    }
}

// MARK: HOTP values in bulk

// Runs of up to 16 codes: the inner pass over groups of four, then the outer pass. A last group
// of one to three uses as many lanes (the lane count depends only on `count`). `L` is a constant
// in every call, so each lane count compiles to straight code; so is a key stride of 0 (one key,
// as in verification), which lets the compiler load and shuffle that key once for all lanes.
#define HOTP_BULK(inner, outer, keyStride)                                                                                 \
    __m128i first[16], second[16];                                                                                         \
    for (size_t base = 0; base < count; base += 16) {                                                                      \
        const size_t run = count - base < 16 ? count - base : 16;                                                          \
        for (size_t g = 0; g < run; g += 4) {                                                                              \
            const uint32_t *k = keys + keyStride * (base + g);                                                             \
            const uint64_t *c = counters + counterStride * (base + g);                                                     \
            switch (run - g) {                                                                                             \
            case 1: inner(k, keyStride, c, counterStride, first + g, second + g, 1); break;                                \
            case 2: inner(k, keyStride, c, counterStride, first + g, second + g, 2); break;                                \
            case 3: inner(k, keyStride, c, counterStride, first + g, second + g, 3); break;                                \
            default: inner(k, keyStride, c, counterStride, first + g, second + g, 4); break;                               \
            }                                                                                                              \
        }                                                                                                                  \
        for (size_t g = 0; g < run; g += 4) {                                                                              \
            const uint32_t *k = keys + keyStride * (base + g);                                                             \
            uint32_t *v = values + base + g;                                                                               \
            switch (run - g) {                                                                                             \
            case 1: outer(k, keyStride, first + g, second + g, v, 1); break;                                               \
            case 2: outer(k, keyStride, first + g, second + g, v, 2); break;                                               \
            case 3: outer(k, keyStride, first + g, second + g, v, 3); break;                                               \
            default: outer(k, keyStride, first + g, second + g, v, 4); break;                                              \
            }                                                                                                              \
        }                                                                                                                  \
    }

ENTRY void CSHALanes_hotp_sha1(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, uint32_t *values, size_t count) {
    if (keyStride == 0) {
        HOTP_BULK(sha1InnerGroup, sha1OuterGroup, 0)
    } else {
        HOTP_BULK(sha1InnerGroup, sha1OuterGroup, keyStride)
    }
}

ENTRY void CSHALanes_hotp_sha256(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, uint32_t *values, size_t count) {
    if (keyStride == 0) {
        HOTP_BULK(sha256InnerGroup, sha256OuterGroup, 0)
    } else {
        HOTP_BULK(sha256InnerGroup, sha256OuterGroup, keyStride)
    }
}

#else

// The seam for other CPUs (AArch64's SHA instructions among them): until a kernel is written and
// tested there, callers see the lanes as unavailable and stay on OpenSSL, and these are never called.
int CSHALanes_available(void) { return 0; }
void CSHALanes_sha1_x1(uint32_t *states, const uint8_t *blocks) { (void)states; (void)blocks; abort(); }
void CSHALanes_sha1_x2(uint32_t *states, const uint8_t *blocks) { (void)states; (void)blocks; abort(); }
void CSHALanes_sha1_x4(uint32_t *states, const uint8_t *blocks) { (void)states; (void)blocks; abort(); }
void CSHALanes_sha256_x1(uint32_t *states, const uint8_t *blocks) { (void)states; (void)blocks; abort(); }
void CSHALanes_sha256_x2(uint32_t *states, const uint8_t *blocks) { (void)states; (void)blocks; abort(); }
void CSHALanes_sha256_x4(uint32_t *states, const uint8_t *blocks) { (void)states; (void)blocks; abort(); }
void CSHALanes_hotp_sha1(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, uint32_t *values, size_t count) {
    (void)keys, (void)keyStride, (void)counters, (void)counterStride, (void)values, (void)count;
    abort();
}
void CSHALanes_hotp_sha256(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, uint32_t *values, size_t count) {
    (void)keys, (void)keyStride, (void)counters, (void)counterStride, (void)values, (void)count;
    abort();
}

#endif
