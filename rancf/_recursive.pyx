"""O(n) kernels of the recursive absolute nodal coordinate formulation (RANCF).

DESIGN.md sections 2-3 (RANCF paper section 1.2-1.3, eq. 44-55 with the Phi/Psi typo of
eq. 55 corrected). The passes, each a ``noexcept nogil`` kernel on a :c:type:`ChainData`:

``kinematics`` (base to tip)
    element coordinates ``e_s``, joint maps ``chi_s``, ``eps_s`` (state-dependent for a
    prismatic joint), element velocities ``V_E{s} = Phi_{s,s-1} V_E{s-1} + C_s beta_s`` and
    bias accelerations ``a_s``; node velocities for the state derivative.
``element_forces``
    ``kappa_s = M_s a_s + F_K,s - F_ext,s`` and the strain energies.
``factorize``
    blocks ``tau_s``, ``upsilon_{s,s-1}`` of the generalized mass Omega and its block
    LDL^T: ``P_s = tau_s - upsilon P_{s-1}^{-1} upsilon^T`` (Cholesky factor stored),
    ``Psi_{s,s-1} = -upsilon_{s,s-1} P_{s-1}^{-1}``. Constant for revolute-only chains.
``generalized_forces`` (tip to base)
    ``gamma_s = -C_s^T (kappa_s + Phi_{s+1,s}^T kappa_{s+1})``.
``solve_mass``
    forward ``z_s = gamma_s + Psi_{s,s-1} z_{s-1}``, backward
    ``beta'_s = P_s^{-1} z_s + Psi_{s+1,s}^T beta'_{s+1}``.

The bias of a prismatic joint sits in the child's first-node rows only, so
``Phi_{s,s-1} c_{s-1} = 0`` and ``a_s = c_s``.

State vector of the time integrators: ``y = [q, beta]``, ``q`` the node coordinates
(n_nodes x 4, joint nodes duplicated), ``q' = `` node velocities, ``beta' = Omega^{-1} gamma``.
"""
import numpy as np

from libc.math cimport sqrt, isfinite
from libc.string cimport memset, memcpy

from rancf._element cimport element_force, element_tangent


cdef inline void _eye4(double* chi) noexcept nogil:
    memset(chi, 0, 16 * sizeof(double))
    chi[0] = chi[5] = chi[10] = chi[15] = 1.0


cdef void _prismatic_joint(ChainData* d, int s, const double* q, const double* beta) noexcept nogil:
    """Joint maps and bias of a prismatic joint (DESIGN.md section 2, corrected chi).

    The child's first node slides along p = r'_p/|r'_p| (parent's end tangent):
    r_c = r_p + gamma p, r'_c = lambda r'_p, eta = (gamma', lambda'),
    chi = [[I2, gamma D], [0, lambda I2]], eps = [[p, 0], [0, r'_p]], D = (I2 - p p^T)/|r'_p|;
    bias rows: 2 gamma' D v + gamma D' v (position), 2 lambda' v (slope), v = d r'_p/dt.
    """
    cdef int ip = 4 * d.right[s - 1], ic = 4 * d.left[s]
    cdef double* chi = d.chi + 16 * s
    cdef double* eps = d.eps + 8 * s
    cdef double* c = d.bias + 8 * s
    cdef const double* v = d.VE + 8 * (s - 1) + 6   # slope rate of the parent's last node
    cdef double s0 = q[ip + 2], s1 = q[ip + 3]
    cdef double ns = sqrt(s0 * s0 + s1 * s1)
    cdef double p0 = s0 / ns, p1 = s1 / ns
    cdef double D00 = (1.0 - p0 * p0) / ns, D01 = -p0 * p1 / ns, D11 = (1.0 - p1 * p1) / ns
    cdef double gamma = (q[ic] - q[ip]) * p0 + (q[ic + 1] - q[ip + 1]) * p1
    cdef double lam = (q[ic + 2] * s0 + q[ic + 3] * s1) / (ns * ns)
    cdef double gd = beta[d.boff[s]], ld = beta[d.boff[s] + 1]
    cdef double pd0 = D00 * v[0] + D01 * v[1], pd1 = D01 * v[0] + D11 * v[1]   # p' = D v
    cdef double nsd = p0 * v[0] + p1 * v[1]                                     # |r'_p|'
    # D' = -(p' p^T + p p'^T)/|r'_p| - D |r'_p|'/|r'_p|
    cdef double Dd00 = -2.0 * pd0 * p0 / ns - D00 * nsd / ns
    cdef double Dd01 = -(pd0 * p1 + p0 * pd1) / ns - D01 * nsd / ns
    cdef double Dd11 = -2.0 * pd1 * p1 / ns - D11 * nsd / ns
    memset(chi, 0, 16 * sizeof(double))
    chi[0] = chi[5] = 1.0
    chi[2] = gamma * D00
    chi[3] = gamma * D01
    chi[6] = gamma * D01
    chi[7] = gamma * D11
    chi[10] = chi[15] = lam
    memset(eps, 0, 8 * sizeof(double))
    eps[0] = p0
    eps[2] = p1
    eps[5] = s0
    eps[7] = s1
    memset(c, 0, 8 * sizeof(double))
    c[0] = 2.0 * gd * pd0 + gamma * (Dd00 * v[0] + Dd01 * v[1])
    c[1] = 2.0 * gd * pd1 + gamma * (Dd01 * v[0] + Dd11 * v[1])
    c[2] = 2.0 * ld * v[0]
    c[3] = 2.0 * ld * v[1]


