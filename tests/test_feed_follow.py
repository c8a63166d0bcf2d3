"""The change feed's first look knows only the games unfinished then: a game a screen read just
before, ended before that look (a sysop's forfeit, a last move), was never told."""

from __future__ import annotations

from pathlib import Path

from bgdoor.rules.game import Color
from bgdoor.service import Service
from bgdoor.service.feed import ChangeFeed
from bgdoor.service.sysop import Sysop


def test_a_followed_game_that_ends_before_the_first_look_is_told(tmp_path: Path) -> None:
    with Service(f"sqlite:///{tmp_path / 'bg.db'}") as svc:
        alice = svc.register("alice", "alice-pw").id
        svc.register("bob", "bob-pw")
        game = svc.begin_game(alice, 3, Color.WHITE, "bob")
        feed, unfollowed = ChangeFeed(svc.engine, interval=0.0), ChangeFeed(svc.engine, interval=0.0)
        try:
            feed.follow(game.id)  # a board read it, before the feed's first look
            Sysop(svc).delete_player("bob", force=True)  # ... and then it ended
            after = svc.game(game.id)
            assert after.status == "abandoned" and after.version > game.version
            assert {c.game_id: c.version for c in feed.next()} == {game.id: after.version}
            assert unfollowed.next() == []  # as it was without follow: never told
            assert feed.next() == []  # told once
        finally:
            feed.close()
            unfollowed.close()
