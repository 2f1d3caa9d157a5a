"""The DAE formulation of a model: absolute coordinates, every joint a constraint (theory: The
DAE formulation), for any topology, closed loops included.

Coordinates ``x`` are those of :class:`rancf.model.Assembly` (4 per beam node and per rigid
body). The index-3 DAE ``M x'' + Phi_x^T lambda = F(x, x', t)``, ``Phi(x, t) = 0`` has the
constant block-diagonal mass M (element mass matrices and ``diag(m, m, I_G, I_G)``) and the
forces of :mod:`rancf.formulations._forces` (the same kernels as the recursive formulation).

Constraints. Every row is a polynomial of degree two in x whose coefficients may depend on
time through a drive (:class:`ConstraintTable`). Each joint's kind adds its rows
(:meth:`rancf.joints.kind.JointKind.constraint_rows`: coincident points ``r_c - r_p = 0``, linear
in x since a body point is ``r_G + A(d) u``; the point on a rail, ``(r_c - r_p) x R(axis) p = 0``,
and a driven slide; a held or driven angle ``p^T B(q) c = |p| |c| sin(phi_c - phi_p - q) = 0``,
whose multiplier gives the torque ``-lambda |p| |c|`` on the child); every rigid body adds
``u . u - 1 = 0``.

The numbers are computed by the compiled kernel of ``rancf/formulations/_dae.pyx`` (Newton's
matrix on a pattern fixed when the formulation is built; ``"dense"`` LAPACK LU, or ``"sparse"``:
a banded LU after a reverse Cuthill-McKee renumbering done once). The Jacobians of the loads and
efforts (moments turn with their node, efforts depend on q and qd through user functions) are
central differences on the few coordinates they touch; the elements' are exact.
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg

from ..elements import planar
from ..joints._codes import ANGLE, CONSTANT, COS, LINEAR, SIN
from ..elements import hermite
from ..model.items import ARC, GROUND, NODE
from . import redundancy, start_check
from ._dae import DAEKernel
from ._forces import ForceKernel
from .inputs import Inputs
from .problem import LINEAR_SOLVERS, IndexThreeDAE, projection_kind
from .turns import on_agreeing_turns, on_turns


class _Form:
    """A linear form ``sum coef x[col] + const`` of the coordinates."""

    def __init__(self, terms=(), const=0.0):
        self.terms, self.const = list(terms), float(const)

    def __sub__(self, other):
        return _Form(self.terms + [(c, -a) for c, a in other.terms], self.const - other.const)


def _point_forms(A, point):
    """Position and direction of a point as linear forms ([x, y], [d1, d2])."""
    if point.kind == GROUND:
        p = planar.direction(point.angle)
        return ([_Form(const=point.offset[0]), _Form(const=point.offset[1])],
                [_Form(const=p[0]), _Form(const=p[1])])
    v = A.node_size * A.vertex_of(point)
    if point.kind == ARC:
        # the element's centreline S(xi) e and its slope S_x(xi) e, e = [r_k, r'_k, r_k+1,
        # r'_k+1] on two consecutive vertices: linear in x, as a node's and a body point's are
        l = point.item.length / point.item.n_elements
        S = hermite.shape_values(point.xi, l)
        Sx = hermite.shape_derivatives(np.array(point.xi), l)[0]
        return tuple([_Form([(v + 2 * i + c, float(wi)) for i, wi in enumerate(w)])
                      for c in range(2)] for w in (S, Sx))
    direction = [_Form([(v + 2, 1.0)]), _Form([(v + 3, 1.0)])]
    if point.kind == NODE:
        return [_Form([(v, 1.0)]), _Form([(v + 1, 1.0)])], direction
    d = point.offset
    return ([_Form([(v, 1.0), (v + 2, d[0]), (v + 3, -d[1])]),
             _Form([(v + 1, 1.0), (v + 2, d[1]), (v + 3, d[0])])], direction)


class ConstraintTable:
    """Constraint rows as terms: ``coef f(q_j(t)) x_i`` (linear), ``coef f x_i x_k`` (quadratic)
    and ``coef f`` (constant), with ``f`` one of 1, cos q, sin q, q of a driven joint j (the
    ``TermMode`` codes of :mod:`rancf.joints._codes`).

    Attributes: ``n_rows``, ``angle_row`` and ``slide_row`` (per joint, -1 where none),
    ``joint_rows`` (per joint, the range of its rows), and the term arrays ``lin``, ``quad``,
    ``const`` (dicts of row, columns, coef, mode, joint).
    The joints' kinds add their rows through :meth:`row`, :meth:`linear`, :meth:`bilinear` and
    :meth:`constant`.
    """

    def __init__(self, assembly):
        A = assembly
        self.lin, self.quad, self.const = [], [], []
        self.n_rows = 0
        self.angle_row = np.full(A.n_joints, -1)
        self.slide_row = np.full(A.n_joints, -1)
        self.joint_rows = []
        for k, j in enumerate(A.joints):
            forms = _point_forms(A, j.parent) + _point_forms(A, j.child)
            first = self.n_rows
            j.type.constraint_rows(self, k, j, forms, A.joint_axis[k], A.joint_theta0[k])
            self.joint_rows.append(range(first, self.n_rows))
        for v in A.body_vertex:
            row = self.row()
            u = A.node_size * v + 2    # the body's axis, after its centre of mass
            self.quad += [(row, u, u, 1.0, CONSTANT, -1),
                          (row, u + 1, u + 1, 1.0, CONSTANT, -1)]
            self.const.append((row, -1.0, CONSTANT, -1))
        self.lin = _arrays(self.lin, ("row", "col", "coef", "mode", "joint"))
        self.quad = _arrays(self.quad, ("row", "i", "k", "coef", "mode", "joint"))
        self.const = _arrays(self.const, ("row", "coef", "mode", "joint"))

    def row(self):
        """Open a row; returns its number."""
        self.n_rows += 1
        return self.n_rows - 1

    def constant(self, row, coef, mode=CONSTANT, joint=-1):
        """Add ``coef f`` to the row (f by ``mode`` of joint ``joint``'s drive)."""
        self.const.append((row, coef, mode, joint))

    def linear(self, row, form, coef, mode=CONSTANT, joint=-1):
        """Add ``coef f form`` (a linear form) to the row."""
        self.lin += [(row, c, coef * a, mode, joint) for c, a in form.terms]
        if form.const:
            self.const.append((row, coef * form.const, mode, joint))

    def bilinear(self, row, left, right, M, mode=CONSTANT, joint=-1):
        """Add ``sum_ab left_a M_ab right_b`` (linear forms) to the row."""
        for a, fa in enumerate(left):
            for b, fb in enumerate(right):
                m = M[a, b]
                if m == 0.0:
                    continue
                self.quad += [(row, i, k, m * ai * bk, mode, joint)
                              for i, ai in fa.terms for k, bk in fb.terms]
                self.linear(row, _Form(fa.terms), m * fb.const, mode, joint)
                self.linear(row, _Form(fb.terms), m * fa.const, mode, joint)
                if fa.const * fb.const:
                    self.const.append((row, m * fa.const * fb.const, mode, joint))


def _arrays(rows, names):
    if not rows:
        return {n: np.zeros(0, dtype=float if n == "coef" else int) for n in names}
    cols = list(zip(*rows))
    return {n: np.array(c, dtype=float if n == "coef" else int) for n, c in zip(names, cols)}


class DAE(IndexThreeDAE):
    """A model in the DAE formulation (see the module docstring).

    The equations are computed by the compiled kernel ``compiled``
    (:class:`rancf.formulations._dae.DAEKernel`, the problem the stepping loop runs); the
    methods here are its Python views, for the static solver, projections and tests.

    Parameters
    ----------
    assembly : rancf.model.Assembly
    linear_solver : {"dense", "sparse"}
        LAPACK LU of the whole matrix, or the banded LU after a reverse Cuthill-McKee
        renumbering computed once.
    projection : {False, True, "euclidean", "mass"}
        Project q, q', q'' after every step (paper eq. 15-17).
    branch : ndarray (n_joints,), optional
        The branch of the joint angles a run starts on (rad; theory: Joint coordinates):
        its first state's angles are taken nearest these. Default the reference
        configuration's (``assembly.joint_q0``); a start whose angles have turned past pi
        from it (the equilibrium of ``state="static"``) gives its own continuous angles, or
        its springs and efforts would see them wrapped by a turn.
    """

    formulation = "dae"

    def __init__(self, assembly, linear_solver="sparse", projection=False, branch=None):
        if linear_solver not in LINEAR_SOLVERS:
            raise ValueError(f"linear_solver must be one of {list(LINEAR_SOLVERS)}, got {linear_solver!r}")
        projection = projection_kind(projection)
        A = self.assembly = assembly
        self.linear_solver = linear_solver
        n = self.n_coordinates = A.n_x
        self.kernel = ForceKernel(A)
        nj = max(A.n_joints, 1)
        self.inputs = Inputs(A, self.kernel.arrays, np.zeros(nj), np.zeros(nj))
        self.table = ConstraintTable(A)
        self.n_constraints = self.table.n_rows
        self.M = A.mass_matrix()
        # Newton's matrix holds M's entries, the elements' (replaced by their Newton blocks)
        # apart from the bodies' diagonals
        rows, cols, values = A.mass_entries()
        n_el_entries = A.element_mass.size
        el_rows, el_cols = rows[:n_el_entries], cols[:n_el_entries]
        body, body_diag = rows[n_el_entries:], values[n_el_entries:]
        # loads, efforts and spring-dampers: coordinates they touch, for their difference
        # Jacobians
        groups_x, groups_v = [], []
        for load in A.loads:
            if callable(load.moment) or load.moment != 0.0:
                groups_x.append(A.point_coordinates(load.point))
        for j in A.joints:
            if j.effort is None:
                continue
            ends = [A.point_coordinates(p) for p in (j.parent, j.child) if p.kind != GROUND]
            groups_x.append(np.concatenate(ends))
            groups_v.append(np.concatenate(ends))
        for t in A.torsions:
            ends = [A.point_coordinates(p) for p in (t.joint.parent, t.joint.child)
                    if p.kind != GROUND]
            groups_x.append(np.concatenate(ends))
            groups_v.append(np.concatenate(ends))
        for s in A.springs:
            ends = [A.point_coordinates(p) for p in s.points if p.kind != GROUND]
            groups_x.append(np.concatenate(ends))
            groups_v.append(np.concatenate(ends))
        fd_x, fd_v = self._fd_pattern(groups_x), self._fd_pattern(groups_v)
        # constraint Jacobian pattern: linear terms, then both factors of each quadratic term
        L, Q = self.table.lin, self.table.quad
        g_rows = np.concatenate([L["row"], Q["row"], Q["row"]])
        g_cols = np.concatenate([L["col"], Q["i"], Q["k"]])
        parts = {"el": (el_rows, el_cols), "body": (body, body), "fd_x": fd_x[:2],
                 "fd_v": fd_v[:2],
                 "curv": (np.concatenate([Q["i"], Q["k"]]), np.concatenate([Q["k"], Q["i"]])),
                 "B": (n + g_rows, g_cols), "G": (g_cols, n + g_rows), "body_diag": body_diag}
        # one position on the diagonal per coordinate (for an identity block)
        rows = np.concatenate([el_rows, body])
        cols = np.concatenate([el_cols, body])
        on_diagonal = np.flatnonzero(rows == cols)
        diagonal = on_diagonal[np.unique(rows[on_diagonal], return_index=True)[1]]
        self.compiled = DAEKernel(self.kernel, self.inputs, self.table, parts, diagonal, fd_x,
                                  fd_v, A.joint_q0 if branch is None else branch,
                                  linear_solver == "sparse", projection)
        self.compiled.owner = self
        self._row_joint = None      # the joint of each constraint row, -1 a body's own
        #: how :meth:`initial_state` moved a given start onto the rows ("" when it did not)
        self.start_note = ""
        self._refuse_redundant_joints()

    def reference_jacobian(self):
        """``Phi_x`` (CSR, n_constraints x n_x) at the reference configuration (``x0``), the
        drives at their q(0), which the assembly checks against the reference geometry
        (``joint_q0``): the table's terms summed in numpy, without the compiled kernel's
        inputs (the model's functions are not called)."""
        A, L, Q = self.assembly, self.table.lin, self.table.quad
        q = np.append(np.asarray(A.joint_q0, dtype=float), 0.0)     # joint -1: no drive

        def factor(mode, joint):
            return np.select([mode == COS, mode == SIN, mode == LINEAR],
                             [np.cos(q[joint]), np.sin(q[joint]), q[joint]], 1.0)
        x = A.x0
        fl = L["coef"] * factor(L["mode"], L["joint"])
        fq = Q["coef"] * factor(Q["mode"], Q["joint"])
        rows = np.concatenate([L["row"], Q["row"], Q["row"]])
        cols = np.concatenate([L["col"], Q["i"], Q["k"]])
        values = np.concatenate([fl, fq * x[Q["k"]], fq * x[Q["i"]]])
        return sp.csr_matrix((values, (rows, cols)), shape=(self.n_constraints, self.n_coordinates))

    def _refuse_redundant_joints(self):
        """Refuse a model whose joints that close loops hold directions twice
        (:mod:`rancf.formulations.redundancy`, at the reference configuration): the tree's
        joints and the bodies' axis norms are the base, each loop-closing joint a group, in the
        order added; a base that is itself singular (a degenerate tree joint) is refused naming
        no joint. A tree is not checked (its rows are independent by construction)."""
        A = self.assembly
        if not A.loop_joints:
            return
        loops = set(A.loop_joints)
        row_joint = np.full(self.n_constraints, -1)
        for k, rows in enumerate(self.table.joint_rows):
            row_joint[list(rows)] = k
        base = np.flatnonzero(~np.isin(row_joint, list(loops)))
        groups = [(k, list(self.table.joint_rows[k])) for k in sorted(loops)]
        positions = (A.node_size * np.arange(A.n_vertices)[:, None] + np.arange(2)).ravel()
        found = redundancy.redundant_joints(self.reference_jacobian(), positions, A.size, base,
                                            row_joint[base], groups)
        if found is None or found:         # None: the tree's rows singular
            redundancy.refuse(found, lambda k: f"joint {k} (a {A.joints[k].kind} joint)",
                              "a revolute or a prismatic joint holds 2, a fixed joint 3; or a "
                              "kind of your own, such as a slot (ON_RAIL, DIRECTION_FREE) "
                              "registered by rancf.joints.register")

    @staticmethod
    def _fd_pattern(groups):
        """(rows, cols, columns, pointers, rows per column) of the blocks group x group, the
        entries ordered by column."""
        if not groups:
            e = np.zeros(0, int)
            return e, e, e, np.zeros(1, int), e
        pairs = np.unique(np.concatenate([np.array(np.meshgrid(g, g, indexing="ij")).reshape(2, -1).T
                                          for g in groups]), axis=0)
        pairs = pairs[np.lexsort((pairs[:, 0], pairs[:, 1]))]
        rows, cols = pairs[:, 0], pairs[:, 1]
        columns, counts = np.unique(cols, return_counts=True)
        return rows, cols, columns, np.concatenate([[0], np.cumsum(counts)]), rows

    # --- the IndexThreeDAE contract, by the compiled kernel -----------------------------------
    def mass(self, q):
        return self.M

    def mass_action(self, q, a):
        return self.M @ a

    def force(self, q, v, t):
        return self.compiled.py_force(q, v, t)

    def loads(self, x, v, t):
        """Loads, efforts and spring-dampers (n_x,) at (x, v, t), without gravity and element
        forces."""
        return self.compiled.py_loads(x, v, t)

    def constraint(self, q, t):
        return self.compiled.py_phi(q, t, 0)

    def velocity_bias(self, q, t):
        return self.compiled.py_phi(q, t, 1)

    def acceleration_bias(self, q, v, t):
        return self.compiled.py_acceleration_bias(q, v, t)

    def constraint_jacobian(self, q, t):
        return self.compiled.py_jacobian(q, t)

    def constraint_curvature(self, q, lam, t):
        return self.compiled.py_curvature(lam, t)

    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w,
                      factor=True):
        """``[[c_m M + c_k (K + d(Phi_x^T lam)/dx) + c_c C, w Phi_x(q_e)^T], [Phi_x(q_new), 0]]``
        factored (an object with ``solve(r_dyn, r_con)``), or as CSC with ``factor=False``
        (M constant: ``c_mq`` drops out)."""
        args = (q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w)
        return self.compiled.py_factor(*args) if factor else self.compiled.matrix(*args)

    def power(self, q, v, t, lam):
        """Power of loads, efforts and drives (``lambda . Phi_t``), and the dissipated power."""
        return self.compiled.py_power(q, v, t, lam)

    def accept(self, q, v, t):
        """Advance the branch of the joint angles to the accepted state (q, v) at t: efforts
        and :meth:`observe` unwrap the angles from it (theory: Joint coordinates); the stepping
        loop does this after every step, the static solver after every load step."""
        self.compiled.py_accept(q, v, t)

    def multipliers(self, q, v, t):
        """The multipliers lambda (n_constraints,) of the state (q, v, t): those of the exact
        motion through it, from ``[[M, Phi_x^T], [Phi_x, 0]] [a; lambda] = [F; -gamma]``
        (gamma the acceleration bias, :meth:`acceleration_bias`)."""
        return self.motion(q, v, t)[1]

    def motion(self, q, v, t, compiled=False):
        """The accelerations a (n_x,) and multipliers lambda (n_constraints,) of the exact
        motion through the state (q, v, t): the solution of
        ``[[M, Phi_x^T], [Phi_x, 0]] [a; lambda] = [F; -gamma]``.

        ``compiled`` False: scipy's sparse LU of the assembled matrix, which leaves the
        kernel's factors alone, as a stepping loop that asks at its outputs needs. True: the
        kernel's own LU, the cheaper, which overwrites those factors: for a DAE that no run is
        stepping.
        """
        x = np.ascontiguousarray(q, dtype=float)
        args = (x, np.zeros_like(x), np.zeros(self.n_constraints), v, t, x, t,
                1.0, 0.0, 0.0, 0.0, 1.0)
        force, bias = self.force(x, v, t), -self.acceleration_bias(x, v, t)
        if compiled:
            a, lam = self.newton_matrix(*args).solve(force, bias)
            return np.asarray(a), np.asarray(lam)
        S = self.newton_matrix(*args, factor=False)
        solution = scipy.sparse.linalg.spsolve(sp.csc_matrix(S), np.concatenate([force, bias]))
        return solution[:x.size], solution[x.size:]

    def joint_reactions(self, q, lam, t):
        """The reaction of every joint on its child, (n_joints, 3): ``[fx, fy, m]``, the force
        (N) and moment (N m, about the child's joint point) in global coordinates.

        The joint's rows give the generalized force ``Q = -Phi_x,c^T lambda_joint`` on the
        child's coordinates (a node's ``[r; r']``, a body's ``[r_G; u]``): its position rows
        are the force F; its direction rows give the moment ``d x Q_d`` (d the slope or the
        axis u: a rotation ``delta d = J d delta theta`` does the work ``Q_d . J d``), about
        the node or, for a body, about its centre of mass, moved to the joint point by
        ``- (p_c - r_G) x F``.
        """
        A = self.assembly
        x = np.ascontiguousarray(q, dtype=float)
        ns = A.node_size
        if self._row_joint is None:
            self._row_joint = np.full(self.n_constraints, -1)
            for k, rows in enumerate(self.table.joint_rows):
                self._row_joint[rows.start:rows.stop] = k
        jac = self.constraint_jacobian(x, t).tocoo()
        joint = self._row_joint[jac.row]
        child = A.child_vertex[np.maximum(joint, 0)]
        # a child at an arc length has the two nodes of its element
        span = np.where(A.child_kind == ARC, 2, 1)[np.maximum(joint, 0)]
        node = jac.col // ns
        keep = (joint >= 0) & (child >= 0) & (node >= child) & (node < child + span)
        Q = np.zeros((A.n_joints, 2 * ns))
        np.add.at(Q, (joint[keep], jac.col[keep] - ns * child[keep]),
                  -jac.data[keep] * lam[jac.row[keep]])
        X = x.reshape(-1, ns)
        out = wrenches(A, X[A.child_vertex], Q[:, :ns])
        for k in np.flatnonzero(A.child_kind == ARC):
            out[k] = _arc_wrench(A, A.joints[k].child, x, Q[k])
        return out

    def observe(self, q, v, t, lam=None):
        """Node coordinates and velocities (q and v: the DAE's coordinates are the model's),
        joint coordinates and reactions at an output (torque ``-lambda |p| |c|`` of a held
        angle, force ``-lambda`` of a driven slide).

        ``lam`` None: the state's own multipliers (:meth:`multipliers`), as the stepping loop
        asks for at its outputs: its multipliers are the scheme's, which Newmark leaves
        oscillating and generalized-alpha-S takes at its intermediate point, so they are not
        the state's (HHT's and generalized-alpha's are)."""
        x = np.ascontiguousarray(q, dtype=float)
        joint_q, joint_qd = self.compiled.joints(x, v, t)
        held = (self.table.slide_row >= 0) | (self.table.angle_row >= 0)
        if lam is None and held.any():
            lam = self.multipliers(x, v, t)
        reaction = self.held_reactions(x[None], None if lam is None else np.asarray(lam)[None])
        return {"nodes": x, "velocities": np.asarray(v, dtype=float), "joint_q": joint_q,
                "joint_qd": joint_qd, "reactions": reaction[0]}

    def held_reactions(self, X, lam):
        """The reactions (n_out, n_joints) of the held joints at coordinates X (n_out, n_x)
        with multipliers lam (n_out, n_constraints): the force ``-lambda`` (N) of a held or
        driven slide, the torque ``-lambda |p| |c|`` (N m) of a held or driven angle (p, c
        the parent's and child's directions); 0 for a free joint."""
        A, table = self.assembly, self.table
        reaction = np.zeros((len(X), A.n_joints))
        for k, j in enumerate(A.joints):
            if table.slide_row[k] >= 0:
                reaction[:, k] = -lam[:, table.slide_row[k]]
            elif table.angle_row[k] >= 0 and j.type.coordinate == ANGLE:
                p = A.point_direction(j.parent, X)
                c = A.point_direction(j.child, X)
                # frame by frame: the norm of one vector rounds as the norm along an axis
                # does not always
                for i in range(len(X)):
                    reaction[i, k] = (-lam[i, table.angle_row[k]] * np.linalg.norm(p[i])
                                      * np.linalg.norm(c[i]))
        return reaction

    def initial_state(self, x=None, v=None, t=0.0, tol=1e-8, newton_tol=0.0):
        """(x0, v0) checked against the constraints; v0 by default the mass-weighted least
        change from rest that satisfies ``Phi_x v = -Phi_t`` (theory: Assembly and the initial
        state).

        A given state may be a run's (``Result.state(-1)``, to continue it), which holds the
        rows only as its scheme does (:mod:`rancf.formulations.start_check`): the positions to
        its Newton tolerance, the velocity rows to its step's error. So the coordinates
        are taken as they are within ``tol`` times the model size, moved onto the rows by
        Gauss-Newton within ``newton_tol`` (the run's; a continued run's own tolerance stands
        for the earlier run's, whose Newton iteration left ``|Phi|`` below it); the
        velocities moved by their least change dv in the kinetic-energy metric, taken as they
        are where ``dv^T M dv <= tol^2 v^T M v``, moved where within 0.05^2 of it
        (:func:`~rancf.formulations.start_check.velocity_verdict`: a first-order scheme's
        ``h omega / 2`` with a body turning at most 0.1 rad a step, in one unit whatever the
        coordinates'). :attr:`start_note` then states the correction ("" when none), for the
        run's Result. Further off is refused, naming the joint of the row with the largest
        share of the correction's energy (:meth:`_row_of`), stating the energies judged
        (:func:`~rancf.formulations.start_check.velocity_miss`) and, if driven, its drive's
        value at t against the state's.
        """
        A = self.assembly
        self.start_note = ""
        x = A.x0.copy() if x is None else np.array(x, dtype=float)
        m = self.n_constraints
        off_x = 0.0
        if m:
            phi = self.constraint(x, t)
            off_x = float(np.abs(phi).max())
            if off_x > max(tol * A.size, newton_tol):
                k = int(np.argmax(np.abs(phi)))
                raise ValueError(self._refusal(k, "coordinates", abs(phi[k]), x, v, t))
        moved = off_x > tol * A.size
        if v is None:
            # from rest, the least change in the kinetic-energy metric (the positions moved
            # only where they are off)
            x0, v0 = self.consistent_state(x, np.zeros(A.n_x), t, "mass", positions=moved)
            if moved:
                self.start_note = start_check.correction_note(np.abs(x0 - x).max(), 0.0, off_x,
                                                              0.0)
            return x0, v0
        v = np.array(v, dtype=float)
        if not m:
            return x, v
        res = self.constraint_jacobian(x, t) @ v + self.velocity_bias(x, t)
        off_v = float(np.abs(res).max())
        x0, v0 = self.consistent_state(x, v, t, "mass", positions=moved)
        dv = v0 - v
        Mv, Mdv = self.M @ v, self.M @ dv
        verdict = start_check.velocity_verdict(v, Mv, dv, Mdv, tol)
        if verdict == "refused":
            miss = start_check.velocity_miss(v, Mv, dv, Mdv)
            raise ValueError(self._refusal(self._row_of(x0, v, dv, t), "velocities", miss, x,
                                           v, t))
        if not moved and verdict == "held":
            return x, v
        self.start_note = start_check.correction_note(np.abs(x0 - x).max(), np.abs(dv).max(),
                                                      off_x, off_v)
        return x0, v0

    def _row_of(self, x, v, dv, t):
        """The row with the largest share of the correction's energy: with ``M dv = -Phi_x^T
        mu`` (the projection's multipliers mu, here by least squares) and ``Phi_x dv = -res``
        (res the rows' miss at x), ``dv^T M dv = sum_k mu_k res_k``, each term in J whatever
        its row's unit (m/s, 1/s)."""
        J = self.constraint_jacobian(x, t)
        res = J @ v + self.velocity_bias(x, t)
        mu = scipy.sparse.linalg.lsqr(sp.csr_matrix(J.T), -(self.M @ dv), atol=1e-14,
                                    btol=1e-14)[0]
        return int(np.argmax(mu * res))

    def _refusal(self, row, level, off, x, v, t):
        """The message refusing a start whose ``level`` rows are off, the furthest ``row``:
        its joint's, or its body's (a body's axis row, after the joints'); ``off`` the row's
        miss, or for velocities :func:`~rancf.formulations.start_check.velocity_miss`'s
        text."""
        joints = self.table.joint_rows
        n_joint_rows = joints[-1].stop if joints else 0
        if row >= n_joint_rows:
            return start_check.planar_refusal(self.assembly, None, level, off, x, v, t,
                                       body=row - n_joint_rows)
        joint = next(k for k, rows in enumerate(joints) if row in rows)
        return start_check.planar_refusal(self.assembly, joint, level, off, x, v, t)


