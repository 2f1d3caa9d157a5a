"""``rancf.reduce``: the adaptive modal reduction of a model (Liu et al. 2023; theory: Adaptive
modal reduction), shaped like a pyMOR reductor: :func:`reduce` builds a :class:`ReducedModel` from
the full model, :meth:`ReducedModel.reconstruct` maps modal coordinates back to node coordinates,
and :meth:`ReducedModel.equations` makes it a problem of the implicit loop
(:class:`ReducedProblem`: the full model's equations, the adaptive step of
:mod:`~rancf.formulations.reduced.adaptive` as its nonlinear solver), which
``rancf.simulate(reduced, ...)`` runs in the one implicit stepping loop like any formulation;
the loop's Solution holds the reconstructed node coordinates and becomes an ordinary
:class:`rancf.Result`.

Per beam (the paper's flexible component): the boundary coordinates ``b`` are the nodes that
appear in a joint, the interior ``a`` the rest. The Craig-Bampton transform of the beam's mass
and constant bending stiffness ``K_t = EI int S''^T S'' ds`` (the Berzeri-Shabana model's bending
part; the nonlinear axial force is the pseudo-load of eq. 23, which is why the method needs
``elastic_model="berzeri"``) with *all* interior modes kept gives the sparse basis
``x = Phi c`` (eq. 29): ``x_a = Phi_c x_b + Phi_n xi``, every other coordinate (rigid bodies,
boundary nodes) as it is.

Row sampling (eq. 30-32): ``n_samples`` of each beam's interior equations are kept by
Latin-hypercube sampling (``scipy.stats.qmc.LatinHypercube``, seedable); every other row
(boundary nodes, rigid bodies, constraints) is kept. Two choices the paper leaves open are made
so that the sampled system keeps the physics of a beam (``sample="row", free_ends=False`` is the
plain reading):

* ``sample="node"`` draws interior *nodes* and keeps all four equations of each: the equations
  of x and y at a node then turn together with the beam;
* ``free_ends=True`` always keeps the equations of a free beam end (an end node without a joint,
  an interior node of the Craig-Bampton split); they count in ``n_samples``. A uniform axial
  stress gives no force at interior nodes; only the end equations (the natural boundary
  condition) fix the stretch, and the stretch is carried by the boundary slopes through the
  constraint modes, which are not sparse.

A sample without the x- and y-equations of the free end lets the stretch drift: the sampled
residual stays small while the unsampled one grows and the beam runs away (row sampling, and
node sampling where its draw misses the tip node), so ``free_ends=True`` is the default; the
validation case ``modal`` runs both samplings over several seeds (its table 'sampling').
"""
from __future__ import annotations

import bisect
import numbers
import time
from typing import NamedTuple

import numpy as np

from ...utilities import checks
from ...elements.beam import PlanarANCFBeam
from ...model.items import ARC, NODE
from ...model.model import Model
from ...model.state import State
from ..dae import DAE, state_branch
from ._full_equations import FullEquations
from .adaptive import AdaptiveModalSolver
from .craig_bampton import CraigBampton
from .drift import StepWatch
from .greedy_gauss_newton import STATUSES
from .timing import Timer

#: interior equations per sampling unit: a whole ANCF node (x, y, x', y') or a single row
SAMPLE_UNITS = {"node": PlanarANCFBeam.node_size, "row": 1}


