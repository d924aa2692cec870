#!/usr/bin/env python3
"""The reach's bell by inverse activation (issue 28): what parameters/octopus_reach_bell_inverse.prm found.

Usage: python3 postprocess/reach_bell_report.py OUTPUT_DIR [--targets CSV] [--plot PNG]

OUTPUT_DIR holds octopus.csv (the axis probes) and octopus_inverse.csv (the node activations
longitudinal_dorsal_k and transverse_k at Z = 0, 10, ... 100 mm, the markers' errors) of the run;
--targets is the target file (default data/octopus/reach_bell_targets.csv). Prints
  - the bend point of the targets and of the run (postprocess/octopus_manoeuvres.py: speed in
    space, maxima of its 50 ms samples, peak / mean) and the largest marker error against the
    largest marker displacement;
  - the activation wave every 50 ms: the dorsal pulse's centre (activation-weighted mean Z of the
    dorsal profile) and peak, and the front of the transverse stiffening (the most distal Z where
    the transverse profile is at half its largest value of the run), with their speeds along the
    arm by differences over +-50 ms (the node profile moves in 10 mm jumps), the number of maxima of the dorsal centre's speed and its
    peak / mean (one bell: 1 and ~1.5; a constant-speed wave: ~1).
--plot draws the node activations over time and Z with the bend point on top.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import octopus_manoeuvres as om  # noqa: E402
from bell_targets import with_positions  # noqa: E402


def read(path):
    if not os.path.exists(path):
        sys.exit(f"{path} not found: run parameters/octopus_reach_bell_inverse.prm first")
    return om.load_csv(path)


def profile(inverse, name):
    k = 1
    columns = []
    while f"{name}_{k}" in inverse:
        columns.append(inverse[f"{name}_{k}"])
        k += 1
    return np.stack(columns, axis=1)  # (rows, nodes)


def speed(t, z, window=0.05):
    v = np.full(len(t), np.nan)
    for r in range(len(t)):
        rows = om.window_rows(t, r, window)
        if rows is not None:
            a, b = rows
            v[r] = (z[b] - z[a]) / (t[b] - t[a])  # NaN where the front is not found
    return v


def bend(name, data):
    indices, _ = om.axis(data)
    points = om.axis_points(data, indices)
    m = om.reach_metrics(data, points, om.axial_strain(points))
    print(f"{name}: bend point Z = {1e3 * m['Z_first']:.1f} -> {1e3 * m['Z_last']:.1f} mm (t = {m['first_time']:.3f} "
          f"to {m['last_time']:.3f} s); speed in space: peak {m['peak_speed']:.3f} m/s at {m['peak_time']:.3f} s, "
          f"{m['n_peaks']} maxima in 50 ms samples, peak / mean {m['peak_over_mean']:.2f}")
    return m


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output_dir")
    parser.add_argument("--targets", default="data/octopus/reach_bell_targets.csv")
    parser.add_argument("--plot", metavar="PNG")
    args = parser.parse_args()
    run = om.load(args.output_dir)
    inverse = read(os.path.join(args.output_dir, "octopus_inverse.csv"))
    targets = with_positions(read(args.targets), om.probes(run))
    bend("targets", targets)
    run_bend = bend("inverse run", run)
    errors = np.stack([inverse[k] for k in inverse if k.startswith("error_")], axis=1)
    travel = max(np.max(np.abs(run[k])) for k in run if k.startswith("p") and k.split("_")[1] in ("uy", "uz"))
    print(f"largest marker error {1e3 * errors.max():.2f} mm (t = {inverse['time'][np.argmax(errors.max(axis=1))]:.2f}"
          f" s), {100 * errors.max() / travel:.1f} % of the largest marker displacement {1e3 * travel:.1f} mm; "
          f"median over steps and markers {1e3 * np.median(errors[1:]):.3f} mm")

    t = inverse["time"]
    dorsal, transverse = profile(inverse, "longitudinal_dorsal"), profile(inverse, "transverse")
    nodes = np.linspace(0.0, 0.1, dorsal.shape[1])
    total = dorsal.sum(axis=1)
    centre = np.where(total > 0.1, (dorsal * nodes).sum(axis=1) / np.maximum(total, 1e-300), np.nan)
    half = 0.5 * transverse.max()
    front = np.full(len(t), np.nan)
    for r in range(len(t)):
        above = np.where(transverse[r] >= half)[0]
        if len(above) and above[-1] + 1 < len(nodes):
            i = above[-1]  # between node i (above half) and node i + 1 (below)
            a, b = transverse[r, i], transverse[r, i + 1]
            front[r] = nodes[i] + (a - half) / (a - b) * (nodes[i + 1] - nodes[i])
        elif len(above):
            front[r] = nodes[-1]
    v_centre, v_front = speed(t, centre), speed(t, front)
    print("activation wave (Z along the arm [mm], speeds dZ/dt over +-50 ms [m/s]):")
    samples = []
    for time in np.arange(0.05, 0.5 + 1e-9, 0.05):
        r = int(np.argmin(np.abs(t - time)))
        samples.append(v_centre[r])
        print(f"  t = {t[r]:.2f} s: dorsal centre {1e3 * centre[r]:5.1f} mm (speed {v_centre[r]:6.3f}), peak "
              f"{dorsal[r].max():.2f} at {1e3 * nodes[np.argmax(dorsal[r])]:3.0f} mm; transverse front "
              f"{1e3 * front[r]:5.1f} mm (speed {v_front[r]:6.3f}); bend point Z "
              f"{1e3 * np.interp(t[r], run_bend['time'], run_bend['Z']):5.1f} mm")
    s = np.array([x for x in samples if not np.isnan(x)])
    maxima = sum(1 for k in range(len(s)) if s[k] > 0.5 * s.max() and (k == 0 or s[k] >= s[k - 1])
                 and (k == len(s) - 1 or s[k] > s[k + 1]))
    print(f"dorsal centre speed, 50 ms samples 0.05-0.5 s: {s.min():.3f}-{s.max():.3f} m/s, {maxima} maxima, "
          f"peak / mean {s.max() / s.mean():.2f}; transverse level behind the front (Z <= 40 mm, t >= 0.3 s) "
          f"{np.median(transverse[t >= 0.3][:, nodes <= 0.04]):.2f}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
        for ax, values, title in zip(axes, (dorsal, transverse), ("dorsal longitudinal", "transverse")):
            image = ax.pcolormesh(t, 1e3 * nodes, values.T, shading="gouraud", vmin=0, vmax=1)
            ax.plot(run_bend["time"], 1e3 * run_bend["Z"], "w-", label="bend point Z")
            ax.plot(t, 1e3 * centre, "r--", label="dorsal centre")
            ax.set_title(f"{title} activation")
            ax.set_xlabel("time [s]")
            ax.legend(fontsize=7, loc="lower right")
        axes[0].set_ylabel("Z along the arm [mm]")
        fig.colorbar(image, ax=axes)
        fig.savefig(args.plot, dpi=80)
        print("wrote", args.plot)


if __name__ == "__main__":
    main()
