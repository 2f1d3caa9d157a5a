"""A cable drawn curved whose stress-free shape is straight (``add_beam(...,
element="ancf-cable", points=..., tangents=..., rest="straight")``, issue 23): no rest
curvature, every element's rest length its drawn arc length. References: the bending energy
of a circular arc (``EI L / (2 R^2)``), a straight cable's zero energy, the section moment
``EI / R``, the inextensible catenary, and the same cable stress-free as drawn."""
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import brentq

import rancf

RHO_A, EA, A = 1.0, 1e7, 1e-4


def cable(m, points, tangents, EI, rest, EA=EA):
    """An ANCF cable through the points with the unit tangents, ``rho A = 1`` kg/m."""
    return m.add_beam(n_elements=len(points) - 1, E=EA / A, rho=RHO_A / A, A=A, I=EI * A / EA,
                      points=points, tangents=tangents, element="ancf-cable", rest=rest)


def arc(n, turn=1.0, radius=1.0):
    """Nodes and unit tangents of a circular arc in the x-z plane from the origin, along +x
    there, turning downwards by ``turn`` (rad)."""
    a = np.linspace(0.0, turn, n + 1)
    P = np.column_stack([radius * np.sin(a), 0 * a, radius * (np.cos(a) - 1.0)])
    T = np.column_stack([np.cos(a), 0 * a, -np.sin(a)])
    return P, T


def pinned_arc(n, rest, EI=1e-3):
    """The arc on a spherical joint at the origin, no gravity: a tree (the recursion runs it)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
    c = cable(m, *arc(n), EI, rest, EA=1e5)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return m, c


def elastic_energies(m):
    """The elastic energy at t = 0 of the recursion's and the spatial DAE's runs (J)."""
    return [rancf.simulate(m, 1e-4, 1e-4, method="newmark", formulation=f,
                           output_every=1).energy().elastic.iloc[0]
            for f in ("recursive", "dae")]


@pytest.mark.parametrize("n, bound", [(8, 2e-5), (16, 2e-7)])
def test_an_arc_with_a_straight_rest_shape_stores_its_bending_energy(n, bound):
    """An arc of radius 1 m turning 1 rad drawn with ``rest="straight"``: the strain energy
    at the drawn state is the bending energy ``EI L / (2 R^2)`` (L the cable's length, the
    elements' arc lengths) in both formulations (equal to 1e-15 of it: the same kernel on
    the same coordinates); relative error bounds from the cubic interpolation of a circle,
    whose curvature errs at the fourth power of the element's turn ``1 / n`` (1/8: 2.4e-4,
    1/16: 1.5e-5, times the coefficient below 0.1 a Hermite arc has; measured 6.9e-6 and
    8.7e-8, with the axial share of ``|r'|`` varying along an element). Drawn with
    ``rest="drawn"`` the same arc stores nothing. The section moment at the element
    midpoints is ``EI / R`` (the rest curvature zero) within 1e-3: the moment is of lower
    order than the position, its error of order of the element's turn squared, ``(1/8)^2 /
    16`` at 8 elements (measured 6.5e-4 at 8, the bound kept at 16)."""
    EI = 1e-3
    m, c = pinned_arc(n, "straight", EI)
    exact = EI * c.length / 2.0
    rec, dae = elastic_energies(m)
    assert abs(rec - dae) <= 1e-15 * exact
    assert abs(rec - exact) <= bound * exact
    m0, _ = pinned_arc(n, "drawn", EI)
    assert max(abs(u) for u in elastic_energies(m0)) <= 1e-20
    res = rancf.simulate(m, 1e-4, 1e-4, method="newmark", output_every=1)
    moments = np.linalg.norm(res.internal_forces(c)[0][:, 1:], axis=1)
    np.testing.assert_allclose(moments, EI, rtol=1e-3)


def test_a_straight_cable_drawn_by_points_with_a_straight_rest_stores_nothing():
    """A straight cable drawn by points (unequal elements) with ``rest="straight"`` or
    ``"drawn"`` stores no strain energy (to round-off), and one drawn with equal elements
    builds the straight cable's arrays (rest states zero, lengths equal to 1e-15)."""
    s = np.array([0.0, 0.1, 0.35, 0.5, 0.8, 1.0])
    d = np.array([1.0, 2.0, -2.0]) / 3.0
    for rest in ("straight", "drawn"):
        m = rancf.Model(dim=3, gravity=(0.0, 0.0, 0.0))
        c = cable(m, s[:, None] * d, np.tile(d, (len(s), 1)), 1e-3, rest)
        m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
        assert max(abs(u) for u in elastic_energies(m)) <= 1e-20
    m = rancf.Model(dim=3)
    s = np.linspace(0.0, 1.0, 5)
    drawn = cable(m, s[:, None] * d, np.tile(d, (len(s), 1)), 1e-3, "straight")
    built = m.add_beam(1.0, 4, E=EA / A, rho=RHO_A / A, A=A, I=1e-3 * A / EA, direction=d,
                       element="ancf-cable")
    np.testing.assert_allclose(drawn.element_lengths(), built.element_lengths(), rtol=1e-15)
    assert not drawn.rest_state().any() and not built.rest_state().any()
    assert drawn.curved and not drawn.curved_rest


def slack_cable(n, rest, EI, EA=EA):
    """A cable of about 2 m between two pins 1.6 m apart at one height, drawn as the
    parabola of that arc length (not the catenary it hangs in), gravity 9.81 along -z."""
    D = 1.6

    def length(h):
        x = np.linspace(0.0, D, 4001)
        return np.sum(np.hypot(np.diff(x), np.diff(-h * (1.0 - (2.0 * x / D - 1.0) ** 2))))

    h = brentq(lambda h: length(h) - 2.0, 1e-3, 2.0)
    x = np.linspace(0.0, D, n + 1)
    P = np.column_stack([x, 0 * x, -h * (1.0 - (2.0 * x / D - 1.0) ** 2)])
    T = np.column_stack([np.ones_like(x), 0 * x, 4.0 * h / D * (2.0 * x / D - 1.0)])
    T /= np.linalg.norm(T, axis=1)[:, None]
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = cable(m, P, T, EI, rest, EA)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(D, 0, 0), c.end)
    return m, c, D


def catenary_sag(length, span):
    """The sag of the inextensible catenary of ``length`` between two points at one height
    ``span`` apart: ``a (cosh(span / 2a) - 1)`` with ``2 a sinh(span / 2a) = length``."""
    a = brentq(lambda a: 2.0 * a * np.sinh(span / (2.0 * a)) - length, 0.05, 100.0)
    return a * (np.cosh(span / (2.0 * a)) - 1.0)


