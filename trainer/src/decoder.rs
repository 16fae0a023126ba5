//! The decoder thread: one thread owns a [`Batcher`] and runs its token steps, taking
//! jobs from any thread between steps. Both users of the policy go through it: the
//! trainer's in-process [`crate::policy::LocalPolicy`] and `trainer serve`
//! ([`crate::server`]), so a served request is decoded together with every other active
//! one at the token step, with its own sampling settings and seed.
//!
//! A job is a list of requests (a reply's `n` completions) answered once all of them have
//! finished; a job may also ask for each token as it is sampled (streaming). New weights,
//! a statistics query and the scoring of a whole sequence (`Batcher::score`) are jobs
//! too, handled at the next step boundary.

use std::collections::HashMap;
use std::sync::mpsc;

use tch::Tensor;
use tokio::sync::{mpsc as tokio_mpsc, oneshot};

use crate::batching::{Batcher, BatcherStats, Output, Request, Scored};
use crate::{Error, Result};

/// A sampled token of a job: (the index of its request in the job, the token id).
pub type Streamed = (usize, i64);

enum Job {
    Generate {
        requests: Vec<Request>,
        tokens: Option<tokio_mpsc::UnboundedSender<Streamed>>,
        reply: oneshot::Sender<Result<Vec<Output>, String>>,
    },
    Weights {
        weights: Vec<(String, Tensor)>,
        version: u64,
        reply: mpsc::Sender<Result<(), String>>,
    },
    Stats {
        reply: oneshot::Sender<(BatcherStats, u64)>,
    },
    Score {
        ids: Vec<i64>,
        top_k: usize,
        reply: oneshot::Sender<Result<Scored, String>>,
    },
}

/// A handle to the decoder thread (it stops when every handle is dropped and its work is
/// done).
#[derive(Debug, Clone)]
pub struct Decoder {
    jobs: mpsc::Sender<Job>,
}

fn stopped() -> Error {
    Error::Decoder("the decoder thread stopped".to_owned())
}

impl Decoder {
    /// Starts the thread that owns `batcher`.
    pub fn spawn(batcher: Batcher) -> Decoder {
        let (jobs, queue) = mpsc::channel();
        std::thread::spawn(move || run(batcher, &queue));
        Decoder { jobs }
    }

    /// Decodes `requests` (each with its own sampling settings and seed) among whatever
    /// else is active; their outputs in the order given. With `tokens`, each token is also
    /// sent there as it is sampled.
    pub async fn generate(
        &self,
        requests: Vec<Request>,
        tokens: Option<tokio_mpsc::UnboundedSender<Streamed>>,
    ) -> Result<Vec<Output>> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Generate {
                requests,
                tokens,
                reply,
            })
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?.map_err(Error::Decoder)
    }

    /// Stages new weights as policy version `version` (applied as the batcher's
    /// `OnWeights` says); blocks until the thread has checked them.
    pub fn stage_weights(&self, weights: Vec<(String, Tensor)>, version: u64) -> Result<()> {
        let (reply, answer) = mpsc::channel();
        self.jobs
            .send(Job::Weights {
                weights,
                version,
                reply,
            })
            .map_err(|_| stopped())?;
        answer
            .recv()
            .map_err(|_| stopped())?
            .map_err(Error::Decoder)
    }

    /// Reads `ids` whole with the weights now sampling (`Batcher::score`), between two
    /// token steps.
    pub async fn score(&self, ids: Vec<i64>, top_k: usize) -> Result<Scored> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Score { ids, top_k, reply })
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?.map_err(Error::Decoder)
    }

    /// The batcher's statistics and the policy version now sampling.
    pub async fn stats(&self) -> Result<(BatcherStats, u64)> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Stats { reply })
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())
    }
}

/// A job waiting for its requests.
struct Pending {
    outputs: Vec<Option<Output>>,
    left: usize,
    tokens: Option<tokio_mpsc::UnboundedSender<Streamed>>,
    reply: oneshot::Sender<Result<Vec<Output>, String>>,
}

fn run(mut batcher: Batcher, queue: &mpsc::Receiver<Job>) {
    // Batcher request id -> (job, index of the request in the job).
    let mut owner: HashMap<u64, (u64, usize)> = HashMap::new();
    let mut pending: HashMap<u64, Pending> = HashMap::new();
    let mut next_job = 0u64;
    loop {
        // Idle: block for work. Busy: take what has arrived, then step.
        let job = if batcher.pending() == 0 {
            match queue.recv() {
                Ok(job) => Some(job),
                Err(_) => return,
            }
        } else {
            match queue.try_recv() {
                Ok(job) => Some(job),
                Err(mpsc::TryRecvError::Empty) => None,
                Err(mpsc::TryRecvError::Disconnected) if pending.is_empty() => return,
                Err(mpsc::TryRecvError::Disconnected) => None,
            }
        };
        if let Some(job) = job {
            match job {
                Job::Generate {
                    requests,
                    tokens,
                    reply,
                } => {
                    if let Some(err) = requests.iter().find_map(|r| batcher.check(r).err()) {
                        let _ = reply.send(Err(err.to_string()));
                        continue;
                    }
                    if requests.is_empty() {
                        let _ = reply.send(Ok(Vec::new()));
                        continue;
                    }
                    let id = next_job;
                    next_job += 1;
                    let count = requests.len();
                    for (index, request) in requests.into_iter().enumerate() {
                        let b = batcher
                            .submit(request)
                            .expect("invariant: every request was checked");
                        owner.insert(b, (id, index));
                    }
                    pending.insert(
                        id,
                        Pending {
                            outputs: vec![None; count],
                            left: count,
                            tokens,
                            reply,
                        },
                    );
                }
                Job::Weights {
                    weights,
                    version,
                    reply,
                } => {
                    let _ = reply.send(
                        batcher
                            .stage_tensors(weights, version)
                            .map_err(|e| e.to_string()),
                    );
                }
                Job::Stats { reply } => {
                    let _ = reply.send((batcher.stats(), batcher.version()));
                }
                Job::Score { ids, top_k, reply } => {
                    let _ = reply.send(batcher.score(&ids, top_k).map_err(|e| e.to_string()));
                }
            }
            continue;
        }
        match batcher.step() {
            Ok(outputs) => {
                for (id, token) in batcher.last_sampled() {
                    if let Some((job, index)) = owner.get(id)
                        && let Some(tx) = pending.get(job).and_then(|p| p.tokens.as_ref())
                    {
                        let _ = tx.send((*index, *token));
                    }
                }
                for output in outputs {
                    let Some((job, index)) = owner.remove(&output.id) else {
                        continue;
                    };
                    if let Some(p) = pending.get_mut(&job) {
                        p.outputs[index] = Some(output);
                        p.left -= 1;
                        if p.left == 0
                            && let Some(p) = pending.remove(&job)
                        {
                            let _ = p.reply.send(Ok(p.outputs.into_iter().flatten().collect()));
                        }
                    }
                }
            }
            Err(err) => {
                // The batch is lost: every job waiting is answered with the error.
                for (_, p) in pending.drain() {
                    let _ = p.reply.send(Err(err.to_string()));
                }
                owner.clear();
                batcher.abandon();
            }
        }
    }
}
