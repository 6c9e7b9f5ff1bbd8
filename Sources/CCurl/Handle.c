#include "Handle.h"

#include <pthread.h>
#include <string.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static CURLcode global_code = CURLE_OK;

static void init(void) { global_code = curl_global_init(CURL_GLOBAL_DEFAULT); }

void otpkit_curl_copy_error(char *error, size_t error_size, const char *detail) {
    strncpy(error, detail, error_size - 1);
    error[error_size - 1] = 0;
}

CURL *otpkit_curl_handle(int *curl_code, char *error, size_t error_size) {
    pthread_once(&once, init);
    *curl_code = (int)global_code;
    if (global_code != CURLE_OK) {
        otpkit_curl_copy_error(error, error_size, curl_easy_strerror(global_code));
        return NULL;
    }
    CURL *curl = curl_easy_init();
    if (!curl) {
        *curl_code = (int)CURLE_FAILED_INIT;
        otpkit_curl_copy_error(error, error_size, "libcurl could not make a handle");
    }
    return curl;
}
