"""The spatial beam element on the SE(3) strain, in relative nodal coordinates (theory: Spatial
beams; Sonneville, Cardona and Bruls, CMAME 2014).

A beam has nodes k = 0..n, each a rigid body with a position ``r_k`` (m) and a frame ``A_k``
(columns: beam axis x, section axes y and z). Element k joins node k-1 to node k; its six
coordinates ``e = (u, psi)`` are node k's motion seen from node k-1::

    r_k = r_{k-1} + A_{k-1} (s + u),      A_k = A_{k-1} exp(psi^) Q,

with ``s = A0_{k-1}^T (r0_k - r0_{k-1})`` (m) and ``Q = A0_{k-1}^T A0_k`` the reference relative
position and orientation. With ``d = s + u``, ``R = exp(psi^) Q``, ``p = log(R)`` and ``J_l`` the
left Jacobian of SO(3), the element's strains and energy are::

    gamma = J_l(p)^-1 d / l,   kappa = p / l,   eps = (gamma, kappa),
    U = 1/2 l (eps - eps0)^T C (eps - eps0),   C = diag(EA, k_y G A, k_z G A, G J, E I_y, E I_z),

``eps0`` the strains of the reference pose and ``l`` its length (:func:`reference_strain`): the
strains are the twist of the SE(3) logarithm of the relative pose divided by l, constant along
the element. They are objective (a rigid motion of both nodes leaves them unchanged) and exact
for constant strain (a circular arc gives ``gamma = e1`` and ``kappa`` its curvature: no
membrane locking). The section forces are ``sigma = C (eps - eps0 + c eps')`` (normal force,
two shear forces, torsion and two bending moments in the element frame: N, N, N, N m, N m,
N m), Kelvin-Voigt damping time ``c`` (s). The mass is lumped at the nodes
(:func:`node_inertia`).

The kernels are compiled (``_spatial_beam.pyx``, C interface in ``_spatial_beam.pxd``); the
functions here check their input and call them, for tests and for building a model's constant
arrays.

Known caveats: the element is second-order accurate in its length (constant strain per
element); its rotation psi must stay below pi in norm, which it does as long as an element
turns by much less than a half turn relative to its neighbour.
"""
import numpy as np

from ..utilities import checks
from . import _spatial_beam


def _rotation(name, value):
    """``value`` as a proper rotation matrix (3, 3) (orthogonal to 1e-9, determinant +1)."""
    try:
        Q = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 3 x 3 rotation matrix, got {value!r}") from None
    if Q.shape != (3, 3) or not np.all(np.isfinite(Q)):
        raise ValueError(f"{name} must be a finite 3 x 3 rotation matrix, got {value!r}")
    if np.abs(Q.T @ Q - np.eye(3)).max() > 1e-9 or np.linalg.det(Q) < 0.0:
        raise ValueError(f"{name} must be a rotation matrix (Q^T Q = I to 1e-9, det Q = +1), "
                         f"got {value!r}")
    return np.ascontiguousarray(Q).ravel()


def _stiffness(C):
    C = checks.vector("C", C, 6)
    if np.any(C < 0.0):
        raise ValueError(f"C must have non-negative entries, got {C!r}")
    return C


