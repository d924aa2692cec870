#!/usr/bin/env python3
"""Octopus arm bending: tip trajectories, bending direction, elongation and curvature along the arm.

Usage: python3 postprocess/octopus_metrics.py OUTPUT_DIR [OUTPUT_DIR ...] [--times T ...] [--pairs]
                                              [--plot PNG_DIR] [--prefix NAME_]

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

With --times, for every run at each of those times (linear interpolation between rows, since the
runs' step sequences differ) the tip (y, z), the tip bend angle and the axis length change; with
two runs, or with --pairs and the runs listed as (coarse mesh, refined mesh) pairs, also the
distance between the two tips of each pair relative to the refined run's tip displacement and the
difference of their bend angles. --plot then also draws the arm axes of all runs at those times,
one panel per time. The runs of a pair share a colour in the figures, solid (coarse) and dashed
(refined). --prefix names the figures (default octopus_: octopus_tip_trajectories.png,
octopus_axis.png, octopus_curvature.png, octopus_axes_at_times.png).
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


def axis_points(data, step=None, t=None):
    """Axis positions root -> tip at row `step` or, interpolated linearly, at time `t` (the root
    centre is held at the origin)."""
    n = sum(1 for k in data if k.endswith("_x") and k.startswith("p"))

    def value(key):
        return data[key][step] if t is None else np.interp(t, data["time"], data[key])

    points = [np.zeros(3)]
    for k in reversed(range(n)):
        points.append(np.array([value(f"p{k}_{c}") for c in "xyz"]))
    return np.array(points)


def axis_length(points):
    return np.sum(np.linalg.norm(np.diff(points, axis=0), axis=1))


def style(n, pairs):
    """Line style of the n-th run: with (coarse, fine) pairs one colour per pair, solid and dashed."""
    return {"color": f"C{n // 2}", "linestyle": "-" if n % 2 == 0 else "--"} if pairs else {"color": f"C{n}"}


def report_times(runs, times, pairs):
    """The --times table; with (coarse, fine) pairs of runs the difference within each pair."""
    print("| t [s] | run | tip (y, z) [mm] | tip bend angle [deg] | axis length change |")
    print("|---|---|---|---|---|")
    for t in times:
        snaps = []
        for name, data in runs.items():
            if t > data["time"][-1] + 1e-9:
                sys.exit(f"{name} ends at t = {data['time'][-1]:g} s, before --times {t:g}")
            points = axis_points(data, t=t)
            snaps.append((points[-1], bend_angle(points), axis_length(points) / axis_length(axis_points(data, 0))))
            print(f"| {t:g} | {name} | ({1e3 * points[-1][1]:.2f}, {1e3 * points[-1][2]:.2f}) | {snaps[-1][1]:.0f} "
                  f"| {100 * (snaps[-1][2] - 1):+.1f} % |")
        if pairs:
            names = list(runs)
            for k in range(0, len(snaps), 2):
                (tip_a, angle_a, _), (tip_b, angle_b, _) = snaps[k], snaps[k + 1]
                rest_tip = axis_points(runs[names[k + 1]], 0)[-1]
                rel = np.linalg.norm(tip_a - tip_b) / np.linalg.norm(tip_b - rest_tip)
                print(f"| {t:g} | {names[k]} vs {names[k + 1]} | {rel:.1%} of the tip displacement "
                      f"| {angle_a - angle_b:+.0f} | |")


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


def plot_axes_at_times(runs, times, pairs, path):
    import matplotlib.pyplot as plt
    fig, panels = plt.subplots(1, len(times), figsize=(3.2 * len(times), 3.6), squeeze=False)
    for ax, t in zip(panels[0], times):
        for n, (name, data) in enumerate(runs.items()):
            points = 1e3 * axis_points(data, t=t)
            ax.plot(points[:, 1], points[:, 2], marker="o", ms=2.5, label=name, **style(n, pairs))
        ax.set_title(f"t = {t:g} s")
        ax.set_xlabel("y [mm] (dorsal +)")
        ax.set_aspect("equal", adjustable="datalim")
        ax.grid(alpha=0.3)
    panels[0][0].set_ylabel("z [mm]")
    rows = (len(runs) + 3) // 4
    fig.legend(*panels[0][0].get_legend_handles_labels(), loc="lower center", ncol=min(len(runs), 4), fontsize=7)
    fig.tight_layout(rect=(0, 0.06 * rows, 1, 1))
    fig.savefig(path, dpi=120)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output_dirs", nargs="+")
    parser.add_argument("--times", nargs="+", type=float, metavar="T")
    parser.add_argument("--plot", metavar="PNG_DIR")
    parser.add_argument("--prefix", default="octopus_", help="file name prefix of the figures")
    parser.add_argument("--pairs", action="store_true", help="the runs are (coarse mesh, refined mesh) pairs")
    args = parser.parse_args()
    pairs = args.pairs or len(args.output_dirs) == 2
    if pairs and len(args.output_dirs) % 2:
        sys.exit("--pairs needs an even number of runs: (coarse, refined) pairs")
    runs = {os.path.basename(os.path.normpath(d)): load(d) for d in args.output_dirs}
    for name, data in runs.items():
        rest = axis_points(data, 0)
        final = axis_points(data, -1)
        length0 = axis_length(rest)
        length = axis_length(final)
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
    if args.times:
        report_times(runs, args.times, pairs)
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
            fig.savefig(os.path.join(args.plot, args.prefix + name), dpi=120)

        figure("tip_trajectories.png", "tip y [mm] (dorsal +)", "tip z [mm]",
               lambda ax: [ax.plot(1e3 * d["p0_y"], 1e3 * d["p0_z"], label=name, **style(n, pairs))
                           for n, (name, d) in enumerate(runs.items())])
        figure("axis.png", "y [mm] (dorsal +)", "z [mm]",
               lambda ax: [ax.plot(1e3 * axis_points(d, -1)[:, 1], 1e3 * axis_points(d, -1)[:, 2], marker="o", ms=3,
                                   label=f"{name}, t = {d['time'][-1]:.2f} s", **style(n, pairs))
                           for n, (name, d) in enumerate(runs.items())],
               title="arm axis (probe points, root at the origin)")
        figure("curvature.png", "reference position along the arm z [mm]", "curvature at the end [1/m]",
               lambda ax: [ax.plot(1e3 * axis_points(d, 0)[1:-1, 2], curvature(axis_points(d, -1)), marker="o",
                                   label=name, **style(n, pairs)) for n, (name, d) in enumerate(runs.items())],
               size=(6, 4), equal=False)
        names = ["tip_trajectories", "axis", "curvature"]
        if args.times:
            plot_axes_at_times(runs, args.times, pairs, os.path.join(args.plot, args.prefix + "axes_at_times.png"))
            names.append("axes_at_times")
        print("wrote", ", ".join(os.path.join(args.plot, f"{args.prefix}{n}.png") for n in names))

if __name__ == "__main__":
    main()
