"""The ``scaling`` case's spatial chain (validation/cases/scaling.py ``spatial_chain``: a steel
beam of 1 m elements on a ball joint, released under gravity) with gravity tilted out of its
plane, ``(0, 0.1, -9.81)``, on the spatial recursion against the spatial DAE (issue 22).

Out of plane the links' rotations about the beam axis are excited; their inertia (rho I_p, a
square section of 0.03 m) is 1/(2 * 0.03^2) = 556 times below an element's bending inertia
about its centre. Schemes that weigh the equation of motion at the old and the new
configuration (Chung and Hulbert's form of HHT and generalized-alpha, ``(1 - am) M_n a_n -
(1 - af) F_n`` at q_n beside the new step's terms) failed there on a chain of 300 elements or
more: in relative coordinates each half projects a link wrench of the size of the chain's
weight on its own configuration's joint axes, and what the two projections on a twist axis
leave is resolved by the tiny twist inertia (converged steps' twist accelerations grew by 30 to
100 times a step until Newton failed). Every scheme of the loop now takes the equation at one
configuration: Newmark and generalized-alpha-S, and HHT and generalized-alpha in Arnold and
Bruls' form (the equation at t_n+1, the alpha weights carried by the pseudo-accelerations,
rancf/integrators/implicit.py); all follow the DAE.
"""
import numpy as np
import pytest

import rancf
from validation.cases.scaling import spatial_chain

#: out of the chain's plane (x, z) by 0.1 m/s^2
GRAVITY = (0.0, 0.1, -9.81)
#: the nodes compared: near the root, where the chain swings (its far part falls freely in the
#: first milliseconds, the same in every formulation)
NODES = (1, 2, 3, 5, 10)


def tilted(n):
    """The chain of ``n`` elements under :data:`GRAVITY`."""
    m = spatial_chain(n)
    m.gravity = GRAVITY
    return m


def nodes(n, formulation, method, dt, t_end):
    """Positions (nodes, outputs, 3) and orientations (nodes, outputs, 3, 3) of :data:`NODES`
    at every 5 ms of a run."""
    m = tilted(n)
    res = rancf.simulate(m, t_end, dt, method=method, formulation=formulation,
                         output_every=round(0.005 / dt))
    assert res.status == "ok", res.message
    points = [m.beams[0].node(k) for k in NODES]
    return (np.array([res.position(p) for p in points]),
            np.array([res.orientation(p) for p in points]))


def follows_the_dae(n, method, t_end):
    """The recursion's and the DAE's runs at 1 and 0.5 ms: the node positions (m) and the
    orientations' entries at 0.5 ms within the sum of the two runs' step-halving estimates,
    ``max |x(h) - x(h/2)|`` each (second-order schemes: three times the error at h/2)."""
    runs = {(f, dt): nodes(n, f, method, dt, t_end)
            for f in ("recursive", "dae") for dt in (1e-3, 5e-4)}
    for i in range(2):
        estimate = sum(np.abs(runs[f, 1e-3][i] - runs[f, 5e-4][i]).max()
                       for f in ("recursive", "dae"))
        assert np.abs(runs["recursive", 5e-4][i] - runs["dae", 5e-4][i]).max() <= estimate


@pytest.mark.parametrize("n, method", [
    (100, "generalized-alpha-s"), (300, "generalized-alpha-s"), (300, "newmark"),
    (100, "generalized-alpha"), (300, "generalized-alpha"), (300, "hht")])
def test_out_of_plane_chain_follows_the_dae(n, method):
    """10 ms (the first 5 mm of the swing near the root), both formulations with the same
    scheme."""
    follows_the_dae(n, method, 0.01)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["generalized-alpha-s", "generalized-alpha", "hht"])
def test_long_out_of_plane_chain_follows_the_dae(method):
    """1000 elements, 20 ms."""
    follows_the_dae(1000, method, 0.02)
