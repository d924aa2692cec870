#!/usr/bin/python3
"""Quasi-1D model of the squid tentacle strike (issue 13): a cross-check of parameters/squid_extension.prm.

The stalk is a stack of N incompressible discs along z (reference length L, radius R, area
A0 = pi R^2), base node fixed, the club a rigid lumped mass at the tip node. Each disc deforms
homogeneously, F = diag(a, a, lam) with a = lam^(-1/2) (volume conserved: r = R / sqrt(lam)).
With the same constitutive assumptions as the 3D case file:

  * connective tissue over the whole section: incompressible Mooney-Rivlin (c1, c2), whose
    uniaxial energy W = c1 (lam^2 + 2/lam - 3) + c2 (2 lam + lam^-2 - 3) gives the nominal stress
    dW/dlam = 2 c1 (lam - lam^-2) + 2 c2 (1 - lam^-3);
  * longitudinal muscle, share phi_L of the section, never activated: the passive fibre stress
    sigma_pass(lam - 1) of theory.md eq. (24) along the axis;
  * transverse muscle, share phi_T, two fibre families (x and y) each of stretch a and rate
    a' = -1/2 lam^(-3/2) lam': sigma_t = sigma_pass(a - 1) + sigma_max fa(t) fl(a - 1) fv(a'),
    theory.md eqs. (20)-(27) with the same lmyo(Z), l0(Z) gradients, kink bridges (h = 0.005)
    and activation fa(t) = [1/2 (1 + sin(pi t/ta - pi/2))]^n (ta = 40 ms, n = 3.5).

Virtual work of a disc (per reference volume): P:dF = dW/dlam dlam + phi_L sigma_pass dlam
+ 2 phi_T sigma_t da, and da = -1/2 lam^(-3/2) dlam, so the disc behaves like a bar with the
nominal axial stress

  P(lam, lam') = 2 c1 (lam - lam^-2) + 2 c2 (1 - lam^-3) + phi_L sigma_pass(lam - 1)
                 - phi_T lam^(-3/2) sigma_t(a - 1, a')                                       (Q1)

(the transverse stress squeezing the disc acts as an axial *compression* of the bar's internal
force, i.e. it pushes the ends apart). Nodes z_0 = 0 (fixed), z_1..z_N, disc e between z_e and
z_(e+1), lam_e = (z_(e+1) - z_e)/h; lumped masses m_j = rho A0 h (m_N = rho A0 h/2 + M_club):

  m_j z_j'' = A0 (P_j - P_(j-1)),   j = 1..N,   P_N := -F_tip/A0 (F_tip = 0 in the strike)  (Q2)

Time integration: Newmark's average-acceleration rule (beta = 1/4, gamma = 1/2, the 3D run's),
implicit, Newton with the exact tangent of (Q1) on the tridiagonal system at each step (the
force-velocity law makes the disc a stiff damper: an explicit step would need dt < 1e-7 s).
Radial kinetic energy, 1/4 rho0 pi R^4 h a'^2 per disc, is neglected (at most 0.05 % of the axial one
during the strike).

Usage (from the repository root):
  /usr/bin/python3 postprocess/squid_quasi1d.py                      # 1D metrics vs envelope
  /usr/bin/python3 postprocess/squid_quasi1d.py --3d output/squid_extension   # + the 3D run's CSV
  /usr/bin/python3 postprocess/squid_quasi1d.py --sensitivity        # +-20 % table
  /usr/bin/python3 postprocess/squid_quasi1d.py --convergence        # time step and disc count
  /usr/bin/python3 postprocess/squid_quasi1d.py --3d DIR --plot doc/figures   # figures
  /usr/bin/python3 postprocess/squid_quasi1d.py --check              # the ctest: closed forms, dt convergence
  /usr/bin/python3 postprocess/squid_quasi1d.py --rise-time --3d DIR1 --3d DIR2 ... [--plot doc/figures]
                          # anatomical 3D runs at several rise times against 1D at the anatomical shares
"""
import argparse
import math
import os
import sys
import time
from dataclasses import dataclass, replace

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import squid_metrics  # noqa: E402

# Van Leeuwen & Kier (1997) constants as coded in include/hydrostat/muscle/van_leeuwen_kier.h.
LBZ, LZ, DACT, DMYO, CMYO, KFV = 0.14, 0.06, 0.68, 1.90, 0.44, 0.25
C1P, C2P, C3P, C4P, EPS_T = 887.4e3, 2.2605, 1450e3, -625e3, 0.773


@dataclass(frozen=True)
class Squid:
    """The assumptions of parameters/squid_extension.prm (SI units, filament lengths in um)."""
    stalk_length: float = 0.05314
    radius: float = 0.0037
    club_length: float = 0.03986
    club_mass: float = None           # None: rho A0 club_length (1.800 g, the 3D club)
    density: float = 1050.0
    c1: float = 2e3
    c2: float = 0.0
    transverse_share: float = 0.84**2  # core r < 0.84 R
    longitudinal_share: float = None   # None: 1 - transverse_share (the annulus)
    rise_time: float = 0.04
    exponent: float = 3.5
    lmyo_base: float = 0.97
    lmyo_drop: float = 0.47            # lmyo(Z) = lmyo_base - gradient_scale lmyo_drop Z/L
    l0_base: float = 1.34
    l0_drop: float = 0.61
    gradient_scale: float = 1.0
    kink_smoothing: float = 0.005
    active: bool = True
    constant_transverse_stress: float = None  # closed-form check: sigma_t = T, no fl, fv, passive
    gradient_length: float = 0.05314   # Z/L of the lmyo, l0 fields and the probe p1 of the 3D case

    @property
    def area(self):
        return math.pi * self.radius**2

    @property
    def phi_l(self):
        return 1.0 - self.transverse_share if self.longitudinal_share is None else self.longitudinal_share

    @property
    def m_club(self):
        return self.density * self.area * self.club_length if self.club_mass is None else self.club_mass


