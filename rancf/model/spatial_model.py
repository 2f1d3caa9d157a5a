"""The spatial model, ``rancf.Model(dim=3)``: beams of the relative-nodal-coordinate formulation,
rigid bodies, spatial joints and loads, built into a :class:`~rancf.model.spatial_tree.SpatialTree`
(theory: Spatial trees).

``rancf.Model(dim=3)`` makes a :class:`SpatialModel` (a :class:`rancf.Model`): the same reading
and freezing as the planar model, its own items (:mod:`rancf.model.spatial_items`), joints and
loads (:mod:`rancf.model.spatial_joints`) and builder (:mod:`rancf.model.spatial_build`).
"""
import numpy as np

from ..utilities import checks
from .dimension import refuse, refuse_parameters
from .joints import SpringDamper
from .model import Model
from ..joints._codes import P_ARC, P_NODE
from .spatial_build import build_tree, check_arc_joint, check_cable_joint, point_body
from .spatial_items import SpatialBeam, SpatialCable, SpatialGround, SpatialRigidBody, vector3
from .spatial_joints import (SpatialJoint, SpatialJointSpringDamper, SpatialLoad,
                             cable_moment_refusal)

#: The element kinds of ``add_beam``: the relative-nodal SE(3) beam and the ANCF cable.
ELEMENTS = ("se3-beam", "ancf-cable")


