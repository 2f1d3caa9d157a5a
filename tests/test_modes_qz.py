"""The QZ fallback of ``rancf.modes``' eigensolver (:func:`rancf.studies.vibration._lowest_qz`,
taken where ``K + sigma M`` is indefinite: an unstable equilibrium) on pencils of known
spectrum with double eigenvalues, which QZ (it does not keep the symmetry) may return as
complex pairs ``lambda +- i delta``, delta of the order of the round-off."""
import numpy as np
import pytest
import scipy.linalg

from rancf.studies import vibration

#: Spectra of ``K v = lambda M v`` (1/s^2): a double lowest eigenvalue, a double one that the
#: n = 2 cut splits, a triple one; each with negative values, so that the shift-invert's
#: ``K + sigma M`` is indefinite and the QZ fallback runs.
SPECTRA = [[-1.0, -1.0, 0.5, 2.0, 3.0, 4.0],
           [-2.0, -1.0, -1.0, 0.5, 3.0, 4.0],
           [-1.0, -1.0, -1.0, 2.0, 2.0, 5.0]]


def pencil(spectrum, rng):
    """A symmetric K and positive definite M (6 x 6, dense) with the generalized eigenvalues
    ``spectrum``: ``M = L L^T`` (L random, well conditioned), ``K = M W diag(spectrum) W^T M``
    with ``W = L^-T Q`` (Q random orthogonal), so that ``W^T M W = I`` and ``K W = M W
    diag(spectrum)``."""
    size = len(spectrum)
    L = rng.standard_normal((size, size)) + 3.0 * np.eye(size)
    M = L @ L.T
    W = np.linalg.solve(L.T, np.linalg.qr(rng.standard_normal((size, size)))[0])
    K = M @ W @ np.diag(spectrum) @ W.T @ M
    return 0.5 * (K + K.T), M


def refused(*args, **kwargs):
    raise ValueError("Reordering of (A, B) failed (a stand-in for LAPACK's refusal)")


@pytest.mark.parametrize("reordered", [True, False])
def test_double_eigenvalues_come_back_real_and_whole_through_qz(reordered, monkeypatch):
    """Over 900 pencils (300 per spectrum, seeded), the Rayleigh-Ritz values on the vectors of
    ``_lowest`` for n = 1, 2, 3 are the n lowest of the spectrum, multiplicities kept. Bound:
    the pencil's backward error ``eps (|K| + |lambda| |M|)`` (2-norms) times the eigenvalues'
    condition ``|M^-1|`` (an eigenvector of unit modal mass has ``|v|^2 <= |M^-1|``), times
    100 for the dimension's factors. Some of these pencils (5 in 900 with this LAPACK, 3 and
    2 with two other seeds) give a complex pair from ``scipy.linalg.eig``: the real parts of
    its vectors were one vector, a mode was lost and the Rayleigh-Ritz basis singular.
    ``reordered`` False: ``scipy.linalg.ordqz`` refuses (as LAPACK does a swap too
    ill-conditioned), and the eigenvectors' real and imaginary parts span the subspace."""
    if not reordered:
        monkeypatch.setattr(scipy.linalg, "ordqz", refused)
    rng = np.random.default_rng(20261128)
    paired = 0
    for trial in range(900):
        spectrum = np.array(SPECTRA[trial % len(SPECTRA)])
        K, M = pencil(spectrum, rng)
        paired += bool(np.any(scipy.linalg.eigvals(K, M).imag != 0.0))
        norm = np.linalg.norm
        bound = 100.0 * np.finfo(float).eps * (norm(K, 2) + np.abs(spectrum).max() * norm(M, 2)) \
            * norm(np.linalg.inv(M), 2)
        for n in (1, 2, 3):
            V = vibration._lowest(K, M, n)
            assert V.shape == (6, n) and np.isrealobj(V)
            omega2, shapes = vibration._rayleigh_ritz(K, M, V)
            error = np.abs(omega2 - spectrum[:n]).max()
            assert error <= bound, (trial, n, omega2, spectrum[:n], error / bound)
            # the Ritz vectors are the eigenvectors: residual at the same scale
            residual = K @ shapes - M @ shapes * omega2
            assert np.abs(residual).max() <= bound * norm(M, 2) * np.abs(shapes).max() * 10, (
                trial, n)
    assert paired > 0, "no complex pair among these pencils: the test no longer covers one"
