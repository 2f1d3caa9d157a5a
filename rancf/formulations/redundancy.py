"""Redundant joints: the joints of a closed loop that hold a direction others already hold
(theory: The spatial DAE formulation, and The DAE formulation).

A DAE formulation's constraint Jacobian ``Phi_x`` (m x n) has full row rank unless some rows
are combinations of others: a joint repeated on one child, a door on two ball joints (the
distance between them held twice), a rigid spherical four-bar of four revolute joints (three rows
too many). Newton's matrix ``[[K, Phi_x^T], [Phi_x, 0]]`` is then singular, and a run, a static
solution or a modal analysis fails at its first factorization with a pivot that names no joint;
the multipliers of such rows, and so the reactions, are not determined by the model. A
formulation runs :func:`redundant_joints` once, when it is made, at the model's reference
configuration, and refuses the model with :func:`refuse` naming the joints.

Check first (:func:`full_rank`), name only a model that fails it. With ``D Phi_x`` the rows
scaled (below), the Gram matrix ``G = D Phi_x Phi_x^T D`` (m x m, unit diagonal, the pattern of
the rows that share a coordinate) is factored once, ``G = L diag(d) L^T`` in a fill-reducing
symmetric order (SuperLU with diagonal pivots). For symmetric positive definite G every pivot
is ``d_k = 1 / (G_k^-1)_kk >= lambda_min(G) = sigma_min^2``, ``G_k`` the leading k x k block in
that order, and ``d_k`` is the squared distance of row k from the rows before it in that order:
rows that repeat exactly leave a pivot of round-off (or none, SuperLU then reports G singular
or leaves the diagonal; G's own round-off, about 1e-16, resolves singular values down to 1e-8,
below tol). A pivot at or below ``tol^2`` of its diagonal entry sends the model to the naming
routine (:func:`named_groups`, below); so does an estimate of ``||G^-1||_1`` (Hager's,
``scipy.sparse.linalg.onenormest``, a few solves with the factors) above ``0.1 / tol^2``:
``||G^-1||_1 >= ||G^-1||_2 = 1 / sigma_min^2``, so rows nearly dependent with no small pivot
(which can happen: each row far from the span of those before it while a combination of all is
small, as in Kahan's triangular matrix, tests/test_redundant_joints.py) are caught too, up to
the estimate falling short of the true norm by more than its margin of 10 (it is a lower bound,
in practice within a factor 3). Otherwise the rows have full rank with ``sigma_min > tol`` (the
estimate taken as the norm): nothing is named and nothing is lost. The factors cost O(m) where
G stays near block diagonal, as on a cable with a body on a ball joint at each node (1000
elements: m = 4002 rows, G 6000 entries, L and U 10002), where the naming routine's Gram-
Schmidt is O(n r^2). The check refuses only through the naming routine, so it refuses what that
routine refuses and, but for the estimate's shortfall, accepts what it accepts. What both
accept: rows nearly dependent (sigma_min below tol) where no group's rows, projected off the
base and the groups before them, have a singular value below tol (the Kahan rows in their
natural order): the naming routine judges each group against those before it. When the base
itself is exactly singular (a degenerate tree joint) the routine returns None and
:func:`refuse` refuses the model naming no joint.

Method of naming. The rows split into a base that is independent by construction and the groups
checked. The base is each body's own row (its Euler parameters' or axis's norm) and the rows of
the tree's joints: each holds its child, whose columns no joint before it touches, so the base
is block triangular with full-rank diagonal blocks (the recursion, which runs the tree, never
has a redundant joint). The groups are the rows of the joints that close loops, one group a
joint, in the order the joints were added. With A the base's rows and L the groups',
``rank [A; L] = rank A + rank (L P)``, ``P = I - A^T (A A^T)^-1 A`` the projector on A's null
space (the tree's motions): ``A A^T`` is sparse with the tree's pattern and is factored once
(SuperLU), and the r rows of L are projected by one solve with r right-hand sides, O(n r) where
a tree's fill-in stays O(n). The projected groups are then taken in order, each orthogonalized
against the directions of those before it (Gram-Schmidt, twice): a group whose rows raise the
rank by fewer than their number holds a direction that the base and the groups before it hold.
Cost O(n r^2) beyond the factorization, not the O(m^2 n) of a dense SVD of ``Phi_x`` (a
1000-element beam closing a loop has m = 1001 + r rows on n = 7007 columns).

Scaling and tolerance. Position columns are multiplied by the model size (the columns are then
dimensionless, as the Euler parameters, axes and slopes are) and each row is scaled to unit
length, so a projected row's length is the sine of its angle to the rows before it. A group
raises the rank by its singular values above :data:`RANK_TOLERANCE` (1e-6). Rows that repeat
exactly leave round-off there (1e-16 to 1e-12); a model's builder lets a loop close to 1e-9 of
the model size, which leaves rows built to repeat about that far apart; independent rows leave
O(1) unless the reference configuration lies within about 1e-6 rad of a singular one, where
Newton's matrix is as good as singular (its smallest eigenvalue goes as the square of the
smallest singular value of ``Phi_x``: a condition number of 1e12 there). The check is at the
reference configuration: a loop built in a configuration that is singular by its geometry (a
four-bar folded flat) is refused, as a run from there would fail.
"""
from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