def section_stiffness(E, G, A, Iy, Iz, J, kappa=(5.0 / 6.0, 5.0 / 6.0)):
    """The diagonal section stiffness ``C = diag(EA, k_y G A, k_z G A, G J, E I_y, E I_z)``.

    Parameters
    ----------
    E, G : float
        Young's and shear modulus (Pa), > 0.
    A : float
        Section area (m^2), > 0.
    Iy, Iz : float
        Second moments of area about the section's y and z axes (m^4), > 0.
    J : float
        Torsion constant (m^4), > 0.
    kappa : (float, float)
        Shear correction factors ``(k_y, k_z)``, > 0 (5/6: a rectangle).

    Returns
    -------
    ndarray (6,)
        N, N, N, N m^2, N m^2, N m^2.

    Examples
    --------
    >>> from rancf.elements import spatial_beam
    >>> spatial_beam.section_stiffness(2e11, 8e10, 1e-4, 1e-9, 2e-9, 3e-9, (1.0, 1.0))
    array([2.0e+07, 8.0e+06, 8.0e+06, 2.4e+02, 2.0e+02, 4.0e+02])
    """
    E, G = checks.positive("E", E), checks.positive("G", G)
    A, Iy, Iz, J = (checks.positive(n, v) for n, v in (("A", A), ("Iy", Iy), ("Iz", Iz),
                                                       ("J", J)))
    ky, kz = checks.vector("kappa", kappa, 2)
    if ky <= 0.0 or kz <= 0.0:
        raise ValueError(f"kappa must be two positive shear factors, got {kappa!r}")
    return np.array([E * A, ky * G * A, kz * G * A, G * J, E * Iy, E * Iz])


def reference_strain(s, Q):
    """Length and strains of an element's reference pose.

    ``l = |J_l(p0)^-1 s|`` with ``p0 = log(Q)``: the length of the translation part of the SE(3)
    logarithm of the pose ``(Q, s)``, the chord of a straight element and the arc of a circular
    one; ``strain0 = (J_l(p0)^-1 s / l, p0 / l)``, the strains at ``u = 0, psi = 0``.

    Parameters
    ----------
    s : array_like (3,) or (e, 3)
        Reference position of the element's second node in its first node's frame (m), not
        zero; one element, or e of them.
    Q : array_like (3, 3) or (e, 3, 3)
        Reference orientation of the second node's frame in the first's (rotation matrices).

    Returns
    -------
    l : float or ndarray (e,)
        m.
    strain0 : ndarray (6,) or (e, 6)
        ``(gamma0, kappa0)``: dimensionless and 1/m.

    Raises
    ------
    ValueError
        ``s`` zero or not finite 3-vectors, ``Q`` not rotation matrices, shapes that differ.

    Examples
    --------
    A straight element along its first node's x axis:

    >>> from rancf.elements import spatial_beam
    >>> l, strain0 = spatial_beam.reference_strain([0.5, 0.0, 0.0], np.eye(3))
    >>> l, strain0
    (0.5, array([1., 0., 0., 0., 0., 0.]))
    """
    single = np.ndim(s) == 1
    try:
        s = np.array(s, dtype=float, ndmin=2)
        Q = np.array(Q, dtype=float, ndmin=3)
    except (TypeError, ValueError):
        raise TypeError(f"s and Q must be arrays of 3-vectors and 3 x 3 matrices, got {s!r}, "
                        f"{Q!r}") from None
    if s.ndim != 2 or s.shape[1] != 3 or Q.shape != (len(s), 3, 3):
        raise ValueError(f"s must have shape (3,) or (e, 3) and Q (3, 3) or (e, 3, 3), got "
                         f"{s.shape} and {Q.shape}")
    if not (np.isfinite(s).all() and np.isfinite(Q).all()):
        raise ValueError("s and Q must be finite")
    residual = np.abs(np.einsum("eji,ejk->eik", Q, Q) - np.eye(3)).max(initial=0.0)
    if residual > 1e-9 or (np.linalg.det(Q) < 0.0).any():
        raise ValueError(f"Q must hold rotation matrices (Q^T Q = I to 1e-9, det Q = +1), got "
                         f"a departure of {residual:.3g}")
    l, strain0 = np.zeros(len(s)), np.zeros((len(s), 6))
    _spatial_beam.reference(np.ascontiguousarray(s), np.ascontiguousarray(Q.reshape(-1, 9)), l,
                            strain0)
    if not (l > 0.0).all():
        raise ValueError(f"s must hold non-zero relative positions, got {s[~(l > 0.0)][0]!r}")
    return (float(l[0]), strain0[0]) if single else (l, strain0)


