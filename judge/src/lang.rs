//! The language table: data (`judge/languages.yaml`, embedded at build time), not code.
//!
//! Two entries run `.py` files: CPython (`python3`, what the extension selects) and PyPy
//! (`pypy3`). Where the judge runs a package's own submissions (`verify`, the measurement
//! of a derived time limit), [`python_for`] picks the interpreter: the one the caller
//! names, else PyPy for a legacy package (problemtools runs Python 3 with PyPy, and the
//! authors of legacy packages set their limits that way) and CPython for the 2023-07 and
//! 2025-09 formats, whose interpreter is the contest's choice.
//!
//! The package format's own language list (`judge/spec_languages.yaml`, [`spec_languages`])
//! is data too: every file ending it names is recognised, and one whose language the
//! sandbox image lacks (Python 2, for instance: Debian bookworm has none) is refused as
//! [`Error::UnsupportedLanguage`] with the reason, never as an unknown extension.

use std::path::Path;

use serde::Deserialize;

use crate::{Error, Result};

/// One language of the table.
#[derive(Debug, Clone, Deserialize)]
pub struct Language {
    /// Short id used by `--lang` (`cpp`, `python3`, ...).
    pub id: String,
    /// Display name.
    pub name: String,
    /// File extensions (without the dot) that select this language.
    pub extensions: Vec<String>,
    /// The source file name in the work folder (may use `{class}`).
    pub source: String,
    /// The compile command, run once per submission (placeholders allowed).
    pub compile: Vec<String>,
    /// The run command, run once per test.
    pub run: Vec<String>,
    /// Prints the toolchain version.
    pub version: Vec<String>,
    /// A program that copies standard input to standard output.
    pub self_test: String,
}

const TABLE: &str = include_str!("../languages.yaml");

/// The largest stack `{stack_mib}` gives: the JVM refuses a thread stack (`-Xss`) of more
/// than 1 GiB ("exceeds the maximum representable size"), and a problem's memory limit
/// may be larger.
pub const MAX_STACK_MIB: u64 = 1024;

/// The language table.
pub fn all() -> Result<Vec<Language>> {
    serde_yaml::from_str(TABLE).map_err(|err| Error::LanguageTable(err.to_string()))
}

/// The language with this id.
pub fn by_id(id: &str) -> Result<Language> {
    let table = all()?;
    let known = table
        .iter()
        .map(|l| l.id.clone())
        .collect::<Vec<_>>()
        .join(", ");
    table
        .into_iter()
        .find(|l| l.id == id)
        .ok_or_else(|| Error::UnknownLanguage {
            what: format!("language id `{id}`"),
            known,
        })
}

/// One language of the problem package format's list (`judge/spec_languages.yaml`).
#[derive(Debug, Clone, Deserialize)]
pub struct SpecLanguage {
    /// The spec's code (`kotlin`, `python3`, ...).
    pub code: String,
    /// Its name.
    pub name: String,
    /// The file endings that select it (without the dot).
    pub extensions: Vec<String>,
    /// Why the sandbox image does not have it, where that was looked into.
    #[serde(default)]
    pub why: Option<String>,
}

const SPEC_TABLE: &str = include_str!("../spec_languages.yaml");

/// The problem package format's language list.
pub fn spec_languages() -> Result<Vec<SpecLanguage>> {
    serde_yaml::from_str(SPEC_TABLE).map_err(|err| Error::LanguageTable(err.to_string()))
}

/// The spec's languages this judge cannot run (not in `languages.yaml`), each with the
/// reason: what `judge languages` lists as unsupported.
pub fn unsupported() -> Result<Vec<SpecLanguage>> {
    let table = all()?;
    let mut res = spec_languages()?;
    res.retain(|spec| {
        !spec
            .extensions
            .iter()
            .any(|ext| table.iter().any(|l| l.extensions.contains(ext)))
    });
    for spec in &mut res {
        spec.why
            .get_or_insert_with(|| "not installed in the sandbox image".to_owned());
    }
    Ok(res)
}

/// The entry of `items` whose extensions hold `ext` exactly, else in lower case (`.C` is
/// C++, `.CPP` too).
fn by_extension<'a, T>(items: &'a [T], ext: &str, exts: impl Fn(&T) -> &[String]) -> Option<&'a T> {
    let lower = ext.to_lowercase();
    items
        .iter()
        .find(|it| exts(it).iter().any(|e| e == ext))
        .or_else(|| items.iter().find(|it| exts(it).contains(&lower)))
}

