"""Reading lines at the terminal: the ordinary prompt, and the unseen one for secrets
(Mind Twist's dial) that must never be echoed on a shared screen."""

from __future__ import annotations

import getpass
import sys

from rich.console import Console

from .prompt import Ask


def terminal_ask(console: Console) -> Ask:
    """Read lines from stdin after printing a prompt. When stdin is not a terminal
    (piped moves) the line read is echoed, so that the transcript reads naturally."""
    echo = not sys.stdin.isatty()

    def ask(prompt: str) -> str:
        line = console.input(prompt, markup=False)
        if echo:
            console.print(line, markup=False, soft_wrap=True)
        return line

    return ask


def secret_ask(console: Console) -> Ask:
    """Read a line that is never shown: at a terminal the keys typed are not echoed
    (as for a password); from a pipe the line is read and, unlike :func:`terminal_ask`,
    not copied to the transcript. Raises EOFError when input has ended."""

    def ask(prompt: str) -> str:
        if sys.stdin.isatty():
            console.file.flush()
            return getpass.getpass(prompt)
        console.print(prompt, end="", markup=False, soft_wrap=True)
        console.file.flush()
        line = sys.stdin.readline()
        console.print("(hidden)", markup=False)
        if not line:
            raise EOFError
        return line.rstrip("\r\n")

    return ask