# --- Van Leeuwen-Kier law, vectorised over discs (theory.md eqs. (20)-(26)) -----------------------

def _hermite(x, x0, v0, s0, x1, v1, s1):
    H = x1 - x0
    t = (x - x0) / H
    t2, t3 = t * t, t * t * t
    value = (2 * t3 - 3 * t2 + 1) * v0 + (t3 - 2 * t2 + t) * H * s0 + (3 * t2 - 2 * t3) * v1 + (t3 - t2) * H * s1
    slope = (6 * t2 - 6 * t) * (v0 - v1) / H + (3 * t2 - 4 * t + 1) * s0 + (3 * t2 - 2 * t) * s1
    return value, slope


def _smooth_kinks(x, kinks, h, raw):
    """PCHIP bridges of half-width h over each kink (kinks: list of arrays broadcastable to x)."""
    value, slope = raw(x)
    if h <= 0:
        return value, slope
    for xk in kinks:
        xk = np.broadcast_to(xk, x.shape)
        inside = np.abs(x - xk) < h
        if not inside.any():
            continue
        vl, sl = raw(xk - h)
        vr, sr = raw(xk + h)
        fk, _ = raw(xk)
        dl, dr = (fk - vl) / h, (vr - fk) / h
        prod = dl * dr
        mid = np.where(prod > 0, 2 * prod / np.where(prod > 0, dl + dr, 1.0), 0.0)
        lv, ls = _hermite(x, xk - h, vl, sl, xk, fk, mid)
        rv, rs = _hermite(x, xk, fk, mid, xk + h, vr, sr)
        left = x < xk
        value = np.where(inside, np.where(left, lv, rv), value)
        slope = np.where(inside, np.where(left, ls, rs), slope)
    return value, slope


def passive_stress(e):
    """sigma_pass and its slope (theory.md eq. (24))."""
    e = np.asarray(e, dtype=float)
    pos = np.maximum(e, 1e-300)
    power = np.where(e > 0, C1P * pos ** (C2P - 1.0), 0.0)
    low = e < EPS_T
    value = np.where(e <= 0, 0.0, np.where(low, power * e, C3P * e + C4P))
    slope = np.where(e <= 0, 0.0, np.where(low, C2P * power, C3P))
    return value, slope


class VanLeeuwenKier:
    def __init__(self, lmyo, l0, h):
        lmyo, l0 = np.asarray(lmyo, float), np.asarray(l0, float)
        lact = l0 - LZ - 0.5 * LBZ
        lm = lmyo - LBZ
        if np.any(lm <= 0) or np.any(lmyo >= lact):
            raise ValueError("Van Leeuwen-Kier: need lbz < lmyo < lact along the whole stalk")
        self.sigma_max = 280e3 * lm / (1.58 - LBZ)
        self.rate_min = -17.0 * 2.37 / l0
        self.h = h
        self.slope = np.stack([l0 * (DACT + DMYO + CMYO) / lm, l0 * DACT / lm, 0 * l0, -l0 / lm], axis=-1)
        k1 = (lmyo + LZ) / l0 - 1
        k2 = (lact + LZ) / l0 - 1
        k3 = (lact + LBZ + LZ) / l0 - 1
        k4 = (lmyo + lact + LZ) / l0 - 1
        f1 = 1 - self.slope[..., 1] * (k2 - k1)
        if np.any(f1 <= 0):
            raise ValueError("Van Leeuwen-Kier: fl vanishes on ascending limb 1")
        k0 = k1 - f1 / self.slope[..., 0]
        self.kink = np.stack([k0, k1, k2, k3, k4], axis=-1)
        self.fl_at = np.stack([0 * k0, f1, 1 + 0 * k0, 1 + 0 * k0, 0 * k0], axis=-1)

    def _raw_fl(self, e):
        value = np.zeros_like(e)
        slope = np.zeros_like(e)
        for k in range(4):
            m = (e >= self.kink[..., k]) & (e < self.kink[..., k + 1])
            value = np.where(m, self.fl_at[..., k] + self.slope[..., k] * (e - self.kink[..., k]), value)
            slope = np.where(m, self.slope[..., k], slope)
        return value, slope

    @staticmethod
    def _raw_fv(r):
        q_s = 1 + np.maximum(r, 0) / KFV
        q_l = 1 - 7.56 * np.minimum(r, 0) / KFV
        value = np.where(r >= 1, 0.0, np.where(r >= 0, (1 - r) / q_s, 1.8 - 0.8 * (1 + r) / q_l))
        slope = np.where(r >= 1, 0.0, np.where(r >= 0, -(1 + 1 / KFV) / q_s**2, -0.8 * (1 + 7.56 / KFV) / q_l**2))
        return value, slope

    def fl(self, e):
        return _smooth_kinks(e, [self.kink[..., k] for k in range(5)], self.h, self._raw_fl)

    def fv(self, rate):
        """fv and dfv/d(rate) [s]; rate = fibre strain rate, r = rate/rate_min > 0 shortening."""
        v, s = _smooth_kinks(rate / self.rate_min, [0.0, 1.0], self.h, self._raw_fv)
        return v, s / self.rate_min


def activation(t, sq):
    if t <= 0:
        return 0.0
    if t >= sq.rise_time:
        return 1.0
    return (0.5 * (1 + math.sin(math.pi * t / sq.rise_time - math.pi / 2))) ** sq.exponent


# --- The disc stack ---------------------------------------------------------------------------

