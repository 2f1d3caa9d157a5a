"""The restart check's velocity bound in consistent units (rancf/formulations/start_check.py):
a start whose velocities miss the joints' velocity rows is moved onto them when its
correction's kinetic energy is within ``0.05^2`` of the state's (``dv^T M dv <= 0.05^2 v^T M
v``), refused otherwise. Checked against hand-computed values: a pendulum's mass-metric
correction of a radial velocity miss (derived below, independent of the code), the same
mechanism drawn in other units of length (the verdict and the corrected velocities must
scale exactly), and a fast spin of small energy beside a large translational miss. The
spatial DAE takes any velocities (a kick); its correction is checked with the others'.

The pendulum: a bar of mass m = 1 kg and length L (inertia m L^2 / 12 about its centre)
pinned at one end to the ground, drawn along x, turning at omega, its centre given a radial
(outward, along the bar) velocity delta it cannot have. In the rigid body's coordinates
``[x, y, u_x, u_y]`` (planar; spatial: its centre's velocity and its angular velocity) the
state is ``v = [delta, omega L / 2, 0, omega]``; the pin's velocity row ``r_c' - (L/2) u' =
0`` is off by ``(delta, 0)``, the axis row ``u . u' = 0`` holds. The least change in the
kinetic-energy metric ``M = diag(m, m, I, I)`` that holds both rows: along the bar ``dr_u -
(L/2) du_u = -delta`` with ``du_u = 0`` (the axis row), so ``dr_u = -delta``; across it the
rows ask ``dr_n = (L/2) du_n`` and the least energy is 0. So the correction is ``dv =
[-delta, 0, 0, 0]``, exactly the radial component removed, of energy ``m delta^2`` against
the state's ``v^T M v = m (delta^2 + omega^2 L^2 / 4) + I omega^2``. The recursion's fit of
the one joint rate gives the same (the radial miss is orthogonal to the joint's motion in
that metric, so the fitted rate is omega).

With omega = 2 rad/s: ``v^T M v = delta^2 + 4/3 (m^2/s^2 times kg)`` at L = 1 m, and the
relative correction ``delta / sqrt(delta^2 + 4/3)`` is 0.171 for delta = 0.2 m/s (refused)
and 0.0476 for delta = 0.055 m/s (accepted); at every unit of length (scale s: lengths,
delta and gravity times s, inertia times s^2, times and masses kept) the same numbers.
The bound that compared the rows with 0.05 of the largest velocity coordinate (rad/s and
1/s against m/s) refused delta = 0.055 s at s = 1000 (its largest is omega L / 2) and
accepted delta = 0.2 s at s = 0.1 (its largest is the axis rate omega)."""
import re

import numpy as np
import pytest

import rancf

OMEGA = 2.0
FORMULATIONS = [(2, "dae"), (2, "recursive"), (3, "recursive")]
#: and the spatial DAE, which takes any velocities and moves them by the same least change
#: of kinetic energy (rancf.starts.spatial_dae_start): its corrections, not its verdicts
MOVED = FORMULATIONS + [(3, "dae")]


def _pendulum(dim, s):
    """The bar of length s (m) pinned at the origin, drawn along x; gravity 9.81 s m/s^2
    (motions similar at every s). Returns the model."""
    L = s
    if dim == 2:
        m = rancf.Model(gravity=(0.0, -9.81 * s))
        bar = m.add_rigid_body(1.0, L * L / 12, position=(L / 2, 0.0))
        m.add_joint("revolute", m.ground.point(0.0, 0.0), bar.point(-L / 2, 0.0))
    else:
        m = rancf.Model(dim=3, gravity=(0.0, -9.81 * s, 0.0))
        bar = m.add_rigid_body(1.0, np.diag([1e-3, 1.0, 1.0]) * L * L / 12,
                               position=(L / 2, 0.0, 0.0))
        m.add_joint("revolute", m.ground.point(0, 0, 0), bar.point(-L / 2, 0, 0),
                    axis=(0, 0, 1))
    return m


