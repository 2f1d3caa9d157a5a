"""No literal node size outside the element kinds (issue 27).

A node's size (4 coordinates of a planar vertex), an element's (8) and their matrix blocks (16, 64,
and the 48 of the effort blocks: three node blocks a vertex) are stated once, by the element kinds
(``rancf/elements/``: the Python classes and ``_beam.pxd``'s enum that the kernels cimport).
Everything else reads them from there, so that a kind with another node size does not have to
hunt for them. The test reads the code of ``rancf/`` outside ``rancf/elements/`` (comments and
strings removed: a docstring may say what the planar layout is) for the ways these sizes were
written before, and names each file:line that writes one again. The spatial DAE's kernels
(``rancf/formulations/_spatial_dae.pyx``) and its Python formulation (``spatial_dae.py``, which
reads the kernels' sizes from their module and the cable's from its kind) are held likewise to
the names of their own layout: a pose, two poses, E(p) and G(p), a beam or cable element and
their blocks, a body's entries in the outputs; so are the spatial recursion's kernels
(``_spatial.pyx``, ``_spatial_implicit.pyx``: a body's twist and its 6 x 6 blocks, a cable
element and its block) and the other modules that lay out spatial bodies (modes, the run's
start, the energy balance, the outputs, the drawing).
"""
import io
import pathlib
import re
import tokenize

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "rancf"

SIZES = r"(?:4|8|16|48|64)"
#: The ways a literal node, element or block size was written (each caught in SAMPLES below).
PATTERNS = {
    "size times an index (a stride)": re.compile(rf"(?<![\w.])(?<!e-){SIZES} \*(?!\*)"),
    "count times a size": re.compile(rf"(?<!\*)\* {SIZES}(?![\w.])"),
    "loop over a node or element": re.compile(rf"range\((?:[^()]*, )?{SIZES}\)"),
    "a shape or width ending in a size": re.compile(r", (?:4|8|16|64)\)"),
    "a square block": re.compile(r"\((?:4, 4|8, 8)\b"),
    "a slice at a node boundary": re.compile(r"\[(?:[^\]]*, )?:(?:4|8)\]|\[(?:4|8):"),
    "an offset of a row in a block": re.compile(r"\[(?:4|8|12) \+ "),
    "an offset back by a node": re.compile(r"- (?:4|8)\]"),
    "a block size of its own": re.compile(r"(?<![\w.])(?<!e-)(?:48|64)(?![\w.])"),
}

#: Literals that are not node sizes, by file and code: what they count.
ALLOWED = {
    # the numbers kept per output (positions, velocities, two more arrays of each), not a node
    ("simulate.py", "return 4 * n_x + 4 * n_joints + 8"),
    # arrays aligned to 64-byte cache lines
    ("workspace.py", "LINE = 64"),
}

#: One line of each kind this test must catch: how the code wrote sizes before.
SAMPLES = [
    "X = x + 4 * vertex",
    "M8 = d.Mel + 64 * s",
    "cdef const double* Ncp = d.E + 48 * v + 16",
    "work = dict(X=nv * 4, H=nv * 16, eps=nv * 8)",
    "for i in range(4):",
    "for i in range(k + 1, 4):",
    "vertices = x.reshape(-1, 4)",
    "K = np.empty((A.n_elements, 8, 8))",
    "body_mass = np.zeros((A.n_vertices, 4))",
    '"el_mass": pad(A.element_mass, np.float64, 64),',
    "blocks[c] += Me[4:, 4:]",
    "fg[a] += Fe[:4]",
    "np.add.at(fn, ev[:, 0], -KV[:, :4])",
    "e[4 + i] = x[b + i]",
    "ov[2 * k - 4] += sx",
    "chi[8 + k] = s * Jch[0] * nrow[k]",
    "out[s] = c_m * d.el_mass[64 * s + i]",
    "E = np.zeros((nv, 48))",
    "if out.shape[1] != 64:",
    "beta[b:b + 4] = V[4 * vtx:4 * vtx + 4]",
    "cdef double K[64]",
]

#: Lines that state the same things by name, and other numbers: none may be caught.
CLEAN = [
    "X = x + NODE * vertex",
    "for i in range(NODE):",
    "vertices = x.reshape(-1, A.node_size)",
    "cdef double Da[4]",
    "self.beta = (1.0 + self.alpha_m - self.alpha_f) ** 2 / 4.0",
    "need = 2.0 * 8.0 * n_out * per_output",
    "I = side**4 / 12.0",
    "eps[2 * RATES] = 1.0",
    "if (np.linalg.norm(f_trial) <= (1.0 - 1e-4 * alpha) * norm",
    "tol = 1e-64 * scale",
]

