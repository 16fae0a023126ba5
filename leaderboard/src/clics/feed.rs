//! The event feed (2023-06 "Event feed"): one notification a line, read in every form
//! in use, and the objects it leaves once every line has been applied.
//!
//! Forms, detected per line:
//! - 2020-03 (PC^2 exports): `{"type", "id", "op", "data"}` where the top-level `id`
//!   names the event, the object's id is `data.id`, `op` is `create`, `update` or
//!   `delete`, and the contest's type is `contests`;
//! - 2022-07, 2023-06 and 2026-01: `{"type", "id", "data", "token"}` where `id` is the
//!   object's (`null` for the contest and the state) and `data: null` deletes it.
//!   2026-01 writes `penalty_time` as a RELTIME, which [`super::time::minutes`] reads.
//!
//! A line that is not JSON, has no known form, or carries an object that is not the
//! type it says is an error naming the line and the field. Types the board does not use
//! (accounts, persons, commentary, ...) are kept as JSON.

use std::collections::HashMap;

use serde::de::DeserializeOwned;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::board::{Board, IcpcInput, icpc};
use super::objects::{
    Award, Clarification, Contest, Group, Judgement, JudgementType, Language, Organization,
    Problem, Run, State, Submission, Team,
};
use crate::{Error, Result};

/// The type of an event (2023-06 "Event feed", `type`), by its 2023-06 name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EventType {
    /// `contest` (2020-03: `contests`).
    Contest,
    /// `state`.
    State,
    /// `judgement-types`.
    JudgementTypes,
    /// `languages`.
    Languages,
    /// `problems`.
    Problems,
    /// `groups`.
    Groups,
    /// `organizations`.
    Organizations,
    /// `teams`.
    Teams,
    /// `submissions`.
    Submissions,
    /// `judgements`.
    Judgements,
    /// `runs`.
    Runs,
    /// `clarifications`.
    Clarifications,
    /// `awards`.
    Awards,
    /// Any other type (accounts, persons, commentary, ...), by its name.
    Other(String),
}

impl EventType {
    /// The type named `name`, in the 2023-06 or the 2020-03 spelling.
    pub fn from_name(name: &str) -> EventType {
        match name {
            "contest" | "contests" => EventType::Contest,
            "state" => EventType::State,
            "judgement-types" => EventType::JudgementTypes,
            "languages" => EventType::Languages,
            "problems" => EventType::Problems,
            "groups" => EventType::Groups,
            "organizations" => EventType::Organizations,
            "teams" => EventType::Teams,
            "submissions" => EventType::Submissions,
            "judgements" => EventType::Judgements,
            "runs" => EventType::Runs,
            "clarifications" => EventType::Clarifications,
            "awards" => EventType::Awards,
            other => EventType::Other(other.to_owned()),
        }
    }

    /// Its 2023-06 name.
    pub fn name(&self) -> &str {
        match self {
            EventType::Contest => "contest",
            EventType::State => "state",
            EventType::JudgementTypes => "judgement-types",
            EventType::Languages => "languages",
            EventType::Problems => "problems",
            EventType::Groups => "groups",
            EventType::Organizations => "organizations",
            EventType::Teams => "teams",
            EventType::Submissions => "submissions",
            EventType::Judgements => "judgements",
            EventType::Runs => "runs",
            EventType::Clarifications => "clarifications",
            EventType::Awards => "awards",
            EventType::Other(name) => name,
        }
    }

    /// Whether the type has one object per contest (its events have a `null` id).
    pub fn is_singleton(&self) -> bool {
        matches!(self, EventType::Contest | EventType::State)
    }
}

/// The object an event carries.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Object {
    /// A contest.
    Contest(Contest),
    /// The state.
    State(State),
    /// A judgement type.
    JudgementType(JudgementType),
    /// A language.
    Language(Language),
    /// A problem.
    Problem(Problem),
    /// A group.
    Group(Group),
    /// An organization.
    Organization(Organization),
    /// A team.
    Team(Team),
    /// A submission.
    Submission(Submission),
    /// A judgement.
    Judgement(Judgement),
    /// A run.
    Run(super::objects::Run),
    /// A clarification.
    Clarification(Clarification),
    /// An award.
    Award(Award),
    /// An object of another type, as JSON.
    Other(Value),
}

