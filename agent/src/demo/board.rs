//! The demo's final standings and report: the server's scoreboard as a table with the
//! agent's place, the board over time (each team's solved count at each accept, from the
//! server's submissions and judgements), written as Markdown, JSON and an SVG plot.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use leaderboard::clics::{Judgement, RowScore, Scoreboard, Submission};
use serde::Serialize;

/// Who a team is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Kind {
    /// A model playing through `agent play`.
    Agent,
    /// A scripted stand-in for a human.
    Scripted,
    /// A seat for a real person (web page).
    Guest,
}

/// A team of the demo.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TeamInfo {
    /// Id on the server.
    pub(crate) id: String,
    /// Display name.
    pub(crate) name: String,
    /// Who plays it.
    pub(crate) kind: Kind,
}

/// One row of the final standings.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Standing {
    /// The server's rank.
    pub(crate) rank: u32,
    /// Team id.
    pub(crate) team: String,
    /// Display name.
    pub(crate) name: String,
    /// Who played it.
    pub(crate) kind: Kind,
    /// Problems solved.
    pub(crate) solved: u32,
    /// Penalty minutes.
    pub(crate) penalty: u32,
    /// Per problem (in contest order): `+` solved with the tries, `-N` N rejections, `.`.
    pub(crate) cells: Vec<String>,
}

/// A team's solved count over contest time: (seconds, solved) at each accept.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct History {
    /// Team id.
    pub(crate) team: String,
    /// Steps of the count.
    pub(crate) points: Vec<(f64, u32)>,
}

/// The standings from the server's scoreboard, in its order.
pub(crate) fn standings(
    board: &Scoreboard,
    teams: &[TeamInfo],
    problems: &[String],
) -> Vec<Standing> {
    board
        .rows
        .iter()
        .map(|row| {
            let info = teams.iter().find(|t| t.id == row.team_id);
            let (solved, penalty) = match row.score {
                RowScore::PassFail {
                    num_solved,
                    total_time,
                    ..
                } => (num_solved, total_time),
                RowScore::Score { score, .. } => (score.round().max(0.0) as u32, 0),
            };
            let cells = problems
                .iter()
                .map(|p| match row.problems.iter().find(|c| &c.problem_id == p) {
                    Some(c) if c.solved == Some(true) => {
                        let wrong = c.num_judged.saturating_sub(1);
                        if wrong == 0 {
                            "+".to_owned()
                        } else {
                            format!("+{wrong}")
                        }
                    }
                    Some(c) if c.num_judged > 0 => format!("-{}", c.num_judged),
                    Some(c) if c.num_pending > 0 => "?".to_owned(),
                    _ => ".".to_owned(),
                })
                .collect();
            Standing {
                rank: row.rank,
                team: row.team_id.clone(),
                name: info.map_or_else(|| row.team_id.clone(), |t| t.name.clone()),
                kind: info.map_or(Kind::Guest, |t| t.kind),
                solved,
                penalty,
                cells,
            }
        })
        .collect()
}

/// Each team's solved count over time, from the accepted submissions (a problem counts
/// once, at its first accept).
pub(crate) fn history(
    teams: &[TeamInfo],
    submissions: &[Submission],
    judgements: &[Judgement],
) -> Vec<History> {
    let verdict: BTreeMap<&str, &str> = judgements
        .iter()
        .filter_map(|j| {
            j.judgement_type_id
                .as_deref()
                .map(|t| (j.submission_id.as_str(), t))
        })
        .collect();
    let mut subs: Vec<&Submission> = submissions.iter().collect();
    subs.sort_by_key(|s| s.contest_time.millis());
    teams
        .iter()
        .map(|team| {
            let mut seen = std::collections::BTreeSet::new();
            let mut points = vec![(0.0, 0)];
            for s in subs.iter().filter(|s| s.team_id == team.id) {
                if verdict.get(s.id.as_str()) == Some(&"AC") && seen.insert(s.problem_id.clone()) {
                    points.push((s.contest_time.millis() as f64 / 1000.0, seen.len() as u32));
                }
            }
            History {
                team: team.id.clone(),
                points,
            }
        })
        .collect()
}

