"""How every command reads as one tool: a usage mistake is one line, like arena's own errors
(`error: ... `, exit 2); Ctrl-C exits 130; usage lines name arguments plainly (GAME, [GAME]).

Typer's own rendering would box click's errors over several lines and write a required
argument as {GAME}; these classes keep click's parsing and change only the words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import typer
import typer.core

from arena.cli.common import EXIT_INTERRUPTED, EXIT_USAGE, err_console
from arena.printable import shown


def _click_class(name: str) -> Any:
    """click's exception class ``name``, found through typer's public BadParameter: typer
    0.29 vendors click privately, older versions use the click package."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


UsageError = _click_class("UsageError")
ClickException = _click_class("ClickException")


def usage_error_line(exc: Any) -> str:
    """click's message on one line, with the command whose --help explains it."""
    message = " ".join(exc.format_message().split())
    command = exc.ctx.command_path if exc.ctx else "arena"
    return f"{message} (see: {command} --help)"


class ArenaGroup(typer.core.TyperGroup):
    """The root `arena` group: every command's mistakes pass through its main."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        try:
            # not standalone: click raises its errors here instead of printing them boxed
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
            code = result if isinstance(result, int) else 0
        except UsageError as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # `arena`, `arena league`: the help
                typer.echo(exc.format_message(), err=True)
                code = EXIT_USAGE
            else:
                code = _report(usage_error_line(exc), EXIT_USAGE)
        except ClickException as exc:
            code = _report(" ".join(exc.format_message().split()), exc.exit_code)
        except typer.Abort:  # Ctrl-C or end of input at a prompt
            code = EXIT_INTERRUPTED
        if standalone_mode:
            raise SystemExit(code)
        return code


def _report(message: str, code: int) -> int:
    err_console().print(f"[bold red]error:[/] {shown(message)}")
    return code


class ArenaCommand(typer.core.TyperCommand):
    """A command whose usage line and help name its arguments GAME or [GAME], not {GAME}."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if _is_argument(param):
                pieces.append(_argument_name(param, bracketed=not param.required))
            else:
                pieces.extend(param.get_usage_pieces(ctx))
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None:
                continue
            if _is_argument(param):
                arguments.append((_argument_name(param, bracketed=False), record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


def _is_argument(param: Any) -> bool:
    return bool(param.param_type_name == "argument")


def _argument_name(param: Any, *, bracketed: bool) -> str:
    name = param.metavar or (param.name or "").upper()
    name = f"[{name}]" if bracketed else name
    return name + ("..." if param.nargs != 1 else "")
