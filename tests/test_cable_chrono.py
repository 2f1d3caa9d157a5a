"""The spatial ANCF cable pendulum against Chrono's reference file for its cable element
(issue 23): the unit test "Unit test for ANCF gradient-deficient beam element" of
projectchrono/chrono and its file data/testing/UT_ANCFBeam.txt, sampled in
validation/data/chrono_ancf_cable_pendulum.csv (its header names the source, the license, the
columns and the model).

The model, from the unit test's source: a straight cable of length 1 m along +x, 4 elements,
A = 2.5e-5 m^2, E = 1.6e6 Pa, I = pi/4 (d/2)^4 of the circular section of that area,
rho = 320 kg/m^3, no damping; node 1 at the origin held in position (ChLinkPointFrame: a
spherical joint to the ground, the slope free); gravity (0, -9.8, 0) m/s^2 (ChLoaderGravity's
default, 2 Gauss points: exact on the cubic shape functions, as rancf's closed form); the
nodes' initial velocities (0, 0, -4 x) m/s, the slopes' rates zero (not a rigid rotation).

Here rancf's cable kernels (:mod:`rancf.elements.ancf_cable`) are assembled into that pendulum
and integrated by test-local schemes: node 1's position is removed from the unknowns (held,
so the joint needs no multiplier), the mass matrix is constant and factored once. The schemes:

- RK4 at 1e-4 s and 5e-5 s, well inside its stability limit (h omega_max = 0.27 at 1e-4 s,
  omega_max = 2701 rad/s at the straight state): the converged trajectory (the two steps
  agree to 2.6e-9 m).
- Chrono's own scheme, EULER_IMPLICIT_LINEARIZED (ChTimestepper.cpp): one Newton step of
  backward Euler, ``(M + h^2 K(x_n)) v_{n+1} = M v_n + h f(x_n)``,
  ``x_{n+1} = x_n + h v_{n+1}``, at Chrono's 1e-4 s. First order: the file carries its
  time-discretization error.
- Backward Euler with its Newton converged, at 1e-4 s (7.5e-7 m from Chrono's linearized
  step), to compare with the spatial DAE's.

Measured (node 3's y, node 5's x and z, at the 51 sampled times up to 0.5 s):

- rancf's cable under Chrono's scheme at 1e-4 s against the file: 1.5e-4 m at most
  (6.7e-5, 1.0e-4, 1.5e-4 m for y3, x5, z5; node 1's slope within 1.6e-3, against 2.2e-2
  for the converged trajectory). What remains is the elements' difference
  (Chrono's axial strain (|r'|^2 - 1)/2 and curvature |r' x r''| / |r'|^3, rancf's and
  Exudyn's |r'| - 1 and |r' x r''| / |r'|^2): Chrono's element, written here, under the
  same scheme reproduces the file to 2.9e-6 m.
- The converged trajectory against the file: 1.8e-3 m at most (x5 at t = 0.4 s), over the
  issue's 1e-3 m. Chrono's scheme at 1e-4 s is itself 1.8e-3 m from the converged trajectory
  and 3.3e-3 m at 2e-4 s: first order, so the file's distance from the converged motion is
  Chrono's time-discretization error, not the element. The issue's comparison is kept at its
  1e-3 m as an expected failure (strict) that says so.

The same pendulum through the model API (a spherical joint, the cable element kind) and
``rancf.simulate(..., state=rancf.State(x, v))`` on the spatial DAE (``formulation="dae"``)
and on the recursion (``"auto"``), under backward Euler at 1e-4 s, takes the test-local
backward Euler's steps (3e-11 and 4e-14 m apart) and is 1.5e-4 m from the file.
"""
from pathlib import Path

import numpy as np
import pytest
from scipy.linalg import cho_factor, cho_solve

from rancf.elements import _ancf_cable as kernels
from rancf.elements import ancf_cable as cable

DATA = (Path(__file__).resolve().parents[1] / "validation" / "data"
        / "chrono_ancf_cable_pendulum.csv")
LIMIT = 1e-3                   # m, the issue's agreement of Chrono's file and Exudyn
COMPARED = ["y3", "x5", "z5"]  # the columns the issue compares (Chrono's test checks y3, z5)


