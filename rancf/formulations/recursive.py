"""The recursive formulation of a model (RANCF on trees; kernels in ``_recursive.pyx``).

State ``y = [x, beta, W_ext, W_diss]``: the absolute coordinates x of every vertex (n_x, the
layout of :class:`rancf.model.Assembly`), the generalized velocities beta (``n_dof``: per vertex,
root to leaves, the rates of a first vertex's tree joint and the four rates of every other beam
node), and the work of the external forces and drives and the dissipated energy since t = 0
(J), integrated with the motion (theory: The energy balance). The first vertex of every body is
rebuilt from its parent at every evaluation, so the joints hold exactly whatever the integrator
does to its copy in x. ``y' = [V, beta', P_ext, P_diss]``.

The model must be a tree rooted at the ground whose child beams are jointed at their start
(:attr:`rancf.model.Assembly.recursive_reason`); closed loops need ``formulation="dae"``.
"""
import collections
import contextlib
import threading

import numpy as np

from ..elements import hermite, planar
from ..joints._codes import (FIRST_BODY, FIRST_NODE, FREE, HELD_AT_Q, P_ARC, P_BODY,
                             P_GROUND, P_NODE, SLIDE)
from . import start_check
from ._forces import ForceKernel
from ._implicit_recursive import RecursiveProblem
from ._recursive import RecursiveKernel
from .inputs import Inputs, Recorded


def tree_tables(assembly):
    """Vertex tables of the recursion: order root to leaves, vertex codes, the joint maps'
    place and turn (:class:`rancf.joints.kind.RecursionMaps`), predecessors, rates, and where a
    first vertex's blocks of its joint rates are (``joff``: the joint rates before it, root to
    leaves; ``n_joint_rates`` in all)."""
    A = assembly
    if A.recursive_reason is not None:
        raise ValueError(f"formulation 'recursive' cannot run this model: {A.recursive_reason}")
    nv, nb = A.n_vertices, len(A.beams)
    t = {k: np.full(nv, -1, dtype=np.intc) for k in ("code", "place", "turn", "pred", "elem",
                                                      "parent", "joint", "boff", "nb", "joff")}
    first_element = np.concatenate([[0], np.cumsum([b.n_elements for b in A.beams])[:-1]]).astype(int) \
        if nb else np.zeros(0, int)
    order, constant = [], True
    for item in A.item_order:
        j = int(A.item_parent_joint[item])
        joint = A.joints[j]
        if item < nb:
            first = int(A.beam_first_vertex[item])
            vertices = [first + k for k in range(A.beams[item].n_nodes)]
            for k, v in enumerate(vertices[1:], 1):
                t["code"][v], t["pred"][v], t["nb"][v] = FREE, v - 1, A.node_size
                t["elem"][v] = first_element[item] + k - 1
        else:
            first = int(A.body_vertex[item - nb])
            vertices = [first]
        # Assembly.recursive_reason has refused kinds without maps
        maps = joint.type.recursion(P_NODE if item < nb else P_BODY, joint.driven)
        constant = constant and maps.constant
        t["code"][first] = FIRST_NODE if item < nb else FIRST_BODY
        t["place"][first], t["turn"][first], t["nb"][first] = maps.place, maps.turn, maps.rates
        t["joint"][first], t["parent"][first] = j, A.parent_vertex[j]
        order.extend(vertices)
    t["order"] = np.array(order, dtype=np.intc)
    offsets = np.concatenate([[0], np.cumsum(t["nb"][t["order"]])])
    t["boff"][t["order"]] = offsets[:-1]
    t["n_beta"] = int(offsets[-1])
    firsts = t["order"][t["code"][t["order"]] != FREE]
    joint_rates = np.concatenate([[0], np.cumsum(t["nb"][firsts])])
    t["joff"][firsts] = joint_rates[:-1]
    t["n_joint_rates"] = int(joint_rates[-1])
    t["constant"] = constant
    return t


