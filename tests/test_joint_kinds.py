"""Joint kinds as plug-ins (rancf.joints) and the integer codes defined once (rancf/joints/_codes.pxd).

The slot joint below is a kind of this test module only: its class plus one registration line,
no edit in rancf/. It holds the child's point on a line of the parent through the parent's point
(the rail, as a prismatic joint's) and leaves the angle free; its coordinate is the slide (m).
It is checked against physics (energy and horizontal momentum of a body swinging from a
horizontal slot) and against the prismatic joint (a body held on the rail by two slots cannot
turn, so it slides as on a prismatic joint).
"""
import pathlib
import re

import numpy as np
import pytest

import rancf
from rancf.formulations._forces import ForceKernel
from rancf.joints import REGISTRY, JointKind, register, unregister
from rancf.joints._codes import DIRECTION_FREE, ON_RAIL, SLIDE
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
    recursion_reason = ("the recursion has maps for a point on a rail with a held angle only "
                        "(prismatic), not with a free one")


@pytest.fixture
def slot():
    """The slot kind registered for one test, and removed after it."""
    register(Slot)
    yield
    unregister("slot")


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


def test_slot_without_recursion_maps_runs_the_dae_and_refuses_the_recursion(slot):
    m, _ = swinging_body()
    reason = Assembly(m).recursive_reason
    assert reason.startswith("joint 0 (slot): the recursion has maps for a point on a rail")
    with pytest.raises(ValueError, match=r"joint 0 \(slot\): the recursion has maps"):
        rancf.simulate(m, 0.01, 1e-3, method="newmark", formulation="recursive")
    res = rancf.simulate(m, 0.01, 1e-3, method="newmark")    # "auto": the DAE
    assert np.all(np.isfinite(res.nodes))


def body_run(m, dt, t_end, method):
    res = rancf.simulate(m, t_end, dt, method=method, output_every=1, tol=1e-12)
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
