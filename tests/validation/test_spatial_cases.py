"""The spatial validation cases (validation/cases/spatial.py, peers3d.py) and the bend's solver
(validation/bend45.py)."""
import numpy as np

import rancf
from validation import bend45


def test_full_newton_finds_rancf_statics_equilibrium_where_both_converge():
    """At a tenth of the load rancf.static converges (the load stiffness is still small): the
    validation's full Newton on the same residual reaches the same equilibrium, to the two
    solvers' tolerance (1e-10 of the model's size on the increments)."""
    m, beam = bend45.model(8, force=60.0)
    res = rancf.static(m, load_steps=2)
    assert res.status == "ok", res.message
    q, iterations, problem = bend45.full_newton_static(m, load_steps=2)
    tip = bend45.node_positions(m, problem, q)[-1]
    np.testing.assert_allclose(tip, res.position(beam.end)[0], rtol=0, atol=1e-7)
    assert abs(tip[2]) > 1.0  # a deflection well beyond linear-small


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
    assert {"bend", "roll_up", "frequencies", "top"} <= set(outcome.tables)


def test_peers3d_reports_itself_skipped_without_exudyn(monkeypatch):
    from validation.cases import peers3d

    monkeypatch.setattr(peers3d, "exudyn_version", lambda: None)
    outcome = peers3d.CASE.run(True)
    assert outcome.skipped and "exudyn" in outcome.skipped
    assert peers3d.CASE.timed
