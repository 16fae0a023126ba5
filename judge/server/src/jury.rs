//! What the jury changed in a contest, as the server uses it: the clock
//! ([`crate::control::Control`]) and the teams (added by the jury, or disabled), read
//! from the database's `jury` rows ([`Jury::from_rows`]) over the contest file's own, and
//! the problems the jury added from uploaded packages or removed ([`ProblemRow`]).
//!
//! The team decisions are pure, as the clock's are: [`add_teams`] checks new teams (one,
//! or many imported from CSV, TSV or CLICS `teams.json`, [`parse_import`]) against the
//! teams served, and [`set_disabled`] turns a team off or on again. A disabled team
//! cannot log in, submit or ask; its row leaves the public board (the CLICS team is
//! `hidden`); its submissions stay in the database and the feed.

use std::collections::HashSet;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::control::Control;
use crate::store::JuryRow;

/// One team and its secret.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamSpec {
    /// CLICS id; also the user name for basic auth.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The bearer token (or the basic-auth password).
    pub token: String,
    /// Turned off (by the jury, or in the file): cannot log in, submit or ask, and is
    /// hidden from the board.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub disabled: bool,
}

/// The `kind` of the clock's row.
pub const CONTROL: &str = "control";
/// The `kind` of a team's row.
pub const TEAM: &str = "team";
/// The `kind` of a clarification the jury marked handled (its item: the id; data `{}`).
pub const HANDLED: &str = "handled";
/// The `kind` of a problem's row (its item: the problem's id).
pub const PROBLEM: &str = "problem";

/// A problem's row: a problem the jury added from an uploaded package (`sha256`,
/// `label`), or one the jury removed before the start (`removed`: a file's problem, or
/// one added before).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemRow {
    /// The uploaded package's SHA-256 (`None`: a problem of the contest file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// The scoreboard label of an added problem.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// When it was added (milliseconds since the epoch): added problems come in this
    /// order after the file's.
    #[serde(default)]
    pub added_ms: i64,
    /// Removed by the jury.
    #[serde(default)]
    pub removed: bool,
}

/// A team's row: a team the jury added (`name` and `token`), or a contest file's team the
/// jury disabled (`disabled` only).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeamRow {
    /// The added team's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The added team's token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// Turned off by the jury.
    #[serde(default)]
    pub disabled: bool,
}

/// The jury's state of one contest, as last read.
#[derive(Debug, Clone, Default)]
pub struct Jury {
    /// The clock.
    pub control: Control,
    /// Every team served: the file's (each as the jury left it), then the jury's, by id.
    pub teams: Arc<Vec<TeamSpec>>,
    /// The questions the jury marked handled without answering them, by id.
    pub handled: std::collections::BTreeSet<String>,
    /// The problems the jury added or removed, by id, in the order they were added.
    pub problems: Vec<(String, ProblemRow)>,
}

impl Jury {
    /// The file's own (its `teams`): no jury change yet.
    pub fn of_file(file_teams: &[TeamSpec]) -> Jury {
        Jury {
            control: Control::default(),
            teams: Arc::new(file_teams.to_vec()),
            handled: std::collections::BTreeSet::new(),
            problems: Vec::new(),
        }
    }

