"""``peloton learn GAME``: a game's lesson at the terminal, the same lesson the web
tutorial plays (:mod:`peloton.core.lesson`).

Each step prints its title and text, draws the position with the game's terminal board
(:mod:`.games`) and asks for the learner's move in words ("Your move: AD1 rides to
b9"). The engine checks what is typed: a move it refuses is explained with its reason,
a legal move that is not the lesson's is named as such, and nothing is played; the
other seats' replies and the dice are printed as they come. Type ``hint`` to see the
move asked for in notation, ``skip`` to go to the next step, ``q`` to leave. At the end
the lesson's real game against bots is offered (:func:`.launch.table_for`).
"""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..core.errors import PelotonError
from ..core.lesson import CHANCE, YOU, Lesson, Turn
from ..core.offers import OffLessonError
from .games import FULL_VIEW, TerminalGame, terminal_game
from .prompt import Ask

LEARN_HELP = """\
  type the move asked for (its notation, as `hint` shows it)
  hint   show the move asked for        skip   go to the next step
  b      draw the board again           q      leave the lesson"""

#: What the learner types to leave, skip a step, see the move asked for, redraw.
QUIT, SKIP, HINT, BOARD = frozenset({"q", "quit"}), "skip", "hint", frozenset({"b", "board"})


class LessonSession:
    """One lesson played at the terminal, from step ``first`` (1-based) on."""

    def __init__(
        self, game: str, lesson: Lesson, console: Console, ask: Ask, *, first: int = 1
    ) -> None:
        self.game = game
        self.lesson = lesson
        self.console = console
        self.ask = ask
        self.first = first
        self.shown: TerminalGame = terminal_game(game)
        self.players = {seat: ("you" if seat == lesson.learner else "lesson") for seat in
                        lesson.start_of(0).players}  # fmt: skip

    def run(self) -> bool:
        """Play the lesson's steps; ``True`` when every step was played to its end
        (``False``: the learner left)."""
        steps = self.lesson.steps
        for index in range(self.first - 1, len(steps)):
            if not self._step(index):
                return False
        self.console.print(Text("You have finished the lesson.", "bold green"))
        return True

    # ------------------------------------------------------------ a step

    def _step(self, index: int) -> bool:
        step = self.lesson.steps[index]
        count = len(self.lesson.steps)
        self.console.print(Rule(f"Step {index + 1} of {count}: {step.title}"))
        self._paragraphs(step.text)
        state, done, turns = self.lesson.opening(index)
        self._turns(turns)
        while (want := self.lesson.expected(index, done)) is not None:
            self._draw(state)
            self.console.print(Text.assemble(("Your move: ", "bold"), self.lesson.ask(state, want)))
            while True:  # until the move asked for is played (or the learner goes)
                answer = self._read(want, state)
                if answer is None:
                    return False
                if answer == SKIP:
                    return True
                try:
                    state, done, turns = self.lesson.play(index, done, answer)
                    break
                except OffLessonError as exc:
                    self.console.print(Text(f"Nice idea, but not now: {exc}.", "yellow"))
                except PelotonError as exc:
                    self.console.print(Text(f"Not quite: {exc}. Try the move asked for.", "red"))
            self._turns(turns)
        self._draw(state)
        if step.after:
            self._paragraphs(step.after)
        return True

    def _read(self, want: str, state: Any) -> str | None:
        """The learner's next move or ``skip``; ``None`` to leave. The hint, the board
        and the help are answered here."""
        while True:
            try:
                text = self.ask("move> ").strip()
            except EOFError:
                return None
            word = text.lower()
            if word in QUIT:
                return None
            if word == HINT:
                self.console.print(Text(f"Type {want}", "cyan"))
            elif word in {"?", "help"}:
                self.console.print(LEARN_HELP, markup=False)
            elif word in BOARD:
                self._draw(state)
            elif text:
                return SKIP if word == SKIP else text

    # ------------------------------------------------------------ printing

    def _draw(self, state: Any) -> None:
        # A game with secrets is drawn from the learner's view, never the whole state.
        if self.lesson.rules.public_moves is not None:
            state, viewer = state.view(self.lesson.learner), self.lesson.learner
        else:
            viewer = FULL_VIEW
        self.console.print(self.shown.render(state, self.players, viewer))

    def _turns(self, turns: list[Turn]) -> None:
        for turn in turns:
            who = {YOU: "You", CHANCE: "Dice"}.get(turn.by, turn.by)
            self.console.print(Text.assemble((f"  {who}: ", "bold"), turn.describe))

    def _paragraphs(self, text: str) -> None:
        for part in text.split("\n\n"):
            if part.strip():
                self.console.print(" ".join(part.split()))
                self.console.print()


def table_plan(lesson: Lesson) -> dict[str, Any]:
    """The real game a lesson ends at, as ``peloton play`` takes it: ``seats`` (the
    learner then the bot, one a seat) and ``options`` (``NAME=VALUE`` texts)."""
    options = dict(lesson.table.get("options", {}))
    bot = str(lesson.table.get("bot", "greedy"))
    count = int(options.get("players", len(lesson.start_of(0).players)))
    return {
        "seats": ",".join(["human"] + [bot] * (count - 1)),
        "options": [f"{k}={_option_text(v)}" for k, v in options.items()],
    }


def _option_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)
