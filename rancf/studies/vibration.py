"""``rancf.modes``: natural frequencies and mode shapes of a planar mechanism linearized about
a static equilibrium (theory: Vibration modes).

At an equilibrium ``x*`` with multipliers ``lambda*`` of the DAE formulation
(:mod:`rancf.formulations.dae`), small motions ``x = x* + dx`` obey::

    M dx'' + K_t dx + Phi_x^T dlambda = 0,      Phi_x dx = 0,
    K_t = K(x*) - dQ/dx(x*) + d(Phi_x^T lambda*)/dx

with M the constant mass matrix of the absolute coordinates, K the elements' tangent stiffness,
Q the applied forces (gravity, loads, efforts: their stiffness enters for forces that depend
on x) and the last term the constraints' curvature weighted by their forces (it gives a
pendulum its restoring stiffness ``m g d``). Every joint row stays a constraint: held and
driven coordinates are frozen (a drive at its value at t = 0). With ``N`` a basis of the null
space of ``Phi_x`` (the motions the joints allow), the modes solve the symmetric eigenproblem
``N^T K_t N y = omega^2 N^T M N y``, and their shapes are ``dx = N y``, normalized to unit
modal mass ``dx^T M dx = 1``; the frequencies are the Rayleigh-Ritz values of K_t and M on
the solver's shapes (:func:`_rayleigh_ritz`: the solver's own are off by eps times the
largest eigenvalue, a slender beam's stretch, which is 1e9 times its first bending one).
A mode is rigid (zero frequency) when its omega^2 is below the eigensolver's backward error
for it, the stiffness's rounding over the mode's own mass
(:func:`~rancf.utilities.resolution.rigid`).
The reduced problem is dense: its cost is O(n^3) in the number of coordinates n (a few
seconds at n = 2000).

A spatial tree (``rancf.Model(dim=3)``) is linearized in its own coordinates, the free link
coordinates q of the O(n) recursion (:mod:`rancf.formulations.spatial`; no constraints, so no
null space): ``M(q*) dq'' + K dq = 0`` with M the tree's mass matrix, assembled from the body
Jacobians ``J`` (``V = J qd``, n calls of the kinematics pass) as ``sum J_i^T diag(m_i,
A_i J_i A_i^T) J_i``, and ``K = -dF/dq`` at rest by central differences of the generalized
forces F, evaluated by the Newton-Euler recursion (the implicit loop's residual: no M^-1, so
the differences are good to about 1e-13 of K's largest entry; statics' exact tangent,
``exact_static`` of rancf/formulations/_spatial_implicit.pyx, exists only as its O(n) factor,
and not for cables or loads between nodes); taken at two steps, they also give K's error
entry by entry (:func:`_stiffness`), which decides a rigid-body mode as for the planar DAE
(:func:`~rancf.utilities.resolution.rigid`: omega^2 within the eigensolver's and K's error
along the mode); the eigenvalues are refined by
Rayleigh-Ritz on the vectors of a dense shift-invert (:func:`_lowest`: M of a long chain is
ill-conditioned, and ``eigh(K, M)`` would factor it). Its shapes
are the bodies' small motions ``J y``: per body (beam node or rigid body, numbered as
:meth:`rancf.Model.body_of` says) the displacement of its origin (m) and its small rotation
vector (rad), global, 6 numbers. A tree with ANCF cables is linearized on the recursion too
(its cable nodes' coordinates ``e = [r, r']`` have Jacobians ``Jc``): M gains each
element's constant consistent mass ``Jc_e^T M_e Jc_e``, and K the cables' elastic stiffness
written out (:func:`_cable_stiffness`: their elements' tangent stiffness; differences of
the large forces ``EA (|r'| - 1)`` lose ``eps EA`` and would bury a chain's gravity
stiffness), the rest by differences as above; the shapes then give each cable node's
``[dr, dr']``. A model whose cables the recursion cannot run (a cable pinned at both ends)
is linearized on the spatial DAE, as a closed loop is (:func:`_spatial_loop_modes`).
"""
import numpy as np

from ..utilities import checks
from ..utilities.resolution import rigid as _rigid
from ..elements.ancf_cable import SpatialANCFCable
from ..elements.spatial_beam import SpatialBeam
from ..formulations._spatial_dae import POSE_SIZE
from ..model.model import Model
from ..model.state import State

#: A spatial body's entries in a State's x (its pose: origin, frame row-major) and v (its
#: twist: v, w), a cable node's in both ([r, r'] and their rates), a joint's reaction
#: ([f, m], dual to a twist): the element kinds' sizes.
FRAME, TWIST = SpatialBeam.pose_size, SpatialBeam.node_size
CABLE_NODE = SpatialANCFCable.node_size
WRENCH = TWIST

