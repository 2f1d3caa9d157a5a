"""Spatial joint kinds as plug-ins: a new composition of the primitives, no edit in rancf/.

A spatial kind is a translation primitive times a rotation primitive (rancf.joints.kind.
SpatialMotion; T_NONE, T_AXIS, T_FREE times R_NONE, R_AXIS, R_TWO_AXES, R_VECTOR), and every
spatial kernel switches on the primitives. The two kinds below are compositions no built-in kind
has, each its class plus one registration line (the fixture): the "point on a line" (T_AXIS,
R_VECTOR; the child's point slides along a line of the parent, its rotation free; q = slide (m)
then a rotation vector (rad), four coordinates) and the "translational" joint (T_FREE, R_NONE;
the child translates, its orientation held; q = the translation (m), three coordinates). A chain
of the two is checked against the spatial DAE (the same tree in a formulation that shares only
the tree with the recursion: accelerations and reactions at a random state, and positions of a
run), and against conservation of energy (RK4 at two steps).
"""
import numpy as np
import pytest

import rancf
from rancf.formulations.spatial import Spatial
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.joints import JointKind, register, unregister
from rancf.joints._codes import (R_NONE, R_VECTOR, T_AXIS, T_FREE, Rotation, Translation,
                                 rotation_coordinates, translation_coordinates)
from rancf.joints.kind import SpatialMotion
from validation.spatial_trees import dae_against_recursion


class PointOnLine(JointKind):
    """The child's point on a line of the parent along ``axis``, the rotation free."""

    name = "point-on-line"
    planar = False
    style = dict(marker="v", markersize=8, markerfacecolor="white", markeredgecolor="k")
    spatial = SpatialMotion(T_AXIS, R_VECTOR)


class Translational(JointKind):
    """The child translates freely, its orientation held relative to the parent's."""

    name = "translational"
    planar = False
    style = dict(marker="s", markersize=7, markerfacecolor="white", markeredgecolor="k")
    spatial = SpatialMotion(T_FREE, R_NONE)


@pytest.fixture
def kinds():
    """The two kinds registered for one test, and removed after it."""
    register(PointOnLine)
    register(Translational)
    yield
    unregister("point-on-line")
    unregister("translational")


#: the translational joint's spring, an effort (N/m): a force vector in the parent's frame on
#: the translation q
K = 40.0


def spring(t, q, qd):
    return -K * q


