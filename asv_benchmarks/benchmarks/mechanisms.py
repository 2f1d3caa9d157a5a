"""Mechanisms beyond the serial chain (issue 11): a branched tree and a closed loop, vs size.

* :func:`branched_tree`: a trunk of pendulum bodies with a beam branching off an interior
  node of every body (revolute and clamped in turn), a rigid body on a branch and a rigid arm
  on a driven joint at the tip. The recursive formulation runs it: RK4 steps through
  ``rancf.simulate``, and the compiled right-hand side alone (rigid bodies, clamps and the
  drive make the generalized mass state-dependent, so every evaluation factors it anew).
* :func:`four_bar`: a closed four-bar linkage of three beams between two ground pins, which
  only the DAE formulation runs: generalized-alpha steps with the sparse LU.

Every run starts from the state :data:`WARM_UP` s after release from rest (deformed and
moving), so that no kernel is timed on the zeros of the unstressed state.
"""
import numpy as np

from .common import (BODY_LENGTH, E_SOFT, ELEMENTS_PER_BODY, RHO, SIDE, batch, memoized,
                     require)

STEPS = 10
DT = 1e-3  # s
#: s: release time of the start state; the period of the tree's drive, so that the drive
#: is back at q = 0, q' = 0 and the state is a valid start at t = 0.
WARM_UP = 0.2
AREA, INERTIA = SIDE**2, SIDE**4 / 12.0
#: Branches of the tree (one per trunk body): about 43 DOF each.
BRANCHES = [5, 40, 320]
#: Elements per bar of the four-bar linkage: 12 (n + 1) coordinates and 8 constraints.
ELEMENTS_PER_BAR = [4, 16, 64, 256]


def arm_drive(t):
    """Angle (rad) of the tip arm relative to the trunk: ``0.5 sin^2(pi t / WARM_UP)`` and its
    first two derivatives; zero with zero rate at t = 0 and t = WARM_UP."""
    w = np.pi / WARM_UP
    return 0.5 * np.sin(w * t)**2, 0.5 * w * np.sin(2 * w * t), w * w * np.cos(2 * w * t)


def branched_tree(n_branches):
    """A tree of ``2 n_branches`` beams and two rigid bodies, E = 21 MPa, gravity along -y.

    Trunk: ``n_branches`` bodies of the reference pendulum (5 m, 5 elements, revolute
    joints, pinned at the origin). Branches: a 2.5 m beam of 5 elements starting at node 2
    of every trunk body, 60 degrees below +x, revolute on even and clamped (fixed) on odd
    bodies. Rigid bodies: 5 kg (0.02 kg m^2) pinned 0.2 m beyond the end of the first branch
    on its axis; a 1 m, 10 kg arm at the trunk's tip on a revolute joint driven by
    :func:`arm_drive`.
    """
    Model = require("rancf", "Model")
    m = Model(gravity=(0.0, -9.81))
    parent = m.ground.point(0.0, 0.0)
    down = -np.pi / 3
    direction = np.array([np.cos(down), np.sin(down)])
    for k in range(n_branches):
        body = m.add_beam(BODY_LENGTH, ELEMENTS_PER_BODY, E_SOFT, RHO, AREA, INERTIA,
                          start=(k * BODY_LENGTH, 0.0))
        m.add_joint("revolute", parent, body.start)
        parent = body.end
        node = 2
        root = (k * BODY_LENGTH + node * BODY_LENGTH / ELEMENTS_PER_BODY, 0.0)
        branch = m.add_beam(BODY_LENGTH / 2, ELEMENTS_PER_BODY, E_SOFT, RHO, AREA, INERTIA,
                            start=root, angle=down)
        m.add_joint("revolute" if k % 2 == 0 else "fixed", body.node(node), branch.start)
        if k == 0:
            centre = np.array(root) + (BODY_LENGTH / 2 + 0.2) * direction
            weight = m.add_rigid_body(5.0, 0.02, position=centre, angle=down)
            m.add_joint("revolute", branch.end, weight.point(-0.2, 0.0))
    tip = n_branches * BODY_LENGTH
    arm = m.add_rigid_body(10.0, 10.0 / 12.0, position=(tip + 0.5, 0.0))
    m.add_joint("revolute", parent, arm.point(-0.5, 0.0), drive=arm_drive)
    return m


