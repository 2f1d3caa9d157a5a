"""The documentation's code runs as written: the Examples sections of every public module's
docstrings (doctest, with ``rancf`` and ``np`` in the namespace, as the API reference says) and
the code blocks of the getting-started page, in order, in one namespace. The results they print
are checked by doctest against the text; the expected values are independent of the code under
test (closed forms, scipy, the elastica) where the docstrings say so."""
import doctest
import importlib
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rancf  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The modules whose docstrings the API reference renders.
MODULES = ["rancf.model.model", "rancf.model.items", "rancf.model.joints", "rancf.model.state",
           "rancf.results.result", "rancf.results.files", "rancf.simulate",
           "rancf.integrators.static", "rancf.integrators.solution",
           "rancf.formulations.reduced.reductor", "rancf.sweep", "rancf.results.plotting",
           "rancf.elements.beam", "rancf.elements.rigid", "rancf.elements.planar", "rancf.integrators.implicit",
           "rancf.formulations.problem", "rancf.integrators._implicit", "rancf.errors"]


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
