"""Joint kinds as plug-ins (rancf.joints) and the integer codes defined once (rancf/joints/_codes.pxd).

The slot joint below is a kind of this test module only: its class plus one registration line,
no edit in rancf/. It holds the child's point on a line of the parent through the parent's point
(the rail, as a prismatic joint's) and leaves the angle free; its coordinate is the slide (m).
It is checked against physics (energy and horizontal momentum of a body swinging from a
horizontal slot) and against the prismatic joint (a body held on the rail by two slots cannot
turn, so it slides as on a prismatic joint). Being a composition of the primitives, it runs on
the recursion too (its maps composed of a rail's and a free direction's), checked against the
DAE formulation (accelerations, joint coordinates, reactions, at random states), against
conservation of energy (RK4, Newmark) and, for the implicit recursion, against its own Newton
matrix; with it the "swivel", a rail whose coordinate is the angle (driven, a rail with the
direction held at q(t)), the composition of the primitives no built-in kind has.
"""
import pathlib
import re

import numpy as np
import pytest

import rancf
from models import AREA, E, INERTIA, RHO, R, random_state
from test_formulations import FirstMatrix, dae_accelerations
from rancf.formulations import recursive
from rancf.formulations._forces import ForceKernel
from rancf.formulations.dae import DAE
from rancf.joints import REGISTRY, JointKind, register, unregister
from rancf.joints._codes import ANGLE, DIRECTION_FREE, ON_RAIL, SLIDE
from rancf.model import Assembly

ROOT = pathlib.Path(rancf.__file__).parent


class Slot(JointKind):
    """The child's point on the parent's rail, the angle free; q the slide (m)."""

    name = "slot"
    position = ON_RAIL
    direction = DIRECTION_FREE
    coordinate = SLIDE
    parameters = ("axis", "drive", "effort")
    style = dict(marker="^", markersize=7, markerfacecolor="white", markeredgecolor="k")


class Swivel(JointKind):
    """The child's point on the parent's rail, the angle free; q the relative angle (rad)."""

    name = "swivel"
    position = ON_RAIL
    direction = DIRECTION_FREE
    coordinate = ANGLE
    parameters = ("axis", "drive", "effort")


class RuledOut(Slot):
    """A slot that says the recursion cannot run it (as a kind whose DAE rows are not its
    primitives' would)."""

    name = "ruled-out"
    recursion_reason = "its rows are not its primitives'"


@pytest.fixture
def slot():
    """The slot kind registered for one test, and removed after it."""
    register(Slot)
    yield
    unregister("slot")


@pytest.fixture
def kinds():
    """The slot and the swivel registered for one test, and removed after it."""
    register(Slot)
    register(Swivel)
    yield
    unregister("slot")
    unregister("swivel")


def swinging_body(length=0.5, angle=1.0, mass=2.0, inertia=0.05, effort=None):
    """A rigid body hanging from a horizontal ground slot at its point (0, length) (body frame),
    released from rest with its axis at ``angle`` (rad) from horizontal; ``effort`` (N) in the
    slot."""
    m = rancf.Model(gravity=(0.0, -9.81))
    u = np.array([np.cos(angle), np.sin(angle)])
    # r_G + A(d) u = 0 for d = (0, L): A(d) u = L (-u_y, u_x)
    centre = -length * np.array([-u[1], u[0]])
    body = m.add_rigid_body(mass, inertia, position=tuple(centre), angle=angle)
    m.add_joint("slot", m.ground.point(0.0, 0.0), body.point(0.0, length), effort=effort)
    return m, body


def test_slot_is_refused_unless_registered():
    assert "slot" not in REGISTRY
    m = rancf.Model()
    b = m.add_rigid_body(1.0, 0.1)
    with pytest.raises(ValueError, match=r"kind must be one of \['fixed', 'prismatic', 'revolute'\]"):
        m.add_joint("slot", m.ground.point(0.0, 0.0), b.centre)


def test_slot_takes_the_parameters_it_declares(slot):
    m = rancf.Model()
    b = m.add_rigid_body(1.0, 0.1)
    with pytest.raises(ValueError, match="axis applies to prismatic, slot joints only"):
        m.add_joint("revolute", m.ground.point(0.0, 0.0), b.centre, axis=0.2)
    j = m.add_joint("slot", m.ground.point(0.0, 0.0), b.centre, axis=0.2, effort=1.0)
    assert j.type.unit == "m" and j.type.effort_unit == "N"


