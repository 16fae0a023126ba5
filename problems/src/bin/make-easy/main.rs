//! `make-easy`: writes the easy problem set (`problems/easy/<name>/`) from its problem
//! families, deterministically: the same source gives the same bytes.
//!
//! ```text
//! cargo run -p problems --bin make-easy            # writes problems/easy/
//! cargo run -p problems --bin make-easy -- DIR     # writes DIR/ (the regeneration test)
//! ```
//!
//! Every package is 2025-09: `problem.yaml` (name, a uuid from the name's SHA-256, a 1 s
//! time limit), `statement/problem.en.md` (no title, no samples), two samples, secret
//! tests from a seeded generator (the seed is the name's FNV-1a hash: edge cases first,
//! then small, large and maximum-size random cases), answers computed here by the
//! family's own solver, a strict input validator (`input_validators/validate.py`, one
//! template read from a per-problem line spec), accepted submissions in C++ and Python,
//! and wrong submissions that a plausible mistake produces. The package folders are
//! removed and written again; `split.yaml`, `README.md` and other files of the easy folder
//! are left alone.

mod families;
mod held_out_tasks;
mod rng;
mod tasks;
mod training_more_numbers;
mod training_more_texts;
mod training_numbers;
mod training_texts;
mod validation_tasks;
mod variants;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use sha2::{Digest, Sha256};

use families::{Easy, Family, Line};
use rng::Rng;

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = match args.as_slice() {
        [] => Path::new(env!("CARGO_MANIFEST_DIR")).join("easy"),
        [dir] if !dir.starts_with('-') => PathBuf::from(dir),
        _ => bail!("usage: make-easy [OUTPUT_DIR] (default: problems/easy)"),
    };
    let packages = all();
    let mut names = std::collections::BTreeSet::new();
    for package in &packages {
        if !names.insert(package.name.clone()) {
            bail!("two problems are named {}", package.name);
        }
        write_package(&out, package)
            .with_context(|| format!("writing the package {}", package.name))?;
    }
    let tasks: std::collections::BTreeSet<&str> =
        packages.iter().map(|p| p.task.as_str()).collect();
    println!(
        "wrote {} packages ({} tasks) under {}",
        packages.len(),
        tasks.len(),
        out.display()
    );
    Ok(())
}

/// A package, ready to write.
pub(crate) struct Package {
    pub(crate) name: String,
    pub(crate) title: String,
    pub(crate) family: Family,
    /// The solver's identity, shared by a task's variants (`split.yaml`'s `task`).
    pub(crate) task: String,
    pub(crate) statement: String,
    /// `input_validators/validate.py`.
    pub(crate) validator: String,
    /// (input, answer).
    pub(crate) samples: Vec<(String, String)>,
    /// (file stem, input, answer).
    pub(crate) secret: Vec<(String, String, String)>,
    pub(crate) case_sensitive: bool,
    pub(crate) cpp: String,
    pub(crate) py: String,
    /// (folder under `submissions/`, file name, source).
    pub(crate) wrong: Vec<(String, String, String)>,
}

/// Every package: the families' problems, then the variants of the tasks.
fn all() -> Vec<Package> {
    let mut all: Vec<Package> = families::all().iter().map(from_easy).collect();
    let wordings = tasks::wordings();
    let tasks = tasks::all()
        .into_iter()
        .chain(training_numbers::tasks())
        .chain(training_texts::tasks())
        .chain(training_more_numbers::tasks())
        .chain(training_more_texts::tasks())
        .chain(validation_tasks::tasks())
        .chain(held_out_tasks::tasks());
    for (task, layouts) in tasks {
        for &layout in &layouts {
            let name = variants::name(&task, layout, None);
            all.push(variants::package(&task, layout, None, seed(&name)));
        }
        for wording in wordings.iter().filter(|w| w.task == task.id) {
            let layout = variants::Layout::Single;
            let name = variants::name(&task, layout, Some(wording));
            all.push(variants::package(&task, layout, Some(wording), seed(&name)));
        }
    }
    all
}

