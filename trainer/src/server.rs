//! `trainer serve`: an OpenAI-compatible chat completions server over the policy model,
//! so that the agent talks to it like to any LLM server.
//!
//! Endpoints: `POST /v1/chat/completions` (non-streaming, and SSE streaming with
//! `"stream": true`; `usage`, also in a stream's last chunk with
//! `stream_options.include_usage`; `seed`, `max_tokens`, `stop`, `n`, `temperature`,
//! `top_p`, and each token's logprob with its id in the extension field `token_id`, in a
//! stream with each choice's finish reason; the extension field `policy_version`: the
//! version of the weights that sampled the reply), `GET /v1/models`, and `GET /stats`
//! (the decoder's counters: token steps, tokens, steps shared by two or more requests,
//! the most requests decoded in one step, and the policy version).
//!
//! `POST /v1/completions` scores and does not sample: a request must have `echo: true`
//! and `max_tokens: 0` (as a client asks vLLM for a prompt's log-probabilities), and gets
//! back the prompt (`prompt` a string, encoded without special tokens added, or a list of
//! token ids) read whole by the weights now sampling: in `choices[0].logprobs`, each
//! token's text, its log-probability after the tokens before it (`null` for the first)
//! and, with `logprobs: k` (at most 20), the `k` most likely tokens at each position by
//! their text; the extension fields `token_ids` (the prompt's ids) and `top_token_ids`
//! (each position's top ids with their log-probabilities, since two tokens may share a
//! text). A teacher at another server scores a student's tokens this way.
//!
//! Requests go to a [`Decoder`] thread that owns the model's [`Batcher`]: every active
//! request is decoded together at the token step and a new one is admitted as soon as a
//! slot is free, each with its own sampling settings; a reply with a `seed` is the same
//! whatever else shares the batch (a choice `c` of `n` samples with `seed + c`).

use std::convert::Infallible;
use std::sync::Arc;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::mpsc;

use crate::batching::{Batcher, OnWeights, Output, Request};
use crate::decoder::Decoder;
use crate::generate::{Finish, Sampling};
use crate::model::Model;
use crate::tokenizer::{ChatTokenizer, Message};

/// Shared state of the handlers.
pub struct AppState {
    name: String,
    tokenizer: ChatTokenizer,
    context: usize,
    decoder: Decoder,
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

/// A prompt: text, or token ids.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Prompt {
    Text(String),
    Ids(Vec<i64>),
}

/// The body of `/v1/completions` (scoring only).
#[derive(Debug, Deserialize)]
struct CompletionRequest {
    #[serde(default)]
    model: Option<String>,
    prompt: Prompt,
    #[serde(default)]
    echo: bool,
    #[serde(default)]
    max_tokens: Option<usize>,
    #[serde(default)]
    logprobs: Option<usize>,
}

/// The most top tokens a position reports (OpenAI's limit for `logprobs`).
const MAX_TOP_LOGPROBS: usize = 20;

/// `stream_options`: with `include_usage`, a last chunk (no choices) carries the usage.
#[derive(Debug, Default, Deserialize)]
struct StreamOptions {
    #[serde(default)]
    include_usage: bool,
}

/// How the server decodes.
#[derive(Debug, Clone, Copy)]
pub struct ServeConfig {
    /// The most sequences decoded together (a request's `n` choices count one each).
    pub max_batch: usize,
    /// The policy version of the weights (a checkpoint's; 0 for a starting model).
    pub version: u64,
}

/// Serves the policy on `listener` until the process ends (the only place, with [`app`],
/// that hands a router to axum, so axum stays in this module).
pub async fn serve(
    listener: tokio::net::TcpListener,
    model: Model,
    tokenizer: ChatTokenizer,
    name: String,
    config: ServeConfig,
) -> std::io::Result<()> {
    axum::serve(listener, app(model, tokenizer, name, config)).await
}

