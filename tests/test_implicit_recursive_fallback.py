"""Implicit RANCF's fallback (developer: Newton matrix of implicit RANCF): where the block
elimination of Newton's matrix meets a singular pivot, the sparse LU of the assembled matrix, with
a warning."""
import warnings

import numpy as np
import pytest

import rancf
from rancf.formulations import recursive
from models import E, RHO, AREA, INERTIA, R, branched_tree
from test_formulations import FirstMatrix

H = 2.0 ** -8       # s: Newmark's c_k = h^2 / 4 = 2^-18, exact
K = 2.0 ** 17       # N m / rad: c_k K = 1/2, a hanging unit body's inertia about its pin


def add_chain(m, links=2, tilt=0.0):
    """``links`` rigid bodies (1 kg, 0.25 kg m^2, 1 m between pins) hanging at rest from the
    origin, tilted by ``tilt`` from -y, the last on a revolute joint with the effort ``+K q``,
    a negative stiffness. Under Newmark at dt = H its Newton matrix in the bodies' angles is
    ``Omega - (h^2/4) K f f^T = [[1.5, 0.5], [0.5, 0.5]] - [[0.5, -0.5], [-0.5, 0.5]]
    = [[1, 1], [1, 0]]`` (``f = (-1, 1)``), regular but indefinite, and the last body's pivot
    ``I_O - c_k K = 0.5 - 0.5`` is zero: exactly, in floating point, when the chain hangs
    along y (tilt 0: every number a power of 2), to rounding otherwise. With one link the
    whole matrix is that pivot."""
    parent = m.ground.point(0.0, 0.0)
    for k in range(links):
        body = m.add_rigid_body(1.0, 0.25, position=R(tilt) @ (0.0, -0.5 - k), angle=tilt)
        m.add_joint("revolute", parent, body.point(0.0, 0.5),
                    effort=(lambda t, q, qd: K * q) if k == links - 1 else None)
        parent = body.point(0.0, -0.5)
    return m


def hanging(chain=True, links=2):
    """A beam pendulum released horizontally from (2, 0) and, if ``chain``, beside it the chain
    of :func:`add_chain` along y, in equilibrium under gravity: its residual is exactly zero
    and it stays exactly at rest, its pivot exactly zero at every step."""
    m = rancf.Model(gravity=(0.0, -9.81))
    beam = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA, start=(2.0, 0.0))
    m.add_joint("revolute", m.ground.point(2.0, 0.0), beam.start)
    return add_chain(m, links) if chain else m


def newmark(model):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = rancf.simulate(model, 0.25, H, method="newmark", formulation="recursive",
                             tol=1e-12, jacobian="every-iteration")
    return res, [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_a_singular_pivot_of_a_regular_matrix_falls_back_to_the_sparse_lu():
    """The chain's exactly singular pivot stops the block elimination at every factorization;
    the LU of the whole (regular) matrix takes the steps, with one warning: the beam swings as
    in the same model without the chain (solved by the elimination alone: the two trees do not
    interact), to the Newton tolerance, and the chain, in equilibrium, stays exactly at rest."""
    res, caught = newmark(hanging())
    assert res.status == "ok", res.message
    assert len(caught) == 1
    assert "singular pivot at vertex" in str(caught[0].message)
    assert "sparse LU" in str(caught[0].message)
    alone, none = newmark(hanging(chain=False))
    assert alone.status == "ok" and not none
    beam = alone.nodes.shape[1]
    # the beam's nodes move up to 0.29 m; the steps agree to 8e-14 m (Newton's tolerance is 1e-12)
    assert np.abs(res.nodes[:, :beam] - alone.nodes).max() < 1e-12
    assert np.abs(alone.nodes[-1] - alone.nodes[0]).max() > 0.1
    assert np.array_equal(res.nodes[:, beam:], np.broadcast_to(res.nodes[0, beam:],
                                                               res.nodes[:, beam:].shape))


@pytest.mark.parametrize("tilt", [0.3, 1.0])
def test_a_pivot_of_the_size_of_rounding_is_singular(tilt):
    """Tilted, the chain's pivot is rounding rather than zero: it counts as
    singular, and the solves of the step's Newton matrix (by the fallback's LU) are the
    analytic inverse ``[[0, 1], [1, -1]]`` of :func:`add_chain`'s matrix. (An exact-zero test
    let it through: its solve was 430 % off at 0.3 rad, 100 % at 1 rad.)"""
    A = add_chain(rancf.Model(gravity=(0.0, 0.0)), tilt=tilt).build()
    y0 = recursive.of(A).initial_state()
    problem = recursive.implicit_problem(A, y0)
    probe = FirstMatrix()
    with pytest.warns(RuntimeWarning, match="singular pivot at vertex"):
        sol = rancf.implicit.integrate(problem, problem.theta(y0), np.zeros(2), H, H,
                                       method="newmark", solver=probe)
    assert sol.status == "ok"
    # 2e-16 measured
    assert np.abs(probe.inverse - [[0.0, 1.0], [1.0, -1.0]]).max() < 1e-14
    assert np.abs(probe.assembled - [[1.0, 1.0], [1.0, 0.0]]).max() < 1e-14


def test_a_singular_newton_matrix_stops_the_run():
    """With one link the pivot is the whole matrix (zero): both the elimination and the LU
    fail, and the run stops with status "failed", a message and its results so far."""
    res, _ = newmark(hanging(links=1))
    assert res.status == "failed"
    assert "block elimination met a singular pivot" in res.message
    assert "sparse LU failed" in res.message
    assert res.t[0] == 0.0


def block_and_lu_runs(A, t_end, **kwargs):
    """Two runs of the implicit recursion of the built model ``A`` from its initial state
    (generalized-alpha, 1 ms, Newton to 1e-12, ``kwargs`` to the loop): with the block
    elimination, then with the LU of the assembled matrix forced at every factorization (the
    tests' switch). Returns ``[(solution, warnings caught)]`` in that order."""
    y0 = recursive.of(A).initial_state()
    runs = []
    for forced in (False, True):
        problem = recursive.implicit_problem(A, y0)
        problem._always_lu = forced
        q0 = problem.theta(y0)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sol = rancf.implicit.integrate(problem, q0, np.zeros(q0.size), t_end, 1e-3,
                                           method="generalized-alpha", tol=1e-12, **kwargs)
        runs.append((sol, caught))
    return runs


def test_the_fallback_takes_the_steps_of_the_block_elimination():
    """Forced at every factorization (the tests' switch), the LU of the assembled matrix takes
    the steps the block elimination takes, to the Newton tolerance, on the tree with every joint
    kind, efforts, moments and drives (generalized-alpha, reused Jacobians), warning once."""
    runs = []
    for forced, (sol, caught) in enumerate(block_and_lu_runs(branched_tree(smooth=True).build(),
                                                             0.05)):
        assert sol.status == "ok"
        assert len([w for w in caught if issubclass(w.category, RuntimeWarning)]) == forced
        runs.append(sol)
    # the coordinates move by 0.1 in 50 steps and agree to 1.3e-14 (Newton's tolerance 1e-12)
    assert np.abs(runs[0].q - runs[1].q).max() < 1e-12
    assert np.abs(runs[0].q[-1] - runs[0].q[0]).max() > 0.05
