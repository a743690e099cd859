//! Logs on stderr through `tracing`: nothing by default, `-v` octoku's own
//! steps, `-vv` also alloy's JSON-RPC requests, `-vvv` everything at trace.
//! Standard output stays the command's answer alone.

use tracing_subscriber::{filter::Targets, fmt, prelude::*};

/// Installs the stderr subscriber for `verbose` (the count of `-v`).
pub fn init(verbose: u8) {
    use tracing::level_filters::LevelFilter as L;
    let filter = match verbose {
        0 => Targets::new().with_default(L::OFF),
        1 => Targets::new()
            .with_target("octoku", L::DEBUG)
            .with_target("octoku_evm", L::DEBUG)
            .with_default(L::OFF),
        2 => Targets::new()
            .with_target("octoku", L::DEBUG)
            .with_target("octoku_evm", L::DEBUG)
            .with_target("alloy_rpc_client", L::TRACE)
            .with_target("alloy_transport_http", L::TRACE)
            .with_target("alloy_provider", L::DEBUG)
            .with_default(L::WARN),
        _ => Targets::new().with_default(L::TRACE),
    };
    let layer = fmt::layer()
        .with_writer(std::io::stderr)
        .with_target(true)
        .without_time();
    // A second init cannot happen; an error would only mean one exists.
    let _ = tracing_subscriber::registry()
        .with(layer.with_filter(filter))
        .try_init();
}
