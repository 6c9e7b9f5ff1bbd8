"""Issue 37, item 2: does a flood of password hashes from one account and one address starve the
rest of otpkit-server? Run by password-flood.sh against a release server under --emulator (no
request limits, so only the hashing gate stands between the flood and the CPU), with production
scrypt parameters.

  password_flood.py PORT VICTIMS SECONDS FLOOD_CONNECTIONS RETRY_AFTER

Set-up (not measured): VICTIMS users with one TOTP factor each, signed in through the emulator's
unsigned Google credential (no password hash), each with a pending credential.

Then two phases of SECONDS each, the second under the flood:
- the probe, one request at a time with 100 ms between: `GET /`, then `mfaSignIn:finalize` with the
  next victim's pending credential and current code (each victim signs in once, so the code is never
  a replay; a phase needs SECONDS * 10 victims);
- the flood (second phase only), FLOOD_CONNECTIONS connections from 127.0.0.1, each keeping one
  password request in flight: half link a password to a new anonymous account each time
  (accounts:signUp with its idToken, the review's links), half change the password of an account of
  their own (accounts:update). Every one of them would run scrypt. After a refusal for load
  (TOO_MANY_ATTEMPTS_TRY_LATER) a connection waits RETRY_AFTER seconds, as a client that honours
  the answer does; 0 hammers, as an attacker may, and then the flood is one of requests as much
  as of hashes.

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
        await asyncio.sleep(0.1)
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


async def flood(port: int, connections: int, retry_after: float, ready: asyncio.Event, stop: asyncio.Event) -> dict:
    """Every connection keeps one password request in flight until `stop`: half link a password
    to a new anonymous account each time, half change the password of an account of their own."""
    answers: dict[str, int] = {}

    async def count(answer):
        kind = "ok" if answer.status == 200 else answer.json().get("error", {}).get("message", "?").split(" : ")[0]
        answers[kind] = answers.get(kind, 0) + 1
        if kind == "TOO_MANY_ATTEMPTS_TRY_LATER" and retry_after > 0:
            await asyncio.sleep(retry_after)

    async def linker(index: int):
        connection, serial = Connection("127.0.0.1", port), 0
        while not stop.is_set():
            serial += 1
            signed_up = await connection.request("POST", V1 + f"accounts:signUp?key={API_KEY}", b"{}", JSON)
            if signed_up.status != 200:
                # Refused for the address's sign-up limit: counted as the flood's, and again.
                await count(signed_up)
                continue
            anonymous = signed_up.json()["idToken"]
            body = {"idToken": anonymous, "email": f"flood-{index}-{serial}@example.com", "password": "long enough"}
            await count(await connection.request("POST", V1 + f"accounts:signUp?key={API_KEY}", json.dumps(body).encode(), JSON))
        connection.close()

    async def changer(index: int, token: str):
        connection, serial = Connection("127.0.0.1", port), 0
        while not stop.is_set():
            serial += 1
            body = {"idToken": token, "password": f"new password {serial}", "returnSecureToken": True}
            answer = await connection.request("POST", V1 + f"accounts:update?key={API_KEY}", json.dumps(body).encode(), JSON)
            await count(answer)
            if answer.status == 200:
                token = answer.json()["idToken"]
        connection.close()

    half = connections // 2
    tokens = []
    setup = Connection("127.0.0.1", port)
    for index in range(connections - half):
        created = await post(setup, V1 + "accounts:signUp", {"email": f"owner-{index}@example.com", "password": "long enough"})
        tokens.append(created["idToken"])
    setup.close()
    ready.set()
    started = time.monotonic()
    await asyncio.gather(*(linker(i) for i in range(half)), *(changer(i, tokens[i]) for i in range(len(tokens))))
    return {"seconds": round(time.monotonic() - started, 1), "answers": answers}


async def main():
    port, victim_count, seconds, connections = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
    retry_after = float(sys.argv[5])
    server_pid = int(os.environ["SERVER_PID"])
    users = await run_all("127.0.0.1", port, range(victim_count), enroll_one, connections=16)
    # A factor accepts one code per step, and enrollment spent the step it happened in.
    latest = max(user["enrolled_step"] for user in users)
    while current_step() <= latest:
        await asyncio.sleep(0.5)
    victims = await run_all("127.0.0.1", port, users, pending_credential, connections=16)
    half = len(victims) // 2
    quiet_victims, flood_victims = victims[:half], victims[half:]

    report = {"seconds": seconds, "flood_connections": connections, "retry_after_s": retry_after}
    cpu = server_cpu_seconds(server_pid)
    report["quiet"] = await probe(port, quiet_victims, seconds)
    report["quiet"]["server_cpu_s"] = round(server_cpu_seconds(server_pid) - cpu, 2)

    ready, stop = asyncio.Event(), asyncio.Event()
    flooding = asyncio.create_task(flood(port, connections, retry_after, ready, stop))
    await ready.wait()
    await asyncio.sleep(2)  # every flood connection has a request in flight
    cpu = server_cpu_seconds(server_pid)
    report["flood"] = await probe(port, flood_victims, seconds)
    stop.set()
    report["flood"]["server_cpu_s"] = round(server_cpu_seconds(server_pid) - cpu, 2)
    report["flood"]["flood"] = await flooding
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
