"""The integer codes of the compiled kernels, mirrored to Python from ``_codes.pxd``.

Each ``cpdef enum`` of the ``.pxd`` is an :class:`enum.IntEnum` here (``PointKind``,
``Position``, ``Direction``, ``Coordinate``, ``RecursionCode``, ``Place``, ``Turn``,
``TermMode``, ``Motion``, the spatial DAE's ``LinkRotation``, ``LinkTranslation``,
``LinkDrive``, ``LinkSide``, the arc points' ``ArcSide`` and the cable joints' ``CableJoint``), with the values the kernels
cimport: the one definition of every code. Their members are module names too (``from rancf.joints._codes import P_NODE``), as they
are to the kernels.
"""
ENUMS = (PointKind, Position, Direction, Coordinate, RecursionCode, Place, Turn, TermMode,
         Motion, LinkRotation, LinkTranslation, LinkDrive, LinkSide, ArcSide, CableJoint)
for _enum in ENUMS:
    globals().update(_enum.__members__)
del _enum
