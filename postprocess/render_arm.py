#!/usr/bin/env pvpython
"""Renders the deformed arm coloured by a field at chosen times (ParaView's pvpython).

Usage: pvpython postprocess/render_arm.py SERIES.pvd [--field activation_longitudinal_dorsal]
                                          [--times 0.25 0.5 1.0] [--out DIR]

Needs Debian's python3-paraview (pvpython); on a machine without a display run it under
xvfb-run or use pvbatch. Writes one PNG per time: <out>/<stem>_<field>_t<time>.png.
"""
import argparse
import os

from paraview.simple import (ColorBy, GetActiveViewOrCreate, GetAnimationScene, PVDReader, ResetCamera,
                             SaveScreenshot, Show, WarpByVector, GetColorTransferFunction)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("series")
    parser.add_argument("--field", default="activation_longitudinal_dorsal")
    parser.add_argument("--times", type=float, nargs="+", default=[0.25, 0.5, 1.0])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    out = args.out or os.path.dirname(os.path.abspath(args.series))
    os.makedirs(out, exist_ok=True)
    reader = PVDReader(FileName=os.path.abspath(args.series))
    reader.UpdatePipelineInformation()
    available = list(reader.TimestepValues) if reader.TimestepValues else [0.0]
    warp = WarpByVector(Input=reader, Vectors=["POINTS", "displacement"], ScaleFactor=1.0)
    view = GetActiveViewOrCreate("RenderView")
    view.ViewSize = [900, 700]
    view.OrientationAxesVisibility = 1
    display = Show(warp, view)
    ColorBy(display, ("POINTS", args.field))  # DataOut writes every field as point data
    lut = GetColorTransferFunction(args.field)
    lut.RescaleTransferFunction(0.0, 1.0 if args.field.startswith("activation") else lut.RGBPoints[-4])
    display.SetScalarBarVisibility(view, True)
    view.CameraPosition = [0.25, 0.0, 0.05]
    view.CameraFocalPoint = [0.0, 0.02, 0.05]
    view.CameraViewUp = [0.0, 0.0, 1.0]
    scene = GetAnimationScene()
    stem = os.path.splitext(os.path.basename(args.series))[0]
    for t in args.times:
        nearest = min(available, key=lambda s: abs(s - t))
        scene.AnimationTime = nearest
        ResetCamera(view)
        path = os.path.join(out, f"{stem}_{args.field}_t{nearest:.3f}.png")
        SaveScreenshot(path, view, ImageResolution=[900, 700])
        print("wrote", path)


if __name__ == "__main__":
    main()
