"""What each profile's name looks like (no two profiles look alike), and the server's
secrets shared by every node (the one sealing sign-in challenges). The looks of older
profiles are filled in by the profiles' own start (they need the ICU rules)."""

from __future__ import annotations

import sqlalchemy as sa

from peloton.server.storage.migrations import steps

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    steps.create_table(
        "profile_looks",
        sa.Column("look", sa.String(192), primary_key=True),
        sa.Column("name", sa.String(24), nullable=False),
    )
    steps.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("secret", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    raise NotImplementedError("Peloton's migrations go forward only: restore a backup instead")
