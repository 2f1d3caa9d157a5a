"""Implicit steps and statics of a spatial tree as a compiled
:class:`~rancf.formulations._problem.StepProblem` (theory: Implicit steps and statics of
spatial trees).

Coordinates: the free link coordinates q of :mod:`rancf.formulations.spatial` (n = n_free, no
constraints, m = 0); the loop's unknown is their acceleration a. The motion is
``M(q) a = F(q, v, t)`` with ``M = B^T M_b B`` (``M_b`` the bodies' masses and rotational
inertias about their origins) and ``F = B^T (f - M_b c) + tau`` (f: gravity, gyroscopic
moments, loads; c: the bias accelerations; tau: joint efforts and the elements' elastic and
damping forces), all of :mod:`rancf.formulations._spatial`.

Residual, exact and O(n): ``c_m M a - c_f F`` by the Newton-Euler recursion
(``inverse_dynamics`` of the kernel): body accelerations ``A_i = X_i A_p + c_m H_i a_i +
c_f c_i`` (a_i: link i's part of a) root to leaves, link wrenches ``W_i = M_i A_i - c_f f_i +
sum X_c^T W_c`` leaves to root, ``r_i = H_i^T W_i - c_f tau_i``.

Newton matrix, approximate (theory: Implicit steps and statics of spatial trees): ::

    S = c_m B^T M_b B + c_c D + c_k K

with K and D block-diagonal in the element coordinates: an element link's 6 x 6 blocks are the
exact Hessian of its strain energy and its Kelvin-Voigt damping matrix ``c l B_e^T C B_e``
(``element_force``'s K and ``element_damping`` of rancf/elements/_spatial_beam.pyx), every
other link's zero. It is factored by the kernel's articulated-body elimination (``factor``)
with the joint blocks ``D_i = c_m H_i^T I^A_i H_i + c_c D_i,el + c_k K_i,el`` (the stiffness
enters like a motor's armature) and solved by its two sweeps (``sweeps``): O(n) for any tree.

Spring-dampers enter S with their stiffness and damping in what they act on, exactly but for
two terms named below. A joint spring-damper adds ``c_k k + c_c c`` to its link's joint block
(in E); on a spherical link the 3 x 3 block ``c_k d^2 U / dq^2 + c_c c J_l^T J_l``
(``ball_spring_block`` of rancf/formulations/_spatial.pyx: the spring's Hessian, the damper's
slope in the rates; its slope in q, zero at rest, left out as the elements'). One between
points has the point force ``f n`` on its first point, whose derivative in
the points' relative position ``delta`` (the second's less the first's) and velocity is
``K_s = c_k (k n n^T + f / l (I - n n^T)) + c_c c n n^T`` (3 x 3); with ``D_s`` the map of the
rates to that relative velocity its term is ``D_s^T K_s D_s``. To the ground, ``D_s = P J_b``
(``P = [I, -o^]`` for the point at o from its body's origin, J_b the body's Jacobian): the
6 x 6 block ``P^T K_s P`` joins the body's ``c_m M_b`` in the elimination (``body_blocks``),
O(n) and exact. Between two bodies the term couples them: it enters by the Woodbury identity
``S^-1 = S_0^-1 - Z (I + K D Z)^-1 K D S_0^-1``, ``Z = S_0^-1 D^T`` (3 columns a spring-damper,
computed when S is factored; each solve then costs one more pass of body velocities and a
solve of order 3 per spring-damper), as the planar recursion does. Left out: the damper's line
turning with the relative velocity (``c n (w - l' n)^T / l``, zero at rest; it would make K_s
unsymmetric) and the turning of a point's offset o with its body (the load stiffness of the
spring's force, as for loads below). A point spring-damper at a body's origin (a beam node, a
free body's centre) on links whose translation is linear in their coordinates (prismatic, a
free joint's translation) has neither: there S's spring terms are exact. Also left out, as
for loads: the turning of the spring's force through the tree, ``f n . d^2 x / dq^2`` with x
its point (a node's position turns with every parent's rotation): where a stiff spring pulls
a soft beam it is of the order of the spring's own term, and the iterates wander
(:meth:`SpatialProblem._turned_over` says so when one turns an element by half a turn). It is
not a body block: with S_i the motion subspaces (global twists) of the links on the path from
the root to the point's body and W the spring's wrench, its entry for links i and j has a part
``(S_j x S_i) . W`` only where j is i's ancestor, so the block couples every pair of links on
the path with the sign of their order, no congruence ``J_b^T B J_b`` of a 6 x 6 B that the
elimination could take as it takes the spring's own term; its products with a vector are
O(n), and the full tangent (:attr:`krylov`, GMRES) has it. Where a stiff spring makes the
step's equations curve too much in the relative coordinates, the full tangent fails as S does,
where the spatial DAE (absolute coordinates) runs. A joint spring-damper has no such term: its
force depends on its own coordinate only, so its term in S is exact.

An effort function ``e(t, q, qd)`` of a joint acts on its link's coordinates alone, like a joint
spring-damper: its generalized force is ``tau = T^T e`` (T the identity on a translation,
``J_l(q)`` on a rotation vector), and S takes ``-T^T (c_k de/dq + c_c de/dqd)`` (times the load
factor in statics) on the link's joint block, the slopes by central differences of the function
at Newton's q, qd and t (``Inputs.effort_slopes`` of rancf/formulations/spatial.py: four calls a
coordinate a factorization, outside the compiled elimination as the loop calls the inputs), its
symmetric part (the blocks are factored as symmetric ones; a follower torque's skew part stays
in the residual only). Left out: the turning of T (``dT^T/dq e``, zero at q = 0 or e = 0); in
statics' direct matrix (below) neither is: it takes the slope whole and that turning. A
model without effort functions passes none of this. Where T is the identity (one- and
two-coordinate joints) and de/dq symmetric, the term is exact but for the differences' error.

The turning of the link wrenches (:attr:`turning`, off by default: see below; in dynamics
only; ``_link_turning``): in
relative coordinates a link near the root carries the wrench of everything beyond it, so the
derivative of ``c_m M a - c_f F`` in q grows with the chain. Moving link j's coordinate turns
the bodies beyond it rigidly by the twist h (a column of H_j). Had the wrenches turned with
them, ``H_i^T W_i`` would not change; what changes it is (a) the part of the bodies' wrench
that does not turn: gravity and the inertia of the acceleration ``abar_j`` the link itself
gives them (its parent's and its own, less the velocity terms), ``-I_b (h x abar_j)`` on
every body b beyond j; (b) for a link i before j, the wrench ``W_j`` turned while H_i is not,
``h x* W_j``; (c) the link's own H turning with its own coordinates other than rigidly (the
rotation vectors' ``J_l``, a ball joint's or an element's; the joint point's translation).
(a) has the structure of the mass term, ``H_i^T I^c Y_j`` with ``Y_j = abar_j x h``, so it
joins it as ``B^T M_b B~``, B~ of the columns ``Z = H + Y / c_m``; (b) is a wrench ``u_j =
h x* W_j`` per unit of link j's acceleration added to its link wrench; (c) is local, a block
of E. The elimination then runs unchanged but unsymmetric (``factor`` of
rancf/formulations/_spatial.pyx with ``SpatialData.tangent``: LU joint blocks), O(n): one
more residual's work (forces and the Newton-Euler recursion at Newton's point) per
factorization. W and abar depend on the accelerations, so where they change fast the matrix
is only as good as the accelerations it is taken at. A step's first matrix takes those of the
last accepted step, not the start's: a start far from the solution (the last positions, whose
accelerations put the stiff modes at ``(q_n - q_pred) / (h^2 beta)``) would turn the matrix by
inertia forces the solution does not have (on the 10,000-element chain such starts made the
iterates diverge); the loop's first step, which has none, keeps the symmetric S. A matrix made
later within the step (the loop's renewal on slow contraction, its full-Newton retry) takes
the iterate's, which Newton has corrected (a whipping end's accelerations change too fast
from step to step for the last step's to serve). At zero rates the matrix is then the step
residual's exact derivative (tests/test_spatial_turning.py, against central differences); at
rates, its derivative through
q and a but for the velocity terms' own turning. It is off by default (below).
Left out of S (the residual keeps them all, so the step converges to the same solution):

- ``dF/dv`` but for the element damping: the gyroscopic and Coriolis terms (a contraction of
  ``h gamma |omega|``, whatever the chain's length);
- the loads' own turning (a fixed-direction force's, which a rigid turning does not give),
  the spring-dampers' wrenches in W;
- the derivative of the element damping force in the coordinates (``d(B_e^T C B_e ed)/de``)
  and of a rotation-vector effort's map ``J_l(q)^T`` (above);
- in statics (``c_m = 0``) none of the above (below).

With S itself as Newton's matrix (:meth:`solve` without :attr:`krylov`, the default in
dynamics) Newton converges linearly, at a rate of about the ratio of the dropped terms to the
kept ones: on stiff beams, whose elements' stiffness dominates the dropped terms, a few
iterations a step. The dropped load stiffness matters where it is of the order of the
elements' own: a slender beam whose tension gives it more lateral stiffness than its bending
stiffness (``T l^2 > E I`` per element: a soft pendulum, a cable) needs smaller steps, and in
statics a large fixed-direction force or moment that bends a beam out of its plane makes the
plain iteration diverge at any number of load steps (the 45-degree bend of Bathe and
Bolourchi, which tests/test_spatial_bend.py solves), which is why statics takes the full tangent
below.

On a long chain a step takes more iterations, for two reasons that grow with its length L.
In relative coordinates a link near the root carries everything beyond it, so the residual's
curvature grows like L: what one exact Newton step leaves is quadratic in the start's miss and
grows with L, so on chains of thousands of elements the tolerance takes a third iteration
whatever the matrix (curvature, not conditioning: it stays far above the residual's rounding).
And without the turning S drops the turning of the inertia forces and of gravity, each of a
contraction growing like L^2 and nearly cancelling on a chain falling freely away from its
root, but not quite: their sum grows with the chain on a pair of modes of the root's ball
joint and first elements, which the turning brings down by orders of magnitude. With the
matrix kept across steps (the default) the turning still does not pay: it costs one more
residual a factorization and its matrix ages faster, as the accelerations it is taken at
change, so that it saves no iteration on long chains, in their plane or swung out of it
(where the links' rotations about the beam axis, of tiny inertia, are excited); the loop's
switch to full Newton with the plain S is the cheaper remedy there
(rancf/integrators/_implicit.pyx; the measurements in validation/renewal_pay.py and the
commit bodies of the turning's port).
The implicit loop renews S only where a new one saves iterations
(rancf/integrators/_implicit.pyx). The measurements are in the ``scaling`` case of the report.

Where a step does not resolve a stiff mode at a beam's root (a stiff ball spring acting on the
root node's own tiny rotary inertia), no Newton matrix helps: the mode swings the root node by
a finite angle every step, with accelerations that cancel between the joint and the first
element's relative rotation, and in the relative coordinates the step's equations curve over
that swing (the first element's relative translation, for one, turns along a circle against
its axial stiffness), so that Newton with their exact derivative, the turning included, fails
as with S from every start the loop has, where the spatial DAE in absolute coordinates runs
(tests/test_spatial_ball_spring.py, open). So the loop's first step keeps S there too: the
turning would converge that step where S does not, but not the next. The DAE is the remedy
there (a step of half the size fails alike).

Newton with the full tangent (:attr:`krylov`: statics where its direct matrix, below, misses
terms): :meth:`solve` finds the
step ``J y = x`` with J the Jacobian of the step residual itself, every term above included,
by restarted GMRES (Saad, Iterative Methods for Sparse Linear Systems, 6.5; ``RESTART`` = 25
vectors a cycle, at most ``CYCLES`` = 8 cycles, until the linear residual is below
``KRYLOV_TOL`` = 1e-8 of x's, 2-norms), right-preconditioned by S (``J S^-1 u = x``, ``y =
S^-1 u``: the O(n) sweeps), from y = 0. J is never formed: its product with a vector z is the
difference quotient of fourth order of the residual along the direction the loop's unknown
moves its q, v and a (:meth:`_jacobian_action`), at the point of the loop's last residual
evaluation (the loop evaluates the residual at its iterate right before it solves), with the
coordinates moved by ``h = 1e-6 (1 + max |q|)`` (error of order ``h^4``; round-off of order
1e-16 of the forces over h). Newton then converges quadratically (the ``spatial`` case of the
report lists the bend's iterations per load step). Not the central difference: its error,
``h^2 / 6`` of the residual's third derivative, is a false tension ``EA h^2 / 2`` along a
cable's rigid turn (its stretch ``|r'| - 1`` is quadratic in the turn, its force cubic), 0.2
N at EA 1e11 N and h 2e-6 m, twice the weight of a 1 m cable of 0.01 kg/m: a stiffness
along the swing that the swing does not have, which the damped steps of statics then stall
on (tests/test_review9_findings.py, the light stiff cable on a ball joint). In statics (``c_m = c_c =
0``) the preconditioner is statics' matrix below (:attr:`static_turning`), the residual's
whole derivative but for cables (there it runs only where forced: ``exact_static`` off); with
cables, S,
the stiffness of the elements, spring-dampers and effort functions alone: a mechanism (a
joint that nothing holds, a free body) makes a joint block singular, which fails with a
message naming the body.
A product costs four residuals and an iteration of GMRES also one sweep pair of S, so an
iteration costs about 4 k + 1 residual evaluations for k products, O(n) each (plus O(k n) for
the Gram-Schmidt orthogonalisation): in dynamics, where S already converges in a few
iterations a step, GMRES saves no iteration and its products make each iteration dearer, so
it is off there, though it cuts the iterations a step where the dropped terms are of the
elements' order (the soft pendulum above).

Statics (``static=True``, :func:`rancf.integrators.static.static`): drives are held at their
value at t (their rates and accelerations taken as zero), and the applied forces (gravity,
loads, efforts) are scaled by ``load_factor``; the elements' forces are not.

Statics' direct Newton matrix (:attr:`exact_static`): at rest and without inertia the
residual is ``H_i^T W_i - tau_i`` with W_i the wrench of the applied loads beyond link i, and
its derivative in q has, beside the elements' and springs' blocks of S and the efforts'
(their slope whole and the turning of a rotation vector's map: :meth:`_efforts`), the
turning of the link wrenches of :meth:`_link_turning` at zero accelerations (``Z = H``: no
inertia to turn, terms (b) and (c)) and the part of the applied wrenches' change that the
rigid turning ``h x* f`` does not give: a force of fixed direction (gravity, a
non-follower load, a spring-damper's force, whose change with its points' positions is S's
spring term) turned with its point, a moment of fixed direction not turned at all
(:meth:`_load_blocks`: ``-s B_b``, an unsymmetric 6 x 6 block per body congruent with the
twists as the mass is, which the elimination takes in its place; a follower load turns
rigidly and needs none). With them the matrix is the static residual's whole derivative
(tests/test_spatial_static_tangent.py, against central differences, every joint kind but the
cylindrical, whose sliding only a spring-damper between points holds; effort functions but
for their slopes' differences), factored once an iteration by the unsymmetric elimination
(LU joint blocks), O(n), and solved directly: no GMRES. ``exact_static`` is set where nothing
the matrix leaves out is in the model: no cables (with them statics runs GMRES preconditioned
by S); drives are held, their links' coordinates are not unknowns. (The turning of a
spring's force through the tree, which S leaves out above, is here the link wrenches'
turning, the spring's wrench in W, and its body blocks.)

Loads between two nodes in statics' matrix (:meth:`_arc_blocks`): a load at the point xi of
the element between nodes a and b acts by the wrenches ``(W_a, W_b)`` on both that do its
virtual work (``arc_wrenches`` of rancf/formulations/_spatial_arc.pxd), functions of both
nodes' poses: the point moves with both nodes' coordinates, and the change of its force's
wrenches is no body block. Their derivative in the nodes' twists, less each node's rigid
turning ``h x* W`` that the link wrenches' turning takes, is a 12 x 12 block B
(:func:`_arc_derivative`: differences of fourth order of ``arc_wrenches`` in the two poses,
to 1e-13 of the wrenches: the derivative to the digits they have; O(1) a load). One node,
p, is the other's, c's, parent (the element is c's link: the second node's, or the first's
where the tree runs from the beam's end), so ``h_c = X h_p + H_c dq_c`` (X the motion
transform from p to c, H_c the element link's motion subspace, dq_c its coordinates) and, with
``h_p = X^-1 (h_c - H_c dq_c)`` and ``T = X^-T``, the loads' part ``J_p^T dW_p + J_c^T dW_c``
of the derivative (J the bodies' Jacobians) is ::

    J_c^T (T dW_p + dW_c) - P_c^T H_c^T T dW_p          (P_c: link c's coordinates)

which B splits into four terms on c alone (:meth:`_pair_terms`): a 6 x 6 body block
(``J_c^T . J_c``, the mass's place), a column term on link c (``J_c^T . dq_c``: a wrench per
unit of its coordinates, the u of the link wrenches' turning), a block of its joint block E,
and a row term ``R_c`` (n_c x 6: ``P_c^T R_c J_c``, link c's coordinates against c's twist).
The row term is the one new kind: from one side it couples link c with every link before it
(``R_c X_cj H_j`` for a link j on c's path), as no congruence does. It enters link c's own
equation only, not the wrench c passes to its parent, so the elimination takes it there:
``W = D^-1 (H^T I^A + R)``, ``D = H^T U + R H + E`` (``factor`` of
rancf/formulations/_spatial.pyx with ``SpatialData.rows``), the sweeps unchanged: still O(n),
O(1) more a load. A spring-damper's force at such a point is a force of fixed direction there
(its change with the points' positions is Woodbury's ``D^T K_s D``, whose D has the point's
motion from both nodes): the same terms. So the matrix is the static residual's whole
derivative with loads and spring-dampers between two nodes, follower or not, and statics
solves directly (tests/test_spatial_static_tangent.py). The bend at 64 elements with its tip
force at the middle of its last element, 10 load steps: 39 iterations (4 a step, as with the
force on the tip node) and no GMRES product, where GMRES preconditioned by the matrix without
these terms made 138 products; its load steps 39 -> 15 ms (medians of 9 interleaved runs, a
loaded machine), about 1.1 times the tip node's (the differences, 48 evaluations of
``arc_wrenches`` a factorization).

Two workspaces: the residual's (the kernel's own, also used by :meth:`observe` and by GMRES's
differences) and Newton's (its kinematics, articulated inertias and factors, kept across
iterations and steps while the loop reuses the matrix); both share the kernel's constants and
inputs. In statics the loop makes the matrix at the point of the residual it evaluated right
before (full Newton: every iteration), so the residual's kinematics, link wrenches and
elements' Hessians (evaluated with its element forces, ``SpatialData.element_K``) are the
matrix's, copied rather than evaluated again (``factor``'s ``at_residual``). GMRES's vectors
(n x 26, made when :attr:`krylov` is set) are the problem's own.
"""
cimport numpy as cnp
from libc.math cimport M_PI, fabs, hypot, sqrt
from libc.string cimport memcmp, memcpy, memset

