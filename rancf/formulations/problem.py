"""The problem an implicit integrator solves: an index-3 DAE of multibody dynamics.

``M(q) q'' + Phi_q(q, t)^T lambda = F(q, q', t)``, ``Phi(q, t) = 0``: :class:`IndexThreeDAE` lists
what a formulation offers the integrators of :mod:`rancf.integrators.implicit` (mass, forces and
their Jacobians, constraints and their derivatives, the Newton matrix of a step and its
factorization), with dense and sparse defaults that a formulation overrides where it knows
better. :class:`NewtonFactor` holds the LU factors of a Newton matrix; :class:`StepFailure` is what
a step's nonlinear solver raises when it cannot take the step.
"""

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import scipy.sparse.linalg as spla

LINEAR_SOLVERS = ("dense", "sparse")


def projection_kind(projection):
    """The projection a ``projection`` option asks for: False, "euclidean" (also True) or
    "mass". Only a bool or one of those names is accepted: 1 or 0 are not bools here."""
    if isinstance(projection, (bool, np.bool_)):
        return "euclidean" if projection else False
    if isinstance(projection, str) and projection in ("euclidean", "mass"):
        return projection
    raise ValueError(f"projection must be False, True, 'euclidean' or 'mass', got "
                     f"{projection!r}")



class StepFailure(Exception):
    """A step that could not be taken; the loop stops the run with its status and message.

    A nonlinear solver passed as ``solver=`` to :func:`rancf.implicit.integrate` raises it
    when its iteration fails; the run then ends with ``status`` and ``message`` and keeps
    the steps before.

    Parameters
    ----------
    status : {"failed", "diverged"}
        The run's status.
    message : str
        What happened (and at what time).
    reason : {None, "singular"}, optional
        A code a caller can act on without reading the message: ``"singular"``, Newton's
        matrix could not be factored at the step's start itself (the predicted state; in
        statics the last equilibrium), so the model is singular there, not Newton diverging
        (:func:`rancf.static` then looks for a known cause, a plane curved cable).

    Examples
    --------
    >>> exc = rancf.implicit.StepFailure("failed", "no convergence at t = 0.1 s")
    >>> exc.status, str(exc), exc.reason
    ('failed', 'no convergence at t = 0.1 s', None)
    """

    def __init__(self, status, message, reason=None):
        super().__init__(status, message, reason)
        self.status = status
        self.message = message
        self.reason = reason

    def __str__(self):
        return self.message

