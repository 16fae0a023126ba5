//! The model client against a small HTTP server written here (tokio's `TcpListener` on
//! 127.0.0.1 port 0) that replays replies recorded from the real `trainer serve` with
//! SmolLM2 (a whole reply and an SSE stream, with logprobs, `token_id` and usage), and
//! errors, slow answers and garbage. The server records every request it sees, so the
//! tests count attempts and read what the client sent.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use agent::client::{ClientConfig, OpenAiClient};
use agent::model::{ChatModel, ChatRequest, FinishReason, Message, ModelError, Sampling};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// `POST /v1/chat/completions` of `trainer serve` (SmolLM2-135M-Instruct, "Say hi.",
/// `max_tokens: 5`, `temperature: 0`, `logprobs: true`), as it answered.
const RECORDED_WHOLE: &str = r#"{"choices":[{"finish_reason":"length","index":0,"logprobs":{"content":[{"logprob":-2.1366376876831055,"token":"Hello","token_id":19556},{"logprob":-0.8538022041320801,"token":" there","token_id":665},{"logprob":-0.7516582608222961,"token":"!","token_id":17},{"logprob":-1.423548698425293,"token":" I","token_id":339},{"logprob":-0.3035449683666229,"token":"'m","token_id":5248}]},"message":{"content":"Hello there! I'm","role":"assistant"}}],"created":1795474007,"id":"chatcmpl-1795474006","model":"SmolLM2-135M-Instruct","object":"chat.completion","usage":{"completion_tokens":5,"prompt_tokens":33,"total_tokens":38}}"#;

/// The same request streamed (`max_tokens: 4`, `stream_options.include_usage`), as
/// `trainer serve` answered: text deltas, the finish chunk with the token logprobs and
/// ids, the usage chunk, `[DONE]`.
const RECORDED_STREAM: &str = r#"data: {"choices":[{"delta":{"content":"Hello","role":"assistant"},"finish_reason":null,"index":0}],"created":1795474164,"id":"chatcmpl-1795474164","model":"SmolLM2-135M-Instruct","object":"chat.completion.chunk"}

data: {"choices":[{"delta":{"content":" there","role":"assistant"},"finish_reason":null,"index":0}],"created":1795474164,"id":"chatcmpl-1795474164","model":"SmolLM2-135M-Instruct","object":"chat.completion.chunk"}

data: {"choices":[{"delta":{"content":"!","role":"assistant"},"finish_reason":null,"index":0}],"created":1795474164,"id":"chatcmpl-1795474164","model":"SmolLM2-135M-Instruct","object":"chat.completion.chunk"}

data: {"choices":[{"delta":{"content":" I","role":"assistant"},"finish_reason":null,"index":0}],"created":1795474164,"id":"chatcmpl-1795474164","model":"SmolLM2-135M-Instruct","object":"chat.completion.chunk"}

data: {"choices":[{"delta":{},"finish_reason":"length","index":0,"logprobs":{"content":[{"logprob":-2.1366376876831055,"token":"Hello","token_id":19556},{"logprob":-0.8538022041320801,"token":" there","token_id":665},{"logprob":-0.7516582608222961,"token":"!","token_id":17},{"logprob":-1.423548698425293,"token":" I","token_id":339}]}}],"created":1795474164,"id":"chatcmpl-1795474164","model":"SmolLM2-135M-Instruct","object":"chat.completion.chunk"}

data: {"choices":[],"created":1795474164,"id":"chatcmpl-1795474164","model":"SmolLM2-135M-Instruct","object":"chat.completion.chunk","usage":{"completion_tokens":4,"prompt_tokens":33,"total_tokens":37}}

data: [DONE]

"#;

/// `GET /v1/models` of `trainer serve`, as it answered.
const RECORDED_MODELS: &str = r#"{"data":[{"id":"SmolLM2-135M-Instruct","object":"model","owned_by":"arena"}],"object":"list"}"#;

/// The 400 of `trainer serve` for an empty conversation, as it answered.
const RECORDED_400: &str =
    r#"{"error":{"message":"`messages` is empty","type":"invalid_request_error"}}"#;

const MODEL: &str = "SmolLM2-135M-Instruct";

