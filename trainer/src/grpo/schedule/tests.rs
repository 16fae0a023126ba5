//! The schedule on made-up groups: which turn gets which advantage, when, under which
//! normaliser, for every algorithm; no model, no sandbox.
//!
//! The group used throughout (horizon 2, no scaling): three episodes.
//! - e0: turn 0 reaches level 0.5 (3 action tokens), turn 1 stays at 0.5 (2), verdict 1.
//! - e1: turn 0 at 0 (4 tokens), turn 1 reaches 0.5 (1), verdict 0.
//! - e2: turn 0 at 0 (5 tokens), then stops with verdict 0.
//!
//! By hand, leave-one-out: the turn-0 terms are +0.5, -0.25, -0.25; the turn-1 terms (e2
//! carried at 0) +0.25, +0.25, -0.5; the verdict terms +1, -0.5, -0.5. The return-to-go
//! advantages are e0 (1.75, 1.25), e1 (-0.5, -0.25), e2 (-1.25).

use expect_test::{Expect, expect};

use super::*;
use crate::grpo::advantage::{Baseline, Scale as OutcomeScale};
use crate::grpo::credit::Scale;

fn settings(rule: Rule, staleness_cap: u64) -> Settings {
    Settings {
        rule,
        credit: CreditConfig {
            horizon: 2,
            scale: Scale::None,
            eps: 1e-6,
            staleness_cap,
        },
        drop_uniform: true,
    }
}

fn outcome() -> Rule {
    Rule::Outcome(AdvantageConfig {
        baseline: Baseline::LeaveOneOut,
        scale: OutcomeScale::None,
        eps: 1e-6,
    })
}

fn turn(level: f64, version: u64, action_tokens: usize) -> TurnEvent {
    TurnEvent {
        level,
        version,
        action_tokens,
    }
}

/// The example group, every event in (turn 0 at version 0, turn 1 at version 1).
fn played() -> GroupEvents {
    let mut g = GroupEvents::new(3);
    let rows: [(&[(f64, usize)], f64); 3] = [
        (&[(0.5, 3), (0.5, 2)], 1.0),
        (&[(0.0, 4), (0.5, 1)], 0.0),
        (&[(0.0, 5)], 0.0),
    ];
    for (e, (turns, verdict)) in rows.iter().enumerate() {
        for (t, (level, tokens)) in turns.iter().enumerate() {
            g.turn(e, turn(*level, t as u64, *tokens)).expect("turn");
        }
        g.end(e, Ending::Verdict(*verdict)).expect("end");
    }
    g
}

/// A plan as text: each update, its parts (normaliser, then `episode.turn advantage`),
/// and the counts.
fn show(plan: &Plan) -> String {
    let mut out = String::new();
    for u in &plan.updates {
        out.push_str(&format!("{:?}\n", u.purpose));
        for p in &u.parts {
            out.push_str(&format!(
                "  / {} tokens {} turns:",
                p.normalizer.tokens, p.normalizer.sequences
            ));
            for k in &p.picks {
                out.push_str(&format!(" e{}.t{} {:+.3}", k.episode, k.turn, k.advantage));
            }
            out.push('\n');
        }
    }
    out.push_str(&format!(
        "provisional turns {}, finished {}, dissolved {}; corrections {}, stale {}, skipped {}\n",
        plan.done.provisional.len(),
        plan.done.finished,
        plan.done.dissolved,
        plan.corrections,
        plan.stale,
        plan.skipped_uniform
    ));
    out
}

/// Plans for `events` after `done` at version `now`, again after each plan with updates
/// (the version moving one per update), as a caller does.
fn check(events: &GroupEvents, done: &mut Done, settings: &Settings, now: u64, expect: &Expect) {
    let mut now = now;
    let mut text = String::new();
    loop {
        let plan = plan(events, done, settings, now).expect("plan");
        text.push_str(&show(&plan));
        *done = plan.done;
        if plan.updates.is_empty() {
            break;
        }
        now += plan.updates.len() as u64;
    }
    expect.assert_eq(&text);
}

