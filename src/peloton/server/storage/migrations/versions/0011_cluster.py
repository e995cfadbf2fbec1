"""Cluster mode: the leases (which node runs which table, until when, in which tenure),
the nodes alive, and the sign-in challenges used up (answered on any node, once)."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.create_table(
        "leases",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.Column("epoch", sa.BigInteger, nullable=False),
    )
    steps.create_table(
        "nodes",
        sa.Column("node", sa.String(32), primary_key=True),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
    )
    steps.create_table(
        "profile_challenges",
        sa.Column("nonce", sa.String(64), primary_key=True),
        sa.Column("name_key", sa.String(96), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
