#!/usr/bin/env pvpython
"""Opens a Hydrostat run in ParaView: the deformed arm coloured by the activation of its most
active muscle group, that group's current fibre directions as glyphs, and the probe displacements
of the run's CSV plotted over time beside it. Saves the view as a ParaView state file beside the
output, so that `paraview --state RUN.pvsm` opens the same view with one click.

Usage: pvpython postprocess/open_in_paraview.py OUTPUT/BASE.pvd [--group NAME] [--time T]
                                                [--png FILE] [--no-plot] [--view-from X Y Z]

--group picks the muscle group (default: the one with the largest activation in the run's last
frame); --time the frame shown (default: the last); --png also saves a screenshot of the 3D view.
Fields switched off in Output/Fields are left out (no displacement: no warp; no fibre_direction:
no glyphs). Needs Debian's python3-paraview (pvpython); without a display run it under
`xvfb-run -a -s "-noreset"` (README: why -noreset).
render_arm.py uses the same pipeline for the README images.
"""
import argparse
import os
import time as clock

from paraview.simple import (AssignViewToLayout, CSVReader, Calculator, CellCenters, Clip, ColorBy, CreateLayout,
                             CreateView, GetAnimationScene, GetColorTransferFunction, GetScalarBar, Glyph,
                             PointDatatoCellData, PVDReader, SaveScreenshot, SaveState, SetActiveView, Show,
                             Threshold, Transform, WarpByVector)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def normalise(a):
    length = dot(a, a) ** 0.5
    return [x / length for x in a]


def groups_of(names):
    """Muscle group names, from the fields activation_<group> and fibre_direction_<group>."""
    groups = []
    for prefix in ("activation_", "fibre_direction_"):
        groups += [n[len(prefix):] for n in names if n.startswith(prefix) and n[len(prefix):] not in groups]
    return groups


def most_active_group(reader, groups):
    def peak(g):
        array = reader.PointData["activation_" + g]
        return array.GetRange()[1] if array is not None else 0.0
    return max(groups, key=peak) if groups else None


