"""Joint angles and rotation vectors on their turns (theory: Joint coordinates: a run reports
continuous joint coordinates; a rotation is the same whole turns or a rotation vector's other
branch away): the two moves every formulation and the outputs use to continue a stored angle,
planar and spatial."""
import numpy as np


def on_turns(a, stored):
    """The angles a (rad) moved by the whole turns that take each nearest the angle stored
    (its continuous value; theory: Joint coordinates):
    ``a + 2 pi round((stored - a) / (2 pi))``, the same rotation; a itself, bit for bit, where
    it is within half a turn of stored."""
    return a + 2 * np.pi * np.round((stored - a) / (2 * np.pi))


def on_branch(psi, rate, near):
    """A rotation vector psi (3, angle at most pi, rad) and its rate (3, rad/s) moved to the
    other vector of the same rotation, ``f(psi) = psi (1 - 2 pi / |psi|)``, with the rate
    ``f'(psi) psi'``, ``f' = (1 - 2 pi / |psi|) I + 2 pi psi psi^T / |psi|^3`` (the same angular
    velocity), where that vector is nearer ``near`` (3: the continuous vector; theory: Joint
    coordinates); else psi and rate as given."""
    angle = float(np.linalg.norm(psi))
    if angle == 0.0:
        return psi, rate
    other = psi * (1.0 - 2.0 * np.pi / angle)
    if not np.linalg.norm(other - near) < np.linalg.norm(psi - near):
        return psi, rate
    F = (1.0 - 2.0 * np.pi / angle) * np.eye(3) + 2.0 * np.pi * np.outer(psi, psi) / angle ** 3
    return other, F @ rate
