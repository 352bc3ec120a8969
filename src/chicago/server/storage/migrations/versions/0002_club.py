"""Club play: profiles, game players, ratings, tournaments (docs/CLUB.md).

Revision ID: 0002
Revises: 0001
Create Date: 2025-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the club tables and their indexes."""
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("rotated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_profiles"),
        sa.UniqueConstraint("secret_hash", name="uq_profiles_secret_hash"),
    )
    op.create_table(
        "game_players",
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("participant", sa.String(48), nullable=True),
        sa.Column("profile_id", sa.String(32), nullable=True),
        sa.Column("ladder", sa.String(40), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["profile_id"], ["profiles.id"],
                                name="fk_game_players_profile_id_profiles"),
        sa.PrimaryKeyConstraint("table_id", "number", "seat", name="pk_game_players"),
    )
    op.create_index("ix_game_players_profile", "game_players", ["profile_id", "finished_at"])
    op.create_table(
        "rated_games",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ladder", sa.String(40), nullable=False),
        sa.Column("participants", sa.Text(), nullable=False),
        sa.Column("places", sa.Text(), nullable=False),
        sa.Column("applied", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("seq", name="pk_rated_games"),
    )
    op.create_index("ix_rated_games_game", "rated_games", ["table_id", "number"], unique=True)
    op.create_index("ix_rated_games_applied", "rated_games", ["applied", "seq"])
    op.create_table(
        "rating_changes",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("participant", sa.String(48), nullable=False),
        sa.Column("ladder", sa.String(40), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["seq"], ["rated_games.seq"],
                                name="fk_rating_changes_seq_rated_games"),
        sa.PrimaryKeyConstraint("seq", "participant", name="pk_rating_changes"),
    )
    op.create_index("ix_rating_changes_participant", "rating_changes",
                    ["participant", "ladder", "seq"])
    op.create_table(
        "ratings",
        sa.Column("ladder", sa.String(40), nullable=False),
        sa.Column("participant", sa.String(48), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("ladder", "participant", name="pk_ratings"),
    )
    op.create_index("ix_ratings_ladder", "ratings", ["ladder", "mu"])
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("organizer_hash", sa.String(64), nullable=False),
        sa.Column("spec", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status", "created_at"])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("entrant", sa.String(8), nullable=False),
        sa.Column("ord", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("profile_id", sa.String(32), nullable=True),
        sa.Column("level", sa.String(40), nullable=True),
        sa.Column("joined_at", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_entrants_tournament_id_tournaments"),
        sa.ForeignKeyConstraint(["profile_id"], ["profiles.id"],
                                name="fk_tournament_entrants_profile_id_profiles"),
        sa.PrimaryKeyConstraint("tournament_id", "entrant", name="pk_tournament_entrants"),
    )
    op.create_index("ix_tournament_entrants_profile", "tournament_entrants",
                    ["tournament_id", "profile_id"], unique=True)
    op.create_table(
        "tournament_rounds",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("plan", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"],
                                name="fk_tournament_rounds_tournament_id_tournaments"),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="pk_tournament_rounds"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.String(32), nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("number", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("seats", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id", "round"],
                                ["tournament_rounds.tournament_id", "tournament_rounds.number"],
                                name="fk_tournament_tables_round_tournament_rounds"),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"],
                                name="fk_tournament_tables_table_id_tables"),
        sa.PrimaryKeyConstraint("tournament_id", "round", "number", name="pk_tournament_tables"),
        sa.UniqueConstraint("table_id", name="uq_tournament_tables_table_id"),
    )


def downgrade() -> None:
    """Drop the club tables."""
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_index("ix_tournament_entrants_profile", table_name="tournament_entrants")
    op.drop_table("tournament_entrants")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
    op.drop_index("ix_ratings_ladder", table_name="ratings")
    op.drop_table("ratings")
    op.drop_index("ix_rating_changes_participant", table_name="rating_changes")
    op.drop_table("rating_changes")
    op.drop_index("ix_rated_games_applied", table_name="rated_games")
    op.drop_index("ix_rated_games_game", table_name="rated_games")
    op.drop_table("rated_games")
    op.drop_index("ix_game_players_profile", table_name="game_players")
    op.drop_table("game_players")
    op.drop_table("profiles")
