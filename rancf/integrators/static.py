"""``rancf.static``: static equilibrium of a model under all its loads at t = 0 (theory:
Statics).

Unknowns: the absolute coordinates x and the multipliers lambda of the DAE formulation
(:mod:`rancf.formulations.dae`). The equations, with the applied forces (gravity, loads,
efforts) scaled by the load factor s::

    F_K(x) - s Q(x) + Phi_x(x)^T lambda = 0,        Phi(x, 0) = 0

are solved by Newton's method for ``s = 1/n, 2/n, ..., 1`` (``n = load_steps``), each load step
starting from the last equilibrium (the force kernels scale the applied forces by s); a load
step on which Newton fails is cut, its increment halved (at most :data:`CUTS` times) and
retried from the last equilibrium, and grown back after each converged step
(:func:`step_loads`, one loop for every formulation). The Newton matrix is the DAE's with
``c_k = 1``: ``[[K + d(Phi_x^T lambda)/dx, Phi_x^T], [Phi_x, 0]]``.

Newton's iterations are those of the implicit stepping loop (``rancf/integrators/_implicit.pyx``)
with the coefficients of :class:`rancf.integrators.implicit.Static`: a load step is a step of the
loop with zero inertia and damping, whose unknown is the displacement from the last equilibrium,
``x_k = x_{k-1} + a`` (``h^2 beta = 1``, zero velocities), so Newton's increment of ``a`` is
that of x; its matrix is refactored at every iteration (full Newton); this module steps the load
factor between the loop's steps.
"""
import contextlib
import inspect
import time

import numpy as np
import scipy.linalg
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from ..utilities import checks
from ..utilities.errors import USER_FUNCTION_ERRORS
from ..utilities.resolution import rigid
from ..formulations import spatial
from ..formulations.dae import DAE
from ..formulations.inputs import Recorded
from ..formulations.problem import StepFailure
from ..formulations._spatial_dae import POSE_SIZE, TWIST_SIZE
from ..formulations.spatial_dae import (CABLE_NODE, SpatialDAE, _functions_replaced,
                                        one_blas_thread, quaternion)
from ..model.model import Model
from ._implicit import Stepper
from .held_interrupt import held_interrupt
from .implicit import Static
from .solution import Solution


#: The cable outputs an equilibrium's Result keeps in ``extra`` (as a run's): the nodes'
#: coordinates and rates, and the bases of their drawn frames, carried through the load steps
#: (``Result.state(0)`` holds them, so that a run from it goes on from those frames).
CABLE_OUTPUTS = ("cable_nodes", "cable_velocities", "cable_bases")


def _kept_at_equilibrium(kept):
    """The input functions' values at the equilibrium, as the :class:`Recorded` of statics'
    one output: ``kept`` is a one-item list holding the row (``{key: value}``, empty for a
    model without input functions: then None) kept at the last converged load step. Its time
    is 0, that of the Solution's one row, by which the Result's deferred outputs look the
    values up (statics holds the drives at t = 0 and steps the load factor, not time). Why
    kept and not called again: a function that stopped the solve would lose the equilibrium,
    one that fails after the solve its reactions."""
    return Recorded(np.zeros(1), kept) if kept[0] else None


def static(model, load_steps=10, tol=1e-10, max_iter=50, linear_solver="sparse",
           spatial_dae=None):
    """The :class:`~rancf.integrators.solution.Solution` of :func:`rancf.static`, whose
    docstring gives the parameters, the frame returned and the failures (it turns this into
    its :class:`rancf.Result`).

    ``spatial_dae``: where statics of a spatial model runs the spatial DAE (a closed loop, a
    joint at a cable point), the :class:`~rancf.formulations.spatial_dae.SpatialDAE` of
    ``model`` to solve on: that of the run ``state="static"`` starts, which then builds no
    second one (:meth:`~rancf.formulations.spatial_dae.SpatialDAE.restart` before its first
    step); None: one made here. Ignored where statics runs another formulation.

    A planar model's equilibrium, its DAE's, is tested for stability and left for a stable
    one where it is unstable by :func:`_leave_unstable_equilibrium`, as a spatial model's.

    Examples
    --------
    A cantilever under a small tip force P sags by ``P L^3 / (3 E I)`` (linear theory; the
    Solution's ``nodes`` are the model's coordinates, ``[x, y, x', y']`` a node):

    >>> from rancf.integrators.static import static
    >>> E, I, L, P = 2.07e11, 0.1**4 / 12, 2.0, 1e3
    >>> m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    >>> b = m.add_beam(L, 8, E=E, rho=7800.0, A=0.01, I=I)
    >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    >>> tip = m.add_force(b.end, force=(0.0, -P))
    >>> sol = static(m, load_steps=1)
    >>> sol.status, bool(abs(sol.nodes[0, -3] / (-P * L**3 / (3 * E * I)) - 1.0) < 1e-5)
    ('ok', True)
    """
    if not isinstance(model, Model):
        raise TypeError(f"model must be a rancf.Model, got {type(model).__name__}")
    load_steps = checks.integer("load_steps", load_steps, 1, 10**6)
    tol = checks.real("tol", tol, low=0.0, low_open=True, high=checks.LARGEST_TOL)
    max_iter = checks.integer("max_iter", max_iter, 1, 10**6)
    if model.dim == 3:
        tree = model.build()
        if len(tree.loop_joint) or spatial.cable_refusal(tree) or _bent_plane_cables(model):
            return _spatial_dae_static(model, load_steps, tol, max_iter, spatial_dae)
        return _spatial_static(model, load_steps, tol, max_iter)
    A = model.build()
    dae = DAE(A, linear_solver)
    start = time.perf_counter()
    x, _ = dae.initial_state()
    v = np.zeros(A.n_x)
    stepper = _static_stepper(dae.compiled, tol * A.size, max_iter)
    # the load factor set (the kernel's, which keeps no copy to read)
    factor = [1.0]

    def scale_loads(s):
        factor[0] = s
        dae.kernel.set_load_factor(s)
    # the torsion spring-dampers' rest angles, from the joints' reference angles
    set_load_factor = ramp_rest(scale_loads,
                                dae.kernel.arrays["t_law"].reshape(-1, 3)[:A.n_joints],
                                A.joint_q0)
    stepper.start_at_rest(0.0, x, _least_squares_multipliers(dae, x, 1.0 / load_steps))
    # the input functions' values at the last equilibrium (its accept evaluated them there)
    kept = [dae.inputs.keep()]

    def keep(q):
        kept[0] = dae.inputs.keep()
    loads = step_loads(stepper, set_load_factor, load_steps, keep,
                       lambda last: free_motion_under_load(dae, last[1], last[4]))
    made = [stepper]
    residual, mass_solve = _dae_measures(dae, lambda: factor[0], dae.kernel.set_load_factor,
                                         model.gravity)
    family = [None]
    damped = _recording(family, lambda x, lam: _damped_equilibrium(
        stepper, dae.compiled, x, lam, residual, lambda x, d: dae.mass(x) @ d,
        mass_solve, A.size, tol * A.size, max_iter, made, keep))
    status, message, error, reached, iterations, _, steps = _settle_mechanism(
        stepper, set_load_factor, damped, made, loads)
    if status == "ok":
        # the stepper's state is the DAE's own (x, lambda); no cable frames to carry
        status, message, error = _leave_or_stop(
            dae, stepper, lambda last: (last[1], last[4]),
            _landing(stepper, keep, damped, family), tol * A.size, max_iter, made, message,
            damped, family)
    message = _family_noted(status, message, family)
    _, x, _, _, lam = stepper.state()
    if not iterations:
        # no load step converged: the stepper holds Newton's start, not an equilibrium's; at
        # load factor 0 the unstressed reference holds no force
        lam = np.zeros_like(lam)
    set_load_factor(reached)
    # played back for its outputs here and for those the Result computes when asked
    recorded = _kept_at_equilibrium(kept)
    dae.inputs.played = recorded
    with held_interrupt() as caught:
        seen = dae.observe(x, v, 0.0, lam)
    status, message = _after_loads(status, message, caught)
    return Solution(t=np.zeros(1), q=x[None], nodes=seen["nodes"][None],
                    velocities=seen["velocities"][None],
                    joint_q=seen["joint_q"][None], joint_qd=seen["joint_qd"][None],
                    reactions=seen["reactions"][None], work=np.zeros(1), dissipated=np.zeros(1),
                    lam=lam[None], status=status, message=message, method="newton",
                    formulation="dae",
                    stats=_work(iterations, made, steps),
                    extra=_load_steps_extra(reached, iterations, steps, load_steps),
                    wall_time=time.perf_counter() - start, error=error, inputs=recorded)


def _dae_measures(dae, factor, scale, gravity):
    """``(residual, mass_solve)`` of :func:`_damped_equilibrium` for a DAE ``dae``, planar
    (:class:`~rancf.formulations.dae.DAE`) or spatial
    (:class:`~rancf.formulations.spatial_dae.SpatialDAE`), whose load factor ``factor()``
    returns and ``scale(s)`` sets (the force kernel's: only the applied forces scale);
    ``gravity`` the model's (m/s^2, 2 or 3 components).

    ``residual(x, lambda)``: ``(|r|, f, c)``, the static residual at rest ``f = s Q(x) -
    F_K(x) - Phi_x^T lambda`` (n,) and ``c = Phi(x)`` (m,), |r| the norm of both (N and m
    together: only its ratios step to step are used). ``mass_solve(x, lambda)`` (m/s^2): the
    applied loads' constrained acceleration ``|a|_max``, ``[[M, Phi_x^T], [Phi_x, 0]] [a;
    .] = [Q_s; 0]`` (``Q_s`` the force at the load factor set less that at 0: the elements'
    forces are not scaled), not below ``|g|``: a chain hanging on its joints has ``Q_s``
    balanced by the joints along the constraints, where the constrained acceleration is
    zero, yet the swing its weight drives scales as g."""
    v = np.zeros(dae.n_coordinates)
    floor = float(np.linalg.norm(gravity))

    def residual(x, lam):
        f, c = dae.force(x, v, 0.0) - dae.constraint_force(x, lam, 0.0), dae.constraint(x, 0.0)
        return np.hypot(np.linalg.norm(f), np.linalg.norm(c)), f, c

    def mass_solve(x, lam):
        s = factor()
        scale(0.0)
        try:
            unloaded = dae.force(x, v, 0.0)
        finally:
            scale(s)
        a, _ = dae.newton_matrix(x, np.zeros_like(x), lam, v, 0.0, x, 0.0, 1.0, 0.0, 0.0, 0.0,
                                 1.0).solve(dae.force(x, v, 0.0) - unloaded,
                                            np.zeros(lam.size))
        return max(np.abs(a).max(initial=0.0), floor)
    return residual, mass_solve


def ramp_rest(set_factor, law, reference, rotations=None, balls=None):
    """The ``set_load_factor(s)`` of statics: ``set_factor(s)`` (the applied forces scaled by
    s) and the rest value q_0 of every joint spring-damper moved from its joint's reference
    value q_r with them, ``q_0(s) = q_0 - (1 - s) (q_0 - q_r)`` (exactly q_0 at s = 1), and
    the rest rotation vector r_0 of every spherical joint's spring-damper with them,
    ``r_0(s) = s r_0``.

    ``law`` (j, 3): the springs' ``(k, c, q_0)`` rows the force kernel reads (written in
    place: the run's own arrays, built for this solve or restored at s = 1); ``reference``
    (j,) or scalar: q_r, the joint coordinate of the model's reference configuration; a row
    with k = 0 is left alone. Planar statics ramps its torsion springs (q_r the joints'
    reference angles), spatial statics (recursion and DAE) its revolute and prismatic joints'
    springs (q_r = 0, the reference configuration being the zero of every spatial joint
    coordinate).
    ``rotations`` (b, 3), written in place at the rows where ``balls`` (b,) bool is set: the
    spherical joints' rest rotation vectors (the spatial DAE's
    ``SpatialDAE.joint_spring_rotations``, the recursion's kernel array ``js_rest``); None
    where there are none to step.

    Why: a spring whose rest value is not the reference one is pre-stressed, its force
    ``k (q_0 - q_r)`` at the reference a load like the others. Left whole, the first load step
    would have to turn the joint by all of ``q_0 - q_r`` whatever load_steps, which can be
    beyond the reach of Newton's method on a body's direction vector or Euler parameters (a
    beam turned by 2.6 rad in one load step). Stepped, each load step turns it by
    ``(q_e - q_r) / load_steps``. The equilibrium at s = 1 is the model's; one at s < 1 (a
    failed solve's) is that of the loads and pre-stress scaled by s.

    A spherical joint's reference relative rotation is the identity, so ``s r_0`` is the same
    homotopy: ``R_0(s) = exp(s r_0^)`` runs along the geodesic from the identity (s = 0: the
    spring unstressed at the reference, where nothing is loaded) to ``R_0`` (s = 1, exactly:
    ``|r_0| <= pi``), continuous in s, and ``log(R_0(s) R_0(s')^T) = (s - s') r_0``, so each
    load step turns the rest by ``|r_0| / load_steps``: the pre-stress ``k log(R R_0(s)^T)``
    at the last equilibrium R changes by at most ``k |r_0| / load_steps``, as a revolute's."""
    rest = law[:, 2].copy()
    shift = np.where(law[:, 0] != 0.0, rest - reference, 0.0)
    turned = None if rotations is None else rotations[balls].copy()

    def set_load_factor(s):
        set_factor(s)
        law[:, 2] = rest - (1.0 - s) * shift
        if turned is not None:
            rotations[balls] = s * turned
    return set_load_factor


def _plane_curved_cables(model):
    """The plane curved cables of ``model`` (theory: Curved cables): a list of
    ``(cable, normal)``, the unit normal (3,) of the plane its nodes and slopes lie in."""
    plane = []
    for cable in model.beams:
        if getattr(cable, "element", None) != "ancf-cable" or not cable.curved:
            continue
        h = cable.length / cable.n_elements
        points = np.concatenate([cable.positions, cable.positions + h * cable.tangents])
        # the thin SVD: the full one's left factor is (2 n_nodes)^2, 0.5 GB at 4096 elements
        _, spread, axes = np.linalg.svd(points - points.mean(axis=0), full_matrices=False)
        if spread[1] <= 1e-9 * spread[0]:
            continue                        # points on a line: a straight cable
        if spread[2] <= 1e-9 * spread[0]:
            plane.append((cable, axes[2]))
    return plane


def _bent_plane_cables(model):
    """Whether ``model`` holds plane curved cables drawn bent off their straight rest shape
    (``rest="straight"``) and loaded in their planes (:func:`_loads_in_cable_planes`): their
    statics starts by :func:`_pseudo_transient_first_step` on the spatial DAE, whose
    equilibrium is then tested for stability (:func:`_unstable_in_plane`,
    :func:`_stable_out_of_plane`), even in a tree. Plain Newton from the drawn shape of a
    slack, nearly bending-free cable wanders: it fails or reaches a crumpled equilibrium.
    So does the recursion's (its full tangent by GMRES, gravity's stiffness included): the
    tangent at the drawn shape is nearly singular (the swing about the pin has only
    gravity's stiffness, the bending a tiny EI against gravity's moments), its first
    increments turn the joints by many revolutions, and the iterates wander among turned
    shapes until one falls in Newton's quadratic basin (the mean rate a failure message
    reports is then the attempt's, not a contraction). And the recursion cannot test what
    it reaches."""
    return (any(cable.rest == "straight" for cable, _ in _plane_curved_cables(model))
            and _loads_in_cable_planes(model))


def _loads_in_cable_planes(model):
    """Whether ``model`` holds plane curved cables and gravity and every load at t = 0 lie in
    each one's plane (forces normal to its normal, moments along it; to 1e-12 of their size):
    then nothing drives the cables' directions without stiffness in the reference (out of
    their planes), and :func:`_pseudo_transient_first_step` can start statics. A load out
    of a plane drives them at zero stiffness (a mechanism at the reference: the cable's swing
    about its pins), which that continuation is not for."""
    planes = _plane_curved_cables(model)
    if not planes:
        return False
    forces = [np.asarray(model.gravity, dtype=float)]
    moments = []
    for load in model.loads:
        force, moment = (f(0.0) if callable(f) else f for f in (load.force, load.moment))
        forces.append(np.asarray(force, dtype=float))
        moments.append(np.asarray(moment, dtype=float))
    for _, normal in planes:
        for f in forces:
            if abs(f @ normal) > 1e-12 * np.linalg.norm(f):
                return False
        for mo in moments:
            if np.linalg.norm(np.cross(mo, normal)) > 1e-12 * np.linalg.norm(mo):
                return False
    return True


