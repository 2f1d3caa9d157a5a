"""Spatial trees built below the public API, shared by the tests and the report (issue 23).

An independent numpy model of the link kinematics (:func:`reference`: origins, frames and the
velocity map ``B``, complex-safe for a complex step), a
:class:`~rancf.model.spatial_tree.SpatialTree` built from plain link dictionaries
(:func:`make_tree`), random links (:func:`random_link`) and branched trees of any joint kinds
(:func:`random_tree`; :data:`ALL` holds every kind, elements and rigid bodies), the fixed trees of
the recursion-against-DAE checks (:func:`drive_tree`, :func:`small_tree`), the recursion's body
accelerations and reactions at a state (:func:`recursion_accelerations`) and the DAE against them
(:func:`recursion_and_dae`, :func:`dae_against_recursion`), the recursion's trajectory that the
DAE's runs are checked against (:func:`small_tree_reference`) and its linearization
(:func:`linear_stiffness`). The tests
(tests/test_spatial_recursion.py, test_spatial_dae.py and their neighbours) and the report's
``spatial-dae`` case import them from here, so both check the same models the same way.
"""
from __future__ import annotations

import numpy as np

from rancf.elements import spatial_beam
from rancf.formulations.spatial import Spatial
from rancf.formulations.spatial_dae import SpatialDAE
from rancf.integrators import explicit
from rancf.joints._codes import Motion
from rancf.model.spatial_tree import SpatialTree


SIZES = {Motion.M_FIXED: 0, Motion.M_REVOLUTE: 1, Motion.M_PRISMATIC: 1, Motion.M_CYLINDRICAL: 2,
         Motion.M_UNIVERSAL: 2, Motion.M_SPHERICAL: 3, Motion.M_FREE: 6, Motion.M_ELEMENT: 6}


# --- an independent numpy model of the link kinematics (complex-safe, for the complex step) ----
def skew(p):
    return np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])


def _series(p):
    """sin a / a, (1 - cos a) / a^2, (a - sin a) / a^3 of a = |p| (as functions of a^2)."""
    a2 = p @ p
    if abs(a2) < 1e-6:
        return 1 - a2 / 6 + a2 ** 2 / 120, 0.5 - a2 / 24 + a2 ** 2 / 720, 1 / 6 - a2 / 120 + a2 ** 2 / 5040
    a = np.sqrt(a2)
    return np.sin(a) / a, (1 - np.cos(a)) / a2, (a - np.sin(a)) / (a2 * a)


def expm(p):
    s1, c1, _ = _series(p)
    P = skew(p)
    return np.eye(3) + s1 * P + c1 * P @ P


def jl(p):
    _, c1, c2 = _series(p)
    P = skew(p)
    return np.eye(3) + c1 * P + c2 * P @ P


def link_maps(m, a0, a1, q):
    """t(q), R(q), T (3 x n) and Jr (3 x n) of a motion, from its definition in
    rancf/joints/_codes.pxd."""
    n = SIZES[m]
    dt = complex if np.iscomplexobj(q) else float
    t, R = np.zeros(3, dt), np.eye(3, dtype=dt)
    T, J = np.zeros((3, n), dt), np.zeros((3, n), dt)
    if m == Motion.M_REVOLUTE:
        R, J[:, 0] = expm(q[0] * a0), a0
    elif m == Motion.M_PRISMATIC:
        t, T[:, 0] = q[0] * a0, a0
    elif m == Motion.M_CYLINDRICAL:
        t, T[:, 0], R, J[:, 1] = q[0] * a0, a0, expm(q[1] * a0), a0
    elif m == Motion.M_UNIVERSAL:
        R0 = expm(q[0] * a0)
        R, J[:, 0], J[:, 1] = R0 @ expm(q[1] * a1), a0, R0 @ a1
    elif m == Motion.M_SPHERICAL:
        R, J[:] = expm(q), jl(q)
    elif m in (Motion.M_FREE, Motion.M_ELEMENT):
        t, T[:, :3], R, J[:, 3:] = q[:3], np.eye(3), expm(q[3:]), jl(q[3:])
    return t, R, T, J