/// The form a feed line was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// 2020-03: event id on top, `op`, the object's id in `data`.
    Clics2020,
    /// 2022-07, 2023-06 and 2026-01: the object's id on top, `data: null` deletes.
    Clics2023,
}

/// One notification (2023-06 "Event feed"): a create or update when `data` is some,
/// a delete of the object `id` when it is none.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    /// The object's type.
    pub kind: EventType,
    /// The object's id (`None` for the contest and the state).
    pub id: Option<String>,
    /// The object, or `None` for a delete.
    pub data: Option<Object>,
    /// The event's token, to resume the feed after it.
    pub token: Option<String>,
}

impl Event {
    /// A create or update of `object`, with its id (none for the contest and state).
    pub fn upsert(kind: EventType, id: Option<String>, object: Object) -> Event {
        Event {
            kind,
            id,
            data: Some(object),
            token: None,
        }
    }
}

impl Serialize for Event {
    /// The 2023-06 form: `{"type", "id", "data", "token"}`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(4))?;
        map.serialize_entry("type", self.kind.name())?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("data", &self.data)?;
        if let Some(token) = &self.token {
            map.serialize_entry("token", token)?;
        }
        map.end()
    }
}

/// Reads one feed line (`line` is its 1-based number, for errors); `None` for a blank
/// line.
pub fn parse_line(text: &str, line: usize, source_name: &str) -> Result<Option<(Form, Event)>> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let at = |field: &str, message: String| Error::feed(source_name, line, field, message);
    let value: Value =
        serde_json::from_str(text).map_err(|err| Error::line(source_name, line, err))?;
    let Value::Object(mut event) = value else {
        return Err(Error::line(source_name, line, "not a JSON object"));
    };
    let kind = match event.get("type") {
        Some(Value::String(name)) => EventType::from_name(name),
        _ => return Err(at("type", "missing or not a string".to_owned())),
    };
    let data = event.remove("data").unwrap_or(Value::Null);
    let string = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
    let (form, id, data) = match event.get("op") {
        Some(op) => {
            let id = string(data.get("id"));
            let data = match op.as_str() {
                Some("create" | "update") => Some(data),
                Some("delete") => None,
                _ => return Err(at("op", format!("{op} is not create, update or delete"))),
            };
            (Form::Clics2020, id, data)
        }
        None => {
            let id = string(event.get("id")).or_else(|| string(data.get("id")));
            let data = (!data.is_null()).then_some(data);
            (Form::Clics2023, id, data)
        }
    };
    // The contest and the state have no id in a notification (2023-06).
    let id = id.filter(|_| !kind.is_singleton());
    if id.is_none() && !kind.is_singleton() {
        return Err(at("id", format!("a {} event names no object", kind.name())));
    }
    let data = match data {
        None => None,
        Some(data) => Some(object(&kind, data).map_err(|(field, message)| at(&field, message))?),
    };
    let token = string(event.get("token"));
    Ok(Some((
        form,
        Event {
            kind,
            id,
            data,
            token,
        },
    )))
}

/// The typed object of an event's `data`; on error, the field at fault and what is wrong.
fn object(kind: &EventType, data: Value) -> Result<Object, (String, String)> {
    let Value::Object(map) = data else {
        return Err(("data".to_owned(), "not an object".to_owned()));
    };
    Ok(match kind {
        EventType::Contest => Object::Contest(typed(&map)?),
        EventType::State => Object::State(typed(&map)?),
        EventType::JudgementTypes => Object::JudgementType(typed(&map)?),
        EventType::Languages => Object::Language(typed(&map)?),
        EventType::Problems => Object::Problem(typed(&map)?),
        EventType::Groups => Object::Group(typed(&map)?),
        EventType::Organizations => Object::Organization(typed(&map)?),
        EventType::Teams => Object::Team(typed(&map)?),
        EventType::Submissions => Object::Submission(typed(&map)?),
        EventType::Judgements => Object::Judgement(typed(&map)?),
        EventType::Runs => Object::Run(typed(&map)?),
        EventType::Clarifications => Object::Clarification(typed(&map)?),
        EventType::Awards => Object::Award(typed(&map)?),
        EventType::Other(_) => Object::Other(Value::Object(map)),
    })
}