class DiscStack:
    def __init__(self, sq, n_discs):
        self.sq, self.n = sq, n_discs
        self.h = sq.stalk_length / n_discs
        zc = (np.arange(n_discs) + 0.5) * self.h / sq.gradient_length  # disc centres, Z/L
        g = sq.gradient_scale
        self.muscle = VanLeeuwenKier(sq.lmyo_base - g * sq.lmyo_drop * zc, sq.l0_base - g * sq.l0_drop * zc,
                                     sq.kink_smoothing)
        self.mass = np.full(n_discs, sq.density * sq.area * self.h)
        self.mass[-1] = 0.5 * sq.density * sq.area * self.h + sq.m_club

    def axial_stress(self, lam, lam_dot, fa):
        """P of (Q1) and its partial derivatives in lam and lam'."""
        sq = self.sq
        P = 2 * sq.c1 * (lam - lam**-2) + 2 * sq.c2 * (1 - lam**-3)
        dP = 2 * sq.c1 * (1 + 2 * lam**-3) + 6 * sq.c2 * lam**-4
        sp, dsp = passive_stress(lam - 1)
        P = P + sq.phi_l * sp
        dP = dP + sq.phi_l * dsp
        a = lam**-0.5
        da = -0.5 * lam**-1.5          # da/dlam
        d2a = 0.75 * lam**-2.5         # d2a/dlam2
        a_dot = da * lam_dot
        if sq.constant_transverse_stress is not None:
            sig = np.full_like(lam, sq.constant_transverse_stress)
            ds_de = ds_dr = np.zeros_like(lam)
        else:
            spt, dspt = passive_stress(a - 1)
            sig, ds_de, ds_dr = spt, dspt, np.zeros_like(lam)
            if sq.active and fa > 0:
                fl, dfl = self.muscle.fl(a - 1)
                fv, dfv = self.muscle.fv(a_dot)
                smax = self.muscle.sigma_max
                sig = sig + smax * fa * fl * fv
                ds_de = ds_de + smax * fa * dfl * fv
                ds_dr = smax * fa * fl * dfv
        # transverse part: 2 phi_T sigma_t da/dlam (two families, virtual work)
        phi = 2 * sq.transverse_share
        P = P + phi * sig * da
        dP = dP + phi * ((ds_de * da + ds_dr * d2a * lam_dot) * da + sig * d2a)
        dPv = phi * ds_dr * da * da
        return P, dP, dPv

    def forces(self, z, v, fa, tip_force=0.0):
        """Nodal forces of (Q2) and the element tangents A0 dP/dlam / h, A0 dP/dlam' / h."""
        A0, h = self.sq.area, self.h
        lam = np.diff(np.concatenate(([0.0], z))) / h
        lam_dot = np.diff(np.concatenate(([0.0], v))) / h
        if np.any(lam <= 0):
            raise FloatingPointError("a disc inverted")
        P, dP, dPv = self.axial_stress(lam, lam_dot, fa)
        f = A0 * (np.append(P[1:], 0.0) - P)
        f[-1] += tip_force
        return f, A0 * dP / h, A0 * dPv / h, lam

    @staticmethod
    def tridiagonal(k):
        """Assembled -df/dz for element tangents k (node 0 removed) as a dense matrix."""
        diag = k + np.append(k[1:], 0.0)
        return np.diag(diag) - np.diag(k[1:], 1) - np.diag(k[1:], -1)


def simulate(sq, n_discs=50, dt=2.5e-4, t_end=0.1, output_interval=5e-4, tip_force=0.0, keep_field=False):
    """Newmark (1/4, 1/2) in time. Returns a dict like the 3D run's squid.csv (time, p0_z, p1_z,
    p0_vz) sampled every output_interval, plus 'newton' (total iterations)."""
    stack = DiscStack(sq, n_discs)
    per_output = int(round(output_interval / dt))
    if abs(per_output * dt - output_interval) > 1e-12 * output_interval:
        raise ValueError("the output interval must be a multiple of dt")
    n_steps = int(round(t_end / dt))
    z = (np.arange(1, n_discs + 1)) * stack.h
    v = np.zeros(n_discs)
    f, _, _, _ = stack.forces(z, v, activation(0.0, sq), tip_force)
    acc = f / stack.mass
    scale = sq.area * max(np.max(stack.muscle.sigma_max), 6 * sq.c1)
    rows, fields, newton = [], [], 0

    # probe p1 at Z = gradient_length (the 3D case's stalk end; inside the stalk if it is longer)
    j = min(int(sq.gradient_length / stack.h + 1e-9), n_discs - 1)
    w = sq.gradient_length / stack.h - j
    zf = lambda q: np.concatenate(([0.0], q))  # noqa: E731

    def record(t):
        p1, v1 = (1 - w) * zf(z)[j] + w * zf(z)[j + 1], (1 - w) * zf(v)[j] + w * zf(v)[j + 1]
        rows.append((t, z[-1] + sq.club_length, p1, v[-1], v1))
        if keep_field:
            fields.append(np.diff(np.concatenate(([0.0], z))) / stack.h)

    record(0.0)
    for step in range(1, n_steps + 1):
        t = step * dt
        fa = activation(t, sq)
        z_new = z + dt * v + 0.25 * dt * dt * acc  # predictor: a(n+1) = a(n)
        dz = np.full(n_discs, np.inf)
        for it in range(50):
            a_new = 4 / dt**2 * (z_new - z - dt * v) - acc
            v_new = 2 / dt * (z_new - z) - v
            f, k, c, _ = stack.forces(z_new, v_new, fa, tip_force)
            r = stack.mass * a_new - f
            if it > 0 and (np.max(np.abs(r)) < 1e-10 * scale or np.max(np.abs(dz)) < 1e-12 * sq.stalk_length):
                break
            J = np.diag(stack.mass * 4 / dt**2) + stack.tridiagonal(k + 2 / dt * c)
            dz = np.linalg.solve(J, r)
            z_new = z_new - dz
            newton += 1
        else:
            raise RuntimeError(f"Newton did not converge at t = {t}")
        z, v, acc = z_new, v_new, a_new
        if step % per_output == 0:
            record(t)
    data = {k: np.array(c) for k, c in zip(("time", "p0_z", "p1_z", "p0_vz", "p1_vz"), zip(*rows))}
    data["newton"] = newton
    if keep_field:
        data["stretch"] = np.array(fields)
    return data