class Recursive:
    """A model in the recursive formulation (see the module docstring).

    Built once per model and cached (:func:`of`). Attributes: ``assembly``, ``kernel``
    (:class:`rancf.formulations._recursive.RecursiveKernel`, the formulation's
    :class:`~rancf.formulations._problem.ODEProblem`, whose ``observe`` and ``stiffness`` are
    this object's), ``n_dof`` (generalized velocities), ``n_y`` (state size), ``tables``
    (:func:`tree_tables`).
    """

    def __init__(self, assembly):
        self.assembly = assembly
        self.tables = tree_tables(assembly)
        #: how :meth:`initial_state` took a given start's velocities ("" as given)
        self.start_note = ""
        self.kernel = RecursiveKernel(assembly, self.tables)
        arrays = self.kernel.arrays
        self.inputs = Inputs(assembly, arrays, arrays["q"], arrays["qd"])
        self.kernel.set_inputs(self.inputs)
        self.kernel.owner = self
        self.n_x, self.n_dof, self.n_y = assembly.n_x, self.tables["n_beta"], self.kernel.n_y
        # joints with a reaction: driven, or holding their angle coordinate (fixed)
        self.held = bool(np.any(assembly.joint_driven)) or bool(
            (self.tables["turn"] == HELD_AT_Q).any())
        if self.tables["constant"]:
            y = np.concatenate([assembly.x0, np.zeros(self.n_dof + 2)])
            self._kinematics(0.0, y)
            if self.kernel.set_constant(True):
                raise ValueError("the generalized mass matrix of this model is singular")

    def _kinematics(self, t, y):
        if self.kernel.kinematics(t, y):
            # what an input function raised (a UserFunctionError, its cause chained), or the
            # check of what it returned, as it was raised: no run holds a Result yet
            exc, self.inputs.error = self.inputs.error, None
            raise exc

    # --- states -------------------------------------------------------------------------------
    def initial_state(self, x=None, v=None, t=0.0, tol=1e-8, branch=None):
        """``y0`` (n_y,) from coordinates x and velocities v (n_x,), checked against the joints.

        Default: the reference configuration at rest but for the drives (theory: Assembly and the
        initial state). The coordinates must satisfy every joint to ``tol`` times the model size.
        The velocities are taken as the joint rates whose node velocities are nearest v in the
        kinetic-energy metric (the least change of the whole motion, :meth:`_rates_of`, as the
        DAE's projection makes it); the change dv they make
        must be within ``tol`` of v in the kinetic-energy metric (``dv^T M dv <= tol^2 v^T M
        v``), or, for a state a DAE run left (its velocity rows held only to its step's error,
        :mod:`rancf.formulations.start_check`), within 0.05 of it
        (:func:`~rancf.formulations.start_check.velocity_verdict`), which :attr:`start_note`
        then states ("" when none). Further off is refused naming the joint of the first
        vertex (root to leaves) with more than its share of the correction's energy
        (:func:`~rancf.formulations.start_check.first_off`), stating the energies judged
        (:func:`~rancf.formulations.start_check.velocity_miss`) and, if driven, its drive's
        value at t against the state's. ``branch``
        (n_joints,): the angles (rad) that x's joint angles are taken nearest, the branch the
        run starts on (default the reference configuration's, ``assembly.joint_q0``: a start
        turned past pi from it, the equilibrium of ``state="static"``, gives its own
        continuous angles, or its springs and efforts would see them wrapped by a turn).
        """
        A = self.assembly
        self.start_note = ""
        x = A.x0.copy() if x is None else np.array(x, dtype=float)
        y = np.concatenate([x, np.zeros(self.n_dof + 2)])
        self.kernel.arrays["qref"][:A.n_joints] = A.joint_q0 if branch is None else branch
        self._kinematics(t, y)
        X = self.kernel.arrays["X"]
        gap = np.abs(X - x).reshape(-1, A.node_size).max(axis=1)
        if gap.max(initial=0.0) > tol * A.size:
            vertex = self._first_off(gap > tol * A.size)
            raise ValueError(start_check.planar_refusal(A, self._joint_of(vertex), "coordinates",
                                                 gap[vertex], x, v, t))
        if v is None:
            return y
        v = np.asarray(v, dtype=float)
        M = A.mass_matrix()
        y[self.n_x:self.n_x + self.n_dof] = self._rates_of(t, x, v, M)
        self._kinematics(t, y)
        V = self.kernel.arrays["V"]
        dv = V - v
        Mv, Mdv = M @ v, M @ dv
        verdict = start_check.velocity_verdict(v, Mv, dv, Mdv, tol)
        if verdict == "refused":
            shares = (dv * Mdv).reshape(-1, A.node_size).sum(axis=1)
            vertex = start_check.first_off(shares, self.tables["order"], v, Mv)
            raise ValueError(start_check.planar_refusal(
                A, self._joint_of(vertex), "velocities",
                start_check.velocity_miss(v, Mv, dv, Mdv), x, v, t))
        if verdict == "moved":
            off = np.abs(dv).max(initial=0.0)
            self.start_note = start_check.correction_note(0.0, off, 0.0, off)
        return y

    def _first_off(self, off):
        """The first vertex, root to leaves, where ``off`` (n_vertices,) is True."""
        order = self.tables["order"]
        return int(order[np.flatnonzero(off[order])[0]])

    def _joint_of(self, vertex):
        """The joint that places ``vertex``: its item's joint to its parent."""
        t = self.tables
        while t["code"][vertex] == FREE:
            vertex = t["pred"][vertex]
        return int(t["joint"][vertex])

    def _rates_of(self, t, x, v, M):
        """The rates beta (n_beta,) whose node velocities ``V = B beta + V_d`` are nearest v
        (n_x,) in the kinetic-energy metric at the coordinates x (n_x,) and time t (s): ``min
        (B beta + V_d - v)^T M (B beta + V_d - v)``, the normal equations ``B^T M B beta = B^T
        M (v - V_d)`` (B the map from the rates to the node velocities at x, V_d the drives'
        part: the kinematics with beta = 0, M the mass matrix, ``assembly.mass_matrix()``). ``B^T M B`` is the generalized
        mass the forward dynamics factors and solves (O(n), the kernel's ``factorize`` and
        ``solve`` with the node forces ``M (v - V_d)``), then once more with the miss ``v - V``
        it leaves (one step of iterative refinement: the normal equations' rounding, about
        their condition number times 1e-16 of the rates, taken back to that of the rates' own
        rounding, so that the velocities of a run's state come back as they were, a
        restart continuing the run). Leaves the kinematics at (t, x, beta)."""
        y = np.concatenate([x, np.zeros(self.n_dof + 2)])
        self._kinematics(t, y)
        if not self.tables["constant"] and self.kernel.factorize():
            raise ValueError("the generalized mass matrix of this model is singular at this "
                             "state")
        beta, step, g = np.zeros(self.n_dof), np.zeros(self.n_dof), np.zeros(self.n_dof)
        for _ in range(2):
            self.kernel.solve(M @ (v - self.kernel.arrays["V"]), g, False, step)
            beta += step
            y[self.n_x:self.n_x + self.n_dof] = beta
            self._kinematics(t, y)
        return beta

    # --- evaluations --------------------------------------------------------------------------
    def derivative(self, t, y):
        """``y'`` (n_y,) at (t, y) (:meth:`ODEProblem.derivative
        <rancf.formulations._problem.ODEProblem.derivative>`, which raises on a singular mass
        or a held slope turned over); what an input function raised (a UserFunctionError, or
        the check of what it returned) is raised as it was: at a run's initial state, where the
        run has no output yet to keep."""
        self.inputs.error = None
        try:
            return self.kernel.derivative(t, y)
        except RuntimeError:
            if self.inputs.error is None:
                raise
        exc, self.inputs.error = self.inputs.error, None
        raise exc

    def accelerations(self, t, y):
        """Node accelerations (n_x,) at (t, y): the second derivative of the coordinates."""
        self.derivative(t, y)
        return self.kernel.arrays["A"].copy()

    def outputs(self, t, y, qref=None):
        """What a Result keeps of the state y at t: coordinates, velocities (n_x,), joint q, qd
        and reactions (n_joints,). ``qref`` picks the branch of the joint angles. The
        reactions of held joints need the forward dynamics; without them a kinematics pass
        does (the reactions are zero)."""
        if qref is not None:
            self.kernel.arrays["qref"][:len(qref)] = qref
        k, nj = self.kernel.arrays, self.assembly.n_joints
        if self.held:
            self.derivative(t, y)
            self.kernel.joint_coordinates()
            reaction, _ = self.kernel.reactions()
        else:
            self._kinematics(t, y)
            reaction = np.zeros(nj)
        return (k["X"].copy(), k["V"].copy(), k["q"][:nj].copy(), k["qd"][:nj].copy(), reaction)

    def motion(self, t, y, qref=None):
        """The node accelerations (n_x,) and the reaction of every joint on its child
        (n_joints, 3) at the state y at t, from one evaluation of the forward dynamics.

        The reaction is the articulated residual at the child's first vertex,
        ``G = H A - f`` (theory: Reactions): the generalized force
        ``M a + F_K - F_ext`` of the child's subtree on the vertex's four coordinates (a
        node's ``[r; r']``, a body's ``[r_G; u]``), which the joint supplies. It is turned
        into ``[fx, fy, m]``, the force (N) and the moment (N m) about the child's joint point
        in global coordinates, as :meth:`rancf.formulations.dae.DAE.joint_reactions` turns the
        DAE's multipliers. ``qref`` picks the branch of the joint angles (efforts that depend
        on q).
        """
        from .dae import wrenches
        if qref is not None:
            self.kernel.arrays["qref"][:len(qref)] = qref
        self.derivative(t, y)
        k, A, ns = self.kernel.arrays, self.assembly, self.assembly.node_size
        v = A.child_vertex
        H = k["H"].reshape(-1, ns, ns)[v]
        acc, f, X = (k[name].reshape(-1, ns)[v] for name in ("A", "f", "X"))
        G = np.einsum("jik,jk->ji", H, acc) - f
        return k["A"].copy(), wrenches(A, X, G)

    def observe(self, t, Y, branches, deferred=False, kept=None):
        """The model-level arrays of the states Y (n_out, n_y) at the times t (n_out,), as the
        integrators keep them (:meth:`rancf.formulations._problem.ODEProblem.observe`):
        :meth:`outputs` as ``nodes``, ``velocities`` (n_out, n_x), ``joint_q``, ``joint_qd``,
        ``reactions`` (n_out, n_joints), the integrated ``work`` and ``dissipated`` energy (J)
        and the generalized velocities ``beta`` (n_out, n_dof). ``branches[i]`` picks the
        branch of the joint angles at output i (None: from output i - 1's).

        With ``deferred`` (a run's outputs; developer: Results, files and sweeps) the states'
        own parts (``work``, ``dissipated``, ``beta``: views of Y) are returned as they are and
        the rest is left to a :class:`StoredFrames` of t, Y and branches (kept, not copied: the
        run's arrays), which the Result calls when one of them is first read (mapped here where
        the model has input functions, so that they are called during the run): ``nodes`` is the
        StoredFrames, ``reactions`` its :meth:`~StoredFrames.reactions`. A stored output then
        costs the loop's copy of the state; the mapping (a kinematics pass an output, O(n), or
        the forward dynamics where joints are held) is paid once, on the first read, all outputs
        in one compiled call (:meth:`~rancf.formulations._recursive.RecursiveKernel.frames`).
        Where the loop ``kept`` the input functions' values at the outputs (one
        :meth:`~rancf.formulations.inputs.Inputs.keep` row an output), the mapping is deferred
        too and plays them back (a :class:`~rancf.formulations.inputs.Recorded`, also given as
        ``inputs``, for the Result's other outputs, :attr:`Solution.inputs
        <rancf.integrators.solution.Solution.inputs>`).
        """
        own = {"work": Y[:, -2], "dissipated": Y[:, -1],
               "beta": Y[:, self.n_x:self.n_x + self.n_dof]}
        if deferred:
            recorded = Recorded(np.asarray(t, dtype=float), kept) \
                if kept is not None and self.assembly.has_callables else None
            frames = StoredFrames(_kernel_frames, self.assembly, t, Y, branches, self.held,
                                  recorded, now=self.assembly.has_callables and recorded is None)
            return {"nodes": frames, "reactions": frames.reactions, "inputs": recorded, **own}
        X, V, q, qd, reaction = self.kernel.frames(t, Y, branches, self.held)
        return {"nodes": X, "velocities": V, "joint_q": q, "joint_qd": qd, "reactions": reaction,
                **own}

    def stiffness(self, y):
        """The rates an explicit step must resolve at the state y, in words
        (:func:`rates_in_words` of :meth:`highest_frequency` and :meth:`highest_decay_rate`)."""
        return rates_in_words(self.highest_frequency(y), self.highest_decay_rate(y))

    def highest_frequency(self, y, iterations=40):
        """A lower bound of the highest natural frequency (rad/s) linearised at the state y:
        the square root of :meth:`highest_eigenvalue` of the element tangents."""
        return float(np.sqrt(self.highest_eigenvalue(y, "stiffness", iterations)))

    def highest_decay_rate(self, y, iterations=40):
        """A lower bound of the fastest decay rate (1/s) of the elements' damping (the largest
        eigenvalue of ``Omega^-1 B^T C B``; ``c omega^2`` for a Kelvin-Voigt damping time c),
        the spring-dampers' and the effort functions' (their ``-dtau/dqd``): an explicit step
        must resolve it as well as the highest frequency."""
        return self.highest_eigenvalue(y, "damping", iterations)

    def highest_eigenvalue(self, y, which, iterations=40):
        """A lower bound of the largest eigenvalue of ``Omega^-1 B^T X B`` linearised at the
        state y (at t = 0), X the element tangents (``which="stiffness"``) or damping matrices
        (``"damping"``) with the spring-dampers' and effort functions' (:class:`_ForceRates`),
        1/s^2 or 1/s.

        Power iteration: the Rayleigh quotient never exceeds the largest eigenvalue, so the
        bound is safe for rejecting a step that is certainly unstable.
        """
        A = self.assembly
        if self.n_dof == 0:
            return 0.0
        self._kinematics(0.0, y)
        forces = _ForceRates(A, which, self._effort_slopes(which))
        if A.n_elements == 0 and not forces:
            return 0.0
        if not self.tables["constant"] and self.kernel.factorize():
            raise ArithmeticError("the generalized mass matrix is singular at this state")
        kind, es = A.element_kind, A.element_kind.element_size
        ev = A.element_vertices
        X = self.kernel.arrays["X"]
        E = kind.gather(X, ev)
        K, C = kind.element_tangents(E, A.element_length, A.element_EA, A.element_EI,
                                     A.element_damping)
        K = K if which == "stiffness" else C
        x = np.random.default_rng(0).standard_normal(self.n_dof)
        V, f, out = np.empty(self.n_x), np.empty(self.n_x), np.empty(self.n_dof)
        body = self.kernel.arrays["body_mass"][:self.n_x]
        best = 0.0
        for _ in range(iterations):
            self.kernel.velocities(x, V)
            VE = kind.gather(V, ev)
            KV = np.einsum("sij,sj->si", K, VE)
            f[:] = 0.0
            xkx = float(np.einsum("si,si->", VE, KV)) + forces.add(X, V, f)
            xmx = float(np.einsum("si,sij,sj->", VE, A.element_mass, VE) + body @ (V * V))
            best = max(best, xkx / xmx)
            kind.scatter(-KV, ev, f)
            self.kernel.solve(f, np.zeros(self.n_dof), False, out)
            if not np.any(out):
                break
            x = -out / np.abs(out).max()
        return float(best)

    def _effort_slopes(self, which):
        """``(joint, -dtau/dq)`` (``which="stiffness"``) or ``(joint, -dtau/dqd)`` of every
        effort function at the joint coordinates of the last kinematics, at t = 0
        (:meth:`~rancf.formulations.inputs.Inputs.effort_slopes`): the stiffness or damping
        the effort adds on its coordinate, ``k`` and ``c`` of ``tau = -k q - c qd``."""
        joints = self.inputs.effort_joints
        if not joints:
            return []
        slopes = np.zeros((2, self.assembly.n_joints))
        self.inputs.effort_slopes(0.0, slopes[0], slopes[1])
        row = slopes[0 if which == "stiffness" else 1]
        return [(j, -float(row[k])) for k, j in joints]


