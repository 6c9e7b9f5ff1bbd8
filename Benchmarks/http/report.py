#!/usr/bin/env python3
"""Turns one run of run.sh into its Markdown report: the comparison table, every run in detail,
and the issue's targets. Called by run.sh with machine.json and results.jsonl."""

import json
import sys

ACCEPTED = "ACCEPT"


def load(machine_path, results_path):
    machine = json.load(open(machine_path))
    runs = {}
    for line in open(results_path):
        row = json.loads(line)
        runs[row["label"]] = row
    return machine, runs


def counted(run, outcome):
    return run["wrk"]["outcomes"].get(outcome, 0)


def rate(run, valid):
    """Accepted codes per second of a valid-code run, refused ones of a wrong-code run: answers of
    the other kind (a refusal where a code should pass) are not counted in the rate."""
    wrk = run["wrk"]
    accepted = counted(run, ACCEPTED)
    good = accepted if valid else sum(wrk["outcomes"].values()) - accepted
    return good / wrk["seconds"]


def fmt_rate(value):
    return f"{value / 1e3:.1f} K/s" if value >= 1e3 else f"{value:.0f} /s"


def cpu_ms(run):
    """Milliseconds of CPU the serving processes spent per answer (the database's too for
    PostgreSQL), or None for results without it."""
    seconds = run.get("cpu_seconds")
    answers = run["wrk"]["requests"]
    return seconds * 1e3 / answers if seconds is not None and answers else None


def fmt_ms(value):
    return f"{value:.1f} ms" if value < 100 else f"{value:.0f} ms"


def fmt_cpu(run):
    value = cpu_ms(run)
    return "" if value is None else f", CPU {value:.2f} ms/answer"


def main():
    machine, runs = load(sys.argv[1], sys.argv[2])
    out = []
    out.append("## otpkit-server beside privacyIDEA over HTTP")
    out.append("")
    out.append(
        f"{machine['date']}, commit {machine['commit']}, {machine['cpu']}, {machine['cores']} cores; "
        f"{machine['otpkit_users']} users per OTPKit store, {machine['pi_users']} privacyIDEA users, {machine['duration']} s per run, "
        f"ID tokens signed {machine.get('signing_algorithm', 'RS256')}."
    )
    out.append("")
    out.append(f"- `uptime` before: `{machine['uptime_before'].strip()}`")
    out.append(f"- `uptime` after: `{machine.get('uptime_after', '?').strip()}`")
    out.append("")
    stores = [("SQLite", "otpkit sqlite"), ("PostgreSQL", "otpkit postgres")]
    out.append(
        "| Workload | otpkit-server, SQLite | otpkit-server, PostgreSQL | privacyIDEA 3.14, SQLite | SQLite / privacyIDEA | PostgreSQL / privacyIDEA |"
    )
    out.append("|---|---|---|---|---|---|")
    for title, suffix, valid in (("fresh valid codes accepted", "fresh valid codes", True), ("wrong codes refused", "wrong codes", False)):
        pi = runs.get(f"privacyIDEA, {suffix}")
        cells, ratios = [], []
        for _, prefix in stores:
            run = runs.get(f"{prefix}, {suffix}")
            if run is None:
                cells.append("–")
                ratios.append("–")
                continue
            value = rate(run, valid)
            wrk = run["wrk"]
            cells.append(f"{fmt_rate(value)}, p50 {fmt_ms(wrk['p50_ms'])}, p99 {fmt_ms(wrk['p99_ms'])}{fmt_cpu(run)}")
            ratio = f"{value / rate(pi, valid):.0f}×" if pi and rate(pi, valid) > 0 else "–"
            if pi and cpu_ms(pi) and cpu_ms(run):
                ratio += f" ({cpu_ms(pi) / cpu_ms(run):.0f}× less CPU)"
            ratios.append(ratio)
        if pi:
            pi_cell = f"{fmt_rate(rate(pi, valid))}, p50 {fmt_ms(pi['wrk']['p50_ms'])}, p99 {fmt_ms(pi['wrk']['p99_ms'])}{fmt_cpu(pi)}"
        else:
            pi_cell = "–"
        out.append(f"| {title} /s | {cells[0]} | {cells[1]} | {pi_cell} | {ratios[0]} | {ratios[1]} |")
    out.append("")
    out.append("Every run in detail (answers by outcome: `ACCEPT`, or the refusal's error code; privacyIDEA's `REJECT`):")
    out.append("")
    out.append("| Run | wrk connections | answers | seconds | answers/s | p50 | p90 | p99 | max | non-2xx | outcomes | bodies left | serving CPU | CPU per answer |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for label, run in runs.items():
        wrk = run["wrk"]
        outcomes = ", ".join(f"{name} {count}" for name, count in sorted(wrk["outcomes"].items()))
        left = "none: sized too small" if wrk["threads_exhausted"] else "yes"
        out.append(
            f"| {label} | {run['clients']} | {wrk['requests']} | {wrk['seconds']:.2f} | {fmt_rate(wrk['requests'] / wrk['seconds'])} "
            f"| {fmt_ms(wrk['p50_ms'])} | {fmt_ms(wrk['p90_ms'])} | {fmt_ms(wrk['p99_ms'])} | {fmt_ms(wrk['max_ms'])} "
            f"| {wrk['non2xx']} | {outcomes} | {left} | {run.get('cpu_seconds', 0):.2f} s "
            f"| {(f'{cpu_ms(run):.2f} ms' if cpu_ms(run) is not None else '–')} |"
        )
    out.append("")
    valid_sqlite, wrong_sqlite = runs.get("otpkit sqlite, fresh valid codes"), runs.get("otpkit sqlite, wrong codes")
    valid_pi = runs.get("privacyIDEA, fresh valid codes")
    if valid_sqlite and wrong_sqlite:
        accepted, refused = rate(valid_sqlite, True), rate(wrong_sqlite, False)
        p99 = valid_sqlite["wrk"]["p99_ms"]

        def verdict(ok):
            return "met" if ok else "not met"

        out.append("Issue 18's targets, on the SQLite store:")
        out.append("")
        out.append(f"- ≥ 10,000 accepted durable codes/s: {fmt_rate(accepted)}, {accepted / 10_000:.0%} of it ({verdict(accepted >= 10_000)})")
        out.append(f"- p99 ≤ 20 ms for those: {fmt_ms(p99)} ({verdict(p99 <= 20)})")
        if valid_pi and rate(valid_pi, True) > 0:
            ratio = accepted / rate(valid_pi, True)
            out.append(f"- ≥ 300× privacyIDEA's accepted codes/s: {ratio:.0f}× ({verdict(ratio >= 300)})")
        out.append(f"- ≥ 50,000 wrong-code rejections/s: {fmt_rate(refused)}, {refused / 50_000:.0%} of it ({verdict(refused >= 50_000)})")
        forged = runs.get("otpkit sqlite, forged credentials")
        if forged:
            floor = rate(forged, False)
            out.append(
                f"  (the floor in the same run: forged pending credentials, refused before any store read, "
                f"{fmt_rate(floor)} at {cpu_ms(forged):.2f} ms of CPU each)"
            )
    print("\n".join(out))


if __name__ == "__main__":
    main()
