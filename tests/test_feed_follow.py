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


def test_a_read_in_another_process_is_told_to_the_readers_followed(shared_db_url: str) -> None:
    """A board on the player's other node marked news read; the menu in this process went on
    listing it (a mark moves no game's version, so the feed had nothing to tell)."""
    with Service(shared_db_url) as svc:
        alice = svc.register("alice", "alice-pw").id
        bob = svc.register("bob", "bob-pw").id
        game = svc.begin_game(alice, 3, Color.WHITE, "bob")
        svc.roll(alice, game.id, game.version)
        feed = ChangeFeed(svc.engine, interval=0.01)
        try:
            feed.follow_reads(alice)  # a menu of alice's watches
            feed.next()
            feed.next()  # what was there before is known: no news
            with Service(shared_db_url) as other:  # her other node
                other.mark_read(alice, game.id, 10**6)
                other.mark_read(bob, game.id, 10**6)  # bob's: nobody here follows his
            reads = []
            for _ in range(100):  # PostgreSQL's NOTIFY comes when it comes
                reads += [c for c in feed.next() if c.read]
                if reads:
                    break
            assert [c.players for c in reads] == [(alice,)], reads
            assert not any(c.read for _ in range(5) for c in feed.next())  # told once
            # A menu stops watching between keys: a read then is told when it watches again.
            feed.unfollow_reads(alice)
            game2 = svc.begin_game(bob, 3, Color.WHITE, "alice")
            svc.roll(bob, game2.id, game2.version)
            feed.next()
            with Service(shared_db_url) as other:
                other.mark_read(alice, game2.id, 10**6)
            feed.next()
            feed.follow_reads(alice)
            reads = []
            for _ in range(100):
                reads += [c for c in feed.next() if c.read]
                if reads or not feed.postgres:
                    break
            if not feed.postgres:  # (PostgreSQL told it at once, followed or not: a wake to spare)
                assert [c.players for c in reads] == [(alice,)], reads
        finally:
            feed.close()
