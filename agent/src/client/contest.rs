//! A participant's client of the contest server's CLICS Contest API (2023-06, as
//! `judge serve` serves it under `/api`): what a human team reads and does during a
//! contest, with its bearer token.
//!
//! Reads: the contest, its state, the problems with their statements (the HTML the
//! server renders, turned into plain text here) and their samples (the `attachments`
//! the server lists once the contest has started: each case's `.in` and `.ans`), the
//! scoreboard (frozen for teams, as the server decides), the judgement types, and the
//! team's own submissions and judgements. Writes: a submission, as source text (the
//! server's `source` extension beside CLICS's base64 zip; the agent builds no zip
//! archives, which keeps it off the server's stack).
//!
//! Every object is `leaderboard::clics`'s typed one; what the API gives that is not an
//! object (the statement, a sample file) is text.
//!
//! Errors say what a participant needs to know ([`ContestError`]): the server cannot be
//! reached, the token was refused (401, or 403 where the token decides), the contest has
//! not started or is over, a problem has no samples, the rate limit was hit, or an
//! answer was not what the API promises (naming the URL).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use leaderboard::clics::{
    Contest, FileRef, Judgement, JudgementType, Language, Problem, Scoreboard, State, Submission,
    Time,
};
use serde::de::DeserializeOwned;

use crate::task::{Sample, Task};

/// Something a participant's request could not get.
#[derive(Debug, thiserror::Error)]
pub enum ContestError {
    /// The server URL is not an HTTP URL.
    #[error("contest server URL `{url}`: {reason}")]
    BadUrl {
        /// The URL given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// No connection could be made, or it broke.
    #[error("contest server unreachable at {url}: {reason}")]
    Unreachable {
        /// The URL asked.
        url: String,
        /// Why.
        reason: String,
    },
    /// No answer within the request timeout.
    #[error("contest server gave no answer within {timeout:?} at {url}")]
    Timeout {
        /// The URL asked.
        url: String,
        /// The request timeout.
        timeout: Duration,
    },
    /// The server refused the team token (401, or a 403 the token decides).
    #[error("the contest server refused the team token (HTTP {status} at {url}): {message}")]
    TokenRejected {
        /// The URL asked.
        url: String,
        /// 401 or 403.
        status: u16,
        /// The server's message.
        message: String,
    },
    /// The server has no such contest.
    #[error("the contest server has no contest `{contest}` ({url})")]
    NoContest {
        /// The contest id asked for.
        contest: String,
        /// The URL asked.
        url: String,
    },
    /// The contest has not started: statements, samples and submissions wait for it.
    #[error("contest `{contest}` has not started{}", starts_at.map(|t| format!(" (it starts at {t})")).unwrap_or_default())]
    NotStarted {
        /// The contest.
        contest: String,
        /// Its scheduled start, when known.
        starts_at: Option<Time>,
    },
    /// The contest is over: nothing more can be submitted.
    #[error("contest `{contest}` is over{}", ended_at.map(|t| format!(" (it ended at {t})")).unwrap_or_default())]
    Ended {
        /// The contest.
        contest: String,
        /// When it ended, when known.
        ended_at: Option<Time>,
    },
    /// A problem offers no sample (no `.in`/`.ans` pair among its attachments).
    #[error("problem `{problem}` of contest `{contest}` has no samples")]
    NoSamples {
        /// The contest.
        contest: String,
        /// The problem.
        problem: String,
    },
    /// The server's rate limit (HTTP 429).
    #[error("the contest server's rate limit: {message}")]
    RateLimited {
        /// The server's message.
        message: String,
        /// How long the server asked to wait (`retry-after`), when it said.
        retry_after: Option<Duration>,
    },
    /// Any other refusal, with the server's message.
    #[error("HTTP {status} at {url}: {message}")]
    Status {
        /// The URL asked.
        url: String,
        /// The status.
        status: u16,
        /// The server's message (CLICS `message`, else the start of the body).
        message: String,
    },
    /// A 200 answer that is not what the API promises.
    #[error("the answer at {url} is not {what}: {reason}")]
    BadAnswer {
        /// The URL asked.
        url: String,
        /// What it should have been.
        what: &'static str,
        /// What was wrong.
        reason: String,
    },
}

/// A problem as a participant reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemText {
    /// The CLICS object (id, label, name, time limit, file references).
    pub problem: Problem,
    /// The statement as plain text (from its HTML); empty when the server offers no
    /// text statement (a PDF only), see [`ProblemText::statement_pdf`].
    pub statement: String,
    /// The PDF statement's reference, when the server offers one.
    pub statement_pdf: Option<FileRef>,
    /// The samples, in name order.
    pub samples: Vec<Sample>,
}

