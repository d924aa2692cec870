#!/usr/bin/python3
"""Parameter sweep: runs a case once per point of a grid of --set overrides, each run in its own
output directory, and gathers one table of metrics read from each run's CSV and run.json.

  /usr/bin/python3 postprocess/sweep.py parameters/hill_mtu_block.prm \\
      --grid "Materials/Material 0/c1=1e5,2e5" --grid "Time stepping/End time=0.2,0.3" --jobs 2

Every combination of the --grid values is run (a --link PATH=V1,V2,... moves together with the
--grid before it; --set adds fixed overrides to all runs) as
  [mpirun -np NP] hydrostat CASE --set ... --set "Output/Directory=OUTPUT/<label>"
into OUTPUT/<label>/ (log.txt, the CSV, parameters.prm, run.json), --jobs at a time. The table,
printed and written to OUTPUT/sweep.csv, has per run the grid values, the status, the final time,
steps, Newton and linear iterations and cut-backs (run.json), wall time [s], and for every probe
point k the final and the peak displacement magnitude |u_k| [m]; --column NAME adds the final and
the peak |value| of any column of the case's CSV. Exit status 1 if a run failed.
"""
import argparse
import csv
import itertools
import json
import math
import os
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def parse_grid(text):
    """'Section/Name=v1,v2' -> ('Section/Name', ['v1', 'v2'])."""
    path, sep, values = text.partition("=")
    if not sep or not path or not values:
        sys.exit(f"sweep: --grid '{text}': expected PATH=VALUE1,VALUE2,..., "
                 "e.g. --grid \"Materials/Material 0/c1=1e5,2e5\"")
    return path, [v.strip() for v in values.split(",")]


def label_of(point):
    """A directory name for one grid point: the parameter names (last path part) and values."""
    parts = [f"{path.split('/')[-1]}={value}" for path, value in point]
    return re.sub(r"[^A-Za-z0-9=.+-]+", "_", "_".join(parts)) or "run"


def base_name(run_dir):
    """Output/Base name as the run used it (its parameters.prm)."""
    section = []
    for line in (run_dir / "parameters.prm").read_text().splitlines():
        words = line.split()
        if words[:1] == ["subsection"]:
            section.append(" ".join(words[1:]))
        elif words[:1] == ["end"]:
            section.pop()
        elif section == ["Output"] and line.strip().startswith("set Base name"):
            return line.split("=", 1)[1].strip()
    return "solution"


def metrics(run_dir, columns):
    """Final time, statistics, wall time and probe/column metrics of one finished run."""
    result = {}
    run = json.loads((run_dir / "run.json").read_text())
    result.update(run.get("statistics", {}))
    result["wall_s"] = run.get("wall_time_s")
    with open(run_dir / f"{base_name(run_dir)}.csv") as f:
        rows = list(csv.DictReader(f))
    result["t_end"] = float(rows[-1]["time"])
    k = 0
    while f"p{k}_ux" in rows[0]:
        u = [math.sqrt(sum(float(r[f"p{k}_u{c}"]) ** 2 for c in "xyz")) for r in rows]
        result[f"p{k}_u_final"] = u[-1]
        result[f"p{k}_u_peak"] = max(u)
        k += 1
    for name in columns:
        if name not in rows[0]:
            raise KeyError(f"no column '{name}' in the CSV (columns: {', '.join(rows[0])})")
        values = [float(r[name]) for r in rows]
        result[f"{name}_final"] = values[-1]
        result[f"{name}_peak"] = max(values, key=abs)
    return result


def run_one(case, label, overrides, options):
    """Runs one point of a sweep into options.output/label; its table row."""
    run_dir = options.output / label
    run_dir.mkdir(parents=True, exist_ok=True)
    launcher = [] if options.np == 1 else ["mpirun", "--oversubscribe", "-np", str(options.np)]
    command = launcher + [options.hydrostat, str(case)]
    for path, value in list(options.fixed) + list(overrides):
        command += ["--set", f"{path}={value}"]
    command += ["--set", f"Output/Directory={run_dir}", "--quiet"]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    with open(run_dir / "log.txt", "w") as log:
        log.write(" ".join(f"'{c}'" if " " in c else c for c in command) + "\n")
        log.flush()
        try:
            code = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                  timeout=options.timeout).returncode
        except subprocess.TimeoutExpired:
            code = "timeout"
    row = {"run": label, **dict(overrides)}
    if code != 0:
        row["status"] = f"{code if code == 'timeout' else f'exit {code}'} (see {run_dir / 'log.txt'})"
        return row
    try:
        row.update(metrics(run_dir, options.column))
        if options.metrics:
            row.update(options.metrics(run_dir))
        row["status"] = "ok"
    except (OSError, KeyError, ValueError, IndexError) as error:
        row["status"] = f"no metrics: {error}"
    return row


