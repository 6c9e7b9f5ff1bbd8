#ifndef OTPKIT_CCURL_HANDLE_H
#define OTPKIT_CCURL_HANDLE_H

#include <curl/curl.h>
#include <stddef.h>

// An easy handle, after curl_global_init has run once for the process (it is not thread-safe
// itself, and either shim may be first). NULL, with `*curl_code` set and `error` describing it,
// when either fails.
CURL *otpkit_curl_handle(int *curl_code, char *error, size_t error_size);

// Copies `detail` into `error`, cut to `error_size` bytes with its NUL.
void otpkit_curl_copy_error(char *error, size_t error_size, const char *detail);

#endif
