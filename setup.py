"""Only for the optional compiled engine (README "Faster engine"); the package itself is described in pyproject.toml.

Plain `pip install .` and `make` build nothing here: pure Python. With RULEC_COMPILE=1, the modules
rulec/fast_path.py names are compiled with mypyc (which must be installed: it comes with mypy), e.g.

    make fast                                                  # in place, for this checkout
    RULEC_COMPILE=1 python setup.py build_ext --inplace        # what make fast runs (mypy from the test extra)

and a record of the sources compiled is written beside them (rulec/compiled_build.json), so that a source changed
since runs as pure Python rather than as a stale build.
"""

import importlib.util
import json
import os
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def _fast_path():
    # rulec/fast_path.py alone, by its path: importing the package here would run its engine choice
    spec = importlib.util.spec_from_file_location("_rulec_fast_path", HERE / "rulec" / "fast_path.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiled_extensions():
    from mypyc.build import mypycify

    fast_path = _fast_path()
    modules = fast_path.compiled_modules(HERE / "rulec")
    sources = [fast_path.source_of(m, HERE / "rulec") for m in modules]
    stamp = {m: fast_path.source_hash(p) for m, p in zip(modules, sources)}
    (HERE / "rulec" / "compiled_build.json").write_text(json.dumps(stamp, indent=1) + "\n")
    return mypycify([str(p.relative_to(HERE)) for p in sources], opt_level="3", group_name="rulec_engine")


setup(ext_modules=_compiled_extensions() if os.environ.get("RULEC_COMPILE", "") not in ("", "0") else [])
