#!/usr/bin/python3
"""Hydrostat against FEBio and deal.II step-44 on their own problems (issue 12).

Rows (--rows, default: the quick ones, bar4 bar4-gravity block4):
  bar4, bar8, bar16     FEBio's bar (benchmarks/peers/febio_bar.prm): 0.01 x 0.01 x 0.1 m,
                        N x N x 10N hexahedra, z = 0 clamped, Mooney-Rivlin c1 = 1 kPa, K = 1 MPa,
                        rho = 1050, body acceleration (0, -0.0981 t, 0), quasi-static, 10 steps,
                        three-field Q1; answer: tip (0, 0, 0.1) u_y.
  bar4-gravity,         the same bar under full gravity (0, -9.81 t, 0); answer: tip u_y, u_z
  bar8-gravity,         (FEBio's at N = 4 and 8; none at N = 16).
  bar16-gravity
  block4, block8        step-44's block indentation, parameters/indentation/three_field_q2.prm at
                        p/p0 = 100 with 4^3 / 8^3 cells (step-44's global refinement 2 / 3);
                        answer: top-centre u_y [mm].
  octopus, squid,       parameters/octopus_bending.prm, parameters/squid_extension.prm,
  reach                 parameters/octopus_reaching_anatomical.prm (no peer; Hydrostat's own
                        wall-time reference; ParaView output switched off).

Peer figures are the ones measured by the issue's author on 2 cores (FEBio 4.11, step-44 of
deal.II). Every run lives in OUT/<row>/ (case.prm, log.txt, <base>.csv, status.txt, and
time.<rank>.txt from /usr/bin/time -v when it is installed, for the peak RSS); the table is
printed and written to OUT/peers.txt. Counts and timers come from hydrostat_runs.parse_log
(Newton/Verbose = true in every case).

Columns: DoFs (displacement DoFs), steps (accepted), Newton (iterations of the accepted steps),
solves (all linear solves, including those of attempts that were cut back; failed ones in
parentheses), cuts (step cut-backs), asm / prec / solve / setup (TimerOutput wall seconds of
assembly, preconditioner setup, linear solve, setup), wall (the whole mpirun command), RSS (peak
resident memory summed over the ranks), t_end (last time in the CSV), the answer (last CSV row), the
peer's answer and time, the relative difference of the answer and the ratio of wall times
(Hydrostat / peer), both only for a run that finished. A run killed by --timeout prints no
TimerOutput table and no RSS (its timers show '-').

Usage (from anywhere):
  python3 benchmarks/peers.py --hydrostat build/hydrostat                 # bar4 bar4-gravity block4
  python3 benchmarks/peers.py --rows bar8 bar16 --timeout 3600
  python3 benchmarks/peers.py --from-logs --rows bar4 bar4-gravity block4 bar8
"""

import argparse
import csv
import re
import signal
import sys
from pathlib import Path

from hydrostat_runs import fmt, fresh_case, parse_log, read_status, run_logged

REPO = Path(__file__).resolve().parent.parent
BAR = Path(__file__).resolve().parent / "peers" / "febio_bar.prm"
BLOCK = REPO / "parameters" / "indentation" / "three_field_q2.prm"
RSS_RE = re.compile(r"Maximum resident set size \(kbytes\): (\d+)")