class _ForceRates:
    """The force elements' part of :meth:`Recursive.highest_eigenvalue`, as a quadratic form in
    the node velocities V: the spring-dampers' axial stiffness ``k n n^T`` (or damping
    ``c n n^T``) between their points, the torsions' ``k`` (or ``c``) on their joint's angle
    rate, and the effort functions' slopes ``k = -dtau/dq`` (or ``c = -dtau/dqd``) on their
    joint's coordinate rate: on an angle as a torsion's, on a slide as a spring's along the
    rail ``a`` (the slide rate ``a . (v_c - v_a)``: the rail's turn ``a'`` is normal to
    ``r_c - r_a = q a``). The tension's geometric term is left out: the quotient stays a lower
    bound."""

    def __init__(self, A, which, slopes=()):
        column = 0 if which == "stiffness" else 1
        self.A = A
        #: (first point, second point, the joint whose rail is the line or None, k)
        self.points = [(*s.points, None, (s.k, s.c)[column]) for s in A.springs
                       if (s.k, s.c)[column] != 0.0]
        self.torsions = [(t.joint, (t.k, t.c)[column]) for t in A.torsions
                         if (t.k, t.c)[column] != 0.0]
        for joint, k in slopes:
            if k == 0.0:
                continue
            if joint.type.coordinate == SLIDE:
                self.points.append((joint.parent, joint.child, joint, k))
            else:
                self.torsions.append((joint, k))

    def __bool__(self):
        return bool(self.points or self.torsions)

    def _velocity(self, p, V):
        """The velocity (2,) of point p for node velocities V (body points are linear in them)."""
        return np.zeros(2) if p.kind == P_GROUND else self.A.point_position(p, V)

    def _add_at(self, p, a, f):
        """f -= P^T a: the generalized force of the point force -a at p."""
        if p.kind == P_GROUND:
            return
        ns, v = self.A.node_size, self.A.vertex_of(p)
        if p.kind == P_ARC:
            S = hermite.shape_values(p.xi, p.item.length / p.item.n_elements)
            for i, Si in enumerate(S):
                f[ns * v + 2 * i:ns * v + 2 * i + 2] -= Si * a
            return
        f[ns * v:ns * v + 2] -= a
        if p.kind == P_BODY:
            f[ns * v + 2:ns * v + 4] -= planar.point_map(p.offset).T @ a

    def _line(self, p1, p2, rail, X):
        """The unit direction (2,) of a spring's line (p1 to p2) or of a slide's rail."""
        if rail is None:
            d = self.A.point_position(p2, X) - self.A.point_position(p1, X)
        else:
            d = planar.rotation(rail.axis or 0.0) @ self.A.point_direction(p1, X)
        return d / np.linalg.norm(d)

    def add(self, X, V, f):
        """``V^T K_s V`` of the force elements at coordinates X, node velocities V;
        f -= K_s V."""
        A, total = self.A, 0.0
        for p1, p2, rail, k in self.points:
            n = self._line(p1, p2, rail, X)
            rate = n @ (self._velocity(p2, V) - self._velocity(p1, V))
            total += k * rate * rate
            self._add_at(p2, k * rate * n, f)
            self._add_at(p1, -k * rate * n, f)
        for joint, k in self.torsions:
            rate, g = 0.0, []
            for p, sign in ((joint.child, 1.0), (joint.parent, -1.0)):
                if p.kind == P_GROUND:
                    continue
                c, vertex = A.point_direction(p, X), A.vertex_of(p)
                J = sign * np.array([-c[1], c[0]]) / (c @ c)     # d(angle)/dc
                rate += J @ V[A.node_size * vertex + 2:A.node_size * vertex + 4]
                g.append((vertex, J))
            total += k * rate * rate
            for vertex, J in g:
                f[A.node_size * vertex + 2:A.node_size * vertex + 4] -= k * rate * J
        return total