def _pendulum_state(dim, s, delta):
    """(x, v) of the bar turning at OMEGA with the radial miss delta (m/s) at its centre."""
    L = s
    if dim == 2:
        return np.array([L / 2, 0.0, 1.0, 0.0]), np.array([delta, OMEGA * L / 2, 0.0, OMEGA])
    x = np.concatenate([[L / 2, 0.0, 0.0], np.eye(3).ravel()])
    return x, np.array([delta, OMEGA * L / 2, 0.0, 0.0, 0.0, OMEGA])


def _start(model, x, v, formulation):
    """The first output's velocities (flat) and the message of a one-step run from (x, v),
    or (None, the ValueError's message) where the start is refused."""
    # an implicit method: an explicit one's displacement bound (m) is not scaled with s
    method = "generalized-alpha" if model.dim == 2 else "generalized-alpha-s"
    try:
        res = rancf.simulate(model, 1e-3, 1e-3, method=method, formulation=formulation,
                             output_every=1, state=rancf.State(x, v))
    except ValueError as err:
        return None, str(err)
    assert res.status == "ok", res.message
    return np.asarray(res.velocities[0], dtype=float).ravel(), res.message


@pytest.mark.parametrize("dim,formulation", FORMULATIONS)
@pytest.mark.parametrize("s", [0.1, 1.0, 1000.0])
def test_a_radial_miss_is_refused_in_every_unit_of_length(dim, formulation, s):
    """delta = 0.2 s m/s: the correction is 0.171 of the state's kinetic energy's square root
    at every s (module docstring), above 0.05: refused, naming the pin."""
    x, v = _pendulum_state(dim, s, 0.2 * s)
    out, text = _start(_pendulum(dim, s), x, v, formulation)
    assert out is None, text
    assert "velocities do not satisfy the joints" in text and "joint 0 (revolute)" in text, text


@pytest.mark.parametrize("dim,formulation", MOVED)
@pytest.mark.parametrize("s", [0.1, 1.0, 1000.0])
def test_a_small_radial_miss_is_removed_exactly_in_every_unit_of_length(dim, formulation, s):
    """delta = 0.055 s m/s (0.0476 of the energy's root, under 0.05): accepted, and the
    corrected velocities are the given ones less the radial component (module docstring),
    scaling exactly with s: to rounding, 1e-12 of the largest velocity."""
    delta = 0.055 * s
    x, v = _pendulum_state(dim, s, delta)
    out, text = _start(_pendulum(dim, s), x, v, formulation)
    assert out is not None, text
    assert "velocities by" in text, text
    expected = v.copy()
    expected[0] -= delta
    scale = np.abs(v).max()
    np.testing.assert_allclose(out, expected, rtol=0.0, atol=1e-12 * scale)


def _pendulum_and_wheel(dim):
    """The pendulum at s = 1 (joint 0) and a wheel pinned at its centre to the ground 3 m
    away (joint 1): 0.1 kg, inertia 1e-5 kg m^2 about its axle. Returns the model."""
    m = _pendulum(dim, 1.0)
    if dim == 2:
        wheel = m.add_rigid_body(0.1, 1e-5, position=(3.0, 0.0))
        m.add_joint("revolute", m.ground.point(3.0, 0.0), wheel.centre)
    else:
        wheel = m.add_rigid_body(0.1, np.eye(3) * 1e-5, position=(3.0, 0.0, 0.0))
        m.add_joint("revolute", m.ground.point(3, 0, 0), wheel.point(0, 0, 0), axis=(0, 0, 1))
    return m