def four_bar(elements_per_bar):
    """A four-bar linkage of three beams (E = 21 MPa) between ground pins at (0, 0) and
    (5, 0): crank and rocker 2 m at 60 degrees, coupler 5 m along +x (a parallelogram),
    released under gravity along -y."""
    Model = require("rancf", "Model")
    m = Model(gravity=(0.0, -9.81))
    lean = np.pi / 3
    top = 2.0 * np.array([np.cos(lean), np.sin(lean)])
    crank = m.add_beam(2.0, elements_per_bar, E_SOFT, RHO, AREA, INERTIA, angle=lean)
    coupler = m.add_beam(5.0, elements_per_bar, E_SOFT, RHO, AREA, INERTIA, start=top)
    rocker = m.add_beam(2.0, elements_per_bar, E_SOFT, RHO, AREA, INERTIA,
                        start=top + (5.0, 0.0), angle=lean - np.pi)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), crank.start)
    m.add_joint("revolute", crank.end, coupler.start)
    m.add_joint("revolute", coupler.end, rocker.start)
    m.add_joint("revolute", m.ground.point(5.0, 0.0), rocker.end)
    return m


TREE_RK4 = dict(formulation="recursive", method="rk4")
FOUR_BAR_DAE = dict(formulation="dae", method="generalized-alpha", linear_solver="sparse")


@memoized
def warm_tree(n_branches):
    """``(model, state, y)``: :func:`branched_tree`, its state :data:`WARM_UP` s after release,
    and that state as the recursive formulation's state vector."""
    model = branched_tree(n_branches)
    state = _released(model, TREE_RK4)
    of = require("rancf.formulations.recursive", "of")
    return model, state, of(model.build()).initial_state(state.x, state.v)


@memoized
def warm_four_bar(elements_per_bar):
    """``(model, state)``: :func:`four_bar` and its state :data:`WARM_UP` s after release."""
    model = four_bar(elements_per_bar)
    return model, _released(model, FOUR_BAR_DAE)


def _released(model, options):
    simulate = require("rancf", "simulate")
    result = simulate(model, WARM_UP, DT, output_every=int(round(WARM_UP / DT)), **options)
    if result.status != "ok":
        raise RuntimeError(f"warm-up {options}: {result.status}: {result.message}")
    return result.state(-1)


def _steps(model, state, options):
    simulate = require("rancf", "simulate")
    result = simulate(model, STEPS * DT, DT, state=state, output_every=STEPS, **options)
    if result.status != "ok":
        raise RuntimeError(f"{options}: {result.status}: {result.message}")


class BranchedTreeSteps:
    """Ten RK4 steps of the branched tree (recursive formulation) through ``rancf.simulate``."""

    params = BRANCHES
    param_names = ["n_branches"]
    timeout = 300

    def setup(self, n_branches):
        self.model, self.state, _ = warm_tree(n_branches)

    def time_rk4_10_steps(self, n_branches):
        # dt is inside the stability limit (checked by the warm-up run); the check's power
        # iteration is left out of the timed steps
        _steps(self.model, self.state, dict(TREE_RK4, check_stability=False))


class BranchedTreeRightHandSide:
    """``RecursiveKernel.rhs(t, y, ydot)`` of the branched tree: kinematics, forces, the
    factorization of the state-dependent generalized mass and its two sweeps."""

    params = BRANCHES
    param_names = ["n_branches"]
    timeout = 300

    def setup(self, n_branches):
        of = require("rancf.formulations.recursive", "of")
        model, _, self.y = warm_tree(n_branches)
        self.kernel = of(model.build()).kernel
        self.ydot = np.empty_like(self.y)
        # Samples of about 15 ms (about 75 ns per DOF and call), so that a short call is
        # not timed alone.
        batch(self, 5000 // n_branches)

    def time_rhs(self, n_branches):
        rhs, y, ydot = self.kernel.rhs, self.y, self.ydot
        for _ in self.calls:
            rhs(0.0, y, ydot)


class FourBar:
    """The four-bar linkage in the DAE formulation: ten generalized-alpha steps (sparse LU)."""

    params = ELEMENTS_PER_BAR
    param_names = ["elements_per_bar"]
    timeout = 300

    def setup(self, elements_per_bar):
        self.model, self.state = warm_four_bar(elements_per_bar)

    def time_generalized_alpha_10_steps(self, elements_per_bar):
        _steps(self.model, self.state, FOUR_BAR_DAE)
