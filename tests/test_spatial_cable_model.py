"""The spatial ANCF cable in a spatial model (``add_beam(..., element="ancf-cable")``), run by the
spatial DAE: each test against something independent (Exudyn's value, the elastic catenary, a
planar model of the same cable, a conservation law, finite differences)."""
import numpy as np
import pytest

import rancf
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.formulations import spatial
from validation.cable_statics import (CATENARY, elastic_catenary, hanging_cable,
                                     inextensible_catenary, slack_cable)

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable")


def test_exudyn_3d_cable_cantilever_under_gravity_through_the_model():
    """Exudyn's ObjectANCFCable test (the case of tests/test_ancf_cable.py: L = 2 m along x, 32
    elements, rho A = 78 kg/m, EA = 1e6 N, EI = 833.33 N m^2, gravity 9.81 m/s^2 along -y,
    node 0 held in r and in the slope's y and z, its x slope free) built with the public API:
    the clamp ``fixed`` holds exactly that. Exudyn's tip x displacement is
    -0.5013058140308919 m; the brief's tolerance 1e-9 m (Exudyn's own Newton stops at a
    relative residual of 1e-8, so its value may be off by more: test_ancf_cable.py allows
    1e-8). The clamp carries the weight (global balance, to round-off)."""
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = m.add_beam(2.0, 32, E=1e6, rho=78.0, A=1.0, I=833.3333333333333e-6,
                   element="ancf-cable")
    clamp = m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    res = rancf.static(m, load_steps=4, tol=1e-12)
    assert res.status == "ok", res.message
    tip = res.position(c.end)[-1]
    assert abs((tip[0] - 2.0) - -0.5013058140308919) <= 1e-9
    assert tip[2] == 0.0                            # the load is in the x-y plane
    weight = 78.0 * 2.0 * 9.81
    assert np.allclose(res.reaction(clamp)[-1, :3], [0.0, weight, 0.0], rtol=0, atol=1e-9 * weight)