def chrono_file():
    """The sampled reference: a dict of the file's seven columns by name, each (51,)."""
    lines = [line for line in DATA.read_text().splitlines() if not line.startswith("#")]
    values = np.array([[float(v) for v in line.split(",")] for line in lines[1:]])
    return dict(zip(lines[0].split(","), values.T))


class Pendulum:
    """The cable pendulum of Chrono's test, assembled from rancf's element kernels.

    Coordinates: 5 nodes of ``[r, r']`` (30,); node 1's position (the first 3) is held at the
    origin and left out, so the unknowns are the other 27. ``M`` and the gravity force are
    constant; ``acceleration(q) = M^-1 (f_elastic(q) + f_gravity)`` with M factored once.
    """

    def __init__(self):
        f_const = 5.0                          # Chrono's test: Gerstmayr and Shabana's scale
        d = np.sqrt(1e-6 / np.pi) * 2.0 * f_const
        self.A = np.pi * (d / 2) ** 2
        self.E = 1e9 / f_const**4
        self.I = np.pi / 4.0 * (d / 2) ** 4
        self.rho = 8000.0 / f_const**2
        self.n, length = 4, 1.0
        self.l = length / self.n
        self.EA, self.EI = self.E * self.A, self.E * self.I
        size = 6 * (self.n + 1)
        M, self.gravity = np.zeros((size, size)), np.zeros(size)
        for s in range(self.n):
            dofs = slice(6 * s, 6 * s + 12)
            M[dofs, dofs] += cable.mass_matrix(self.rho, self.A, self.l)
            self.gravity[dofs] += cable.gravity_force(self.rho, self.A, self.l,
                                                      (0.0, -9.8, 0.0))
        self.free = np.arange(3, size)
        self.M = M[np.ix_(self.free, self.free)]
        self.M_factor = cho_factor(self.M)
        self.x0 = np.concatenate([[k * self.l, 0.0, 0.0, 1.0, 0.0, 0.0]
                                  for k in range(self.n + 1)])
        v0 = np.zeros(size)
        v0[2::6] = -4.0 * self.x0[0::6]        # nodes -4 x along z, slope rates zero
        self.v0 = v0[self.free]
        self._x = self.x0.copy()
        self._zero = np.zeros(12)
        self._fe = np.empty(12)
        self._Ke, self._Ce = np.empty((12, 12)), np.empty((12, 12))

    def _elements(self, q):
        self._x[self.free] = q
        return [np.ascontiguousarray(self._x[6 * s:6 * s + 12]) for s in range(self.n)]

    def force(self, q):
        """Elastic plus gravity force on the unknowns (N, N m), f = -dU/dq + F_G."""
        f = self.gravity.copy()
        for s, e in enumerate(self._elements(q)):
            kernels.force(e, self._zero, self.l, self.EA, self.EI, 0.0, self._fe)
            f[6 * s:6 * s + 12] += self._fe
        return f[self.free]

    def stiffness(self, q):
        """Tangent stiffness K = -df/dq on the unknowns."""
        K = np.zeros((self.x0.size, self.x0.size))
        for s, e in enumerate(self._elements(q)):
            kernels.tangent(e, self._zero, self.l, self.EA, self.EI, 0.0, self._Ke, self._Ce)
            K[6 * s:6 * s + 12, 6 * s:6 * s + 12] += self._Ke
        return K[np.ix_(self.free, self.free)]

    def acceleration(self, q):
        return cho_solve(self.M_factor, self.force(q))

    def outputs(self, q):
        """The file's columns after t: node 1's slope, node 3's y, node 5's x and z."""
        x = self._x
        x[self.free] = q
        return np.array([x[3], x[4], x[5], x[13], x[24], x[26]])


