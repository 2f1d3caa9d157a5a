"""Generalized-alpha and HHT in Arnold and Bruls' form (Multibody Syst Dyn 18 (2007) 185-202;
rancf/integrators/implicit.py, the loop's ``pseudo`` path in _implicit.pyx): the equation of
motion at ``t_{n+1}`` alone, the alpha weights carried by the pseudo-accelerations ``a'``,
``am a'_{n+1} + (1 - am) a'_n = af a_{n+1} + (1 - af) a_n``.

Expected before measuring, with reasons:
- On a linear constant-coefficient ODE the scheme is Chung and Hulbert's: with ``M a_k + C v_k +
  K q_k = 0`` at every k, the pseudo-accelerations satisfy ``am M a'_{n+1} + (1 - am) M a'_n =
  -af (C v + K q)_{n+1} - (1 - af) (C v + K q)_n``, Chung and Hulbert's equation with ``a'`` as
  its ``a``, from the same start ``a'_0 = a_0``: the positions agree to round-off (1e-12 of
  their size over 200 steps).
- On an ODE (a spatial tree in relative coordinates, whose mass matrix turns) positions and
  velocities are second order (Arnold and Bruls, section 3: the order conditions are Chung and
  Hulbert's, gamma = 1/2 + am - af): the step-halving differences fall by 4 (ratio within 15 %:
  the next term of the error expansion at omega dt <= 0.05).
- On an index-3 DAE started with ``a'_0 = a_0`` the positions are second order; the velocities
  and multipliers carry an O(h) error in an initial layer that the scheme damps as
  ``rho_inf^n`` (Arnold and Bruls, section 4), gone at a fixed end time (0.9^200 = 7e-10): the
  positions' differences fall by 4 there too.
"""
import numpy as np
import pytest

import rancf
from rancf.integrators import implicit


class SpringMass(rancf.implicit.IndexThreeDAE):
    """Two masses on springs and dampers in a row (linear, constant coefficients)."""

    n_coordinates = 2
    M = np.diag([1.0, 2.5])
    K = np.array([[50.0, -20.0], [-20.0, 20.0]])
    C = np.array([[0.3, -0.1], [-0.1, 0.1]])

    def mass(self, q):
        return self.M

    def force(self, q, v, t):
        return -self.K @ q - self.C @ v

    def stiffness(self, q, v, t):
        return self.K

    def damping(self, q, v, t):
        return self.C


def chung_hulbert(scheme, q0, v0, h, steps):
    """Chung and Hulbert's recurrence (the loop's convention: am, af weigh the new state) on
    :class:`SpringMass`, solved as one linear system a step: the positions (steps + 1, 2)."""
    p = SpringMass()
    M, K, C = p.M, p.K, p.C
    am, af, g, b = scheme.alpha_m, scheme.alpha_f, scheme.gamma, scheme.beta
    q, v = np.array(q0, float), np.array(v0, float)
    a = np.linalg.solve(M, -K @ q - C @ v)
    out = [q.copy()]
    S = am * M + af * (g * h * C + b * h * h * K)
    for _ in range(steps):
        qp = q + h * v + h * h * (0.5 - b) * a
        vp = v + h * (1.0 - g) * a
        rhs = -((1.0 - am) * M @ a + (1.0 - af) * (C @ v + K @ q) + af * (C @ vp + K @ qp))
        a1 = np.linalg.solve(S, rhs)
        q, v, a = qp + b * h * h * a1, vp + g * h * a1, a1
        out.append(q.copy())
    return np.array(out)


@pytest.mark.parametrize("method, parameters", [
    ("generalized-alpha", {"rho_inf": 0.9}), ("generalized-alpha", {"rho_inf": 0.3}),
    ("hht", {"alpha": 0.8})])
def test_linear_positions_are_chung_hulbert_s(method, parameters):
    """200 steps of 10 ms (omega dt up to 0.07): the loop's positions against the recurrence
    in numpy to 1e-12 (m; the positions are O(1))."""
    q0, v0, h = [1.0, -0.4], [0.0, 0.7], 0.01
    sol = rancf.implicit.integrate(SpringMass(), q0, v0, 2.0, h, method=method, tol=1e-14,
                                   **parameters)
    assert sol.status == "ok"
    reference = chung_hulbert(implicit.METHODS[method](**parameters), q0, v0, h, 200)
    assert np.abs(sol.q - reference).max() <= 1e-12


