#!/usr/bin/python3
"""What self-contact costs: the main case and the anatomical arm with and without self-contact,
back to back, the issue's target being at most twice the wall time and twice the Newton
iterations per step of the run without it (theory.md §15.5).

The two runs of a pair alternate, --repeat times, so that a machine whose speed drifts (the
shared 2-core machine's wall times varied by a third within an hour) slows both alike; the wall
ratio is the median of the pairs' ratios. Each run is on --ranks ranks with ParaView output off
and Newton/Verbose = true, in OUT/<case>-<variant>-<n>/ (log.txt, status.txt, run.json), so that
the Newton iterations split into the first solve of each step attempt and the solves again after
an augmentation or partner change; the timers give the time in factorisations, assemblies and
the contact couplings (search, normals, partners).

Usage (from anywhere):
  python3 benchmarks/contact_cost.py --hydrostat build/hydrostat
  python3 benchmarks/contact_cost.py --cases anatomical --repeat 3
  python3 benchmarks/contact_cost.py --from-logs
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

from hydrostat_runs import NEWTON_RE, STEP_RE, fmt, parse_log, read_status, run_logged

REPO = Path(__file__).resolve().parent.parent
# case -> variant -> case file.
CASES = {
    "main": {"with": "octopus_bending.prm", "without": "octopus_bending_without_self_contact.prm"},
    "anatomical": {"with": "octopus_anatomical_self_contact.prm", "without": "octopus_anatomical.prm"},
}
VARIANTS = ("with", "without")


def solves_per_attempt(log_text):
    """(iterations of the first solve of each step attempt, number and iterations of the solves
    again after an augmentation) from the verbose Newton lines: a solve starts at 'Newton 0', an
    attempt ends at a step line or a cut-back."""
    first = again = solves_again = 0
    in_attempt = 0  # solves so far in this attempt
    for line in log_text.splitlines():
        if m := NEWTON_RE.match(line):
            if m.group(1) == "0":
                in_attempt += 1
                if in_attempt > 1:
                    solves_again += 1
            if in_attempt == 1:
                first += 1
            else:
                again += 1
        elif STEP_RE.match(line) or "step cut back" in line:
            in_attempt = 0
    return first, solves_again, again


def run_once(args, case, variant, n):
    """Runs one variant of one case into OUT/<case>-<variant>-<n>/ unless --from-logs."""
    run_dir = args.out / f"{case}-{variant}-{n}"
    if args.from_logs:
        return run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    for stale in ("run.json", "status.txt"):
        (run_dir / stale).unlink(missing_ok=True)
    case_file = CASES[case][variant]
    cmd = ["mpirun", "-np", str(args.ranks), str(args.hydrostat.resolve()), str(REPO / "parameters" / case_file)]
    for setting in ["Output/ParaView=false", "Newton/Verbose=true", f"Output/Directory={run_dir}"]:
        cmd += ["--set", setting]
    status, wall = run_logged(cmd, run_dir, args.timeout, REPO)
    print(f"{case:11s} {variant:8s} #{n}: {status}, {wall:.1f} s", flush=True)
    return run_dir


def summary(run_dir):
    """The counts of one run, or None if it did not finish."""
    status, wall = read_status(run_dir)
    if status != "ok" or not (run_dir / "run.json").exists():
        return None
    counts = json.loads((run_dir / "run.json").read_text())["statistics"]
    log = parse_log(run_dir / "log.txt")
    first, solves_again, again = solves_per_attempt((run_dir / "log.txt").read_text(errors="replace"))
    return {"wall": wall, "steps": counts["steps"], "cut_backs": counts["cut_backs"],
            "newton": counts["newton_iterations"], "factorizations": counts["factorizations"],
            "augmentations": counts["augmentations"], "first": first, "solves_again": solves_again,
            "again": again, "assemblies": log["calls"].get("assembly"),
            "t_factorization": log["timers"].get("preconditioner setup"),
            "t_assembly": log["timers"].get("assembly"), "t_couplings": log["timers"].get("couplings")}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hydrostat", type=Path, default=REPO / "build" / "hydrostat")
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES), default=["main", "anatomical"])
    parser.add_argument("--repeat", type=int, default=1, help="pairs per case (default 1)")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=1800, help="per run [s]")
    parser.add_argument("--out", type=Path, default=Path("contact_cost"))
    parser.add_argument("--from-logs", action="store_true", help="only read the runs in OUT")
    args = parser.parse_args()
    if args.repeat < 1:
        sys.exit("--repeat must be at least 1")
    if not args.from_logs and not args.hydrostat.exists():
        sys.exit(f"{args.hydrostat} does not exist: build it, or give --hydrostat")

    runs = {case: {variant: [] for variant in VARIANTS} for case in args.cases}
    for case in args.cases:
        for n in range(args.repeat):
            for variant in VARIANTS:
                runs[case][variant].append(summary(run_once(args, case, variant, n)))

    lines = ["| case | self-contact | steps | cut-backs | Newton its (per step) | first solves / solves again (its) "
             "| factorisations | assemblies | factorisation, assembly, couplings [s] | wall [s] |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    ratios = []
    for case in args.cases:
        for variant in VARIANTS:
            done = [r for r in runs[case][variant] if r]
            if not done:
                lines.append(f"| {case} | {variant} | not finished | | | | | | | |")
                continue
            r = done[0]  # the counts repeat from run to run; the wall times do not
            walls = sorted(x["wall"] for x in done)
            wall = f"{statistics.median(walls):.1f}" + (f" ({walls[0]:.1f}–{walls[-1]:.1f})" if len(walls) > 1 else "")
            lines.append(
                f"| {case} | {variant} | {r['steps']} | {r['cut_backs']} | {r['newton']} ({r['newton'] / r['steps']:.2f}) "
                f"| {r['first']} / {r['solves_again']} ({r['again']}) | {r['factorizations']} | {fmt(r['assemblies'], 'd')} "
                f"| {fmt(r['t_factorization'], '.1f')}, {fmt(r['t_assembly'], '.1f')}, {fmt(r['t_couplings'], '.2f')} "
                f"| {wall} |")
        pairs = [(w, wo) for w, wo in zip(runs[case]["with"], runs[case]["without"]) if w and wo]
        if pairs:
            wall_ratio = statistics.median(w["wall"] / wo["wall"] for w, wo in pairs)
            w, wo = pairs[0]
            its_ratio = (w["newton"] / w["steps"]) / (wo["newton"] / wo["steps"])
            ratios.append(f"{case}: wall {wall_ratio:.2f}× (median of {len(pairs)} pair(s)), Newton iterations per "
                          f"step {its_ratio:.2f}×, factorisations {w['factorizations'] / wo['factorizations']:.2f}× "
                          f"(target: at most 2× each)")
    text = "\n".join(lines + [""] + ratios) + "\n"
    print(text)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "contact_cost.md").write_text(text)


if __name__ == "__main__":
    main()
