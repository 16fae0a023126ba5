//! Rust source reduced to its code: comments, string literals and character literals
//! become spaces, so that braces and paths can be counted without a parser.
//!
//! Newlines are kept, so a byte offset in the result is on the same line as in the
//! source. The reduction knows line and block comments (nested), plain, byte and raw
//! strings (`r#"…"#`), and character literals as distinct from lifetimes (`'{'` against
//! `'a`). It is enough for the tidy checks, not a tokenizer: macros are code to it.

/// `text` with every comment, string and character literal blanked out.
pub(super) fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut res = String::with_capacity(text.len());
    let mut at = 0;
    while at < bytes.len() {
        let end = literal_or_comment_end(text, at);
        match end {
            Some(end) => {
                blank(&mut res, &text[at..end]);
                at = end;
            }
            None => {
                let ch = text[at..]
                    .chars()
                    .next()
                    .expect("invariant: at is on a char");
                res.push(ch);
                at += ch.len_utf8();
            }
        }
    }
    res
}

/// `text` with every `#[cfg(test)]` module's body blanked out as well (what tests use
/// is not a dependency of the module they test).
pub(super) fn code_without_tests(text: &str) -> String {
    let mut code = code_only(text);
    let mut from = 0;
    while let Some(found) = code[from..].find("#[cfg(test)]") {
        let attribute = from + found;
        let after = attribute + "#[cfg(test)]".len();
        let rest = code[after..].trim_start();
        let is_module = rest.starts_with("mod ") || rest.starts_with("pub mod ");
        let open = code[after..].find('{').map(|at| after + at);
        match (is_module, open) {
            (true, Some(open)) if code[after..open].find(';').is_none() => {
                let close = matching_brace(&code, open).unwrap_or(code.len());
                let body = code[attribute..close].to_owned();
                let mut blanked = String::with_capacity(body.len());
                blank(&mut blanked, &body);
                code.replace_range(attribute..close, &blanked);
                from = close;
            }
            _ => from = after,
        }
    }
    code
}

/// The offset just past the brace that closes the one at `open` in reduced `code`.
pub(super) fn matching_brace(code: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (at, byte) in code.bytes().enumerate().skip(open) {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// Pushes `text` with everything but newlines turned into spaces, one per byte.
fn blank(res: &mut String, text: &str) {
    for byte in text.bytes() {
        res.push(if byte == b'\n' { '\n' } else { ' ' });
    }
}

/// Where the comment or literal starting at `at` ends, when one starts there.
fn literal_or_comment_end(text: &str, at: usize) -> Option<usize> {
    let rest = &text[at..];
    let bytes = rest.as_bytes();
    let after_identifier = text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_');
    if rest.starts_with("//") {
        return Some(at + rest.find('\n').unwrap_or(rest.len()));
    }
    if rest.starts_with("/*") {
        return Some(at + block_comment_len(rest));
    }
    if !after_identifier {
        let raw = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'));
        if let Some(raw) = raw {
            let hashes = raw.len() - raw.trim_start_matches('#').len();
            if raw[hashes..].starts_with('"') {
                let opening = rest.len() - raw.len() + hashes + 1;
                let closing = format!("\"{}", "#".repeat(hashes));
                let len = rest[opening..]
                    .find(&closing)
                    .map_or(rest.len(), |end| opening + end + closing.len());
                return Some(at + len);
            }
        }
        if rest.starts_with("b\"") {
            return Some(at + 1 + quoted_len(&rest[1..], b'"'));
        }
        if rest.starts_with("b'") {
            return Some(at + 1 + quoted_len(&rest[1..], b'\''));
        }
    }
    match bytes.first() {
        Some(b'"') => Some(at + quoted_len(rest, b'"')),
        Some(b'\'') if is_char_literal(rest) => Some(at + quoted_len(rest, b'\'')),
        _ => None,
    }
}

/// The length of a quoted literal at the start of `rest` (quote to quote, escapes
/// skipped), or all of `rest` when it does not close.
fn quoted_len(rest: &str, quote: u8) -> usize {
    let bytes = rest.as_bytes();
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            byte if byte == quote => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// Whether the `'` at the start of `rest` opens a character literal, not a lifetime or
/// a label: an escape, or one character followed by a closing `'`.
fn is_char_literal(rest: &str) -> bool {
    let mut chars = rest.chars().skip(1);
    match chars.next() {
        Some('\\') => true,
        Some(_) => chars.next() == Some('\''),
        None => false,
    }
}

/// The length of the (possibly nested) block comment at the start of `rest`.
fn block_comment_len(rest: &str) -> usize {
    let mut depth = 0usize;
    let mut at = 0;
    while at < rest.len() {
        if rest[at..].starts_with("/*") {
            depth += 1;
            at += 2;
        } else if rest[at..].starts_with("*/") {
            depth -= 1;
            at += 2;
            if depth == 0 {
                return at;
            }
        } else {
            at += rest[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    rest.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_strings_and_chars_are_blanked_and_lines_kept() {
        let text =
            "let a = \"{\\\"}\"; // }\nlet b = '{'; /* { /* } */ } */ let c: &'a str = r#\"}\"#;\n";
        let code = code_only(text);
        assert_eq!(code.len(), text.len());
        assert_eq!(code.lines().count(), text.lines().count());
        assert!(!code.contains('{') && !code.contains('}'), "{code}");
        assert!(code.contains("let c: &'a str ="), "{code}");
    }

    #[test]
    fn a_test_module_is_blanked_but_not_other_code() {
        let text = "use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n}\nfn f() {}\n";
        let code = code_without_tests(text);
        assert!(
            code.contains("crate::a") && !code.contains("crate::b"),
            "{code}"
        );
        assert!(code.contains("fn f() {}"), "{code}");
    }

    #[test]
    fn braces_match_across_nesting() {
        let code = "fn f() { if x { y } }";
        assert_eq!(
            matching_brace(code, code.find('{').unwrap()),
            Some(code.len())
        );
        assert_eq!(matching_brace("{ {", 0), None);
    }
}
