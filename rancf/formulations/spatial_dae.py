"""The absolute-coordinate DAE of a spatial model (theory: The spatial DAE formulation).

Every body of a :class:`rancf.model.spatial_tree.SpatialTree` (beam node or rigid body) is a rigid
body in absolute coordinates ``x_i = (r_i, p_i)``: the position of its origin (m) and the **Euler
parameters** ``p = (p0, e)`` of its frame (a unit quaternion, scalar first), 7 per body, with the
norm constraint ``(p . p - 1) / 2 = 0``. Every link that is not a beam element is a joint whose
kind adds constraint rows with analytic Jacobians; a beam element adds its strain energy, computed
from its two nodes' frames by the element kernel of :mod:`rancf.elements.spatial_beam` (theory:
The spatial DAE formulation)::

    u = A_p^T (r_c - r_p) - s,    psi = log(A_p^T A_c Q^T),    F = (de/dx)^T f(u, psi, u', psi')

with ``f = -dU/de - (damping)`` the element's force in its coordinates and ``de/dx`` the chain rule
below. The index-3 DAE ``M(x) x'' + Phi_x^T lambda = F(x, x', t)``, ``Phi(x, t) = 0`` is an
:class:`~rancf.formulations.problem.IndexThreeDAE`, and its ``compiled`` problem
(:class:`rancf.formulations._spatial_dae.SpatialProblem`, a
:class:`~rancf.formulations._problem.StepProblem`) is what the one implicit loop
(:func:`rancf.integrators.implicit.integrate`: Newmark, HHT, generalized-alpha,
generalized-alpha-S, the projections) runs, as it runs the planar DAE's; the matrices this class
returns are ``scipy.sparse``.

Why Euler parameters. The implicit loop updates its coordinates additively (Newmark's formulas
``x_{n+1} = x_n + h v_n + ...``); Euler parameters live in R^4, where that update is exact
geometry, and they have no singular rotation, so a body turns through any angle without a chart
change. The price is one constraint row per body and a mass matrix that depends on p
(``4 G^T J G``), which the loop's contract already carries (``mass_derivative``, the -S scheme).
A rotation vector on the Lie group would need a multiplicative update inside the loop (new
machinery in the compiled stepper), and a plain rotation vector is singular at ``2 pi``.
M turns with the body: Chung and Hulbert's weighted form of generalized-alpha (``(1 - am) M_n
a_n + am M_{n+1} a_{n+1}``, exact for a constant M) would be first order on fast rotations;
the loop runs HHT and generalized-alpha in Arnold and Bruls' form (the equation at the new
step), second order as Newmark and generalized-alpha-S, which evaluates ``M(q_f) a_m`` at one
point, are (tests/test_spatial_dae.py checks -S's order on tumbling bodies;
tests/test_spatial_simulate.py the schemes' in the recursion).

Kinematics (``E(p) = [-e, e^ + p0 I]``, ``G(p) = [-e, -e^ + p0 I]``, 3 x 4, linear in p):
``A(p) = E G^T`` (quadratic in p, a rotation where ``|p| = 1``), global angular velocity
``w = 2 E p'``, body angular velocity ``2 G p'``, and on the manifold ``p' = E^T w / 2``. Where the
element and the loads need an exact rotation off the manifold (Newton's iterates) they use
``A(p) / (p . p)``, whose angular variation is ``dtheta = 2 E dp / (p . p)``.

Mass and inertial forces. ``T = m v.v / 2 + 2 p'^T G^T J G p'`` (J the body-frame inertia about the
origin, the centre of mass) gives ``M = diag(m I3, 4 G^T J G)`` per body and the quadratic
velocity force ``8 G(p')^T J G(p') p`` (the gyroscopic moment); M is singular along p, which the
norm row's multiplier takes.

Constraints of a link (parent p, ground: ``r_p = 0``, ``p_p = (1, 0, 0, 0)``, no columns; child c;
``rq = conj(p_p) (x) p_c (x) conj(q_Q)`` the relative quaternion, ``A(rq) = R(q)``;
``delta = A(p_p)^T (r_c + A(p_c) o - r_p) - anchor = t(q)`` the joint point's relative position
in the parent's frame; ``b1, b2`` unit vectors completing the axis a0):

Rows by primitive: a link holds what its motion's primitives do not free
(:class:`rancf.joints.kind.SpatialMotion`), its rotation rows by the rotation's, its translation
rows by the translation's:

- ``R_NONE``: ``vec(rq) = 0`` (3); ``R_AXIS``: ``vec(rq) . b1 = vec(rq) . b2 = 0`` (2);
  ``R_TWO_AXES``: ``(A(p_p) a0) . (A(p_c) Q^T a1) - a0 . a1 = 0`` (1: ``a0 . R a1`` is constant
  for ``R = exp(q0 a0^) exp(q1 a1^)``); ``R_VECTOR``: none.
- ``T_NONE``: ``delta = 0`` (3); ``T_AXIS``: ``delta . b1 = delta . b2 = 0`` (2); ``T_FREE``:
  none.
- A drive prescribes a one-coordinate motion's coordinate: an angle (``R_AXIS``), whose rotation
  rows are then ``vec(conj(q_d(t)) (x) rq) = 0`` (3) with ``q_d = (cos theta/2, sin theta/2
  a0)``; a slide (``T_AXIS``), whose translation rows are then ``delta - s(t) a0 = 0`` (3).

So fixed has 3 + 3 rows, revolute 2 + 3, prismatic 3 + 2, cylindrical 2 + 2, universal 1 + 3,
spherical 0 + 3, free none.

Joints that close loops add the rows of their kind between two bodies of the tree; a driven
revolute or prismatic one its driven rows as a tree joint's (the model's ``drives`` of those
joints, a function of t or a coordinate held, kept by the DAE after the tree's in the drive
table: :meth:`SpatialDAE._targets`).

Cables. The nodes of spatial ANCF cables (:mod:`rancf.elements.ancf_cable`) add their
coordinates ``[r, r']`` (6 a node, no rotation parameters) after the bodies' 7 n: a constant
consistent mass (assembled once), the constant gravity force ``F_G`` (potential ``-F_G . x``),
the kernels' elastic and damping forces with their exact tangents (relative to a curved
cable's rest state, ``tree.cable_rest``). A start from a :class:`rancf.State` gives the cable
coordinates and rates directly (:meth:`state_of_poses`), and the bases its cable frames move
on from (:meth:`SpatialDAE.start_cable_frames`). A joint at a cable point
(:class:`_CableLink`) has the rows ``x_child - x_parent = 0`` of its two points (spherical: 3;
a side is the ground, a body point ``r + A(p) o`` or a cable node's r) and, for a clamp
(``fixed``), ``(A(p_o) b_i) . r' = 0`` (i = 1, 2; b_i of the other side's frame, normal to the
cable's reference tangent): r' stays along that side's axis and its length, the stretch at the
clamp, is free (as Exudyn's clamp, slope y and z held, and Chrono's ``ChLinkDirFrame``). The
rows hold with r' along that axis of either sign; the reversed sign, the cable's slope turned
over against the axis, is no state of the clamp (it passed through zero length there, its
material line inverted), and the compiled problem's accept refuses a state where
``r' . (A(p_o) (b_1 x b_2))`` is not positive, as the planar DAE refuses a held angle turned
half a turn: a load step that converges there is cut, a time step fails
(``CableLinkKernel.turned_over``; a horizontal cable with a body clamped at its tip reached
that state from its first load step). Between two nodes of one cable (a ring's end on its
start) a clamp is a splice, ``r'_child - r'_parent = 0`` (3): the cable continues through it
as through a node. Their
reaction on a cable node is the force on r and the moment ``r' x g_{r'}`` of the clamp's
generalized force on the slope.

Joints at a point between two nodes of a beam (``beam.at(s)``, :class:`_ArcLink`). Such a
side's pose is the point at xi of its element's constant-strain curve and the element's frame
there, ``X = r_a + A_a L(psi, d)``, ``q = p_a (x) exp_q(xi psi)`` (``psi = log(A_a^T A_b)``,
``d = A_a^T (r_b - r_a)``, unit rotations ``A(p) / (p . p)``; the point and frame
``Result.position`` and ``orientation`` of ``beam.at(s)`` follow, and ``A(q)`` is the frame
times ``p_a . p_a`` as a body's ``A(p)`` is its frame times ``p . p``), and the joint's rows
are those of its kind above between its sides' poses, a body's or the ground's as they are;
their Jacobian is the analytic one of the table times the pose's, ``dPhi/dx = (dPhi/dy)
(dy/dx)`` (:func:`rancf.formulations._spatial_dae.arc_pose`), on the columns of the element's
two nodes. At xi = 0 the pose is node a's coordinates exactly, and the rows and Jacobian
those of the joint at the node. Such a joint is a loop link of the tree (the item it hangs
is a free body there) and takes no drive, effort or spring-damper on its coordinate; its
reaction on the child is the generalized constraint force on the child side's pose turned
into a force and a moment as a body's.

Every row is a polynomial in x of degree four at most (A(p) quadratic, rq bilinear) and linear
in the drive's target (``q_d`` or ``s a0``). The acceleration bias
``xi = (Phi_x v)_x v + 2 Phi_xt v + Phi_tt`` is the second derivative of ``Phi(x + tau v, t + tau)``
at ``tau = 0`` with the target replaced by its Taylor polynomial of order two in tau (from the
drive's ``(theta, theta', theta'')``): a polynomial of degree four at most in tau, whose
derivatives the seven-point central stencils give exactly (they are exact up to degree six and
seven), with a step that makes ``tau v`` of order one (round-off ``eps`` relative); ``Phi_t``
likewise with v = 0. The curvature ``d(Phi_x^T lambda)/dx`` (Newton's matrix only) is central
differences of the analytic ``Phi_x^T lambda``.

Reactions. The generalized constraint force on a joint's child is ``-Phi_{x_c}^T lambda``: its
position part is the force F, its Euler-parameter part ``Q_p`` the moment ``E(p_c) Q_p / 2`` about
the child's origin, moved to the joint point by ``M_x = M - (A_c o) x F`` (the recursion's
convention, :meth:`rancf.formulations.spatial.Spatial.reactions`): what the joint's rows
transmit, the joint's effort and spring-damper (applied forces) not part of it.

Efforts and spring-dampers. A joint's effort, one generalized force g per coordinate of the
joint (the recursion's, :class:`rancf.formulations.spatial.Inputs`), acts as the pair of wrenches
whose power is ``g q'``: on the child the force ``g A_p f`` at the joint point and the moment
``g (A_p m_p + A_c m_c)``, on the parent their opposites (f, m_p, m_c per kind:
:meth:`rancf.joints.kind.SpatialMotion.effort_directions`, a revolute's moment about its axis, a
prismatic's force along it, a spherical joint's torque and a free joint's force and torque in the
parent's frame), so the
DAE's accelerations are the recursion's. Efforts act on the tree's joints and on joints that close
loops; an effort function ``effort(t, q, qd)`` gets the joint's coordinates and rates of
:meth:`SpatialDAE.joint_coordinates`. A joint spring-damper is such a generalized force,
``-k (q - q0) - c q'`` on a revolute's angle or a prismatic's slide (of the tree or closing a
loop), or on a spherical joint the torque ``-k theta - c w`` in the parent's frame (three rows,
one a component: ``theta = log(A_p^T A_c Q^T R_0^T)`` the turn from the rest rotation, w the
relative angular velocity; ``JointSpringKind`` of the compiled module); a spring-damper
between points is the force ``f n`` on its first point and ``-f n`` on
its second, ``f = k (l - l0) + c l'``; an end at a point between two nodes of a beam
(``beam.at(s)``) is the point of the element's curve there, its force the wrenches on the
element's two nodes that do its virtual work (:class:`rancf.formulations._spatial_dae.
ArcSpringKernel`, its tangents by central differences in its own columns). The angles the springs and effort functions see (a
revolute's, a cylindrical joint's, a universal joint's two) are continuous, as the recursion's
(theory: Joint coordinates): ``q = ref + wrap(log(R) . a0 - ref)``, wrap to [-pi, pi), ref the
angle of the last accepted step (moved by the compiled problem's ``accept``, never at Newton's
iterates: ``SpatialDAE._accept_angles`` is its reference), so that a spring's rest angle or an
effort's ``-k q`` holds past +-pi; the references are the run's (this formulation's, one made
for each run), kept beside each output for its energies and reactions. An effort function of a
spherical or free joint gets its rotation vector as the recursion has it: that continues past pi
within a step and is re-centred to ``log(R)`` (angle at most pi) after it
(:mod:`rancf.formulations.spatial`), so the DAE moves ``log(R)`` to the other vector of the
rotation, ``psi (1 - 2 pi / |psi|)``, where that is nearer the last accepted step's
(``SpatialDAE._psi_continued``): an effort such as ``-K psi`` jumps at the end of the step in
which the angle crosses pi in both. The springs' potentials are in ``energy``'s ``elastic``,
their damping in the dissipation, the efforts' power in the work. All items of a kind run in one
compiled call (:mod:`rancf.formulations._spatial_dae`: ``joint_wrenches``, ``joint_spring_values``,
``point_springs``) on their bodies' states; Newton's matrix gets their stiffness and damping
blocks by central differences of each item's force in its two bodies' states (all items and
their 28 perturbations in one call a kind, the efforts' values held), and an effort function's
own slopes through its joint's coordinates (``SpatialDAE._effort_tangents``: a joint an effort
such as ``-K q`` alone holds has its stiffness there). An effort function gets its joint's
coordinates and rates from one compiled call for all of them (``joint_values``: the map of
:meth:`SpatialDAE.joint_coordinates` with exact rates, every joint kind); the function itself
runs once per evaluation, and 4 times a coordinate per Newton matrix (its slopes). A model
without efforts or spring-dampers runs none of this.

Work. :meth:`SpatialDAE.power` gives the loop the power of the loads, of the drives
(``lambda . Phi_t``), of the efforts and the elements' and spring-dampers' dissipation, so a
run's ``work`` and ``dissipated`` close the energy balance with :meth:`SpatialDAE.energy`.

Newton's matrix: the element's tangent is the exact ``B^T K B`` plus its geometric part (from the
change of ``de/dx``) by central differences of the element's force in x; the gyroscopic force's
Jacobian by central differences, the loads' likewise: a load on a body in that body's Euler
parameters (all it depends on), a load between two nodes in both nodes' coordinates (14 x 14 on
their columns: its wrenches on each node depend on the other's pose through the element's
curve); converged residuals do not depend on them.

Compiled work. A step runs in C (:class:`rancf.formulations._spatial_dae.SpatialProblem`):
the residual, the rows, the Jacobian, the biases' stencils, the power and the violations over the
compiled kernels of the links, joints at cable points, beam elements, cable elements and bodies
(all items of a kind in one call), Newton's matrix summed on sparsity patterns built with the
formulation (:meth:`SpatialDAE._patterns`: only its values are filled at a step) into
preallocated arrays and factored by LAPACK's dense LU up to :data:`DENSE_BELOW` unknowns, by
SuperLU beyond. Python runs in a step only for a model's Python inputs: its drive functions
once for each new time (the targets' jets are computed in C from their values), and where a
model has them its load functions and its effort functions' values
(:meth:`SpatialDAE._efforts_at`); the loads', efforts' and spring-dampers' forces and
tangents (the loads': :meth:`SpatialDAE._body_tangents`) are computed in C. The methods of the
:class:`~rancf.formulations.problem.IndexThreeDAE` contract here (``force``, ``mass_action``,
``constraint``, ``constraint_jacobian``, the biases, ``newton_matrix``, ``power``) are views of
that problem; ``mass``, ``mass_derivative``, ``stiffness``, ``damping`` and
``constraint_curvature`` assemble the terms one by one (the reference its Newton matrix is
tested against). The outputs of a run are mapped when its Result is first asked for them:
all frames at once (:class:`SpatialFrames`; the joints' coordinates by
:func:`rancf.formulations._spatial_dae.link_coordinates`), and its reactions
(:class:`SpatialReactions`, one saddle-point solve per output).
"""
import contextlib
import threading

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
from scipy.spatial.transform import Rotation
from threadpoolctl import OpenBLASController, ThreadpoolController

from ..elements import _ancf_cable, _spatial_beam, ancf_cable
from ..elements.planar import whole_turns, wrap
from ..joints._codes import (ARC_SIDE_ARC, ARC_SIDE_BODY, ARC_SIDE_GROUND, CABLE_SPHERICAL,
                             CABLE_SPLICE, R_AXIS, R_NONE, R_TWO_AXES, R_VECTOR, ROT_AXIS,
                             ROT_LOCK, ROT_NONE, ROT_UNIVERSAL, T_AXIS, T_FREE, T_NONE, TR_LOCK,
                             TR_NONE, TR_PLANE, MOTION_ELEMENT, LinkDrive, LinkSide, Motion,
                             motion_primitives, motion_size)
from ..joints import motion_words
from ..joints.kind import SpatialMotion
from . import _spatial_dae, redundancy, start_check
from ._spatial_dae import FRAME_SIZE, LINK_SIZE, POSE_SIZE, TWIST_SIZE
from .inputs import Recorded, effort_slopes
from .turns import on_agreeing_turns, on_branch, on_turns
from ._spatial import arc_point_wrenches
from .problem import IndexThreeDAE, NewtonFactor
from .spatial import (CABLE_ELEMENT, CABLE_NODE, Spatial, _check_frames, _check_slopes,
                      _link_coordinates, _vector, cable_bases, cable_frames)

#: Euler parameters per body (a unit quaternion, scalar first)
N_EULER = 4
#: the most coordinates of a joint (a free joint's): the width of the kernels' joint values
_MOST = motion_size(Motion.M_FREE)
#: Unknowns (coordinates and multipliers) up to which the Newton matrix is factored dense
#: (LAPACK getrf): below it SuperLU's ordering, redone at every factorization, costs more than
#: the dense elimination it saves
DENSE_BELOW = 200
_EYE4 = np.eye(N_EULER)
_BLAS = []
#: the runs inside :func:`one_blas_thread` and the thread counts saved when the first entered
_BLAS_LOCK = threading.Lock()
_BLAS_RUNS = [0, None]


@contextlib.contextmanager
def one_blas_thread():
    """A context in which BLAS and LAPACK run on one thread, for a run of the compiled problem:
    its dense LU (at most :data:`DENSE_BELOW` unknowns) gains nothing from threads, and a
    threaded BLAS, on a machine whose cores are busy, waits at every call for its threads'
    turn. The libraries are found once (threadpoolctl). Their thread counts are process-wide,
    so runs in several threads share one limit: the first run to enter saves the counts and
    sets one thread, the last to leave restores them (each run saving and restoring its own
    would let the first to leave give the others their threads back mid-run, and the last
    restore the one thread for good).

    threadpoolctl (3.8 and later) lets one Python thread at a time set the count of an OpenBLAS
    built on pthreads, the first to set it, until it clears its control, and silently ignores
    the others: were the count set without that control, after a run in the main thread a
    run in any other thread (a sweep's thread pool, a GUI's worker) would keep BLAS's default
    threads, and a restore from a thread other than the controlling one would leave one thread
    for good. The counts
    are set here under the lock, so each set takes the control
    (:func:`_set_blas_threads`) and gives it back."""
    with _BLAS_LOCK:
        if not _BLAS:
            _BLAS.append(ThreadpoolController().select(user_api="blas").lib_controllers)
        if not _BLAS_RUNS[0]:
            _BLAS_RUNS[1] = [lib.num_threads for lib in _BLAS[0]]
            _set_blas_threads([1] * len(_BLAS[0]))
        _BLAS_RUNS[0] += 1
    try:
        yield
    finally:
        with _BLAS_LOCK:
            _BLAS_RUNS[0] -= 1
            if not _BLAS_RUNS[0]:
                _set_blas_threads(_BLAS_RUNS[1])


