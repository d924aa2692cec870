#!/usr/bin/python3
"""Checks the ParaView output of inputs/vtu_fields.prm (issue 15) by reading the written files.

Usage: vtu_fields.py HYDROSTAT MPIEXEC

Runs the case on 1 and 2 ranks with all fields, and on 1 rank with 'Output/Fields' reduced, then
reads the last .pvtu and its .vtu pieces (XML; zlib-compressed base64 or ascii DataArrays, read
with the standard library only: no vtk module, no numpy) and checks:
  - the units attribute of the fields (m, m/s, Pa, dimensionless);
  - displacement, velocity, fibre_direction_oblique, active_fibre_oblique and principal_stretches
    have 3 components, cauchy_stress and piola_stress 9;
  - the fibre direction is a unit vector (to 1e-6) in every cell of the group (material 2) and
    zero elsewhere, active_fibre is activation x fibre_direction, and activation is 1 at t = 1;
  - without muscle stress (material 1) the Cauchy stress is symmetric and its mean normal stress
    is the written pressure;
  - 2 ranks write the same cell values as 1 rank (as sorted lists) and one mpi_rank per piece;
  - with Fields = displacement, activation, fibre_direction the other fields are absent.
"""
import base64
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
import math
import struct
import zlib

CASE = "inputs/vtu_fields.prm"
GROUP = "oblique"
TYPES = {"Float32": "f", "Float64": "d", "Int32": "i", "UInt32": "I", "Int64": "q", "UInt64": "Q", "UInt8": "B",
         "Int8": "b"}
failures = []
units = {}  # of the fields in the last .pvtu read


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL:", message)


