#ifndef OTPKIT_CCBOR_H
#define OTPKIT_CCBOR_H

#include <cbor.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Whether `bytes` is a sequence of well-formed CBOR heads whose declared collection sizes fit in
/// what follows them, nested at most 16 deep, with no indefinite length anywhere: checked head by
/// head with libcbor's streaming decoder before cbor_load, which would otherwise allocate a
/// declared size (a map claiming millions of entries in a few bytes) before finding the data
/// missing, and would build and free nesting no WebAuthn structure has.
bool otpkit_cbor_is_plausible(const uint8_t *bytes, size_t length);

#endif
