"""Playing together beyond one table (issue 26): "Your games" and the notices that it is your
turn (:mod:`.turns`), the site socket that carries them to the browser (:mod:`.site`)."""
