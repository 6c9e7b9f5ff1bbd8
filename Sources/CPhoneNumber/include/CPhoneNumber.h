// The C face of libphonenumber (C++) for OTPPhoneNumber. Swift imports this header as C, so no
// C++ type, exception or allocation crosses into Swift: the caller owns every buffer.

#ifndef OTPKIT_CPHONENUMBER_H
#define OTPKIT_CPHONENUMBER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why a text is not a phone number OTPKit accepts, or `CPN_OK`.
typedef enum cpn_status {
    CPN_OK = 0,
    /// The default region is not a region libphonenumber knows (ISO 3166 alpha-2, upper case).
    CPN_UNKNOWN_REGION,
    /// Not in international form and no default region to read it in.
    CPN_MISSING_COUNTRY_CODE,
    /// The country calling code after `+` (or an international prefix) is not assigned.
    CPN_INVALID_COUNTRY_CODE,
    /// Too few digits, or letters or symbols where digits belong.
    CPN_NOT_A_NUMBER,
    /// An international prefix (such as 011 or 00) with too little after it.
    CPN_TOO_SHORT_AFTER_IDD,
    /// Shorter than every number of its country.
    CPN_TOO_SHORT,
    /// Longer than every number of its country.
    CPN_TOO_LONG,
    /// Between its country's shortest and longest numbers, at a length none has.
    CPN_INVALID_LENGTH,
    /// A possible length, but not in a range its country assigns.
    CPN_INVALID_NUMBER,
    /// Carries an extension, which a text message cannot reach.
    CPN_HAS_EXTENSION,
    /// libphonenumber failed (out of memory) or the output buffer was too small.
    CPN_INTERNAL_ERROR,
} cpn_status;

/// E.164 has at most 15 digits; with `+` and the terminating NUL this always suffices.
#define CPN_E164_CAPACITY 17

/// Parses `length` bytes of UTF-8 at `text` as a phone number, reading a number without a
/// country calling code as one of `default_region` (NUL-terminated ISO 3166 alpha-2 such as "US",
/// or NULL for none). On `CPN_OK` writes the E.164 form, NUL-terminated, into `e164` (at least
/// `CPN_E164_CAPACITY` bytes) and the country calling code into `country_calling_code`; on any
/// other status leaves both unspecified. Safe to call from any thread.
cpn_status cpn_parse(
    const char *text, size_t length, const char *default_region, char *e164, size_t e164_capacity,
    int32_t *country_calling_code);

#ifdef __cplusplus
}
#endif

#endif
