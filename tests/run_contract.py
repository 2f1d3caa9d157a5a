"""The contract every finished run keeps, whatever the model (the property tests' (b), planar
tests/test_properties.py and spatial tests/test_spatial_properties.py)."""
import numpy as np
import pytest


def check_status(res, t_end):
    """Status "ok" with results at t_end (a message only where implicit steps were cut, saying
    so), or "diverged"/"failed" with a message and the outputs before; whatever the status,
    the outputs kept are finite."""
    assert res.status in ("ok", "diverged", "failed"), (res.status, res.message)
    assert len(res.t) >= 1 and res.t[0] == 0.0
    if res.status == "ok":
        # an implicit run whose steps were cut where Newton failed says so (and nothing else)
        assert res.message == "" or (res.stats.get("step_cuts", 0) > 0
                                     and res.message.startswith("steps cut ")), res.message
        assert res.t[-1] == pytest.approx(t_end, rel=1e-9)
    else:
        assert isinstance(res.message, str) and res.message
    for a in (res.nodes, res.velocities, res.joint_q, res.joint_qd, res.reactions, res.work,
              res.dissipated, res.energy().to_numpy()):
        assert np.all(np.isfinite(a)), res.message


def simulate_or_refused(model, t_end, dt, method, formulation, output_every):
    """``rancf.simulate``'s Result, or None where an RK4 step beyond the stability limit was
    refused before the run (the only refusal a drawn run may meet: a ValueError naming dt)."""
    from hypothesis import event

    import rancf
    try:
        return rancf.simulate(model, t_end, dt, method=method, formulation=formulation,
                              output_every=output_every)
    except ValueError as exc:
        assert method == "rk4" and "dt" in str(exc) and "stability limit" in str(exc), exc
        event("rk4: refused (stability limit)")
        return None
