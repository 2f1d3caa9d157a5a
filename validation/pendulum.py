"""The 5 x 5 flexible pendulum shared by the cases ``rigid-limit``, ``energy``, ``scaling``, ``peers``.

Parameters are this project's reconstruction (CASES.md): the RANCF paper's table did not
survive. Also here: which ``rancf.simulate`` formulations and methods this checkout offers
(probed at run time, so the cases list missing ones instead of failing), a stable explicit
step from the element frequencies, and points along the deformed beams for drawing. The
pendulum is a :class:`rancf.Model` (``rancf.pendulum``); "chain" below is the word for it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.linalg import eigh

import rancf
from rancf.elements import beam as element
from rancf.formulations import recursive

#: The reference chain of CASES.md (SI units).
REFERENCE = {
    "n_bodies": 5,
    "elements_per_body": 5,
    "body_length": 5.0,  # m, so the chain is L = 25 m long
    "rho": 7800.0,  # kg/m^3
    "side": 0.03,  # m, square section: A = 9e-4 m^2, I = 6.75e-8 m^4
    "gravity": 9.81,  # m/s^2 along -y
}
ASSUMPTIONS = [
    "Parameter table reconstructed by this project (the RANCF paper's table did not survive): "
    "5 bodies x 5 elements, 5 m bodies (L = 25 m), rho = 7800 kg/m^3, square section 0.03 m "
    "(A = 9e-4 m^2, I = 6.75e-8 m^4), g = 9.81 m/s^2 along -y.",
    "Body 1 pinned at the origin, revolute joints between bodies, start straight along +x at rest.",
]


def pendulum(E: float, elastic_model: str = "shabana", elements_per_body: int | None = None,
             n_bodies: int | None = None) -> "rancf.Model":
    """The reference chain with Young's modulus ``E`` (Pa), optionally re-meshed or lengthened."""
    p = dict(REFERENCE)
    if elements_per_body is not None:
        p["elements_per_body"] = elements_per_body
    if n_bodies is not None:
        p["n_bodies"] = n_bodies
    return rancf.pendulum(n_bodies=p["n_bodies"], elements_per_body=p["elements_per_body"],
                          body_length=p["body_length"], E=E, rho=p["rho"], side=p["side"],
                          joint="revolute", gravity=p["gravity"], elastic_model=elastic_model)


def dof(chain) -> int:
    """Degrees of freedom of a chain: the generalized velocities of the recursive formulation
    (4 per element and 2 per revolute body: 110 for the 5 x 5 pendulum)."""
    return recursive.of(chain.build()).n_dof


def max_frequency(chain) -> float:
    """Upper bound of the chain's highest natural frequency (rad/s) in the straight state.

    By the element eigenvalue theorem the highest eigenvalue of the assembled ``K v = w^2 M v``
    does not exceed the highest element eigenvalue, so the bound is the largest
    ``sqrt(eig(K_e, M_e))`` over the elements (tangent stiffness of the straight element).
    """
    e = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0])
    best = 0.0
    for body in chain.beams:
        l = body.length / body.n_elements
        e[4] = l
        K = element.tangent_stiffness(e, l, body.E, body.A, body.I, chain.elastic_model)
        M = element.mass_matrix(body.rho, body.A, l)
        best = max(best, float(np.sqrt(max(eigh(0.5 * (K + K.T), M, eigvals_only=True).max(), 0.0))))
    return best


def rk4_step(chain, dt_max: float, safety: float = 0.8) -> float:
    """A step of the form ``dt_max / k`` (k integer) below ``safety`` x RK4's stability limit.

    Classical RK4 is stable on the imaginary axis up to ``h w = 2 sqrt(2)``; w is bounded from
    above by :func:`max_frequency`, so the step is safe for the linearised straight chain.
    """
    limit = safety * 2 * np.sqrt(2) / max_frequency(chain)
    return dt_max / max(1, int(np.ceil(dt_max / limit)))


@dataclass
class Variant:
    """A way of integrating a chain with ``rancf.simulate``: a label and its keyword arguments."""

    label: str
    kwargs: dict
    available: bool = True
    reason: str = ""
    implicit: bool = False


