"""Statics of the spatial ANCF cable through the public API (issue 23): a cable hanging between
two spherical joints to the ground against the analytic catenary, and Exudyn's 3D cable
cantilever. Used by ``validation/cases/spatial.py`` and tests/test_spatial_cable_model.py.

The catenary is the *elastic* one (Irvine, Cable Structures, 1981): the public API
builds a cable unstressed in its reference, with its joint points coinciding there, so a cable
pinned at both ends spans its own length and sags only as it stretches. A slack reference (span
below the length) is a curved cable lying in a plane, whose stiffness matrix is singular where
``rancf.static`` starts (docs/theory.rst, "Curved cables"): ``rancf.static`` refuses it. The
inextensible catenary is the limit ``EA -> oo`` of the elastic one at a given span and
unstretched length.
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import brentq

import rancf

#: The hanging cable: 1 m unstretched between pins 1 m apart, rho A = 1 kg/m, gravity 9.81 m/s^2
#: along -y, EA = 1e3 N (a stretch of about 1.6 %: sag 0.078 m), EI = 1e-6 N m^2, 32 elements.
CATENARY = {"length": 1.0, "rho_A": 1.0, "g": 9.81, "EA": 1e3, "EI": 1e-6, "n": 32}
#: Exudyn's ObjectANCFCable test (issue 23): L = 2 m along x, 32 elements, rho A = 78 kg/m,
#: EA = 1e6 N, EI = 833.33 N m^2, gravity 9.81 m/s^2 along -y, clamped at x = 0.
EXUDYN_CANTILEVER = {"length": 2.0, "n": 32, "rho_A": 78.0, "EA": 1e6, "EI": 833.3333333333333,
                     "g": 9.81}
EXUDYN_TIP_DX = -0.5013058140308919  # m, Exudyn's test value (issue 23 quotes -0.5013058140)


def elastic_catenary(length, span, rho_A, g, EA):
    """Horizontal tension H (N) and mid-span sag (m) of an elastic cable of unstretched length
    ``length`` hanging between supports ``span`` apart at one height, its weight
    ``w = rho_A g`` per unstretched length. Along the unstretched arc length s the tension is
    ``T = sqrt(H^2 + V^2)``, ``V = w (L / 2 - s)``, and the stretch ``1 + T / EA`` (the
    cable's strain ``|r'| - 1`` times EA), so ``dx/ds = H / T + H / EA`` and
    ``dy/ds = V / T + V / EA``; integrated over the cable and over its first half:

    ``span = H L / EA + (2 H / w) asinh(w L / (2 H))``,
    ``sag = w L^2 / (8 EA) + (H / w) (sqrt(1 + (w L / (2 H))^2) - 1)``.

    The end tension is ``sqrt(H^2 + (w L / 2)^2)``. ``EA -> oo`` gives the inextensible
    catenary ``2 a sinh(span / (2 a)) = L``, ``a = H / w``."""
    w = rho_A * g
    V = w * length / 2.0
    H = brentq(lambda H: H * length / EA + 2.0 * H / w * np.arcsinh(V / H) - span,
               1e-9 * w * length, 1e9 * w * length, xtol=1e-15, rtol=1e-15)
    sag = w * length ** 2 / (8.0 * EA) + H / w * (np.sqrt(1.0 + (V / H) ** 2) - 1.0)
    return H, sag


def hanging_cable(length=None, rho_A=None, g=None, EA=None, EI=None, n=None, load_steps=10):
    """The cable of :data:`CATENARY` (any entry replaced by a keyword) along x from the origin,
    a spherical joint to the ground at each end, solved by ``rancf.static``. Returns the result,
    the cable and the two joints."""
    p = {k: v for k, v in dict(length=length, rho_A=rho_A, g=g, EA=EA, EI=EI, n=n).items()
         if v is not None}
    p = {**CATENARY, **p}
    m = rancf.Model(dim=3, gravity=(0.0, -p["g"], 0.0))
    # A = 1 m^2: E and rho are then EA and rho A
    c = m.add_beam(p["length"], p["n"], E=p["EA"], rho=p["rho_A"], A=1.0, I=p["EI"] / p["EA"],
                   element="ancf-cable")
    pins = (m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start),
            m.add_joint("spherical", m.ground.point(p["length"], 0.0, 0.0), c.end))
    res = rancf.static(m, load_steps=load_steps, tol=1e-12)
    return res, c, pins


def slack_cable(gravity=(0.0, -9.81, 0.0), n=32, span=1.0, length=1.2, rho_A=1.0, EI=1e-6):
    """A cable with slack: drawn as the circular arc of ``length`` (m) between pins ``span``
    apart, sagging in the x-y plane (its nodes and unit tangents on the arc:
    ``add_beam(points=, tangents=)``, the cable's length then that of its Hermite elements,
    ``c.length``, within 3e-8 m of ``length`` at 32 elements), a spherical joint to the
    ground at each end, EA = 1e6 times its weight ``rho_A 9.81 length``, ``gravity`` (m/s^2).
    A plane curved cable: ``rancf.static`` solves its first load step with a shifted matrix
    (docs/theory.rst, Curved cables). Returns the model, the cable and the two joints."""
    R = brentq(lambda R: 2 * R * np.sin(length / (2 * R)) - span, length / np.pi, 100.0)
    phi = length / R * (np.arange(n + 1) / n - 0.5)
    P = np.column_stack([span / 2 + R * np.sin(phi), R * (np.cos(phi[0]) - np.cos(phi)),
                         np.zeros(n + 1)])
    T = np.column_stack([np.cos(phi), np.sin(phi), np.zeros(n + 1)])
    # the ends exactly at the pins (round-off of R sin(phi) otherwise)
    P[0], P[-1] = (0.0, 0.0, 0.0), (span, 0.0, 0.0)
    EA = 1e6 * rho_A * 9.81 * length
    m = rancf.Model(dim=3, gravity=gravity)
    c = m.add_beam(n_elements=n, points=P, tangents=T, E=EA, rho=rho_A, A=1.0, I=EI / EA,
                   element="ancf-cable")
    pins = (m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start),
            m.add_joint("spherical", m.ground.point(span, 0.0, 0.0), c.end))
    return m, c, pins


def inextensible_catenary(length, span, w):
    """The inextensible catenary of ``length`` between supports ``span`` apart at one height,
    weight w (N/m): ``(a, sag, H)`` with ``2 a sinh(span / (2 a)) = length``, the sag
    ``a (cosh(span / (2 a)) - 1)`` (m) and the horizontal tension ``H = w a`` (N); its shape
    ``y = a cosh((x - span / 2) / a) - a cosh(span / (2 a))``."""
    a = brentq(lambda a: 2 * a * np.sinh(span / (2 * a)) - length, 1e-3 * span, 1e3 * span,
               xtol=1e-15, rtol=1e-15)
    return a, a * (np.cosh(span / (2 * a)) - 1.0), w * a


def exudyn_cantilever():
    """Exudyn's 3D cable cantilever (:data:`EXUDYN_CANTILEVER`) clamped at the origin (the
    clamp holds r and the slope's y and z, Exudyn's), solved by ``rancf.static`` in 4 load
    steps. Returns the result, the cable and the clamp."""
    p = EXUDYN_CANTILEVER
    m = rancf.Model(dim=3, gravity=(0.0, -p["g"], 0.0))
    c = m.add_beam(p["length"], p["n"], E=p["EA"], rho=p["rho_A"], A=1.0, I=p["EI"] / p["EA"],
                   element="ancf-cable")
    clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), c.start)
    return rancf.static(m, load_steps=4, tol=1e-12), c, clamp
