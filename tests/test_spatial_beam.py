"""The spatial SE(3)-strain beam element and the SO(3) functions of its kernels, against
independent computations: SciPy's rotations, high-precision evaluation of the closed forms
(mpmath), central differences of the exponential, of the energy and of the force, dense
inverses, analytic poses (a circular arc, pure stretch and torsion) and the Timoshenko
cantilever."""
import mpmath
import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from rancf.elements import _spatial_beam as kernels
from rancf.elements import spatial_beam as sb

#: Angles of rotation vectors that test every branch: zero, tiny, the series/closed-form switch
#: (0.25, SMALL of _rotation.pxd; 0.1 its former value), moderate, near pi.
ANGLES = [0.0, 1e-12, 1e-7, 1e-3, 0.05, 0.1 - 1e-12, 0.1, 0.1 + 1e-12, 0.2, 0.25 - 1e-12, 0.25,
          0.25 + 1e-12, 0.5, 1.0, 2.0, 3.0, np.pi - 1e-6, np.pi - 1e-9]


def unit(rng):
    v = rng.standard_normal(3)
    return v / np.linalg.norm(v)


def vectors(seed, n=5):
    """Rotation vectors with the angles of ANGLES, each along n random axes."""
    rng = np.random.default_rng(seed)
    return [a * unit(rng) for a in ANGLES for _ in range(n)]


def expm(p):
    R = np.empty(9)
    kernels.rotation_exp(np.ascontiguousarray(p, dtype=float), R)
    return R.reshape(3, 3)


def logm(R):
    p = np.empty(3)
    kernels.rotation_log(np.ascontiguousarray(R, dtype=float).ravel(), p)
    return p


def left_jacobian(p):
    J = np.empty(9)
    kernels.rotation_left_jacobian(np.ascontiguousarray(p, dtype=float), J)
    return J.reshape(3, 3)


def left_jacobian_inverse(p):
    J = np.empty(9)
    kernels.rotation_left_jacobian_inverse(np.ascontiguousarray(p, dtype=float), J)
    return J.reshape(3, 3)


def left_jacobian_rate(p, pd):
    J = np.empty(9)
    kernels.rotation_left_jacobian_rate(np.ascontiguousarray(p, dtype=float),
                                        np.ascontiguousarray(pd, dtype=float), J)
    return J.reshape(3, 3)


def vee(W):
    """w of a skew matrix W = w^ (its skew part, so that round-off does not count twice)."""
    return 0.5 * np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]])


# ------------------------------------------------------------------ SO(3): _rotation.pxd

def test_exp_is_scipys_rotation():
    for p in vectors(1):
        R = expm(p)
        assert np.abs(R - Rotation.from_rotvec(p).as_matrix()).max() <= 4e-16 * 4
        assert np.abs(R.T @ R - np.eye(3)).max() <= 3e-15


def test_log_is_scipys_rotation_vector():
    for p in vectors(2):
        q = logm(Rotation.from_rotvec(p).as_matrix())
        assert np.abs(q - p).max() <= 2e-15 * max(1.0, np.linalg.norm(p))


def test_log_at_pi_gives_the_rotation():
    # at a half turn p and -p are the same rotation: either is right, of norm pi
    rng = np.random.default_rng(3)
    for _ in range(10):
        n = unit(rng)
        R = Rotation.from_rotvec(np.pi * n).as_matrix()
        q = logm(R)
        assert abs(np.linalg.norm(q) - np.pi) <= 1e-14
        assert np.abs(Rotation.from_rotvec(q).as_matrix() - R).max() <= 1e-14
    assert np.array_equal(logm(np.eye(3)), np.zeros(3))


def test_left_jacobian_is_angular_velocity_of_exp():
    # R(t) = exp(p(t)^), p(t) = p + t v: the spatial angular velocity R' R^T = (J_l(p) v)^
    rng = np.random.default_rng(4)
    h = 1e-6
    for p in vectors(5, 2):
        if np.linalg.norm(p) > np.pi - 1e-3:
            continue        # the central difference would cross the log's branch cut: not used
        v = rng.standard_normal(3)
        Rd = (Rotation.from_rotvec(p + h * v).as_matrix()
              - Rotation.from_rotvec(p - h * v).as_matrix()) / (2 * h)
        w = vee(Rd @ Rotation.from_rotvec(p).as_matrix().T)
        assert np.abs(left_jacobian(p) @ v - w).max() <= 1e-9 * np.linalg.norm(v)


