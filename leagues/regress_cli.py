"""`arena regress`: the CI gate. Plays a candidate against its baseline in duplicate and exits
0 (PASS), 1 (FAIL: a regression), 3 (INCONCLUSIVE), 2 (an error) or 130 (Ctrl-C)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from arena.cli.common import (
    BOT_HELP,
    DEFAULT_GAME_MS,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    BankMsOption,
    DecisionMsOption,
    GameMsOption,
    PlayersOption,
    SeedKeyOption,
    UnsandboxedOption,
    VariantOption,
    WorkersOption,
    check_table_size,
    console,
    contain_bots,
    fail,
    fresh_seed,
    open_db,
    resolve_bots,
    resolve_game,
    resolve_options,
    seed_option,
    seed_secret,
    time_control,
)
from arena.containment.limits import Limits
from arena.faults import Fault
from arena.printable import shown
from arena.record import GameRecord
from arena.seeds import random_deal_key
from leagues.reports import explanation, pair_summary, summary_line, write_json, write_junit
from leagues.sequential import Bounds, RegressResult, SequentialTest, Verdict, parse_bounds

if TYPE_CHECKING:
    from leagues.regress import PairResult

VERDICT_STYLE = {
    Verdict.PASS: "bold green",
    Verdict.FAIL: "bold red",
    Verdict.INCONCLUSIVE: "bold yellow",
}


def regress(
    game_title: Annotated[
        str, typer.Option("--game", "-g", metavar="GAME", help="The game title.")
    ],
    candidate: Annotated[
        Path, typer.Option(metavar="BOT", help=f"The bot under test: {BOT_HELP}.")
    ],
    baseline: Annotated[
        Path, typer.Option(metavar="BOT", help=f"The bot it must not be worse than: {BOT_HELP}.")
    ],
    field: Annotated[
        list[Path],
        typer.Option(
            "--field",
            "-f",
            metavar="BOT",
            help=f"A field bot, {BOT_HELP}; repeat (the same bot may be given twice).",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            min=16,
            metavar="MAX",
            help="At most this many games (pairs = games / 2); see leagues/REGRESS.md.",
        ),
    ] = 4000,
    bounds: Annotated[
        str | None,
        typer.Option(
            metavar="BOUNDS",
            help='Test bounds, e.g. "delta1=-0.1,alpha=0.01" (delta0, delta1, alpha, beta, '
            "min_pairs).",
        ),
    ] = None,
    players: PlayersOption = None,
    variant: VariantOption = None,
    seed: Annotated[
        int | None,
        seed_option(
            "Deals are derived from it with a secret key drawn for each run, so no bot can "
            "predict them and every run plays new deals; with --seed-key, the same seed and key "
            "play the same deals."
        ),
    ] = None,
    seed_key: SeedKeyOption = None,
    workers: WorkersOption = None,
    decision_ms: DecisionMsOption = 1000,
    bank_ms: BankMsOption = 5000,
    game_ms: GameMsOption = DEFAULT_GAME_MS,
    json_path: Annotated[
        Path | None, typer.Option("--json", metavar="FILE", help="Write a JSON report here.")
    ] = None,
    junit_path: Annotated[
        Path | None,
        typer.Option("--junit", metavar="FILE", help="Write a JUnit XML report here."),
    ] = None,
    html_path: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="FILE",
            help="Write a web page here: the verdict, the test's path between its bounds and "
            "the replay of every game (in a folder beside it, FILE's name + _files).",
        ),
    ] = None,
    db: Annotated[
        Path | None,
        typer.Option(
            "--db",
            metavar="FILE",
            help="Record every game played in this SQLite file (created if new), to look at "
            "the games behind a verdict with `arena games` and `arena show` (default: record "
            "nothing).",
        ),
    ] = None,
    unsandboxed: UnsandboxedOption = False,
) -> None:
    """Play CANDIDATE against BASELINE in duplicate deals until a sequential test (GSPRT) can
    tell whether the candidate is worse. Exit codes: 0 PASS, 1 FAIL (regression),
    3 INCONCLUSIVE (the game budget ran out first), 2 error, 130 interrupted.

    Example: arena regress --game corruption --candidate bots/corruption-greedy --baseline bots/random --field bots/random --field bots/random --json regress.json
    """
    # the games' machinery (worker pools, referee) and sqlite-utils: imported when a
    # regression test runs, so that `arena --help` and the other commands do not pay for it
    from arena.store import StoreError
    from leagues.regress import RegressPlan, run_regress

    game = resolve_game(game_title)
    bots = resolve_bots([candidate, baseline, *field])
    table = players or max(game.min_players, min(game.max_players, 1 + len(field)))
    check_table_size(game, table)
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
    secret = seed_secret(seed_key)
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
        time_control=time_control(decision_ms, bank_ms, game_ms),
        workers=workers or 1,
        limits=Limits(sandbox=sandbox),
        secret=secret if secret is not None else random_deal_key(),
    )
    out.print(
        f"regress {game.title}: {shown(bots[0].name)}@{shown(bots[0].version)} (candidate) vs "
        f"{shown(bots[1].name)}@{shown(bots[1].version)} (baseline) at tables of {table}, field "
        f"{shown(', '.join(b.name for b in bots[2:]))}; up to {games} games; seed {base_seed} "
        f"({'with a fresh secret key: new deals every run' if secret is None else 'with the seed key: the same deals every run'}); "
        f"H0 δ={test_bounds.delta0:g} vs H1 δ={test_bounds.delta1:g}, α={test_bounds.alpha:g}, β={test_bounds.beta:g}"
    )

    llr_path: list[float] = []

    def show(pair: PairResult, test: SequentialTest) -> None:
        llr_path.append(test.state().llr)
        if pair.pair % 25 == 24:
            state = test.state()
            out.print(
                f"  {state.pairs} pairs: mean d {state.mean:+.4f}, LLR {state.llr:+.3f} "
                f"(PASS ≤ {state.lower:.3f}, FAIL ≥ {state.upper:.3f})"
            )

    store = None if db is None else open_db(db, create=True, write=True, code=EXIT_USAGE)
    recorded: list[str] = []
    kept: list[GameRecord] = []

    def record(game: GameRecord) -> None:
        if html_path is not None:
            kept.append(game)
        if store is not None:
            store.save_game(game)
            recorded.append(game.game_id)

    try:
        run = run_regress(plan, on_pair=show, on_record=record)
    except KeyboardInterrupt:
        fail("interrupted before a verdict", EXIT_INTERRUPTED)
    except StoreError as exc:
        fail(f"{exc} (the games played so far are recorded)", EXIT_USAGE)
    finally:
        if store is not None:
            store.close()
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
    if db is not None:
        out.print(f"{len(recorded)} game(s) recorded: arena games --db {shown(db)}")
    if json_path:
        write_json(json_path, result, extra)
    if junit_path:
        write_junit(junit_path, result, extra)
    if html_path:
        write_html(html_path, result, extra, run.pairs, llr_path, kept)
    raise typer.Exit(result.exit_code)


def write_html(
    page: Path,
    result: RegressResult,
    extra: dict[str, Any],
    pairs: list[PairResult],
    llr_path: list[float],
    games: list[GameRecord],
) -> None:
    """`--html`: the verdict page, linking each pair to the replays of its two games."""
    from arena.web.regress_page import PairRow, TestPath, write_regress_page

    by_task = {task_index(game.game_id): game.game_id for game in games}
    facts = [
        ("game", str(extra["game"])),
        ("candidate", str(extra["candidate"])),
        ("baseline", str(extra["baseline"])),
        ("field", ", ".join(extra["field"])),
        ("table size", str(extra["players"])),
        ("games played", str(extra["games"])),
        ("candidate faults", str(extra["candidate_faults"])),
        ("bounds", result.bounds.to_flag()),
        ("seed", str(extra["seed"])),
    ]
    write_regress_page(
        page,
        verdict=str(result.verdict),
        summary=summary_line(result),
        explanation=explanation(result),
        facts=facts,
        path=TestPath(llr_path, result.lower_bound, result.upper_bound),
        pairs=[
            PairRow(
                number=pair.pair,
                seat=pair.seat,
                candidate_rank=pair.candidate_rank,
                baseline_rank=pair.baseline_rank,
                difference=pair.difference,
                faults=", ".join(
                    f"{who} {fault}"
                    for who, fault in (
                        ("candidate", pair.candidate_fault),
                        ("baseline", pair.baseline_fault),
                    )
                    if fault != Fault.OK
                ),
                candidate_game=by_task.get(2 * pair.pair),
                baseline_game=by_task.get(2 * pair.pair + 1),
            )
            for pair in pairs
        ],
        games=games,
    )


def task_index(game_id: str) -> int | None:
    """The task a regress game played (game 2k: pair k's candidate, 2k+1: its baseline), from
    the id leagues.execution.GamePlan.game_id gave it."""
    _, _, index = game_id.rpartition("-")
    return int(index) if index.isdigit() else None
