"""Element kernels: constant matrices, elastic force and tangent of one element; model set-up.

The single-element functions of ``rancf.elements.beam`` are Python wrappers of the
Cython kernels, so their times include the wrapper's call overhead; the model-level
set-up (all elements at once) shows the per-element cost.
"""
import numpy as np

from .common import DOFS, E_SOFT, RHO, SIDE, pendulum, require

MODELS = ["shabana", "berzeri", "reissner"]
GRAVITY = (0.0, -9.81)  # m/s^2


def deformed_element(l=1.0):
    """Coordinates ``e`` (8,) of a stretched (2 %), bent and rotated element."""
    a = 0.3  # rad, rotation of the chord
    c, s = np.cos(a), np.sin(a)
    return np.array([0.0, 0.0, 1.02 * c - 0.1 * s, 1.02 * s + 0.1 * c,
                      1.02 * l * c, 1.02 * l * s, 1.02 * c + 0.1 * s, 1.02 * s - 0.1 * c])


class ElementConstants:
    """Mass matrix (8, 8) and gravity force (8,) of one 1 m element."""

    def setup(self):
        self.element = require("rancf", "elements.beam")

    def time_mass_matrix(self):
        self.element.mass_matrix(RHO, SIDE**2, 1.0)

    def time_gravity_force(self):
        self.element.gravity_force(RHO, SIDE**2, 1.0, GRAVITY)


class ElementElastic:
    """Elastic energy, force (8,) and tangent stiffness (8, 8) of one deformed element."""

    params = MODELS
    param_names = ["elastic_model"]

    def setup(self, model):
        self.element = require("rancf", "elements.beam")
        self.e = deformed_element()
        self.args = (1.0, E_SOFT, SIDE**2, SIDE**4 / 12.0, model)

    def time_elastic_energy(self, model):
        self.element.elastic_energy(self.e, *self.args)

    def time_elastic_force(self, model):
        self.element.elastic_force(self.e, *self.args)

    def time_tangent_stiffness(self, model):
        self.element.tangent_stiffness(self.e, *self.args)


class ChainConstants:
    """Model set-up of a whole pendulum vs DOF: the model and its Assembly (topology, element
    constants, mass matrices, gravity forces), and the recursive formulation of it (kernel
    tables, the constant block LDL^T of Omega)."""

    params = DOFS
    param_names = ["n_dof"]
    timeout = 300

    def setup(self, n_dof):
        self.Recursive = require("rancf.formulations.recursive", "Recursive")
        self.assembly = pendulum(n_dof).build()
        if n_dof > 1000:
            # Up to seconds per call: a few samples. Smaller sizes keep asv's default
            # sampling, which its significance test in `asv continuous` needs.
            self.repeat, self.warmup_time = (1, 3, 10.0), 0.0

    def time_build_chain(self, n_dof):
        pendulum(n_dof).build()

    def time_recursive_formulation(self, n_dof):
        self.Recursive(self.assembly)