/// A request the fake server saw.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: String,
    at: Instant,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("the client sends JSON")
    }
}

/// What the fake server answers: a status, headers, and a body written in `pieces`
/// (with `pause` between them, for streams) after `delay`.
#[derive(Debug, Clone)]
struct Reply {
    status: u16,
    headers: Vec<(&'static str, String)>,
    pieces: Vec<Vec<u8>>,
    pause: Duration,
    delay: Duration,
}

impl Reply {
    fn json(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type", "application/json".to_owned())],
            pieces: vec![body.as_bytes().to_vec()],
            pause: Duration::ZERO,
            delay: Duration::ZERO,
        }
    }
    /// An SSE body cut into pieces of `size` bytes (across lines, events and
    /// characters), written with a short pause between them.
    fn sse(body: &str, size: usize) -> Self {
        Self {
            status: 200,
            headers: vec![("content-type", "text/event-stream".to_owned())],
            pieces: body.as_bytes().chunks(size).map(<[u8]>::to_vec).collect(),
            pause: Duration::from_millis(1),
            delay: Duration::ZERO,
        }
    }
    fn header(mut self, name: &'static str, value: &str) -> Self {
        self.headers.push((name, value.to_owned()));
        self
    }
    fn delayed(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }
}

type Script = dyn Fn(usize, &Seen) -> Reply + Send + Sync;

/// The fake server: its base URL, the requests it saw, and the most it held at once.
struct Fake {
    base: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    most_in_flight: Arc<AtomicUsize>,
}

impl Fake {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
    fn config(&self) -> ClientConfig {
        ClientConfig {
            backoff_base_ms: 5,
            backoff_max_ms: 20,
            max_attempts: 4,
            request_timeout_ms: 10_000,
            ..ClientConfig::new(&self.base, MODEL)
        }
    }
    fn client(&self, config: ClientConfig) -> OpenAiClient {
        OpenAiClient::with_env(config, |_| None).expect("a valid config")
    }
}

/// Holds each request until `.0` requests have been in flight at once (then lets every
/// request through), or `.1` has passed.
type Gate = Option<(usize, Duration)>;

/// Starts a fake server whose `script` answers the `i`-th request (from 0), each held at
/// the `gate` first.
async fn serve(gate: Gate, script: impl Fn(usize, &Seen) -> Reply + Send + Sync + 'static) -> Fake {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("address"));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let in_flight = Arc::new(AtomicUsize::new(0));
    let opened = Arc::new(AtomicBool::new(false));
    let most_in_flight = Arc::new(AtomicUsize::new(0));
    let script: Arc<Script> = Arc::new(script);
    let fake = Fake {
        base,
        seen: seen.clone(),
        most_in_flight: most_in_flight.clone(),
    };
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let (seen, in_flight, opened, most, script) = (
                seen.clone(),
                in_flight.clone(),
                opened.clone(),
                most_in_flight.clone(),
                script.clone(),
            );
            tokio::spawn(async move {
                answer(socket, gate, &seen, &in_flight, &opened, &most, &*script).await;
            });
        }
    });
    fake
}

