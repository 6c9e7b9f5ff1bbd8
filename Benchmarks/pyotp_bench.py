#!/usr/bin/env python3
"""pyotp on the workload of Benchmarks/OTPKitBenchmarks/Workload.swift; prints JSON rates (ops/s).

Run by report.sh, which installs pyotp into a private virtual environment first.
"""
import base64
import json
import sys
import time

import pyotp

START = 1_700_000_000
PERIOD = 30
BATCH = 1000
SEEDS = {
    "sha1": b"12345678901234567890",
    "sha256": b"12345678901234567890123456789012",
    "sha512": b"1234567890123456789012345678901234567890123456789012345678901234",
}
TIMES = [START + i * PERIOD for i in range(BATCH)]


def totp(algorithm):
    secret = base64.b32encode(SEEDS[algorithm]).decode().rstrip("=")
    return pyotp.TOTP(secret, digits=6, digest=algorithm, interval=PERIOD)


def rate(work, seconds):
    """Best of several timed rounds of `work()`, which does BATCH operations."""
    best = float("inf")
    deadline = time.perf_counter() + seconds
    while True:
        began = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - began)
        if time.perf_counter() > deadline:
            return BATCH / best


def misses(generator, window):
    """Per time, a code that matches no step within the window (as Workload.codes does)."""
    result = []
    for t in TIMES:
        value = (int(generator.at(t)) + 500_000) % 1_000_000
        while any(generator.at(t + offset * PERIOD) == f"{value:06d}" for offset in range(-window, window + 1)):
            value = (value + 1) % 1_000_000
        result.append(f"{value:06d}")
    return result


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rates = {}
    for algorithm in SEEDS:
        generator = totp(algorithm)
        rates[f"pyotp.generate.{algorithm}"] = rate(lambda: [generator.at(t) for t in TIMES], seconds)
    base32_secret = base64.b32encode(SEEDS["sha1"]).decode().rstrip("=")
    rates["pyotp.generate.sha1.base32"] = rate(
        lambda: [pyotp.TOTP(base32_secret, interval=PERIOD).at(t) for t in TIMES], seconds)
    generator = totp("sha1")
    hits = [generator.at(t) for t in TIMES]
    for window in (0, 1, 5, 10):
        miss = misses(generator, window)
        rates[f"pyotp.verify.w{window}.hit"] = rate(
            lambda: [generator.verify(code, for_time=t, valid_window=window) for code, t in zip(hits, TIMES)], seconds)
        rates[f"pyotp.verify.w{window}.miss"] = rate(
            lambda: [generator.verify(code, for_time=t, valid_window=window) for code, t in zip(miss, TIMES)], seconds)
    holder = pyotp.TOTP(base32_secret)
    rates["pyotp.base32.decode"] = rate(lambda: [holder.byte_secret() for _ in TIMES], seconds)
    json.dump(rates, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
