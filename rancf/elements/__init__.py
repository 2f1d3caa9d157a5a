"""The elements of a mechanism: the ANCF beam (:mod:`.beam`) and the rigid body (:mod:`.rigid`)."""
from . import beam, rigid

__all__ = ["beam", "rigid"]
