//! The event log in memory: one reader per process ([`follow`]) reads each committed
//! event once from the database, rebuilds the scoreboards it can move, and publishes it
//! on a bounded broadcast ([`Live`]) that every streaming client of the event feed and
//! of the web page's live updates reads, so no client queries the database per event.
//!
//! The reader wakes when this process commits events, on PostgreSQL when another host
//! does (`LISTEN`/`NOTIFY`, see `store`), and once a second regardless (a notice lost
//! while the listening connection was down costs at most that second). Tokens commit in
//! order (see `store`), so reading `seq > last seen` never skips an event.
//!
//! A client that falls more than [`CAPACITY`] events behind is dropped (its stream
//! ends); it resumes with `since_token`.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use serde_json::{Value, json};
use tokio::sync::{broadcast, watch};

use tokio::sync::Notify;

use crate::board::{self, BoardCache};
use crate::contest::Served;
use crate::error;
use crate::store::Store;
use crate::viewer::Viewer;

/// How many events a streaming client may fall behind before it is dropped.
pub const CAPACITY: usize = 4096;

/// Events read per query.
const PAGE: i64 = 1000;

/// One committed event, with its feed line ready.
#[derive(Debug)]
pub struct LiveEvent {
    /// The token.
    pub seq: i64,
    /// The contest.
    pub contest_id: String,
    /// CLICS type.
    pub kind: String,
    /// The team whose private data this is (`None`: public).
    pub team_id: Option<String>,
    /// The NDJSON line of the event feed (with its newline).
    pub line: Bytes,
}

impl LiveEvent {
    /// Whether `who` may see it (the feed's visibility rule, as `store` applies it).
    pub fn visible_to(&self, who: &Viewer) -> bool {
        match who {
            Viewer::Admin => true,
            Viewer::Team(team) => self.team_id.as_deref().is_none_or(|t| t == team),
            Viewer::Public => self.team_id.is_none(),
        }
    }
}

/// The event feed's line for an event (CLICS 2023-06 notification format).
pub fn feed_line(seq: i64, kind: &str, obj_id: Option<&str>, data: Option<&str>) -> String {
    let data: Value = data
        .and_then(|d| serde_json::from_str(d).ok())
        .unwrap_or(Value::Null);
    // CLICS 2023-06: the contest and state events carry a null id.
    let id = match kind {
        "contest" | "state" => None,
        _ => obj_id,
    };
    let mut text =
        json!({"type": kind, "id": id, "data": data, "token": seq.to_string()}).to_string();
    text.push('\n');
    text
}

/// The broadcast of committed events and how far the reader got.
#[derive(Debug)]
pub struct Live {
    events: broadcast::Sender<Arc<LiveEvent>>,
    seen: watch::Sender<i64>,
}

impl Default for Live {
    fn default() -> Live {
        Live {
            events: broadcast::channel(CAPACITY).0,
            seen: watch::channel(0).0,
        }
    }
}

impl Live {
    /// A receiver of every event published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<LiveEvent>> {
        self.events.subscribe()
    }

    /// The newest token the reader has published (and rebuilt the boards for).
    pub fn seen(&self) -> i64 {
        *self.seen.borrow()
    }

    /// Waits until the reader has published token `token`, at most `limit`.
    pub async fn caught_up(&self, token: i64, limit: Duration) {
        if self.seen() >= token {
            return;
        }
        let mut rx = self.seen.subscribe();
        let _ = tokio::time::timeout(limit, rx.wait_for(|seen| *seen >= token)).await;
    }

    /// Sets where the reader starts (before it runs).
    pub fn start_at(&self, token: i64) {
        self.seen.send_replace(token);
    }
}

/// What the reader uses of the server: the parts, not the whole state.
#[derive(Debug)]
pub struct Reader {
    /// The database it reads the events from.
    pub store: Store,
    /// The contests served (whose boards it rebuilds).
    pub contests: Arc<Served>,
    /// The boards it rebuilds.
    pub boards: Arc<BoardCache>,
    /// Where it publishes the events it has read.
    pub live: Arc<Live>,
    /// Woken when another host's submission arrives, for this host's idle workers.
    pub queue_changed: Arc<Notify>,
}