#: The spatial DAE's kernels state the sizes of their layout once, by name (their extern block, or
#: cimported from the element kinds): a body's pose POSE (7: position, Euler parameters), E(p) and
#: G(p) EULER_MAP (3 x 4 = 12), two poses MAX_COLS (14: a link's, an element's or a force item's
#: columns) and a block on them MAX_BLOCK (196), a beam element's coordinates SPATIAL_NODE (6), its
#: chain rule ELEMENT_MAP (6 x 14 = 84) and damping SPATIAL_BLOCK (36), a cable element's
#: CABLE_ELEMENT (12) and CABLE_ELEMENT_BLOCK (144), the seven-point stencil's STENCIL (7). An
#: index into a small matrix (``A[7]``) is no size; a joint's coordinates (six at most, the probes'
#: ``range(6)``) are the joints'.
SPATIAL_DAE = [ROOT / "formulations" / name for name in ("_spatial_dae.pyx", "spatial_dae.py")]
#: The other modules that lay out spatial bodies and nodes, held to the same patterns: they read
#: a body's pose and twist and a cable node's coordinates from the element kinds
#: (``SpatialBeam.pose_size``, ``node_size``, ``SpatialANCFCable.node_size``), the DAE's pose
#: from its kernels (``POSE_SIZE``), and the spatial recursion's blocks from the beam kind's
#: ``_spatial_beam.pxd`` (``SPATIAL_NODE``, ``SPATIAL_BLOCK``).
#: The spatial recursion's kernels (``_spatial.pyx``, its implicit steps' ``_spatial_implicit.pyx``)
#: likewise: a body's six velocity coordinates (its twist (v, w), a wrench on it, the row stride of
#: its 6 x n_i blocks H, U, W, L and of its 6 x 6 blocks I^A, X) are the beam kind's SPATIAL_NODE,
#: a 6 x 6 block SPATIAL_BLOCK (36; its diagonal steps by SPATIAL_NODE + 1), a beam element's
#: coordinates (stiffness, rest strain) SPATIAL_NODE; a cable node's CABLE_NODE, a cable element's
#: CABLE_ELEMENT (12) and its block CABLE_ELEMENT_BLOCK (144), the cable kind's; a link's two axes
#: AXES (2 x 3), the kernel's own. The rule for 3 and 9: they stay where they are a vector in space
#: and a 3 x 3 matrix (r, anchor, offset, A, Ig and their strides ``3 * i``, ``9 * i``; an output
#: frame's ``3 + 9``: r, then A), never for a part of a twist or a block; the free link's rotation
#: coordinates (``q_offset + 3`` up to ``+ 6``) are the joint's.
SPATIAL_RECURSION_KERNELS = [ROOT / "formulations" / name
                             for name in ("_spatial.pyx", "_spatial_implicit.pyx")]
SPATIAL_LAYOUT = SPATIAL_DAE + SPATIAL_RECURSION_KERNELS + [ROOT / name for name in (
    "studies/vibration.py", "simulate.py", "starts.py", "formulations/_spatial_energy.pyx",
    "results/outputs.py", "model/spatial_drawing.py", "model/spatial_items.py")]
#: Numbers of those files that are not sizes, by file and code.
SPATIAL_ALLOWED = {
    # a marker's size in points
    ("spatial_drawing.py", 'label=         if legend else             , '
                           '**dict(GROUND_STYLE, markersize=12))'),
    ("spatial_drawing.py", "ax.plot(*r[:, None], linestyle=      , marker=   , markersize=12, "
                           "color=     ,"),
}
SPATIAL_SIZES = r"(?:7|12|14|36|84|144|196)"
SPATIAL_PATTERNS = {
    "a pose, link or element size": re.compile(
        rf"(?<![\w.])(?<!e-)(?:(?<!\w\[){SPATIAL_SIZES}(?![\w.])|{SPATIAL_SIZES}(?![\w.\]]))"),
    "an array of such a size": re.compile(rf"\bcdef [\w ]*\[(?:6|{SPATIAL_SIZES})\]"),
    "the child's Euler parameters in two poses": re.compile(r"(?<![\w.])10 \+|\+ 10(?![\w.])"),
    "an element's coordinates as a stride": re.compile(
        r"(?<![\w.])(?<!e-)6 \*(?!\*)|(?<!\*)\* 6(?![\w.])"),
}
#: The spatial recursion's kernels loop over a twist's or a block row's six entries by name too
#: (a loop over a link's coordinates runs to its n_i, so no ``range(6)`` there is a joint's).
RECURSION_PATTERNS = {**SPATIAL_PATTERNS, "a loop over a twist": re.compile(
    r"range\((?:3, )?6\)")}
