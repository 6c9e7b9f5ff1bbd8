#!/usr/bin/env python3
"""Turns one run's results into the single comparison table of RESULTS.md.

Inputs (paths): the package-benchmark JMH export, pyotp_bench.py's JSON, and optionally hyperfine's
JSON for the CLI cold start. Rates come from the median (p50) iteration time; ratios are between
rates of this same run. Run by report.sh; not meant to be called by hand.
"""
import json
import sys

# Operations per benchmark iteration (the `.kilo` scaling factor) unless listed here.
SINGLE = ("otpkit.qr.", "otpkit.enrollment.signin.sqlite", "otpkit.enrollment.phone.signin.sqlite")


def batch(name):
    if name.startswith("otpkit.enrollment.signin.sqlite") and name.endswith(".2cores"):
        return 2  # one sign-in on each core per iteration
    return 1 if name.startswith(SINGLE) else 1000


def load_benchmarks(path):
    rates, best, paired = {}, {}, {}
    for entry in json.load(open(path)):
        # "package.benchmark.<Target>.<name>"; names are "implementation.workload".
        name = entry["benchmark"].split(".", 3)[3]
        metrics = entry["secondaryMetrics"]
        if name.startswith("ratio."):
            # package-benchmark's JMH export carries earlier entries' secondary metrics along,
            # so read only the metric this benchmark records.
            key = "speed-up (per mille)" if name.endswith(".2cores") else "share of limit (per mille)"
            paired[name[len("ratio."):]] = metrics[key]["scorePercentiles"]["50.0"] / 1000
            continue
        wall = metrics["Time (wall clock)"]["scorePercentiles"]
        ops = batch(name)
        rates[name] = ops / (wall["50.0"] * 1e-6)
        best[name] = ops / (wall["0.0"] * 1e-6)
    return rates, best, paired


def fmt_rate(rate):
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M/s"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} K/s"
    return f"{rate:.0f} /s"


def blocks(workload):
    """Compression-function calls of one operation, and the hash whose block time bounds it."""
    parts = workload.split(".")
    if parts[0] in ("value", "batch"):
        return 2, parts[1]
    if parts[0] == "generate":
        return (4 if workload.endswith(".base32") else 2), parts[1]
    if parts[0] == "verify":
        window = int(parts[1][1:])
        return 2 * (2 * window + 1), "sha1"
    return None, None


WORKLOADS = [
    ("generate.sha1", "TOTP code, prepared key, SHA-1"),
    ("generate.sha256", "TOTP code, prepared key, SHA-256"),
    ("generate.sha512", "TOTP code, prepared key, SHA-512"),
    ("value.sha1", "TOTP code as a number (`HOTP.value`), SHA-1"),
    ("value.sha256", "TOTP code as a number, SHA-256"),
    ("value.sha512", "TOTP code as a number, SHA-512"),
    ("generate.sha1.base32", "TOTP code from a Base32 secret (key schedule included)"),
    ("batch.sha1", "codes in bulk (`PreparedKey.truncatedValues(counters:)`), SHA-1"),
    ("batch.sha256", "codes in bulk, SHA-256"),
] + [
    (f"verify.w{w}.{o}", f"verify ±{w}, {o}") for w in (0, 1, 5, 10) for o in ("hit", "miss")
] + [
    ("verify.w5.miss.2cores", "verify ±5, miss, both cores"),
    ("base32.decode", "Base32 decode (32 characters)"),
    ("uri.format", "otpauth:// format"),
    ("uri.parse", "otpauth:// parse"),
    ("qr.encode", "QR encode (otpauth URI)"),
    ("qr.terminal", "QR encode + UTF-8 terminal rendering"),
    ("qr.png", "QR encode + PNG"),
    ("enrollment.signin.memory", "sign-in verification, in-memory store (both steps)"),
    ("enrollment.signin.memory.second", "sign-in verification, in-memory store, second step alone"),
    ("enrollment.signin.sqlite", "sign-in verification, SQLite store"),
    ("enrollment.signin.sqlite.second", "sign-in verification, SQLite store, second step alone (1,000 users)"),
    ("enrollment.signin.sqlite.2cores", "sign-in verification, SQLite store, both cores (two connections)"),
    ("enrollment.phone.signin.memory", "phone sign-in, in-memory store (first factor, send, completion)"),
    ("enrollment.phone.signin.memory.second", "phone sign-in, in-memory store, completion alone"),
    ("enrollment.phone.signin.sqlite", "phone sign-in, SQLite store (first factor, send, completion)"),
    ("enrollment.phone.signin.sqlite.second", "phone sign-in, SQLite store, completion alone (1,000 users)"),
]
ALTERNATIVES = [("swiftcrypto", "swift-crypto HMAC"), ("hmac", "OpenSSL HMAC()"), ("liboath", "liboath"), ("pyotp", "pyotp")]


