//! The server's security rules, applied to every request before a handler:
//!
//! - the `Host` header must name the bound host or a loopback name, with the
//!   bound port (else 403): a page on another origin that rebinds its DNS
//!   name to 127.0.0.1 cannot reach the API;
//! - a request that changes state (`POST /api/submit`) must carry the
//!   per-server token in `X-Octoku-Token` (else 403); only the served page
//!   holds it, and no CORS header lets another origin read it;
//! - a body announced above [`MAX_BODY`] is refused with
//!   413 before it is read (bodies without a length are cut there too);
//!   a body that takes longer than the body timeout gets 408;
//! - bound to all addresses (`0.0.0.0`, `::`), any IP address of the
//!   machine with the bound port is accepted as `Host` too (an IP address
//!   cannot be rebound; names other than `localhost` still get 403).

use std::{net::SocketAddr, time::Duration};

use axum::{
    body::Body,
    extract::{Request, State},
    http::{HeaderMap, Method, StatusCode, header},
    middleware::Next,
    response::{IntoResponse, Response},
};

use http_body_util::BodyExt;

use crate::{MAX_BODY, ServeError, api_error::ApiError};

/// Header carrying the per-server token.
pub const TOKEN_HEADER: &str = "x-octoku-token";

/// What the rules need to know: the accepted `Host` values and the token.
#[derive(Clone)]
pub struct Guard {
    hosts: Vec<String>,
    /// Bound to all addresses: any IP address with this port is a name of
    /// this server (an IP is no DNS name to rebind).
    any_ip_port: Option<u16>,
    token: String,
    body_timeout: Duration,
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
        getrandom::fill(&mut bytes).map_err(ServeError::Token)?;
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
        Guard {
            hosts,
            any_ip_port: addr.ip().is_unspecified().then_some(port),
            token,
            body_timeout: crate::ServeLimits::default().body_timeout,
        }
    }

    /// The same rules with another limit on the time a request's body may take.
    pub fn with_body_timeout(mut self, timeout: Duration) -> Guard {
        self.body_timeout = timeout;
        self
    }

    /// The token the page carries.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// Whether `Host: value` names this server.
    pub fn host_allowed(&self, value: &str) -> bool {
        let value = value.trim().to_ascii_lowercase();
        self.hosts.contains(&value) || self.any_ip_allows(&value)
    }

    /// `IP:port` with this server's port, when bound to all addresses.
    fn any_ip_allows(&self, value: &str) -> bool {
        let Some(port) = self.any_ip_port else {
            return false;
        };
        let Some(host) = value.strip_suffix(&format!(":{port}")) else {
            return false;
        };
        let host = host
            .strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(host);
        host.parse::<std::net::IpAddr>().is_ok()
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
    // The body is read here, within the time limit and the size limit, so
    // a client that sends it a byte at a time holds no handler.
    let (parts, body) = request.into_parts();
    let limited = http_body_util::Limited::new(body, MAX_BODY);
    let bytes = match tokio::time::timeout(guard.body_timeout, limited.collect()).await {
        Ok(Ok(collected)) => collected.to_bytes(),
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            return ApiError::too_large().into_response();
        }
        Ok(Err(e)) => {
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("cannot read the request body: {e}"),
            )
            .into_response();
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body did not arrive within {} s",
                    guard.body_timeout.as_secs_f64()
                ),
            )
            .into_response();
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}
