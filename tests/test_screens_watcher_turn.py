"""A watcher's narrow board, where the panel that says whose turn it is and the score is cut off:
the message line says them after the news, and only while they are so."""

from __future__ import annotations

import pytest
from harness import Caller, call, login, running_server
from menus import open_game

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Win
from bgdoor.service import Service
from bgdoor.service.types import GameView


def words(text: str) -> str:
    return " ".join(text.split())


def opened(url: str) -> tuple[int, int, int, int]:
    """alice and bob in a 3-point match, alice's opening 4-2 played; bob to roll.  (game, version,
    alice, bob)"""
    with Service(url, dice=ScriptedDice([4, 2])) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        svc.register("carol", "carol-pw")
        view = svc.begin_game(alice, 3, Color.WHITE, "bob")
        view = svc.roll(alice, view.id, view.version)
        view = svc.submit_turn(alice, view.id, view.version, "8/4 6/4")
        return view.id, view.version, alice, bob


async def next_game_begun(url: str, c: Caller, game: int, version: int, alice: int, bob: int) -> GameView:
    """bob doubles and alice drops: bob wins the first game, 1-0, and the watcher `c` holds its
    result; then alice 1, bob 5: bob starts the second with 5-1, playing 13/8 6/5."""
    with Service(url, dice=ScriptedDice([1, 5])) as svc:
        view = svc.double(bob, game, version)
        view = svc.drop(alice, game, view.version)
        await c.wait_words("Press a key")
        view = svc.roll(alice, game, view.version)
        return svc.submit_turn(bob, game, view.version, "13/8 6/5")


async def whole_message(c: Caller) -> str:
    """The board's message as words: from the ? page where the board had to cut it."""
    whole = words(c.text)
    if "? shows all" in whole:
        c.send("?")
        whole = words(await c.wait_words("The message in full"))
    return whole


async def carol_watching_at_80_columns(port: int) -> Caller:
    """carol opens the game at 80x25, where the panel says whose turn it is."""
    c = await call(port, cols=80, rows=25)
    await login(c, "carol", "carol-pw", new=False)
    await open_game(c)
    await c.wait_words("Watching this game.")
    return c


async def carol_watching_at_40_columns(port: int, who: str = "carol") -> Caller:
    """carol (or one of its players, `who`) opens the game at 40 columns, bob to play."""
    c = await call(port, cols=40, rows=24)
    await login(c, who, f"{who}-pw", new=False)
    await open_game(c)
    await c.wait_for("Enter goes on anyway")
    c.send("\r")
    await c.wait_words("bob to play.")
    return c


async def test_a_double_after_a_play_is_told_with_whose_answer_it_is_not_the_turn_before(tmp_path):
    """After 'alice played 13/9 13/10. bob to play. Score: ...' bob doubled, and the watcher read
    'bob to play. Score: alice 4, bob 1 (match to 5). bob doubles to 2.': whose turn it had been,
    as if still so, and nothing of whose answer it was."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_40_columns(srv.port)
        try:
            with Service(url) as svc:
                svc.double(bob, game, version)
            said = words(await c.wait_words("bob doubles to 2."))
            assert "bob doubles to 2. alice to answer." in said, said
            assert "bob to play" not in said, said
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            c.close()


async def test_a_watcher_is_told_the_next_games_start_after_a_result(tmp_path):
    """A watcher holding a game's result was told of the next game's opening roll and play only
    'bob to play.' (the news pushed off by it), and after the key the board said that alone.
    (The score follows where it fits: not here, after an opening roll and its play.)"""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_40_columns(srv.port)
        try:
            await next_game_begun(url, c, game, version, alice, bob)
            await c.settle(0.5)
            # The result with what followed it: whole in the rows the help leaves free at 40 columns.
            whole = words(c.text)
            assert "? shows all" not in whole, whole
            assert "bob wins a single game" in whole and "playing 13/8 6/5. alice to play." in whole, whole
            c.send(" ")  # the result goes
            said = words(await c.wait_until(lambda t: "Press a key" not in words(t), "the result to go"))
            assert "bob starts with 5-1, playing 13/8 6/5. alice to play." in said, said
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            c.close()


async def test_a_wide_watcher_is_told_the_next_games_start_after_a_result(tmp_path):
    """At 80 columns the panel says whose turn it is; the message line keeps the news: the next
    game's opening roll and play, beside the result and after it."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_80_columns(srv.port)
        try:
            await next_game_begun(url, c, game, version, alice, bob)
            await c.wait_words("playing 13/8 6/5.")
            assert "bob wins a single game" in words(c.text), c.text
            c.send(" ")  # the result goes
            said = words(await c.wait_until(lambda t: "Press a key" not in words(t), "the result to go"))
            assert "bob starts with 5-1, playing 13/8 6/5." in said, said
        finally:
            c.close()


