"""The spatial formulation of a tree (O(n) articulated-body recursion; kernel ``_spatial.pyx``).

State ``y = (q, qd)``: the coordinates of every link (joints and beam elements, in the order of
``SpatialTree.q_offset``) but those of driven joints (whose q, qd, qdd are prescribed), and
their rates; ``n_y = 2 n_free``, ``y' = (qd, qdd)``. The kernel
(:class:`rancf.formulations._spatial.SpatialKernel`) is an
:class:`~rancf.formulations._problem.ODEProblem`, so the compiled explicit loop and SciPy's
solvers run it through :func:`rancf.integrators.explicit.integrate`.

Rotation vectors of spherical and free links are re-centred after every accepted step of the
compiled loop (``ODEProblem.recentre``): ``q <- q (1 - 2 pi / |q|)`` when ``|q| > pi``, the same
rotation, with ``qd`` mapped to keep the angular velocity, since ``J_l(q)`` is singular at
``|q| = 2 pi``. SciPy's solvers offer no such hook: there a link must stay below about a full
turn from its reference (their ``joint_q`` are the unwrapped vectors, the compiled loop's the
re-centred ones).
"""
import functools

import numpy as np

from ..elements._spatial_beam import rotation_log
from ..joints._codes import (M_CYLINDRICAL, M_ELEMENT, M_FREE, M_PRISMATIC, M_REVOLUTE,
                             M_SPHERICAL, M_UNIVERSAL)
from ..model.spatial_build import CABLE_MESSAGE, LOOP_MESSAGE
from ..model.spatial_items import SpatialCable
from ._spatial import SpatialKernel
from ._spatial_energy import TrackedKernel
from ._spatial_implicit import SpatialProblem
from .inputs import failure_message
from .recursive import rates_in_words


class Inputs:
    """Writes the loads, efforts and drives of a spatial tree into the kernel arrays.

    Parameters
    ----------
    tree : rancf.model.spatial_tree.SpatialTree
    arrays : dict of ndarray
        The kernel arrays (``load_force``, ``load_moment`` (3 l), ``effort`` (n_q), and
        ``q``, ``qd`` (n_q), where the kernel leaves the state before the effort functions).
    loads : sequence of (force, moment), optional
        One pair per load of the tree (``tree.load_body`` order): each a 3-vector (N, N m) or a
        callable of t (s) returning one; in global coordinates, or in the body's frame for a
        follower load.
    efforts : dict, optional
        ``{joint index: effort}``: a number for a one-coordinate joint (N m or N), a torque
        3-vector for a spherical joint, ``(force, torque)`` 6-vector for a free joint (in the
        parent's frame), or a callable ``effort(t, q, qd)`` returning that (q, qd numbers for a
        one-coordinate joint, arrays otherwise). Joints of two coordinates (cylindrical,
        universal) take a 2-vector of generalized forces.
    drives : dict, optional
        ``{joint index: drive}`` for one-coordinate joints (revolute, prismatic): a callable
        of t (s) returning ``(q, qd, qdd)`` (rad or m and their rates), or a number, the
        coordinate held there.
    """

    def __init__(self, tree, arrays, loads=None, efforts=None, drives=None):
        nl = len(tree.load_body)
        self.load_force = arrays["load_force"][:3 * nl].reshape(nl, 3)
        self.load_moment = arrays["load_moment"][:3 * nl].reshape(nl, 3)
        self.effort = arrays["effort"]
        self.q, self.qd = arrays["q"], arrays["qd"]
        loads = [] if loads is None else list(loads)
        if len(loads) not in (0, nl):
            raise ValueError(f"loads must give one (force, moment) pair per load of the tree "
                             f"({nl}), got {len(loads)}")
        self.timed = []
        for k, pair in enumerate(loads):
            if len(pair) != 2:
                raise ValueError(f"loads[{k}] must be a (force, moment) pair")
            for name, value, out in (("force", pair[0], self.load_force),
                                     ("moment", pair[1], self.load_moment)):
                if callable(value):
                    self.timed.append((out[k], value))
                else:
                    out[k] = _vector(f"loads[{k}] {name}", value, 3)
        self.effort_functions = []
        qo = np.asarray(tree.q_offset)
        for j, value in (efforts or {}).items():
            if not 0 <= j < len(tree.joint_body):
                raise ValueError(f"efforts: joint {j} is not a joint of the tree "
                                 f"(0..{len(tree.joint_body) - 1})")
            b = int(tree.joint_body[j])
            s = slice(int(qo[b]), int(qo[b + 1]))
            if callable(value):
                self.effort_functions.append((j, s, value))
            else:
                self.effort[s] = _vector(f"efforts[{j}]", value, s.stop - s.start)
        drive = arrays["drive"][:3 * tree.n_q].reshape(-1, 3)
        self.driven = []
        for j, value in (drives or {}).items():
            if not 0 <= j < len(tree.joint_body):
                raise ValueError(f"drives: joint {j} is not a joint of the tree "
                                 f"(0..{len(tree.joint_body) - 1})")
            b = int(tree.joint_body[j])
            if qo[b + 1] - qo[b] != 1:
                raise ValueError(f"drives: joint {j} has {qo[b + 1] - qo[b]} coordinates; only "
                                 "one-coordinate joints (revolute, prismatic) can be driven")
            if j in (efforts or {}):
                raise ValueError(f"joint {j} has both a drive and an effort; give one")
            if callable(value):
                self.timed.append((drive[qo[b]], value))
            else:
                drive[qo[b]] = (_vector(f"drives[{j}]", value, 1)[0], 0.0, 0.0)
            self.driven.append(int(qo[b]))
        self.time_dependent = bool(self.timed)
        self.effort_dependent = bool(self.effort_functions)
        self.error = None

    def at_time(self, t):
        """Load functions at t (s)."""
        for out, f in self.timed:
            out[:] = f(t)

    def efforts(self, t):
        """Effort functions at (t, q, qd) of their joints."""
        for j, s, f in self.effort_functions:
            q, qd = self.q[s], self.qd[s]
            if s.stop - s.start == 1:
                self.effort[s] = f(t, float(q[0]), float(qd[0]))
            else:
                self.effort[s] = f(t, q.copy(), qd.copy())

    def failure(self):
        """The message of the exception a callable raised; the exception stays in ``error``,
        for the Result (as :meth:`rancf.formulations.inputs.Inputs.failure`)."""
        return failure_message(self.error)


