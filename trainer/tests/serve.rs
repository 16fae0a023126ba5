//! End-to-end test of `trainer serve`: the real binary with the bundled SmolLM2 on port 0,
//! called over HTTP like any OpenAI-compatible server; `/v1/completions` scores a prompt
//! (`echo: true`, `max_tokens: 0`) with the log-probabilities the sampler drew its tokens
//! with. Under `CI=true` a missing model fails the test.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

struct Server {
    child: Child,
    base: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start() -> Option<Server> {
    start_with(&[])
}

/// `trainer serve` on the bundled model with `extra` arguments.
fn start_with(extra: &[&str]) -> Option<Server> {
    let model = ci::require::env_path("ARENA_MODEL_DIR")?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(["serve", "--listen", "127.0.0.1:0", "--model"])
        .arg(&model)
        .args(extra)
        .stdout(Stdio::piped())
        .spawn()
        .expect("trainer starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("a line");
    let base = line
        .trim()
        .strip_prefix("listening on ")
        .expect("the bound address")
        .to_owned();
    Some(Server { child, base })
}

async fn post(client: &reqwest::Client, server: &Server, body: Value) -> (u16, Value) {
    let res = client
        .post(format!("{}/v1/chat/completions", server.base))
        .json(&body)
        .send()
        .await
        .expect("answers");
    let status = res.status().as_u16();
    (status, res.json().await.expect("json"))
}

async fn get(client: &reqwest::Client, server: &Server, path: &str) -> Value {
    client
        .get(format!("{}{path}", server.base))
        .send()
        .await
        .expect("answers")
        .json()
        .await
        .expect("json")
}

#[tokio::test]
async fn chat_completions_over_http() {
    let Some(server) = start() else { return };
    let client = reqwest::Client::new();
    let models = get(&client, &server, "/v1/models").await;
    assert_eq!(models["data"][0]["id"], "SmolLM2-135M-Instruct");

    let messages =
        json!([{"role": "user", "content": "Write a C++ program that adds two numbers."}]);
    let body =
        json!({"messages": messages, "max_tokens": 12, "temperature": 0.7, "seed": 42, "n": 2});
    // Two requests at once (batched together by the worker) with the same seed.
    let (one, two) = tokio::join!(
        post(&client, &server, body.clone()),
        post(&client, &server, body.clone())
    );
    assert_eq!(one.0, 200, "{}", one.1);
    assert_eq!(one.1["choices"].as_array().map(Vec::len), Some(2));
    assert_eq!(
        one.1["choices"][0]["message"]["content"], two.1["choices"][0]["message"]["content"],
        "seeded"
    );
    let usage = &one.1["usage"];
    let completion = usage["completion_tokens"].as_u64().expect("usage");
    assert!(completion > 0 && completion <= 24, "{usage}");
    assert_eq!(
        usage["total_tokens"].as_u64(),
        Some(usage["prompt_tokens"].as_u64().expect("prompt") + completion)
    );
    for logprob in one.1["choices"][0]["logprobs"]["content"]
        .as_array()
        .expect("logprobs")
    {
        assert!(logprob["logprob"].as_f64().expect("number") <= 0.0);
    }

    // Streaming: chunks of text, a finish reason, then [DONE].
    let mut body =
        json!({"messages": messages, "max_tokens": 6, "temperature": 0.0, "stream": true});
    let text = client
        .post(format!("{}/v1/chat/completions", server.base))
        .json(&body)
        .send()
        .await
        .expect("answers")
        .text()
        .await
        .expect("text");
    let data: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .collect();
    assert_eq!(data.last(), Some(&"[DONE]"), "{text}");
    let streamed: String = data
        .iter()
        .filter_map(|d| serde_json::from_str::<Value>(d).ok())
        .filter_map(|c| {
            c["choices"][0]["delta"]["content"]
                .as_str()
                .map(str::to_owned)
        })
        .collect();
    body["stream"] = json!(false);
    let (_, whole) = post(&client, &server, body).await;
    assert_eq!(
        whole["choices"][0]["message"]["content"].as_str(),
        Some(streamed.as_str())
    );

    // Bad input: a clear 400, no panic.
    let (status, err) = post(&client, &server, json!({"messages": []})).await;
    assert_eq!(status, 400);
    assert_eq!(err["error"]["message"], "`messages` is empty");
    let (status, err) = post(
        &client,
        &server,
        json!({"messages": messages, "max_tokens": 100000}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        err["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("exceed the context"),
        "{err}"
    );
}

/// The token ids of a reply's first choice.
fn token_ids(reply: &Value) -> Vec<i64> {
    reply["choices"][0]["logprobs"]["content"]
        .as_array()
        .expect("logprobs")
        .iter()
        .map(|t| t["token_id"].as_i64().expect("token id"))
        .collect()
}

#[tokio::test]
async fn requests_with_different_seeds_share_token_steps_and_keep_their_replies() {
    let Some(server) = start() else { return };
    let client = reqwest::Client::new();
    let messages =
        json!([{"role": "user", "content": "Write a C++ program that adds two numbers."}]);
    let short = json!({"messages": messages, "max_tokens": 5, "temperature": 1.0, "seed": 7});
    let (status, alone) = post(&client, &server, short.clone()).await;
    assert_eq!(status, 200, "{alone}");
    let before = get(&client, &server, "/stats").await;
    assert_eq!(before["policy_version"], 0);

    // A long request with another seed and temperature is decoding (its first token has
    // been streamed) when the short one arrives: the short one joins it at the token step.
    let mut long = client
        .post(format!("{}/v1/chat/completions", server.base))
        .json(
            &json!({"messages": messages, "max_tokens": 48, "temperature": 0.9,
                      "seed": 1234, "stream": true}),
        )
        .send()
        .await
        .expect("answers");
    let mut streamed =
        String::from_utf8(long.chunk().await.expect("read").expect("a chunk").to_vec())
            .expect("utf-8");
    assert!(streamed.starts_with("data: "), "{streamed}");
    let (status, among) = post(&client, &server, short).await;
    assert_eq!(status, 200, "{among}");
    while let Some(bytes) = long.chunk().await.expect("read") {
        streamed.push_str(std::str::from_utf8(&bytes).expect("utf-8"));
    }
    assert!(streamed.trim_end().ends_with("data: [DONE]"), "{streamed}");
    assert!(
        streamed.contains(r#""finish_reason":"length""#),
        "{streamed}"
    );

    // Same seed, same reply, whatever shared the batch.
    assert_eq!(token_ids(&among), token_ids(&alone));
    assert_eq!(
        among["choices"][0]["message"]["content"],
        alone["choices"][0]["message"]["content"]
    );
    assert_eq!(among["policy_version"], 0);
    let after = get(&client, &server, "/stats").await;
    let shared = after["shared_steps"].as_u64().expect("shared_steps")
        - before["shared_steps"].as_u64().expect("shared_steps");
    let short_tokens = token_ids(&among).len() as u64;
    assert!(
        shared >= short_tokens,
        "every step of the short request decoded the long one too: {before} then {after}"
    );
    assert!(after["max_live"].as_u64() >= Some(2), "{after}");
}

async fn score(client: &reqwest::Client, server: &Server, body: Value) -> (u16, Value) {
    let res = client
        .post(format!("{}/v1/completions", server.base))
        .json(&body)
        .send()
        .await
        .expect("answers");
    let status = res.status().as_u16();
    (status, res.json().await.expect("json"))
}

/// A reply sampled at temperature 1, then its prompt and reply scored whole: each reply
/// token's log-probability is the one it was drawn with, each position's top tokens are
/// the most likely first, and a request the endpoint does not serve is refused by name.
#[tokio::test]
async fn completions_score_a_prompt_with_the_logprobs_the_sampler_drew_with() {
    let Some(server) = start_with(&["--dtype", "f32"]) else {
        return;
    };
    let Some(dir) = ci::require::env_path("ARENA_MODEL_DIR") else {
        return;
    };
    let tokenizer = trainer::tokenizer::ChatTokenizer::load(&dir).expect("tokenizer");
    let client = reqwest::Client::new();
    let content = "Write a C++ program that adds two numbers.";
    let body = json!({"messages": [{"role": "user", "content": content}], "max_tokens": 8,
                      "temperature": 1.0, "top_p": 1.0, "seed": 11});
    let (status, reply) = post(&client, &server, body).await;
    assert_eq!(status, 200, "{reply}");
    let sampled: Vec<f64> = reply["choices"][0]["logprobs"]["content"]
        .as_array()
        .expect("logprobs")
        .iter()
        .map(|t| t["logprob"].as_f64().expect("logprob"))
        .collect();
    let text = tokenizer
        .apply_chat_template(
            &[trainer::tokenizer::Message {
                role: "user".to_owned(),
                content: content.to_owned(),
            }],
            true,
        )
        .expect("template");
    let prompt = tokenizer.encode(&text).expect("prompt");
    let mut ids = prompt.clone();
    ids.extend(token_ids(&reply));
    let (status, scored) = score(
        &client,
        &server,
        json!({"prompt": ids, "echo": true, "max_tokens": 0, "logprobs": 3}),
    )
    .await;
    assert_eq!(status, 200, "{scored}");
    let choice = &scored["choices"][0];
    let echoed: Vec<i64> = choice["token_ids"]
        .as_array()
        .expect("token_ids")
        .iter()
        .map(|v| v.as_i64().expect("id"))
        .collect();
    assert_eq!(echoed, ids);
    let logprobs = choice["logprobs"]["token_logprobs"]
        .as_array()
        .expect("logprobs");
    assert_eq!(logprobs.len(), ids.len());
    assert!(logprobs[0].is_null());
    assert_eq!(
        choice["logprobs"]["tokens"]
            .as_array()
            .expect("tokens")
            .len(),
        ids.len()
    );
    for (j, want) in sampled.iter().enumerate() {
        let p = prompt.len() + j;
        let got = logprobs[p].as_f64().expect("a logprob");
        assert!(
            (got - want).abs() < 1e-3,
            "token {j}: scored {got}, sampled with {want}"
        );
        let top = choice["top_token_ids"][p].as_array().expect("top");
        assert_eq!(top.len(), 3);
        let values: Vec<f64> = top
            .iter()
            .map(|t| t["logprob"].as_f64().expect("v"))
            .collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
        assert!(values[0] >= got - 1e-9);
        if top[0]["token_id"].as_i64() == Some(ids[p]) {
            assert!((values[0] - got).abs() < 1e-9);
        }
    }
    // A text prompt is encoded as the tokenizer encodes it.
    let (status, by_text) = score(
        &client,
        &server,
        json!({"prompt": text, "echo": true, "max_tokens": 0}),
    )
    .await;
    assert_eq!(status, 200, "{by_text}");
    assert_eq!(by_text["choices"][0]["token_ids"], json!(prompt));
    // What the endpoint does not serve.
    for (body, named) in [
        (
            json!({"prompt": "a b", "echo": true, "max_tokens": 5}),
            "max_tokens",
        ),
        (json!({"prompt": "a b", "max_tokens": 0}), "echo"),
        (
            json!({"prompt": "a b", "echo": true, "max_tokens": 0, "logprobs": 21}),
            "logprobs",
        ),
        (
            json!({"prompt": [1, 1_000_000_000], "echo": true, "max_tokens": 0}),
            "vocabulary",
        ),
    ] {
        let (status, err) = score(&client, &server, body.clone()).await;
        assert_eq!(status, 400, "{body}: {err}");
        let message = err["error"]["message"].as_str().expect("message");
        assert!(message.contains(named), "{body}: {message}");
    }
}