async fn answer(
    mut socket: TcpStream,
    gate: Gate,
    seen: &Mutex<Vec<Seen>>,
    in_flight: &AtomicUsize,
    opened: &AtomicBool,
    most: &AtomicUsize,
    script: &Script,
) {
    let Some(request) = read_request(&mut socket).await else {
        return;
    };
    let index = {
        let mut seen = seen.lock().unwrap();
        seen.push(request.clone());
        seen.len() - 1
    };
    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    most.fetch_max(now, Ordering::SeqCst);
    let reply = script(index, &request);
    if let Some((k, most_wait)) = gate {
        if now >= k {
            opened.store(true, Ordering::SeqCst);
        }
        let until = Instant::now() + most_wait;
        while !opened.load(Ordering::SeqCst) && Instant::now() < until {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    tokio::time::sleep(reply.delay).await;
    // No longer counted before the answer is written: the client frees its permit only
    // after it has read the answer, so this count never runs ahead of the client's.
    in_flight.fetch_sub(1, Ordering::SeqCst);
    let mut head = format!("HTTP/1.1 {} Fake\r\nconnection: close\r\n", reply.status);
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    if socket.write_all(head.as_bytes()).await.is_err() {
        return;
    }
    for piece in &reply.pieces {
        if socket.write_all(piece).await.is_err() || socket.flush().await.is_err() {
            return;
        }
        tokio::time::sleep(reply.pause).await;
    }
    let _ = socket.shutdown().await;
}

/// Reads one HTTP/1.1 request (head and a `content-length` body).
async fn read_request(socket: &mut TcpStream) -> Option<Seen> {
    let mut bytes = Vec::new();
    let mut buf = [0u8; 4096];
    let head_end = loop {
        if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break at;
        }
        let n = socket.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        bytes.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&bytes[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut start = lines.next()?.split(' ');
    let (method, path) = (start.next()?.to_owned(), start.next()?.to_owned());
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = bytes[head_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut buf).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&buf[..n]);
    }
    Some(Seen {
        method,
        path,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
        at: Instant::now(),
    })
}

fn request(max_tokens: u32, logprobs: bool) -> ChatRequest {
    ChatRequest {
        messages: vec![Message::user("Say hi.")],
        sampling: Sampling {
            temperature: 0.0,
            max_tokens,
            seed: Some(1),
            logprobs,
            ..Sampling::default()
        },
    }
}

fn token_ids(reply: &agent::model::ChatReply, choice: usize) -> Vec<Option<u32>> {
    reply.completions[choice]
        .tokens
        .as_ref()
        .expect("tokens")
        .iter()
        .map(|t| t.id)
        .collect()
}

#[tokio::test]
async fn a_whole_reply_with_logprobs_token_ids_and_usage() {
    let fake = serve(None, |_, _| Reply::json(200, RECORDED_WHOLE)).await;
    let client = OpenAiClient::with_env(fake.config(), |name| {
        (name == "OPENAI_API_KEY").then(|| "sk-test-key".to_owned())
    })
    .unwrap();
    let reply = client.chat(&request(5, true)).await.expect("a reply");
    assert_eq!(reply.model, MODEL);
    assert_eq!(reply.completions.len(), 1);
    let completion = &reply.completions[0];
    assert_eq!(completion.text, "Hello there! I'm");
    assert_eq!(completion.finish_reason, FinishReason::Length);
    assert_eq!(
        token_ids(&reply, 0),
        [Some(19556), Some(665), Some(17), Some(339), Some(5248)]
    );
    let tokens = completion.tokens.as_ref().unwrap();
    assert_eq!(tokens[0].text, "Hello");
    assert!((tokens[0].logprob - -2.136_637_7).abs() < 1e-6);
    assert_eq!(
        (reply.usage.prompt_tokens, reply.usage.completion_tokens),
        (33, 5)
    );
    assert!(!reply.usage.counted_locally);
    assert_eq!(reply.retries, 0);

    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(
        (seen[0].method.as_str(), seen[0].path.as_str()),
        ("POST", "/v1/chat/completions")
    );
    assert_eq!(seen[0].header("authorization"), Some("Bearer sk-test-key"));
    let body = seen[0].json();
    assert_eq!(body["model"], MODEL);
    assert_eq!(body["max_tokens"], 5);
    assert_eq!(body["seed"], 1);
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["stream"], false);
    assert_eq!(
        (body["logprobs"].clone(), body["top_logprobs"].clone()),
        (Value::Bool(true), 0.into())
    );

    // Without logprobs asked, the reply carries no tokens.
    let reply = client.chat(&request(5, false)).await.expect("a reply");
    assert!(reply.completions[0].tokens.is_none());
    assert!(fake.seen()[1].json().get("logprobs").is_none());
}

