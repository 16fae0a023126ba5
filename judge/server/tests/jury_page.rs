//! The jury's operations on the web page, over real HTTP: the service on a TCP listener
//! bound to port 0, spoken to with a plain HTTP/1.1 client, one judging worker on
//! bubblewrap, and a contest whose file sets its medal counts. The admin logs in with
//! the admin token; the page then has the rejudge, message and export controls and the
//! awards, and each form posts where the page says, with the effect the API shows. Teams
//! and the public get none of it.

mod common;

use std::io::Read;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};

use judge_server::AppState;

const PACKAGES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../problems/packages");
use common::ADMIN;
use common::http::{Answer, As, Body, request};

/// The `<form>` element with `marker` in its opening tag (`id=rejudge`), up to its end.
fn form<'a>(html: &'a str, marker: &str) -> &'a str {
    let start = html
        .match_indices("<form ")
        .map(|(i, _)| i)
        .find(|&i| html[i..].split('>').next().unwrap_or("").contains(marker))
        .unwrap_or_else(|| panic!("no form {marker} in {html}"));
    let len = html[start..].find("</form>").expect("the form ends");
    &html[start..start + len]
}

/// The value of `attribute='...'` in `element`.
fn attribute<'a>(element: &'a str, attribute: &str) -> &'a str {
    let from = element
        .find(&format!("{attribute}='"))
        .unwrap_or_else(|| panic!("no {attribute} in {element}"))
        + attribute.len()
        + 2;
    let len = element[from..].find('\'').expect("the value ends");
    &element[from..from + len]
}

/// A served contest `arena` (ICPC, started an hour ago, `sum` and `rangesum`, teams
/// t1..t3, medals 1/1/1) with one worker on bubblewrap; `None` where bubblewrap is
/// missing outside CI.
struct Served {
    _dir: tempfile::TempDir,
    addr: SocketAddr,
}

async fn served() -> Option<Served> {
    let sandbox = common::bwrap_sandbox()?;
    let dir = tempfile::tempdir().expect("tempdir");
    let start = (chrono::Utc::now() - chrono::Duration::hours(1))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let yaml = format!(
        "id: arena\nname: Arena\nstart_time: {start}\nduration: '5:00:00'\nthaw: jury\n\
         medals: {{gold: 1, silver: 1, bronze: 1}}\n\
         problems:\n  - {{id: sum, package: {PACKAGES}/sum}}\n  - {{id: rangesum, package: {PACKAGES}/rangesum}}\n\
         teams:\n  - {{id: t1, name: Team One, token: token-t1}}\n  - {{id: t2, name: Team Two, token: token-t2}}\n  - {{id: t3, name: Team Three, token: token-t3}}\n"
    );
    let contest = dir.path().join("contest.yaml");
    std::fs::write(&contest, yaml).expect("contest file");
    let opts = common::options(vec![contest], &dir.path().join("db.sqlite"), 1);
    let state = AppState::open(&opts, sandbox).await.expect("state opens");
    judge_server::worker::spawn(&state, 1);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind port 0");
    let addr = listener.local_addr().expect("bound address");
    tokio::spawn(judge_server::routes::serve(
        listener,
        judge_server::app(Arc::clone(&state)),
    ));
    Some(Served { _dir: dir, addr })
}

impl Served {
    async fn get(&self, path: &str, who: As<'_>) -> Answer {
        request(self.addr, "GET", path, who, Body::Nothing).await
    }

    async fn admin_json(&self, path: &str) -> Value {
        let answer = self.get(path, As::Bearer(ADMIN)).await;
        assert_eq!(answer.status, 200, "GET {path}: {}", answer.text());
        answer.json()
    }

