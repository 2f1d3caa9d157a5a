"""The resolution of a mode's omega^2: which modes of ``K v = omega^2 M v`` are rigid-body
modes, their omega^2 within the eigenproblem's round-off (:func:`rigid`). Shared by
:func:`rancf.modes` (a mode rigid, or unstable beyond it) and :func:`rancf.static`'s
stability test (:func:`rancf.integrators.static._unstable_mode`), so that the two call the
same equilibrium unstable."""
import numpy as np

#: A mode y (unit modal mass) is a rigid-body mode when ``|omega^2| <= RESOLUTION ||K||_1 |y|^2
#: + |y|^T |K - K^T| |y|`` (:func:`rigid`): the dense eigensolver's backward error, and the
#: error of a K by differences.
RESOLUTION = np.finfo(float).eps


def rigid(K, omega2, shapes, error=None):
    """Which modes are rigid-body modes (n,) bool: ``omega2`` (n,) and ``shapes`` (n_x, n) of
    ``K v = omega^2 M v``, unit modal mass ``y^T M y = 1``, K (n_x, n_x) the stiffness as
    computed (its asymmetry the error of a K by differences made visible), dense or sparse;
    ``error`` (n_x, n_x), entries >= 0: an estimate of K's entries' error in place of
    ``|K - K^T|`` (the spatial trees' K, whose differences are taken at two steps:
    :func:`rancf.studies.vibration._stiffness`), or None.

    A mode is rigid when its omega^2 is below what the eigensolver and the matrices resolve:
    ``|omega^2| <= eps ||K||_1 |y|^2 + |y|^T |K - K^T| |y|``. A backward-stable dense
    solver's pairs are exact for a K perturbed by ``E``, ``||E||_2 <= p(n) eps ||K||_2``
    (``||K||_1`` bounds ``||K||_2`` for a symmetric K), so ``y^T K y`` is resolved to ``eps
    ||K|| |y|^2``; with unit modal mass ``|y|^2`` is one over the mode's own mass (kg), so
    the bound is the stiffness's rounding over the mode's mass, not a share of the largest
    omega^2 (that is ``||K||`` over the smallest mass, a fine mesh's slopes', a slender
    beam's node rotations', and a share of it buried resisted modes: a 64-element
    pendulum's swing, a slender cantilever's first bending). A K by differences (the
    spatial DAE's elements) adds its entries' error, where it lies: the asymmetry's
    entries along the mode (the largest sit on the stretch's entries, which a bending mode
    hardly meets). Margins: a planar beam's rigid turn lies 1e2 or more below the first
    term (4 to 256 elements), a 256-element steel pendulum's swing 31 times above it; a
    much finer mesh's swing would fall under it, where the solver no longer resolves it."""
    y = np.abs(shapes)
    error = abs(K - K.T) if error is None else error
    bound = RESOLUTION * float(abs(K).sum(axis=0).max()) * (shapes**2).sum(axis=0) + \
        (y * (error @ y)).sum(axis=0)
    return np.abs(omega2) <= bound