def test_the_true_acceleration_satisfies_the_equation_at_the_step_s_end():
    """The outputs' accelerations are the true ones: ``M a + C v + K q = 0`` at every output
    (to the Newton tolerance's effect, 1e-9 of K's size), which Chung and Hulbert's ``a``
    does not satisfy (it is off by O(h) there)."""
    p = SpringMass()
    sol = rancf.implicit.integrate(p, [1.0, -0.4], [0.0, 0.7], 1.0, 0.01,
                                   method="generalized-alpha", tol=1e-14)
    r = sol.a @ p.M.T + sol.v @ p.C.T + sol.q @ p.K.T
    assert np.abs(r).max() <= 1e-9


def ratios(run, steps):
    """``|x(h) - x(h/2)| / |x(h/2) - x(h/4)|`` (max norms) of the arrays ``run(dt)`` gives."""
    x = [run(dt) for dt in steps]
    d = [np.abs(x[i] - x[i + 1]).max() for i in range(2)]
    return d[0] / d[1]


def double_pendulum(dt, method):
    """A spatial double pendulum of two rigid bodies on spherical joints (relative coordinates,
    the recursion), released from rest off a vertical plane, 0.4 s: the second body's centre and its
    rotation matrix (flattened)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    inertia = np.diag([0.02, 0.03, 0.01])
    b1 = m.add_rigid_body(1.0, inertia, position=(0.3, 0.0, -0.2))
    b2 = m.add_rigid_body(0.7, inertia, position=(0.9, 0.1, -0.7))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b1.point(-0.3, 0.0, 0.2))
    m.add_joint("spherical", b1.point(0.3, 0.0, -0.2), b2.point(-0.3, -0.1, 0.3))
    res = rancf.simulate(m, 0.4, dt, method=method, formulation="recursive", tol=1e-13,
                         output_every=round(0.4 / dt))
    assert res.status == "ok", res.message
    return np.concatenate([res.position(b2.centre)[-1].ravel(),
                           res.orientation(b2.centre)[-1].ravel()])


@pytest.mark.parametrize("method", ["generalized-alpha", "hht"])
def test_spatial_tree_is_second_order(method):
    """Step-halving differences at 4, 2 and 1 ms fall by 4 within 15 % (module docstring)."""
    r = ratios(lambda dt: double_pendulum(dt, method), (4e-3, 2e-3, 1e-3))
    assert abs(r / 4.0 - 1.0) <= 0.15, r


def planar_dae(dt, method):
    """rancf's planar pendulum of two flexible bodies (ANCF DAE: revolute joints as
    constraints), 0.2 s: the nodes at the end (m)."""
    m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(m, 0.2, dt, method=method, formulation="dae", tol=1e-12,
                         output_every=round(0.2 / dt))
    assert res.status == "ok", res.message
    return res.nodes[-1]


@pytest.mark.parametrize("method", ["generalized-alpha", "hht"])
def test_planar_dae_positions_are_second_order(method):
    """Step-halving differences at 1, 0.5 and 0.25 ms fall by 4 within 15 % (module
    docstring: the velocities' initial layer is damped out by then)."""
    r = ratios(lambda dt: planar_dae(dt, method), (1e-3, 5e-4, 2.5e-4))
    assert abs(r / 4.0 - 1.0) <= 0.15, r


def amplification(scheme, omega_h):
    """The scheme's one-step map of an undamped oscillator ``a = -omega^2 q`` (h = 1) on the
    state ``(q, v, a')`` (3, 3), from its equations (implicit.py's docstring): the Newmark
    updates in ``a'`` and ``am a'_{n+1} + (1 - am) a'_n = af a_{n+1} + (1 - af) a_n`` with the
    true accelerations ``a_k = -omega^2 q_k``, solved for ``a'_{n+1}`` column by column."""
    am, af, g, b = scheme.alpha_m, scheme.alpha_f, scheme.gamma, scheme.beta
    w2 = omega_h * omega_h
    A = np.empty((3, 3))
    for j, (q, v, ap) in enumerate(np.eye(3)):
        qp, vp = q + v + (0.5 - b) * ap, v + (1.0 - g) * ap
        ap1 = -((1.0 - am) * ap + af * w2 * qp + (1.0 - af) * w2 * q) / (am + af * w2 * b)
        A[:, j] = qp + b * ap1, vp + g * ap1, ap1
    return A


class TwoModes(rancf.implicit.IndexThreeDAE):
    """An undamped 2-DOF system ``M q'' + K q = 0`` with the M-orthonormal modes ``Phi`` (2, 2)
    of the frequencies ``omega`` (rad/s): ``K = M Phi diag(omega^2) Phi^T M``."""

    n_coordinates = 2
    M = np.diag([1.0, 2.0])

    def __init__(self, omega):
        c, s = np.cos(0.6), np.sin(0.6)
        self.Phi = np.diag(1.0 / np.sqrt(np.diag(self.M))) @ np.array([[c, -s], [s, c]])
        self.omega = np.asarray(omega, float)
        self.K = self.M @ self.Phi @ np.diag(self.omega**2) @ self.Phi.T @ self.M

    def mass(self, q):
        return self.M

    def force(self, q, v, t):
        return -self.K @ q

    def stiffness(self, q, v, t):
        return self.K

    def damping(self, q, v, t):
        return np.zeros((2, 2))

    def modal_energies(self, q, v):
        """``(eta'^2 + omega^2 eta^2) / 2`` of each mode at each state, (S, 2), ``eta = Phi^T
        M q``."""
        eta, deta = q @ (self.M @ self.Phi), v @ (self.M @ self.Phi)
        return 0.5 * (deta**2 + self.omega**2 * eta**2)


@pytest.mark.parametrize("method, parameters", [("generalized-alpha", {"rho_inf": 0.9}),
                                                ("hht", {"alpha": 0.9})])
def test_the_amplification_matrix_is_stable_and_dissipative_at_every_step(method, parameters):
    """Linear unconditional stability (Chung and Hulbert; Arnold and Bruls' form has their
    recurrence, above): the spectral radius of :func:`amplification` is at most 1 for omega h
    from 1e-2 to 1e4 and near the scheme's rho_inf where the step resolves nothing (generalized
    alpha: a triple root -rho_inf at infinity, perturbed by about (omega h)^(-2/3), 2e-3 at
    1e4; HHT's rho_inf is alpha / (2 - alpha))."""
    scheme = implicit.METHODS[method](**parameters)
    radius = [np.abs(np.linalg.eigvals(amplification(scheme, wh))).max()
              for wh in np.logspace(-2, 4, 61)]
    rho_inf = parameters.get("rho_inf", parameters.get("alpha", 1.0) / (2.0 - parameters.get(
        "alpha", 1.0)))
    assert max(radius) <= 1.0 + 1e-12
    assert abs(radius[-1] - rho_inf) <= 0.01, (radius[-1], rho_inf)


@pytest.mark.parametrize("omega_h", [10.0, 100.0, 1000.0])
def test_an_unresolved_mode_s_energy_follows_the_amplification_matrix(omega_h):
    """Generalized-alpha (rho_inf = 0.9) on :class:`TwoModes`, one mode resolved (omega h =
    0.01) and one not (omega h = 10 to 1000), 300 steps of 10 ms, started with both modes
    displaced and moving: each mode's energy at every step is what :func:`amplification`'s
    powers give from its start (the modes decouple), to 1e-4 of its largest: Newton leaves up to
    its tolerance, 1e-9 m, in a step's positions (the amplitude is 1 m; the round-off of the
    stiff mode's increment, eps (omega h)^2 beta, is 3e-11 m at omega h = 1000), which the map
    carries with a gain up to 10 in amplitude (below): over 300 steps 3e-6 of the amplitude,
    so 6e-5 in energy. The unresolved mode's energy has fallen below its start by the end (spectral
    radius^600 times the transient below: 1e-20 at the largest).

    Stable is not monotone: the matrix is not normal, and from a displacement (``a'_0 = a_0 =
    -omega^2 q_0``, unbalanced) the unresolved mode's energy first grows, up to 1.6 times its
    start at omega h = 100 and 94 times at 1000 (steps 8 to 9), before it decays at the spectral
    radius (0.928, 0.907); from a velocity alone (a'_0 = 0) it does not grow (the powers of the
    matrix at these omega h). So a stiff mode a step does not
    resolve, started off its equilibrium, gains energy for some steps in the linear scheme too;
    the test checks the loop does exactly that and no more."""
    h = 0.01
    p = TwoModes([0.01 / h, omega_h / h])
    scheme = implicit.METHODS["generalized-alpha"](rho_inf=0.9)
    eta0, deta0 = np.array([1.0, 1.0]), np.array([0.2, 0.0])
    q0, v0 = p.Phi @ eta0, p.Phi @ deta0
    sol = rancf.implicit.integrate(p, q0, v0, 300 * h, h, method="generalized-alpha",
                                   rho_inf=0.9, tol=1e-9)
    assert sol.status == "ok"
    measured = p.modal_energies(sol.q, sol.v)
    for mode, wh in enumerate(p.omega * h):
        A = amplification(scheme, wh)
        x = np.array([eta0[mode], deta0[mode] * h, -wh**2 * eta0[mode]])    # v in units of h
        predicted = []
        for _ in range(301):
            predicted.append(0.5 * ((x[1] / h)**2 + p.omega[mode]**2 * x[0]**2))
            x = A @ x
        predicted = np.array(predicted)
        assert np.abs(measured[:, mode] - predicted).max() <= 1e-4 * predicted.max(), mode
    assert measured[-1, 1] < measured[0, 1]
    if omega_h >= 100.0:
        assert measured[:, 1].max() > measured[0, 1]    # the transient growth, as the matrix's


@pytest.mark.parametrize("every", [1, 3])
def test_a_restart_every_few_steps_keeps_the_scheme_stable_but_damps_less(every):
    """A restart sets ``a' = a`` (a run continued from its state; the recursion's loop does so
    after re-centring a rotation vector): on the oscillator, ``k`` steps of
    :func:`amplification` and a restart are the map ``(q, v) -> P A^k J (q, v)``, ``J``
    setting ``a' = -omega^2 q``. Its spectral radius per step, ``rho(P A^k J)^(1/k)``, is
    below 1 for omega h from 1e-2 to 1e4 (stable), but above the scheme's where the step
    resolves nothing, omega h >= 10 (less damping of an unresolved mode: a restart every step
    leaves 0.995 a step where the scheme has 0.907 at omega h = 1000). The loop, continued from its own state every ``every`` steps, gives the
    unresolved mode's energy of that map's powers (to 1e-4 of its largest, as above)."""
    scheme = implicit.METHODS["generalized-alpha"](rho_inf=0.9)
    for wh in np.logspace(-2, 4, 25):
        A = amplification(scheme, wh)
        J = np.array([[1.0, 0.0], [0.0, 1.0], [-wh * wh, 0.0]])
        restarted = np.linalg.matrix_power(A, every)[:2] @ J
        per_step = np.abs(np.linalg.eigvals(restarted)).max() ** (1.0 / every)
        assert per_step < 1.0, wh
        if wh >= 10.0:      # unresolved: the restart takes damping away
            assert per_step > np.abs(np.linalg.eigvals(A)).max(), wh
    h, wh = 0.01, 1000.0
    p = TwoModes([0.01 / h, wh / h])
    q, v = p.Phi @ np.array([1.0, 1.0]), p.Phi @ np.array([0.2, 0.0])
    measured = [p.modal_energies(q[None], v[None])[0, 1]]
    for _ in range(60 // every):
        sol = rancf.implicit.integrate(p, q, v, every * h, h, method="generalized-alpha",
                                       rho_inf=0.9, tol=1e-9)
        assert sol.status == "ok"
        measured.extend(p.modal_energies(sol.q[1:], sol.v[1:])[:, 1])
        q, v = sol.q[-1], sol.v[-1]
    A = amplification(scheme, wh)
    x, predicted = np.array([1.0, 0.0, -wh * wh]), []
    for n in range(61):
        if n % every == 0:
            x[2] = -wh * wh * x[0]          # the restart: a' = a
        predicted.append(0.5 * (x[1]**2 / h**2 + (wh / h)**2 * x[0]**2))
        x = A @ x
    predicted = np.array(predicted)
    assert np.abs(np.array(measured) - predicted).max() <= 1e-4 * predicted.max()
