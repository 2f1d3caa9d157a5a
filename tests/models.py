"""Test models: a branched tree with every joint kind, a closed four-bar linkage, random
states that satisfy every joint (rebuilt by the recursion from random coordinates), and a
rigid pendulum written as a Cartesian DAE with its angle ODE as reference."""
import numpy as np
from scipy.integrate import solve_ivp

import rancf
from rancf.formulations import recursive
from rancf.integrators.implicit import IndexThreeDAE

E, RHO, AREA, INERTIA = 5e6, 2000.0, 4e-4, 2e-8


def R(a):
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def ramp(t, rise=0.2):
    """0 at t = 0, 1 from t = rise on, C^1 (loads that start smoothly excite no stiff modes)."""
    return np.sin(0.5 * np.pi * min(t / rise, 1.0)) ** 2


def branched_tree(elastic_model="shabana", damping=0.01, gravity=(0.3, -9.81), E=E, smooth=False):
    """Two trees on the ground with every joint kind (theory: Joints in the recursion).

    Tree 1: beam b1 pinned at the origin; b2 revolute at b1's end with a spring-damper effort;
    b3 clamped (fixed) at b1's interior node; rigid r1 revolute at b2's end (off its centre);
    rigid r2 driven revolute on r1; beam b4 prismatic on r1 (rail at 0.7 rad, constant effort);
    rigid r3 prismatic on b2's interior node. Tree 2: beam b5 driven from a ground point with an
    angle; rigid r4 fixed at b5's end; rigid r5 on a driven prismatic joint on r4. Loads: a
    force and moment on b2's end, time functions on r1, a moment on b3's end; damping in b1.
    ``smooth``: the loads and efforts rise from 0 over 0.2 s (:func:`ramp`) instead of being
    applied at once (a concentrated load applied at once excites the stiff modes).
    """
    k = ramp if smooth else (lambda t: 1.0)
    m = rancf.Model(gravity=gravity, elastic_model=elastic_model)
    b1 = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA, damping=damping)
    b2 = m.add_beam(1.2, 3, E, RHO, AREA, INERTIA, start=(1.0, 0.0), angle=-0.4)
    b3 = m.add_beam(0.8, 2, E, RHO, AREA, INERTIA, start=(0.5, 0.0), angle=1.2)
    m.add_joint("revolute", m.ground.point(0, 0), b1.start)
    m.add_joint("revolute", b1.end, b2.start, effort=lambda t, q, qd: -3.0 * k(t) * q - 0.2 * qd)
    m.add_joint("fixed", b1.node(1), b3.start)
    end2 = np.array([1.0, 0.0]) + 1.2 * np.array([np.cos(-0.4), np.sin(-0.4)])
    c1 = end2 + [0.1, -0.05]
    r1 = m.add_rigid_body(2.0, 0.05, position=c1, angle=0.3)
    m.add_joint("revolute", b2.end, r1.point(*(R(-0.3) @ -np.array([0.1, -0.05]))))
    d1 = np.array([0.15, 0.05])
    p1 = c1 + R(0.3) @ d1
    r2 = m.add_rigid_body(0.7, 0.01, position=p1 + R(-0.9) @ [0.1, 0.0], angle=-0.9)
    m.add_joint("revolute", r1.point(*d1), r2.point(-0.1, 0.0),
                drive=lambda t: (-1.2 + 0.5 * np.sin(2 * t), np.cos(2 * t), -2.0 * np.sin(2 * t)))
    b4 = m.add_beam(0.6, 2, E, RHO, AREA, INERTIA, start=p1, angle=1.0)
    m.add_joint("prismatic", r1.point(*d1), b4.start, axis=0.7,
                effort=(lambda t, q, qd: 0.5 * k(t)) if smooth else 0.5)
    p = np.array([1.0, 0.0]) + 0.4 * np.array([np.cos(-0.4), np.sin(-0.4)])
    r3 = m.add_rigid_body(0.5, 0.02, position=p + R(0.2) @ [0.05, 0.02], angle=0.2)
    m.add_joint("prismatic", b2.node(1), r3.point(-0.05, -0.02))
    b5 = m.add_beam(0.9, 2, E, RHO, AREA, INERTIA, start=(-1.0, 0.5), angle=2.0)
    m.add_joint("revolute", m.ground.point(-1.0, 0.5, angle=0.5), b5.start,
                drive=(lambda t: (1.5 + 0.1 * t**3, 0.3 * t**2, 0.6 * t)) if smooth else
                (lambda t: (1.5 + 0.2 * t**2, 0.4 * t, 0.4)))
    end5 = b5.reference_nodes()[-1, :2]
    r4 = m.add_rigid_body(0.3, 0.004, position=end5 + R(2.0) @ [0.1, 0.0], angle=2.0)
    m.add_joint("fixed", b5.end, r4.point(-0.1, 0.0))
    r5 = m.add_rigid_body(0.4, 0.003, position=end5 + R(2.0) @ [0.1, 0.0] + R(2.3) @ [0.2, 0.0],
                          angle=2.3)
    m.add_joint("prismatic", r4.centre, r5.point(-0.2, 0.0), axis=0.3,
                drive=lambda t: (0.1 * np.sin(3 * t), 0.3 * np.cos(3 * t), -0.9 * np.sin(3 * t)))
    if smooth:
        m.add_force(b2.end, force=lambda t: (k(t), -2.0 * k(t)), moment=lambda t: 0.3 * k(t))
        m.add_force(b3.end, moment=lambda t: -0.2 * k(t))
    else:
        m.add_force(b2.end, force=(1.0, -2.0), moment=0.3)
        m.add_force(b3.end, moment=-0.2)
    m.add_force(r1.point(0.05, 0.0), force=lambda t: (np.cos(t) * k(t), 0.5 * k(t)),
                moment=lambda t: 0.1 * t)
    return m


