"""Memory refused up front (issue 26, finding 4): the whole run (state, workspaces,
factorizations by formulation and linear solver, outputs) is estimated from the model's items
before anything is allocated, for every formulation, statics and reduced models; a reduced
model's run checks every option of simulate as a full model's does."""
import importlib
import re
import tracemalloc

import numpy as np
import pytest

import rancf
simulate_module = importlib.import_module("rancf.simulate")

GIB = 2.0**30


def estimate_in(message):
    """The total estimate (bytes) a MemoryError names."""
    found = re.search(r"needs about ([\d.e+]+) GiB", str(message))
    assert found, message
    return float(found.group(1)) * GIB


def ten_million():
    """A chain of 2.5 million elements: 10,000,020 coordinates (4 per node, 5 beams of
    500,001 nodes), built by nobody yet."""
    return rancf.pendulum(n_bodies=5, elements_per_body=500_000)


@pytest.mark.parametrize("method, formulation", [
    ("rk4", "auto"), ("dopri5", "auto"), ("generalized-alpha", "recursive"),
    ("generalized-alpha", "dae"), ("backward-euler", "auto")])
def test_ten_million_coordinates_are_refused_before_the_build(method, formulation):
    """The MemoryError names an estimate at least the state's own size (positions and
    velocities, 8 bytes each, at every output: a lower bound counted here), and comes before the
    model is built (the build alone allocates gigabytes for this model)."""
    m = ten_million()
    n_x, n_out = 4 * 5 * 500_001, 102
    with pytest.raises(MemoryError, match="10,000,020 coordinates") as info:
        rancf.simulate(m, 1.0, 1e-3, method=method, formulation=formulation, max_memory=GIB)
    assert estimate_in(info.value) >= 8.0 * 2 * n_x * n_out
    assert "max_memory allows 1 GiB" in str(info.value)
    assert m._assembly is None           # nothing of it was built


def test_statics_of_ten_million_coordinates_is_refused_before_the_build(monkeypatch):
    """Statics has no max_memory: it is refused against the memory available (here said to be
    16 GiB), its estimate at least the sparse Newton matrix's nonzeros (a beam node's 4
    coordinates couple with its own and its neighbours' 12: 12 doubles per row)."""
    monkeypatch.setattr(simulate_module, "available_memory", lambda: 16 * GIB)
    m = ten_million()
    with pytest.raises(MemoryError, match="only 16 GiB are available") as info:
        rancf.static(m)
    assert estimate_in(info.value) >= 8.0 * 12 * 4 * 5 * 500_001
    assert m._assembly is None


@pytest.mark.parametrize("run", ["newmark", "static"])
def test_a_dense_dae_of_a_hundred_thousand_coordinates_is_refused(monkeypatch, run):
    """Its Newton matrix alone is n^2 doubles (80 GB): refused against max_memory, or the
    available memory (said to be 16 GiB), before the build."""
    monkeypatch.setattr(simulate_module, "available_memory", lambda: 16 * GIB)
    m = rancf.pendulum(n_bodies=1, elements_per_body=25_000)
    n_x = 4 * 25_001
    with pytest.raises(MemoryError, match="100,004 coordinates") as info:
        if run == "static":
            rancf.static(m, linear_solver="dense")
        else:
            rancf.simulate(m, 1.0, 1e-3, method=run, formulation="dae", linear_solver="dense",
                           max_memory=2**34)
    assert estimate_in(info.value) >= 8.0 * n_x**2
    assert m._assembly is None
    # the same model's sparse DAE needs O(n): it fits
    simulate_module.check_memory(1, 1, 2**34, simulate_module.workspace_memory(
        n_x, run, "dae", "sparse"))


@pytest.mark.parametrize("method, formulation, n_el, options", [
    ("rk4", "auto", 4000, {}), ("generalized-alpha", "recursive", 4000, {}),
    ("generalized-alpha", "dae", 4000, {}),
    ("generalized-alpha", "dae", 300, {"linear_solver": "dense"})])
