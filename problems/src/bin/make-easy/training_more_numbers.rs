//! The fourth batch of training tasks, of the number families (arithmetic, loops,
//! conditions): twenty new tasks, each a classic beginner computation that no other task
//! of the set (training, validation or held out) computes, for more breadth of distinct
//! solvers in training. Each comes in two layouts.

use crate::families::{E6, Family, Size, value, values};
use crate::rng::Rng;
use crate::tasks::{E9, JOINED, NUMBERED, PER_LINE, ints, yes};
use crate::variants::{Layout, Record, Shape, Task, join};

/// The least cost of `n` rides, a single ride costing `a` and a card of `m` rides `b`;
/// more rides than needed may be bought.
fn cheap_travel(n: i64, m: i64, a: i64, b: i64) -> i64 {
    let cards = n / m * b + (n % m * a).min(b);
    cards.min(n * a)
}

/// The least cost of `s` sections on at most `c` radiators, `k` sections costing `k^2`:
/// the sections spread as evenly as they go.
fn radiators_cost(c: i64, s: i64) -> i64 {
    let (q, r) = (s / c, s % c);
    r * (q + 1) * (q + 1) + (c - r) * q * q
}

/// The hours of light from `a` candles when `b` stubs make a new candle.
fn candle_hours(a: i64, b: i64) -> i64 {
    let (mut hours, mut stubs) = (a, a);
    while stubs >= b {
        let new = stubs / b;
        hours += new;
        stubs = stubs % b + new;
    }
    hours
}

/// The number (from 1) of the last of `n` children in a circle when every `k`-th leaves.
fn josephus(n: i64, k: i64) -> i64 {
    let mut winner = 0;
    for size in 2..=n {
        winner = (winner + k) % size;
    }
    winner + 1
}

/// The likes of an advertisement after `n` days: 5 people see it on day 1, half of the
/// day's viewers (rounded down) like it, and each liker shows it to 3 people the next day.
fn viral_likes(n: i64) -> i64 {
    let (mut shown, mut likes) = (5, 0);
    for _ in 0..n {
        let liked = shown / 2;
        likes += liked;
        shown = liked * 3;
    }
    likes
}

/// The distance covered in `x` seconds by a jogger who runs `speed` metres a second for
/// `run` seconds, then rests for `rest` seconds, and again.
fn jog_distance(run: i64, speed: i64, rest: i64, x: i64) -> i64 {
    let mut distance = 0;
    for second in 0..x {
        if second % (run + rest) < run {
            distance += speed;
        }
    }
    distance
}

/// Whether `c` is `a x + b y` for some `x, y >= 0`.
fn exact_damage(a: i64, b: i64, c: i64) -> bool {
    (0..=c / a).any(|x| (c - a * x) % b == 0)
}

/// The most stones taken from heaps `a`, `b`, `c` by moves (1 from `a`, 2 from `b`) and
/// (1 from `b`, 2 from `c`): every count of moves of the second kind is tried.
fn stone_heaps(a: i64, b: i64, c: i64) -> i64 {
    (0..=b.min(c / 2))
        .map(|second| 3 * (second + a.min((b - second) / 2)))
        .max()
        .unwrap_or(0)
}

/// The possible numbers on the last of `n` stones, the first marked 0 and each next one
/// `a` or `b` more, in increasing order without repeats.
fn stone_trail(n: i64, a: i64, b: i64) -> String {
    let mut marks: Vec<i64> = (0..n).map(|i| (n - 1 - i) * a + i * b).collect();
    marks.sort_unstable();
    marks.dedup();
    join(&marks, " ")
}

/// Whether kangaroos starting at `a` and `b` with hops `u` and `v` ever meet after the same
/// number of hops (0 included).
fn kangaroos_meet(a: i64, u: i64, b: i64, v: i64) -> bool {
    if a == b {
        return true;
    }
    let (gap, closing) = (b - a, u - v);
    closing != 0 && gap % closing == 0 && gap / closing > 0
}

/// Who of father, mother and child first lacks shampoo: `v` millilitres, used `a`, `b`,
/// `c` in turn.
fn shampoo(v: i64, a: i64, b: i64, c: i64) -> String {
    let left = v % (a + b + c);
    if left < a {
        "father"
    } else if left < a + b {
        "mother"
    } else {
        "child"
    }
    .to_owned()
}

/// The result of the first roll of craps with the dice `a` and `b`.
fn craps(a: i64, b: i64) -> String {
    match a + b {
        7 | 11 => "win",
        2 | 3 | 12 => "lose",
        _ => "point",
    }
    .to_owned()
}

/// The fewest moves (add an odd number, or subtract an even one) from `a` to `b`.
fn odd_even_moves(a: i64, b: i64) -> i64 {
    let d = b - a;
    if d == 0 {
        0
    } else if (d > 0 && d % 2 != 0) || (d < 0 && d % 2 == 0) {
        1
    } else {
        2
    }
}

/// A test case of `kangaroo`: half of them meet, the others almost or not at all.
fn random_kangaroos(rng: &mut Rng, size: Size) -> Record {
    let (hop, lo) = match size {
        Size::Small => (10, rng.range(0, 100)),
        _ => (10_000, rng.range(0, E9 / 4)),
    };
    let (u, v) = (rng.range(1, hop), rng.range(1, hop));
    let t = rng.range(1, 1000);
    let miss = match rng.range(0, 3) {
        0 | 1 => 0,
        2 => 1,
        _ => rng.range(0, E9 / 4),
    };
    // The one behind is the faster one: it starts t * |u - v| behind.
    let behind = t * (u - v).abs();
    let (a, b) = if u >= v {
        (lo, lo + behind + miss)
    } else {
        (lo + behind + miss, lo)
    };
    ints(&[a, u, b, v])
}

/// A test case of `sisters`: often exactly enough coins (or a few more).
fn random_sisters(rng: &mut Rng, size: Size) -> Record {
    if rng.range(0, 1) == 0 {
        return ints(&values(rng, size, 4, 1, E9));
    }
    let v = values(rng, size, 3, 1, E9 / 4);
    let most = v.iter().copied().max().unwrap_or(1);
    let base = 3 * most - v.iter().sum::<i64>();
    let n = (base + rng.range(0, 3)).max(1);
    ints(&[v[0], v[1], v[2], n])
}