@pytest.mark.parametrize("dim,formulation", FORMULATIONS)
def test_a_fast_spin_of_little_energy_does_not_hide_a_translational_miss(dim, formulation):
    """The wheel spins at 200 rad/s (kinetic energy 0.2 J: v^T M v = 0.4), the pendulum is
    at rest but for a radial miss of 1 m/s at its centre (energy of the correction
    m delta^2 = 1, against 1.4: a relative 0.85). Refused, naming the pendulum's pin; the
    bound on 0.05 of the largest velocity coordinate (the wheel's 200 rad/s) took 10 m/s."""
    w = 200.0
    x, v = _pendulum_state(dim, 1.0, 1.0)
    v[1:] = 0.0                                    # the pendulum at rest but for the miss
    if dim == 2:
        x = np.concatenate([x, [3.0, 0.0, 1.0, 0.0]])
        v = np.concatenate([v, [0.0, 0.0, 0.0, w]])
    else:
        x = np.concatenate([x, [3.0, 0.0, 0.0], np.eye(3).ravel()])
        v = np.concatenate([v, [0.0, 0.0, 0.0, 0.0, 0.0, w]])
    out, text = _start(_pendulum_and_wheel(dim), x, v, formulation)
    assert out is None, text
    assert "velocities do not satisfy the joints" in text and "joint 0 (revolute)" in text, text


@pytest.mark.parametrize("dim,formulation", FORMULATIONS)
def test_a_state_at_rest_is_taken_as_it_is_and_a_miss_at_rest_is_refused(dim, formulation):
    """v = 0 holds every undriven joint's rows: taken as it is, no note. A miss of 1e-6 m/s
    on a state otherwise at rest is the whole of its motion (relative 1): refused."""
    x, v = _pendulum_state(dim, 1.0, 0.0)
    out, text = _start(_pendulum(dim, 1.0), x, np.zeros_like(v), formulation)
    assert out is not None and not np.any(out), text
    assert "moved onto the joints" not in text, text
    v = np.zeros_like(v)
    v[0] = 1e-6
    out, text = _start(_pendulum(dim, 1.0), x, v, formulation)
    assert out is None and "joint 0 (revolute)" in text, text


@pytest.mark.parametrize("dim,formulation", FORMULATIONS)
def test_the_bound_is_at_the_hand_computed_miss(dim, formulation):
    """Where (1) is met with equality: ``delta^2 = 0.05^2 (delta^2 + 4/3)``, delta* =
    0.05 sqrt((4/3) / (1 - 0.05^2)) = 0.05780 m/s (module docstring). 2 % either side (far
    above rounding, 1e-16 of the energies) gives the two verdicts."""
    star = 0.05 * np.sqrt((4.0 / 3.0) / (1.0 - 0.05 ** 2))
    for factor, accepted in ((0.98, True), (1.02, False)):
        x, v = _pendulum_state(dim, 1.0, factor * star)
        out, text = _start(_pendulum(dim, 1.0), x, v, formulation)
        assert (out is not None) == accepted, (factor, text)


def _light_pendulum(dim, inertia):
    """The pendulum (s = 1) with a small inertia about its centre (kg m^2): its axis rate
    carries little energy, its centre's velocity nearly all of it."""
    if dim == 2:
        m = rancf.Model(gravity=(0.0, -9.81))
        bar = m.add_rigid_body(1.0, inertia, position=(0.5, 0.0))
        m.add_joint("revolute", m.ground.point(0.0, 0.0), bar.point(-0.5, 0.0))
    else:
        m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
        bar = m.add_rigid_body(1.0, np.eye(3) * inertia, position=(0.5, 0.0, 0.0))
        m.add_joint("revolute", m.ground.point(0, 0, 0), bar.point(-0.5, 0, 0),
                    axis=(0, 0, 1))
    return m


