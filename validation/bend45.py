"""The 45-degree bend of Bathe and Bolourchi as a rancf model, with its reference tip values.

A cantilever whose centreline is an arc of radius R = 100 over 45 degrees in the x-y plane,
clamped at the origin with its tangent along +x and curving towards +y (centre of the arc at
``(0, R, 0)``), so that the free end sits at ``(R sin 45, R (1 - cos 45), 0) = (70.711, 29.289,
0)``. A unit square section (A = 1, I_y = I_z = 1/12), E = 1e7, nu = 0 (G = E / 2), shear
correction 5/6; a tip force of 600 along +z (out of the arc's plane, direction fixed). The tip
then moves back and down in the plane and up out of it: displacement about (-23.6, -13.6, 53.5).

Bathe and Bolourchi, "Large displacement analysis of three-dimensional beam structures",
IJNME 14 (1979) 961-986; Simo and Vu-Quoc, "A three-dimensional finite-strain rod model. Part
II: computational aspects", CMAME 58 (1986) 79-116, whose tip position (47.23, 15.79, 53.37)
is quoted as the displacement (-23.48, -13.50, 53.37) from the undeformed tip; they take the
torsion constant J = 0.141 (Saint-Venant's value for a unit square, 0.1406). The arc's geometry
and sign follow from DESIGN.md section 7's prototype values (all three components of the
displacement negative, negative, positive at every mesh): only this placement gives them.

The reference of DESIGN.md section 7 takes J = 1/6 (I_y + I_z, the polar moment): a numpy
prototype of the same relative-coordinate element converged at second order to
(-23.561, -13.604, 53.476) (Richardson extrapolation of 16 and 32 elements), and Exudyn 1.13's
geometrically exact beam at 8 to 64 elements went to the same point within 1e-3.
"""
from __future__ import annotations

import numpy as np

import rancf

R = 100.0  # arc radius
ANGLE = np.pi / 4  # arc angle (rad)
E = 1e7
G = E / 2.0  # nu = 0
A = 1.0
I_SECTION = 1.0 / 12.0  # I_y = I_z of the unit square
KAPPA = 5.0 / 6.0
FORCE = 600.0  # tip force along +z
J_POLAR = 1.0 / 6.0  # I_y + I_z: DESIGN.md section 7's reference
J_SAINT_VENANT = 0.141  # Simo and Vu-Quoc's torsion constant of the unit square
RHO = 1.0  # statics: the density only scales masses, which no static solve sees

#: Undeformed tip (R sin 45, R (1 - cos 45), 0).
TIP0 = np.array([R * np.sin(ANGLE), R * (1.0 - np.cos(ANGLE)), 0.0])

#: DESIGN.md section 7: the prototype's tip displacement at 8, 16, 32 elements and its
#: extrapolation (J = 1/6).
PROTOTYPE = {8: (-23.41, -13.63, 53.77), 16: (-23.53, -13.61, 53.55), 32: (-23.553, -13.606, 53.495)}
EXTRAPOLATED = np.array([-23.561, -13.604, 53.476])

#: DESIGN.md section 7: Exudyn 1.13's ObjectBeamGeometricallyExact on the same data (J = 1/6).
EXUDYN_1_13 = {8: (-23.479, -13.578, 53.334), 16: (-23.540, -13.598, 53.440),
               32: (-23.556, -13.603, 53.467), 64: (-23.559, -13.604, 53.473)}

#: Simo and Vu-Quoc (1986), J = 0.141: tip position (47.23, 15.79, 53.37) minus TIP0.
SIMO_VU_QUOC = np.array([-23.48, -13.50, 53.37])


def arc(n_elements: int):
    """Nodes (n + 1, 3) and unit tangents (n + 1, 3) of the arc, equally spaced in angle."""
    phi = np.linspace(0.0, ANGLE, n_elements + 1)
    points = np.column_stack([R * np.sin(phi), R * (1.0 - np.cos(phi)), np.zeros_like(phi)])
    tangents = np.column_stack([np.cos(phi), np.sin(phi), np.zeros_like(phi)])
    return points, tangents


def model(n_elements: int, J: float = J_POLAR, force: float = FORCE):
    """The bend as a spatial rancf model.

    Parameters
    ----------
    n_elements : int
        Elements along the arc (equal angles).
    J : float
        Torsion constant (length^4): 1/6 for DESIGN.md's reference, 0.141 for Simo and Vu-Quoc's.
    force : float
        Tip force along +z.

    Returns
    -------
    (rancf.Model, SpatialBeam)
        The model (clamped at the origin by a fixed joint, the force on the tip, no gravity) and
        its beam (``beam.end`` is the tip). The section's y axis is +z (out of the arc's plane),
        its z axis the arc's inward normal; I_y = I_z, so the choice does not matter.
    """
    points, tangents = arc(n_elements)
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    beam = m.add_beam(n_elements=n_elements, points=points, tangents=tangents, E=E, rho=RHO, A=A,
                      I=(I_SECTION, I_SECTION), J=J, G=G, up=(0.0, 0.0, 1.0), kappa=(KAPPA, KAPPA))
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), beam.start)
    m.add_force(beam.end, force=(0.0, 0.0, force))
    return m, beam


def solve(n_elements: int, J: float = J_POLAR, load_steps: int = 10, tol: float = 1e-10):
    """The bend's equilibrium by :func:`rancf.static` (Newton with the full tangent: the
    residual's derivative, factored directly in O(n), rancf/formulations/_spatial_implicit.pyx,
    "Statics' direct Newton matrix").

    Returns
    -------
    dict
        ``tip`` (3,) the tip displacement, ``nodes`` (n + 1, 3) the deformed centreline,
        ``iterations`` Newton's per load step, ``wall`` the solve's wall time (s, rancf's own
        clock: Newton's set-up and the load steps, not building the model and its
        formulation), ``load_factor`` the load factor
        reached (1 unless rancf.static failed).
    """
    m, beam = model(n_elements, J)
    res = rancf.static(m, load_steps=load_steps, tol=tol)
    nodes = np.array([res.position(beam.node(i))[0] for i in range(n_elements + 1)])
    return {"tip": nodes[-1] - TIP0, "nodes": nodes, "iterations": [int(i) for i in res.extra["iterations"][0]],
            "wall": res.wall_time, "load_factor": float(res.extra["load_factor"][0])}
