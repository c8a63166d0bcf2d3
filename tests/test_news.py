"""News from the event log: read marks, what each player is told, withdrawing and finished matches."""

from __future__ import annotations

import asyncio
import random
import re
from datetime import UTC, datetime, timedelta

import pytest
from alembic import command
from harness import running_server
from menus import open_game
from rawtelnet import RawCaller, login
from sqlalchemy import select
from sqlalchemy.orm import Session

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase, Win
from bgdoor.service import GameChanged, IllegalAction, NotFound, Service
from bgdoor.store import db
from bgdoor.store.models import Game, ReadMark
from bgdoor.ui.news import a_match, headlines, latest_first, narrate, news_book, page_holding, steps, told_again
from bgdoor.ui.review import frames


@pytest.fixture
def svc(db_url):
    with Service(db_url, dice=ScriptedDice([3, 1] * 200)) as service:
        yield service


def texts(svc: Service, game_id: int, pid: int) -> list[str]:
    log = svc.game_log(game_id, pid)
    return [line.text for line in narrate(log, log.read_upto, pid)]


def test_join_opening_roll_and_plays_are_news_to_the_other_player(svc):
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 3, Color.WHITE)
    assert svc.unread(ann) == []  # an open seat: nothing yet
    view = svc.join_game(bob, view.id)
    (u,) = svc.unread(ann)
    assert u.game_id == view.id and u.since == -1
    assert texts(svc, view.id, ann) == ["bob joined your game."]
    assert svc.unread(bob) == []
    view = svc.roll(bob, view.id, view.version)  # bob makes the opening roll: white 3, black 1
    assert texts(svc, view.id, ann) == [
        "bob joined your game.",
        "Opening roll: ann 3, bob 1. You start with 3-1.",
    ]
    # bob rolled it himself: not news to him
    assert svc.unread(bob) == []
    svc.mark_read(ann, view.id, 10**6)  # read to the end, whatever the number says
    assert svc.unread(ann) == []
    view = svc.submit_turn(ann, view.id, view.version, "8/5 6/5")
    # The play right after the opening roll is told with it.
    assert texts(svc, view.id, bob) == ["Opening roll: ann 3, bob 1. ann starts with 3-1, playing 8/5 6/5."]
    view = svc.roll(bob, view.id, view.version)
    view = svc.submit_turn(bob, view.id, view.version, "8/5 6/5")
    assert texts(svc, view.id, ann) == ["bob rolled 3-1 and played 8/5 6/5."]
    view = svc.double(ann, view.id, view.version)
    view = svc.drop(bob, view.id, view.version)
    assert texts(svc, view.id, ann) == [
        "bob rolled 3-1 and played 8/5 6/5.",
        "bob drops the double.",
        # Told to its winner as theirs: beside the panel's 'You won the game', 'ann wins' read as
        # the other player's.
        "You win a single game on a drop, 1 point. Score: ann 1, bob 0.",
    ]
    told = narrate(svc.game_log(view.id, bob), 0, bob, everything=True)  # as bob's board tells his drop
    assert told[-1].text == "ann wins a single game on a drop, 1 point. Score: ann 1, bob 0."


def test_resignation_answer_and_match_result_with_ratings(svc):
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 1, Color.WHITE, "bob")
    assert texts(svc, view.id, bob) == ["ann began a 1-point match with you."]
    view = svc.roll(ann, view.id, view.version)
    view = svc.resign(ann, view.id, view.version, Win.SINGLE)
    view = svc.answer_resign(bob, view.id, view.version, False)
    assert texts(svc, view.id, ann)[-1] == "bob refuses the resignation; play goes on."
    view = svc.resign(ann, view.id, view.version, Win.GAMMON)
    view = svc.answer_resign(bob, view.id, view.version, True)
    news = narrate(svc.game_log(view.id, ann), 0, ann)
    assert news[-2].text == "bob accepts the resignation."
    assert news[-1].text == (
        "bob wins a gammon by resignation, 2 points, and the match 2-0. "
        "Ratings: bob 1510.0 (+10.0), ann 1490.0 (-10.0)."  # a sentence, ended as one
    )
    assert news[-1].result
    assert narrate(svc.game_log(view.id, bob), 0, bob, everything=True)[-1].text == (
        "You win a gammon by resignation, 2 points, and the match 2-0. "
        "Ratings: bob 1510.0 (+10.0), ann 1490.0 (-10.0)."
    )
    assert [g.id for g in svc.finished_games(ann)] == [view.id]


def test_withdraw_an_open_game(svc):
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 3, Color.WHITE)
    with pytest.raises(IllegalAction):
        svc.withdraw_game(bob, view.id)
    svc.withdraw_game(ann, view.id)
    with pytest.raises(NotFound):
        svc.game(view.id)
    joined = svc.begin_game(ann, 3, Color.WHITE)
    svc.join_game(bob, joined.id)
    rolled = svc.roll(bob, joined.id, svc.game(joined.id).version)  # the first opening roll: under way
    for pid in (ann, bob):
        with pytest.raises(IllegalAction):
            svc.withdraw_game(pid, rolled.id)


