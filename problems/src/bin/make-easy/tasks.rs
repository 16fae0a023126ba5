//! The tasks written out as variants ([`crate::variants`]), with the layouts of each.
//!
//! Grouped by the side of the split they are written for (`split.yaml` records the sides):
//! the tasks of the families' training problems in new layouts and output formats (their
//! first layout is the family's package), new training tasks, new tasks of training
//! families for validation, and new tasks for the held-out set, of training families
//! (in-family) and of families training never sees (bits, geometry, dates). A task's
//! variants all go to one side.

use crate::families::{Family, LOWER, MIXED, Size, sentence, text_len, value, values, word};
use crate::rng::Rng;
use crate::variants::{Layout, Output, Record, Shape, Task, Wording};

pub(crate) use crate::families::{E9, E12, E18};

pub(crate) const PER_LINE: Layout = Layout::Cases(Output::PerLine);
pub(crate) const NUMBERED: Layout = Layout::Cases(Output::Numbered);
pub(crate) const JOINED: Layout = Layout::Cases(Output::Joined);

pub(crate) fn ints(values: &[i64]) -> Record {
    Record::Ints(values.to_vec())
}

pub(crate) fn text(s: &str) -> Record {
    Record::Text(s.to_owned())
}

pub(crate) fn yes(b: bool) -> String {
    if b { "YES" } else { "NO" }.to_owned()
}

/// `n` values for a list: small, anywhere or (at the maximum size) anywhere too.
pub(crate) fn list_values(rng: &mut Rng, size: Size, n: usize, lo: i64, hi: i64) -> Vec<i64> {
    match size {
        Size::Max => (0..n).map(|_| rng.range(lo, hi)).collect(),
        _ => values(rng, size, n, lo, hi),
    }
}

pub(crate) fn any_list(rng: &mut Rng, size: Size, n: usize) -> Record {
    Record::Ints(list_values(rng, size, n, -E9, E9))
}

pub(crate) const LIST: Shape = Shape::List {
    min_n: 1,
    lo: -E9,
    hi: E9,
};

pub(crate) const AB: &[(&str, i64, i64)] = &[("a", -E9, E9), ("b", -E9, E9)];
pub(crate) const ABC: &[(&str, i64, i64)] = &[("a", -E9, E9), ("b", -E9, E9), ("c", -E9, E9)];
pub(crate) const WORD: Shape = Shape::Text {
    pattern: "[a-z]+",
    max: 1000,
    what: "a word $s$ of lowercase English letters ($1 \\le |s| \\le 1000$)",
};
pub(crate) const SENTENCE: Shape = Shape::Text {
    pattern: "[a-z]+( [a-z]+)*",
    max: 1000,
    what: "a line $s$ of lowercase English letters and spaces ($1 \\le |s| \\le 1000$): words separated by single spaces, with no space at the start or the end",
};

pub(crate) fn random_word(rng: &mut Rng, size: Size, _: usize) -> Record {
    let len = text_len(rng, size);
    Record::Text(word(rng, len, LOWER))
}

pub(crate) fn random_sentence(rng: &mut Rng, size: Size, _: usize) -> Record {
    Record::Text(sentence(rng, size))
}

/// Every task of this file with its layouts: training, validation, held out (the second
/// batches of validation and held-out tasks are `crate::validation_tasks` and
/// `crate::held_out_tasks`).
pub(crate) fn all() -> Vec<(Task, Vec<Layout>)> {
    let mut all = Vec::new();
    for task in training() {
        let layouts = [
            Layout::Lines,
            Layout::Bare,
            Layout::Inline,
            Layout::Column,
            PER_LINE,
            NUMBERED,
            JOINED,
            Layout::Eof,
        ]
        .into_iter()
        .filter(|l| l.fits(&task))
        .collect();
        all.push((task, layouts));
    }
    all.extend(new_training());
    all.extend(validation());
    all.extend(held_out());
    all
}