cdef void kinematics(ChainData* d, const double* q, const double* beta, double* qdot) noexcept nogil:
    """Base-to-tip pass: e_s, joint maps, V_E{s}, a_s; node velocities into ``qdot`` if not NULL."""
    cdef int s, i, j, b
    cdef double* ve
    cdef const double* prev
    cdef const double* chi
    cdef const double* eps
    for s in range(d.n_el):
        memcpy(d.e + 8 * s, q + 4 * d.left[s], 4 * sizeof(double))
        memcpy(d.e + 8 * s + 4, q + 4 * d.right[s], 4 * sizeof(double))
        if d.joint[s] == 1:
            _prismatic_joint(d, s, q, beta)
        b = d.boff[s]
        ve = d.VE + 8 * s
        memcpy(ve + 4, beta + b + d.nb[s] - 4, 4 * sizeof(double))
        memset(ve, 0, 4 * sizeof(double))
        if s > 0:
            prev = d.VE + 8 * (s - 1) + 4
            chi = d.chi + 16 * s
            for i in range(4):
                for j in range(4):
                    ve[i] += chi[4 * i + j] * prev[j]
        if d.nb[s] == 6:
            eps = d.eps + 8 * s
            for i in range(4):
                ve[i] += eps[2 * i] * beta[b] + eps[2 * i + 1] * beta[b + 1]
        if qdot != NULL:
            memcpy(qdot + 4 * d.right[s], ve + 4, 4 * sizeof(double))
            if d.nb[s] == 6:
                memcpy(qdot + 4 * d.left[s], ve, 4 * sizeof(double))


cdef void element_forces(ChainData* d) noexcept nogil:
    """kappa_s = M_s a_s + F_K(e_s) - F_G,s and the strain energies U_s."""
    cdef int s, i, j
    cdef double* k
    cdef const double* m
    cdef const double* a
    for s in range(d.n_el):
        k = d.kappa + 8 * s
        d.U[s] = element_force(d.model, d.e + 8 * s, d.length[s], d.EA[s], d.EI[s], k)
        for i in range(8):
            k[i] -= d.FG[8 * s + i]
        if d.joint[s] == 1:
            m = d.M + 64 * s
            a = d.bias + 8 * s
            for i in range(8):
                for j in range(4):
                    k[i] += m[8 * i + j] * a[j]


cdef void _C_dense(ChainData* d, int s, double* C) noexcept nogil:
    """C_s as a dense 8 x nb_s matrix (row stride 6)."""
    cdef int i, off = d.nb[s] - 4
    memset(C, 0, 48 * sizeof(double))
    if off:
        for i in range(4):
            C[6 * i] = d.eps[8 * s + 2 * i]
            C[6 * i + 1] = d.eps[8 * s + 2 * i + 1]
    for i in range(4):
        C[6 * (4 + i) + off + i] = 1.0


