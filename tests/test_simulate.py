"""Time integration against conservation laws, convergence order, a second integrator and
the stability theory of RK4; failure modes; results on disk."""
import os

import numpy as np
import pytest

import rancf
from rancf.explicit import SCHEMES
from chains import mixed_chain


@pytest.fixture(scope="module")
def pendulum():
    return rancf.pendulum(n_bodies=5, elements_per_body=5, body_length=5.0, E=21e6,
                          rho=7800.0, side=0.03)


def test_reference_pendulum_layout(pendulum):
    assert pendulum.n_dof == 110          # 4 Nbar + 2 N
    assert pendulum.n_nodes == 30


@pytest.mark.parametrize("scheme", SCHEMES.values())
def test_tableau_identities(scheme):
    assert np.allclose(scheme.A.sum(axis=1), scheme.c)
    assert scheme.b.sum() == pytest.approx(1.0)
    assert np.allclose(np.triu(scheme.A), 0.0)
    if scheme.b_err.size:
        assert scheme.b_err.sum() == pytest.approx(0.0, abs=1e-15)


def test_rk4_energy_drift_is_fourth_order(pendulum):
    """Conservative system: the total energy drift falls 2^4 = 16x per halving of dt (the
    issue quotes ~2e-5 at dt = 1e-3 and ~1e-6 at 5e-4 for a correct Shabana model)."""
    coarse = rancf.simulate(pendulum, 4.0, 1e-3, output_every=10).energy_drift()
    fine = rancf.simulate(pendulum, 4.0, 5e-4, output_every=20).energy_drift()
    assert coarse / fine >= 16.0
    assert 5e-6 < coarse < 1e-4


@pytest.mark.parametrize("joints", [("revolute", "prismatic", "revolute"),
                                    ("revolute", "prismatic", "prismatic")])
def test_prismatic_chain_conserves_energy_to_fourth_order(joints):
    chain = mixed_chain("shabana", joints, E=2e6)
    drifts = [rancf.simulate(chain, 0.5, dt, output_every=1).energy_drift()
              for dt in (4e-4, 2e-4)]
    assert drifts[0] / drifts[1] >= 16.0
    assert drifts[1] < 1e-6


def test_prismatic_constraints_stay_satisfied():
    chain = mixed_chain("shabana", ("revolute", "prismatic"), E=2e6)
    r = rancf.simulate(chain, 0.5, 2e-4, output_every=50)
    c = chain.body_first_node[1]
    d = r.nodes[:, c, :2] - r.nodes[:, c - 1, :2]
    sp, sc = r.nodes[:, c - 1, 2:], r.nodes[:, c, 2:]
    off_rail = np.abs(d[:, 0] * sp[:, 1] - d[:, 1] * sp[:, 0]) / np.hypot(*sp.T)
    skew = np.abs(sc[:, 0] * sp[:, 1] - sc[:, 1] * sp[:, 0]) / np.hypot(*sp.T) ** 2
    assert off_rail.max() < 1e-9 and skew.max() < 1e-9


def test_revolute_joint_nodes_stay_together(pendulum):
    r = rancf.simulate(pendulum, 1.0, 1e-3)
    first = pendulum.body_first_node[1:]
    assert np.abs(r.nodes[:, first, :2] - r.nodes[:, first - 1, :2]).max() < 1e-12
    assert np.abs(r.nodes[:, 0, :2]).max() < 1e-14


@pytest.mark.parametrize("method,tol", [("dopri5", 1e-8), ("scipy:DOP853", 1e-8)])
def test_adaptive_methods_agree_with_fine_rk4(pendulum, method, tol):
    ref = rancf.simulate(pendulum, 0.5, 1e-4, output_every=500)
    r = rancf.simulate(pendulum, 0.5, 1e-3, method=method, output_every=50, rtol=tol, atol=tol)
    assert r.status == "ok"
    np.testing.assert_allclose(r.t, ref.t)
    # RK4 at 1e-4 is accurate to ~1e-9 m here; the tolerance scales the adaptive error
    assert np.abs(r.tip() - ref.tip()).max() < 1e3 * tol * pendulum.total_length


def test_scipy_radau_runs_short(pendulum):
    r = rancf.simulate(pendulum, 0.02, 1e-3, method="scipy:Radau", output_every=5)
    ref = rancf.simulate(pendulum, 0.02, 1e-4, output_every=50)
    assert r.status == "ok" and np.abs(r.tip() - ref.tip()).max() < 1e-5


def test_rk4_step_beyond_stability_limit_is_rejected_in_advance():
    stiff = rancf.pendulum(E=210e9)
    with pytest.raises(ValueError, match="dt = 0.001 s exceeds the rk4 stability limit"):
        rancf.simulate(stiff, 1.0, 1e-3)


def test_stability_limit_is_sharp_for_the_stiff_chain():
    """Below the estimated limit RK4 is stable, 5 % above it diverges: the estimate is the
    real linear limit 2 sqrt(2)/omega_max, not an arbitrary safety margin."""
    from rancf.recursive import highest_frequency
    stiff = rancf.pendulum(E=210e9)
    limit = 2 * np.sqrt(2) / highest_frequency(stiff, stiff.straight_state())
    assert rancf.simulate(stiff, 0.05, 0.95 * limit, output_every=100).status == "ok"
    r = rancf.simulate(stiff, 0.05, 1.05 * limit, check_stability=False, output_every=100)
    assert r.status == "diverged"