class ArmView:
    """The pipeline: PVD -> Warp By Vector (displacement) coloured by activation_<group>, and
    Point Data to Cell Data -> Cell Centers -> Threshold on |fibre_direction_<group>| -> line
    glyphs along fibre_direction_<group>.
    Options (off by default): @p group "a+b+..." colours by the sum of the groups' activations and
    draws all their fibres (for groups that share no cells), named by their common prefix
    (longitudinal_dorsal+longitudinal_ventral: activation_longitudinal); @p clip cuts away the half
    of the arm facing the camera (the plane through the z axis of the reference configuration) to
    show the inside; @p reference adds the rest shape in grey below the arm, base aligned, to show a
    change of length (the colour bar then goes to the top)."""

    def __init__(self, pvd, group=None, view_size=(900, 700), view_from=(1.0, 0.35, 0.25), clip=False,
                 reference=False):
        self.pvd = os.path.abspath(pvd)
        self.reader = PVDReader(FileName=self.pvd)
        self.reader.UpdatePipelineInformation()
        self.times = list(self.reader.TimestepValues) if self.reader.TimestepValues else [0.0]
        self.reader.UpdatePipeline(self.times[-1])
        names = self.reader.PointData.keys()  # DataOut writes every field as point data
        groups = groups_of(names)
        self.group = group or most_active_group(self.reader, groups)
        for g in (self.group.split("+") if self.group is not None else []):
            if g not in groups:
                raise SystemExit(f"no muscle group '{g}' in {pvd} (groups: {', '.join(groups) or 'none'})")
        self.view = CreateView("RenderView")
        self.view.ViewSize = list(view_size)
        self.view.OrientationAxesVisibility = 1
        self.view.Background = [1, 1, 1]
        self.view.UseColorPaletteForBackground = 0
        self.view.OrientationAxesLabelColor = [0, 0, 0]
        # Seen mostly from +x with y (dorsal) up: the arm, along z, lies across the picture.
        self.view_from = view_from
        source = self.reader
        if clip:  # keep the half away from the camera: the plane through the z axis facing it
            normal = normalise([view_from[0], view_from[1], 0.0])
            source = Clip(Input=self.reader, ClipType="Plane")
            source.ClipType.Origin, source.ClipType.Normal = [0.0, 0.0, 0.0], normal
        # Without some fields (Output/Fields) the view has less: no warp, no colour, no glyphs.
        self.warp = (WarpByVector(Input=source, Vectors=["POINTS", "displacement"], ScaleFactor=1.0)
                     if "displacement" in names else source)
        if self.group is not None and "+" in self.group:  # one field for the union of the groups,
            members = self.group.split("+")             # named by their common prefix if it is free
            common = os.path.commonprefix(members).rstrip("_")
            self.group = common if common and common not in groups else self.group
            for prefix in ("activation_", "fibre_direction_"):
                if all(prefix + g in names for g in members):
                    self.warp = Calculator(Input=self.warp, ResultArrayName=prefix + self.group,
                                           Function="+".join(prefix + g for g in members))
                    names = list(names) + [prefix + self.group]
        self.reference = None
        if reference:  # the rest shape, moved down in the picture by 1.6 diameters of the base
            b = self.reader.GetDataInformation().GetBounds()
            d = normalise(view_from)
            up = normalise([u - dot([0, 1, 0], d) * di for u, di in zip([0, 1, 0], d)])
            shift = 1.6 * max(b[1] - b[0], b[3] - b[2])
            self.reference = Transform(Input=self.reader)
            self.reference.Transform.Translate = [-shift * u for u in up]
            rest = Show(self.reference, self.view)
            rest.ColorArrayName = ["POINTS", ""]
            rest.AmbientColor = rest.DiffuseColor = [0.7, 0.7, 0.7]
        display = Show(self.warp, self.view)
        activation = f"activation_{self.group}"
        field = next((f for f in (activation, "von_mises") if f in names), None)
        if field is not None:
            ColorBy(display, ("POINTS", field))
            lut = GetColorTransferFunction(field)
            if field == activation:
                lut.ApplyPreset("Cool to Warm", True)
                lut.AutomaticRescaleRangeMode = "Never"
                lut.RescaleTransferFunction(0.0, 1.0)
            display.SetScalarBarVisibility(self.view, True)
            bar = GetScalarBar(lut, self.view)
            bar.Title, bar.ComponentTitle = field, ""
            bar.TitleColor = bar.LabelColor = [0, 0, 0]
            if reference:  # the rest shape reaches down to the bar's corner
                bar.Orientation, bar.WindowLocation = "Horizontal", "Upper Center"
        if f"fibre_direction_{self.group}" in names:
            display.Opacity = 0.45  # the fibre glyphs are inside the arm
            self._fibre_glyphs()

    def _fibre_glyphs(self):
        """A line (a fibre has no sign) along fibre_direction_<group> at the centre of each output
        sub-cell of the group, about 400 of them."""
        direction = "fibre_direction_" + self.group
        cells = PointDatatoCellData(Input=self.warp)
        centres = CellCenters(Input=cells, VertexCells=1)
        # The group's cells are where its fibre direction is a unit vector (zero elsewhere).
        in_group = Calculator(Input=centres, ResultArrayName="in_group", Function=f"mag({direction})")
        present = Threshold(Input=in_group, Scalars=["POINTS", "in_group"], LowerThreshold=0.5, UpperThreshold=2.0)
        present.UpdatePipeline(self.times[-1])
        n_points = present.GetDataInformation().GetNumberOfPoints()
        glyph = Glyph(Input=present, GlyphType="Line", OrientationArray=["POINTS", direction],
                      ScaleArray=["POINTS", "No scale array"], GlyphMode="Every Nth Point",
                      Stride=max(1, n_points // 400))
        bounds = self.reader.GetDataInformation().GetBounds()
        glyph.ScaleFactor = 0.8 * min(bounds[1] - bounds[0], bounds[3] - bounds[2], bounds[5] - bounds[4])
        display = Show(glyph, self.view)
        try:
            ColorBy(display, None)
        except RuntimeError:  # on a display that was never coloured (glyphs of --group a+b)
            display.ColorArrayName = ["POINTS", ""]
        display.AmbientColor = display.DiffuseColor = [0.05, 0.05, 0.05]
        display.LineWidth = 3

    def show_time(self, t):
        """Shows the frame nearest to @p t, the deformed arm filling the view; returns its time."""
        nearest = min(self.times, key=lambda s: abs(s - t))
        GetAnimationScene().AnimationTime = nearest
        self.view.ViewTime = nearest
        self.warp.UpdatePipeline(nearest)
        bounds = self.warp.GetDataInformation().GetBounds()
        if self.reference is not None:
            self.reference.UpdatePipeline(nearest)
            rest = self.reference.GetDataInformation().GetBounds()
            bounds = [f(a, b) for f, a, b in zip([min, max] * 3, bounds, rest)]
        self.fit(bounds)
        return nearest

    def fit(self, bounds):
        """Parallel projection along -view_from with y up, scaled to the box @p bounds."""
        d = normalise(self.view_from)
        up = normalise([u - dot([0, 1, 0], d) * di for u, di in zip([0, 1, 0], d)])
        right = [up[1] * d[2] - up[2] * d[1], up[2] * d[0] - up[0] * d[2], up[0] * d[1] - up[1] * d[0]]
        corners = [(x, y, z) for x in bounds[0:2] for y in bounds[2:4] for z in bounds[4:6]]
        width = max(dot(c, right) for c in corners) - min(dot(c, right) for c in corners)
        height = max(dot(c, up) for c in corners) - min(dot(c, up) for c in corners)
        centre = [(bounds[2 * i] + bounds[2 * i + 1]) / 2 for i in range(3)]
        size = max(width, height)
        self.view.CameraFocalPoint = centre
        self.view.CameraPosition = [c + 10 * size * di for c, di in zip(centre, d)]
        self.view.CameraViewUp = up
        self.view.CameraParallelProjection = 1
        aspect = self.view.ViewSize[0] / self.view.ViewSize[1]
        self.view.CameraParallelScale = 0.55 * max(height, width / aspect)

    def screenshot(self, path, resolution=(900, 700)):
        self.view.OrientationAxesVisibility = 1
        SaveScreenshot(path, self.view, ImageResolution=list(resolution))


def probe_plot(pvd):
    """A line chart of the displacement of the first probe over time, from <base>.csv; None if the
    run has no probes."""
    csv = os.path.splitext(os.path.abspath(pvd))[0] + ".csv"
    if not os.path.exists(csv):
        return None
    with open(csv) as f:
        header = f.readline().strip().split(",")
    series = [c for c in ("p0_ux", "p0_uy", "p0_uz") if c in header]
    if not series:
        return None
    table = CSVReader(FileName=[csv])
    chart = CreateView("XYChartView")
    chart.LeftAxisTitle = "displacement of probe 0 [m]"
    chart.BottomAxisTitle = "time [s]"
    display = Show(table, chart)
    display.UseIndexForXAxis = 0
    display.XArrayName = "time"
    display.SeriesVisibility = series
    return chart


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("series", help="the run's .pvd file")
    parser.add_argument("--group", default=None)
    parser.add_argument("--time", type=float, default=None)
    parser.add_argument("--png", default=None)
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--view-from", type=float, nargs=3, default=[1.0, 0.35, 0.25],
                        help="direction from the arm to the camera (y is up in the picture)")
    args = parser.parse_args()
    start = clock.time()
    arm = ArmView(args.series, args.group, view_from=args.view_from)
    shown = arm.show_time(arm.times[-1] if args.time is None else args.time)
    layout = CreateLayout("Hydrostat run")
    AssignViewToLayout(view=arm.view, layout=layout, hint=0)
    chart = None if args.no_plot else probe_plot(args.series)
    if chart is not None:
        layout.SplitHorizontal(0, 0.62)
        AssignViewToLayout(view=chart, layout=layout, hint=2)
    SetActiveView(arm.view)
    if args.png:
        arm.screenshot(args.png)
        print("wrote", args.png)
    state = os.path.splitext(arm.pvd)[0] + ".pvsm"
    SaveState(state)
    print(f"group {arm.group}, t = {shown:g} s; wrote {state} ({clock.time() - start:.1f} s); open it with: "
          f"paraview --state {state}")


if __name__ == "__main__":
    main()
