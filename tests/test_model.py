"""Building a model: every input checked where it enters (the error names the parameter, its
value and the range), the whole model checked when it is built, then frozen."""
import numpy as np
import pytest

import rancf
from models import AREA, INERTIA, RHO, branched_tree

BEAM = dict(length=1.0, n_elements=2, E=5e6, rho=RHO, A=AREA, I=INERTIA)


def beam_model(**overrides):
    m = rancf.Model()
    b = m.add_beam(**{**BEAM, **overrides})
    return m, b


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(length=-1.0), ValueError, "length must be finite and in"),
    (dict(length=np.nan), ValueError, "length"),
    (dict(length="1"), TypeError, "length must be a real number"),
    (dict(n_elements=0), ValueError, "n_elements must be an integer in"),
    (dict(n_elements=2.0), TypeError, "n_elements must be an integer"),
    (dict(n_elements=10**30), ValueError, "n_elements"),
    (dict(E=0.0), ValueError, "E must"), (dict(rho=-5.0), ValueError, "rho"),
    (dict(A=0.0), ValueError, "A must"), (dict(I=np.inf), ValueError, "I must"),
    (dict(start=(0.0,)), ValueError, "start must have 2"), (dict(angle=np.nan), ValueError, "angle"),
    (dict(damping=-0.1), ValueError, "damping"), (dict(start="ab"), TypeError, "start"),
    # numeric text is not a number, though NumPy would convert it
    (dict(start=("0", "0")), TypeError, "start must be a sequence of 2 real numbers"),
    (dict(start=(0.0, "1")), TypeError, "start must be a sequence of 2 real numbers"),
])
def test_bad_beam_parameters_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        beam_model(**kwargs)


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(mass=0.0), ValueError, "mass"), (dict(inertia=-1.0), ValueError, "inertia"),
    (dict(position=(0, 0, 0)), ValueError, "position"), (dict(angle=np.inf), ValueError, "angle"),
    (dict(position=("0", 0.5)), TypeError, "position must be a sequence of 2 real numbers"),
    (dict(mass="1"), TypeError, "mass must be a real number"),
])
def test_bad_rigid_body_parameters_are_named(kwargs, error, match):
    m = rancf.Model()
    with pytest.raises(error, match=match):
        m.add_rigid_body(**{**dict(mass=1.0, inertia=0.1), **kwargs})


@pytest.mark.parametrize("kwargs,error,match", [
    (dict(gravity=9.81), ValueError, "gravity must have 2"),
    (dict(gravity=(0.0, np.nan)), ValueError, "gravity must be finite"),
    (dict(elastic_model="timoshenko"), ValueError, "elastic_model must be one of"),
    (dict(gravity=("0", "-9.81")), TypeError, "gravity must be a sequence of 2 real numbers"),
])
def test_bad_model_parameters_are_named(kwargs, error, match):
    with pytest.raises(error, match=match):
        rancf.Model(**kwargs)


def test_bad_joints_are_named():
    m, b = beam_model()
    g = m.ground.point(0.0, 0.0)
    other, c = beam_model()
    cases = [
        (lambda: m.add_joint("spherical", g, b.start), ValueError, "kind must be one of"),
        (lambda: m.add_joint("revolute", g, "start"), TypeError, "child must be a point"),
        (lambda: m.add_joint("revolute", g, c.start), ValueError, "belongs to another model"),
        (lambda: m.add_joint("prismatic", b.end, g), ValueError, "rail belongs to the parent"),
        (lambda: m.add_joint("revolute", g, m.ground.point(0.0, 0.0)), ValueError,
         "must not both be ground points"),
        (lambda: m.add_joint("revolute", b.start, b.end), ValueError, "different items"),
        (lambda: m.add_joint("revolute", g, b.start, axis=0.3), ValueError, "axis applies to prismatic"),
        (lambda: m.add_joint("revolute", g, b.start, drive=3.0), TypeError, "drive must be a callable"),
        (lambda: m.add_joint("revolute", g, b.start, effort="k"), TypeError, "effort must be"),
        (lambda: m.add_joint("fixed", g, b.start, effort=1.0), ValueError, "fixed joint takes"),
        (lambda: m.add_joint("revolute", g, b.start, drive=lambda t: (0, 0, 0), effort=1.0),
         ValueError, "driven joint takes no effort"),
        (lambda: b.node(3), ValueError, "i must be an integer in"),
        (lambda: m.add_force(g, force=(1.0, 0.0)), ValueError, "point must be a point of a beam"),
        (lambda: m.add_force(b.end, force=(1.0,)), ValueError, "force must have 2"),
        (lambda: m.add_force(b.end, moment="big"), TypeError, "moment must be"),
        (lambda: m.add_force(b.end, force=("1", "0")), TypeError, "force must be a sequence of 2"),
        (lambda: m.add_force(b.end, moment="0"), TypeError, "moment must be"),
        (lambda: m.ground.point("0", 0.0), TypeError, "x must be a real number"),
    ]
    for call, error, match in cases:
        with pytest.raises(error, match=match):
            call()


