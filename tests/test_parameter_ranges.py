"""Parameters beyond what floating point can compute are refused where they enter, with a
ValueError or TypeError naming the public parameter and its range (issue 26, finding 7): never
an OverflowError, an internal name or a failure inside a kernel. The reproducers of the issue,
one each; the property tests (tests/test_properties.py) draw more of every class."""
import re

import numpy as np
import pytest

import rancf

HUGE = 10**400                  # an integer beyond the largest float
BEAM = dict(length=1.0, n_elements=2, E=2e9, rho=7800.0, A=1e-4, I=1e-9)


def pendulum():
    m = rancf.Model()
    b = m.add_beam(**BEAM)
    m.add_joint("revolute", m.ground.point(0, 0), b.start)
    return m


def refused(call, name, error=ValueError):
    """call() raises ``error`` naming ``name`` (as a word); returns the message."""
    with pytest.raises(error) as info:
        call()
    message = str(info.value)
    assert re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", message), message
    return message


@pytest.mark.parametrize("entry, name", [
    ("add_beam", "length"), ("add_beam", "E"), ("add_beam", "rho"), ("add_beam", "angle"),
    ("add_rigid_body", "mass"), ("Model", "gravity"), ("add_beam", "start"),
    ("simulate", "t_end"), ("simulate", "dt"), ("simulate", "max_memory"),
    ("simulate", "rtol"), ("ground.point", "x")])
def test_an_integer_beyond_the_floats_is_named(entry, name):
    """float(10**400) raises OverflowError: the checks turn it into a ValueError."""
    vector = name in ("gravity", "start")
    value = (0.0, HUGE) if vector else HUGE
    calls = {
        "add_beam": lambda: rancf.Model().add_beam(**{**BEAM, name: value}),
        "add_rigid_body": lambda: rancf.Model().add_rigid_body(**{"mass": 1.0, "inertia": 0.1,
                                                                  name: value}),
        "Model": lambda: rancf.Model(**{name: value}),
        "simulate": lambda: rancf.simulate(pendulum(), **{"t_end": 0.01, "dt": 1e-4,
                                                          name: value}),
        "ground.point": lambda: rancf.Model().ground.point(**{"x": 0.0, "y": 0.0, name: value}),
    }
    message = refused(calls[entry], name)
    assert "finite" in message


@pytest.mark.parametrize("name, value, words", [
    ("length", 1e308, "slope inertia rho A l^3"), ("length", 5e-324, "element length"),
    ("rho", 5e-324, "element mass"), ("A", 5e-324, "element mass"),
    ("A", 1e308, "element mass"), ("I", 1e-320, "bending stiffness")])
def test_element_constants_beyond_the_normal_floats_are_named(name, value, words):
    """The issue's reproducers: OverflowError for length=1e308, "l must be finite" for
    length=5e-324, a singular mass for rho or A = 5e-324, "element mass matrices must be
    kron(m, I2)" for A=1e308. Now add_beam names the parameter and the normal range."""
    message = refused(lambda: rancf.Model().add_beam(**{**BEAM, name: value}), name)
    assert words in message and "[2.23e-308, 1.8e+308]" in message
    assert "l must" not in message and "kron" not in message


def test_the_range_of_an_element_mass_is_that_of_the_normal_floats():
    """The bound is floating point's, not a physical guess: an element mass rho A l of 1e-300 kg
    (normal) builds, one of 1e-310 kg (subnormal) is refused; an axial stiffness E A / l of
    1e300 N/m builds, one of 2e308 (beyond the largest float: infinite) is refused."""
    A, l = BEAM["A"], BEAM["length"] / BEAM["n_elements"]

    def beam(**kw):
        m = rancf.Model(gravity=(0.0, 0.0))
        b = m.add_beam(**{**BEAM, **kw})
        m.add_joint("revolute", m.ground.point(0, 0), b.start)
        return m.build()
    light = beam(rho=1e-300 / (A * l))
    # the mass matrix's translation entries (13/35 of the element mass): the mass was kept
    assert light.element_mass[0, 0, 0] == pytest.approx(13 / 35 * 1e-300, rel=1e-12)
    refused(lambda: beam(rho=1e-310 / (A * l)), "rho")
    stiff = beam(E=1e300 * l / A, I=1e-20)
    assert stiff.element_EA[0] / l == pytest.approx(1e300, rel=1e-12)
    refused(lambda: beam(E=1e308, A=1.0), "E")


def test_a_subnormal_rigid_body_mass_is_named():
    message = refused(lambda: rancf.Model().add_rigid_body(5e-324, 1.0), "mass")
    assert "2.22507e-308" in message


@pytest.mark.parametrize("t_end, dt", [(1e308, 1e-3), (0.01, 5e-324), (1.0, 1e-16)])
def test_a_step_that_does_not_advance_the_clock_is_named(t_end, dt):
    """t_end = 1e308 and dt = 5e-324 raised OverflowError (a step count beyond the integers):
    dt must be at least 1e-15 t_end, where t + dt still differs from t at t_end (the spacing of
    doubles there is 2.2e-16 t_end)."""
    assert t_end + 0.5 * dt == t_end or dt < 1e-15 * t_end
    message = refused(lambda: rancf.simulate(pendulum(), t_end, dt), "dt")
    assert "t_end" in message


def test_the_smallest_step_accepted_advances_the_clock():
    """The bound is where the clock still moves: at dt = 1e-15 t_end, t_end - dt < t_end."""
    t_end = 1.0
    dt = 1e-15 * t_end
    assert t_end - dt < t_end and (t_end - dt) + dt == t_end
    refused(lambda: rancf.simulate(pendulum(), t_end, 0.9 * dt), "dt")


def test_projection_takes_a_bool_not_an_integer():
    """projection=1 was accepted (1 == True) and reached the kernel as 1."""
    for value in (1, 0, np.int64(1), 1.0):
        refused(lambda: rancf.simulate(pendulum(), 0.01, 1e-3, method="newmark",
                                       formulation="dae", projection=value), "projection")
    with_projection = rancf.simulate(pendulum(), 0.01, 1e-3, method="newmark",
                                     formulation="dae", projection=True)
    assert with_projection.status == "ok"


def test_a_newton_tolerance_beyond_a_percent_of_the_model_is_named():
    """tol=1e308 was accepted: every iterate passes it. Newton's tolerance on the position
    increment is at most 1 % of the model's size (1 m here)."""
    message = refused(lambda: rancf.simulate(pendulum(), 0.01, 1e-3, method="newmark",
                                             tol=1e308), "tol")
    assert "0.01" in message
    assert rancf.simulate(pendulum(), 0.01, 1e-3, method="newmark", tol=0.01).status == "ok"
    refused(lambda: rancf.static(pendulum(), tol=0.5), "tol")
