#ifndef OTPKIT_CCURL_H
#define OTPKIT_CCURL_H

#include <stddef.h>

/// What one SMTP submission needs. Strings are NUL-terminated; NULL leaves a setting out.
typedef struct {
    const char *url;           // smtp://host:port or smtps://host:port
    const char *username;      // AUTH, with password; NULL for none
    const char *password;
    const char *from;          // MAIL FROM address
    const char *to;            // RCPT TO address
    const char *payload;       // the whole message, headers and body, CRLF line ends
    size_t payload_length;
    long timeout_milliseconds; // the whole transfer, connection included
    int require_tls;           // 1: STARTTLS (or smtps) or fail
    const char *ca_file;       // PEM bundle to verify the server with; NULL for the system's
} otpkit_smtp_message;

/// What happened: `curl_code` is libcurl's CURLcode (0 when the server accepted the message),
/// `response_code` the server's last SMTP reply code, `error` libcurl's description.
typedef struct {
    int curl_code;
    long response_code;
    char error[256];
} otpkit_smtp_result;

/// Submits `message` through libcurl's SMTP support, blocking until the server answers or the
/// timeout passes. libcurl speaks the protocol (EHLO, STARTTLS, AUTH, MAIL, RCPT, DATA with
/// dot-stuffing); this only sets its options, which Swift cannot pass to the variadic
/// curl_easy_setopt itself.
void otpkit_smtp_send(const otpkit_smtp_message *message, otpkit_smtp_result *result);

/// One HTTP request. Strings are NUL-terminated.
typedef struct {
    const char *method;              // "GET" or "POST"
    const char *url;                 // http:// or https:// only; other schemes are refused
    const char *const *headers;      // "Name: value" lines
    size_t header_count;
    const unsigned char *body;       // what a POST sends; NULL for none
    size_t body_length;
    long timeout_milliseconds;       // the whole exchange: connection, request, head and body
    size_t body_limit;               // bytes of the answer's body kept; one more ends the exchange
    const int *cancelled;            // polled during the exchange; nonzero aborts it
} otpkit_http_request;

/// What came back. `curl_code` is libcurl's CURLcode (0 when the whole answer arrived);
/// `status` the final answer's status (0 before one arrived, even after an interim 1xx);
/// `head` that answer's header lines and `body` its body (up to the limit), both malloc'd and
/// released by otpkit_http_result_free.
typedef struct {
    int curl_code;
    long status;
    char error[256];
    long os_errno;                   // the system's error number of a failed connection, or 0
    unsigned char *head;
    size_t head_length;
    unsigned char *body;
    size_t body_length;
    int body_over_limit;             // the answer had more than body_limit bytes
} otpkit_http_result;

/// Makes one exchange through libcurl, blocking until the answer is complete, the timeout passes,
/// or `cancelled` is set. No redirect is followed, no proxy from the environment is used, no
/// content encoding is asked for, and an answer libcurl cannot read (a status below 100, a
/// malformed head) is an error, never a crash.
void otpkit_http_exchange(const otpkit_http_request *request, otpkit_http_result *result);

/// Releases what otpkit_http_exchange allocated in `result`.
void otpkit_http_result_free(otpkit_http_result *result);

/// Sets a cancellation flag from another thread.
void otpkit_http_cancel(int *flag);

#endif