def _pseudo_transient_first_step(dae, x, lam, tol, max_iter, made=None, floor=0.0):
    """The equilibrium ``(x, lambda)`` of the first load step of a model whose Newton matrix
    is singular at the reference x (its plane curved cables, loaded in their planes), or None
    where the steps below do not reach it or nothing loads the model (no tension can build).

    Pseudo-transient continuation in the one implicit loop: steps of the
    :class:`~rancf.integrators.implicit.Static` scheme with the inertia coefficient
    ``alpha_m = mu`` (1/s^2) instead of 0 (:func:`_static_stepper`), each a backward-Euler step
    of pseudo-time ``1/mu`` of the gradient flow ``M dx/dtau = F - Phi_x^T lambda`` from the
    last state at rest (the unknown is the displacement d, ``h^2 beta = 1``)::

        mu M d - F(x + d) + Phi_x^T lambda = 0,    Phi(x + d) = 0

    linearly implicit: the loop's tolerance is infinite, so a step is one Newton iteration
    from ``d = 0``, the residual unchanged (``r = F(x) - Phi_x^T lambda`` and ``-Phi(x)``) and
    the matrix shifted by the mass (Levenberg-Marquardt with the scaling ``D = M``)::

        [[K + d(Phi_x^T lambda)/dx + mu M, Phi_x^T], [Phi_x, 0]] [dx; dlambda] = [r; -Phi]

    Why this one: the singular directions are those out of the cables' planes, where the
    stress-free reference has no first-order stiffness; under the in-plane loads the tension
    that builds gives them the string's stiffness, so only the start is singular. ``mu M`` is
    positive definite on every coordinate (a stiffness of mu N/m per kg), so the matrix is
    regular at every iterate and the undriven out-of-plane coordinates get no increment;
    and it damps the in-plane steps too, which a slack, nearly bending-free
    cable needs: undamped Newton from its drawn shape diverges, even with the out-of-plane
    coordinates alone shifted. The minimum-norm step would need a rank decision on a matrix
    whose in-plane part is itself ill-conditioned.

    ``mu_0 = |a_0| / (0.1 size)``, a_0 the constrained acceleration ``M^-1 r`` at the start
    (r the static residual), so the first step moves no point by more than about a tenth of
    the model's size; then, with ``rho = |r_{k+1}| / |r_k|``, ``mu_{k+1} = mu_k min(rho,
    0.1)`` where the residual fell and ``mu_k sqrt(rho)`` where it rose (switched evolution
    relaxation, Mulder and van Leer 1985, ``mu`` proportional to the residual, made to fall
    faster and rise slower), so the pseudo-time step grows as the residual falls and the
    last steps are Newton's, converging quadratically where tension holds the cable. Plain
    SER lets mu fall only as fast as the residual, which on a slack cable its axial forces
    dominate and the flow hardly lowers: the cable's swing (a stiffness of order g / L per
    kg) would take mu / (g / L) steps. The residual is not asked to fall at every step
    (an in-plane step that turns the cable stretches it at first order, and EA is large): a
    step is refused, and mu multiplied by 10, only where the residual is not finite or the
    matrix singular. It stops when a step
    moves no coordinate by more than ``tol`` (m, the loop's own test), or after
    ``20 max_iter`` steps; the load steps go on from there. ``made``: a list the loop it
    runs is appended to (its work counters, :func:`_work`), or None. ``floor`` (1/s^2): the
    least mu, and where positive mu is not raised as the residual rises (the escape from an
    unstable equilibrium, :data:`ESCAPE_WAYS`: there the residual rises first, the force
    growing with the distance from it, and raising mu with it shrinks the steps to a stall
    before the potential's descent turns), and dropped where a step at it moves less than
    ``tol`` (a slow descent, not convergence).

    An input function's error (:data:`~rancf.utilities.errors.USER_FUNCTION_ERRORS`: it
    raised, or returned what is not a value) is raised at once, not taken for a refused
    step: no larger mu helps it, and a retry would call the function again (the callers
    stop the solve with the last equilibrium, as :func:`step_loads` does)."""
    t, n = 0.0, x.size
    v = np.zeros(n)

    def residual(x, lam):
        return dae.force(x, v, t) - dae.constraint_force(x, lam, t), -dae.constraint(x, t)

    r, c = residual(x, lam)
    if not np.any(r):
        return None                 # unloaded: no tension will hold it out of the plane
    try:
        a0, _ = dae.newton_matrix(x, np.zeros(n), lam, v, t, x, t, 1.0, 0.0, 0.0, 0.0,
                                  1.0).solve(r, c)
    except USER_FUNCTION_ERRORS:
        raise
    except (ArithmeticError, RuntimeError, ValueError):
        return None
    if not np.all(np.isfinite(a0)) or not np.abs(a0).max():
        return None
    mu = max(np.abs(a0).max() / (0.1 * _size(dae)), floor)
    # one Newton iteration a step: the loop's test on it passes at tol = inf
    stepper = _static_stepper(dae.compiled, np.inf, max_iter, inertia=mu, made=made)
    try:
        stepper.start_at_rest(t, x, lam)
    except ArithmeticError:
        # a start the problem refuses (an escape's push that turned a clamped cable's slope
        # over, ``SpatialProblem.accept``): no continuation from there
        return None
    for _ in range(20 * max_iter):
        stepper.am = mu
        try:
            stepper.advance()
            _, x1, _, _, lam1 = stepper.state()
            r1, _ = residual(x1, lam1)
        except USER_FUNCTION_ERRORS:
            raise
        except (StepFailure, ArithmeticError, RuntimeError, ValueError):
            r1 = None
        if r1 is None or not np.all(np.isfinite(r1)):
            mu *= 10.0
            stepper.start_at_rest(t, x, lam)        # back to the last state
            continue
        moved = np.abs(x1 - x).max()
        x, lam, ratio = x1, lam1, np.linalg.norm(r1) / np.linalg.norm(r)
        r = r1
        if (moved <= tol and not floor) or not ratio:
            return x, lam
        if moved <= tol:
            # still at the floor: a slow descent, not convergence; on without it
            floor = 0.0
        if ratio > 1.0:
            mu = mu if floor else mu * np.sqrt(ratio)
        else:
            mu = max(mu * min(ratio, 0.1), floor)
    return None


def _out_of_plane_coordinates(dae, model):
    """The selector B (n, k) of the out-of-plane coordinates of the plane curved cables of
    ``model`` in the spatial DAE ``dae``: ``n . r`` and ``n . r'`` of each of their nodes (n
    the plane's normal), one column each."""
    tree = dae.tree
    rows, cols, vals = [], [], []
    k = 0
    for cable, normal in _plane_curved_cables(model):
        body = tree.node_body[tree.beam_nodes[cable.index] + np.arange(cable.n_nodes)]
        base = dae._c0 + CABLE_NODE * (body - dae.n_bodies)
        for first in np.concatenate([base, base + 3]):
            rows.append(first + np.arange(3))
            cols.append(np.full(3, k))
            vals.append(normal)
            k += 1
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(dae.n_coordinates, k))


def _unstable_in_plane(dae, model, x, lam):
    """``(dx, omega2)``: the direction dx (n,) in which the equilibrium ``(x, lambda)`` of the
    spatial DAE ``dae`` (its plane curved cables loaded in their planes) is unstable in those
    planes and its omega^2 (1/s^2, negative), or None where it is stable there (or
    undecided, :func:`_unstable_mode` None): the mode of unit modal mass of the least omega^2 that
    :func:`_unstable_mode` finds negative beyond its round-off, of ``Z^T K Z y = omega^2 Z^T M
    Z y`` (K Newton's stiffness ``K + d(Phi_x^T lambda)/dx`` symmetrized, M the DAE's mass
    matrix) on the displacements that keep the constraints (``Phi_x dx = 0``) and every
    cable in its plane (:func:`_out_of_plane_coordinates` zero, held by
    :func:`_held_stiffness`): the rule :func:`rancf.modes` and
    :func:`_leave_unstable_equilibrium` call an equilibrium unstable by
    (:func:`rancf.utilities.resolution.rigid`), O(n). A cable folded back on itself under
    its weight is such an equilibrium (its upturned part compressed): Newton's steps, which
    the pseudo-transient continuation ends with, converge to it as to any other. Where the
    split is not exact (:func:`_split_is_exact`) nothing is held: the direction is any
    unstable one, out of the planes too."""
    unstable, v, omega2 = _held_mode(dae, x, lam, _out_of_plane_coordinates(dae, model), True)
    return (v, omega2) if unstable else None


def _stable_out_of_plane(dae, model, x, lam):
    """Whether the equilibrium ``(x, lambda)`` of the spatial DAE ``dae`` (in-plane loads,
    the last load step's after :func:`_pseudo_transient_first_step`) is stable out of the
    planes of the plane curved cables of ``model``: no mode of ``Z^T K Z y = omega^2 Z^T M Z
    y`` whose omega^2 is negative beyond its round-off (:func:`_unstable_mode`, the rule of
    :func:`rancf.modes`; a mode within it, a free motion, is not unstable), K Newton's
    stiffness ``K + d(Phi_x^T lambda)/dx`` (symmetrized), M the DAE's mass matrix and Z a
    basis of the displacements that keep the constraints and move only the cables'
    out-of-plane coordinates (``n . r`` and ``n . r'`` of each node, n the plane's normal;
    every other coordinate held by :func:`_held_stiffness`). With the loads in the plane
    and a model that the plane mirrors (cables alone between points of the ground) the
    matrix has no terms between those and the in-plane coordinates, so this block alone
    decides. Where the split is not exact (:func:`_split_is_exact`: the plane mirrors not
    the model, or a body or another beam is tied to a cable) the test is the coupled one,
    on every constrained displacement. A cable in tension has the string's positive
    stiffness there; a compressed one (an arch under its weight) a negative one, and so
    has a cable bent less than its rest curvature where its bending outweighs its tension
    (theory: Curved cables): such an equilibrium is unstable out of the plane, and statics
    refuses it as it refuses the reference. (The sign of the nodes' strain does not decide:
    on a nearly inextensible cable the strain is smaller than its scatter between Hermite
    elements.) Undecided (:func:`_unstable_mode` None) is not stable."""
    return _held_mode(dae, x, lam, _out_of_plane_coordinates(dae, model), False)[0] is False


def _held_mode(dae, x, lam, B, held_is_B):
    """:func:`_unstable_mode` ``(unstable, v, omega2)`` of the equilibrium ``(x, lambda)`` of
    the spatial DAE ``dae`` on the stiffness of :func:`_held_stiffness` (``B``,
    ``held_is_B``: which coordinates are held) and the DAE's mass matrix. The held
    coordinates' stiffness ``2 |K|_inf`` puts their modes' omega^2 far above every other
    and raises ``|K|_1``, so the round-off bound of :func:`~rancf.utilities.resolution.rigid`,
    by three times at most: a mode between that and the bound of K alone is taken as
    resolved to zero, not unstable (at stake only an omega^2 a few eps |K| |y|^2 below
    zero)."""
    A, J, bound, _, skew = _held_stiffness(dae, x, lam, B, held_is_B)
    return _unstable_mode(A, skew, sp.csr_matrix(dae.mass(x)), J, bound)


def _held_stiffness(dae, x, lam, B, held_is_B):
    """``(K_p, J, |K|_inf, exact, skew)`` of the equilibrium ``(x, lambda)`` of the spatial DAE
    ``dae``: Newton's stiffness ``K + d(Phi_x^T lambda)/dx`` symmetrized, with the coordinates
    that a stability test leaves out held by the stiffness ``beta = 2 |K|_inf``: ``K_p = K +
    beta B B^T`` (``held_is_B``: the selector B (n, k) of :func:`_out_of_plane_coordinates`,
    orthonormal columns, the in-plane test) or ``K + beta (I - B B^T)`` (all but those, the
    out-of-plane test), sparse; J = Phi_x (m, n), full row rank. Where the split into those
    two tests is not exact (:func:`_split_is_exact`, ``exact`` False), ``K_p = K``: nothing
    is held, and the test is the coupled one, on every coordinate.

    ``beta`` lifts the held directions' eigenvalues above every other one (``|K|_inf``
    bounds their magnitude) instead of adding their rows to the constraints (they repeat
    the joints' rows at the cable ends: a singular saddle-point matrix)."""
    n = dae.n_coordinates
    K, J, bound, skew = _stiffness(dae, x, lam)
    exact = _split_is_exact(K, J, B, bound)
    if not exact:
        return K.tocsc(), J, bound, False, skew
    held = B @ B.T if held_is_B else sp.identity(n) - B @ B.T
    return (K + 2.0 * bound * held).tocsc(), J, bound, True, skew


def _stiffness(dae, x, lam):
    """``(K, J, |K|_inf, skew)`` of the equilibrium ``(x, lambda)`` of the spatial DAE
    ``dae``: Newton's stiffness ``K + d(Phi_x^T lambda)/dx`` (n, n) symmetrized, sparse CSR,
    ``J = Phi_x`` (m, n) CSC, the blocks of its Newton matrix with ``c_k = 1`` alone, and
    ``skew``, its antisymmetric part ``(K - K^T) / 2`` (N/m, sparse CSR): nonzero
    where a load is not conservative (a moment fixed in space, a follower force), whose
    equilibrium's stability an energy's second variation does not decide."""
    n = dae.n_coordinates
    S = dae.newton_matrix(x, np.zeros(n), lam, np.zeros(n), 0.0, x, 0.0, 0.0, 0.0, 1.0, 0.0,
                          1.0, factor=False).tocsr()
    K = S[:n, :n]
    skew = 0.5 * (K - K.T)
    K = 0.5 * (K + K.T)
    return K, S[n:, :n].tocsc(), float(abs(K).sum(axis=1).max()), skew.tocsr()


def _curvature_along(dae, x, lam):
    """``along(Y)`` of :func:`_unstable_mode` at the equilibrium ``(x, lambda)`` of ``dae``
    (planar or spatial DAE): for each mode y (a column of Y (n, k), unit modal mass) the
    central differences of the static residual ``r(x) = F(x) - Phi_x(x)^T lambda``
    (lambda held) along the mode itself::

        c(h) = -y^T (r(x + h y) - r(x - h y)) / (2 h)       (1/s^2)

    at the steps ``h = 1e-6 size / |y|_max`` (no coordinate moves by more than 1e-6 of the
    model's size, the elements' own differences' step) and 2h: ``(c(h), |c(h) - c(2h)|)``,
    the measure and its error (the truncation three times over and an independent round-off,
    as :func:`rancf.studies.vibration._stiffness` estimates a K's). Along the straight line
    (which leaves the constraints at second order) the derivative of r with lambda held is
    ``-(K + d(Phi_x^T lambda)/dx) y``, the stiffness of :func:`_stiffness`, so ``c(h) ->
    y^T K y``, omega^2; but only the forces that the mode changes enter it: along a neutral
    spin none do, and c is zero to round-off, where K's column differences summed along
    the mode leave their own round-off. Four residuals a mode, O(n) each."""
    zero = np.zeros_like(x)

    def r(z):
        return dae.force(z, zero, 0.0) - dae.constraint_force(z, lam, 0.0)

    def along(Y):
        c, error = np.zeros(Y.shape[1]), np.zeros(Y.shape[1])
        for k in range(Y.shape[1]):
            y = Y[:, k]
            h = 1e-6 * _size(dae) / np.abs(y).max()
            ch, c2h = (-(y @ (r(x + s * y) - r(x - s * y))) / (2.0 * s) for s in (h, 2.0 * h))
            c[k], error[k] = ch, abs(ch - c2h)
        return c, error
    return along


