//! A checker of CLICS Contest API 2023-06 objects, written from the specification's text
//! and the JSON schemas published with it (icpc/ccs-specs, `json-schema/` of the 2023-06
//! release): required properties, types, `TIME` and `RELTIME` formats, ids, file
//! references, integer minutes (`penalty_time`, the scoreboard's `total_time` and problem
//! `time`), whole milliseconds (`time_limit`, `run_time`, `max_run_time`), the `score`
//! objects of both scoreboard types, and the rules between properties the text states
//! (a judgement's end is all or nothing, `entry_point` is `null` for C and C++, the
//! state's times are in order, an event of type `contest` or `state` has a `null` id).
//!
//! Each check returns the list of what is wrong, each naming the property's path; an
//! empty list is a pass.

use serde_json::{Map, Value};

/// Judgement type ids the 2023-06 specification lists.
const JUDGEMENT_TYPES: &[&str] = &[
    "AC", "RE", "WA", "TLE", "RTE", "CE", "APE", "OLE", "PE", "EO", "IO", "NO", "WTL", "ILE",
    "TCO", "TWA", "TPE", "TEO", "TIO", "TNO", "MLE", "SV", "IF", "RCO", "RWA", "RPE", "REO", "RIO",
    "RNO", "CTL", "JE", "SE", "CS",
];

/// Event types of the 2023-06 notification format.
const EVENT_TYPES: &[&str] = &[
    "contest",
    "judgement-types",
    "languages",
    "problems",
    "groups",
    "organizations",
    "teams",
    "persons",
    "accounts",
    "state",
    "submissions",
    "judgements",
    "runs",
    "clarifications",
    "awards",
    "commentary",
];

/// The contest facts other objects are checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Board {
    /// `scoreboard_type: pass-fail`.
    PassFail,
    /// `scoreboard_type: score`.
    Score,
}

/// Collects what is wrong with one object.
struct Check<'v, 'e> {
    path: String,
    object: Option<&'v Map<String, Value>>,
    errors: &'e mut Vec<String>,
}

impl<'v, 'e> Check<'v, 'e> {
    fn new(path: &str, value: &'v Value, errors: &'e mut Vec<String>) -> Check<'v, 'e> {
        let object = value.as_object();
        if object.is_none() {
            errors.push(format!("{path}: not an object: {value}"));
        }
        Check {
            path: path.to_owned(),
            object,
            errors,
        }
    }

    fn fail(&mut self, key: &str, what: &str) {
        let value = self.get(key).map_or("absent".to_owned(), Value::to_string);
        self.errors
            .push(format!("{}.{key}: {what} (got {value})", self.path));
    }

    fn get(&self, key: &str) -> Option<&'v Value> {
        self.object.and_then(|o| o.get(key))
    }

    /// `key` is present (possibly `null`).
    fn present(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// `key` is present and not `null`.
    fn has(&self, key: &str) -> bool {
        self.get(key).is_some_and(|v| !v.is_null())
    }

    /// Checks `key` with `ok` when present and not null; `required` makes absence (or
    /// `null`) an error.
    fn field(&mut self, key: &str, required: bool, what: &str, ok: fn(&Value) -> bool) {
        match self.get(key) {
            None | Some(Value::Null) if required => self.fail(key, &format!("required {what}")),
            None | Some(Value::Null) => {}
            Some(v) if ok(v) => {}
            Some(_) => self.fail(key, what),
        }
    }

    fn id(&mut self, key: &str, required: bool) {
        self.field(key, required, "an ID", is_identifier);
    }
    fn string(&mut self, key: &str, required: bool) {
        self.field(key, required, "a string", Value::is_string);
    }
    fn boolean(&mut self, key: &str, required: bool) {
        self.field(key, required, "a boolean", Value::is_boolean);
    }
    fn integer(&mut self, key: &str, required: bool) {
        self.field(key, required, "a non-negative integer", is_count);
    }
    fn number(&mut self, key: &str, required: bool) {
        self.field(key, required, "a non-negative number", |v| {
            v.as_f64().is_some_and(|x| x >= 0.0)
        });
    }
    fn millis(&mut self, key: &str, required: bool) {
        self.field(
            key,
            required,
            "a non-negative number of whole milliseconds (multiple of 0.001)",
            is_millis,
        );
    }
    fn time(&mut self, key: &str, required: bool) {
        self.field(key, required, "a TIME", is_abstime);
    }
    fn reltime(&mut self, key: &str, required: bool) {
        self.field(key, required, "a RELTIME", |v| is_reltime(v, true));
    }
    fn posreltime(&mut self, key: &str, required: bool) {
        self.field(key, required, "a non-negative RELTIME", |v| {
            is_reltime(v, false)
        });
    }
    fn files(&mut self, key: &str, required: bool) {
        self.field(key, required, "an array of FILE", is_filerefs);
    }
}