def test_divergence_stops_and_keeps_results():
    stiff = rancf.pendulum(E=210e9)
    r = rancf.simulate(stiff, 1.0, 2e-4, check_stability=False, output_every=5)
    assert r.status == "diverged"
    assert "at t = " in r.message
    assert 1 < len(r.t) < 1000 and np.all(np.isfinite(r.nodes))
    t_fail = float(r.message.split("t = ")[1].split()[0])
    assert r.t[-1] <= t_fail


def test_save_load_roundtrip(tmp_path, pendulum):
    r = rancf.simulate(pendulum, 0.2, 1e-3)
    path = tmp_path / "run.npz"
    r.save(path)
    assert os.listdir(tmp_path) == ["run.npz"]      # no temporary file left behind
    back = rancf.load(path)
    for name in ("t", "nodes", "velocities", "beta"):
        np.testing.assert_array_equal(getattr(back, name), getattr(r, name))
    assert back.status == r.status and back.chain.spec() == pendulum.spec()
    np.testing.assert_allclose(back.energy().to_numpy(), r.energy().to_numpy())


def test_frames(pendulum):
    r = rancf.simulate(pendulum, 0.1, 1e-3)
    f = r.to_frame()
    assert len(f) == len(r.t) * pendulum.n_nodes
    last = f[(f.t == r.t[-1]) & (f.node == pendulum.n_nodes - 1)]
    np.testing.assert_allclose(last[["x", "y"]].to_numpy()[0], r.tip()[-1])
    assert list(r.energy().columns) == ["t", "kinetic", "elastic", "gravity", "total"]


def test_initial_state_is_used(pendulum):
    """A chain released hanging straight down, stress-free: by symmetry it stays on the
    vertical, and the tip falls freely, y = -L - g t^2 / 2, until the stress wave from the
    pin reaches it (L / sqrt(E / rho) = 0.48 s)."""
    nodes = pendulum.straight_state().nodes.copy()
    down = np.array([[0.0, -1.0], [1.0, 0.0]])
    nodes[:, :2], nodes[:, 2:] = nodes[:, :2] @ down, nodes[:, 2:] @ down
    r = rancf.simulate(pendulum, 0.25, 1e-3, state=pendulum.state(nodes), output_every=50)
    assert np.abs(r.nodes[:, :, 0]).max() < 1e-12
    fall = -25.0 - 9.81 * r.t**2 / 2
    assert np.abs(r.tip()[:, 1] - fall).max() < 1e-3 * np.abs(fall + 25.0).max()


@pytest.mark.parametrize("kwargs,match", [
    (dict(t_end=-1.0), "t_end"), (dict(dt=0.0), "dt"), (dict(dt=2.0, t_end=1.0), "dt"),
    (dict(method="euler"), "method must be one of"), (dict(output_every=0), "output_every"),
    (dict(formulation="lagrange"), "formulation"), (dict(rtol=-1.0), "rtol"),
])
def test_bad_simulate_arguments_are_named(pendulum, kwargs, match):
    args = dict(t_end=1.0, dt=1e-3)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        rancf.simulate(pendulum, **args)


def test_max_displacement_is_refused_by_implicit_methods(pendulum):
    with pytest.raises(TypeError, match="max_displacement"):
        rancf.simulate(pendulum, 0.01, 1e-3, method="newmark", max_displacement=10.0)


@pytest.mark.parametrize("kwargs,match", [
    (dict(length=-1.0), "length"), (dict(n_elements=0), "n_elements"), (dict(E=0.0), "E must"),
    (dict(rho=-5.0), "rho"), (dict(A=0.0), "A must"), (dict(I=-1.0), "I must"),
    (dict(joint="spherical"), "joint"),
])
def test_bad_body_parameters_are_named(kwargs, match):
    args = dict(length=5.0, n_elements=5, E=21e6, rho=7800.0, A=9e-4, I=6.75e-8)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        rancf.Body(**args)


def test_bad_chain_arguments_are_named():
    body = rancf.Body(5.0, 5, 21e6, 7800.0, 9e-4, 6.75e-8)
    with pytest.raises(ValueError, match="elastic_model"):
        rancf.Chain([body], elastic_model="linear")
    with pytest.raises(ValueError, match="bodies"):
        rancf.Chain([])
    with pytest.raises(ValueError, match=r"bodies\[0\].joint"):
        rancf.Chain([rancf.Body(5.0, 5, 21e6, 7800.0, 9e-4, 6.75e-8, joint="prismatic")])
    chain = rancf.Chain([body, body])
    nodes = chain.straight_state().nodes
    nodes[6, 0] += 0.1
    with pytest.raises(ValueError, match="revolute joint"):
        chain.state(nodes)
    with pytest.raises(ValueError, match="beta must have shape"):
        chain.state(chain.straight_state().nodes, np.zeros(3))
