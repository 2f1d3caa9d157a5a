"""The items of a spatial mechanism and the points on them (theory: Spatial trees).

Handles returned by a spatial :class:`rancf.Model` (``dim=3``): :class:`SpatialGround`,
:class:`SpatialBeam`, :class:`SpatialRigidBody` and the :class:`SpatialPoint` objects that joints
and loads attach to. Every item has a reference pose: a beam node its position and frame (columns:
the beam axis x and the section axes y, z), a rigid body its centre of mass and body frame. The
reference configuration is where every joint coordinate is 0 (:mod:`rancf.model.spatial_tree`).
"""
import numpy as np
from scipy.spatial.transform import Rotation

from ..utilities import checks
from ..elements import _ancf_cable, ancf_cable, spatial_beam
from ..joints._codes import P_BODY as BODY, P_GROUND as GROUND, P_NODE as NODE
from .dimension import refuse, refuse_shape
from .items import ArcPoint, Ground, Point, arc_point

#: Tolerance on unit vectors, orthogonality and symmetry of what the user gives (relative).
UNIT_TOLERANCE = 1e-9
#: ``up`` closer than this angle (rad) to a beam's axis is refused as parallel to it.
PARALLEL_ANGLE = 1e-6


def vector3(name, value):
    """``value`` as a finite float array (3,); a planar one (2,) is refused naming the
    dimension."""
    refuse_shape(3, name, value, (2,))
    return checks.vector(name, value, 3)


def unit_vector(name, value):
    """``value`` as a unit vector (3,); refused when its norm is off 1 by more than
    :data:`UNIT_TOLERANCE`: an axis is a direction, and a non-unit one is read as a mistake."""
    v = vector3(name, value)
    norm = float(np.linalg.norm(v))
    if abs(norm - 1.0) > UNIT_TOLERANCE:
        raise ValueError(f"{name} must be a unit vector (norm 1 within {UNIT_TOLERANCE:g}), got "
                         f"{value!r} of norm {norm:.12g}")
    return v / norm


def direction(name, value):
    """``value`` normalised; refused when it is zero."""
    v = vector3(name, value)
    norm = float(np.linalg.norm(v))
    if norm == 0.0:
        raise ValueError(f"{name} must be a non-zero vector, got {value!r}")
    return v / norm