def _size(dae):
    """The model size (m) of ``dae``, planar (:class:`~rancf.formulations.dae.DAE`, its
    assembly's) or spatial (:class:`~rancf.formulations.spatial_dae.SpatialDAE`, its tree's):
    the length the steps off an unstable equilibrium and the continuation's first step are
    measured against."""
    return (dae.tree if isinstance(dae, SpatialDAE) else dae.assembly).size


def _split_is_exact(K, J, B, bound):
    """Whether the stability of ``Z^T K Z`` (Z an orthonormal basis of J's null space; K (n,
    n) sparse symmetric, J (m, n)) splits exactly into the cables' out-of-plane coordinates
    (the selector B (n, k) of :func:`_out_of_plane_coordinates`) and the rest: K has no
    terms between the two (``|B^T K (I - B B^T)|`` within ``1e-9 bound``, round-off;
    ``bound = |K|_inf``) and every constrained displacement is the sum of one in each, that
    is ``rank J = rank J B + rank J (I - B B^T)`` (each row of J then acts on one part
    only, up to row combinations). Then the inertia of ``Z^T K Z`` is the sum of the two
    tests'. A model that each cable's plane mirrors, cables alone between points of the
    ground, splits so; one that a cable's plane does not mirror does not (its equilibrium
    leaves the drawn plane), and neither does a mirrored one with a rigid body or another
    beam tied to a cable: the body's out-of-plane motions are not B's, and the joint's rows
    tie them to the cable's (a body held upside down by the cable's end, which the cable
    holds in the plane and the plane holds out of it, is unstable only in the two
    together). O(m^2 n), m the joints' rows."""
    P = sp.identity(K.shape[0], format="csr") - B @ B.T
    cross = B.T @ K @ P
    if cross.nnz and abs(cross).max() > 1e-9 * bound:
        return False
    if not J.shape[0]:
        return True
    Jd = J.toarray()
    JB = Jd @ B.toarray()
    rank = np.linalg.matrix_rank
    return rank(Jd) == rank(JB) + rank(Jd - JB @ B.T.toarray())


def _negative_count(A, J):
    """The number of negative eigenvalues of ``Z^T A Z`` (A (n, n) sparse symmetric, Z an
    orthonormal basis of the null space of J (m, n), full row rank), O(n) for a banded A
    and few rows; None where it cannot be counted (SuperLU pivoted off the diagonal) or A
    or the saddle-point matrix is singular (a zero eigenvalue).

    The saddle-point matrix ``[[A, J^T], [J, 0]]`` has the inertia of ``Z^T A Z`` plus m
    positive and m negative eigenvalues, and by Haynsworth's additivity that of A plus that
    of its Schur complement ``-J A^-1 J^T`` (m x m, dense): ``neg(Z^T A Z) = neg(A) +
    pos(J A^-1 J^T) - m``. ``neg(A)`` is the count of negative pivots of A's LDL^T (SuperLU
    with diagonal pivots alone, a symmetric fill-reducing order: ``U = D L^T``,
    Sylvester's law of inertia). A is taken as ``A + gamma J^T J`` (gamma = A's largest
    diagonal entry, J's rows of order 1): the same ``Z^T A Z``, and regular where A alone
    is not (a cable's free motions that only the joints hold, a rigid shift out of its
    plane)."""
    if J.shape[0]:
        A = (A + abs(A.diagonal()).max() * (J.T @ J)).tocsc()
    try:
        ldl = spla.splu(A, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                        options={"SymmetricMode": True})
    except RuntimeError:
        return None
    # SuperLU keeps the diagonal pivots unless one is exactly zero: then U holds no inertia
    if np.any(ldl.perm_r != ldl.perm_c):
        return None
    negative = int(np.count_nonzero(ldl.U.diagonal() < 0.0))
    if J.shape[0]:
        schur = J @ ldl.solve(J.T.toarray())
        w = np.linalg.eigvalsh(0.5 * (schur + schur.T))
        if not np.all(w):
            return None
        negative += int(np.count_nonzero(w > 0.0)) - J.shape[0]
    return negative


#: The most modes :func:`_unstable_mode` resolves below its shift (Lanczos' k): the
#: equilibria statics meets have one or two unstable modes (a body or a column on a pin,
#: a mechanism's one motion) besides rigid ones at round-off.
MODES_TESTED = 4
#: Below this many free motions (coordinates less constraint rows) :func:`_unstable_mode`
#: solves the dense problem on them: ARPACK's default Lanczos space, 20 vectors, needs more.
LANCZOS_SPACE = 20


def _unstable_mode(K, skew, M, J, bound, along=None):
    """``(unstable, v, omega2)`` of an equilibrium whose stiffness is K (n, n) sparse
    symmetric, ``skew`` its antisymmetric part (the error of a K by differences), M (n, n)
    its mass matrix, J = Phi_x (m, n), full row rank, ``bound = |K|_inf`` (N/m): whether
    ``Z^T K Z y = omega^2 Z^T M Z y`` (Z a basis of J's null space, the motions the joints
    allow; omega^2 in 1/s^2) has a mode whose omega^2 is negative beyond its round-off,
    ``omega^2 < -(eps |K|_1 |y|^2 + |y|^T |K - K^T| |y|)`` for the mode y of unit modal
    mass ``y^T M y = 1`` (:func:`rancf.utilities.resolution.rigid`, the test
    :func:`rancf.modes` refuses an unstable equilibrium by: a backward-stable eigensolver's
    pairs are exact for a K perturbed by ``eps |K|``, which moves ``y^T K y`` by ``eps |K|
    |y|^2``, the stiffness's rounding over the mode's own mass); the eigenvector v (n,) of
    the least such omega^2 (unit modal mass) and that omega^2, or None and nan. ``unstable``
    is None where neither the count nor Lanczos decides.

    ``along(Y)``, where given (:func:`_curvature_along`): each such mode's curvature
    ``y^T K y`` (its omega^2) measured again along the mode itself and that measure's error,
    ``(c, error)`` (k,) each of the modes Y (n, k); a mode stays unstable only where ``c <
    -(error + eps |K|_1 |y|^2)`` too. Why: a K by central differences of single coordinates
    (the spatial DAE's beam elements) carries the round-off of the large forces each
    coordinate's step meets (a stiff beam's stretch and shear), which a neutral direction's
    curvature does not cancel and K's asymmetry does not always show: the spin of a steel
    beam hanging on a ball joint, whose forces do not change at all along it, came out at
    omega^2 = -0.13 1/s^2 (``y^T K y`` 20 times ``eps |K|_1 |y|^2``), an instability, and
    its continuation went round the spin back to the same state until it gave up.

    Why the generalized problem: the sign of ``y^T K y`` alone needs a threshold in N/m,
    and one that is a share of ``|K|`` (the stretch of a steel beam, EA / l) buries the
    small stiffness of a real instability (a steel column on a pin: ``-m g L / 2``, 1e-9 of
    EA / l); omega^2 against its own round-off is invariant to the units and to the
    stiffness of coordinates the mode does not move.

    O(n) for a banded K and few rows: the count of omega^2 below ``-tau``, ``tau = eps
    |K|_inf / |M|_inf`` (``|M|_inf`` bounds M's largest eigenvalue, so ``|y|^2 >= 1 /
    |M|_inf`` and tau is below every mode's round-off), is that of the negative eigenvalues
    of ``Z^T (K + tau M) Z`` (Sylvester: M positive definite on Z), :func:`_negative_count`;
    where there are any, those modes (at most :data:`MODES_TESTED`) by
    :func:`_modes_below` (dense on the free motions where they are fewer than
    :data:`LANCZOS_SPACE`) and the test above for each."""
    n, m = K.shape[0], J.shape[0]
    tau = np.finfo(float).eps * bound / max(float(abs(M).sum(axis=1).max()), 1e-300)
    A = (K + tau * M).tocsc()
    negative = _negative_count(A, J)
    if negative == 0:
        return False, None, np.nan
    k = min(MODES_TESTED if negative is None else negative, MODES_TESTED)
    if n - m <= LANCZOS_SPACE:
        omega2, V = _least_modes_dense(K, M, J, k)
        if V is not None and not V.shape[1]:
            return False, None, np.nan
    else:
        omega2, V = _modes_below(A, M, J, tau, k, negative)
    if omega2 is None or not omega2.size:
        return None, None, np.nan
    V = V / np.sqrt(np.einsum("ij,ij->j", V, M @ V))
    unstable = (omega2 < 0.0) & ~rigid(K + skew, omega2, V)
    if along is not None and unstable.any():
        # each mode's curvature measured again along the mode itself
        c, error = along(V[:, unstable])
        resolution = np.finfo(float).eps * float(abs(K).sum(axis=0).max()) * \
            (V[:, unstable]**2).sum(axis=0)
        unstable[unstable] = c < -(error + resolution)
    if not unstable.any():
        return (False if negative is not None and k == negative else None), None, np.nan
    least = int(np.flatnonzero(unstable)[np.argmin(omega2[unstable])])
    return True, V[:, least], float(omega2[least])


def _least_modes_dense(K, M, J, k):
    """``(omega2, V)``: the k least modes of ``Z^T K Z y = omega^2 Z^T M Z y`` (K, M (n, n)
    sparse, J (m, n); Z an orthonormal basis of J's null space), dense on the free motions
    (fewer than :data:`LANCZOS_SPACE`): omega^2 (k,) and the vectors (n, k), none (n, 0)
    where the joints allow no motion; (None, None) where the eigensolver fails."""
    n, m = K.shape[0], J.shape[0]
    Z = scipy.linalg.null_space(J.toarray()) if m else np.eye(n)
    if not Z.shape[1]:
        return np.zeros(0), Z
    Mz = Z.T @ (M @ Z)
    try:
        omega2, V = scipy.linalg.eigh(Z.T @ (K @ Z), 0.5 * (Mz + Mz.T),
                                      subset_by_index=[0, min(k, Z.shape[1]) - 1])
    except (np.linalg.LinAlgError, ValueError):
        return None, None
    return omega2, Z @ V


def _neutral_mode(K, skew, M, J, bound):
    """Whether an equilibrium that :func:`_unstable_mode` found stable (its arguments) is one
    of a family: the least mode of ``Z^T K Z y = omega^2 Z^T M Z y`` is a rigid-body mode,
    its omega^2 within its resolution (:func:`rancf.utilities.resolution.rigid`, the test
    by which :func:`rancf.modes` lists it as one), a motion that no stiffness resists and no
    load drives (a body's spin about the vertical on a ball joint, a coupler's about the
    line of its two ball joints). Dense on the free motions where they are fewer than
    :data:`LANCZOS_SPACE`, else Lanczos about ``-tau`` (:func:`_modes_about`, ``tau`` as
    :func:`_unstable_mode`'s): the two ``nu = 1 / (omega^2 + tau)`` largest in magnitude,
    the omega^2 nearest zero on either side (a neutral spin's, by a K of differences, can
    fall below ``-tau`` within its resolution: a steel beam's on a ball joint). False where
    the eigensolver fails. Why the stiffness, not Newton's step: a
    Newton matrix singular along such a motion need not fail (the residual has no component
    there and the factorization meets a round-off pivot: the coupler's spin), and one can
    fail elsewhere."""
    n, m = K.shape[0], J.shape[0]
    if n - m <= LANCZOS_SPACE:
        omega2, V = _least_modes_dense(K, M, J, 1)
    else:
        tau = np.finfo(float).eps * bound / max(float(abs(M).sum(axis=1).max()), 1e-300)
        omega2, V = _modes_about((K + tau * M).tocsc(), M, J, -tau, 2, "LM")
    if omega2 is None or not omega2.size:
        return False
    V = V / np.sqrt(np.einsum("ij,ij->j", V, M @ V))
    return bool(rigid(K + skew, omega2, V).any())


def _modes_below(A, M, J, tau, k, count):
    """``(omega2, V)``: the k least modes of ``Z^T K Z y = omega^2 Z^T M Z y``, those below
    ``-tau`` (A = ``K + tau M`` (n, n) sparse, M (n, n), J (m, n); ``count``: how many lie
    below ``-tau``, :func:`_negative_count`, or None where it is not known; k at most
    ``count``), by Lanczos in ARPACK's generalized shift-invert mode (:func:`_modes_about`):
    where k is the count, first about ``-tau``, ``nu = 1 / (omega^2 + tau)``, whose k least
    are then the modes below ``-tau``; where that does not converge all k, or more than k
    lie below, about a shift sigma below the least omega^2, the k largest ``nu = 1 /
    (omega^2 - sigma)`` (:func:`_shift_below`). omega^2 (k,) or fewer, and the vectors (n,
    k); (None, None) where the saddle-point matrix is singular or Lanczos fails.

    Why not about ``-tau`` where more than k lie below: its k least nu are the k modes
    nearest ``-tau``, not the least (a cable folded under its weight and turned out of its
    plane: six unstable modes, omega^2 from -2.07e8 to -228 1/s^2; about ``-tau`` the four
    from -46495 on, all converged, and the least returned was the third).
    Why the second shift at all: about ``-tau`` an omega^2 far below zero maps to a nu near
    zero, among those of the stiff modes far above (a cable folded under its weight: its
    unstable modes' nu lie between the stretch's and the swing's), and Lanczos, which finds
    the ends of the spectrum, converges slowly to such an interior one, its vector scattered
    from call to call (so the continuation along it would reach the hanging cable or not).
    About a shift at most four times below the least, those modes are the largest nu,
    separated from every other."""
    first = (None, None)
    if count is None or count == k:
        first = _modes_about(A, M, J, -tau, k, "SA")
        if first[0] is not None and first[0].size >= k:
            return first
    sigma = _shift_below(A, M, J, tau)
    if sigma is None:
        return first
    second = _modes_about((A - (tau + sigma) * M).tocsc(), M, J, sigma, k, "LA")
    if second[0] is None or (first[0] is not None and first[0].size > second[0].size):
        return first
    return second


#: The most times :func:`_shift_below` multiplies its shift by 4, from ``-tau``: 4^60 times
#: ``tau = eps |K|_inf / |M|_inf`` lies beyond any omega^2.
SHIFTS = 60


def _shift_below(A, M, J, tau):
    """A shift sigma (1/s^2) below the least omega^2 of ``Z^T K Z y = omega^2 Z^T M Z y``
    (A = ``K + tau M``, M, J as :func:`_modes_below`) and above a quarter of it: ``-tau
    4^j``, the least j in 1 to :data:`SHIFTS` at which ``Z^T (K - sigma M) Z`` has no
    negative eigenvalue (the count of omega^2 below sigma, :func:`_negative_count`,
    Sylvester; O(n) each), by bisection on j (the count falls as sigma does, so the j
    without one are those from the least on): ``log2(SHIFTS + 1)``, 6, counts where
    stepping j takes j; None where none is found within :data:`SHIFTS`."""
    def below(j):
        return _negative_count((A - (tau - tau * 4.0**j) * M).tocsc(), J) == 0
    # j = 0 (sigma = -tau) is not tried, as if it had a count; j = SHIFTS + 1 none, as if
    # it had none
    low, high = 0, SHIFTS + 1
    while high - low > 1:
        middle = (low + high) // 2
        if below(middle):
            high = middle
        else:
            low = middle
    return -tau * 4.0**high if high <= SHIFTS else None


#: Whether :func:`scipy.sparse.linalg.eigsh` takes ``rng``, the generator of ARPACK's
#: restart vectors (SciPy's C ARPACK, which draws them from fresh entropy without it).
#: Older SciPy's Fortran ARPACK draws them from its own seed, fixed at import and carried
#: from call to call: the same sequence of calls gives the same bits, but it cannot be set.
_EIGSH_SEEDABLE = "rng" in inspect.signature(spla.eigsh).parameters


