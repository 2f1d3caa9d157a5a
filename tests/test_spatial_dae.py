"""The spatial DAE formulation (rancf.formulations.spatial_dae) against independent references:
the O(n) recursion of the same tree (accelerations, body accelerations and joint reactions at a
consistent state), central differences of the constraints, and, for closed loops, the constraints
and the energy balance."""
import numpy as np
import pytest

from rancf.formulations.spatial import Spatial
from rancf.formulations.spatial_dae import SpatialDAE, quaternion, qmul, rotation
from rancf.joints._codes import Motion
from test_spatial_recursion import ALL, random_tree


def recursion_accelerations(rec, t, y):
    """Body accelerations ``(r'', w')`` (n, 6) and joint reactions of the recursion at (t, y)."""
    rec.inputs.at_time(t)
    ydot = rec.derivative(t, y)
    rec.kernel.kinematics(y, ydot[rec.n_free:])
    n = rec.tree.n_bodies
    acc = rec.kernel.arrays["acc"][:6 * n].reshape(n, 6).copy()
    return acc, rec.reactions(t, y)


def test_quaternion_maps_compose_like_rotations():
    rng = np.random.default_rng(1)
    a, b = (v / np.linalg.norm(v) for v in rng.standard_normal((2, 4)))
    assert np.abs(rotation(qmul(a, b)) - rotation(a) @ rotation(b)).max() <= 1e-15
    R = rotation(a)
    assert np.abs(R @ R.T - np.eye(3)).max() <= 1e-15
    assert np.abs(rotation(quaternion(R)) - R).max() <= 1e-15


@pytest.mark.parametrize("seed", range(4))
def test_accelerations_and_reactions_equal_the_recursion(seed):
    """Every joint kind, a branched random tree, elastic damped elements, rigid bodies, a fixed
    and a follower load, gravity: at the recursion's state mapped to absolute coordinates, the
    DAE's body accelerations and joint reactions (from its multipliers) equal the recursion's."""
    rng = np.random.default_rng(seed)
    loads = [(3, rng.standard_normal(3), False), (5, rng.standard_normal(3), True)]
    tree = random_tree(rng, ALL, loads)
    values = [(rng.standard_normal(3), rng.standard_normal(3)) for _ in loads]
    rec, dae = Spatial(tree, loads=values), SpatialDAE(tree, loads=values)
    t = 0.3
    y = np.concatenate([rng.uniform(-1.5, 1.5, tree.n_q), rng.uniform(-2, 2, tree.n_q)])
    acc, reactions = recursion_accelerations(rec, t, y)
    x, v = dae.state_of(y, t)
    # the mapped state is consistent: positions and velocities on the constraints
    assert np.abs(dae.constraint(x, t)).max() <= 1e-14 * tree.size * 10
    assert np.abs(dae.constraint_jacobian(x, t) @ v + dae.velocity_bias(x, t)).max() <= 1e-13
    a, lam = dae.multipliers(x, v, t)
    assert np.abs(dae.accelerations(x, v, a) - acc).max() <= 1e-10 * np.abs(acc).max()
    assert np.abs(dae.reactions(x, lam, t) - reactions).max() <= 1e-10 * np.abs(reactions).max()


def drive_tree(seed):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, [Motion.M_REVOLUTE, Motion.M_PRISMATIC, Motion.M_ELEMENT,
                             Motion.M_REVOLUTE, Motion.M_SPHERICAL, Motion.M_PRISMATIC,
                             Motion.M_UNIVERSAL])
    drives = {0: lambda t: (np.sin(2 * t) + 0.4, 2 * np.cos(2 * t), -4 * np.sin(2 * t)),
              1: lambda t: (0.3 * t ** 2, 0.6 * t, 0.6), 2: 0.2}
    return rng, tree, drives


@pytest.mark.parametrize("seed", range(3))
def test_drives_equal_the_recursion(seed):
    """A driven revolute (angle, rate and acceleration all non-zero), a driven prismatic and a
    held revolute: rheonomic rows whose Phi_t and xi make the DAE's accelerations and reactions
    those of the recursion, where the drives are out of the unknowns."""
    rng, tree, drives = drive_tree(seed)
    rec, dae = Spatial(tree, drives=drives), SpatialDAE(tree, drives=drives)
    t = 0.7
    y = rng.uniform(-1, 1, rec.n_y)
    acc, reactions = recursion_accelerations(rec, t, y)
    x, v = dae.state_of(y, t)
    assert np.abs(dae.constraint(x, t)).max() <= 1e-13
    assert np.abs(dae.constraint_jacobian(x, t) @ v + dae.velocity_bias(x, t)).max() <= 1e-13
    a, lam = dae.multipliers(x, v, t)
    assert np.abs(dae.accelerations(x, v, a) - acc).max() <= 1e-10 * np.abs(acc).max()
    assert np.abs(dae.reactions(x, lam, t) - reactions).max() <= 1e-10 * np.abs(reactions).max()


def central(f, x, h):
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(x.size)]).T


@pytest.mark.parametrize("seed", range(2))
def test_constraint_jacobian_equals_central_differences(seed):
    """Off the manifold too (Newton's iterates): every joint kind, drives; and the velocity
    and acceleration biases equal central differences of Phi along (x + tau v, t + tau)."""
    rng, tree, drives = drive_tree(seed)
    tree2 = random_tree(rng, ALL)
    for tr, dr in ((tree, drives), (tree2, None)):
        dae = SpatialDAE(tr, drives=dr)
        t = 0.4
        x = rng.standard_normal(dae.n_coordinates)
        v = rng.standard_normal(dae.n_coordinates)
        J = dae.constraint_jacobian(x, t).toarray()
        Jf = central(lambda z: dae.constraint(z, t), x, 1e-6)
        assert np.abs(J - Jf).max() <= 1e-7 * np.abs(J).max()
        path = lambda tau: dae.constraint(x + tau * v, t + tau)
        h = 1e-4
        first = (path(h) - path(-h)) / (2 * h)
        second = (path(h) - 2 * path(0.0) + path(-h)) / h ** 2
        assert np.abs(J @ v + dae.velocity_bias(x, t) - first).max() <= 1e-6 * np.abs(first).max()
        assert np.abs(dae.acceleration_bias(x, v, t) - second).max() \
            <= 1e-5 * np.abs(second).max()


def test_efforts_are_refused_until_available():
    rng = np.random.default_rng(0)
    tree = random_tree(rng, [Motion.M_REVOLUTE])
    with pytest.raises(ValueError, match="not available yet"):
        SpatialDAE(tree, efforts={0: 1.0})
