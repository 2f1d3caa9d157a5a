"""Property-based tests of the spatial model, ``rancf.Model(dim=3)``, with hypothesis: the
counterpart of the planar ones (tests/test_properties.py, issue 14).

Random valid spatial trees (tests/spatial_property_models.py): straight and curved beams, rigid
bodies of random positive-definite inertia and orientation, every joint kind ("fixed",
"revolute", "prismatic", "cylindrical", "universal", "spherical", "free") at beam nodes (interior
ones too, for parent and child) and body points, with random axes; drives, constant efforts,
effort functions and rotational spring-dampers; constant, timed and follower forces and moments;
gravity in any direction; Kelvin-Voigt damping; E from 1e5 to 1e13 Pa, lengths from 1e-3 to
1e3 m.

(a) the recursion's body accelerations and joint reactions equal those of the spatial DAE (an
    independent second formulation: absolute coordinates, Euler parameters, constraint rows,
    multipliers; here solved densely) at the initial state and at a random moving, strained
    state, to ``1e-9`` of the scale of the terms that make them up (:func:`dae_reference`).
    That tolerance was chosen before any result was seen, as the planar property's: each
    formulation sums terms of that scale in double precision through O(depth) steps (a
    recursion of at most ~20 bodies here, an equilibrated LU of at most a few hundred
    unknowns), so the round-off expected is ~1e-16 of that scale times a growth of 1e2..1e4;
    1e-9 leaves a margin of 1e3 over the worst of that and is still 1e6 times tighter than a
    modelling difference (a wrong term, sign or frame is an O(1) fraction of its own scale).
    The first examples drawn showed two roundings that estimate missed, measured since and
    added beside the 1e-9, not loosened into it: the reference's own (the DAE's strains are
    differences of absolute coordinates; allowed :data:`ROUNDING` times its measured spread
    over the last place of its state), and the recursion's on an ill-conditioned generalized
    mass (slender beams on turning joints; held to :data:`CONDITIONED` times the condition
    number above :data:`ILL_CONDITIONED`, and kept as a strict xfail at 1e-9);
(b) a short run of any method and formulation ends "ok" with finite results at t_end, or
    stops "diverged"/"failed" with a message naming what happened, within a time limit; an
    explicit step beyond the stability limit may be refused (a ValueError naming dt);
    ``rancf.static`` returns "ok" with a finite equilibrium or "failed" with a message;
(c) the Result of an "ok" run answers position, orientation, velocity, acceleration,
    angular_velocity, joint, reaction, internal_forces, energy and to_frame with finite values
    of the documented shapes (orientations are rotations; a fixed, revolute, universal or
    spherical joint's two points stay at one place), and survives save -> load bit for bit.

The profiles are tests/test_properties.py's (``HYPOTHESIS_PROFILE``): ``ci`` (the default; 60
examples per property, derandomized, no example database; the module in about 12 s on the
2-core machine) and ``nightly`` (10,000 random examples per property, about half an hour on
one core: 2,250 examples of (a) took 86 s, 1,500 of (b) 100 s;
``HYPOTHESIS_PROFILE=nightly python -m pytest -q tests/test_spatial_properties.py``); a failure
prints the spec of the model (Python that rebuilds it, tests/spatial_property_models.py).

Defects the properties found are kept at the end as regression tests, each with its minimal
reproducer: a fixed one as a plain test, one not fixed as a strict xfail whose value class the
property treats apart until it is fixed.
"""
import math
import os
import re
import tempfile

import numpy as np
import pytest
from hypothesis import assume, event, given, note, settings
from hypothesis import strategies as st

import rancf
from rancf.formulations import spatial
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.joints._codes import P_GROUND, Motion
from run_contract import check_status, simulate_or_refused
from spatial_property_models import KINDS, Item, Load, SpatialSpec, build
# the profiles ("ci", "nightly") are registered and loaded there, for both modules
from test_properties import RUN_LIMIT, log_uniform, time_limit
from validation.spatial_trees import recursion_accelerations

#: Examples per property: the profile's (60 in "ci").
SPATIAL = settings(max_examples=settings.default.max_examples)


# --- random valid spatial models ----------------------------------------------------------------
def spherical(theta, phi):
    return (math.sin(theta) * math.cos(phi), math.sin(theta) * math.sin(phi), math.cos(theta))


#: a unit vector (its polar angle uniform, not its area: the poles are what shrinking finds)
DIRECTIONS = st.builds(spherical, st.floats(0.0, math.pi), st.floats(-math.pi, math.pi))
#: a rotation vector (rad): any rotation, ``angle * axis``
TURNS = st.builds(lambda axis, angle: tuple(angle * c for c in axis), DIRECTIONS,
                  st.floats(0.0, math.pi))
