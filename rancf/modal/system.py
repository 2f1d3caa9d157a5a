"""Planar multibody systems in absolute coordinates for the adaptive-modal paper's solvers.

A :class:`System` holds components (flexible ANCF beams with the Berzeri-Shabana model, rigid
bars in natural coordinates, rigid plates in ``x, y, theta``) and constraints, and assembles
the equations of motion with Lagrange multipliers (adaptive-modal paper eq. 17-19)

    M q'' + F_K(q) + C_q^T lambda = F_ext,      C(q, t) = 0,

with a constant sparse mass matrix ``M`` (all three component kinds have one), the elastic
force of :mod:`rancf.modal.berzeri` assembled in Cython, and gravity along ``-y``.
The global coordinate vector ``q`` is the concatenation of the components' coordinates in
the order given.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from rancf import _berzeri
from rancf.modal.berzeri import element_matrices


def _positive(name, value):
    value = float(value)
    if not value > 0.0 or not np.isfinite(value):
        raise ValueError(f"{name} must be a positive finite number, got {value}")
    return value


@dataclass(frozen=True)
class FlexibleBeam:
    """A straight (in its reference state) planar ANCF beam of equal elements.

    Parameters: ``length`` L (m), ``n_elements``, Young's modulus ``E`` (Pa), area ``A``
    (m^2), second moment ``I`` (m^4), density ``rho`` (kg/m^3). Coordinates: ``4 (n+1)``, node
    by node ``[x, y, x', y']``. ``start`` (m) and ``angle`` (rad) place the straight initial
    configuration returned by :meth:`straight`.
    """

    length: float
    n_elements: int
    E: float
    A: float
    I: float
    rho: float

    def __post_init__(self):
        for name in ("length", "E", "A", "I", "rho"):
            _positive(name, getattr(self, name))
        if int(self.n_elements) != self.n_elements or self.n_elements < 1:
            raise ValueError(f"n_elements must be an integer >= 1, got {self.n_elements}")

    @property
    def n_coordinates(self):
        return 4 * (self.n_elements + 1)

    def node(self, i):
        """Local indices of node ``i``'s position (2,) (negative i counts from the end)."""
        i = i % (self.n_elements + 1)
        return np.array([4 * i, 4 * i + 1])

    def straight(self, start=(0.0, 0.0), angle=0.0):
        """Coordinates (n_coordinates,) of the unstretched straight beam from ``start``."""
        u = np.array([np.cos(angle), np.sin(angle)])
        s = np.linspace(0.0, self.length, self.n_elements + 1)
        nodes = np.hstack([np.asarray(start, float) + s[:, None] * u, np.tile(u, (s.size, 1))])
        return nodes.ravel()


@dataclass(frozen=True)
class RigidBar:
    """A uniform rigid bar in natural coordinates ``[x_A, y_A, x_B, y_B]`` (its end points).

    Mass matrix ``m/6 [[2 I, I], [I, 2 I]]`` (exact for a uniform bar). The rigid-distance
    condition ``|r_B - r_A| = L`` is left to the system's constraints (a driving constraint
    that prescribes ``r_B - r_A`` implies it; adding it too would make the constraints redundant).
    """

    length: float
    mass: float

    def __post_init__(self):
        _positive("length", self.length)
        _positive("mass", self.mass)

    n_coordinates = 4


@dataclass(frozen=True)
class RigidPlate:
    """A rigid plate with coordinates ``[x, y, theta]`` of its centre of mass (m, m, rad).

    Mass matrix ``diag(m, m, J)`` with ``J`` the moment of inertia about the centre (kg m^2).
    """

    mass: float
    inertia: float

    def __post_init__(self):
        _positive("mass", self.mass)
        _positive("inertia", self.inertia)

    n_coordinates = 3


class LinearConstraint:
    """Rows ``sum_k coeffs[i, k] q[cols[i, k]] - rhs(t)[i] = 0``.

    ``rhs`` (callable t -> (m,), or None for 0) makes it rheonomic, e.g. a prescribed
    driving angle.
    """

    def __init__(self, cols, coeffs, rhs=None):
        self.cols = np.atleast_2d(np.asarray(cols, dtype=np.int64))
        self.coeffs = np.atleast_2d(np.asarray(coeffs, dtype=float))
        if self.cols.shape != self.coeffs.shape:
            raise ValueError("cols and coeffs must have the same shape")
        self.n_rows = self.cols.shape[0]
        self.rhs = rhs

    def value(self, q, t):
        c = (self.coeffs * q[self.cols]).sum(axis=1)
        return c - self.rhs(t) if self.rhs is not None else c

    def jacobian(self, q):
        rows = np.repeat(np.arange(self.n_rows), self.cols.shape[1])
        return rows, self.cols.ravel(), self.coeffs.ravel()

    def hessian(self, q, lam):
        return None