class IndexThreeDAE:
    """The contract a problem offers the integrators (override what your problem has).

    Attributes
    ----------
    n_coordinates : int
        n, the number of coordinates q.
    n_constraints : int
        m, the number of constraint equations.
    linear_solver : {"dense", "sparse"}
        How the default :meth:`newton_matrix` assembles and factors (LAPACK LU or SuperLU).

    Examples
    --------
    A point mass on a massless rod of 1 m (a rigid pendulum) in Cartesian coordinates
    ``q = (x, y)``, the rod a constraint ``Phi = (q . q - 1) / 2 = 0``, released horizontally;
    after 2 s its position agrees with the pendulum equation ``theta'' = -g cos(theta)``
    solved independently by ``scipy.integrate.solve_ivp``:

    >>> from scipy.integrate import solve_ivp
    >>> class Pendulum(rancf.implicit.IndexThreeDAE):
    ...     n_coordinates, n_constraints = 2, 1
    ...     def mass(self, q):
    ...         return np.eye(2)                          # kg
    ...     def force(self, q, v, t):
    ...         return np.array([0.0, -9.81])             # N
    ...     def constraint(self, q, t):
    ...         return np.array([(q @ q - 1.0) / 2])
    ...     def constraint_jacobian(self, q, t):
    ...         return q[None, :]
    ...     def constraint_curvature(self, q, lam, t):
    ...         return lam[0] * np.eye(2)                 # d(Phi_q^T lam)/dq
    ...     def acceleration_bias(self, q, v, t):
    ...         return np.array([v @ v])                  # Phi'' = Phi_q a + v . v
    >>> sol = rancf.implicit.integrate(Pendulum(), [1.0, 0.0], [0.0, 0.0], t_end=2.0, dt=1e-3,
    ...                                method="generalized-alpha", rho_inf=0.9)
    >>> ref = solve_ivp(lambda t, y: [y[1], -9.81 * np.cos(y[0])], (0.0, 2.0), [0.0, 0.0],
    ...                 rtol=1e-12, atol=1e-12).y[0, -1]
    >>> error = np.hypot(*(sol.q[-1] - [np.cos(ref), np.sin(ref)]))
    >>> bool(error < 5e-5)                                # m; 2.1e-5 at this step
    True

    :meth:`consistent_state` moves a state onto the rod: the point to the nearest one on the
    circle (along its radius), the velocity to its tangential part:

    >>> q, v = Pendulum().consistent_state([1.2, 0.5], [1.0, 1.0])
    >>> u = np.array([1.2, 0.5]) / 1.3                    # the radial direction
    >>> bool(np.allclose(q, u, atol=1e-12) and np.allclose(v, [1.0, 1.0] - (u @ [1.0, 1.0]) * u))
    True
    """

    n_coordinates: int = 0
    n_constraints: int = 0
    linear_solver: str = "dense"

    # --- model -------------------------------------------------------------------------
    def mass(self, q):
        """The mass matrix M(q).

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        ndarray or scipy.sparse matrix (n, n)

        Notes
        -----
        The class example shows it in use.
        """
        raise NotImplementedError

    def mass_action(self, q, a):
        """The product ``M(q) a``; override when M is applied without forming it.

        Parameters
        ----------
        q, a : ndarray (n,)
            Coordinates and accelerations.

        Returns
        -------
        ndarray (n,)

        Notes
        -----
        The class example shows it in use.
        """
        return self.mass(q) @ a

    def mass_derivative(self, q, a):
        """The derivative ``d(M(q) a)/dq`` for Newton's matrix.

        Parameters
        ----------
        q, a : ndarray (n,)
            Coordinates and accelerations.

        Returns
        -------
        ndarray (n, n) or None
            None when M is constant (the default).

        Notes
        -----
        The class example shows it in use.
        """
        return None

    def force(self, q, v, t):
        """Applied, elastic and velocity-dependent forces F(q, v, t).

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and velocities.
        t : float
            Time (s).

        Returns
        -------
        ndarray (n,)

        Notes
        -----
        The class example shows it in use.
        """
        raise NotImplementedError

    def stiffness(self, q, v, t):
        """The stiffness ``K = -dF/dq`` for Newton's matrix.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and velocities.
        t : float
            Time (s).

        Returns
        -------
        ndarray or scipy.sparse matrix (n, n), or None
            None (the default) when F does not depend on q.

        Notes
        -----
        The class example shows it in use.
        """
        return None

    def damping(self, q, v, t):
        """The damping ``C = -dF/dv`` for Newton's matrix.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and velocities.
        t : float
            Time (s).

        Returns
        -------
        ndarray or scipy.sparse matrix (n, n), or None
            None (the default) when F does not depend on v.

        Notes
        -----
        The class example shows it in use.
        """
        return None

    def constraint(self, q, t):
        """The constraints Phi(q, t), held at zero.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        t : float
            Time (s).

        Returns
        -------
        ndarray (m,)
            Empty by default (no constraints).

        Notes
        -----
        The class example shows it in use.
        """
        return np.zeros(0)

    def constraint_jacobian(self, q, t):
        """The constraint Jacobian ``Phi_q(q, t)``.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        t : float
            Time (s).

        Returns
        -------
        ndarray or scipy.sparse matrix (m, n)

        Notes
        -----
        The class example shows it in use.
        """
        return np.zeros((0, self.n_coordinates))

    def constraint_force(self, q, lam, t):
        """The constraint forces ``Phi_q(q, t)^T lam``; override when cheaper than Phi_q.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        lam : ndarray (m,)
            Multipliers.
        t : float
            Time (s).

        Returns
        -------
        ndarray (n,)

        Notes
        -----
        The class example shows it in use.
        """
        return self.constraint_jacobian(q, t).T @ lam

    def constraint_rate(self, q, v, t):
        """The product ``Phi_q(q, t) v``; override when cheaper than forming Phi_q.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and velocities.
        t : float
            Time (s).

        Returns
        -------
        ndarray (m,)

        Notes
        -----
        The class example shows it in use.
        """
        return self.constraint_jacobian(q, t) @ v

    def constraint_curvature(self, q, lam, t):
        """The constraints' curvature ``d(Phi_q^T lam)/dq`` for Newton's matrix.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        lam : ndarray (m,)
            Multipliers.
        t : float
            Time (s).

        Returns
        -------
        ndarray or scipy.sparse matrix (n, n), or None
            None (the default) for linear constraints.

        Notes
        -----
        The class example shows it in use.
        """
        return None

    def velocity_bias(self, q, t):
        """The explicit time derivative Phi_t, so that ``Phi' = Phi_q v + Phi_t``.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        t : float
            Time (s).

        Returns
        -------
        ndarray (m,)
            Zero (the default) for constraints that do not depend on time.

        Notes
        -----
        The class example shows it in use.
        """
        return np.zeros(self.n_constraints)

    def acceleration_bias(self, q, v, t):
        """The acceleration bias ``xi``, so that ``Phi'' = Phi_q a + xi``.

        ``xi = (Phi_q v)_q v + 2 Phi_qt v + Phi_tt``; used for consistent initial
        accelerations and the acceleration projection.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and velocities.
        t : float
            Time (s).

        Returns
        -------
        ndarray (m,)
            Zero by default (linear, time-independent constraints).

        Notes
        -----
        The class example shows it in use.
        """
        return np.zeros(self.n_constraints)

    def power(self, q, v, t, lam):
        """Power of the external forces and drives, and the dissipated power.

        The loop integrates them (trapezoidal rule) into the ``work`` and ``dissipated`` of its
        :class:`~rancf.integrators.solution.Solution`.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and velocities.
        t : float
            Time (s).
        lam : ndarray (m,)
            Multipliers.

        Returns
        -------
        tuple of 2 floats or None
            ``(P_ext, P_diss)`` in W; None (the default) when the problem does not track work.

        Notes
        -----
        The class example shows it in use.
        """
        return None

    # --- linear algebra ----------------------------------------------------------------
    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w,
                      factor=True):
        """Assemble and factor the Newton matrix of a step (module docstring).

        The default assembles it from :meth:`mass`, :meth:`mass_derivative`,
        :meth:`stiffness`, :meth:`constraint_curvature`, :meth:`damping` and
        :meth:`constraint_jacobian`, dense or sparse by ``linear_solver``.

        Parameters
        ----------
        q_e, a_e, lam, v_e : ndarray
            Where the equation of motion is evaluated: coordinates, accelerations,
            multipliers, velocities.
        t_e : float
            Its time (s).
        q_new : ndarray (n,)
            Where the constraints are evaluated (the new step).
        t_new : float
            Its time (s).
        c_m, c_mq, c_k, c_c, w : float
            The scheme's weights of the mass, the mass derivative, the stiffness and
            constraint curvature, the damping, and the multiplier column.
        factor : bool
            Return a factorization (default) or the assembled matrix.

        Returns
        -------
        NewtonFactor or ndarray or scipy.sparse.csc_matrix
            A factorization whose ``solve(r_dyn, r_con)`` returns ``(da, dlam)`` with
            ``S [da; dlam] = [r_dyn; r_con]``; with ``factor=False`` the matrix S.

        Notes
        -----
        The class example shows it in use.
        """
        n, m = self.n_coordinates, self.n_constraints
        terms = ((c_mq, self.mass_derivative(q_e, a_e) if c_mq else None),
                 (c_k, self.stiffness(q_e, v_e, t_e) if c_k else None),
                 (c_k, self.constraint_curvature(q_e, lam, t_e) if c_k and m else None),
                 (c_c, self.damping(q_e, v_e, t_e) if c_c else None))
        B = self.constraint_jacobian(q_new, t_new) if m else None
        # Phi_q is evaluated once when both blocks sit at the same point (every scheme but -S).
        G = (B if q_e is q_new else self.constraint_jacobian(q_e, t_e)) if m else None
        if self.linear_solver == "sparse":
            A = c_m * sp.csr_matrix(self.mass(q_e))
            for c, mat in terms:
                if mat is not None:
                    A = A + c * sp.csr_matrix(mat)
            S = sp.csc_matrix(A) if m == 0 else \
                sp.bmat([[A, (sp.csr_matrix(G) * w).T], [sp.csr_matrix(B), None]], format="csc")
            return NewtonFactor(S, m, True) if factor else S
        # The terms in the same order as in the sparse branch (same round-off); built on
        # contiguous arrays, as numpy's per-call overhead dominates at these sizes.
        A = c_m * _dense(self.mass(q_e))
        for c, mat in terms:
            if mat is not None:
                A += c * _dense(mat)
        S = np.zeros((n + m, n + m))
        S[:n, :n] = A
        if m:
            S[:n, n:] = (_dense(G) * w).T
            S[n:, :n] = _dense(B)
        return NewtonFactor(S, m, False) if factor else S

    def gram_solver(self, J):
        """A solver of the Gram matrix ``J J^T`` for the projections.

        Parameters
        ----------
        J : ndarray or scipy.sparse matrix (m, n)
            The constraint Jacobian Phi_q, of full row rank.

        Returns
        -------
        callable
            ``solve(r) = (J J^T)^-1 r``.

        Raises
        ------
        numpy.linalg.LinAlgError
            ``J J^T`` is not positive definite (J is rank deficient).

        Notes
        -----
        The class example shows it in use.
        """
        if sp.issparse(J):
            lu = spla.splu(sp.csc_matrix(J @ J.T))
            return lu.solve
        # LAPACK directly: scipy.linalg.cho_factor's argument checks cost more than the
        # factorization of an m x m Gram matrix.
        c, info = _potrf(J @ J.T, lower=False, clean=False)
        if info:
            raise np.linalg.LinAlgError(f"J J^T is not positive definite (LAPACK potrf info = {info})")
        return lambda r: _potrs(c, r, lower=False)[0]


    def consistent_state(self, q, v, t=0.0, metric="euclidean", tol=1e-12, max_iter=20,
                         positions=True, advice=""):
        """``(q, v)`` moved onto the constraints at t: the one projection of the library
        (:meth:`rancf.formulations._problem.StepProblem.consistent`, the routine the implicit
        loop projects with after a step) run on this problem through
        :class:`~rancf.formulations._problem.PythonProblem`.

        Positions by Gauss-Newton's minimum-norm steps ``dq = -Phi_q^+ Phi`` (Euclidean) until
        ``max |Phi| <= tol``; velocities by the least change in the metric W,
        ``[W Phi_q^T; Phi_q 0] [v'; mu] = [W v; -Phi_t]``: W = I ("euclidean", the nearest
        velocities in the coordinates) or W = M ("mass", the kinetic-energy metric: from
        ``v = 0``, the motion of least kinetic energy that the drives impose).

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and velocities.
        t : float
            Time (s).
        metric : {"euclidean", "mass"}
            W of the velocity projection.
        tol : float
            Bound on ``max |Phi|`` (the constraints' units, m for positions).
        max_iter : int
            Gauss-Newton steps at most.
        positions : bool
            Move q (True) or take it as it is (False: the caller has checked it).
        advice : str
            Appended to the error's message (what the user may change).

        Returns
        -------
        q, v : ndarray (n,)
            New arrays.

        Raises
        ------
        ValueError
            ``max |Phi|`` still above tol after ``max_iter`` steps; metric not one of the two.

        Notes
        -----
        The class example shows it in use.
        """
        from ._problem import PythonProblem
        if metric not in ("euclidean", "mass"):
            raise ValueError(f"metric must be 'euclidean' or 'mass', got {metric!r}")
        q, v, ok = PythonProblem(self).consistent(q, v, t, tol, max_iter, positions,
                                                  metric == "mass")
        if not ok:
            raise ValueError(f"the initial positions do not satisfy the joints (off by "
                             f"{np.abs(self.constraint(q, t)).max():.3g} after {max_iter} "
                             f"Gauss-Newton steps){advice}")
        return q, v


