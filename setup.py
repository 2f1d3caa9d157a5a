"""Build the Cython extensions of rancf.

Compiler directives are set here, once, for every extension (scikit-learn's
pattern). ``RANCF_BOUNDSCHECK=1`` switches bounds and wrap-around checking back
on for a debugging build.
"""
import glob
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

debug = os.environ.get("RANCF_BOUNDSCHECK", "0") == "1"
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
    for path in sorted(glob.glob(os.path.join("rancf", "_*.pyx")))
]
setup(ext_modules=cythonize(extensions, compiler_directives=directives))
