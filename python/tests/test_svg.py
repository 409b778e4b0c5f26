# SPDX-License-Identifier: MIT
"""The SVG pictures rendered by a real renderer (librsvg's rsvg-convert) and checked as pixels:
an overlay colours the squares it must and leaves the others alone. The program's --svg writes
the same picture."""
import os
import shutil
import struct
import subprocess
import zlib

import pytest

import dirfill

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROGRAM = os.path.join(ROOT, "build", "release", "dirfill")
RSVG = shutil.which("rsvg-convert")
pytestmark = pytest.mark.skipif(RSVG is None, reason="rsvg-convert (librsvg2-bin) not installed")

# Black checks with the rook on e1 and pins the knight on d3 with the bishop on b5.
FEN = "4k3/8/8/1b6/8/3N4/4K3/4r3 w - - 0 1"
LIGHT, DARK = (240, 217, 181), (181, 136, 99)


def png_pixels(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA PNG, non-interlaced."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0  # RGB or RGBA, 8 bits
    bpp = 3 if color == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def render(svg_text, tmp_path):
    path = tmp_path / "board.svg"
    path.write_text(svg_text)
    png = subprocess.run([RSVG, str(path)], capture_output=True, check=True).stdout
    return png_pixels(png)


def at(pixels, square, fx, fy, size=400):
    """The pixel at fraction (fx, fy) of a square, as the writer lays the board out."""
    width, height, rows = pixels
    margin = size / 8.45 * 0.45
    s = (size - margin) / 8
    file, rank = square % 8, square // 8
    return rows[int((7 - rank + fy) * s)][int(margin + (file + fx) * s)]


def plain(square):
    return LIGHT if (square % 8 + square // 8) % 2 else DARK


def close(a, b, tolerance=6):
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


def test_overlays_are_where_they_must_be(tmp_path):
    bare = render(dirfill.svg(FEN), tmp_path)
    assert close(at(bare, dirfill.D7, 0.5, 0.5), plain(dirfill.D7))
    drawn = render(dirfill.svg(FEN, "counts.black,twice.black,pins,checkers,check_block"),
                   tmp_path)
    # d7: attacked twice by black (bishop b5, king e8): framed and shaded red.
    frame = at(drawn, dirfill.D7, 0.15, 0.5)
    assert frame[0] > frame[2] + 60 and frame[1] < 80, frame
    shade = at(drawn, dirfill.D7, 0.5, 0.5)
    assert not close(shade, plain(dirfill.D7)) and shade[0] > shade[2], shade
    # h5: nothing attacks it: the bare square.
    assert close(at(drawn, dirfill.H5, 0.5, 0.5), plain(dirfill.H5))
    # The pin line runs from b5 through c4 toward the king; the check from e1 to e2.
    assert at(drawn, dirfill.C4, 0.5, 0.5)[0] > 150 and at(drawn, dirfill.C4, 0.5, 0.5)[2] < 90
    # h1: black's rook attacks along the first rank: shaded. c5: only white's knight attacks
    # it, and white's counts were not asked for: bare.
    assert not close(at(drawn, dirfill.H1, 0.5, 0.9), plain(dirfill.H1))
    assert close(at(drawn, dirfill.C5, 0.5, 0.5), plain(dirfill.C5))
    assert close(at(render(dirfill.svg(FEN, "counts.white"), tmp_path), dirfill.C5, 0.5, 0.5),
                 plain(dirfill.C5)) is False


def test_board_and_program_draw_the_same(tmp_path):
    board = dirfill.Board(FEN)
    assert board._repr_svg_() == dirfill.svg(FEN)
    assert board.svg("pins", size=300) == dirfill.svg(board, "pins", size=300)
    if not os.path.exists(PROGRAM):
        pytest.skip("the program is not built")
    out = tmp_path / "cli.svg"
    subprocess.run([PROGRAM, "analyze", "--svg", str(out), "--show", "counts.black,pins",
                    "--fen", FEN], check=True, capture_output=True)
    assert out.read_text() == dirfill.svg(FEN, "counts.black,pins")


def test_bad_overlay_names():
    with pytest.raises(ValueError, match="unknown name at rays.white.X"):
        dirfill.svg(FEN, "pins,rays.white.X")
    with pytest.raises(ValueError, match="size"):
        dirfill.svg(FEN, size=10)
    with pytest.raises(ValueError, match="bad FEN"):
        dirfill.svg("nonsense")