async def test_a_watcher_holding_a_result_keeps_it_when_the_next_game_ends_too(tmp_path):
    """A watcher who pressed no key while a whole game went by: the second result replaced the
    first, and the first game's result and score were never seen."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_80_columns(srv.port)
        try:
            view = await next_game_begun(url, c, game, version, alice, bob)
            with Service(url) as svc:
                view = svc.resign(alice, game, view.version, Win.SINGLE)
                svc.answer_resign(bob, game, view.version, accept=True)  # bob wins the second, 2-0
            await c.wait_words("by resignation")
            await c.settle(0.3)
            whole = await whole_message(c)
            assert "bob wins a single game on a drop, 1 point." in whole, whole
            assert "Score: bob 1, alice 0. Game 2: alice offers" in whole or \
                "Score: bob 1, alice 0. Game 2: bob" in whole, whole  # which game the second result ends
            assert "bob wins a single game by resignation, 1 point." in whole, whole
        finally:
            c.close()


async def test_a_watcher_at_40_columns_gets_a_match_won_on_a_resignation_whole(tmp_path):
    """'alice accepts the resignation. alice wins a backgammon by resignation, 3 points, and the
    match... (? shows all)': the line before the result, which the result says again ('by
    resignation'), pushed its score and the ratings to the ? page."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_40_columns(srv.port)
        try:
            with Service(url) as svc:
                view = svc.resign(bob, game, version, Win.BACKGAMMON)
                await c.wait_words("bob offers to resign")
                svc.answer_resign(alice, game, view.version, accept=True)
            said = words(await c.wait_words("Press a key"))
            assert "alice wins a backgammon by resignation, 3 points, and the match 3-0." in said, said
            # The ratings whole: the help's one line leaves the message the rows under it (they had
            # stood empty, the figures on the ? page).
            assert "Ratings: alice 1517.3 (+17.3), bob 1482.7 (-17.3). (Press a key" in said, said
            assert "? shows all" not in said, said
        finally:
            c.close()


async def test_the_winner_at_40_columns_reads_the_match_s_result_and_ratings_whole(tmp_path):
    """At 40x24 'You win a backgammon by resignation, 3 points, and the match 3-0. Ratings:
    alice 1517.3 (+17.3),... (? shows all)' over two empty rows under the help."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_40_columns(srv.port, "alice")
        try:
            with Service(url) as svc:
                svc.resign(bob, game, version, Win.BACKGAMMON)
            await c.wait_words("bob offers to resign")
            c.send("A")
            await c.wait_for("(Y/N)")
            c.send("Y")
            await c.wait_words("Press a key")
            await c.settle(0.3)
            rows = c.screen.display
            said = words("\n".join(rows[18:]))
            assert said == ("You accept the resignation. "
                            "You win a backgammon by resignation, 3 points, and the match 3-0. Ratings: "
                            "alice 1517.3 (+17.3), bob 1482.7 (-17.3). (Press a key; Q leaves the game.)"), rows
        finally:
            c.close()


async def test_a_watcher_holding_a_result_is_not_told_the_score_again_after_it(tmp_path):
    """'... 1 point. Score: alice 0, bob 1. bob offers to resign, giving a gammon (2 points).
    alice to answer. Score: alice 0, bob 1 (match to 3).': the score twice."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_40_columns(srv.port)
        try:
            with Service(url, dice=ScriptedDice([1, 5])) as svc:
                view = svc.double(bob, game, version)
                view = svc.drop(alice, game, view.version)
                await c.wait_words("Press a key")
                view = svc.roll(alice, game, view.version)  # bob starts the second game with 5-1
                svc.resign(bob, game, view.version, Win.GAMMON)
            await c.settle(1.5)  # the offer told, whole or (cut at 40 columns) on the ? page
            said = await whole_message(c)
            assert said.count("Score:") == 1, said
            assert "bob offers to resign, giving a gammon (2 points). alice to answer." in said, said
        finally:
            c.close()