def test_a_kind_with_a_recursion_reason_runs_the_dae_and_refuses_the_recursion():
    register(RuledOut)
    try:
        m = rancf.Model(gravity=(0.0, -9.81))
        body = m.add_rigid_body(2.0, 0.05, position=(0.0, -0.5))
        m.add_joint("ruled-out", m.ground.point(0.0, 0.0), body.point(0.0, 0.5))
        reason = Assembly(m).recursive_reason
        assert reason.startswith("joint 0 (ruled-out): its rows are not its primitives'")
        with pytest.raises(ValueError, match=r"joint 0 \(ruled-out\): its rows are not"):
            rancf.simulate(m, 0.01, 1e-3, method="newmark", formulation="recursive")
        res = rancf.simulate(m, 0.01, 1e-3, method="newmark")    # "auto": the DAE
        assert res.formulation == "dae" and np.all(np.isfinite(res.nodes))
    finally:
        unregister("ruled-out")


def body_run(m, dt, t_end, method):
    """The DAE: in absolute coordinates the body's centre of mass obeys m x_G'' = (the x
    forces), linear, which the schemes integrate exactly (to the Newton tolerance) under a
    constant force; in the recursion's joint coordinates x_G is nonlinear in them and holds only
    to the step's error."""
    res = rancf.simulate(m, t_end, dt, method=method, output_every=1, tol=1e-12,
                         formulation="dae")
    centre = res.nodes[:, -1, :2]          # the body's vertex: [r_G, u]
    velocity = res.velocities[:, -1, :2]
    return res, centre, velocity


@pytest.mark.parametrize("method", ["newmark", "generalized-alpha"])
def test_slot_pendulum_conserves_energy_and_horizontal_momentum(slot, method):
    """No horizontal force acts on the body (the slot's reaction is normal to its horizontal
    rail, gravity vertical): its centre of mass keeps its x velocity (0, from rest) and x
    position while the pivot slides; no force does work, so kinetic + gravity energy is
    constant, and a second-order scheme's error in it falls as dt^2."""
    m, body = swinging_body()
    drifts = []
    for dt in (2e-3, 1e-3):
        res, centre, velocity = body_run(m, dt, 0.6, method)
        # the pivot slides back and forth (else the momentum check were empty)
        q, _ = res.joint(0)
        assert np.ptp(q) > 0.1
        assert np.abs(velocity[:, 0]).max() < 1e-9 * np.abs(velocity).max()
        assert np.abs(centre[:, 0] - centre[0, 0]).max() < 1e-10
        drifts.append(res.energy_drift())
    assert drifts[0] < 1e-2
    ratio = drifts[0] / drifts[1]
    assert 3.0 < ratio < 5.0, (drifts, ratio)


def test_slot_effort_is_a_force_along_its_rail(slot):
    """An effort f in the slot pushes the child's point along the rail (and the ground back):
    the only horizontal force on the body, so its centre of mass moves as x_G(t) = x_G(0) +
    f t^2 / (2 m); the effort's work enters the energy balance, which closes as dt^2."""
    f, mass = 1.5, 2.0
    m, _ = swinging_body(mass=mass, effort=f)
    drifts = []
    for dt in (2e-3, 1e-3):
        res, centre, _ = body_run(m, dt, 0.6, "newmark")
        expected = centre[0, 0] + f * res.t ** 2 / (2.0 * mass)
        assert np.abs(centre[:, 0] - expected).max() < 1e-9
        assert res.energy().work.iloc[-1] > 0.1
        drifts.append(res.energy_drift())
    assert 3.0 < drifts[0] / drifts[1] < 5.0, drifts


def sliding_block(kind_pairs, rail=np.pi / 6, half=0.2):
    """A body of axis along an inclined rail through the origin (angle ``rail``), under gravity:
    held on the rail by a prismatic joint (``kind_pairs`` "prismatic") or by two slots at body
    points ``(-half, 0)`` and ``(half, 0)`` (``"slots"``)."""
    m = rancf.Model(gravity=(0.0, -9.81))
    a = np.array([np.cos(rail), np.sin(rail)])
    body = m.add_rigid_body(3.0, 0.04, position=tuple(half * a), angle=rail)
    if kind_pairs == "prismatic":
        m.add_joint("prismatic", m.ground.point(0.0, 0.0, angle=rail), body.point(-half, 0.0))
    else:
        m.add_joint("slot", m.ground.point(0.0, 0.0, angle=rail), body.point(-half, 0.0))
        m.add_joint("slot", m.ground.point(*(2 * half * a), angle=rail), body.point(half, 0.0))
    return m


