"""The file format of a :class:`~rancf.results.result.Result`: a compressed NumPy archive of its
arrays and energies, the values its model's input functions gave at the outputs (``inputs__``
members, one a recorded key), with a JSON meta record (format, status, texts, counters, wall
time, the recorded inputs' keys and the layout of the model it ran), written atomically by
:func:`save` and read back, checked whole, by :func:`load`."""
import contextlib
import json
import math
import os
import reprlib
import secrets
import socket
import stat
import warnings
import zipfile
from typing import NamedTuple

import numpy as np

from ..elements.beam import PlanarANCFBeam
from ..joints import REGISTRY
from ..integrators.solution import Solution
from ..utilities.memory import available_memory
from ..model.model import Model
from .result import SPATIAL_POSE, SPATIAL_VELOCITY, STATUSES, built

#: The format :func:`save` writes: 3 adds the recorded input values (``inputs__`` members, the
#: meta record's ``inputs``) to 2.
FORMAT_VERSION = 3
#: The formats :func:`load` reads: a file of format 2 has no recorded input values.
READABLE_FORMATS = (2, 3)
#: The prefix of the members that hold the recorded input values, one a key of
#: :class:`~rancf.formulations.inputs.Recorded`: ``inputs__load_force`` (planar: an inputs
#: array's name), ``inputs__0`` (spatial: a function's number), (n_out, ...) each.
INPUTS = "inputs__"


def save(result, path):
    """Write ``result`` to ``path`` (what :meth:`Result.save <rancf.results.result.Result.save>`
    does; see there)."""
    path = os.fspath(path)
    energy = result.energy()
    meta = {"format": FORMAT_VERSION, "status": result.status, "message": result.message,
            "method": result.method, "method_reason": result.method_reason,
            "formulation": result.formulation,
            "stats": {k: (int(v) if isinstance(v, (int, np.integer)) else float(v))
                      for k, v in result.stats.items()},
            "wall_time": result.wall_time}
    if result.model is not None:
        meta.update({"layout": layout(result.model),
                     "joint_coordinates": joint_coordinates(result.model),
                     "parameters": parameters(result.model)})
    else:
        # a Result loaded without its model keeps what its file recorded of it
        meta.update(result._stored_model or {})
    # the values the input functions gave at the outputs, which the outputs computed from the
    # frames play back (a loaded Result never calls the model's functions)
    meta["inputs"], recorded = recorded_arrays(result)
    arrays = {"t": result.t, "nodes": result.nodes, "velocities": result.velocities,
              "joint_q": result.joint_q, "joint_qd": result.joint_qd,
              "reactions": result.reactions, "work": result.work, "dissipated": result.dissipated,
              "kinetic": energy.kinetic.to_numpy(), "elastic": energy.elastic.to_numpy(),
              "gravity": energy.gravity.to_numpy(), "meta": np.array(json.dumps(meta))}
    arrays.update({"extra__" + k: v for k, v in result.extra.items()})
    arrays.update({INPUTS + str(k): v for k, v in recorded.items()})
    with atomic_write(path, ".npz") as tmp:
        try:
            with open(tmp, "wb") as f:
                np.savez_compressed(f, **arrays)
        except OSError as exc:
            raise OSError(f"cannot write {path}: {exc.strerror or exc}") from exc


def recorded_arrays(result):
    """The recorded input values of ``result`` (:attr:`Result.inputs
    <rancf.results.result.Result.inputs>`) as the file keeps them: (keys, {key: array (n_out,
    ...)}), each key's values at the outputs stacked in output order; (None, {}) for a Result
    that has none. The keys are JSON's (an inputs array's name, a function's number)."""
    recorded = result.inputs
    if recorded is None:
        return None, {}
    keys = sorted(recorded.keys, key=lambda k: (isinstance(k, str), k))
    return keys, {k: np.array([np.asarray(recorded.value(k, t), dtype=float) for t in result.t])
                  for k in keys}