async def test_a_watcher_at_40_columns_holding_a_result_sees_the_match_end_first(tmp_path):
    """carol held the first game's result through the second, which ended the match: her board
    showed the second game's last position under the first game's result and score, and the
    match's end only on the ? page."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_40_columns(srv.port)
        try:
            view = await next_game_begun(url, c, game, version, alice, bob)
            with Service(url) as svc:
                view = svc.resign(alice, game, view.version, Win.GAMMON)
                svc.answer_resign(bob, game, view.version, accept=True)  # bob wins the match, 3-0
            said = words(await c.wait_words("and the match 3-0"))
            assert said.index("and the match 3-0") < said.find("Before it:") or "Before it:" not in said, said
            whole = await whole_message(c)
            assert "Before it: alice drops the double." in whole or "Before it: bob wins a single game on a drop" \
                in whole, whole
        finally:
            c.close()


async def test_a_watcher_is_told_when_a_player_logs_off_and_comes_on_again(tmp_path):
    """Waiting for bob's play, a watcher was not told he had hung up, nor that he came back: the
    players' boards said so, the watcher's went on saying 'bob to play.'"""
    url = f"sqlite:///{tmp_path}/g.db"
    opened(url)
    async with running_server(url, presence_ttl=3.0) as srv:
        bob = await call(srv.port)
        await login(bob, "bob", "bob-pw", new=False)
        c = await carol_watching_at_40_columns(srv.port)
        try:
            await c.settle(1.5)  # the first look at who is on: nothing to say yet
            assert "logged off" not in c.text and "on again" not in c.text, c.text
            bob.close()
            # In fewer words at 40 columns, beside whose turn it is and the score (the whole had
            # taken their place).
            said = " ".join((await c.wait_words("bob has logged off", 15)).split())
            assert "bob to play. Score: alice 0, bob 0 (match to 3). bob has logged off." in said, said
            bob = await call(srv.port)
            await login(bob, "bob", "bob-pw", new=False)
            await c.wait_words("bob is on again.", 15)
            assert "alice has" not in c.text and "alice is" not in c.text, c.text  # alice never came or went
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            c.close()
            bob.close()


async def test_a_watchers_score_stays_where_a_shorter_logoff_leaves_room(tmp_path):
    """carol at 40 columns: bob's play, then 'bob is on again.', then alice hanging up: 'alice has
    logged off; the game waits for their next visit. alice to play.' had taken the score's place,
    where 'alice has logged off.' left room for it."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url, presence_ttl=3.0) as srv:
        a, b = await call(srv.port), await call(srv.port)
        await login(a, "alice", "alice-pw", new=False)
        await login(b, "bob", "bob-pw", new=False)
        c = await carol_watching_at_40_columns(srv.port)
        try:
            await c.settle(1.5)
            with Service(url, dice=ScriptedDice([6, 2])) as svc:
                view = svc.roll(bob, game, version)
                svc.submit_turn(bob, game, view.version, "24/18 13/11")
            await c.wait_words("alice to play. Score:")
            b.close()
            await c.wait_words("bob has logged off", 15)
            b = await call(srv.port)
            await login(b, "bob", "bob-pw", new=False)
            await c.wait_words("bob is on again.", 15)
            a.close()
            said = words(await c.wait_words("alice has logged off", 15))
            assert "played 24/18 13/11" in said and "alice to play. Score: alice 0, bob 0 (match to 3)." in said, said
            assert all(len(line.rstrip()) <= 40 for line in c.screen.display)
        finally:
            for x in (a, b, c):
                x.close()