#[tokio::test]
async fn an_sse_stream_cut_anywhere_assembles_with_the_final_usage() {
    for size in [5, 61, 4096] {
        let fake = serve(None, move |_, _| Reply::sse(RECORDED_STREAM, size)).await;
        let client = fake.client(ClientConfig {
            stream: true,
            ..fake.config()
        });
        let reply = client.chat(&request(4, true)).await.expect("a reply");
        assert_eq!(
            reply.completions[0].text, "Hello there! I",
            "pieces of {size}"
        );
        assert_eq!(reply.completions[0].finish_reason, FinishReason::Length);
        assert_eq!(
            token_ids(&reply, 0),
            [Some(19556), Some(665), Some(17), Some(339)]
        );
        assert_eq!(
            (
                reply.usage.prompt_tokens,
                reply.usage.completion_tokens,
                reply.usage.counted_locally
            ),
            (33, 4, false)
        );
        let body = fake.seen()[0].json();
        assert_eq!(body["stream"], true);
        assert_eq!(body["stream_options"]["include_usage"], true);
    }
}

#[tokio::test]
async fn an_openai_shaped_stream_of_several_choices_without_token_ids() {
    // The shape OpenAI and vLLM stream: logprobs in every chunk, no `token_id`, usage in
    // a last chunk without choices; two choices interleaved.
    let chunk = |i: u32, text: &str, finish: &str| {
        let finish = if finish.is_empty() {
            "null".to_owned()
        } else {
            format!("\"{finish}\"")
        };
        format!(
            "data: {{\"model\":\"gpt-x\",\"choices\":[{{\"index\":{i},\"delta\":{{\"content\":\"{text}\"}},\"logprobs\":{{\"content\":[{{\"token\":\"{text}\",\"logprob\":-0.5,\"bytes\":[1],\"top_logprobs\":[]}}]}},\"finish_reason\":{finish}}}]}}\n\n"
        )
    };
    let body = [
        chunk(0, "a", ""),
        chunk(1, "x", ""),
        chunk(0, "b", "stop"),
        chunk(1, "y", "length"),
        "data: {\"model\":\"gpt-x\",\"choices\":[],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4}}\n\ndata: [DONE]\n\n".to_owned(),
    ]
    .concat();
    let fake = serve(None, move |_, _| Reply::sse(&body, 10)).await;
    let client = fake.client(ClientConfig {
        stream: true,
        ..fake.config()
    });
    let mut req = request(4, true);
    req.sampling.n = 2;
    let reply = client.chat(&req).await.expect("a reply");
    assert_eq!(reply.model, "gpt-x");
    let texts: Vec<&str> = reply.completions.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["ab", "xy"]);
    assert_eq!(reply.completions[1].finish_reason, FinishReason::Length);
    assert_eq!(token_ids(&reply, 0), [None, None]);
    assert_eq!(reply.usage.completion_tokens, 4);
    assert_eq!(fake.seen()[0].json()["n"], 2);
}

