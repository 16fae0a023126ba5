//! Near-duplicates between what training is fed and the held-out problems: the share of
//! a held-out text's word 8-grams (its statement, a reference solution) that occur
//! anywhere in the training data's text.
//!
//! Texts are normalised before they are cut: lower case, every run of letters and digits
//! one word, every other visible character a word of its own, white space dropped; so
//! re-indented or re-cased copies still match.
//!
//! Problems of one family share whole sentences ("The first line contains one integer n
//! ..., the number of values") and solutions share lines (`n = int(input())`): the easy
//! set's held-out `distinct` shares 79% of its statement's 8-grams with the training
//! statements without being a copy of any. So the measure leaves out the [`Template`]: the
//! n-grams that occur in the texts of at least [`COMMON`] different problems of the
//! folder, read from the packages themselves (never from the training data, so a copy
//! cannot hide itself by being fed often). What remains of a held-out text is what makes
//! it that problem; [`THRESHOLD`] is the share of that which may occur in training data.

use std::collections::{HashMap, HashSet};

use super::problems::Problem;

/// The n-gram length, in normalised words.
pub const N: usize = 8;

/// The share of a held-out text's n-grams found in the training data above which it
/// counts as leaked.
pub const THRESHOLD: f64 = 0.5;

/// The normalised words of `text`.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The hashed n-grams of `text` (a text shorter than `N` words is one n-gram).
pub fn shingles(text: &str) -> HashSet<u64> {
    use std::hash::{Hash, Hasher};
    let w = words(text);
    let hash = |s: &[String]| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
    };
    if w.is_empty() {
        return HashSet::new();
    }
    if w.len() < N {
        return HashSet::from([hash(&w)]);
    }
    w.windows(N).map(hash).collect()
}

/// The n-grams of at least this many different problems' texts are template.
pub const COMMON: usize = 3;

/// The n-grams many problems share (see the module doc).
#[derive(Debug, Default)]
pub struct Template {
    grams: HashSet<u64>,
}

impl Template {
    /// The template of `texts`, each `(problem, text)` (a problem may have several).
    pub fn of<'a>(texts: impl IntoIterator<Item = (&'a str, &'a str)>) -> Template {
        let mut owners: HashMap<u64, HashSet<&'a str>> = HashMap::new();
        for (problem, text) in texts {
            for g in shingles(text) {
                owners.entry(g).or_default().insert(problem);
            }
        }
        Template {
            grams: owners
                .into_iter()
                .filter(|(_, p)| p.len() >= COMMON)
                .map(|(g, _)| g)
                .collect(),
        }
    }
}

/// The training data's n-grams, every text together.
#[derive(Debug, Default)]
pub struct Corpus {
    grams: HashSet<u64>,
}

impl Corpus {
    /// Adds a text the training data holds.
    pub fn add(&mut self, text: &str) {
        self.grams.extend(shingles(text));
    }

    /// The share of `text`'s n-grams that occur in the corpus (0 for an empty text).
    pub fn overlap(&self, text: &str) -> f64 {
        self.overlap_beyond(&Template::default(), text)
    }

    /// The share of `text`'s n-grams outside `template` that occur in the corpus (0 when
    /// every n-gram of the text is template).
    pub fn overlap_beyond(&self, template: &Template, text: &str) -> f64 {
        let s: Vec<u64> = shingles(text)
            .into_iter()
            .filter(|g| !template.grams.contains(g))
            .collect();
        if s.is_empty() {
            return 0.0;
        }
        s.iter().filter(|g| self.grams.contains(g)).count() as f64 / s.len() as f64
    }
}

/// The held-out problems' texts a leak would copy: each statement and each accepted
/// reference solution (every language), named `problem statement` or `problem FILE`.
pub fn held_out_texts(held_out: &[Problem]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for p in held_out {
        out.push((format!("{} statement", p.task.id), p.task.statement.clone()));
        if let Some(package) = &p.task.package {
            for s in package
                .submissions
                .iter()
                .filter(|s| s.folder == "accepted")
            {
                if let Ok(text) = std::fs::read_to_string(&s.path) {
                    let file = s
                        .path
                        .file_name()
                        .map_or(String::new(), |f| f.to_string_lossy().into_owned());
                    out.push((format!("{} {file}", p.task.id), text));
                }
            }
        }
    }
    out
}

