"""The service layer: the only thing the UI and transports call.

Each name is imported `as` itself: that marks it exported, without a second list in __all__.
"""

from bgdoor.service.core import (
    MAX_BBS_ALIAS as MAX_BBS_ALIAS,
    NAME_LIMIT as NAME_LIMIT,
    Service as Service,
)
from bgdoor.service.passwords import (
    HANDLE_LEAST as HANDLE_LEAST,
    HANDLE_LIMIT as HANDLE_LIMIT,
    handle_problem as handle_problem,
    tidy_handle as tidy_handle,
)
from bgdoor.service.types import (
    AccountClosed as AccountClosed,
    BadHandle as BadHandle,
    BadPassword as BadPassword,
    BBSSuspended as BBSSuspended,
    Draft as Draft,
    GameChanged as GameChanged,
    GameLog as GameLog,
    GameNotice as GameNotice,
    GameSummary as GameSummary,
    GameView as GameView,
    HandleTaken as HandleTaken,
    IllegalAction as IllegalAction,
    LastTurn as LastTurn,
    LoggedEvent as LoggedEvent,
    LoginFailed as LoginFailed,
    MatchRating as MatchRating,
    NotFound as NotFound,
    NotYourTurn as NotYourTurn,
    OnlineRow as OnlineRow,
    PlayerInfo as PlayerInfo,
    PlayerPage as PlayerPage,
    Preferences as Preferences,
    RankRow as RankRow,
    ServiceError as ServiceError,
    StorageError as StorageError,
    TurnNote as TurnNote,
    Unread as Unread,
)