def integrate(pendulum, h, times, scheme):
    """Step from t = 0 by ``h`` with ``scheme`` ("rk4"; "chrono": Chrono's
    EULER_IMPLICIT_LINEARIZED, module docstring; "backward-euler": the same step's equation
    ``M (v_{n+1} - v_n) = h f(x_n + h v_{n+1})`` solved by Newton to 1e-13 m); return the
    outputs (len(times), 6) at ``times``, each a multiple of h."""
    steps = np.rint(np.asarray(times) / h).astype(int)
    assert np.allclose(steps * h, times, rtol=0, atol=1e-12)
    q, v = pendulum.x0[pendulum.free].copy(), pendulum.v0.copy()
    out, k = [], 0
    for step in range(1, steps[-1] + 1):
        if scheme == "rk4":
            acc = pendulum.acceleration
            a1 = acc(q)
            a2 = acc(q + h / 2 * v)
            a3 = acc(q + h / 2 * v + h * h / 4 * a1)
            a4 = acc(q + h * v + h * h / 2 * a2)
            q = q + h * v + h * h / 6 * (a1 + a2 + a3)
            v = v + h / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
        elif scheme == "chrono":
            lhs = pendulum.M + h * h * pendulum.stiffness(q)
            v = np.linalg.solve(lhs, pendulum.M @ v + h * pendulum.force(q))
            q = q + h * v
        else:
            v_new = v.copy()
            for _ in range(20):
                residual = pendulum.M @ (v_new - v) - h * pendulum.force(q + h * v_new)
                lhs = pendulum.M + h * h * pendulum.stiffness(q + h * v_new)
                dv = np.linalg.solve(lhs, -residual)
                v_new += dv
                if h * np.abs(dv).max() <= 1e-13:
                    break
            else:
                raise AssertionError(f"backward Euler's Newton did not converge at step {step}")
            v = v_new
            q = q + h * v
        if step == steps[k]:
            out.append(pendulum.outputs(q))
            k += 1
    return np.array(out)


@pytest.fixture(scope="module")
def runs():
    """The file, and the pendulum's outputs at the file's times: RK4 at 1e-4 s and 5e-5 s,
    Chrono's scheme at 1e-4 s and 2e-4 s (its 2e-4 s run at the times that are multiples of
    2e-4 s: all but the first)."""
    table = chrono_file()
    t = table["t"]
    p = Pendulum()
    return {"file": table, "t": t,
            "rk4": integrate(p, 1e-4, t, "rk4"),
            "rk4/2": integrate(p, 5e-5, t, "rk4"),
            "chrono": integrate(p, 1e-4, t, "chrono"),
            "chrono*2": integrate(p, 2e-4, t[1:], "chrono")}


def columns(run):
    """y3, x5, z5 of a run's outputs."""
    return run[:, 3:6]


def reference(table):
    return np.column_stack([table[name] for name in COMPARED])


def test_the_model_is_the_issues():
    """Chrono's parameters in the test's own expressions give the issue's numbers, and the
    file is the first row plus every 10 ms to 0.5 s."""
    p = Pendulum()
    assert np.isclose(p.A, 2.5e-5, rtol=1e-12) and np.isclose(p.E, 1.6e6, rtol=1e-12)
    assert np.isclose(p.rho, 320.0, rtol=1e-12)
    assert np.isclose(p.I, p.A**2 / (4 * np.pi), rtol=1e-12)    # pi/4 (d/2)^4, circle
    t = chrono_file()["t"]
    assert t.size == 51 and t[0] == 1e-4
    assert np.allclose(t[1:], 0.01 * np.arange(1, 51), rtol=0, atol=1e-12)


def test_the_test_local_solution_is_converged(runs):
    """RK4 at 1e-4 s and at half that step: fourth order, their difference is the error of the
    coarser to within 1/15; it must be far below the 1e-3 m of the comparison (1e-3 of it)."""
    difference = np.abs(columns(runs["rk4"]) - columns(runs["rk4/2"])).max()
    assert difference <= 1e-3 * LIMIT
    slope = runs["rk4/2"][:, 0:3]
    assert np.abs(runs["rk4"][:, 0:3] - slope).max() <= 1e-3 * LIMIT


def test_rancf_cable_under_chronos_scheme_reproduces_the_file(runs):
    """Same model, same scheme (EULER_IMPLICIT_LINEARIZED) and same step (1e-4 s) as the
    file: node 3's y and node 5's x and z within the issue's 1e-3 m at every sampled time
    (measured: 1.5e-4 m)."""
    assert np.abs(columns(runs["chrono"]) - reference(runs["file"])).max() <= LIMIT