def test_left_jacobian_rate_is_derivative_of_left_jacobian():
    rng = np.random.default_rng(6)
    h = 1e-6
    for p in vectors(7, 2):
        pd = rng.standard_normal(3)
        fd = (left_jacobian(p + h * pd) - left_jacobian(p - h * pd)) / (2 * h)
        assert np.abs(left_jacobian_rate(p, pd) - fd).max() <= 1e-9 * np.linalg.norm(pd)


def test_left_jacobian_gradient_is_derivative_of_left_jacobian_times_a_vector():
    # d(J_l(p) x)/dp and d(J_l(p)^T x)/dp, column k against central differences along e_k of
    # left_jacobian (scipy-checked above), at every angle of ANGLES and at and beyond pi (a
    # rotation vector in statics' chart may pass pi before it is re-centred)
    rng = np.random.default_rng(61)
    h = 1e-6
    beyond = [a * unit(rng) for a in (np.pi, np.pi + 1e-6, 4.0, 6.2) for _ in range(2)]
    for p in vectors(62, 2) + beyond:
        x = rng.standard_normal(3)
        for sign, J in ((1.0, left_jacobian), (-1.0, lambda p: left_jacobian(p).T)):
            G = np.empty(9)
            kernels.rotation_left_jacobian_gradient(np.ascontiguousarray(p), x, sign, G)
            fd = np.column_stack([(J(p + h * e) @ x - J(p - h * e) @ x) / (2 * h)
                                  for e in np.eye(3)])
            assert np.abs(G.reshape(3, 3) - fd).max() <= 1e-9 * np.linalg.norm(x)


def test_left_jacobian_inverse_is_dense_inverse():
    # |p| < pi: J_l is invertible (singular only at 2 pi)
    for p in vectors(8):
        J = left_jacobian(p)
        Ji = left_jacobian_inverse(p)
        scale = np.linalg.cond(J)
        assert np.abs(Ji - np.linalg.inv(J)).max() <= 1e-15 * scale * np.abs(Ji).max() * 4
        assert np.abs(Ji @ J - np.eye(3)).max() <= 1e-15 * scale * 4


def closed_forms(a):
    """The coefficients of _rotation.pxd at the angle a, their closed forms evaluated with 30
    digits more than they cancel (e3's terms are 8 / a^6 for a result near 1/3780)."""
    mpmath.mp.dps = 30 + int(max(0.0, -6.0 * np.log10(a))) + 4
    a = mpmath.mpf(a)
    s, c, t = mpmath.sin(a), mpmath.cos(a), mpmath.cot(a / 2)
    u = 1 + t * t
    return {
        "s1": s / a, "c1": (1 - c) / a**2, "c2": (a - s) / a**3,
        "d1": (a * s - 2 * (1 - c)) / a**4, "d2": (1 - c) / a**4 - 3 * (a - s) / a**5,
        "c3": 1 / a**2 - t / (2 * a),
        "d3": -2 / a**4 + t / (2 * a**3) + u / (4 * a**2),
        "e3": 8 / a**6 - 3 * t / (2 * a**5) - 3 * u / (4 * a**4) - t * u / (4 * a**3),
    }


@pytest.mark.parametrize("a", [1e-6, 1e-3, 0.05, 0.1 - 1e-12, 0.1 + 1e-12, 0.2, 0.25 - 1e-12,
                               0.25 + 1e-12, 0.5, 1.0, 2.0, 3.0, np.pi - 1e-6])
def test_series_and_closed_forms_are_the_coefficients(a):
    # the series below the switch and the closed forms above it, against a high-precision
    # evaluation, to the accuracy _rotation.pxd states (the closed forms cancel most just above
    # the switch, at 0.25)
    s1, c1, c2, d1, d2 = kernels.rotation_coefficients(a)
    c3, d3, e3 = kernels.rotation_inverse_coefficients(a)
    ref = closed_forms(a)
    got = dict(s1=s1, c1=c1, c2=c2, d1=d1, d2=d2, c3=c3, d3=d3, e3=e3)
    tol = dict(s1=4e-16, c1=4e-16, c2=1e-14, d1=1e-13, d2=5e-12, c3=1e-13, d3=5e-11, e3=5e-8)
    for name, value in got.items():
        exact = float(ref[name])
        assert abs(value - exact) <= tol[name] * abs(exact), (name, value, exact)


# ------------------------------------------------------------------ the element

