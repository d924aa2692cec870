#!/usr/bin/python3
"""Locking study of hydrostat (issue 3): does the three-field element remove volumetric locking?

1. Indentation (deal.II step-44 / Reese, Wriggers & Reddy 2000): parameters/indentation/
   three_field_q1.prm, three_field_q2.prm, displacement_q1.prm at refinements r (2^r cells per
   edge of the 1 mm cube, step-44's "Global refinement" r) and pressure ratios p/p0. Reports the
   vertical displacement uy of the top-face centre (CSV column p0_uy of the last step), the
   volume change (CSV column `volume`, last row vs the first) and, per run, DoFs, Newton
   iterations, linear (GMRES/CG + AMG) iterations per solve and wall time per Newton iteration.
2. Bending: parameters/indentation/cantilever_plane_strain.prm (nearly incompressible
   plane-strain cantilever, end shear) with meshes 5n x 1 x n, three-field Q1 and displacement Q1
   (and three-field Q2). Reports the tip deflection and the observed order of convergence from
   successive differences, p = log2(|u_h - u_h/2| / |u_h/2 - u_h/4|), with a Richardson estimate.

Every run lives in DIR/runs/<name>/ (case.prm, log.txt, <base>.csv, status.txt); the tables are
printed and written to DIR/locking_study.txt. A run that fails or times out skips the finer
meshes of that element. --from-logs re-prints the tables from existing run directories.

Usage (from anywhere; needs numpy from Debian, hence /usr/bin/python3):
  /usr/bin/python3 benchmarks/locking_study.py --hydrostat build-lock/hydrostat
  /usr/bin/python3 benchmarks/locking_study.py --quick                 # r = 1..3, Q2 1..2, n = 1..8
  /usr/bin/python3 benchmarks/locking_study.py --only bending --bending-sizes 1 2 4 8 16 32
  /usr/bin/python3 benchmarks/locking_study.py --from-logs
"""

import argparse
import csv
import math
import re
import signal
import sys
from pathlib import Path

import numpy as np

from hydrostat_runs import fresh_case, parse_log, read_status, run_logged

REPO = Path(__file__).resolve().parent.parent
CASES = REPO / "parameters" / "indentation"
ELEMENTS = {  # name -> (case file, label)
    "tf_q1": ("three_field_q1.prm", "three-field Q1"),
    "tf_q2": ("three_field_q2.prm", "three-field Q2"),
    "disp_q1": ("displacement_q1.prm", "displacement Q1"),
}
BENDING = {  # name -> (formulation, degree, label)
    "tf_q1": ("three-field", 1, "three-field Q1"),
    "tf_q2": ("three-field", 2, "three-field Q2"),
    "disp_q1": ("displacement", 1, "displacement Q1"),
}



# ----------------------------------------------------------------------------- case files

def set_line(text, key, value):
    """Replaces the value of the first `set <key> = ...` line (keeping the comment)."""
    pattern = re.compile(r"^(\s*set\s+" + re.escape(key) + r"\s*=\s*)([^#\n]*?)(\s*(#.*)?)$", re.M)
    new, n = pattern.subn(lambda m: m.group(1) + value + m.group(3), text, count=1)
    assert n == 1, f"no 'set {key}' line"
    return new


def common(text, args):
    """Linear solver and, for the AMG study, only the first load step."""
    options = [("Solver type", None if args.solver == "default" else args.solver),
               ("Preconditioner", args.preconditioner),
               ("AMG smoother type", args.amg_smoother),
               ("AMG W-cycle", "true" if args.amg_w_cycle else None),
               ("AMG smoother sweeps", args.amg_sweeps),
               ("AMG aggregation threshold", None if args.amg_threshold is None else f"{args.amg_threshold:g}"),
               ("Checkerboard correction", "false" if args.no_checkerboard else None)]
    solver = [f"  set {entry} = {value}" for entry, value in options if value is not None]
    if solver:
        text = text.replace("subsection Output", "subsection Linear solver\n" + "\n".join(solver) + "\nend\n"
                                                 "subsection Output", 1)
    if args.first_step:
        text = set_line(text, "End time", set_value(text, "Time step"))
    return text


def set_value(text, key):
    return re.search(r"^\s*set\s+" + re.escape(key) + r"\s*=\s*([^#\n]*?)\s*(#.*)?$", text, re.M).group(1)


