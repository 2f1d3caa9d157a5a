"""The DAE formulation of a model: absolute coordinates, every joint a constraint (DESIGN.md
sections 4 and 6), for any topology, closed loops included.

Coordinates ``x`` are those of :class:`rancf.model.Assembly` (4 per beam node and per rigid
body). The index-3 DAE ``M x'' + Phi_x^T lambda = F(x, x', t)``, ``Phi(x, t) = 0`` has the
constant block-diagonal mass M (element mass matrices and ``diag(m, m, I_G, I_G)``) and the
forces of :mod:`rancf.formulations._forces` (the same kernels as the recursive formulation).

Constraints. Every row is a polynomial of degree two in x whose coefficients may depend on
time through a drive (:class:`ConstraintTable`):

* revolute and fixed joints: the two points coincide, ``r_c - r_p = 0`` (linear in x: a body
  point is ``r_G + A(d) u``);
* fixed and driven revolute joints, and the held angle of a prismatic joint:
  ``p^T B(q) c = |p| |c| sin(phi_c - phi_p - q) = 0`` with ``B(q) = cos q J^T - sin q I``, p
  and c the parent's and child's directions, q the held or prescribed angle (its multiplier
  gives the torque ``-lambda |p| |c|`` on the child);
* prismatic joints: the child's point on the rail, ``(r_c - r_p) x R(axis) p = 0``, and for a
  driven one the slide ``(r_c - r_p) . R(axis) p - q(t) = 0`` (ground or body parents, |p| = 1);
* rigid bodies: ``u . u - 1 = 0``.

Linear solvers: ``"dense"`` (LAPACK LU) or ``"sparse"`` (SuperLU) on a sparsity pattern fixed
when the formulation is built. The Jacobians of the loads and efforts (moments turn with their
node, efforts depend on q and qd through user functions) are taken by central differences on
the few coordinates they touch; the elements' are exact (complex step).
"""
import numpy as np
import scipy.sparse as sp

from .problem import LINEAR_SOLVERS, IndexThreeDAE, NewtonFactor
from ..model.items import BODY, GROUND, NODE
from ._forces import ForceKernel
from .inputs import Inputs

CONSTANT, COS, SIN, LINEAR = range(4)


class _Form:
    """A linear form ``sum coef x[col] + const`` of the coordinates."""

    def __init__(self, terms=(), const=0.0):
        self.terms, self.const = list(terms), float(const)

    def __sub__(self, other):
        return _Form(self.terms + [(c, -a) for c, a in other.terms], self.const - other.const)


def _point_forms(A, point):
    """Position and direction of a point as linear forms ([x, y], [d1, d2])."""
    if point.kind == GROUND:
        a = point.angle
        return ([_Form(const=point.offset[0]), _Form(const=point.offset[1])],
                [_Form(const=np.cos(a)), _Form(const=np.sin(a))])
    v = 4 * A.vertex_of(point)
    direction = [_Form([(v + 2, 1.0)]), _Form([(v + 3, 1.0)])]
    if point.kind == NODE:
        return [_Form([(v, 1.0)]), _Form([(v + 1, 1.0)])], direction
    d = point.offset
    return ([_Form([(v, 1.0), (v + 2, d[0]), (v + 3, -d[1])]),
             _Form([(v + 1, 1.0), (v + 2, d[1]), (v + 3, d[0])])], direction)


