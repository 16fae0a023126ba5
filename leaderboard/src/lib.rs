//! Leaderboards: human standings under contest rules, placing a model among them, the
//! ratings that place implies, and the statistics to report them honestly.
//!
//! Design decisions:
//! - Pure: no async runtime, no I/O beyond reading a file the caller names.
//! - Ties are kept as place ranges ([`standings::Place`]); every consumer says which end
//!   it uses (the Codeforces rating uses the worst place, ICPC displays the best).
//! - Ratings carry their method in their name (`codeforces` change and performance,
//!   `codeelo_rating`), never a bare "rating".
//! - statrs is used in [`numeric`] only.
#![deny(missing_docs)]

pub mod clics;
pub mod codeforces;
pub mod elo_mmr;
mod error;
pub mod numeric;
pub mod place;
pub mod report;
pub mod standings;

pub use error::{Error, Result};