def _recorded(path, meta, arrays):
    """The :class:`~rancf.formulations.inputs.Recorded` of a file's ``inputs__`` members (None
    where it has none: format 2, or a run that kept none), checked against the keys its meta
    record lists: each listed once, as a member, and no other member."""
    keys = meta.get("inputs")
    members = sorted(k[len(INPUTS):] for k in arrays if k.startswith(INPUTS))
    if keys is None:
        if members:
            raise ValueError(f"{path}: it holds recorded input values ({', '.join(members)}) "
                             "its meta record does not list")
        return None
    if sorted(str(k) for k in keys) != members or len(set(map(str, keys))) != len(keys):
        raise ValueError(f"{path}: the recorded input values {reprlib.repr(members)} do not "
                         f"match the keys its meta record lists, {reprlib.repr(keys)}")
    from ..formulations.inputs import Recorded
    values = {k: arrays.pop(INPUTS + str(k)) for k in keys}
    return Recorded(arrays["t"], [{k: v[i] for k, v in values.items()}
                                  for i in range(len(arrays["t"]))])


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
        _remove_stale_temporaries(folder)
        fd, tmp = _temporary(folder, suffix)
    except OSError as exc:
        raise OSError(f"cannot write {path}: {exc.strerror}") from exc
    os.close(fd)
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)    # on disk before it takes the name: no empty file after a crash
        finally:
            os.close(fd)
        try:
            os.replace(tmp, path)
        except OSError as exc:
            raise OSError(f"cannot write {path}: {exc.strerror or exc}") from exc
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


#: How the temporary file of a write is named, in the target's folder: its host and process,
#: so that the next write to that folder can tell a temporary left by a killed one (whose
#: process is gone) from one being written; then the target's suffix.
TEMPORARY = ".rancf-{host}-{pid}-{token}{suffix}"