/// The reader: builds every contest's boards, then publishes each committed event after
/// rebuilding the boards of the contests whose board it may move. Runs until the
/// process ends.
pub async fn follow(state: Reader) {
    for contest in state.contests.all() {
        if let Err(err) = board::rebuild(&state.store, &state.boards, &contest).await {
            let id = &contest.spec.id;
            eprintln!("judge serve: scoreboard of {id}: {}", error::chain(&err));
        }
    }
    let mut after = state.live.seen();
    loop {
        match state.store.events_after(after, PAGE).await {
            Ok(events) if !events.is_empty() => {
                let full_page = events.len() as i64 == PAGE;
                // Runs never move a board.
                let moved: BTreeSet<&str> = events
                    .iter()
                    .filter(|e| e.kind != "runs")
                    .map(|e| e.contest_id.as_str())
                    .collect();
                for cid in moved {
                    let Some(contest) = state.contests.get(cid) else {
                        continue;
                    };
                    // The jury changed the clock or the teams (here or on another host):
                    // the board follows what the database holds.
                    let clock_moved = events.iter().any(|e| {
                        e.contest_id == cid
                            && matches!(e.kind.as_str(), "contest" | "state" | "teams")
                    });
                    if clock_moved && let Err(err) = contest.reload_jury(&state.store).await {
                        eprintln!("judge serve: {}", error::chain(&err));
                    }
                    if let Err(err) = board::rebuild(&state.store, &state.boards, &contest).await {
                        eprintln!("judge serve: scoreboard of {cid}: {}", error::chain(&err));
                    }
                }
                if events.iter().any(|e| e.kind == "submissions") {
                    // Another host's submission: this host's idle workers look now.
                    state.queue_changed.notify_waiters();
                }
                for e in &events {
                    let line = feed_line(e.seq, &e.kind, e.obj_id.as_deref(), e.data.as_deref());
                    // No receiver is not an error.
                    let _ = state.live.events.send(Arc::new(LiveEvent {
                        seq: e.seq,
                        contest_id: e.contest_id.clone(),
                        kind: e.kind.clone(),
                        team_id: e.team_id.clone(),
                        line: Bytes::from(line),
                    }));
                }
                after = events.last().map_or(after, |e| e.seq);
                state.live.seen.send_replace(after);
                if full_page {
                    continue;
                }
            }
            Ok(_) => {}
            Err(err) => {
                eprintln!("judge serve: reading the event log: {}", error::chain(&err));
            }
        }
        state.store.wait_written(Duration::from_secs(1)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(team: Option<&str>) -> LiveEvent {
        LiveEvent {
            seq: 1,
            contest_id: "c".into(),
            kind: "submissions".into(),
            team_id: team.map(str::to_owned),
            line: Bytes::new(),
        }
    }

    #[test]
    fn visibility_follows_the_feed_rule() {
        let t1 = Viewer::Team("t1".into());
        assert!(event(None).visible_to(&Viewer::Public));
        assert!(event(None).visible_to(&t1));
        assert!(event(Some("t1")).visible_to(&t1));
        assert!(!event(Some("t2")).visible_to(&t1));
        assert!(!event(Some("t1")).visible_to(&Viewer::Public));
        assert!(event(Some("t2")).visible_to(&Viewer::Admin));
    }

    #[test]
    fn singletons_have_a_null_id() {
        let line = feed_line(7, "state", Some("x"), Some(r#"{"started":null}"#));
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["id"], Value::Null);
        assert_eq!(v["token"], "7");
        let line = feed_line(8, "submissions", Some("s1"), None);
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!((v["id"].as_str(), &v["data"]), (Some("s1"), &Value::Null));
    }
}
