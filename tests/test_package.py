"""The package as a user meets it before any model: what ``import rancf`` loads, and one
version number everywhere it is shown."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import rancf

ROOT = Path(__file__).resolve().parent.parent

#: Imports that ``import rancf`` must leave to the first call that needs them (each takes a
#: large part of a second or more): statistics (Latin-hypercube sampling of the reductor and
#: the sweeps), tables, the distributed scheduler, plotting.
HEAVY = ["matplotlib", "dask", "scipy.stats", "pandas"]


@pytest.fixture(scope="module")
def loaded_by_import():
    """The modules in ``sys.modules`` after ``import rancf`` in a fresh interpreter."""
    code = "import sys, json, rancf; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    return set(json.loads(out.stdout))


def test_fresh_interpreter_imports_this_rancf(loaded_by_import):
    # the check below means something only if the subprocess imported a rancf at all
    assert "rancf" in loaded_by_import and "rancf.simulate" in loaded_by_import


@pytest.mark.parametrize("module", HEAVY)
def test_import_rancf_leaves_heavy_modules(loaded_by_import, module):
    assert module not in loaded_by_import, f"import rancf imports {module}"


def test_one_version():
    """``rancf.__version__`` is the version: pyproject reads it (statically, as a build in a
    fresh environment must, before the extensions exist), and so do the docs and the report."""
    static = ("import sys, json, warnings; sys.modules['rancf'] = None\n"   # no import of rancf
              "warnings.simplefilter('ignore')\n"
              "from setuptools.config.pyprojecttoml import read_configuration\n"
              "print(json.dumps(read_configuration('pyproject.toml')['project']['version']))")
    shown = ("import json, runpy\n"
             "from validation.report import package_versions\n"
             "print(json.dumps([runpy.run_path('docs/conf.py')['release'], "
             "package_versions()['rancf']]))")
    versions = [json.loads(subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True,
                                          capture_output=True, text=True).stdout)
                for code in (static, shown)]
    pyproject, (docs, report) = versions
    assert (pyproject, docs, report) == (rancf.__version__,) * 3
