"""Random valid models for the property-based tests (tests/test_properties.py) and the fuzz runs.

A model is described by a plain, printable :class:`ModelSpec` (so a failing example found by
hypothesis reads as Python that rebuilds it) and built by :func:`build`. Items are added in
order, each jointed to the ground or to an earlier item; every joint's points coincide by
construction (the child is placed where the parent's point is), so every spec is a valid model:

* a beam child starts at its parent's point (a beam node, interior ones included, a rigid-body
  point or a ground point) and points ``angle`` rad from the parent's direction there;
* a rigid-body child is placed so that its point ``child_offset`` (body frame) is on the
  parent's point;
* joints: revolute, prismatic (rail along the parent's direction, or ``axis``) or fixed; a
  revolute joint or a prismatic one whose parent is not a beam node may be driven
  (``q(t) = q0 + a sin(w t)``), a free one may carry a spring-damper effort or a constant one.

Scales: every length is ``scale`` times a factor in [0.25, 4], the sections are square with
``side = slenderness * scale``, forces are multiples of the weight ``F0`` of a beam of length
``scale``, moments of ``F0 * scale``, so that every model of any scale is loaded alike.
"""
from dataclasses import dataclass, field

import numpy as np

import rancf


def R(a):
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


@dataclass(frozen=True)
class Item:
    """One beam or rigid body and the joint that holds it (see the module docstring).

    ``at``: where on the parent, in [0, 1] (a beam's node ``round(at * n_elements)``, a body
    point at ``0.3 scale`` in direction ``2 pi at`` of its frame, a ground point at
    ``x = scale * at``). ``effort``: 0 none, > 0 a spring-damper of stiffness ``effort`` times
    the reference moment (force) per rad (m), < 0 a constant effort of that many reference
    moments (forces). ``size``: a beam's length or a body's mass, relative to the scale.
    """

    kind: str = "beam"
    parent: int = -1
    at: float = 0.0
    joint: str = "revolute"
    driven: bool = False
    effort: float = 0.0
    angle: float = 0.0
    size: float = 1.0
    n_elements: int = 2
    axis: float = None


@dataclass(frozen=True)
class Load:
    """A force ``F0 * (fx, fy)`` and moment ``F0 * scale * moment`` on item ``item`` (a beam's
    node ``round(at * n_elements)``, a body point); ``timed``: multiplied by ``cos(5 t)``."""

    item: int = 0
    at: float = 1.0
    fx: float = 0.0
    fy: float = -1.0
    moment: float = 0.0
    timed: bool = False


@dataclass(frozen=True)
class ModelSpec:
    """A random model: SI material constants and scale, items, loads; ``loop`` closes a
    four-bar linkage of the first three beams instead (DAE only; see :func:`four_bar`)."""

    scale: float = 1.0
    E: float = 1e7
    rho: float = 2000.0
    slenderness: float = 0.02
    elastic_model: str = "shabana"
    gravity: tuple = (0.0, -9.81)
    damping: float = 0.0
    items: tuple = field(default_factory=lambda: (Item(),))
    loads: tuple = ()


@dataclass(frozen=True)
class LoopSpec:
    """A four-bar linkage: ground pins at (0, 0) and (``base`` scale, 0), crank of ``crank``
    scale at ``crank_angle``, rocker of ``rocker`` scale at ``rocker_angle`` from the second
    pin, the coupler between their ends; ``driven``: the crank turns at ``speed`` rad/s; ``mass``
    > 0 welds a rigid body of that many beam masses to the coupler's middle node."""

    scale: float = 1.0
    E: float = 1e7
    rho: float = 2000.0
    slenderness: float = 0.02
    elastic_model: str = "shabana"
    gravity: tuple = (0.0, -9.81)
    base: float = 1.0
    crank: float = 0.4
    crank_angle: float = 1.2
    rocker: float = 0.4
    rocker_angle: float = 1.2
    n_elements: int = 2
    driven: bool = False
    speed: float = 1.0
    mass: float = 0.0


def _section(spec):
    side = spec.slenderness * spec.scale
    return side**2, side**4 / 12.0


def reference_force(spec):
    """F0 (N): the weight of a beam of length ``scale`` (under 9.81 m/s^2)."""
    A, _ = _section(spec)
    return spec.rho * A * spec.scale * 9.81


def _beam_point(beam, at):
    """The node nearest ``at`` of a straight beam: (point, position, direction angle)."""
    k = int(round(at * beam.n_elements))
    u = np.array([np.cos(beam.angle), np.sin(beam.angle)])
    return beam.node(k), beam.start_position + k * beam.length / beam.n_elements * u, beam.angle


def _body_point(body, at, scale):
    d = 0.3 * scale * np.array([np.cos(2 * np.pi * at), np.sin(2 * np.pi * at)])
    return body.point(*d), body.position + R(body.angle) @ d, body.angle