def _element_args(s, Q, e, l, C, strain0):
    e = checks.vector("e", e, 6)
    if e[3:] @ e[3:] >= np.pi**2:
        raise ValueError(f"e must have a rotation psi = e[3:] of norm below pi, got {e!r}")
    return (checks.vector("s", s, 3), _rotation("Q", Q), e, checks.positive("l", l),
            _stiffness(C), checks.vector("strain0", strain0, 6))


def element_force(s, Q, e, ed, l, C, strain0, c=0.0):
    """Force, tangent and section forces of an element (the compiled ``element_force``).

    ``f = -l B^T sigma``, ``sigma = C (eps - eps0 + c B ed)``, ``B = d eps / d e``;
    ``K = d^2 U / de^2``, the exact Hessian of the strain energy (the tangent of the elastic
    part of ``-f``).

    Parameters
    ----------
    s : array_like (3,)
        Reference relative position (m).
    Q : array_like (3, 3)
        Reference relative orientation (rotation matrix).
    e : array_like (6,)
        Coordinates ``(u, psi)`` (m, rad), ``|psi| < pi``.
    ed : array_like (6,)
        Their rates (m/s, rad/s).
    l : float
        Length (m), > 0 (:func:`reference_strain`).
    C : array_like (6,)
        Section stiffness (N, N, N, N m^2, N m^2, N m^2), >= 0 (:func:`section_stiffness`).
    strain0 : array_like (6,)
        Reference strains (:func:`reference_strain`).
    c : float
        Kelvin-Voigt damping time (s), >= 0.

    Returns
    -------
    f : ndarray (6,)
        Generalized force on ``e`` (N, N m).
    K : ndarray (6, 6)
        N/m, N, N m (by blocks).
    sigma : ndarray (6,)
        Section forces (N, N, N, N m, N m, N m).

    Raises
    ------
    ValueError
        An argument of the wrong shape or range (``|psi| >= pi``).

    Examples
    --------
    A straight element stretched by 1 mm carries ``EA * 1e-3 / l``:

    >>> from rancf.elements import spatial_beam
    >>> l, strain0 = spatial_beam.reference_strain([0.5, 0.0, 0.0], np.eye(3))
    >>> C = [1e6, 1e6, 1e6, 1.0, 1.0, 1.0]
    >>> f, K, sigma = spatial_beam.element_force([0.5, 0, 0], np.eye(3), [1e-3, 0, 0, 0, 0, 0],
    ...                                          np.zeros(6), l, C, strain0)
    >>> float(np.round(sigma[0], 9)), float(np.round(f[0], 9))
    (2000.0, -2000.0)
    """
    s, Q, e, l, C, strain0 = _element_args(s, Q, e, l, C, strain0)
    ed = checks.vector("ed", ed, 6)
    c = checks.non_negative("c", c)
    f, K, sigma = np.empty(6), np.empty(36), np.empty(6)
    _spatial_beam.force(s, Q, e, ed, l, C, strain0, c, f, K, sigma)
    return f, K.reshape(6, 6), sigma