cdef int _cholesky(double* A, int n) noexcept nogil:
    """In-place lower Cholesky factor of the n x n SPD matrix A (row stride 6); 1 if not SPD."""
    cdef int i, j, k
    cdef double x
    for j in range(n):
        x = A[6 * j + j]
        for k in range(j):
            x -= A[6 * j + k] * A[6 * j + k]
        if not x > 0.0:
            return 1
        A[6 * j + j] = sqrt(x)
        for i in range(j + 1, n):
            x = A[6 * i + j]
            for k in range(j):
                x -= A[6 * i + k] * A[6 * j + k]
            A[6 * i + j] = x / A[6 * j + j]
        for i in range(j):
            A[6 * i + j] = 0.0
    return 0


cdef void _cholesky_solve(const double* L, int n, double* b) noexcept nogil:
    """b <- (L L^T)^{-1} b (row stride 6)."""
    cdef int i, k
    for i in range(n):
        for k in range(i):
            b[i] -= L[6 * i + k] * b[k]
        b[i] /= L[6 * i + i]
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            b[i] -= L[6 * k + i] * b[k]
        b[i] /= L[6 * i + i]


cdef int factorize(ChainData* d) noexcept nogil:
    """Omega's blocks tau_s, upsilon_{s,s-1} and its block LDL^T (P_s, Psi_{s,s-1}).

    tau_s = C_s^T (M_s + Phi_{s+1,s}^T M_{s+1} Phi_{s+1,s}) C_s,
    upsilon_{s,s-1} = C_s^T M_s Phi_{s,s-1} C_{s-1}  (RANCF paper eq. 44-48).
    Stores P_s^{-1} (from its Cholesky factor) and Psi_{s,s-1}, zero-padded to 6 x 6 so the
    sweeps run fixed-size loops. Returns 0, or s + 1 when P_s is not positive definite.
    """
    cdef double A[64]
    cdef double C[48]
    cdef double Cp[48]
    cdef double AC[48]
    cdef double MPC[48]
    cdef double X[36]
    cdef double col[6]
    cdef double Ls[36]
    cdef int s, i, j, k, n, m, offp
    cdef const double* Ms
    cdef const double* Mn
    cdef const double* chi
    cdef double* tau
    cdef double* ups
    cdef double* Pinv
    cdef double* psi
    for s in range(d.n_el):
        n = d.nb[s]
        Ms = d.M + 64 * s
        memcpy(A, Ms, 64 * sizeof(double))
        if s + 1 < d.n_el:
            # A[4:8, 4:8] += chi^T M_{s+1}[0:4, 0:4] chi
            Mn = d.M + 64 * (s + 1)
            chi = d.chi + 16 * (s + 1)
            for i in range(4):
                for j in range(4):
                    for k in range(4):
                        for m in range(4):
                            A[8 * (4 + i) + 4 + j] += chi[4 * k + i] * Mn[8 * k + m] * chi[4 * m + j]
        _C_dense(d, s, C)
        memset(AC, 0, 48 * sizeof(double))
        for i in range(8):
            for j in range(n):
                for k in range(8):
                    AC[6 * i + j] += A[8 * i + k] * C[6 * k + j]
        tau = d.tau + 36 * s
        memset(tau, 0, 36 * sizeof(double))
        for i in range(n):
            for j in range(n):
                for k in range(8):
                    tau[6 * i + j] += C[6 * k + i] * AC[6 * k + j]
        memcpy(Ls, tau, 36 * sizeof(double))
        if s > 0:
            m = d.nb[s - 1]
            offp = m - 4
            # M_s Phi_{s,s-1} C_{s-1}: only the last 4 columns (the right-node rows of C_{s-1}).
            chi = d.chi + 16 * s
            memset(MPC, 0, 48 * sizeof(double))
            for i in range(8):
                for j in range(4):
                    for k in range(4):
                        MPC[6 * i + offp + j] += Ms[8 * i + k] * chi[4 * k + j]
            ups = d.ups + 36 * s
            memset(ups, 0, 36 * sizeof(double))
            for i in range(n):
                for j in range(m):
                    for k in range(8):
                        ups[6 * i + j] += C[6 * k + i] * MPC[6 * k + j]
            # X = P_{s-1}^{-1} ups^T (m x n); Psi = -X^T; P_s = tau_s - ups X
            for j in range(n):
                for i in range(m):
                    col[i] = ups[6 * j + i]
                for i in range(m):
                    X[6 * i + j] = 0.0
                    for k in range(m):
                        X[6 * i + j] += d.Pinv[36 * (s - 1) + 6 * i + k] * col[k]
            psi = d.Psi + 36 * s
            memset(psi, 0, 36 * sizeof(double))
            for i in range(n):
                for j in range(m):
                    psi[6 * i + j] = -X[6 * j + i]
            for i in range(n):
                for j in range(n):
                    for k in range(m):
                        Ls[6 * i + j] -= ups[6 * i + k] * X[6 * k + j]
        if _cholesky(Ls, n):
            return s + 1
        Pinv = d.Pinv + 36 * s
        memset(Pinv, 0, 36 * sizeof(double))
        for j in range(n):
            memset(col, 0, 6 * sizeof(double))
            col[j] = 1.0
            _cholesky_solve(Ls, n, col)
            for i in range(n):
                Pinv[6 * i + j] = col[i]
    return 0


