//! The YAML files of a package (`problem.yaml`, test group configs, `submissions.yaml`):
//! reading one as a mapping with its problems reported, and values read as words.

use std::path::Path;

use serde_yaml::Value;

use super::diagnostics::Ctx;

/// The mapping at the top of the YAML file `path` (an empty file or `null` is an empty
/// mapping); `None`, with an error naming the file, when it cannot be read, is malformed
/// (with the line and column) or holds something else.
pub(super) fn read(ctx: &mut Ctx, path: &Path) -> Option<Value> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) => {
            ctx.error(path, format!("cannot read: {err}"));
            return None;
        }
    };
    if text.trim().is_empty() {
        return Some(empty_mapping());
    }
    match serde_yaml::from_str::<Value>(&text) {
        Ok(Value::Null) => Some(empty_mapping()),
        Ok(value @ Value::Mapping(_)) => Some(value),
        Ok(_) => {
            ctx.error(path, "expected a YAML mapping at the top level");
            None
        }
        Err(err) => {
            let at = err
                .location()
                .map(|loc| format!(" at line {}, column {}", loc.line(), loc.column()))
                .unwrap_or_default();
            ctx.error(path, format!("malformed YAML{at}: {err}"));
            None
        }
    }
}

/// A mapping without keys, what an empty file means.
pub(super) fn empty_mapping() -> Value {
    Value::Mapping(Default::default())
}

/// A YAML scalar or list as words: `"custom interactive"` and `[custom, interactive]`
/// both give `["custom", "interactive"]`.
pub(super) fn words(value: &Value) -> Vec<String> {
    match value {
        Value::String(s) => s.split_whitespace().map(str::to_owned).collect(),
        Value::Sequence(items) => items
            .iter()
            .flat_map(|it| match it {
                Value::String(s) => vec![s.clone()],
                Value::Number(n) => vec![n.to_string()],
                _ => vec![],
            })
            .collect(),
        Value::Number(n) => vec![n.to_string()],
        _ => Vec::new(),
    }
}

/// A value as a message shows it: a string as it is, anything else as YAML.
pub(super) fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => serde_yaml::to_string(other)
            .map(|s| s.trim().to_owned())
            .unwrap_or_else(|_| format!("{other:?}")),
    }
}

/// The keys of a mapping that are not in `known`, as text (a non-string key as
/// `<non-string key>`); none for anything but a mapping.
pub(super) fn unknown_keys<'a>(value: &'a Value, known: &[&str]) -> Vec<&'a str> {
    let Some(map) = value.as_mapping() else {
        return Vec::new();
    };
    map.keys()
        .map(|key| key.as_str().unwrap_or("<non-string key>"))
        .filter(|key| !known.contains(key))
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::fixture::with_problem_yaml;
    use crate::load;

    #[test]
    fn malformed_yaml_names_line_and_column() {
        let dir = with_problem_yaml("name: [unclosed\nlimits: {\n");
        let Err(crate::Error::Invalid { diagnostics, .. }) = load(dir.path()) else {
            panic!("must fail")
        };
        assert_eq!(diagnostics[0].path, PathBuf::from("problem.yaml"));
        assert!(
            diagnostics[0]
                .message
                .starts_with("malformed YAML at line "),
            "{}",
            diagnostics[0].message
        );
    }
}
