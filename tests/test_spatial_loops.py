"""Spatial closed loops through the public API: ``rancf.simulate`` of a spatial model on the
absolute-coordinate DAE (formulation "dae", and "auto" on a model with a loop), against
independent values: the O(n) recursion of the same tree, the closed-form input-output relation of
the spherical four-bar, and the energy balance with the drive's work."""
import numpy as np
import pytest

import rancf
from validation.spherical_four_bar import SphericalFourBar


# --- the DAE against the recursion on a tree --------------------------------------------------
def beam_and_body():
    """A soft beam of two elements on a driven revolute about z (``q = a (1 - cos w t)``), a
    rigid body hanging from its end by a spherical joint, gravity along -z: the beam bends out
    of the plane the drive turns it in, the body swings in space."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    r = 0.01
    A, I = np.pi * r ** 2, np.pi * r ** 4 / 4
    beam = m.add_beam(0.4, 2, E=5e7, rho=1000.0, A=A, I=(I, I), J=2 * I, G=5e7 / 2.6,
                      direction=(1, 0, 0), up=(0, 0, 1))
    body = m.add_rigid_body(0.2, np.diag([2e-4, 3e-4, 1e-4]), position=(0.4, 0.0, -0.1))
    a, w = 0.5, 5.0
    drive = m.add_joint("revolute", m.ground.point(0, 0, 0), beam.start, axis=(0, 0, 1),
                        drive=lambda t: (a * (1 - np.cos(w * t)), a * w * np.sin(w * t),
                                         a * w * w * np.cos(w * t)))
    pin = m.add_joint("spherical", beam.end, body.point(0.0, 0.0, 0.1))
    return m, beam, body, drive, pin


def test_dae_and_recursion_converge_to_each_other_at_second_order():
    """The same tree through ``rancf.simulate`` with formulation "dae" and "recursive", both
    generalized-alpha-S at the same step: their trajectories differ by the two formulations'
    second-order errors, so the largest distance of the beam's end and the body's centre, the
    spherical joint's rotation vector (the DAE's from the poses) and the energy balance
    between the two, and the drive's reaction (the DAE's from the state's multipliers, the
    recursion's from its articulated forces) fall by about 4 when the step halves. The Results
    have the same arrays."""
    m, beam, body, drive, pin = beam_and_body()
    T = 0.3
    gaps = []
    for dt in (4e-3, 2e-3):
        runs = [rancf.simulate(m, T, dt, method="generalized-alpha-s", formulation=f,
                               output_every=int(round(0.02 / dt)), tol=1e-11)
                for f in ("dae", "recursive")]
        dae, rec = runs
        assert dae.status == rec.status == "ok"
        assert dae.formulation == "dae" and rec.formulation != "dae"
        assert dae.nodes.shape == rec.nodes.shape and dae.reactions.shape == rec.reactions.shape
        assert dae.joint_q.shape == rec.joint_q.shape
        assert np.abs(dae.extra["constraint_violation"][:, 0]).max() <= 1e-10
        # the driven angle is the drive's (the DAE's from the poses)
        assert np.abs(dae.joint(drive)[0] - 0.5 * (1 - np.cos(5 * dae.t))).max() <= 1e-9
        gaps.append([max(np.abs(dae.position(p) - rec.position(p)).max()
                         for p in (beam.end, body.centre)),
                     np.abs(dae.joint(pin)[0] - rec.joint(pin)[0]).max(),
                     np.abs(dae.energy()["total"] - rec.energy()["total"]).max(),
                     np.abs(dae.reaction(drive) - rec.reaction(drive)).max()])
    gaps = np.array(gaps)
    assert gaps[1, 0] <= 1e-5 * 0.4, gaps               # m, of a 0.4 m beam
    assert np.all(gaps[0] / gaps[1] >= 3.4), gaps


# --- the spherical four-bar -------------------------------------------------------------------
def test_rigid_spherical_four_bar_follows_the_closed_form():
    """The rigid four-bar driven through half a turn of its crank: ``formulation="auto"``
    runs the DAE (the model has a loop); the loop holds to the Newton tolerance (1e-11 m,
    the rows to 1e-10), and the output angle (the rocker's revolute, from the poses) follows
    the closed form to 1e-9 rad: the motion is kinematic (one degree of freedom, driven), so
    the step's error does not enter, only the rows' residuals over a lever of 0.2 m. The
    drive's reaction moment times its rate integrates to the drive's work (both Newmark's,
    the trapezoidal rule's error at the outputs' spacing)."""
    fb = SphericalFourBar()
    m, j_in, j_out, loop = fb.rigid()
    tree = m.build()
    assert list(tree.loop_joint) == [loop.index] and tree.joint_body[loop.index] == -1
    res = rancf.simulate(m, 1.0, 2e-2, method="newmark", output_every=1, tol=1e-11)
    assert res.status == "ok" and res.formulation == "dae"
    assert np.abs(res.extra["constraint_violation"][:, 0]).max() <= 1e-10
    theta, phi = res.joint(j_in)[0], res.joint(j_out)[0]
    assert np.abs(theta - fb.drive(res.t)[0]).max() <= 1e-9
    assert theta[-1] == pytest.approx(np.pi) and np.ptp(phi) > 0.8     # the rocker swings
    assert np.abs(phi - fb.output(theta)).max() <= 1e-9
    assert res.reaction(loop).shape == (len(res.t), 6)
    # the motor's power, its reaction moment along the axis times the drive's rate, integrated
    # over the outputs (trapezoidal rule, h = 0.02 s), is the work the loop integrated
    # (lambda . Phi_t); the velocities of an index-3 scheme hold the velocity rows only to its
    # step's error, so the crank's rate from them is the drive's to Newmark's O(h^2)
    rate = fb.drive(res.t)[1]
    assert np.abs(res.joint(j_in)[1] - rate).max() <= 1e-3 * np.abs(rate).max()
    power = (res.reaction(j_in)[:, 3:] @ fb.uA) * rate
    work = np.trapezoid(power, res.t)
    assert work > 1.0 and abs(work - res.energy().work.iloc[-1]) <= 1e-3 * work


def test_flexible_spherical_four_bar_balances_energy_and_nears_the_closed_form():
    """The four-bar of steel beams, driven from rest: the loop held to the Newton tolerance;
    kinetic + elastic + gravity - the drive's work constant to Newmark's second order (its
    largest change falls by about 4 when the step halves); the output angle within the links'
    flexibility of the rigid closed form, a bound set before the run: three times the end slope
    of the longest link as a cantilever under its weight and inertia, ``q L^3 / (6 E I)`` with
    ``q = rho A (g + R (w^2 + w'))`` (w, w' the crank's largest rate and acceleration, R the
    sphere's radius: every point of the mechanism is within R of its centre)."""
    fb = SphericalFourBar()
    m, j_in, j_out, loop = fb.flexible()
    A, I = np.pi * fb.r ** 2, np.pi * fb.r ** 4 / 4
    L = max(np.linalg.norm(fb.P[q] - fb.P[p]) for p, q in ("AB", "BC", "DC"))
    q = fb.rho * A * (9.81 + fb.R * ((np.pi ** 2 / 2) ** 2 + np.pi ** 3 / 2))
    bound = 3 * q * L ** 3 / (6 * fb.E * I)
    T, drift = 0.2, []
    for dt in (4e-3, 2e-3):
        res = rancf.simulate(m, T, dt, method="newmark", output_every=int(round(0.02 / dt)),
                             tol=1e-11)
        assert res.status == "ok" and res.formulation == "dae"
        assert np.abs(res.extra["constraint_violation"][:, 0]).max() <= 1e-10
        theta, phi = res.joint(j_in)[0], res.joint(j_out)[0]
        assert np.abs(phi - fb.output(theta)).max() <= bound
        e = res.energy()
        assert e.work.iloc[-1] > 0.5 and e.elastic.max() > 0.0     # J: it did work and bend
        drift.append(np.abs(e.total - e.total.iloc[0]).max() / e.work.iloc[-1])
    assert drift[1] <= 1e-3 and drift[0] / drift[1] >= 3.4, drift


def test_state_of_a_loop_run_continues_it():
    """``Result.state(i)`` of a DAE run (poses and velocities) starts another run: the passive
    rigid four-bar (its drive removed) falls under gravity for 0.1 s, then from that state for
    0.1 s more. The second run starts at the state's poses (to the Newton tolerance) and lands
    where one run of 0.2 s lands within the restart's change: the velocities are projected onto
    the velocity rows, which Newmark holds only to its step's error: within 0.1 % of the
    distance the mechanism moved."""
    fb = SphericalFourBar()
    fb.drive = None
    m = fb.rigid()[0]
    one = rancf.simulate(m, 0.2, 1e-2, method="newmark", output_every=10, tol=1e-12)
    first = rancf.simulate(m, 0.1, 1e-2, method="newmark", output_every=10, tol=1e-12)
    second = rancf.simulate(m, 0.1, 1e-2, method="newmark", output_every=10, tol=1e-12,
                            state=first.state(-1))
    assert one.status == first.status == second.status == "ok"
    assert np.abs(second.nodes[0] - first.nodes[-1]).max() <= 1e-10
    moved = np.abs(one.nodes[-1] - one.nodes[0]).max()
    assert moved > 1e-2                                  # m
    assert np.abs(second.nodes[-1] - one.nodes[-1]).max() <= 1e-3 * moved


# --- statics -----------------------------------------------------------------------------------
def simply_supported(n):
    """A steel bar of 1 m (2 cm square) on two revolute joints about y at its ends, the second
    closing a loop, under its weight along -z: a simply supported beam."""
    L, h, E, G, rho = 1.0, 0.02, 2.1e11, 8e10, 7800.0
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(L, n, E=E, rho=rho, A=h * h, I=(h ** 4 / 12, h ** 4 / 12), J=0.141 * h ** 4,
                   G=G, direction=(1, 0, 0), up=(0, 0, 1))
    m.add_joint("revolute", m.ground.point(0, 0, 0), b.start, axis=(0, 1, 0))
    m.add_joint("revolute", m.ground.point(L, 0, 0), b.end, axis=(0, 1, 0))
    q = rho * h * h * 9.81
    sag = 5 * q * L ** 4 / (384 * E * h ** 4 / 12) + q * L ** 2 / (8 * 5 / 6 * G * h * h)
    return m, b, q * L, sag


def test_static_of_a_loop_converges_to_the_simply_supported_beam():
    """``rancf.static`` of a model with a loop runs the spatial DAE's statics: the bar's
    midspan sag converges at second order in the element length to Timoshenko's
    ``5 q L^4 / (384 E I) + q L^2 / (8 k G A)`` (the pinned ends' membrane tension changes it
    by 1.5e-4 of it, ``T / (pi^2 E I / L^2)``), and each support carries half the weight
    (the vertical reactions, from the multipliers)."""
    errors = []
    for n in (4, 8, 16):
        m, b, weight, sag = simply_supported(n)
        res = rancf.static(m, load_steps=1)
        assert res.status == "ok" and res.formulation == "dae"
        errors.append(abs(-res.position(b.node(n // 2))[0, 2] - sag) / sag)
        for joint in m.joints:
            assert res.reaction(joint)[0, 2] == pytest.approx(weight / 2, rel=1e-10)
    assert errors[2] <= 1e-2 and errors[0] / errors[1] >= 3.5 and errors[1] / errors[2] >= 3.5, \
        errors


def test_a_loop_starts_from_its_static_equilibrium():
    """``state="static"`` on a model with a loop: the run starts at rancf.static's equilibrium
    and, passive, stays there (the sag moves by less than 1e-6 of itself over 0.05 s)."""
    m, b, weight, sag = simply_supported(4)
    eq = rancf.static(m)
    res = rancf.simulate(m, 0.05, 5e-3, method="newmark", state="static", output_every=5,
                         tol=1e-12)
    assert res.status == "ok"
    mid = res.position(b.node(2))[:, 2]
    assert mid[0] == pytest.approx(eq.position(b.node(2))[0, 2], rel=1e-12)
    assert np.abs(mid - mid[0]).max() <= 1e-6 * sag


def sprung_four_bar():
    """The flexible spherical four-bar (a drive of t) with a rotational spring-damper off its
    rest angle on the output joint and a force of t on the coupler's middle: a loop whose run
    follows reference angles and inputs of time."""
    m, j_in, j_out, loop = SphericalFourBar().flexible(2)
    m.add_rotational_spring_damper(j_out, 50.0, 0.5, rest_angle=0.2)
    m.add_force(m.beams[1].node(1), force=lambda t: (0.0, 0.0, -5.0 * (1.0 + t)))
    return m


def test_a_static_start_runs_on_the_formulation_its_statics_solved_on(monkeypatch):
    """``state="static"`` on a loop builds one spatial DAE, the one statics solves on and the
    run then runs (it built two), and its run equals, bit for bit, the run on a second DAE
    from the equilibrium that statics finds on its own DAE (``SpatialDAE.restart`` clears
    what statics leaves: its load factor and last output; the angles here stay within pi,
    where the reference angles statics leaves give the new DAE's angles)."""
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    from rancf.integrators import static as statics
    from rancf.results import result_of
    from rancf.simulate import _spatial_implicit

    built, make = [], SpatialDAE.__init__

    def counted(self, *args, **kwargs):
        built.append(self)
        make(self, *args, **kwargs)

    monkeypatch.setattr(SpatialDAE, "__init__", counted)
    m = sprung_four_bar()
    T, dt = 0.04, 2e-3
    res = rancf.simulate(m, T, dt, method="generalized-alpha", output_every=2, state="static")
    assert res.status == "ok" and res.formulation == "dae" and len(built) == 1
    eq = statics.static(m)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    assert len(built) == 3
    x0, v0 = dae.consistent_state(eq.q[-1], np.zeros(dae.n_coordinates))
    ref = result_of(m, _spatial_implicit(dae, x0, v0, T, dt, "generalized-alpha", 2,
                                         False))
    assert ref.status == "ok" and res.stats == ref.stats
    for name in ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions"):
        assert np.array_equal(getattr(res, name), getattr(ref, name)), name
    energy, ref_energy = res.energy(), ref.energy()
    for column in ("kinetic", "elastic", "gravity", "work", "dissipated"):
        assert np.array_equal(energy[column], ref_energy[column]), column
    assert np.array_equal(res.extra["constraint_violation"], ref.extra["constraint_violation"])


def test_a_static_start_keeps_the_angle_statics_turned_past_pi():
    """A body on a revolute joint about z with a rotational spring (k = 1 N m/rad, rest angle
    2.5 rad) and a moment of 1.5 N m about z, beside a loop (the simply supported bar), so
    that the model runs the spatial DAE: its equilibrium is at ``2.5 + 1.5 / k = 4`` rad,
    past pi, which the load steps reach by continuing the angle. The run from
    ``state="static"`` stays there (the spring's angle continued from statics' reference
    angles: from a new DAE's zeros it wrapped to ``4 - 2 pi``, the spring pushed the other
    way, and the body turned by 1.2 rad in 0.2 s), and its joint angle, continuous
    (DECISIONS 4), is 4 rad from the first output on, as the equilibrium's."""
    m, _, _, _ = simply_supported(2)
    body = m.add_rigid_body(1.0, np.diag([0.1, 0.1, 0.1]), position=(0.0, 2.0, 0.0))
    hinge = m.add_joint("revolute", m.ground.point(0.0, 2.0, 0.0), body.point(0.0, 0.0, 0.0),
                        axis=(0, 0, 1))
    m.add_rotational_spring_damper(hinge, 1.0, 0.0, rest_angle=2.5)
    m.add_force(body.point(0.0, 0.0, 0.0), moment=(0.0, 0.0, 1.5))
    tip = body.point(1.0, 0.0, 0.0)
    eq = rancf.static(m)
    assert eq.status == "ok"
    assert eq.joint(hinge)[0][0] == pytest.approx(4.0, abs=1e-9)
    res = rancf.simulate(m, 0.2, 5e-3, method="newmark", state="static", output_every=10)
    assert res.status == "ok" and res.formulation == "dae"
    assert np.abs(res.joint(hinge)[0] - 4.0).max() <= 1e-9
    # at rest in equilibrium: no acceleration (the spring on a wrapped stored angle would
    # turn the body at 2 pi k / I = 62.8 rad/s^2, a point 1 m off the axis at 62.8 m/s^2)
    assert np.abs(res.acceleration(tip)).max() <= 1e-9


@pytest.mark.parametrize("formulation", ["dae", "auto"])
def test_a_static_start_of_a_tree_keeps_the_angle_statics_turned_past_pi(formulation):
    """The body of the test above on its sprung revolute joint (k = 1 N m/rad, rest 2.5 rad,
    moment 1.5 N m: equilibrium at ``2.5 + 1.5 / k = 4`` rad, past pi), alone: a tree, whose
    statics run the recursion. The run from ``state="static"`` stays there on the spatial DAE
    named (its reference angles start on the recursion's continued angles: from a new DAE's
    zeros the spring saw ``4 - 2 pi`` and the body turned by 1.2 rad in 0.2 s) as on the
    recursion ("auto"). The body's frame (independent of how the angle is counted) stays
    turned by 4 rad about z, at rest, and the spring's energy is ``k (4 - 2.5)^2 / 2``."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    body = m.add_rigid_body(1.0, np.diag([0.1, 0.1, 0.1]), position=(0.0, 2.0, 0.0))
    hinge = m.add_joint("revolute", m.ground.point(0.0, 2.0, 0.0), body.point(0.0, 0.0, 0.0),
                        axis=(0, 0, 1))
    m.add_rotational_spring_damper(hinge, 1.0, 0.0, rest_angle=2.5)
    m.add_force(body.point(0.0, 0.0, 0.0), moment=(0.0, 0.0, 1.5))
    eq = rancf.static(m)
    assert eq.status == "ok" and eq.joint(hinge)[0][0] == pytest.approx(4.0, abs=1e-9)
    res = rancf.simulate(m, 0.2, 5e-3, method="newmark", formulation=formulation,
                         state="static", output_every=4)
    assert res.status == "ok" and res.formulation == {"dae": "dae", "auto": "spatial"}[formulation]
    c, s = np.cos(4.0), np.sin(4.0)
    turned = np.broadcast_to([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], (len(res.t), 3, 3))
    np.testing.assert_allclose(res.orientation(body.centre), turned, rtol=0, atol=1e-8)
    assert np.abs(res.joint(hinge)[0] - 4.0).max() <= 1e-8  # continuous: DECISIONS 4
    assert np.abs(res.angular_velocity(body.centre)).max() <= 1e-8
    assert res.energy()["elastic"].to_numpy() == pytest.approx(0.5 * 1.5**2, abs=1e-8)


# --- what is refused ------------------------------------------------------------------------
def test_loops_and_the_dae_refuse_what_they_cannot_run():
    fb = SphericalFourBar()
    m, j_in, j_out, loop = fb.rigid()
    with pytest.raises(ValueError, match="closed loop needs formulation 'dae' or 'auto'"):
        rancf.simulate(m, 0.1, 1e-2, formulation="recursive")
    with pytest.raises(ValueError, match="'rk4' is explicit"):
        rancf.simulate(m, 0.1, 1e-2, method="rk4")
    # statics of the loop hold the drive at q(0): the ground's two joints carry the weight
    eq = rancf.static(m)
    assert eq.status == "ok"
    support = eq.reaction(j_in)[0, :3] + eq.reaction(j_out)[0, :3]
    np.testing.assert_allclose(support, [0.0, 0.0, (1.0 + 1.5 + 1.2) * 9.81], rtol=0,
                               atol=1e-10)
    tree_model = beam_and_body()[0]
    with pytest.raises(ValueError, match="'dopri5' is explicit"):
        rancf.simulate(tree_model, 0.1, 1e-2, method="dopri5", formulation="dae")
    with pytest.raises(ValueError, match="linear_solver"):
        rancf.simulate(tree_model, 0.1, 1e-2, method="newmark", formulation="dae",
                       linear_solver="dense")


def test_auto_method_on_a_loop_is_generalized_alpha_s():
    fb = SphericalFourBar()
    m = fb.rigid()[0]
    res = rancf.simulate(m, 0.04, 2e-2)
    assert res.status == "ok" and res.formulation == "dae"
    assert res.method == "generalized-alpha-s" and "closed loop" in res.method_reason


def test_modes_of_a_loop_converge_to_the_beam_on_two_hinges():
    """``rancf.modes`` of a model with a loop runs on the spatial DAE (null space of the
    constraints, the Euler parameters' norms among them): the bar on two revolute joints about
    y (Euler-Bernoulli, no gravity) is pinned-pinned for bending in its vertical plane,
    ``pi^2 sqrt(E I / (rho A)) / (2 pi L^2)``, and clamped-clamped in the horizontal one (the
    hinges hold the turn about z), ``4.7300408^2 sqrt(E I / (rho A)) / (2 pi L^2)``. Each is
    told by its shape (vertical or horizontal motion of the midspan node) and converges at
    second order in the element length (lumped rotary inertia and constant-strain elements) to
    the analytic value: the Richardson extrapolation of the two finer meshes, ``f_16 + (f_16 -
    f_8) / 3``, is at least four times closer to it than ``f_16``."""
    L, h, E, G, rho = 1.0, 0.02, 2.1e11, 8e10, 7800.0
    c = np.sqrt(E * h ** 4 / 12 / (rho * h * h)) / (2 * np.pi * L ** 2)
    exact = {"z": np.pi ** 2 * c, "y": 4.7300408 ** 2 * c}
    errors = []
    for n in (4, 8, 16):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        b = m.add_beam(L, n, E=E, rho=rho, A=h * h, I=(h ** 4 / 12, h ** 4 / 12),
                       J=0.141 * h ** 4, G=G, shear=False, direction=(1, 0, 0), up=(0, 0, 1))
        m.add_joint("revolute", m.ground.point(0, 0, 0), b.start, axis=(0, 1, 0))
        m.add_joint("revolute", m.ground.point(L, 0, 0), b.end, axis=(0, 1, 0))
        found = rancf.modes(m, n=4)
        assert not found.rigid.any()
        mid = found.shapes.reshape(len(found), -1, 6)[:, n // 2, :3]
        row = {}
        for axis, k in (("y", 1), ("z", 2)):
            k_mode = int(np.argmax(np.abs(mid[:, k]) - np.abs(mid[:, 3 - k])))
            row[axis] = found.frequencies[k_mode] / exact[axis] - 1.0
        errors.append([row["z"], row["y"]])
    errors = np.array(errors)
    assert (errors[0] / errors[1] > 3.0).all() and (errors[1] / errors[2] > 3.0).all(), errors
    extrapolated = errors[2] + (errors[2] - errors[1]) / 3.0
    assert (np.abs(extrapolated) < np.abs(errors[2]) / 4.0).all(), (extrapolated, errors)


def test_a_loop_mode_moves_as_its_shape():
    """``Modes.motion`` of a loop model: the frames come from the spatial DAE's coordinates;
    the hinged ends stay where the hinges hold them (the constraint rows are linearized, so to
    second order in the amplitude) while the midspan moves. The mode is near ``W sin(pi x /
    L)``, whose end rotation ``pi W / L`` is its largest motion (a rotation counts times the
    model size, 1 m), so ``scale`` 1e-3 gives a midspan swing ``2 W`` of about ``2e-3 / pi``
    (the four elements' shape within 10 %)."""
    m, b, weight, sag = simply_supported(4)
    found = rancf.modes(m, n=1)
    motion = found.motion(0, scale=1e-3, n_frames=8)
    ends = np.concatenate([motion.position(b.start), motion.position(b.end) - [1.0, 0, 0]])
    assert np.abs(ends).max() < 1e-6
    mid = motion.position(b.node(2))[:, 2]
    assert np.ptp(mid) == pytest.approx(2e-3 / np.pi, rel=0.1)


@pytest.mark.parametrize("n", [4, 8, 16])
def test_statics_of_a_cable_standing_between_two_pins_is_not_ok_unstable(n):
    """A 1 m cable (EA = 1e3 N, EI = 1e-3 N m^2, rho A = 0.1 kg/m) drawn straight up between
    pins at z = 0 and z = 1 m (the spatial DAE: the recursion cannot run a cable pinned at
    both ends): its weight compresses its lower part, which its bending cannot hold
    straight. Statics' load steps reach that straight equilibrium; it must leave it for a
    stable one ('ok', which rancf.modes there, the dense linearization on the constraints'
    null space, accepts: no negative omega^2, a zero one the bulged cable's free turn about
    the line through the pins) or fail saying it is unstable (rancf.modes refuses the
    state)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(1.0, n, E=1e6, rho=100.0, A=1e-3, I=1e-9, element="ancf-cable",
                   direction=(0.0, 0.0, 1.0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(0, 0, 1), c.end)
    res = rancf.static(m)
    if res.status == "ok":
        assert np.all(rancf.modes(m, state=res.state(0), n=3).frequencies >= 0.0)
    else:
        assert "unstable" in res.message, res.message
        with pytest.raises(ValueError, match="unstable"):
            rancf.modes(m, state=res.state(0), n=3)
