"""Spatial models (issue 22): the O(n) spatial recursion's right-hand side, explicit and implicit
steps, and a static solve, vs the number of beam elements.

* :func:`pendulum_beam`: the spatial counterpart of the reference pendulum (common.py): one beam
  of 1 m elements (square section of side 0.03 m, E = 21 MPa, G = E / 2.6, rho = 7800 kg/m^3) on a
  spherical joint at the origin, along +x, released from rest under gravity along -z; six
  coordinates per element and three for the joint.
* :func:`roll_up`: a steel cantilever rolled up into a full circle by the end moment
  ``2 pi E I / L`` in load steps (``rancf.static``).
* :class:`DAEFourBarSteps`: the steel spherical four-bar (a closed loop) on the spatial DAE.
* :class:`CableKernels`: the ANCF cable's element kernels, force and tangents.

The right-hand side is timed through the formulation's own entry point,
``Spatial.derivative(t, y)`` (kinematics, forces, the articulated-body recursion; status check and
copy of ``y'`` included), at a stretched, bent, twisted and moving state. The steps run
``rancf.simulate`` from the reference configuration at rest (a spatial run starts there), so they
time the first ``STEPS`` steps of the fall, the same at every commit.
"""
import numpy as np

from .common import E_SOFT, RHO, SIDE, batch, memoized, require

#: Beam elements of the right-hand side and RK4 benchmarks (6 n + 3 coordinates).
ELEMENTS = [10, 100, 1000, 10000]
#: Beam elements of the implicit steps.
ELEMENTS_IMPLICIT = [10, 100, 1000]
#: Cantilever elements of the static roll-up.
ELEMENTS_STATIC = [16, 64]
STEPS = 10
#: s: RK4's step, inside its stability limit set by the nodes' shear-rotation mode
#: ``sqrt(k G A / (rho I))`` = 3.4e3 rad/s for this section (2 sqrt(2) / omega = 8.3e-4 s)
DT_RK4 = 2e-4
DT_IMPLICIT = 1e-3  # s, the reference step of the planar benchmarks
DT_FOUR_BAR = 2e-3  # s, the step of the spatial four-bar's DAE benchmark
G_SOFT = E_SOFT / 2.6
#: The steel cantilever of the roll-up: 1 m, section 0.02 x 0.01 m.
E_STEEL, G_STEEL = 2.1e11, 2.1e11 / 2.6
LOAD_STEPS = 4


def _section(side=SIDE):
    """``A, (Iy, Iz), J`` of a square section (m^2, m^4): ``J = 0.141 side^4``."""
    inertia = side**4 / 12.0
    return side**2, (inertia, inertia), 0.141 * side**4


@memoized
def pendulum_beam(n_elements):
    """A ``rancf.Model(dim=3)``: one beam of ``n_elements`` 1 m elements (E = 21 MPa) on a
    spherical joint at the origin, along +x with its section's y axis along +y, gravity along
    -z."""
    require("rancf.formulations.spatial", "of_model", feature="spatial")
    Model = require("rancf", "Model")
    A, I, J = _section()
    m = Model(dim=3, gravity=(0.0, 0.0, -9.81))
    beam = m.add_beam(float(n_elements), n_elements, E=E_SOFT, rho=RHO, A=A, I=I, J=J,
                      G=G_SOFT, direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), beam.start)
    return m


