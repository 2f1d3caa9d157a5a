"""The contract of a joint kind (theory: Joints in the recursion).

A planar joint holds some of the child point's position relative to the parent's point and some
of the child's direction relative to the parent's. Three primitives (integer codes of
:mod:`rancf.joints._codes`, the ones the compiled kernels switch on) say which:

``position``
    ``COINCIDENT`` (``r_c = r_a``, two rows) or ``ON_RAIL`` (``r_c`` on the line through
    ``r_a`` along the rail ``a = R(axis) p / |p|``, one row).
``direction``
    ``DIRECTION_FREE`` or ``DIRECTION_HELD`` (at the initial relative angle ``theta0``).
``coordinate``
    ``ANGLE`` (q = child orientation minus parent's, rad; an effort is a moment pair, N m) or
    ``SLIDE`` (q = ``(r_c - r_a) . a``, m; an effort is a force pair along the rail, N). A drive
    prescribes the coordinate: a driven angle is held at q(t), a driven slide at q(t).

revolute = coincident + free angle, prismatic = on rail + held angle (coordinate the slide),
fixed = coincident + held angle; on rail + free angle is a slot (``tests/test_joint_kinds.py``
registers one). Every kernel of the forces (coordinates, efforts, their Newton blocks, powers)
and of the DAE runs on these primitives, and so does the recursive formulation: a joint's map
of its child's first vertex (chi, eps, bias and reaction rows, theory: Joints in the recursion)
is composed of a *place* (the child's point at the parent's point, or on the rail at a slide
that is a rate or driven) and a *turn* (the child's slope or axis free, or held at the angle
coordinate q or at theta0), each written once in the kernel (:func:`recursion_maps`,
:class:`RecursionMaps`). So a kind that is a new composition of the primitives runs on both
formulations, explicit and implicit, without an edit outside its module.

**Both dimensions.** A kind module says what the kind is in a planar model (the primitives
above; ``planar = False`` for a kind that has no planar form) and in a spatial model (its
``spatial`` attribute, a :class:`SpatialMotion`, or None for a kind that is planar only). A
spatial kind is a composition of two primitives, as a planar one is: a translation t(q) (none,
along an axis, free) and a rotation R(q) (none, about an axis, about two axes, a rotation
vector); the axes it takes (global unit vectors of the reference configuration, stored in the
parent body's frame), the units of its coordinates and its efforts follow from them. Drives
apply to the kinds of one coordinate. The spatial kernels switch on the primitives, so a new
composition runs on the spatial recursion and DAE without an edit outside its module
(``tests/test_spatial_joint_kinds.py`` registers one).
"""
import functools
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ..elements import planar
from ._codes import (ANGLE, AT_DRIVEN_SLIDE, AT_POINT, COINCIDENT, COS, DIRECTION_FREE,
                     DIRECTION_HELD, HELD_AT_Q, HELD_AT_THETA0, LINEAR, ON_RAIL, ON_SLIDE, P_ARC,
                     P_NODE, R_AXIS, R_NONE, R_TWO_AXES, R_VECTOR, SIN, SLIDE, T_AXIS, T_FREE,
                     TURN_FREE, Rotation, Translation, motion_code, motion_primitives,
                     rotation_coordinates, translation_coordinates)

#: The parameters of :meth:`rancf.Model.add_joint` a kind may take.
PARAMETERS = ("axis", "drive", "effort")


