"""Checks of OTPKit's own that Schemathesis runs beside its built-in ones (SCHEMATHESIS_HOOKS).

Every error answer is Google's error JSON, whose code is the HTTP status, and no answer repeats a
password the request carried.
"""

import json

import schemathesis


@schemathesis.check
def google_error_shape(ctx, response, case):
    """An error answers {"error": {"code": <the status>, "message": "...", "errors": [...]}}."""
    if response.status_code < 400:
        return None
    try:
        body = json.loads(response.content)
    except ValueError:
        raise AssertionError(f"error {response.status_code} is not JSON: {response.content[:200]!r}")
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):
        raise AssertionError(f"error {response.status_code} has no error object: {body!r:.200}")
    if error.get("code") != response.status_code:
        raise AssertionError(f"error.code {error.get('code')!r} is not the status {response.status_code}")
    message = error.get("message")
    if not isinstance(message, str) or not message:
        raise AssertionError(f"error.message is missing or empty: {error!r:.200}")
    if not isinstance(error.get("errors"), list):
        raise AssertionError(f"error.errors is not a list: {error!r:.200}")
    return None


@schemathesis.check
def no_password_echoed(ctx, response, case):
    """No answer contains a password (six characters or more) the request sent."""
    body = case.body if isinstance(case.body, dict) else {}
    secrets = [body.get(name) for name in ("password", "newPassword", "rawPassword")]
    text = response.content.decode("utf-8", "replace")
    for secret in secrets:
        if isinstance(secret, str) and len(secret) >= 6 and secret in text:
            raise AssertionError("the answer repeats the password the request sent")
    return None
