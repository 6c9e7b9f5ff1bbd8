#ifndef OTPKIT_CCURLSMTP_H
#define OTPKIT_CCURLSMTP_H

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

#endif