@dataclass(frozen=True)
class SpatialMotion:
    """What a joint kind is in a spatial model (``rancf.Model(dim=3)``): a composition of a
    translation and a rotation primitive (:mod:`rancf.joints._codes`).

    The link moves the child body by ``A_c = A_p R(q) Q``, ``r_c = r_p + A_p (anchor + t(q)) -
    A_c offset`` (:mod:`rancf.model.spatial_tree`), its q the translation's coordinates (m)
    then the rotation's (rad):

    ========== ============================== ======================================
    primitive  t(q) or R(q)                   coordinates
    ========== ============================== ======================================
    T_NONE     t = 0                          0
    T_AXIS     t = q a0                       1 (m)
    T_FREE     t = q[0:3]                     3 (m)
    R_NONE     R = I                          0
    R_AXIS     R = exp(q a0^)                 1 (rad)
    R_TWO_AXES R = exp(q0 a0^) exp(q1 a1^)    2 (rad), a universal joint
    R_VECTOR   R = exp(q^)                    3 (rad), a rotation vector
    ========== ============================== ======================================

    Every kernel of the spatial formulations switches on the two primitives (of the link's
    :attr:`code`), so any composition runs on the recursion, explicit and implicit, and on the
    spatial DAE (whose link holds what the motion does not free).

    Attributes
    ----------
    translation : int
        A ``Translation`` code.
    rotation : int
        A ``Rotation`` code.

    Examples
    --------
    >>> from rancf.joints import REGISTRY
    >>> REGISTRY["cylindrical"].spatial.units
    ('m', 'rad')
    >>> REGISTRY["cylindrical"].spatial.axes
    1
    """

    translation: int
    rotation: int

    def __post_init__(self):
        if self.translation not in set(Translation):
            raise ValueError(f"translation must be a Translation code ({_names(Translation)}), "
                             f"got {self.translation!r}")
        if self.rotation not in set(Rotation):
            raise ValueError(f"rotation must be a Rotation code ({_names(Rotation)}), got "
                             f"{self.rotation!r}")
        object.__setattr__(self, "translation", Translation(self.translation))
        object.__setattr__(self, "rotation", Rotation(self.rotation))

    @property
    def code(self):
        """The link's ``Motion`` code, ``translation + MOTION_ROTATION rotation`` (what the tree
        stores and the kernels read back)."""
        return motion_code(self.translation, self.rotation)

    @property
    def axes(self):
        """How many axes it takes: 0; 1 (``axis=(ax, ay, az)``, the primitives' ``a0``); 2
        (``axes=(a0, a1)``, orthogonal; ``R_TWO_AXES``). Unit vectors in global coordinates of
        the reference configuration."""
        if self.rotation == R_TWO_AXES:
            return 2
        return int(self.translation == T_AXIS or self.rotation == R_AXIS)

    @property
    def n_translation(self):
        """Coordinates of the translation (0, 1 or 3; they come first in q)."""
        return translation_coordinates(self.translation)

    @property
    def n_rotation(self):
        """Coordinates of the rotation (0 to 3; after the translation's)."""
        return rotation_coordinates(self.rotation)

    @property
    def units(self):
        """The unit of each coordinate (``"m"`` then ``"rad"``) in the order of q."""
        return ("m",) * self.n_translation + ("rad",) * self.n_rotation

    @property
    def n_coordinates(self):
        """Number of coordinates of the joint (0 to 6)."""
        return self.n_translation + self.n_rotation

    @property
    def angles(self):
        """Indices in q of its angles about axes (``R_AXIS``, ``R_TWO_AXES``: what wraps)."""
        return tuple(range(self.n_translation, self.n_coordinates)) \
            if self.rotation in (R_AXIS, R_TWO_AXES) else ()

    @property
    def vector(self):
        """Index in q of its rotation vector (``R_VECTOR``), else -1."""
        return self.n_translation if self.rotation == R_VECTOR else -1

    @property
    def takes_drive(self):
        """True when it takes a drive (a kind of one coordinate, which the drive prescribes)."""
        return self.n_coordinates == 1

    @property
    def effort_size(self):
        """The numbers an effort is: 1 for a kind of one coordinate; for a kind whose
        coordinates are vectors (a rotation vector, a free translation) and at most one slide,
        all of them (a slide's force along a0 (N), a force vector (N), a torque vector (N m),
        in the parent's frame); 0 for a kind that takes no effort (cylindrical, universal)."""
        n = self.n_coordinates
        vectors = self.rotation == R_VECTOR or (self.translation == T_FREE
                                                and self.rotation == R_NONE)
        return n if n == 1 or vectors else 0

    @property
    def effort_words(self):
        """What an effort of several numbers is, in words (for messages)."""
        parts = {T_AXIS: ["a force along the axis (N)"],
                 T_FREE: ["a force (N)"]}.get(self.translation, [])
        if self.rotation == R_VECTOR:
            parts.append("a torque (N m)")
        return " then ".join(parts) + ", vectors in the parent's frame"

    @property
    def effort_unit(self):
        """Unit of the effort and reaction of a one-coordinate kind: ``"N m"`` or ``"N"``."""
        return "N" if self.units == ("m",) else "N m"

    def effort_directions(self, a0, a1, Q):
        """How a generalized force g on each coordinate (an effort's, a joint
        spring-damper's) acts across the joint: rows ``(f, m_p, m_c)`` (3 each), one per
        coordinate in the order of q, such that the child takes the force ``g A_p f`` at the
        joint point and the moment ``g (A_p m_p + A_c m_c)``, the parent their opposites
        (:func:`effort_wrenches`; A_p, A_c the bodies' frames). Their power is ``g q'``.

        Per primitive: ``T_AXIS`` a force along a0, ``T_FREE`` the force vector (rows e_i,
        parent's frame); ``R_AXIS`` a moment about a0, ``R_VECTOR`` the torque vector in the
        parent's frame (rows e_i; the recursion's generalized force is ``Jr^T`` of it),
        ``R_TWO_AXES`` the moment in the plane of the turning axes ``A_p a0`` and
        ``A_c a1_c`` whose components along them are the two forces:
        ``(m_p, m_c) = (a0, -c a1_c) / (1 - c^2)`` and ``(-c a0, a1_c) / (1 - c^2)``,
        ``c = a0 . a1``, ``a1_c = Q^T a1``. Each is the least wrench at the joint point that
        does the coordinate's work: the joint's constraint does none on its coordinates, so
        a reaction on the child is the wrench through the joint less these
        (:meth:`rancf.Result.reaction`).

        Parameters
        ----------
        a0, a1 : array_like (3,)
            The joint's axes in the parent's frame (unit; unused ones any value).
        Q : array_like (3, 3)
            The reference relative orientation ``A0_p^T A0_c``.

        Returns
        -------
        f, m_p, m_c : ndarray (n_coordinates, 3) each
        """
        a0 = np.asarray(a0, dtype=float)
        e, z = np.eye(3), np.zeros(3)
        rows = []
        if self.translation == T_AXIS:
            rows.append((a0, z, z))
        elif self.translation == T_FREE:
            rows += [(e[k], z, z) for k in range(3)]
        if self.rotation == R_AXIS:
            rows.append((z, a0, z))
        elif self.rotation == R_VECTOR:
            rows += [(z, e[k], z) for k in range(3)]
        elif self.rotation == R_TWO_AXES:
            a1c = np.asarray(Q, dtype=float).T @ np.asarray(a1, dtype=float)
            c = float(a0 @ np.asarray(a1, dtype=float))
            rows += [(z, a0 / (1 - c * c), -c * a1c / (1 - c * c)),
                     (z, -c * a0 / (1 - c * c), a1c / (1 - c * c))]
        out = np.zeros((3, len(rows), 3))
        for i, row in enumerate(rows):
            out[:, i] = row
        return out[0], out[1], out[2]