def _set_blas_threads(counts):
    """Set the thread count of each library of :func:`one_blas_thread` (``counts``, in its
    order) from this thread, whichever thread threadpoolctl lets control OpenBLAS: the control
    is taken (cleared by force, then taken by the first set) and given back, so that no thread
    keeps it. Called under ``_BLAS_LOCK``."""
    clear = getattr(OpenBLASController, "clear_controlling_thread", None)   # threadpoolctl 3.8
    if clear is not None:
        clear(force=True)
    try:
        for lib, n in zip(_BLAS[0], counts):
            lib.set_num_threads(n)
    finally:
        if clear is not None:
            clear()


_CONJ = np.diag([1.0, -1.0, -1.0, -1.0])


def skew(a):
    """The 3 x 3 cross-product matrix of a 3-vector."""
    x, y, z = float(a[0]), float(a[1]), float(a[2])
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def _skews(a):
    out = np.zeros(a.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2], out[..., 1, 2] = -a[..., 2], a[..., 1], -a[..., 0]
    out[..., 1, 0], out[..., 2, 0], out[..., 2, 1] = a[..., 2], -a[..., 1], a[..., 0]
    return out


#: E(p) = sum_k p_k EK[k] = [-e, e^ + p0 I], G likewise with -e^ (both linear in p)
_EK = np.zeros((N_EULER, 3, N_EULER))
_EK[0, :, 1:] = np.eye(3)
_EK[1:, :, 0] = -np.eye(3)
_EK[1:, :, 1:] = _skews(np.eye(3))
_GK = _EK.copy()
_GK[1:, :, 1:] *= -1.0


def _E(p):
    """E(p) (..., 3, 4): ``w = 2 E p'`` the global angular velocity. Each entry is one p_k
    times 1 or -1, so the product with the constant ``EK`` is exact."""
    p = np.asarray(p, dtype=float)
    return (p.reshape(-1, N_EULER) @ _EK.reshape(N_EULER, -1)).reshape(p.shape[:-1] + (3, N_EULER))


def _G(p):
    """G(p) (..., 3, 4): ``2 G p'`` the body-frame angular velocity (exact, as :func:`_E`)."""
    p = np.asarray(p, dtype=float)
    return (p.reshape(-1, N_EULER) @ _GK.reshape(N_EULER, -1)).reshape(p.shape[:-1] + (3, N_EULER))


def rotation(p):
    """``A(p) = E(p) G(p)^T`` (..., 3, 3), quadratic in p (a rotation where |p| = 1)."""
    p = np.asarray(p, dtype=float)
    if p.ndim == 1:
        # the same product written out: (p0^2 - e.e) I + 2 e e^T + 2 p0 e^ (one p in the
        # constraint rows, where the general form's array set-up dominates)
        p0, e = p[0], p[1:]
        return (p0 * p0 - e @ e) * np.eye(3) + 2.0 * np.outer(e, e) + 2.0 * p0 * skew(e)
    return np.einsum("...ik,...jk->...ij", _E(p), _G(p))


def rotation_derivative(p):
    """``dA/dp_k`` (4, 3, 3) at one p (4,), linear in p: ``sum_j p_j (dA/dp_k)(e_j)``."""
    return np.tensordot(_DA, np.asarray(p, dtype=float), axes=([1], [0]))


#: ``(dA/dp_k)(e_j)`` (4, 4, 3, 3): ``dA/dp_k = E_k G^T + E G_k^T`` at the unit quaternions e_j
_DA = (np.einsum("kia,nja->knij", _EK, _GK) + np.einsum("nia,kja->knij", _EK, _GK))


def quaternion(A):
    """The unit quaternion (scalar first) of rotation matrices A (..., 3, 3)."""
    x = Rotation.from_matrix(np.asarray(A, dtype=float).reshape(-1, 3, 3)).as_quat()
    return np.concatenate([x[:, 3:], x[:, :3]], axis=1).reshape(np.shape(A)[:-2] + (4,))


def qmul(a, b):
    """Quaternion product a (x) b (scalar first)."""
    return qleft(a) @ b


def qleft(a):
    """L(a) with ``a (x) b = L(a) b``."""
    w, x, y, z = float(a[0]), float(a[1]), float(a[2]), float(a[3])
    return np.array([[w, -x, -y, -z], [x, w, -z, y], [y, z, w, -x], [z, -y, x, w]])


def qright(b):
    """R(b) with ``a (x) b = R(b) a``."""
    w, x, y, z = float(b[0]), float(b[1]), float(b[2]), float(b[3])
    return np.array([[w, -x, -y, -z], [x, w, z, -y], [y, -z, w, x], [z, y, -x, w]])


def _complement(a):
    """Two unit vectors completing the unit vector a to an orthonormal basis (2, 3)."""
    t = np.eye(3)[int(np.argmin(np.abs(a)))]
    b1 = np.cross(a, t)
    b1 /= np.linalg.norm(b1)
    return np.array([b1, np.cross(a, b1)])


# the rotation and translation rows of a link (module docstring's table): what its motion's
# primitive does not free, the link holds
_HELD_ROTATION = {R_NONE: ROT_LOCK, R_AXIS: ROT_AXIS, R_TWO_AXES: ROT_UNIVERSAL,
                  R_VECTOR: ROT_NONE}
_HELD_TRANSLATION = {T_NONE: TR_LOCK, T_AXIS: TR_PLANE, T_FREE: TR_NONE}

# the seven-point stencil of the first derivative, exact for polynomials of degree seven
_TAUS = np.arange(-3, 4, dtype=float)
_D1 = np.array([-1.0, 9.0, -45.0, 0.0, 45.0, -9.0, 1.0]) / 60.0


class _Link:
    """One joint's constraint rows (module docstring's table): parent body (-1 the ground),
    child body, motion, anchor (parent's frame), offset (child's frame), Q (reference
    relative orientation), axes a0, a1 (parent's frame), the unit quaternion qQ of Q (the
    caller's :func:`quaternion` of all links' Q in one call: scipy's set-up of a call costs
    more than the rest of a link), the drive's coordinate (or -1)."""

    def __init__(self, parent, body, motion, anchor, offset, Q, a0, a1, qQ, driven=-1):
        self.body, self.parent = int(body), int(parent)
        if not 0 <= int(motion) < MOTION_ELEMENT:
            raise ValueError(f"motion must be a joint's Motion code (a composition of a "
                             f"Translation and a Rotation), got {motion!r}")
        self.motion = int(motion)
        #: its primitives (rancf.joints.kind.SpatialMotion)
        self.spatial = SpatialMotion(*motion_primitives(motion))
        self.rot = _HELD_ROTATION[self.spatial.rotation]
        self.tr = _HELD_TRANSLATION[self.spatial.translation]
        self.anchor = np.array(anchor, dtype=float)
        self.offset = np.array(offset, dtype=float)
        self.Q = Q = np.array(Q, dtype=float)
        self.qQc = _CONJ @ qQ                     # conj(q_Q)
        self.QT = rotation(self.qQc)              # its matrix, Q^T (the joint coordinates')
        self.a0 = np.array(a0, dtype=float)
        self.a1 = np.array(a1, dtype=float)
        self.a1c = Q.T @ self.a1                  # a1 in the child's frame
        self.a01 = float(self.a0 @ self.a1)
        self.driven = driven
        # a drive prescribes the one coordinate of a one-coordinate motion: the angle about
        # a0 (the rotation then locked at it) or the slide along a0 (the translation)
        self.turns = self.spatial.rotation == R_AXIS and self.spatial.n_coordinates == 1
        if self.driven >= 0 and self.turns:
            self.rot = ROT_LOCK
        elif self.driven >= 0:
            self.tr = TR_LOCK
        self.B = _complement(self.a0) if (self.rot == ROT_AXIS or self.tr == TR_PLANE) \
            else None
        self.n_rows = ({ROT_NONE: 0, ROT_LOCK: 3, ROT_AXIS: 2, ROT_UNIVERSAL: 1}[self.rot]
                       + {TR_NONE: 0, TR_LOCK: 3, TR_PLANE: 2}[self.tr])
        # columns: the parent's (r, p) when it is a body, then the child's
        c = POSE_SIZE * self.body
        self.columns = np.concatenate([np.arange(POSE_SIZE * self.parent,
                                                 POSE_SIZE * (self.parent + 1))
                                       if self.parent >= 0 else np.zeros(0, int),
                                       np.arange(c, c + POSE_SIZE)]).astype(int)

    @classmethod
    def of_tree(cls, tree, body, qQ, driven):
        """The link of ``body`` in the tree."""
        return cls(tree.parent[body], body, tree.motion[body], tree.anchor[body],
                   tree.offset[body], tree.relative[body], tree.axes[body, 0],
                   tree.axes[body, 1], qQ, driven)

    def target(self, value):
        """The drive's target from its coordinate value: the quaternion ``q_d`` of a revolute
        drive, the slide s of a prismatic one (both enter the rows linearly)."""
        if self.turns:
            return np.concatenate([[np.cos(value / 2)], np.sin(value / 2) * self.a0])
        return value

    def target_jet(self, q, qd, qdd):
        """The target and its first two time derivatives (for Phi_t and xi)."""
        if self.turns:
            c, s = np.cos(q / 2), np.sin(q / 2)
            d1 = np.concatenate([[-s / 2], c / 2 * self.a0])
            d2 = -np.concatenate([[c], s * self.a0]) / 4.0
            t0 = np.concatenate([[c], s * self.a0])
            return t0, d1 * qd, d2 * qd ** 2 + d1 * qdd
        return q, qd, qdd

    def _poses(self, x):
        c = POSE_SIZE * self.body
        rc, pc = x[c:c + 3], x[c + 3:c + POSE_SIZE]
        if self.parent >= 0:
            k = POSE_SIZE * self.parent
            return x[k:k + 3], x[k + 3:k + POSE_SIZE], rc, pc
        return np.zeros(3), _EYE4[0], rc, pc

    def rows(self, x, target):
        """The link's rows (n_rows,) at the coordinates x and the drive's target (numpy: the
        reference the compiled :class:`rancf.formulations._spatial_dae.LinkKernel`, which a
        run uses, is tested against)."""
        rp, pp, rc, pc = self._poses(x)
        out = []
        if self.rot != ROT_NONE and self.rot != ROT_UNIVERSAL:
            rq = qmul(qmul(_CONJ @ pp, pc), self.qQc)
            if self.rot == ROT_LOCK:
                v = qmul(_CONJ @ target, rq)[1:] if self.driven >= 0 and self.turns \
                    else rq[1:]
                out.append(v)
            else:
                out.append(self.B @ rq[1:])
        elif self.rot == ROT_UNIVERSAL:
            out.append([(rotation(pp) @ self.a0) @ (rotation(pc) @ self.a1c) - self.a01])
        if self.tr != TR_NONE:
            Ap = rotation(pp) if self.parent >= 0 else np.eye(3)
            delta = Ap.T @ (rc + rotation(pc) @ self.offset - rp) - self.anchor
            if self.tr == TR_LOCK:
                if self.driven >= 0 and not self.turns:
                    delta = delta - target * self.a0
                out.append(delta)
            else:
                out.append(self.B @ delta)
        return np.concatenate(out) if out else np.zeros(0)

    def jacobian(self, x, target):
        """d(rows)/dx on the link's columns (n_rows, len(columns)) (the compiled kernel's
        reference, as :meth:`rows`)."""
        rp, pp, rc, pc = self._poses(x)
        ground = self.parent < 0
        blocks = []            # each (rows, d/dr_p, d/dp_p, d/dr_c, d/dp_c)
        if self.rot in (ROT_LOCK, ROT_AXIS):
            lead = _CONJ @ target if self.driven >= 0 and self.turns else _EYE4[0]
            # v = vec(lead (x) conj(pp) (x) pc (x) qQc)
            d_pc = (qleft(qmul(lead, _CONJ @ pp)) @ qright(self.qQc))[1:]
            d_pp = (qleft(lead) @ qright(qmul(pc, self.qQc)) @ _CONJ)[1:]
            if self.rot == ROT_AXIS:
                d_pc, d_pp = self.B @ d_pc, self.B @ d_pp
            k = d_pc.shape[0]
            blocks.append((np.zeros((k, 3)), d_pp, np.zeros((k, 3)), d_pc))
        elif self.rot == ROT_UNIVERSAL:
            wp, wc = rotation(pp) @ self.a0, rotation(pc) @ self.a1c
            d_pp = np.einsum("kij,j,i->k", rotation_derivative(pp), self.a0, wc)[None]
            d_pc = np.einsum("kij,j,i->k", rotation_derivative(pc), self.a1c, wp)[None]
            blocks.append((np.zeros((1, 3)), d_pp, np.zeros((1, 3)), d_pc))
        if self.tr != TR_NONE:
            Ap = rotation(pp) if not ground else np.eye(3)
            w = rc + rotation(pc) @ self.offset - rp
            d_rc = Ap.T
            d_pc = Ap.T @ np.einsum("kij,j->ik", rotation_derivative(pc), self.offset)
            d_rp = -Ap.T
            d_pp = np.einsum("kji,j->ik", rotation_derivative(pp), w)
            if self.tr == TR_PLANE:
                d_rp, d_pp, d_rc, d_pc = (self.B @ d for d in (d_rp, d_pp, d_rc, d_pc))
            blocks.append((d_rp, d_pp, d_rc, d_pc))
        if not blocks:
            return np.zeros((0, len(self.columns)))
        return np.vstack([np.hstack(b if not ground else b[2:]) for b in blocks])


def _directions(lk):
    """The effort directions ``(f, m_p, m_c)`` (n_coordinates, 3 each) of a joint's link
    (:meth:`rancf.joints.kind.SpatialMotion.effort_directions`)."""
    return lk.spatial.effort_directions(lk.a0, lk.a1, lk.Q)


class _CableLink:
    """One joint at a spatial ANCF cable point (``SpatialTree.cable_joint_*``): its sides are
    the ground (-1), a body b (columns ``7 b .. 7 b + 7``) or cable node k (numbered
    ``n_bodies + k``; columns ``7 n_bodies + 6 k .. + 6``, ``[r, r']``).

    Rows: the child's point less the parent's (3, global), and for a clamp
    ``(A(p_o) b_i) . r' = 0`` (i = 1, 2) with o the side that is not the cable and b_i its
    ``cable_joint_axes``: r' stays along the axis normal to both, on the side drawn (a state
    with it reversed is refused: module docstring), its length free; for a splice (a clamp
    between two points of one cable: a ring's end on its start) the child's slope less the
    parent's (3): the cable continues through it as through a node."""

    driven = -1

    def __init__(self, tree, k):
        nb = tree.n_bodies
        self.kind = int(tree.cable_joint_kind[k])
        self.motion = Motion.M_FIXED if self.kind else Motion.M_SPHERICAL
        self.spatial = SpatialMotion(*motion_primitives(self.motion))
        self.n_bodies = nb
        self.sides = []
        for body, offset in ((tree.cable_joint_parent[k], tree.cable_joint_anchor[k]),
                             (tree.cable_joint_child[k], tree.cable_joint_offset[k])):
            body = int(body)
            if body < 0:
                self.sides.append(("ground", -1, np.array(offset, dtype=float), np.zeros(0, int)))
            elif body < nb:
                self.sides.append(("body", body, np.array(offset, dtype=float),
                                   np.arange(POSE_SIZE * body, POSE_SIZE * (body + 1))))
            else:
                c = POSE_SIZE * nb + CABLE_NODE * (body - nb)
                self.sides.append(("cable", body - nb, np.zeros(3), np.arange(c, c + CABLE_NODE)))
        self.columns = np.concatenate([side[3] for side in self.sides]).astype(int)
        self.B = np.array(tree.cable_joint_axes[k], dtype=float)
        # the reference relative orientation of the two sides' frames (a cable node's: its
        # reference frame, SpatialDAE.cable_poses), for the joint's coordinates
        frames = [np.eye(3) if kind == "ground" else tree.A0[i] if kind == "body" else
                  tree.cable_frame0[i] for kind, i, _, _ in self.sides]
        self.Q = frames[0].T @ frames[1]
        # the clamp: which side is the cable (its slope), which holds the axes
        self.slope = 1 if self.sides[1][0] == "cable" else 0
        self.n_rows = (3, 5, 6)[self.kind]

    def _point(self, x, side):
        kind, _, offset, cols = side
        if kind == "ground":
            return offset
        if kind == "body":
            return x[cols[:3]] + rotation(x[cols[3:]]) @ offset
        return x[cols[:3]]

    def rows(self, x, target=None):
        """The rows (n_rows,) at the coordinates x (numpy: the reference the compiled
        :class:`rancf.formulations._spatial_dae.CableLinkKernel` is tested against)."""
        out = [self._point(x, self.sides[1]) - self._point(x, self.sides[0])]
        if self.kind == CABLE_SPLICE:
            out.append(x[self.sides[1][3][3:]] - x[self.sides[0][3][3:]])
        elif self.kind:
            cable, other = self.sides[self.slope], self.sides[1 - self.slope]
            A = rotation(x[other[3][3:]]) if other[0] == "body" else np.eye(3)
            out.append((A @ self.B.T).T @ x[cable[3][3:]])
        return np.concatenate(out)

    def jacobian(self, x, target=None):
        """d(rows)/dx on the columns (n_rows, len(columns)) (the compiled kernel's reference)."""
        blocks = []
        for sign, side in ((-1.0, self.sides[0]), (1.0, self.sides[1])):
            kind, _, offset, cols = side
            if kind == "body":
                d = np.hstack([np.eye(3), np.einsum("kij,j->ik",
                                                    rotation_derivative(x[cols[3:]]), offset)])
            elif kind == "cable":
                d = np.hstack([np.eye(3), np.zeros((3, 3))])
            else:
                d = np.zeros((3, 0))
            blocks.append(sign * d)
        J = [np.hstack(blocks)]
        if self.kind == CABLE_SPLICE:
            slope = np.hstack([np.zeros((3, 3)), np.eye(3)])
            J.append(np.hstack([-slope, slope]))
        elif self.kind:
            cable, other = self.sides[self.slope], self.sides[1 - self.slope]
            s = x[cable[3][3:]]
            parts = [None, None]
            if other[0] == "body":
                p = x[other[3][3:]]
                A = rotation(p)
                parts[1 - self.slope] = np.hstack([
                    np.zeros((2, 3)), np.einsum("kij,nj,i->nk", rotation_derivative(p), self.B,
                                                s)])
            else:
                A = np.eye(3)
                parts[1 - self.slope] = np.zeros((2, 0))
            parts[self.slope] = np.hstack([np.zeros((2, 3)), (A @ self.B.T).T])
            J.append(np.hstack(parts))
        return np.vstack(J)


class _ArcLink:
    """A joint with a side at a point between two nodes of a beam (``beam.at(s)``): loop link
    k of the tree, one whose ``loop_arc`` names a second node (``index``: its place among
    these links). Its rows are its kind's (the module docstring's table) between its two
    sides' poses, a side the ground, a body, or the point at xi of a beam element with the
    element's frame there, a function of the element's two nodes
    (:func:`rancf.formulations._spatial_dae.arc_pose`: the point and frame
    ``Result.position`` and ``orientation`` of ``beam.at(s)`` follow); the compiled
    :class:`rancf.formulations._spatial_dae.ArcLinkKernel` gives them and their Jacobian by
    the chain rule through that pose. ``inner`` is the same joint as a :class:`_Link` from a
    body 0 (-1: the ground) to a body 1 whose coordinates are the sides' poses (anchor or
    offset zero at an element's point; ``qQ`` the unit quaternion of its Q). Its columns: the
    parent side's (a body's 7, an element's two nodes' 14, none the ground), then the
    child's."""

    driven = -1

    def __init__(self, tree, k, index, qQ):
        parent, child, motion, anchor, offset, Q, a0, a1 = tree.loops[k]
        self.index = index
        self.inner = _Link(0 if parent >= 0 else -1, 1, motion, anchor, offset, Q, a0, a1, qQ)
        for name in ("motion", "spatial", "turns", "rot", "tr", "B", "n_rows", "anchor",
                     "offset", "qQc", "QT", "a0", "a1", "a1c", "a01"):
            setattr(self, name, getattr(self.inner, name))
        self.parent, self.body = parent, child
        arc = np.asarray(tree.loop_arc[k], dtype=int)
        self.xi = np.array(tree.loop_xi[k], dtype=float)
        sides = (parent, child)
        self.side_kind = [ARC_SIDE_GROUND if b < 0 else ARC_SIDE_ARC if arc[i] >= 0 else
                          ARC_SIDE_BODY for i, b in enumerate(sides)]
        self.side_a = [max(b, 0) for b in sides]
        self.side_b = [max(int(b), 0) for b in arc]
        bodies = [body for i, first in enumerate(sides) if first >= 0
                  for body in ((first,) if arc[i] < 0 else (first, int(arc[i])))]
        self.columns = np.concatenate([np.arange(POSE_SIZE * body, POSE_SIZE * (body + 1))
                                       for body in bodies]).astype(int)