def test_a_slack_cable_with_a_straight_rest_shape_hangs_in_the_catenary():
    """The slack cable (16 elements, EI = 1e-4 N m^2, EA = 1e7 N) drawn as a parabola with a
    straight rest shape: its statics (the spatial DAE: two pins close a loop) sags at
    mid-span by the inextensible catenary's sag of its length within 3e-5 m, the sum of
    estimates made before measuring: its stretch (tension about 9 N: 1e-6 of the length,
    2e-6 m of sag), its bending (``EI / (T a)``: 2e-5 m) and the mesh (the 8-element error
    over 16 at second order: 4e-6 m); measured 1.3e-6 m. The same cable stress-free as drawn
    (its rest curvature's energy, ``EI k0^2 L / 2`` below 1e-3 J against a gravity work of
    order 1 J, negligible) sags by the same within 3e-5 m (measured 1.2e-5 m: its rest
    axial strains, those of the cubic's varying ``|r'|``, converge away with the mesh); at 8
    elements rancf.static refuses it (a plane cable curved at rest, unstable out of its
    plane where it is bent less than drawn), which the straight rest shape does not meet."""
    m, c, D = slack_cable(16, "straight", 1e-4)
    eq = rancf.static(m)
    assert eq.status == "ok" and eq.formulation == "dae"
    sag = catenary_sag(c.length, D)
    z = eq.position(c.node(8))[0]
    assert abs(z[0] - D / 2) <= 1e-12 and abs(z[2] + sag) <= 3e-5
    m_drawn, c_drawn, _ = slack_cable(16, "drawn", 1e-4)
    eq_drawn = rancf.static(m_drawn)
    assert eq_drawn.status == "ok"
    assert abs(eq_drawn.position(c_drawn.node(8))[0][2] - z[2]) <= 3e-5
    m8, c8, _ = slack_cable(8, "straight", 1e-4)
    assert rancf.static(m8).status == "ok"
    with pytest.raises(ValueError, match="plane curved cable"):
        rancf.static(slack_cable(8, "drawn", 1e-4)[0])


@pytest.mark.parametrize("n, EI, EA_, load_steps, bound", [
    (32, 1e-4, 1e7, 1, 3e-5), (32, 1e-4, 1e7, 10, 3e-5), (64, 1e-6, 1e9, 10, 1e-6)])
