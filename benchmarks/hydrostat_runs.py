"""Running hydrostat for the benchmark scripts and reading its log: one place for the log format
(progress lines, verbose Newton lines, TimerOutput table) and for killing a run cleanly."""
import math
import os
import re
import shutil
import signal
import subprocess
import time

STEP_RE = re.compile(r"^step\s+(\d+)\s+t = (\S+) s\s+dt = (\S+) s\s+Newton\s+(\d+)\s+\|R\| (\S+)\s+linear its (\d+)")
NEWTON_RE = re.compile(r"^\s+Newton (\d+): \|R\| = (\S+), \|du\| = (\S+), line search (\S+), linear iterations (\d+)")
MESH_RE = re.compile(r"^Mesh: (\d+) cells, (\d+) displacement DoFs")
TIMER_RE = re.compile(r"^\|\s*([a-z ]+?)\s*\|\s*(\d+)\s*\|\s*([0-9.eE+-]+)s\s*\|")
TOTAL_RE = re.compile(r"^\|\s*Total wallclock time elapsed since start\s*\|\s*([0-9.eE+-]+)s")


def parse_log(path):
    """The counts and timers of one hydrostat log (the Newton lines need Newton/Verbose = true).

    linear: linear iterations of each converged solve; failed_solves: solves that failed (the step
    is then cut back; their time is in the timers); timers/calls: TimerOutput wall time and call
    count per section; total_wall: TimerOutput total; error: the first line mentioning an error."""
    result = {"cells": None, "dofs": None, "steps": 0, "newton": 0, "linear": [], "line_search_cuts": 0,
              "cut_backs": 0, "failed_solves": 0, "timers": {}, "calls": {}, "total_wall": None, "error": None}
    text = path.read_text(errors="replace") if path.exists() else ""
    for line in text.splitlines():
        if m := MESH_RE.match(line):
            result["cells"], result["dofs"] = int(m.group(1)), int(m.group(2))
        elif m := STEP_RE.match(line):
            result["steps"] += 1
            result["newton"] += int(m.group(4))
        elif m := NEWTON_RE.match(line):
            result["linear"].append(int(m.group(5)))
            if float(m.group(4)) < 1.0:
                result["line_search_cuts"] += 1
        elif m := TIMER_RE.match(line):
            result["timers"][m.group(1)] = float(m.group(3))
            result["calls"][m.group(1)] = int(m.group(2))
        elif m := TOTAL_RE.match(line):
            result["total_wall"] = float(m.group(1))
        elif "step cut back" in line:
            result["cut_backs"] += 1
        elif "linear solver:" in line and "failed" in line:
            result["failed_solves"] += 1
        elif "error" in line.lower() and result["error"] is None:
            result["error"] = line.strip()
    return result


def fresh_case(run_dir, text):
    """Empties run_dir (a previous run's files would be read as this one's) and writes the case
    file run_dir/case.prm with text; returns its path."""
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    case = run_dir / "case.prm"
    case.write_text(text)
    return case


def run_logged(cmd, run_dir, timeout, cwd, log_name="log.txt", watch=None):
    """Runs cmd in cwd with stdout/stderr to run_dir/log_name, as root too
    (Open MPI's run-as-root variables), one OpenMP thread; watch(proc, log_path), if given, is
    called every 0.1 s while it runs. On a timeout, Ctrl-C or SIGTERM the
    whole process group (mpirun and its ranks) is ended. Writes run_dir/status.txt (status, then
    the wall time in s) and returns (status, wall time): status 'ok', 'rc=N' or 'timeout'."""
    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env["OMP_NUM_THREADS"] = "1"
    start = time.monotonic()
    log_path = run_dir / log_name
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env,
                                cwd=cwd, start_new_session=True)
        try:
            if watch is None:
                rc = proc.wait(timeout=timeout)
            else:
                while (rc := proc.poll()) is None:
                    if time.monotonic() - start > timeout:
                        raise subprocess.TimeoutExpired(cmd, timeout)
                    watch(proc, log_path)
                    time.sleep(0.1)
            status = "ok" if rc == 0 else f"rc={rc}"
        except BaseException as error:  # timeout, Ctrl-C, SIGTERM: end the run's process group
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            if not isinstance(error, subprocess.TimeoutExpired):
                (run_dir / "status.txt").write_text("interrupted\n")
                raise
            status = "timeout"
    elapsed = time.monotonic() - start
    (run_dir / "status.txt").write_text(f"{status}\n{elapsed:.1f}\n")
    return status, elapsed


def read_status(run_dir):
    """(status, wall time or None) from run_dir/status.txt; ('not run', None) if it is missing."""
    path = run_dir / "status.txt"
    if not path.exists():
        return "not run", None
    parts = path.read_text().split()
    return parts[0], (float(parts[1]) if len(parts) > 1 else None)


def fmt(x, spec):
    """@p x formatted by @p spec, or '-' for a missing (None) or NaN value (a table cell)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return format(x, spec)