impl ProblemText {
    /// The samples, or [`ContestError::NoSamples`] when there are none.
    pub fn require_samples(&self, contest: &str) -> Result<&[Sample], ContestError> {
        if self.samples.is_empty() {
            return Err(ContestError::NoSamples {
                contest: contest.to_owned(),
                problem: self.problem.id.clone(),
            });
        }
        Ok(&self.samples)
    }

    /// The task the solve loop works on: the statement text (the problem's name as a
    /// heading, and a note when the server offers a PDF only), the samples, the time
    /// limit the server states, and `memory_bytes` (the API states no memory limit, so
    /// the caller's assumption). No package: live, the runner checks samples with the
    /// default output validator and the server judges.
    pub fn task(&self, memory_bytes: u64) -> Task {
        let (statement, format) = if self.statement.trim().is_empty() {
            let note = match &self.statement_pdf {
                Some(pdf) => format!(
                    "(The statement is a PDF, {}, which the agent cannot read; the samples below are all it has.)",
                    pdf.filename.as_deref().unwrap_or(&pdf.href)
                ),
                None => "(The server offers no statement; the samples below are all there is.)"
                    .to_owned(),
            };
            (format!("# {}\n\n{note}\n", self.problem.name), "none")
        } else {
            (self.statement.clone(), "contest")
        };
        Task {
            id: self.problem.id.clone(),
            name: self.problem.name.clone(),
            statement,
            statement_format: format.to_owned(),
            samples: self.samples.clone(),
            time_limit: self
                .problem
                .time_limit
                .map_or(DEFAULT_TIME_LIMIT, |t| Duration::from_millis(t.millis())),
            memory_bytes,
            package: None,
        }
    }
}

/// The time limit assumed when the server states none (CLICS makes it optional).
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(1);

/// The client of one contest on one server, as one team.
#[derive(Debug, Clone)]
pub struct ContestClient {
    http: reqwest::Client,
    /// The API root, `http://host:port/api` (no trailing `/`).
    api: String,
    contest: String,
    token: String,
    timeout: Duration,
}

