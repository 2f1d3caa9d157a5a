"""The documentation's code runs as written: the Examples sections of every public module's
docstrings (doctest, with ``rancf`` and ``np`` in the namespace, as the API reference says) and
the code blocks of the getting-started page, in order, in one namespace. The results they print
are checked by doctest against the text; the expected values are independent of the code under
test (closed forms, scipy, the elastica) where the docstrings say so.

Two checks guard what Sphinx's ``-W`` lets through because it is valid reST: a directive
written so that it renders as text (``==.. list-table::`` became a nested list, a page's
table lost), and a gallery figure with an empty panel (an axes drawn on in a later cell than
the one that made the figure: sphinx-gallery saves and closes every figure at the end of its
cell)."""
import ast
import doctest
import importlib
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from scipy.optimize import brentq  # noqa: E402

from docutils import nodes  # noqa: E402
from docutils.core import publish_doctree  # noqa: E402

import rancf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The modules whose docstrings the API reference renders.
MODULES = ["rancf.model.model", "rancf.model.items", "rancf.model.joints", "rancf.model.state",
           "rancf.results.result", "rancf.results.files", "rancf.simulate",
           "rancf.integrators.static", "rancf.integrators.solution",
           "rancf.formulations.reduced.reductor", "rancf.studies.sweep", "rancf.results.plotting",
           "rancf.elements.beam", "rancf.elements.rigid", "rancf.elements.planar", "rancf.integrators.implicit",
           "rancf.formulations.problem", "rancf.integrators._implicit", "rancf.utilities.errors",
           "rancf.elements.spatial_beam", "rancf.elements.ancf_cable", "rancf.elements.hermite",
           "rancf.studies.vibration"]


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)     # examples that write files write here
    yield
    plt.close("all")


@pytest.mark.filterwarnings("ignore:Animation was deleted")
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name, globs={"rancf": rancf, "np": np})
             if t.examples]
    assert tests, f"{name} has no examples"
    for test in tests:
        runner.run(test)
    failed, attempted = runner.summarize(verbose=False)
    assert failed == 0, f"{failed} of {attempted} examples of {name} failed (doctest output above)"


def test_getting_started_runs():
    text = (ROOT / "docs" / "getting_started.rst").read_text()
    blocks = re.findall(r"\.\. code-block:: python\n\n(.*?)(?=\n\S)", text, re.S)
    assert len(blocks) >= 3
    namespace = {}
    for i, block in enumerate(blocks):
        code = "\n".join(line[3:] for line in block.splitlines())
        exec(compile(code, f"getting_started.rst python block {i}", "exec"), namespace)
    res = namespace["res"]
    assert res.status == "ok" and len(res.t) == 401      # as the page's comment says
    assert Path("pendulum.gif").stat().st_size > 0


def _python_blocks(page):
    """The ``.. code-block:: python`` blocks of a page under docs/, dedented, in order."""
    text = (ROOT / "docs" / page).read_text()
    blocks = re.findall(r"\.\. code-block:: python\n\n(.*?)(?=\n\S)", text, re.S)
    return ["\n".join(line[3:] for line in block.splitlines()) for block in blocks]


