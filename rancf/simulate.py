"""``rancf.simulate`` and ``rancf.static``: a model's formulation and method chosen, its start
made (:mod:`rancf.starts`), its integrator run, its Solution made a :class:`rancf.Result`
(:func:`rancf.results.result_of`)."""
import contextlib
import math
from dataclasses import replace

import numpy as np

from .utilities import checks
from .elements import beam as beam_element
from .elements import rigid as rigid_element
from .elements.ancf_cable import SpatialANCFCable
from .elements.spatial_beam import SpatialBeam
from .formulations import recursive, spatial
from .formulations._spatial_dae import POSE_SIZE
from .formulations.dae import DAE, state_branch
from .formulations.problem import projection_kind
from .formulations.spatial_dae import SpatialDAE, one_blas_thread
from .formulations.reduced import ReducedModel, Timer, TimedDAE, initial_state
from .formulations.reduced.drift import drift_checked
from .integrators import explicit
from .integrators import static as statics
from .integrators.explicit import SCHEMES, SCIPY_METHODS
from .integrators.implicit import METHODS as IMPLICIT_METHODS
from .integrators.implicit import integrate
from .joints._codes import P_NODE
from .utilities.memory import available_memory
from .model.model import Model
from .model.spatial_items import SpatialCable
from .model.state import State
from .integrators.progress import check as check_progress
from .results import result_of
from .starts import STARTS, spatial_dae_start, spatial_start, static_start

try:
    from threadpoolctl import threadpool_limits
except ImportError:  # optional: without it BLAS keeps its default thread count
    threadpool_limits = None

FORMULATIONS = ("auto", "recursive", "dae")


def output_times(t_end, dt, output_every):
    """Output times (s): ``k dt`` at the step numbers ``k = 0, output_every, 2 output_every,
    ...`` (from the integers, as the implicit loop times its steps), and ``t_end`` exactly
    last, also where ``k dt`` misses it by a rounding (0.7 s in 700 steps of 1 ms is
    0.7000000000000001): the explicit loop steps to these times, so every state is computed
    at the time it is labelled with."""
    step = dt * output_every
    n = int(np.floor(t_end / step + 1e-9))
    t = dt * (output_every * np.arange(n + 1))
    if t[-1] < t_end - 1e-9 * step:
        t = np.append(t, t_end)
    else:
        t[-1] = t_end
    return t


def most_outputs(t_end, dt, output_every):
    """The outputs a run keeps at the most, for its memory check: :func:`output_times` gives as
    many, or one fewer where t_end falls on an output time."""
    return int(np.floor(t_end / (dt * output_every) + 1e-9)) + 2


def _methods():
    """The names ``method`` takes: "auto", the explicit schemes, SciPy's (``"scipy:..."``)
    and the implicit methods."""
    return ["auto"] + sorted(SCHEMES) + [f"scipy:{m}" for m in SCIPY_METHODS] + \
        sorted(IMPLICIT_METHODS)


def check_memory(n_out, per_output, max_memory, workspace=0.0, what="",
                 advice="raise output_every, shorten t_end, use fewer elements, or pass "
                        "max_memory (bytes) to allow more"):
    """Refuse a run that would not fit in ``max_memory`` bytes (default: the available memory):
    its outputs (``n_out`` of ``per_output`` doubles each, kept twice while the Result is built)
    and ``workspace`` bytes of ``what`` (the state, workspaces and factorizations:
    :func:`workspace_memory`); the MemoryError gives the estimate and ``advice``."""
    outputs = 2.0 * 8.0 * n_out * per_output
    need = outputs + workspace
    if max_memory is None:
        limit, have = available_memory(), "only {:.3g} GiB are available"
    else:
        limit, have = checks.positive("max_memory", max_memory), "max_memory allows {:.3g} GiB"
    if need > limit:
        rest = f" and {what} about {workspace / 2**30:.3g} GiB" if workspace else ""
        raise MemoryError(
            f"this run needs about {need / 2**30:.3g} GiB: the outputs of this run need about "
            f"{outputs / 2**30:.3g} GiB ({n_out:,} outputs of {per_output:,} numbers, twice "
            f"while the Result is built){rest}; {have.format(limit / 2**30)}: {advice}")


#: Doubles per coordinate of a run's state and workspaces, by what runs: the assembly (its
#: arrays and mass matrix); the recursive formulation with an explicit method (kernel, tables,
#: stages); the implicit recursive formulation (its kernels and the recursive one's); the DAE
#: with its sparse Newton matrix and SuperLU factors (a chain's banded fill; statics alike); the
#: spatial DAE, 7 coordinates a body, with its tree, its scipy.sparse matrices and SuperLU
#: factors. Per squared coordinate: the dense DAE's matrix and LU, SciPy's implicit solvers'
#: Jacobians and LU. Each is the peak a run allocates on long chains (tracemalloc, and the
#: resident size where SuperLU allocates outside it) with a margin of 10 to 25 %, so that the
#: estimate bounds the run; tests/test_memory.py checks it against tracemalloc's peak.
PER_COORDINATE = {"assembly": 40, "recursive": 140, "implicit recursive": 300, "dae": 380,
                  "spatial dae": 650, "spatial recursive": 240, "spatial implicit": 400}
#: Coordinates of a body in the spatial DAE: its origin and Euler parameters.
SPATIAL_DAE_COORDINATES = POSE_SIZE
#: Coordinates of a body or a cable node in the spatial recursion (6 a link; a cable node's
#: ``[r, r']``). "spatial recursive" and "spatial implicit" in :data:`PER_COORDINATE` bound the
#: peaks of a beam and of a cable, the dearer, with their build, with a margin of about 25 %:
#: the implicit methods' and statics' problems also hold the recursion's tangent workspaces and
#: GMRES's basis.
SPATIAL_COORDINATES = 6
PER_SQUARED_COORDINATE = {"dense": 1.5, "scipy:Radau": 30, "scipy:BDF": 22, "scipy:LSODA": 5}


def coordinates(model):
    """An upper bound of ``model``'s coordinates and joints, read from its items without building
    it (the build itself allocates tens of numbers per coordinate)."""
    n_x = (beam_element.PlanarANCFBeam.node_size * sum(b.n_nodes for b in model.beams)
           + rigid_element.RigidBody.node_size * len(model.rigid_bodies))
    return n_x, len(model.joints)


def workspace_memory(n_x, method, formulation, linear_solver="sparse"):
    """Bytes of a run's state, workspaces and factorizations (:data:`PER_COORDINATE`) for
    ``n_x`` coordinates: O(n) but for the dense DAE and SciPy's implicit solvers (O(n^2)).
    ``formulation`` "auto" counts the larger of those it may choose."""
    if method in SCHEMES or method in ("scipy:RK45", "scipy:DOP853"):
        forms = ["recursive"]
    elif isinstance(method, str) and method.startswith("scipy:"):
        forms = [method]
    elif formulation == "auto":
        forms = ["implicit recursive", "dae"]
    else:
        forms = ["implicit recursive" if formulation == "recursive" else "dae"]
    per = 0.0
    for form in forms:
        linear = PER_COORDINATE.get(form, PER_COORDINATE["recursive"]) * n_x
        if form == "dae" and linear_solver == "dense":
            linear += PER_SQUARED_COORDINATE["dense"] * float(n_x) ** 2
        elif form.startswith("scipy:"):
            linear += PER_SQUARED_COORDINATE[form] * float(n_x) ** 2
        per = max(per, linear)
    return 8.0 * (PER_COORDINATE["assembly"] * n_x + per)


