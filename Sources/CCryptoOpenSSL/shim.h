#ifndef CCRYPTOOPENSSL_SHIM_H
#define CCRYPTOOPENSSL_SHIM_H

// The low-level SHA API (SHA*_Transform) is deprecated in OpenSSL 3 but is the only public way to run
// one compression-function call on a precomputed HMAC key schedule, which is what makes a code cost
// two blocks instead of four.
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
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

// scrypt through EVP_KDF, with SCRYPT_MAXMEM set by the caller: EVP_PBE_scrypt's 32 MiB default
// refuses Aegis's own N=2^15, r=8. The OSSL_PARAM array is built here, where its macro names and
// C unions are, rather than in Swift. Returns 1 on success.
static inline int CCryptoOpenSSL_scrypt(
    const unsigned char *password, size_t passwordLength, const unsigned char *salt, size_t saltLength,
    uint64_t n, uint32_t r, uint32_t p, uint64_t maximumMemory, unsigned char *key, size_t keyLength) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "SCRYPT", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *context = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (context == NULL) return 0;
    // An empty password is legal; OpenSSL wants a non-NULL pointer for it all the same.
    static const unsigned char empty = 0;
    OSSL_PARAM parameters[] = {
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, (void *)(password ? password : &empty), passwordLength),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)(salt ? salt : &empty), saltLength),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r),
        OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p),
        OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maximumMemory),
        OSSL_PARAM_construct_end(),
    };
    int result = EVP_KDF_derive(context, key, keyLength, parameters);
    EVP_KDF_CTX_free(context);
    return result == 1 ? 1 : 0;
}

#endif
