"""Shared set-up of the rancf benchmarks: systems, states, and feature look-up.

asv runs the suite against every commit of the history, including commits from
before a feature existed. Benchmarks therefore reach every feature through
:func:`require`, which raises ``NotImplementedError`` when it is missing: asv
reports such a benchmark as skipped (``n/a``) instead of failed, and it starts
measuring on the first commit that has the feature. A feature that exists but
fails to import is a real error and is not turned into a skip.
"""
import importlib

import numpy as np

#: The reference pendulum of the RANCF paper (CASES.md): 5 m bodies of 1 m
#: elements, square steel section of side 0.03 m, E = 21 MPa (large deformation).
BODY_LENGTH = 5.0
ELEMENTS_PER_BODY = 5
RHO = 7800.0
SIDE = 0.03
E_SOFT = 21e6
E_STEEL = 210e9

#: Degrees of freedom per revolute body, n = 4 Nbar + 2 N (DESIGN.md section 2).
DOF_PER_BODY = 4 * ELEMENTS_PER_BODY + 2
#: Chain sizes in degrees of freedom: the paper's 5 ... 40 bodies, then 455 and
#: 4545 bodies (about 1e4 and 1e5 DOF).
DOFS_PAPER = [110, 220, 440, 880]
DOFS = DOFS_PAPER + [455 * DOF_PER_BODY, 4545 * DOF_PER_BODY]


def require(module, *names):
    """Import ``module`` and return it, or the attributes ``names`` of it.

    Parameters
    ----------
    module : str
        Dotted module name, e.g. ``"rancf.dae"``.
    *names : str
        Dotted attribute paths inside the module, e.g. ``"element.mass_matrix"``.

    Returns
    -------
    The module when no names are given, the attribute for one name, else a tuple.

    Raises
    ------
    NotImplementedError
        When the submodule or one of the attributes does not exist (asv: skip).
        A missing ``rancf`` package, or an ImportError raised *inside* an existing
        module, propagates unchanged.
    """
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        # Only a missing submodule is a missing feature; without rancf itself the
        # environment is broken and every benchmark must fail, not skip.
        if exc.name not in (None, "rancf") and (module + ".").startswith(exc.name + "."):
            raise NotImplementedError(f"{module} is not available in this commit") from None
        raise
    found = []
    for name in names:
        obj = mod
        for part in name.split("."):
            if not hasattr(obj, part):
                raise NotImplementedError(f"{module}.{name} is not available in this commit")
            obj = getattr(obj, part)
        found.append(obj)
    if not names:
        return mod
    return found[0] if len(found) == 1 else tuple(found)


def memoized(build):
    """Cache ``build(*args)`` for the life of the benchmark process.

    asv may re-run ``setup`` before every timed call (asv_runner >= 0.3 does, so that
    each call sees a freshly set-up state); building a 1e5-DOF chain takes seconds,
    so set-ups fetch their systems from this cache. Only objects the benchmarked
    calls do not modify are cached.
    """
    cache = {}

    def fetch(*args):
        if args not in cache:
            cache[args] = build(*args)
        return cache[args]
    fetch.__doc__ = build.__doc__
    return fetch


def pendulum(n_dof, E=E_SOFT, elastic_model="shabana"):
    """The reference pendulum extended to ``n_dof`` degrees of freedom.

    ``n_dof`` must be a multiple of :data:`DOF_PER_BODY` (22): ``n_dof / 22`` bodies
    of 5 elements each, revolute joints, pinned at the origin.
    """
    if n_dof % DOF_PER_BODY:
        raise ValueError(f"n_dof must be a multiple of {DOF_PER_BODY}, got {n_dof}")
    make = require("rancf", "pendulum")
    return make(n_bodies=n_dof // DOF_PER_BODY, elements_per_body=ELEMENTS_PER_BODY,
                body_length=BODY_LENGTH, E=E, rho=RHO, side=SIDE, joint="revolute",
                gravity=9.81, elastic_model=elastic_model)


def wavy_state(chain, amplitude=0.1, wavelength=5.0, seed=0):
    """A deformed, moving state of ``chain``: every element stretched and bent.

    The straight state at rest has zero elastic force, which would flatter kernels
    that skip work on zeros. Here the centre line is ``r(s) = (s, a sin(k s))``
    with slopes ``r'(s) = (1, a k cos(k s))``, ``k = 2 pi / wavelength`` (m), so
    joint copies of a node share their position, and the generalized velocities
    are seeded random numbers of order 0.1 (m/s, 1/s).

    Returns
    -------
    rancf.State
    """
    k = 2.0 * np.pi / wavelength
    ends = np.concatenate([[0.0], np.cumsum(chain.element_length)])
    s = np.empty(chain.n_nodes)
    s[chain.element_nodes[:, 0]] = ends[:-1]
    s[chain.element_nodes[:, 1]] = ends[1:]
    nodes = np.column_stack([s, amplitude * np.sin(k * s),
                             np.ones_like(s), amplitude * k * np.cos(k * s)])
    beta = 0.1 * np.random.default_rng(seed).standard_normal(chain.n_dof)
    return chain.state(nodes, beta)


@memoized
def reference_system(n_dof, E=E_SOFT, elastic_model="shabana"):
    """``(chain, state)``: :func:`pendulum` and its :func:`wavy_state`, built once per process."""
    chain = pendulum(n_dof, E, elastic_model)
    return chain, wavy_state(chain)
