"""Review 10's findings on the merges e563fa1..d974dd6 (statics' damped steps solving a step
misread by its chord, the clamp at a cable point refusing its slope turned over, the
elements' Hessians reused from the residual, the closed-form gradient of J_l: tested
against central differences in tests/test_spatial_beam.py), each against something
independent of the code under review.
"""
import numpy as np
import pytest

from rancf.formulations.problem import StepFailure
from rancf.integrators import static


class Singular:
    """A stand-in for statics' stepper whose every step fails as a Newton matrix that cannot
    be factored at any mu does (a DAE's rank-deficient constraint rows: ``[[K + mu M,
    Phi_x^T], [Phi_x, 0]]`` singular whatever mu): ``advance`` raises StepFailure from the
    factorization, before Newton's first iteration is counted (rancf/integrators/
    _implicit.pyx ``_newton``: ``newton_iterations`` rises after the first solve)."""

    def __init__(self, calls):
        self.calls, self.newton_iterations, self.am = calls, 0, 0.0

    def start_at_rest(self, t, x, lam):
        pass

    def advance(self):
        self.calls[0] += 1
        if self.calls[0] > 10000:
            raise KeyError("still stepping after 10000 failed steps")
        raise StepFailure("failed", "the Newton matrix is singular")


def test_the_damped_steps_stop_where_every_step_fails(monkeypatch):
    """``_damped_newton`` returns None (no equilibrium reached) within its budget, ``10
    max_iter`` steps, where every step fails before a Newton iteration is counted: each
    failure raises mu tenfold and tries again. Bound: at most ``10 max_iter`` tries (the
    budget before e563fa1..d974dd6 counted steps, one iteration each). Before the fix the
    budget counted the steppers' Newton iterations alone, which such failures leave at zero:
    mu overflowed to inf after 308 tries and the loop went on for ever (stopped here by the
    stand-in after 10000)."""
    calls = [0]
    monkeypatch.setattr(static, "_static_stepper",
                        lambda problem, tol, max_iter, inertia=0.0, made=None: Singular(calls))
    x, lam = np.zeros(2), np.zeros(0)

    def residual(x, lam):
        f = np.array([1.0, 0.0])
        return np.linalg.norm(f), f, np.zeros(0)
    max_iter = 20
    end = static._damped_newton(None, x, lam, residual, lambda x, d: d, 9.81, 1.0, 1e-10,
                                max_iter, [])
    assert end is None
    assert calls[0] <= 10 * max_iter


def clamp_drawn_rotated(end):
    """A 1 m ANCF cable (4 elements) drawn along d = (0.3, -0.5, 0.8) / |.|, a body of
    reference frame R0 (a rotation vector (0.3, 2.5, -1.0): no axis of it along d) clamped to
    it ("fixed"): at the cable's start as the joint's parent (``end`` False; the body on a
    ball joint to the ground behind it), or at its end as the joint's child (the cable's
    start on a ball joint to the ground). ``(dae, R0, d, slope)``, slope the coordinates'
    slice of the clamped node's r'."""
    import rancf
    from scipy.spatial.transform import Rotation
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    EA, A = 1e5, 1e-4
    d = np.array([0.3, -0.5, 0.8])
    d /= np.linalg.norm(d)
    R0 = Rotation.from_rotvec([0.3, 2.5, -1.0]).as_matrix()
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    J = np.diag([0.01, 0.02, 0.03])
    if end:
        c = m.add_beam(1.0, 4, E=EA / A, rho=0.5 / A, A=A, I=1e-3 * A / EA, direction=tuple(d),
                       element="ancf-cable")
        m.add_joint("spherical", m.ground.point(0.0, 0.0, 0.0), c.start)
        b = m.add_rigid_body(1.0, J, position=tuple(1.2 * d), orientation=R0)
        m.add_joint("fixed", c.end, b.point(*(R0.T @ (-0.2 * d))))
        slope = slice(-3, None)
    else:
        b = m.add_rigid_body(1.0, J, position=tuple(-0.2 * d), orientation=R0)
        m.add_joint("spherical", m.ground.point(*(-0.4 * d)), b.point(*(R0.T @ (-0.2 * d))))
        c = m.add_beam(1.0, 4, E=EA / A, rho=0.5 / A, A=A, I=1e-3 * A / EA, direction=tuple(d),
                       element="ancf-cable")
        m.add_joint("fixed", b.point(*(R0.T @ (0.2 * d))), c.start)
        slope = slice(10, 13)
    return SpatialDAE(m.build(), *spatial.model_inputs(m)), R0, d, slope


@pytest.mark.parametrize("end", [False, True], ids=["body parent at the start",
                                                     "body child at the end"])
def test_a_clamp_drawn_at_an_angle_measures_its_slope_against_the_drawn_tangent(end):
    """The clamp's measure ``r' . (A(p) (b_1 x b_2))`` (``CableLinkKernel.held``), for a
    clamp drawn at an arbitrary angle to a body of a rotated reference frame, with the body
    as the joint's parent at the cable's start or as its child at the end, against the one
    written here: the clamped node's r' on the drawn tangent d carried by the body's turn
    from its reference, ``R(p) R0^T d`` (scipy's rotation of the unit Euler parameters, times
    ``|p|^2`` as the kernel's unnormalized A(p)), at random bodies' parameters (not unit)
    and slopes. As drawn it is ``|d|^2 = 1``, positive: the sign reference is the cable's own
    tangent whichever end and side. Bound 1e-13 (round-off of a few products of order 1)."""
    from scipy.spatial.transform import Rotation
    dae, R0, d, slope = clamp_drawn_rotated(end)
    x = dae.initial_state()[0]
    assert dae._cable_kernel.held(x)[-1] == pytest.approx(1.0, abs=1e-13)
    rng = np.random.default_rng(17)
    for _ in range(5):
        y = x + rng.standard_normal(x.size)
        p = y[3:7]
        R = Rotation.from_quat([p[1], p[2], p[3], p[0]]).as_matrix() * (p @ p)
        assert dae._cable_kernel.held(y)[-1] == pytest.approx(y[slope] @ (R @ R0.T @ d),
                                                              abs=1e-13 * (1 + p @ p))
