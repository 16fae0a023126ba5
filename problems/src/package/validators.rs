//! The validators of a package: the output validator folder and its one source file, the
//! [`Validation`] a problem gets (custom, or the default validator with its flags checked,
//! also those of each test group), and the input validators.

use std::path::{Path, PathBuf};

use super::diagnostics::Ctx;
use super::header::Header;
use super::testdata::ArgsSource;
use super::{Validation, folder};
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

/// Reports a custom validation without an output validator, or whose validator has zero
/// or several sources.
fn check_custom_validator(ctx: &mut Ctx, root: &Path, output_validator: Option<&Path>) {
    let Some(path) = output_validator else {
        ctx.error(
            &root.join("output_validators"),
            "the problem uses a custom validator but has none",
        );
        return;
    };
    let sources = sources(path);
    if sources.len() == 1 {
        return;
    }
    let found = sources
        .iter()
        .map(|p| p.strip_prefix(root).unwrap_or(p).display().to_string())
        .collect::<Vec<_>>();
    ctx.error(
        path,
        format!(
            "expected exactly one validator source (.{}) in the folder or one subfolder, found \
             {}{}",
            VALIDATOR_EXTENSIONS.join(", ."),
            sources.len(),
            if found.is_empty() {
                String::new()
            } else {
                format!(": {}", found.join(", "))
            }
        ),
    );
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
pub(super) fn input_validators(ctx: &mut Ctx, root: &Path) -> Vec<PathBuf> {
    let dir = root.join("input_validators");
    let res = folder::list_entries(&dir);
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
    fn zero_or_several_validator_sources_are_errors() {
        let table: &[(&[&str], &str)] = &[
            (&["README.md"], "found 0"),
            (&["check/testlib.h"], "found 0"),
            (
                &["a.cpp", "b.py"],
                "found 2: output_validators/a.cpp, output_validators/b.py",
            ),
            (
                &["one/check.cpp", "two/check.cpp"],
                "found 2: output_validators/one/check.cpp, output_validators/two/check.cpp",
            ),
            (
                &["check.cpp", "sub/check.py"],
                "found 2: output_validators/check.cpp, output_validators/sub/check.py",
            ),
        ];
        for (files, found) in table {
            let dir = custom_legacy("");
            for file in *files {
                write(dir.path(), &format!("output_validators/{file}"), "");
            }
            assert_eq!(
                errors(dir.path()),
                vec![format!(
                    "error: output_validators: expected exactly one validator source (.c, .cpp, .cc, .py, .java) in the folder or one subfolder, {found}"
                )],
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
}