class Modes:
    """Vibration modes of a mechanism about an equilibrium.

    Not constructed directly: :func:`rancf.modes` makes it.

    Attributes
    ----------
    frequencies : ndarray (n,)
        Natural frequencies ``omega / (2 pi)`` (Hz), ascending; rigid-body modes (zero frequency)
        first.
    omega : ndarray (n,)
        Angular frequencies (rad/s).
    shapes : ndarray (n, n_coordinates)
        Mode shapes in the model's absolute node coordinates (the layout of
        :class:`rancf.State`'s ``x``: m, and dimensionless slopes), unit modal mass
        (``shape @ M @ shape = 1``, M in kg), the entry of largest magnitude positive.
        Spatial models: (n, 6 n_bodies), per body the displacement of its origin (m) and
        its small rotation vector (rad), global (the bodies of :attr:`rancf.Result.nodes`);
        unit modal mass ``sum_i m_i |dr_i|^2 + dth_i . I_i dth_i = 1``. With ANCF cables
        (n, 6 n_bodies + 6 n_cable_nodes): then per cable node the change of its ``[r, r']``
        (m, dimensionless; the layout of :class:`rancf.State`'s cable part), the cables'
        consistent mass in the modal mass.
    rigid : ndarray of bool (n,)
        The modes of zero frequency: motions the joints allow that no stiffness resists
        (``|omega^2|`` below what the matrices and the eigensolver resolve, ``eps ||K||_1
        |y|^2 + |y|^T |K - K^T| |y|`` for the mode y of unit modal mass,
        :func:`~rancf.utilities.resolution.rigid`; spatial trees: K's error estimated from
        its differences at two steps in place of ``|K - K^T|``, :func:`_stiffness`).
    equilibrium : rancf.State
        The state linearized about (velocities zero); of a spatial model, its bodies' poses
        (:meth:`rancf.Result.state`'s layout).

    Examples
    --------
    A clamped beam's first two modes, drawn and animated:

    >>> m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    >>> b = m.add_beam(1.0, 4, E=2.1e11, rho=7800.0, A=1e-4, I=1e-10)
    >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    >>> found = rancf.modes(m, n=2)
    >>> len(found), found.shapes.shape, bool(found.rigid.any())
    (2, (2, 20), False)
    >>> ax = found.plot(1)                       # the equilibrium and both extremes
    >>> period = found.motion(0, n_frames=8)     # a Result of one period
    >>> anim = found.animate(0)                  # or found.animate(0, "mode0.gif")
    """

    def __init__(self, model, equilibrium, omega, shapes, rigid, linear=None, dae=None):
        # a spatial model's frozen formulation, link coordinates q* and the modes' dq (n, n_q);
        # a planar model's DAE, its drives held as the modes held them
        self._linear = linear
        self._dae = dae
        self.model = model
        self.equilibrium = equilibrium
        self.omega = omega
        self.frequencies = omega / (2.0 * np.pi)
        self.shapes = shapes
        self.rigid = rigid

    def __len__(self):
        return len(self.omega)

    def __repr__(self):
        listed = ", ".join(f"{f:.4g}" for f in self.frequencies[:5])
        more = ", ..." if len(self) > 5 else ""
        return f"Modes({len(self)} modes: [{listed}{more}] Hz)"

    def _index(self, i):
        i = checks.integer("i", i, -len(self), len(self) - 1)
        return i % len(self)

    def _amplitude(self, i, scale):
        """Scale of mode i: ``scale`` times the model's size for its largest displacement."""
        shape = self.shapes[self._index(i)]
        A = self.model.build()
        if self.model.dim == 3:
            positions = np.abs(shape.reshape(-1, 6)[:, :3]).max()
            # a mode that only turns bodies about their origins: scale its rotation instead
            positions = max(positions, np.abs(shape.reshape(-1, 6)[:, 3:]).max() * A.size)
        else:
            positions = np.abs(shape.reshape(-1, A.node_size)[:, :2]).max()
        return checks.real("scale", scale, low=0.0, low_open=True) * A.size / positions

    def motion(self, i, scale=0.1, n_frames=24):
        """One period of mode ``i`` as a :class:`rancf.Result` (for plotting and animation):
        ``x(t) = x* + a sin(omega t) shape`` with ``a`` such that the largest displacement is
        ``scale`` times the model's size; a rigid-body mode is drawn over a unit time.

        A planar model's frames, and a spatial model's with a closed loop (absolute
        coordinates), are moved back onto the joints (:func:`_on_joints`: the straight line
        leaves them at second order in ``a``, a pendulum's bob off its arc) and their energies
        are the linearized motion's (:func:`_modal_energies`): kinetic ``1/2 v^T M v``,
        gravity's potential on the frames, and the elastic energy the rest of the linearized
        potential ``1/2 (a sin(omega t))^2 omega^2`` (unit modal mass), so that
        kinetic + elastic + gravity is constant (a rigid-body mode's drawn oscillation, not a
        free motion, excepted). The elastic energy of the frames themselves would be wrong:
        the line turns slopes and positions without the second-order shortening a rotation
        brings, and stretches a beam by ``(a theta)^2 / 2`` at a turn ``a theta``, an energy of
        order ``E A (a theta)^4`` that outgrows the mode's ``E I (a kappa)^2`` once ``a`` is of
        the section's radius of gyration.

        Parameters
        ----------
        i : int
            Mode index (0 the lowest; negative counts from the end).
        scale : float
            Largest displacement over the model's size (dimensionless, > 0).
        n_frames : int
            Frames in the period (>= 2).

        Returns
        -------
        rancf.Result
            Its ``t`` the frames' times (s); its nodes, joint coordinates and energies those of
            the frames (status "ok", method "modes").

        The class example shows it in use.
        """
        from ..formulations.dae import DAE
        from ..integrators.solution import Solution
        from ..results import result_of

        i = self._index(i)
        n_frames = checks.integer("n_frames", n_frames, 2, 10**6)
        a = self._amplitude(i, scale)
        period = 1.0 if self.rigid[i] else 2.0 * np.pi / self.omega[i]
        t = np.linspace(0.0, period, n_frames + 1)
        phase = np.sin(2.0 * np.pi * t / period)
        if self._linear is not None:
            return self._spatial_motion(i, a, t, period)
        x = self.equilibrium.x + a * phase[:, None] * self.shapes[i]
        v = (a * 2.0 * np.pi / period) * np.cos(2.0 * np.pi * t / period)[:, None] * self.shapes[i]
        A = self.model.build()
        dae = self._dae if self._dae is not None else DAE(A)
        x, v = _on_joints(dae, x, v)
        frames = [dae.observe(xk, vk, 0.0, np.zeros(dae.n_constraints))
                  for xk, vk in zip([self.equilibrium.x, *x], [np.zeros_like(v[0]), *v])]
        stack = {key: np.array([s[key] for s in frames]) for key in ("joint_q", "joint_qd")}
        e = A.energies(np.concatenate([self.equilibrium.x[None], x]).reshape(len(t) + 1, -1,
                                                                             A.node_size),
                       np.concatenate([np.zeros_like(v[:1]), v]).reshape(len(t) + 1, -1,
                                                                         A.node_size),
                       stack["joint_q"])
        energies = _modal_energies(*e.T, a * phase, 0.0 if self.rigid[i] else self.omega[i])
        zeros = np.zeros(len(t))
        return result_of(self.model, Solution(
            t=t, q=x, nodes=x, velocities=v, joint_q=stack["joint_q"][1:],
            joint_qd=stack["joint_qd"][1:], reactions=np.zeros_like(stack["joint_q"][1:]),
            work=zeros, dissipated=zeros, status="ok",
            message=f"mode {i}, {self.frequencies[i]:.6g} Hz", method="modes",
            formulation="dae", extra={"energies": energies}))

    def _spatial_motion(self, i, a, t, period):
        """:meth:`motion` of a spatial model: the link coordinates ``q* + a sin(omega t) dq``
        through the tree's kinematics (the Result's poses exact for these coordinates)."""
        from ..formulations.spatial_dae import SpatialDAE
        from ..integrators.solution import Solution
        from ..results import result_of

        formulation, q, dq = self._linear
        if isinstance(formulation, SpatialDAE):
            return self._dae_motion(i, a, t, period)
        n = formulation.n_free
        Y = np.zeros((len(t), 2 * n))
        Y[:, :n] = q + a * np.sin(2.0 * np.pi * t / period)[:, None] * dq[i]
        Y[:, n:] = (a * 2.0 * np.pi / period) * np.cos(2.0 * np.pi * t / period)[:, None] * dq[i]
        seen = formulation.observe(np.zeros(len(t)), Y, None)
        zeros = np.zeros(len(t))
        return result_of(self.model, Solution(
            t=t, y=Y, nodes=seen.pop("nodes"), velocities=seen.pop("velocities"),
            joint_q=seen.pop("joint_q"), joint_qd=seen.pop("joint_qd"),
            reactions=seen.pop("reactions"), work=zeros, dissipated=zeros, status="ok",
            message=f"mode {i}, {self.frequencies[i]:.6g} Hz", method="modes",
            formulation="spatial", extra=seen))

    def _dae_motion(self, i, a, t, period):
        """:meth:`motion` of a spatial model with a loop: the spatial DAE's coordinates
        ``x* + a sin(omega t) dx`` (frames normalized by the DAE's poses) and their rates."""
        from ..integrators.solution import Solution
        from ..results import result_of

        dae, x, dx = self._linear
        w = 2.0 * np.pi / period
        X = x + a * np.sin(w * t)[:, None] * dx[i]
        V = (a * w) * np.cos(w * t)[:, None] * dx[i]
        X, V = _on_joints(dae, X, V)
        seen = [dae.observe(xk, vk, 0.0, np.zeros(dae.n_constraints)) for xk, vk in zip(X, V)]
        stack = {key: np.array([s[key] for s in seen]) for key in
                 ("nodes", "velocities", "joint_q", "joint_qd", "kinetic", "gravity",
                  "elastic", "cable_nodes", "cable_velocities") if key in seen[0]}
        rest = dae.observe(x, np.zeros_like(x), 0.0, np.zeros(dae.n_constraints))
        energies = _modal_energies(
            *(np.concatenate([[rest[key]], stack[key]]) for key in
              ("kinetic", "elastic", "gravity")),
            a * np.sin(w * t), 0.0 if self.rigid[i] else self.omega[i])
        stack.update(energies)
        zeros = np.zeros(len(t))
        return result_of(self.model, Solution(
            t=t, q=X, nodes=stack.pop("nodes"), velocities=stack.pop("velocities"),
            joint_q=stack.pop("joint_q"), joint_qd=stack.pop("joint_qd"),
            reactions=np.zeros((len(t), WRENCH * len(self.model.joints))), work=zeros,
            dissipated=zeros, status="ok", message=f"mode {i}, {self.frequencies[i]:.6g} Hz",
            method="modes", formulation="dae", extra=stack))

    def plot(self, i, scale=0.1, ax=None):
        """Draw mode ``i``: the equilibrium and the shape at its two extremes (coloured by the
        time in the period), displaced by ``scale`` times the model's size (stated in the
        title).

        Parameters
        ----------
        i : int
            Mode index (0 the lowest; negative counts from the end).
        scale : float
            Largest displacement over the model's size (dimensionless, > 0).
        ax : matplotlib.axes.Axes, optional
            Where to draw; a new figure when None.

        Returns
        -------
        matplotlib.axes.Axes

        The class example shows it in use.
        """
        motion = self.motion(i, scale, n_frames=4)
        ax = motion.plot(t=motion.t[[0, 1, 3]], ax=ax)
        i = self._index(i)
        what = "rigid-body mode" if self.rigid[i] else f"{self.frequencies[i]:.4g} Hz"
        ax.set_title(f"mode {i}: {what} (largest displacement {scale:g} x model size)")
        return ax

    def animate(self, i, path=None, scale=0.1, n_frames=24, **options):
        """An animation of one period of mode ``i``: :meth:`rancf.Result.animate` of
        :meth:`motion`.

        Parameters
        ----------
        i : int
            Mode index (0 the lowest; negative counts from the end).
        path : str or path-like, optional
            File to write (``.gif`` or ``.mp4``), as :meth:`rancf.Result.animate`.
        scale : float
            Largest displacement over the model's size (dimensionless, > 0).
        n_frames : int
            Frames in the period (>= 2).
        **options
            ``fps``, ``speed``, ``trace`` of :meth:`rancf.Result.animate`.

        Returns
        -------
        rancf.results.plotting.MechanismAnimation

        The class example shows it in use.
        """
        return self.motion(i, scale, n_frames).animate(path=path, **options)


