//! `trainer serve`: an OpenAI-compatible chat completions server over the policy model,
//! so that the agent talks to it like to any LLM server.
//!
//! Endpoints: `POST /v1/chat/completions` (non-streaming, and SSE streaming with
//! `"stream": true`; `usage`, also in a stream's last chunk with
//! `stream_options.include_usage`; `seed`, `max_tokens`, `stop`, `n`, `temperature`,
//! `top_p`, and each token's logprob with its id in the extension field `token_id`, in a
//! stream with each choice's finish reason) and `GET /v1/models`. One worker thread owns the model;
//! requests that arrive within a few milliseconds of each other with the same sampling
//! settings are decoded as one batch.

use std::convert::Infallible;
use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use crate::generate::{Finish, Sample, Sampling, sample_with};
use crate::model::Model;
use crate::tokenizer::{ChatTokenizer, Message};

/// How long the worker waits for more requests to join a batch.
const BATCH_WINDOW: Duration = Duration::from_millis(5);

/// A decoding job for the worker.
struct Job {
    prompt: Vec<i64>,
    n: usize,
    sampling: Sampling,
    events: mpsc::UnboundedSender<JobEvent>,
}

enum JobEvent {
    Token { choice: usize, token: i64 },
    Done(Result<Vec<Sample>, String>),
}

/// Shared state of the handlers.
pub struct AppState {
    name: String,
    tokenizer: ChatTokenizer,
    context: usize,
    jobs: std_mpsc::Sender<Job>,
}

/// An HTTP error: a status and a message for the client (never an internal detail).
#[derive(Debug)]
pub struct AppError(StatusCode, String);

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let kind = if self.0.is_client_error() {
            "invalid_request_error"
        } else {
            "server_error"
        };
        (
            self.0,
            Json(json!({"error": {"message": self.1, "type": kind}})),
        )
            .into_response()
    }
}

fn bad_request(message: impl Into<String>) -> AppError {
    AppError(StatusCode::BAD_REQUEST, message.into())
}

/// The request body (the fields this server understands).
#[derive(Debug, Deserialize)]
struct ChatRequest {
    #[serde(default)]
    model: Option<String>,
    messages: Vec<Message>,
    #[serde(default)]
    max_tokens: Option<usize>,
    #[serde(default)]
    max_completion_tokens: Option<usize>,
    #[serde(default)]
    temperature: Option<f64>,
    #[serde(default)]
    top_p: Option<f64>,
    #[serde(default)]
    n: Option<usize>,
    #[serde(default)]
    stop: Option<serde_json::Value>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    stream: bool,
    #[serde(default)]
    stream_options: Option<StreamOptions>,
}

/// `stream_options`: with `include_usage`, a last chunk (no choices) carries the usage.
#[derive(Debug, Default, Deserialize)]
struct StreamOptions {
    #[serde(default)]
    include_usage: bool,
}

/// Serves the policy on `listener` until the process ends (the only place, with [`app`],
/// that hands a router to axum, so axum stays in this module).
pub async fn serve(
    listener: tokio::net::TcpListener,
    model: Model,
    tokenizer: ChatTokenizer,
    name: String,
) -> std::io::Result<()> {
    axum::serve(listener, app(model, tokenizer, name)).await
}

/// Starts the worker thread that owns `model` and returns the router.
pub fn app(model: Model, tokenizer: ChatTokenizer, name: String) -> Router {
    let (jobs, queue) = std_mpsc::channel::<Job>();
    let context = model.config.max_position_embeddings;
    std::thread::spawn(move || worker(&model, &queue));
    let state = Arc::new(AppState {
        name,
        tokenizer,
        context,
        jobs,
    });
    Router::new()
        .route("/v1/models", get(models))
        .route("/v1/chat/completions", post(chat_completions))
        .with_state(state)
}

fn worker(model: &Model, queue: &std_mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut jobs = vec![first];
        while let Ok(more) = queue.recv_timeout(BATCH_WINDOW) {
            jobs.push(more);
        }
        // One batch per distinct sampling setting (the sampler's seed is per batch).
        while !jobs.is_empty() {
            let sampling = jobs[0].sampling.clone();
            let (batch, rest): (Vec<Job>, Vec<Job>) =
                jobs.into_iter().partition(|j| j.sampling == sampling);
            jobs = rest;
            let mut prompts = Vec::new();
            let mut seeds = Vec::new();
            let mut owners = Vec::new();
            for (job_idx, job) in batch.iter().enumerate() {
                for choice in 0..job.n {
                    prompts.push(job.prompt.clone());
                    seeds.push(job.sampling.seed.wrapping_add(choice as u64));
                    owners.push((job_idx, choice));
                }
            }
            let res = sample_with(model, &prompts, &seeds, &sampling, &mut |idx, token| {
                let (job_idx, choice) = owners[idx];
                let _ = batch[job_idx]
                    .events
                    .send(JobEvent::Token { choice, token });
            });
            match res {
                Ok(samples) => {
                    let mut per_job: Vec<Vec<Sample>> = batch.iter().map(|_| Vec::new()).collect();
                    for (sample, (job_idx, _)) in samples.into_iter().zip(&owners) {
                        per_job[*job_idx].push(sample);
                    }
                    for (job, samples) in batch.iter().zip(per_job) {
                        let _ = job.events.send(JobEvent::Done(Ok(samples)));
                    }
                }
                Err(err) => {
                    for job in &batch {
                        let _ = job.events.send(JobEvent::Done(Err(err.to_string())));
                    }
                }
            }
        }
    }
}

