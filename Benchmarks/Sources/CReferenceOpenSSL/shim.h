#ifndef CREFERENCEOPENSSL_SHIM_H
#define CREFERENCEOPENSSL_SHIM_H
// The hardware-limit reference streams a large buffer through SHA*_Update, the low-level API that
// OpenSSL 3 deprecates but still ships; it runs the assembly block function with no per-call
// dispatch, which is the closest a caller gets to the bare compression function.
#define OPENSSL_SUPPRESS_DEPRECATED 1
#include <openssl/hmac.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#endif