class StoredFrames:
    """What a run of the recursive formulation maps its stored states to (node coordinates and
    velocities, joint coordinates, rates and reactions), computed on the first call
    (a stored frame holds the state; developer: Results, files and sweeps). The Result calls it
    when ``nodes``, ``velocities``, ``joint_q`` or ``joint_qd`` is first read, and
    :meth:`reactions` when the reactions are; both come from one pass over the outputs, made
    once.

    Parameters
    ----------
    compute : callable
        ``compute(*args)`` gives ``(X, V, q, qd, reaction)``: (n_out, n_x) twice and
        (n_out, n_joints) three times (:meth:`RecursiveKernel.frames
        <rancf.formulations._recursive.RecursiveKernel.frames>` of the explicit loop's states,
        :meth:`RecursiveProblem.frames
        <rancf.formulations._implicit_recursive.RecursiveProblem.frames>` of the implicit
        loop's); or the first four only, the reactions given apart (the DAE's,
        :func:`rancf.formulations.dae.stored_frames`).
    *args
        Its arguments: the run's stored arrays, kept until then (the mapping is the same
        compiled code on the same states and branches, so its numbers are those an
        immediate mapping gives, bit for bit).
    now : bool
        Map at once, not on the first read: the creator passes True where the run has input
        functions (drives, efforts, loads of t; ``Assembly.has_callables``), which the mapping
        calls at the outputs' times. Called when the Result is read, they would give the
        values of that time, not the run's (a closure over a variable changed since, as a
        parameter study's loop does), or raise then.
    """

    def __init__(self, compute, *args, now=False):
        self._compute, self._args, self._out = compute, args, None
        if now:
            self._arrays()

    def _arrays(self):
        if self._out is None:
            self._out = self._compute(*self._args)
            # the stored states are the Result's to keep (extra["beta"]), not this object's
            self._compute = self._args = None
        return self._out

    def __call__(self):
        X, V, q, qd, *_ = self._arrays()          # the reactions, where given, apart
        return {"nodes": X, "velocities": V, "joint_q": q, "joint_qd": qd}

    def reactions(self):
        """The reactions (n_out, n_joints) of the held joints (zeros elsewhere), N m or N."""
        return self._arrays()[4]