def branch_of(assembly, joint_q):
    """The branch (n_joints,) a planar run starts on (:class:`DAE`'s ``branch``, the
    recursion's) from the continuous joint coordinates joint_q (n_joints,) of its start (an
    equilibrium's, a :class:`rancf.State`'s): the assembly's reference joint angles moved by
    the whole turns that take each nearest its angle in joint_q
    (:func:`~rancf.formulations.turns.on_turns`; bit for bit the reference angles where
    joint_q is within half a turn of them), the reference slides of prismatic joints."""
    A = assembly
    angle = np.array([j.type.coordinate == ANGLE for j in A.joints], dtype=bool)
    return np.where(angle, on_turns(A.joint_q0, joint_q), A.joint_q0) \
        if A.n_joints else A.joint_q0


def state_branch(assembly, state):
    """The branch (n_joints,) a planar run from a :class:`rancf.State` starts on
    (:func:`branch_of` of its ``joint_q``), or None where it has no joint coordinates for this
    model. An angle of ``state.joint_q`` is used only where it equals the angle read from
    the state's coordinates modulo 2 pi (:func:`~rancf.formulations.turns.on_agreeing_turns`); where
    not (the State of another model with as many joints), the angle read from the
    coordinates is, as for a State without joint_q: the coordinates are the state, joint_q
    only names their turns, and an entry that is not their angle names none. (Not refused:
    a State whose coordinates a user has moved, a perturbed start, keeps a valid start.)"""
    from ..model.state import State
    if not isinstance(state, State):
        return None
    stored = state.checked_joint_q(assembly.n_joints)
    if stored is None or not assembly.n_joints:
        return None if stored is None else branch_of(assembly, stored)
    x, v = state.checked(assembly.n_x)
    nj = max(assembly.n_joints, 1)
    read, rate = np.zeros(nj), np.zeros(nj)
    ForceKernel(assembly).joint_coordinates(np.ascontiguousarray(x, dtype=float),
                                            np.ascontiguousarray(v, dtype=float),
                                            np.resize(assembly.joint_q0, nj).astype(float),
                                            read, rate)
    angle = np.array([j.type.coordinate == ANGLE for j in assembly.joints], dtype=bool)
    stored = np.where(angle, on_agreeing_turns(read[:assembly.n_joints], stored,
                                                keep_stored=True), stored)
    return branch_of(assembly, stored)


