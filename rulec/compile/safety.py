"""A generated module holds nothing but what rulec writes: checked before it is written.

The code generator escapes every text (`repr`, escaped docstrings) and builds every name from
letters, digits and '_'. This check is the second lock: it reads the generated source back with
`ast` and refuses any statement, construct or name that rulec never writes, so a text from a
game file that slipped past the escaping could still not run as code when the module is imported.
"""

from __future__ import annotations

import ast
import re

# The only constructs a generated module is made of: literals, calls of model classes, and the
# expressions of the game language (operators, comparisons, `x if c else y`, `sum(... for u in ...)`).
_ALLOWED_NODES = {
    ast.Module, ast.Expr, ast.Constant, ast.ImportFrom, ast.alias, ast.FunctionDef, ast.arguments, ast.arg,
    ast.Name, ast.Load, ast.Store, ast.Attribute, ast.Return, ast.Assign, ast.Assert, ast.AnnAssign, ast.Call,
    ast.keyword, ast.Tuple, ast.List, ast.Dict, ast.Subscript, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare,
    ast.IfExp, ast.GeneratorExp, ast.ListComp, ast.comprehension,
    ast.Lambda,  # `ctx.once(K, lambda: PART)`, a part kept while the hex varies: a lambda of no arguments
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Mod, ast.USub, ast.UAdd, ast.Not, ast.And, ast.Or,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot,
}
_ALLOWED_IMPORTS = {"__future__", "collections.abc", "rulec.runtime.context", "rulec.runtime.model"}
# Names a generated function may read besides what the module imports and defines.
_ALLOWED_NAMES = {"ctx", "unit", "u", "len", "min", "max", "abs", "sum", "any", "all", "int", "bool", "float", "str",
                  "object"}
# A quantifier's variable (`count(u in units(...) where ...)`) is written `v_<name>`; only those are bound.
_VARIABLE = re.compile(r"v_[A-Za-z0-9_]+|x_")  # x_: the variable of a built-in function (functions.py)


class UnsafeModule(ValueError):
    """The generated source holds something rulec never writes (a bug in the code generator)."""


def check_generated_source(source: str) -> None:
    """Raise UnsafeModule unless `source` is made only of what the code generator writes."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise UnsafeModule(f"the generated module does not parse: {error.msg} (line {error.lineno})") from None
    defined = {"GAME"}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom):
            if statement.module not in _ALLOWED_IMPORTS or statement.level:
                raise UnsafeModule(f"the generated module imports from {statement.module!r}")
            defined.update(alias.asname or alias.name for alias in statement.names)
        elif isinstance(statement, ast.FunctionDef):
            defined.add(statement.name)
        elif not isinstance(statement, (ast.Expr, ast.AnnAssign)):
            raise UnsafeModule(f"the generated module holds a {type(statement).__name__} statement (line {statement.lineno})")
        elif isinstance(statement, ast.Expr) and not (isinstance(statement.value, ast.Constant)
                                                      and isinstance(statement.value.value, str)):
            raise UnsafeModule(f"the generated module holds an expression statement (line {statement.lineno})")
    for node in ast.walk(tree):
        if type(node) not in _ALLOWED_NODES:
            raise UnsafeModule(f"the generated module holds a {type(node).__name__} (line {getattr(node, 'lineno', '?')})")
        if (isinstance(node, ast.Name) and node.id not in defined and node.id not in _ALLOWED_NAMES
                and not _VARIABLE.fullmatch(node.id)):
            raise UnsafeModule(f"the generated module reads the name {node.id!r} (line {node.lineno})")
        if isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            raise UnsafeModule(f"the generated module reads the attribute {node.attr!r} (line {node.lineno})")
        if isinstance(node, ast.Lambda) and (node.args.args or node.args.posonlyargs or node.args.kwonlyargs
                                             or node.args.vararg or node.args.kwarg):
            raise UnsafeModule(f"the generated module holds a lambda with arguments (line {node.lineno})")
        if isinstance(node, ast.FunctionDef) and (node.decorator_list or node.name.startswith("__")):
            raise UnsafeModule(f"the generated function {node.name!r} is not one rulec writes (line {node.lineno})")