import numpy as np

from rancf.elements._rotation cimport (cross, dot, expm, left_jacobian, left_jacobian_gradient,
                                       left_jacobian_inverse, left_jacobian_rate, matmul,
                                       matvec)
from rancf.elements._ancf_cable cimport (CABLE_ELEMENT, CABLE_ELEMENT_BLOCK, CABLE_NODE,
                                         cable_stiffness_damping)
from rancf.elements._spatial_beam cimport (SPATIAL_BLOCK, SPATIAL_NODE, element_damping,
                                           element_force)
from rancf.formulations._problem cimport StepProblem
from rancf.formulations._spatial_arc cimport arc_wrenches
from rancf.formulations._spatial cimport (SpatialData, SpatialKernel, ball_spring_block,
                                          cable_rest, factor as factorize, forces,
                                          inverse_dynamics,
                                          kinematics, load_vectors, rotated_inertias, spring_forces,
                                          spring_line, spring_point, spring_velocity,
                                          spring_wrenches, sweeps)
from rancf.formulations._spatial_energy cimport applied_power, drive_power
from rancf.joints._codes cimport (M_ELEMENT, M_FREE, M_SPHERICAL, M_UNIVERSAL,
                                  MOTION_ELEMENT, R_VECTOR, motion_rotation,
                                  motion_translation, translation_size)
from rancf.formulations._forces import checked
from rancf.formulations.link_words import link_words
from rancf.utilities.workspace import arena

cnp.import_array()

#: The kernel's per-body and per-coordinate work arrays Newton's workspace has its own of
#: (sizes per body, per coordinate).
_NEWTON_ARRAYS = dict(r=(3, 0), A=(9, 0), V=(SPATIAL_NODE, 0), acc=(SPATIAL_NODE, 0),
                      c=(SPATIAL_NODE, 0), d=(3, 0), H=(SPATIAL_BLOCK, 0),
                      Jr=(3 * SPATIAL_NODE, 0), Ig=(9, 0), f=(SPATIAL_NODE, 0),
                      IA=(SPATIAL_BLOCK, 0), pA=(SPATIAL_NODE, 0), W=(SPATIAL_BLOCK, 0),
                      U=(SPATIAL_BLOCK, 0), L=(SPATIAL_BLOCK, 0), z=(SPATIAL_NODE, 0), q=(0, 1),
                      qd=(0, 1), qdd=(0, 1), tau=(0, 1), ce=(CABLE_NODE, 0), cs=(3, 0))

#: GMRES of the step's Newton equation (module docstring): Krylov vectors per cycle, cycles, the
#: linear residual sought relative to the right-hand side's (2-norms), and the finite-difference
#: step in the coordinates relative to ``1 + max |q|`` (of the stencil of
#: :meth:`SpatialProblem._jacobian_action`, :data:`_SHIFT` and :data:`_WEIGHT` below).
cdef int RESTART = 25
cdef int CYCLES = 8
cdef double KRYLOV_TOL = 1e-8
cdef double DIFFERENCE_STEP = 1e-6
#: The step of :func:`_arc_derivative`'s differences: rad in a node's rotation, times the
#: element's chord in its translation.
cdef double ARC_STEP = 1e-3
#: Its stencil's shifts (times the step) and weights (over 12 steps), which
#: :meth:`SpatialProblem._jacobian_action`'s differences share, and the size of the two nodes'
#: twists it differentiates in.
cdef int STENCIL = 4
cdef double[4] _SHIFT = [1.0, -1.0, 2.0, -2.0]
cdef double[4] _WEIGHT = [8.0, -8.0, -1.0, 1.0]
cdef int PAIR = 2 * SPATIAL_NODE
cdef double[9] _EYE = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]


cdef inline void _skew(const double* a, double* X) noexcept nogil:
    """X (3 x 3, row-major) <- a^, the cross-product matrix: ``a^ b = a x b``."""
    X[0], X[1], X[2] = 0.0, -a[2], a[1]
    X[3], X[4], X[5] = a[2], 0.0, -a[0]
    X[6], X[7], X[8] = -a[1], a[0], 0.0


cdef inline void _force_block(const double* F, const double* g, double* B) noexcept nogil:
    """B (6 x 6, row-major) += ``[[0, F^], [0, g^ F^]]``: a force F of fixed direction at the
    point g from a body's origin, not turned by the body's twist (SpatialProblem._load_blocks)."""
    cdef double Fx[9]
    cdef double gx[9]
    cdef int r, c
    _skew(F, Fx)
    _skew(g, gx)
    for r in range(3):
        for c in range(3):
            B[SPATIAL_NODE * r + 3 + c] += Fx[3 * r + c]
            B[SPATIAL_NODE * (3 + r) + 3 + c] += (
                gx[3 * r] * Fx[c] + gx[3 * r + 1] * Fx[3 + c] + gx[3 * r + 2] * Fx[6 + c])


cdef void _arc_derivative(const SpatialData* d, int a, int b, double xi, const double* F,
                          const double* M, bint follower, double* B) noexcept nogil:
    """B (PAIR x PAIR: 12 x 12, row-major) <- the derivative of the wrenches ``(Wa, Wb)`` on the
    nodes a, b that do the virtual work of the force F and moment M at the point xi of their
    element (``arc_wrenches`` of rancf/formulations/_spatial_arc.pxd, at the last kinematics)
    in the nodes' twists ``(h_a, h_b)`` (``h = (v, w)``: origin moved by v, frame turned by
    ``exp(w^)``, global), less the rigid turning of each node's own wrench, ``(w x F_e, w x
    N_e)`` (the part :meth:`SpatialProblem._link_turning` takes; N_e is about the node's
    origin, which moves with it: the ``v x F_e`` of ``h x* W`` is the moment's change about a
    fixed point).

    By differences of fourth order, ``(8 (W(s) - W(-s)) - (W(2 s) - W(-2 s))) / (12 s)``, at
    ``s = ARC_STEP`` (rad; times the chord ``|r_b - r_a|`` in a translation): the truncation
    is ``s^4 / 30`` of the wrenches' fifth derivative, 1e-13 of them, and the round-off
    1e-16 / s, 1e-13: the derivative to the digits the forces have. 48 evaluations of
    ``arc_wrenches`` a point, O(1)."""
    cdef double r[2 * 3]
    cdef double A[2 * 9]
    cdef double W[2 * SPATIAL_NODE]
    cdef double Q[9]
    cdef double w[3]
    cdef double x[3]
    cdef double chord = 0.0, step, weight, t
    cdef int col, e, k, m, i
    cdef const double* base
    for k in range(3):
        t = d.r[3 * b + k] - d.r[3 * a + k]
        chord += t * t
    chord = sqrt(chord)
    memset(B, 0, PAIR * PAIR * sizeof(double))
    for col in range(PAIR):
        e, k = col // SPATIAL_NODE, col % SPATIAL_NODE
        step = ARC_STEP * (chord if k < 3 else 1.0)
        for m in range(STENCIL):
            memcpy(r, d.r + 3 * a, 3 * sizeof(double))
            memcpy(r + 3, d.r + 3 * b, 3 * sizeof(double))
            memcpy(A, d.A + 9 * a, 9 * sizeof(double))
            memcpy(A + 9, d.A + 9 * b, 9 * sizeof(double))
            if k < 3:
                r[3 * e + k] += _SHIFT[m] * step
            else:
                w[0] = w[1] = w[2] = 0.0
                w[k - 3] = _SHIFT[m] * step
                expm(w, Q)
                base = d.A + 9 * (b if e else a)
                matmul(Q, base, A + 9 * e)
            arc_wrenches(r, A, r + 3, A + 9, xi, F, M, follower, W, W + SPATIAL_NODE)
            weight = _WEIGHT[m] / (12.0 * step)
            for i in range(PAIR):
                B[PAIR * i + col] += weight * W[i]
    # the rigid turning of each node's own wrench, at the nodes' poses
    arc_wrenches(d.r + 3 * a, d.A + 9 * a, d.r + 3 * b, d.A + 9 * b, xi, F, M, follower, W,
                 W + SPATIAL_NODE)
    for e in range(2):
        for k in range(3):
            w[0] = w[1] = w[2] = 0.0
            w[k] = 1.0
            col = SPATIAL_NODE * e + 3 + k
            cross(w, W + SPATIAL_NODE * e, x)
            for i in range(3):
                B[PAIR * (SPATIAL_NODE * e + i) + col] -= x[i]
            cross(w, W + SPATIAL_NODE * e + 3, x)
            for i in range(3):
                B[PAIR * (SPATIAL_NODE * e + 3 + i) + col] -= x[i]


cdef inline void _mul6(const double* X, const double* Y, double* out) noexcept nogil:
    """out (6 x 6) <- X Y, all row-major 6 x 6."""
    cdef double t
    cdef int r, c, k
    for r in range(SPATIAL_NODE):
        for c in range(SPATIAL_NODE):
            t = 0.0
            for k in range(SPATIAL_NODE):
                t += X[SPATIAL_NODE * r + k] * Y[SPATIAL_NODE * k + c]
            out[SPATIAL_NODE * r + c] = t


cdef inline double _dot(const double* x, const double* y, int n) noexcept nogil:
    cdef double s = 0.0
    cdef int i
    for i in range(n):
        s += x[i] * y[i]
    return s


cdef inline double _amax(const double* x, int n) noexcept nogil:
    cdef double m = 0.0
    cdef int i
    for i in range(n):
        if fabs(x[i]) > m:
            m = fabs(x[i])
    return m


cdef int _arnoldi(double* V, double* H, double* cs, double* sn, double* g, int j, int n,
                  int restart) noexcept nogil:
    """One Arnoldi step of GMRES (Saad, Iterative Methods for Sparse Linear Systems, 6.5):
    ``V[j + 1]`` (n per vector) holds ``w = A V[j]`` on entry; it is orthogonalized against
    ``V[0..j]`` by modified Gram-Schmidt into column j of the Hessenberg matrix H ((restart + 1)
    x restart, row-major), normalized, and column j is reduced by the Givens rotations (cs, sn)
    of the earlier columns and a new one, which also turns the right-hand side g. Returns 1 on
    a breakdown (the Krylov space is invariant: the solution is in it)."""
    cdef double* w = V + (j + 1) * n
    cdef double h, a, b, r
    cdef int i, k
    for i in range(j + 1):
        h = _dot(w, V + i * n, n)
        H[i * restart + j] = h
        for k in range(n):
            w[k] -= h * V[i * n + k]
    h = sqrt(_dot(w, w, n))
    H[(j + 1) * restart + j] = h
    if h > 0.0:
        for k in range(n):
            w[k] /= h
    for i in range(j):
        a, b = H[i * restart + j], H[(i + 1) * restart + j]
        H[i * restart + j] = cs[i] * a + sn[i] * b
        H[(i + 1) * restart + j] = -sn[i] * a + cs[i] * b
    a, b = H[j * restart + j], H[(j + 1) * restart + j]
    r = hypot(a, b)
    if r == 0.0:
        return 1
    cs[j], sn[j] = a / r, b / r
    H[j * restart + j] = r
    H[(j + 1) * restart + j] = 0.0
    g[j + 1] = -sn[j] * g[j]
    g[j] = cs[j] * g[j]
    return 1 if h == 0.0 else 0


cdef void _combine(const double* V, const double* H, double* g, int k, int n, int restart,
                   double* u) noexcept nogil:
    """u (n) <- ``V[0..k-1] y`` with y the solution of the k x k upper-triangular
    ``H y = g`` (y overwrites g)."""
    cdef int i, l
    for i in range(k - 1, -1, -1):
        for l in range(i + 1, k):
            g[i] -= H[i * restart + l] * g[l]
        g[i] /= H[i * restart + i]
    memset(u, 0, n * sizeof(double))
    for l in range(k):
        for i in range(n):
            u[i] += g[l] * V[l * n + i]


cdef inline double* _ptr(dict a, str name):
    return <double*>cnp.PyArray_DATA(a[name])


cdef void _copy_kinematics(const SpatialData* d, SpatialData* nd) noexcept nogil:
    """Newton's workspace nd gets the kinematics of the residual's d at the same q and qd
    (what :func:`kinematics` and :func:`rotated_inertias` write: frames, origins, the joint
    offsets d, velocities, bias accelerations, motion subspaces H, the rotation vectors'
    Jacobians and the rotated inertias), where :meth:`SpatialProblem.factor` is at the
    residual's point in statics: copies cost a fraction of the kinematics' rotations and
    products, and give the same bits. Not for cables (their nodes' kinematics write more):
    statics' matrix with the turning, the only caller, has none."""
    cdef int n = d.n
    memcpy(nd.r, d.r, 3 * n * sizeof(double))
    memcpy(nd.A, d.A, 9 * n * sizeof(double))
    memcpy(nd.d, d.d, 3 * n * sizeof(double))
    memcpy(nd.V, d.V, SPATIAL_NODE * n * sizeof(double))
    memcpy(nd.c, d.c, SPATIAL_NODE * n * sizeof(double))
    memcpy(nd.H, d.H, SPATIAL_BLOCK * n * sizeof(double))
    memcpy(nd.Jr, d.Jr, 3 * SPATIAL_NODE * n * sizeof(double))
    memcpy(nd.Ig, d.Ig, 9 * n * sizeof(double))


cdef void _gather(SpatialData* d, const double* q, const double* v) noexcept nogil:
    """Every link coordinate and rate (``d.q``, ``d.qd``) from the loop's q, v (n_free; v
    NULL: zero rates) and the drives."""
    cdef int k, s
    for k in range(d.n_q):
        s = d.smap[k]
        if s >= 0:
            d.q[k] = q[s]
            d.qd[k] = v[s] if v != NULL else 0.0
        else:
            d.q[k] = d.drive[3 * k]
            d.qd[k] = d.drive[3 * k + 1]


