#!/usr/bin/env python3
"""Wrap angle of an arm around a rod and the contact force over time (issue 27, the grasp case).

Reads <dir>/<base>.csv (the probe points along the arm's axis) and <dir>/<base>_contact_1.csv.
The wrap angle at a time is the angle about the rod's axis (parallel to x, through y, z = --rod)
swept by the part of the arm's centreline that lies within --reach of the rod's surface (default:
the arm's local radius is not known here, so 6 mm), the probe points joined by straight segments.

    python3 postprocess/contact_wrap.py output/octopus_grasp --rod 0.02 0.025 --radius 0.006
    python3 postprocess/contact_wrap.py output/octopus_grasp_pull --rod 0.02 0.025 --radius 0.006
"""
import argparse
import csv
import glob
import math
import os


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory")
    parser.add_argument("--rod", nargs=2, type=float, required=True, metavar=("Y", "Z"),
                        help="the rod's axis (parallel to x) passes through y = Y, z = Z [m]")
    parser.add_argument("--radius", type=float, required=True, help="the rod's radius [m]")
    parser.add_argument("--reach", type=float, default=0.006,
                        help="centreline points within this distance of the rod's surface count [m]")
    parser.add_argument("--every", type=int, default=5, help="print every n-th step")
    args = parser.parse_args()

    contact_files = glob.glob(os.path.join(args.directory, "*_contact_1.csv"))
    if not contact_files:
        raise SystemExit(f"contact_wrap.py: no *_contact_1.csv in {args.directory}: run a case with 'Contact/Obstacle 1'")
    base = contact_files[0][: -len("_contact_1.csv")]
    rows = list(csv.DictReader(open(base + ".csv")))
    forces = {row["step"]: row for row in csv.DictReader(open(contact_files[0]))}
    probes = sorted({int(c[1:].split("_")[0]) for c in rows[0] if c.startswith("p") and c.endswith("_y")})
    # F_x is the pull along the rod's axis (octopus_grasp_pull.prm); Σ λ_N dA bounds what friction
    # can hold against it: |F_x| <= mu Σ λ_N dA.
    normal = "normal_force" in next(iter(forces.values()), {})
    print("time [s]  wrap [deg]  |force| [N]  area [mm^2]  max pressure [Pa]     F_x [N]"
          + ("  sum lambda_N dA [N]" if normal else ""))
    best = (0.0, 0.0)
    for k, row in enumerate(rows):
        # The centreline from the root (the last probe) to the tip (the first), finely sampled.
        points = [(float(row[f"p{p}_y"]), float(row[f"p{p}_z"])) for p in reversed(probes)]
        angles = []
        for (y0, z0), (y1, z1) in zip(points, points[1:]):
            for s in [i / 20 for i in range(21)]:
                y, z = y0 + s * (y1 - y0) - args.rod[0], z0 + s * (z1 - z0) - args.rod[1]
                if math.hypot(y, z) <= args.radius + args.reach:
                    angles.append(math.atan2(z, y))
        wrap = 0.0
        if angles:
            unwrapped = [angles[0]]
            for a in angles[1:]:
                d = (a - unwrapped[-1] + math.pi) % (2 * math.pi) - math.pi
                unwrapped.append(unwrapped[-1] + d)
            wrap = math.degrees(max(unwrapped) - min(unwrapped))
        c = forces.get(row["step"])
        force = math.sqrt(sum(float(c[f"force_{d}"]) ** 2 for d in "xyz")) if c else 0.0
        if wrap > best[0]:
            best = (wrap, float(row["time"]))
        if k % args.every == 0 or k == len(rows) - 1:
            print(f"{float(row['time']):8.3f}  {wrap:10.1f}  {force:11.4g}  {1e6 * float(c['contact_area']) if c else 0:11.3g}"
                  f"  {float(c['max_pressure']) if c else 0:17.4g}  {float(c['force_x']) if c else 0:10.4g}"
                  + (f"  {float(c['normal_force']) if c else 0:19.4g}" if normal else ""))
    print(f"largest wrap angle {best[0]:.1f} deg at t = {best[1]:.3f} s")


if __name__ == "__main__":
    main()