def reference(tree, q):
    """Origins (n, 3), frames (n, 3, 3) and the velocity map B (6 n x n_q), ``V = B qd``:
    ``B_i = X_i B_p + [H_i in link i's columns]``, stacked root to leaves."""
    n, nq = tree.n_bodies, tree.n_q
    dt = complex if np.iscomplexobj(q) else float
    r, A, B = np.zeros((n, 3), dt), np.zeros((n, 3, 3), dt), np.zeros((n, 6, nq), dt)
    for i in range(n):
        p, s = tree.parent[i], slice(tree.q_offset[i], tree.q_offset[i + 1])
        Ap, rp = (A[p], r[p]) if p >= 0 else (np.eye(3), np.zeros(3))
        t, R, T, J = link_maps(tree.motion[i], tree.axes[i, 0], tree.axes[i, 1], q[s])
        A[i] = Ap @ R @ tree.relative[i]
        o = A[i] @ tree.offset[i]
        r[i] = rp + Ap @ (tree.anchor[i] + t) - o
        if p >= 0:
            X = np.eye(6, dtype=dt)
            X[:3, 3:] = -skew(r[i] - rp)
            B[i] = X @ B[p]
        B[i][:3, s] += Ap @ T + skew(o) @ Ap @ J
        B[i][3:, s] += Ap @ J
    return r, A, B.reshape(6 * n, nq)


def make_tree(links, gravity=(0.0, 0.0, -9.81), loads=()):
    """A SpatialTree from ``links``: dicts of parent, motion, mass, inertia (body frame, about
    the origin), anchor, offset, relative (Q), axes (a0, a1), and for an element its stiffness
    C (6) and damping time (zero by default); loads (body, offset, follower). Reference poses
    from :func:`reference` at q = 0; element lengths and strains from
    ``spatial_beam.reference_strain``."""
    n = len(links)
    motion = np.array([lk["motion"] for lk in links])
    q_offset = np.concatenate([[0], np.cumsum([SIZES[m] for m in motion])])
    element = -np.ones(n, int)
    elem = [i for i in range(n) if motion[i] == Motion.M_ELEMENT]
    element[elem] = np.arange(len(elem))
    axes = np.zeros((n, 2, 3))
    for i, lk in enumerate(links):
        for k, a in enumerate(lk.get("axes", ())):
            axes[i, k] = a
    tree = SpatialTree(
        parent=np.array([lk["parent"] for lk in links]), mass=np.array([lk["mass"] for lk in links]),
        inertia=np.array([lk["inertia"] for lk in links]), r0=np.zeros((n, 3)),
        A0=np.zeros((n, 3, 3)), motion=motion, q_offset=q_offset,
        anchor=np.array([lk.get("anchor", np.zeros(3)) for lk in links]),
        offset=np.array([lk.get("offset", np.zeros(3)) for lk in links]),
        relative=np.array([lk.get("relative", np.eye(3)) for lk in links]), axes=axes,
        element=element, length=np.ones(len(elem)),
        stiffness=np.array([links[i].get("C", np.zeros(6)) for i in elem]).reshape(-1, 6),
        strain0=np.zeros((len(elem), 6)),
        damping=np.array([links[i].get("damping", 0.0) for i in elem]),
        gravity=np.array(gravity, float), joint_body=np.array([i for i in range(n)
                                                               if motion[i] != Motion.M_ELEMENT]),
        load_body=np.array([b for b, _, _ in loads], int),
        load_offset=np.array([o for _, o, _ in loads], float).reshape(-1, 3),
        load_follower=np.array([f for _, _, f in loads], bool), size=1.0)
    r0, A0, _ = reference(tree, np.zeros(tree.n_q))
    ref = [spatial_beam.reference_strain(tree.anchor[i], tree.relative[i]) for i in elem]
    length = np.array([l for l, _ in ref]).reshape(-1)
    strain0 = np.array([e0 for _, e0 in ref]).reshape(-1, 6)
    return SpatialTree(**{**vars(tree), "r0": r0, "A0": A0, "length": length,
                          "strain0": strain0})


def random_rotation(rng):
    return expm(rng.uniform(-2, 2, 3))


def random_inertia(rng):
    L = rng.standard_normal((3, 3))
    return L @ L.T + 0.5 * np.eye(3)