async fn models(State(state): State<Arc<AppState>>) -> Json<serde_json::Value> {
    Json(
        json!({"object": "list", "data": [{"id": state.name, "object": "model", "owned_by": "arena"}]}),
    )
}

fn unix_time() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The prompt ids and sampling settings of a request, checked.
fn prepare(
    state: &AppState,
    req: &ChatRequest,
) -> Result<(Vec<i64>, Sampling, usize, Vec<String>), AppError> {
    if req.messages.is_empty() {
        return Err(bad_request("`messages` is empty"));
    }
    let n = req.n.unwrap_or(1);
    if !(1..=16).contains(&n) {
        return Err(bad_request(format!(
            "`n` must be between 1 and 16, got {n}"
        )));
    }
    let temperature = req.temperature.unwrap_or(1.0);
    if !(0.0..=2.0).contains(&temperature) {
        return Err(bad_request(format!(
            "`temperature` must be between 0 and 2, got {temperature}"
        )));
    }
    let top_p = req.top_p.unwrap_or(1.0);
    if !(top_p > 0.0 && top_p <= 1.0) {
        return Err(bad_request(format!(
            "`top_p` must be in (0, 1], got {top_p}"
        )));
    }
    let stop_texts: Vec<String> = match &req.stop {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(serde_json::Value::String(s)) => vec![s.clone()],
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect(),
        Some(_) => {
            return Err(bad_request(
                "`stop` must be a string or an array of strings",
            ));
        }
    };
    let prompt_text = state
        .tokenizer
        .apply_chat_template(&req.messages, true)
        .map_err(|err| bad_request(err.to_string()))?;
    let prompt = state
        .tokenizer
        .encode(&prompt_text)
        .map_err(|err| bad_request(err.to_string()))?;
    let max_tokens = req.max_completion_tokens.or(req.max_tokens).unwrap_or(256);
    if prompt.len() + max_tokens > state.context {
        return Err(bad_request(format!(
            "the prompt ({} tokens) and max_tokens ({max_tokens}) exceed the context of {} tokens",
            prompt.len(),
            state.context
        )));
    }
    let mut stop: Vec<Vec<i64>> = state.tokenizer.eos_ids.iter().map(|id| vec![*id]).collect();
    for text in &stop_texts {
        stop.push(
            state
                .tokenizer
                .encode(text)
                .map_err(|err| bad_request(err.to_string()))?,
        );
    }
    let sampling = Sampling {
        temperature,
        top_p,
        top_k: 0,
        max_tokens,
        stop,
        seed: req.seed.unwrap_or_else(unix_time),
        pad_id: state.tokenizer.eos_ids.first().copied().unwrap_or(0),
    };
    Ok((prompt, sampling, n, stop_texts))
}

/// The visible text of a sample: without the stop sequence that ended it.
fn visible(state: &AppState, sample: &Sample, stop: &[Vec<i64>]) -> String {
    let mut tokens = sample.tokens.as_slice();
    if sample.finish == Finish::Stop
        && let Some(seq) = stop.iter().find(|s| !s.is_empty() && tokens.ends_with(s))
    {
        tokens = &tokens[..tokens.len() - seq.len()];
    }
    state.tokenizer.decode(tokens).unwrap_or_default()
}

