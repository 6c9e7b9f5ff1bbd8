#include "Global.h"

#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static CURLcode code = CURLE_OK;

static void init(void) { code = curl_global_init(CURL_GLOBAL_DEFAULT); }

CURLcode otpkit_curl_global_init(void) {
    pthread_once(&once, init);
    return code;
}