def test_two_slots_on_a_rail_slide_as_a_prismatic_joint(slot):
    """Two slots on one rail hold the body's angle (a closed loop, run by the DAE): the body
    slides as on a prismatic joint, whose rows are different (one rail row and a held angle)."""
    runs = {}
    for kind in ("prismatic", "slots"):
        runs[kind] = rancf.simulate(sliding_block(kind), 0.4, 1e-3, method="generalized-alpha",
                                    formulation="dae", output_every=10, tol=1e-13)
    a, b = runs["prismatic"], runs["slots"]
    assert np.ptp(a.nodes[:, -1, 0]) > 0.1       # it slides
    assert np.abs(a.nodes - b.nodes).max() < 1e-10
    assert np.abs(a.velocities - b.velocities).max() < 1e-10
    # the slide of the first slot is the prismatic joint's coordinate
    assert np.abs(a.joint(0)[0] - b.joint(0)[0]).max() < 1e-10
    # free fall along the rail: s = g sin(rail) t^2 / 2
    s = 0.5 * 9.81 * np.sin(np.pi / 6) * a.t ** 2
    assert np.abs(a.joint(0)[0] + s).max() < 1e-4 * s.max()


# --- the slot and the swivel on the recursion ---------------------------------------------------
def slot_tree(driven):
    """Every composition of a rail with a free direction, on rigid and beam children and
    parents: rigid r1 on a ground slot (tilted rail, a spring-damper effort, or driven); beam b1
    on a slot of r1 (driven: the slide); rigid r2 on a slot at b1's end (constant effort); beam
    b2 on a slot at b1's end (three rates: the slide and the slope's two); rigid r3 and beam b3
    on swivels of b1's interior node and of r1 (driven: their angles, rails with the direction
    held at q(t)). Gravity tilted."""
    m = rancf.Model(gravity=(0.3, -9.81))
    c0 = R(0.4) @ [0.1, 0.0]
    r1 = m.add_rigid_body(1.0, 0.02, position=tuple(c0), angle=0.4)
    wave = (lambda a, w: lambda t: (a * np.sin(w * t), a * w * np.cos(w * t),
                                    -a * w * w * np.sin(w * t)))
    m.add_joint("slot", m.ground.point(0.0, 0.0, angle=0.2), r1.point(-0.1, 0.0), axis=0.1,
                effort=None if driven else (lambda t, q, qd: -20.0 * q - 0.3 * qd),
                drive=wave(0.05, 3.0) if driven else None)
    c1 = c0 + R(0.4) @ [0.05, 0.02]
    b1 = m.add_beam(0.6, 2, E, RHO, AREA, INERTIA, start=tuple(c1), angle=-0.8)
    m.add_joint("slot", r1.point(0.05, 0.02), b1.start, axis=0.5,
                drive=wave(0.02, 2.0) if driven else None)
    end = b1.reference_nodes()[-1, :2]
    r2 = m.add_rigid_body(0.4, 0.005, position=tuple(end + R(0.3) @ [0.1, 0.0]), angle=0.3)
    m.add_joint("slot", b1.end, r2.point(-0.1, 0.0), axis=0.2, effort=0.4)
    b2 = m.add_beam(0.5, 2, E, RHO, AREA, INERTIA, start=tuple(end), angle=1.4)
    m.add_joint("slot", b1.end, b2.start)
    r3 = m.add_rigid_body(0.3, 0.004, position=tuple(b1.reference_nodes()[1, :2]), angle=-0.2)
    # swivel angles: the child's orientation minus the parent's, -0.2 - (-0.8) and 2.0 - 0.4
    m.add_joint("swivel", b1.node(1), r3.centre, axis=0.7,
                drive=(lambda t: (0.6 + 0.3 * t * t, 0.6 * t, 0.6)) if driven else None)
    b3 = m.add_beam(0.4, 2, E, RHO, AREA, INERTIA, start=tuple(c1), angle=2.0)
    m.add_joint("swivel", r1.point(0.05, 0.02), b3.start, axis=-0.3,
                drive=(lambda t: (1.6 + 0.2 * t * t, 0.4 * t, 0.4)) if driven else None)
    return m


