"""What ``rancf.simulate`` chooses for the user: ``method="auto"`` (RK4 within its stability
limit, generalized-alpha beyond it) and ``state="static"`` (the run starts from the static
equilibrium instead of the unstressed reference shape)."""
import math

import numpy as np
import pytest
from scipy.linalg import eigh

import rancf

#: RK4's stability region reaches 2 sqrt(2) along the imaginary axis: an undamped mode of
#: frequency omega is stable for dt <= 2 sqrt(2) / omega.
RK4_IMAGINARY_LIMIT = 2.0 * math.sqrt(2.0)


def pinned_beam_frequency(model):
    """The highest natural frequency (rad/s) of a model of one beam pinned at its start, at its
    straight unstressed reference: the dense generalized eigenproblem ``K v = omega^2 M v`` of
    the element stiffness and mass matrices assembled by hand, the start node's position held
    (a pin leaves its slope free). Independent of the formulation's power iteration."""
    (b,) = model.beams
    n, l = b.n_elements, b.length / b.n_elements
    e = np.array([0.0, 0.0, 1.0, 0.0, l, 0.0, 1.0, 0.0])
    Ke = rancf.elements.beam.tangent_stiffness(e, l, b.E, b.A, b.I, model.elastic_model)
    Me = rancf.elements.beam.mass_matrix(b.rho, b.A, l)
    K, M = np.zeros((4 * n + 4,) * 2), np.zeros((4 * n + 4,) * 2)
    for k in range(n):
        K[4 * k:4 * k + 8, 4 * k:4 * k + 8] += Ke
        M[4 * k:4 * k + 8, 4 * k:4 * k + 8] += Me
    return float(np.sqrt(eigh(K[2:, 2:], M[2:, 2:], eigvals_only=True).max()))


def test_auto_takes_rk4_within_its_limit_and_generalized_alpha_beyond():
    dt, t_end = 2e-4, 0.02
    soft = rancf.pendulum(n_bodies=1, elements_per_body=5, body_length=5.0, E=21e6)
    stiff = rancf.pendulum(n_bodies=1, elements_per_body=5, body_length=5.0, E=2.1e11)
    soft_limit = RK4_IMAGINARY_LIMIT / pinned_beam_frequency(soft)
    stiff_limit = RK4_IMAGINARY_LIMIT / pinned_beam_frequency(stiff)
    # the step is well within the soft pendulum's limit and well beyond the stiff one's (the
    # limits scale as 1 / sqrt(E): a factor 100 apart), so the choice does not hang on how
    # closely the formulation estimates the highest frequency
    assert dt < 0.5 * soft_limit and dt > 2.0 * stiff_limit

    res = rancf.simulate(soft, t_end, dt)
    assert (res.method, res.status) == ("rk4", "ok")
    assert res.method_reason.startswith("rk4 (method 'auto'): dt = 0.0002 s is within")
    assert res.message == res.method_reason            # DECISIONS 31: the message says why
    named = rancf.simulate(soft, t_end, dt, method="rk4")
    assert named.method_reason == named.message == ""
    assert np.array_equal(res.nodes, named.nodes)      # "auto" runs the method it names

    res = rancf.simulate(stiff, t_end, dt)
    assert (res.method, res.status) == ("generalized-alpha", "ok")
    assert "exceeds the rk4 stability limit" in res.method_reason
    named = rancf.simulate(stiff, t_end, dt, method="generalized-alpha", rho_inf=0.9)
    assert np.array_equal(res.nodes, named.nodes)
    with pytest.raises(ValueError, match="exceeds the rk4 stability limit"):
        rancf.simulate(stiff, t_end, dt, method="rk4")


def test_auto_with_the_dae_or_implicit_options_says_what_it_chose():
    soft = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(soft, 0.01, 1e-3, formulation="dae")
    assert (res.method, res.formulation) == ("generalized-alpha", "dae")
    assert "formulation 'dae'" in res.method_reason
    with pytest.raises(TypeError, match=r"rho_inf.*only; rk4 \(method 'auto'\): dt = "):
        rancf.simulate(soft, 0.01, 1e-3, rho_inf=0.5)


