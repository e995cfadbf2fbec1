"""Terminal play for Peloton: Rich boards, seats, the interactive game and replay loops.

The rules engine knows nothing of the terminal; everything here drives a
:class:`peloton.games.mindcycling.State` through its public API and talks to the user
through a Rich :class:`~rich.console.Console` and an ``ask(prompt) -> line`` function,
so that tests can drive every loop with scripted input.
"""