def _modes_about(A, M, J, sigma, k, which):
    """``(omega2, V)``: k modes of ``Z^T K Z y = omega^2 Z^T M Z y`` by Lanczos in ARPACK's
    generalized shift-invert mode about ``sigma`` (1/s^2; A = ``K - sigma M`` (n, n) sparse,
    M (n, n), J (m, n)), ``which`` of ``nu = 1 / (omega^2 - sigma)`` (``"SA"`` the least,
    ``"LA"`` the largest), whose inverse on the constraints is the saddle-point solve
    ``[[A, J^T], [J, 0]]``: omega^2 (k,) and the vectors (n, k), those that converged where
    not all did (fewer); (None, None) where the saddle-point matrix is singular or ARPACK
    fails.

    Reproducible: the start vector and every restart vector ARPACK asks for are drawn from
    one generator seeded here (:data:`_EIGSH_SEEDABLE`), so the same inputs give the same
    bits in every call and every process. ARPACK asks for restart vectors even when given
    ``v0`` (after an invariant subspace or a restart of the Lanczos basis); from an unseeded
    generator those differ from run to run, and so, in their last digits, do the mode and
    everything that follows it (the continuation along it, which reached a stable
    equilibrium or not)."""
    n, m = A.shape[0], J.shape[0]
    try:
        saddle = spla.splu(sp.bmat([[A, J.T], [J, None]], format="csc"))
    except RuntimeError:
        return None, None

    def shift_invert(r):
        return saddle.solve(np.concatenate([np.ravel(r), np.zeros(m)]))[:n]
    op = spla.LinearOperator((n, n), matvec=shift_invert, dtype=float)
    random = np.random.default_rng(0)
    start = shift_invert(M @ random.standard_normal(n))
    seeded = {"rng": random} if _EIGSH_SEEDABLE else {}
    try:
        # eigsh returns omega^2 = sigma + 1 / nu
        return spla.eigsh(op, k=k, M=M, sigma=sigma, which=which, OPinv=op, v0=start,
                          tol=1e-10, **seeded)
    except spla.ArpackNoConvergence as exc:
        return exc.eigenvalues, exc.eigenvectors
    except (RuntimeError, ValueError):
        return None, None


def _refuse_plane_curved_cables(model, unstable=False):
    """Raise the ValueError that explains a singular stiffness matrix in the reference
    configuration of a model holding curved cables that lie in a plane (theory: Curved
    cables); return if it holds none. ``unstable``: the message adds that the equilibrium
    reached under loads in the planes (:func:`_pseudo_transient_first_step` and the load steps) is
    unstable out of them (:func:`_stable_out_of_plane`); ``"coupled"``: that it is unstable
    by the coupled test, on every coordinate, the planes not splitting the model
    (:func:`_split_is_exact`).

    Such a cable restores only its curvature's magnitude: an out-of-plane displacement w
    changes the strains of a curved element at first order by ``t . w'`` (zero, t in the
    plane) and ``u . (w' x r'' + r' x w'')`` (zero, both crosses in the plane and u normal to
    it), so in the stress-free reference, where Newton starts, every curved element's tangent
    has a zero block out of the plane: its nodes are held out of the plane only by straight
    elements or joints next to them, and a clamp at one end does not hold the rest."""
    plane = [repr(cable) for cable, _ in _plane_curved_cables(model)]
    if plane:
        raise ValueError(
            f"model: its stiffness matrix is singular in the reference configuration, and it "
            f"holds the plane curved cable {', '.join(plane)}: a curved cable restores only "
            "the magnitude of its rest curvature (it has no torsional stiffness, its section "
            "turns freely), so its curved elements have no first-order stiffness out of their "
            "plane, and rancf.static cannot start unless straight parts or joints hold every "
            "curved element's nodes out of the plane (a clamp at one end does not), or joints "
            "hold both its ends and loads in its plane pull it taut (a slack cable hanging "
            "between two pins: not an arch, which they compress); run it in "
            "dynamics (rancf.simulate, with damping to settle it) or model the member as an "
            "SE(3) beam (element=\"se3-beam\")" + (
                "; here the equilibrium reached under the loads in its plane is unstable out "
                "of it (compressed, or bent less than the rest curvature it is drawn with, "
                "which its bending then seeks out of the plane against its tension, as where "
                "a point load straightens it: draw it nearer the shape it hangs in, or refine "
                "the mesh)" if unstable is True else
                "; here the equilibrium reached under the loads in its plane is unstable, by "
                "the coupled test on all the model's coordinates: its plane is not a mirror "
                "plane of the model, or a body or another beam is tied to it, so its motions "
                "out of the plane are coupled with theirs, and the continuation along its "
                "unstable direction did not reach a stable one"
                if unstable == "coupled" else ""))


def _spatial_static(model, load_steps, tol, max_iter):
    """Statics of a spatial tree: the same load steps through the same loop, on the spatial
    formulation's problem (:func:`rancf.formulations.spatial.implicit_problem` with
    ``static=True``): unknowns its free link coordinates, Newton's step the full tangent's
    (the load stiffness included: factored directly, O(n), where the model holds nothing
    that matrix leaves out, else GMRES preconditioned by that matrix, or with cables by the
    elements' stiffness; the
    docstring of rancf/formulations/_spatial_implicit.pyx), no multipliers; the joint
    spring-dampers' rest values and rest rotations stepped with the loads (:func:`ramp_rest`).
    The equilibrium the load steps reach is tested for stability, and an unstable one left
    for a stable one, on the model's spatial DAE (:func:`_leave_unstable_equilibrium`),
    but where the last Newton matrix, statics' direct one of loads with a potential, has
    only positive pivots: it is then the potential's Hessian, positive definite, and the
    equilibrium a strict minimum (``static_stable`` of
    rancf/formulations/_spatial_implicit.pyx), which that test would find stable too."""
    tree = model.build()
    formulation = spatial.of_model(model)
    # the wall time from Newton's set-up (its matrix's workspaces) on, as a solver's own span
    # (Exudyn's SolveStatic, after Assemble: the model's build and formulation here)
    start = time.perf_counter()
    problem = spatial.implicit_problem(formulation, static=True)
    n = formulation.n_free
    q = formulation.initial_state()[:n]
    stepper = _static_stepper(problem, tol * tree.size, max_iter)
    stepper.start_at_rest(0.0, q, np.zeros(0))
    # the joint spring-dampers' rest values and rest rotations, the kernel's own arrays (a
    # revolute's or prismatic's rest rotation row is zero, scaled alike)
    springs, kernel = len(tree.joint_spring_body), formulation.kernel.arrays
    set_load_factor = ramp_rest(lambda s: setattr(problem, "load_factor", s),
                                kernel["js_law"][:3 * springs].reshape(-1, 3), 0.0,
                                kernel["js_rest"][:3 * springs].reshape(-1, 3),
                                np.ones(springs, dtype=bool))
    # the input functions' values at the last equilibrium (played back for the outputs where
    # one stopped the solve: test_an_input_functions_error_keeps_the_spatial_equilibrium)
    inputs, zero = formulation.inputs, np.zeros(n)

    def values_at(q):
        if inputs.time_dependent or inputs.effort_dependent:
            # the functions at the equilibrium itself: Newton's last residual was at the
            # iterate before its last increment, and its matrix's products at others
            problem.residual(q, zero, 0.0, zero, 0.0, 1.0)
        return inputs.keep()
    # at the start, as the other formulations' set-up: a function that fails there raises
    # out of the call (UserFunctionError's rule: nothing computed, no output to keep)
    kept = [values_at(q)]

    def accepted(q):
        kept[0] = values_at(q)
        # the cable frames carried from load step to load step, as a run's from output to
        # output
        formulation.carry_cable_frames(q)
    loads = step_loads(stepper, set_load_factor, load_steps, accepted)
    if loads[5] == "singular" and not loads[4]:
        # the matrix was singular at Newton's start, the reference configuration
        _refuse_plane_curved_cables(model)

    def residual(q, lam):
        f = -problem.residual(q, zero, 0.0, zero, 0.0, 1.0)
        return np.linalg.norm(f), f, np.zeros(0)

    def mass_solve(q, lam):
        # the applied loads' part of the residual (the elements' forces are not scaled)
        s = problem.load_factor
        problem.load_factor = 0.0
        try:
            unloaded = problem.residual(q, zero, 0.0, zero, 0.0, 1.0)
        finally:
            problem.load_factor = s
        a = problem.newton_solve(q, zero, 0.0, unloaded - problem.residual(q, zero, 0.0, zero,
                                                                           0.0, 1.0),
                                 1.0, 0.0, 0.0)
        # not below gravity's: the link coordinates' generalized forces vanish where the
        # model hangs, though the joints carry its weight
        return max(np.abs(a).max(initial=0.0), float(np.linalg.norm(model.gravity)))

    family = [None]
    damped = _recording(family, lambda q, lam: _damped_equilibrium(
        stepper, problem, q, lam, residual,
        lambda q, d: problem.residual(q, zero, 0.0, d, 1.0, 0.0), mass_solve, tree.size,
        tol * tree.size, max_iter, made, accepted))
    made = [stepper]
    status, message, error, reached, iterations, reason, steps = _settle_mechanism(
        stepper, set_load_factor, damped, made, loads)
    # the direct matrix's pivots decide a stable equilibrium where the loads have a potential
    # (SpatialProblem.static_stable): then no spatial DAE is built to test it
    if status == "ok" and not problem.static_stable():
        dae = SpatialDAE(tree, *spatial.model_inputs(model))
        status, message, error = _leave_or_stop(
            dae, stepper, *_tree_in_dae(formulation, dae,
                                        _landing(stepper, accepted, damped, family)),
            tol * tree.size, max_iter, made, message, _tree_in_dae(formulation, dae, damped)[1],
            family)
    message = _family_noted(status, message, family)
    _, q, v, _, _ = stepper.state()
    set_load_factor(reached)
    # played back here where an input function stopped the solve
    recorded = _kept_at_equilibrium(kept)
    with held_interrupt() as caught, (inputs.playing(recorded)
                                      if error is not None else contextlib.nullcontext()):
        seen = problem.observe(q, v, np.zeros(n), 0.0, np.zeros(0))
    status, message = _after_loads(status, message, caught)
    extra = {name: np.atleast_1d(seen[name]) for name in ("kinetic", "gravity", "elastic")}
    extra.update({k: seen[k][None] for k in CABLE_OUTPUTS if k in seen})
    return Solution(t=np.zeros(1), q=q[None], nodes=seen["nodes"][None],
                    velocities=seen["velocities"][None],
                    joint_q=seen["joint_q"][None], joint_qd=seen["joint_qd"][None],
                    reactions=seen["reactions"][None], work=np.zeros(1), dissipated=np.zeros(1),
                    lam=np.zeros((1, 0)), status=status, message=message, method="newton",
                    formulation="spatial",
                    stats=_work(iterations, made, steps),
                    extra={**_load_steps_extra(reached, iterations, steps, load_steps), **extra},
                    wall_time=time.perf_counter() - start, error=error, inputs=recorded)


#: How many times :func:`_leave_unstable_equilibrium` and the fold escape of
#: :func:`_spatial_dae_static` leave an unstable equilibrium along its unstable direction before
#: they give up. Each escape ends at an equilibrium of lower potential, which may itself be
#: unstable (a rod falling off a slack cable passes two to four such, as round-off picks the
#: way down), so the budget is a few times that.
ESCAPES = 6

#: The ways :func:`_leave_unstable_equilibrium` leaves an unstable equilibrium, tried in turn
#: until one reaches an equilibrium: ``(push, floor)``, a step along the unstable mode of
#: ``push`` times the model's size, then :func:`_pseudo_transient_first_step` with its mu
#: (1/s^2) kept at least ``floor |omega^2|`` (omega^2 < 0 the mode's). The push is a
#: straight line in the coordinates, which strains an ANCF beam or cable (its slopes are
#: coordinates: turned by a straight step of angle a, stretched by ``a^2 / 2``): 1e-3 of the
#: size strains it by 5e-7, where a tenth strained a steel column by 5e-3, whose axial force
#: the continuation's first steps then relaxed, mu falling tenfold a step with the residual
#: until it fell below ``|omega^2|``: there a step is Newton's, which goes back up to the
#: unstable equilibrium (a parallelogram four-bar climbed back so). With ``mu > |omega^2|``
#: a step's matrix ``K + mu M`` is positive definite along the mode, a step of the gradient
#: flow that lowers the potential; at 4, a step grows the displacement along it by 4/3
#: (``d = |omega^2| / (mu - |omega^2|) dx``), and the margin covers the more negative
#: curvature met on the way down (a slender cable's buckling as it falls). The second way
#: (the straight push of a tenth, no floor) where the first finds nothing: a slender cable
#: drawn upright (compressed, many unstable modes) reached a crumpled state by the first at
#: some meshes, and this one at others.
ESCAPE_WAYS = ((1e-3, 4.0), (0.1, 0.0))


#: The ways :func:`_spatial_dae_static`'s fold escape leaves an equilibrium of plane curved
#: cables unstable in their planes (:func:`_escape`): first the straight push of a tenth of
#: the model's size, no floor. The first of :data:`ESCAPE_WAYS` (a push of 1e-3, mu floored at
#: 4 |omega^2|) reached from such states other unstable ones, crumpled (a 0.1 kg rod stood on
#: a slack cable, the arc folded on one pin at EA 1e5 N), where this reaches the stable one.
#: Then that floored way, where the first climbs back: a stiff cable (EI 10 N m^2, 1 m)
#: standing straight up on a pin, an inverted pendulum of one unstable mode (omega^2 about
#: -3 g / (2 L)), came back from the push of a tenth to either side to the upright state
#: (to 1e-26 m), mu falling below |omega^2| within the first steps, six escapes in a row,
#: and statics refused it; the floored way lays it down hanging (tests/
#: test_cable_straight_rest.py, on either BLAS kernel set).
FOLD_ESCAPE_WAYS = ((0.1, 0.0), (1e-3, 4.0))


def _escape(dae, x, lam, down, omega2, tol, max_iter, made, landed=lambda first: True,
            ways=ESCAPE_WAYS):
    """The equilibrium ``(x, lambda)`` reached from the unstable equilibrium ``(x, lambda)``
    of ``dae`` along its unstable mode ``down`` (n,) of ``omega2`` (1/s^2, negative), or
    None: the ``ways`` (``(push, floor)`` pairs, :data:`ESCAPE_WAYS`) in turn, each to either
    side of the equilibrium,
    ``down`` first signed so that its largest entry is positive; a step of ``push`` times
    the model's size along it, then :func:`_pseudo_transient_first_step` (``tol``,
    ``max_iter``, ``made``) with mu kept above ``floor |omega^2|``; the first end that
    ``landed(end)`` accepts (a load step from there that converges, for
    :func:`_leave_unstable_equilibrium`) and that is not the equilibrium left: an end within
    ``2 tol`` of x (each located to the loop's ``tol``) is the continuation climbed back (its
    steps turn Newton's once mu falls below ``|omega^2|``), which the next test would find
    unstable again and the same escape would leave the same way. Why both sides: the mode's
    sign is the eigensolver's arbitrary choice, and the potential falls to either side at
    second order, but the continuation from one side can stall where the other's reaches an
    equilibrium (a cable hanging from a pin folded back on itself:
    tests/test_cable_straight_rest.py)."""
    for push, floor in ways:
        for start in _pushes(dae, x, down, push):
            with one_blas_thread():
                end = _pseudo_transient_first_step(dae, start, lam, tol, max_iter, made,
                                                   -floor * omega2)
            # an end back at the equilibrium left (within the two ends' tolerances) is no
            # escape: the continuation's steps turned Newton's and climbed back up
            if end is not None and np.abs(end[0] - x).max() > 2.0 * tol and landed(end):
                return end
    return None


def _pushes(dae, x, down, push):
    """The two starts off the equilibrium x (n,) of ``dae`` along its unstable mode ``down``
    (n,): ``x +- push size down / |down|_max`` (no coordinate moved by more than ``push``
    times the model's size), ``down`` first signed so that its largest entry is positive
    (the eigensolver's sign is arbitrary; the order of the two sides is then the same from
    run to run)."""
    down = down * np.sign(down[np.argmax(np.abs(down))])
    step = push * _size(dae) / np.abs(down).max()
    return x + step * down, x - step * down


#: The push of :func:`_leave_unstable_equilibrium`'s first way off an unstable equilibrium,
#: the damped steps of the statics' own loop (``descend``) from it, as a share of the model's
#: size: that of the first of :data:`ESCAPE_WAYS`, for the same reason (an ANCF element turned
#: straight by 1e-3 is stretched by 5e-7 only). From there :func:`_damped_newton` doubles the
#: distance from the maximum a step (mu at twice the curvature along its steps) within its
#: reach: about ``log2(1e3)`` = 10 steps to leave it.
DESCENT_PUSH = 1e-3