def modes(model, state=None, n=10, tol=1e-10):
    """Natural frequencies and mode shapes of ``model`` linearized about an equilibrium.

    The equations (module :mod:`rancf.studies.vibration`): the DAE formulation's mass matrix and its
    tangent stiffness at the equilibrium, including the load stiffness and the joints' forces
    acting through their curvature, restricted to the motions every joint allows (held and
    driven coordinates frozen, drives at t = 0 or at a given state's coordinates); a dense
    symmetric eigenproblem, O(n^3) in the
    number of coordinates.

    Parameters
    ----------
    model : rancf.Model
        A planar model (trees and closed loops) or a spatial model (``dim=3``: a tree
        linearized in its link coordinates, a model with a closed loop on the spatial DAE's
        absolute coordinates, module :mod:`rancf.studies.vibration`; the beams' damping and efforts'
        dependence on rates left out, as the planar damping is).
    state : rancf.State, optional
        The equilibrium (its velocities are ignored); its driven joints are held at the
        coordinates the state has (a state of a driven run at any time), not at their t = 0
        values. Default: the static equilibrium under
        the loads at t = 0 (:func:`rancf.static`, which reaches the equilibrium of a
        mechanism its loads hold, a pendulum drawn off it, by damped Newton steps). Where
        statics finds none (a floating body, a torque nothing resists), the modes are those
        at the state it stops at, taken as given where it is an equilibrium (as a given
        ``state`` is checked: a body nothing loads), else refused (pass ``state=``); an
        equilibrium statics reaches but finds unstable is refused as unstable, naming its
        mode.
    n : int
        Number of modes, the lowest first (>= 1; fewer when the joints leave fewer free
        motions).
    tol : float
        Newton tolerance of the static solve (as :func:`rancf.static`), and the relative
        residual above which a given ``state`` is refused as not an equilibrium.

    Returns
    -------
    Modes

    Raises
    ------
    TypeError
        ``model`` not a rancf.Model, ``state`` not a rancf.State.
    ValueError
        ``n`` < 1; no equilibrium found; a spatial model with no free coordinate; a
        ``state`` that is not an equilibrium; an unstable equilibrium (a negative ``omega^2``,
        named); a linearized stiffness that is not symmetric (follower loads: the modes of a
        non-conservative system are not those of this eigenproblem).

    Examples
    --------
    A cantilever's first bending frequency, ``1.8751^2 sqrt(E I / (rho A L^4)) / (2 pi)``:

    >>> m = rancf.Model(gravity=(0.0, 0.0), elastic_model="reissner")
    >>> b = m.add_beam(1.0, 8, E=2.1e11, rho=7800.0, A=1e-4, I=1e-10)
    >>> clamp = m.add_joint("fixed", m.ground.point(0.0, 0.0), b.start)
    >>> found = rancf.modes(m, n=3)
    >>> exact = 1.8751041**2 * np.sqrt(2.1e11 * 1e-10 / (7800.0 * 1e-4)) / (2 * np.pi)
    >>> bool(abs(found.frequencies[0] / exact - 1.0) < 1e-4)
    True

    A spatial cantilever bends first along its section's z axis (about y, the smaller I);
    its shapes hold 6 numbers per node (displacement, small rotation vector):

    >>> m3 = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    >>> b3 = m3.add_beam(1.0, 16, E=2.1e11, rho=7800.0, A=1e-4, I=(1e-9, 4e-9), J=2e-9,
    ...                  G=8.1e10, shear=False)
    >>> clamp3 = m3.add_joint("fixed", m3.ground.point(0, 0, 0), b3.start)
    >>> found3 = rancf.modes(m3, n=2)
    >>> found3.shapes.shape
    (2, 102)
    >>> exact = 1.8751041**2 * np.sqrt(2.1e11 * np.array([1e-9, 4e-9]) / (7800.0 * 1e-4)) / (
    ...     2 * np.pi)
    >>> bool(np.all(abs(found3.frequencies / exact - 1.0) < 2e-3))     # second order
    True
    """
    import scipy.linalg

    from ..formulations.dae import DAE, state_branch
    from ..integrators.static import static

    if not isinstance(model, Model):
        raise TypeError(f"model must be a rancf.Model, got {type(model).__name__}")
    n = checks.integer("n", n, 1, 10**9)
    tol = checks.real("tol", tol, low=0.0, low_open=True, high=checks.LARGEST_TOL)
    if model.dim == 3:
        return _spatial_modes(model, state, n, tol)
    A = model.build()
    # a state's joint angles on the turns it was taken with (State.joint_q): the springs and
    # efforts of its equilibrium act as they did there
    branch = state_branch(A, state)
    dae = DAE(A, branch=branch)
    if state is not None and dae.inputs.driven:
        # drives held where the state has them: a fresh DAE (nothing evaluated, nothing cached
        # at t = 0) whose driven joints read the state's coordinates
        if not isinstance(state, State):
            raise TypeError(f"state must be a rancf.State, got {type(state).__name__}")
        x, _ = state.checked(A.n_x)
        q = dae.compiled.joints(np.ascontiguousarray(x, dtype=float), np.zeros(A.n_x), 0.0)[0]
        dae = DAE(A, branch=branch)
        dae.inputs.driven = [(k, _Held(q[k])) for k, _ in dae.inputs.driven]
    if state is None:
        solution = static(model, tol=tol)
        if solution.status != "ok":
            raise ValueError(f"modes: no static equilibrium found ({solution.message}); pass "
                             "state= an equilibrium")
        x, lam = solution.q[0], solution.lam[0]
    else:
        if not isinstance(state, State):
            raise TypeError(f"state must be a rancf.State, got {type(state).__name__}")
        x, _ = state.checked(A.n_x)
        x, _ = dae.initial_state(x, np.zeros(A.n_x))
        lam, residual, scale = _multipliers(dae, x)
    n_x, v0 = A.n_x, np.zeros(A.n_x)
    S = dae.newton_matrix(x, v0, lam, v0, 0.0, x, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, factor=False)
    S = S.toarray()
    K, G = S[:n_x, :n_x], S[n_x:, :n_x]
    asymmetry = np.abs(K - K.T).max()
    if asymmetry > 1e-8 * np.abs(K).max():
        raise ValueError(f"modes: the linearized stiffness is not symmetric (by {asymmetry:.3g}, "
                         f"of {np.abs(K).max():.3g}): follower loads or efforts that depend "
                         "on the motion make the system non-conservative")
    N = scipy.linalg.null_space(G) if G.shape[0] else np.eye(n_x)
    if state is not None:
        _refuse_unbalanced(residual, K, scale, A.size, tol, N)
    n = min(n, N.shape[1])
    K_r = N.T @ (0.5 * (K + K.T)) @ N
    M_r = N.T @ (dae.M @ N)
    omega2, y = scipy.linalg.eigh(K_r, M_r, subset_by_index=[0, n - 1])
    omega2, shapes = _rayleigh_ritz(0.5 * (K + K.T), dae.M, N @ y)
    rigid = _rigid(K, omega2, shapes)
    if ((omega2 < 0.0) & ~rigid).any():
        k = int(np.flatnonzero((omega2 < 0.0) & ~rigid)[0])
        raise ValueError(f"modes: the equilibrium is unstable: mode {k} has omega^2 = "
                         f"{omega2[k]:.6g} (rad/s)^2 < 0")
    shapes = shapes.T
    biggest = np.abs(shapes).argmax(axis=1)
    shapes *= np.sign(shapes[np.arange(n), biggest])[:, None]
    omega = np.where(rigid, 0.0, np.sqrt(np.abs(omega2)))
    return Modes(model, State(x.copy(), v0), omega, shapes, rigid, dae=dae)


