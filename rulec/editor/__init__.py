"""Editor support for game files: a Pygments lexer, a language server, and what both share."""