async def test_a_watcher_holding_a_result_is_told_everything_after_it_when_it_goes(tmp_path):
    """A watcher who let a result stand while the next game's opening roll, a play and another
    play went by was told only the last of them, beside the result and after it."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_80_columns(srv.port)
        try:
            view = await next_game_begun(url, c, game, version, alice, bob)
            with Service(url, dice=ScriptedDice([6, 4])) as svc:
                view = svc.roll(alice, game, view.version)
                svc.submit_turn(alice, game, view.version, "24/14")
            await c.wait_words("alice rolled 6-4 and played 24/14.")
            c.send(" ")  # the result goes: what came after it, all of it
            page = words(await c.wait_words("Since you last looked:"))
            assert "bob starts with 5-1, playing 13/8 6/5." in page, page
            assert "alice rolled 6-4 and played 24/14." in page, page
            c.send(" ")
            await c.wait_until(lambda t: "Since you last looked" not in words(t), "the board")
        finally:
            c.close()


@pytest.mark.parametrize("rows", [24, 20])
async def test_a_watcher_keeps_the_plays_told_since_the_last_key_where_the_lines_hold_them(tmp_path, rows):
    """hugo at 80x20, a row free: 'gwen rolled 6-5 and played 24/13. fred rolled 2-1.' on the
    lines, fred's play just before them gone (only the last two things told were kept).  Kept
    under the board: at 80x20 four lines of news had covered its foot for good."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await call(srv.port, cols=80, rows=rows)
        await login(c, "carol", "carol-pw", new=False)
        await open_game(c, expect="BAR" if rows > 20 else "Enter goes on anyway")
        if rows == 20:
            c.send("\r")
        await c.wait_for("BAR")
        await c.settle(0.5)
        with Service(url, dice=ScriptedDice([6, 5, 3, 1, 2, 1, 4, 3, 5, 2])) as svc:
            v = svc.roll(bob, game, version)
            await c.wait_words("bob rolled 6-5.")
            v = svc.submit_turn(bob, game, v.version, "24/13")
            await c.wait_words("bob rolled 6-5 and played 24/13.")
            v = svc.roll(alice, game, v.version)
            await c.wait_words("alice rolled 3-1.")
            v = svc.submit_turn(alice, game, v.version, "8/5 6/5")
            await c.wait_words("alice rolled 3-1 and played 8/5 6/5.")
            svc.roll(bob, game, v.version)
            said = words(await c.wait_words("bob rolled 2-1."))
            if rows == 24:
                assert "bob rolled 6-5 and played 24/13. alice rolled 3-1 and played 8/5 6/5." in said, said
            else:
                assert "alice rolled 3-1 and played 8/5 6/5." in said, said
            v = svc.submit_turn(bob, game, svc.game(game).version, "13/11 6/5")
            await c.wait_words("bob rolled 2-1 and played 13/11 6/5.")
            v = svc.roll(alice, game, v.version)
            v = svc.submit_turn(alice, game, v.version, "13/9 13/10")
            await c.wait_words("alice rolled 4-3 and played 13/10 13/9.")
            v = svc.roll(bob, game, v.version)
            svc.submit_turn(bob, game, v.version, "13/8 13/11")
            await c.wait_words("bob rolled 5-2 and played")
        await c.settle(0.5)
        assert c.screen.display[17].split() == "12 11 10 9 8 7 6 5 4 3 2 1 OFF".split(), c.text  # the foot
        c.close()


async def test_a_watcher_s_refused_keys_keep_what_was_done_last(tmp_path):
    """hugo pressed Enter, then 6, then D: the second refusal had left 'You are watching this game,
    not playing in it.' alone on the lines, the last play and whose turn it is gone."""
    url = f"sqlite:///{tmp_path}/g.db"
    game, version, alice, bob = opened(url)
    async with running_server(url) as srv:
        c = await carol_watching_at_80_columns(srv.port)
        await c.wait_words("8/4 6/4")
        await c.settle(0.3)
        for key in ("\r", "6", "D"):
            c.send(key)
            await c.settle(0.3)
            said = words(await c.wait_words("You are watching this game, not playing in it."))
            assert "8/4 6/4" in said, (key, said)
            assert said.count("not playing in it") == 1, said
        c.close()