#: Item lengths are the scale times a factor in [0.25, 4]: the scale keeps them in [1e-3, 1e3] m.
SCALES = log_uniform(4e-3, 250.0)
EFFORTS = st.sampled_from(["none", "none", "spring", "constant", "function"])


@st.composite
def items(draw, n_max=4):
    """Items jointed to the ground or to earlier items (the first to the ground)."""
    out = []
    n = draw(st.integers(1, n_max))
    for i in range(n):
        kind = draw(st.sampled_from(["beam", "curved", "body"]))
        parent = draw(st.integers(-1, i - 1)) if i else -1
        joint = draw(st.sampled_from(KINDS))
        driven = joint in ("revolute", "prismatic") and draw(st.booleans())
        out.append(Item(
            kind=kind, parent=parent, at=draw(st.floats(0.0, 1.0)),
            child_at=draw(st.one_of(st.just(0.0), st.floats(0.0, 1.0))), joint=joint,
            driven=driven, effort="none" if driven else draw(EFFORTS),
            strength=draw(st.sampled_from([0.5, 1.0, 10.0, -2.0])), turn=draw(TURNS),
            axis=draw(DIRECTIONS), axis2=draw(DIRECTIONS), size=draw(st.floats(0.25, 4.0)),
            n_elements=draw(st.integers(1, 3)), bend=draw(st.floats(0.2, 2.0)),
            inertia=draw(st.tuples(*[log_uniform(0.05, 1.0)] * 3)),
            inertia_turn=draw(TURNS)))
    return tuple(out)


@st.composite
def loads(draw, n_items):
    forces = st.tuples(*[st.floats(-3.0, 3.0)] * 3)
    n = draw(st.integers(0, 2))
    return tuple(Load(item=draw(st.integers(0, n_items - 1)), at=draw(st.floats(0.0, 1.0)),
                      force=draw(forces), moment=draw(st.tuples(*[st.floats(-1.0, 1.0)] * 3)),
                      timed=draw(st.booleans()), follower=draw(st.booleans()))
                 for _ in range(n))


GRAVITY = st.one_of(st.just((0.0, 0.0, -9.81)), st.just((0.0, 0.0, 0.0)),
                    st.tuples(*[st.floats(-20.0, 20.0)] * 3))


@st.composite
def trees(draw, n_max=4):
    """A :class:`SpatialSpec` of a tree."""
    its = draw(items(n_max))
    return SpatialSpec(scale=draw(SCALES), E=draw(log_uniform(1e5, 1e13)),
                       rho=draw(log_uniform(300.0, 2e4)),
                       slenderness=draw(log_uniform(3e-3, 0.1)),
                       aspect=draw(st.floats(0.5, 2.0)), gravity=draw(GRAVITY),
                       damping=draw(st.sampled_from([0.0, 0.0, 1e-4])), items=its,
                       loads=draw(loads(len(its))))


# --- (a) accelerations ---------------------------------------------------------------------------
def equilibrated_solve(S, rhs, sweeps=8):
    """``S z = rhs`` by a dense LU of S scaled symmetrically, ``D S D``, D from a few sweeps of
    Ruiz's equilibration (each row and column to a largest entry near 1): the saddle-point
    matrix of a millimetre model mixes inertias of 1e-17 with constraint rows of 1, which
    defeats partial pivoting otherwise (tests/test_properties.py,
    ``test_dae_solve_of_a_millimetre_tree``); a symmetric scaling does not change the
    solution, only the rounding."""
    d = np.ones(len(S))
    for _ in range(sweeps):
        d /= np.sqrt(np.abs(d[:, None] * S * d).max(axis=1))
    return d * np.linalg.solve(d[:, None] * S * d, d * rhs)


def dae_solve(dae, x, v, t):
    """The spatial DAE at a consistent state: body accelerations (n, 6: ``r''`` m/s^2, ``w'``
    1/s^2) and joint reactions (n_joints, 6: N and N m), from the solution of ``[[M, G^T], [G,
    0]] [a, lambda] = [F, -xi]`` (the DAE's Newton matrix at c_m = 1), dense
    (:func:`equilibrated_solve`), mapped by ``dae.accelerations`` (``w' = 2 E(p) p''``) and
    ``dae.reactions``; and S, F, xi, a, lambda."""
    F = dae.force(x, v, t)
    xi = dae.acceleration_bias(x, v, t)
    n = len(x)
    S = dae.newton_matrix(x, np.zeros(n), np.zeros(dae.n_constraints), v, t, x, t, 1.0, 0.0,
                          0.0, 0.0, 1.0, factor=False).toarray()
    a, lam = np.split(equilibrated_solve(S, np.concatenate([F, -xi])), [n])
    return dae.accelerations(x, v, a), dae.reactions(x, lam, t), S, F, xi, a, lam


