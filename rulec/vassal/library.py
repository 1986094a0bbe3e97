"""Import pywargame's VASSAL package, the library the module is built with.

pywargame (every release so far) has three modules written in Python 3.12 syntax (a backslash
inside an f-string): the sheet trait, the module merger and the ZunTzu exporter. rulec uses none of
them, and its Python may be 3.11; there, each of those modules that does not compile is replaced
by a stand-in whose names raise when used, so that the rest of the package imports.
"""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

from rulec.diagnostics import Diagnostic, DiagnosticError

# The modules of pywargame that need Python 3.12, relative to the package.
NEEDS_312 = ("vassal/traits/sheet.py", "vassal/merger.py", "zuntzu/exporter.py")


def pywargame_vassal() -> Any:
    """The `pywargame.vassal` module; a diagnostic naming the extra when it is not installed."""
    try:
        spec = importlib.util.find_spec("pywargame")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise DiagnosticError([Diagnostic("missing-extra", "rulec vassal needs pywargame, which is not installed",
                                          hint="pip install -e '.[vassal]'")])
    if sys.version_info < (3, 12):
        _stand_in_for_312_modules(Path(list(spec.submodule_search_locations)[0]))
    import pywargame.vassal

    return pywargame.vassal


def _stand_in_for_312_modules(package: Path) -> None:
    for relative in NEEDS_312:
        name = "pywargame." + relative.removesuffix(".py").replace("/", ".")
        path = package / relative
        if name in sys.modules or not path.is_file():
            continue
        try:
            compile(path.read_text(encoding="utf-8"), str(path), "exec")
        except SyntaxError:
            sys.modules[name] = _StandIn(name)


class _StandIn(types.ModuleType):
    """A module that imports but whose every name says, when used, that it needs Python 3.12."""

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        module = self.__name__

        class Unavailable:
            def __init__(self, *args: Any, **kwargs: Any) -> None:
                raise RuntimeError(f"{module}.{attribute} needs Python 3.12")

        Unavailable.__name__ = attribute
        return Unavailable