#: Singular value (of rows scaled to unit length, positions in model sizes) at or below which a
#: joint's row is taken as held by the rows before it (module docstring: why 1e-6)
RANK_TOLERANCE = 1e-6


class Redundancy(NamedTuple):
    """A joint whose rows raise the rank of the rows before it by fewer than their number.

    Attributes
    ----------
    joint : int
        Its label (the formulation's: a joint's index in the model).
    n_rows : int
        Its constraint rows.
    n_repeated : int
        How many of them repeat (n_rows less the rank they add).
    joints : tuple of int
        The labels of every joint whose rows enter the repeated combinations (itself included),
        ascending.
    """

    joint: int
    n_rows: int
    n_repeated: int
    joints: tuple


def redundant_joints(jacobian, position_columns, size, base_rows, base_labels, groups,
                     tol=RANK_TOLERANCE):
    """The groups of rows that repeat directions of the rows before them (module docstring).

    Parameters
    ----------
    jacobian : scipy.sparse matrix (m, n)
        ``Phi_x`` at the reference configuration.
    position_columns : int array
        The columns that are positions (m); multiplied by ``size``.
    size : float
        The model size (m), > 0.
    base_rows : int array
        Rows independent by construction (the bodies' norms, the tree's joints).
    base_labels : int array (len(base_rows),)
        Each base row's joint label, -1 for a body's own row.
    groups : sequence of (label, int array)
        Each checked joint's label and rows, in the order they are added.
    tol : float
        :data:`RANK_TOLERANCE`.

    Returns
    -------
    list of Redundancy
        Empty when ``Phi_x`` has full row rank; else one per group that adds fewer directions
        than its rows, in the order of ``groups``; None when the base itself is exactly
        singular (a degenerate tree joint: nothing is named, and :func:`refuse` refuses it
        so).
    """
    groups = [(label, np.asarray(rows, dtype=int)) for label, rows in groups]
    groups = [(label, rows) for label, rows in groups if rows.size]
    if not groups:
        return []
    J = sp.csr_matrix(jacobian, dtype=float)
    scale = np.ones(J.shape[1])
    scale[np.asarray(position_columns, dtype=int)] = size
    J = J @ sp.diags(scale)
    norms = np.sqrt(np.asarray(J.multiply(J).sum(axis=1)).ravel())
    J = (sp.diags(1.0 / np.where(norms > 0.0, norms, 1.0)) @ J).tocsr()
    if full_rank(J, tol):
        return []
    return named_groups(J, base_rows, base_labels, groups, tol)


def full_rank(J, tol=RANK_TOLERANCE):
    """True when the scaled rows ``J`` (m x n, sparse, rows of unit length) are shown to have
    full row rank with every singular value above ``tol``; False when that is not shown
    (:func:`named_groups` then decides). Module docstring: the Gram matrix's pivots.

    Parameters
    ----------
    J : scipy.sparse.csr_matrix (m, n)
        The rows, each of unit length (or zero).
    tol : float
        :data:`RANK_TOLERANCE`.
    """
    G = (J @ J.T).tocsc()
    try:
        lu = spla.splu(G, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                       options={"SymmetricMode": True})
    except RuntimeError:            # a pivot exactly zero
        return False
    if not np.array_equal(lu.perm_r, lu.perm_c):     # SuperLU left the diagonal: a zero there
        return False
    pivots = lu.U.diagonal()
    diagonal = G.diagonal()[np.argsort(lu.perm_c)]   # U's k-th pivot is G's entry perm_c^-1[k]
    if not (np.all(np.isfinite(pivots)) and np.all(pivots > tol ** 2 * diagonal)):
        return False
    # every pivot >= lambda_min(G), but not conversely: the estimate of ||G^-1||_1 >=
    # ||G^-1||_2 = 1 / sigma_min^2 sends a set of rows nearly dependent with no small pivot
    # (a margin of 10 for the estimate's own shortfall) to the naming routine
    inverse = spla.LinearOperator(G.shape, matvec=lu.solve, rmatvec=lu.solve, dtype=float)
    # onenormest draws its start from NumPy's global generator: from a fixed seed, so that the
    # verdict does not depend on the user's stream, which is put back as it was
    state = np.random.get_state()
    try:
        np.random.seed(0)
        estimate = spla.onenormest(inverse)
    finally:
        np.random.set_state(state)
    return bool(estimate < 0.1 / tol ** 2)


