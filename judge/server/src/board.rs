//! The scoreboard a caller may see, as the CLICS `scoreboard` object, for the API and the
//! web page alike: frozen for teams and the public between the freeze and the end, and
//! recomputed only when an event was written since it was last computed.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use chrono::Utc;
use leaderboard::clics::{Scoreboard, ScoreboardRow};

use crate::auth::Viewer;
use crate::clics;
use crate::contest::{Contest, reltime, time};
use crate::error::ServerError;
use crate::scoreboard;
use crate::state::AppState;
use crate::store::QueueState;

/// A computed board: the event token it was computed at, its CLICS rows, and whether a
/// submission was pending.
#[derive(Debug, Clone)]
struct Cached {
    token: i64,
    rows: Vec<ScoreboardRow>,
    pending: bool,
}

/// Computed scoreboards by contest and view (frozen or not).
#[derive(Debug, Default)]
pub struct BoardCache {
    boards: Mutex<HashMap<(String, bool), Cached>>,
}

impl BoardCache {
    fn get(&self, key: &(String, bool), token: i64) -> Option<Cached> {
        let boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        boards.get(key).filter(|it| it.token == token).cloned()
    }

    fn put(&self, key: (String, bool), board: Cached) {
        let mut boards = self.boards.lock().unwrap_or_else(PoisonError::into_inner);
        boards.insert(key, board);
    }
}

/// The scoreboard `who` may see now.
pub async fn scoreboard(
    state: &AppState,
    contest: &Contest,
    who: &Viewer,
) -> Result<Scoreboard, ServerError> {
    let now = Utc::now();
    let frozen = *who != Viewer::Admin
        && contest.freeze_time().is_some_and(|f| now >= f)
        && now < contest.end_time();
    let cid = contest.spec.id.clone();
    // Recomputed only when an event was written since (any host's write moves the token).
    let token = state.store.last_token(&cid).await?;
    let key = (cid.clone(), frozen);
    let board = match state.boards.get(&key, token) {
        Some(hit) => hit,
        None => {
            let subs = state.store.submissions_for_scoring(&cid).await?;
            let judgements = state.store.judgements(&cid).await?;
            let hide = frozen.then(|| {
                (contest.end_time()
                    - contest.spec.scoreboard_freeze_duration
                    - contest.spec.start_time)
                    .num_milliseconds()
            });
            let board = Cached {
                token,
                rows: scoreboard::rows(contest, &subs, &judgements, hide),
                pending: subs.iter().any(|s| s.state != QueueState::Done),
            };
            state.boards.put(key, board.clone());
            board
        }
    };
    Ok(Scoreboard {
        event_id: token.to_string(),
        time: time(now),
        contest_time: reltime(now - contest.spec.start_time),
        state: clics::state(contest, now, board.pending),
        rows: board.rows,
    })
}
