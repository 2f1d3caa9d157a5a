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


def _four_bar_rockers(fb, n, t_end, h, grid):
    """Both codes' rocker angles on ``grid`` at n elements a link and step h, and the rigid
    closed form of rancf's crank angle (the driven crank's: every run's)."""
    m, j_in, j_out, _ = fb.flexible(n)
    res = rancf.simulate(m, t_end, h, method="generalized-alpha", rho_inf=RHO_INF, output_every=1)
    assert res.status == "ok", res.message
    mbs, sc, sensor = pm.exudyn_four_bar(fb, n)
    pm.exudyn_dynamic(mbs, t_end, h, RHO_INF)
    data = mbs.GetSensorStoredData(sensor)
    return (np.interp(grid, res.t, res.joint(j_out)[0]), np.interp(grid, data[:, 0], data[:, 3]),
            fb.output(np.interp(grid, res.t, res.joint(j_in)[0])))


def test_steel_four_bar_rockers_agree_within_their_estimates_below_the_flexibility():
    """The steel spherical four-bar in both codes (rancf's SE(3) beams, Exudyn's geometrically
    exact beams), 0.02 s at h = 1 ms, compared at 4 elements a link: the rockers differ by at
    most the sum of each code's own estimates (its rocker's change from 2 to 4 elements a link,
    the discretisation error left by second-order elements; the gap's change from 2 h to h, its
    time part), and that sum is at most 1/4 of the links' flexible deflection (the rocker's
    distance from the rigid closed form), so that a rigid model, off the other code by all of
    it, would fail (the peers3d case's comparison, validation/cases/peers3d.py)."""
    fb = SphericalFourBar()
    t_end, h = 0.02, 1e-3
    grid = np.round(np.arange(0.0, t_end + 1e-12, h), 9)
    r2, e2, _ = _four_bar_rockers(fb, 2, t_end, h, grid)
    r4, e4, closed = _four_bar_rockers(fb, 4, t_end, h, grid)
    r4_2h, e4_2h, _ = _four_bar_rockers(fb, 4, t_end, 2 * h, grid)
    gap = r4 - e4
    limit = (np.abs(r4 - r2).max() + np.abs(e4 - e2).max()
             + np.abs(gap - (r4_2h - e4_2h))[::2].max())          # the 2 h run's own steps
    deflection = np.abs(r4 - closed).max()
    assert np.abs(gap).max() <= limit
    assert limit <= 0.25 * deflection
    assert deflection <= flexibility_bound(fb)              # the links' flexibility, from physics
    assert np.abs(e4 - closed).max() <= flexibility_bound(fb)
    assert abs(closed[-1]) > 1e-3                            # the rocker has moved