class SpatialModel(Model):
    """A spatial mechanism of beams and rigid bodies, in SI units: ``rancf.Model(dim=3)``.

    Parameters
    ----------
    gravity : sequence of 3 floats
        Gravitational acceleration (m/s^2), default ``(0, 0, -9.81)`` (z up).
    elastic_model : None
        Planar only: a spatial beam's elements have the SE(3) strain (theory: Spatial beams).

    Raises
    ------
    ValueError
        A gravity that is not three finite numbers (two: a planar model's), an elastic model.

    Examples
    --------
    A steel cantilever along x, clamped at the origin, with a tip load:

    >>> m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    >>> b = m.add_beam(length=1.0, n_elements=8, E=2.1e11, rho=7800.0, A=1e-4,
    ...                I=(8.33e-10, 8.33e-10), J=1.41e-9, G=8.1e10, up=(0, 0, 1))
    >>> clamp = m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
    >>> tip = m.add_force(b.end, force=(0.0, 0.0, -10.0))
    >>> m
    Model(dim=3, 1 beams, 0 rigid bodies, 1 joints, 1 loads)
    >>> tree = m.build()
    >>> tree.n_bodies, tree.n_q
    (9, 48)
    """

    dim = 3

    def __init__(self, gravity=(0.0, 0.0, -9.81), elastic_model=None, *, dim=3):
        if elastic_model is not None:
            refuse(3, f"elastic_model={elastic_model!r}")
        self.gravity = vector3("gravity", gravity)
        self.elastic_model = None
        self.ground = SpatialGround(self)
        self._beams, self._bodies, self._joints, self._loads = [], [], [], []
        self._springs, self._rotational_springs = [], []
        self._assembly = None

    _POINTS = "ground.point(x, y, z), beam.start/.end/.node(i), body.point(dx, dy, dz)"

    def __repr__(self):
        return f"Model(dim=3, {Model.__repr__(self)[len('Model('):]}"

    def _check_point(self, name, point, between=False):
        """The planar check, and a point between two nodes (``beam.at(s)``) refused unless
        ``between`` (joints, loads and spring-dampers take it; it is on no single body)."""
        Model._check_point(self, name, point)
        if point.kind == P_ARC and not between:
            raise ValueError(f"{name} {point!r} lies between two nodes of {point.item!r}: it "
                             "is on no single body (joints, loads, spring-dampers and outputs "
                             f"take it); give a node ({point.item!r}.node(i))")
        return point

    def add_beam(self, length=None, n_elements=None, E=None, rho=None, A=None, I=None, J=None,
                 G=None, start=None, direction=None, up=None, shear=True,
                 kappa=(5.0 / 6.0, 5.0 / 6.0), damping=0.0, points=None, tangents=None,
                 element="se3-beam", rest="drawn", **planar):
        """Add a uniform spatial beam of ``n_elements`` elements, straight or curved; or an
        ANCF cable (``element="ancf-cable"``), straight or curved.

        Straight: ``length``, ``start``, ``direction`` (equal elements). Curved: ``points`` and
        ``tangents``, the nodes on the centreline and the unit tangents there. Node frames:
        x the tangent, y ``up`` projected normal to x, ``z = x cross y``; the section's y and z
        axes are those of ``I = (I_y, I_z)``.

        Parameters
        ----------
        length : float
            m, > 0 (straight beams).
        n_elements : int
            >= 1.
        E, rho, A : float
            Young's modulus (Pa), density (kg/m^3), section area (m^2); > 0.
        I : sequence of 2 floats
            ``(I_y, I_z)``: second moments of area about the section's y and z axes (m^4), > 0.
        J : float
            Torsion constant (m^4), > 0.
        G : float
            Shear modulus (Pa), > 0.
        start : sequence of 3 floats
            First node (m), default the origin (straight beams).
        direction : sequence of 3 floats
            The beam's axis (normalised; non-zero), default +x (straight beams).
        up : sequence of 3 floats
            Fixes the section's y axis (projected normal to the beam axis and normalised),
            default +z; refused within 1e-6 rad of the beam's axis.
        shear : bool
            True: Timoshenko (shear stiffness ``k G A``); False: the Euler-Bernoulli limit (a
            shear penalty, :meth:`rancf.model.spatial_items.SpatialBeam.stiffness`).
        kappa : sequence of 2 floats
            Shear correction factors ``(k_y, k_z)``, default 5/6 (rectangle-like sections).
        damping : float
            Kelvin-Voigt time c (s, >= 0): section forces ``C (eps - eps0 + c eps')``.
        points, tangents : array (n_elements + 1, 3), optional
            A curved beam: node positions (m) and unit tangents (norm 1 within 1e-9), each
            element's chord pointing ahead along both its end tangents. The length follows
            (the elements' arc lengths).
        element : {"se3-beam", "ancf-cable"}
            ``"se3-beam"`` (default): the relative-nodal beam of SE(3) strains, nodes with
            frames (everything above). ``"ancf-cable"``: the gradient-deficient ANCF cable of
            :mod:`rancf.elements.ancf_cable` (nodes ``[r, r']``, no torsion, consistent mass;
            theory: The spatial ANCF cable): it takes ``n_elements``, ``E``, ``rho``, ``A``,
            ``I`` (one bending second moment, m^4: a number or a pair of equal numbers),
            ``damping`` (Kelvin-Voigt time c, s, on the axial strain and curvature rates) and
            either ``length``, ``start``, ``direction`` (straight) or ``points`` and
            ``tangents`` (curved: the reference nodes ``r = points``, ``r' = tangents``; each
            element's length is the arc length of its cubic Hermite curve, by Gauss
            quadrature, :func:`rancf.elements.ancf_cable.element_lengths`; the strains of that
            reference, axial strain and curvature magnitude, are its rest state, so the cable
            is unstressed there, :func:`rancf.elements.ancf_cable.rest_state`); ``J``, ``G``,
            ``up``, ``shear`` and ``kappa`` describe a section frame it does not have, and are
            refused. A model with cables runs on the O(n) recursion when each cable hangs
            by one joint (spherical or clamp) and bodies hang from cable points by
            spherical joints, otherwise (a cable pinned at both ends, a ring) on the
            spatial DAE (``formulation="auto"`` chooses).
        rest : {"drawn", "straight"}
            The stress-free shape of an ``"ancf-cable"``: ``"drawn"`` (default) the reference
            configuration as drawn; ``"straight"`` a straight cable as long as the drawn one,
            each element's rest length its drawn arc length and its rest curvature zero (a
            slack cable drawn curved between two pins closer than its length, whose
            stress-free shape is straight). The drawn configuration is then where the cable
            starts, not a stress-free one. An SE(3) beam is stress-free as drawn and takes
            ``"drawn"`` only.

        Returns
        -------
        SpatialBeam or SpatialCable
            With points ``start``, ``end`` and ``node(i)``.

        Raises
        ------
        ValueError
            A parameter out of its range; ``up`` parallel to the beam; a planar beam's
            parameter (``angle``, a 2-vector ``start``, a single ``I``), named with the
            dimension.
        TypeError
            A missing parameter, or one of the wrong type.
        RuntimeError
            The model is frozen.

        Examples
        --------
        A quarter circle of radius 1 m in the x-y plane, section y axis along +z:

        >>> m = rancf.Model(dim=3)
        >>> t = np.linspace(0.0, np.pi / 2, 9)
        >>> P = np.column_stack([np.cos(t), np.sin(t), 0 * t])
        >>> T = np.column_stack([-np.sin(t), np.cos(t), 0 * t])
        >>> arc = m.add_beam(n_elements=8, E=2.1e11, rho=7800.0, A=1e-4, I=(8e-10, 8e-10),
        ...                  J=1.4e-9, G=8e10, points=P, tangents=T, up=(0, 0, 1))
        >>> round(arc.length, 12) == round(np.pi / 2, 12)
        True
        """
        self._check_open()
        refuse_parameters(3, "add_beam", planar, ("angle",))
        if element not in ELEMENTS:
            raise ValueError(f"element must be one of {list(ELEMENTS)}, got {element!r}")
        if element == "ancf-cable":
            return self._add_cable(length, n_elements, E, rho, A, I, start, direction, damping,
                                   points, tangents, rest, J=J, G=G, up=up, shear=shear,
                                   kappa=kappa)
        if rest != "drawn":
            raise ValueError(f"rest={rest!r} applies to element='ancf-cable'; an SE(3) beam "
                             "(element='se3-beam') is stress-free as drawn: rest='drawn'")
        checks.given("add_beam", ("n_elements", n_elements), ("E", E), ("rho", rho), ("A", A),
                     ("I", I), ("J", J), ("G", G))
        b = SpatialBeam(self, len(self._beams), length, n_elements, E, rho, A, I, J, G, start,
                        direction, up, shear, kappa, damping, points, tangents)
        self._beams.append(b)
        return b

    def _add_cable(self, length, n_elements, E, rho, A, I, start, direction, damping, points,
                   tangents, rest, **section):
        """:meth:`add_beam` of ``element="ancf-cable"``: the section's parameters refused where
        given (not at their defaults)."""
        defaults = dict(J=None, G=None, up=None, shear=True, kappa=(5.0 / 6.0, 5.0 / 6.0))
        for name, value in section.items():
            if value is None and defaults[name] is None:
                continue
            if defaults[name] is not None and np.array_equal(np.asarray(value, dtype=object),
                                                             np.asarray(defaults[name],
                                                                        dtype=object)):
                continue
            raise ValueError(f"{name}={value!r} does not apply to element='ancf-cable' (the "
                             "cable has no section frame and no torsion or shear); it takes "
                             "n_elements, E, rho, A, I, damping, and length, start, direction "
                             "(straight) or points, tangents (curved)")
        curved = points is not None or tangents is not None
        checks.given("add_beam", *((("length", length),) if not curved else ()),
                     ("n_elements", n_elements), ("E", E), ("rho", rho), ("A", A), ("I", I),
                     note="element='ancf-cable'")
        c = SpatialCable(self, len(self._beams), length, n_elements, E, rho, A, I, start,
                         direction, damping, points, tangents, rest)
        self._beams.append(c)
        return c

    def add_rigid_body(self, mass, inertia, position=(0.0, 0.0, 0.0), orientation=None,
                       **planar):
        """Add a rigid body, described at its centre of mass in its body frame.

        Parameters
        ----------
        mass : float
            kg, > 0.
        inertia : array (3, 3)
            Inertia tensor about the centre of mass in the body frame (kg m^2): symmetric
            (within 1e-9 of its largest entry), positive definite, and that of a mass
            distribution: each principal moment at most the sum of the other two (within
            1e-12 of the trace; a flat plate's (Ix, Iy, Ix + Iy) is the limit).
        position : sequence of 3 floats
            Reference centre of mass (m).
        orientation : array (3, 3) or sequence of 4 floats, optional
            Reference body frame: a rotation matrix (columns the body axes in global
            coordinates; orthogonal within 1e-9, determinant +1) or a unit quaternion ``(w, x,
            y, z)`` (norm 1 within 1e-9); default the identity.

        Returns
        -------
        SpatialRigidBody
            Whose ``point(dx, dy, dz)`` are points of its frame and ``centre`` its centre of
            mass.

        Raises
        ------
        ValueError
            A parameter out of its range: an inertia that is not symmetric positive definite
            or breaks the triangle inequality (named with its principal moments), an
            orientation that is not a rotation; a planar body's parameter (``angle``, a
            2-vector ``position``, a scalar ``inertia``), named with the dimension.
        RuntimeError
            The model is frozen.

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> rod = m.add_rigid_body(2.0, np.diag([1e-4, 0.04, 0.04]), position=(0.4, 0, 0))
        >>> pin = m.add_joint("revolute", m.ground.point(0, 0, 0), rod.point(-0.4, 0, 0),
        ...                   axis=(0, 1, 0))
        """
        self._check_open()
        refuse_parameters(3, "add_rigid_body", planar, ("angle",))
        r = SpatialRigidBody(self, len(self._bodies), mass, inertia, position, orientation)
        self._bodies.append(r)
        return r

    def add_joint(self, kind, parent, child, axis=None, axes=None, drive=None, effort=None):
        """Add a joint between a parent point and a child point (they must coincide).

        Parameters
        ----------
        kind : str
            A registered kind with a spatial side (:data:`rancf.joints.REGISTRY`):
            ``"fixed"`` (no coordinate), ``"revolute"`` (axis; q an angle, rad),
            ``"prismatic"`` (axis; q a slide, m; the relative rotation held),
            ``"cylindrical"`` (axis; slide and angle), ``"universal"`` (axes; two angles),
            ``"spherical"`` (a rotation vector, rad), ``"free"`` (translation and rotation
            vector: a floating base). q = 0 in the reference configuration.
        parent, child : SpatialPoint
            The child a point of a beam (any node: the beam then hangs from it in two chains)
            or a rigid body; the parent nearer the ground. At a point of an ANCF cable
            (``add_beam(..., element="ancf-cable")``) only ``"spherical"`` (the points
            coincide) and ``"fixed"`` (the clamp: the point held and the cable's slope kept
            along the other side's axis, its reference tangent in that frame; the slope's
            length and the spin about the cable's axis free: the cable has no torsion),
            without effort; a clamp joins a cable point to a body or the ground, or two points
            of one cable (a ring's end to its start: a splice, their positions and slopes r'
            held equal). Either may be a point between two nodes of a beam (``beam.at(s)``,
            an :class:`~rancf.model.items.ArcPoint`): the joint holds the point and frame of
            its element's curve there, on the spatial DAE (the recursion refuses it), without
            drive, effort or a spring-damper on its coordinate.
        axis : sequence of 3 floats, optional
            Revolute, prismatic, cylindrical: the axis, a global unit vector of the reference
            configuration (norm 1 within 1e-9).
        axes : array (2, 3), optional
            Universal: ``(a0, a1)``, global unit vectors orthogonal within 1e-9 (``|a0 . a1| <=
            1e-9``); a0 fixed in the parent, a1 turning with the first rotation.
        drive : callable, optional
            Revolute and prismatic: ``drive(t) -> (q, qd, qdd)``, q(0) = 0 (modulo 2 pi for an
            angle).
        effort : float, array or callable, optional
            Revolute and prismatic: N m or N, a constant or ``effort(t, q, qd)``. Spherical: a
            torque (3, N m) in the parent's frame, a constant or ``effort(t, q, qd)`` of the
            rotation vector q (rad) and its rate qd (rad/s), arrays (3,); free: a force (N, at
            the child's point) and a torque (N m), (6,) in the parent's frame, of q, qd (6,):
            the translation (m) and rotation vector (rad) and their rates
            (:meth:`rancf.model.spatial_joints.SpatialJoint.effort_value`). The effort acts on
            the child, its opposite on the parent.

        Returns
        -------
        SpatialJoint

        Raises
        ------
        ValueError
            An unknown kind, a planar-only kind, a missing or extra axis, non-unit or parallel
            or non-orthogonal axes, a drive on a kind of more than one coordinate (or none), an
            effort on a fixed, cylindrical or universal joint, a constant effort of the wrong
            size, the ground as the child, parent and child on one item (but two nodes of one
            ANCF cable: a ring, which runs on the spatial DAE); a kind other than spherical and
            fixed, or an effort, at a cable point; a drive or an effort at a point between
            two nodes of a beam, or a joint from there to a cable point. Points apart, a clamp between two cables and
            one between two points of a cable whose reference slopes differ are refused when
            the model is built (a drive or an effort on a joint that closes a loop runs on the
            spatial DAE).
        TypeError
            A point that is not a point, a drive that is not callable.
        RuntimeError
            The model is frozen.

        Examples
        --------
        A rigid link on a universal joint to the ground:

        >>> m = rancf.Model(dim=3)
        >>> r = m.add_rigid_body(1.0, np.diag([1e-3, 0.02, 0.02]), position=(0, 0, -0.5),
        ...                      orientation=[[0, 0, 1], [0, 1, 0], [-1, 0, 0]])
        >>> m.add_joint("universal", m.ground.point(0, 0, 0), r.point(-0.5, 0, 0),
        ...             axes=[(1, 0, 0), (0, 1, 0)])
        Joint(0: universal, ground.point(0, 0, 0) -> rigid_body[0].point(-0.5, 0, 0))
        """
        self._check_open()
        self._check_point("parent", parent, between=True)
        self._check_point("child", child, between=True)
        j = SpatialJoint(len(self._joints), kind, parent, child, axis, axes, drive, effort)
        check_cable_joint(j)
        check_arc_joint(j)
        self._joints.append(j)
        return j

    def add_spring_damper(self, p1, p2, k, c=0.0, rest_length=None):
        """Add a linear spring-damper between two points (theory: Loads).

        Point 1 is pulled by ``f n`` and point 2 by ``-f n``, ``f = k (l - l0) + c l'`` (N),
        with ``l`` the distance of the points and ``n`` the unit vector from point 1 to point 2
        (global). Its potential ``1/2 k (l - l0)^2`` is in the ``elastic`` column of
        :meth:`Result.energy` and its damping power ``c l'^2`` in ``dissipated``. In the
        implicit methods' Newton matrix its stiffness and damping in the points' relative
        position enter exactly (:mod:`rancf.formulations._spatial_implicit`).

        Parameters
        ----------
        p1, p2 : SpatialPoint or ArcPoint
            Ground points, beam nodes, points between two nodes of a beam (``beam.at(s)``: on
            the element's curve, its force the wrenches on the two nodes that do its virtual
            work, in the recursion and in the spatial DAE) or body points (not both on
            the ground); they must not coincide in the reference configuration (the line of
            action would be undefined).
        k : float
            Stiffness (N/m), >= 0.
        c : float
            Damping coefficient (N s/m), >= 0.
        rest_length : float, optional
            l0 (m), > 0; default the distance of the points in the reference configuration
            (set when the model is built).

        Returns
        -------
        SpringDamper

        Raises
        ------
        TypeError
            A point that is not a point.
        ValueError
            A negative or non-finite k or c, a rest length that is not > 0, a point of another
            model, two ground points; points that coincide in the reference configuration are
            refused when the model is built.
        RuntimeError
            The model is frozen.

        Examples
        --------
        A mass on a vertical spring-damper from the ground:

        >>> m = rancf.Model(dim=3)
        >>> mass = m.add_rigid_body(2.0, np.eye(3) * 0.01, position=(0, 0, -1))
        >>> spring = m.add_spring_damper(m.ground.point(0, 0, 0), mass.centre, k=200.0, c=0.5)
        """
        self._check_open()
        self._check_point("p1", p1, between=True)
        self._check_point("p2", p2, between=True)
        s = SpringDamper(len(self._springs), p1, p2, k, c, rest_length)
        self._springs.append(s)
        return s

    def add_rotational_spring_damper(self, joint, k, c=0.0, rest_angle=None):
        """Add a spring-damper on a revolute, prismatic or spherical joint.

        On a revolute or prismatic joint the generalized force ``-k (q - q0) - c q'`` acts on
        the joint's coordinate q as an effort does (a torque about a revolute joint's axis,
        N m; a force along a prismatic joint's, N); its potential is ``1/2 k (q - q0)^2`` and
        its damping power ``c q'^2``. On a spherical joint it is isotropic: the torque ``-k
        theta - c w`` (N m, parent's frame) on the child, ``theta = log(R R_0^T)`` the turn
        (rad, at most pi) from the rest rotation ``R_0 = exp(q0^)`` to the child's rotation
        relative to the parent R, w the relative angular velocity (rad/s); its potential
        ``1/2 k |theta|^2``, the same in every frame, and its damping power ``c |w|^2``
        (:class:`~rancf.model.spatial_joints.SpatialJointSpringDamper`). The potential is in
        the ``elastic`` column of :meth:`Result.energy` and the damping power in
        ``dissipated``; in the implicit methods' Newton matrix its stiffness and damping
        enter on the joint's block (exactly, but for a spherical damper's slope in q, zero
        at rest).

        Parameters
        ----------
        joint : SpatialJoint
            A revolute, prismatic or spherical joint of this model, not driven; on a joint
            that closes a loop it runs on the spatial DAE (as a drive or an effort there).
        k : float
            Stiffness, >= 0: N m/rad (revolute, spherical) or N/m (prismatic).
        c : float
            Damping, >= 0: N m s/rad or N s/m.
        rest_angle : float or array_like (3,), optional
            q0 (rad, or m for a prismatic joint); a spherical joint's rest rotation vector
            (3, rad, parent's frame, norm at most pi); default 0, the reference configuration.

        Returns
        -------
        rancf.model.spatial_joints.SpatialJointSpringDamper

        Raises
        ------
        TypeError
            ``joint`` is not a spatial joint.
        ValueError
            A joint of another model, of another kind (universal, cylindrical, fixed, free),
            or driven; a negative or non-finite k or c; a non-finite rest coordinate, or a
            spherical joint's rest rotation not 3 finite numbers of norm at most pi.
        RuntimeError
            The model is frozen.

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> bar = m.add_rigid_body(1.0, np.diag([1e-3, 0.08, 0.08]), position=(0.5, 0, 0))
        >>> hinge = m.add_joint("revolute", m.ground.point(0, 0, 0), bar.point(-0.5, 0, 0),
        ...                     axis=(0, 1, 0))
        >>> torsion = m.add_rotational_spring_damper(hinge, k=20.0, c=0.1)
        """
        self._check_open()
        if isinstance(joint, SpatialJoint) and joint not in self._joints:
            raise ValueError(f"joint {joint!r} belongs to another model")
        s = SpatialJointSpringDamper(len(self._rotational_springs), joint, k, c, rest_angle)
        self._rotational_springs.append(s)
        return s

    def add_force(self, point, force=(0.0, 0.0, 0.0), moment=(0.0, 0.0, 0.0), follower=False):
        """Add a point force and a moment at a point of a beam or rigid body.

        Parameters
        ----------
        point : SpatialPoint or ArcPoint
            Not a ground point. A point between two nodes of a beam (``beam.at(s)``): the
            load acts at the element's point there (its constant-strain curve, the point
            ``Result.position`` follows) through the wrenches on the element's two nodes that
            do its virtual work (theory: Loads between the nodes of a spatial beam); a
            follower load turns with the element's frame there.
        force : sequence of 3 floats or callable
            N, or ``force(t) -> (fx, fy, fz)``.
        moment : sequence of 3 floats or callable
            N m, or ``moment(t) -> (mx, my, mz)``. At a node of an ANCF cable it bends the
            cable: it turns the tangent ``d = r'/|r'|``, by ``(r' x dr')/|r'|^2``, so its
            generalized force on the node's slope is ``(M x r')/|r'|^2`` (none on r); its part
            along the current tangent does no work (the cable has no torsion). So the moment
            must be normal to the cable's reference tangent t there, ``|M . t| <= 1e-9 |M|``
            (:func:`~rancf.model.spatial_joints.cable_moment_refusal`): a constant one is
            checked here, a function's value at every call, one breaking the rule stopping
            the run (status "failed", a ValueError in ``Result.error``, the outputs before
            it kept; raised out of the call at t = 0, and by ``rancf.static``, which
            evaluates the functions at t = 0).
        follower : bool
            False: force and moment in global coordinates; True: in the frame of the point's
            body (a beam node's frame, a rigid body's), turning with it.

        Returns
        -------
        SpatialLoad

        Raises
        ------
        ValueError
            A ground point; a force or moment that is not three finite numbers (a planar
            load's two-component force or scalar moment is named with the dimension); at a
            cable point a follower load (a cable node has no frame) or a constant moment
            with a part about the cable's axis (the rule under ``moment``).
        RuntimeError
            The model is frozen.

        Examples
        --------
        A follower moment rolling a cantilever up about its section's z axis:

        >>> m = rancf.Model(dim=3, gravity=(0, 0, 0))
        >>> b = m.add_beam(1.0, 8, E=1e7, rho=1e3, A=1e-2, I=(1e-5, 1e-5), J=2e-5, G=5e6)
        >>> clamp = m.add_joint("fixed", m.ground.point(0, 0, 0), b.start)
        >>> roll = m.add_force(b.end, moment=(0, 0, 2 * np.pi * 1e7 * 1e-5), follower=True)
        """
        self._check_open()
        self._check_point("point", point, between=True)
        load = SpatialLoad(len(self._loads), point, force, moment, follower)
        if point.kind == P_NODE and isinstance(point.item, SpatialCable):
            _check_cable_load(load)
        self._loads.append(load)
        return load

    def build(self):
        """Check the whole model, freeze it and return its tree (cached).

        Returns
        -------
        rancf.model.spatial_tree.SpatialTree
            The frozen arrays the spatial formulations read.

        Raises
        ------
        ValueError
            Joint points apart (more than 1e-9 of the model size), an item not connected to
            the ground, a joint written child first, a drive whose q(0) is not 0, a model
            without items.

        Notes
        -----
        A joint that reaches an item the joints before it already reach closes a loop: the
        tree keeps it as a loop-closing link (``tree.loop_joint``, ``tree.loops``), which
        ``rancf.simulate`` runs on the spatial DAE (formulation "auto" or "dae"); the
        recursion runs trees.
        """
        if self._assembly is None:
            self._assembly = build_tree(self)
        return self._assembly

    def body_of(self, point):
        """The body of the tree a point is on, and its offset in that body's frame.

        Builds the model (:meth:`build`) if it is not yet built.

        Parameters
        ----------
        point : SpatialPoint
            A point of this model.

        Returns
        -------
        body : int
            Index in the tree's arrays; -1 for a ground point; ``n_bodies + k`` for node k of
            the cables (``tree.cable_x0``; a row of ``Result.nodes`` all the same).
        offset : ndarray (3,)
            m: the point is at ``r0[body] + A0[body] @ offset`` in the reference configuration
            (a ground point at ``offset``).

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> r = m.add_rigid_body(1.0, np.eye(3) * 0.01, position=(0, 0, -0.5))
        >>> pin = m.add_joint("spherical", m.ground.point(0, 0, 0), r.point(0, 0, 0.5))
        >>> m.body_of(r.point(0.1, 0, 0))
        (0, array([0.1, 0. , 0. ]))
        """
        self._check_point("point", point)
        tree = self.build()
        return point_body(point, tree.node_body, tree.beam_nodes, tree.rigid_body)

    def plot(self, ax=None):
        """Draw the reference configuration in 3D: the check to do before a long run.

        Beams are drawn as the polylines through their nodes, with each node's section y axis
        as a short tick; rigid bodies as their centre and frame axes (x, y, z of decreasing
        length) with lines to their joint and load points; joints by kind, with their axes
        dashed; ground points; forces (red) and moments (purple) as arrows in global
        coordinates (callable loads at t = 0; the longest arrow of each is a fifth of the model
        size). The three axes have one scale. The model is checked as when it is built (joint
        points must coincide) but not frozen. Imports matplotlib
        (:mod:`rancf.model.spatial_drawing` says what each artist is).

        Parameters
        ----------
        ax : mpl_toolkits.mplot3d.axes3d.Axes3D, optional
            Where to draw (``fig.add_subplot(projection="3d")``); a new figure when None.

        Returns
        -------
        mpl_toolkits.mplot3d.axes3d.Axes3D
            With equal scales and axes in m.

        Raises
        ------
        TypeError
            ``ax`` is not a 3D Axes.
        ValueError
            The model does not build (joint points apart, ...), as in :meth:`build`.

        Examples
        --------
        >>> m = rancf.Model(dim=3)
        >>> b = m.add_beam(1.0, 4, E=2.1e11, rho=7800.0, A=1e-4, I=(8e-10, 8e-10), J=1.4e-9,
        ...                G=8e10, direction=(0, 0, -1), up=(1, 0, 0))
        >>> pin = m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
        >>> tip = m.add_force(b.end, force=(0.0, 5.0, 0.0))
        >>> ax = m.plot()
        >>> m.frozen
        False
        """
        from .spatial_drawing import plot_model    # imports matplotlib: only when asked for
        return plot_model(self, ax)


def _check_cable_load(load):
    """Refuse at a cable node a follower load (a cable node has no frame) and a constant moment
    with a part about the cable's axis (:func:`~rancf.model.spatial_joints.cable_moment_refusal`,
    which :meth:`rancf.Load.value` applies to each value of a moment function)."""
    moment = load.moment
    if not callable(moment):
        refusal = cable_moment_refusal(moment, load.cable_tangent, load.point)
        if refusal:
            raise ValueError(refusal)
    if load.follower:
        raise ValueError(f"follower=True at the cable point {load.point!r}: a cable node has no "
                         "frame to turn the load with; give the force and moment in global "
                         "coordinates (follower=False)")
