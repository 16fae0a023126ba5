//! Leaderboards: human standings under contest rules, placing a model among them, the
//! ratings that place implies, and the statistics to report them honestly.
//!
//! Design decisions:
//! - Pure: no async runtime, no I/O beyond reading a file the caller names.
//! - Ties are kept as place ranges ([`standings::Place`]); every consumer says which end
//!   it uses (the Codeforces rating uses the worst place, ICPC displays the best).
//! - Ratings carry their method in their name (`codeforces` change and performance,
//!   `codeelo_rating`), never a bare "rating".
//! - A model's timing is declared ([`place::Timing`]: measured accept minutes, or
//!   CodeElo's "everything at minute 0"), and so is the tie policy ([`place::TiePolicy`]).
//! - Ratings, each under its own name: the Codeforces change and performance
//!   ([`codeforces`], exact to the published formula, checked against real rounds), the
//!   CodeElo expected-place rating and its summary over contests ([`place`]), and the
//!   Elo-MMR phase-1 performance ([`elo_mmr`]).
//! - Evaluating a model in one contest is one call with typed inputs and a serializable
//!   result ([`evaluate::in_round`] for a Codeforces round, [`evaluate::in_feed`] for a
//!   CLICS feed), so the `leaderboard` command, the agent and the trainer get the same
//!   numbers. Every choice that moves them is a field of [`evaluate::Options`], including
//!   the model's assumed old rating in the Codeforces formula (default
//!   [`evaluate::DEFAULT_ASSUMED_OLD_RATING`]); the command is glue around it.
//! - statrs is used in [`numeric`] only.
//!
//! Modules: [`standings`] (rules, scores, places), [`codeforces`] (rows and API import,
//! rating), [`clics`] (CLICS 2023-06 objects and times, the event feed in every form in
//! use, the one ICPC fold the contest server shares), [`place`] (a model among
//! humans), [`evaluate`] (a model's score, place and ratings in one contest),
//! [`elo_mmr`], [`numeric`] (bootstrap, pass@k, spread), [`report`] (SVG plot),
//! [`bench`] (synthetic rounds and the rating's benchmark).
#![deny(missing_docs)]

pub mod bench;
pub mod clics;
pub mod codeforces;
pub mod elo_mmr;
mod error;
pub mod evaluate;
pub mod numeric;
pub mod place;
pub mod report;
pub mod standings;

pub use error::{Error, Result};