/// A family's problem as a package: its samples, and secret tests from a generator
/// seeded by its name.
fn from_easy(p: &Easy) -> Package {
    let samples = p
        .samples
        .iter()
        .map(|input| ((*input).to_owned(), (p.solve)(input)))
        .collect();
    let mut rng = Rng::new(seed(p.name));
    let mut cases: Vec<(String, String)> = Vec::new();
    for (i, edge) in p.edges.iter().enumerate() {
        cases.push((format!("{:02}-edge", i + 1), (*edge).to_owned()));
    }
    for (label, size, count) in [
        ("small", families::Size::Small, 3),
        ("large", families::Size::Large, 2),
        ("max", families::Size::Max, 1),
    ] {
        for _ in 0..count {
            // A draw equal to an earlier case (small ranges repeat) is drawn again, and
            // left out if it keeps repeating: a repeated case tests nothing new, and
            // BAPCtools' `bt validate` flags it.
            let mut input = (p.random)(&mut rng, size);
            let repeats = |input: &String| cases.iter().any(|(_, c)| c == input);
            for _ in 0..100 {
                if !repeats(&input) {
                    break;
                }
                input = (p.random)(&mut rng, size);
            }
            if !repeats(&input) {
                cases.push((format!("{:02}-{label}", cases.len() + 1), input));
            }
        }
    }
    Package {
        name: p.name.to_owned(),
        title: p.title.to_owned(),
        family: p.family,
        task: p.name.to_owned(),
        statement: p.statement.to_owned(),
        validator: validator(p.name, &p.lines),
        samples,
        secret: cases
            .into_iter()
            .map(|(name, input)| {
                let answer = (p.solve)(&input);
                (name, input, answer)
            })
            .collect(),
        case_sensitive: p.case_sensitive,
        cpp: p.cpp.to_owned(),
        py: p.py.to_owned(),
        wrong: p
            .wrong
            .iter()
            .map(|(folder, file, source)| {
                (
                    (*folder).to_owned(),
                    (*file).to_owned(),
                    (*source).to_owned(),
                )
            })
            .collect(),
    }
}

/// The FNV-1a hash of a name: the seed of its test generator.
fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A stable uuid (version 4 layout) from the name's SHA-256.
fn uuid(name: &str) -> String {
    let digest = Sha256::digest(format!("arena easy problem {name}").as_bytes());
    let mut bytes: [u8; 16] = digest[..16].try_into().expect("16 bytes");
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let hex = hex::encode(bytes);
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

fn write(path: &Path, text: &str) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

fn write_package(root: &Path, p: &Package) -> Result<()> {
    let dir = root.join(&p.name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).with_context(|| format!("removing {}", dir.display()))?;
    }
    write(
        &dir.join("problem.yaml"),
        &format!(
            "problem_format_version: 2025-09\nname:\n  en: {}\nuuid: {}\ncredits: Arena problem setters\nlicense: cc by-sa\nrights_owner: Arena project\nkeywords: [easy, {}]\nlimits:\n  time_limit: 1\n  memory: 256\n",
            p.title,
            uuid(&p.name),
            p.family.name()
        ),
    )?;
    write(&dir.join("statement/problem.en.md"), &p.statement)?;
    write(&dir.join("input_validators/validate.py"), &p.validator)?;
    if p.case_sensitive {
        for group in ["sample", "secret"] {
            write(
                &dir.join(format!("data/{group}/test_group.yaml")),
                "output_validator_args: [case_sensitive]\n",
            )?;
        }
    }
    for (i, (input, answer)) in p.samples.iter().enumerate() {
        let base = dir.join(format!("data/sample/{}", i + 1));
        write(&base.with_extension("in"), input)?;
        write(&base.with_extension("ans"), answer)?;
    }
    for (name, input, answer) in &p.secret {
        let base = dir.join(format!("data/secret/{name}"));
        write(&base.with_extension("in"), input)?;
        write(&base.with_extension("ans"), answer)?;
    }
    write(
        &dir.join(format!("submissions/accepted/{}.cpp", p.name)),
        &p.cpp,
    )?;
    write(
        &dir.join(format!("submissions/accepted/{}.py", p.name)),
        &p.py,
    )?;
    for (folder, file, source) in &p.wrong {
        write(&dir.join(format!("submissions/{folder}/{file}")), source)?;
    }
    Ok(())
}