async fn chat_completions(
    State(state): State<Arc<AppState>>,
    body: Result<Json<ChatRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, AppError> {
    let Json(req) =
        body.map_err(|err| bad_request(format!("malformed request: {}", err.body_text())))?;
    let (prompt, sampling, n, _) = prepare(&state, &req)?;
    let prompt_tokens = prompt.len();
    let stop = sampling.stop.clone();
    let (events, mut receiver) = mpsc::unbounded_channel();
    state
        .jobs
        .send(Job {
            prompt,
            n,
            sampling,
            events,
        })
        .map_err(|_| {
            AppError(
                StatusCode::SERVICE_UNAVAILABLE,
                "the model worker stopped".to_owned(),
            )
        })?;
    let id = format!("chatcmpl-{}", unix_time());
    let model_name = req.model.clone().unwrap_or_else(|| state.name.clone());
    if req.stream {
        let state = state.clone();
        let usage = req
            .stream_options
            .as_ref()
            .is_some_and(|o| o.include_usage)
            .then_some(prompt_tokens);
        let stream = async_stream(state, receiver, id, model_name, n, usage);
        return Ok(Sse::new(stream).into_response());
    }
    let samples = loop {
        match receiver.recv().await {
            Some(JobEvent::Token { .. }) => {}
            Some(JobEvent::Done(Ok(samples))) => break samples,
            Some(JobEvent::Done(Err(_))) | None => {
                return Err(AppError(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "generation failed".to_owned(),
                ));
            }
        }
    };
    let completion_tokens: usize = samples.iter().map(|s| s.tokens.len()).sum();
    let choices: Vec<serde_json::Value> = samples
        .iter()
        .enumerate()
        .map(|(index, sample)| {
            let logprobs = token_logprobs(&state, sample);
            json!({
                "index": index,
                "message": {"role": "assistant", "content": visible(&state, sample, &stop)},
                "finish_reason": if sample.finish == Finish::Stop { "stop" } else { "length" },
                "logprobs": {"content": logprobs},
            })
        })
        .collect();
    Ok(Json(json!({
        "id": id,
        "object": "chat.completion",
        "created": unix_time(),
        "model": model_name,
        "choices": choices,
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }))
    .into_response())
}

/// Each sampled token of `sample` with its id (the extension field `token_id`), text and
/// logprob, as `logprobs.content` lists them.
fn token_logprobs(state: &AppState, sample: &Sample) -> Vec<serde_json::Value> {
    sample
        .tokens
        .iter()
        .zip(&sample.logprobs)
        .map(|(t, l)| json!({"token_id": t, "token": state.tokenizer.decode(&[*t]).unwrap_or_default(), "logprob": l}))
        .collect()
}

/// The SSE stream of a request: one chunk per token with the new text, then a chunk per
/// choice with its finish reason and every token's logprob, then (when `usage` holds the
/// prompt's token count: `stream_options.include_usage`) a chunk with the usage, then
/// `[DONE]`.
fn async_stream(
    state: Arc<AppState>,
    mut receiver: mpsc::UnboundedReceiver<JobEvent>,
    id: String,
    model: String,
    n: usize,
    usage: Option<usize>,
) -> impl futures_util::Stream<Item = Result<Event, Infallible>> {
    let (tx, rx) = mpsc::unbounded_channel::<Result<Event, Infallible>>();
    tokio::spawn(async move {
        let mut tokens: Vec<Vec<i64>> = vec![Vec::new(); n];
        let mut shown: Vec<String> = vec![String::new(); n];
        let chunk = |index: usize, delta: serde_json::Value, finish: Option<&str>| {
            json!({"id": id, "object": "chat.completion.chunk", "created": unix_time(), "model": model,
                   "choices": [{"index": index, "delta": delta, "finish_reason": finish}]})
        };
        while let Some(event) = receiver.recv().await {
            match event {
                JobEvent::Token { choice, token } => {
                    tokens[choice].push(token);
                    let text = state.tokenizer.decode(&tokens[choice]).unwrap_or_default();
                    // Send only whole characters that will not change with later tokens.
                    if text.len() > shown[choice].len()
                        && text.starts_with(shown[choice].as_str())
                        && !text.ends_with('\u{fffd}')
                    {
                        let delta = text[shown[choice].len()..].to_owned();
                        shown[choice] = text;
                        let data =
                            chunk(choice, json!({"role": "assistant", "content": delta}), None);
                        let _ = tx.send(Ok(Event::default().data(data.to_string())));
                    }
                }
                JobEvent::Done(res) => {
                    if let Ok(samples) = res {
                        for (index, sample) in samples.iter().enumerate() {
                            let reason = if sample.finish == Finish::Stop {
                                "stop"
                            } else {
                                "length"
                            };
                            let mut data = chunk(index, json!({}), Some(reason));
                            data["choices"][0]["logprobs"] =
                                json!({"content": token_logprobs(&state, sample)});
                            let _ = tx.send(Ok(Event::default().data(data.to_string())));
                        }
                        if let Some(prompt_tokens) = usage {
                            let completion_tokens: usize =
                                samples.iter().map(|s| s.tokens.len()).sum();
                            let data = json!({"id": id, "object": "chat.completion.chunk", "created": unix_time(), "model": model, "choices": [],
                                "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                          "total_tokens": prompt_tokens + completion_tokens}});
                            let _ = tx.send(Ok(Event::default().data(data.to_string())));
                        }
                    }
                    let _ = tx.send(Ok(Event::default().data("[DONE]")));
                    break;
                }
            }
        }
    });
    tokio_stream::wrappers::UnboundedReceiverStream::new(rx)
}