def sprung_tree(elastic_model="reissner"):
    """Every joint kind that takes an effort, with nonlinear spring-dampers of (q, qd) in each:
    beam b1 on the ground, rigid r1 revolute at b1's end, beam b2 prismatic on r1 (rail at
    0.4 rad), rigid r2 prismatic on b1's interior node, beam b3 revolute on r1; moments on b1's
    end (constant), on r1 (a function of t) and on b3's end; gravity, damping in b1."""
    m = rancf.Model(gravity=(0.2, -9.81), elastic_model=elastic_model)
    b1 = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA, angle=0.3, damping=0.01)
    m.add_joint("revolute", m.ground.point(0, 0), b1.start,
                effort=lambda t, q, qd: -4.0 * np.sin(q - 0.3) - 0.3 * qd - 0.1 * qd**3)
    end1 = np.array([np.cos(0.3), np.sin(0.3)])
    c1 = end1 + R(0.5) @ [0.1, 0.05]
    r1 = m.add_rigid_body(1.5, 0.04, position=c1, angle=0.5)
    m.add_joint("revolute", b1.end, r1.point(-0.1, -0.05),
                effort=lambda t, q, qd: -2.0 * q * (1.0 + q**2) - 0.2 * qd)
    d1 = np.array([0.12, 0.04])
    p1 = c1 + R(0.5) @ d1
    b2 = m.add_beam(0.7, 2, E, RHO, AREA, INERTIA, start=p1, angle=1.1)
    m.add_joint("prismatic", r1.point(*d1), b2.start, axis=0.4,
                effort=lambda t, q, qd: -60.0 * q - 3.0 * qd * (1.0 + qd**2) + np.sin(t))
    mid = 0.5 * end1
    r2 = m.add_rigid_body(0.4, 0.01, position=mid + R(1.0) @ [0.06, 0.02], angle=1.0)
    m.add_joint("prismatic", b1.node(1), r2.point(-0.06, -0.02),
                effort=lambda t, q, qd: -40.0 * q * (1.0 + 10.0 * q**2) - 1.5 * qd)
    b3 = m.add_beam(0.6, 2, E, RHO, AREA, INERTIA, start=c1, angle=-0.6)
    m.add_joint("revolute", r1.centre, b3.start, effort=lambda t, q, qd: -3.0 * np.sin(q + 1.1) - 0.1 * qd)
    m.add_force(b1.end, moment=0.4)
    m.add_force(r1.point(0.05, 0.0), force=(0.5, -1.0), moment=lambda t: 0.2 * np.cos(t))
    m.add_force(b3.end, force=lambda t: (0.0, -0.3 * t), moment=-0.25)
    return m