def run_sweep(case, points, options):
    """Runs @p points (a list of (label, [(path, value), ...])), options.jobs at a time; returns
    the rows and the wall time. options: output, np, hydrostat, fixed, column, metrics (None or a
    function of the run directory returning more metrics), jobs, timeout (s per run, or None)."""
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(options.jobs, 1)) as pool:
        rows = list(pool.map(lambda point: run_one(case, point[0], point[1], options), points))
    return rows, time.monotonic() - start


def write_table(rows, path):
    """Writes @p rows to the CSV @p path and returns the table as text, aligned."""
    keys = []
    for row in rows:
        keys += [k for k in row if k not in keys and k != "status"]
    keys.append("status")
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(rows)
    # Grid parameters by the last part of their path.
    names = [k.split("/")[-1] for k in keys]
    table = [[fmt(row.get(k, "")) for k in keys] for row in rows]
    widths = [max(len(n), *(len(r[i]) for r in table)) for i, n in enumerate(names)]
    lines = ["  ".join(n.rjust(w) for n, w in zip(names, widths))]
    lines += ["  ".join(v.rjust(w) for v, w in zip(r, widths)) for r in table]
    return "\n".join(lines)


def fmt(value):
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


class GridAction(argparse.Action):
    """--grid and --link in the order given: a --link is tied to the --grid before it."""

    def __call__(self, parser, namespace, value, option_string=None):
        path, values = parse_grid(value)
        grid = getattr(namespace, "grid")
        if option_string == "--grid":
            grid.append([(path, values)])
        elif not grid or len(values) != len(grid[-1][0][1]):
            parser.error(f"--link '{value}' needs a --grid before it with as many values")
        else:
            grid[-1].append((path, values))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("case", help="the case file")
    parser.add_argument("--grid", action=GridAction, default=[], metavar="PATH=V1,V2,...",
                        help="a parameter and its values (repeatable: every combination is run)")
    parser.add_argument("--link", action=GridAction, dest="grid", metavar="PATH=V1,V2,...",
                        help="a parameter whose values go with those of the --grid before it")
    parser.add_argument("--set", action="append", default=[], dest="fixed", metavar="PATH=VALUE",
                        help="an override for every run")
    parser.add_argument("--column", action="append", default=[], help="also report this CSV column")
    parser.add_argument("--jobs", type=int, default=1, help="runs at a time")
    parser.add_argument("--np", type=int, default=1, help="MPI ranks per run")
    parser.add_argument("--output", type=Path, default=Path("output/sweep"), help="directory of the runs and sweep.csv")
    parser.add_argument("--timeout", type=float, help="seconds per run before it is stopped")
    parser.add_argument("--hydrostat", default=str(REPO / "build" / "hydrostat"))
    options = parser.parse_args()
    options.metrics = None
    if not Path(options.hydrostat).exists():
        sys.exit(f"sweep: {options.hydrostat} not found (build it, or pass --hydrostat)")
    if not Path(options.case).exists():
        sys.exit(f"sweep: case file '{options.case}' does not exist")
    for entry in options.fixed:
        if "=" not in entry:
            sys.exit(f"sweep: --set '{entry}': expected PATH=VALUE")
    options.fixed = [tuple(entry.split("=", 1)) for entry in options.fixed]

    # Each --grid with its --links is one axis; every combination of the axes is a point.
    axes = [[[(path, values[i]) for path, values in axis] for i in range(len(axis[0][1]))] for axis in options.grid]
    points = [[pair for choice in combination for pair in choice] for combination in itertools.product(*axes)]
    rows, elapsed = run_sweep(options.case, [(label_of(p), p) for p in points], options)
    print(write_table(rows, options.output / "sweep.csv"))
    print(f"{len(rows)} runs, {options.jobs} at a time, in {elapsed:.1f} s; table: {options.output / 'sweep.csv'}")
    return 0 if all(row["status"] == "ok" for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
