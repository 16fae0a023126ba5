//! The second batch of held-out tasks of the training families (in-family): new solvers
//! of arithmetic, strings, lists, loops and conditions problems, never trained on, so that
//! the in-family figure rests on more than the first batch's ten tasks
//! (`tasks::held_out`).

use crate::families::{Family, LOWER, Size, text_len, value, values, word};
use crate::rng::Rng;
use crate::tasks::{
    E9, E18, JOINED, LIST, NUMBERED, PER_LINE, WORD, any_list, ints, list_values, random_word, text,
};
use crate::variants::{Layout, Record, Shape, Task};

/// Whether sticks of lengths `a`, `b` and `c` form a triangle of positive area.
fn is_triangle(a: i64, b: i64, c: i64) -> bool {
    a < b + c && b < a + c && c < a + b
}

/// A word whose first letters are all different, then (mostly) random letters: its first
/// repeated letter may come early, late or never.
fn distinct_then_random(rng: &mut Rng, size: Size, _: usize) -> Record {
    let mut letters: Vec<u8> = LOWER.to_vec();
    rng.shuffle(&mut letters);
    let distinct = rng.range(1, 26) as usize;
    let mut s = String::from_utf8(letters[..distinct].to_vec()).expect("ascii");
    if rng.range(0, 3) != 0 {
        let rest = text_len(rng, size).min(1000 - distinct);
        s.push_str(&word(rng, rest, LOWER));
    }
    Record::Text(s)
}

/// A list of small values (many ties) or of values anywhere.
fn small_or_any_list(rng: &mut Rng, size: Size, n: usize) -> Record {
    if rng.range(0, 1) == 0 {
        Record::Ints(list_values(rng, size, n, -20, 20))
    } else {
        any_list(rng, size, n)
    }
}