/// The tasks with their layouts. It is long because it is a table of data: each task's
/// shape, solver, generator and code.
pub(crate) fn tasks() -> Vec<(Task, Vec<Layout>)> {
    vec![
        (
            Task {
                id: "twiceasold",
                title: "Father and Son",
                family: Family::Arithmetic,
                legend: "A father is $f$ years old and his son is $s$ years old, younger than him. In how many years will the father be exactly twice as old as the son? If that moment is in the past, the answer is negative: $-3$ means three years ago.",
                shape: Shape::Ints(&[("f", 1, E9), ("s", 0, E9)]),
                answer: "the number of years $x$ with $f + x = 2(s + x)$ (negative if the moment has passed)",
                token: true,
                rule: "v[1] < v[0]",
                random: |rng, size, _| {
                    let f = value(rng, size, 1, E9);
                    ints(&[f, rng.range(0, f - 1)])
                },
                solve: |r| (r.ints()[0] - 2 * r.ints()[1]).to_string(),
                samples: || [ints(&[40, 15]), ints(&[50, 30])],
                edges: || {
                    vec![
                        ints(&[1, 0]),
                        ints(&[2, 1]),
                        ints(&[3, 1]),
                        ints(&[E9, 0]),
                        ints(&[E9, E9 - 1]),
                        ints(&[E9, E9 / 2]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(f, s):\n    return f - 2 * s\n",
                cpp: "std::string solve(long long f, long long s) {\n    return std::to_string(f - 2 * s);\n}\n",
                wrong: vec![
                    (
                        "sign.py",
                        "# Solves f - x = 2(s - x): counts the years into the past as positive, the sign flipped.\ndef solve(f, s):\n    return 2 * s - f\n",
                    ),
                    (
                        "age_gap.cpp",
                        "// Answers with the age gap f - s, which is the son's age at that moment.\nstd::string solve(long long f, long long s) {\n    return std::to_string(f - s);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "pageturns",
                title: "Flipping Through",
                family: Family::Arithmetic,
                legend: "A book has pages numbered from 1 to $n$. When it is opened at the front, page 1 is on the right, and each turn of a page shows the next two pages: 2 and 3, then 4 and 5, and so on; the last page may be on the left or on the right. You may open the book at the front or at the back (where the last page shows) and turn pages one at a time from there. Find the fewest turns needed to see page $p$.",
                shape: Shape::Ints(&[("n", 1, E9), ("p", 1, E9)]),
                answer: "the fewest page turns",
                token: true,
                rule: "v[1] <= v[0]",
                random: |rng, size, _| {
                    let n = value(rng, size, 1, E9);
                    ints(&[n, rng.range(1, n)])
                },
                solve: |r| {
                    let (n, p) = (r.ints()[0], r.ints()[1]);
                    (p / 2).min(n / 2 - p / 2).to_string()
                },
                samples: || [ints(&[6, 2]), ints(&[5, 4])],
                edges: || {
                    vec![
                        ints(&[1, 1]),
                        ints(&[2, 2]),
                        ints(&[6, 5]),
                        ints(&[5, 3]),
                        ints(&[E9, 1]),
                        ints(&[E9, E9 / 2]),
                        ints(&[E9 - 1, E9 - 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n, p):\n    return min(p // 2, n // 2 - p // 2)\n",
                cpp: "std::string solve(long long n, long long p) {\n    return std::to_string(std::min(p / 2, n / 2 - p / 2));\n}\n",
                wrong: vec![
                    (
                        "pages_from_back.py",
                        "# Counts the pages after p and halves them, instead of counting the spreads.\ndef solve(n, p):\n    return min(p // 2, (n - p) // 2)\n",
                    ),
                    (
                        "front_only.cpp",
                        "// Always opens the book at the front.\nstd::string solve(long long n, long long p) {\n    return std::to_string(p / 2);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "tools",
                title: "Shovels and Swords",
                family: Family::Arithmetic,
                legend: "A shovel is made of two sticks and one diamond, and a sword of two diamonds and one stick. You have $a$ sticks and $b$ diamonds, and every tool you make sells for one emerald. Find the most emeralds you can earn.",
                shape: Shape::Ints(&[("a", 0, E9), ("b", 0, E9)]),
                answer: "the most emeralds",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, 0, E9)),
                solve: |r| {
                    let (a, b) = (r.ints()[0], r.ints()[1]);
                    a.min(b).min((a + b) / 3).to_string()
                },
                samples: || [ints(&[4, 4]), ints(&[7, 15])],
                edges: || {
                    vec![
                        ints(&[0, 0]),
                        ints(&[E9, 0]),
                        ints(&[1, 1]),
                        ints(&[2, 1]),
                        ints(&[3, 3]),
                        ints(&[1, E9]),
                        ints(&[E9, E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    return min(a, b, (a + b) // 3)\n",
                cpp: "std::string solve(long long a, long long b) {\n    return std::to_string(std::min({a, b, (a + b) / 3}));\n}\n",
                wrong: vec![
                    (
                        "material_only.py",
                        "# Counts only the material, three pieces a tool, and forgets that each tool\n# needs at least one stick and one diamond.\ndef solve(a, b):\n    return (a + b) // 3\n",
                    ),
                    (
                        "one_kind.cpp",
                        "// Makes only one kind of tool, the one that uses twice the more plentiful material.\nstd::string solve(long long a, long long b) {\n    return std::to_string(std::min(std::max(a, b) / 2, std::min(a, b)));\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "radiators",
                title: "Warm Room",
                family: Family::Arithmetic,
                legend: "A room needs $s$ heating sections in total, and they go on at most $c$ radiators. A radiator with $k$ sections costs $k^2$ coins, and an unused radiator costs nothing. Find the least total cost.",
                shape: Shape::Ints(&[("c", 1, E9), ("s", 1, E9)]),
                answer: "the least total cost",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, 1, E9)),
                solve: |r| radiators_cost(r.ints()[0], r.ints()[1]).to_string(),
                samples: || [ints(&[2, 6]), ints(&[4, 3])],
                edges: || {
                    vec![
                        ints(&[1, 1]),
                        ints(&[1, E9]),
                        ints(&[E9, 1]),
                        ints(&[E9, E9]),
                        ints(&[3, 10]),
                        ints(&[2, E9 - 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(c, s):\n    q, r = divmod(s, c)\n    return r * (q + 1) ** 2 + (c - r) * q ** 2\n",
                cpp: "std::string solve(long long c, long long s) {\n    long long q = s / c, r = s % c;\n    return std::to_string(r * (q + 1) * (q + 1) + (c - r) * q * q);\n}\n",
                wrong: vec![
                    (
                        "drops_rest.py",
                        "# Gives every radiator s // c sections and forgets the remaining s % c.\ndef solve(c, s):\n    return c * (s // c) ** 2\n",
                    ),
                    (
                        "rounds_up.cpp",
                        "// Prices every radiator at the larger share, s / c rounded up.\nstd::string solve(long long c, long long s) {\n    long long k = (s + c - 1) / c;\n    return std::to_string(c * k * k);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "cheaptravel",
                title: "Bus Pass",
                family: Family::Arithmetic,
                legend: "A single bus ride costs $a$ coins, and a card good for $m$ rides costs $b$ coins. You need $n$ rides, and you may buy more rides than you need. Find the least you can pay.",
                shape: Shape::Ints(&[("n", 1, E6), ("m", 1, E6), ("a", 1, E6), ("b", 1, E6)]),
                answer: "the least amount to pay for $n$ rides",
                token: true,
                rule: "",
                random: |rng, size, _| match size {
                    Size::Small => ints(&values(rng, size, 4, 1, 20)),
                    _ => {
                        let (m, a) = (rng.range(1, 1000), rng.range(1, 1000));
                        let b = (a * m + rng.range(-a * m / 2, a * m / 2)).clamp(1, E6);
                        ints(&[value(rng, size, 1, E6), m, a, b])
                    }
                },
                solve: |r| {
                    let v = r.ints();
                    cheap_travel(v[0], v[1], v[2], v[3]).to_string()
                },
                samples: || [ints(&[6, 2, 1, 2]), ints(&[5, 2, 2, 3])],
                edges: || {
                    vec![
                        ints(&[1, 1, 1, 1]),
                        ints(&[1, E6, 1, E6]),
                        ints(&[E6, E6, E6, 1]),
                        ints(&[E6, 1, E6, E6]),
                        ints(&[7, 3, 5, 12]),
                        ints(&[8, 3, 5, 12]),
                        ints(&[9, 10, 2, 15]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n, m, a, b):\n    cards = n // m * b + min(n % m * a, b)\n    return min(cards, n * a)\n",
                cpp: "std::string solve(long long n, long long m, long long a, long long b) {\n    long long cards = n / m * b + std::min(n % m * a, b);\n    return std::to_string(std::min(cards, n * a));\n}\n",
                wrong: vec![
                    (
                        "no_extra_card.py",
                        "# Pays the rides left after the full cards singly, never with one more card.\ndef solve(n, m, a, b):\n    return min(n // m * b + n % m * a, n * a)\n",
                    ),
                    (
                        "cards_or_singles.cpp",
                        "// Pays either all rides singly or all of them with cards, never a mix.\nstd::string solve(long long n, long long m, long long a, long long b) {\n    return std::to_string(std::min(n * a, (n + m - 1) / m * b));\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "pour",
                title: "Two Bottles",
                family: Family::Arithmetic,
                legend: "The first bottle holds at most $a$ millilitres and contains $b$ millilitres of water. The second bottle contains $c$ millilitres. You pour water from the second bottle into the first until the first is full or the second is empty. How much water is left in the second bottle?",
                shape: Shape::Ints(&[("a", 1, E9), ("b", 0, E9), ("c", 0, E9)]),
                answer: "the millilitres left in the second bottle",
                token: true,
                rule: "v[1] <= v[0]",
                random: |rng, size, _| {
                    let a = value(rng, size, 1, E9);
                    let b = rng.range(0, a);
                    let c = if rng.range(0, 1) == 0 {
                        value(rng, size, 0, E9)
                    } else {
                        (a - b + rng.range(-100, 100)).clamp(0, E9)
                    };
                    ints(&[a, b, c])
                },
                solve: |r| {
                    let (a, b, c) = (r.ints()[0], r.ints()[1], r.ints()[2]);
                    (c - (a - b)).max(0).to_string()
                },
                samples: || [ints(&[6, 4, 3]), ints(&[10, 2, 5])],
                edges: || {
                    vec![
                        ints(&[1, 1, 0]),
                        ints(&[1, 0, 1]),
                        ints(&[1, 0, 2]),
                        ints(&[E9, 0, E9]),
                        ints(&[E9, E9, E9]),
                        ints(&[E9, 0, 0]),
                        ints(&[5, 3, 2]),
                        ints(&[5, 3, 3]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, c):\n    return max(0, c - (a - b))\n",
                cpp: "std::string solve(long long a, long long b, long long c) {\n    return std::to_string(std::max(0LL, c - (a - b)));\n}\n",
                wrong: vec![
                    (
                        "negative_left.py",
                        "# Forgets that the second bottle can run dry: the answer goes negative.\ndef solve(a, b, c):\n    return c - (a - b)\n",
                    ),
                    (
                        "empty_first.cpp",
                        "// Forgets the water already in the first bottle: it takes a whole a millilitres.\nstd::string solve(long long a, long long b, long long c) {\n    return std::to_string(std::max(0LL, c - a));\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "applepie",
                title: "Baking Day",
                family: Family::Arithmetic,
                legend: "You have $a$ whole apples and $p$ pieces of apple. Cutting a whole apple gives three pieces, and a pie takes two pieces. Find the most pies you can bake.",
                shape: Shape::Ints(&[("a", 0, E9), ("p", 0, E9)]),
                answer: "the most pies",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, 0, E9)),
                solve: |r| ((3 * r.ints()[0] + r.ints()[1]) / 2).to_string(),
                samples: || [ints(&[1, 3]), ints(&[0, 1])],
                edges: || {
                    vec![
                        ints(&[0, 0]),
                        ints(&[1, 0]),
                        ints(&[0, 2]),
                        ints(&[1, 1]),
                        ints(&[E9, E9]),
                        ints(&[E9, E9 - 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, p):\n    return (3 * a + p) // 2\n",
                cpp: "std::string solve(long long a, long long p) {\n    return std::to_string((3 * a + p) / 2);\n}\n",
                wrong: vec![
                    (
                        "rounds_each.py",
                        "# Bakes the pieces from apples and the loose pieces separately: an odd piece\n# of each is wasted.\ndef solve(a, p):\n    return 3 * a // 2 + p // 2\n",
                    ),
                    (
                        "int_overflow.cpp",
                        "// Counts the pieces in a 32-bit int: 3a + p overflows.\nstd::string solve(long long a, long long p) {\n    int pieces = (int)(3 * a + p);\n    return std::to_string(pieces / 2);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "candles",
                title: "Light the Night",
                family: Family::Loops,
                legend: "You have $a$ candles. A candle burns for one hour and leaves a stub, and $b$ stubs can be melted into a new candle, which burns for an hour and leaves a stub too. You keep burning candles as long as you can. For how many hours do you have light?",
                shape: Shape::Ints(&[("a", 1, E9), ("b", 2, E9)]),
                answer: "the number of hours of light",
                token: true,
                rule: "",
                random: |rng, size, _| match size {
                    Size::Small => ints(&[rng.range(1, 100), rng.range(2, 10)]),
                    _ => ints(&[value(rng, size, 1, E9), rng.range(2, 1000)]),
                },
                solve: |r| candle_hours(r.ints()[0], r.ints()[1]).to_string(),
                samples: || [ints(&[4, 2]), ints(&[6, 3])],
                edges: || {
                    vec![
                        ints(&[1, 2]),
                        ints(&[2, 2]),
                        ints(&[5, 2]),
                        ints(&[10, 3]),
                        ints(&[E9, 2]),
                        ints(&[E9, E9]),
                        ints(&[1, E9]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    hours = a\n    stubs = a\n    while stubs >= b:\n        new = stubs // b\n        hours += new\n        stubs = stubs % b + new\n    return hours\n",
                cpp: "std::string solve(long long a, long long b) {\n    long long hours = a, stubs = a;\n    while (stubs >= b) {\n        long long fresh = stubs / b;\n        hours += fresh;\n        stubs = stubs % b + fresh;\n    }\n    return std::to_string(hours);\n}\n",
                wrong: vec![
                    (
                        "one_round.py",
                        "# Melts the stubs only once: the stubs of the new candles are thrown away.\ndef solve(a, b):\n    return a + a // b\n",
                    ),
                    (
                        "drops_leftover.cpp",
                        "// Keeps only the stubs of the new candles: the leftover stubs are lost.\nstd::string solve(long long a, long long b) {\n    long long hours = a, stubs = a;\n    while (stubs >= b) {\n        long long fresh = stubs / b;\n        hours += fresh;\n        stubs = fresh;\n    }\n    return std::to_string(hours);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "josephus",
                title: "Counting Out",
                family: Family::Loops,
                legend: "$n$ children stand in a circle, numbered 1 to $n$ clockwise. Starting from child 1, they count clockwise $1, 2, \\ldots, k$; the child who says $k$ leaves the circle, and the count starts again at 1 with the next child. The last child left in the circle wins. Find the winner's number.",
                shape: Shape::Ints(&[("n", 1, 10_000), ("k", 1, 10_000)]),
                answer: "the number of the winning child",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 2, 1, 10_000)),
                solve: |r| josephus(r.ints()[0], r.ints()[1]).to_string(),
                samples: || [ints(&[5, 2]), ints(&[7, 3])],
                edges: || {
                    vec![
                        ints(&[1, 1]),
                        ints(&[1, 10_000]),
                        ints(&[10_000, 1]),
                        ints(&[2, 2]),
                        ints(&[3, 1]),
                        ints(&[10_000, 2]),
                        ints(&[10_000, 10_000]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n, k):\n    winner = 0\n    for size in range(2, n + 1):\n        winner = (winner + k) % size\n    return winner + 1\n",
                cpp: "std::string solve(long long n, long long k) {\n    long long winner = 0;\n    for (long long size = 2; size <= n; size++) winner = (winner + k) % size;\n    return std::to_string(winner + 1);\n}\n",
                wrong: vec![
                    (
                        "zero_based.py",
                        "# Finds the winner's place counting from 0 and prints it as is.\ndef solve(n, k):\n    winner = 0\n    for size in range(2, n + 1):\n        winner = (winner + k) % size\n    return winner\n",
                    ),
                    (
                        "one_past.cpp",
                        "// Counts k children past the starting one: every (k + 1)-th child leaves.\nstd::string solve(long long n, long long k) {\n    long long winner = 0;\n    for (long long size = 2; size <= n; size++) winner = (winner + k + 1) % size;\n    return std::to_string(winner + 1);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "viral",
                title: "Word of Mouth",
                family: Family::Loops,
                legend: "A shop shows an advertisement to 5 people on day 1. Every day, half of the people shown it that day, rounded down, like it, and each of them shows it to 3 friends, who see it the next day. How many likes has the advertisement collected after $n$ days?",
                shape: Shape::Ints(&[("n", 1, 90)]),
                answer: "the total number of likes after $n$ days",
                token: true,
                rule: "",
                random: |rng, size, _| match size {
                    Size::Small => ints(&[rng.range(1, 10)]),
                    _ => ints(&[rng.range(1, 90)]),
                },
                solve: |r| viral_likes(r.ints()[0]).to_string(),
                samples: || [ints(&[3]), ints(&[5])],
                edges: || {
                    vec![
                        ints(&[1]),
                        ints(&[2]),
                        ints(&[50]),
                        ints(&[89]),
                        ints(&[90]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n):\n    shown = 5\n    likes = 0\n    for _ in range(n):\n        liked = shown // 2\n        likes += liked\n        shown = liked * 3\n    return likes\n",
                cpp: "std::string solve(long long n) {\n    long long shown = 5, likes = 0;\n    for (long long day = 0; day < n; day++) {\n        long long liked = shown / 2;\n        likes += liked;\n        shown = liked * 3;\n    }\n    return std::to_string(likes);\n}\n",
                wrong: vec![
                    (
                        "no_rounding.py",
                        "# Grows the viewers by half of them each day, shown * 3 // 2, without rounding\n# the likes down first.\ndef solve(n):\n    shown = 5\n    likes = 0\n    for _ in range(n):\n        likes += shown // 2\n        shown = shown * 3 // 2\n    return likes\n",
                    ),
                    (
                        "counts_viewers.cpp",
                        "// Adds up the people who saw the advertisement, not those who liked it.\nstd::string solve(long long n) {\n    long long shown = 5, total = 0;\n    for (long long day = 0; day < n; day++) {\n        total += shown;\n        shown = shown / 2 * 3;\n    }\n    return std::to_string(total);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "jogging",
                title: "Run and Rest",
                family: Family::Loops,
                legend: "Two friends jog along a straight road, starting together. The first runs $b$ metres each second for $a$ seconds, then rests for $r$ seconds, then runs for $a$ seconds again, and so on. The second runs $d$ metres each second for $c$ seconds, then rests for $r$ seconds too, and so on. Who is farther along the road after $x$ seconds?",
                shape: Shape::Ints(&[
                    ("a", 1, 100),
                    ("b", 1, 100),
                    ("c", 1, 100),
                    ("d", 1, 100),
                    ("r", 1, 100),
                    ("x", 1, 10_000),
                ]),
                answer: "`first` if the first friend is farther, `second` if the second one is, and `draw` if they are side by side",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let top = match size {
                        Size::Small => 10,
                        _ => 100,
                    };
                    let mut v: Vec<i64> = (0..5).map(|_| rng.range(1, top)).collect();
                    v.push(value(rng, size, 1, 10_000));
                    ints(&v)
                },
                solve: |r| {
                    let v = r.ints();
                    let first = jog_distance(v[0], v[1], v[4], v[5]);
                    let second = jog_distance(v[2], v[3], v[4], v[5]);
                    match first.cmp(&second) {
                        std::cmp::Ordering::Greater => "first",
                        std::cmp::Ordering::Less => "second",
                        std::cmp::Ordering::Equal => "draw",
                    }
                    .to_owned()
                },
                samples: || [ints(&[4, 3, 6, 2, 3, 10]), ints(&[3, 1, 1, 5, 4, 2])],
                edges: || {
                    vec![
                        ints(&[1, 1, 1, 1, 1, 1]),
                        ints(&[100, 100, 100, 100, 100, 10_000]),
                        ints(&[1, 100, 100, 1, 100, 10_000]),
                        ints(&[2, 1, 1, 2, 1, 3]),
                        ints(&[5, 2, 1, 5, 5, 20]),
                        ints(&[10, 1, 1, 10, 10, 15]),
                        ints(&[3, 2, 1, 4, 3, 7]),
                    ]
                },
                case_sensitive: false,
                py: "def distance(run, speed, rest, x):\n    total = 0\n    for second in range(x):\n        if second % (run + rest) < run:\n            total += speed\n    return total\n\n\ndef solve(a, b, c, d, r, x):\n    first = distance(a, b, r, x)\n    second = distance(c, d, r, x)\n    if first > second:\n        return \"first\"\n    if second > first:\n        return \"second\"\n    return \"draw\"\n",
                cpp: "long long distance(long long run, long long speed, long long rest, long long x) {\n    long long total = 0;\n    for (long long second = 0; second < x; second++)\n        if (second % (run + rest) < run) total += speed;\n    return total;\n}\n\nstd::string solve(long long a, long long b, long long c, long long d, long long r, long long x) {\n    long long first = distance(a, b, r, x), second = distance(c, d, r, x);\n    if (first > second) return \"first\";\n    if (second > first) return \"second\";\n    return \"draw\";\n}\n",
                wrong: vec![
                    (
                        "no_rests.py",
                        "# Forgets the rests: compares the speeds only, as if both ran all the time.\ndef solve(a, b, c, d, r, x):\n    if b > d:\n        return \"first\"\n    if d > b:\n        return \"second\"\n    return \"draw\"\n",
                    ),
                    (
                        "whole_rounds.cpp",
                        "// Counts only the complete rounds of running and resting: the running of an\n// unfinished round is lost.\nlong long distance(long long run, long long speed, long long rest, long long x) {\n    return x / (run + rest) * run * speed;\n}\n\nstd::string solve(long long a, long long b, long long c, long long d, long long r, long long x) {\n    long long first = distance(a, b, r, x), second = distance(c, d, r, x);\n    if (first > second) return \"first\";\n    if (second > first) return \"second\";\n    return \"draw\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "exactdamage",
                title: "Two Spells",
                family: Family::Loops,
                legend: "A hero knows two spells: one deals exactly $a$ damage, the other exactly $b$. Each can be cast any number of times, or not at all. Can the hero deal exactly $c$ damage in total?",
                shape: Shape::Ints(&[("a", 1, 100), ("b", 1, 100), ("c", 1, 10_000)]),
                answer: "`YES` if the hero can deal exactly $c$ damage and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| match size {
                    Size::Small => ints(&[rng.range(1, 20), rng.range(1, 20), rng.range(1, 100)]),
                    _ => ints(&[
                        rng.range(1, 100),
                        rng.range(1, 100),
                        value(rng, size, 1, 10_000),
                    ]),
                },
                solve: |r| yes(exact_damage(r.ints()[0], r.ints()[1], r.ints()[2])),
                samples: || [ints(&[3, 2, 7]), ints(&[4, 6, 15])],
                edges: || {
                    vec![
                        ints(&[1, 1, 1]),
                        ints(&[3, 2, 6]),
                        ints(&[6, 10, 7]),
                        ints(&[6, 10, 16]),
                        ints(&[100, 99, 9701]),
                        ints(&[100, 99, 9702]),
                        ints(&[100, 100, 10_000]),
                        ints(&[100, 100, 9999]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, c):\n    for x in range(c // a + 1):\n        if (c - a * x) % b == 0:\n            return \"YES\"\n    return \"NO\"\n",
                cpp: "std::string solve(long long a, long long b, long long c) {\n    for (long long x = 0; a * x <= c; x++)\n        if ((c - a * x) % b == 0) return \"YES\";\n    return \"NO\";\n}\n",
                wrong: vec![
                    (
                        "both_spells.py",
                        "# Casts each spell at least once.\ndef solve(a, b, c):\n    for x in range(1, c // a + 1):\n        rest = c - a * x\n        if rest > 0 and rest % b == 0:\n            return \"YES\"\n    return \"NO\"\n",
                    ),
                    (
                        "one_spell.cpp",
                        "// Tries one spell alone, or the two spells equally often, not every mix.\nstd::string solve(long long a, long long b, long long c) {\n    return c % a == 0 || c % b == 0 || c % (a + b) == 0 ? \"YES\" : \"NO\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "stoneheaps",
                title: "Three Heaps",
                family: Family::Loops,
                legend: "There are three heaps of stones, with $a$, $b$ and $c$ stones. A move either takes one stone from the first heap and two from the second, or one stone from the second heap and two from the third; a move can be made only if its heaps hold enough stones. Find the most stones you can take in all.",
                shape: Shape::Ints(&[("a", 0, 10_000), ("b", 0, 10_000), ("c", 0, 10_000)]),
                answer: "the most stones you can take",
                token: true,
                rule: "",
                random: |rng, size, _| ints(&values(rng, size, 3, 0, 10_000)),
                solve: |r| stone_heaps(r.ints()[0], r.ints()[1], r.ints()[2]).to_string(),
                samples: || [ints(&[3, 4, 5]), ints(&[5, 3, 2])],
                edges: || {
                    vec![
                        ints(&[0, 0, 0]),
                        ints(&[1, 0, 5]),
                        ints(&[1, 2, 0]),
                        ints(&[0, 1, 2]),
                        ints(&[1, 3, 2]),
                        ints(&[10_000, 0, 10_000]),
                        ints(&[10_000, 10_000, 10_000]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, c):\n    best = 0\n    for second in range(min(b, c // 2) + 1):\n        first = min(a, (b - second) // 2)\n        best = max(best, 3 * (first + second))\n    return best\n",
                cpp: "std::string solve(long long a, long long b, long long c) {\n    long long best = 0;\n    for (long long second = 0; second <= std::min(b, c / 2); second++) {\n        long long first = std::min(a, (b - second) / 2);\n        best = std::max(best, 3 * (first + second));\n    }\n    return std::to_string(best);\n}\n",
                wrong: vec![
                    (
                        "first_move_first.py",
                        "# Makes as many moves of the first kind as it can before any of the second.\ndef solve(a, b, c):\n    first = min(a, b // 2)\n    second = min(b - 2 * first, c // 2)\n    return 3 * (first + second)\n",
                    ),
                    (
                        "counts_moves.cpp",
                        "// Counts the moves instead of the stones: each move takes three.\nstd::string solve(long long a, long long b, long long c) {\n    long long best = 0;\n    for (long long second = 0; second <= std::min(b, c / 2); second++)\n        best = std::max(best, second + std::min(a, (b - second) / 2));\n    return std::to_string(best);\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
        (
            Task {
                id: "stonetrail",
                title: "Marked Path",
                family: Family::Loops,
                legend: "A trail of $n$ stones starts with a stone marked 0. Each next stone is marked with the number of the stone before it plus $a$ or plus $b$. Find every number the last stone can be marked with.",
                shape: Shape::Ints(&[("n", 1, 1000), ("a", 0, 1000), ("b", 0, 1000)]),
                answer: "the possible numbers on the last stone, in increasing order, each once, separated by spaces",
                token: false,
                rule: "",
                random: |rng, size, _| {
                    let n = match size {
                        Size::Small => rng.range(1, 10),
                        Size::Large => rng.range(1, 1000),
                        Size::Max => 1000,
                    };
                    let top = match size {
                        Size::Small => 20,
                        _ => 1000,
                    };
                    ints(&[n, rng.range(0, top), rng.range(0, top)])
                },
                solve: |r| stone_trail(r.ints()[0], r.ints()[1], r.ints()[2]),
                samples: || [ints(&[3, 1, 2]), ints(&[4, 10, 100])],
                edges: || {
                    vec![
                        ints(&[1, 5, 7]),
                        ints(&[2, 0, 0]),
                        ints(&[2, 7, 2]),
                        ints(&[5, 3, 3]),
                        ints(&[1000, 0, 1000]),
                        ints(&[1000, 1000, 1000]),
                        ints(&[1000, 1000, 999]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(n, a, b):\n    marks = sorted(set((n - 1 - i) * a + i * b for i in range(n)))\n    return \" \".join(str(m) for m in marks)\n",
                cpp: "std::string solve(long long n, long long a, long long b) {\n    std::vector<long long> marks;\n    for (long long i = 0; i < n; i++) marks.push_back((n - 1 - i) * a + i * b);\n    std::sort(marks.begin(), marks.end());\n    marks.erase(std::unique(marks.begin(), marks.end()), marks.end());\n    std::string out;\n    for (long long m : marks) {\n        if (!out.empty()) out += \" \";\n        out += std::to_string(m);\n    }\n    return out;\n}\n",
                wrong: vec![
                    (
                        "unsorted.py",
                        "# Lists the numbers in the order it finds them: decreasing when a > b.\ndef solve(n, a, b):\n    marks = []\n    seen = set()\n    for i in range(n):\n        m = (n - 1 - i) * a + i * b\n        if m not in seen:\n            seen.add(m)\n            marks.append(m)\n    return \" \".join(str(m) for m in marks)\n",
                    ),
                    (
                        "repeats.cpp",
                        "// Keeps the repeats: when a = b every number is the same.\nstd::string solve(long long n, long long a, long long b) {\n    std::vector<long long> marks;\n    for (long long i = 0; i < n; i++) marks.push_back((n - 1 - i) * a + i * b);\n    std::sort(marks.begin(), marks.end());\n    std::string out;\n    for (long long m : marks) {\n        if (!out.empty()) out += \" \";\n        out += std::to_string(m);\n    }\n    return out;\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "kangaroo",
                title: "Hop Along",
                family: Family::Conditions,
                legend: "Two kangaroos hop along a number line, towards larger numbers, and hop at the same moments. The first starts at the point $a$ and moves $u$ with every hop; the second starts at the point $b$ and moves $v$ with every hop. Will they ever be at the same point after the same number of hops? The start counts: kangaroos that start at the same point meet.",
                shape: Shape::Ints(&[
                    ("a", 0, E9),
                    ("u", 1, 10_000),
                    ("b", 0, E9),
                    ("v", 1, 10_000),
                ]),
                answer: "`YES` if the kangaroos meet and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| random_kangaroos(rng, size),
                solve: |r| {
                    let v = r.ints();
                    yes(kangaroos_meet(v[0], v[1], v[2], v[3]))
                },
                samples: || [ints(&[0, 3, 4, 2]), ints(&[0, 2, 5, 3])],
                edges: || {
                    vec![
                        ints(&[5, 1, 5, 1]),
                        ints(&[5, 1, 5, 9]),
                        ints(&[0, 1, 1, 1]),
                        ints(&[0, 2, 1, 1]),
                        ints(&[0, 3, 1, 1]),
                        ints(&[10, 1, 0, 2]),
                        ints(&[0, 1, 10, 2]),
                        ints(&[0, 10_000, E9, 1]),
                        ints(&[0, 10_000, 999_900_000, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, u, b, v):\n    if a == b:\n        return \"YES\"\n    if u == v:\n        return \"NO\"\n    gap = b - a\n    closing = u - v\n    if gap % closing == 0 and gap // closing > 0:\n        return \"YES\"\n    return \"NO\"\n",
                cpp: "std::string solve(long long a, long long u, long long b, long long v) {\n    if (a == b) return \"YES\";\n    if (u == v) return \"NO\";\n    long long gap = b - a, closing = u - v;\n    return gap % closing == 0 && gap / closing > 0 ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![
                    (
                        "no_direction.py",
                        "# Checks only that the gap is a multiple of the speed difference: kangaroos\n# that move apart are said to meet too.\ndef solve(a, u, b, v):\n    if a == b:\n        return \"YES\"\n    if u == v:\n        return \"NO\"\n    return \"YES\" if (b - a) % (u - v) == 0 else \"NO\"\n",
                    ),
                    (
                        "faster_catches.cpp",
                        "// Says they meet whenever the one behind is faster: it may jump over the other.\nstd::string solve(long long a, long long u, long long b, long long v) {\n    if (a == b) return \"YES\";\n    return (a < b && u > v) || (b < a && v > u) ? \"YES\" : \"NO\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, JOINED],
        ),
        (
            Task {
                id: "overlap",
                title: "Both Buttons",
                family: Family::Conditions,
                legend: "Alice held a button down from second $a$ to second $b$ after the start, and Bob held another button down from second $c$ to second $d$. For how many seconds were both buttons held down at the same time?",
                shape: Shape::Ints(&[("a", 0, E9), ("b", 0, E9), ("c", 0, E9), ("d", 0, E9)]),
                answer: "the number of seconds during which both buttons were held down",
                token: true,
                rule: "v[0] <= v[1] and v[2] <= v[3]",
                random: |rng, size, _| {
                    let mut v = values(rng, size, 4, 0, E9);
                    if v[0] > v[1] {
                        v.swap(0, 1);
                    }
                    if v[2] > v[3] {
                        v.swap(2, 3);
                    }
                    ints(&v)
                },
                solve: |r| {
                    let v = r.ints();
                    (v[1].min(v[3]) - v[0].max(v[2])).max(0).to_string()
                },
                samples: || [ints(&[0, 75, 25, 100]), ints(&[0, 33, 66, 99])],
                edges: || {
                    vec![
                        ints(&[0, 0, 0, 0]),
                        ints(&[0, E9, 0, E9]),
                        ints(&[0, 10, 10, 20]),
                        ints(&[0, 10, 9, 20]),
                        ints(&[5, 6, 0, 100]),
                        ints(&[0, 100, 20, 30]),
                        ints(&[50, 60, 0, 10]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, c, d):\n    return max(0, min(b, d) - max(a, c))\n",
                cpp: "std::string solve(long long a, long long b, long long c, long long d) {\n    return std::to_string(std::max(0LL, std::min(b, d) - std::max(a, c)));\n}\n",
                wrong: vec![
                    (
                        "negative_gap.py",
                        "# Forgets the case where the two never overlap: the answer goes negative.\ndef solve(a, b, c, d):\n    return min(b, d) - max(a, c)\n",
                    ),
                    (
                        "alice_first.cpp",
                        "// Takes it that Alice always presses first, so the overlap starts at c.\nstd::string solve(long long a, long long b, long long c, long long d) {\n    return std::to_string(std::max(0LL, std::min(b, d) - c));\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Lines],
        ),
        (
            Task {
                id: "shampoo",
                title: "Bath Time",
                family: Family::Conditions,
                legend: "A bottle holds $v$ millilitres of shampoo. Every evening the father washes his hair first and uses $a$ millilitres, then the mother uses $b$ millilitres, then the child uses $c$ millilitres, and the next evening it starts again with the father. Nobody buys more shampoo. Who is the first to find less shampoo left than they need?",
                shape: Shape::Ints(&[("v", 1, E9), ("a", 1, E9), ("b", 1, E9), ("c", 1, E9)]),
                answer: "`father`, `mother` or `child`: who first lacks shampoo",
                token: true,
                rule: "",
                random: |rng, size, _| match size {
                    Size::Small => ints(&[
                        rng.range(1, 100),
                        rng.range(1, 20),
                        rng.range(1, 20),
                        rng.range(1, 20),
                    ]),
                    _ => {
                        let v = value(rng, size, 1, E9);
                        let top = rng.pick(&[100, 10_000, E9]);
                        ints(&[
                            v,
                            rng.range(1, *top),
                            rng.range(1, *top),
                            rng.range(1, *top),
                        ])
                    }
                },
                solve: |r| {
                    let v = r.ints();
                    shampoo(v[0], v[1], v[2], v[3])
                },
                samples: || [ints(&[25, 10, 11, 12]), ints(&[30, 10, 10, 10])],
                edges: || {
                    vec![
                        ints(&[1, 1, 1, 1]),
                        ints(&[1, 2, 1, 1]),
                        ints(&[3, 1, 1, 1]),
                        ints(&[4, 1, 1, 3]),
                        ints(&[5, 1, 1, 3]),
                        ints(&[E9, 1, 1, 1]),
                        ints(&[E9, E9, E9, E9]),
                        ints(&[E9, 1, E9, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(v, a, b, c):\n    left = v % (a + b + c)\n    if left < a:\n        return \"father\"\n    if left < a + b:\n        return \"mother\"\n    return \"child\"\n",
                cpp: "std::string solve(long long v, long long a, long long b, long long c) {\n    long long left = v % (a + b + c);\n    if (left < a) return \"father\";\n    if (left < a + b) return \"mother\";\n    return \"child\";\n}\n",
                wrong: vec![
                    (
                        "one_evening.py",
                        "# Looks at the first evening only: the bottle never lasts into a second one.\ndef solve(v, a, b, c):\n    if v < a:\n        return \"father\"\n    if v < a + b:\n        return \"mother\"\n    return \"child\"\n",
                    ),
                    (
                        "at_most.cpp",
                        "// Uses <= where < is meant: a parent who finds exactly enough is said to lack it.\nstd::string solve(long long v, long long a, long long b, long long c) {\n    long long left = v % (a + b + c);\n    if (left <= a) return \"father\";\n    if (left <= a + b) return \"mother\";\n    return \"child\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, NUMBERED],
        ),
        (
            Task {
                id: "craps",
                title: "Come-Out Roll",
                family: Family::Conditions,
                legend: "In the first roll of the dice game craps, the player throws two dice and adds up their numbers. A total of 7 or 11 wins at once, a total of 2, 3 or 12 loses at once, and any other total becomes the player's point. The dice show $a$ and $b$. Say what happens.",
                shape: Shape::Ints(&[("a", 1, 6), ("b", 1, 6)]),
                answer: "`win`, `lose` or `point`",
                token: true,
                rule: "",
                random: |rng, _, _| ints(&[rng.range(1, 6), rng.range(1, 6)]),
                solve: |r| craps(r.ints()[0], r.ints()[1]),
                samples: || [ints(&[3, 4]), ints(&[4, 4])],
                edges: || {
                    vec![
                        ints(&[1, 1]),
                        ints(&[1, 2]),
                        ints(&[6, 6]),
                        ints(&[1, 6]),
                        ints(&[5, 6]),
                        ints(&[6, 5]),
                        ints(&[2, 2]),
                        ints(&[4, 6]),
                        ints(&[3, 3]),
                        ints(&[2, 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    total = a + b\n    if total in (7, 11):\n        return \"win\"\n    if total in (2, 3, 12):\n        return \"lose\"\n    return \"point\"\n",
                cpp: "std::string solve(long long a, long long b) {\n    long long total = a + b;\n    if (total == 7 || total == 11) return \"win\";\n    if (total == 2 || total == 3 || total == 12) return \"lose\";\n    return \"point\";\n}\n",
                wrong: vec![
                    (
                        "no_eleven.py",
                        "# Forgets that 11 wins too: it becomes the point.\ndef solve(a, b):\n    total = a + b\n    if total == 7:\n        return \"win\"\n    if total in (2, 3, 12):\n        return \"lose\"\n    return \"point\"\n",
                    ),
                    (
                        "twelve_point.cpp",
                        "// Forgets that 12 loses: it becomes the point.\nstd::string solve(long long a, long long b) {\n    long long total = a + b;\n    if (total == 7 || total == 11) return \"win\";\n    if (total == 2 || total == 3) return \"lose\";\n    return \"point\";\n}\n",
                    ),
                ],
            },
            vec![PER_LINE, Layout::Eof],
        ),
        (
            Task {
                id: "sisters",
                title: "Fair Shares",
                family: Family::Conditions,
                legend: "Three sisters have $a$, $b$ and $c$ coins. Their brother has $n$ coins and wants to give all of them away to his sisters, so that afterwards the three sisters have the same number of coins. Can he?",
                shape: Shape::Ints(&[("a", 1, E9), ("b", 1, E9), ("c", 1, E9), ("n", 1, E9)]),
                answer: "`YES` if the brother can do it and `NO` otherwise",
                token: true,
                rule: "",
                random: |rng, size, _| random_sisters(rng, size),
                solve: |r| {
                    let v = r.ints();
                    let total = v.iter().sum::<i64>();
                    let most = v[0].max(v[1]).max(v[2]);
                    yes(total % 3 == 0 && most <= total / 3)
                },
                samples: || [ints(&[5, 3, 2, 8]), ints(&[1, 1, 10, 3])],
                edges: || {
                    vec![
                        ints(&[1, 1, 1, 3]),
                        ints(&[1, 1, 1, 1]),
                        ints(&[1, 1, 1, 2]),
                        ints(&[1, 1, 4, 6]),
                        ints(&[1, 1, 7, 3]),
                        ints(&[E9, E9, E9, E9]),
                        ints(&[E9, E9, E9 - 1, 1]),
                        ints(&[1, E9, 1, E9 - 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b, c, n):\n    total = a + b + c + n\n    if total % 3 != 0:\n        return \"NO\"\n    return \"YES\" if max(a, b, c) <= total // 3 else \"NO\"\n",
                cpp: "std::string solve(long long a, long long b, long long c, long long n) {\n    long long total = a + b + c + n;\n    if (total % 3 != 0) return \"NO\";\n    return std::max({a, b, c}) <= total / 3 ? \"YES\" : \"NO\";\n}\n",
                wrong: vec![
                    (
                        "divisible_only.py",
                        "# Checks only that all the coins split into three equal parts, not that the\n# richest sister has at most one part already.\ndef solve(a, b, c, n):\n    return \"YES\" if (a + b + c + n) % 3 == 0 else \"NO\"\n",
                    ),
                    (
                        "enough_only.cpp",
                        "// Checks only that the brother has enough coins to bring both poorer sisters up\n// to the richest, not that none are left over unevenly.\nstd::string solve(long long a, long long b, long long c, long long n) {\n    long long most = std::max({a, b, c});\n    return n >= 3 * most - a - b - c ? \"YES\" : \"NO\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, PER_LINE],
        ),
        (
            Task {
                id: "addodd",
                title: "Odd Up, Even Down",
                family: Family::Conditions,
                legend: "You start with the integer $a$ and want to reach the integer $b$. One move either adds any positive odd integer to your number or subtracts any positive even integer from it; you choose the integer again for each move. Find the fewest moves.",
                shape: Shape::Ints(&[("a", -E9, E9), ("b", -E9, E9)]),
                answer: "the fewest moves from $a$ to $b$",
                token: true,
                rule: "",
                random: |rng, size, _| {
                    let a = value(rng, size, -E9, E9);
                    let b = if rng.range(0, 3) == 0 {
                        a
                    } else {
                        value(rng, size, -E9, E9)
                    };
                    ints(&[a, b])
                },
                solve: |r| odd_even_moves(r.ints()[0], r.ints()[1]).to_string(),
                samples: || [ints(&[2, 3]), ints(&[7, 4])],
                edges: || {
                    vec![
                        ints(&[0, 0]),
                        ints(&[10, 10]),
                        ints(&[2, 4]),
                        ints(&[9, 3]),
                        ints(&[0, -1]),
                        ints(&[-E9, E9]),
                        ints(&[E9, -E9]),
                        ints(&[-E9, E9 - 1]),
                    ]
                },
                case_sensitive: false,
                py: "def solve(a, b):\n    d = b - a\n    if d == 0:\n        return 0\n    if (d > 0 and d % 2 == 1) or (d < 0 and d % 2 == 0):\n        return 1\n    return 2\n",
                cpp: "std::string solve(long long a, long long b) {\n    long long d = b - a;\n    if (d == 0) return \"0\";\n    if ((d > 0 && d % 2 != 0) || (d < 0 && d % 2 == 0)) return \"1\";\n    return \"2\";\n}\n",
                wrong: vec![
                    (
                        "parity_only.py",
                        "# Looks only at the parity of the difference, not at its direction.\ndef solve(a, b):\n    d = b - a\n    if d == 0:\n        return 0\n    return 1 if d % 2 == 1 else 2\n",
                    ),
                    (
                        "swapped.cpp",
                        "// Mixes up the moves: takes it that an even number is added and an odd one\n// subtracted.\nstd::string solve(long long a, long long b) {\n    long long d = b - a;\n    if (d == 0) return \"0\";\n    if ((d > 0 && d % 2 == 0) || (d < 0 && d % 2 != 0)) return \"1\";\n    return \"2\";\n}\n",
                    ),
                ],
            },
            vec![Layout::Single, Layout::Eof],
        ),
    ]
}
