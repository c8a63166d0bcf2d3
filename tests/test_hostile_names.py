"""Hostile names and strings where they reach the database and every list.

- An SQL-injection battery over every text field a caller or sysop can hand the service
  (handle, password, door alias, BBS tag and alias, opponent, player page, preferences, a
  move, a rename): each is stored or refused as the plain text it is; nothing else changes.
- Confusable and control-character names, entered through the door, in the bulletin, the .mat
  export, the sysop's lists, the rankings and the game lists: no control character anywhere,
  and no two players shown alike.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from bgdoor.records.bulletin import render_bulletin
from bgdoor.records.mat import export_mat
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color
from bgdoor.service import Preferences, Service, ServiceError
from bgdoor.service.sysop import Sysop
from bgdoor.store import handles
from bgdoor.store.models import Game, GameEvent, Player

INJECTIONS = [
    "'; DROP TABLE players; --",
    "x' OR '1'='1",
    '" OR 1=1 --',
    "Robert'); DROP TABLE games;--",
    "' UNION SELECT password_hash FROM players --",
    "%",
    "_",
    "a%b_c",
    "\\",
    "\\'; --",
    "1; DELETE FROM events",
    "$$; DROP TABLE players; $$",
    "\u02bc OR 1=1",  # a modifier-letter apostrophe
    "' OR handle_key LIKE '%",
]


def counts(svc: Service) -> tuple[int, int, int]:
    with Session(svc.engine) as s:
        return (
            s.scalar(select(func.count()).select_from(Player)) or 0,
            s.scalar(select(func.count()).select_from(Game)) or 0,
            s.scalar(select(func.count()).select_from(GameEvent)) or 0,
        )


@pytest.fixture
def svc(db_url: str) -> Iterator[Service]:
    with Service(db_url, dice=ScriptedDice([3, 1] * 50)) as service:
        yield service


def test_sql_injection_battery_over_every_field(svc: Service) -> None:
    alice = svc.register("alice", "alice-pw")
    bob = svc.enter_from_door("bob")
    game = svc.begin_game(alice.id, 3, Color.WHITE, opponent="bob")
    game = svc.roll(alice.id, game.id, game.version)
    before = counts(svc)
    tried = 0
    made = 0
    for text in INJECTIONS:
        # Refused or stored as itself: either way the tables are as they were, plus what was made.
        for attempt in (
            lambda t=text: svc.register(t[:16], "pw-" + t),
            lambda t=text: svc.login(t, t),
            lambda t=text: svc.login("alice", t),
            lambda t=text: svc.handle_exists(t),
            lambda t=text: svc.new_handle_problem(t),
            lambda t=text: svc.player_page(t),
            lambda t=text: svc.begin_game(alice.id, 1, Color.WHITE, opponent=t),
            lambda t=text: svc.submit_turn(alice.id, game.id, game.version, t),
            lambda t=text: svc.set_preferences(bob.id, Preferences(theme=t[:32], charset=t[:16])),
            lambda t=text: Sysop(svc).rename("bob", t[:16], dry_run=True),
        ):
            tried += 1
            try:
                attempt()
            except ServiceError:
                pass
        door = svc.enter_from_door(text)
        assert door.login_name == text and svc.enter_from_door(text).id == door.id
        remote = svc.enter_from_bbs("EVIL'--", text)
        assert (remote.bbs_tag, remote.login_name) == ("EVIL'--", text) and remote.id != door.id
        made += 2
    players, games, events = counts(svc)
    with Session(svc.engine) as s:
        registered = s.scalar(select(func.count()).select_from(Player).where(Player.password_hash.is_not(None))) or 0
    # Only the door and BBS players, and the registrations that passed the handle rule, are new.
    assert players == before[0] + made + (registered - 1)
    assert events == before[2]
    # A new game only where the string named a player that exists (as a handle, exactly).
    for g in svc.my_games(alice.id):
        if g.id != game.id:
            assert g.black in INJECTIONS or (g.black or "")[:16] in [t[:16] for t in INJECTIONS], g
    assert games - before[1] == len(svc.my_games(alice.id)) - 1
    assert svc.login("alice", "alice-pw").id == alice.id  # nothing was overwritten
    assert not svc.handle_exists("%") or svc.player_page("%").player.handle == "%"  # LIKE wildcards are plain text
    assert svc.game(game.id).state.dice == (3, 1)
    print(f"\n{len(INJECTIONS)} injection strings over {tried // len(INJECTIONS) + 2} fields: {tried + made} calls")


HOSTILE_ALIASES = [
    "\x1b[2J\x1b[31mEvil",
    "\u0430lice",  # Cyrillic a
    "alice",
    "aIice",  # a capital I for the l (ALICE is alice herself: a BBS's names go without regard to case)
    "al\u0131ce",
    "\uff41lice",
    "alice\u0301",
    "Bob\x07\x07",
    "Bob\x08\x08\x08",
    "Bob\x7f",
    "\u202eevil",  # right-to-left override
    "zero\u200bwidth",
    "\x9b31mC1",
    "Gammon Joe",
    "G\u0430mmon Joe",
]


def test_hostile_names_in_every_list_bulletin_and_export(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/names.db"
    with Service(url, dice=ScriptedDice([3, 1, 6, 5] * 200)) as svc:
        players = [svc.enter_from_door(a) for a in HOSTILE_ALIASES]
        shown = [p.handle for p in players]
        # Every one its own player, every handle drawable and unlike every other.
        assert len({p.id for p in players}) == len(HOSTILE_ALIASES)
        assert svc.enter_from_door("ALICE").id == players[HOSTILE_ALIASES.index("alice")].id
        assert all(handles.problem(h) is None for h in shown), shown
        assert len({handles.skeleton(h) for h in shown}) == len(shown), shown
        # Games between neighbours, with a roll and a turn in the first, for the export.
        for a, b in zip(players[::2], players[1::2], strict=False):
            svc.begin_game(a.id, 1, Color.WHITE, opponent=b.handle)
        first = svc.my_games(players[0].id)[0]
        view = svc.roll(players[0].id, first.id, first.version)
        view = svc.submit_turn(players[0].id, view.id, view.version, "8/5 6/5")
        sysop = Sysop(svc)
        texts: list[str] = []
        texts += [r.handle for r in sysop.players()]
        texts += [f"{g.white} {g.black} {g.turn}" for g in sysop.games()]
        texts += [r.handle for r in svc.rankings(50, include_unrated=True)]
        texts += [f"{g.white} {g.black} {g.turn}" for g in svc.games_in_progress()]
        texts += [f"{g.white} {g.black}" for g in svc.open_games()]
        rows = svc.rankings(50, include_unrated=True)
        for charset in ("cp437", "utf8", "ascii"):
            data = render_bulletin(rows, charset, generated_at=datetime(2026, 1, 1, tzinfo=UTC))
            shown_text = data.decode("utf-8" if charset == "utf8" else "cp437")
            plain = shown_text.replace("\x1b[", "")  # the bulletin's own colours (CSI ... m) only
            assert not any(c in plain for c in ("\x07", "\x08", "\x7f", "\x9b", "\u202e", "\u200b")), charset
            texts.append(plain)
        match = sysop.match_record(first.id)
        mat = export_mat(match.white, match.black, match.length, match.events, date=match.created, notes=match.notes)
        texts.append(mat)
        for text in texts:
            bad = [c for c in str(text) if (not c.isprintable() and c not in "\r\n\x1b") or c in "\u202e\u200b"]
            assert not bad, (text, bad)
        print(f"\n{len(HOSTILE_ALIASES)} hostile aliases shown as {shown}")