class HeldReactions:
    """The reactions (n_out, n_joints) of a DAE run's held joints at its stored frames, computed
    when called: ``Result.reactions`` calls it when first read (a stored frame holds
    the state; developer: Results, files and sweeps), so a run pays for them only when they are
    asked for.

    Each frame's are those of the state's own multipliers (:meth:`DAE.multipliers`: the
    scheme's are not the state's for Newmark and generalized-alpha-S), on the frame's branch of
    the joint angles, by a DAE of the assembly made for the purpose (the run's own kernel and
    factors are not kept). Cost per output: a sparse LU of the saddle-point matrix, about
    what a step of the implicit loop costs. The
    model's input functions are not called then: the values they gave at the outputs, kept
    by the run's loop, are played back.

    Parameters
    ----------
    assembly : rancf.model.Assembly
    t : ndarray (n_out,)
        The frames' times (s).
    X, V : ndarray (n_out, n_x)
        Their coordinates and velocities.
    branches : ndarray (n_out, n_joints)
        The branch of the joint angles the loop kept with each frame.
    recorded : rancf.formulations.inputs.Recorded or None
        The values of the model's input functions at the frames (None: it has none).
    """

    def __init__(self, assembly, t, X, V, branches, recorded=None):
        self.assembly, self.t, self.X, self.V, self.branches = assembly, t, X, V, branches
        self.recorded = recorded

    def __call__(self):
        dae = DAE(self.assembly)
        dae.inputs.played = self.recorded
        lam = dae.compiled.frame_multipliers(self.t, self.X, self.V, self.branches)
        return dae.held_reactions(self.X, lam)


