"""python-fido2 (Yubico's, PyPI) reads the options OTPKit's server sent and verifies the responses
an authenticator gave to them, as its own relying party server would: a cross-check of OTPKit's
wire format and of its verification. Reads one JSON object on standard input:

    {"creationOptions": {…}, "requestOptions": {…}, "origin": "http://…",
     "registration": {"id", "rawId", "type", "response": {…}}, "assertion": {…}}

(options and responses exactly as they travelled), and writes what fido2 parsed and verified, or
the error it raised at the step that failed."""
import json
import sys

import fido2.features

fido2.features.webauthn_json_mapping.enabled = True

from fido2.server import Fido2Server
from fido2.utils import websafe_encode
from fido2.webauthn import PublicKeyCredentialCreationOptions, PublicKeyCredentialRequestOptions

request = json.load(sys.stdin)
out = {}
step = "creationOptions"
try:
    creation = PublicKeyCredentialCreationOptions.from_dict(request["creationOptions"])
    selection = creation.authenticator_selection
    out["creation"] = {
        "rpId": creation.rp.id, "rpName": creation.rp.name, "userId": creation.user.id.hex(), "userName": creation.user.name,
        "challenge": creation.challenge.hex(), "algorithms": [parameter.alg for parameter in creation.pub_key_cred_params],
        "excluded": [descriptor.id.hex() for descriptor in creation.exclude_credentials or []],
        "residentKey": str(selection.resident_key.value), "userVerification": str(selection.user_verification.value),
        "attestation": str(creation.attestation.value), "timeout": creation.timeout,
    }
    step = "requestOptions"
    assertion_options = PublicKeyCredentialRequestOptions.from_dict(request["requestOptions"])
    out["request"] = {
        "rpId": assertion_options.rp_id, "challenge": assertion_options.challenge.hex(),
        "userVerification": str(assertion_options.user_verification.value), "timeout": assertion_options.timeout,
    }
    server = Fido2Server({"id": creation.rp.id, "name": creation.rp.name}, verify_origin=lambda origin: origin == request["origin"])
    step = "registration"
    registered = server.register_complete(
        {"challenge": websafe_encode(creation.challenge), "user_verification": selection.user_verification}, request["registration"])
    out["registered"] = registered.credential_data.credential_id.hex()
    step = "assertion"
    authenticated = server.authenticate_complete(
        {"challenge": websafe_encode(assertion_options.challenge), "user_verification": assertion_options.user_verification},
        [registered.credential_data], request["assertion"])
    out["authenticated"] = authenticated.credential_id.hex()
except Exception as error:  # the step and fido2's reason, for the test to show
    out["failed"] = {"step": step, "error": f"{type(error).__name__}: {error}"}
json.dump(out, sys.stdout)