#[test]
fn outcome_one_update_at_the_end_with_each_episodes_verdict_on_every_turn() {
    let s = settings(outcome(), 4);
    let mut g = played();
    g.episodes[2].ending = None;
    check(
        &g,
        &mut Done::default(),
        &s,
        0,
        &expect![[r#"
            provisional turns 0, finished false, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    check(
        &played(),
        &mut Done::default(),
        &s,
        0,
        &expect![[r#"
            Final
              / 15 tokens 5 turns: e0.t0 +1.000 e0.t1 +1.000 e1.t0 -0.500 e1.t1 -0.500 e2.t0 -0.500
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
}

#[test]
fn process_one_update_at_the_end_with_the_return_to_go() {
    let s = settings(Rule::Process, 4);
    check(
        &played(),
        &mut Done::default(),
        &s,
        0,
        &expect![[r#"
            Final
              / 15 tokens 5 turns: e0.t0 +1.750 e0.t1 +1.250 e1.t0 -0.500 e1.t1 -0.250 e2.t0 -1.250
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    let finals = final_advantages(&played(), &s).expect("finals");
    assert_eq!(
        finals,
        vec![vec![1.75, 1.25], vec![-0.5, -0.25], vec![-1.25]]
    );
}

/// Agentic, the events arriving one by one: each turn's provisional update as soon as
/// every episode has played it or stopped; the corrections (final minus provisional) at
/// the end, each turn's under its provisional normaliser.
#[test]
fn agentic_provisional_per_turn_then_the_corrections() {
    let s = settings(Rule::Agentic, 4);
    let full = played();
    let mut g = GroupEvents::new(3);
    let mut done = Done::default();
    g.turn(0, full.episodes[0].turns[0]).expect("turn");
    g.turn(1, full.episodes[1].turns[0]).expect("turn");
    check(
        &g,
        &mut done,
        &s,
        0,
        &expect![[r#"
            provisional turns 0, finished false, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    g.turn(2, full.episodes[2].turns[0]).expect("turn");
    check(
        &g,
        &mut done,
        &s,
        0,
        &expect![[r#"
            Provisional { turn: 0 }
              / 12 tokens 3 turns: e0.t0 +0.500 e1.t0 -0.250 e2.t0 -0.250
            provisional turns 1, finished false, dissolved false; corrections 0, stale 0, skipped 0
            provisional turns 1, finished false, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    // e2 stops after one turn; turn 1 waits for e1.
    g.end(2, Ending::Verdict(0.0)).expect("end");
    g.turn(0, full.episodes[0].turns[1]).expect("turn");
    check(
        &g,
        &mut done,
        &s,
        1,
        &expect![[r#"
            provisional turns 1, finished false, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    g.turn(1, full.episodes[1].turns[1]).expect("turn");
    check(
        &g,
        &mut done,
        &s,
        1,
        &expect![[r#"
            Provisional { turn: 1 }
              / 3 tokens 2 turns: e0.t1 +0.250 e1.t1 +0.250
            provisional turns 2, finished false, dissolved false; corrections 0, stale 0, skipped 0
            provisional turns 2, finished false, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    g.end(0, Ending::Verdict(1.0)).expect("end");
    g.end(1, Ending::Verdict(0.0)).expect("end");
    let mut stale = done.clone();
    check(
        &g,
        &mut done,
        &s,
        2,
        &expect![[r#"
            Correction
              / 12 tokens 3 turns: e0.t0 +1.250 e1.t0 -0.250 e2.t0 -1.000
              / 3 tokens 2 turns: e0.t1 +1.000 e1.t1 -0.500
            provisional turns 2, finished true, dissolved false; corrections 5, stale 0, skipped 0
            provisional turns 2, finished true, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    // With a cap of 1 at version 2, turn 0 (version 0) is too old to correct.
    check(
        &g,
        &mut stale,
        &settings(Rule::Agentic, 1),
        2,
        &expect![[r#"
            Correction
              / 3 tokens 2 turns: e0.t1 +1.000 e1.t1 -0.500
            provisional turns 2, finished true, dissolved false; corrections 2, stale 3, skipped 0
            provisional turns 2, finished true, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
}

/// Everything arriving at once: the provisional updates come first, and the corrections
/// in the next plan, measured at the version after them.
#[test]
fn agentic_corrections_wait_for_the_provisional_updates() {
    check(
        &played(),
        &mut Done::default(),
        &settings(Rule::Agentic, 1),
        0,
        &expect![[r#"
            Provisional { turn: 0 }
              / 12 tokens 3 turns: e0.t0 +0.500 e1.t0 -0.250 e2.t0 -0.250
            Provisional { turn: 1 }
              / 3 tokens 2 turns: e0.t1 +0.250 e1.t1 +0.250
            provisional turns 2, finished false, dissolved false; corrections 0, stale 0, skipped 0
            Correction
              / 3 tokens 2 turns: e0.t1 +1.000 e1.t1 -0.500
            provisional turns 2, finished true, dissolved false; corrections 2, stale 3, skipped 0
            provisional turns 2, finished true, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
}

/// An episode that leaves gets nothing and the others are compared among themselves; a
/// group left with one episode is dissolved.
#[test]
fn leaving_episodes_and_dissolved_groups() {
    let mut g = played();
    g.episodes[2].ending = Some(Ending::Left);
    check(
        &g,
        &mut Done::default(),
        &settings(outcome(), 4),
        0,
        &expect![[r#"
            Final
              / 10 tokens 4 turns: e0.t0 +1.000 e0.t1 +1.000 e1.t0 -1.000 e1.t1 -1.000
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
    g.episodes[1].ending = Some(Ending::Left);
    check(
        &g,
        &mut Done::default(),
        &settings(Rule::Agentic, 4),
        0,
        &expect![[r#"
            provisional turns 0, finished false, dissolved true; corrections 0, stale 0, skipped 0
        "#]],
    );
}

/// With `drop_uniform`, an update of zeros is skipped and counted; a turn without action
/// tokens is never picked and counts in no normaliser.
#[test]
fn uniform_updates_are_skipped_and_empty_turns_never_picked() {
    let mut g = played();
    for e in &mut g.episodes {
        e.ending = Some(Ending::Verdict(1.0));
    }
    check(
        &g,
        &mut Done::default(),
        &settings(outcome(), 4),
        0,
        &expect![[r#"
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 1
        "#]],
    );
    let mut g = played();
    g.episodes[1].turns[1].action_tokens = 0;
    check(
        &g,
        &mut Done::default(),
        &settings(Rule::Process, 4),
        0,
        &expect![[r#"
            Final
              / 14 tokens 4 turns: e0.t0 +1.750 e0.t1 +1.250 e1.t0 -0.500 e2.t0 -1.250
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
            provisional turns 0, finished true, dissolved false; corrections 0, stale 0, skipped 0
        "#]],
    );
}

#[test]
fn events_after_an_episodes_end_are_refused() {
    let mut g = played();
    let err = g.turn(0, turn(1.0, 2, 1)).unwrap_err();
    assert_eq!(err.to_string(), "episode: episode 0 has already ended");
    let err = g.end(3, Ending::Left).unwrap_err();
    assert_eq!(err.to_string(), "episode: episode 3 of a group of 3");
}
