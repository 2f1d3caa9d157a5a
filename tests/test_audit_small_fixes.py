"""The audit's small findings, fixed (issues 22, 25): messages that say what the user must
change, loaded results that keep their joints' layout and tell a model of other parameters,
output times that end at t_end. Each test compares against something independent of the
code it checks: the run the message advises, the run before it was saved, the model's own
parameters, the integer number of steps."""
import math

import numpy as np
import pytest

import rancf
from rancf.simulate import rounded_down


@pytest.mark.parametrize("x", [6.636e-5, 6.6349999e-5, 6.63e-5, 1.0, 9.9999e-3, 2.1e-4,
                               math.nextafter(1e-3, 0.0), 123456.0])
def test_rounded_down_prints_no_more_than_the_limit(x):
    """The advised step, as printed (3 digits) and read back, must not exceed the limit, and
    lies within one unit of its third digit below it."""
    printed = float(f"{rounded_down(x):.3g}")
    assert printed <= x
    assert x - printed <= 10.0 ** (math.floor(math.log10(x)) - 2) * (1 + 1e-12)


def test_planar_rk4_refusal_advice_runs():
    """The planar steel pendulum (RK4 limit ~57 us at its initial state, the integrators
    guide): the step the refusal advises runs."""
    import re
    stiff = rancf.pendulum(n_bodies=1, elements_per_body=4, E=2.1e11)
    with pytest.raises(ValueError, match="stability limit") as err:
        rancf.simulate(stiff, 1e-3, 1e-3, method="rk4")
    advised = float(re.search(r"use dt <= ([0-9.e+-]+) s", str(err.value)).group(1))
    assert rancf.simulate(stiff, 3e-3, advised, method="rk4").status == "ok"


def test_auto_refusal_of_a_ratio_says_the_method_was_chosen_and_what_divides():
    """A planar model beyond RK4's limit: method "auto" chooses generalized-alpha, which needs
    t_end / dt an integer. The message names the choice, and the dt it offers divides
    t_end and runs."""
    import re
    stiff = rancf.pendulum(n_bodies=1, elements_per_body=4, E=2.1e11)
    with pytest.raises(ValueError, match="generalized-alpha \\(method 'auto'\\)") as err:
        rancf.simulate(stiff, 0.01, 3e-4)
    offered = float(re.search(r"dt = ([0-9.e+-]+) s, (\d+) steps", str(err.value)).group(1))
    assert rancf.simulate(stiff, 0.01, offered).status == "ok"


@pytest.mark.parametrize("method, t_end, dt, every",
                         [("rk4", 0.7, 1e-4, 10), ("generalized-alpha", 0.2, 1e-3, 7),
                          ("generalized-alpha", 0.3, 1e-3, 10), ("dopri5", 0.7, 1e-4, 10)])
def test_last_output_time_is_t_end(method, t_end, dt, every):
    """t_end / dt is an integer: the last output is at t_end exactly (sums or products of dt
    missed it by 1e-16 s), and every output time is a whole number of steps, ``k dt``,
    to the rounding of that product."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(m, t_end, dt, method=method, output_every=every)
    assert res.t[-1] == t_end
    k = np.rint(res.t / dt)
    assert np.all(np.abs(res.t - k * dt) <= 1e-15 * t_end)


def test_spatial_last_output_time_is_t_end():
    """The same on the spatial recursion's implicit loop (0.2 s in 200 steps ended at
    0.20000000000000015)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-1, 0, 0))
    res = rancf.simulate(m, 0.2, 1e-3, method="generalized-alpha-s")
    assert res.t[-1] == 0.2


# --- loaded results: their joints without the model (finding 3), a model of other parameters
# (finding 5) -------------------------------------------------------------------------------
def _sphere_and_hinge(E_scale=1.0):
    """A body on a spherical joint (3 coordinates), a second body on a revolute joint (1),
    and, for the parameter checks, a beam on a fixed joint (E = 2e7 Pa times E_scale)."""
    import warnings
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(1, 0, 0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.point(-1, 0, 0))
    c = m.add_rigid_body(1.0, np.eye(3) * 1e-2, position=(2, 0, 0))
    m.add_joint("revolute", b.point(1, 0, 0), c.point(0, 0, 0), axis=(0, 1, 0))
    beam = m.add_beam(0.3, 2, E=2e7 * E_scale, rho=950.0, A=6e-4, I=(2e-8, 4.5e-8), J=4.7e-8,
                      G=7e6, start=(0, 2, 0))
    m.add_joint("fixed", m.ground.point(0, 2, 0), beam.start)
    return m


@pytest.fixture(scope="module")
def sphere_and_hinge_run(tmp_path_factory):
    m = _sphere_and_hinge()
    res = rancf.simulate(m, 0.02, 1e-3, method="generalized-alpha-s", output_every=5)
    path = tmp_path_factory.mktemp("loaded") / "run.npz"
    res.save(path)
    return m, res, path


