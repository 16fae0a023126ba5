//! Variants: one task (one solver) written out as several packages that differ in the
//! input layout (one test case or several, a count first or not, one value per line or
//! all on one line), the output format (one answer per line, `Case #i:` lines, all
//! answers on one line) and so the statement's wording.
//!
//! A [`Task`] says what is computed for one test case: its record's [`Shape`] (a fixed
//! line of integers, a list, a line of text), the solver on a [`Record`], a generator,
//! edge cases, and the solution's core as a `solve` function in Python and C++ (plus
//! wrong cores, each with its mistake in a comment). A [`Layout`] wraps the core with the
//! reading and printing code, writes the input and output sections of the statement,
//! lays out the test files and writes the input validator. The split keeps every
//! variant of a task on one side (`split.yaml`'s `task`).

use std::fmt::Write as _;

use crate::Package;
use crate::families::{Family, Size};
use crate::rng::Rng;

/// The most values of a list in a one-case layout.
const NMAX: i64 = 10_000;
/// The most test cases of a file, and the most values of a list inside one.
const TMAX: i64 = 100;

/// What one test case's input holds.
pub(crate) enum Shape {
    /// One line of integers: each with its name (a C++ and Python identifier) and bounds.
    Ints(&'static [(&'static str, i64, i64)]),
    /// A list of `n` integers, `min_n <= n`, each in `lo..=hi`.
    List { min_n: i64, lo: i64, hi: i64 },
    /// One line of text matching `pattern` (Python syntax), 1 to `max` characters, as
    /// `what` describes it in the statement.
    Text {
        pattern: &'static str,
        max: usize,
        what: &'static str,
    },
}

/// One test case's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Record {
    Ints(Vec<i64>),
    Text(String),
}

impl Record {
    pub(crate) fn ints(&self) -> &[i64] {
        match self {
            Record::Ints(v) => v,
            Record::Text(_) => panic!("invariant: an integer record"),
        }
    }

    pub(crate) fn text(&self) -> &str {
        match self {
            Record::Text(s) => s,
            Record::Ints(_) => panic!("invariant: a text record"),
        }
    }

    fn len(&self) -> usize {
        match self {
            Record::Ints(v) => v.len(),
            Record::Text(s) => s.len(),
        }
    }
}

/// One task: the solver all its variants share.
pub(crate) struct Task {
    /// The solver's identity (`split.yaml`'s `task`), and the name of its first variant.
    pub(crate) id: &'static str,
    pub(crate) title: &'static str,
    pub(crate) family: Family,
    /// What to compute for one test case, as the statement's first paragraph.
    pub(crate) legend: &'static str,
    pub(crate) shape: Shape,
    /// The answer to one test case, as a noun phrase ("the sum of the values").
    pub(crate) answer: &'static str,
    /// Whether the answer is one token (so that answers may share a line).
    pub(crate) token: bool,
    /// A further rule on a test case, a Python expression on `v` (the values, or the
    /// text), or empty.
    pub(crate) rule: &'static str,
    /// A random test case (for a list: of `n` values).
    pub(crate) random: fn(&mut Rng, Size, usize) -> Record,
    /// The answer to one test case, without the newline.
    pub(crate) solve: fn(&Record) -> String,
    pub(crate) samples: fn() -> [Record; 2],
    pub(crate) edges: fn() -> Vec<Record>,
    pub(crate) case_sensitive: bool,
    /// `def solve(...)` returning the answer (`str()` is printed).
    pub(crate) py: &'static str,
    /// `std::string solve(...)` returning the answer.
    pub(crate) cpp: &'static str,
    /// (file name, wrong core in the file's language).
    pub(crate) wrong: Vec<(&'static str, &'static str)>,
}