RECURSION_SAMPLES = ["for k in range(6):", "for k in range(3, 6):"]
RECURSION_CLEAN = ["for k in range(SPATIAL_NODE):", "for k in range(3):",
                   "for k in range(d.q_offset[i] + 3, min(d.q_offset[i] + 6, d.q_offset[i + 1])):"]

#: Lines of the spatial DAE as they were written before: each must be caught.
SPATIAL_SAMPLES = [
    "cdef double[7] GROUND_X = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]",
    "memcpy(y + 7, x + POSE * c, POSE * sizeof(double))",
    "cdef const double* pc = y + 10",
    "full[MAX_COLS * (r + i) + 10 + a] = blk[EULER * i + a]",
    "cols = np.where(np.asarray(self.parent) >= 0, 14, 7).astype(np.intc)",
    "c0 = 14 - nc",
    "cdef double E[12]",
    "memcpy(&_EULER_GK[k, 0, 0], G, 12 * sizeof(double))",
    "cdef double y[14]",
    "cdef double e[6]",
    "cdef double B[84]",
    "cdef double D[36]",
    "memset(B, 0, 84 * sizeof(double))",
    "s += D[6 * a + b] * B[14 * b + j]",
    "f + 12 * k, K + 144 * k, C + 144 * k, P + k)",
    "self.item_K = np.zeros(196 * max(self.n_items, 1))",
    "c = self.c0 + 6 * (b - self.nb)",
    "self.links.c_along(q, v, T, w, taus, 7, out)",
    "out[7 * b + 3 + j] += s / pp",
    "out[POSE * self.body[k] + i] += F[7 + i]",
    # the Python formulation's
    "np.arange(7 * body, 7 * body + 7)",
    "self.n_coordinates = 7 * nb + 6 * self.n_cable_nodes",
    "self._cable_dofs = np.ascontiguousarray(self._cable_dofs.reshape(-1, 12), dtype=np.int_)",
    "steps = np.concatenate([np.eye(14), -np.eye(14)])",
    "X = x[:12 * n].reshape(n, 12)",
    "V = v[:6 * n].reshape(n, 6)",
    "g = -(Jy.T @ lam)[-7:]",
    # the other spatial modules'
    "SPATIAL_DAE_COORDINATES = 7",
    "x = state.checked(12 * n_b + 6 * n_c, 6 * n_b + 6 * n_c)[0]",
    "bodies = dx[:, :7 * nb].reshape(n, nb, 7)",
    "X, V = X.reshape(m, n, 12), V.reshape(m, n, 6)",
    "pose = np.asarray(pose, dtype=float).reshape(-1, 12)",
    "base, pose, rates = np.empty((1, 3, 3)), np.empty((1, 12)), np.empty((1, 6))",
    "cdef double Wa[6]",
    "V = d.V + 6 * d.load_body[j]",
    "H = d.H + 36 * i",
    # the spatial recursion's kernels'
    "H[7 * k] = 1.0",
    "B[12 * i + j] = c_m * M[12 * i + j] + c_k * K[12 * fi + fj]",
    "return d.c_mass + 144 * el",
    "cdef double M[144]",
    "self.E = np.zeros(36 * max(nb, 1))",
    "link(d.motion[i], d.axes + 6 * i, q + off, qd + off, True, t, R, T, J, jd)",
]

#: The same lines by name, and the file's other numbers: none may be caught.
SPATIAL_CLEAN = [
    "cdef double[POSE] GROUND_X = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]",
    "cdef const double* pc = y + POSE + 3",
    "cdef double B[ELEMENT_MAP]",
    "s += D[SPATIAL_NODE * a + b] * B[MAX_COLS * b + j]",
    "A[7] = 2.0 * z * y + 2.0 * p0 * x",
    "L[12], L[13], L[14], L[15] = a[3], -a[2], a[1], a[0]",
    "cdef double pp = X[3] * X[3] + X[4] * X[4] + X[5] * X[5] + X[6] * X[6]",
    "cdef double Ap[9]",
    "h = 1e-6 * s",
    "hv = max(hv, 1e-7 * fabs(v_e[POSE * b + 3 + i]))",
    "rotary_action(G, inertia + 9 * b, p, 8.0, gp)",
    "cdef double[STENCIL] _D2 = [2.0 / 180.0, -27.0 / 180.0, 270.0 / 180.0, -490.0 / 180.0,",
    "for k in range(6):",
    "c = POSE_SIZE * nb + CABLE_NODE * (body - nb)",
    "X = x[:FRAME_SIZE * n].reshape(n, FRAME_SIZE)",
    "out = np.zeros((len(self.joint_links), 6))",
    "H[(SPATIAL_NODE + 1) * k] = 1.0",
    "D[6], D[7], D[8] = -dd[1], dd[0], 0.0",
    "or x.shape[1] != d.n or x.shape[2] != 3 + 9 or v.shape[1] != d.n",
    "cdef const double* off = d.s_offset + 3 * (2 * s + e)",
]