def curved_element(rng, l=0.3):
    """A random reference pose (s, Q), with its length and strains."""
    s = l * (np.array([1.0, 0.0, 0.0]) + 0.2 * rng.standard_normal(3))
    Q = Rotation.from_rotvec(0.4 * rng.standard_normal(3)).as_matrix()
    l, strain0 = sb.reference_strain(s, Q)
    return s, Q, l, strain0


def central_differences(f, e, h=1e-6):
    """Columns d f / d e_j (f scalar or vector) by central differences."""
    return np.array([(np.asarray(f(e + h * u)) - np.asarray(f(e - h * u))) / (2 * h)
                     for u in np.eye(e.size)]).T


def strains(s, Q, e, l):
    """eps(e) through the kernel's section forces with C = 1, eps0 = 0, no damping."""
    return sb.element_force(s, Q, e, np.zeros(6), l, np.ones(6), np.zeros(6))[2]


def deformations(rng):
    """Element coordinates from small to large: rotation psi in every range of the kernels."""
    out = []
    for scale in (0.0, 1e-3, 0.05, 0.3, 1.0):
        out.append(np.concatenate([0.1 * rng.standard_normal(3), scale * unit(rng)]))
    return out


def test_force_is_minus_gradient_of_energy():
    rng = np.random.default_rng(10)
    for _ in range(4):
        s, Q, l, strain0 = curved_element(rng)
        C = rng.uniform(0.5, 2.0, 6)
        eps0 = strain0 + 0.2 * rng.standard_normal(6)      # prestrained: f != 0 at e = 0
        for e in deformations(rng):
            f, K, sigma = sb.element_force(s, Q, e, np.zeros(6), l, C, eps0)
            fd = central_differences(lambda x: sb.element_energy(s, Q, x, l, C, eps0), e)
            assert np.abs(f + fd).max() <= 1e-8 * np.abs(f).max()


def test_tangent_is_hessian_of_energy():
    rng = np.random.default_rng(11)
    for _ in range(4):
        s, Q, l, strain0 = curved_element(rng)
        C = rng.uniform(0.5, 2.0, 6)
        eps0 = strain0 + 0.2 * rng.standard_normal(6)
        for e in deformations(rng):
            f, K, sigma = sb.element_force(s, Q, e, np.zeros(6), l, C, eps0)
            fd = -central_differences(
                lambda x: sb.element_force(s, Q, x, np.zeros(6), l, C, eps0)[0], e)
            assert np.abs(K - fd).max() <= 1e-7 * np.abs(K).max()
            assert np.array_equal(K, K.T)     # symmetrized in the kernel


def test_tangent_with_physical_stiffness():
    # a steel section of 2 x 1 cm (C spans 8 decades) bent and twisted by a finite amount
    s, Q = np.array([0.1, 0.0, 0.0]), np.eye(3)
    l, eps0 = sb.reference_strain(s, Q)
    C = sb.section_stiffness(2.1e11, 8.1e10, 2e-4, 2e-4 * 1e-4 / 12, 2e-4 * 4e-4 / 12, 4.6e-9)
    e = np.array([1e-4, 2e-3, -1e-3, 0.05, -0.1, 0.2])
    f, K, sigma = sb.element_force(s, Q, e, np.zeros(6), l, C, eps0)
    fd = -central_differences(lambda x: sb.element_force(s, Q, x, np.zeros(6), l, C, eps0)[0],
                              e, h=1e-5)
    # each column to its own scale: the blocks differ by the ratio of EA to EI
    for j in range(6):
        assert np.abs(K[:, j] - fd[:, j]).max() <= 1e-8 * np.abs(K[:, j]).max()


def test_reference_is_stress_free():
    rng = np.random.default_rng(12)
    refs = [(np.array([0.7, 0.0, 0.0]), np.eye(3))] + [curved_element(rng)[:2] for _ in range(4)]
    for s, Q in refs:
        l, strain0 = sb.reference_strain(s, Q)
        C = np.array([1e7, 4e6, 4e6, 50.0, 80.0, 90.0])
        f, K, sigma = sb.element_force(s, Q, np.zeros(6), np.zeros(6), l, C, strain0)
        assert np.abs(f).max() <= 1e-15 * C.max()
        assert np.abs(sigma).max() <= 1e-15 * C.max()
        assert sb.element_energy(s, Q, np.zeros(6), l, C, strain0) <= 1e-30 * C.max()
    l, strain0 = sb.reference_strain([0.7, 0.0, 0.0], np.eye(3))
    assert l == 0.7 and np.array_equal(strain0, [1.0, 0, 0, 0, 0, 0])