def dae_reference(dae, x, v, t, rng):
    """The spatial DAE's body accelerations and joint reactions at a consistent state
    (:func:`dae_solve`), each with the scale of the terms that make it up and the spread of
    the DAE's answer over the rounding of the state: ``(acc, scale, spread, reactions,
    reaction_scale, reaction_spread)``; a reaction's moments divided by R (below), so that
    its six entries are forces (N).

    The acceleration scale is the largest body acceleration (the linear map of
    :func:`dae_solve`) of: a; ``M~^-1 F`` and ``M~^-1 G^T lambda`` (the accelerations of the
    applied and of the constraint forces alone; ``M~`` the mass with each body's
    Euler-parameter block made regular along p, its null direction, which the normalisation
    row holds); the least-norm a with ``G a = -xi``; and the centripetal and Coriolis terms
    ``w (w R + |v|)`` of the fastest body (w its angular speed, |v| the largest body speed, R
    the largest of the model size and the bodies' distances from the origin, about which a
    relative formulation's spatial accelerations are taken). The reaction scale is the
    largest force of F, ``M a`` and ``G^T lambda`` (their Euler-parameter rows, twice a
    moment, divided by R). Round-off is relative to them, not to |a| or the reactions, which
    cancellation may leave near 0.

    The spread is the largest change of the answer over three states within one unit of
    the last place of x and v (each coordinate plus ``2^-52 u`` times the largest of its kind,
    positions, Euler parameters and their rates, u uniform in [-1, 1]: a coordinate is a sum
    of terms of that size, and one that should be 0 is rounded to 1e-16 of it, not to 0):
    x and v are the recursion's poses and velocities, rounded, and the DAE's strains are
    differences of absolute coordinates (``A^T (r_k - r_k-1) / l - s``, ``log(A_k-1^T A_k)``)
    that cancel to the strain, so its elastic forces carry a rounding of the section
    stiffness times the coordinates' last place, which the recursion (whose coordinates are
    the strains) does not: through a thin beam's node (rotary inertia ``rho I l``) 1.5e-6
    1/s^2 beside g in an example drawn (a beam clamped to a body at rest under gravity),
    beyond 1e-9 of the scale.
    """
    acc, reactions, S, F, xi, a, lam = dae_solve(dae, x, v, t)
    n = len(x)
    M, G = S[:n, :n].copy(), S[n:, :n]
    r, _ = dae.poses(x)
    R = max(dae.tree.size, np.linalg.norm(r, axis=1).max())
    reaction_scale = max(forces_of(vec.reshape(-1, 7), R) for vec in (F, M @ a, G.T @ lam))
    for b in range(dae.n_bodies):
        s = slice(7 * b + 3, 7 * b + 7)
        p = x[s] / np.linalg.norm(x[s])
        M[s, s] += np.trace(M[s, s]) / 3.0 * np.outer(p, p)
    terms = [a, np.linalg.solve(M, F), np.linalg.solve(M, G.T @ lam),
             np.linalg.lstsq(G, -xi, rcond=None)[0] if len(xi) else np.zeros(n)]
    V = dae.velocities(x, v)
    w = np.linalg.norm(V[:, 3:], axis=1).max()
    scale = max(max(np.abs(dae.accelerations(x, v, term)).max() for term in terms),
                w * (w * R + np.linalg.norm(V[:, :3], axis=1).max()))

    def ulp(z):
        Z = z.reshape(-1, 7)
        size = np.abs(Z).max(axis=0)
        size = np.concatenate([np.full(3, size[:3].max()), np.full(4, size[3:].max())])
        return z + 2.0 ** -52 * np.tile(size, len(Z)) * rng.uniform(-1.0, 1.0, z.shape)
    spread = reaction_spread = 0.0
    for _ in range(3):
        acc_u, reactions_u = dae_solve(dae, ulp(x), ulp(v), t)[:2]
        spread = max(spread, np.abs(acc_u - acc).max())
        reaction_spread = max(reaction_spread, forces_of(reactions_u - reactions, R))
    return acc, scale, spread, reactions, reaction_scale, reaction_spread


def forces_of(reactions, R):
    """The largest entry of reactions (n, 6: force, moment), or of generalized forces (n, 7:
    force, Euler-parameter rows), their moments divided by R (m): N."""
    return max(np.abs(reactions[:, :3]).max(initial=0.0),
               np.abs(reactions[:, 3:]).max(initial=0.0) / R)