def test_a_fine_slack_cable_with_a_straight_rest_shape_reaches_the_catenary(
        n, EI, EA_, load_steps, bound):
    """The slack cable drawn as a parabola with a straight rest shape, finer than plain
    Newton reaches (at 32 elements its first load step did not contract, and in one load
    step it converged to a crumpled equilibrium near z = 0): statics sags at mid-span by the
    inextensible catenary's sag of its length within the sum of estimates stated before
    running: the stretch (tension about 9 N: ``9 / EA`` of the length, 2e-6 m of sag at EA
    = 1e7, 2e-8 m at 1e9), the bending (``EI / (T a)``: 2e-5 m at EI = 1e-4, 2e-7 m at
    1e-6) and the mesh (4e-6 m at 16 elements, second order: 1e-6 m at 32, 2.5e-7 m at 64);
    3e-5 m and 1e-6 m (the latter twice the sum 4.7e-7)."""
    m, c, D = slack_cable(n, "straight", EI, EA_)
    eq = rancf.static(m, load_steps=load_steps)
    assert eq.status == "ok" and eq.formulation == "dae"
    z = eq.position(c.node(n // 2))[0]
    assert abs(z[0] - D / 2) <= 1e-12 and abs(z[1]) <= 1e-12
    assert abs(z[2] + catenary_sag(c.length, D)) <= bound


def hanging_cable(n, EA_=1e5, EI=1e-3):
    """The arc of :func:`arc` (1 m, turning 1 rad) drawn with a straight rest shape on a
    spherical joint at the origin under gravity 9.81 along -z: a tree."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = cable(m, *arc(n), EI, "straight", EA=EA_)
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    return m, c


#: EI (N m^2) of the cable :func:`started_upright` stands up: its weight's ``rho g L^3 / EI``
#: (0.98) far below the free-standing heavy column's buckling load (7.84 with a clamped
#: base), so that standing up it has one unstable mode in the plane, the inverted
#: pendulum's (omega^2 near the rigid rod's ``-3 g / (2 L)``, -14.7 1/s^2; measured -14.73),
#: the next stable (+2.3e3).
UPRIGHT_EI = 10.0


def started_upright(monkeypatch, EA_=1e5):
    """The arc on one pin (:func:`hanging_cable`, 16 elements, EI :data:`UPRIGHT_EI`), whose
    statics is started standing straight up: statics' ``_pseudo_transient_first_step``,
    called from the drawn arc (its start of the load steps), is given the cable along +z
    from the pin (nodes ``(0, 0, s)``, slopes ``(0, 0, 1)``) instead, its calls from
    elsewhere (the escapes) unchanged. Why: an unstable equilibrium statics reaches on every
    machine. That start is mirror symmetric about the z axis in the cable's plane, so its
    residual has no component along x but round-off and the continuation converges to the
    upright equilibrium, compressed by the weight (its x coordinates measured below 1e-22
    m): unstable in the plane and out of it by one mode each (the inverted pendulum's).
    From the drawn arc, the continuation's first steps amplify round-off about tenfold a
    step (measured: iterates of OpenBLAS's Haswell and SkylakeX kernels 1e-13 m apart after
    the first step, 1e-8 after 13, 1e-3 after 20, mu then below 1e-5 1/s^2), so whether it
    first reaches the cable folded back on itself (Haswell) or the hanging state (SkylakeX)
    is the BLAS kernels' choice. Returns the model and the cable."""
    from rancf.integrators import static as statics
    m, c = hanging_cable(16, EA_, UPRIGHT_EI)
    first, drawn = statics._pseudo_transient_first_step, arc(16)[0]

    def upright(dae, x, lam, *args, **kwargs):
        if np.abs(x.reshape(-1, 6)[:, :3] - drawn).max() <= 1e-12:
            x = np.zeros_like(x)
            x.reshape(-1, 6)[:, 2] = np.linspace(0.0, c.length, c.n_elements + 1)
            x.reshape(-1, 6)[:, 5] = 1.0
        return first(dae, x, lam, *args, **kwargs)

    monkeypatch.setattr(statics, "_pseudo_transient_first_step", upright)
    return m, c


@pytest.mark.parametrize("n, load_steps", [(4, 1), (4, 10), (4, 100), (16, 10)])
def test_a_cable_drawn_curved_on_one_pin_hangs_vertical(n, load_steps):
    """The arc on one pin, drawn curved with a straight rest shape, hangs straight down:
    statics (the spatial DAE: the recursion's Newton matrix leaves out gravity's stiffness
    of the swing, and before this it did not converge in 50 iterations; the DAE converged
    at 16 elements to the cable folded back on itself, an equilibrium unstable in the
    plane, which it now leaves) puts the tip at ``(0, 0, -(L + rho g L^2 / (2 EA)))``, the
    stretch under the tension ``rho g (L - s)``: 4.9e-5 m; the bound 1e-7 m is ten times
    the strain measure's second order ``eps^2 L`` (eps = 1e-4), the vertical cable having
    no curvature and its linear strain being the cubic's exactly. A run from
    ``state="static"`` on the recursion and on the DAE holds it: the tip moves by less
    than 1e-9 m in 10 ms (its residual at statics' tolerance)."""
    m, c = hanging_cable(n)
    eq = rancf.static(m, load_steps=load_steps)
    assert eq.status == "ok" and eq.formulation == "dae"
    tip = eq.position(c.end)[0]
    stretch = RHO_A * 9.81 * c.length ** 2 / (2.0 * 1e5)
    np.testing.assert_allclose(tip, [0.0, 0.0, -(c.length + stretch)], rtol=0, atol=1e-7)
    if load_steps == 10:
        for f in ("recursive", "dae"):
            run = rancf.simulate(m, 0.01, 1e-3, method="newmark", formulation=f,
                                 state="static", output_every=1)
            assert run.status == "ok"
            assert np.abs(run.position(c.end) - tip).max() <= 1e-9


def test_rest_is_checked():
    """``rest`` takes "drawn" or "straight"; an SE(3) beam takes "drawn" only; a planar
    model refuses it, naming the dimension."""
    P, T = arc(4)
    m = rancf.Model(dim=3)
    with pytest.raises(ValueError, match=r"rest must be one of \['drawn', 'straight'\], got "
                                         r"'slack'"):
        cable(m, P, T, 1e-3, "slack")
    with pytest.raises(ValueError, match=r"rest='straight' applies to element='ancf-cable'"):
        m.add_beam(n_elements=4, E=2e11, rho=7800.0, A=1e-4, I=(1e-9, 1e-9), J=2e-9, G=8e10,
                   points=P, tangents=T, rest="straight")
    with pytest.raises(ValueError, match="rest"):
        rancf.Model().add_beam(1.0, 4, E=2e11, rho=7800.0, A=1e-4, I=1e-9, rest="straight")


@pytest.mark.parametrize("case", ["catenary", "hanging", "upright"])
def test_statics_counts_the_continuations_newton_iterations(case, monkeypatch):
    """``stats["newton_iterations"]`` (and ``njev``, ``nlu``: full Newton, a factorization an
    iteration) of statics that starts a slack cable by pseudo-transient continuation counts
    every Newton iteration it made: the continuation's steps, the fold escape's, a first try
    of plain Newton that failed, and the load steps'. The independent count: every call of
    the loop's ``advance`` seen from Python (a subclass of the loop), adding what a
    converged call returns (a continuation step returns 1) and ``max_iter`` for a load step
    that failed after its ``max_iter`` iterations (its message says so; no other failure
    happens here). The slack catenary (16 elements), the arc hanging from one pin (16,
    folded on the way and escaped where round-off makes it so: :func:`started_upright`) and
    the arc started standing up (:func:`started_upright`: escaped on every machine) all count
    more than their converged load steps' ``extra["iterations"]``, which left the
    continuation out."""
    from rancf.formulations.problem import StepFailure
    from rancf.integrators import static as statics
    calls = []

    class Counted(statics.Stepper):
        def advance(self):
            try:
                it = super().advance()
            except Exception as exc:
                calls.append(exc)
                raise
            calls.append(it)
            return it

    monkeypatch.setattr(statics, "Stepper", Counted)
    m = (slack_cable(16, "straight", 1e-4)[0] if case == "catenary" else
         hanging_cable(16)[0] if case == "hanging" else started_upright(monkeypatch)[0])
    eq = rancf.static(m, max_iter=50)
    assert eq.status == "ok"
    failed = [c for c in calls if not isinstance(c, int)]
    assert all(isinstance(c, StepFailure) and "(50 iterations," in c.message for c in failed)
    count = sum(c for c in calls if isinstance(c, int)) + 50 * len(failed)
    assert eq.stats["newton_iterations"] == eq.stats["njev"] == eq.stats["nlu"] == count
    assert eq.stats["steps"] == 10
    assert count > eq.extra["iterations"].sum()


def dense_modes(dae, model, x, lam, part):
    """The reference of the sparse stability tests: the modes of ``Z^T K Z y = omega^2 Z^T
    M Z y`` by dense linear algebra, K Newton's stiffness symmetrized, M the DAE's mass
    matrix, Z an orthonormal basis (SVD) of the constrained displacements in the cables'
    planes (``part="in"``: the null space of the constraint rows stacked on the out-of-plane
    selector B), out of them (``"out"``: B times the null space of the constraint rows on
    B) or all of them (``"coupled"``: the null space of the constraint rows, the test where
    the planes do not split the model): omega^2 (k,) ascending, the modes Y (n, k) of unit
    modal mass, and the round-off of each, ``eps |K|_1 |y|^2 + |y|^T |K - K^T| |y|`` (K as
    computed; the bound
    :func:`rancf.modes` calls a mode rigid within, rancf/utilities/resolution.py); with Z, K
    (symmetrized) and M."""
    import scipy.linalg
    from rancf.integrators.static import _out_of_plane_coordinates
    n = dae.n_coordinates
    S = dae.newton_matrix(x, np.zeros(n), lam, np.zeros(n), 0.0, x, 0.0, 0.0, 0.0, 1.0, 0.0,
                          1.0, factor=False).tocsr()
    raw, J = S[:n, :n].toarray(), S[n:, :n].toarray()
    K = 0.5 * (raw + raw.T)
    B = _out_of_plane_coordinates(dae, model).toarray()
    if part == "in":
        Z = scipy.linalg.null_space(np.vstack([J, B.T]))
    elif part == "coupled":
        Z = scipy.linalg.null_space(J)
    else:
        Z = B @ scipy.linalg.null_space(J @ B)
    M = np.asarray(dae.mass(x).toarray() if hasattr(dae.mass(x), "toarray") else dae.mass(x))
    Mz = Z.T @ M @ Z
    w, V = scipy.linalg.eigh(Z.T @ K @ Z, 0.5 * (Mz + Mz.T))
    Y = Z @ V
    y = np.abs(Y)
    resolution = (np.finfo(float).eps * np.abs(raw).sum(axis=0).max() * (Y**2).sum(axis=0)
                  + (y * (np.abs(raw - raw.T) @ y)).sum(axis=0))
    return w, Y, resolution, Z, K, M


def _recording(monkeypatch, name):
    """The calls of the statics' stability test ``name`` (``_unstable_in_plane`` or
    ``_stable_out_of_plane``), each ``(dae, model, x, lam, answer)``, in a list the test
    reads after statics ran: the test itself runs unchanged."""
    from rancf.integrators import static as statics
    asked, test = [], getattr(statics, name)

    def recorded(dae, model, x, lam):
        answer = test(dae, model, x, lam)
        asked.append((dae, model, x.copy(), lam.copy(), answer))
        return answer

    monkeypatch.setattr(statics, name, recorded)
    return asked


def agrees_with_the_dense_spectrum(dae, model, x, lam, found):
    """Whether ``found``, the answer of ``_unstable_in_plane`` at the equilibrium ``(x,
    lambda)`` of ``dae`` (the spatial DAE of ``model``), is a direction (asserted right
    against :func:`dense_modes`). The reference's space: the constrained in-plane
    displacements where the state lies in the cables' planes (every out-of-plane coordinate
    within 1e-9 of the model's size); else every constrained displacement (``"coupled"``):
    a state turned out of the planes is not split by them (its stiffness couples the two
    parts), and the test is the coupled one. It returns a direction exactly where a dense
    omega^2 lies below its round-off's negative (none lies between that and three times it,
    where the held coordinates' stiffness, which raises ``|K|_1`` threefold at most, could
    tip the verdict); the direction lies in the reference's space (its part off Z below
    1e-9 of it: the held coordinates' stiffness and the saddle solve's round-off), has unit
    modal mass (to 1e-9), and its omega^2 (the Rayleigh quotient, and the one returned) is
    the least dense omega^2 to 1e-6 of it (Lanczos' tolerance 1e-10 on the shifted
    eigenvalue, with a margin); the least, not any, also where there are more unstable
    modes than the Lanczos resolves (4; the state turned out of the plane has 6)."""
    from rancf.integrators.static import _out_of_plane_coordinates
    B = _out_of_plane_coordinates(dae, model)
    in_plane = np.abs(B.T @ x).max() <= 1e-9 * dae.tree.size
    w, Y, resolution, Z, K, M = dense_modes(dae, model, x, lam,
                                            "in" if in_plane else "coupled")
    assert not np.any((w < -resolution) & (w >= -3.0 * resolution))
    assert (found is None) == (not np.any(w < -resolution))
    if found is None:
        return False
    d, omega2 = found
    assert np.linalg.norm(d - Z @ (Z.T @ d)) <= 1e-9 * np.linalg.norm(d)
    assert abs(d @ M @ d - 1.0) <= 1e-9
    assert abs(d @ K @ d - omega2) <= 1e-6 * abs(omega2)
    assert abs(omega2 - w[0]) <= 1e-6 * abs(w[0])
    return True


@pytest.mark.parametrize("case, EA_", [("catenary", EA), ("hanging", 1e5), ("hanging", 1e6),
                                       ("upright", 1e5), ("upright", 1e6)])
def test_the_sparse_in_plane_stability_test_agrees_with_the_dense_spectrum(case, EA_,
                                                                           monkeypatch):
    """``_unstable_in_plane`` (the rule of rancf.modes: a mode of ``K y = omega^2 M y`` on
    the constrained in-plane displacements whose omega^2 is negative beyond its round-off;
    the inertia by a sparse LDL^T and a Schur complement, the modes by shift-invert Lanczos)
    at every state statics asks it about (the slack catenary, 16 elements: stable; the arc
    hanging from one pin, 16 elements, EA 1e5 and 1e6 N: with some BLAS kernels first the
    cable folded back on itself, then the vertical, with others the vertical at once
    (:func:`started_upright` says why); the same arc, stiffer, started standing straight
    up (:func:`started_upright`): first that, unstable, on every machine, then the
    vertical), against the dense generalized eigenproblem
    (:func:`dense_modes`), by :func:`agrees_with_the_dense_spectrum`. The folded cable's
    spectrum is far from round-off (omega^2 down to -2e9 1/s^2 at EA 1e6 N, its round-off
    about 1e-5): at EA 1e6 N statics once refused it, Lanczos about zero not converging to
    its modes."""
    asked = _recording(monkeypatch, "_unstable_in_plane")
    m = (slack_cable(16, "straight", 1e-4)[0] if case == "catenary" else
         hanging_cable(16, EA_)[0] if case == "hanging" else started_upright(monkeypatch, EA_)[0])
    assert rancf.static(m).status == "ok"
    assert asked
    unstable = sum(agrees_with_the_dense_spectrum(*call) for call in asked)
    # the catenary stable at once, the upright cable first unstable; each last stable (the
    # hanging arc's first state is round-off's choice, its verdict checked above)
    assert asked[-1][-1] is None
    if case != "hanging":
        assert (asked[0][-1] is not None) == (unstable > 0) == (case == "upright")


#: The equilibrium ``(x, lambda)`` of :func:`hanging_cable` (16 elements, EA 1e5 N) that
#: statics' continuation off the cable folded back on itself reached with OpenBLAS's
#: Haswell kernels (with SkylakeX ones it is not visited: the path is chaotic in
#: round-off), saved by ``np.savez`` from the call of ``_unstable_in_plane`` on it: the
#: cable turned out of its plane (out-of-plane slopes up to 0.086), its static residual
#: 2.6e-10 N.
TURNED_OUT_STATE = Path(__file__).resolve().parent / "data" / "hanging_cable_off_plane_state.npz"


def test_the_in_plane_test_of_a_state_turned_out_of_the_plane_finds_its_least_mode():
    """``_unstable_in_plane`` at :data:`TURNED_OUT_STATE`, on the DAE of the model built
    anew (a state statics visits on some machines only, tested on all): the planes do not
    split it (its stiffness couples the out-of-plane coordinates with the rest), so the test
    is the coupled one, whose dense spectrum has 6 unstable modes (omega^2 from -2.07e8 to
    -228 1/s^2, round-off 5e-4), more than the Lanczos resolves (4). Its answer must be the
    least (:func:`agrees_with_the_dense_spectrum`); it was the third, -46495 1/s^2, the
    four nearest zero that Lanczos about zero finds, none of the two far below. A check
    that the state is what it was saved as: an equilibrium (static residual below 1e-8 N,
    constraints to 1e-14 m) off the plane."""
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    from rancf.integrators.static import _out_of_plane_coordinates, _unstable_in_plane
    m = hanging_cable(16, 1e5)[0]
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    with np.load(TURNED_OUT_STATE, allow_pickle=False) as saved:
        x, lam = saved["x"], saved["lam"]
    residual, violation, _, _ = constrained_check(dae, x, lam)
    assert residual <= 1e-8 and violation <= 1e-14
    assert np.abs(_out_of_plane_coordinates(dae, m).T @ x).max() > 0.01
    found = _unstable_in_plane(dae, m, x, lam)
    assert agrees_with_the_dense_spectrum(dae, m, x, lam, found)


def constrained_check(dae, x, lam):
    """The independent check of a spatial DAE equilibrium ``(x, lambda)``: the static
    residual ``F(x) - Phi_x^T lambda`` and constraints ``Phi(x)`` (largest entries), and the
    eigenvalues of ``Z^T K Z`` (dense; Z the orthonormal null space of the constraint rows,
    in and out of the cables' planes alike, K Newton's stiffness symmetrized) with
    ``|K|_inf``."""
    import scipy.linalg
    n = dae.n_coordinates
    v = np.zeros(n)
    r = dae.force(x, v, 0.0) - dae.constraint_force(x, lam, 0.0)
    S = dae.newton_matrix(x, np.zeros(n), lam, v, 0.0, x, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0,
                          factor=False).tocsr()
    K = S[:n, :n].toarray()
    K = 0.5 * (K + K.T)
    Z = scipy.linalg.null_space(S[n:, :n].toarray())
    return (np.abs(r).max(), np.abs(dae.constraint(x, 0.0)).max(),
            np.linalg.eigvalsh(Z.T @ K @ Z), np.abs(K).sum(axis=1).max())


@pytest.mark.parametrize("case, escapes", [("hanging", None), ("upright", True),
                                           ("catenary", False)])
def test_the_fold_escape_leaves_an_unstable_equilibrium_for_a_stable_one(
        case, escapes, monkeypatch):
    """The fold escape (statics' continuation along an in-plane unstable direction, at most
    three times): the arc on one pin (16 elements) started standing straight up
    (:func:`started_upright`) needs it on every machine, the slack catenary (16 elements) not
    at all, the arc hanging from one pin (16 elements) where round-off makes its first
    equilibrium the cable folded back on itself (with OpenBLAS's Haswell kernels, not its
    SkylakeX ones: :func:`started_upright`). The upright one is left by the second of
    ``FOLD_ESCAPE_WAYS`` (a push of 1e-3, mu floored): from the push of a tenth the
    continuation climbs back to it, to either side, which is no escape. How many times is
    checked against the dense in-plane spectrum (:func:`dense_modes`) at
    every equilibrium statics tested, not against a count: it escapes from exactly those the
    dense spectrum finds unstable (an omega^2 below its round-off's negative), all but the
    last, and stops at the first it finds stable. The arc's last is its global minimum
    of the potential (gravity's and the strain energy, the DAE's ``energy``): the chain hanging
    straight down has the least gravity potential of any shape of its length, and its strain
    energy is the stretch's alone, (rho g)^2 L^3 / (6 EA), 2e-4 J; so it lies below every
    equilibrium before it, by more than 1e-9 J (round-off on energies of order 1e3 J). The
    equilibrium returned, checked independently (dense, on every constrained direction, out of
    the plane too): the static residual below ``|K|_inf tol size`` (the stiffness times the
    last Newton increment's bound: 7.7e-4 N and 0.1 N; measured 2.6e-10 N and 3.2e-8 N,
    Newton's last step quadratic), the constraints to 1e-14 m, and ``Z^T K Z`` positive
    definite: its least eigenvalue above the dense eigensolver's round-off, ``n eps |K|_inf``
    (1e-6 and 1.2e-5; measured 0.014 and 0.17, the hanging cable's swing and the catenary's
    sway), and it is the arc hanging straight down (its tip against the analytic stretch, as
    in :func:`test_a_cable_drawn_curved_on_one_pin_hangs_vertical`). With the escape left
    out, the upright arc stops standing, which statics refuses as unstable out of the plane,
    as the dense check finds it (its least eigenvalue below ``-n eps |K|_inf``); so did the
    hanging arc where it folded (four eigenvalues down to -2.9e6)."""
    from rancf.integrators import static as statics
    found, last, tested = [], [], []
    unstable, stable = statics._unstable_in_plane, statics._stable_out_of_plane

    def recorded_unstable(dae, model, x, lam):
        d = unstable(dae, model, x, lam)
        found.append(d is not None)
        tested.append((dae, model, x.copy(), lam.copy()))
        return d

    def recorded_stable(dae, model, x, lam):
        last[:] = [(dae, x.copy(), lam.copy())]
        return stable(dae, model, x, lam)

    monkeypatch.setattr(statics, "_unstable_in_plane", recorded_unstable)
    monkeypatch.setattr(statics, "_stable_out_of_plane", recorded_stable)
    m, c = (hanging_cable(16) if case == "hanging" else started_upright(monkeypatch)
            if case == "upright" else slack_cable(16, "straight", 1e-4)[:2])
    tol = 1e-10
    eq = rancf.static(m, tol=tol)
    assert eq.status == "ok" and escapes in (None, any(found))
    negative, potential = [], []
    for dae, model, x, lam in tested:
        w, _, resolution, _, _, _ = dense_modes(dae, model, x, lam, "in")
        negative.append(int(np.sum(w < -resolution)))
        energy = dae.energy(x, np.zeros_like(x))
        potential.append(energy["gravity"] + energy["elastic"])
    assert found == [True] * (len(found) - 1) + [False]
    assert [count > 0 for count in negative] == found
    assert all(potential[-1] < earlier - 1e-9 for earlier in potential[:-1])
    dae, x, lam = last[0]
    residual, violation, w, scale = constrained_check(dae, x, lam)
    assert residual <= scale * tol * dae.tree.size
    assert violation <= 1e-14
    assert w[0] > len(x) * np.finfo(float).eps * scale
    if case != "catenary":
        stretch = RHO_A * 9.81 * c.length ** 2 / (2.0 * 1e5)
        np.testing.assert_allclose(eq.position(c.end)[0], [0.0, 0.0, -(c.length + stretch)],
                                   rtol=0, atol=1e-7)
    if case == "upright":
        monkeypatch.setattr(statics, "_unstable_in_plane", lambda *args: None)
        with pytest.raises(ValueError, match="unstable out of it"):
            rancf.static(m, tol=tol)
        residual, violation, w, scale = constrained_check(*last[0])
        assert w[0] < -len(x) * np.finfo(float).eps * scale


@pytest.mark.parametrize("case, verdict", [("catenary", True), ("hanging", True),
                                           ("hanging-1e6", True), ("folded", None),
                                           ("upright", False)])
def test_the_sparse_out_of_plane_stability_test_agrees_with_the_dense_one(
        case, verdict, monkeypatch):
    """``_stable_out_of_plane`` (the rule of rancf.modes on the cables' out-of-plane
    displacements, the in-plane coordinates held by a stiffness; sparse inertia and
    Lanczos) against the dense generalized eigenproblem on those displacements
    (:func:`dense_modes`, ``"out"``): stable exactly where no dense omega^2 lies below its
    round-off's negative (none lies between that and three times it, where the held
    coordinates' stiffness could tip the verdict), at the equilibria statics tests: the
    slack catenary and the hanging arc (stable, 16 elements; the arc at EA 1e5 and 1e6 N),
    and with the fold escape left out, the arc started standing up (:func:`started_upright`:
    unstable, statics refuses it, on every machine) and the hanging arc (where round-off
    makes its first equilibrium the folded cable: unstable, refused; else the hanging one,
    returned)."""
    from rancf.integrators import static as statics
    asked = _recording(monkeypatch, "_stable_out_of_plane")
    if case in ("folded", "upright"):
        monkeypatch.setattr(statics, "_unstable_in_plane", lambda *args: None)
    m = (slack_cable(16, "straight", 1e-4)[0] if case == "catenary" else
         started_upright(monkeypatch)[0] if case == "upright" else
         hanging_cable(16, 1e6 if case == "hanging-1e6" else 1e5)[0])
    try:
        assert rancf.static(m).status == "ok"
    except ValueError as exc:
        assert "unstable out of it" in str(exc)
        returned = False
    else:
        returned = True
    assert len(asked) == 1
    dae, model, x, lam, stable = asked[0]
    w, _, resolution, *_ = dense_modes(dae, model, x, lam, "out")
    assert not np.any((w < -resolution) & (w >= -3.0 * resolution))
    assert stable == returned == (not np.any(w < -resolution))
    assert verdict in (None, stable)


@pytest.mark.parametrize("EA_", [1e5, 1e6, 1e7])
@pytest.mark.parametrize("n", [8, 16, 32])
def test_the_arc_on_one_pin_hangs_straight_down_and_stable_at_each_stiffness(
        n, EA_, monkeypatch):
    """The arc on one pin (:func:`hanging_cable`, EI = 1e-3 N m^2) at EA 1e5, 1e6 and 1e7 N
    and 8, 16 and 32 elements: statics returns the cable hanging straight down, its tip at
    ``(0, 0, -(L + rho g L^2 / (2 EA)))`` (the inextensible chain's length plus the stretch
    under the tension ``rho g (L - s)``) within 1e-7 m (ten times the strain measure's
    second order ``eps^2 L``, eps = 1e-4 at EA 1e5 N and less above; the vertical cable has
    no curvature and its linear strain is the cubic's exactly), and that equilibrium is
    stable by the dense check on every constrained displacement (:func:`dense_modes` on the
    constraint rows alone, in and out of the plane at once): no omega^2 below its
    round-off's negative, and the least is the hanging chain's first swing, ``(j_01 / 2)^2 g
    / L`` (j_01 = 2.405 the first zero of J_0; 14.18 1/s^2), within 1e-3 of it: estimates
    of the bending's share ``EI / (rho A L^4)`` over it (7e-5), the cubic mesh's (``(1 /
    n)^4``, 2.4e-4 at 8 elements) and the stretch's (5e-5). At 16 elements and EA 1e6 N
    statics first reaches the cable folded back on itself with OpenBLAS's Haswell kernels
    (omega^2 down to -2e9 1/s^2; :func:`started_upright` says why), which it once refused:
    the Lanczos iteration about zero did not converge to those modes."""
    import scipy.linalg
    last = _recording(monkeypatch, "_stable_out_of_plane")
    m, c = hanging_cable(n, EA_)
    eq = rancf.static(m)
    assert eq.status == "ok" and eq.formulation == "dae"
    stretch = RHO_A * 9.81 * c.length ** 2 / (2.0 * EA_)
    np.testing.assert_allclose(eq.position(c.end)[0], [0.0, 0.0, -(c.length + stretch)],
                               rtol=0, atol=1e-7)
    dae, _, x, lam, _ = last[-1]
    np.testing.assert_allclose(x[-6:-3], eq.position(c.end)[0], rtol=0, atol=1e-15)
    n_x = dae.n_coordinates
    S = dae.newton_matrix(x, np.zeros(n_x), lam, np.zeros(n_x), 0.0, x, 0.0, 0.0, 0.0, 1.0,
                          0.0, 1.0, factor=False).tocsr()
    raw, J = S[:n_x, :n_x].toarray(), S[n_x:, :n_x].toarray()
    Z = scipy.linalg.null_space(J)
    M = dae.mass(x)
    M = M.toarray() if hasattr(M, "toarray") else np.asarray(M)
    Mz = Z.T @ M @ Z
    w, V = scipy.linalg.eigh(Z.T @ (0.5 * (raw + raw.T)) @ Z, 0.5 * (Mz + Mz.T))
    Y = Z @ V
    resolution = (np.finfo(float).eps * np.abs(raw).sum(axis=0).max() * (Y**2).sum(axis=0)
                  + (np.abs(Y) * (np.abs(raw - raw.T) @ np.abs(Y))).sum(axis=0))
    assert not np.any(w < -resolution)
    from scipy.special import jn_zeros
    swing = (jn_zeros(0, 1)[0] / 2.0) ** 2 * 9.81 / c.length
    assert abs(w[0] - swing) <= 1e-3 * swing


def sagging_arc(n, span, length=1.2):
    """Nodes and unit tangents of the circular arc of ``length`` (m) from the origin to
    ``(span, 0, 0)`` sagging along -z in the x-z plane, ``n`` elements."""
    R = brentq(lambda R: 2 * R * np.sin(length / (2 * R)) - span, length / np.pi, 100.0)
    phi = length / R * (np.arange(n + 1) / n - 0.5)
    P = np.column_stack([span / 2 + R * np.sin(phi), 0 * phi, R * (np.cos(phi[0]) - np.cos(phi))])
    T = np.column_stack([np.cos(phi), 0 * phi, np.sin(phi)])
    P[0], P[-1] = (0.0, 0.0, 0.0), (span, 0.0, 0.0)
    return P, T


def body_on_slack_cable(mass, n=8, upside_down=True):
    """A model its cable's plane mirrors but does not split: the slack cable of 1.2 m drawn as a
    circular arc (straight rest shape, EI = 1e-4 N m^2, EA = 1e7 N, ``n`` elements) in the
    x-z plane between a pin at the origin and the top of a rigid rod (``mass`` kg, its
    centre 0.3 m from a ground revolute joint of axis x at (1, 0, -0.5), its top at (1, 0,
    0)), gravity 9.81 along -z. ``upside_down``: the rod stands on its joint (the centre at
    z = -0.2, above it), else hangs from it (the joint at (1, 0, 0.5), the centre at z =
    0.2, below it; the top at the cable's end, still). The rod turns only about x, moving
    the cable's end out of the plane: its stability is the cable's and the rod's together."""
    D = 1.0
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = cable(m, *sagging_arc(n, D), 1e-4, "straight")
    s = 1.0 if upside_down else -1.0
    b = m.add_rigid_body(mass, 1e-2 * np.eye(3), position=(D, 0.0, -0.2 * s))
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("revolute", m.ground.point(D, 0.0, -0.5 * s), b.point(0, 0, -0.3 * s),
                axis=(1.0, 0.0, 0.0))
    m.add_joint("spherical", b.point(0, 0, 0.2 * s), c.end)
    return m, c, b


def test_split_is_exact_only_where_neither_stiffness_nor_constraints_couple():
    """``_split_is_exact`` on a 4-coordinate example, B selecting coordinate 1: K diagonal
    and J's rows on one part each (exact); a stiffness term between coordinates 0 and 1, or
    a joint row on both parts, or two rows each on both (coupled); a row on both with one
    on B alone (their difference on one part: exact); a term of 1e-12 of |K|_inf (round-off:
    exact)."""
    from scipy import sparse as sp
    from rancf.integrators.static import _split_is_exact
    B = sp.csr_matrix(np.eye(4)[:, [1]])
    K = np.diag([3.0, -1.0, 2.0, 5.0])
    J = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0]])

    def exact(K, J):
        K, J = sp.csr_matrix(K), sp.csr_matrix(J)
        return _split_is_exact(K, J, B, float(abs(K).sum(axis=1).max()))
    assert exact(K, J)
    coupled = K.copy()
    coupled[0, 1] = coupled[1, 0] = 0.5
    assert not exact(coupled, J)
    tiny = K.copy()
    tiny[0, 1] = tiny[1, 0] = 5e-12
    assert exact(tiny, J)
    assert not exact(K, np.array([[1.0, 1.0, 0.0, 0.0]]))
    assert not exact(K, np.array([[1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0]]))
    # a row on both parts and one on B alone: their difference is on one part, exact
    assert exact(K, np.array([[0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0]]))