def test_cable_between_two_pins_hangs_as_the_elastic_catenary():
    """A cable of 1 m between spherical joints to the ground 1 m apart (the public API builds a
    cable unstressed in its reference, its joint points coinciding, so the pins span its
    length), rho A = 1 kg/m, EA = 1e3 N, EI = 1e-6 N m^2, 32 elements, gravity 9.81 m/s^2
    along -y, solved by ``rancf.static``, against Irvine's elastic catenary
    (validation/cable_statics.py: sag 0.078 m, H = 15.7 N; the inextensible catenary is its
    EA -> oo limit). Limits set before running: the bending stiffness moves the equilibrium by
    about ``EI kappa / (H sag)`` = 5e-7 of it (kappa = w / H at mid-span), cubic elements by
    about h^4 = 1e-6; 1e-5 of the sag and of the end tension ``sqrt(H^2 + (w L / 2)^2)``
    (the pins' reactions). Each pin carries half the weight (global balance, to round-off:
    n EA eps = 7e-12 N)."""
    res, c, pins = hanging_cable()
    assert res.status == "ok", res.message
    p = CATENARY
    H, sag = elastic_catenary(p["length"], p["length"], p["rho_A"], p["g"], p["EA"])
    mid = res.position(c.node(p["n"] // 2))[0]
    assert abs(-mid[1] - sag) <= 1e-5 * sag
    assert abs(mid[0] - p["length"] / 2) <= 1e-12 and mid[2] == 0.0   # symmetric, in its plane
    half = p["rho_A"] * p["g"] * p["length"] / 2
    tension = np.hypot(H, half)
    for pin, sign in zip(pins, (1.0, -1.0)):
        f = res.reaction(pin)[0, :3]
        assert abs(np.linalg.norm(f) - tension) <= 1e-5 * tension
        assert abs(sign * f[0] + H) <= 1e-5 * H            # the pins pull it outwards
        assert abs(f[1] - half) <= 1e-9 * half


def test_slack_cable_between_two_pins_hangs_as_the_inextensible_catenary():
    """A cable of 1.2 m drawn as a circular arc between pins 1 m apart (a plane curved cable:
    its stiffness matrix singular out of its plane in the reference, where rancf.static used
    to refuse it), rho A = 1 kg/m, EA = 1e6 times its weight (1.2e7 N), EI = 1e-6 N m^2,
    32 elements, gravity 9.81 m/s^2 along -y, in its plane: ``rancf.static`` solves it
    (its first load step by pseudo-transient continuation, theory: Curved cables) and it hangs
    as the inextensible catenary ``2 a sinh(D / (2 a)) = L`` (L the drawn cable's length,
    ``c.length``; sag ``a (cosh(D / (2 a)) - 1)`` = 0.29 m, H = rho A g a, end tension
    ``sqrt(H^2 + (w L / 2)^2)`` = 7.5 N). Limits set before running, from the estimates:
    the stretch T/EA <= 6.4e-7 lengthens the cable by about 7.6e-7 m and deepens the sag by
    d sag / d L (about 0.6) times that, 1.6e-6 of it; the bending moment against H times the
    sag, ``EI kappa / (H sag)`` with kappa = w / H at mid-span, 1.6e-6; cubic elements about
    h^4 = 2e-6: 1e-5 of the sag for the sag and the shape (node heights against the catenary
    at the nodes' x), 1e-5 of the end tension for the pins' reactions. Each pin carries half
    the weight (global balance, to round-off); the cable stays in its plane exactly (the
    shift gives the out-of-plane coordinates no increment: their residual is zero)."""
    m, c, pins = slack_cable((0.0, -9.81, 0.0))
    res = rancf.static(m, load_steps=10, tol=1e-12)
    assert res.status == "ok", res.message
    L, D, w, n = c.length, 1.0, 9.81, 32
    a, sag, H = inextensible_catenary(L, D, w)
    X = np.array([res.position(c.node(i))[0] for i in range(n + 1)])
    assert abs(-X[n // 2, 1] - sag) <= 1e-5 * sag
    catenary = a * np.cosh((X[:, 0] - D / 2) / a) - a * np.cosh(D / (2 * a))
    assert np.abs(X[:, 1] - catenary).max() <= 1e-5 * sag
    assert np.all(X[:, 2] == 0.0)
    tension = np.hypot(H, w * L / 2)
    for pin, sign in zip(pins, (1.0, -1.0)):
        f = res.reaction(pin)[0, :3]
        assert abs(np.linalg.norm(f) - tension) <= 1e-5 * tension
        assert abs(sign * f[0] + H) <= 1e-5 * H
        assert abs(f[1] - w * L / 2) <= 1e-9 * w * L / 2


def test_slack_cable_loaded_out_of_its_plane_is_refused():
    """The slack cable above with gravity along -z, normal to its plane: the loads drive its
    directions without stiffness in the reference (its swing about the pins), which the
    pseudo-transient first step is not for: ``rancf.static`` refuses it with the plane curved
    cable's reason, as before."""
    m, c, pins = slack_cable((0.0, 0.0, -9.81))
    with pytest.raises(ValueError, match=r"singular in the reference configuration, and it holds "
                                         r"the plane curved cable cable\[0\]"):
        rancf.static(m, load_steps=10, tol=1e-12)


def _pendulum(dt, t_end=0.4):
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **CABLE)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return c, rancf.simulate(m, t_end=t_end, dt=dt, method="newmark", formulation="dae")


def test_cable_pendulum_conserves_energy_at_newmarks_order():
    """A cable released horizontally on a spherical joint to the ground, under gravity, no
    damping: Newmark (trapezoidal) keeps ``kinetic + elastic + gravity`` to an error of order
    dt^2 (the drift quarters when dt halves: ratio within [3, 5]); the joint holds the start at
    the pin to the Newton tolerance; the cable swings down (its end falls). The spherical
    joint's coordinates, the rotation vector from the ground's frame to the start node's
    (the reference frame turned by the smallest rotation onto the tangent), have the angle
    between the reference tangent x and the stored tangent."""
    drifts = []
    for dt in (4e-3, 2e-3):
        c, res = _pendulum(dt)
        assert res.status == "ok", res.message
        assert res.formulation == "dae"
        e = res.energy()
        drifts.append(float(np.abs(e.total - e.total[0]).max()))
        assert np.abs(res.position(c.start)).max() <= 1e-9
        assert res.position(c.end)[-1, 2] < -0.5
        tangent = res.orientation(c.start)[:, :, 0]
        angle = np.linalg.norm(res.joint(0)[0], axis=1)
        assert np.allclose(angle, np.arccos(np.clip(tangent[:, 0], -1, 1)), atol=1e-7)
        assert angle[-1] > 0.1
    assert 3.0 <= drifts[0] / drifts[1] <= 5.0


def test_hanging_cable_agrees_with_the_planar_reissner_beam():
    """A cable pinned at both ends 1 m apart, sagging under its weight in the x-y plane: the
    spatial cable (spherical joints, rancf.static on the spatial DAE) and the planar ANCF beam of
    the Reissner model (revolute joints, the planar DAE) are the same strains in a plane
    (theory: The spatial ANCF cable), so their equilibria agree to round-off: node positions to
    1e-12 m, energies and the pin's reaction to 1e-9 relative."""
    L, n, E, rho, A, I = 1.0, 8, 1e8, 1000.0, 1e-4, 1e-10
    p = rancf.Model(gravity=(0.0, -9.81), elastic_model="reissner")
    b = p.add_beam(L, n, E=E, rho=rho, A=A, I=I)
    p.add_joint("revolute", p.ground.point(0.0, 0.0), b.start)
    p.add_joint("revolute", p.ground.point(L, 0.0), b.end)
    planar = rancf.static(p, load_steps=4, tol=1e-12)
    s = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    c = s.add_beam(L, n, E=E, rho=rho, A=A, I=I, element="ancf-cable")
    s.add_joint("spherical", s.ground.point(0, 0, 0), c.start)
    s.add_joint("spherical", s.ground.point(L, 0, 0), c.end)
    space = rancf.static(s, load_steps=4, tol=1e-12)
    assert planar.status == space.status == "ok"
    P = np.array([planar.position(b.node(i))[-1] for i in range(n + 1)])
    S = np.array([space.position(c.node(i))[-1] for i in range(n + 1)])
    assert -P[n // 2, 1] > 0.01                      # a sag of 17 mm: well beyond round-off
    assert np.abs(S[:, :2] - P).max() <= 1e-12 and np.abs(S[:, 2]).max() == 0.0
    ep, es = planar.energy().iloc[-1], space.energy().iloc[-1]
    for k in ("elastic", "gravity"):
        assert abs(es[k] - ep[k]) <= 1e-9 * abs(ep[k])
    assert np.allclose(space.reaction(0)[-1, :2], planar.reaction(0)[-1, :2], rtol=1e-9)


def _mixed(damping=1e-3):
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, 4, **{**CABLE, "damping": damping})
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 2e-4]), position=(1.1, 0, 0))
    hook = m.add_joint("spherical", c.end, r.point(-0.1, 0, 0))
    b = m.add_beam(0.5, 2, E=1e8, rho=1000.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=4e7,
                   start=(0, 1, 0))
    m.add_joint("fixed", m.ground.point(0, 1, 0), b.start)
    m.add_force(b.end, force=(0.0, 0.0, -1.0))
    return m, c, r, hook


