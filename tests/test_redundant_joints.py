"""Redundant joints refused by the DAE formulations (rancf/formulations/redundancy.py).

Each count of repeated directions is checked against something independent: the mobility of
the mechanism, known in closed form, less the Gruebler-Kutzbach count of its joints' rows; or
the rank of the dense constraint Jacobian (numpy's SVD), or of stacked random rows."""
import numpy as np
import pytest
import scipy.sparse as sp

import rancf
from rancf.formulations import redundancy
from rancf.formulations.dae import DAE
from rancf.formulations.spatial import model_inputs
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.joints import JointKind, register, unregister
from rancf.joints._codes import R_VECTOR, T_AXIS
from rancf.joints.kind import SpatialMotion

DEG = np.pi / 180


def dense_deficiency(J):
    """Rows less the rank of a dense Jacobian (numpy's SVD, its default tolerance)."""
    J = J.toarray()
    return J.shape[0] - np.linalg.matrix_rank(J)


def spatial_dae(model):
    return SpatialDAE(model.build(), *model_inputs(model))


# --- the method on random rows ------------------------------------------------------------------
def random_rows(seed, kinds=("new", "copy-0", "new", "mix", "half")):
    """Random base rows (12, banded: sparse, independent; labels 0, 1, 2 and a body's -1)
    and groups of 3 rows (labels 3, 4, ...) on 40 columns, one of each of ``kinds``: "new"
    random rows, "copy-0" joint 0's rows turned, "mix" base joint 2's and group 3's rows
    combined, "half" one row of joint 1's and two new. Returns the dense rows, the base's
    labels, the groups and the labels each group's repeated rows are made of."""
    rng = np.random.default_rng(seed)
    n = 40
    base = np.zeros((12, n))
    for i in range(12):                       # banded: full rank, sparse
        base[i, i:i + 3] = rng.normal(size=3)
    base_labels = np.repeat([0, 1, 2, -1], 3)
    rows = [base]
    groups, made_of = [], []
    label = 3
    for kind in kinds:
        k = 3
        if kind == "new":
            g, parts = rng.normal(size=(k, n)), set()
        elif kind == "copy-0":                # joint 0's rows again, turned
            g, parts = rng.normal(size=(k, k)) @ base[:3], {0}
        elif kind == "mix":                   # base joint 2 and group 3 combined
            g = rng.normal(size=(k, 3)) @ base[6:9] + rng.normal(size=(k, 3)) @ rows[1]
            parts = {2, 3}
        else:                                 # one row repeats joint 1's, two are new
            g = np.vstack([rng.normal(size=(1, 3)) @ base[3:6], rng.normal(size=(2, n))])
            parts = {1}
        rows.append(g)
        groups.append((label, np.arange(sum(r.shape[0] for r in rows[:-1]),
                                        sum(r.shape[0] for r in rows))))
        made_of.append(parts | {label} if parts else set())
        label += 1
    return np.vstack(rows), base_labels, groups, made_of


def test_groups_repeat_what_the_rank_of_stacked_rows_says():
    """Random base rows (sparse, independent) and groups whose rows are random rows or
    random combinations of rows before them: each group's repeated count equals its rows less
    the rank it adds to those before it (numpy's matrix_rank of the stacked dense rows), and the
    joints named are those the combinations were made of."""
    J, base_labels, groups, made_of = random_rows(3)
    found = redundancy.redundant_joints(J, np.zeros(0, int), 1.0, np.arange(12), base_labels,
                                        groups)
    expected = []
    for (label, r), parts in zip(groups, made_of):
        before = J[:r[0]]
        added = np.linalg.matrix_rank(J[:r[-1] + 1]) - np.linalg.matrix_rank(before)
        if added < r.size:
            expected.append((label, r.size - added, tuple(sorted(parts))))
    assert [(f.joint, f.n_repeated, f.joints) for f in found] == expected
    assert [e[0] for e in expected] == [4, 6, 7]            # the construction's


def unit_rows(J):
    return sp.csr_matrix(J / np.linalg.norm(J, axis=1)[:, None])


@pytest.mark.parametrize("kinds", [("new",) * 5, ("new", "copy-0", "new", "mix", "half"),
                                   ("half", "new"), ("new", "new", "mix")])
