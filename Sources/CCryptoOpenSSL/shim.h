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

// AES-GCM tag access goes through EVP_CIPHER_CTX_ctrl with macro constants; typed wrappers keep the
// untyped `void *` argument and the constants on the C side.
static inline int CCryptoOpenSSL_EVP_CIPHER_CTX_get_gcm_tag(EVP_CIPHER_CTX *ctx, unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, length, tag);
}

static inline int CCryptoOpenSSL_EVP_CIPHER_CTX_set_gcm_tag(EVP_CIPHER_CTX *ctx, const unsigned char *tag, int length) {
    return EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, length, (void *)tag);
}

#endif