def test_the_estimate_bounds_what_a_run_allocates(method, formulation, n_el, options):
    """The estimate against the peak of what the run allocates (tracemalloc, which numpy and
    SciPy report to), build included."""
    m = rancf.pendulum(n_bodies=1, elements_per_body=n_el, E=1e5)
    n_x, n_joints = simulate_module.coordinates(m)
    estimate = (simulate_module.workspace_memory(n_x, method, formulation,
                                                 options.get("linear_solver", "sparse"))
                + 2 * 8 * 4 * simulate_module.output_numbers(n_x, n_joints))
    tracemalloc.start()
    try:
        res = rancf.simulate(m, 2e-6, 1e-6, method=method, formulation=formulation,
                             output_every=1, **options)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.status == "ok" and len(res.t) == 3
    assert n_x == m.build().n_x
    assert peak <= estimate


@pytest.fixture(scope="module")
def reduced():
    m = rancf.Model(gravity=(0.0, -9.81), elastic_model="berzeri")
    b = m.add_beam(1.0, 10, E=7e5, rho=7200.0, A=4e-4, I=1.333e-8)
    m.add_joint("revolute", m.ground.point(0.0, 0.0), b.start)
    return rancf.reduce(m, sparsity=10, n_samples=20)


@pytest.mark.parametrize("option, value, error, name", [
    ("max_memory", 1, MemoryError, "max_memory allows"),
    ("max_memory", -1.0, ValueError, "max_memory"),
    ("rtol", -5, ValueError, "rtol"),
    ("atol", 0.0, ValueError, "atol"),
    ("max_displacement", -1, TypeError, "max_displacement"),
    ("check_stability", "nonsense", TypeError, "check_stability"),
    ("progress", "yes", ValueError, "progress")])
def test_a_reduced_model_checks_every_option_of_simulate(reduced, option, value, error, name):
    """As a full model's run does (the same messages), before it starts."""
    with pytest.raises(error, match=name):
        rancf.simulate(reduced, 0.01, 1e-3, method="backward-euler", **{option: value})
    full = reduced.model
    with pytest.raises(error, match=name):
        rancf.simulate(full, 0.01, 1e-3, method="backward-euler", **{option: value})


def test_a_reduced_model_runs_within_a_sufficient_max_memory(reduced):
    res = rancf.simulate(reduced, 0.01, 1e-3, method="backward-euler", max_memory=2**30)
    assert res.status == "ok" and np.all(np.isfinite(res.nodes))


def spatial_loop(n_elements):
    """A spatial beam of n_elements pinned at both ends (spherical joints): the second joint
    closes a loop, so ``simulate`` runs the spatial DAE (7 coordinates a body, a body a node)."""
    m = rancf.Model(dim=3, gravity=(0.0, 0.0, -9.81))
    r = 0.01
    A, I = np.pi * r**2, np.pi * r**4 / 4
    b = m.add_beam(1.0, n_elements, E=5e7, rho=1000.0, A=A, I=(I, I), J=2 * I, G=5e7 / 2.6,
                   direction=(1, 0, 0), up=(0, 0, 1))
    m.add_joint("spherical", m.ground.point(0, 0, 0), b.start)
    m.add_joint("spherical", m.ground.point(1, 0, 0), b.end)
    return m


@pytest.mark.parametrize("formulation", ["auto", "dae"])
def test_a_huge_spatial_loop_is_refused_before_the_build(formulation):
    """The spatial DAE of 100,001 bodies: refused against max_memory before its tree is built,
    the estimate at least the sparse Newton matrix's nonzeros (a body's 7 coordinates couple
    with its own and its two neighbours': 21 doubles per row) and the message naming the
    coordinates."""
    m = spatial_loop(100_000)
    n_x = 7 * 100_001
    with pytest.raises(MemoryError, match="spatial DAE.*700,007 coordinates") as info:
        rancf.simulate(m, 1.0, 1e-3, formulation=formulation, output_every=1000,
                       max_memory=2 * GIB)
    assert estimate_in(info.value) >= 8.0 * 21 * n_x
    assert m._assembly is None


def test_the_spatial_dae_estimate_bounds_what_a_run_allocates():
    """The estimate against the peak of what a spatial DAE run allocates (tracemalloc), its
    tree's build included."""
    m = spatial_loop(40)
    n_x = 7 * 41
    estimate = (8.0 * simulate_module.PER_COORDINATE["spatial dae"] * n_x
                + 2 * 8 * 3 * (18 * 41 + 3 * 6 + 8))
    tracemalloc.start()
    try:
        res = rancf.simulate(m, 2e-4, 1e-4, method="generalized-alpha-s", output_every=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.status == "ok" and len(res.t) == 3
    assert peak <= estimate
