# SPDX-License-Identifier: MIT
"""where= through the library's filter: every malformed expression raises ValueError with the
library's message (the expression, why, the nearest valid form) before anything is read, in
read_pgn, pgn_positions and pgn_batches alike; valid expressions, derived fields included, keep
the games this file's own reading of the tags says."""
import io

import pytest

import dirfill

# The expressions of tests/support/filter_cases.c: (expression, part of the message, the
# nearest valid form shown, or None).
OP = "did you mean"
ORDER = "take a number, a date"
BAD = [
    ("WhiteElo=>2000", OP, "WhiteElo>=2000"),
    ("WhiteElo>=", "no value after the operator", None),
    ("WhiteElo=<2000", OP, "WhiteElo<=2000"),
    ("WhiteElo==2000", OP, "WhiteElo=2000"),
    ("WhiteElo<>2000", OP, "WhiteElo!=2000"),
    ("WhiteElo=!2000", OP, "WhiteElo!=2000"),
    ("WhiteElo!2000", OP, "WhiteElo!=2000"),
    ("TimeControl^600", OP, "TimeControl^=600"),
    ("TimeControl=^600", OP, "TimeControl^=600"),
    ("WhiteElo >= >2000", OP, "WhiteElo>=2000"),
    ("WhiteElo => 2000", OP, "WhiteElo>=2000"),
    ("WhiteElo>=>=2000", OP, "WhiteElo>=2000"),
    ("WhiteElo=>", "no such operator", None),
    ("WhiteElo=", "no value after the operator", None),
    ("WhiteElo != ", "no value after the operator", None),
    ("EloDiff>", "no value after the operator", None),
    ("WhiteElo", "no operator", None),
    ("WhiteElo ~ 3", "no operator", None),
    ("Bot", "no operator", None),
    (">=2000", "no tag name", None),
    ("=", "no tag name", None),
    ("", "no tag name", None),
    ("   ", "no tag name", None),
    ("White Elo>=2000", "letters, digits and _", "WhiteElo>=2000"),
    ("White-Elo>=2000", "letters, digits and _", "WhiteElo>=2000"),
    ('"Event"=x', "letters, digits and _", "Event=x"),
    ("WhiteElo>=2k", ORDER, None),
    ("WhiteElo>=2,000", ORDER, "WhiteElo>=2000"),
    ("WhiteElo<-", ORDER, None),
    ("WhiteElo>=+", ORDER, None),
    ("Date>=2024-01-01", ORDER, None),
    ("Result<1/2", ORDER, None),
    ('WhiteElo<""', ORDER, None),
    ('Event="abc', "quote is not closed", 'Event="abc"'),
    ('Event="', "quote is not closed", 'Event=""'),
    ('Event^=""', "empty prefix", None),
    ("speed=blitz", "case-sensitive", "Speed=blitz"),
    ("AVGELO>2000", "case-sensitive", "AvgElo>2000"),
    ("Speed=blits", "Speed is ultrabullet", "Speed=blitz"),
    ("Speed<Bulet", "Speed is ultrabullet", "Speed<bullet"),
    ("Speed=fast", "Speed is ultrabullet", None),
    ("Speed^=bl", "^= is for text", None),
    ("Month^=1", "^= is for text", "Month=1"),
    ("AvgElo>=high", "is a number", None),
    ("Year=2024.??.??", "is a number", None),
    ("Bot=yes", "Bot is true or false", "Bot=true"),
    ("Bot!=0", "Bot is true or false", "Bot!=false"),
    ("Bot>true", "= or != only", None),
]

GAMES = (
    '[Event "a"]\n[TimeControl "60+0"]\n[WhiteElo "1500"]\n[BlackElo "1600"]\n'
    '[UTCDate "2024.03.15"]\n[WhiteTitle "BOT"]\n\n1. e4 *\n\n'
    '[Event "b"]\n[TimeControl "180+2"]\n[WhiteElo "2200"]\n[BlackElo "2100"]\n'
    '[Date "2023.12.01"]\n\n1. d4 *\n\n'
    '[Event "c"]\n[TimeControl "29"]\n[WhiteElo "?"]\n[BlackElo "1800"]\n\n1. c4 *\n\n'
    '[Event "d"]\n[TimeControl "-"]\n[WhiteElo "2400"]\n[BlackElo "2400"]\n\n1. Nf3 *\n\n'
    '[Event "e"]\n[TimeControl "1500"]\n[WhiteElo "1999"]\n[BlackElo "2000"]\n\n1. g3 *\n\n'
    '[Event "f"]\n[Speed "blitz"]\n[Year "1999"]\n\n1. b3 *\n\n'
    '[Event "g"]\n[TimeControl "480+0"]\n[WhiteElo "1200"]\n[BlackElo "1000"]\n'
    '[Date "2024.01.02"]\n\n1. e3 *\n')


class Unread(io.RawIOBase):
    """A file object that records whether anything read it."""

    def __init__(self):
        self.reads = 0

    def readable(self):
        return True

    def readinto(self, b):
        self.reads += 1
        return 0