def static_stretch(sq, n_discs=20, tip_force=0.0, increments=20):
    """Static equilibrium of (Q2) without inertia (load in increments, Newton): the disc stretches."""
    stack = DiscStack(sq, n_discs)
    z = np.arange(1, n_discs + 1) * stack.h
    v = np.zeros(n_discs)
    fa = 1.0 if sq.active else 0.0
    target = sq.constant_transverse_stress
    for i in range(1, increments + 1):
        s = i / increments
        load = replace(sq, constant_transverse_stress=None if target is None else s * target)
        stack.sq = load
        for _ in range(100):
            f, k, _, _ = stack.forces(z, v, fa, s * tip_force)
            if np.max(np.abs(f)) < 1e-12 * sq.area * max(abs(target or 0), abs(tip_force) / sq.area, sq.c1):
                break
            dz = np.linalg.solve(stack.tridiagonal(k), f)
            z = z + dz
        else:
            raise RuntimeError("static Newton did not converge")
    return np.diff(np.concatenate(([0.0], z))) / stack.h


# --- The 3D mesh's layer shares -------------------------------------------------------------------

def _vtu_points(path):
    """Reference points of a deal.II .vtu (zlib-compressed base64, Float32 points)."""
    import base64
    import re
    import struct
    import zlib
    text = open(path).read()
    block = re.search(r"<Points>\s*<DataArray[^>]*>\s*([^<]+)", text).group(1).strip()
    n_blocks = struct.unpack("<I", base64.b64decode(block[:8])[:4])[0]
    header_chars = 4 * ((12 + 4 * n_blocks + 2) // 3)
    header = base64.b64decode(block[:header_chars])
    sizes = struct.unpack(f"<{n_blocks}I", header[12:12 + 4 * n_blocks])
    raw, data, offset = b"", base64.b64decode(block[header_chars:]), 0
    for size in sizes:
        raw += zlib.decompress(data[offset:offset + size])
        offset += size
    return np.frombuffer(raw, dtype=np.float32).reshape(-1, 3).astype(float)


def mesh_transverse_share(output_dir, sq=Squid()):
    """Share of the stalk's 2x2x2 Gauss points (volume-weighted, trilinear map of each hexahedron, as
    the Q1 run assigns groups) with r < 0.84 R, from the step-0 .vtu files of a 3D run (one patch of 8
    vertices per cell, reference = current at t = 0). None if the files are not there."""
    import glob
    files = sorted(glob.glob(os.path.join(output_dir, "*_00000.*.vtu")))
    if not files:
        return None
    cells = np.concatenate([_vtu_points(f) for f in files]).reshape(-1, 8, 3)
    g = np.array([0.5 - 0.5 / math.sqrt(3), 0.5 + 0.5 / math.sqrt(3)])
    q = np.array([[x, y, z] for z in g for y in g for x in g])            # (8, 3) Gauss points
    corner = np.array([[i, j, k] for k in (0, 1) for j in (0, 1) for i in (0, 1)], float)  # lexicographic
    shape = np.prod(np.where(corner[None] == 1, q[:, None], 1 - q[:, None]), axis=2)     # (8 q, 8 v)
    dshape = np.empty((8, 8, 3))
    for d in range(3):
        factors = np.where(corner[None] == 1, q[:, None], 1 - q[:, None])
        factors[..., d] = np.where(corner[None, :, d] == 1, 1.0, -1.0)
        dshape[..., d] = np.prod(factors, axis=2)
    x = np.einsum("qv,cvi->cqi", shape, cells)
    jac = np.abs(np.linalg.det(np.einsum("qvd,cvi->cqid", dshape, cells)))
    centre_z = cells[:, :, 2].mean(axis=1)
    stalk = (centre_z < sq.gradient_length)[:, None] & np.ones((1, 8), bool)  # material id at the cell centre
    core = np.hypot(x[..., 0], x[..., 1]) < 0.84 * sq.radius
    return float(np.sum(jac * (stalk & core)) / np.sum(jac * stalk)), float(cells[centre_z < sq.gradient_length][:, :, 2].max())


# --- Metrics ------------------------------------------------------------------------------------

COLUMNS = [("peak stalk strain", "peak strain", 100, "%"),
           ("time to peak strain [s]", "time to peak strain", 1e3, "ms"),
           ("peak tip speed [m/s]", "peak tip speed", 1, "m/s"),
           ("peak tip acceleration [m/s^2]", "peak tip acceleration", 1, "m/s²"),
           ("peak stalk strain rate [1/s]", "peak strain rate", 1, "1/s"),
           ("max extra reach [m]", "max extra reach", 1e3, "mm"),
           ("onset of motion [s]", "onset of motion", 1e3, "ms"),
           ("peak stalk-end speed [m/s]", "peak stalk-end speed", 1, "m/s")]
ENVELOPE_TEXT = {"peak stalk strain": "43–80 %", "time to peak strain [s]": "20–40 ms",
                 "peak tip speed [m/s]": "> 2 m/s", "peak tip acceleration [m/s^2]": "≈ 250 m/s²",
                 "peak stalk strain rate [1/s]": "23–45 s⁻¹", "max extra reach [m]": "≈ 37 mm",
                 "onset of motion [s]": "", "peak stalk-end speed [m/s]": ""}


def measure(data, stalk_length=0.05314):
    """The metrics of postprocess/squid_metrics.py (same function) plus the largest extra reach."""
    values, curves = squid_metrics.metrics(data, stalk_length)
    values["max extra reach [m]"] = float(np.max(data["p0_z"] - data["p0_z"][0]))
    values["peak stalk-end speed [m/s]"] = float(np.max(data["p1_vz"]))
    return values, curves


def fmt(value, scale):
    return "—" if not np.isfinite(value) else f"{value * scale:.3g}"


def print_comparison(one, runs, label="quasi-1D"):
    """One column for the 1D model, then each 3D run with the 1D model's relative difference."""
    head = f"| quantity | {label} | " + " | ".join(f"3D {name} | 1D vs 3D" for name, _ in runs) + " | measured |"
    print(head)
    print("|---|---|" + "---|---|" * len(runs) + "---|")
    for key, name, scale, unit in COLUMNS:
        a = one[key]
        cells = []
        for _, three in runs:
            b = three[key]
            cells += [fmt(b, scale), f"{100 * (a / b - 1):+.0f} %" if b else "—"]
        print(f"| {name} [{unit}] | {fmt(a, scale)} | " + " | ".join(cells) + f" | {ENVELOPE_TEXT[key]} |")


VARIANTS = [("transverse share φ_T (φ_L = 1 − φ_T)", "transverse_share"), ("c1", "c1"),
            ("activation rise time ta", "rise_time"), ("filament-length gradient", "gradient_scale"),
            ("club mass", "club_mass")]


def sensitivity(sq, n_discs, dt, factor=0.2):
    base, _ = measure(simulate(sq, n_discs, dt))
    keys = COLUMNS[:6]
    head = " | ".join(f"{name} [{unit}]" for _, name, _, unit in keys)
    print(f"| parameter | value | {head} |")
    print("|---|---|" + "---|" * len(keys))
    print("| baseline | — | " + " | ".join(fmt(base[k], s) for k, _, s, _ in keys) + " |")
    for label, attr in VARIANTS:
        value0 = getattr(sq, attr) if attr != "club_mass" else sq.m_club
        for sign in (-1, 1):
            value = value0 * (1 + sign * factor)
            m, _ = measure(simulate(replace(sq, **{attr: value}), n_discs, dt))
            cells = []
            for k, _, s, _ in keys:
                change = 100 * (m[k] / base[k] - 1) if base[k] else float("nan")
                cells.append(f"{fmt(m[k], s)} ({change:+.0f} %)")
            shown = f"{value:.4g}" if attr != "club_mass" else f"{1e3 * value:.3g} g"
            print(f"| {label} {'−' if sign < 0 else '+'}20 % | {shown} | " + " | ".join(cells) + " |")
    # the anatomical shares of the issue: transverse 0.70, longitudinal 0.18 (helical, nerve cord passive matrix)
    m, _ = measure(simulate(replace(sq, transverse_share=0.70, longitudinal_share=0.18), n_discs, dt))
    print("| anatomical shares φ_T = 0.70, φ_L = 0.18 | — | " + " | ".join(
        f"{fmt(m[k], s)} ({100 * (m[k] / base[k] - 1):+.0f} %)" for k, _, s, _ in keys) + " |")


def envelope_scan(sq, n_discs, dt):
    """What could move the strike into the envelope: rise time x layer shares (two layers as in the
    case file; the anatomical transverse 0.70, longitudinal 0.18 of the issue, the rest passive matrix)."""
    print("| shares | ta [ms] | peak strain [%] | time to peak [ms] | tip speed [m/s] | acceleration [m/s²] "
          "| strain rate [1/s] | max extra reach [mm] |")
    print("|---|---|---|---|---|---|---|---|")
    for label, kw in [(f"two layers φ_T {sq.transverse_share:.3f}, φ_L {sq.phi_l:.3f}", {}),
                      ("anatomical φ_T 0.70, φ_L 0.18", dict(transverse_share=0.70, longitudinal_share=0.18))]:
        for ta in (0.04, 0.03, 0.025, 0.02):
            m, _ = measure(simulate(replace(sq, rise_time=ta, **kw), n_discs, dt))
            print(f"| {label} | {1e3 * ta:g} | " + " | ".join(
                fmt(m[k], scale) for k, _, scale, _ in COLUMNS[:6]) + " |")
    print("| measured | | 43–80 | 20–40 | > 2 | ≈ 250 | 23–45 | ≈ 37 |")


def read_rise_time(directory):
    """Rise time [s] of the transverse group (Muscles/Group 1/Activation) in a run's parameters.prm."""
    stack = []
    with open(os.path.join(directory, "parameters.prm")) as f:
        for line in f:
            words = line.split("#")[0].split()
            if words[:1] == ["subsection"]:
                stack.append(" ".join(words[1:]))
            elif words == ["end"]:
                stack.pop()
            elif (stack == ["Muscles", "Group 1", "Activation"]
                  and line.split("=")[0].split() == ["set", "Rise", "time"]):
                return float(line.split("=")[1].split("#")[0])
    sys.exit(f"{directory}/parameters.prm: no Muscles/Group 1/Activation/Rise time")


RISE_TIME_KEYS = [("peak stalk strain", "peak stalk strain", 100, "%", (43, 80)),
                  ("time to peak strain [s]", "time to peak strain", 1e3, "ms", (20, 40)),
                  ("peak tip speed [m/s]", "peak tip speed", 1, "m/s", (2.0, None)),
                  ("peak tip acceleration [m/s^2]", "peak tip acceleration", 1, "m/s²", (250, 250)),
                  ("peak stalk strain rate [1/s]", "peak strain rate", 1, "1/s", (23, 45)),
                  ("max extra reach [m]", "max extra reach", 1e3, "mm", (37, 37))]


def rise_time_study(directories, sq, n_discs, dt, plot_dir=None):
    """3D runs of the anatomical strike at several rise times (each run's own ta, read from its
    parameters.prm) against the quasi-1D model with the anatomical shares (transverse 0.70,
    longitudinal 0.18; nerve cord and helical layer as passive matrix) at the same ta."""
    rows = []
    for directory in directories:
        ta = read_rise_time(directory)
        three, _ = measure(squid_metrics.load(os.path.join(directory, "squid.csv")))
        one, _ = measure(simulate(replace(sq, transverse_share=0.70, longitudinal_share=0.18, rise_time=ta),
                                  n_discs, dt))
        rows.append((ta, three, one))
    rows.sort(key=lambda row: -row[0])
    print("| ta [ms] | " + " | ".join(f"{name} [{unit}] 3D / 1D (1D vs 3D)" for _, name, _, unit, _ in RISE_TIME_KEYS)
          + " |")
    print("|---|" + "---|" * len(RISE_TIME_KEYS))
    for ta, three, one in rows:
        cells = [f"{fmt(three[k], s)} / {fmt(one[k], s)} ({100 * (one[k] / three[k] - 1):+.0f} %)"
                 for k, _, s, _, _ in RISE_TIME_KEYS]
        print(f"| {1e3 * ta:g} | " + " | ".join(cells) + " |")
    print("| measured | 43–80 | 20–40 | > 2 | ≈ 250 | 23–45 | ≈ 37 |")
    print("\nActivation fa(t) of eq. (27) (n = 3.5): times to 10 / 50 / 90 % and its steepest slope")
    grid = np.linspace(0.0, 1.0, 100001)
    for ta, _, _ in rows:
        fa = np.array([activation(ta * x, replace(sq, rise_time=ta)) for x in grid])
        reach = [1e3 * ta * grid[np.argmax(fa >= level)] for level in (0.1, 0.5, 0.9)]
        slope = np.max(np.diff(fa)) / (ta * (grid[1] - grid[0]))
        print(f"  ta = {1e3 * ta:g} ms: {reach[0]:.1f} / {reach[1]:.1f} / {reach[2]:.1f} ms, "
              f"max dfa/dt = {slope:.1f} 1/s")
    if plot_dir:
        plot_rise_time(rows, plot_dir)


def plot_rise_time(rows, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, 3, figsize=(11, 6))
    ta = np.array([1e3 * row[0] for row in rows])
    for ax, (key, name, scale, unit, (low, high)) in zip(axes.flat, RISE_TIME_KEYS):
        ax.plot(ta, [scale * row[1][key] for row in rows], "o-", color="tab:red", label="3D, anatomical mesh")
        ax.plot(ta, [scale * row[2][key] for row in rows], "s--", color="tab:blue", label="quasi-1D, same shares")
        if low == high:
            ax.axhline(low, color="tab:green", label="measured ≈")
        else:
            ax.axhspan(low, high if high is not None else 1.5 * low, color="tab:green", alpha=0.15, label="measured")
        ax.set_xlabel("activation rise time ta [ms]")
        ax.set_ylabel(f"{name} [{unit}]")
        ax.grid(alpha=0.3)
    axes.flat[0].legend(fontsize=8)
    fig.suptitle("Squid strike on the anatomical mesh: sensitivity to the rise time of eq. (27)")
    fig.tight_layout()
    path = os.path.join(out_dir, "squid_rise_time.png")
    fig.savefig(path, dpi=80)
    print("wrote", path)


def convergence(sq, n_discs=50, dts=(5e-4, 2.5e-4, 1.25e-4, 6.25e-5, 3.125e-5), discs=(25, 50, 100, 200),
                dt_for_discs=1.25e-4, quiet=False):
    """Metrics vs time step (n_discs fixed) and vs disc count; returns the dt table."""
    keys = [c for c in COLUMNS[:6] if c[0] not in ("time to peak strain [s]",)]
    table = []
    for dt in dts:
        t0 = time.time()
        d = simulate(sq, n_discs, dt)
        m, _ = measure(d)
        table.append((dt, m, d["newton"], time.time() - t0))
    if not quiet:
        print(f"Time step (N = {n_discs} discs; metrics sampled every 0.5 ms as in the 3D CSV):")
        print("| dt [ms] | " + " | ".join(f"{n} [{u}]" for _, n, _, u in keys) + " | Newton its | wall [s] |")
        print("|---|" + "---|" * (len(keys) + 2))
        for dt, m, its, wall in table:
            print(f"| {1e3 * dt:g} | " + " | ".join(f"{m[k] * s:.6g}" for k, _, s, _ in keys)
                  + f" | {its} | {wall:.1f} |")
        ref = table[-1][1]
        print("observed order (successive differences, p = log2(|d1|/|d2|)):")
        for k, name, _, _ in keys:
            vals = [row[1][k] for row in table]
            diffs = np.abs(np.diff(vals))
            orders = [f"{math.log2(diffs[i] / diffs[i + 1]):.2f}" if diffs[i + 1] > 0 and diffs[i] > 0 else "—"
                      for i in range(len(diffs) - 1)]
            print(f"  {name:24s} " + ", ".join(orders) + f"   (finest {ref[k]:.6g})")
        if discs:
            print(f"\nDisc count (dt = {1e3 * dt_for_discs:g} ms):")
            print("| N | " + " | ".join(f"{n} [{u}]" for _, n, _, u in keys) + " |")
            print("|---|" + "---|" * len(keys))
            for n in discs:
                m, _ = measure(simulate(sq, n, dt_for_discs))
                print(f"| {n} | " + " | ".join(f"{m[k] * s:.5g}" for k, _, s, _ in keys) + " |")
    return table


def plot(one, runs, matched, dts_table, out_dir, sq):
    """runs: (name, 3D csv data); matched: (name, 1D data with that mesh's transverse share)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    colors = ["tab:red", "tab:purple", "tab:brown"]
    curves = [(f"quasi-1D, φ_T = {sq.transverse_share:.3f}", one, "tab:blue", "-")]
    for i, (name, data) in enumerate(runs):
        curves.append((f"3D {name}", data, colors[i % 3], "-"))
    for i, (name, data) in enumerate(matched):
        curves.append((f"quasi-1D, φ_T of {name}", data, colors[i % 3], ":"))
    for label, data, color, style in curves:
        _, (t, e, v, _) = measure(data)
        axes[0].plot(1e3 * t, 100 * e, color=color, ls=style, label=label)
        axes[1].plot(1e3 * t, v, color=color, ls=style, label=label)
    axes[0].axhspan(43, 80, color="tab:green", alpha=0.15, label="measured peak 43–80 %")
    axes[0].axvspan(20, 40, color="tab:orange", alpha=0.12, label="peak in 20–40 ms")
    axes[1].axhspan(2.0, 3.0, color="tab:green", alpha=0.15, label="measured peak > 2 m/s")
    axes[0].set_ylabel("stalk strain [%]")
    axes[1].set_ylabel("club tip speed [m/s]")
    for ax in axes:
        ax.set_xlabel("time from onset of motion [ms]")
        ax.set_xlim(-15, 85)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Squid strike: quasi-1D disc stack vs 3D (time from each model's onset of motion)")
    fig.tight_layout()
    path = os.path.join(out_dir, "squid_quasi1d.png")
    fig.savefig(path, dpi=110)
    print("wrote", path)

    keys = [("peak stalk strain", "peak strain"), ("peak tip speed [m/s]", "peak tip speed"),
            ("peak tip acceleration [m/s^2]", "peak acceleration"), ("peak stalk strain rate [1/s]", "peak strain rate"),
            ("max extra reach [m]", "max extra reach")]
    fig, ax = plt.subplots(figsize=(6, 4.5))
    dts = np.array([row[0] for row in dts_table])
    for key, name in keys:
        vals = np.array([row[1][key] for row in dts_table])
        err = np.abs(vals[:-1] / vals[-1] - 1)
        ax.loglog(1e3 * dts[:-1], np.maximum(err, 1e-12), "o-", label=name)
    x = 1e3 * dts[:-1]
    ax.loglog(x, 3e-3 * (x / x[0]) ** 2, "k--", label="slope 2")
    ax.set_xlabel("time step [ms]")
    ax.set_ylabel(f"relative difference to dt = {1e3 * dts[-1]:g} ms")
    ax.set_title("Quasi-1D squid model: time-step convergence (N = 50)")
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = os.path.join(out_dir, "squid_quasi1d_dt.png")
    fig.savefig(path, dpi=110)
    print("wrote", path)


# --- Self-checks (the ctest) --------------------------------------------------------------------

def check():
    failures = []

    def expect(ok, text):
        print(("ok    " if ok else "FAIL  ") + text)
        if not ok:
            failures.append(text)

    sq = Squid()
    # (a) the tangent of (Q1) against central differences in an active, shortening state
    stack = DiscStack(sq, 8)
    lam = np.linspace(1.05, 1.6, 8)
    lam_dot = np.linspace(5.0, 40.0, 8)
    _, dP, dPv = stack.axial_stress(lam, lam_dot, 0.7)
    eps = 1e-7
    fd_l = (stack.axial_stress(lam + eps, lam_dot, 0.7)[0] - stack.axial_stress(lam - eps, lam_dot, 0.7)[0]) / (2 * eps)
    fd_v = (stack.axial_stress(lam, lam_dot + 1e-5, 0.7)[0] - stack.axial_stress(lam, lam_dot - 1e-5, 0.7)[0]) / 2e-5
    err = max(np.max(np.abs(dP - fd_l)) / np.max(np.abs(dP)), np.max(np.abs(dPv - fd_v)) / np.max(np.abs(dPv)))
    expect(err < 1e-6, f"tangent of the disc stress vs central differences: relative error {err:.1e} < 1e-6")

    # (b) activation off, dead tip force: static stretch = uniaxial closed form
    c1 = sq.c1
    for T in (0.5 * c1, 5 * c1):
        passive = replace(sq, active=False, transverse_share=0.0, longitudinal_share=0.0)
        lam_num = static_stretch(passive, tip_force=T * sq.area)
        # 2 c1 (lam - lam^-2) = T  <=>  lam^3 - T/(2 c1) lam^2 - 1 = 0, one real root > 1
        roots = np.roots([1.0, -T / (2 * c1), 0.0, -1.0])
        lam_cf = float(max(r.real for r in roots if abs(r.imag) < 1e-12))
        e = np.max(np.abs(lam_num / lam_cf - 1))
        expect(e < 1e-10, f"Mooney-Rivlin bar, tip force T A0, T/c1 = {T / c1:g}: stretch {lam_num[0]:.8f} vs "
                          f"closed form {lam_cf:.8f} (all discs, rel. error {e:.1e} < 1e-10)")
    # with the passive longitudinal annulus as well: force from the closed-form stress at lam* = 1.5
    lam_star = 1.5
    F = sq.area * (2 * c1 * (lam_star - lam_star**-2) + sq.phi_l * C1P * (lam_star - 1) ** C2P)
    lam_num = static_stretch(replace(sq, active=False), tip_force=F)
    e = np.max(np.abs(lam_num / lam_star - 1))
    expect(e < 1e-10, f"Mooney-Rivlin + passive longitudinal fibres (phi_L = {sq.phi_l:.4f}): stretch "
                      f"{lam_num[0]:.8f} vs 1.5 (rel. error {e:.1e} < 1e-10)")

    # (c) constant transverse fibre stress T in the whole section: theory.md eq. (58),
    #     2 (c^2 - 1/c)(c1 + c2/c) = T c^(-1/2), solved by bisection; doc/muscle.md prints 6 digits
    for ratio, printed in ((0.1, 1.01653), (1, 1.15409), (10, 2.00692), (161.4, 5.80284)):
        cyl = replace(Squid(c1=1e3), transverse_share=1.0, longitudinal_share=0.0,
                      constant_transverse_stress=ratio * 1e3)
        lo, hi = 1.0, 10.0
        for _ in range(200):
            c = 0.5 * (lo + hi)
            lo, hi = (c, hi) if 2 * (c * c - 1 / c) * 1e3 < ratio * 1e3 * c**-0.5 else (lo, c)
        lam_cf = 0.5 * (lo + hi)
        lam_num = static_stretch(cyl, increments=40)
        e = np.max(np.abs(lam_num / lam_cf - 1))
        expect(e < 1e-10 and abs(lam_cf - printed) < 6e-6,
               f"transverse stress T/c1 = {ratio:g}: stretch {lam_num[0]:.10f} vs eq. (58) {lam_cf:.10f} "
               f"(rel. {e:.1e} < 1e-10; doc/muscle.md: {printed})")

    # (d) time-step convergence of the strike (N = 30 discs): second order, small at dt = 0.125 ms
    table = convergence(Squid(), n_discs=30, dts=(5e-4, 2.5e-4, 1.25e-4, 6.25e-5), discs=(), quiet=True)
    for key, name in (("peak stalk strain", "peak strain"), ("peak tip speed [m/s]", "peak tip speed"),
                      ("peak tip acceleration [m/s^2]", "peak acceleration")):
        vals = np.array([row[1][key] for row in table])
        d = np.abs(np.diff(vals))
        ratio = d[1] / d[2] if d[2] > 0 else float("inf")
        rel = abs(vals[2] / vals[3] - 1)
        expect(ratio > 2.5 and rel < 5e-3,
               f"{name}: {', '.join(f'{v:.6g}' for v in vals)} for dt = 0.5 ... 0.0625 ms; "
               f"difference ratio {ratio:.2f} > 2.5 (order {math.log2(ratio):.2f}), "
               f"dt = 0.125 ms within {100 * rel:.3f} % < 0.5 % of dt = 0.0625 ms")
    print("FAILED" if failures else "all checks passed")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--3d", dest="three", metavar="DIR", action="append",
                        help="output directory of a 3D run (reads squid.csv and, for the mesh's layer share, "
                             "the step-0 .vtu files); may be repeated")
    parser.add_argument("--discs", type=int, default=50)
    parser.add_argument("--dt", type=float, default=1.25e-4, help="time step [s] (default 0.125 ms)")
    parser.add_argument("--sensitivity", action="store_true", help="print the +-20 %% sensitivity table")
    parser.add_argument("--convergence", action="store_true", help="print time-step and disc-count convergence")
    parser.add_argument("--plot", metavar="DIR", help="write squid_quasi1d.png and squid_quasi1d_dt.png there")
    parser.add_argument("--check", action="store_true", help="closed forms and dt convergence; exit 1 on failure")
    parser.add_argument("--rise-time", action="store_true",
                        help="the --3d runs (anatomical strike at different rise times) against the 1D model with "
                             "the anatomical shares at each run's rise time; with --plot: squid_rise_time.png")
    args = parser.parse_args()
    if args.check:
        sys.exit(check())
    sq = Squid()
    if args.rise_time:
        rise_time_study(args.three or [], sq, args.discs, args.dt, args.plot)
        return
    t0 = time.time()
    one = simulate(sq, args.discs, args.dt)
    print(f"quasi-1D: {args.discs} discs, dt = {1e3 * args.dt:g} ms, Newmark 1/4 1/2, "
          f"{one['newton']} Newton iterations, {time.time() - t0:.1f} s; club {1e3 * sq.m_club:.3f} g, "
          f"phi_T = {sq.transverse_share:.4f}, phi_L = {sq.phi_l:.4f}")
    m1, _ = measure(one)
    runs, curves3d, matched_curves = [], [], []
    for directory in args.three or []:
        path = os.path.join(directory, "squid.csv")
        if not os.path.exists(path):
            sys.exit(f"{path} not found: run hydrostat on parameters/squid_extension.prm first")
        data = squid_metrics.load(path)
        name = os.path.basename(os.path.normpath(directory))
        runs.append((name, measure(data)[0]))
        curves3d.append((name, data, mesh_transverse_share(directory, sq)))
    print_comparison(m1, runs)
    for name, data, share in curves3d:
        if share is None:
            print(f"\n{name}: no step-0 .vtu files, the mesh's layer share is not known")
            continue
        phi, stalk_end = share
        print(f"\n{name}: {100 * phi:.1f} % of the stalk's Gauss-point volume in the transverse group "
              f"(intended 0.84^2 = 70.6 %); stalk cells end at z = {1e3 * stalk_end:.2f} mm. "
              f"1D with phi_T = {phi:.4f}, phi_L = {1 - phi:.4f}, as meshed (stalk {1e3 * stalk_end:.2f} mm, "
              f"club {1e3 * (0.093 - stalk_end):.2f} mm, p1 at Z = 53.14 mm):")
        matched = replace(sq, transverse_share=phi, stalk_length=stalk_end, club_length=0.093 - stalk_end)
        matched_curves.append((name, simulate(matched, args.discs, args.dt)))
        print_comparison(measure(matched_curves[-1][1])[0], [(name, measure(data)[0])], label="quasi-1D, mesh's φ_T")
    if args.sensitivity:
        print()
        sensitivity(sq, args.discs, args.dt)
        print()
        envelope_scan(sq, args.discs, args.dt)
    table = None
    if args.convergence or args.plot:
        print()
        table = convergence(sq, args.discs, quiet=not args.convergence)
    if args.plot:
        plot(one, [(n, d) for n, d, _ in curves3d], matched_curves, table, args.plot, sq)


if __name__ == "__main__":
    main()
