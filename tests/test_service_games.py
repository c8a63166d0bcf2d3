"""Games through the service: seats, rolls, turns, the cube, resignation, forfeits, ratings, records."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase, Win
from bgdoor.rules.rating import rating_change
from bgdoor.service import GameChanged, IllegalAction, NotFound, NotYourTurn, Service
from bgdoor.service.core import derive
from bgdoor.store.models import Game, GameEvent, Player, RatingEntry


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def svc(db_url):
    with Service(db_url) as service:
        yield service


def players(svc: Service, *handles: str) -> list[int]:
    return [svc.enter_from_door(h).id for h in handles]


def events(svc: Service, game_id: int) -> list[GameEvent]:
    with Session(svc.engine) as s:
        return list(s.scalars(select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)))


def fingerprint(svc: Service, game_id: int) -> tuple:
    return svc.game_version(game_id), [(e.seq, e.type, e.payload) for e in events(svc, game_id)]


def check_record(svc: Service, game_id: int) -> None:
    """The cached state and last plays are exactly what replaying the events gives."""
    with Session(svc.engine) as s:
        g = s.get(Game, game_id)
        rows = list(s.scalars(select(GameEvent).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)))
    assert [r.seq for r in rows] == list(range(len(rows))) == list(range(g.event_count))
    state, last = derive(g.length, [r.payload for r in rows])
    assert svc.game(game_id).state == state
    assert g.last_play_white == last.get(Color.WHITE)
    assert g.last_play_black == last.get(Color.BLACK)


def step(svc: Service, game_id: int, ids: dict[Color, int], rng: random.Random) -> None:
    """One action by whoever must act, chosen at random."""
    view = svc.game(game_id)
    st = view.state
    who = ids[st.actor or Color.WHITE]
    if st.phase is Phase.OPENING:
        svc.roll(who, game_id, view.version)
    elif st.phase is Phase.ROLL:
        if st.can_double() and rng.random() < 0.1:
            svc.double(who, game_id, view.version)
        else:
            svc.roll(who, game_id, view.version)
    elif st.phase is Phase.MOVE:
        plays = st.plays()
        svc.submit_turn(who, game_id, view.version, str(rng.choice(plays)) if plays else "")
    elif st.phase is Phase.DOUBLED:
        (svc.take if rng.random() < 0.7 else svc.drop)(who, game_id, view.version)
    elif st.phase is Phase.RESIGNED:
        svc.answer_resign(who, game_id, view.version, rng.random() < 0.5)


def started(svc: Service, dice: list[int], length: int = 3) -> tuple[int, int, int]:
    """A game between two new players, white and black, after an opening roll of `dice`."""
    svc.dice = ScriptedDice(dice)
    w, b = players(svc, "White", "Black")
    view = svc.begin_game(w, length, Color.WHITE, "Black")
    svc.roll(w, view.id, view.version)
    return view.id, w, b


# ------------------------------------------------------------------- seats


def test_open_seat_is_joined(svc):
    ann, bea, cy = players(svc, "Ann", "Bea", "Cy")
    view = svc.begin_game(ann, 5, Color.BLACK)
    assert view.status == "open" and view.white is None and view.black == "Ann" and view.viewer_color is Color.BLACK
    assert [g.id for g in svc.open_games(bea)] == [view.id]
    assert svc.open_games(ann) == []
    assert [g.id for g in svc.my_games(ann)] == [view.id]
    with pytest.raises(IllegalAction):
        svc.join_game(ann, view.id)
    with pytest.raises(IllegalAction):
        svc.roll(ann, view.id, view.version)
    joined = svc.join_game(bea, view.id)
    assert joined.status == "active" and joined.white == "Bea" and joined.version == view.version + 1
    assert svc.open_games(cy) == []
    with pytest.raises(GameChanged):
        svc.join_game(cy, view.id)
    with pytest.raises(NotFound):
        svc.join_game(cy, 12345)
    summary = svc.games_in_progress()[0]
    assert (summary.white, summary.black, summary.status, summary.length, summary.score) == (
        "Bea",
        "Ann",
        "active",
        5,
        (0, 0),
    )


def test_begin_against_a_named_player_or_a_bot(svc):
    ann, bob = players(svc, "Ann", "Bob")
    bot = svc.ensure_bot_player("GNU Easy").id
    vs_bob = svc.begin_game(ann, 3, Color.WHITE, "BOB")
    assert vs_bob.status == "active" and vs_bob.black_id == bob and vs_bob.state.phase is Phase.OPENING
    vs_bot = svc.begin_game(ann, 1, None, "gnu easy")
    assert {vs_bot.white_id, vs_bot.black_id} == {ann, bot} and vs_bot.viewer_color is not None
    assert {g.id for g in svc.my_turn_games(bot)} == {vs_bot.id}  # the opening roll is either side's
    with pytest.raises(NotFound):
        svc.begin_game(ann, 3, None, "Nobody")
    with pytest.raises(IllegalAction):
        svc.begin_game(ann, 3, None, "ann")
    with pytest.raises(IllegalAction):
        svc.begin_game(ann, 0)
    with pytest.raises(NotFound):
        svc.begin_game(999, 3)


# ------------------------------------------------------------------- dice


def test_opening_ties_are_rolled_again_in_one_transaction(svc):
    w, b = players(svc, "Wes", "Bea")
    svc.dice = ScriptedDice([4, 4, 2, 2, 1, 6])
    view = svc.begin_game(w, 3, Color.WHITE, "Bea")
    assert {g.id for g in svc.my_turn_games(w)} == {g.id for g in svc.my_turn_games(b)} == {view.id}
    rolled = svc.roll(b, view.id, view.version)  # either player may make the opening roll
    assert rolled.version == view.version + 1
    assert [(e.type, e.payload.get("white"), e.payload.get("black"), e.player_id) for e in events(svc, view.id)] == [
        ("opening_roll", 4, 4, b),
        ("opening_roll", 2, 2, b),
        ("opening_roll", 1, 6, b),
    ]
    assert rolled.state.phase is Phase.MOVE and rolled.state.turn is Color.BLACK and rolled.state.dice == (6, 1)
    assert rolled.my_turn and svc.my_turn_games(w) == [] and [g.turn for g in svc.my_turn_games(b)] == ["Bea"]
    check_record(svc, view.id)


def test_dice_are_committed_before_they_are_shown(shared_db_url):
    first = Service(shared_db_url)
    gid, w, b = started(first, [5, 2, 3, 3])
    view = first.game(gid)
    first.submit_turn(w, gid, view.version, "13/8 13/11")
    rolled = first.roll(b, gid, view.version + 1)
    assert rolled.state.dice == (3, 3)
    first.close()  # the caller hangs up as soon as the dice are shown
    with Service(shared_db_url) as again:  # and calls back: a new connection, a new process as far as the store knows
        seen = again.game(gid, b)
        assert seen.state.dice == (3, 3) and seen.state.phase is Phase.MOVE and seen.version == rolled.version
        before = fingerprint(again, gid)
        with pytest.raises(IllegalAction, match="rolled"):
            again.roll(b, gid, seen.version)  # nothing re-rolls
        assert fingerprint(again, gid) == before
        assert again.game(gid).state.dice == (3, 3)


# ------------------------------------------------------------------- turns


def test_a_turn_by_notation_or_by_position_id(svc):
    gid, w, b = started(svc, [3, 1, 6, 4, 2, 1])
    view = svc.game(gid, w)
    assert view.my_turn and view.state.dice == (3, 1)
    after = svc.submit_turn(w, gid, view.version, "8/5 6/5")
    assert after.state.turn is Color.BLACK and after.state.phase is Phase.ROLL and not after.my_turn
    assert [g.turn for g in svc.my_turn_games(b)] == ["Black"]
    rolled = svc.roll(b, gid, after.version)
    target = next(p for p in rolled.state.plays() if str(p) == "24/14")
    moved = svc.submit_turn(b, gid, rolled.version, target.position.id)
    assert events(svc, gid)[-1].payload == {"type": "play", "notation": "24/14", "position": target.position.id}
    assert moved.state.position == target.position.swap().swap()
    check_record(svc, gid)


BAD_INPUT = {
    "unknown game": (NotFound, lambda svc, gid, w, b, v: svc.submit_turn(w, gid + 1000, v, "8/5 6/5")),
    "out of turn": (NotYourTurn, lambda svc, gid, w, b, v: svc.submit_turn(b, gid, v, "8/5 6/5")),
    "not seated": (
        NotYourTurn,
        lambda svc, gid, w, b, v: svc.submit_turn(svc.enter_from_door("Kibitz").id, gid, v, "8/5 6/5"),
    ),
    "illegal play": (IllegalAction, lambda svc, gid, w, b, v: svc.submit_turn(w, gid, v, "24/20 6/5")),
    "not a play": (IllegalAction, lambda svc, gid, w, b, v: svc.submit_turn(w, gid, v, "gibberish")),
    "no play given": (IllegalAction, lambda svc, gid, w, b, v: svc.submit_turn(w, gid, v, "")),
    "unreachable position": (IllegalAction, lambda svc, gid, w, b, v: svc.submit_turn(w, gid, v, "4HPwATDgc/ABMA")),
    "roll while moving": (IllegalAction, lambda svc, gid, w, b, v: svc.roll(w, gid, v)),
    "double while moving": (IllegalAction, lambda svc, gid, w, b, v: svc.double(w, gid, v)),
    "take without double": (NotYourTurn, lambda svc, gid, w, b, v: svc.take(b, gid, v)),
    "stale version": (GameChanged, lambda svc, gid, w, b, v: svc.submit_turn(w, gid, v - 1, "8/5 6/5")),
}


@pytest.mark.parametrize("case", BAD_INPUT)
def test_bad_input_leaves_the_game_unchanged(svc, case):
    error, act = BAD_INPUT[case]
    gid, w, b = started(svc, [3, 1])
    before = fingerprint(svc, gid)
    with pytest.raises(error) as raised:
        act(svc, gid, w, b, before[0])
    assert str(raised.value)  # a sentence for the player
    assert fingerprint(svc, gid) == before
    assert svc.submit_turn(w, gid, before[0], "8/5 6/5").version == before[0] + 1  # and the game goes on


def test_the_rules_reason_reaches_the_player(svc):
    gid, w, b = started(svc, [3, 1])
    with pytest.raises(IllegalAction) as raised:
        svc.submit_turn(w, gid, svc.game_version(gid), "24/20 6/5")
    assert "3-1" in str(raised.value) or "legal" in str(raised.value) or "move" in str(raised.value)


def test_a_finished_match_refuses_everything(svc):
    gid, w, b = started(svc, [3, 1], length=1)
    v = svc.resign(w, gid, svc.game_version(gid)).version
    done = svc.answer_resign(b, gid, v, True)
    assert done.status == "finished" and done.state.over and done.state.winner is Color.BLACK
    before = fingerprint(svc, gid)
    for act in (
        lambda: svc.roll(w, gid, done.version),
        lambda: svc.submit_turn(w, gid, done.version, "8/5 6/5"),
        lambda: svc.resign(b, gid, done.version),
        lambda: svc.double(w, gid, done.version),
    ):
        with pytest.raises(IllegalAction, match="over"):
            act()
    assert fingerprint(svc, gid) == before
    assert svc.my_games(w) == [] and svc.my_turn_games(b) == [] and svc.games_in_progress() == []


def test_only_the_player_on_roll_may_roll(svc):
    gid, w, b = started(svc, [3, 1, 6, 6])
    v = svc.submit_turn(w, gid, svc.game_version(gid), "8/5 6/5").version
    before = fingerprint(svc, gid)
    with pytest.raises(NotYourTurn):
        svc.roll(w, gid, v)
    with pytest.raises(NotYourTurn):
        svc.double(w, gid, v)
    assert fingerprint(svc, gid) == before
    assert svc.roll(b, gid, v).state.dice == (6, 6)


# ------------------------------------------------------------ cube, resign


def test_double_take_redouble_drop(svc):
    gid, w, b = started(svc, [3, 1, 6, 5, 2, 2], length=5)
    v = svc.submit_turn(w, gid, svc.game_version(gid), "8/5 6/5").version
    doubled = svc.double(b, gid, v)
    assert doubled.state.phase is Phase.DOUBLED and doubled.state.actor is Color.WHITE
    assert [g.id for g in svc.my_turn_games(w)] == [gid] and svc.my_turn_games(b) == []
    with pytest.raises(NotYourTurn):
        svc.take(b, gid, doubled.version)
    taken = svc.take(w, gid, doubled.version)
    assert taken.state.cube == 2 and taken.state.cube_owner is Color.WHITE and taken.state.actor is Color.BLACK
    v = svc.roll(b, gid, taken.version).version
    v = svc.submit_turn(b, gid, v, "24/18 13/8").version
    redoubled = svc.double(w, gid, v)
    dropped = svc.drop(b, gid, redoubled.version)
    assert dropped.state.score == (2, 0) and dropped.state.game == 2 and dropped.state.phase is Phase.OPENING
    summary = svc.my_games(w)[0]
    assert summary.score == (2, 0) and summary.turn is None
    with Session(svc.engine) as s:
        g = s.get(Game, gid)
        assert (g.score_white, g.score_black, g.cube, g.game_no, g.phase) == (2, 0, 1, 2, "opening")
    check_record(svc, gid)


def test_resignation_rejected_resumes_and_either_side_may_resign(svc):
    gid, w, b = started(svc, [3, 1], length=3)
    v = svc.game_version(gid)
    offered = svc.resign(b, gid, v, Win.GAMMON)  # black offers while white is to move
    assert offered.state.phase is Phase.RESIGNED and offered.state.actor is Color.WHITE
    with pytest.raises(NotYourTurn):
        svc.answer_resign(b, gid, offered.version, True)
    back = svc.answer_resign(w, gid, offered.version, False)
    assert back.state.phase is Phase.MOVE and back.state.dice == (3, 1)
    check_record(svc, gid)


# ---------------------------------------------------------------- ratings


def test_a_finished_match_is_rated(db_url):
    clock = Clock()
    with Service(db_url, clock=clock) as svc:
        gid, w, b = started(svc, [3, 1], length=1)
        v = svc.resign(b, gid, svc.game_version(gid), Win.GAMMON).version
        done = svc.answer_resign(w, gid, v, True)
        assert done.state.winner is Color.WHITE
        change = rating_change(1500, 1500, 1, 0, 0)
        winner, loser = svc.player(w), svc.player(b)
        assert winner.rating == pytest.approx(1500 + change.winner_gain) == pytest.approx(1510)
        assert loser.rating == pytest.approx(1500 - change.loser_loss)
        assert winner.experience == loser.experience == 1
        rows = svc.rankings()
        assert [(r.rank, r.handle, r.wins, r.losses, r.gammons) for r in rows] == [
            (1, "White", 1, 0, 1),
            (2, "Black", 0, 1, 0),
        ]
        assert rows[0].last_played == clock.now
        page = svc.player_page("white")
        assert (page.games, page.wins, page.losses, page.gammons, page.backgammons) == (1, 1, 0, 1, 0)
        # From the start rating, when the player began: one match is a step up, not a level line.
        assert page.rating_history == [(svc.player(w).created, 1500.0), (clock.now, pytest.approx(1510))]
        with pytest.raises(NotFound):
            svc.player_page("nobody")
        svc.enter_from_door("Newcomer")
        assert "Newcomer" not in [r.handle for r in svc.rankings()]
        assert "Newcomer" in [r.handle for r in svc.rankings(include_unrated=True)]


def test_each_player_rated_with_their_own_experience(db_url):
    with Service(db_url) as svc:
        gid, w, b = started(svc, [3, 1], length=3)
        with Session(svc.engine) as s:
            s.execute(update(Player).where(Player.id == w).values(experience=450, rating=1700.0))
            s.commit()
        v = svc.resign(w, gid, svc.game_version(gid), Win.BACKGAMMON).version
        svc.answer_resign(b, gid, v, True)
        change = rating_change(1500, 1700, 3, 0, 450)  # the underdog wins 3 points (cube 1, backgammon)
        assert svc.player(b).rating == pytest.approx(1500 + change.winner_gain)
        assert svc.player(w).rating == pytest.approx(1700 - change.loser_loss)
        assert change.loser_loss < change.winner_gain  # experienced: K 1, the newcomer: K 5
        assert (svc.player(w).experience, svc.player(b).experience) == (453, 3)
        with Session(svc.engine) as s:
            history = s.scalars(select(RatingEntry).order_by(RatingEntry.player_id)).all()
        assert [(h.player_id, h.won, h.game_id) for h in history] == [(w, False, gid), (b, True, gid)]
        assert svc.player_page("black").backgammons == 1


# -------------------------------------------------------- view last moves


def test_last_turn_is_the_opponents_play_with_its_single_moves(svc):
    gid, w, b = started(svc, [3, 1, 5, 5])
    assert svc.last_turn(gid, b) is None and svc.last_turn(gid) is None
    before = svc.game(gid).state
    v = svc.submit_turn(w, gid, svc.game_version(gid), "8/5 6/5").version
    last = svc.last_turn(gid, b)
    assert last.by is Color.WHITE and last.dice == (3, 1) and last.notation == "8/5 6/5"
    assert last.before == before
    assert sorted(last.moves) == sorted([(8, 5, False), (6, 5, False)])
    assert svc.last_turn(gid, w) is None  # black has not played yet
    v = svc.roll(b, gid, v).version
    svc.submit_turn(b, gid, v, "13/3(2)")
    watcher = svc.last_turn(gid)
    assert watcher.by is Color.BLACK and watcher.dice == (5, 5) and len(watcher.moves) == 4
    assert svc.last_turn(gid, w).notation == watcher.notation
    assert svc.last_turn(gid, b).notation == "8/5 6/5"
    with pytest.raises(NotFound):
        svc.last_turn(gid + 99)
    check_record(svc, gid)


# ---------------------------------------------------------------- forfeits


def test_stale_games_are_forfeited(db_url):
    clock = Clock()
    with Service(db_url, dice=ScriptedDice([3, 1]), clock=clock) as svc:
        w, b, c = players(svc, "Wes", "Bea", "Cy")
        idle = svc.begin_game(w, 5, Color.WHITE, "Bea")
        svc.roll(b, idle.id, idle.version)  # white to move, and does not
        opening = svc.begin_game(w, 3, Color.WHITE, "Cy")  # nobody in particular to act
        open_seat = svc.begin_game(c, 3)
        clock.now += timedelta(days=2)
        fresh = svc.begin_game(b, 3, Color.WHITE, "Cy")
        svc.dice = ScriptedDice([6, 1])
        svc.roll(c, fresh.id, fresh.version)
        assert svc.forfeit_stale(days=3) == []
        clock.now += timedelta(days=1, hours=1)
        before = fingerprint(svc, fresh.id)
        assert svc.forfeit_stale(days=3) == [idle.id]
        assert fingerprint(svc, fresh.id) == before
        gone = svc.game(idle.id)
        assert gone.status == "abandoned" and gone.state.winner is Color.BLACK and gone.state.score == (0, 5)
        assert [e.type for e in events(svc, idle.id)][-3:] == ["forfeit", "win", "match_won"]
        assert events(svc, idle.id)[-3].player_id is None
        assert svc.player(b).rating > 1500 > svc.player(w).rating
        assert {g.id for g in svc.games_in_progress()} == {opening.id, open_seat.id, fresh.id}
        assert svc.forfeit_stale(days=3) == []
        check_record(svc, idle.id)


# ----------------------------------------------------------- whole matches


def test_whole_matches_replay_to_the_cached_state(db_url):
    rng = random.Random(7)
    with Service(db_url, dice=ScriptedDice([rng.randint(1, 6) for _ in range(4000)])) as svc:
        w, b = players(svc, "Wendy", "Boris")
        ids = {Color.WHITE: w, Color.BLACK: b}
        gid = svc.begin_game(w, 3, Color.WHITE, "Boris").id
        steps = 0
        while svc.game(gid).status == "active":
            step(svc, gid, ids, rng)
            steps += 1
            if steps % 25 == 0:
                check_record(svc, gid)
        view = svc.game(gid)
        assert view.status == "finished" and view.state.over and max(view.state.score) >= 3
        assert view.version == steps + 1
        check_record(svc, gid)
        assert svc.player(w).experience == svc.player(b).experience == 3
