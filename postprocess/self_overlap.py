#!/usr/bin/env python3
"""Count the body's surface vertices that lie inside the body elsewhere: the overlap self-contact
prevents (issue 27). For each output time, a boundary vertex of the deformed mesh counts if it lies
in a deformed cell (or on its faces) whose centre was farther than --distance from the vertex in
the reference configuration (so a vertex is never counted against its own neighbourhood), and
more than 0.1 µm from the boundary faces of those far cells: inside the body there, a vertex on the
face between two such cells (a symmetry plane) included. That distance is the vertex's depth (to
the surface it has passed); the largest depth of each time is printed with the count.

    /usr/bin/python3 postprocess/self_overlap.py output/octopus_bending                # every output time
    /usr/bin/python3 postprocess/self_overlap.py output/octopus_bending --times 0.5 1
    /usr/bin/python3 postprocess/self_overlap.py --check     # the count on two bodies with a known answer

Reads <dir>/<base>.pvd and its .pvtu files (vertices of hexahedral cells, the 'displacement'
field); needs VTK's Python module (Debian: python3-vtk9, part of the ParaView install).
"""
import argparse
import glob
import os
import xml.etree.ElementTree as ElementTree

import vtk
from vtk.util.numpy_support import vtk_to_numpy

# Closer than this to the surface counts as on it [m]: the resolution of 32-bit positions at 0.1 m.
SURFACE = 1e-7

# The faces of a VTK hexahedron by its local vertex numbers.
HEX_FACES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))


def read(path):
    reader = vtk.vtkXMLPUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    return reader.GetOutput()


def overlap(grid, distance):
    X = vtk_to_numpy(grid.GetPoints().GetData())
    U = vtk_to_numpy(grid.GetPointData().GetArray("displacement"))
    key = lambda p: tuple(round(c, 9) for c in X[p])
    # Boundary vertices: those of faces that one cell has (keyed by reference position, so the
    # pieces' shared vertices are one).
    faces = {}
    centres = []
    for c in range(grid.GetNumberOfCells()):
        ids = grid.GetCell(c).GetPointIds()
        points = [ids.GetId(k) for k in range(ids.GetNumberOfIds())]
        centres.append(X[points].mean(axis=0))
        if len(points) == 8:
            for face in HEX_FACES:
                f = tuple(sorted(key(points[k]) for k in face))
                count, _, _ = faces.get(f, (0, c, None))
                faces[f] = (count + 1, c, [points[k] for k in face])
    boundary_faces = [(c, corners) for count, c, corners in faces.values() if count == 1]
    boundary = {key(p) for _, corners in boundary_faces for p in corners}
    current = vtk.vtkPoints()
    for p in range(grid.GetNumberOfPoints()):
        current.InsertNextPoint(*(X[p] + U[p]))
    deformed = vtk.vtkUnstructuredGrid()
    deformed.DeepCopy(grid)
    deformed.SetPoints(current)
    locator = vtk.vtkCellLocator()
    locator.SetDataSet(deformed)
    locator.BuildLocator()
    seen, inside, depth = set(), 0, 0.0
    for p in range(grid.GetNumberOfPoints()):
        k = key(p)
        if k not in boundary or k in seen:
            continue
        seen.add(k)
        x = X[p] + U[p]
        eps = 1e-9
        ids = vtk.vtkIdList()
        locator.FindCellsWithinBounds([x[0] - eps, x[0] + eps, x[1] - eps, x[1] + eps, x[2] - eps, x[2] + eps], ids)
        for n in range(ids.GetNumberOfIds()):
            c = ids.GetId(n)
            if ((centres[c] - X[p]) ** 2).sum() < distance ** 2:
                continue
            closest, pcoords, weights = [0.0] * 3, [0.0] * 3, [0.0] * 8
            sub, d2 = vtk.reference(0), vtk.reference(0.0)
            if deformed.GetCell(c).EvaluatePosition(x, closest, sub, pcoords, d2, weights) == 1 and \
                    min(pcoords) > -1e-6 and max(pcoords) < 1 + 1e-6:
                # In the cell or on its faces: inside the body unless on its surface (a vertex on
                # the face between two far cells, as on a symmetry plane, is inside). The distance
                # does not depend on the cell: the first one decides.
                far = [corners for cell, corners in boundary_faces
                       if ((centres[cell] - X[p]) ** 2).sum() >= distance ** 2]
                passed = distance_to_faces(x, far, current)
                if passed > SURFACE:
                    inside += 1
                    depth = max(depth, passed)
                break
    return inside, len(seen), depth