fn is_identifier(v: &Value) -> bool {
    let Some(s) = v.as_str() else { return false };
    let bytes = s.as_bytes();
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    match bytes {
        [] => false,
        [first] => word(first),
        [first, middle @ .., last] => {
            bytes.len() <= 36
                && word(first)
                && (word(last) || *last == b'-')
                && middle.iter().all(|b| word(b) || *b == b'.' || *b == b'-')
        }
    }
}

fn is_count(v: &Value) -> bool {
    v.is_u64()
}

fn is_millis(v: &Value) -> bool {
    v.as_f64().is_some_and(|x| {
        let thousandths = x * 1000.0;
        x >= 0.0 && (thousandths - thousandths.round()).abs() < 1e-6
    })
}

fn digits(s: &str, n: usize) -> bool {
    s.len() == n && s.bytes().all(|b| b.is_ascii_digit())
}

/// `YYYY-MM-DDTHH:MM:SS(.uuu)?` then `Z` or `±hh(:mm)?`.
fn is_abstime(v: &Value) -> bool {
    let Some(s) = v.as_str() else { return false };
    if s.len() < 20 || !s.is_char_boundary(19) {
        return false;
    }
    let (date_time, rest) = s.split_at(19);
    let shape = date_time.bytes().enumerate().all(|(i, b)| match i {
        4 | 7 => b == b'-',
        10 => b == b'T',
        13 | 16 => b == b':',
        _ => b.is_ascii_digit(),
    });
    let rest = match rest.strip_prefix('.') {
        Some(r) if r.len() >= 3 && digits(&r[..3], 3) => &r[3..],
        Some(_) => return false,
        None => rest,
    };
    let zone = rest == "Z"
        || rest.strip_prefix(['+', '-']).is_some_and(|z| {
            digits(z, 2)
                || (z.len() == 5 && digits(&z[..2], 2) && &z[2..3] == ":" && digits(&z[3..], 2))
        });
    shape && zone && chrono::DateTime::parse_from_rfc3339(&normalized_zone(s)).is_ok()
}

/// `+01` → `+01:00`, for chrono's RFC 3339 parser.
fn normalized_zone(s: &str) -> String {
    let bytes = s.as_bytes();
    let n = s.len();
    if n >= 3 && (bytes[n - 3] == b'+' || bytes[n - 3] == b'-') {
        format!("{s}:00")
    } else {
        s.to_owned()
    }
}

/// `-?h*h:mm:ss(.uuu)?`, hours without a leading zero unless a single digit.
fn is_reltime(v: &Value, negative_ok: bool) -> bool {
    let Some(s) = v.as_str() else { return false };
    let s = match s.strip_prefix('-') {
        Some(rest) if negative_ok => rest,
        Some(_) => return false,
        None => s,
    };
    let (main, fraction) = s.split_once('.').unwrap_or((s, "000"));
    let parts: Vec<&str> = main.split(':').collect();
    let [h, m, sec] = parts[..] else { return false };
    let hours_ok = !h.is_empty()
        && h.bytes().all(|b| b.is_ascii_digit())
        && (h.len() == 1 || !h.starts_with('0'));
    hours_ok && digits(m, 2) && m < "60" && digits(sec, 2) && sec < "60" && digits(fraction, 3)
}

fn is_filerefs(v: &Value) -> bool {
    v.as_array().is_some_and(|refs| {
        refs.iter().all(|r| {
            let mut errors = Vec::new();
            fileref("fileref", r, &mut errors);
            errors.is_empty()
        })
    })
}