def test_mixed_model_runs_and_closes_its_energy_balance():
    """A rigid body hung by a spherical joint on the end of a damped cable, beside an SE(3)
    cantilever under a constant tip force, on 'auto' (the DAE) with Newmark: the balance
    ``kinetic + elastic + gravity - work + dissipated`` stays constant to an error of order
    dt^2 (ratio of the drifts at dt and dt/2 within [3, 5]); the cable's damping dissipates
    (dissipated > 0 and non-decreasing); the hook holds its two points together; the hook's
    reaction on the body has no moment (a spherical joint)."""
    drifts = []
    for dt in (4e-3, 2e-3):
        m, c, r, hook = _mixed()
        res = rancf.simulate(m, t_end=0.1, dt=dt, method="newmark", formulation="dae")
        assert res.status == "ok", res.message
        e = res.energy()
        drifts.append(float(np.abs(e.total - e.total[0]).max()))
        assert e.dissipated.iloc[-1] > 0.0 and np.all(np.diff(e.dissipated) >= -1e-15)
        assert e.work.iloc[-1] > 0.0
        gap = res.position(c.end) - res.position(r.point(-0.1, 0, 0))
        assert np.abs(gap).max() <= 1e-9
        assert np.abs(res.reaction(hook)[:, 3:]).max() <= 1e-9
    assert 3.0 <= drifts[0] / drifts[1] <= 5.0


