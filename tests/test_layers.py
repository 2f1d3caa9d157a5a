"""The folders of rancf/ are layers, and data flows one way: read from the code's own imports
(ast for Python, the ``import``/``cimport`` lines of Cython), no module imports a layer above its
own; and only the results layer makes a Result."""
import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "rancf"

#: Layers bottom to top; a module's layer is the first prefix of its dotted name listed here.
LAYERS = [
    ("utilities", ("rancf.utilities",)),
    ("elements", ("rancf.elements", "rancf.joints")),
    ("model", ("rancf.model",)),
    ("formulations", ("rancf.formulations",)),
    ("integrators", ("rancf.integrators",)),
    ("results", ("rancf.results",)),
    ("studies", ("rancf.studies",)),
    ("api", ("rancf.simulate", "rancf.starts")),
]
RANK = {name: k for k, (name, _) in enumerate(LAYERS)}

def layer(module):
    """The layer of a dotted module name of rancf (None for a module outside rancf)."""
    if module == "rancf":
        return "api"            # the package's __init__: the public names
    if not module.startswith("rancf."):
        return None
    for name, prefixes in LAYERS:
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return name
    raise AssertionError(f"{module} is in no layer: add it to LAYERS")


def module_name(path):
    """``rancf/a/b.py`` -> ``rancf.a.b``; a package's ``__init__`` is the package."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(module, is_package, level, target):
    """The absolute name of ``from <level dots><target> import ...`` in ``module``."""
    if not level:
        return target
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def python_imports(source, module, is_package):
    """The rancf modules a Python source imports (anywhere in it, functions included).
    ``from X import y`` imports the submodule ``X.y`` where there is one (``from .. import
    checks``), else a name of X."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = resolve(module, is_package, node.level, node.module)
            found.update(f"{base}.{alias.name}" if submodule_exists(f"{base}.{alias.name}")
                         else base for alias in node.names)
    return {m for m in found if m == "rancf" or m.startswith("rancf.")}


_FROM = re.compile(r"^\s*from\s+(\.*[\w.]*)\s+c?import\s+\(?([^)#\n]*)", re.M)
_IMPORT = re.compile(r"^\s*c?import\s+([\w.]+)", re.M)


def cython_imports(source, module, is_package):
    """The rancf modules a Cython source (.pyx, .pxd) imports or cimports (as
    :func:`python_imports`; the names of a parenthesised import are read on its first line)."""
    found = {m for m in _IMPORT.findall(source)}
    for target, names in _FROM.findall(source):
        level = len(target) - len(target.lstrip("."))
        base = resolve(module, is_package, level, target.lstrip("."))
        for name in (n.split(" as ")[0].strip() for n in names.split(",")):
            found.add(f"{base}.{name}" if name and submodule_exists(f"{base}.{name}") else base)
    return {m for m in found if m == "rancf" or m.startswith("rancf.")}


def submodule_exists(name):
    path = PACKAGE.parent.joinpath(*name.split("."))
    return any(path.with_suffix(s).exists() for s in (".py", ".pyx", ".pxd")) or \
        (path / "__init__.py").exists()


def imports_of(path):
    module = module_name(path)
    is_package = path.stem == "__init__"
    source = path.read_text()
    if path.suffix == ".py":
        return module, python_imports(source, module, is_package)
    return module, cython_imports(source, module, is_package)


def upward(module, imported):
    """The imports of ``module`` that go to a higher layer."""
    own = RANK[layer(module)]
    return sorted(m for m in imported
                  if layer(m) is not None and RANK[layer(m)] > own)


def sources():
    return sorted(p for s in ("*.py", "*.pyx", "*.pxd") for p in PACKAGE.rglob(s))


def test_the_layers_find_every_module():
    assert len(sources()) > 40
    for path in sources():
        assert layer(module_name(path)) is not None


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_no_module_imports_a_layer_above_its_own(path):
    module, imported = imports_of(path)
    assert not upward(module, imported), f"{module} imports {upward(module, imported)}"


@pytest.mark.parametrize("source, module, is_package, suffix, expected", [
    # a formulation that builds a Result: formulations < results
    ("from ...results import Result\n", "rancf.formulations.reduced.reductor", False, ".py",
     ["rancf.results"]),
    # inside a function, absolute
    ("def f():\n    import rancf.simulate\n", "rancf.integrators.static", False, ".py",
     ["rancf.simulate"]),
    # from a package's __init__, relative, naming a submodule
    ("from ..integrators import explicit\n", "rancf.formulations", True, ".py",
     ["rancf.integrators.explicit"]),
    # a name of the top-level package from a lower layer
    ("from .. import simulate\n", "rancf.results.result", False, ".py", ["rancf.simulate"]),
    ("from .. import Result\n", "rancf.model.model", False, ".py", ["rancf"]),
    # the explicit loop cimporting a formulation is fine; a kernel cimporting the loop is not
    ("from rancf.integrators._interrupt cimport Watch\n", "rancf.formulations._recursive",
     False, ".pyx", ["rancf.integrators._interrupt"]),
    ("cimport rancf.results\n", "rancf.model.assembly", False, ".pxd", ["rancf.results"]),
])
def test_an_import_going_up_is_found(source, module, is_package, suffix, expected):
    """The checker on synthetic sources: each has one import into a higher layer."""
    read = python_imports if suffix == ".py" else cython_imports
    assert upward(module, read(source, module, is_package)) == expected