class PlateAttachment:
    """A revolute joint between a point and a plate: ``r_point - (x, y) - R(theta) p = 0``.

    ``point`` (2,) global indices of the point's position, ``plate`` (3,) of ``[x, y, theta]``,
    ``p`` (2,) the joint location in the plate frame (m).
    """

    n_rows = 2

    def __init__(self, point, plate, p):
        self.point = np.asarray(point, dtype=np.int64)
        self.plate = np.asarray(plate, dtype=np.int64)
        self.p = np.asarray(p, dtype=float)

    def _rotated(self, theta):
        c, s = np.cos(theta), np.sin(theta)
        return np.array([c * self.p[0] - s * self.p[1], s * self.p[0] + c * self.p[1]])

    def value(self, q, t):
        return q[self.point] - q[self.plate[:2]] - self._rotated(q[self.plate[2]])

    def jacobian(self, q):
        Rp = self._rotated(q[self.plate[2]])
        rows = np.array([0, 1, 0, 1, 0, 1])
        cols = np.concatenate([self.point, self.plate[:2], [self.plate[2]] * 2])
        # d(R p)/dtheta = (-y, x) of R p
        vals = np.array([1.0, 1.0, -1.0, -1.0, Rp[1], -Rp[0]])
        return rows, cols, vals

    def hessian(self, q, lam):
        # d^2(-R p)/dtheta^2 = R p
        Rp = self._rotated(q[self.plate[2]])
        return [self.plate[2]], [self.plate[2]], [lam @ Rp]