def arc(radius, angle, roll):
    """The end pose of a circular arc of the given radius (m) and angle (rad) leaving the origin
    along x and bending about the axis b = (0, -sin roll, cos roll) (the arc's normal n = b x x):
    its relative position and orientation (the frame carried along the arc)."""
    x = np.array([1.0, 0.0, 0.0])
    b = np.array([0.0, -np.sin(roll), np.cos(roll)])
    n = np.cross(b, x)
    s = radius * (np.sin(angle) * x + 2.0 * np.sin(0.5 * angle)**2 * n)
    Q = Rotation.from_rotvec(angle * b).as_matrix()
    return s, Q, b


@pytest.mark.parametrize("radius, angle, roll", [(2.0, 0.1, 0.0), (0.5, 0.6, 0.7),
                                                 (1.0, 2.5, -2.0), (3.0, 1e-4, 1.0)])
def test_arc_has_exact_constant_strain(radius, angle, roll):
    s, Q, b = arc(radius, angle, roll)
    # its own reference: the arc length and curvature
    l, strain0 = sb.reference_strain(s, Q)
    assert abs(l - radius * angle) <= 1e-15 * 4 * radius * angle
    assert np.abs(strain0[:3] - [1.0, 0.0, 0.0]).max() <= 1e-15 * 4
    assert np.abs(strain0[3:] - b / radius).max() <= 1e-15 * 4 / radius
    # a straight element of the same length bent into the arc: no axial or shear strain
    # (no membrane locking), the arc's bending strain
    s0 = np.array([l, 0.0, 0.0])
    e = np.concatenate([s - s0, Rotation.from_matrix(Q).as_rotvec()])
    eps = strains(s0, np.eye(3), e, l)
    assert np.abs(eps[:3] - [1.0, 0.0, 0.0]).max() <= 1e-15 * 8
    assert np.abs(eps[3:] - b / radius).max() <= 1e-15 * 8 / radius


def test_energy_depends_on_relative_pose_only():
    # element coordinates from absolute node frames: u = A0^T (r1 - r0) - s,
    # psi = log(A0^T A1 Q^T); a rigid motion of both nodes leaves the energy unchanged
    rng = np.random.default_rng(13)
    s, Q, l, strain0 = curved_element(rng)
    C = rng.uniform(0.5, 2.0, 6)
    A0 = Rotation.from_rotvec(rng.standard_normal(3)).as_matrix()
    r0 = rng.standard_normal(3)
    e_true = np.concatenate([0.05 * rng.standard_normal(3), 0.3 * unit(rng)])
    A1 = A0 @ Rotation.from_rotvec(e_true[3:]).as_matrix() @ Q
    r1 = r0 + A0 @ (s + e_true[:3])

    def energy(A0, r0, A1, r1):
        u = A0.T @ (r1 - r0) - s
        psi = Rotation.from_matrix(A0.T @ A1 @ Q.T).as_rotvec()
        return sb.element_energy(s, Q, np.concatenate([u, psi]), l, C, strain0)

    U = energy(A0, r0, A1, r1)
    assert U > 1e-3
    for _ in range(5):
        T = Rotation.from_rotvec(3.0 * rng.standard_normal(3)).as_matrix()
        b = 10.0 * rng.standard_normal(3)
        assert abs(energy(T @ A0, T @ r0 + b, T @ A1, T @ r1 + b) - U) <= 1e-13 * U


def test_strain_reverses_with_the_element():
    # read from its other end the element's pose is the inverse, whose SE(3) log is minus the
    # log: strains change sign, the energy is the same (a check of J_l^-1 in gamma)
    rng = np.random.default_rng(14)
    for _ in range(5):
        s, Q, l, strain0 = curved_element(rng)
        C = rng.uniform(0.5, 2.0, 6)
        e = np.concatenate([0.05 * rng.standard_normal(3), 0.5 * unit(rng)])
        R = Rotation.from_rotvec(e[3:]).as_matrix() @ Q
        d = s + e[:3]
        s_back, Q_back = -Q.T @ s, Q.T
        l_back, strain0_back = sb.reference_strain(s_back, Q_back)
        e_back = np.concatenate([-R.T @ d - s_back, Rotation.from_matrix(R.T @ Q).as_rotvec()])
        assert abs(l_back - l) <= 1e-15 * 4 * l
        assert np.abs(strain0_back + strain0).max() <= 1e-14 * np.abs(strain0).max()
        assert np.abs(strains(s_back, Q_back, e_back, l) + strains(s, Q, e, l)).max() <= 1e-14 * 4
        U = sb.element_energy(s, Q, e, l, C, strain0)
        assert abs(sb.element_energy(s_back, Q_back, e_back, l, C, strain0_back) - U) <= 1e-13 * U