impl ContestClient {
    /// A client of contest `contest` at `server` (`http://host:port`, or a URL ending in
    /// `/api`) with the team's `token`; each request times out after `timeout`.
    pub fn new(
        server: &str,
        contest: &str,
        token: &str,
        timeout: Duration,
    ) -> Result<ContestClient, ContestError> {
        let api = api_root(server)?;
        let http = reqwest::Client::builder()
            .timeout(timeout)
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|err| ContestError::BadUrl {
                url: server.to_owned(),
                reason: format!("cannot build an HTTP client: {err}"),
            })?;
        Ok(ContestClient {
            http,
            api,
            contest: contest.to_owned(),
            token: token.to_owned(),
            timeout,
        })
    }

    /// The contest id.
    pub fn contest_id(&self) -> &str {
        &self.contest
    }

    /// The API root this client speaks to.
    pub fn api_root(&self) -> &str {
        &self.api
    }

    fn contest_url(&self, rest: &str) -> String {
        if rest.is_empty() {
            format!("{}/contests/{}", self.api, self.contest)
        } else {
            format!("{}/contests/{}/{rest}", self.api, self.contest)
        }
    }

    /// A file reference's URL: absolute as given, else relative to the API root.
    fn file_url(&self, file: &FileRef) -> String {
        if file.href.starts_with("http://") || file.href.starts_with("https://") {
            file.href.clone()
        } else {
            format!("{}/{}", self.api, file.href.trim_start_matches('/'))
        }
    }

    async fn get_text(&self, url: &str) -> Result<String, ContestError> {
        let request = self.http.get(url).bearer_auth(&self.token);
        let response = request
            .send()
            .await
            .map_err(|err| self.transport(url, &err))?;
        let status = response.status().as_u16();
        let retry_after = retry_after(response.headers());
        let body = response
            .text()
            .await
            .map_err(|err| self.transport(url, &err))?;
        if status == 200 {
            Ok(body)
        } else {
            Err(self.refusal(url, status, &body, retry_after))
        }
    }

    async fn get_json<T: DeserializeOwned>(
        &self,
        url: &str,
        what: &'static str,
    ) -> Result<T, ContestError> {
        let body = self.get_text(url).await?;
        parse(url, what, &body)
    }

    fn transport(&self, url: &str, err: &reqwest::Error) -> ContestError {
        if err.is_timeout() {
            return ContestError::Timeout {
                url: url.to_owned(),
                timeout: self.timeout,
            };
        }
        let mut reason = err.to_string();
        let mut source = std::error::Error::source(err);
        while let Some(cause) = source {
            reason.push_str(": ");
            reason.push_str(&cause.to_string());
            source = cause.source();
        }
        ContestError::Unreachable {
            url: url.to_owned(),
            reason,
        }
    }

    /// A non-200 answer as the error a participant understands.
    fn refusal(
        &self,
        url: &str,
        status: u16,
        body: &str,
        retry_after: Option<Duration>,
    ) -> ContestError {
        let message = server_message(body);
        match status {
            401 => ContestError::TokenRejected {
                url: url.to_owned(),
                status,
                message,
            },
            429 => ContestError::RateLimited {
                message,
                retry_after,
            },
            403 if message.contains("not started")
                || message.contains("once the contest has started") =>
            {
                ContestError::NotStarted {
                    contest: self.contest.clone(),
                    starts_at: None,
                }
            }
            403 if message.contains("is over") => ContestError::Ended {
                contest: self.contest.clone(),
                ended_at: None,
            },
            403 if message.contains("cannot submit as") || message.contains("token") => {
                ContestError::TokenRejected {
                    url: url.to_owned(),
                    status,
                    message,
                }
            }
            404 if message.contains(&format!("contest `{}`", self.contest)) => {
                ContestError::NoContest {
                    contest: self.contest.clone(),
                    url: url.to_owned(),
                }
            }
            _ => ContestError::Status {
                url: url.to_owned(),
                status,
                message,
            },
        }
    }

    /// The contest (public).
    pub async fn contest(&self) -> Result<Contest, ContestError> {
        let url = self.contest_url("");
        match self.get_json(&url, "a CLICS contest").await {
            Err(ContestError::Status { status: 404, .. }) => Err(ContestError::NoContest {
                contest: self.contest.clone(),
                url,
            }),
            other => other,
        }
    }

    /// The contest's state now.
    pub async fn state(&self) -> Result<State, ContestError> {
        self.get_json(&self.contest_url("state"), "a CLICS contest state")
            .await
    }

    /// Checks the team token: the team's own submissions are readable with it (an
    /// unknown token is refused with 401 there, never answered as the public).
    pub async fn check_token(&self) -> Result<(), ContestError> {
        self.submissions().await.map(|_| ())
    }

    /// The problems, in contest order (with their file references once the contest has
    /// started).
    pub async fn problems(&self) -> Result<Vec<Problem>, ContestError> {
        let mut problems: Vec<Problem> = self
            .get_json(&self.contest_url("problems"), "a list of CLICS problems")
            .await?;
        problems.sort_by_key(|p| p.ordinal);
        Ok(problems)
    }

    /// The languages the contest allows.
    pub async fn languages(&self) -> Result<Vec<Language>, ContestError> {
        self.get_json(&self.contest_url("languages"), "a list of CLICS languages")
            .await
    }

    /// The judgement types (which verdicts solve, which cost penalty time).
    pub async fn judgement_types(&self) -> Result<Vec<JudgementType>, ContestError> {
        self.get_json(
            &self.contest_url("judgement-types"),
            "a list of CLICS judgement types",
        )
        .await
    }

    /// The scoreboard as this team may see it.
    pub async fn scoreboard(&self) -> Result<Scoreboard, ContestError> {
        self.get_json(&self.contest_url("scoreboard"), "a CLICS scoreboard")
            .await
    }

    /// The team's own submissions.
    pub async fn submissions(&self) -> Result<Vec<Submission>, ContestError> {
        self.get_json(
            &self.contest_url("submissions"),
            "a list of CLICS submissions",
        )
        .await
    }

    /// The judgements of the team's own submissions, in the server's order: older
    /// first. [`leaderboard::clics::counting_judgements`] relies on that order; `judge
    /// serve` lists judgements in the order it wrote them (tested by its store).
    pub async fn judgements(&self) -> Result<Vec<Judgement>, ContestError> {
        self.get_json(
            &self.contest_url("judgements"),
            "a list of CLICS judgements",
        )
        .await
    }

    /// Reads one problem as a participant: its statement as text and its samples.
    /// Before the start the server lists no files: [`ContestError::NotStarted`].
    pub async fn read_problem(&self, problem: &Problem) -> Result<ProblemText, ContestError> {
        if problem.statement.is_none() && problem.attachments.is_none() {
            return Err(ContestError::NotStarted {
                contest: self.contest.clone(),
                starts_at: None,
            });
        }
        let statements = problem.statement.as_deref().unwrap_or_default();
        let html = statements
            .iter()
            .find(|f| f.mime == "text/html" || f.href.ends_with("/statement"));
        let statement = match html {
            Some(file) => html_to_text(&self.get_text(&self.file_url(file)).await?),
            None => String::new(),
        };
        let statement_pdf = statements
            .iter()
            .find(|f| f.mime == "application/pdf")
            .cloned();
        let mut inputs = BTreeMap::new();
        let mut answers = BTreeMap::new();
        for file in problem.attachments.as_deref().unwrap_or_default() {
            let name = file
                .filename
                .clone()
                .unwrap_or_else(|| file.href.rsplit('/').next().unwrap_or_default().to_owned());
            let (stem, map) = if let Some(stem) = name.strip_suffix(".in") {
                (stem.to_owned(), &mut inputs)
            } else if let Some(stem) = name.strip_suffix(".ans") {
                (stem.to_owned(), &mut answers)
            } else {
                continue;
            };
            map.insert(stem, self.get_text(&self.file_url(file)).await?);
        }
        let mut samples: Vec<Sample> = inputs
            .into_iter()
            .filter_map(|(name, input)| {
                let answer = answers.remove(&name)?;
                Some(Sample {
                    name,
                    input,
                    answer,
                })
            })
            .collect();
        samples.sort_by(|a, b| natural_order(&a.name, &b.name));
        Ok(ProblemText {
            problem: problem.clone(),
            statement,
            statement_pdf,
            samples,
        })
    }

    /// Submits `source` in `language_id` for `problem_id`; the server's record of it.
    pub async fn submit(
        &self,
        problem_id: &str,
        language_id: &str,
        source: &str,
    ) -> Result<Submission, ContestError> {
        let url = self.contest_url("submissions");
        let body = serde_json::json!({
            "problem_id": problem_id,
            "language_id": language_id,
            "source": source,
        });
        let response = self
            .http
            .post(&url)
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .map_err(|err| self.transport(&url, &err))?;
        let status = response.status().as_u16();
        let retry_after = retry_after(response.headers());
        let text = response
            .text()
            .await
            .map_err(|err| self.transport(&url, &err))?;
        if status == 200 || status == 201 {
            parse(&url, "a CLICS submission", &text)
        } else {
            Err(self.refusal(&url, status, &text, retry_after))
        }
    }

    /// The judgement of submission `id` that counts, when there is one, by the
    /// leaderboard's rule ([`leaderboard::clics::counting_judgements`]: the newest one
    /// with a verdict; a judge error is judged again by the server, so a later one wins).
    pub async fn judgement_of(&self, id: &str) -> Result<Option<Judgement>, ContestError> {
        let judgements = self.judgements().await?;
        Ok(leaderboard::clics::counting_judgements(&judgements)
            .get(id)
            .map(|judgement| (*judgement).clone()))
    }

    /// Polls the team's judgements every `poll` until submission `id` has a final one
    /// or `patience` has passed (`None` then). A judge error (`JE`) is waited past for
    /// up to `patience` too, since the server judges such a submission again; the JE is
    /// returned when nothing newer comes.
    pub async fn wait_for_judgement(
        &self,
        id: &str,
        poll: Duration,
        patience: Duration,
    ) -> Result<Option<Judgement>, ContestError> {
        let deadline = Instant::now() + patience;
        let mut last = None;
        loop {
            if let Some(judgement) = self.judgement_of(id).await? {
                if judgement.judgement_type_id.as_deref() != Some("JE") {
                    return Ok(Some(judgement));
                }
                last = Some(judgement);
            }
            if Instant::now() + poll > deadline {
                return Ok(last);
            }
            tokio::time::sleep(poll).await;
        }
    }
}