@pytest.mark.parametrize("mass", [0.1, 5.0])
def test_a_rod_stood_on_a_slack_cable_is_found_unstable_by_the_coupled_test(mass, monkeypatch):
    """The rod standing on its joint, held up by the slack cable's end
    (:func:`body_on_slack_cable`): statics first reaches it upright, the cable in its drawn
    plane. That equilibrium is unstable (the dense check :func:`constrained_check` on every
    constrained direction: least eigenvalue below ``-n eps |K|_inf``):
    the rod falls about x, dragging the cable's end out of the plane, which the cable's sideways
    stiffness (its tension over its span, a few N/m) does not hold against the rod's weight
    above its joint. The split tests cannot see it (the in-plane one holds the cable's end in
    the plane, so the rod cannot turn; the out-of-plane one holds the rod): with
    ``_split_is_exact`` forced true, statics returns it, status "ok". ``_split_is_exact`` is
    false here (the joint at the cable's end ties the cable's out-of-plane coordinate to the
    rod's), the coupled test finds the direction, statics leaves along it, and returns an
    equilibrium the dense check finds stable (least eigenvalue above ``n eps |K|_inf``), its
    residual below ``|K|_inf tol size``, the rod fallen (the cable's end over 0.1 m out of the
    plane). With the escape left out, statics refuses the upright one, naming the coupled test."""
    from rancf.integrators import static as statics
    asked = _recording(monkeypatch, "_unstable_in_plane")
    last = _recording(monkeypatch, "_stable_out_of_plane")
    m, c, b = body_on_slack_cable(mass)
    tol = 1e-10
    eq = rancf.static(m, tol=tol)
    assert eq.status == "ok"
    dae, _, x, lam, direction = asked[0]
    _, _, w, scale = constrained_check(dae, x, lam)
    assert w[0] < -len(x) * np.finfo(float).eps * scale
    assert direction is not None
    assert abs(eq.position(c.end)[0][1]) > 0.1
    dae, _, x, lam, stable = last[-1]
    assert stable
    residual, violation, w, scale = constrained_check(dae, x, lam)
    assert residual <= scale * tol * dae.tree.size and violation <= 1e-12
    assert w[0] > len(x) * np.finfo(float).eps * scale
    with monkeypatch.context() as patch:
        patch.setattr(statics, "_split_is_exact", lambda *args: True)
        wrong = rancf.static(m, tol=tol)
        assert wrong.status == "ok" and abs(wrong.position(c.end)[0][1]) < 1e-12
    monkeypatch.setattr(statics, "_unstable_in_plane", lambda *args: None)
    with pytest.raises(ValueError, match="unstable, by the coupled test"):
        rancf.static(m, tol=tol)


