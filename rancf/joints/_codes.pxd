# The integer codes the compiled kernels switch on, defined here once (theory: Joints in the
# recursion). The kernels cimport them; Python imports their mirror from rancf.joints._codes (a
# cpdef enum becomes an IntEnum there), so no table of codes is written anywhere else.

cpdef enum PointKind:
    # what a joint or load point belongs to (rancf.model.Point.kind)
    P_GROUND = 0      # a ground point: position g, direction (cos a, sin a)
    P_NODE = 1        # a beam node [r, r']: position r, direction r'
    P_BODY = 2        # a rigid-body point d: position r_G + A(d) u, direction u
    P_ARC = 3         # a beam point between nodes k, k + 1 (rancf.model.items.ArcPoint): offset
                      # (xi, l); position S(xi) e and direction dS/dx e of the element's e

cpdef enum Position:
    # how a joint holds the child's point relative to the parent's point
    COINCIDENT = 0    # r_c = r_a (two constraint rows)
    ON_RAIL = 1       # r_c on the line through r_a along R(axis) p (one row)

cpdef enum Direction:
    # how a joint holds the child's direction relative to the parent's
    DIRECTION_FREE = 0    # free (held only when the joint's angle coordinate is driven)
    DIRECTION_HELD = 1    # at its initial relative angle (one row)

cpdef enum Coordinate:
    # what a joint's q is, and so where its effort acts and what its drive prescribes
    ANGLE = 0         # child orientation minus parent's (rad); effort a moment pair (N m)
    SLIDE = 1         # (r_c - r_a) . R(axis) p / |p| along the rail (m); effort a force pair (N)

cpdef enum RecursionCode:
    # what a vertex is in the recursive formulation (rancf/formulations/_recursive.pyx)
    FREE = 0          # a beam node after the first: its four rates are free
    FIRST_NODE = 1    # the first node of a beam, hung on its tree joint
    FIRST_BODY = 2    # a rigid body, hung on its tree joint

cpdef enum Place:
    # the position part of a first vertex's map: where its joint puts the child's point
    AT_POINT = 0      # at the parent's point (COINCIDENT): no rate
    ON_SLIDE = 1      # at r_a + g a on the rail (ON_RAIL), the slide g a rate
    AT_DRIVEN_SLIDE = 2   # at r_a + g(t) a, a driven slide: its reaction row bh = (a, 0)

cpdef enum Turn:
    # the direction part: how its joint holds the child's slope (beam) or axis (body)
    TURN_FREE = 0     # free: the slope's two rates, or the body's absolute angle phi (one)
    HELD_AT_Q = 1     # at the angle coordinate's q (q(t) driven, q0 held): a beam's polar slope
                      # s (one rate), a body none; the coordinate's reaction row bh
    HELD_AT_THETA0 = 2    # at theta0 (a held direction of a slide coordinate): as HELD_AT_Q,
                          # without a reaction row

cpdef enum TermMode:
    # the time factor of a DAE constraint term (rancf.formulations.dae.ConstraintTable)
    CONSTANT = 0      # 1
    COS = 1           # cos q(t) of the term's driven joint
    SIN = 2           # sin q(t)
    LINEAR = 3        # q(t)

cpdef enum Translation:
    # the translation primitive of a spatial motion: t(q) in the parent's frame (its
    # coordinates come first in the link's q)
    T_NONE = 0         # t = 0 (no coordinate)
    T_AXIS = 1         # t = q a0 (one coordinate, m)
    T_FREE = 2         # t = q[0:3] (three, m)

cpdef enum Rotation:
    # the rotation primitive: R(q) (its coordinates follow the translation's)
    R_NONE = 0         # R = I (no coordinate)
    R_AXIS = 1         # R = exp(q a0^) (one, rad)
    R_TWO_AXES = 2     # R = exp(q0 a0^) exp(q1 a1^), a universal joint (two, rad)
    R_VECTOR = 3       # R = exp(q^), q a rotation vector (three, rad)

cpdef enum MotionCode:
    # how a link's code (``Motion``) composes its primitives
    MOTION_ROTATION = 4    # the rotation's place value (above every Translation)
    MOTION_ELEMENT = 16    # the element flag (above every composition)

