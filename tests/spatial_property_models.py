"""Random valid spatial models for the property-based tests (tests/test_spatial_properties.py).

The spatial counterpart of tests/property_models.py: a model is a plain, printable
:class:`SpatialSpec` (a failing example found by hypothesis reads as Python that rebuilds it),
built by :func:`build` into ``rancf.Model(dim=3)``. Items are added in order, each jointed to
the ground or to an earlier item, the child placed so that its joint point lies on the parent's
point, so every spec is a valid model:

* a beam, straight (``length, start, direction``) or curved (``points, tangents``: an arc of a
  circle in its own x-y plane), turned by the rotation vector ``turn`` (its axis along the
  turned x, its section's y axis ``up`` the turned z, normal to every tangent); its node
  ``child_at`` (0 its start; an interior node makes it hang from there in two chains) is on
  the parent's point;
* a rigid body of random mass, random positive-definite inertia (principal moments
  ``x + y, y + z, z + x`` of three positive numbers: those of a mass distribution) turned by
  ``inertia_turn``, its frame turned by ``turn``, placed so that its point ``child_at`` (as
  :class:`Item`'s ``at`` says) is on the parent's point;
* every spatial joint kind, with random global unit axes (a universal joint's two made
  orthogonal); a revolute or prismatic joint may be driven (``q(t) = a sin(3 t)``, q(0) = 0);
  a joint may carry a rotational spring-damper (revolute, prismatic, spherical), or a
  constant effort or an effort function of (t, q, qd) (revolute, prismatic, spherical, free).

Scales: every length is ``scale`` times a factor in [0.25, 4]; sections are rectangles of
``slenderness * scale`` by ``aspect`` times that; forces are multiples of the weight ``F0`` of a
beam of length ``scale``, moments of ``F0 * scale``, spring stiffnesses of ``F0`` per m or
``F0 * scale`` per rad: every model of any scale is loaded alike.
"""
from dataclasses import dataclass, field

import numpy as np
from scipy.spatial.transform import Rotation

import rancf

KINDS = ("fixed", "revolute", "prismatic", "cylindrical", "universal", "spherical", "free")
#: joint kinds of one coordinate (a drive, an effort function)
ONE = ("revolute", "prismatic")
#: joint kinds that take a rotational spring-damper, and a constant effort
SPRUNG = ("revolute", "prismatic", "spherical")
EFFORT_SIZE = {"revolute": 1, "prismatic": 1, "spherical": 3, "free": 6}


def rot(v):
    return Rotation.from_rotvec(np.asarray(v, dtype=float)).as_matrix()


def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


@dataclass(frozen=True)
class Item:
    """One beam or rigid body and the joint that holds it (see the module docstring).

    ``kind``: "beam", "curved" (a beam along an arc of ``bend`` rad) or "body". ``at``: where
    on the parent, in [0, 1] (a beam's node ``round(at * n_elements)``, a body point ``0.3
    scale`` along ``(cos 2 pi at, sin 2 pi at, 0.5)`` of its frame, a ground point at ``x =
    scale * at``); ``child_at`` the child's own point on it, likewise. ``axis``, ``axis2``:
    3-vectors normalised into the joint's axes. ``effort``: "none", "spring" (a rotational spring-damper of ``|strength|`` reference stiffnesses),
    "constant" (``strength`` reference efforts; a spherical joint's along ``axis``, a free
    joint's force and torque both along it) or "function" (that times ``cos(5 t)``, minus
    ``0.1 |that| qd``). ``size``: a beam's length relative to the scale, or a body's mass
    relative to that of a beam of length ``scale``.
    """

    kind: str = "beam"
    parent: int = -1
    at: float = 0.0
    child_at: float = 0.0
    joint: str = "spherical"
    driven: bool = False
    effort: str = "none"
    strength: float = 1.0
    turn: tuple = (0.0, 0.0, 0.0)
    axis: tuple = (0.0, 1.0, 0.0)
    axis2: tuple = (0.0, 0.0, 1.0)
    size: float = 1.0
    n_elements: int = 2
    bend: float = 1.0
    inertia: tuple = (0.5, 0.5, 0.5)
    inertia_turn: tuple = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class Load:
    """A force ``F0 * force`` and moment ``F0 * scale * moment`` on item ``item`` (a beam's
    node ``round(at * n_elements)``, a body point as :class:`Item`'s ``at``); ``timed``:
    multiplied by ``cos(5 t)``; ``follower``: in the point's body frame."""

    item: int = 0
    at: float = 1.0
    force: tuple = (0.0, 0.0, -1.0)
    moment: tuple = (0.0, 0.0, 0.0)
    timed: bool = False
    follower: bool = False