def chain():
    """A body on an inclined line of the ground (point-on-line, off its centre, so that it
    slides, swings and spins), a second body hung from it by a translational joint with a
    spring effort; gravity."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    a = m.add_rigid_body(1.2, np.diag([0.02, 0.03, 0.015]), position=(0.0, 0.1, -0.4))
    m.add_joint("point-on-line", m.ground.point(0.0, 0.0, 0.0), a.point(0.0, -0.1, 0.4),
                axis=(0.8, 0.0, 0.6))
    b = m.add_rigid_body(0.5, np.diag([0.004, 0.005, 0.006]), position=(0.05, 0.1, -0.9))
    m.add_joint("translational", a.point(0.05, 0.0, -0.2), b.point(0.0, 0.0, 0.3),
                effort=spring)
    return m, a, b


def test_the_kinds_are_their_primitives(kinds):
    """Axes, units and coordinates follow from the primitives; the tree stores each link's
    composition, and the coordinates add up."""
    assert PointOnLine.spatial.units == ("m", "rad", "rad", "rad")
    assert PointOnLine.spatial.axes == 1 and Translational.spatial.axes == 0
    assert Translational.spatial.units == ("m", "m", "m")
    # the counts the kernels use (_codes.pxd): t = 0, q a0, q[0:3]; R = I, exp(q a0^),
    # exp(q0 a0^) exp(q1 a1^), exp(q^)
    assert [translation_coordinates(t) for t in Translation] == [0, 1, 3]
    assert [rotation_coordinates(r) for r in Rotation] == [0, 1, 2, 3]
    m, a, b = chain()
    tree = m.build()
    assert list(np.diff(tree.q_offset)) == [4, 3]
    assert list(tree.motion) == [PointOnLine.spatial.code, Translational.spatial.code]
    with pytest.raises(ValueError, match="a point-on-line joint needs axis"):
        chain_without_axis = rancf.Model(dim=3)
        r = chain_without_axis.add_rigid_body(1.0, np.eye(3) * 0.01)
        chain_without_axis.add_joint("point-on-line", chain_without_axis.ground.point(0, 0, 0),
                                     r.point(0, 0, 0))


@pytest.mark.parametrize("seed", range(3))
def test_accelerations_and_reactions_equal_the_dae(kinds, seed):
    """At a random state of the recursion (coordinates in [-1, 1], rates in [-2, 2]), mapped to
    the DAE's absolute coordinates: the constraints hold to round-off and the DAE's body
    accelerations and joint reactions (from its multipliers; its link holds what the motion
    does not free: two rows of the translation normal to the line, three of the rotation)
    equal the recursion's to 1e-10 relative, the bound of the built-in kinds' test
    (tests/test_spatial_dae.py: a dense solve of a well-conditioned system of a few rows)."""
    m, a, b = chain()
    tree = m.build()
    efforts = {1: spring}
    rec, dae = Spatial(tree, efforts=efforts), SpatialDAE(tree, efforts=efforts)
    rng = np.random.default_rng(seed)
    y = np.concatenate([rng.uniform(-1, 1, tree.n_q), rng.uniform(-2, 2, tree.n_q)])
    d = dae_against_recursion(rec, dae, 0.2, y)
    assert d["position"] <= 1e-14 * 10
    assert d["velocity"] <= 1e-13
    assert d["accelerations"] <= 1e-10, d
    assert d["reactions"] <= 1e-10, d


@pytest.mark.parametrize("formulation, method", [("dae", "generalized-alpha"),
                                                 ("recursive", "generalized-alpha-s")])
def test_an_implicit_run_converges_to_the_explicit_recursion(kinds, formulation, method):
    """The same model over 0.3 s: the recursion by RK4 at 1e-4 s (its error, ~ (omega dt)^4
    with omega ~ 10 rad/s, near 1e-12 m), the DAE by generalized-alpha and the implicit
    recursion by generalized-alpha-S at 2e-3 s and 1e-3 s.
    The body positions differ by the scheme's second-order error:
    under 1e-3 m at 1e-3 s (an estimate: (omega dt)^2 ~ 1e-4 of the ~0.5 m travel, times the
    ~3 periods' growth), falling by at least 3 when the step halves (4 for second order)."""
    T = 0.3
    m, a, b = chain()
    ref = rancf.simulate(m, T, 1e-4, method="rk4", output_every=10 ** 6)
    assert ref.status == "ok", ref.message
    moved = np.abs(ref.nodes[-1][:, :3] - ref.nodes[0][:, :3]).max()
    assert moved > 0.05, moved
    errors = []
    for dt in (2e-3, 1e-3):
        res = rancf.simulate(m, T, dt, method=method, formulation=formulation,
                             output_every=10 ** 6)
        assert res.status == "ok", res.message
        errors.append(np.abs(res.nodes[-1][:, :3] - ref.nodes[-1][:, :3]).max())
    assert errors[1] < 1e-3, errors
    assert errors[0] / errors[1] >= 3.0, errors


def test_the_chain_conserves_energy_at_rk4_order(kinds):
    """Passive (the effort a spring, a conservative force, whose work the energy balance
    counts): the balance's drift over 0.3 s is small (under 1e-6 of the largest kinetic energy
    at 2e-3 s, an estimate from RK4's local error (omega dt)^4 ~ 2e-7 with omega ~ 10 rad/s, a
    few periods) and falls by about 2^4 when the step halves (at least 10 asked)."""
    m, a, b = chain()
    drifts = []
    for dt in (4e-3, 2e-3):
        res = rancf.simulate(m, 0.3, dt, method="rk4", output_every=1)
        assert res.status == "ok", res.message
        drifts.append(res.energy_drift())
    assert drifts[1] < 1e-6, drifts
    assert drifts[0] / drifts[1] >= 10.0, drifts


def test_link_words_name_cable_nodes_elements_and_compositions(kinds):
    """A message names a link by its code: the cable node codes (``CableMotion``, the
    formulation's, above every ``Motion`` code) as cable nodes, not beam elements; an element's
    code as a beam element; a registered composition by its kind; any other by its primitives.
    The tree's words (rancf.joints.motion_words) refuse a code that is no ``Motion`` code."""
    from rancf.formulations._spatial import C_CLAMP, C_NODE, C_SPHERICAL
    from rancf.formulations.link_words import link_words
    from rancf.joints import motion_words
    from rancf.joints._codes import M_ELEMENT, M_SPHERICAL, R_AXIS, motion_code
    assert link_words(C_NODE) == "a cable node"
    assert link_words(C_SPHERICAL) == "a cable node on a spherical joint"
    assert link_words(C_CLAMP) == "a cable node on a clamp"
    assert link_words(M_ELEMENT) == motion_words(M_ELEMENT) == "a beam element"
    assert link_words(M_SPHERICAL) == "a spherical joint"
    assert link_words(PointOnLine.spatial.code) == "a point-on-line joint"
    assert link_words(motion_code(T_FREE, R_AXIS)) == "a joint of T_FREE, R_AXIS"
    for code in (C_NODE, C_CLAMP + 1, -1):
        with pytest.raises(ValueError, match="code must be a Motion code, 0 to 31"):
            link_words(code) if code != C_NODE else motion_words(code)


#: the point-on-line joint's spring-damper on its rotation vector (q[1:4], after the slide):
#: k (N m/rad), c (N m s/rad), rest rotation (rad, parent's frame)
K_BALL, C_BALL, REST_BALL = 3.0, 0.2, np.array([0.1, -0.2, 0.3])


def sprung(gravity=(0.0, 0.0, -9.81), c=C_BALL):
    """The body of :func:`chain` on its point-on-line joint with a spring-damper (K_BALL, c,
    REST_BALL) on the joint's rotation vector, alone (no second body)."""
    m = rancf.Model(dim=3, gravity=gravity)
    a = m.add_rigid_body(1.2, np.diag([0.02, 0.03, 0.015]), position=(0.0, 0.1, -0.4))
    joint = m.add_joint("point-on-line", m.ground.point(0.0, 0.0, 0.0), a.point(0.0, -0.1, 0.4),
                        axis=(0.8, 0.0, 0.6))
    m.add_rotational_spring_damper(joint, K_BALL, c, rest_angle=REST_BALL)
    return m


@pytest.mark.parametrize("seed", range(3))
def test_a_spring_on_a_rotation_vector_after_a_slide_equals_the_dae(kinds, seed):
    """The recursion reads a spring-damper's rotation vector after the link's translation
    coordinates (the slide first: q = (slide, p)); the DAE applies its torque between the
    bodies' frames, from their relative rotation, whatever the translation. At random states
    (as :func:`test_accelerations_and_reactions_equal_the_dae`) the accelerations agree to
    1e-10 relative, that test's bound, and so do the reactions (the damper's moment in them
    at the state's rates); the recursion's elastic energy is ``k/2 |log(R(p) R_0^T)|^2`` (scipy's
    rotations) to 1e-12 k."""
    from scipy.spatial.transform import Rotation as Rot
    rng = np.random.default_rng(seed)
    for c in (0.0, C_BALL):
        tree = sprung(c=c).build()
        rec, dae = Spatial(tree), SpatialDAE(tree)
        y = np.concatenate([rng.uniform(-1, 1, tree.n_q), rng.uniform(-2, 2, tree.n_q)])
        d = dae_against_recursion(rec, dae, 0.2, y)
        assert d["accelerations"] <= 1e-10, d
        assert d["reactions"] <= 1e-10, d
    theta = (Rot.from_rotvec(y[1:4]) * Rot.from_rotvec(REST_BALL).inv()).as_rotvec()
    rec.kinematics(y)
    assert abs(rec.energy(y)["elastic"] - 0.5 * K_BALL * theta @ theta) <= 1e-12 * K_BALL


def test_a_spring_on_a_rotation_vector_after_a_slide_has_its_newton_block(kinds):
    """The implicit recursion's Newton matrix without gravity, at rest, zero acceleration
    (the residual is minus the spring-damper's force): its ``c_k`` and ``c_c`` parts against
    central differences of the residual (step 1e-6, to 1e-8 of the largest entry, as
    tests/test_spatial_ball_spring.py's), the spring's block on q[1:4], none on the slide; and
    the O(n) elimination (the joint block written after the slide's coordinate) solves the
    assembled ``M + S`` to the backward error 1e-14 of tests/test_spatial_springs.py."""
    from rancf.formulations import spatial
    f = spatial.of_model(sprung(gravity=(0.0, 0.0, 0.0)))
    p = spatial.implicit_problem(f)
    n, h = f.n_free, 1e-6
    zero = np.zeros(n)

    def residual(q, qd):
        return p.residual(q, qd, 0.0, zero, 0.0, 1.0)

    rng = np.random.default_rng(9)
    for _ in range(3):
        q = rng.uniform(-1.0, 1.0, n)
        for c_k, c_c in ((1.0, 0.0), (0.0, 1.0)):
            S = p.matrix(q, q, [], zero, 0.0, q, 0.0, 0.0, 0.0, c_k, c_c, 1.0)
            fd = np.column_stack([
                (residual(q + h * e, zero) - residual(q - h * e, zero)) / (2 * h) if c_k else
                (residual(q, h * e) - residual(q, -h * e)) / (2 * h) for e in np.eye(n)])
            assert np.abs(fd[0]).max() == 0.0 and np.abs(fd[:, 0]).max() <= 1e-8
            assert np.abs(S - fd).max() <= 1e-8 * np.abs(fd).max()
        v, r = rng.standard_normal(n), rng.standard_normal(n)
        S = p.matrix(q, q, [], v, 0.0, q, 0.0, 1.0, 0.0, 0.3, 0.1, 1.0)
        x = p.newton_solve(q, v, 0.0, r, 1.0, 0.3, 0.1)
        norm = np.abs(S).sum(axis=1).max() * np.abs(x).max() + np.abs(r).max()
        assert np.abs(S @ x - r).max() < 1e-14 * norm
