"""Set-up of the privacyIDEA workloads through its REST API (nothing measured here).

  privacyidea_setup.py enroll PORT USERS PASSWD_FILE OUT.jsonl   a realm of USERS users, a TOTP token each
  privacyidea_setup.py bodies TOKENS.jsonl VALID.txt WRONG.txt [WRONG_PER_USER]

The users come from a passwd-file resolver in a default realm, so /validate/check is asked as an
application asks it, by user name (user=…&pass=CODE): privacyIDEA then finds the user, the realm
and the user's tokens, as it would for a real sign-in.
"""

import asyncio
import base64
import json
import os
import random
import sys
import urllib.parse

from benchlib import current_step, run_all, totp, wrong_code

FORM = {"Content-Type": "application/x-www-form-urlencoded"}
ADMIN, ADMIN_PASSWORD = "admin", "bench-admin-password"


def form(fields: dict) -> bytes:
    return urllib.parse.urlencode(fields).encode()


async def call(connection, path: str, fields: dict, token: str | None = None):
    headers = dict(FORM)
    if token:
        headers["Authorization"] = token
    answer = await connection.request("POST", path, form(fields), headers)
    result = answer.json()
    if answer.status != 200 or not result.get("result", {}).get("status"):
        raise RuntimeError(f"{path}: HTTP {answer.status}: {answer.body[:300]!r}")
    return result["result"]["value"]


async def enroll(port: int, count: int, passwd_file: str):
    with open(passwd_file, "w") as out:
        for i in range(count):
            out.write(f"pibench{i}:x:{20000 + i}:{20000 + i}:Bench {i}:/nonexistent:/bin/false\n")
    results = await run_all("127.0.0.1", port, [None], lambda connection, _: configure(connection, passwd_file), connections=1)
    token = results[0]

    async def one(connection, i: int) -> dict:
        secret = os.urandom(20)
        await call(
            connection, "/token/init",
            {"type": "totp", "serial": f"PIBENCH{i}", "otpkey": secret.hex(), "genkey": "0", "otplen": "6", "hashlib": "sha1",
             "timeStep": "30", "user": f"pibench{i}", "realm": "bench"},
            token,
        )
        return {"user": f"pibench{i}", "secret": base64.b32encode(secret).decode()}

    # privacyIDEA's workers are two synchronous processes: more connections only queue.
    return await run_all("127.0.0.1", port, range(count), one, connections=4, label="privacyIDEA tokens")


async def configure(connection, passwd_file: str) -> str:
    auth = await call(connection, "/auth", {"username": ADMIN, "password": ADMIN_PASSWORD})
    token = auth["token"]
    await call(connection, "/resolver/benchusers", {"type": "passwdresolver", "fileName": passwd_file}, token)
    await call(connection, "/realm/bench", {"resolvers": "benchusers"}, token)
    await call(connection, "/defaultrealm/bench", {}, token)
    return token


def bodies(tokens_path: str, valid_path: str, wrong_path: str, wrong_per_user: int):
    with open(tokens_path) as source:
        rows = [json.loads(line) for line in source]
    step = current_step()
    with open(valid_path, "w") as out:
        for row in rows:
            out.write(form({"user": row["user"], "pass": totp(row["secret"], step)}).decode() + "\n")
    # privacyIDEA's default window is 180 s after and before the step; a wrong code misses it all.
    lines = []
    for row in rows:
        window = {totp(row["secret"], s) for s in range(step - 8, step + 9)}
        salt = random.randrange(1_000_000)
        for k in range(wrong_per_user):
            code = wrong_code(totp(row["secret"], step), salt + k * 7919)
            while code in window:
                code = wrong_code(code, 1)
            lines.append(form({"user": row["user"], "pass": code}).decode())
    # Below the token's fail counter (10 by default), so every answer is a plain REJECT.
    random.shuffle(lines)
    with open(wrong_path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print(f"privacyIDEA bodies for step {step}: {len(rows)} valid, {len(lines)} wrong", file=sys.stderr)


def main():
    command = sys.argv[1]
    if command == "enroll":
        port, count, passwd_file, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
        rows = asyncio.run(enroll(port, count, passwd_file))
        with open(out, "w") as target:
            for row in rows:
                target.write(json.dumps(row) + "\n")
    elif command == "bodies":
        bodies(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]) if len(sys.argv) > 5 else 4)
    else:
        raise SystemExit(f"unknown command {command}")


if __name__ == "__main__":
    main()