/// `server` normalised to the API root: `http://host:port` gets `/api`; a URL whose path
/// already ends in `/api` is kept.
fn api_root(server: &str) -> Result<String, ContestError> {
    let trimmed = server.trim().trim_end_matches('/');
    let bad = |reason: &str| ContestError::BadUrl {
        url: server.to_owned(),
        reason: reason.to_owned(),
    };
    let url = reqwest::Url::parse(trimmed).map_err(|err| bad(&err.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(bad(&format!(
            "the scheme is `{}`, not http or https",
            url.scheme()
        )));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(bad("a server URL has no query or fragment"));
    }
    Ok(if trimmed.ends_with("/api") {
        trimmed.to_owned()
    } else {
        format!("{trimmed}/api")
    })
}

fn parse<T: DeserializeOwned>(
    url: &str,
    what: &'static str,
    body: &str,
) -> Result<T, ContestError> {
    serde_json::from_str(body).map_err(|err| ContestError::BadAnswer {
        url: url.to_owned(),
        what,
        reason: err.to_string(),
    })
}

/// The server's message: CLICS's `{"code", "message"}`, else the body's start.
fn server_message(body: &str) -> String {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| v["message"].as_str().map(str::to_owned))
        .unwrap_or_else(|| body.chars().take(300).collect::<String>().trim().to_owned())
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let text = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    text.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// Names with numbers in numeric order (`2` before `10`), then by text.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |s: &str| {
        let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
        (digits.parse::<u64>().unwrap_or(u64::MAX), s.to_owned())
    };
    key(a).cmp(&key(b))
}

