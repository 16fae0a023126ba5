//! The validators of a package: the output validator (or interactor) and the input
//! validators as programs ([`ValidatorProgram`]: a folder's files, the language found from
//! them, `build`/`run` scripts), the [`Validation`] a problem gets (custom, or the default
//! validator with its flags checked, also those of each test group).
//!
//! A program is built the way problemtools and DOMjudge build one: every regular file
//! directly in its folder is copied beside the build (headers included); with a `build`
//! or `run` script the scripts decide; otherwise the language is the one most of the
//! sources are written in (`.c` C; `.cc`, `.cpp`, `.cxx`, `.c++`, `.C` C++; `.py`
//! Python 3; `.java` Java), and every source of that language is compiled together.

use std::path::{Path, PathBuf};

use super::diagnostics::Ctx;
use super::header::Header;
use super::testdata::ArgsSource;
use super::{Problem, Validation, folder};
use crate::default_validator::{self, DefaultFlags};

/// Extensions of output validator sources.
const VALIDATOR_EXTENSIONS: &[&str] = &["c", "cpp", "cc", "py", "java"];

/// The folders an output validator may be in: legacy, then 2025-09.
const OUTPUT_VALIDATOR_FOLDERS: [&str; 2] = ["output_validators", "output_validator"];

/// Every validator source file in `root` (a folder, or the source file itself) and in its
/// immediate subfolders, in path order.
pub(super) fn sources(root: &Path) -> Vec<PathBuf> {
    let is_source = |path: &Path| {
        path.is_file()
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| VALIDATOR_EXTENSIONS.contains(&e))
    };
    if root.is_file() {
        return if is_source(root) {
            vec![root.to_path_buf()]
        } else {
            Vec::new()
        };
    }
    let mut res = Vec::new();
    for entry in folder::list_entries(root) {
        if entry.is_dir() {
            res.extend(
                folder::list_entries(&entry)
                    .into_iter()
                    .filter(|p| is_source(p)),
            );
        } else if is_source(&entry) {
            res.push(entry);
        }
    }
    res.sort();
    res
}

/// The output validator folder (or file) of the package in `root`, when there is one.
pub(super) fn find_output_validator(root: &Path) -> Option<PathBuf> {
    OUTPUT_VALIDATOR_FOLDERS
        .iter()
        .map(|name| root.join(name))
        .find(|path| path.exists())
}

/// How output is checked. The problem's arguments are those of the config in `data/`
/// (`problem_args`), else legacy `validator_flags`. A custom validator must have exactly
/// one source; the default validator's flags must parse.
pub(super) fn validation(
    ctx: &mut Ctx,
    root: &Path,
    header: &Header,
    problem_args: Option<ArgsSource>,
    output_validator: Option<&Path>,
) -> Validation {
    let (flags_source, flags) =
        problem_args.unwrap_or_else(|| (header.path.clone(), header.validator_flags.clone()));
    if header.custom {
        check_custom_validator(ctx, root, output_validator);
        return Validation::Custom {
            flags,
            interactive: header.interactive,
            score: header.score,
            convention: header.convention,
            passes: header.passes,
        };
    }
    if header.convention_given {
        ctx.warning(
            &header.path,
            "`validator_convention` has no effect without a custom output validator",
        );
    }
    Validation::Default(parse_flags(ctx, &flags_source, &flags).unwrap_or_default())
}

/// Reports a custom validation without an output validator, or whose validator is not a
/// program the judge can build.
fn check_custom_validator(ctx: &mut Ctx, root: &Path, output_validator: Option<&Path>) {
    let Some(path) = output_validator else {
        ctx.error(
            &root.join("output_validators"),
            "the problem uses a custom validator but has none",
        );
        return;
    };
    if let Err((at, why)) = output_program(path) {
        ctx.error(&at, why);
    }
}

/// The language of a validator program, found from its files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProgramLanguage {
    /// C (`.c`).
    C,
    /// C++ (`.cc`, `.cpp`, `.cxx`, `.c++`, `.C`).
    Cpp,
    /// Python 3 (`.py`).
    Python,
    /// Java (`.java`).
    Java,
}

impl ProgramLanguage {
    /// The language of a file name, from its extension.
    fn of(name: &str) -> Option<ProgramLanguage> {
        let (_, ext) = name.rsplit_once('.')?;
        Some(match ext {
            "c" => ProgramLanguage::C,
            "cc" | "cpp" | "cxx" | "c++" | "C" => ProgramLanguage::Cpp,
            "py" => ProgramLanguage::Python,
            "java" => ProgramLanguage::Java,
            _ => return None,
        })
    }