def section_forces(pose0, pose1, rate0, rate1, s, Q, l, C, strain0, c):
    """Section forces of elements from the poses and velocities of their end nodes (the
    compiled ``sections``, through :c:func:`element_force`).

    The element coordinates follow from the node poses, ``u = A0^T (r1 - r0) - s`` and
    ``psi = log(A0^T A1 Q^T)`` (theory: Nodes and element coordinates), their rates from the
    node velocities by the inverse of the velocity map, ``u' = A0^T (v1 - v0 - w0 x (r1 - r0))``
    and ``psi' = J_l(psi)^-1 A0^T (w1 - w0)``; then ``sigma = C (eps - eps0 + c eps')`` as
    :func:`element_force` gives it. The strains are constant along an element: sigma holds
    for its whole length, in its section frame (the SE(3) curve's own frame). Vectorized: the
    loop over the m elements (of every output) is compiled.

    Parameters
    ----------
    pose0, pose1 : array_like (m, 12)
        First and second node of each element: origin r (m), then frame A row-major, global.
    rate0, rate1 : array_like (m, 6)
        Their velocities v (m/s) and angular velocities w (rad/s), global.
    s : array_like (m, 3)
        Reference relative positions (m).
    Q : array_like (m, 3, 3)
        Reference relative orientations.
    l : array_like (m,)
        Lengths (m).
    C : array_like (m, 6)
        Section stiffness (:func:`section_stiffness`).
    strain0 : array_like (m, 6)
        Reference strains (:func:`reference_strain`).
    c : array_like (m,)
        Kelvin-Voigt damping times (s).

    Returns
    -------
    ndarray (m, 6)
        Normal force, shear forces along the section's y and z, torsion, bending moments
        about y and z (N, N, N, N m, N m, N m); NaN for an element whose relative rotation
        psi reached pi.

    Examples
    --------
    Two nodes 0.5 m apart along x, the second moved by 1 mm along the axis, at rest:

    >>> from rancf.elements import spatial_beam
    >>> frame = np.eye(3).ravel()
    >>> pose0 = np.concatenate([[0.0, 0, 0], frame])[None]
    >>> pose1 = np.concatenate([[0.501, 0, 0], frame])[None]
    >>> rest = np.zeros((1, 6))
    >>> l, strain0 = spatial_beam.reference_strain([[0.5, 0, 0]], np.eye(3)[None])
    >>> sigma = spatial_beam.section_forces(pose0, pose1, rest, rest, [[0.5, 0, 0]],
    ...                                     np.eye(3)[None], l, [[1e6] * 6], strain0, [0.0])
    >>> np.round(sigma, 6)                          # EA * 1e-3 / 0.5
    array([[2000.,    0.,    0.,    0.,    0.,    0.]])
    """
    pose0, pose1, rate0, rate1, s, Q, l, C, strain0, c = (
        np.ascontiguousarray(v, dtype=float)
        for v in (pose0, pose1, rate0, rate1, s, Q, l, C, strain0, c))
    if Q.ndim == 3:
        Q = Q.reshape(len(Q), -1)
    m = len(pose0)
    for name, value, shape in (("pose0", pose0, (m, 12)), ("pose1", pose1, (m, 12)),
                               ("rate0", rate0, (m, 6)), ("rate1", rate1, (m, 6)),
                               ("s", s, (m, 3)), ("Q", Q, (m, 9)), ("l", l, (m,)),
                               ("C", C, (m, 6)), ("strain0", strain0, (m, 6)), ("c", c, (m,))):
        if value.shape != shape:
            raise ValueError(f"{name} must have shape {shape} (m = {m} elements), got "
                             f"{value.shape}")
    if not (l > 0.0).all():
        raise ValueError(f"l must hold positive lengths, got {l!r}")
    sigma = np.empty((m, 6))
    _spatial_beam.sections(pose0, pose1, rate0, rate1, s, Q, l, C, strain0, c, sigma)
    return sigma


def damping_matrix(s, Q, e, l, C, c):
    """The damping matrix ``D = c l B^T C B`` of an element: the derivative of its damping force
    ``l B^T C c B ed`` in ``ed`` (the compiled ``element_damping``).

    Parameters
    ----------
    s, Q, e, l, C : as for :func:`element_force`.
    c : float
        Kelvin-Voigt damping time (s), >= 0.

    Returns
    -------
    ndarray (6, 6)
        N s/m, N s, N m s (by blocks).

    Examples
    --------
    >>> from rancf.elements import spatial_beam
    >>> D = spatial_beam.damping_matrix([0.5, 0, 0], np.eye(3), np.zeros(6), 0.5, np.ones(6), 0.1)
    >>> float(D[0, 0])
    0.2
    """
    s, Q, e, l, C, _ = _element_args(s, Q, e, l, C, np.zeros(6))
    c = checks.non_negative("c", c)
    D = np.empty(36)
    _spatial_beam.damping(s, Q, e, l, C, c, D)
    return D.reshape(6, 6)