def distance_to_faces(x, faces, points):
    """Distance from x to the nearest of the deformed quadrilateral faces (each split in two
    triangles)."""
    surface = vtk.vtkPolyData()
    surface.SetPoints(points)
    triangles = vtk.vtkCellArray()
    for a, b, c, d in faces:
        for triangle in ((a, b, c), (a, c, d)):
            triangles.InsertNextCell(3, triangle)
    surface.SetPolys(triangles)
    locator = vtk.vtkCellLocator()
    locator.SetDataSet(surface)
    locator.BuildLocator()
    closest, cell, sub, d2 = [0.0] * 3, vtk.reference(0), vtk.reference(0), vtk.reference(0.0)
    locator.FindClosestPoint(x, closest, cell, sub, d2)
    return d2.get() ** 0.5


def check():
    """The count on two bodies with a known answer: two unit cubes side by side, x in [0, 2], and a
    0.2 mm cube, reference z in [10, 10.2], moved down to z in [0.8, 1]. Its 4 lower vertices are
    inside the pair, 0.2 deep: two on the face x = 1 between the cubes, two within the second cube;
    its 4 upper vertices lie on the pair's top face, not inside. Of the 20 surface vertices 4 count."""
    grid, points, displacement = vtk.vtkUnstructuredGrid(), vtk.vtkPoints(), vtk.vtkDoubleArray()
    points.SetDataTypeToDouble()
    displacement.SetName("displacement")
    displacement.SetNumberOfComponents(3)

    def add_cube(lower, size, shift):
        ids = vtk.vtkIdList()
        for dx, dy, dz in ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1)):
            ids.InsertNextId(points.InsertNextPoint(lower[0] + dx * size[0], lower[1] + dy * size[1],
                                                    lower[2] + dz * size[2]))
            displacement.InsertNextTuple3(*shift)
        grid.InsertNextCell(vtk.VTK_HEXAHEDRON, ids)

    add_cube((0, 0, 0), (1, 1, 1), (0, 0, 0))
    add_cube((1, 0, 0), (1, 1, 1), (0, 0, 0))
    add_cube((1, 0.4, 10), (0.2, 0.2, 0.2), (0, 0, -9.2))
    grid.SetPoints(points)  # in double precision: 32-bit positions at z = 10 are 1e-6 off
    grid.GetPointData().AddArray(displacement)
    inside, total, depth = overlap(grid, 1.0)
    print(f"{inside} of {total} vertices inside, {depth:.6f} deep (expected 4 of 20, 0.2)")
    return inside == 4 and total == 20 and abs(depth - 0.2) < 1e-6


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", nargs="?")
    parser.add_argument("--check", action="store_true", help="count on two bodies with a known answer and exit")
    parser.add_argument("--times", nargs="+", type=float, help="output times to check [s] (default: all)")
    parser.add_argument("--distance", type=float, default=0.02,
                        help="cells whose reference centre is closer than this to the vertex do not count [m]")
    args = parser.parse_args()
    if args.check:
        raise SystemExit(0 if check() else 1)
    if not args.directory:
        parser.error("the directory of a run's ParaView output is needed")
    pvds = glob.glob(os.path.join(args.directory, "*.pvd"))
    if not pvds:
        raise SystemExit(f"self_overlap.py: no .pvd file in {args.directory}: run a case with ParaView output")
    datasets = [(float(d.get("timestep")), d.get("file")) for d in ElementTree.parse(pvds[0]).getroot().iter("DataSet")]
    print("time [s]  surface vertices inside the body elsewhere, the deepest [mm]")
    for t in args.times if args.times else [time for time, _ in datasets]:
        time, name = min(datasets, key=lambda d: abs(d[0] - t))
        inside, total, depth = overlap(read(os.path.join(args.directory, name)), args.distance)
        print(f"{time:8.4f}  {inside} of {total}" + (f", {1e3 * depth:.3f}" if inside else ""))


if __name__ == "__main__":
    main()
