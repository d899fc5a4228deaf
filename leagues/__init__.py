"""Leagues: league files, schedules (round-robin, gauntlet, duplicate deals), parallel runs
that survive interruption, standings, and the CI regression gate."""
