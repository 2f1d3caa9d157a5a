"""Planar geometry and the global mass matrix, each stated once: the functions of
rancf.elements.planar against independent values (trigonometric identities, numpy's complex
angle, known vectors), the mass matrix against the kinetic energy of a rigid rotation, and a
grep of rancf/ showing that the formulas live only in the geometry modules."""
import re
from pathlib import Path

import numpy as np
import pytest

import rancf
from rancf.elements import beam, planar, rigid

PACKAGE = Path(__file__).resolve().parent.parent / "rancf"
GEOMETRY = {PACKAGE / "elements" / "planar.py", PACKAGE / "elements" / "_planar.pxd"}
ANGLES = np.concatenate([np.linspace(-20.0, 20.0, 401), np.pi * np.arange(-5, 6),
                         [1e-300, -1e-300, 0.0]])


def test_rotation_is_orthogonal_and_adds_angles():
    rng = np.random.default_rng(1)
    for a, b in rng.uniform(-10.0, 10.0, (50, 2)):
        R = planar.rotation(a)
        assert np.allclose(R @ R.T, np.eye(2), rtol=0, atol=1e-15)
        assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-15)
        assert np.allclose(R @ planar.rotation(b), planar.rotation(a + b), rtol=0, atol=1e-14)
    # a quarter turn takes e_x to e_y and e_y to -e_x
    assert np.allclose(planar.rotation(np.pi / 2), [[0.0, -1.0], [1.0, 0.0]], atol=1e-16)


def test_direction_is_the_rotated_x_axis():
    for a in ANGLES:
        u = planar.direction(a)
        assert np.hypot(*u) == pytest.approx(1.0, abs=1e-15)
        assert np.allclose(u, planar.rotation(a) @ [1.0, 0.0], rtol=0, atol=1e-15)


def test_wrap_lands_in_half_open_turn_a_whole_number_of_turns_away():
    w = planar.wrap(ANGLES)
    assert np.all(w >= -np.pi) and np.all(w < np.pi)
    turns = (ANGLES - w) / (2.0 * np.pi)
    assert np.allclose(turns, np.round(turns), rtol=0, atol=1e-12)
    # numpy's angle of e^{ia} lies in (-pi, pi]: the same but at the boundary
    ref = np.angle(np.exp(1j * ANGLES))
    inner = np.abs(np.abs(ref) - np.pi) > 1e-9
    assert np.allclose(w[inner], ref[inner], rtol=0, atol=1e-12)
    assert planar.wrap(np.pi) == -np.pi and planar.wrap(-np.pi) == -np.pi
    assert planar.wrap(0.25) == 0.25


def test_joint_angle_of_known_vectors():
    e_x, e_y = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    assert planar.joint_angle(e_x, e_y) == pytest.approx(np.pi / 2, abs=1e-16)
    assert planar.joint_angle(e_y, e_x) == pytest.approx(-np.pi / 2, abs=1e-16)
    assert planar.joint_angle(e_x, -e_x) == pytest.approx(np.pi, abs=1e-16)
    assert planar.joint_angle(3.0 * e_x, np.array([2.0, 2.0])) == pytest.approx(np.pi / 4, abs=1e-16)
    # the angle between two directions does not depend on their lengths nor on a common turn
    rng = np.random.default_rng(2)
    for base, rel, lp, lc in zip(rng.uniform(-np.pi, np.pi, 40), rng.uniform(-3.1, 3.1, 40),
                                 rng.uniform(0.1, 10.0, 40), rng.uniform(0.1, 10.0, 40)):
        p = lp * np.array([np.cos(base), np.sin(base)])
        c = lc * np.array([np.cos(base + rel), np.sin(base + rel)])
        assert planar.joint_angle(p, c) == pytest.approx(rel, abs=1e-14)


def test_the_body_point_is_its_offset_turned_by_the_body_angle():
    rng = np.random.default_rng(3)
    for phi, dx, dy, rx, ry in rng.uniform(-4.0, 4.0, (30, 5)):
        u, d, r = np.array([np.cos(phi), np.sin(phi)]), np.array([dx, dy]), np.array([rx, ry])
        R = np.array([[np.cos(phi), -np.sin(phi)], [np.sin(phi), np.cos(phi)]])
        assert np.allclose(planar.point_map(d) @ u, R @ d, rtol=0, atol=1e-14)
        assert np.allclose(planar.body_point(np.concatenate([r, u]), d), r + R @ d,
                           rtol=0, atol=1e-14)
    # any leading shape: one body at several instants
    X = np.array([[0.0, 0.0, 1.0, 0.0], [1.0, 2.0, 0.0, 1.0]])
    assert np.allclose(planar.body_point(X, [0.5, 0.0]), [[0.5, 0.0], [1.0, 2.5]])


def _beam_and_body():
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(1.3, 3, E=2e9, rho=7800.0, A=1e-4, I=1e-9, start=(0.0, 0.0), angle=0.4)
    end = 1.3 * np.array([np.cos(0.4), np.sin(0.4)])
    body = m.add_rigid_body(2.0, 0.07, position=end + [0.2, 0.0], angle=0.1)
    m.add_joint("revolute", m.ground.point(0, 0), b.start)
    m.add_joint("revolute", b.end, body.point(*(planar.rotation(-0.1) @ [-0.2, 0.0])))
    return m, b, body, end + [0.2, 0.0]