class SpatialDAE(IndexThreeDAE):
    """A spatial model in absolute coordinates (see the module docstring).

    Parameters
    ----------
    tree : rancf.model.spatial_tree.SpatialTree
        Its links may close loops only through ``loops`` (below); a tree's links are its joints
        and elements.
    loads, drives :
        As :class:`rancf.formulations.spatial.Inputs` (the load values, one pair per load of the
        tree; the drives of one-coordinate joints, of the tree or closing a loop).
    efforts : dict, optional
        ``{joint index: effort}`` as :class:`rancf.formulations.spatial.Inputs` takes them, on
        joints of the tree and on joints that close loops (``tree.loop_joint``); not at a cable
        point.
    loops : sequence of tuples
        Joints that close loops besides the tree's own (:attr:`rancf.model.spatial_tree.
        SpatialTree.loops`, which a model's builder keeps), each ``(parent body, child body,
        motion, anchor, offset, Q, a0, a1)`` as a tree link's (:class:`rancf.model.
        spatial_tree.SpatialTree`: anchor in the parent's frame, offset in the child's,
        ``Q = A0_parent^T A0_child``, axes in the parent's frame; parent -1 the ground); not
        driven (the tree's own loop-closing joints take ``drives``, as its other joints).

    Attributes
    ----------
    tree, n_bodies, n_coordinates (7 per body), n_constraints, links (the joint links),
    inputs (their load and drive values, :class:`rancf.formulations.spatial.Inputs`),
    compiled (the problem the implicit loop runs,
    :class:`rancf.formulations._spatial_dae.SpatialProblem`).

    Raises
    ------
    ValueError
        A spring-damper at a cable point, an effort on a joint at a cable point (and what
        :class:`rancf.formulations.spatial.Inputs` refuses).
    """

    formulation = "dae"
    linear_solver = "sparse"

    def __init__(self, tree, loads=None, efforts=None, drives=None, loops=()):
        springs = np.asarray(tree.spring_body, dtype=int)
        if springs.size and (springs >= tree.n_bodies).any():
            raise ValueError("spring-dampers at a cable point are not available in the spatial "
                             "DAE formulation (spring-damper "
                             f"{int(np.nonzero((springs >= tree.n_bodies).any(axis=1))[0][0])}); "
                             "attach its points to bodies or the ground, or run a tree "
                             "with formulation 'recursive'")
        arc_joints = set(int(j) for j, a in zip(tree.loop_joint, np.asarray(
            tree.loop_arc).reshape(-1, 2)) if (a >= 0).any())
        for j in tree.loop_spring_joint:
            if int(j) in arc_joints:
                raise ValueError(f"a spring-damper on joint {int(j)}, which sits at a point "
                                 "between two nodes of a beam: such a joint takes no "
                                 "spring-damper on its coordinate (put a spring-damper between "
                                 "points, or joint a node)")
        efforts = dict(efforts or {})
        # efforts on joints that close loops: the DAE's own (the recursion's inputs hold the
        # tree's)
        closing = set(int(j) for j in tree.loop_joint)
        loop_efforts = {j: efforts.pop(j) for j in sorted(efforts) if j in closing}
        for j in efforts:
            if 0 <= j < len(tree.joint_body) and int(tree.joint_body[j]) < 0:
                raise ValueError(f"efforts: joint {j} sits at a cable point; a joint at a cable "
                                 "point takes no effort (put a load or a spring-damper at the "
                                 "point)")
        self.tree = tree
        # drives on joints that close loops: the DAE's own, after the tree's (n_q) in the
        # drive table (:meth:`_targets`)
        drives = dict(drives or {})
        self._loop_drives = [(j, drives.pop(j)) for j in sorted(drives) if j in closing]
        for j, _ in self._loop_drives:
            m = int(tree.loop_motion[list(tree.loop_joint).index(j)])
            if motion_size(m) != 1:
                raise ValueError(f"drives: joint {j} ({motion_words(m)}) has {motion_size(m)} "
                                 "coordinates; only one-coordinate joints (revolute, prismatic) "
                                 "can be driven")
        # the recursion parses and checks the inputs, and maps joint coordinates to poses
        self.recursion = Spatial(tree, loads, efforts, drives)
        self.inputs = self.recursion.inputs
        arrays = self.recursion.kernel.arrays
        nl = len(tree.load_body)
        self._load_force = arrays["load_force"][:3 * nl].reshape(nl, 3)
        self._load_moment = arrays["load_moment"][:3 * nl].reshape(nl, 3)
        self._drive = arrays["drive"][:3 * tree.n_q].reshape(-1, 3)
        nb = self.n_bodies = tree.n_bodies
        #: cable nodes (``[r, r']`` each), whose coordinates follow the bodies'
        self.n_cable_nodes = tree.n_cable_nodes
        self.n_coordinates = POSE_SIZE * nb + CABLE_NODE * self.n_cable_nodes
        qo = np.asarray(tree.q_offset)
        driven = set(self.inputs.driven)
        jointed = [b for b in range(nb) if tree.element[b] < 0]
        # the quaternions of all joint links' Q, the tree's and the loops', in one call
        qQ = quaternion(np.array([tree.relative[b] for b in jointed]
                                 + [lk[5] for lk in list(tree.loops) + list(loops)],
                                 dtype=float).reshape(-1, 3, 3))
        self.links = [_Link.of_tree(tree, b, q, int(qo[b]) if int(qo[b]) in driven else -1)
                      for b, q in zip(jointed, qQ)]
        # the joints that close loops: rows like a tree joint's, between two bodies; the
        # tree's own (a model's) first, then those given
        self.n_tree_links = len(self.links)
        loop_driven = {j: tree.n_q + k for k, (j, _) in enumerate(self._loop_drives)}
        # a joint at a point between two nodes of a beam: an _ArcLink, after the others
        at_arc = (np.asarray(tree.loop_arc).reshape(-1, 2) >= 0).any(axis=1)
        tree_loops = tree.loops
        body_loops = [k for k in range(len(tree.loop_joint)) if not at_arc[k]]
        arc_loops = [k for k in range(len(tree.loop_joint)) if at_arc[k]]
        qQ_loops, qQ = qQ[len(jointed):][:len(tree_loops)], qQ[len(jointed) + len(tree_loops):]
        self.links += [_Link(*tree_loops[k], driven=loop_driven.get(int(tree.loop_joint[k]), -1),
                             qQ=qQ_loops[k])
                       for k in body_loops]
        self.links += [_Link(*lk, qQ=q) for lk, q in zip(loops, qQ)]
        n_loop_links = len(self.links)
        self.links += [_CableLink(tree, k) for k in range(len(tree.cable_joint))]
        n_cable_links = len(self.links)
        self.links += [_ArcLink(tree, k, i, qQ_loops[k]) for i, k in enumerate(arc_loops)]
        self.elements = [b for b in range(nb) if tree.element[b] >= 0]
        starts = np.cumsum([0] + [lk.n_rows for lk in self.links])
        self.link_rows = [slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:])]
        self.n_joint_rows = int(starts[-1])
        self.n_constraints = self.n_joint_rows + nb
        #: how :func:`rancf.starts.spatial_dae_start` moved a State onto the rows ("" not)
        self.start_note = ""
        self._link_of_body = {lk.body: k for k, lk in enumerate(self.links[:self.n_tree_links])}
        # the link of each joint of the model (tree.joint_body's order; a joint that closes a
        # loop, joint_body -1, the tree's loop link of it), then the loops given
        loop_of = {int(tree.loop_joint[k]): self.n_tree_links + i
                   for i, k in enumerate(body_loops)}
        loop_of.update({int(j): n_loop_links + k for k, j in enumerate(tree.cable_joint)})
        loop_of.update({int(tree.loop_joint[k]): n_cable_links + i
                        for i, k in enumerate(arc_loops)})
        self.joint_links = [self._link_of_body[int(b)] if b >= 0 else loop_of[j]
                            for j, b in enumerate(np.asarray(tree.joint_body, dtype=int))]
        self.joint_links += list(range(self.n_tree_links + len(body_loops), n_loop_links))
        self._angles = _angle_columns([self.links[k] for k in self.joint_links])
        self._coordinate_setup()
        self._last_seen = None
        self._looped = None     # the last loop drives' time and values
        self.effort_calls = 0
        #: the time, cable frames' bases and cable frames (c, 3, 3 each) of the last output
        #: :meth:`observe` kept, from which the next output's move on (:meth:`_cable_bases`)
        self._cable_last = None
        self._p = (POSE_SIZE * np.arange(nb)[:, None] + 3 + np.arange(N_EULER)).ravel()
        self._last_targets = None
        self._cable_setup()
        self._kernels(n_loop_links, n_cable_links)
        self._force_setup(efforts, loop_efforts)
        self._patterns()
        self._refuse_redundant_joints()

    def reference_coordinates(self):
        """The coordinates x (n_coordinates,) of the reference configuration: each body's
        reference origin and the Euler parameters of its reference frame, each cable node's
        reference ``[r, r']``."""
        t = self.tree
        bodies = np.concatenate([np.asarray(t.r0, dtype=float).reshape(-1, 3),
                                 quaternion(np.asarray(t.A0, dtype=float).reshape(-1, 3, 3))],
                                axis=1)
        return np.concatenate([bodies.ravel(), np.asarray(t.cable_x0, dtype=float).ravel()])

    def reference_jacobian(self):
        """``Phi_x`` (CSR, n_constraints x n_coordinates) at :meth:`reference_coordinates`,
        each drive at its joint's reference coordinate (a revolute drive's angle 0, a
        prismatic drive's slide 0: the rows the reference configuration satisfies; the
        model's drive functions are not called)."""
        targets = np.zeros((self._link_kernel.n, N_EULER))
        for k in self._driven:
            if self.links[k].turns:
                targets[k] = _EYE4[0]
        data = np.bincount(self._J_index, weights=self.compiled.py_jacobian_values(
            self.reference_coordinates(), 0.0, targets), minlength=self._J_nnz)
        return sp.csr_matrix((data, self._J_indices, self._J_indptr),
                             shape=(self.n_constraints, self.n_coordinates))

    def _refuse_redundant_joints(self):
        """Refuse a model whose joints that close loops hold directions twice
        (:mod:`rancf.formulations.redundancy`, at the reference configuration): the tree's
        joint links and the bodies' norms are the base, each other link (a joint that closes
        a loop, one at a cable point or between two nodes of a beam) a group, in the order of
        the model's joints (then the loops given); a base that is itself singular (a degenerate
        tree joint) is refused naming no joint. A tree of bodies is not checked (its rows are
        independent by construction)."""
        if len(self.links) == self.n_tree_links:
            return
        n_joints = len(self.tree.joint_body)
        label = {k: j for j, k in enumerate(self.joint_links)}
        row_label = np.full(self.n_constraints, -1)
        for k, rows in enumerate(self.link_rows):
            row_label[rows] = label.get(k, -1)
        base = np.concatenate([np.arange(self.link_rows[self.n_tree_links - 1].stop
                                         if self.n_tree_links else 0),
                               np.arange(self.n_joint_rows, self.n_constraints)])
        groups = [(j, np.arange(self.link_rows[k].start, self.link_rows[k].stop))
                  for j, k in enumerate(self.joint_links) if k >= self.n_tree_links]
        positions = np.concatenate([
            (POSE_SIZE * np.arange(self.n_bodies)[:, None] + np.arange(3)).ravel(),
            (self._c0 + CABLE_NODE * np.arange(self.n_cable_nodes)[:, None]
             + np.arange(3)).ravel()]).astype(int)
        found = redundancy.redundant_joints(self.reference_jacobian(), positions,
                                            self.tree.size, base, row_label[base], groups)

        def words(j):
            kind = motion_words(self.links[self.joint_links[j]].motion)
            return f"joint {j} ({kind})" if j < n_joints else \
                f"the loop {j - n_joints} given ({kind})"
        if found is None or found:         # None: the tree's rows singular
            redundancy.refuse(found, words,
                              "a spherical joint holds 3, a universal or a cylindrical joint "
                              "4, a revolute or a prismatic joint 5; or a kind of your own, "
                              "such as a point on a line, SpatialMotion(T_AXIS, R_VECTOR), "
                              "registered by rancf.joints.register")

    def _cable_setup(self):
        """The cables' constant mass matrix (sparse, on the cable coordinates) and gravity
        force (per unit load factor), and each element's coordinate indices."""
        t, nc = self.tree, self.n_cable_nodes
        self._c0 = POSE_SIZE * self.n_bodies
        self._cable_dofs = (self._c0 + CABLE_NODE * t.cable_element[:, :, None]
                            + np.arange(CABLE_NODE))
        self._cable_dofs = np.ascontiguousarray(self._cable_dofs.reshape(-1, CABLE_ELEMENT),
                                                dtype=np.int_)
        #: the loads on cable nodes (their indices) and, for each, where its node's slope block
        #: lies in the cable elements' blocks (n_e, 12, 12) of Newton's matrix (flat, the
        #: block's first entry; an element that holds the node): a moment's tangent goes there
        on_node = np.asarray(t.load_body, dtype=int) - self.n_bodies
        self._cable_loads = np.flatnonzero(on_node >= 0)
        elements = np.asarray(t.cable_element, dtype=int).reshape(-1, 2)
        slots = []
        for k in self._cable_loads:
            e, side = np.argwhere(elements == on_node[k])[0]
            corner = CABLE_NODE * side + 3
            slots.append(CABLE_ELEMENT * CABLE_ELEMENT * e + (CABLE_ELEMENT + 1) * corner)
        self._cable_load_slots = np.array(slots, dtype=np.int64)
        self._cable_l, self._cable_EA, self._cable_EI, self._cable_c = (
            np.ascontiguousarray(a, dtype=float) for a in (t.cable_length, t.cable_EA,
                                                           t.cable_EI, t.cable_damping))
        # each element's rest state (tree.cable_rest); a straight element's is zero and its
        # kernel call takes none (``curved`` 0), which is the straight cable's kernel bitwise
        self._cable_rest = np.ascontiguousarray(t.cable_rest, dtype=float).reshape(
            -1, ancf_cable.REST_SIZE)
        self._cable_curved = np.ascontiguousarray(self._cable_rest.any(axis=1), dtype=np.uint8)
        rows, cols, vals = [], [], []
        self._cable_gravity = np.zeros(CABLE_NODE * nc)
        # elements of one cable share their length and rhoA: each pair's matrices once
        made = {}
        for k, d in enumerate(self._cable_dofs - self._c0):
            l, rhoA = float(t.cable_length[k]), float(t.cable_rhoA[k])
            if (l, rhoA) not in made:
                made[l, rhoA] = (ancf_cable.mass_matrix(rhoA, 1.0, l),
                                 ancf_cable.gravity_force(rhoA, 1.0, l, t.gravity))
            M, g = made[l, rhoA]
            rows.append(np.repeat(d, CABLE_ELEMENT))
            cols.append(np.tile(d, CABLE_ELEMENT))
            vals.append(M)
            self._cable_gravity[d] += g
        #: the element mass blocks (n_e, 12, 12), for the Newton matrix
        self._cable_mass_blocks = np.array(vals).reshape(-1, CABLE_ELEMENT, CABLE_ELEMENT)
        vals = [M.ravel() for M in vals]
        self._cable_mass = sp.csr_matrix(
            (np.concatenate(vals) if vals else np.zeros(0),
             (np.concatenate(rows) if rows else np.zeros(0, int),
              np.concatenate(cols) if cols else np.zeros(0, int))),
            shape=(CABLE_NODE * nc, CABLE_NODE * nc))

    def _kernels(self, n_body_links, n_cable_links):
        """The compiled links between bodies (the first ``n_body_links``), links at cable
        points (up to ``n_cable_links``), links at points between two nodes of a beam (the
        rest) and beam elements (:mod:`rancf.formulations._spatial_dae`)."""
        cables = self.links[n_body_links:n_cable_links]
        arcs = self.links[n_cable_links:]
        inner = [lk.inner for lk in arcs]
        #: the joints at points between two nodes of a beam (:class:`_ArcLink`)
        self._arc_kernel = _spatial_dae.ArcLinkKernel(
            _spatial_dae.LinkKernel(
                [lk.parent for lk in inner], [lk.body for lk in inner],
                [lk.rot for lk in inner], [lk.tr for lk in inner], np.zeros(len(inner), int),
                [lk.anchor for lk in inner], [lk.offset for lk in inner],
                [lk.qQc for lk in inner], [lk.a0 for lk in inner], [lk.a1c for lk in inner],
                [lk.a01 for lk in inner],
                [lk.B.ravel() if lk.B is not None else np.zeros(6) for lk in inner],
                [lk.n_rows for lk in inner]),
            [lk.side_kind for lk in arcs], [lk.side_a for lk in arcs],
            [lk.side_b for lk in arcs], [lk.xi for lk in arcs],
            [self.link_rows[n_cable_links + k].start for k in range(len(arcs))])
        kinds = {"ground": LinkSide.SIDE_GROUND, "body": LinkSide.SIDE_BODY,
                 "cable": LinkSide.SIDE_CABLE}
        self._cable_kernel = _spatial_dae.CableLinkKernel(
            [[kinds[side[0]] for side in lk.sides] for lk in cables],
            [[int(side[3][0]) if side[3].size else 0 for side in lk.sides] for lk in cables],
            [[side[2] for side in lk.sides] for lk in cables], [lk.kind for lk in cables],
            [lk.slope for lk in cables], [lk.B.ravel() for lk in cables],
            [self.link_rows[n_body_links + k].start for k in range(len(cables))])
        links = self.links[:n_body_links]
        self._n_body_rows = sum(lk.n_rows for lk in links)
        self._driven = [k for k, lk in enumerate(links) if lk.driven >= 0]
        drive = np.zeros(len(links), dtype=int)
        for k in self._driven:
            drive[k] = LinkDrive.DRIVE_REVOLUTE if links[k].turns else LinkDrive.DRIVE_PRISMATIC
        self._link_kernel = _spatial_dae.LinkKernel(
            [lk.parent for lk in links], [lk.body for lk in links], [lk.rot for lk in links],
            [lk.tr for lk in links], drive, [lk.anchor for lk in links],
            [lk.offset for lk in links], [lk.qQc for lk in links], [lk.a0 for lk in links],
            [lk.a1c for lk in links], [lk.a01 for lk in links],
            [lk.B.ravel() if lk.B is not None else np.zeros(6) for lk in links],
            [lk.n_rows for lk in links])
        t, el = self.tree, np.asarray(self.elements, dtype=int)
        k = np.asarray(t.element, dtype=int)[el]
        self._element_kernel = _spatial_dae.ElementKernel(
            np.asarray(t.parent, dtype=int)[el], el, np.asarray(t.anchor, dtype=float)[el],
            np.asarray(t.relative, dtype=float)[el].reshape(-1, 9),
            np.asarray(t.length, dtype=float)[k], np.asarray(t.stiffness, dtype=float)[k],
            np.asarray(t.strain0, dtype=float)[k], np.asarray(t.damping, dtype=float)[k])
        self._damped = bool(len(k)) and bool(np.asarray(t.damping, dtype=float)[k].any())
        self._mass = np.ascontiguousarray(t.mass, dtype=float)
        self._inertia = np.ascontiguousarray(t.inertia, dtype=float)

    def _patterns(self):
        """The sparsity patterns, built once, of ``Phi_x`` (CSR) and of the Newton matrix
        ``[[A, w G^T], [B, 0]]`` (CSC): the (row, column) of every value the assembly
        writes, in the order the compiled problem writes them (its Jacobian and Newton
        matrix values), and where each one is summed (``np.bincount`` on the position in the
        sorted structure): an assembly fills values only; then the compiled problem
        (:attr:`compiled`) on them."""
        n, m, nb = self.n_coordinates, self.n_constraints, self.n_bodies
        rows, cols = [], []
        for lk, s in zip(self.links, self.link_rows):
            r = np.arange(s.start, s.stop)
            rows.append(np.repeat(r, lk.columns.size))
            cols.append(np.tile(lk.columns, lk.n_rows))
        rows.append(np.repeat(self.n_joint_rows + np.arange(nb), N_EULER))
        cols.append(self._p)
        jr, jc = np.concatenate(rows).astype(int), np.concatenate(cols).astype(int)
        self._J_index, self._J_indices, self._J_indptr, self._J_nnz = _structure(jr, jc, m, n)
        # the Newton matrix: body blocks, element blocks, link curvatures, cable elements,
        # then w G^T and B
        body = POSE_SIZE * np.arange(nb)[:, None] + np.arange(POSE_SIZE)
        rows = [np.repeat(body, POSE_SIZE, axis=1).ravel()]
        cols = [np.tile(body, (1, POSE_SIZE)).ravel()]
        for b in self.elements:
            c = self._pair(int(self.tree.parent[b]), b)
            rows.append(np.repeat(c, c.size))
            cols.append(np.tile(c, c.size))
        for lk in self.links:
            if lk.n_rows:
                rows.append(np.repeat(lk.columns, lk.columns.size))
                cols.append(np.tile(lk.columns, lk.columns.size))
        d = self._cable_dofs
        rows.append(np.repeat(d, CABLE_ELEMENT, axis=1).ravel())
        cols.append(np.tile(d, (1, CABLE_ELEMENT)).ravel())
        ir, ic = np.repeat(self._item_cols, LINK_SIZE, axis=1).ravel(), \
            np.tile(self._item_cols, (1, LINK_SIZE)).ravel()
        #: the entries of the force items' blocks on coordinates (not on the ground)
        self._item_mask = (ir >= 0) & (ic >= 0)
        rows.append(ir[self._item_mask])
        cols.append(ic[self._item_mask])
        for c in self._arc_spring_cols:
            rows.append(np.repeat(c, c.size))
            cols.append(np.tile(c, c.size))
        #: the loads between two nodes (their indices): a block on both nodes' columns each
        self._arc_loads = np.flatnonzero((np.asarray(self.tree.load_arc, dtype=int) >= 0)
                                         & (np.asarray(self.tree.load_body, dtype=int) < nb))
        for c in self._arc_load_cols():
            rows.append(np.repeat(c, c.size))
            cols.append(np.tile(c, c.size))
        rows += [jc, n + jr]
        cols += [n + jr, jc]
        sr, sc = np.concatenate(rows).astype(int), np.concatenate(cols).astype(int)
        # column-major: the structure of the transpose's rows
        self._S_index, self._S_indices, self._S_indptr, self._S_nnz = _structure(sc, sr,
                                                                                 n + m, n + m)
        # the compiled problem sums the values column-major: on the dense matrix's
        # (row + N col), or SuperLU's CSC data beyond DENSE_BELOW; W = I of the projection
        # sets the diagonal of the coordinates' block, which the pattern holds
        N = n + m
        sparse = N > DENSE_BELOW
        diagonal = np.arange(n)
        unit = self._S_indptr[:-1][:n] + np.array(
            [np.searchsorted(self._S_indices[self._S_indptr[i]:self._S_indptr[i + 1]], i)
             for i in range(n)], dtype=int) if sparse else diagonal + N * diagonal
        #: the formulation as the implicit loop's compiled StepProblem (every method below
        #: that the IndexThreeDAE contract names is a view of it)
        self.compiled = _spatial_dae.SpatialProblem(
            self, sparse, self._S_index if sparse else sr + N * sc, unit, self._S_indices,
            self._S_indptr, jr, jc, np.flatnonzero(self._item_mask))

    @property
    def joint_spring_law(self):
        """The joint spring-dampers' ``(k, c, q0)`` rows (j, 3: the tree's, then those on
        joints that close loops; three rows of q0 = 0 for a spherical joint's, whose rest
        rotation is in :attr:`joint_spring_rotations`), the array the compiled problem reads:
        statics steps their rest values q0 with its load factor
        (:func:`rancf.integrators.static.ramp_rest`, q0 again at load factor 1)."""
        return self._joint_springs["law"]

    @property
    def joint_spring_rotations(self):
        """The joint spring-dampers' ``axis`` rows (j, 3), the array the compiled problem
        reads, and which of them (j,) bool are a spherical joint's (each of its three rows
        holding its rest rotation vector r_0, rad, parent's frame; the others a revolute's or
        prismatic's axis): statics steps r_0 with its load factor (``s r_0``,
        :func:`rancf.integrators.static.ramp_rest`, r_0 again at load factor 1)."""
        d = self._joint_springs
        return d["axis"], d["kind"] >= _spatial_dae.JS_BALL

    def _arc_load_cols(self):
        """The columns (``LINK_SIZE``: node a's, then node b's) of each load between two
        nodes."""
        t = self.tree
        return [np.concatenate([np.arange(POSE_SIZE * b, POSE_SIZE * (b + 1)) for b in
                                (int(t.load_body[k]), int(t.load_arc[k]))])
                for k in self._arc_loads]

    @property
    def load_factor(self):
        """The factor of the applied forces (gravity, loads and efforts): 1 in dynamics, the
        load step's in statics (``rancf.static``)."""
        return self.compiled.load_factor

    @load_factor.setter
    def load_factor(self, value):
        self.compiled.load_factor = value

    def restart(self):
        """Clears what a static solve left on this formulation for a run from its
        equilibrium (``state="static"`` runs on the formulation its statics solved on): the
        load factor back to 1, no last output (:meth:`observe`). The reference angles
        (:meth:`_accept_angles`) stay the equilibrium's, continued through the load steps: a
        new formulation's zeros would wrap a spring's or an effort's angle that statics
        turned past pi to the other side, and the run would start off its equilibrium. The
        compiled problem's caches are its inputs' at a time and its Jacobian at a state,
        equal to what a new one computes there."""
        self.load_factor = 1.0
        self._last_seen = None
        self._looped = None     # the last loop drives' time and values

    def _loop_drive_values(self, t, again=True):
        """The drives of the joints that close loops at t: (q, q', q'') each (n, 3), a
        function of t or a coordinate held; the last time's kept (``_looped``), returned
        without calling again where ``again`` is False and t is that time."""
        if not again and self._looped is not None and self._looped[0] == t:
            return self._looped[1]
        self._looped = None
        out = np.array([value(t) if callable(value) else
                        (_vector("drives", value, 1)[0], 0.0, 0.0)
                        for _, value in self._loop_drives], dtype=float).reshape(-1, 3)
        self._looped = (t, out)
        return out

    def _input_slots(self):
        """Where the model's input functions are (:func:`_input_functions`), for
        :meth:`_input_values`."""
        return _input_functions(self)

    def _input_values(self, slots):
        """``{n: value}`` of each input function n of ``slots`` (:meth:`_input_slots`) as
        this DAE's arrays hold it after its last evaluation: a load's or drive's of t the
        inputs' row, a loop's drive its row of the last :meth:`_loop_drive_values`, an
        effort function's the inputs' or the loops' effort entries (a number for a
        one-coordinate joint), copied (a :class:`~rancf.formulations.inputs.Recorded`'s row)."""
        out = {}
        for n, (entries, i, _) in enumerate(slots):
            entry = entries[i]
            if entries is self.inputs.timed:
                out[n] = entry[0].copy()
            elif entries is self._loop_drives:
                out[n] = self._looped[1][i].copy()
            else:
                held = self.inputs.effort if entries is self.inputs.effort_functions else \
                    self._loop_effort
                value = held[entry[1]]
                out[n] = float(value[0]) if len(value) == 1 else value.copy()
        return out

    def _X(self, x):
        """The bodies' coordinates of x as (n_bodies, 7)."""
        return np.asarray(x)[:POSE_SIZE * self.n_bodies].reshape(-1, POSE_SIZE)

    def _cable_elements(self, q, v, tangents=False):
        """Each cable element's force on its nodes (n_e, 12), strain energy and dissipated
        power (n_e,), and with ``tangents`` its ``K = -df/de`` and ``C = -df/de'`` (n_e, 12,
        12), from the compiled kernel (:mod:`rancf.elements.ancf_cable`), all elements in one
        call (:func:`rancf.formulations._spatial_dae.cable_elements`), relative to the
        elements' rest states (``tree.cable_rest``)."""
        t = self.tree
        n = len(t.cable_length)
        f, U, P = np.empty((n, CABLE_ELEMENT)), np.empty(n), np.empty(n)
        blocks = (n if tangents else 0, CABLE_ELEMENT, CABLE_ELEMENT)
        K, C = np.empty(blocks), np.empty(blocks)
        _spatial_dae.cable_elements(np.ascontiguousarray(q, dtype=float),
                                    np.ascontiguousarray(v, dtype=float), self._cable_dofs,
                                    self._cable_l, self._cable_EA, self._cable_EI,
                                    self._cable_c, self._cable_rest, self._cable_curved,
                                    f, U, P, K, C, tangents)
        return f, U, P, (K if tangents else None), (C if tangents else None)

    def _item_matrix(self, blocks):
        """The force items' blocks (n_items, 14, 14) assembled (sparse, n x n)."""
        n, m = self.n_coordinates, self._item_mask
        rows = np.repeat(self._item_cols, LINK_SIZE, axis=1).ravel()[m]
        cols = np.tile(self._item_cols, (1, LINK_SIZE)).ravel()[m]
        return sp.csr_matrix((blocks.ravel()[m], (rows, cols)), shape=(n, n))

    def _cable_matrix(self, blocks):
        """The element matrices (n_e, 12, 12) assembled (sparse, n x n)."""
        d = self._cable_dofs
        n = self.n_coordinates
        return sp.csr_matrix((blocks.ravel(), (np.repeat(d, CABLE_ELEMENT, axis=1).ravel(),
                                               np.tile(d, (1, CABLE_ELEMENT)).ravel())),
                             shape=(n, n))

    # --- efforts and spring-dampers ---------------------------------------------------------
    def _force_setup(self, efforts, loop_efforts):
        """The rows of the joint forces and the spring-dampers between points (all vectorized
        over their items in :meth:`_joint_wrenches` and :meth:`_point_springs`).

        A joint force row is one coordinate's generalized force ``g`` (an effort's value, or a
        joint spring-damper's ``-k (q - q0) - c q'``) applied as the pair of wrenches whose
        power is ``g q'``: on the child the force ``g A_p f`` at the joint point
        ``X = r_c + A_c o`` and the moment ``g (A_p m_p + A_c m_c)``, on the parent their
        opposites (the force at the same point X), with the directions ``(f, m_p, m_c)`` of
        the joint's kind (:meth:`rancf.joints.kind.SpatialMotion.effort_directions`: a
        revolute's moment about a0, a prismatic's force along it, a spherical joint's torque
        in the parent's frame, whose generalized force is the recursion's ``Jr^T tau``)."""
        tree = self.tree
        qo = np.asarray(tree.q_offset)
        rows = []          # (link, effort index, f, m_p, m_c, joint)
        # a loop joint's effort values follow the tree's (n_q) in the values' vector
        self._loop_efforts, n_loop = [], 0
        for j in sorted(efforts) + sorted(loop_efforts):
            lk = self.links[self.joint_links[j]]
            if j in loop_efforts:
                size = lk.spatial.n_coordinates
                self._loop_efforts.append((j, slice(n_loop, n_loop + size), loop_efforts[j]))
                i = tree.n_q + n_loop
                n_loop += size
            else:
                i = int(qo[int(tree.joint_body[j])])
            # one row per coordinate: the translation's first, then the rotation's
            rows += [(lk, i + k, *row, j) for k, row in enumerate(zip(*_directions(lk)))]
        self._effort_index = np.array([r[1] for r in rows], dtype=int)
        self._loop_effort = np.zeros(n_loop)
        for j, sl, value in self._loop_efforts:
            if not callable(value):
                self._loop_effort[sl] = _vector(f"efforts[{j}]", value, sl.stop - sl.start)
        self._efforts = self._joint_rows(rows)
        #: the joint (tree.joint_body's order) of each body of the tree
        self._joint_of_body = np.full(tree.n_bodies, -1, dtype=int)
        jb = np.asarray(tree.joint_body, dtype=int)
        self._joint_of_body[jb[jb >= 0]] = np.nonzero(jb >= 0)[0]
        # the joint spring-dampers (revolute, prismatic and spherical joints): the tree's,
        # then those on joints that close loops; a spherical joint's three rows, one a
        # component of its torque in the parent's frame (JointSpringKind), its rest rotation
        # vector in their "axis"
        rows, kinds, axes, laws = [], [], [], []
        joints = [int(self._joint_of_body[int(b)]) for b in tree.joint_spring_body] \
            + [int(j) for j in tree.loop_spring_joint]
        law = np.concatenate([np.asarray(tree.joint_spring_law, dtype=float).reshape(-1, 3),
                              np.asarray(tree.loop_spring_law, dtype=float).reshape(-1, 3)])
        rest = np.concatenate([np.asarray(tree.joint_spring_rest, dtype=float).reshape(-1, 3),
                               np.asarray(tree.loop_spring_rest, dtype=float).reshape(-1, 3)])
        for j, row, q0 in zip(joints, law, rest):
            lk = self.links[self.joint_links[j]]
            f, mp, mc = _directions(lk)
            if lk.spatial.rotation == R_VECTOR:
                for k in range(3):
                    v = lk.spatial.vector + k
                    rows.append((lk, k, f[v], mp[v], mc[v], j))
                    kinds.append(_spatial_dae.JS_BALL + k)
                    axes.append(q0)
                    laws.append(row)
                continue
            prismatic = lk.spatial.translation == T_AXIS
            rows.append((lk, 0, f[0], mp[0], mc[0], j))
            kinds.append(_spatial_dae.JS_PRISMATIC if prismatic else _spatial_dae.JS_REVOLUTE)
            axes.append(lk.a0)
            laws.append(row)
        self._joint_springs = self._joint_rows(rows)
        self._joint_springs["kind"] = np.array(kinds, dtype=np.uint8)
        self._joint_springs["axis"] = np.ascontiguousarray(np.reshape(axes, (-1, 3)),
                                                           dtype=float)
        self._joint_springs["law"] = np.ascontiguousarray(np.reshape(laws, (-1, 3)),
                                                          dtype=float)
        body = np.asarray(tree.spring_body, dtype=np.int64).reshape(-1, 2)
        # a spring-damper with an end between two nodes of a beam: the ArcSpringKernel's
        arc = np.asarray(tree.spring_arc, dtype=np.int64).reshape(-1, 2)
        on = ~(arc >= 0).any(axis=1)
        offsets = np.asarray(tree.spring_offset, dtype=float).reshape(-1, 2, 3)
        law = np.asarray(tree.spring_law, dtype=float).reshape(-1, 3)
        self._springs = {"parent": np.ascontiguousarray(body[on, 0]),
                         "child": np.ascontiguousarray(body[on, 1]),
                         "offsets": np.ascontiguousarray(offsets[on]),
                         "law": np.ascontiguousarray(law[on])}
        #: the spring-dampers with an end between two nodes (``beam.at(s)``): their ends the
        #: ground, a body or an element's point (ArcSide; its nodes' bodies and xi, the
        #: tree's offset ``(xi, 0, 0)``)
        kind = np.where(body[~on] < 0, ARC_SIDE_GROUND,
                        np.where(arc[~on] >= 0, ARC_SIDE_ARC, ARC_SIDE_BODY))
        self._arc_springs = _spatial_dae.ArcSpringKernel(
            kind, np.maximum(body[~on], 0), np.maximum(arc[~on], 0),
            np.where(kind == ARC_SIDE_ARC, offsets[~on, :, 0], 0.0), offsets[~on], law[~on])
        self._arc_spring_cols = [np.concatenate(
            [np.arange(POSE_SIZE * b, POSE_SIZE * (b + 1)) for e in range(2)
             if kind[i, e] != ARC_SIDE_GROUND
             for b in ((body[~on][i, e],) if kind[i, e] == ARC_SIDE_BODY else
                       (body[~on][i, e], arc[~on][i, e]))] or [np.zeros(0, int)]).astype(int)
            for i in range(len(kind))]
        # where each tree joint's coordinates sit among joint_coordinates' (effort functions)
        start = np.cumsum([0] + [self.links[k].spatial.n_coordinates for k in self.joint_links])
        self._jq_start = start
        to, fro = [], []
        for j, b in enumerate(np.asarray(tree.joint_body, dtype=int)):
            if b >= 0:
                to += list(range(int(qo[b]), int(qo[b + 1])))
                fro += list(range(int(start[j]), int(start[j]) + int(qo[b + 1] - qo[b])))
        self._jq_to, self._jq_from = np.array(to, dtype=int), np.array(fro, dtype=int)
        # the joints of effort functions: their coordinates and rates come from the compiled
        # map of every kind (:meth:`_joint_values`, exact rates, one call), written where
        # :meth:`joint_coordinates` puts them
        called = sorted([j for j, _, _ in self.inputs.effort_functions]
                        + [j for j, _, f in self._loop_efforts if callable(f)])
        links = [self.links[self.joint_links[j]] for j in called]
        z = np.zeros(3)
        self._probe = self._joint_rows([(lk, 0, lk.a0, lk.a1, z, j)
                                        for lk, j in zip(links, called)])
        self._probe["motion"] = np.array([int(lk.motion) for lk in links], dtype=np.intc)
        sizes = [lk.spatial.n_coordinates for lk in links]
        #: where each probed coordinate goes in joint_coordinates' vector, and comes from in
        #: the kernel's (n_probed, 6)
        self._probe_to = np.array([self._jq_start[j] + i for j, k in zip(called, sizes)
                                   for i in range(k)], dtype=int)
        self._probe_from = np.array([_MOST * r + i for r, k in enumerate(sizes) for i in range(k)],
                                    dtype=int)
        # the angles the joint spring-dampers and effort functions see are continued from
        # reference angles, those of the last accepted step (:meth:`_accept_angles`): this
        # run's, one vector (the compiled problem's branch, kept beside each output)
        self._probe_angle = np.zeros((len(links), 6), dtype=bool)
        for r, lk in enumerate(links):
            self._probe_angle[r, list(lk.spatial.angles)] = True
        #: where a probed joint's rotation vector starts (spherical 0, free 3; -1: none)
        self._probe_psi = np.array([lk.spatial.vector for lk in links], dtype=int)
        self._psi_rows = [(r, slice(int(k), int(k) + 3))
                          for r, k in enumerate(self._probe_psi) if k >= 0]
        n_js = len(self._joint_springs["law"])
        self._angle_ref = np.zeros(n_js + self._probe_angle.size)
        self._joint_springs["ref"] = self._angle_ref[:n_js]
        self._probe_ref = self._angle_ref[n_js:].reshape(-1, 6)
        turning = (self._joint_springs["kind"] == _spatial_dae.JS_REVOLUTE).any() \
            or self._probe_angle.any() or (self._probe_psi >= 0).any()
        self._n_branch = len(self._angle_ref) if turning else 0
        #: the force items' columns (n_items, 14): parent's 7 then child's, -1 on the ground
        cols = [self._item_columns(d["parent"], d["child"])
                for d in (self._efforts, self._joint_springs, self._springs)]
        self._item_cols = np.concatenate(cols) if cols else np.zeros((0, LINK_SIZE), int)

    @staticmethod
    def _joint_rows(rows):
        """The arrays of joint force rows ``(link, index, f, m_p, m_c, joint)``."""
        return {"joint": np.array([r[5] for r in rows], dtype=int),
                "parent": np.array([r[0].parent for r in rows], dtype=int),
                "child": np.array([r[0].body for r in rows], dtype=int),
                "offset": np.array([r[0].offset for r in rows], dtype=float).reshape(-1, 3),
                "anchor": np.array([r[0].anchor for r in rows], dtype=float).reshape(-1, 3),
                "QT": np.array([r[0].QT for r in rows], dtype=float).reshape(-1, 3, 3),
                "f": np.array([r[2] for r in rows], dtype=float).reshape(-1, 3),
                "mp": np.array([r[3] for r in rows], dtype=float).reshape(-1, 3),
                "mc": np.array([r[4] for r in rows], dtype=float).reshape(-1, 3)}

    @staticmethod
    def _item_columns(parent, child):
        cols = np.concatenate([POSE_SIZE * parent[:, None] + np.arange(POSE_SIZE),
                               POSE_SIZE * child[:, None] + np.arange(POSE_SIZE)], axis=1)
        cols[:, :POSE_SIZE][parent < 0] = -1
        cols[:, POSE_SIZE:][child < 0] = -1
        return cols

    def _item_states(self, q, v, items):
        """The (parent, child) body states ``(Xp, Vp, Xc, Vc)`` (n, 7 each) of force items,
        the ground's ``(0, (1, 0, 0, 0))`` at rest where a side is the ground."""
        nb = self.n_bodies
        X = np.concatenate([self._X(q), [[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]]])
        V = np.concatenate([self._X(v), np.zeros((1, POSE_SIZE))])
        p, c = np.where(items["parent"] < 0, nb, items["parent"]), \
            np.where(items["child"] < 0, nb, items["child"])
        return X[p], V[p], X[c], V[c]

    @staticmethod
    def _joint_wrenches(Xp, Vp, Xc, Vc, d, g):
        """The generalized forces (n, 14: parent's then child's) of joint force rows d of
        values g (n,) (:meth:`_force_setup`; the kernel
        :func:`rancf.formulations._spatial_dae.joint_wrenches`)."""
        out = np.empty((len(Xp), LINK_SIZE))
        _spatial_dae.joint_wrenches(Xp, Xc, d["offset"], d["f"], d["mp"], d["mc"],
                                    np.ascontiguousarray(g, dtype=float), out)
        return out

    @staticmethod
    def _joint_spring_values(Xp, Vp, Xc, Vc, d):
        """The joint spring-dampers' coordinates q, rates q' and forces
        ``g = -k (q - q0) - c q'`` (n,): a revolute's angle ``log(A_p^T A_c Q^T) . a0``
        continued from its reference ``d["ref"]`` (``ref + wrap(angle - ref)``, wrap to
        [-pi, pi): :meth:`_accept_angles`) and rate ``(w_c - w_p) . A_p a0``, a prismatic's slide
        ``(A_p^T (X - r_p) - anchor) . a0`` and rate ``A_p a0 . (v_X - v_p - w_p x (X - r_p))``
        (X the joint point, v_X its velocity; the kernel
        :func:`rancf.formulations._spatial_dae.joint_spring_values`)."""
        n = len(Xp)
        q, qd, g = np.empty(n), np.empty(n), np.empty(n)
        _spatial_dae.joint_spring_values(Xp, Vp, Xc, Vc, d["offset"], d["anchor"], d["QT"],
                                         d["axis"], d["kind"], d["law"], d["ref"], q, qd, g)
        return q, qd, g

    @staticmethod
    def _joint_values(Xp, Vp, Xc, Vc, d):
        """The coordinates and rates (n, 6 each: a row's first ones, as many as its joint's
        kind has) of the joints of rows d (``motion``, ``offset``, ``anchor``, ``QT``, axes
        ``f`` = a0 and ``mp`` = a1) at their bodies' states: the map of
        :meth:`joint_coordinates` (angles within (-pi, pi], which :meth:`_probe_continued`
        continues) with its exact rates (the kernel
        :func:`rancf.formulations._spatial_dae.joint_values`)."""
        q, qd = np.zeros((len(Xp), 6)), np.zeros((len(Xp), 6))
        _spatial_dae.joint_values(*(np.ascontiguousarray(z) for z in (Xp, Vp, Xc, Vc)),
                                  d["offset"], d["anchor"], d["QT"], d["f"], d["mp"],
                                  d["motion"], q, qd)
        return q, qd

    @staticmethod
    def _point_springs(X1, V1, X2, V2, d):
        """The spring-dampers between points: generalized forces (n, 14: first point's body
        then second's), potentials ``k (l - l0)^2 / 2`` and dissipated powers ``c l'^2`` (n,);
        the force ``f = k (l - l0) + c l'`` pulls the points together along their line
        ``n`` (none where they meet, as the recursion's ``spring_line``; the kernel
        :func:`rancf.formulations._spatial_dae.point_springs`)."""
        n = len(X1)
        out, U, P = np.empty((n, LINK_SIZE)), np.empty(n), np.empty(n)
        _spatial_dae.point_springs(X1, V1, X2, V2, d["parent"], d["child"], d["offsets"],
                                   d["law"], out, U, P)
        return out, U, P

    def _probe_continued(self, c, cd):
        """The effort functions' joint coordinates and rates c, cd (n_probed, 6,
        :meth:`_joint_values`) on the branch of the reference (the last accepted step's), as
        the recursion has them within a step: the angles (revolute, a cylindrical joint's
        second, a universal joint's two) ``ref + wrap(c - ref)``, wrap to [-pi, pi)
        (:meth:`_angles_continued`), the rotation vectors by :meth:`_psi_continued`."""
        return self._psi_continued(self._angles_continued(c), cd)

    def _angles_continued(self, c):
        """c (n_probed, 6) with its angles continued from the reference, ``ref + wrap(c -
        ref)`` (the compiled problem does this itself before :meth:`_efforts_at`)."""
        ref, a = self._probe_ref, self._probe_angle
        c = np.array(c, dtype=float)
        c[a] = ref[a] + wrap(c[a] - ref[a])
        return c

    def _psi_continued(self, c, cd):
        """c, cd (n_probed, 6) with a spherical or free joint's rotation vector ``psi =
        log(R)`` (angle at most pi) and its rate put on the branch nearer the reference
        (:func:`on_branch`: the angle crossed pi since the last accepted step): the recursion's
        rotation vector continues past pi within a step and is re-centred to ``log(R)`` after
        it (:mod:`rancf.formulations.spatial`)."""
        if not self._psi_rows:
            return c, cd
        ref = self._probe_ref
        c, cd = np.array(c, dtype=float), np.array(cd, dtype=float)
        for r, at in self._psi_rows:
            c[r, at], cd[r, at] = on_branch(c[r, at], cd[r, at], ref[r, at])
        return c, cd

    def _accept_angles(self, q, v):
        """Moves the reference angles (:attr:`_angle_ref`) to the continued angles of the
        accepted state (q, v), a rotation vector's to its ``log(R)``: what the compiled
        ``SpatialProblem.accept`` does in C (this: its reference), which the loop calls at the
        start and after every accepted step, never at Newton's iterates, so each evaluation
        continues its angles from the last accepted step's (turning by less than pi within a
        step), and a run follows the recursion's continuous angles (theory: Joint coordinates)
        past +-pi."""
        d = self._joint_springs
        if len(d["law"]):
            d["ref"][:] = self._joint_spring_values(*self._item_states(q, v, d), d)[0]
        if len(self._probe_psi):
            c, cd = self._joint_values(*self._item_states(q, v, self._probe), self._probe)
            # a rotation vector's reference is log(R) itself: the recursion re-centres its
            # own after each step
            self._probe_ref[:] = np.where(self._probe_angle, self._probe_continued(c, cd)[0], c)

    def accept_stored_angles(self, q, v, jq):
        """Moves the reference angles (:attr:`_angle_ref`) to those of the state (q, v) on the
        branch of its stored joint coordinates jq (:meth:`joint_coordinates`' layout: a
        Result's ``joint_q`` row, whose angles are continuous): :meth:`_accept_angles` at
        (q, v), then each reference angle moved by the whole turns that take it nearest its
        joint's stored angle (:func:`on_turns`), so that the springs and effort functions see
        the run's angles past +-pi at a stored frame (its accelerations after the run:
        :func:`rancf.results.outputs.spatial_accelerations`); an angle of jq that is not
        the state's own modulo a turn (a State of another model:
        :func:`~rancf.formulations.turns.on_agreeing_turns`) leaves its reference as read."""
        self._accept_angles(q, v)
        at, to = self._reference_columns()
        self._angle_ref[at] = on_agreeing_turns(self._angle_ref[at],
                                                np.asarray(jq, dtype=float)[to])

    def start_on_stored(self, q, v, jq):
        """Starts a run at the state (q, v) on the turns of the joint coordinates jq it was
        taken with (a :class:`rancf.State`'s, :meth:`joint_coordinates`' layout, continuous
        angles): the reference angles as :meth:`accept_stored_angles` moves them (the springs
        and effort functions see jq's angles past +-pi), and the run's first output's angles
        continued from jq's (:meth:`observe`, as from an output before it), so that a run
        in two halves reports the angles of one run."""
        jq = np.array(jq, dtype=float)
        self.accept_stored_angles(q, v, jq)
        if len(self._angles):
            jq[self._angles] = on_agreeing_turns(self.joint_coordinates(q, v)[0][self._angles],
                                                 jq[self._angles], keep_stored=True)
        self._last_seen = (-np.inf, jq)

    def _reference_columns(self):
        """Which reference angles are joint angles (indices into :attr:`_angle_ref`: the
        turning joint springs', the effort functions' angle coordinates) and where each
        angle sits among :meth:`joint_coordinates`' (two int arrays of one length)."""
        d = self._joint_springs
        turning = np.flatnonzero(d["kind"] == _spatial_dae.JS_REVOLUTE)
        at = self._jq_start[self._probe["joint"]][:, None] + np.arange(6)
        a = self._probe_angle
        return (np.concatenate([turning, len(d["law"]) + np.flatnonzero(a.ravel())]),
                np.concatenate([self._jq_start[d["joint"][turning]], at[a]]).astype(int))

    def _on_branches(self, Q, V, branches):
        """Yields the states (q, v) of (Q, V) (S, n), the reference angles set to each one's
        row of ``branches`` (S, n_branch: the rows the loop kept beside its outputs; None:
        the current ones), restored when done."""
        if branches is None or not self._n_branch:
            yield from zip(Q, V)
            return
        now = self._angle_ref.copy()
        try:
            for q, v, row in zip(Q, V, np.asarray(branches, dtype=float).reshape(len(Q), -1)):
                self._angle_ref[:] = row
                yield q, v
        finally:
            self._angle_ref[:] = now

    def _effort_values(self, q, v, t):
        """The efforts' values (n_rows,) at (q, v, t): the constants, and the effort functions
        of the joints' coordinates and rates (:meth:`_joint_values`, those of
        :meth:`joint_coordinates`, their angles continued from the last accepted step's:
        :meth:`_probe_continued`) written where the recursion keeps them."""
        if self.inputs.effort_dependent or any(callable(f) for _, _, f in self._loop_efforts):
            c, cd = self._joint_values(*self._item_states(q, v, self._probe), self._probe)
            return self._efforts_at(self._angles_continued(c), cd, t)
        return self._efforts_at(None, None, t)

    def _efforts_at(self, c, cd, t):
        """:meth:`_effort_values` of the effort functions' joints' coordinates c and rates cd
        (n_probed, 6: :meth:`_joint_values` of ``_probe``, the angles continued,
        :meth:`_angles_continued`; None without effort functions) at t: the compiled problem
        computes c and cd itself; the rotation vectors are continued here
        (:meth:`_psi_continued`). Counts its calls (``effort_calls``: the compiled problem's
        ``keep_inputs`` tells by it whether the arrays still hold its own call's values)."""
        self.effort_calls += 1
        inputs = self.inputs
        functions = [e for e in self._loop_efforts if callable(e[2])]
        if c is not None:
            c, cd = self._psi_continued(np.asarray(c), np.asarray(cd))
            jq, jqd = np.zeros(self._jq_start[-1]), np.zeros(self._jq_start[-1])
            jq[self._probe_to], jqd[self._probe_to] = c.ravel()[self._probe_from], \
                cd.ravel()[self._probe_from]
            inputs.q[self._jq_to], inputs.qd[self._jq_to] = jq[self._jq_from], jqd[self._jq_from]
            inputs.efforts(t)
            for j, sl, f in functions:
                at = slice(int(self._jq_start[j]), int(self._jq_start[j]) + sl.stop - sl.start)
                self._loop_effort[sl] = f(t, float(jq[at][0]), float(jqd[at][0])) \
                    if sl.stop - sl.start == 1 else f(t, jq[at].copy(), jqd[at].copy())
        return np.concatenate([np.asarray(inputs.effort)[:self.tree.n_q],
                               self._loop_effort])[self._effort_index]

    def _effort_tangents(self, q, v, t):
        """The effort functions' own slopes in Newton's matrix: the blocks ``(-dQ/dx,
        -dQ/dv)`` (n_ef, 14, 14 each: the effort rows', on their columns as
        :meth:`_item_tangents`) that the change of each row's value g adds to those of its
        held value (zero rows for constant efforts). A row's force is ``g W(x)`` (W the
        wrench of a unit value, :meth:`_joint_wrenches`), ``g = s e(c, c')`` (s the
        :attr:`load_factor`, e its joint's effort function of the joint's coordinates c and
        rates c', :meth:`_joint_values`), so by the chain rule::

            -dQ/dx = -s W (de/dc dc/dx + de/dc' dc'/dx),    -dQ/dv = -s W de/dc' dc'/dv

        with ``de/dc``, ``de/dc'`` (n_i x n_i) by :func:`~rancf.formulations.inputs.effort_slopes`
        of the function at the continued coordinates it is called with (4 n_i calls), and the
        joint map's ``dc/dx``, ``dc'/dx``, ``dc'/dv`` (6 x 14) by central differences in its
        two bodies' states (steps as :meth:`_item_tangents`', an angle's difference wrapped;
        all functions' joints and 28 perturbations in one :meth:`_joint_values` call). Exact
        up to the differences' error for an affine function ``-K c - D c'`` (the value's
        chain rule the DAE's own); a rotation vector re-centred by :meth:`_psi_continued` in
        the step is differenced as ``log(R)``. Played back (``inputs.played``: a Result's
        outputs), the values do not depend on the state: zero blocks."""
        n_ef = len(self._effort_index)
        K, C = np.zeros((n_ef, LINK_SIZE, LINK_SIZE)), np.zeros((n_ef, LINK_SIZE, LINK_SIZE))
        d = self._probe
        n_pr = len(d["joint"])
        if not n_pr or self.inputs.played is not None:
            return K, C
        Xp, Vp, Xc, Vc = self._item_states(q, v, d)
        c0, cd0 = self._probe_continued(*self._joint_values(Xp, Vp, Xc, Vc, d))
        # the joints' coordinates and rates at the 2 x 28 perturbations of their states
        hx = 1e-7
        hv = 1e-7 * max(1.0, float(np.abs(np.asarray(v)).max(initial=0.0)))
        X, V = np.concatenate([Xp, Xc], axis=1), np.concatenate([Vp, Vc], axis=1)
        steps = np.concatenate([np.eye(LINK_SIZE), -np.eye(LINK_SIZE)])
        tile = {key: np.tile(a, (2 * len(steps),) + (1,) * (a.ndim - 1)) for key, a in d.items()}
        Z = [np.tile(X, (2 * len(steps), 1)), np.tile(V, (2 * len(steps), 1))]
        moved = hx * np.repeat(steps, n_pr, axis=0)
        Z[0][:len(moved)] += moved
        Z[1][len(moved):] += moved * (hv / hx)
        c, cd = self._joint_values(*(np.ascontiguousarray(z) for z in (
            Z[0][:, :POSE_SIZE], Z[1][:, :POSE_SIZE], Z[0][:, POSE_SIZE:],
            Z[1][:, POSE_SIZE:])), tile)
        c, cd = c.reshape(2, 2, LINK_SIZE, n_pr, 6), cd.reshape(2, 2, LINK_SIZE, n_pr, 6)
        dc = c[:, 0] - c[:, 1]                                  # (x or v, 14, n_pr, 6)
        dc[..., self._probe_angle] = wrap(dc[..., self._probe_angle])
        dc /= 2 * np.array([hx, hv])[:, None, None, None]
        dcd = (cd[:, 0] - cd[:, 1]) / (2 * np.array([hx, hv])[:, None, None, None])
        # the functions' slopes at the continued coordinates, one probe row each
        row = {int(j): r for r, j in enumerate(d["joint"])}
        functions = [(j, f) for j, _, f in self.inputs.effort_functions] \
            + [(j, f) for j, _, f in self._loop_efforts if callable(f)]
        gx, gv = np.zeros((n_ef, LINK_SIZE)), np.zeros((n_ef, LINK_SIZE))
        for j, f in functions:
            r = row[j]
            n = self.links[self.joint_links[j]].spatial.n_coordinates
            Sq, Sd = effort_slopes(f, t, c0[r, :n], cd0[r, :n])
            at = np.flatnonzero(self._efforts["joint"] == j)     # its rows, coordinates' order
            gx[at] = Sq @ dc[0, :, r, :n].T + Sd @ dcd[0, :, r, :n].T
            gv[at] = Sd @ dcd[1, :, r, :n].T
        W = self._joint_wrenches(*self._item_states(q, v, self._efforts), self._efforts,
                                 np.ones(n_ef))
        s = -self.load_factor
        return s * W[:, :, None] * gx[:, None, :], s * W[:, :, None] * gv[:, None, :]

    def _groups(self, q, v, t):
        """The force items by group ``(data, values, states)``: efforts (their values,
        :meth:`_effort_values`, times :attr:`load_factor` as the recursion's statics scales
        them), joint spring-dampers, spring-dampers between points."""
        out = []
        if len(self._effort_index):
            out.append((self._efforts, self.load_factor * self._effort_values(q, v, t),
                        self._item_states(q, v, self._efforts)))
        if len(self._joint_springs["law"]):
            out.append((self._joint_springs, None, self._item_states(q, v, self._joint_springs)))
        if len(self._springs["law"]):
            out.append((self._springs, None, self._item_states(q, v, self._springs)))
        return out

    def _group_forces(self, d, values, Xp, Vp, Xc, Vc):
        """One group's generalized forces (n, 14) at its items' states."""
        Xp, Vp, Xc, Vc = (np.ascontiguousarray(z) for z in (Xp, Vp, Xc, Vc))
        if "offsets" in d:
            return self._point_springs(Xp, Vp, Xc, Vc, d)[0]
        if values is None:
            values = self._joint_spring_values(Xp, Vp, Xc, Vc, d)[2]
        return self._joint_wrenches(Xp, Vp, Xc, Vc, d, values)

    def _item_tangents(self, q, v, t):
        """The items' ``(-dQ/dx, -dQ/dv)`` blocks (n_items, 14, 14) on their columns (parent's
        then child's), by central differences of each item's force in its own two bodies'
        states (steps 1e-7 in x, ``1e-7 max(1, max |v|)`` in v), all items and all 28
        perturbations of a group in one vectorized call, the efforts' values held; an effort
        function's own dependence on q and q' then added (:meth:`_effort_tangents`), so that
        a joint an effort function alone holds has its stiffness there."""
        hx = 1e-7
        hv = 1e-7 * max(1.0, float(np.abs(np.asarray(v)).max(initial=0.0)))
        K, C = [], []
        steps = np.concatenate([np.eye(LINK_SIZE), -np.eye(LINK_SIZE)])   # (2 LINK_SIZE, LINK_SIZE)
        for d, g, (Xp, Vp, Xc, Vc) in self._groups(q, v, t):
            n = len(Xp)
            tile = {key: np.tile(a, (len(steps),) + (1,) * (a.ndim - 1)) for key, a in d.items()}
            gt = None if g is None else np.tile(g, len(steps))
            X, V = np.concatenate([Xp, Xc], axis=1), np.concatenate([Vp, Vc], axis=1)
            for out, h, moved in ((K, hx, 0), (C, hv, 1)):
                Z = [np.tile(X, (len(steps), 1)), np.tile(V, (len(steps), 1))]
                Z[moved] = Z[moved] + h * np.repeat(steps, n, axis=0)
                Q = self._group_forces(tile, gt, Z[0][:, :POSE_SIZE], Z[1][:, :POSE_SIZE],
                                       Z[0][:, POSE_SIZE:], Z[1][:, POSE_SIZE:]).reshape(
                    len(steps), n, LINK_SIZE)
                out.append(-np.transpose(Q[:LINK_SIZE] - Q[LINK_SIZE:], (1, 2, 0)) / (2 * h))
        if not K:
            return np.zeros((0, LINK_SIZE, LINK_SIZE)), np.zeros((0, LINK_SIZE, LINK_SIZE))
        K, C = np.concatenate(K), np.concatenate(C)
        if len(self._probe["joint"]):
            Ke, Ce = self._effort_tangents(q, v, t)
            K[:len(Ke)] += Ke
            C[:len(Ce)] += Ce
        return K, C

    # --- states ------------------------------------------------------------------------------
    def state_of(self, y, t=0.0):
        """The absolute state ``(x, v)`` (7 n + 6 n_c each) of the recursion's state y (joint
        and element coordinates and rates,
        :meth:`rancf.formulations.spatial.Spatial.initial_state`) at t (drives at t): positions
        and Euler parameters, their rates ``p' = E^T w / 2``; the cables' coordinates and
        rates those of y where the recursion runs the cables
        (:meth:`~rancf.formulations.spatial.Spatial.cable_coordinates`: the equilibrium of its
        statics, which ``state="static"`` starts from), else at their reference, at rest (the
        recursion's state has no cable)."""
        self.inputs.at_time(t)
        y = np.asarray(y, dtype=float)
        r, A, V = self.recursion.kinematics(y)
        p = quaternion(A)
        pd = 0.5 * np.einsum("nia,ni->na", _E(p), V[:, 3:])
        if self.recursion.cables is not None:
            e, ed = self.recursion.cable_coordinates()      # of the kinematics above
        else:
            e = self.tree.cable_x0
            ed = np.zeros(CABLE_NODE * self.n_cable_nodes)
        x = np.concatenate([np.concatenate([r, p], axis=1).ravel(), e.ravel()])
        v = np.concatenate([np.concatenate([V[:, :3], pd], axis=1).ravel(), ed.ravel()])
        return x, v

    def initial_state(self, q=None, qd=None):
        """``(x0, v0)`` of the recursion's joint coordinates q and rates qd (its free ones;
        the reference configuration at rest by default), drives at t = 0."""
        return self.state_of(self.recursion.initial_state(q, qd), 0.0)

    def _bodies(self, x):
        """The bodies' coordinates of x (..., n) as (..., n_bodies, 7)."""
        x = np.asarray(x, dtype=float)
        return x[..., :POSE_SIZE * self.n_bodies].reshape(x.shape[:-1] + (self.n_bodies, POSE_SIZE))

    def poses(self, x):
        """Origins (..., n, 3) and frames (..., n, 3, 3) (``A(p) / (p . p)``) of the
        coordinates x (..., n_coordinates): of one state, or of states stacked."""
        X = self._bodies(x)
        p = X[..., 3:]
        return X[..., :3].copy(), rotation(p) / np.einsum("...i,...i->...", p, p)[..., None, None]

    def velocities(self, x, v):
        """Body velocities ``(v, w)`` (..., n, 6), ``w = 2 E(p) p' / (p . p)``, of one state
        or of states stacked."""
        X, Vx = self._bodies(x), self._bodies(v)
        p = X[..., 3:]
        w = 2.0 * np.einsum("...ia,...a->...i", _E(p), Vx[..., 3:]) \
            / np.einsum("...i,...i->...", p, p)[..., None]
        return np.concatenate([Vx[..., :3], w], axis=-1)

    def accelerations(self, x, v, a):
        """Body accelerations ``(r'', w')`` (n, 6) of coordinate accelerations a on the
        manifold: ``w' = 2 E(p) p''`` (``E(p') p' = 0``)."""
        X, A_ = self._X(x), self._X(a)
        return np.concatenate([A_[:, :3], 2.0 * np.einsum("nia,na->ni", _E(X[:, 3:]),
                                                          A_[:, 3:])], axis=1)

    def state_of_poses(self, x, v, t=0.0, tol=1e-8, newton_tol=0.0, joints=None,
                       joint_q=None):
        """The absolute state ``(x, v)`` of a :class:`rancf.State` of a spatial model (what
        ``Result.state(i)`` of a spatial run holds): the bodies' poses and velocities in the
        layout of :attr:`rancf.Result.nodes` and ``velocities``, then the cable nodes'
        coordinates ``[r, r']`` and their rates, checked against every joint (the loops' and
        the cables' too). The velocities are not checked: an index-3 scheme holds the
        positions to its Newton tolerance but the velocity rows only to its step's error, so a
        run's own state would fail a strict check (:meth:`consistent_state` projects them).

        Parameters
        ----------
        x : ndarray (12 n + 6 n_c,)
            Per body its origin r (m) and frame A row-major; then per cable node its position
            r (m) and slope r' (dimensionless).
        v : ndarray (6 n + 6 n_c,)
            Per body its velocity and angular velocity (m/s, rad/s); then per cable node the
            rates of r and r' (m/s, 1/s).
        t : float
            The time of the drives (s).
        tol : float
            The rows must hold to ``tol`` times the model size, or to ``newton_tol`` (m) where
            larger: a run holds them to its Newton tolerance
            (:mod:`rancf.formulations.start_check`; :meth:`consistent_state` moves them on).
        newton_tol : float
            The Newton tolerance (m) of the run the state is from (a continued run's own).
        joints : list of rancf.Joint, optional
            The model's joints, for the message: a driven joint's drive is named with its
            value at t against the state's (``joint_q``: the state's joint coordinates, a row
            of ``Result.joint_q``; None: not known).

        Returns
        -------
        x, v : ndarray (7 n + 6 n_c,)
            Positions and Euler parameters (:func:`quaternion` of the frames), their rates
            ``p' = E(p)^T w / 2``; the cable nodes' coordinates and rates as given.

        Raises
        ------
        ValueError
            A body's frame is not a rotation (not orthogonal to ``tol``, or a reflection: the
            body named); the poses do not satisfy the joints (the largest gap named); a cable
            node's slope of norm below 1e-3 (a cable squeezed to a thousandth of its length,
            or a zero slope, where the strains ``|r'| - 1`` and ``r' x r'' / |r'|^2`` have no
            direction: the run would fill with NaN) or not finite.
        """
        n = self.n_bodies
        x, v = np.asarray(x, dtype=float), np.asarray(v, dtype=float)
        _check_slopes(x[FRAME_SIZE * n:].reshape(-1, CABLE_NODE)[:, 3:])
        X = x[:FRAME_SIZE * n].reshape(n, FRAME_SIZE)
        V = v[:TWIST_SIZE * n].reshape(n, TWIST_SIZE)
        _check_frames(X[:, 3:].reshape(n, 3, 3), tol)
        p = quaternion(X[:, 3:].reshape(n, 3, 3))
        pd = 0.5 * np.einsum("nia,ni->na", _E(p), V[:, 3:])
        q = np.concatenate([np.concatenate([X[:, :3], p], axis=1).ravel(), x[FRAME_SIZE * n:]])
        qd = np.concatenate([np.concatenate([V[:, :3], pd], axis=1).ravel(), v[TWIST_SIZE * n:]])
        phi = np.abs(self.constraint(q, t))
        gap = float(phi.max(initial=0.0))
        if gap > max(tol * self.tree.size, newton_tol):
            raise ValueError(self.start_refusal(int(phi.argmax()), "poses", gap, t, joints,
                                                joint_q))
        return q, qd

    def start_refusal(self, row, level, off, t=0.0, joints=None, joint_q=None):
        """The message refusing a start whose ``level`` ("poses" or "velocities") rows are
        off by ``off``, the furthest the row ``row``: the joint it belongs to
        (:func:`rancf.formulations.start_check.refusal`, with its drive where ``joints``, the
        model's, are given; the state's coordinate from ``joint_q``, a row of
        ``Result.joint_q``), a loop given, or a body's Euler parameters."""
        head = f"state: the {level} do not satisfy the joints"
        if row >= self.n_joint_rows:
            return (f"{head}: body {row - self.n_joint_rows}'s Euler parameters are off unit "
                    f"norm by {off:.3g}; pass a state of this model (Result.state of a run "
                    "of it)")
        link = next(k for k, rows in enumerate(self.link_rows) if rows.start <= row < rows.stop)
        joint = self.joint_links.index(link) if link in self.joint_links else None
        if joint is None or joints is None or joint >= len(joints):
            what = f"the joint of link {link}" if joint is None else f"joint {joint}"
            return (f"{head}: {what} ({motion_words(self.links[link].motion)}) is off by "
                    f"{off:.3g}; pass {level} that satisfy every joint (Result.state of a run "
                    "of this model)")
        j = joints[joint]
        given = None
        if joint_q is not None and level == "poses" and j.driven:
            given = float(joint_q[sum(i.type.spatial.n_coordinates for i in joints[:joint])])
        return start_check.refusal(j, level, off, j.type.spatial.units[0], given, t)

    def consistent_state(self, x, v, t=0.0, tol=1e-12, max_iter=20, metric="euclidean"):
        """``(x, v)`` moved onto the constraints at t (:meth:`IndexThreeDAE.consistent_state`,
        the library's one projection): positions by Gauss-Newton's least-change steps
        ``dx = -Phi_x^+ Phi`` while ``|Phi| > tol`` times the model size, velocities by the
        least-change projection ``v - Phi_x^+ (Phi_x v + Phi_t)`` (``metric`` "euclidean" in
        the coordinates: what a start from the tree's coordinates needs, velocities that
        satisfy the rows), or its least change of kinetic energy (``"mass"``: M is singular
        only along a quaternion's own direction, which its norm row holds, so the saddle
        point is regular; a given State's velocities, in any units:
        :func:`rancf.starts.spatial_dae_start`).

        A model's reference configuration holds the tree's joints, and its loops to the
        1e-9 of the model size its builder allows (joint points may be that far apart); a
        start from the tree's coordinates (:meth:`initial_state`) gives a driven joint's rate
        to the tree only, which this projection spreads over the loop (the drive's own row is
        among the constraints, so its rate stays exact).

        Raises
        ------
        ValueError
            The positions did not reach the constraints within ``max_iter`` steps (a loop
            that does not close near the reference configuration).
        """
        return IndexThreeDAE.consistent_state(
            self, x, v, t, metric, tol * self.tree.size, max_iter,
            advice="; check that the loop closes in the reference configuration")

    # --- mass ------------------------------------------------------------------------------
    def _rotary(self, x):
        p = self._X(x)[:, 3:]
        G = _G(p)
        return p, G, 4.0 * np.einsum("nia,nij,njb->nab", G, self.tree.inertia, G)

    def mass(self, q):
        """``diag(m I3, 4 G^T J G)`` per body (sparse, 7 n x 7 n)."""
        _, _, Mp = self._rotary(q)
        blocks = np.zeros((self.n_bodies, POSE_SIZE, POSE_SIZE))
        blocks[:, :3, :3] = self.tree.mass[:, None, None] * np.eye(3)
        blocks[:, 3:, 3:] = Mp
        return sp.block_diag([sp.csr_matrix((0, 0))] + list(blocks) + [self._cable_mass],
                             format="csr")

    def mass_action(self, q, a):
        """``M(q) a`` (the compiled problem's)."""
        return self.compiled.py_mass_action(q, a)

    def _mass_derivative_blocks(self, q, a):
        """The bodies' ``d(M(q) a)/dp`` blocks (n, 4, 4) (:meth:`mass_derivative`)."""
        p, G, _ = self._rotary(q)
        ap = self._X(a)[:, 3:]
        JGa = np.einsum("nij,nja,na->ni", self.tree.inertia, G, ap)
        return 4.0 * (np.einsum("kia,ni->nak", _GK, JGa)
                      - np.einsum("nia,nij,njb->nab", G, self.tree.inertia, _G(ap)))

    def mass_derivative(self, q, a):
        """``d(M(q) a)/dq``: ``4 (G_k^T J G a_p) e_k^T - 4 G^T J G(a_p)`` per body."""
        blocks = np.zeros((self.n_bodies, POSE_SIZE, POSE_SIZE))
        blocks[:, 3:, 3:] = self._mass_derivative_blocks(q, a)
        return sp.block_diag([sp.csr_matrix((0, 0))] + list(blocks)
                             + [sp.csr_matrix(self._cable_mass.shape)], format="csr")

    # --- forces ----------------------------------------------------------------------------
    @staticmethod
    def _pair(pa, b):
        """The columns of an element's two bodies (the child's only on the ground)."""
        child = np.arange(POSE_SIZE * b, POSE_SIZE * (b + 1))
        if pa < 0:
            return child
        return np.concatenate([np.arange(POSE_SIZE * pa, POSE_SIZE * (pa + 1)), child])

    def _loads(self, x):
        """Loads' generalized forces (7 n) at x (their values at the time of the last
        ``inputs.at_time``)."""
        t = self.tree
        out = np.zeros(self.n_coordinates)
        if not len(t.load_body):
            return out
        r, A = self.poses(x)
        X = self._X(x)
        for k, b in enumerate(np.asarray(t.load_body, dtype=int)):
            F, Mo = self._load_force[k], self._load_moment[k]
            if b >= self.n_bodies:
                # a cable node: a global force on its position and the moment's generalized
                # force on its slope (no follower: the model refuses it)
                c = self._c0 + CABLE_NODE * (b - self.n_bodies)
                out[c:c + 3] += F
                out[c + 3:c + CABLE_NODE] += _ancf_cable.moment_force(x[c + 3:c + CABLE_NODE], Mo)
                continue
            if t.load_arc[k] >= 0:
                # between two nodes: the wrenches on both that do its virtual work
                W = arc_point_wrenches(r[b], A[b], r[t.load_arc[k]], A[t.load_arc[k]],
                                       t.load_offset[k][0], F, Mo, bool(t.load_follower[k]))
                for node, (Fn, Mn) in zip((b, t.load_arc[k]), W.reshape(2, 2, 3)):
                    pn = X[node, 3:]
                    out[POSE_SIZE * node:POSE_SIZE * node + 3] += Fn
                    out[POSE_SIZE * node + 3:POSE_SIZE * (node + 1)] += \
                        2.0 * _E(pn).T @ Mn / (pn @ pn)
                continue
            if t.load_follower[k]:
                F, Mo = A[b] @ F, A[b] @ Mo
            arm = A[b] @ t.load_offset[k]
            p = X[b, 3:]
            out[POSE_SIZE * b:POSE_SIZE * b + 3] += F
            out[POSE_SIZE * b + 3:POSE_SIZE * (b + 1)] += \
                2.0 * _E(p).T @ (Mo + np.cross(arm, F)) / (p @ p)
        return out

    def _element_status(self, bad):
        """Raise if the element kernel met an element whose rotation reached pi (its index
        among the elements, or -1)."""
        if bad >= 0:
            raise FloatingPointError(f"element of body {self.elements[bad]}: its rotation "
                                     "reached pi")

    def _clamp_turned_over(self, k, q):
        """The message of a state q (n,) refused where clamp k at a cable point (its index
        among the tree's ``cable_joint``) holds the cable's slope turned over against the
        axis it holds (``CableLinkKernel.turned_over``, at the compiled problem's accept)."""
        j = int(self.tree.cable_joint[k])
        held = float(self._cable_kernel.held(np.ascontiguousarray(q, dtype=float))[k])
        return (f"joint {j} (fixed, at a cable point): the cable's slope at the clamp has "
                f"turned over against the axis the clamp holds (r' along it {held:.3g}, "
                "positive as drawn): the clamp's rows hold there too, but the cable would "
                "have passed through zero length at the clamp to reach it, which is no motion "
                "of the model; the step is too large for this model (raise load_steps, or "
                "reduce dt) or the cable too soft for its load near the clamp")

    def force(self, q, v, t):
        """Gravity and loads (times :attr:`load_factor`), the gyroscopic force, the elements'
        forces, the efforts and spring-dampers, the cables' weight and forces (n) at
        (q, v, t) (the compiled problem's)."""
        return self.compiled.py_force(q, v, t)

    def _body_tangents(self, q, v, t):
        """``(dF/dx_p, -dF_p/dp')``, (n, 7, 4) and (n, 4, 4): the gyroscopic force's
        derivatives on each body's Euler parameters and their rates, and the loads' (at t) on
        the Euler parameters of the body they act on (both nodes' own of a load between two
        nodes: the blocks Newton's matrix has on the bodies; the rest of a load between two
        nodes is its block on both nodes' columns in :meth:`stiffness`), by central
        differences (steps 1e-7, 1e-4 for a load between two nodes, and ``1e-7 max(1, max |p'|)`` in p'; the compiled
        problem's, ``SpatialProblem.py_body_tangents``)."""
        return self.compiled.py_body_tangents(q, v, t)

    def _element_stiffness(self, q, v):
        """The elements' ``-dF/dx`` blocks (the kernel's central differences, step 1e-6)."""
        out = np.empty(self._element_kernel.n_square)
        self._element_status(self._element_kernel.stiffness(
            np.ascontiguousarray(q, dtype=float), np.ascontiguousarray(v, dtype=float), out))
        return out

    def _element_damping(self, q):
        """The elements' ``B^T D B`` blocks (exact)."""
        out = np.empty(self._element_kernel.n_square)
        self._element_kernel.damping(np.ascontiguousarray(q, dtype=float), out)
        return out

    def stiffness(self, q, v, t):
        """``K = -dF/dq``: the elements' by central differences of their forces (the exact
        ``B^T K B`` plus the geometric part), the loads' and gyroscopic forces' likewise (a
        load between two nodes on both nodes' columns,
        ``SpatialProblem.py_arc_load_tangents``; a moment on a cable node's slope exactly,
        ``_ancf_cable.moment_tangent``)."""
        self.inputs.at_time(t)
        q = np.asarray(q, dtype=float)
        rows, cols = self._element_columns()
        vals = [self._element_stiffness(q, v)]
        D = self._body_tangents(q, v, t)[0]
        # D[b, i, k] is d f_{7b + i} / d x_{7b + 3 + k}
        r, c = np.meshgrid(np.arange(POSE_SIZE), 3 + np.arange(N_EULER), indexing="ij")
        body = POSE_SIZE * np.arange(self.n_bodies)[:, None, None]
        rows.append((body + r).ravel())
        cols.append((body + c).ravel())
        vals.append(-D.ravel())
        n = self.n_coordinates
        K = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                          shape=(n, n))
        if self.n_cable_nodes:
            K = K + self._cable_matrix(self._cable_elements(q, v, tangents=True)[3])
        if len(self._item_cols):
            K = K + self._item_matrix(self._item_tangents(q, v, t)[0])
        if self._arc_springs.n:
            K = K + self._arc_spring_matrix(self._arc_spring_tangents(q, v)[0])
        if len(self._arc_loads):
            cols = self._arc_load_cols()
            K = K + sp.csr_matrix(
                (self.compiled.py_arc_load_tangents(q, t).ravel(),
                 (np.concatenate([np.repeat(c, c.size) for c in cols]),
                  np.concatenate([np.tile(c, c.size) for c in cols]))), shape=(n, n))
        for k in self._cable_loads:
            # a moment on a cable node's slope: -lf dQ/dr' (its force on r is constant)
            s = self._c0 + CABLE_NODE * (int(self.tree.load_body[k]) - self.n_bodies) + 3
            T = _ancf_cable.moment_tangent(q[s:s + 3], self._load_moment[k])
            idx = np.arange(s, s + 3)
            K = K + sp.csr_matrix((-self.load_factor * T.ravel(),
                                   (np.repeat(idx, 3), np.tile(idx, 3))), shape=(n, n))
        return K

    def _arc_spring_tangents(self, q, v):
        """The spring-dampers with an end between two nodes: their ``(K, C)`` blocks on their
        columns (the compiled problem's steps: 1e-7 in x, ``1e-7 max(1, max |v|)`` in v)."""
        hv = 1e-7 * max(1.0, float(np.abs(np.asarray(v)).max(initial=0.0)))
        return self._arc_springs.tangents(np.ascontiguousarray(q, dtype=float),
                                          np.ascontiguousarray(v, dtype=float), 1e-7, hv)

    def _arc_spring_matrix(self, blocks):
        """Their blocks (concatenated, each n_cols x n_cols) assembled (sparse, n x n)."""
        cols = self._arc_spring_cols
        n = self.n_coordinates
        return sp.csr_matrix((blocks, (np.concatenate([np.repeat(c, c.size) for c in cols]),
                                       np.concatenate([np.tile(c, c.size) for c in cols]))),
                             shape=(n, n))

    def _element_columns(self):
        """The (row, column) lists of the elements' blocks (the kernel's order)."""
        rows, cols = [], []
        for b in self.elements:
            c = self._pair(int(self.tree.parent[b]), b)
            rows.append(np.repeat(c, c.size))
            cols.append(np.tile(c, c.size))
        return rows, cols

    def damping(self, q, v, t):
        """``C = -dF/dv``: the elements' ``B^T D B`` (exact) and the gyroscopic force's
        ``-d(8 G(p')^T J G(p') p)/dp'`` (central differences)."""
        rows, cols = self._element_columns()
        vals = [self._element_damping(q)]
        D = self._body_tangents(q, v, t)[1]
        r, c = np.meshgrid(np.arange(N_EULER), np.arange(N_EULER), indexing="ij")
        p = POSE_SIZE * np.arange(self.n_bodies)[:, None, None] + 3
        rows.append((p + r).ravel())
        cols.append((p + c).ravel())
        vals.append(D.ravel())
        n = self.n_coordinates
        C = sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                          shape=(n, n))
        if self.n_cable_nodes and self.tree.cable_damping.any():
            C = C + self._cable_matrix(self._cable_elements(q, v, tangents=True)[4])
        if len(self._item_cols):
            self.inputs.at_time(t)
            C = C + self._item_matrix(self._item_tangents(q, v, t)[1])
        if self._arc_springs.n:
            C = C + self._arc_spring_matrix(self._arc_spring_tangents(q, v)[1])
        return C

    # --- constraints -----------------------------------------------------------------------
    def _targets(self, t):
        """The drives' targets at t, and their jets (value, first, second derivative); the
        last time's are kept (a step asks for them at one time many times)."""
        t = float(t)
        if self._last_targets is not None and self._last_targets[0] == t:
            return self._last_targets[1]
        self.inputs.at_time(t)
        out = [(None, None, None)] * len(self.links)
        n_q = self.tree.n_q
        for k in self._driven:
            lk = self.links[k]
            if lk.driven < n_q:
                out[k] = lk.target_jet(*self._drive[lk.driven])
                continue
            # a loop-closing joint's drive: a function of t, or a coordinate held
            out[k] = lk.target_jet(*self._loop_drive_values(t)[lk.driven - n_q])
        self._last_targets = (t, out)
        return out

    def constraint(self, q, t):
        """Phi (n_constraints,): the links' rows, then the bodies' norms."""
        return self.compiled.py_constraint(q, t)

    def constraint_jacobian(self, q, t):
        """``Phi_x`` (sparse, n_constraints x 7 n), analytic."""
        data = np.bincount(self._J_index, weights=self.compiled.py_jacobian_values(q, t),
                           minlength=self._J_nnz)
        return sp.csr_matrix((data, self._J_indices, self._J_indptr),
                             shape=(self.n_constraints, self.n_coordinates))

    def constraint_force(self, q, lam, t):
        """``Phi_x^T lambda`` (n,)."""
        return self.compiled.py_constraint_force(q, lam, t)

    def constraint_rate(self, q, v, t):
        """``Phi_x v`` (m,)."""
        return self.compiled.py_constraint_rate(q, v, t)

    def newton_matrix(self, q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k, c_c, w,
                      factor=True):
        """``[[c_m M + c_mq d(M a)/dx + c_k (K + d(Phi_x^T lambda)/dx) + c_c C, w Phi_x^T],
        [Phi_x, 0]]`` (:meth:`IndexThreeDAE.newton_matrix`'s terms, a term whose weight is
        zero not evaluated) summed on the pattern of :meth:`_patterns`: per body a 7 x 7
        block (mass, mass derivative, loads' and gyroscopic tangents, the norm's curvature),
        per element and per link its block on its columns, per cable element its 12 x 12;
        then its factors (``factor``: LAPACK's dense LU up to :data:`DENSE_BELOW` unknowns,
        SuperLU beyond) or the CSC matrix. The values are the compiled problem's
        (:class:`rancf.formulations._spatial_dae.SpatialProblem`, which factors them itself
        in a run)."""
        vals = self.compiled.py_values(q_e, a_e, lam, v_e, t_e, q_new, t_new, c_m, c_mq, c_k,
                                       c_c, w)
        N = self.n_coordinates + self.n_constraints
        S = sp.csc_matrix((np.bincount(self._S_index, weights=vals, minlength=self._S_nnz),
                           self._S_indices, self._S_indptr), shape=(N, N))
        if not factor:
            return S
        if N <= DENSE_BELOW:
            return NewtonFactor(S.toarray(), self.n_constraints, False)
        return NewtonFactor(S, self.n_constraints, True)

    def velocity_bias(self, q, t):
        """``Phi_t`` (the exact stencil along the drives' Taylor polynomials: module
        docstring)."""
        return self.compiled.py_bias(q, None, t)

    def acceleration_bias(self, q, v, t):
        """``xi = (Phi_x v)_x v + 2 Phi_xt v + Phi_tt`` (module docstring)."""
        return self.compiled.py_bias(q, v, t)

    def constraint_curvature(self, q, lam, t):
        """``d(Phi_x^T lambda)/dx``: the exact stencil on the analytic ``Phi_x^T lambda`` of each
        link along each of its coordinates, and ``lambda I4`` of the norms."""
        rows, cols = [], []
        for lk in self.links:
            if lk.n_rows:
                rows.append(np.repeat(lk.columns, lk.columns.size))
                cols.append(np.tile(lk.columns, lk.columns.size))
        rows.append(self._p)
        cols.append(self._p)
        vals = [self.compiled.py_curvature_values(q, lam, t),
                np.repeat(np.asarray(lam, dtype=float)[self.n_joint_rows:], N_EULER)]
        n = self.n_coordinates
        return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                             shape=(n, n))

    def power(self, q, v, t, lam):
        """``(P_ext, P_diss)`` (W): the power of the loads (``Q_loads . v``) and of the drives
        (``lambda . Phi_t``: ``v^T (M a - F) = -lambda . Phi_x v = lambda . Phi_t``), and the
        power the elements' Kelvin-Voigt damping dissipates (``-f_damp . e' = e' . (l B^T C c B
        e')``, f_damp the element force less its value at ``e' = 0``: the element kernel's
        power output); the efforts' power (their generalized forces times v) joins the first,
        the spring-dampers' damping (``c l'^2``, ``c q'^2``) the second. Gravity, the elastic
        forces and the springs are potentials (:meth:`energy`). The compiled problem's; it
        asks :meth:`_loads` for the loads' forces."""
        return self.compiled.py_power(q, v, t, lam)

    # --- what a run reports ----------------------------------------------------------------
    def multipliers(self, q, v, t):
        """The accelerations and multipliers of the exact motion through (q, v) at t:
        ``[[M, Phi_x^T], [Phi_x, 0]] [a; lambda] = [F; -xi]`` (sparse LU)."""
        S = self.newton_matrix(q, np.zeros_like(q), np.zeros(self.n_constraints), v, t, q, t,
                               1.0, 0.0, 0.0, 0.0, 1.0, factor=False)
        rhs = np.concatenate([self.force(q, v, t), -self.acceleration_bias(q, v, t)])
        sol = spla.spsolve(sp.csc_matrix(S), rhs)
        return sol[:self.n_coordinates], sol[self.n_coordinates:]

    def reactions(self, q, lam, t):
        """The reaction of every joint (n_joints + n_loops, 6), the model's joints in the order
        of ``tree.joint_body`` (those that close loops among them), then the loops given to
        the constructor: force and moment the parent
        exerts on the child through the joint, global, the moment about the joint point (the
        module docstring), from the multipliers lam: what the joint's rows transmit. The
        joint's own effort and spring-damper are applied forces, not part of it
        (:meth:`rancf.Result.reaction`; the recursion takes their wrench out of its link
        wrench, :meth:`rancf.formulations.spatial.Spatial.joint_reactions`)."""
        J = self.constraint_jacobian(q, t)
        X = self._X(q)
        r, A = self.poses(q)
        out = np.zeros((len(self.joint_links), 6))
        for j, k in enumerate(self.joint_links):
            lk, s = self.links[k], self.link_rows[k]
            if isinstance(lk, _CableLink):
                out[j] = self._cable_reaction(q, lk, -(J[s].T @ lam[s]))
                continue
            if isinstance(lk, _ArcLink):
                out[j] = self._arc_reaction(q, lk, lam[s])
                continue
            b = lk.body
            g = -(J[s].T @ lam[s])[POSE_SIZE * b:POSE_SIZE * (b + 1)]
            p = X[b, 3:]
            out[j, :3] = g[:3]
            out[j, 3:] = 0.5 * _E(p) @ g[3:] / (p @ p) - np.cross(A[b] @ lk.offset, g[:3])
        return out

    def _cable_reaction(self, q, lk, g):
        """The reaction on the child of a joint at a cable point from its generalized
        constraint force g (n,): on a body as :meth:`reactions` says; on a cable node the
        force on its position and the moment ``r' x g_{r'}`` of the force on its slope (a
        clamp's: ``g_{r'} . dr' = (r' x g_{r'}) . dtheta`` for a turn ``dr' = dtheta x r'``),
        about the node, the joint point."""
        kind, b, offset, cols = lk.sides[1]
        g = g[cols]
        if kind == "cable":
            return np.concatenate([g[:3], np.cross(np.asarray(q)[cols[3:]], g[3:])])
        p = np.asarray(q)[cols[3:]]
        A = rotation(p) / (p @ p)
        return np.concatenate([g[:3], 0.5 * _E(p) @ g[3:] / (p @ p)
                               - np.cross(A @ offset, g[:3])])

    def _arc_reaction(self, q, lk, lam):
        """The reaction on the child of a joint at a point between two nodes of a beam: the
        generalized constraint force ``-(dPhi/dy_c)^T lambda`` on the child side's pose
        ``y_c = (X, q)`` (a body's coordinates, or an element point's pose, whose force and
        moment about X are the wrench at that point), turned into the force and the moment
        about the joint point as :meth:`reactions` does for a body."""
        x = np.ascontiguousarray(q, dtype=float)
        Jy = self._arc_kernel.inner_jacobian(x)[lk.index]
        y = self._arc_kernel.poses(x[None])[0, lk.index, POSE_SIZE:]
        g = -(Jy.T @ lam)[-POSE_SIZE:]
        p = y[3:]
        A = rotation(p) / (p @ p)
        return np.concatenate([g[:3], 0.5 * _E(p) @ g[3:] / (p @ p)
                               - np.cross(A @ lk.offset, g[:3])])

    def joint_coordinates(self, q, v):
        """The coordinates and rates of the model's joints (those of ``joint_links``,
        concatenated; each joint's in its kind's order and units) from the bodies' poses and
        velocities, by the recursion's map from a link's relative pose ``R = A_p^T A_c Q^T``,
        ``t = A_p^T (r_c - r_p + A_c o) - anchor`` to its coordinates (angles about and slides
        along its axes, rotation vectors of angle at most pi:
        ``rancf.formulations.spatial._link_coordinates``); at a cable node, whose frame is that
        of :meth:`cable_poses` (no spin about the cable; turned from the bases of
        :meth:`_cable_bases`, the state an output after :meth:`observe`'s last), a spherical
        joint's rotation vector is that of the relative rotation of the two sides' frames.
        The rates are the derivative of that map along ``x + tau v`` at tau = 0 (the same as
        along the motion: only the first derivative enters), by the seven-point stencil with
        ``tau max|v| = 1e-3`` (truncation below round-off). Angles come back within (-pi, pi]
        (:meth:`observe` continues them)."""
        jq, jqd = self._joint_coordinates_many(np.asarray(q, dtype=float)[None],
                                               np.asarray(v, dtype=float)[None])
        return jq[0], jqd[0]

    def _joint_coordinates_many(self, Q, V, cable_bases=None):
        """:meth:`joint_coordinates` of the states (Q, V) (S, n): every state's seven stencil
        points in one :meth:`_link_values` call; ``cable_bases`` (S, n_c, 3, 3), the bases of
        their cable frames (None: :meth:`_cable_bases` of Q now)."""
        S = len(Q)
        scale = np.abs(V).max(axis=1, initial=0.0)
        h = 1e-3 / np.where(scale > 0.0, scale, 1.0)
        taus = _TAUS[None, :] * h[:, None]                        # (S, 7)
        # a state at rest has rates zero: its stencil points are its coordinates
        points = Q[:, None, :] + (taus * (scale > 0.0)[:, None])[:, :, None] * V[:, None, :]
        # the stencil points of a state turn its cable frames from that state's bases
        if self._jc_cables and cable_bases is None:
            cable_bases = self._cable_bases(Q)
        bases = None if not self._jc_cables else np.repeat(cable_bases, _TAUS.size, axis=0)
        values = self._link_values(points.reshape(-1, Q.shape[1]), bases).reshape(
            S, _TAUS.size, -1)
        c0 = values[:, list(_TAUS).index(0.0)]
        rate = np.zeros_like(c0)
        a = self._angles
        for w, k in zip(_D1, range(_TAUS.size)):
            if w != 0.0:
                c = values[:, k].copy()
                c[:, a] = c0[:, a] + wrap(c[:, a] - c0[:, a])
                rate += w * c
        return c0, np.where((scale > 0.0)[:, None], rate / h[:, None], 0.0)

    def _coordinate_setup(self):
        """Where each joint's coordinates sit among :meth:`joint_coordinates`' (n_c), and the
        arrays of the kernel that maps the joints between bodies
        (:func:`rancf.formulations._spatial_dae.link_coordinates`)."""
        links = [self.links[k] for k in self.joint_links]
        sizes = [(3 if lk.kind == CABLE_SPHERICAL else 0) if isinstance(lk, _CableLink)
                 else lk.spatial.n_coordinates for lk in links]
        start = np.cumsum([0] + sizes)
        self._n_jc = int(start[-1])
        bodies = [(lk, int(c)) for lk, c in zip(links, start[:-1])
                  if not isinstance(lk, (_CableLink, _ArcLink))]
        ints = lambda a: np.ascontiguousarray(a, dtype=np.intc)
        floats = lambda a, shape: np.ascontiguousarray(np.reshape(a, shape), dtype=float)
        n = len(bodies)
        self._jc_links = (
            ints([lk.parent for lk, _ in bodies]), ints([lk.body for lk, _ in bodies]),
            ints([int(lk.motion) for lk, _ in bodies]),
            floats([lk.QT for lk, _ in bodies], (n, 3, 3)),
            floats([lk.offset for lk, _ in bodies], (n, 3)),
            floats([lk.anchor for lk, _ in bodies], (n, 3)),
            floats([lk.a0 for lk, _ in bodies], (n, 3)),
            floats([lk.a1 for lk, _ in bodies], (n, 3)), ints([c for _, c in bodies]))
        # the joints at points between two nodes: the same kernel on their sides' poses,
        # link i's parent side "body" 2 i and child side 2 i + 1 (ArcLinkKernel.poses)
        arcs = [(lk, int(c)) for lk, c in zip(links, start[:-1]) if isinstance(lk, _ArcLink)]
        n = len(arcs)
        self._jc_arcs = (
            ints([2 * lk.index if lk.parent >= 0 else -1 for lk, _ in arcs]),
            ints([2 * lk.index + 1 for lk, _ in arcs]),
            ints([int(lk.motion) for lk, _ in arcs]),
            floats([lk.QT for lk, _ in arcs], (n, 3, 3)),
            floats([lk.offset for lk, _ in arcs], (n, 3)),
            floats([lk.anchor for lk, _ in arcs], (n, 3)),
            floats([lk.a0 for lk, _ in arcs], (n, 3)),
            floats([lk.a1 for lk, _ in arcs], (n, 3)), ints([c for _, c in arcs])) if n \
            else None
        #: the spherical joints at cable points: (link, first column)
        self._jc_cables = [(lk, int(c)) for lk, c in zip(links, start[:-1])
                           if isinstance(lk, _CableLink) and lk.kind == CABLE_SPHERICAL]

    def _link_values(self, X, bases=None):
        """:meth:`joint_coordinates`' coordinates (S, n_c) at the coordinates X (S, n): the
        map of ``rancf.formulations.spatial._link_coordinates`` applied to all S at once, the
        joints between bodies by one kernel call
        (:func:`rancf.formulations._spatial_dae.link_coordinates`), the spherical joints at
        cable points from the cable nodes' frames (:meth:`cable_poses`, turned from
        ``bases`` (S, c, 3, 3); None: from the reference frames)."""
        X = np.ascontiguousarray(X, dtype=float)
        S = len(X)
        out = np.zeros((S, self._n_jc))
        _spatial_dae.link_coordinates(X, *self._jc_links, out)
        if self._jc_arcs is not None:
            Y = self._arc_kernel.poses(X).reshape(S, -1)
            _spatial_dae.link_coordinates(Y, *self._jc_arcs, out)
        if self._jc_cables:
            A = self.poses(X)[1]
            cable = self.cable_poses(X, np.zeros_like(X), bases)[0][..., 3:].reshape(
                S, -1, 3, 3)
            eye = np.broadcast_to(np.eye(3), (S, 3, 3))
            for lk, c in self._jc_cables:
                F = [eye if kind == "ground" else A[:, i] if kind == "body" else cable[:, i]
                     for kind, i, _, _ in lk.sides]
                out[:, c:c + 3] = _logs(np.swapaxes(F[0], 1, 2) @ F[1] @ lk.Q.T)
        return out

    def observe(self, q, v, t, lam, reactions=True):
        """The model-level arrays at an output (what the implicit loop keeps, as the
        recursion's :meth:`rancf.formulations.spatial.Spatial.observe`): ``nodes`` (12 n: r
        then A row-major, per body), ``velocities`` (6 n: v, w), ``joint_q``, ``joint_qd``
        (:meth:`joint_coordinates`; the angles of revolute, cylindrical and universal joints
        continued from the previous output, so that they are continuous where they turn by
        less than pi between outputs), ``reactions`` (6 per joint: :meth:`reactions` of the
        state's own multipliers, :meth:`multipliers`: the loop's ``lam`` are the scheme's,
        which Newmark leaves oscillating and generalized-alpha-S takes at its intermediate
        point, as the planar :meth:`rancf.formulations.dae.DAE.observe` says; left out with
        ``reactions=False``) and the energies ``kinetic``, ``gravity``, ``elastic``
        (:meth:`energy`). A model with cables has its cable nodes' poses after the bodies' in
        ``nodes`` and ``velocities`` (:meth:`cable_poses`, for drawing) and their coordinates
        ``[r, r']`` and rates in ``cable_nodes`` and ``cable_velocities`` (6 n_c each), which
        ``Result.extra`` keeps: the slope's length, the stretch, is in them only
        (``Result.state``, ``Result.internal_forces``)."""
        q, v = np.asarray(q, dtype=float), np.asarray(v, dtype=float)
        if self._cable_last is not None and not t > self._cable_last[0]:
            # outputs at one time (mode shapes) are not a motion: no frame moves on
            self._cable_last = None
        jq, jqd = self.joint_coordinates(q, v)
        out = {name: value[0] for name, value in
               self._frames(np.array([t]), q[None], v[None], jq[None], jqd[None],
                            self._last_seen).items()}
        self._last_seen = (t, out["joint_q"])
        if self.n_cable_nodes:
            frames = out["nodes"][FRAME_SIZE * self.n_bodies:].reshape(-1, FRAME_SIZE)[:, 3:]
            self._cable_last = (t, self._cable_bases(q[None])[0],
                                frames.reshape(-1, 3, 3).copy())
        if reactions:
            out["reactions"] = self.reactions(q, self.multipliers(q, v, t)[1], t).ravel()
        return out

    def _frames(self, t, Q, V, JQ, JQD, last, branches=None, cable_bases=None):
        """:meth:`observe`'s arrays but the reactions, of the states (Q, V) (S, n) at the
        times t (S,) with their joint coordinates and rates (JQ, JQD) (S, n_c), stacked
        along a first axis of outputs, each output's angles continued from the previous
        one's, the first's from ``last`` (its time and joint coordinates; None: on the whole
        turns of its reference angles, ``branches``' first row, :func:`on_turns`) (JQ in
        place, :func:`_continued`), the springs' energies on each output's reference angles
        (``branches``, :meth:`_on_branches`), the cables' frames turned from ``cable_bases``
        (S, n_c, 3, 3; None: :meth:`_cable_bases` of Q now)."""
        S, n = len(t), self.n_bodies
        if last is None and S and self._n_branch:
            # a run's first output has the angles its references continue (a static start's,
            # turned past pi by the load steps; theory: Joint coordinates), not those within
            # (-pi, pi]
            ref = self._angle_ref if branches is None else np.asarray(
                branches, dtype=float).reshape(S, -1)[0]
            at, to = self._reference_columns()
            JQ[0, to] = on_turns(JQ[0, to], ref[at])
        _continued(t, JQ, self._angles, last)
        r, A = self.poses(Q)
        nodes = np.concatenate([r, A.reshape(S, n, 9)], axis=2).reshape(S, FRAME_SIZE * n)
        velocities = self.velocities(Q, V).reshape(S, TWIST_SIZE * n)
        cables = {}
        if self.n_cable_nodes:
            bases = self._cable_bases(Q) if cable_bases is None else cable_bases
            poses, rates = self.cable_poses(Q, V, bases)
            nodes = np.concatenate([nodes, poses.reshape(S, -1)], axis=1)
            velocities = np.concatenate([velocities, rates.reshape(S, -1)], axis=1)
            cables = {"cable_nodes": Q[:, self._c0:], "cable_velocities": V[:, self._c0:],
                      "cable_bases": bases.reshape(S, -1)}
        return {"nodes": nodes, "velocities": velocities, "joint_q": JQ, "joint_qd": JQD,
                **self._energies(Q, V, branches), **cables}

    def observe_frames(self, t, q, v, a, lam, branches, kept=None):
        """:meth:`observe` of every stored output of a run, deferred to when the Result is
        first asked for them (a stored frame holds the state; developer: Results, files and sweeps):
        ``nodes`` is a :class:`SpatialFrames` (poses, joint coordinates and energies of all
        outputs in one vectorized pass), ``reactions`` a :class:`SpatialReactions` (a
        saddle-point solve an output; the values of the model's input functions at the
        outputs, ``kept`` by the loop (one ``{n: value}`` of :meth:`_input_values` an output),
        played back), each on its output's reference angles (``branches``, the rows the loop
        kept: :meth:`_on_branches`); the cable nodes' coordinates and rates are the stored
        states' own; ``inputs`` the Recorded values (None: none), for the Result's other
        outputs."""
        t = np.array(t, dtype=float)
        q = np.array(q, dtype=float).reshape(len(t), self.n_coordinates)
        v = np.array(v, dtype=float).reshape(len(t), self.n_coordinates)
        branches = np.array(branches, dtype=float)
        recorded = Recorded(t, kept) if kept is not None and _input_functions(self) else None
        out = {"reactions": SpatialReactions(self, t, q, v, branches, recorded)}
        # the bases the outputs' cable frames move on from: this call's (the run's start),
        # not those a later output, statics' load steps or start leave on the formulation;
        # computed once, when first read
        last, done = self._cable_last, []

        def bases():
            if not done:
                done.append(self._cable_bases(q, last))
            return done[0]
        if len(t):
            out["nodes"] = SpatialFrames(self, t, q, v, self._last_seen, branches,
                                         bases if self.n_cable_nodes else None)
        if self.n_cable_nodes:
            out.update(cable_nodes=q[:, self._c0:], cable_velocities=v[:, self._c0:],
                       cable_bases=lambda: bases().reshape(len(t), -1))
        # for the outputs the Result computes later (Solution.inputs)
        out["inputs"] = recorded
        return out

    def cable_poses(self, q, v, bases=None):
        """The cable nodes' poses (n_c, 12) and velocities (n_c, 6) in the layout of the
        bodies' (``Result.nodes``, ``Result.velocities``): the position r, a frame whose x is
        the unit tangent ``t = r' / |r'|`` (a base frame turned by the smallest rotation that
        takes its x to t: the cable has no section frame; the bases (n_c, 3, 3) or, None, the
        reference frames; a run's at its outputs: :meth:`_cable_bases`), the velocity r' and
        the tangent's angular velocity ``t x t'`` (no spin about t), as the recursion's
        (:func:`rancf.formulations.spatial.cable_frames`, one compiled definition); of one
        state, or of states stacked (``(..., n_c, ...)``, the bases likewise). The slope's
        length, the stretch, is not in them: :meth:`observe` gives the coordinates beside
        them."""
        q, v = np.asarray(q, dtype=float), np.asarray(v, dtype=float)
        lead = q.shape[:-1]
        c = q[..., self._c0:].reshape(-1, CABLE_NODE)
        cd = v[..., self._c0:].reshape(-1, CABLE_NODE)
        F0 = self.tree.cable_frame0 if bases is None else bases
        F0 = np.broadcast_to(F0, lead + self.tree.cable_frame0.shape).reshape(-1, 3, 3)
        poses, rates = cable_frames(c, cd, F0)
        return poses.reshape(lead + (-1, FRAME_SIZE)), rates.reshape(lead + (-1, TWIST_SIZE))

    def _cable_bases(self, Q, last=False):
        """The base frames (S, n_c, 3, 3) of the cable frames of the states Q (S, n),
        successive outputs of a run, the first after :meth:`observe`'s last (``last``: that
        output's ``(t, bases, frames)`` as :attr:`_cable_last` held it, None for the
        reference frames; False: :attr:`_cable_last` now), as the
        recursion's (:func:`rancf.formulations.spatial.cable_bases`): the reference frames
        while a tangent stays within 120 degrees of its reference, past that the frame of the
        output before, so that the frames stay defined and continuous where a cable end
        swings over."""
        Q = np.asarray(Q, dtype=float)
        if last is False:
            last = self._cable_last
        start, previous = (self.tree.cable_frame0, None) if last is None else last[1:]
        return cable_bases(np.arange(len(Q), dtype=float),
                           Q[:, self._c0:].reshape(len(Q), -1, CABLE_NODE), start, previous)

    def carry_cable_frames(self, q):
        """Moves the cable frames' bases on to the coordinates q (n_coordinates,) at rest as
        an output before the next moves them (:meth:`_cable_bases`; at a time before any:
        the next :meth:`observe` at any t carries them on): statics calls it at every load
        step's equilibrium, so that its output's frames are carried from load step to load
        step as a run's from output to output, not turned from the reference where a
        tangent has turned past 120 degrees from it."""
        if not self.n_cable_nodes:
            return
        q = np.asarray(q, dtype=float)
        self.start_cable_frames(self._cable_bases(q[None])[0], q)

    def start_cable_frames(self, bases, q):
        """Starts the cable frames of the next output from ``bases`` (n_c, 3, 3; a
        :class:`rancf.State`'s, the bases of an earlier run's output at that state; None: the
        reference frames) at the coordinates q (n_coordinates,), as an output before it at
        a time before any (:meth:`_cable_bases`), so that a run from a State draws the frames
        the run it was taken from would have drawn."""
        if not self.n_cable_nodes:
            return
        if bases is None:
            self._cable_last = None
            return
        q = np.asarray(q, dtype=float)
        bases = np.ascontiguousarray(bases, dtype=float)
        poses = self.cable_poses(q, np.zeros_like(q), bases)[0]
        self._cable_last = (-np.inf, bases, poses[:, 3:].reshape(-1, 3, 3).copy())

    def energy(self, q, v):
        """``{"kinetic", "gravity", "elastic"}`` (J) at (q, v): the bodies', and the cables'
        ``v^T M v / 2`` (consistent mass), ``-F_G . x`` (gravity, constant
        :func:`rancf.elements.ancf_cable.gravity_force`) and strain energy (the kernel); the
        spring-dampers' potentials join ``elastic`` (:meth:`_spring_terms`)."""
        out = self._energies(np.asarray(q, dtype=float)[None], np.asarray(v, dtype=float)[None])
        return {name: float(value[0]) for name, value in out.items()}

    def _energies(self, Q, V, branches=None):
        """:meth:`energy` of the states (Q, V) (S, n), each (S,), the joint springs' on the
        reference angles of ``branches`` (:meth:`_on_branches`)."""
        tree = self.tree
        r, A = self.poses(Q)
        B = self.velocities(Q, V)
        wb = np.einsum("snji,snj->sni", A, B[..., 3:])
        kinetic = 0.5 * (np.einsum("sni,sni->sn", B[..., :3], B[..., :3]) @ tree.mass
                         + np.einsum("sni,nij,snj->s", wb, tree.inertia, wb))
        gravity = -((r @ tree.gravity) @ tree.mass)
        elastic = np.empty(len(Q))
        self._element_kernel.energy(np.ascontiguousarray(Q), elastic)
        if self.n_cable_nodes:
            xc, vc = Q[:, self._c0:], V[:, self._c0:]
            kinetic = kinetic + 0.5 * np.einsum("si,si->s", vc, (self._cable_mass @ vc.T).T)
            gravity = gravity - xc @ self._cable_gravity
            elastic = elastic + np.array([self._cable_elements(q, v)[1].sum()
                                          for q, v in zip(Q, V)])
        if len(self._springs["law"]) or len(self._joint_springs["law"]) or self._arc_springs.n:
            elastic = elastic + np.array([self._spring_terms(q, v)[0]
                                          for q, v in self._on_branches(Q, V, branches)])
        return {"kinetic": kinetic, "gravity": gravity, "elastic": elastic}

    def _spring_terms(self, q, v):
        """The spring-dampers' potential (J) and dissipated power (W): ``k (l - l0)^2 / 2`` and
        ``c l'^2`` between points, ``k (q - q0)^2 / 2`` and ``c q'^2`` on joints."""
        U = P = 0.0
        if self._arc_springs.n:
            U, P = self._arc_springs.terms(np.ascontiguousarray(q, dtype=float),
                                           np.ascontiguousarray(v, dtype=float))
        if len(self._springs["law"]):
            _, u, p = self._point_springs(*self._item_states(q, v, self._springs), self._springs)
            U, P = U + float(u.sum()), P + float(p.sum())
        d = self._joint_springs
        if len(d["law"]):
            jq, jqd, _ = self._joint_spring_values(*self._item_states(q, v, d), d)
            U += float(0.5 * d["law"][:, 0] @ (jq - d["law"][:, 2]) ** 2)
            P += float(d["law"][:, 1] @ jqd ** 2)
        return U, P