#: The spatial recursion's formulation (``rancf/formulations/spatial.py``) reads its sizes by name
#: too: a body's entries in the outputs' nodes and velocities FRAME_SIZE (12: r, then A row-major)
#: and TWIST_SIZE (6: v, then w) and a joint's reaction WRENCH_SIZE (6), named once by the spatial
#: kernels (``_spatial_dae.pyx``, which ``rancf.results.result`` reads as well), a 6 x 6 block on
#: twists (36), a cable node's CABLE_NODE (6) and element's CABLE_ELEMENT (12, its block 144),
#: the cable kind's. A position or a rotation's 3 is no such size.
SPATIAL_RECURSION = ROOT / "formulations" / "spatial.py"
OUTPUT_PATTERNS = {
    "a pose, twist, wrench or cable size": re.compile(
        r"(?<![\w.])(?<!e-)(?:6|12|36|144)(?![\w.])"),
}

#: Lines of the spatial recursion as they were written before: each must be caught.
OUTPUT_SAMPLES = [
    "poses, rates = np.empty((n, 12)), np.empty((n, 6))",
    "e = x[12 * n:].reshape(-1, 6)",
    'H = a["H"][:36 * n].reshape(n, 6, 6)',
    "c_mass=np.array(mass).reshape(-1, 144), c_gravity=np.array(gravity).reshape(-1, 12),",
    "M = np.roll(np.roll(M, 6, axis=0), 6, axis=1)",
    "done.update(cable_e=nodes[:, n:, :6].copy(), cable_v=vel[:, n:].copy(),",
    "out = np.empty((len(t), 6 * len(self.tree.joint_body)))",
]

#: The same by name, and the file's other numbers: none may be caught.
OUTPUT_CLEAN = [
    "poses, rates = np.empty((n, FRAME_SIZE)), np.empty((n, TWIST_SIZE))",
    "e = x[FRAME_SIZE * n:].reshape(-1, CABLE_NODE)",
    "r, A = x[:, :3], x[:, 3:].reshape(n, 3, 3)",
    "c3 = np.where(small, 1.0 / 12.0 + a2 * (1.0 / 720.0 + a2 * (1.0 / 30240.0 + a2 * (",
    "MIN_SLOPE = 1e-3",
]


def code_lines(text):
    """Each line of Python or Cython source with its comments and strings blanked."""
    lines = text.splitlines(keepends=True)
    out = [list(line) for line in lines]
    blank = {tokenize.COMMENT, tokenize.STRING}
    blank |= {getattr(tokenize, n) for n in ("FSTRING_MIDDLE",) if hasattr(tokenize, n)}
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type not in blank:
            continue
        (r0, c0), (r1, c1) = tok.start, tok.end
        for r in range(r0, r1 + 1):
            row = out[r - 1]
            a = c0 if r == r0 else 0
            b = c1 if r == r1 else len(row)
            for c in range(a, min(b, len(row))):
                if row[c] != "\n":
                    row[c] = " "
    return ["".join(row).rstrip() for row in out]


def offending(line, patterns=PATTERNS):
    """The names of the patterns (default: the node sizes') a line of code matches."""
    return [name for name, pattern in patterns.items() if pattern.search(line)]


