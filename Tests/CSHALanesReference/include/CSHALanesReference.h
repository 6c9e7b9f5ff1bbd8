#ifndef CSHALANESREFERENCE_H
#define CSHALANESREFERENCE_H

#include <stdint.h>

// The differential check of the lane kernels, in C so that tens of millions of inputs take seconds
// in a debug build: `count` random chaining values and blocks (SplitMix64 from `seed`), each group of
// four through 1, 2 and 4 lanes, compared with OpenSSL's SHA1_Transform (`words` 5) or
// SHA256_Transform (`words` 8). Returns the number of lane results that differ.
long CSHALanesReference_mismatches(uint64_t seed, long count, int words);

#endif
