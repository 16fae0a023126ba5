//! A hindsight teacher at another server (`distill.teacher_url`): a stronger model that
//! scores the student's tokens over HTTP, as vLLM and `trainer serve` do for
//! `POST {teacher_url}/completions` with `echo: true`, `max_tokens: 0` and `logprobs`
//! (a chat completion samples and cannot score given tokens).
//!
//! The prompt goes as token ids, so the teacher reads exactly the student's tokens; that
//! is only meaningful when the teacher shares the student's tokenizer, which
//! [`RemoteTeacher::connect`] checks before training starts: a probe text's ids are
//! scored and the teacher's text of each token (and its ids, when it returns
//! `token_ids`) must be the student's; an answer without log-probabilities is refused
//! too, each with an error naming the URL.
//!
//! The client is a small blocking HTTP/1.1 one over a TCP stream (plain `http://` only):
//! the trainer's thread waits for each answer anyway, and reqwest belongs to the agent's
//! client module.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

use crate::tokenizer::ChatTokenizer;

/// How long one request may take.
const TIMEOUT: Duration = Duration::from_secs(300);

/// A probe text (ASCII, so that every token is whole text) whose tokens the teacher must
/// read as the student does.
const PROBE: &str = "def main():\n    n = int(input())  # read n\n    print(sum(range(n)) * 2, 'Done!')\n\nmain()\n";

/// Where a teacher listens: host, port and the API's base path (`/v1`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Endpoint {
    host: String,
    port: u16,
    base: String,
}

fn endpoint(url: &str) -> anyhow::Result<Endpoint> {
    let rest = url.strip_prefix("http://").ok_or_else(|| {
        anyhow::anyhow!(
            "distill.teacher_url {url}: only plain http:// is spoken (run the teacher beside the trainer or behind a local proxy)"
        )
    })?;
    let (authority, base) = match rest.find('/') {
        Some(i) => (&rest[..i], rest[i..].trim_end_matches('/')),
        None => (rest, ""),
    };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) => (
            h,
            p.parse::<u16>()
                .map_err(|_| anyhow::anyhow!("distill.teacher_url {url}: bad port {p:?}"))?,
        ),
        None => (authority, 80),
    };
    if host.is_empty() {
        anyhow::bail!("distill.teacher_url {url}: no host");
    }
    Ok(Endpoint {
        host: host.to_owned(),
        port,
        base: base.to_owned(),
    })
}

/// The body of an HTTP/1.1 answer whose bytes are `raw` (chunked or not), with its status.
fn parse_response(raw: &[u8]) -> anyhow::Result<(u16, Vec<u8>)> {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| anyhow::anyhow!("an answer without a header's end"))?;
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let body = &raw[split + 4..];
    let status = head
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| anyhow::anyhow!("an answer without a status line"))?;
    let chunked = head.lines().any(|l| {
        let l = l.to_ascii_lowercase();
        l.starts_with("transfer-encoding:") && l.contains("chunked")
    });
    if !chunked {
        return Ok((status, body.to_vec()));
    }
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        let end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .ok_or_else(|| anyhow::anyhow!("a chunk without its size line"))?;
        let size_text = String::from_utf8_lossy(&rest[..end]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .map_err(|_| anyhow::anyhow!("a bad chunk size {size_text:?}"))?;
        rest = &rest[end + 2..];
        if size == 0 {
            return Ok((status, out));
        }
        if rest.len() < size {
            anyhow::bail!("a chunk shorter than its size");
        }
        out.extend_from_slice(&rest[..size]);
        rest = rest.get(size + 2..).unwrap_or_default();
    }
}

fn post(endpoint: &Endpoint, path: &str, body: &Value) -> anyhow::Result<(u16, Value)> {
    let mut stream = TcpStream::connect((endpoint.host.as_str(), endpoint.port))?;
    stream.set_read_timeout(Some(TIMEOUT))?;
    stream.set_write_timeout(Some(TIMEOUT))?;
    let text = body.to_string();
    write!(
        stream,
        "POST {}{path} HTTP/1.1\r\nHost: {}:{}\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
        endpoint.base,
        endpoint.host,
        endpoint.port,
        text.len()
    )?;
    stream.flush()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;
    let (status, body) = parse_response(&raw)?;
    let value = serde_json::from_slice(&body).map_err(|e| {
        anyhow::anyhow!(
            "status {status}, an answer that is not JSON ({e}): {}",
            String::from_utf8_lossy(&body[..body.len().min(200)])
        )
    })?;
    Ok((status, value))
}

/// A teacher at `{url}/completions`, checked to share the student's tokenizer.
#[derive(Debug)]
pub struct RemoteTeacher {
    url: String,
    endpoint: Endpoint,
    model: Option<String>,
}

