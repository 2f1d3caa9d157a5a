"""A moment at a node of a spatial ANCF cable: it bends the cable through the node's slope r',
its generalized force ``(M x r') / |r'|^2`` on r' (``cable_moment`` of
rancf/elements/_ancf_cable.pxd), each test against something independent: the rotation of the
tangent, a finite-difference gradient and tangent, the circle arc of a cantilever under an end
moment; and the schemes' energy balance with it. The two formulations' accelerations with
cable moments are compared in tests/test_spatial_cable_recursion.py (``with_moments``)."""
import re

import numpy as np
import pytest

import rancf
from rancf.elements._ancf_cable import moment_force

E, A, I, L = 1e7, 1e-4, 1e-9, 1.0
EI = E * I


def test_the_slopes_force_does_the_moments_virtual_work():
    """For a turn w normal to the slope s (|s| != 1: a stretched cable), s moves by w x s and
    the tangent turns by w: the generalized force's power Q . (w x s) is the moment's M . w;
    a moment along s gives nothing."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        s = rng.standard_normal(3) * rng.uniform(0.5, 2.0)
        M = rng.standard_normal(3)
        w = np.cross(s, rng.standard_normal(3))              # normal to s
        Q = moment_force(s, M)
        assert Q @ np.cross(w, s) == pytest.approx(M @ w, rel=1e-12, abs=1e-14 * np.abs(M @ w))
        assert Q @ s == pytest.approx(0.0, abs=1e-14 * np.linalg.norm(M))   # no stretch work
        np.testing.assert_allclose(moment_force(s, 2.5 * s), 0.0, atol=1e-15)


def test_the_slopes_force_is_the_gradient_of_a_plane_moments_work():
    """A moment M about y on a slope s in the x-z plane has the potential ``V = -M theta(s)``,
    ``theta = atan2(-s_z, s_x)`` the tangent's angle about y: Q = -dV/ds, by central
    differences."""
    M = 0.7
    s = np.array([0.9, 0.0, -0.6])

    def V(x):
        return -M * np.arctan2(-x[2], x[0])

    h = 1e-6
    gradient = np.array([(V(s + h * e) - V(s - h * e)) / (2 * h) for e in np.eye(3)])
    np.testing.assert_allclose(moment_force(s, (0.0, M, 0.0)), -gradient, atol=1e-9)


def test_the_slopes_force_tangent_is_its_central_difference():
    """``moment_tangent`` (``cable_moment_tangent``: the Newton matrix's block of a moment on a
    cable node, rancf/formulations/_spatial_dae.pyx and spatial_dae.py) against central
    differences of ``Q(s) = (M x s) / (s . s)`` written here, at random slopes and moments,
    step ``h = 1e-5 |s|``. Along a unit direction e, ``Q = (M x s + x M x e) g(x)`` with ``g =
    1 / |s + x e|^2``, whose second and third derivatives are at most 6 / |s|^4 and 24 / |s|^5:
    the third derivative of Q is at most ``(24 + 3 * 6) |M| / |s|^4``, so the truncation (h^2 / 6
    times it) is below 7e-10 ``|M| / |s|^2`` and the round-off ``eps |Q| / h`` near 1e-11 of it:
    each entry within 1e-9 ``|M| / |s|^2``."""
    from rancf.elements._ancf_cable import moment_tangent

    def Q(s, M):
        return np.cross(M, s) / (s @ s)

    rng = np.random.default_rng(5)
    for _ in range(20):
        s = rng.standard_normal(3) * rng.uniform(0.5, 2.0)
        M = rng.standard_normal(3)
        h = 1e-5 * np.linalg.norm(s)
        fd = np.column_stack([(Q(s + h * e, M) - Q(s - h * e, M)) / (2 * h) for e in np.eye(3)])
        bound = 1e-9 * np.linalg.norm(M) / (s @ s)
        np.testing.assert_allclose(moment_tangent(s, M), fd, rtol=0, atol=bound)


def cantilever(n, moment):
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = m.add_beam(L, n, E=E, rho=1000.0, A=A, I=I, element="ancf-cable")
    m.add_joint("fixed", m.ground.point(0, 0, 0), c.start)
    m.add_force(c.end, moment=moment)
    return m, c


def test_an_end_moment_bends_a_cantilever_to_the_circle_arc():
    """A straight cantilever cable (along x, clamped at the origin) under an end moment M
    about y bends, in statics, to the arc of radius EI/M (no axial force: pure bending) turning
    x towards -z: its tip at ``(R sin phi, 0, -R (1 - cos phi))``, phi = M L / EI, here a
    quarter circle. Cubic Hermite position: the tip's error falls at fourth order, by 16 a
    halving of the elements (at least 12 from 4 to 8 and 8 to 16 elements, room for the
    pre-asymptotic range); at 16 elements within 1e-6 of R."""
    phi = np.pi / 2
    M = phi * EI / L
    R = EI / M
    exact = np.array([R * np.sin(phi), 0.0, -R * (1 - np.cos(phi))])
    errors = []
    for n in (4, 8, 16):
        m, c = cantilever(n, (0.0, M, 0.0))
        st = rancf.static(m)
        assert st.status == "ok", st.message
        errors.append(np.linalg.norm(st.position(c.end)[-1] - exact))
    assert errors[0] / errors[1] >= 12.0 and errors[1] / errors[2] >= 12.0, errors
    assert errors[2] <= 1e-6 * R, errors


@pytest.mark.parametrize("formulation", ["recursive", "dae"])
def test_a_moments_work_is_in_the_energy_balance(formulation):
    """A clamped cable under an end moment normal to it that varies in time, no gravity, no
    damping: the energy (kinetic + elastic) gained is the record's ``work``, to the scheme's
    order: the balance's drift at dt = 1e-4 s at most 1e-3 of the work (rk4 on the recursion,
    generalized-alpha without numerical damping on the DAE). A check of the schemes' energy
    balance with a moment's load, not of Q: the work is the power ``Q . d r'/dt`` integrated
    from the same Q the run applies, so a wrong Q would balance as well (Q is checked by the
    tests above)."""
    m, c = cantilever(4, lambda t: (0.0, 2e-3 * np.sin(40.0 * t), 1e-3 * t))
    method = "rk4" if formulation == "recursive" else "generalized-alpha"
    extra = {} if formulation == "recursive" else {"rho_inf": 1.0}
    res = rancf.simulate(m, 0.1, 1e-4, method=method, formulation=formulation,
                         output_every=10, **extra)
    assert res.status == "ok", res.message
    e = res.energy()
    gained = e["kinetic"] + e["elastic"] - (e["kinetic"] + e["elastic"]).iloc[0]
    assert np.abs(e["work"]).max() > 1e-6                       # the moment has worked
    assert np.abs(gained - e["work"]).max() <= 1e-3 * np.abs(e["work"]).max()


def test_an_axial_moment_and_a_follower_moment_are_refused():
    m, c = cantilever(2, (0.0, 1e-3, 0.0))
    with pytest.raises(ValueError, match=r"has a part 0.001 N m about the cable's axis"):
        m.add_force(c.node(1), moment=(1e-3, 0.0, 0.0))
    with pytest.raises(ValueError, match="follower=True at the cable point"):
        m.add_force(c.end, moment=(0.0, 1e-3, 0.0), follower=True)


#: s: the moment functions below turn axial from this time on (a step of DT after it at most
#: is where a run meets it: the first evaluation at or after it)
T_TURN, DT, T_END = 0.02, 1e-4, 0.03
NORMAL = (0.0, 1e-3, 0.0)       # N m: normal to the cantilever's tangent (along x)
#: (formulation, method): the recursion explicit and implicit, the spatial DAE (implicit only)
RUNS = [("recursive", "rk4"), ("recursive", "generalized-alpha"), ("dae", "generalized-alpha")]


def turning(t):
    """NORMAL before T_TURN; from it on a part 1e-3 N m along the cable's axis (x) added."""
    return (1e-3 if t >= T_TURN else 0.0,) + NORMAL[1:]