    /// The id of the language in the judge's language table (`c`, `cpp`, `python3`,
    /// `java`).
    pub fn id(self) -> &'static str {
        match self {
            ProgramLanguage::C => "c",
            ProgramLanguage::Cpp => "cpp",
            ProgramLanguage::Python => "python3",
            ProgramLanguage::Java => "java",
        }
    }

    /// The display name.
    pub fn name(self) -> &'static str {
        match self {
            ProgramLanguage::C => "C",
            ProgramLanguage::Cpp => "C++",
            ProgramLanguage::Python => "Python 3",
            ProgramLanguage::Java => "Java",
        }
    }
}

/// A validator program (output validator, interactor or input validator): the files of its
/// folder and how to build them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorProgram {
    /// The program's path in the package (a folder, or a single source file).
    pub path: PathBuf,
    /// The folder its files are in.
    pub folder: PathBuf,
    /// The names of its files, directly in `folder` (hidden files skipped), in byte
    /// order: every one is copied beside the build, headers included.
    pub files: Vec<String>,
    /// The language of its sources; `None` when `build`/`run` scripts build it.
    pub language: Option<ProgramLanguage>,
    /// The sources of `language` among `files`, compiled together.
    pub sources: Vec<String>,
    /// The source that is the program's entry point: the Python file run, the Java class
    /// with `main` (the first source for C and C++, which compile all together).
    pub main: Option<String>,
    /// The folder has a `build` script, run once before the program is used.
    pub build_script: bool,
    /// The folder has a `run` script, which is the program.
    pub run_script: bool,
}

impl ValidatorProgram {
    /// What the program is, for messages: its path relative to `root` with its language
    /// and sources (`output_validators/check (C++: helper.cc, validate.cc)`).
    pub fn describe(&self, root: &Path) -> String {
        let path = folder::slash_path(self.path.strip_prefix(root).unwrap_or(&self.path));
        match self.language {
            _ if self.build_script || self.run_script => format!("{path} (build/run scripts)"),
            Some(language) => format!("{path} ({}: {})", language.name(), self.sources.join(", ")),
            None => path,
        }
    }
}

/// The program at `path`, a folder or one source file. `Err` says why it is none: a file
/// that is not a source, a folder without `build`/`run` scripts or sources, or sources in
/// several languages as many of each.
pub(super) fn program(path: &Path) -> Result<ValidatorProgram, String> {
    let (dir, files) = if path.is_file() {
        let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        (dir, vec![folder::file_name(path)])
    } else {
        let files = folder::list_entries(path)
            .into_iter()
            .filter(|p| p.is_file())
            .map(|p| folder::file_name(&p))
            .collect::<Vec<_>>();
        (path.to_path_buf(), files)
    };
    let build_script = files.iter().any(|f| f == "build");
    let run_script = files.iter().any(|f| f == "run");
    let mut res = ValidatorProgram {
        path: path.to_path_buf(),
        folder: dir,
        files,
        language: None,
        sources: Vec::new(),
        main: None,
        build_script,
        run_script,
    };
    if build_script || run_script {
        return Ok(res);
    }
    let languages = [
        ProgramLanguage::Cpp,
        ProgramLanguage::C,
        ProgramLanguage::Java,
        ProgramLanguage::Python,
    ];
    let count = |language| {
        res.files
            .iter()
            .filter(|f| ProgramLanguage::of(f) == Some(language))
            .count()
    };
    let most = languages.iter().map(|l| count(*l)).max().unwrap_or(0);
    let winners = languages
        .iter()
        .copied()
        .filter(|l| most > 0 && count(*l) == most)
        .collect::<Vec<_>>();
    let language = match winners.as_slice() {
        [one] => *one,
        [] => {
            return Err(format!(
                "no validator program: no `build` or `run` script and no source (.c, .cc, .cpp, \
                 .cxx, .c++, .py, .java){}",
                listing(&res.files)
            ));
        }
        _ => {
            return Err(format!(
                "the validator's language is ambiguous: as many sources in {}{}",
                winners
                    .iter()
                    .map(|l| l.name())
                    .collect::<Vec<_>>()
                    .join(" as in "),
                listing(&res.files)
            ));
        }
    };
    res.sources = res
        .files
        .iter()
        .filter(|f| ProgramLanguage::of(f) == Some(language))
        .cloned()
        .collect();
    res.main = main_source(&res.folder, language, &res.sources);
    res.language = Some(language);
    Ok(res)
}