/// A `FILE`: `href` and `mime` strings; `filename` and `hash` strings, `width` and
/// `height` positive integers when present.
pub(crate) fn fileref(path: &str, v: &Value, errors: &mut Vec<String>) {
    let mut c = Check::new(path, v, errors);
    c.string("href", true);
    c.string("mime", true);
    c.string("filename", false);
    c.string("hash", false);
    for key in ["width", "height"] {
        c.field(key, false, "a positive integer", |v| {
            v.as_u64().is_some_and(|n| n >= 1)
        });
    }
}

/// `GET /api`.
pub(crate) fn api_information(v: &Value) -> Vec<String> {
    let mut errors = Vec::new();
    let mut c = Check::new("api", v, &mut errors);
    c.field("version", true, "the string \"2023-06\"", |v| {
        v == "2023-06"
    });
    c.string("version_url", true);
    if let Some(provider) = c.get("provider") {
        let mut p = Check::new("api.provider", provider, c.errors);
        p.string("name", true);
        p.string("version", false);
    }
    errors
}

/// A contest object; returns its board type when it is readable.
pub(crate) fn contest(v: &Value, errors: &mut Vec<String>) -> Option<Board> {
    let mut c = Check::new("contest", v, errors);
    c.id("id", true);
    c.string("name", true);
    c.string("formal_name", false);
    c.time("start_time", false);
    c.posreltime("countdown_pause_time", false);
    c.posreltime("duration", true);
    c.posreltime("scoreboard_freeze_duration", false);
    c.time("scoreboard_thaw_time", false);
    if c.has("start_time") && c.has("countdown_pause_time") {
        c.fail(
            "countdown_pause_time",
            "must be null when start_time is set",
        );
    }
    c.field("scoreboard_type", true, "`pass-fail` or `score`", |v| {
        v == "pass-fail" || v == "score"
    });
    let board = match c.get("scoreboard_type").and_then(Value::as_str) {
        Some("pass-fail") => Some(Board::PassFail),
        Some("score") => Some(Board::Score),
        _ => None,
    };
    // Integer minutes; a pass-fail contest states it (judgement types' `penalty` is
    // required iff it is present).
    c.integer("penalty_time", board == Some(Board::PassFail));
    c.files("banner", false);
    c.files("logo", false);
    board
}

/// A state object (alone, in the scoreboard or in an event).
pub(crate) fn state(path: &str, v: &Value, errors: &mut Vec<String>) {
    let mut c = Check::new(path, v, errors);
    let keys = [
        "started",
        "frozen",
        "ended",
        "thawed",
        "finalized",
        "end_of_updates",
    ];
    for key in keys {
        c.time(key, false);
    }
    let at = |c: &Check<'_, '_>, key: &str| {
        c.get(key)
            .and_then(Value::as_str)
            .and_then(|s| chrono::DateTime::parse_from_rfc3339(&normalized_zone(s)).ok())
    };
    for (later, earlier) in [
        ("frozen", "started"),
        ("ended", "started"),
        ("ended", "frozen"),
        ("thawed", "frozen"),
        ("thawed", "ended"),
        ("finalized", "ended"),
        ("end_of_updates", "finalized"),
        ("end_of_updates", "thawed"),
    ] {
        if let Some(t) = at(&c, later) {
            match at(&c, earlier) {
                Some(e) if e > t => c.fail(later, &format!("must not be before {earlier}")),
                None if matches!(
                    (later, earlier),
                    ("ended", "started")
                        | ("thawed", "frozen")
                        | ("finalized", "ended")
                        | ("end_of_updates", "finalized")
                ) =>
                {
                    c.fail(later, &format!("must not be set while {earlier} is null"))
                }
                _ => {}
            }
        }
    }
}