def _as_an_earlier_version(path, new_path, drop):
    """The file at ``path`` rewritten without the meta entries ``drop`` (what files of earlier
    versions did not record)."""
    import json
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    meta = json.loads(str(arrays["meta"]))
    for key in drop:
        meta.pop(key, None)
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(new_path, **arrays)
    return new_path


@pytest.mark.parametrize("index, shape", [(0, (5, 3)), (1, (5,)), (2, (5, 0))])
def test_loaded_joint_without_model_is_the_runs(sphere_and_hinge_run, tmp_path, index, shape):
    """Each joint's coordinates, loaded without the model, are the run's own (spherical 3,
    revolute 1, fixed 0), from this version's file, from a file of an earlier version that
    records the layout only (the joint kinds give the columns), and from a file re-saved
    from a Result loaded without its model."""
    _, res, path = sphere_and_hinge_run
    older = _as_an_earlier_version(path, tmp_path / "older.npz", ["joint_coordinates"])
    resaved = tmp_path / "resaved.npz"
    rancf.load(path).save(resaved)
    for p in (path, older, resaved):
        q, qd = rancf.load(p).joint(index)
        assert q.shape == shape
        assert np.array_equal(q, res.joint(index)[0]) and np.array_equal(qd, res.joint(index)[1])


def test_loaded_joint_of_an_old_file_without_layout_needs_the_model(sphere_and_hinge_run,
                                                                     tmp_path):
    """A file of an earlier version saved without its model (no layout, no joints'
    coordinates): 4 columns for 3 joints cannot be told apart, so joint() says the model is
    needed, and with the model gives the run's coordinates. The index range is the joints'
    (3 joints: [-3, 2]; the 4 columns are not joints)."""
    m, res, path = sphere_and_hinge_run
    old = _as_an_earlier_version(path, tmp_path / "old.npz",
                                 ["joint_coordinates", "layout", "parameters"])
    with pytest.raises(ValueError, match="needs the model"):
        rancf.load(old).joint(1)
    with pytest.raises(ValueError, match=r"\[-3, 2\]"):
        rancf.load(old).joint(3)
    assert np.array_equal(rancf.load(old, model=m).joint(0)[0], res.joint(0)[0])


def test_loaded_spatial_reaction_without_model(sphere_and_hinge_run):
    """The full reaction of a spatial joint is stored (its six entries): loaded without the
    model it is the run's; the reaction along the axis needs the axis, so the model."""
    _, res, path = sphere_and_hinge_run
    loaded = rancf.load(path)
    assert np.array_equal(loaded.reaction(1), res.reaction(1))
    with pytest.raises(ValueError, match="needs the model"):
        loaded.reaction(1, "torque")


def test_load_onto_a_model_of_other_parameters_warns_naming_them(sphere_and_hinge_run):
    """The same layout with the beam's E doubled: loading warns, naming E and both values,
    and still loads (the stored arrays are the run's)."""
    _, res, path = sphere_and_hinge_run
    with pytest.warns(UserWarning, match=r"beam 0 E is 20000000.0 in the file, 40000000.0 in "
                                         r"the model"):
        loaded = rancf.load(path, model=_sphere_and_hinge(E_scale=2.0))
    assert np.array_equal(loaded.nodes, res.nodes)