EA, GAy, GAz, GJ, EIy, EIz = 3e7, 1e7, 1.2e7, 400.0, 600.0, 900.0


def test_small_deformation_stiffness_is_timoshenko():
    # DESIGN.md 7's cantilevered element, clamped at its first node: flexibility l/EA axially,
    # l/GJ in torsion, [[l^3/(3 EI_z) + l/(k_y G A), l^2/(2 EI_z)], [., l/EI_z]] for (u_y, psi_z)
    # and the same with the coupling's sign flipped for (u_z, psi_y). The SE(3) element has
    # constant curvature: linearized, gamma_y = u_y / l - psi_z / 2 and kappa_z = psi_z / l, so
    # a tip force deflects it by l^3/(4 EI) + l/(kGA) (tip rotation and the response to a tip
    # moment are the cantilever's): it agrees to first order in l, and differs by l^3/(12 EI)
    # in the deflection, which a mesh converges at second order (next test).
    l = 0.2
    C = np.array([EA, GAy, GAz, GJ, EIy, EIz])
    s, Q = np.array([l, 0.0, 0.0]), np.eye(3)
    l, eps0 = sb.reference_strain(s, Q)
    f, K, sigma = sb.element_force(s, Q, np.zeros(6), np.zeros(6), l, C, eps0)
    F = np.zeros((6, 6))
    F[0, 0], F[3, 3] = l / EA, l / GJ
    F[np.ix_([1, 5], [1, 5])] = [[l**3 / (3 * EIz) + l / GAy, l**2 / (2 * EIz)],
                                 [l**2 / (2 * EIz), l / EIz]]
    F[np.ix_([2, 4], [2, 4])] = [[l**3 / (3 * EIy) + l / GAz, -l**2 / (2 * EIy)],
                                 [-l**2 / (2 * EIy), l / EIy]]
    difference = np.zeros((6, 6))
    difference[1, 1], difference[2, 2] = l**3 / (12 * EIz), l**3 / (12 * EIy)
    flexibility = np.linalg.inv(K)
    assert np.abs(flexibility - (F - difference)).max() <= 1e-12 * np.abs(F).max()


@pytest.mark.parametrize("direction", [1, 2])
def test_cantilever_mesh_converges_to_timoshenko(direction):
    # a straight cantilever of n elements under a tip force, linear statics in relative
    # coordinates: element k's coordinates move nodes k..n rigidly, so the force on them is the
    # tip force and its moment about node k, each element's K (block diagonal) gives its
    # deformation, and the tip deflection sums them; the analytic tip deflection
    # P L^3 / (3 EI) + P L / (kGA), approached at second order
    L = 1.0
    EI, GA = (EIz, GAy) if direction == 1 else (EIy, GAz)
    C = np.array([EA, GAy, GAz, GJ, EIy, EIz])
    P = np.zeros(3)
    P[direction] = 1.0
    exact = L**3 / (3 * EI) + L / GA
    errors = []
    for n in (4, 8, 16):
        l = L / n
        s = np.array([l, 0.0, 0.0])
        l, eps0 = sb.reference_strain(s, np.eye(3))
        K = sb.element_force(s, np.eye(3), np.zeros(6), np.zeros(6), l, C, eps0)[1]
        tip = 0.0
        for k in range(1, n + 1):
            arm = np.array([L - k * l, 0.0, 0.0])
            e = np.linalg.solve(K, np.concatenate([P, np.cross(arm, P)]))
            tip += (e[:3] + np.cross(e[3:], arm))[direction]
        errors.append(abs(tip - exact) / exact)
    # the error is that of the bending deflection, L^3 / (12 EI n^2), below 1 / (4 n^2)
    assert errors[-1] <= 1.0 / (4 * 16**2)
    assert 3.8 <= errors[0] / errors[1] <= 4.2 and 3.8 <= errors[1] / errors[2] <= 4.2


