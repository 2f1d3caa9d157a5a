"""A spatial result as VTK files for ParaView: one unstructured grid (``.vtu``) per output and a
``.pvd`` collection naming each with its time (what :meth:`rancf.Result.to_vtk` writes).

Each grid's points are the tree's bodies (beam nodes and rigid bodies, in the order of
``Result.nodes``) at their origins; a beam is a polyline of VTK line cells, one per element
(node k to node k + 1), a rigid body a vertex cell. Point data: the body frame's axes
``x_axis``, ``y_axis``, ``z_axis`` (unit 3-vectors in global coordinates: for a beam node the
beam's tangent and its section axes y, z), ``velocity`` (m/s) and ``angular_velocity`` (rad/s).
Cell data: ``beam`` (the beam's index, -1 on a rigid body's vertex), ``rigid_body`` (its index,
-1 on a beam's line) and the section forces of each element, six scalars named by their
component (:data:`rancf.results.spatial_sections.COMPONENTS`: ``normal_force``,
``shear_force_y``, ``shear_force_z`` in N, ``torsion``, ``bending_moment_y``,
``bending_moment_z`` in N m, in the element's section frame, as
:meth:`rancf.Result.internal_forces` gives them; NaN on a rigid body's vertex). An ANCF
cable (``"ancf-cable"``, its nodes points after the bodies', as in ``Result.nodes``) is a
polyline too, ``beam`` its index, carrying at each element's midpoint what
:meth:`rancf.Result.internal_forces` gives for it: its ``normal_force`` (N, tension
positive) and its bending moment as the vector ``cable_bending_moment`` (N m, global, normal
to the cable); a cable carries no shear or torsion and its moment has no section frame, so
its other components are NaN, as ``cable_bending_moment`` is on a beam's line and a rigid
body's vertex.

meshio is imported when a file is written (``import rancf`` does not import it): ``pip install
rancf[vtk]``.
"""
import contextlib
import os

import numpy as np

from .files import atomic_write
from .spatial_sections import COMPONENTS, element_sections, internal_forces

#: The .pvd collection: a ParaView data set per frame with its time.
PVD_HEAD = ('<?xml version="1.0"?>\n<VTKFile type="Collection" version="0.1" '
            'byte_order="LittleEndian">\n  <Collection>\n')
PVD_ROW = '    <DataSet timestep="{t}" group="" part="0" file="{file}"/>\n'
PVD_TAIL = "  </Collection>\n</VTKFile>\n"


def _folder(folder):
    """``folder`` as a path, with an error naming it when it is a file (a missing folder is
    made by :func:`_make`, when the files are about to be written)."""
    if not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"folder must be a path to a folder (str or os.PathLike), got {folder!r}")
    folder = os.fspath(folder)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise NotADirectoryError(f"cannot write VTK files to {folder}: it is a file, not a folder")
    return folder