/// `: a, b` for the names of the files found, or nothing.
fn listing(files: &[String]) -> String {
    if files.is_empty() {
        String::new()
    } else {
        format!(" (found: {})", files.join(", "))
    }
}

/// The entry point among `sources`: the only one; else for Python the one that tests
/// `__main__` (else `main.py`), for Java the one declaring `static void main`; else the
/// first.
fn main_source(dir: &Path, language: ProgramLanguage, sources: &[String]) -> Option<String> {
    if sources.len() <= 1 {
        return sources.first().cloned();
    }
    let marker = match language {
        ProgramLanguage::Python => "__main__",
        ProgramLanguage::Java => "static void main",
        ProgramLanguage::C | ProgramLanguage::Cpp => return sources.first().cloned(),
    };
    let has_marker = |name: &String| {
        std::fs::read_to_string(dir.join(name)).is_ok_and(|text| text.contains(marker))
    };
    sources
        .iter()
        .find(|name| has_marker(name))
        .or_else(|| sources.iter().find(|name| *name == "main.py"))
        .or_else(|| sources.first())
        .cloned()
}

/// The output validator's program: the folder itself when it holds files of a program
/// (sources or `build`/`run` scripts) directly, else its one subfolder (legacy
/// `output_validators/<name>/`), or the file itself.
fn output_program(path: &Path) -> Result<ValidatorProgram, (PathBuf, String)> {
    fn at(path: &Path) -> impl FnOnce(String) -> (PathBuf, String) + '_ {
        move |why| (path.to_path_buf(), why)
    }
    if path.is_file() {
        return program(path).map_err(at(path));
    }
    let direct = program(path).map_err(at(path));
    if direct.is_ok() {
        return direct;
    }
    let subfolders = folder::list_entries(path)
        .into_iter()
        .filter(|p| p.is_dir())
        .collect::<Vec<_>>();
    match subfolders.as_slice() {
        [one] => program(one).map_err(at(one)),
        [] => direct,
        several => Err((
            path.to_path_buf(),
            format!(
                "expected one validator program, found {} folders: {}",
                several.len(),
                several
                    .iter()
                    .map(|p| folder::file_name(p))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
    }
}

impl Problem {
    /// The custom output validator (or interactor) as a program: the files of its folder,
    /// their language and whether `build`/`run` scripts build it. `None` when the package
    /// has no output validator folder; `Some(Err)` says why its folder is not a program
    /// ([`load`](super::load) reports it as an error for a problem with custom validation).
    pub fn output_validator_program(&self) -> Option<Result<ValidatorProgram, String>> {
        let root = &self.root;
        self.output_validator.as_deref().map(|path| {
            output_program(path).map_err(|(at, why)| {
                format!(
                    "{}: {why}",
                    folder::slash_path(at.strip_prefix(root).unwrap_or(&at))
                )
            })
        })
    }

    /// The input validators, one program per entry of `input_validators/` (a source file
    /// or a folder), each with why it is not a program when it is not.
    pub fn input_validator_programs(&self) -> Vec<(PathBuf, Result<ValidatorProgram, String>)> {
        self.input_validators
            .iter()
            .map(|path| (path.clone(), program(path)))
            .collect()
    }
}

/// Reports each test group's arguments that the default validator rejects.
pub(super) fn check_group_flags(ctx: &mut Ctx, group_args: &[ArgsSource]) {
    for (path, args) in group_args {
        parse_flags(ctx, path, args);
    }
}

/// The default validator's `flags`; `None`, with an error naming `source`, when they do
/// not parse.
fn parse_flags(ctx: &mut Ctx, source: &Path, flags: &[String]) -> Option<DefaultFlags> {
    match default_validator::parse_flags(flags) {
        Ok(parsed) => Some(parsed),
        Err(message) => {
            ctx.error(source, format!("validator flags: {message}"));
            None
        }
    }
}

/// The files under `input_validators/`; a warning when there are none.
/// Also those under `input_format_validators/`, the folder's older name, which
/// problemtools still reads (with a warning naming it).
pub(super) fn input_validators(ctx: &mut Ctx, root: &Path) -> Vec<PathBuf> {
    let dir = root.join("input_validators");
    let mut res = folder::list_entries(&dir);
    let old = root.join("input_format_validators");
    let old_entries = folder::list_entries(&old);
    if !old_entries.is_empty() {
        ctx.warning(
            &old,
            "the folder's old name: its validators are read as input validators \
             (`input_validators/` since the 2023-07 format)",
        );
        res.extend(old_entries);
    }
    if res.is_empty() {
        ctx.warning(&dir, "no input validators: test data is not checked");
    }
    res
}

#[cfg(test)]
mod tests {
    use super::super::fixture::{custom_legacy, errors, good_package, with_problem_yaml, write};
    use crate::load;

    #[test]
    fn input_format_validators_is_read_as_input_validators_with_a_warning() {
        let dir = super::super::fixture::with_problem_yaml("name: Old\n");
        write(
            dir.path(),
            "input_format_validators/validate.py",
            "exit(42)\n",
        );
        let (problem, diagnostics) = load(dir.path()).expect("loads");
        // Beside the fixture's own `input_validators/check.py`.
        assert_eq!(
            problem.input_validators,
            vec![
                dir.path().join("input_validators/check.py"),
                dir.path().join("input_format_validators/validate.py")
            ]
        );
        let text: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        assert!(
            text.iter()
                .any(|d| d.starts_with("warning: input_format_validators: the folder's old name")),
            "{text:?}"
        );
        assert!(
            !text.iter().any(|d| d.contains("no input validators")),
            "{text:?}"
        );
    }

    #[test]
    fn validator_convention_without_custom_validation_is_a_warning() {
        let dir = with_problem_yaml(
            "problem_format_version: 2025-09\nname: Add\nuuid: x\nvalidator_convention: testlib\nlimits:\n  time_limit: 1\n",
        );
        let (_, diagnostics) = load(dir.path()).expect("loads");
        assert_eq!(
            diagnostics
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            vec![
                "warning: problem.yaml: `validator_convention` has no effect without a custom output validator"
            ]
        );
    }

    #[test]
    fn output_validator_source_directly_or_in_one_subfolder() {
        // (files under output_validators/, the source found)
        let table: &[(&[&str], &str)] = &[
            (&["validate.cpp"], "validate.cpp"),
            (
                &["check/validate.cc", "check/README.md", "check/testlib.h"],
                "check/validate.cc",
            ),
            (&["checker.py", ".hidden.cpp", "notes.txt"], "checker.py"),
            (&["Validator.java", "build/"], "Validator.java"),
            (&["sub/check.c"], "sub/check.c"),
        ];
        for (files, expected) in table {
            let dir = custom_legacy("");
            for file in *files {
                if let Some(folder) = file.strip_suffix('/') {
                    std::fs::create_dir_all(dir.path().join("output_validators").join(folder))
                        .expect("mkdir");
                } else {
                    write(dir.path(), &format!("output_validators/{file}"), "");
                }
            }
            let (problem, diagnostics) = load(dir.path()).expect("loads");
            assert_eq!(diagnostics, vec![], "{files:?}");
            assert_eq!(
                problem.output_validator_source(),
                Some(dir.path().join("output_validators").join(expected)),
                "{files:?}"
            );
        }
    }

    #[test]
    fn folders_that_are_not_one_validator_program_are_errors() {
        let table: &[(&[&str], &str)] = &[
            (
                &["README.md"],
                "output_validators: no validator program: no `build` or `run` script and no source (.c, .cc, .cpp, .cxx, .c++, .py, .java) (found: README.md)",
            ),
            (
                &["check/testlib.h"],
                "output_validators/check: no validator program: no `build` or `run` script and no source (.c, .cc, .cpp, .cxx, .c++, .py, .java) (found: testlib.h)",
            ),
            (
                &["a.cpp", "b.py"],
                "output_validators: the validator's language is ambiguous: as many sources in C++ as in Python 3 (found: a.cpp, b.py)",
            ),
            (
                &["one/check.cpp", "two/check.cpp"],
                "output_validators: expected one validator program, found 2 folders: one, two",
            ),
        ];
        for (files, message) in table {
            let dir = custom_legacy("");
            for file in *files {
                write(dir.path(), &format!("output_validators/{file}"), "");
            }
            assert_eq!(
                errors(dir.path()),
                vec![format!("error: {message}")],
                "{files:?}"
            );
        }
        // Without a custom validation, the helper still answers from the folder.
        let dir = good_package();
        assert_eq!(
            load(dir.path()).expect("loads").0.output_validator_source(),
            None
        );
    }

    /// The program of each shape: (files under `output_validators/`, its folder relative
    /// to the package, files, language id, sources, main, build script, run script).
    #[test]
    fn output_validator_programs_of_every_shape() {
        type Row<'a> = (
            &'a [(&'a str, &'a str)],
            &'a str,
            &'a [&'a str],
            Option<&'a str>,
            &'a [&'a str],
            Option<&'a str>,
            bool,
            bool,
        );
        let table: &[Row<'_>] = &[
            // problemtools' shape: a C++ source with its helper header.
            (
                &[("validate.cc", ""), ("validate.h", "")],
                "output_validators",
                &["validate.cc", "validate.h"],
                Some("cpp"),
                &["validate.cc"],
                Some("validate.cc"),
                false,
                false,
            ),
            // A legacy subfolder with testlib, several C++ sources compiled together.
            (
                &[
                    ("check/check.cpp", ""),
                    ("check/util.cpp", ""),
                    ("check/testlib.h", ""),
                    ("check/README.md", ""),
                ],
                "output_validators/check",
                &["README.md", "check.cpp", "testlib.h", "util.cpp"],
                Some("cpp"),
                &["check.cpp", "util.cpp"],
                Some("check.cpp"),
                false,
                false,
            ),
            // More C++ than C sources: C++, the C file copied beside.
            (
                &[("a.cpp", ""), ("b.cc", ""), ("c.c", "")],
                "output_validators",
                &["a.cpp", "b.cc", "c.c"],
                Some("cpp"),
                &["a.cpp", "b.cc"],
                Some("a.cpp"),
                false,
                false,
            ),
            // Python: the module that tests __main__ is run.
            (
                &[
                    ("lib.py", "X = 1\n"),
                    ("validate.py", "if __name__ == '__main__': pass\n"),
                ],
                "output_validators",
                &["lib.py", "validate.py"],
                Some("python3"),
                &["lib.py", "validate.py"],
                Some("validate.py"),
                false,
                false,
            ),
            // Java: the class with main.
            (
                &[
                    ("Util.java", "class Util {}"),
                    (
                        "Check.java",
                        "public class Check { public static void main(String[] a) {} }",
                    ),
                ],
                "output_validators",
                &["Check.java", "Util.java"],
                Some("java"),
                &["Check.java", "Util.java"],
                Some("Check.java"),
                false,
                false,
            ),
            // build and run scripts decide, whatever the sources.
            (
                &[("v/build", ""), ("v/run", ""), ("v/v.rs", "")],
                "output_validators/v",
                &["build", "run", "v.rs"],
                None,
                &[],
                None,
                true,
                true,
            ),
            // A source directly and another program in a subfolder: the direct one.
            (
                &[("check.cpp", ""), ("sub/check.py", "")],
                "output_validators",
                &["check.cpp"],
                Some("cpp"),
                &["check.cpp"],
                Some("check.cpp"),
                false,
                false,
            ),
        ];
        for (files, folder, names, language, sources, main, build, run) in table {
            let dir = custom_legacy("");
            for (file, text) in *files {
                write(dir.path(), &format!("output_validators/{file}"), text);
            }
            let (problem, diagnostics) = load(dir.path()).expect("loads");
            assert_eq!(diagnostics, vec![], "{files:?}");
            let program = problem
                .output_validator_program()
                .expect("has a validator")
                .expect("is a program");
            assert_eq!(program.folder, dir.path().join(folder), "{files:?}");
            assert_eq!(program.files, *names, "{files:?}");
            assert_eq!(program.language.map(|l| l.id()), *language, "{files:?}");
            assert_eq!(program.sources, *sources, "{files:?}");
            assert_eq!(program.main.as_deref(), *main, "{files:?}");
            assert_eq!(
                (program.build_script, program.run_script),
                (*build, *run),
                "{files:?}"
            );
        }
    }

    #[test]
    fn input_validators_are_programs_one_per_entry() {
        let dir = good_package();
        write(dir.path(), "input_validators/folder/v.cc", "");
        write(dir.path(), "input_validators/folder/v.h", "");
        write(dir.path(), "input_validators/notes.txt", "");
        let (problem, _) = load(dir.path()).expect("loads");
        let found = problem
            .input_validator_programs()
            .into_iter()
            .map(|(path, program)| {
                let name = path
                    .strip_prefix(dir.path())
                    .expect("inside")
                    .display()
                    .to_string();
                match program {
                    Ok(program) => format!("{name}: {}", program.describe(dir.path())),
                    Err(why) => format!("{name}: {why}"),
                }
            })
            .collect::<Vec<_>>();
        assert_eq!(
            found,
            vec![
                "input_validators/check.py: input_validators/check.py (Python 3: check.py)",
                "input_validators/folder: input_validators/folder (C++: v.cc)",
                "input_validators/notes.txt: no validator program: no `build` or `run` script and no source (.c, .cc, .cpp, .cxx, .c++, .py, .java) (found: notes.txt)",
            ]
        );
    }
}