cdef int _element_blocks(SpatialData* d, double c_k, double c_c, double* E,
                         double* scratch, const double* known=NULL) noexcept nogil:
    """E (36 per body, row-major) <- ``c_k K + c_c D`` of every element link at ``d.q``,
    ``d.qd`` (zero blocks elsewhere are never written); scratch holds a block and a node's
    force (SPATIAL_BLOCK + SPATIAL_NODE numbers). ``known``: the Hessians K at that very
    point, 36 per body (statics' residual's, ``SpatialData.element_K``), taken instead of
    evaluated again, or NULL. Returns 0, or body + 1 whose element rotation is out of its
    domain."""
    cdef double* K = scratch
    cdef double* f = scratch + SPATIAL_BLOCK
    cdef double* Ei
    cdef int i, k, b, off
    for i in range(d.n):
        if d.motion[i] != M_ELEMENT:
            continue
        b, off = d.element[i], d.q_offset[i]
        Ei = E + SPATIAL_BLOCK * i
        memset(Ei, 0, SPATIAL_BLOCK * sizeof(double))
        if c_k != 0.0 and known != NULL:
            for k in range(SPATIAL_BLOCK):
                Ei[k] = c_k * known[SPATIAL_BLOCK * i + k]
        elif c_k != 0.0:
            if element_force(d.anchor + 3 * i, d.relative + 9 * i, d.q + off, d.qd + off,
                             d.length[b], d.stiffness + SPATIAL_NODE * b,
                             d.strain0 + SPATIAL_NODE * b, d.damping[b], f, K, NULL, NULL):
                return i + 1
            for k in range(SPATIAL_BLOCK):
                Ei[k] = c_k * K[k]
        if c_c != 0.0 and d.damping[b] != 0.0:
            if element_damping(d.anchor + 3 * i, d.relative + 9 * i, d.q + off, d.length[b],
                               d.stiffness + SPATIAL_NODE * b, d.damping[b], K):
                return i + 1
            for k in range(SPATIAL_BLOCK):
                Ei[k] += c_c * K[k]
    return 0


cdef void _cable_blocks(SpatialData* d, double c_m, double c_k, double c_c,
                       double* out) noexcept nogil:
    """out (144 per cable element, parent side first: ``SpatialData.c_blocks``) <- ``c_m M +
    c_k K + c_c C`` of every cable element at ``d.ce`` (after :func:`kinematics`; C does not
    depend on the rates): its constant mass, the Hessian K of its strain energy and its damping
    matrix C (``cable_stiffness_damping`` of rancf/elements/_ancf_cable.pyx, one pass, relative
    to its rest state). The cable's coordinates
    are linear in its nodes', so its part of the Newton matrix is exact, coupling two nodes as
    the mass does (the elimination's ``_cable_eliminate``), but for the damping force's
    derivative in the coordinates, left out as for the beam elements (module docstring): it is
    not symmetric, and the elimination's blocks are factored as symmetric ones."""
    cdef double e[CABLE_ELEMENT]
    cdef double K[CABLE_ELEMENT_BLOCK]
    cdef double C[CABLE_ELEMENT_BLOCK]
    cdef double* B
    cdef const double* M
    cdef const double* rest
    cdef int el, a, b, i, j, fi, fj, flip
    for el in range(d.n_cable_elements):
        a, b = d.c_nodes[2 * el], d.c_nodes[2 * el + 1]
        memcpy(e, d.ce + CABLE_NODE * a, CABLE_NODE * sizeof(double))
        memcpy(e + CABLE_NODE, d.ce + CABLE_NODE * b, CABLE_NODE * sizeof(double))
        rest = cable_rest(d, el)
        cable_stiffness_damping(e, d.c_length[el], d.c_EA[el], d.c_EI[el], d.c_damping[el], rest,
                                K, C if d.c_damping[el] != 0.0 else NULL)
        B, M = out + CABLE_ELEMENT_BLOCK * el, d.c_mass + CABLE_ELEMENT_BLOCK * el
        flip = d.c_flip[el]
        for i in range(CABLE_ELEMENT):
            # the kernel's node order (A, B) to the parent side's first
            fi = (i + CABLE_NODE) % CABLE_ELEMENT if flip else i
            for j in range(CABLE_ELEMENT):
                fj = (j + CABLE_NODE) % CABLE_ELEMENT if flip else j
                B[CABLE_ELEMENT * i + j] = (c_m * M[CABLE_ELEMENT * i + j]
                                            + c_k * K[CABLE_ELEMENT * fi + fj])
                if d.c_damping[el] != 0.0:
                    B[CABLE_ELEMENT * i + j] += c_c * C[CABLE_ELEMENT * fi + fj]


cdef int _recentre(SpatialData* d, double* q, double* v, double* a) noexcept nogil:
    """Re-centre the rotation vector p of every spherical and free link with ``|p| > pi`` in
    the loop's q, v, a (n_free): ``p <- p (1 - 2 pi / |p|)`` (the same rotation), its rate and
    acceleration mapped so that the angular velocity ``w = J_l(p) p'`` and acceleration
    ``w' = J_l(p) p'' + J_l'(p, p') p'`` stay the same. Returns 1 if one changed."""
    cdef double J[9]
    cdef double Jd[9]
    cdef double w[3]
    cdef double wd[3]
    cdef double x[3]
    cdef double* p
    cdef double* pd
    cdef double* pdd
    cdef double s, r
    cdef int i, k, m, changed = 0
    for i in range(d.n):
        m = d.motion[i]
        if i >= d.nb or m == M_ELEMENT or motion_rotation(m) != R_VECTOR:
            continue
        # links of a rotation vector are never driven: their coordinates are the loop's
        k = d.smap[d.q_offset[i] + translation_size(motion_translation(m))]
        p, pd, pdd = q + k, v + k, a + k
        r = sqrt(dot(p, p))
        if r <= M_PI:
            continue
        left_jacobian(p, J)
        matvec(J, pd, w)
        matvec(J, pdd, wd)
        left_jacobian_rate(p, pd, Jd)
        matvec(Jd, pd, x)
        s = 1.0 - 2.0 * M_PI / r
        for k in range(3):
            wd[k] += x[k]
            p[k] *= s
        left_jacobian_inverse(p, J)
        matvec(J, w, pd)
        left_jacobian_rate(p, pd, Jd)
        matvec(Jd, pd, x)
        for k in range(3):
            wd[k] -= x[k]
        matvec(J, wd, pdd)
        changed = 1
    return changed



# --- spring-dampers in the Newton matrix (module docstring) ----------------------------------
cdef void _scale_loads(SpatialData* d, double lf) noexcept nogil:
    """Statics' load stepping: the applied wrenches (at rest: gravity and loads) and the joint
    efforts times the load factor lf, in place; the spring-dampers are not loads (never scaled)."""
    cdef int k, s
    for k in range(SPATIAL_NODE * d.n):
        d.f[k] *= lf
    for k in range(d.n):
        if d.motion[k] != M_ELEMENT:
            for s in range(d.q_offset[k], d.q_offset[k + 1]):
                d.tau[s] *= lf


cdef void _spring_tangent(const SpatialData* d, int s, double c_k, double c_c,
                          double* K) noexcept nogil:
    """K (3 x 3, row-major) <- ``c_k (k n n^T + f / l (I - n n^T)) + c_c c n n^T``: the
    derivative of spring-damper s's force ``f n`` on its first point in the points' relative
    position (weighted c_k) and velocity (c_c), after :func:`kinematics` (``spring_line``); the
    term ``c n (w - l' n)^T / l`` of the damper's line turning with the relative velocity w is
    left out (zero at rest; it would make K unsymmetric)."""
    cdef double n[3]
    cdef double l, ldot, f, axial, lateral
    cdef int a, b
    f = spring_line(d, s, n, &l, &ldot)
    axial = c_k * d.s_law[3 * s] + c_c * d.s_law[3 * s + 1]
    lateral = c_k * f / l if l > 0.0 else 0.0
    for a in range(3):
        for b in range(3):
            K[3 * a + b] = (axial - lateral) * n[a] * n[b] + (lateral if a == b else 0.0)


cdef void _body_block(const double* K, const double* o, double* B) noexcept nogil:
    """B (6 x 6, row-major) += ``P^T K P`` with ``P = [I, -o^]`` (a point at o from a body's
    origin moves at ``P V``): a spring-damper to the ground seen from its body."""
    cdef double Oh[9]
    cdef double KO[9]
    cdef double OK[9]
    cdef double s
    cdef int a, b, k
    Oh[0], Oh[1], Oh[2] = 0.0, -o[2], o[1]
    Oh[3], Oh[4], Oh[5] = o[2], 0.0, -o[0]
    Oh[6], Oh[7], Oh[8] = -o[1], o[0], 0.0
    for a in range(3):
        for b in range(3):
            KO[3 * a + b] = 0.0
            OK[3 * a + b] = 0.0
            for k in range(3):
                KO[3 * a + b] += K[3 * a + k] * Oh[3 * k + b]
                OK[3 * a + b] += Oh[3 * a + k] * K[3 * k + b]
    for a in range(3):
        for b in range(3):
            s = 0.0
            for k in range(3):
                s += OK[3 * a + k] * Oh[3 * k + b]
            B[SPATIAL_NODE * a + b] += K[3 * a + b]
            B[SPATIAL_NODE * a + 3 + b] -= KO[3 * a + b]
            B[SPATIAL_NODE * (3 + a) + b] += OK[3 * a + b]
            B[SPATIAL_NODE * (3 + a) + 3 + b] -= s


cdef inline int _unknowns(const SpatialData* d, int i) noexcept nogil:
    """The free coordinates of body i's link (none for a driven one)."""
    cdef int off = d.q_offset[i]
    if d.q_offset[i + 1] - off == 1 and d.smap[off] < 0:
        return 0
    return d.q_offset[i + 1] - off


cdef void _rate_motion(const SpatialData* d, const double* z, double* Vz) noexcept nogil:
    """Vz (6 per body) <- the bodies' velocities of the link rates z (n_q; a driven link's
    not read), ``Vz_i = X_i Vz_p + H_i z_i`` root to leaves, after :func:`kinematics`."""
    cdef double x[3]
    cdef const double* Vp
    cdef double* V
    cdef int i, p, r, j, off, n_i
    for i in range(d.n):
        p, off, n_i = d.parent[i], d.q_offset[i], _unknowns(d, i)
        V = Vz + SPATIAL_NODE * i
        if p >= 0:
            Vp = Vz + SPATIAL_NODE * p
            cross(Vp + 3, d.d + 3 * i, x)
            for r in range(3):
                V[r] = Vp[r] + x[r]
                V[3 + r] = Vp[3 + r]
        else:
            memset(V, 0, SPATIAL_NODE * sizeof(double))
        for r in range(SPATIAL_NODE):
            for j in range(n_i):
                V[r] += d.H[SPATIAL_BLOCK * i + SPATIAL_NODE * r + j] * z[off + j]


cdef void _spring_rate(const SpatialData* d, int s, const double* Vz, double* w) noexcept nogil:
    """w (3) <- ``D_s z``: the velocity of spring-damper s's second point less its first's
    under the body velocities Vz of the rates z (:func:`_rate_motion`)."""
    cdef double x[3]
    cdef double o[3]
    cdef double u[3]
    cdef int e, b, k
    memset(w, 0, 3 * sizeof(double))
    for e in range(2):
        b = d.s_body[2 * s + e]
        if b < 0:
            continue
        spring_point(d, s, e, x, o)
        spring_velocity(d, Vz, s, e, o, u)
        for k in range(3):
            w[k] += u[k] if e else -u[k]


cdef void _spring_transposed(const SpatialData* d, int s, const double* a, double* Wz,
                             double* out) noexcept nogil:
    """out (n_q) <- ``D_s^T a``: the generalized forces of the point forces ``a`` on spring-damper
    s's second point and ``-a`` on its first (a driven link's entry zero), by the link wrenches
    leaves to root (Wz: 6 per body, scratch)."""
    cdef double x[3]
    cdef double o[3]
    cdef double* W
    cdef double* Wp
    cdef int e, b, k, i, p, j, r, off, n_i
    memset(Wz, 0, SPATIAL_NODE * d.n * sizeof(double))
    for e in range(2):
        b = d.s_body[2 * s + e]
        if b < 0:
            continue
        spring_point(d, s, e, x, o)
        for k in range(3):
            x[k] = a[k] if e else -a[k]
        spring_wrenches(d, s, e, o, x, Wz)
    for i in range(d.n - 1, -1, -1):
        off, n_i, W = d.q_offset[i], _unknowns(d, i), Wz + SPATIAL_NODE * i
        for j in range(d.q_offset[i + 1] - off):
            out[off + j] = 0.0
            if j < n_i:
                for r in range(SPATIAL_NODE):
                    out[off + j] += d.H[SPATIAL_BLOCK * i + SPATIAL_NODE * r + j] * W[r]
        p = d.parent[i]
        if p < 0:
            continue
        Wp = Wz + SPATIAL_NODE * p
        cross(d.d + 3 * i, W, x)
        for k in range(3):
            Wp[k] += W[k]
            Wp[3 + k] += W[3 + k] + x[k]


cdef int _lu(double* M, int n, int* piv) noexcept nogil:
    """M (n x n, row-major) <- its LU factors with partial pivoting (piv: the rows' order);
    -1 if singular."""
    cdef int i, j, k, best
    cdef double t
    for k in range(n):
        best = k
        for i in range(k + 1, n):
            if fabs(M[n * i + k]) > fabs(M[n * best + k]):
                best = i
        piv[k] = best
        if M[n * best + k] == 0.0:
            return -1
        if best != k:
            for j in range(n):
                t = M[n * k + j]
                M[n * k + j] = M[n * best + j]
                M[n * best + j] = t
        for i in range(k + 1, n):
            M[n * i + k] /= M[n * k + k]
            for j in range(k + 1, n):
                M[n * i + j] -= M[n * i + k] * M[n * k + j]
    return 0


cdef void _lu_solve(const double* M, int n, const int* piv, double* x) noexcept nogil:
    """x <- M^-1 x with the factors of :func:`_lu`."""
    cdef int i, k
    cdef double t
    for k in range(n):
        if piv[k] != k:
            t = x[k]
            x[k] = x[piv[k]]
            x[piv[k]] = t
    for i in range(n):
        for k in range(i):
            x[i] -= M[n * i + k] * x[k]
    for i in range(n - 1, -1, -1):
        for k in range(i + 1, n):
            x[i] -= M[n * i + k] * x[k]
        x[i] /= M[n * i + i]



def _vector(name, x, n):
    """x (n,) checked (:func:`rancf.formulations._forces.checked`), copied into an array of at
    least one entry, so that ``&x[0]`` is valid where the model has no free coordinate (statics
    of a model whose every joint is driven or held)."""
    out = np.zeros(max(n, 1))
    out[:n] = checked(name, x, n)
    return out