def spatial_workspace_memory(n_nodes, method, dae):
    """Bytes of a spatial run's state, workspaces and factorizations
    (:data:`PER_COORDINATE`) for ``n_nodes`` bodies and cable nodes: on the spatial DAE
    (``dae``) or the recursion, by ``method`` (an explicit method; any other, statics'
    ``"newton"`` included, counts as implicit); SciPy's implicit solvers add their dense
    Jacobians and LU (:data:`PER_SQUARED_COORDINATE`), O(n^2)."""
    if dae:
        return 8.0 * PER_COORDINATE["spatial dae"] * SPATIAL_DAE_COORDINATES * n_nodes
    n = SPATIAL_COORDINATES * float(n_nodes)
    explicit = method in SCHEMES or (isinstance(method, str) and method.startswith("scipy:"))
    per = PER_COORDINATE["spatial recursive" if explicit else "spatial implicit"] * n
    return 8.0 * (per + PER_SQUARED_COORDINATE.get(method, 0.0) * n * n)


def spatial_size(model):
    """A spatial model's bodies and cable nodes (a node of a beam is a body) and its joints'
    coordinates, read from its items without building it."""
    return (sum(b.n_nodes for b in model.beams) + len(model.rigid_bodies),
            sum(j.type.spatial.n_coordinates for j in model.joints))


def spatial_loop_likely(model):
    """True when the spatial model has more joints than items, so that a joint closes a loop
    (a tree joins every item by one joint) and it runs the spatial DAE; read from its items."""
    return len(model.joints) > len(model.beams) + len(model.rigid_bodies)


def spatial_dae_likely(model):
    """True when the spatial model runs the spatial DAE under ``formulation="auto"``, read
    from its items without building it: a closed loop (:func:`spatial_loop_likely`), or a
    joint at a cable point the recursion cannot run (the cases of
    :func:`rancf.formulations.spatial.cable_layout` that leave the joint count alone, on the
    joints' points as written: a joint between two points of one cable, a body clamped to a
    cable point, a cable held by no joint or by more than one; a cable is held by each joint
    whose child is one of its points)."""
    if spatial_loop_likely(model):
        return True
    cables = {b.index: 0 for b in model.beams if isinstance(b, SpatialCable)}
    if not cables:
        return False
    on_cable = lambda point: point.kind == P_NODE and point.item.index in cables
    for j in model.joints:
        parent, child = on_cable(j.parent), on_cable(j.child)
        if parent and child and j.parent.item is j.child.item:
            return True
        if child:
            cables[j.child.item.index] += 1
        elif parent and j.kind == "fixed":
            return True
    return any(held != 1 for held in cables.values())


def ode_method(method):
    """What an explicit or SciPy ``method`` is, for a message refusing it a formulation: SciPy's
    "Radau" and "BDF" are implicit, but they, like every ``"scipy:..."`` method, integrate the
    recursive formulation's ODE (solve_ivp), not the DAE."""
    if isinstance(method, str) and method.startswith("scipy:"):
        return (f"method {method!r} is SciPy's solve_ivp on an ODE and runs the recursive "
                "formulation")
    return f"method {method!r} is explicit and runs the recursive formulation"


#: The implicit methods that ``formulation="auto"`` runs on the recursion for every planar tree
#: (rigid bodies, prismatic, fixed and driven joints included): why, :func:`choose_formulation`.
RECURSIVE_IMPLICIT = ("newmark", "hht", "generalized-alpha")


def choose_formulation(assembly, method, formulation):
    """The formulation ``"auto"`` stands for: recursive for trees, DAE otherwise (a closed loop,
    a beam jointed by its end). Under the implicit methods of :data:`RECURSIVE_IMPLICIT`
    (Newmark, HHT, generalized-alpha) every tree runs on the recursion; under generalized-alpha-S
    and backward Euler only a tree whose recursion's velocity map is constant (beams on
    revolute joints, no rigid body), the others on the DAE.

    The recursion's Newton matrix leaves the state dependence of its velocity map out (theory:
    Implicit RANCF), which may cost it Newton iterations but not accuracy (its residual is
    exact), and its factorization is O(n) on fewer coordinates. The choice per method is
    measured, by a rule fixed before the runs, on trees with rigid bodies and prismatic, fixed
    and driven joints (validation/auto_formulation.py): under Newmark, HHT and
    generalized-alpha the recursion was as accurate as the DAE, of the same order and faster
    on every one; under generalized-alpha-S it was less accurate on one, and backward Euler
    was not measured, so those keep the DAE there."""
    checks.choice("formulation", formulation, FORMULATIONS)
    explicit = method in SCHEMES or (isinstance(method, str) and method.startswith("scipy:"))
    if formulation == "dae" and explicit:
        raise ValueError(f"{ode_method(method)}; formulation 'dae' takes the implicit methods {sorted(IMPLICIT_METHODS)}")
    if formulation != "auto":
        return formulation
    if assembly.recursive_reason is not None:
        if explicit:
            raise ValueError(f"method {method!r} needs the recursive formulation, which cannot run "
                             f"this model ({assembly.recursive_reason}); use an implicit method "
                             f"{sorted(IMPLICIT_METHODS)}, which runs formulation 'dae'")
        return "dae"
    if explicit:
        return "recursive"
    if method in RECURSIVE_IMPLICIT:
        return "recursive"
    tables = recursive.tree_tables(assembly)
    return "recursive" if tables["constant"] and not len(assembly.bodies) else "dae"


def choose_method(model, dt, formulation="auto", x0=None, v0=None):
    """The method ``method="auto"`` stands for, and why (what :attr:`Result.method_reason` says).

    A planar tree that the recursive formulation runs gets ``"rk4"`` when ``dt`` is within
    RK4's stability limit at the initial state: the step at which the faster root of
    ``s^2 + d s + omega^2 = 0`` leaves RK4's stability region (``2 sqrt(2) / omega``
    undamped), omega the highest natural frequency (rad/s) and d the fastest decay rate of
    the damping (1/s: of elements and spring-dampers, :func:`damped`), both estimated at the
    initial state as the ``"rk4"`` check does (:func:`check_step`). Otherwise
    ``"generalized-alpha"`` (rho_inf = 0.9 by default,
    unconditionally stable): a step beyond that limit, a closed loop or another model the
    recursion cannot run, or ``formulation="dae"`` (which runs the implicit methods only).
    A spatial tree is chosen for the same way, with its formulation's estimates, but gets
    ``"generalized-alpha-s"`` beyond RK4's limit: both are second order where the mass matrix
    turns with the bodies (tests/test_spatial_simulate.py), and -S's Newton iterations also
    converge at a stiff spring at a beam's root that the step does not resolve, where
    generalized-alpha's fail (tests/test_spatial_ball_spring.py). A reduced
    model (:func:`rancf.reduce`) gets ``"backward-euler"``, the one it runs.

    Parameters
    ----------
    model : Model or ReducedModel
    dt : float
        The step (s), checked.
    formulation : {"auto", "recursive", "dae"}
        As :func:`simulate`.
    x0, v0 : ndarray (n_x,), optional
        The initial coordinates and velocities (default the reference configuration at rest
        but for the drives); spatial: the bodies' poses and velocities (:class:`State`).

    Returns
    -------
    method : str
    reason : str
        One sentence: the choice and the numbers it was made on.

    Raises
    ------
    ValueError
        The initial state does not satisfy the joints (planar trees).
    ArithmeticError
        The generalized mass matrix is singular at the initial state.

    Notes
    -----
    The frequency estimate is a lower bound (power iteration), so the limit it gives is an
    upper bound: a step just within it may still be slightly beyond the true limit, and the
    frequencies change with the motion (a rotating beam's bending stiffens). Such a run
    reports ``status == "diverged"``; name the method (``method="generalized-alpha"``) or take
    a shorter step.
    """
    if isinstance(model, ReducedModel):
        return "backward-euler", ("backward-euler (method 'auto'): the one method of a reduced "
                                  "model")
    implicit = "generalized-alpha"
    if model.dim == 3:
        tree = model.build()
        if formulation == "dae" or (formulation == "auto" and _needs_dae(tree)):
            return _spatial_dae_method(formulation)
        formulation_ = spatial.of_model(model)
        y0 = formulation_.initial_state() if x0 is None else formulation_.state_of(
            x0, np.zeros(SpatialBeam.node_size * tree.n_bodies
                         + SpatialANCFCable.node_size * tree.n_cable_nodes) if v0 is None else v0)
        return _spatial_method(formulation_, y0, dt)
    A = model.build()
    if formulation == "dae":
        return implicit, (f"{implicit} (method 'auto'): formulation 'dae' runs the implicit "
                          "methods")
    if A.recursive_reason is not None:
        return implicit, (f"{implicit} (method 'auto'): the recursive formulation, which RK4 "
                          f"needs, cannot run this model ({A.recursive_reason})")
    with recursive.checkout(A) as rec:
        y0 = rec.initial_state(x0, v0)
        omega = rec.highest_frequency(y0)
        decay = rec.highest_decay_rate(y0) if damped(A) else 0.0
    return _within_rk4_limit(dt, omega, decay)


