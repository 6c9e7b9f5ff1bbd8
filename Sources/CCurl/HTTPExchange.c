#include "CCurl.h"
#include "Handle.h"

#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

// More than any gateway's or key server's head: the rest of a longer one is not kept.
#define HEAD_LIMIT (32 * 1024)

typedef struct {
    unsigned char *bytes;
    size_t length;
    size_t capacity;
} buffer;

typedef struct {
    CURL *curl;
    otpkit_http_result *result;
    buffer head;
    buffer body;
    size_t body_limit;
    const int *cancelled;
} exchange;

// Appends what fits under `limit`; returns how many bytes that was.
static size_t append(buffer *buffer, const char *bytes, size_t length, size_t limit) {
    size_t room = buffer->length < limit ? limit - buffer->length : 0;
    size_t kept = length < room ? length : room;
    if (kept == 0) return 0;
    if (buffer->length + kept > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1024;
        while (capacity < buffer->length + kept) capacity *= 2;
        if (capacity > limit) capacity = limit;
        unsigned char *grown = realloc(buffer->bytes, capacity);
        if (!grown) return 0;
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, kept);
    buffer->length += kept;
    return kept;
}

// Each header line of each answer, the status line first. An interim answer (100 Continue) is
// followed by another head, so a status line starts the kept head afresh, and only a head that
// ends with a final status sets the result's status.
static size_t on_header(char *bytes, size_t size, size_t count, void *context) {
    exchange *exchange = context;
    size_t length = size * count;
    if (length >= 5 && memcmp(bytes, "HTTP/", 5) == 0) exchange->head.length = 0;
    if ((length == 2 && bytes[0] == '\r') || (length == 1 && bytes[0] == '\n')) {
        long status = 0;
        curl_easy_getinfo(exchange->curl, CURLINFO_RESPONSE_CODE, &status);
        if (status >= 200) exchange->result->status = status;
    } else {
        append(&exchange->head, bytes, length, HEAD_LIMIT);
    }
    return length;
}

// Keeps the body up to the limit; a byte more ends the exchange (CURLE_WRITE_ERROR), so that an
// endless answer costs neither memory nor the rest of the timeout.
static size_t on_body(char *bytes, size_t size, size_t count, void *context) {
    exchange *exchange = context;
    size_t length = size * count;
    size_t kept = append(&exchange->body, bytes, length, exchange->body_limit);
    if (kept < length) {
        exchange->result->body_over_limit = exchange->body.length >= exchange->body_limit;
        return 0;
    }
    return length;
}

static int on_progress(void *context, curl_off_t download_total, curl_off_t downloaded, curl_off_t upload_total, curl_off_t uploaded) {
    (void)download_total, (void)downloaded, (void)upload_total, (void)uploaded;
    exchange *exchange = context;
    return exchange->cancelled && __atomic_load_n(exchange->cancelled, __ATOMIC_RELAXED) ? 1 : 0;
}

void otpkit_http_exchange(const otpkit_http_request *request, otpkit_http_result *result) {
    memset(result, 0, sizeof *result);
    CURL *curl = otpkit_curl_handle(&result->curl_code, result->error, sizeof result->error);
    if (!curl) return;
    exchange exchange = {curl, result, {0}, {0}, request->body_limit, request->cancelled};
    char error[CURL_ERROR_SIZE] = {0};
    struct curl_slist *headers = NULL;
    for (size_t index = 0; index < request->header_count; index++) headers = curl_slist_append(headers, request->headers[index]);
    // libcurl would otherwise ask a larger POST's server to confirm first and wait a second for
    // a confirmation most gateways never send.
    headers = curl_slist_append(headers, "Expect:");

    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_URL, request->url);
    // HTTP only: a URL of another scheme must not turn a gateway into a file read or a mail.
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    // A redirected POST may be replayed elsewhere, and a key set served from another URL is not
    // the provider's word: a 3xx is the answer.
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    // The environment's http_proxy must not route codes and tokens through another host unasked.
    curl_easy_setopt(curl, CURLOPT_PROXY, "");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_milliseconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, request->timeout_milliseconds);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "OTPKit");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &exchange);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    if (strcmp(request->method, "POST") == 0) {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request->body ? (const char *)request->body : "");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    } else {
        curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
    }

    CURLcode code = curl_easy_perform(curl);
    result->curl_code = (int)code;
    otpkit_curl_copy_error(result->error, sizeof result->error, error[0] ? error : curl_easy_strerror(code));
    curl_easy_getinfo(curl, CURLINFO_OS_ERRNO, &result->os_errno);
    result->head = exchange.head.bytes;
    result->head_length = exchange.head.length;
    result->body = exchange.body.bytes;
    result->body_length = exchange.body.length;
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
}

void otpkit_http_result_free(otpkit_http_result *result) {
    free(result->head);
    free(result->body);
    result->head = NULL;
    result->body = NULL;
}

void otpkit_http_cancel(int *flag) { __atomic_store_n(flag, 1, __ATOMIC_RELAXED); }