def test_load_repr_says_what_and_where():
    m, b = beam_model()
    r = m.add_rigid_body(mass=1.0, inertia=0.1, position=(2.0, 0.0))
    assert repr(m.add_force(b.end, force=(0.0, -10.0), moment=2.5)) == \
        "Load(0: force=(0, -10) N, moment=2.5 N m at beam[0].node(2))"
    assert repr(m.add_force(r.point(0.1, 0.0), force=lambda t: (t, 0.0), moment=np.sin)) == \
        "Load(1: force(t), moment(t) at rigid_body[0].point(0.1, 0))"


def test_build_checks_the_geometry():
    """Joint points coincide; drives start at the geometry (theory: Assembly and the initial
    state)."""
    m, b = beam_model()
    m.add_joint("revolute", m.ground.point(0.0, 0.1), b.start)
    with pytest.raises(ValueError, match="0.1 m apart"):
        m.build()
    m, b = beam_model(angle=0.5)
    m.add_joint("revolute", m.ground.point(0.0, 0.0, angle=0.2), b.start,
                drive=lambda t: (0.0, 0.0, 0.0))
    with pytest.raises(ValueError, match="does not match the initial relative angle 0.3"):
        m.build()
    m, b = beam_model(angle=0.5)
    m.add_joint("revolute", m.ground.point(0.0, 0.0, angle=0.2), b.start,
                drive=lambda t: (0.3 + 2 * np.pi, 0.0, 0.0))       # modulo 2 pi is fine
    assert m.build().joint_q0[0] == pytest.approx(0.3 + 2 * np.pi)
    m, b = beam_model()
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start, drive=lambda t: (0.0, np.nan, 0.0))
    with pytest.raises(ValueError, match="drive of joint 0 must return three finite numbers"):
        m.build()


def test_drive_values_of_every_kind_of_three_reals():
    """What a drive returns, as three floats: tuples of Python floats (the checked-quickly
    case), of NumPy scalars, of ints, a list, an array, all equal to numpy's conversion of
    them; a tuple with an infinite value or a numeric string, or of two or four, refused."""
    m, b = beam_model()
    values = [(0.25, 1.0, -2.0), (np.float64(0.25), np.float64(1.0), np.float64(-2.0)),
              (1, 2, 3), (np.float32(0.25), 1.0, 2.0), [0.25, 1.0, 2.0], np.array([0.5, 1.0, 2.0]),
              (1e308, 1e308, -1e308)]
    for value in values:
        j = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start, drive=lambda t, v=value: v)
        got = j.drive_values(0.1)
        assert got.dtype == float and got.shape == (3,)
        np.testing.assert_array_equal(got, np.asarray(value, dtype=float))
    for bad in [(0.0, np.inf, 0.0), (0.0, -np.inf, 0.0), (0.0, "1.5", 0.0), (np.nan, 0.0, 0.0),
                (0.0, 1.0), (0.0, 1.0, 2.0, 3.0)]:
        j = m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start, drive=lambda t, v=bad: v)
        with pytest.raises(ValueError, match=f"drive of joint {j.index} must return three finite"):
            j.drive_values(0.1)