    /// The state the jury's `rows` give a contest whose file has `file_teams`; a row that
    /// cannot be read is an error naming it.
    pub fn from_rows(file_teams: &[TeamSpec], rows: &[JuryRow]) -> Result<Jury, String> {
        let mut control = Control::default();
        let mut teams = file_teams.to_vec();
        let mut handled = std::collections::BTreeSet::new();
        let mut problems = Vec::new();
        for row in rows {
            let bad = |e: serde_json::Error| {
                format!("jury row {}/{} `{}`: {e}", row.kind, row.item, row.data)
            };
            match row.kind.as_str() {
                CONTROL => control = serde_json::from_str(&row.data).map_err(bad)?,
                HANDLED => {
                    handled.insert(row.item.clone());
                }
                PROBLEM => {
                    let problem: ProblemRow = serde_json::from_str(&row.data).map_err(bad)?;
                    problems.push((row.item.clone(), problem));
                }
                TEAM => {
                    let team: TeamRow = serde_json::from_str(&row.data).map_err(bad)?;
                    if let Some(known) = teams.iter_mut().find(|t| t.id == row.item) {
                        known.disabled = team.disabled;
                    } else {
                        let (Some(name), Some(token)) = (team.name, team.token) else {
                            return Err(format!(
                                "jury row team/{}: no such team in the contest file, and no name and token",
                                row.item
                            ));
                        };
                        teams.push(TeamSpec {
                            id: row.item.clone(),
                            name,
                            token,
                            disabled: team.disabled,
                        });
                    }
                }
                other => {
                    return Err(format!(
                        "jury row kind `{other}` (item `{}`): not one this server knows",
                        row.item
                    ));
                }
            }
        }
        problems
            .sort_by(|a: &(String, ProblemRow), b| (a.1.added_ms, &a.0).cmp(&(b.1.added_ms, &b.0)));
        Ok(Jury {
            control,
            teams: Arc::new(teams),
            handled,
            problems,
        })
    }
}

/// A team to add: its token is generated when not given.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTeam {
    /// CLICS id: letters, digits, `-` and `_`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// The token (at least 8 characters); generated when absent.
    #[serde(default)]
    pub token: Option<String>,
}

/// A fresh random token (24 hex digits).
pub fn new_token() -> String {
    format!("{:024x}", rand::random::<u128>() >> 32)
}

/// The rows that add `new` to the teams served (`teams`), every problem found listed (by
/// position in `new`, naming the team), or nothing written. The admin's token may not be
/// a team's.
pub fn add_teams(
    teams: &[TeamSpec],
    new: &[NewTeam],
    admin_token: &str,
) -> Result<Vec<(String, TeamRow)>, Vec<String>> {
    let mut ids: HashSet<&str> = teams.iter().map(|t| t.id.as_str()).collect();
    let mut tokens: HashSet<&str> = teams.iter().map(|t| t.token.as_str()).collect();
    let mut errors = Vec::new();
    let mut rows = Vec::new();
    let generated: Vec<String> = new.iter().map(|_| new_token()).collect();
    if new.is_empty() {
        errors.push("no team given".to_owned());
    }
    for (i, (team, fresh)) in new.iter().zip(&generated).enumerate() {
        let at = format!("team {} (`{}`)", i + 1, team.id);
        if team.id.is_empty()
            || !team
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            errors.push(format!("{at}: id: use letters, digits, `-` and `_`"));
        } else if !ids.insert(&team.id) {
            errors.push(format!("{at}: id taken"));
        }
        if team.name.trim().is_empty() {
            errors.push(format!("{at}: name is empty"));
        }
        let token = team.token.as_deref().unwrap_or(fresh);
        if token.len() < 8 {
            errors.push(format!("{at}: token shorter than 8 characters"));
        } else if token == admin_token || !tokens.insert(token) {
            errors.push(format!("{at}: token taken"));
        }
        rows.push((
            team.id.clone(),
            TeamRow {
                name: Some(team.name.trim().to_owned()),
                token: Some(token.to_owned()),
                disabled: false,
            },
        ));
    }
    if errors.is_empty() {
        Ok(rows)
    } else {
        Err(errors)
    }
}

/// The row that turns team `id` off (`disabled`) or on again, from the rows stored
/// (`current`: the team's row, when it has one).
pub fn set_disabled(
    teams: &[TeamSpec],
    id: &str,
    current: Option<TeamRow>,
    disabled: bool,
) -> Result<TeamRow, String> {
    let team = teams
        .iter()
        .find(|t| t.id == id)
        .ok_or_else(|| format!("no team `{id}`"))?;
    if team.disabled == disabled {
        let state = if disabled { "disabled" } else { "enabled" };
        return Err(format!("team `{id}` is {state} already"));
    }
    Ok(TeamRow {
        disabled,
        ..current.unwrap_or_default()
    })
}