def test_a_game_joined_since_it_was_seen_is_not_withdrawn(svc):
    """'Withdraw game #9? Nobody has joined it.' answered Y as carol's join went in: the game she
    had just joined was withdrawn.  With the version the player saw, it stays."""
    ann = svc.register("ann", "secret1").id
    carol = svc.register("carol", "secret1").id
    seen = svc.begin_game(ann, 3, Color.WHITE)
    svc.join_game(carol, seen.id)
    with pytest.raises(GameChanged):
        svc.withdraw_game(ann, seen.id, seen.version)
    now = svc.game(seen.id)
    assert now.status == "active" and now.black == "carol"
    assert svc.notices(carol) == []
    svc.withdraw_game(ann, seen.id, now.version)  # still before the first roll, seen as it is
    with pytest.raises(NotFound):
        svc.game(seen.id)


def test_either_player_withdraws_from_a_match_nobody_has_rolled_in(svc):
    """A player named in a game they did not want had no way out of it (G)ive up comes only after
    the first roll); and its beginner could not take it back, as if it were under way."""
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    carol = svc.register("carol", "secret1").id
    for leaving in (ann, bob):
        view = svc.begin_game(ann, 3, Color.WHITE, "bob")
        with pytest.raises(IllegalAction):
            svc.withdraw_game(carol, view.id)  # not hers
        svc.withdraw_game(leaving, view.id)
        with pytest.raises(NotFound):
            svc.game(view.id)
        assert not svc.my_games(ann) and not svc.my_games(bob)
        # The other player is left a notice of it, told until cleared; the one who withdrew, none.
        stays, went = (bob, "ann") if leaving == ann else (ann, "bob")
        assert not svc.notices(leaving)
        (notice,) = svc.notices(stays)
        assert (notice.kind, notice.game_id, notice.length, notice.other) == ("withdrawn", view.id, 3, went)
        assert svc.notices(stays) == [notice]
        svc.clear_notices(stays, notice.id)
        assert not svc.notices(stays)


def test_a_game_removed_by_the_sysop_leaves_its_players_a_notice(svc):
    from bgdoor.service.sysop import Sysop  # noqa: PLC0415

    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 5, Color.WHITE, "bob")
    Sysop(svc).delete_game(view.id)
    assert [(n.kind, n.game_id, n.other) for n in svc.notices(ann)] == [("removed", view.id, "bob")]
    assert [(n.kind, n.game_id, n.other) for n in svc.notices(bob)] == [("removed", view.id, "ann")]


def test_review_steps_end_on_the_final_board(db_url):
    """A match won by bearing off: the last step's board has all 15 of the winner's checkers off."""
    dice = random.Random(5)
    with Service(db_url, dice=ScriptedDice([dice.randint(1, 6) for _ in range(3000)])) as svc:
        _play_out(svc)


def _play_out(svc: Service) -> None:
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 1, Color.WHITE, "bob")
    rng = random.Random(3)
    ids = {Color.WHITE: ann, Color.BLACK: bob}
    while not view.state.over:
        st = view.state
        if st.phase is Phase.OPENING:
            view = svc.roll(ann, view.id, view.version)
        elif st.phase is Phase.ROLL:
            view = svc.roll(ids[st.actor], view.id, view.version)
        else:
            plays = st.plays()
            play = str(rng.choice(plays)) if plays else ""
            view = svc.submit_turn(ids[st.actor], view.id, view.version, play)
    last = steps(svc.game_log(view.id, ann))[-1].after
    assert last.over and last.position.opponent_off == 15 and last.position == view.state.position
    winner_side = view.state.sides(view.state.winner)[0]
    assert sum(winner_side) == 0
    # `bgdoor sysop game N` shows the same final board.
    from bgdoor.service.sysop import Sysop  # noqa: PLC0415 - only this check needs the sysop tools

    assert Sysop(svc).game(view.id).position_id == view.state.position.id


