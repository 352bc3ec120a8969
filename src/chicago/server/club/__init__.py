"""Club play on the table server (docs/CLUB.md): profiles, ratings, tournaments.

- :mod:`chicago.server.club.service`: the club service of one server process: the shown
  ratings of every ladder, the rating applier, the hooks into the table manager;
- :mod:`chicago.server.club.director`: tournaments: joining, starting, seating and
  starting each round exactly once, standings;
- :mod:`chicago.server.club.routes`: the HTTP API (docs/PROTOCOL.md, "Club").

The pure logic is :mod:`chicago.club`; storage is :mod:`chicago.server.storage.club`;
what a finished game stores for the club is decided with its last action by the table core
(:mod:`chicago.server.core.finish`).
"""
