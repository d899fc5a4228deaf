"""The web report: static pages (`arena report`) and the same pages served live (`arena serve`),
rendered from the database with Jinja2; the replay viewer draws a game from its recorded
decisions and the per-seat views the referee sends. Every asset ships in the package."""
