//! End-to-end test of `trainer serve`: the real binary with the bundled SmolLM2 on port 0,
//! called over HTTP like any OpenAI-compatible server. Under `CI=true` a missing model
//! fails the test.

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
    let model = ci::require::env_path("ARENA_MODEL_DIR")?;
    let mut child = Command::new(env!("CARGO_BIN_EXE_trainer"))
        .args(["serve", "--listen", "127.0.0.1:0", "--model"])
        .arg(&model)
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
