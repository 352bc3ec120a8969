"""Club play: ratings, profiles' statistics and tournaments, as pure logic (no I/O).

- :mod:`chicago.club.ratings`: OpenSkill ratings of profiles and bot levels, one ladder
  per rule family and number of players, recomputable from the rated games;
- :mod:`chicago.club.names`: when two profile names are the same name;
- :mod:`chicago.club.stats`: a profile's statistics, summed from its games' counters;
- :mod:`chicago.club.seating`: who sits with whom in a tournament round;
- :mod:`chicago.club.tournament`: a tournament's rounds, duplicate deal sequences and
  standings.

The table server (:mod:`chicago.server`) stores and serves them; docs/CLUB.md describes
the rules of club play for players.
"""