#: Above this many constraint rows statics does not test the stability of its equilibrium
#: (:func:`_leave_unstable_equilibrium`): the test is dense in the rows (an eigenvalue problem
#: and solves with as many right-hand sides), O(m^3), so that on larger models it would cost
#: many times the solve itself; the result's message says it was not tested.
STABILITY_ROWS = 500


def _leave_unstable_equilibrium(dae, stepper, absolute, solve_from, tol, max_iter, made,
                                message, descend=None, family=None):
    """``(status, message)`` of a static solve whose load steps reached an equilibrium (the
    stepper's state, at load factor 1), which is left for a stable one where it is unstable:
    the fold escape of :func:`_spatial_dae_static`, on every coordinate, for a model of
    either dimension: planar (its DAE ``dae``, :class:`~rancf.formulations.dae.DAE`, that
    the load steps ran) or spatial of any kind (the recursion's, through the same model's
    spatial DAE ``dae``).

    ``absolute(state)``: ``(x, lambda)`` of the DAE at the stepper's ``state()`` (the
    recursion's link coordinates mapped to the poses, the multipliers that hold them by
    least squares); ``solve_from(x, lambda)``: Newton's load step at load factor 1 from
    there, on the stepper, True where it converged. The test: :func:`_unstable_mode`, a mode
    of ``Z^T K Z y = omega^2 Z^T M Z y`` (K Newton's stiffness ``K + d(Phi_x^T
    lambda)/dx``, M the DAE's mass matrix, Z the motions the joints allow) whose omega^2
    (1/s^2) is negative beyond its round-off ``eps |K|_1 |y|^2`` (y of unit modal mass), the
    test :func:`rancf.modes` refuses an unstable equilibrium by, O(n). Where it is unstable
    and ``descend(x, lambda)`` is given (the damped steps of the solve's own loop,
    :func:`_damped_equilibrium` through :func:`_recording`, from a DAE state; True where they
    reached an equilibrium): first that, from a push of :data:`DESCENT_PUSH` times the
    model's size along the mode to either side (:func:`_pushes`): the damped steps leave a
    maximum at a doubling of the distance a step (:func:`_damped_newton`). Where that
    reaches none, or is not given (the spatial DAE's statics): a step along that mode, then
    :func:`_pseudo_transient_first_step` at the full load from
    there, its mu kept above ``|omega^2|`` (a damped descent of the potential: Newton alone
    goes back to the unstable equilibrium as readily as to another, and so do the
    continuation's steps once mu falls below ``|omega^2|``), the ways of
    :data:`ESCAPE_WAYS` in turn, and ``solve_from`` its end;
    :data:`ESCAPES` times at most. Not tested: an
    equilibrium under loads that are not conservative (a moment fixed in space, a follower
    force: K's antisymmetric part above ``1e-8 |K|_inf``, where :func:`rancf.modes` refuses
    them too), which no energy's minimum decides, and one whose multipliers are not finite.
    Where the continuation fails, or the last is still unstable, ``"failed"``, the stepper
    back at the unstable equilibrium reached last (the result), its message naming it; a
    Ctrl-C in here, ``"interrupted"``, back at the last equilibrium reached. Where it was
    left for a stable one, ``"ok"``, the message saying so (the result can be far from the
    drawn configuration: a body drawn standing on a pin comes back hanging).
    ``tol`` (m) the loop's tolerance; ``made`` the solve's loops, which this appends to
    (:func:`_work`); ``message`` the load steps' (kept where the equilibrium is stable).
    ``family``: the solve's one-item list (:func:`_recording`, :func:`_landing`), or None;
    where it holds a verdict of the damped steps (they reached the equilibrium last) and the
    equilibrium is found stable, set to ``"family"`` where its least mode on the motions the
    joints allow is a rigid-body mode (:func:`_neutral_mode`), else ``"isolated"``: what
    :func:`_family_noted` reports, decided by the stiffness, not by Newton's last step.

    Why: Newton's load steps converge to an equilibrium, not to a minimum of the potential.
    A cable on a spherical joint, drawn horizontal under gravity, has no stiffness against
    the first load steps' swing but gravity's; the increments' halving can land it on the
    upright branch, which the pin leaves free to fall; a cable drawn straight up between two pins is compressed
    below by its weight, an equilibrium that its tiny bending stiffness cannot hold. A
    spatial rigid body drawn standing on a pin, which the recursion's direct statics matrix
    holds by gravity's turning alone, comes back hanging. A planar model drawn in an equilibrium is one at every load factor, where
    Newton stays: a rigid body standing on a free pin, a parallelogram four-bar standing up
    against a spring weaker than its weight's moment."""
    last = stepper.state()
    try:
        for attempt in range(ESCAPES + 1):
            last = stepper.state()
            x, lam = absolute(last)
            if not np.all(np.isfinite(lam)):
                return "ok", message
            if lam.size > STABILITY_ROWS:
                skipped = (f"its stability not tested: {lam.size} constraint rows, above "
                           f"{STABILITY_ROWS}, where the test's dense work in them would cost "
                           "more than the solve (rancf.modes at the result tests it)")
                return "ok", f"{message}; {skipped}" if message else skipped
            K, J, bound, skew = _stiffness(dae, x, lam)
            if skew.nnz and abs(skew).max() > 1e-8 * bound:
                # a load that is not conservative: no energy to be a minimum of
                return "ok", message
            M = sp.csr_matrix(dae.mass(x))
            unstable, down, omega2 = _unstable_mode(K, skew, M, J, bound,
                                                    _curvature_along(dae, x, lam))
            if not unstable:
                if family is not None and family[0]:
                    # reached by the damped steps: one of a family where its stiffness on
                    # the motions the joints allow has a zero mode (rancf.modes' rigid one)
                    family[0] = "family" if _neutral_mode(K, skew, M, J, bound) else "isolated"
                if attempt:
                    left = (f"the equilibrium reached at load factor 1 was unstable; left "
                            f"along its unstable direction ({attempt} "
                            f"time{'s' * (attempt > 1)}), the result is the stable one "
                            "reached from there, which can be far from the drawn "
                            "configuration")
                    message = f"{message}; {left}" if message else left
                return "ok", message
            if down is None or attempt == ESCAPES:
                break
            if not (descend is not None
                    and any(descend(start, lam)
                            for start in _pushes(dae, x, down, DESCENT_PUSH))
                    or _escape(dae, x, lam, down, omega2, tol, max_iter, made,
                               lambda first: solve_from(*first)) is not None):
                break
    except KeyboardInterrupt:
        # as in the load steps: the result is the last equilibrium reached, whole
        stepper.start_at_rest(0.0, last[1], last[4])
        return "interrupted", ("interrupted (Ctrl-C) after the last load step, while the "
                               "equilibrium's stability was tested: the result is the "
                               "equilibrium at load factor 1, untested")
    # back at the unstable equilibrium reached last (its cable frames carried there)
    stepper.start_at_rest(0.0, last[1], last[4])
    return "failed", (
        "the equilibrium reached is unstable (its stiffness on the motions the joints allow "
        "has a negative eigenvalue: a cable, body or mechanism held above a spherical or "
        "revolute joint, which leaves it free to swing down, as an SE(3) beam on a pin is "
        "left free to turn, or a member its loads compress), and the continuation from it "
        "along its unstable direction did not reach a stable one; the result is that "
        "unstable equilibrium: draw the model nearer the equilibrium it hangs in, or raise "
        "load_steps")


def _leave_or_stop(dae, stepper, absolute, solve_from, tol, max_iter, made, message,
                   descend=None, family=None):
    """``(status, message, error)``: :func:`_leave_unstable_equilibrium` (the same arguments),
    ``error`` None; or, where an input function fails in its stability test or its
    continuation (:data:`~rancf.utilities.errors.USER_FUNCTION_ERRORS`, raised by
    :func:`_pseudo_transient_first_step` and :func:`_solve_from`), ``"failed"`` at once,
    the message naming the function and its error, ``error`` that exception, the stepper at
    the last equilibrium reached (neither the test nor the continuation moves it, and
    :func:`_solve_from` puts it back). Why at once: no other way off the equilibrium helps
    the user's function, and each would call it again."""
    try:
        return (*_leave_unstable_equilibrium(dae, stepper, absolute, solve_from, tol, max_iter,
                                             made, message, descend, family), None)
    except USER_FUNCTION_ERRORS as exc:
        stopped = (f"the stability test of the equilibrium at load factor 1, or the "
                   f"continuation off it where unstable, stopped: {exc}; the result is the "
                   "last equilibrium reached (load factor 1), which may be unstable")
        return "failed", f"{message}; {stopped}" if message else stopped, exc


def _solve_from(stepper, q, lam, accepted):
    """Newton's load step on ``stepper`` from ``(q, lambda)`` at rest (its load factor
    unchanged), then ``accepted(q)`` at its equilibrium (the cable frames carried there):
    True where it converged, False where it failed (the stepper then left at its start).
    An input function's error (:data:`~rancf.utilities.errors.USER_FUNCTION_ERRORS`, in the
    step or in ``accepted``) is raised, the stepper back at the state it held before (the
    last equilibrium): no other start helps it, and a retry would call the function again."""
    before = stepper.state()
    stepper.start_at_rest(0.0, q, lam)
    try:
        try:
            stepper.advance()
        except USER_FUNCTION_ERRORS:
            raise
        except (StepFailure, ArithmeticError, ValueError, RuntimeError):
            return False
        accepted(stepper.state()[1])
    except USER_FUNCTION_ERRORS:
        stepper.start_at_rest(before[0], before[1], before[4])
        raise
    return True


def _tree_in_dae(formulation, dae, land):
    """``(absolute, solve_from)`` of :func:`_leave_unstable_equilibrium` for the recursion's
    statics (:func:`_spatial_static`) of ``formulation``, through the same model's spatial
    DAE ``dae``: the link coordinates q to the DAE's x (the bodies' origins and Euler
    parameters, the cable nodes' ``[r, r']``) by the recursion's kinematics, the
    multipliers by least squares, ``lambda = (J J^T)^-1 J F``; and x back to q
    (:meth:`~rancf.formulations.spatial.Spatial.state_of` of its poses), then ``land(q,
    lam)`` there (:func:`_landing`: Newton's step on the recursion, or where that fails the
    damped steps: a family of equilibria, a hanging chain of bodies on ball joints, whose
    spins about the vertical make every Newton matrix singular)."""
    n, nb, nc = formulation.n_free, dae.n_bodies, dae.n_cable_nodes

    def absolute(last):
        r, A, _ = formulation.kinematics(np.concatenate([last[1], np.zeros(n)]))
        x = np.concatenate([np.concatenate([r, quaternion(A)], axis=1).ravel(),
                            formulation.cable_coordinates()[0].ravel()
                            if formulation.cables is not None else np.zeros(0)])
        J = sp.csr_matrix(dae.constraint_jacobian(x, 0.0))
        if not J.shape[0]:
            return x, np.zeros(0)
        return x, spla.spsolve(sp.csc_matrix(J @ J.T), J @ dae.force(x, np.zeros_like(x), 0.0))

    def solve_from(x, lam):
        r, A = dae.poses(x)
        poses = np.concatenate([np.concatenate([r, A.reshape(nb, 9)], axis=1).ravel(),
                                x[POSE_SIZE * nb:]])
        q = formulation.state_of(poses, np.zeros(TWIST_SIZE * nb + CABLE_NODE * nc),
                                 check=False)[:n]
        return land(q, np.zeros(0))

    return absolute, solve_from