/// A problem object.
pub(crate) fn problem(v: &Value, board: Board, errors: &mut Vec<String>) {
    let mut c = Check::new("problem", v, errors);
    c.id("id", true);
    c.string("uuid", false);
    c.string("label", true);
    c.string("name", true);
    c.integer("ordinal", true);
    c.field("rgb", false, "a #RGB or #RRGGBB hex colour", |v| {
        v.as_str().is_some_and(|s| {
            s.strip_prefix('#').is_some_and(|h| {
                (h.len() == 3 || h.len() == 6) && h.bytes().all(|b| b.is_ascii_hexdigit())
            })
        })
    });
    c.string("color", false);
    c.millis("time_limit", true);
    c.integer("test_data_count", true);
    c.number("max_score", board == Board::Score);
    c.files("package", false);
    c.files("statement", false);
    // `attachments` is 2026-01's name; 2023-06 allows more properties.
    c.files("attachments", false);
}

/// A language object.
pub(crate) fn language(v: &Value, errors: &mut Vec<String>) {
    let mut c = Check::new("language", v, errors);
    c.id("id", true);
    c.string("name", true);
    c.boolean("entry_point_required", true);
    let required = c.get("entry_point_required") == Some(&Value::Bool(true));
    c.string("entry_point_name", required);
    c.field("extensions", true, "an array of strings", |v| {
        v.as_array().is_some_and(|a| a.iter().all(Value::is_string))
    });
    for key in ["compiler", "runner"] {
        if let Some(command) = c.get(key).filter(|v| !v.is_null()) {
            let mut k = Check::new(&format!("language.{key}"), command, c.errors);
            k.string("command", true);
            k.string("args", false);
            k.string("version", false);
            k.string("version_command", false);
        }
    }
}

/// A judgement type object (in a pass-fail contest `penalty` is required).
pub(crate) fn judgement_type(v: &Value, board: Board, errors: &mut Vec<String>) {
    let mut c = Check::new("judgement-type", v, errors);
    c.field("id", true, "a known judgement type id", is_judgement_type);
    c.string("name", true);
    c.boolean("penalty", board == Board::PassFail);
    c.boolean("solved", true);
}

fn is_judgement_type(v: &Value) -> bool {
    v.as_str().is_some_and(|s| JUDGEMENT_TYPES.contains(&s))
}

/// A team object.
pub(crate) fn team(v: &Value, errors: &mut Vec<String>) {
    let mut c = Check::new("team", v, errors);
    c.id("id", true);
    c.string("icpc_id", false);
    c.string("name", true);
    c.string("label", true);
    c.string("display_name", false);
    c.id("organization_id", false);
    c.field("group_ids", false, "an array of IDs", |v| {
        v.as_array().is_some_and(|a| a.iter().all(is_identifier))
    });
    c.boolean("hidden", false);
    for key in [
        "photo",
        "video",
        "backup",
        "key_log",
        "tool_data",
        "desktop",
        "webcam",
        "audio",
    ] {
        c.files(key, false);
    }
}

/// A submission object.
pub(crate) fn submission(v: &Value, errors: &mut Vec<String>) {
    let mut c = Check::new("submission", v, errors);
    for key in ["id", "language_id", "problem_id", "team_id"] {
        c.id(key, true);
    }
    c.time("time", true);
    c.reltime("contest_time", true);
    c.field("entry_point", false, "a string or null", |v| v.is_string());
    c.files("files", true);
    let files = c.get("files").and_then(Value::as_array);
    if files.is_some_and(|f| f.len() != 1 || f[0]["mime"] != "application/zip") {
        c.fail("files", "exactly one archive of mime application/zip");
    }
    c.files("reaction", false);
    // The schema's `oneOf`: Java names its entry point; C and C++ state a `null` one.
    match c.get("language_id").and_then(Value::as_str) {
        Some("java") if !c.present("entry_point") => {
            c.fail("entry_point", "required for java");
        }
        Some("c" | "cpp") if c.get("entry_point") != Some(&Value::Null) => {
            c.fail("entry_point", "must be null for C and C++");
        }
        _ => {}
    }
}

/// A judgement object.
pub(crate) fn judgement(v: &Value, board: Board, errors: &mut Vec<String>) {
    let mut c = Check::new("judgement", v, errors);
    c.id("id", true);
    c.id("submission_id", true);
    c.field(
        "judgement_type_id",
        false,
        "a known judgement type id",
        is_judgement_type,
    );
    c.number("score", board == Board::Score);
    c.time("start_time", true);
    c.reltime("start_contest_time", true);
    c.time("end_time", false);
    c.reltime("end_contest_time", false);
    c.millis("max_run_time", false);
    let ended = ["judgement_type_id", "end_time", "end_contest_time"].map(|k| c.has(k));
    if ended.iter().any(|e| *e) && !ended.iter().all(|e| *e) {
        c.fail(
            "judgement_type_id",
            "judgement_type_id, end_time and end_contest_time are set together",
        );
    }
}

