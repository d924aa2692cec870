#!/usr/bin/python3
"""What self-contact costs: the main case and the anatomical arm with and without self-contact,
back to back, the issue's target being at most twice the wall time and twice the Newton
iterations per step of the run without it (theory.md §15.5).

The two runs of a pair alternate, --repeat times, so that a machine whose speed drifts (the
shared 2-core machine's wall times varied by a third within an hour) slows both alike; the wall
ratio is the median of the pairs' ratios. With --pieces N the two runs of a pair are cut into N
pieces of equal simulated time that alternate (with, without, with, ...): each piece is stopped
by SIGUSR1 after the first step past its end, which writes a checkpoint, and the next piece of
that run resumes from it (--resume: the run in one go to round-off). A run's
time is then the sum of its pieces' time loops (the last step's wall time less the set-up) less
the symbolic factorisations that the resumes add (one each, at the run's mean cost), so that both
runs see the machine of the same minutes. Each run is on --ranks ranks with ParaView output off
and Newton/Verbose = true, in OUT/<case>-<variant>-<n>/ (log.txt, status.txt, run.json), so that
the Newton iterations split into the first solve of each step attempt and the solves again after
an augmentation or partner change; the timers give the time in factorisations, assemblies and
the contact couplings (search, normals, partners).

Usage (from anywhere):
  python3 benchmarks/contact_cost.py --hydrostat build/hydrostat
  python3 benchmarks/contact_cost.py --cases anatomical --repeat 3
  python3 benchmarks/contact_cost.py --cases anatomical --pieces 10
  python3 benchmarks/contact_cost.py --from-logs
"""

import argparse
import json
import re
import shutil
import signal
import statistics
import sys
from pathlib import Path

from hydrostat_runs import NEWTON_RE, STEP_RE, TIMER_RE, fmt, parse_log, read_status, run_logged

REPO = Path(__file__).resolve().parent.parent
# case -> variant -> case file.
CASES = {
    "main": {"with": "octopus_bending.prm", "without": "octopus_bending_without_self_contact.prm"},
    "anatomical": {"with": "octopus_anatomical_self_contact.prm", "without": "octopus_anatomical.prm"},
}
VARIANTS = ("with", "without")
END_TIME = 1.0  # both arms' Time stepping/End time [s]
SETUP_RE = re.compile(r"^Set up in (\S+) s")
WALL_RE = re.compile(r"^step\s.*\swall (\S+) s")


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


def command(args, case, variant, run_dir):
    cmd = ["mpirun", "-np", str(args.ranks), str(args.hydrostat.resolve()),
           str(REPO / "parameters" / CASES[case][variant])]
    for setting in ["Output/ParaView=false", "Newton/Verbose=true", f"Output/Directory={run_dir}"]:
        cmd += ["--set", setting]
    return cmd


def fresh_run_dir(args, case, variant, n):
    """An empty OUT/<case>-<variant>-<n>/: a previous run's files (checkpoints above all) would be
    read as this one's."""
    run_dir = args.out / f"{case}-{variant}-{n}"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    return run_dir


def run_once(args, case, variant, n):
    """Runs one variant of one case into OUT/<case>-<variant>-<n>/ unless --from-logs."""
    run_dir = args.out / f"{case}-{variant}-{n}"
    if args.from_logs:
        return run_dir
    run_dir = fresh_run_dir(args, case, variant, n)
    status, wall = run_logged(command(args, case, variant, run_dir), run_dir, args.timeout, REPO)
    print(f"{case:11s} {variant:8s} #{n}: {status}, {wall:.1f} s", flush=True)
    return run_dir