/// The input validator: one template, the problem's lines as data.
fn validator(name: &str, lines: &[Line]) -> String {
    let mut spec = String::new();
    for line in lines {
        match line {
            Line::Ints(bounds) => {
                let bounds: Vec<String> = bounds
                    .iter()
                    .map(|(lo, hi)| format!("({lo}, {hi})"))
                    .collect();
                let _ = writeln!(spec, "    (\"ints\", [{}]),", bounds.join(", "));
            }
            Line::List(lo, hi) => {
                let _ = writeln!(spec, "    (\"list\", {lo}, {hi}),");
            }
            Line::Text(pattern, min, max) => {
                let _ = writeln!(spec, "    (\"text\", r\"{pattern}\", {min}, {max}),");
            }
        }
    }
    format!(
        r#"#!/usr/bin/env python3
"""Input validator for `{name}`: exit 42 when the input is valid, 43 otherwise.

Generated by `cargo run -p problems --bin make-easy`. Strict: integers in canonical
decimal (no `+`, no leading zeros, no `-0`), tokens separated by exactly one space,
every line ending in `\n`, nothing after the last line. A "list" line holds as many
integers as the first integer of the first line says.
"""
import re
import sys

SPEC = [
{spec}]

INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")


def ints(line, bounds):
    tokens = line.split(" ")
    assert len(tokens) == len(bounds), f"{{len(tokens)}} tokens, {{len(bounds)}} expected"
    values = []
    for token, (lo, hi) in zip(tokens, bounds):
        assert INTEGER.fullmatch(token) and token != "-0", f"not an integer: {{token[:20]!r}}"
        value = int(token)
        assert lo <= value <= hi, f"{{value}} is not in [{{lo}}, {{hi}}]"
        values.append(value)
    return values


def main():
    text = sys.stdin.buffer.read().decode("ascii")
    assert text.endswith("\n"), "the input does not end with a newline"
    lines = text[:-1].split("\n")
    assert len(lines) == len(SPEC), f"{{len(lines)}} lines, {{len(SPEC)}} expected"
    first = None
    for line, spec in zip(lines, SPEC):
        if spec[0] == "ints":
            values = ints(line, spec[1])
            if first is None:
                first = values[0]
        elif spec[0] == "list":
            ints(line, [(spec[1], spec[2])] * first)
        else:
            _, pattern, low, high = spec
            assert low <= len(line) <= high, f"length {{len(line)}} is not in [{{low}}, {{high}}]"
            assert re.fullmatch(pattern, line), "the line does not match " + pattern


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
    fn uuids_are_stable_and_well_formed() {
        let id = uuid("aplusb");
        assert_eq!(id, uuid("aplusb"));
        assert_ne!(id, uuid("aminusb"));
        let groups: Vec<usize> = id.split('-').map(str::len).collect();
        assert_eq!(groups, [8, 4, 4, 4, 12]);
        assert_eq!(&id[14..15], "4");
    }

    #[test]
    fn every_problem_is_well_formed() {
        let packages = all();
        assert!(packages.len() >= 200, "{} packages", packages.len());
        for p in &packages {
            assert!(
                p.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit()),
                "{}",
                p.name
            );
            assert!(!p.wrong.is_empty(), "{} has no wrong submission", p.name);
            assert!(
                !p.statement.contains(&p.title),
                "{} repeats its title",
                p.name
            );
            for (input, answer) in &p.samples {
                if input.trim().contains('\n') {
                    assert!(
                        !p.statement.contains(input.trim()),
                        "{} shows a sample",
                        p.name
                    );
                }
                assert!(answer.ends_with('\n'), "{}", p.name);
            }
            assert!(p.secret.len() >= 5, "{}: {} tests", p.name, p.secret.len());
        }
    }

    /// `split.yaml` (written by hand) names every package with the family and the task
    /// the generator gives it, so the split's rule "each task on one side" is about the
    /// real solvers.
    #[test]
    fn the_split_names_each_package_with_its_family_and_task() {
        let split = problems::easy::split().expect("split.yaml parses");
        let entries: std::collections::BTreeMap<&str, &problems::easy::Entry> = split
            .training
            .iter()
            .chain(&split.validation)
            .chain(&split.held_out)
            .map(|e| (e.name.as_str(), e))
            .collect();
        let packages = all();
        assert_eq!(entries.len(), packages.len());
        for p in &packages {
            let entry = entries
                .get(p.name.as_str())
                .unwrap_or_else(|| panic!("{} is not in split.yaml", p.name));
            assert_eq!(entry.family, p.family.name(), "{}", p.name);
            assert_eq!(entry.task(), p.task, "{}", p.name);
        }
    }
}
