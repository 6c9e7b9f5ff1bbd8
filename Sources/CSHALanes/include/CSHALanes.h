#ifndef CSHALANES_H
#define CSHALANES_H

#include <stddef.h>
#include <stdint.h>

// Several independent SHA-1 or SHA-256 compression-function calls at once, their instructions
// interleaved so that the SHA extensions work on one chain while another's result is still in
// flight. OpenSSL streams one chain of dependent blocks and exposes no multi-lane compression (its
// multi-block code is internal to one TLS cipher), and no packaged library on Debian 12 does, so
// this is the one place where OTPKit writes hash compression itself. OpenSSL's SHA*_Transform stays
// the reference (the tests compare every lane count with it) and the path on CPUs without the
// extensions.
//
// `states` holds `lanes` chaining values one after the other (5 words each for SHA-1, 8 for
// SHA-256, in the order of SHA_CTX.h0… and SHA256_CTX.h[]), updated in place; `blocks` holds
// `lanes` 64-byte message blocks one after the other. Every instruction used (SHA-NI, SSE) has
// data-independent timing, and there is no branch on the data.

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this CPU runs the lane kernels (x86-64 with the SHA extensions and SSE4.1) and the
/// environment variable OTPKIT_DISABLE_SHA_LANES is not set; 0 otherwise. Read once per process.
int CSHALanes_available(void);

void CSHALanes_sha1_x1(uint32_t *states, const uint8_t *blocks);
void CSHALanes_sha1_x2(uint32_t *states, const uint8_t *blocks);
void CSHALanes_sha1_x4(uint32_t *states, const uint8_t *blocks);

void CSHALanes_sha256_x1(uint32_t *states, const uint8_t *blocks);
void CSHALanes_sha256_x2(uint32_t *states, const uint8_t *blocks);
void CSHALanes_sha256_x4(uint32_t *states, const uint8_t *blocks);

/// RFC 4226's truncated value (before the decimal reduction) of `count` HMAC-SHA-1 codes, four at a
/// time with both blocks of each HMAC built in registers. Code i uses the key at
/// `keys + keyStride * i` (its inner chaining value, 5 words, then its outer one, 5 words: the
/// states after the key's ipad and opad blocks) and the counter `counters[counterStride * i]`;
/// a stride of 0 gives every code the same key or counter. The time depends only on `count`.
void CSHALanes_hotp_sha1(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, uint32_t *values, size_t count);

/// As CSHALanes_hotp_sha1 for HMAC-SHA-256: a key is 8 inner words, then 8 outer words.
void CSHALanes_hotp_sha256(const uint32_t *keys, size_t keyStride, const uint64_t *counters, size_t counterStride, uint32_t *values, size_t count);

#ifdef __cplusplus
}
#endif

#endif