/// The family problems' tasks (their first layout is the family's package). It is long
/// because it is a table of data: each task's shape, solver, generator and code.
fn training() -> Vec<Task> {
    vec![
        Task {
            id: "aplusb",
            title: "Add Two Numbers",
            family: Family::Arithmetic,
            legend: "You are given two integers $a$ and $b$. Find their sum.",
            shape: Shape::Ints(AB),
            answer: "the sum $a + b$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 2, -E9, E9)),
            solve: |r| (r.ints()[0] + r.ints()[1]).to_string(),
            samples: || [ints(&[3, 4]), ints(&[-5, 12])],
            edges: || vec![ints(&[E9, E9]), ints(&[-E9, -E9]), ints(&[0, 0])],
            case_sensitive: false,
            py: "def solve(a, b):\n    return a + b\n",
            cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a + b);\n}\n",
            wrong: vec![(
                "concatenates.py",
                "# Adds the numbers as text: 3 and 4 give 34.\ndef solve(a, b):\n    return str(a) + str(b)\n",
            )],
        },
        Task {
            id: "aminusb",
            title: "Difference",
            family: Family::Arithmetic,
            legend: "You are given two integers $a$ and $b$. Subtract $b$ from $a$.",
            shape: Shape::Ints(AB),
            answer: "the difference $a - b$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 2, -E9, E9)),
            solve: |r| (r.ints()[0] - r.ints()[1]).to_string(),
            samples: || [ints(&[10, 3]), ints(&[-2, 7])],
            edges: || vec![ints(&[E9, -E9]), ints(&[-E9, E9]), ints(&[5, 5])],
            case_sensitive: false,
            py: "def solve(a, b):\n    return a - b\n",
            cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a - b);\n}\n",
            wrong: vec![(
                "reversed.py",
                "# Subtracts the wrong way round: b - a.\ndef solve(a, b):\n    return b - a\n",
            )],
        },
        Task {
            id: "atimesb",
            title: "Product",
            family: Family::Arithmetic,
            legend: "You are given two integers $a$ and $b$. Multiply them. Note that the product may not fit in a 32-bit integer.",
            shape: Shape::Ints(AB),
            answer: "the product $a \\cdot b$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 2, -E9, E9)),
            solve: |r| (r.ints()[0] * r.ints()[1]).to_string(),
            samples: || [ints(&[6, 7]), ints(&[-3, 5])],
            edges: || vec![ints(&[E9, E9]), ints(&[-E9, E9]), ints(&[0, -7])],
            case_sensitive: false,
            py: "def solve(a, b):\n    return a * b\n",
            cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a * b);\n}\n",
            wrong: vec![(
                "int_overflow.cpp",
                "// Multiplies in 32 bits: the product overflows.\nstd::string solve(long long a, long long b) {\n    int product = (int)((unsigned)a * (unsigned)b);\n    return std::to_string(product);\n}\n",
            )],
        },
        Task {
            id: "divmod",
            title: "Quotient and Remainder",
            family: Family::Arithmetic,
            legend: "You are given two positive integers $a$ and $b$. Divide $a$ by $b$: find the quotient rounded down and the remainder.",
            shape: Shape::Ints(&[("a", 1, E9), ("b", 1, E9)]),
            answer: "two integers separated by a space: the largest integer $q$ with $q \\cdot b \\le a$, and $a - q \\cdot b$",
            token: false,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 2, 1, E9)),
            solve: |r| {
                format!(
                    "{} {}",
                    r.ints()[0] / r.ints()[1],
                    r.ints()[0] % r.ints()[1]
                )
            },
            samples: || [ints(&[17, 5]), ints(&[20, 4])],
            edges: || vec![ints(&[1, E9]), ints(&[E9, 1]), ints(&[E9 - 1, E9])],
            case_sensitive: false,
            py: "def solve(a, b):\n    return f\"{a // b} {a % b}\"\n",
            cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a / b) + \" \" + std::to_string(a % b);\n}\n",
            wrong: vec![(
                "rounds_up.py",
                "# Rounds the quotient up instead of down.\ndef solve(a, b):\n    q = (a + b - 1) // b\n    return f\"{q} {a - q * b}\"\n",
            )],
        },
        Task {
            id: "rectangle",
            title: "Fence and Field",
            family: Family::Arithmetic,
            legend: "A rectangular field is $w$ metres wide and $h$ metres long. Find the length of a fence around it and its area.",
            shape: Shape::Ints(&[("w", 1, E9), ("h", 1, E9)]),
            answer: "two integers separated by a space: the perimeter $2(w + h)$ and the area $w \\cdot h$",
            token: false,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 2, 1, E9)),
            solve: |r| {
                let (w, h) = (r.ints()[0], r.ints()[1]);
                format!("{} {}", 2 * (w + h), w * h)
            },
            samples: || [ints(&[3, 4]), ints(&[10, 1])],
            edges: || vec![ints(&[1, 1]), ints(&[E9, E9]), ints(&[1, E9])],
            case_sensitive: false,
            py: "def solve(w, h):\n    return f\"{2 * (w + h)} {w * h}\"\n",
            cpp: "std::string solve(long long w, long long h) {\n    return std::to_string(2 * (w + h)) + \" \" + std::to_string(w * h);\n}\n",
            wrong: vec![(
                "int_overflow.cpp",
                "// The area in a 32-bit int.\nstd::string solve(long long w, long long h) {\n    int area = (int)((unsigned)w * (unsigned)h);\n    return std::to_string(2 * (w + h)) + \" \" + std::to_string(area);\n}\n",
            )],
        },
        Task {
            id: "sumthree",
            title: "Three Coins",
            family: Family::Arithmetic,
            legend: "You are given three integers $a$, $b$ and $c$. Add them up.",
            shape: Shape::Ints(ABC),
            answer: "the sum $a + b + c$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 3, -E9, E9)),
            solve: |r| r.ints().iter().sum::<i64>().to_string(),
            samples: || [ints(&[1, 2, 3]), ints(&[-4, 10, -1])],
            edges: || {
                vec![
                    ints(&[E9, E9, E9]),
                    ints(&[-E9, -E9, -E9]),
                    ints(&[0, 0, 0]),
                ]
            },
            case_sensitive: false,
            py: "def solve(a, b, c):\n    return a + b + c\n",
            cpp: "std::string solve(long long a, long long b, long long c) {\n    return std::to_string(a + b + c);\n}\n",
            wrong: vec![(
                "int_overflow.cpp",
                "// The sum in a 32-bit int.\nstd::string solve(long long a, long long b, long long c) {\n    int sum = (int)((unsigned)a + (unsigned)b + (unsigned)c);\n    return std::to_string(sum);\n}\n",
            )],
        },
        Task {
            id: "maxofthree",
            title: "Largest of Three",
            family: Family::Conditions,
            legend: "You are given three integers. Find the largest of them.",
            shape: Shape::Ints(ABC),
            answer: "the largest of $a$, $b$ and $c$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 3, -E9, E9)),
            solve: |r| r.ints().iter().max().expect("three").to_string(),
            samples: || [ints(&[3, 9, 2]), ints(&[-1, -5, -3])],
            edges: || vec![ints(&[1, 2, 3]), ints(&[-E9, -E9, -E9]), ints(&[7, 7, 1])],
            case_sensitive: false,
            py: "def solve(a, b, c):\n    return max(a, b, c)\n",
            cpp: "std::string solve(long long a, long long b, long long c) {\n    return std::to_string(std::max(a, std::max(b, c)));\n}\n",
            wrong: vec![(
                "forgets_c.py",
                "# Compares a and b only.\ndef solve(a, b, c):\n    return max(a, b)\n",
            )],
        },
        Task {
            id: "triangle",
            title: "Three Sticks",
            family: Family::Conditions,
            legend: "You have three sticks of lengths $a$, $b$ and $c$. Decide whether they form a triangle of positive area: each length must be smaller than the sum of the other two.",
            shape: Shape::Ints(&[("a", 1, E9), ("b", 1, E9), ("c", 1, E9)]),
            answer: "`YES` if the sticks form a triangle of positive area and `NO` otherwise",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&values(rng, size, 3, 1, E9)),
            solve: |r| {
                let v = r.ints();
                yes(v[0] < v[1] + v[2] && v[1] < v[0] + v[2] && v[2] < v[0] + v[1])
            },
            samples: || [ints(&[3, 4, 5]), ints(&[1, 2, 3])],
            edges: || {
                vec![
                    ints(&[E9, E9, E9]),
                    ints(&[1, 1, 1]),
                    ints(&[2, 2, 4]),
                    ints(&[E9, 1, E9]),
                ]
            },
            case_sensitive: false,
            py: "def solve(a, b, c):\n    return \"YES\" if a < b + c and b < a + c and c < a + b else \"NO\"\n",
            cpp: "std::string solve(long long a, long long b, long long c) {\n    return a < b + c && b < a + c && c < a + b ? \"YES\" : \"NO\";\n}\n",
            wrong: vec![(
                "flat_counts.cpp",
                "// Uses <= where < is meant: a flat triangle counts.\nstd::string solve(long long a, long long b, long long c) {\n    return a <= b + c && b <= a + c && c <= a + b ? \"YES\" : \"NO\";\n}\n",
            )],
        },
        Task {
            id: "sumton",
            title: "Staircase",
            family: Family::Loops,
            legend: "Find the sum of all integers from 1 to $n$.",
            shape: Shape::Ints(&[("n", 1, E9)]),
            answer: "the sum $1 + 2 + \\cdots + n$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&[value(rng, size, 1, E9)]),
            solve: |r| (r.ints()[0] * (r.ints()[0] + 1) / 2).to_string(),
            samples: || [ints(&[4]), ints(&[100])],
            edges: || vec![ints(&[1]), ints(&[E9]), ints(&[65536])],
            case_sensitive: false,
            py: "def solve(n):\n    return n * (n + 1) // 2\n",
            cpp: "std::string solve(long long n) {\n    return std::to_string(n * (n + 1) / 2);\n}\n",
            wrong: vec![(
                "int_overflow.cpp",
                "// Multiplies in 32 bits before halving.\nstd::string solve(long long n) {\n    int product = (int)((unsigned)n * (unsigned)(n + 1));\n    return std::to_string(product / 2);\n}\n",
            )],
        },
        Task {
            id: "fizzbuzzcount",
            title: "Fizz or Buzz",
            family: Family::Loops,
            legend: "Count the integers from 1 to $n$ that are divisible by 3 or by 5 (or both).",
            shape: Shape::Ints(&[("n", 1, E12)]),
            answer: "how many of $1, 2, \\ldots, n$ are divisible by 3 or 5",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&[value(rng, size, 1, E12)]),
            solve: |r| {
                let n = r.ints()[0];
                (n / 3 + n / 5 - n / 15).to_string()
            },
            samples: || [ints(&[15]), ints(&[4])],
            edges: || vec![ints(&[1]), ints(&[E12]), ints(&[30])],
            case_sensitive: false,
            py: "def solve(n):\n    return n // 3 + n // 5 - n // 15\n",
            cpp: "std::string solve(long long n) {\n    return std::to_string(n / 3 + n / 5 - n / 15);\n}\n",
            wrong: vec![(
                "counts_both_twice.py",
                "# Counts the multiples of 15 twice.\ndef solve(n):\n    return n // 3 + n // 5\n",
            )],
        },
        Task {
            id: "sumsquares",
            title: "Square Pile",
            family: Family::Loops,
            legend: "Find the sum of the squares of the integers from 1 to $n$.",
            shape: Shape::Ints(&[("n", 1, 1_000_000)]),
            answer: "the sum $1^2 + 2^2 + \\cdots + n^2$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&[value(rng, size, 1, 1_000_000)]),
            solve: |r| {
                let n = r.ints()[0];
                (n * (n + 1) * (2 * n + 1) / 6).to_string()
            },
            samples: || [ints(&[3]), ints(&[10])],
            edges: || vec![ints(&[1]), ints(&[1_000_000]), ints(&[2000])],
            case_sensitive: false,
            py: "def solve(n):\n    return n * (n + 1) * (2 * n + 1) // 6\n",
            cpp: "std::string solve(long long n) {\n    return std::to_string(n * (n + 1) * (2 * n + 1) / 6);\n}\n",
            wrong: vec![(
                "int_overflow.cpp",
                "// Adds the squares in a 32-bit int.\nstd::string solve(long long n) {\n    int total = 0;\n    for (int i = 1; i <= n; i++) total = (int)((unsigned)total + (unsigned)i * (unsigned)i);\n    return std::to_string(total);\n}\n",
            )],
        },
        Task {
            id: "leapyear",
            title: "Leap Year",
            family: Family::Conditions,
            legend: "In the Gregorian calendar a year is a leap year when it is divisible by 4, except that a year divisible by 100 is a leap year only when it is also divisible by 400. Decide whether year $y$ is a leap year.",
            shape: Shape::Ints(&[("y", 1, E9)]),
            answer: "`YES` if $y$ is a leap year and `NO` otherwise",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&[value(rng, size, 1, E9) / 4 * 4 + rng.range(0, 1)]),
            solve: |r| {
                let y = r.ints()[0];
                yes(y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
            },
            samples: || [ints(&[2024]), ints(&[1900])],
            edges: || vec![ints(&[2000]), ints(&[2100]), ints(&[1]), ints(&[4])],
            case_sensitive: false,
            py: "def solve(y):\n    return \"YES\" if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else \"NO\"\n",
            cpp: "std::string solve(long long y) {\n    return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) ? \"YES\" : \"NO\";\n}\n",
            wrong: vec![(
                "every_fourth.py",
                "# Forgets the rule for centuries.\ndef solve(y):\n    return \"YES\" if y % 4 == 0 else \"NO\"\n",
            )],
        },
        Task {
            id: "sign",
            title: "Plus or Minus",
            family: Family::Conditions,
            legend: "You are given an integer $n$. Say whether it is positive, negative or zero.",
            shape: Shape::Ints(&[("n", -E18, E18)]),
            answer: "`positive` if $n > 0$, `negative` if $n < 0$ and `zero` if $n = 0$",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&[value(rng, size, -E18, E18)]),
            solve: |r| {
                let n = r.ints()[0];
                if n > 0 {
                    "positive"
                } else if n < 0 {
                    "negative"
                } else {
                    "zero"
                }
                .to_owned()
            },
            samples: || [ints(&[5]), ints(&[-3])],
            edges: || vec![ints(&[0]), ints(&[E18]), ints(&[-E18])],
            case_sensitive: false,
            py: "def solve(n):\n    return \"positive\" if n > 0 else \"negative\" if n < 0 else \"zero\"\n",
            cpp: "std::string solve(long long n) {\n    return n > 0 ? \"positive\" : n < 0 ? \"negative\" : \"zero\";\n}\n",
            wrong: vec![(
                "forgets_zero.py",
                "# Calls zero positive.\ndef solve(n):\n    return \"positive\" if n >= 0 else \"negative\"\n",
            )],
        },
        Task {
            id: "evenodd",
            title: "Even or Odd",
            family: Family::Conditions,
            legend: "You are given an integer $n$. Say whether it is even or odd.",
            shape: Shape::Ints(&[("n", -E18, E18)]),
            answer: "`even` if $n$ is divisible by 2 and `odd` otherwise",
            token: true,
            rule: "",
            random: |rng, size, _| ints(&[value(rng, size, -E18, E18)]),
            solve: |r| if r.ints()[0] % 2 == 0 { "even" } else { "odd" }.to_owned(),
            samples: || [ints(&[4]), ints(&[7])],
            edges: || vec![ints(&[0]), ints(&[-7]), ints(&[-E18]), ints(&[E18 - 1])],
            case_sensitive: false,
            py: "def solve(n):\n    return \"even\" if n % 2 == 0 else \"odd\"\n",
            cpp: "std::string solve(long long n) {\n    return n % 2 == 0 ? \"even\" : \"odd\";\n}\n",
            wrong: vec![(
                "negative_odd.cpp",
                "// Tests n % 2 == 1, which is -1 for negative odd numbers in C++.\nstd::string solve(long long n) {\n    return n % 2 == 1 ? \"odd\" : \"even\";\n}\n",
            )],
        },
        Task {
            id: "grade",
            title: "Report Card",
            family: Family::Conditions,
            legend: "A test is marked out of 100. A score of 90 or more gets grade `A`, 80 to 89 gets `B`, 70 to 79 gets `C`, 60 to 69 gets `D`, and less than 60 gets `F`. Find the grade of a score $s$.",
            shape: Shape::Ints(&[("s", 0, 100)]),
            answer: "the grade of $s$, one letter",
            token: true,
            rule: "",
            random: |rng, _, _| ints(&[rng.range(0, 100)]),
            solve: |r| {
                let s = r.ints()[0];
                match s {
                    90.. => "A",
                    80..=89 => "B",
                    70..=79 => "C",
                    60..=69 => "D",
                    _ => "F",
                }
                .to_owned()
            },
            samples: || [ints(&[95]), ints(&[42])],
            edges: || {
                vec![
                    ints(&[90]),
                    ints(&[80]),
                    ints(&[60]),
                    ints(&[0]),
                    ints(&[100]),
                ]
            },
            case_sensitive: false,
            py: "def solve(s):\n    if s >= 90:\n        return \"A\"\n    if s >= 80:\n        return \"B\"\n    if s >= 70:\n        return \"C\"\n    if s >= 60:\n        return \"D\"\n    return \"F\"\n",
            cpp: "std::string solve(long long s) {\n    if (s >= 90) return \"A\";\n    if (s >= 80) return \"B\";\n    if (s >= 70) return \"C\";\n    if (s >= 60) return \"D\";\n    return \"F\";\n}\n",
            wrong: vec![(
                "strict.py",
                "# Uses > where the boundaries need >=.\ndef solve(s):\n    if s > 90:\n        return \"A\"\n    if s > 80:\n        return \"B\"\n    if s > 70:\n        return \"C\"\n    if s > 60:\n        return \"D\"\n    return \"F\"\n",
            )],
        },
        Task {
            id: "listsum",
            title: "Total",
            family: Family::Lists,
            legend: "You are given a list of integers. Find their sum.",
            shape: LIST,
            answer: "the sum $a_1 + a_2 + \\cdots + a_n$",
            token: true,
            rule: "",
            random: any_list,
            solve: |r| r.ints().iter().sum::<i64>().to_string(),
            samples: || [ints(&[1, 2, 3]), ints(&[-5, 5])],
            edges: || vec![ints(&[-E9]), ints(&[E9; 3]), ints(&[E9; 100])],
            case_sensitive: false,
            py: "def solve(a):\n    return sum(a)\n",
            cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (long long x : a) total += x;\n    return std::to_string(total);\n}\n",
            wrong: vec![(
                "int_overflow.cpp",
                "// Sums in a 32-bit int.\nstd::string solve(const std::vector<long long> &a) {\n    int total = 0;\n    for (long long x : a) total = (int)((unsigned)total + (unsigned)x);\n    return std::to_string(total);\n}\n",
            )],
        },
        Task {
            id: "listmax",
            title: "Tallest",
            family: Family::Lists,
            legend: "You are given a list of integers. Find the largest of them.",
            shape: LIST,
            answer: "the largest $a_i$",
            token: true,
            rule: "",
            random: any_list,
            solve: |r| r.ints().iter().max().expect("n >= 1").to_string(),
            samples: || [ints(&[3, 9, 2, 7]), ints(&[5])],
            edges: || vec![ints(&[-5, -2, -9]), ints(&[-E9]), ints(&[7, 7])],
            case_sensitive: false,
            py: "def solve(a):\n    return max(a)\n",
            cpp: "std::string solve(const std::vector<long long> &a) {\n    return std::to_string(*std::max_element(a.begin(), a.end()));\n}\n",
            wrong: vec![(
                "starts_at_zero.cpp",
                "// Starts the maximum at 0: wrong when every value is negative.\nstd::string solve(const std::vector<long long> &a) {\n    long long best = 0;\n    for (long long x : a) if (x > best) best = x;\n    return std::to_string(best);\n}\n",
            )],
        },
        Task {
            id: "listmin",
            title: "Smallest",
            family: Family::Lists,
            legend: "You are given a list of integers. Find the smallest of them.",
            shape: LIST,
            answer: "the smallest $a_i$",
            token: true,
            rule: "",
            random: any_list,
            solve: |r| r.ints().iter().min().expect("n >= 1").to_string(),
            samples: || [ints(&[3, 9, 2, 7]), ints(&[-1, -8])],
            edges: || vec![ints(&[5, 2, 9]), ints(&[E9]), ints(&[7, 7])],
            case_sensitive: false,
            py: "def solve(a):\n    return min(a)\n",
            cpp: "std::string solve(const std::vector<long long> &a) {\n    return std::to_string(*std::min_element(a.begin(), a.end()));\n}\n",
            wrong: vec![(
                "starts_at_zero.py",
                "# Starts the minimum at 0: wrong when every value is positive.\ndef solve(a):\n    best = 0\n    for x in a:\n        if x < best:\n            best = x\n    return best\n",
            )],
        },
        Task {
            id: "sortlist",
            title: "In Order",
            family: Family::Lists,
            legend: "You are given a list of integers. Sort it.",
            shape: LIST,
            answer: "the $n$ values in non-decreasing order, separated by spaces",
            token: false,
            rule: "",
            random: any_list,
            solve: |r| {
                let mut v = r.ints().to_vec();
                v.sort();
                v.iter().map(i64::to_string).collect::<Vec<_>>().join(" ")
            },
            samples: || [ints(&[3, 9, 2, 7]), ints(&[-1, 10, -8])],
            edges: || vec![ints(&[0]), ints(&[5, 4, 3, 2, 1]), ints(&[100, 9, 20, 3])],
            case_sensitive: false,
            py: "def solve(a):\n    return \" \".join(map(str, sorted(a)))\n",
            cpp: "std::string solve(std::vector<long long> a) {\n    std::sort(a.begin(), a.end());\n    std::string out;\n    for (size_t i = 0; i < a.size(); i++) out += (i ? \" \" : \"\") + std::to_string(a[i]);\n    return out;\n}\n",
            wrong: vec![(
                "sorts_text.py",
                "# Sorts the numbers as text: \"10\" comes before \"9\".\ndef solve(a):\n    return \" \".join(sorted(map(str, a)))\n",
            )],
        },
        Task {
            id: "counteven",
            title: "Even Ones",
            family: Family::Lists,
            legend: "You are given a list of integers. Count how many of them are even.",
            shape: LIST,
            answer: "how many $a_i$ are divisible by 2",
            token: true,
            rule: "",
            random: any_list,
            solve: |r| r.ints().iter().filter(|x| *x % 2 == 0).count().to_string(),
            samples: || [ints(&[1, 2, 3, 4, 6]), ints(&[7, 9, 11])],
            edges: || vec![ints(&[-3, -5, -7]), ints(&[0]), ints(&[-2, -1, 1, 2])],
            case_sensitive: false,
            py: "def solve(a):\n    return sum(1 for x in a if x % 2 == 0)\n",
            cpp: "std::string solve(const std::vector<long long> &a) {\n    int count = 0;\n    for (long long x : a) if (x % 2 == 0) count++;\n    return std::to_string(count);\n}\n",
            wrong: vec![(
                "negative_odd.cpp",
                "// Counts the odd ones with x % 2 == 1, which is -1 for negative odd numbers in C++.\nstd::string solve(const std::vector<long long> &a) {\n    int odd = 0;\n    for (long long x : a) if (x % 2 == 1) odd++;\n    return std::to_string((int)a.size() - odd);\n}\n",
            )],
        },
        Task {
            id: "secondlargest",
            title: "Runner-up",
            family: Family::Lists,
            legend: "You are given a list of integers with at least two different values. Find the second largest value: the largest value that is smaller than the maximum. Not every value is the same.",
            shape: Shape::List {
                min_n: 2,
                lo: -E9,
                hi: E9,
            },
            answer: "the largest $a_i$ smaller than the maximum",
            token: true,
            rule: "len(set(v)) >= 2",
            random: |rng, size, n| {
                let mut vs = list_values(rng, size, n, -E9, E9);
                let top = *vs.iter().max().expect("n >= 2");
                let at = rng.range(0, n as i64 - 1) as usize;
                vs[at] = top;
                if vs.iter().all(|v| *v == top) {
                    vs[0] = top - 1;
                }
                Record::Ints(vs)
            },
            solve: |r| {
                let v = r.ints();
                let top = *v.iter().max().expect("n >= 2");
                v.iter()
                    .filter(|x| **x < top)
                    .max()
                    .expect("two values")
                    .to_string()
            },
            samples: || [ints(&[3, 9, 2, 7]), ints(&[5, 5, 1])],
            edges: || {
                vec![
                    ints(&[-E9, E9]),
                    ints(&[8, 8, 8, 8, 7]),
                    ints(&[-3, -1, -1]),
                ]
            },
            case_sensitive: false,
            py: "def solve(a):\n    top = max(a)\n    return max(x for x in a if x < top)\n",
            cpp: "std::string solve(const std::vector<long long> &a) {\n    long long top = *std::max_element(a.begin(), a.end());\n    bool found = false;\n    long long second = 0;\n    for (long long x : a)\n        if (x < top && (!found || x > second)) second = x, found = true;\n    return std::to_string(second);\n}\n",
            wrong: vec![(
                "sorted_index.py",
                "# Sorts and takes the second to last value: wrong when the maximum repeats.\ndef solve(a):\n    return sorted(a)[-2]\n",
            )],
        },
        Task {
            id: "listrange",
            title: "Spread",
            family: Family::Lists,
            legend: "You are given a list of integers. Find the difference between the largest and the smallest of them.",
            shape: LIST,
            answer: "$\\max_i a_i - \\min_i a_i$",
            token: true,
            rule: "",
            random: any_list,
            solve: |r| {
                let v = r.ints();
                (v.iter().max().expect("n") - v.iter().min().expect("n")).to_string()
            },
            samples: || [ints(&[3, 9, 2, 7]), ints(&[5])],
            edges: || vec![ints(&[-E9, E9]), ints(&[4, 4, 4]), ints(&[5, 9])],
            case_sensitive: false,
            py: "def solve(a):\n    return max(a) - min(a)\n",
            cpp: "std::string solve(const std::vector<long long> &a) {\n    auto [lo, hi] = std::minmax_element(a.begin(), a.end());\n    return std::to_string(*hi - *lo);\n}\n",
            wrong: vec![(
                "starts_at_zero.cpp",
                "// Starts both the minimum and the maximum at 0: wrong unless the values straddle 0.\nstd::string solve(const std::vector<long long> &a) {\n    long long lo = 0, hi = 0;\n    for (long long x : a) {\n        if (x < lo) lo = x;\n        if (x > hi) hi = x;\n    }\n    return std::to_string(hi - lo);\n}\n",
            )],
        },
        Task {
            id: "reverselist",
            title: "Last to First",
            family: Family::Lists,
            legend: "You are given a list of integers. Reverse it.",
            shape: LIST,
            answer: "$a_n, a_{n-1}, \\ldots, a_1$, separated by spaces",
            token: false,
            rule: "",
            random: any_list,
            solve: |r| {
                let words: Vec<String> = r.ints().iter().rev().map(i64::to_string).collect();
                words.join(" ")
            },
            samples: || [ints(&[3, 9, 2, 7]), ints(&[-1, 1])],
            edges: || vec![ints(&[42]), ints(&[1, 2, 3])],
            case_sensitive: false,
            py: "def solve(a):\n    return \" \".join(map(str, reversed(a)))\n",
            cpp: "std::string solve(const std::vector<long long> &a) {\n    std::string out;\n    for (size_t i = a.size(); i-- > 0;) out += std::to_string(a[i]) + (i ? \" \" : \"\");\n    return out;\n}\n",
            wrong: vec![(
                "off_by_one.py",
                "# Stops one early: the first value is never printed.\ndef solve(a):\n    return \" \".join(str(a[i]) for i in range(len(a) - 1, 0, -1))\n",
            )],
        },
        Task {
            id: "reverse",
            title: "Backwards",
            family: Family::Strings,
            legend: "You are given a word. Write it backwards.",
            shape: WORD,
            answer: "the letters of $s$ in reverse order",
            token: true,
            rule: "",
            random: random_word,
            solve: |r| r.text().chars().rev().collect(),
            samples: || [text("hello"), text("abc")],
            edges: || vec![text("a"), text("ab"), text("racecar")],
            case_sensitive: false,
            py: "def solve(s):\n    return s[::-1]\n",
            cpp: "std::string solve(std::string s) {\n    std::reverse(s.begin(), s.end());\n    return s;\n}\n",
            wrong: vec![(
                "off_by_one.cpp",
                "// Stops one early: the first letter is never written.\nstd::string solve(const std::string &s) {\n    std::string out;\n    for (size_t i = s.size() - 1; i > 0; i--) out += s[i];\n    return out;\n}\n",
            )],
        },
        Task {
            id: "countvowels",
            title: "Vowel Count",
            family: Family::Strings,
            legend: "You are given a word. Count its vowels: the letters `a`, `e`, `i`, `o` and `u`.",
            shape: WORD,
            answer: "how many letters of $s$ are vowels",
            token: true,
            rule: "",
            random: random_word,
            solve: |r| {
                r.text()
                    .chars()
                    .filter(|c| "aeiou".contains(*c))
                    .count()
                    .to_string()
            },
            samples: || [text("hello"), text("rhythm")],
            edges: || vec![text("u"), text("aeiou"), text("b"), text("queue")],
            case_sensitive: false,
            py: "def solve(s):\n    return sum(1 for c in s if c in \"aeiou\")\n",
            cpp: "std::string solve(const std::string &s) {\n    int count = 0;\n    for (char c : s) if (std::string(\"aeiou\").find(c) != std::string::npos) count++;\n    return std::to_string(count);\n}\n",
            wrong: vec![(
                "forgets_u.py",
                "# Forgets the vowel u.\ndef solve(s):\n    return sum(1 for c in s if c in \"aeio\")\n",
            )],
        },
        Task {
            id: "palindrome",
            title: "Mirror Word",
            family: Family::Strings,
            legend: "A word is a palindrome when it reads the same forwards and backwards. Decide whether the given word is one.",
            shape: WORD,
            answer: "`YES` if $s$ is a palindrome and `NO` otherwise",
            token: true,
            rule: "",
            random: |rng, size, _| {
                let len = text_len(rng, size).div_ceil(2);
                let half = word(rng, len, b"ab");
                let mut s: String = half.clone();
                s.extend(half.chars().rev().skip(rng.range(0, 1) as usize));
                if rng.range(0, 2) == 0 {
                    let at = rng.range(0, s.len() as i64 - 1) as usize;
                    s.replace_range(at..=at, "c");
                }
                Record::Text(s)
            },
            solve: |r| yes(r.text().chars().eq(r.text().chars().rev())),
            samples: || [text("racecar"), text("hello")],
            edges: || vec![text("a"), text("ab"), text("abca"), text("abba")],
            case_sensitive: false,
            py: "def solve(s):\n    return \"YES\" if s == s[::-1] else \"NO\"\n",
            cpp: "std::string solve(const std::string &s) {\n    return std::string(s.rbegin(), s.rend()) == s ? \"YES\" : \"NO\";\n}\n",
            wrong: vec![(
                "ends_only.py",
                "# Compares the first and the last letter only.\ndef solve(s):\n    return \"YES\" if s[0] == s[-1] else \"NO\"\n",
            )],
        },
        Task {
            id: "swapcase",
            title: "Case Swap",
            family: Family::Strings,
            legend: "You are given a word of English letters. Change every lower-case letter to upper case and every upper-case letter to lower case.",
            shape: Shape::Text {
                pattern: "[a-zA-Z]+",
                max: 1000,
                what: "a word $s$ of English letters, lower and upper case ($1 \\le |s| \\le 1000$)",
            },
            answer: "$s$ with the case of every letter swapped",
            token: true,
            rule: "",
            random: |rng, size, _| {
                let len = text_len(rng, size);
                Record::Text(word(rng, len, MIXED))
            },
            solve: |r| {
                r.text()
                    .chars()
                    .map(|c| {
                        if c.is_ascii_lowercase() {
                            c.to_ascii_uppercase()
                        } else {
                            c.to_ascii_lowercase()
                        }
                    })
                    .collect()
            },
            samples: || [text("Hello"), text("aBc")],
            edges: || vec![text("a"), text("Z"), text("ABC")],
            case_sensitive: true,
            py: "def solve(s):\n    return s.swapcase()\n",
            cpp: "std::string solve(std::string s) {\n    for (char &c : s) c = std::islower(c) ? std::toupper(c) : std::tolower(c);\n    return s;\n}\n",
            wrong: vec![(
                "upper_only.py",
                "# Makes every letter upper case.\ndef solve(s):\n    return s.upper()\n",
            )],
        },
        Task {
            id: "uppercase",
            title: "Shout",
            family: Family::Strings,
            legend: "You are given a line of words. Write it with every letter in upper case.",
            shape: SENTENCE,
            answer: "$s$ with every letter replaced by its upper-case form, the spaces as they are",
            token: false,
            rule: "",
            random: random_sentence,
            solve: |r| r.text().to_ascii_uppercase(),
            samples: || [text("hello world"), text("abc")],
            edges: || vec![text("a"), text("z y x")],
            case_sensitive: true,
            py: "def solve(s):\n    return s.upper()\n",
            cpp: "std::string solve(std::string s) {\n    for (char &c : s) c = std::toupper(c);\n    return s;\n}\n",
            wrong: vec![(
                "first_letters.py",
                "# Capitalizes only the first letter of every word.\ndef solve(s):\n    return s.title()\n",
            )],
        },
        Task {
            id: "acronym",
            title: "Initials",
            family: Family::Strings,
            legend: "You are given a line of words. Make an acronym: the first letter of every word, in upper case, in order.",
            shape: SENTENCE,
            answer: "the acronym: one upper-case letter per word, with nothing between them",
            token: true,
            rule: "",
            random: random_sentence,
            solve: |r| {
                r.text()
                    .split(' ')
                    .map(|w| w[..1].to_ascii_uppercase())
                    .collect()
            },
            samples: || [text("portable network graphics"), text("hello")],
            edges: || vec![text("a"), text("a b c d")],
            case_sensitive: true,
            py: "def solve(s):\n    return \"\".join(w[0].upper() for w in s.split())\n",
            cpp: "std::string solve(const std::string &s) {\n    std::string out;\n    for (size_t i = 0; i < s.size(); i++)\n        if (i == 0 || s[i - 1] == ' ') out += (char)std::toupper(s[i]);\n    return out;\n}\n",
            wrong: vec![(
                "lower_case.py",
                "# Keeps the letters in lower case.\ndef solve(s):\n    return \"\".join(w[0] for w in s.split())\n",
            )],
        },
    ]
}

