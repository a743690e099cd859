//! The page, compiled into the binary: no CDN, no fonts or scripts from the
//! network, no JavaScript build step. The HTML carries the server's token in
//! a `<meta>` tag, so only a page this server served can submit.

use axum::{
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
};

/// The page's HTML; `{{TOKEN}}` is replaced with the server's token.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The page's styles.
pub const APP_CSS: &str = include_str!("../assets/app.css");

/// Only this origin's own files, no inline script, no framing.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The HTML with the token filled in.
pub fn index_html(token: &str) -> String {
    INDEX_HTML.replace("{{TOKEN}}", token)
}

/// A page asset with its content type and the page's security headers.
pub fn asset(body: String, content_type: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
