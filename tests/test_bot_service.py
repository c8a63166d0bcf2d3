"""The computer opponent through the service layer: a whole match against a scripted human."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from bgdoor.bot.runner import BotRunner
from bgdoor.rules.dice import ScriptedDice
from bgdoor.rules.game import Color, Phase, event_from_dict, replay
from bgdoor.rules.moves import legal_plays
from bgdoor.service import Service
from bgdoor.store.models import GameEvent

pytestmark = pytest.mark.timeout(240)


def test_whole_match_against_the_computer(tmp_path):
    rng = random.Random(5)
    svc = Service(f"sqlite:///{tmp_path}/bot.db", dice=ScriptedDice([rng.randint(1, 6) for _ in range(4000)]))
    runner = BotRunner(svc, seed=1)
    labels = dict((handle, label) for label, handle in runner.levels())
    assert "Intermediate Bot" in labels and "Beginner Bot" in labels
    human = svc.register("human", "human-pw")
    view = svc.begin_game(human.id, 3, Color.WHITE, opponent="Intermediate Bot")
    game_id = view.id
    bot_turns = 0
    for _ in range(2000):
        view = svc.game(game_id, human.id)
        st = view.state
        if st.over:
            break
        if st.actor is Color.WHITE or st.phase is Phase.OPENING:
            if st.phase in (Phase.OPENING, Phase.ROLL):
                svc.roll(human.id, game_id, view.version)
            elif st.phase is Phase.MOVE:
                plays = legal_plays(st.position, st.dice)
                svc.submit_turn(human.id, game_id, view.version, plays[0].position.id if plays else "")
            elif st.phase is Phase.DOUBLED:
                svc.take(human.id, game_id, view.version)
            elif st.phase is Phase.RESIGNED:
                svc.answer_resign(human.id, game_id, view.version, True)
        else:
            # The bot acts on every game where it is due, through the same service calls as a human.
            assert [view.id for view in runner.play_due()] == [game_id]
            bot_turns += 1
            last = svc.last_turn(game_id, human.id)
            if last is not None and last.by is Color.BLACK:
                assert last.moves or last.notation == ""  # View Last Moves can replay the bot's turn
    assert view.state.over and bot_turns > 10
    # The bot's turns are in the record like anyone's, and the record replays to the stored state.
    with svc.engine.connect() as conn:
        payloads = [
            row.payload
            for row in conn.execute(
                select(GameEvent.payload).where(GameEvent.game_id == game_id).order_by(GameEvent.seq)
            )
        ]
    assert replay(3, [event_from_dict(p) for p in payloads]) == svc.game(game_id).state
    rows = {r.handle: r for r in svc.rankings()}
    assert rows["Intermediate Bot"].wins + rows["Intermediate Bot"].losses == 1
    svc.close()


class _Announcer:
    def announce(self, view: object) -> None:
        pass


async def test_the_runner_stops_when_woken_as_it_is_stopped(tmp_path):
    """A change (a poke) in the same instant as the server's shutdown: 3.11's wait_for swallowed
    the cancel, the sweep loop went on, and stop() waited for ever (a server test hung 120 s)."""
    import asyncio  # noqa: PLC0415

    svc = Service(f"sqlite:///{tmp_path}/bot.db")
    try:
        for turns in range(4):
            runner = BotRunner(svc, seed=1)
            runner.start(_Announcer())
            await asyncio.sleep(0.3)  # the first sweep is done: the loop waits for a wake
            runner.poke(0)
            for _ in range(turns):
                await asyncio.sleep(0)
            await asyncio.wait_for(asyncio.shield(runner.stop()), 5)
    finally:
        svc.close()