class SpatialFrames:
    """The outputs of a spatial DAE run at its stored frames but the reactions (``nodes``,
    ``velocities``, ``joint_q``, ``joint_qd`` and the energies: :meth:`SpatialDAE._frames`),
    computed when called: the Result calls it when one of them is first read (a stored frame
    holds the state, so a run's time is its steps'; developer: Results, files and sweeps).

    Parameters
    ----------
    dae : SpatialDAE
        The run's formulation.
    t : ndarray (n_out,)
        The frames' times (s).
    X, V : ndarray (n_out, n)
        Their coordinates and velocities.
    last : tuple or None
        The time and joint coordinates the first frame's angles continue (the formulation's
        last observed output when the run ended), or None.
    branches : ndarray (n_out, n_branch)
        Their reference angles (the joint springs' energies: :meth:`SpatialDAE._on_branches`).
    cable_bases : callable or None
        Returns the bases (n_out, n_c, 3, 3) of their cable frames, those of the run (moved on
        from its start's, :meth:`SpatialDAE._cable_bases`); None: no cables.
    """

    def __init__(self, dae, t, X, V, last, branches, cable_bases=None):
        self.dae, self.t, self.X, self.V, self.last = dae, t, X, V, last
        self.branches, self.cable_bases = branches, cable_bases

    def __call__(self):
        bases = None if self.cable_bases is None else self.cable_bases()
        return self.dae._frames(self.t, self.X, self.V,
                                *self.dae._joint_coordinates_many(self.X, self.V, bases),
                                self.last, self.branches, bases)