cdef class SpatialProblem(StepProblem):
    """A spatial tree for the implicit loop and statics (module docstring).

    Parameters
    ----------
    owner : rancf.formulations.spatial.Spatial
        The formulation: its kernel evaluates the residuals, its ``observe`` the outputs.
    static : bool
        Statics (drives held, :attr:`load_factor` scales the applied forces).

    Attributes
    ----------
    load_factor : float
        The factor of gravity, loads and efforts (1; statics steps it).
    krylov : bool
        Newton's equation solved by GMRES on the step residual's Jacobian, preconditioned by
        the approximate matrix (module docstring); default: in statics.
    krylov_iterations : int
        Jacobian-vector products GMRES made so far.
    turning : bool
        The turning of the link wrenches in the Newton matrix (module docstring); default off.
    exact_static : bool
        In statics, the Newton matrix with the turning of the link wrenches and the loads'
        own turning, the residual's whole derivative, solved directly (module docstring,
        "Statics' direct Newton matrix"); set where the model holds nothing it leaves out.
    static_turning : bool
        In statics, that matrix made where :attr:`exact_static` is off as GMRES's
        preconditioner (set without cables; off: the elements' and springs' stiffness S).
    """

    formulation = "spatial"

    cdef SpatialKernel kernel
    cdef SpatialData* d          # the residual's workspace (the kernel's)
    cdef SpatialData nd          # Newton's: own kinematics and factors
    cdef readonly dict newton_arrays
    cdef readonly object owner
    cdef object inputs
    cdef bint timed, effort_timed
    cdef readonly bint static
    cdef public double load_factor
    cdef double last_t
    cdef double[::1] full_a, full_out, zero, E, scratch, power_out
    cdef double[::1] blocks, Z, Ks, small, Vz, Wz, ys  # spring-dampers (_spring_matrix)
    cdef double[::1] cable_blocks                       # _cable_blocks
    cdef double[::1] effort_slopes      # de/dq, de/dqd of each effort function (_efforts)
    cdef double[::1] effort_now         # e of each effort function at Newton's point (_slopes)
    cdef int[::1] effort_body
    cdef int n_efforts
    cdef double[::1] tangents                           # _link_turning: Z, u per body
    cdef double[::1] rows               # statics' row terms R per body (_arc_blocks)
    cdef bint arcs                      # loads or spring-dampers between two nodes
    cdef public bint turning
    cdef public bint exact_static       # statics' matrix is the residual's derivative (factor)
    cdef public bint static_turning     # statics' matrix has the turning (factor)
    cdef bint ground_blocks             # spring-dampers to the ground: body blocks
    cdef bint static_factored           # the last factor was statics' direct matrix
    cdef bint conservative              # of loads with a potential (_load_blocks)
    cdef double factored_load_factor    # at this load factor
    cdef double[::1] wrench_q, wrench_v     # the residual's last point in statics (_residual)
    cdef double wrench_lf, wrench_cf, wrench_t
    cdef bint wrench_valid, reuse_wrenches
    cdef double[::1] hessians   # the element Hessians of the residual's forces (_state)
    cdef bint hessians_valid    # evaluated with the residual workspace's last forces
    cdef int[::1] pairs, pivots
    cdef int n_pairs, woodbury
    cdef bint _krylov, exact
    cdef bint identity          # every coordinate free, in the state's order (smap[k] = k)
    cdef public long krylov_iterations
    cdef double c_m, c_k, c_c                   # the last factor's coefficients
    cdef double lin_t, lin_cm, lin_cf           # the last residual's time and coefficients
    cdef double[::1] lin_q, lin_v, lin_a, lin_r     # and its point and value
    cdef double[::1] kV, kH, kcs, ksn, kg, kb, ky, ku, kq, kv, ka, kr
    # the point of the last residual's kinematics and forces (_residual): (q, v, t, the load
    # factor), and whether it holds and had its forces evaluated
    cdef double[::1] kept_q, kept_v
    cdef double kept_t, kept_lf
    cdef bint kept, kept_forces, keep
    cdef list kept_rows     # the input values at the run's outputs (keep_inputs)
    cdef double[::1] accepted_q     # the last accepted state's q (_turned_over)
    cdef double[::1] accepted_a     # and its accelerations (recentre; factor's turning)
    cdef bint has_accel, at_iterate     # at_iterate: step_solve's turning at its own a
    cdef bint within_step       # a matrix made since the last accepted step (factor's turning)
    cdef bint has_accepted

    def __init__(self, owner, bint static=False):
        cdef SpatialKernel kernel = owner.kernel
        cdef SpatialData* nd
        self.kernel, self.owner, self.inputs = kernel, owner, kernel.inputs
        self.d = &kernel.data
        self.n, self.m = kernel.n_free, 0
        self.static = static
        self.load_factor = 1.0
        self.timed = bool(self.inputs.time_dependent)
        self.effort_timed = bool(self.inputs.effort_dependent)
        self.last_t = np.nan
        nb, nq = kernel.n_bodies, kernel.n_q
        self.newton_arrays = arena({name: max(per_body * nb + per_q * nq, 1)
                                    for name, (per_body, per_q) in _NEWTON_ARRAYS.items()})
        a = self.newton_arrays
        self.nd = kernel.data
        nd = &self.nd
        nd.r, nd.A, nd.V, nd.acc = _ptr(a, "r"), _ptr(a, "A"), _ptr(a, "V"), _ptr(a, "acc")
        nd.c, nd.d, nd.H, nd.Jr = _ptr(a, "c"), _ptr(a, "d"), _ptr(a, "H"), _ptr(a, "Jr")
        nd.Ig, nd.f, nd.IA, nd.pA = _ptr(a, "Ig"), _ptr(a, "f"), _ptr(a, "IA"), _ptr(a, "pA")
        nd.W, nd.U, nd.L, nd.z = _ptr(a, "W"), _ptr(a, "U"), _ptr(a, "L"), _ptr(a, "z")
        nd.q, nd.qd, nd.qdd, nd.tau = _ptr(a, "q"), _ptr(a, "qd"), _ptr(a, "qdd"), _ptr(a, "tau")
        nd.ce, nd.cs = _ptr(a, "ce"), _ptr(a, "cs")
        self.cable_blocks = np.zeros(max(CABLE_ELEMENT_BLOCK * nd.n_cable_elements, 1))
        nd.c_blocks = &self.cable_blocks[0] if nd.n_cable_elements else NULL
        self.tangents = np.zeros(2 * SPATIAL_BLOCK * max(nb, 1))
        self.rows = np.zeros(SPATIAL_BLOCK * max(nb, 1))
        self.turning = False
        self.full_a, self.full_out = np.zeros(max(nq, 1)), np.zeros(max(nq, 1))
        self.identity = nq == self.n
        for k in range(nq):
            self.identity = self.identity and nd.smap[k] == k
        self.zero = np.zeros(max(self.n, 1))
        self.wrench_q, self.wrench_v = np.zeros(max(self.n, 1)), np.zeros(max(self.n, 1))
        self.wrench_valid = self.reuse_wrenches = False
        self.hessians = np.zeros(SPATIAL_BLOCK * max(nd.n, 1))
        self.hessians_valid = False
        self.power_out = np.zeros(max(self.n, 1))
        self.E = np.zeros(SPATIAL_BLOCK * max(nb, 1))
        self.scratch = np.zeros(SPATIAL_BLOCK + SPATIAL_NODE)
        # a factorization and a solve, in residuals: its kinematics, element tangents and
        # elimination against the residual's kinematics, element forces and Newton-Euler
        # sweeps, both O(n), the first about twice the second: the cost the loop's matrix
        # renewal weighs (rancf/integrators/_implicit.pyx)
        self.factor_cost = 2.0
        # spring-dampers: those to the ground as body blocks, those between two bodies by the
        # Woodbury identity (_spring_matrix)
        law = np.asarray(owner.tree.spring_body)
        # a point between two nodes is on two bodies: its spring couples them (Woodbury)
        arc = (np.asarray(owner.tree.spring_arc) >= 0).any(axis=1) if len(law) else \
            np.zeros(0, bool)
        ground = np.flatnonzero((law < 0).any(axis=1) & ~arc) if len(law) else np.zeros(0, int)
        pairs = np.flatnonzero((law >= 0).all(axis=1) | arc) if len(law) else np.zeros(0, int)
        self.n_pairs, self.woodbury = len(pairs), 0
        self.pairs = np.asarray(pairs, dtype=np.intc) if len(pairs) else np.zeros(1, np.intc)
        self.blocks = np.zeros(SPATIAL_BLOCK * max(nb, 1))
        nd.body_blocks = &self.blocks[0] if len(ground) else NULL
        self.ground_blocks = len(ground) > 0
        w = 3 * self.n_pairs
        self.Z, self.Ks = np.zeros(max(w * nq, 1)), np.zeros(max(3 * w, 1))
        self.small, self.pivots = np.zeros(max(w * w, 1)), np.zeros(max(w, 1), np.intc)
        self.Vz, self.Wz = np.zeros(SPATIAL_NODE * max(nb, 1)), np.zeros(SPATIAL_NODE * max(nb, 1))
        self.ys = np.zeros(max(w, 1))
        self.krylov_iterations = 0
        self.kept_q, self.kept_v = np.zeros(max(self.n, 1)), np.zeros(max(self.n, 1))
        self.kept = self.keep = False
        self.kept_rows = []
        self.accepted_q, self.has_accepted = np.zeros(max(self.n, 1)), False
        # effort functions: the link each acts on (its coordinates are the function's)
        functions = self.inputs.effort_functions
        spans = [(nd.q_offset[i], nd.q_offset[i + 1]) for i in range(nd.n)] if functions else []
        bodies = [spans.index((s.start, s.stop)) for _, s, _ in functions]
        self.n_efforts = len(bodies)
        self.effort_body = np.asarray(bodies if bodies else [0], dtype=np.intc)
        self.effort_slopes = np.zeros(2 * SPATIAL_BLOCK * max(self.n_efforts, 1))
        self.effort_now = np.zeros(SPATIAL_NODE * max(self.n_efforts, 1))
        self.accepted_a, self.has_accel = np.zeros(max(self.n, 1)), False
        self.at_iterate = self.within_step = False
        self.kV = np.zeros(0)           # GMRES's work arrays: made when krylov is set
        self.krylov = static
        # statics' Newton matrix with the turning is the residual's whole derivative where
        # nothing it leaves out is in the model (module docstring, "Statics"): then no GMRES
        # a point between two nodes: its element's nodes (the first and the second)
        arcs = ([(nd.load_body[k], nd.load_arc[k]) for k in range(nd.n_loads)
                 if nd.load_arc[k] >= 0]
                + [(nd.s_body[k], nd.s_arc[k]) for k in range(2 * nd.n_springs)
                   if nd.s_arc[k] >= 0])
        self.arcs = len(arcs) > 0
        # their terms fold into the elimination where one node is the other's parent
        # (_arc_blocks), as every element of a beam in the tree has them
        self.exact_static = bool(static and not nd.n_cable_elements and all(
            nd.parent[b_] == a_ or nd.parent[a_] == b_ for a_, b_ in arcs))
        # elsewhere (but with cables) the same matrix preconditions GMRES
        self.static_turning = bool(static and not nd.n_cable_elements)

    # --- inputs ---------------------------------------------------------------------------
    cdef int _at_time(self, double t) except -1:
        """Loads, efforts and drives at t (s); in statics drives held (zero rates)."""
        if self.timed and t != self.last_t:
            self.inputs.at_time(t)
            self.last_t = t
            if self.static:
                self.kernel.arrays["drive"][:3 * self.kernel.n_q].reshape(-1, 3)[:, 1:] = 0.0
        return 0

    cdef str _turned_over(self, int body, double t):
        """The message of an element link (``body - 1``) whose rotation vector reached pi at t.
        Where the element was turned by less than pi / 2 at the last accepted state, it is
        Newton's iterate that turned it, not the motion: the step's equations curve too much
        in the relative coordinates for the step (S leaves out the turning of the forces
        through the tree, the stiffness of a spring-damper's or a load's force as the parents'
        rotations move its point: where it exceeds the elements' bending stiffness the
        iterates wander, even under full Newton on the exact tangent). The absolute node
        coordinates of the spatial DAE have no such curvature nor the limit at pi."""
        cdef int i = body - 1, k, s
        cdef double turned = 0.0
        cdef const SpatialData* d = self.d
        if self.has_accepted and 0 <= i < d.n:
            for k in range(d.q_offset[i] + 3, min(d.q_offset[i] + 6, d.q_offset[i + 1])):
                s = d.smap[k]
                if s >= 0:
                    turned += self.accepted_q[s] * self.accepted_q[s]
            turned = sqrt(turned)
            if turned < 0.5 * M_PI:
                shorter = "more load steps" if self.static else "a shorter step (dt)"
                return (f"Newton's iterate turned the element ending at body {i} by half a "
                        f"turn at t = {t:.6g} s, from {turned:.3g} rad at the last accepted "
                        "state: the step's equations curve too much in the relative "
                        "coordinates (a spring-damper or load stiffer than the elements' "
                        f"bending, whose turning Newton's matrix leaves out): take {shorter}, "
                        'or formulation="dae" (absolute node coordinates)')
        return (f"the rotation of the element ending at body {i} reached pi at t = "
                f"{t:.6g} s (the element turned by half a turn: refine the beam, or shorten "
                "the step or the load step)")

    @property
    def krylov(self):
        return self._krylov

    @krylov.setter
    def krylov(self, bint on):
        n = max(self.n, 1)
        if on and self.kV.shape[0] == 0:
            w = arena(dict(lin_q=n, lin_v=n, lin_a=n, lin_r=n, kV=n * (RESTART + 1),
                           kH=(RESTART + 1) * RESTART, kcs=RESTART, ksn=RESTART, kg=RESTART + 1,
                           kb=n, ky=n, ku=n, kq=n, kv=n, ka=n, kr=n))
            self.lin_q, self.lin_v, self.lin_a, self.lin_r = (w["lin_q"], w["lin_v"], w["lin_a"],
                                                              w["lin_r"])
            self.kV, self.kH, self.kcs, self.ksn, self.kg = (w["kV"], w["kH"], w["kcs"],
                                                             w["ksn"], w["kg"])
            self.kb, self.ky, self.ku = w["kb"], w["ky"], w["ku"]
            self.kq, self.kv, self.ka, self.kr = w["kq"], w["kv"], w["ka"], w["kr"]
            self.lin_cf = 0.0
        self._krylov = on

    # --- the contract -----------------------------------------------------------------------
    cdef int mass_action(self, const double* q, double t, const double* a, double* out) except -1:
        return self.dynamic_residual(q, &self.zero[0], t, a, 1.0, 0.0, out)

    cdef int force(self, const double* q, const double* v, double t, double* out) except -1:
        """F = B^T (f - M_b c) + tau (a state's: its point kept, :meth:`_residual`)."""
        self.keep = True
        return self.dynamic_residual(q, v, t, &self.zero[0], 0.0, -1.0, out)

    cdef int dynamic_residual(self, const double* q, const double* v, double t, const double* a,
                              double c_m, double c_f, double* out) except -1:
        """``c_m M a - c_f F`` (:meth:`_residual`); with :attr:`krylov` its point,
        coefficients and value are kept: the loop evaluates the step residual at its iterate
        before it solves, and GMRES differentiates it there."""
        cdef int n = self.n
        self._residual(q, v, t, a, c_m, c_f, out)
        if self._krylov:
            memcpy(&self.lin_q[0], q, n * sizeof(double))
            memcpy(&self.lin_a[0], a, n * sizeof(double))
            memcpy(&self.lin_r[0], out, n * sizeof(double))
            if v != NULL:
                memcpy(&self.lin_v[0], v, n * sizeof(double))
            else:
                memset(&self.lin_v[0], 0, n * sizeof(double))
            self.lin_t, self.lin_cm, self.lin_cf = t, c_m, c_f
        return 0

    cdef int _residual(self, const double* q, const double* v, double t, const double* a,
                       double c_m, double c_f, double* out, bint differenced=False) except -1:
        """``c_m M a - c_f F`` by one kinematics pass, the forces (:meth:`_state`) and the
        Newton-Euler recursion (module docstring). ``differenced``: a residual of GMRES's
        differences (:meth:`_jacobian_action`), at which no matrix is made."""
        # the elements' Hessians with the forces where statics' matrix may be made next at
        # this point (factor's at_residual: the wrenches kept below); not for a damped step's
        # (c_m > 0) nor GMRES's differences, whose matrices are not made there (each Hessian
        # costs the residual about a third more: 180 against 132 us, 200 elements)
        self._state(q, v, t, c_f, self.static_turning and c_m == 0.0 and v != NULL
                    and not differenced)
        self._recursion(a, c_m, c_f, out)
        # statics' direct matrix takes the link wrenches of the residual at its own point
        # (factor): the loop evaluates the residual at the iterate right before it factors
        self.wrench_valid = self.static_turning and c_m == 0.0 and v != NULL
        if self.wrench_valid:
            memcpy(&self.wrench_q[0], q, self.n * sizeof(double))
            memcpy(&self.wrench_v[0], v, self.n * sizeof(double))
            self.wrench_lf, self.wrench_cf, self.wrench_t = self.load_factor, c_f, t
        return 0

    cdef int _state(self, const double* q, const double* v, double t, double c_f,
                    bint matrix_next=False) except -1:
        """The kinematics at (q, v) and, for ``c_f != 0``, the forces at t in the residual's
        workspace, with the elements' Hessians where ``matrix_next`` (:meth:`_residual`). At the point (q, v, t) of the last call, whose forces it evaluated, nothing
        is done: the loop asks for the work integrals' power at an accepted state
        (:meth:`power`) and then for the next step's old-step residual
        ``(1 - am) M a_n - (1 - af) F_n`` at the same state, so the kinematics and the forces
        (the elements' above all) are evaluated once for both. Only the calls at a state
        (:meth:`power`, :meth:`force`, which set ``keep``) keep their point: a Newton
        iterate's is not asked for again, so its q and v are not copied. Anything else that
        moves the residual's workspace (the formulation's outputs, reactions, Python calls)
        drops the point (:meth:`_forget`)."""
        cdef SpatialData* d = self.d
        cdef int status = 0
        cdef bint hessians
        cdef double lf = self.load_factor
        cdef size_t size = self.n * sizeof(double)
        cdef bint keep = self.keep
        self.keep = False
        if (self.kept and v != NULL and t == self.kept_t and lf == self.kept_lf
                and (self.kept_forces or c_f == 0.0)
                and memcmp(q, &self.kept_q[0], size) == 0
                and memcmp(v, &self.kept_v[0], size) == 0):
            # the inputs at t too, which a factorization elsewhere in time may have moved
            self._at_time(t)
            return 0
        self.kept = False
        self._at_time(t)
        _gather(d, q, v)
        if self.effort_timed and c_f != 0.0:
            self.inputs.efforts(t)
        # statics' matrix with the turning is made next at this point (factor's at_residual):
        # the element forces' Hessians with the forces, not from a second evaluation
        hessians = c_f != 0.0 and matrix_next
        with nogil:
            kinematics(d, d.q, d.qd)
            if c_f != 0.0:
                d.failed = 0
                d.element_K = &self.hessians[0] if hessians else NULL
                status = forces(d, d.q, d.qd)
                d.element_K = NULL
            else:
                rotated_inertias(d)
        if c_f != 0.0:
            self.hessians_valid = hessians and not status
        if status:
            raise ArithmeticError(self._turned_over(d.failed, t))
        if c_f != 0.0 and lf != 1.0:
            _scale_loads(d, lf)
        if c_f != 0.0:
            # the spring-dampers are not loads: never scaled
            with nogil:
                spring_forces(d)
        if v != NULL and keep:
            memcpy(&self.kept_q[0], q, size)
            memcpy(&self.kept_v[0], v, size)
            self.kept_t, self.kept_lf, self.kept_forces = t, lf, c_f != 0.0
            self.kept = True
        return 0

    cdef void _recursion(self, const double* a, double c_m, double c_f,
                         double* out) noexcept nogil:
        """out (n) <- ``c_m M a - c_f F`` by the Newton-Euler recursion (``inverse_dynamics``)
        on the kinematics and forces in the residual's workspace. Without drives the link
        coordinates are the state's (:attr:`identity`): the recursion reads a and writes out
        themselves (it reads all of a before it writes, and a not at all for ``c_m = 0``),
        without the two copies through the link-coordinate vectors."""
        cdef SpatialData* d = self.d
        cdef int k, s
        if self.identity:
            inverse_dynamics(d, a, c_m, c_f, out)
            return
        for k in range(d.n_q):
            s = d.smap[k]
            self.full_a[k] = a[s] if s >= 0 and c_m != 0.0 else 0.0
        inverse_dynamics(d, &self.full_a[0], c_m, c_f, &self.full_out[0])
        for k in range(d.n_q):
            s = d.smap[k]
            if s >= 0:
                out[s] = self.full_out[k]

    cdef void _forget(self) noexcept:
        """The residual's workspace is no longer that of the last residual's point."""
        self.kept = False
        self.wrench_valid = False

    cdef int accept(self, const double* q, const double* v, double t) except -1:
        self._forget()
        if self.n:
            memcpy(&self.accepted_q[0], q, self.n * sizeof(double))
            self.has_accepted = True
        return 0

    cdef int constraint(self, const double* q, double t, double* out) except -1:
        return 0

    cdef int constraint_force(self, const double* q, const double* lam, double t,
                              double* out) except -1:
        memset(out, 0, self.n * sizeof(double))
        return 0

    cdef int acceleration_bias(self, const double* q, const double* v, double t,
                               double* out) except -1:
        return 0

    cdef int factor(self, const double* q_e, const double* a_e, const double* lam,
                    const double* v_e, double t_e, const double* q_new, double t_new, double c_m,
                    double c_mq, double c_k, double c_c, double w) except -1:
        """``S = c_m B^T M_b B + c_c D + c_k K`` at (q_e, v_e, t_e) in Newton's workspace, by the
        articulated-body elimination, with :attr:`turning` (and c_m, c_k > 0, no cables) the
        turning of the link wrenches (module docstring; :meth:`_link_turning`, whose
        coefficients c_mq and c_k are the residual's mass and force coefficients times
        ``dq/dx``)."""
        cdef SpatialData* nd = &self.nd
        cdef int status, k
        cdef bint at_residual
        self.c_m, self.c_k, self.c_c = c_m, c_k, c_c
        # without stiffness (the start's mass matrix) S is the Jacobian itself
        self.exact = c_k == 0.0
        # statics' matrix with the turning (static_turning), exact where nothing it leaves out
        # is in the model (exact_static): then solved directly, else GMRES's preconditioner
        # (with c_m > 0 in statics too: the damped Newton steps of a mechanism's statics,
        # K + c_m M at rest, rancf.integrators.static._damped_newton)
        cdef bint turned = ((self.static_turning or self.exact_static) and c_k > 0.0
                            and (c_m == 0.0 or self.static))
        cdef bint statics = turned and self.exact_static
        self._at_time(t_e)
        _gather(nd, q_e, v_e)
        if self.n_efforts:
            self._slopes(t_e, c_k, c_c, turned)
        # statics at the point of the residual the loop evaluated right before (its q and v,
        # load factor, force coefficient and t): its kinematics and link wrenches are this
        # matrix's, copied, not computed again
        at_residual = (turned and self.wrench_valid and self.wrench_lf == self.load_factor
                       and self.wrench_cf == c_k and self.wrench_t == t_e
                       and memcmp(q_e, &self.wrench_q[0], self.n * sizeof(double)) == 0
                       and memcmp(v_e, &self.wrench_v[0], self.n * sizeof(double)) == 0)
        # statics' load blocks (_load_blocks) join the spring-dampers' body blocks, which
        # _ground_springs zeroes first
        nd.body_blocks = &self.blocks[0] if turned or self.ground_blocks else NULL
        # and the row terms of the loads and spring-dampers between two nodes (_arc_blocks)
        nd.rows = &self.rows[0] if turned and self.arcs else NULL
        with nogil:
            if at_residual:
                _copy_kinematics(self.d, nd)
            else:
                kinematics(nd, nd.q, nd.qd)
                rotated_inertias(nd)
            # the links' own turning terms (_link_turning) are added to E afresh, and a
            # matrix without them leaves none of an earlier one's
            for k in range(nd.nb):
                if nd.motion[k] != M_ELEMENT:
                    memset(&self.E[SPATIAL_BLOCK * k], 0, SPATIAL_BLOCK * sizeof(double))
            status = _element_blocks(nd, c_k, c_c, &self.E[0], &self.scratch[0],
                                     &self.hessians[0]
                                     if at_residual and self.hessians_valid else NULL)
            self._ground_springs(c_k, c_c)
            if self.n_efforts:
                self._efforts(c_k, c_c, turned)
            if nd.n_cable_elements:
                _cable_blocks(nd, c_m, c_k, c_c, nd.c_blocks)
        if status:
            raise ArithmeticError(self._turned_over(status, t_e))
        nd.tangent = NULL
        # the loop's first step has no accepted accelerations: its start's may hold an
        # unresolved stiff mode (module docstring), so it keeps the symmetric S
        # the step's first matrix turns at the accepted accelerations, a later one within the
        # step (Newton has corrected the start) at the iterate's (module docstring)
        if (self.turning and c_m > 0.0 and c_k > 0.0 and not nd.n_cable_elements
                and (self.has_accel or self.at_iterate)):
            with nogil:
                status = self._link_turning(
                    a_e if self.at_iterate or self.within_step else &self.accepted_a[0],
                    c_m, c_mq, c_k)
            if status:
                raise ArithmeticError(self._turned_over(status, t_e))
            nd.tangent = &self.tangents[0]
        # the potential's Hessian alone (static_stable): not with the mass added
        self.static_factored = statics and c_m == 0.0
        self.factored_load_factor = self.load_factor
        if nd.tangent == NULL and turned:
            # the residual's link wrenches at this very point, where the loop evaluated it
            self.reuse_wrenches = at_residual
            with nogil:
                status = self._link_turning(&self.zero[0], 0.0, 0.0, c_k)
            if status:
                raise ArithmeticError(self._turned_over(status, t_e))
            nd.tangent = &self.tangents[0]
            self.exact = statics
        self.within_step = self.has_accel
        with nogil:
            status = factorize(nd, c_m, &self.E[0])
        if status:
            raise ArithmeticError(self._singular(status - 1, c_m))
        with nogil:
            status = self._spring_matrix(c_k, c_c)
        if status:
            raise ArithmeticError("the Newton matrix's spring-damper correction (I + K D Z) is "
                                  "singular")
        return 0

    cdef int _slopes(self, double t, double c_k, double c_c, bint values=False) except -1:
        """The effort functions' slopes ``de/dq``, ``de/dqd`` at Newton's q, qd and t
        (``Inputs.effort_slopes`` of rancf/formulations/spatial.py: central differences, four
        calls a coordinate) into :attr:`effort_slopes` (two blocks at row stride 6 a function),
        where S weighs them (c_k or c_c not zero); with ``values`` (statics' matrix with the
        turning: :meth:`_efforts`) also the values e there (one more call a function) into
        ``effort_now`` (stride 6)."""
        cdef int k, m, r, c, n_i
        if c_k == 0.0 and c_c == 0.0:
            return 0
        q, qd = self.newton_arrays["q"], self.newton_arrays["qd"]
        if values:
            for k, e in enumerate(self.inputs.effort_values(t, q, qd)):
                for r in range(len(e)):
                    self.effort_now[SPATIAL_NODE * k + r] = e[r]
        found = self.inputs.effort_slopes(t, q, qd)
        for k in range(self.n_efforts):
            for m in range(2):
                block = found[k][m]
                n_i = block.shape[0]
                for r in range(n_i):
                    for c in range(n_i):
                        self.effort_slopes[SPATIAL_BLOCK * (2 * k + m) + SPATIAL_NODE * r + c] = \
                            block[r, c]
        return 0

    cdef void _efforts(self, double c_k, double c_c, bint whole) noexcept nogil:
        """The effort functions' terms on their links' joint blocks of E, at Newton's
        kinematics, after :meth:`_ground_springs` (which zeroes the blocks of the links with a
        joint spring-damper and adds its terms; the others are zeroed here): the link's
        generalized force is ``tau = T^T e`` with T the identity on the translation and
        ``J_l(q)`` on a rotation vector (``forces`` of
        rancf/formulations/_spatial.pyx, ``Jr``), so ``-dtau/dq = -T^T de/dq`` but for the
        turning of T (``dT^T/dq e``, zero at q = 0 or e = 0: left out, as the load stiffness),
        and ``-dtau/dqd = -T^T de/dqd``; each times the load factor (statics scales the
        efforts), weighed ``c_k`` and ``c_c``, and its symmetric part taken (the elimination
        factors the joint blocks as symmetric ones: an effort whose slope is not symmetric, a
        follower torque, keeps its skew part in the residual only).

        ``whole`` (statics' matrix with the turning, whose elimination takes LU joint blocks):
        the slope itself, not its symmetric part, and the turning of T on a rotation vector
        theta, ``d(J_l^T e)/dtheta_k = (dJ_l/dtheta_k)^T e`` (:func:`left_jacobian_rate`
        along the unit vector k, e the function's value at Newton's point: :meth:`_slopes`):
        then the block is ``-s dtau/dq`` itself, exact but for the slopes' differences."""
        cdef SpatialData* nd = &self.nd
        cdef double T[SPATIAL_BLOCK]
        cdef double Jd[9]
        cdef double u[3]
        cdef const double* G
        cdef const double* Jr
        cdef double* Eb
        cdef double w, lf = self.load_factor
        cdef int k, m, b, n_i, t, r, c, j
        cdef bint held
        for k in range(self.n_efforts):
            b = self.effort_body[k]
            Eb = &self.E[SPATIAL_BLOCK * b]
            n_i = nd.q_offset[b + 1] - nd.q_offset[b]
            held = False
            for j in range(nd.n_joint_springs):
                held = held or nd.js_body[j] == b
            if not held:
                memset(Eb, 0, SPATIAL_BLOCK * sizeof(double))
            # the rows T^T maps: those of a rotation vector, after its translation's
            t = translation_size(motion_translation(nd.motion[b])) \
                if motion_rotation(nd.motion[b]) == R_VECTOR else n_i
            Jr = nd.Jr + 3 * SPATIAL_NODE * b
            for m in range(2):
                w = -lf * (c_k if m == 0 else c_c)
                if w == 0.0:
                    continue
                G = &self.effort_slopes[SPATIAL_BLOCK * (2 * k + m)]
                for r in range(n_i):
                    for c in range(n_i):
                        if r < t:
                            T[SPATIAL_NODE * r + c] = G[SPATIAL_NODE * r + c]
                        else:
                            T[SPATIAL_NODE * r + c] = 0.0
                            for j in range(3):
                                T[SPATIAL_NODE * r + c] += (Jr[SPATIAL_NODE * j + r]
                                                            * G[SPATIAL_NODE * (t + j) + c])
                for r in range(n_i):
                    for c in range(n_i):
                        if whole:
                            Eb[SPATIAL_NODE * r + c] += w * T[SPATIAL_NODE * r + c]
                        else:
                            Eb[SPATIAL_NODE * r + c] += 0.5 * w * (T[SPATIAL_NODE * r + c]
                                                                   + T[SPATIAL_NODE * c + r])
            if whole and t < n_i and c_k != 0.0:
                # (dJ_l/dtheta_c)^T e on the rotation vector's rows and columns
                w = -lf * c_k
                for c in range(3):
                    memset(u, 0, 3 * sizeof(double))
                    u[c] = 1.0
                    left_jacobian_rate(nd.q + nd.q_offset[b] + t, u, Jd)
                    for r in range(3):
                        for j in range(3):
                            Eb[SPATIAL_NODE * (t + r) + t + c] += (
                                w * Jd[3 * j + r] * self.effort_now[SPATIAL_NODE * k + t + j])

    cdef int _link_turning(self, const double* a_e, double c_m, double c_mq,
                           double c_k) noexcept nogil:
        """Z and u of every body (``SpatialData.tangent``; ``factor`` of
        rancf/formulations/_spatial.pyx) and the links' own terms in E, at Newton's kinematics:
        the turning of the link wrenches with the coordinates (module docstring, "The turning
        of the link wrenches"). A link's own H turning (term (c)) is taken for the spherical,
        free, element and universal links; the other compositions of a rotation vector or two
        axes with a translation (rancf/joints/_codes.pxd) leave it out, as the plain S does.
        Returns 0, or body + 1 of an element turned to pi.

        In statics at the point of the residual the loop evaluated right before (``factor``'s
        ``reuse_wrenches``) the link wrenches are that residual's, not computed again."""
        cdef SpatialData* nd = &self.nd
        cdef int k, status
        nd.failed = 0
        if self.reuse_wrenches and c_m == 0.0:
            # statics at the residual's own point (factor): its link wrenches, the same
            # forces and recursion (c_m = 0, c_f = c_k) at the same q, load factor and t
            self.reuse_wrenches = False
            memcpy(nd.pA, self.d.pA, SPATIAL_NODE * nd.n * sizeof(double))
            for k in range(nd.n_q):
                nd.qdd[k] = 0.0
            self._load_blocks(c_k)
        else:
            status = self._turning_wrenches(a_e, c_m, c_mq, c_k)
            if status:
                return status
        status = self._turning_columns(c_m, c_mq, c_k)
        if c_m == 0.0 and nd.rows != NULL:
            # statics: after the columns, whose u it adds to
            self._arc_blocks(c_k)
        return status

    cdef int _turning_wrenches(self, const double* a_e, double c_m, double c_mq,
                               double c_k) noexcept nogil:
        """The link wrenches (``nd.pA``) of :meth:`_link_turning` at Newton's kinematics: the
        forces (scaled by the load factor in statics, as the residual's) and the
        Newton-Euler recursion at the accelerations a_e (none in statics, ``c_m = 0``, whose
        load blocks it adds: :meth:`_load_blocks`). Returns 0, or body + 1 of an element
        turned to pi."""
        cdef SpatialData* nd = &self.nd
        cdef double lf = self.load_factor
        cdef int k, s
        if forces(nd, nd.q, nd.qd):
            return nd.failed
        if lf != 1.0:
            _scale_loads(nd, lf)
        if c_m == 0.0:
            # statics: the spring-dampers' forces in the link wrenches, unscaled (_state)
            spring_forces(nd)
        for k in range(nd.n_q):
            s = nd.smap[k]
            nd.qdd[k] = a_e[s] if (s >= 0 and c_m != 0.0) else 0.0
        inverse_dynamics(nd, nd.qdd, c_mq, c_k, &self.full_out[0])
        if c_m == 0.0:
            # statics: the loads' own turning as unsymmetric body blocks (_load_blocks)
            self._load_blocks(c_k)
        return 0

    cdef int _turning_columns(self, double c_m, double c_mq, double c_k) noexcept nogil:
        """Z, u and the links' own terms in E of :meth:`_link_turning` from the link wrenches
        in ``nd.pA`` and the accelerations in ``nd.qdd``."""
        cdef SpatialData* nd = &self.nd
        cdef double* Z
        cdef double* u
        cdef double* Ei
        cdef const double* H
        cdef const double* Ap
        cdef const double* w
        cdef double abar[SPATIAL_NODE]
        cdef double dH[SPATIAL_NODE]
        cdef double Jd[9]
        cdef double e[3]
        cdef double hq[3]
        cdef double hv[3]
        cdef double hw[3]
        cdef double o[3]
        cdef double x[3]
        cdef double y[3]
        cdef int i, j, k, m, r, p, off, n_i, rs
        for i in range(nd.nb):
            n_i = _unknowns(nd, i)
            Z = &self.tangents[2 * SPATIAL_BLOCK * i]
            u = Z + SPATIAL_BLOCK
            Ei = &self.E[SPATIAL_BLOCK * i]
            H = nd.H + SPATIAL_BLOCK * i
            w = nd.pA + SPATIAL_NODE * i
            off, p = nd.q_offset[i], nd.parent[i]
            # abar: the body's acceleration less its bias and gravity, all s times
            for k in range(SPATIAL_NODE):
                abar[k] = nd.acc[SPATIAL_NODE * i + k] - c_k * nd.c[SPATIAL_NODE * i + k]
            for k in range(3):
                abar[k] -= c_k * self.load_factor * nd.gravity[k]
            for j in range(n_i):
                for k in range(3):
                    hv[k], hw[k] = H[SPATIAL_NODE * k + j], H[SPATIAL_NODE * (3 + k) + j]
                if c_m == 0.0:
                    # statics: no inertia; gravity's turning is in the body blocks
                    for k in range(3):
                        Z[SPATIAL_NODE * k + j] = hv[k]
                        Z[SPATIAL_NODE * (3 + k) + j] = hw[k]
                else:
                    # Y = abar x h = (alpha x h_v + a x h_w, alpha x h_w); Z = H + Y / c_m
                    cross(abar + 3, hv, x)
                    cross(abar, hw, y)
                    for k in range(3):
                        Z[SPATIAL_NODE * k + j] = hv[k] + (x[k] + y[k]) / c_m
                    cross(abar + 3, hw, x)
                    for k in range(3):
                        Z[SPATIAL_NODE * (3 + k) + j] = hw[k] + x[k] / c_m
                # u = h x* W = (h_w x F, h_w x N + h_v x F)
                cross(hw, w, x)
                for k in range(3):
                    u[SPATIAL_NODE * k + j] = x[k]
                cross(hw, w + 3, x)
                cross(hv, w, y)
                for k in range(3):
                    u[SPATIAL_NODE * (3 + k) + j] = x[k] + y[k]
            # the link's own parametrization: its rotation columns A_p J_l(theta) about the
            # joint point c = r_p + A_p (anchor + t), seen from the body's origin (o = A_i
            # offset = c - r_i): dH_m / dq_k beside the rigid turning the terms above take
            m = nd.motion[i]
            rs = 0 if m == M_SPHERICAL else (3 if m == M_ELEMENT or m == M_FREE else -1)
            if n_i == 0 or (rs < 0 and m != M_UNIVERSAL):
                continue        # a revolute's, prismatic's or cylindrical's H does not turn
            Ap = nd.A + 9 * p if p >= 0 else _EYE
            matvec(nd.A + 9 * i, nd.offset + 3 * i, o)
            if m == M_UNIVERSAL:
                # the second axis turns with the first coordinate: dw_1 / dq_0 = w_0 x w_1
                for r in range(3):
                    hv[r], hw[r] = H[SPATIAL_NODE * (3 + r)], H[SPATIAL_NODE * (3 + r) + 1]
                cross(hv, hw, x)
                cross(o, x, y)
                for r in range(3):
                    dH[r], dH[3 + r] = y[r], x[r]
                for r in range(SPATIAL_NODE):
                    Ei[SPATIAL_NODE] += dH[r] * w[r]
                    if c_m != 0.0:
                        Z[SPATIAL_NODE * r] += c_mq / c_m * dH[r] * nd.qdd[off + 1]
                continue
            # the joint point moves by A_p e_k (k < rs): dH = (A_p e_k x w_m, 0) for the
            # rotation column m, so that dH . W = A_p e_k . (w_m x F), and its columns along
            # the rotation's accelerations sum to A_p e_k x (sum_m w_m qdd_m)
            memset(hq, 0, 3 * sizeof(double))
            for j in range(rs, rs + 3):
                for r in range(3):
                    hw[r] = H[SPATIAL_NODE * (3 + r) + j]
                    hq[r] += hw[r] * nd.qdd[off + j]
                cross(hw, w, y)
                for k in range(rs):
                    Ei[SPATIAL_NODE * j + k] += Ap[k] * y[0] + Ap[3 + k] * y[1] + Ap[6 + k] * y[2]
            if c_m != 0.0:
                for k in range(rs):
                    for r in range(3):
                        x[r] = Ap[3 * r + k]
                    cross(x, hq, y)
                    for r in range(3):
                        Z[SPATIAL_NODE * r + k] += c_mq / c_m * y[r]
            # the rotation vector theta's columns, dw_m / dtheta_k = A_p (dJ_l/dtheta_k) e_m,
            # dH = (o x dw, dw): dH . W = dw . g with g = F x o + N, so that
            # Ei[m, k] += (d(J_l^T A_p^T g)/dtheta)[m, k]; along the accelerations,
            # sum_m dw qdd_m = A_p (d(J_l a)/dtheta) e_k (a: theta's qdd)
            cross(w, o, x)
            for r in range(3):
                x[r] += w[3 + r]
            for r in range(3):
                e[r] = Ap[r] * x[0] + Ap[3 + r] * x[1] + Ap[6 + r] * x[2]
            left_jacobian_gradient(nd.q + off + rs, e, -1.0, Jd)
            for j in range(3):
                for k in range(3):
                    Ei[SPATIAL_NODE * (rs + j) + rs + k] += Jd[3 * j + k]
            if c_m != 0.0:
                left_jacobian_gradient(nd.q + off + rs, nd.qdd + off + rs, 1.0, Jd)
                for k in range(3):
                    for r in range(3):
                        y[r] = Jd[3 * r + k]
                    matvec(Ap, y, x)
                    cross(o, x, y)
                    for r in range(3):
                        Z[SPATIAL_NODE * r + rs + k] += c_mq / c_m * y[r]
                        Z[SPATIAL_NODE * (3 + r) + rs + k] += c_mq / c_m * x[r]
        return 0

    cdef void _load_blocks(self, double c_k) noexcept nogil:
        """Statics' body blocks (``SpatialData.body_blocks``, zeroed by :meth:`_ground_springs`
        before): the part of the applied wrenches' derivative that the rigid turning of
        :meth:`_link_turning` misses. A force F of fixed direction at the point g from body b's
        origin (gravity: ``m g`` at the origin) and a moment Mo of fixed direction do not turn
        with the body; ``h x* f`` turns them, so the change of the body's wrench under the
        twist ``h = (v, w)`` (at its origin) is that less ``(w x F, g x (w x F) + w x Mo)``::

            B h = [[0, F^], [0, g^ F^ + Mo^]] h          (6 x 6, unsymmetric)

        (a^ the cross-product matrix), and the residual's ``-c_k s f`` takes ``-c_k s B`` into
        the body's block (s the load factor), on both sides congruent with the twists as the
        mass is, so the elimination takes it as it takes ``c_m M_b``. A follower load turns
        with its body: nothing. A spring-damper's force ``+-f n`` on each of its points is one of
        fixed direction here (unscaled: springs are not loads): its change with the points'
        positions is S's spring term (``P^T K_s P`` to the ground, Woodbury's ``D^T K_s D``
        between bodies). Loads and spring-dampers at points between two nodes (``load_arc``,
        ``s_arc``) move with two bodies: :meth:`_arc_blocks`."""
        cdef SpatialData* nd = &self.nd
        cdef double lf = self.load_factor
        cdef double F[3]
        cdef double Mo[3]
        cdef double g[3]
        cdef double Fx[9]
        cdef double n[3]
        cdef double x[3]
        cdef double* Bb
        cdef double f, l, ldot
        cdef int i, j, k, r, c, e
        self.conservative = True
        for i in range(nd.nb):
            Bb = nd.body_blocks + SPATIAL_BLOCK * i
            for k in range(3):
                F[k] = -c_k * lf * nd.mass[i] * nd.gravity[k]
            _skew(F, Fx)
            for r in range(3):
                for c in range(3):
                    Bb[SPATIAL_NODE * r + 3 + c] += Fx[3 * r + c]
        for j in range(nd.n_loads):
            if nd.load_arc[j] >= 0:
                continue
            load_vectors(nd, j, F, Mo, g)
            if nd.load_follower[j] or Mo[0] != 0.0 or Mo[1] != 0.0 or Mo[2] != 0.0:
                # a follower load, a moment fixed in space: no potential (static_stable)
                if (nd.load_follower[j] and (F[0] != 0.0 or F[1] != 0.0 or F[2] != 0.0)) \
                        or Mo[0] != 0.0 or Mo[1] != 0.0 or Mo[2] != 0.0:
                    self.conservative = False
                if nd.load_follower[j]:
                    continue
            i = nd.load_body[j]
            Bb = nd.body_blocks + SPATIAL_BLOCK * i
            for k in range(3):
                F[k] *= -c_k * lf
                Mo[k] *= -c_k * lf
            _force_block(F, g, Bb)
            _skew(Mo, Fx)
            for r in range(3):
                for c in range(3):
                    Bb[SPATIAL_NODE * (3 + r) + 3 + c] += Fx[3 * r + c]
        for j in range(nd.n_springs):
            # a spring-damper's force on each of its points depends on their positions, not on
            # the bodies' turning: a force of fixed direction to the rigid turning, unscaled
            f = spring_line(nd, j, n, &l, &ldot)
            for e in range(2):
                i = nd.s_body[2 * j + e]
                if i < 0 or nd.s_arc[2 * j + e] >= 0:
                    continue        # a point between two nodes: _arc_blocks
                spring_point(nd, j, e, x, g)
                for k in range(3):
                    F[k] = c_k * f * n[k] if e else -c_k * f * n[k]
                _force_block(F, g, nd.body_blocks + SPATIAL_BLOCK * i)

    cdef void _arc_blocks(self, double c_k) noexcept nogil:
        """Statics' terms of the loads and spring-dampers' forces at points between two nodes,
        after :meth:`_turning_columns`: the part of their node wrenches' derivative that the
        rigid turning misses (module docstring, "Loads between two nodes in statics' matrix"),
        as the elimination takes it: a body block of the child node (``body_blocks``), a
        column term of its link (``u``), a row term (``rows``) and a block of its joint block
        (E). A load's force and moment are scaled ``-c_k s`` as the residual's (s the load
        factor), a spring-damper's force ``f n`` on its first point ``-c_k`` (unscaled) as in
        :meth:`_load_blocks`. A follower load or a moment here has no potential
        (``conservative``)."""
        cdef SpatialData* nd = &self.nd
        cdef double lf = self.load_factor
        cdef double B[2 * SPATIAL_NODE * 2 * SPATIAL_NODE]     # PAIR x PAIR
        cdef double F[3]
        cdef double Mo[3]
        cdef double n[3]
        cdef double f, l, ldot
        cdef int j, k, e
        memset(nd.rows, 0, SPATIAL_BLOCK * nd.n * sizeof(double))
        for j in range(nd.n_loads):
            if nd.load_arc[j] < 0:
                continue
            for k in range(3):
                F[k] = -c_k * lf * nd.load_force[3 * j + k]
                Mo[k] = -c_k * lf * nd.load_moment[3 * j + k]
            if (Mo[0] != 0.0 or Mo[1] != 0.0 or Mo[2] != 0.0 or (nd.load_follower[j] and (
                    F[0] != 0.0 or F[1] != 0.0 or F[2] != 0.0))):
                self.conservative = False
            _arc_derivative(nd, nd.load_body[j], nd.load_arc[j], nd.load_offset[3 * j], F, Mo,
                            nd.load_follower[j], B)
            self._pair_terms(nd.load_body[j], nd.load_arc[j], B)
        Mo[0] = Mo[1] = Mo[2] = 0.0
        for j in range(nd.n_springs):
            f = spring_line(nd, j, n, &l, &ldot)
            for e in range(2):
                if nd.s_arc[2 * j + e] < 0:
                    continue
                for k in range(3):
                    F[k] = c_k * f * n[k] if e else -c_k * f * n[k]
                _arc_derivative(nd, nd.s_body[2 * j + e], nd.s_arc[2 * j + e],
                                nd.s_offset[3 * (2 * j + e)], F, Mo, False, B)
                self._pair_terms(nd.s_body[2 * j + e], nd.s_arc[2 * j + e], B)

    cdef void _pair_terms(self, int a, int b, const double* B) noexcept nogil:
        """The terms of the derivative B (12 x 12: rows the wrenches on a and b, columns their
        twists; :func:`_arc_derivative`) of two nodes a and b of which one, p, is the other's,
        c's, parent, in the elimination (module docstring, "Loads between two nodes in statics'
        matrix"): with ``X^-1 = [[I, d^], [0, I]]`` (``h_p = X^-1 (h_c - H_c dq_c)``, d = r_c -
        r_p) and ``T = X^-T`` (a wrench at p to c's origin), ``Y = T (B_pp X^-1 + B_pc)``::

            body block of c  += Y + B_cp X^-1 + B_cc
            u_c              -= (T B_pp + B_cp) X^-1 H_c
            R_c              -= H_c^T Y
            E_c              += H_c^T T B_pp X^-1 H_c"""
        cdef SpatialData* nd = &self.nd
        cdef double Bpp[SPATIAL_BLOCK]
        cdef double Bpc[SPATIAL_BLOCK]
        cdef double Bcp[SPATIAL_BLOCK]
        cdef double Bcc[SPATIAL_BLOCK]
        cdef double Xi[SPATIAL_BLOCK]
        cdef double T[SPATIAL_BLOCK]
        cdef double P[SPATIAL_BLOCK]
        cdef double Y[SPATIAL_BLOCK]
        cdef double G[SPATIAL_BLOCK]
        cdef double K[SPATIAL_BLOCK]
        cdef double dx[9]
        cdef const double* H
        cdef double* u
        cdef double* R
        cdef double* Ec
        cdef double* Bb
        cdef double t
        cdef int p, c, ip, ic, op, oc, r, k, j, n_c
        if nd.parent[b] == a:
            p, c, ip, ic = a, b, 0, 1
        elif nd.parent[a] == b:
            p, c, ip, ic = b, a, 1, 0
        else:
            return      # no element of a tree's beam (exact_static is off: GMRES has it)
        op, oc = SPATIAL_NODE * ip, SPATIAL_NODE * ic
        for r in range(SPATIAL_NODE):
            for k in range(SPATIAL_NODE):
                Bpp[SPATIAL_NODE * r + k] = B[PAIR * (op + r) + op + k]
                Bpc[SPATIAL_NODE * r + k] = B[PAIR * (op + r) + oc + k]
                Bcp[SPATIAL_NODE * r + k] = B[PAIR * (oc + r) + op + k]
                Bcc[SPATIAL_NODE * r + k] = B[PAIR * (oc + r) + oc + k]
                Xi[SPATIAL_NODE * r + k] = 1.0 if r == k else 0.0
        _skew(nd.d + 3 * c, dx)
        for r in range(3):
            for k in range(3):
                Xi[SPATIAL_NODE * r + 3 + k] = dx[3 * r + k]
        for r in range(SPATIAL_NODE):
            for k in range(SPATIAL_NODE):
                T[SPATIAL_NODE * r + k] = Xi[SPATIAL_NODE * k + r]
        # Y = T (B_pp X^-1 + B_pc); the body block Y + B_cp X^-1 + B_cc
        _mul6(Bpp, Xi, P)
        for k in range(SPATIAL_BLOCK):
            P[k] += Bpc[k]
        _mul6(T, P, Y)
        _mul6(Bcp, Xi, P)
        Bb = nd.body_blocks + SPATIAL_BLOCK * c
        for k in range(SPATIAL_BLOCK):
            Bb[k] += Y[k] + P[k] + Bcc[k]
        # G = (T B_pp + B_cp) X^-1 (P holds B_cp X^-1); K = T B_pp X^-1
        _mul6(T, Bpp, G)
        _mul6(G, Xi, K)
        for k in range(SPATIAL_BLOCK):
            G[k] = K[k] + P[k]
        H = nd.H + SPATIAL_BLOCK * c
        u = &self.tangents[2 * SPATIAL_BLOCK * c + SPATIAL_BLOCK]
        R = nd.rows + SPATIAL_BLOCK * c
        Ec = &self.E[SPATIAL_BLOCK * c]
        n_c = _unknowns(nd, c)
        for j in range(n_c):
            for r in range(SPATIAL_NODE):
                t = 0.0
                for k in range(SPATIAL_NODE):
                    t += G[SPATIAL_NODE * r + k] * H[SPATIAL_NODE * k + j]
                u[SPATIAL_NODE * r + j] -= t
                t = 0.0
                for k in range(SPATIAL_NODE):
                    t += H[SPATIAL_NODE * k + j] * Y[SPATIAL_NODE * k + r]
                R[SPATIAL_NODE * j + r] -= t
            # E_c row j: (H^T K H)_j, through K H's columns
            for k in range(n_c):
                t = 0.0
                for r in range(SPATIAL_NODE):
                    for ip in range(SPATIAL_NODE):
                        t += H[SPATIAL_NODE * r + j] * K[SPATIAL_NODE * r + ip] \
                            * H[SPATIAL_NODE * ip + k]
                Ec[SPATIAL_NODE * j + k] += t

    cdef void _ground_springs(self, double c_k, double c_c) noexcept nogil:
        """The joint spring-dampers' ``c_k k + c_c c`` on their links' diagonal of E (a
        spherical link's 3 x 3 block: :func:`ball_spring_block`), and the
        body blocks ``P^T K P`` (:func:`_body_block`, :func:`_spring_tangent`) of the
        spring-dampers to the ground, at Newton's kinematics."""
        cdef SpatialData* nd = &self.nd
        cdef double K[9]
        cdef double x[3]
        cdef double o[3]
        cdef int s, b, e, t
        for s in range(nd.n_joint_springs):
            # the whole joint block: an effort function's terms follow (_efforts)
            memset(&self.E[SPATIAL_BLOCK * nd.js_body[s]], 0, SPATIAL_BLOCK * sizeof(double))
        for s in range(nd.n_joint_springs):
            b = nd.js_body[s]
            if motion_rotation(nd.motion[b]) == R_VECTOR:
                t = translation_size(motion_translation(nd.motion[b]))
                ball_spring_block(nd.q + nd.q_offset[b] + t, nd.js_rest + 3 * s,
                                  nd.js_law + 3 * s, c_k, c_c,
                                  &self.E[SPATIAL_BLOCK * b + (SPATIAL_NODE + 1) * t])
            else:
                self.E[SPATIAL_BLOCK * b] += c_k * nd.js_law[3 * s] + c_c * nd.js_law[3 * s + 1]
        if nd.body_blocks == NULL:
            return
        memset(nd.body_blocks, 0, SPATIAL_BLOCK * nd.n * sizeof(double))
        for s in range(nd.n_springs):
            e = 1 if nd.s_body[2 * s] < 0 else 0
            b = nd.s_body[2 * s + e]
            if nd.s_body[2 * s + 1 - e] >= 0 or nd.s_arc[2 * s + e] >= 0:
                continue
            _spring_tangent(nd, s, c_k, c_c, K)
            spring_point(nd, s, e, x, o)
            _body_block(K, o, nd.body_blocks + SPATIAL_BLOCK * b)

    cdef int _spring_matrix(self, double c_k, double c_c) noexcept nogil:
        """The Woodbury terms of the spring-dampers between two bodies, after the elimination
        has factored ``S_0`` (everything else): ``S = S_0 + D^T K D`` with D (3 rows a
        spring-damper: the relative velocity of its points of the rates) and K block-diagonal
        (:func:`_spring_tangent`), so ``S^-1 = S_0^-1 - Z (I + K D Z)^-1 K D S_0^-1``, ``Z =
        S_0^-1 D^T``: 3 solves a spring-damper here, and :meth:`_precondition` adds one motion
        pass and a solve of order 3 per spring-damper to each solve. Returns -1 if ``I + K D Z``
        is singular."""
        cdef SpatialData* nd = &self.nd
        cdef int w = 3 * self.n_pairs, nq = nd.n_q
        cdef double e[3]
        cdef double u[3]
        cdef double* Z
        cdef int a, c, j, k, s
        self.woodbury = self.n_pairs > 0 and (c_k != 0.0 or c_c != 0.0)
        if not self.woodbury:
            return 0
        for a in range(self.n_pairs):
            s = self.pairs[a]
            _spring_tangent(nd, s, c_k, c_c, &self.Ks[9 * a])
            for c in range(3):
                Z = &self.Z[(3 * a + c) * nq]
                e[0], e[1], e[2] = 0.0, 0.0, 0.0
                e[c] = 1.0
                _spring_transposed(nd, s, e, &self.Wz[0], &self.full_a[0])
                memset(Z, 0, nq * sizeof(double))
                sweeps(nd, &self.full_a[0], False, Z)
        # I + K D Z, column by column
        for c in range(w):
            _rate_motion(nd, &self.Z[c * nq], &self.Vz[0])
            for a in range(self.n_pairs):
                _spring_rate(nd, self.pairs[a], &self.Vz[0], u)
                for j in range(3):
                    self.small[w * (3 * a + j) + c] = (1.0 if 3 * a + j == c else 0.0) + \
                        self.Ks[9 * a + 3 * j] * u[0] + self.Ks[9 * a + 3 * j + 1] * u[1] + \
                        self.Ks[9 * a + 3 * j + 2] * u[2]
        return _lu(&self.small[0], w, &self.pivots[0])

    cdef str _singular(self, int body, double c_m):
        """Why the joint block of a body is not positive definite, in words (a joint's, below
        the element and cable node codes, may lack stiffness in statics)."""
        kind = link_words(self.nd.motion[body])
        if c_m == 0.0 and self.nd.motion[body] < MOTION_ELEMENT:
            return (f"the link of body {body} ({kind}) has no stiffness: in statics a joint "
                    "that is neither held nor driven makes the model a mechanism, whose "
                    "equilibrium this Newton matrix cannot find (hold or drive it)")
        return f"the Newton matrix's joint block of body {body} ({kind}) is singular"

    def matrix(self, q_e, a_e, lam, v_e, double t_e, q_new, double t_new, double c_m,
               double c_mq, double c_k, double c_c, double w):
        """The symmetric Newton matrix ``c_m M(q_e) + blockdiag(c_k K + c_c D)`` (without the
        turning of the link wrenches: :meth:`newton_solve`'s) (n x n, dense) at these
        arguments of ``factor``, assembled column by column from ``mass_action``, the element
        blocks, the effort functions' (:meth:`_efforts`) and the spring-dampers' terms
        (:meth:`_dense_springs`), without the
        elimination: O(n^2), for tests and Python solvers. Not for a model with cables (their
        blocks couple nodes: ``newton_solve`` has them)."""
        self._forget()
        if self.nd.n_cable_elements:
            raise ValueError("matrix: not available for a model with cables (newton_solve "
                             "solves with their Newton matrix)")
        cdef double[::1] qq = _vector("q_e", q_e, self.n)
        cdef double[::1] vv = _vector("v_e", v_e, self.n)
        cdef double[::1] e = np.zeros(max(self.n, 1))
        cdef double[::1] col = np.zeros(max(self.n, 1))
        cdef SpatialData* nd = &self.nd
        cdef int j, i, k, r, s, off
        S = np.zeros((self.n, self.n))
        for j in range(self.n):
            e[j] = 1.0
            self.mass_action(&qq[0], t_e, &e[0], &col[0])
            e[j] = 0.0
            S[:, j] = c_m * np.asarray(col)[:self.n]
        self._at_time(t_e)
        _gather(nd, &qq[0], &vv[0])
        status = _element_blocks(nd, c_k, c_c, &self.E[0], &self.scratch[0])
        if status:
            raise ArithmeticError(self._turned_over(status, t_e))
        E = np.asarray(self.E)
        for i in range(nd.n):
            if nd.motion[i] == M_ELEMENT:
                idx = [nd.smap[k] for k in range(nd.q_offset[i], nd.q_offset[i + 1])]
                block = E[SPATIAL_BLOCK * i:SPATIAL_BLOCK * (i + 1)]
                S[np.ix_(idx, idx)] += block.reshape(SPATIAL_NODE, SPATIAL_NODE)
        if self.n_efforts:
            kinematics(nd, nd.q, nd.qd)
            self._slopes(t_e, c_k, c_c)
            links = [self.effort_body[k] for k in range(self.n_efforts)]
            for i in links:
                E[SPATIAL_BLOCK * i:SPATIAL_BLOCK * (i + 1)] = 0.0
            self._efforts(c_k, c_c, False)
            for i in links:
                idx = [nd.smap[j] for j in range(nd.q_offset[i], nd.q_offset[i + 1])]
                block = E[SPATIAL_BLOCK * i:SPATIAL_BLOCK * (i + 1)]
                S[np.ix_(idx, idx)] += \
                    block.reshape(SPATIAL_NODE, SPATIAL_NODE)[:len(idx), :len(idx)]
        self._dense_springs(S, c_k, c_c)
        return S

    cdef _dense_springs(self, S, double c_k, double c_c):
        """S += the spring-dampers' terms: ``c_k k + c_c c`` on a joint spring's coordinate,
        ``D^T K D`` of each between points (D assembled column by column from
        :func:`_rate_motion`), at Newton's workspace's q, qd."""
        cdef SpatialData* nd = &self.nd
        cdef double[::1] z = np.zeros(max(nd.n_q, 1))
        cdef double[::1] K = np.zeros(9)
        cdef double[::1] u = np.zeros(3)
        cdef double[::1] B = np.zeros(SPATIAL_BLOCK)
        cdef int s, j, k, i
        if not (nd.n_springs or nd.n_joint_springs):
            return
        kinematics(nd, nd.q, nd.qd)
        for s in range(nd.n_joint_springs):
            j = nd.q_offset[nd.js_body[s]]
            if motion_rotation(nd.motion[nd.js_body[s]]) == R_VECTOR:
                j += translation_size(motion_translation(nd.motion[nd.js_body[s]]))
                B[:] = 0.0
                ball_spring_block(nd.q + j, nd.js_rest + 3 * s, nd.js_law + 3 * s, c_k, c_c,
                                  &B[0])
                idx = [nd.smap[j + i] for i in range(3)]
                S[np.ix_(idx, idx)] += np.asarray(B).reshape(SPATIAL_NODE, SPATIAL_NODE)[:3, :3]
                continue
            k = nd.smap[j]
            S[k, k] += c_k * nd.js_law[3 * s] + c_c * nd.js_law[3 * s + 1]
        free = [k for k in range(nd.n_q) if nd.smap[k] >= 0]
        for s in range(nd.n_springs):
            _spring_tangent(nd, s, c_k, c_c, &K[0])
            D = np.zeros((3, self.n))
            for k in free:
                z[k] = 1.0
                _rate_motion(nd, &z[0], &self.Vz[0])
                z[k] = 0.0
                _spring_rate(nd, s, &self.Vz[0], &u[0])
                D[:, nd.smap[k]] = u
            S += D.T @ np.asarray(K).reshape(3, 3) @ D

    cdef int solve(self, double* x) except -1:
        """x (n) <- the Newton step: ``S^-1 x`` (:meth:`_precondition`), or with
        :attr:`krylov` the solution of ``J y = x`` by GMRES (:meth:`_gmres`), J the Jacobian of
        the step residual at the last residual's point."""
        if self._krylov and not self.exact:
            return self._gmres(x)
        return self._precondition(x)

    cdef int _jacobian_action(self, const double* z, double* out) except -1:
        """out (n) <- ``J z``, the derivative of the last residual ``c_m' M(q) a - c_f' F(q, v,
        t)`` (point and coefficients as :meth:`dynamic_residual` kept them) along ``dq = (c_k /
        c_f') z``, ``dv = (c_c / c_f') z``, ``da = (c_m / c_m') z`` (c_m, c_k, c_c of the last
        :meth:`factor`): the loop's q, v and a move so with its unknown, and ``c_m' c_k / c_f'``
        is the factor's c_mq. Differences of fourth order, ``(8 (R(h) - R(-h)) - (R(2 h) -
        R(-2 h))) / (12 h)``, with the coordinates moved by ``h = DIFFERENCE_STEP (1 + max
        |q|)`` at most (error of order h^4; the central difference's, of order h^2, is a false
        tension along a stiff cable's turn: module docstring). Four residuals a product."""
        cdef int i, n = self.n
        cdef double sq = self.c_k / self.lin_cf, sv = self.c_c / self.lin_cf
        cdef double sa = self.c_m / self.lin_cm if self.lin_cm != 0.0 else 0.0
        cdef double size = fabs(sq) * _amax(z, n)
        cdef double e, h
        cdef int m
        if size == 0.0:
            memset(out, 0, n * sizeof(double))
            return 0
        e = DIFFERENCE_STEP * (1.0 + _amax(&self.lin_q[0], n)) / size
        memset(out, 0, n * sizeof(double))
        for m in range(STENCIL):
            h = _SHIFT[m] * e
            for i in range(n):
                self.kq[i] = self.lin_q[i] + h * sq * z[i]
                self.kv[i] = self.lin_v[i] + h * sv * z[i]
                self.ka[i] = self.lin_a[i] + h * sa * z[i]
            self._residual(&self.kq[0], &self.kv[0], self.lin_t, &self.ka[0], self.lin_cm,
                           self.lin_cf, &self.kr[0], True)
            for i in range(n):
                out[i] += _WEIGHT[m] / (12.0 * e) * self.kr[i]
        self.krylov_iterations += 1
        return 0

    cdef int _gmres(self, double* x) except -1:
        """x (n) <- y with ``J y = x`` (:meth:`_jacobian_action`) by restarted GMRES, right
        preconditioned by S (``J S^-1 u = x``, ``y = S^-1 u``), from y = 0, until the linear
        residual is below ``KRYLOV_TOL`` times x's (2-norms), or after ``CYCLES`` cycles of
        ``RESTART`` vectors (the best y so far: Newton goes on from it)."""
        cdef int n = self.n, m = RESTART
        cdef double* V = &self.kV[0]
        cdef double* H = &self.kH[0]
        cdef double* g = &self.kg[0]
        cdef double* b = &self.kb[0]
        cdef double* y = &self.ky[0]
        cdef double* u = &self.ku[0]
        cdef double beta0, beta, goal
        cdef int cycle, i, j, k, stop
        memcpy(b, x, n * sizeof(double))
        memset(y, 0, n * sizeof(double))
        beta0 = sqrt(_dot(b, b, n))
        goal = KRYLOV_TOL * beta0
        memcpy(V, b, n * sizeof(double))       # the first cycle's residual: y = 0
        beta = beta0
        for cycle in range(CYCLES):
            if beta <= goal:
                break
            for i in range(n):
                V[i] /= beta
            memset(g, 0, (m + 1) * sizeof(double))
            g[0] = beta
            k = 0
            for j in range(m):
                memcpy(u, V + j * n, n * sizeof(double))
                self._precondition(u)
                self._jacobian_action(u, V + (j + 1) * n)
                with nogil:
                    stop = _arnoldi(V, H, &self.kcs[0], &self.ksn[0], g, j, n, m)
                k = j + 1
                if stop or fabs(g[k]) <= goal:
                    break
            beta = fabs(g[k])
            with nogil:
                _combine(V, H, g, k, n, m, u)
            self._precondition(u)
            for i in range(n):
                y[i] += u[i]
            if beta <= goal or cycle == CYCLES - 1:
                break
            # the next cycle starts from the true residual b - J y
            self._jacobian_action(y, u)
            for i in range(n):
                V[i] = b[i] - u[i]
            beta = sqrt(_dot(V, V, n))
        memcpy(x, y, n * sizeof(double))
        return 0

    cdef int _precondition(self, double* x) except -1:
        """x (n) <- ``S^-1 x`` by the two sweeps of the factored elimination, in place without
        drives (:attr:`identity`; the sweeps read all of their right-hand side before they
        write the solution)."""
        cdef SpatialData* nd = &self.nd
        cdef int k, s
        if self.identity:
            with nogil:
                sweeps(nd, x, False, x)
                if self.woodbury:
                    self._spring_correction(x)
            return 0
        with nogil:
            for k in range(nd.n_q):
                s = nd.smap[k]
                self.full_a[k] = x[s] if s >= 0 else 0.0
            sweeps(nd, &self.full_a[0], False, &self.full_out[0])
            if self.woodbury:
                self._spring_correction(&self.full_out[0])
            for k in range(nd.n_q):
                s = nd.smap[k]
                if s >= 0:
                    x[s] = self.full_out[k]
        return 0

    cdef void _spring_correction(self, double* x) noexcept nogil:
        """x (n_q) <- ``x - Z (I + K D Z)^-1 K D x`` for ``x = S_0^-1 r`` (:meth:`_spring_matrix`):
        then x is ``S^-1 r``."""
        cdef SpatialData* nd = &self.nd
        cdef int w = 3 * self.n_pairs, nq = nd.n_q
        cdef double u[3]
        cdef int a, j, c, k
        _rate_motion(nd, x, &self.Vz[0])
        for a in range(self.n_pairs):
            _spring_rate(nd, self.pairs[a], &self.Vz[0], u)
            for j in range(3):
                self.ys[3 * a + j] = self.Ks[9 * a + 3 * j] * u[0] + \
                    self.Ks[9 * a + 3 * j + 1] * u[1] + self.Ks[9 * a + 3 * j + 2] * u[2]
        _lu_solve(&self.small[0], w, &self.pivots[0], &self.ys[0])
        for c in range(w):
            for k in range(nq):
                x[k] -= self.Z[c * nq + k] * self.ys[c]

    cdef int power(self, const double* q, const double* v, const double* a, double t,
                   const double* lam, double* p) except -1:
        """p[0] the power of loads, efforts and drives, p[1] the power the element damping
        dissipates (W) at the state (q, v, a, t) (rancf/formulations/_spatial_energy.pyx),
        for the loop's trapezoidal work integrals. The loads', efforts' and damping's follow
        from the kinematics and the forces (:meth:`_state`, which the next step's old-step
        residual then reuses); only a drive's needs the link wrench its parent exerts, the
        residual's recursion ``M a - F`` at the state, which runs only where a link is driven
        (it is two passes over the chain's workspace). Statics tracks no work (returns 1)."""
        cdef SpatialData* d = self.d
        if self.static:
            return 1
        self.keep = True
        self._state(q, v, t, 1.0)
        if d.n_free < d.n_q:
            self._recursion(a, 1.0, 1.0, &self.power_out[0])
        with nogil:
            p[0] = applied_power(d) + drive_power(d, False)
            p[1] = d.dissipation
        return 0

    cdef int recentre(self, double* q, double* v, double* a) except -1:
        """Rotation vectors of spherical and free links past pi re-centred (``_recentre``);
        the accelerations of the step just accepted kept for the turning terms of the next
        Newton matrices (:meth:`factor`). Returns 1 if a rotation vector was re-centred."""
        cdef int changed = _recentre(self.d, q, v, a)
        if self.n:
            memcpy(&self.accepted_a[0], a, self.n * sizeof(double))
            self.has_accel = True
        self.within_step = False
        return changed

    # --- Python level -----------------------------------------------------------------------
    def recentred(self, q, v, a):
        """Copies of (q, v, a) (n,) with their rotation vectors re-centred (as the loop does
        after every accepted step)."""
        self._forget()
        cdef double[::1] qq = _vector("q", q, self.n)
        cdef double[::1] vv = _vector("v", v, self.n)
        cdef double[::1] aa = _vector("a", a, self.n)
        _recentre(self.d, &qq[0], &vv[0], &aa[0])
        return np.asarray(qq), np.asarray(vv), np.asarray(aa)

    def chart_step(self, q0, q1):
        """The displacement (n,) of a step from ``q0`` to ``q1`` (n,) in ``q0``'s chart: each
        spherical or free link's rotation vector p1 of ``q1`` taken as its other
        representative ``p1 (1 - 2 pi / |p1|)`` (the same rotation) where that is nearer
        ``q0``'s p0. Why: the loop re-centres a rotation vector that a step carried past
        ``|p| = pi`` (``_recentre``), so that ``q1 - q0`` there is nearly a full turn, 2 pi
        less twice the step, for a step of a few degrees (statics' damped steps refused such
        steps as too long, and stalled at a link half a turn from its reference)."""
        cdef double[::1] a0 = _vector("q0", q0, self.n)
        cdef double[::1] a1 = _vector("q1", q1, self.n)
        cdef SpatialData* d = self.d
        cdef double other[3]
        cdef double r, s, near, far
        cdef int i, j, k, m
        for i in range(d.n):
            m = d.motion[i]
            if i >= d.nb or m == M_ELEMENT or motion_rotation(m) != R_VECTOR:
                continue
            k = d.smap[d.q_offset[i] + translation_size(motion_translation(m))]
            r = sqrt(a1[k] * a1[k] + a1[k + 1] * a1[k + 1] + a1[k + 2] * a1[k + 2])
            if r == 0.0:
                continue
            s = 1.0 - 2.0 * M_PI / r
            near, far = 0.0, 0.0
            for j in range(3):
                other[j] = s * a1[k + j]
                near += (other[j] - a0[k + j]) ** 2
                far += (a1[k + j] - a0[k + j]) ** 2
            if near < far:
                for j in range(3):
                    a1[k + j] = other[j]
        return np.asarray(a1)[:self.n] - np.asarray(a0)[:self.n]

    def residual(self, q, v, double t, a, double c_m=1.0, double c_f=1.0):
        """``c_m M(q) a - c_f F(q, v, t)`` (n,) (tests)."""
        self._forget()
        cdef double[::1] qq = _vector("q", q, self.n)
        cdef double[::1] vv = _vector("v", v, self.n)
        cdef double[::1] aa = _vector("a", a, self.n)
        cdef double[::1] out = np.zeros(max(self.n, 1))
        self.dynamic_residual(&qq[0], &vv[0], t, &aa[0], c_m, c_f, &out[0])
        return np.asarray(out)[:self.n].copy()

    def static_stable(self):
        """Whether the last factorization was statics' direct matrix (:attr:`exact_static`)
        at load factor 1 under loads with a potential (gravity, forces of fixed direction: no
        follower load, no moment fixed in space, no effort function, whose slope need not be
        symmetric; no spring-damper between two bodies, whose Woodbury term the pivots do not
        see) and every pivot of its elimination is
        positive. That matrix is then the Hessian of the potential in the link coordinates,
        symmetric, and the block elimination a congruence whose LU blocks, unpivoted, are
        its LDL^T: by Sylvester's law of inertia it is positive definite, the equilibrium a
        strict minimum of the potential (stable; the spatial DAE's test,
        rancf/integrators/static.py ``_leave_unstable_equilibrium``, finds no negative
        omega^2 there). False says nothing: that test decides."""
        cdef SpatialData* nd = &self.nd
        cdef int i, k
        if not (self.static_factored and self.conservative and not self.n_efforts
                and not self.woodbury and self.factored_load_factor == 1.0):
            return False
        for i in range(nd.nb):
            for k in range(_unknowns(nd, i)):
                if not nd.L[SPATIAL_BLOCK * i + (SPATIAL_NODE + 1) * k] > 0.0:
                    return False
        return True

    def newton_solve(self, q, v, double t, r, double c_m, double c_k, double c_c):
        """``S^-1 r`` (n,) by the O(n) elimination, S the symmetric Newton matrix at (q, v, t)
        with these coefficients, without the turning of the link wrenches (which needs the
        accelerations: :meth:`step_solve` has it) nor statics' (:attr:`static_turning`) (tests;
        :meth:`matrix` assembles the same S)."""
        self._forget()
        cdef double[::1] qq = _vector("q", q, self.n)
        cdef double[::1] vv = _vector("v", v, self.n)
        cdef double[::1] x = _vector("r", r, self.n)
        turning, self.turning = self.turning, False
        exact, self.exact_static = self.exact_static, False
        turned, self.static_turning = self.static_turning, False
        try:
            self.factor(&qq[0], &qq[0], NULL, &vv[0], t, &qq[0], t, c_m, 0.0, c_k, c_c, 1.0)
        finally:
            self.turning, self.exact_static, self.static_turning = turning, exact, turned
        self._precondition(&x[0])
        return np.asarray(x)[:self.n].copy()

    def step_solve(self, q, v, double t, a, r, double c_res_m, double c_res_f, double c_m,
                   double c_k, double c_c):
        """The loop's Newton step (n,) at a point (tests): the residual ``c_res_m M(q) a -
        c_res_f F(q, v, t)`` evaluated there, the Newton matrix factored there with (c_m, c_k,
        c_c), then :meth:`solve` of r: with :attr:`krylov` ``J^-1 r``, J the derivative of that
        residual along ``(dq, dv, da) = (c_k / c_res_f, c_c / c_res_f, c_m / c_res_m) dx``.
        With :attr:`turning` the matrix turns the link wrenches at a (the loop, after its first
        step, at the last accepted accelerations)."""
        self._forget()
        cdef double[::1] qq = _vector("q", q, self.n)
        cdef double[::1] vv = _vector("v", v, self.n)
        cdef double[::1] aa = _vector("a", a, self.n)
        cdef double[::1] x = _vector("r", r, self.n)
        cdef double[::1] out = np.zeros(max(self.n, 1))
        self.dynamic_residual(&qq[0], &vv[0], t, &aa[0], c_res_m, c_res_f, &out[0])
        self.at_iterate = True
        try:
            self.factor(&qq[0], &aa[0], NULL, &vv[0], t, &qq[0], t, c_m,
                        c_res_m * c_k / c_res_f, c_k, c_c, c_res_f)
        finally:
            self.at_iterate = False
        self.solve(&x[0])
        return np.asarray(x)[:self.n].copy()

    def static_reactions(self, q, double t):
        """The joints' reactions (n_joints, 6) at an equilibrium q under the loads scaled by
        :attr:`load_factor` (:meth:`rancf.formulations.spatial.Spatial.reactions`' layout): the
        link wrench ``W_i = -f_i + sum X_c^T W_c`` of the Newton-Euler recursion at rest, moved
        from the child's origin to the joint point."""
        self._forget()
        cdef double[::1] qq = _vector("q", q, self.n)
        cdef double[::1] out = np.zeros(max(self.n, 1))
        self.dynamic_residual(&qq[0], &self.zero[0], t, &self.zero[0], 0.0, 1.0, &out[0])
        a, n = self.kernel.arrays, self.kernel.n_bodies
        return self.owner.joint_reactions(a["pA"][:SPATIAL_NODE * n].reshape(n, SPATIAL_NODE))

    def observe(self, q, v, a, t, lam):
        """The outputs of the formulation (:meth:`rancf.formulations.spatial.Spatial.observe`)
        at the state (q, v, t); in statics the reactions of the loads scaled by
        :attr:`load_factor` (:meth:`static_reactions`)."""
        self._forget()
        y = np.concatenate([np.asarray(q, dtype=float), np.asarray(v, dtype=float)])
        # in statics the owner's reactions (those of the motion, a kernel evaluation) give way
        # to static_reactions': asked deferred, the owner leaves them uncomputed (but where
        # input functions of t are to be read at t: computed, as a run's)
        seen = self.owner.observe(np.array([t]), y[None], None, deferred=self.static)
        self.last_t = np.nan        # the owner wrote the inputs at t, without the statics' hold
        if self.static:
            seen.pop("reactions")
        out = {k: np.asarray(value)[0] for k, value in seen.items()}
        if self.static:
            out["reactions"] = self.static_reactions(q, t).ravel()
        return out

    def keep_inputs(self, long k, double t, const double[::1] q, const double[::1] v):
        """Keeps the values the model's input functions give at the implicit loop's output k,
        the converged state (q, v) (n) at t (one :class:`~rancf.formulations.inputs.Recorded`
        row, :meth:`rancf.formulations.spatial.Inputs.keep`): the loop's power took the
        residual there, so the inputs' arrays hold them (copied, no function called); where
        the last residual with forces was elsewhere (generalized-alpha-S's intermediate
        point), the efforts are evaluated once at the output. Output 0 starts a new run's
        record."""
        cdef size_t size = self.n * sizeof(double)
        if k == 0:
            self.kept_rows = []
        if self.static or not (self.timed or self.effort_timed):
            return
        self._at_time(t)
        if self.effort_timed and not (
                self.n == 0 or (self.kept and self.kept_forces and t == self.kept_t
                                and self.kept_lf == 1.0
                                and memcmp(&q[0], &self.kept_q[0], size) == 0
                                and memcmp(&v[0], &self.kept_v[0], size) == 0)):
            self.keep = True
            self.dynamic_residual(&q[0], &v[0], t, &self.zero[0], 1.0, 1.0, &self.power_out[0])
        del self.kept_rows[k:]
        self.kept_rows.append(self.inputs.keep())

    def observe_frames(self, t, q, v, a, lam, branches):
        """:meth:`observe` of every stored output in one call of the formulation's
        (:meth:`rancf.formulations.spatial.Spatial.observe`), the reactions and the energies
        deferred to when the Result is asked for them (developer: Results, files and sweeps);
        statics keeps the
        per-output path (its reactions are the scaled loads', :meth:`static_reactions`)."""
        self._forget()
        if self.static:
            return StepProblem.observe_frames(self, t, q, v, a, lam, branches)
        m = len(t)
        q, v = np.asarray(q, dtype=float).reshape(m, -1), np.asarray(v, dtype=float).reshape(m, -1)
        # the states (q, v) stacked when the Result first needs them, not here: a run's
        # outputs of a few MB are not copied before they are read
        kept = self.kept_rows[:m] if len(self.kept_rows) >= m else None
        seen = self.owner.observe(np.asarray(t, dtype=float),
                                  lambda: np.concatenate([q, v], axis=1), None, deferred=True,
                                  deferred_energies=True, kept=kept)
        self.last_t = np.nan        # the owner wrote the inputs, without the statics' hold
        return seen

    def newton_advice(self):
        """What to try where Newton does not contract (module docstring): the matrix leaves
        out the gyroscopic terms and the loads' own turning, and the turning of the link
        wrenches unless :attr:`turning` is set (then it takes them at the last step's
        accelerations), all of which a smaller step makes smaller; a stiff mode the step does
        not resolve curves the step's equations in relative coordinates beyond any matrix,
        where the spatial DAE, in absolute coordinates, runs."""
        left = ("the gyroscopic terms and the loads' own turning and takes the turning of the "
                "inertia forces at the last step's accelerations" if self.turning else
                "the gyroscopic terms, the loads' own turning and the turning of the inertia "
                "forces")
        return (f"this formulation's Newton matrix leaves out {left}, which a smaller step "
                "makes closer; where "
                "the step does not resolve a stiff mode (a stiff spring on a node's small "
                "rotary inertia), formulation 'dae' (absolute coordinates) may run")
