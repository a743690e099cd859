//! The error answers of the JSON API: a status and one line
//! (`{"error": ..., "revert": ...}`), shared by the routes ([`crate::api`])
//! and the security rules ([`crate::guard`]).

use axum::{
    Json,
    http::StatusCode,
    response::{IntoResponse, Response},
};
use octoku_chain::{ChainError, arena::IArena::IArenaErrors, curta};
use serde::{Deserialize, Serialize};

use crate::{MAX_BODY, backend::SubmitError};

/// An error answer: a status and one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    status: StatusCode,
    body: ErrorBody,
}

/// The JSON of an error answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// One line saying what is wrong and what was expected.
    pub error: String,
    /// The arena's or Curta's custom error by name (`AlreadySolved`,
    /// `WrongSolution`; `PuzzleAlreadySolved`, `IncorrectSolution`,
    /// `SubmissionClosed`, `InsufficientFunds` ...), on a revert or a refusal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revert: Option<String>,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                error: message.into(),
                revert: None,
            },
        }
    }

    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 413 for a body above [`MAX_BODY`].
    pub fn too_large() -> ApiError {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body too large: expected at most {MAX_BODY} bytes"),
        )
    }

    pub(crate) fn chain(e: ChainError) -> ApiError {
        let revert = match &e {
            ChainError::Reverted(r) => r
                .arena_error()
                .map(|a| {
                    match a {
                        IArenaErrors::AlreadySolved(_) => "AlreadySolved",
                        IArenaErrors::WrongSolution(_) => "WrongSolution",
                        IArenaErrors::PuzzleNotAContract(_) => "PuzzleNotAContract",
                    }
                    .to_string()
                })
                .or_else(|| {
                    // `PuzzleAlreadySolved(1)`: the name alone.
                    curta::error_name(r).and_then(|n| n.split('(').next().map(str::to_string))
                }),
            _ => None,
        };
        let status = if matches!(e, ChainError::Reverted(_)) {
            StatusCode::CONFLICT
        } else {
            StatusCode::BAD_GATEWAY
        };
        ApiError {
            status,
            body: ErrorBody {
                error: e.to_string(),
                revert,
            },
        }
    }

    pub(crate) fn submit(e: SubmitError) -> ApiError {
        match e {
            SubmitError::Refused(r) => ApiError {
                status: StatusCode::CONFLICT,
                body: ErrorBody {
                    error: format!("nothing sent: {r}"),
                    revert: Some(r.error_name().to_string()),
                },
            },
            SubmitError::Chain(e) => ApiError::chain(e),
        }
    }

    pub(crate) fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}