def test_load_onto_the_same_model_or_an_old_file_does_not_warn(sphere_and_hinge_run, tmp_path):
    """A model built again with the same parameters gives no warning; neither does a file of
    an earlier version (no parameters recorded, nothing to compare)."""
    import warnings
    _, _, path = sphere_and_hinge_run
    old = _as_an_earlier_version(path, tmp_path / "old.npz", ["parameters"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rancf.load(path, model=_sphere_and_hinge())
        rancf.load(old, model=_sphere_and_hinge(E_scale=2.0))


@pytest.mark.parametrize("scale, warns", [(0.1 * 3 / 0.3, False), (1.0 + 1e-9, True)],
                         ids=["a rounding apart", "1e-9 apart"])
def test_load_compares_parameters_to_a_rounding(sphere_and_hinge_run, scale, warns):
    """E computed another way (0.1 * 3 / 0.3 = 1 + 2.2e-16) is the same model: no warning;
    1e-9 apart, far above any rounding (files.PARAMETER_RTOL = 1e-12), is another: it warns."""
    import warnings
    _, _, path = sphere_and_hinge_run
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rancf.load(path, model=_sphere_and_hinge(E_scale=scale))
    assert any("beam 0 E" in str(w.message) for w in caught) == warns


@pytest.mark.parametrize("every", [1, 7])
def test_explicit_and_implicit_runs_give_the_same_output_times(every):
    """The output times are a property of (t_end, dt, output_every), not of the method:
    RK4's and generalized-alpha's equal to the bit, k dt from the step numbers k and t_end
    last."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0, E=2e7)
    t = [rancf.simulate(m, 0.21, 3e-4, method=method, output_every=every).t
         for method in ("rk4", "generalized-alpha")]
    assert np.array_equal(t[0], t[1])
    steps = np.r_[np.arange(0, 700, every), 700]
    assert np.array_equal(t[0][:-1], np.unique(steps)[:-1] * 3e-4) and t[0][-1] == 0.21


def test_axis_reaction_refusal_echoes_what_was_asked(sphere_and_hinge_run):
    """reaction(spherical, "angle") is refused naming "angle", the word the user wrote."""
    _, res, _ = sphere_and_hinge_run
    with pytest.raises(ValueError, match="what='angle' needs a revolute or prismatic"):
        res.reaction(0, "angle")


# --- minor findings ---------------------------------------------------------------------------
@pytest.mark.parametrize("method, option, accepted",
                         [("generalized-alpha", "rho_infty", "rho_inf"),
                          ("generalized-alpha-s", "rho_infty", "rho_inf"),
                          ("hht", "alpah", "alpha"), ("newmark", "rho_inf", "no parameters")])
def test_a_misspelt_option_is_named_with_the_accepted_ones(method, option, accepted):
    """The TypeError names the option, its value and what the method takes, not the
    scheme's private _set_parameters."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    with pytest.raises(TypeError) as err:
        rancf.simulate(m, 0.01, 1e-3, method=method, **{option: 0.5})
    words = str(err.value)
    assert f"{option} = 0.5" in words and accepted in words and "_set_parameters" not in words


def test_state_and_joint_indices_count_from_the_end_and_name_their_range(sphere_and_hinge_run):
    """state(i) and joint(i) both take negative indices (from the end, as Python's do) and
    name their valid range when out of it."""
    m, res, _ = sphere_and_hinge_run
    n_out, n_joints = len(res.t), len(m.joints)
    assert np.array_equal(res.state(-1).x, res.state(n_out - 1).x)
    assert np.array_equal(res.joint(-1)[0], res.joint(n_joints - 1)[0])
    assert np.array_equal(res.reaction(-2), res.reaction(n_joints - 2))
    with pytest.raises(IndexError, match=rf"\[{-n_out}, {n_out - 1}\].*got {n_out}"):
        res.state(n_out)
    with pytest.raises(ValueError, match=rf"\[{-n_joints}, {n_joints - 1}\].*got {-n_joints - 1}"):
        res.joint(-n_joints - 1)


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
@pytest.mark.parametrize("frame, words", [(np.diag([1.0, 1.0, 1.1]), "not orthogonal"),
                                          (np.diag([1.0, 1.0, -1.0]), "a reflection")])
def test_a_state_whose_frame_is_not_a_rotation_is_named_so(sphere_and_hinge_run, formulation,
                                                           frame, words):
    """A State whose body 0 has a stretched or mirrored frame: the refusal says the frame
    is not a rotation (both formulations), not that the joints are not satisfied."""
    m, res, _ = sphere_and_hinge_run
    state = res.state(-1)
    x = state.x.copy()
    x[3:12] = (frame @ x[3:12].reshape(3, 3)).ravel()
    with pytest.raises(ValueError, match=f"frame of body 0 .* is {words}"):
        rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha-s", formulation=formulation,
                       state=rancf.State(x, state.v))


def test_cable_at_gives_a_node_or_says_that_points_are_nodes():
    """cable.at(s) at a node's arc length gives that node (as beam.at does); between nodes a
    ValueError names the nearest node; out of range, beam.at's ValueError."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    cable = m.add_beam(1.0, 4, E=1e6, rho=100.0, A=1e-3, I=1e-9, element="ancf-cable")
    assert repr(cable.at(0.25)) == repr(cable.node(1)) and repr(cable.at(1.0)) == repr(cable.end)
    with pytest.raises(ValueError, match=r"between nodes.*node\(1\)"):
        cable.at(0.3)
    with pytest.raises(ValueError, match=r"in \[0, 1\] m"):
        cable.at(1.5)


def test_a_planar_file_with_springs_loads_onto_its_model_without_a_warning(tmp_path):
    """A planar model with a spring of no rest length given (None) and a rotational spring:
    saved and loaded onto the same model, nothing differs; with the spring's k changed, the
    warning names it."""
    import warnings

    def model(k):
        m = rancf.pendulum(n_bodies=2, elements_per_body=2, body_length=1.0)
        m.add_spring_damper(m.beams[0].end, m.ground.point(1.0, 1.0), k=k)
        m.add_rotational_spring_damper(m.joints[1], k=2.0)
        return m
    path = tmp_path / "springs.npz"
    rancf.simulate(model(10.0), 0.01, 1e-3).save(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rancf.load(path, model=model(10.0))
    with pytest.warns(UserWarning, match="spring 0 k is 10.0 in the file, 20.0 in the model"):
        rancf.load(path, model=model(20.0))