# row -> case, answer [(label, CSV column, scale to the printed unit, unit, peer value or None)],
# peer (name, wall time [s] or None, remark)
ROWS = {
    "bar4": dict(case=("bar", 4, 0.0981), answer=[("u_y", "p0_uy", 1, "m", -0.0238713)],
                 peer=("FEBio 4.11", 2.5, "40 Newton its")),
    "bar8": dict(case=("bar", 8, 0.0981), answer=[("u_y", "p0_uy", 1, "m", -0.0240996)],
                 peer=("FEBio 4.11", 25.7, "")),
    "bar16": dict(case=("bar", 16, 0.0981), answer=[("u_y", "p0_uy", 1, "m", -0.0241836)],
                  peer=("FEBio 4.11", 372, "1.5 GB")),
    "bar4-gravity": dict(case=("bar", 4, 9.81), answer=[("u_y", "p0_uy", 1, "m", -0.10776),
                                                        ("u_z", "p0_uz", 1, "m", -0.09068)],
                         peer=("FEBio 4.11", 15, "27 cut-backs")),
    "bar8-gravity": dict(case=("bar", 8, 9.81), answer=[("u_y", "p0_uy", 1, "m", -0.10804),
                                                        ("u_z", "p0_uz", 1, "m", -0.09114)],
                         peer=("FEBio 4.11", 254, "")),
    "bar16-gravity": dict(case=("bar", 16, 9.81), answer=[("u_y", "p0_uy", 1, "m", None),
                                                          ("u_z", "p0_uz", 1, "m", None)],
                          peer=("FEBio 4.11", None, "not measured")),
    "block4": dict(case=("block", 4, 100), answer=[("u_y", "p0_uy", 1e3, "mm", -0.7719)],
                   peer=("step-44", 16, "")),
    "block8": dict(case=("block", 8, 100), answer=[("u_y", "p0_uy", 1e3, "mm", -0.7612)],
                   peer=("step-44", 698, "")),
    "octopus": dict(case=("file", REPO / "parameters" / "octopus_bending.prm"),
                    answer=[("u_y", "p0_uy", 1, "m", None), ("u_z", "p0_uz", 1, "m", None)],
                    peer=("-", None, "Hydrostat d89c24e: 1305 s")),
    "squid": dict(case=("file", REPO / "parameters" / "squid_extension.prm"),
                  answer=[("u_z", "p0_uz", 1, "m", None)], peer=("-", None, "")),
    "reach": dict(case=("file", REPO / "parameters" / "octopus_reaching_anatomical.prm"),
                  answer=[("u_y", "p0_uy", 1, "m", None), ("u_z", "p0_uz", 1, "m", None)],
                  peer=("-", None, "Hydrostat bfdb3f2: 128 s")),
}
QUICK = ["bar4", "bar4-gravity", "block4"]


# ----------------------------------------------------------------------------- case files

def set_line(text, key, value, subsection):
    """Sets `set <key> = value` (keeping a comment), adding it to `subsection` if it is missing."""
    pattern = re.compile(r"^(\s*set\s+" + re.escape(key) + r"\s*=\s*)([^#\n]*?)(\s*(#.*)?)$", re.M)
    new, n = pattern.subn(lambda m: m.group(1) + value + m.group(3), text, count=1)
    if n == 0:
        new, n = re.subn(r"^subsection " + re.escape(subsection) + r"\n",
                         f"subsection {subsection}\n  set {key} = {value}\n", text, count=1, flags=re.M)
        if n == 0:
            new = text + f"subsection {subsection}\n  set {key} = {value}\nend\n"
    return new


def case_text(row, run_dir):
    kind = ROWS[row]["case"]
    if kind[0] == "bar":
        _, n, g = kind
        text = (BAR.read_text().replace("@10N@", str(10 * n)).replace("@N@", str(n))
                .replace("@G@", f"{g:g}").replace("@DIRECTORY@", str(run_dir.resolve())))
        assert "@" not in "".join(line.split("#")[0] for line in text.splitlines()), "unreplaced placeholder"
        return text
    if kind[0] == "block":
        _, n, ratio = kind
        text = BLOCK.read_text()
        text = set_line(text, "Box subdivisions", f"{n}, {n}, {n}", "Mesh")
        text, k = re.subn(r"-4e6 \* \d+(\.\d*)? \* t", f"-4e6 * {ratio:g} * t", text)
        assert k == 1, "pressure expression not found"
    else:
        # The shipped case itself, so that its include and mesh are still taken from its folder.
        text = f"include {kind[1].resolve()}\n"
    text = set_line(text, "Directory", str(run_dir.resolve()), "Output")
    text = set_line(text, "ParaView", "false", "Output")
    text = set_line(text, "Verbose", "true", "Newton")
    return text


