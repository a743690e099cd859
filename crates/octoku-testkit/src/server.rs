//! A small TCP server on a free loopback port, for tests that need a
//! stand-in on the other end of a socket (a hostile node, a static file
//! server).

use std::{
    net::{TcpListener, TcpStream},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    thread::{self, JoinHandle},
    time::Duration,
};

/// A server on `127.0.0.1` at a free port: one thread accepts, and each
/// connection runs `serve` on a thread of its own. Dropping the guard
/// stops accepting, raises the stop flag every `serve` is given (a
/// connection that idles should watch it), and joins every thread.
pub struct LoopbackServer {
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl LoopbackServer {
    /// Starts serving each connection with `serve(stream, stop)`.
    pub fn start(
        serve: impl Fn(TcpStream, &AtomicBool) + Send + Sync + 'static,
    ) -> crate::Result<LoopbackServer> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = stop.clone();
        let serve = Arc::new(serve);
        let thread = thread::spawn(move || {
            let mut connections = Vec::new();
            while !stopping.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        // Accepted sockets block, whatever the listener does.
                        let _ = stream.set_nonblocking(false);
                        let (serve, stop) = (serve.clone(), stopping.clone());
                        connections.push(thread::spawn(move || serve(stream, &stop)));
                    }
                    Err(_) => thread::sleep(Duration::from_millis(5)),
                }
            }
            for c in connections {
                let _ = c.join();
            }
        });
        Ok(LoopbackServer {
            port,
            stop,
            thread: Some(thread),
        })
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for LoopbackServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
