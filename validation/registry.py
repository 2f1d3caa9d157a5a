"""Find the reference cases: every ``validation/cases/*.py`` that defines ``CASE``.

Registering a case needs no edit here: dropping a module into ``validation/cases/`` is enough.
A module that fails to import is not hidden: it is returned as a :class:`Broken` entry, which
the runner reports as an error with its traceback.
"""
from __future__ import annotations

import importlib
import traceback
from dataclasses import dataclass
from pathlib import Path

from validation.case import Case

CASES_DIR = Path(__file__).resolve().parent / "cases"


@dataclass
class Broken:
    """A case module that could not be imported (or has no valid ``CASE``)."""

    name: str
    module: str
    traceback: str
    default: bool = True
    title: str = "(module failed to import)"
    claim: str = ""


def case_name(module_stem: str) -> str:
    """The case name a module stands for: ``rigid_limit`` -> ``rigid-limit``."""
    return module_stem.replace("_", "-")


def discover(cases_dir: Path = CASES_DIR) -> dict[str, Case | Broken]:
    """Import every case module and return ``{name: Case or Broken}`` sorted by file name."""
    found: dict[str, Case | Broken] = {}
    for path in sorted(cases_dir.glob("*.py")):
        if path.stem.startswith("_"):
            continue
        module = f"validation.cases.{path.stem}"
        try:
            case = importlib.import_module(module).CASE
            if not isinstance(case, Case):
                raise TypeError(f"{module}.CASE is a {type(case).__name__}, not a validation.case.Case")
        except Exception:  # a broken case must not hide the others
            found[case_name(path.stem)] = Broken(case_name(path.stem), module, traceback.format_exc())
            continue
        found[case.name] = case
    return found