def _temporary(folder, suffix):
    """A new temporary file in ``folder`` (:data:`TEMPORARY`), opened for writing: (fd, path).
    Created with mode 0666, so that the user's umask applies (not mkstemp's 0600)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        name = TEMPORARY.format(host=socket.gethostname(), pid=os.getpid(),
                                token=secrets.token_hex(4), suffix=suffix)
        try:
            return os.open(os.path.join(folder, name), flags, 0o666), os.path.join(folder, name)
        except FileExistsError:
            continue


def _remove_stale_temporaries(folder):
    """Remove the temporaries (:data:`TEMPORARY`) of this host's saves to ``folder`` whose
    process is gone: left by a save killed before its rename. Those of live processes, of
    other hosts (a shared folder) and of other programs are left alone. POSIX only: elsewhere
    a process cannot be asked whether it lives without being signalled."""
    if os.name != "posix":
        return
    head = ".rancf-" + socket.gethostname() + "-"
    for name in os.listdir(folder):
        if not name.startswith(head):
            continue
        pid = name[len(head):].partition("-")[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            try:
                os.unlink(os.path.join(folder, name))
            except FileNotFoundError:   # another save removed it first
                pass
        except OSError:                 # alive, another user's
            pass


def layout(model):
    """What a Result file must share with the model it is loaded onto, as JSON-ready lists:
    the items (``["beam", n_elements]``, ``["body", 0]``, in vertex order; a spatial model's
    ``["spatial beam", n_elements]``, ``["spatial body", 0]``) and the joints (``[kind, parent,
    child]``: planar vertices, a spatial model's tree bodies, -1 for the ground)."""
    A = model.build()
    spatial = "spatial " if model.dim == 3 else ""
    items = ([[spatial + getattr(b, "element", "beam").replace("ancf-", ""), b.n_elements]
              for b in model.beams]
             + [[spatial + "body", 0] for _ in model.rigid_bodies])
    if model.dim == 3:
        # a joint that closes a loop (joint_body -1) joins its loop link's bodies
        # (a joint at a cable point joins its cable link's sides)
        loop = {int(j): k for k, j in enumerate(A.loop_joint)}
        cable = {int(j): k for k, j in enumerate(A.cable_joint)}
        children = [int(b) if b >= 0 else int(A.loop_child[loop[j]]) if j in loop else
                    int(A.cable_joint_child[cable[j]]) for j, b in enumerate(A.joint_body)]
        parents = [int(A.parent[b]) if b >= 0 else int(A.loop_parent[loop[j]]) if j in loop
                   else int(A.cable_joint_parent[cable[j]]) for j, b in enumerate(A.joint_body)]
    else:
        parents, children = A.parent_vertex, A.child_vertex
    return {"items": items, "joints": [[j.kind, int(p), int(c)]
                                       for j, p, c in zip(model.joints, parents, children)]}


def joint_coordinates(model):
    """The number of coordinates of each joint, in ``joint_q``'s order (spatial: its kind's
    ``spatial.n_coordinates``, 0 to 6; planar: one each): how a Result loaded without its model
    finds a joint's columns."""
    if model.dim == 3:
        return [int(j.type.spatial.n_coordinates) for j in model.joints]
    return [1] * len(model.joints)


#: The parameters :func:`parameters` records of each kind of item (those it has).
ITEM_PARAMETERS = (
    ("beam", "beams", ("length", "E", "rho", "A", "I", "J", "G", "damping", "kappa")),
    ("body", "rigid_bodies", ("mass", "inertia")),
    ("spring", "spring_dampers", ("k", "c", "rest_length")),
    ("rotational spring", "rotational_spring_dampers", ("k", "c", "rest_angle")))


def parameters(model):
    """The physical parameters of ``model``, as a JSON-ready record ``{name: [numbers]}``
    (``"gravity"``, ``"beam 0 E"``, ``"body 1 inertia"``, ``"spring 0 k"``, ...; a planar
    model's ``"elastic_model"`` a name): what a file keeps to tell a model loaded onto it
    that has the file's layout but other parameters (:func:`load` warns). Geometry, drives
    and loads (functions) are not in it."""
    found = {"gravity": [float(g) for g in model.gravity]}
    if getattr(model, "elastic_model", None) is not None and model.dim != 3:
        found["elastic_model"] = str(model.elastic_model)
    for kind, items, names in ITEM_PARAMETERS:
        for i, item in enumerate(getattr(model, items, ())):
            for name in names:
                try:        # a number or an array of them (an item of a plug-in may differ)
                    value = np.asarray(getattr(item, name), dtype=float).ravel()
                except (AttributeError, TypeError, ValueError):
                    continue
                if np.all(np.isfinite(value)):      # None (a rest length not given) is NaN
                    found[f"{kind} {i} {name}"] = [float(v) for v in value]
    return found


def _is_parameters(value):
    """Whether ``value`` has the form :func:`parameters` gives."""
    return isinstance(value, dict) and all(
        isinstance(k, str) and (isinstance(v, str) or isinstance(v, list)
                                and all(_is_real(x) for x in v)) for k, v in value.items())


#: Parameters equal to this relative tolerance are the same (a value computed two ways, say
#: 0.1 * 3 and 0.3, differs by a rounding: not another model).
PARAMETER_RTOL = 1e-12


def _same(a, b):
    """Whether two recorded parameters (a list of floats, a name, or None: absent) agree."""
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return bool(np.allclose(a, b, rtol=PARAMETER_RTOL, atol=0.0))
    return a == b


def _parameter_differences(theirs, ours):
    """The parameters that differ (:data:`PARAMETER_RTOL`) between a file's record and a
    model's, in words."""
    words = []
    for name in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(name), ours.get(name)
        if not _same(a, b):
            def said(v, where):
                return f"absent {where}" if v is None else \
                    f"{v[0] if isinstance(v, list) and len(v) == 1 else v} {where}"
            words.append(f"{name} is {said(a, 'in the file')}, {said(b, 'in the model')}")
    return words


def _check_parameters(path, model, meta):
    """Warn when ``model`` has the layout of the file but other parameters than the model it
    was saved from (files of earlier versions record none: nothing to compare). Not refused:
    loading a run onto a changed model can be meant."""
    if "parameters" not in meta:
        return
    found = _parameter_differences(meta["parameters"], parameters(model))
    if found:
        more = f"; and {len(found) - 3} more" if len(found) > 3 else ""
        warnings.warn(f"{path}: saved from a model of other parameters than the model given "
                      f"({'; '.join(found[:3])}{more}): the stored arrays are the saved "
                      "model's run, what is computed from the model (positions of points, "
                      "section forces) uses the given one's parameters", UserWarning,
                      stacklevel=3)


def _joint_counts(path, meta, arrays):
    """The number of coordinates of each joint of a file's run (:func:`joint_coordinates`),
    checked against its arrays; for a file of an earlier version, from its layout's joint
    kinds, or one a joint where the columns of ``joint_q`` and the joints are as many; None
    for a spatial file that cannot tell (its joints' columns need the model)."""
    columns = arrays["joint_q"].shape[1]
    spatial = arrays["nodes"].shape[2] == SPATIAL_POSE
    n_joints = arrays["reactions"].shape[1] // 6 if spatial else columns
    counts = meta.get("joint_coordinates")
    if counts is None and "layout" in meta:
        kinds = [j[0] for j in meta["layout"]["joints"]]
        if not spatial:
            counts = [1] * len(kinds)
        elif all(k in REGISTRY and REGISTRY[k].spatial is not None for k in kinds):
            counts = [REGISTRY[k].spatial.n_coordinates for k in kinds]
    if counts is None:
        return [1] * n_joints if n_joints == columns else None
    if len(counts) != n_joints or sum(counts) != columns:
        raise ValueError(f"{path}: the joints' coordinates {reprlib.repr(counts)} do not match "
                         f"{n_joints} joints of {columns} columns of joint_q")
    return counts


#: A node's entries in ``nodes`` and in ``velocities``: the planar kinds' coordinates, a spatial
#: body's pose and velocity.
NODE_SIZES = {PlanarANCFBeam.node_size: PlanarANCFBeam.node_size, SPATIAL_POSE: SPATIAL_VELOCITY}

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
    if not (isinstance(found, int) and not isinstance(found, bool)
            and found in READABLE_FORMATS):
        raise ValueError(f"{path}: not a rancf Result of format "
                         f"{' or '.join(map(str, READABLE_FORMATS))} (found {found!r})")
    if found >= 3 and "inputs" not in meta:
        raise ValueError(f"{path}: the meta record lacks inputs (format {found})")
    keys = meta.get("inputs")
    if not (keys is None or isinstance(keys, list) and all(
            isinstance(k, str) and k.isidentifier() or isinstance(k, int)
            and not isinstance(k, bool) and 0 <= k for k in keys)):
        raise ValueError(f"{path}: inputs must be null or a list of the recorded inputs' keys "
                         f"(names, numbers >= 0), got {reprlib.repr(keys)}")
    missing = [k for k in ("status", "message", "method", "formulation", "stats", "wall_time")
               if k not in meta]
    if missing:
        raise ValueError(f"{path}: the meta record lacks {', '.join(missing)}")
    if meta["status"] not in STATUSES:
        raise ValueError(f"{path}: status must be one of {STATUSES}, got {meta['status']!r}")
    meta.setdefault("method_reason", "")      # files written before simulate chose methods
    for k in ("message", "method", "method_reason", "formulation"):
        if not isinstance(meta[k], str):
            raise ValueError(f"{path}: {k} must be a string, got {meta[k]!r}")
    stats = meta["stats"]
    if not (isinstance(stats, dict) and all(_is_real(v) for v in stats.values())):
        raise ValueError(f"{path}: stats must map names to numbers, got {stats!r}")
    wall = meta["wall_time"]
    if not (_is_real(wall) and 0.0 <= wall < float("inf")):
        raise ValueError(f"{path}: wall_time must be a number of seconds >= 0, got {wall!r}")
    if "layout" in meta and not _is_layout(meta["layout"]):
        raise ValueError(f"{path}: the model layout must hold lists of items [kind, count] and "
                         f"of joints [kind, parent, child], got {reprlib.repr(meta['layout'])}")
    counts = meta.get("joint_coordinates", [])
    if not (isinstance(counts, list) and all(isinstance(k, int) and not isinstance(k, bool)
                                             and 0 <= k <= 6 for k in counts)):
        raise ValueError(f"{path}: joint_coordinates must be a list of numbers of coordinates "
                         f"(0 to 6), got {reprlib.repr(counts)}")
    if "parameters" in meta and not _is_parameters(meta["parameters"]):
        raise ValueError(f"{path}: parameters must map names to lists of numbers, got "
                         f"{reprlib.repr(meta['parameters'])}")


def _is_layout(value):
    """Whether ``value`` has the form :func:`layout` gives: items ``[str, int]``, joints
    ``[str, int, int]``."""
    def entries(rows, n):
        return isinstance(rows, list) and all(
            isinstance(r, list) and len(r) == n and isinstance(r[0], str)
            and all(isinstance(k, int) and not isinstance(k, bool) for k in r[1:]) for r in rows)
    return (isinstance(value, dict) and set(value) == {"items", "joints"}
            and entries(value["items"], 2) and entries(value["joints"], 3))


class _Header(NamedTuple):
    """What an array's ``.npy`` header declares, read before its data."""
    shape: tuple
    dtype: np.dtype

    @property
    def ndim(self):
        return len(self.shape)


def _check_file(path, a):
    """The arrays of a Result file, from their headers (:class:`_Header`; arrays do as well):
    real numbers (booleans too in ``extra``), shapes that agree, at least one output."""
    missing = [k for k in ARRAYS if k not in a]
    if missing:
        raise ValueError(f"{path}: not a complete rancf Result (missing {', '.join(missing)})")
    for k, v in a.items():
        kinds = "biuf" if k.startswith("extra__") else "iuf"
        if v.dtype.kind not in kinds:
            raise ValueError(f"{path}: {k} must hold real numbers, got dtype {v.dtype}")
    n = a["t"].shape[0] if a["t"].ndim == 1 else -1
    ns = a["nodes"].shape[2] if a["nodes"].ndim == 3 else None
    if n < 1 or ns not in NODE_SIZES or a["nodes"].shape[0] != n:
        raise ValueError(f"{path}: t must be (n_out,) with n_out >= 1 and nodes "
                         f"(n_out, n_vertices, {PlanarANCFBeam.node_size}) or (n_out, n_bodies, "
                         f"{SPATIAL_POSE}), got {a['t'].shape} and {a['nodes'].shape}")
    if a["velocities"].shape != a["nodes"].shape[:2] + (NODE_SIZES[ns],):
        raise ValueError(f"{path}: velocities {a['velocities'].shape} do not match nodes "
                         f"{a['nodes'].shape}")
    spatial = ns == SPATIAL_POSE
    for k in ("joint_q", "joint_qd", "reactions"):
        # a spatial joint has a six-entry reaction and as many coordinates as its kind says
        wrench = k == "reactions" and spatial
        columns_fit = a[k].ndim == 2 and (a[k].shape[1] % 6 == 0 if wrench
                                          else a[k].shape[1] == a["joint_q"].shape[1])
        if not columns_fit or a[k].shape[0] != n:
            raise ValueError(f"{path}: {k} must be (n_out, "
                             f"{'6 n_joints' if wrench else 'n_joints'}), got {a[k].shape}")
    for k in ("work", "dissipated", "kinetic", "elastic", "gravity"):
        if a[k].shape != (n,):
            raise ValueError(f"{path}: {k} must be (n_out,) = ({n},), got {a[k].shape}")
    for k, v in a.items():
        if k.startswith(("extra__", INPUTS)) and (v.ndim < 1 or v.shape[0] != n):
            raise ValueError(f"{path}: {k} must have n_out = {n} rows, got shape {v.shape}")


def _check_values(path, name, value):
    """The values of an array of a Result file: finite times, strictly increasing (each output
    is a later state), and finite coordinates, joint values, energies and recorded input
    values (a run keeps only finite states: one that diverges stops before; a function's value
    that is not finite stops it); work and dissipation finite or unknown."""
    # work and dissipation may be unknown (NaN: a spatial run with inputs does not integrate
    # them), never infinite
    finite = ~np.isinf(value) if name in ("work", "dissipated") else np.isfinite(value)
    if (name in ARRAYS or name.startswith(INPUTS)) and not np.all(finite):
        k = int(np.flatnonzero(~finite.reshape(-1))[0])
        raise ValueError(f"{path}: {name} must be finite, got {value.reshape(-1)[k]!r} at flat "
                         f"index {k}")
    if name == "t" and np.any(np.diff(value) <= 0.0):
        k = int(np.flatnonzero(np.diff(value) <= 0.0)[0])
        raise ValueError(f"{path}: the output times must increase strictly, got t[{k}] = "
                         f"{value[k]!r} and t[{k + 1}] = {value[k + 1]!r}")


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
        ours = layout(model)
        theirs = meta["layout"]["items"], meta["layout"]["joints"]
        found = [_difference("item", "items", theirs[0], ours["items"]),
                 _difference("joint", "joints", theirs[1], ours["joints"])]
    else:
        spatial = model.dim == 3
        n_nodes = A.n_bodies + A.n_cable_nodes if spatial else A.n_vertices
        n_columns = (sum(j.type.spatial.n_coordinates for j in model.joints) if spatial
                     else A.n_joints)
        found = [_difference("vertex", "vertices", [0] * arrays["nodes"].shape[1],
                             [0] * n_nodes),
                 _difference("joint coordinate", "joint coordinates",
                             [0] * arrays["joint_q"].shape[1], [0] * n_columns)]
    found = [f for f in found if f]
    if found:
        raise ValueError(f"{path}: saved from a model of another layout ({'; '.join(found)})")


#: The largest ratio of what a deflate stream expands to over its own size (RFC 1951: a match
#: of 258 bytes costs at least 2 bits): a member that claims more holds less than it says.
DEFLATE_RATIO = 1032

_FILE_TYPES = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"),
               (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
               (stat.S_ISSOCK, "a socket"))


def _not_regular(path, mode):
    what = next((name for test, name in _FILE_TYPES if test(mode)), "not a regular file")
    return ValueError(f"{path}: not a rancf Result file: {what}, not a regular file")


def _open(path):
    """``path`` opened for reading (binary) and its size (bytes), if it is a regular file. It is
    stat'ed before it is opened: opening a FIFO blocks until a writer comes, reading a device
    may never end. The open does not block either (O_NONBLOCK, which regular files ignore), and
    is checked again, for what another process put at ``path`` in between."""
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise ValueError(f"{path}: not a readable rancf Result file ({exc.strerror})") from exc
    f = os.fdopen(fd, "rb")
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        f.close()
        raise _not_regular(path, info.st_mode)
    return f, info.st_size


def _header(path, archive, member):
    """The :class:`_Header` of a member of a Result file, read (and its first bytes only
    decompressed) after the sizes the archive records for it are checked: a member must be an
    array of the format (a ``.npy`` of a known name), hold as many bytes as its header declares,
    and not claim more than deflate can expand its compressed bytes to (a zip bomb)."""
    name = member.filename
    key = name[:-len(".npy")]
    if not (name.endswith(".npy") and (key in ARRAYS or key == "meta"
                                       or key.startswith(("extra__", INPUTS)))):
        raise ValueError(f"{path}: not a rancf Result file (it holds {name!r})")
    if member.flag_bits & 0x1 or member.compress_type not in (zipfile.ZIP_STORED,
                                                              zipfile.ZIP_DEFLATED):
        raise ValueError(f"{path}: not a rancf Result file ({name} is encrypted or compressed "
                         "by a method other than deflate)")
    ratio = 1 if member.compress_type == zipfile.ZIP_STORED else DEFLATE_RATIO
    if member.file_size > ratio * member.compress_size:
        raise ValueError(f"{path}: damaged: {name} claims {member.file_size:,} bytes from "
                         f"{member.compress_size:,} compressed, more than "
                         f"{'storing' if ratio == 1 else 'deflate'} can give")
    try:
        with archive.open(member) as data:
            version = np.lib.format.read_magic(data)
            read = {(1, 0): np.lib.format.read_array_header_1_0,
                    (2, 0): np.lib.format.read_array_header_2_0}.get(version)
            if read is None:
                raise ValueError(f"a .npy of format version {version}")
            shape, _, dtype = read(data)
            header_size = data.tell()
    except Exception as exc:
        # numpy, zipfile or zlib meeting the damage: a bad header, local header or stream
        raise ValueError(f"{path}: not a readable rancf Result file ({name}: "
                         f"{type(exc).__name__}: {exc})") from exc
    if dtype.hasobject or (key == "meta") != (dtype.kind == "U") or \
            (key == "meta" and shape != ()):
        raise ValueError(f"{path}: not a rancf Result file ({name} holds {dtype} {shape}: "
                         "the meta record is one text, the others arrays of numbers)")
    size = header_size + math.prod(shape) * dtype.itemsize
    if size != member.file_size:
        raise ValueError(f"{path}: damaged: {name} declares {dtype} {shape} ({size:,} bytes) "
                         f"and holds {member.file_size:,} bytes")
    return _Header(shape, dtype)


def _read(path, f, size):
    """The meta record and the arrays of the Result file ``f`` of ``size`` bytes, checked. Every
    member's header is read and checked, and their shapes against each other
    (:func:`_check_file`) and their total against the memory available, before any data is
    decompressed; then the times (strictly increasing), the meta record and the other arrays
    (finite), each checked as it is read."""
    try:
        archive = zipfile.ZipFile(f)
    # NotImplementedError: a damaged header can claim a zip version zipfile does not read
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
        raise ValueError(f"{path}: not a readable rancf Result file (not a .npz archive of "
                         f"arrays: {exc})") from exc
    with archive:
        members = {m.filename[:-len(".npy")]: m for m in archive.infolist()}
        if len(members) != len(archive.infolist()):
            raise ValueError(f"{path}: damaged: a member is there twice")
        if sum(m.compress_size for m in members.values()) > size:
            raise ValueError(f"{path}: damaged: its members claim more bytes than the file has")
        headers = {key: _header(path, archive, m) for key, m in members.items()}
        if "meta" not in headers:
            raise ValueError(f"{path}: not a complete rancf Result (missing meta)")
        _check_file(path, {k: h for k, h in headers.items() if k != "meta"})
        need, have = (sum(math.prod(h.shape) * h.dtype.itemsize for h in headers.values()),
                      available_memory())
        if need > have:
            raise MemoryError(f"{path}: its arrays need {need / 2**30:.3g} GiB and only "
                              f"{have / 2**30:.3g} GiB are available")
        arrays = {}
        for key in ["t", "meta"] + [k for k in members if k not in ("t", "meta")]:
            try:
                with archive.open(members[key]) as data:
                    arrays[key] = np.lib.format.read_array(data, allow_pickle=False)
                    data.read(1)        # at the end: zipfile checks the CRC there
            except Exception as exc:
                raise ValueError(f"{path}: not a readable rancf Result file ({key}.npy: "
                                 f"{type(exc).__name__}: {exc})") from exc
            if key == "meta":
                try:
                    meta = json.loads(str(arrays.pop("meta")))
                except Exception as exc:    # not JSON, or nested beyond the recursion limit
                    raise ValueError(f"{path}: the meta record is not JSON "
                                     f"({type(exc).__name__}: {exc})") from exc
                _check_meta(path, meta)
            else:
                _check_values(path, key, arrays[key])
    return meta, arrays


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
        and joints). A spatial file of an earlier version that records neither its layout
        nor its joints' coordinates gives a joint's values (:meth:`Result.joint`) only with
        the model.

    Returns
    -------
    Result

    Raises
    ------
    TypeError
        ``path`` is not a path, or ``model`` not a Model.
    ValueError
        The file cannot be read, is not a regular file (a FIFO, a directory, a device), is not
        a rancf Result of a format it reads (:data:`READABLE_FORMATS`), its meta record, arrays
        or recorded input values are damaged, disagree or hold values no run writes
        (non-finite coordinates, energies or input values, times that do not increase
        strictly), or it does not match ``model``: the message names ``path`` and what is
        wrong. The whole file is checked, and every array's header, against the others and the
        sizes the archive records, before any data is decompressed (a zip bomb is refused
        without being expanded).
    MemoryError
        The arrays its headers declare would not fit in the memory available.

    Warns
    -----
    UserWarning
        ``model`` has the file's layout but other parameters (:func:`parameters`: materials,
        sections, masses, springs, gravity) than the model the file was saved from, naming
        them. Not refused: a run can be loaded onto a changed model on purpose.

    Notes
    -----
    Loading never runs code from the file (no pickles), and never reads more than the
    headers declare.

    A file of format 3 (:data:`FORMAT_VERSION`) holds the values the model's input
    functions gave at the outputs (:attr:`Result.inputs <rancf.results.result.Result.inputs>`):
    the loaded Result's accelerations and reactions are the saved one's, computed without
    calling a function. A file of format 2 has none: it loads, and the outputs that would
    need the functions (:meth:`~rancf.results.result.Result.acceleration`, the reactions of
    :meth:`~rancf.results.result.Result.reaction` beyond the stored ones) raise a
    RuntimeError that names the file, if the model has input functions: a Result read from a
    file never calls them (they may have changed since the run).

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
    f, size = _open(path)
    with f:
        meta, arrays = _read(path, f, size)
    counts = _joint_counts(path, meta, arrays)
    recorded = _recorded(path, meta, arrays)
    if model is not None:
        _check_model(path, model, meta, arrays)
        _check_parameters(path, model, meta)
    extra = {k[len("extra__"):]: v for k, v in arrays.items() if k.startswith("extra__")}
    # the energies the run computed, as saved (the model, if given, is not re-evaluated)
    extra["energies"] = {k: arrays[k] for k in ("kinetic", "elastic", "gravity")}
    stored = Solution(t=arrays["t"], nodes=arrays["nodes"], velocities=arrays["velocities"],
                      joint_q=arrays["joint_q"], joint_qd=arrays["joint_qd"],
                      reactions=arrays["reactions"], work=arrays["work"],
                      dissipated=arrays["dissipated"], status=meta["status"],
                      message=meta["message"], method=meta["method"],
                      formulation=meta["formulation"], stats=meta["stats"],
                      wall_time=meta["wall_time"], extra=extra, inputs=recorded)
    # a stored message already holds the reason where the run had nothing else to say
    result = built(model, stored, meta["method_reason"])
    # where the file recorded no input values, the outputs computed from the frames refuse to
    # call the model's functions (rancf.results.outputs.played_inputs)
    result._read_from = path, meta["format"]
    if model is None:
        result._joint_counts = counts
        # all three records, the layout too: saved again, the file is this one bit for bit
        # (a model loaded onto it is checked by its layout, not by the counts alone)
        result._stored_model = {k: meta[k] for k in ("layout", "joint_coordinates",
                                                     "parameters") if k in meta}
        if counts is not None:
            result._stored_model["joint_coordinates"] = counts
    return result