def test_section_forces_of_stretch_and_torsion():
    l = 0.4
    s, Q = np.array([l, 0.0, 0.0]), np.eye(3)
    C = np.array([EA, GAy, GAz, GJ, EIy, EIz])
    l, eps0 = sb.reference_strain(s, Q)
    # pure stretch by delta: N = EA delta / l, the force on u_x is -N
    delta = 1e-3
    f, K, sigma = sb.element_force(s, Q, [delta, 0, 0, 0, 0, 0], np.zeros(6), l, C, eps0)
    assert np.abs(sigma - [EA * delta / l, 0, 0, 0, 0, 0]).max() <= 1e-15 * 4 * EA
    assert np.abs(f - [-EA * delta / l, 0, 0, 0, 0, 0]).max() <= 1e-15 * 4 * EA
    # pure (finite) torsion by phi: T = GJ phi / l, no axial or shear force
    phi = 0.8
    f, K, sigma = sb.element_force(s, Q, [0, 0, 0, phi, 0, 0], np.zeros(6), l, C, eps0)
    assert np.abs(sigma - [0, 0, 0, GJ * phi / l, 0, 0]).max() <= 1e-15 * 4 * EA
    assert np.abs(f - [0, 0, 0, -GJ * phi / l, 0, 0]).max() <= 1e-15 * 4 * EA


def test_damping_is_kelvin_voigt_on_strain_rates():
    # f_damp = -l B^T C c B ed, sigma_damp = C c B ed and D = c l B^T C B with
    # B = d eps / d e from central differences of the strains
    rng = np.random.default_rng(15)
    c = 0.03
    for _ in range(4):
        s, Q, l, strain0 = curved_element(rng)
        C = rng.uniform(0.5, 2.0, 6)
        e = np.concatenate([0.05 * rng.standard_normal(3), 0.5 * unit(rng)])
        ed = rng.standard_normal(6)
        B = central_differences(lambda x: strains(s, Q, x, l), e)
        f0, _, sigma0 = sb.element_force(s, Q, e, np.zeros(6), l, C, strain0, c)
        f, _, sigma = sb.element_force(s, Q, e, ed, l, C, strain0, c)
        expected = -l * B.T @ (C * c * (B @ ed))
        assert np.abs(f - f0 - expected).max() <= 1e-8 * np.abs(expected).max()
        assert np.abs(sigma - sigma0 - C * c * (B @ ed)).max() <= 1e-8 * np.abs(sigma - sigma0).max()
        D = sb.damping_matrix(s, Q, e, l, C, c)
        assert np.abs(D - c * l * B.T @ np.diag(C) @ B).max() <= 1e-8 * np.abs(D).max()


def test_node_inertia_is_half_of_each_element():
    rho, A, Iy, Iz = 7800.0, 2e-4, 1.6e-9, 6.6e-9
    m, J = sb.node_inertia(rho, A, Iy, Iz, 0.3, 0.1)
    assert m == pytest.approx(rho * A * 0.2, rel=1e-15)
    assert np.allclose(J, rho * 0.2 * np.diag([Iy + Iz, Iy, Iz]), rtol=1e-15, atol=0.0)
    m_end, _ = sb.node_inertia(rho, A, Iy, Iz, 0.0, 0.3)
    assert m_end == pytest.approx(rho * A * 0.15, rel=1e-15)


def test_element_kind_states_its_sizes():
    kind = sb.SpatialBeam()
    assert (kind.node_size, kind.nodes_per_element, kind.element_size, kind.dimension) == \
        (6, 2, 6, 3)


@pytest.mark.parametrize("call, name", [
    (lambda: sb.element_force([1, 0, 0], np.eye(3), [0, 0, 0, 3.2, 0, 0], np.zeros(6), 1.0,
                              np.ones(6), np.zeros(6)), "psi"),
    (lambda: sb.element_force([1, 0, 0], np.diag([1.0, 1.0, -1.0]), np.zeros(6), np.zeros(6),
                              1.0, np.ones(6), np.zeros(6)), "Q"),
    (lambda: sb.element_force([1, 0, 0], np.eye(3), np.zeros(6), np.zeros(6), -1.0, np.ones(6),
                              np.zeros(6)), "l"),
    (lambda: sb.element_force([1, 0, 0], np.eye(3), np.zeros(6), np.zeros(6), 1.0,
                              -np.ones(6), np.zeros(6)), "C"),
    (lambda: sb.element_force([1, 0, 0], np.eye(3), np.zeros(6), np.zeros(6), 1.0, np.ones(6),
                              np.zeros(6), c=-1.0), "c"),
    (lambda: sb.reference_strain([0, 0, 0], np.eye(3)), "s"),
    (lambda: sb.node_inertia(1.0, 1.0, 1.0, 1.0, 0.0, 0.0), "l_left"),
    (lambda: sb.section_stiffness(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, kappa=(0.0, 1.0)), "kappa"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()