def _spatial_dae_static(model, load_steps, tol, max_iter, dae=None):
    """Statics of a spatial model with a closed loop: the load steps of :func:`step_loads`
    through the implicit loop's Newton iteration
    (the :class:`~rancf.integrators.implicit.Static` scheme) on the spatial DAE, its gravity and
    loads scaled by its ``load_factor``; the unknowns its coordinates and multipliers, as the
    planar statics', and its joint spring-dampers' rest values (a spherical joint's rest
    rotation) stepped with them from the reference configuration's (:func:`ramp_rest`). Newton
    starts each load step from the last equilibrium, the first from the
    reference configuration with the multipliers that best balance the first load step
    (least squares: a body hanging from a joint has no stiffness but the weight's through
    lambda). Where that start's matrix is singular because of plane curved cables loaded in
    their planes, or where plain Newton's first load step fails on such a model, or where
    it holds plane cables drawn off their straight rest shape (:func:`_bent_plane_cables`),
    the first load step is solved by :func:`_pseudo_transient_first_step` and the load steps
    go on from it; an equilibrium :func:`_unstable_in_plane` is left along its unstable
    direction by the continuation at the full load (:data:`ESCAPES` times at most), and the
    last is returned if :func:`_stable_out_of_plane`, else refused. A load step that fails where the
    model is a mechanism its loads drive says so, naming the joint
    (:func:`free_motion_under_load`, as planar statics), unless the damped Newton steps
    at the full load from where they stopped reach an equilibrium (:func:`_settle_mechanism`,
    on this DAE's residual and load acceleration, :func:`_dae_measures`: a loop of rods on
    ball joints drawn off its hanging state, whose rods' spins make every Newton matrix
    singular), as the planar and the recursion's statics; an escape off an unstable
    equilibrium lands by them where Newton's step fails (:func:`_landing`), and the message
    notes a family of equilibria (:func:`_family_noted`). Not where the plane curved cables'
    path above ran: its own tests decide that equilibrium. On ``dae`` (the model's, given
    by :func:`static`) or one made here."""
    if dae is None:
        dae = SpatialDAE(model.build(), *spatial.model_inputs(model))
    start = time.perf_counter()
    x, _ = dae.consistent_state(dae.initial_state()[0], np.zeros(dae.n_coordinates))
    v = np.zeros_like(x)
    set_load_factor = ramp_rest(lambda s: setattr(dae, "load_factor", s),
                                dae.joint_spring_law, 0.0, *dae.joint_spring_rotations)
    set_load_factor(1.0 / load_steps)

    def balancing(q):
        # the multipliers that best balance the loads at the load factor set, at q
        J = sp.csr_matrix(dae.constraint_jacobian(q, 0.0))
        return spla.spsolve(sp.csc_matrix(J @ J.T), J @ dae.force(q, v, 0.0))
    lam0 = balancing(x)
    made = []                       # every loop this solve runs: its work counters
    # the input functions' values at the last equilibrium, played back for the outputs where
    # one stopped the solve (called again, one that fails on every call would lose it)
    slots = dae._input_slots()
    functions = bool(slots)

    def values_at(q):
        """The functions' values at the equilibrium q, a Recorded row: the arrays made to
        hold them there by ``keep_inputs`` (which calls a function only where its last call
        was elsewhere), copied."""
        if not functions:
            return {}
        dae.compiled.keep_inputs(0, 0.0, q, v)
        return dae._input_values(slots)
    kept = [values_at(x)]

    def accepted(q):
        kept[0] = values_at(q)
        dae.carry_cable_frames(q)
    kinds = [j.kind for j in model.joints]

    def diagnose(last):
        # where the solve stops: is it a mechanism its loads drive? Where no load step
        # converged, the state's multipliers are Newton's start, not an equilibrium's: the
        # retry's linear statics ones (_linear_static_multipliers) load a free motion
        # against the stand-in stiffness c M alone (a 0.1 N m moment about a free pin gave
        # 3.8e4 on one row), whose term in K hides the motion; there the least-squares
        # ones of the failed step's loads
        lam = balancing(x) if np.array_equal(last[1], x) else last[4]
        return free_motion_under_load(dae, last[1], lam, kinds)
    with one_blas_thread():
        for retry in (False, True):
            if retry:
                if reason != "singular" or iterations:
                    break
                # the least-squares multipliers left a direction without stiffness: a body
                # hung from a joint on a beam (at a node or between two), whose weight they
                # share out over the beam's nodes and the clamp, not through its joint, so
                # its swing has none of the weight's stiffness through lambda (the Newton
                # matrix singular at the reference); start from the linear statics'
                set_load_factor(1.0 / load_steps)
                lam0 = _linear_static_multipliers(dae, x, v)
                if lam0 is None:
                    break
            stepper = _static_stepper(dae.compiled, tol * dae.tree.size, max_iter, made=made)
            stepper.start_at_rest(0.0, x, lam0)
            status, message, error, reached, iterations, reason, steps = step_loads(
                stepper, set_load_factor, load_steps, accepted, diagnose)
    tested = False                  # by the plane curved cables' own tests below
    if error is None and ((_bent_plane_cables(model) or (status == "failed" and not iterations))
                          and _loads_in_cable_planes(model)):
        try:
            # a plane curved cable, loaded in its plane, whose first load step plain Newton
            # does not reach (its matrix singular, or not contracting), or one drawn bent off
            # its straight rest shape (where plain Newton may reach a crumpled, unstable
            # equilibrium): the first load step by pseudo-transient continuation in the loop,
            # then the load steps from its equilibrium
            set_load_factor(1.0 / load_steps)
            doing = (f"load step 1 of {load_steps} (load factor {1 / load_steps:.4g}), "
                     "started by pseudo-transient continuation (plane curved cables)")
            first = _pseudo_transient_first_step(
                dae, x, np.zeros(dae.n_constraints) if lam0 is None else lam0,
                tol * dae.tree.size, max_iter, made)
            if first is not None:
                kept[0] = values_at(first[0])
                stepper = _static_stepper(dae.compiled, tol * dae.tree.size, max_iter,
                                          made=made)
                stepper.start_at_rest(0.0, *first)
                with one_blas_thread():
                    status, message, error, reached, iterations, reason, steps = step_loads(
                        stepper, set_load_factor, load_steps, accepted, diagnose)
                set_load_factor(reached)
                tested = True
                doing = (f"the stability test of the equilibrium at load factor {reached:.4g} "
                         "in and out of the plane of its curved cables, or the continuation off "
                         "it where unstable")
                for _ in range(ESCAPES if status == "ok" else 0):
                    # an equilibrium unstable in the plane (a cable folded back on itself): on
                    # along its unstable mode, by a tenth of the model's size to either side,
                    # the continuation from there at the full load (:func:`_escape`)
                    x1, lam1 = stepper.state()[1::3]
                    found = _unstable_in_plane(dae, model, x1, lam1)
                    if found is None:
                        break
                    first = _escape(dae, x1, lam1, *found, tol * dae.tree.size, max_iter,
                                    made, ways=FOLD_ESCAPE_WAYS)
                    if first is None:
                        status, message = "failed", (
                            "the equilibrium reached is unstable in the plane of its curved "
                            "cables, and the continuation from it along its unstable direction "
                            "did not converge; the result is that unstable equilibrium")
                        break
                    kept[0] = values_at(first[0])
                    stepper.start_at_rest(0.0, *first)
                x1, lam1 = stepper.state()[1::3]
                if (iterations and error is None
                        and not _stable_out_of_plane(dae, model, x1, lam1)):
                    # an equilibrium unstable out of the plane (an arch, compressed), or
                    # unstable by the coupled test, is none to return: the refusal's reasons
                    # hold for it
                    exact = _held_stiffness(dae, x1, lam1,
                                            _out_of_plane_coordinates(dae, model), False)[3]
                    _refuse_plane_curved_cables(model, unstable=True if exact else "coupled")
        except USER_FUNCTION_ERRORS as exc:
            # an input function failed in the continuation or the cables' stability tests:
            # stopped at once (no other start helps it, a retry would call it again), the
            # stepper at the last equilibrium reached (each continuation has its own loop)
            status, error = "failed", exc
            message = (f"{doing}: {exc}; the result is the equilibrium at load factor "
                       f"{reached:.4g}")
    if reason == "singular" and not iterations:
        # the matrix was singular at Newton's start, the reference configuration
        _refuse_plane_curved_cables(model)
    family = [None]
    if not tested:
        # a mechanism its loads alone hold (a loop of bodies on ball joints drawn off its
        # hanging state): the damped steps at the full load where the load steps failed, and
        # where an escape's landing fails Newton's step (a family of equilibria)
        residual, mass_solve = _dae_measures(dae, lambda: dae.load_factor,
                                             lambda s: setattr(dae, "load_factor", s),
                                             model.gravity)
        damped = _recording(family, lambda q, lam: _damped_equilibrium(
            stepper, dae.compiled, q, lam, residual, lambda q, d: dae.mass(q) @ d,
            mass_solve, dae.tree.size, tol * dae.tree.size, max_iter, made, accepted))
        with one_blas_thread():
            status, message, error, reached, iterations, reason, steps = _settle_mechanism(
                stepper, set_load_factor, damped, made,
                (status, message, error, reached, iterations, reason, steps))
        if status == "ok":
            status, message, error = _leave_or_stop(
                dae, stepper, lambda last: (last[1], last[4]),
                _landing(stepper, accepted, damped, family), tol * dae.tree.size, max_iter,
                made, message, damped, family)
    message = _family_noted(status, message, family)
    _, x, _, _, lam = stepper.state()
    set_load_factor(reached)
    recorded = _kept_at_equilibrium(kept)
    with held_interrupt() as caught, (
            _functions_replaced(dae, recorded.played)
            if error is not None and functions else contextlib.nullcontext()):
        seen = dae.observe(x, v, 0.0, lam)
        # the equilibrium's reactions are its multipliers' (observe's solve adds the inertia a
        # state off equilibrium would have, where a load step failed)
        seen["reactions"] = dae.reactions(x, lam, 0.0).ravel()
    status, message = _after_loads(status, message, caught)
    return Solution(t=np.zeros(1), q=x[None], nodes=seen["nodes"][None],
                    velocities=seen["velocities"][None], joint_q=seen["joint_q"][None],
                    joint_qd=seen["joint_qd"][None], reactions=seen["reactions"][None],
                    work=np.zeros(1), dissipated=np.zeros(1), lam=lam[None], status=status,
                    message=message, method="newton", formulation="dae",
                    stats=_work(iterations, made, steps),
                    extra={**_load_steps_extra(reached, iterations, steps, load_steps),
                        **{k: np.atleast_1d(seen[k]) for k in ("kinetic", "gravity", "elastic")},
                        **{k: seen[k][None] for k in CABLE_OUTPUTS if k in seen}},
                    wall_time=time.perf_counter() - start, error=error, inputs=recorded)


def _linear_static_multipliers(dae, x, v):
    """The multipliers (m,) of the linear statics at the reference x of the spatial DAE
    ``dae`` at its load factor: lambda of
    ``[[K + c M, Phi_x^T], [Phi_x, 0]] [dx; lambda] = [F; 0]`` (K the stiffness without the
    multipliers' term, F the forces), Newton's start of :func:`_spatial_dae_static` where the
    least-squares one leaves its first matrix singular; None where this matrix is singular too.

    Each joint carries what holds its child: a hung body's weight goes through its joint,
    whose multipliers then give the body's swing the weight's stiffness. ``c = 1e-6`` 1/s^2
    (``c M`` a stiffness 1e-6 N/m per kg) stands in for that stiffness, absent at zero
    multipliers; it changes the multipliers by its work on dx, small next to the weights the
    joints carry, and Newton's iterations from this start correct it."""
    try:
        solver = dae.newton_matrix(x, np.zeros_like(x), np.zeros(dae.n_constraints), v, 0.0,
                                   x, 0.0, 1e-6, 0.0, 1.0, 0.0, 1.0)
        _, lam = solver.solve(dae.force(x, v, 0.0), np.zeros(dae.n_constraints))
    except (ArithmeticError, RuntimeError, ValueError):
        return None
    return lam if np.all(np.isfinite(lam)) else None


def _static_stepper(problem, tol, max_iter, inertia=0.0, made=None):
    """The one implicit loop as statics runs it (:class:`~rancf.integrators.implicit.Static`:
    a step is a load step, Newton from the last equilibrium to ``tol``, the loop's own test).
    ``inertia``: its ``alpha_m`` (1/s^2), 0 for a load step; ``mu > 0`` makes a step the
    backward-Euler step of pseudo-time ``1/mu`` of :func:`_pseudo_transient_first_step`.
    ``made``: a list it is appended to (the solve's loops, whose work :func:`_work` sums), or
    None."""
    scheme = Static()
    stepper = Stepper(problem, scheme.alpha_m + inertia, scheme.alpha_f, scheme.gamma,
                      scheme.beta, scheme.intermediate, scheme.bdf1, 1.0, tol, max_iter, False,
                      static=scheme.static)
    if made is not None:
        made.append(stepper)
    return stepper


#: The least mu of :func:`_damped_newton`, as a share of its first: there a step's error along
#: a neutral direction, the residual's round-off over ``mu M`` (``eps |M^-1 r_0| / mu``),
#: stays below ``tol`` (``|M^-1 r_0|`` about ``mu_0`` times a tenth of the model's size,
#: ``tol`` 1e-10 of it: ``mu > 2e-7 mu_0``), and a direction of stiffness k (per unit mass)
#: above a thousandth of mu_0 (gravity's on a pendulum, ``g / L``, about mu_0 / 10) converges
#: by ``mu / (k + mu)``, 1e-3 or less, a step.
DAMPED_FLOOR = 1e-6

#: The most a step of :func:`_damped_newton` moves a coordinate, as a share of the model's
#: size: a longer one is refused and mu raised. Why: a step straight along the coordinates
#: turns an ANCF beam's slopes linearly, stretching it at second order (by a^2 / 2 for a turn
#: a), whose axial force then dominates the residual and its ratios (a flexible double
#: pendulum drawn horizontal reached crumpled, unstable equilibria with unlimited steps).
DAMPED_REACH = 0.25

def _off_neutral(stepper, x, lam, dx, mu, problem):
    """The damped step's part off the directions neutral at ``(x, lambda)`` (n,): ``2 dx(2
    mu) - dx(mu)``, ``dx = dx(mu)`` the step :func:`_damped_newton` took from there at mu,
    ``dx(2 mu)`` one more step from the same state at twice mu (on ``stepper``, left at the
    state it held after ``dx``), both in the start's chart (``problem.chart_step``); None
    where that second step fails.

    Why: along a direction of stiffness k per unit mass (omega^2, 1/s^2) the step is
    ``r_k / (k + mu)``, so that the combination is ``r_k k / ((k + mu) (k + 2 mu))``:
    Newton's step ``r_k / k`` where ``k >> mu``, and exactly zero where ``k = 0``, whatever
    the residual's component there. A neutral direction of little inertia (a coupler's spin
    about the line of its two ball joints, 1e-4 kg m^2) is moved at the floor by the
    residual's round-off over ``mu M``, more than ``tol`` a step (measured: 1e-9 m a step at
    5e-15 N; a stiff cable's stretch, EA 1e9 N, makes that round-off 1e-6 N), which this
    cancels, the same residual at the same state entering both steps; what it leaves is the
    step that the loop's test on a step's length should measure, the distance to the
    equilibrium off the family."""
    after = stepper.state()
    stepper.start_at_rest(0.0, x, lam)
    stepper.am = 2.0 * mu
    try:
        stepper.advance()
        twice = problem.chart_step(x, stepper.state()[1])
    except USER_FUNCTION_ERRORS:
        raise
    except (StepFailure, ArithmeticError, RuntimeError, ValueError):
        twice = None
    finally:
        stepper.am = mu
        stepper.start_at_rest(0.0, after[1], after[4])
    return None if twice is None else 2.0 * twice - dx


def _within(dx, tol):
    """Whether the step dx (n,) moves no coordinate by more than ``tol``; False where it is
    None (not computed)."""
    return dx is not None and np.abs(dx).max(initial=0.0) <= tol


