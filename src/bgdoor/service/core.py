"""The operations callers perform, each one transaction.

Contract for the UI and transports.  Every method either returns the values
of service.types or raises a ServiceError subclass; none returns ORM objects.
Methods that change a game take `version`, the GameView.version the caller
last saw, and raise GameChanged when the game has moved on since.
"""

from __future__ import annotations

from bgdoor.rules.dice import DiceSource
from bgdoor.rules.game import Color, Win
from bgdoor.service.types import GameSummary, GameView, LastTurn, PlayerInfo, PlayerPage, Preferences, RankRow


class Service:
    def __init__(self, url: str, dice: DiceSource | None = None) -> None:
        """Open (create or upgrade) the database at SQLAlchemy `url`."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # ---- players
    def register(self, handle: str, password: str) -> PlayerInfo:
        raise NotImplementedError

    def login(self, handle: str, password: str) -> PlayerInfo:
        raise NotImplementedError

    def handle_exists(self, handle: str) -> bool:
        raise NotImplementedError

    def enter_from_door(self, alias: str) -> PlayerInfo:
        """A BBS caller; created on first visit. Refuses a handle that has a password (HandleTaken)."""
        raise NotImplementedError

    def player(self, player_id: int) -> PlayerInfo:
        raise NotImplementedError

    def set_preferences(self, player_id: int, prefs: Preferences) -> PlayerInfo:
        raise NotImplementedError

    # ---- games
    def begin_game(self, player_id: int, length: int, color: Color | None = None, opponent: str | None = None) -> GameView:
        """color None: random. opponent None: an open seat; a handle; or a bot player's handle."""
        raise NotImplementedError

    def join_game(self, player_id: int, game_id: int) -> GameView:
        raise NotImplementedError

    def game(self, game_id: int, viewer_id: int | None = None) -> GameView:
        raise NotImplementedError

    def game_version(self, game_id: int) -> int:
        """Cheap, for polling: changes whenever the game does."""
        raise NotImplementedError

    def games_in_progress(self, limit: int = 50) -> list[GameSummary]:
        """Active and open games, most recent first."""
        raise NotImplementedError

    def open_games(self, player_id: int | None = None) -> list[GameSummary]:
        """Games with a free seat (not begun by player_id)."""
        raise NotImplementedError

    def my_turn_games(self, player_id: int) -> list[GameSummary]:
        raise NotImplementedError

    def my_games(self, player_id: int) -> list[GameSummary]:
        """All unfinished games the player sits in."""
        raise NotImplementedError

    def roll(self, player_id: int, game_id: int, version: int) -> GameView:
        """Roll the dice (the opening roll too). The dice are committed before they are returned."""
        raise NotImplementedError

    def submit_turn(self, player_id: int, game_id: int, version: int, play: str) -> GameView:
        """A whole turn, as notation or a resulting Position ID; "" passes a turn with no legal play."""
        raise NotImplementedError

    def double(self, player_id: int, game_id: int, version: int) -> GameView:
        raise NotImplementedError

    def take(self, player_id: int, game_id: int, version: int) -> GameView:
        raise NotImplementedError

    def drop(self, player_id: int, game_id: int, version: int) -> GameView:
        raise NotImplementedError

    def resign(self, player_id: int, game_id: int, version: int, win: Win = Win.SINGLE) -> GameView:
        raise NotImplementedError

    def answer_resign(self, player_id: int, game_id: int, version: int, accept: bool) -> GameView:
        raise NotImplementedError

    def last_turn(self, game_id: int, viewer_id: int | None = None) -> LastTurn | None:
        """The last turn played by the viewer's opponent (or by anyone, for a watcher)."""
        raise NotImplementedError

    def forfeit_stale(self, days: float) -> list[int]:
        """Forfeit games whose player to act has not acted for `days`; returns their ids."""
        raise NotImplementedError

    # ---- rankings
    def rankings(self, limit: int = 20) -> list[RankRow]:
        raise NotImplementedError

    def player_page(self, handle: str) -> PlayerPage:
        raise NotImplementedError
