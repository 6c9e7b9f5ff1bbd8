"""Registers a credential with soft-webauthn (PyPI), a software authenticator nobody here wrote, and
signs in with it, for OTPWebAuthn's cross-check. Reads one JSON object on standard input:

    {"rpId": "localhost", "origin": "http://localhost:9099", "userHandle": HEX,
     "registrationChallenge": HEX, "assertionChallenges": [HEX, ...]}

and writes one: {"rawId": HEX, "clientDataJSON": HEX, "attestationObject": HEX, "assertions":
[{"clientDataJSON", "authenticatorData", "signature", "userHandle"}, ...]}, every value hex.
soft-webauthn makes ES256 credentials with attestation none and flags UP (never UV), counting its
signatures from 1."""
import json
import sys

from soft_webauthn import SoftWebauthnDevice

request = json.load(sys.stdin)
device = SoftWebauthnDevice()
created = device.create(
    {
        "publicKey": {
            "rp": {"id": request["rpId"], "name": "OTPKit test"},
            "user": {"id": bytes.fromhex(request["userHandle"]), "name": "ada", "displayName": "Ada"},
            "challenge": bytes.fromhex(request["registrationChallenge"]),
            "pubKeyCredParams": [{"alg": -7, "type": "public-key"}],
        }
    },
    request["origin"],
)
assertions = []
for challenge in request["assertionChallenges"]:
    got = device.get({"publicKey": {"challenge": bytes.fromhex(challenge), "rpId": request["rpId"]}}, request["origin"])
    assertions.append({name: value.hex() for name, value in got["response"].items()})
json.dump(
    {
        "rawId": created["rawId"].hex(),
        "clientDataJSON": created["response"]["clientDataJSON"].hex(),
        "attestationObject": created["response"]["attestationObject"].hex(),
        "assertions": assertions,
    },
    sys.stdout,
)