def test_mass_matrix_gives_the_kinetic_energy_of_a_rigid_rotation():
    """All turning about the origin at omega: T = 1/2 omega^2 (rho A L^3 / 3 + m |c|^2 + I_G),
    exact for the cubic beam (its rigid motion is in the element's space)."""
    m, b, body, c = _beam_and_body()
    A = m.build()
    omega, J = 1.7, np.array([[0.0, -1.0], [1.0, 0.0]])
    V = np.concatenate([omega * np.concatenate([J @ X[:2], J @ X[2:]])
                        for X in A.x0.reshape(-1, A.node_size)])
    M = A.mass_matrix()
    assert M.shape == (A.n_x, A.n_x)
    expected = 0.5 * omega**2 * (7800.0 * 1e-4 * 1.3**3 / 3 + 2.0 * c @ c + 0.07)
    assert 0.5 * V @ M @ V == pytest.approx(expected, rel=1e-13)
    # and a translation moves the whole mass
    t = np.tile([1.0, 0.0, 0.0, 0.0], A.n_vertices)
    assert t @ M @ t == pytest.approx(7800.0 * 1e-4 * 1.3 + 2.0, rel=1e-14)


def test_mass_matrix_equals_the_element_and_body_matrices_summed_by_hand():
    m, b, body, _ = _beam_and_body()
    A = m.build()
    dense = np.zeros((A.n_x, A.n_x))
    l = 1.3 / 3
    for s in range(3):
        dense[4 * s:4 * s + 8, 4 * s:4 * s + 8] += beam.mass_matrix(7800.0, 1e-4, l)
    dense[16:20, 16:20] += rigid.mass_matrix(2.0, 0.07)
    assert np.allclose(A.mass_matrix().toarray(), dense, rtol=1e-15, atol=0)
    blocks = A.mass_diagonal_blocks
    for v in range(A.n_vertices):
        assert np.allclose(blocks[v], dense[4 * v:4 * v + 4, 4 * v:4 * v + 4], rtol=1e-15, atol=0)
    from rancf.formulations.dae import DAE
    assert np.array_equal(DAE(A).M.toarray(), A.mass_matrix().toarray())


#: Each formula of the geometry modules, as a pattern of its code (not of prose).
FORMULAS = {
    # floor((a + pi) / (2 pi)) of any expression a, or the modulo spellings a % (2 pi),
    # fmod(a, 2 pi), np.mod / np.remainder of a turn
    "angle wrap": (r"(floor|ceil)\(\s*\([^()]*[-+]\s*(np\.pi|M_PI)\s*\)"
                   r"|%\s*\(?\s*2(\.0)?\s*\*\s*(np\.pi|M_PI|math\.pi)"
                   r"|\b(fmod|mod|remainder)\([^()]*,\s*2(\.0)?\s*\*\s*(np\.pi|M_PI|math\.pi)"),
    "body point / A(d) u": r"\w+\[0\] \* \w+\[(\.\.\., )?[02]\] - \w+\[1\] \* \w+\[(\.\.\., )?[13]\]",
    "A(d)^T a": r"-\w+\[1\] \* \w+\[0\] \+ \w+\[0\] \* \w+\[1\]",
    "joint angle": r"(atan2|arctan2)\(\s*\w+\[0\] \* \w+\[1\] - ",
    "rotation": r"\b\w+ \* \w+\[0\] - \w+ \* \w+\[1\]|\[\[(\w+), -(\w+)\], \[\2, \1\]\]",
    "direction of an angle": r"np\.cos\(([\w.]+)\), np\.sin\(\1\)|= cos\(([^)]*)\)\s*\n\s*\w+\[1\] = sin\(\2\)",
}


def _sources():
    return sorted(p for s in ("*.py", "*.pyx", "*.pxd") for p in PACKAGE.rglob(s))


def _code(path):
    """The text of a source without its docstrings (where the formulas are quoted as prose and
    the examples check them independently) and comments."""
    text = re.sub(r'"""[\s\S]*?"""', "", path.read_text())
    return re.sub(r"#[^\n]*", "", text)


@pytest.mark.parametrize("name", FORMULAS)
def test_each_formula_is_stated_only_in_the_geometry_modules(name):
    pattern = re.compile(FORMULAS[name])
    where = {p for p in _sources() if pattern.search(_code(p))}
    assert where, f"the pattern of {name} matches nothing: it no longer describes the code"
    assert where <= GEOMETRY, f"{name} stated outside the geometry modules: {sorted(where - GEOMETRY)}"


def test_mass_assembly_and_element_gathers_are_written_once():
    """The global mass matrix is assembled in Assembly.mass_entries only (no element mass added
    into a matrix elsewhere), and the kernels gather an element's coordinates with the kind's
    inline gather (no copy node by node written out)."""
    assembly = PACKAGE / "model" / "assembly.py"
    adds = re.compile(r"element_mass(\[|\.ravel\(|\.reshape\(-1\))|\[A\.body_mass\[k\], A\.body_mass")
    assert {p for p in _sources() if adds.search(_code(p))} == {assembly}
    copies = re.compile(r"\w+\[(NODE|4) \+ i\] = \w+\[")
    assert not [p for p in _sources() if copies.search(_code(p))]
    kernels = [PACKAGE / "formulations" / "_forces.pyx", PACKAGE / "elements" / "_beam.pyx"]
    assert all("gather(" in _code(p) for p in kernels)
