"""Findings of the fifth audit (issue 22, the spatial model: is its "Done when" met?), each a
failing test marked ``xfail(strict=True)`` with the defect named: the fix turns it into a pass
and the strict mark then fails, so the mark goes with the fix. Each compares against a value
found without rancf's code under test (a closed form, or the documented promise checked by a
second route)."""
import numpy as np
import pytest
from scipy.optimize import brentq

import rancf

#: A rod of 1 kg, its centre 0.3 m from the joint along x, under gravity along -z, held by an
#: effort -K q on its joint coordinate(s) (N m/rad, or N/m for the prismatic joint).
K, G, ARM = 20.0, 9.81, 0.3


def effort_held_rod(kind):
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -G))
    rod = m.add_rigid_body(1.0, np.diag([1e-4, 0.03, 0.03]), position=(ARM, 0.0, 0.0))
    axis = {"revolute": dict(axis=(0.0, 1.0, 0.0)), "prismatic": dict(axis=(0.0, 0.0, 1.0)),
            "spherical": {}}[kind]
    joint = m.add_joint(kind, m.ground.point(0.0, 0.0, 0.0), rod.point(-ARM, 0.0, 0.0),
                        effort=lambda t, q, qd: -K * np.asarray(q), **axis)
    return m, joint


@pytest.mark.parametrize("kind", ["revolute", "spherical", "prismatic"])
def test_static_finds_the_equilibrium_of_a_joint_held_by_an_effort(kind):
    """The weight's moment about the pin, ``m g l cos(q)`` about +y, balances the effort ``K q``
    (for the spherical joint the rotation vector stays along y, where ``J_l(q)^T`` maps the
    torque about y to itself); the prismatic joint along z settles at ``-m g / K``. Newton's
    tolerance (1e-10 of the model's size) bounds the error far below 1e-8."""
    m, joint = effort_held_rod(kind)
    res = rancf.static(m)
    assert res.status == "ok", res.message
    q = np.atleast_1d(res.joint(joint)[0][-1])
    if kind == "prismatic":
        expected = [-G / K]
    else:
        angle = brentq(lambda a: K * a - G * ARM * np.cos(a), 0.0, 1.0)
        expected = [angle] if kind == "revolute" else [0.0, angle, 0.0]
    np.testing.assert_allclose(q, expected, rtol=0, atol=1e-8)


def test_a_curved_spatial_beam_in_a_planar_model_is_refused_naming_the_dimension():
    """Issue 22, The model: 'A planar item, joint or load in a spatial model (or the reverse)
    is a ValueError naming the dimension'; the straight spatial beam in a planar model gets
    'belongs to a spatial model (rancf.Model(dim=3)); this model is planar (dim=2)'."""
    a = np.linspace(0.0, np.pi / 2, 3)
    points = np.column_stack([np.sin(a), 1.0 - np.cos(a), 0.0 * a])
    tangents = np.column_stack([np.cos(a), np.sin(a), 0.0 * a])
    m = rancf.Model()
    with pytest.raises(ValueError, match=r"spatial model \(rancf.Model\(dim=3\)\)"):
        m.add_beam(n_elements=2, points=points, tangents=tangents, E=2e11, rho=7800.0, A=1e-4,
                   I=(1e-9, 1e-9), J=2e-9, G=8e10, up=(0.0, 0.0, 1.0))