class _Held:
    """A drive held at the coordinate q (rad or m): what :func:`modes` puts in place of a
    driven joint's drive for a given state."""

    def __init__(self, q):
        self.q = float(q)

    def drive_values(self, t):
        return self.q, 0.0, 0.0


def _least_norm(G, full_rank):
    """The least-norm solver ``r -> Phi_x^+ r`` of a constraint Jacobian ``G`` (m, n_x),
    sparse or dense. Of full row rank (``full_rank``): ``G^T (G G^T)^{-1} r`` with one sparse
    LU of the m x m ``G G^T`` (a joint's rows touch a few coordinates, so it stays sparse and
    small; its condition is G's squared, of order one for rows of unit-scale positions and
    slopes). Else (redundant joints) dense least squares, whose SVD takes the rank."""
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla

    if full_rank:
        G = sp.csr_matrix(G)
        lu = spla.splu(sp.csc_matrix(G @ G.T))
        return lambda r: G.T @ lu.solve(np.asarray(r, dtype=float))
    D = G.toarray() if hasattr(G, "toarray") else np.asarray(G)
    return lambda r: np.linalg.lstsq(D, r, rcond=None)[0]


def _on_joints(dae, X, V, iterations=10):
    """Frames of a motion along a mode moved onto the joints: each row of ``X`` (n_frames,
    n_x), on the straight line ``x* + s dx`` that satisfies the constraints ``Phi`` of the
    planar or spatial ``dae`` to first order in s only, by Gauss-Newton steps of least norm
    ``-Phi_x^+ Phi`` (only the coordinates the joints hold move; spatial: the Euler
    parameters normalized) until ``|Phi|`` stops falling; each row of ``V`` made tangent,
    ``V - Phi_x^+ Phi_x V``, and scaled back to its kinetic energy ``1/2 V^T M V`` (M at the
    frame): the projection alone would slow a turn by ``cos`` of its angle, a second-order
    loss of the line's exact kinetic energy. ``Phi_x^+`` by :func:`_least_norm` (sparse when
    ``Phi_x`` has full row rank, judged once at the first frame), M sparse: a frame costs
    O(n_x) on a chain. Returns new arrays."""
    X, V = np.array(X, dtype=float), np.array(V, dtype=float)
    if not dae.n_constraints or not len(X):
        return X, V
    G = dae.constraint_jacobian(X[0], 0.0)
    dense = G.toarray() if hasattr(G, "toarray") else np.asarray(G)
    full_rank = np.linalg.matrix_rank(dense) == dae.n_constraints
    del dense
    for k in range(len(X)):
        gap = np.abs(dae.constraint(X[k], 0.0)).max()
        for _ in range(iterations):
            step = _least_norm(dae.constraint_jacobian(X[k], 0.0), full_rank)(
                dae.constraint(X[k], 0.0))
            moved = X[k] - step
            after = np.abs(dae.constraint(moved, 0.0)).max()
            if not after < gap:
                break
            X[k], gap = moved, after
        G = dae.constraint_jacobian(X[k], 0.0)
        tangent = V[k] - _least_norm(G, full_rank)(G @ V[k])
        M = dae.mass(X[k]) if callable(getattr(dae, "mass", None)) else dae.M
        moving = tangent @ (M @ tangent)
        V[k] = tangent * np.sqrt((V[k] @ (M @ V[k])) / moving) if moving > 0.0 else tangent
    return X, V

    def dense(G):
        return G.toarray() if hasattr(G, "toarray") else np.asarray(G)

    for k in range(len(X)):
        gap = np.abs(dae.constraint(X[k], 0.0)).max()
        for _ in range(iterations):
            step = np.linalg.lstsq(dense(dae.constraint_jacobian(X[k], 0.0)),
                                   dae.constraint(X[k], 0.0), rcond=None)[0]
            moved = X[k] - step
            after = np.abs(dae.constraint(moved, 0.0)).max()
            if not after < gap:
                break
            X[k], gap = moved, after
        G = dense(dae.constraint_jacobian(X[k], 0.0))
        tangent = V[k] - np.linalg.lstsq(G, G @ V[k], rcond=None)[0]
        M = dense(dae.mass(X[k]) if callable(getattr(dae, "mass", None)) else dae.M)
        moving = tangent @ M @ tangent
        V[k] = tangent * np.sqrt((V[k] @ M @ V[k]) / moving) if moving > 0.0 else tangent
    return X, V


def _modal_energies(kinetic, elastic, gravity, s, omega):
    """The energies (J) of a motion along a mode of angular frequency ``omega`` (rad/s; 0 for a
    rigid-body mode) with its shape's amplitude ``s`` (n_frames,) at the frames, unit modal
    mass: ``kinetic``, ``elastic``, ``gravity`` (n_frames + 1,) those the formulation
    evaluates at the equilibrium and then at the frames (on the joints, :func:`_on_joints`).
    The linearized motion's potential is ``V* + 1/2 s^2 omega^2`` (``1/2 s^2 shape^T K
    shape``); gravity's potential is that of the frames (on the joints, right to second
    order); the elastic energy (the elements' and springs', with the share of K of any load
    that depends on the coordinates) is the rest, ``elastic* + 1/2 s^2 omega^2 - (gravity -
    gravity*)``. The split is the linearization's: a rigid pendulum's elastic column moves
    by a rest of fourth order in its swing theta, a fraction of order theta^2 of its energy
    (gravity's potential is right only to second order). The frames' own elastic energy is not used: the straight line stretches the
    elements at fourth order in s (:meth:`Modes.motion`). Returns ``{kinetic, elastic,
    gravity}`` (n_frames,)."""
    kinetic, elastic, gravity = (np.asarray(e, dtype=float) for e in (kinetic, elastic, gravity))
    potential = 0.5 * (np.asarray(s) * omega) ** 2
    return {"kinetic": kinetic[1:], "gravity": gravity[1:],
            "elastic": elastic[0] + potential - (gravity[1:] - gravity[0])}