# ----------------------------------------------------------------------------- running

def run_row(args, row, run_dir):
    case = fresh_case(run_dir, case_text(row, run_dir))
    exe = str(Path(args.hydrostat).resolve())
    if Path("/usr/bin/time").exists():  # one /usr/bin/time -v per rank: time.<rank>.txt
        inner = ["sh", "-c", f'exec /usr/bin/time -v -o "{run_dir}/time.${{OMPI_COMM_WORLD_RANK:-0}}.txt" '
                             f'"{exe}" "{case}"']
    else:
        inner = [exe, str(case)]
    cmd = ["nice", "-n", str(args.nice)]
    if args.ranks > 1:
        cmd += ["mpirun", "-np", str(args.ranks), "--bind-to", "none"]
    cmd += inner
    return run_logged(cmd, run_dir, args.timeout, REPO)


def stop_reason(run_dir):
    """The last line of the log that says why a run stopped (None if there is none)."""
    path = run_dir / "log.txt"
    if not path.exists():
        return None
    hits = [line.strip() for line in path.read_text(errors="replace").splitlines()
            if re.search(r"converge|error|abort|invert|minimum time step|exception", line, re.I)
            and not line.lstrip().startswith("Newton ")]
    return hits[-1] if hits else None


def parse_run(row, run_dir):
    res = dict(row=row, status="not run", wall=None, rss_mib=None, t_end=None, answer={}, log=None)
    if not (run_dir / "status.txt").exists():
        return res
    res["status"], res["wall"] = read_status(run_dir)
    res["log"] = parse_log(run_dir / "log.txt")
    rss = [int(m.group(1)) for f in sorted(run_dir.glob("time.*.txt"))
           if (m := RSS_RE.search(f.read_text(errors="replace")))]
    res["rss_mib"] = sum(rss) / 1024 if rss else None
    csvs = [p for p in sorted(run_dir.glob("*.csv")) if not p.name.endswith("_mtu.csv")]
    if csvs:
        with open(csvs[0]) as f:
            data = list(csv.DictReader(f))
        if data:
            last = data[-1]
            res["t_end"] = float(last["time"])
            for label, column, scale, _, _ in ROWS[row]["answer"]:
                if column in last:
                    res["answer"][label] = float(last[column]) * scale
    res["reason"] = stop_reason(run_dir) if res["status"] != "ok" else None
    return res


# ----------------------------------------------------------------------------- table