def random_link(rng, motion, parent, point=None, inertia_scale=1.0):
    """One link of a random tree (a dict for :func:`make_tree`): unit axes ``a0`` and ``a1``
    normal to it, a mass in [0.5, 2] kg, a random inertia times ``inertia_scale``, the anchor
    in the parent and the offset in the body drawn by ``point(rng)`` (default: standard normal,
    m), a random relative rotation. ``parent``: the parent's index, or a function of rng that
    draws it (after the axes: the order of the draws is the trees' seeds)."""
    a0 = rng.standard_normal(3)
    a0 /= np.linalg.norm(a0)
    a1 = np.cross(a0, rng.standard_normal(3))
    a1 /= np.linalg.norm(a1)
    parent = parent(rng) if callable(parent) else parent
    point = point or (lambda rng: rng.standard_normal(3))
    return dict(parent=parent, motion=motion, mass=rng.uniform(0.5, 2.0),
                inertia=random_inertia(rng) * inertia_scale, anchor=point(rng),
                offset=point(rng), relative=random_rotation(rng), axes=(a0, a1))


def random_tree(rng, motions, loads=()):
    """A random branched tree of the joint kinds ``motions`` (each link's parent drawn among
    those before it), random gravity, the ``loads``; an element link is elastic and damped."""
    links = []
    for i, m in enumerate(motions):
        links.append(random_link(rng, m, lambda rng: int(rng.integers(-1, i)) if i else -1))
        if m == Motion.M_ELEMENT:
            # an elastic, damped element from node to node (offset 0, as a beam's)
            links[-1].update(offset=np.zeros(3), C=rng.uniform(1.0, 10.0, 6),
                             damping=rng.uniform(0.01, 0.1))
    return make_tree(links, gravity=rng.standard_normal(3) * 5, loads=loads)


ALL = [Motion.M_FREE, Motion.M_REVOLUTE, Motion.M_PRISMATIC, Motion.M_CYLINDRICAL,
       Motion.M_UNIVERSAL, Motion.M_SPHERICAL, Motion.M_ELEMENT, Motion.M_FIXED,
       Motion.M_SPHERICAL, Motion.M_REVOLUTE, Motion.M_UNIVERSAL, Motion.M_ELEMENT]


def loaded_tree(seed):
    """A random tree of every joint kind (:data:`ALL`) with a fixed and a follower load on
    bodies 3 and 5: ``(rng, tree, values)``, values the loads' (force, moment) pairs, and the
    generator in the state after drawing them (what a caller draws next is the seed's)."""
    rng = np.random.default_rng(seed)
    loads = [(3, rng.standard_normal(3), False), (5, rng.standard_normal(3), True)]
    tree = random_tree(rng, ALL, loads)
    values = [(rng.standard_normal(3), rng.standard_normal(3)) for _ in loads]
    return rng, tree, values


def recursion_accelerations(rec, t, y):
    """Body accelerations ``(r'', w')`` (n, 6) and joint reactions of the recursion at (t, y)."""
    rec.inputs.at_time(t)
    ydot = rec.derivative(t, y)
    rec.kernel.kinematics(y, ydot[rec.n_free:])
    n = rec.tree.n_bodies
    acc = rec.kernel.arrays["acc"][:6 * n].reshape(n, 6).copy()
    return acc, rec.reactions(t, y)


def recursion_and_dae(kind, seed):
    """``(rec, dae, t, y)``: the recursion and the spatial DAE of one tree, at a time t (s) and
    a state y of the recursion: ``kind`` "loads", :func:`loaded_tree` at t = 0.3 s with joint
    rates to 2 rad/s; "drives", :func:`drive_tree` at t = 0.7 s."""
    if kind == "drives":
        rng, tree, drives = drive_tree(seed)
        rec, dae = Spatial(tree, drives=drives), SpatialDAE(tree, drives=drives)
        return rec, dae, 0.7, rng.uniform(-1, 1, rec.n_y)
    rng, tree, values = loaded_tree(seed)
    rec, dae = Spatial(tree, loads=values), SpatialDAE(tree, loads=values)
    return rec, dae, 0.3, np.concatenate([rng.uniform(-1.5, 1.5, tree.n_q),
                                          rng.uniform(-2, 2, tree.n_q)])


