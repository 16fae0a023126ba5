//! What a participant may read of a problem, for the API and the web page alike: the
//! statement as HTML (rendered from the package's Markdown with pulldown-cmark; raw HTML
//! in it is shown as text, never run), the package's PDF statement when it has one, and
//! the sample inputs and answers under `data/sample`. Nothing under `data/secret` is
//! ever named here.
//!
//! Teams and the public may read them once the contest has started, never before; admins
//! always ([`readable`]).

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::contest::{Contest, ContestProblem};
use crate::viewer::Viewer;

/// Whether `who` may read the contest's statements and samples at `now`.
pub fn readable(contest: &Contest, who: &Viewer, now: DateTime<Utc>) -> bool {
    *who == Viewer::Admin || now >= contest.start_time()
}

/// The statement's body as HTML: Markdown rendered, another text format (LaTeX) shown as
/// preformatted text; `None` when the package has no text statement.
pub fn html_body(problem: &problems::Problem) -> Option<String> {
    let path = problem.statement.as_ref()?;
    if path.extension().is_some_and(|e| e == "pdf") {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    if path.extension().is_some_and(|e| e == "md") {
        let mut out = String::new();
        let events = pulldown_cmark::Parser::new_ext(&text, pulldown_cmark::Options::ENABLE_TABLES)
            .map(|e| match e {
                pulldown_cmark::Event::Html(h) | pulldown_cmark::Event::InlineHtml(h) => {
                    pulldown_cmark::Event::Text(h)
                }
                other => other,
            });
        pulldown_cmark::html::push_html(&mut out, events);
        Some(out)
    } else {
        Some(format!("<pre>{}</pre>", escape(&text)))
    }
}

/// The statement as a whole HTML document, titled with the problem's label and name.
pub fn html_document(p: &ContestProblem) -> Option<String> {
    let body = html_body(&p.problem)?;
    let title = escape(&format!("{} {}", p.label, p.problem.name));
    Some(format!(
        "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>{title}</title></head>\
         <body><h1>{title}</h1>\n{body}</body></html>\n"
    ))
}

/// The package's PDF statement: the statement itself when it is a PDF, else a
/// `problem.<lang>.pdf` beside it (the same language first).
pub fn pdf(problem: &problems::Problem) -> Option<PathBuf> {
    let path = problem.statement.as_ref()?;
    if path.extension().is_some_and(|e| e == "pdf") {
        return Some(path.clone());
    }
    let same = path.with_extension("pdf");
    if same.is_file() {
        return Some(same);
    }
    let dir = path.parent()?;
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|e| e == "pdf")
                && p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("problem."))
        })
        .collect();
    found.sort();
    found.into_iter().next()
}

/// The sample files a participant may download, by name: each case's input and answer
/// under `data/sample`, named by their path below it (`/` as `-`).
pub fn samples(problem: &problems::Problem) -> Vec<(String, PathBuf)> {
    let root = problem.root.join("data").join("sample");
    let mut out = Vec::new();
    collect(&problem.sample, &root, &mut out);
    out
}

fn collect(group: &problems::TestGroup, root: &Path, out: &mut Vec<(String, PathBuf)>) {
    for case in &group.cases {
        for path in [&case.input, &case.answer] {
            // Only files under data/sample: a case elsewhere is never offered.
            let Ok(relative) = path.strip_prefix(root) else {
                continue;
            };
            let name = relative.to_string_lossy().replace('/', "-");
            out.push((name, path.clone()));
        }
    }
    for sub in &group.groups {
        collect(sub, root, out);
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}