def print_table(results, out):
    head = (f"{'row':<13} {'DoFs':>7} {'steps':>5} {'Newton':>6} {'solves':>7} {'cuts':>4} {'asm':>6} {'prec':>6} "
            f"{'solve':>6} {'setup':>5} {'wall':>6} {'RSS':>6} {'t_end':>5} {'answer':>13} {'peer':>11} "
            f"{'rel.diff':>8} {'peer t':>6} {'t ratio':>7}  status")
    print(head, file=out)
    print(f"{'':<13} {'':>7} {'':>5} {'':>6} {'(fail)':>7} {'':>4} {'[s]':>6} {'[s]':>6} {'[s]':>6} {'[s]':>5} "
          f"{'[s]':>6} {'[MiB]':>6} {'[s]':>5} {'':>13} {'':>11} {'':>8} {'[s]':>6} {'H/peer':>7}", file=out)
    notes = []
    for r in results:
        spec = ROWS[r["row"]]
        log = r["log"] or {}
        timers = log.get("timers", {})
        solves = None
        if r["log"]:
            solves = f"{len(log['linear']) + log['failed_solves']}" + (
                f"({log['failed_solves']})" if log["failed_solves"] else "")
        peer_name, peer_time, remark = spec["peer"]
        ratio = r["wall"] / peer_time if (r["wall"] and peer_time and r["status"] == "ok") else None
        for i, (label, _, _, unit, peer) in enumerate(spec["answer"]):
            value = r["answer"].get(label)
            # Only a finished run has an answer to compare (a stopped one shows its last CSV row).
            rel = ((value - peer) / abs(peer) if (value is not None and peer is not None and r["status"] == "ok")
                   else None)
            ans = f"{label} {fmt(value, '.6g')}"
            ref = f"{fmt(peer, '.6g')}" if peer is not None else "-"
            if i == 0:
                print(f"{r['row']:<13} {fmt(log.get('dofs'), 'd'):>7} {fmt(log.get('steps'), 'd'):>5} "
                      f"{fmt(log.get('newton'), 'd'):>6} {solves or '-':>7} {fmt(log.get('cut_backs'), 'd'):>4} "
                      f"{fmt(timers.get('assembly'), '.1f'):>6} {fmt(timers.get('preconditioner setup'), '.1f'):>6} "
                      f"{fmt(timers.get('linear solve'), '.1f'):>6} {fmt(timers.get('setup'), '.1f'):>5} "
                      f"{fmt(r['wall'], '.1f'):>6} {fmt(r['rss_mib'], '.0f'):>6} {fmt(r['t_end'], '.3g'):>5} "
                      f"{ans:>13} {ref:>11} {fmt(rel, '+.1e'):>8} {fmt(peer_time, 'g'):>6} {fmt(ratio, '.1f'):>7}"
                      f"  {r['status']}", file=out)
            else:
                print(f"{'':<13} {'':>7} {'':>5} {'':>6} {'':>7} {'':>4} {'':>6} {'':>6} {'':>6} {'':>5} {'':>6} "
                      f"{'':>6} {'':>5} {ans:>13} {ref:>11} {fmt(rel, '+.1e'):>8}", file=out)
        unit = spec["answer"][0][3]
        note = f"{r['row']}: answer in {unit}; peer {peer_name}" + (f" ({remark})" if remark else "")
        if r["status"] not in ("ok", "not run"):
            note += f"; {r['status']} at t = {fmt(r['t_end'], '.4g')} (answer: last CSV row)"
        if r.get("reason"):
            note += f"; last error line: {r['reason']}"
        notes.append(note)
    for note in notes:
        print("  " + note, file=out)


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("peers: terminated"))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", nargs="+", default=QUICK, choices=list(ROWS),
                        help=f"rows to run (default: {' '.join(QUICK)})")
    parser.add_argument("--hydrostat", default=str(REPO / "build" / "hydrostat"), help="the executable")
    parser.add_argument("--out", type=Path, default=Path("/tmp/hydrostat-peers"),
                        help="run directories OUT/<row>/ (default /tmp/hydrostat-peers)")
    parser.add_argument("--ranks", type=int, default=2, help="MPI ranks (default 2)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per run before it is killed (default 900)")
    parser.add_argument("--nice", type=int, default=0, help="niceness of the runs (default 0)")
    parser.add_argument("--from-logs", action="store_true", help="only print the table from existing run directories")
    args = parser.parse_args()
    args.out = args.out.resolve()

    if not args.from_logs:
        if not Path(args.hydrostat).exists():
            sys.exit(f"peers: no executable {args.hydrostat} (build it or give --hydrostat)")
        for row in args.rows:
            print(f"running {row} ...", flush=True)
            status, wall = run_row(args, row, args.out / row)
            print(f"  {status}, {wall:.1f} s", flush=True)
    results = [parse_run(row, args.out / row) for row in args.rows]
    print_table(results, sys.stdout)
    args.out.mkdir(parents=True, exist_ok=True)
    with open(args.out / "peers.txt", "w") as f:
        print_table(results, f)


if __name__ == "__main__":
    main()
