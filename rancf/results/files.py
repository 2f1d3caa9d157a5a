"""The file format of a :class:`~rancf.results.result.Result`: a compressed NumPy archive of its
arrays and energies with a JSON meta record (format, status, texts, counters, wall time and the
layout of the model it ran), written atomically by :func:`save` and read back, checked whole, by
:func:`load`."""
import contextlib
import json
import os
import tempfile

import numpy as np

from ..elements.beam import PlanarANCFBeam
from ..model.model import Model
from .result import STATUSES, Result

FORMAT_VERSION = 2


def save(result, path):
    """Write ``result`` to ``path`` (what :meth:`Result.save <rancf.results.result.Result.save>`
    does; see there)."""
    path = os.fspath(path)
    energy = result.energy()
    meta = {"format": FORMAT_VERSION, "status": result.status, "message": result.message,
            "method": result.method, "formulation": result.formulation,
            "stats": {k: (int(v) if isinstance(v, (int, np.integer)) else float(v))
                      for k, v in result.stats.items()},
            "wall_time": result.wall_time}
    if result.model is not None:
        meta["layout"] = layout(result.model.build())
    arrays = {"t": result.t, "nodes": result.nodes, "velocities": result.velocities,
              "joint_q": result.joint_q, "joint_qd": result.joint_qd,
              "reactions": result.reactions, "work": result.work, "dissipated": result.dissipated,
              "kinetic": energy.kinetic.to_numpy(), "elastic": energy.elastic.to_numpy(),
              "gravity": energy.gravity.to_numpy(), "meta": np.array(json.dumps(meta))}
    arrays.update({"extra__" + k: v for k, v in result.extra.items()})
    with atomic_write(path, ".npz") as tmp:
        try:
            with open(tmp, "wb") as f:
                np.savez_compressed(f, **arrays)
        except OSError as exc:
            raise OSError(f"cannot write {path}: {exc.strerror or exc}") from exc


@contextlib.contextmanager
def atomic_write(path, suffix):
    """Write a file whole or not at all: yields a temporary file name in ``path``'s folder (an
    empty file, closed), which becomes ``path`` (renamed, with the permissions a new file gets)
    when the block ends, and is removed when it raises.

    Every file rancf writes (results, animations, VTK frames) goes through here, so that an
    interrupted write leaves any previous file under ``path`` whole.

    Parameters
    ----------
    path : str
        The final name.
    suffix : str
        Of the temporary name (writers that choose the format by suffix read it).

    Raises
    ------
    OSError
        The folder cannot be written (the message names ``path``).
    """
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rancf-", suffix=suffix)
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror}") from exc
    os.close(fd)
    try:
        yield tmp
        umask = os.umask(0)
        os.umask(umask)
        try:
            os.chmod(tmp, 0o666 & ~umask)
            os.replace(tmp, path)
        except OSError as exc:
            raise OSError(f"cannot write {path}: {exc.strerror or exc}") from exc
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def layout(assembly):
    """What a Result file must share with the model it is loaded onto, as JSON-ready lists:
    the items (``["beam", n_elements]``, ``["body", 0]``, in vertex order) and the joints
    (``[kind, parent vertex, child vertex]``, -1 for the ground)."""
    A = assembly
    return {"items": [["beam", b.n_elements] for b in A.beams] + [["body", 0] for _ in A.bodies],
            "joints": [[j.kind, int(p), int(c)]
                       for j, p, c in zip(A.joints, A.parent_vertex, A.child_vertex)]}


#: The arrays every Result file holds (besides ``meta`` and the ``extra__`` ones).
ARRAYS = ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions", "work", "dissipated",
          "kinetic", "elastic", "gravity")


