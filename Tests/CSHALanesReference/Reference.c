#define OPENSSL_SUPPRESS_DEPRECATED 1

#include "CSHALanesReference.h"

#include <CSHALanes.h>
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
    uint64_t input[(4 * 8 + 4 * 64) / 8];
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
