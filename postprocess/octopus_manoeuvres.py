#!/usr/bin/env python3
"""Octopus arm manoeuvres (issue 13): extension, shortening, twisting, reaching by bend propagation.

Usage: python3 postprocess/octopus_manoeuvres.py OUTPUT_DIR [OUTPUT_DIR ...]

Each OUTPUT_DIR holds octopus.csv of a parameters/octopus_<manoeuvre>.prm run. Probes whose
reference point lies on the arm axis (x = y = 0) are the axis points; the root centre is held at
the origin. For every run it prints
  - the tip trajectory: tip position [mm] at five times, and the largest tip displacement;
  - the axial strain: axis length (sum of the distances between consecutive axis points, root
    included) over its rest length, minus 1, at the end and its extremes over the run;
  - twisting (runs with off-axis probes at the tip / mid-arm): the twist angle [deg] of the
    cross-section there about the local axis tangent, relative to the root (which is held);
  - reaching (the run's directory name contains "reaching"): the bend point, a maximum of the
    axis curvature (circle through three consecutive axis points, refined by a parabola), tracked
    from the most proximal one at its first appearance to the nearest maximum in each later row;
    its reference position Z and its speed in space and along the arm (dZ/dt), by differences
    over +-25 ms (the probes are 5 mm apart); the peak speed and its time, the number of local
    maxima of the profile sampled every 50 ms and peak / mean speed (a single bell-shaped peak as
    measured by Gutfreund et al. 1996 gives 1 and ~1.5, a plateau ~1); and the arm strain when the
    activation front reaches the tip and at the end, against 0.57 +- 0.41 (Hanassy et al. 2015).
"""
import argparse
import csv
import os
import sys

import numpy as np

HANASSY_STRAIN = (0.57, 0.41)


def load(directory):
    path = os.path.join(directory, "octopus.csv")
    if not os.path.exists(path):
        sys.exit(f"{path} not found: run hydrostat on a parameters/octopus_<manoeuvre>.prm case first")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


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
        a, b = np.searchsorted(t, t[r] - window), np.searchsorted(t, t[r] + window, side="right") - 1
        if t[r] - t[a] < 0.5 * window or t[b] - t[r] < 0.5 * window or np.isnan(z[a]) or np.isnan(z[b]):
            continue
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
    print(f"  bend point travelled Z = {1e3 * m['Z_first']:.1f} -> {1e3 * m['Z_last']:.1f} mm")
    mean, spread = HANASSY_STRAIN
    for key in ("front", "end"):
        value = m["strain_" + key]
        inside = abs(value - mean) <= spread
        print(f"  arm strain at t = {m['time_' + key]:.3f} s: {value:+.3f} (Hanassy et al. 2015: {mean} +- {spread}: "
              f"{'inside' if inside else 'outside'})")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output_dirs", nargs="+")
    args = parser.parse_args()
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
        if "reaching" in name:
            report_reach(data, points, strain)


if __name__ == "__main__":
    main()
