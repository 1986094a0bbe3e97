"""A Pygments lexer for rulec game files (`pygmentize -l rulec FILE.rulec`).

Registered as the `rulec` entry point of `pygments.lexers` in pyproject.toml. It follows
rulec/language/grammar.lark token for token: a block is `KEYWORD label* {`, an attribute
`key = value`; values add ranges, ratios, hexsides, here-documents and expressions.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Text, Whitespace

# Words of the expression language (grammar.lark: "or", "and", "not", "in").
OPERATOR_WORDS = ("and", "or", "not", "in")
# Literal names the checker gives a fixed meaning wherever a value is expected.
CONSTANTS = ("true", "false", "none")


class RulecLexer(RegexLexer):
    name = "rulec"
    aliases = ["rulec"]
    filenames = ["*.rulec"]
    mimetypes = ["text/x-rulec"]
    url = "https://rulec.invalid/docs/language.md"

    tokens = {
        "root": [
            (r"[ \t\r\f]+", Whitespace),
            (r"\n", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r"<<(.|\n)*?>>", String.Heredoc),
            (r'"([^"\\\n]|\\.)*"', String.Double),
            # A block opens with its keyword and labels: `unit us_4ad_cca {`, `hexsides roads {`.
            (r"([A-Za-z_][A-Za-z0-9_]*)((?:[ \t]+(?:[A-Za-z0-9_]+|\"(?:[^\"\\\n]|\\.)*\"))*)([ \t]*)(\{)",
             bygroups(Keyword.Declaration, Name.Class, Whitespace, Punctuation)),
            # An attribute's key: `move = 2`, `0701 = "Town"`.
            (r"([A-Za-z_][A-Za-z0-9_]*|[0-9]+)([ \t]*)(=)(?!=)", bygroups(Name.Attribute, Whitespace, Operator)),
            (r"[0-9]{3,}/[0-9]{3,}", Number.Other),  # a hexside, 0701/0801
            (r"[0-9]+:[0-9]+", Number.Other),  # an odds ratio, 3:1
            (r"[0-9]+\.[0-9]+", Number.Float),
            (r"[0-9]+", Number.Integer),
            (r"\.\.", Operator),
            (words(OPERATOR_WORDS, suffix=r"\b"), Operator.Word),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (r"([A-Za-z_][A-Za-z0-9_]*)(\()", bygroups(Name.Function, Punctuation)),
            (r"[A-Za-z_][A-Za-z0-9_]*", Name),
            (r"==|!=|<=|>=|<|>|[-+*/%=]", Operator),
            (r"[{}\[\](),]", Punctuation),
            (r".", Text),  # never an error token: a half-typed file still highlights
        ],
    }
