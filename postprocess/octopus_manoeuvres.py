#!/usr/bin/env python3
"""Octopus arm manoeuvres (issue 13): extension, shortening, twisting, reaching by bend propagation.

Usage: python3 postprocess/octopus_manoeuvres.py OUTPUT_DIR [OUTPUT_DIR ...]
       python3 postprocess/octopus_manoeuvres.py COARSE_DIR FINE_DIR --times T1 T2 T3 [--plot PNG]

Each OUTPUT_DIR holds octopus.csv of a parameters/octopus_<manoeuvre>.prm run. Probes whose
reference point lies on the arm axis (x = y = 0) are the axis points; the root centre is held at
the origin. For every run it prints
  - the tip trajectory: tip position [mm] at five times, and the largest tip displacement;
  - the axial strain: axis length (sum of the distances between consecutive axis points, root
    included) over its rest length, minus 1, at the end and its extremes over the run;
  - twisting (runs with off-axis probes at the tip / mid-arm): the twist angle [deg] of the
    cross-section there about the local axis tangent, relative to the root (which is held);
  - reaching (the run's directory name contains "reaching", or every run with --reach): the bend
    point, a maximum of the axis curvature (circle through three consecutive axis points, refined
    by a parabola), tracked from the most proximal one at its first appearance to the nearest
    maximum in each later row;
    its reference position Z (where and when it is first and last found, and its largest jump between
    rows, which flags the tracker switching to another maximum) and its speed in space and along the
    arm (dZ/dt), by differences over +-25 ms (the probes are 5 mm apart); the peak speed and its
    time, the number of local maxima of the profile sampled every 50 ms and peak / mean speed (a
    single bell-shaped peak as measured by Gutfreund et al. 1996 gives 1 and ~1.5, a plateau ~1);
    and the arm strain when the activation front reaches the tip and at the end, against
    0.57 +- 0.41 (Hanassy et al. 2015).
With --times, for every run at each of those times (linear interpolation between rows, since the
runs' step sequences differ): the tip position, the axial strain, the local axial strain of the
axis segment at mid-arm and of the last one (at the tip), and the twist angles; with
exactly two runs (coarse mesh first, then the refined one) also the difference of the first
against the second, relative to the second's tip displacement, strain and twist; with exactly three
runs, each refined from the one before by the same ratio (--ratio, default 2), the observed order
of convergence and the Richardson estimate of the tip's y and z and of the axial strain (none
where the differences change sign, vanish or grow). --plot PNG draws
the tip displacement (or the twist at the tip) over time and the local axial strain along the arm
(segment length between axis probes over its rest length, minus 1) at the --times for every run;
without --times, --plot PNG draws the bend point's speed in space and its position Z over time of
reaching runs.
"""
import argparse
import csv
import os
import sys

import numpy as np

HANASSY_STRAIN = (0.57, 0.41)


