"""Shared set-up of the rancf benchmarks: systems, states, and feature look-up.

asv runs the suite (as it is at HEAD) against every commit of the history, including commits
from before a feature existed. Benchmarks therefore reach every feature through
:func:`require`, which decides between a skip and a failure when a name is missing
(developer: Build and debug build):

* the commit asv benchmarks (``ASV_COMMIT``) is older than the feature, i.e. it lacks the
  file that marks the feature in :data:`FEATURES`: ``NotImplementedError``, which asv reports
  as skipped (``n/a``); the benchmark starts measuring on the first commit with the feature;
* otherwise (the commit has the feature, or no commit is given: the installed working tree,
  as with ``asv run --python=same`` or pytest): :class:`MissingName`, a failure, since a
  name the suite asks for that is missing where the feature exists is a renamed or broken
  feature, not an old commit.

A feature that exists but fails to import is a real error and is never turned into a skip.
"""
import functools
import importlib
import os
import subprocess
import timeit
from pathlib import Path

import numpy as np

#: The reference pendulum of the RANCF paper (CASES.md): 5 m bodies of 1 m
#: elements, square steel section of side 0.03 m, E = 21 MPa (large deformation).
BODY_LENGTH = 5.0
ELEMENTS_PER_BODY = 5
RHO = 7800.0
SIDE = 0.03
E_SOFT = 21e6
E_STEEL = 210e9

#: Degrees of freedom per revolute body, n = 4 Nbar + 2 N (theory: Chains of beams).
DOF_PER_BODY = 4 * ELEMENTS_PER_BODY + 2
#: Chain sizes in degrees of freedom: the paper's 5 ... 40 bodies, then 455 and
#: 4545 bodies (about 1e4 and 1e5 DOF).
DOFS_PAPER = [110, 220, 440, 880]
DOFS = DOFS_PAPER + [455 * DOF_PER_BODY, 4545 * DOF_PER_BODY]

#: The repository asv benchmarks ("repo": ".." in asv.conf.json).
REPOSITORY = Path(__file__).resolve().parents[2]
#: Features the suite needs, each marked by a file that exists from the commit that introduced
#: the feature on. "model": the mechanism model of issue 11 (rancf.Model, rancf.State(x, v),
#: rancf.formulations, rancf.integrators, rancf.elements), which every benchmark of rancf's
#: own API uses. "reduced": the adaptive modal method as ``rancf.reduce`` (developer: What stays
#: public); "progress": ``rancf.simulate(..., progress=...)`` (issue 15); "spatial": spatial
#: models, ``rancf.Model(dim=3)`` on the O(n) spatial formulation (issue 22); "spatial-loops": the
#: spatial DAE and its spherical four-bar (issue 23).
FEATURES = {
    "model": "rancf/model/model.py",
    "rod-slider": "validation/cases/rod_slider.py",
    "reduced": "rancf/formulations/reduced/reductor.py",
    "progress": "rancf/progress.py",
    "spatial": "rancf/formulations/_spatial_implicit.pyx",
    "spatial-loops": "validation/spherical_four_bar.py",
    "spatial cable recursion": "tests/test_spatial_cable_recursion.py",
}


class MissingName(LookupError):
    """A name the suite asks for is missing from a commit that has its feature."""


def older_than(feature):
    """True when the commit asv benchmarks (``ASV_COMMIT``) predates ``feature``: it lacks the
    feature's marker file. False without ``ASV_COMMIT`` (the installed working tree has every
    feature of HEAD)."""
    if feature not in FEATURES:
        raise ValueError(f"feature must be one of {sorted(FEATURES)}, got {feature!r}")
    commit = os.environ.get("ASV_COMMIT")
    return bool(commit) and not _has_file(commit, FEATURES[feature])


@functools.lru_cache(maxsize=None)
def _has_file(commit, path):
    """Whether ``commit`` of :data:`REPOSITORY` has the file ``path``."""
    def exists(obj):
        return subprocess.run(["git", "-C", str(REPOSITORY), "cat-file", "-e", obj],
                              capture_output=True).returncode == 0

    if not exists(f"{commit}^{{commit}}"):
        raise RuntimeError(f"ASV_COMMIT={commit} is not a commit of {REPOSITORY}")
    return exists(f"{commit}:{path}")


def _missing(what, feature):
    if older_than(feature):
        raise NotImplementedError(f"{what} is not available in this commit (older than the "
                                  f"feature {feature!r})")
    commit = os.environ.get("ASV_COMMIT")
    where = (f"commit {commit} has the feature {feature!r} ({FEATURES[feature]} exists)" if commit
             else "the installed rancf is not an asv build of an old commit (no ASV_COMMIT)")
    raise MissingName(f"{what} is missing, but {where}: a renamed or broken feature")


