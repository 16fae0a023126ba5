//! The CLICS Contest API 2023-06 objects, one type each, named by the section of the
//! specification ("Contest API", icpc/ccs-specs, release 2023-06) they follow and checked
//! against its JSON schemas (`json-schema/*.json` of that release).
//!
//! Writing: a required property is always written; an optional one is left out when it
//! is `None`, except where the schema allows `null` and a reader may expect the key
//! (the state's times, a judgement's end, a submission's `entry_point`).
//! Reading: unknown properties are ignored (feeds carry extensions, such as a team's
//! `label` or an award's `parameters`) and properties that older forms leave out and the
//! board does not need default (a language's `extensions`, a submission's `files`, a
//! file reference's `mime`).

use serde::{Deserialize, Serialize};

use super::time::{RelTime, Seconds, Time, minutes};

/// A file reference (2023-06 "File reference"): where to fetch it and what it is.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct FileRef {
    /// The URL, absolute or relative to the API's base URL.
    pub href: String,
    /// Its file name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filename: Option<String>,
    /// Its media type (`text/html`, `application/pdf`, `image/png`, ...).
    #[serde(default)]
    pub mime: String,
    /// A hash of its content, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// Width in pixels (images).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<u32>,
    /// Height in pixels (images).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub height: Option<u32>,
}

impl FileRef {
    /// A reference to `href`, named `filename`, of media type `mime`.
    pub fn new(
        href: impl Into<String>,
        filename: impl Into<String>,
        mime: impl Into<String>,
    ) -> FileRef {
        FileRef {
            href: href.into(),
            filename: Some(filename.into()),
            mime: mime.into(),
            ..FileRef::default()
        }
    }
}

/// How a contest is scored (2023-06 "Contests", `scoreboard_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoreboardType {
    /// ICPC: solved count, penalty time.
    PassFail,
    /// Points.
    Score,
}

/// A contest (2023-06 "Contests").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Contest {
    /// Identifier.
    pub id: String,
    /// Short display name.
    pub name: String,
    /// Full name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formal_name: Option<String>,
    /// Scheduled start; `null` when not scheduled.
    #[serde(default)]
    pub start_time: Option<Time>,
    /// The countdown's pause, when paused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub countdown_pause_time: Option<RelTime>,
    /// Length of the contest.
    pub duration: RelTime,
    /// How long before the end the scoreboard freezes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoreboard_freeze_duration: Option<RelTime>,
    /// How the contest is scored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoreboard_type: Option<ScoreboardType>,
    /// Minutes per penalised rejection: an integer in 2023-06 (read also as a RELTIME,
    /// the 2026-01 form).
    #[serde(
        default,
        deserialize_with = "minutes::option::deserialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub penalty_time: Option<u32>,
    /// Banner images.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub banner: Option<Vec<FileRef>>,
    /// Logo images.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<Vec<FileRef>>,
}

impl Contest {
    /// The contest time from which the public board is frozen: `duration` minus
    /// `scoreboard_freeze_duration`, when there is a freeze.
    pub fn freeze_start(&self) -> Option<RelTime> {
        self.scoreboard_freeze_duration
            .map(|freeze| RelTime::from_millis(self.duration.millis() - freeze.millis()))
    }
}

/// The contest's state (2023-06 "Contest state"): when each phase happened, `null`
/// until it has.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct State {
    /// When the contest started.
    #[serde(default)]
    pub started: Option<Time>,
    /// When the scoreboard froze.
    #[serde(default)]
    pub frozen: Option<Time>,
    /// When the contest ended.
    #[serde(default)]
    pub ended: Option<Time>,
    /// When the scoreboard thawed.
    #[serde(default)]
    pub thawed: Option<Time>,
    /// When the results were final.
    #[serde(default)]
    pub finalized: Option<Time>,
    /// When no more updates will come.
    #[serde(default)]
    pub end_of_updates: Option<Time>,
}

/// A judgement type (2023-06 "Judgement Types").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct JudgementType {
    /// Identifier: one of the spec's codes (`AC`, `WA`, `TLE`, `CE`, ...).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Whether it costs penalty time (required in a pass-fail contest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<bool>,
    /// Whether it solves the problem.
    pub solved: bool,
}

impl JudgementType {
    /// A type `id` named `name`, solving or not, with its `penalty` set the usual way:
    /// a rejection costs, except a compile error (`CE`, `CTL`) or a judge error (`JE`).
    pub fn new(id: impl Into<String>, name: impl Into<String>, solved: bool) -> JudgementType {
        let id = id.into();
        JudgementType {
            penalty: Some(!solved && !free_rejection(&id)),
            id,
            name: name.into(),
            solved,
        }
    }

    /// Whether a submission judged so costs penalty time: the `penalty` field when
    /// present, else the usual rule of [`JudgementType::new`].
    pub fn is_penalised(&self) -> bool {
        self.penalty
            .unwrap_or(!self.solved && !free_rejection(&self.id))
    }
}

