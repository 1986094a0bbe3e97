"""rulec: a compiler for the rules of hex-and-counter board wargames.

The pipeline, one package a stage:

    language/  game text -> document (JSON-like data with source positions)
    check/     document -> checked game model (schema, then cross-references)
    compile/   game model -> Python rule module and JSON
    runtime/   what compiled modules import: the game model's types
    engine/    plays any compiled map game
    battle/    resolves battles of map-less battle systems
    players/   human and AI players
    aids/      printable player aids
    cli/       the `rulec` command
"""

__version__ = "0.1.0"

# The compiled engine (make fast), unless RULEC_PURE=1 or its build is stale: chosen before any engine module loads.
from rulec.fast_path import use_pure_python_if_asked as _choose_engine  # noqa: E402

_choose_engine()