/// The tasks with their layouts. It is long because it is a table of data: each task's
/// shape, solver, generator and code.
pub(crate) fn tasks() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "farmlegs",
                title: "Counting Legs",
                family: Family::Arithmetic,
                legend: "A farm keeps $c$ chickens, with two legs each, and $k$ cows, with four legs each. Count the legs of all the animals.",
                shape: Shape::Ints(&[("c", 0, E9), ("k", 0, E9)]),
                answer: "the number of legs $2c + 4k$",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, 0, E9)),
                solve: |r| (2 * r.ints()[0] + 4 * r.ints()[1]).to_string(),
                samples: || [ints(&[3, 2]), ints(&[0, 5])],
                edges: || vec![ints(&[E9, E9]), ints(&[0, 0]), ints(&[1, 0]), ints(&[0, 1])],
                case_sensitive: false,
                py: "def solve(c, k):\n    return 2 * c + 4 * k\n",
                cpp: "std::string solve(long long c, long long k) {\n    return std::to_string(2 * c + 4 * k);\n}\n",
                wrong: vec![
                    (
                        "int_overflow.cpp",
                        "// Counts in 32 bits: the total overflows when the animals are many.\nstd::string solve(long long c, long long k) {\n    int legs = (int)(2u * (unsigned)c + 4u * (unsigned)k);\n    return std::to_string(legs);\n}\n",
                    ),
                    (
                        "swapped.py",
                        "# Gives the chickens four legs and the cows two.\ndef solve(c, k):\n    return 4 * c + 2 * k\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "toseconds",
                title: "Countdown",
                family: Family::Arithmetic,
                legend: "A countdown timer is set to $d$ days, $h$ hours, $m$ minutes and $s$ seconds. Find the time in seconds: a day has 24 hours, an hour has 60 minutes and a minute has 60 seconds.",
                shape: Shape::Ints(&[("d", 0, E9), ("h", 0, 23), ("m", 0, 59), ("s", 0, 59)]),
                answer: "the number of seconds the timer is set to",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let d = value(rng, size, 0, E9);
                    ints(&[d, rng.range(0, 23), rng.range(0, 59), rng.range(0, 59)])
                },
                solve: |r| {
                    let v = r.ints();
                    (v[0] * 86_400 + v[1] * 3600 + v[2] * 60 + v[3]).to_string()
                },
                samples: || [ints(&[0, 1, 1, 1]), ints(&[2, 0, 0, 5])],
                edges: || {
                    vec![
                        ints(&[0, 0, 0, 0]),
                        ints(&[E9, 23, 59, 59]),
                        ints(&[1, 0, 0, 0]),
                        ints(&[0, 23, 59, 59]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(d, h, m, s):\n    return d * 86400 + h * 3600 + m * 60 + s\n",
                cpp: "std::string solve(long long d, long long h, long long m, long long s) {\n    return std::to_string(d * 86400 + h * 3600 + m * 60 + s);\n}\n",
                wrong: vec![
                    (
                        "day_in_minutes.py",
                        "# Counts a day as 24 * 60 seconds: a factor of 60 is missing.\ndef solve(d, h, m, s):\n    return d * 24 * 60 + h * 3600 + m * 60 + s\n",
                    ),
                    (
                        "int_overflow.cpp",
                        "// Counts in 32 bits: many days overflow.\nstd::string solve(long long d, long long h, long long m, long long s) {\n    int total = (int)((unsigned)d * 86400u + (unsigned)(h * 3600 + m * 60 + s));\n    return std::to_string(total);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "firstrepeat",
                title: "Seen Before",
                family: Family::Strings,
                legend: "Read a word from left to right and stop at the first letter that has already appeared earlier in the word. Find that letter. If no letter appears twice, the answer is `none`.",
                shape: WORD,
                answer: "the first letter of $s$ that repeats an earlier letter, or `none` if no letter occurs twice in $s$",
                token: true,
                rule: "",
                random: distinct_then_random,
                solve: |r| {
                    let mut seen = std::collections::BTreeSet::new();
                    match r.text().chars().find(|c| !seen.insert(*c)) {
                        Some(c) => c.to_string(),
                        None => "none".to_owned(),
                    }
                },
                samples: || [text("programming"), text("world")],
                edges: || {
                    vec![
                        text("a"),
                        text("abba"),
                        text("aa"),
                        text("abcdefghijklmnopqrstuvwxyz"),
                        text("abcdefghijklmnopqrstuvwxyza"),
                        text("xyzzyx"),
                    ]
                },
                case_sensitive: false,
                py: "def solve(s):\n    seen = set()\n    for c in s:\n        if c in seen:\n            return c\n        seen.add(c)\n    return \"none\"\n",
                cpp: "std::string solve(const std::string &s) {\n    bool seen[26] = {false};\n    for (char c : s) {\n        if (seen[c - 'a']) return std::string(1, c);\n        seen[c - 'a'] = true;\n    }\n    return \"none\";\n}\n",
                wrong: vec![(
                    "earliest_letter.py",
                    "# Finds the earliest letter that occurs again later: abba gives a, not b.\ndef solve(s):\n    for c in s:\n        if s.count(c) > 1:\n            return c\n    return \"none\"\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "wordvalue",
                title: "Letter Values",
                family: Family::Strings,
                legend: "Every letter has a value: its place in the alphabet, from 1 for `a` to 26 for `z`. Find the value of a word: the sum of the values of its letters.",
                shape: WORD,
                answer: "the sum of the values of the letters of $s$",
                token: true,
                rule: "",
                random: random_word,
                solve: |r| {
                    r.text()
                        .bytes()
                        .map(|b| i64::from(b - b'a') + 1)
                        .sum::<i64>()
                        .to_string()
                },
                samples: || [text("abc"), text("zoo")],
                edges: || vec![text("a"), text("z"), text(&"z".repeat(1000))],
                case_sensitive: false,
                py: "def solve(s):\n    return sum(ord(c) - ord(\"a\") + 1 for c in s)\n",
                cpp: "std::string solve(const std::string &s) {\n    long long total = 0;\n    for (char c : s) total += c - 'a' + 1;\n    return std::to_string(total);\n}\n",
                wrong: vec![(
                    "from_zero.py",
                    "# Counts a as 0 and z as 25: every letter is one short.\ndef solve(s):\n    return sum(ord(c) - ord(\"a\") for c in s)\n",
                )],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "maxindex",
                title: "Where Is the Top",
                family: Family::Lists,
                legend: "You are given a list of integers $a_1, \\ldots, a_n$. Find the position of its largest value, counting positions from 1. If the largest value occurs more than once, give its first position.",
                shape: LIST,
                answer: "the smallest $i$ such that $a_i$ is the largest value of the list",
                token: true,
                rule: "",
                random: small_or_any_list,
                solve: |r| {
                    let v = r.ints();
                    let top = v.iter().max().expect("n >= 1");
                    (v.iter().position(|x| x == top).expect("the maximum") + 1).to_string()
                },
                samples: || [ints(&[3, 9, 2, 9]), ints(&[-5])],
                edges: || {
                    vec![
                        ints(&[7, 7, 7]),
                        ints(&[-3, -1, -2]),
                        ints(&[-E9, -E9]),
                        ints(&[1, 2]),
                        ints(&[E9, -E9, E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    return a.index(max(a)) + 1\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    return std::to_string(std::max_element(a.begin(), a.end()) - a.begin() + 1);\n}\n",
                wrong: vec![(
                    "last_max.py",
                    "# Compares with >=, so a tie moves the answer: it gives the last position of the largest value.\ndef solve(a):\n    best = 0\n    for i in range(len(a)):\n        if a[i] >= a[best]:\n            best = i\n    return best + 1\n",
                )],
            },
            vec![Layout::Single, Layout::Bare],
        ),
        (
            Task {
                id: "aboveaverage",
                title: "Better Than Average",
                family: Family::Lists,
                legend: "You are given a list of integers. Count the values that are greater than the average of the list: the sum of the values divided by $n$, which need not be an integer.",
                shape: LIST,
                answer: "how many $a_i$ are greater than $(a_1 + \\cdots + a_n) / n$",
                token: true,
                rule: "",
                random: small_or_any_list,
                solve: |r| {
                    let v = r.ints();
                    let (total, n) = (v.iter().sum::<i64>(), v.len() as i64);
                    v.iter().filter(|x| *x * n > total).count().to_string()
                },
                samples: || [ints(&[1, 2, 3, 4]), ints(&[5, 5, 5])],
                edges: || {
                    vec![
                        ints(&[-1, -2]),
                        ints(&[7]),
                        ints(&[E9, E9, -E9]),
                        ints(&[0, 0, 1]),
                        ints(&[-E9, -E9, -E9 + 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a):\n    total = sum(a)\n    return sum(1 for x in a if x * len(a) > total)\n",
                cpp: "std::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (long long x : a) total += x;\n    long long n = a.size();\n    int count = 0;\n    for (long long x : a) if (x * n > total) count++;\n    return std::to_string(count);\n}\n",
                wrong: vec![
                    (
                        "truncates.cpp",
                        "// Divides with /, which rounds a negative average towards zero: -1.5 becomes -1.\nstd::string solve(const std::vector<long long> &a) {\n    long long total = 0;\n    for (long long x : a) total += x;\n    long long average = total / (long long)a.size();\n    int count = 0;\n    for (long long x : a) if (x > average) count++;\n    return std::to_string(count);\n}\n",
                    ),
                    (
                        "at_least.py",
                        "# Counts the values equal to the average too.\ndef solve(a):\n    total = sum(a)\n    return sum(1 for x in a if x * len(a) >= total)\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Inline],
        ),
        (
            Task {
                id: "digitalroot",
                title: "Down to One Digit",
                family: Family::Loops,
                legend: "Add up the decimal digits of a non-negative integer $n$, then add up the digits of the result, and so on, until a single digit is left. Find that digit.",
                shape: Shape::Ints(&[("n", 0, E18)]),
                answer: "the digit that is left",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 0, E18)]),
                solve: |r| {
                    let mut n = r.ints()[0];
                    while n >= 10 {
                        let mut sum = 0;
                        while n > 0 {
                            sum += n % 10;
                            n /= 10;
                        }
                        n = sum;
                    }
                    n.to_string()
                },
                samples: || [ints(&[493]), ints(&[5])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[E18]),
                        ints(&[E18 - 1]),
                        ints(&[10]),
                        ints(&[99]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    while n >= 10:\n        n = sum(int(d) for d in str(n))\n    return n\n",
                cpp: "std::string solve(long long n) {\n    while (n >= 10) {\n        long long sum = 0;\n        for (; n > 0; n /= 10) sum += n % 10;\n        n = sum;\n    }\n    return std::to_string(n);\n}\n",
                wrong: vec![(
                    "one_pass.py",
                    "# Adds the digits once: 99 gives 18, not 9.\ndef solve(n):\n    return sum(int(d) for d in str(n))\n",
                )],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "halvings",
                title: "Halve It",
                family: Family::Loops,
                legend: "Start from $n$ and halve it, rounding down, until it is 1: at each step the number $x$ becomes $\\lfloor x / 2 \\rfloor$. Count the steps.",
                shape: Shape::Ints(&[("n", 1, E18)]),
                answer: "the number of steps from $n$ to 1",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&[value(rng, size, 1, E18)]),
                solve: |r| {
                    let (mut n, mut steps) = (r.ints()[0], 0);
                    while n > 1 {
                        n /= 2;
                        steps += 1;
                    }
                    steps.to_string()
                },
                samples: || [ints(&[10]), ints(&[1])],
                edges: || {
                    vec![
                        ints(&[2]),
                        ints(&[3]),
                        ints(&[E18]),
                        ints(&[(1 << 59) - 1]),
                        ints(&[1 << 59]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    steps = 0\n    while n > 1:\n        n //= 2\n        steps += 1\n    return steps\n",
                cpp: "std::string solve(long long n) {\n    int steps = 0;\n    while (n > 1) {\n        n /= 2;\n        steps++;\n    }\n    return std::to_string(steps);\n}\n",
                wrong: vec![
                    (
                        "float_log.py",
                        "# Takes the logarithm in floating point: 2^59 - 1 rounds to 2^59 and gives 59, not 58.\nimport math\n\n\ndef solve(n):\n    return int(math.log2(n))\n",
                    ),
                    (
                        "until_zero.py",
                        "# Halves until the number is 0: one step too many.\ndef solve(n):\n    steps = 0\n    while n > 0:\n        n //= 2\n        steps += 1\n    return steps\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "triangletype",
                title: "Kind of Triangle",
                family: Family::Conditions,
                legend: "Three sticks of lengths $a$, $b$ and $c$ form a triangle: each length is smaller than the sum of the other two. Name its kind by its sides: `equilateral` if all three lengths are equal, `isosceles` if exactly two of them are equal, and `scalene` if all three are different.",
                shape: Shape::Ints(&[("a", 1, E9), ("b", 1, E9), ("c", 1, E9)]),
                answer: "`equilateral`, `isosceles` or `scalene`: the kind of the triangle",
                token: true,
                rule: "v[0] < v[1] + v[2] and v[1] < v[0] + v[2] and v[2] < v[0] + v[1]",
                random: |rng, size, _| {
                    let a = value(rng, size, 1, E9);
                    let b = if rng.range(0, 3) == 0 {
                        a
                    } else {
                        value(rng, size, 1, E9)
                    };
                    let c = match rng.range(0, 3) {
                        0 if is_triangle(a, b, a) => a,
                        1 if is_triangle(a, b, b) => b,
                        _ => rng.range((a - b).abs() + 1, (a + b - 1).min(E9)),
                    };
                    let v = [a, b, c];
                    let k = rng.range(0, 2) as usize;
                    ints(&[v[k], v[(k + 1) % 3], v[(k + 2) % 3]])
                },
                solve: |r| {
                    let v = r.ints();
                    if v[0] == v[1] && v[1] == v[2] {
                        "equilateral"
                    } else if v[0] == v[1] || v[1] == v[2] || v[0] == v[2] {
                        "isosceles"
                    } else {
                        "scalene"
                    }
                    .to_owned()
                },
                samples: || [ints(&[3, 4, 5]), ints(&[5, 5, 8])],
                edges: || {
                    vec![
                        ints(&[7, 7, 7]),
                        ints(&[3, 4, 3]),
                        ints(&[4, 3, 3]),
                        ints(&[E9, E9, E9]),
                        ints(&[E9, E9, 1]),
                        ints(&[2, 3, 4]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, c):\n    if a == b == c:\n        return \"equilateral\"\n    if a == b or b == c or a == c:\n        return \"isosceles\"\n    return \"scalene\"\n",
                cpp: "std::string solve(long long a, long long b, long long c) {\n    if (a == b && b == c) return \"equilateral\";\n    if (a == b || b == c || a == c) return \"isosceles\";\n    return \"scalene\";\n}\n",
                wrong: vec![(
                    "neighbours_only.py",
                    "# Compares neighbouring sides only: a equal to c is missed.\ndef solve(a, b, c):\n    if a == b == c:\n        return \"equilateral\"\n    if a == b or b == c:\n        return \"isosceles\"\n    return \"scalene\"\n",
                )],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "waterstate",
                title: "Ice, Water or Steam",
                family: Family::Conditions,
                legend: "At normal pressure, water is ice below 0 degrees Celsius and steam above 100 degrees; from 0 to 100 degrees, both included, it is liquid. Say which it is at a temperature of $t$ degrees.",
                shape: Shape::Ints(&[("t", -273, 1000)]),
                answer: "`ice` if $t < 0$, `water` if $0 \\le t \\le 100$ and `steam` if $t > 100$",
                token: true,
                rule: "",
                random: |rng, _, _| {
                    ints(&[match rng.range(0, 3) {
                        0 => rng.range(-273, -1),
                        1 => rng.range(0, 100),
                        2 => rng.range(101, 1000),
                        _ => rng.range(-2, 102),
                    }])
                },
                solve: |r| {
                    let t = r.ints()[0];
                    if t < 0 {
                        "ice"
                    } else if t > 100 {
                        "steam"
                    } else {
                        "water"
                    }
                    .to_owned()
                },
                samples: || [ints(&[25]), ints(&[-10])],
                edges: || {
                    vec![
                        ints(&[0]),
                        ints(&[100]),
                        ints(&[101]),
                        ints(&[-1]),
                        ints(&[-273]),
                        ints(&[1000]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(t):\n    if t < 0:\n        return \"ice\"\n    if t > 100:\n        return \"steam\"\n    return \"water\"\n",
                cpp: "std::string solve(long long t) {\n    if (t < 0) return \"ice\";\n    if (t > 100) return \"steam\";\n    return \"water\";\n}\n",
                wrong: vec![(
                    "boundaries.py",
                    "# Freezes at 0 and boils at 100: both ends of the liquid range are wrong.\ndef solve(t):\n    if t <= 0:\n        return \"ice\"\n    if t >= 100:\n        return \"steam\"\n    return \"water\"\n",
                )],
            },
            vec![Layout::Single, NUMBERED],
        ),
    ]
}
