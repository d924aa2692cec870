#!/usr/bin/env python3
"""The club of a squid strike hitting prey (issue 27, parameters/squid_prey_strike.prm).

Usage: python3 postprocess/squid_impact.py OUTPUT_DIR [--symmetry 4] [--every 10]

Reads OUTPUT_DIR/squid.csv (probe p0 the club's tip, p3 on the axis one cell behind it) and
OUTPUT_DIR/squid_contact_1.csv (the force of the prey on the body). The quadrant model carries a
quarter of the tentacle: forces, areas and work are multiplied by --symmetry. Prints the impact
force over time and: the first touch, the club's speed then (p3), the peak force and its time, the
impulse of the contact force and the club's momentum change over the first 2 ms of contact.
"""
import argparse
import csv
import os
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("--symmetry", type=float, default=4.0, help="copies of the model in the whole tentacle")
    parser.add_argument("--every", type=int, default=10, help="print every n-th row")
    args = parser.parse_args()
    paths = [os.path.join(args.directory, name) for name in ("squid.csv", "squid_contact_1.csv")]
    for path in paths:
        if not os.path.exists(path):
            sys.exit(f"squid_impact.py: {path} does not exist: run parameters/squid_prey_strike.prm first")
    rows = {r["step"]: r for r in csv.DictReader(open(paths[0]))}
    contact = list(csv.DictReader(open(paths[1])))
    if "p3_vz" not in next(iter(rows.values())):
        sys.exit("squid_impact.py: squid.csv has no probe p3 (the club behind the tip): use squid_prey_strike.prm")
    k = args.symmetry
    print("time [ms]  tip z [mm]  club speed [m/s]  force [N]  area [mm^2]  max pressure [kPa]")
    series = []
    for n, c in enumerate(contact):
        r = rows[c["step"]]
        t, force = float(c["time"]), -k * float(c["force_z"])
        series.append((t, force, float(r["p3_vz"])))
        if n % args.every == 0 or n == len(contact) - 1:
            print(f"{1e3 * t:9.3f}  {1e3 * float(r['p0_z']):10.3f}  {float(r['p3_vz']):16.3f}  {force:9.4f}"
                  f"  {1e6 * k * float(c['contact_area']):11.3f}  {1e-3 * float(c['max_pressure']):18.1f}")
    touch = next((i for i, (_, f, _) in enumerate(series) if f > 0), None)
    if touch is None:
        print("The club does not touch the prey.")
        return
    t0, _, _ = series[touch]
    v0 = series[touch - 1][2]
    peak = max(series, key=lambda s: s[1])
    window = [s for s in series[touch - 1:] if s[0] <= t0 + 0.002]
    impulse = sum(0.5 * (a[1] + b[1]) * (b[0] - a[0]) for a, b in zip(window, window[1:]))
    print(f"first touch at t = {1e3 * t0:.2f} ms at a club speed of {v0:.3f} m/s; peak force {peak[1]:.3f} N "
          f"at t = {1e3 * peak[0]:.2f} ms; impulse over the first 2 ms {1e3 * impulse:.3f} mN s "
          f"(club speed {window[-1][2]:.3f} m/s at t = {1e3 * window[-1][0]:.2f} ms); contact work "
          f"{k * float(contact[-1]['contact_work']):.3g} J")


if __name__ == "__main__":
    main()