#: translation coordinates (m) of each motion; the others are angles (rad)
TRANSLATIONS = {Motion.M_PRISMATIC: (0,), Motion.M_CYLINDRICAL: (0,), Motion.M_FREE: (0, 1, 2),
                Motion.M_ELEMENT: (0, 1, 2)}


def moving_state(rec, rng, scale):
    """A random state y of the recursion (every one satisfies the joints): joint angles of
    about 0.5 rad and slides of 5 % of ``scale`` (m); element coordinates moved by 5 % of the
    element's length and 0.05 rad (strained); rates of twice those per second."""
    tree = rec.tree
    smap = rec.kernel.arrays["smap"][:rec.n_q]
    size = np.empty(rec.n_free)
    for b in range(tree.n_bodies):
        m, e = Motion(int(tree.motion[b])), int(tree.element[b])
        for j, k in enumerate(range(int(tree.q_offset[b]), int(tree.q_offset[b + 1]))):
            if smap[k] >= 0:
                linear = j in TRANSLATIONS.get(m, ())
                size[smap[k]] = 0.05 * (float(tree.length[e]) if e >= 0 else scale) if linear \
                    else (0.05 if e >= 0 else 0.5)
    return rec.initial_state(size * rng.standard_normal(rec.n_free),
                             2.0 * size * rng.standard_normal(rec.n_free))


#: The DAE's rounding allowed, in spreads of :func:`dae_reference`: x and v are rounded by
#: more than one unit of their last place (the recursion's poses, through a quaternion), and
#: three samples find less than the largest spread.
ROUNDING = 30.0


def recursion_and_dae(model):
    rec = spatial.of_model(model)
    return rec, SpatialDAE(model.build(), *spatial.model_inputs(model))


def mass_condition(rec, dae):
    """The condition number of the recursion's generalized mass matrix ``H = B^T M B`` at the
    reference, equilibrated (symmetric Ruiz scaling, as :func:`equilibrated_solve`): M the
    spatial DAE's mass of the bodies, B the map of the free coordinates' rates to the DAE's
    velocities (``dae.state_of`` is linear in them; columns exactly). The recursion solves
    with H (in O(n), by its articulated inertias): its round-off grows with this number."""
    y = rec.initial_state()
    n = rec.n_free
    x, v0 = dae.state_of(y, 0.0)
    B = np.empty((len(x), n))
    for j in range(n):
        yj = y.copy()
        yj[n + j] = 1.0
        B[:, j] = dae.state_of(yj, 0.0)[1] - v0
    H = B.T @ dae.mass(x).toarray() @ B
    d = np.ones(n)
    for _ in range(8):
        d /= np.sqrt(np.abs(d[:, None] * H * d).max(axis=1))
    return float(np.linalg.cond(d[:, None] * H * d))


#: Above this condition number of the recursion's generalized mass (:func:`mass_condition`)
#: its round-off, about 3e-17 of the scale times the condition number, reaches a thirtieth of
#: the property's 1e-9 (``test_a_slender_beam_on_a_ball_joint_loses_digits_in_the_recursion``):
#: slender beams on joints that turn, whose node rotary inertias ``rho I l`` are (l / b)^2
#: times smaller than the element's ``m l^2``; half the trees drawn. Until that is fixed they
#: are held to :data:`CONDITIONED` times the condition number instead of 1e-9.
ILL_CONDITIONED = 1e6
#: The relative error allowed per unit condition number above :data:`ILL_CONDITIONED`: 30 times
#: the largest ratio measured (3e-17, on beams of 1 to 3 m of 1 to 3 elements on spherical,
#: revolute and prismatic joints; chosen after that finding, not before the property ran). A
#: wrong term is still an O(1) fraction of its scale: at the largest condition numbers drawn
#: (1e9) this bound is 1e-6.
CONDITIONED = 1e-15


@SPATIAL
@given(spec=trees(), seed=st.integers(0, 2**32 - 1))
def test_recursive_accelerations_equal_the_spatial_dae(spec, seed):
    """(a) On random spatial trees, at the initial state (the drives' velocities included) and
    at a random moving, strained state, the recursion's body accelerations and joint
    reactions equal the spatial DAE's to 1e-9 of the scale of their terms, beyond the DAE's
    own rounding (module docstring)."""
    note(f"spec = {spec!r}")
    model = build(spec)
    rec, dae = recursion_and_dae(model)
    condition = mass_condition(rec, dae) if rec.n_free else 1.0
    event(f"generalized mass condition 1e{math.floor(math.log10(condition))}")
    relative = 1e-9 if condition <= ILL_CONDITIONED else CONDITIONED * condition
    rng = np.random.default_rng(seed)
    for t, y in ((0.0, rec.initial_state()), (0.3, moving_state(rec, rng, spec.scale))):
        acc, reactions = recursion_accelerations(rec, t, y)
        x, v = dae.state_of(y, t)
        expected, scale, spread, held, reaction_scale, reaction_spread = \
            dae_reference(dae, x, v, t, rng)
        error = np.abs(acc - expected).max()
        note(f"t = {t}: error {error:.3g}, scale {scale:.3g}, spread {spread:.3g}")
        assert np.isfinite(scale) and error <= relative * scale + ROUNDING * spread, \
            (t, error / scale, error / max(spread, 1e-300), condition)
        R = max(dae.tree.size, np.linalg.norm(dae.poses(x)[0], axis=1).max())
        error = forces_of(reactions - held, R)
        note(f"reactions: error {error:.3g} N, scale {reaction_scale:.3g}, "
             f"spread {reaction_spread:.3g}")
        assert error <= 1e-9 * reaction_scale + ROUNDING * reaction_spread, \
            (t, error / reaction_scale, error / max(reaction_spread, 1e-300))