def _multipliers(dae, x):
    """The multipliers that best hold ``x`` in equilibrium, the least-squares solution of
    ``Phi_x^T lambda = F``, the force they leave unbalanced and the forces' scale
    (``max(|F|, 1)``, N): :func:`_refuse_unbalanced` judges them."""
    force = dae.force(x, np.zeros_like(x), 0.0)
    if not dae.n_constraints:
        lam, residual = np.zeros(0), force
    else:
        G = dae.constraint_jacobian(x, 0.0)
        G = G.toarray() if hasattr(G, "toarray") else np.asarray(G)
        lam = np.linalg.lstsq(G.T, force, rcond=None)[0]
        residual = force - G.T @ lam
    return lam, residual, max(np.abs(force).max(), 1.0)


def _frozen(model, x=None, elastic_cables=True):
    """The spatial formulation of ``model`` with each drive held (its rates zero) at its value
    at t = 0, or, given the bodies' poses x (12 n_bodies, then 6 per cable node), at the driven
    coordinate those poses have (a state of a driven run at any time); the loads and efforts
    as :func:`rancf.formulations.spatial.of_model` gives them (evaluated at t = 0 here). With
    ``elastic_cables=False`` its cables have no stiffness (EA = EI = 0:
    :func:`_cable_stiffness` gives theirs)."""
    import dataclasses

    from ..formulations import spatial

    base = spatial.of_model(model)
    if x is None:
        drives = {j.index: float(j.drive_values(0.0)[0]) for j in model.joints
                  if j.drive is not None}
    else:
        q, tree = base.link_coordinates(x), base.tree
        drives = {j.index: float(q[tree.q_offset[tree.joint_body[j.index]]])
                  for j in model.joints if j.drive is not None}
    base.inputs.at_time(0.0)
    loads = [(base.inputs.load_force[k].copy(), base.inputs.load_moment[k].copy())
             for k in range(len(base.tree.load_body))]
    efforts = {j.index: j.effort_value if callable(j.effort) else j.effort
               for j in model.joints if j.effort is not None}
    tree = base.model_tree
    if not elastic_cables:
        tree = dataclasses.replace(tree, cable_EA=np.zeros_like(tree.cable_EA),
                                   cable_EI=np.zeros_like(tree.cable_EI))
    return spatial.Spatial(tree, loads, efforts, drives)


def _length_coordinates(tree, cables=None):
    """True for the link coordinates that are lengths (m; slides and translations), False for
    angles (rad) and a cable's slopes (dimensionless), (n_q,); with ``cables`` (the recursion's
    :func:`~rancf.formulations.spatial.cable_layout`) the cable nodes' coordinates after the
    bodies' (an element's ``z`` is a position difference, then a slope difference)."""
    from ..formulations._spatial import C_NODE
    from ..joints.kind import link_motion

    offsets = tree.q_offset if cables is None else cables["q_offset"]
    mask = np.zeros(int(offsets[-1]), bool)
    for i, motion in enumerate(tree.motion):
        # the translation's coordinates come first
        first = int(tree.q_offset[i])
        mask[first:first + link_motion(int(motion)).n_translation] = True
    if cables is not None:
        for i in np.flatnonzero(cables["motion"] == C_NODE):
            mask[int(offsets[i]):int(offsets[i]) + 3] = True
    return mask


def _spatial_modes(model, state, n, tol):
    """:func:`modes` of a spatial tree (module docstring): ``K dq = omega^2 M dq`` in the free
    link coordinates, a dense symmetric eigenproblem."""
    import scipy.linalg

    from ..formulations import spatial
    from ..integrators import static as statics
    from ..results.outputs import on_stored_turns

    tree = model.build()
    if state is not None and not isinstance(state, State):
        raise TypeError(f"state must be a rancf.State, got {type(state).__name__}")
    n_b, n_c = tree.n_bodies, tree.n_cable_nodes
    x = None if state is None else state.checked(FRAME * n_b + CABLE_NODE * n_c,
                                                   TWIST * n_b + CABLE_NODE * n_c)[0]
    stored = None if state is None else state.checked_joint_q(
        sum(j.type.spatial.n_coordinates for j in model.joints))
    if len(tree.loop_joint) or spatial.cable_refusal(tree):
        return _spatial_loop_modes(model, x, n, tol, stored)
    formulation = _frozen(model, x)
    n_free = formulation.n_free
    if not n_free:
        raise ValueError("modes: the model has no free coordinate (every joint is fixed or "
                         "driven and there is no beam): nothing can vibrate")
    problem = spatial.implicit_problem(formulation)
    lengths = np.where(_length_coordinates(formulation.tree, formulation.cables)[
        formulation.kernel.arrays["smap"][:formulation.n_q] >= 0], tree.size, 1.0)
    failure = None
    if state is None:
        solution = statics.static(model, 10, tol, 50, "sparse")
        q = np.array(solution.q[-1], dtype=float)
        checked_state = solution.status != "ok"
        if checked_state:
            # statics finds no equilibrium (a floating body; a torque nothing resists) or
            # stops at an unstable one it cannot leave: the state it stops at (the
            # reference configuration where its first load step fails) is taken as given,
            # checked below as a given state is, and refused where it is no equilibrium
            failure = (f"modes: no static equilibrium found ({solution.message}), and the "
                       "state statics stopped at is none; pass state= an equilibrium")
    else:
        y = formulation.state_of(x, np.zeros(TWIST * n_b + CABLE_NODE * n_c))
        if stored is not None:
            # the angles on the state's turns (State.joint_q), where its springs and efforts
            # are in equilibrium
            on_stored_turns(model, formulation, stored[None], y[None])
        q = y[:n_free]
        checked_state = True
    y = np.concatenate([q, np.zeros(n_free)])
    # body Jacobians: the bodies' velocities (v, w) of unit rates, column by column; a cable
    # node's: the rates of its [r, r']
    J = np.zeros((n_b, 6, n_free))
    Jc = np.zeros((n_c, 6, n_free))
    for k in range(n_free):
        y[n_free + k] = 1.0
        J[:, :, k] = formulation.kinematics(y)[2]
        if n_c:
            Jc[:, :, k] = formulation.cable_coordinates()[1]
        y[n_free + k] = 0.0
    _, frames, _ = formulation.kinematics(y)
    inertia = np.einsum("nij,njk,nlk->nil", frames, tree.inertia, frames)
    linear, angular = J[:, :3].reshape(3 * n_b, n_free), J[:, 3:].reshape(3 * n_b, n_free)
    M = linear.T @ (np.repeat(tree.mass, 3)[:, None] * linear) + \
        angular.T @ (inertia @ J[:, 3:]).reshape(3 * n_b, n_free)
    weight = np.einsum("nik,n,i->k", J[:, :3], tree.mass, tree.gravity)
    if n_c:
        mass, gravity = _cable_mass(tree, Jc)
        M += mass
        weight += gravity
    M = 0.5 * (M + M.T)
    if n_c:
        # the cables' elastic stiffness written out: differences of their large elastic
        # forces (EA |r'| - EA, round-off eps EA) would bury the chain's gravity stiffness
        bare = spatial.implicit_problem(_frozen(model, x, elastic_cables=False))
        K, error = _stiffness(bare, q, lengths)
        K = K + _cable_stiffness(formulation, q, Jc)
    else:
        K, error = _stiffness(problem, q, lengths)
    if checked_state:
        zero = np.zeros(n_free)
        _refuse_unbalanced(-problem.residual(q, zero, 0.0, zero, 0.0, 1.0), K,
                           max(1.0, np.abs(weight).max()), tree.size, tol, failure=failure)
    biggest = max(np.abs(K).max(), 1e-300)
    asymmetry = np.abs(K - K.T).max()
    if asymmetry > 1e-8 * biggest:
        raise ValueError(f"modes: the linearized stiffness is not symmetric (by {asymmetry:.3g}, "
                         f"of {biggest:.3g}): follower loads or efforts that depend "
                         "on the motion make the system non-conservative")
    K = 0.5 * (K + K.T)
    n = min(n, n_free)
    # M of a long chain in relative coordinates is ill-conditioned (1e12 for a slender beam
    # of 32 elements): eigh(K, M) would factor M; _lowest factors K + sigma M instead
    omega2, dq = _rayleigh_ritz(K, M, _lowest(K, M, n))
    # rigid: omega^2 within the eigensolver's and K's error along the mode (the shared
    # rule, K's error the differences' own estimate), not a share of the largest omega^2: a
    # slender beam's shear-rotation modes make that 1e12 times its first bending one
    rigid = _rigid(K, omega2, dq, error)
    if ((omega2 < 0.0) & ~rigid).any():
        k = int(np.flatnonzero((omega2 < 0.0) & ~rigid)[0])
        raise ValueError(f"modes: the equilibrium is unstable: mode {k} has omega^2 = "
                         f"{omega2[k]:.6g} (rad/s)^2 < 0")
    shapes = np.concatenate([np.einsum("nik,km->mni", J, dq).reshape(n, TWIST * n_b),
                             np.einsum("nik,km->mni", Jc, dq).reshape(n, CABLE_NODE * n_c)],
                            axis=1)
    biggest = np.abs(shapes).argmax(axis=1)
    sign = np.sign(shapes[np.arange(n), biggest])
    shapes *= sign[:, None]
    dq = (dq * sign).T
    omega = np.where(rigid, 0.0, np.sqrt(np.abs(omega2)))
    r, frames, _ = formulation.kinematics(y)
    x = np.concatenate([np.concatenate([r, frames.reshape(n_b, 9)], axis=1).ravel(),
                        formulation.cable_coordinates()[0].ravel() if n_c else []])
    return Modes(model, State(x, np.zeros(TWIST * n_b + CABLE_NODE * n_c)), omega, shapes, rigid,
                 linear=(formulation, q, dq))


