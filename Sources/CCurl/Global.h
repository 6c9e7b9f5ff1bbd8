#ifndef OTPKIT_CCURL_GLOBAL_H
#define OTPKIT_CCURL_GLOBAL_H

#include <curl/curl.h>

// curl_global_init, once per process and from whichever thread comes first: it is not thread-safe
// itself, and both the SMTP and the HTTP shim may be first.
CURLcode otpkit_curl_global_init(void);

#endif