cpdef enum Motion:
    # how a spatial link moves its child body relative to its parent body (theory: Spatial
    # trees): r_c = r_p + A_p (anchor + t(q)) - A_c offset, A_c = A_p R(q) Q, with the axes a0, a1
    # in the parent's frame (rancf/formulations/_spatial.pyx). A link's code is the composition
    # translation + MOTION_ROTATION rotation of its two primitives (motion_translation,
    # motion_rotation below read them back), MOTION_ELEMENT added for a beam element's link;
    # the joint kinds' compositions are named here for trees built by hand and for tests, and
    # any other composition is a code as valid (rancf.joints.kind.SpatialMotion.code)
    M_FIXED = T_NONE + MOTION_ROTATION * R_NONE            # (0 coordinates)
    M_REVOLUTE = T_NONE + MOTION_ROTATION * R_AXIS         # (1)
    M_PRISMATIC = T_AXIS + MOTION_ROTATION * R_NONE        # (1)
    M_CYLINDRICAL = T_AXIS + MOTION_ROTATION * R_AXIS      # t = q0 a0, R = exp(q1 a0^) (2)
    M_UNIVERSAL = T_NONE + MOTION_ROTATION * R_TWO_AXES    # (2)
    M_SPHERICAL = T_NONE + MOTION_ROTATION * R_VECTOR      # (3)
    M_FREE = T_FREE + MOTION_ROTATION * R_VECTOR           # (6)
    # a beam element's link: as M_FREE, with the element's elastic and damping forces
    M_ELEMENT = M_FREE + MOTION_ELEMENT                    # (6)


cdef inline int motion_translation(int motion) noexcept nogil:
    """A link code's ``Translation``."""
    return motion % MOTION_ROTATION


cdef inline int motion_rotation(int motion) noexcept nogil:
    """A link code's ``Rotation``."""
    return (motion % MOTION_ELEMENT) // MOTION_ROTATION


cdef inline int translation_size(int translation) noexcept nogil:
    """The coordinates of a ``Translation``: 0, 1 or 3."""
    return 3 if translation == T_FREE else (1 if translation == T_AXIS else 0)


cdef inline int rotation_size(int rotation) noexcept nogil:
    """The coordinates of a ``Rotation``: 0, 1, 2 or 3."""
    return 3 if rotation == R_VECTOR else (2 if rotation == R_TWO_AXES else
                                           (1 if rotation == R_AXIS else 0))


cpdef enum LinkRotation:
    # what a link of the spatial DAE holds of its two bodies' relative rotation
    # (rancf/formulations/_spatial_dae.pyx, LinkKernel)
    ROT_NONE = 0       # nothing (spherical, free)
    ROT_LOCK = 1       # all of it (3 rows)
    ROT_AXIS = 2       # all but the turn about a0 (2 rows)
    ROT_UNIVERSAL = 3  # a0 and a1 kept normal (1 row)

cpdef enum LinkTranslation:
    # what it holds of the joint points' relative translation
    TR_NONE = 0        # nothing (free)
    TR_LOCK = 1        # all of it (3 rows)
    TR_PLANE = 2       # all but the slide along a0 (2 rows)

cpdef enum LinkDrive:
    # what a drive on a link prescribes (a rheonomic row)
    DRIVE_NONE = 0
    DRIVE_REVOLUTE = 1     # the angle about a0
    DRIVE_PRISMATIC = 2    # the slide along a0

cpdef enum LinkSide:
    # a side of a joint at a cable point (CableLinkKernel)
    SIDE_GROUND = 0
    SIDE_BODY = 1
    SIDE_CABLE = 2

cpdef enum ArcSide:
    # a side of a joint or spring-damper end at a beam.at(s) point (ArcLinkKernel,
    # ArcSpringKernel): the ground, a body (its pose), or the point at xi of the element
    # joining two bodies (their two poses)
    ARC_SIDE_GROUND = 0
    ARC_SIDE_BODY = 1
    ARC_SIDE_ARC = 2

cpdef enum CableJoint:
    # what a joint at a cable point holds (SpatialTree.cable_joint_kind)
    CABLE_SPHERICAL = 0  # the point's position
    CABLE_CLAMP = 1      # the position and the slope's direction (a ``fixed`` joint)
    CABLE_SPLICE = 2     # position and slope equal to another point's of the same cable (a ring)
