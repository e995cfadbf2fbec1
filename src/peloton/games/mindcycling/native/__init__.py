"""The bridge between a :class:`~.position.Race` and the native Mind Cycling core
(``peloton/native/mc.h``): course tables, loading a race, moves as ints, playouts.

The C core plays exactly the rules of :mod:`.rules` and :mod:`.state` (and the greedy
scores of :mod:`.move_scores`); ``tests/native`` keeps them in lockstep. A move is one
int (``kind | rider << 3 | target << 9 | square << 15``, the rider and the target as
indices in the game's sorted ids); :meth:`NativeGame.move` turns it into the very
:class:`~.notation.Move` the Python engine would give, interned per game.

Everything here needs the native engine: call :func:`game_for` only when
:func:`peloton.native.lib` is not ``None`` (:func:`available` says so).

A package by job: :mod:`.codes` (the ints shared with C), :mod:`.facts` (a game's C
tables, the threads' buffers, races), :mod:`.moves`, :mod:`.reading` and
:mod:`.playouts`, assembled into :class:`NativeGame` by :mod:`.game`, which also keeps
the cache of games (:func:`game_for`).
"""

from .game import GameKey, NativeGame, available, forget_games, game_for, game_key

__all__ = ["GameKey", "NativeGame", "available", "forget_games", "game_for", "game_key"]