#[tokio::test]
async fn a_429_with_retry_after_is_waited_out_then_succeeds() {
    let fake = serve(None, |i, _| {
        if i == 0 {
            Reply::json(429, r#"{"error":{"message":"slow down"}}"#).header("retry-after", "1")
        } else {
            Reply::json(200, RECORDED_WHOLE)
        }
    })
    .await;
    let client = fake.client(fake.config());
    let reply = client.chat(&request(5, false)).await.expect("a reply");
    assert_eq!(reply.retries, 1);
    let seen = fake.seen();
    assert_eq!(seen.len(), 2);
    // The backoff alone would have waited at most 20 ms: the server's second second was
    // honoured.
    assert!(seen[1].at.duration_since(seen[0].at) >= Duration::from_millis(990));
    assert!(reply.latency >= Duration::from_millis(990));
}

#[tokio::test]
async fn a_retry_after_beyond_the_total_budget_is_not_waited() {
    let fake = serve(None, |_, _| {
        Reply::json(503, r#"{"error":{"message":"overloaded"}}"#).header("retry-after", "3600")
    })
    .await;
    let client = fake.client(ClientConfig {
        max_retry_time_ms: 60_000,
        ..fake.config()
    });
    let err = client.chat(&request(5, false)).await.unwrap_err();
    assert!(
        matches!(&err, ModelError::Status { status: 503, attempts: 1, body, .. } if body == "overloaded"),
        "{err}"
    );
    assert_eq!(fake.seen().len(), 1);
}

#[tokio::test]
async fn server_errors_are_retried_and_counted() {
    let fake = serve(None, |i, _| {
        if i < 2 {
            Reply::json(500, r#"{"error":{"message":"generation failed"}}"#)
        } else {
            Reply::json(200, RECORDED_WHOLE)
        }
    })
    .await;
    let reply = fake
        .client(fake.config())
        .chat(&request(5, false))
        .await
        .expect("a reply");
    assert_eq!(reply.retries, 2);
    assert_eq!(fake.seen().len(), 3);

    // Always 502: as many attempts as allowed, then the last status.
    let fake = serve(None, |_, _| Reply::json(502, "bad gateway")).await;
    let err = fake
        .client(ClientConfig {
            max_attempts: 3,
            ..fake.config()
        })
        .chat(&request(5, false))
        .await
        .unwrap_err();
    assert!(
        matches!(
            &err,
            ModelError::Status {
                status: 502,
                attempts: 3,
                ..
            }
        ),
        "{err}"
    );
    assert_eq!(fake.seen().len(), 3);
    let text = err.to_string();
    assert!(
        text.contains("HTTP 502 after 3 attempt(s): bad gateway"),
        "{text}"
    );
}

#[tokio::test]
async fn a_client_error_is_not_retried() {
    for status in [400, 401, 404, 422] {
        let fake = serve(None, move |_, _| Reply::json(status, RECORDED_400)).await;
        let err = fake
            .client(fake.config())
            .chat(&request(5, false))
            .await
            .unwrap_err();
        match &err {
            ModelError::Status {
                status: got,
                attempts: 1,
                body,
                ..
            } => {
                assert_eq!(*got, status);
                assert_eq!(body, "`messages` is empty");
            }
            other => panic!("{other}"),
        }
        assert_eq!(fake.seen().len(), 1, "{status}");
    }
    // 408 and 409 are retried like 429.
    for status in [408, 409] {
        let fake = serve(None, move |i, _| {
            if i == 0 {
                Reply::json(status, "{}")
            } else {
                Reply::json(200, RECORDED_WHOLE)
            }
        })
        .await;
        let reply = fake.client(fake.config()).chat(&request(5, false)).await;
        assert_eq!(reply.expect("a reply").retries, 1, "{status}");
    }
}

#[tokio::test]
async fn a_slow_answer_times_out_after_each_attempt() {
    let fake = serve(None, |_, _| {
        Reply::json(200, RECORDED_WHOLE).delayed(Duration::from_secs(30))
    })
    .await;
    let client = fake.client(ClientConfig {
        request_timeout_ms: 200,
        max_attempts: 2,
        ..fake.config()
    });
    let start = Instant::now();
    let err = client.chat(&request(5, false)).await.unwrap_err();
    assert!(
        matches!(&err, ModelError::Timeout { attempts: 2, timeout, .. } if *timeout == Duration::from_millis(200)),
        "{err}"
    );
    assert!(start.elapsed() >= Duration::from_millis(400));
    assert_eq!(fake.seen().len(), 2);
    assert!(
        err.to_string().contains("gave no answer within 200ms"),
        "{err}"
    );
}

#[tokio::test]
async fn garbage_is_a_bad_reply_not_retried() {
    let fake = serve(None, |i, _| match i {
        0 => Reply::json(200, "<html>hello</html>"),
        1 => Reply::json(200, r#"{"choices": "many"}"#),
        2 => Reply::json(200, r#"{"choices": []}"#),
        _ => Reply::sse(
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"x\"}}]}\n\ndata: {oops\n\n",
            5,
        ),
    })
    .await;
    let client = fake.client(fake.config());
    let mut reasons = Vec::new();
    for _ in 0..3 {
        match client.chat(&request(5, false)).await {
            Err(ModelError::BadReply { reason, .. }) => reasons.push(reason),
            other => panic!("{other:?}"),
        }
    }
    let streaming = fake.client(ClientConfig {
        stream: true,
        ..fake.config()
    });
    match streaming.chat(&request(5, false)).await {
        Err(ModelError::BadReply { reason, .. }) => reasons.push(reason),
        other => panic!("{other:?}"),
    }
    assert!(
        reasons[0].starts_with("not a chat completion") && reasons[0].contains("<html>"),
        "{}",
        reasons[0]
    );
    assert!(
        reasons[1].starts_with("not a chat completion"),
        "{}",
        reasons[1]
    );
    assert_eq!(reasons[2], "the reply holds no choice");
    assert!(
        reasons[3].starts_with("a stream chunk is not JSON"),
        "{}",
        reasons[3]
    );
    assert_eq!(fake.seen().len(), 4, "one attempt each");
}

#[tokio::test]
async fn a_stream_cut_before_done_is_a_bad_reply() {
    let cut = &RECORDED_STREAM[..RECORDED_STREAM
        .find("data: {\"choices\":[{\"delta\":{},")
        .unwrap()];
    let cut = cut.to_owned();
    let fake = serve(None, move |_, _| Reply::sse(&cut, 50)).await;
    let err = fake
        .client(ClientConfig {
            stream: true,
            ..fake.config()
        })
        .chat(&request(4, false))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ModelError::BadReply { reason, .. } if reason.contains("before [DONE]")),
        "{err}"
    );
}

#[tokio::test]
async fn a_refused_connection_is_unreachable_after_the_attempts() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = OpenAiClient::with_env(
        ClientConfig {
            max_attempts: 3,
            backoff_base_ms: 5,
            ..ClientConfig::new(&base, MODEL)
        },
        |_| None,
    )
    .unwrap();
    let err = client.chat(&request(5, false)).await.unwrap_err();
    match &err {
        ModelError::Unreachable {
            endpoint,
            attempts: 3,
            reason,
        } => {
            assert_eq!(*endpoint, format!("{base}/v1/chat/completions"));
            assert!(
                reason.to_lowercase().contains("connection refused"),
                "{reason}"
            );
            assert!(!reason.contains("http://"), "the URL only once: {err}");
        }
        other => panic!("{other}"),
    }
    // The health check tries once and says the same.
    let err = client.check().await.unwrap_err();
    assert!(
        matches!(&err, ModelError::Unreachable { attempts: 1, .. }),
        "{err}"
    );
    assert!(
        err.to_string().starts_with(&format!(
            "model server {base}/v1/models unreachable after 1 attempt(s)"
        )),
        "{err}"
    );
}

#[tokio::test]
async fn without_usage_the_client_counts() {
    let mut whole: Value = serde_json::from_str(RECORDED_WHOLE).unwrap();
    whole.as_object_mut().unwrap().remove("usage");
    let whole = whole.to_string();
    let fake = serve(None, move |_, _| Reply::json(200, &whole)).await;
    let client = fake.client(fake.config());
    // With the token list: exactly its length.
    let reply = client.chat(&request(5, true)).await.expect("a reply");
    assert!(reply.usage.counted_locally);
    assert_eq!(reply.usage.completion_tokens, 5);
    // "Say hi." is 7 bytes: 2 estimated tokens and 4 for the message's frame.
    assert_eq!(reply.usage.prompt_tokens, 6);

    // A stream without the usage chunk (a server that ignores `stream_options`) and
    // without logprobs: the text's estimate ("Hello there! I" is 14 bytes: 4).
    let stream: String = RECORDED_STREAM
        .split("\n\n")
        .filter(|e| !e.contains("\"usage\"") && !e.contains("logprobs"))
        .map(|e| format!("{e}\n\n"))
        .collect();
    let stream = stream.replace(
        "\"delta\":{\"content\":\" I\",\"role\":\"assistant\"},\"finish_reason\":null",
        "\"delta\":{\"content\":\" I\",\"role\":\"assistant\"},\"finish_reason\":\"length\"",
    );
    let fake = serve(None, move |_, _| Reply::sse(&stream, 100)).await;
    let reply = fake
        .client(ClientConfig {
            stream: true,
            stream_usage: false,
            ..fake.config()
        })
        .chat(&request(4, false))
        .await
        .expect("a reply");
    assert_eq!(reply.completions[0].text, "Hello there! I");
    assert!(reply.usage.counted_locally);
    assert_eq!(reply.usage.completion_tokens, 4);
    assert!(fake.seen()[0].json().get("stream_options").is_none());
}

#[tokio::test]
async fn a_server_that_ignores_stream_is_read_whole() {
    let fake = serve(None, |_, _| Reply::json(200, RECORDED_WHOLE)).await;
    let reply = fake
        .client(ClientConfig {
            stream: true,
            ..fake.config()
        })
        .chat(&request(5, true))
        .await
        .expect("a reply");
    assert_eq!(reply.completions[0].text, "Hello there! I'm");
    assert_eq!(token_ids(&reply, 0).len(), 5);
}

#[tokio::test]
async fn the_concurrency_cap_holds_across_clients_of_one_endpoint() {
    // The server holds each request until 3 are in flight (or 300 ms): a client capped at
    // 2 never gets there, over two clients made separately and their clones.
    let gate = Some((3, Duration::from_millis(300)));
    let fake = serve(gate, |_, _| Reply::json(200, RECORDED_WHOLE)).await;
    let config = ClientConfig {
        concurrency: 2,
        ..fake.config()
    };
    let one = fake.client(config.clone());
    let two = fake.client(config);
    let clients = [one.clone(), one, two.clone(), two.clone(), two.clone(), two];
    let req = request(5, false);
    let replies = futures_util::future::join_all(clients.iter().map(|c| c.chat(&req))).await;
    assert!(replies.iter().all(Result::is_ok));
    assert_eq!(fake.seen().len(), 6);
    let most = fake.most_in_flight.load(Ordering::SeqCst);
    assert!((1..=2).contains(&most), "{most} in flight");

    // The control: uncapped (8), the same server sees 3 at once.
    let fake = serve(Some((3, Duration::from_secs(20))), |_, _| {
        Reply::json(200, RECORDED_WHOLE)
    })
    .await;
    let client = fake.client(fake.config());
    let replies = futures_util::future::join_all((0..3).map(|_| client.chat(&req))).await;
    assert!(replies.iter().all(Result::is_ok));
    assert_eq!(fake.most_in_flight.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn the_key_is_sent_but_never_shown() {
    const KEY: &str = "sk-never-shown-4e1f";
    let fake = serve(None, |_, _| {
        Reply::json(401, r#"{"error":{"message":"invalid key"}}"#)
    })
    .await;
    let config = ClientConfig {
        api_key_env: "ARENA_TEST_MODEL_KEY".to_owned(),
        ..fake.config()
    };
    let client = OpenAiClient::with_env(config, |name| {
        (name == "ARENA_TEST_MODEL_KEY").then(|| KEY.to_owned())
    })
    .unwrap();
    assert!(client.has_api_key());
    let err = client.chat(&request(5, false)).await.unwrap_err();
    assert_eq!(
        fake.seen()[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let shown = [
        format!("{client:?}"),
        format!("{:?}", client.config()),
        serde_json::to_string(client.config()).unwrap(),
        err.to_string(),
        format!("{err:?}"),
        client.endpoint(),
    ];
    for text in &shown {
        assert!(!text.contains(KEY), "{text}");
    }
    assert!(shown[0].contains("<redacted>"), "{}", shown[0]);
    assert!(
        shown[2].contains("\"api_key_env\":\"ARENA_TEST_MODEL_KEY\""),
        "{}",
        shown[2]
    );

    // No key in the environment: no header.
    let fake = serve(None, |_, _| Reply::json(200, RECORDED_WHOLE)).await;
    fake.client(fake.config())
        .chat(&request(5, false))
        .await
        .unwrap();
    assert_eq!(fake.seen()[0].header("authorization"), None);
}

#[tokio::test]
async fn the_health_check_lists_the_models() {
    let fake = serve(None, |_, seen| {
        assert_eq!(
            (seen.method.as_str(), seen.path.as_str()),
            ("GET", "/v1/models")
        );
        Reply::json(200, RECORDED_MODELS)
    })
    .await;
    let client = fake.client(fake.config());
    assert_eq!(client.check().await.unwrap(), [MODEL]);
    assert_eq!(client.models().await.unwrap(), [MODEL]);
    let other = fake.client(ClientConfig::new(&fake.base, "llama-3"));
    let err = other.check().await.unwrap_err().to_string();
    assert!(
        err.ends_with(
            "model `llama-3` is not served here (the server lists: SmolLM2-135M-Instruct)"
        ),
        "{err}"
    );
}