def stored_frames(assembly, t, q, v, branches, recorded=None):
    """The deferred outputs of a DAE run (developer: Results, files and sweeps): a
    :class:`~rancf.formulations.recursive.StoredFrames` giving the node coordinates and
    velocities and the joint coordinates and rates of the stored states (q, v) (n_out, n_x) at
    the times t, each on its branch (``branches`` (n_out, n_joints), the rows the loop kept),
    by :meth:`DAEKernel.frames <rancf.formulations._dae.DAEKernel.frames>` of a DAE of the
    assembly made when they are first read (the run's kernel and factors are not kept), the
    values of the model's input functions at the outputs played back from ``recorded`` (a
    :class:`~rancf.formulations.inputs.Recorded`; None: the model has none; a driven joint's
    angle is on its drive's branch). Cost per output: the joints' coordinates and rates."""
    from .recursive import StoredFrames

    def frames(*args):
        dae = DAE(assembly)
        dae.inputs.played = recorded
        return dae.compiled.frames(*args)
    return StoredFrames(frames, t, q, v, branches)


def wrenches(assembly, X, Q):
    """``[fx, fy, m]`` (n_joints, 3) of the generalized forces Q (n_joints, 4) of the joints
    on the coordinates X (n_joints, 4) of their children's vertices (a beam node ``[r; r']``
    or a rigid body ``[r_G; u]``): the force, and the moment about the child's joint point
    (theory: Loads, read backwards). Zero for a joint whose child has no vertex."""
    A = assembly
    F, d = Q[:, :2], X[:, 2:]
    moment = d[:, 0] * Q[:, 3] - d[:, 1] * Q[:, 2]
    # a body point's lever from the centre of mass, A(offset) u
    off = A.child_offset
    lever = np.stack([off[:, 0] * d[:, 0] - off[:, 1] * d[:, 1],
                      off[:, 1] * d[:, 0] + off[:, 0] * d[:, 1]], axis=1)
    body = (A.child_kind != NODE)[:, None]
    moment -= np.where(body[:, 0], lever[:, 0] * F[:, 1] - lever[:, 1] * F[:, 0], 0.0)
    out = np.concatenate([F, moment[:, None]], axis=1)
    out[A.child_vertex < 0] = 0.0
    return out


def _arc_wrench(assembly, point, x, Q):
    """``[fx, fy, m]`` of the generalized force Q (8,) on the element of a point at an arc
    length (its two nodes' ``[r; r']``): the force ``Q_r,k + Q_r,k+1`` (the Hermite functions
    of the positions sum to 1, their slopes' derivatives to 0) and the moment about the point
    p, ``sum_i (r_i - p) x Q_r,i + r'_i x Q_r',i``, the work of a rigid turn of the element
    about p (which its interpolation reproduces)."""
    ns = assembly.node_size
    v = ns * assembly.vertex_of(point)
    e = x[v:v + 2 * ns].reshape(4, 2)
    p = assembly.point_position(point, x)
    lever = e.copy()
    lever[[0, 2]] -= p
    q = Q.reshape(4, 2)
    moment = float(np.sum(lever[:, 0] * q[:, 1] - lever[:, 1] * q[:, 0]))
    return np.array([q[0, 0] + q[2, 0], q[0, 1] + q[2, 1], moment])