class SpatialReactions:
    """The joints' reactions (n_out, 6 n_joints) of a spatial DAE run at its stored frames,
    computed when called: ``Result.reactions`` calls it when first read (a stored frame
    holds the state; developer: Results, files and sweeps), as the planar
    :class:`rancf.formulations.dae.HeldReactions`.

    Each frame's are :meth:`SpatialDAE.reactions` of the state's own multipliers
    (:meth:`SpatialDAE.multipliers`: the scheme's are not the state's for Newmark and
    generalized-alpha-S). Cost per output: one sparse LU of the saddle-point matrix
    ``[[M, Phi_x^T], [Phi_x, 0]]`` and the acceleration bias, about what a Newton matrix of
    the run costs.

    Parameters
    ----------
    dae : SpatialDAE
        The run's formulation (its model's inputs: drives and loads at each frame's time).
    t : ndarray (n_out,)
        The frames' times (s).
    X, V : ndarray (n_out, n)
        Their coordinates and velocities.
    branches : ndarray (n_out, n_branch)
        Their reference angles (the joint springs' and effort functions' angles continue
        from them: :meth:`SpatialDAE._on_branches`).
    recorded : rancf.formulations.inputs.Recorded or None
        The values of the model's input functions at the frames, kept by the run's loop and
        played back in their place (None: it has none).
    """

    def __init__(self, dae, t, X, V, branches, recorded=None):
        self.dae, self.t, self.X, self.V, self.branches = dae, t, X, V, branches
        self.recorded = recorded

    def __call__(self):
        dae = self.dae
        played = contextlib.nullcontext() if self.recorded is None else \
            _functions_replaced(dae, self.recorded.played)
        with played:
            return np.array([dae.reactions(x, dae.multipliers(x, v, t)[1], t).ravel()
                             for (x, v), t in zip(dae._on_branches(self.X, self.V,
                                                                   self.branches), self.t)]
                            ).reshape(len(self.t), -1)