def test_spatial_guide_runs(capsys):
    """The spatial page's blocks run in order, in one namespace, and what their comments say
    holds against something independent: the arc length of a quarter circle, the node frame
    of the page's rule (y = up, z = x cross y), the hub's angular velocity from its drive, the
    refusal of a step beyond RK4's limit, the shear-rotation frequency sqrt(k G A /
    (rho I_y)) of the arm within 5 % above the model's estimated highest frequency (a lower
    bound), and the rest angle of the spring-held ball joint (the root of its moment
    balance)."""
    blocks = _python_blocks("user_guide/spatial.rst")
    assert len(blocks) >= 8
    namespace = {}
    for i, code in enumerate(blocks):
        exec(compile(code, f"user_guide/spatial.rst python block {i}", "exec"), namespace)
    ns = namespace
    res, printed = ns["res"], capsys.readouterr().out
    assert res.status == "ok" and len(res.t) == 101, res.message
    assert ns["whisker"].length == pytest.approx(np.pi * 0.2 / 2, rel=1e-12)
    np.testing.assert_allclose(ns["arm"].frames[0], [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
                               atol=1e-15)
    np.testing.assert_allclose(ns["res"].angular_velocity(ns["hub"].centre),
                               np.outer(4.0 * res.t, [0.0, 0.0, 1.0]), atol=1e-9)
    refused = re.search(r"stability limit ([\d.e+-]+) s .*?>= ([\d.e+-]+) rad/s", printed)
    assert refused, printed
    limit, omega = float(refused.group(1)), float(refused.group(2))
    assert limit < 1e-4 and limit == pytest.approx(2 * np.sqrt(2) / omega, rel=1e-2)
    shear_rotation = np.sqrt(5 / 6 * ns["G"] * 6e-4 / (ns["rho"] * 2e-8))
    assert 1.0 <= shear_rotation / omega <= 1.05
    assert ns["reaction"].shape == (101, 6) and ns["q"].shape == (101, 2)
    e = ns["energy"]          # a drive and a load: their work closes the balance
    assert e.work.abs().max() > 0.1
    assert np.abs(e.total - e.total.iloc[0]).max() < 1e-6 * e.work.abs().max()
    # the ball-jointed rod settles where its spring holds the weight's moment (root by brentq)
    sag = brentq(lambda a: 20.0 * a - 9.81 * 0.3 * np.cos(a), 0.0, 1.0)
    np.testing.assert_allclose(ns["q_ball"][-1], [0.0, sag, 0.0], atol=1e-4)
    assert ns["sections"].shape == (101, 6, 6)
    np.testing.assert_array_equal(ns["root"], ns["sections"][:, 0])


@pytest.mark.filterwarnings("ignore:Animation was deleted")
@pytest.mark.parametrize("page", ["model", "results", "statics"])
def test_user_guide_page_runs(page):
    """The blocks of the guide's pages that no other test runs (the README's test runs the
    tour, sweeps, implicit and reduction pages) run in order, in one namespace with ``rancf``
    and ``np`` (the guide's convention, the model page's first block), each run they leave
    finished; and what their comments state holds against the closed forms: the cantilever's
    ``M(s) = -P (L - s)`` and ``Q = -P`` (results) and the driven arm's torque at rest at its
    equilibrium, its weight's moment ``rho A g L^2 / 2`` (statics)."""
    namespace = {"rancf": rancf, "np": np}
    for i, code in enumerate(_python_blocks(f"user_guide/{page}.rst")):
        exec(compile(code, f"user_guide/{page}.rst python block {i}", "exec"), namespace)
        for name, value in namespace.items():
            if isinstance(value, rancf.Result):
                assert value.status == "ok", f"block {i}: {name}: {value.message}"
    if page == "results":
        np.testing.assert_allclose(namespace["M"], [-200.0, -100.0], rtol=1e-6)
        np.testing.assert_allclose(namespace["Q"], [-100.0, -100.0], rtol=1e-6)
    if page == "statics":
        torque = namespace["res"].reaction(namespace["motor"], "torque")[0]
        assert torque == pytest.approx(2700.0 * 1e-4 * 9.81 / 2, rel=1e-3)


# --- citations of the theory and developer pages ---------------------------------------------
#: A citation in code, ``(theory: Title)``, ``; theory: Title``, ``see theory: Title``, of
#: either page (docs/developer.rst, "Citing the documentation in code").
CITATION = re.compile(r"(?:\(|;\s|,\s|see\s)(theory|developer):\s+(.{1,120})")
#: A citation of the project's working notes, which do not ship (``DESIGN.md 7``, ``DESIGN
#: section 7``, ``DECISIONS 32``): what a reader needs of them is in the theory and developer
#: pages, cited by section.
UNSHIPPED = re.compile(r"\b(?:DESIGN|DECISIONS)(?:\.md)?\b")


def _headings(page):
    """The section titles of a page under docs/ (a line underlined by - ~ = or ^)."""
    lines = (ROOT / "docs" / page).read_text().splitlines()
    return {a.strip() for a, b in zip(lines, lines[1:])
            if a.strip() and b and set(b) <= set("-~=^") and len(b) >= len(a.strip())}


def test_citations_name_existing_sections():
    """Every ``(theory: ...)`` and ``(developer: ...)`` citation in the code and the tests
    names a section title of that page (a citation may wrap over lines and comment marks), and
    the package cites no file that does not ship with it (DESIGN.md, DECISIONS.md)."""
    titles = {page: _headings(f"{page}.rst") for page in ("theory", "developer")}
    files = [p for folder in ("rancf", "tests", "validation") if (ROOT / folder).exists()
             for p in (ROOT / folder).rglob("*") if p.suffix in (".py", ".pyx", ".pxd")
             and p != Path(__file__).resolve()]      # this file writes the form, not a citation
    missing = []
    for path in files:
        # joined as one line: a title may wrap, a comment's "#" and indentation dropped
        text = re.sub(r"\s*\n\s*#?\s*", " ", path.read_text())
        for page, cited in CITATION.findall(text):
            if not any(cited.startswith(title) for title in titles[page]):
                missing.append(f"{path.relative_to(ROOT)}: ({page}: {cited[:60]}...)")
        if path.is_relative_to(ROOT / "rancf"):
            missing += [f"{path.relative_to(ROOT)}: {m.group(0)} (not shipped: cite the docs)"
                        for m in UNSHIPPED.finditer(text)]
    assert not missing, ("citations of sections or files that do not exist:\n"
                         + "\n".join(missing))


# --- reST that renders as text --------------------------------------------------------------
#: A directive's opening (``.. name::``, ``.. domain:name::``, with or without the space).
DIRECTIVE = re.compile(r"\.\.\s*[A-Za-z][\w-]*(?::[\w-]+)?::")
#: Nodes whose text is not prose: code, comments, and docutils' reports of the Sphinx roles
#: and directives it does not know (Sphinx renders those; ``-W`` catches their errors).
NOT_PROSE = (nodes.literal, nodes.literal_block, nodes.doctest_block, nodes.comment,
             nodes.raw, nodes.system_message, nodes.problematic)
EXAMPLES = sorted((ROOT / "examples").glob("plot_*.py"))
#: sphinx-gallery's cell separator.
CELL = re.compile(r"^# %%.*$", re.M)


def _prose(node):
    """The text nodes of a doctree that a reader sees as prose."""
    if isinstance(node, NOT_PROSE):
        return []
    if isinstance(node, nodes.Text):
        return [str(node)]
    return [text for child in node.children for text in _prose(child)]


def _example_text(path):
    """The reST of a gallery example: its docstring and the comment blocks of its cells."""
    source = path.read_text()
    blocks = [ast.get_docstring(ast.parse(source))]
    for cell in CELL.split(source)[1:]:
        lines = []
        for line in cell.lstrip("\n").splitlines():
            if not line.startswith("#"):
                break
            lines.append(line[2:])
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


RST = sorted(p for p in (ROOT / "docs").rglob("*.rst")
             if not {"_templates", "generated", "auto_examples", "_build"} & set(p.parts))


@pytest.mark.parametrize("path", RST + EXAMPLES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_directive_rendered_as_text(path):
    text = _example_text(path) if path.suffix == ".py" else path.read_text()
    tree = publish_doctree(text, source_path=str(path),
                           settings_overrides={"report_level": 5, "halt_level": 5,
                                               "file_insertion_enabled": False})
    prose = _prose(tree)
    assert prose, f"{path} parsed to no text"
    stray = [s for s in prose if DIRECTIVE.search(s)]
    assert not stray, (f"{path.relative_to(ROOT)}: a directive renders as text (a character "
                       f"before its '..', or no blank line above it): {stray}")


# --- gallery figures without empty panels ---------------------------------------------------
#: Calls that return axes.
AXES_MAKERS = {"subplots", "subplot", "add_subplot", "add_axes", "gca", "twinx", "twiny",
               "subplot_mosaic", "inset_axes"}


def _names(target):
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for element in target.elts for n in _names(element)]
    return []


def _axes_bound(cell):
    """Names a cell binds to axes (``fig, (ax1, ax2) = plt.subplots(...)``, ``ax = ...gca()``)."""
    bound = set()
    for node in ast.walk(cell):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        func = node.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name not in AXES_MAKERS:
            continue
        for target in node.targets:
            if name in ("subplots", "subplot_mosaic") and isinstance(target, (ast.Tuple, ast.List)):
                bound.update(n for element in target.elts[1:] for n in _names(element))
            else:
                bound.update(_names(target))
    return bound


def _assigned(cell):
    return {n for node in ast.walk(cell) if isinstance(node, (ast.Assign, ast.For))
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
            for n in _names(target)}


def _loaded(cell):
    return {node.id for node in ast.walk(cell)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_gallery_axes_filled_in_their_cell(path):
    """Every axes an example makes is used in the cell that makes it and in no later cell.

    A structural check (the examples' runs take minutes, the parameter study alone several):
    sphinx-gallery saves and closes the figures at the end of each cell, so an axes first
    drawn in a later cell is an empty panel on the page, and an axes not used in its cell
    is empty too."""
    cells = [ast.parse(cell) for cell in CELL.split(path.read_text())]
    made = {}                                   # axes name -> index of the cell that made it
    for i, cell in enumerate(cells):
        loaded = _loaded(cell)
        late = {n for n in loaded & made.keys() if n not in _assigned(cell)}
        assert not late, (f"{path.name}: cell {i} draws on {sorted(late)}, made in cell "
                          f"{[made[n] for n in sorted(late)]}: that figure is already saved "
                          "and closed; draw in the cell that makes the figure")
        new = _axes_bound(cell)
        unused = new - loaded
        assert not unused, f"{path.name}: cell {i} makes axes {sorted(unused)} and never uses them"
        made = {n: c for n, c in made.items() if n not in _assigned(cell)} | dict.fromkeys(new, i)
