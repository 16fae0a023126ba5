//! The problem as the loop sees it: a [`Task`] (statement text, samples, limits), made
//! from a package on disk ([`Task::from_package`]) or by a contest client from what a
//! contest server serves.
//!
//! Statements are text: Markdown as it is, a LaTeX statement (legacy packages) through
//! a light conversion ([`latex_to_text`]: sections become headings, common macros their
//! words, environments and comments go), and a PDF-only statement as the problem's name
//! with a note. Samples come from the package's `data/sample` files. Hidden test data is
//! never part of a task: it reaches the loop only as a verdict.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// One sample: input and the expected answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sample {
    /// Its name (`1`, `2`, ... from the package).
    pub name: String,
    /// Standard input.
    pub input: String,
    /// The expected output (any answer the output validator accepts is right).
    pub answer: String,
}

/// A problem to solve.
#[derive(Debug, Clone)]
pub struct Task {
    /// Its short name (the package folder's name, or the contest's problem id).
    pub id: String,
    /// Its display name.
    pub name: String,
    /// The statement as text (Markdown or converted).
    pub statement: String,
    /// Where the statement came from (`markdown`, `latex`, `pdf`, `none`, `contest`).
    pub statement_format: String,
    /// The samples (possibly none: then the loop says so and goes on).
    pub samples: Vec<Sample>,
    /// The time limit per test.
    pub time_limit: Duration,
    /// The memory limit in bytes.
    pub memory_bytes: u64,
    /// The package, when solving offline (the runner judges with its output validator,
    /// validates inputs with its input validators, and the local submitter judges
    /// against its hidden tests).
    pub package: Option<problems::Problem>,
}

impl Task {
    /// A task from a package folder (loaded leniently, as the judge loads for judging).
    pub fn from_package(dir: &Path) -> Result<Task> {
        let (problem, _warnings) =
            problems::load_for_judging(dir).map_err(|source| Error::Package {
                path: dir.to_path_buf(),
                source,
            })?;
        Task::from_problem(problem)
    }

    /// A task from a loaded package.
    pub fn from_problem(problem: problems::Problem) -> Result<Task> {
        let (statement, format) = match &problem.statement {
            Some(path) => statement_text(path)?,
            None => (
                format!("# {}\n\n(The package has no statement.)\n", problem.name),
                "none".to_owned(),
            ),
        };
        let mut samples = Vec::new();
        for case in &problem.sample.cases {
            samples.push(Sample {
                name: case.name.clone(),
                input: read(&case.input)?,
                answer: read(&case.answer)?,
            });
        }
        Ok(Task {
            id: problem.short_name.clone(),
            name: problem.name.clone(),
            statement,
            statement_format: format,
            samples,
            time_limit: problem.limits.time,
            memory_bytes: problem.limits.memory_bytes,
            package: Some(problem),
        })
    }
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// The statement file as text, and its format's name.
pub fn statement_text(path: &Path) -> Result<(String, String)> {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if name.ends_with(".md") {
        Ok((read(path)?, "markdown".to_owned()))
    } else if name.ends_with(".tex") {
        Ok((latex_to_text(&read(path)?), "latex".to_owned()))
    } else {
        Ok((
            format!(
                "(The statement is a PDF, {name}, which the agent cannot read; the samples below are all it has.)\n"
            ),
            "pdf".to_owned(),
        ))
    }
}

/// A light LaTeX-to-text conversion for problem statements: comments, `\begin`/`\end`
/// lines and layout macros go; `\section{X}` and `\subsection{X}` become headings;
/// `\textbf{x}`, `\emph{x}`, `\texttt{x}`, `\textit{x}` become `x`; `\item` a bullet;
/// `\\` a line break; math (`$...$`) is kept as it is, which models read well.
pub fn latex_to_text(tex: &str) -> String {
    let mut out = String::new();
    for raw in tex.lines() {
        if raw.trim_start().starts_with('%') {
            continue;
        }
        let line = strip_comment(raw);
        let trimmed = line.trim();
        if trimmed.starts_with("\\begin{") || trimmed.starts_with("\\end{") {
            if let Some(rest) = trimmed.strip_prefix("\\begin{problem}") {
                // \begin{problem}{Title}{input}{output}...
                if let Some(title) = first_group(rest) {
                    out.push_str(&format!("# {title}\n\n"));
                }
            }
            continue;
        }
        if let Some(rest) = ["\\section*", "\\section", "\\subsection*", "\\subsection"]
            .iter()
            .find_map(|m| trimmed.strip_prefix(m))
            && let Some(title) = first_group(rest)
        {
            out.push_str(&format!("## {}\n", inline(&title)));
            continue;
        }
        if trimmed.starts_with("\\illustration")
            || trimmed.starts_with("\\includegraphics")
            || trimmed.starts_with("\\problemname")
                && first_group(&trimmed["\\problemname".len()..]).is_none()
        {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix("\\problemname") {
            if let Some(title) = first_group(rest) {
                out.push_str(&format!("# {}\n", inline(&title)));
            }
            continue;
        }
        let line = match trimmed.strip_prefix("\\item") {
            Some(rest) => format!("- {}", rest.trim()),
            None => line.to_owned(),
        };
        out.push_str(inline(&line).trim_end());
        out.push('\n');
    }
    // Collapse runs of blank lines.
    let mut text = String::new();
    let mut blank = 0;
    for line in out.lines() {
        if line.trim().is_empty() {
            blank += 1;
            if blank > 1 {
                continue;
            }
        } else {
            blank = 0;
        }
        text.push_str(line);
        text.push('\n');
    }
    text.trim().to_owned() + "\n"
}

/// The line without its `%` comment (an escaped `\%` stays).
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if *b == b'%' && (i == 0 || bytes[i - 1] != b'\\') {
            return &line[..i];
        }
    }
    line
}

