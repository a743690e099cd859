//! Hostile JSON-RPC nodes on loopback: the test kit's [`LoopbackServer`],
//! one thread per connection, stopped (listener and connections) when the
//! guard drops.

use std::{
    io::{BufRead, BufReader, Read, Write},
    net::TcpStream,
    sync::atomic::{AtomicBool, Ordering},
    thread,
    time::Duration,
};

use octoku_testkit::LoopbackServer;

/// How the node answers.
#[derive(Clone, Copy, Debug)]
pub enum Behaviour {
    /// Accepts, reads, never answers.
    Silent,
    /// Answers 200 and streams a body that never ends.
    EndlessBody,
    /// Answers a JSON-RPC error whose message is 100 KB, escapes included.
    HugeErrorWithEscapes,
    /// Answers HTTP 501 with an HTML page.
    Html501,
    /// Answers `eth_chainId` (31337), and every other call with an error.
    ChainIdOnly,
}

/// A fake node; dropping it stops it.
pub struct FakeNode(LoopbackServer);

impl FakeNode {
    /// Starts a node with `behaviour` on a free loopback port.
    pub fn start(behaviour: Behaviour) -> FakeNode {
        let server = LoopbackServer::start(move |stream, stop| {
            let _ = serve(stream, behaviour, stop);
        });
        FakeNode(server.expect("a loopback port"))
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.0.port())
    }
}

/// Reads one HTTP request: its body parsed as JSON (the JSON-RPC id is in it).
fn read_request(stream: &TcpStream) -> std::io::Result<serde_json::Value> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut length = 0;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    Ok(serde_json::from_slice(&body).unwrap_or_default())
}

fn respond(mut stream: &TcpStream, status: &str, kind: &str, body: &str) -> std::io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
}

fn serve(stream: TcpStream, behaviour: Behaviour, stop: &AtomicBool) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_millis(200)))?;
    let idle = || {
        while !stop.load(Ordering::Relaxed) {
            thread::sleep(Duration::from_millis(20));
        }
    };
    match behaviour {
        Behaviour::Silent => idle(),
        Behaviour::EndlessBody => {
            let _ = read_request(&stream);
            let mut s = &stream;
            s.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")?;
            let chunk = vec![b' '; 64 * 1024];
            while !stop.load(Ordering::Relaxed) {
                s.write_all(&chunk)?;
            }
        }
        Behaviour::HugeErrorWithEscapes => {
            let request = read_request(&stream)?;
            let message = format!("\u{1b}[2J\u{1b}[31m{}\n\r\u{7}", "A".repeat(100_000));
            let body = serde_json::json!({
                "jsonrpc": "2.0",
                "id": request["id"],
                "error": {"code": -32000, "message": message},
            });
            respond(&stream, "200 OK", "application/json", &body.to_string())?;
        }
        Behaviour::Html501 => {
            let _ = read_request(&stream);
            let page = "<html>\n<head><title>501 Not Implemented</title></head>\n<body>\n<center><h1>501 Not Implemented</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n".repeat(3);
            respond(&stream, "501 Not Implemented", "text/html", &page)?;
        }
        Behaviour::ChainIdOnly => {
            let request = read_request(&stream)?;
            let body = if request["method"] == "eth_chainId" {
                serde_json::json!({"jsonrpc": "2.0", "id": request["id"], "result": "0x7a69"})
            } else {
                serde_json::json!({"jsonrpc": "2.0", "id": request["id"],
                    "error": {"code": -32601, "message": "method not found"}})
            };
            respond(&stream, "200 OK", "application/json", &body.to_string())?;
        }
    }
    Ok(())
}