def test_the_files_distance_from_the_converged_motion_is_chronos_time_error(runs):
    """Chrono's scheme is first order: its distance from the converged trajectory grows with
    the step as h (the observed order log2(e(2h) / e(h)) rounds to 1; measured 0.84 from
    1e-4 s to 2e-4 s, not yet in the asymptotic range), and at 1e-4 s it exceeds the issue's
    1e-3 m (measured 1.8e-3 m) by as much as the file does (the file: 1.8e-3 m)."""
    converged = columns(runs["rk4/2"])
    error_1 = np.abs(columns(runs["chrono"]) - converged)[1:].max()
    error_2 = np.abs(columns(runs["chrono*2"]) - converged[1:]).max()
    assert 0.5 <= np.log2(error_2 / error_1) < 1.5
    assert error_1 > LIMIT
    file_distance = np.abs(reference(runs["file"]) - converged).max()
    assert abs(file_distance - error_1) <= 0.1 * error_1


@pytest.mark.xfail(strict=True, reason="the file carries Chrono's first-order time error: "
                   "1.8e-3 m from the converged motion at t = 0.4 s (the test above)")
def test_converged_pendulum_within_1e_3_m_of_the_file(runs):
    """The issue's comparison as it is worded: the converged motion against the file.
    Exudyn's ObjectANCFCable (Exudyn 1.13.6, generalized-alpha at 1e-4 s, Newton to 1e-12;
    run apart from this suite) is 2.8e-6 m from this converged motion, and so 1.8e-3 m from
    the file too: converged, Exudyn does not agree with the file to the 1e-3 m the issue
    states either."""
    assert np.abs(columns(runs["rk4/2"]) - reference(runs["file"])).max() <= LIMIT


class ChronoElementPendulum(Pendulum):
    """The same pendulum with Chrono's cable element in place of rancf's, written here from the
    strains its source states (ChElementBeamANCF of the file's commit, since renamed
    ChElementCableANCF): ``U = EA/2 int eps^2 dx + EI/2 int k^2 dx`` with the Green strain
    ``eps = (|r'|^2 - 1) / 2`` (5 Gauss points) and ``k = |r' x r''| / |r'|^3`` (3 Gauss
    points), and its gradient in closed form. The stiffness of Chrono's step stays rancf's
    (it enters the linearized step only through ``h^2 K``)."""

    def __init__(self):
        super().__init__()
        self.rules = [self._rule(5), self._rule(3)]

    def _rule(self, n):
        """Gauss points on [0, l]: the Hermite functions' first and second x-derivatives there
        (n, 4), from their definition (value and slope 1 or 0 at both ends), and weights."""
        l = self.l
        V = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, l, l**2, l**3], [0, 1, 2 * l, 3 * l**2]])
        c = np.linalg.solve(V, np.eye(4))          # column k: coefficients of S_k (ascending)
        xi, w = np.polynomial.legendre.leggauss(n)
        x = (xi + 1.0) * l / 2
        d1 = c[1] + 2 * np.outer(x, c[2]) + 3 * np.outer(x**2, c[3])
        d2 = 2 * c[2] + 6 * np.outer(x, c[3])
        return d1, d2, w * l / 2

    def energy(self, e):
        nodes = np.asarray(e).reshape(4, 3)
        d1, _, w = self.rules[0]
        r1 = d1 @ nodes
        axial = 0.5 * self.EA * w @ (0.5 * (np.einsum("gi,gi->g", r1, r1) - 1.0)) ** 2
        d1, d2, w = self.rules[1]
        r1, r2 = d1 @ nodes, d2 @ nodes
        k = np.linalg.norm(np.cross(r1, r2), axis=1) / np.linalg.norm(r1, axis=1) ** 3
        return axial + 0.5 * self.EI * w @ k**2

    def element_force(self, e):
        """``-dU/de`` (12,): d|f| = (S' (r'' x f) + S'' (f x r')) / |f| with f = r' x r''
        (zero where f is: the straight cable, where k = 0 too), d|r'| = S' r' / |r'|."""
        nodes = e.reshape(4, 3)
        d1, _, w = self.rules[0]
        r1 = d1 @ nodes
        eps = 0.5 * (np.einsum("gi,gi->g", r1, r1) - 1.0)
        force = -self.EA * np.einsum("g,ga,gc->ac", w * eps, d1, r1)
        d1, d2, w = self.rules[1]
        r1, r2 = d1 @ nodes, d2 @ nodes
        f = np.cross(r1, r2)
        nf, g = np.linalg.norm(f, axis=1), np.linalg.norm(r1, axis=1)
        inverse = np.divide(1.0, nf, out=np.zeros_like(nf), where=nf > 0.0)
        dnf = (np.einsum("ga,gc->gac", d1, np.cross(r2, f))
               + np.einsum("ga,gc->gac", d2, np.cross(f, r1))) * inverse[:, None, None]
        dg = np.einsum("ga,gc->gac", d1, r1) / g[:, None, None]
        dk = dnf / g[:, None, None] ** 3 - 3.0 * (nf / g**4)[:, None, None] * dg
        force -= self.EI * np.einsum("g,gac->ac", w * nf / g**3, dk)
        return force.ravel()

    def force(self, q):
        f = self.gravity.copy()
        for s, e in enumerate(self._elements(q)):
            f[6 * s:6 * s + 12] += self.element_force(e)
        return f[self.free]


