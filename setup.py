"""Build the Cython extensions of rancf.

Every ``_*.pyx`` under ``rancf/`` (subpackages too) is an extension. Compiler
directives are set here, once, for every extension (scikit-learn's pattern).
``RANCF_DEBUG=1`` switches bounds, wrap-around and initialization checking back on
for a debugging build (and forces the Cython sources to be translated again, so no
stale release ``.c`` file is reused); ``RANCF_BOUNDSCHECK=1`` is its former name.
"""
import glob
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

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
setup(ext_modules=cythonize(extensions, compiler_directives=directives, force=debug))
