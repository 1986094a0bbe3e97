"""Battles of map-less battle systems (a game file's `battle { ... }` section).

    forces.py      the two armies, read from players' text ("Red: tank/good, infantry x2")
    deployment.py  lines, reserves and who fights whom
    scoring.py     a unit's die modifiers; a combat's outcome by score ratio
    decisions.py   feeding in reserves: the default policy or a prompt
    resolve.py     combats, the battle's loser, army states, skirmishes
    army.py        the army-state table
    odds.py        exact (enumerated) or Monte Carlo odds of each result
    report.py      text and JSON for `rulec battle`

Nothing here names a game: every rule is read from rulec.runtime.model.BattleSystem.
"""