def _kernel_frames(assembly, t, Y, branches, held, recorded=None):
    """:meth:`RecursiveKernel.frames <rancf.formulations._recursive.RecursiveKernel.frames>`
    on the assembly's recursion, checked out for the call (:func:`checkout`: a Result read in
    one thread while the model runs in another maps its frames on a kernel of its own), the
    input values ``recorded`` at the outputs played back in place of the functions (a
    :class:`~rancf.formulations.inputs.Recorded`; None: the functions)."""
    with checkout(assembly) as rec:
        rec.inputs.played = recorded
        try:
            return rec.kernel.frames(t, Y, branches, held)
        finally:
            rec.inputs.played = None


def rates_in_words(omega, decay):
    """The rates an explicit step must resolve, in words: the highest natural frequency omega
    (rad/s) and the fastest decay rate of the damping (1/s, 0 without damping: an element's
    or a spring-damper's; in a spatial model an effort function's too)."""
    words = f"highest natural frequency >= {omega:.4g} rad/s"
    if decay:
        words += (f", fastest decay of the damping >= {decay:.4g} 1/s (c omega^2 for an "
                  "element's damping time c)")
    return words


#: How many assemblies' :class:`Recursive` are kept (:func:`of`).
CACHE_SIZE = 4
_cache = collections.OrderedDict()
_cache_lock = threading.Lock()


