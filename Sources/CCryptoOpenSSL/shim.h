#ifndef CCRYPTOOPENSSL_SHIM_H
#define CCRYPTOOPENSSL_SHIM_H

// The low-level SHA API (SHA*_Transform) is deprecated in OpenSSL 3 but is the only public way to run
// one compression-function call on a precomputed HMAC key schedule, which is what makes a code cost
// two blocks instead of four.
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#endif