@pytest.mark.parametrize("driven", [False, True])
def test_slot_and_swivel_accelerations_and_reactions_equal_the_dae(kinds, driven):
    """The recursion's composed maps against the DAE's constraint rows (two independent
    derivations), at random states that satisfy every joint: accelerations to 1e-10 of their
    largest (DECISIONS 7), joint coordinates and rates, and the reactions of the driven
    joints (the recursion's ``bh^T (H A - f)`` against the DAE's multipliers)."""
    m = slot_tree(driven)
    A = m.build()
    assert A.recursive_reason is None
    rec, dae = recursive.of(A), DAE(A, "dense")
    first = rec.tables["joint"] >= 0
    # b2 on its slot: the slide and the slope's two rates; undriven, b1 and b3 too
    assert rec.tables["nb"][first].max() == 3
    rng = np.random.default_rng(11)
    for t in (0.3, 1.7):
        y, x, v = random_state(m, rng, t)
        a, lam = dae_accelerations(dae, x, v, t)
        assert np.abs(rec.accelerations(t, y) - a).max() <= 1e-10 * np.abs(a).max()
        _, _, q, qd, reaction = rec.outputs(t, y)
        seen = dae.observe(x, v, t, lam)
        assert np.allclose(seen["joint_q"], q, rtol=0, atol=1e-14)
        assert np.allclose(seen["joint_qd"], qd, rtol=0, atol=1e-12)
        assert (np.abs(reaction) > 1e-3).sum() == (4 if driven else 0)
        assert np.allclose(seen["reactions"], reaction, rtol=1e-10, atol=1e-12)


def test_slot_tree_on_the_recursion_closes_its_energy_balance(kinds):
    """RK4 on the undriven slot tree (slots and swivels on bodies and beams, a beam child with
    three rates, efforts whose work enters the balance): kinetic + elastic + gravity energy
    minus the efforts' work stays constant to 1e-10 of the kinetic energy (measured 1.6e-12 at
    this step, 5.7e-14 at half of it: RK4's error, fourth order, near rounding), while every
    joint moves. A wrong map or bias leaves an error independent of the step."""
    m = slot_tree(False)
    res = rancf.simulate(m, 0.2, 4e-5, method="rk4", formulation="recursive", output_every=100)
    assert res.status == "ok" and res.formulation == "recursive"
    assert min(np.ptp(res.joint(j)[0]) for j in range(6)) > 0.01
    assert res.energy().work.iloc[-1] > 0.01
    assert res.energy_drift() < 1e-10


def test_slot_pendulum_on_the_recursion_conserves_energy_at_fourth_order(slot):
    """RK4 on the recursion: the swinging body's energy error and its centre's horizontal
    velocity (0 exactly, no horizontal force) fall as dt^4 (ratio 16 per halving), while the
    pivot slides."""
    drifts, momenta = [], []
    for dt in (4e-3, 2e-3, 1e-3):
        m, _ = swinging_body()
        res = rancf.simulate(m, 0.6, dt, method="rk4", formulation="recursive", output_every=1)
        assert res.formulation == "recursive" and np.ptp(res.joint(0)[0]) > 0.1
        drifts.append(res.energy_drift())
        momenta.append(np.abs(res.velocities[:, -1, 0]).max())
    assert drifts[-1] < 1e-7 and momenta[-1] < 1e-7
    for errors in (drifts, momenta):
        ratios = np.array(errors[:-1]) / np.array(errors[1:])
        assert np.all((ratios > 10.0) & (ratios < 20.0)), (errors, ratios)


def test_slot_pendulum_on_the_implicit_recursion_conserves_energy_at_second_order(slot):
    """Newmark on the recursion (implicit RANCF in the joints' coordinates, the slide and the
    body's angle) stays second order: the energy error falls as dt^2."""
    drifts = []
    for dt in (2e-3, 1e-3):
        m, _ = swinging_body()
        res = rancf.simulate(m, 0.6, dt, method="newmark", formulation="recursive", tol=1e-12,
                             output_every=1)
        assert res.formulation == "recursive" and np.ptp(res.joint(0)[0]) > 0.1
        drifts.append(res.energy_drift())
    assert drifts[0] < 1e-2
    assert 3.0 < drifts[0] / drifts[1] < 5.0, drifts


@pytest.mark.parametrize("driven", [False, True])
def test_slot_newton_matrix_is_the_one_the_elimination_solves(kinds, driven):
    """The implicit recursion's Newton matrix on the slot tree, assembled column by column,
    times the block solves of the unit vectors gives the identity (the 3 x 3 pivot block of the
    slot's beam child included), under generalized-alpha from a random velocity."""
    A = slot_tree(driven).build()
    y0 = recursive.of(A).initial_state()
    problem = recursive.implicit_problem(A, y0)
    q0 = problem.theta(y0)
    probe = FirstMatrix()
    sol = rancf.implicit.integrate(problem, q0, np.random.default_rng(5).standard_normal(q0.size),
                                   1e-3, 1e-3, method="generalized-alpha", solver=probe)
    assert sol.status == "ok"
    assert np.abs(probe.assembled @ probe.inverse - np.eye(q0.size)).max() < 1e-12


