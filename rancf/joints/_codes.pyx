"""The integer codes of the compiled kernels, mirrored to Python from ``_codes.pxd``.

Each ``cpdef enum`` of the ``.pxd`` is an :class:`enum.IntEnum` here (``PointKind``,
``Position``, ``Direction``, ``Coordinate``, ``RecursionCode``, ``Place``, ``Turn``,
``TermMode``, the spatial primitives ``Translation`` and ``Rotation``, ``MotionCode``,
``Motion``, the spatial DAE's ``LinkRotation``, ``LinkTranslation``, ``LinkDrive``,
``LinkSide``, the arc points' ``ArcSide`` and the cable joints' ``CableJoint``), with the values
the kernels cimport: the one definition of every code. Their members are module names too
(``from rancf.joints._codes import P_NODE``), as they are to the kernels. The primitives'
coordinate counts are the kernels' too (:func:`translation_coordinates`,
:func:`rotation_coordinates`, :func:`motion_size`).
"""
ENUMS = (PointKind, Position, Direction, Coordinate, RecursionCode, Place, Turn, TermMode,
         Translation, Rotation, MotionCode, Motion, LinkRotation, LinkTranslation, LinkDrive,
         LinkSide, ArcSide, CableJoint)
for _enum in ENUMS:
    globals().update(_enum.__members__)
del _enum


def motion_code(translation, rotation, element=False):
    """The link code (``Motion``) of a spatial motion's primitives: ``translation +
    MOTION_ROTATION rotation``, plus ``MOTION_ELEMENT`` for a beam element's link."""
    return int(translation) + MOTION_ROTATION * int(rotation) + (MOTION_ELEMENT if element else 0)


def motion_primitives(motion):
    """The ``(Translation, Rotation)`` of a link code (``Motion``, element or not)."""
    m = int(motion)
    return Translation(motion_translation(m)), Rotation(motion_rotation(m))


def translation_coordinates(translation):
    """The number of coordinates of a ``Translation`` (0, 1 or 3): the kernels' own
    ``translation_size``."""
    return translation_size(int(translation))


def rotation_coordinates(rotation):
    """The number of coordinates of a ``Rotation`` (0, 1, 2 or 3): the kernels' own
    ``rotation_size``."""
    return rotation_size(int(rotation))


def motion_size(motion):
    """The number of coordinates of a link code: its translation's (0, 1, 3) and rotation's (0,
    1, 2, 3)."""
    m = int(motion)
    return translation_size(motion_translation(m)) + rotation_size(motion_rotation(m))