def _damped_newton(problem, x, lam, residual, mass_times, a0, size, tol, max_iter, made):
    """The equilibrium ``(x, lambda)`` of a mechanism held by its loads alone (a beam or body
    on a ball or universal joint under gravity), reached from ``(x, lambda)`` at the load
    factor set, or None: Newton's steps of the one implicit loop on ``problem`` (the
    recursion's or a DAE's) with the matrix regularized, ``K + mu M`` (Levenberg-Marquardt
    with the scaling M, a pseudo-transient step of pseudo-time ``1 / mu``), the residual the
    static one (a step of the :class:`~rancf.integrators.implicit.Static` scheme with
    ``alpha_m = mu``, one Newton iteration from the last state at rest, whose inertia term
    ``mu M d`` is zero at ``d = 0``: :func:`_pseudo_transient_first_step`'s steps)::

        (K + mu M) dx = r,    r = s Q(x) - F_K(x) - Phi_x^T lambda

    Why: where K is singular along a mechanism's motion (a horizontal beam on a universal
    joint: gravity's stiffness is zero there) Newton's increment is unbounded; where a
    direction is neutral at every state (a beam's spin about its own axis on a ball joint,
    a family of equilibria turned about the vertical) every Newton matrix is singular.
    ``mu M`` is positive definite: the step is bounded, and zero along a truly neutral
    direction, where the residual has no component.

    ``residual(x, lambda)``: ``(|r|, f, c)``, the static residual's norm (any consistent
    norm: only its ratios are used), its force part ``f = s Q - F_K - Phi_x^T lambda`` (n,)
    and its constraint part ``c = Phi(x)`` (m,); ``mass_times(x, dx)``: ``M(x) dx`` (n,),
    the mass matrix on a step; ``a0`` (m/s^2): an acceleration of the
    loads, so that ``mu_0 = a0 / (0.1 size)`` moves no point by more than about a tenth of the
    model's ``size`` (m) in the first step, as :func:`_pseudo_transient_first_step`'s.

    A step is straight, that one Newton iteration, or solved: where a straight step near the
    end (one whose mu the residual's ratio sets, below: it moves no coordinate by more than
    a tenth of the reach, and its curvature kappa is not negative) leaves a residual off its
    linear model, its chord's error ``|(f(x_1) - mu M dx, Phi(x_1))|`` (the linear model
    leaves ``mu M dx`` of the force and no constraint violation), larger than the start's
    residual, the same pseudo-time step is iterated to the loop's tolerance, ``mu M (x_1 -
    x) = r(x_1)`` (backward Euler of ``M x' = r``; where the loads have a potential Pi,
    the proximal step ``min_y Pi(y) + mu |y - x|_M^2 / 2``), and taken instead where it is a
    step near the end too. Why: a straight step along the coordinates turns an ANCF cable's
    slopes linearly, stretching it at second order, and that stretch's force is then its
    residual, not the progress along the soft directions: mu, set by the residual's ratio,
    then follows the stretch up and down while the swing hardly advances (a light cable of
    EA 1e9 N on 0.01 kg rods, tests/test_review9_findings.py). The step solved has the
    residual ``mu M dx``, to the tolerance: its second iteration is the second-order
    correction of Transtrum and Sethna's geodesic acceleration (the straight step taken back
    onto the stiff directions' manifold), the next converge it. Not every step: the
    straight steps of a swing (farther than a tenth of the reach) and off a maximum keep
    their chord's error, which the next step relaxes, where mu does not follow the ratio (a
    step solved off a maximum at mu below ``|kappa|``, backward Euler beyond its stability,
    goes back towards it), and solving them costs more iterations than it saves.

    A step is refused (back to the last state) where it fails (a matrix that cannot be
    factored, a non-finite residual: mu times 10), where it moves a coordinate by more than
    :data:`DAMPED_REACH` times the size (mu times 1.5 the excess: a step of ``mu M`` alone
    scales as ``1 / mu``), and where it goes uphill, ``dx^T (K + mu M) dx = dx^T f + c^T
    dlambda <= 0`` (the step's own equations; K + mu M indefinite along it, mu below a
    negative curvature's ``|omega^2|``: a step towards an unstable equilibrium, a chain
    folding up; mu times 10). The steps are measured in the start's chart of the
    coordinates (``problem.chart_step``: a rotation vector the loop re-centred past pi is
    taken back, not counted as a step of nearly a full turn, which the reach refused: two
    beams on ball joints stalled with the lower one's half a turn from its reference).

    After an accepted step, its curvature ``kappa = dx^T K dx / dx^T M dx = dx^T (K + mu
    M) dx / dx^T M dx - mu`` (1/s^2, exact for the matrix solved; for a step solved, where
    ``f(x_1) = mu M dx``, the same formula is its secant ``dx^T (f(x) - f(x_1)) / dx^T M
    dx``). Where it is negative the
    step falls off a maximum or a saddle (a beam drawn near upright on a ball joint: gravity's
    swing stiffness ``-m g L / 2``): mu <- ``max(2 |kappa|, mu / 10)``, with which the step
    ``dx = |kappa| / (mu - |kappa|) d`` doubles the distance d from the maximum, so that
    leaving it from d takes ``log2(reach / d)`` steps. Why not by the residual: off a maximum
    the residual rises with the distance, as it should, and raising mu with it (switched
    evolution relaxation) shrinks the steps, mu growing with the steps and the distance as
    mu squared: from 1e-4 rad the 500 steps allowed ended short of the swing (statics
    failed there, and took 127 steps from 3e-3 rad). Else, an accepted step that moved more
    than a tenth of the reach is on its way: mu halved where the residual fell and the step
    took less than half the reach (the residual's ratio says little of the distance left: a
    swing's falls as the cosine of its angle). Nearer, with ``rho`` the residual's ratio
    step to step, ``mu <- mu / 10`` where it fell and ``mu sqrt(rho)`` where it rose
    (switched evolution relaxation, its fall limited to tenfold a step: a residual that falls
    by more in one step is a stiff direction's relaxed, an ANCF beam's stretch by the last
    straight step, not the swing's converging; mu at its full ratio fell to the floor, and
    the next steps went uphill), never below ``DAMPED_FLOOR mu_0``. It stops at
    a step taken at the floor whose part off the neutral directions (:func:`_off_neutral`,
    one more step from the same state at twice mu) moves no coordinate by more than ``tol``
    (the loop's own test, m, on the step that does not scale as ``1 / mu``: a neutral
    direction of little inertia drifts by more than ``tol`` a step on the residual's
    round-off alone), or at a step at the floor that moves none by more than ``tol`` itself;
    so the end is an equilibrium to the loop's tolerance off the directions in which it is
    one of a family, whatever the residual met on the way (a stiff cable's stretch by the
    straight steps, 7e7 N, where the weights are 14 N). Not on the residual's size: its
    round-off is that of the stiffest terms, ``eps |K| |x|`` (1e-6 N on a cable of EA 1e9
    N), which says nothing of the soft directions (its swing, 12 N m per rad, off by 4e-8
    m at a residual of 1e-5 N). None once the steps' Newton iterations reach ``10
    max_iter`` (a straight step's one, a step failed before its first one too: a matrix
    singular at every mu; a model with no equilibrium, a free body under gravity: its
    residual never falls). ``made``: the solve's loops, which this one joins
    (:func:`_work`). An input function's error is raised, as in
    :func:`_pseudo_transient_first_step`."""
    if not (np.isfinite(a0) and a0 > 0.0):
        return None
    mu = a0 / (0.1 * size)
    floor = DAMPED_FLOOR * mu
    r, f, c = residual(x, lam)
    reach = DAMPED_REACH * size
    # the straight step (one Newton iteration) and the step solved (to the loop's tolerance)
    straight, solved = (_static_stepper(problem, step_tol, max_iter, inertia=mu, made=made)
                        for step_tol in (np.inf, tol))

    # the steps that failed before Newton's first iteration (a matrix not factored): each
    # counts as one, so that a failure at every mu still ends the steps
    unsolved = [0]

    def step(stepper):
        # the pseudo-time step at mu from (x, lambda) on stepper: its end, residual, the step
        # in the start's chart (a rotation vector carried past pi is re-centred), the most it
        # moves a coordinate, dx^T (K + mu M) dx and M dx; None where it fails
        stepper.start_at_rest(0.0, x, lam)
        stepper.am = mu
        before = stepper.newton_iterations
        try:
            stepper.advance()
            _, x1, _, _, lam1 = stepper.state()
            r1, f1, c1 = residual(x1, lam1)
        except USER_FUNCTION_ERRORS:
            raise
        except (StepFailure, ArithmeticError, RuntimeError, ValueError):
            unsolved[0] += stepper.newton_iterations == before
            return None
        if not np.isfinite(r1):
            return None
        dx = problem.chart_step(x, x1)
        return (x1, lam1, r1, f1, c1, dx, np.abs(dx).max(initial=0.0),
                dx @ f + c @ (lam1 - lam), mass_times(x, dx))

    def near(taken):
        # a step near the end, where the residual's ratio sets mu (below): no farther than a
        # tenth of the reach, its curvature dx^T K dx not negative
        _, _, _, _, _, dx, moved, stiff, pushed = taken
        return tol < moved <= 0.1 * reach and stiff >= mu * (dx @ pushed)

    def chord(taken):
        # the residual's part off the step's linear model (mu M dx, Phi = 0)
        _, _, _, f1, c1, _, _, _, pushed = taken
        return np.hypot(np.linalg.norm(f1 - mu * pushed), np.linalg.norm(c1))

    def spent():
        return straight.newton_iterations + solved.newton_iterations + unsolved[0]
    while spent() < 10 * max_iter:
        stepper, taken = straight, step(straight)
        if taken is not None and near(taken) and chord(taken) > r and spent() < 10 * max_iter:
            # the straight step's residual is its chord's error, not its progress: the step
            # solved instead, where that is a step near the end too
            again = step(solved)
            if again is not None and near(again):
                stepper, taken = solved, again
        if taken is None:
            mu *= 10.0
            continue
        x1, lam1, r1, f1, c1, dx, moved, stiff, pushed = taken
        if moved > reach:
            # beyond the step's reach: a step of mu M alone scales as 1 / mu
            mu *= 1.5 * moved / reach
            continue
        if moved > tol and stiff <= 0.0:
            # uphill: dx^T (K + mu M) dx <= 0
            mu *= 10.0
            continue
        # the curvature along the step, dx^T K dx / dx^T M dx (1/s^2), of the matrix it solved
        kappa = stiff / (dx @ pushed) - mu if moved > tol else 0.0
        ratio = r1 / r if r else 0.0
        if not r1 or (mu <= floor and (moved <= tol or _within(
                _off_neutral(stepper, x, lam, dx, mu, problem), tol))):
            return x1, lam1
        x, lam, r, f, c = x1, lam1, r1, f1, c1
        if kappa < 0.0:
            # falling off a maximum or a saddle, where the residual rises as it should: mu
            # at 2 |kappa| doubles the distance from it a step (no faster than tenfold down)
            mu = max(-2.0 * kappa, 0.1 * mu, floor)
            continue
        if moved > 0.1 * reach:
            # still on its way: longer steps while the residual falls (its ratio says little
            # of the distance left: a swing's residual falls as the cosine of its angle)
            mu = mu * 0.5 if ratio < 1.0 and moved < 0.5 * reach else mu
            continue
        # a residual at its round-off rises as readily as it falls: mu falls on there
        mu = (max(mu * 0.1, floor) if ratio <= 1.0 or moved <= tol
              else mu * np.sqrt(ratio))
    return None


def _damped_equilibrium(stepper, problem, q, lam, residual, mass_times, mass_solve, size, tol,
                        max_iter, made, accepted):
    """How the equilibrium at the load factor set was reached from ``(q, lambda)`` by
    :func:`_damped_newton` on ``problem``, then Newton's load step from there on ``stepper``:
    ``"isolated"`` where that step converged (the loop's own test), ``"family"`` where it
    failed (its matrix singular: a neutral direction, a spin about the vertical), the damped
    steps' end kept, which they certified off the neutral directions to ``tol``
    (:func:`_off_neutral`); the stepper then at it at rest and ``accepted(q)`` called there.
    Newton's verdict is provisional: where the stability test runs, it decides a family by
    the stiffness (:func:`_neutral_mode`). False, the stepper untouched, where
    the damped steps reach nothing (no equilibrium: a free body under gravity, a torque that
    nothing resists). ``residual(q, lam)``: the static residual's norm; ``mass_times(q,
    dq)``: ``M(q) dq`` (:func:`_damped_newton`'s linear model and curvature); ``mass_solve(q,
    lam)``: an acceleration scale (m/s^2) of the loads, ``|M^-1 Q|_max`` there (Q the
    applied loads at the load factor set) or gravity's: not of the residual, which is zero
    where the start is an equilibrium already (the end of an escape, :func:`_tree_in_dae`);
    ``size`` (m); ``made`` the solve's loops."""
    try:
        end = _damped_newton(problem, q, lam, residual, mass_times, mass_solve(q, lam), size,
                             tol, max_iter, made)
    except USER_FUNCTION_ERRORS:
        raise
    except (ArithmeticError, RuntimeError, ValueError):
        end = None
    if end is None:
        return False
    if _solve_from(stepper, end[0], end[1], accepted):
        return "isolated"
    # singular at the end too: a neutral direction; the end certified off it
    stepper.start_at_rest(0.0, end[0], end[1])
    accepted(end[0])
    return "family"


def _settle_mechanism(stepper, set_load_factor, damped, made, loads):
    """The load steps' result ``loads`` (:func:`step_loads`' tuple) where they failed, not
    on an input function's error: ``damped(q, lam)`` (:func:`_damped_equilibrium`, its
    other arguments bound, ``made`` the solve's loops, which it joins) at load factor 1
    from the last equilibrium; where it reaches one, the tuple says ``"ok"``, load factor 1,
    the damped steps' and the last Newton step's iterations as one more load step's, and
    the message what happened: where the load steps stopped and that the damped steps
    reached the equilibrium at load factor 1 from there, at the full load, not along the
    load path (:func:`_family_noted` adds, at the end of the solve, whether the result is one
    of a family of equilibria); else ``loads`` with its message saying that the damped steps
    were tried and reached none (a model with no equilibrium, or one they stalled short of:
    the two are not told apart), the load factor back at the last equilibrium. Where an
    input function fails in the damped steps
    (:data:`~rancf.utilities.errors.USER_FUNCTION_ERRORS`): ``"failed"`` at once, the message
    naming it, ``error`` that exception, the result the last equilibrium (the load factor
    and the stepper back there), as the load steps' own contract
    (tests/test_static_input_functions.py).

    Why after any failure, not a mechanism's alone: the failures a mechanism that only its
    loads hold gives (a Newton matrix singular at the start, Newton diverging along a motion
    without stiffness) are not told reliably from a path's others (a load step out of
    Newton's reach, max_iter too small) by what the loop reports; every model the plain load
    steps solve is solved as before, with the same iterations, and the damped steps end at a
    true equilibrium (the static residual's, to the loop's tolerance off the directions in
    which it is one of a family: :func:`_off_neutral`; then a plain Newton step, which ends
    the solve where it converges). The message does not call the model a mechanism, which
    nothing here established; it says that the path was left, since where a model has
    several equilibria (a truss past its limit load) the damped steps at the full load can
    reach another than the load path would."""
    status, message, error, reached, iterations, reason, steps = loads
    if status != "failed" or error is not None:
        return loads
    last = stepper.state()
    set_load_factor(1.0)
    tried = stepper.newton_iterations
    known = len(made)
    stopped = (f"the load steps stopped at load factor {reached:.4g} (Newton failed on "
               f"{steps['stopped']}" + (": its matrix singular at the last equilibrium"
                                        if reason == "singular" else "") + ")")
    try:
        found = damped(last[1], last[4])
    except USER_FUNCTION_ERRORS as exc:
        set_load_factor(reached)
        stepper.start_at_rest(last[0], last[1], last[4])
        return "failed", (f"{stopped}; the damped Newton steps (K + mu M) from there stopped: "
                          f"{exc}; the result is the equilibrium at load factor "
                          f"{reached:.4g}"), exc, reached, iterations, reason, steps
    spent = sum(s.newton_iterations for s in made[known:]) + stepper.newton_iterations - tried
    if not found:
        set_load_factor(reached)
        stepper.start_at_rest(last[0], last[1], last[4])
        none = (f"the damped Newton steps (K + mu M) tried at the full load from there "
                f"reached no static equilibrium either ({spent} iterations: where the model "
                "has one, they stalled short of it)")
        return (status, f"{message}; {none}" if message else none, error, reached,
                iterations, reason, steps)
    settled = (f"{stopped}; the equilibrium at load factor 1 was reached from there by "
               f"{spent} damped Newton iterations (K + mu M) at the full load, not along the "
               "load path (where the model has several equilibria, more load steps or "
               "iterations may reach another)")
    steps = {**steps, "factors": steps["factors"] + [1.0]}
    return "ok", settled, None, 1.0, iterations + [spent], reason, steps


def _recording(family, damped):
    """``damped`` (:func:`_damped_equilibrium`, its other arguments bound) that also sets
    ``family[0]`` to its verdict (``"family"`` or ``"isolated"``) where it reached an
    equilibrium: that the damped steps reached the result, which the stability test then
    decides by its stiffness (:func:`_leave_unstable_equilibrium`), and what
    :func:`_family_noted` reports where that test did not run."""
    def recorded(q, lam):
        found = damped(q, lam)
        if found:
            family[0] = found
        return found
    return recorded


def _landing(stepper, accepted, damped, family):
    """The ``solve_from(q, lam)`` of :func:`_leave_unstable_equilibrium` (the landing of an
    escape): Newton's load step from there (:func:`_solve_from`, ``accepted`` at its end;
    ``family[0]`` None: not the damped steps'), or where it fails ``damped(q, lam)``
    (:func:`_recording`'s, which sets ``family[0]``); True where either reached one."""
    def land(q, lam):
        if _solve_from(stepper, q, lam, accepted):
            family[0] = None
            return True
        return bool(damped(q, lam))
    return land


def _family_noted(status, message, family):
    """``message`` of a static solve that ends ``status``, with the note that its result is
    one of a family of equilibria where ``family[0]`` is ``"family"`` and the solve is "ok":
    the damped steps reached it last, and its stiffness on the motions the joints allow has
    a zero mode within its resolution (:func:`_neutral_mode`, set by the stability test of
    :func:`_leave_unstable_equilibrium`; where that test did not run, a model of more than
    :data:`STABILITY_ROWS` rows, loads that are not conservative, Newton's last step failed
    there, :func:`_damped_equilibrium`'s verdict): a motion that no stiffness resists and no
    load drives (a spin about the vertical on a ball joint, a coupler's about the line of its
    two ball joints), a neutral direction, not an instability. At the end, so that it
    speaks of the result, not of an equilibrium left on the way (a body standing upright on
    a ball joint is such a family too, and unstable)."""
    if status != "ok" or family[0] != "family":
        return message
    note = ("the result is one of a family of equilibria (a motion no stiffness resists and "
            "no load drives, a spin about the vertical or about the line of two ball joints: "
            "a zero mode of its stiffness on the motions the joints allow), a neutral "
            "direction, not an instability (rancf.modes lists it as a rigid-body mode)")
    return f"{message}; {note}" if message else note


def _work(iterations, steppers, steps):
    """The ``stats`` of a static solve: ``steps`` the converged load steps (``iterations``,
    their Newton iterations), ``load_step_cuts`` the halvings of a load step's increment
    where Newton failed on it (``steps["cuts"]`` of :func:`step_loads`; their failed tries'
    iterations are among the work below), and ``newton_iterations``, ``njev``, ``nlu`` every Newton
    iteration and factorization of the solve, the counters of the loops it ran
    (``steppers``): the load steps', a failed one's, a first try's that failed, and each
    step of :func:`_pseudo_transient_first_step` (one Newton iteration a step, a refused one
    too where its matrix was factored) with the continuations of the fold escape. The work,
    not the converged steps' share of it (``extra["iterations"]``), as a run's stats."""
    return {"steps": len(iterations), "load_step_cuts": steps["cuts"],
            **{k: int(sum(getattr(s, k) for s in steppers))
               for k in ("newton_iterations", "njev", "nlu")}}


#: How many times a load step's increment may be halved after Newton fails on it: down to
#: ``1 / 2**CUTS`` of the nominal increment ``1 / load_steps`` (1/64), then the solve stops.
CUTS = 6


def _load_steps_extra(reached, iterations, steps, load_steps):
    """The ``extra`` of a static solve's load steps: ``load_factor`` (1,) the load factor
    reached; ``iterations`` and ``load_factors`` (1, k): each converged load step's Newton
    iterations and load factor (``steps["factors"]`` of :func:`step_loads`), zero-padded to
    k = load_steps where fewer converged (k the converged count where cut steps made more)."""
    k = max(load_steps, len(iterations))
    pad = [0] * (k - len(iterations))
    return {"load_factor": np.array([reached]), "iterations": np.array([iterations + pad]),
            "load_factors": np.array([steps["factors"] + [0.0] * (k - len(steps["factors"]))])}