/// Plain text from the statement's HTML: headings marked with `#`, paragraphs and list
/// items on their own lines, preformatted blocks kept as they are, tags dropped,
/// entities decoded. Enough for the server's rendered Markdown; not a general HTML
/// renderer.
pub fn html_to_text(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    let mut in_pre = false;
    let mut skip = 0usize; // inside <head>, <script>, <style>, <title>
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        if skip == 0 {
            push_text(&mut out, &decode_entities(text), in_pre);
        }
        let Some(close) = rest[open..].find('>') else {
            rest = &rest[open..];
            break;
        };
        let tag = &rest[open + 1..open + close];
        rest = &rest[open + close + 1..];
        let closing = tag.starts_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        match name.as_str() {
            "head" | "script" | "style" | "title" => {
                if closing {
                    skip = skip.saturating_sub(1);
                } else {
                    skip += 1;
                }
            }
            "pre" => {
                in_pre = !closing;
                new_line(&mut out);
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                if closing {
                    new_line(&mut out);
                } else {
                    blank_line(&mut out);
                    let level = name[1..].parse::<usize>().unwrap_or(1);
                    out.push_str(&"#".repeat(level));
                    out.push(' ');
                }
            }
            "p" | "div" | "table" | "ul" | "ol" | "blockquote" => blank_line(&mut out),
            "li" if !closing => {
                new_line(&mut out);
                out.push_str("- ");
            }
            "br" | "tr" => new_line(&mut out),
            "td" | "th" if !closing => out.push(' '),
            _ => {}
        }
    }
    if skip == 0 {
        push_text(&mut out, &decode_entities(rest), in_pre);
    }
    let lines: Vec<&str> = out.lines().map(str::trim_end).collect();
    let mut text = String::new();
    let mut blank = 0;
    for line in lines {
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !text.is_empty() {
            text.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        text.push_str(line);
    }
    text.push('\n');
    text
}

fn push_text(out: &mut String, text: &str, in_pre: bool) {
    if in_pre {
        out.push_str(text);
        return;
    }
    // Outside <pre>, runs of white space are one space, as a browser shows them.
    let mut last_space = out.ends_with([' ', '\n']) || out.is_empty();
    for c in text.chars() {
        if c.is_whitespace() {
            if !last_space {
                out.push(' ');
                last_space = true;
            }
        } else {
            out.push(c);
            last_space = false;
        }
    }
}

fn new_line(out: &mut String) {
    while out.ends_with(' ') {
        out.pop();
    }
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
}

fn blank_line(out: &mut String) {
    new_line(out);
    if !out.is_empty() && !out.ends_with("\n\n") {
        out.push('\n');
    }
}

