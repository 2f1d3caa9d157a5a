"""``rancf.modes`` (issue 25, DECISIONS 30): frequencies against the analytic ones of a
cantilever, a pinned-pinned beam and a rigid pendulum, against a free vibration run, and the
rigid-body and unstable cases."""
import matplotlib
import numpy as np
import pytest
import scipy.linalg

import rancf

matplotlib.use("Agg")

E, RHO, AREA, INERTIA, L = 2.1e11, 7800.0, 1e-4, 1e-10, 1.0
#: Euler-Bernoulli: omega_i = beta_i^2 sqrt(E I / (rho A L^4)), beta_i L of a cantilever
CANTILEVER = np.array([1.8751040687, 4.6940911330, 7.8547574382])
BENDING = np.sqrt(E * INERTIA / (RHO * AREA * L**4)) / (2.0 * np.pi)      # Hz


def beam(n_elements, ends, gravity=(0.0, 0.0), inertia=INERTIA):
    """A beam of length L along x, held at its ends by ``ends`` = (kind at x=0, kind at x=L
    or None)."""
    m = rancf.Model(gravity=gravity, elastic_model="reissner")
    b = m.add_beam(L, n_elements, E=E, rho=RHO, A=AREA, I=inertia)
    m.add_joint(ends[0], m.ground.point(0.0, 0.0), b.start)
    if ends[1] is not None:
        m.add_joint(ends[1], m.ground.point(L, 0.0), b.end)
    return m, b


@pytest.mark.parametrize("ends, beta", [
    (("fixed", None), CANTILEVER),
    (("revolute", "revolute"), np.pi * np.arange(1, 4))])
def test_bending_frequencies_converge_at_the_elements_order(ends, beta):
    # cubic Hermite elements with their consistent mass: frequency errors O(h^4), so halving
    # the mesh divides the error by about 16 (at least 10 asked, allowing pre-asymptotic
    # terms); the pinned-pinned beam's axial restraint does not change its linear bending.
    # The cantilever's first error at 16 elements is 1.3e-7; the eigen-solve's round-off,
    # eps times the bending problem's condition (1.9e7 at 16 elements: 4e-9, the
    # Rayleigh-Ritz values of rancf.modes) is below it, the solver's own eigenvalues'
    # (eps times the stretch modes' 1.9e9: 4e-7) would not be
    exact = beta**2 * BENDING
    errors = []
    for n in (8, 16):
        found = rancf.modes(beam(n, ends)[0], n=3)
        assert not found.rigid.any()
        errors.append(np.abs(found.frequencies / exact - 1.0))
    assert (errors[0] / errors[1] >= 10.0).all(), errors
    assert errors[1].max() < 1e-3


def hermite_cantilever(n_elements, n):
    """The n lowest frequencies (Hz) of the textbook Euler-Bernoulli cantilever of cubic Hermite
    elements (deflection and rotation at the nodes), its element matrices written out:
    ``E I / h^3 [[12, 6h, -12, 6h], ...]`` and the consistent mass ``rho A h / 420 [[156,
    22h, 54, -13h], ...]``."""
    h = L / n_elements
    k = E * INERTIA / h**3 * np.array([
        [12, 6 * h, -12, 6 * h], [6 * h, 4 * h * h, -6 * h, 2 * h * h],
        [-12, -6 * h, 12, -6 * h], [6 * h, 2 * h * h, -6 * h, 4 * h * h]])
    m = RHO * AREA * h / 420.0 * np.array([
        [156, 22 * h, 54, -13 * h], [22 * h, 4 * h * h, 13 * h, -3 * h * h],
        [54, 13 * h, 156, -22 * h], [-13 * h, -3 * h * h, -22 * h, 4 * h * h]])
    size = 2 * (n_elements + 1)
    K, M = np.zeros((size, size)), np.zeros((size, size))
    for i in range(n_elements):
        K[2 * i:2 * i + 4, 2 * i:2 * i + 4] += k
        M[2 * i:2 * i + 4, 2 * i:2 * i + 4] += m
    # the clamp holds the first node's deflection and rotation
    omega2 = scipy.linalg.eigh(K[2:, 2:], M[2:, 2:], eigvals_only=True)[:n]
    return np.sqrt(omega2) / (2.0 * np.pi)


