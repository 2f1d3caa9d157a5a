"""Section forces of a spatial result's beams, computed from the stored frames when asked
(:meth:`rancf.Result.internal_forces` of a spatial model; developer: Results, files and sweeps).

Element k of a beam joins its nodes k and k + 1. Its coordinates follow from the two nodes'
stored poses, its strain rates from their stored velocities, and its section forces
``C (eps - eps0 + c eps')`` from the element's own kernel
(:func:`rancf.elements.spatial_beam.section_forces`): one compiled loop over every output and
element, no loop over frames here. The element is taken in the beam's direction (node k to
k + 1) whichever way its link runs in the tree, so the forces of a beam hung from an inner
node read the same as those of a beam hung from its start.

An ANCF cable's section forces (:func:`cable_sections`) vary along its elements; they come from
the cable coordinates ``[r, r']`` a run keeps beside the drawn poses (``Result.extra``'s
``cable_nodes`` and ``cable_velocities``) by :func:`rancf.elements.ancf_cable.section_forces`.
"""
import numpy as np

from ..elements import ancf_cable, spatial_beam
from ..model.spatial_items import SpatialCable

#: The components of a section force, in order (N, N, N, N m, N m, N m).
COMPONENTS = ("normal_force", "shear_force_y", "shear_force_z", "torsion", "bending_moment_y",
              "bending_moment_z")


def beam_index(model, beam):
    """The index of a beam of ``model``, from the beam or its index; ValueError naming it."""
    n = len(model.beams)
    if isinstance(beam, (int, np.integer)) and not isinstance(beam, bool):
        if 0 <= beam < n:
            return int(beam)
    elif getattr(beam, "model", None) is model and beam in model.beams:
        return beam.index
    raise ValueError(f"beam must be a beam of the result's model or its index in [0, {n - 1}], "
                     f"got {beam!r}")


def element_sections(res, b):
    """Section forces of every element of beam b at every output, (n_out, n_elements, 6),
    cached on the Result (its stored frames do not change)."""
    cache = res.__dict__.setdefault("_section_forces", {})
    if b in cache:
        return cache[b]
    model, tree = res.model, res.model.build()
    beam = model.beams[b]
    bodies = np.asarray(tree.node_body[tree.beam_nodes[b]:tree.beam_nodes[b + 1]])
    n_out, n_el = len(res.t), beam.n_elements
    s, Q, l, strain0 = beam.reference_elements()
    C = beam.stiffness()

    def per_output(a):
        return np.broadcast_to(a, (n_out,) + a.shape).reshape(n_out * n_el, *a.shape[1:])

    sigma = spatial_beam.section_forces(
        res.nodes[:, bodies[:-1]].reshape(-1, 12), res.nodes[:, bodies[1:]].reshape(-1, 12),
        res.velocities[:, bodies[:-1]].reshape(-1, 6),
        res.velocities[:, bodies[1:]].reshape(-1, 6), per_output(s), per_output(Q.reshape(-1, 9)),
        per_output(l), per_output(C), per_output(strain0),
        np.full(n_out * n_el, beam.damping)).reshape(n_out, n_el, 6)
    sigma.setflags(write=False)
    cache[b] = sigma
    return sigma


def cable_sections(res, b, element, xi):
    """Section forces ``[N, M_x, M_y, M_z]`` (n_out, k, 4) of cable b of a spatial result at
    positions xi (k,) of its elements (k,), from the stored cable coordinates and rates, with
    the cable's Kelvin-Voigt part and, on a cable curved at rest, relative to its reference
    (:func:`rancf.elements.ancf_cable.section_forces`)."""
    model = res.model
    cable = model.beams[b]
    if "cable_nodes" not in res.extra:
        raise ValueError(f"beam={cable!r} is an ANCF cable and this Result holds no cable "
                         "coordinates (extra['cable_nodes']: a run of this version keeps "
                         "them); its section forces need them")
    n_out = len(res.t)
    first = sum(c.n_nodes for c in model.beams[:b] if isinstance(c, SpatialCable))
    nodes = slice(first, first + cable.n_nodes)
    x = res.extra["cable_nodes"].reshape(n_out, -1, 6)[:, nodes]
    v = res.extra["cable_velocities"].reshape(n_out, -1, 6)[:, nodes]
    pair = lambda a: np.concatenate([a[..., element, :], a[..., element + 1, :]], axis=-1)
    x0 = np.column_stack([cable.positions, cable.tangents])
    return ancf_cable.section_forces(pair(x), xi, cable.element_lengths()[element],
                                     cable.E * cable.A, cable.E * cable.I, pair(v),
                                     cable.damping, pair(x0) if cable.curved_rest else None)


def internal_forces(res, beam, s=None):
    """:meth:`rancf.Result.internal_forces` of a spatial result."""
    b = beam_index(res.model, beam)
    beam = res.model.beams[b]
    edges = np.concatenate([[0.0], np.cumsum(beam.element_lengths())])
    # the running sum of the element lengths can end an ulp short of beam.length (ten
    # cable elements of 0.05 m sum to 0.49999999999999994): s = beam.length is the end
    length = max(edges[-1], beam.length)
    cable = isinstance(beam, SpatialCable)
    if s is None:
        element = np.arange(beam.n_elements)
        if cable:
            return cable_sections(res, b, element, np.full(beam.n_elements, 0.5))
    else:
        try:
            points = np.array(s, dtype=float, ndmin=1)
        except (TypeError, ValueError):
            raise TypeError(f"s must be arc lengths (real numbers, m), got {s!r}") from None
        if points.ndim != 1:
            raise ValueError(f"s must be a number or a 1-d sequence of arc lengths (m), got "
                             f"shape {points.shape}")
        outside = np.flatnonzero(~((points >= 0.0) & (points <= length)))
        if outside.size:
            raise ValueError(f"s must be arc lengths in [0, {length:g}] m (the length of "
                             f"{beam!r}), got s[{outside[0]}] = {float(points[outside[0]])!r}")
        # a node belongs to the element that starts there; the end to the last element
        element = np.minimum(np.searchsorted(edges, points, side="right") - 1,
                             beam.n_elements - 1)
        if cable:
            xi = np.clip((points - edges[element]) / np.diff(edges)[element], 0.0, 1.0)
            return cable_sections(res, b, element, xi)
    return element_sections(res, b)[:, element].copy()