def test_upgrade_marks_old_history_read(tmp_path):
    """A database from before read marks: what happened before the upgrade is not news."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    with Service(url, dice=ScriptedDice([3, 1] * 20)) as svc:
        ann = svc.register("ann", "secret1").id
        bob = svc.register("bob", "secret1").id
        view = svc.begin_game(ann, 3, Color.WHITE, "bob")
        view = svc.roll(bob, view.id, view.version)
        # A match finished before the fix: its snapshot kept the board from before the winning play.
        done = svc.begin_game(ann, 1, Color.WHITE, "bob")
        done = svc.resign(ann, done.id, svc.roll(ann, done.id, done.version).version, Win.SINGLE)
        done = svc.answer_resign(bob, done.id, done.version, True)
        with Session(svc.engine) as s, s.begin():
            s.query(ReadMark).delete()
            g = s.get(Game, done.id)
            assert g is not None
            g.state = {**g.state, "position": "4HPwATDgc/ABMA"}  # some other board
    engine = db.make_engine(url)
    with engine.begin() as conn:
        cfg = db.alembic_config(conn)
        command.downgrade(cfg, "0002")
        command.upgrade(cfg, "head")
    engine.dispose()
    with Service(url) as svc:
        assert svc.unread(ann) == [] and svc.unread(bob) == []
        with Session(svc.engine) as s:
            assert s.scalar(select(Game.event_count).where(Game.id == view.id)) == 1
        # The finished match's board is what its record replays to again.
        assert svc.game(done.id).state == done.state


async def test_news_left_with_q_before_the_last_page_stays_news(tmp_path):
    """Twelve games' news take two pages at 80x24: Q on the first marks read only the games whose
    every line was on it; the rest are news at the next look."""
    db_url = f"sqlite:///{tmp_path / 'news.db'}"
    with Service(db_url, dice=ScriptedDice([3, 1] * 200)) as setup:
        ann = setup.register("ann", "secret1").id
        bob = setup.register("bob", "secret1").id
        games = []
        for _ in range(12):
            view = setup.begin_game(ann, 1, Color.WHITE)
            view = setup.join_game(bob, view.id)
            setup.roll(bob, view.id, view.version)  # two lines of news for ann: the join, the opening roll
            games.append(view.id)
    async with running_server(db_url) as server:
        caller = await RawCaller.connect(server.port, term="xterm", size=(80, 24))
        try:
            await login(caller, "ann", "secret1", new=False)
            caller.send("N")
            first = await caller.wait_for("(page 1 of 2)")
            on_first = {int(m) for m in re.findall(r"#(\d+): Opening roll", first)}
            assert 0 < len(on_first) < 12
            caller.send("Q")
            await caller.wait_for("Your choice")
        finally:
            caller.close()
    with Service(db_url) as after:
        unread = {u.game_id for u in after.unread(ann)}
        assert unread == set(games) - on_first, "a game whose news was never on screen was marked read"
        # The next look at the news still tells the rest, from where the player stopped.
        for game_id in unread:
            log = after.game_log(game_id, ann)
            assert any("Opening roll" in n.text for n in narrate(log, log.read_upto, ann))


def ann_and_bob_play_on(db_url: str) -> tuple[int, int]:
    """(ann's id, the game's): a 25-point match of ann's against bob, 110 actions in, which ann
    has not looked at since she began it."""
    with Service(db_url, dice=ScriptedDice([3, 1, 2, 1, 4, 2, 5, 3, 6, 4, 5, 2] * 40)) as setup:
        ann = setup.register("ann", "secret1").id
        bob = setup.register("bob", "secret1").id
        view = setup.begin_game(ann, 25, Color.WHITE, "bob")
        view = setup.roll(bob, view.id, view.version)
        for _ in range(110):
            st = view.state
            actor = ann if st.actor is Color.WHITE else bob
            if st.phase is Phase.ROLL:
                view = setup.roll(actor, view.id, view.version)
            else:
                plays = st.plays()
                view = setup.submit_turn(actor, view.id, view.version, plays[0].position.id if plays else "")
        return ann, view.id


async def test_coming_back_to_a_game_tells_every_line_on_pages(tmp_path):
    """Many turns since the player last looked: the game's news page goes on over pages, every
    line of it (before, the earliest were left out with a pointer to R)eview, which a player in
    a game in progress cannot press)."""
    db_url = f"sqlite:///{tmp_path / 'pages.db'}"
    ann, game_id = ann_and_bob_play_on(db_url)
    with Service(db_url) as db:
        log = db.game_log(game_id, ann)
        told = [n.text for n in narrate(log, log.read_upto, ann)]
    assert len(told) > 20
    async with running_server(db_url) as server:
        caller = await RawCaller.connect(server.port, term="xterm", size=(80, 24))
        try:
            await login(caller, "ann", "secret1", new=False)
            await open_game(caller)
            seen = ""
            while True:
                text = await caller.wait_for("Since you last looked")
                await caller.settle(0.2)
                text = caller.text
                seen += " " + " ".join(text.split())
                if "press a key for more" not in text:
                    break
                caller.send(" ")
                await caller.wait_until(lambda t, before=text: t != before, "the next page")
            assert "Press a key for the board" in text
            missing = [t for t in told if " ".join(t.split()) not in seen]
            assert not missing, missing
        finally:
            caller.close()


async def test_a_caller_who_hangs_up_on_the_game_news_pages_is_told_again(tmp_path):
    """The game's news is marked read once its last page was shown, not before: hanging up on the
    first page leaves it all news for the next call."""
    db_url = f"sqlite:///{tmp_path / 'hangup.db'}"
    ann_and_bob_play_on(db_url)
    async with running_server(db_url) as server:
        for _ in range(2):  # the second call sees the same first page
            caller = await RawCaller.connect(server.port, term="xterm", size=(80, 24))
            try:
                await login(caller, "ann", "secret1", new=False)
                await open_game(caller, expect="press a key for more")
                assert "Opening roll: ann 3, bob 1." in caller.text
            finally:
                caller.close()
            await asyncio.sleep(0.5)



def test_a_headline_names_its_game_once(svc):
    """The menu puts '#N:' before each line; the line itself does not say the number again
    ('#1: alice began a 1-point match with you (#1).' read twice)."""
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 1, Color.WHITE, "bob")
    (u,) = svc.unread(bob)
    log = svc.game_log(view.id, bob)
    assert headlines([(u, log, narrate(log, u.since, bob))]) == [f"#{view.id}: ann began a 1-point match with you."]


def test_the_menus_news_is_newest_first_across_games(svc):
    """The menu's 'News (3), the latest first:' reversed a list grouped by game, so a game's older
    lines came before another game's newer one, and with room for two the newest was cut."""
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    first = svc.begin_game(ann, 3, Color.WHITE, "bob")
    second = svc.begin_game(ann, 3, Color.WHITE, "bob")
    svc.roll(ann, first.id, first.version)  # the opening roll in the first game, after the second began
    news = [(u, svc.game_log(u.game_id, bob)) for u in svc.unread(bob)]
    news = [(u, log, narrate(log, u.since, bob)) for u, log in sorted(news, key=lambda n: n[0].game_id)]
    assert [len(lines) for *_, lines in news] == [2, 1]
    assert latest_first(news) == [
        f"#{first.id}: Opening roll: ann 3, bob 1. ann starts with 3-1.",
        f"#{second.id}: ann began a 3-point match with you.",
        f"#{first.id}: ann began a 3-point match with you.",
    ]


