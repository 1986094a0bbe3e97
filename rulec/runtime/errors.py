"""The error of a game expression that fails while the game is played (a division by zero...).

rulec.runtime.model.Expr raises it in place of the Python error, naming the expression as the
designer wrote it; the commands report it as a game error at the expression's file:line
(rulec.check.locate.expression_span) instead of a traceback.
"""

from __future__ import annotations


class ExpressionFailed(RuntimeError):
    """Evaluating the expression `source` raised `reason` (a Python error, for the message)."""

    def __init__(self, source: str, reason: BaseException):
        self.source = source
        self.reason = f"{type(reason).__name__}: {reason}" if str(reason) else type(reason).__name__
        self._message = f"the expression '{source}' failed: {_plain(reason)}"
        super().__init__(self._message)

    def __reduce__(self):  # survive pickling across the worker processes of `rulec simulate`
        return (_rebuild, (self.source, self.reason, self._message))


# What an expression asked outside play raises when the made-up position it is asked in cannot answer (an AI weighing
# an award, an aid's bounds, the checker's look at set-up): the expression failed (rulec.runtime.model.Expr turns
# its Python errors into ExpressionFailed), or the stand-in has no answer for what it read (ContextBase's
# NotImplementedError). Those who ask fall back to a guess on these alone: any other error is rulec's own, to be seen,
# not a reason to play or print something else.
UNANSWERED_OUTSIDE_PLAY: tuple[type[Exception], ...] = (ExpressionFailed, NotImplementedError)
# ...and, where the asker turns the answer into a number, what that raises for an answer no number holds: an amount
# multiplying the game's numbers past a float, or an overflow's infinity made whole (play stops such an award:
# engine/victory.award_amount; an AI or an aid outside play only guesses).
UNWEIGHABLE: tuple[type[Exception], ...] = UNANSWERED_OUTSIDE_PLAY + (OverflowError, ValueError)


def _rebuild(source: str, reason: str, message: str) -> ExpressionFailed:
    error = ExpressionFailed.__new__(ExpressionFailed)
    RuntimeError.__init__(error, message)
    error.source, error.reason, error._message = source, reason, message
    return error


def _plain(reason: BaseException) -> str:
    if isinstance(reason, ZeroDivisionError):
        return "division by zero"
    return f"{type(reason).__name__}: {reason}" if str(reason) else type(reason).__name__