@pytest.mark.parametrize("n_elements", [8, 16])
def test_a_straight_beams_bending_is_the_hermite_elements(n_elements):
    """Linearized about its straight configuration, the ANCF beam's transverse motion is
    that of the Euler-Bernoulli cubic Hermite element (its curvature y'' at first order, its
    mass rho A times the same shape functions): the lowest three frequencies are those of the
    textbook element's matrices. Each side's round-off is about eps times the bending
    problem's condition (1.2e6 at 8 elements, 1.9e7 at 16: 3e-10, 4e-9); the stretch modes
    the ANCF beam adds (1.9e9 times its first bending one at 16 elements, A L^2 / I = 1e6)
    must not leak into its bending frequencies through the eigen-solve."""
    found = rancf.modes(beam(n_elements, ("fixed", None))[0], n=3)
    np.testing.assert_allclose(found.frequencies, hermite_cantilever(n_elements, 3), rtol=1e-8)


def test_a_rigid_pendulums_frequency_comes_from_its_joint_force():
    # omega^2 = m g d / (I_c + m d^2): the restoring stiffness is the pin force acting through
    # the constraint's curvature (no element stiffness in this model)
    mass, I_c, d, g = 2.0, 0.03, 0.4, 9.81
    m = rancf.Model(gravity=(0.0, -g))
    body = m.add_rigid_body(mass, I_c, position=(0.0, -d))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(0.0, d))
    found = rancf.modes(m, n=1)
    assert found.omega[0] == pytest.approx(np.sqrt(mass * g * d / (I_c + mass * d * d)), rel=1e-9)


def test_a_free_swinging_beam_has_one_rigid_body_mode_listed_first():
    m, _ = beam(8, ("revolute", None))
    found = rancf.modes(m, n=3)
    assert list(found.rigid) == [True, False, False] and found.frequencies[0] == 0.0
    # the pinned-free beam's elastic modes: beta L = 3.9266, 7.0686 (tan = tanh)
    exact = np.array([3.9266023120, 7.0685827550])**2 * BENDING
    assert np.abs(found.frequencies[1:] / exact - 1.0).max() < 1e-3


def test_shapes_have_unit_modal_mass_and_satisfy_the_joints():
    m, _ = beam(8, ("revolute", "revolute"))
    found = rancf.modes(m, n=4)
    dae = rancf.formulations.dae.DAE(m.build())
    G = dae.constraint_jacobian(found.equilibrium.x, 0.0)
    G = G.toarray() if hasattr(G, "toarray") else G
    gram = found.shapes @ (dae.M @ found.shapes.T)
    assert np.abs(gram - np.eye(4)).max() < 1e-10
    assert np.abs(G @ found.shapes.T).max() < 1e-10


def test_a_free_vibration_run_started_in_the_first_mode_has_its_period():
    # independent of the eigenproblem: the nonlinear equations integrated by RK4 from the
    # equilibrium displaced along the first shape by 1e-5 L (nonlinear effects O(1e-10));
    # zero crossings of the tip's y, linearly interpolated between outputs 1/4000 of the period
    # apart (RK4's step is held by the axial modes to 1/20000 of it)
    m, b = beam(8, ("fixed", None), inertia=1e-9)
    found = rancf.modes(m, n=1)
    period = 1.0 / found.frequencies[0]
    shape = found.shapes[0] / np.abs(found.shapes[0]).max()
    x0 = found.equilibrium.x + 1e-5 * L * shape
    res = rancf.simulate(m, 1.3 * period, period / 20000, method="rk4", output_every=5,
                         state=rancf.State(x0, np.zeros_like(x0)))
    assert res.status == "ok", res.message
    y = res.position(b.end)[:, 1]
    k = np.flatnonzero(np.sign(y[:-1]) != np.sign(y[1:]))
    crossings = res.t[k] - y[k] * (res.t[k + 1] - res.t[k]) / (y[k + 1] - y[k])
    measured = 2.0 * np.diff(crossings).mean()
    assert measured == pytest.approx(period, rel=1e-5)


