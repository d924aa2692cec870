#!/usr/bin/python3
"""Octopus reaching to targets across the workspace by inverse activation (issue 28).

parameters/octopus_reach_inverse.prm (the five groups of the arm chosen in every step) once per
target: the tip's target is the tip of the arm bent into a circular arc of its length L = 0.1 m by
the angle theta towards the azimuth phi (phi = 0 towards +x, 90° towards +y, the dorsal side),
    lateral = L (1 - cos theta) / theta,   axial = L sin theta / theta,
reached along the case's cycloidal ramp in 0.5 s and held to 0.6 s. 20 targets: theta = 30°, 60°,
90°, 120° and phi = 0°, 72°, 144°, 216°, 288° (the four bundles at 0°, 90°, 180°, 270°, so most
targets need two of them). Runs go through postprocess/sweep.py (--jobs at a time, one rank each)
into DIR/<target>/; prints per target the tip's final error, its largest error along the path and
the peak activation of each group, then the median final error against the arm length (the
rod-model controllers reach < 1 % of it), and writes the table to DIR/reach_targets.txt.

Usage (from the repository root; Debian's /usr/bin/python3):
  /usr/bin/python3 benchmarks/reach_targets.py --jobs 2
"""
import argparse
import csv
import math
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "postprocess"))
import sweep  # noqa: E402

L = 0.1
RAMP = "(t < 0.5 ? t / 0.5 - sin(2 * pi * t / 0.5) / (2 * pi) : 1)"


def target(theta_deg, phi_deg):
    """Tip displacement [m] of the arm bent into an arc by theta towards phi."""
    theta, phi = math.radians(theta_deg), math.radians(phi_deg)
    lateral, axial = L * (1 - math.cos(theta)) / theta, L * math.sin(theta) / theta
    return lateral * math.cos(phi), lateral * math.sin(phi), axial - L


def inverse_rows(run_dir):
    with open(run_dir / "octopus_inverse.csv") as f:
        return list(csv.DictReader(f))


def reach(run_dir):
    rows = inverse_rows(run_dir)
    groups = [c for c in rows[0] if c not in ("time", "updates") and not c.startswith("error_")]
    result = {"final_error": float(rows[-1]["error_0"]), "largest_error": max(float(r["error_0"]) for r in rows)}
    result.update({"peak_" + g: max(float(r[g]) for r in rows) for g in groups})
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hydrostat", default=str(REPO / "build" / "hydrostat"))
    parser.add_argument("--output", type=Path, default=REPO / "output" / "reach_targets")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per run before it is stopped")
    args = parser.parse_args()
    if not Path(args.hydrostat).exists():
        sys.exit(f"reach_targets: {args.hydrostat} not found (build it, or pass --hydrostat)")

    targets = [(theta, phi) for theta in (30, 60, 90, 120) for phi in (0, 72, 144, 216, 288)]
    points = []
    for theta, phi in targets:
        u = target(theta, phi)
        path = "; ".join(f"{c:.6g} * {RAMP}" for c in u)
        points.append((f"theta{theta}_phi{phi}", [("Inverse/Target displacements", path),
                                                  ("Time stepping/End time", "0.6"), ("Output/ParaView", "false")]))
    options = argparse.Namespace(output=args.output, np=1, hydrostat=args.hydrostat, fixed=[], column=[],
                                 metrics=reach, jobs=args.jobs, timeout=args.timeout)
    rows, elapsed = sweep.run_sweep(REPO / "parameters" / "octopus_reach_inverse.prm", points, options)

    names = ["dorsal", "ventral", "left", "right", "transverse"]
    lines = [f"{'theta':>5s} {'phi':>4s} {'target [mm]':>24s} {'final error [m]':>15s} {'largest [m]':>11s} " +
             " ".join(f"{n:>10s}" for n in names) + f" {'wall [s]':>8s}"]
    finals = []
    for (theta, phi), row in zip(targets, rows):
        u = ", ".join(f"{1e3 * c:6.1f}" for c in target(theta, phi))
        line = f"{theta:5d} {phi:4d} {u:>24s} "
        if row["status"] != "ok":
            try:  # a run that stopped: how far it got and how far off
                partial = inverse_rows(args.output / row["run"])
                line += f"stopped at t = {float(partial[-1]['time']):.3f} s, error {float(partial[-1]['error_0']):.2e} m"
            except (OSError, KeyError, IndexError):
                line += row["status"]
            finals.append(math.inf)
        else:
            peaks = [row[k] for k in row if k.startswith("peak_")]
            line += f"{row['final_error']:15.2e} {row['largest_error']:11.2e} " + " ".join(
                f"{p:10.4f}" for p in peaks) + f" {row['wall_s']:8.0f}"
            finals.append(row["final_error"])
        lines.append(line)
    median = statistics.median(finals)
    lines.append(f"median final tip error {median:.2e} m = {100 * median / L:.2g} % of the arm length; "
                 f"{sum(f == math.inf for f in finals)} of {len(targets)} runs stopped; "
                 f"{len(rows)} runs, {args.jobs} at a time, in {elapsed:.0f} s")
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "reach_targets.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