@memoized
def pendulum_formulation(n_elements):
    """``(formulation, y)``: the spatial formulation of :func:`pendulum_beam` and a deformed,
    moving state of it (seeded): relative displacements of 1 cm and rotations of 0.02 rad per
    element (every element stretched, sheared, bent and twisted; the joint turned by 0.3 rad), and
    rates of order 0.1 (m/s, rad/s). A state at rest in the reference configuration would leave
    the element forces at zero."""
    of_model = require("rancf.formulations.spatial", "of_model", feature="spatial")
    formulation = of_model(pendulum_beam(n_elements))
    rng = np.random.default_rng(0)
    n = formulation.n_free
    q = 0.01 * rng.standard_normal(n)
    q[:3] = 0.3 * rng.standard_normal(3)
    q[3:] *= np.tile([1.0, 1.0, 1.0, 2.0, 2.0, 2.0], n // 6)
    return formulation, formulation.initial_state(q, 0.1 * rng.standard_normal(n))


@memoized
def roll_up(n_elements):
    """A ``rancf.Model(dim=3)``: a 1 m steel cantilever (section 0.02 x 0.01 m) of
    ``n_elements`` clamped at the origin along +x, with the end moment ``2 pi E I_z / L`` about
    z that rolls it into a full circle, no gravity."""
    require("rancf.formulations.spatial", "of_model", feature="spatial")
    Model = require("rancf", "Model")
    width, height = 0.02, 0.01
    A, Iy, Iz = width * height, width * height**3 / 12.0, height * width**3 / 12.0
    m = Model(dim=3, gravity=(0.0, 0.0, 0.0))
    beam = m.add_beam(1.0, n_elements, E=E_STEEL, rho=RHO, A=A, I=(Iy, Iz), J=Iy + Iz,
                      G=G_STEEL, direction=(1.0, 0.0, 0.0), up=(0.0, 1.0, 0.0))
    m.add_joint("fixed", m.ground.point(0.0, 0.0, 0.0), beam.start)
    m.add_force(beam.end, moment=(0.0, 0.0, 2.0 * np.pi * E_STEEL * Iz))
    return m


def _checked(result, what):
    if result.status != "ok":
        raise RuntimeError(f"{what}: {result.status}: {result.message}")
    return result


class RightHandSide:
    """``Spatial.derivative(t, y)``: one evaluation of the O(n) spatial recursion (the call
    every explicit stage makes)."""

    params = ELEMENTS
    param_names = ["n_elements"]
    timeout = 300

    def setup(self, n_elements):
        self.formulation, self.y = pendulum_formulation(n_elements)
        # samples of about 10 ms (about 1 us per element and call)
        batch(self, 10_000 // n_elements)

    def time_derivative(self, n_elements):
        derivative, y = self.formulation.derivative, self.y
        for _ in self.calls:
            derivative(0.0, y)


class Steps:
    """``STEPS`` steps of ``rancf.simulate`` from rest: RK4 at ``DT_RK4`` (its stability check
    left out) and generalized-alpha at ``DT_IMPLICIT`` (the compiled implicit loop on the O(n)
    Newton matrix of the articulated-body elimination)."""

    params = (["rk4", "generalized-alpha"], ELEMENTS)
    param_names = ["method", "n_elements"]
    timeout = 300
    repeat = (1, 5, 10.0)  # a 1e4-element run takes a tenth of a second or more

    def setup(self, method, n_elements):
        if method != "rk4" and n_elements not in ELEMENTS_IMPLICIT:
            raise NotImplementedError(f"{method} is benchmarked up to {ELEMENTS_IMPLICIT[-1]} "
                                      "elements")
        self.simulate = require("rancf", "simulate")
        self.model = pendulum_beam(n_elements)
        self.options = (dict(method="rk4", check_stability=False) if method == "rk4"
                        else dict(method=method))
        self.dt = DT_RK4 if method == "rk4" else DT_IMPLICIT
        if not hasattr(self, "warm"):
            self.run()  # one-off set-up outside the timing
            self.warm = True

    def run(self):
        return _checked(self.simulate(self.model, STEPS * self.dt, self.dt, output_every=STEPS,
                                      **self.options), self.options)

    def time_10_steps(self, method, n_elements):
        self.run()



class DAEFourBarSteps:
    """``STEPS`` Newmark steps at ``DT_FOUR_BAR`` of the steel spherical four-bar of the
    spatial-loop checks (``validation.spherical_four_bar``: three beams of one element, the
    crank driven, a universal joint closing the loop) on the absolute-coordinate DAE, from its
    start at rest, one output: the per-link and per-element kernels, the Newton matrix on its
    fixed pattern and SuperLU, through the one implicit loop's Python problem."""

    timeout = 120

    def setup(self):
        self.simulate = require("rancf", "simulate")
        four_bar = require("validation.spherical_four_bar", "SphericalFourBar",
                           feature="spatial-loops")
        self.model = four_bar().flexible()[0]
        if not hasattr(self, "warm"):
            self.run()  # one-off set-up outside the timing
            self.warm = True

    def run(self):
        return _checked(self.simulate(self.model, STEPS * DT_FOUR_BAR, DT_FOUR_BAR,
                                      method="newmark", output_every=STEPS), "four-bar DAE")

    def time_10_steps(self):
        self.run()


class StaticRollUp:
    """``rancf.static``: the full roll-up of :func:`roll_up` in ``LOAD_STEPS`` load steps (a
    Newton solve per step on the O(n) elimination of the element tangents)."""

    params = ELEMENTS_STATIC
    param_names = ["n_elements"]
    timeout = 300

    def setup(self, n_elements):
        self.static = require("rancf", "static")
        self.model = roll_up(n_elements)

    def time_full_roll_up(self, n_elements):
        _checked(self.static(self.model, load_steps=LOAD_STEPS), "static roll-up")



#: Cable elements of the ANCF cable pendulum (issue 23: 256 and 1,000).
CABLE_ELEMENTS = [256, 1000]
#: s: RK4's step for the cable pendulum, inside its stability limit (the axial wave of 1 cm
#: elements: ``2 sqrt(E / rho) / l`` about 2e4 rad/s, with the bending modes above it)
DT_CABLE_RK4 = 2e-6


@memoized
def cable_pendulum(n_elements):
    """A ``rancf.Model(dim=3)``: a spatial ANCF cable of ``n_elements`` elements of 1 cm (E =
    10 MPa, rho = 1000 kg/m^3, A = 1 cm^2, I = 1e-9 m^4: a tether) on a spherical joint at the
    origin, along +x, released from rest under gravity along -z: the O(n) recursion's cable
    nodes (rancf/formulations/_spatial.pyx)."""
    require("rancf.formulations.spatial", "cable_layout", feature="spatial cable recursion")
    Model = require("rancf", "Model")
    m = Model(dim=3, gravity=(0.0, 0.0, -9.81))
    cable = m.add_beam(0.01 * n_elements, n_elements, E=1e7, rho=1000.0, A=1e-4, I=1e-9,
                       element="ancf-cable")
    m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), cable.start)
    return m