/// Deserializes `map` as `T`; on error names the property: the one serde names as
/// missing, else the one whose text holds the error's position in the compact JSON.
fn typed<T: DeserializeOwned>(map: &Map<String, Value>) -> Result<T, (String, String)> {
    let compact = Value::Object(map.clone()).to_string();
    serde_json::from_str(&compact).map_err(|err| {
        let message = err.to_string();
        let message = match message.rsplit_once(" at line ") {
            Some((message, _)) => message.to_owned(),
            None => message,
        };
        if let Some(field) = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next())
        {
            return (field.to_owned(), "missing".to_owned());
        }
        // Keys are written in the map's order: `{"k1":v1,"k2":v2}`.
        let mut start = 1;
        let position = err.column().saturating_sub(1);
        for (key, value) in map {
            let len = Value::String(key.clone()).to_string().len() + 1 + value.to_string().len();
            // The error is reported at or just after the value's last character.
            if position <= start + len {
                return (key.clone(), message);
            }
            start += len + 1;
        }
        ("data".to_owned(), message)
    })
}

/// Objects of one type by id, in order of first appearance, deletes applied.
#[derive(Debug)]
struct Table<T> {
    items: Vec<Option<T>>,
    index: HashMap<String, usize>,
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table {
            items: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<T> Table<T> {
    fn apply(&mut self, id: String, object: Option<T>) {
        match (self.index.get(&id), object) {
            (Some(&idx), Some(object)) => self.items[idx] = Some(object),
            (Some(&idx), None) => {
                self.items[idx] = None;
                self.index.remove(&id);
            }
            (None, Some(object)) => {
                self.index.insert(id, self.items.len());
                self.items.push(Some(object));
            }
            (None, None) => {}
        }
    }

    fn into_vec(self) -> Vec<T> {
        self.items.into_iter().flatten().collect()
    }
}

/// Every object of a feed after its last line: the latest version of each, deleted
/// ones gone, each list in order of first appearance (problems by `ordinal`).
#[derive(Debug, Default)]
pub struct Feed {
    /// Where the feed came from (a file name), for error messages.
    pub source_name: String,
    /// The contest.
    pub contest: Option<Contest>,
    /// The contest's state.
    pub state: Option<State>,
    /// Judgement types.
    pub judgement_types: Vec<JudgementType>,
    /// Languages.
    pub languages: Vec<Language>,
    /// Problems, by `ordinal` (then order of appearance).
    pub problems: Vec<Problem>,
    /// Groups.
    pub groups: Vec<Group>,
    /// Organizations.
    pub organizations: Vec<Organization>,
    /// Teams.
    pub teams: Vec<Team>,
    /// Submissions.
    pub submissions: Vec<Submission>,
    /// Judgements (a rejudgement is a later one).
    pub judgements: Vec<Judgement>,
    /// Runs.
    pub runs: Vec<Run>,
    /// Clarifications.
    pub clarifications: Vec<Clarification>,
    /// Awards.
    pub awards: Vec<Award>,
    /// The line that last wrote each submission and judgement, for errors.
    lines: HashMap<(&'static str, String), usize>,
}

#[derive(Default)]
struct Tables {
    judgement_types: Table<JudgementType>,
    languages: Table<Language>,
    problems: Table<Problem>,
    groups: Table<Group>,
    organizations: Table<Organization>,
    teams: Table<Team>,
    submissions: Table<Submission>,
    judgements: Table<Judgement>,
    runs: Table<Run>,
    clarifications: Table<Clarification>,
    awards: Table<Award>,
}

/// Reads an event feed (one notification a line, any form, forms may mix).
///
/// Errors: a line that is not JSON or not an event, an unknown `op`, an object whose
/// property has the wrong type or format (named), or an event whose type and object
/// disagree.
pub fn read_feed(text: &str, source_name: &str) -> Result<Feed> {
    let mut feed = Feed {
        source_name: source_name.to_owned(),
        ..Feed::default()
    };
    let mut tables = Tables::default();
    for (idx, line_text) in text.lines().enumerate() {
        let line = idx + 1;
        let Some((_, event)) = parse_line(line_text, line, source_name)? else {
            continue;
        };
        let id = event.id.clone().unwrap_or_default();
        let mismatch = || {
            Error::feed(
                source_name,
                line,
                "type",
                format!("{} with another type's object", event.kind.name()),
            )
        };
        macro_rules! apply {
            ($table:ident, $variant:ident) => {
                match event.data {
                    Some(Object::$variant(object)) => tables.$table.apply(id, Some(object)),
                    None => tables.$table.apply(id, None),
                    Some(_) => return Err(mismatch()),
                }
            };
        }
        match event.kind {
            EventType::Contest => match event.data {
                Some(Object::Contest(contest)) => feed.contest = Some(contest),
                None => feed.contest = None,
                Some(_) => return Err(mismatch()),
            },
            EventType::State => match event.data {
                Some(Object::State(state)) => feed.state = Some(state),
                None => feed.state = None,
                Some(_) => return Err(mismatch()),
            },
            EventType::Submissions => {
                feed.lines.insert(("submission", id.clone()), line);
                apply!(submissions, Submission)
            }
            EventType::Judgements => {
                feed.lines.insert(("judgement", id.clone()), line);
                apply!(judgements, Judgement)
            }
            EventType::JudgementTypes => apply!(judgement_types, JudgementType),
            EventType::Languages => apply!(languages, Language),
            EventType::Problems => apply!(problems, Problem),
            EventType::Groups => apply!(groups, Group),
            EventType::Organizations => apply!(organizations, Organization),
            EventType::Teams => apply!(teams, Team),
            EventType::Runs => apply!(runs, Run),
            EventType::Clarifications => apply!(clarifications, Clarification),
            EventType::Awards => apply!(awards, Award),
            EventType::Other(_) => {}
        }
    }
    feed.judgement_types = tables.judgement_types.into_vec();
    feed.languages = tables.languages.into_vec();
    feed.problems = tables.problems.into_vec();
    // A stable sort: equal ordinals keep the feed's order.
    feed.problems.sort_by_key(|p| p.ordinal);
    feed.groups = tables.groups.into_vec();
    feed.organizations = tables.organizations.into_vec();
    feed.teams = tables.teams.into_vec();
    feed.submissions = tables.submissions.into_vec();
    feed.judgements = tables.judgements.into_vec();
    feed.runs = tables.runs.into_vec();
    feed.clarifications = tables.clarifications.into_vec();
    feed.awards = tables.awards.into_vec();
    Ok(feed)
}

impl Feed {
    /// The contest, or an error saying the feed has none.
    pub fn contest(&self) -> Result<&Contest> {
        self.contest.as_ref().ok_or_else(|| Error::FeedMissing {
            source_name: self.source_name.clone(),
            what: "contest",
        })
    }

    /// Minutes per penalised rejection: the contest's `penalty_time`, which the board
    /// needs.
    pub fn penalty_minutes(&self) -> Result<u32> {
        self.contest()?
            .penalty_time
            .ok_or_else(|| Error::FeedMissing {
                source_name: self.source_name.clone(),
                what: "contest `penalty_time`",
            })
    }

    /// The ICPC board of the feed ([`icpc`]): the final one, or with `frozen` the public
    /// one, where submissions from the freeze on are pending. Submissions after the
    /// contest's end do not count.
    ///
    /// Errors: no contest or no `penalty_time`; a submission naming a team or problem
    /// the feed does not define, or a judgement naming an unknown judgement type (the
    /// error names the line that wrote it and the field).
    pub fn board(&self, frozen: bool) -> Result<Board> {
        let contest = self.contest()?;
        let input = IcpcInput {
            penalty_minutes: self.penalty_minutes()?,
            problems: &self.problems,
            teams: &self.teams,
            judgement_types: &self.judgement_types,
            submissions: &self.submissions,
            judgements: &self.judgements,
            freeze_start: if frozen { contest.freeze_start() } else { None },
            end: Some(contest.duration),
        };
        icpc(&input).map_err(|err| match err {
            Error::UnknownReference {
                kind,
                id,
                field,
                value,
            } => {
                let line = self.lines.get(&(kind, id.clone())).copied().unwrap_or(0);
                Error::feed(
                    &self.source_name,
                    line,
                    field,
                    format!("{kind} {id} names {value}, which the feed does not define"),
                )
            }
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEED_2020: &str = r#"{"type":"contests", "id":"pc2-1", "op":"create", "data": {"id":"c","name":"C","start_time":"2023-02-25T14:00:00.004-05","duration":"5:00:00","scoreboard_freeze_duration":"01:00:00","penalty_time":20}}
{"type":"judgement-types", "id":"pc2-3", "op":"create", "data": {"id":"AC","name":"Accepted","penalty":false,"solved":true}}
{"type":"judgement-types", "id":"pc2-4", "op":"create", "data": {"id":"WA","name":"Wrong","penalty":true,"solved":false}}
{"type":"problems", "id":"pc2-13", "op":"create", "data": {"id":"p","label":"A","name":"A","ordinal":1,"test_data_count":2}}
{"type":"teams", "id":"pc2-114", "op":"create", "data": {"id":"1","name":"One"}}
{"type":"teams", "id":"pc2-115", "op":"create", "data": {"id":"2","name":"Two"}}
{"type":"submissions", "id":"pc2-274", "op":"create", "data": {"id":"4","language_id":"C++-1","problem_id":"p","team_id":"1","time":"2023-02-25T14:05:29.163-05","contest_time":"00:05:29.204","files":[{"href":"/contest/submissions/4/files"}]}}
{"type":"judgements", "id":"pc2-2294", "op":"create", "data": {"id":"J4","submission_id":"4","start_time":"2023-02-25T14:05:29.163-05","start_contest_time":"00:05:29.204","judgement_type_id":"AC"}}
{"type":"submissions", "id":"pc2-275", "op":"create", "data": {"id":"5","language_id":"C++-1","problem_id":"p","team_id":"2","time":"2023-02-25T14:07:00-05","contest_time":"00:07:00.000"}}
{"type":"judgements", "id":"pc2-2295", "op":"create", "data": {"id":"J5","submission_id":"5","start_time":"2023-02-25T14:07:00-05","start_contest_time":"00:07:00","judgement_type_id":"AC"}}
"#;

    #[test]
    fn a_2020_03_feed_names_objects_by_data_id() {
        let feed = read_feed(FEED_2020, "pacnw").expect("reads");
        let contest = feed.contest().expect("contest");
        assert_eq!(contest.penalty_time, Some(20));
        assert_eq!(
            contest.freeze_start().map(|t| t.millis()),
            Some(4 * 3_600_000)
        );
        assert_eq!(feed.teams.len(), 2);
        assert_eq!(feed.submissions[0].id, "4");
        let board = feed.board(false).expect("board");
        let solved: Vec<(&str, f64)> = board
            .rows
            .iter()
            .map(|r| (r.team_id.as_str(), r.score.points))
            .collect();
        assert_eq!(solved, vec![("1", 1.0), ("2", 1.0)]);
        assert_eq!(board.first_to_solve["p"], vec!["1".to_owned()]);
    }

    #[test]
    fn a_2020_03_delete_removes_the_object_named_in_data() {
        let deleted = format!(
            "{FEED_2020}{}\n{}\n",
            r#"{"type":"judgements", "id":"pc2-9000", "op":"delete", "data": {"id":"J4"}}"#,
            r#"{"type":"teams", "id":"pc2-9001", "op":"delete", "data": {"id":"2"}}"#
        );
        let feed = read_feed(&deleted, "pacnw").expect("reads");
        assert_eq!(feed.judgements.len(), 1);
        assert_eq!(feed.teams.len(), 1);
        // Team 2's submission now names a team the feed no longer defines.
        let err = feed.board(false).expect_err("unknown team");
        assert_eq!(
            err.to_string(),
            "pacnw: line 9, `team_id`: submission 5 names 2, which the feed does not define"
        );
    }

    #[test]
    fn a_2023_06_delete_is_data_null() {
        let feed = format!(
            "{FEED_2020}{}\n",
            r#"{"type":"judgements","id":"J5","data":null}"#
        );
        let feed = read_feed(&feed, "f").expect("reads");
        let board = feed.board(false).expect("board");
        let two = board
            .rows
            .iter()
            .find(|r| r.team_id == "2")
            .expect("team 2");
        assert_eq!((two.score.points, two.problems[0].num_pending), (0.0, 1));
    }

    #[test]
    fn errors_name_the_line_and_the_field() {
        let cases = [
            (
                r#"{"type":"submissions","id":"s","data":{"id":"s","language_id":"c","problem_id":"p","team_id":"1","time":"2023-02-25T14:05:29Z","contest_time":"5 minutes"}}"#,
                "`contest_time`",
            ),
            (
                r#"{"type":"submissions","id":"s","data":{"id":"s","language_id":"c","problem_id":"p","team_id":"1","contest_time":"0:05:00"}}"#,
                "`time`: missing",
            ),
            (
                r#"{"type":"contest","id":"c","data":{"id":"c","name":"C","duration":"5:00:00","penalty_time":true}}"#,
                "`penalty_time`",
            ),
            (
                r#"{"type":"teams","id":"t","op":"replace","data":{"id":"t","name":"T"}}"#,
                "`op`",
            ),
            (r#"{"id":"t","data":{}}"#, "`type`"),
            (r#"{"type":"teams","data":{"name":"T"}}"#, "`id`"),
        ];
        for (line, want) in cases {
            let text = format!("\n{line}\n");
            let err = read_feed(&text, "feed.ndjson").expect_err(line);
            let message = err.to_string();
            assert!(message.starts_with("feed.ndjson: line 2, "), "{message}");
            assert!(message.contains(want), "{message} should name {want}");
        }
        let err = read_feed("{\"type\":\"contest\"}\nnot json\n", "feed.ndjson").expect_err("bad");
        assert!(err.to_string().starts_with("feed.ndjson: line 2"), "{err}");
    }

    #[test]
    fn a_feed_without_contest_or_penalty_is_an_error() {
        let no_contest: String = FEED_2020
            .lines()
            .skip(1)
            .map(|l| format!("{l}\n"))
            .collect();
        let feed = read_feed(&no_contest, "f").expect("reads");
        assert_eq!(
            feed.board(false).expect_err("no contest").to_string(),
            "f: the feed has no contest"
        );
        let no_penalty = FEED_2020.replace(r#","penalty_time":20"#, "");
        let feed = read_feed(&no_penalty, "f").expect("reads");
        assert_eq!(
            feed.board(false).expect_err("no penalty").to_string(),
            "f: the feed has no contest `penalty_time`"
        );
    }

    #[test]
    fn events_serialize_in_the_2023_06_form() {
        let feed = read_feed(FEED_2020, "f").expect("reads");
        let contest = Event::upsert(
            EventType::Contest,
            None,
            Object::Contest(feed.contest.clone().expect("contest")),
        );
        let value = serde_json::to_value(&contest).expect("writes");
        assert_eq!(value["type"], "contest");
        assert!(value["id"].is_null());
        assert_eq!(value["data"]["penalty_time"], 20);
        assert_eq!(value["data"]["duration"], "5:00:00.000");
        assert_eq!(value["data"]["scoreboard_freeze_duration"], "1:00:00.000");
        assert_eq!(value["data"]["start_time"], "2023-02-25T14:00:00.004-05:00");
        let delete = Event {
            kind: EventType::Teams,
            id: Some("2".into()),
            data: None,
            token: Some("t9".into()),
        };
        assert_eq!(
            serde_json::to_string(&delete).expect("writes"),
            r#"{"type":"teams","id":"2","data":null,"token":"t9"}"#
        );
        // Read back, each line is the same event.
        let line = serde_json::to_string(&contest).expect("writes");
        let (form, again) = parse_line(&line, 1, "f").expect("reads").expect("an event");
        assert_eq!((form, again), (Form::Clics2023, contest));
    }
}
