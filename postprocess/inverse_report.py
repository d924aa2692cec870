#!/usr/bin/env python3
"""What an inverse run found (issue 28, theory.md §16), and whether its replay repeats it.

Usage: python3 postprocess/inverse_report.py OUTPUT_DIR [--every 10]

Reads OUTPUT_DIR/<base>_inverse.csv (time, one activation column per controlled group, error_<m>
per marker, updates) and prints the activations over time, each group's peak and its time, the
largest marker error and the updates per step. If OUTPUT_DIR/replay/<base>.csv exists (the run of
OUTPUT_DIR/<base>_replay.prm), prints the largest difference of the probe displacements between
the inverse run (<base>.csv) and its replay.
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
    args = parser.parse_args()
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
    print(f"largest marker error {max(float(r[e]) for r in rows for e in errors):.3e} m; "
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
    else:
        print(f"no replay yet: hydrostat {os.path.join(args.directory, base + '_replay.prm')}")


if __name__ == "__main__":
    main()
