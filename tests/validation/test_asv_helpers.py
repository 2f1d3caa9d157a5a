"""The asv suite's helpers: what is skipped and what fails, and the benchmark states.

The suite itself runs in CI through ``asv check`` and ``asv run --quick`` (.ci/run); these
tests pin down the rule that decides between a skip (a commit older than the feature) and a
failure (a name missing where the feature exists, developer: Build and debug build), which a quick
asv run of the working tree cannot show.
"""
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import rancf
from rancf.elements import beam
from rancf.formulations import recursive
from rancf.formulations.dae import DAE

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "asv_benchmarks"))
from benchmarks import common, mechanisms  # noqa: E402


def git(*args):
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


MISSING = [("rancf.no_such_module",), ("rancf", "no_such_function"),
           ("rancf", "elements.beam.no_such_kernel")]


@pytest.mark.parametrize("names", MISSING)
def test_a_missing_name_is_a_skip_only_on_a_commit_older_than_the_feature(names, monkeypatch):
    # the first commit of the history has none of the suite's features
    monkeypatch.setenv("ASV_COMMIT", git("rev-list", "--max-parents=0", "HEAD").split()[0])
    with pytest.raises(NotImplementedError, match=names[-1]):
        common.require(*names)
    # HEAD has them, and so does the working tree (no ASV_COMMIT): a missing name fails
    monkeypatch.setenv("ASV_COMMIT", git("rev-parse", "HEAD"))
    with pytest.raises(common.MissingName, match=names[-1]):
        common.require(*names)
    monkeypatch.delenv("ASV_COMMIT")
    with pytest.raises(common.MissingName, match=names[-1]):
        common.require(*names)


def test_an_unknown_commit_or_feature_is_an_error(monkeypatch):
    monkeypatch.setenv("ASV_COMMIT", "0" * 40)
    with pytest.raises(RuntimeError, match="not a commit"):
        common.require("rancf", "no_such_function")
    with pytest.raises(ValueError, match="feature"):
        common.require("rancf", "no_such_function", feature="no-such-feature")


def test_found_names_are_returned():
    assert common.require("rancf") is rancf
    assert common.require("rancf", "simulate") is rancf.simulate
    assert common.require("rancf", "simulate", "elements.beam.mass_matrix") == \
        (rancf.simulate, beam.mass_matrix)


def test_broken_import_inside_an_existing_module_fails(tmp_path, monkeypatch):
    (tmp_path / "broken_feature.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_xyz"):
        common.require("broken_feature")


def test_pendulum_sizes():
    assert [n // common.DOF_PER_BODY for n in common.DOFS] == [5, 10, 20, 40, 455, 4545]
    assert recursive.of(common.pendulum(220).build()).n_dof == 220
    with pytest.raises(ValueError, match="n_dof"):
        common.pendulum(100)


def test_wavy_state_is_deformed_and_consistent():
    model = common.pendulum(110)
    state = common.wavy_state(model)
    A = model.build()
    # the joints hold in positions and velocities: both formulations accept the state
    recursive.of(A).initial_state(state.x, state.v)
    DAE(A).initial_state(state.x, state.v)
    # every element is stretched and bent: a straight element's energy would be zero
    nodes = state.x.reshape(-1, 4)
    energies = [beam.elastic_energy(np.concatenate([nodes[a], nodes[b]]), l, b_.E, b_.A, b_.I)
                for (a, b), l, b_ in zip(A.element_vertices, A.element_length,
                                         (model.beams[k] for k in A.element_beam))]
    assert min(energies) > 0.0
    assert np.abs(state.v).max() > 0.0


def test_arm_drive_rates_and_period():
    # rates against central differences; at rest at 0 and at WARM_UP
    h = 1e-6
    for t in (0.03, 0.11, 0.17):
        q, qd, qdd = mechanisms.arm_drive(t)
        assert qd == pytest.approx((mechanisms.arm_drive(t + h)[0]
                                    - mechanisms.arm_drive(t - h)[0]) / (2 * h), rel=1e-7)
        assert qdd == pytest.approx((mechanisms.arm_drive(t + h)[1]
                                     - mechanisms.arm_drive(t - h)[1]) / (2 * h), rel=1e-6)
    for t in (0.0, mechanisms.WARM_UP):
        assert np.allclose(mechanisms.arm_drive(t)[:2], 0.0, atol=1e-14)


def test_mechanism_states_start_the_runs_they_are_for():
    # the tree's warmed-up state is a valid start at t = 0 (the drive is periodic): the
    # recursion rebuilds the same coordinates and velocities from it at t = 0
    tree, state, _ = mechanisms.warm_tree(2)
    A = tree.build()
    assert A.recursive_reason is None and len(A.bodies) == 2
    assert any(j.driven for j in A.joints) and any(j.kind == "fixed" for j in A.joints)
    recursive.of(A).initial_state(state.x, state.v, t=0.0)
    assert np.abs(state.v).max() > 0.1
    # the four-bar is a closed loop: only the DAE runs it
    four_bar, state = mechanisms.warm_four_bar(4)
    A = four_bar.build()
    assert A.loop_joints and A.recursive_reason is not None
    DAE(A).initial_state(state.x, state.v)
    assert np.abs(state.v).max() > 0.1


@pytest.mark.parametrize("name", ["recursive.RightHandSide.time_rhs-0",
                                  "recursive.Accelerations.time_accelerations-0",
                                  "mechanisms.BranchedTreeRightHandSide.time_rhs-0",
                                  "spatial.RightHandSide.time_derivative-0"])
def test_a_batched_benchmark_sets_up_once_per_sample(name):
    """common.batch: run by asv's own runner (discovery, setup, run: what ``asv run`` does in
    its benchmark process), a sample is one timed call of ``calls`` calls, with setup before
    it and not between the calls (asv_runner 0.3 re-runs setup between the ``number`` calls
    of a benchmark with a setup), and the samples are seconds per call: one sample's wall time
    over ``calls``, checked against the same calls timed here."""
    discovery = pytest.importorskip("asv_runner.discovery")
    bench = discovery.get_benchmark_from_name(
        str(REPO / "asv_benchmarks" / "benchmarks"), name,
        extra_params={"repeat": 3, "warmup_time": 0.0})
    setups = []
    bench._setups = [lambda *a, _s=s: setups.append(_s(*a)) for s in bench._setups]
    bench.do_setup()
    result = bench.do_run()
    instance = bench._attr_sources[2]     # [ExtraBenchmarkAttrs, method, instance, module]
    calls = len(instance.calls)
    assert result["number"] == 1 and calls > 1
    # the first setup, then one before each sample but the first
    assert len(setups) == len(result["samples"]), (len(setups), result)
    start = time.perf_counter()
    bench.func(*bench._current_params)
    one_sample = (time.perf_counter() - start) / calls
    # a loaded machine: within a factor 10 of a batch timed here, not a factor calls (~1e3)
    assert one_sample / 10 < min(result["samples"]) < 10 * one_sample, (one_sample, result)