def damped(A):
    """True if the planar assembly A has damping whose decay rate
    :meth:`~rancf.formulations.recursive.Recursive.highest_decay_rate` estimates: an element's
    Kelvin-Voigt damping, a spring-damper's c (between points or on a joint) or an effort
    function (of the joint rate, maybe). Then the explicit step's stability limit takes it into
    account: a damper's decay rate (c / I at a torsion spring-damper) may lie far beyond the
    natural frequencies. (The spatial counterpart: :attr:`rancf.formulations.spatial.
    Spatial.damped`.)"""
    return bool(A.element_damping.any() or A.spring_c.any() or A.torsion_c.any()
                or any(callable(j.effort) for j in A.joints))


def _needs_dae(tree):
    """True when a spatial tree runs the spatial DAE only: a closed loop, or a joint at a
    cable point that the recursion cannot run (:func:`rancf.formulations.spatial.
    cable_refusal`)."""
    return bool(len(tree.loop_joint) or spatial.cable_refusal(tree))


def _spatial_method(formulation, y0, dt):
    """What ``method="auto"`` runs on a spatial formulation from its state y0, and why."""
    omega = formulation.highest_rate(y0, "stiffness")
    decay = formulation.highest_rate(y0, "damping") if formulation.damped else 0.0
    return _within_rk4_limit(dt, omega, decay, "generalized-alpha-s",
                             "; -S because on a spatial tree its Newton iterations also "
                             "converge at a stiff spring the step does not resolve, where "
                             "generalized-alpha's can fail")


def _spatial_dae_method(formulation):
    """What ``method="auto"`` runs on the spatial DAE (a closed loop, or formulation "dae"
    named), and why: generalized-alpha-S, for the reason :func:`_spatial_method` gives."""
    why = "formulation 'dae' runs the implicit methods" if formulation == "dae" else \
        "a closed loop (or a cable the recursion cannot run) runs formulation 'dae', which " \
        "takes the implicit methods"
    return "generalized-alpha-s", (f"generalized-alpha-s (method 'auto'): {why}; -S because "
                                   "its Newton iterations also converge at a stiff spring the "
                                   "step does not resolve, where generalized-alpha's can fail")


def _within_rk4_limit(dt, omega, decay, implicit="generalized-alpha", why=""):
    """"rk4" if dt is within its stability limit for the rates (omega rad/s, decay 1/s), else
    ``implicit``; and the reason (``why`` appended to an implicit choice)."""
    limit = SCHEMES["rk4"].stable_step(top_eigenvalue(omega, decay))
    rates = recursive.rates_in_words(omega, decay)
    if dt <= limit:
        return "rk4", (f"rk4 (method 'auto'): dt = {dt:g} s is within its stability limit "
                       f"{limit:.3g} s at the initial state ({rates})")
    return implicit, (f"{implicit} (method 'auto'): dt = {dt:g} s exceeds the rk4 stability "
                      f"limit {limit:.3g} s at the initial state ({rates}){why}")