def test_a_given_equilibrium_gives_the_same_modes_as_the_static_solve():
    m, _ = beam(8, ("fixed", None), gravity=(0.0, -9.81))
    found = rancf.modes(m, n=3)
    again = rancf.modes(m, state=found.equilibrium, n=3)
    assert np.allclose(again.omega, found.omega, rtol=1e-9)


def test_an_inverted_pendulum_is_unstable():
    """The upright state (its reference, an equilibrium) is refused as unstable; without a
    state, modes takes the equilibrium of rancf.static, which leaves the upright one for the
    hanging pendulum: ``omega^2 = m g l / (I + m l^2)``."""
    m = rancf.Model(gravity=(0.0, -9.81))
    body = m.add_rigid_body(1.0, 0.01, position=(0.0, 0.5))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), body.point(0.0, -0.5))
    A = m.build()
    with pytest.raises(ValueError, match="unstable: mode 0 has omega"):
        rancf.modes(m, state=rancf.State(A.x0, np.zeros(A.n_x)))
    hanging = rancf.modes(m, n=1)
    omega = np.sqrt(9.81 * 0.5 / (0.01 + 0.5**2))
    assert hanging.frequencies[0] == pytest.approx(omega / (2 * np.pi), rel=1e-6)


def test_bad_input_is_named():
    m, _ = beam(4, ("fixed", None), gravity=(0.0, -9.81))
    with pytest.raises(ValueError, match="not an equilibrium"):
        rancf.modes(m, state=rancf.State(m.build().x0, np.zeros(m.build().n_x)))
    with pytest.raises(ValueError, match="n must be an integer in"):
        rancf.modes(m, n=0)
    with pytest.raises(TypeError, match="state must be a rancf.State"):
        rancf.modes(m, state="static")
    with pytest.raises(ValueError, match="no beam and no rigid body"):
        rancf.modes(rancf.Model(dim=3))     # spatial models have modes (issue 25 on dim=3)
    with pytest.raises(TypeError, match="model must be a rancf.Model"):
        rancf.modes(None)


def test_a_mode_is_drawn_and_animated(tmp_path):
    m, _ = beam(4, ("fixed", None))
    found = rancf.modes(m, n=2)
    ax = found.plot(1)
    assert ax.lines and "mode 1" in ax.get_title()
    motion = found.motion(1, scale=0.1, n_frames=8)
    positions = motion.nodes[..., :2]
    largest = np.linalg.norm(positions - positions[0], axis=-1).max()
    assert largest == pytest.approx(0.1 * m.build().size, rel=1e-12)
    found.animate(0, path=tmp_path / "mode.gif", n_frames=4, fps=10)
    assert (tmp_path / "mode.gif").stat().st_size > 0


def test_modes_at_a_state_of_a_driven_model_hold_the_drives_there():
    """A stiff beam turned by a driven revolute joint, given the state of the pose at 0.7 rad
    (not the drive's t = 0 value): the drive is held at the angle the state has, so the modes
    equal those of the same beam built at 0.7 rad on a fixed joint. No gravity: the pose is an
    equilibrium, which the check must accept although the beam's large element forces leave
    round-off of about 1e-8 N in the forces at the exact coordinates."""
    E, rho, A, I = 7e10, 2700.0, 5.6e-4, 2.5e-7
    driven = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b = driven.add_beam(1.0, 4, E=E, rho=rho, A=A, I=I)
    driven.add_joint("revolute", driven.ground.point(0.0, 0.0), b.start,
                     drive=lambda t: (t, 1.0, 0.0))
    fixed = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    b2 = fixed.add_beam(1.0, 4, E=E, rho=rho, A=A, I=I, angle=0.7)
    fixed.add_joint("fixed", fixed.ground.point(0.0, 0.0, angle=0.7), b2.start)
    pose = rancf.State(fixed.build().x0.copy(), np.zeros(fixed.build().n_x))
    np.testing.assert_allclose(rancf.modes(driven, state=pose, n=3).frequencies,
                               rancf.modes(fixed, n=3).frequencies, rtol=1e-9)
