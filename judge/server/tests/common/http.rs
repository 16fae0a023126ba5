//! A plain HTTP/1.1 client for the tests that speak to the service on a real TCP
//! listener (`jury_page.rs`, `control.rs`): one request per connection, the answer read
//! to its end, a chunked body decoded; as nobody, with a bearer token or with the
//! page's cookie.

use std::net::SocketAddr;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// An answer: status, headers (names in lower case) and body.
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.text()))
    }
}

/// Who a request goes as.
#[derive(Clone, Copy)]
pub(crate) enum As<'a> {
    Nobody,
    /// `Authorization: Bearer`.
    Bearer(&'a str),
    /// A web page session (`Cookie: arena_session=ID`); its forms carry `csrf`.
    Session {
        /// The cookie's value.
        id: &'a str,
        /// The session's CSRF token, added to every form sent.
        csrf: &'a str,
    },
}

/// A body and its content type.
pub(crate) enum Body<'a> {
    Nothing,
    Json(&'a Value),
    /// Plain text (`text/plain`).
    Text(&'a str),
    Form(&'a [(&'a str, &'a str)]),
    /// `multipart/form-data`: the parts in order (a session's CSRF token first).
    Multipart(&'a [Part<'a>]),
    /// Bytes of a content type.
    Raw(&'a [u8], &'a str),
}

/// One part of a multipart form: a field, or a file when it has a file name.
#[derive(Clone, Copy)]
pub(crate) struct Part<'a> {
    pub(crate) name: &'a str,
    pub(crate) file_name: Option<&'a str>,
    pub(crate) bytes: &'a [u8],
}

/// The boundary between the parts of a multipart body.
const BOUNDARY: &str = "arena-test-boundary-7MA4YWxkTrZu0gW";

/// The body of a multipart form of `parts`.
fn multipart(parts: &[Part<'_>]) -> Vec<u8> {
    let mut out = Vec::new();
    for part in parts {
        out.extend_from_slice(format!("--{BOUNDARY}\r\n").as_bytes());
        let disposition = match part.file_name {
            Some(file) => format!(
                "Content-Disposition: form-data; name=\"{}\"; filename=\"{file}\"\r\n\
                 Content-Type: application/octet-stream\r\n",
                part.name
            ),
            None => format!("Content-Disposition: form-data; name=\"{}\"\r\n", part.name),
        };
        out.extend_from_slice(disposition.as_bytes());
        out.extend_from_slice(b"\r\n");
        out.extend_from_slice(part.bytes);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(format!("--{BOUNDARY}--\r\n").as_bytes());
    out
}

/// Percent-encodes a form value.
pub(crate) fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                char::from(b).to_string()
            }
            b' ' => "+".to_owned(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// One HTTP/1.1 request on a new connection (`Connection: close`), the answer read to
/// its end (a chunked body decoded).
pub(crate) async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    who: As<'_>,
    send: Body<'_>,
) -> Answer {
    let (content_type, body) = match send {
        Body::Nothing => (None, Vec::new()),
        Body::Json(value) => (
            Some("application/json".to_owned()),
            value.to_string().into_bytes(),
        ),
        Body::Text(text) => (Some("text/plain".to_owned()), text.as_bytes().to_vec()),
        Body::Raw(bytes, kind) => (Some(kind.to_owned()), bytes.to_vec()),
        Body::Form(fields) => {
            let csrf = match who {
                As::Session { csrf, .. } if !fields.iter().any(|(k, _)| *k == "csrf") => {
                    Some(("csrf", csrf))
                }
                _ => None,
            };
            let text: Vec<String> = fields
                .iter()
                .copied()
                .chain(csrf)
                .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                .collect();
            (
                Some("application/x-www-form-urlencoded".to_owned()),
                text.join("&").into_bytes(),
            )
        }
        Body::Multipart(parts) => {
            let csrf = match who {
                As::Session { csrf, .. } if !parts.iter().any(|p| p.name == "csrf") => Some(Part {
                    name: "csrf",
                    file_name: None,
                    bytes: csrf.as_bytes(),
                }),
                _ => None,
            };
            let all: Vec<Part<'_>> = csrf.into_iter().chain(parts.iter().copied()).collect();
            (
                Some(format!("multipart/form-data; boundary={BOUNDARY}")),
                multipart(&all),
            )
        }
    };
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(kind) = content_type {
        head.push_str(&format!("Content-Type: {kind}\r\n"));
    }
    match who {
        As::Nobody => {}
        As::Bearer(token) => head.push_str(&format!("Authorization: Bearer {token}\r\n")),
        As::Session { id, .. } => head.push_str(&format!("Cookie: arena_session={id}\r\n")),
    }
    head.push_str("\r\n");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(head.as_bytes()).await.expect("send head");
    stream.write_all(&body).await.expect("send body");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read answer");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an answer head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    if chunked {
        body = dechunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

/// The data of a chunked body.
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = raw
            .windows(2)
            .position(|w| w == b"\r\n")
            .expect("a chunk size line");
        let size = std::str::from_utf8(&raw[..end])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next().unwrap_or("").trim(), 16).ok())
            .expect("a chunk size");
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

/// Logs in to contest `cid` through the page's form with `token`: the session's cookie
/// value and its CSRF token (read from the contest's page), or `None` when the login is
/// refused.
pub(crate) async fn login(addr: SocketAddr, cid: &str, token: &str) -> Option<(String, String)> {
    let path = format!("/contests/{cid}/login");
    let answer = request(
        addr,
        "POST",
        &path,
        As::Nobody,
        Body::Form(&[("token", token)]),
    )
    .await;
    if answer.status != 303 {
        return None;
    }
    let cookie = answer.header("set-cookie").expect("a session cookie");
    let id = cookie
        .strip_prefix("arena_session=")
        .and_then(|rest| rest.split(';').next())
        .expect("arena_session=ID")
        .to_owned();
    let page = request(
        addr,
        "GET",
        &format!("/contests/{cid}"),
        As::Session { id: &id, csrf: "" },
        Body::Nothing,
    )
    .await
    .text();
    let from = page
        .find("name=csrf value='")
        .expect("a form with the CSRF token")
        + 17;
    let len = page[from..].find('\'').expect("the token ends");
    Some((id, page[from..from + len].to_owned()))
}