/// The language of a file, from its extension. An extension of the spec's language list
/// that the sandbox cannot run is [`Error::UnsupportedLanguage`], naming the language and
/// why; any other is [`Error::UnknownLanguage`]. A folder (a submission of several files,
/// which the package format allows) is [`Error::FolderSubmission`].
pub fn for_path(path: &Path) -> Result<Language> {
    if path.is_dir() {
        return Err(Error::FolderSubmission {
            path: path.to_path_buf(),
        });
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let table = all()?;
    if let Some(lang) = by_extension(&table, &ext, |l| &l.extensions) {
        return Ok(lang.clone());
    }
    if let Some(spec) = by_extension(&unsupported()?, &ext, |l| &l.extensions) {
        return Err(Error::UnsupportedLanguage {
            file: path.to_path_buf(),
            name: spec.name.clone(),
            code: spec.code.clone(),
            why: spec.why.clone().unwrap_or_default(),
        });
    }
    let mut known: Vec<String> = Vec::new();
    for e in table.iter().flat_map(|l| &l.extensions) {
        let e = format!(".{e}");
        if !known.contains(&e) {
            known.push(e);
        }
    }
    let known = known.join(", ");
    Err(Error::UnknownLanguage {
        what: format!("file {} (extension `.{ext}`)", path.display()),
        known,
    })
}

/// The language ids that run `.py` files: CPython (the one `.py` selects) and PyPy.
pub const PYTHONS: [&str; 2] = ["python3", "pypy3"];

/// The package's `problem_format_version` from `root/problem.yaml`: `legacy` when the file
/// or the key is missing (the loader reports a malformed file).
pub fn package_format(root: &Path) -> String {
    std::fs::read_to_string(root.join("problem.yaml"))
        .ok()
        .and_then(|text| serde_yaml::from_str::<serde_yaml::Value>(&text).ok())
        .and_then(|yaml| {
            yaml.get("problem_format_version")
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        })
        .unwrap_or_else(|| "legacy".to_owned())
}

/// The language id that runs the package's Python 3 submissions by default, from its
/// `problem_format_version`: `pypy3` for legacy, `python3` otherwise.
pub fn default_python(format: &str) -> &'static str {
    match format {
        "legacy" | "legacy-icpc" => "pypy3",
        _ => "python3",
    }
}

/// The language id that runs the `.py` submissions of the package at `root`: `chosen`
/// when the caller names one (it must be one of [`PYTHONS`]), else [`default_python`] of
/// its format.
pub fn python_for(root: &Path, chosen: Option<&str>) -> Result<&'static str> {
    match chosen {
        Some(id) => PYTHONS
            .into_iter()
            .find(|p| *p == id)
            .ok_or_else(|| Error::UnknownLanguage {
                what: format!("Python interpreter `{id}`"),
                known: PYTHONS.join(", "),
            }),
        None => Ok(default_python(&package_format(root))),
    }
}

/// The language id a package's own submission at `path` runs as when its Python is
/// `python`: `python` for a `.py` file, `None` (the extension's language) otherwise.
pub fn reference_language<'a>(path: &Path, python: &'a str) -> Option<&'a str> {
    for_path(path)
        .is_ok_and(|lang| lang.id == PYTHONS[0])
        .then_some(python)
}

impl Language {
    /// The Java class name of a source: the first `public class NAME`, else `Main`.
    pub fn class_name(source: &str) -> String {
        let mut words = source
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .filter(|w| !w.is_empty());
        while let Some(word) = words.next() {
            if word == "public" {
                let mut rest = words.clone();
                if rest.next() == Some("class")
                    && let Some(name) = rest.next()
                {
                    return name.to_owned();
                }
            }
        }
        "Main".to_owned()
    }

    /// Replaces the placeholders in `template`: `{class}`, `{memory_mib}` (the memory
    /// limit) and `{stack_mib}` (the same, at most [`MAX_STACK_MIB`]).
    pub fn expand(template: &str, class: &str, memory_mib: u64) -> String {
        template
            .replace("{class}", class)
            .replace("{memory_mib}", &memory_mib.to_string())
            .replace("{stack_mib}", &memory_mib.min(MAX_STACK_MIB).to_string())
    }

    /// The source file name for this source text.
    pub fn source_name(&self, source: &str) -> String {
        Language::expand(&self.source, &Language::class_name(source), 0)
    }

    /// A command for the one-file program `source` (a submission) with its placeholders
    /// replaced.
    pub fn command(&self, template: &[String], source: &str, memory_mib: u64) -> Vec<String> {
        let name = self.source_name(source);
        self.program_command(
            template,
            &name,
            &Language::class_name(source),
            std::slice::from_ref(&name),
            memory_mib,
        )
    }