/// Another wording of a task's statement: a story around the same task, with its own
/// title, in the one-test-case layout.
pub(crate) struct Wording {
    /// The task it rewords.
    pub(crate) task: &'static str,
    /// The suffix of the package's name.
    pub(crate) suffix: &'static str,
    pub(crate) title: &'static str,
    /// The statement's first paragraph, in place of the task's legend.
    pub(crate) legend: &'static str,
}

/// How the answers of several test cases are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Output {
    /// One line per test case.
    PerLine,
    /// `Case #i: answer`, one line per test case.
    Numbered,
    /// All answers on one line, separated by spaces.
    Joined,
}

/// How the input is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One test case, as the shape has it (a list: `n`, then the values on one line).
    Single,
    /// One test case, one integer per line (a list: `n` first).
    Lines,
    /// A list on one line, without its count.
    Bare,
    /// A list on one line, its count first.
    Inline,
    /// A list one value per line, without its count.
    Column,
    /// `t`, then `t` test cases.
    Cases(Output),
    /// Test cases, one per line, to the end of the input.
    Eof,
}

impl Layout {
    /// The suffix of the package's name.
    pub(crate) fn suffix(self) -> &'static str {
        match self {
            Layout::Single => "",
            Layout::Lines => "lines",
            Layout::Bare => "bare",
            Layout::Inline => "inline",
            Layout::Column => "column",
            Layout::Cases(Output::PerLine) => "cases",
            Layout::Cases(Output::Numbered) => "numbered",
            Layout::Cases(Output::Joined) => "joined",
            Layout::Eof => "eof",
        }
    }

    /// The note added to the title.
    fn note(self) -> &'static str {
        match self {
            Layout::Single => "",
            Layout::Lines => " (Tall Input)",
            Layout::Bare => " (No Count)",
            Layout::Inline => " (One Line)",
            Layout::Column => " (Column)",
            Layout::Cases(Output::PerLine) => " (Many Cases)",
            Layout::Cases(Output::Numbered) => " (Numbered Cases)",
            Layout::Cases(Output::Joined) => " (Answers in a Row)",
            Layout::Eof => " (To the End)",
        }
    }

    fn several(self) -> bool {
        matches!(self, Layout::Cases(_) | Layout::Eof)
    }

    /// Whether the layout fits the task.
    pub(crate) fn fits(self, task: &Task) -> bool {
        match (self, &task.shape) {
            (Layout::Single, _) => true,
            (Layout::Lines, Shape::Ints(vars)) => vars.len() >= 2,
            (
                Layout::Lines | Layout::Bare | Layout::Inline | Layout::Column,
                Shape::List { .. },
            ) => true,
            (Layout::Cases(Output::Joined), _) => task.token,
            (Layout::Cases(_), _) => true,
            (Layout::Eof, Shape::Ints(_) | Shape::Text { .. }) => true,
            _ => false,
        }
    }
}

/// A number as the statements write it: `10^9`, `10\,000`, `-5`.
fn tex(n: i64) -> String {
    if n < 0 {
        return format!("-{}", tex(-n));
    }
    let digits = n.to_string();
    if n >= 100_000 && digits[1..].bytes().all(|b| b == b'0') && digits.starts_with('1') {
        let k = digits.len() - 1;
        return if k < 10 {
            format!("10^{k}")
        } else {
            format!("10^{{{k}}}")
        };
    }
    if n >= 10_000 {
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push_str("\\,");
            }
            out.push(c);
        }
        return out;
    }
    digits
}

const COUNTS: [&str; 7] = ["zero", "one", "two", "three", "four", "five", "six"];

