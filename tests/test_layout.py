"""No literal node size outside the element kinds (issue 27).

A node's size (4 coordinates of a planar vertex), an element's (8) and their matrix blocks (16, 64,
and the 48 of the effort blocks: three node blocks a vertex) are stated once, by the element kinds
(``rancf/elements/``: the Python classes and ``_beam.pxd``'s enum that the kernels cimport).
Everything else reads them from there, so that a kind with another node size does not have to
hunt for them. The test reads the code of ``rancf/`` outside ``rancf/elements/`` (comments and
strings removed: a docstring may say what the planar layout is) for the ways these sizes were
written before, and names each file:line that writes one again.
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
    ("workspace.py", "total += -(-max(a.nbytes, 1) // 64) * 64"),
    ("workspace.py", "buffer = np.zeros(total + 64, dtype=np.uint8)"),
    ("workspace.py", "start = -buffer.ctypes.data % 64"),
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


def offending(line):
    """The names of the patterns a line of code matches."""
    return [name for name, pattern in PATTERNS.items() if pattern.search(line)]


def sources():
    for path in sorted(ROOT.rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd") and "elements" not in path.relative_to(ROOT).parts:
            yield path


@pytest.mark.parametrize("line", SAMPLES)
def test_patterns_catch_each_old_form(line):
    assert offending(line), f"no pattern catches {line!r}"


@pytest.mark.parametrize("line", CLEAN)
def test_patterns_leave_named_sizes_and_other_numbers(line):
    assert not offending(line), f"{line!r} caught by {offending(line)}"


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