def dae_against_recursion(rec, dae, t, y):
    """The spatial DAE at the recursion's state (t, y) mapped to absolute coordinates, against
    the recursion (the two formulations share nothing but the tree): ``position``, the largest
    constraint row ``|Phi(x, t)|`` (m), ``velocity``, ``|Phi_x v + Phi_t|`` (the mapped state
    is consistent), and the largest differences of the body accelerations (``(r'', w')``)
    and of the joint reactions (from the DAE's multipliers), each relative to the recursion's
    largest (``accelerations``, ``reactions``)."""
    acc, reactions = recursion_accelerations(rec, t, y)
    x, v = dae.state_of(y, t)
    a, lam = dae.multipliers(x, v, t)
    return {"position": float(np.abs(dae.constraint(x, t)).max()),
            "velocity": float(np.abs(dae.constraint_jacobian(x, t) @ v
                                     + dae.velocity_bias(x, t)).max()),
            "accelerations": float(np.abs(dae.accelerations(x, v, a) - acc).max()
                                   / np.abs(acc).max()),
            "reactions": float(np.abs(dae.reactions(x, lam, t) - reactions).max()
                               / np.abs(reactions).max())}


def drive_tree(seed):
    rng = np.random.default_rng(seed)
    tree = random_tree(rng, [Motion.M_REVOLUTE, Motion.M_PRISMATIC, Motion.M_ELEMENT,
                             Motion.M_REVOLUTE, Motion.M_SPHERICAL, Motion.M_PRISMATIC,
                             Motion.M_UNIVERSAL])
    drives = {0: lambda t: (np.sin(2 * t) + 0.4, 2 * np.cos(2 * t), -4 * np.sin(2 * t)),
              1: lambda t: (0.3 * t ** 2, 0.6 * t, 0.6), 2: 0.2}
    return rng, tree, drives


def small_tree():
    """A revolute crank, a spherical link, an elastic element and a universal joint, gravity."""
    rng = np.random.default_rng(2)
    J = lambda: random_inertia(rng) * 0.05
    x, y, z = np.eye(3)
    links = [dict(parent=-1, motion=Motion.M_REVOLUTE, mass=1.0, inertia=J(), anchor=np.zeros(3),
                  offset=np.array([-0.3, 0, 0]), axes=(y,)),
             dict(parent=0, motion=Motion.M_SPHERICAL, mass=0.8, inertia=J(),
                  anchor=np.array([0.3, 0, 0]), offset=np.array([-0.25, 0.05, 0])),
             dict(parent=1, motion=Motion.M_ELEMENT, mass=0.5, inertia=J(),
                  anchor=np.array([0.4, 0, 0]), offset=np.zeros(3),
                  C=np.array([2e3, 2e3, 2e3, 20, 20, 20])),
             dict(parent=0, motion=Motion.M_UNIVERSAL, mass=0.6, inertia=J(),
                  anchor=np.array([0.1, 0.2, 0]), offset=np.array([0, -0.2, 0.0]), axes=(z, x))]
    return rng, make_tree(links)


def small_tree_reference(T, step=2e-5):
    """The tree of :func:`small_tree` started moving (joint rates drawn up to 2 rad/s) on the
    recursion and on the spatial DAE: ``(dae, x0, v0, r_ref)``, the DAE, its start mapped from
    the recursion's, and the recursion's body origins (n, 3; m) at T (s) by RK4 at ``step``
    (s; at 2e-5 s its error is under 1e-9 m over 0.2 s): the reference of the DAE's runs."""
    rng, tree = small_tree()
    rec, dae = Spatial(tree), SpatialDAE(tree)
    y0 = rec.initial_state(qd=rng.uniform(-2, 2, rec.n_free))
    ref = explicit.integrate(rec.kernel, y0, np.array([0.0, T]), step, "rk4", 1e-12, 1e-12, 1e3)
    if ref.status != "ok":
        raise RuntimeError(f"recursion, RK4: {ref.status}: {ref.message}")
    x0, v0 = dae.state_of(y0)
    return dae, x0, v0, rec.kinematics(ref.y[-1])[0]


def linear_stiffness(rec):
    """``K`` (n_free x n_free) with ``qdd = -K q`` of the motion linearized at rest in the
    reference configuration: central differences (step 1e-7) of the accelerations of the
    recursion ``rec`` (a :class:`~rancf.formulations.spatial.Spatial`) in its coordinates."""
    n = rec.n_free
    K = np.empty((n, n))
    h = 1e-7
    for j in range(n):
        y = np.zeros(2 * n)
        y[j] = h
        ap = rec.derivative(0.0, y)[n:]
        y[j] = -h
        K[:, j] = -(ap - rec.derivative(0.0, y)[n:]) / (2 * h)
    return K