def effort_wrenches(g, Ap, Ac, f, mp, mc):
    """The wrenches (n, 6) ``[F, M]`` on the children of generalized forces g (n,) acting
    along rows ``(f, m_p, m_c)`` (n, 3 each; :meth:`SpatialMotion.effort_directions`) of
    joints whose parents' and children's frames are Ap, Ac (n, 3, 3): ``F = g A_p f`` (N, at
    the joint point) and ``M = g (A_p m_p + A_c m_c)`` (N m), global. The spatial DAE's
    compiled kernel ``joint_wrenches`` applies the same wrench (and its opposite on the
    parent) as generalized forces."""
    g = np.asarray(g, dtype=float)[:, None]
    F = g * np.einsum("nij,nj->ni", Ap, f)
    M = g * (np.einsum("nij,nj->ni", Ap, mp) + np.einsum("nij,nj->ni", Ac, mc))
    return np.concatenate([F, M], axis=1)


@functools.lru_cache(maxsize=None)
def link_motion(code):
    """The :class:`SpatialMotion` of a link's ``Motion`` code (a tree's ``motion``, an
    element's ``M_ELEMENT`` read as its free motion)."""
    return SpatialMotion(*motion_primitives(code))


def _names(codes):
    return ", ".join(f"{c.name} = {int(c)}" for c in codes)