#: Every formulation the scaling and peers cases try, in the order they are reported.
FORMULATIONS = [
    Variant("RANCF explicit (RK4)", {"formulation": "recursive", "method": "rk4"}),
    Variant("RANCF implicit (generalized-alpha)",
            {"formulation": "recursive", "method": "generalized-alpha"}, implicit=True),
    Variant("DAE dense (generalized-alpha)",
            {"formulation": "dae", "method": "generalized-alpha", "linear_solver": "dense"}, implicit=True),
    Variant("DAE sparse (generalized-alpha)",
            {"formulation": "dae", "method": "generalized-alpha", "linear_solver": "sparse"}, implicit=True),
]

#: Integrators tried for the energy-drift table (formulation, method, extra options); the DAE
#: with the dense LU, as before the sparse solver became simulate's default.
INTEGRATORS = [
    Variant("RANCF RK4", {"formulation": "recursive", "method": "rk4"}),
    Variant("RANCF dopri5 (adaptive, rtol 1e-8)", {"formulation": "recursive", "method": "dopri5",
                                                  "rtol": 1e-8, "atol": 1e-10}),
    Variant("RANCF Newmark", {"formulation": "recursive", "method": "newmark"}, implicit=True),
    Variant("RANCF generalized-alpha rho=1", {"formulation": "recursive", "method": "generalized-alpha",
                                              "rho_inf": 1.0}, implicit=True),
    Variant("DAE Newmark", {"formulation": "dae", "method": "newmark", "linear_solver": "dense"},
            implicit=True),
    Variant("DAE generalized-alpha rho=1", {"formulation": "dae", "method": "generalized-alpha",
                                            "rho_inf": 1.0, "linear_solver": "dense"}, implicit=True),
    Variant("DAE generalized-alpha rho=0.9", {"formulation": "dae", "method": "generalized-alpha",
                                              "rho_inf": 0.9, "linear_solver": "dense"}, implicit=True),
]


#: Optional dependencies a formulation may need (``rancf[peers]``); only their absence reads as
#: "not available".
OPTIONAL_PEERS = ("exudyn",)


def probe(variants: list[Variant]) -> list[Variant]:
    """Mark each variant available or not by running it for two steps on a tiny chain.

    Only an ImportError of an optional peer (:data:`OPTIONAL_PEERS`) makes a variant "not
    available"; any other exception propagates, and a run that does not end "ok" raises, so a
    crash is never reported as a missing package.
    """
    tiny = pendulum(21e6, n_bodies=2, elements_per_body=2)
    checked = []
    for v in variants:
        try:
            res = rancf.simulate(tiny, 2e-3, 1e-3, output_every=1, **v.kwargs)
        except ImportError as exc:
            if (exc.name or "").split(".")[0] not in OPTIONAL_PEERS:
                raise
            checked.append(Variant(v.label, v.kwargs, False, f"{type(exc).__name__}: {exc}", v.implicit))
            continue
        if res.status != "ok":
            raise RuntimeError(f"{v.label} on a 2 x 2 pendulum for two steps: {res.status}: {res.message}")
        checked.append(Variant(v.label, v.kwargs, True, "", v.implicit))
    return checked


def timed(chain, t_end: float, dt: float, **kwargs):
    """``rancf.simulate`` with the wall time measured around the call (s)."""
    start = time.perf_counter()
    res = rancf.simulate(chain, t_end, dt, **kwargs)
    return res, time.perf_counter() - start


def beam_points(chain, nodes: np.ndarray, per_element: int = 11) -> np.ndarray:
    """Points along every element of a deformed chain, ``r(xi) = S(xi) e``.

    Parameters
    ----------
    chain : rancf.Model
    nodes : (n_vertices, 4) array
        Node coordinates ``[x, y, x', y']`` of one state (one frame of ``Result.nodes``).

    Returns
    -------
    (n_elements * per_element, 2) array of positions in m, base to tip.
    """
    xis = np.linspace(0.0, 1.0, per_element)
    points = []
    assembly = chain.build()
    for (a, b), l in zip(assembly.element_vertices, assembly.element_length):
        e = np.concatenate([nodes[a], nodes[b]])
        points.extend(element.shape_functions(xi, l) @ e for xi in xis)
    return np.array(points)