/// `$a$, $b$ and $c$`.
fn names(vars: &[(&str, i64, i64)]) -> String {
    let names: Vec<String> = vars.iter().map(|(n, _, _)| format!("${n}$")).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

/// `$-10^9 \le a, b \le 10^9$, $1 \le c \le 100$`.
fn bounds(vars: &[(&str, i64, i64)]) -> String {
    let mut groups: Vec<(i64, i64, Vec<&str>)> = Vec::new();
    for (name, lo, hi) in vars {
        match groups.iter_mut().find(|(l, h, _)| l == lo && h == hi) {
            Some(group) => group.2.push(name),
            None => groups.push((*lo, *hi, vec![name])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(lo, hi, names)| {
            format!("${} \\le {} \\le {}$", tex(*lo), names.join(", "), tex(*hi))
        })
        .collect();
    parts.join(", ")
}

/// "one integer $n$" or "three integers $a$, $b$ and $c$".
fn integers(vars: &[(&str, i64, i64)]) -> String {
    let plural = if vars.len() == 1 { "" } else { "s" };
    format!("{} integer{plural} {}", COUNTS[vars.len()], names(vars))
}

const T_LINE: &str =
    "The first line contains one integer $t$ ($1 \\le t \\le 100$), the number of test cases.";
const TO_THE_END: &str = "The number of test cases is not given: read until the end of the input.";

/// The statement's input section.
fn input_section(task: &Task, layout: Layout) -> String {
    let spaces = |vars: &[(&str, i64, i64)]| {
        if vars.len() == 1 {
            String::new()
        } else {
            ", separated by spaces".to_owned()
        }
    };
    match (&task.shape, layout) {
        (Shape::Ints(vars), Layout::Single) => {
            format!(
                "One line with {} ({}){}.",
                integers(vars),
                bounds(vars),
                spaces(vars)
            )
        }
        (Shape::Ints(vars), Layout::Lines) => {
            let order: Vec<String> = vars.iter().map(|(n, _, _)| format!("${n}$")).collect();
            format!(
                "{} lines, each with one integer: {}, in this order ({}).",
                capitalized(COUNTS[vars.len()]),
                order.join(", then "),
                bounds(vars)
            )
        }
        (Shape::Ints(vars), Layout::Cases(_)) => format!(
            "{T_LINE}\nEach of the next $t$ lines holds one test case: {} ({}){}.",
            integers(vars),
            bounds(vars),
            spaces(vars)
        ),
        (Shape::Ints(vars), Layout::Eof) => format!(
            "Between 1 and 100 lines, each holding one test case: {} ({}){}.\n{TO_THE_END}",
            integers(vars),
            bounds(vars),
            spaces(vars)
        ),
        (Shape::Ints(_), _) => unreachable!("invariant: Layout::fits rules out lists' layouts"),
        (&Shape::List { min_n, lo, hi }, layout) => {
            let n = format!("${} \\le n \\le {}$", tex(min_n), tex(NMAX));
            let a = format!("${} \\le a_i \\le {}$", tex(lo), tex(hi));
            match layout {
                Layout::Single => format!(
                    "The first line contains one integer $n$ ({n}), the number of values.\nThe second line contains $n$ integers $a_1, \\ldots, a_n$ ({a}), separated by spaces."
                ),
                Layout::Lines => format!(
                    "The first line contains one integer $n$ ({n}), the number of values.\nEach of the next $n$ lines contains one integer: $a_1$ on the first of them, then $a_2$, and so on ({a})."
                ),
                Layout::Bare => format!(
                    "One line with the integers $a_1, \\ldots, a_n$ ({a}), separated by spaces, where {n}.\nThe number of values is not given: it is the number of integers on the line."
                ),
                Layout::Inline => format!(
                    "One line with the integer $n$ ({n}), followed by the $n$ integers $a_1, \\ldots, a_n$ ({a}), all separated by spaces."
                ),
                Layout::Column => format!(
                    "The values $a_1, \\ldots, a_n$ ({a}), one per line, where {n}.\nThe number of values is not given: read until the end of the input."
                ),
                _ => format!(
                    "{T_LINE}\nEach test case is two lines: the first holds the number of values $n$ (${} \\le n \\le {}$), the second holds $n$ integers $a_1, \\ldots, a_n$ ({a}), separated by spaces.",
                    tex(min_n),
                    tex(TMAX)
                ),
            }
        }
        (Shape::Text { what, .. }, Layout::Single) => format!("One line with {what}."),
        (Shape::Text { what, .. }, Layout::Cases(_)) => {
            format!("{T_LINE}\nEach of the next $t$ lines holds one test case: {what}.")
        }
        (Shape::Text { what, .. }, _) => {
            format!("Between 1 and 100 lines, each holding one test case: {what}.\n{TO_THE_END}")
        }
    }
}

fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The statement's output section.
fn output_section(task: &Task, layout: Layout) -> String {
    let answer = task.answer;
    match layout {
        Layout::Cases(Output::Numbered) => format!(
            "For each test case, in the input's order, print one line `Case #i: x`, where $i$ is the number of the test case (counting from 1) and $x$ is {answer}."
        ),
        Layout::Cases(Output::Joined) => format!(
            "Print one line with the answers to the test cases, in the input's order, separated by spaces. The answer to a test case is {answer}."
        ),
        Layout::Cases(Output::PerLine) | Layout::Eof => {
            format!("For each test case, in the input's order, print one line with {answer}.")
        }
        _ => format!("Print {answer}."),
    }
}

fn statement(task: &Task, layout: Layout, legend: &str) -> String {
    let several = if layout.several() {
        "\n\nThe input holds several test cases; answer each of them on its own."
    } else {
        ""
    };
    format!(
        "{}{several}\n\n## Input\n\n{}\n\n## Output\n\n{}\n",
        legend,
        input_section(task, layout),
        output_section(task, layout)
    )
}

/// The input text of one file.
fn input(task: &Task, layout: Layout, records: &[Record]) -> String {
    let mut out = String::new();
    if let Layout::Cases(_) = layout {
        let _ = writeln!(out, "{}", records.len());
    }
    for record in records {
        match (record, layout) {
            (Record::Text(s), _) => {
                let _ = writeln!(out, "{s}");
            }
            (Record::Ints(v), _) if matches!(task.shape, Shape::Ints(_)) => {
                let sep = if layout == Layout::Lines { "\n" } else { " " };
                let _ = writeln!(out, "{}", join(v, sep));
            }
            (Record::Ints(v), Layout::Single | Layout::Cases(_)) => {
                let _ = write!(out, "{}\n{}\n", v.len(), join(v, " "));
            }
            (Record::Ints(v), Layout::Lines) => {
                let _ = write!(out, "{}\n{}\n", v.len(), join(v, "\n"));
            }
            (Record::Ints(v), Layout::Bare) => {
                let _ = writeln!(out, "{}", join(v, " "));
            }
            (Record::Ints(v), Layout::Inline) => {
                let _ = writeln!(out, "{} {}", v.len(), join(v, " "));
            }
            (Record::Ints(v), _) => {
                let _ = writeln!(out, "{}", join(v, "\n"));
            }
        }
    }
    out
}

/// The values, separated by `sep`.
pub(crate) fn join(values: &[i64], sep: &str) -> String {
    let words: Vec<String> = values.iter().map(i64::to_string).collect();
    words.join(sep)
}

/// The answer file of one input.
fn answer(task: &Task, layout: Layout, records: &[Record]) -> String {
    let answers: Vec<String> = records.iter().map(|r| (task.solve)(r)).collect();
    match layout {
        Layout::Cases(Output::Numbered) => answers
            .iter()
            .enumerate()
            .map(|(i, a)| format!("Case #{}: {a}\n", i + 1))
            .collect(),
        Layout::Cases(Output::Joined) => format!("{}\n", answers.join(" ")),
        _ => answers.iter().map(|a| format!("{a}\n")).collect(),
    }
}

/// The test cases of one random file.
fn random_records(task: &Task, layout: Layout, rng: &mut Rng, size: Size) -> Vec<Record> {
    let min_n = match task.shape {
        Shape::List { min_n, .. } => min_n,
        _ => 1,
    };
    let several = layout.several();
    let count = match (several, size) {
        (false, _) => 1,
        (true, Size::Small) => rng.range(2, 5),
        (true, Size::Large) => rng.range(10, 50),
        (true, Size::Max) => TMAX,
    };
    (0..count)
        .map(|_| {
            let n = match (several, size) {
                (_, Size::Small) => rng.range(min_n, 10),
                (false, Size::Large) => rng.range(100, NMAX / 2),
                (false, Size::Max) => NMAX,
                (true, Size::Large) => rng.range(min_n, TMAX),
                (true, Size::Max) => TMAX,
            };
            (task.random)(rng, size, n as usize)
        })
        .collect()
}

/// The package of one variant.
/// The package name of a variant.
pub(crate) fn name(task: &Task, layout: Layout, wording: Option<&Wording>) -> String {
    format!(
        "{}{}{}",
        task.id,
        layout.suffix(),
        wording.map_or("", |w| w.suffix)
    )
}

/// The package of one variant, its tests drawn from `seed`.
pub(crate) fn package(
    task: &Task,
    layout: Layout,
    wording: Option<&Wording>,
    seed: u64,
) -> Package {
    assert!(layout.fits(task), "{} does not fit {layout:?}", task.id);
    let name = name(task, layout, wording);
    let files = |records: &[Record]| (input(task, layout, records), answer(task, layout, records));
    let [first, second] = (task.samples)();
    let samples = if layout.several() {
        vec![files(&[first.clone(), second.clone()]), files(&[second])]
    } else {
        vec![files(&[first]), files(&[second])]
    };
    let edges = (task.edges)();
    let mut cases: Vec<(String, String, String)> = Vec::new();
    let add = |cases: &mut Vec<(String, String, String)>, label: &str, records: &[Record]| {
        let (input, answer) = files(records);
        if cases.iter().any(|(_, i, _)| *i == input) {
            return false;
        }
        cases.push((format!("{:02}-{label}", cases.len() + 1), input, answer));
        true
    };
    if layout.several() {
        let fit: Vec<Record> = edges
            .into_iter()
            .filter(|r| {
                matches!(r, Record::Text(_))
                    || r.len() as i64 <= TMAX
                    || matches!(task.shape, Shape::Ints(_))
            })
            .collect();
        add(&mut cases, "edge", &fit);
    } else {
        for edge in edges {
            add(&mut cases, "edge", &[edge]);
        }
    }
    let mut rng = Rng::new(seed);
    for (label, size, count) in [
        ("small", Size::Small, 3),
        ("large", Size::Large, 2),
        ("max", Size::Max, 1),
    ] {
        for _ in 0..count {
            for _ in 0..100 {
                let records = random_records(task, layout, &mut rng, size);
                if add(&mut cases, label, &records) {
                    break;
                }
            }
        }
    }
    let mut wrong: Vec<(String, String, String)> = task
        .wrong
        .iter()
        .map(|(file, core)| {
            let source = if file.ends_with(".py") {
                python(task, layout, core, false)
            } else {
                cpp(task, layout, core)
            };
            ("wrong_answer".to_owned(), (*file).to_owned(), source)
        })
        .collect();
    if layout.several() {
        wrong.push((
            "wrong_answer".to_owned(),
            "first_case_only.py".to_owned(),
            python(task, layout, task.py, true),
        ));
    }
    Package {
        title: match wording {
            Some(w) => format!("{}{}", w.title, layout.note()),
            None => format!("{}{}", task.title, layout.note()),
        },
        family: task.family,
        task: task.id.to_owned(),
        statement: statement(task, layout, wording.map_or(task.legend, |w| w.legend)),
        validator: validator(&name, task, layout),
        samples,
        secret: cases,
        case_sensitive: task.case_sensitive,
        cpp: cpp(task, layout, task.cpp),
        py: python(task, layout, task.py, false),
        wrong,
        name,
    }
}

/// A Python solution: the core, then the reading and printing. `first_only` answers the
/// first test case only (a wrong submission of the layouts with several).
fn python(task: &Task, layout: Layout, core: &str, first_only: bool) -> String {
    // Statements that read one test case, and the argument list they leave.
    let (read, args) = match (&task.shape, layout) {
        (Shape::Ints(vars), Layout::Lines) => {
            let names: Vec<&str> = vars.iter().map(|(n, _, _)| *n).collect();
            let reads: Vec<String> = names
                .iter()
                .map(|n| format!("{n} = int(input())"))
                .collect();
            (reads.join("\n"), names.join(", "))
        }
        (Shape::Ints(vars), _) => {
            let names: Vec<&str> = vars.iter().map(|(n, _, _)| *n).collect();
            let many = if names.len() == 1 {
                "int(input())"
            } else {
                "map(int, input().split())"
            };
            (format!("{} = {many}", names.join(", ")), names.join(", "))
        }
        (Shape::Text { .. }, _) => ("s = input()".to_owned(), "s".to_owned()),
        (Shape::List { .. }, Layout::Lines) => (
            "n = int(input())\na = [int(input()) for _ in range(n)]".to_owned(),
            "a".to_owned(),
        ),
        (Shape::List { .. }, Layout::Inline) => (
            "n, *a = map(int, input().split())".to_owned(),
            "a".to_owned(),
        ),
        (Shape::List { .. }, Layout::Bare) => (
            "a = list(map(int, input().split()))".to_owned(),
            "a".to_owned(),
        ),
        (Shape::List { .. }, Layout::Column) => (
            "a = list(map(int, sys.stdin.read().split()))".to_owned(),
            "a".to_owned(),
        ),
        (Shape::List { .. }, _) => (
            "n = int(input())\na = list(map(int, input().split()))".to_owned(),
            "a".to_owned(),
        ),
    };
    let indented = read.replace('\n', "\n    ");
    let (head, body) = match layout {
        Layout::Cases(output) => {
            let t = if first_only { "1" } else { "t" };
            let print = match output {
                Output::PerLine => format!("print(solve({args}))"),
                Output::Numbered => format!("print(f\"Case #{{i}}: {{solve({args})}}\")"),
                Output::Joined => format!("answers.append(str(solve({args})))"),
            };
            let mut body = "t = int(input())\n".to_owned();
            if output == Output::Joined {
                body.push_str("answers = []\n");
            }
            let _ = writeln!(
                body,
                "for i in range(1, {t} + 1):\n    {indented}\n    {print}"
            );
            if output == Output::Joined {
                body.push_str("print(\" \".join(answers))\n");
            }
            ("", body)
        }
        Layout::Eof => {
            let call = match task.shape {
                Shape::Text { .. } => "solve(line)",
                _ => "solve(*map(int, line.split()))",
            };
            let lines = if first_only {
                "sys.stdin.read().split(\"\\n\")[:1]"
            } else {
                "sys.stdin.read().split(\"\\n\")[:-1]"
            };
            (
                "import sys\n\n\n",
                format!("for line in {lines}:\n    print({call})\n"),
            )
        }
        Layout::Column => (
            "import sys\n\n\n",
            format!("{read}\nprint(solve({args}))\n"),
        ),
        _ => ("", format!("{read}\nprint(solve({args}))\n")),
    };
    format!("{head}{core}\n\n{body}")
}

/// A C++ solution: the core, then `main` reading and printing.
fn cpp(task: &Task, layout: Layout, core: &str) -> String {
    let (declare, read, call) = match (&task.shape, layout) {
        (Shape::Ints(vars), _) => {
            let names: Vec<&str> = vars.iter().map(|(n, _, _)| *n).collect();
            (
                format!("long long {};", names.join(", ")),
                format!("std::cin >> {}", names.join(" >> ")),
                format!("solve({})", names.join(", ")),
            )
        }
        (Shape::Text { .. }, _) => (
            "std::string s;".to_owned(),
            "std::getline(std::cin, s)".to_owned(),
            "solve(s)".to_owned(),
        ),
        (Shape::List { .. }, Layout::Bare | Layout::Column) => (
            "std::vector<long long> a;\n    long long x;\n    while (std::cin >> x) a.push_back(x);".to_owned(),
            String::new(),
            "solve(a)".to_owned(),
        ),
        (Shape::List { .. }, _) => (
            "int n;\n    std::cin >> n;\n    std::vector<long long> a(n);\n    for (auto &x : a) std::cin >> x;".to_owned(),
            String::new(),
            "solve(a)".to_owned(),
        ),
    };
    let indent = |text: &str| text.replace("\n    ", "\n        ");
    let body = match layout {
        Layout::Cases(output) => {
            let t = match task.shape {
                Shape::Text { .. } => {
                    "std::string first;\n    std::getline(std::cin, first);\n    int t = std::stoi(first);"
                }
                _ => "int t;\n    std::cin >> t;",
            };
            let reading = if read.is_empty() {
                indent(&declare)
            } else {
                format!("{}\n        {read};", indent(&declare))
            };
            let print = match output {
                Output::PerLine => format!("std::cout << {call} << \"\\n\";"),
                Output::Numbered => {
                    format!("std::cout << \"Case #\" << i << \": \" << {call} << \"\\n\";")
                }
                Output::Joined => {
                    format!("std::cout << (i > 1 ? \" \" : \"\") << {call};")
                }
            };
            let end = if output == Output::Joined {
                "\n    std::cout << \"\\n\";"
            } else {
                ""
            };
            format!(
                "    {t}\n    for (int i = 1; i <= t; i++) {{\n        {reading}\n        {print}\n    }}{end}\n"
            )
        }
        Layout::Eof => {
            format!("    {declare}\n    while ({read}) std::cout << {call} << \"\\n\";\n")
        }
        _ if read.is_empty() => format!("    {declare}\n    std::cout << {call} << \"\\n\";\n"),
        _ => format!("    {declare}\n    {read};\n    std::cout << {call} << \"\\n\";\n"),
    };
    format!(
        "#include <algorithm>\n#include <cctype>\n#include <cstdlib>\n#include <iostream>\n#include <string>\n#include <vector>\n\n{core}\nint main() {{\n{body}}}\n"
    )
}

/// The input validator: a line reader, the test case's shape and the layout.
fn validator(name: &str, task: &Task, layout: Layout) -> String {
    let case = match &task.shape {
        Shape::Ints(vars) => {
            let bounds: Vec<String> = vars
                .iter()
                .map(|(_, lo, hi)| format!("({lo}, {hi})"))
                .collect();
            let bounds = bounds.join(", ");
            if layout == Layout::Lines {
                format!(
                    "def case(lines):\n    return [ints(lines.take(), 1, lo, hi)[0] for lo, hi in [{bounds}]]\n"
                )
            } else {
                format!(
                    "def case(lines):\n    bounds = [{bounds}]\n    line = lines.take()\n    assert len(line.split(\" \")) == len(bounds), \"wrong number of integers\"\n    return [ints(token, 1, lo, hi)[0] for token, (lo, hi) in zip(line.split(\" \"), bounds)]\n"
                )
            }
        }
        &Shape::List { min_n, lo, hi } => {
            let max_n = if layout.several() { TMAX } else { NMAX };
            let read = match layout {
                Layout::Lines => format!(
                    "    n = ints(lines.take(), 1, {min_n}, {max_n})[0]\n    return [ints(lines.take(), 1, {lo}, {hi})[0] for _ in range(n)]\n"
                ),
                Layout::Bare => format!(
                    "    line = lines.take()\n    n = len(line.split(\" \"))\n    assert {min_n} <= n <= {max_n}, f\"{{n}} values\"\n    return ints(line, n, {lo}, {hi})\n"
                ),
                Layout::Inline => format!(
                    "    head, _, rest = lines.take().partition(\" \")\n    n = ints(head, 1, {min_n}, {max_n})[0]\n    return ints(rest, n, {lo}, {hi})\n"
                ),
                Layout::Column => format!(
                    "    values = []\n    while lines.more():\n        values.append(ints(lines.take(), 1, {lo}, {hi})[0])\n    assert {min_n} <= len(values) <= {max_n}, f\"{{len(values)}} values\"\n    return values\n"
                ),
                _ => format!(
                    "    n = ints(lines.take(), 1, {min_n}, {max_n})[0]\n    return ints(lines.take(), n, {lo}, {hi})\n"
                ),
            };
            format!("def case(lines):\n{read}")
        }
        Shape::Text { pattern, max, .. } => format!(
            "def case(lines):\n    line = lines.take()\n    assert 1 <= len(line) <= {max}, f\"length {{len(line)}}\"\n    assert re.fullmatch(r\"{pattern}\", line), \"the line does not match {pattern}\"\n    return line\n"
        ),
    };
    let rule = if task.rule.is_empty() {
        "True"
    } else {
        task.rule
    };
    let main = match layout {
        Layout::Cases(_) => {
            "    t = ints(lines.take(), 1, 1, 100)[0]\n    for _ in range(t):\n        check(case(lines))\n"
        }
        Layout::Eof => {
            "    count = 0\n    while lines.more():\n        check(case(lines))\n        count += 1\n    assert 1 <= count <= 100, f\"{count} test cases\"\n"
        }
        _ => "    check(case(lines))\n",
    };
    format!(
        r#"#!/usr/bin/env python3
"""Input validator for `{name}`: exit 42 when the input is valid, 43 otherwise.

Generated by `cargo run -p problems --bin make-easy`. Strict: integers in canonical
decimal (no `+`, no leading zeros, no `-0`), tokens separated by exactly one space,
every line ending in `\n`, nothing after the last line.
"""
import re
import sys

INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")


class Lines:
    def __init__(self, text):
        assert text.endswith("\n"), "the input does not end with a newline"
        self.lines = text[:-1].split("\n")
        self.pos = 0

    def more(self):
        return self.pos < len(self.lines)

    def take(self):
        assert self.more(), "the input ends too early"
        self.pos += 1
        return self.lines[self.pos - 1]


def ints(line, count, lo, hi):
    tokens = line.split(" ")
    assert len(tokens) == count, f"{{len(tokens)}} tokens, {{count}} expected"
    values = []
    for token in tokens:
        assert INTEGER.fullmatch(token) and token != "-0", f"not an integer: {{token[:20]!r}}"
        value = int(token)
        assert lo <= value <= hi, f"{{value}} is not in [{{lo}}, {{hi}}]"
        values.append(value)
    return values


{case}

def check(v):
    assert {rule}, "the test case breaks the statement's rule"


def main():
    lines = Lines(sys.stdin.buffer.read().decode("ascii"))
{main}    assert not lines.more(), "more lines than expected"


try:
    main()
except (AssertionError, ValueError, IndexError, TypeError) as error:
    print(error, file=sys.stderr)
    sys.exit(43)
sys.exit(42)
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_statements_write_them() {
        assert_eq!(tex(1_000_000_000), "10^9");
        assert_eq!(tex(-1_000_000_000_000_000_000), "-10^{18}");
        assert_eq!(tex(10_000), "10\\,000");
        assert_eq!(tex(100), "100");
        assert_eq!(tex(123_456), "123\\,456");
    }

    #[test]
    fn bounds_group_equal_ranges() {
        let vars = [("a", -5, 5), ("b", -5, 5), ("c", 1, 100)];
        assert_eq!(bounds(&vars), "$-5 \\le a, b \\le 5$, $1 \\le c \\le 100$");
        assert_eq!(integers(&vars), "three integers $a$, $b$ and $c$");
    }
}
