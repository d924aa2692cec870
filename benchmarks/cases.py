#!/usr/bin/python3
"""Every shipped case in parameters/ (default meshes) with its wall time: the table of issue 30
("every case under a minute").

Each case runs as shipped on --ranks ranks with ParaView output off, in OUT/<case>/ (log.txt,
status.txt, the case's CSV and run.json); the Hill-type MTU experiments (parameters/hill/) run
with build/hydrostat-hill on one process. The table (markdown) is printed and written to
OUT/cases.md: simulated time, steps, cut-backs, Newton iterations per step (from run.json), the
wall time of the whole command and whether it is under a minute.

Usage (from anywhere):
  python3 benchmarks/cases.py --hydrostat build/hydrostat
  python3 benchmarks/cases.py --cases octopus_bending octopus_reaching_anatomical
  python3 benchmarks/cases.py --from-logs
"""

import argparse
import json
import re
import sys
from pathlib import Path

from hydrostat_runs import fmt, fresh_case, read_status, run_logged
from peers import set_line

REPO = Path(__file__).resolve().parent.parent
FINISHED_RE = re.compile(r"^Finished at t = (\S+) s")


def shipped_cases():
    """name -> case file: every .prm under parameters/ that is a case (not only included)."""
    files = sorted((REPO / "parameters").rglob("*.prm"))
    return {str(f.relative_to(REPO / "parameters").with_suffix("")): f for f in files}


def is_hill(case):
    return re.search(r"^subsection Experiment", case.read_text(), re.M) is not None


def run_case(args, case, run_dir):
    if is_hill(case):
        text = set_line(case.read_text(), "Directory", str(run_dir.resolve()), "Output")
        cmd = [str(Path(args.hydrostat).resolve().parent / "hydrostat-hill"), str(fresh_case(run_dir, text))]
        return run_logged(cmd, run_dir, args.timeout, case.parent)
    fresh_case(run_dir, "")
    cmd = ["mpirun", "-np", str(args.ranks), "--bind-to", "none"] if args.ranks > 1 else []
    cmd += [str(Path(args.hydrostat).resolve()), str(case), "--set", "Output/ParaView=false",
            "--set", f"Output/Directory={run_dir.resolve()}"]
    return run_logged(cmd, run_dir, args.timeout, REPO)


def row(name, case, run_dir):
    status, wall = read_status(run_dir)
    stats, t_end = {}, None
    if (run_dir / "run.json").exists():
        stats = json.loads((run_dir / "run.json").read_text()).get("statistics", {})
    log = run_dir / "log.txt"
    for line in (log.read_text(errors="replace").splitlines() if log.exists() else []):
        if m := FINISHED_RE.match(line):
            t_end = float(m.group(1))
    steps = stats.get("steps")
    per_step = stats["newton_iterations"] / steps if steps else None
    under = "-" if wall is None or status != "ok" else ("yes" if wall < 60 else "**no**")
    kind = ", Hill MTU (1 process)" if is_hill(case) else ""
    return (f"| {name} | {status}{kind} | {fmt(t_end, 'g')} | {fmt(steps, 'd')} | {fmt(stats.get('cut_backs'), 'd')} "
            f"| {fmt(per_step, '.1f')} | {fmt(wall, '.1f')} | {under} |")


def main():
    cases = shipped_cases()
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hydrostat", default=str(REPO / "build" / "hydrostat"))
    parser.add_argument("--cases", nargs="+", default=list(cases), choices=list(cases), metavar="CASE",
                        help="cases by their path under parameters/ without .prm (default: all)")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=900, help="per case [s]")
    parser.add_argument("--out", type=Path, default=REPO / "output" / "cases")
    parser.add_argument("--from-logs", action="store_true", help="only print the table of earlier runs")
    args = parser.parse_args()

    lines = ["| case | status | simulated [s] | steps | cut-backs | Newton its/step | wall [s] | < 1 min |",
             "|---|---|---|---|---|---|---|---|"]
    for name in args.cases:
        run_dir = args.out / name
        if not args.from_logs:
            status, wall = run_case(args, cases[name], run_dir)
            print(f"{name}: {status} in {wall:.1f} s", file=sys.stderr, flush=True)
        lines.append(row(name, cases[name], run_dir))
    table = "\n".join(lines) + "\n"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cases.md").write_text(table)
    print(table)


if __name__ == "__main__":
    main()
