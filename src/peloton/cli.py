"""Placeholder; replaced by the Typer CLI."""


def main() -> None:
    raise SystemExit("not yet")