def _cable_stiffness(formulation, q, Jc):
    """The cables' elastic share of ``K = -dF/dq`` (n_free, n_free) at rest at q: with F's
    share ``Jc^T f`` (f the elements' elastic forces on their nodes' ``[r, r']``,
    :func:`rancf.elements.ancf_cable.elastic_force`), ``Jc^T K_e Jc - (dJc^T/dq) f``, the
    elements' exact tangent stiffness :func:`~rancf.elements.ancf_cable.tangent_stiffness`
    and the curvature of the map from link coordinates to cable coordinates. A cable's nodes
    are linear in its element coordinates and a spherical root's, so that curvature lives
    among the bodies' coordinates and the clamped roots' stretch (a clamp on a turning body):
    central differences of those columns of Jc (steps 1e-6, times the model size for
    lengths), zero for a cable hung from the ground."""
    from ..elements import ancf_cable
    from ..formulations._spatial import C_CLAMP

    tree, cables = formulation.model_tree, formulation.cables
    n = formulation.n_free
    y = np.concatenate([q, np.zeros(n)])
    formulation.kinematics(y)
    e = formulation.cable_coordinates()[0]
    pairs = np.asarray(tree.cable_element, dtype=int).reshape(-1, 2)
    K = np.zeros((n, n))
    f = np.zeros_like(e)
    for k, (a, b) in enumerate(pairs):
        # E = 1: the kernels take E A and E I
        args = (float(tree.cable_length[k]), 1.0, float(tree.cable_EA[k]),
                float(tree.cable_EI[k]))
        rest = np.concatenate([tree.cable_x0[a], tree.cable_x0[b]]) \
            if np.any(tree.cable_rest[k]) else None
        ek = np.concatenate([e[a], e[b]])
        Je = np.concatenate([Jc[a], Jc[b]])
        K += Je.T @ ancf_cable.tangent_stiffness(ek, *args, rest=rest) @ Je
        fk = ancf_cable.elastic_force(ek, *args, rest=rest)
        f[a] += fk[:6]
        f[b] += fk[6:]
    # the columns whose cable rates depend on q: the bodies' links' and the clamps' stretch
    smap = formulation.kernel.arrays["smap"]
    qo = cables["q_offset"]
    nb = formulation.tree.n_bodies
    curved = [int(smap[j]) for i in range(nb + len(e)) if i < nb or cables["motion"][i] == C_CLAMP
              for j in range(int(qo[i]), int(qo[i + 1])) if smap[j] >= 0]
    if not curved:
        return K
    lengths = np.where(_length_coordinates(formulation.tree, cables)[smap[:formulation.n_q]
                                                                     >= 0], tree.size, 1.0)

    def generalized(z):
        # (Jc[:, :, l] . f) for the columns l in curved, at the coordinates z
        out = np.empty(len(curved))
        v = np.concatenate([z, np.zeros(n)])
        for m, l in enumerate(curved):
            v[n + l] = 1.0
            formulation.kinematics(v)
            out[m] = np.sum(formulation.cable_coordinates()[1] * f)
            v[n + l] = 0.0
        return out

    for k in curved:
        h = 1e-6 * max(lengths[k], abs(q[k]))
        plus, minus = q.copy(), q.copy()
        plus[k] += h
        minus[k] -= h
        K[curved, k] -= (generalized(plus) - generalized(minus)) / (2.0 * h)
    formulation.kinematics(y)
    return K


def _cable_mass(tree, Jc):
    """The cables' share of the mass matrix in the link coordinates (n_free, n_free) and of
    the weight's generalized force (n_free,): ``sum_e Jc_e^T M_e Jc_e`` and ``Jc_e^T F_e``,
    with ``M_e``, ``F_e`` the element's constant consistent mass and weight in its nodes'
    coordinates ``[r, r']`` (:func:`rancf.elements.ancf_cable.mass_matrix`,
    :func:`~rancf.elements.ancf_cable.gravity_force`) and ``Jc_e`` (12, n_free) the rates of
    those coordinates of unit link rates."""
    from ..elements import ancf_cable

    pairs = np.asarray(tree.cable_element, dtype=int).reshape(-1, 2)
    M, F = 0.0, 0.0
    for e, (a, b) in enumerate(pairs):
        l, rhoA = float(tree.cable_length[e]), float(tree.cable_rhoA[e])
        Je = np.concatenate([Jc[a], Jc[b]])
        M = M + Je.T @ ancf_cable.mass_matrix(rhoA, 1.0, l) @ Je
        F = F + Je.T @ ancf_cable.gravity_force(rhoA, 1.0, l, tree.gravity)
    return M, F