/// Refuses training data that holds a held-out problem's statement or solution, or a
/// near-duplicate of one (`leak`, beyond the template of `every` problem's texts); says
/// the largest overlap found.
pub fn check(fed: &[String], held_out: &[Problem], every: &[Problem]) -> anyhow::Result<()> {
    let mut corpus = Corpus::default();
    for text in fed {
        corpus.add(text);
    }
    let texts = held_out_texts(every);
    let template = Template::of(
        texts
            .iter()
            .map(|(name, t)| (name.split(' ').next().unwrap_or(""), t.as_str())),
    );
    let mut worst: Option<(String, f64)> = None;
    for (name, text) in held_out_texts(held_out) {
        let o = corpus.overlap_beyond(&template, &text);
        if o > THRESHOLD {
            anyhow::bail!(
                "the training data holds a near-duplicate of held-out {name}: {:.0}% of its own {}-word runs (more than {:.0}%)",
                o * 100.0,
                N,
                THRESHOLD * 100.0
            );
        }
        if worst.as_ref().is_none_or(|(_, w)| o > *w) {
            worst = Some((name, o));
        }
    }
    if let Some((name, o)) = worst {
        eprintln!(
            "leak check: the largest share of a held-out text's own {}-word runs (beyond what {} or more problems share) in the training data is {:.1}% ({name}; refused above {:.0}%)",
            N,
            COMMON,
            o * 100.0,
            THRESHOLD * 100.0
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATEMENT: &str = "You are given a list of integers. Print the largest of them.\n\n\
        ## Input\n\nThe first line has an integer $n$ ($1 \\le n \\le 100$). The second line \
        has $n$ integers separated by spaces.";

    #[test]
    fn a_copy_is_found_whatever_its_case_and_spacing() {
        let mut c = Corpus::default();
        c.add(STATEMENT);
        assert_eq!(c.overlap(STATEMENT), 1.0);
        let shouted = STATEMENT
            .to_uppercase()
            .replace(' ', "  ")
            .replace('\n', " ");
        assert_eq!(c.overlap(&shouted), 1.0);
        // One word changed keeps most 8-grams.
        let renamed = STATEMENT.replace("largest", "smallest");
        assert!(c.overlap(&renamed) > THRESHOLD, "{}", c.overlap(&renamed));
    }

    #[test]
    fn shared_sentences_of_distinct_problems_stay_below_the_threshold() {
        let mut c = Corpus::default();
        c.add(STATEMENT);
        let other = "A word is a maximal run of letters. Count the distinct words of the text \
            and print the count, then each word with its number of occurrences, most frequent \
            first.\n\n## Input\n\nThe first line has an integer $n$ ($1 \\le n \\le 100$).";
        let o = c.overlap(other);
        assert!(o > 0.0 && o < THRESHOLD, "{o}");
        assert_eq!(Corpus::default().overlap(STATEMENT), 0.0);
        assert_eq!(c.overlap(""), 0.0);
    }

    #[test]
    fn the_template_of_many_problems_does_not_count_but_a_copy_still_does() {
        let sentence = "The first line contains one integer n, the number of values. ";
        let texts = [
            ("a", format!("{sentence}Print their sum.")),
            (
                "b",
                format!("{sentence}Print the largest one of the values given."),
            ),
            (
                "c",
                format!("{sentence}Print the smallest one of the values given."),
            ),
            (
                "held",
                format!("{sentence}Count how many different values the list holds, and print it."),
            ),
        ];
        let template = Template::of(texts.iter().map(|(p, t)| (*p, t.as_str())));
        let mut fed = Corpus::default();
        for (_, t) in &texts[..3] {
            fed.add(t);
        }
        let held = texts[3].1.as_str();
        assert!(
            fed.overlap(held) > 0.3,
            "the shared sentence alone: {}",
            fed.overlap(held)
        );
        assert_eq!(fed.overlap_beyond(&template, held), 0.0);
        fed.add(held);
        assert_eq!(fed.overlap_beyond(&template, held), 1.0, "a copy");
    }

    #[test]
    fn words_split_symbols_and_drop_space() {
        assert_eq!(
            words("print(a+b)  # Sum"),
            ["print", "(", "a", "+", "b", ")", "#", "sum"]
        );
    }
}