class RecursionMaps(NamedTuple):
    """A joint's map of its child's first vertex in the recursive formulation (theory: Joints
    in the recursion), composed of two parts that the kernel
    (``rancf/formulations/_recursive.pyx``, ``_first_vertex``) writes each once.

    Attributes
    ----------
    place : int
        A ``Place`` code: the child's point at the parent's point (``AT_POINT``), or at
        ``r_a + g a`` on the rail with the slide g a rate (``ON_SLIDE``) or driven
        (``AT_DRIVEN_SLIDE``, reaction row ``(a, 0)``).
    turn : int
        A ``Turn`` code: the child's slope (beam) or axis (body) free (``TURN_FREE``), held at
        the angle coordinate q, q(t) of a drive or q0 (``HELD_AT_Q``, with the coordinate's
        reaction row), or held at theta0 (``HELD_AT_THETA0``).
    rates : int
        Its rates eta (0 to 3): 1 for ``ON_SLIDE``, then 2 (beam slope) or 1 (body angle) for
        ``TURN_FREE``, 1 (a beam's polar slope length) or 0 (a body) for a held turn.
    constant : bool
        Whether chi and eps are constant (a beam's first node at the parent's point, its slope
        free): a factorization that need not be redone.
    """

    place: int
    turn: int
    rates: int
    constant: bool


def recursion_maps(position, direction, coordinate, child_kind, driven):
    """The first-vertex map of the primitives (:class:`RecursionMaps`).

    The slide is a rate on a rail unless the slide coordinate is driven; the direction is held
    at q when the coordinate is an angle that is driven or held, at theta0 when it is held
    with a slide coordinate, else free (as the DAE's rows of :meth:`JointKind.constraint_rows`).

    Parameters
    ----------
    position, direction, coordinate : int
        The kind's primitives (module docstring).
    child_kind : int
        ``P_NODE`` (a beam's first node) or ``P_BODY`` (a rigid body).
    driven : bool

    Returns
    -------
    RecursionMaps
    """
    if position == ON_RAIL:
        place = AT_DRIVEN_SLIDE if driven and coordinate == SLIDE else ON_SLIDE
    else:
        place = AT_POINT
    if coordinate == ANGLE and (driven or direction == DIRECTION_HELD):
        turn = HELD_AT_Q
    elif direction == DIRECTION_HELD:
        turn = HELD_AT_THETA0
    else:
        turn = TURN_FREE
    beam = child_kind == P_NODE
    rates = int(place == ON_SLIDE) + ((2 if beam else 1) if turn == TURN_FREE else int(beam))
    return RecursionMaps(place, turn, rates, beam and place == AT_POINT and turn == TURN_FREE)