def test_an_import_going_down_is_not_reported():
    source = ("from ..formulations._problem cimport ODEProblem\nfrom ..utilities import checks\n"
              "import numpy as np\n")
    assert upward("rancf.integrators._explicit",
                  cython_imports(source, "rancf.integrators._explicit", False)) == []
    assert upward("rancf.results.files",
                  python_imports("from ..model.model import Model\n", "rancf.results.files",
                                 False)) == []


def result_constructions(source):
    """Line numbers of calls ``Result(...)`` (by that name or as an attribute) in a source."""
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and (
                (isinstance(node.func, ast.Name) and node.func.id == "Result")
                or (isinstance(node.func, ast.Attribute) and node.func.attr == "Result"))]


def test_only_the_results_layer_makes_a_result():
    makers = {module_name(p): result_constructions(p.read_text())
              for p in PACKAGE.rglob("*.py")}
    outside = {m: lines for m, lines in makers.items() if lines and layer(m) != "results"}
    assert not outside, f"Result constructed outside rancf.results: {outside}"
    # one constructor path: results.result.built, which rancf.load takes too
    assert {m: len(lines) for m, lines in makers.items() if lines} == {"rancf.results.result": 1}
    for path in PACKAGE.rglob("*.pyx"):
        assert not re.search(r"\bResult\(", path.read_text()), path


def test_a_result_made_elsewhere_is_found():
    assert result_constructions("from rancf.results import result\nr = result.Result(m, t)\n")
    assert result_constructions("r = Result(m, t, nodes)\n") == [1]
    assert not result_constructions("r = result_of(m, solution)\n")


def test_the_explicit_loop_knows_only_the_ode_contract():
    """The compiled explicit loop runs any formulation: of the formulations it cimports only the
    contract (not a kernel and its layout)."""
    path = PACKAGE / "integrators" / "_explicit.pyx"
    module, imported = imports_of(path)
    assert {m for m in imported if layer(m) == "formulations"} == {"rancf.formulations._problem"}


def test_the_checker_finds_what_the_layers_forbade_before():
    """The modules as they were before the layers: the reductor's and the static solver's
    Result, the explicit loop's cimport of the recursive kernel."""
    reductor = python_imports("from ...results.result import Result\n",
                              "rancf.formulations.reduced.reductor", False)
    assert upward("rancf.formulations.reduced.reductor", reductor) == ["rancf.results.result"]
    loop = cython_imports("from rancf.formulations._recursive cimport Tree, RecursiveKernel, rhs\n",
                          "rancf.integrators._explicit", False)
    assert loop == {"rancf.formulations._recursive"}
    # the rule of test_the_explicit_loop_knows_only_the_ode_contract refuses that cimport
    assert {m for m in loop if layer(m) == "formulations"} != {"rancf.formulations._problem"}


def test_an_assembly_that_has_run_holds_no_formulation():
    """The recursive formulation of a model is cached by the formulations layer, not on the
    model's assembly: after a run nothing in the assembly's attributes comes from
    rancf.formulations or rancf.integrators."""
    import rancf
    m = rancf.pendulum(n_bodies=2, elements_per_body=2)
    rancf.simulate(m, 0.01, 1e-3)
    rancf.simulate(m, 0.01, 1e-3, method="generalized-alpha", formulation="dae")
    held = [type(v).__module__ for v in vars(m.build()).values()]
    assert not [h for h in held if layer(h) in ("formulations", "integrators")], held


def test_the_formulation_cache_lets_a_model_go():
    """The cache keeps the last few assemblies run, no more: a model run and dropped is freed
    once as many others have run after it (a weak-key cache would keep it for ever, since the
    formulation reaches its assembly through the joints' items and their model)."""
    import gc
    import weakref

    import rancf
    from rancf.formulations import recursive
    m = rancf.pendulum(n_bodies=1, elements_per_body=2)
    rancf.simulate(m, 0.01, 1e-3)
    gone = weakref.ref(m.build())
    del m
    for _ in range(recursive.CACHE_SIZE):
        rancf.simulate(rancf.pendulum(n_bodies=1, elements_per_body=2), 0.01, 1e-3)
    gc.collect()
    assert gone() is None