/// A run object; `test_data_count` bounds its ordinal.
pub(crate) fn run(v: &Value, test_data_count: Option<u64>, errors: &mut Vec<String>) {
    let mut c = Check::new("run", v, errors);
    c.id("id", true);
    c.id("judgement_id", true);
    c.field("ordinal", true, "an integer from 1", |v| {
        v.as_u64().is_some_and(|n| n >= 1)
    });
    if let (Some(n), Some(max)) = (c.get("ordinal").and_then(Value::as_u64), test_data_count)
        && n > max
    {
        c.fail(
            "ordinal",
            &format!("at most the problem's test_data_count {max}"),
        );
    }
    c.field(
        "judgement_type_id",
        true,
        "a known judgement type id",
        is_judgement_type,
    );
    c.time("time", true);
    c.reltime("contest_time", true);
    c.millis("run_time", true);
}

/// A scoreboard object; `team_names` orders tied rows.
pub(crate) fn scoreboard(
    v: &Value,
    board: Board,
    team_names: &std::collections::HashMap<String, String>,
    errors: &mut Vec<String>,
) {
    let mut c = Check::new("scoreboard", v, errors);
    c.time("time", true);
    c.reltime("contest_time", true);
    if let Some(s) = c.get("state") {
        state("scoreboard.state", s, c.errors);
    } else {
        c.fail("state", "required state object");
    }
    let Some(rows) = c.get("rows").and_then(Value::as_array) else {
        c.fail("rows", "required array");
        return;
    };
    let mut last: Option<(u64, String)> = None;
    for (i, row) in rows.iter().enumerate() {
        let path = format!("scoreboard.rows[{i}]");
        let mut r = Check::new(&path, row, errors);
        r.field("rank", true, "an integer from 1", |v| {
            v.as_u64().is_some_and(|n| n >= 1)
        });
        r.id("team_id", true);
        let rank = r.get("rank").and_then(Value::as_u64).unwrap_or(0);
        let name = r
            .get("team_id")
            .and_then(Value::as_str)
            .and_then(|id| team_names.get(id))
            .cloned()
            .unwrap_or_default();
        if let Some((last_rank, last_name)) = &last
            && (rank < *last_rank || (rank == *last_rank && name < *last_name))
        {
            r.fail("rank", "rows are sorted by rank, then team name");
        }
        last = Some((rank, name));
        match r.get("score") {
            Some(score) => {
                let mut s = Check::new(&format!("{path}.score"), score, r.errors);
                s.integer("num_solved", board == Board::PassFail);
                s.integer("total_time", board == Board::PassFail);
                s.number("score", board == Board::Score);
                s.integer("time", false);
                let solved = s.get("num_solved").and_then(Value::as_u64);
                if s.present("time") && solved.is_some() && (solved == Some(0)) == s.has("time") {
                    s.fail("time", "null exactly when num_solved is 0");
                }
            }
            None => r.fail("score", "required score object"),
        }
        let Some(problems) = r.get("problems") else {
            continue;
        };
        let Some(problems) = problems.as_array() else {
            r.fail("problems", "an array");
            continue;
        };
        for (j, cell) in problems.iter().enumerate() {
            let mut p = Check::new(&format!("{path}.problems[{j}]"), cell, errors);
            p.id("problem_id", true);
            p.integer("num_judged", true);
            p.integer("num_pending", true);
            p.boolean("solved", board == Board::PassFail);
            p.number("score", board == Board::Score);
            let scored = p.get("solved") == Some(&Value::Bool(true))
                || p.get("score")
                    .and_then(Value::as_f64)
                    .is_some_and(|s| s > 0.0);
            // Minutes into the contest, an integer.
            p.integer("time", scored);
            p.boolean("first_to_solve", false);
        }
    }
}