@pytest.mark.parametrize("seed", range(8))
def test_fast_check_refuses_and_accepts_as_the_naming_routine(seed, kinds):
    """The Gram matrix's pivots (``full_rank``) pass exactly the random row sets whose
    stacked rows have full rank (numpy's SVD of the unit rows: smallest singular value above
    the tolerance; the random rows leave it O(0.1) or round-off), and
    ``redundant_joints`` (the fast check first) returns what the naming routine alone
    returns: the same joints refused, the same accepted."""
    J, base_labels, groups, _ = random_rows(seed, kinds)
    W = unit_rows(J)
    sigma_min = np.linalg.svd(W.toarray(), compute_uv=False)[-1]
    assert redundancy.full_rank(W) == (sigma_min > redundancy.RANK_TOLERANCE)
    fast = redundancy.redundant_joints(J, np.zeros(0, int), 1.0, np.arange(12), base_labels,
                                       groups)
    assert fast == redundancy.named_groups(W, np.arange(12), base_labels, groups)
    assert bool(fast) == (kinds != ("new",) * len(kinds))


def kahan_rows(n=60, c=0.3):
    """Rows of the unit lower triangle with -c below the diagonal (Kahan's example turned),
    scaled to unit length: row k's part off the span of rows 0..k-1 is its diagonal entry,
    1 / sqrt(1 + k c^2) >= 0.16 at n = 60, yet the rows nearly repeat, the smallest singular
    value about (1 + c)^-n / sqrt(n) (3e-7 at n = 60: below the tolerance)."""
    T = np.eye(n) - c * np.tril(np.ones((n, n)), -1)
    return T / np.linalg.norm(T, axis=1)[:, None]


def test_rows_nearly_dependent_without_a_small_pivot_go_to_the_naming_routine():
    """A small pivot is not needed for a small singular value: in the natural order the Kahan
    rows' Cholesky pivots are all above tol^2 while numpy's SVD puts sigma_min below tol.
    ``full_rank`` does not pass them (the estimate of ||G^-1||), and ``redundant_joints``
    returns the naming routine's verdict, which depends on the groups' order (in the natural
    order each row's part off those before it is >= 0.16, nothing named; reversed, the last
    row is held by the others): in both orders the same as the routine alone."""
    T = kahan_rows()
    tol = redundancy.RANK_TOLERANCE
    assert np.diag(np.linalg.cholesky(T @ T.T)).min() ** 2 > tol ** 2
    assert np.linalg.svd(T, compute_uv=False)[-1] < tol
    assert not redundancy.full_rank(sp.csr_matrix(T))
    none = np.zeros(0, int)
    for order in (1, -1):
        groups = [(k, np.array([k])) for k in range(T.shape[0])][::order]
        fast = redundancy.redundant_joints(T, none, 1.0, none, none, groups)
        assert fast == redundancy.named_groups(sp.csr_matrix(T), none, none, groups)
        assert bool(fast) == (order == -1)