def require(module, *names, feature="model"):
    """Import ``module`` and return it, or the attributes ``names`` of it.

    Parameters
    ----------
    module : str
        Dotted module name, e.g. ``"rancf.formulations.recursive"``.
    *names : str
        Dotted attribute paths inside the module, e.g. ``"elements.beam.mass_matrix"``.
    feature : str
        The key of :data:`FEATURES` the names belong to.

    Returns
    -------
    The module when no names are given, the attribute for one name, else a tuple.

    Raises
    ------
    NotImplementedError
        When the submodule or an attribute does not exist and the commit is older than
        ``feature`` (asv: skip).
    MissingName
        When it does not exist although the commit has ``feature`` (asv: failure).
        A missing ``rancf`` package, or an ImportError raised *inside* an existing
        module, propagates unchanged.
    """
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        # Only a missing submodule is a missing feature; without rancf itself the
        # environment is broken and every benchmark must fail, not skip.
        if exc.name not in (None, "rancf") and (module + ".").startswith(exc.name + "."):
            _missing(module, feature)
        raise
    found = []
    for name in names:
        obj = mod
        for part in name.split("."):
            if not hasattr(obj, part):
                _missing(f"{module}.{name}", feature)
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
    calls do not modify are cached (a model is frozen once built).
    """
    cache = {}

    def fetch(*args):
        if args not in cache:
            cache[args] = build(*args)
        return cache[args]
    fetch.__doc__ = build.__doc__
    return fetch


def batch(bench, calls):
    """Make the timing benchmark ``bench`` (from its ``setup``) time ``calls`` back-to-back
    calls per sample and report seconds per call.

    The benchmark makes the calls itself, in one timed call per sample (``number = 1``),
    looping over ``bench.calls`` (a ``range``), and asv reads a clock in units of ``calls``
    (``timer``: wall time / ``calls``), so that its samples stay seconds per call. Why not
    asv's ``number``: with a ``setup``, asv_runner may re-run ``setup`` before every call and
    time each call alone (asv#966), two clock reads around a call of microseconds."""
    calls = max(1, int(calls))
    bench.number = 1
    bench.calls = range(calls)
    bench.timer = lambda: timeit.default_timer() / calls


def pendulum(n_dof, E=E_SOFT, elastic_model="shabana"):
    """The reference pendulum (a ``rancf.Model``) extended to ``n_dof`` degrees of freedom.

    ``n_dof`` must be a multiple of :data:`DOF_PER_BODY` (22): ``n_dof / 22`` bodies
    of 5 elements each, revolute joints, pinned at the origin.
    """
    if n_dof % DOF_PER_BODY:
        raise ValueError(f"n_dof must be a multiple of {DOF_PER_BODY}, got {n_dof}")
    make = require("rancf", "pendulum")
    return make(n_bodies=n_dof // DOF_PER_BODY, elements_per_body=ELEMENTS_PER_BODY,
                body_length=BODY_LENGTH, E=E, rho=RHO, side=SIDE, joint="revolute",
                gravity=9.81, elastic_model=elastic_model)


def wavy_state(model, amplitude=0.1, wavelength=5.0, seed=0):
    """A deformed, moving state of a pendulum ``model``: every element stretched and bent.

    The straight state at rest has zero elastic force, which would flatter kernels
    that skip work on zeros. Here the centre line is ``r(s) = (s, a sin(k s))``
    with slopes ``r'(s) = (1, a k cos(k s))``, ``k = 2 pi / wavelength`` (m), so the
    two nodes of a joint share their position; the node velocities are seeded random
    numbers of order 0.1 (m/s, 1/s), with the pin at rest and the two nodes of a joint
    moving together (the velocity conditions of the revolute joints).

    Returns
    -------
    rancf.State
    """
    State = require("rancf", "State")
    assembly = model.build()
    k = 2.0 * np.pi / wavelength
    s = np.concatenate([b.start_position[0] + np.linspace(0.0, b.length, b.n_nodes)
                        for b in model.beams])
    nodes = np.column_stack([s, amplitude * np.sin(k * s),
                             np.ones_like(s), amplitude * k * np.cos(k * s)])
    v = 0.1 * np.random.default_rng(seed).standard_normal(nodes.shape)
    first = assembly.beam_first_vertex
    v[0, :2] = 0.0
    v[first[1:], :2] = v[first[1:] - 1, :2]
    return State(nodes.ravel(), v.ravel())


@memoized
def reference_system(n_dof, E=E_SOFT, elastic_model="shabana"):
    """``(model, state)``: :func:`pendulum` and its :func:`wavy_state`, built once per process."""
    require("rancf", "Model")  # the State(x, v) of the mechanism model
    model = pendulum(n_dof, E, elastic_model)
    return model, wavy_state(model)
