"""Build the Cython extensions of rancf.

Every ``_*.pyx`` under ``rancf/`` (subpackages too) is an extension. Compiler
directives are set here, once, for every extension (scikit-learn's pattern).
``RANCF_DEBUG=1`` switches bounds, wrap-around and initialization checking back on
for a debugging build; ``RANCF_BOUNDSCHECK=1`` is its former name (deprecated,
developer: Build and debug build).

The generated ``.c`` files depend on the directives, but ``cythonize`` only compares
time stamps: the directives of the last translation are kept in
``build/cython-directives.json`` and every source is translated again when they
change (a debug build after a release one, and back) or when that record is missing,
so that no stale ``.c`` file of the other kind is compiled.
"""
import glob
import json
import os
import warnings

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

if os.environ.get("RANCF_BOUNDSCHECK", "0") == "1":
    warnings.warn("RANCF_BOUNDSCHECK=1 is deprecated and will be removed; use RANCF_DEBUG=1",
                  DeprecationWarning, stacklevel=1)
debug = "1" in (os.environ.get("RANCF_DEBUG", "0"), os.environ.get("RANCF_BOUNDSCHECK", "0"))
directives = {
    "language_level": 3,
    "boundscheck": debug,
    "wraparound": debug,
    "initializedcheck": debug,
    "cdivision": True,
}
extensions = [
    Extension(
        path[:-4].replace(os.sep, "."),
        [path],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O3"],
    )
    for path in sorted(glob.glob(os.path.join("rancf", "**", "_*.pyx"), recursive=True))
]
stamp = os.path.join("build", "cython-directives.json")
try:
    with open(stamp) as f:
        translated_with = json.load(f)
except (OSError, ValueError):
    translated_with = None
ext_modules = cythonize(extensions, compiler_directives=directives,
                        force=translated_with != directives)
os.makedirs("build", exist_ok=True)
with open(stamp, "w") as f:
    json.dump(directives, f)
setup(ext_modules=ext_modules)