def spring_tree(elastic_model="reissner"):
    """A trunk and a branch of beams on revolute joints with nonlinear torsion spring-dampers of
    (q, qd), a moment of t and a constant one, a force, damping in the trunk: a tree whose map
    from joint coordinates to node coordinates is linear and constant (the recursion's Newton
    matrix is exact), with loads that depend on the state."""
    m = rancf.Model(gravity=(0.3, -9.81), elastic_model=elastic_model)
    trunk = m.add_beam(1.0, 2, E, RHO, AREA, INERTIA, angle=np.pi / 2, damping=0.01)
    left = m.add_beam(0.6, 2, E, RHO, AREA, INERTIA, start=(0.0, 0.5), angle=np.radians(150))
    m.add_joint("revolute", m.ground.point(0.0, 0.0), trunk.start,
                effort=lambda t, q, qd: -40.0 * np.sin(q - 1.5) - 0.2 * qd - 0.05 * qd**3)
    m.add_joint("revolute", trunk.node(1), left.start,
                effort=lambda t, q, qd: -5.0 * q * (1.0 + q**2) - 0.05 * qd)
    m.add_force(left.end, force=(0.0, -1.0), moment=lambda t: 0.3 * np.cos(t))
    m.add_force(trunk.end, moment=-0.2)
    return m


def four_bar(n_elements=3, E_bar=2e7, gravity=(0.0, -9.81), tilt=0.3):
    """A closed four-bar linkage of three beams between ground pins at (0, 0) and (1, 0): a
    parallelogram with 0.4 m crank and rocker leaning ``tilt`` rad from the vertical and a
    1 m coupler, at rest."""
    m = rancf.Model(gravity=gravity)
    up = np.pi / 2 - tilt
    top = 0.4 * np.array([np.cos(up), np.sin(up)])
    crank = m.add_beam(0.4, n_elements, E_bar, RHO, AREA, INERTIA, angle=up)
    coupler = m.add_beam(1.0, n_elements, E_bar, RHO, AREA, INERTIA, start=top)
    rocker = m.add_beam(0.4, n_elements, E_bar, RHO, AREA, INERTIA, start=top + [1.0, 0.0],
                        angle=up + np.pi)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), crank.start)
    m.add_joint("revolute", crank.end, coupler.start)
    m.add_joint("revolute", coupler.end, rocker.start)
    m.add_joint("revolute", m.ground.point(1.0, 0.0), rocker.end)
    return m, (crank, coupler, rocker)


class UnitOscillator(rancf.implicit.IndexThreeDAE):
    """``q'' = -q``, one coordinate and no constraint: the smallest DAE, whose solution
    ``q = cos t`` (from q = 1 at rest) a test checks a loop on; a test's subclass adds what it
    watches (``observe``, a ``step_solver``)."""
    n_coordinates = 1

    def mass(self, q):
        return np.eye(1)

    def force(self, q, v, t):
        return -q

    def stiffness(self, q, v, t):
        return np.eye(1)