def simulate(model, t_end, dt, method="auto", output_every=10, state=None, formulation="auto",
             rtol=None, atol=None, max_displacement=None, check_stability=True, max_memory=None,
             progress=False, **implicit_options):
    """Integrate the motion of ``model`` from ``state`` (default: its reference configuration at
    rest, but for the drives; ``"static"``: its static equilibrium) to ``t_end``.

    Parameters
    ----------
    model : Model
        Planar, or spatial (``rancf.Model(dim=3)``): a spatial tree runs the O(n) spatial
        recursion (:mod:`rancf.formulations.spatial`) with the explicit and the implicit
        methods (the options ``tol``, ``max_iter``, ``jacobian``, ``max_cuts``, ``alpha``,
        ``rho_inf``); a
        spatial model with a closed loop, or any spatial model with ``formulation="dae"``,
        runs the spatial DAE (:mod:`rancf.formulations.spatial_dae`: absolute coordinates,
        every joint a constraint) with the implicit methods and the options of the planar
        DAE (``projection``; ``linear_solver`` "sparse" only).
    t_end : float
        Final time (s), > 0.
    dt : float
        Step (s) of a fixed-step method; initial step of an adaptive one.
        ``1e-15 t_end <= dt <= t_end`` (a shorter step does not advance the clock at t_end in
        double precision).
    method : str
        ``"auto"`` (default): ``"rk4"`` for a tree that the recursive formulation runs when
        ``dt`` is within RK4's stability limit at the initial state (the limit the
        ``check_stability`` check computes), ``"generalized-alpha"`` (rho_inf = 0.9 unless
        given) otherwise: beyond that limit, a closed loop, ``formulation="dae"``; spatial
        models likewise, but ``"generalized-alpha-s"`` where a planar one gets
        ``"generalized-alpha"`` (both second order; -S's Newton iterations converge at a
        stiff spring at a beam's root that the step does not resolve, where
        generalized-alpha's fail: tests/test_spatial_ball_spring.py). Generalized-alpha's
        and HHT's unconditional stability is linear: on the spatial DAE, whose Euler
        parameters make a turn nonlinear, a spring-held rotation of half a radian or more
        that the step resolves coarsely (omega h about 0.6 to 2) can gain energy until Newton
        fails (tests/test_spatial_ball_spring.py; the user guide's implicit page gives the
        measured cases); there take -S, HHT or a smaller step; reduced models:
        ``"backward-euler"``. The Result's ``method`` says
        which ran and its ``method_reason`` why. Name the method for a run that must not
        switch between models (a study over stiffness, a convergence test).
        Explicit (recursive formulation): ``"rk4"`` (fixed step, Cython, GIL released),
        ``"dopri5"`` (adaptive Dormand-Prince 5(4), ``rtol``/``atol``), ``"scipy:RK45" |
        "scipy:DOP853" | "scipy:Radau" | "scipy:BDF" | "scipy:LSODA"`` (SciPy's solvers on the
        same right-hand side). Implicit (:mod:`rancf.integrators.implicit`): ``"newmark" | "hht" |
        "generalized-alpha" | "generalized-alpha-s" | "backward-euler"`` (fixed step, Newton).
    output_every : int
        Results are kept every ``output_every * dt`` seconds (and at ``t_end``).
    state : State or "static", optional
        Initial coordinates and velocities (e.g. ``result.state(-1)`` to continue a run: a
        run's state, off its joints by its Newton tolerance and its step's error, is moved
        onto them, and the Result's message says by how much; rancf/formulations/
        start_check.py).
        ``"static"``: the static equilibrium of :func:`rancf.static` (its defaults) under the
        loads and the drives at t = 0 (each driven joint at q(0)), at rest but for the
        drives' rates: a gravity-loaded arm starts at rest instead of dropping from its
        unstressed shape; its joint angles are the equilibrium's continuous ones (a spring or
        an effort sees an angle that the load steps turned past pi as statics did, not
        wrapped by a turn). A spatial model's State holds its bodies' poses and velocities,
        then its cable nodes' coordinates ``[r, r']`` and their rates (``Result.state(i)`` of a
        spatial run; :class:`rancf.State` gives the layout); its link coordinates follow from
        them (rotations as rotation vectors: a revolute angle comes back within (-pi, pi], as
        a planar joint's), and they must satisfy the joints.
    formulation : {"auto", "recursive", "dae"}
        ``"recursive"``: the O(n) recursive formulation (trees rooted at the ground, child beams
        jointed at their start; every method). ``"dae"``: absolute coordinates, every joint a
        constraint (any topology, implicit methods). ``"auto"``: recursive where it applies,
        DAE otherwise (a closed loop; a spatial closed loop runs the spatial DAE, and
        ``"recursive"`` on it is refused); under ``"generalized-alpha-s"`` and
        ``"backward-euler"`` a planar tree with rigid bodies or prismatic, fixed or driven
        joints runs on the DAE, under the other implicit methods on the recursion, which was
        as accurate and faster there (:func:`choose_formulation`).
    rtol, atol : float, optional
        Relative and absolute tolerances of the adaptive methods (``"dopri5"`` and SciPy's),
        by default 1e-6 and 1e-8; > 0. A fixed-step method has no use for them and refuses
        them; so does ``method="auto"``, which only chooses fixed-step methods (RK4 or an
        implicit one): name an adaptive method to give them.
    max_displacement : float, optional
        Explicit methods: a vertex farther than this from the origin along x or y (m) counts
        as divergence; default 100 times the model size.
    check_stability : bool
        For ``"rk4"``, refuse a step beyond the stability limit: where the ray of the top
        eigenvalue of ``s^2 + d s + omega^2 = 0`` leaves the scheme's stability region
        (``2 sqrt(2) / omega`` undamped), with the highest natural frequency omega and the
        fastest decay rate d of the damping (element damping, ``c omega^2``, and
        spring-dampers; in a spatial model also effort functions of the rates) bounded from
        below by power iteration at the initial state. With ``method="auto"`` the same limit
        chooses the method instead (the check does not apply).
    max_memory : float, optional
        Bytes the run may take; by default the memory available. Its outputs, state,
        workspaces and factorizations (by formulation, method and linear solver: O(n) but for
        the dense DAE and SciPy's implicit solvers, O(n^2)) are estimated from the model's
        items before it is built; a run that would not fit is refused before it allocates
        anything (``MemoryError`` with the estimate).
    progress : bool or "always"
        A tqdm bar of the simulated time and the steps per second (scipy's methods: right-hand
        side evaluations per second), fed by the compiled loops every 0.1 s of wall time at
        their Ctrl-C checks, so it costs nothing inside a step. True shows it when stderr is a
        terminal, "always" also when it is not (a notebook, a log), False (default) never.
    **implicit_options
        ``projection`` (DAE: False, True / "euclidean", "mass"), ``linear_solver`` (DAE: "dense"
        | "sparse", default "sparse"), ``alpha`` ("hht", in [2/3, 1]), ``rho_inf``
        (generalized-alpha methods, in [0, 1]), ``tol`` (Newton tolerance on the position
        increment, m, at most 1 % of the model's size, and on the velocity increment, m/s;
        default 1e-10), ``max_iter`` (Newton
        iterations per step), ``jacobian`` ("every-iteration" or "reuse": Newton's matrix kept
        while the iteration contracts), ``max_cuts`` (int in [0, 30], default 6: a step on
        which Newton fails is halved, and its halves again, down to dt / 2**max_cuts, the
        outputs still at the steps of dt; the Result's ``stats["step_cuts"]`` counts the
        halvings and ``stats["smallest_step"]`` is the smallest sub-step, and an "ok" run's
        message says where the first was; 0 fails the run at the first failure, a study that
        must run at exactly dt: :func:`rancf.implicit.integrate`).

    Returns
    -------
    Result
        ``status`` is "ok"; or "diverged" (the state became non-finite or left its bound; a
        reduced run whose motion left its model's: stopped at the first step whose element
        stretch or, on a passive model without torsion spring-dampers and load moments,
        whose energy gain fails its check, else flagged on the finished run, whose energy
        balance counts the loads' work and the springs' energy:
        :mod:`~rancf.formulations.reduced.drift`),
        "failed" (Newton did not converge, a singular matrix, the step size fell below its
        floor, a held slope turned over, an input function raised: then ``error`` holds its
        :class:`~rancf.utilities.errors.UserFunctionError`) or "interrupted" (Ctrl-C), with
        ``message`` saying what, when and what to change, and the results up to that time.

    Raises
    ------
    TypeError
        ``model`` or ``state`` of the wrong type; implicit options with an explicit method,
        ``rtol`` or ``atol`` with a fixed-step one, ``max_displacement`` with an implicit one,
        ``projection`` or ``linear_solver`` with the recursive formulation.
    ValueError
        A parameter out of its range (named in the message); an unknown method or start; the
        static equilibrium of ``state="static"`` not found (the message is static's); a
        formulation that cannot run the model (a closed loop in the recursive formulation,
        an explicit method on the DAE); an RK4 step beyond the stability limit; ``t_end / dt``
        not an integer for an implicit method; a model that does not assemble
        (:meth:`Model.build`); a drive, effort or load function that returns no valid
        numbers at the initial state.
    rancf.UserFunctionError
        A drive, effort or load function raised at the initial state (the run has no output
        yet; later it stops the run with status "failed").
    MemoryError
        The run would not fit in ``max_memory``.
    KeyboardInterrupt
        Ctrl-C before the stepping loop began (the model's build, the formulation, the static
        start, the first factorization): there is no output to return. Once it began, Ctrl-C
        returns the Result so far with status "interrupted".

    Notes
    -----
    A :class:`~rancf.formulations.reduced.ReducedModel` (:func:`rancf.reduce`) runs with
    method "backward-euler" (the adaptive modal method's BDF-1) on formulation "auto" or
    "dae", and takes one more option, ``blas_threads`` (default 1: BLAS threads during the
    run, by threadpoolctl; None leaves them as they are: the adaptive step does many small
    dense QR factorizations, which threads slow down, all the more when other processes
    compete for the cores); it runs as a problem of the implicit loop
    (:class:`~rancf.formulations.reduced.ReducedProblem`: its outputs and counters are in the
    Result's ``extra`` and ``stats``). It starts from the reference configuration or from a
    State of its full model (``rancf.static(reduced.model).state(0)``: the full model's
    equilibrium); ``state="static"`` is not offered (there is no static solver of the reduced
    equations).
    The user guide's pages on formulations and integrators say which to choose.

    Examples
    --------
    The RANCF paper's pendulum (2 of its 5 bodies): the default method "auto" runs the explicit
    RK4 on the recursive formulation (the step is within its stability limit); then the same
    model with an implicit method on the DAE:

    >>> m = rancf.pendulum(n_bodies=2, elements_per_body=5, body_length=5.0)
    >>> res = rancf.simulate(m, t_end=0.5, dt=1e-3)
    >>> res.formulation, res.method, res.status
    ('recursive', 'rk4', 'ok')
    >>> dae = rancf.simulate(m, 0.5, 1e-3, method="generalized-alpha", formulation="dae",
    ...                      rho_inf=0.9)
    >>> bool(np.abs(dae.tip() - res.tip()).max() < 1e-5)   # m, of a 10 m chain (2.4e-6 here)
    True

    A steel pendulum is too stiff for RK4 at this step: "auto" runs generalized-alpha and
    says why; RK4 named is refused before the run:

    >>> stiff = rancf.pendulum(n_bodies=2, elements_per_body=5, E=2.1e11)
    >>> res = rancf.simulate(stiff, 0.5, 1e-3)
    >>> res.method, res.status
    ('generalized-alpha', 'ok')
    >>> print(res.method_reason)
    generalized-alpha (method 'auto'): dt = 0.001 s exceeds the rk4 stability limit ...
    >>> rancf.simulate(stiff, 0.5, 1e-3, method="rk4")
    Traceback (most recent call last):
    ...
    ValueError: dt = 0.001 s exceeds the rk4 stability limit ...
    """
    if not isinstance(model, (Model, ReducedModel)):
        raise TypeError(f"model must be a rancf.Model, got {type(model).__name__}")
    t_end, dt = checks.time_span(t_end, dt)
    output_every = checks.integer("output_every", output_every, 1, 10**9)
    rtol = None if rtol is None else checks.positive("rtol", rtol)
    atol = None if atol is None else checks.positive("atol", atol)
    check_progress(progress)
    check_stability = checks.boolean("check_stability", check_stability)
    if max_memory is not None:
        max_memory = checks.positive("max_memory", max_memory)
    if isinstance(model, ReducedModel):
        reason = ""
        if method == "auto":
            method, reason = choose_method(model, dt)
        return _run_reduced(model, t_end, dt, method, output_every, state, formulation, rtol,
                            atol, max_displacement, max_memory, progress, reason,
                            **implicit_options)
    if isinstance(state, str) and state not in STARTS:
        raise ValueError(f"state must be a rancf.State or one of {list(STARTS)}, got {state!r}")
    if state is not None and not isinstance(state, (State, str)):
        raise TypeError(f"state must be a rancf.State or one of {list(STARTS)}, got "
                        f"{type(state).__name__}")
    if model.dim == 3:
        return _run_spatial(model, t_end, dt, method, output_every, state, formulation, rtol,
                            atol, max_displacement, check_stability, max_memory, progress,
                            implicit_options)
    known = _methods()
    if method not in known:
        raise ValueError(f"method must be one of {known}, got {method!r}")
    checks.choice("formulation", formulation, FORMULATIONS)
    # the whole run's memory before the build allocates any of it (the assembly alone takes
    # gigabytes for ten million coordinates); "auto" counts the dearer implicit formulations
    n_x, n_joints = coordinates(model)
    n_out = most_outputs(t_end, dt, output_every)
    check_memory(n_out, output_numbers(n_x, n_joints), max_memory,
                 workspace_memory(n_x, method, formulation,
                                  implicit_options.get("linear_solver", "sparse")),
                 f"its state, workspaces and factorizations ({method}, formulation "
                 f"{formulation!r}, {n_x:,} coordinates)")
    A = model.build()
    branch = None
    if isinstance(state, str):
        (x0, branch), v0 = static_start(model), None
    elif state is not None:
        x0, v0 = state.checked(A.n_x)
        branch = state_branch(A, state)
    else:
        x0, v0 = None, None
    reason = ""
    if method == "auto":
        method, reason = choose_method(model, dt, formulation, x0, v0)
    formulation = choose_formulation(A, method, formulation)
    rtol, atol = tolerances(method, rtol, atol, reason)
    if method in IMPLICIT_METHODS:
        if max_displacement is not None:
            raise TypeError("max_displacement applies to the explicit methods; the implicit "
                            f"methods stop when Newton fails or the state exceeds 1e8{_as(reason)}")
        return _run_implicit(model, A, t_end, dt, method, output_every, x0, v0, branch,
                             formulation, progress, reason, **implicit_options)
    if implicit_options:
        raise TypeError(f"options {sorted(implicit_options)} apply to the implicit methods "
                        f"{sorted(IMPLICIT_METHODS)} only{_as(reason)}")
    bound = 100.0 * A.size if max_displacement is None else \
        checks.positive("max_displacement", max_displacement)
    t_out = output_times(t_end, dt, output_every)
    with recursive.checkout(A) as rec:
        y0 = rec.initial_state(x0, v0, branch=branch)
        note = rec.start_note
        if check_stability and fixed_step(method) and not reason:    # "auto" checked it
            check_step(method, dt, rec.highest_frequency(y0),
                       rec.highest_decay_rate(y0) if damped(A) else 0.0)
        solution = explicit.integrate(rec.kernel, y0, t_out, dt, method, rtol, atol, bound,
                                      progress)
    return noted(result_of(model, solution, reason), note)


