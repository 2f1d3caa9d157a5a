"""Simulation results: trajectories at the output times, energies, saving and loading."""
import json
import os
import tempfile

import numpy as np
import pandas as pd

from . import _element
from .chain import Chain


class Result:
    """The outcome of :func:`rancf.simulate`.

    Attributes
    ----------
    chain : Chain
    t : ndarray (n_out,)
        Output times (s).
    nodes : ndarray (n_out, n_nodes, 4)
        Node coordinates ``[x, y, x', y']`` (m, dimensionless slopes), joint nodes duplicated.
    velocities : ndarray (n_out, n_nodes, 4)
        Node velocities (m/s, 1/s).
    beta : ndarray (n_out, n_dof) or None
        Generalized velocities of the recursive formulation (None for formulations without).
    status : {"ok", "diverged", "failed"}
        "diverged": non-finite state or a node beyond the displacement bound; "failed": the
        solver could not continue (singular matrix, step-size underflow, Newton failure).
        The arrays hold what was computed up to then.
    message : str
    method, formulation : str
    stats : dict
        Work counters (``nfev``, ``steps``, ``rejected``, ...).
    extra : dict of ndarray
        Formulation-specific outputs, first axis n_out (constraint violations, Newton
        iterations, ...).
    wall_time : float
        Wall-clock time of the integration (s).
    """

    def __init__(self, chain, t, nodes, velocities, beta=None, status="ok", message="",
                 method="", formulation="", stats=None, extra=None, wall_time=0.0):
        self.chain = chain
        self.t = np.asarray(t, dtype=float)
        self.nodes = np.asarray(nodes, dtype=float)
        self.velocities = np.asarray(velocities, dtype=float)
        self.beta = None if beta is None else np.asarray(beta, dtype=float)
        self.status = status
        self.message = message
        self.method = method
        self.formulation = formulation
        self.stats = dict(stats or {})
        self.extra = {k: np.asarray(v) for k, v in (extra or {}).items()}
        self.wall_time = float(wall_time)
        self._energy = None

    def __repr__(self):
        return (f"Result({self.formulation}/{self.method}, {len(self.t)} outputs to "
                f"t = {self.t[-1] if len(self.t) else 0:g} s, status={self.status!r})")

    def tip(self):
        """Position of the free end (last node) at every output time, (n_out, 2), m."""
        return self.nodes[:, -1, :2].copy()

    def energy(self):
        """DataFrame with columns ``t, kinetic, elastic, gravity, total`` (s, J)."""
        if self._energy is None:
            c = self.chain
            e = _element.chain_energies(
                c.model_code, c.element_nodes, c.element_length, c.element_EA, c.element_EI,
                np.ascontiguousarray(c.mass_matrices()), np.ascontiguousarray(c.gravity_forces()),
                np.ascontiguousarray(self.nodes), np.ascontiguousarray(self.velocities))
            self._energy = pd.DataFrame({"t": self.t, "kinetic": e[:, 0], "elastic": e[:, 1],
                                         "gravity": e[:, 2], "total": e.sum(axis=1)})
        return self._energy.copy()

    def energy_drift(self):
        """``max |E_total(t) - E_total(0)| / max kinetic`` (DESIGN.md section 1)."""
        e = self.energy()
        return float(np.abs(e.total - e.total.iloc[0]).max() / e.kinetic.max())

    def to_frame(self):
        """Long-format DataFrame: one row per output time and node, columns
        ``t, node, x, y, dx_ds, dy_ds, vx, vy, dvx_ds, dvy_ds``."""
        n_out, n_nodes, _ = self.nodes.shape
        data = {"t": np.repeat(self.t, n_nodes), "node": np.tile(np.arange(n_nodes), n_out)}
        for j, name in enumerate(("x", "y", "dx_ds", "dy_ds")):
            data[name] = self.nodes[:, :, j].ravel()
        for j, name in enumerate(("vx", "vy", "dvx_ds", "dvy_ds")):
            data[name] = self.velocities[:, :, j].ravel()
        return pd.DataFrame(data)

    def save(self, path):
        """Write to ``path`` (.npz) atomically: a temporary file in the same folder, then a rename."""
        path = os.fspath(path)
        meta = {"chain": self.chain.spec(), "status": self.status, "message": self.message,
                "method": self.method, "formulation": self.formulation, "stats": self.stats,
                "wall_time": self.wall_time}
        arrays = {"t": self.t, "nodes": self.nodes, "velocities": self.velocities,
                  "meta": np.array(json.dumps(meta))}
        if self.beta is not None:
            arrays["beta"] = self.beta
        arrays.update({"extra__" + k: v for k, v in self.extra.items()})
        folder = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".rancf-", suffix=".npz")
        try:
            with os.fdopen(fd, "wb") as f:
                np.savez_compressed(f, **arrays)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise


def load(path):
    """Read a :class:`Result` written by :meth:`Result.save`."""
    with np.load(path, allow_pickle=False) as f:
        meta = json.loads(str(f["meta"]))
        extra = {k[len("extra__"):]: f[k] for k in f.files if k.startswith("extra__")}
        return Result(Chain.from_spec(meta["chain"]), f["t"], f["nodes"], f["velocities"],
                      beta=f["beta"] if "beta" in f.files else None, status=meta["status"],
                      message=meta["message"], method=meta["method"],
                      formulation=meta["formulation"], stats=meta["stats"], extra=extra,
                      wall_time=meta["wall_time"])