def test_mixed_model_result_saves_loads_and_draws(tmp_path):
    """The Result of a model with a cable round-trips through a file (positions and energies
    equal), and the model and its run draw the cable through its nodes."""
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    m, c, r, hook = _mixed()
    res = rancf.simulate(m, t_end=0.01, dt=1e-3, method="newmark", output_every=5)
    res.save(tmp_path / "cable.npz")
    back = rancf.load(tmp_path / "cable.npz", model=m)
    assert np.array_equal(back.position(c.end), res.position(c.end))
    assert np.allclose(back.energy().total, res.energy().total, rtol=0, atol=1e-12)
    ax = m.plot()
    line = next(a for a in ax.lines if a.get_gid() == "beam 0")
    assert np.allclose(np.column_stack(line.get_data_3d()), c.positions)
    res.plot()


def test_cable_rows_and_forces_match_finite_differences():
    """The analytic Jacobian of the rows of joints at cable points (a clamp to a turned rigid
    body, a spherical joint from a cable end to a body) and the cable's exact tangent in the
    DAE's stiffness against central differences of the rows and forces, at a state moved off
    the reference (random, seeded)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1))
    c = m.add_beam(1.0, 3, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 2e-4]), position=(1.2, 0, 0))
    m.add_joint("spherical", c.end, r.centre)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    x, v = dae.initial_state()
    rng = np.random.default_rng(7)
    x = x + 0.05 * rng.standard_normal(x.size)
    v = rng.standard_normal(v.size)
    J = dae.constraint_jacobian(x, 0.0).toarray()
    h = 1e-6
    fd = np.array([(dae.constraint(x + h * e, 0.0) - dae.constraint(x - h * e, 0.0)) / (2 * h)
                   for e in np.eye(x.size)]).T
    assert np.abs(J - fd).max() <= 1e-8 * max(1.0, np.abs(J).max())
    cable = slice(dae._c0, None)
    K = dae.stiffness(x, v, 0.0).toarray()[cable, cable]
    fk = np.array([-(dae.force(x + h * e, v, 0.0) - dae.force(x - h * e, v, 0.0))[cable] / (2 * h)
                   for e in np.eye(x.size)[cable]]).T
    assert np.abs(K - fk).max() <= 1e-6 * np.abs(K).max()
    C = dae.damping(x, v, 0.0)
    assert C.shape == (x.size, x.size)


def test_clamp_to_a_body_holds_the_slope_along_the_bodys_axis():
    """A cable clamped to a hub turned by a drive: at every output its start stays at the hub's
    point and its slope along the hub's x axis (the clamp's direction rows; the slope's length
    is free), to the Newton tolerance."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1),
                drive=lambda t: (2.0 * t ** 2, 4.0 * t, 4.0))
    c = m.add_beam(0.5, 2, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    res = rancf.simulate(m, t_end=0.1, dt=5e-3, method="generalized-alpha", formulation="dae")
    assert res.status == "ok", res.message
    gap = res.position(c.start) - res.position(hub.point(0.2, 0, 0))
    assert np.abs(gap).max() <= 1e-9
    axis = res.orientation(hub.centre)[:, :, 0]
    tangent = res.orientation(c.start)[:, :, 0]    # a cable node's frame: x the tangent
    assert np.abs(np.cross(axis, tangent)).max() <= 1e-9
    assert res.orientation(hub.centre)[-1, 1, 0] > 0.01      # the hub has turned


def test_body_clamped_to_a_cable_end_turns_with_its_tangent():
    """A rigid body welded (``fixed``) to the end of a cable pendulum: its x axis stays along
    the cable's end tangent, its point at the end, and the clamp's reaction on it has no moment
    about that tangent (a cable carries no torsion) but a bending moment normal to it; the
    energy balance closes at Newmark's second order (drift ratio within [3, 5] as dt
    halves)."""
    drifts = []
    for dt in (4e-3, 2e-3):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
        c = m.add_beam(1.0, 4, **CABLE)
        m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
        r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 2e-4]), position=(1.1, 0, 0))
        weld = m.add_joint("fixed", c.end, r.point(-0.1, 0, 0))
        res = rancf.simulate(m, t_end=0.1, dt=dt, method="newmark")
        assert res.status == "ok", res.message
        e = res.energy()
        drifts.append(float(np.abs(e.total - e.total[0]).max()))
        tangent = res.orientation(c.end)[:, :, 0]
        assert np.abs(np.cross(tangent, res.orientation(r.centre)[:, :, 0])).max() <= 1e-9
        assert np.abs(res.position(c.end) - res.position(r.point(-0.1, 0, 0))).max() <= 1e-9
        moment = res.reaction(weld)[:, 3:]
        assert np.abs(np.einsum("ni,ni->n", moment, tangent)).max() <= 1e-9 * np.abs(
            moment).max()
        assert np.abs(moment[-1]).max() > 1e-4
    assert 3.0 <= drifts[0] / drifts[1] <= 5.0