impl RemoteTeacher {
    /// Connects to the teacher at `url` (the API base, e.g. `http://127.0.0.1:8000/v1`)
    /// under the model name `model` (vLLM needs it), and checks it: it scores a probe
    /// with log-probabilities, and reads its ids as `tokenizer`'s tokens.
    pub fn connect(
        url: &str,
        model: Option<String>,
        tokenizer: &ChatTokenizer,
    ) -> anyhow::Result<RemoteTeacher> {
        let teacher = RemoteTeacher {
            url: url.to_owned(),
            endpoint: endpoint(url)?,
            model,
        };
        let ids = tokenizer.encode(PROBE)?;
        let choice = teacher.ask(&ids)?;
        teacher.logprobs_of(&choice, ids.len())?;
        if let Some(theirs) = choice.get("token_ids").and_then(Value::as_array) {
            let theirs: Vec<Option<i64>> = theirs.iter().map(Value::as_i64).collect();
            let ours: Vec<Option<i64>> = ids.iter().map(|i| Some(*i)).collect();
            if theirs != ours {
                anyhow::bail!(
                    "distill.teacher_url {url}: the teacher's tokenizer is not the student's: it read the probe's {} ids as {} others",
                    ids.len(),
                    theirs.len()
                );
            }
        }
        let texts = choice["logprobs"]["tokens"].as_array().ok_or_else(|| {
            anyhow::anyhow!(
                "distill.teacher_url {url}: the answer names no tokens (choices[0].logprobs.tokens), so its tokenizer cannot be checked"
            )
        })?;
        if texts.len() != ids.len() {
            anyhow::bail!(
                "distill.teacher_url {url}: the teacher's tokenizer is not the student's: the probe's {} tokens came back as {}",
                ids.len(),
                texts.len()
            );
        }
        for (i, (id, text)) in ids.iter().zip(texts).enumerate() {
            let ours = tokenizer.decode(&[*id])?;
            if text.as_str() != Some(ours.as_str()) {
                anyhow::bail!(
                    "distill.teacher_url {url}: the teacher's tokenizer is not the student's: token {i} (id {id}) is {text} there and {ours:?} here"
                );
            }
        }
        Ok(teacher)
    }

    fn ask(&self, ids: &[i64]) -> anyhow::Result<Value> {
        let mut body = json!({"prompt": ids, "echo": true, "max_tokens": 0, "logprobs": 1});
        if let Some(m) = &self.model {
            body["model"] = json!(m);
        }
        let (status, answer) = post(&self.endpoint, "/completions", &body)
            .map_err(|e| anyhow::anyhow!("distill.teacher_url {}: {e}", self.url))?;
        if status != 200 {
            anyhow::bail!(
                "distill.teacher_url {}: status {status}: {}",
                self.url,
                answer["error"]["message"]
                    .as_str()
                    .unwrap_or("(no message)")
            );
        }
        Ok(answer["choices"][0].clone())
    }

    /// The log-probability of each of `n` prompt tokens but the first (entry `k - 1`
    /// scores token `k`), from an answer's `logprobs.token_logprobs`.
    fn logprobs_of(&self, choice: &Value, n: usize) -> anyhow::Result<Vec<f64>> {
        let missing = || {
            anyhow::anyhow!(
                "distill.teacher_url {}: the answer has no log-probabilities of the prompt's tokens (choices[0].logprobs.token_logprobs): the teacher must score prompts (/v1/completions with echo: true, max_tokens: 0, logprobs)",
                self.url
            )
        };
        let values = choice["logprobs"]["token_logprobs"]
            .as_array()
            .ok_or_else(missing)?;
        if values.len() != n {
            return Err(missing());
        }
        values[1..]
            .iter()
            .map(|v| v.as_f64().filter(|x| x.is_finite()).ok_or_else(missing))
            .collect()
    }

    /// The teacher's log-probability of every token of `ids` but the first (entry
    /// `k - 1` scores token `k`, as `grpo::logprob::sequence_logprobs` lays it out).
    pub fn score(&self, ids: &[i64]) -> anyhow::Result<Vec<f64>> {
        let choice = self.ask(ids)?;
        self.logprobs_of(&choice, ids.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_teacher_url_is_plain_http_with_a_host_and_a_base_path() {
        assert_eq!(
            endpoint("http://127.0.0.1:8000/v1/").expect("ok"),
            Endpoint {
                host: "127.0.0.1".to_owned(),
                port: 8000,
                base: "/v1".to_owned()
            }
        );
        assert_eq!(endpoint("http://teacher").expect("ok").port, 80);
        let err = endpoint("https://teacher/v1").expect_err("tls").to_string();
        assert!(
            err.contains("distill.teacher_url https://teacher/v1"),
            "{err}"
        );
        assert!(endpoint("http://:80/v1").is_err());
        assert!(endpoint("http://h:port/v1").is_err());
    }

    #[test]
    fn answers_are_read_with_or_without_chunks() {
        let plain = b"HTTP/1.1 200 OK\r\ncontent-length: 7\r\n\r\n{\"a\":1}";
        assert_eq!(
            parse_response(plain).expect("plain"),
            (200, b"{\"a\":1}".to_vec())
        );
        let chunked =
            b"HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n4\r\n\":1}\r\n0\r\n\r\n";
        assert_eq!(
            parse_response(chunked).expect("chunked"),
            (400, b"{\"a\":1}".to_vec())
        );
        assert!(parse_response(b"HTTP/1.1 200 OK\r\n").is_err());
    }
}
