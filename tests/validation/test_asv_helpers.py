"""The asv suite's helpers: what is skipped and what fails, and the benchmark state.

The suite itself runs in CI through ``asv check`` and ``asv run --quick`` (.ci/run); these
tests pin down the rule that decides between a skip (feature not in the commit) and a
failure (a broken feature), which a quick asv run cannot show.
"""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "asv_benchmarks"))
from benchmarks import common  # noqa: E402


def test_missing_submodule_or_attribute_is_a_skip():
    with pytest.raises(NotImplementedError, match="rancf.no_such_module"):
        common.require("rancf.no_such_module")
    with pytest.raises(NotImplementedError, match="rancf.no_such_function"):
        common.require("rancf", "no_such_function")
    with pytest.raises(NotImplementedError, match="element.no_such_kernel"):
        common.require("rancf", "element.no_such_kernel")


def test_found_names_are_returned():
    import rancf
    assert common.require("rancf") is rancf
    assert common.require("rancf", "simulate") is rancf.simulate
    assert common.require("rancf", "simulate", "element.mass_matrix") == \
        (rancf.simulate, rancf.element.mass_matrix)


def test_broken_import_inside_an_existing_module_fails(tmp_path, monkeypatch):
    (tmp_path / "broken_feature.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_xyz"):
        common.require("broken_feature")


def test_pendulum_sizes():
    assert [n // common.DOF_PER_BODY for n in common.DOFS] == [5, 10, 20, 40, 455, 4545]
    assert common.pendulum(220).n_dof == 220
    with pytest.raises(ValueError, match="n_dof"):
        common.pendulum(100)


def test_wavy_state_is_deformed_and_consistent():
    import rancf
    chain = common.pendulum(110)
    state = common.wavy_state(chain)
    # joint copies share their position: the state passes the chain's own checks
    chain.state(state.nodes, state.beta)
    # every element is stretched and bent: a straight element's energy would be zero
    energies = [rancf.element.elastic_energy(
        np.concatenate([state.nodes[a], state.nodes[b]]), l, chain.bodies[0].E,
        chain.bodies[0].A, chain.bodies[0].I, "shabana")
        for (a, b), l in zip(chain.element_nodes, chain.element_length)]
    assert min(energies) > 0.0
    assert np.abs(state.beta).max() > 0.0
