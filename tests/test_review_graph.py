"""The game graph (issue 25): every seat's score after each deal and the reviewed seat's
points lost per deal, as data and as the terminal's sparklines."""

from __future__ import annotations

import json
from pathlib import Path

from chicago import Game, cli
from chicago.review import review_game
from chicago.review.graph import score_graph, sparkline
from review_helpers import small_game_file


def test_the_graph_follows_the_scores_and_the_losses(tmp_path: Path):
    record = json.loads(small_game_file(tmp_path).read_text())
    game = Game.replay(record)
    review = review_game(record, 1, level="ev:samples=2")
    graph = score_graph(record, review)
    assert graph.scores[0] == (0, 0, 0)
    assert len(graph.scores) == game.deal_number + 1
    assert list(graph.scores[-1]) == list(game.scores)
    assert graph.seat == 1 and graph.target == game.rules.target
    assert len(graph.losses) == len(graph.scores) and graph.losses[0] == 0.0
    assert sum(graph.losses) == sum(d.loss for d in review.summary.deals)


def test_sparklines():
    assert sparkline([]) == ""
    assert sparkline([0, 0]) == "▁▁"
    assert sparkline([0, 26, 52], top=52) == "▁▅█"
    assert sparkline([60], top=52) == "█"  # past the target: the top block


def test_chicago_review_draws_the_graph(tmp_path: Path, capsys):
    path = small_game_file(tmp_path)
    assert cli.main(["review", str(path), "--seat", "1", "--level", "ev:samples=2",
                     "--brief", "--no-progress", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "Scores after each deal (the target 52):" in out
    lines = out.splitlines()
    you = next(line for line in lines if line.startswith("You "))
    assert any(c in you for c in "▁▂▃▄▅▆▇█")
    assert any("points lost (· some, ▲ 2.5 or more)" in line for line in lines)


def test_progress_moves_with_every_decision_in_worker_processes(tmp_path: Path):
    """``chicago review --jobs 2`` sat at 0/267 until a whole share was done: a worker now
    ticks after every decision it judges (the parent adds the ticks up as they come), and
    the progress ends at the total."""
    import queue

    from chicago.review import review_seats
    from chicago.review.core import _chunk_with_ticks, _drain, plan_review
    from chicago.review.levels import ReviewLevel

    record = json.loads(small_game_file(tmp_path).read_text())
    level = ReviewLevel.parse("ev:samples=2")
    for chunk in plan_review(record, [0, 1, 2], pieces=4):
        ticks: queue.Queue[int] = queue.Queue()
        judged = _chunk_with_ticks(record, chunk, level, 0, False, ticks)
        assert _drain(ticks) == len(judged) == chunk.decisions
    calls: list[tuple[int, int]] = []
    reviews = review_seats(record, [0, 1, 2], level=level, jobs=2,
                           progress=lambda done, total: calls.append((done, total)))
    total = sum(r.summary.decisions for r in reviews)
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