def load_csv(path):
    """The columns of a CSV file with a header row, by name."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def load(directory):
    path = os.path.join(directory, "octopus.csv")
    if not os.path.exists(path):
        sys.exit(f"{path} not found: run hydrostat on a parameters/octopus_<manoeuvre>.prm case first")
    return load_csv(path)


def window_rows(t, r, window):
    """The rows a, b nearest t[r] -+ window for a central difference at row r, or None where the
    run does not reach half a window on either side."""
    a, b = np.searchsorted(t, t[r] - window), np.searchsorted(t, t[r] + window, side="right") - 1
    return (a, b) if t[r] - t[a] >= 0.5 * window and t[b] - t[r] >= 0.5 * window else None


def probes(data):
    """Reference points of the probes (position minus displacement at the first row)."""
    n = sum(1 for k in data if k.startswith("p") and k.endswith("_ux"))
    return np.array([[data[f"p{k}_{c}"][0] - data[f"p{k}_u{c}"][0] for c in "xyz"] for k in range(n)])


def positions(data, k):
    """Current position of probe k over time, shape (rows, 3)."""
    return np.stack([data[f"p{k}_{c}"] for c in "xyz"], axis=1)


def axis(data):
    """Axis probes root -> tip: their indices and reference Z, the root (origin) first with index -1."""
    ref = probes(data)
    on_axis = [k for k in range(len(ref)) if abs(ref[k, 0]) < 1e-12 and abs(ref[k, 1]) < 1e-12]
    on_axis.sort(key=lambda k: ref[k, 2])
    return [-1] + on_axis, np.array([0.0] + [ref[k, 2] for k in on_axis])


def axis_points(data, indices):
    """Axis points root -> tip over time, shape (rows, points, 3)."""
    rows = len(data["time"])
    return np.stack([np.zeros((rows, 3)) if k < 0 else positions(data, k) for k in indices], axis=1)


def axial_strain(points):
    lengths = np.sum(np.linalg.norm(np.diff(points, axis=1), axis=2), axis=1)
    return lengths / lengths[0] - 1.0


def curvature(points):
    """Curvature [1/m] at the interior axis points of one row (circle through three points)."""
    a, b, c = points[:-2], points[1:-1], points[2:]
    ab, bc, ca = (np.linalg.norm(b - a, axis=1), np.linalg.norm(c - b, axis=1), np.linalg.norm(a - c, axis=1))
    area2 = np.linalg.norm(np.cross(b - a, c - a), axis=1)
    return 2 * area2 / (ab * bc * ca)


def report_trajectory(data, points, strain):
    t = data["time"]
    tip = points[:, -1, :]
    print("  tip trajectory [mm]:")
    for frac in (0.0, 0.25, 0.5, 0.75, 1.0):
        r = int(round(frac * (len(t) - 1)))
        print(f"    t = {t[r]:.3f} s: ({1e3 * tip[r, 0]:7.2f}, {1e3 * tip[r, 1]:7.2f}, {1e3 * tip[r, 2]:7.2f})")
    print(f"  largest tip displacement: {1e3 * np.max(np.linalg.norm(tip - tip[0], axis=1)):.2f} mm")
    print(f"  axial strain: {strain[-1]:+.4f} at t = {t[-1]:.3f} s (min {strain.min():+.4f}, max {strain.max():+.4f})")


def twist_angle(data, indices, z_of_axis, k_off):
    """Twist [deg] about the axis tangent of the off-axis probe k_off, whose reference point is at e_x."""
    ref = probes(data)[k_off]
    j = int(np.argmin(np.abs(z_of_axis - ref[2])))
    centre = axis_points(data, [indices[j]])[:, 0, :]
    neighbour = axis_points(data, [indices[j - 1]])[:, 0, :]
    tangent = centre - neighbour
    tangent /= np.linalg.norm(tangent, axis=1)[:, None]
    d = positions(data, k_off) - centre
    d -= np.sum(d * tangent, axis=1)[:, None] * tangent
    e = np.array([1.0, 0.0, 0.0])
    e_proj = e - (tangent @ e)[:, None] * tangent  # the reference direction carried with the tangent
    angle = np.arctan2(np.sum(np.cross(e_proj, d) * tangent, axis=1), np.sum(e_proj * d, axis=1))
    return np.degrees(np.unwrap(angle)), ref[2]


def report_twist(data, indices, z_of_axis):
    ref = probes(data)
    off = [k for k in range(len(ref)) if abs(ref[k, 0]) > 1e-12 or abs(ref[k, 1]) > 1e-12]
    for k in off:
        angle, z = twist_angle(data, indices, z_of_axis, k)
        t = data["time"]
        half = int(np.argmin(np.abs(t - 0.5 * t[-1])))
        print(f"  twist at Z = {1e3 * z:.0f} mm: {angle[half]:+.1f} deg at t = {t[half]:.3f} s, {angle[-1]:+.1f} deg at "
              f"t = {t[-1]:.3f} s ({angle[-1] / (1e3 * z):+.2f} deg/mm of arm)")


def bend_points(points, z_of_axis, threshold):
    """Reference Z and position of the bend point per row (NaN where the arm is straighter than
    1/threshold): a local maximum of the axis curvature, refined by a parabola through it and its
    neighbours. The bend is tracked: the first is the most proximal maximum, later rows take the
    maximum nearest to the previous bend point, so that a second bend elsewhere (the passive
    distal arm swinging) does not make the bend point jump."""
    z, x = np.full(len(points), np.nan), np.full((len(points), 3), np.nan)
    previous = None
    for r in range(len(points)):
        kappa = curvature(points[r])
        maxima = [i for i in range(len(kappa)) if kappa[i] >= threshold and (i == 0 or kappa[i] >= kappa[i - 1])
                  and (i == len(kappa) - 1 or kappa[i] > kappa[i + 1])]
        if not maxima:
            continue
        i = maxima[0] if previous is None else min(maxima, key=lambda m: abs(m + 1 - previous))
        offset = 0.0
        if 0 < i < len(kappa) - 1:
            k0, k1, k2 = kappa[i - 1], kappa[i], kappa[i + 1]
            denominator = k0 - 2 * k1 + k2
            offset = 0.5 * (k0 - k2) / denominator if denominator != 0 else 0.0
        j = i + 1 + offset  # interior point i is axis point i + 1
        previous = j
        j0 = int(np.floor(j))
        w = j - j0
        j1 = min(j0 + 1, len(z_of_axis) - 1)
        z[r] = (1 - w) * z_of_axis[j0] + w * z_of_axis[j1]
        x[r] = (1 - w) * points[r, j0] + w * points[r, j1]
    return z, x


def reach_metrics(data, points, strain, front_speed=0.2, length=0.1, window=0.025):
    """The bend point over time and the key numbers of a reach (see the module docstring)."""
    t = data["time"]
    _, z_of_axis = axis(data)
    z, x = bend_points(points, z_of_axis, threshold=20.0)  # radius of curvature < 50 mm
    # Speed in space and along the arm (dZ/dt) by central differences over +-window: the bend point
    # moves between probes 5 mm apart, so row-to-row differences are dominated by that jitter.
    speed, speed_z = np.full(len(t), np.nan), np.full(len(t), np.nan)
    for r in range(len(t)):
        rows = window_rows(t, r, window)
        if rows is None or np.isnan(z[rows[0]]) or np.isnan(z[rows[1]]):
            continue
        a, b = rows
        speed[r] = np.linalg.norm(x[b] - x[a]) / (t[b] - t[a])
        speed_z[r] = (z[b] - z[a]) / (t[b] - t[a])
    m = {"time": t, "Z": z, "speed": speed, "speed_Z": speed_z}
    valid = ~np.isnan(speed)
    if not np.any(valid):
        return m
    smooth = np.where(valid, speed, 0.0)
    r_peak = int(np.argmax(smooth))
    above = np.where(smooth >= 0.5 * smooth[r_peak])[0]
    m["peak_speed"], m["peak_time"] = smooth[r_peak], t[r_peak]
    m["half_peak_from"], m["half_peak_to"] = t[above[0]], t[above[-1]]
    # Shape of the profile, sampled every 50 ms: local maxima above half the peak (1 for a bell)
    # and peak over mean speed (a bell ~1.5, a plateau ~1).
    samples = np.array([smooth[int(np.argmin(np.abs(t - time)))] for time in np.arange(0.0, t[-1] + 1e-9, 0.05)])
    samples = samples[samples > 0]
    m["n_peaks"] = sum(1 for k in range(len(samples))
                       if samples[k] > 0.5 * samples.max() and (k == 0 or samples[k] >= samples[k - 1])
                       and (k == len(samples) - 1 or samples[k] > samples[k + 1]))
    m["peak_over_mean"] = samples.max() / samples.mean()
    found = np.where(~np.isnan(z))[0]
    m["Z_first"], m["Z_last"] = z[found[0]], z[found[-1]]
    m["first_time"], m["last_time"] = t[found[0]], t[found[-1]]
    r_front = int(np.argmin(np.abs(t - length / front_speed)))
    m["strain_front"], m["time_front"] = strain[r_front], t[r_front]
    m["strain_end"], m["time_end"] = strain[-1], t[-1]
    return m


def report_reach(data, points, strain):
    m = reach_metrics(data, points, strain)
    t = m["time"]
    print("  bend point (curvature maximum > 20 1/m): reference position Z, speed in space and along the arm "
          "(differences over +-25 ms)")
    for time in np.arange(0.0, t[-1] + 1e-9, 0.05):
        r = int(np.argmin(np.abs(t - time)))
        print(f"    t = {t[r]:.3f} s: Z = {1e3 * m['Z'][r]:6.1f} mm, speed {m['speed'][r]:.3f} m/s, "
              f"dZ/dt {m['speed_Z'][r]:.3f} m/s")
    if "peak_speed" not in m:
        print("  no bend point found")
        return
    print(f"  bend point peak speed {m['peak_speed']:.3f} m/s at t = {m['peak_time']:.3f} s; above half "
          f"the peak from {m['half_peak_from']:.3f} to {m['half_peak_to']:.3f} s; {m['n_peaks']} local maxima above "
          f"half the peak in 50 ms samples (1 for a bell); peak / mean {m['peak_over_mean']:.2f} "
          f"(a bell ~1.5, a plateau ~1)")
    print(f"  bend point travelled Z = {1e3 * m['Z_first']:.1f} -> {1e3 * m['Z_last']:.1f} mm (found from t = "
          f"{m['first_time']:.3f} to {m['last_time']:.3f} s)")
    jumps = np.nan_to_num(np.abs(np.diff(m["Z"])))
    j = int(np.argmax(jumps))
    print(f"  largest change of Z between rows: {1e3 * m['Z'][j]:.1f} -> {1e3 * m['Z'][j + 1]:.1f} mm at t = "
          f"{t[j + 1]:.3f} s (a jump of the tracked maximum, not a motion, if much more than the 5 mm probe spacing)")
    mean, spread = HANASSY_STRAIN
    for key in ("front", "end"):
        value = m["strain_" + key]
        inside = abs(value - mean) <= spread
        print(f"  arm strain at t = {m['time_' + key]:.3f} s: {value:+.3f} (Hanassy et al. 2015: {mean} +- {spread}: "
              f"{'inside' if inside else 'outside'})")


def at_time(values, t, time):
    """values (rows, ...) interpolated linearly in t at `time`."""
    flat = values.reshape(len(t), -1)
    return np.array([np.interp(time, t, flat[:, k]) for k in range(flat.shape[1])]).reshape(values.shape[1:])


def snapshot(data, times):
    """Tip position [m], axial strain and twist angles [deg] (off-axis probes) at each time."""
    indices, z_of_axis = axis(data)
    points = axis_points(data, indices)
    strain = axial_strain(points)
    ref = probes(data)
    off = [k for k in range(len(ref)) if abs(ref[k, 0]) > 1e-12 or abs(ref[k, 1]) > 1e-12]
    t = data["time"]
    twists = [twist_angle(data, indices, z_of_axis, k) for k in off]
    segments = np.linalg.norm(np.diff(points, axis=1), axis=2)
    local = segments / segments[0] - 1.0
    middle = int(np.argmin(np.abs(0.5 * (z_of_axis[1:] + z_of_axis[:-1]) - 0.5 * z_of_axis[-1])))
    return [{"tip": at_time(points[:, -1, :], t, time), "strain": float(at_time(strain, t, time)),
             "local": (float(at_time(local[:, middle], t, time)), float(at_time(local[:, -1], t, time))),
             "twist": {1e3 * z: float(at_time(angle, t, time)) for angle, z in twists}} for time in times]


def richardson(coarse, medium, fine, ratio):
    """Observed order and Richardson estimate of a quantity on three meshes refined by `ratio` each;
    NaN where the two differences change sign, vanish or grow (not in the asymptotic range)."""
    d1, d2 = medium - coarse, fine - medium
    if d1 * d2 <= 0 or abs(d2) >= abs(d1):
        return float("nan"), float("nan")
    order = np.log(d1 / d2) / np.log(ratio)
    return order, fine + d2 / (ratio**order - 1)


def report_richardson(snapshots, times, ratio):
    print("| t [s] | tip y [mm]: order, estimate | tip z [mm]: order, estimate | axial strain: order, estimate |")
    print("|---|---|---|---|")
    for i, time in enumerate(times):
        values = [(1e3 * s[i]["tip"][1], 1e3 * s[i]["tip"][2], s[i]["strain"]) for s in snapshots]
        cells = [richardson(*(v[k] for v in values), ratio) for k in range(3)]
        text = [f"{order:.1f}, {estimate:{form}}" if np.isfinite(order) else "— (not converging monotonically)"
                for (order, estimate), form in zip(cells, (".2f", ".2f", "+.4f"))]
        print(f"| {time:g} | {' | '.join(text)} |")


def report_times(names, snapshots, times):
    """The --times table; with two runs the first's relative difference to the second."""
    print("| t [s] | run | tip (x, y, z) [mm] | axial strain | local strain mid-arm / last segment | twist [deg] |")
    print("|---|---|---|---|---|---|")
    for i, time in enumerate(times):
        for name, snap in zip(names, snapshots):
            s = snap[i]
            twist = ", ".join(f"{a:+.1f} at Z = {z:.0f} mm" for z, a in s["twist"].items()) or "—"
            print(f"| {time:g} | {name} | ({', '.join(f'{1e3 * c:.2f}' for c in s['tip'])}) | {s['strain']:+.4f} "
                  f"| {s['local'][0]:+.3f} / {s['local'][1]:+.3f} | {twist} |")
        if len(snapshots) == 2:
            a, b = snapshots[0][i], snapshots[1][i]
            displacement = np.linalg.norm(b["tip"] - np.array([0.0, 0.0, 0.1]))
            rel_tip = np.linalg.norm(a["tip"] - b["tip"]) / displacement if displacement > 0 else float("nan")
            rel_strain = (a["strain"] - b["strain"]) / abs(b["strain"]) if b["strain"] else float("nan")
            twist = ", ".join(f"{(a['twist'][z] - b['twist'][z]) / abs(b['twist'][z]):+.2%} at Z = {z:.0f} mm"
                              for z in b["twist"]) or "—"
            print(f"| {time:g} | coarse vs fine | {rel_tip:.2%} of the tip displacement | {rel_strain:+.2%} | "
                  f"| {twist} |")


