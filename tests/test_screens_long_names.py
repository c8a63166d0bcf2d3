"""A member board's players with the longest names (a handle of 16 and a tag of 8, shown as
handle@TAG) on the lists, at 80x25 and 40x24: never cut to a dangling '@', columns in line."""

from __future__ import annotations

import re

import pytest
from harness import call, login, running_server
from menus import open_board, open_game

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service

pytestmark = pytest.mark.timeout(120)

LONG = "TwentyCharAliasN@BIGBOARD"  # the alias cut to 16: shown with its board's tag
NUMBERED = "TwentyCharAlia~2@DP"  # the same alias on another board, numbered past the first


def long_named_players(url: str, finished: bool = False) -> None:
    """alice of this board; the alias 'TwentyCharAliasNamed' from boards BIGBOARD and DP, in a
    3-point match (or, `finished`, a 1-point match DP's player resigned)."""
    with Service(url, dice=ScriptedDice([3, 1] * 5)) as svc:
        svc.register("alice", "alice-pw")
        big = svc.enter_from_bbs("BIGBOARD", "TwentyCharAliasNamed").id
        dp = svc.enter_from_bbs("DP", "TwentyCharAliasNamed").id
        view = svc.begin_game(dp, 1 if finished else 3, Color.WHITE, LONG)
        if finished:
            view = svc.roll(dp, view.id, view.version)
            view = svc.resign(big, view.id, view.version, Win.SINGLE)
            svc.answer_resign(dp, view.id, view.version, True)


async def test_rank_shows_a_member_board_players_handle_under_its_board(tmp_path):
    """R)ank showed 'TwentyCharAliasN@ BIGBOARD': the name cut to a dangling '@' beside its Board
    column.  The handle goes in the Player column and its tag in the Board column; at 40 columns,
    with no Board column, the name is cut keeping its tag."""
    url = f"sqlite:///{tmp_path}/g.db"
    long_named_players(url, finished=True)
    async with running_server(url) as srv:
        for cols, rows in ((80, 25), (40, 24)):
            c = await call(srv.port, cols=cols, rows=rows)
            await login(c, "alice", "alice-pw", new=False)
            c.send("R")
            await c.wait_for("Rank:")
            await c.settle(0.3)
            lines = [line.rstrip() for line in c.screen.display]
            text = "\n".join(lines)
            assert "@ " not in text and not any(line.endswith("@") for line in lines), text
            assert all(len(line) <= cols - 1 for line in lines), text
            head = next(line for line in lines if "Rating" in line)
            big = next(line for line in lines if "TwentyCharAliasN" in line or "@BIGBOARD" in line)
            dp = next(line for line in lines if "@DP" in line or " DP " in line)
            if cols == 80:
                assert "TwentyCharAliasN  BIGBOARD" in big and "TwentyCharAlia~2  DP" in dp, text
                assert big.index("BIGBOARD") == dp.index("DP") == head.index("Board"), text
            else:
                assert "Twenty..@BIGBOARD" in big and "TwentyChar..~2@DP" in dp, text
            # The ratings under their heading, whatever the names.
            end = head.index("Rating") + len("Rating")
            assert big[end - 6 : end].strip()[0].isdigit() and dp[end - 6 : end].strip()[0].isdigit(), text
            c.close()


async def test_the_games_list_keeps_its_columns_with_two_long_names(tmp_path):
    """V)iew with two member boards' players: '*TwentyCharAlia~2@DP *TwentyCharAliasN@BIGBOARD
    0-0/3    12-05 23:26', the score and date no longer under their headings.  At 80 columns the
    name columns widen to hold both names whole; at 40 the players' line is cut to the screen,
    keeping each name's tag."""
    url = f"sqlite:///{tmp_path}/g.db"
    long_named_players(url)
    async with running_server(url) as srv:
        for cols, rows in ((80, 25), (60, 24), (40, 24)):
            c = await call(srv.port, cols=cols, rows=rows)
            await login(c, "alice", "alice-pw", new=False)
            c.send("V")
            await c.wait_for("Game:")
            await c.settle(0.3)
            lines = [line.rstrip() for line in c.screen.display]
            text = "\n".join(lines)
            assert all(len(line) <= cols for line in lines), text
            if cols == 80:
                head = next(line for line in lines if "White" in line)
                row = next(line for line in lines if "1) #" in line)
                assert f"*{NUMBERED} *{LONG} 0-0/3" in row, text
                assert [row.index(NUMBERED), row.index(LONG), row.index("0-0/3"), row.index(":") - 8] == \
                    [head.index("White"), head.index("Black"), head.index("Score"), head.index("Last change")], text
            elif cols == 60:
                # Names this long do not fit whole beside the last change: a game on two lines, as
                # at 40 columns, the names whole on the second (the date had gone from the list).
                head = next(line for line in lines if "Last change" in line)
                at = next(i for i, line in enumerate(lines) if "1) #" in line)
                assert re.search(r"\d\d-\d\d \d\d:\d\d", lines[at]), text
                assert lines[at].index("0-0/3") == head.index("Score"), text
                assert lines[at + 1].strip() == f"*{NUMBERED} v *{LONG}", text
            else:
                at = next(i for i, line in enumerate(lines) if "1) #" in line)
                assert lines[at + 1].strip() == "*TwentyCha..~2@DP v *Twenty..@BIGBOARD", text
            c.close()


async def test_a_watcher_sees_both_long_names_whole_on_the_board(tmp_path):
    """The panel cut 'TwentyCharAliasN@BIGB' at the screen's edge.  At 80x24 each name shows whole,
    broken before its '@'; at 40 columns, where the panel is out of sight, the message line says
    both names whole and nothing runs past the edge."""
    url = f"sqlite:///{tmp_path}/g.db"
    long_named_players(url)
    async with running_server(url) as srv:
        for cols in (80, 40):
            c = await call(srv.port, cols=cols, rows=24)
            await login(c, "alice", "alice-pw", new=False)
            if cols == 80:
                await open_board(c)
            else:
                await open_game(c, expect="Enter goes on anyway")
                c.send("\r")
                await c.wait_for("Q)uit")
            await c.settle(0.3)
            lines = [line.rstrip() for line in c.screen.display]
            text = "\n".join(lines)
            assert all(len(line) <= cols for line in lines), text
            if cols == 80:
                panel = [line[55:].strip() for line in lines]
                for name in (LONG, NUMBERED):
                    handle, tag = name.split("@")
                    found = [i for i, line in enumerate(panel) if line.endswith(handle) or line.endswith(name)]
                    assert found, text
                    at = found[0]
                    assert panel[at].endswith(name) or panel[at + 1] == f"@{tag}", text
            else:
                words = " ".join(text.split())
                assert LONG in words and NUMBERED in words, text
            c.close()
