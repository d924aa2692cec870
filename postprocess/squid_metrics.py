#!/usr/bin/env python3
"""Squid tentacle strike: the measured quantities of Kier & Van Leeuwen 1997 from a Hydrostat run.

Usage: python3 postprocess/squid_metrics.py OUTPUT_DIR [--stalk-length 0.05314] [--plot]

Reads OUTPUT_DIR/squid.csv written by parameters/squid_extension*.prm, whose probe points are
p0 = club tip (0, 0, 0.093), p1 = stalk end (0, 0, 0.05314), p2 = mid-stalk. Times are measured
from the onset of motion (tip speed first above 1 % of its maximum). Prints each quantity next to
the measured envelope (data/squid/kier1997_envelope.md) and, with --plot, writes
squid_length.png, squid_speed.png and squid_acceleration.png with the envelope drawn on them.
"""
import argparse
import csv
import os
import sys

import numpy as np

ENVELOPE = {
    "peak stalk strain": (0.43, 0.80, ""),
    "time to peak strain [s]": (0.020, 0.040, ""),
    "peak tip speed [m/s]": (2.0, None, ""),
    "peak tip acceleration [m/s^2]": (None, None, "~250"),
    "peak stalk strain rate [1/s]": (23.0, 45.0, ""),
}


def load(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        sys.exit(f"{path}: no data rows")
    return {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}


def metrics(data, stalk_length):
    t = data["time"]
    tip_z = data["p0_z"]
    stalk_end_z = data["p1_z"]
    speed = data["p0_vz"]
    strain = stalk_end_z / stalk_length - 1.0
    acceleration = np.gradient(speed, t)
    strain_rate = np.gradient(strain, t)
    moving = np.nonzero(np.abs(speed) > 0.01 * np.max(np.abs(speed)))[0]
    onset = t[moving[0]] if len(moving) else 0.0
    k_peak = int(np.argmax(strain))
    reach = tip_z - tip_z[0]
    k_reach = np.nonzero(reach >= 0.037)[0]
    return {
        "onset of motion [s]": onset,
        "peak stalk strain": strain[k_peak],
        "time to peak strain [s]": t[k_peak] - onset,
        "time to 37 mm extra reach [s]": (t[k_reach[0]] - onset) if len(k_reach) else float("nan"),
        "peak tip speed [m/s]": np.max(speed),
        "peak tip acceleration [m/s^2]": np.max(acceleration),
        "peak stalk strain rate [1/s]": np.max(strain_rate),
        "final stalk strain": strain[-1],
    }, (t - onset, strain, speed, acceleration)


def verdict(name, value):
    if name not in ENVELOPE:
        return ""
    low, high, text = ENVELOPE[name]
    if text:
        return f"measured {text}"
    inside = (low is None or value >= low) and (high is None or value <= high)
    band = f"{low}-{high}" if high is not None else f"> {low}"
    return f"measured {band}: {'inside' if inside else 'OUTSIDE'}"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("output_dir")
    parser.add_argument("--stalk-length", type=float, default=0.05314)
    parser.add_argument("--plot", action="store_true")
    args = parser.parse_args()
    path = os.path.join(args.output_dir, "squid.csv")
    if not os.path.exists(path):
        sys.exit(f"{path} not found: run hydrostat on a squid_extension*.prm case first")
    data = load(path)
    values, (t, strain, speed, acceleration) = metrics(data, args.stalk_length)
    for name, value in values.items():
        if name.startswith("time to 37 mm") and not np.isfinite(value):
            # The run ended (or the tip stopped) before the measured reach.
            reach = 1e3 * (data["p0_z"].max() - data["p0_z"][0])
            print(f"{name:32s} {'not reached':>10s}   (largest extra reach {reach:.1f} mm)")
            continue
        print(f"{name:32s} {value:10.4g}   {verdict(name, value)}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        for name, y, label, band in [
            ("length", 1 + strain, "stalk length / rest length", (1.43, 1.80)),
            ("speed", speed, "club tip speed [m/s]", (2.0, None)),
            ("acceleration", acceleration, "club tip acceleration [m/s$^2$]", None),
        ]:
            fig, ax = plt.subplots(figsize=(6, 4))
            ax.plot(1e3 * t, y, label="Hydrostat")
            if band:
                top = band[1] if band[1] else max(np.max(y), band[0]) * 1.1
                ax.axhspan(band[0], top, color="tab:green", alpha=0.2, label="Kier & Van Leeuwen 1997")
            if name == "length":
                ax.axvspan(20, 40, color="tab:orange", alpha=0.15, label="extension in 20-40 ms")
            if name == "acceleration":
                ax.axhline(250, color="tab:green", ls="--", label="measured ~250 m/s$^2$")
            ax.set_xlabel("time from onset of motion [ms]")
            ax.set_ylabel(label)
            ax.legend()
            ax.grid(alpha=0.3)
            fig.tight_layout()
            out = os.path.join(args.output_dir, f"squid_{name}.png")
            fig.savefig(out, dpi=120)
            print("wrote", out)


if __name__ == "__main__":
    main()
