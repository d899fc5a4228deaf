"""PARANOIA: Mandatory Bonus Fun! (Mongoose, 2005) -- work in progress.

Only the card set exists so far: ``cards.toml`` (the data, with provenance per card),
``cardset`` (its typed loader and validation) and ``CARDS.md`` (the effect vocabulary and
rulings). The engine is not yet written, so this title is deliberately not registered in
``arena.games`` and exposes no ``GAME``.
"""