def test_a_rod_hung_from_a_slack_cable_is_stable_by_the_coupled_test(monkeypatch):
    """The same rod hanging from its joint (:func:`body_on_slack_cable`, ``upside_down=False``):
    statics' coupled tests find its equilibrium stable at once (no escape), the cable in its
    drawn plane, as the dense check does (least eigenvalue above ``n eps |K|_inf``)."""
    asked = _recording(monkeypatch, "_unstable_in_plane")
    last = _recording(monkeypatch, "_stable_out_of_plane")
    m, c, b = body_on_slack_cable(1.0, upside_down=False)
    eq = rancf.static(m, tol=1e-10)
    assert eq.status == "ok" and [d is None for *_, d in asked] == [True]
    assert abs(eq.position(c.end)[0][1]) <= 1e-12
    dae, _, x, lam, stable = last[-1]
    _, _, w, scale = constrained_check(dae, x, lam)
    assert stable and w[0] > x.size * np.finfo(float).eps * scale


@pytest.mark.parametrize("tilt", [0.3, 1e-6])
def test_a_slack_cable_whose_plane_is_tilted_against_gravity_is_refused(tilt):
    """The slack cable between two pins of validation/cable_statics.py (drawn in the x-y
    plane, 16 elements), gravity tilted out of its plane by ``tilt`` rad: the loads drive its
    swing about the pins, which has no stiffness in the reference, and the pseudo-transient
    start is not for that; statics refuses it with the plane curved cable's reason."""
    from validation.cable_statics import slack_cable as drawn_slack_cable
    m, c, _ = drawn_slack_cable(gravity=(0.0, -9.81 * np.cos(tilt), -9.81 * np.sin(tilt)), n=16)
    with pytest.raises(ValueError, match="singular in the reference configuration"):
        rancf.static(m)