def test_ties_in_a_row_at_the_opening_roll_are_one_line(db_url):
    """Two ties before the opening roll was decided were two lines, and the roller's board, which
    keeps the last two, showed one tie where the opponent's news showed both."""
    with Service(db_url, dice=ScriptedDice([1, 1, 3, 3, 3, 1, 2, 2, 5, 3])) as svc:
        ann = svc.register("ann", "secret1").id
        bob = svc.register("bob", "secret1").id
        view = svc.begin_game(ann, 3, Color.WHITE, "bob")
        svc.roll(ann, view.id, view.version)
        # ... and the roll decided after them is told with them: at 40 columns the ties' line
        # and the decided roll's did not fit together, and who starts, with which dice, was cut.
        assert texts(svc, view.id, bob)[-1:] == [
            "Opening roll, after ties at 1 and 3: ann 3, bob 1. ann starts with 3-1.",
        ]
        assert narrate(svc.game_log(view.id, ann), 0, ann, everything=True)[-1].opening
        view = svc.begin_game(ann, 3, Color.WHITE, "bob")
        view = svc.roll(ann, view.id, view.version)
        view = svc.submit_turn(ann, view.id, view.version, "13/8 24/21")
        assert texts(svc, view.id, bob)[-1:] == [
            "Opening roll, after a tie at 2: ann 5, bob 3. ann starts with 5-3, playing 24/21 13/8.",
        ]


def test_a_news_page_laid_out_again_begins_where_the_reader_was():
    items = ["one two three four five six", "seven eight", "nine ten eleven twelve"]
    wide = news_book(items, 40, 2)
    assert [[line for line, _, _ in page] for page in wide] == [
        ["- one two three four five six", "- seven eight"], ["- nine ten eleven twelve"]]
    # At 14 columns the first item takes three lines: the reader who was on page 2 (item 3 on)
    # is shown the page that holds item 3's first line, the third now.
    narrow = news_book(items, 14, 2)
    assert page_holding(narrow, wide[1][0][1:]) == 2
    assert narrow[2][0][0] == "- nine ten"
    assert page_holding(narrow, (1, 0)) == 1  # "- seven eight", the second line of page 2
    assert page_holding(narrow, (0, 0)) == 0
    assert page_holding(news_book([], 40, 2), (0, 0)) == 0
    # An item that fits on a page is not split between two ("giving a" / "single game").
    assert [[line for line, _, _ in page] for page in news_book(["one", "two three four five", "six"], 14, 2)] == [
        ["- one"], ["- two three", "  four five"], ["- six"]]


def test_a_match_is_an_8_point_one() -> None:
    """'bob began a 8-point match with you', and the review's 'a 11-point match: the start'."""
    assert [a_match(n) for n in (1, 5, 8, 11, 18, 21, 81)] == [
        "a 1-point match", "a 5-point match", "an 8-point match", "an 11-point match",
        "an 18-point match", "a 21-point match", "an 81-point match",
    ]