class ConstraintTable:
    """Constraint rows as terms: ``coef f(q_j(t)) x_i`` (linear), ``coef f x_i x_k`` (quadratic)
    and ``coef f`` (constant), with ``f`` one of 1, cos q, sin q, q of a driven joint j.

    Attributes: ``n_rows``, ``angle_row`` and ``slide_row`` (per joint, -1 where none),
    and the term arrays ``lin``, ``quad``, ``const`` (dicts of row, columns, coef, mode, joint).
    """

    def __init__(self, assembly):
        A = assembly
        self.lin, self.quad, self.const = [], [], []
        self.n_rows = 0
        self.angle_row = np.full(A.n_joints, -1)
        self.slide_row = np.full(A.n_joints, -1)
        for k, j in enumerate(A.joints):
            pos_p, dir_p = _point_forms(A, j.parent)
            pos_c, dir_c = _point_forms(A, j.child)
            delta = [pos_c[0] - pos_p[0], pos_c[1] - pos_p[1]]
            if j.kind == "prismatic":
                al = A.joint_axis[k]
                ca, sa = np.cos(al), np.sin(al)
                row = self._row()
                self._bilinear(row, delta, dir_p, np.array([[sa, ca], [-ca, sa]]))   # J^T R(axis)
                if j.driven:
                    row = self._row()
                    self.slide_row[k] = row
                    self._bilinear(row, delta, dir_p, np.array([[ca, -sa], [sa, ca]]))  # R(axis)
                    self.const.append((row, -1.0, LINEAR, k))
            else:
                for i in range(2):
                    row = self._row()
                    self._linear(row, delta[i], 1.0)
            if j.kind == "revolute" and not j.driven:
                continue
            row = self._row()
            self.angle_row[k] = row
            if j.driven and j.kind == "revolute":
                for a, b, coef, mode in ((0, 0, -1.0, SIN), (0, 1, 1.0, COS), (1, 0, -1.0, COS),
                                         (1, 1, -1.0, SIN)):
                    self._bilinear(row, [dir_p[a]], [dir_c[b]], np.array([[coef]]), mode, k)
            else:
                q = A.joint_theta0[k]
                self._bilinear(row, dir_p, dir_c, np.array([[-np.sin(q), np.cos(q)],
                                                            [-np.cos(q), -np.sin(q)]]))
        for v in A.body_vertex:
            row = self._row()
            self.quad += [(row, 4 * v + 2, 4 * v + 2, 1.0, CONSTANT, -1),
                          (row, 4 * v + 3, 4 * v + 3, 1.0, CONSTANT, -1)]
            self.const.append((row, -1.0, CONSTANT, -1))
        self.lin = _arrays(self.lin, ("row", "col", "coef", "mode", "joint"))
        self.quad = _arrays(self.quad, ("row", "i", "k", "coef", "mode", "joint"))
        self.const = _arrays(self.const, ("row", "coef", "mode", "joint"))

    def _row(self):
        self.n_rows += 1
        return self.n_rows - 1

    def _linear(self, row, form, coef, mode=CONSTANT, joint=-1):
        self.lin += [(row, c, coef * a, mode, joint) for c, a in form.terms]
        if form.const:
            self.const.append((row, coef * form.const, mode, joint))

    def _bilinear(self, row, left, right, M, mode=CONSTANT, joint=-1):
        """Add ``sum_ab left_a M_ab right_b`` (linear forms) to the row."""
        for a, fa in enumerate(left):
            for b, fb in enumerate(right):
                m = M[a, b]
                if m == 0.0:
                    continue
                self.quad += [(row, i, k, m * ai * bk, mode, joint)
                              for i, ai in fa.terms for k, bk in fb.terms]
                self._linear(row, _Form(fa.terms), m * fb.const, mode, joint)
                self._linear(row, _Form(fb.terms), m * fa.const, mode, joint)
                if fa.const * fb.const:
                    self.const.append((row, m * fa.const * fb.const, mode, joint))

    @staticmethod
    def factors(terms, drive):
        """f, df/dt, d2f/dt2 of each term's coefficient (drive: (n_joints, 3) q, qd, qdd)."""
        n = len(terms["mode"])
        f = np.ones((3, n))
        f[1:] = 0.0
        if not n:
            return f
        q, qd, qdd = (drive[terms["joint"], i] for i in range(3))
        mode = terms["mode"]
        c, s = np.cos(q), np.sin(q)
        for m, (f0, f1, f2) in ((COS, (c, -s * qd, -c * qd**2 - s * qdd)),
                                (SIN, (s, c * qd, -s * qd**2 + c * qdd)),
                                (LINEAR, (q, qd, qdd))):
            sel = mode == m
            f[0, sel], f[1, sel], f[2, sel] = f0[sel], f1[sel], f2[sel]
        return f


