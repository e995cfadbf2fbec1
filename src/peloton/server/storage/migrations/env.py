"""Alembic's environment for Peloton: the migrations run on the connection that
:func:`peloton.server.storage.migrations.upgrade` opened (and locked), in its
transaction, never on a URL of their own. ``target_metadata`` is the store's schema,
what ``alembic revision --autogenerate`` compares a database with."""

from __future__ import annotations

from alembic import context

from peloton.server.storage.store import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "Peloton's migrations run through 'peloton db upgrade' (or the server's start), "
        "which hands them a connection; not through the alembic command alone"
    )
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
