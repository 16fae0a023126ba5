//! The scoreboard a caller may see, as the CLICS `scoreboard` object, for the API and the
//! web page alike, built once per change and kept as ready bytes ([`Ready`]: the object,
//! its JSON, the JSON gzipped, and its `ETag`), so that a request does no database query
//! and no scoring when nothing changed.
//!
//! Each contest has two views: the full board (admins) and the board with submissions
//! from the freeze on hidden (teams and the public, between the freeze and the end; the
//! same bytes serve every team and the public, since a team's own view hides the same
//! judgements). Both are rebuilt by the event log's reader (`live`) after each batch of
//! events that can move the board, on every host; a request picks the view by the
//! clock. A request first waits (briefly) until the reader has seen every event this
//! process wrote, so a client reads its own writes (`AppState::board` does that wait,
//! then asks [`ready`]). The functions here take the parts they use (the store and the
//! boards kept), not the server's whole state.

use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, OnceLock, PoisonError, RwLock};

use bytes::Bytes;
use chrono::Utc;
use leaderboard::clics::Scoreboard;

use crate::clics;
use crate::contest::{Contest, reltime, time};
use crate::error::ServerError;
use crate::scoreboard;
use crate::store::{QueueState, Store};
use crate::viewer::Viewer;

/// One view of a board, ready to send.
#[derive(Debug)]
pub struct Ready {
    /// The event token it was built at (its `event_id`).
    pub token: i64,
    /// The CLICS object.
    pub board: Scoreboard,
    /// Whether a submission was queued or being judged.
    pub pending: bool,
    /// The `ETag` (quoted): contest, view and token.
    pub etag: String,
    /// The object as JSON.
    pub json: Bytes,
    /// The same JSON, gzipped.
    pub gzip: Bytes,
    /// The web page's rendering of it, made by the first request that needs it.
    pub html: OnceLock<String>,
}

/// A contest's two views (the same `Arc` when the contest has no freeze).
#[derive(Debug)]
struct Views {
    full: Arc<Ready>,
    frozen: Arc<Ready>,
}

/// The built boards by contest, and one lock per contest so that a board missing at a
/// request is built once, not by every waiting request.
#[derive(Debug, Default)]
pub struct BoardCache {
    boards: RwLock<HashMap<String, Arc<Views>>>,
    building: tokio::sync::Mutex<()>,
}

impl BoardCache {
    fn get(&self, cid: &str) -> Option<Arc<Views>> {
        let boards = self.boards.read().unwrap_or_else(PoisonError::into_inner);
        boards.get(cid).cloned()
    }

    fn put(&self, cid: &str, views: Views) {
        let mut boards = self.boards.write().unwrap_or_else(PoisonError::into_inner);
        boards.insert(cid.to_owned(), Arc::new(views));
    }
}

/// Whether `who` gets the frozen view now: teams and the public between the freeze and
/// the end.
fn frozen_for(contest: &Contest, who: &Viewer) -> bool {
    *who != Viewer::Admin && contest.schedule().frozen_at(Utc::now())
}

/// The board `who` may see now, as ready bytes: from memory when built, else built now
/// (once, however many requests wait for it: see [`rebuild`]).
pub async fn ready(
    store: &Store,
    kept: &BoardCache,
    contest: &Arc<Contest>,
    who: &Viewer,
) -> Result<Arc<Ready>, ServerError> {
    let cid = &contest.spec.id;
    let views = match kept.get(cid) {
        Some(views) => views,
        None => {
            rebuild(store, kept, contest).await?;
            kept.get(cid).ok_or_else(|| ServerError::BadContest {
                what: cid.clone(),
                problems: vec!["its scoreboard could not be built".into()],
            })?
        }
    };
    Ok(Arc::clone(if frozen_for(contest, who) {
        &views.frozen
    } else {
        &views.full
    }))
}

/// Builds both views of `contest`'s board from the database and keeps them (three
/// queries; the scoring and serializing run off the async threads), unless the kept
/// ones are of the newest token already.
pub async fn rebuild(
    store: &Store,
    kept: &BoardCache,
    contest: &Arc<Contest>,
) -> Result<(), ServerError> {
    let cid = contest.spec.id.clone();
    // One build at a time: the reader's and a request's for a board not built yet.
    let _one = kept.building.lock().await;
    let token = store.last_token(&cid).await?;
    if kept.get(&cid).is_some_and(|v| v.full.token == token) {
        // Nothing written since it was built.
        return Ok(());
    }
    let subs = store.submissions_for_scoring(&cid).await?;
    let judgements = store.judgements(&cid).await?;
    let contest = Arc::clone(contest);
    let views = tokio::task::spawn_blocking(move || {
        let pending = subs.iter().any(|s| s.state != QueueState::Done);
        let view = |hide: Option<i64>, name: &str| {
            let now = Utc::now();
            let board = Scoreboard {
                event_id: token.to_string(),
                time: time(now),
                contest_time: reltime(now - contest.start_time()),
                state: clics::state(&contest, now, pending),
                rows: scoreboard::rows(&contest, &subs, &judgements, hide),
            };
            let json = serde_json::to_vec(&board).unwrap_or_default();
            let gzip = gzip(&json);
            Arc::new(Ready {
                token,
                board,
                pending,
                etag: format!("\"{}-{name}-{token}\"", contest.spec.id),
                json: Bytes::from(json),
                gzip: Bytes::from(gzip),
                html: OnceLock::new(),
            })
        };
        let full = view(None, "full");
        let frozen = match contest.freeze_time() {
            Some(freeze) => view(
                Some((freeze - contest.start_time()).num_milliseconds()),
                "frozen",
            ),
            None => Arc::clone(&full),
        };
        Views { full, frozen }
    })
    .await
    .map_err(|e| ServerError::BadContest {
        what: cid.clone(),
        problems: vec![format!("building its scoreboard failed: {e}")],
    })?;
    kept.put(&cid, views);
    Ok(())
}

/// `bytes` gzipped (fast level: the board is rebuilt at every change).
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(bytes);
    encoder.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn gzip_round_trips() {
        let text = br#"{"rows":[{"rank":1},{"rank":2}]}"#.repeat(50);
        let packed = gzip(&text);
        assert!(packed.len() < text.len());
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, text);
    }
}