@pytest.mark.parametrize("dim,formulation", MOVED)
def test_a_miss_in_a_light_direction_is_taken_from_it(dim, formulation):
    """The pendulum of inertia I = 1e-9 kg m^2 turning at omega, its axis rate given as
    10 omega: the pin's row is off across the bar by ``c = (L/2) 9 omega``. The least change
    of ``m dr^2 + I du^2`` with ``dr - (L/2) du = c`` (by hand): ``du = -m (L/2) c / (m L^2/4
    + I)``, ``dr = c I / (m L^2/4 + I)``: the axis rate back to omega but for 4e-9 of the
    miss, the centre's velocity moved by 7e-8 m/s, energy ``m I c^2 / (m L^2/4 + I)`` =
    3.2e-7 of the state's 1.0: accepted. The expected velocities are these closed forms (to
    1e-12 of the largest)."""
    m_, L, inertia = 1.0, 1.0, 1e-9
    x, v = _pendulum_state(dim, 1.0, 0.0)
    v[-1] = 10 * OMEGA
    c = (L / 2) * 9 * OMEGA
    du = -m_ * (L / 2) * c / (m_ * L * L / 4 + inertia)
    dr = c * inertia / (m_ * L * L / 4 + inertia)
    expected = v.copy()
    expected[1] += dr
    expected[-1] += du
    out, text = _start(_light_pendulum(dim, inertia), x, v, formulation)
    assert out is not None and "velocities by" in text, text
    np.testing.assert_allclose(out, expected, rtol=0.0, atol=1e-12 * 10 * OMEGA)


def _driven(dim):
    """The pendulum (s = 1) turned by a motor at q = omega t (its rate omega at the start)."""
    drive = lambda t: (OMEGA * t, OMEGA, 0.0)            # noqa: E731
    if dim == 2:
        m = rancf.Model(gravity=(0.0, -9.81))
        bar = m.add_rigid_body(1.0, 1.0 / 12, position=(0.5, 0.0))
        m.add_joint("revolute", m.ground.point(0.0, 0.0), bar.point(-0.5, 0.0), drive=drive)
    else:
        m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
        bar = m.add_rigid_body(1.0, np.diag([1e-3, 1.0, 1.0]) / 12, position=(0.5, 0.0, 0.0))
        m.add_joint("revolute", m.ground.point(0, 0, 0), bar.point(-0.5, 0, 0),
                    axis=(0, 0, 1), drive=drive)
    return m


@pytest.mark.parametrize("dim,formulation", MOVED)
def test_a_driven_joint_s_rate_is_met(dim, formulation):
    """The driven pendulum given 1.03 omega (its whole motion 3 % too fast: the correction's
    energy 0.03^2 of it, under 0.05^2): moved to the drive's velocities exactly
    ``[0, omega / 2, 0, omega]`` (closed form)."""
    x, v = _pendulum_state(dim, 1.0, 0.0)
    out, text = _start(_driven(dim), x, 1.03 * v, formulation)
    assert out is not None and "velocities by" in text, text
    np.testing.assert_allclose(out, v, rtol=0.0, atol=1e-12 * OMEGA)


@pytest.mark.parametrize("dim,formulation", FORMULATIONS)
def test_a_driven_joint_s_rate_missed_by_more_is_refused(dim, formulation):
    """Given 1.08 omega (the correction 0.074 of the motion): refused, the message giving
    the drive's rate."""
    x, v = _pendulum_state(dim, 1.0, 0.0)
    out, text = _start(_driven(dim), x, 1.08 * v, formulation)
    assert out is None and "joint 0 (revolute)" in text, text
    assert "drive gives qd = 2 rad/s" in text, text