def _vector(name, value, n):
    v = np.asarray(value, dtype=float).reshape(-1)
    if v.shape != (n,) or not np.all(np.isfinite(v)):
        raise ValueError(f"{name} must be {n} finite numbers, got {value!r}")
    return v


class Spatial:
    """A spatial tree in the O(n) formulation (see the module docstring).

    Parameters
    ----------
    tree : rancf.model.spatial_tree.SpatialTree
    loads, efforts, drives :
        The load values, joint efforts and drives (:class:`Inputs`).

    Attributes
    ----------
    tree, kernel (the :class:`~rancf.formulations._problem.ODEProblem`), inputs, n_q (link
    coordinates), n_free (those in the state), n_y.
    """

    def __init__(self, tree, loads=None, efforts=None, drives=None):
        self.tree = tree
        self.kernel = SpatialKernel(tree)
        self.inputs = Inputs(tree, self.kernel.arrays, loads, efforts, drives)
        self.kernel.set_inputs(self.inputs)
        self.kernel.set_drives(self.inputs.driven)
        self.kernel.owner = self
        self.n_q, self.n_free, self.n_y = tree.n_q, self.kernel.n_free, self.kernel.n_y
        qo = np.asarray(tree.q_offset)
        self._joint_columns = np.concatenate(
            [np.arange(qo[b], qo[b + 1]) for b in tree.joint_body] or [np.zeros(0, int)]
        ).astype(int)

    def initial_state(self, q=None, qd=None):
        """``y0 = (q, qd)`` (n_y,) of the free coordinates (n_free each); zeros (the
        reference configuration at rest) by default."""
        y = np.zeros(self.n_y)
        if q is not None:
            y[:self.n_free] = _vector("q", q, self.n_free)
        if qd is not None:
            y[self.n_free:] = _vector("qd", qd, self.n_free)
        return y

    def tracked(self):
        """The kernel with the energy balance in its state (:class:`~rancf.formulations.
        _spatial_energy.TrackedKernel`): ``y = (q, qd, W_ext, W_diss)``, ``n_y + 2`` entries,
        what the explicit methods integrate (the work and the dissipation at their order)."""
        return TrackedKernel(self.kernel)

    def state_of(self, x, v, t=0.0, tol=1e-8):
        """``y0 = (q, qd)`` (n_y,) of the bodies' poses x and velocities v, checked against the
        joints: the inverse of :meth:`kinematics`, as the planar
        :meth:`rancf.formulations.recursive.Recursive.initial_state`.

        Each link's coordinates follow from its parent's pose and its body's (``R(q) =
        A_p^T A Q^T``, ``t(q) = A_p^T (r - r_p + A offset) - anchor``): an angle or a slide
        along the link's axes, a rotation vector (``log``, angle at most pi) for spherical, free
        and element links; a driven link's are its drive's at t. The rates, link by link root
        to leaves, are the least-squares solution of ``H qd = V - X V_p`` (the parent's given
        velocity). The poses and velocities these coordinates give must equal x and v: the
        positions to ``tol`` times the model size, the frames to ``tol``, the velocities to
        ``tol`` times their largest entry (plus 1e-12).

        Parameters
        ----------
        x : ndarray (12 n_bodies,)
            Per body its origin r (m) and frame A row-major (:attr:`rancf.Result.nodes`).
        v : ndarray (6 n_bodies,)
            Per body its velocity and angular velocity (m/s, rad/s; :attr:`rancf.Result.
            velocities`).
        t : float
            The time of the drives (s).

        Returns
        -------
        ndarray (n_y,)

        Raises
        ------
        ValueError
            The poses or velocities do not satisfy the joints (the body and the gap named).
        """
        tree, n = self.tree, self.tree.n_bodies
        x = np.asarray(x, dtype=float).reshape(n, 12)
        V = np.asarray(v, dtype=float).reshape(n, 6)
        r, A = x[:, :3], x[:, 3:].reshape(n, 3, 3)
        qo = np.asarray(tree.q_offset)
        q = np.zeros(self.n_q)
        for i in range(n):
            p = tree.parent[i]
            Ap, rp = (A[p], r[p]) if p >= 0 else (np.eye(3), np.zeros(3))
            R = Ap.T @ A[i] @ tree.relative[i].T
            tq = Ap.T @ (r[i] - rp + A[i] @ tree.offset[i]) - tree.anchor[i]
            q[qo[i]:qo[i + 1]] = _link_coordinates(int(tree.motion[i]), tree.axes[i], R, tq)
        self.inputs.at_time(t)
        smap = self.kernel.arrays["smap"][:self.n_q]
        free = smap >= 0
        y = np.zeros(self.n_y)
        y[smap[free]] = q[free]
        r1, A1, _ = self.kinematics(y)
        gap = np.maximum(np.abs(r1 - r).max(axis=1) / tree.size,
                         np.abs(A1 - A).reshape(n, 9).max(axis=1)) if n else np.zeros(0)
        bad = np.flatnonzero(gap > tol)
        if bad.size:
            raise ValueError(f"state: the poses do not satisfy the joints at body {bad[0]} (off "
                             f"by {gap[bad[0]]:.3g} of the model size or in its frame); pass "
                             "poses that satisfy every joint (Result.state of a run of this "
                             "model)")
        # rates root to leaves: H (6 x n_i, row stride 6) and d = r_i - r_p at these q
        a = self.kernel.arrays
        H = a["H"][:36 * n].reshape(n, 6, 6)
        d = a["d"][:3 * n].reshape(n, 3)
        qd = np.zeros(self.n_q)
        for i in range(n):
            k = np.arange(qo[i], qo[i + 1])
            k = k[free[k]]
            if not k.size:
                continue
            p = tree.parent[i]
            known = np.zeros(6) if p < 0 else np.concatenate(
                [V[p, :3] + np.cross(V[p, 3:], d[i]), V[p, 3:]])
            cols = k - qo[i]
            qd[k] = np.linalg.lstsq(H[i][:, cols], V[i] - known, rcond=None)[0]
        y[self.n_free + smap[free]] = qd[free]
        _, _, V1 = self.kinematics(y)
        off = np.abs(V1 - V).max() if n else 0.0
        if off > tol * np.abs(V).max() + 1e-12:
            body = int(np.abs(V1 - V).max(axis=1).argmax())
            raise ValueError(f"state: the velocities do not satisfy the joints at body {body} "
                             f"(off by {off:.3g}); pass velocities that satisfy every joint")
        return y

    def derivative(self, t, y):
        """``y' = (qd, qdd)`` (n_y,) at (t, y); raises as
        :meth:`rancf.formulations._problem.ODEProblem.derivative`."""
        return self.kernel.derivative(t, y)

    def kinematics(self, y):
        """Body origins (n, 3), frames (n, 3, 3) and velocities ``(v, w)`` (n, 6) at y."""
        self.kernel.kinematics(y)
        a, n = self.kernel.arrays, self.tree.n_bodies
        return (a["r"][:3 * n].reshape(n, 3).copy(), a["A"][:9 * n].reshape(n, 3, 3).copy(),
                a["V"][:6 * n].reshape(n, 6).copy())

    def energy(self, y):
        """``{"kinetic", "gravity", "elastic"}`` (J) at y: ``1/2 sum (m v.v + w.A J A^T w)``,
        the gravity potential ``-sum m g.r`` and the elastic energy of the elements."""
        r, A, V = self.kinematics(y)
        t = self.tree
        Ig = np.einsum("nij,njk,nlk->nil", A, t.inertia, A)
        w = V[:, 3:]
        kinetic = 0.5 * (t.mass @ np.einsum("ni,ni->n", V[:, :3], V[:, :3])
                         + np.einsum("ni,nij,nj->", w, Ig, w))
        gravity = -float(t.mass @ (r @ t.gravity))
        return {"kinetic": float(kinetic), "gravity": gravity,
                "elastic": float(self.kernel.elastic_energy(y))}

    def reactions(self, t, y):
        """The reaction of every joint (n_joints, 6): ``[fx, fy, fz, mx, my, mz]``, the force
        and moment the parent exerts on the child through the joint, global, the moment about
        the joint point (N, N m; DECISIONS 29). From the recursion at (t, y): the link wrench
        at the child's origin is ``W = I^A V' + p^A`` (the articulated inertia and bias force
        of the child's subtree), moved to the joint point ``x = r + A offset`` by
        ``M_x = M - (A offset) x F``. NaN if the evaluation failed."""
        k, tree = self.kernel, self.tree
        n, joints = tree.n_bodies, np.asarray(tree.joint_body, dtype=int)
        status, _ = k.evaluate(t, y)
        if status:
            return np.full((len(joints), 6), np.nan)
        a = k.arrays
        IA = a["IA"][:36 * n].reshape(n, 6, 6)[joints]
        W = np.einsum("jik,jk->ji", IA, a["acc"][:6 * n].reshape(n, 6)[joints]) \
            + a["pA"][:6 * n].reshape(n, 6)[joints]
        o = np.einsum("jik,jk->ji", a["A"][:9 * n].reshape(n, 3, 3)[joints], tree.offset[joints])
        W[:, 3:] -= np.cross(o, W[:, :3])
        return W

    def observe(self, t, Y, branches):
        """The model-level arrays of the states Y (n_out, n_y) at the times t
        (:meth:`rancf.formulations._problem.ODEProblem.observe`): ``nodes`` (n_out, 12 n: r then
        A row-major, per body), ``velocities`` (n_out, 6 n: v, w), ``joint_q``, ``joint_qd``
        (the joints' link coordinates, concatenated in joint order), ``reactions`` (n_out,
        6 n_joints: :meth:`reactions`, joint by joint), and the energies
        ``kinetic``, ``gravity``, ``elastic`` (n_out,). ``branches`` is unused (no angle
        branch: the coordinates are the state)."""
        n, nq = self.tree.n_bodies, self.n_q
        m = len(t)
        nodes, vel = np.empty((m, 12 * n)), np.empty((m, 6 * n))
        q, qd = np.empty((m, nq)), np.empty((m, nq))
        energies = {k: np.empty(m) for k in ("kinetic", "gravity", "elastic")}
        reactions = np.empty((m, 6 * len(self.tree.joint_body)))
        for i in range(m):
            reactions[i] = self.reactions(t[i], Y[i]).ravel()
            self.inputs.at_time(t[i])
            q[i], qd[i] = self.kernel.full(Y[i])
            r, A, V = self.kinematics(Y[i])
            nodes[i] = np.concatenate([r, A.reshape(n, 9)], axis=1).ravel()
            vel[i] = V.ravel()
            for k, e in self.energy(Y[i]).items():
                energies[k][i] = e
        return {"nodes": nodes, "velocities": vel, "joint_q": q[:, self._joint_columns],
                "joint_qd": qd[:, self._joint_columns], "reactions": reactions, **energies}

    def stiffness(self, y):
        """The rates an explicit step must resolve at the state y, in words
        (:func:`rancf.formulations.recursive.rates_in_words` of :meth:`highest_rate`)."""
        return rates_in_words(self.highest_rate(y, "stiffness"), self.highest_rate(y, "damping"))

    def highest_rate(self, y, which, t=0.0, iterations=40):
        """An estimate of the highest natural frequency (rad/s, ``which="stiffness"``) or
        decay rate (1/s, ``"damping"``) of the motion linearised at (t, y): the square root of
        the dominant eigenvalue magnitude of ``d qdd / d q``, or that of ``-d qdd / d qd``,
        by power iteration on central differences (steps ``1e-7 max(1, |y|)``), two
        evaluations an iteration."""
        n = self.n_free
        if n == 0:
            return 0.0
        y = np.asarray(y, dtype=float)
        part = slice(0, n) if which == "stiffness" else slice(n, 2 * n)
        x = np.random.default_rng(0).standard_normal(n)
        h = 1e-7 * max(1.0, float(np.abs(y).max()))
        best = 0.0
        for _ in range(iterations):
            x /= np.linalg.norm(x)
            yp, ym = y.copy(), y.copy()
            yp[part] += h * x
            ym[part] -= h * x
            Jx = (self.derivative(t, yp)[n:] - self.derivative(t, ym)[n:]) / (2.0 * h)
            best = float(np.linalg.norm(Jx))
            if best == 0.0:
                break
            x = Jx
        return float(np.sqrt(best)) if which == "stiffness" else best