def _as(reason):
    """The end of an error message about a method that ``"auto"`` chose: the choice and why."""
    return f"; {reason}" if reason else ""


#: The default tolerances of the adaptive methods: relative, and absolute (in the units of
#: the state, m and m/s: 1e-8 m is 1e-9 of a 10 m model).
TOLERANCES = {"rtol": 1e-6, "atol": 1e-8}


def adaptive_methods():
    """The methods that choose their steps from ``rtol`` and ``atol``: DOPRI5 (an explicit
    scheme with an error estimate) and SciPy's."""
    return sorted(m for m in SCHEMES if not fixed_step(m)) + \
        [f"scipy:{m}" for m in SCIPY_METHODS]


def tolerances(method, rtol, atol, reason=""):
    """``(rtol, atol)`` of a run of ``method`` (a known one; ``reason``: why ``"auto"`` chose
    it), None meaning the default of :data:`TOLERANCES`. A fixed-step method (RK4, every
    implicit one) has no use for them: given to it, they are refused (TypeError), as every
    other option that does not apply to the method is, since it would run unchanged."""
    given = [name for name, value in (("rtol", rtol), ("atol", atol)) if value is not None]
    adaptive = adaptive_methods()
    if given and method not in adaptive:
        raise TypeError(f"options {given} apply to the adaptive methods {adaptive} only; "
                        f"{method} takes a fixed step{_as(reason)}")
    return (TOLERANCES["rtol"] if rtol is None else rtol,
            TOLERANCES["atol"] if atol is None else atol)


def _run_spatial(model, t_end, dt, method, output_every, state, formulation, rtol, atol,
                 max_displacement, check_stability, max_memory, progress, implicit_options):
    """A spatial tree on the O(n) spatial formulation from ``state`` (None, ``"static"`` or
    a State of poses and velocities: :meth:`rancf.formulations.spatial.Spatial.state_of`):
    the explicit methods through the explicit loop with the work and the dissipation in the
    state (:meth:`~rancf.formulations.spatial.Spatial.tracked`), the implicit ones through the
    implicit loop (:func:`rancf.formulations.spatial.implicit_problem`), which integrates them
    by the trapezoidal rule. Closed loops are not available in this version."""
    known = _methods()
    if method not in known:
        raise ValueError(f"method must be one of {known} for a spatial model, got {method!r}")
    checks.choice("formulation", formulation, FORMULATIONS)
    # the outputs and the state, workspaces and factorizations of the formulation that will
    # run, before the build allocates anything (a cable node counts as a body: 6 coordinates,
    # of the 7 a body has in the DAE); method "auto" and the static start count the implicit
    # methods' (statics'), the dearer
    n_bodies, n_joint_q = spatial_size(model)
    n_out = most_outputs(t_end, dt, output_every)
    dae = formulation == "dae" or (formulation == "auto" and spatial_dae_likely(model))
    if dae:
        what = (f"the spatial DAE's state, sparse Newton matrix and SuperLU factors "
                f"({SPATIAL_DAE_COORDINATES * n_bodies:,} coordinates)")
    else:
        what = (f"the spatial recursion's state and workspaces ({method}, "
                f"{SPATIAL_COORDINATES * n_bodies:,} coordinates)")
    check_memory(n_out, 18 * n_bodies + 3 * n_joint_q + 8, max_memory,
                 spatial_workspace_memory(n_bodies, "newton" if isinstance(state, str)
                                          else method, dae), what)
    tree = model.build()
    loops = len(tree.loop_joint)
    if loops and formulation == "recursive" and spatial.arc_refusal(model, tree):
        raise ValueError(f"formulation 'recursive' runs trees jointed at nodes, but "
                         f"{spatial.arc_refusal(model, tree)}")
    if loops and formulation == "recursive":
        j = model.joints[int(tree.loop_joint[0])]
        raise ValueError(f"formulation 'recursive' runs trees, but joint {j.index} ({j.kind}) "
                         "closes a loop: a closed loop needs formulation 'dae' or 'auto'")
    refusal = spatial.cable_refusal(tree)
    if refusal and formulation == "recursive":
        raise ValueError(f"formulation 'recursive' cannot run this model's cables: {refusal}")
    if formulation == "dae" or _needs_dae(tree):
        return _run_spatial_dae(model, t_end, dt, method, output_every, state, formulation,
                                rtol, atol, max_displacement, progress, implicit_options)
    formulation = spatial.of_model(model)
    formulation.start_note = ""
    y0 = spatial_start(model, formulation, state)
    reason = ""
    if method == "auto":
        method, reason = _spatial_method(formulation, y0, dt)
    return _run_spatial_method(model, formulation, y0, t_end, dt, method, output_every, rtol,
                               atol, max_displacement, check_stability and not reason, progress,
                               reason, implicit_options)


