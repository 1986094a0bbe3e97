"""Only for the optional compiled engine (README "Faster engine"); the package itself is described in pyproject.toml.

Plain `pip install .` and `make` build nothing here: pure Python. With RULEC_COMPILE=1, the modules
rulec/fast_path.py names are compiled with mypyc (which must be installed: it comes with mypy), and its native
modules (the movement search's loop, rulec/engine/search_core.pyx) with Cython, e.g.

    make fast                                                  # in place, for this checkout
    RULEC_COMPILE=1 python setup.py build_ext --inplace        # what make fast runs (mypy from the test extra)

and a record of the sources compiled is written beside them (rulec/compiled_build.json), so that a source changed
since runs as pure Python rather than as a stale build.
"""

import importlib.util
import json
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _fast_path():
    # rulec/fast_path.py alone, by its path: importing the package here would run its engine choice
    spec = importlib.util.spec_from_file_location("_rulec_fast_path", HERE / "rulec" / "fast_path.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiled_extensions():
    missing = [name for name, module in (("mypy", "mypyc"), ("cython", "Cython"))
               if importlib.util.find_spec(module) is None]
    if missing:  # (a message, not an ImportError's traceback)
        raise SystemExit(f"RULEC_COMPILE=1 builds the compiled engine with mypyc and Cython: {' and '.join(missing)} "
                         f"{'is' if len(missing) == 1 else 'are'} not installed (make fast installs them; or "
                         f"pip install 'mypy>=1.8' 'cython>=3.0')")
    from mypyc.build import mypycify

    fast_path = _fast_path()
    modules = fast_path.compiled_modules(HERE / "rulec")
    sources = [fast_path.source_of(m, HERE / "rulec") for m in modules]
    stamp = {m: fast_path.source_hash(p) for m, p in zip(modules, sources)}
    stamp.update({m: fast_path.source_hash(fast_path.source_of(m, HERE / "rulec")) for m in fast_path.NATIVE})
    (HERE / "rulec" / "compiled_build.json").write_text(json.dumps(stamp, indent=1) + "\n")
    # A C file a module (multi_file), compiled side by side (_BuildInParallel): one C file of them all took a single
    # core about 130 s to compile; the modules' files take about 80 s of CPU in all, shared among the cores. The
    # compiled engine runs as fast either way (measured on sampled Marne games, issue 19).
    # mypyc.ini: the build's own mypy settings (the language layer is type-checked, not compiled: see there)
    return mypycify(["--config-file", str(HERE / "mypyc.ini")] + [str(p.relative_to(HERE)) for p in sources],
                    opt_level="3", group_name="rulec_engine", multi_file=True) + _native_extensions(fast_path)


def _native_extensions(fast_path):
    """The native modules (Cython; in the test extra, as mypy is), each one C file."""
    from Cython.Build import cythonize
    from setuptools import Extension

    sources = [fast_path.source_of(m, HERE / "rulec").relative_to(HERE) for m in fast_path.NATIVE]
    return cythonize([Extension(m, [str(p)], extra_compile_args=["-O3"]) for m, p in zip(fast_path.NATIVE, sources)],
                     quiet=True, language_level=3)


# The compilers whose compile() is CCompiler's, a loop over the objects calling _compile() for each
_ONE_OBJECT_AT_A_TIME = ("unix", "cygwin", "mingw32")


class _BuildInParallel(build_ext):
    """build_ext that compiles an extension's C files side by side, one a core (setuptools compiles them one after
    the other; its --parallel shares out whole extensions, and the compiled engine is one)."""

    def build_extension(self, ext):
        compiler = self.compiler
        if getattr(compiler, "compiler_type", "") not in _ONE_OBJECT_AT_A_TIME:
            return super().build_extension(ext)  # a compiler with a compile() of its own (MSVC): as setuptools does
        one_by_one = compiler.compile

        def compile_in_parallel(sources, output_dir=None, macros=None, include_dirs=None, debug=0,
                                extra_preargs=None, extra_postargs=None, depends=None):
            # What CCompiler.compile does, with its loop over the objects run in threads (each waits on a compiler
            # process of its own)
            macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
                output_dir, macros, include_dirs, sources, depends, extra_postargs)
            cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)

            def compile_one(obj):
                if obj in build:
                    source, extension = build[obj]
                    compiler._compile(obj, source, extension, cc_args, extra_postargs, pp_opts)

            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                list(pool.map(compile_one, objects))
            return objects

        compiler.compile = compile_in_parallel
        try:
            super().build_extension(ext)
        finally:
            compiler.compile = one_by_one


_COMPILING = os.environ.get("RULEC_COMPILE", "") not in ("", "0")
setup(ext_modules=_compiled_extensions() if _COMPILING else [], cmdclass={"build_ext": _BuildInParallel})