def _rotation_vector(R):
    """log(R) (3,): the rotation vector, angle at most pi (the kernels' ``logm``)."""
    p = np.zeros(3)
    rotation_log(np.ascontiguousarray(R, dtype=float).ravel(), p)
    return p


def _link_coordinates(motion, axes, R, t):
    """A link's coordinates of its relative rotation R (3, 3) and translation t (3,) in the
    parent's frame (the inverse of the kernel's ``link``; ``axes`` (2, 3) its unit axes):
    angles about and slides along the axes, rotation vectors. A universal link's
    ``R = exp(q0 a0^) exp(q1 a1^)`` gives ``R^T a0 = exp(-q1 a1^) a0`` and
    ``R a1 = exp(q0 a0^) a1`` (a0, a1 orthogonal)."""
    a0, a1 = axes
    if motion == M_REVOLUTE:
        return [_rotation_vector(R) @ a0]
    if motion == M_PRISMATIC:
        return [t @ a0]
    if motion == M_CYLINDRICAL:
        return [t @ a0, _rotation_vector(R) @ a0]
    if motion == M_UNIVERSAL:
        n = np.cross(a0, a1)
        b, c = R.T @ a0, R @ a1
        return [np.arctan2(c @ n, c @ a1), np.arctan2(b @ n, b @ a0)]
    if motion == M_SPHERICAL:
        return _rotation_vector(R)
    if motion in (M_FREE, M_ELEMENT):
        return np.concatenate([t, _rotation_vector(R)])
    return []