def test_build_checks_the_topology():
    m, b = beam_model()
    m.add_rigid_body(1.0, 0.1, position=(3.0, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    with pytest.raises(ValueError, match=r"rigid_body\[0\] not connected to the ground"):
        m.build()
    with pytest.raises(ValueError, match="no beam and no rigid body"):
        rancf.Model().build()
    # a child beam jointed at its end: the DAE takes it, the recursion says why not
    m, b = beam_model()
    m.add_joint("revolute", m.ground.point(1.0, 0.0), b.end)
    A = m.build()
    assert "jointed at its start" in A.recursive_reason
    assert rancf.simulate(m, 0.01, 1e-3, method="newmark").formulation == "dae"


def test_model_is_frozen_once_built():
    m, b = beam_model()
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    rancf.simulate(m, 0.01, 1e-3)
    with pytest.raises(RuntimeError, match="frozen"):
        m.add_beam(**BEAM)
    with pytest.raises(RuntimeError, match="frozen"):
        m.add_force(b.end, force=(1.0, 0.0))


def test_layout_and_reference_configuration():
    """Beams' nodes first (in the order added, each beam its own nodes), then rigid bodies;
    the reference configuration is straight along each beam's angle, unit slopes."""
    m = branched_tree()
    A = m.build()
    assert A.n_vertices == sum(b.n_nodes for b in m.beams) + len(m.rigid_bodies)
    assert A.n_x == 4 * A.n_vertices
    x = A.x0.reshape(-1, 4)
    for b, first in zip(m.beams, A.beam_first_vertex):
        nodes = x[first:first + b.n_nodes]
        np.testing.assert_allclose(nodes[:, 2:], np.tile([np.cos(b.angle), np.sin(b.angle)], (b.n_nodes, 1)))
        np.testing.assert_allclose(np.linalg.norm(nodes[-1, :2] - nodes[0, :2]), b.length)
    for r, v in zip(m.rigid_bodies, A.body_vertex):
        np.testing.assert_allclose(x[v], [*r.position, np.cos(r.angle), np.sin(r.angle)])
    assert A.is_tree and A.recursive_reason is None


def test_pendulum_keeps_its_signature_and_checks_it():
    m = rancf.pendulum(n_bodies=2, elements_per_body=3, body_length=2.0, E=1e7, rho=1000.0,
                       side=0.01, joint="prismatic", gravity=1.0, elastic_model="reissner")
    assert isinstance(m, rancf.Model) and len(m.beams) == 2
    assert [j.kind for j in m.joints] == ["revolute", "prismatic"]
    np.testing.assert_allclose(m.gravity, [0.0, -1.0])
    assert m.beams[1].A == pytest.approx(1e-4) and m.beams[1].I == pytest.approx(1e-8 / 12)
    with pytest.raises(ValueError, match="n_bodies must be an integer in"):
        rancf.pendulum(n_bodies=10**30)
    with pytest.raises(ValueError, match="joint must be one of"):
        rancf.pendulum(joint="spherical")
    with pytest.raises(ValueError, match="gravity"):
        rancf.pendulum(gravity=-9.81)


def test_a_model_and_result_that_have_run_pickle():
    """A study sends models to Dask workers and results back: after a run (which caches compiled
    kernels on the model) both pickle, and the unpickled model runs the same motion."""
    import pickle
    m = rancf.pendulum(n_bodies=2, elements_per_body=2)
    res = rancf.simulate(m, 0.01, 1e-3)
    again = rancf.simulate(pickle.loads(pickle.dumps(m)), 0.01, 1e-3)
    back = pickle.loads(pickle.dumps(res))
    assert np.array_equal(again.nodes, res.nodes) and np.array_equal(back.nodes, res.nodes)
    assert back.energy_drift() == res.energy_drift()


def test_nodes_are_laid_out_per_kind():
    """Each node kind is one block of x: the beam nodes' coordinates are the beams' reference
    nodes, the bodies' block their natural coordinates; the blocks tile x in order, and the
    node size is the kinds' (issue 27)."""
    m = branched_tree()
    A = m.build()
    kinds = [block.kind for block in A.node_kinds]
    assert kinds == [A.element_kind, A.body_kind]
    assert {k.node_size for k in kinds} == {A.node_size}
    start = 0
    for block in A.node_kinds:
        n = block.vertices.stop - block.vertices.start
        assert block.coordinates == slice(start, start + block.kind.node_size * n)
        start = block.coordinates.stop
    assert start == A.n_x == A.node_size * A.n_vertices
    beams, bodies = A.node_kinds
    assert np.array_equal(A.x0[beams.coordinates],
                          np.concatenate([b.reference_nodes().ravel() for b in A.beams]))
    assert np.array_equal(A.x0[bodies.coordinates].reshape(-1, A.body_kind.node_size),
                          [r.reference_coordinates() for r in A.bodies])
    assert list(range(*bodies.vertices.indices(A.n_vertices))) == list(A.body_vertex)
    # a model of beams only has one block
    only = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0).build()
    assert [b.kind for b in only.node_kinds] == [only.element_kind]