/// Starts the decoder thread that owns `model` and returns the router.
pub fn app(
    mut model: Model,
    tokenizer: ChatTokenizer,
    name: String,
    config: ServeConfig,
) -> Router {
    model.limit_sampling_vocab(tokenizer.vocab_size());
    let context = model.config.max_position_embeddings;
    let batcher = Batcher::new(model, config.max_batch, OnWeights::Drain, config.version);
    let state = Arc::new(AppState {
        name,
        tokenizer,
        context,
        decoder: Decoder::spawn(batcher),
    });
    Router::new()
        .route("/v1/models", get(models))
        .route("/v1/chat/completions", post(chat_completions))
        .route("/v1/completions", post(completions))
        .route("/stats", get(stats))
        .with_state(state)
}

async fn models(State(state): State<Arc<AppState>>) -> Json<serde_json::Value> {
    Json(
        json!({"object": "list", "data": [{"id": state.name, "object": "model", "owned_by": "arena"}]}),
    )
}

async fn stats(State(state): State<Arc<AppState>>) -> Result<Json<serde_json::Value>, AppError> {
    let (stats, version) = state.decoder.stats().await.map_err(|_| stopped())?;
    let mut body = serde_json::to_value(stats).unwrap_or_default();
    body["policy_version"] = json!(version);
    Ok(Json(body))
}

fn stopped() -> AppError {
    AppError(
        StatusCode::SERVICE_UNAVAILABLE,
        "the model's decoder stopped".to_owned(),
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

/// The visible text of an output: without the stop sequence that ended it.
fn visible(state: &AppState, output: &Output, stop: &[Vec<i64>]) -> String {
    let mut tokens = output.tokens.as_slice();
    if output.finish == Finish::Stop
        && let Some(seq) = stop.iter().find(|s| !s.is_empty() && tokens.ends_with(s))
    {
        tokens = &tokens[..tokens.len() - seq.len()];
    }
    state.tokenizer.decode(tokens).unwrap_or_default()
}

fn finish_reason(output: &Output) -> &'static str {
    match output.finish {
        Finish::Stop => "stop",
        Finish::Length => "length",
    }
}

/// The oldest policy version among the outputs' tokens (`null` when none was sampled).
fn policy_version(outputs: &[Output]) -> Option<u64> {
    outputs
        .iter()
        .flat_map(|o| o.versions.iter())
        .min()
        .copied()
}

fn usage(prompt_tokens: usize, outputs: &[Output]) -> serde_json::Value {
    let completion_tokens: usize = outputs.iter().map(|o| o.tokens.len()).sum();
    json!({"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
           "total_tokens": prompt_tokens + completion_tokens})
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
    // One batcher request per choice, each with its own seed.
    let requests: Vec<Request> = (0..n)
        .map(|choice| Request {
            prompt: prompt.clone(),
            sampling: Sampling {
                seed: sampling.seed.wrapping_add(choice as u64),
                ..sampling.clone()
            },
        })
        .collect();
    let id = format!("chatcmpl-{}", unix_time());
    let model_name = req.model.clone().unwrap_or_else(|| state.name.clone());
    if req.stream {
        let usage = req
            .stream_options
            .as_ref()
            .is_some_and(|o| o.include_usage)
            .then_some(prompt_tokens);
        let reply = Reply {
            id,
            model: model_name,
            stop,
            usage,
        };
        let stream = async_stream(state, requests, reply);
        return Ok(Sse::new(stream).into_response());
    }
    let outputs = state.decoder.generate(requests, None).await.map_err(|_| {
        AppError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "generation failed".to_owned(),
        )
    })?;
    let choices: Vec<serde_json::Value> = outputs
        .iter()
        .enumerate()
        .map(|(index, output)| {
            json!({
                "index": index,
                "message": {"role": "assistant", "content": visible(&state, output, &stop)},
                "finish_reason": finish_reason(output),
                "logprobs": {"content": token_logprobs(&state, output)},
            })
        })
        .collect();
    Ok(Json(json!({
        "id": id,
        "object": "chat.completion",
        "created": unix_time(),
        "model": model_name,
        "choices": choices,
        "usage": usage(prompt_tokens, &outputs),
        "policy_version": policy_version(&outputs),
    }))
    .into_response())
}