fn free_rejection(id: &str) -> bool {
    matches!(id, "CE" | "CTL" | "JE")
}

/// A compiler or runner command (2023-06 "Languages", `compiler`, `runner`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Command {
    /// The command.
    #[serde(default)]
    pub command: String,
    /// Its arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<String>,
    /// Its version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The command that prints its version.
    #[serde(
        default,
        rename = "version-command",
        skip_serializing_if = "Option::is_none"
    )]
    pub version_command: Option<String>,
}

/// A language (2023-06 "Languages").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Language {
    /// Identifier.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Whether a submission must name its entry point.
    #[serde(default)]
    pub entry_point_required: bool,
    /// What the entry point is called, when one is required.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_point_name: Option<String>,
    /// File extensions.
    #[serde(default)]
    pub extensions: Vec<String>,
    /// How a submission is compiled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compiler: Option<Command>,
    /// How a submission is run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runner: Option<Command>,
}

/// A problem (2023-06 "Problems").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// Identifier.
    pub id: String,
    /// UUID, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
    /// Label on the scoreboard (`A`, `B`, ...).
    pub label: String,
    /// Name.
    pub name: String,
    /// Position in the contest, from 0 (problems are ordered by it).
    #[serde(default)]
    pub ordinal: u32,
    /// Colour as `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rgb: Option<String>,
    /// Colour name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Time limit per test case, in whole milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit: Option<Seconds>,
    /// Where `time_limit` came from: `problem.yaml`, `.timelimit`, `derived` (from the
    /// package's accepted submissions) or `default`. An extension of this judge (2023-06
    /// allows further properties); other feeds leave it out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_limit_source: Option<String>,
    /// Number of test cases.
    #[serde(default)]
    pub test_data_count: u32,
    /// Maximum score (scored contests).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_score: Option<f64>,
    /// The problem package.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub package: Option<Vec<FileRef>>,
    /// The statement (HTML, PDF).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<Vec<FileRef>>,
    /// Files given to the teams, such as sample data (2026-01's name; 2023-06 allows
    /// further properties).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attachments: Option<Vec<FileRef>>,
}

/// A group of teams (2023-06 "Groups").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// Identifier.
    pub id: String,
    /// ICPC id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icpc_id: Option<String>,
    /// Name.
    pub name: String,
    /// Kind of group.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
}

/// A place on Earth (2023-06 "Organizations", `location`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Location {
    /// Latitude in degrees.
    pub latitude: f64,
    /// Longitude in degrees.
    pub longitude: f64,
}

/// An organization (2023-06 "Organizations").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Organization {
    /// Identifier.
    pub id: String,
    /// ICPC id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icpc_id: Option<String>,
    /// Short name.
    pub name: String,
    /// Full name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub formal_name: Option<String>,
    /// ISO 3166-1 alpha-3 country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Flag images.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country_flag: Option<Vec<FileRef>>,
    /// Web site.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Twitter hashtag.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub twitter_hashtag: Option<String>,
    /// Where it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Logo images.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logo: Option<Vec<FileRef>>,
}

/// A team's seat on the contest floor (2023-06 "Teams", `location`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    /// X in metres.
    pub x: f64,
    /// Y in metres.
    pub y: f64,
    /// Rotation in degrees.
    pub rotation: f64,
}

/// A team (2023-06 "Teams").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Team {
    /// Identifier.
    pub id: String,
    /// ICPC id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icpc_id: Option<String>,
    /// Its label (2023-06 requires it of a served team; older feeds may lack it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Name.
    pub name: String,
    /// Name to show, when not `name`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// Its organization.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organization_id: Option<String>,
    /// Its groups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group_ids: Option<Vec<String>>,
    /// Hidden from the scoreboard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Its seat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<Seat>,
    /// Photos.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub photo: Option<Vec<FileRef>>,
    /// Video streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub video: Option<Vec<FileRef>>,
    /// Backups of its files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<Vec<FileRef>>,
    /// Key logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_log: Option<Vec<FileRef>>,
    /// Tool data.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_data: Option<Vec<FileRef>>,
    /// Desktop streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub desktop: Option<Vec<FileRef>>,
    /// Webcam streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webcam: Option<Vec<FileRef>>,
    /// Audio streams.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audio: Option<Vec<FileRef>>,
}

impl Team {
    /// A team `id` called `name`.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> Team {
        Team {
            id: id.into(),
            name: name.into(),
            ..Team::default()
        }
    }

    /// The name to show: `display_name`, else `name`.
    pub fn shown_name(&self) -> &str {
        self.display_name.as_deref().unwrap_or(&self.name)
    }
}

