#ifndef CSHALANES_H
#define CSHALANES_H

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

#ifdef __cplusplus
}
#endif

#endif