def _make(folder):
    """Make ``folder`` and its missing parents (nothing when it exists), as an output call is
    expected to; an error names the folder (a parent that is a file, no permission)."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as error:
        raise type(error)(error.errno, f"cannot make the folder {folder} for the VTK files: "
                          f"{error.strerror}") from error


def _name(name):
    if not isinstance(name, str) or not name or os.sep in name or (os.altsep or os.sep) in name:
        raise ValueError(f"name must be a non-empty file name without a folder, got {name!r}")
    return name


def _cells(tree, n_beams):
    """The cell blocks of every frame (bodies as points) and their cell data."""
    lines = [np.column_stack([nodes[:-1], nodes[1:]]) for nodes in
             (tree.node_body[tree.beam_nodes[b]:tree.beam_nodes[b + 1]] for b in range(n_beams))]
    beam = np.concatenate([np.full(len(seg), b) for b, seg in enumerate(lines)] or [[]])
    lines = np.concatenate(lines or [np.zeros((0, 2))]).astype(np.int64)
    vertices = np.asarray(tree.rigid_body, dtype=np.int64)[:, None]
    cells, beam_data, rigid_data = [], [], []
    if len(lines):
        cells.append(("line", lines))
        beam_data.append(beam.astype(np.int64))
        rigid_data.append(np.full(len(lines), -1, dtype=np.int64))
    if len(vertices):
        cells.append(("vertex", vertices))
        beam_data.append(np.full(len(vertices), -1, dtype=np.int64))
        rigid_data.append(np.arange(len(vertices), dtype=np.int64))
    return cells, {"beam": beam_data, "rigid_body": rigid_data}


def to_vtk(res, folder, name="result"):
    """:meth:`rancf.Result.to_vtk`."""
    tree = res._assembly("to_vtk()")
    if res.model.dim != 3:
        raise ValueError("to_vtk is for spatial results (rancf.Model(dim=3)); draw a planar "
                         "result with plot() or animate()")
    folder, name = _folder(folder), _name(name)
    import meshio   # here, not at the top: an optional dependency (pip install rancf[vtk])

    cells, cell_data = _cells(tree, len(res.model.beams))
    n_out = len(res.t)
    # the elements' section forces, beam after beam as the line cells are (n_out, lines, 6),
    # and the cables' moment vectors (n_out, lines, 3): a cable's section forces
    # (Result.internal_forces at the element midpoints: N, then a global moment vector) are
    # not the six section-frame components of a beam's
    sections, cable_moments = [], []
    for b, beam in enumerate(res.model.beams):
        if getattr(beam, "element", None) == "ancf-cable":
            forces = internal_forces(res, b)
            sections.append(np.full((n_out, beam.n_elements, 6), np.nan))
            sections[-1][..., 0] = forces[..., 0]
            cable_moments.append(forces[..., 1:])
        else:
            sections.append(element_sections(res, b))
            cable_moments.append(np.full((n_out, beam.n_elements, 3), np.nan))
    sections = np.concatenate(sections or [np.zeros((n_out, 0, 6))], axis=1)
    cable_moments = np.concatenate(cable_moments or [np.zeros((n_out, 0, 3))], axis=1)
    n_vertices = len(tree.rigid_body)
    width = max(5, len(str(n_out - 1)))
    files = [f"{name}_{k:0{width}d}.vtu" for k in range(n_out)]
    _make(folder)
    # every frame to a temporary name first, renamed together when all are written, the
    # collection last: an interrupted write leaves no file under the final names
    with contextlib.ExitStack() as written:
        for k, file in enumerate(files):
            tmp = written.enter_context(atomic_write(os.path.join(folder, file), ".vtu"))
            pose, rate = res.nodes[k], res.velocities[k]
            frame = pose[:, 3:].reshape(-1, 3, 3)
            forces = {component: ([sections[k, :, j]] if sections.shape[1] else [])
                      + ([np.full(n_vertices, np.nan)] if n_vertices else [])
                      for j, component in enumerate(COMPONENTS)}
            forces["cable_bending_moment"] = (
                ([cable_moments[k]] if sections.shape[1] else [])
                + ([np.full((n_vertices, 3), np.nan)] if n_vertices else []))
            points = {"x_axis": frame[:, :, 0], "y_axis": frame[:, :, 1],
                      "z_axis": frame[:, :, 2], "velocity": rate[:, :3],
                      "angular_velocity": rate[:, 3:]}
            mesh = meshio.Mesh(pose[:, :3], cells, cell_data={**cell_data, **forces},
                               point_data=points)
            meshio.write(tmp, mesh, file_format="vtu")
    collection = os.path.join(folder, name + ".pvd")
    with atomic_write(collection, ".pvd") as tmp, open(tmp, "w", encoding="utf-8") as f:
        f.write(PVD_HEAD)
        f.writelines(PVD_ROW.format(t=repr(float(t)), file=file) for t, file in zip(res.t, files))
        f.write(PVD_TAIL)
    return collection