def _dense(mat):
    if isinstance(mat, np.ndarray):
        return mat
    return mat.toarray() if sp.issparse(mat) else np.asarray(mat, dtype=float)


_getrf, _getrs, _potrf, _potrs = sla.get_lapack_funcs(("getrf", "getrs", "potrf", "potrs"),
                                                       dtype=np.float64)


class NewtonFactor:
    """LU factors (LAPACK or SuperLU) of a Newton matrix; ``solve`` splits the solution into (da, dlam).

    A dense S is handed to LAPACK's getrf/getrs directly (as :func:`scipy.linalg.lu_factor`
    does, without its argument checks, which dominate on the small systems of rigid-body
    models).

    Raises
    ------
    RuntimeError
        S is exactly singular (SuperLU's error, and the dense factors' zero pivot alike).
    """

    def __init__(self, S, m, sparse):
        self.m = m
        self.sparse = sparse
        if sparse:
            self.lu = spla.splu(sp.csc_matrix(S))
            return
        self.lu, self.piv, info = _getrf(S)
        if info > 0:
            # as SuperLU does (the sparse branch), so that the implicit loop names a singular
            # matrix for either: its solve would give non-finite increments
            raise RuntimeError(f"Factor is exactly singular (pivot {info} of the LU factors "
                               "is zero)")

    def solve(self, r_dyn, r_con):
        r = np.concatenate([r_dyn, r_con]) if self.m else r_dyn
        x = self.lu.solve(r) if self.sparse else _getrs(self.lu, self.piv, r)[0]
        n = x.size - self.m
        return x[:n], x[n:]