CALLS = [lambda src, w: list(dirfill.read_pgn(src, where=w)),
         lambda src, w: dirfill.pgn_positions(src, threads=1, where=w),
         lambda src, w: dirfill.pgn_batches(src, 16, threads=1, where=w)]


@pytest.mark.parametrize("call", CALLS, ids=["read_pgn", "pgn_positions", "pgn_batches"])
def test_malformed_expressions_raise_before_reading(call):
    assert len(BAD) >= 22
    for expr, why, suggestion in BAD:
        for where in (expr, ["Event=a", expr]):
            source = Unread()
            with pytest.raises(ValueError) as e:
                call(source, where)
            message = str(e.value)
            assert f"'{expr}'" in message and why in message, (expr, message)
            if suggestion:
                assert f"did you mean '{suggestion}'?" in message, (expr, message)
            else:
                assert "did you mean" not in message, (expr, message)
            assert source.reads == 0, expr
        # A path that does not exist is never opened: the filter fails first.
        with pytest.raises(ValueError):
            call("/nonexistent/games.pgn", expr)


def test_the_issues_typos_exactly():
    with pytest.raises(ValueError, match=r"^'WhiteElo=>2000': did you mean 'WhiteElo>=2000'\?$"):
        dirfill.pgn_positions(GAMES.encode(), where="WhiteElo=>2000")
    with pytest.raises(ValueError, match="'WhiteElo>=': no value after the operator"):
        list(dirfill.read_pgn(GAMES.encode(), where="WhiteElo>="))


def speed(tc):
    """Lichess's rule, written here the obvious way; None where it is not known."""
    if tc == "-":
        return 5
    if tc is None:
        return None
    base, _, inc = tc.partition("+")
    if not base.isdigit() or (inc and not inc.isdigit()) or tc.endswith("+"):
        return None
    estimate = int(base) + 40 * int(inc or 0)
    return sum(estimate >= limit for limit in (30, 180, 480, 1500))


def elos(tags):
    w, b = tags.get("WhiteElo", ""), tags.get("BlackElo", "")
    return (int(w), int(b)) if w.isdigit() and b.isdigit() else None


def year(tags):
    d = tags.get("UTCDate", tags.get("Date"))
    return int(d[:4]) if d and d[:4].isdigit() else None


SPEEDS = ["ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence"]
EXPECT = [
    ("Speed=bullet", lambda t: speed(t.get("TimeControl")) == 1),
    ("Speed>=blitz", lambda t: (speed(t.get("TimeControl")) or -1) >= 2),
    ("Speed!=blitz", lambda t: speed(t.get("TimeControl")) != 2),
    ("Speed=CORRESPONDENCE", lambda t: speed(t.get("TimeControl")) == 5),
    ("AvgElo>=2000", lambda t: elos(t) is not None and sum(elos(t)) / 2 >= 2000),
    ("MinElo<1600", lambda t: elos(t) is not None and min(elos(t)) < 1600),
    ("EloDiff>0", lambda t: elos(t) is not None and elos(t)[0] - elos(t)[1] > 0),
    ("EloBin=1800", lambda t: elos(t) is not None and sum(elos(t)) // 400 * 200 == 1800),
    ("Year=2024", lambda t: year(t) == 2024),
    ("Year!=2024", lambda t: year(t) != 2024),
    ("Bot=true", lambda t: t.get("WhiteTitle") == "BOT"),
    ("BaseSeconds<180", lambda t: speed(t.get("TimeControl")) is not None
     and t["TimeControl"] != "-" and int(t["TimeControl"].split("+")[0]) < 180),
    ("WhiteElo>=2000", lambda t: "WhiteElo" in t and (
        float(t["WhiteElo"]) >= 2000 if t["WhiteElo"].isdigit() else t["WhiteElo"] >= "2000")),
]


@pytest.mark.parametrize("expr,keeps", EXPECT, ids=[e for e, _ in EXPECT])
def test_derived_fields_keep_what_the_tags_say(expr, keeps):
    games = list(dirfill.read_pgn(GAMES.encode()))
    want = [g.index for g in games if keeps(g.headers)]
    assert 0 < len(want) < len(games), expr
    assert [g.index for g in dirfill.read_pgn(GAMES.encode(), where=expr)] == want
    rows = dirfill.pgn_positions(GAMES.encode(), threads=1, where=expr)
    assert sorted(set(rows["game"].tolist())) == want
    assert rows["stats"]["filtered"] == len(games) - len(want)


def test_a_games_own_tag_named_like_a_field_is_not_the_field():
    # Game f has [Speed "blitz"] and [Year "1999"] and no TimeControl or date.
    blitz = [g.index for g in dirfill.read_pgn(GAMES.encode(), where="Speed=blitz")]
    assert blitz == [1]
    assert list(dirfill.read_pgn(GAMES.encode(), where="Year=1999")) == []
    # Quoted values may start with an operator's character; an empty one matches an empty tag.
    text = '[Event "=x"]\n\n1. e4 *\n\n[Event ""]\n\n1. d4 *\n'
    assert [g.index for g in dirfill.read_pgn(text.encode(), where='Event="=x"')] == [0]
    assert [g.index for g in dirfill.read_pgn(text.encode(), where='Event=""')] == [1]