def element_energy(s, Q, e, l, C, strain0):
    """Strain energy ``U = 1/2 l (eps - eps0)^T C (eps - eps0)`` of an element (J) (the
    compiled ``element_energy``).

    Parameters
    ----------
    s, Q, e, l, C, strain0 : as for :func:`element_force`.

    Returns
    -------
    float
        J.

    Examples
    --------
    Zero at the reference pose:

    >>> from rancf.elements import spatial_beam
    >>> l, strain0 = spatial_beam.reference_strain([0.5, 0.0, 0.0], np.eye(3))
    >>> spatial_beam.element_energy([0.5, 0, 0], np.eye(3), np.zeros(6), l, np.ones(6), strain0)
    0.0
    """
    s, Q, e, l, C, strain0 = _element_args(s, Q, e, l, C, strain0)
    return _spatial_beam.energy(s, Q, e, l, C, strain0)


def node_inertia(rho, A, Iy, Iz, l_left, l_right):
    """Lumped mass and rotary inertia of a node: half of each adjacent element.

    ``m = rho A (l_left + l_right) / 2`` and ``J = rho diag(Iy + Iz, Iy, Iz) (l_left + l_right)
    / 2`` in the node frame (x the beam axis); the node is a rigid body with the mass matrix
    ``diag(m I, A J A^T)`` in absolute velocities.

    Parameters
    ----------
    rho : float
        Density (kg/m^3), > 0.
    A : float
        Section area (m^2), > 0.
    Iy, Iz : float
        Second moments of area about the section's y and z axes (m^4), > 0.
    l_left, l_right : float
        Lengths of the elements before and after the node (m), >= 0 (0 at an end of the beam),
        not both zero.

    Returns
    -------
    m : float
        kg.
    J : ndarray (3, 3)
        kg m^2, about the node in its frame.

    Raises
    ------
    ValueError
        A parameter out of range.

    Examples
    --------
    >>> from rancf.elements import spatial_beam
    >>> m, J = spatial_beam.node_inertia(1000.0, 1e-2, 1e-5, 2e-5, 1.0, 1.0)
    >>> m, np.diag(J)
    (10.0, array([0.03, 0.01, 0.02]))
    """
    rho, A = checks.positive("rho", rho), checks.positive("A", A)
    Iy, Iz = checks.positive("Iy", Iy), checks.positive("Iz", Iz)
    l_left = checks.non_negative("l_left", l_left)
    l_right = checks.non_negative("l_right", l_right)
    half = 0.5 * (l_left + l_right)
    if not half > 0.0:
        raise ValueError(f"l_left and l_right must not both be zero, got {l_left!r}, {l_right!r}")
    return rho * A * half, rho * half * np.diag([Iy + Iz, Iy, Iz])


