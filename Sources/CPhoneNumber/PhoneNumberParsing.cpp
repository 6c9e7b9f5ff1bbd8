// cpn_parse on i18n::phonenumbers::PhoneNumberUtil. libphonenumber does not throw, but building
// its std::string arguments can (std::bad_alloc), and no exception may unwind into Swift.

#include "CPhoneNumber.h"

#include <cstring>
#include <string>

#include <phonenumbers/phonenumber.pb.h>
#include <phonenumbers/phonenumberutil.h>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

namespace {

// libphonenumber treats a number it cannot place in a country the same way whether the number
// lacks a country calling code or has an unassigned one; only the first is fixed by a default
// region, so the message must tell them apart. A number in international form starts with a
// plus sign (ASCII or full-width, both of which libphonenumber accepts).
bool containsPlusSign(const std::string &text) {
    return text.find('+') != std::string::npos || text.find("\xEF\xBC\x8B") != std::string::npos;
}

cpn_status statusForParseError(PhoneNumberUtil::ErrorType error, const std::string &text, bool hasRegion) {
    switch (error) {
    case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR:
        return !hasRegion && !containsPlusSign(text) ? CPN_MISSING_COUNTRY_CODE : CPN_INVALID_COUNTRY_CODE;
    case PhoneNumberUtil::NOT_A_NUMBER: return CPN_NOT_A_NUMBER;
    case PhoneNumberUtil::TOO_SHORT_AFTER_IDD: return CPN_TOO_SHORT_AFTER_IDD;
    case PhoneNumberUtil::TOO_SHORT_NSN: return CPN_TOO_SHORT;
    case PhoneNumberUtil::TOO_LONG_NSN: return CPN_TOO_LONG;
    case PhoneNumberUtil::NO_PARSING_ERROR: break;
    }
    return CPN_INTERNAL_ERROR;
}

// Why a parsed number is not valid: its length first, as that is what a typing mistake changes.
cpn_status statusForInvalidNumber(const PhoneNumberUtil &util, const PhoneNumber &number) {
    switch (util.IsPossibleNumberWithReason(number)) {
    case PhoneNumberUtil::INVALID_COUNTRY_CODE: return CPN_INVALID_COUNTRY_CODE;
    // A local-only length lacks its area code: too short to reach from anywhere.
    case PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY:
    case PhoneNumberUtil::TOO_SHORT: return CPN_TOO_SHORT;
    case PhoneNumberUtil::TOO_LONG: return CPN_TOO_LONG;
    case PhoneNumberUtil::INVALID_LENGTH: return CPN_INVALID_LENGTH;
    case PhoneNumberUtil::IS_POSSIBLE: break;
    }
    return CPN_INVALID_NUMBER;
}

cpn_status parse(const std::string &text, const char *defaultRegion, char *e164, size_t capacity, int32_t *countryCallingCode) {
    const PhoneNumberUtil &util = *PhoneNumberUtil::GetInstance();
    // libphonenumber reads an unknown region as "no region" without saying so; a caller that named
    // one must hear that it was not understood instead.
    std::string region = defaultRegion != nullptr ? defaultRegion : "";
    if (!region.empty() && util.GetCountryCodeForRegion(region) == 0) return CPN_UNKNOWN_REGION;

    PhoneNumber number;
    PhoneNumberUtil::ErrorType error = util.Parse(text, region.empty() ? "ZZ" : region, &number);
    if (error != PhoneNumberUtil::NO_PARSING_ERROR) return statusForParseError(error, text, !region.empty());
    if (!util.IsValidNumber(number)) return statusForInvalidNumber(util, number);
    // E.164 has no extensions: keeping the number would silently drop it.
    if (number.has_extension()) return CPN_HAS_EXTENSION;

    std::string formatted;
    util.Format(number, PhoneNumberUtil::E164, &formatted);
    // libphonenumber's E.164 form is not always a fixed point: a Mexican number written with a
    // national prefix after the country code (00 52 01 1 55…) formats as +52 1 55…, whose 1 (the
    // mobile prefix Mexico dropped in 2019) the next parse strips. One number must have one form,
    // or an enrollment and a sign-in could name it differently, so the form is parsed again until
    // it stays the same (the fuzzer found it; Python's phonenumbers port does the same).
    for (int round = 0;; ++round) {
        PhoneNumber again;
        if (util.Parse(formatted, "ZZ", &again) != PhoneNumberUtil::NO_PARSING_ERROR || !util.IsValidNumber(again)) {
            return CPN_INVALID_NUMBER;
        }
        std::string next;
        util.Format(again, PhoneNumberUtil::E164, &next);
        if (next == formatted) break;
        if (round == 3) return CPN_INVALID_NUMBER;
        formatted = next;
        number = again;
    }
    if (formatted.size() + 1 > capacity) return CPN_INTERNAL_ERROR;
    std::memcpy(e164, formatted.c_str(), formatted.size() + 1);
    *countryCallingCode = number.country_code();
    return CPN_OK;
}

}  // namespace

extern "C" cpn_status cpn_parse(
    const char *text, size_t length, const char *default_region, char *e164, size_t e164_capacity,
    int32_t *country_calling_code) {
    try {
        return parse(std::string(text, length), default_region, e164, e164_capacity, country_calling_code);
    } catch (...) {
        return CPN_INTERNAL_ERROR;
    }
}