def test_the_spatial_kinetic_metric_is_twice_the_kinetic_energy():
    """The metric the spatial recursion measures a start's velocities in
    (``Spatial._kinetic_action``), against closed forms: a straight cable of 1 m (rho A = 0.1
    kg/m) turning at omega about z through its end holds its velocity field ``omega e_z x s
    e_x`` exactly (linear in s: the cubic elements' interpolation is exact), so ``v . M v =
    rho A omega^2 L^3 / 3``; its 0.2 kg payload adds ``m |omega e_z x c|^2 + w . R J R^T w``.
    To 1e-12 (rounding of a sum of a few terms)."""
    from rancf.formulations.spatial import Spatial, model_inputs
    from test_spatial_cable_recursion import _turned_cable
    for payload in (False, True):
        m, _, state, (theta, omega, s, _) = _turned_cable("spherical", payload=payload)
        rec = Spatial(m.build(), *model_inputs(m))
        n = rec.tree.n_bodies
        A = state.x[:12 * n].reshape(n, 12)[:, 3:].reshape(n, 3, 3)
        got = float(state.v @ rec._kinetic_action(A, state.v))
        want = 0.1 * omega ** 2 / 3
        if payload:
            R = A[0]
            c, w = state.x[:3], state.v[3:6]
            want += (0.2 * np.sum(np.cross([0, 0, omega], c) ** 2)
                     + w @ R @ np.diag([1e-3, 2e-3, 3e-3]) @ R.T @ w)
        assert got == pytest.approx(want, rel=1e-12), (payload, got, want)


def _hand_mass(dim):
    """The pendulum's (s = 1) mass matrix in its velocity coordinates: planar the model's own
    ``build().mass_matrix()`` in ``[x, y, u_x, u_y]`` (diag(m, m, I, I): ``|u'| = omega``
    for a unit axis u); spatial by hand, ``diag(m I3, A J A^T)`` with the frame A = I and the
    inertia J = diag(1e-3, 1, 1) / 12 that :func:`_pendulum` gives the bar."""
    if dim == 2:
        return _pendulum(2, 1.0).build().mass_matrix().toarray()
    return np.diag(np.concatenate([np.ones(3), np.array([1e-3, 1.0, 1.0]) / 12]))


def _judged(text):
    """The two kinetic energies (J) and their ratio the refusal states."""
    found = re.search(r"dv\^T M dv / 2 = (\S+) J against the state's v\^T M v / 2 = (\S+) J, "
                      r"a ratio (\S+) above the 0\.0025 \(= 0\.05\^2\)", text)
    assert found, text
    return tuple(float(g) for g in found.groups())


@pytest.mark.parametrize("dim,formulation", FORMULATIONS)
@pytest.mark.parametrize("driven", [False, True])
def test_a_velocity_refusal_states_the_energies_it_judged(dim, formulation, driven):
    """Every formulation that refuses velocities states what (1) of start_check judged, in
    the same words: ``dv^T M dv / 2`` and ``v^T M v / 2`` (J) and their ratio against
    0.05^2, and the parameter to change (State.v). The numbers against a hand calculation
    with the mass matrix (:func:`_hand_mass`) of the closed-form corrections: the radial
    miss delta = 0.2 m/s, ``dv = [-delta, 0, 0, 0]`` (module docstring); the driven bar given
    1.08 times its drive's velocities v_d, ``dv = -0.08 v_d`` (it is moved to v_d exactly,
    test_a_driven_joint_s_rate_is_met). Printed to 6 and 4 significant digits: to 1e-5 and
    1e-3 relative."""
    x, v = _pendulum_state(dim, 1.0, 0.0 if driven else 0.2)
    if driven:
        dv, v = -0.08 * v, 1.08 * v
        model = _driven(dim)
    else:
        dv = np.zeros_like(v)
        dv[0] = -0.2
        model = _pendulum(dim, 1.0)
    out, text = _start(model, x, v, formulation)
    assert out is None, text
    M = _hand_mass(dim)
    e_dv, e_v = 0.5 * dv @ M @ dv, 0.5 * v @ M @ v
    got_dv, got_v, ratio = _judged(text)
    assert got_dv == pytest.approx(e_dv, rel=1e-5), text
    assert got_v == pytest.approx(e_v, rel=1e-5), text
    assert ratio == pytest.approx(e_dv / e_v, rel=1e-3), text
    assert ratio > 0.05 ** 2
    assert "joint 0 (revolute) takes the largest share of their change" in text, text
    assert "change the state's velocities (State.v)" in text, text
    if driven:
        assert "drive gives qd = 2 rad/s" in text, text