def _spatial_loop_modes(model, poses, n, tol, stored=None):
    """:func:`modes` of a spatial model with a closed loop (or cables the recursion cannot
    run: a cable pinned at both ends), on the spatial DAE (absolute coordinates, Euler
    parameters, the cable nodes' ``[r, r']``; :mod:`rancf.formulations.spatial_dae`), as the
    planar DAE's: at the equilibrium x* with multipliers lambda*, ``M dx'' + K dx = 0`` on the
    motions the constraints allow, ``Phi_x dx = 0`` (the joints, the frozen drives and the
    Euler parameters' norms), ``K = -dF/dx + d(Phi_x^T lambda*)/dx``; the null space N of
    ``Phi_x`` turns it into the symmetric eigenproblem of ``N^T K N`` and ``N^T M N``. The
    shapes per body: ``dr`` and the global small rotation ``2 E(p) dp``; then per cable node
    its ``[dr, dr']``. ``stored``: the joint coordinates of the State of ``poses``
    (``State.joint_q``: its springs' and efforts' angles on their turns), or None."""
    import scipy.linalg

    from ..formulations import spatial
    from ..formulations.spatial_dae import SpatialDAE, _E, quaternion
    from ..integrators import static as statics

    tree = model.build()
    dae = SpatialDAE(tree, *spatial.model_inputs(model))
    nb, nc = tree.n_bodies, tree.n_cable_nodes
    if poses is None:
        solution = statics.static(model, 10, tol, 50, "sparse")
        if solution.status != "ok":
            raise ValueError(f"modes: no static equilibrium found ({solution.message}); pass "
                             "state= an equilibrium")
        x, lam = np.array(solution.q[-1], dtype=float), np.array(solution.lam[-1], dtype=float)
    else:
        poses = np.asarray(poses, dtype=float)
        X = poses[:FRAME * nb].reshape(nb, FRAME)
        x = np.concatenate([np.concatenate([X[:, :3], quaternion(X[:, 3:].reshape(nb, 3, 3))],
                                           axis=1).ravel(), poses[FRAME * nb:]])
        gap = np.abs(dae.constraint(x, 0.0)).max(initial=0.0)
        if gap > 1e-8 * tree.size:
            raise ValueError(f"state: the poses do not satisfy the joints (off by {gap:.3g}; "
                             "drives at t = 0); pass an equilibrium of this model "
                             "(rancf.static(model).state(0))")
        if stored is not None:
            # the springs' and efforts' angles on the state's turns (State.joint_q)
            dae.accept_stored_angles(x, np.zeros_like(x), stored)
        lam, residual, scale = _multipliers(dae, x)
    zero = np.zeros_like(x)
    K = (dae.stiffness(x, zero, 0.0) + dae.constraint_curvature(x, lam, 0.0)).toarray()
    biggest = max(np.abs(K).max(), 1e-300)
    asymmetry = np.abs(K - K.T).max()
    if asymmetry > 1e-6 * biggest:
        raise ValueError(f"modes: the linearized stiffness is not symmetric (by {asymmetry:.3g}, "
                         f"of {biggest:.3g}): follower loads make the system "
                         "non-conservative")
    G = dae.constraint_jacobian(x, 0.0)
    N = scipy.linalg.null_space(G.toarray() if hasattr(G, "toarray") else np.asarray(G))
    if poses is not None:
        _refuse_unbalanced(residual, K, scale, tree.size, tol, N)
    if not N.shape[1]:
        raise ValueError("modes: the model has no free motion (the joints and drives hold "
                         "every body): nothing can vibrate")
    n = min(n, N.shape[1])
    M = dae.mass(x)
    M = M.toarray() if hasattr(M, "toarray") else np.asarray(M)
    K_r, M_r = N.T @ (0.5 * (K + K.T)) @ N, N.T @ M @ N
    # a slender beam's bodies carry a tiny rotary inertia: M_r is ill-conditioned, as a
    # tree's M (_lowest)
    omega2, dx = _rayleigh_ritz(0.5 * (K + K.T), M, N @ _lowest(K_r, 0.5 * (M_r + M_r.T), n))
    rigid = _rigid(K, omega2, dx)
    if ((omega2 < 0.0) & ~rigid).any():
        k = int(np.flatnonzero((omega2 < 0.0) & ~rigid)[0])
        raise ValueError(f"modes: the equilibrium is unstable: mode {k} has omega^2 = "
                         f"{omega2[k]:.6g} (rad/s)^2 < 0")
    dx = dx.T
    bodies = dx[:, :POSE_SIZE * nb].reshape(n, nb, POSE_SIZE)
    p = x[:POSE_SIZE * nb].reshape(nb, POSE_SIZE)[:, 3:]
    shapes = np.concatenate([bodies[:, :, :3], 2.0 * np.einsum("bia,nba->nbi", _E(p),
                                                               bodies[:, :, 3:])], axis=2)
    shapes = np.concatenate([shapes.reshape(n, TWIST * nb), dx[:, POSE_SIZE * nb:]], axis=1)
    biggest = np.abs(shapes).argmax(axis=1)
    sign = np.sign(shapes[np.arange(n), biggest])
    shapes *= sign[:, None]
    dx = dx * sign[:, None]
    omega = np.where(rigid, 0.0, np.sqrt(np.abs(omega2)))
    seen = dae.observe(x, zero, 0.0, lam)
    return Modes(model, State(np.concatenate([seen["nodes"][:FRAME * nb], x[POSE_SIZE * nb:]]),
                              np.zeros(TWIST * nb + CABLE_NODE * nc)), omega, shapes, rigid,
                 linear=(dae, x, dx))


#: The shift of :func:`_lowest`, a share of K's scale over M's: ``sigma = SHIFT max|K| /
#: max|M|`` (1/s^2).
SHIFT = 1e-6


def _lowest(K, M, n):
    """The vectors (n_x, n) of the n lowest eigenvalues of ``K v = omega^2 M v`` (K, M
    symmetric, n_x x n_x, M positive definite), by a dense shift-invert: the n largest
    ``mu = 1 / (omega^2 + sigma)`` of ``M v = mu (K + sigma M) v``, sigma = ``SHIFT max|K| /
    max|M|``; the caller refines their values by :func:`_rayleigh_ritz`.

    Why not ``eigh(K, M)``: it factors M, and the round-off of ``L^-1 K L^-T`` is eps
    ``|K| |M^-1|``. A chain's mass in relative coordinates is ill-conditioned (a slender
    beam's node rotations carry its tiny rotary inertia: cond M = 2.4e12 at 32 elements, I /
    A = 1e-9 m^2) while K holds its axial stiffness (EA / EI = 1e9): that round-off is 1e6
    times its first bending omega^2. Shifted and inverted, the lowest modes are the largest
    mu, resolved to eps of mu_max = 1 / (omega_1^2 + sigma). sigma lifts the rigid-body modes
    (omega^2 = 0, K singular) 1e7 above the differences' error of K (1e-13 of max|K|) and
    keeps the low modes apart (mu_i differ in their omega_i^2 relative to sigma).

    Where ``K + sigma M`` is not positive definite (an unstable equilibrium: a negative
    omega^2 below -sigma), the pencil's QZ decomposition (:func:`_lowest_qz`)."""
    import scipy.linalg

    sigma = SHIFT * max(np.abs(K).max(), 1e-300) / np.abs(M).max()
    try:
        _, V = scipy.linalg.eigh(M, K + sigma * M, subset_by_index=[len(K) - n, len(K) - 1])
        return V[:, ::-1]
    except np.linalg.LinAlgError:
        return _lowest_qz(K, M, n)