/// A clarification object (2023-06 "Clarifications": `id`, `text`, `time` and
/// `contest_time` required; the team, reply and problem ids an ID or null).
pub(crate) fn clarification(v: &Value, errors: &mut Vec<String>) {
    let mut c = Check::new("clarification", v, errors);
    c.id("id", true);
    for key in ["from_team_id", "to_team_id", "reply_to_id", "problem_id"] {
        c.id(key, false);
    }
    c.string("text", true);
    c.time("time", true);
    c.reltime("contest_time", true);
}

/// An award object (2023-06 "Awards": `id`, `citation`, and `team_ids`, an array of IDs).
pub(crate) fn award(v: &Value, errors: &mut Vec<String>) {
    let mut c = Check::new("award", v, errors);
    c.id("id", true);
    c.string("citation", true);
    c.field("team_ids", true, "an array of IDs", |v| {
        v.as_array()
            .is_some_and(|ids| ids.iter().all(is_identifier))
    });
}

/// One event-feed line of a contest with `board`.
pub(crate) fn event(line: &Value, board: Board) -> Vec<String> {
    let mut errors = Vec::new();
    let mut c = Check::new("event", line, &mut errors);
    c.field("type", true, "a known event type", |v| {
        v.as_str().is_some_and(|s| EVENT_TYPES.contains(&s))
    });
    c.id("id", false);
    c.string("token", false);
    if !c.present("data") {
        c.fail(
            "data",
            "required (an object, an array, or null for a deletion)",
        );
    }
    let kind = c
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let id = c.get("id").cloned().unwrap_or(Value::Null);
    let data = c.get("data").cloned().unwrap_or(Value::Null);
    if matches!(kind.as_str(), "contest" | "state") && !id.is_null() {
        c.fail("id", "null for the contest and state events");
    }
    if !matches!(kind.as_str(), "contest" | "state")
        && data.is_object()
        && data.get("id") != Some(&id)
    {
        c.fail("id", "the id of the object in data");
    }
    let items: Vec<&Value> = match &data {
        Value::Array(items) => items.iter().collect(),
        Value::Null => Vec::new(),
        one => vec![one],
    };
    for item in items {
        match kind.as_str() {
            "contest" => {
                contest(item, &mut errors);
            }
            "state" => state("state", item, &mut errors),
            "problems" => problem(item, board, &mut errors),
            "languages" => language(item, &mut errors),
            "judgement-types" => judgement_type(item, board, &mut errors),
            "teams" => team(item, &mut errors),
            "submissions" => submission(item, &mut errors),
            "judgements" => judgement(item, board, &mut errors),
            "runs" => run(item, None, &mut errors),
            "clarifications" => clarification(item, &mut errors),
            "awards" => award(item, &mut errors),
            _ => {}
        }
    }
    errors
}

#[test]
fn the_formats_accept_the_specifications_examples_and_refuse_others() {
    use serde_json::json;
    for ok in [
        "2014-06-25T11:22:05.034+01",
        "2026-01-01T10:00:00Z",
        "2026-01-01T10:00:00.000-05:00",
    ] {
        assert!(is_abstime(&json!(ok)), "{ok}");
    }
    for bad in [
        "2026-01-01 10:00:00Z",
        "2026-01-01T10:00:00",
        "2026-01-01T10:00:00.1Z",
    ] {
        assert!(!is_abstime(&json!(bad)), "{bad}");
    }
    for ok in ["1:22:05.034", "0:00:00", "-0:15:32.457", "123:00:00.000"] {
        assert!(is_reltime(&json!(ok), true), "{ok}");
    }
    for bad in ["01:00:00", "1:60:00", "1:00:00.5", "20", "1:00"] {
        assert!(!is_reltime(&json!(bad), true), "{bad}");
    }
    assert!(is_millis(&json!(0.123)) && is_millis(&json!(2)) && !is_millis(&json!(0.1234)));
    assert!(is_identifier(&json!("wf2017-32163123xz3132yy")) && !is_identifier(&json!("-a")));
    assert!(is_count(&json!(20)) && !is_count(&json!("0:20:00")) && !is_count(&json!(20.5)));
}
