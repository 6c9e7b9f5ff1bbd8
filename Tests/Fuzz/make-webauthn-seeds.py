#!/usr/bin/env python3
"""Writes FuzzWebAuthn's seeds into Corpus/webauthn from the W3C test vectors
(TestVectors/webauthn-level3.json): each registration's attestation object (R), authenticator
data (A), credential public key (K) and client data (C), and each assertion's authenticator data
(S: the none-es256 one is the assertion the target verifies).

    python3 Tests/Fuzz/make-webauthn-seeds.py
"""
import json
import os
import pathlib

here = pathlib.Path(__file__).resolve().parent
vectors = json.loads((here / "../../TestVectors/webauthn-level3.json").read_text())["vectors"]
out = here / "Corpus" / "webauthn"
out.mkdir(parents=True, exist_ok=True)


def authenticator_data(attestation_object: bytes) -> bytes:
    """The authData byte string of an attestation object: after the text key, a CBOR byte string
    head of one (0x58) or two (0x59) length bytes."""
    at = attestation_object.index(b"hauthData") + len(b"hauthData")
    head = attestation_object[at]
    if head == 0x58:
        return attestation_object[at + 2 : at + 2 + attestation_object[at + 1]]
    if head == 0x59:
        length = int.from_bytes(attestation_object[at + 1 : at + 3], "big")
        return attestation_object[at + 3 : at + 3 + length]
    raise ValueError("unexpected authData head")


for vector in vectors:
    name = vector["anchor"].removeprefix("sctn-test-vectors-")
    registration = {key: bytes.fromhex(value) for key, value in vector["registration"].items()}
    authentication = {key: bytes.fromhex(value) for key, value in vector["authentication"].items()}
    data = authenticator_data(registration["attestationObject"])
    id_length = int.from_bytes(data[53:55], "big")
    key = data[55 + id_length :]
    seeds = {
        f"{name}-registration": b"R" + registration["attestationObject"],
        f"{name}-authenticator-data": b"A" + data,
        f"{name}-key": b"K" + key,
        f"{name}-client-data": b"C" + registration["clientDataJSON"],
        f"{name}-assertion": b"S" + authentication["authenticatorData"],
    }
    for file, content in seeds.items():
        (out / file).write_bytes(content)
print(f"{len(os.listdir(out))} seeds in {out}")
