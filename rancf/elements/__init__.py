"""The elements of a mechanism: the ANCF beam (:mod:`.beam`) and the rigid body (:mod:`.rigid`),
and the planar geometry they and the joints use (:mod:`.planar`)."""
from . import beam, planar, rigid

__all__ = ["beam", "planar", "rigid"]