def _input_functions(dae):
    """Where a spatial DAE keeps its model's input functions: ``(list, index, position)`` of
    each (the inputs' functions of t and effort functions, the drives and efforts of the
    joints that close loops), the function ``list[index][position]``."""
    return [(entries, i, at)
            for entries, at in ((dae.inputs.timed, 1), (dae.inputs.effort_functions, 2),
                                (dae._loop_drives, 1), (dae._loop_efforts, 2))
            for i, entry in enumerate(entries) if callable(entry[at])]


@contextlib.contextmanager
def _functions_replaced(dae, make):
    """The DAE's input functions (:func:`_input_functions`) replaced by ``make(n, f)`` (n the
    function's number) inside the block, restored after; the values its inputs hold cleared
    before and after (the compiled problem calls them once a new time: ``inputs.t``)."""
    slots = _input_functions(dae)
    old = [entries[i] for entries, i, _ in slots]
    try:
        for n, (entries, i, at) in enumerate(slots):
            entry = entries[i]
            entries[i] = entry[:at] + (make(n, entry[at]),) + entry[at + 1:]
        dae.inputs.t = np.nan
        yield
    finally:
        for (entries, i, _), entry in zip(slots, old):
            entries[i] = entry
        dae.inputs.t = np.nan


def _continued(t, JQ, angles, last):
    """The angle columns ``angles`` of the joint coordinates JQ (S, n_c) at the times t (S,)
    continued in place: each output's angle ``prev + wrap(angle - prev)`` of the previous
    output's ``prev`` where its time is later (the angle nearest it), the first's of ``last`` (a
    time and its joint coordinates, or None: no continuation). Vectorized: an output's
    angle is its own plus whole turns ``2 pi m_k``, with ``m_k = m_(k-1) - floor((d_k + pi) /
    (2 pi))`` for its raw step ``d_k`` from the previous output, restarting at 0 where the
    time does not advance."""
    if not len(angles) or not len(t):
        return
    raw = JQ[:, angles]
    prev = np.empty_like(raw)
    prev[1:] = raw[:-1]
    later = np.empty(len(t), dtype=bool)
    later[1:] = t[1:] > t[:-1]
    later[0] = last is not None and t[0] > last[0]
    prev[0] = last[1][angles] if later[0] else raw[0]
    step = np.where(later[:, None], whole_turns(raw - prev), 0.0)
    # the first output's turns are measured from last's continued angles, not its raw ones
    turns = np.cumsum(-step, axis=0)
    restart = np.maximum.accumulate(np.where(later, 0, np.arange(len(t))))
    turns -= np.where((restart > 0)[:, None], turns[restart], 0.0)
    JQ[:, angles] = raw + 2 * np.pi * turns