/// A submission (2023-06 "Submissions").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Submission {
    /// Identifier.
    pub id: String,
    /// Its language.
    pub language_id: String,
    /// Its problem.
    pub problem_id: String,
    /// Its team.
    pub team_id: String,
    /// When it was made.
    pub time: Time,
    /// When it was made, in contest time.
    pub contest_time: RelTime,
    /// The entry point (`null` when the language needs none; required for Java).
    #[serde(default)]
    pub entry_point: Option<String>,
    /// Its files (one zip).
    #[serde(default)]
    pub files: Vec<FileRef>,
    /// Reaction videos.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<Vec<FileRef>>,
}

/// A judgement (2023-06 "Judgements"): pending while `judgement_type_id` is `None`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    /// Identifier.
    pub id: String,
    /// The submission judged.
    pub submission_id: String,
    /// The verdict, once there is one.
    #[serde(default)]
    pub judgement_type_id: Option<String>,
    /// When judging started.
    pub start_time: Time,
    /// When judging started, in contest time.
    pub start_contest_time: RelTime,
    /// When judging ended (`null` until it has).
    #[serde(default)]
    pub end_time: Option<Time>,
    /// When judging ended, in contest time (`null` until it has).
    #[serde(default)]
    pub end_contest_time: Option<RelTime>,
    /// The longest run, in whole milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_run_time: Option<Seconds>,
    /// Its points, on a scored contest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// A run of one test case (2023-06 "Runs").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Identifier.
    pub id: String,
    /// Its judgement.
    pub judgement_id: String,
    /// Position among the judgement's runs.
    pub ordinal: u32,
    /// Its verdict.
    pub judgement_type_id: String,
    /// When it ended.
    pub time: Time,
    /// When it ended, in contest time.
    pub contest_time: RelTime,
    /// Its run time, in whole milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run_time: Option<Seconds>,
}

/// A clarification (2023-06 "Clarifications").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Clarification {
    /// Identifier.
    pub id: String,
    /// The team that asked (`null`: the jury).
    #[serde(default)]
    pub from_team_id: Option<String>,
    /// The team it is for (`null`: everyone, or the jury).
    #[serde(default)]
    pub to_team_id: Option<String>,
    /// The clarification it answers.
    #[serde(default)]
    pub reply_to_id: Option<String>,
    /// Its problem (`null`: general).
    #[serde(default)]
    pub problem_id: Option<String>,
    /// Its text.
    pub text: String,
    /// When it was made.
    pub time: Time,
    /// When it was made, in contest time.
    pub contest_time: RelTime,
}

/// An award (2023-06 "Awards").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Award {
    /// Identifier (`first-to-solve-<problem id>`, `winner`, ...).
    pub id: String,
    /// What it says.
    pub citation: String,
    /// The teams that get it.
    pub team_ids: Vec<String>,
}

/// A scoreboard (2023-06 "Scoreboard").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Scoreboard {
    /// The last event it includes.
    pub event_id: String,
    /// When it was computed.
    pub time: Time,
    /// When it was computed, in contest time.
    pub contest_time: RelTime,
    /// The contest's state then.
    pub state: State,
    /// One row a team, best first.
    pub rows: Vec<ScoreboardRow>,
}

/// A scoreboard row (2023-06 "Scoreboard", `rows`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreboardRow {
    /// Rank from 1; tied teams share it.
    pub rank: u32,
    /// The team.
    pub team_id: String,
    /// Its score.
    pub score: RowScore,
    /// One cell a problem, in problem order.
    #[serde(default)]
    pub problems: Vec<ScoreboardProblem>,
}

/// A row's score (2023-06 "Scoreboard", `score`): `num_solved` and `total_time` on a
/// pass-fail board, `score` on a scored one.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RowScore {
    /// Pass-fail.
    PassFail {
        /// Problems solved.
        num_solved: u32,
        /// Penalty time in minutes.
        #[serde(deserialize_with = "minutes::deserialize")]
        total_time: u32,
        /// Minute of the last accept (absent when nothing is solved).
        #[serde(
            default,
            deserialize_with = "minutes::option::deserialize",
            skip_serializing_if = "Option::is_none"
        )]
        time: Option<u32>,
    },
    /// Scored.
    Score {
        /// Points.
        score: f64,
        /// Minute of the last improvement.
        #[serde(
            default,
            deserialize_with = "minutes::option::deserialize",
            skip_serializing_if = "Option::is_none"
        )]
        time: Option<u32>,
    },
}

/// A team's cell for one problem (2023-06 "Scoreboard", `problems`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreboardProblem {
    /// The problem.
    pub problem_id: String,
    /// Judged submissions that count, up to and including the first accept.
    pub num_judged: u32,
    /// Submissions not judged yet, or hidden by the freeze.
    pub num_pending: u32,
    /// Solved (pass-fail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solved: Option<bool>,
    /// Points (scored).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Minute of the accept; present exactly when solved (or scoring).
    #[serde(
        default,
        deserialize_with = "minutes::option::deserialize",
        skip_serializing_if = "Option::is_none"
    )]
    pub time: Option<u32>,
    /// Whether this team solved it first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_to_solve: Option<bool>,
}