@dataclass
class System:
    """Components, constraints and gravity (m/s^2 along -y) of a planar multibody system."""

    components: list
    gravity: float = 9.81
    constraints: list = field(default_factory=list)

    def __post_init__(self):
        self.offsets = np.cumsum([0] + [c.n_coordinates for c in self.components])
        self.n = int(self.offsets[-1])
        self._build()

    def index(self, component, local):
        """Global indices of ``local`` coordinates of component number ``component``."""
        return self.offsets[component] + np.asarray(local)

    def add_constraint(self, constraint):
        self.constraints.append(constraint)

    @property
    def m(self):
        """Number of constraint equations."""
        return sum(c.n_rows for c in self.constraints)

    @property
    def beams(self):
        """Indices of the flexible components."""
        return [k for k, c in enumerate(self.components) if isinstance(c, FlexibleBeam)]

    def _build(self):
        types = {}
        dofs, etype = [], []
        mass_rows, mass_cols, mass_vals = [], [], []
        self.gravity_force = np.zeros(self.n)
        g = np.array([0.0, -self.gravity])
        for k, comp in enumerate(self.components):
            off = self.offsets[k]
            if isinstance(comp, FlexibleBeam):
                key = (comp.length / comp.n_elements, comp.E, comp.A, comp.I, comp.rho)
                if key not in types:
                    types[key] = (len(types), element_matrices(*key[:4], key[4]))
                t, mats = types[key]
                for i in range(comp.n_elements):
                    d = off + 4 * i + np.arange(8)
                    dofs.append(d)
                    etype.append(t)
                    rr, cc = np.meshgrid(d, d, indexing="ij")
                    mass_rows.append(rr.ravel()); mass_cols.append(cc.ravel())
                    mass_vals.append(mats["mass"].ravel())
                    self.gravity_force[d] += mats["gravity_shape"] @ g
            else:
                d = off + np.arange(comp.n_coordinates)
                if isinstance(comp, RigidBar):
                    Mb = comp.mass / 6.0 * np.kron([[2.0, 1.0], [1.0, 2.0]], np.eye(2))
                    self.gravity_force[d] += comp.mass * np.tile(g, 2) / 2.0
                else:
                    Mb = np.diag([comp.mass, comp.mass, comp.inertia])
                    self.gravity_force[d[:2]] += comp.mass * g
                rr, cc = np.meshgrid(d, d, indexing="ij")
                mass_rows.append(rr.ravel()); mass_cols.append(cc.ravel())
                mass_vals.append(Mb.ravel())
        n = self.n
        rows = np.concatenate(mass_rows)
        cols = np.concatenate(mass_cols)
        keys = rows * n + cols
        ukeys = np.unique(keys)
        # CSR pattern of M and of the tangent stiffness: the union of all element blocks.
        self.pattern_indices = (ukeys % n).astype(np.int32)
        self.pattern_indptr = np.searchsorted(ukeys // n, np.arange(n + 1)).astype(np.int32)
        self.mass_data = np.zeros(ukeys.size)
        np.add.at(self.mass_data, np.searchsorted(ukeys, keys), np.concatenate(mass_vals))
        self.mass = self.pattern_matrix(self.mass_data)
        type_list = sorted(types.values(), key=lambda v: v[0])
        self.element_dofs = np.array(dofs, dtype=np.int32).reshape(-1, 8)
        self.element_type = np.array(etype, dtype=np.int32)
        self._d = np.array([m["d"].reshape(256) for _, m in type_list]).reshape(-1, 256)
        self._c = np.array([m["c"].reshape(16) for _, m in type_list]).reshape(-1, 16)
        self._Kt = np.array([m["K_t"].reshape(64) for _, m in type_list]).reshape(-1, 64)
        self._a_l = np.array([m["a_l"] for _, m in type_list], dtype=float)
        ekeys = (self.element_dofs[:, :, None].astype(np.int64) * n
                 + self.element_dofs[:, None, :]).reshape(-1, 64)
        self.element_positions = np.searchsorted(ukeys, ekeys).astype(np.int32)

    def pattern_matrix(self, data):
        """CSR (n, n) matrix with ``data`` on the mass / stiffness sparsity pattern."""
        return sp.csr_matrix((data, self.pattern_indices, self.pattern_indptr),
                             shape=(self.n, self.n))

    def elastic(self, q, with_tangent=True):
        """Elastic force (n,) N, tangent CSR data in the mass pattern (N/m) or None, energy J."""
        force = np.zeros(self.n)
        tangent = np.zeros(self.mass_data.size) if with_tangent else np.zeros(0)
        energy = _berzeri.assemble(np.ascontiguousarray(q, dtype=float), self.element_dofs,
                                   self.element_type, self._d, self._c, self._Kt, self._a_l,
                                   force, tangent, self.element_positions, with_tangent)
        return force, (tangent if with_tangent else None), energy

    def bending_stiffness(self):
        """The constant bending stiffness ``K_t`` (n, n) CSR (paper eq. 15, 18)."""
        data = np.zeros(self.mass_data.size)
        np.add.at(data, self.element_positions.ravel(), self._Kt[self.element_type].ravel())
        return self.pattern_matrix(data)

    def constraint(self, q, t):
        """Constraint values ``C(q, t)`` (m,)."""
        return np.concatenate([c.value(q, t) for c in self.constraints]) if self.constraints \
            else np.zeros(0)

    def constraint_triplets(self, q):
        """``C_q`` as COO triplets ``(rows, cols, values)``; the structure does not depend on q."""
        rows, cols, vals, r0 = [], [], [], 0
        for c in self.constraints:
            r, cc, v = c.jacobian(q)
            rows.append(np.asarray(r) + r0); cols.append(np.asarray(cc)); vals.append(v)
            r0 += c.n_rows
        if not rows:
            return np.zeros(0, int), np.zeros(0, int), np.zeros(0)
        return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals).astype(float)

    def constraint_jacobian(self, q):
        """``C_q`` (m, n) CSR."""
        rows, cols, vals = self.constraint_triplets(q)
        return sp.csr_matrix((vals, (rows, cols)), shape=(self.m, self.n))

    def constraint_hessian_triplets(self, q, lam):
        """``d(C_q^T lam)/dq`` as COO triplets (only nonlinear constraints contribute)."""
        rows, cols, vals, r0 = [], [], [], 0
        for c in self.constraints:
            h = c.hessian(q, lam[r0:r0 + c.n_rows])
            if h is not None:
                rows.extend(h[0]); cols.extend(h[1]); vals.extend(h[2])
            r0 += c.n_rows
        return (np.asarray(rows, dtype=int), np.asarray(cols, dtype=int),
                np.asarray(vals, dtype=float))

    def energy(self, q, v):
        """Kinetic, elastic and gravity energy (J) of one state."""
        kinetic = 0.5 * v @ (self.mass @ v)
        elastic = self.elastic(q, with_tangent=False)[2]
        return kinetic, elastic, -self.gravity_force @ q