def _drive(q0, amplitude, w):
    return lambda t: (q0 + amplitude * np.sin(w * t), amplitude * w * np.cos(w * t),
                      -amplitude * w * w * np.sin(w * t))


def _spring(k, q0, c):
    return lambda t, q, qd: -k * (q - q0) - c * qd


def build(spec):
    """The :class:`rancf.Model` of a :class:`ModelSpec` or :class:`LoopSpec`."""
    if isinstance(spec, LoopSpec):
        return four_bar(spec)
    A, I = _section(spec)
    F0 = reference_force(spec)
    m = rancf.Model(gravity=spec.gravity, elastic_model=spec.elastic_model)
    handles = []
    for it in spec.items:
        if it.parent < 0:
            parent, p, psi = (m.ground.point(spec.scale * it.at, 0.0, angle=it.angle),
                              np.array([spec.scale * it.at, 0.0]), it.angle)
        else:
            h = handles[it.parent]
            parent, p, psi = (_beam_point(h, it.at) if isinstance(h, rancf.model.Beam)
                              else _body_point(h, it.at, spec.scale))
        phi = psi + it.angle
        if it.kind == "beam":
            child_item = m.add_beam(it.size * spec.scale, it.n_elements, spec.E, spec.rho, A, I,
                                    start=tuple(p), angle=phi, damping=spec.damping)
            child = child_item.start
        else:
            mass = it.size * spec.rho * A * spec.scale
            d = np.array([-0.2 * spec.scale, 0.05 * spec.scale])
            child_item = m.add_rigid_body(mass, mass * (0.2 * spec.scale) ** 2,
                                          position=tuple(p - R(phi) @ d), angle=phi)
            child = child_item.point(*d)
        handles.append(child_item)
        reference = F0 * (spec.scale if it.joint == "revolute" else 1.0)
        q0 = 0.0 if it.joint == "prismatic" else phi - psi
        kwargs = {}
        if it.joint == "prismatic" and it.axis is not None:
            kwargs["axis"] = it.axis
        if it.driven:
            amplitude = 0.1 * (spec.scale if it.joint == "prismatic" else 1.0)
            kwargs["drive"] = _drive(q0, amplitude, 3.0)
        elif it.effort > 0:
            kwargs["effort"] = _spring(it.effort * reference, q0, 0.1 * it.effort * reference)
        elif it.effort < 0:
            kwargs["effort"] = -it.effort * reference
        m.add_joint(it.joint, parent, child, **kwargs)
    for load in spec.loads:
        h = handles[load.item]
        point = (_beam_point(h, load.at) if isinstance(h, rancf.model.Beam)
                 else _body_point(h, load.at, spec.scale))[0]
        force = F0 * np.array([load.fx, load.fy])
        moment = F0 * spec.scale * load.moment
        if load.timed:
            m.add_force(point, force=lambda t, f=force: f * np.cos(5.0 * t),
                        moment=lambda t, mo=moment: mo * np.cos(5.0 * t))
        else:
            m.add_force(point, force=force, moment=moment)
    return m


def four_bar(spec):
    """The four-bar linkage of a :class:`LoopSpec` (a closed loop: formulation "dae")."""
    A, I = _section(spec)
    L = spec.scale
    m = rancf.Model(gravity=spec.gravity, elastic_model=spec.elastic_model)
    u = lambda a: np.array([np.cos(a), np.sin(a)])
    P = spec.crank * L * u(spec.crank_angle)
    G2 = np.array([spec.base * L, 0.0])
    Q = G2 + spec.rocker * L * u(spec.rocker_angle)
    gap = Q - P
    n = spec.n_elements
    crank = m.add_beam(spec.crank * L, n, spec.E, spec.rho, A, I, angle=spec.crank_angle)
    coupler = m.add_beam(float(np.hypot(*gap)), n, spec.E, spec.rho, A, I, start=tuple(P),
                         angle=float(np.arctan2(gap[1], gap[0])))
    rocker = m.add_beam(spec.rocker * L, n, spec.E, spec.rho, A, I, start=tuple(G2),
                        angle=spec.rocker_angle)
    w, q0 = spec.speed, spec.crank_angle
    m.add_joint("revolute", m.ground.point(0.0, 0.0), crank.start,
                drive=(lambda t: (q0 + w * t, w, 0.0)) if spec.driven else None)
    m.add_joint("revolute", crank.end, coupler.start)
    m.add_joint("revolute", m.ground.point(*G2), rocker.start)
    m.add_joint("revolute", rocker.end, coupler.end)
    if spec.mass > 0:
        mass = spec.mass * spec.rho * A * L
        k = n // 2
        centre = P + k / n * gap
        body = m.add_rigid_body(mass, mass * (0.1 * L) ** 2, position=tuple(centre),
                                angle=float(np.arctan2(gap[1], gap[0])))
        m.add_joint("fixed", coupler.node(k), body.centre)
    return m
