"""The spatial DAE's compiled kernels (rancf/formulations/_spatial_dae.pyx) against independent
references: the Python rows and Jacobians of each link kind (numpy, the formulas of the
spatial_dae.py module docstring), the Newton matrix assembled term by term as scipy.sparse sums
(the IndexThreeDAE default), and the reactions a run defers against those computed at each
output."""
import numpy as np
import pytest

import rancf
from rancf.formulations import spatial
from rancf.formulations.problem import IndexThreeDAE
from rancf.formulations.spatial_dae import SpatialDAE, _CableLink
from test_spatial_dae import rsur_four_bar
from validation.spatial_trees import drive_tree, loaded_tree

CABLE = dict(E=1e7, rho=1000.0, A=1e-4, I=1e-9, element="ancf-cable", damping=1e-3)


def cable_model():
    """A hub on a driven revolute joint, a damped cable clamped to it whose end carries a body
    on a spherical joint, a second cable clamped to the ground, and a ring (a cable whose end
    is clamped to its start: a splice) on a spherical joint: every side kind of a joint at a
    cable point (ground, body, cable node) and every joint kind (spherical, clamp, splice)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    hub = m.add_rigid_body(1.0, np.diag([0.01, 0.02, 0.03]), position=(0, 0, 0))
    m.add_joint("revolute", m.ground.point(0, 0, 0), hub.centre, axis=(0, 0, 1),
                drive=lambda t: (2.0 * t ** 2, 4.0 * t, 4.0))
    c = m.add_beam(1.0, 3, start=(0.2, 0, 0), **CABLE)
    m.add_joint("fixed", hub.point(0.2, 0, 0), c.start)
    r = m.add_rigid_body(0.2, np.diag([1e-4, 2e-4, 2e-4]), position=(1.2, 0, 0))
    m.add_joint("spherical", c.end, r.point(0.0, 0.0, 0.0))
    d = m.add_beam(0.5, 2, start=(0, 1, 0), **CABLE)
    m.add_joint("fixed", m.ground.point(0, 1, 0), d.start)
    a = np.linspace(0.0, 2.0 * np.pi, 5)
    e = m.add_beam(n_elements=4, points=np.column_stack([0.3 * np.cos(a), 0.3 * np.sin(a) - 1,
                                                         0 * a]),
                   tangents=np.column_stack([-np.sin(a), np.cos(a), 0 * a]), **CABLE)
    m.add_joint("spherical", m.ground.point(0.3, -1, 0), e.start)
    m.add_joint("fixed", e.end, e.start)
    return m


def daes():
    """Spatial DAEs of every joint kind (a random tree with damped elements and loads, a
    driven tree, the RSUR four-bar's loop) and of cables."""
    _, tree, values = loaded_tree(3)
    out = [SpatialDAE(tree, loads=values)]
    _, tree, drives = drive_tree(1)
    out.append(SpatialDAE(tree, drives=drives))
    out.append(rsur_four_bar()[0])
    m = cable_model()
    out.append(SpatialDAE(m.build(), *spatial.model_inputs(m)))
    return out


@pytest.mark.parametrize("k", range(4))
def test_compiled_rows_and_jacobians_equal_the_python_links(k):
    """Off the manifold (Newton's iterates: random x), at a time where the drives' targets are
    not the reference: each link's rows and Jacobian block from the compiled kernels equal its
    Python ``rows`` and ``jacobian`` to round-off."""
    dae = daes()[k]
    rng = np.random.default_rng(k)
    x = rng.standard_normal(dae.n_coordinates)
    t = 0.37
    phi = dae.constraint(x, t)
    J = dae.constraint_jacobian(x, t).toarray()
    targets = dae._targets(t)
    for lk, s, tg in zip(dae.links, dae.link_rows, targets):
        rows, block = lk.rows(x, tg[0]), lk.jacobian(x, tg[0])
        scale = max(1.0, np.abs(block).max(initial=0.0))
        assert np.abs(phi[s] - rows).max(initial=0.0) <= 1e-14 * scale
        assert np.abs(J[s][:, lk.columns] - block).max(initial=0.0) <= 1e-14 * scale
        other = np.setdiff1d(np.arange(dae.n_coordinates), lk.columns)
        assert not J[s][:, other].any()
    assert any(isinstance(lk, _CableLink) for lk in dae.links) == (k == 3)


@pytest.mark.parametrize("k", range(4))
@pytest.mark.parametrize("intermediate", [False, True])
def test_newton_matrix_on_its_pattern_equals_the_terms_summed(k, intermediate):
    """The Newton matrix summed on the fixed pattern equals the IndexThreeDAE default, which
    adds the sparse mass, mass derivative, stiffness, curvature, damping and Jacobian matrices
    (each checked against central differences in test_spatial_dae.py); with the constraint
    columns at another point than the rows (generalized-alpha-S) too."""
    dae = daes()[k]
    rng = np.random.default_rng(10 + k)
    x = rng.standard_normal(dae.n_coordinates)
    x_new = x + 0.01 * rng.standard_normal(x.size) if intermediate else x
    a, v = rng.standard_normal(x.size), rng.standard_normal(x.size)
    lam = rng.standard_normal(dae.n_constraints)
    args = (x, a, lam, v, 0.3, x_new, 0.31 if intermediate else 0.3, 0.7, 0.4, 0.3, 0.2, 1.3)
    S = dae.newton_matrix(*args, factor=False).toarray()
    ref = IndexThreeDAE.newton_matrix(dae, *args, factor=False).toarray()
    assert np.abs(S - ref).max() <= 1e-13 * np.abs(ref).max()
    # and its factors solve it
    r = rng.standard_normal(S.shape[0])
    da, dlam = dae.newton_matrix(*args).solve(r[:x.size], r[x.size:])
    assert np.abs(S @ np.concatenate([da, dlam]) - r).max() <= 1e-9 * np.abs(r).max()


def test_constraint_force_and_rate_equal_the_sparse_jacobian():
    """``Phi_x^T lambda`` and ``Phi_x v`` on the CSR data equal the sparse matrix products."""
    for dae in daes():
        rng = np.random.default_rng(2)
        x, v = rng.standard_normal((2, dae.n_coordinates))
        lam = rng.standard_normal(dae.n_constraints)
        J = dae.constraint_jacobian(x, 0.2)
        assert np.abs(dae.constraint_force(x, lam, 0.2) - J.T @ lam).max() \
            <= 1e-14 * np.abs(J.T @ lam).max()
        assert np.abs(dae.constraint_rate(x, v, 0.2) - J @ v).max() <= 1e-14 * np.abs(J @ v).max()


def test_reactions_are_computed_when_asked_and_equal_those_of_each_output(monkeypatch):
    """A run of the driven flexible spherical four-bar solves no saddle-point system for its
    outputs (the state's multipliers are not asked for during the run); its reactions, read
    afterwards, equal those of :meth:`SpatialDAE.observe` at each stored state (the reactions
    of the state's own multipliers, the state rebuilt from the stored poses to 1e-10 m), and
    the loop's closing joint carries a load."""
    from validation.spherical_four_bar import SphericalFourBar
    m = SphericalFourBar().flexible()[0]
    calls = []
    original = SpatialDAE.multipliers

    def counted(self, q, v, t):
        calls.append(t)
        return original(self, q, v, t)

    monkeypatch.setattr(SpatialDAE, "multipliers", counted)
    res = rancf.simulate(m, 0.02, 2e-3, method="newmark", output_every=5)
    assert res.status == "ok", res.message
    assert callable(res._reactions) and not calls
    reactions = res.reactions
    assert len(calls) == len(res.t) and reactions.shape == (len(res.t), 6 * 4)
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    for k in (1, len(res.t) - 1):
        q, qd = dae.state_of_poses(res.state(k).x, res.state(k).v, res.t[k])
        seen = dae.observe(q, qd, res.t[k], np.zeros(dae.n_constraints))["reactions"]
        assert np.abs(reactions[k] - seen).max() <= 1e-6 * np.abs(seen).max()
    assert np.abs(reactions[:, -6:]).max() > 0.0


@pytest.mark.parametrize("k", range(4))
def test_joint_coordinates_of_many_states_equal_the_recursions_map(k):
    """The joint coordinates of several states at once (the outputs of a run, each with its
    stencil points) equal the recursion's map of each link's relative pose
    (``rancf.formulations.spatial._link_coordinates``), state by state, on and off the
    manifold; and the rates of a state equal the derivative of that map along its velocity."""
    from rancf.formulations.spatial import _link_coordinates
    from rancf.formulations.spatial_dae import rotation
    from rancf.joints._codes import Motion
    dae = daes()[k]
    rng = np.random.default_rng(20 + k)
    X = rng.standard_normal((3, dae.n_coordinates))
    X[:, dae._c0 + 3::6] += 1.0      # cable slopes away from zero
    got = dae._link_values(X)
    for x, row in zip(X, got):
        r, A = dae.poses(x)
        cable = dae.cable_poses(x, np.zeros_like(x))[0][:, 3:].reshape(-1, 3, 3) \
            if dae.n_cable_nodes else None
        ref = []
        for j in dae.joint_links:
            lk = dae.links[j]
            if isinstance(lk, _CableLink):
                if lk.kind == 0:
                    F = [np.eye(3) if kind == "ground" else A[i] if kind == "body" else cable[i]
                         for kind, i, _, _ in lk.sides]
                    ref.append(_link_coordinates(int(Motion.M_SPHERICAL), (None, None),
                                                 F[0].T @ F[1] @ lk.Q.T, None))
                continue
            rp, Ap = (r[lk.parent], A[lk.parent]) if lk.parent >= 0 else (np.zeros(3),
                                                                          np.eye(3))
            R = Ap.T @ A[lk.body] @ rotation(lk.qQc)
            tq = Ap.T @ (r[lk.body] - rp + A[lk.body] @ lk.offset) - lk.anchor
            ref.append(np.atleast_1d(_link_coordinates(int(lk.motion), (lk.a0, lk.a1), R, tq)))
        ref = np.concatenate(ref)
        assert np.abs(row - ref).max() <= 1e-13 * max(1.0, np.abs(ref).max())
    v = rng.standard_normal(dae.n_coordinates)
    q0, qd = dae.joint_coordinates(X[0], v)
    h = 1e-6
    plus, minus = dae._link_values(np.array([X[0] + h * v, X[0] - h * v]))
    a = dae._angles
    diff = plus - minus
    diff[a] = (diff[a] + np.pi) % (2 * np.pi) - np.pi
    assert np.abs(qd - diff / (2 * h)).max() <= 1e-6 * max(1.0, np.abs(qd).max())