def run_piece(args, case, variant, run_dir, piece, t_end):
    """Runs the piece of one run that ends with the first step past t_end (the last piece: to the
    end), resumed from the previous piece's checkpoint; returns 'ok' (finished), 'stopped' or an
    error status, and the piece's time loop [s]."""
    signalled = False

    def stop_past_end(proc, log_path):
        nonlocal signalled
        if signalled or t_end is None:
            return
        steps = [STEP_RE.match(line) for line in log_path.read_text(errors="replace").splitlines()]
        if any(m and float(m.group(2)) >= t_end for m in steps):
            proc.send_signal(signal.SIGUSR1)  # mpirun passes it on to the ranks
            signalled = True

    cmd = command(args, case, variant, run_dir) + (["--resume"] if piece > 0 else [])
    log_name = f"piece-{piece:02d}.txt"
    status, _ = run_logged(cmd, run_dir, args.timeout, REPO, log_name, stop_past_end)
    text = (run_dir / log_name).read_text(errors="replace")
    setup = [float(m.group(1)) for line in text.splitlines() if (m := SETUP_RE.match(line))]
    walls = [float(m.group(1)) for line in text.splitlines() if (m := WALL_RE.match(line))]
    loop = walls[-1] - setup[0] if setup and walls else 0.0
    return ("stopped" if status == "rc=3" else status), loop  # 3: stopped by the signal


def run_pair_in_pieces(args, case, n):
    """Both variants of one case, their pieces alternating; writes each run's log.txt (its pieces
    one after the other, with the timer sections summed over the pieces) and status.txt."""
    dirs = {variant: fresh_run_dir(args, case, variant, n) for variant in VARIANTS}
    status = {variant: "stopped" for variant in VARIANTS}
    loop = {variant: 0.0 for variant in VARIANTS}
    for piece in range(args.pieces):
        t_end = END_TIME * (piece + 1) / args.pieces if piece + 1 < args.pieces else None
        for variant in VARIANTS:
            if status[variant] != "stopped":
                continue
            status[variant], seconds = run_piece(args, case, variant, dirs[variant], piece, t_end)
            loop[variant] += seconds
    for variant in VARIANTS:
        run_dir, timers, calls = dirs[variant], {}, {}
        pieces = sorted(run_dir.glob("piece-*.txt"))
        texts = [p.read_text(errors="replace") for p in pieces]
        for text in texts:
            for line in text.splitlines():
                if m := TIMER_RE.match(line):
                    timers[m.group(1)] = timers.get(m.group(1), 0.0) + float(m.group(3))
                    calls[m.group(1)] = calls.get(m.group(1), 0) + int(m.group(2))
        table = [f"| {name} | {calls[name]} | {timers[name]:.2f}s |" for name in sorted(timers)]
        # Each resume analyses the pattern anew: less those analyses, at the run's mean cost.
        resumes = len(pieces) - 1
        if calls.get("symbolic factorization"):
            loop[variant] -= resumes * timers["symbolic factorization"] / calls["symbolic factorization"]
        body = "".join(line + "\n" for text in texts for line in text.splitlines() if not TIMER_RE.match(line))
        (run_dir / "log.txt").write_text(body + "\n".join(table) + "\n")
        (run_dir / "status.txt").write_text(f"{status[variant]}\n{loop[variant]:.1f}\n")
        print(f"{case:11s} {variant:8s} #{n}: {status[variant]}, {len(pieces)} pieces, time loops "
              f"{loop[variant]:.1f} s", flush=True)


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
    parser.add_argument("--pieces", type=int, default=0,
                        help="cut each pair's runs into this many alternating pieces (default 0: whole runs)")
    parser.add_argument("--ranks", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=1800, help="per run [s]")
    parser.add_argument("--out", type=Path, default=Path("contact_cost"))
    parser.add_argument("--from-logs", action="store_true", help="only read the runs in OUT")
    args = parser.parse_args()
    if args.repeat < 1:
        sys.exit("--repeat must be at least 1")
    if args.pieces < 0:
        sys.exit("--pieces must be 0 (whole runs) or more")
    if not args.from_logs and not args.hydrostat.exists():
        sys.exit(f"{args.hydrostat} does not exist: build it, or give --hydrostat")

    runs = {case: {variant: [] for variant in VARIANTS} for case in args.cases}
    for case in args.cases:
        for n in range(args.repeat):
            if args.pieces > 0 and not args.from_logs:
                run_pair_in_pieces(args, case, n)
            for variant in VARIANTS:
                if args.pieces > 0 or args.from_logs:
                    runs[case][variant].append(summary(args.out / f"{case}-{variant}-{n}"))
                else:
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