def indentation_case(element, r, ratio, run_dir, args):
    text = common((CASES / ELEMENTS[element][0]).read_text(), args)
    n = 2 ** r
    if args.preconditioner == "block" and r >= 1:
        # The same mesh as one refinement of 2^(r-1) cells per edge, so that it has families of 8
        # sibling cells for the checkerboard correction of the Q1-P0 pressure Schur complement.
        text = set_line(text, "Box subdivisions", f"{n // 2}, {n // 2}, {n // 2}")
        text = text.replace("subsection Mesh\n", "subsection Mesh\n  set Global refinements = 1\n", 1)
    else:
        text = set_line(text, "Box subdivisions", f"{n}, {n}, {n}")
    text, k = re.subn(r"-4e6 \* \d+(\.\d*)? \* t", f"-4e6 * {ratio:g} * t", text)
    assert k == 1, "pressure expression not found"
    text = set_line(text, "Directory", str(run_dir.resolve()))
    return text


def bending_case(element, n, run_dir, args):
    text = common((CASES / "cantilever_plane_strain.prm").read_text(), args)
    formulation, degree, _ = BENDING[element]
    text = set_line(text, "Box subdivisions", f"{5 * n}, 1, {n}")
    text = set_line(text, "Formulation", formulation)
    text = set_line(text, "Polynomial degree", str(degree))
    text = set_line(text, "Directory", str(run_dir.resolve()))
    return text


# ----------------------------------------------------------------------------- running

def run_one(args, text, run_dir):
    case = fresh_case(run_dir, text)
    cmd = ["nice", "-n", str(args.nice)]
    if args.ranks > 1:
        cmd += ["mpirun", "-np", str(args.ranks), "--bind-to", "none", "--oversubscribe"]
    cmd += [str(Path(args.hydrostat).resolve()), str(case)]
    status, _ = run_logged(cmd, run_dir, args.timeout, REPO)
    return status


def parse_run(run_dir, probe_column):
    """Everything the tables need from one run directory (None where missing)."""
    res = dict(status="missing", dofs=None, cells=None, steps=0, newton=0, solves=0, lin=[],
               cutbacks=0, linfail=0, u=None, dvol=None, t_end=None, per_it=None, wall=None,
               asm=None, prec=None, solve=None)
    if not (run_dir / "status.txt").exists():
        return res
    res["status"], res["wall"] = read_status(run_dir)
    log = parse_log(run_dir / "log.txt")
    res.update(dofs=log["dofs"], cells=log["cells"], steps=log["steps"], newton=log["newton"],
               solves=len(log["linear"]), lin=log["linear"], cutbacks=log["cut_backs"],
               linfail=log["failed_solves"])
    csv_files = [p for p in run_dir.glob("*.csv")]
    if csv_files:
        with open(csv_files[0]) as f:
            rows = list(csv.DictReader(f))
        if len(rows) >= 2:
            first, last = rows[0], rows[-1]
            res["t_end"] = float(last["time"])
            res["u"] = float(last[probe_column])
            v0 = float(first["volume"])
            res["dvol"] = (float(last["volume"]) - v0) / v0
    solves = res["solves"] + res["linfail"]
    sections, total = log["timers"], log["total_wall"]
    if solves and total is not None:
        res["per_it"] = (total - sections.get("setup", 0.0) - sections.get("output", 0.0)) / solves
        for key, name in (("asm", "assembly"), ("prec", "preconditioner setup"), ("solve", "linear solve")):
            if name in sections:
                res[key] = sections[name] / solves
    return res


# ----------------------------------------------------------------------------- tables

def fmt(x, spec, width):
    return f"{x:{spec}}".rjust(width) if x is not None else f"{'-':>{width}}"


def order_rows(values):
    """values: list of (h_label, u). Returns per entry (difference to previous, order p, Richardson)."""
    out = []
    for i, (_, u) in enumerate(values):
        d = p = rich = None
        if i >= 1 and u is not None and values[i - 1][1] is not None:
            d = u - values[i - 1][1]
        if i >= 2 and None not in (u, values[i - 1][1], values[i - 2][1]):
            d1 = values[i - 1][1] - values[i - 2][1]
            d2 = u - values[i - 1][1]
            if d1 != 0 and d2 != 0:
                p = math.log2(abs(d1) / abs(d2))
                rich = u + d2 / (2 ** p - 1) if p > 0 else None
        out.append((d, p, rich))
    return out