def step_loads(stepper, set_load_factor, load_steps, accepted=None, diagnose=None):
    """The load steps of a static solve, with the load factor's increment cut where Newton
    fails: the load factor s set by ``set_load_factor(s)``, then one step of the stepper
    (Newton from the last equilibrium), until s = 1, the first step that fails at the smallest
    increment, or a Ctrl-C; ``accepted(q)``, where given, after each converged step with its
    equilibrium's coordinates q (what follows the load steps from one to the next: the cable
    frames, the input functions' values there); an input function's error in it (where it
    evaluates them at the equilibrium) fails the step as one in the step would, the stepper
    back at the last equilibrium. ``diagnose(state)``, where given, where the solve stops on
    a failed step (not an input function's error), with the last equilibrium's ``state()``
    (the failed step's load factor set): a sentence saying why no load step helped
    (:func:`free_motion_under_load`), the message's reason in place of Newton's and its
    advice, or None. Called only then, not before each cut: a free motion at the drawn
    configuration can be stiffened by the first load step's stress (a beam hanging from a
    pin, pushed sideways: its tension), which the cut steps reach.

    The increment is nominally ``1 / load_steps``. Where Newton fails on a step (no
    convergence, a divergence, a non-finite force, or a state the problem refuses at its
    accept, ``ArithmeticError``: an element turned by half a turn, a held angle or a clamped
    cable's slope turned over) the increment is halved and the step tried again from the
    last equilibrium (the stepper restarted there at rest), down to ``1 / (2**CUTS
    load_steps)``; after each converged step it is doubled again, up to the nominal one, and
    never carried past the next nominal factor ``k / load_steps`` (each is an equilibrium
    reached). The factors lie on the grid
    ``j / (2**CUTS load_steps)`` (exact fractions), so a solve that needs no cut takes exactly
    the steps ``s = k / load_steps``. Not cut: a failure whose reason is ``"singular"`` (the
    Newton matrix singular at the last equilibrium itself, whatever the increment), and an
    input function's own error, that it raised
    (:class:`~rancf.utilities.errors.UserFunctionError`) or returned what is not a value
    (:class:`~rancf.utilities.errors.ReturnedValueError`): the user's to fix, which no
    smaller increment helps, and a retry would call the function again; the solve stops at
    once, "failed", the message naming the function and its error. A refused state at the
    smallest increment fails as Newton's failure does, its message the refusal's, no
    ``error``: Newton's reach, not the user's function, so that the damped steps after the
    load steps (:func:`_settle_mechanism`) try from the last equilibrium (a cable with a
    body clamped at its tip: tests/test_static_dae_mechanisms.py).

    Why: Newton converges from close enough only; a soft beam's large deflection is out of
    reach of the nominal increment where it is at its largest (a cantilever's first steps,
    before the stiffening of its turned shape), and the user of Abaqus, Chrono or Exudyn
    expects the solver, not them, to find the increments there.

    Returns
    -------
    status : {"ok", "failed", "interrupted"}
    message : str
        What failed, at which load step and factor, the smallest increment tried, and which
        equilibrium the result holds; for an "ok" solve that cut its steps, how often ("" if
        none).
    error : Exception or None
        What an input function raised (or the ReturnedValueError of what it returned), for the
        Result.
    reached : float
        The load factor of the last equilibrium (0: none).
    iterations : list of int
        Newton's iterations of each converged load step.
    reason : {None, "singular"}
        The failed step's :attr:`~rancf.formulations.problem.StepFailure.reason`
        (``"singular"``: its Newton matrix was singular at the last equilibrium itself).
    steps : dict
        ``factors``: the load factor of each converged step (list of float); ``cuts``: the
        number of halvings (failed tries); ``smallest``: the smallest increment tried;
        ``stopped``: where a failed solve stopped (``"load step k of n (load factor s)"``,
        with the increment where cut), or None.
    """
    status, message, error, reached, iterations, reason = "ok", "", None, 0.0, [], None
    stopped = None
    grid = 2**CUTS * load_steps                 # the factors are j / grid
    nominal = 2**CUTS
    at, size = 0, nominal                       # the last equilibrium's j, the increment's
    factors, cuts, smallest = [], 0, nominal
    last = stepper.state()                      # the last equilibrium, to retry from
    base, s, tried = stepper.steps, 0.0, stepper.newton_iterations
    try:
        while at < grid:
            # not past the next nominal factor: each k / load_steps is an equilibrium reached
            size = min(size, nominal - at % nominal)
            s = (at + size) / grid
            set_load_factor(s)
            smallest = min(smallest, size)
            tried = stepper.newton_iterations
            try:
                iterations.append(stepper.advance())
                if accepted is not None:
                    try:
                        accepted(stepper.state()[1])
                    except USER_FUNCTION_ERRORS:
                        # an input function failed at the step's equilibrium (its values kept
                        # there): the step did not reach it, the stepper back at the last one
                        iterations.pop()
                        stepper.start_at_rest(last[0], last[1], last[4])
                        raise
            except (StepFailure, ArithmeticError, ValueError, RuntimeError) as exc:
                failure = isinstance(exc, StepFailure)
                user = isinstance(exc, USER_FUNCTION_ERRORS)
                # an input function's own error (it raised, or returned no value) is the
                # user's to fix, not Newton's reach; a matrix singular at the last
                # equilibrium is so at every increment
                if (size > 1 and not user
                        and not (failure and exc.reason == "singular")):
                    size //= 2
                    cuts += 1
                    stepper.start_at_rest(last[0], last[1], last[4])
                    continue
                # the solve stops: a free motion under load says why no increment helped
                why = None if diagnose is None or user else diagnose(last)
                step = -(-(at + size) // nominal)               # the nominal step it is in
                where = f"load step {step} of {load_steps} (load factor {s:.4g})"
                if size < nominal:
                    where += (f", its increment cut to {size / grid:.4g} ({size}/{nominal} of "
                              f"the nominal {1 / load_steps:.4g}), the smallest tried")
                if why is not None:
                    status, reason, what, advice = "failed", getattr(exc, "reason", None), why, ""
                elif failure:
                    status, reason = "failed", exc.reason
                    what = exc.message
                    # the loop's message says what to change, except for a divergence it only
                    # detected; a cut step's failure, that smaller increments did not help
                    advice = ("; raise load_steps or max_iter" if size < nominal else
                              "; raise load_steps" if exc.status == "diverged" else "")
                elif isinstance(exc, ArithmeticError) and not user:
                    # the problem refused the state Newton reached (a spatial element turned
                    # by half a turn, a held angle or a clamped cable's slope turned over):
                    # Newton's reach, as a failure to converge (the damped steps try after)
                    status, what, advice = "failed", str(exc), ""
                else:
                    # an input function raised (or returned no number) at Newton's iterate,
                    # or the problem raised another error than a refusal: stop, as the
                    # implicit loop does, with the equilibrium reached so far
                    status, error, what, advice = "failed", exc, str(exc), ""
                message = (f"{where}: {what}; the result is the equilibrium at load factor "
                           f"{reached:.4g}{advice}")
                stopped = where
                break
            at += size
            reached = s
            factors.append(s)
            size = min(2 * size, nominal)
            last = stepper.state()
    except KeyboardInterrupt:
        # Ctrl-C inside a load step leaves the stepper at the last equilibrium; one that arrives
        # as a step returns finds it accepted, its iterations and factor not yet recorded: the
        # stepper's count says whether it got there
        if stepper.steps - base > len(factors):
            if len(iterations) < stepper.steps - base:
                iterations.append(stepper.newton_iterations - tried)
            reached = s
            factors.append(s)
        status = "interrupted"
        message = (f"interrupted (Ctrl-C) in the load step after load factor {reached:.4g} "
                   f"({load_steps} nominal load steps); the result is the equilibrium at load "
                   f"factor {reached:.4g}")
    if status == "ok" and cuts:
        message = (f"{load_steps} nominal load steps, {len(factors)} taken: increments "
                   f"halved {cuts} times where Newton failed, the smallest {smallest / grid:.4g}")
    return status, message, error, reached, iterations, reason, {
        "factors": factors, "cuts": cuts, "smallest": smallest / grid, "stopped": stopped}


def _after_loads(status, message, caught):
    """``(status, message)`` of a static solve whose equilibrium was mapped to the outputs
    under ``caught`` (:func:`~rancf.integrators.held_interrupt.held_interrupt`): the mapping
    evaluates the loads and efforts again (user functions, where a Ctrl-C lands as readily as
    in the load steps), and a Ctrl-C there would lose the equilibrium found; an "ok" solve
    that it reached becomes "interrupted", with its whole equilibrium."""
    if caught and status == "ok":
        return "interrupted", ("interrupted (Ctrl-C) after the last load step, while the "
                               "outputs were prepared: the equilibrium is complete (load "
                               "factor 1)")
    return status, message


def _least_squares_multipliers(dae, x, s):
    """The multipliers (m,) that best balance the loads at load factor s at x:
    ``lambda = (Phi_x Phi_x^T)^-1 Phi_x (s Q - F_K)``, Newton's start. With zero multipliers a
    model whose stiffness at x comes from its joint forces alone (a rigid body hanging from a
    pin: no elastic stiffness about the pin, only the weight's geometric stiffness through
    lambda) has a singular first Newton matrix though x is its equilibrium."""
    if not dae.n_constraints:
        return np.zeros(0)
    dae.kernel.set_load_factor(s)
    J = dae.constraint_jacobian(x, 0.0)
    return dae.gram_solver(J)(J @ dae.force(x, np.zeros_like(x), 0.0))


#: The most coordinates for which a failed load step's model is tested for a free motion under
#: load (:func:`free_motion_under_load`): its dense null space and reduced stiffness cost
#: O(n^3), on the failure path only, and this bound keeps that below a second.
FREE_MOTION_COORDINATES = 1000


def _joint_rates(dae, x, w):
    """The rate (n_joints,) of each joint of the model of ``dae`` along the motion w (n,) from
    x: planar, its coordinate's ``|qd|``; spatial, the norm of its coordinates' rates
    (:meth:`~rancf.formulations.spatial_dae.SpatialDAE.joint_coordinates`), zero for a joint
    that holds nothing (no constraint row: a free joint, which any motion moves)."""
    if not isinstance(dae, SpatialDAE):
        _, rates = dae.compiled.joints(np.ascontiguousarray(x), w, 0.0)
        return np.abs(np.asarray(rates, dtype=float))
    _, jqd = dae.joint_coordinates(x, w)
    start, n = dae._jq_start, len(dae.tree.joint_body)
    links = dae.joint_links[:n]
    return np.array([np.linalg.norm(jqd[start[j]:start[j + 1]])
                     if dae.link_rows[k].stop > dae.link_rows[k].start else 0.0
                     for j, k in enumerate(links)])


def free_motion_under_load(dae, x, lam, kinds=None):
    """What is wrong with a model whose load step failed from the equilibrium ``(x, lambda)``
    of its DAE ``dae``, planar (:class:`~rancf.formulations.dae.DAE`) or spatial
    (:class:`~rancf.formulations.spatial_dae.SpatialDAE`; ``kinds``, its model's joints'
    kinds, which it does not hold) (the load factor of the failed step set), where it is a
    mechanism whose free motion the loads drive: a sentence saying so, naming the joints that
    move and what to do; None where it is not (then Newton's reach may be the cause, and a
    smaller load step may help), or where the model has more than
    :data:`FREE_MOTION_COORDINATES` coordinates or :data:`STABILITY_ROWS` constraint rows.

    The test: the reduced stiffness ``Z^T K Z`` (K Newton's stiffness ``K + d(Phi_x^T
    lambda)/dx``, symmetrized; Z an orthonormal basis of the motions the joints allow, the
    null space of ``Phi_x``) has eigenvalues within ``1e-9 max(|K|_inf, (|Z^T F| +
    |lambda|_inf) / size)`` of zero (round-off: a motion nothing resists to first order, a
    joint coordinate neither held, driven nor sprung; the second scale, the stiffness the
    loads and reactions give through the geometry, N/m, is the one of a model of rigid
    bodies, whose K holds the multipliers' term alone), and the generalized force of the
    step's loads along one such motion w, ``w^T Z^T F(x)`` (F the applied less the elastic
    forces at the step's load factor), is above ``1e-6 |Z^T F|``. Then Newton's first
    increment along w is the force over a zero stiffness, unbounded at every load
    increment: more load steps or iterations help only where the iterates happen to wander
    onto a far equilibrium (a beam drawn horizontal on a free pin under gravity, whose
    equilibrium at every load factor above 0 hangs a quarter turn away; a body on a pin
    pushed sideways). Asked where the load steps stopped, after their cuts
    (:func:`step_loads`): a free motion that the first steps' stress stiffens (a beam
    hanging from a pin pushed sideways, by its tension) is reached by the cut steps and
    never asked about. The joints named are those whose coordinate rate along w is
    above a tenth of the largest (:func:`_joint_rates`; a spatial joint that holds nothing,
    a free joint, is not named)."""
    n, m = dae.n_coordinates, lam.size
    if n > FREE_MOTION_COORDINATES or m > STABILITY_ROWS or not np.all(np.isfinite(lam)):
        return None
    try:
        K, J, bound, _ = _stiffness(dae, x, lam)
        f = dae.force(x, np.zeros(n), 0.0)
    except (ArithmeticError, ValueError, RuntimeError):
        return None
    Z = scipy.linalg.null_space(J.toarray()) if m else np.eye(n)
    if not Z.shape[1] or not np.all(np.isfinite(f)):
        return None
    mu, W = np.linalg.eigh(Z.T @ (K @ Z))
    fr = Z.T @ f
    # round-off of K's entries, of the multipliers' term among them where K holds no other
    free = np.abs(mu) <= 1e-9 * max(bound, (np.linalg.norm(fr) + np.abs(lam).max(initial=0.0))
                                    / _size(dae))
    # driven: the load's share along a free motion above 1e-6 of its norm in the free space.
    # Relative to |Z^T F| so that the units of the load cancel; 1e-6 lies far above the share
    # round-off gives a stiff direction (eigh's vectors tilt by about eps ||K|| / gap, 1e-16
    # times a conditioning up to 1e10) and far below what a load along the free motion gives
    # (a share of order one of its norm)
    driven = free & (np.abs(W.T @ fr) > 1e-6 * np.linalg.norm(fr))
    if not driven.any():
        return None
    w = Z @ W[:, np.argmax(np.where(driven, np.abs(W.T @ fr), 0.0))]
    try:
        rates = _joint_rates(dae, x, w)
    except (ArithmeticError, ValueError, RuntimeError):     # an effort function: no name
        rates = np.zeros(0)
    if kinds is None:
        kinds = [j.kind for j in dae.assembly.joints]
    # named: the joints moving at a tenth of the fastest or more (relative, so units cancel).
    # Along a free motion every joint of a chain beyond the free one moves too, at rates the
    # geometry sets; a tenth keeps the ones that carry the motion and leaves out those it
    # drags a little, so the message names the joint to hold, not the whole chain
    moving = list(np.flatnonzero(rates > 0.1 * rates.max())) if rates.size and rates.max() \
        else []
    if len(moving) == 1:
        verb = {"revolute": "turns", "prismatic": "slides"}.get(kinds[moving[0]], "moves")
        what = f"joint {moving[0]} ({kinds[moving[0]]}) {verb} freely"
    elif moving:
        what = f"joints {', '.join(f'{k} ({kinds[k]})' for k in moving)} move freely"
    else:
        what = "a motion no joint holds is free"
    return (f"the model is a mechanism: {what} (no stiffness, spring, drive or effort holds "
            "it) under loads that drive it: Newton's first increment along that motion is "
            "unbounded at any load step, so more load steps help only by chance (where its "
            "iterates wander onto a far equilibrium); add a spring-damper "
            "(add_rotational_spring_damper) or a drive to the joint, make it a fixed joint, "
            "draw the model in its equilibrium, or find where it comes to rest with "
            "rancf.simulate and damping")
