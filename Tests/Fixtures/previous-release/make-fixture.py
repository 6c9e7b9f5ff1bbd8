#!/usr/bin/env python3
"""Writes the databases of an earlier OTPKit release that PreviousReleaseDatabaseTests opens.

Run once per backend, by hand, with the earlier release's server; never by the tests, which read
what it wrote:

    git worktree add /tmp/old 2da45aa && (cd /tmp/old && swift build --product otpkit-server)
    python3 Tests/Fixtures/previous-release/make-fixture.py /tmp/old/.build/debug/otpkit-server 2da45aa sqlite
    eval "$(bash .ci/postgres start)"
    python3 Tests/Fixtures/previous-release/make-fixture.py /tmp/old/.build/debug/otpkit-server 2da45aa postgres

It starts that server under --emulator on a new SQLite file in this folder (sqlite.db), or on a
new PostgreSQL database of the cluster libpq's PG* variables name (dumped by pg_dump to
postgres.sql, then dropped), with the sealing key in this folder (made when missing), makes accounts
through the REST API as the SDKs and firebase-admin do (a password account with a TOTP and a
phone factor, one with custom claims and a refresh token, an anonymous one), stops the server
with SIGTERM, and writes what a later release must still find to BACKEND.json (secrets in it are
of this throwaway database only), with the time it was written, which the tests' clock starts
from. The ID token signing key the server writes is not kept.
"""
import base64, hashlib, hmac, json, os, signal, struct, subprocess, sys, time, urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
PROJECT = "demo-otpkit"
KEY = "?key=demo-key"


def totp(secret, at):
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    digest = hmac.new(key, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


def main(executable, release, backend):
    key_file, signing_key = os.path.join(HERE, "sealing.key"), os.path.join(HERE, "signing.key")
    if not os.path.exists(key_file):
        with open(os.open(key_file, os.O_WRONLY | os.O_CREAT, 0o600), "w") as file:
            file.write(os.urandom(32).hex())
    if backend == "sqlite":
        database = os.path.join(HERE, "sqlite.db")
        for path in (database, database + "-wal", database + "-shm"):
            if os.path.exists(path):
                os.remove(path)
    else:
        name = "otpkit_previous_release"
        subprocess.run(["psql", "-d", "postgres", "-c", "DROP DATABASE IF EXISTS %s" % name, "-c", "CREATE DATABASE %s" % name], check=True)
        database = "postgresql://%s@%s:%s/%s" % (os.environ["PGUSER"], os.environ["PGHOST"].replace("/", "%2F"), os.environ["PGPORT"], name)
    server = subprocess.Popen(
        [executable, "--db", database, "--key-file", key_file, "--signing-key-file", signing_key, "--project-id", PROJECT, "--port", "0",
         "--emulator"],
        stdout=subprocess.PIPE, text=True)
    base = "http://127.0.0.1:%d" % int(server.stdout.readline())

    def call(path, body=None, owner=False):
        request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode())
        request.add_header("Content-Type", "application/json")
        if owner:
            request.add_header("Authorization", "Bearer owner")
        with urllib.request.urlopen(request) as answer:
            return json.load(answer)

    v1, v2 = "/identitytoolkit.googleapis.com/v1/", "/identitytoolkit.googleapis.com/v2/accounts/"
    admin = v1 + "projects/%s/accounts" % PROJECT
    written_at = int(time.time())
    try:
        ada = call(admin, {"email": "ada@example.com", "password": "ada's long password", "emailVerified": True,
                           "displayName": "Ada"}, owner=True)["localId"]
        token = call(v1 + "accounts:signInWithPassword" + KEY,
                     {"email": "ada@example.com", "password": "ada's long password", "returnSecureToken": True})["idToken"]
        info = call(v2 + "mfaEnrollment:start" + KEY, {"idToken": token, "totpEnrollmentInfo": {}})["totpSessionInfo"]
        secret = info["sharedSecretKey"]
        token = call(v2 + "mfaEnrollment:finalize" + KEY, {
            "idToken": token, "displayName": "Authenticator",
            "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": totp(secret, time.time())}})["idToken"]
        started = call(v2 + "mfaEnrollment:start" + KEY, {"idToken": token, "phoneEnrollmentInfo": {"phoneNumber": "+12015550123"}})
        session = started["phoneSessionInfo"]["sessionInfo"]
        codes = call("/emulator/v1/projects/%s/verificationCodes" % PROJECT)["verificationCodes"]
        code = next(entry["code"] for entry in codes if entry["sessionInfo"] == session)
        call(v2 + "mfaEnrollment:finalize" + KEY, {
            "idToken": token, "displayName": "Phone", "phoneVerificationInfo": {"sessionInfo": session, "code": code}})

        bob = call(admin, {"email": "bob@example.com", "password": "bob's long password", "emailVerified": True}, owner=True)["localId"]
        call(admin + ":update", {"localId": bob, "customAttributes": json.dumps({"role": "auditor"})}, owner=True)
        bob_refresh = call(v1 + "accounts:signInWithPassword" + KEY,
                           {"email": "bob@example.com", "password": "bob's long password", "returnSecureToken": True})["refreshToken"]
        anonymous = call(v1 + "accounts:signUp" + KEY, {"returnSecureToken": True})["localId"]
        enrollments = call(admin + ":lookup", {"localId": [ada]}, owner=True)["users"][0]["mfaInfo"]
    finally:
        server.send_signal(signal.SIGTERM)
        status = server.wait(60)
    os.remove(signing_key)
    if status != 0:
        sys.exit("the server exited %d" % status)
    if backend == "postgres":
        with open(os.path.join(HERE, "postgres.sql"), "w") as file:
            subprocess.run(["pg_dump", "--no-owner", "--no-privileges", "-d", name], stdout=file, check=True)
        subprocess.run(["psql", "-d", "postgres", "-c", "DROP DATABASE %s" % name], check=True)
    with open(os.path.join(HERE, backend + ".json"), "w") as file:
        json.dump({
            "writtenBy": "otpkit-server at " + release, "writtenAt": written_at,
            "ada": {"uid": ada, "email": "ada@example.com", "password": "ada's long password", "totpSecret": secret,
                    "phoneNumber": "+12015550123", "factors": [{"id": entry["mfaEnrollmentId"], "displayName": entry.get("displayName")}
                                                              for entry in enrollments]},
            "bob": {"uid": bob, "email": "bob@example.com", "password": "bob's long password", "refreshToken": bob_refresh,
                    "customAttributes": {"role": "auditor"}},
            "anonymous": {"uid": anonymous},
        }, file, indent=2)
        file.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
