"""Play now with people (issue 26): a place in a queue by preset and number of players.

- :mod:`~chicago.server.pairing.match`: who sits with whom (pure: the waiting places and the
  time in, the tables to form out);
- :mod:`~chicago.server.pairing.service`: the queue's passes (on every worker, the database
  the arbiter), the tables they make, the news to the people waiting;
- :mod:`~chicago.server.pairing.socket`: the socket ``/ws/pairing`` a person waits on.

docs/SERVER.md, "Pairing", says how it works.
"""