def test_slot_is_drawn_with_its_marker_and_rail(slot):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    m, _ = swinging_body()
    ax = m.plot()
    joints = [line for line in ax.lines if line.get_gid() == "joints slot"]
    assert len(joints) == 1 and joints[0].get_marker() == "^"
    assert [line for line in ax.lines if line.get_gid() == "rails"]


# --- integer codes, defined once ------------------------------------------------------------
OLD_CODES = ("P_GROUND|P_NODE|P_BODY|J_REVOLUTE|J_PRISMATIC|J_FIXED|FREE|BEAM_REV|BEAM_POLAR|"
             "BEAM_PRISM|BODY_REV|BODY_POLAR|BODY_PRISM|CONSTANT|COS|SIN|LINEAR|GROUND|NODE|BODY|"
             "REVOLUTE|PRISMATIC|FIXED|KINDS")


def test_no_code_table_is_written_outside_codes_pxd():
    """Every joint, point, recursion and constraint-term code is assigned in
    rancf/joints/_codes.pxd only: no ``NAME = 0``, ``A, B, C = range(3)``, ``KINDS = {...}``
    anywhere else in rancf/, nor a plain ``cdef enum`` in the joints' and formulations' Cython
    files (Python cannot see one, so its values get copied by hand; a ``cpdef enum`` of a .pxd,
    mirrored to Python, is defined once, as the contract's ODEStatus of _problem.pxd)."""
    assignment = re.compile(rf"^\s*(?:(?:{OLD_CODES})\s*,\s*)*(?:{OLD_CODES})\s*=(?!=)", re.M)
    offenders = []
    for path in sorted(ROOT.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd") or path.name == "_codes.pxd":
            continue
        text = path.read_text()
        if assignment.search(text):
            offenders.append(str(path.relative_to(ROOT)))
        if (path.suffix != ".py" and path.parent.name in ("joints", "formulations")
                and re.search(r"^cdef enum", text, re.M)):
            offenders.append(f"{path.relative_to(ROOT)} (enum)")
    assert offenders == []


def test_python_codes_are_the_kernels_codes():
    """The codes Python writes into the kernel arrays (the point kinds, a kind's coordinate) make
    the compiled kernel compute what they name: at a moved state, the joint coordinates from the
    kernel equal those computed here in NumPy from the geometry (a body point's position
    ``r_G + A(d) u``; a prismatic joint's slide along its rail, a revolute joint's angle), and
    their rates central differences of them."""
    m = rancf.Model()
    body = m.add_rigid_body(1.0, 0.1, position=(0.3, 0.0))
    beam = m.add_beam(1.0, 2, E=2e9, rho=7800.0, A=1e-4, I=1e-9, start=(0.3, 0.0))
    m.add_joint("prismatic", m.ground.point(0.0, 0.0, angle=0.2), body.point(-0.3, 0.0),
                axis=0.1)
    m.add_joint("revolute", body.point(0.0, 0.0), beam.start)
    A = Assembly(m)
    rng = np.random.default_rng(3)
    x = A.x0 + 0.05 * rng.standard_normal(A.n_x)
    v = rng.standard_normal(A.n_x)

    def coordinates(x):
        X = x.reshape(-1, 4)
        r_G, u = X[A.body_vertex[0], :2], X[A.body_vertex[0], 2:]
        point = r_G + np.array([[-0.3, 0.0], [0.0, -0.3]]) @ u        # A(d) u, d = (-0.3, 0)
        rail = np.array([np.cos(0.3), np.sin(0.3)])                     # ground 0.2 + axis 0.1
        c = X[A.beam_first_vertex[0], 2:]
        return np.array([point @ rail, np.arctan2(u[0] * c[1] - u[1] * c[0], u @ c)])

    q, qd = np.zeros(2), np.zeros(2)
    ForceKernel(A).joint_coordinates(x, v, np.zeros(2), q, qd)
    h = 1e-6
    assert np.abs(q - coordinates(x)).max() < 1e-14
    assert np.abs(qd - (coordinates(x + h * v) - coordinates(x - h * v)) / (2 * h)).max() < 1e-7
