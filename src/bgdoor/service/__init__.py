"""The service layer: the only thing the UI and transports call."""

from bgdoor.service.core import Service
from bgdoor.service.types import (
    BadHandle,
    BadPassword,
    GameChanged,
    GameSummary,
    GameView,
    HandleTaken,
    IllegalAction,
    LastTurn,
    LoginFailed,
    NotFound,
    NotYourTurn,
    PlayerInfo,
    PlayerPage,
    Preferences,
    RankRow,
    ServiceError,
    StorageError,
)

__all__ = [
    "BadHandle", "BadPassword", "GameChanged", "GameSummary", "GameView", "HandleTaken", "IllegalAction", "LastTurn",
    "LoginFailed", "NotFound", "NotYourTurn", "PlayerInfo", "PlayerPage", "Preferences", "RankRow",
    "Service", "ServiceError", "StorageError",
]