def plot_runs(names, datas, times, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    styles, colors = ["-", "--", ":", "-."], ["tab:blue", "tab:orange", "tab:green", "tab:red"]
    for n, (name, data) in enumerate(zip(names, datas)):
        indices, z_of_axis = axis(data)
        points = axis_points(data, indices)
        t = data["time"]
        ref = probes(data)
        off = [k for k in range(len(ref)) if abs(ref[k, 0]) > 1e-12 or abs(ref[k, 1]) > 1e-12]
        if off:
            for k in off:
                angle, z = twist_angle(data, indices, z_of_axis, k)
                left.plot(t, angle, styles[n % 4], color="k" if z > 0.075 else "tab:gray",
                          label=f"{name}, Z = {1e3 * z:.0f} mm")
            left.set_ylabel("twist angle [deg]")
        else:
            left.plot(t, 1e3 * (points[:, -1, 2] - points[0, -1, 2]), styles[n % 4], color="k", label=name)
            left.set_ylabel("tip displacement along z [mm]")
        segments = np.linalg.norm(np.diff(points, axis=1), axis=2)
        local = segments / segments[0] - 1.0
        middle = 0.5 * (z_of_axis[1:] + z_of_axis[:-1])
        for j, time in enumerate(times):
            right.plot(1e3 * middle, at_time(local, t, time), styles[n % 4], color=colors[j % 4],
                       label=f"{name}, t = {time:g} s")
    left.set_xlabel("time [s]")
    right.set_xlabel("reference position along the arm Z [mm]")
    right.set_ylabel("local axial strain")
    for ax in (left, right):
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    print("wrote", path)


def plot_reach(names, datas, path):
    """Bend-point speed in space and bend-point position Z over time for reaching runs."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    for name, data in zip(names, datas):
        indices, _ = axis(data)
        points = axis_points(data, indices)
        m = reach_metrics(data, points, axial_strain(points))
        line, = left.plot(m["time"], m["speed"], label=name)
        right.plot(m["time"], 1e3 * m["Z"], color=line.get_color(), label=name)
    right.plot([0, 0.5], [0, 100], "k:", label="activation front 0.2 m/s")
    left.set_ylabel("bend-point speed in space [m/s]")
    right.set_ylabel("bend-point reference position Z [mm]")
    for ax in (left, right):
        ax.set_xlabel("time [s]")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    print("wrote", path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output_dirs", nargs="+")
    parser.add_argument("--times", type=float, nargs="+", metavar="T", help="times [s] of the snapshot table")
    parser.add_argument("--reach", action="store_true", help="report the reach metrics of every run, whatever "
                        "its directory is called")
    parser.add_argument("--ratio", type=float, default=2.0, help="refinement ratio between three runs (--times)")
    parser.add_argument("--plot", metavar="PNG", help="write this figure (with --times: tip or twist over time and "
                        "the strain along the arm; without: bend-point speed and position of reaching runs)")
    args = parser.parse_args()
    if args.times:
        names = [os.path.basename(os.path.normpath(d)) for d in args.output_dirs]
        datas = [load(d) for d in args.output_dirs]
        snapshots = [snapshot(d, args.times) for d in datas]
        report_times(names, snapshots, args.times)
        if len(snapshots) == 3:
            report_richardson(snapshots, args.times, args.ratio)
        if args.plot:
            plot_runs(names, datas, args.times, args.plot)
        return
    if args.plot:
        plot_reach([os.path.basename(os.path.normpath(d)) for d in args.output_dirs],
                   [load(d) for d in args.output_dirs], args.plot)
    for directory in args.output_dirs:
        data = load(directory)
        indices, z_of_axis = axis(data)
        points = axis_points(data, indices)
        strain = axial_strain(points)
        name = os.path.basename(os.path.normpath(directory))
        print(f"{name}: {len(data['time'])} rows to t = {data['time'][-1]:.3f} s, {len(indices) - 1} axis probes")
        report_trajectory(data, points, strain)
        if len(probes(data)) > len(indices) - 1:
            report_twist(data, indices, z_of_axis)
        if args.reach or "reaching" in name:
            report_reach(data, points, strain)


if __name__ == "__main__":
    main()