def _run_spatial_dae(model, t_end, dt, method, output_every, state, formulation, rtol, atol,
                     max_displacement, progress, implicit_options):
    """A spatial model on the absolute-coordinate DAE
    (:class:`~rancf.formulations.spatial_dae.SpatialDAE`: a model with a closed loop, or
    formulation "dae" named) through the one implicit loop, as the planar DAE runs; its
    observe gives the Result the arrays a recursive run's has."""
    reason = ""
    if method == "auto":
        method, reason = _spatial_dae_method(formulation)
    if method not in IMPLICIT_METHODS:
        why = "formulation 'dae' was named" if formulation == "dae" else \
            f"the model's cables need it ({spatial.cable_refusal(model.build())})" \
            if spatial.cable_refusal(model.build()) \
            else spatial.arc_refusal(model, model.build()) \
            or "the model has a closed loop, which runs formulation 'dae'"
        raise ValueError(f"{ode_method(method)}, but {why}; formulation 'dae' takes the implicit methods "
                         f"{sorted(IMPLICIT_METHODS)}")
    tolerances(method, rtol, atol, reason)
    if max_displacement is not None:
        raise TypeError("max_displacement applies to the explicit methods; the implicit "
                        "methods stop when Newton fails or the state exceeds 1e8")
    dae = SpatialDAE(model.build(), *spatial.model_inputs(model))
    x0, v0 = spatial_dae_start(model, dae, state, checks.tolerance(
        "tol", implicit_options.get("tol", 1e-10), dae.tree.size))
    return noted(result_of(model, _spatial_implicit(dae, x0, v0, t_end, dt, method,
                                                    output_every, progress, reason,
                                                    **implicit_options), reason),
                 dae.start_note)


def _run_spatial_method(model, formulation, y0, t_end, dt, method, output_every, rtol, atol,
                        max_displacement, check_stability, progress, reason, implicit_options):
    """:func:`_run_spatial` once the method is known (``reason``: why method "auto" chose it,
    for the Result)."""
    implicit = method in IMPLICIT_METHODS
    rtol, atol = tolerances(method, rtol, atol, reason)
    if implicit_options and not implicit:
        raise TypeError(f"options {sorted(implicit_options)} apply to the implicit methods "
                        f"{sorted(IMPLICIT_METHODS)} only")
    if implicit and max_displacement is not None:
        raise TypeError("max_displacement applies to the explicit methods; the implicit "
                        "methods stop when Newton fails or the state exceeds 1e8")
    tree = formulation.tree
    if implicit:
        n = formulation.n_free
        return noted(result_of(model, _spatial_implicit(formulation, y0[:n], y0[n:], t_end, dt,
                                                            method, output_every, progress, reason,
                                                            **implicit_options), reason),
                     formulation.start_note)
    bound = 100.0 * tree.size if max_displacement is None else \
        checks.positive("max_displacement", max_displacement)
    if check_stability and fixed_step(method):
        check_step(method, dt, formulation.highest_rate(y0, "stiffness"),
                   formulation.highest_rate(y0, "damping") if formulation.damped else 0.0)
    # the work of the inputs and the dissipation integrated with the motion, from 0
    t_out = output_times(t_end, dt, output_every)
    solution = explicit.integrate(formulation.tracked(), np.concatenate([y0, [0.0, 0.0]]),
                                  t_out, dt, method, rtol, atol, bound, progress)
    return noted(result_of(model, solution, reason), formulation.start_note)


def _spatial_implicit(formulation, q0, v0, t_end, dt, method, output_every, progress,
                      reason="", tol=1e-10, max_iter=25, jacobian="reuse", **parameters):
    """The implicit loop on a spatial formulation from (q0, v0): the absolute-coordinate DAE
    (a :class:`~rancf.formulations.spatial_dae.SpatialDAE`; q0, v0 its coordinates and rates,
    (n_coordinates,) each), which takes the options ``projection`` (default False) and
    ``linear_solver`` (None or "sparse") and solves its sparse matrices on one BLAS thread, or
    the recursion (a :class:`~rancf.formulations.spatial.Spatial`; its state's q and qd,
    (n_free,) each), which refuses both options but None. ``reason``: why method "auto"
    chose the method ("" when it was named), for the message of a refused step."""
    dae = isinstance(formulation, SpatialDAE)
    if dae:
        projection = parameters.pop("projection", False)
        linear_solver = parameters.pop("linear_solver", None)
        if linear_solver not in (None, "sparse"):
            raise ValueError(f"linear_solver of the spatial DAE must be 'sparse' (its matrices "
                             f"are scipy.sparse), got {linear_solver!r}")
    elif any([parameters.pop(name, None) is not None for name in ("projection", "linear_solver")]):
        raise TypeError("projection and linear_solver apply to formulation='dae' only")
    tol, max_iter = _implicit_options(t_end, dt, tol, max_iter, formulation.tree.size, reason)
    if dae:
        # the compiled problem runs the loop and projects (StepProblem.project)
        formulation.compiled.project_with(projection_kind(projection))
        problem = formulation.compiled
    else:
        problem = spatial.implicit_problem(formulation)
    with one_blas_thread() if dae else contextlib.nullcontext():
        return integrate(problem, q0, v0, t_end, dt, method=method, output_every=output_every,
                         tol=tol, max_iter=max_iter, jacobian=jacobian, progress=progress,
                         **parameters)


def _implicit_options(t_end, dt, tol, max_iter, size, reason=""):
    """``(tol, max_iter)`` of an implicit run checked (``tol`` against the model size ``size``,
    m), and its span a whole number of steps (``reason``: why method "auto" chose the
    method, for the message)."""
    steps = t_end / dt
    if abs(steps - round(steps)) > 1e-9 * steps:
        if reason:
            # the user named no method: say which one "auto" chose, and why, and what runs
            raise ValueError(
                f"t_end / dt must be an integer for the implicit methods, got {steps!r}, "
                f"and no method was named: {reason}. Pass a dt that divides t_end (dt = "
                f"{t_end / math.ceil(steps)!r} s, {math.ceil(steps)} steps), or name a "
                f"method (an adaptive one, \"dopri5\", takes any t_end)")
        raise ValueError(f"t_end / dt must be an integer for the implicit methods, got "
                         f"{steps!r}; pass a dt that divides t_end (dt = "
                         f"{t_end / math.ceil(steps)!r} s, {math.ceil(steps)} steps)")
    return checks.tolerance("tol", tol, size), checks.integer("max_iter", max_iter, 1, 10**6)