    async fn submit(&self, team: &str, problem: &str, language: &str, file: &str) -> String {
        let source = std::fs::read_to_string(format!("{PACKAGES}/{file}")).expect("source");
        let body = json!({"problem_id": problem, "language_id": language, "source": source});
        let token = format!("token-{team}");
        let answer = request(
            self.addr,
            "POST",
            "/api/contests/arena/submissions",
            As::Bearer(&token),
            Body::Json(&body),
        )
        .await;
        assert_eq!(answer.status, 200, "submit {file}: {}", answer.text());
        answer.json()["id"].as_str().expect("an id").to_owned()
    }

    /// Waits until nothing is queued or being judged (failing after five minutes).
    async fn wait_until_judged(&self) {
        let deadline = std::time::Instant::now() + Duration::from_secs(300);
        loop {
            let queue = self.admin_json("/api/queue").await;
            if queue["queued"] == 0 && queue["judging"] == 0 {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "still judging: {queue}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The verdicts of submission `id` that `token` sees, oldest first.
    async fn verdicts(&self, id: &str, token: &str) -> Vec<String> {
        let answer = self
            .get("/api/contests/arena/judgements", As::Bearer(token))
            .await;
        assert_eq!(answer.status, 200, "{}", answer.text());
        answer
            .json()
            .as_array()
            .expect("a list")
            .iter()
            .filter(|j| j["submission_id"] == id)
            .map(|j| j["judgement_type_id"].as_str().unwrap_or("?").to_owned())
            .collect()
    }

    /// POSTs `fields` to the page's `action` as `who`: the status and `Location`.
    async fn post_form(
        &self,
        action: &str,
        who: As<'_>,
        fields: &[(&str, &str)],
    ) -> (u16, String, String) {
        let answer = request(self.addr, "POST", action, who, Body::Form(fields)).await;
        let location = answer.header("location").unwrap_or_default().to_owned();
        (answer.status, location, answer.text())
    }
}

/// The awards' team ids by award id.
fn award(awards: &Value, id: &str) -> Vec<String> {
    awards
        .as_array()
        .expect("a list")
        .iter()
        .find(|a| a["id"] == id)
        .map(|a| {
            a["team_ids"]
                .as_array()
                .expect("team ids")
                .iter()
                .map(|t| t.as_str().unwrap_or_default().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// It is long because it is one scenario told in order: each step works on what the
/// steps before it left (the server, the browser or the run folder), so cutting it would
/// only pass that state around.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_jury_rejudges_answers_sees_awards_and_exports_from_the_page() {
    let Some(s) = served().await else {
        return;
    };
    let sum = "sum/submissions";
    let t1_sum = s
        .submit("t1", "sum", "c", &format!("{sum}/accepted/sum.c"))
        .await;
    let t1_range = s
        .submit(
            "t1",
            "rangesum",
            "cpp",
            "rangesum/submissions/accepted/prefix.cpp",
        )
        .await;
    let t2_sum = s
        .submit("t2", "sum", "c", &format!("{sum}/accepted/sum.c"))
        .await;
    let t3_sum = s
        .submit(
            "t3",
            "sum",
            "python3",
            &format!("{sum}/wrong_answer/first_only.py"),
        )
        .await;
    s.wait_until_judged().await;
    for (id, verdict) in [
        (&t1_sum, "AC"),
        (&t1_range, "AC"),
        (&t2_sum, "AC"),
        (&t3_sum, "WA"),
    ] {
        assert_eq!(s.verdicts(id, ADMIN).await, [verdict], "submission {id}");
    }
    // The jury reads where the wrong answer failed: each run's test, times, memory and
    // message, and the beginning of the program's output on the failed test.
    let judging = s
        .admin_json(&format!("/api/contests/arena/submissions/{t3_sum}/judging"))
        .await;
    let runs = judging[0]["runs"].as_array().expect("runs");
    let failed = runs.last().expect("a run");
    assert_eq!(failed["judgement_type_id"], "WA", "{judging}");
    assert!(
        failed["test"].as_str().is_some_and(|t| !t.is_empty()),
        "{judging}"
    );
    assert!(
        failed["wall_time"].as_f64().is_some_and(|t| t > 0.0),
        "{judging}"
    );
    assert!(
        failed["memory_kib"].as_i64().is_some_and(|m| m > 0),
        "{judging}"
    );
    assert!(failed["output_head"].is_string(), "{judging}");
    assert!(
        runs[..runs.len() - 1]
            .iter()
            .all(|r| r["output_head"].is_null()),
        "{judging}"
    );
    let c_judging = s
        .admin_json(&format!("/api/contests/arena/submissions/{t2_sum}/judging"))
        .await;
    assert!(c_judging[0]["compile_log"].is_string(), "{c_judging}");
    let path = format!("/api/contests/arena/submissions/{t3_sum}/judging");
    assert_eq!(s.get(&path, As::Bearer("token-t3")).await.status, 403);
    let missing = s
        .get(
            "/api/contests/arena/submissions/999/judging",
            As::Bearer(ADMIN),
        )
        .await;
    assert_eq!(missing.status, 404);

    // The contest's medals, 1/1/1: t1 (two solved) gold, t2 (one) silver, and t3
    // (nothing solved) no bronze. Four golds, the default, would have gone to both.
    let awards = s.admin_json("/api/contests/arena/awards").await;
    assert_eq!(award(&awards, "winner"), ["t1"]);
    assert_eq!(award(&awards, "gold-medal"), ["t1"], "{awards}");
    assert_eq!(award(&awards, "silver-medal"), ["t2"], "{awards}");
    assert!(award(&awards, "bronze-medal").is_empty(), "{awards}");
    // A contest whose medals do not fit its teams, or miss a count, is refused by name.
    let spec = |medals: Value| {
        json!({
            "id": "other", "name": "Other", "start_time": "2026-01-01T10:00:00Z",
            "duration": 300, "medals": medals, "problems": [],
            "teams": [{"id": "a", "name": "A", "token": "token-a-long"}],
        })
    };
    for (medals, message) in [
        (
            json!({"gold": 1, "silver": 1, "bronze": 0}),
            "medals: 2 medals (gold 1, silver 1, bronze 0) for 1 team(s)",
        ),
        (json!({"gold": 1, "silver": 0}), "missing field `bronze`"),
    ] {
        let body = spec(medals);
        let answer = request(
            s.addr,
            "POST",
            "/api/contests",
            As::Bearer(ADMIN),
            Body::Json(&body),
        )
        .await;
        assert_eq!(answer.status, 400, "{}", answer.text());
        let text = answer.json()["message"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        assert!(text.contains(message), "{text}");
    }

    // Logging in with the admin token sets the page's cookie.
    let (status, location, _) = s
        .post_form("/contests/arena/login", As::Nobody, &[("token", ADMIN)])
        .await;
    assert_eq!((status, location.as_str()), (303, "/contests/arena"));
    let (status, _, text) = s
        .post_form(
            "/contests/arena/login",
            As::Nobody,
            &[("token", "not-a-token")],
        )
        .await;
    assert_eq!(status, 401, "{text}");

    let (jury_id, jury_csrf) = common::http::login(s.addr, "arena", ADMIN)
        .await
        .expect("the jury logs in");
    let jury = As::Session {
        id: &jury_id,
        csrf: &jury_csrf,
    };
    let (t1_id, t1_csrf) = common::http::login(s.addr, "arena", "token-t1")
        .await
        .expect("t1 logs in");
    let t1 = As::Session {
        id: &t1_id,
        csrf: &t1_csrf,
    };
    let (t2_id, t2_csrf) = common::http::login(s.addr, "arena", "token-t2")
        .await
        .expect("t2 logs in");
    let t2 = As::Session {
        id: &t2_id,
        csrf: &t2_csrf,
    };
    let page = s.get("/contests/arena", jury).await;
    assert_eq!(page.status, 200);
    let page = page.text();
    assert!(page.contains("id=jury"), "{page}");
    let rejudge = form(&page, "id=rejudge");
    for field in ["name=submission", "name=problem", "name=team"] {
        assert!(rejudge.contains(field), "{field} in {rejudge}");
    }
    let rejudge_action = attribute(rejudge, "action").to_owned();
    let message = form(&page, "id=message");
    let message_action = attribute(message, "action").to_owned();
    assert!(
        message.contains("name=to") && message.contains("name=text"),
        "{message}"
    );
    let export_link = page
        .split("<a ")
        .find(|a| a.starts_with("id=export"))
        .expect("an export link");
    let export_href = attribute(export_link, "href").to_owned();
    // The awards on the page, each submission with its own rejudge button.
    assert!(
        page.contains("<tr id='award-gold-medal'><td>Gold medal winner</td><td>t1</td></tr>"),
        "{page}"
    );
    assert!(
        page.contains("<tr id='award-silver-medal'><td>Silver medal winner</td><td>t2</td></tr>")
    );
    for id in [&t1_sum, &t1_range, &t2_sum, &t3_sum] {
        assert!(
            page.contains(&format!("name=submission value='{id}'")),
            "{id}"
        );
    }
    // Teams and the public get none of it.
    for who in [t1, As::Nobody] {
        let other = s.get("/contests/arena", who).await.text();
        for marker in [
            "id=jury",
            "id=rejudge",
            "id=message",
            "id=export",
            "id=awards",
        ] {
            assert!(!other.contains(marker), "{marker} for a team or the public");
        }
    }

    // Rejudging a submission, a problem, a team: each queued again and judged anew; the
    // old judgement stays for the jury, a team sees the newest only.
    for (fields, id) in [
        (
            vec![
                ("submission", t2_sum.as_str()),
                ("problem", ""),
                ("team", ""),
            ],
            &t2_sum,
        ),
        (
            vec![("submission", ""), ("problem", "rangesum"), ("team", "")],
            &t1_range,
        ),
        (
            vec![("submission", ""), ("problem", ""), ("team", "t3")],
            &t3_sum,
        ),
    ] {
        let (status, location, text) = s.post_form(&rejudge_action, jury, &fields).await;
        assert_eq!(status, 303, "{fields:?}: {text}");
        assert!(
            location.starts_with("/contests/arena/jury/rejudgings/"),
            "to the rejudging's page: {location}"
        );
        s.wait_until_judged().await;
        assert_eq!(s.verdicts(id, ADMIN).await.len(), 2, "{fields:?}");
    }
    assert_eq!(s.verdicts(&t2_sum, "token-t2").await, ["AC"]);
    assert_eq!(s.verdicts(&t1_sum, ADMIN).await, ["AC"], "not rejudged");
    let mine = s.get("/contests/arena/mine", jury).await.text();
    assert!(
        mine.contains("<td class=earlier>WA</td>"),
        "t3's earlier verdict: {mine}"
    );
    // The jury's list: every submission newest first; filtered by verdict and by team;
    // its live part alone.
    let list = s.get("/contests/arena/jury/submissions", jury).await;
    assert_eq!(list.status, 200, "{}", list.text());
    let list = list.text();
    assert_eq!(list.matches("<tr class=submission>").count(), 4, "{list}");
    assert!(list.find(&format!(">{t3_sum}</a>")) < list.find(&format!(">{t1_sum}</a>")));
    assert!(list.contains("4 submissions; page 1 of 1."), "{list}");
    let wa = s
        .get("/contests/arena/jury/submissions?verdict=WA", jury)
        .await
        .text();
    assert_eq!(wa.matches("<tr class=submission>").count(), 1, "{wa}");
    assert!(
        wa.contains(&format!(">{t3_sum}</a>")) && wa.contains("(2 judgements)"),
        "{wa}"
    );
    let t1_list = s
        .get("/contests/arena/jury/submissions?team=t1&part=list", jury)
        .await
        .text();
    assert!(
        t1_list.starts_with("<p id=count>2 submissions"),
        "{t1_list}"
    );
    // The jury's page of t3's rejudged wrong answer: linked from the list; its source, the
    // tests, the first failed test's input, answer and output with a diff, and both
    // judgements side by side. Nobody else may open it.
    let link = format!("/contests/arena/jury/submissions/{t3_sum}");
    assert!(mine.contains(&format!("href='{link}'")), "{mine}");
    let one = s.get(&link, jury).await;
    assert_eq!(one.status, 200, "{}", one.text());
    let one = one.text();
    for part in [
        "<pre id=source>",
        "class=runs",
        "First failed test: ",
        "<pre id=input>",
        "<pre id=answer>",
        "<pre id=output>",
        "<table id=diff>",
        "<table id=judgements>",
        "name=csrf",
    ] {
        assert!(one.contains(part), "{part} in {one}");
    }
    assert_eq!(one.matches("<th>judgement ").count(), 2, "{one}");
    assert!(one.contains("id=verdict class='verdict WA'"), "{one}");
    for who in [t1, As::Nobody] {
        let answer = s.get(&link, who).await;
        assert_eq!(answer.status, 303, "the jury's page is for the jury");
    }
    // Refused: a team's cookie, no cookie, nothing named.
    for (who, fields, status) in [
        (t2, vec![("submission", t2_sum.as_str())], 403),
        (As::Nobody, vec![("submission", t2_sum.as_str())], 403),
        (
            jury,
            vec![("submission", ""), ("problem", ""), ("team", "")],
            400,
        ),
    ] {
        let (got, _, text) = s.post_form(&rejudge_action, who, &fields).await;
        assert_eq!(got, status, "{fields:?}: {text}");
    }

    // A team asks; the jury's live part offers an answer form for it, which answers the
    // team alone; the message form writes to everyone.
    let asked = request(
        s.addr,
        "POST",
        "/api/contests/arena/clarifications",
        As::Bearer("token-t1"),
        Body::Json(&json!({"problem_id": "sum", "text": "Is n at most 10?"})),
    )
    .await;
    assert_eq!(asked.status, 201, "{}", asked.text());
    let question = asked.json()["id"].as_str().expect("an id").to_owned();
    let mine = s.get("/contests/arena/mine", jury).await.text();
    let answer_form = form(&mine, "class=answer");
    assert!(
        answer_form.contains(&format!("name=reply_to value='{question}'")),
        "{answer_form}"
    );
    let answer_action = attribute(answer_form, "action").to_owned();
    let (status, _, text) = s
        .post_form(
            &answer_action,
            jury,
            &[
                ("reply_to", &question),
                ("problem", "sum"),
                ("to", "t1"),
                ("text", "Yes."),
            ],
        )
        .await;
    assert_eq!(status, 303, "{text}");
    let (status, _, text) = s
        .post_form(
            &message_action,
            jury,
            &[("to", ""), ("problem", ""), ("text", "Ten minutes left.")],
        )
        .await;
    assert_eq!(status, 303, "{text}");
    let served = &s;
    let texts = |team: &'static str| async move {
        let list = served
            .get(
                "/api/contests/arena/clarifications",
                As::Bearer(&format!("token-{team}")),
            )
            .await
            .json();
        list.as_array()
            .expect("a list")
            .iter()
            .map(|c| {
                (
                    c["text"].as_str().unwrap_or_default().to_owned(),
                    c["reply_to_id"].clone(),
                    c["to_team_id"].clone(),
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        texts("t1").await,
        [
            ("Is n at most 10?".to_owned(), Value::Null, Value::Null),
            ("Yes.".to_owned(), json!(question), json!("t1")),
            ("Ten minutes left.".to_owned(), Value::Null, Value::Null),
        ]
    );
    assert_eq!(
        texts("t2").await,
        [("Ten minutes left.".to_owned(), Value::Null, Value::Null)]
    );
    // A team cannot write as the jury through the same form.
    let (status, _, _) = s
        .post_form(
            &message_action,
            t2,
            &[("to", "t1"), ("problem", ""), ("text", "hi")],
        )
        .await;
    assert_eq!(status, 403);

    // The inbox: t2's new question waits, t1's is answered; marked handled, t2's leaves
    // the waiting list without any message to anyone.
    let asked = request(
        s.addr,
        "POST",
        "/api/contests/arena/clarifications",
        As::Bearer("token-t2"),
        Body::Json(&json!({"text": "Is the <b>input</b> sorted?"})),
    )
    .await;
    assert_eq!(asked.status, 201, "{}", asked.text());
    let second = asked.json()["id"].as_str().expect("an id").to_owned();
    let inbox = s
        .get("/contests/arena/jury/clarifications", jury)
        .await
        .text();
    let waiting = &inbox[inbox.find("id=unanswered").unwrap()..inbox.find("id=answered").unwrap()];
    assert!(waiting.contains(&format!("id=q-{second}")), "{inbox}");
    assert!(
        waiting.contains("&lt;b&gt;input&lt;/b&gt;"),
        "escaped: {waiting}"
    );
    assert!(!waiting.contains(&format!("id=q-{question}")), "{inbox}");
    let handled = form(&inbox, &format!("/jury/clarifications/{second}/handled"));
    let (status, location, text) = s.post_form(attribute(handled, "action"), jury, &[]).await;
    assert_eq!(
        (status, location.as_str()),
        (303, "/contests/arena/jury/clarifications"),
        "{text}"
    );
    let inbox = s
        .get("/contests/arena/jury/clarifications", jury)
        .await
        .text();
    assert!(
        inbox.contains("No question waits for an answer."),
        "{inbox}"
    );
    assert!(inbox.contains("Handled without an answer."), "{inbox}");
    let again = s.post_form(attribute(handled, "action"), jury, &[]).await;
    assert_eq!(again.0, 400, "handled twice: {}", again.2);

    // The export link downloads the contest: its feed holds the jury's answer.
    let export = s.get(&export_href, jury).await;
    assert_eq!(export.status, 200, "{}", export.text());
    assert_eq!(export.header("content-type"), Some("application/zip"));
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(export.body)).expect("a zip");
    let mut feed = String::new();
    zip.by_name("event-feed.ndjson")
        .expect("the feed in the export")
        .read_to_string(&mut feed)
        .expect("UTF-8 feed");
    assert!(feed.contains("\"Yes.\""), "{feed}");
    let prefix = format!("submissions/{t2_sum}/");
    assert!(
        zip.file_names().any(|name| name.starts_with(&prefix)),
        "{prefix}"
    );
    for who in [t1, As::Nobody] {
        assert_eq!(s.get(&export_href, who).await.status, 303, "to the login");
    }

    // Contest control from its page, linked from the contest's: a button asks for a
    // confirmation first, and only the confirmed form acts; the audit log shows it.
    let link = |page: &str, id: &str| -> String {
        let a = page
            .split("<a ")
            .find(|a| a.starts_with(&format!("id={id} ")))
            .unwrap_or_else(|| panic!("a link {id} in {page}"));
        attribute(a, "href").to_owned()
    };
    let control_href = link(&page, "jury-control");
    assert_eq!(control_href, "/contests/arena/jury/control");
    let control_page = s.get(&control_href, jury).await;
    assert_eq!(control_page.status, 200, "{}", control_page.text());
    let control_page = control_page.text();
    for who in [t1, As::Nobody] {
        assert_eq!(s.get(&control_href, who).await.status, 303, "to the login");
    }
    let freeze = form(&control_page, "id=control-freeze");
    let control_action = attribute(freeze, "action").to_owned();
    let (status, _, text) = s
        .post_form(&control_action, jury, &[("action", "freeze")])
        .await;
    assert_eq!(status, 200, "{text}");
    assert!(
        text.contains("id=confirm-what") && text.contains("freeze"),
        "{text}"
    );
    assert!(s.admin_json("/api/contests/arena/state").await["frozen"].is_null());
    let (status, _, text) = s
        .post_form(
            &control_action,
            jury,
            &[("action", "freeze"), ("start_time", ""), ("confirm", "yes")],
        )
        .await;
    assert_eq!(status, 303, "{text}");
    assert!(s.admin_json("/api/contests/arena/state").await["frozen"].is_string());
    for who in [t1, As::Nobody] {
        let (status, _, _) = s
            .post_form(
                &control_action,
                who,
                &[("action", "end"), ("confirm", "yes")],
            )
            .await;
        assert_eq!(status, 403);
    }
    let control_page = s.get(&control_href, jury).await.text();
    assert!(
        control_page.contains("<td>jury (web)</td><td>freeze</td>"),
        "{control_page}"
    );

    // Teams from their page: add one (its token generated), disable it, print the sheet.
    let teams_href = link(&page, "jury-teams");
    assert_eq!(teams_href, "/contests/arena/jury/teams");
    let page = s.get(&teams_href, jury).await.text();
    let add = form(&page, "id=add-team");
    let add_action = attribute(add, "action").to_owned();
    let (status, _, text) = s
        .post_form(
            &add_action,
            jury,
            &[("id", "t4"), ("name", "<b>Four</b>"), ("token", "")],
        )
        .await;
    assert_eq!(status, 303, "{text}");
    let page = s.get(&teams_href, jury).await.text();
    assert!(
        page.contains("&lt;b&gt;Four&lt;/b&gt;"),
        "the name is escaped: {page}"
    );
    let teams = s.admin_json("/api/contests/arena/teams").await;
    assert!(
        teams.as_array().unwrap().iter().any(|t| t["id"] == "t4"),
        "{teams}"
    );
    let sheet = s.get("/contests/arena/jury/tokens", jury).await;
    assert_eq!(sheet.status, 200);
    assert_eq!(
        sheet.text().matches("class=slip").count(),
        4,
        "{}",
        sheet.text()
    );
    assert!(!sheet.text().contains(ADMIN), "no admin token on the sheet");
    for who in [t1, As::Nobody] {
        assert_eq!(s.get("/contests/arena/jury/tokens", who).await.status, 303);
    }
    let disable = form(&page, "id=team-disable-t4");
    let (status, _, _) = s.post_form(attribute(disable, "action"), jury, &[]).await;
    assert_eq!(status, 303);
    let sheet = s.get("/contests/arena/jury/tokens", jury).await.text();
    assert_eq!(
        sheet.matches("class=slip").count(),
        3,
        "t4 is disabled: {sheet}"
    );

    // The session, not the token: the admin token is in no page; a form without the
    // session's CSRF token is refused and changes nothing; logging out ends the session.
    let page = s.get("/contests/arena", jury).await.text();
    assert!(!page.contains(ADMIN), "the admin token in the page");
    let forged = As::Session {
        id: &jury_id,
        csrf: "forged",
    };
    let (status, _, text) = s
        .post_form(
            &control_action,
            forged,
            &[("action", "end"), ("confirm", "yes")],
        )
        .await;
    assert_eq!(status, 403, "{text}");
    assert!(s.admin_json("/api/contests/arena/state").await["ended"].is_null());
    // A hostile source is shown as text.
    let hostile = "int main(){return 0;} // </pre><script>alert(1)</script>";
    let body = json!({"problem_id": "sum", "language_id": "c", "source": hostile});
    let posted = request(
        s.addr,
        "POST",
        "/api/contests/arena/submissions",
        As::Bearer("token-t1"),
        Body::Json(&body),
    )
    .await;
    assert_eq!(posted.status, 200, "{}", posted.text());
    let hid = posted.json()["id"].as_str().expect("an id").to_owned();
    let page = s
        .get(&format!("/contests/arena/jury/submissions/{hid}"), jury)
        .await
        .text();
    assert!(!page.contains("<script>alert(1)"), "{page}");
    assert!(
        page.contains("&lt;/pre&gt;&lt;script&gt;alert(1)"),
        "{page}"
    );
    // The reveal. The board froze above (the page's freeze); t2 now solves rangesum,
    // which the public sees as pending; the contest ends and, `thaw: jury`, stays frozen.
    let t2_range = s
        .submit(
            "t2",
            "rangesum",
            "cpp",
            "rangesum/submissions/accepted/prefix.cpp",
        )
        .await;
    s.wait_until_judged().await;
    assert_eq!(s.verdicts(&t2_range, ADMIN).await, ["AC"]);
    let early = s.get("/contests/arena/jury/reveal", jury).await.text();
    assert!(early.contains("The contest has not ended."), "{early}");
    let ended = request(
        s.addr,
        "POST",
        "/api/contests/arena/control",
        As::Bearer(ADMIN),
        Body::Json(&json!({"action": "end"})),
    )
    .await;
    assert_eq!(ended.status, 200, "{}", ended.text());
    let cell = |board: &Value, team: &str, problem: usize| {
        let row = board["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["team_id"] == team)
            .cloned()
            .unwrap();
        row["problems"][problem].clone()
    };
    let public = request(
        s.addr,
        "GET",
        "/api/contests/arena/scoreboard",
        As::Nobody,
        Body::Nothing,
    )
    .await
    .json();
    assert_eq!(
        cell(&public, "t2", 1)["num_pending"],
        1,
        "frozen after the end: {public}"
    );
    let reveal = s.get("/contests/arena/jury/reveal", jury).await;
    assert_eq!(reveal.status, 200);
    let reveal = reveal.text();
    let from = reveal.find("id=reveal-data>").expect("the reveal's data") + 15;
    let len = reveal[from..].find("</script>").expect("its end");
    let data: Value = serde_json::from_str(&reveal[from..from + len]).expect("JSON");
    let row = |side: &str| {
        data[side]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["team"] == "t2")
            .cloned()
            .unwrap()
    };
    assert_eq!(row("frozen")["cells"][1]["pending"], 1, "{data}");
    assert_eq!(row("final")["cells"][1]["solved"], true, "{data}");
    for who in [t1, As::Nobody] {
        assert_eq!(s.get("/contests/arena/jury/reveal", who).await.status, 303);
    }
    // The reveal's last step: its form thaws the public board.
    let thaw = form(&reveal, "id=thaw");
    assert!(
        thaw.contains("name=action value=thaw") && thaw.contains("name=confirm value=yes"),
        "{thaw}"
    );
    let fields = [("action", "thaw"), ("confirm", "yes")];
    let (status, _, text) = s.post_form(attribute(thaw, "action"), jury, &fields).await;
    assert_eq!(status, 303, "{text}");
    let public = request(
        s.addr,
        "GET",
        "/api/contests/arena/scoreboard",
        As::Nobody,
        Body::Nothing,
    )
    .await
    .json();
    assert_eq!(cell(&public, "t2", 1)["solved"], true, "thawed: {public}");
    let (status, _, _) = s.post_form("/contests/arena/logout", jury, &[]).await;
    assert_eq!(status, 303);
    let page = s.get("/contests/arena", jury).await.text();
    assert!(
        page.contains("id=login") && !page.contains("id=jury"),
        "{page}"
    );
    let (status, _, _) = s
        .post_form(
            &control_action,
            jury,
            &[("action", "end"), ("confirm", "yes")],
        )
        .await;
    assert_eq!(status, 403, "a session ended by logging out acts no more");
}
