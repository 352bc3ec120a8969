"""The database schema (SQLAlchemy Core tables; Alembic migrations create them).

The table server's three tables, the same on SQLite and PostgreSQL:

- ``tables``: one row per table: its fixed configuration (rules, seats, options, the secret
  that seeds its bots) and a few columns kept up to date for the lobby (``status``,
  ``open_seats``, ``game``).
- ``games``: one row per game played at a table: its seed, and when it is over its result and
  full record (served for replays).
- ``log``: the table's stream, one row per stored change, numbered by ``seq`` from 1. The
  primary key ``(table_id, seq)`` makes the log append-only and single-writer: two writers
  can never both store a change with the same number. A live table's engine state is always
  rebuilt from this log.

Club play (migration 0002, docs/CLUB.md) adds profiles, the players and counters of every
finished game, rated games with their rating changes, current ratings, and tournaments with
their entrants and rounds.

Reviews (migration ``0003_reviews``, docs/SERVER.md "Reviews") add ``reviews``, one row per
reviewed seat of a finished game (its state, progress and, once ready, the review's JSON),
and the column ``games.review_due``: the seats to review, set with the game's last action
and cleared when their ``reviews`` rows are made (so a review is never forgotten, even if
the server stops right after the game ended).

The tournament controls (migration ``0004_tournament_controls``, docs/CLUB.md) add
``tournaments.ends_after`` (the round after which the organizer ended it early) and
``tournaments.joins`` (the entrant numbers handed out, never handed out twice); the status
may also be ``cancelled``.

Profile names (migration ``0005_profile_names``, docs/CLUB.md "Players") add
``profiles.name_key`` with a unique index: no two profiles share a name
(:func:`chicago.club.names.name_key`). Profiles that shared one before keep their names;
all but the oldest get a key of their own (the name's key, ``#`` and their id).

Play again by agreement (migration ``0008_play_again``) adds ``tables.answer_by``: until
when the people of a finished game may answer whether to play again. Your games (migration
``0009_your_games``) adds ``tables.to_act`` and ``tables.turn_at`` (whose turn it is, since
when) and ``seat_holders`` (who holds each seat). Who is online (migration ``0011_online``)
adds ``profile_online`` (who chose to be shown online), ``follows`` and ``invites``.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = [
    "follows",
    "game_players",
    "games",
    "invites",
    "log",
    "mail_outbox",
    "metadata",
    "profile_mail",
    "profile_online",
    "profiles",
    "rated_games",
    "rating_changes",
    "ratings",
    "reviews",
    "seat_holders",
    "tables",
    "tournament_entrants",
    "tournament_rounds",
    "tournament_tables",
    "tournaments",
]

metadata = MetaData(
    naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("players", Integer, nullable=False),
    Column("preset", String(40), nullable=False),
    Column("rules", Text, nullable=False),  # JSON: Rules.to_dict()
    Column("variations", Text, nullable=False),  # JSON list of ids
    Column("seats", Text, nullable=False),  # JSON list: "open" | "bot:LEVEL"
    Column("options", Text, nullable=False),  # JSON: clock, stand_in, bot_delay
    Column("private", Boolean, nullable=False),
    Column("secret", String(64), nullable=False),  # seeds the table's bots
    Column("status", String(16), nullable=False),  # waiting | playing | finished
    Column("open_seats", Integer, nullable=False),
    Column("game", Integer, nullable=False),  # current game number
    Column("created_at", Float, nullable=False),  # UNIX seconds
    Column("updated_at", Float, nullable=False),
    # 0008_play_again: until when the people of a finished game may answer Play again
    Column("answer_by", Float, nullable=True),
    # 0009_your_games: the seat to act (null: the game is over) and since when
    Column("to_act", Integer, nullable=True),
    Column("turn_at", Float, nullable=True),
    Index("ix_tables_status_created", "status", "created_at"),
)

seat_holders = Table(
    "seat_holders",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("profile_id", String(32), nullable=True),  # null: a guest
    Column("token_hash", String(64), nullable=False),
    Index("ix_seat_holders_profile", "profile_id"),
    Index("ix_seat_holders_token", "token_hash"),
)
"""Who holds each seat taken by a person (0009_your_games): "Your games" finds a profile's
or a seat token's tables where it is their turn without loading any table."""

games = Table(
    "games",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("rules", Text, nullable=False),  # JSON
    Column("players", Integer, nullable=False),
    Column("status", String(16), nullable=False),  # playing | finished
    Column("names", Text, nullable=True),  # JSON list, set when the game ends
    Column("result", Text, nullable=True),  # JSON: over, deals, scores, winners, settlement
    Column("record", Text, nullable=True),  # JSON game record, set when the game ends
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
    Column("review_due", Text, nullable=True),  # JSON list of seats to review (0003_reviews)
    Index("ix_games_status_finished", "status", "finished_at"),
    Index("ix_games_review_due", "review_due"),
)