def _lowest_qz(K, M, n):
    """The vectors (n_x, n) of the n lowest eigenvalues of ``K v = omega^2 M v`` (K, M
    symmetric, M positive definite) from the pencil's real QZ decomposition
    ``Q^T K Z = S``, ``Q^T M Z = T`` (backward stable in K and M separately, no factor of
    either; a few times slower than :func:`_lowest`'s shift-invert, which it stands in for
    where ``K + sigma M`` is indefinite).

    QZ does not keep the symmetry: a double eigenvalue (a symmetric body's two equal swings)
    can come out as a pair ``omega^2 +- i delta`` with delta of the order of the round-off,
    a 2 x 2 block of S and T whose eigenvectors are complex conjugates; the real parts of
    the two are one vector, and the pair's second mode would be lost. So the eigenvalues
    whose real parts are at most the n-th lowest's, or above it by less than 1e-8 of the
    largest magnitude (a near-double eigenvalue that the cut would split asks QZ for an
    ill-conditioned swap), are reordered to the front of the Schur form
    (``scipy.linalg.ordqz``; a pair is moved whole, its real parts equal), and the leading
    columns of Z, orthonormal and real, span their deflating subspace: the n modes' and
    maybe a few more. The Rayleigh-Ritz values of the symmetric K and M on that subspace
    are real, and its n lowest vectors are returned. Where QZ still refuses the reordering
    (``ValueError``: a swap too ill-conditioned), the real and imaginary parts of the
    chosen eigenvectors (``scipy.linalg.eig``), a pair's both, span the subspace instead."""
    import scipy.linalg

    cut = []

    def chosen(alpha, beta):
        # beta > 0 for a positive definite M: no infinite eigenvalue
        real = (alpha / beta).real
        if not cut:
            lowest = np.sort(real)[n - 1]
            # near-tie margin 1e-8 ~ sqrt(eps) of the largest magnitude: a double eigenvalue
            # of a nonsymmetric pencil (a nearly defective pair, the complex pair above)
            # perturbed by eps ||K|| splits by up to sqrt(eps) of the scale, so values closer
            # than that to the n-th may be its twin
            cut.append(lowest + 1e-8 * max(np.abs(real).max(), 1e-300))
        return real <= cut[0]

    try:
        S, _, alpha, beta, _, Z = scipy.linalg.ordqz(K, M, sort=chosen, output="real")
        m = int(chosen(alpha, beta).sum())
        # the reordered values' round-off must not end the columns inside a 2 x 2 block
        V = Z[:, :m + int(0 < m < len(K) and S[m, m - 1] != 0.0)]
    except ValueError:
        values, W = scipy.linalg.eig(K, M)
        W = W[:, chosen(values, np.ones(len(values)))]
        U, sizes, _ = np.linalg.svd(np.concatenate([W.real, W.imag], axis=1),
                                    full_matrices=False)
        # the eigenvectors of a (near-)double eigenvalue are resolved only to sqrt(eps) ~ 1e-8
        # (as the cut's margin): singular values below 1e-8 of the largest are that error in
        # columns that are dependent in exact arithmetic (a pair's real and imaginary parts)
        V = U[:, sizes > 1e-8 * sizes[0]]
    K_v, M_v = V.T @ K @ V, V.T @ M @ V
    _, turn = scipy.linalg.eigh(0.5 * (K_v + K_v.T), 0.5 * (M_v + M_v.T))
    return V @ turn[:, :n]


def _rayleigh_ritz(K, M, V):
    """The Rayleigh-Ritz values and vectors of ``K v = omega^2 M v`` on the span of the
    columns of V (n_x, n): ``omega^2`` (n,) ascending and the vectors (n_x, n), unit modal
    mass, from the n x n problem ``V^T K V z = omega^2 V^T M V z``.

    Applied to the vectors a dense solver found, the values are exact to second order in
    the vectors' error. The solver's own eigenvalues are not: their absolute error is about
    eps times the largest eigenvalue of the problem it transformed, and a slender beam's
    stretch modes make that 1e9 times its first bending one (16 elements, ``A L^2 / I =
    1e6``), an error of 1e-7 of the first frequency that the BLAS kernels round
    differently. The products ``V^T K V`` keep K's structure (a straight beam's bending
    apart from its stretch), so the values' round-off is that of the bending alone."""
    import scipy.linalg

    K_v, M_v = V.T @ (K @ V), V.T @ (M @ V)
    omega2, turn = scipy.linalg.eigh(0.5 * (K_v + K_v.T), 0.5 * (M_v + M_v.T))
    return omega2, V @ turn


def _stiffness(problem, q, lengths):
    """``K = -dF/dq`` (n, n) at rest at q and an estimate of its entries' error (n, n), >= 0:
    central differences of the generalized forces F by the Newton-Euler recursion (the
    implicit loop's residual ``-F`` at rest: no M^-1 and its round-off), steps h of 1e-6 of
    ``lengths`` (the model size for lengths, 1 rad for angles) or of the coordinate.

    The error of a central difference is ``T h^2 + R / h``: truncation (T the third
    derivative's) and F's round-off R over the step, ``eps |f|`` of the largest forces f that
    make an entry (an element's axial force, ``EA`` times its strain: a loaded stiff strip's
    entries are off by 1e-3 N m/rad at h = 1e-6 where its torsion entries are 0.57).
    The same differences at 2h are off by ``4 T h^2 + R' / (2 h)`` with an independent
    round-off R', so ``|K_h - K_2h|`` samples that error (the truncation's three times over);
    K's asymmetry ``|K_h - K_h^T|`` is a second sample (at an equilibrium of a conservative
    system K is the potential's Hessian, symmetric); the estimate is the larger of the two,
    entry by entry."""
    n = len(q)
    zero = np.zeros(n)

    def differences(factor):
        step = factor * np.maximum(lengths, np.abs(q))
        K = np.zeros((n, n))
        for k in range(n):
            plus, minus = q.copy(), q.copy()
            plus[k] += step[k]
            minus[k] -= step[k]
            K[:, k] = (problem.residual(plus, zero, 0.0, zero, 0.0, 1.0)
                       - problem.residual(minus, zero, 0.0, zero, 0.0, 1.0)) / (2.0 * step[k])
        return K
    K = differences(1e-6)
    return K, np.maximum(np.abs(K - differences(2e-6)), np.abs(K - K.T))


def _refuse_unbalanced(force, K, scale, size, tol, N=None, failure=None):
    """Refuse a given state that is not an equilibrium, for the planar DAE, the spatial DAE
    and the spatial trees alike.

    The generalized force left at rest ``force`` (n,) is split, by least squares along the
    motions the constraints allow (the orthonormal columns of ``N``, (n, k); None: every
    coordinate is free, the trees' relative coordinates), into the stiffness ``K`` (n, n) of a
    displacement and what no stiffness can balance (along rigid-body motions): the
    displacement must stay below ``max(tol, 1e-8)`` times the model size ``size`` (m;
    Newton's own test in :func:`rancf.static`: a stiff model's exact equilibrium leaves the
    round-off of its large element forces), the rest below ``1e-8`` of the forces' scale
    ``scale`` (``max(|F|, 1)`` of the applied forces or the weight's generalized force).
    ``failure``: the message to raise in place of the generic one."""
    f, K_r = (force, K) if N is None else (N.T @ force, N.T @ K @ N)
    move = np.linalg.lstsq(K_r, f, rcond=1e-12)[0] if K_r.any() else np.zeros_like(f)
    displacement = np.abs(move if N is None else N @ move).max(initial=0.0)
    left = np.abs(f - K_r @ move).max(initial=0.0)
    if displacement > max(tol, 1e-8) * size or left > 1e-8 * scale:
        if failure is not None:
            raise ValueError(failure)
        raise ValueError(f"modes: state is not an equilibrium (unbalanced generalized force "
                         f"{np.abs(force).max(initial=0.0):.3g} of {scale:.3g}: a displacement "
                         f"of {displacement:.3g} or {left:.3g} along free motions); pass a "
                         "static equilibrium (rancf.static(model).state(0)) or leave "
                         "state=None")
