#include "CCurl.h"
#include "Handle.h"

#include <curl/curl.h>
#include <string.h>

// The message handed to libcurl's read callback, in pieces of its choosing.
typedef struct {
    const char *bytes;
    size_t remaining;
} upload;

static size_t read_payload(char *buffer, size_t size, size_t count, void *context) {
    upload *source = context;
    size_t room = size * count;
    size_t length = source->remaining < room ? source->remaining : room;
    memcpy(buffer, source->bytes, length);
    source->bytes += length;
    source->remaining -= length;
    return length;
}

void otpkit_smtp_send(const otpkit_smtp_message *message, otpkit_smtp_result *result) {
    memset(result, 0, sizeof *result);
    CURL *curl = otpkit_curl_handle(&result->curl_code, result->error, sizeof result->error);
    if (!curl) return;
    char error[CURL_ERROR_SIZE] = {0};
    upload source = {message->payload, message->payload_length};
    struct curl_slist *recipients = curl_slist_append(NULL, message->to);

    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_URL, message->url);
    // SMTP only: a URL of another scheme must not turn a mail sender into an HTTP client.
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, message->timeout_milliseconds);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, message->timeout_milliseconds);
    if (message->require_tls) curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
    if (message->ca_file) curl_easy_setopt(curl, CURLOPT_CAINFO, message->ca_file);
    if (message->username) {
        curl_easy_setopt(curl, CURLOPT_USERNAME, message->username);
        curl_easy_setopt(curl, CURLOPT_PASSWORD, message->password ? message->password : "");
    }
    curl_easy_setopt(curl, CURLOPT_MAIL_FROM, message->from);
    curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
    curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_payload);
    curl_easy_setopt(curl, CURLOPT_READDATA, &source);
    curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)message->payload_length);

    CURLcode code = curl_easy_perform(curl);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result->response_code);
    result->curl_code = (int)code;
    otpkit_curl_copy_error(result->error, sizeof result->error, error[0] ? error : curl_easy_strerror(code));
    curl_slist_free_all(recipients);
    curl_easy_cleanup(curl);
}