def cantilever(E=7e10, rho=2700.0, side=0.01, length=1.0, joint="fixed"):
    """An aluminium arm of square section clamped (or held by a driven revolute joint at
    q = 0) at the origin, horizontal, under gravity: (model, beam, joint, q = rho A g)."""
    m = rancf.Model(gravity=(0.0, -9.81))
    b = m.add_beam(length, 4, E=E, rho=rho, A=side**2, I=side**4 / 12)
    drive = None if joint == "fixed" else (lambda t: (0.0, 0.0, 0.0))
    j = m.add_joint(joint, m.ground.point(0.0, 0.0), b.start, drive=drive)
    return m, b, j, rho * side**2 * 9.81


def test_static_start_stays_at_rest_where_the_reference_start_drops():
    m, b, _, q = cantilever()
    E, I, L = b.E, b.I, b.length
    deflection = q * L**4 / (8 * E * I)                       # Euler-Bernoulli, 5.7 mm
    omega1 = 1.875104**2 * math.sqrt(E * I / (b.rho * b.A * L**4))
    t_end = 1.15 * math.pi / omega1                           # past the first mode's half period

    start = rancf.simulate(m, t_end, 1e-5, method="rk4", state="static")
    tip = start.position(b.end)
    # at the equilibrium every stage of a step sees zero acceleration, so the state moves only
    # by the static solve's error (its Newton tolerance, 1e-10 of the model's size: a motion
    # about the exact equilibrium of at most twice that)
    assert np.abs(tip - tip[0]).max() <= 2e-10 * m.build().size
    assert tip[0, 1] == pytest.approx(-deflection, rel=1e-3)  # 4 cubic elements: nodal values
    # exact for a uniform load; the axial coupling changes them by (deflection / L)^2

    # from the unstressed shape the load is applied suddenly: the tip swings to about twice
    # the static deflection at half the first period (the first mode carries ~97 % of it)
    ref = rancf.simulate(m, t_end, 1e-5, method="rk4")
    assert ref.position(b.end)[0, 1] == 0.0
    assert ref.position(b.end)[:, 1].min() < -1.8 * deflection


def test_static_start_holds_drives_at_q0_with_the_static_torque():
    m, b, j, q = cantilever(joint="revolute")
    res = rancf.simulate(m, 0.01, 1e-3, state="static", output_every=1)
    assert res.method == "generalized-alpha"    # a 1 ms step is beyond RK4's limit here
    tip = res.position(b.end)
    assert np.abs(tip - tip[0]).max() <= 2e-10 * m.build().size
    # the motor holds the weight's moment about the joint, q L^2 / 2 (the deflected arm's
    # lever is shorter by a part in (deflection / L)^2 ~ 3e-5), from t = 0 on
    assert res.reactions[:, j.index] == pytest.approx(q * b.length**2 / 2, rel=1e-4)
    ref = rancf.simulate(m, 0.01, 1e-3, output_every=1)
    assert abs(ref.reactions[0, j.index]) < 0.1 * q * b.length**2 / 2


def test_bad_starts_are_named():
    m, _, _, _ = cantilever()
    with pytest.raises(ValueError, match=r"state must be a rancf.State or one of \['static'\]"):
        rancf.simulate(m, 0.01, 1e-3, state="equilibrium")
    with pytest.raises(TypeError, match="state must be a rancf.State"):
        rancf.simulate(m, 0.01, 1e-3, state=3.0)


def test_the_reason_is_saved_with_the_result(tmp_path):
    m = rancf.pendulum(n_bodies=1, elements_per_body=2, body_length=1.0)
    res = rancf.simulate(m, 0.01, 1e-3)
    res.save(tmp_path / "run.npz")
    assert res.method_reason and rancf.load(tmp_path / "run.npz").method_reason == \
        res.method_reason