def test_games_begun_with_you_are_newest_first_on_the_menu(svc):
    """Six games begun with bob, nothing played: the menu's 'the latest first' began with the
    oldest (#6, #7, ...), as lines with no event of their own kept the order they came in."""
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    ids = [svc.begin_game(ann, 1, Color.WHITE, "bob").id for _ in range(6)]
    news = [(u, svc.game_log(u.game_id, bob)) for u in svc.unread(bob)]
    news = [(u, log, narrate(log, u.since, bob)) for u, log in news]
    assert latest_first(news) == [f"#{i}: ann began a 1-point match with you." for i in reversed(ids)]


def test_a_redouble_is_told_as_one(svc):
    """The cube turned back was told 'bob doubles to 4', as if it were the first double."""
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 5, Color.WHITE, "bob")
    view = svc.roll(bob, view.id, view.version)  # ann 3, bob 1: ann starts with 3-1
    view = svc.submit_turn(ann, view.id, view.version, "8/5 6/5")
    view = svc.double(bob, view.id, view.version)
    view = svc.take(ann, view.id, view.version)
    view = svc.roll(bob, view.id, view.version)
    view = svc.submit_turn(bob, view.id, view.version, "8/5 6/5")
    view = svc.double(ann, view.id, view.version)
    told = [line.text for line in narrate(svc.game_log(view.id, bob), 0, bob)]
    assert told[-1] == "ann redoubles to 4.", told
    assert "bob doubles to 2." in [line.text for line in narrate(svc.game_log(view.id, ann), 0, ann)]


