"""Set-up of the otpkit-server workloads, through the server's own REST API (nothing measured here).

  otpkit_setup.py enroll PORT USERS OUT.jsonl      users with one TOTP factor each (server under --emulator)
  otpkit_setup.py mint PORT USERS.jsonl OUT.jsonl  two pending credentials per user (server under --emulator)
  otpkit_setup.py bodies PENDING.jsonl VALID.txt WRONG.txt [WRONG_PER_USER]

Users sign in through accounts:signInWithIdp with the emulator's unsigned Google credential, which
costs no password hash: a password sign-in runs scrypt at production cost (about 50 ms of CPU), and
tens of thousands of them would take longer than the whole benchmark. The request measured,
mfaSignIn:finalize with a TOTP code, does not depend on how the first factor was passed: the
pending credential is the same kind either way.
"""

import asyncio
import base64
import json
import random
import sys
import time

from benchlib import current_step, run_all, totp, wrong_code

API_KEY = "bench-key"
JSON = {"Content-Type": "application/json"}


def idp_body(subject: int) -> bytes:
    def b64(value: dict) -> str:
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    claims = {"sub": f"bench-{subject}", "email": f"bench-{subject}@example.com", "email_verified": True}
    token = b64({"alg": "none", "typ": "JWT"}) + "." + b64(claims) + "."
    return json.dumps(
        {"requestUri": "http://localhost", "postBody": f"id_token={token}&providerId=google.com", "returnSecureToken": True}
    ).encode()


async def post(connection, path: str, body: dict | bytes):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    answer = await connection.request("POST", f"{path}?key={API_KEY}", data, JSON)
    if answer.status != 200:
        raise RuntimeError(f"{path}: HTTP {answer.status}: {answer.body[:300]!r}")
    return answer.json()


async def enroll_one(connection, subject: int) -> dict:
    signed_in = await post(connection, "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp", idp_body(subject))
    started = await post(
        connection, "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:start",
        {"idToken": signed_in["idToken"], "totpEnrollmentInfo": {}},
    )
    info = started["totpSessionInfo"]
    step = current_step()
    await post(
        connection, "/identitytoolkit.googleapis.com/v2/accounts/mfaEnrollment:finalize",
        {
            "idToken": signed_in["idToken"],
            "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": totp(info["sharedSecretKey"], step)},
        },
    )
    return {"subject": subject, "uid": signed_in["localId"], "secret": info["sharedSecretKey"], "enrolled_step": step}


async def mint_one(connection, user: dict) -> dict:
    credentials, enrollment = [], None
    for _ in range(2):
        answer = await post(connection, "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp", idp_body(user["subject"]))
        credentials.append(answer["mfaPendingCredential"])
        enrollment = answer["mfaInfo"][0]["mfaEnrollmentId"]
    return {**user, "enrollment": enrollment, "pending": credentials}


def write_jsonl(path: str, rows):
    with open(path, "w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")


def read_jsonl(path: str):
    with open(path) as source:
        return [json.loads(line) for line in source]


def finalize_body(row: dict, credential: str, code: str) -> str:
    return json.dumps(
        {"mfaPendingCredential": credential, "mfaEnrollmentId": row["enrollment"], "totpVerificationInfo": {"verificationCode": code}},
        separators=(",", ":"),
    )


FORGED_LINES = 300_000


def forge(credential: str) -> str:
    """The credential with a character in the middle of its MAC changed (each carries six bits of
    it; the last carries padding too): the server's refusal before any store read ("not one this
    server issued")."""
    mac = credential.rindex(".") + 1
    i = mac + 10
    return credential[:i] + ("A" if credential[i] != "A" else "B") + credential[i + 1 :]


def bodies(pending_path: str, valid_path: str, wrong_path: str, forged_path: str, wrong_per_user: int):
    rows = read_jsonl(pending_path)
    # Each factor accepts one code per step, and enrollment spent the step it happened in.
    latest = max(row["enrolled_step"] for row in rows)
    while current_step() <= latest:
        time.sleep(0.5)
    step = current_step()
    with open(valid_path, "w") as out:
        for row in rows:
            out.write(finalize_body(row, row["pending"][0], totp(row["secret"], step)) + "\n")
    # A wrong code must miss every step of the ±5 window (and a step of margin each side), or
    # one in about 90,000 would be accepted by chance.
    lines = []
    for row in rows:
        window = {totp(row["secret"], s) for s in range(step - 6, step + 8)}
        salt = random.randrange(1_000_000)
        for k in range(wrong_per_user):
            code = wrong_code(totp(row["secret"], step), salt + k * 7919)
            while code in window:
                code = wrong_code(code, 1)
            lines.append(finalize_body(row, row["pending"][1], code))
    # Fewer wrong codes per user than the factor's lock (5 in a row), spread out so that no user's
    # codes cluster in one moment of the run.
    random.shuffle(lines)
    with open(wrong_path, "w") as out:
        out.write("\n".join(lines) + "\n")
    # The floor of a refusal over HTTP: the wrong-code bodies with forged credentials, refused
    # before the store is read. Lines may repeat (nothing is spent), so there are enough for any run.
    forged = [finalize_body(row, forge(row["pending"][1]), "000000") for row in rows]
    with open(forged_path, "w") as out:
        for k in range(FORGED_LINES):
            out.write(forged[k % len(forged)] + "\n")
    print(f"bodies for step {step}: {len(rows)} valid, {len(lines)} wrong", file=sys.stderr)


def main():
    command = sys.argv[1]
    if command == "enroll":
        port, count, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
        rows = asyncio.run(run_all("127.0.0.1", port, range(count), enroll_one, connections=48, label="enroll"))
        write_jsonl(out, rows)
    elif command == "mint":
        port, users, out = int(sys.argv[2]), read_jsonl(sys.argv[3]), sys.argv[4]
        rows = asyncio.run(run_all("127.0.0.1", port, users, mint_one, connections=48, label="mint"))
        write_jsonl(out, rows)
    elif command == "bodies":
        bodies(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6]) if len(sys.argv) > 6 else 4)
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main()
