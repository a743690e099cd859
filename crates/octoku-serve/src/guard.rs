//! The server's security rules, applied to every request before a handler:
//!
//! - the `Host` header must name the bound host or a loopback name, with the
//!   bound port (else 403): a page on another origin that rebinds its DNS
//!   name to 127.0.0.1 cannot reach the API;
//! - a request that changes state (`POST /api/submit`) must carry the
//!   per-server token in `X-Octoku-Token` (else 403); only the served page
//!   holds it, and no CORS header lets another origin read it;
//! - a body announced above [`MAX_BODY`](crate::MAX_BODY) is refused with
//!   413 before it is read (bodies without a length are cut there too).

use std::net::SocketAddr;

use axum::{
    extract::{Request, State},
    http::{HeaderMap, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

use crate::{MAX_BODY, ServeError, api::ApiError};

/// Header carrying the per-server token.
pub const TOKEN_HEADER: &str = "x-octoku-token";

/// What the rules need to know: the accepted `Host` values and the token.
#[derive(Clone)]
pub struct Guard {
    hosts: Vec<String>,
    token: String,
}

impl std::fmt::Debug for Guard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guard")
            .field("hosts", &self.hosts)
            .finish_non_exhaustive()
    }
}

impl Guard {
    /// Rules for a server bound to `addr` as `--host host`, with a fresh
    /// random token.
    pub fn new(host: &str, addr: SocketAddr) -> Result<Guard, ServeError> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)
            .map_err(|e| ServeError::Io(format!("cannot draw the server's token: {e}")))?;
        let token = octoku_core::hex::encode(bytes);
        Ok(Guard::with_token(host, addr, token))
    }

    /// Rules with a given token (tests).
    pub fn with_token(host: &str, addr: SocketAddr, token: String) -> Guard {
        let port = addr.port();
        let ip = match addr.ip() {
            std::net::IpAddr::V6(v6) => format!("[{v6}]"),
            v4 => v4.to_string(),
        };
        let mut names = vec![
            ip,
            host.trim().to_ascii_lowercase(),
            "localhost".to_string(),
            "127.0.0.1".to_string(),
            "[::1]".to_string(),
        ];
        names.sort();
        names.dedup();
        let hosts = names.iter().map(|n| format!("{n}:{port}")).collect();
        Guard { hosts, token }
    }

    /// The token the page carries.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether `Host: value` names this server.
    pub fn host_allowed(&self, value: &str) -> bool {
        let value = value.trim().to_ascii_lowercase();
        self.hosts.contains(&value)
    }

    fn token_ok(&self, headers: &HeaderMap) -> bool {
        let Some(given) = headers.get(TOKEN_HEADER).map(|v| v.as_bytes()) else {
            return false;
        };
        let want = self.token.as_bytes();
        // Compared in time independent of where the first difference is.
        given.len() == want.len()
            && given
                .iter()
                .zip(want)
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }
}

/// Whether the request changes state on the chain.
fn changes_state(method: &Method, path: &str) -> bool {
    method == Method::POST && path == "/api/submit"
}

/// The middleware enforcing the rules above.
pub async fn enforce(State(guard): State<Guard>, request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !guard.host_allowed(host) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            format!("Host {host:?} is not this server's; open the URL octoku serve printed"),
        )
        .into_response();
    }
    if changes_state(request.method(), request.uri().path()) && !guard.token_ok(request.headers()) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "missing or wrong X-Octoku-Token: submitting is allowed only from the page this server serves",
        )
        .into_response();
    }
    let announced = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > MAX_BODY as u64) {
        return ApiError::too_large().into_response();
    }
    next.run(request).await
}