class CableSteps:
    """``STEPS`` steps of ``rancf.simulate`` of :func:`cable_pendulum` on the recursion: RK4 at
    ``DT_CABLE_RK4`` (stability check left out) and generalized-alpha at ``DT_IMPLICIT`` (the
    cable's exact tangent in the O(n) elimination). Divide by ``STEPS * n_elements`` for the
    cost per element and step (issue 23's goal: at least 5 x below Exudyn's 30-40 us)."""

    params = (["rk4", "generalized-alpha"], CABLE_ELEMENTS)
    param_names = ["method", "n_elements"]
    timeout = 300

    def setup(self, method, n_elements):
        self.simulate = require("rancf", "simulate")
        self.model = cable_pendulum(n_elements)
        self.options = (dict(method="rk4", check_stability=False) if method == "rk4"
                        else dict(method=method))
        self.dt = DT_CABLE_RK4 if method == "rk4" else DT_IMPLICIT
        if not hasattr(self, "warm"):
            self.run()  # one-off set-up outside the timing
            self.warm = True

    def run(self):
        return _checked(self.simulate(self.model, STEPS * self.dt, self.dt, output_every=STEPS,
                                      formulation="recursive", **self.options), self.options)

    def time_10_steps(self, method, n_elements):
        self.run()



#: Cable elements of :class:`CableKernels`: enough that the one Python call (its 15 typed
#: arrays) is a small share of the time, few enough that their 12 x 12 matrices stay in cache
KERNEL_ELEMENTS = 256


class CableKernels:
    """The ANCF cable's element kernels (rancf/elements/_ancf_cable.pyx) on
    ``KERNEL_ELEMENTS`` stretched, bent and moving elements of 1 cm, in the spatial DAE's
    compiled loop over elements (``rancf.formulations._spatial_dae.cable_elements``): the force
    alone (what an explicit step and a Newton residual call) and the force with K and C (what a
    Newton matrix calls), undamped and damped, straight and curved at rest. Divide by
    ``KERNEL_ELEMENTS`` for the time per element. The section is that of the ``peers3d``
    case's 256-element cable pendulum (issue 23, validation/peers3d_models.py: EA = 1e6 N,
    EI = 833.33 N m^2), not that of this file's :func:`cable_pendulum` (the tether of
    :class:`CableSteps`: EA = 1e3 N, EI = 1e-2 N m^2)."""

    params = (["force", "force and tangents"], [0.0, 1e-3], [False, True])
    param_names = ["output", "damping", "curved"]

    def setup(self, output, damping, curved):
        cable_elements = require("rancf.formulations._spatial_dae", "cable_elements",
                                 feature="spatial-loops")
        reference_state = require("rancf.elements._ancf_cable", "reference_state",
                                  feature="spatial-loops")
        n, l = KERNEL_ELEMENTS, 0.01
        rng = np.random.default_rng(0)
        t = np.array([0.6, 0.0, 0.8])
        nodes = np.array([np.concatenate([1.01 * k * l * t, 1.01 * t]) for k in range(n + 1)])
        x = (nodes + 1e-3 * rng.standard_normal(nodes.shape)).ravel()
        v = rng.standard_normal(x.size)
        dofs = np.array([np.arange(6 * k, 6 * k + 12) for k in range(n)], dtype=np.int64)
        # a rest state bent by 0.1 rad over an element: the end slope t turned about y
        c, s = np.cos(0.1), np.sin(0.1)
        t_end = np.array([c * t[0] + s * t[2], 0.0, c * t[2] - s * t[0]])
        rest = np.tile(reference_state(np.concatenate([np.zeros(3), t, l * t, t_end]), l),
                       (n, 1))
        self.args = (x, v, dofs, np.full(n, l), np.full(n, 1e6), np.full(n, 833.3333333333333),
                     np.full(n, damping), rest, np.full(n, curved, dtype=np.uint8),
                     np.empty((n, 12)), np.empty(n), np.empty(n), np.empty((n, 12, 12)),
                     np.empty((n, 12, 12)), output == "force and tangents")
        try:
            cable_elements(*self.args)
        except TypeError as exc:     # before the loop took rest states (the curved cable)
            raise NotImplementedError(f"cable_elements of this commit: {exc}") from exc
        self.cable_elements = cable_elements

    def time_elements(self, output, damping, curved):
        self.cable_elements(*self.args)