/// Teams to import from a file's text: CLICS `teams.json` (an array of team objects:
/// `id`, `name` or `display_name`; their other CLICS properties are not kept) when it
/// starts with `[`, else CSV or TSV (tab-separated when the first line has a tab), one
/// team a line as `id, name[, token]`, a first line `id,name[,token]` taken as a header.
/// Every line that cannot be read is listed.
pub fn parse_import(text: &str) -> Result<Vec<NewTeam>, Vec<String>> {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.starts_with('[') {
        return parse_teams_json(trimmed);
    }
    let tab = trimmed.lines().next().is_some_and(|l| l.contains('\t'));
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .delimiter(if tab { b'\t' } else { b',' })
        .from_reader(trimmed.as_bytes());
    let mut teams = Vec::new();
    let mut errors = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let line = i + 1;
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                errors.push(format!("line {line}: {e}"));
                continue;
            }
        };
        let fields: Vec<&str> = record.iter().collect();
        if fields.iter().all(|f| f.is_empty()) {
            continue;
        }
        if line == 1 && fields.first().is_some_and(|f| f.eq_ignore_ascii_case("id")) {
            continue;
        }
        match fields.as_slice() {
            [id, name] => teams.push(NewTeam {
                id: (*id).to_owned(),
                name: (*name).to_owned(),
                token: None,
            }),
            [id, name, token] => teams.push(NewTeam {
                id: (*id).to_owned(),
                name: (*name).to_owned(),
                token: (!token.is_empty()).then(|| (*token).to_owned()),
            }),
            other => errors.push(format!(
                "line {line}: {} fields; expected id, name and optionally token",
                other.len()
            )),
        }
    }
    if errors.is_empty() {
        Ok(teams)
    } else {
        Err(errors)
    }
}