def sources():
    for path in sorted(ROOT.rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd") and "elements" not in path.relative_to(ROOT).parts:
            yield path


def cases(lines, spatial_lines, output_lines):
    """(patterns, line) of each line, the spatial DAE's and the spatial recursion's with their
    own patterns."""
    return ([pytest.param(PATTERNS, line, id=line) for line in lines]
            + [pytest.param(SPATIAL_PATTERNS, line, id=f"spatial: {line}")
               for line in spatial_lines]
            + [pytest.param(OUTPUT_PATTERNS, line, id=f"outputs: {line}")
               for line in output_lines])


@pytest.mark.parametrize("patterns, line", cases(SAMPLES, SPATIAL_SAMPLES, OUTPUT_SAMPLES))
def test_patterns_catch_each_old_form(patterns, line):
    assert offending(line, patterns), f"no pattern catches {line!r}"


@pytest.mark.parametrize("patterns, line", cases(CLEAN, SPATIAL_CLEAN, OUTPUT_CLEAN))
def test_patterns_leave_named_sizes_and_other_numbers(patterns, line):
    assert not offending(line, patterns), f"{line!r} caught by {offending(line, patterns)}"


def test_comments_and_strings_are_not_code():
    text = 'a = 1  # x.reshape(-1, 4)\nb = f"({n}, 4)"\n"""\nrange(4)\n"""\nc = NODE * v\n'
    assert [offending(line) for line in code_lines(text)] == [[]] * 6


def test_no_literal_node_size_outside_the_element_kinds():
    assert ROOT.is_dir()
    found, seen = [], 0
    for path in sources():
        seen += 1
        for number, line in enumerate(code_lines(path.read_text()), 1):
            names = offending(line)
            if names and (path.name, line.strip()) not in ALLOWED:
                found.append(f"{path.relative_to(ROOT.parent)}:{number}: {line.strip()}  "
                             f"({', '.join(names)})")
    assert seen > 20
    assert not found, ("literal node or element sizes outside rancf/elements/ (read them from "
                       "the element kind):\n" + "\n".join(found))


def test_kernel_sizes_are_the_kinds():
    """The sizes the kernels cimport (the macros of rancf/elements/_beam.pxd) are those the
    Python kinds state: the two statements of a node cannot drift apart."""
    from rancf.elements.beam import PlanarANCFBeam
    from rancf.elements.rigid import RigidBody
    text = (ROOT / "elements" / "_beam.pxd").read_text()
    macros = dict(re.findall(r"#define RANCF_BEAM_(\w+) (.+)", text))

    def value(name):
        return eval(re.sub(r"RANCF_BEAM_(\w+)", lambda m: str(value(m[1])), macros[name]))

    kind = PlanarANCFBeam()
    assert value("NODE") == kind.node_size == RigidBody.node_size
    assert value("NODES") == kind.nodes_per_element
    assert value("ELEMENT") == kind.element_size
    assert value("DIM") == kind.dimension == RigidBody.dimension
    assert value("NODE_BLOCK") == kind.node_size ** 2
    assert value("ELEMENT_BLOCK") == kind.element_size ** 2
    assert value("SHAPES") * value("DIM") == kind.element_size


@pytest.mark.parametrize("line", RECURSION_SAMPLES)
def test_the_recursion_patterns_catch_a_loop_over_a_twist(line):
    assert offending(line, RECURSION_PATTERNS) and not offending(line, SPATIAL_PATTERNS)


@pytest.mark.parametrize("line", RECURSION_CLEAN)
def test_the_recursion_patterns_leave_named_loops(line):
    assert not offending(line, RECURSION_PATTERNS)


@pytest.mark.parametrize("path", SPATIAL_LAYOUT, ids=lambda path: path.name)
def test_no_literal_pose_or_link_size_in_the_spatial_layout(path):
    patterns = RECURSION_PATTERNS if path in SPATIAL_RECURSION_KERNELS else SPATIAL_PATTERNS
    found = [f"{path.relative_to(ROOT.parent)}:{number}: {line.strip()}  "
             f"({', '.join(offending(line, patterns))})"
             for number, line in enumerate(code_lines(path.read_text()), 1)
             if offending(line, patterns)
             and (path.name, line.strip()) not in SPATIAL_ALLOWED]
    assert not found, ("literal pose, link or element sizes in a spatial module (name them in the "
                       "spatial DAE's extern block, or read the element kind's):\n"
                       + "\n".join(found))


def test_no_literal_output_or_cable_size_in_the_spatial_recursion():
    found = [f"{SPATIAL_RECURSION.relative_to(ROOT.parent)}:{number}: {line.strip()}"
             for number, line in enumerate(code_lines(SPATIAL_RECURSION.read_text()), 1)
             if offending(line, OUTPUT_PATTERNS)]
    assert not found, ("literal output or cable sizes in the spatial recursion (import the "
                       "kernels' FRAME_SIZE, TWIST_SIZE, WRENCH_SIZE, the cable kind's sizes):\n"
                       + "\n".join(found))
