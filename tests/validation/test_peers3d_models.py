"""The dynamic models of the ``peers3d`` case (validation/peers3d_models.py) agree between rancf
and Exudyn at a coarse setting: each limit from the physics or a step-halving estimate."""
import numpy as np
import pytest

import rancf
from validation import peers3d_models as pm
from validation.cases.spatial_loops import flexibility_bound
from validation.spherical_four_bar import SphericalFourBar

pytest.importorskip("exudyn")

RHO_INF = 0.9


def _cable_tips(n, t_end, h):
    m, cable = pm.rancf_cable_pendulum(n)
    # the spatial DAE: absolute node coordinates, as Exudyn's, so the same discrete equations
    res = rancf.simulate(m, t_end, h, method="generalized-alpha", rho_inf=RHO_INF, output_every=1,
                         formulation="dae")
    assert res.status == "ok", res.message
    mbs, sc, sensor = pm.exudyn_cable_pendulum(n)
    pm.exudyn_dynamic(mbs, t_end, h, RHO_INF)
    data = mbs.GetSensorStoredData(sensor)
    grid = np.round(np.arange(0.0, t_end + 1e-12, 2e-3), 9)
    return pm.on_grid(res.t, res.position(cable.end), grid), pm.on_grid(data[:, 0], data[:, 1:4], grid)


def test_cable_pendulum_is_the_same_discrete_motion_in_both_codes():
    """16 cable elements, 0.06 s, generalized-alpha rho_inf = 0.9 in both codes, rancf on its
    spatial DAE: at the same step both solve the same discrete equations (same element, joint,
    absolute node coordinates, scheme), so their tips differ by far less than the time error
    they share, estimated by halving rancf's step (the tip's change from h to h/2): at most 1 %
    of it, at h = 2 ms."""
    rancf_h, exudyn_h = _cable_tips(16, 0.06, 2e-3)
    rancf_h2, _ = _cable_tips(16, 0.06, 1e-3)
    step_change = np.linalg.norm(rancf_h - rancf_h2, axis=1).max()
    assert step_change > 1e-8                        # a time error well above the Newton tolerance
    assert np.linalg.norm(rancf_h - exudyn_h, axis=1).max() <= 1e-2 * step_change
    assert rancf_h[-1, 2] < -0.01                      # the cable has swung down


def test_steel_four_bar_rocker_agrees_within_the_links_flexibility():
    """The steel spherical four-bar in both codes (rancf's SE(3) beams, Exudyn's geometrically
    exact beams, one element a link), 0.03 s at h = 1 ms: each code's rocker stays within the
    links' flexibility bound of the rigid closed form (validation/cases/spatial_loops.py), so
    the two rockers within twice that bound of each other; rancf's within the bound of the
    closed form."""
    fb = SphericalFourBar()
    m, j_in, j_out, _ = fb.flexible()
    res = rancf.simulate(m, 0.03, 1e-3, method="generalized-alpha", rho_inf=RHO_INF, output_every=1)
    assert res.status == "ok", res.message
    mbs, sc, sensor = pm.exudyn_four_bar(fb)
    pm.exudyn_dynamic(mbs, 0.03, 1e-3, RHO_INF)
    data = mbs.GetSensorStoredData(sensor)
    phi_exudyn = np.interp(res.t, data[:, 0], data[:, 3])
    bound = flexibility_bound(fb)
    closed = fb.output(res.joint(j_in)[0])
    assert np.abs(res.joint(j_out)[0] - closed).max() <= bound
    assert np.abs(phi_exudyn - closed).max() <= bound
    assert np.abs(res.joint(j_out)[0] - phi_exudyn).max() <= 2 * bound
    assert abs(closed[-1]) > 1e-3                      # the rocker has moved