def of(assembly):
    """The :class:`Recursive` of an assembly, kept for the last :data:`CACHE_SIZE` assemblies
    asked for (a run after a run of the same model reuses its kernels and factorization).

    The cache is this module's, not the assembly's: the model layer holds no formulation, and a
    model that has run pickles as it is. It is not a weak-key dictionary: a Recursive reaches
    its assembly (through its joints' items and their model), so a weak key would never die.
    """
    # keyed by id: an entry holds its assembly, so no other object can take that id meanwhile
    key = id(assembly)
    with _cache_lock:
        rec = _cache.get(key)
        if rec is None:
            rec = _cache[key] = Recursive(assembly)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
        _cache.move_to_end(key)
    return rec


@contextlib.contextmanager
def checkout(assembly):
    """The :class:`Recursive` of an assembly for one run, as a context manager: the one kept by
    :func:`of`, taken out of the cache while the run holds it, and put back after. A Recursive's
    kernel holds the state of the run that evaluates it, so a second run of the same model
    meanwhile (another thread) finds no entry and builds its own, instead of sharing a kernel
    whose arrays the first run is writing."""
    key = id(assembly)
    with _cache_lock:
        rec = _cache.pop(key, None)
    if rec is None:
        rec = Recursive(assembly)
    try:
        yield rec
    finally:
        with _cache_lock:
            _cache[key] = rec
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)


def implicit_problem(assembly, y0, branch=None):
    """Implicit RANCF of a tree, from the recursive state y0: a compiled
    :class:`rancf.formulations._implicit_recursive.RecursiveProblem` in the joints' position
    coordinates theta, with ``(theta0, theta0')`` = ``(problem.theta(y0), beta0)``, its joint
    angles taken nearest ``branch`` (n_joints,) at the start (:meth:`Recursive.initial_state`;
    default ``assembly.joint_q0``)."""
    tables = tree_tables(assembly)
    kernel = RecursiveKernel(assembly, tables)
    forces = ForceKernel(assembly)
    nj = max(assembly.n_joints, 1)
    inputs = Inputs(assembly, forces.arrays, np.zeros(nj), np.zeros(nj))
    return RecursiveProblem(kernel, forces, inputs,
                            assembly.joint_q0 if branch is None else branch, tables["constant"])