def rotation_matrix(name, value):
    """A rotation from a 3 x 3 matrix or a unit quaternion ``(w, x, y, z)``.

    The matrix must be orthogonal (``|R^T R - I| <= 1e-9`` entrywise) with determinant +1, the
    quaternion of norm 1 within 1e-9; the result is the nearest rotation (polar factor of the
    matrix, the normalised quaternion's matrix), orthogonal to round-off, so that reference
    poses hold exactly what the kinematics assume.

    Raises
    ------
    ValueError
        Another shape, a matrix that is not orthogonal or a reflection (det -1), a quaternion
        that is not of unit norm, entries that are not finite.
    """
    try:
        R = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 3 x 3 rotation matrix or a unit quaternion (w, x, y, "
                        f"z), got {value!r}") from None
    if not np.all(np.isfinite(R)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if R.shape == (3, 3):
        error = float(np.max(np.abs(R.T @ R - np.eye(3))))
        if error > UNIT_TOLERANCE:
            raise ValueError(f"{name} must be an orthogonal matrix (|R^T R - I| <= "
                             f"{UNIT_TOLERANCE:g}), got {R.tolist()} (|R^T R - I| = {error:.3g})")
        if np.linalg.det(R) < 0.0:
            raise ValueError(f"{name} must be a rotation (determinant +1), got a reflection "
                             f"{R.tolist()}")
        u, _, vt = np.linalg.svd(R)
        return u @ vt
    if R.shape == (4,):
        norm = float(np.linalg.norm(R))
        if abs(norm - 1.0) > UNIT_TOLERANCE:
            raise ValueError(f"{name} as a quaternion (w, x, y, z) must have norm 1 within "
                             f"{UNIT_TOLERANCE:g}, got {value!r} of norm {norm:.12g}")
        return Rotation.from_quat(R / norm, scalar_first=True).as_matrix()
    raise ValueError(f"{name} must be a 3 x 3 rotation matrix or a unit quaternion (w, x, y, z), "
                     f"got shape {R.shape}")


def section_frame(x, up, where):
    """The node frame ``[x, y, z]`` (columns): x the unit tangent, y ``up`` projected normal to
    x and normalised, ``z = x cross y``.

    Raises
    ------
    ValueError
        ``up`` within :data:`PARALLEL_ANGLE` of x (``where`` says at which node).
    """
    y = up - (up @ x) * x
    sine = float(np.linalg.norm(y))
    if sine <= np.sin(PARALLEL_ANGLE):
        raise ValueError(f"up={tuple(up.tolist())} is parallel to the beam {where}(axis "
                         f"{tuple(x.tolist())}): give "
                         "an up that is not along the beam (it fixes the section's y axis)")
    y = y / sine
    return np.column_stack([x, y, np.cross(x, y)])


class SpatialPoint(Point):
    """A point of a spatial mechanism that joints and loads attach to.

    Not constructed directly: ``m.ground.point(x, y, z)``, ``b.start``, ``b.end``, ``b.node(i)``,
    ``r.point(dx, dy, dz)`` and ``r.centre`` return points. Attributes as :class:`Point`'s, with
    ``offset`` (3,): a ground point's position (m), a rigid-body point's position in the body
    frame from the centre of mass (m), zero for a beam node.

    Examples
    --------
    >>> m = rancf.Model(dim=3)
    >>> r = m.add_rigid_body(1.0, np.eye(3) * 0.01)
    >>> r.point(0.5, 0.0, -0.25), m.ground.point(0, 0, 1)
    (rigid_body[0].point(0.5, 0, -0.25), ground.point(0, 0, 1))
    """

    def __repr__(self):
        if self.kind == NODE:
            return f"{self.item!r}.node({self.node})"
        x, y, z = self.offset
        if self.kind == GROUND:
            return f"ground.point({x:g}, {y:g}, {z:g})"
        return f"{self.item!r}.point({x:g}, {y:g}, {z:g})"


class SpatialGround(Ground):
    """The fixed frame of a spatial model, ``m.ground``: the identity at the origin.

    Its points, ``m.ground.point(x, y, z)``, can only be the parent of a joint; joint axes are
    given in its (global) coordinates.

    Examples
    --------
    >>> rancf.Model(dim=3).ground.point(1.0, 0.5, 0.0)
    ground.point(1, 0.5, 0)
    """

    def point(self, x, y, z=None):
        """The ground point (x, y, z) (m).

        Returns
        -------
        SpatialPoint

        Raises
        ------
        ValueError
            A coordinate that is not a finite number; no z (a planar ground point).
        """
        if z is None:
            refuse(3, f"ground.point({x!r}, {y!r}) without z")
        return SpatialPoint(self, GROUND, offset=np.array(
            [checks.real("x", x), checks.real("y", y), checks.real("z", z)]))


def curve_nodes(n_nodes, points, tangents):
    """A curved beam's or cable's nodes ``(P, T)`` (n_nodes, 3) from ``points`` and
    ``tangents``, checked: shapes, finite, unit tangents (normalised), each element's chord
    pointing ahead along both its end tangents (ValueError or TypeError naming which)."""
    if points is None or tangents is None:
        raise ValueError("a curved beam takes both points and tangents (shape (n_elements + "
                         f"1, 3)), got {'tangents' if points is None else 'points'} only")
    shape = (n_nodes, 3)
    try:
        P = np.array(points, dtype=float)
        T = np.array(tangents, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"points and tangents must be arrays of real numbers of shape {shape}"
                        ) from None
    for name, value, arr in (("points", points, P), ("tangents", tangents, T)):
        if arr.shape != shape:
            raise ValueError(f"{name} must have shape {shape} (n_elements + 1 nodes), got "
                             f"shape {arr.shape}")
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must be finite")
    norms = np.linalg.norm(T, axis=1)
    bad = np.flatnonzero(np.abs(norms - 1.0) > UNIT_TOLERANCE)
    if bad.size:
        raise ValueError(f"tangents must be unit vectors (norm 1 within {UNIT_TOLERANCE:g}), "
                         f"got tangents[{bad[0]}] = {T[bad[0]].tolist()} of norm "
                         f"{norms[bad[0]]:.12g}")
    chords = np.diff(P, axis=0)
    lengths = np.linalg.norm(chords, axis=1)
    # a chord at round-off of the longest is two equal points, not a short element
    bad = np.flatnonzero(lengths <= 1e-12 * lengths.max())
    if bad.size:
        k = bad[0]
        raise ValueError(f"points[{k}] and points[{k + 1}] coincide ({P[k].tolist()}): element "
                         f"{k} would have zero length; give distinct points along the centreline")
    # each element's chord must point ahead along both end tangents: an element that turns
    # by a right angle or more is a mistake in the input (points out of order, a tangent
    # reversed), not a mesh
    ahead = np.minimum(np.einsum("ij,ij->i", chords, T[:-1]), np.einsum("ij,ij->i", chords, T[1:]))
    bad = np.flatnonzero(ahead <= 0.0)
    if bad.size:
        k = bad[0]
        raise ValueError(f"tangents[{k}] and tangents[{k + 1}] must point from points[{k}] "
                         f"towards points[{k + 1}] (the element turns by less than a right "
                         f"angle), got chord {chords[k].tolist()}, tangents {T[k].tolist()}, "
                         f"{T[k + 1].tolist()}")
    return P, T / norms[:, None]


class SpatialBeam:
    """A spatial beam of the relative-nodal-coordinate formulation (theory: Spatial beams).

    Not constructed directly: :meth:`rancf.Model.add_beam` of a spatial model returns it. Its
    nodes carry lumped masses; its elements the SE(3) strain (theory: Spatial beams). Uniform
    section and material; straight (``length``, ``start``, ``direction``) or curved (``points``,
    ``tangents``), unstressed in the reference configuration.

    Attributes
    ----------
    index : int
        Its number among the model's beams.
    n_elements : int
    length : float
        m: the sum of its element lengths (the arc length of a curved beam, from the SE(3)
        logarithm of each element's reference relative pose).
    E, G, rho, A, J : float
        Pa, Pa, kg/m^3, m^2, m^4.
    I : tuple of float
        ``(I_y, I_z)``, the second moments about the section's y and z axes (m^4).
    kappa : tuple of float
        Shear correction factors ``(k_y, k_z)``.
    shear : bool
        False: the Euler-Bernoulli limit (:meth:`stiffness`).
    damping : float
        Kelvin-Voigt time c (s).
    positions : ndarray (n_nodes, 3)
        Reference node positions (m).
    frames : ndarray (n_nodes, 3, 3)
        Reference node frames (columns: the tangent x, the section axes y, z).
    curved : bool
        True when given by ``points`` and ``tangents``.
    rest : {"drawn", "straight"}
        The stress-free shape: the reference configuration as drawn, or (a curved cable drawn
        slack, say) straight, each element as long as its drawn arc
        (:meth:`rest_state`).

    Examples
    --------
    >>> m = rancf.Model(dim=3)
    >>> b = m.add_beam(2.0, 4, E=2.1e11, rho=7800.0, A=1e-4, I=(8e-10, 8e-10), J=1.4e-9,
    ...                G=8e10, direction=(0, 1, 0), up=(0, 0, 1))
    >>> b, b.n_nodes, b.end
    (beam[0], 5, beam[0].node(4))
    >>> b.frames[0]     # columns: x along the beam, y = up, z = x cross y
    array([[0., 0., 1.],
           [1., 0., 0.],
           [0., 1., 0.]])
    """

    def __init__(self, model, index, length, n_elements, E, rho, A, I, J, G, start, direction_,
                 up, shear, kappa, damping, points, tangents):
        self.model = model
        self.index = index
        self.n_elements = checks.integer("n_elements", n_elements, 1, 10**6)
        self.E = checks.positive("E", E)
        self.rho = checks.positive("rho", rho)
        self.A = checks.positive("A", A)
        refuse_shape(3, "I", I, ())
        I = checks.vector("I", I, 2)
        self.I = (checks.positive("I[0] (I_y)", I[0]), checks.positive("I[1] (I_z)", I[1]))
        self.J = checks.positive("J", J)
        self.G = checks.positive("G", G)
        self.shear = checks.boolean("shear", shear)
        k = checks.vector("kappa", kappa, 2)
        self.kappa = (checks.positive("kappa[0]", k[0]), checks.positive("kappa[1]", k[1]))
        self.damping = checks.non_negative("damping", damping)
        self.up = direction("up", (0.0, 0.0, 1.0) if up is None else up)
        self._reference = {}
        self.curved = points is not None or tangents is not None
        if self.curved:
            self._curved(length, start, direction_, points, tangents)
        else:
            self._straight(length, start, direction_)
        self.length = float(self.element_lengths().sum())

    def _straight(self, length, start, direction_):
        length = checks.positive("length", length)
        start = vector3("start", (0.0, 0.0, 0.0) if start is None else start)
        x = direction("direction", (1.0, 0.0, 0.0) if direction_ is None else direction_)
        s = np.linspace(0.0, length, self.n_nodes)
        self.positions = start + s[:, None] * x
        self.frames = np.repeat(section_frame(x, self.up, "")[None], self.n_nodes, axis=0)

    def _curved(self, length, start, direction_, points, tangents):
        for name, value in (("length", length), ("start", start), ("direction", direction_)):
            if value is not None:
                raise ValueError(f"{name}={value!r} applies to a straight beam; a curved beam "
                                 "(points, tangents) takes its geometry from them")
        P, T = curve_nodes(self.n_nodes, points, tangents)
        self.positions = P
        self.frames = np.array([section_frame(T[i], self.up, f"at node {i} ")
                                for i in range(self.n_nodes)])

    def __repr__(self):
        return f"beam[{self.index}]"

    @property
    def n_nodes(self):
        """Number of nodes, ``n_elements + 1``."""
        return self.n_elements + 1

    def node(self, i):
        """Node ``i`` of the beam (0 the start; negative counts from the end), a point.

        Raises
        ------
        ValueError
            ``i`` outside ``[-n_nodes, n_elements]``.
        """
        i = checks.integer("i", i, -self.n_nodes, self.n_elements)
        return SpatialPoint(self, NODE, node=i % self.n_nodes, offset=np.zeros(3))

    def at(self, s):
        """The point at arc length s along the beam, for outputs, joints, loads and
        spring-dampers.

        A node where s falls on one (within 1e-12 of the length), else an
        :class:`~rancf.model.items.ArcPoint` that
        ``Result.position``, ``velocity``, ``orientation``, ``angular_velocity`` and
        ``deflection`` interpolate along its element's constant-strain SE(3) curve, the element's own interpolation of
        position and rotation (:func:`rancf.results.outputs.spatial_arc_motion`), and that
        loads and spring-dampers act at through the same curve (the wrenches on the element's
        two nodes that do their virtual work, in the recursion and the spatial DAE),
        and that joints hold, their rows on the element's point and frame there (the spatial
        DAE formulation: :class:`rancf.formulations.spatial_dae._ArcLink`).

        Parameters
        ----------
        s : float
            Arc length from the start along the reference centreline (m; the elements' arc
            lengths, :meth:`element_lengths`), in ``[0, length]``.

        Returns
        -------
        SpatialPoint or ArcPoint

        Raises
        ------
        TypeError
            s not a real number.
        ValueError
            s outside ``[0, length]``.

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> b = m.add_beam(1.0, 4, E=2.1e11, rho=7800.0, A=1e-4, I=(8e-10, 8e-10), J=1.4e-9,
        ...                G=8e10)
        >>> b.at(0.25), b.at(0.3)
        (beam[0].node(1), beam[0].at(0.3))
        """
        lengths = np.concatenate([[0.0], np.cumsum(self.element_lengths())])
        return arc_point(self, s, lengths)

    @property
    def start(self):
        """The first node, ``node(0)``."""
        return self.node(0)

    @property
    def end(self):
        """The last node, ``node(n_elements)``."""
        return self.node(self.n_elements)

    def reference_elements(self, reverse=False):
        """The elements' reference relative poses, lengths and strains (theory: Nodes and
        element coordinates).

        Element k (1..n) joins node k-1 to node k: ``s_k = A0_{k-1}^T (r0_k - r0_{k-1})``,
        ``C_k = A0_{k-1}^T A0_k``. Reversed (the link from node k to node k-1, for a beam
        jointed at an inner node): ``A0_k^T (r0_{k-1} - r0_k)`` and ``A0_k^T A0_{k-1}``, whose
        SE(3) logarithm is minus the forward one: the same length, strains of opposite sign, the
        same energy.

        Parameters
        ----------
        reverse : bool

        Returns
        -------
        s : ndarray (n_elements, 3)
            m.
        Q : ndarray (n_elements, 3, 3)
        l : ndarray (n_elements,)
            m.
        strain0 : ndarray (n_elements, 6)
            ``(gamma0, kappa0)`` (1, 1/m).
        """
        if reverse in self._reference:       # the reference geometry does not change
            return self._reference[reverse]
        r, A = self.positions, self.frames
        first, second = (slice(1, None), slice(None, -1)) if reverse else \
            (slice(None, -1), slice(1, None))
        s = np.einsum("eji,ej->ei", A[first], r[second] - r[first])
        Q = np.einsum("eji,ejk->eik", A[first], A[second])
        l, strain0 = spatial_beam.reference_strain(s, Q)
        for array in (s, Q, l, strain0):
            array.setflags(write=False)
        self._reference[reverse] = s, Q, l, strain0
        return self._reference[reverse]

    def element_lengths(self):
        """Element lengths (n_elements,) (m), :meth:`reference_elements`' l."""
        return self.reference_elements()[2]

    def stiffness(self):
        """The elements' section stiffness ``diag(EA, k_y G A, k_z G A, G J, E I_y, E I_z)``.

        ``shear=False`` (Euler-Bernoulli) keeps the section's shear strains small by a penalty:
        ``k_y G A`` becomes at least ``12 E I_z / (Phi l^2)`` and ``k_z G A`` at least ``12 E
        I_y / (Phi l^2)`` with ``Phi = 1e-2`` (y-shear goes with bending about z). Phi is the
        element's ratio of shear to bending flexibility (Timoshenko's ``12 E I / (k G A l^2)``):
        the shear part of an n-element cantilever's tip deflection is then ``Phi / (4 n^2)`` of
        the bending part, 0 in the limit of the mesh, second order like the element's own error
        (0.46 % of the first frequency at 10 elements: ``0.46 / n^2``) and about 200 times
        below it. A larger penalty buys nothing and shortens the explicit time step: the
        shear-rotation frequency of a node grows as ``sqrt(k G A / (rho I))``. A section whose
        own ``k G A`` is stiffer keeps it.

        Returns
        -------
        ndarray (n_elements, 6)
            N, N, N, N m^2, N m^2, N m^2.
        """
        Iy, Iz = self.I
        l = self.element_lengths()
        ky = np.full(self.n_elements, self.kappa[0] * self.G * self.A)
        kz = np.full(self.n_elements, self.kappa[1] * self.G * self.A)
        if not self.shear:
            phi = 1e-2
            ky = np.maximum(ky, 12.0 * self.E * Iz / (phi * l**2))
            kz = np.maximum(kz, 12.0 * self.E * Iy / (phi * l**2))
        const = lambda v: np.full(self.n_elements, v)
        return np.column_stack([const(self.E * self.A), ky, kz, const(self.G * self.J),
                                const(self.E * Iy), const(self.E * Iz)])

    def node_masses(self):
        """Lumped node masses and rotary inertias (theory: Lumped masses).

        Node k carries half of each adjacent element: ``m_k = rho A (l_k + l_{k+1}) / 2`` and
        ``rho diag(I_y + I_z, I_y, I_z) (l_k + l_{k+1}) / 2`` in its frame (``l_0 = l_{n+1} =
        0``).

        Returns
        -------
        mass : ndarray (n_nodes,)
            kg.
        inertia : ndarray (n_nodes, 3, 3)
            kg m^2, in the node frames.
        """
        l = self.element_lengths()
        half = 0.5 * (np.concatenate([[0.0], l]) + np.concatenate([l, [0.0]]))
        Iy, Iz = self.I
        section = np.diag([Iy + Iz, Iy, Iz])
        return self.rho * self.A * half, self.rho * half[:, None, None] * section


#: The stress-free shapes a cable may have (``add_beam(..., rest=...)``): its drawn
#: reference configuration, or straight with the drawn elements' arc lengths.
REST_SHAPES = ("drawn", "straight")


class SpatialCable:
    """A spatial ANCF cable (theory: The spatial ANCF cable).

    Not constructed directly: ``add_beam(..., element="ancf-cable")`` of a spatial model
    returns it.

    Its nodes carry the coordinates ``[r, r']`` (position, m, and slope, dimensionless: the unit
    tangent where unstretched) of :mod:`rancf.elements.ancf_cable`: no section frame, no
    torsion, one bending stiffness EI, the consistent (constant) mass. Uniform; straight
    (``length``, ``start``, ``direction``) or curved (``points``, ``tangents``); unstressed in
    its reference configuration (a curved cable's strains there are its rest state,
    :meth:`rest_state`). It runs in the spatial DAE formulation
    (:mod:`rancf.formulations.spatial_dae`).

    Attributes
    ----------
    index : int
        Its number among the model's beams.
    n_elements : int
    length : float
        m: the sum of its element lengths.
    E, rho, A, I : float
        Pa, kg/m^3, m^2, m^4 (the bending second moment, one for every direction).
    damping : float
        Kelvin-Voigt time c (s).
    positions : ndarray (n_nodes, 3)
        Reference node positions (m).
    tangents : ndarray (n_nodes, 3)
        The unit tangents, the reference slopes ``r'`` of the nodes.
    tangent : ndarray (3,) or None
        A straight cable's unit tangent (every node's); None for a curved one.
    frames : ndarray (n_nodes, 3, 3)
        A frame per node for drawing and for ``Result.orientation``: x the tangent, y and z
        completing it (the cable has no section frame; :mod:`rancf.formulations.spatial_dae`
        says how its outputs turn them). Along a curved cable each node's frame is the
        previous one's turned by the smallest rotation that takes its tangent to the node's.
    curved : bool
        True when given by ``points`` and ``tangents``.
    rest : {"drawn", "straight"}
        The stress-free shape: the reference configuration as drawn, or (a curved cable drawn
        slack, say) straight, each element as long as its drawn arc
        (:meth:`rest_state`).

    Examples
    --------
    >>> m = rancf.Model(dim=3)
    >>> c = m.add_beam(2.0, 4, E=1e9, rho=7800.0, A=1e-4, I=1e-9, element="ancf-cable")
    >>> c, c.n_nodes, c.end
    (cable[0], 5, cable[0].node(4))
    """

    element = "ancf-cable"

    def __init__(self, model, index, length, n_elements, E, rho, A, I, start, direction_,
                 damping, points=None, tangents=None, rest="drawn"):
        self.model = model
        self.index = index
        self.rest = checks.choice("rest", rest, REST_SHAPES)
        self.n_elements = checks.integer("n_elements", n_elements, 1, 10**6)
        self.E = checks.positive("E", E)
        self.rho = checks.positive("rho", rho)
        self.A = checks.positive("A", A)
        self.I = _cable_moment(I)
        self.damping = checks.non_negative("damping", damping)
        self.curved = points is not None or tangents is not None
        if self.curved:
            for name, value in (("length", length), ("start", start),
                                ("direction", direction_)):
                if value is not None:
                    raise ValueError(f"{name}={value!r} applies to a straight cable; a curved "
                                     "cable (points, tangents) takes its geometry from them")
            self.positions, self.tangents = curve_nodes(self.n_nodes, points, tangents)
            self.tangent = None
            self._lengths = ancf_cable.element_lengths(self.positions, self.tangents)
            self.length = float(self._lengths.sum())
            self.frames = _transported_frames(self.tangents)
            return
        self.length = checks.positive("length", length)
        start = vector3("start", (0.0, 0.0, 0.0) if start is None else start)
        self.tangent = direction("direction", (1.0, 0.0, 0.0) if direction_ is None
                                 else direction_)
        s = np.linspace(0.0, self.length, self.n_nodes)
        self.positions = start + s[:, None] * self.tangent
        self.tangents = np.repeat(self.tangent[None], self.n_nodes, axis=0)
        self._lengths = np.full(self.n_elements, self.length / self.n_elements)
        # y: the global axis least along the tangent, projected (never parallel to it)
        up = np.eye(3)[int(np.argmin(np.abs(self.tangent)))]
        self.frames = np.repeat(section_frame(self.tangent, up, "")[None], self.n_nodes, axis=0)

    def __repr__(self):
        return f"cable[{self.index}]"

    n_nodes = SpatialBeam.n_nodes
    node = SpatialBeam.node
    start = SpatialBeam.start
    end = SpatialBeam.end

    def at(self, s):
        """The node at arc length s (within 1e-12 of the length), as ``beam.at(s)`` gives one.

        An ANCF cable's points are its nodes: a point between two (which a spatial beam's
        ``at`` gives, on its element's SE(3) curve) is not available for cables, whose
        outputs, joints and loads act at nodes (:meth:`node`).

        Parameters
        ----------
        s : float
            Arc length from the start along the reference centreline (m; the elements' arc
            lengths, :meth:`element_lengths`), in ``[0, length]``.

        Returns
        -------
        SpatialPoint

        Raises
        ------
        TypeError
            s not a real number.
        ValueError
            s outside ``[0, length]``, or between two nodes (the message names the nearest).
        """
        lengths = np.concatenate([[0.0], np.cumsum(self.element_lengths())])
        point = arc_point(self, s, lengths)
        if isinstance(point, ArcPoint):
            k = int(np.argmin(np.abs(lengths - point.s)))
            raise ValueError(
                f"s = {point.s!r} m falls between nodes of {self!r}: an ANCF cable's points are "
                f"its nodes (at s = {lengths[k]:.6g} m the nearest, node({k})); take node(i), "
                f"or mesh the cable so that a node falls at s")
        return point

    def element_lengths(self):
        """Element lengths (n_elements,) (m): equal, ``length / n_elements``, on a straight
        cable; on a curved one each element's arc length
        (:func:`rancf.elements.ancf_cable.element_lengths`)."""
        return self._lengths.copy()

    @property
    def curved_rest(self):
        """True when the stress-free shape is curved: drawn by ``points`` and ``tangents``
        with ``rest="drawn"`` (its strains there are its rest state, :meth:`rest_state`)."""
        return self.curved and self.rest == "drawn"

    def rest_state(self):
        """The strains of the stress-free shape, the elements' rest state
        (:func:`rancf.elements.ancf_cable.rest_state`), (n_elements, 8): axial strain at the 5
        axial Gauss points, curvature magnitude (1/m) at the 3 bending ones, those of the
        reference configuration where it is the rest shape (``rest="drawn"``); zeros for a
        straight cable (whose reference strains are zero, exactly so) and for one whose rest
        shape is straight (``rest="straight"``: no rest curvature, and every element's rest
        length its drawn arc length, :meth:`element_lengths`)."""
        if not self.curved_rest:
            return np.zeros((self.n_elements, ancf_cable.REST_SIZE))
        x0 = np.column_stack([self.positions, self.tangents])
        return np.array([ancf_cable.rest_state(np.concatenate([x0[k], x0[k + 1]]), l)
                         for k, l in enumerate(self._lengths)])


def _transported_frames(tangents):
    """Node frames (n, 3, 3) along unit tangents (n, 3): the first from the global axis least
    along its tangent, each next one the previous turned by the smallest rotation taking its
    tangent to the next (consecutive tangents turn by less than a half turn,
    :func:`curve_nodes`): the node frame of a cable whose base is the previous node's frame,
    :c:func:`rancf.elements._ancf_cable.cable_frame`, the one place its formula is written."""
    n = len(tangents)
    frames = np.empty((n, 3, 3))
    t0 = tangents[0]
    frames[0] = section_frame(t0, np.eye(3)[int(np.argmin(np.abs(t0)))], "")
    # one node per call, the frame before as its base with its x set to the tangent before
    # (equal to round-off): the rotation then comes from unit tangents alone, not from the
    # frames carried so far, whose round-off it would double at every node
    # a cable node's coordinates [r, r'], its drawn pose (origin, frame) and twist (v, w)
    node, kind = ancf_cable.SpatialANCFCable.node_size, spatial_beam.SpatialBeam
    e, rest = np.zeros((1, node)), np.zeros((1, node))
    base, pose, rates = np.empty((1, 3, 3)), np.empty((1, kind.pose_size)), \
        np.empty((1, kind.node_size))
    for k in range(1, n):
        base[0] = frames[k - 1]
        base[0, :, 0] = tangents[k - 1]
        e[0, 3:] = tangents[k]
        _ancf_cable.node_frames(e, rest, base, pose, rates)
        frames[k] = pose[0, 3:].reshape(3, 3)
    return frames


def _cable_moment(I):
    """A cable's bending second moment (m^4) of ``I``: a number, or a pair of equal ones (the
    cable bends alike in every direction: one EI)."""
    if np.ndim(I) == 0:
        return checks.positive("I", I)
    pair = checks.vector("I", I, 2)
    if abs(pair[0] - pair[1]) > UNIT_TOLERANCE * max(abs(pair[0]), abs(pair[1])):
        raise ValueError(f"I={tuple(pair.tolist())}: an ancf-cable has one bending stiffness "
                         "EI for every direction; give one number I (m^4) or a pair of equal "
                         "ones")
    return checks.positive("I", pair[0])


class SpatialRigidBody:
    """A rigid body in space, described at its centre of mass in its body frame.

    Not constructed directly: :meth:`rancf.Model.add_rigid_body` of a spatial model returns it.

    Attributes
    ----------
    index : int
        Its number among the model's rigid bodies.
    mass : float
        kg.
    inertia : ndarray (3, 3)
        Inertia tensor about the centre of mass in the body frame (kg m^2), symmetric positive
        definite.
    position : ndarray (3,)
        Reference centre of mass (m).
    orientation : ndarray (3, 3)
        Reference body frame (a rotation: columns the body axes in global coordinates).

    Examples
    --------
    A 1 kg cube of side 0.1 m, turned 90 degrees about z (quaternion (w, x, y, z)):

    >>> m = rancf.Model(dim=3)
    >>> c = m.add_rigid_body(1.0, np.eye(3) * 0.1**2 / 6, position=(0, 0, 1),
    ...                      orientation=(np.sqrt(0.5), 0, 0, np.sqrt(0.5)))
    >>> c, c.orientation.round(12)
    (rigid_body[0], array([[ 0., -1.,  0.],
           [ 1.,  0.,  0.],
           [ 0.,  0.,  1.]]))
    """

    def __init__(self, model, index, mass, inertia, position, orientation):
        self.model = model
        self.index = index
        self.mass = checks.positive("mass", mass)
        refuse_shape(3, "inertia", inertia, ())
        self.inertia = inertia_tensor("inertia", inertia)
        self.position = vector3("position", position)
        self.orientation = np.eye(3) if orientation is None else \
            rotation_matrix("orientation", orientation)

    def __repr__(self):
        return f"rigid_body[{self.index}]"

    def point(self, dx=None, dy=None, dz=None):
        """A point of the body, given in its frame from the centre of mass (m); coordinates
        not given are zero, but dz is required with dx or dy (as the ground's z is: the
        planar call ``point(dx, dy)`` is refused, not read as dz = 0).

        Returns
        -------
        SpatialPoint

        Raises
        ------
        ValueError
            A coordinate that is not a finite number; dx or dy without dz (a planar body point).
        """
        if dz is None and (dx is not None or dy is not None):
            given = ", ".join(f"{name}={c!r}" for name, c in (("dx", dx), ("dy", dy))
                              if c is not None)
            refuse(3, f"body.point({given}) without dz")
        zero = lambda c: 0.0 if c is None else c
        return SpatialPoint(self, BODY, offset=np.array(
            [checks.real("dx", zero(dx)), checks.real("dy", zero(dy)), checks.real("dz", zero(dz))]))

    @property
    def centre(self):
        """The centre of mass, ``point(0, 0, 0)``."""
        return self.point()


#: Relative slack of the triangle inequality on the principal moments, times their sum (round-off
#: in a tensor computed or rotated by the user; the limit, equality, of a flat plate passes).
TRIANGLE_TOLERANCE = 1e-12


def inertia_tensor(name, value):
    """``value`` as the inertia tensor of a mass distribution: symmetric positive definite
    3 x 3, its principal moments obeying the triangle inequality.

    Symmetric within 1e-9 of its largest entry (the symmetric part is kept), all eigenvalues
    positive (a body with a zero principal moment, a rod or a point mass, has no rotational
    dynamics about that axis for the recursion to solve). The principal moments are
    I1 = int (y^2 + z^2) dm and its cyclic ones, so I1 + I2 - I3 = 2 int z^2 dm >= 0: each is at
    most the sum of the other two, within ``TRIANGLE_TOLERANCE`` times their sum (the trace); a
    tensor breaking it, such as diag(1, 1, 3), belongs to no body.
    """
    try:
        J = np.array(value, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 3 x 3 tensor, got {value!r}") from None
    if J.shape != (3, 3):
        raise ValueError(f"{name} must be a 3 x 3 tensor, got shape {J.shape}")
    if not np.all(np.isfinite(J)):
        raise ValueError(f"{name} must be finite, got {value!r}")
    scale = float(np.max(np.abs(J)))
    if float(np.max(np.abs(J - J.T))) > UNIT_TOLERANCE * scale:
        raise ValueError(f"{name} must be symmetric (within {UNIT_TOLERANCE:g} of its largest "
                         f"entry), got {J.tolist()}")
    J = 0.5 * (J + J.T)
    moments = np.linalg.eigvalsh(J) if scale > 0.0 else np.zeros(3)
    lowest = float(moments[0])
    if lowest <= 0.0:
        raise ValueError(f"{name} must be positive definite, got {J.tolist()} (smallest "
                         f"eigenvalue {lowest:.6g} kg m^2)")
    trace = float(np.sum(moments))
    if moments[2] - moments[0] - moments[1] > TRIANGLE_TOLERANCE * trace:
        raise ValueError(
            f"{name} must be the inertia of a mass distribution: its principal moments "
            f"{', '.join(f'{v:.6g}' for v in moments)} kg m^2 break the triangle inequality "
            f"(the largest, {moments[2]:.6g}, exceeds the sum of the other two, "
            f"{moments[0] + moments[1]:.6g}, by more than {TRIANGLE_TOLERANCE:g} of the trace)")
    return J