def latin_hypercube_rows(n_rows, n_samples, seed):
    """``n_samples`` distinct indices in ``[0, n_rows)`` by Latin-hypercube sampling.

    The LHS puts one point ``u`` in each stratum ``[j/n, (j+1)/n)`` of ``[0, 1)``. Row stratum
    ``j`` is the rows ``ceil(j N / n) <= i < ceil((j+1) N / n)`` (disjoint, non-empty for
    ``N >= n``); the point's position inside its stratum picks the row, so the rows are
    distinct (flooring ``u N`` alone can pick the same row from two neighbouring strata).
    ``seed``: int or numpy Generator.
    """
    if not 1 <= n_samples <= n_rows:
        raise ValueError(f"n_samples must be in [1, {n_rows}], got {n_samples}")
    from scipy.stats import qmc     # here: scipy.stats takes most of a second to import

    u = qmc.LatinHypercube(d=1, seed=seed).random(n_samples)[:, 0] * n_samples
    j = np.minimum(np.floor(u).astype(np.int64), n_samples - 1)
    lo = -((-j * n_rows) // n_samples)  # ceil(j N / n) in integers
    hi = -((-(j + 1) * n_rows) // n_samples)
    return np.sort(lo + np.floor((u - j) * (hi - lo)).astype(np.int64))


class ReducedBeam(NamedTuple):
    """One beam's part of ``Phi`` (indices in the model's coordinates x).

    ``beam``: all its coordinates; ``a``, ``b``: interior and boundary ones; ``Phi_nc`` =
    ``[Phi_n, Phi_c]`` (n_a, n_a + n_b) (one product gives the modal and the boundary columns
    of a Jacobian); ``Phi_n_T`` the C-contiguous transpose of ``Phi_n``; ``Phi_c`` (n_a, n_b);
    ``projector`` ``Phi_n^T M_aa`` (n_a, n_a); ``basis`` the :class:`CraigBampton` reductor.
    """

    beam: np.ndarray
    a: np.ndarray
    b: np.ndarray
    Phi_nc: np.ndarray
    Phi_n_T: np.ndarray
    Phi_c: np.ndarray
    projector: np.ndarray
    basis: CraigBampton


def _per_beam(name, value, n_beams):
    """An int or one int per beam, as an int array (n_beams,)."""
    values = np.atleast_1d(np.asarray(value, dtype=object))
    if values.ndim != 1 or values.size not in (1, n_beams) or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values):
        raise TypeError(f"{name} must be an integer or {n_beams} integers (one per beam), "
                        f"got {value!r}")
    return np.broadcast_to(values.astype(np.int64), (n_beams,)).copy()


def beam_matrices(A, k):
    """Mass and constant bending stiffness ``K_t`` (4 n_nodes, 4 n_nodes) of beam k: its block
    of the model's mass matrix (its nodes are its own), and the Berzeri tangent of the element
    kernel with EA = 0 (its bending part ``EI int S''^T S'' ds`` does not depend on the
    coordinates)."""
    beam = A.beams[k]
    ns, es = A.node_size, A.element_kind.element_size
    n = ns * beam.n_nodes
    first = ns * int(A.beam_first_vertex[k])
    M = A.mass_matrix()[first:first + n, first:first + n].toarray()
    elements = np.flatnonzero(A.element_beam == k)
    l, EI = A.element_length[elements[0]], A.element_EI[elements[0]]
    Kt = PlanarANCFBeam("berzeri").element_tangents(np.zeros((1, es)), [l], [0.0], [EI],
                                                    [0.0])[0][0]
    K = np.zeros((n, n))
    for i in range(len(elements)):
        d = slice(ns * i, ns * i + es)
        K[d, d] += Kt
    return M, K


class ReducedModel:
    """A model reduced by the adaptive modal method (module docstring).

    Not constructed directly: :func:`rancf.reduce` returns it, and
    ``rancf.simulate(reduced, t_end, dt, method="backward-euler")`` runs it.

    Attributes
    ----------
    model : rancf.Model
        The full model.
    assembly : rancf.model.Assembly
        Its frozen arrays.
    n_x : int
        Coordinates of the full model.
    blocks : list of ReducedBeam
        One per beam, in the order added.
    rows : ndarray of int
        The dynamic equations kept (indices in x; the constraint rows are all kept).
    candidates : ndarray of int
        Positions of the modal coordinates in ``c`` (each beam's interior indices), beam by beam.
    groups : ndarray of int
        Beam of each candidate.
    sparsity, n_samples : ndarray of int (n_beams,)
        Modal coordinates kept per step and equations sampled, per beam.
    max_support : ndarray of int (n_beams,) or None
        Cap on the support during a step.
    tol, max_iter, seed, sample, free_ends
        The settings given to :func:`reduce`.
    setup_time : float
        Wall time (s) of the reduction (Craig-Bampton bases and sampling).

    Examples
    --------
    >>> m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    >>> b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
    >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    >>> reduced = rancf.reduce(m, sparsity=10, n_samples=20)
    >>> reduced
    ReducedModel(1 beams, sparsity [10], n_samples [20], sample='node')
    >>> reduced.candidates.size          # 4 coordinates of each of the 10 nodes off the joint
    40
    """

    def __init__(self, model, sparsity, n_samples, seed, sample, free_ends, tol, max_iter,
                 max_support):
        start = time.perf_counter()
        if not isinstance(model, Model):
            raise TypeError(f"model must be a rancf.Model, got {type(model).__name__}")
        if model.elastic_model != "berzeri":
            raise ValueError(
                f"the adaptive modal method needs elastic_model='berzeri' (its nonlinear axial "
                f"force is the pseudo-load of the paper's eq. 23, leaving the constant bending "
                f"stiffness for the Craig-Bampton modes); the model has "
                f"elastic_model={model.elastic_model!r}")
        checks.choice("sample", sample, SAMPLE_UNITS)
        seed = checks.seed("seed", seed)
        if not isinstance(free_ends, (bool, np.bool_)):
            raise TypeError(f"free_ends must be True or False, got {free_ends!r}")
        self.tol = checks.positive("tol", tol)
        self.max_iter = checks.integer("max_iter", max_iter, 1, 10**6)
        A = self.assembly = model.build()
        checks.tolerance("tol", self.tol, A.size)
        if not A.beams:
            raise ValueError("the model has no beam to reduce")
        self.model, self.n_x = model, A.n_x
        self.seed, self.sample, self.free_ends = seed, sample, bool(free_ends)
        n_beams = len(A.beams)
        self.sparsity = _per_beam("sparsity", sparsity, n_beams)
        self.n_samples = _per_beam("n_samples", n_samples, n_beams)
        self.max_support = None if max_support is None else \
            _per_beam("max_support", max_support, n_beams)
        unit = SAMPLE_UNITS[sample]
        rows = np.ones(A.n_x, dtype=bool)
        rng = np.random.default_rng(seed)
        self.blocks, candidates, groups = [], [], []
        for k, beam in enumerate(A.beams):
            first = A.node_size * int(A.beam_first_vertex[k])
            glob = first + np.arange(A.node_size * beam.n_nodes)
            # a joint between two nodes (beam.at(s)) holds both nodes of its element
            joint_nodes = sorted({n for j in A.joints for p in (j.parent, j.child)
                                  if p.kind in (NODE, ARC) and p.item is beam
                                  for n in range(p.node, p.node + (2 if p.kind == ARC else 1))})
            if not joint_nodes:
                raise ValueError(f"beam {k} is in no joint: the Craig-Bampton split needs its "
                                 "joint nodes as the boundary")
            boundary = np.concatenate([A.node_size * j + np.arange(A.node_size) for j in joint_nodes])
            cb = CraigBampton(*beam_matrices(A, k), boundary)
            a, b = glob[cb.interior], glob[cb.boundary]
            na, ns, s = a.size, int(self.n_samples[k]), int(self.sparsity[k])
            if not unit <= ns <= na or ns % unit:
                raise ValueError(f"n_samples must be in [{unit}, {na}] (interior equations of "
                                 f"beam {k}) and a multiple of {unit} with sample={sample!r}, "
                                 f"got {ns}")
            if not 0 <= s <= min(na, ns):
                raise ValueError(f"sparsity must be in [0, min(interior coordinates {na}, "
                                 f"n_samples {ns})] for beam {k}, got {s} (the sampled rows "
                                 "determine the kept modes)")
            if self.max_support is not None and not s <= self.max_support[k] <= na:
                raise ValueError(f"max_support must be in [sparsity {s}, {na}] for beam {k}, "
                                 f"got {self.max_support[k]}")
            rows[a] = False
            # interior nodes are whole (the boundary is joint nodes), so units never straddle
            units = a.reshape(-1, unit)
            free = np.zeros(units.shape[0], dtype=bool)
            if self.free_ends:
                ends = [A.node_size * j for j in (0, beam.n_elements) if j not in joint_nodes]
                free = np.isin(units[:, 0] - first,
                               [e + i for e in ends for i in range(A.node_size)])
            n_draw = (ns - unit * int(free.sum())) // unit
            if n_draw < 0:
                raise ValueError(f"n_samples must be >= {unit * free.sum()} for beam {k}: the "
                                 f"equations of its free ends are always kept, got {ns}")
            rest = units[~free]
            picked = rest[latin_hypercube_rows(rest.shape[0], n_draw, rng)] if n_draw else rest[:0]
            rows[np.concatenate([units[free].ravel(), picked.ravel()])] = True
            candidates.append(a)
            groups.append(np.full(na, k))
            self.blocks.append(ReducedBeam(glob, a, b,
                                           np.hstack([cb.normal_modes, cb.constraint_modes]),
                                           np.ascontiguousarray(cb.normal_modes.T),
                                           cb.constraint_modes, cb.modal_projector, cb))
        self.rows = np.flatnonzero(rows)
        self.candidates = np.concatenate(candidates)
        self.groups = np.concatenate(groups)
        self.setup_time = time.perf_counter() - start

    def __repr__(self):
        return (f"ReducedModel({len(self.blocks)} beams, sparsity {self.sparsity.tolist()}, "
                f"n_samples {self.n_samples.tolist()}, sample={self.sample!r})")

    def reconstruct(self, c):
        """Node coordinates from modal coordinates, ``x = Phi c``.

        Each beam's interior is ``x_a = Phi_c c_b + Phi_n xi`` (only the non-zero ``xi`` are
        used); the boundary (joint-node) coordinates and the rigid bodies are kept as they are.

        Parameters
        ----------
        c : array_like (n_x,)
            Modal coordinates: ``c[candidates]`` are the modal amplitudes ``xi``, the other
            entries node coordinates (m, slopes dimensionless).

        Returns
        -------
        ndarray (n_x,)
            Node coordinates.

        Raises
        ------
        ValueError
            ``c`` of another shape.

        Examples
        --------
        The exact inverse of :meth:`project`:

        >>> m = rancf.Model(elastic_model="berzeri")
        >>> b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
        >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
        >>> reduced = rancf.reduce(m, sparsity=10, n_samples=20)
        >>> x = m.build().x0 + 0.01 * np.sin(np.arange(reduced.n_x))
        >>> bool(np.allclose(reduced.reconstruct(reduced.project(x)), x, rtol=0, atol=1e-12))
        True
        """
        c = np.asarray(c, dtype=float)
        if c.shape != (self.n_x,):
            raise ValueError(f"c must have shape ({self.n_x},), got {c.shape}")
        x = c.copy()
        for k in self.blocks:
            xi = c[k.a]
            nz = np.flatnonzero(xi)
            x[k.a] = k.Phi_c @ c[k.b] + xi[nz] @ k.Phi_n_T[nz]
        return x

    def project(self, x):
        """Modal coordinates of node coordinates, ``c = Phi^-1 x``.

        The exact inverse of :meth:`reconstruct`: ``xi = Phi_n^T M_aa (x_a - Phi_c x_b)``
        (the modes are mass-orthonormal).

        Parameters
        ----------
        x : array_like (n_x,)
            Node coordinates (m, slopes dimensionless).

        Returns
        -------
        ndarray (n_x,)
            Modal coordinates (the layout of :meth:`reconstruct`'s argument).

        Raises
        ------
        ValueError
            ``x`` of another shape.

        Examples
        --------
        The reference configuration of a straight beam has no interior deformation, so every
        fixed-interface mode's amplitude is zero (to round-off of the 1 m coordinates through
        the constraint modes ``-K_aa^-1 K_ab``, about 1e-12):

        >>> m = rancf.Model(elastic_model="berzeri")
        >>> b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
        >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
        >>> reduced = rancf.reduce(m, sparsity=10, n_samples=20)
        >>> xi = reduced.project(m.build().x0)[reduced.candidates]
        >>> bool(np.abs(xi).max() < 1e-10)
        True
        """
        x = np.asarray(x, dtype=float)
        if x.shape != (self.n_x,):
            raise ValueError(f"x must have shape ({self.n_x},), got {x.shape}")
        c = x.copy()
        for k in self.blocks:
            c[k.a] = k.projector @ (x[k.a] - k.Phi_c @ x[k.b])
        return c

    def equations(self, state=None):
        """The reduced model as a problem of the implicit loop, and its initial state.

        ``rancf.simulate(reduced, ..., method="backward-euler")`` runs them with
        :func:`rancf.integrators.implicit.integrate` and makes the Solution a
        :class:`rancf.Result`, as for the full formulations.

        Parameters
        ----------
        state : rancf.State, optional
            Initial coordinates and velocities (default: the reference configuration at rest
            but for the drives, theory: Assembly and the initial state); its joint angles on
            the turns of its ``joint_q``, where it has them.

        Returns
        -------
        problem : ReducedProblem
            The full model's DAE (sparse), whose residual and Newton matrix the adaptive step
            samples, with that step as its solver; it serves one run.
        x0, v0 : ndarray (n_x,)
            Consistent initial coordinates and velocities.

        Raises
        ------
        TypeError
            ``state`` that is not a :class:`rancf.State`.

        Examples
        --------
        >>> m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
        >>> b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
        >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
        >>> problem, x0, v0 = rancf.reduce(m, sparsity=10, n_samples=20).equations()
        >>> problem.formulation, x0.shape, float(np.abs(v0).max())     # 11 nodes, at rest
        ('reduced', (44,), 0.0)
        """
        A = self.assembly
        # a State's angles on the turns it was taken with (State.joint_q)
        dae = DAE(A, "sparse", branch=state_branch(A, state))
        x0, v0 = initial_state(dae, state)
        solver = AdaptiveModalSolver(self, dae.M.diagonal(), dae.n_constraints, Timer(),
                                     StepWatch(self, x0, v0))
        return ReducedProblem(self, dae.compiled, solver), x0, v0


class ReducedProblem(FullEquations):
    """The reduced model as a problem of the implicit loop (theory: Adaptive modal reduction).

    Its equations are the full model's compiled DAE (:class:`FullEquations`: the adaptive step
    samples their residual and Newton matrix); the reduction supplies the step's nonlinear
    solver (``step_solver``, which :func:`rancf.integrators.implicit.integrate` runs in place of
    Newton's iterations), its outputs (:meth:`observe`) and its counters (:meth:`run_stats`).
    The loop's coordinates are the node coordinates reconstructed from the modal ones at every
    step (``x = Phi c``), so the model-level arrays (nodes, velocities, joints, reactions) are
    the full DAE's of those coordinates. Made by :meth:`ReducedModel.equations`; a problem
    serves one run (its solver keeps the run's log and time split).

    Parameters
    ----------
    reduced : ReducedModel
        Bases, sampling and settings.
    full : rancf.formulations._problem.StepProblem
        The full model's compiled DAE.
    step_solver : AdaptiveModalSolver
        Greedy Gauss-Newton on the sampled rows.

    Examples
    --------
    The loop returns the run's Solution, extras and counters included:

    >>> m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    >>> b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
    >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    >>> problem, x0, v0 = rancf.reduce(m, sparsity=10, n_samples=20).equations()
    >>> sol = rancf.implicit.integrate(problem, x0, v0, 0.005, 1e-3, method="backward-euler",
    ...                                tol=1e-11, max_iter=50)
    >>> sol.formulation, sol.nodes.shape, int(sol.extra["selected"][-1].sum())
    ('reduced', (6, 44), 10)
    """

    formulation = "reduced"

    def __init__(self, reduced, full, step_solver):
        super().__init__(full)
        self.reduced, self.step_solver = reduced, step_solver

    def observe_frames(self, t, q, v, a, lam, branches):
        """:meth:`observe` frame by frame, and ``inputs``: the values the model's input
        functions gave at the outputs, kept by the loop (:meth:`keep_inputs`), which the
        Result's deferred outputs play back (and its file keeps) in the functions' place."""
        frames = super().observe_frames(t, q, v, a, lam, branches)
        frames["inputs"] = self.recorded(np.asarray(t, dtype=float))
        return frames

    def observe(self, q, v, a, t, lam):
        """The full DAE's outputs of the coordinates q and what the reduction adds at an output.

        Parameters
        ----------
        q, v, a : ndarray (n_x,)
            The loop's node coordinates and their rates at the output.
        t : float
            Its time (s).
        lam : ndarray (m,)
            Multipliers.

        Returns
        -------
        dict
            The full DAE's (``nodes``, ``velocities``, ``joint_q``, ``joint_qd``,
            ``reactions``), and of the step that ended at t (found by its time in the solver's
            log, so the outputs may be observed during the run or after it; zeros at the
            initial state, which no step reached): ``selected`` (bool, n_modal: the modes of
            the step's solution), ``modal_coordinates`` (n_modal: ``xi`` of q),
            ``residual_norm`` (the sampled residual, m) and ``gauss_newton_iterations``.
        """
        out = super().observe(q, v, a, t, lam)
        log, red = self.step_solver.log, self.reduced
        k = bisect.bisect_left(log["t"], t)
        if k < len(log["t"]) and log["t"][k] == t:
            step = (log["support"][k], log["residual_norm"][k], log["iterations"][k])
        else:
            step = (np.zeros(red.candidates.size, dtype=bool), 0.0, 0)
        out.update(zip(("selected", "modal_coordinates", "residual_norm",
                        "gauss_newton_iterations"),
                       (step[0], red.project(q)[red.candidates], step[1], step[2])))
        return out

    def run_stats(self, steps=None):
        """What the reduction adds to the run's counters (``Solution.stats``).

        Parameters
        ----------
        steps : int or None
            The steps the loop accepted (the Solution's ``stats["steps"]``): the step solver
            logs every step it solved, also the one the run stopped at (the drift check of
            :class:`~rancf.formulations.reduced.drift.StepWatch`, a state the loop refused),
            whose residuals are not the run's. None: every logged step (the loop's own call
            at the end, which :func:`rancf.simulate` replaces with the accepted steps').

        Returns
        -------
        dict
            ``time_setup`` (s, the reduction), ``greedy_converged``, ``greedy_no_descent``,
            ``greedy_max_iter`` (steps per greedy Gauss-Newton outcome), ``greedy_solved``
            (steps whose sampled residual is within ``tol``: eq. 36's ``Phi = 0``),
            ``greedy_residual_median`` and ``greedy_residual_max`` (the sampled residual over
            the steps, m), ``greedy_rows`` and ``greedy_unknowns`` (the sampled equations and
            the unknowns on a full support: the least-squares problem of a step is
            overdetermined when the rows are more), ``greedy_full_residual_median`` and
            ``greedy_full_residual_max`` (the residual of all rows, sampled or not, at the
            steps' solutions, m), ``error_estimate`` (m, below), ``time_update`` and
            ``time_matrix`` (s, the paper's table 2; the total is the Solution's
            ``wall_time``).

        ``error_estimate`` ``sum_k rho_k (1 + N - k)`` over the N steps, ``rho_k`` step k's
        residual of all rows: in the scaled rows (module docstring of
        :mod:`~rancf.formulations.reduced.adaptive`, ``eta M`` about one on position rows) a
        residual ``rho`` moves the step's position by about ``rho`` (m) from the full step's and
        its velocity by ``rho / h``, which the N - k later steps carry on. A first-order estimate
        of the distance of the final coordinates from the full model's run at the same step:
        an indicator, not a bound. It neglects how the dynamics grow or damp an error, and the
        residual of a slope row moves a slope more (its mass is smaller); on the small models
        of ``tests/test_reduced_small.py`` it lies above the tip's distance from the full
        run, and nothing keeps it above that distance on another model.
        """
        solver, red = self.step_solver, self.reduced
        kept = slice(None) if steps is None else slice(0, int(steps))
        residuals = solver.log["residual_norm"][kept]
        full = np.asarray(solver.log["full_residual_norm"][kept], dtype=float)
        status = solver.log["status"][kept]
        cap = red.sparsity if red.max_support is None else red.max_support
        return {"time_setup": red.setup_time,
                **{f"greedy_{k}": status.count(k) for k in STATUSES},
                "greedy_solved": int(sum(r <= red.tol for r in residuals)),
                "greedy_residual_median": float(np.median(residuals)) if residuals else 0.0,
                "greedy_residual_max": float(max(residuals, default=0.0)),
                "greedy_rows": int(solver.rows.size),
                "greedy_unknowns": int(solver.known.size + cap.sum()),
                "greedy_full_residual_median": float(np.median(full)) if full.size else 0.0,
                "greedy_full_residual_max": float(full.max(initial=0.0)),
                "error_estimate": float(full @ (full.size - np.arange(full.size))),
                **self.step_solver.timer.stats()}


def reduce(model, sparsity, n_samples, seed=0, sample="node", free_ends=True, tol=1e-11,
           max_iter=50, max_support=None):
    """The adaptive modal reduction of ``model`` (module docstring; Liu et al. 2023).

    Parameters
    ----------
    model : rancf.Model
        With ``elastic_model="berzeri"`` (the method's pseudo-load split, eq. 23); every beam in
        at least one joint (its joint nodes are the Craig-Bampton boundary).
    sparsity : int or sequence of int (one per beam)
        The number of modal coordinates kept at each step per beam: greedy Gauss-Newton keeps
        the s largest (eq. 36 prints ``||xi||_1 <= s``, but s = 100 is a count: the operator
        ``P_lambda`` keeps the s largest coordinates; developer: Choices of the modal method). In
        ``[0, min(interior coordinates, n_samples)]``.
    n_samples : int or sequence of int
        Interior equations kept per beam (Latin hypercube, eq. 30-32); with ``sample="node"``
        a multiple of 4.
    seed : int or numpy Generator, optional
        Seed of the sampling: an integer >= 0 (the same seed, the same equations), a
        ``numpy.random.Generator``, or None (fresh entropy: another sample each call).
    sample : {"node", "row"}
        Draw whole interior nodes (default) or single interior equations (the literal reading).
    free_ends : bool
        Always keep the equations of free beam ends (default; they count in ``n_samples``).
    tol : float
        Greedy Gauss-Newton tolerance on the sampled residual and on its Gauss-Newton
        decrement (m; a step ends at the least-squares point of its support), at most 1 % of
        the model's size.
    max_iter : int
        Greedy Gauss-Newton iterations per step.
    max_support : int or sequence of int, optional
        Cap on the support during a step (default ``sparsity``; see
        :func:`~rancf.formulations.reduced.greedy_gauss_newton.greedy_gauss_newton`).

    Returns
    -------
    ReducedModel
        Run it with ``rancf.simulate(reduced, t_end, dt, method="backward-euler")``; a run
        whose motion leaves the model's (too few modes or samples) ends with status "diverged"
        (:mod:`~rancf.formulations.reduced.drift`).

    Raises
    ------
    TypeError
        ``model`` is not a :class:`rancf.Model`; ``free_ends`` not a bool; ``seed`` neither
        None, an integer nor a NumPy Generator.
    ValueError
        An elastic model other than "berzeri"; a beam in no joint; ``sparsity``,
        ``n_samples`` or ``max_support`` out of range for a beam (the message gives the
        range); a negative ``seed``.

    Examples
    --------
    A free-falling flexible pendulum (the adaptive-modal paper's case, 10 instead of 160
    elements), reduced and run against the full model over 0.1 s. A model this small needs most
    of its modes and equations (here 30 of the 40 modal coordinates and all 40 interior
    equations): with 10 and 20 the run leaves the full one and stops "diverged"
    (tests/test_reduced_small.py).

    >>> m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    >>> b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
    >>> pin = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    >>> reduced = rancf.reduce(m, sparsity=30, n_samples=40, seed=0)
    >>> res = rancf.simulate(reduced, 0.1, 1e-3, method="backward-euler")
    >>> full = rancf.simulate(m, 0.1, 1e-3, method="backward-euler", formulation="dae")
    >>> bool(np.abs(res.tip() - full.tip()).max() < 0.02)     # m, of a 1 m beam
    True
    """
    return ReducedModel(model, sparsity, n_samples, seed, sample, free_ends, tol, max_iter,
                        max_support)


def initial_state(dae, state):
    """(x0, v0) from a :class:`rancf.State` or None (theory: Assembly and the initial state),
    checked by the DAE."""
    if state is not None and not isinstance(state, State):
        raise TypeError(f"state must be a rancf.State, got {type(state).__name__}")
    x0, v0 = state.checked(dae.assembly.n_x) if state is not None else (None, None)
    return dae.initial_state(x0, v0)