cdef void generalized_forces(ChainData* d) noexcept nogil:
    """Tip-to-base pass: gamma_s = -C_s^T (kappa_s + Phi_{s+1,s}^T kappa_{s+1}) (eq. 52)."""
    cdef double x[8]
    cdef int s, i, j, b
    cdef const double* chi
    cdef const double* kn
    cdef const double* eps
    for s in range(d.n_el):
        memcpy(x, d.kappa + 8 * s, 8 * sizeof(double))
        if s + 1 < d.n_el:
            chi = d.chi + 16 * (s + 1)
            kn = d.kappa + 8 * (s + 1)
            for i in range(4):
                for j in range(4):
                    x[4 + i] += chi[4 * j + i] * kn[j]
        b = d.boff[s]
        if d.nb[s] == 6:
            eps = d.eps + 8 * s
            d.gam[b] = -(eps[0] * x[0] + eps[2] * x[1] + eps[4] * x[2] + eps[6] * x[3])
            d.gam[b + 1] = -(eps[1] * x[0] + eps[3] * x[1] + eps[5] * x[2] + eps[7] * x[3])
            b += 2
        for i in range(4):
            d.gam[b + i] = -x[4 + i]


cdef void solve_mass(ChainData* d, double* x) noexcept nogil:
    """x = Omega^{-1} gamma by the two sweeps of eq. 55 (Psi, not Phi).

    Forward z_s = gamma_s + Psi_{s,s-1} z_{s-1}; backward
    x_s = P_s^{-1} z_s + Psi_{s+1,s}^T x_{s+1}, on zero-padded 6-blocks.
    """
    cdef int s, i, j
    cdef double* z
    cdef double xs[6]
    cdef const double* A
    for s in range(d.n_el):
        z = d.z + 6 * s
        memset(z, 0, 6 * sizeof(double))
        memcpy(z, d.gam + d.boff[s], d.nb[s] * sizeof(double))
        if s > 0:
            A = d.Psi + 36 * s
            for i in range(6):
                for j in range(6):
                    z[i] += A[6 * i + j] * z[j - 6]
    for s in range(d.n_el - 1, -1, -1):
        z = d.z + 6 * s
        A = d.Pinv + 36 * s
        for i in range(6):
            xs[i] = 0.0
            for j in range(6):
                xs[i] += A[6 * i + j] * z[j]
        if s + 1 < d.n_el:
            A = d.Psi + 36 * (s + 1)
            for i in range(6):
                for j in range(6):
                    xs[i] += A[6 * j + i] * z[6 + j]
        memcpy(z, xs, 6 * sizeof(double))
        memcpy(x + d.boff[s], z, d.nb[s] * sizeof(double))