log = Table(
    "log",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True, autoincrement=False),
    Column("game", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # game | join | act | away | back | chat
    Column("seat", Integer, nullable=True),
    Column("data", Text, nullable=False),  # JSON object
    Column("created_at", Float, nullable=False),
)

# ---------------------------------------------------------------------- club play (0002)
# docs/CLUB.md. Secrets are stored as SHA-256 hashes only.

profiles = Table(
    "profiles",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("secret_hash", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("rotated_at", Float, nullable=False),  # the secret's last change
    # chicago.club.names.name_key of the name (0005_profile_names): one profile a name
    Column("name_key", String(200), nullable=True),
    Index("ix_profiles_name_key", "name_key", unique=True),
)

game_players = Table(
    "game_players",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("participant", String(48), nullable=True),  # profile:ID | bot:LEVEL | None: guest
    Column("profile_id", String(32), ForeignKey("profiles.id"), nullable=True),
    Column("ladder", String(40), nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("line", Text, nullable=False),  # JSON: chicago.club.stats.game_lines
    Column("finished_at", Float, nullable=False),
    Index("ix_game_players_profile", "profile_id", "finished_at"),
)
"""One row per seat of every finished game: who sat there and what the seat did."""

rated_games = Table(
    "rated_games",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),  # the order of rating
    Column("table_id", String(32), nullable=False),
    Column("number", Integer, nullable=False),
    Column("ladder", String(40), nullable=False),
    Column("participants", Text, nullable=False),  # JSON list per seat
    Column("places", Text, nullable=False),  # JSON list per seat
    Column("applied", Boolean, nullable=False),
    Column("finished_at", Float, nullable=False),
    Index("ix_rated_games_game", "table_id", "number", unique=True),
    Index("ix_rated_games_applied", "applied", "seq"),
)
"""A rated game, stored with the game's last action; ``applied`` once its rating changes
are stored (exactly once: the update is conditional on ``applied`` being false)."""

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("seq", Integer, ForeignKey("rated_games.seq"), primary_key=True,
           autoincrement=False),
    Column("participant", String(48), primary_key=True),
    Column("ladder", String(40), nullable=False),
    Column("seats", Text, nullable=False),  # JSON list
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_rating_changes_participant", "participant", "ladder", "seq"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("ladder", String(40), primary_key=True),
    Column("participant", String(48), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_ratings_ladder", "ladder", "mu"),
)
"""Current ratings: the last ``rating_changes`` row of each participant and ladder."""

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(80), nullable=False),
    Column("organizer_hash", String(64), nullable=False),
    Column("spec", Text, nullable=False),  # JSON: rules, tables, size, rounds, duplicate…
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # registering | playing | finished |
    # cancelled
    Column("round", Integer, nullable=False),  # the current round, 0 before the start
    Column("ends_after", Integer, nullable=True),  # 0004: ended early after this round
    Column("joins", Integer, nullable=False, server_default="0"),  # 0004: e-numbers given
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
    Index("ix_tournaments_status", "status", "created_at"),
)

tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id"), primary_key=True),
    Column("entrant", String(8), primary_key=True),  # e1, e2 … (people), b1 … (bots)
    Column("ord", Integer, nullable=False),  # joining order
    Column("name", String(80), nullable=False),
    Column("profile_id", String(32), ForeignKey("profiles.id"), nullable=True),
    Column("level", String(40), nullable=True),  # a bot's level
    Column("joined_at", Float, nullable=False),
    Index("ix_tournament_entrants_profile", "tournament_id", "profile_id", unique=True),
)

tournament_rounds = Table(
    "tournament_rounds",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id"), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("plan", Text, nullable=False),  # JSON: chicago.club.tournament.RoundPlan
    Column("status", String(16), nullable=False),  # playing | finished
    Column("started_at", Float, nullable=False),
    Column("finished_at", Float, nullable=True),
)
"""One row per started round; its primary key makes a round start exactly once."""

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("round", Integer, primary_key=True, autoincrement=False),
    Column("number", Integer, primary_key=True, autoincrement=False),  # 1-based
    Column("table_id", String(32), ForeignKey("tables.id"), nullable=False, unique=True),
    Column("seats", Text, nullable=False),  # JSON list: the entrant of each seat
    ForeignKeyConstraint(["tournament_id", "round"],
                         ["tournament_rounds.tournament_id", "tournament_rounds.number"],
                         name="fk_tournament_tables_round_tournament_rounds"),
)
"""The tables of a round: which live table plays it, who sits where."""

