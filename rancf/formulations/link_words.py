"""A spatial formulation's link code in words, for messages: the tree's links' ``Motion``
codes (:func:`rancf.joints.motion_words`) and the cable nodes' (``CableMotion`` of
rancf/formulations/_spatial.pxd, codes of the formulation that rancf.joints, a layer below,
does not know)."""
from ..joints import motion_words
from ._spatial import CableMotion

#: a cable node's code in words
CABLE_WORDS = {CableMotion.C_NODE: "a cable node",
               CableMotion.C_SPHERICAL: "a cable node on a spherical joint",
               CableMotion.C_CLAMP: "a cable node on a clamp"}


def link_words(code):
    """``"a cable node"`` (``"... on a spherical joint"``, ``"... on a clamp"``) for a cable
    node's code, else :func:`rancf.joints.motion_words` (which refuses other codes)."""
    code = int(code)
    if code in set(CableMotion):
        return CABLE_WORDS[CableMotion(code)]
    return motion_words(code)
