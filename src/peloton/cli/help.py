"""How ``peloton … --help`` names what a parameter takes.

Typer's help shows each parameter's Python type in angle brackets: ``<bool>`` beside
every flag (which takes no value at all), ``<list[str]>`` beside a repeatable option,
``<str>`` everywhere else, and ``{file}`` in the usage line for a required argument.
Those read as program internals, not as a command's syntax, so the help here names
what a parameter takes the way command-line tools do: nothing for a flag, an upper-case
word for a value (``TEXT``, ``INTEGER``, ``NUMBER``, ``PATH``, or the parameter's own
``metavar``), and arguments in the usage line as ``FILE`` (required) or ``[GAME]``.

Typer has no setting for this and takes no class per parameter; its extension point is
the class of a command or a group (``cls=``). So every ``peloton`` command is a
:class:`Command` and every group a :class:`Group`: as one lists its parameters (Click's
``get_params``, which the help and the parser read, the help option included), it gives
them the classes :class:`Option` and :class:`Argument`, Typer's parameter classes
with the public methods that name a value overridden (``display_type_rich``, which the
help table shows, and Click's ``get_usage_pieces``, the usage line). Nothing of Typer
itself is changed.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

# Contexts and parameters are typed Any: they are Click's, as Typer vendors it
# (``typer._click``, private), not the ``click`` package's.

#: The word shown for a value of each Python type Typer reports.
_WORDS = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN"}


def value_word(param: TyperOption | TyperArgument, ctx: Any) -> str | None:
    """What ``param`` takes, as the help names it: None for a flag, else its metavar or
    the upper-case word of its type (``TEXT…`` for a repeatable one)."""
    if getattr(param, "is_flag", False):
        return None  # a flag takes no value
    if param.metavar is not None:
        return str(param.metavar)
    label = param.display_type(ctx).strip("<>")
    repeated = label.startswith("list[")
    label = label.removeprefix("list[").removesuffix("]")
    word = _WORDS.get(label, label.upper())
    return f"{word}…" if repeated else word


class Option(TyperOption):
    """A Typer option whose help names its value in words (:func:`value_word`)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return value_word(self, ctx)


class Argument(TyperArgument):
    """A Typer argument whose help names its value in words and the usage line its name
    in capitals, in brackets when optional."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return value_word(self, ctx)

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = str(self.metavar or self.name).upper()
        return [name if self.required else f"[{name}]"]


def _worded(params: list[Any]) -> None:
    """Give Typer's parameters among ``params`` (the help option too) the classes
    above: the same state, the help's methods overridden; any other stays as it is."""
    for param in params:
        if type(param) is TyperOption:
            param.__class__ = Option
        elif type(param) is TyperArgument:
            param.__class__ = Argument


class Command(TyperCommand):
    """A ``peloton`` command: Typer's, with parameters named as above."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        _worded(params)
        return params


class Group(TyperGroup):
    """A ``peloton`` group (the app, ``peloton course``): Typer's, with its own
    parameters (``--version``, ``--help``) named as above."""

    def get_params(self, ctx: Any) -> list[Any]:
        params = super().get_params(ctx)
        _worded(params)
        return params
