#!/usr/bin/env python3
"""Model vs published piglet curves (Kleinbach et al. 2017) for the hydrostat-hill CSV output.

Usage: python3 postprocess/plot_hill.py <csv dir> <out dir> [<published data dir>]
The published data dir defaults to <repo>/data/hill/piglet_kleinbach2017.
Writes PNGs and prints the errors measured against the published curves:
isometric max |F_model - F_published| over each published curve, activity errors,
concentric peak shortening velocity and its time after lift-off, quick-release force at release
and peak velocity of the first shortening excursion.
"""
import os
import sys

import numpy as np
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

LENGTHS = ["h085", "h088", "h091", "h094", "h100", "h103", "h108", "h110"]
CONCENTRIC = ["100g", "200g", "400g", "600g", "800g", "1400g", "1800g"]
RELEASE = ["200g", "400g", "600g", "800g", "1000g", "1500g"]
T_RELEASE = 1.0


def load_csv(path):
    return np.genfromtxt(path, delimiter=",", names=True)


def load_dat(path):
    return np.loadtxt(path, skiprows=1)


def isometric(csv_dir, data_dir, out_dir, model):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    fig_q, ax_q = plt.subplots(figsize=(8, 5.5))
    for i, case in enumerate(LENGTHS):
        path = os.path.join(csv_dir, f"isometric_{model}_{case}.csv")
        if not os.path.exists(path):
            continue
        sim = load_csv(path)
        ref = load_dat(os.path.join(data_dir, "activationdynamics", f"isometric_piglet_{model}_{case}_force.dat"))
        mask = ref[:, 0] <= sim["t"][-1]
        err = np.abs(np.interp(ref[mask, 0], sim["t"], sim["F_MTC"]) - ref[mask, 1])
        print(f"isometric {model} {case}: max |F - F_pub| = {1e3 * err.max():.3f} mN at t = {ref[mask, 0][err.argmax()]:.4f} s")
        color = f"C{i}"
        ax.plot(ref[:, 0], ref[:, 1], color=color, lw=3, alpha=0.35)
        ax.plot(sim["t"], sim["F_MTC"], color=color, lw=1, label=f"{case} (max err {1e3 * err.max():.2f} mN)")
        qfile = os.path.join(data_dir, "activationdynamics", f"isometric_piglet_{model}_{case}_activationlevel.dat")
        if os.path.exists(qfile):
            qref = load_dat(qfile)
            mask = qref[:, 0] <= sim["t"][-1]
            qerr = np.abs(np.interp(qref[mask, 0], sim["t"], sim["q"]) - qref[mask, 1]).max()
            print(f"isometric {model} {case}: max |q - q_pub| = {qerr:.2e}")
            ax_q.plot(qref[:, 0], qref[:, 1], color=color, lw=3, alpha=0.35)
            ax_q.plot(sim["t"], sim["q"], color=color, lw=1, label=f"{case} (max err {qerr:.1e})")
    for a, f, name, ylabel in ((ax, fig, "force", "F_MTC [N]"), (ax_q, fig_q, "activity", "activity q [-]")):
        a.set_xlabel("t [s]")
        a.set_ylabel(ylabel)
        a.set_title(f"Piglet isometric, {model.capitalize()}: model (thin) vs published (thick, pale)")
        if a.lines:
            a.legend(fontsize=8)
            f.savefig(os.path.join(out_dir, f"isometric_{model}_{name}.png"), dpi=110)
        plt.close(f)


def lift_off_index(sim):
    """Last sample at rest on the support before the mass moves (the published t = 0)."""
    moving = np.nonzero(sim["dl_MTC"] != 0.0)[0]
    return max(moving[0] - 1, 0)


