"""`arena regress`: the CI gate. Plays a candidate against its baseline in duplicate and exits
0 (PASS), 1 (FAIL: a regression), 3 (INCONCLUSIVE) or 2 (an error)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from arena.cli.common import (
    DEFAULT_GAME_MS,
    EXIT_USAGE,
    GameMsOption,
    UnsandboxedOption,
    console,
    contain_bots,
    fail,
    fresh_seed,
    resolve_bots,
    resolve_game,
    resolve_options,
)
from arena.containment.limits import Limits
from arena.faults import Fault
from arena.printable import shown
from arena.referee import TimeControl
from leagues.regress import PairResult, RegressPlan, run_regress
from leagues.reports import pair_summary, summary_line, write_json, write_junit
from leagues.sequential import Bounds, SequentialTest, Verdict, parse_bounds

VERDICT_STYLE = {
    Verdict.PASS: "bold green",
    Verdict.FAIL: "bold red",
    Verdict.INCONCLUSIVE: "bold yellow",
}


def regress(
    game_title: Annotated[str, typer.Option("--game", "-g", help="The game title.")],
    candidate: Annotated[Path, typer.Option(help="The bot under test (a bot directory).")],
    baseline: Annotated[Path, typer.Option(help="The bot it must not be worse than.")],
    field: Annotated[
        list[Path],
        typer.Option(
            "--field", "-f", help="A field bot; repeat (the same bot may be given twice)."
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            min=16, help="At most this many games (pairs = games / 2); see leagues/REGRESS.md."
        ),
    ] = 4000,
    bounds: Annotated[
        str | None,
        typer.Option(
            help='Test bounds, e.g. "delta1=-0.1,alpha=0.01" (delta0, delta1, alpha, beta, min_pairs).'
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option(help="Table size (default: 1 + the field, within the game's range)."),
    ] = None,
    variant: Annotated[
        list[str] | None, typer.Option("--variant", "-v", help="A game variant; repeat to combine.")
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help="Base seed of the deals (default: random, printed). Deals are derived from it "
            "with a secret key drawn for each run, so no bot can predict them and every run "
            "plays new deals."
        ),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Worker processes.")] = 1,
    decision_ms: Annotated[int, typer.Option(min=1, help="Time per decision, in ms.")] = 1000,
    bank_ms: Annotated[int, typer.Option(min=0, help="Time bank per seat per game, in ms.")] = 5000,
    game_ms: GameMsOption = DEFAULT_GAME_MS,
    json_path: Annotated[
        Path | None, typer.Option("--json", help="Write a JSON report here.")
    ] = None,
    junit_path: Annotated[
        Path | None, typer.Option("--junit", help="Write a JUnit XML report here.")
    ] = None,
    unsandboxed: UnsandboxedOption = False,
) -> None:
    """Play CANDIDATE against BASELINE in duplicate deals until a sequential test (GSPRT) can
    tell whether the candidate is worse. Exit codes: 0 PASS, 1 FAIL (regression),
    3 INCONCLUSIVE (the game budget ran out first), 2 error.

    Example: arena regress --game corruption --candidate bots/corruption-greedy --baseline bots/random --field bots/random --field bots/random --json regress.json
    """
    game = resolve_game(game_title)
    bots = resolve_bots([candidate, baseline, *field])
    table = players or max(game.min_players, min(game.max_players, 1 + len(field)))
    if not game.min_players <= table <= game.max_players:
        fail(
            f"{game.title} is played by {game.min_players} to {game.max_players} players",
            EXIT_USAGE,
        )
    try:
        test_bounds = parse_bounds(bounds) if bounds else Bounds()
    except ValueError as exc:
        fail(f"--bounds: {exc}", EXIT_USAGE)
    if games // 2 < test_bounds.min_pairs:
        fail(
            f"--games {games} allows fewer pairs than min_pairs={test_bounds.min_pairs}", EXIT_USAGE
        )
    options = resolve_options(game, variant or [])
    base_seed = fresh_seed() if seed is None else seed
    out = console()
    sandbox = contain_bots(unsandboxed, out, EXIT_USAGE)  # 2: an error, not a FAIL
    plan = RegressPlan(
        game=game,
        candidate=bots[0],
        baseline=bots[1],
        field_bots=tuple(bots[2:]),
        players=table,
        max_pairs=games // 2,
        seed=base_seed,
        bounds=test_bounds,
        options=options,
        time_control=TimeControl(decision_ms / 1000, bank_ms / 1000, game_s=game_ms / 1000),
        workers=workers,
        limits=Limits(sandbox=sandbox),
    )
    out.print(
        f"regress {game.title}: {shown(bots[0].name)}@{shown(bots[0].version)} (candidate) vs "
        f"{shown(bots[1].name)}@{shown(bots[1].version)} (baseline) at tables of {table}, field "
        f"{shown(', '.join(b.name for b in bots[2:]))}; up to {games} games; seed {base_seed} "
        "(with a fresh secret key: new deals every run); "
        f"H0 δ={test_bounds.delta0:g} vs H1 δ={test_bounds.delta1:g}, α={test_bounds.alpha:g}, β={test_bounds.beta:g}"
    )

    def show(pair: PairResult, test: SequentialTest) -> None:
        if pair.pair % 25 == 24:
            state = test.state()
            out.print(
                f"  {state.pairs} pairs: mean d {state.mean:+.4f}, LLR {state.llr:+.3f} "
                f"(PASS ≤ {state.lower:.3f}, FAIL ≥ {state.upper:.3f})"
            )

    try:
        run = run_regress(plan, on_pair=show)
    except KeyboardInterrupt:
        fail("interrupted before a verdict", EXIT_USAGE)
    result = run.result
    out.print(f"[{VERDICT_STYLE[result.verdict]}]{summary_line(result)}[/]")
    faults = sum(p.candidate_fault != Fault.OK for p in run.pairs)
    if faults:
        out.print(
            f"[red]the candidate faulted in {faults} game(s): run `arena check "
            f"{shown(candidate)}`[/]"
        )
    extra = {
        "game": game.title,
        "candidate": f"{bots[0].name}@{bots[0].version}",
        "baseline": f"{bots[1].name}@{bots[1].version}",
        "field": [f"{b.name}@{b.version}" for b in bots[2:]],
        "players": table,
        "seed": base_seed,
        "games": 2 * len(run.pairs),
        "candidate_faults": faults,
        "pairs": pair_summary(p.difference for p in run.pairs),
        "elapsed_seconds": round(run.elapsed_s, 3),
    }
    if json_path:
        write_json(json_path, result, extra)
    if junit_path:
        write_junit(junit_path, result, extra)
    raise typer.Exit(result.exit_code)