@dataclass(frozen=True)
class SpatialSpec:
    """A random spatial model: SI material constants and scale, items, loads."""

    scale: float = 1.0
    E: float = 1e7
    rho: float = 2000.0
    slenderness: float = 0.02
    aspect: float = 1.0
    gravity: tuple = (0.0, 0.0, -9.81)
    damping: float = 0.0
    items: tuple = field(default_factory=lambda: (Item(),))
    loads: tuple = ()


def section(spec):
    """A, (I_y, I_z), J of the rectangle ``b x h``, ``b = slenderness scale``, ``h = aspect
    b``; J by the classical approximation for a rectangle of sides ``a >= c``:
    ``a c^3 (1/3 - 0.21 (c/a) (1 - (c/a)^4 / 12))`` (within 1 % of the exact series)."""
    b = spec.slenderness * spec.scale
    h = spec.aspect * b
    a_, b_ = max(b, h), min(b, h)
    J = a_ * b_ ** 3 * (1.0 / 3.0 - 0.21 * (b_ / a_) * (1.0 - (b_ / a_) ** 4 / 12.0))
    return b * h, (b * h ** 3 / 12.0, h * b ** 3 / 12.0), J


def reference_force(spec):
    """F0 (N): the weight of a beam of length ``scale`` (under 9.81 m/s^2)."""
    return spec.rho * section(spec)[0] * spec.scale * 9.81


def beam_nodes(it, scale):
    """Node positions (n + 1, 3) and unit tangents of a beam item, in its own frame, its
    start at the origin: along x, or an arc of ``bend`` rad in the x-y plane."""
    n, L = it.n_elements, it.size * scale
    s = np.linspace(0.0, 1.0, n + 1)
    if it.kind == "beam":
        return np.outer(s * L, [1.0, 0.0, 0.0]), np.tile([1.0, 0.0, 0.0], (n + 1, 1))
    radius, theta = L / it.bend, s * it.bend
    P = radius * np.column_stack([np.sin(theta), 1.0 - np.cos(theta), 0.0 * theta])
    T = np.column_stack([np.cos(theta), np.sin(theta), 0.0 * theta])
    return P, T


def _node_index(at, n_elements):
    return int(round(at * n_elements))


def _body_offset(at, scale):
    return 0.3 * scale * unit([np.cos(2 * np.pi * at), np.sin(2 * np.pi * at), 0.5])


class Built:
    """Where each item is: its handle, and its nodes' positions (a beam) or pose (a body)."""

    def __init__(self, handle, positions=None, position=None, frame=None):
        self.handle, self.positions, self.position, self.frame = (handle, positions, position,
                                                                   frame)

    def point(self, at, scale):
        """The point ``at`` of this item and its position (m)."""
        if self.positions is not None:
            k = _node_index(at, len(self.positions) - 1)
            return self.handle.node(k), self.positions[k]
        d = _body_offset(at, scale)
        return self.handle.point(*d), self.position + self.frame @ d


def _effort_direction(kind, a0, spec):
    """An effort's direction, in reference moments ``F0 scale`` (or forces ``F0``, of a
    prismatic joint): 1 (one coordinate), ``a0`` (a spherical joint's torque), ``(a0 / scale,
    a0)`` (a free joint's force and torque: ``F0 a0`` and ``F0 scale a0``)."""
    size = EFFORT_SIZE[kind]
    if size == 1:
        return np.ones(1)
    return a0 if size == 3 else np.concatenate([a0 / spec.scale, a0])