def output_numbers(n_x, n_joints):
    """The numbers kept per output: positions and velocities (n_x each) and two more arrays of
    each size, the joint coordinates, rates, reactions and efforts, and the energies."""
    return 4 * n_x + 4 * n_joints + 8


def fixed_step(method):
    """True for an explicit method of fixed step (its step is checked against stability)."""
    return method in SCHEMES and not len(SCHEMES[method].b_err)


def check_step(method, dt, omega, decay):
    """Refuse a fixed step beyond the explicit scheme's stability limit for the top eigenvalue
    of the motion at the initial state: highest natural frequency omega (rad/s) and fastest
    decay rate of the damping (1/s), both estimated by the formulation."""
    limit = SCHEMES[method].stable_step(top_eigenvalue(omega, decay))
    if dt > limit:
        raise ValueError(
            f"dt = {dt:g} s exceeds the {method} stability limit {limit:.4g} s of this model "
            f"({recursive.rates_in_words(omega, decay)} at the initial state); use "
            f"dt <= {rounded_down(limit):.3g} s or an adaptive or implicit method")


def rounded_down(x, digits=3):
    """``x`` > 0 rounded down to ``digits`` significant digits: a limit advised in a message,
    which the value printed (``:.{digits}g``) must not exceed (rounding to nearest can print
    a step just beyond the limit, which is then refused)."""
    unit = 10.0 ** (math.floor(math.log10(x)) - digits + 1)
    down = math.floor(x / unit) * unit
    # x / unit may round up across an integer; the printed value is then x's own rounding
    while float(f"{down:.{digits}g}") > x:
        down -= unit
    return down


def top_eigenvalue(omega, decay):
    """The eigenvalue (1/s) of the linearised motion an explicit step must resolve, from the
    highest natural frequency omega and the fastest decay rate of the damping: the faster
    root of ``s^2 + decay s + omega^2 = 0`` (a mode with Kelvin-Voigt damping c has
    ``decay = c omega^2``), ``i omega`` undamped."""
    return -0.5 * decay - np.sqrt(complex(0.25 * decay * decay - omega * omega))


def _run_implicit(model, A, t_end, dt, method, output_every, x0, v0, branch, formulation,
                  progress, reason="", projection=False, linear_solver="sparse", tol=1e-10,
                  max_iter=25, jacobian="reuse", **parameters):
    """The implicit methods on the DAE or the implicit recursive formulation (``reason``: why
    method "auto" chose it, for the messages), from (x0, v0) on the branch of joint angles
    ``branch`` (None: the reference configuration's; :func:`~rancf.starts.static_start`)."""
    tol, max_iter = _implicit_options(t_end, dt, tol, max_iter, A.size, reason)
    if formulation == "dae":
        dae = DAE(A, linear_solver, projection, branch)
        q0, qd0 = dae.initial_state(x0, v0, newton_tol=tol)
        problem, projection, note = dae.compiled, False, dae.start_note   # the kernel projects
    else:
        if projection is not False or linear_solver != "sparse":
            raise TypeError("projection and linear_solver apply to formulation='dae' only")
        with recursive.checkout(A) as rec:
            y0 = rec.initial_state(x0, v0, branch=branch)
            qd0 = y0[rec.n_x:rec.n_x + rec.n_dof].copy()
            note = rec.start_note
        problem = recursive.implicit_problem(A, y0, branch)
        q0 = problem.theta(y0)
    return noted(result_of(model, integrate(problem, q0, qd0, t_end, dt, method=method,
                                            output_every=output_every, projection=projection,
                                            tol=tol, max_iter=max_iter, jacobian=jacobian,
                                            progress=progress, **parameters), reason), note)


def noted(result, note):
    """``result`` with ``note`` (how its start was moved onto the joints, "" none:
    :mod:`rancf.formulations.start_check`) appended to its message."""
    if note:
        result.message = f"{result.message}; {note}" if result.message else note
    return result


def _run_reduced(reduced, t_end, dt, method, output_every, state, formulation, rtol, atol,
                 max_displacement, max_memory, progress, reason="", blas_threads=1):
    """A reduced model (the adaptive modal method) in the implicit loop, its step solved by
    greedy Gauss-Newton on the sampled rows; the options :func:`simulate` checked, the memory of
    the full model's sparse DAE, which the method samples (``reason``: why method "auto" chose
    the method, for the Result)."""
    if isinstance(state, str) and state in STARTS:
        raise ValueError(
            f"state={state!r} is not offered for a reduced model (rancf.reduce): there is no "
            "static solver of the reduced equations; start it from the reference "
            "configuration (state=None) or from a rancf.State of its full model, e.g. the "
            "full model's equilibrium: state=rancf.static(reduced.model).state(0)")
    if method != "backward-euler":
        raise ValueError(f"method must be 'backward-euler' for a reduced model (the "
                         f"adaptive modal method's BDF-1), got {method!r}")
    checks.choice("formulation", formulation, ("auto", "dae"))
    tolerances(method, rtol, atol, reason)
    if max_displacement is not None:
        raise TypeError("max_displacement applies to the explicit methods; a reduced model runs "
                        "the implicit 'backward-euler', which stops when Newton fails")
    if blas_threads is not None:
        blas_threads = checks.integer("blas_threads", blas_threads, 1, 4096)
    n_x, n_joints = reduced.n_x, len(reduced.model.joints)
    n_out = most_outputs(t_end, dt, output_every)
    check_memory(n_out, output_numbers(n_x, n_joints), max_memory,
                 workspace_memory(n_x, method, "dae"),
                 f"the full model's DAE ({n_x:,} coordinates)")
    problem, x0, v0 = reduced.equations(state)
    limit = (threadpool_limits(limits=blas_threads, user_api="blas")
             if blas_threads is not None and threadpool_limits is not None
             else contextlib.nullcontext())
    with limit:
        sol = integrate(problem, x0, v0, t_end, dt, method="backward-euler",
                        output_every=output_every, tol=reduced.tol, max_iter=reduced.max_iter,
                        progress=progress)
    # the reduction's counters over the accepted steps only (not the step the run stopped at)
    sol = replace(sol, stats={**sol.stats, **problem.run_stats(sol.stats["steps"])})
    return result_of(reduced.model, drift_checked(reduced, sol), reason)


def simulate_timed(model, t_end, dt, output_every=10, state=None, tol=1e-10, max_iter=25):
    """The full model with backward Euler in the one stepping loop and its default Newton, its
    evaluations timed for the adaptive-modal paper's table 2
    (:class:`~rancf.formulations.reduced.timing.TimedDAE`).

    Parameters
    ----------
    model : Model
    t_end, dt : float
        Final time and step (s), as :func:`simulate` (method "backward-euler", formulation
        "dae").
    output_every : int
        Results every ``output_every`` steps.
    state : State, optional
        Initial state (default: the reference configuration, theory: Assembly and the initial
        state); its joint angles on the turns of its ``joint_q``, where it has them.
    tol : float
        Newton tolerance on the position increment (m) and, in dynamics, on the velocity
        increment (m/s; rancf.implicit.integrate).
    max_iter : int
        Newton iterations per step.

    Returns
    -------
    Result
        Its ``stats`` add ``time_update`` and ``time_matrix`` (s).
    """
    if not isinstance(model, Model):
        raise TypeError(f"model must be a rancf.Model, got {type(model).__name__}")
    t_end, dt = checks.time_span(t_end, dt)
    output_every = checks.integer("output_every", output_every, 1, 10**9)
    A = model.build()
    dae = TimedDAE(A, Timer(), state_branch(A, state))
    x0, v0 = initial_state(dae, state)
    dae.timer = Timer()  # the initial state is not a step
    return noted(result_of(model, integrate(dae, x0, v0, t_end, dt, method="backward-euler",
                                            output_every=output_every, tol=tol,
                                            max_iter=max_iter)), dae.start_note)


