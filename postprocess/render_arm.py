#!/usr/bin/env pvpython
"""Renders the deformed arm at chosen times with the pipeline of open_in_paraview.py (coloured by
the activation of a muscle group, that group's fibre directions as glyphs), for the README images.

Usage: pvpython postprocess/render_arm.py SERIES.pvd [--group longitudinal_dorsal]
                                          [--times 0.25 0.5 1.0] [--out DIR] [--size 900 700]
                                          [--view-from 1 0.35 0.25] [--clip] [--reference]
                                          [--rod Y Z RADIUS]

Needs Debian's python3-paraview (pvpython); on a machine without a display run it under
`xvfb-run -a -s "-noreset"`. Writes one PNG per time: <out>/<stem>_<group>_t<time>.png.
--group a+b+... colours by the summed activation of groups that share no cells (all their fibres
drawn); --clip cuts away the half of the arm facing the camera; --reference adds the rest shape in
grey below the arm (open_in_paraview.ArmView); --rod draws a rigid rod parallel to x through
(y, z) = (Y, Z) (the cylinder obstacle of parameters/octopus_grasp.prm).
"""
import argparse
import os
import sys
import time as clock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from open_in_paraview import ArmView  # noqa: E402  (beside this script)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("series")
    parser.add_argument("--group", default=None, help="default: the most active group of the last frame")
    parser.add_argument("--times", type=float, nargs="+", default=[0.25, 0.5, 1.0])
    parser.add_argument("--out", default=None)
    parser.add_argument("--size", type=int, nargs=2, default=[900, 700])
    parser.add_argument("--view-from", type=float, nargs=3, default=[1.0, 0.35, 0.25],
                        help="direction from the arm to the camera (y is up in the picture)")
    parser.add_argument("--clip", action="store_true", help="cut away the half of the arm facing the camera")
    parser.add_argument("--reference", action="store_true", help="the rest shape in grey below the arm")
    parser.add_argument("--rod", type=float, nargs=3, default=None, metavar=("Y", "Z", "RADIUS"),
                        help="a rod parallel to x through y = Y, z = Z [m]")
    args = parser.parse_args()
    out = args.out or os.path.dirname(os.path.abspath(args.series))
    os.makedirs(out, exist_ok=True)
    start = clock.time()
    arm = ArmView(args.series, args.group, view_size=args.size, view_from=args.view_from, clip=args.clip,
                  reference=args.reference)
    if args.rod:
        from paraview.simple import Cylinder, Show, Transform
        y, z, radius = args.rod
        rod = Cylinder(Radius=radius, Height=0.03, Resolution=64)
        # ParaView's cylinder lies along y: turned about z onto the x axis through its centre.
        rod = Transform(Input=rod)
        rod.Transform.Translate = [0.0, y, z]
        rod.Transform.Rotate = [0.0, 0.0, 90.0]
        rod_display = Show(rod, arm.view)
        rod_display.AmbientColor = rod_display.DiffuseColor = [0.55, 0.55, 0.55]
    stem = os.path.splitext(os.path.basename(args.series))[0]
    for t in args.times:
        shown = arm.show_time(t)
        path = os.path.join(out, f"{stem}_{arm.group or 'arm'}_t{shown:.3f}.png")
        arm.screenshot(path, resolution=args.size)
        print("wrote", path)
    print(f"render time {clock.time() - start:.1f} s for {len(args.times)} frame(s)")


if __name__ == "__main__":
    main()
