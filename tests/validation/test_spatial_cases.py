"""The spatial validation cases (validation/cases/spatial.py, peers3d.py, spatial_loops.py) and
the bend's model (validation/bend45.py)."""
import numpy as np

from validation import bend45


def test_bend_geometry_has_the_reference_signs():
    """At 8 elements the tip moves back, inwards and up, as DESIGN.md's prototype's did; the
    undeformed tip lies on the arc's end."""
    points, tangents = bend45.arc(8)
    np.testing.assert_allclose(points[-1], bend45.TIP0, atol=1e-12)
    tip = bend45.solve(8)["tip"]
    assert np.all(np.sign(tip) == np.sign(bend45.PROTOTYPE[8]))


def test_spatial_case_passes():
    from validation.cases import spatial

    outcome = spatial.CASE.run(True)
    failing = [c for c in outcome.checks if c.fails_run]
    assert not failing, failing
    assert {"bend", "roll_up", "frequencies", "top", "cable_pendulum"} <= set(outcome.tables)


def test_peers3d_reports_itself_skipped_without_exudyn(monkeypatch):
    from validation.cases import peers3d

    monkeypatch.setattr(peers3d, "exudyn_version", lambda: None)
    outcome = peers3d.CASE.run(True)
    assert outcome.skipped and "exudyn" in outcome.skipped
    assert peers3d.CASE.timed


def test_spatial_loops_case_passes():
    """The four-bar case's checks (their values are those of tests/test_spatial_loops.py, which
    tests them against the same closed form and balance) all pass, its tables are there."""
    from validation.cases import spatial_loops

    outcome = spatial_loops.CASE.run(True)
    assert len(outcome.checks) == 6 and not [c for c in outcome.checks if c.fails_run]
    assert {"steel_four_bar", "rigid_four_bar"} <= set(outcome.tables)


def test_spatial_dae_case_passes():
    """The recursion-against-DAE case: a check for accelerations and one for reactions on each
    family of trees, one order check per implicit scheme, all passing (the same models and
    limits as tests/test_spatial_dae.py, which asserts them too), its tables there."""
    from validation.cases import spatial_dae

    outcome = spatial_dae.CASE.run(True)
    assert len(outcome.checks) == 4 + len(spatial_dae.SCHEMES)
    assert not [c for c in outcome.checks if c.fails_run]
    assert {"accelerations", "trajectories"} <= set(outcome.tables)
