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

Method. The rows split into a base that is independent by construction and the groups checked.
The base is each body's own row (its Euler parameters' or axis's norm) and the rows of the
tree's joints: each holds its child, whose columns no joint before it touches, so the base is
block triangular with full-rank diagonal blocks (the recursion, which runs the tree, never has
a redundant joint). The groups are the rows of the joints that close loops, one group a joint,
in the order the joints were added. With A the base's rows and L the groups',
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
        than its rows, in the order of ``groups``; None when the base itself is singular (a
        degenerate tree joint: nothing is named).
    """
    groups = [(label, np.asarray(rows, dtype=int)) for label, rows in groups]
    groups = [(label, rows) for label, rows in groups if rows.size]
    if not groups:
        return []
    J = sp.csr_matrix(jacobian, dtype=float)
    n = J.shape[1]
    scale = np.ones(n)
    scale[np.asarray(position_columns, dtype=int)] = size
    J = J @ sp.diags(scale)
    norms = np.sqrt(np.asarray(J.multiply(J).sum(axis=1)).ravel())
    J = sp.diags(1.0 / np.where(norms > 0.0, norms, 1.0)) @ J
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
    found : list of Redundancy
        Not empty.
    words : callable
        A joint's label in words (``"joint 3 (a revolute joint)"``).
    kinds : str
        The joint kinds that hold fewer directions, for the advice (the dimension's).
    """
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
