"""The blocking engine against the real binary: every method on every game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Tuple

import pytest

import ludus


@dataclass(frozen=True)
class GameCase:
    name: str
    players: Tuple[str, ...]
    perft: Tuple[int, int]  # depth 1 and 2 from the start
    moves: Tuple[str, ...]  # opening moves in some notation the game reads
    fen_after: str  # the fen after them
    other_notation: str
    rule_option: Tuple[str, str]


GAMES = [
    GameCase(
        "senamukha",
        ("white", "black"),
        (48, 2304),
        ("Na3–b5", "Ne9-d7"),
        "3nenrn3/3ppppp3/nrne1knenrn/ppppp1ppppp/3n7/11/1N9/PPPPP1PPPPP/"
        "1RNENKNENRN/3PPPPP3/3NRNEN3 w - - 2 2",
        "san",
        ("n-move-rule", "50"),
    ),
    GameCase(
        "mentula",
        ("white", "yellow", "red", "magenta"),
        (5, 25),
        ("c3", "b6", "f6", "g3"),
        "Y5R1/YY4RR/1Y3R2/8/8/2W3M1/WW4MM/1W5M w 4 2",
        "short",
        ("capture-limit", "100"),
    ),
    GameCase(
        "mangala",
        ("south", "north"),
        (6, 36),
        ("C", "a"),
        "7,7,0,7,7,7/0,8,8,7,7,7 S 0 0",
        "number",
        ("ply-limit", "500"),
    ),
]


def test_the_engine_says_what_it_is(engine: ludus.Engine) -> None:
    assert engine.protocol_version() == 1
    assert engine.name() == "ludus"
    assert engine.version().count(".") == 2
    assert engine.games() == ("senamukha", "mentula", "mangala")
    assert "perft" in engine.list_commands()
    assert engine.known_command("divide") is True
    assert engine.known_command("castle") is False
    assert engine.ping() == "pong"
    engine.is_ready()


@pytest.mark.parametrize("case", GAMES, ids=[g.name for g in GAMES])
def test_every_method_on_every_game(engine: ludus.Engine, case: GameCase) -> None:
    engine.game(case.name)
    assert engine.to_move() == case.players[0]
    assert engine.status() == ludus.Status(
        f"ongoing ({case.players[0]} to move)", to_move=case.players[0]
    )
    moves = engine.legal_moves()
    assert len(moves) == case.perft[0]
    assert len(engine.legal_moves(case.other_notation)) == case.perft[0]
    assert engine.perft(1) == case.perft[0]
    assert engine.perft(2) == case.perft[1]
    divided = engine.divide(2)
    assert set(divided) == set(moves) and sum(divided.values()) == case.perft[1]

    engine.position(moves=case.moves)
    after = engine.fen()
    assert after == case.fen_after
    engine.undo(len(case.moves))
    start = engine.fen()
    engine.position(start, case.moves)
    assert engine.fen() == after
    engine.position(start)
    played = [engine.play(move) for move in case.moves]
    assert engine.fen() == after
    assert played[0] in moves
    record = engine.record()
    assert record.startswith("1. ")
    engine.new_game()
    assert engine.fen() == start
    engine.load_record(record)
    assert engine.fen() == after
    engine.undo()
    assert engine.to_move() == case.players[(len(case.moves) - 1) % len(case.players)]

    board = engine.show()
    diagram = engine.diagram()
    assert str(diagram) == board
    assert diagram._repr_svg_().startswith("<svg ")
    assert f'class="board {case.name}"' in diagram.svg
    assert diagram.svg.rstrip().endswith("</svg>")

    options = engine.options
    assert options["Hash"] == ludus.EngineOption("Hash", "spin", "64", 1, 16384)
    name, value = case.rule_option
    assert name in options
    engine.set_option(name, value)
    assert engine.options[name].default == options[name].default
    assert engine.options["hash"] is not None  # by name, whatever the case
    engine.set_option("Move Overhead", 20)

    result = engine.analyse(ludus.Limit(depth=2))
    assert result.best_move in engine.legal_moves()
    assert result.info is not None and result.info.depth is not None
    if case.name == "mentula":
        # MCTS: depth 2 means 2,000 simulations; the info gives the tree's depth.
        assert result.info.nodes == 2000
    else:
        assert result.info.depth == 2
    assert result.info.pv and result.info.pv[0] == result.best_move
    assert len(result.info.scores) == (4 if case.name == "mentula" else 1)
    assert result.info.nodes and result.info.time_ms is not None
    assert engine.best_move(ludus.Limit(nodes=500)) in engine.legal_moves()
    before = engine.fen()
    played_move = engine.genmove(ludus.Limit(depth=1)).best_move
    assert played_move is not None and engine.fen() != before
    engine.undo()
    assert engine.fen() == before


def test_mentula_forms_and_reach_layer(engine: ludus.Engine) -> None:
    engine.game("mentula")
    listed = engine.fen("list")
    assert listed.startswith("White (to play): a1, a2, b1, b2, Yellow:")
    engine.position(listed, ["b1-b2-b3"])
    assert engine.to_move() == "yellow"
    assert 'class="reach' in engine.diagram("reach").svg
    result = engine.analyse(ludus.Limit(nodes=200))
    assert result.info is not None and result.info.score is None
    assert all(s.cp is not None for s in result.info.scores)


def test_outcomes_of_every_game(engine: ludus.Engine) -> None:
    engine.game("mangala")
    engine.position("0,0,0,0,0,1/1,0,0,0,0,0 S 35 35")
    assert engine.play("F") == "F"
    status = engine.status()
    assert status.over and status.to_move is None and engine.to_move() is None
    assert status.verdict == "south wins" and status.winners == ("south",)
    assert status.reason == "all pits empty"
    assert status.scores == {"south": 37, "north": 35}
    assert engine.legal_moves() == ()
    assert engine.best_move(ludus.Limit(depth=2)) is None

    engine.game("mentula")
    engine.position("8/8/8/8/8/4Y3/2W5/W7 w")
    engine.play("a1-c2xe3")
    status = engine.status()
    assert status.winners == ("white",) and status.reason == "one player left"
    assert status.scores == {"white": 64, "yellow": 0, "red": 0, "magenta": 0}
    assert status.ranking == "white > yellow = red = magenta"


PUZZLE = "9r1/4pppp3/1N2k4r1/5n3pp/1p2K6/3p2p4/P3n1P4/1PPe4PRP/1R2NP1P3/3PP1P4/9R1 b - - 0 59"


def test_a_mate_search_and_the_checkmate(engine: ludus.Engine) -> None:
    engine.position(PUZZLE)
    result = engine.analyse(ludus.Limit(mate=3, movetime=5000))
    assert result.best_move == "j11d11"
    assert result.strings == ("mate in 3 moves (5 plies) found",)
    assert result.info is not None and result.info.score is not None
    assert result.info.score.relative == ludus.Score(mate=5)
    assert result.info.score.turn == "black"
    assert result.info.score.pov("white") == ludus.Score(mate=-5)
    for move in result.info.pv:
        engine.play(move)
    status = engine.status()
    assert status.verdict == "black wins" and status.reason == "checkmate"


def test_refusals_carry_the_message_and_the_request(engine: ludus.Engine) -> None:
    with pytest.raises(ludus.EngineError) as refused:
        engine.play("Nc7:e8")
    assert refused.value.message.startswith("illegal move: Nc7:e8")
    assert refused.value.request == "play Nc7:e8"
    with pytest.raises(ludus.EngineError, match=r"depth is out of range: 99 \(1 to 64\)"):
        engine.analyse(ludus.Limit(depth=99))
    with pytest.raises(ludus.EngineError) as refused:
        engine.set_option("Foo", 1)
    assert refused.value.message == (
        'unknown option "Foo" (senamukha has Hash, Threads, Move Overhead, MultiPV, Ponder, '
        "UCI_ShowWDL, UCI_LimitStrength, UCI_Elo, Skill Level, Skill Seed, "
        "EvalFile, Use NNUE, n-move-rule)"
    )
    assert refused.value.request == "setoption name Foo value 1"
    with pytest.raises(ludus.EngineError, match="move 2 of the list"):
        engine.position(moves=["i3h5", "i3h5"])
    with pytest.raises(ludus.EngineError, match="unknown position form"):
        engine.fen("list")
    # The session goes on, its state unchanged by the errors.
    assert engine.to_move() == "white"
    with pytest.raises(ValueError):
        engine.play("i3h5\nquit")
    with pytest.raises(TypeError):
        engine.position(moves="i3h5")  # a str is a sequence of one-letter moves


def test_limits_become_the_protocol_words() -> None:
    limit = ludus.Limit(
        depth=3, nodes=10, time=0.05, mate=2, remaining_moves=5,
        white_clock=60, black_clock=55.5, white_inc=1, infinite=True, ponder=True,
    )
    assert " ".join(limit.words()) == (
        "depth 3 nodes 10 mate 2 movetime 50 movestogo 5 time white 60000 "
        "time black 55500 inc white 1000 infinite ponder"
    )
    assert ludus.Limit(clocks={"red": 1.5}, incs={"red": 0.1}).words() == (
        "time", "red", "1500", "inc", "red", "100",
    )
    assert ludus.Limit(movetime=50).words() == ("movetime", "50")
    assert ludus.Limit().words() == ()


def test_python_chess_limits_read_as_there() -> None:
    # Limit(time=2.0) is two seconds, as in python-chess; the old ludus form (clocks
    # in `time`) is refused with what to write instead.
    assert ludus.Limit(time=2.0).words() == ("movetime", "2000")
    with pytest.raises(TypeError, match="white_clock"):
        ludus.Limit(time={"white": 60000})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="seconds"):
        ludus.Limit(white_clock="60")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="negative"):
        ludus.Limit(time=-1)


def test_a_search_on_the_clock(engine: ludus.Engine) -> None:
    engine.game("mangala")
    result = engine.analyse(ludus.Limit(clocks={"south": 0.3, "north": 0.3}, incs={"south": 0.01}))
    assert result.best_move in engine.legal_moves()
