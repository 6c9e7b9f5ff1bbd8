#!/usr/bin/env python3
"""Writes FuzzIdentityTokens' seeds to Corpus/identitytokens: a key set (RS256, ES256 and EdDSA keys)
and ID tokens signed by PyJWT (a JOSE library nobody here wrote), each seed `KEY SET \\0 TOKEN`, plus
the classic forgeries (alg none, HS256 with the public key, no kid, a kid not published).

    PYTHONPATH=/opt/otpkit-python/firebase-admin-7.7.0 python3 Tests/Fuzz/make-identity-token-seeds.py

The claims match FuzzIdentityTokens' settings and its fixed clock (1,800,000,000)."""
import json
import os

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Corpus", "identitytokens")
os.makedirs(here, exist_ok=True)
keys = {"rsa": (rsa.generate_private_key(public_exponent=65537, key_size=2048), RSAAlgorithm, "RS256"),
        "ec": (ec.generate_private_key(ec.SECP256R1()), ECAlgorithm, "ES256"),
        "ed": (ed25519.Ed25519PrivateKey.generate(), OKPAlgorithm, "EdDSA")}
published = []
for kid, (key, algorithm, name) in keys.items():
    jwk = json.loads(algorithm.to_jwk(key.public_key()))
    jwk.update(kid=kid, use="sig", alg=name)
    published.append(jwk)
key_set = json.dumps({"keys": published}, separators=(",", ":")).encode()
claims = {"iss": "https://issuer.example", "aud": "fuzz-client", "sub": "user-1", "iat": 1_800_000_000, "exp": 1_800_003_600,
          "email": "user@example.com", "email_verified": True, "nonce": "n-0S6_WzA2Mj", "auth_time": 1_800_000_000}


def write(name, token, key_set=key_set):
    with open(os.path.join(here, name), "wb") as seed:
        seed.write(key_set + b"\0" + token.encode())


for kid, (key, _, name) in keys.items():
    write(f"{kid}-valid", jwt.encode(claims, key, algorithm=name, headers={"kid": kid}))
rsa_key = keys["rsa"][0]
write("rsa-expired", jwt.encode({**claims, "exp": 1_700_000_000}, rsa_key, algorithm="RS256", headers={"kid": "rsa"}))
write("rsa-other-audience", jwt.encode({**claims, "aud": ["other", "fuzz-client"], "azp": "other"}, rsa_key, algorithm="RS256", headers={"kid": "rsa"}))
write("rsa-no-kid", jwt.encode(claims, rsa_key, algorithm="RS256"))
write("rsa-unknown-kid", jwt.encode(claims, rsa_key, algorithm="RS256", headers={"kid": "gone"}))
write("ec-crit", jwt.encode(claims, keys["ec"][0], algorithm="ES256", headers={"kid": "ec", "crit": ["b64"], "b64": False}))
write("none", jwt.encode(claims, None, algorithm="none", headers={"kid": "rsa"}))
write("hs256-public-key", jwt.encode(claims, "not the key", algorithm="HS256", headers={"kid": "rsa"}))
with open(os.path.join(here, "empty-key-set"), "wb") as seed:
    seed.write(b'{"keys":[]}\0' + jwt.encode(claims, rsa_key, algorithm="RS256", headers={"kid": "rsa"}).encode())