def unpack(code, raw):
    return list(struct.unpack("<%d%s" % (len(raw) // struct.calcsize(code), code), raw))


def decode(array, header_type, compressed):
    """The values of one <DataArray> as a list of tuples (one per point)."""
    n_components = int(array.get("NumberOfComponents", "1"))
    text = "".join(array.text.split())
    if array.get("format") == "ascii":
        values = [float(x) for x in array.text.split()]
    else:
        assert array.get("format") == "binary" and compressed, "only zlib-compressed binary and ascii are read"
        word = TYPES[header_type]
        size = struct.calcsize(word)
        # The header [n_blocks, block size, last block size, compressed sizes...] and the data
        # are base64-encoded separately.
        n_blocks = unpack(word, base64.b64decode(text[:12])[:size])[0]
        header_bytes = (3 + n_blocks) * size
        header_chars = 4 * ((header_bytes + 2) // 3)
        header = unpack(word, base64.b64decode(text[:header_chars])[:header_bytes])
        data = base64.b64decode(text[header_chars:])
        raw, offset = b"", 0
        for block in header[3:]:
            raw += zlib.decompress(data[offset:offset + block])
            offset += block
        values = [float(x) for x in unpack(TYPES[array.get("type")], raw)]
    return [tuple(values[i:i + n_components]) for i in range(0, len(values), n_components)]


def norm(v):
    return math.sqrt(sum(x * x for x in v))


def read_vtu(path):
    """{name: array} of the point data of one .vtu file."""
    root = ET.parse(path).getroot()
    compressed = root.get("compressor") is not None
    header_type = root.get("header_type", "UInt32")
    piece = root.find("UnstructuredGrid/Piece")
    fields = {}
    for section in ("PointData", "CellData"):
        node = piece.find(section)
        if node is not None:
            for array in node.findall("DataArray"):
                fields[array.get("Name")] = decode(array, header_type, compressed)
    return fields


def last_step(directory):
    """The pvtu declarations {name: components} and the pieces' fields of the last step."""
    pvtus = sorted(f for f in os.listdir(directory) if f.endswith(".pvtu"))
    check(len(pvtus) == 3, f"{directory}: expected 3 .pvtu files (t = 0, 0.5, 1), found {len(pvtus)}")
    root = ET.parse(os.path.join(directory, pvtus[-1])).getroot()
    grid = root.find("PUnstructuredGrid")
    arrays = [a for section in ("PPointData", "PCellData") if grid.find(section) is not None
              for a in grid.find(section).findall("PDataArray")]
    declared = {a.get("Name"): int(a.get("NumberOfComponents", "1")) for a in arrays}
    units.update({a.get("Name"): a.get("units") for a in arrays})
    pieces = [read_vtu(os.path.join(directory, p.get("Source"))) for p in grid.findall("Piece")]
    return declared, pieces


def run(hydrostat, launcher, directory, *settings):
    command = launcher + [hydrostat, CASE, "--set", f"Output/Directory={directory}"]
    for setting in settings:
        command += ["--set", setting]
    print("running:", " ".join(command), flush=True)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stdout, result.stderr)
        sys.exit(f"hydrostat failed with status {result.returncode}")
    return last_step(directory)


def check_all_fields(declared, pieces, label):
    n_failures = len(failures)
    expected = {"displacement": 3, "velocity": 3, "J": 1, "cauchy_stress": 9, "piola_stress": 9,
                "principal_stretches": 3, "von_mises": 1, "pressure": 1, "material_id": 1, "mpi_rank": 1,
                f"activation_{GROUP}": 1, f"fibre_stretch_{GROUP}": 1, f"fibre_stress_{GROUP}": 1,
                f"fibre_direction_{GROUP}": 3, f"active_fibre_{GROUP}": 3}
    for name, n in expected.items():
        check(declared.get(name) == n, f"{label}: {name} has {declared.get(name)} components, expected {n}")
    for name, unit in {"displacement": "m", "velocity": "m/s", "cauchy_stress": "Pa", "piola_stress": "Pa",
                       f"fibre_stress_{GROUP}": "Pa", f"fibre_direction_{GROUP}": "dimensionless",
                       "material_id": None}.items():
        check(units.get(name) == unit, f"{label}: {name} has units {units.get(name)}, expected {unit}")
    for rank, fields in enumerate(pieces):
        check(set(fields) == set(expected), f"{label} piece {rank}: fields {sorted(fields)}")
        check(sorted(set(r[0] for r in fields.get("mpi_rank", []))) == [rank], f"{label} piece {rank}: mpi_rank")
    if len(failures) > n_failures:
        return
    # The pieces together (on 2 ranks each holds one material).
    fields = {name: [v for p in pieces for v in p[name]] for name in expected}
    reference = (1 / math.sqrt(2), 1 / math.sqrt(2), 0)
    muscle = [m[0] == 2 for m in fields["material_id"]]
    check(any(muscle) and not all(muscle), f"{label}: both materials present")
    unit_error, outside, activation_error, active_error, rotation = 0, 0, 0, 0, 0
    stress_scale, asymmetry, pressure_error = 0, 0, 0
    for k, in_group in enumerate(muscle):
        f = fields[f"fibre_direction_{GROUP}"][k]
        a = fields[f"activation_{GROUP}"][k][0]
        active = fields[f"active_fibre_{GROUP}"][k]
        active_error = max(active_error, max(abs(active[d] - a * f[d]) for d in range(3)))
        if in_group:
            unit_error = max(unit_error, abs(norm(f) - 1))
            activation_error = max(activation_error, abs(a - 1))
            rotation = max(rotation, 1 - sum(f[d] * reference[d] for d in range(3)))
        else:
            outside = max(outside, norm(f))
            s = fields["cauchy_stress"][k]
            stress_scale = max(stress_scale, max(abs(x) for x in s))
            asymmetry = max(asymmetry, abs(s[1] - s[3]), abs(s[2] - s[6]), abs(s[5] - s[7]))
            pressure_error = max(pressure_error, abs((s[0] + s[4] + s[8]) / 3 - fields["pressure"][k][0]))
    print(f"{label}: max ||fibre_direction| - 1| = {unit_error:.1e} in the group, |fibre_direction| <= {outside} "
          f"outside, max 1 - m.M = {rotation:.2e}, Cauchy stress up to {stress_scale:.3g} Pa in material 1")
    check(unit_error < 1e-6, f"{label}: |fibre_direction| - 1 up to {unit_error:.2e} in the group")
    check(outside == 0, f"{label}: fibre_direction nonzero ({outside:.2e}) outside the group")
    check(activation_error < 1e-6, f"{label}: activation differs from 1 at t = 1 by {activation_error:.2e}")
    check(active_error < 1e-6, f"{label}: active_fibre != activation * fibre_direction")
    check(rotation > 1e-4, f"{label}: the fibres did not rotate (the reference direction was written)")
    check(asymmetry < 1e-5 * stress_scale, f"{label}: Cauchy stress not symmetric")
    check(pressure_error < 1e-5 * stress_scale, f"{label}: tr(sigma)/3 != pressure in material 1")


def sorted_cell_values(pieces, name):
    return sorted(x for p in pieces for v in p[name] for x in v)


def main():
    hydrostat, mpiexec = sys.argv[1:3]
    declared, pieces = run(hydrostat, [], "output/vtu_fields_1")
    check_all_fields(declared, pieces, "1 rank")
    declared, pieces_2 = run(hydrostat, [mpiexec, "--oversubscribe", "-np", "2"], "output/vtu_fields_2")
    check(len(pieces_2) == 2, "2 ranks: expected 2 pieces")
    check_all_fields(declared, pieces_2, "2 ranks")
    for name in ("J", "cauchy_stress", f"fibre_direction_{GROUP}", "displacement"):
        one, two = sorted_cell_values(pieces, name), sorted_cell_values(pieces_2, name)
        scale = max(abs(x) for x in one)
        check(len(one) == len(two) and max(abs(a - b) for a, b in zip(one, two)) <= 1e-6 * scale,
              f"{name} differs between 1 and 2 ranks")
    declared, pieces = run(hydrostat, [], "output/vtu_fields_some",
                           "Output/Fields=displacement, activation, fibre_direction")
    wanted = {"displacement", f"activation_{GROUP}", f"fibre_direction_{GROUP}"}
    check(set(declared) == wanted, f"Fields = displacement, activation, fibre_direction wrote {sorted(declared)}")
    check(all(set(p) == wanted for p in pieces), "a piece has other fields than the selected ones")
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