def test_singular_base_is_refused_without_naming_a_joint():
    """Base rows that repeat each other (a degenerate tree joint: rows 0 and 1 equal) give
    no joint to name (``None``); ``refuse`` then raises saying the tree's rows are
    rank-deficient."""
    J = np.array([[1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    found = redundancy.redundant_joints(J, np.zeros(0, int), 1.0, [0, 1], [0, 1],
                                        [(2, np.array([2]))])
    assert found is None
    with pytest.raises(ValueError, match="rank-deficient"):
        redundancy.refuse(found, str, "")


# --- spatial --------------------------------------------------------------------------------
def spherical_four_bar(closing="revolute", coupler_joint="revolute"):
    """The gallery's spherical four-bar (examples/plot_17): four joint axes through one point,
    crank, coupler and rocker rigid rods. Its mobility is 1 (the closed-form input-output
    relation of the example)."""
    uA = np.array([0.0, 0.0, 1.0])
    uD = np.array([np.sin(70 * DEG), 0.0, np.cos(70 * DEG)])
    uB = np.array([np.sin(25 * DEG) * np.cos(100 * DEG), np.sin(25 * DEG) * np.sin(100 * DEG),
                   np.cos(25 * DEG)])
    base = np.linalg.lstsq(np.array([uB, uD]), np.cos([60 * DEG, 55 * DEG]), rcond=None)[0]
    normal = np.cross(uB, uD)
    uC = base + np.sqrt(1 - base @ base) / np.linalg.norm(normal) * normal
    A, B, C, D = 0.5 * uA, 0.5 * uB, 0.5 * uC, 0.5 * uD
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))

    def rod(mass, p, q):
        e = (q - p) / np.linalg.norm(q - p)
        J = mass * np.sum((q - p) ** 2) / 12 * (np.eye(3) - np.outer(e, e)) + 1e-4 * np.eye(3)
        return m.add_rigid_body(mass, J, position=(p + q) / 2)
    crank, coupler, rocker = rod(1.0, A, B), rod(1.5, B, C), rod(1.2, D, C)
    at = lambda body, p: body.point(*(p - body.position))
    m.add_joint("revolute", m.ground.point(*A), at(crank, A), axis=uA,
                drive=lambda t: (np.pi / 2 * (1 - np.cos(np.pi * t)),
                                 np.pi ** 2 / 2 * np.sin(np.pi * t),
                                 np.pi ** 3 / 2 * np.cos(np.pi * t)))
    if coupler_joint == "revolute":
        m.add_joint("revolute", at(crank, B), at(coupler, B), axis=uB)
    else:
        m.add_joint("spherical", at(crank, B), at(coupler, B))
    m.add_joint("revolute", m.ground.point(*D), at(rocker, D), axis=uD)
    if closing == "revolute":
        m.add_joint("revolute", at(coupler, C), at(rocker, C), axis=uC)
    else:
        a1 = np.cross(uC, C - B) / np.linalg.norm(np.cross(uC, C - B))
        m.add_joint("universal", at(coupler, C), at(rocker, C), axes=[uC, a1])
    return m


def test_spherical_four_bar_of_four_revolutes_is_refused_naming_its_joints():
    """Four revolute joints on three rigid rods: Gruebler-Kutzbach counts 6 * 3 - 5 * 4 = -2
    degrees of freedom, the mechanism has 1 (with the crank driven, 0 and -3), so the
    closing joint repeats 3 directions, combinations of all four joints' rows. The dense
    Jacobian at the reference configuration says the same, and simulate refuses the model
    naming joint 3 before any step."""
    m = spherical_four_bar()
    mobility, driven, gruebler = 1, 1, 6 * 3 - 5 * 4 - 1
    with pytest.raises(ValueError) as err:
        spatial_dae(m)
    msg = str(err.value)
    assert f"{mobility - driven - gruebler} of the 5 directions that joint 3" in msg, msg
    assert "joint 0" in msg and "joint 1" in msg and "joint 2" in msg, msg
    assert "spherical joint holds 3" in msg, msg
    with pytest.raises(ValueError, match="joint 3"):
        rancf.simulate(spherical_four_bar(), 0.1, 1e-2)


def test_gallery_spherical_four_bar_is_not_refused_and_its_rows_are_independent():
    """The gallery's joints (a spherical joint on the coupler, a universal joint closing):
    6 * 3 - 5 * 2 - 3 - 4 = 1 = its mobility, no row repeated: the check finds nothing, the
    dense Jacobian at the reference configuration has full row rank, and the driven
    mechanism moves."""
    m = spherical_four_bar(closing="universal", coupler_joint="spherical")
    dae = spatial_dae(m)
    assert dense_deficiency(dae.reference_jacobian()) == 0
    res = rancf.simulate(m, 0.05, 1e-2)
    assert res.status == "ok"


def test_reference_jacobian_is_the_run_jacobian_where_the_drive_starts_at_zero():
    """``reference_jacobian`` (the drives at their reference coordinate, set directly) equals
    ``constraint_jacobian`` at the reference coordinates and t = 0, where the crank's drive
    function gives angle 0 (the compiled path through the model's functions)."""
    dae = spatial_dae(spherical_four_bar(closing="universal", coupler_joint="spherical"))
    x = dae.reference_coordinates()
    a, b = dae.reference_jacobian(), dae.constraint_jacobian(x, 0.0)
    assert abs(a - b).max() <= 1e-15 * abs(b).max()
    # the reference configuration satisfies the rows (the loop closes there)
    assert np.abs(dae.constraint(x, 0.0)).max() <= 1e-9 * dae.tree.size


def door(second="spherical"):
    """The audit's door (10 kg, hinge line along z at x = 0) on a spherical joint at z = 0.2
    and a second joint at z = 1.8."""
    m = rancf.Model(dim=3, gravity=(0.0, -9.81, 0.0))
    d = m.add_rigid_body(10.0, np.diag([1.0, 0.5, 0.6]), position=(0.4, 0, 1.0))
    m.add_joint("spherical", m.ground.point(0, 0, 0.2), d.point(-0.4, 0, -0.8))
    kw = {"axis": (0.0, 0.0, 1.0)} if second != "spherical" else {}
    m.add_joint(second, m.ground.point(0, 0, 1.8), d.point(-0.4, 0, 0.8), **kw)
    return m


class PointOnLine(JointKind):
    """The child's point on a line of the parent along ``axis``, the rotation free."""

    name = "point-on-line (redundancy test)"
    planar = False
    spatial = SpatialMotion(T_AXIS, R_VECTOR)


@pytest.fixture
def point_on_line():
    register(PointOnLine)
    yield PointOnLine.name
    unregister(PointOnLine.name)


def test_door_on_two_ball_joints_repeats_one_direction_and_the_advice_fixes_it(point_on_line):
    """Two ball joints: 6 - 3 - 3 = 0 by Gruebler-Kutzbach, the door turns about its hinge
    line (mobility 1): one direction (the distance between the balls) repeated, as the dense
    Jacobian's rank says. The second made a point on the hinge line (2 rows, the message's
    advice): 6 - 3 - 2 = 1, nothing repeated, and the door swings about the hinge line
    (the ball's rotation vector along z to the Newton tolerance)."""
    with pytest.raises(ValueError) as err:
        spatial_dae(door())
    assert "1 of the 3 directions that joint 1" in str(err.value)
    assert "by joint 0" in str(err.value) and "point on a line" in str(err.value)
    m = door(point_on_line)
    dae = spatial_dae(m)
    assert dense_deficiency(dae.reference_jacobian()) == 0
    res = rancf.simulate(m, 0.2, 1e-3)
    assert res.status == "ok"
    turn = res.joint(0)[0][-1]                                # the ball's rotation vector
    assert np.linalg.norm(turn[:2]) <= 1e-6 * np.linalg.norm(turn)     # about the hinge (z)
    assert np.linalg.norm(turn) > 1e-2


@pytest.mark.parametrize("gap, repeated", [(1e-8, 3), (1e-3, 1)])
def test_rank_tolerance_between_a_joint_twice_and_a_door(gap, repeated):
    """A second ball joint ``gap`` (in model sizes) along the line from the first: at
    1e-3 the pair is a door (one row repeated, the other two move the body's turn by
    gap / size, far above the tolerance 1e-6); at 1e-8 those two rows repeat to 1e-8,
    below it, and the pair counts as one joint twice (3 repeated)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-1, 0, 0))
    m.add_joint("spherical", m.ground.point(gap, 0, 0), b.point(-1 + gap, 0, 0))
    with pytest.raises(ValueError, match=f"{repeated} of the 3 directions that joint 1"):
        spatial_dae(m)


def cable_between(n, second_at_start=False):
    """A cable of n elements (2 m) on ball joints to the ground at both ends, or twice at its
    start."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(2.0, n, E=1e6, rho=100.0, A=1e-3, I=1e-8, start=(0.0, 0.0, 0.0),
                   direction=(1.0, 0.0, 0.0), element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    if second_at_start:
        m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    else:
        m.add_joint("spherical", m.ground.point(2.0, 0, 0), c.end)
    return m


def test_cable_joints_are_checked():
    """Joints at cable points are rows of their own (no tree joint holds a cable node): a
    cable on two ball joints at its ends is not over-constrained (the cable stretches),
    the dense Jacobian has full rank; a ball joint twice at its start repeats 3."""
    dae = spatial_dae(cable_between(8))
    assert dense_deficiency(dae.reference_jacobian()) == 0
    with pytest.raises(ValueError, match="3 of the 3 directions that joint 1"):
        spatial_dae(cable_between(8, second_at_start=True))


# --- planar ---------------------------------------------------------------------------------
def rigid_four_bar(extra=False):
    """A rigid planar four-bar (crank, coupler, rocker, 1 m each; mobility 1 = 3 * 3 - 2 * 4),
    its closing revolute repeated with ``extra``."""
    m = rancf.Model(gravity=(0.0, -9.81))
    crank = m.add_rigid_body(mass=1.0, inertia=1e-2, position=(0, 0.5))
    coupler = m.add_rigid_body(mass=1.0, inertia=1e-2, position=(0.5, 1.0))
    rocker = m.add_rigid_body(mass=1.0, inertia=1e-2, position=(1.0, 0.5))
    m.add_joint("revolute", m.ground.point(0, 0), crank.point(0, -0.5))
    m.add_joint("revolute", crank.point(0, 0.5), coupler.point(-0.5, 0))
    m.add_joint("revolute", coupler.point(0.5, 0), rocker.point(0, 0.5))
    m.add_joint("revolute", m.ground.point(1, 0), rocker.point(0, -0.5))
    if extra:
        m.add_joint("revolute", m.ground.point(1, 0), rocker.point(0, -0.5))
    return m


def test_planar_four_bar_with_a_joint_twice_is_refused():
    """3 * 3 - 2 * 5 = -1 by Gruebler-Kutzbach, mobility 1: the repeated revolute holds 2
    directions twice, those of joint 3 alone; the dense Jacobian's rank agrees. simulate,
    static and modes refuse it before any step."""
    dae_error = None
    try:
        DAE(rigid_four_bar(extra=True).build())
    except ValueError as err:
        dae_error = str(err)
    assert dae_error is not None
    assert "2 of the 2 directions that joint 4 (a revolute joint)" in dae_error
    assert "held already by joint 3 (a revolute joint) (" in dae_error, dae_error
    for run in (lambda m: rancf.simulate(m, 0.1, 1e-3), rancf.static,
                lambda m: rancf.modes(m, n=1)):
        with pytest.raises(ValueError, match="joint 4"):
            run(rigid_four_bar(extra=True))


def test_planar_four_bar_is_not_refused_and_its_reference_jacobian_is_the_kernels():
    """The four-bar itself: full rank (dense SVD), and ``reference_jacobian`` (numpy, from
    the constraint table) equals the compiled kernel's Jacobian at x0, t = 0."""
    dae = DAE(rigid_four_bar().build())
    J = dae.reference_jacobian()
    assert dense_deficiency(J) == 0
    K = dae.constraint_jacobian(dae.assembly.x0, 0.0)
    assert abs(J - K).max() <= 1e-15 * abs(K).max()


def test_the_rank_check_leaves_the_user_s_random_stream_alone():
    """The check's norm estimate draws random start vectors: NumPy's global stream must be
    where the user left it (a DAE run between two draws does not change the second draw)."""
    m = rancf.Model(gravity=(0.0, -9.81))
    a = m.add_rigid_body(1.0, 0.01, position=(0.0, 0.5), angle=np.pi / 2)
    c = m.add_rigid_body(1.0, 0.01, position=(0.5, 1.0), angle=0.0)
    b = m.add_rigid_body(1.0, 0.01, position=(1.0, 0.5), angle=np.pi / 2)
    m.add_joint("revolute", m.ground.point(0, 0), a.point(-0.5, 0))
    m.add_joint("revolute", a.point(0.5, 0), c.point(-0.5, 0))
    m.add_joint("revolute", c.point(0.5, 0), b.point(0.5, 0))
    m.add_joint("revolute", b.point(-0.5, 0), m.ground.point(1, 0))
    np.random.seed(0)
    expected = np.random.rand()
    np.random.seed(0)
    assert rancf.simulate(m, 0.01, 1e-3, formulation="dae").status == "ok"
    assert np.random.rand() == expected
