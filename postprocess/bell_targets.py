#!/usr/bin/env python3
"""Targets of a reach whose bend point has a bell-shaped speed (issue 28, theory.md §16).

Usage: python3 postprocess/bell_targets.py FORWARD_DIR OUT_CSV [--duration T] [--end T_END] [--step DT]

FORWARD_DIR holds octopus.csv of parameters/octopus_reaching.prm (its bend follows an activation
front at constant speed, so the bend point moves at a plateau speed). The arm's shapes are kept and
their timing is changed: the shape of forward time tau is the target at time t with

    tau(t) = T (1 - cos(pi t / T)) / 2   for t < T,   tau = T after,

so that everything that moved at a constant rate in tau moves with the speed profile
(pi / 2) sin(pi t / T): one bell, zero at the start and at the end, peak / mean = pi / 2, over the
same T (default 0.5 s, when the forward front reaches the tip). OUT_CSV gets, every DT (default
5 ms) up to T_END (default 0.6 s), the time and every probe displacement of the forward run
(p<k>_ux, p<k>_uy, p<k>_uz) interpolated linearly at tau(t): the Target file of an inverse run
whose markers are the forward run's probes. The bend-point metrics of the forward run and of the targets are printed
(postprocess/octopus_manoeuvres.py).
"""
import argparse
import csv
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import octopus_manoeuvres as om  # noqa: E402


def warp(t, duration):
    return np.where(t < duration, 0.5 * duration * (1 - np.cos(np.pi * t / duration)), duration)


def with_positions(targets, reference):
    """Displacement columns (a target file) plus the markers' reference points: positions as in a
    run's CSV, for postprocess/octopus_manoeuvres.py."""
    data = dict(targets)
    for k, point in enumerate(reference):
        for c, x in zip("xyz", point):
            data[f"p{k}_{c}"] = targets[f"p{k}_u{c}"] + x
    return data


def bend_summary(name, data):
    indices, _ = om.axis(data)
    points = om.axis_points(data, indices)
    m = om.reach_metrics(data, points, om.axial_strain(points))
    if "peak_speed" not in m:
        print(f"{name}: no bend point found")
        return
    print(f"{name}: bend point Z = {1e3 * m['Z_first']:.1f} -> {1e3 * m['Z_last']:.1f} mm; speed in space: peak "
          f"{m['peak_speed']:.3f} m/s at {m['peak_time']:.3f} s, {m['n_peaks']} local maxima in 50 ms samples, "
          f"peak / mean {m['peak_over_mean']:.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("forward_dir")
    parser.add_argument("out_csv")
    parser.add_argument("--duration", type=float, default=0.5, help="T [s]: duration of the bell")
    parser.add_argument("--end", type=float, default=0.6, help="last target time [s]")
    parser.add_argument("--step", type=float, default=0.005, help="target rows every DT [s]")
    args = parser.parse_args()
    forward = om.load(args.forward_dir)
    if forward["time"][-1] < args.duration:
        sys.exit(f"{args.forward_dir}/octopus.csv ends at t = {forward['time'][-1]} s, before --duration "
                 f"{args.duration} s: run the forward case to its end")
    # Positions and displacements (not the velocities, which the new timing would change).
    columns = [k for k in forward if k.startswith("p") and k[1].isdigit() and k.split("_")[1] in
               ("x", "y", "z", "ux", "uy", "uz")]
    t = np.arange(0.0, args.end + 0.5 * args.step, args.step)
    tau = warp(t, args.duration)
    targets = {"time": t}
    for k in columns:
        targets[k] = np.interp(tau, forward["time"], forward[k])
    written = [k for k in columns if k.split("_")[1].startswith("u")]  # what an inverse run reads
    with open(args.out_csv, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["time"] + written)
        for r in range(len(t)):
            writer.writerow([f"{t[r]:.6g}"] + [f"{targets[k][r]:.7e}" for k in written])
    print(f"wrote {args.out_csv}: {len(t)} rows to t = {t[-1]:.3f} s, {len(columns) // 6} markers")
    bend_summary("forward run", forward)
    bend_summary("targets (as written)", with_positions(om.load_csv(args.out_csv), om.probes(forward)))


if __name__ == "__main__":
    main()