fn decode_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let Some(semi) = rest[..rest.len().min(12)].find(';') else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..semi];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some(' '),
            _ => entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_url_becomes_the_api_root() {
        for (given, root) in [
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080/api"),
            ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/api"),
            ("https://judge.example/api/", "https://judge.example/api"),
            ("http://host/prefix", "http://host/prefix/api"),
        ] {
            assert_eq!(api_root(given).unwrap(), root, "{given}");
        }
        for (given, reason) in [
            ("ftp://host", "the scheme is `ftp`, not http or https"),
            ("http://host/?a=1", "a server URL has no query or fragment"),
        ] {
            let err = api_root(given).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("contest server URL `{given}`: {reason}")
            );
        }
        assert!(matches!(
            api_root("not a url"),
            Err(ContestError::BadUrl { .. })
        ));
    }

    fn client() -> ContestClient {
        ContestClient::new("http://127.0.0.1:1", "arena", "tok", Duration::from_secs(1)).unwrap()
    }

    #[test]
    fn refusals_name_what_a_participant_needs() {
        let c = client();
        let url = "http://127.0.0.1:1/api/contests/arena/submissions";
        let cases: [(u16, &str, &str); 7] = [
            (
                401,
                r#"{"code":401,"message":"unknown token"}"#,
                "the contest server refused the team token (HTTP 401 at http://127.0.0.1:1/api/contests/arena/submissions): unknown token",
            ),
            (
                403,
                r#"{"code":403,"message":"the contest has not started"}"#,
                "contest `arena` has not started",
            ),
            (
                403,
                r#"{"code":403,"message":"problem statements and samples are readable once the contest has started"}"#,
                "contest `arena` has not started",
            ),
            (
                403,
                r#"{"code":403,"message":"the contest is over"}"#,
                "contest `arena` is over",
            ),
            (
                429,
                r#"{"code":429,"message":"at most 2 submissions a minute; try again shortly"}"#,
                "the contest server's rate limit: at most 2 submissions a minute; try again shortly",
            ),
            (
                404,
                r#"{"code":404,"message":"no contest `arena`"}"#,
                "the contest server has no contest `arena` (http://127.0.0.1:1/api/contests/arena/submissions)",
            ),
            (
                500,
                "<html>oops</html>",
                "HTTP 500 at http://127.0.0.1:1/api/contests/arena/submissions: <html>oops</html>",
            ),
        ];
        for (status, body, expected) in cases {
            assert_eq!(c.refusal(url, status, body, None).to_string(), expected);
        }
    }

    #[test]
    fn file_references_resolve_against_the_api_root() {
        let c = client();
        let relative = FileRef::new(
            "contests/arena/problems/sum/statement",
            "sum.html",
            "text/html",
        );
        assert_eq!(
            c.file_url(&relative),
            "http://127.0.0.1:1/api/contests/arena/problems/sum/statement"
        );
        let absolute = FileRef::new("https://cdn.example/s.pdf", "s.pdf", "application/pdf");
        assert_eq!(c.file_url(&absolute), "https://cdn.example/s.pdf");
    }

    #[tokio::test]
    async fn an_unreachable_server_is_named() {
        // Port 1 on loopback: nothing listens there.
        let err = client().contest().await.unwrap_err();
        let text = err.to_string();
        assert!(matches!(err, ContestError::Unreachable { .. }), "{text}");
        assert!(
            text.starts_with(
                "contest server unreachable at http://127.0.0.1:1/api/contests/arena: "
            ),
            "{text}"
        );
    }

    #[test]
    fn the_statement_html_becomes_text() {
        let html = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>A Sum</title></head>\
            <body><h1>A Sum</h1>\n<h1>Sum of Numbers</h1>\n<p>You are given a list of integers.\nPrint their sum.</p>\n\
            <h2>Input</h2>\n<p>The first line contains $n$ ($1 \\le n$), &amp; &lt;more&gt; &#39;x&#39; &#x41;.</p>\n\
            <ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<pre><code>3\n1 2 3\n</code></pre>\n<p>&bogus; &amp</p></body></html>\n";
        let expected = "# A Sum\n\n# Sum of Numbers\n\nYou are given a list of integers. Print their sum.\n\n\
            ## Input\n\nThe first line contains $n$ ($1 \\le n$), & <more> 'x' A.\n\n- one\n- two\n\n3\n1 2 3\n\n&bogus; &amp\n";
        assert_eq!(html_to_text(html), expected);
    }

    #[test]
    fn samples_sort_numerically() {
        let mut names = vec!["10", "2", "1", "b", "a"];
        names.sort_by(|a, b| natural_order(a, b));
        assert_eq!(names, ["1", "2", "10", "a", "b"]);
    }

    #[test]
    fn a_problem_without_samples_is_named() {
        let text = ProblemText {
            problem: Problem {
                id: "sum".into(),
                ..Problem::default()
            },
            statement: String::new(),
            statement_pdf: None,
            samples: Vec::new(),
        };
        assert_eq!(
            text.require_samples("arena").unwrap_err().to_string(),
            "problem `sum` of contest `arena` has no samples"
        );
    }
}
