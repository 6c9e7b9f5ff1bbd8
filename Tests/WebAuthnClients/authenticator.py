"""A software WebAuthn authenticator for the flags and algorithms soft-webauthn lacks: ES256, EdDSA
(Ed25519) and RS256 keys from pyca `cryptography`, COSE keys and attestation objects from
python-fido2's `cbor` and `cose` modules, attestation `none`, `packed` self attestation or `packed`
with an `x5c` chain (a root and an attestation certificate made here with `cryptography`, the root
given back as `attestationRoot`), and any flags (UV, BE, BS). Nothing of OTPKit's is used: W3C Web Authentication sections 6.1, 6.5 and 8.2
are followed from the specification.

Reads one JSON object on standard input:

    {"rpId", "origin", "algorithm": -7 | -8 | -257, "attestation": "none" | "packed" | "packed-x5c",
     "userHandle": HEX, "flags": {"uv": bool, "be": bool, "bs": bool},
     "registrationChallenge": HEX, "assertionChallenges": [HEX, ...],
     "certificateTime": UNIX_SECONDS (packed-x5c only),
     "privateKey": HEX, "credentialId": HEX, "counter": N (optional: the key, PKCS#8 DER, and the
     credential of an earlier run, whose counter was at N, to sign with again)}

and writes {"rawId", "clientDataJSON", "attestationObject", "attestationRoot", "privateKey", "assertions": [{"clientDataJSON",
"authenticatorData", "signature", "userHandle"}]}, every value hex. Its counter starts at 0 and
goes up by one a signature."""
import base64
import datetime
import hashlib
import json
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.x509.oid import NameOID, ObjectIdentifier
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cbor
from fido2.cose import ES256, RS256, EdDSA

request = json.load(sys.stdin)
algorithm = request["algorithm"]
if "privateKey" in request:
    private_key = serialization.load_der_private_key(bytes.fromhex(request["privateKey"]), password=None)
elif algorithm == -7:
    private_key = ec.generate_private_key(ec.SECP256R1())
else:
    private_key = None
if algorithm == -7:
    cose_key = ES256.from_cryptography_key(private_key.public_key())
    sign = lambda message: private_key.sign(message, ec.ECDSA(hashes.SHA256()))
elif algorithm == -8:
    private_key = private_key or ed25519.Ed25519PrivateKey.generate()
    cose_key = EdDSA.from_cryptography_key(private_key.public_key())
    sign = lambda message: private_key.sign(message)
elif algorithm == -257:
    private_key = private_key or rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cose_key = RS256.from_cryptography_key(private_key.public_key())
    sign = lambda message: private_key.sign(message, padding.PKCS1v15(), hashes.SHA256())
else:
    raise SystemExit(f"unknown algorithm {algorithm}")

flags = request["flags"]
user_present, attested = 0x01, 0x40
flag_byte = user_present | (0x04 if flags["uv"] else 0) | (0x08 if flags["be"] else 0) | (0x10 if flags["bs"] else 0)
rp_id_hash = hashlib.sha256(request["rpId"].encode()).digest()
credential_id = bytes.fromhex(request["credentialId"]) if "credentialId" in request else os.urandom(32)
counter = request.get("counter", 0)


def client_data(kind: str, challenge_hex: str) -> bytes:
    challenge = base64.urlsafe_b64encode(bytes.fromhex(challenge_hex)).rstrip(b"=").decode()
    return json.dumps({"type": kind, "challenge": challenge, "origin": request["origin"], "crossOrigin": False}).encode()


registration_client_data = client_data("webauthn.create", request["registrationChallenge"])
authenticator_data = (
    rp_id_hash
    + bytes([flag_byte | attested])
    + struct.pack(">I", counter)
    + bytes(16)  # AAGUID: none
    + struct.pack(">H", len(credential_id))
    + credential_id
    + cbor.encode(dict(cose_key))
)
attestation_root = b""
if request["attestation"] == "packed":
    signature = sign(authenticator_data + hashlib.sha256(registration_client_data).digest())
    statement = {"alg": algorithm, "sig": signature}
elif request["attestation"] == "packed-x5c":
    # W3C Web Authentication section 8.2.1: version 3, subject C, O, OU "Authenticator Attestation"
    # and CN, not a CA; the AAGUID extension (id-fido-gen-ce-aaguid), not critical.
    # The certificates' validity is around the time the test gives, which verifies at that time.
    now = datetime.datetime.fromtimestamp(request["certificateTime"], datetime.timezone.utc)
    root_key = ec.generate_private_key(ec.SECP256R1())
    root_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Test attestation root")])
    root = (
        x509.CertificateBuilder().subject_name(root_name).issuer_name(root_name).public_key(root_key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
        .sign(root_key, hashes.SHA256())
    )
    attestation_key = ec.generate_private_key(ec.SECP256R1())
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([
            x509.NameAttribute(NameOID.COUNTRY_NAME, "DE"), x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Test Vendor"),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "Authenticator Attestation"),
            x509.NameAttribute(NameOID.COMMON_NAME, "Test Authenticator"),
        ]))
        .issuer_name(root_name).public_key(attestation_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.UnrecognizedExtension(ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4"), b"\x04\x10" + bytes(16)), critical=False)
        .sign(root_key, hashes.SHA256())
    )
    signature = attestation_key.sign(authenticator_data + hashlib.sha256(registration_client_data).digest(), ec.ECDSA(hashes.SHA256()))
    statement = {"alg": -7, "sig": signature, "x5c": [leaf.public_bytes(serialization.Encoding.DER)]}
    attestation_root = root.public_bytes(serialization.Encoding.DER)
else:
    statement = {}
attestation_format = "packed" if request["attestation"].startswith("packed") else request["attestation"]
attestation_object = cbor.encode({"fmt": attestation_format, "attStmt": statement, "authData": authenticator_data})

assertions = []
for challenge in request["assertionChallenges"]:
    counter += 1
    data = rp_id_hash + bytes([flag_byte]) + struct.pack(">I", counter)
    collected = client_data("webauthn.get", challenge)
    assertions.append(
        {
            "clientDataJSON": collected.hex(),
            "authenticatorData": data.hex(),
            "signature": sign(data + hashlib.sha256(collected).digest()).hex(),
            "userHandle": request["userHandle"],
        }
    )
json.dump(
    {
        "rawId": credential_id.hex(),
        "clientDataJSON": registration_client_data.hex(),
        "attestationObject": attestation_object.hex(),
        "attestationRoot": attestation_root.hex(),
        "privateKey": private_key.private_bytes(
            serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).hex(),
        "assertions": assertions,
    },
    sys.stdout,
)
