"""The mechanism cases of issue 11 (cantilever, spin-up, rigid-period): their independent references
against closed forms, and the quick run of the three cases with its values asserted against
independent references (closed forms, printed tables, theoretical orders, another formulation),
each with the tolerance and its reason in a comment."""
import numpy as np
import pytest
from scipy.integrate import simpson

from validation.cases import rigid_period, spin_up
from validation.elastica import elastica

CASES = ("cantilever", "spin-up", "rigid-period")


# ----------------------------------------------------------------------------- references

def test_elastica_has_the_linear_cantilever_as_its_small_load_limit():
    """k -> 0: u_y / L = k / 3, end rotation k / 2, shortening second order in k."""
    e = elastica([1e-3])[0]
    assert e.deflection == pytest.approx(1e-3 / 3, rel=1e-3)
    assert e.rotation == pytest.approx(1e-3 / 2, rel=1e-3)
    assert 0.0 < e.shortening < 1e-6


def test_extensible_elastica_adds_the_axial_stretch_to_first_order():
    """Small k: the tension -P sin(theta) is second order, so the extensible correction is small;
    at large k it grows in proportion to EI / (EA L^2) (halving the stretch halves it)."""
    base = elastica([10.0])[0]
    corrections = [elastica([10.0], stretch=s)[0].deflection - base.deflection for s in (2e-4, 1e-4)]
    assert corrections[0] > 0.0
    assert corrections[0] / corrections[1] == pytest.approx(2.0, rel=2e-3)


def test_elastica_rejects_bad_input():
    with pytest.raises(ValueError, match="ks"):
        elastica([0.0, 1.0])
    with pytest.raises(ValueError, match="stretch"):
        elastica([1.0], stretch=-1.0)


def test_clamped_free_modes_are_orthogonal_and_satisfy_the_free_end():
    """The exponential form keeps high modes accurate: orthogonal in mass, phi(0) = phi'(0) = 0."""
    s = np.linspace(0.0, 1.0, 4001)
    bs, phi, dphi = spin_up.clamped_free_modes(8, s)
    gram = simpson(phi[:, None] * phi[None], x=s)
    assert np.abs(gram - np.diag(np.diag(gram))).max() < 1e-8 * np.diag(gram).min()
    assert np.abs(phi[:, 0]).max() < 1e-12 and np.abs(dphi[:, 0]).max() < 1e-9
    assert bs[0] == pytest.approx(1.8751040687, rel=1e-10)


def test_one_mode_lead_lag_frequency_is_southwells():
    """One mode: omega^2 = omega_0^2 + (K - 1) W^2 with the first mode's Southwell coefficient
    K = 1.1933 of a uniform clamped-free beam; more modes can only lower it (Rayleigh-Ritz)."""
    one = spin_up.lead_lag_frequency(1)
    assert one == pytest.approx(np.sqrt(spin_up.OMEGA_0**2 + 0.1933 * spin_up.W**2), rel=1e-4)
    assert spin_up.lead_lag_frequency(8) < spin_up.lead_lag_frequency(4) < one


def test_period_from_crossings_of_a_known_signal():
    """x = cos(2 pi t / T) crosses zero at T/4 + j T/2 with x'' = 0 there (as the bar's free end at
    the vertical), so linear interpolation between outputs 1 ms apart finds them to ~1e-10 s."""
    T, dt = 1.7, 1e-3
    t = np.arange(0.0, 2 * T, dt)
    T_measured, first = rigid_period.period(t, np.cos(2 * np.pi * t / T))
    assert T_measured == pytest.approx(T, rel=1e-9)
    assert first == pytest.approx(T / 4, abs=1e-9)
    with pytest.raises(RuntimeError, match="crossings"):
        rigid_period.period(t[:100], np.cos(2 * np.pi * t[:100] / T))


# ----------------------------------------------------------------------------- the quick run

@pytest.fixture(scope="module")
def quick_run(run_quick):
    return run_quick(CASES, timeout=600)


def values(record):
    return {c["name"]: c["value"] for c in record["checks"]}


def test_quick_run_passes_and_writes_its_tables(quick_run):
    proc, records, out = quick_run
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert all(r["status"] == "pass" and r["quick"] for r in records.values())
    assert (out / "cantilever" / "shapes.png").stat().st_size > 10_000
    assert (out / "spin-up" / "history.csv").exists() and (out / "rigid-period" / "periods.csv").exists()


def test_quick_cantilever(quick_run):
    c = values(quick_run[1]["cantilever"])
    assert c["CASES.md's elastica table"] <= 5e-7                    # the table's rounding (6 decimals)
    # the extensible elastica (solve_bvp): 1e-6, a thousandth of the extensible correction at k = 10
    assert c["converged beam equals the extensible elastica"] < 1e-6
    # the extensible elastica is first order in EI / (EA L^2)
    assert c["the difference to the inextensible elastica falls as 1/EA"] == pytest.approx(-1.0, abs=0.01)
    # cubic Hermite elements: fourth order (3.5 for the pre-asymptotic range)
    assert c["mesh convergence, tip force"] > 3.5
    assert c["pure end moment: semicircle"] < 1e-6                  # the closed form, at the tip force's 1e-6
    assert c["pure end moment: fourth order"] == pytest.approx(4.0, abs=0.02)


def test_quick_spin_up(quick_run):
    c = values(quick_run[1]["spin-up"])
    assert c["same initial state"] == 0.0
    # another formulation, the same scheme and step: 1e-6 L
    assert c["recursive vs DAE, same scheme and step"] < 1e-6
    assert c["step convergence"] == pytest.approx(2.0, abs=0.02)    # generalized-alpha: second order
    assert c["mesh convergence"] > 3.0                              # cubic Hermite, less the common time error
    # the linear theory of the spinning bar (5.14e-4 m): 0.5 % for the axial vibration's mean
    assert abs(c["steady axial stretch"]) < 5e-3
    assert c["deflection returns close to zero"] < 0.05             # CASES.md's 'close to zero': 5 % of the peak
    assert c["free vibration does not decay"] > 0.95                # undamped; the scheme's damping is negligible
    # the lead-lag frequency by Ritz (lead_lag_frequency): 0.3 % for the higher modes' share
    assert abs(c["free vibration frequency"]) < 3e-3
    assert c["energy balance, DAE"] == pytest.approx(4.0, abs=0.05)  # second order: 2^2 per halving


def test_quick_rigid_period(quick_run):
    c = values(quick_run[1]["rigid-period"])
    assert c["CASES.md's periods"] < 5e-7                           # the table's rounding (6 decimals)
    # the closed form with K(1/2): DOPRI5's tolerance and the crossings' interpolation, 1e-9
    assert c["rigid body period"] < 1e-9
    assert c["beam carries the thin rod's inertia"] < 1e-13         # exact for cubic shape functions: round-off
    # the rigid period: generalized-alpha's time error (second order) plus the beam's flexibility, 1e-6
    assert c["stiff beam approaches the rigid period"] < 1e-6
