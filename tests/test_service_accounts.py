"""Players: handles, passwords, door and bot players, preferences."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from bgdoor.service import (
    BadHandle,
    BadPassword,
    HandleTaken,
    LoginFailed,
    NotFound,
    Preferences,
    Service,
)
from bgdoor.service.passwords import check_password, hash_password
from bgdoor.store import handles
from bgdoor.store.models import Player


@pytest.fixture
def svc(db_url):
    with Service(db_url) as service:
        yield service


def test_register_and_login_without_regard_to_case(svc):
    alice = svc.register("Alice", "s3cret")
    assert alice.handle == "Alice" and alice.has_password and not alice.is_bot
    assert alice.rating == 1500 and alice.experience == 0
    assert svc.login("aLiCe", "s3cret").id == alice.id
    assert svc.handle_exists("ALICE") and not svc.handle_exists("Bob")
    with pytest.raises(HandleTaken):
        svc.register("ALICE", "other1")
    # A BBS caller called alice is another person: their own player, told so, never merged.
    door = svc.enter_from_door("alice")
    assert door.id != alice.id and door.handle == "alice~2" and "Alice" in door.handle_note


@pytest.mark.parametrize(
    "handle", ["a", "x" * 17, " ann", "ann ", "an\x1b[2Jn", "tab\there", "bell\x07", "", "nul\x00"]
)
def test_bad_handles_are_refused(svc, handle):
    with pytest.raises(BadHandle):
        svc.register(handle, "s3cret")
    with pytest.raises(BadHandle):
        svc.ensure_bot_player(handle)
    # A BBS alias is not refused for its form: the caller gets a handle made from it, and is told.
    if handle and "\x00" not in handle:
        try:
            info = svc.enter_from_door(handle)
        except BadHandle as err:
            assert "sysop" in str(err)  # nothing drawable is left of it
        else:
            assert handles.problem(info.handle) is None and info.login_name == handle


@pytest.mark.parametrize("handle", ["Al", "x" * 16, "Mr. T", "Zoë", "dr/who"])
def test_good_handles(svc, handle):
    assert svc.enter_from_door(handle).handle == handle


def test_bad_passwords_are_refused(svc):
    for password in ["", "abc", "x" * 129, "tab\tbed"]:
        with pytest.raises(BadPassword):
            svc.register("Carol", password)
    assert issubclass(BadPassword, BadHandle)
    assert not svc.handle_exists("Carol")


def test_wrong_password_and_unknown_handle_fail_alike(svc):
    svc.register("Dave", "right one")
    with pytest.raises(LoginFailed) as wrong:
        svc.login("Dave", "wrong one")
    with pytest.raises(LoginFailed) as unknown:
        svc.login("Nobody", "whatever")
    assert str(wrong.value) == str(unknown.value)


def test_passwords_are_salted_slow_hashes(svc, db_url):
    svc.register("Erin", "same pass")
    svc.register("Fred", "same pass")
    with Session(svc.engine) as s:
        hashes = s.scalars(select(Player.password_hash).order_by(Player.id)).all()
    assert all(h.startswith("scrypt$") and "same pass" not in h for h in hashes)
    assert hashes[0] != hashes[1]
    assert check_password("same pass", hashes[0]) and not check_password("same pasS", hashes[0])
    assert not check_password("x", None) and not check_password("x", "garbage")
    assert check_password("pw", hash_password("pw"))


def test_door_players_have_no_password_and_cannot_log_in_by_telnet(svc):
    gus = svc.enter_from_door("  Gus  ")
    assert gus.handle == "Gus" and not gus.has_password and gus.handle_note == ""
    assert svc.enter_from_door("  Gus  ").id == gus.id
    assert svc.enter_from_door("GUS").id != gus.id  # the alias exactly: another caller
    with pytest.raises(LoginFailed, match="BBS door"):
        svc.login("gus", "")
    with pytest.raises(HandleTaken, match="taken"):
        svc.register("Gus", "takeover")


def test_a_password_handle_cannot_be_taken_over_through_the_door(svc):
    hank = svc.register("Hank", "hankpass")
    door = svc.enter_from_door("hank")
    assert door.id != hank.id and door.handle == "hank~2" and not door.has_password
    assert svc.login("Hank", "hankpass").id == hank.id


def test_bot_players(svc):
    bot = svc.ensure_bot_player("GNU Easy")
    assert bot.is_bot and not bot.has_password and bot.rating == 1500
    assert svc.ensure_bot_player("gnu easy").id == bot.id
    assert svc.enter_from_door("GNU Easy").id != bot.id
    with pytest.raises(LoginFailed, match="computer"):
        svc.login("GNU Easy", "anything")
    svc.register("Ivy", "ivypass")
    with pytest.raises(HandleTaken):
        svc.ensure_bot_player("Ivy")


def test_preferences_and_lookup(svc):
    jo = svc.enter_from_door("Jo")
    assert jo.preferences == Preferences()
    changed = svc.set_preferences(jo.id, Preferences(sound=False, theme="mono", charset="cp437"))
    assert changed.preferences == Preferences(sound=False, theme="mono", charset="cp437")
    assert svc.player(jo.id).preferences.charset == "cp437"
    with pytest.raises(NotFound):
        svc.player(9999)
    with pytest.raises(NotFound):
        svc.set_preferences(9999, Preferences())


def test_login_records_last_seen(db_url):
    times = iter(__import__("datetime").datetime(2030, 1, d, tzinfo=__import__("datetime").UTC) for d in range(1, 20))
    with Service(db_url, clock=lambda: next(times)) as svc:
        first = svc.register("Kim", "kimpass")
        again = svc.login("Kim", "kimpass")
        assert again.last_seen > first.last_seen and again.created == first.created
