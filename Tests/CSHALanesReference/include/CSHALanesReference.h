#ifndef CSHALANESREFERENCE_H
#define CSHALANESREFERENCE_H

#include <stdint.h>

// The differential check of the lane kernels, in C so that tens of millions of inputs take seconds
// in a debug build: `count` random chaining values and blocks (SplitMix64 from `seed`), each group of
// four through 1, 2 and 4 lanes, compared with OpenSSL's SHA1_Transform (`words` 5) or
// SHA256_Transform (`words` 8). Returns the number of lane results that differ.
long CSHALanesReference_mismatches(uint64_t seed, long count, int words);

// The fused HOTP kernels against OpenSSL's HMAC: `count` codes from random keys (1 to 64 bytes;
// longer keys are hashed first, which PreparedKey does, not the kernels; their ipad/opad states
// made with OpenSSL's transforms) at random counters, in calls of every
// length from 1 to 9 codes, one key for all of a call's codes or one key each. `words` 5 checks
// CSHALanes_hotp_sha1, 8 CSHALanes_hotp_sha256. Returns the number of values that differ.
long CSHALanesReference_hotpMismatches(uint64_t seed, long count, int words);

#endif