def named_groups(J, base_rows, base_labels, groups, tol=RANK_TOLERANCE):
    """The groups of the scaled rows ``J`` (:func:`redundant_joints`'s, its rows of unit
    length) that repeat directions of the rows before them, by projection on the base's null
    space and Gram-Schmidt in the groups' order (module docstring); the arguments and the
    result are :func:`redundant_joints`'s, ``groups`` without empty ones. Cost O(n r^2) for r
    rows in the groups: run on a model that :func:`full_rank` does not pass."""
    n = J.shape[1]
    base_rows = np.asarray(base_rows, dtype=int)
    base_labels = np.asarray(base_labels, dtype=int)
    A = J[base_rows].tocsr()
    rows = np.concatenate([r for _, r in groups])
    L = J[rows].toarray()
    if A.shape[0]:
        try:
            lu = spla.splu((A @ A.T).tocsc())
        except RuntimeError:        # exactly singular: a tree joint that holds nothing
            return None
        W = L - (A.T @ lu.solve(np.asarray(A @ L.T))).T
    else:
        lu, W = None, L
    starts = np.cumsum([0] + [r.size for _, r in groups])
    basis = np.zeros((0, n))
    found = []
    for g, (label, r) in enumerate(groups):
        part = W[starts[g]:starts[g + 1]]
        residual = part
        for _ in range(2):
            residual = residual - (residual @ basis.T) @ basis
        # the SVD of the group's few rows through the QR of their transpose: LAPACK's SVD
        # of the wide rows themselves is far slower at thousands of columns
        Qr, Rr = np.linalg.qr(residual.T)
        U, s, Vt = np.linalg.svd(Rr.T)
        Vt = Vt @ Qr.T
        k = int((s > tol).sum())
        if k < r.size:
            joints = _partners(U[:, k:], L[starts[g]:starts[g + 1]], part, W[:starts[g]],
                               L[:starts[g]], A, lu, base_labels,
                               np.repeat([lab for lab, _ in groups[:g]],
                                         [rr.size for _, rr in groups[:g]]), tol)
            found.append(Redundancy(int(label), int(r.size), int(r.size - k),
                                    tuple(sorted(joints | {int(label)}))))
        basis = np.vstack([basis, Vt[:k]])
    return found


def _partners(U, L_g, W_g, W_before, L_before, A, lu, base_labels, labels_before, tol):
    """The labels of the rows that the repeated combinations ``U^T L_g`` are made of:
    ``U^T L_g = A^T y_A + L_before^T y_L``, ``y_L`` the least-squares solution in the
    projected rows (``W_before^T y_L = U^T W_g``) and ``y_A`` the base's share; a label enters
    with a coefficient above 1e-6 of the largest (the rest is round-off)."""
    target = U.T @ L_g                                      # (d, n)
    if W_before.shape[0]:
        y_L = np.linalg.lstsq(W_before.T, (U.T @ W_g).T, rcond=tol)[0]       # (r_before, d)
        target = target - (L_before.T @ y_L).T
    else:
        y_L = np.zeros((0, U.shape[1]))
    y_A = lu.solve(np.asarray(A @ target.T)) if lu is not None else np.zeros((0, U.shape[1]))
    weight = np.concatenate([np.abs(y_A).max(axis=1, initial=0.0),
                             np.abs(y_L).max(axis=1, initial=0.0)])
    labels = np.concatenate([base_labels, labels_before]).astype(int)
    keep = (weight > 1e-6 * weight.max(initial=0.0)) & (labels >= 0)
    return set(int(j) for j in labels[keep])


def refuse(found, words, kinds):
    """Raise the ValueError that names the redundant joints of :func:`redundant_joints`.

    Parameters
    ----------
    found : list of Redundancy, or None
        Not empty; None (the base itself singular) is refused naming no joint.
    words : callable
        A joint's label in words (``"joint 3 (a revolute joint)"``).
    kinds : str
        The joint kinds that hold fewer directions, for the advice (the dimension's).
    """
    if found is None:
        raise ValueError(
            "redundant joints: in the reference configuration, the constraint rows of the "
            "tree's joints and the bodies' own rows are rank-deficient (a joint of the tree "
            "that holds nothing or holds a direction twice at its reference geometry: the "
            "constraint Jacobian is rank-deficient, so Newton's matrix is singular); no joint "
            "is named. Check the tree's joints' points and axes")
    first = found[0]
    others = [j for j in first.joints if j != first.joint]
    held = f"by {_named(others, words)}" if others else "by its own other rows"
    more = (f"; {_named([f.joint for f in found[1:]], words)} also repeat directions held "
            "before them" if found[1:] else "")
    raise ValueError(
        f"redundant joints: in the reference configuration, {first.n_repeated} of the "
        f"{first.n_rows} directions that {words(first.joint)} holds "
        f"{'is' if first.n_repeated == 1 else 'are'} held already {held} "
        f"(its constraint rows are combinations of theirs: the constraint Jacobian is "
        f"rank-deficient, so Newton's matrix is singular and the reactions are not "
        f"determined){more}. Make one of joints {_numbers(first.joints)} a "
        f"joint that holds fewer directions ({kinds}), remove one, or make a link between them "
        f"flexible (a beam)")


def _named(labels, words, most=4):
    """Labels in words, or past ``most`` their count and numbers."""
    if len(labels) > most:
        return f"the {len(labels)} joints {_numbers(labels)}"
    return _listed([words(j) for j in labels])


def _numbers(labels, most=6):
    """Labels as numbers, the middle of a long list left out."""
    labels = [str(j) for j in labels]
    if len(labels) > most:
        return ", ".join(labels[:most - 2]) + ", ... , " + labels[-1]
    return _listed(labels)


def _listed(items):
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
