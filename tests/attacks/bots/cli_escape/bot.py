"""Attack: the referee's terminal, through escape sequences. It writes terminal control
sequences (clear the screen, set the window title, a hyperlink) and markup to its stderr, then
crashes: a crash's reason quotes the end of the bot's stderr, and `arena check` prints it."""

import sys

from attacklib import play


def on_request(number, request):
    if number == 1:
        sys.stderr.write(
            "\x1b[2J\x1b]0;pwned\x07\x1b]8;;http://evil/\x1b\\link\x1b]8;;\x1b\\ [/]\n"
        )
        sys.stderr.flush()
        sys.exit(5)
    return None


play(name="cli-escape", on_request=on_request)