# --- (b) short runs ------------------------------------------------------------------------------
EXPLICIT = ["rk4", "dopri5"]
IMPLICIT = ["newmark", "hht", "generalized-alpha", "generalized-alpha-s"]


def explicit_limit(model):
    """An explicit step of the order of RK4's stability limit at the reference (s):
    ``2 sqrt(2) / omega`` (RK4's on the imaginary axis), or where the element damping makes
    the top mode decay faster than it oscillates (d > omega), ``2.78 / d`` (RK4's on the real
    axis); omega the highest natural frequency and d the fastest decay rate of the recursion
    linearised at rest in the reference (power iteration, :meth:`Spatial.highest_rate`: both
    from below, so the limit from above, as ``simulate``'s own check); at most a tenth of the
    pendulum time ``sqrt(size / 9.81 m/s^2)`` (a model without stiffness, or a rigid one)."""
    rec = spatial.of_model(model)
    y0 = rec.initial_state()
    omega = rec.highest_rate(y0, "stiffness")
    d = rec.highest_rate(y0, "damping") if rec.damped else 0.0
    damped = 2.78 / d if d > omega else np.inf
    return min(2.0 * math.sqrt(2.0) / omega if omega > 0 else np.inf, damped,
               0.1 * math.sqrt(model.build().size / 9.81))


def check_outcome(res, model, t_end):
    """The contract of a finished short run (property (b)): status "ok" with results at t_end
    (a message only where implicit steps were cut, saying so), or "diverged"/"failed" with a
    message and the outputs before; whatever the status, the outputs kept are finite, and
    except in a divergence every driven joint follows its drive (1e-6 of its amplitude's
    scale)."""
    check_status(res, t_end)
    if res.status == "diverged":
        return
    size = model.build().size
    for j in model.joints:
        if j.drive is not None:
            q = res.joint(j)[0]
            held = np.array([j.drive(t)[0] for t in res.t])
            assert np.abs(q - held).max() <= 1e-6 * (size if j.kind == "prismatic" else 1.0), j


@st.composite
def runs(draw, methods=EXPLICIT + IMPLICIT, max_factor=100.0):
    """(spec, method, formulation, factor, n_steps, output_every): a few steps of any method
    on a random tree, the step a factor times :func:`explicit_limit` (up to 2 for the explicit
    methods, which must then be refused or diverge; up to ``max_factor`` for the implicit
    ones)."""
    spec = draw(trees())
    method = draw(st.sampled_from(methods))
    implicit = method in IMPLICIT
    formulation = draw(st.sampled_from(["auto", "recursive", "dae"] if implicit
                                       else ["auto", "recursive"]))
    factor = draw(log_uniform(0.05, max_factor) if implicit else log_uniform(0.05, 2.0))
    return (spec, method, formulation, factor, draw(st.integers(1, 8)), draw(st.integers(1, 4)))


def short_run(run):
    """The model, its step and t_end, and the Result of a drawn run (None where an RK4 step
    beyond the stability limit was refused, a ValueError naming dt), within RUN_LIMIT s."""
    spec, method, formulation, factor, n_steps, output_every = run
    note(f"spec = {spec!r}")
    model = build(spec)
    dt = factor * explicit_limit(model)
    t_end = n_steps * dt
    with time_limit(RUN_LIMIT):
        res = simulate_or_refused(model, t_end, dt, method, formulation, output_every)
    if res is None:
        return model, t_end, None
    event(f"{method}, {res.formulation}: {res.status} {res.message[:70]}")
    return model, t_end, res


@SPATIAL
@given(run=runs())
def test_short_runs_finish_or_stop_with_a_clear_status(run):
    """(b) Finite results at t_end, or status "diverged"/"failed" with a message, within
    RUN_LIMIT s; an RK4 step beyond the stability limit may be refused naming dt."""
    model, t_end, res = short_run(run)
    if res is not None:
        check_outcome(res, model, t_end)


