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


#: How far (rad) a stored joint angle (``State.joint_q``) may be from the angle read from the
#: coordinates, modulo whole turns, and still name the state's turns (:func:`on_agreeing_turns`). A
#: State taken from a run holds the angles of its own coordinates: the DAE reads them from
#: the coordinates themselves, the recursion maps its angles to the coordinates through sines
#: and cosines, whose rounding moves an angle read back by a few 1e-16 rad per unit angle
#: (1e-12 rad at a thousand turns). 1e-6 rad leaves six orders for that; the angle of another
#: model's joint (a State of a model with as many joints) is unrelated to this model's, so a
#: chance agreement within it has odds of about 1e-6 / pi an angle.
AGREEING_ANGLE = 1e-6


def agrees_on_branch(psi, stored):
    """Whether the stored rotation vectors (m, 3: a State's ``joint_q`` entries) are those
    read from the coordinates, psi (m, 3, angles at most pi), or the other vector of the same
    rotation (:func:`on_branch`), within :data:`AGREEING_ANGLE`: (m,) bool."""
    psi, stored = np.asarray(psi, dtype=float), np.asarray(stored, dtype=float)
    angle = np.linalg.norm(psi, axis=-1, keepdims=True)
    other = psi * (1.0 - 2.0 * np.pi / np.where(angle > 0.0, angle, np.inf))
    return ((np.linalg.norm(stored - psi, axis=-1) <= AGREEING_ANGLE)
            | (np.linalg.norm(stored - other, axis=-1) <= AGREEING_ANGLE))


def on_agreeing_turns(read, stored, keep_stored=False):
    """The angles read from coordinates (rad) moved onto the turns of the stored angles (a
    State's ``joint_q`` entries: :func:`on_turns`) where those equal them modulo 2 pi (within
    :data:`AGREEING_ANGLE`), and the read angles elsewhere: a stored entry that does not agree
    is not the coordinates' angle (a State of another model), and the turns it names are not
    theirs. Where they agree, ``keep_stored`` gives the stored angles themselves (the State's
    continuous angle, bit for bit: the branch a run starts on) rather than the read ones
    moved. Arrays of one shape."""
    read, stored = np.asarray(read, dtype=float), np.asarray(stored, dtype=float)
    moved = on_turns(read, stored)
    return np.where(np.abs(stored - moved) <= AGREEING_ANGLE, stored if keep_stored else moved,
                    read)
