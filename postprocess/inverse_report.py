#!/usr/bin/env python3
"""What an inverse run found (issue 28, theory.md §16), and whether its replay repeats it.

Usage: python3 postprocess/inverse_report.py OUTPUT_DIR [--every 10] [--end T --error E --replay R]

Reads OUTPUT_DIR/<base>_inverse.csv (time, one activation column per controlled group, error_<m>
per marker, updates) and prints the activations over time, each group's peak and its time, the
largest marker error and the updates per step. If OUTPUT_DIR/replay/<base>.csv exists (the run of
OUTPUT_DIR/<base>_replay.prm), prints the largest difference of the probe displacements between
the inverse run (<base>.csv) and its replay. With --end, --error and --replay (the tests'
limits) it also prints a FAIL line and exits with 1 if the run did not reach time T, a marker
was more than E [m] off its target, or the replay differs by more than R [m] (or is missing).
"""
import argparse
import csv
import glob
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("--every", type=int, default=10, help="print every n-th row")
    parser.add_argument("--end", type=float, help="fail unless the run reached this time [s]")
    parser.add_argument("--error", type=float, help="fail if a marker was farther from its target [m]")
    parser.add_argument("--replay", type=float, help="fail if the replay differs by more [m], or is missing")
    args = parser.parse_args()
    failures = []
    found = glob.glob(os.path.join(args.directory, "*_inverse.csv"))
    if len(found) != 1:
        sys.exit(f"inverse_report.py: no single <base>_inverse.csv in {args.directory}: run an inverse case first")
    base = os.path.basename(found[0])[: -len("_inverse.csv")]
    rows = list(csv.DictReader(open(found[0])))
    groups = [c for c in rows[0] if c not in ("time", "updates") and not c.startswith("error_")]
    errors = [c for c in rows[0] if c.startswith("error_")]
    widths = [max(10, len(g)) for g in groups]
    print("time [s]  " + "  ".join(f"{g:>{w}}" for g, w in zip(groups, widths)) + "  marker error [m]")
    for k, row in enumerate(rows):
        if k % args.every == 0 or k == len(rows) - 1:
            largest = max(float(row[e]) for e in errors)
            print(f"{float(row['time']):8.4f}  " + "  ".join(f"{float(row[g]):{w}.5f}" for g, w in zip(groups, widths)) + f"  {largest:.2e}")
    for g in groups:
        peak = max(rows, key=lambda r: float(r[g]))
        print(f"{g}: peak activation {float(peak[g]):.4f} at t = {float(peak['time']):.4f} s")
    steps = len(rows) - 1
    largest_error = max(float(r[e]) for r in rows for e in errors)
    if args.end is not None and abs(float(rows[-1]["time"]) - args.end) > 1e-9:
        failures.append(f"the run ended at t = {rows[-1]['time']} s, not at {args.end} s")
    if args.error is not None and largest_error > args.error:
        failures.append(f"a marker was {largest_error:.3g} m off its target (limit {args.error} m)")
    print(f"largest marker error {largest_error:.3e} m; "
          f"{sum(int(float(r['updates'])) for r in rows) / max(steps, 1):.2f} updates per step over {steps} steps")

    replay = os.path.join(args.directory, "replay", base + ".csv")
    if os.path.exists(replay):
        inverse_rows = list(csv.DictReader(open(os.path.join(args.directory, base + ".csv"))))
        replay_rows = list(csv.DictReader(open(replay)))
        columns = [c for c in inverse_rows[0] if c.startswith("p") and "_u" in c]
        if len(replay_rows) != len(inverse_rows):
            sys.exit(f"inverse_report.py: the replay has {len(replay_rows)} rows, the inverse run {len(inverse_rows)}")
        difference = max(abs(float(a[c]) - float(b[c])) for a, b in zip(inverse_rows, replay_rows) for c in columns)
        travel = max(abs(float(a[c])) for a in inverse_rows for c in columns)
        print(f"replay: probe displacements within {difference:.2e} m of the inverse run's "
              f"(largest displacement {travel:.4f} m)")
        if args.replay is not None and difference > args.replay:
            failures.append(f"the replay differs by {difference:.3g} m (limit {args.replay} m)")
    else:
        print(f"no replay yet: hydrostat {os.path.join(args.directory, base + '_replay.prm')}")
        if args.replay is not None:
            failures.append("the replay did not run")
    for failure in failures:
        print("FAIL: " + failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
