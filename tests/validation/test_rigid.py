"""The independent rigid pendulum of validation/rigid.py against physics it must obey."""
import numpy as np
import pytest
from scipy.special import ellipk

from validation.rigid import RigidChain, simulate_rigid


def five_links():
    return RigidChain(lengths=[5.0, 4.0, 5.0, 3.0, 5.0], masses=[35.1, 20.0, 35.1, 10.0, 35.1])


def test_total_energy_is_conserved_to_1e_9():
    chain = five_links()
    sol = simulate_rigid(chain, 4.0, t_eval=np.linspace(0, 4, 401))
    kinetic, _ = chain.energy(sol.theta, sol.omega)
    total = sol.energy()
    assert kinetic.max() > 1e3  # the chain really falls and swings
    assert np.max(np.abs(total - total[0])) / kinetic.max() < 1e-9


@pytest.mark.parametrize("amplitude", [np.pi / 2, np.pi / 6, 2.5])
def test_single_link_period_matches_complete_elliptic_integral(amplitude):
    # Uniform rod about its end: I = m L^2 / 3, gravity torque m g L / 2 sin(phi)
    # -> omega0^2 = 3 g / (2 L), exact period T = 4 K(k^2) / omega0 with k = sin(A / 2).
    L, g = 2.0, 9.81
    chain = RigidChain(lengths=[L], masses=[3.0], gravity=g)
    omega0 = np.sqrt(3 * g / (2 * L))
    exact = 4 * ellipk(np.sin(amplitude / 2) ** 2) / omega0

    def through_bottom(_t, y):  # theta = -pi/2 hangs straight down
        return y[0] + np.pi / 2

    sol = simulate_rigid(chain, 1.6 * exact, theta0=[-np.pi / 2 + amplitude], events=through_bottom)
    crossings = sol.events[0]
    assert len(crossings) == 3  # T/4, 3T/4, 5T/4
    assert crossings[2] - crossings[0] == pytest.approx(exact, rel=1e-10)
    assert crossings[0] == pytest.approx(exact / 4, rel=1e-10)


def test_mass_matrix_equals_jacobian_form():
    # M = sum_i m_i J_i^T J_i + diag(m L^2 / 12), J_i = d c_i / d theta by central differences.
    chain = five_links()
    rng = np.random.default_rng(1)
    theta = rng.uniform(-np.pi, np.pi, chain.n_links)

    def centres(th):
        ends = chain.joint_positions(th)
        return 0.5 * (ends[:-1] + ends[1:])

    h = 1e-6
    J = np.empty((chain.n_links, 2, chain.n_links))
    for k in range(chain.n_links):
        d = np.zeros(chain.n_links)
        d[k] = h
        J[:, :, k] = (centres(theta + d) - centres(theta - d)) / (2 * h)
    M = np.einsum("i,iak,ial->kl", chain.masses, J, J) + np.diag(chain.masses * chain.lengths**2 / 12)
    np.testing.assert_allclose(chain.mass_matrix(theta), M, rtol=1e-8, atol=1e-6)


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="lengths"):
        RigidChain(lengths=[1.0, -1.0], masses=[1.0, 1.0])
    with pytest.raises(ValueError, match="masses"):
        RigidChain(lengths=[1.0, 1.0], masses=[1.0])
    with pytest.raises(ValueError, match="t_end"):
        simulate_rigid(RigidChain(lengths=[1.0], masses=[1.0]), -1.0)
