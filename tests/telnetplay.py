"""Two telnet callers playing one match on a server subprocess.

The test reads the database itself (its own Service on the same file) to know
whose turn it is and which plays are legal; the callers act only through the
keys a person would press.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

from menus import begin, open_board
from rawtelnet import RawCaller, login

from bgdoor.rules.game import Color, Phase
from bgdoor.service import Service

PASSWORDS = {"alice": "alice-secret", "bob": "bob-secret"}


def shows_dice(dice: tuple[int, int]) -> Callable[[str], bool]:
    """The roller's screen shows these dice, the tumbling over."""
    want = f"Your turn {max(dice)}-{min(dice)}"  # the higher die first, as rolls are told
    return lambda text: want in text and "Rolling..." not in text


class Table:
    def __init__(self, url: str, seed: int = 1, length: int = 25) -> None:
        self.url = url
        self.db = Service(url)
        self.rng = random.Random(seed)
        self.length = length
        self.game_id = 0
        self.callers: dict[str, RawCaller] = {}
        self.colors = {Color.WHITE: "alice", Color.BLACK: "bob"}

    def close(self) -> None:
        self.hang_up()
        self.db.close()

    def hang_up(self) -> None:
        for c in self.callers.values():
            c.close()
        self.callers.clear()

    def caller(self, color: Color) -> RawCaller:
        return self.callers[self.colors[color]]

    async def seat(self, port: int) -> None:
        """Register both players; alice begins a match against bob; both reach the board."""
        bob = self.callers["bob"] = await RawCaller.connect(port)
        await login(bob, "bob", PASSWORDS["bob"], new=True)
        alice = self.callers["alice"] = await RawCaller.connect(port)
        await login(alice, "alice", PASSWORDS["alice"], new=True)
        await begin(alice, self.length, opponent="bob")
        await alice.wait_for("roll for who starts")
        self.game_id = self.db.games_in_progress()[0].id
        await self.to_board(bob)

    async def to_board(self, caller: RawCaller) -> None:
        # The board itself: the game list before it says "Score" too, and news may come first.
        await open_board(caller)

    async def rejoin(self, port: int) -> None:
        """After a restart: both call again, log in and open the game."""
        self.hang_up()
        for name in ("alice", "bob"):
            c = self.callers[name] = await RawCaller.connect(port)
            await login(c, name, PASSWORDS[name], new=False)
            await self.to_board(c)

    async def wait_version(self, above: int, timeout: float = 30.0) -> int:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            v = self.db.game_version(self.game_id)
            if v > above:
                return v
            await asyncio.sleep(0.02)
        raise AssertionError(f"game {self.game_id} stayed at version {above}")

    def choose(self) -> str:
        """A legal play for the dice now showing, as notation ('' when there is one or none)."""
        plays = self.db.game(self.game_id).state.plays()
        return str(self.rng.choice(plays)) if len(plays) > 1 else ""

    async def send_play(self, caller: RawCaller, play: str) -> None:
        if play:
            caller.send("M")
            await caller.wait_for("Your play")
            caller.send(play + "\r")
        else:
            caller.send("\r")  # Enter commits the only play, or passes

    async def step(self) -> tuple[str, tuple[int, int] | None]:
        """One action by whoever must act; returns (what, dice shown after a roll)."""
        view = self.db.game(self.game_id)
        st = view.state
        if st.phase is Phase.OPENING:
            caller = self.callers["alice"]
            caller.send("P")
            await self.wait_version(view.version)
            return "opening", None
        if st.phase is Phase.ROLL:
            assert st.actor is not None
            caller = self.caller(st.actor)
            caller.send("P")
            await self.wait_version(view.version)
            dice = self.db.game(self.game_id).state.dice
            assert dice is not None
            await caller.wait_until(shows_dice(dice), f"the dice {dice}")
            return "roll", dice
        if st.phase is Phase.MOVE:
            assert st.actor is not None
            await self.send_play(self.caller(st.actor), self.choose())
            await self.wait_version(view.version)
            return "play", None
        raise AssertionError(f"nobody doubles or resigns here, yet the phase is {st.phase}")

    async def until_roll_phase(self, steps: int = 200) -> Color:
        """Play on until a player must roll; returns that player's colour."""
        for _ in range(steps):
            st = self.db.game(self.game_id).state
            if st.phase is Phase.ROLL and st.actor is not None:
                return st.actor
            await self.step()
        raise AssertionError("no roll phase came")