def run(moment, formulation, method):
    m, c = cantilever(4, moment)
    return rancf.simulate(m, T_END, DT, method=method, formulation=formulation,
                          output_every=10), c


def frames(res, n=None):
    """The outputs a run keeps, the first n: times, body frames and velocities (the cable
    nodes' included), the cable nodes' coordinates."""
    return (res.t[:n], res.nodes[:n], res.velocities[:n], res.extra["cable_nodes"][:n])


@pytest.mark.parametrize("formulation, method", RUNS)
def test_a_moment_function_turning_axial_stops_the_run_there(formulation, method):
    """The rule a constant moment at a cable node meets when it is added (no part along the
    node's reference tangent) holds for each value of a function: the first value breaking it
    (at T_TURN) stops the run, status "failed", the ValueError naming the point, the time, the
    value, its axial part and the tangent in ``Result.error``; the outputs before are those of
    the same run under a moment that stays normal, bit for bit (the same values, the same
    arithmetic), and none is lost but those of the step that met the turn."""
    res, c = run(turning, formulation, method)
    normal, _ = run(NORMAL, formulation, method)
    assert normal.status == "ok", normal.message
    assert res.status == "failed" and isinstance(res.error, ValueError)
    message = str(res.error)
    assert message in res.message
    for words in ("the value [0.001, 0.001, 0.0] of moment(t) of load 0 at t = ",
                  f"at the cable point {c.end!r} has a part 0.001 N m about the cable's axis",
                  "its reference tangent [1.0, 0.0, 0.0] there",
                  "give the moment normal to the cable"):
        assert words in message, message
    t_failed = float(re.search(r"of load 0 at t = (\S+) s", message).group(1))
    assert T_TURN <= t_failed <= T_TURN + DT * (1 + 1e-9)
    n = len(res.t)
    assert 1 < n < len(normal.t) and res.t[-1] < T_TURN <= normal.t[n] + DT * (1 + 1e-9)
    for kept, expected in zip(frames(res), frames(normal, n)):
        np.testing.assert_array_equal(kept, expected)