    /// A command for a program of several files: `main` is its main source's file name
    /// (`{source}`), `class` its Java class and `files` the sources compiled together (an
    /// argument that is exactly `{files}` becomes one argument per file).
    pub fn program_command(
        &self,
        template: &[String],
        main: &str,
        class: &str,
        files: &[String],
        memory_mib: u64,
    ) -> Vec<String> {
        let mut res = Vec::with_capacity(template.len() + files.len());
        for arg in template {
            if arg == "{files}" {
                res.extend(files.iter().cloned());
            } else {
                res.push(Language::expand(arg, class, memory_mib).replace("{source}", main));
            }
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_has_the_required_languages() {
        let ids: Vec<String> = all().expect("table").into_iter().map(|l| l.id).collect();
        assert_eq!(ids, vec!["c", "cpp", "python3", "pypy3", "java", "kotlin"]);
    }

    #[test]
    fn languages_by_extension_and_errors() {
        assert_eq!(for_path(Path::new("a/b.CPP")).expect("cpp").id, "cpp");
        // `.py` is CPython's; PyPy shares the extension and is chosen by id.
        assert_eq!(for_path(Path::new("x.py")).expect("py").id, "python3");
        assert_eq!(by_id("pypy3").expect("pypy3").extensions, ["py", "py3"]);
        let err = for_path(Path::new("x.xyz"))
            .expect_err("unknown")
            .to_string();
        assert!(
            err.starts_with("unknown language for file x.xyz (extension `.xyz`); known:"),
            "{err}"
        );
        // Each extension once, though `.py` runs as CPython or PyPy.
        assert_eq!(err.matches(".py,").count(), 1, "{err}");
        // A folder is a submission of several files, named as such.
        let dir = tempfile::tempdir().expect("tempdir");
        let err = for_path(dir.path()).expect_err("a folder").to_string();
        assert!(err.ends_with("is a folder: a submission of several files, which this judge does not support (one source file per submission)"), "{err}");
        // The spec's languages are recognised, and refused with why.
        assert_eq!(
            for_path(Path::new("x.rb")).expect_err("ruby").to_string(),
            "x.rb is Ruby (`ruby` in the package format's language list), which this judge \
             cannot run: not installed in the sandbox image"
        );
        assert!(by_id("cobol").is_err());
        assert_eq!(for_path(Path::new("x.py3")).expect("py3").id, "python3");
        assert_eq!(for_path(Path::new("x.C")).expect("C").id, "cpp");
        assert_eq!(for_path(Path::new("x.c")).expect("c").id, "c");
        assert_eq!(for_path(Path::new("s/a.kt")).expect("kotlin").id, "kotlin");
        assert_eq!(
            for_path(Path::new("s/a.py2"))
                .expect_err("python 2")
                .to_string(),
            "s/a.py2 is Python 2 (`python2` in the package format's language list), which this \
             judge cannot run: Python 2 is not in Debian bookworm"
        );
    }

    #[test]
    fn every_extension_of_the_spec_list_is_recognised() {
        let table = all().expect("table");
        for spec in spec_languages().expect("spec list") {
            for ext in &spec.extensions {
                let path = format!("a.{ext}");
                match for_path(Path::new(&path)) {
                    // A language the sandbox runs must be the spec's.
                    Ok(lang) => assert_eq!(
                        lang.id.trim_start_matches("py"),
                        spec.code.trim_start_matches("py"),
                        "{path}"
                    ),
                    Err(Error::UnsupportedLanguage { code, .. }) => {
                        assert_eq!(code, spec.code, "{path}")
                    }
                    Err(other) => panic!("{path}: {other}"),
                }
            }
        }
        // Each language of the table is the spec's under its own code.
        let codes: Vec<String> = spec_languages()
            .expect("spec list")
            .into_iter()
            .map(|s| s.code)
            .collect();
        for lang in &table {
            let code = if lang.id == "pypy3" {
                "python3"
            } else {
                &lang.id
            };
            assert!(codes.iter().any(|c| c == code), "{}", lang.id);
        }
        let unsupported = unsupported().expect("unsupported");
        assert!(unsupported.iter().any(|s| s.code == "python2"));
        assert!(!unsupported.iter().any(|s| s.code == "kotlin"));
        assert!(
            !unsupported
                .iter()
                .any(|s| s.code == "python3" || s.code == "cpp")
        );
        assert!(unsupported.iter().all(|s| s.why.is_some()));
    }

    #[test]
    fn python_is_pypy_for_legacy_packages_and_cpython_otherwise() {
        for (format, python) in [
            ("legacy", "pypy3"),
            ("legacy-icpc", "pypy3"),
            ("2023-07-draft", "python3"),
            ("2023-07", "python3"),
            ("2025-09", "python3"),
        ] {
            assert_eq!(default_python(format), python, "{format}");
            assert!(by_id(python).is_ok(), "{python}");
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        assert_eq!(package_format(root), "legacy", "no problem.yaml");
        assert_eq!(python_for(root, None).expect("default"), "pypy3");
        let yaml = root.join("problem.yaml");
        std::fs::write(&yaml, "name: A\nlimits:\n  time_multiplier: 2\n").expect("write");
        assert_eq!(package_format(root), "legacy");
        std::fs::write(&yaml, "problem_format_version: 2025-09\nname: A\n").expect("write");
        assert_eq!(package_format(root), "2025-09");
        assert_eq!(python_for(root, None).expect("default"), "python3");
        // The caller's choice wins, but only a Python.
        assert_eq!(python_for(root, Some("pypy3")).expect("chosen"), "pypy3");
        let err = python_for(root, Some("cpp")).expect_err("not a Python");
        assert_eq!(
            err.to_string(),
            "unknown language for Python interpreter `cpp`; known: python3, pypy3"
        );
        // Only `.py` files follow the choice.
        assert_eq!(
            reference_language(Path::new("s/accepted/a.py"), "pypy3"),
            Some("pypy3")
        );
        assert_eq!(
            reference_language(Path::new("s/accepted/a.cc"), "pypy3"),
            None
        );
    }

    #[test]
    fn java_class_names() {
        assert_eq!(
            Language::class_name("import x;\npublic class Solve { }"),
            "Solve"
        );
        assert_eq!(Language::class_name("class A {}"), "Main");
        let java = by_id("java").expect("java");
        assert_eq!(java.source_name("public class Echo {}"), "Echo.java");
        assert_eq!(
            java.command(&java.run, "public class Echo {}", 256)[2..4],
            ["-Xss256m", "-Xmx256m"]
        );
    }

    #[test]
    fn commands_of_one_file_and_of_several() {
        let table = all().expect("table");
        let commands = |id: &str, files: &[&str], main: &str| {
            let lang = table.iter().find(|l| l.id == id).expect("known");
            let files = files.iter().map(|f| f.to_string()).collect::<Vec<_>>();
            let stem = main.split('.').next().unwrap_or_default();
            let compile = lang.program_command(&lang.compile, main, stem, &files, 64);
            let run = lang.program_command(&lang.run, main, stem, &files, 64);
            format!("{} | {}", compile.join(" "), run.join(" "))
        };
        // A submission: the one source, as before `{files}` existed.
        let cpp = by_id("cpp").expect("cpp");
        assert_eq!(
            cpp.command(&cpp.compile, "int main(){}", 64).join(" "),
            "g++ -std=gnu++20 -O2 -pipe -DONLINE_JUDGE -o main main.cpp"
        );
        let python = by_id("python3").expect("python3");
        assert_eq!(
            python.command(&python.run, "", 64).join(" "),
            "python3 -s main.py"
        );
        let pypy = by_id("pypy3").expect("pypy3");
        assert_eq!(
            pypy.command(&pypy.run, "", 64).join(" "),
            "env PYPY_GC_NURSERY=4MB PYPY_GC_MAX=64MB pypy3 -s main.py"
        );
        // Validator folders: every source compiled together, the main one run.
        assert_eq!(
            commands("cpp", &["validate.cc", "util.cpp"], "validate.cc"),
            "g++ -std=gnu++20 -O2 -pipe -DONLINE_JUDGE -o main validate.cc util.cpp | ./main"
        );
        assert_eq!(
            commands("c", &["a.c", "b.c"], "a.c"),
            "gcc -std=gnu17 -O2 -pipe -DONLINE_JUDGE -o main a.c b.c -lm | ./main"
        );
        assert_eq!(
            commands("python3", &["lib.py", "check.py"], "check.py"),
            "python3 -s -c import py_compile, sys; py_compile.compile('check.py', doraise=True) | python3 -s check.py"
        );
        assert_eq!(
            commands("java", &["Check.java", "Util.java"], "Check.java"),
            "javac -encoding UTF-8 -J-Xss64m Check.java | java -XX:+UseSerialGC -Xss64m -Xmx64m -cp . Check"
        );
    }

    #[test]
    fn the_stack_follows_the_memory_limit_up_to_what_the_jvm_takes() {
        let template = "-Xss{stack_mib}m -Xmx{memory_mib}m";
        assert_eq!(Language::expand(template, "M", 256), "-Xss256m -Xmx256m");
        assert_eq!(Language::expand(template, "M", 1024), "-Xss1024m -Xmx1024m");
        assert_eq!(Language::expand(template, "M", 2048), "-Xss1024m -Xmx2048m");
    }
}
