#!/usr/bin/python3
"""Solver scaling benchmark of hydrostat: a clamped bar under ramped gravity.

Generates benchmarks/clamped_bar.prm at several mesh sizes, runs `hydrostat` on 1 and 2 MPI
ranks under /usr/bin/time -v, and prints (and writes as CSV) per run: DoFs, load steps, Newton
iterations, mean linear iterations per solve, wall time per Newton iteration split into
assembly / preconditioner setup / linear solve, and peak resident memory per rank. Then fits
time per Newton iteration ~ DoFs^p per rank count (least squares in log-log).

Size n means Box subdivisions 5n, n, n (the bar is 5:1:1), i.e. 3 (5n+1)(n+1)^2 DoFs:
n = 8 -> 1.0e4, 18 -> 9.9e4, 26 -> 2.9e5, 40 -> 1.0e6. An explicit "NX,NY,NZ" is accepted too.

Usage (from the repository root; needs numpy from Debian, hence /usr/bin/python3):
  /usr/bin/python3 benchmarks/solver_scaling.py                     # sizes 8 18 26 40, ranks 1 2
  /usr/bin/python3 benchmarks/solver_scaling.py --quick             # the two smallest sizes
  /usr/bin/python3 benchmarks/solver_scaling.py --sizes 8 18 --ranks 1
  /usr/bin/python3 benchmarks/solver_scaling.py --set 'Linear solver/Preconditioner reuse=across steps'   # any parameter
  /usr/bin/python3 benchmarks/solver_scaling.py --from-logs         # re-print from the last logs
"""

import argparse
import csv
import os
import re
import shlex
import shutil
import signal
import sys
from pathlib import Path

import numpy as np

from hydrostat_runs import fmt, fresh_case, parse_log, read_status, run_logged

REPO = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "clamped_bar.prm"
DEFAULT_SIZES = ["8", "18", "26", "40"]
SECTIONS = ["setup", "assembly", "preconditioner setup", "linear solve", "output"]

CPU_RE = re.compile(r"(User|System) time \(seconds\): ([0-9.]+)")
RSS_RE = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")


def subdivisions(size):
    """'8' -> (40, 8, 8); '40,8,8' -> (40, 8, 8)."""
    parts = [int(p) for p in re.split(r"[,x ]+", size.strip()) if p]
    if len(parts) == 1:
        return (5 * parts[0], parts[0], parts[0])
    if len(parts) == 3:
        return tuple(parts)
    raise ValueError(f"size '{size}': give n (for 5n, n, n) or NX,NY,NZ")


def expected_dofs(sub):
    return 3 * (sub[0] + 1) * (sub[1] + 1) * (sub[2] + 1)


def run_name(sub, ranks):
    return f"bar_{sub[0]}x{sub[1]}x{sub[2]}_np{ranks}"


