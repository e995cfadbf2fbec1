"""How ``peloton … --help`` names what an option takes.

Typer's help shows each parameter's Python type in angle brackets: ``<bool>`` beside
every flag (which takes no value at all), ``<list[str]>`` beside a repeatable option,
``<str>`` everywhere else, and ``{file}`` in the usage line for a required argument.
Those read as program internals, not as a command's syntax, so the help here names
what a parameter takes the way command-line tools do: nothing for a flag, an upper-case
word for a value (``TEXT``, ``INTEGER``, ``NUMBER``, ``PATH``, or the parameter's own
``metavar``), and arguments in the usage line as ``FILE`` (required) or ``[GAME]``.
"""

from __future__ import annotations

from typing import Any

from typer import core

#: The word shown for a value of each Python type Typer reports.
_WORDS = {"str": "TEXT", "int": "INTEGER", "float": "NUMBER", "bool": "BOOLEAN"}


def _word(param: Any, ctx: Any) -> str | None:
    if getattr(param, "is_flag", False):
        return None  # a flag takes no value
    if param.metavar is not None:
        return str(param.metavar)
    label = core.TyperOption.display_type(param, ctx).strip("<>")
    repeated = label.startswith("list[")
    label = label.removeprefix("list[").removesuffix("]")
    word = _WORDS.get(label, label.upper())
    return f"{word}…" if repeated else word


def _option_word(self: Any, ctx: Any) -> str | None:
    return _word(self, ctx)


def _argument_word(self: Any, ctx: Any) -> str | None:
    return _word(self, ctx)


def _usage_name(self: Any) -> str:
    name = str(self.metavar or self.name).upper()
    return name if self.required else f"[{name}]"


def install() -> None:
    """Name parameters as above in every ``peloton`` help page (idempotent)."""
    core.TyperOption.display_type_rich = _option_word  # type: ignore[method-assign]
    core.TyperArgument.display_type_rich = _argument_word  # type: ignore[method-assign]
    core.TyperArgument._usage_display_name = _usage_name  # type: ignore[method-assign]
