"""A whole match between two telnet callers, to a win by bearing off.

The winner's final board shows all 15 of their checkers off; the loser, away for the winning play,
comes back and is told that play in notation and the result; a resigner is told the answer.
"""

from __future__ import annotations

import re

import pytest
from harness import running_server
from rawtelnet import RawCaller, login
from telnetplay import PASSWORDS, Table

from bgdoor.rules.game import Color, Phase

pytestmark = pytest.mark.timeout(600)


def off_counts(text: str) -> list[int]:
    """The 'Off N' figures of the board's side panel."""
    return [int(n) for n in re.findall(r"Off (\d+)", text)]


async def test_whole_match_to_a_bear_off_and_the_loser_comes_back(tmp_path):
    url = f"sqlite:///{tmp_path / 'match.db'}"
    async with running_server(url) as server:
        table = Table(url, seed=7, length=1)
        try:
            await table.seat(server.port)
            alice, bob = table.callers["alice"], table.callers["bob"]
            await bob.wait_for("?)help")  # bob's board is up, not only the list

            # The opening roll: both are told who won it, and with which dice.
            alice.send("P")
            await table.wait_version(table.db.game_version(table.game_id))
            st = table.db.game(table.game_id).state
            first = table.colors[st.turn]
            # Told to its winner as "You start", to the other with the winner's name.
            dice = f"with {st.dice[0]}-{st.dice[1]}"
            await alice.wait_for(f"{'You start' if first == 'alice' else first + ' starts'} {dice}")
            await bob.wait_words(f"{'You start' if first == 'bob' else first + ' starts'} {dice}")

            # A resigner is told the answer: the one who waits offers, the other refuses.
            waiter = table.caller(st.turn.other)
            mover = table.caller(st.turn)
            waiter.send("G")
            await waiter.wait_for("Give up: a single game")
            waiter.send("1")
            await mover.wait_for("A)ccept")
            mover.send("N")
            await waiter.wait_words("refuses the resignation; play goes on.")

            # Play on until the winning play is due; the loser hangs up before it.
            final: tuple[Color, str, tuple[int, int]] | None = None
            for _ in range(2000):
                view = table.db.game(table.game_id)
                st = view.state
                if st.over:
                    break
                if st.phase is Phase.MOVE and st.dice is not None and st.turn is not None:
                    plays = st.plays()
                    play = table.rng.choice(plays) if len(plays) > 1 else (plays[0] if plays else None)
                    if play is not None and play.position.opponent_off == 15:
                        loser = table.colors[st.turn.other]
                        table.callers.pop(loser).close()
                        final = (st.turn, str(play), st.dice)
                        await table.send_play(table.caller(st.turn), str(play) if len(plays) > 1 else "")
                        await table.wait_version(view.version)
                        break
                    typed = str(play) if play is not None and len(plays) > 1 else ""
                    await table.send_play(table.caller(st.turn), typed)
                    await table.wait_version(view.version)
                    continue
                await table.step()
            assert final is not None, "the match did not end in a bear-off"
            winner_color, notation, dice = final
            state = table.db.game(table.game_id).state
            assert state.over and state.winner is winner_color
            winner_name, loser_name = table.colors[winner_color], table.colors[winner_color.other]

            # The winner's board: all 15 off, the result on the message line.
            winner = table.caller(winner_color)
            await winner.wait_words("and the match")
            assert 15 in off_counts(winner.text), winner.text
            assert "Ratings:" in winner.text

            # The loser calls again later: the menu tells the winning play in notation and the result.
            again = await RawCaller.connect(server.port)
            table.callers[loser_name] = again
            await login(again, loser_name, PASSWORDS[loser_name], new=False)
            # The whole menu, not just its first bytes: the news lines come last, and wrap.
            told = (f"{winner_name} rolled {max(dice)}-{min(dice)} and played {notation}.", f"{winner_name} wins a",
                    "and the match ")
            await again.wait_until(
                lambda t: all(n in " ".join(t.split()) for n in told), "the winning play and the result in the news"
            )
            # N: all the news on a page; then it is read.
            again.send("N")
            await again.wait_until(
                lambda t: "News from your games" in t and f"and played {notation}" in " ".join(t.split()),
                "the news page",
            )
            again.send("Q")
            await again.wait_for("Your choice")
            await again.settle(0.3)
            assert "News" not in again.text  # read now: the menu lists it no more
            # The finished match in review: its last step shows the winner's 15 checkers off.
            again.send("M")
            await again.wait_for("Your finished matches")
            assert "* to act" not in again.text  # nobody is to act in a finished match
            again.send("1\r")
            await again.wait_for("Step ")
            assert 15 in off_counts(again.text), again.text
            again.send("Q")
            await again.wait_for("Your finished matches")
        finally:
            table.close()