class SpatialBeam:
    """The spatial SE(3)-strain beam as an element kind: what an assembly and a formulation need
    to know of it, in one place.

    A node is a rigid body: ``node_size = 6`` velocity coordinates ``(v, w)`` (absolute velocity
    and angular velocity, m/s and rad/s), its configuration a position and a rotation matrix.
    An element joins two nodes (``nodes_per_element = 2``) and has ``element_size = 6``
    coordinates ``e = (u, psi)``, the motion of its second node relative to its first (module
    docstring): in relative coordinates the element's coordinates are its second node's joint
    coordinates. It lives in ``dimension = 3``. It provides the reference length and strains
    (:func:`reference_strain`), the section stiffness (:func:`section_stiffness`), the force,
    exact tangent and section forces (:func:`element_force`), the damping matrix
    (:func:`damping_matrix`), the energy (:func:`element_energy`) and the lumped node mass and
    rotary inertia (:func:`node_inertia`). The numbers here are those the compiled kernels
    cimport from ``rancf/elements/_spatial_beam.pxd`` (``SPATIAL_NODE``, ``SPATIAL_BLOCK``).

    Examples
    --------
    >>> from rancf.elements import spatial_beam
    >>> kind = spatial_beam.SpatialBeam()
    >>> kind.node_size, kind.element_size, kind.dimension
    (6, 6, 3)
    >>> l, strain0 = kind.reference_strain([1.0, 0.0, 0.0], np.eye(3))
    >>> kind.energy([1.0, 0, 0], np.eye(3), np.zeros(6), l, np.ones(6), strain0)
    0.0
    """

    #: Velocity coordinates of a node: (v, w), m/s and rad/s.
    node_size = 6
    #: Nodes of an element.
    nodes_per_element = 2
    #: Coordinates of an element: (u, psi) of its second node relative to its first (m, rad).
    element_size = 6
    #: Coordinates of a point.
    dimension = 3
    #: A node's pose as the outputs hold it (``Result.nodes``, a State's x; a rigid body's
    #: and a drawn cable node's alike): its position, then its frame row-major (m, 1).
    pose_size = dimension + dimension * dimension

    def __repr__(self):
        return "SpatialBeam()"

    def reference_strain(self, s, Q):
        """:func:`reference_strain`."""
        return reference_strain(s, Q)

    def section_stiffness(self, E, G, A, Iy, Iz, J, kappa=(5.0 / 6.0, 5.0 / 6.0)):
        """:func:`section_stiffness`."""
        return section_stiffness(E, G, A, Iy, Iz, J, kappa)

    def forces(self, s, Q, e, ed, l, C, strain0, c=0.0):
        """:func:`element_force`: ``(f, K, sigma)``."""
        return element_force(s, Q, e, ed, l, C, strain0, c)

    def damping(self, s, Q, e, l, C, c):
        """:func:`damping_matrix`."""
        return damping_matrix(s, Q, e, l, C, c)

    def energy(self, s, Q, e, l, C, strain0):
        """:func:`element_energy`."""
        return element_energy(s, Q, e, l, C, strain0)

    def node_inertia(self, rho, A, Iy, Iz, l_left, l_right):
        """:func:`node_inertia`."""
        return node_inertia(rho, A, Iy, Iz, l_left, l_right)


def arc_point(ra, Aa, rb, Ab, xi):
    """The point at xi in (0, 1) of the element joining the nodes ``(ra, Aa)`` and ``(rb, Ab)``
    (origins (3,), m; frames (3, 3)): its constant-strain curve ``g(xi) = g_a exp(xi log(g_a^-1
    g_b))``, ``r = ra + Aa J_l(xi p) xi J_l(p)^-1 d`` with ``p = log(Aa^T Ab)``, ``d = Aa^T
    (rb - ra)``, the point ``Result.position(beam.at(s))`` follows; for the reference positions
    of points between nodes (a spring-damper's rest length).

    Returns
    -------
    ndarray (3,)
        m.
    """
    from scipy.spatial.transform import Rotation
    p = Rotation.from_matrix(Aa.T @ Ab).as_rotvec()
    d = Aa.T @ (rb - ra)
    a = float(np.linalg.norm(p))
    P = np.array([[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]])
    if a < 1e-3:
        # the series of J_l^-1 = I - P/2 + c3 P^2 and of J_l(xi p), to a^4 (truncation 1e-16)
        c3 = 1.0 / 12.0 + a * a / 720.0
        b = 0.5 - (xi * a) ** 2 / 24.0
        c = 1.0 / 6.0 - (xi * a) ** 2 / 120.0
    else:
        c3 = 1.0 / a**2 - (1.0 + np.cos(a)) / (2.0 * a * np.sin(a))
        b = (1.0 - np.cos(xi * a)) / (xi * a) ** 2
        c = (xi * a - np.sin(xi * a)) / (xi * a) ** 3
    inverse = np.eye(3) - 0.5 * P + c3 * P @ P
    Q = xi * P
    left = np.eye(3) + b * Q + c * Q @ Q
    return ra + Aa @ (left @ (xi * (inverse @ d)))