def indentation_tables(args, out):
    elements = [e for e in ("tf_q1", "tf_q2", "disp_q1")]
    refinements = sorted(set(args.refinements) | set(args.q2_refinements))
    solver_rows = []
    for ratio in args.ratios:
        res = {}
        for e in elements:
            for r in refinements:
                res[e, r] = parse_run(args.output / "runs" / f"indent_{e}_r{r}_p{ratio:g}", "p0_uy")
        print(f"\nIndentation, p/p0 = {ratio:g}: vertical displacement uy of the top-face centre [mm] "
              f"(volume change (v - V0)/V0 [%])", file=out)
        header = f"{'r':>2} {'cells/edge':>10} |" + "".join(f" {ELEMENTS[e][1]:>26} |" for e in elements)
        print(header, file=out)
        for r in refinements:
            cells = [f" {fmt(res[e, r]['u'] * 1e3 if res[e, r]['u'] is not None and res[e, r]['status'] == 'ok' else None, '.5f', 9)}"
                     f" ({fmt(res[e, r]['dvol'] * 100 if res[e, r]['dvol'] is not None and res[e, r]['status'] == 'ok' else None, '+.2e', 9)})"
                     f"{'' if res[e, r]['status'] in ('ok', 'missing') else ' ' + res[e, r]['status'][:3]:4} |"
                     for e in elements]
            print(f"{r:>2} {2 ** r:>10} |" + "".join(cells), file=out)
        # Successive differences (observed order) of the converging elements.
        for e in ("tf_q1", "tf_q2"):
            values = [(r, res[e, r]["u"] if res[e, r]["status"] == "ok" else None) for r in refinements]
            orders = order_rows(values)
            text = ", ".join(f"r={r}: p={p:.2f}" for (r, _), (_, p, _) in zip(values, orders) if p is not None)
            if text:
                print(f"  {ELEMENTS[e][1]}: observed order from successive differences: {text}", file=out)
        for e in elements:
            for r in refinements:
                if res[e, r]["status"] != "missing":
                    solver_rows.append((ratio, e, r, res[e, r]))
    print("\nIndentation solver cost per run (Newton its and linear solves summed over the load steps; "
          "lin/solve = mean (max) Krylov iterations per solve; time/it = wall per linear solve "
          "(assembly + AMG setup + solve) [s])", file=out)
    print(f"{'p/p0':>5} {'element':>16} {'r':>2} {'DoFs':>8} {'steps':>5} {'cut':>4} {'Newton':>6} {'solves':>6} "
          f"{'lin/solve':>12} {'asm/it':>8} {'prec/it':>8} {'solve/it':>8} {'time/it':>8} {'wall':>7}  status",
          file=out)
    for ratio, e, r, s in solver_rows:
        lin = f"{np.mean(s['lin']):.1f} ({max(s['lin'])})" if s["lin"] else "-"
        print(f"{ratio:>5g} {ELEMENTS[e][1]:>16} {r:>2} {fmt(s['dofs'], 'd', 8)} {s['steps']:>5} {s['cutbacks']:>4} "
              f"{s['newton']:>6} {s['solves']:>6} {lin:>12} {fmt(s['asm'], '.3f', 8)} {fmt(s['prec'], '.3f', 8)} "
              f"{fmt(s['solve'], '.3f', 8)} {fmt(s['per_it'], '.3f', 8)} {fmt(s['wall'], '.1f', 7)}  {s['status']}"
              + (f" (t = {s['t_end']:g})" if s["status"] != "ok" and s["t_end"] is not None else ""), file=out)


def bending_tables(args, out):
    print("\nBending: plane-strain cantilever (nu = 0.4999), tip deflection uz at (50, 0, 5) mm [mm]; "
          "mesh 5n x 1 x n; d = u_h - u_2h, p = log2(|d_2h| / |d_h|), Richardson u_h + d_h / (2^p - 1)",
          file=out)
    for e in args.bending_elements:
        values, status, dofs, lin = [], [], [], []
        for n in args.bending_sizes:
            s = parse_run(args.output / "runs" / f"bend_{e}_n{n}", "p0_uz")
            values.append((n, s["u"] if s["status"] == "ok" else None))
            status.append(s["status"])
            dofs.append(s["dofs"])
            lin.append(f"{np.mean(s['lin']):.1f}" if s["lin"] else "-")
        if all(st == "missing" for st in status):
            continue
        print(f"  {BENDING[e][2]}", file=out)
        print(f"  {'n':>4} {'DoFs':>7} {'u_tip [mm]':>12} {'d [mm]':>11} {'p':>6} {'Richardson':>11} {'lin/solve':>9}  status",
              file=out)
        for (n, u), (d, p, rich), st, nd, li in zip(values, order_rows(values), status, dofs, lin):
            print(f"  {n:>4} {fmt(nd, 'd', 7)} {fmt(u * 1e3 if u is not None else None, '.6f', 12)} "
                  f"{fmt(d * 1e3 if d is not None else None, '+.2e', 11)} {fmt(p, '.2f', 6)} "
                  f"{fmt(rich * 1e3 if rich is not None else None, '.5f', 11)} {li:>9}  {st}", file=out)


# ----------------------------------------------------------------------------- main