def write_case(run_dir, sub, solver, preconditioner, steps, line_search, bulk_modulus):
    text = TEMPLATE.read_text()
    # The block preconditioner's checkerboard correction needs families of 8 sibling cells: the
    # same mesh as one refinement of half the subdivisions (when they are even).
    refine = preconditioner == "block" and all(n % 2 == 0 for n in sub)
    coarse = [n // 2 for n in sub] if refine else sub
    text = (text.replace("@SUBDIVISIONS@", f"{coarse[0]}, {coarse[1]}, {coarse[2]}")
                .replace("@REFINEMENTS@", "1" if refine else "0")
                .replace("@DIRECTORY@", str(run_dir.resolve()))
                .replace("@SOLVER@", solver)
                .replace("@PRECONDITIONER@", preconditioner)
                .replace("@STEPS@", str(steps))
                .replace("@LINE_SEARCH@", "true" if line_search else "false")
                .replace("@BULK_MODULUS@", f"{bulk_modulus:g}"))
    assert "@" not in text.split("#")[0], "unreplaced placeholder"
    return fresh_case(run_dir, text)


def parse_run(run_dir):
    """Parses log.txt and time.*.txt of one run into a dict (None entries where missing)."""
    result = parse_log(run_dir / "log.txt")
    result["rss_kb"], result["cpu_s"] = [], []
    for f in sorted(run_dir.glob("time.*.txt")):
        text = f.read_text(errors="replace")
        if m := RSS_RE.search(text):
            result["rss_kb"].append(int(m.group(1)))
        result["cpu_s"].append(sum(float(m.group(2)) for m in CPU_RE.finditer(text)))
    result["status"] = read_status(run_dir)[0]
    return result


def row_of(ranks, sub, r):
    # Divide by all linear solves (one per Newton iteration, including iterations of attempts
    # that were cut back and failed solves), since the timers include them all.
    n = len(r["linear"]) + r["failed_solves"]
    per = lambda key: r["timers"].get(key, float("nan")) / n if n else float("nan")
    asm, pre, sol = per("assembly"), per("preconditioner setup"), per("linear solve")
    return {
        "ranks": ranks,
        "subdivisions": f"{sub[0]}x{sub[1]}x{sub[2]}",
        "cells": r["cells"],
        "dofs": r["dofs"],
        "steps": r["steps"],
        "newton_iterations": r["newton"],
        "cut_backs": r["cut_backs"],
        "linear_solves": n,
        "failed_solves": r["failed_solves"],
        "mean_linear_its": float(np.mean(r["linear"])) if r["linear"] else float("nan"),
        "max_linear_its": max(r["linear"]) if r["linear"] else None,
        "assembly_s_per_it": asm,
        "precond_setup_s_per_it": pre,
        "solve_s_per_it": sol,
        "total_s_per_it": asm + pre + sol,
        "setup_s": r["timers"].get("setup", float("nan")),
        "wall_s": r["total_wall"],
        "cpu_s_per_rank_max": max(r["cpu_s"]) if r["cpu_s"] else float("nan"),
        "peak_rss_mib_per_rank": max(r["rss_kb"]) / 1024 if r["rss_kb"] else float("nan"),
        "peak_rss_mib_sum": sum(r["rss_kb"]) / 1024 if r["rss_kb"] else float("nan"),
        "status": r["status"],
    }


def print_table(rows, out=sys.stdout):
    head = (f"{'ranks':>5} {'subdiv':>9} {'DoFs':>9} {'steps':>5} {'Newton':>6} {'solves':>6} {'lin/solve':>9} "
            f"{'asm/it':>8} {'prec/it':>8} {'solve/it':>8} {'total/it':>8} {'setup':>7} {'wall':>7} {'CPU/rk':>7} "
            f"{'RSS/rank':>9} {'status':>8}")
    print(head, file=out)
    print(f"{'':>5} {'':>9} {'':>9} {'':>5} {'its':>6} {'(fail)':>6} {'(max)':>9} {'[s]':>8} {'[s]':>8} {'[s]':>8} "
          f"{'[s]':>8} {'[s]':>7} {'[s]':>7} {'[s]':>7} {'[MiB]':>9}", file=out)
    for r in rows:
        lin = f"{fmt(r['mean_linear_its'], '.1f')} ({fmt(r['max_linear_its'], 'd')})"
        solves = f"{r['linear_solves']}" + (f"({r['failed_solves']})" if r["failed_solves"] else "")
        print(f"{r['ranks']:>5} {r['subdivisions']:>9} {fmt(r['dofs'], 'd'):>9} {r['steps']:>5} "
              f"{r['newton_iterations']:>6} {solves:>6} {lin:>9} {fmt(r['assembly_s_per_it'], '.3f'):>8} "
              f"{fmt(r['precond_setup_s_per_it'], '.3f'):>8} {fmt(r['solve_s_per_it'], '.3f'):>8} "
              f"{fmt(r['total_s_per_it'], '.3f'):>8} {fmt(r['setup_s'], '.1f'):>7} {fmt(r['wall_s'], '.1f'):>7} {fmt(r['cpu_s_per_rank_max'], '.1f'):>7} "
              f"{fmt(r['peak_rss_mib_per_rank'], '.0f'):>9} {r['status']:>8}", file=out)


def fit_exponents(rows, out=sys.stdout):
    """Least squares of log t = p log DoFs + c per rank count; returns {ranks: {quantity: p}}."""
    fits = {}
    for ranks in sorted({r["ranks"] for r in rows}):
        good = [r for r in rows if r["ranks"] == ranks and r["status"] == "ok" and r["dofs"]
                and r["newton_iterations"] > 0]
        if len(good) < 2:
            print(f"ranks {ranks}: fewer than two finished sizes, no fit", file=out)
            continue
        x = np.log([r["dofs"] for r in good])
        fits[ranks] = {}
        parts = []
        for key, label in [("total_s_per_it", "total"), ("assembly_s_per_it", "assembly"),
                           ("precond_setup_s_per_it", "prec. setup"), ("solve_s_per_it", "solve")]:
            p, _ = np.polyfit(x, np.log([r[key] for r in good]), 1)
            fits[ranks][key] = p
            parts.append(f"{label} p = {p:.2f}")
        # Exponent of the linear iteration count, to separate AMG growth from work per iteration.
        q, _ = np.polyfit(x, np.log([r["mean_linear_its"] for r in good]), 1)
        fits[ranks]["mean_linear_its"] = q
        print(f"ranks {ranks} ({len(good)} sizes, {good[0]['dofs']}..{good[-1]['dofs']} DoFs): time per Newton "
              f"iteration ~ DoFs^p: " + ", ".join(parts) + f"; linear its ~ DoFs^{q:.2f}", file=out)
    return fits


def run_one(args, sub, ranks, run_dir):
    case = write_case(run_dir, sub, args.solver, args.preconditioner, args.steps, args.line_search, args.bulk_modulus)
    # One /usr/bin/time per rank, writing to time.<rank>.txt (Open MPI sets OMPI_COMM_WORLD_RANK).
    settings = "".join(f" --set {shlex.quote(s)}" for s in args.set)
    timed = ["sh", "-c", f'exec /usr/bin/time -v -o "{run_dir}/time.${{OMPI_COMM_WORLD_RANK:-0}}.txt" '
                         f'"{args.hydrostat}" "{case}"{settings}']
    cmd = ["nice", "-n", str(args.nice)]
    if ranks > 1 or args.always_mpirun:
        cmd += ["mpirun", "-np", str(ranks), "--bind-to", "none"]
    cmd += timed
    return run_logged(cmd, run_dir, args.timeout, REPO)


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("solver_scaling: terminated"))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", default=DEFAULT_SIZES,
                        help="mesh sizes: n for Box subdivisions 5n,n,n, or NX,NY,NZ (default: 8 18 26 40)")
    parser.add_argument("--ranks", nargs="+", type=int, default=[1, 2], help="MPI rank counts (default: 1 2)")
    parser.add_argument("--quick", action="store_true", help="only the two smallest sizes (smoke run)")
    parser.add_argument("--hydrostat", default=str(REPO / "build" / "hydrostat"), help="executable")
    parser.add_argument("--output", default=str(REPO / "output" / "benchmarks"), help="output directory")
    parser.add_argument("--timeout", type=float, default=1200, help="seconds per run before it is killed")
    parser.add_argument("--steps", type=int, default=3, help="load steps of the gravity ramp (default 3)")
    parser.add_argument("--solver", default="GMRES", choices=["GMRES", "CG", "direct"],
                        help="Linear solver/Solver type (default GMRES: the scaling of the iterative solver; the code's own default, auto, picks direct up to 2e5 DoFs)")
    parser.add_argument("--preconditioner", default="AMG", choices=["AMG", "block"],
                        help="Linear solver/Preconditioner (default AMG on the condensed tangent; the code's default is block for the three-field element)")
    parser.add_argument("--bulk-modulus", type=float, default=2e8,
                        help="K [Pa] (mu = 2e5 Pa): default 2e8, K/mu = 1000; 2e7 gives K/mu = 100")
    parser.add_argument("--line-search", action="store_true",
                        help="turn Newton/Line search on (off in the benchmark; see clamped_bar.prm)")
    parser.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                        help="passed to hydrostat's --set, e.g. 'Linear solver/Preconditioner reuse=across steps' (repeatable)")
    parser.add_argument("--nice", type=int, default=10, help="niceness of the runs (default 10)")
    parser.add_argument("--always-mpirun", action="store_true", help="start 1-rank runs through mpirun too")
    parser.add_argument("--from-logs", action="store_true",
                        help="do not run; re-parse the logs of a previous run in the output directory")
    args = parser.parse_args()

    subs = sorted({subdivisions(s) for s in args.sizes}, key=expected_dofs)
    if args.quick:
        subs = subs[:2]
    args.hydrostat = str(Path(args.hydrostat).resolve())
    out_dir = Path(args.output).resolve()
    runs_dir = out_dir / "runs"
    if not args.from_logs:
        if not os.access(args.hydrostat, os.X_OK):
            sys.exit(f"solver_scaling: '{args.hydrostat}' is not an executable (build it or pass --hydrostat)")
        if not os.access("/usr/bin/time", os.X_OK):
            sys.exit("solver_scaling: /usr/bin/time is missing (Debian: apt-get install -y time)")
        if any(r > 1 for r in args.ranks) and shutil.which("mpirun") is None:
            sys.exit("solver_scaling: mpirun not found")
        runs_dir.mkdir(parents=True, exist_ok=True)

    rows = []
    stopped = {}  # ranks -> size at which a run failed or timed out; larger sizes are skipped
    for sub in subs:
        for ranks in args.ranks:
            run_dir = runs_dir / run_name(sub, ranks)
            if not args.from_logs:
                if ranks in stopped:
                    print(f"[skip] {run_name(sub, ranks)}: a smaller size ({stopped[ranks]}) did not finish",
                          flush=True)
                    continue
                print(f"[run ] {run_name(sub, ranks)}: ~{expected_dofs(sub)} DoFs on {ranks} rank(s), "
                      f"timeout {args.timeout:.0f} s ...", flush=True)
                status, elapsed = run_one(args, sub, ranks, run_dir)
                parsed = parse_run(run_dir)
                print(f"[done] {run_name(sub, ranks)}: {status} after {elapsed:.1f} s, {parsed['steps']} steps, "
                      f"{parsed['newton']} Newton its, linear its {parsed['linear']}", flush=True)
                if status != "ok":
                    stopped[ranks] = "x".join(map(str, sub))
                    tail = (run_dir / "log.txt").read_text(errors="replace").splitlines()[-5:]
                    print("       last lines: " + "\n       ".join(tail), flush=True)
            elif not run_dir.exists():
                continue
            rows.append(row_of(ranks, sub, parse_run(run_dir)))

    rows.sort(key=lambda r: (r["ranks"], r["dofs"] or 0))
    if not rows:
        sys.exit("solver_scaling: no runs")
    print()
    print(f"Clamped bar under ramped gravity, three-field Q1, K/mu = {args.bulk_modulus / 2e5:g}, {args.solver} + {args.preconditioner}; times are wall times per "
          f"Newton iteration (= per linear solve, cut-back attempts and failed solves included; assembly includes the convergence-check and line-search "
          f"residual assemblies); wall = TimerOutput total; CPU/rk = user+sys seconds of the busiest rank; "
          f"RSS/rank = the largest peak resident set of the ranks.")
    print_table(rows)
    print()
    fits = fit_exponents(rows)

    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / "solver_scaling.csv"
    with open(csv_path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        writer.writeheader()
        writer.writerows(rows)
    with open(out_dir / "solver_scaling_fit.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["ranks", "quantity", "exponent_p"])
        for ranks, d in fits.items():
            for key, p in d.items():
                writer.writerow([ranks, key, f"{p:.4f}"])
    print(f"\nCSV: {csv_path}")


if __name__ == "__main__":
    main()
