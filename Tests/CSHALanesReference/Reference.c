#define OPENSSL_SUPPRESS_DEPRECATED 1

#include "CSHALanesReference.h"

#include <CSHALanes.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <string.h>

static uint64_t next(uint64_t *seed) {
    uint64_t z = (*seed += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void reference(uint32_t *state, const uint8_t *block, int words) {
    if (words == 5) {
        SHA_CTX context;
        memset(&context, 0, sizeof context);
        context.h0 = state[0], context.h1 = state[1], context.h2 = state[2], context.h3 = state[3], context.h4 = state[4];
        SHA1_Transform(&context, block);
        state[0] = context.h0, state[1] = context.h1, state[2] = context.h2, state[3] = context.h3, state[4] = context.h4;
    } else {
        SHA256_CTX context;
        memset(&context, 0, sizeof context);
        memcpy(context.h, state, 32);
        SHA256_Transform(&context, block);
        memcpy(state, context.h, 32);
    }
}

long CSHALanesReference_mismatches(uint64_t seed, long count, int words) {
    long mismatches = 0;
    // Four chaining values of up to 8 words (128 bytes), then four 64-byte blocks.
    uint64_t input[(4 * 8 * 4 + 4 * 64) / 8];
    for (long group = 0; group < count / 4; group++) {
        for (size_t i = 0; i < sizeof input / 8; i++) input[i] = next(&seed);
        const uint32_t *states = (const uint32_t *)input;
        const uint8_t *blocks = (const uint8_t *)input + 4 * 8 * 4;
        uint32_t expected[4 * 8];
        memcpy(expected, states, sizeof expected);
        for (int lane = 0; lane < 4; lane++) reference(expected + words * lane, blocks + 64 * lane, words);
        for (int lanes = 1; lanes <= 4; lanes *= 2) {
            uint32_t actual[4 * 8];
            memcpy(actual, states, sizeof actual);
            if (words == 5) {
                if (lanes == 1) CSHALanes_sha1_x1(actual, blocks);
                else if (lanes == 2) CSHALanes_sha1_x2(actual, blocks);
                else CSHALanes_sha1_x4(actual, blocks);
            } else {
                if (lanes == 1) CSHALanes_sha256_x1(actual, blocks);
                else if (lanes == 2) CSHALanes_sha256_x2(actual, blocks);
                else CSHALanes_sha256_x4(actual, blocks);
            }
            for (int lane = 0; lane < lanes; lane++) {
                if (memcmp(actual + words * lane, expected + words * lane, 4 * (size_t)words) != 0) mismatches++;
            }
        }
    }
    return mismatches;
}

// The inner then outer chaining value of `key`, as the kernels take them.
static void schedule(const uint8_t *key, int length, int words, uint32_t *packed) {
    uint8_t pads[2][64];
    for (int pad = 0; pad < 2; pad++) {
        memset(pads[pad], 0, 64);
        memcpy(pads[pad], key, (size_t)length);
        for (int i = 0; i < 64; i++) pads[pad][i] ^= pad == 0 ? 0x36 : 0x5C;
        uint32_t *state = packed + words * pad;
        if (words == 5) {
            const uint32_t initial[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
            memcpy(state, initial, sizeof initial);
        } else {
            const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
            memcpy(state, initial, sizeof initial);
        }
        reference(state, pads[pad], words);
    }
}

static uint32_t hmacValue(const uint8_t *key, int length, uint64_t counter, int words) {
    uint8_t message[8], digest[EVP_MAX_MD_SIZE];
    unsigned int size = 0;
    for (int i = 0; i < 8; i++) message[i] = (uint8_t)(counter >> (56 - 8 * i));
    HMAC(words == 5 ? EVP_sha1() : EVP_sha256(), key, length, message, 8, digest, &size);
    const int offset = digest[size - 1] & 0x0F;
    return ((uint32_t)digest[offset] << 24 | (uint32_t)digest[offset + 1] << 16 | (uint32_t)digest[offset + 2] << 8 | digest[offset + 3]) & 0x7FFFFFFF;
}

long CSHALanesReference_hotpMismatches(uint64_t seed, long count, int words) {
    long mismatches = 0, done = 0;
    uint8_t keys[9][100];
    int lengths[9];
    uint32_t packed[9 * 16], values[9];
    uint64_t counters[9];
    for (size_t call = 0; done < count; call++) {
        const size_t codes = 1 + call % 9;
        const int shared = (call / 9) % 2;
        for (size_t i = 0; i < codes; i++) {
            lengths[i] = 1 + (int)(next(&seed) % 64);
            for (int b = 0; b < 100; b++) keys[i][b] = (uint8_t)next(&seed);
            schedule(keys[i], lengths[i], words, packed + 2 * words * i);
            counters[i] = next(&seed);
        }
        if (words == 5) CSHALanes_hotp_sha1(packed, shared ? 0 : 10, counters, 1, values, codes);
        else CSHALanes_hotp_sha256(packed, shared ? 0 : 16, counters, 1, values, codes);
        for (size_t i = 0; i < codes; i++) {
            const size_t key = shared ? 0 : i;
            if (values[i] != hmacValue(keys[key], lengths[key], counters[i], words)) mismatches++;
        }
        done += (long)codes;
    }
    return mismatches;
}