def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("locking_study: terminated"))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hydrostat", default=str(REPO / "build" / "hydrostat"), help="the executable")
    parser.add_argument("--output", type=Path, default=REPO / "output" / "locking_study", help="run directory")
    parser.add_argument("--refinements", type=int, nargs="+", default=[1, 2, 3, 4],
                        help="r for three-field Q1 and displacement Q1 (2^r cells per edge)")
    parser.add_argument("--q2-refinements", type=int, nargs="+", default=[1, 2, 3], help="r for three-field Q2")
    parser.add_argument("--ratios", type=float, nargs="+", default=[80, 100], help="p/p0 (p0 = 4 MPa)")
    parser.add_argument("--bending-sizes", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32],
                        help="n for the 5n x 1 x n cantilever meshes")
    parser.add_argument("--bending-elements", nargs="+", default=["tf_q1", "disp_q1", "tf_q2"],
                        choices=list(BENDING))
    parser.add_argument("--only", choices=["indentation", "bending"], help="run one study only")
    parser.add_argument("--elements", nargs="+", default=["tf_q1", "disp_q1", "tf_q2"], choices=list(ELEMENTS),
                        help="indentation elements to run")
    parser.add_argument("--quick", action="store_true", help="r = 1..3, Q2 r = 1..2, n = 1..8, p/p0 = 80")
    parser.add_argument("--ranks", type=int, default=1, help="MPI ranks per run (default 1)")
    parser.add_argument("--timeout", type=float, default=1800, help="seconds per run (default 1800)")
    parser.add_argument("--nice", type=int, default=10, help="niceness of the runs (default 10)")
    parser.add_argument("--solver", default="default", choices=["default", "GMRES", "CG", "direct"],
                        help="Linear solver/Solver type (default: the case files', i.e. GMRES + AMG)")
    parser.add_argument("--preconditioner", choices=["AMG", "block"], default="AMG",
                        help="Linear solver/Preconditioner (default AMG on the condensed tangent; block: three-field only)")
    parser.add_argument("--amg-smoother", choices=["Chebyshev", "symmetric Gauss-Seidel"],
                        help="Linear solver/AMG smoother type (default: the code's, Chebyshev)")
    parser.add_argument("--amg-w-cycle", action="store_true", help="Linear solver/AMG W-cycle = true")
    parser.add_argument("--amg-sweeps", type=int,
                        help="Linear solver/AMG smoother sweeps (default: the code's auto, 1 in the block "
                             "preconditioner, 2 for AMG on the condensed tangent)")
    parser.add_argument("--amg-threshold", type=float,
                        help="Linear solver/AMG aggregation threshold (default: the code's, 1e-4)")
    parser.add_argument("--no-checkerboard", action="store_true",
                        help="Linear solver/Checkerboard correction = false (block preconditioner, Q1)")
    parser.add_argument("--first-step", action="store_true",
                        help="run the first load step only (End time = Time step): the AMG iteration study")
    parser.add_argument("--from-logs", action="store_true", help="only print the tables from existing runs")
    args = parser.parse_args()
    if args.quick:
        args.refinements, args.q2_refinements, args.bending_sizes, args.ratios = [1, 2, 3], [1, 2], [1, 2, 4, 8], [80]
    args.output = args.output.resolve()

    if not args.from_logs:
        if not Path(args.hydrostat).exists():
            sys.exit(f"locking_study: {args.hydrostat} not found (build it, or pass --hydrostat)")
        if args.only in (None, "indentation"):
            for ratio in args.ratios:
                for e in args.elements:
                    for r in (args.q2_refinements if e == "tf_q2" else args.refinements):
                        run_dir = args.output / "runs" / f"indent_{e}_r{r}_p{ratio:g}"
                        status = run_one(args, indentation_case(e, r, ratio, run_dir, args), run_dir)
                        print(f"indentation {e} r={r} p/p0={ratio:g}: {status}", flush=True)
                        if status != "ok":
                            break
        if args.only in (None, "bending"):
            for e in args.bending_elements:
                for n in args.bending_sizes:
                    if e == "tf_q2" and n > max(args.bending_sizes) // 2:
                        continue  # Q2 on 5n x n has the DoFs of Q1 on 10n x 2n
                    run_dir = args.output / "runs" / f"bend_{e}_n{n}"
                    status = run_one(args, bending_case(e, n, run_dir, args), run_dir)
                    print(f"bending {e} n={n}: {status}", flush=True)
                    if status != "ok":
                        break

    args.output.mkdir(parents=True, exist_ok=True)
    with open(args.output / "locking_study.txt", "w") as report:
        for out in (sys.stdout, report):
            if args.only in (None, "indentation"):
                indentation_tables(args, out)
            if args.only in (None, "bending"):
                bending_tables(args, out)


if __name__ == "__main__":
    main()