cdef int rhs(ChainData* d, const double* y, double* ydot) noexcept nogil:
    """ydot = [node velocities, beta'] for y = [q, beta]; returns 0, or > 0 if Omega is singular."""
    cdef int status
    cdef const double* beta = y + 4 * d.n_nodes
    kinematics(d, y, beta, ydot)
    element_forces(d)
    if not d.constant_mass:
        status = factorize(d)
        if status:
            return status
    generalized_forces(d)
    solve_mass(d, ydot + 4 * d.n_nodes)
    return 0


cdef void bind_arrays(ChainData* d, dict arrays) except *:
    """Point the fields of ``d`` named in ``arrays`` (C-contiguous ndarrays) at their data.

    The arrays must outlive ``d``: the owner keeps them (``RecursiveModel.arrays``).
    """
    cdef int[::1] iv
    cdef double[::1] dv
    for name, array in arrays.items():
        if array.dtype == np.intc:
            iv = array.reshape(-1)
            if name == "joint": d.joint = &iv[0]
            elif name == "nb": d.nb = &iv[0]
            elif name == "boff": d.boff = &iv[0]
            elif name == "left": d.left = &iv[0]
            elif name == "right": d.right = &iv[0]
            else: raise KeyError(name)
            continue
        dv = array.reshape(-1)
        if name == "length": d.length = &dv[0]
        elif name == "EA": d.EA = &dv[0]
        elif name == "EI": d.EI = &dv[0]
        elif name == "M": d.M = &dv[0]
        elif name == "FG": d.FG = &dv[0]
        elif name == "e": d.e = &dv[0]
        elif name == "VE": d.VE = &dv[0]
        elif name == "chi": d.chi = &dv[0]
        elif name == "eps": d.eps = &dv[0]
        elif name == "bias": d.bias = &dv[0]
        elif name == "kappa": d.kappa = &dv[0]
        elif name == "U": d.U = &dv[0]
        elif name == "gam": d.gam = &dv[0]
        elif name == "tau": d.tau = &dv[0]
        elif name == "ups": d.ups = &dv[0]
        elif name == "Pinv": d.Pinv = &dv[0]
        elif name == "Psi": d.Psi = &dv[0]
        elif name == "z": d.z = &dv[0]
        else: raise KeyError(name)


