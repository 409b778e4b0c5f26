# SPDX-License-Identifier: MIT
"""dirfill.Board against the functions over FEN strings (which go through the C library by
another route) and against FEN round trips, on random games; the rules on hand-made
positions; bad input as clear exceptions."""
import pickle
import random

import numpy as np
import pytest

import dirfill

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STARTS = [START,
          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
          "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"]


def test_random_games_against_fen_route():
    rng = random.Random(0xd1f)
    positions = 0
    for game in range(60):
        board = dirfill.Board(STARTS[game % len(STARTS)])
        fens = [board.fen(en_passant="xfen")]
        for ply in range(rng.randrange(20, 120)):
            moves = board.legal_moves()
            assert sorted(moves) == sorted(dirfill.legal_moves(fens[-1]))
            if board.outcome() is not None:
                assert not moves or board.outcome().termination != "checkmate"
                break
            assert dirfill.Board(board.fen()).fen() == board.fen()  # round trip
            assert len(board.legal_moves(ints=True)) == len(moves)
            move = rng.choice(moves)
            san = board.san(move)
            assert board.uci(san) == move and board.is_legal(move)
            if ply % 2:
                assert board.push_san(san) == move
            else:
                assert board.push_uci(move) == move
            fens.append(board.fen(en_passant="xfen"))
            assert fens[-1] == dirfill.push(fens[-2], move)
            positions += 1
        # Taking every move back returns every position, and planes match the batch call.
        while board.move_stack:
            assert board.fen(en_passant="xfen") == fens[len(board.move_stack)]
            board.pop()
        assert board.fen(en_passant="xfen") == fens[0]
        assert np.array_equal(board.planes(), dirfill.attack_planes([fens[0]])[0])
        assert board.analyze() == dirfill.analyze(fens[0])
    assert positions > 2000


def test_attributes_and_queries():
    b = dirfill.Board()
    assert b.turn is True and b.halfmove_clock == 0 and b.fullmove_number == 1 and b.ply() == 0
    assert b.key == 0x463B96181691FC9C  # the Polyglot key of the start position
    assert b.piece_at(dirfill.E1) == "K" and b.piece_at(dirfill.E4) is None
    assert b.pieces(dirfill.PAWN, dirfill.WHITE) == 0xFF00
    assert b.castling_rights == 0x8100000000000081 and b.ep_square is None
    assert b.attacks(dirfill.WHITE) & (1 << dirfill.E3)
    assert b.attackers(dirfill.WHITE, dirfill.F3) == (1 << dirfill.G1) | (1 << dirfill.E2) | (
        1 << dirfill.G2)
    assert b.is_attacked_by(dirfill.BLACK, dirfill.E6) and not b.is_attacked_by(dirfill.BLACK,
                                                                               dirfill.E4)
    b.push_san("e4")
    assert b.turn is False and b.ply() == 1 and b.peek() == "e2e4" and b.epd().count(" ") == 3
    assert b.gives_check("f7f6") is False
    assert str(dirfill.Board()).splitlines()[0] == "r n b q k b n r"
    assert repr(dirfill.Board()) == "Board('%s')" % START
    c = b.copy()
    assert c == b and c.move_stack == ["e2e4"] and hash(c) == hash(b)
    assert b.copy(stack=False).move_stack == []
    c.push_san("e5")
    assert c != b
    # Pickling keeps the moves: the copy pops and sees repetitions.
    d = pickle.loads(pickle.dumps(c))
    assert d == c and d.move_stack == c.move_stack and d.pop() == "e7e5"
    e = dirfill.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", chess960=True)
    assert "e1h1" in e.legal_moves() and e.chess960
    assert pickle.loads(pickle.dumps(e)).chess960


def test_rules():
    b = dirfill.Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        b.push_san(san)
    assert b.is_checkmate() and b.is_check() and b.is_game_over()
    o = b.outcome()
    assert o == ("checkmate", False, "0-1") and o.winner is False and b.result() == "0-1"
    b = dirfill.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert b.is_stalemate() and b.outcome().termination == "stalemate"
    assert dirfill.Board("8/8/4k3/8/8/3KB3/8/8 w - - 0 1").is_insufficient_material()
    b = dirfill.Board()
    for _ in range(2):
        for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            b.push_san(san)
    assert b.is_repetition(3) and not b.is_repetition(4) and b.can_claim_threefold_repetition()
    assert b.outcome() is None and b.outcome(claim_draw=True).termination == "threefold_repetition"
    for _ in range(2):
        for san in ["Nf3", "Nf6", "Ng1", "Ng8"]:
            b.push_san(san)
    assert b.is_fivefold_repetition() and b.outcome().termination == "fivefold_repetition"
    b = dirfill.Board("8/8/4k3/8/8/3K4/8/7R w - - 99 80")
    assert b.can_claim_fifty_moves() and b.can_claim_draw() and not b.is_seventyfive_moves()
    b = dirfill.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 149 90")
    b.push_san("Ra8#")
    assert b.outcome().termination == "checkmate"  # mate on the 150th ply wins


def test_long_game_history():
    """Over 256 plies a pop must still see the repetitions the clock allows."""
    b = dirfill.Board("8/8/4k3/8/8/3K4/8/7R w - - 0 1")
    cycle = ["h1g1", "e6e7", "g1h1", "e7e6"]
    for i in range(300):
        b.push_uci(cycle[i % 4])
    # The clock is 150 by ply 150: the seventy-five-move rule ends the game, whatever pops.
    assert b.is_seventyfive_moves()
    for _ in range(200):
        b.pop()
    assert b.halfmove_clock == 100 and b.is_repetition(5)


def test_bad_input():
    b = dirfill.Board()
    with pytest.raises(IndexError):
        b.pop()
    with pytest.raises(IndexError):
        b.peek()
    with pytest.raises(ValueError, match="illegal"):
        b.push_san("Qh5")
    with pytest.raises(ValueError, match="not SAN"):
        b.push_san("Zz9")
    with pytest.raises(ValueError, match="ambiguous"):
        dirfill.Board("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1").push_san("Nd2")
    with pytest.raises(ValueError, match="not a legal move"):
        b.push_uci("e2e5")
    with pytest.raises(TypeError):
        b.push_uci(1234)
    with pytest.raises(TypeError):
        b.push_san(None)
    with pytest.raises(ValueError):
        b.push(70000)
    with pytest.raises(ValueError, match="bad FEN"):
        dirfill.Board("not a fen")
    with pytest.raises(ValueError, match="piece types"):
        b.pieces(0, True)
    with pytest.raises(ValueError, match="square"):
        b.piece_at(64)
    with pytest.raises(ValueError, match="en_passant"):
        b.fen(en_passant="fen")
    assert b.fen() == START and b.move_stack == []
    # A position whose side not to move is in check has no moves: said, not crashed.
    bad = dirfill.Board("4k3/8/8/8/8/8/8/4RK2 w - - 0 1")
    with pytest.raises(ValueError, match="in check"):
        bad.legal_moves()
    with pytest.raises(ValueError, match="in check"):
        bad.outcome()
    assert bad.is_legal("f1f2") is False


def test_fen_en_passant_forms():
    # After ...g7g5 the pawn on f5 is pinned: python-chess writes "-", the key's rule "g6".
    b = dirfill.Board("4k3/3b2p1/8/5P2/8/7K/8/8 b - - 0 1")
    b.push_san("g5")
    assert b.fen().split()[3] == "-" and b.fen(en_passant="xfen").split()[3] == "g6"
    assert b.ep_square == dirfill.G6