@pytest.mark.parametrize("kwargs, words", [
    (dict(element="ancf"), "element must be one of ['se3-beam', 'ancf-cable']"),
    (dict(J=1e-9), "J=1e-09 does not apply to element='ancf-cable'"),
    (dict(G=8e10), "G=80000000000.0 does not apply"),
    (dict(up=(0, 1, 0)), "up=(0, 1, 0) does not apply"),
    (dict(shear=False), "shear=False does not apply"),
    (dict(kappa=(1.0, 1.0)), "kappa=(1.0, 1.0) does not apply"),
    (dict(I=(1e-9, 2e-9)), "one bending stiffness EI"),
])
def test_cable_parameters_are_refused_with_their_names(kwargs, words):
    m = rancf.Model(dim=3)
    args = dict(length=1.0, n_elements=2, **CABLE)
    args.update(kwargs)
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")
                       .replace("[", r"\[").replace("]", r"\]")):
        m.add_beam(**args)


def test_curved_cable_takes_its_geometry_from_points_and_tangents_only():
    m = rancf.Model(dim=3)
    P = np.column_stack([np.linspace(0, 1, 3), np.zeros(3), np.zeros(3)])
    with pytest.raises(ValueError, match="length=1.0 applies to a straight cable; a curved "
                                         "cable \\(points, tangents\\)"):
        m.add_beam(1.0, n_elements=2, points=P, tangents=np.tile([1.0, 0, 0], (3, 1)), **CABLE)
    with pytest.raises(ValueError, match="tangents must be unit vectors"):
        m.add_beam(n_elements=2, points=P, tangents=np.tile([2.0, 0, 0], (3, 1)), **CABLE)


def test_equal_pair_of_second_moments_is_accepted():
    m = rancf.Model(dim=3)
    c = m.add_beam(1.0, 2, **{**CABLE, "I": (1e-9, 1e-9)})
    assert c.I == 1e-9


def test_bad_joints_and_loads_at_cable_points_are_refused():
    m = rancf.Model(dim=3)
    c = m.add_beam(1.0, 2, **CABLE)
    d = m.add_beam(1.0, 2, start=(1, 0, 0), **CABLE)
    with pytest.raises(ValueError, match="joint kind 'revolute' at the cable point cable\\[0\\]"
                                         ".node\\(0\\).*\\['spherical', 'fixed'\\]"):
        m.add_joint("revolute", m.ground.point(0, 0, 0), c.start, axis=(0, 0, 1))
    with pytest.raises(ValueError, match="a joint at a cable point takes no effort"):
        m.add_joint("spherical", m.ground.point(0, 0, 0), c.start, effort=(1.0, 0.0, 0.0))
    with pytest.raises(ValueError, match=r"moment=\[0.3, 0.0, 1.0\] at the cable point "
                                         r"cable\[0\].node\(2\) has a part 0.3 N m about the "
                                         r"cable's axis .*a cable has no torsion"):
        m.add_force(c.end, moment=(0.3, 0.0, 1.0))
    # normal to the tangent within the stated 1e-9 of the moment: bending, accepted
    m.add_force(c.end, moment=(0.5e-9, 0.0, 1.0))
    with pytest.raises(ValueError, match="about the cable's axis"):
        m.add_force(c.end, moment=(2e-9, 0.0, 1.0))
    # a function: accepted here, each value held to the rule when it is called
    # (test_cable_moments.py)
    m.add_force(c.end, moment=lambda t: (0.0, 0.0, t))
    with pytest.raises(ValueError, match="follower=True at the cable point"):
        m.add_force(c.end, force=(1.0, 0, 0), follower=True)
    m.add_force(c.end, force=(0.0, 0.0, -1.0))            # a force is fine
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("fixed", c.end, d.start)
    with pytest.raises(ValueError, match="clamps a cable point to a cable point"):
        m.build()


