//! The compiled `verify`, run in revm on a few threads of its own: revm's
//! machine is not `Send`, so each thread keeps one (deployed on its first
//! job) and takes jobs from a shared queue.

use std::sync::{Arc, Mutex, mpsc};

use octoku_core::Board;
use octoku_evm::{Call, EvmError, Machine, Puzzle};
use tokio::sync::oneshot;

type Reply = oneshot::Sender<Result<Call<bool>, VerifierError>>;

/// Why the verifier gave no verdict.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifierError {
    /// No verifier thread is taking jobs.
    #[error("the in-memory EVM is not running")]
    NotRunning,
    /// The thread went away before answering.
    #[error("the in-memory EVM stopped during the call")]
    Stopped,
    /// The thread's machine could not be deployed.
    #[error("cannot start the in-memory EVM: {0}")]
    Start(#[source] EvmError),
    /// The call failed in the EVM.
    #[error("verify failed: {0}")]
    Verify(#[source] EvmError),
}

struct Job {
    puzzle: Puzzle,
    start: Board,
    solution: Board,
    reply: Reply,
}

/// A queue in front of `threads` machines; they stop when it is dropped.
#[derive(Clone)]
pub struct Verifier {
    queue: mpsc::Sender<Job>,
}

impl std::fmt::Debug for Verifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Verifier")
    }
}

impl Verifier {
    /// Starts `threads` verifier threads (at least one).
    pub fn new(threads: usize) -> Verifier {
        let (queue, jobs) = mpsc::channel::<Job>();
        let jobs = Arc::new(Mutex::new(jobs));
        for k in 0..threads.max(1) {
            let jobs = jobs.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("octoku-verify-{k}"))
                .spawn(move || work(&jobs));
            // A thread that cannot start leaves the others (or none: then
            // every verify answers that the EVM is unavailable).
            drop(spawned);
        }
        Verifier { queue }
    }

    /// `puzzle.verify(start, solution)` in revm: the verdict and its gas.
    pub async fn verify(
        &self,
        puzzle: Puzzle,
        start: Board,
        solution: Board,
    ) -> Result<Call<bool>, VerifierError> {
        let (reply, answer) = oneshot::channel();
        let job = Job {
            puzzle,
            start,
            solution,
            reply,
        };
        self.queue
            .send(job)
            .map_err(|_| VerifierError::NotRunning)?;
        answer.await.map_err(|_| VerifierError::Stopped)?
    }
}

fn work(jobs: &Mutex<mpsc::Receiver<Job>>) {
    let mut machine: Option<Machine> = None;
    loop {
        let job = {
            let queue = jobs.lock().unwrap_or_else(|p| p.into_inner());
            match queue.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        if machine.is_none() {
            match Machine::new() {
                Ok(m) => machine = Some(m),
                Err(e) => {
                    let _ = job.reply.send(Err(VerifierError::Start(e)));
                    continue;
                }
            }
        }
        let Some(m) = machine.as_mut() else { continue };
        let result = m
            .verify(job.puzzle, job.start, job.solution)
            .map_err(VerifierError::Verify);
        let _ = job.reply.send(result);
    }
}
