#!/usr/bin/env python3
"""A soak of otpkit-server under faults: two servers on one PostgreSQL database, mixed traffic, and
three faults on a timeline (one server killed with SIGKILL and started again, PostgreSQL restarted the
hard way, one client filling its quota). Run by Benchmarks/Soak/run.sh, which builds the server and
starts the database; this file only drives them.

At the end it checks what must hold whatever happened: every sign-up the server acknowledged
exists; no TOTP code was accepted twice (each accepted code is replayed at once on the other
server, and some are sent to both at the same moment); the surviving server's memory and file
descriptors are flat (each minute's lowest, growing by at most 1 MiB and 1 descriptor a minute over
the second half); and p99 latency came back within seconds of each fault. It prints a report
and writes the timeline (one line a second) to --directory.

Standard library only: the harness is ours and has to run where only Debian's python3 is.
"""
import argparse
import base64
import hashlib
import hmac
import http.client
import json
import os
import random
import secrets
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

API_KEY = "soak"
PROJECT = "soak-project"
# The administrator's bearer token, written to the servers' --admin-token-file at the start.
ADMIN_TOKEN = secrets.token_urlsafe(32)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def totp(key_base32, at):
    key = base64.b32decode(key_base32 + "=" * (-len(key_base32) % 8), casefold=True)
    digest = hmac.new(key, struct.pack(">Q", int(at) // 30), hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    return "%06d" % ((struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


class Server:
    """One otpkit-server process; `kill` is SIGKILL, `start` waits until it answers."""

    def __init__(self, name, binary, arguments, directory):
        self.name, self.binary, self.arguments, self.directory = name, binary, arguments, directory
        self.port = free_port()
        self.process = None
        self.up = False

    def start(self):
        log = open(os.path.join(self.directory, self.name + ".log"), "ab")
        self.process = subprocess.Popen([self.binary, "--port", str(self.port)] + self.arguments, stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                connection.request("GET", "/")
                if connection.getresponse().status == 200:
                    self.up = True
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                sys.exit(f"soak: {self.name} exited with {self.process.returncode} at start: see {log.name}")
            time.sleep(0.1)
        sys.exit(f"soak: {self.name} did not answer within 60 s: see {log.name}")

    def kill(self):
        self.up = False
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)

    def memory_and_descriptors(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            rss = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        return rss, len(os.listdir(f"/proc/{self.process.pid}/fd"))


class Recorder:
    """Every request's end time, latency and outcome, and the counts the checks need."""

    def __init__(self):
        self.lock = threading.Lock()
        self.requests = []  # (end, seconds, outcome)
        self.acknowledged = {}  # uid -> email
        self.accepted_codes = {}  # (enrollment, step) -> accepts
        self.duplicate_accepts = 0
        self.events = []  # (time, text)
        self.counts = {}
        self.examples = {}  # a refused operation and status -> the first error message

    def request(self, end, seconds, outcome):
        with self.lock:
            self.requests.append((end, seconds, outcome))

    def count(self, name, answer=None):
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + 1
            if answer is not None and name not in self.examples:
                self.examples[name] = message(answer)[:160]

    def event(self, text):
        with self.lock:
            self.events.append((time.monotonic(), text))
        print(f"soak: {text}", flush=True)

    def code_accepted(self, enrollment, step):
        with self.lock:
            accepts = self.accepted_codes.get((enrollment, step), 0) + 1
            self.accepted_codes[(enrollment, step)] = accepts
            if accepts > 1:
                self.duplicate_accepts += 1


class Client:
    """One simulated client at its own addresses (X-Forwarded-For through a trusted proxy), sending
    each request to the next server in turn; a server that refuses the connection (it is down) is
    skipped for the other, as a load balancer's health check would: nothing was sent to it."""

    def __init__(self, servers, recorder, addresses):
        self.servers, self.recorder, self.addresses = servers, recorder, addresses
        self.turn = random.randrange(len(servers))

    def post(self, path, body, server=None, headers=None):
        order = [server] if server else [self.servers[(self.turn + i) % len(self.servers)] for i in range(len(self.servers))]
        self.turn += 1
        for candidate in order:
            start = time.monotonic()
            try:
                connection = http.client.HTTPConnection("127.0.0.1", candidate.port, timeout=30)
                connection.request(
                    "POST", path, json.dumps(body),
                    {"Content-Type": "application/json", "X-Forwarded-For": random.choice(self.addresses), **(headers or {})})
                response = connection.getresponse()
                data = response.read()
                end = time.monotonic()
                outcome = "ok" if response.status == 200 else ("server-error" if response.status >= 500 else "refused")
                self.recorder.request(end, end - start, outcome)
                try:
                    return response.status, json.loads(data)
                except ValueError:
                    return response.status, {"raw": data.decode(errors="replace")}
            except ConnectionRefusedError:
                continue
            except OSError as error:
                end = time.monotonic()
                self.recorder.request(end, end - start, "failed")
                return 0, {"error": str(error)}
        self.recorder.request(time.monotonic(), 0, "unavailable")
        return 0, {"error": "no server"}

    def v1(self, name, body, **options):
        return self.post(f"/identitytoolkit.googleapis.com/v1/accounts:{name}?key={API_KEY}", body, **options)

    def v2(self, name, body, **options):
        return self.post(f"/identitytoolkit.googleapis.com/v2/accounts/{name}?key={API_KEY}", body, **options)


def message(answer):
    return answer.get("error", {}).get("message", "") if isinstance(answer.get("error"), dict) else str(answer.get("error", ""))


class Worker(threading.Thread):
    """Mixed traffic until `stop`: sign-ups, password sign-ins, refreshes, TOTP enrollments and
    second-factor sign-ins with a wrong code first, each accepted code replayed on the other server."""

    def __init__(self, number, servers, recorder, stop):
        super().__init__(daemon=True)
        # Many users behind each worker, so that only the quota filler meets the per-address limit.
        self.client = Client(servers, recorder, [f"198.51.{100 + number}.{host}" for host in range(1, 255)])
        self.servers, self.recorder, self.stop, self.number = servers, recorder, stop, number
        self.plain = []  # (email, password, refresh token, ID token, uid)
        self.factors = []  # (email, password, key, enrollment, last step used)
        self.serial = 0

    def run(self):
        while not self.stop.is_set():
            choice = random.random()
            if choice < 0.30 or not self.plain:
                self.sign_up()
            elif choice < 0.55:
                self.sign_in()
            elif choice < 0.70:
                self.refresh()
            elif choice < 0.80 or len(self.factors) < 4:
                self.enroll()
            else:
                self.second_factor()

    def sign_up(self):
        self.serial += 1
        email, password = f"w{self.number}-{self.serial}-{secrets.token_hex(3)}@soak.example", secrets.token_urlsafe(12)
        status, answer = self.client.v1("signUp", {"email": email, "password": password, "returnSecureToken": True})
        if status == 200:
            with self.recorder.lock:
                self.recorder.acknowledged[answer["localId"]] = email
            self.plain.append((email, password, answer["refreshToken"], answer["idToken"], answer["localId"]))
        self.recorder.count(f"sign-up {status}", answer if status != 200 else None)

    def sign_in(self):
        email, password, *_ = random.choice(self.plain)
        status, answer = self.client.v1("signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})
        self.recorder.count(f"sign-in {status}", answer if status != 200 else None)

    def refresh(self):
        refresh = random.choice(self.plain)[2]
        status, answer = self.client.post(f"/securetoken.googleapis.com/v1/token?key={API_KEY}", {"grant_type": "refresh_token", "refresh_token": refresh})
        self.recorder.count(f"refresh {status}", answer if status != 200 else None)

    def enroll(self):
        email, password, refresh, id_token, uid = self.plain.pop(random.randrange(len(self.plain)))
        # A second factor needs a verified address: the administrator verifies it, as after a link.
        status, _ = self.client.post(
            f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:update", {"localId": uid, "emailVerified": True},
            headers={"Authorization": "Bearer " + ADMIN_TOKEN})
        if status != 200:
            self.recorder.count(f"verify-email {status}", _)
            return
        status, start = self.client.v2("mfaEnrollment:start", {"idToken": id_token, "totpEnrollmentInfo": {}})
        if status != 200:
            self.recorder.count(f"enroll-start {status}", start)
            return
        info = start["totpSessionInfo"]
        now = time.time()
        status, done = self.client.v2(
            "mfaEnrollment:finalize",
            {"idToken": id_token, "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": totp(info["sharedSecretKey"], now)}})
        self.recorder.count(f"enroll {status}", done if status != 200 else None)
        if status == 200:
            status, lookup = self.client.v1("lookup", {"idToken": done["idToken"]})
            if status == 200:
                enrollment = lookup["users"][0]["mfaInfo"][0]["mfaEnrollmentId"]
                # The enrollment's code counts as used in its step.
                self.factors.append([email, password, info["sharedSecretKey"], enrollment, int(now) // 30])

    def second_factor(self):
        now = time.time()
        step = int(now) // 30
        ready = [factor for factor in self.factors if factor[4] < step and (int(now) % 30) < 27]
        if not ready:
            self.sign_in()
            return
        factor = random.choice(ready)
        email, password, key, enrollment, _ = factor
        status, first = self.client.v1("signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})
        if status != 200 or "mfaPendingCredential" not in first:
            self.recorder.count(f"mfa-first {status}", first)
            return
        pending = first["mfaPendingCredential"]
        code = totp(key, now)
        wrong = "%06d" % ((int(code) + 1 + random.randrange(999_998)) % 1_000_000)
        status, _ = self.client.v2("mfaSignIn:finalize", {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment, "totpVerificationInfo": {"verificationCode": wrong}})
        self.recorder.count(f"wrong-code {status}")
        if status == 200:
            self.recorder.event(f"a wrong code was accepted for {enrollment}")
            self.recorder.count("wrong code accepted")
        factor[4] = step
        if random.random() < 0.2:
            self.race(email, password, enrollment, code, step)
            return
        status, answer = self.client.v2("mfaSignIn:finalize", {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment, "totpVerificationInfo": {"verificationCode": code}})
        self.recorder.count(f"mfa {status}", answer if status != 200 else None)
        if status != 200:
            return
        self.recorder.code_accepted(enrollment, step)
        # The same code again, on every server, with a new sign-in: it must be refused.
        for server in self.servers:
            if not server.up:
                continue
            status, again = self.client.v1("signInWithPassword", {"email": email, "password": password}, server=server)
            if status == 200 and "mfaPendingCredential" in again:
                status, _ = self.client.v2(
                    "mfaSignIn:finalize",
                    {"mfaPendingCredential": again["mfaPendingCredential"], "mfaEnrollmentId": enrollment, "totpVerificationInfo": {"verificationCode": code}},
                    server=server)
                self.recorder.count(f"replay {status}")
                if status == 200:
                    self.recorder.code_accepted(enrollment, step)

    def race(self, email, password, enrollment, code, step):
        """The same code sent to both servers at the same moment, each with its own sign-in."""
        live = [server for server in self.servers if server.up]
        pendings = []
        for server in live:
            status, first = self.client.v1("signInWithPassword", {"email": email, "password": password}, server=server)
            if status == 200 and "mfaPendingCredential" in first:
                pendings.append((server, first["mfaPendingCredential"]))
        results = []
        barrier = threading.Barrier(len(pendings)) if pendings else None

        def finalize(server, pending):
            barrier.wait()
            status, _ = Client(self.servers, self.recorder, self.client.addresses).v2(
                "mfaSignIn:finalize", {"mfaPendingCredential": pending, "mfaEnrollmentId": enrollment, "totpVerificationInfo": {"verificationCode": code}},
                server=server)
            results.append(status)

        threads = [threading.Thread(target=finalize, args=pending) for pending in pendings]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        accepts = sum(1 for status in results if status == 200)
        self.recorder.count(f"race accepts={accepts} of {len(results)}")
        for _ in range(accepts):
            self.recorder.code_accepted(enrollment, step)


def quota_filler(servers, recorder, stop, seconds):
    """One client at its own address trying passwords as fast as it can for `seconds`."""
    client = Client(servers, recorder, ["203.0.113.7"])
    end = time.monotonic() + seconds
    throttled = 0
    while time.monotonic() < end and not stop.is_set():
        status, answer = client.v1("signInWithPassword", {"email": "victim@soak.example", "password": secrets.token_hex(4)})
        if "TOO_MANY_ATTEMPTS" in message(answer):
            throttled += 1
    recorder.counts["quota filler throttled"] = throttled


def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def slope(points):
    """Least-squares slope of (x, y) points."""
    n = len(points)
    if n < 2:
        return 0.0
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    denominator = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / denominator if denominator else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", required=True, help="the otpkit-server binary (a release build)")
    parser.add_argument("--database", required=True, help="postgres://… of a database the soak may fill")
    parser.add_argument("--postgres-restart", required=True, help="a command that restarts PostgreSQL the hard way")
    parser.add_argument("--duration", type=int, default=600, help="seconds of traffic (default 600)")
    parser.add_argument("--workers", type=int, default=6)
    parser.add_argument("--directory", required=True, help="where keys, logs and the timeline go")
    options = parser.parse_args()

    directory = options.directory
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "sealing.key"), "w") as key:
        key.write(secrets.token_hex(32))
    with open(os.path.join(directory, "admin.token"), "w") as token:
        token.write(ADMIN_TOKEN)
    arguments = [
        "--db", options.database, "--key-file", os.path.join(directory, "sealing.key"),
        "--signing-key-file", os.path.join(directory, "signing.key"), "--signing-algorithm", "ES256",
        "--project-id", PROJECT, "--api-key", API_KEY, "--admin-token-file", os.path.join(directory, "admin.token"),
        "--trust-forwarded-for", "127.0.0.1", "--sign-in-limit-per-ip", "60", "--limit-window", "60",
    ]
    survivor = Server("server-a", options.server, arguments, directory)
    victim = Server("server-b", options.server, arguments, directory)
    survivor.start()
    victim.start()
    servers = [survivor, victim]
    recorder = Recorder()
    stop = threading.Event()

    begin = time.monotonic()
    samples = []  # (seconds since begin, rss KiB, descriptors)

    def sampler():
        while not stop.is_set():
            try:
                rss, descriptors = survivor.memory_and_descriptors()
                samples.append((time.monotonic() - begin, rss, descriptors))
            except OSError:
                pass
            time.sleep(1)

    threading.Thread(target=sampler, daemon=True).start()
    workers = [Worker(number, servers, recorder, stop) for number in range(options.workers)]
    for worker in workers:
        worker.start()

    duration = options.duration
    faults = []

    def at(fraction):
        remaining = begin + duration * fraction - time.monotonic()
        if remaining > 0:
            time.sleep(remaining)

    at(0.25)
    faults.append((time.monotonic(), "SIGKILL to server-b"))
    recorder.event("kill -9 server-b")
    victim.kill()
    time.sleep(5)
    victim.start()
    recorder.event("server-b started again")
    at(0.5)
    faults.append((time.monotonic(), "PostgreSQL restarted (immediate)"))
    recorder.event("restarting PostgreSQL (immediate shutdown)")
    subprocess.run(options.postgres_restart, shell=True, check=True)
    recorder.event("PostgreSQL is back")
    at(0.75)
    faults.append((time.monotonic(), "one client fills its sign-in quota for 30 s"))
    recorder.event("a client fills its quota")
    quota = threading.Thread(target=quota_filler, args=(servers, recorder, stop, 30))
    quota.start()
    at(1.0)
    stop.set()
    for worker in workers:
        worker.join(timeout=60)
    quota.join()

    # Every acknowledged sign-up, looked up by the administrator through the survivor.
    lookup = Client([survivor], Recorder(), ["127.0.0.1"])
    uids = list(recorder.acknowledged)
    found = set()
    for index in range(0, len(uids), 100):
        status, answer = lookup.post(
            f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:lookup", {"localId": uids[index:index + 100]},
            headers={"Authorization": "Bearer " + ADMIN_TOKEN})
        if status != 200:
            sys.exit(f"soak: the administrator's lookup answered {status}: {answer}")
        found.update(user["localId"] for user in answer.get("users", []))
    lost = len(uids) - len(found & set(uids))
    survivor.stop()
    victim.stop()

    # The timeline: one line a second.
    seconds = int(duration) + 1
    buckets = [[] for _ in range(seconds + 30)]
    failures = [0] * (seconds + 30)
    for end, latency, outcome in recorder.requests:
        index = int(end - begin)
        if 0 <= index < len(buckets):
            if outcome == "ok" or outcome == "refused":
                buckets[index].append(latency)
            else:
                failures[index] += 1
    baseline_window = [latency for bucket in buckets[5:int(duration * 0.25)] for latency in bucket]
    baseline = percentile(baseline_window, 0.99)
    timeline = []
    for second in range(seconds):
        timeline.append({"second": second, "requests": len(buckets[second]), "failed": failures[second],
                         "p50_ms": round(percentile(buckets[second], 0.5) * 1000, 1), "p99_ms": round(percentile(buckets[second], 0.99) * 1000, 1)})
    with open(os.path.join(directory, "timeline.jsonl"), "w") as out:
        for line in timeline:
            out.write(json.dumps(line) + "\n")

    # Recovered: the first three-second window after the fault with no failed request and its p99
    # (pooled over the window: a second holds too few requests for a p99 of its own) within twice
    # the baseline's.
    threshold = max(2 * baseline, baseline + 0.05)
    recoveries = []
    for moment, name in faults:
        first = int(moment - begin)
        recovered = None
        for second in range(first, seconds - 3):
            pooled = [latency for bucket in buckets[second:second + 3] for latency in bucket]
            if pooled and sum(failures[second:second + 3]) == 0 and percentile(pooled, 0.99) <= threshold:
                recovered = second - first
                break
        worst = max((entry["p99_ms"] for entry in timeline[first:first + 15]), default=0)
        failed = sum(entry["failed"] for entry in timeline[first:first + 15])
        recoveries.append((name, first, recovered, worst, failed))

    with open(os.path.join(directory, "survivor.jsonl"), "w") as out:
        for t, rss, descriptors in samples:
            out.write(json.dumps({"second": round(t, 1), "rss_mib": round(rss / 1024, 1), "descriptors": descriptors}) + "\n")

    def at_fraction(fraction):
        later = [sample for sample in samples if sample[0] >= duration * fraction]
        return later[0] if later else samples[-1]

    # A hash in flight holds scrypt's 64 MiB on top of the rest, so RSS jumps by that much from one
    # second to the next: the slope is of each minute's lowest RSS (and descriptors), which is
    # what stays.
    minutes = {}
    for t, rss, descriptors in samples:
        low = minutes.setdefault(int(t // 60), [rss, descriptors])
        minutes[int(t // 60)] = [min(low[0], rss), min(low[1], descriptors)]
    half = [(minute * 60, low) for minute, low in sorted(minutes.items()) if minute * 60 >= duration / 2]
    rss_slope = slope([(t, low[0] / 1024) for t, low in half]) * 60
    fd_slope = slope([(t, low[1]) for t, low in half]) * 60
    total = len(recorder.requests)
    report = {
        "duration_s": duration, "workers": options.workers, "requests": total,
        "outcomes": {outcome: sum(1 for _, _, o in recorder.requests if o == outcome) for outcome in ("ok", "refused", "server-error", "failed", "unavailable")},
        "acknowledged_sign_ups": len(uids), "lost_sign_ups": lost, "accepted_codes": len(recorder.accepted_codes),
        "duplicate_accepts": recorder.duplicate_accepts, "baseline_p99_ms": round(baseline * 1000, 1),
        "faults": [{"fault": name, "at_s": at_second, "recovered_after_s": recovered, "worst_p99_ms_15s": worst, "failed_requests_15s": failed}
                   for name, at_second, recovered, worst, failed in recoveries],
        "survivor_rss_mib": {"at_quarters": [round(at_fraction(f)[1] / 1024, 1) for f in (0, 0.25, 0.5, 0.75, 1.0)],
                              "lowest_each_minute": [round(low[0] / 1024, 1) for _, low in sorted(minutes.items())],
                              "slope_second_half_mib_per_min": round(rss_slope, 3)},
        "survivor_descriptors": {"at_quarters": [at_fraction(f)[2] for f in (0, 0.25, 0.5, 0.75, 1.0)],
                                 "lowest_each_minute": [low[1] for _, low in sorted(minutes.items())],
                                 "slope_second_half_per_min": round(fd_slope, 3)},
        "counts": dict(sorted(recorder.counts.items())),
        "refusals": dict(sorted(recorder.examples.items())),
    }
    with open(os.path.join(directory, "report.json"), "w") as out:
        json.dump(report, out, indent=2)
    print(json.dumps(report, indent=2))
    problems = []
    if lost:
        problems.append(f"{lost} acknowledged sign-ups are missing")
    if recorder.duplicate_accepts:
        problems.append(f"{recorder.duplicate_accepts} codes were accepted twice")
    if recorder.counts.get("wrong code accepted"):
        problems.append("a wrong code was accepted")
    if rss_slope > 1 or fd_slope > 1:
        problems.append(f"the survivor grows: {rss_slope:.2f} MiB and {fd_slope:.2f} descriptors a minute over the second half")
    for name, _, recovered, _, _ in recoveries:
        if recovered is None or recovered > 10:
            problems.append(f"p99 did not recover within 10 s of: {name}")
    if problems:
        sys.exit("soak: " + "; ".join(problems))


if __name__ == "__main__":
    main()