def _joint_options(it, q_scale, reference, spec):
    """add_joint's axis/axes, drive and effort of an item, and its rotational spring (k, c) or
    None."""
    kw = {}
    a0 = unit(it.axis)
    if it.joint in ("revolute", "prismatic", "cylindrical"):
        kw["axis"] = tuple(a0)
    elif it.joint == "universal":
        a1 = np.cross(a0, unit(it.axis2))
        if np.linalg.norm(a1) < 1e-3:
            a1 = np.cross(a0, [a0[1], a0[2], a0[0]] if abs(a0 @ [0, 0, 1]) > 0.9 else [0, 0, 1])
        kw["axes"] = (tuple(a0), tuple(unit(a1)))
    spring = None
    if it.driven and it.joint in ONE:
        amplitude = 0.1 * q_scale
        kw["drive"] = lambda t: (amplitude * np.sin(3.0 * t), 3.0 * amplitude * np.cos(3.0 * t),
                                 -9.0 * amplitude * np.sin(3.0 * t))
    elif it.effort == "spring" and it.joint in SPRUNG:
        spring = (abs(it.strength) * reference, 0.1 * abs(it.strength) * reference)
    elif it.effort == "constant" and it.joint in EFFORT_SIZE:
        e = it.strength * reference * _effort_direction(it.joint, a0, spec)
        kw["effort"] = float(e[0]) if len(e) == 1 else e
    elif it.effort == "function" and it.joint in EFFORT_SIZE:
        e = it.strength * reference * _effort_direction(it.joint, a0, spec)
        e = float(e[0]) if len(e) == 1 else e
        kw["effort"] = lambda t, q, qd: e * np.cos(5.0 * t) - 0.1 * np.abs(e) * qd
    return kw, spring


def build(spec):
    """The ``rancf.Model(dim=3)`` of a :class:`SpatialSpec`."""
    A, I, J = section(spec)
    G = spec.E / 2.6
    F0 = reference_force(spec)
    m = rancf.Model(dim=3, gravity=spec.gravity)
    built = []
    for it in spec.items:
        if it.parent < 0:
            p = np.array([spec.scale * it.at, 0.0, 0.0])
            parent = m.ground.point(*p)
        else:
            parent, p = built[it.parent].point(it.at, spec.scale)
        R = rot(it.turn)
        if it.kind in ("beam", "curved"):
            P, T = beam_nodes(it, spec.scale)
            k = _node_index(it.child_at, it.n_elements)
            positions = p + (P - P[k]) @ R.T
            tangents = T @ R.T
            common = dict(n_elements=it.n_elements, E=spec.E, rho=spec.rho, A=A, I=I, J=J, G=G,
                          up=tuple(R[:, 2]), damping=spec.damping)
            if it.kind == "beam":
                handle = m.add_beam(it.size * spec.scale, start=tuple(positions[0]),
                                    direction=tuple(R[:, 0]), **common)
            else:
                handle = m.add_beam(points=positions, tangents=tangents, **common)
            item = Built(handle, positions=positions)
            child = handle.node(k)
        else:
            mass = it.size * spec.rho * A * spec.scale
            x, y, z = it.inertia
            Q = rot(it.inertia_turn)
            inertia = mass * (0.2 * spec.scale) ** 2 * Q @ np.diag([y + z, z + x, x + y]) @ Q.T
            d = _body_offset(it.child_at, spec.scale)
            position = p - R @ d
            handle = m.add_rigid_body(mass, 0.5 * (inertia + inertia.T), position=tuple(position),
                                      orientation=R)
            item = Built(handle, position=position, frame=R)
            child = handle.point(*d)
        built.append(item)
        linear = it.joint == "prismatic"
        reference = F0 * (1.0 if linear else spec.scale)
        kw, spring = _joint_options(it, spec.scale if linear else 1.0, reference, spec)
        joint = m.add_joint(it.joint, parent, child, **kw)
        if spring is not None:
            m.add_rotational_spring_damper(joint, *spring)
    for load in spec.loads:
        point = built[load.item].point(load.at, spec.scale)[0]
        force = F0 * np.asarray(load.force, dtype=float)
        moment = F0 * spec.scale * np.asarray(load.moment, dtype=float)
        if load.timed:
            m.add_force(point, force=lambda t, f=force: f * np.cos(5.0 * t),
                        moment=lambda t, mo=moment: mo * np.cos(5.0 * t),
                        follower=load.follower)
        else:
            m.add_force(point, force=force, moment=moment, follower=load.follower)
    return m