def test_cable_model_refuses_the_recursion_only_where_it_cannot_run():
    """A cable on a spherical joint runs the recursion ('auto'); a body clamped to its end
    does not (the recursion says so and names the DAE), and 'auto' runs the DAE for it."""
    def cable():
        m = rancf.Model(dim=3)
        c = m.add_beam(1.0, 2, **CABLE)
        m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
        return m, c
    m, c = cable()
    assert rancf.simulate(m, t_end=0.01, dt=1e-3).formulation == "spatial"
    m, c = cable()
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 2e-4]), position=(1.1, 0, 0))
    m.add_joint("fixed", c.end, r.point(-0.1, 0, 0))
    with pytest.raises(ValueError, match="cannot run this model's cables: joint 1 \\(fixed\\) "
                                         "clamps a body to a cable point.*formulation 'dae'"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, formulation="recursive")
    with pytest.raises(ValueError, match="method 'rk4' is explicit.*clamps a body to a cable "
                                         "point"):
        rancf.simulate(m, t_end=0.01, dt=1e-3, method="rk4")
    with pytest.raises(ValueError, match="clamps a body to a cable point"):
        spatial.of_model(m)
    res = rancf.simulate(m, t_end=0.01, dt=1e-3)
    assert res.formulation == "dae" and "cable" in res.method_reason


def test_mixed_model_writes_vtk_with_the_cable_as_lines(tmp_path):
    """ParaView files of a run with a cable: every body and cable node a point at its stored
    position, the cable's and the beam's elements lines; a cable element carries its normal
    force (Result.internal_forces at its midpoint) and NaN for the beam's other section-frame
    components, which a cable does not have (tests/test_cable_outputs.py compares its
    moment vectors)."""
    meshio = pytest.importorskip("meshio")
    m, c, r, hook = _mixed()
    res = rancf.simulate(m, t_end=0.01, dt=1e-3, method="newmark", output_every=5)
    res.to_vtk(tmp_path)
    mesh = meshio.read(tmp_path / "result_00002.vtu")
    assert np.array_equal(mesh.points, res.nodes[2][:, :3])
    lines = mesh.cells_dict["line"]
    assert len(lines) == c.n_elements + 2
    normal = mesh.cell_data["normal_force"][0]
    assert np.isfinite(normal).all()
    assert np.array_equal(normal[:c.n_elements], res.internal_forces(c)[2, :, 0])
    torsion = mesh.cell_data["torsion"][0]
    assert np.isnan(torsion[:c.n_elements]).all() and np.isfinite(torsion[c.n_elements:]).all()


def test_curved_cable_frames_are_transported_by_the_least_rotation():
    """The reference frames along a curved cable (a helix of 1.5 turns, 60 elements) against
    the least rotations built here independently (axis ``t0 x t1``, angle
    ``atan2(|t0 x t1|, t0 . t1)``, SciPy's rotation vector): the first frame from the global
    axis least along its tangent, projected, each next the previous turned by the rotation
    taking its tangent to the next; to round-off."""
    from scipy.spatial.transform import Rotation
    n = 61
    s = np.linspace(0.0, 3.0 * np.pi, n)
    P = np.column_stack([np.cos(s), np.sin(s), 0.5 * s])
    T = np.column_stack([-np.sin(s), np.cos(s), np.full(n, 0.5)])
    T /= np.linalg.norm(T, axis=1)[:, None]
    m = rancf.Model(dim=3)
    c = m.add_beam(n_elements=n - 1, points=P, tangents=T, **CABLE)
    up = np.eye(3)[int(np.argmin(np.abs(T[0])))]
    y = up - (up @ T[0]) * T[0]
    y /= np.linalg.norm(y)
    expected = [np.column_stack([T[0], y, np.cross(T[0], y)])]
    for a, b in zip(T[:-1], T[1:]):
        axis = np.cross(a, b)
        angle = np.arctan2(np.linalg.norm(axis), a @ b)
        turn = Rotation.from_rotvec(axis / np.linalg.norm(axis) * angle).as_matrix()
        expected.append(turn @ expected[-1])
    assert np.abs(c.frames - np.array(expected)).max() <= 1e-12
    assert np.abs(c.frames[:, :, 0] - T).max() <= 1e-14