def implicit_problem(formulation, static=False):
    """The implicit loop's problem of a spatial formulation: a compiled
    :class:`rancf.formulations._spatial_implicit.SpatialProblem` on its kernel (the residual by
    the Newton-Euler recursion, the approximate Newton matrix by the articulated-body
    elimination, O(n); its docstring gives the terms left out), with n = ``n_free``
    coordinates, no constraints, ``(q0, v0)`` the halves of :meth:`Spatial.initial_state`.

    Parameters
    ----------
    formulation : Spatial
    static : bool
        For statics (:func:`rancf.static`): drives held, applied forces scaled by the problem's
        ``load_factor``.
    """
    return SpatialProblem(formulation, static)


def of_model(model):
    """The spatial formulation of a spatial model (``rancf.Model(dim=3)``), built and frozen.

    Its loads' forces and moments (constants or functions of t; global, or in the body's frame
    for a follower load), the efforts of its joints and the drives of its one-coordinate joints
    become the formulation's inputs (:class:`Inputs`).

    Parameters
    ----------
    model : rancf.model.spatial_model.SpatialModel

    Returns
    -------
    Spatial
        A new formulation with its own kernel and workspace: runs in several threads each
        make their own.

    Raises
    ------
    ValueError
        The model has a closed loop (the recursion runs trees).
    """
    tree = model.build()
    if len(tree.loop_joint):
        j = model.joints[int(tree.loop_joint[0])]
        raise ValueError(f"joint {j.index} ({j.kind}) closes a loop: {LOOP_MESSAGE}")
    if tree.n_cable_nodes:
        cable = next(b for b in model.beams if isinstance(b, SpatialCable))
        raise ValueError(f"{cable!r} is an ANCF cable: {CABLE_MESSAGE}")
    return Spatial(tree, *model_inputs(model))


def model_inputs(model):
    """``(loads, efforts, drives)`` of a spatial model, as :class:`Inputs` takes them: the
    model's checked calls (a function's exception becomes a :class:`rancf.UserFunctionError`
    naming it, and what it returns must be real numbers)."""
    loads = [tuple(functools.partial(load.value, name) if callable(getattr(load, name))
                   else getattr(load, name) for name in ("force", "moment"))
             for load in model.loads]
    efforts = {j.index: j.effort_value if callable(j.effort) else j.effort
               for j in model.joints if j.effort is not None}
    drives = {j.index: j.drive_values for j in model.joints if j.drive is not None}
    return loads, efforts, drives