# ---------------------------------------------------------------------- mail (0010)
# docs/SERVER.md, "Mail".

profile_mail = Table(
    "profile_mail",
    metadata,
    Column("profile_id", String(32), ForeignKey("profiles.id"), primary_key=True),
    Column("address", String(254), nullable=False),
    Column("confirmed", Boolean, nullable=False),
    Column("confirm_hash", String(64), nullable=True),  # until confirmed
    Column("notify", Boolean, nullable=False),
    Column("unsubscribe", String(64), nullable=False, unique=True),  # the links' token
    Column("updated_at", Float, nullable=False),
)
"""A profile's address for the notices and its wishes."""

mail_outbox = Table(
    "mail_outbox",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("profile_id", String(32), nullable=False),
    Column("address", String(254), nullable=False),
    Column("kind", String(16), nullable=False),  # confirm | turn | clock
    Column("subject", String(200), nullable=False),
    Column("body", Text, nullable=False),
    Column("unsubscribe", String(64), nullable=True),
    Column("created_at", Float, nullable=False),
    Column("sent_at", Float, nullable=True),
    Column("worker", String(32), nullable=True),  # the worker sending it
    Column("claimed_at", Float, nullable=True),
    Column("attempts", Integer, nullable=False),
    Column("error", Text, nullable=True),
    Index("ix_mail_outbox_profile", "profile_id", "created_at"),
    Index("ix_mail_outbox_pending", "sent_at", "id"),
)
"""Every mail queued or sent: a restart sends what was queued; the caps count it."""

# ---------------------------------------------------------------------- people (0011)
# docs/SERVER.md, "People".

profile_online = Table(
    "profile_online",
    metadata,
    Column("profile_id", String(32), ForeignKey("profiles.id"), primary_key=True),
    Column("show", Boolean, nullable=False),
    Column("updated_at", Float, nullable=False),
)
"""A profile's choice to be shown as online (no row: not shown)."""

follows = Table(
    "follows",
    metadata,
    Column("follower_id", String(32), ForeignKey("profiles.id"), primary_key=True),
    Column("followee_id", String(32), ForeignKey("profiles.id"), primary_key=True),
    Column("created_at", Float, nullable=False),
    Index("ix_follows_followee", "followee_id"),
)
"""Who follows whom."""

invites = Table(
    "invites",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("table_id", String(32), nullable=False),
    Column("inviter_id", String(32), nullable=False),
    Column("invitee_id", String(32), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),  # None: open
    Column("outcome", String(16), nullable=True),  # declined | joined | withdrawn | full | ...
    Index("ix_invites_invitee", "invitee_id", "ended_at"),
    Index("ix_invites_inviter", "inviter_id", "created_at"),
    Index("ix_invites_table", "table_id", "ended_at"),
    Index("ix_invites_created", "created_at"),
)
"""Invitations to a table; the caps per profile and per site count them."""

# ---------------------------------------------------------------------- reviews (0003)
# docs/SERVER.md, "Reviews".

reviews = Table(
    "reviews",
    metadata,
    Column("table_id", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("seat", Integer, primary_key=True, autoincrement=False),
    Column("status", String(16), nullable=False),  # queued | running | ready | failed
    # 0: after the game ended, 1: asked for by a player of the game, 2: by anyone else
    Column("priority", Integer, nullable=False),
    Column("level", String(80), nullable=False),  # ReviewLevel spec
    Column("seed", Integer, nullable=False),
    Column("hindsight", Boolean, nullable=False),
    Column("done", Integer, nullable=False),  # decisions judged so far
    Column("total", Integer, nullable=True),  # decisions to judge (known once it runs)
    Column("attempts", Integer, nullable=False),  # runs started
    Column("worker", String(32), nullable=True),  # the worker process running it
    Column("review", Text, nullable=True),  # the Review's JSON, once ready
    Column("accuracy", Float, nullable=True),
    Column("loss", Float, nullable=True),
    Column("error", Text, nullable=True),  # why it failed
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),  # while running: its worker's heartbeat
    # who asked for it (0007_review_askers): the address (a client key) and the profile
    Column("asked_by", String(64), nullable=True),
    Column("asked_profile", String(32), nullable=True),
    ForeignKeyConstraint(["table_id", "number"], ["games.table_id", "games.number"],
                         name="fk_reviews_game_games"),
    Index("ix_reviews_queue", "status", "priority", "created_at"),
)
"""One row per reviewed seat of a finished game; the primary key makes each review one
row, and a worker runs it only after claiming it (``status`` from ``queued`` to
``running`` with its ``worker`` id, an update conditional on the row as it read it)."""