@pytest.mark.parametrize("formulation, method", RUNS)
def test_a_moment_function_staying_normal_runs_as_its_constant(formulation, method):
    """A function returning the constant NORMAL, checked at every call, gives the constant's
    trajectory bit for bit: the check reads the value, never changes it."""
    res, _ = run(lambda t: NORMAL, formulation, method)
    constant, _ = run(NORMAL, formulation, method)
    assert res.status == constant.status == "ok", res.message
    for got, expected in zip(frames(res), frames(constant)):
        np.testing.assert_array_equal(got, expected)


def pinned(moment):
    """A cable pinned at both ends (statics on the spatial DAE: a closed loop), the moment at
    its middle node."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = m.add_beam(L, 4, E=E, rho=1000.0, A=A, I=I, element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(L, 0, 0), c.end)
    m.add_force(c.node(2), moment=moment)
    return m, c


@pytest.mark.parametrize("make, formulation", [(cantilever, "spatial"), (pinned, "dae")],
                         ids=["recursion", "dae"])
def test_statics_holds_a_moment_functions_value_at_t_0_to_the_rule(make, formulation):
    """Statics evaluates the functions of t at t = 0 (once a solve): a function normal there
    gives the constant's equilibrium bit for bit (though it turns axial later); one breaking
    the rule there raises its ValueError out of ``rancf.static``, as a function whose value
    is not finite does (rancf.UserFunctionError's rule for the start: statics has no output
    before it)."""
    def args(moment):
        return (4, moment) if make is cantilever else (moment,)
    constant = rancf.static(make(*args(NORMAL))[0])
    res = rancf.static(make(*args(turning))[0])
    assert res.status == constant.status == "ok" and res.formulation == formulation
    for got, expected in zip(frames(res), frames(constant)):
        np.testing.assert_array_equal(got, expected)
    m, c = make(*args(lambda t: (1e-3,) + NORMAL[1:]))
    point = c.end if make is cantilever else c.node(2)
    with pytest.raises(ValueError, match=re.escape(
            f"the value [0.001, 0.001, 0.0] of moment(t) of load 0 at t = 0 s at the cable "
            f"point {point!r} has a part 0.001 N m about the cable's axis")):
        rancf.static(m)
    with pytest.raises(ValueError, match=r"moment of load 0 must return three finite numbers"):
        rancf.static(make(*args(lambda t: (np.nan,) + NORMAL[1:]))[0])


def test_the_rule_is_the_part_along_the_reference_tangent():
    """``cable_moment_refusal`` at a tangent off the axes: a moment normal to it plus a part
    along it of 0.5e-9 of its size passes, of 2e-9 is refused, the part named; the same for a
    function's value (a load's time named)."""
    from rancf.model.spatial_joints import cable_moment_refusal
    rng = np.random.default_rng(11)
    tangent = rng.standard_normal(3)
    tangent /= np.linalg.norm(tangent)
    normal = np.cross(tangent, rng.standard_normal(3))
    m, c = cantilever(2, NORMAL)
    for fraction, refused in ((0.5e-9, False), (2e-9, True)):
        moment = normal + fraction * np.linalg.norm(normal) * tangent
        for t in (None, 0.25):
            message = cable_moment_refusal(moment, tangent, c.end, 3, t)
            assert bool(message) == refused, (fraction, message)
            if refused:
                axial = moment @ tangent
                assert f"has a part {axial:.6g} N m" in message
                assert ("load 3 at t = 0.25 s" in message) == (t is not None)