def concentric(csv_dir, data_dir, out_dir):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for i, case in enumerate(CONCENTRIC):
        path = os.path.join(csv_dir, f"concentric_{case}.csv")
        if not os.path.exists(path):
            continue
        sim = load_csv(path)
        ref = load_dat(os.path.join(data_dir, "concentric", f"concentric_piglet_{case}.dat"))
        k = lift_off_index(sim)
        t = sim["t"][k:] - sim["t"][k]
        v = -sim["dl_MTC"][k:]
        j, jr = v.argmax(), ref[:, 1].argmax()
        ev = 100 * (v[j] / ref[jr, 1] - 1)
        et = 100 * (t[j] / ref[jr, 0] - 1)
        print(f"concentric {case}: lift-off {sim['t'][k]:.4f} s, v_peak {v[j]:.6f} (pub {ref[jr, 1]:.6f}, {ev:+.3f} %), "
              f"t_peak {t[j]:.4f} s (pub {ref[jr, 0]:.4f}, {et:+.3f} %)")
        ax.plot(ref[:, 0], ref[:, 1], color=f"C{i}", lw=3, alpha=0.35)
        ax.plot(t, v, color=f"C{i}", lw=1, label=f"{case}: peak {ev:+.2f} %")
    ax.set_xlim(0, 0.4)
    ax.set_xlabel("t after lift-off [s]")
    ax.set_ylabel("shortening velocity [m/s]")
    ax.set_title("Piglet concentric (Zajac): model (thin) vs published (thick, pale)")
    ax.legend(fontsize=8)
    fig.savefig(os.path.join(out_dir, "concentric_velocity.png"), dpi=110)
    plt.close(fig)


def first_excursion(sim):
    """Samples from the release to the end of the first shortening excursion."""
    k = np.nonzero(sim["t"] <= T_RELEASE + 1e-12)[0][-1]
    v = -sim["dl_MTC"]
    end = k + 1
    while end < len(v) and (v[end] > 0 or end == k + 1):
        end += 1
    return k, slice(k, end)


def quick_release(csv_dir, data_dir, out_dir):
    fig, ax = plt.subplots(figsize=(8, 5.5))
    for i, case in enumerate(RELEASE):
        path = os.path.join(csv_dir, f"quick_release_{case}.csv")
        if not os.path.exists(path):
            continue
        sim = load_csv(path)
        ref = load_dat(os.path.join(data_dir, "quickrelease", f"quickrelease_piglet_{case}.dat"))
        k, s = first_excursion(sim)
        v = -sim["dl_MTC"][s]
        F = sim["F_MTC"][s]
        eF = 100 * (sim["F_MTC"][k] / ref[0, 1] - 1)
        ev = 100 * (v.max() / ref[:, 0].max() - 1)
        print(f"quick release {case}: F_release {sim['F_MTC'][k]:.4f} N (pub {ref[0, 1]:.4f}, {eF:+.4f} %), "
              f"v_peak {v.max():.4f} (pub {ref[:, 0].max():.4f}, {ev:+.3f} %)")
        ax.plot(ref[:, 0], ref[:, 1], "o", color=f"C{i}", alpha=0.4)
        ax.plot(v, F, color=f"C{i}", lw=1, label=f"{case}: v_peak {ev:+.2f} %")
    ax.set_xlabel("shortening velocity [m/s]")
    ax.set_ylabel("F_MTC [N]")
    ax.set_title("Piglet quick release (Zajac): model (lines) vs published (dots)")
    ax.legend(fontsize=8)
    fig.savefig(os.path.join(out_dir, "quick_release_force_velocity.png"), dpi=110)
    plt.close(fig)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    csv_dir, out_dir = sys.argv[1], sys.argv[2]
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    data_dir = sys.argv[3] if len(sys.argv) == 4 else os.path.join(repo, "data", "hill", "piglet_kleinbach2017")
    if not os.path.isdir(data_dir):
        sys.exit(f"published data not found in {data_dir}")
    os.makedirs(out_dir, exist_ok=True)
    for model in ("zajac", "hatze"):
        isometric(csv_dir, data_dir, out_dir, model)
    concentric(csv_dir, data_dir, out_dir)
    quick_release(csv_dir, data_dir, out_dir)


if __name__ == "__main__":
    main()