class JointKind:
    """One kind of joint: subclass it in a module of its own and register it
    (:func:`rancf.joints.register`).

    A kind provides, as class attributes:

    ``name`` : str
        What :meth:`rancf.Model.add_joint` takes as ``kind`` (and :attr:`rancf.Joint.kind` is).
    ``position``, ``direction``, ``coordinate`` : int
        Its primitives (module docstring; codes of :mod:`rancf.joints._codes`): what the
        compiled kernels run (joint coordinate, effort, drive, held angle) and what
        :meth:`constraint_rows` builds by default.
    ``parameters`` : tuple of str
        Which of ``"axis"``, ``"drive"``, ``"effort"`` it takes (:meth:`check` refuses the
        others; ``axis`` is the rail's angle in the parent's frame, rad).
    ``style`` : dict
        Matplotlib ``Line2D`` properties of its marker at the child's point
        (:mod:`rancf.results.plotting`; a driven joint of any kind is drawn as driven, and an
        ``ON_RAIL`` kind with its dashed rail).
    ``recursion_reason`` : str or None
        None (the default): the recursive formulation runs it on the maps of its primitives
        (:meth:`recursion`). A kind whose :meth:`constraint_rows` are not its primitives' says
        here why the recursion cannot run it.
    ``planar`` : bool
        False for a kind that is spatial only (then the planar attributes are unused and a
        planar model refuses it).
    ``spatial`` : SpatialMotion or None
        What it is in a spatial model; None for a kind that is planar only (a spatial model
        refuses it).

    and as methods, each with a default from the primitives:

    :meth:`check` (the parameters given, when the joint is made), :attr:`unit` and
    :attr:`effort_unit`, :meth:`q0` (the coordinate of the reference geometry),
    :meth:`drive_start` (a drive's q(0) against the reference geometry), :meth:`constraint_rows`
    (its rows of the DAE formulation) and :meth:`recursion` (its map in the recursive
    formulation, :class:`RecursionMaps`).
    """

    name = None
    position = COINCIDENT
    direction = DIRECTION_FREE
    coordinate = ANGLE
    parameters = ("drive", "effort")
    style = dict(marker="o", markersize=7, markerfacecolor="white", markeredgecolor="k")
    recursion_reason = None
    planar = True
    spatial = None

    # --- the joint's parameters -------------------------------------------------------------
    def check(self, joint, registered):
        """Refuse what this kind does not take (called when the joint is made).

        Parameters
        ----------
        joint : rancf.Joint
            With ``axis``, ``drive``, ``effort`` already type-checked.
        registered : dict
            The registered kinds by name (to name those that take a refused parameter).

        Raises
        ------
        ValueError
            A parameter the kind does not take, or an effort on a driven joint.
        """
        if joint.axis is not None and "axis" not in self.parameters:
            takers = ", ".join(n for n, k in registered.items() if "axis" in k.parameters)
            raise ValueError(f"axis applies to {takers} joints only, got axis={joint.axis!r} for "
                             f"a {self.name} joint")
        for name in ("drive", "effort"):
            if getattr(joint, name) is not None and name not in self.parameters:
                raise ValueError(f"a {self.name} joint takes no {name}, got {name}="
                                 f"{getattr(joint, name)!r}")
        if joint.drive is not None and joint.effort is not None:
            raise ValueError("a driven joint takes no effort (the drive prescribes its motion; "
                             "its reaction is in the result)")

    @property
    def unit(self):
        """Unit of q: ``"rad"`` (an angle) or ``"m"`` (a slide)."""
        return "m" if self.coordinate == SLIDE else "rad"

    @property
    def effort_unit(self):
        """Unit of its effort and reaction: ``"N m"`` (an angle) or ``"N"`` (a slide)."""
        return "N" if self.coordinate == SLIDE else "N m"

    # --- the reference geometry -------------------------------------------------------------
    def q0(self, theta0):
        """The coordinate of the reference geometry, where the joint points coincide.

        Parameters
        ----------
        theta0 : float
            Initial relative angle (rad), ``atan2(p x c, p . c)``.

        Returns
        -------
        float
            theta0 (rad) for an angle, 0 m for a slide.
        """
        return 0.0 if self.coordinate == SLIDE else float(theta0)

    def drive_start(self, index, joint, q, theta0, tol):
        """Check a drive's q(0) against the reference geometry; return the joint's q0.

        Parameters
        ----------
        index : int
            The joint's number (for messages).
        joint : rancf.Joint
        q : float
            The drive's q(0) (rad or m).
        theta0 : float
            Initial relative angle (rad).
        tol : float
            Length tolerance (m).

        Returns
        -------
        float
            q0: the drive's q(0) for an angle (its turn, which theta0 does not know), 0 m for a
            slide.

        Raises
        ------
        ValueError
            q(0) off the reference geometry (a slide not 0 within ``tol``, an angle not theta0
            modulo 2 pi within 1e-8 rad), or a driven slide on a beam node (the slide along a
            stretching tangent is not defined as a drive).
        """
        if self.coordinate == SLIDE:
            if abs(q) > tol:
                raise ValueError(f"joint {index} ({self.name}): drive q(0) = {q:.6g} m, but the "
                                 "slide starts at 0 (the joint points coincide)")
            if joint.parent.kind in (P_NODE, P_ARC):
                raise ValueError(f"joint {index}: a driven {self.name} joint needs a ground or "
                                 "rigid-body parent (the slide along a stretching beam tangent "
                                 "is not defined as a drive)")
            return 0.0
        mismatch = abs(planar.wrap(q - theta0))
        if mismatch > 1e-8:
            raise ValueError(f"joint {index} ({self.name}): drive q(0) = {q:.6g} rad does not "
                             f"match the initial relative angle {theta0:.6g} rad (modulo 2 pi) "
                             "of the child and the parent")
        return float(q)

    # --- the DAE formulation ----------------------------------------------------------------
    def constraint_rows(self, table, index, joint, forms, axis, theta0):
        """Add the joint's rows to the DAE's constraint table.

        Each row is a polynomial of degree two in the coordinates x, built from linear forms
        (objects with ``terms`` and ``const``, which subtract): the parent's and child's point
        positions ``r_a``, ``r_c`` and directions p, c. The primitives give:

        * ``COINCIDENT``: ``r_c - r_a = 0`` (two rows);
        * ``ON_RAIL``: ``(r_c - r_a) x R(axis) p = 0``, and a driven slide
          ``(r_c - r_a) . R(axis) p - q(t) = 0`` (its row is ``table.slide_row[index]``;
          |p| = 1 for the ground and bodies that a driven slide takes);
        * a held direction (``DIRECTION_HELD``, or a driven ``ANGLE``): ``p^T B(q) c =
          |p| |c| sin(phi_c - phi_p - q) = 0``, ``B(q) = cos q J^T - sin q I``, q the drive's
          q(t) or theta0 (its row is ``table.angle_row[index]``).

        Parameters
        ----------
        table : rancf.formulations.dae.ConstraintTable
            ``row()`` opens a row; ``linear(row, form, coef, mode, joint)``,
            ``bilinear(row, left, right, M, mode, joint)`` and ``constant(row, coef, mode,
            joint)`` add terms, mode one of the codes ``CONSTANT``, ``COS``, ``SIN``,
            ``LINEAR`` (a factor 1, cos q, sin q, q of the joint's drive).
        index : int
            The joint's number.
        joint : rancf.Joint
        forms : tuple
            ``(r_a, p, r_c, c)``, each a list of two linear forms.
        axis : float
            The rail's angle in the parent's frame (rad; 0 when not given).
        theta0 : float
            Initial relative angle (rad).
        """
        pos_p, dir_p, pos_c, dir_c = forms
        delta = [pos_c[0] - pos_p[0], pos_c[1] - pos_p[1]]
        if self.position == ON_RAIL:
            rail = planar.rotation(axis)
            row = table.row()
            table.bilinear(row, delta, dir_p, _transposed_J_times(rail))
            if joint.driven and self.coordinate == SLIDE:
                row = table.row()
                table.slide_row[index] = row
                table.bilinear(row, delta, dir_p, rail)
                table.constant(row, -1.0, LINEAR, index)
        else:
            for i in range(2):
                row = table.row()
                table.linear(row, delta[i], 1.0)
        driven_angle = joint.driven and self.coordinate == ANGLE
        if self.direction != DIRECTION_HELD and not driven_angle:
            return
        row = table.row()
        table.angle_row[index] = row
        if driven_angle:
            for a, b, coef, mode in ((0, 0, -1.0, SIN), (0, 1, 1.0, COS), (1, 0, -1.0, COS),
                                     (1, 1, -1.0, SIN)):
                table.bilinear(row, [dir_p[a]], [dir_c[b]], np.array([[coef]]), mode, index)
        else:
            # B(theta0) = cos J^T - sin I = J^T R(theta0)^T
            table.bilinear(row, dir_p, dir_c, _transposed_J_times(planar.rotation(theta0).T))

    # --- the recursive formulation ----------------------------------------------------------
    def recursion(self, child_kind, driven):
        """The joint's map of its child's first vertex in the recursive formulation.

        Parameters
        ----------
        child_kind : int
            ``P_NODE`` (a beam's first node) or ``P_BODY`` (a rigid body).
        driven : bool

        Returns
        -------
        RecursionMaps or None
            The map of its primitives (:func:`recursion_maps`: its chi, eps, bias and reaction
            rows of theory: Joints in the recursion); None when :attr:`recursion_reason` is set
            (then it says why the recursion cannot run the kind).
        """
        if self.recursion_reason is not None:
            return None
        return recursion_maps(self.position, self.direction, self.coordinate, child_kind,
                              driven)


def _transposed_J_times(M):
    """``J^T M`` for a 2 x 2 matrix M, ``J = [[0, -1], [1, 0]]`` the quarter turn: M's second
    row over minus its first (exact: no arithmetic but signs)."""
    return np.array([M[1], -M[0]])