cdef class RecursiveModel:
    """The kernels' view of a :class:`rancf.Chain`: constants plus a preallocated workspace.

    Built once per chain (see :func:`rancf.recursive.model_of`); not thread-safe (the
    workspace is shared by every call).
    """

    def __init__(self, chain):
        nel = chain.n_elements
        ints = lambda a: np.ascontiguousarray(a, dtype=np.intc)
        chi = np.zeros((nel, 4, 4))
        eps = np.zeros((nel, 4, 2))
        for s in range(nel):
            joint = chain.element_joint[s]
            chi[s] = np.eye(4) if joint < 0 else np.diag([1.0, 1.0, 0.0, 0.0])
            eps[s, 2:, :] = np.eye(2)     # pin and revolute: eta are slope rates
        self.arrays = dict(
            joint=ints(chain.element_joint), nb=ints(chain.beta_size),
            boff=ints(chain.beta_offset), left=ints(chain.element_nodes[:, 0]),
            right=ints(chain.element_nodes[:, 1]),
            length=np.ascontiguousarray(chain.element_length),
            EA=np.ascontiguousarray(chain.element_EA), EI=np.ascontiguousarray(chain.element_EI),
            M=np.ascontiguousarray(chain.mass_matrices()), FG=np.ascontiguousarray(chain.gravity_forces()),
            e=np.zeros((nel, 8)), VE=np.zeros((nel, 8)), chi=chi, eps=eps,
            bias=np.zeros((nel, 8)), kappa=np.zeros((nel, 8)), U=np.zeros(nel),
            gam=np.zeros(chain.n_dof), tau=np.zeros((nel, 6, 6)), ups=np.zeros((nel, 6, 6)),
            Pinv=np.zeros((nel, 6, 6)), Psi=np.zeros((nel, 6, 6)), z=np.zeros((nel, 6)))
        bind_arrays(&self.data, self.arrays)
        self.data.n_el = nel
        self.data.n_nodes = chain.n_nodes
        self.data.n_dof = chain.n_dof
        self.data.model = chain.model_code
        self.data.constant_mass = 0
        self.n_y = 4 * chain.n_nodes + chain.n_dof
        if not chain.has_prismatic:
            # Revolute chains: Omega is constant, factor once.
            if factorize(&self.data):
                raise ValueError("the generalized mass matrix is not positive definite")
            self.data.constant_mass = 1

    def rhs(self, const double[::1] y, double[::1] ydot):
        """ydot = f(y) for y = [q, beta] (n_y,); raises ArithmeticError if Omega is singular."""
        cdef int status
        with nogil:
            status = rhs(&self.data, &y[0], &ydot[0])
        if status:
            raise ArithmeticError(f"generalized mass singular at element {status - 1}")

    def node_velocities(self, const double[::1] q, const double[::1] beta, double[::1] qdot):
        """Node velocities (n_nodes * 4,) of the state (q, beta)."""
        kinematics(&self.data, &q[0], &beta[0], &qdot[0])

    def blocks(self, const double[::1] q, const double[::1] beta):
        """Blocks of Omega and its factorization at (q, beta): dict of arrays (copies)."""
        cdef int status
        kinematics(&self.data, &q[0], &beta[0], NULL)
        status = factorize(&self.data)
        if status:
            raise ArithmeticError(f"generalized mass singular at element {status - 1}")
        return {k: self.arrays[k].copy() for k in ("tau", "ups", "Pinv", "Psi", "chi", "eps", "VE", "bias")}

    def generalized_forces(self, const double[::1] q, const double[::1] beta):
        """gamma (n_dof,) at (q, beta), without solving."""
        kinematics(&self.data, &q[0], &beta[0], NULL)
        element_forces(&self.data)
        generalized_forces(&self.data)
        return self.arrays["gam"].copy()

    def stiffness_rayleigh(self, const double[::1] q, const double[:, :, ::1] K,
                           const double[::1] x, double[::1] y):
        """One power-iteration step on Omega^{-1} K_beta at q.

        K_beta = (Phi C)^T diag(K_s) (Phi C) with the element tangents K (n_el, 8, 8).
        Writes y = Omega^{-1} K_beta x and returns the Rayleigh quotient
        x^T K_beta x / x^T Omega x (rad^2/s^2), a lower bound of the largest eigenvalue.
        """
        cdef ChainData* d = &self.data
        cdef double xkx = 0.0, xmx = 0.0
        cdef int s, i, j
        with nogil:
            kinematics(d, &q[0], &x[0], NULL)
            if not d.constant_mass:
                factorize(d)
            for s in range(d.n_el):
                for i in range(8):
                    d.kappa[8 * s + i] = 0.0
                    for j in range(8):
                        d.kappa[8 * s + i] -= K[s, i, j] * d.VE[8 * s + j]
                        xmx += d.VE[8 * s + i] * d.M[64 * s + 8 * i + j] * d.VE[8 * s + j]
                    xkx -= d.VE[8 * s + i] * d.kappa[8 * s + i]
            generalized_forces(d)
            solve_mass(d, &y[0])
        return xkx / xmx

    def tangents(self, const double[::1] q):
        """Element tangent stiffness matrices (n_el, 8, 8) at the node coordinates q."""
        cdef ChainData* d = &self.data
        cdef double[:, :, ::1] K = np.empty((d.n_el, 8, 8))
        cdef int s
        with nogil:
            for s in range(d.n_el):
                memcpy(d.e + 8 * s, &q[4 * d.left[s]], 4 * sizeof(double))
                memcpy(d.e + 8 * s + 4, &q[4 * d.right[s]], 4 * sizeof(double))
                element_tangent(d.model, d.e + 8 * s, d.length[s], d.EA[s], d.EI[s], &K[s, 0, 0])
        return np.asarray(K)
