#!/usr/bin/python3
"""Squid strike (parameters/squid_extension.prm): mesh convergence and sensitivity of the measured
quantities to the connective-tissue constant c1 and to the activation rise time ta (issue 5).

Each variant is the shipped case file with --set overrides (K = 1000 mu kept in every run, i.e.
Bulk modulus = 2000 c1), run through postprocess/sweep.py (--jobs at a time) and measured with
postprocess/squid_metrics.py (times from the onset of motion). Prints one table and writes it to
DIR/squid_sensitivity.txt (and sweep's own table to DIR/sweep.csv); runs live in DIR/<variant>/.

Usage (from the repository root; needs numpy from Debian, hence /usr/bin/python3):
  /usr/bin/python3 benchmarks/squid_sensitivity.py                 # mesh 12/24 axial, c1 1/2/4 kPa, ta 30/40/50 ms
  /usr/bin/python3 benchmarks/squid_sensitivity.py --only mesh --fine   # adds 24 axial x 48 cells per section
"""
import argparse
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "postprocess"))
import squid_metrics  # noqa: E402
import sweep  # noqa: E402

COLUMNS = [("peak stalk strain", "strain", 100, "%"), ("time to peak strain [s]", "t_peak", 1e3, "ms"),
           ("peak tip speed [m/s]", "speed", 1, "m/s"), ("peak tip acceleration [m/s^2]", "accel", 1, "m/s2"),
           ("peak stalk strain rate [1/s]", "rate", 1, "1/s")]


def overrides(axial, cross, c1, rise_time):
    return [("Mesh/Axial subdivisions", str(axial)), ("Mesh/Cross-section refinements", str(cross)),
            ("Materials/Material 0/c1", f"{c1:g}"), ("Materials/Material 0/Bulk modulus", f"{2000 * c1:g}"),
            ("Muscles/Group 1/Activation/Rise time", f"{rise_time:g}"), ("Output/ParaView", "false")]


def squid(run_dir):
    values, _ = squid_metrics.metrics(squid_metrics.load(str(run_dir / "squid.csv")), 0.05314)
    return {key: values[name] * scale for name, key, scale, _ in COLUMNS}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hydrostat", default=str(REPO / "build" / "hydrostat"))
    parser.add_argument("--output", type=Path, default=REPO / "output" / "squid_sensitivity")
    parser.add_argument("--axial", type=int, nargs="+", default=[12, 24], help="axial cells for the mesh series")
    parser.add_argument("--fine", action="store_true",
                        help="add 24 axial cells x 2 cross-section refinements (48 cells per quadrant section)")
    parser.add_argument("--sensitivity-axial", type=int, default=12, help="axial cells of the c1 / ta variants")
    parser.add_argument("--only", choices=["mesh", "sensitivity"])
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds per run before it is stopped")
    args = parser.parse_args()
    if not Path(args.hydrostat).exists():
        sys.exit(f"squid_sensitivity: {args.hydrostat} not found (build it, or pass --hydrostat)")

    variants = []  # (label, axial, cross-section refinements, c1 [Pa], ta [s])
    if args.only in (None, "mesh"):
        variants += [(f"mesh {n} axial", n, 1, 2e3, 0.04) for n in args.axial]
        if args.fine:
            variants.append(("mesh 24 axial cross2", 24, 2, 2e3, 0.04))
    if args.only in (None, "sensitivity"):
        n = args.sensitivity_axial
        variants += [(f"c1 = {c1 / 1e3:g} kPa", n, 1, c1, 0.04) for c1 in (1e3, 4e3)]
        variants += [(f"ta = {ta * 1e3:g} ms", n, 1, 2e3, ta) for ta in (0.03, 0.05)]

    options = argparse.Namespace(output=args.output, np=1, hydrostat=args.hydrostat, fixed=[], column=[],
                                 metrics=squid, jobs=args.jobs,
                                 timeout=args.timeout)
    points = [(label.replace(" ", "_").replace("=", "").replace("__", "_"), overrides(axial, cross, c1, ta))
              for label, axial, cross, c1, ta in variants]
    rows, elapsed = sweep.run_sweep(REPO / "parameters" / "squid_extension.prm", points, options)
    sweep.write_table(rows, args.output / "sweep.csv")

    header = f"{'variant':20s} {'axial':>5s} {'cells/section':>13s} {'c1 [kPa]':>8s} {'ta [ms]':>7s} " + " ".join(
        f"{name + ' [' + unit + ']':>14s}" for name, _, _, unit in COLUMNS) + f" {'wall [s]':>9s}"
    lines = [header]
    for (label, axial, cross, c1, ta), row in zip(variants, rows):
        line = f"{label:20s} {axial:5d} {3 * 4 ** cross:13d} {c1 / 1e3:8g} {ta * 1e3:7g} "
        if row["status"] != "ok":
            line += f" {row['status']}"
        else:
            line += " ".join(f"{row[key]:14.3g}" for _, key, _, _ in COLUMNS) + f" {row['wall_s']:9.0f}"
        lines.append(line)
    lines.append("measured (Kier & Van Leeuwen 1997): strain 43-80 %, extension 20-40 ms, speed > 2 m/s, "
                 "acceleration ~250 m/s2, strain rate 23-45 1/s")
    lines.append(f"{len(rows)} runs, {args.jobs} at a time, in {elapsed:.0f} s")
    (args.output / "squid_sensitivity.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
