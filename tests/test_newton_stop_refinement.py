"""Newton's velocity tolerance (rancf/integrators/_implicit.pyx, module docstring: ``KAPPA``
times the third difference of the velocities) checked on models not used to set it: under
Newmark's scheme, which damps nothing and on a DAE leaves the accelerations and multipliers
alternating from step to step, halving the step must still cut the error by about 4 (second
order), on the planar recursion, the planar DAE with a closed loop, and the spatial recursion
and DAE. The line, set before running: at least 3 at each of two halvings (order 1.6), as the
pendulum's and the parallelogram's of tests/test_audit3_findings.py. A Newton error let through
grows as the step shrinks (more steps, each leaving its error, of one sign with a kept matrix),
so that it shows as a ratio falling at the finer steps (the parallelogram's fell to 0.72).

The reference of each model is the same model and scheme at a step 16 times below the finest,
its Newton iterations on a matrix refactored at every iteration (``jacobian="every-iteration"``)
to ``tol = 1e-13``: its own error is 1/256 of the finest run's, which moves the last ratio by
0.4 %, and no Newton tolerance of the runs under test enters it."""
import numpy as np
import pytest

import rancf

T_END = 1.0                         # s
STEPS = (1e-3, 5e-4, 2.5e-4)        # s
FINE = STEPS[-1] / 16.0             # s, the reference's step


def halving_ratios(model, points, **options):
    """The runs' largest distance from the reference at ``points`` (bodies' centres) over
    output times every 10 ms, at each step of STEPS, and the ratios of consecutive errors."""
    def positions(dt, **more):
        res = rancf.simulate(model, T_END, dt, output_every=int(round(0.01 / dt)),
                             **{**options, **more})
        assert res.status == "ok", res.message
        return np.stack([res.position(p) for p in points])

    ref = positions(FINE, jacobian="every-iteration", tol=1e-13)
    e = [np.abs(positions(dt) - ref).max() for dt in STEPS]
    return e, (e[0] / e[1], e[1] / e[2])


def planar_chain():
    """Three rigid bars of 1 kg and 0.5 m hinged end to end, the first to the ground,
    released at rest at 1.2, 0.4 and -0.5 rad from hanging: a double-swing motion with no
    closed form."""
    l, m = 0.5, rancf.Model(gravity=(0.0, -9.81))
    parent, tip = m.ground, m.ground.point(0.0, 0.0)
    x = y = 0.0
    bars = []
    for angle in (1.2, 0.4, -0.5):
        s, c = np.sin(angle), np.cos(angle)
        bar = m.add_rigid_body(1.0, l * l / 12, position=(x + l / 2 * s, y - l / 2 * c),
                               angle=angle - np.pi / 2)
        m.add_joint("revolute", tip, bar.point(-l / 2, 0.0))
        x, y = x + l * s, y - l * c
        tip = bar.point(l / 2, 0.0)
        bars.append(bar)
    return m, [b.centre for b in bars]


def slider_crank():
    """A crank (1 kg, 0.2 m) pinned to the ground, a connecting rod (1 kg, 0.6 m) from its end
    to a 0.5 kg slider on a horizontal rail through the crank's pin (prismatic), released at rest
    with the crank 1 rad above the rail: a closed loop (the DAE's multipliers at work)."""
    r, l, th = 0.2, 0.6, 1.0
    m = rancf.Model(gravity=(0.0, -9.81))
    crank_end = np.array([r * np.cos(th), r * np.sin(th)])
    slide = crank_end[0] + np.sqrt(l * l - crank_end[1] ** 2)
    rod_dir = (np.array([slide, 0.0]) - crank_end) / l
    crank = m.add_rigid_body(1.0, r * r / 12, position=tuple(crank_end / 2), angle=th)
    rod = m.add_rigid_body(1.0, l * l / 12, position=tuple(crank_end + rod_dir * l / 2),
                           angle=np.arctan2(rod_dir[1], rod_dir[0]))
    slider = m.add_rigid_body(0.5, 1e-3, position=(slide, 0.0))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), crank.point(-r / 2, 0.0))
    m.add_joint("revolute", crank.point(r / 2, 0.0), rod.point(-l / 2, 0.0))
    m.add_joint("revolute", rod.point(l / 2, 0.0), slider.centre)
    m.add_joint("prismatic", m.ground.point(slide, 0.0), slider.centre)
    return m, [crank.centre, rod.centre, slider.centre]


def spatial_chain():
    """Two rigid bodies of unequal principal inertias on spherical joints, the first hanging
    from the ground, released at rest tilted out of every coordinate plane: a spatial double
    pendulum."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    a = np.array([0.3, 0.2, -0.35])             # the first body's pin to its centre, m
    b = np.array([0.25, -0.3, -0.2])            # its centre to the second's pin
    c = np.array([-0.1, 0.25, -0.3])            # the second's pin to its centre
    first = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.025]), position=tuple(a))
    second = m.add_rigid_body(0.7, np.diag([0.004, 0.006, 0.008]), position=tuple(a + b + c))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), first.point(*(-a)))
    m.add_joint("spherical", first.point(*b), second.point(*(-c)))
    return m, [first.centre, second.centre]


def test_a_planar_chain_on_the_recursion_converges_under_newmark():
    model, points = planar_chain()
    e, (r1, r2) = halving_ratios(model, points, method="newmark", formulation="recursive")
    assert r1 >= 3.0 and r2 >= 3.0, (e, r1, r2)


def test_a_slider_crank_on_the_dae_converges_under_newmark():
    model, points = slider_crank()
    e, (r1, r2) = halving_ratios(model, points, method="newmark", formulation="dae")
    assert r1 >= 3.0 and r2 >= 3.0, (e, r1, r2)


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_a_spatial_chain_converges_under_newmark(formulation):
    model, points = spatial_chain()
    e, (r1, r2) = halving_ratios(model, points, method="newmark", formulation=formulation)
    assert r1 >= 3.0 and r2 >= 3.0, (e, r1, r2)