def random_state(model, rng, t=0.3, amplitude=0.05):
    """A random state ``y`` of the recursive formulation that satisfies every joint at t, with
    its coordinates x and velocities v (n_x,)."""
    rec = recursive.of(model.build())
    A = rec.assembly
    y = np.concatenate([A.x0 + amplitude * rng.standard_normal(A.n_x),
                        rng.standard_normal(rec.n_dof), [0.0, 0.0]])
    for _ in range(2):      # rebuild the first vertices, then the velocities at the rebuilt x
        rec.kernel.kinematics(t, y)
        y[:A.n_x] = rec.kernel.arrays["X"]
    return y, rec.kernel.arrays["X"].copy(), rec.kernel.arrays["V"].copy()


def every_joint_kind():
    """A spatial chain of every joint kind in motion: a soft beam of 4 elements on a spherical
    joint, below its end rigid bodies (0.3 kg) on a universal, a cylindrical, a driven
    revolute, a prismatic, a revolute and a free joint with a spring effort, a sideways
    force of 15 rad/s on the beam, under gravity (rates above 1 rad/s within 1 s)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    b = m.add_beam(0.8, 4, E=5e7, rho=1000.0, A=1e-3, I=(2e-8, 3e-8), J=4e-8, G=2e7,
                   direction=(1.0, 0.0, -1.0), up=(0.0, 1.0, 0.0))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    parent, below = b.end, b.positions[-1]
    axis = (0.0, 0.6, 0.8)
    joints = [("universal", dict(axes=((1, 0, 0), (0, 1, 0)))), ("cylindrical", dict(axis=axis)),
              ("revolute", dict(axis=axis, drive=lambda t: (np.sin(t), np.cos(t), -np.sin(t)))),
              ("prismatic", dict(axis=axis)), ("revolute", dict(axis=axis)),
              ("free", dict(effort=lambda t, q, qd: -10.0 * q))]
    for kind, options in joints:
        body = m.add_rigid_body(0.3, np.diag([1e-3, 2e-3, 3e-3]), position=below - (0, 0, 0.1))
        m.add_joint(kind, parent, body.point(0.0, 0.0, 0.1), **options)
        parent, below = body.point(0.0, 0.0, -0.1), below - (0, 0, 0.2)
    m.add_force(b.node(2), force=lambda t: (0.0, 2.0 * np.sin(15.0 * t), 0.0))
    return m


class RigidPendulum(IndexThreeDAE):
    """Point mass m on a massless rod of length L pinned at the origin: q = (x, y)."""

    n_coordinates, n_constraints = 2, 1

    def __init__(self, m=1.0, L=1.0, g=9.81, linear_solver="dense"):
        self.m, self.L, self.g, self.linear_solver = m, L, g, linear_solver

    def mass(self, q):
        return self.m * np.eye(2)

    def force(self, q, v, t):
        return np.array([0.0, -self.m * self.g])

    def constraint(self, q, t):
        return np.array([0.5 * (q @ q - self.L ** 2)])

    def constraint_jacobian(self, q, t):
        return q[None, :].copy()

    def constraint_curvature(self, q, lam, t):
        return lam[0] * np.eye(2)

    def acceleration_bias(self, q, v, t):
        return np.array([v @ v])

    def reference(self, t, phi0):
        sol = solve_ivp(lambda _, y: [y[1], -self.g / self.L * np.cos(y[0])], (0, t), [phi0, 0.0],
                        method="DOP853", rtol=1e-12, atol=1e-12)
        phi = sol.y[0, -1]
        return self.L * np.array([np.cos(phi), np.sin(phi)])


def static_jacobian(problem, q, step=1e-6):
    """The static residual's Jacobian at the link coordinates q of a spatial statics problem
    (``spatial.implicit_problem(f, static=True)``), by central differences of step ``step``:
    the independent value the direct matrix and its pivots are checked against."""
    z = np.zeros(len(q))
    return np.column_stack([(problem.residual(q + step * e, z, 0.0, z, 0.0, 1.0)
                             - problem.residual(q - step * e, z, 0.0, z, 0.0, 1.0)) / (2.0 * step)
                            for e in np.eye(len(q))])
