"""Issue 37, item 2: does a flood of password hashes from one account and one address starve the
rest of otpkit-server? Run by password-flood.sh against a release server under --emulator (no
request limits, so only the hashing gate stands between the flood and the CPU), with production
scrypt parameters.

  password_flood.py PORT VICTIMS SECONDS FLOOD_CONNECTIONS

Set-up (not measured): VICTIMS users with one TOTP factor each, signed in through the emulator's
unsigned Google credential (no password hash), each with a pending credential.

Then two phases of SECONDS each, the second under the flood:
- the probe, one request at a time with 20 ms between: `GET /`, then `mfaSignIn:finalize` with the
  next victim's pending credential and current code (each victim signs in once, so the code is never
  a replay);
- the flood (second phase only), FLOOD_CONNECTIONS connections from 127.0.0.1, in waves: a new
  anonymous account and one password link per connection, all at once (accounts:signUp with its
  idToken, as the review's 200 concurrent links); and a password account changing its password from
  every connection at once (accounts:update). Every one of them would run scrypt.

Prints one JSON object: the probe's latencies per phase (p50, p99, max, count, failures), the
flood's answers by kind, and the server's CPU seconds per phase (from /proc/PID/stat).
"""

import asyncio
import json
import os
import sys
import time

from benchlib import Connection, current_step, totp
from otpkit_setup import API_KEY, JSON, enroll_one, idp_body, post, run_all

V1 = "/identitytoolkit.googleapis.com/v1/"
V2 = "/identitytoolkit.googleapis.com/v2/accounts/"


def server_cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


async def pending_credential(connection, user: dict) -> dict:
    answer = await post(connection, V1 + "accounts:signInWithIdp", idp_body(user["subject"]))
    return {**user, "pending": answer["mfaPendingCredential"], "enrollment": answer["mfaInfo"][0]["mfaEnrollmentId"]}


async def probe(port: int, victims: list, seconds: float) -> dict:
    """`GET /` and one TOTP second step, in turn, for `seconds`: each one's latency in ms."""
    connection = Connection("127.0.0.1", port)
    latencies = {"get_root": [], "totp_sign_in": []}
    failures = {"get_root": 0, "totp_sign_in": 0}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and victims:
        started = time.monotonic()
        answer = await connection.request("GET", "/")
        latencies["get_root"].append((time.monotonic() - started) * 1000)
        failures["get_root"] += answer.status != 200
        victim = victims.pop()
        body = json.dumps(
            {
                "mfaPendingCredential": victim["pending"],
                "mfaEnrollmentId": victim["enrollment"],
                "totpVerificationInfo": {"verificationCode": totp(victim["secret"], current_step())},
            }
        ).encode()
        started = time.monotonic()
        answer = await connection.request("POST", V2 + f"mfaSignIn:finalize?key={API_KEY}", body, JSON)
        latencies["totp_sign_in"].append((time.monotonic() - started) * 1000)
        failures["totp_sign_in"] += answer.status != 200
        await asyncio.sleep(0.02)
    connection.close()
    return {
        name: {
            "count": len(values),
            "failures": failures[name],
            "p50_ms": round(percentile(values, 0.5), 1),
            "p99_ms": round(percentile(values, 0.99), 1),
            "max_ms": round(max(values, default=float("nan")), 1),
        }
        for name, values in latencies.items()
    }


async def flood(port: int, connections: int, stop: asyncio.Event) -> dict:
    """Waves of password links and password changes, every connection at once, until `stop`."""
    answers: dict[str, int] = {}

    def count(answer):
        kind = "ok" if answer.status == 200 else answer.json().get("error", {}).get("message", "?").split(" : ")[0]
        answers[kind] = answers.get(kind, 0) + 1

    pool = [Connection("127.0.0.1", port) for _ in range(connections)]
    control = Connection("127.0.0.1", port)
    created = await post(control, V1 + "accounts:signUp", {"email": "flood-owner@example.com", "password": "long enough"})
    owner_token = created["idToken"]
    wave = 0
    while not stop.is_set():
        wave += 1
        anonymous = (await post(control, V1 + "accounts:signUp", {}))["idToken"]

        async def link(connection, index):
            body = {"idToken": anonymous, "email": f"flood-{wave}-{index}@example.com", "password": "long enough"}
            count(await connection.request("POST", V1 + f"accounts:signUp?key={API_KEY}", json.dumps(body).encode(), JSON))

        async def change(connection, index):
            body = {"idToken": owner_token, "password": f"new password {wave}-{index}", "returnSecureToken": True}
            answer = await connection.request("POST", V1 + f"accounts:update?key={API_KEY}", json.dumps(body).encode(), JSON)
            count(answer)
            return answer

        half = connections // 2
        results = await asyncio.gather(
            *(link(pool[i], i) for i in range(half)), *(change(pool[i], i) for i in range(half, connections))
        )
        # The change that went through revoked the owner's other sessions: carry on with its tokens.
        for answer in results:
            if answer is not None and answer.status == 200:
                owner_token = answer.json()["idToken"]
    for connection in pool + [control]:
        connection.close()
    return {"waves": wave, "answers": answers}


async def main():
    port, victim_count, seconds, connections = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    server_pid = int(os.environ["SERVER_PID"])
    users = await run_all("127.0.0.1", port, range(victim_count), enroll_one, connections=16)
    # A factor accepts one code per step, and enrollment spent the step it happened in.
    latest = max(user["enrolled_step"] for user in users)
    while current_step() <= latest:
        await asyncio.sleep(0.5)
    victims = await run_all("127.0.0.1", port, users, pending_credential, connections=16)
    half = len(victims) // 2
    quiet_victims, flood_victims = victims[:half], victims[half:]

    report = {"seconds": seconds, "flood_connections": connections}
    cpu = server_cpu_seconds(server_pid)
    report["quiet"] = await probe(port, quiet_victims, seconds)
    report["quiet"]["server_cpu_s"] = round(server_cpu_seconds(server_pid) - cpu, 2)

    stop = asyncio.Event()
    cpu = server_cpu_seconds(server_pid)
    flooding = asyncio.create_task(flood(port, connections, stop))
    await asyncio.sleep(1)  # the first wave under way
    report["flood"] = await probe(port, flood_victims, seconds)
    stop.set()
    report["flood"]["server_cpu_s"] = round(server_cpu_seconds(server_pid) - cpu, 2)
    report["flood"]["flood"] = await flooding
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