def test_the_game_that_brings_the_crawford_game_says_so(svc):
    """The Crawford game began unannounced: only the title's '· Crawford' said why D)ouble
    no longer worked."""
    ann = svc.register("ann", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(ann, 3, Color.WHITE, "bob")
    view = svc.roll(bob, view.id, view.version)  # ann 3, bob 1: ann starts with 3-1
    view = svc.resign(bob, view.id, view.version, Win.GAMMON)
    view = svc.answer_resign(ann, view.id, view.version, True)  # 2-0: ann at match point
    assert view.state.crawford
    told = [line.text for line in narrate(svc.game_log(view.id, bob), 0, bob, everything=True)]
    assert told[-1] == "ann wins a gammon by resignation, 2 points. Score: ann 2, bob 0. " \
        "Next is the Crawford game: no doubling in it.", told
    view = svc.roll(ann, view.id, view.version)
    view = svc.resign(ann, view.id, view.version, Win.SINGLE)
    view = svc.answer_resign(bob, view.id, view.version, True)  # 2-1: the game after Crawford
    assert not view.state.crawford and not view.state.over
    told = [line.text for line in narrate(svc.game_log(view.id, ann), 0, ann, everything=True)]
    assert told[-1] == "bob wins a single game by resignation, 1 point. Score: ann 2, bob 1.", told


def test_a_forfeit_is_told_to_its_loser_in_the_second_person_and_as_the_match_it_is(db_url):
    """A match forfeited for time was told 'dave wins a single game by forfeit, 3 points, and the
    match 3-0.' and 'alice forfeits the match (time).', to alice too: no game was won, and
    '(time)' said nothing of why."""
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    with Service(db_url, dice=ScriptedDice([3, 1]), clock=lambda: now[0]) as svc:
        alice = svc.register("alice", "secret1").id
        dave = svc.register("dave", "secret1").id
        view = svc.begin_game(dave, 3, Color.WHITE, "alice")
        svc.roll(dave, view.id, view.version)  # dave 3, alice 1: dave to move, and does not
        now[0] += timedelta(days=30)
        assert svc.forfeit_stale(days=14) == [view.id]
        told = [n.text for n in narrate(svc.game_log(view.id, dave), 0, dave)]
        assert told[-2] == "You forfeit the match for taking too long to move.", told
        assert told[-1].startswith("alice wins by forfeit, and the match 3-0. Ratings: "), told
        told = [n.text for n in narrate(svc.game_log(view.id, alice), 0, alice)]
        assert told[-2][:45] == "dave forfeits the match for taking too long t", told
        assert told[-1].startswith("You win by forfeit, and the match 3-0. Ratings: "), told


def test_an_opening_roll_after_a_tie_is_told_with_it_again_with_the_play(svc):
    """alice read 'Opening roll, after a tie at 4: alice 2, bob 3. bob starts with 3-2.'; when bob
    then played, the same roll was told as 'Opening roll: alice 2, bob 3. bob starts with 3-2,
    playing ...', the tie gone: one fact in two wordings on one board."""
    svc.dice = ScriptedDice([4, 4, 2, 3])
    alice = svc.register("alice", "secret1").id
    bob = svc.register("bob", "secret1").id
    view = svc.begin_game(alice, 3, Color.WHITE, "bob")
    view = svc.roll(bob, view.id, view.version)
    log = svc.game_log(view.id, alice)
    assert [n.text for n in narrate(log, 0, alice)][-1] == \
        "Opening roll, after a tie at 4: alice 2, bob 3. bob starts with 3-2."
    read = len(log.events)
    svc.submit_turn(bob, view.id, view.version, "13/11 13/10")
    assert [n.text for n in narrate(svc.game_log(view.id, alice), read, alice)] == \
        ["Opening roll, after a tie at 4: alice 2, bob 3. bob starts with 3-2, playing 13/11 13/10."]


def test_a_review_speaks_to_its_player_throughout_and_tells_the_opening_play_with_its_roll(svc):
    """alice reviewing her own match read 'alice takes the double' beside 'You win', and 'Opening
    roll: alice 6, bob 3. You start with 6-3.' followed by 'alice rolled 6-3 and played ...', as
    if she had rolled again."""
    alice = svc.register("alice", "secret1").id
    bob = svc.register("bob", "secret1").id
    svc.dice = ScriptedDice([6, 3, 4, 2])
    view = svc.begin_game(alice, 5, Color.WHITE, "bob")
    view = svc.roll(alice, view.id, view.version)  # alice 6, bob 3
    view = svc.submit_turn(alice, view.id, view.version, "24/18 13/10")
    view = svc.double(bob, view.id, view.version)
    view = svc.take(alice, view.id, view.version)
    view = svc.roll(bob, view.id, view.version)
    view = svc.submit_turn(bob, view.id, view.version, "13/9 13/11")
    view = svc.double(alice, view.id, view.version)
    svc.drop(bob, view.id, view.version)
    said = [f.text for f in frames(svc.game_log(view.id, alice))][1:]
    assert said == [
        "Opening roll: alice 6, bob 3. You start with 6-3.",
        "Opening roll: alice 6, bob 3. You start with 6-3, playing 24/18 13/10.",
        "bob doubles to 2.",
        "You take the double; the cube is at 2.",
        "bob rolled 4-2.",
        "bob rolled 4-2 and played 13/11 13/9.",
        "You redouble to 4.",
        "bob drops the double.",
        "You win a single game on a drop, 2 points. Score: alice 2, bob 0.",
    ], said
    said = [f.text for f in frames(svc.game_log(view.id, bob))][1:]
    assert said[1] == "Opening roll: alice 6, bob 3. alice starts with 6-3, playing 24/18 13/10.", said
    assert said[2:4] == ["You double to 2.", "alice takes the double; the cube is at 2."], said


def test_games_in_progress_follow_show_board(svc):
    """V)iew's list ignored door.cfg's show_board = always: a return left in front of the one that
    passed it on."""
    ann = svc.enter_from_bbs("ABC", "ann").id
    svc.register("bob", "secret1")
    svc.begin_game(ann, 3, Color.WHITE, "bob")
    assert [g.white for g in svc.games_in_progress()] == ["ann"]
    svc.show_board = "always"
    assert [g.white for g in svc.games_in_progress()] == ["ann@ABC"]


def test_a_play_is_not_taken_for_a_roll_told_again() -> None:
    """A turn whose words a later turn began with ('... bar/22 13/11' and, two turns on, '...
    bar/22 13/11*') had gone from the board's lines: a watcher saw gwen play twice in a row."""
    first = "fred rolled 3-2 and played bar/22 13/11."
    between = "gwen rolled 4-2 and played 16/14* 13/9."
    again = "fred rolled 3-2 and played bar/22 13/11*."
    assert told_again([first, between, again]) == [first, between, again]
    # A roll told before its play still goes: the play's line says it again.
    assert told_again(["bob rolled 6-5.", "bob rolled 6-5 and played 24/13."]) == ["bob rolled 6-5 and played 24/13."]
    opening = "Opening roll: alice 5, bob 3."
    assert told_again([opening, f"{opening} alice starts with 5-3, playing 8/3 6/3."]) == [
        f"{opening} alice starts with 5-3, playing 8/3 6/3."]


def test_the_menu_shows_an_offer_to_answer_under_a_long_result_cut_to_its_row() -> None:
    """ida's menu at 80x24 said 'offers first' over kim's drop alone: jack's offer to resign the
    match, one row long, had no row left for '(N: all)' after it and was dropped."""
    from bgdoor.term.wrap import wrap  # noqa: PLC0415
    from bgdoor.ui.session import Session as MenuSession  # noqa: PLC0415

    result = ("#4: You win a single game on a drop, 2 points. Score: ida 2, kim 0. Next is the Crawford game: "
              "no doubling in it.")
    offer = "#1: jack offers to resign, giving a single game (1 point, the match)."
    opening = "#4: Opening roll: kim 5, ida 3. kim starts with 5-3 and played 13/8 13/10."
    for lines in ([result, offer], [result, offer, opening]):
        shown = MenuSession.news_briefs(lines, 74, 2)
        assert len(shown) == 2 and shown[1].startswith("#1: jack offers to resign"), shown
        assert shown[-1].endswith("(N: all)") and sum(len(wrap(t, 74)) for t in shown) <= 2, shown


def test_the_menu_leaves_an_item_to_n_rather_than_show_a_fragment_of_it() -> None:
    """At 40x24: '#6: JackTheGammonKid... (N: all)', '#8: Opening roll, after a tie at 4:
    JackTheGammonKid 5... (N: all)' (who rolled what, cut off).  Such an item is left to N; one
    cut after a sentence, or keeping most of its words, still stands."""
    from bgdoor.ui.session import (  # noqa: PLC0415
        MENU_MORE,
        Session as MenuSession,
        worth_showing,
    )

    resign = "#6: JackTheGammonKid offers to resign, giving a single game (1 point)."
    tie = ("#8: Opening roll, after a tie at 4: JackTheGammonKid 5, IdaBackgammonFan 6. IdaBackgammonFan "
           "starts with 6-5.")
    assert not worth_showing(f"#6: JackTheGammonKid{MENU_MORE}", resign)
    assert not worth_showing(f"#8: Opening roll, after a tie at 4: JackTheGammonKid 5{MENU_MORE}", tie)
    assert worth_showing(f"#8: Opening roll, after a tie at 4: JackTheGammonKid 5, IdaBackgammonFan 6{MENU_MORE}", tie)
    assert worth_showing(f"#6: JackTheGammonKid offers to resign, giving a single game{MENU_MORE}", resign)
    # In the menu's briefs too: a sentence whole, with the note after it left to N.
    first = "#4: kim doubles to 2."
    noted = "#2: kim doubles to 2. kim's note: \"Your move, old friend; take it if you dare.\""
    assert MenuSession.news_briefs([first, noted], 34, 2) == [first, "#2: kim doubles to 2... (N: all)"]


def test_the_opening_roll_s_play_after_an_offer_to_resign_is_not_said_as_rolled(tmp_path) -> None:
    """gwen offered to resign before fred played his opening 5-1, fred refused and played: gwen
    was told 'fred rolled 5-1 and played 13/8 6/5', and V)iew last 'Replay: fred rolled 5-1',
    where each had rolled one die."""
    from bgdoor.ui.review import replay_text  # noqa: PLC0415

    with Service(f"sqlite:///{tmp_path}/g.db", dice=ScriptedDice([5, 1, 4, 2])) as svc:
        fred = svc.register("fred", "fred-pw").id
        gwen = svc.register("gwen", "gwen-pw").id
        v = svc.begin_game(fred, 3, Color.WHITE, "gwen")
        v = svc.roll(fred, v.id, v.version)  # fred 5, gwen 1
        v = svc.resign(gwen, v.id, v.version, Win.SINGLE)
        v = svc.answer_resign(fred, v.id, v.version, False)
        v = svc.submit_turn(fred, v.id, v.version, "13/8 6/5")
        said = [line.text for line in narrate(svc.game_log(v.id, gwen), 0, gwen)]
        assert "fred plays the opening 5-1: 13/8 6/5." in said, said
        assert not [t for t in said if "rolled 5-1" in t], said
        last = svc.last_turn(v.id, gwen)
        v = svc.roll(gwen, v.id, v.version)
        v = svc.submit_turn(gwen, v.id, v.version, "13/9 13/11")
        later = svc.last_turn(v.id, fred)
    assert last is not None and later is not None
    from bgdoor.rules.position import Position  # noqa: PLC0415

    assert last.before.position == Position.start() and later.before.position != Position.start()
    assert replay_text("fred", last.dice, "", last.moves, 0, opening=True).startswith(
        "Replay: fred played the opening 5-1: the board before")


def test_a_roll_only_partly_played_says_which_die_could_not_be() -> None:
    """carol was told 'You rolled 6-4; only the 4 can be played: bar/21.'; dave 'carol rolled 6-4
    and played bar/21.', as if half her roll had been lost."""
    from dataclasses import replace as replaced  # noqa: PLC0415

    from test_rules_support import board  # noqa: PLC0415 - a rules test's helper

    from bgdoor.rules.game import MatchState, Move as Played  # noqa: PLC0415
    from bgdoor.rules.moves import legal_plays  # noqa: PLC0415
    from bgdoor.rules.position import Position  # noqa: PLC0415
    from bgdoor.ui.news import _unplayed  # noqa: PLC0415

    def said(pos: Position, dice: tuple[int, int]) -> str:
        (play,) = legal_plays(pos, dice)
        return _unplayed(replaced(MatchState(length=1), position=pos), dice, Played(str(play), play.position.id))

    assert said(board({13: 1}, {2: 2}), (6, 5)) == "; the 5 could not be played"  # the higher-die rule
    assert said(board({13: 1}, {7: 2, 2: 2}), (6, 5)) == "; the 6 could not be played"  # 13/7, 8/2 blocked
    assert said(board({1: 1}, {24: 2}), (2, 1)) == ""  # the last checker off: the game is won, not a die lost
    assert said(board({6: 2}, {}), (6, 5)) == ""  # both played (6/off 6/1)
    assert said(board({13: 2}, {1: 2}), (6, 6)) == "; two 6s could not be played"  # 13/7(2), then 7/1 blocked


def test_the_menu_gives_spare_rows_to_a_result_before_other_news() -> None:
    """kim at 40x24, back after losing a match and a gammon: '#6: ida wins a single game by...'
    (the match, lost, cut off) stood over '#5: jack drops the double.' and '#6: ida accepts the
    resignation.' whole.  Rows the results and offers leave go to the results first."""
    from bgdoor.term.wrap import wrap  # noqa: PLC0415
    from bgdoor.ui.session import Session as MenuSession  # noqa: PLC0415

    lines = [
        "#6: ida wins a single game by resignation, 1 point, and the match 1-0.",
        "#5: You win a single game on a drop, 1 point. Score: kim 1, jack 0.",
        "#4: ida wins a gammon by resignation, 2 points. Score: ida 2, kim 0.",
        "#3: ida offers to resign, giving a single game (1 point, the match).",
        "#5: jack drops the double.",
        "#6: ida accepts the resignation.",
        "#4: ida accepts the resignation.",
        "#3: Opening roll: ida 5, kim 3. ida starts with 5-3.",
    ]
    shown = MenuSession.news_shown(lines, 34, 8, leading=4, results=3)
    assert shown[0] == lines[0], shown  # the match lost, said whole
    assert any(t.startswith("#3: ida offers to resign") for t in shown), shown
    assert "#5: jack drops the double." not in shown, shown
    assert shown[-1].endswith("(N: all)") and sum(len(wrap(t, 34)) for t in shown) <= 8, shown


def test_the_menu_s_last_item_is_not_cut_to_a_fragment_to_say_n_all() -> None:
    """At 40x24 the last row read '#4: ida accepts the... (N: all)': the item, whole on its row,
    cut for '(N: all)' to follow it.  It is left to N, and '(N: all)' goes after the one before."""
    from bgdoor.ui.session import Session as MenuSession  # noqa: PLC0415

    lines = ["#7: ida drops the double.", "#4: ida accepts the resignation.",
             "#2: Opening roll: kim 5, ida 3. kim starts with 5-3."]
    assert MenuSession.news_shown(lines, 34, 2) == ["#7: ida drops the double. (N: all)"]
    assert MenuSession.news_shown(lines, 34, 3) == ["#7: ida drops the double.",
                                                    "#4: ida accepts the resignation. (N: all)"]


async def test_up_on_the_news_first_page_stays_as_on_the_instructions(tmp_path):
    """N)ews at 50x20, two pages: Up on the first went on to the second, where the I)nstructions'
    Up stays on its first page and says so.  Up and B turn back, and stay on the first page."""
    db_url = f"sqlite:///{tmp_path / 'up.db'}"
    ann_and_bob_play_on(db_url)
    async with running_server(db_url) as server:
        caller = await RawCaller.connect(server.port, term="xterm", size=(50, 20))
        try:
            await login(caller, "ann", "secret1", new=False)
            caller.send("N")
            await caller.wait_for("(page 1 of")
            caller.send("\x1b[A")  # Up
            await caller.wait_for("This is the first page.")
            assert "(page 1 of" in caller.text
            caller.send(" ")
            await caller.wait_for("(page 2 of")
            caller.send("\x1b[A")
            await caller.wait_for("(page 1 of")
        finally:
            caller.close()


def test_a_result_takes_the_row_n_all_did_not_need() -> None:
    """At 50x20: '#5: You win a single game on a drop, 1...' with a row free: a row had been kept
    for '(N: all)', which fitted beside the offer's last words."""
    from bgdoor.ui.session import Session as MenuSession  # noqa: PLC0415

    lines = ["#5: You win a single game on a drop, 1 point. Score: wes 1, xena 0.", "#2: xena doubles to 2.",
             "#4: xena offers to resign, giving a single game (1 point).", "#5: xena drops the double.",
             "#3: wes rolled 6-4 and played 24/14."]
    shown = MenuSession.news_briefs(lines, 44, 5, results=1, leading=3)
    assert shown[0] == lines[0], shown  # its score too, in the same two rows
    assert shown[-1].startswith("#4: xena offers") and shown[-1].endswith("(N: all)"), shown
