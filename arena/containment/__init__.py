"""Containment of bot processes: the sandbox, the limits, and the checks that they hold.

Bots are untrusted programs (README, "Containment", has the table of every protection):
- ``snapshot``: a bot's folder is copied, read-only and content-addressed, when it is loaded;
  the copy is what runs.
- ``bubblewrap`` + ``seccomp``: the sandbox (namespaces, an unprivileged user, no
  capabilities, a system-call filter, a private size-capped /tmp).
- ``cgroups``: memory, processes and CPU per bot, and a kill that reaches every process.
- ``limits``: the per-bot budget (``Limits``) and the clean environment.
- ``launcher``: the first program of every bot process; ``launch`` puts it all together.
- ``readiness``: whether this machine can do all that, and what to do when it cannot.
"""
