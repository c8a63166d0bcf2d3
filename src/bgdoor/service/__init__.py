"""The service layer: the only thing the UI and transports call."""

from bgdoor.service.core import Service
from bgdoor.service.passwords import handle_problem
from bgdoor.service.types import (
    BadHandle,
    BadPassword,
    GameChanged,
    GameLog,
    GameSummary,
    GameView,
    HandleTaken,
    IllegalAction,
    LastTurn,
    LoggedEvent,
    LoginFailed,
    MatchRating,
    NotFound,
    NotYourTurn,
    PlayerInfo,
    PlayerPage,
    Preferences,
    RankRow,
    ServiceError,
    StorageError,
    Unread,
)

__all__ = [
    "BadHandle", "BadPassword", "GameChanged", "GameLog", "GameSummary", "GameView", "HandleTaken", "IllegalAction", "LastTurn",
    "LoggedEvent", "LoginFailed", "MatchRating", "NotFound", "NotYourTurn", "PlayerInfo", "PlayerPage", "Preferences", "RankRow",
    "Service", "ServiceError", "StorageError", "Unread", "handle_problem",
]
