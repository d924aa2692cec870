#!/usr/bin/env python3
"""Octopus arm bending: tip trajectories, bending direction, elongation and curvature along the arm.

Usage: python3 postprocess/octopus_metrics.py OUTPUT_DIR [OUTPUT_DIR ...] [--plot PNG_DIR]

Each OUTPUT_DIR holds octopus.csv from parameters/octopus_bending*.prm, whose probes are points on
the arm axis: p0 at the tip (z = 0.1 m), p1 ... p9 at z = 0.09 ... 0.01 m. For each run it prints
the tip position at the end, the tip bend angle (the direction of the last axis segment measured
from +z, positive toward +y, unwrapped along the arm, so a curl past the root still counts as a
dorsal bend of more than 180 degrees; the dorsal group lies at +y) at t = 0.25, 0.5, 1 s, the
largest segment angle along the arm at the end (its sign is the bending direction: a wave that
has only reached the base bends the base while the passive distal part lags), the change of
the axis length (sum of the distances between consecutive probes, root at the origin), and the
curvature along the arm at the end (circle through three consecutive axis points). With --plot it
draws the tip trajectories of all runs in the y-z plane, the arm axes at the end, and the
curvature profiles.
"""
import argparse
import csv
import os
import sys

import numpy as np


def load(directory):
    path = os.path.join(directory, "octopus.csv")
    if not os.path.exists(path):
        sys.exit(f"{path} not found: run hydrostat on an octopus_bending*.prm case first")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def axis_points(data, step):
    """Axis positions root -> tip at row `step` (the root centre is held at the origin)."""
    n = sum(1 for k in data if k.endswith("_x") and k.startswith("p"))
    points = [np.zeros(3)]
    for k in reversed(range(n)):
        points.append(np.array([data[f"p{k}_{c}"][step] for c in "xyz"]))
    return np.array(points)


def curvature(points):
    """Curvature at interior points: 1 / radius of the circle through each three consecutive points."""
    kappa = []
    for a, b, c in zip(points[:-2], points[1:-1], points[2:]):
        ab, bc, ca = np.linalg.norm(b - a), np.linalg.norm(c - b), np.linalg.norm(a - c)
        area2 = np.linalg.norm(np.cross(b - a, c - a))
        kappa.append(2 * area2 / (ab * bc * ca))
    return np.array(kappa)


def segment_angles(points):
    """Unwrapped directions [deg] of the axis segments root -> tip in the y-z plane, from +z toward +y."""
    d = np.diff(points, axis=0)
    return np.degrees(np.unwrap(np.arctan2(d[:, 1], d[:, 2])))


def bend_angle(points):
    """Direction [deg] of the last axis segment (the tip's bend angle)."""
    return segment_angles(points)[-1]


def row_at(data, t):
    return int(np.argmin(np.abs(data["time"] - t)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output_dirs", nargs="+")
    parser.add_argument("--plot", metavar="PNG_DIR")
    args = parser.parse_args()
    runs = {os.path.basename(os.path.normpath(d)): load(d) for d in args.output_dirs}
    for name, data in runs.items():
        rest = axis_points(data, 0)
        final = axis_points(data, -1)
        length0 = np.sum(np.linalg.norm(np.diff(rest, axis=0), axis=1))
        length = np.sum(np.linalg.norm(np.diff(final, axis=0), axis=1))
        tip = final[-1]
        kappa = curvature(final)
        angles = ", ".join(f"{bend_angle(axis_points(data, row_at(data, t))):.0f}" for t in (0.25, 0.5, 1.0)
                           if t <= data["time"][-1] + 1e-9)
        along = segment_angles(final)
        largest = along[int(np.argmax(np.abs(along)))]
        print(f"{name}: t = {data['time'][-1]:.3f} s, tip at ({tip[0]*1e3:.2f}, {tip[1]*1e3:.2f}, {tip[2]*1e3:.2f}) mm, "
              f"tip bend angle {angles} deg at t = 0.25, 0.5, 1 s, largest along the arm {largest:.0f} deg, "
              f"bends toward {'+y (dorsal, activated side)' if largest > 0 else '-y (ventral)'}, "
              f"axis length change {100 * (length / length0 - 1):+.1f} %, "
              f"max curvature {kappa.max():.1f} 1/m at z = {rest[1 + int(np.argmax(kappa))][2]*1e3:.0f} mm")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        os.makedirs(args.plot, exist_ok=True)

        def figure(name, xlabel, ylabel, curves, size=(5, 5), equal=True, title=None):
            """One PNG: curves(ax) draws a line per run; labels, grid, legend and saving are common."""
            fig, ax = plt.subplots(figsize=size)
            curves(ax)
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            if title:
                ax.set_title(title)
            if equal:
                ax.set_aspect("equal")
            ax.grid(alpha=0.3)
            ax.legend(fontsize=8)
            fig.tight_layout()
            fig.savefig(os.path.join(args.plot, name), dpi=120)

        figure("octopus_tip_trajectories.png", "tip y [mm] (dorsal +)", "tip z [mm]",
               lambda ax: [ax.plot(1e3 * d["p0_y"], 1e3 * d["p0_z"], label=n) for n, d in runs.items()])
        figure("octopus_axis.png", "y [mm] (dorsal +)", "z [mm]",
               lambda ax: [ax.plot(1e3 * axis_points(d, -1)[:, 1], 1e3 * axis_points(d, -1)[:, 2], "o-", ms=3,
                                   label=f"{n}, t = {d['time'][-1]:.2f} s") for n, d in runs.items()],
               title="arm axis (probe points, root at the origin)")
        figure("octopus_curvature.png", "reference position along the arm z [mm]", "curvature at the end [1/m]",
               lambda ax: [ax.plot(1e3 * axis_points(d, 0)[1:-1, 2], curvature(axis_points(d, -1)), "o-", label=n)
                           for n, d in runs.items()],
               size=(6, 4), equal=False)
        print("wrote", os.path.join(args.plot, "octopus_tip_trajectories.png"), "octopus_axis.png and octopus_curvature.png")

if __name__ == "__main__":
    main()
