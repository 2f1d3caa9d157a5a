"""The spanning tree of a model's joints, planar and spatial alike.

Items (beams, then rigid bodies) are numbered from 0, the ground -1; a joint is the edge
``(parent item, child item)``. A model runs when every item hangs from the ground by some chain
of joints (:func:`grounded`, the joints' directions ignored); the recursion's tree follows the
joints from parent to child, in the order they were added (:func:`spanning_tree`), and the
joints it leaves out close loops.
"""
import collections


def grounded(edges):
    """The items a chain of joints ``edges`` (list of (a, b) item pairs) connects to the
    ground, whichever way each joint is written: a set holding -1 and those items (adjacency
    lists, linear in the joints)."""
    neighbours = collections.defaultdict(list)
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    seen, frontier = {-1}, [-1]
    while frontier:
        u = frontier.pop()
        for v in neighbours[u]:
            if v not in seen:
                seen.add(v)
                frontier.append(v)
    return seen


def spanning_tree(edges):
    """The tree from the ground along the joints ``edges``, each followed from its parent to
    its child, a joint taken where it first reaches an item (sweeps over the joints in the
    order added, until none reaches a new item).

    Returns
    -------
    order : list of int
        The items in the order they were reached (each after its parent).
    parent_joint : dict
        Item -> the index of the joint that reached it; the joints not among its values close
        loops.
    placed : set
        -1 and the items reached; an item missing is reached only through a joint written child
        first.
    """
    placed, order, parent_joint = {-1}, [], {}
    changed = True
    while changed:
        changed = False
        for k, (a, b) in enumerate(edges):
            if a in placed and b not in placed:
                placed.add(b)
                parent_joint[b] = k
                order.append(b)
                changed = True
    return order, parent_joint, placed
