"""Game reviews against perfect play, for every game: each move's fields agree with
``analyze`` and ``solve`` of the position before it, both backends review alike, an illegal
move is reported at its ply, and the players' summaries add up."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from perfectplay import connect4, footholds, mnk, tictactoe
from perfectplay._kernel.review import Review

STARTS: dict[str, Any] = {
    "tictactoe": lambda: tictactoe.Position(),
    # Small boards, some already played: the twin reviews them in seconds too.
    "mnk": lambda: mnk.Position("x.../.o../....", 3),
    "connect4": lambda: connect4.Position("1234", width=4, height=4),
    "footholds": lambda: footholds.Position("1111/1111/1111", (0, 0), (2, 3)),
}
MODULES: dict[str, Any] = {
    "tictactoe": tictactoe,
    "mnk": mnk,
    "connect4": connect4,
    "footholds": footholds,
}


def random_record(name: str, rng: random.Random) -> list[Any]:
    """A game of random moves, sometimes stopped early."""
    here, moves = STARTS[name](), []
    for _ in range(rng.randrange(1, 40)):
        if here.is_over:
            break
        move = rng.choice(here.legal_moves)
        moves.append(move)
        here = here.play(move)
    return moves


def reviewed(name: str, record: list[Any]) -> Review:
    review: Review = MODULES[name].review(record, start=STARTS[name]())
    return review


def rank(value: int, plies: int) -> tuple[int, int]:
    return (value, -plies if value > 0 else plies)


@pytest.mark.parametrize("name", list(MODULES))
def test_each_move_agrees_with_analyze_and_solve(name: str) -> None:
    rng = random.Random(7)
    for _ in range(20):
        record = random_record(name, rng)
        review = reviewed(name, record)
        assert review.illegal is None and len(review.moves) == len(record)
        here = STARTS[name]()
        for ply, (given, move) in enumerate(zip(record, review.moves, strict=True), 1):
            analysis, solution = here.analyze(), here.solve()
            best = max(rank(*answer) for answer in analysis.values())
            assert (move.ply, move.move, move.player) == (ply, given, here.to_move)
            assert move.value_before == solution.value == best[0]
            assert move.best_plies == solution.plies
            assert (move.value_after, move.plies) == analysis[given]
            assert sorted(move.best_moves) == sorted(solution.best_moves)
            assert move.perfect == (given in solution.best_moves)
            assert move.good == (move.value_after == move.value_before)
            assert move.blunder == (move.value_after < move.value_before)
            if move.good:
                assert move.plies_lost is not None and move.plies_lost >= 0
                assert (move.plies_lost == 0) == move.perfect
            else:
                assert move.plies_lost is None
            here = here.play(given)
        assert review.final == here


@pytest.mark.parametrize("name", list(MODULES))
def test_the_players_summaries_add_up(name: str) -> None:
    rng = random.Random(11)
    for _ in range(10):
        review = reviewed(name, random_record(name, rng))
        assert sum(p.moves for p in review.players.values()) == len(review.moves)
        for mark, player in review.players.items():
            mine = [m for m in review.moves if m.player == mark]
            assert player.perfect == sum(m.perfect for m in mine)
            assert player.good == sum(m.good for m in mine)
            assert player.blunders == sum(m.blunder for m in mine) == len(mine) - player.good
            if mine:
                assert player.perfect_rate == player.perfect / len(mine)
                credit = sum(1.0 if m.perfect else 0.5 if m.good else 0.0 for m in mine)
                assert player.accuracy == pytest.approx(100 * credit / len(mine))


def student_record(start: connect4.Position, rng: random.Random) -> list[int]:
    """A game to its end from ``start``, a best move four times in five, else a random one."""
    here, moves = start, []
    while not here.is_over:
        best = here.best_moves()
        move = rng.choice(best) if rng.random() < 0.8 else rng.choice(here.legal_moves)
        moves.append(move)
        here = here.play(move)
    return moves


def judged_by_ranking(start: connect4.Position, record: list[int]) -> Review:
    from perfectplay._kernel import review as reviewing

    pons = connect4._pons_of_move
    judge = reviewing.judge_by_ranking
    return reviewing.review(start, record, ("x", "o"), move_score=pons, judge=judge)


@pytest.mark.parametrize(
    ("size", "stones", "games"),
    [
        # 7x6 one and two stones past the books, where the null windows save most.
        pytest.param((7, 6), 13, 3, marks=pytest.mark.compiled),
        ((4, 4), 3, 12),
    ],
)
def test_connect_four_judges_moves_as_the_ranking_does(
    size: tuple[int, int], stones: int, games: int
) -> None:
    """Connect Four's review scores only the position and the move played; the answers are
    those of every move ranked exactly (the other games' way)."""
    rng = random.Random(17)
    for _ in range(games):
        start = connect4.Position.empty(*size)
        while start.played < stones:
            start = start.play(rng.choice(start.legal_moves))
            if start.is_over:
                start = connect4.Position.empty(*size)
        record = student_record(start, rng)
        assert connect4.review(record, start=start) == judged_by_ranking(start, record)


def test_connect_four_scores_what_each_move_gave_away() -> None:
    review = connect4.review("4453")
    scores = [connect4.analyze(text) for text in ("", "4", "44", "445")]
    for move, analysis, before in zip(review.moves, scores, ("", "4", "44", "445"), strict=True):
        best = max(connect4.score(before + str(col + 1)) * -1 for col in analysis)
        played = -connect4.score(before + str(move.move + 1))
        assert move.score_lost == best - played >= 0
    # Separators as language models write moves; a letter is refused, naming it.
    assert connect4.review("4, 4 5,3").moves == review.moves
    with pytest.raises(ValueError, match="not 'a'"):
        connect4.review("44a")


@pytest.mark.parametrize(
    ("name", "record", "ply"),
    [
        ("tictactoe", [4, 4], 2),
        ("mnk", [(0, 1), (0, 0)], 2),
        ("connect4", [0, 0, 0, 0, 0, 0], 4),  # column 0 holds 4, one stone is in it
        ("footholds", [(1, 0), (2, 2), (3, 3)], 3),
    ],
)
def test_an_illegal_move_is_reported_at_its_ply(name: str, record: list[Any], ply: int) -> None:
    review = reviewed(name, record)
    assert review.illegal is not None and review.illegal.ply == ply
    assert review.illegal.move == record[ply - 1]
    assert len(review.moves) == ply - 1
    with pytest.raises((ValueError, TypeError)) as raised:
        review.final.play(record[ply - 1])
    assert review.illegal.reason == str(raised.value)


@pytest.mark.both_backends
@pytest.mark.parametrize("name", list(MODULES))
def test_both_backends_review_alike(name: str) -> None:
    rng = random.Random(3)
    records = [random_record(name, rng) for _ in range(40)]
    code = (
        "import json, sys\n"
        "from test_review import reviewed\n"
        "records = json.loads(sys.stdin.read())\n"
        "records = [[tuple(m) if isinstance(m, list) else m for m in r] for r in records]\n"
        f"print(json.dumps([reviewed({name!r}, r).to_dict() for r in records]))\n"
    )
    answers = []
    here = str(Path(__file__).parent)
    for backend in ("rust", "python"):
        path = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
        run = subprocess.run(
            [sys.executable, "-c", code],
            input=json.dumps(records),
            capture_output=True,
            text=True,
            timeout=600,
            env={**os.environ, "PERFECTPLAY_BACKEND": backend, "PYTHONPATH": path},
        )
        assert run.returncode == 0, run.stderr
        answers.append(run.stdout)
    assert answers[0] == answers[1]


def test_many_games_at_once_are_the_games_one_by_one() -> None:
    from perfectplay._kernel.review import review_many

    rng = random.Random(5)
    records = [random_record("connect4", rng) for _ in range(12)]
    start = STARTS["connect4"]()
    many = review_many(connect4.review, records, threads=2, start=start)
    assert [r.to_dict() for r in many] == [reviewed("connect4", r).to_dict() for r in records]


def test_the_command_reviews_a_game_a_line(tmp_path: Path) -> None:
    """JSON lines are the reviews as ``to_dict`` gives them; CSV a row a game; a line that is
    no record is reported in its place and the exit status says so."""
    from tests_support import perfectplay_command

    lines = '4453\n\n{"moves": [3, 3], "start": "44"}\n44x\n[3, 3, 3, 3, 3, 3, 3]\n'
    run = perfectplay_command("review", "connect4", stdin=lines)
    assert run.returncode == 1 and "4 games, 1 not read" in run.stderr
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert [a["line"] for a in answers] == [1, 3, 4, 5]
    assert answers[0] == {"line": 1, **connect4.review("4453").to_dict()}
    assert answers[1] == {
        "line": 3,
        **connect4.review([3, 3], start=connect4.Position("44")).to_dict(),
    }
    assert "not 'x'" in answers[2]["error"]
    assert answers[3]["illegal"]["ply"] == 7
    records = tmp_path / "games.txt"
    records.write_text("[4, 0, 8]\n[4, 4]\n")
    out = tmp_path / "reviews.csv"
    run = perfectplay_command(
        "review", "tictactoe", str(records), "--format", "csv", "-o", str(out)
    )
    assert run.returncode == 0, run.stderr
    rows = out.read_text().splitlines()
    assert rows[0].startswith("line,moves,illegal_ply,x_moves,x_perfect_rate")
    first = tictactoe.review([4, 0, 8]).players
    assert rows[1].split(",")[:4] == ["1", "3", "", "2"]
    assert float(rows[1].split(",")[7]) == first["x"].accuracy
    assert rows[2].split(",")[:3] == ["2", "1", "2"]


@pytest.mark.parametrize("name", list(MODULES))
def test_graded_agents_err_as_weaker_players_do(name: str) -> None:
    """Level 10 plays only best moves; every level's policy is a distribution that ranks the
    moves as the core does, and a lower level gives the best moves less weight."""
    from perfectplay.agents import GradedAgent

    rng = random.Random(13)
    for _ in range(15):
        here = STARTS[name]()
        for move in random_record(name, rng)[: rng.randrange(0, 4)]:
            here = here.play(move)
        if here.is_over:
            continue
        best = here.best_moves()
        assert GradedAgent(10, seed=rng.randrange(99)).move(here) in best
        ranked = here.ranked_moves()
        best_weight = []
        for level in range(1, 11):
            policy = GradedAgent(level).policy(here)
            assert set(policy) == set(here.legal_moves)
            assert sum(policy.values()) == pytest.approx(1.0)
            chances = [policy[move] for move, _, _ in ranked]
            assert chances == sorted(chances, reverse=True)
            best_weight.append(sum(policy[move] for move in best))
        assert best_weight == sorted(best_weight) and best_weight[-1] == pytest.approx(1.0)


def test_a_graded_agent_checks_its_level_and_replays_its_seed() -> None:
    from perfectplay.agents import GradedAgent

    with pytest.raises(ValueError, match="from 1 to 10"):
        GradedAgent(11)
    with pytest.raises(TypeError, match="level must be an int"):
        GradedAgent(2.5)  # type: ignore[arg-type]
    here = connect4.Position("44")
    first = [GradedAgent(3, seed=5).move(here) for _ in range(3)]
    assert len(set(first)) == 1
    agent = GradedAgent(1, seed=5)
    assert len({agent.move(here) for _ in range(40)}) > 1


@pytest.mark.parametrize("name", list(MODULES))
def test_a_graded_agent_plays_its_games_temperatures(name: str) -> None:
    """Each level below 10 is the softmax at the temperature its game sets (the default
    schedule where the game sets none): nine temperatures, colder level by level."""
    from perfectplay.agents import DEFAULT_TEMPERATURES, GradedAgent, softmax_policy

    here = STARTS[name]()
    own = type(here).LEVEL_TEMPERATURES
    temperatures = own or DEFAULT_TEMPERATURES
    assert (name == "connect4") == (own is None)
    assert len(temperatures) == 9 and all(t > 0 for t in temperatures)
    assert list(temperatures) == sorted(temperatures, reverse=True)
    for level in (1, 5, 9):
        expected = softmax_policy(here, temperatures[level - 1])
        assert GradedAgent(level).policy(here) == pytest.approx(expected)
    with pytest.raises(ValueError, match="temperature must be above 0"):
        softmax_policy(here, 0.0)


@pytest.mark.parametrize("name", ["tictactoe", "mnk", "footholds"])
def test_a_string_is_no_record_of_a_grid_game(name: str) -> None:
    with pytest.raises(TypeError, match="record is a list of"):
        MODULES[name].review("4453")
    from tests_support import perfectplay_command

    run = perfectplay_command("review", name, stdin="4453\n")
    assert run.returncode == 1 and "record is a list of" in run.stdout