/// The standings as a text table (`label` heads each problem's column).
pub(crate) fn table(rows: &[Standing], labels: &[String]) -> String {
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "{:>4}  {:width$}  {:>6} {:>7}",
        "rank", "team", "solved", "penalty"
    );
    for l in labels {
        let _ = write!(out, " {l:>3}");
    }
    out.push('\n');
    for r in rows {
        let _ = write!(
            out,
            "{:>4}  {:width$}  {:>6} {:>7}",
            r.rank, r.name, r.solved, r.penalty
        );
        for c in &r.cells {
            let _ = write!(out, " {c:>3}");
        }
        if r.kind == Kind::Agent {
            out.push_str("   <- agent");
        }
        out.push('\n');
    }
    out
}

/// The board over time as an SVG line plot: x the contest's seconds up to `seconds`,
/// y problems solved; one step line per team, agents drawn thick.
pub(crate) fn svg(
    histories: &[History],
    teams: &[TeamInfo],
    seconds: f64,
    problems: usize,
) -> String {
    const COLORS: [&str; 8] = [
        "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    ];
    let (w, h, left, top, right, bottom) = (720.0, 360.0, 50.0, 20.0, 200.0, 40.0);
    let pw = w - left - right;
    let ph = h - top - bottom;
    let x = |s: f64| left + pw * (s / seconds.max(1.0)).clamp(0.0, 1.0);
    let y = |n: u32| top + ph * (1.0 - f64::from(n) / (problems.max(1) as f64));
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    let _ = writeln!(
        out,
        "<line x1=\"{left}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\
         <line x1=\"{left}\" y1=\"{top}\" x2=\"{left}\" y2=\"{}\" stroke=\"black\"/>",
        top + ph,
        left + pw,
        top + ph,
        top + ph
    );
    for n in 0..=problems {
        let n = u32::try_from(n).unwrap_or(0);
        let _ = writeln!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{n}</text>",
            left - 6.0,
            y(n) + 4.0
        );
    }
    let _ = writeln!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">contest time (s), 0 to {seconds:.0}</text>\
         <text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">solved</text>",
        left + pw / 2.0,
        h - 10.0,
        top + ph / 2.0,
        top + ph / 2.0
    );
    for (i, hist) in histories.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let agent = teams
            .iter()
            .any(|t| t.id == hist.team && t.kind == Kind::Agent);
        let mut pts = String::new();
        let mut last = 0;
        for &(s, n) in &hist.points {
            let _ = write!(pts, "{:.1},{:.1} {:.1},{:.1} ", x(s), y(last), x(s), y(n));
            last = n;
        }
        let _ = write!(pts, "{:.1},{:.1}", x(seconds), y(last));
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"{}\" points=\"{pts}\"/>",
            if agent { 3 } else { 1.5 as i32 }
        );
        let name = teams
            .iter()
            .find(|t| t.id == hist.team)
            .map_or(hist.team.as_str(), |t| t.name.as_str());
        let ly = top + 16.0 * i as f64;
        let _ = writeln!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"4\" fill=\"{color}\"/>\
             <text x=\"{}\" y=\"{}\">{}</text>",
            left + pw + 10.0,
            ly,
            left + pw + 26.0,
            ly + 5.0,
            escape(name)
        );
    }
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_svg_has_one_line_per_team_and_escapes_names() {
        let teams = vec![
            TeamInfo {
                id: "a".into(),
                name: "A & <B>".into(),
                kind: Kind::Agent,
            },
            TeamInfo {
                id: "s".into(),
                name: "S".into(),
                kind: Kind::Scripted,
            },
        ];
        let hist = vec![
            History {
                team: "a".into(),
                points: vec![(0.0, 0), (30.0, 1)],
            },
            History {
                team: "s".into(),
                points: vec![(0.0, 0)],
            },
        ];
        let text = svg(&hist, &teams, 60.0, 3);
        assert_eq!(text.matches("<polyline").count(), 2);
        assert!(text.contains("A &amp; &lt;B&gt;"));
        assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn the_table_marks_the_agent() {
        let rows = vec![Standing {
            rank: 1,
            team: "a".into(),
            name: "Agent".into(),
            kind: Kind::Agent,
            solved: 1,
            penalty: 21,
            cells: vec!["+1".into(), ".".into()],
        }];
        let text = table(&rows, &["A".into(), "B".into()]);
        assert!(text.contains("<- agent") && text.contains("+1"));
    }
}