/// `POST /v1/completions`: the prompt's tokens scored (see the module doc).
async fn completions(
    State(state): State<Arc<AppState>>,
    body: Result<Json<CompletionRequest>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, AppError> {
    let Json(req) =
        body.map_err(|err| bad_request(format!("malformed request: {}", err.body_text())))?;
    if !req.echo || req.max_tokens != Some(0) {
        return Err(bad_request(
            "this server's /v1/completions scores a prompt and samples nothing: send `echo: true` and `max_tokens: 0` (sample with /v1/chat/completions)",
        ));
    }
    let top_k = req.logprobs.unwrap_or(0);
    if top_k > MAX_TOP_LOGPROBS {
        return Err(bad_request(format!(
            "`logprobs` must be at most {MAX_TOP_LOGPROBS}, got {top_k}"
        )));
    }
    let ids = match req.prompt {
        Prompt::Ids(ids) => ids,
        Prompt::Text(text) => state
            .tokenizer
            .encode(&text)
            .map_err(|err| bad_request(err.to_string()))?,
    };
    if ids.is_empty() {
        return Err(bad_request("`prompt` is empty"));
    }
    if ids.len() > state.context {
        return Err(bad_request(format!(
            "the prompt ({} tokens) exceeds the context of {} tokens",
            ids.len(),
            state.context
        )));
    }
    let scored = state
        .decoder
        .score(ids.clone(), top_k)
        .await
        .map_err(|err| bad_request(err.to_string()))?;
    let text_of = |id: i64| state.tokenizer.decode(&[id]).unwrap_or_default();
    let tokens: Vec<String> = ids.iter().map(|id| text_of(*id)).collect();
    let mut offset = 0;
    let text_offset: Vec<usize> = tokens
        .iter()
        .map(|t| {
            let at = offset;
            offset += t.len();
            at
        })
        .collect();
    let top_logprobs: Vec<serde_json::Value> = scored
        .top
        .iter()
        .zip(&scored.logprobs)
        .map(|(top, lp)| match lp {
            None => serde_json::Value::Null,
            Some(_) => {
                let mut map = serde_json::Map::new();
                for (id, v) in top {
                    map.entry(text_of(*id)).or_insert(json!(v));
                }
                serde_json::Value::Object(map)
            }
        })
        .collect();
    let top_token_ids: Vec<serde_json::Value> = scored
        .top
        .iter()
        .map(|top| {
            serde_json::Value::Array(
                top.iter()
                    .map(|(id, v)| json!({"token_id": id, "logprob": v}))
                    .collect(),
            )
        })
        .collect();
    let (_, version) = state.decoder.stats().await.map_err(|_| stopped())?;
    Ok(Json(json!({
        "id": format!("cmpl-{}", unix_time()),
        "object": "text_completion",
        "created": unix_time(),
        "model": req.model.unwrap_or_else(|| state.name.clone()),
        "choices": [{
            "index": 0,
            "text": state.tokenizer.decode(&ids).unwrap_or_default(),
            "finish_reason": "length",
            "logprobs": {
                "tokens": tokens,
                "token_logprobs": scored.logprobs,
                "top_logprobs": top_logprobs,
                "text_offset": text_offset,
            },
            "token_ids": ids,
            "top_token_ids": top_token_ids,
        }],
        "usage": {"prompt_tokens": ids.len(), "completion_tokens": 0, "total_tokens": ids.len()},
        "policy_version": version,
    }))
    .into_response())
}

/// Each sampled token of `output` with its id (the extension field `token_id`), text and
/// logprob, as `logprobs.content` lists them.
fn token_logprobs(state: &AppState, output: &Output) -> Vec<serde_json::Value> {
    output
        .tokens
        .iter()
        .zip(&output.logprobs)
        .map(|(t, l)| json!({"token_id": t, "token": state.tokenizer.decode(&[*t]).unwrap_or_default(), "logprob": l}))
        .collect()
}

/// What a stream's chunks carry besides the tokens.
struct Reply {
    id: String,
    model: String,
    /// The stop sequences (a token of one is held back until it is known not to end it).
    stop: Vec<Vec<i64>>,
    /// The prompt's token count, when the usage chunk is asked for.
    usage: Option<usize>,
}

/// The SSE stream of a request: one chunk per token with the new text, then a chunk per
/// choice with its finish reason, every token's logprob and the policy version, then (with
/// `stream_options.include_usage`) a chunk with the usage, then `[DONE]`.
fn async_stream(
    state: Arc<AppState>,
    requests: Vec<Request>,
    reply: Reply,
) -> impl futures_util::Stream<Item = Result<Event, Infallible>> {
    let (tx, rx) = mpsc::unbounded_channel::<Result<Event, Infallible>>();
    tokio::spawn(async move {
        let n = requests.len();
        let (tokens_tx, mut tokens_rx) = mpsc::unbounded_channel();
        let decoder = state.decoder.clone();
        // The decoder drops the token sender when the job ends, closing `tokens_rx`.
        let generation =
            tokio::spawn(async move { decoder.generate(requests, Some(tokens_tx)).await });
        let Reply {
            id,
            model,
            stop,
            usage: prompt_tokens,
        } = reply;
        let send = |data: serde_json::Value| {
            let _ = tx.send(Ok(Event::default().data(data.to_string())));
        };
        let chunk = |index: usize, delta: serde_json::Value, finish: Option<&str>| {
            json!({"id": id, "object": "chat.completion.chunk", "created": unix_time(), "model": model,
                   "choices": [{"index": index, "delta": delta, "finish_reason": finish}]})
        };
        let mut tokens: Vec<Vec<i64>> = vec![Vec::new(); n];
        let mut shown: Vec<String> = vec![String::new(); n];
        while let Some((choice, token)) = tokens_rx.recv().await {
            tokens[choice].push(token);
            // Hold back a token that may be the start of a stop sequence or end-of-text.
            let held = stop
                .iter()
                .map(|s| {
                    (1..=s.len().min(tokens[choice].len()))
                        .filter(|k| tokens[choice].ends_with(&s[..*k]))
                        .max()
                        .unwrap_or(0)
                })
                .max()
                .unwrap_or(0);
            let upto = tokens[choice].len() - held;
            let text = state
                .tokenizer
                .decode(&tokens[choice][..upto])
                .unwrap_or_default();
            // Send only whole characters that will not change with later tokens.
            if text.len() > shown[choice].len()
                && text.starts_with(shown[choice].as_str())
                && !text.ends_with('\u{fffd}')
            {
                let delta = text[shown[choice].len()..].to_owned();
                shown[choice] = text;
                send(chunk(
                    choice,
                    json!({"role": "assistant", "content": delta}),
                    None,
                ));
            }
        }
        if let Ok(Ok(outputs)) = generation.await {
            for (index, output) in outputs.iter().enumerate() {
                // Text a held-back token turned out not to stop.
                let text = visible(&state, output, &stop);
                let rest = text.strip_prefix(shown[index].as_str()).unwrap_or_default();
                let mut data = chunk(
                    index,
                    if rest.is_empty() {
                        json!({})
                    } else {
                        json!({"content": rest})
                    },
                    Some(finish_reason(output)),
                );
                data["choices"][0]["logprobs"] = json!({"content": token_logprobs(&state, output)});
                data["policy_version"] = json!(policy_version(std::slice::from_ref(output)));
                send(data);
            }
            if let Some(prompt_tokens) = prompt_tokens {
                send(
                    json!({"id": id, "object": "chat.completion.chunk", "created": unix_time(), "model": model, "choices": [],
                        "usage": usage(prompt_tokens, &outputs)}),
                );
            }
        }
        let _ = tx.send(Ok(Event::default().data("[DONE]")));
    });
    tokio_stream::wrappers::UnboundedReceiverStream::new(rx)
}