fn parse_teams_json(text: &str) -> Result<Vec<NewTeam>, Vec<String>> {
    let list: Vec<serde_json::Value> =
        serde_json::from_str(text).map_err(|e| vec![format!("teams.json: {e}")])?;
    let mut teams = Vec::new();
    let mut errors = Vec::new();
    for (i, team) in list.iter().enumerate() {
        let text = |key: &str| team.get(key).and_then(serde_json::Value::as_str);
        let Some(id) = text("id") else {
            errors.push(format!("teams.json[{i}]: no string `id`"));
            continue;
        };
        let Some(name) = text("display_name").or_else(|| text("name")) else {
            errors.push(format!(
                "teams.json[{i}] (`{id}`): no `name` or `display_name`"
            ));
            continue;
        };
        teams.push(NewTeam {
            id: id.to_owned(),
            name: name.to_owned(),
            token: None,
        });
    }
    if errors.is_empty() {
        Ok(teams)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team(id: &str, token: &str) -> TeamSpec {
        TeamSpec {
            id: id.into(),
            name: id.to_uppercase(),
            token: token.into(),
            disabled: false,
        }
    }

    fn new(id: &str, name: &str, token: Option<&str>) -> NewTeam {
        NewTeam {
            id: id.into(),
            name: name.into(),
            token: token.map(str::to_owned),
        }
    }

    #[test]
    fn new_teams_are_checked_against_the_served_ones_and_each_other() {
        let served = [team("t1", "token-one-1")];
        let rows = add_teams(&served, &[new("t2", " Two ", None)], "admin-token").unwrap();
        assert_eq!(rows[0].0, "t2");
        assert_eq!(rows[0].1.name.as_deref(), Some("Two"));
        assert!(rows[0].1.token.as_ref().unwrap().len() >= 16);
        let errors = add_teams(
            &served,
            &[
                new("t1", "again", None),
                new("bad id", "x", None),
                new("t3", "", Some("short")),
                new("t4", "Four", Some("token-one-1")),
                new("t5", "Five", Some("admin-token")),
                new("t6", "Six", Some("same-token")),
                new("t6", "Six again", Some("same-token")),
            ],
            "admin-token",
        )
        .unwrap_err();
        let joined = errors.join("\n");
        for expected in [
            "team 1 (`t1`): id taken",
            "team 2 (`bad id`): id: use letters",
            "team 3 (`t3`): name is empty",
            "team 3 (`t3`): token shorter than 8",
            "team 4 (`t4`): token taken",
            "team 5 (`t5`): token taken",
            "team 7 (`t6`): id taken",
            "team 7 (`t6`): token taken",
        ] {
            assert!(joined.contains(expected), "{expected} in {joined}");
        }
        assert_eq!(errors.len(), 8, "{joined}");
    }

    #[test]
    fn rows_turn_file_teams_off_and_add_the_jury_s() {
        let spec = [team("t1", "token-one-1")];
        let row = |kind: &str, item: &str, data: &str| JuryRow {
            kind: kind.into(),
            item: item.into(),
            data: data.into(),
        };
        let jury = Jury::from_rows(
            &spec[..],
            &[
                row(TEAM, "t1", r#"{"disabled":true}"#),
                row(TEAM, "t2", r#"{"name":"Two","token":"token-two-2"}"#),
                row(CONTROL, "", r#"{"freeze_ms":5}"#),
            ],
        )
        .unwrap();
        let ids: Vec<(&str, bool)> = jury
            .teams
            .iter()
            .map(|t| (t.id.as_str(), t.disabled))
            .collect();
        assert_eq!(ids, [("t1", true), ("t2", false)]);
        assert_eq!(jury.control.freeze_ms, Some(5));
        let err = Jury::from_rows(&spec[..], &[row("prize", "x", "{}")]).unwrap_err();
        assert!(err.contains("prize"), "{err}");
        let err = Jury::from_rows(&spec[..], &[row(TEAM, "t9", "{}")]).unwrap_err();
        assert!(err.contains("t9"), "{err}");
        let again = set_disabled(&jury.teams, "t1", None, true).unwrap_err();
        assert!(again.contains("disabled already"), "{again}");
        let on = set_disabled(&jury.teams, "t1", Some(TeamRow::default()), false).unwrap();
        assert!(!on.disabled);
        assert!(set_disabled(&jury.teams, "t7", None, true).is_err());
    }

    #[test]
    fn imports_read_csv_tsv_and_clics_teams_json() {
        let csv = "id,name,token\nt1,\"Team, One\",token-one-1\nt2,Two\n\n";
        let teams = parse_import(csv).unwrap();
        assert_eq!(teams[0], new("t1", "Team, One", Some("token-one-1")));
        assert_eq!(teams[1], new("t2", "Two", None));
        let tsv = "t3\tThree\tsecret-three\nt4\tFour\n";
        let teams = parse_import(tsv).unwrap();
        assert_eq!(teams.len(), 2);
        assert_eq!(teams[0].token.as_deref(), Some("secret-three"));
        let json = r#"[{"id":"t5","name":"Five","organization_id":"o1"},{"id":"t6","name":"x","display_name":"Six"}]"#;
        let teams = parse_import(json).unwrap();
        assert_eq!(teams, [new("t5", "Five", None), new("t6", "Six", None)]);
        let errors = parse_import("t1,One\nt2\nt3,Three,tok,extra\n").unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].starts_with("line 2: 1 fields"), "{errors:?}");
        assert!(errors[1].starts_with("line 3: 4 fields"), "{errors:?}");
        let errors = parse_import(r#"[{"name":"no id"},{"id":"t"}]"#).unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
    }
}
