"""The README's examples run as written (every ``python`` block, in order, in one namespace),
then those of the docs pages that hold its former sections (the API on one page, parameter
studies, implicit integrators, modal reduction), and print what they say they print."""
import re
from pathlib import Path

import matplotlib
import pytest

import rancf

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
#: The docs pages that hold the README's former sections, in the README's former order.
MOVED = ["user_guide/tour.rst", "user_guide/sweeps.rst", "user_guide/implicit.rst",
         "user_guide/reduction.rst"]


def _blocks():
    """(name, code) of every python block of the README and the MOVED pages, in order."""
    blocks = [(f"README.md python block {i}", code) for i, code in
              enumerate(re.findall(r"```python\n(.*?)```", README.read_text(), re.S))]
    for page in MOVED:
        found = re.findall(r"\.\. code-block:: python\n\n(.*?)(?=\n\S)",
                           (ROOT / "docs" / page).read_text(), re.S)
        blocks += [(f"{page} python block {i}", "\n".join(line[3:] for line in code.splitlines()))
                   for i, code in enumerate(found)]
    return blocks


def test_readme_examples_run():
    matplotlib.use("Agg")   # the pendulum example calls plt.show()
    blocks = _blocks()
    assert len(blocks) >= 4
    namespace = {}
    for i, (where, block) in enumerate(blocks):
        exec(compile(block, where, "exec"), namespace)
        # every run a block leaves behind finished: a failed or diverged run still returns
        # a Result, so running without an exception is not enough
        for name, value in namespace.items():
            if isinstance(value, rancf.Result):
                assert value.status == "ok", f"block {i}: {name}.status {value.status!r}: {value.message}"
        if "across" in block:
            # the spin-up block's comment: the tip deflection peaks at -0.574 m near t = 6.8 s
            # (the recursive formulation with DOPRI5 at rtol 1e-8 gives -0.5737 m at 6.80 s)
            across, t = namespace["across"], namespace["res"].t
            assert across.min() == pytest.approx(-0.574, abs=5e-4)
            assert t[across.argmin()] == pytest.approx(6.8, abs=0.05)


def test_readme_says_what_the_report_command_does_before_it():
    """A command that runs the full report (minutes, and it rewrites the committed ``reports/``)
    is announced, with its duration and what it overwrites, in the paragraph above its block."""
    text = README.read_text()
    for block in re.finditer(r"```bash\n(.*?)```", text, re.S):
        if not re.search(r"python -m validation(?!.*--quick).*--out reports/", block.group(1)):
            continue
        before = text[:block.start()].rstrip().rsplit("\n\n", 1)[-1]
        assert re.search(r"\d+\s+minutes", before) and "overwrites" in before and \
            "`reports/`" in before, f"no warning above the report command: {before!r}"
        break
    else:
        pytest.fail("the README has no command that runs the report into reports/")


def test_readme_parameter_study_claims_no_timing():
    """The study's run times are the machine's (its runs printed them): the README's former
    section on them (docs/user_guide/sweeps.rst) does not type a CPU or wall time for them."""
    text = (ROOT / "docs" / "user_guide" / "sweeps.rst").read_text()
    paragraph = re.search(r"The 256 runs are.*?\n\n", text, re.S).group(0)
    claims = re.findall(r"[^.;(]*\b(?:CPU|took|wall time)\b[^.;)]*\d[^.;)]*", paragraph)
    assert not claims, claims