/// The content of the first `{...}` group of `s`, braces balanced.
fn first_group(s: &str) -> Option<String> {
    let start = s.find('{')?;
    let mut depth = 0;
    for (i, c) in s[start..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(s[start + 1..start + i].to_owned());
                }
            }
            _ => {}
        }
    }
    None
}

/// Inline macros to their words.
fn inline(line: &str) -> String {
    let mut s = line.to_owned();
    for m in [
        "\\textbf", "\\emph", "\\texttt", "\\textit", "\\texttt", "\\textsc", "\\url", "\\mbox",
        "\\text",
    ] {
        while let Some(at) = s.find(&format!("{m}{{")) {
            let Some(group) = first_group(&s[at..]) else {
                break;
            };
            let end = at + m.len() + group.len() + 2;
            s.replace_range(at..end, &group);
        }
    }
    s = s.replace("\\\\", "").replace("\\%", "%");
    // Outside math (the even segments between `$`s): quotes, ties and dots in words.
    s.split('$')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                return part.to_owned();
            }
            part.replace("``", "\"")
                .replace("''", "\"")
                .replace('~', " ")
                .replace("\\ldots", "...")
        })
        .collect::<Vec<_>>()
        .join("$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latex_statements_become_text() {
        let tex = r"\problemname{Closest Approach}
% a comment
Two ships sail \emph{straight} lines; find their closest approach.\\
\begin{itemize}
\item the first ship, $1 \le n \le 10^5$
\end{itemize}
\section*{Input}
The input has \textbf{one} line: 100\% of it.
\illustration{0.3}{ship.png}{A ship}

\section*{Output}
Print the distance.
";
        let text = latex_to_text(tex);
        assert_eq!(
            text,
            "# Closest Approach\nTwo ships sail straight lines; find their closest approach.\n- the first ship, $1 \\le n \\le 10^5$\n## Input\nThe input has one line: 100% of it.\n\n## Output\nPrint the distance.\n"
        );
    }

    #[test]
    fn a_legacy_package_gives_its_latex_as_text() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/rangesum");
        let task = Task::from_package(&dir).expect("loads");
        assert_eq!(task.statement_format, "latex");
        assert!(
            task.statement.starts_with("# Range Sums\n"),
            "{}",
            task.statement
        );
        assert!(
            task.statement.contains("\n## Input\n"),
            "{}",
            task.statement
        );
        assert!(
            task.statement.contains(
                "questions of the form \"how many items are on shelves $l$ to $r$, inclusive?\"."
            ),
            "{}",
            task.statement
        );
        assert!(!task.statement.contains("\\section"), "{}", task.statement);
        assert!(!task.samples.is_empty(), "samples come from data/sample");
    }

    #[test]
    fn a_bundled_package_gives_its_markdown_and_samples() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../problems/packages/sum");
        let task = Task::from_package(&dir).expect("loads");
        assert_eq!(task.id, "sum");
        assert_eq!(task.statement_format, "markdown");
        assert!(
            task.statement.contains("Print their sum."),
            "{}",
            task.statement
        );
        assert_eq!(task.samples.len(), 2);
        assert_eq!(task.samples[0].input, "3\n1 2 3\n");
        assert_eq!(task.samples[0].answer, "6\n");
    }

    #[test]
    fn a_missing_package_is_an_error_naming_it() {
        let err = Task::from_package(Path::new("/nonexistent/pkg")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/pkg"), "{err}");
    }
}
