# SPDX-License-Identifier: MIT
"""The Python package: the same answers as the library through every input form, errors as
documented, threads and the GIL released."""
import threading

import numpy as np
import pytest

import dirfill

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
FENS = [START, KIWIPETE,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "k2r4/6b1/1b6/2PNP3/q1RKB2r/2QRN3/1b3q2/3r4 w - - 0 1",
        "4r2k/8/8/8/8/5n2/8/4K3 w - - 0 1"]


def bits(plane):
    """The set a 0/1 plane of shape (8, 8) holds, as an int (bit i = square i)."""
    flat = plane.reshape(64)
    return sum(1 << i for i in range(64) if flat[i])


def test_plane_names():
    assert len(dirfill.PLANES) == 75 == len(set(dirfill.PLANES))
    for name in ("white.count", "black.count", "pinned", "checkers"):
        assert name in dirfill.PLANES


def test_analyze_keys_and_facts():
    d = dirfill.analyze(START)
    assert d["fen"] == START and d["stm"] == "w" and d["backend"] == dirfill.backend()
    assert d["white"]["pawn_east"] == 0x0000000000FE0000
    assert set(d["white"]["rays"]) == {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}
    d = dirfill.analyze("4r2k/8/8/8/8/5n2/8/4K3 w - - 0 1")
    assert bin(d["checkers"]).count("1") == 2
    with pytest.raises(ValueError, match="bad FEN"):
        dirfill.analyze("nonsense")


def test_planes_agree_with_analyze():
    planes = dirfill.attack_planes(FENS)
    assert planes.shape == (len(FENS), 75, 8, 8) and planes.dtype == np.uint8
    index = {name: i for i, name in enumerate(dirfill.PLANES)}
    for fen, p in zip(FENS, planes):
        d = dirfill.analyze(fen)
        for side in ("white", "black"):
            for key in ("pawn_east", "pawn_west", "knight", "bishop", "rook", "queen", "king",
                        "all", "twice"):
                assert bits(p[index[side + "." + key]]) == d[side][key], (fen, side, key)
            for kind in ("rays", "xrays"):
                for direction, value in d[side][kind].items():
                    assert bits(p[index["%s.%s.%s" % (side, kind, direction)]]) == value
            count = p[index[side + ".count"]]
            assert bits(count >= 2) == d[side]["twice"] and bits(count >= 1) == d[side]["all"]
        for key in ("checkers", "pinned", "pinners", "check_block", "discoverers"):
            assert bits(p[index[key]]) == d[key], (fen, key)


def test_input_forms_and_threads():
    want = dirfill.attack_planes(FENS, threads=1)
    for form in (tuple(FENS), [f.encode() for f in FENS], np.array(FENS), np.array(FENS, dtype="S")):
        assert np.array_equal(dirfill.attack_planes(form), want)
    many = FENS * 50
    assert np.array_equal(dirfill.attack_planes(many, threads=2), np.concatenate([want] * 50))
    assert dirfill.attack_planes([]).shape == (0, 75, 8, 8)
    out = np.full(want.shape, 7, dtype=np.uint8)
    assert dirfill.attack_planes(FENS, out=out) is out and np.array_equal(out, want)
    for bad in (np.zeros(want.shape, dtype=np.int8), np.zeros((1, 75, 8, 8), dtype=np.uint8),
                np.zeros(want.shape, dtype=np.uint8)[:, :, :, ::-1], [0]):
        with pytest.raises(ValueError, match="out must be"):
            dirfill.attack_planes(FENS, out=bad)


def test_errors():
    with pytest.raises(ValueError, match=r"fens\[1\]: bad FEN: .*king"):
        dirfill.attack_planes([START, "8/8/8/8/8/8/8/8 w - - 0 1", START])
    planes, ok = dirfill.attack_planes([START, "x", "8/8/8/8/8/8/8/8 w - - 0 1", START],
                                       errors="mask")
    assert ok.tolist() == [True, False, False, True]
    assert not planes[1].any() and not planes[2].any()
    assert np.array_equal(planes[3], dirfill.attack_planes([START])[0])
    with pytest.raises(ValueError):
        dirfill.attack_planes([START], errors="ignore")
    with pytest.raises(TypeError):
        dirfill.attack_planes([START, 42])
    assert not dirfill.attack_planes(np.array(["\u00e9" + START]), errors="mask")[1][0]


def test_from_bitboards():
    pieces = np.zeros((len(FENS), 12), dtype=np.uint64)
    turn = np.zeros(len(FENS), dtype=bool)
    stripped = []
    for i, fen in enumerate(FENS):
        fields = fen.split()
        placement, side = fields[0], fields[1]
        stripped.append("%s %s - - 0 1" % (placement, side))
        turn[i] = side == "w"
        rank, file = 7, 0
        for ch in placement:
            if ch == "/":
                rank, file = rank - 1, 0
            elif ch.isdigit():
                file += int(ch)
            else:
                kind = "PNBRQK".index(ch.upper()) + (6 if ch.islower() else 0)
                pieces[i, kind] |= np.uint64(1 << (8 * rank + file))
                file += 1
    got = dirfill.attack_planes_from_bitboards(pieces, turn=turn)
    assert np.array_equal(got, dirfill.attack_planes(stripped))
    assert np.array_equal(dirfill.attack_planes_from_bitboards(pieces.astype(np.int64), turn=turn), got)
    bad = pieces.copy()
    bad[2, 11] = 0  # no black king
    with pytest.raises(ValueError, match=r"pieces\[2\]"):
        dirfill.attack_planes_from_bitboards(bad, turn=turn)
    planes, ok = dirfill.attack_planes_from_bitboards(bad, turn=turn, errors="mask")
    assert ok.tolist() == [i != 2 for i in range(len(FENS))] and not planes[2].any()
    with pytest.raises(ValueError, match="shape"):
        dirfill.attack_planes_from_bitboards(pieces[:, :11], turn=turn)


def test_perft_and_backends():
    assert dirfill.perft(START, 4) == 197281
    assert dirfill.perft(KIWIPETE, 3) == 97862
    assert dirfill.perft("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1", 3,
                         chess960=True) == 12189
    with pytest.raises(ValueError, match="in check"):
        dirfill.perft("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", 2)
    assert dirfill.backend() in dirfill.backends()
    active, want = dirfill.backend(), dirfill.attack_planes(FENS)
    try:
        for name, supported in dirfill.backends().items():
            if not supported:
                with pytest.raises(ValueError):
                    dirfill.select_backend(name)
                continue
            dirfill.select_backend(name)
            assert dirfill.backend() == name
            assert np.array_equal(dirfill.attack_planes(FENS), want)
        with pytest.raises(ValueError):
            dirfill.select_backend("bogus")
    finally:
        dirfill.select_backend(active)


def test_gil_released():
    """Two Python threads compute at once (the GIL is released) and get the same answers."""
    fens = FENS * 2000
    want = dirfill.attack_planes(fens, threads=1)
    results = [None, None]

    def work(i):
        results[i] = dirfill.attack_planes(fens, threads=1)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(np.array_equal(r, want) for r in results)


def test_moves_and_push():
    moves = dirfill.legal_moves(START)
    assert len(moves) == 20 and "e2e4" in moves
    fen = dirfill.push(START, "e2e4")
    assert fen == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert len(dirfill.legal_moves(KIWIPETE)) == 48
    assert "e1h1" in dirfill.legal_moves("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", chess960=True)
    with pytest.raises(ValueError, match="not a legal move"):
        dirfill.push(START, "e2e5")
