"""Statics gives the same bits for the same inputs: in one process, run after run, and in
separate processes. The case is the rod stood on a slack cable
(``test_cable_straight_rest.body_on_slack_cable``, 5 kg), whose statics leaves an unstable
equilibrium along the mode Lanczos finds (ARPACK, :func:`rancf.integrators.static._modes_about`)
and whose outcome hangs on that mode's last digits: the restart vectors ARPACK draws change
them, and with them the Newton iterations and whether a stable equilibrium is reached.
Bitwise equality is the right comparison, not a tolerance: the same code on the same inputs,
machine and library builds performs the same floating-point operations in the same order,
so any difference is a source of nondeterminism (the children inherit the environment, so
the BLAS thread count too)."""
import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np

import rancf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_cable_straight_rest import body_on_slack_cable  # noqa: E402


def fingerprint():
    """The statics' Newton iterations, Jacobians and load steps, and a SHA-256 of its
    equilibrium's bits (the bodies' poses, the cable's nodes, the joints' reactions)."""
    m, c, b = body_on_slack_cable(5.0)
    eq = rancf.static(m, tol=1e-10)
    bits = hashlib.sha256()
    for a in (eq.nodes[-1], eq.extra["cable_nodes"][-1], eq.reactions[-1]):
        bits.update(np.ascontiguousarray(a, dtype=float).tobytes())
    counts = ",".join(f"{k}={eq.stats[k]}" for k in ("steps", "newton_iterations", "njev"))
    return f"{eq.status} {counts} {bits.hexdigest()}"


CHILD = ("import sys; sys.path.insert(0, 'tests'); import test_static_reproducible as t; "
         "print(t.fingerprint())")


def test_statics_of_a_rod_on_a_slack_cable_is_bitwise_reproducible():
    """Twice here and once in each of two fresh interpreters: the same fingerprint, that of
    an equilibrium reached ("ok")."""
    here = [fingerprint(), fingerprint()]
    there = [subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.strip() for _ in range(2)]
    assert here[0].startswith("ok ")
    assert here[1] == here[0] and there == [here[0], here[0]], (here, there)
