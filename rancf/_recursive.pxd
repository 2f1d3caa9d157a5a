# O(n) kernels of the recursive ANCF formulation (see rancf/_recursive.pyx).

cdef struct ChainData:
    int n_el, n_nodes, n_dof, model, constant_mass
    const int* joint        # joint of element s's left node: -1 inside a body, 0 revolute, 1 prismatic
    const int* nb           # size of beta_s: 6 on a body's first element, else 4
    const int* boff         # offset of beta_s in beta
    const int* left         # node index of element s's left node
    const int* right        # node index of element s's right node
    const double* length    # element length l (m)
    const double* EA        # N
    const double* EI        # N m^2
    const double* M         # element mass matrices, n_el x 8 x 8
    const double* FG        # element gravity forces, n_el x 8
    double* e               # element coordinates, n_el x 8
    double* VE              # element velocities, n_el x 8
    double* chi             # joint maps chi_s (4 x 4): Phi_{s,s-1} = [[0, chi_s], [0, 0]]
    double* eps             # joint maps eps_s (4 x 2): C_s = [[eps_s, 0], [0, I4]]
    double* bias            # bias accelerations a_s (8)
    double* kappa           # kappa_s = M_s a_s + F_K,s - F_ext,s (8)
    double* U               # element strain energies (J)
    double* gam             # generalized forces gamma, then z of the forward sweep (n_dof)
    double* tau             # diagonal blocks of Omega, n_el x 6 x 6
    double* ups             # sub-diagonal blocks upsilon_{s,s-1} (nb_s x nb_{s-1} in a 6 x 6)
    double* Pinv            # P_s^{-1}, zero-padded to 6 x 6
    double* Psi             # Psi_{s,s-1} (nb_s x nb_{s-1}), zero-padded to 6 x 6
    double* z               # sweep vectors, n_el x 6 (a 4-block padded with zeros)

cdef void kinematics(ChainData* d, const double* q, const double* beta, double* qdot) noexcept nogil
cdef void element_forces(ChainData* d) noexcept nogil
cdef int factorize(ChainData* d) noexcept nogil
cdef void generalized_forces(ChainData* d) noexcept nogil
cdef void solve_mass(ChainData* d, double* x) noexcept nogil
cdef int rhs(ChainData* d, const double* y, double* ydot) noexcept nogil
cdef void bind_arrays(ChainData* d, dict arrays) except *

cdef class RecursiveModel:
    cdef ChainData data
    cdef object arrays
    cdef readonly int n_y