def test_chronos_element_under_chronos_scheme_is_the_file():
    """What is left between rancf's cable under Chrono's scheme and the file (1.5e-4 m) is the
    elements' difference: Chrono's element, written here (its force checked against central
    differences of its energy), under the same scheme and step reproduces the file to 1e-5 m,
    well below that difference (measured 2.9e-6 m: the file prints six digits, and the step's
    stiffness is rancf's)."""
    p = ChronoElementPendulum()
    e = p.x0[:12] + 0.05 * np.random.default_rng(3).standard_normal(12)
    h = 1e-7
    gradient = np.array([(p.energy(e + h * u) - p.energy(e - h * u)) / (2 * h)
                         for u in np.eye(12)])
    assert np.abs(p.element_force(e) + gradient).max() <= 1e-7 * np.abs(gradient).max()
    table = chrono_file()
    run = integrate(p, 1e-4, table["t"], "chrono")
    assert np.abs(columns(run) - reference(table)).max() <= 1e-2 * LIMIT


@pytest.mark.parametrize("formulation", ["dae", "auto"])
def test_the_model_api_from_the_same_state_takes_the_same_backward_euler_steps(formulation):
    """The same pendulum built with the model API (``add_beam(..., element="ancf-cable")``, a
    spherical joint to the ground) and run by ``rancf.simulate`` from its initial state
    (``state=rancf.State(x, v)``: the cable nodes' ``[r, r']`` and their rates) under its
    "backward-euler" at 1e-4 s, on each formulation:

    - ``"dae"``: the spatial DAE (node 1's position a constraint with its multiplier, not
      eliminated): the same discrete equations as the test-local backward Euler, both solved
      by Newton (measured 3e-11 m apart). The state given is the run's first output, exactly.
    - ``"auto"``: the State start of a cable model runs on the O(n) recursion (its
      coordinates ``z = e_k - e_{k-1}`` and the pin's slope, linear in the nodes', so backward
      Euler in them is the test-local backward Euler's discrete equations; measured 4e-14 m).

    Either takes the test-local steps to 1e-6 of the comparison and is within the issue's
    1e-3 m of Chrono's file."""
    import rancf

    p = Pendulum()
    model = rancf.Model(dim=3, gravity=(0.0, -9.8, 0.0))
    c = model.add_beam(1.0, p.n, E=p.E, rho=p.rho, A=p.A, I=p.I, element="ancf-cable")
    model.add_joint("spherical", model.ground.point(0.0, 0.0, 0.0), c.start)
    v0 = np.zeros(p.x0.size)
    v0[p.free] = p.v0
    table = chrono_file()
    res = rancf.simulate(model, 0.5, 1e-4, method="backward-euler", output_every=100,
                         state=rancf.State(p.x0, v0), tol=1e-12, max_iter=25,
                         formulation=formulation)
    assert res.status == "ok", res.message
    if formulation == "dae":
        assert res.formulation == "dae"
        start = res.state(0)
        assert np.array_equal(start.x, p.x0) and np.array_equal(start.v, v0)
        assert np.allclose(res.t[1:], table["t"][1:], rtol=0, atol=1e-12)
    else:
        assert res.formulation == "spatial"
        assert np.allclose(res.state(0).x, p.x0, rtol=0, atol=1e-15)
    run = np.column_stack([res.position(c.node(2))[1:, 1], res.position(c.node(4))[1:, 0],
                           res.position(c.node(4))[1:, 2]])
    local = integrate(p, 1e-4, table["t"][1:], "backward-euler")
    assert np.abs(run - columns(local)).max() <= 1e-6 * LIMIT
    assert np.abs(run - reference(table)[1:]).max() <= LIMIT