def _logs(R):
    """Rotation vectors (S, 3) of rotations R (S, 3, 3) (angles at most pi)."""
    out = np.empty(R.shape[:1] + (3,))
    _spatial_dae.rotation_logs(np.ascontiguousarray(R, dtype=float), out)
    return out


def _angle_columns(links):
    """Boolean mask of the angle coordinates (revolute, the cylindrical's second, universal)
    among the links' coordinates concatenated (their kinds' ``link_coordinates`` order)."""
    out = []
    for lk in links:
        angles = lk.spatial.angles
        out += [k in angles for k in range(lk.spatial.n_coordinates)]
    return np.array(out, dtype=bool)


def _structure(rows, cols, n_rows, n_cols):
    """The compressed structure of the entries (rows, cols) of an (n_rows, n_cols) matrix,
    duplicates summed: ``(index, indices, indptr, nnz)`` with ``index`` the position of each
    entry in the data (``np.bincount(index, values, nnz)`` sums the values in place), rows
    compressed (CSR; pass columns and rows swapped for CSC)."""
    uniq, index = np.unique(rows * n_cols + cols, return_inverse=True)
    indices = (uniq % n_cols).astype(np.int32)
    indptr = np.searchsorted(uniq // n_cols, np.arange(n_rows + 1)).astype(np.int32)
    return index.ravel(), indices, indptr, uniq.size