/// New tasks of training families, for training. It is long because it is a table of
/// data: each task's shape, solver, generator and code.
fn new_training() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "minutes",
                title: "Clock Minutes",
                family: Family::Arithmetic,
                legend: "A clock shows $h$ hours and $m$ minutes past midnight. Find how many minutes have passed since midnight.",
                shape: Shape::Ints(&[("h", 0, 23), ("m", 0, 59)]),
                answer: "the number of minutes since midnight, $60h + m$",
                token: true,
                rule: "",
                random: |rng, _, _| ints(&[rng.range(0, 23), rng.range(0, 59)]),
                solve: |r| (60 * r.ints()[0] + r.ints()[1]).to_string(),
                samples: || [ints(&[1, 30]), ints(&[0, 5])],
                edges: || vec![ints(&[0, 0]), ints(&[23, 59]), ints(&[12, 0])],
                case_sensitive: false,
                py: "def solve(h, m):\n    return 60 * h + m\n",
                cpp: "std::string solve(long long h, long long m) {\n    return std::to_string(60 * h + m);\n}\n",
                wrong: vec![(
                    "hundred.py",
                    "# Takes an hour for 100 minutes.\ndef solve(h, m):\n    return 100 * h + m\n",
                )],
            },
            vec![Layout::Single, Layout::Lines, PER_LINE],
        ),
        (
            Task {
                id: "cube",
                title: "Cube Volume",
                family: Family::Arithmetic,
                legend: "Find the cube $n^3 = n \\cdot n \\cdot n$ of an integer $n$. It may not fit in a 32-bit integer.",
                shape: Shape::Ints(&[("n", -1_000_000, 1_000_000)]),
                answer: "$n^3$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, -1_000_000, 1_000_000)]),
                solve: |r| r.ints()[0].pow(3).to_string(),
                samples: || [ints(&[3]), ints(&[-2])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[1_000_000]),
                        ints(&[-1_000_000]),
                        ints(&[1291]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    return n ** 3\n",
                cpp: "std::string solve(long long n) {\n    return std::to_string(n * n * n);\n}\n",
                wrong: vec![(
                    "int_overflow.cpp",
                    "// Multiplies in 32 bits.\nstd::string solve(long long n) {\n    int x = n;\n    int cube = (int)((unsigned)x * (unsigned)x * (unsigned)x);\n    return std::to_string(cube);\n}\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "prefixsums",
                title: "Running Total",
                family: Family::Lists,
                legend: "You are given a list of integers. Find its running totals: for every $i$, the sum $a_1 + \\cdots + a_i$ of the first $i$ values.",
                shape: LIST,
                answer: "the $n$ running totals, in order, separated by spaces",
                token: false,
                rule: "",
                random: any_list,
                solve: |r| {
                    let mut total = 0;
                    let words: Vec<String> = r
                        .ints()
                        .iter()
                        .map(|x| {
                            total += x;
                            total.to_string()
                        })
                        .collect();
                    words.join(" ")
                },
                samples: || [ints(&[1, 2, 3]), ints(&[5, -5])],
                edges: || vec![ints(&[-E9]), ints(&[E9; 100])],
                case_sensitive: false,
                py: "def solve(a):\n    totals, total = [], 0\n    for x in a:\n        total += x\n        totals.append(total)\n    return \" \".join(map(str, totals))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    std::string out;\n    long long total = 0;\n    for (size_t i = 0; i < a.size(); i++) {\n        total += a[i];\n        out += (i ? \" \" : \"\") + std::to_string(total);\n    }\n    return out;\n}\n",
                wrong: vec![(
                    "int_overflow.cpp",
                    "// Keeps the total in a 32-bit int.\nstd::string solve(const std::vector<long long> &a) {\n    std::string out;\n    int total = 0;\n    for (size_t i = 0; i < a.size(); i++) {\n        total = (int)((unsigned)total + (unsigned)a[i]);\n        out += (i ? \" \" : \"\") + std::to_string(total);\n    }\n    return out;\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Bare, PER_LINE],
        ),
        (
            Task {
                id: "oddplaces",
                title: "Every Other",
                family: Family::Lists,
                legend: "You are given a list of integers $a_1, \\ldots, a_n$. Add up the values at the odd positions: $a_1 + a_3 + a_5 + \\cdots$",
                shape: LIST,
                answer: "the sum of $a_i$ over the odd $i$",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| r.ints().iter().step_by(2).sum::<i64>().to_string(),
                samples: || [ints(&[1, 2, 3, 4, 5]), ints(&[7, 100])],
                edges: || vec![ints(&[5]), ints(&[1, -1]), ints(&[E9; 99])],
                case_sensitive: false,
                py: "def solve(a):\n    return sum(a[0::2])\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (size_t i = 0; i < a.size(); i += 2) total += a[i];\n    return std::to_string(total);\n}\n",
                wrong: vec![(
                    "zero_based.py",
                    "# Counts positions from 0: adds a_2, a_4, ... instead.\ndef solve(a):\n    return sum(a[1::2])\n",
                )],
            },
            vec![Layout::Single, Layout::Inline, NUMBERED],
        ),
        (
            Task {
                id: "middleletter",
                title: "Centre Letter",
                family: Family::Strings,
                legend: "You are given a word with an odd number of letters. Find its middle letter: as many letters stand before it as after it.",
                shape: Shape::Text {
                    pattern: "[a-z]+",
                    max: 999,
                    what: "a word $s$ of lowercase English letters ($1 \\le |s| \\le 999$, $|s|$ odd)",
                },
                answer: "the middle letter of $s$",
                token: true,
                rule: "len(v) % 2 == 1",
                random: |rng, size, _| {
                    let len = text_len(rng, size).min(999) | 1;
                    Record::Text(word(rng, len, LOWER))
                },
                solve: |r| {
                    let s = r.text();
                    s[s.len() / 2..s.len() / 2 + 1].to_owned()
                },
                samples: || [text("abcde"), text("x")],
                edges: || vec![text("abc"), text("racecar"), text("abcdefg")],
                case_sensitive: false,
                py: "def solve(s):\n    return s[len(s) // 2]\n",
                cpp: "std::string solve(const std::string &s) {\n    return std::string(1, s[s.size() / 2]);\n}\n",
                wrong: vec![(
                    "one_early.py",
                    "# Rounds the wrong way: the letter before the middle.\ndef solve(s):\n    return s[max(len(s) // 2 - 1, 0)]\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "shiftletters",
                title: "Next Letter",
                family: Family::Strings,
                legend: "You are given a word. Replace every letter by the next one in the alphabet, with `z` becoming `a`.",
                shape: WORD,
                answer: "$s$ with every letter moved one step on in the alphabet",
                token: true,
                rule: "",
                random: random_word,
                solve: |r| {
                    r.text()
                        .bytes()
                        .map(|b| (b'a' + (b - b'a' + 1) % 26) as char)
                        .collect()
                },
                samples: || [text("hello"), text("zebra")],
                edges: || vec![text("z"), text("a"), text("xyz")],
                case_sensitive: false,
                py: "def solve(s):\n    return \"\".join(chr(ord(\"a\") + (ord(c) - ord(\"a\") + 1) % 26) for c in s)\n",
                cpp: "std::string solve(std::string s) {\n    for (char &c : s) c = c == 'z' ? 'a' : c + 1;\n    return s;\n}\n",
                wrong: vec![(
                    "no_wrap.cpp",
                    "// Forgets to wrap: z becomes {.\nstd::string solve(std::string s) {\n    for (char &c : s) c = c + 1;\n    return s;\n}\n",
                )],
            },
            vec![Layout::Single, PER_LINE, NUMBERED],
        ),
        (
            Task {
                id: "factorial",
                title: "Exact Factorial",
                family: Family::Loops,
                legend: "Find $n! = 1 \\cdot 2 \\cdots n$ exactly ($0! = 1$). It may not fit in a 32-bit integer.",
                shape: Shape::Ints(&[("n", 0, 20)]),
                answer: "$n!$",
                token: true,
                rule: "",
                random: |rng, _, _| ints(&[rng.range(0, 20)]),
                solve: |r| (1..=r.ints()[0]).product::<i64>().to_string(),
                samples: || [ints(&[5]), ints(&[0])],
                edges: || vec![ints(&[20]), ints(&[13]), ints(&[1])],
                case_sensitive: false,
                py: "def solve(n):\n    result = 1\n    for i in range(2, n + 1):\n        result *= i\n    return result\n",
                cpp: "std::string solve(long long n) {\n    long long result = 1;\n    for (int i = 2; i <= n; i++) result *= i;\n    return std::to_string(result);\n}\n",
                wrong: vec![(
                    "int_overflow.cpp",
                    "// Multiplies in a 32-bit int.\nstd::string solve(long long n) {\n    int result = 1;\n    for (int i = 2; i <= n; i++) result = (int)((unsigned)result * (unsigned)i);\n    return std::to_string(result);\n}\n",
                )],
            },
            vec![Layout::Single, PER_LINE, Layout::Eof],
        ),
        (
            Task {
                id: "tickets",
                title: "Ticket Office",
                family: Family::Conditions,
                legend: "A museum ticket costs 5 for a child younger than 12, 7 for a visitor aged 65 or more, and 10 for everyone else. Find the price for a visitor aged $x$.",
                shape: Shape::Ints(&[("x", 0, 120)]),
                answer: "the price of the ticket",
                token: true,
                rule: "",
                random: |rng, _, _| ints(&[rng.range(0, 120)]),
                solve: |r| {
                    match r.ints()[0] {
                        0..=11 => "5",
                        65.. => "7",
                        _ => "10",
                    }
                    .to_owned()
                },
                samples: || [ints(&[30]), ints(&[8])],
                edges: || {
                    vec![
                        ints(&[12]),
                        ints(&[11]),
                        ints(&[65]),
                        ints(&[64]),
                        ints(&[0]),
                        ints(&[120]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(x):\n    if x < 12:\n        return 5\n    if x >= 65:\n        return 7\n    return 10\n",
                cpp: "std::string solve(long long x) {\n    if (x < 12) return \"5\";\n    if (x >= 65) return \"7\";\n    return \"10\";\n}\n",
                wrong: vec![(
                    "boundaries.py",
                    "# Puts the boundary ages on the wrong side.\ndef solve(x):\n    if x <= 12:\n        return 5\n    if x > 65:\n        return 7\n    return 10\n",
                )],
            },
            vec![Layout::Single, JOINED, Layout::Eof],
        ),
        (
            Task {
                id: "divisible",
                title: "Fair Share",
                family: Family::Conditions,
                legend: "Decide whether $a$ sweets can be shared equally among $b$ children with none left over: whether $a$ is divisible by $b$.",
                shape: Shape::Ints(&[("a", 0, E18), ("b", 1, E18)]),
                answer: "`YES` if $b$ divides $a$ and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let b = value(rng, size, 1, E9);
                    let a = if rng.range(0, 1) == 0 {
                        b * value(rng, size, 0, E9)
                    } else {
                        value(rng, size, 0, E18)
                    };
                    ints(&[a, b])
                },
                solve: |r| yes(r.ints()[0] % r.ints()[1] == 0),
                samples: || [ints(&[12, 4]), ints(&[10, 3])],
                edges: || {
                    vec![
                        ints(&[0, 5]),
                        ints(&[3, 6]),
                        ints(&[E18, E9]),
                        ints(&[1, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    return \"YES\" if a % b == 0 else \"NO\"\n",
                cpp: "std::string solve(long long a, long long b) {\n    return a % b == 0 ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![(
                    "swapped.py",
                    "# Divides the wrong way round.\ndef solve(a, b):\n    return \"YES\" if a != 0 and b % a == 0 else \"NO\"\n",
                )],
            },
            vec![Layout::Single, Layout::Lines, NUMBERED],
        ),
    ]
}

/// New tasks of training families, never trained on: the validation split. It is long
/// because it is a table of data: each task's shape, solver, generator and code.
fn validation() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "absdiff",
                title: "Distance on a Line",
                family: Family::Arithmetic,
                legend: "Two friends stand on a number line, at the integer points $a$ and $b$. Find the distance between them.",
                shape: Shape::Ints(AB),
                answer: "the distance $|a - b|$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, -E9, E9)),
                solve: |r| (r.ints()[0] - r.ints()[1]).abs().to_string(),
                samples: || [ints(&[3, 10]), ints(&[-4, -9])],
                edges: || vec![ints(&[E9, -E9]), ints(&[5, 5]), ints(&[-E9, E9])],
                case_sensitive: false,
                py: "def solve(a, b):\n    return abs(a - b)\n",
                cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a > b ? a - b : b - a);\n}\n",
                wrong: vec![(
                    "signed.py",
                    "# Forgets the absolute value: a below b gives a negative distance.\ndef solve(a, b):\n    return a - b\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "average",
                title: "Meeting Point",
                family: Family::Arithmetic,
                legend: "You are given two integers $a$ and $b$. Find their average rounded down: the largest integer $m$ with $2m \\le a + b$.",
                shape: Shape::Ints(AB),
                answer: "the average of $a$ and $b$ rounded down",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, -E9, E9)),
                solve: |r| (r.ints()[0] + r.ints()[1]).div_euclid(2).to_string(),
                samples: || [ints(&[3, 8]), ints(&[-3, 0])],
                edges: || {
                    vec![
                        ints(&[E9, E9]),
                        ints(&[-E9, -E9 + 1]),
                        ints(&[-1, 0]),
                        ints(&[0, 0]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    return (a + b) // 2\n",
                cpp: "std::string solve(long long a, long long b) {\n    long long s = a + b;\n    return std::to_string(s >= 0 ? s / 2 : -((-s + 1) / 2));\n}\n",
                wrong: vec![(
                    "truncates.cpp",
                    "// Divides with /, which rounds towards zero for a negative sum.\nstd::string solve(long long a, long long b) {\n    return std::to_string((a + b) / 2);\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "countpositive",
                title: "Above Zero",
                family: Family::Lists,
                legend: "You are given a list of integers. Count the values greater than zero.",
                shape: LIST,
                answer: "how many $a_i$ are greater than 0",
                token: true,
                rule: "",
                random: |rng, size, n| Record::Ints(list_values(rng, size, n, -100, 100)),
                solve: |r| r.ints().iter().filter(|x| **x > 0).count().to_string(),
                samples: || [ints(&[3, -1, 0, 7]), ints(&[-5, -6])],
                edges: || vec![ints(&[0]), ints(&[0, 0, 1]), ints(&[E9, -E9])],
                case_sensitive: false,
                py: "def solve(a):\n    return sum(1 for x in a if x > 0)\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    int count = 0;\n    for (long long x : a) if (x > 0) count++;\n    return std::to_string(count);\n}\n",
                wrong: vec![(
                    "counts_zero.py",
                    "# Counts zero as positive.\ndef solve(a):\n    return sum(1 for x in a if x >= 0)\n",
                )],
            },
            vec![Layout::Single, Layout::Bare],
        ),
        (
            Task {
                id: "sumodd",
                title: "Odd Total",
                family: Family::Lists,
                legend: "You are given a list of integers. Add up the odd ones (the sum is 0 when no value is odd).",
                shape: LIST,
                answer: "the sum of the odd $a_i$",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| {
                    r.ints()
                        .iter()
                        .filter(|x| *x % 2 != 0)
                        .sum::<i64>()
                        .to_string()
                },
                samples: || [ints(&[1, 2, 3, 4]), ints(&[2, 4])],
                edges: || vec![ints(&[-3, -5, 2]), ints(&[0]), ints(&[-E9 + 1, E9 - 1, 7])],
                case_sensitive: false,
                py: "def solve(a):\n    return sum(x for x in a if x % 2 != 0)\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (long long x : a) if (x % 2 != 0) total += x;\n    return std::to_string(total);\n}\n",
                wrong: vec![(
                    "negative_odd.cpp",
                    "// Tests x % 2 == 1, which misses negative odd numbers in C++.\nstd::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (long long x : a) if (x % 2 == 1) total += x;\n    return std::to_string(total);\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "doubleletters",
                title: "Twin Letters",
                family: Family::Strings,
                legend: "You are given a word. Count the places where a letter is followed by the same letter: the positions $i$ with $s_i = s_{i+1}$.",
                shape: WORD,
                answer: "how many neighbouring pairs of letters of $s$ are equal",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = text_len(rng, size);
                    Record::Text(word(rng, len, b"abc"))
                },
                solve: |r| {
                    let b = r.text().as_bytes();
                    b.windows(2).filter(|w| w[0] == w[1]).count().to_string()
                },
                samples: || [text("balloon"), text("abc")],
                edges: || vec![text("a"), text("aaaa"), text("abba"), text("abcc")],
                case_sensitive: false,
                py: "def solve(s):\n    return sum(1 for i in range(len(s) - 1) if s[i] == s[i + 1])\n",
                cpp: "std::string solve(const std::string &s) {\n    int count = 0;\n    for (size_t i = 1; i < s.size(); i++) if (s[i] == s[i - 1]) count++;\n    return std::to_string(count);\n}\n",
                wrong: vec![(
                    "skips_last.py",
                    "# Stops one pair early: the last two letters are never compared.\ndef solve(s):\n    return sum(1 for i in range(len(s) - 2) if s[i] == s[i + 1])\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "capitalize",
                title: "Title Case",
                family: Family::Strings,
                legend: "You are given a line of words. Write it with the first letter of every word in upper case.",
                shape: SENTENCE,
                answer: "$s$ with the first letter of every word in upper case and every other character as it is",
                token: false,
                rule: "",
                random: random_sentence,
                solve: |r| {
                    let words: Vec<String> = r
                        .text()
                        .split(' ')
                        .map(|w| format!("{}{}", w[..1].to_ascii_uppercase(), &w[1..]))
                        .collect();
                    words.join(" ")
                },
                samples: || [text("hello world"), text("a tale of two cities")],
                edges: || vec![text("a"), text("x y z"), text("word")],
                case_sensitive: true,
                py: "def solve(s):\n    return \" \".join(w[0].upper() + w[1:] for w in s.split(\" \"))\n",
                cpp: "std::string solve(std::string s) {\n    for (size_t i = 0; i < s.size(); i++)\n        if (i == 0 || s[i - 1] == ' ') s[i] = std::toupper(s[i]);\n    return s;\n}\n",
                wrong: vec![(
                    "first_word_only.py",
                    "# Capitalizes the first word only.\ndef solve(s):\n    return s[0].upper() + s[1:]\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "oddsum",
                title: "Odd Steps",
                family: Family::Loops,
                legend: "Find the sum of the odd integers from 1 to $n$: $1 + 3 + 5 + \\cdots$, up to $n$.",
                shape: Shape::Ints(&[("n", 1, E9)]),
                answer: "the sum of the odd integers from 1 to $n$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 1, E9)]),
                solve: |r| {
                    let k = (r.ints()[0] + 1) / 2;
                    (k * k).to_string()
                },
                samples: || [ints(&[5]), ints(&[8])],
                edges: || vec![ints(&[1]), ints(&[2]), ints(&[E9]), ints(&[E9 - 1])],
                case_sensitive: false,
                py: "def solve(n):\n    k = (n + 1) // 2\n    return k * k\n",
                cpp: "std::string solve(long long n) {\n    long long k = (n + 1) / 2;\n    return std::to_string(k * k);\n}\n",
                wrong: vec![(
                    "half_down.py",
                    "# Counts the odd numbers as n // 2: one short when n is odd.\ndef solve(n):\n    k = n // 2\n    return k * k\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "quadrant",
                title: "Which Quarter",
                family: Family::Conditions,
                legend: "A point $(x, y)$ lies on neither axis. Find its quadrant: 1 when $x > 0$ and $y > 0$, 2 when $x < 0$ and $y > 0$, 3 when $x < 0$ and $y < 0$, and 4 when $x > 0$ and $y < 0$. Neither $x$ nor $y$ is 0.",
                shape: Shape::Ints(&[("x", -E9, E9), ("y", -E9, E9)]),
                answer: "the number of the quadrant of $(x, y)$",
                token: true,
                rule: "v[0] != 0 and v[1] != 0",
                random: |rng, size, _| {
                    let v = values(rng, size, 2, -E9, E9);
                    ints(&[
                        if v[0] == 0 { 1 } else { v[0] },
                        if v[1] == 0 { -1 } else { v[1] },
                    ])
                },
                solve: |r| {
                    let (x, y) = (r.ints()[0], r.ints()[1]);
                    match (x > 0, y > 0) {
                        (true, true) => "1",
                        (false, true) => "2",
                        (false, false) => "3",
                        (true, false) => "4",
                    }
                    .to_owned()
                },
                samples: || [ints(&[3, 4]), ints(&[-1, 5])],
                edges: || vec![ints(&[-E9, -E9]), ints(&[E9, -1]), ints(&[-1, 1])],
                case_sensitive: false,
                py: "def solve(x, y):\n    if x > 0:\n        return 1 if y > 0 else 4\n    return 2 if y > 0 else 3\n",
                cpp: "std::string solve(long long x, long long y) {\n    if (x > 0) return y > 0 ? \"1\" : \"4\";\n    return y > 0 ? \"2\" : \"3\";\n}\n",
                wrong: vec![(
                    "clockwise.py",
                    "# Numbers the quadrants clockwise: 2 and 4 swap.\ndef solve(x, y):\n    if x > 0:\n        return 1 if y > 0 else 2\n    return 4 if y > 0 else 3\n",
                )],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "clamp",
                title: "Keep in Range",
                family: Family::Conditions,
                legend: "You are given an integer $x$ and a range from $l$ to $r$ ($l \\le r$). Move $x$ into the range: $l$ if $x < l$, $r$ if $x > r$, and $x$ itself otherwise.",
                shape: Shape::Ints(&[("x", -E9, E9), ("l", -E9, E9), ("r", -E9, E9)]),
                answer: "$x$ moved into the range from $l$ to $r$",
                token: true,
                rule: "v[1] <= v[2]",
                random: |rng, size, _| {
                    let v = values(rng, size, 3, -E9, E9);
                    ints(&[v[0], v[1].min(v[2]), v[1].max(v[2])])
                },
                solve: |r| {
                    let v = r.ints();
                    v[0].clamp(v[1], v[2]).to_string()
                },
                samples: || [ints(&[15, 1, 10]), ints(&[5, 1, 10])],
                edges: || vec![ints(&[-E9, 0, 0]), ints(&[E9, -E9, -E9]), ints(&[3, 3, 3])],
                case_sensitive: false,
                py: "def solve(x, l, r):\n    return max(l, min(x, r))\n",
                cpp: "std::string solve(long long x, long long l, long long r) {\n    return std::to_string(x < l ? l : x > r ? r : x);\n}\n",
                wrong: vec![(
                    "swapped.py",
                    "# Swaps the ends: a value below the range becomes r.\ndef solve(x, l, r):\n    if x < l:\n        return r\n    if x > r:\n        return l\n    return x\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
    ]
}

/// Days of the months of year `y`.
fn month_days(y: i64) -> [i64; 12] {
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ]
}

/// The Python check of a valid date `v = [y, m, d]`.
const VALID_DATE: &str = "v[2] <= [31, 29 if v[0] % 4 == 0 and (v[0] % 100 != 0 or v[0] % 400 == 0) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][v[1] - 1]";

/// New tasks for the held-out split: of training families (in-family), then of
/// families training never sees (out-of-family). It is long because it is a table of
/// data: each task's shape, solver, generator and code.
fn held_out() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "ceildiv",
                title: "Full Boxes",
                family: Family::Arithmetic,
                legend: "There are $a$ apples, and a box holds $b$ of them. Find how many boxes are needed to pack all apples: $a / b$ rounded up.",
                shape: Shape::Ints(&[("a", 1, E18), ("b", 1, E18)]),
                answer: "the number of boxes needed",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, 1, E18)),
                solve: |r| ((r.ints()[0] + r.ints()[1] - 1) / r.ints()[1]).to_string(),
                samples: || [ints(&[10, 3]), ints(&[12, 4])],
                edges: || vec![ints(&[1, E18]), ints(&[E18, 1]), ints(&[E18, E18 - 1])],
                case_sensitive: false,
                py: "def solve(a, b):\n    return (a + b - 1) // b\n",
                cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a / b + (a % b != 0));\n}\n",
                wrong: vec![(
                    "rounds_down.py",
                    "# Rounds down: the last, partly filled box is forgotten.\ndef solve(a, b):\n    return a // b\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "lastdigit",
                title: "Final Digit",
                family: Family::Arithmetic,
                legend: "You are given two non-negative integers $a$ and $b$. Find the last decimal digit of their product $a \\cdot b$. The product may not fit in a 64-bit integer.",
                shape: Shape::Ints(&[("a", 0, E18), ("b", 0, E18)]),
                answer: "the last digit of $a \\cdot b$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, 0, E18)),
                solve: |r| ((r.ints()[0] % 10) * (r.ints()[1] % 10) % 10).to_string(),
                samples: || [ints(&[12, 13]), ints(&[5, 4])],
                edges: || {
                    vec![
                        ints(&[E18 - 1, E18 - 3]),
                        ints(&[0, 7]),
                        ints(&[999999999999999997, 999999999999999999]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    return a * b % 10\n",
                cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(a % 10 * (b % 10) % 10);\n}\n",
                wrong: vec![(
                    "overflow.cpp",
                    "// Multiplies first: the product overflows 64 bits.\nstd::string solve(long long a, long long b) {\n    unsigned long long product = (unsigned long long)a * (unsigned long long)b;\n    long long p = (long long)product;\n    return std::to_string((p % 10 + 10) % 10);\n}\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "countmax",
                title: "Top Scorers",
                family: Family::Lists,
                legend: "You are given a list of integers. Count how many times its largest value occurs.",
                shape: LIST,
                answer: "how many $a_i$ are equal to the largest value",
                token: true,
                rule: "",
                random: |rng, size, n| Record::Ints(list_values(rng, size, n, -20, 20)),
                solve: |r| {
                    let top = r.ints().iter().max().expect("n >= 1");
                    r.ints().iter().filter(|x| *x == top).count().to_string()
                },
                samples: || [ints(&[3, 9, 9, 2]), ints(&[4])],
                edges: || vec![ints(&[-5, -5, -7]), ints(&[-E9]), ints(&[E9, E9, E9])],
                case_sensitive: false,
                py: "def solve(a):\n    return a.count(max(a))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long top = *std::max_element(a.begin(), a.end());\n    return std::to_string(std::count(a.begin(), a.end(), top));\n}\n",
                wrong: vec![(
                    "starts_at_zero.py",
                    "# Starts the maximum at 0: wrong when every value is negative.\ndef solve(a):\n    top, count = 0, 0\n    for x in a:\n        if x > top:\n            top, count = x, 1\n        elif x == top:\n            count += 1\n    return count\n",
                )],
            },
            vec![Layout::Single, Layout::Inline],
        ),
        (
            Task {
                id: "maxstep",
                title: "Biggest Jump",
                family: Family::Lists,
                legend: "You are given a list of at least two integers. Find the largest difference between neighbours: the largest $|a_i - a_{i+1}|$.",
                shape: Shape::List {
                    min_n: 2,
                    lo: -E9,
                    hi: E9,
                },
                answer: "the largest $|a_i - a_{i+1}|$ for $1 \\le i < n$",
                token: true,
                rule: "",
                random: any_list,
                solve: |r| {
                    let v = r.ints();
                    v.windows(2)
                        .map(|w| (w[0] - w[1]).abs())
                        .max()
                        .expect("n >= 2")
                        .to_string()
                },
                samples: || [ints(&[1, 5, 2]), ints(&[7, 7])],
                edges: || vec![ints(&[E9, -E9]), ints(&[5, 1]), ints(&[0, 3, -10])],
                case_sensitive: false,
                py: "def solve(a):\n    return max(abs(a[i] - a[i + 1]) for i in range(len(a) - 1))\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long best = 0;\n    for (size_t i = 1; i < a.size(); i++) best = std::max(best, a[i] > a[i - 1] ? a[i] - a[i - 1] : a[i - 1] - a[i]);\n    return std::to_string(best);\n}\n",
                wrong: vec![(
                    "rises_only.py",
                    "# Forgets the absolute value: only rises count.\ndef solve(a):\n    return max(a[i + 1] - a[i] for i in range(len(a) - 1))\n",
                )],
            },
            vec![Layout::Single, Layout::Column],
        ),
        (
            Task {
                id: "longestword",
                title: "Long Word",
                family: Family::Strings,
                legend: "You are given a line of words. Find the length of its longest word.",
                shape: SENTENCE,
                answer: "the number of letters of the longest word of $s$",
                token: true,
                rule: "",
                random: random_sentence,
                solve: |r| {
                    r.text()
                        .split(' ')
                        .map(str::len)
                        .max()
                        .expect("a word")
                        .to_string()
                },
                samples: || [text("the quick brown fox"), text("a bb a")],
                edges: || vec![text("a"), text("ab c"), text("a bc")],
                case_sensitive: false,
                py: "def solve(s):\n    return max(len(w) for w in s.split())\n",
                cpp: "std::string solve(const std::string &s) {\n    size_t best = 0, run = 0;\n    for (char c : s) {\n        run = c == ' ' ? 0 : run + 1;\n        best = std::max(best, run);\n    }\n    return std::to_string(best);\n}\n",
                wrong: vec![(
                    "forgets_last.py",
                    "# Measures a word when a space ends it: the last word is never measured.\ndef solve(s):\n    best, run = 0, 0\n    for c in s:\n        if c == \" \":\n            best = max(best, run)\n            run = 0\n        else:\n            run += 1\n    return best\n",
                )],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "isogram",
                title: "No Repeats",
                family: Family::Strings,
                legend: "A word is an isogram when no letter occurs in it more than once. Decide whether the given word is one.",
                shape: Shape::Text {
                    pattern: "[a-z]+",
                    max: 100,
                    what: "a word $s$ of lowercase English letters ($1 \\le |s| \\le 100$)",
                },
                answer: "`YES` if no letter occurs twice in $s$ and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let len = match size {
                        Size::Small => rng.range(1, 8),
                        _ => rng.range(10, 26),
                    } as usize;
                    let mut letters: Vec<u8> = LOWER.to_vec();
                    rng.shuffle(&mut letters);
                    let mut s: Vec<u8> = letters[..len].to_vec();
                    if rng.range(0, 1) == 0 && len > 1 {
                        let from = rng.range(0, len as i64 - 1) as usize;
                        let to = rng.range(0, len as i64 - 1) as usize;
                        s[to] = s[from];
                    }
                    Record::Text(String::from_utf8(s).expect("ascii"))
                },
                solve: |r| {
                    let mut seen = std::collections::BTreeSet::new();
                    yes(r.text().chars().all(|c| seen.insert(c)))
                },
                samples: || [text("world"), text("letter")],
                edges: || {
                    vec![
                        text("a"),
                        text("abca"),
                        text("abcdefghijklmnopqrstuvwxyz"),
                        text("aa"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    return \"YES\" if len(set(s)) == len(s) else \"NO\"\n",
                cpp: "std::string solve(const std::string &s) {\n    int count[26] = {0};\n    for (char c : s)\n        if (++count[c - 'a'] > 1) return \"NO\";\n    return \"YES\";\n}\n",
                wrong: vec![(
                    "neighbours_only.py",
                    "# Compares neighbouring letters only.\ndef solve(s):\n    return \"NO\" if any(s[i] == s[i + 1] for i in range(len(s) - 1)) else \"YES\"\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "collatz",
                title: "Hailstone",
                family: Family::Loops,
                legend: "Start from $n$ and repeat: if the number is even, halve it; if it is odd, replace it by three times it plus one. Count the steps until the number is 1. The numbers on the way may exceed $2^{31}$.",
                shape: Shape::Ints(&[("n", 1, 1_000_000)]),
                answer: "the number of steps from $n$ to 1",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 1, 1_000_000)]),
                solve: |r| {
                    let (mut n, mut steps) = (r.ints()[0], 0);
                    while n != 1 {
                        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
                        steps += 1;
                    }
                    steps.to_string()
                },
                samples: || [ints(&[6]), ints(&[1])],
                edges: || {
                    vec![
                        ints(&[2]),
                        ints(&[837_799]),
                        ints(&[113_383]),
                        ints(&[1_000_000]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    steps = 0\n    while n != 1:\n        n = n // 2 if n % 2 == 0 else 3 * n + 1\n        steps += 1\n    return steps\n",
                cpp: "std::string solve(long long n) {\n    int steps = 0;\n    while (n != 1) {\n        n = n % 2 == 0 ? n / 2 : 3 * n + 1;\n        steps++;\n    }\n    return std::to_string(steps);\n}\n",
                wrong: vec![(
                    "int_overflow.cpp",
                    "// Keeps the number in 32 bits: it overflows on the way for some starts.\nstd::string solve(long long start) {\n    int n = start, steps = 0;\n    while (n != 1 && steps < 100000) {\n        n = n % 2 == 0 ? n / 2 : (int)(3u * (unsigned)n + 1u);\n        steps++;\n    }\n    return std::to_string(steps);\n}\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "compare",
                title: "Less or More",
                family: Family::Conditions,
                legend: "You are given two integers $a$ and $b$. Compare them.",
                shape: Shape::Ints(&[("a", -E18, E18), ("b", -E18, E18)]),
                answer: "`<` if $a < b$, `>` if $a > b$ and `=` if $a = b$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let v = values(rng, size, 2, -E18, E18);
                    ints(&[v[0], if rng.range(0, 3) == 0 { v[0] } else { v[1] }])
                },
                solve: |r| {
                    match r.ints()[0].cmp(&r.ints()[1]) {
                        std::cmp::Ordering::Less => "<",
                        std::cmp::Ordering::Greater => ">",
                        std::cmp::Ordering::Equal => "=",
                    }
                    .to_owned()
                },
                samples: || [ints(&[3, 5]), ints(&[7, 7])],
                edges: || vec![ints(&[E18, -E18]), ints(&[-E18, -E18]), ints(&[0, 1])],
                case_sensitive: false,
                py: "def solve(a, b):\n    return \"<\" if a < b else \">\" if a > b else \"=\"\n",
                cpp: "std::string solve(long long a, long long b) {\n    return a < b ? \"<\" : a > b ? \">\" : \"=\";\n}\n",
                wrong: vec![(
                    "forgets_equal.py",
                    "# Forgets equal numbers.\ndef solve(a, b):\n    return \"<\" if a < b else \">\"\n",
                )],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "median3",
                title: "Middle One",
                family: Family::Conditions,
                legend: "You are given three integers. Find the middle one: the second of them when they are sorted.",
                shape: Shape::Ints(ABC),
                answer: "the middle value of $a$, $b$ and $c$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 3, -E9, E9)),
                solve: |r| {
                    let mut v = r.ints().to_vec();
                    v.sort();
                    v[1].to_string()
                },
                samples: || [ints(&[3, 1, 2]), ints(&[10, 20, 15])],
                edges: || vec![ints(&[5, 5, 1]), ints(&[7, 7, 7]), ints(&[-E9, E9, 0])],
                case_sensitive: false,
                py: "def solve(a, b, c):\n    return sorted([a, b, c])[1]\n",
                cpp: "std::string solve(long long a, long long b, long long c) {\n    return std::to_string(std::max(std::min(a, b), std::min(std::max(a, b), c)));\n}\n",
                wrong: vec![(
                    "strict.py",
                    "# Strict comparisons miss ties: 5 5 1 gives 1.\ndef solve(a, b, c):\n    if a < b < c or c < b < a:\n        return b\n    if b < a < c or c < a < b:\n        return a\n    return c\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "popcount",
                title: "Ones in Binary",
                family: Family::Bits,
                legend: "Count the digits 1 in the binary representation of a non-negative integer $n$.",
                shape: Shape::Ints(&[("n", 0, E18)]),
                answer: "the number of ones in $n$ written in binary",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 0, E18)]),
                solve: |r| r.ints()[0].count_ones().to_string(),
                samples: || [ints(&[5]), ints(&[255])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[E18]),
                        ints(&[(1 << 59) - 1]),
                        ints(&[1 << 40]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    return bin(n).count(\"1\")\n",
                cpp: "std::string solve(long long n) {\n    int count = 0;\n    for (; n > 0; n >>= 1) count += n & 1;\n    return std::to_string(count);\n}\n",
                wrong: vec![(
                    "low_bits.cpp",
                    "// Counts the low 32 bits only.\nstd::string solve(long long n) {\n    return std::to_string(__builtin_popcount((unsigned)n));\n}\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "poweroftwo",
                title: "Doubling",
                family: Family::Bits,
                legend: "Decide whether a positive integer $n$ is a power of two: one of $1, 2, 4, 8, \\ldots$",
                shape: Shape::Ints(&[("n", 1, E18)]),
                answer: "`YES` if $n$ is a power of two and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let n = value(rng, size, 1, E18);
                    ints(&[if rng.range(0, 1) == 0 {
                        1 << (63 - n.leading_zeros()).min(59)
                    } else {
                        n
                    }])
                },
                solve: |r| yes(r.ints()[0].count_ones() == 1),
                samples: || [ints(&[64]), ints(&[12])],
                edges: || {
                    vec![
                        ints(&[1]),
                        ints(&[2]),
                        ints(&[1 << 59]),
                        ints(&[E18]),
                        ints(&[6]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    return \"YES\" if n & (n - 1) == 0 else \"NO\"\n",
                cpp: "std::string solve(long long n) {\n    return (n & (n - 1)) == 0 ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![(
                    "even.py",
                    "# Takes every even number for a power of two, and forgets 1.\ndef solve(n):\n    return \"YES\" if n % 2 == 0 else \"NO\"\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "binary",
                title: "Base Two",
                family: Family::Bits,
                legend: "Write a non-negative integer $n$ in binary, without leading zeros (zero is written `0`).",
                shape: Shape::Ints(&[("n", 0, E18)]),
                answer: "$n$ in binary",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 0, E18)]),
                solve: |r| format!("{:b}", r.ints()[0]),
                samples: || [ints(&[5]), ints(&[16])],
                edges: || vec![ints(&[0]), ints(&[1]), ints(&[E18])],
                case_sensitive: false,
                py: "def solve(n):\n    return bin(n)[2:]\n",
                cpp: "std::string solve(long long n) {\n    if (n == 0) return \"0\";\n    std::string out;\n    for (; n > 0; n /= 2) out += (char)('0' + n % 2);\n    std::reverse(out.begin(), out.end());\n    return out;\n}\n",
                wrong: vec![(
                    "backwards.py",
                    "# Writes the bits lowest first.\ndef solve(n):\n    return bin(n)[2:][::-1]\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "xorlist",
                title: "Exclusive Total",
                family: Family::Bits,
                legend: "You are given a list of non-negative integers. Find their bitwise exclusive or $a_1 \\oplus a_2 \\oplus \\cdots \\oplus a_n$ (a bit of the result is 1 when that bit is 1 in an odd number of the values).",
                shape: Shape::List {
                    min_n: 1,
                    lo: 0,
                    hi: E9,
                },
                answer: "$a_1 \\oplus a_2 \\oplus \\cdots \\oplus a_n$",
                token: true,
                rule: "",
                random: |rng, size, n| Record::Ints(list_values(rng, size, n, 0, E9)),
                solve: |r| r.ints().iter().fold(0, |acc, x| acc ^ x).to_string(),
                samples: || [ints(&[1, 2, 3]), ints(&[5, 9])],
                edges: || vec![ints(&[0]), ints(&[E9, E9]), ints(&[7, 7, 7])],
                case_sensitive: false,
                py: "def solve(a):\n    result = 0\n    for x in a:\n        result ^= x\n    return result\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long result = 0;\n    for (long long x : a) result ^= x;\n    return std::to_string(result);\n}\n",
                wrong: vec![(
                    "or.py",
                    "# Uses or instead of exclusive or.\ndef solve(a):\n    result = 0\n    for x in a:\n        result |= x\n    return result\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "manhattan",
                title: "City Blocks",
                family: Family::Geometry,
                legend: "In a city of square blocks you can walk only along the grid lines. Find the walking distance from the point $(x_1, y_1)$ to the point $(x_2, y_2)$: $|x_1 - x_2| + |y_1 - y_2|$. The four integers are given as `x1 y1 x2 y2`.",
                shape: Shape::Ints(&[
                    ("x1", -E9, E9),
                    ("y1", -E9, E9),
                    ("x2", -E9, E9),
                    ("y2", -E9, E9),
                ]),
                answer: "the distance $|x_1 - x_2| + |y_1 - y_2|$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 4, -E9, E9)),
                solve: |r| {
                    let v = r.ints();
                    ((v[0] - v[2]).abs() + (v[1] - v[3]).abs()).to_string()
                },
                samples: || [ints(&[0, 0, 3, 4]), ints(&[-1, 2, -1, 2])],
                edges: || vec![ints(&[-E9, -E9, E9, E9]), ints(&[E9, 0, -E9, 0])],
                case_sensitive: false,
                py: "def solve(x1, y1, x2, y2):\n    return abs(x1 - x2) + abs(y1 - y2)\n",
                cpp: "std::string solve(long long x1, long long y1, long long x2, long long y2) {\n    return std::to_string(std::llabs(x1 - x2) + std::llabs(y1 - y2));\n}\n",
                wrong: vec![(
                    "int_overflow.cpp",
                    "// Adds in 32-bit ints.\nstd::string solve(long long x1, long long y1, long long x2, long long y2) {\n    int dx = (int)std::llabs(x1 - x2), dy = (int)std::llabs(y1 - y2);\n    return std::to_string((int)((unsigned)dx + (unsigned)dy));\n}\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "triarea",
                title: "Triangle Area",
                family: Family::Geometry,
                legend: "You are given the corners $(x_1, y_1)$, $(x_2, y_2)$ and $(x_3, y_3)$ of a triangle, as `x1 y1 x2 y2 x3 y3`. Find twice its area (an integer): $|(x_2 - x_1)(y_3 - y_1) - (x_3 - x_1)(y_2 - y_1)|$. The corners may lie on one line.",
                shape: Shape::Ints(&[
                    ("x1", -1_000_000, 1_000_000),
                    ("y1", -1_000_000, 1_000_000),
                    ("x2", -1_000_000, 1_000_000),
                    ("y2", -1_000_000, 1_000_000),
                    ("x3", -1_000_000, 1_000_000),
                    ("y3", -1_000_000, 1_000_000),
                ]),
                answer: "twice the area of the triangle",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 6, -1_000_000, 1_000_000)),
                solve: |r| {
                    let v = r.ints();
                    ((v[2] - v[0]) * (v[5] - v[1]) - (v[4] - v[0]) * (v[3] - v[1]))
                        .abs()
                        .to_string()
                },
                samples: || [ints(&[0, 0, 4, 0, 0, 3]), ints(&[0, 0, 1, 1, 2, 2])],
                edges: || {
                    vec![
                        ints(&[0, 0, 0, 3, 4, 0]),
                        ints(&[
                            -1_000_000, -1_000_000, 1_000_000, -1_000_000, 1_000_000, 1_000_000,
                        ]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(x1, y1, x2, y2, x3, y3):\n    return abs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1))\n",
                cpp: "std::string solve(long long x1, long long y1, long long x2, long long y2, long long x3, long long y3) {\n    return std::to_string(std::llabs((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)));\n}\n",
                wrong: vec![(
                    "signed.py",
                    "# Forgets the absolute value: clockwise corners give a negative area.\ndef solve(x1, y1, x2, y2, x3, y3):\n    return (x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "insiderect",
                title: "Fenced In",
                family: Family::Geometry,
                legend: "A rectangle has its sides parallel to the axes, its lower left corner at $(x_1, y_1)$ and its upper right corner at $(x_2, y_2)$, with $x_1 < x_2$ and $y_1 < y_2$. Decide whether the point $(p, q)$ lies in it; a point on its border counts. The six integers are given as `x1 y1 x2 y2 p q`.",
                shape: Shape::Ints(&[
                    ("x1", -E9, E9),
                    ("y1", -E9, E9),
                    ("x2", -E9, E9),
                    ("y2", -E9, E9),
                    ("p", -E9, E9),
                    ("q", -E9, E9),
                ]),
                answer: "`YES` if $(p, q)$ lies in the rectangle or on its border and `NO` otherwise",
                token: true,
                rule: "v[0] < v[2] and v[1] < v[3]",
                random: |rng, size, _| {
                    let v = values(rng, size, 6, -E9 + 1, E9 - 1);
                    let (x1, x2) = (v[0].min(v[2]), v[0].max(v[2]) + 1);
                    let (y1, y2) = (v[1].min(v[3]), v[1].max(v[3]) + 1);
                    let p = if rng.range(0, 1) == 0 {
                        rng.range(x1, x2)
                    } else {
                        v[4]
                    };
                    ints(&[x1, y1, x2, y2, p, v[5].clamp(y1 - 1, y2 + 1)])
                },
                solve: |r| {
                    let v = r.ints();
                    yes(v[0] <= v[4] && v[4] <= v[2] && v[1] <= v[5] && v[5] <= v[3])
                },
                samples: || [ints(&[0, 0, 4, 3, 2, 1]), ints(&[0, 0, 4, 3, 5, 1])],
                edges: || {
                    vec![
                        ints(&[0, 0, 4, 3, 4, 3]),
                        ints(&[0, 0, 4, 3, 0, 2]),
                        ints(&[-E9, -E9, E9, E9, 0, 0]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(x1, y1, x2, y2, p, q):\n    return \"YES\" if x1 <= p <= x2 and y1 <= q <= y2 else \"NO\"\n",
                cpp: "std::string solve(long long x1, long long y1, long long x2, long long y2, long long p, long long q) {\n    return x1 <= p && p <= x2 && y1 <= q && q <= y2 ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![(
                    "strict.py",
                    "# Leaves the border out.\ndef solve(x1, y1, x2, y2, p, q):\n    return \"YES\" if x1 < p < x2 and y1 < q < y2 else \"NO\"\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "kingmoves",
                title: "Royal Steps",
                family: Family::Geometry,
                legend: "A chess king stands on row $r$ and column $c$ of an $8 \\times 8$ board. In one move it goes to one of the up to eight squares around it, staying on the board. Count the squares it can move to.",
                shape: Shape::Ints(&[("r", 1, 8), ("c", 1, 8)]),
                answer: "the number of squares the king can move to",
                token: true,
                rule: "",
                random: |rng, _, _| ints(&[rng.range(1, 8), rng.range(1, 8)]),
                solve: |r| {
                    let side = |x: i64| if x == 1 || x == 8 { 2 } else { 3 };
                    (side(r.ints()[0]) * side(r.ints()[1]) - 1).to_string()
                },
                samples: || [ints(&[4, 5]), ints(&[1, 1])],
                edges: || vec![ints(&[8, 8]), ints(&[1, 5]), ints(&[5, 8])],
                case_sensitive: false,
                py: "def solve(r, c):\n    rows = 2 if r in (1, 8) else 3\n    cols = 2 if c in (1, 8) else 3\n    return rows * cols - 1\n",
                cpp: "std::string solve(long long r, long long c) {\n    int rows = (r == 1 || r == 8) ? 2 : 3;\n    int cols = (c == 1 || c == 8) ? 2 : 3;\n    return std::to_string(rows * cols - 1);\n}\n",
                wrong: vec![(
                    "corners_only.py",
                    "# Treats every square that is not a corner as a middle square.\ndef solve(r, c):\n    return 3 if r in (1, 8) and c in (1, 8) else 8\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "monthdays",
                title: "Calendar Page",
                family: Family::Dates,
                legend: "Find the number of days of month $m$ (1 is January, 12 is December) of year $y$ in the Gregorian calendar: February has 29 days in a leap year (a year divisible by 4, except that a year divisible by 100 must also be divisible by 400) and 28 otherwise.",
                shape: Shape::Ints(&[("y", 1, 9999), ("m", 1, 12)]),
                answer: "the number of days of month $m$ of year $y$",
                token: true,
                rule: "",
                random: |rng, _, _| {
                    ints(&[
                        rng.range(1, 2500),
                        if rng.range(0, 1) == 0 {
                            2
                        } else {
                            rng.range(1, 12)
                        },
                    ])
                },
                solve: |r| month_days(r.ints()[0])[r.ints()[1] as usize - 1].to_string(),
                samples: || [ints(&[2023, 4]), ints(&[2024, 2])],
                edges: || {
                    vec![
                        ints(&[1900, 2]),
                        ints(&[2000, 2]),
                        ints(&[9999, 12]),
                        ints(&[1, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(y, m):\n    if m == 2:\n        return 29 if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else 28\n    return 30 if m in (4, 6, 9, 11) else 31\n",
                cpp: "std::string solve(long long y, long long m) {\n    if (m == 2) return (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? \"29\" : \"28\";\n    return (m == 4 || m == 6 || m == 9 || m == 11) ? \"30\" : \"31\";\n}\n",
                wrong: vec![(
                    "every_fourth.py",
                    "# Takes every year divisible by 4 for a leap year.\ndef solve(y, m):\n    if m == 2:\n        return 29 if y % 4 == 0 else 28\n    return 30 if m in (4, 6, 9, 11) else 31\n",
                )],
            },
            vec![Layout::Single],
        ),
        (
            Task {
                id: "dayofyear",
                title: "Day Number",
                family: Family::Dates,
                legend: "Find the number of a date within its year in the Gregorian calendar: 1 January is day 1 and 31 December is day 365, or 366 in a leap year (a year divisible by 4, except that a year divisible by 100 must also be divisible by 400). The date is given as year $y$, month $m$ and day $d$, and it exists.",
                shape: Shape::Ints(&[("y", 1, 9999), ("m", 1, 12), ("d", 1, 31)]),
                answer: "the day's number within year $y$",
                token: true,
                rule: VALID_DATE,
                random: |rng, _, _| {
                    let y = rng.range(1, 2500);
                    let m = rng.range(1, 12);
                    let d = rng.range(1, month_days(y)[m as usize - 1]);
                    ints(&[y, m, d])
                },
                solve: |r| {
                    let v = r.ints();
                    (month_days(v[0])[..v[1] as usize - 1].iter().sum::<i64>() + v[2]).to_string()
                },
                samples: || [ints(&[2023, 2, 1]), ints(&[2024, 12, 31])],
                edges: || {
                    vec![
                        ints(&[1, 1, 1]),
                        ints(&[2000, 3, 1]),
                        ints(&[1900, 3, 1]),
                        ints(&[2023, 12, 31]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(y, m, d):\n    days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]\n    if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0):\n        days[1] = 29\n    return sum(days[:m - 1]) + d\n",
                cpp: "std::string solve(long long y, long long m, long long d) {\n    int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};\n    if (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) days[1] = 29;\n    long long total = d;\n    for (int i = 0; i < m - 1; i++) total += days[i];\n    return std::to_string(total);\n}\n",
                wrong: vec![(
                    "no_leap.py",
                    "# Forgets leap years.\ndef solve(y, m, d):\n    days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]\n    return sum(days[:m - 1]) + d\n",
                )],
            },
            vec![Layout::Single],
        ),
    ]
}

/// Other wordings of training tasks: a story around the same task, one test case.
pub(crate) fn wordings() -> Vec<Wording> {
    let story = |task, title, legend| Wording {
        task,
        suffix: "story",
        title,
        legend,
    };
    vec![
        story(
            "aplusb",
            "Two Wallets",
            "Ann has $a$ coins and Bob has $b$ coins; a negative number means a debt. They put everything together. How many coins do they have in total?",
        ),
        story(
            "aminusb",
            "Thermometer",
            "In the morning the temperature was $b$ degrees, and in the afternoon it was $a$ degrees. By how many degrees did it rise? (A fall is a negative rise.)",
        ),
        story(
            "sumthree",
            "Three Days of Sales",
            "A shop's profit was $a$ on Monday, $b$ on Tuesday and $c$ on Wednesday (a loss is negative). What was its profit over the three days?",
        ),
        story(
            "maxofthree",
            "High Jump",
            "Three athletes jumped $a$, $b$ and $c$ millimetres above a reference height (below it is negative). What is the best jump?",
        ),
        story(
            "sumton",
            "Pyramid of Cans",
            "A shop stacks cans in $n$ rows: 1 can in the top row, 2 in the next, and so on, $n$ cans in the bottom row. How many cans are in the stack?",
        ),
        story(
            "leapyear",
            "February the 29th",
            "Some years have a 29 February and others do not: in the Gregorian calendar they are the years divisible by 4, except the years divisible by 100 that are not divisible by 400. Does year $y$ have a 29 February?",
        ),
        story(
            "evenodd",
            "Pairing Up",
            "Socks come in pairs. A ledger entry $n$ counts socks, negative for socks owed; can the entry be split into whole pairs? Say whether $n$ is even or odd.",
        ),
        story(
            "listsum",
            "Bank Statement",
            "A bank account starts at 0, and $n$ transactions follow, each adding $a_i$ (a withdrawal is negative). What is the balance after all of them?",
        ),
        story(
            "listmax",
            "Warmest Day",
            "A weather station recorded one temperature $a_i$ each day for $n$ days. What was the highest temperature recorded?",
        ),
        story(
            "listmin",
            "Cheapest Offer",
            "A buyer receives $n$ offers; the $i$-th asks $a_i$ (a negative price means the seller pays). What is the lowest price offered?",
        ),
        story(
            "countvowels",
            "Singing Letters",
            "A singer can hold only vowels, the letters `a`, `e`, `i`, `o` and `u`. How many letters of the word $s$ can she hold?",
        ),
        story(
            "reverse",
            "Mirror Writing",
            "Leonardo wrote his notes from right to left. Write the word $s$ as he would: its letters in reverse order.",
        ),
        story(
            "palindrome",
            "Same Both Ways",
            "A palindrome reads the same from left to right as from right to left, as `level` and `noon` do. Say whether the word $s$ is a palindrome.",
        ),
        story(
            "grade",
            "Exam Results",
            "A teacher marks exams out of 100: a score of 90 or more earns `A`, 80 to 89 earns `B`, 70 to 79 earns `C`, 60 to 69 earns `D`, and anything below 60 earns `F`. Which grade does the score $s$ earn?",
        ),
    ]
}
