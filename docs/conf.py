"""Sphinx configuration of the rancf documentation.

Build (from the repository root, after ``pip install -e ".[docs]"``)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Warnings are errors: a broken reference, a public name without a docstring or with a docstring
that misses a numpydoc section (numpydoc validation below), and a gallery example that raises all
fail the build. The gallery (``examples/``) runs at every build.
"""
import os
import sys
import time
import warnings

import matplotlib

matplotlib.use("Agg")

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# the rancf of this checkout (built in place), as the tests import it
sys.path.insert(0, ROOT)

import rancf  # noqa: E402

project = "rancf"
author = "the rancf developers"
copyright = f"{time.strftime('%Y')}, {author}"
version = release = rancf.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    # MathJax shipped with the site (24 MB), so that the equations render without a network
    "sphinx-mathjax-offline",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "generated/*.examples", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.json",
                    "auto_examples/*.md5", "**/*.codeobj.json"]
default_role = "code"
nitpicky = False

# --- API reference ----------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"members": True, "undoc-members": True, "inherited-members": False,
                           "show-inheritance": False}
autodoc_typehints = "none"
autodoc_member_order = "bysource"

numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
# every public object rendered in the API pages must have a docstring (GL08) with its
# parameters documented (PR01, PR02), its return value (RT01) and an example (EX01); the
# summary line rules keep the tables of the API pages readable
numpydoc_validation_checks = {"GL08", "PR01", "PR02", "PR10", "RT01", "EX01", "SS01", "SS03",
                              "GL02", "GL03"}
# Two waivers, each tied to a sentence the docstring must contain (so each is visible where it
# applies): handles that rancf creates for the user (a Beam from Model.add_beam, a Result from
# simulate) document their attributes, not the arguments of a constructor nobody calls; the
# methods of the IndexThreeDAE and StepEquations contracts point to their class's example,
# which shows them together
# module constants (a "#:" comment) are tables, not callables: no Examples section
numpydoc_validation_exclude = {r"^rancf\.elements\.beam\.MODELS$",
                               r"^rancf\.elements\.(beam\.PlanarANCFBeam|rigid\.RigidBody)\."
                               r"(node_size|nodes_per_element|element_size|dimension)$"}
numpydoc_validation_overrides = {
    "PR01": [r"Not constructed directly"],
    "EX01": [r"The class example shows it in use"],
}


# --- gallery ----------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": os.path.join(ROOT, "examples"),
    "gallery_dirs": "auto_examples",
    # every example runs; RANCF_GALLERY_PATTERN (a regular expression) runs only the
    # matching ones while writing an example (the others are shown without their output)
    "filename_pattern": os.environ.get("RANCF_GALLERY_PATTERN", r"/plot_"),
    "run_stale_examples": False,
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,
    "matplotlib_animations": (True, "jshtml"),
    "image_scrapers": ("matplotlib",),
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "min_reported_time": 0,
    "show_memory": False,
    "download_all_examples": False,
    "backreferences_dir": "generated/backreferences",
    "doc_module": ("rancf",),
    "capture_repr": ("_repr_html_",),
}

# --- HTML -------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"rancf {release}"
html_static_path = ["_static"]
html_css_files = ["rancf.css"]
html_theme_options = {
    "navbar_align": "left",
    "header_links_before_dropdown": 6,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version", "theme-version"],
    "navigation_with_keys": False,
}
html_sidebars = {"index": [], "getting_started": []}
html_show_sourcelink = False

warnings.filterwarnings("ignore", category=UserWarning,
                        message="Matplotlib is currently using agg")


# --- every public name has an API page --------------------------------------------------------
def _check_api_coverage(app):
    """Warn (an error under -W) for a public name that the API reference does not list: the
    names of ``rancf.__all__`` and ``rancf.implicit.__all__``, modules excepted (their
    members are listed one by one)."""
    import inspect

    from sphinx.util import logging

    logger = logging.getLogger("rancf.api")
    with open(os.path.join(HERE, "api.rst")) as f:
        listed = {line.strip().split(".")[-1] for line in f if line.startswith("   ")}
    for owner, names in (("rancf", rancf.__all__), ("rancf.implicit", rancf.implicit.__all__)):
        namespace = rancf if owner == "rancf" else rancf.implicit
        for name in names:
            obj = getattr(namespace, name)
            if inspect.ismodule(obj) or isinstance(obj, (dict, tuple)):
                continue
            if name not in listed:
                logger.warning(f"{owner}.{name} is public and has no entry in docs/api.rst")
    for module in (rancf.elements.beam, rancf.elements.rigid):
        for name, obj in vars(module).items():
            if not name.startswith("_") and inspect.isfunction(obj) and obj.__module__ == module.__name__:
                if not obj.__doc__:
                    logger.warning(f"{module.__name__}.{name} has no docstring")


def setup(app):
    app.connect("builder-inited", _check_api_coverage)