def _is_real(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_meta(path, meta):
    """The meta record of a Result file: its format, status, texts, counters and wall time."""
    if not isinstance(meta, dict):
        raise ValueError(f"{path}: the meta record must be a JSON object, got "
                         f"{type(meta).__name__}")
    found = meta.get("format")
    if not (isinstance(found, int) and not isinstance(found, bool) and found == FORMAT_VERSION):
        raise ValueError(f"{path}: not a rancf Result of format {FORMAT_VERSION} "
                         f"(found {found!r})")
    missing = [k for k in ("status", "message", "method", "formulation", "stats", "wall_time")
               if k not in meta]
    if missing:
        raise ValueError(f"{path}: the meta record lacks {', '.join(missing)}")
    if meta["status"] not in STATUSES:
        raise ValueError(f"{path}: status must be one of {STATUSES}, got {meta['status']!r}")
    for k in ("message", "method", "formulation"):
        if not isinstance(meta[k], str):
            raise ValueError(f"{path}: {k} must be a string, got {meta[k]!r}")
    stats = meta["stats"]
    if not (isinstance(stats, dict) and all(_is_real(v) for v in stats.values())):
        raise ValueError(f"{path}: stats must map names to numbers, got {stats!r}")
    wall = meta["wall_time"]
    if not (_is_real(wall) and 0.0 <= wall < float("inf")):
        raise ValueError(f"{path}: wall_time must be a number of seconds >= 0, got {wall!r}")
    if "layout" in meta and not (isinstance(meta["layout"], dict)
                                 and set(meta["layout"]) == {"items", "joints"}):
        raise ValueError(f"{path}: the model layout must hold items and joints, got "
                         f"{meta['layout']!r}")


def _check_file(path, a):
    """The arrays of a Result file: real numbers (booleans too in ``extra``), shapes that
    agree, at least one output, finite increasing times."""
    missing = [k for k in ARRAYS if k not in a]
    if missing:
        raise ValueError(f"{path}: not a complete rancf Result (missing {', '.join(missing)})")
    for k, v in a.items():
        kinds = "biuf" if k.startswith("extra__") else "iuf"
        if v.dtype.kind not in kinds:
            raise ValueError(f"{path}: {k} must hold real numbers, got dtype {v.dtype}")
    n = a["t"].shape[0] if a["t"].ndim == 1 else -1
    ns = PlanarANCFBeam.node_size    # the planar kinds' nodes: the only ones a file holds yet
    if n < 1 or a["nodes"].ndim != 3 or a["nodes"].shape[0] != n or a["nodes"].shape[2] != ns:
        raise ValueError(f"{path}: t must be (n_out,) with n_out >= 1 and nodes "
                         f"(n_out, n_vertices, {ns}), got {a['t'].shape} and {a['nodes'].shape}")
    if a["velocities"].shape != a["nodes"].shape:
        raise ValueError(f"{path}: velocities {a['velocities'].shape} do not match nodes "
                         f"{a['nodes'].shape}")
    for k in ("joint_q", "joint_qd", "reactions"):
        if a[k].ndim != 2 or a[k].shape[0] != n or a[k].shape[1] != a["joint_q"].shape[1]:
            raise ValueError(f"{path}: {k} must be (n_out, n_joints), got {a[k].shape}")
    for k in ("work", "dissipated", "kinetic", "elastic", "gravity"):
        if a[k].shape != (n,):
            raise ValueError(f"{path}: {k} must be (n_out,) = ({n},), got {a[k].shape}")
    for k, v in a.items():
        if k.startswith("extra__") and (v.ndim < 1 or v.shape[0] != n):
            raise ValueError(f"{path}: {k} must have n_out = {n} rows, got shape {v.shape}")
    if not np.all(np.isfinite(a["t"])) or np.any(np.diff(a["t"]) < 0):
        raise ValueError(f"{path}: the output times must be finite and increasing")


def _difference(name, plural, theirs, ours):
    """The first difference of two lists of layout entries, in words (None if equal)."""
    if len(theirs) != len(ours):
        return f"{len(theirs)} {plural} in the file, {len(ours)} in the model"
    for k, (a, b) in enumerate(zip(theirs, ours)):
        if a != b:
            return f"{name} {k} is {a} in the file, {b} in the model"
    return None


def _check_model(path, model, meta, arrays):
    """The model a file is loaded onto has the file's layout (items and joints), or, for a
    file saved without it (a Result loaded without its model), its numbers of vertices and
    joints."""
    A = model.build()
    if "layout" in meta:
        ours = layout(A)
        theirs = meta["layout"]["items"], meta["layout"]["joints"]
        found = [_difference("item", "items", theirs[0], ours["items"]),
                 _difference("joint", "joints", theirs[1], ours["joints"])]
    else:
        found = [_difference("vertex", "vertices", [0] * arrays["nodes"].shape[1],
                             [0] * A.n_vertices),
                 _difference("joint", "joints", [0] * arrays["joint_q"].shape[1],
                             [0] * A.n_joints)]
    found = [f for f in found if f]
    if found:
        raise ValueError(f"{path}: saved from a model of another layout ({'; '.join(found)})")


def load(path, model=None):
    """Read a :class:`Result` written by :meth:`Result.save`.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    model : Model, optional
        The model that was run. Without it the arrays, energies, joints, reactions and status
        are there, but not what needs the model (positions of points, the tip, pictures);
        with it, the file must have been saved from a model of the same layout (items and
        joints, :func:`layout`; a file saved without a model: the same numbers of vertices
        and joints).

    Returns
    -------
    Result

    Raises
    ------
    TypeError
        ``path`` is not a path, or ``model`` not a Model.
    ValueError
        The file cannot be read, is not a rancf Result of this format, its meta record or
        arrays are damaged or disagree, or it does not match ``model``: the message names
        ``path`` and what is wrong (the whole file is checked).

    Examples
    --------
    >>> import os, tempfile
    >>> m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    >>> path = os.path.join(tempfile.mkdtemp(), "run.npz")
    >>> rancf.simulate(m, t_end=0.1, dt=1e-3).save(path)
    >>> rancf.load(path).energy().shape
    (11, 7)
    >>> rancf.load(path, model=m).tip().shape
    (11, 2)
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    path = os.fsdecode(path)
    if model is not None and not isinstance(model, Model):
        raise TypeError(f"model must be a rancf.Model or None, got {type(model).__name__}")
    try:
        f = np.load(path, allow_pickle=False)
        if not isinstance(f, np.lib.npyio.NpzFile):
            raise ValueError("a single array (.npy), not an archive of arrays")
        with f:
            arrays = {k: f[k] for k in f.files}
        meta = json.loads(str(arrays.pop("meta")))
    except Exception as exc:
        # a damaged file fails wherever numpy, zipfile or zlib meet the damage (a bad header,
        # checksum or compressed stream, a missing member, a size beyond memory): all are the
        # same for the user, a file that cannot be read
        raise ValueError(f"{path}: not a readable rancf Result file ({type(exc).__name__}: "
                         f"{exc})") from exc
    _check_meta(path, meta)
    _check_file(path, arrays)
    if model is not None:
        _check_model(path, model, meta, arrays)
    extra = {k[len("extra__"):]: v for k, v in arrays.items() if k.startswith("extra__")}
    return Result(model, arrays["t"], arrays["nodes"], arrays["velocities"], arrays["joint_q"],
                  arrays["joint_qd"], arrays["reactions"], arrays["work"], arrays["dissipated"],
                  status=meta["status"], message=meta["message"], method=meta["method"],
                  formulation=meta["formulation"], stats=meta["stats"], extra=extra,
                  wall_time=meta["wall_time"],
                  energy_table={k: arrays[k] for k in ("kinetic", "elastic", "gravity")})