def block_limit(rates, hash_name):
    """Blocks per second the machine allows: one chain streamed, or four interleaved on the SHA
    extensions (limit.lanes4.*, absent for SHA-512 and on CPUs without them), whichever is higher."""
    return max(rates[f"limit.block.{hash_name}"], rates.get(f"limit.lanes4.{hash_name}", 0))


def main():
    rates, best, paired = load_benchmarks(sys.argv[1])
    pyotp = json.load(open(sys.argv[2])) if len(sys.argv) > 2 else {}
    rates.update(pyotp)
    cli = json.load(open(sys.argv[3]))["results"] if len(sys.argv) > 3 else []
    pinned = load_benchmarks(sys.argv[4])[0] if len(sys.argv) > 4 else {}

    header = ["Workload", "OTPKit", "Limit, the higher of streamed and 4 lanes (OTPKit/limit)"] + [f"{label} (OTPKit/it)" for _, label in ALTERNATIVES]
    rows = []
    for workload, label in WORKLOADS:
        ours = rates.get(f"otpkit.{workload}")
        if ours is None:
            continue
        row = [label, fmt_rate(ours)]
        count, hash_name = blocks(workload.replace(".2cores", ""))
        limit = None
        if count:
            limit = block_limit(rates, hash_name) / count * (2 if workload.endswith(".2cores") else 1)
        row.append(f"{fmt_rate(limit)} ({100 * ours / limit:.0f}%)" if limit else "")
        for key, _ in ALTERNATIVES:
            other = rates.get(f"{key}.{workload}")
            row.append(f"{fmt_rate(other)} ({ours / other:.1f}×)" if other else "")
        rows.append(row)
    if cli:
        by_name = {result["command"].split()[0].rsplit("/", 1)[-1]: result for result in cli}
        ours = by_name.get("totp")
        theirs = by_name.get("oathtool")
        if ours and theirs:
            row = ["`totp code` process vs `oathtool --totp` (liboath column), median", f"{ours['median'] * 1e3:.2f} ms", ""]
            row += ["", "", f"{theirs['median'] * 1e3:.2f} ms ({theirs['median'] / ours['median']:.1f}×)", ""]
            rows.append(row)

    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    def line(cells):
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in rows:
        print(line(row))

    # The targets. "Paired" ratios are measured inside every iteration (the limit's
    # blocks, then the same number of blocks' worth of OTPKit work, back to back; median over the
    # iterations); "table" ratios divide the medians of two separate benchmarks of this run.
    def table_ratio(ours, limit_key, count):
        if ours not in rates or limit_key not in rates:
            return None
        return rates[ours] / (rates[limit_key] / count)

    print()
    print("Targets (single core unless stated), paired ratio (table ratio):")
    checks = [
        ("SHA-1 code as a String ≥ 75% of the two-block limit", "generate.sha1", "limit.block.sha1", 2, 0.75),
        ("SHA-256 code as a String ≥ 75% of the two-block limit", "generate.sha256", "limit.block.sha256", 2, 0.75),
        ("SHA-512 code as a String ≥ 85% of the two-block limit", "generate.sha512", "limit.block.sha512", 2, 0.85),
        ("SHA-1 code as a number ≥ 75% of the two-block limit", "value.sha1", "limit.block.sha1", 2, 0.75),
        ("SHA-256 code as a number ≥ 75% of the two-block limit", "value.sha256", "limit.block.sha256", 2, 0.75),
        ("SHA-512 code as a number ≥ 85% of the two-block limit", "value.sha512", "limit.block.sha512", 2, 0.85),
        ("verify ±5 miss ≥ 85% of the 22-block limit", "verify.w5.miss", "limit.block.sha1", 22, 0.85),
    ]
    for label, workload, limit_key, count, target in checks:
        if workload not in paired:
            continue
        table = table_ratio(f"otpkit.{workload}", limit_key, count)
        verdict = "met" if paired[workload] >= target else "NOT met"
        table_text = f" ({100 * table:.0f}%)" if table else ""
        print(f"- {label}: {100 * paired[workload]:.0f}%{table_text} — {verdict}")
    # Against the 4-lane limit (four independent chains interleaved): paired (ratio.lanes4.*),
    # then the table's medians, and the streamed limit's share for comparison.
    for label, workload, hash_name, count, target in (
        ("verify ±5 miss ≥ 80% of the 4-lane limit for 22 blocks", "verify.w5.miss", "sha1", 22, 0.80),
        ("SHA-1 codes in bulk ≥ 80% of the 4-lane limit", "batch.sha1", "sha1", 2, 0.80),
        ("SHA-256 codes in bulk ≥ 80% of the 4-lane limit", "batch.sha256", "sha256", 2, 0.80),
    ):
        pair = paired.get(f"lanes4.{workload}")
        if pair is None:
            continue
        lanes = table_ratio(f"otpkit.{workload}", f"limit.lanes4.{hash_name}", count)
        streamed = table_ratio(f"otpkit.{workload}", f"limit.block.{hash_name}", count)
        verdict = "met" if pair >= target else "NOT met"
        table_text = f" ({100 * lanes:.0f}%)" if lanes else ""
        streamed_text = f"; of the streamed limit {100 * streamed:.0f}%" if streamed else ""
        print(f"- {label}: {100 * pair:.0f}%{table_text} — {verdict}{streamed_text}")
    if "verify.w5.miss.2cores" in paired:
        value = paired["verify.w5.miss.2cores"]
        table = rates.get("otpkit.verify.w5.miss.2cores", 0) / rates.get("otpkit.verify.w5.miss", 1)
        print(f"- both cores ≥ 1.8× one core (verify ±5 miss): {value:.2f}× ({table:.2f}×) — {'met' if value >= 1.8 else 'NOT met'}")
    # SHA-1 is what authenticator apps use and what the targets are set on; SHA-256 and SHA-512
    # are shown for information (a SHA-512 block costs several times a SHA-1 block, which leaves
    # less overhead for OTPKit to save).
    for key, label, target in (("swiftcrypto", "swift-crypto", 15), ("liboath", "liboath", 3)):
        values = {h: rates[f"otpkit.generate.{h}"] / rates[f"{key}.generate.{h}"] for h in ("sha1", "sha256", "sha512")
                  if f"{key}.generate.{h}" in rates and f"otpkit.generate.{h}" in rates}
        if "sha1" in values:
            verdict = "met" if values["sha1"] >= target else "NOT met"
            others = ", ".join(f"{name.upper().replace('SHA', 'SHA-')} {value:.1f}×" for name, value in values.items() if name != "sha1")
            print(f"- SHA-1 generation ≥ {target}× {label}: {values['sha1']:.1f}× — {verdict} (for information: {others})")
    # An absolute target for one core, so it is judged on the pinned run, with the bare
    # verification of that same run for scale (the VM's speed moves both together). Judged twice:
    # on a whole login (both steps back to back, so the second finds the first's data in cache)
    # and on the second step alone, run after a thousand other users' first steps (cold, as on a
    # server where people take seconds to type the code).
    signin, second, verify = (pinned.get(f"otpkit.enrollment.{name}") for name in ("signin.memory", "signin.memory.second", "verify.w5.miss"))
    if signin and second and verify:
        verdict = "met" if min(signin, second) >= 200_000 else "NOT met"
        print(f"- sign-in through the service, in-memory store, ≥ 200 K/s on one core (taskset -c 1): {verdict} — both steps"
              f" {fmt_rate(signin)}, the second step alone {fmt_rate(second)} (bare verify ±5 miss in that run: {fmt_rate(verify)};"
              f" a whole sign-in costs {verify / signin:.1f} of them, a second step {verify / second:.1f}; unpinned, in the"
              f" table: {fmt_rate(rates.get('otpkit.enrollment.signin.memory', 0))} and {fmt_rate(rates.get('otpkit.enrollment.signin.memory.second', 0))})")
    # Phone (SMS) second factors beside TOTP, for information: completions per second against
    # TOTP second steps per second, measured the same way in this run (the sender records the
    # text in memory, and the send is outside the completion's figure).
    pairs = [(store, rates.get(f"otpkit.enrollment.phone.signin.{store}.second"), rates.get(f"otpkit.enrollment.signin.{store}.second"))
             for store in ("memory", "sqlite")]
    pairs = [(store, phone, totp) for store, phone, totp in pairs if phone and totp]
    if pairs:
        print("- phone completions against TOTP second steps (for information): " + "; ".join(
            f"{'in memory' if store == 'memory' else 'SQLite'} {fmt_rate(phone)} against {fmt_rate(totp)} ({phone / totp:.2f}×)"
            for store, phone, totp in pairs))


if __name__ == "__main__":
    main()