def static(model, load_steps=10, tol=1e-10, max_iter=50, linear_solver="sparse"):
    """Static equilibrium of ``model`` under all its loads at t = 0.

    Parameters
    ----------
    model : Model
        Planar (the DAE formulation's absolute coordinates and multipliers), or a spatial tree
        (``rancf.Model(dim=3)``: its link coordinates, through the same loop; Newton's step
        solves the full tangent, factored in O(n) and solved directly (with cables by GMRES
        preconditioned by the elements' stiffness), rancf/formulations/_spatial_implicit.pyx,
        so a
        mechanism, a joint that is neither held nor driven, fails with a message saying so);
        a spatial model with a closed loop on the spatial DAE (its bodies' positions and
        Euler parameters and the multipliers, as the planar statics').
    load_steps : int
        Nominal number of equal load increments (>= 1). A load step on which Newton fails
        is cut: its increment halved and the step retried from the last equilibrium, at
        most 6 times (down to 1/64 of ``1 / load_steps``), the increment grown back after
        each converged step; raise it when a step fails even so. In a planar model the rest
        angles of torsion spring-dampers are stepped with the loads, from their joints'
        reference angles (their pre-stress is a load).
    tol : float
        Newton stops when ``max |dx| <= tol`` times the model size (dimensionless, in
        (0, 0.01]: a larger one accepts equilibria wrong by more than 1 % of the model); in a
        spatial model dx holds the link coordinates (m and rad).
    max_iter : int
        Newton iterations per load step.
    linear_solver : {"dense", "sparse"}
        Planar models only (a spatial model's solve is the O(n) elimination).

    Returns
    -------
    Result
        One frame (t = 0) with the equilibrium coordinates, zero velocities, the joint
        coordinates and reactions (clamp moments, drive torques); a spatial cable's drawn
        node frames carried from load step to load step as a run carries them from output to
        output (continuous where a tangent turns past 120 degrees from its reference, if no
        load step turns it by 120 degrees: raise ``load_steps`` otherwise).
        ``extra["load_factor"]`` is the load factor reached (1 when ``status == "ok"``);
        ``extra["iterations"]`` and ``extra["load_factors"]`` the Newton iterations and the
        load factor of each converged load step (more than ``load_steps`` where steps were
        cut); ``stats["load_step_cuts"]`` the halvings (the message says how many, where
        any);
        ``stats["newton_iterations"]`` (``njev``, ``nlu``) all of the solve's, a failed
        step's and a slack cable's pseudo-transient start's included. A step that does
        not converge at the smallest increment stops with ``status == "failed"``, a message
        naming the step and that increment (and, where a joint coordinate that nothing holds
        is driven by the loads there, saying the model is a mechanism and naming the joint:
        planar statics and the spatial DAE's; the spatial recursion's names the link that
        has no stiffness),
        and the last equilibrium found. The
        equilibrium (planar or spatial) is tested for stability (its stiffness on the
        motions the joints allow, under conservative loads): an unstable one (a cable on a
        pin that the load steps stood upright, a body drawn standing on a pin) is left along
        its unstable direction for a stable one, the message saying so (a body drawn
        standing comes back hanging), and where that fails it is returned with ``status ==
        "failed"`` and a message saying it is unstable;
        Ctrl-C once the load steps have begun (in them, in a load or effort function, or
        while the equilibrium is mapped to the outputs) with ``status == "interrupted"`` and
        the last equilibrium found.

    Raises
    ------
    TypeError
        ``model`` is not a :class:`rancf.Model`.
    ValueError
        A parameter out of its range, a model that does not assemble, a spatial model whose
        stiffness matrix is singular in its reference because of a curved cable lying in a
        plane (no first-order stiffness out of it: theory, Curved cables), unless its loads,
        in that plane, pull it taut between joints at both ends to an equilibrium stable out
        of the plane (a slack cable between two pins: solved).
    rancf.UserFunctionError, rancf.ReturnedValueError
        A drive, effort or load function raised (or returned what is not a value) at the
        start (t = 0, the reference configuration: the build and the first residual); at a
        later Newton iterate it stops the solve at once (no load step is cut for it, no
        continuation step retried: the one that starts the load steps of plane curved
        cables, the one off an unstable equilibrium) with status "failed", a message naming
        the function and its error, and the last equilibrium, whose outputs are mapped with
        the function's values there (it is not called again).
    MemoryError
        Newton's matrix and factors would not fit in the available memory (estimated
        before the model is built).
    KeyboardInterrupt
        Ctrl-C before the first load step (the build, the formulation, Newton's start): there
        is no equilibrium to return.

    Examples
    --------
    A cantilever of 2 m under a tip force of fixed direction, ``P L^2 / (E I) = 1``, against
    the inextensible elastica (tip at ``(1 - 0.056433, -0.301721) L``; the beam's finite axial
    stiffness accounts for part of the difference):

    >>> E, I, L = 2.07e11, 0.1**4 / 12, 2.0
    >>> m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    >>> b = m.add_beam(L, 8, E=E, rho=7800.0, A=0.01, I=I)
    >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    >>> tip = m.add_force(b.end, force=(0.0, -E * I / L**2))
    >>> res = rancf.static(m, load_steps=10)
    >>> res.status
    'ok'
    >>> bool(np.allclose(res.tip()[0] / L, [1 - 0.056433, -0.301721], rtol=0, atol=1e-4))
    True

    A spatial cantilever of 1 m rolled into a quarter circle by an end moment
    ``(pi / 2) E I / L``: its tip at ``(2 / pi, 2 / pi, 0) L`` (the spatial element bends into
    the arc exactly):

    >>> m3 = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    >>> b3 = m3.add_beam(1.0, 4, E=E, rho=7800.0, A=0.01, I=(I, I), J=2 * I, G=E / 2.6,
    ...                  direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    >>> clamp3 = m3.add_joint("fixed", m3.ground.point(0.0, 0.0, 0.0), b3.start)
    >>> end3 = m3.add_force(b3.end, moment=(0.0, 0.0, np.pi / 2 * E * I))
    >>> res3 = rancf.static(m3, load_steps=2)
    >>> res3.status, bool(np.allclose(res3.position(b3.end)[0], [2 / np.pi, 2 / np.pi, 0.0],
    ...                               rtol=0, atol=1e-10))
    ('ok', True)
    """
    checks.choice("linear_solver", linear_solver, ("dense", "sparse"))
    if isinstance(model, Model) and model.dim == 2:
        # the memory of Newton's matrix and factors before the build allocates any of it
        n_x, n_joints = coordinates(model)
        check_memory(1, output_numbers(n_x, n_joints), None,
                     workspace_memory(n_x, "newton", "dae", linear_solver),
                     f"its Newton matrix and factors ({linear_solver}, {n_x:,} coordinates)",
                     "use fewer elements" + (", or linear_solver='sparse'"
                                             if linear_solver == "dense" else ""))
    elif isinstance(model, Model):
        n_bodies, n_joint_q = spatial_size(model)
        dae = spatial_dae_likely(model)
        n = (SPATIAL_DAE_COORDINATES if dae else SPATIAL_COORDINATES) * n_bodies
        check_memory(1, 18 * n_bodies + 3 * n_joint_q + 8, None,
                     spatial_workspace_memory(n_bodies, "newton", dae),
                     f"its Newton matrix, factors and workspaces ("
                     f"{'the spatial DAE' if dae else 'the spatial recursion'}, "
                     f"{n:,} coordinates)", "use fewer elements")
    return result_of(model, statics.static(model, load_steps, tol, max_iter, linear_solver))