@SPATIAL
@given(spec=trees())
def test_statics_finds_an_equilibrium_or_says_why_not(spec):
    """(b) ``rancf.static``: status "ok" with a finite equilibrium whose driven joints are at
    their drives' q(0) = 0, or "failed" with a message (a mechanism: a joint nothing holds),
    within RUN_LIMIT s."""
    note(f"spec = {spec!r}")
    model = build(spec)
    with time_limit(RUN_LIMIT):
        res = rancf.static(model)
    event(f"static: {res.status} {res.message[:70]}")
    assert res.status in ("ok", "failed"), (res.status, res.message)
    assert len(res.t) == 1
    if res.status == "ok":
        assert res.extra["load_factor"] == 1.0
    else:
        assert res.message
    for a in (res.nodes, res.joint_q, res.reactions):
        assert np.all(np.isfinite(a)), res.message
    for j in model.joints:
        if j.drive is not None:
            assert abs(res.joint(j)[0][0]) <= 1e-9 * model.build().size, j


# --- (c) the Result of an "ok" run --------------------------------------------------------------
def points_of(model):
    """Every beam's start, middle node and end, every body's centre and one other point."""
    out = []
    for b in model.beams:
        out += [b.start, b.node(b.n_elements // 2), b.end]
    for r in model.rigid_bodies:
        out += [r.centre, r.point(0.1, -0.2, 0.3)]
    return out


#: the outputs at a point
POINT_OUTPUTS = ("position", "orientation", "velocity", "acceleration", "angular_velocity")
#: joint kinds whose two points stay together (the others slide)
HELD_POINTS = ("fixed", "revolute", "universal", "spherical")


def check_outputs(res, model):
    """Each output of the Result, of the documented shape and finite; orientations rotations;
    the two points of a joint that holds them together where they are, moving alike."""
    n, size = len(res.t), model.build().size
    for p in points_of(model):
        R = res.orientation(p)
        assert res.position(p).shape == res.velocity(p).shape == res.acceleration(p).shape \
            == (n, 3)
        assert res.angular_velocity(p).shape == (n, 3) and R.shape == (n, 3, 3)
        assert np.abs(np.einsum("nki,nkj->nij", R, R) - np.eye(3)).max() <= 1e-9
        assert np.all(np.linalg.det(R) > 0.0)
        for a in (res.position(p), res.velocity(p), res.acceleration(p),
                  res.angular_velocity(p)):
            assert np.all(np.isfinite(a)), p
    for j in model.joints:
        q, qd = res.joint(j)
        k = j.type.spatial.n_coordinates
        assert q.shape == qd.shape == ((n,) if k == 1 else (n, k)), (j, q.shape)
        assert np.all(np.isfinite(q)) and np.all(np.isfinite(qd)), j
        assert res.reaction(j).shape == (n, 6) and np.all(np.isfinite(res.reaction(j))), j
        if j.kind in HELD_POINTS:
            held = j.parent.offset if j.parent.kind == P_GROUND else res.position(j.parent)
            gap = np.abs(res.position(j.child) - held).max()
            assert gap <= 1e-6 * size, (j, gap)
    for b in model.beams:
        f = res.internal_forces(b)
        assert f.shape == (n, b.n_elements, 6) and np.all(np.isfinite(f)), b
        s = [0.0, 0.5 * b.length, b.length]
        assert res.internal_forces(b, s=s).shape == (n, 3, 6)
    energy = res.energy()
    assert energy.shape == (n, 7) and np.all(np.isfinite(energy.to_numpy()))
    frame = res.to_frame()
    assert len(frame) == n * res.nodes.shape[1] and np.all(np.isfinite(frame.to_numpy()))


def assert_same_result(a, b, model):
    """b is a, bit for bit: arrays, energies, status, message, counters, extra and every
    output of :func:`check_outputs`."""
    assert (a.status, a.message, a.method, a.formulation, a.stats) == \
        (b.status, b.message, b.method, b.formulation, b.stats)
    for name in ("t", "nodes", "velocities", "joint_q", "joint_qd", "reactions", "work",
                 "dissipated"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    np.testing.assert_array_equal(a.energy().to_numpy(), b.energy().to_numpy())
    assert sorted(a.extra) == sorted(b.extra)
    for k in a.extra:
        np.testing.assert_array_equal(a.extra[k], b.extra[k], err_msg=k)
    outputs = [(name, p) for name in POINT_OUTPUTS for p in points_of(model)] \
        + [("reaction", j) for j in model.joints] + [("internal_forces", b) for b in model.beams]
    for name, arg in outputs:
        np.testing.assert_array_equal(getattr(a, name)(arg), getattr(b, name)(arg),
                                      err_msg=f"{name}({arg!r})")
    for j in model.joints:
        for u, v in zip(a.joint(j), b.joint(j)):
            np.testing.assert_array_equal(u, v, err_msg=repr(j))
    assert a.to_frame().equals(b.to_frame())


@SPATIAL
@given(run=runs(max_factor=10.0))
def test_an_ok_result_answers_every_output_and_survives_save_and_load(run):
    """(c) On an "ok" run of a random tree: every output (:func:`check_outputs`), and
    ``rancf.load(save(result))`` equal to it bit for bit."""
    model, _, res = short_run(run)
    assume(res is not None and res.status == "ok")
    check_outputs(res, model)
    path = os.path.join(tempfile.mkdtemp(prefix="rancf-spatial-properties-"), "run.npz")
    res.save(path)
    assert_same_result(res, rancf.load(path, model=model), model)
    os.remove(path)
    os.rmdir(os.path.dirname(path))


# --- defects the properties found (regression tests, each with its minimal reproducer) --------
SLENDER_BALL = SpatialSpec(E=1e9, rho=2449.489742783179, slenderness=0.003, aspect=0.5,
                           items=(Item(kind="beam", joint="spherical", size=4.0, n_elements=1),))


@pytest.mark.xfail(strict=True, reason="the spatial recursion's round-off grows with the "
                   "condition number of its generalized mass (3.4e8 here): 2.4e-9 of the "
                   "scale off the DAE's, whose own spread is 2e-14 of it")
def test_a_slender_beam_on_a_ball_joint_loses_digits_in_the_recursion():
    """A 4 m beam of one element, 3 by 1.5 mm, on a spherical joint (property (a) found it
    as a 3 m free beam at a clamped beam's node, 1.8e-9 of the scale off; shrunk and made
    the most slender the property draws by hand): at a moving, strained state (seed 0) the
    recursion's root-node angular acceleration is 69 1/s^2 off the DAE's beside a scale of
    2.9e10 (2.4e-9 of it). Perturbing the recursion's state by 2e-16 relative moves its
    result by up to 360 1/s^2; the DAE's answer spreads by 5e-4 1/s^2 over the last place
    of its state (:func:`dae_reference`): the recursion's round-off. Across beams of 1 to
    4 m, 1 to 3 elements, on spherical, revolute and prismatic joints, it is 0.3e-17 to 3e-17
    of the scale times the condition number of the equilibrated generalized mass H
    (:func:`mass_condition`: 1.6e6 to 3.4e8 there), and independent of the distance from
    the origin: the root node's rotary inertia ``rho I l`` beside the element's ``m l^2``,
    in relative coordinates. A fix (a better-conditioned elimination, or refinement against
    an exact residual) would make this pass; property (a) holds the models above
    :data:`ILL_CONDITIONED` to :data:`CONDITIONED` times the condition number until then."""
    model = build(SLENDER_BALL)
    rec, dae = recursion_and_dae(model)
    assert mass_condition(rec, dae) > ILL_CONDITIONED
    y = moving_state(rec, np.random.default_rng(0), SLENDER_BALL.scale)
    acc, _ = recursion_accelerations(rec, 0.3, y)
    x, v = dae.state_of(y, 0.3)
    expected, scale, spread = dae_reference(dae, x, v, 0.3, np.random.default_rng(1))[:3]
    assert np.abs(acc - expected).max() <= 1e-9 * scale + ROUNDING * spread


def test_a_tree_without_free_coordinates_has_body_accelerations():
    """A body on a driven revolute joint alone (no free coordinate; found by property (a)):
    ``SpatialKernel.kinematics(y, qdd)`` indexed the empty qdd at the driven coordinate
    (IndexError); the body accelerations, the drive's alone, now equal the DAE's (the
    drive's acceleration at t = 0.3 s is -0.9 sin 0.9 rad/s^2)."""
    model = build(SpatialSpec(items=(Item(kind="body", joint="revolute", driven=True),)))
    rec, dae = recursion_and_dae(model)
    assert rec.n_free == 0
    y = rec.initial_state()
    acc, _ = recursion_accelerations(rec, 0.3, y)
    x, v = dae.state_of(y, 0.3)
    expected, scale, spread = dae_reference(dae, x, v, 0.3, np.random.default_rng(1))[:3]
    assert np.abs(acc - expected).max() <= 1e-9 * scale + ROUNDING * spread
    assert np.abs(acc[0, 3:]).max() == pytest.approx(0.9 * math.sin(0.9), rel=1e-12)


def ball_damper(kind):
    """A body (inertia 0.01 kg m^2) on a ball joint at its centre, turned by a constant moment
    of 1 N m against a spring-damper k = 1 N m/rad, c = 10 N m s/rad: a joint spring-damper
    (``kind="spring"``) or the same law as an effort function (``"function"``). Its modes
    are the roots of ``0.01 s^2 + 10 s + 1``: -999.9 and -0.1 1/s."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    body = m.add_rigid_body(1.0, np.eye(3) * 0.01)
    if kind == "spring":
        joint = m.add_joint("spherical", m.ground.point(0, 0, 0), body.centre)
        m.add_rotational_spring_damper(joint, k=1.0, c=10.0)
    else:
        joint = m.add_joint("spherical", m.ground.point(0, 0, 0), body.centre,
                            effort=lambda t, q, qd: -1.0 * q - 10.0 * qd)
    m.add_force(body.centre, moment=(0.0, 0.0, 1.0))
    return m, joint


@pytest.mark.parametrize("kind", ["spring", "function"])
def test_rk4_sees_the_decay_rate_of_a_joint_damper(kind):
    """The stability check took the decay rate of element damping only: a joint damper's
    (c / I = 1000 1/s here; found by property (b) as an effort function ``-0.1 |e| qd`` on a
    centimetre body, whose RK4 run went from 0.07 to 0.8 rad and -1e5 rad/s in two steps,
    "ok", where the motion is 0.0097 rad) let a step of 0.01 s through, 3.6 times RK4's
    limit on the real axis, ``2.7853 / 999.9 s``: the run grew 300 times a step (to 2e8 rad
    in 5 steps, "ok"). Now refused, naming dt and that limit; method "auto" takes
    generalized-alpha-S there."""
    m, joint = ball_damper(kind)
    with pytest.raises(ValueError, match=r"dt = 0\.01 s exceeds the rk4 stability limit "
                                         r"(\S+) s") as refused:
        rancf.simulate(m, 0.05, 0.01, method="rk4")
    limit = float(re.search(r"stability limit (\S+) s", str(refused.value)).group(1))
    assert limit == pytest.approx(2.7853 / 999.9, rel=1e-3)
    m, joint = ball_damper(kind)
    unstable = rancf.simulate(m, 0.05, 0.01, method="rk4", check_stability=False)
    assert abs(unstable.joint(joint)[0][-1, 2]) > 1e3        # the true motion stays below 1 rad
    m, _ = ball_damper(kind)
    assert rancf.simulate(m, 0.05, 0.01).method == "generalized-alpha-s"


def test_rk4_sees_the_decay_rate_of_a_planar_torsion_damper():
    """The planar check had the same gap for spring-dampers (:func:`rancf.simulate.damped`):
    the planar ball_damper, a body (I = 0.01 kg m^2) on a revolute joint with a torsion
    spring-damper k = 1, c = 10, under 1 N m. RK4 at 0.01 s, 3.6 times its limit, was
    accepted ("ok", 0.58 rad after 0.05 s, 120 times the motion's); now refused at ``2.7853 / 999.9 s``, and method "auto" takes an implicit
    method, whose angle after 0.05 s is the exact overdamped motion's, 0.004888 rad, within
    its five steps' error (0.4 %; allowed 2 %)."""
    def model():
        m = rancf.Model(gravity=(0.0, 0.0))
        body = m.add_rigid_body(1.0, 0.01)
        joint = m.add_joint("revolute", m.ground.point(0.0, 0.0), body.centre)
        m.add_rotational_spring_damper(joint, k=1.0, c=10.0)
        m.add_force(body.centre, moment=1.0)
        return m, joint
    with pytest.raises(ValueError, match=r"dt = 0\.01 s exceeds the rk4 stability limit "
                                         r"(\S+) s") as refused:
        rancf.simulate(model()[0], 0.05, 0.01, method="rk4")
    limit = float(re.search(r"stability limit (\S+) s", str(refused.value)).group(1))
    assert limit == pytest.approx(2.7853 / 999.9, rel=1e-3)
    m, joint = model()
    res = rancf.simulate(m, 0.05, 0.01)
    assert res.method != "rk4"
    # 0.01 q'' + 10 q' + q = 1 from rest: q = 1 - (1 + b) exp(s1 t) + b exp(s2 t),
    # s1, s2 the roots, b = s1 / (s2 - s1)
    s1, s2 = -0.100010002, -999.89999
    b = s1 / (s2 - s1)
    exact = 1.0 - (1.0 + b) * math.exp(s1 * 0.05) + b * math.exp(s2 * 0.05)
    assert res.joint(joint)[0][-1] == pytest.approx(exact, rel=0.02)
