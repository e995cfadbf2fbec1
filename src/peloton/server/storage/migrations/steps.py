"""What the revision scripts share: each change made only where it is missing.

A database made before Alembic is stamped with the last revision all of whose changes
it has (:mod:`.legacy`); some released servers added their columns and tables in
another order than the chain (two lines of work merged), so a later revision may find
its change already made. These helpers then leave it as it is.
"""

from __future__ import annotations

from typing import Any

from alembic import op
from sqlalchemy import Column, inspect


def has_table(name: str) -> bool:
    """Whether the database being upgraded has the table ``name``."""
    return inspect(op.get_bind()).has_table(name)


def columns(table: str) -> set[str]:
    """The names of ``table``'s columns in the database being upgraded."""
    return {c["name"] for c in inspect(op.get_bind()).get_columns(table)}


def add_column(table: str, column: Column[Any]) -> None:
    """Add ``column`` to ``table`` unless it is there already."""
    if column.name not in columns(table):
        op.add_column(table, column)


def create_table(name: str, *parts: Any) -> None:
    """Create the table ``name`` (columns and constraints ``parts``) unless it exists."""
    if not has_table(name):
        op.create_table(name, *parts)
