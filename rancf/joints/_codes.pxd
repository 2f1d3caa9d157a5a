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

cpdef enum Motion:
    # how a spatial link moves its child body relative to its parent body (theory: Spatial
    # trees): r_c = r_p + A_p (anchor + t(q)) - A_c offset, A_c = A_p R(q) Q, with the axes a0, a1
    # in the parent's frame (rancf/formulations/_spatial.pyx)
    M_FIXED = 0        # t = 0, R = I (no coordinate)
    M_REVOLUTE = 1     # R = exp(q a0^) (1)
    M_PRISMATIC = 2    # t = q a0 (1)
    M_CYLINDRICAL = 3  # t = q0 a0, R = exp(q1 a0^) (2)
    M_UNIVERSAL = 4    # R = exp(q0 a0^) exp(q1 a1^) (2)
    M_SPHERICAL = 5    # R = exp(q^), q a rotation vector (3)
    M_FREE = 6         # t = q[0:3], R = exp(q[3:6]^) (6)
    M_ELEMENT = 7      # as M_FREE, with the beam element's elastic and damping forces (6)

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