def _arrays(rows, names):
    if not rows:
        return {n: np.zeros(0, dtype=float if n == "coef" else int) for n in names}
    cols = list(zip(*rows))
    return {n: np.array(c, dtype=float if n == "coef" else int) for n, c in zip(names, cols)}


class Pattern:
    """A fixed sparsity pattern of an (N, N) matrix assembled from named parts.

    ``parts`` maps a name to ``(rows, cols)``; :meth:`csc` and :meth:`dense` sum the values of
    every part into the matrix.
    """

    def __init__(self, N, parts):
        self.N = N
        names = list(parts)
        rows = np.concatenate([np.asarray(parts[k][0], dtype=np.int64) for k in names])
        cols = np.concatenate([np.asarray(parts[k][1], dtype=np.int64) for k in names])
        keys = cols * N + rows
        uniq, inverse = np.unique(keys, return_inverse=True)
        self.indices = (uniq % N).astype(np.int32)
        self.indptr = np.concatenate([[0], np.cumsum(np.bincount(uniq // N, minlength=N))]).astype(np.int32)
        self.flat = (uniq % N) * N + uniq // N
        self.nnz = uniq.size
        bounds = np.cumsum([0] + [len(parts[k][0]) for k in names])
        self.positions = {k: inverse[a:b] for k, a, b in zip(names, bounds[:-1], bounds[1:])}

    def data(self, values):
        out = np.zeros(self.nnz)
        for name, vals in values.items():
            out += np.bincount(self.positions[name], np.ravel(vals), minlength=self.nnz)
        return out

    def csc(self, values):
        return sp.csc_matrix((self.data(values), self.indices, self.indptr), shape=(self.N, self.N))

    def dense(self, values):
        S = np.zeros(self.N * self.N)
        S[self.flat] = self.data(values)
        return S.reshape(self.N, self.N)


class DAE(IndexThreeDAE):
    """A model in the DAE formulation (see the module docstring).

    Parameters
    ----------
    assembly : rancf.model.Assembly
    linear_solver : {"dense", "sparse"}
    """

    def __init__(self, assembly, linear_solver="sparse"):
        if linear_solver not in LINEAR_SOLVERS:
            raise ValueError(f"linear_solver must be one of {list(LINEAR_SOLVERS)}, got {linear_solver!r}")
        A = self.assembly = assembly
        self.linear_solver = linear_solver
        n = self.n_coordinates = A.n_x
        self.kernel = ForceKernel(A)
        nj = max(A.n_joints, 1)
        self.q, self.qd = np.zeros(nj), np.zeros(nj)
        self.qref = np.zeros(nj)
        self.qref[:A.n_joints] = A.joint_q0
        self.inputs = Inputs(A, self.kernel.arrays, self.q, self.qd)
        self._t = None
        self.table = ConstraintTable(A)
        self.n_constraints = m = self.table.n_rows
        self._rheonomic = bool(A.joint_driven.any())
        self._terms_t = self._terms_cache = None
        # mass
        ev = A.element_vertices
        dofs = (4 * ev[:, :, None] + np.arange(4)).reshape(-1, 8)
        self._el_rows = np.repeat(dofs, 8, axis=1).ravel()
        self._el_cols = np.tile(dofs, (1, 8)).ravel()
        body = (4 * A.body_vertex[:, None] + np.arange(4)).ravel()
        self._body_dofs = body
        self._body_diag = np.column_stack([A.body_mass, A.body_mass, A.body_inertia,
                                           A.body_inertia]).ravel()
        self.M = sp.csr_matrix((np.concatenate([A.element_mass.ravel(), self._body_diag]),
                                (np.concatenate([self._el_rows, body]),
                                 np.concatenate([self._el_cols, body]))), shape=(n, n))
        self._blocks = np.empty((A.n_elements, 64))
        self._F = np.empty(n)
        self._power = (0.0, 0.0)
        # loads and efforts: coordinates they touch, for their difference Jacobians
        groups_x, groups_v = [], []
        for k, load in enumerate(A.loads):
            if callable(load.moment) or load.moment != 0.0:
                groups_x.append(4 * A.vertex_of(load.point) + np.arange(4))
        for j in A.joints:
            if j.effort is None:
                continue
            ends = [4 * A.vertex_of(p) + np.arange(4) for p in (j.parent, j.child) if p.kind != GROUND]
            groups_x.append(np.concatenate(ends))
            groups_v.append(np.concatenate(ends))
        self._fd_x = self._fd_pattern(groups_x)
        self._fd_v = self._fd_pattern(groups_v)
        # constraint Jacobian pattern: linear terms, then both factors of each quadratic term
        L, Q = self.table.lin, self.table.quad
        self._g_rows = np.concatenate([L["row"], Q["row"], Q["row"]])
        self._g_cols = np.concatenate([L["col"], Q["i"], Q["k"]])
        parts = {"el": (self._el_rows, self._el_cols), "body": (body, body),
                 "fd_x": self._fd_x[:2], "fd_v": self._fd_v[:2],
                 "curv": (np.concatenate([Q["i"], Q["k"]]), np.concatenate([Q["k"], Q["i"]])),
                 "B": (n + self._g_rows, self._g_cols), "G": (self._g_cols, n + self._g_rows)}
        self.pattern = Pattern(n + m, parts)

    @staticmethod
    def _fd_pattern(groups):
        """(rows, cols, columns to perturb, entries of each column) of blocks group x group."""
        if not groups:
            e = np.zeros(0, int)
            return e, e, e, []
        pairs = np.unique(np.concatenate([np.array(np.meshgrid(g, g, indexing="ij")).reshape(2, -1).T
                                          for g in groups]), axis=0)
        rows, cols = pairs[:, 0], pairs[:, 1]
        columns = np.unique(cols)
        return rows, cols, columns, [np.flatnonzero(cols == c) for c in columns]

    # --- inputs and forces --------------------------------------------------------------------
    def _at(self, t):
        if t != self._t:
            self.inputs.at_time(t)
            self._t = t

    def _joints(self, x, v, t):
        """Joint coordinates (self.q, self.qd) at (x, v) and the efforts that depend on them."""
        self.kernel.joint_coordinates(x, v, self.qref, self.q, self.qd)
        self.qref[:] = self.q
        if self.inputs.effort_dependent:
            self.inputs.efforts(t)

    def mass(self, q):
        return self.M

    def mass_action(self, q, a):
        return self.M @ a

    def force(self, q, v, t):
        x, v = np.ascontiguousarray(q, dtype=float), np.ascontiguousarray(v, dtype=float)
        self._at(t)
        self._joints(x, v, t)
        F = np.empty(self.n_coordinates)
        U, p_load, p_diss = self.kernel.forces(x, v, self.qd, F)
        self._power = (p_load, p_diss)
        return F

    def loads(self, x, v, t):
        """Loads and efforts (n_x,) at (x, v, t), without gravity and element forces."""
        self._joints(x, v, t)
        F = np.empty(self.n_coordinates)
        self.kernel.loads(x, v, self.qd, F)
        return F

    def _difference_jacobian(self, x, v, t, which):
        """-dF_loads/dx or -dF_loads/dv on the pattern of :meth:`_fd_pattern` (central)."""
        rows, cols, columns, entries = self._fd_x if which == "x" else self._fd_v
        out = np.zeros(len(rows))
        base = x if which == "x" else v
        qref = self.qref.copy()
        for c, idx in zip(columns, entries):
            h = 1e-7 * max(1.0, abs(base[c]))
            plus, minus = base.copy(), base.copy()
            plus[c] += h
            minus[c] -= h
            args = ((plus, v), (minus, v)) if which == "x" else ((x, plus), (x, minus))
            self.qref[:] = qref
            Fp = self.loads(*args[0], t)
            self.qref[:] = qref
            Fm = self.loads(*args[1], t)
            out[idx] = -(Fp[rows[idx]] - Fm[rows[idx]]) / (2.0 * h)
        self.qref[:] = qref
        return out

    # --- constraints --------------------------------------------------------------------------
    def _terms(self, t):
        """The coefficient factors of the constraint terms at t (cached: they change with the
        drives only, and not at all in a model without drives)."""
        if self._terms_t is not None and (self._terms_t == t or not self._rheonomic):
            return self._terms_cache
        self._at(t)
        drive = self.inputs.drive
        tb = self.table
        self._terms_cache = (ConstraintTable.factors(tb.lin, drive),
                             ConstraintTable.factors(tb.quad, drive),
                             ConstraintTable.factors(tb.const, drive))
        self._terms_t = t
        return self._terms_cache

    def _sum(self, x, fl, fq, fc):
        L, Q, C = self.table.lin, self.table.quad, self.table.const
        m = self.n_constraints
        return (np.bincount(L["row"], L["coef"] * fl * x[L["col"]], minlength=m)
                + np.bincount(Q["row"], Q["coef"] * fq * x[Q["i"]] * x[Q["k"]], minlength=m)
                + np.bincount(C["row"], C["coef"] * fc, minlength=m))

    def constraint(self, q, t):
        fl, fq, fc = self._terms(t)
        return self._sum(q, fl[0], fq[0], fc[0])

    def velocity_bias(self, q, t):
        fl, fq, fc = self._terms(t)
        return self._sum(q, fl[1], fq[1], fc[1])

    def _jacobian_values(self, q, f):
        L, Q = self.table.lin, self.table.quad
        return np.concatenate([L["coef"] * f[0], Q["coef"] * f[1] * q[Q["k"]],
                               Q["coef"] * f[1] * q[Q["i"]]])

    def constraint_force(self, q, lam, t):
        fl, fq, _ = self._terms(t)
        return np.bincount(self._g_cols, self._jacobian_values(q, (fl[0], fq[0])) * lam[self._g_rows],
                           minlength=self.n_coordinates)

    def constraint_rate(self, q, v, t):
        fl, fq, _ = self._terms(t)
        return np.bincount(self._g_rows, self._jacobian_values(q, (fl[0], fq[0])) * v[self._g_cols],
                           minlength=self.n_constraints)

    def constraint_jacobian(self, q, t):
        fl, fq, _ = self._terms(t)
        vals = self._jacobian_values(q, (fl[0], fq[0]))
        return sp.csr_matrix((vals, (self._g_rows, self._g_cols)),
                             shape=(self.n_constraints, self.n_coordinates))

    def acceleration_bias(self, q, v, t):
        fl, fq, fc = self._terms(t)
        L, Q = self.table.lin, self.table.quad
        m = self.n_constraints
        xi = np.bincount(Q["row"], 2.0 * Q["coef"] * fq[0] * v[Q["i"]] * v[Q["k"]], minlength=m)
        qt_v = (np.bincount(L["row"], L["coef"] * fl[1] * v[L["col"]], minlength=m)
                + np.bincount(Q["row"], Q["coef"] * fq[1] * (q[Q["k"]] * v[Q["i"]]
                                                             + q[Q["i"]] * v[Q["k"]]), minlength=m))
        return xi + 2.0 * qt_v + self._sum(q, fl[2], fq[2], fc[2])

    def _curvature_values(self, lam, fq0):
        Q = self.table.quad
        vals = lam[Q["row"]] * Q["coef"] * fq0
        return np.concatenate([vals, vals])

    def constraint_curvature(self, q, lam, t):
        _, fq, _ = self._terms(t)
        Q = self.table.quad
        n = self.n_coordinates
        return sp.csr_matrix((self._curvature_values(lam, fq[0]),
                              (np.concatenate([Q["i"], Q["k"]]), np.concatenate([Q["k"], Q["i"]]))),
                             shape=(n, n))

    # --- Newton matrix ------------------------------------------------------------------------
    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w,
                      factor=True):
        """``[[c_m M + c_k (K + d(Phi_x^T lam)/dx) + c_c C, w Phi_x(q_e)^T], [Phi_x(q_new), 0]]``
        assembled on the fixed pattern (:attr:`pattern`) and factored, or returned as a CSC or
        dense matrix with ``factor=False`` (M constant: ``c_mq`` drops out)."""
        x = np.ascontiguousarray(q_e, dtype=float)
        v = np.ascontiguousarray(v_e, dtype=float)
        self.kernel.element_blocks(x, v, c_m, c_k, c_c, self._blocks)
        self._at(t_e)
        values = {"el": self._blocks, "body": c_m * self._body_diag}
        if c_k and len(self._fd_x[0]):
            values["fd_x"] = c_k * self._difference_jacobian(x, v, t_e, "x")
        if c_c and len(self._fd_v[0]):
            values["fd_v"] = c_c * self._difference_jacobian(x, v, t_e, "v")
        if self.n_constraints:
            fl, fq, _ = self._terms(t_e)
            if c_k:
                values["curv"] = c_k * self._curvature_values(lam, fq[0])
            values["G"] = w * self._jacobian_values(x, (fl[0], fq[0]))
            fl, fq, _ = self._terms(t_new)
            values["B"] = self._jacobian_values(np.asarray(q_new, dtype=float), (fl[0], fq[0]))
        S = self.pattern.csc(values) if self.linear_solver == "sparse" else self.pattern.dense(values)
        return NewtonFactor(S, self.n_constraints, self.linear_solver == "sparse") if factor else S

    # --- energy and outputs -------------------------------------------------------------------
    def power(self, q, v, t, lam):
        """Power of loads, efforts and drives (``lambda . Phi_t``), and the dissipated power."""
        x, v = np.ascontiguousarray(q, dtype=float), np.ascontiguousarray(v, dtype=float)
        self._at(t)
        self._joints(x, v, t)
        p_load, p_diss = self.kernel.power(x, v, self.qd)
        drive = float(lam @ self.velocity_bias(x, t)) if self._rheonomic else 0.0
        return p_load + drive, p_diss

    def observe(self, q, v, t, lam):
        """Joint coordinates and reactions at an output (torque ``-lambda |p| |c|`` of a held
        angle, force ``-lambda`` of a driven slide)."""
        A = self.assembly
        x, v = np.ascontiguousarray(q, dtype=float), np.ascontiguousarray(v, dtype=float)
        self._joints(x, v, t)
        reaction = np.zeros(A.n_joints)
        for k, j in enumerate(A.joints):
            if self.table.slide_row[k] >= 0:
                reaction[k] = -lam[self.table.slide_row[k]]
            elif self.table.angle_row[k] >= 0 and j.kind != "prismatic":
                p = A.point_direction(j.parent, x)
                c = A.point_direction(j.child, x)
                reaction[k] = -lam[self.table.angle_row[k]] * np.linalg.norm(p) * np.linalg.norm(c)
        return {"joint_q": self.q[:A.n_joints].copy(), "joint_qd": self.qd[:A.n_joints].copy(),
                "reactions": reaction}

    def initial_state(self, x=None, v=None, t=0.0, tol=1e-8):
        """(x0, v0) checked against the constraints; v0 by default the mass-weighted least
        change from rest that satisfies ``Phi_x v = -Phi_t`` (DECISIONS.md 2)."""
        A = self.assembly
        x = A.x0.copy() if x is None else np.array(x, dtype=float)
        m = self.n_constraints
        if m:
            phi = self.constraint(x, t)
            if np.abs(phi).max() > tol * A.size:
                k = int(np.argmax(np.abs(phi)))
                raise ValueError(f"the coordinates do not satisfy the constraints (row {k} off by "
                                 f"{abs(phi[k]):.3g}); pass coordinates that satisfy every joint")
        if v is not None:
            v = np.array(v, dtype=float)
            if m:
                off = np.abs(self.constraint_jacobian(x, t) @ v + self.velocity_bias(x, t)).max()
                if off > tol * (np.abs(v).max() + 1.0):
                    raise ValueError(f"the velocities do not satisfy the joints (off by {off:.3g})")
            return x, v
        v = np.zeros(A.n_x)
        if m:
            fac = self.newton_matrix(x, v, np.zeros(m), v, t, x, t, 1.0, 0.0, 0.0, 0.0, 1.0)
            v = fac.solve(np.zeros(A.n_x), -self.velocity_bias(x, t))[0]
        return x, v