def body_hung_off_plane(off, D=1.0):
    """The slack cable of :func:`sagging_arc` (8 elements, EI = 1e-4 N m^2, EA = 1e7 N,
    straight rest shape) from a pin at the origin to a 0.5 kg body hung by a spherical joint
    from the ground point ``(D, off, 0.5)``, the body's centre drawn at ``(D, off, -0.3)``,
    the cable's end at ``(D, 0, 0)``; gravity 9.81 along -z. Returns the model and the
    cable."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    c = cable(m, *sagging_arc(8, D), 1e-4, "straight")
    b = m.add_rigid_body(0.5, 1e-3 * np.eye(3), position=(D, off, -0.3))
    m.add_joint("spherical", m.ground.point(0, 0, 0), c.start)
    m.add_joint("spherical", m.ground.point(D, off, 0.5), b.point(0, 0, 0.8))
    m.add_joint("spherical", b.point(0, -off, 0.3), c.end)
    return m, c


def returned_state(m, eq):
    """``(dae, x, lambda)``: the spatial DAE of the model m (built anew, at load factor 1)
    and statics' equilibrium ``eq`` on it, its coordinates (the poses of ``eq.state(0)``
    mapped to the DAE's, positions and Euler parameters) and multipliers; to test the
    equilibrium statics returned, whichever way it reached it."""
    from rancf.formulations import spatial
    from rancf.formulations.spatial_dae import SpatialDAE
    dae = SpatialDAE(m.build(), *spatial.model_inputs(m))
    state = eq.state(0)
    return dae, dae.state_of_poses(state.x, state.v)[0], eq.extra["lambda"][0]


def test_a_cable_tied_to_a_body_hung_off_its_plane_leaves_it_stable(monkeypatch):
    """The slack cable of :func:`body_on_slack_cable` (:func:`sagging_arc`, the x-z plane,
    gravity along -z, in it) tied at its end to a 0.5 kg body hung by a spherical joint from a
    ground point 0.05 m off the plane (the body's centre 0.3 m below the cable's end, 0.8 m
    below that point, both drawn 0.05 m off the plane): the plane mirrors not the model, the
    equilibrium leaves it (the cable's end 0.04 m out, towards the body's pin),
    ``_split_is_exact`` is false there, and the coupled tests' verdict on it (in the plane:
    no unstable direction; out of it: stable) is the dense check's (least eigenvalue above
    ``n eps |K|_inf``), its residual below ``|K|_inf tol size``. Statics' own tests on the way
    take no escape. Which way statics reaches it is round-off's choice: with OpenBLAS's
    Haswell kernels the pseudo-transient start converges (61 steps) and the plane curved
    cables' tests decide; with its SkylakeX ones that start fails (1000 steps), the load
    steps reach it (increments halved 6 times) and the general test decides; so the coupled
    tests are asked here about the equilibrium returned."""
    from rancf.integrators.static import (_held_stiffness, _out_of_plane_coordinates,
                                          _stable_out_of_plane, _unstable_in_plane)
    asked = _recording(monkeypatch, "_unstable_in_plane")
    m, c = body_hung_off_plane(0.05)
    tol = 1e-10
    eq = rancf.static(m, tol=tol)
    assert eq.status == "ok" and not any(d is not None for *_, d in asked)
    assert eq.position(c.end)[0][1] > 0.01
    dae, x, lam = returned_state(m, eq)
    assert not _held_stiffness(dae, x, lam, _out_of_plane_coordinates(dae, m), False)[3]
    assert _unstable_in_plane(dae, m, x, lam) is None and _stable_out_of_plane(dae, m, x, lam)
    residual, violation, w, scale = constrained_check(dae, x, lam)
    assert residual <= scale * tol * dae.tree.size and violation <= 1e-12
    assert w[0] > x.size * np.finfo(float).eps * scale


@pytest.mark.parametrize("upside_down", [True, False])
def test_the_rods_verdicts_agree_with_a_perturbed_dynamic_run(upside_down, monkeypatch):
    """A second, independent verdict on the rods of :func:`body_on_slack_cable` (5 kg): each
    upright equilibrium (for the standing rod the one the split tests returned,
    ``_split_is_exact`` forced true) run for 1 s on the spatial DAE (generalized-alpha,
    rho_inf 0.9, 1 ms) after a kick of 1e-3 rad/s about the hinge. About the hinge the rod's
    inertia is I = 0.01 + 5 (0.3)^2 = 0.46 kg m^2 and its weight's moment per radian m g d =
    14.7 N m, the cable's sideways stiffness (a few N/m at the 0.5 m lever, about 1 N m)
    against it standing, with it hanging. The standing rod leaves its equilibrium as
    ``sinh(s t)``, ``s = sqrt((m g d - 1) / I)``, about 5.4 /s: the cable end's distance from
    the plane at 1 s exceeds tenfold its largest in the first 0.3 s (``sinh(s) / sinh(0.3 s)``
    is 46 at 5.4 /s and still above 10 for any s above 3.3 /s, a cable three times as stiff).
    The hanging rod swings about it, period ``2 pi sqrt(I / (m g d + 1))`` about 1.1 s, so the
    first 0.5 s reaches the swing's amplitude (at a quarter period) and a bounded swing stays
    under it; twice that allows for the cable's own modes riding on the swing, which an
    unstable one (the growth above) exceeds within the second."""
    from rancf.integrators import static as statics
    m, c, _ = body_on_slack_cable(5.0, upside_down=upside_down)
    with monkeypatch.context() as patch:
        patch.setattr(statics, "_split_is_exact", lambda *args: True)
        state = rancf.static(m, tol=1e-10).state(0)
    v = np.zeros(state.v.size)
    v[3] = 1e-3                      # the rod's angular velocity about x (its v, omega first)
    run = rancf.simulate(m, 1.0, 1e-3, method="generalized-alpha", rho_inf=0.9,
                         formulation="dae", state=rancf.State(state.x, v), output_every=50)
    assert run.status == "ok", run.message
    y = np.abs(run.position(c.end)[:, 1])     # every 50 ms, 0 to 1 s
    if upside_down:
        assert y[-1] > 10.0 * y[:7].max()
    else:
        assert y[11:].max() <= 2.0 * y[:11].max()


@pytest.mark.parametrize("load_steps", [1, 2])
def test_statics_verdict_on_a_body_hung_far_off_the_plane_is_the_dense_one(load_steps, monkeypatch):
    """The body of :func:`body_hung_off_plane` hung 0.3 m off the cable's plane, statics in
    one and in two load steps (``max_iter=100``): the equilibrium lies far from the drawn
    plane, and the continuation may or may not reach a stable one. Whatever it does, its
    verdict is the dense check's: an equilibrium returned is stable (least eigenvalue above
    ``n eps |K|_inf``, and so by the coupled test asked about it), one refused, with the
    coupled test's reason, is unstable (below ``-n eps |K|_inf``): the out-of-plane test alone
    passes such a state, the coupled test must refuse it. Which way statics goes is
    round-off's choice (in two load steps, OpenBLAS's Haswell kernels: the pseudo-transient
    start, an escape, the cables' tests; its SkylakeX ones: that start fails after 2000
    steps, damped Newton at the full load reaches an equilibrium, the general test passes
    it)."""
    from rancf.integrators.static import _stable_out_of_plane
    last = _recording(monkeypatch, "_stable_out_of_plane")
    m, c = body_hung_off_plane(0.3)
    try:
        eq = rancf.static(m, load_steps=load_steps, max_iter=100)
    except ValueError as exc:
        assert "unstable, by the coupled test" in str(exc)
        dae, _, x, lam, stable = last[-1]
        assert not stable
        refused = True
    else:
        assert eq.status == "ok"
        dae, x, lam = returned_state(m, eq)
        assert _stable_out_of_plane(dae, m, x, lam)
        refused = False
    _, _, w, scale = constrained_check(dae, x, lam)
    threshold = x.size * np.finfo(float).eps * scale
    assert (w[0] < -threshold) if refused else (w[0] > threshold)
