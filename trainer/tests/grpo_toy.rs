//! The toy two-stage task of [`trainer::toy`], on which a tiny policy must measurably
//! improve under every option (GRPO, DAPO with dynamic sampling, Dr. GRPO, GSPO, KL to a
//! frozen reference, one-step stale rollouts under TIS, and Agentic GRPO's immediate update
//! plus delayed correction), with a fixed seed and a margin, no timing. Also: gradient
//! accumulation over micro-batches equals one batch.
//!
//! The task (see `trainer::toy`): prompt `BOS P_k`, turn 1 reaches the stage (level 0.5)
//! with `A_k`, the environment replies `OK` or `BAD`, turn 2 passes the verdict with
//! `A_{(k+1) mod 4}`; the score is the exact expected reward. The outcome options here
//! train on stage level plus verdict for both turns; `trainer compare-toy` compares the
//! algorithms of `trainer train` on the same task.

use tch::Tensor;
use trainer::grpo::advantage::{AdvantageConfig, Baseline, Scale, filter_groups, group_advantages};
use trainer::grpo::credit::{self, CreditConfig, GroupCredit};
use trainer::grpo::loss::{Aggregation, LossConfig, LossStats, RatioLevel};
use trainer::grpo::step::{Rollout, StepConfig, accumulate, normalizer, optimizer_step};
use trainer::optim::{AdamW, OptimConfig, Schedule};
use trainer::toy::{BOS, Episode, PROBLEMS, play, prompt, sample, score, tiny_model};

/// libtorch's generator is global: the tests of this file take turns, so a fixed seed
/// gives the same run whatever else runs.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Episodes per problem.
const G: usize = 8;

#[derive(Debug, Clone, Copy)]
enum Mode {
    /// Outcome GRPO: one reward per episode (stage level + verdict) for both turns.
    Outcome {
        advantage: AdvantageConfig,
        dynamic_sampling: bool,
        /// Rollouts from the previous version of the policy (one step stale).
        stale: bool,
        kl: bool,
    },
    /// Agentic GRPO: provisional update after turn 1, correction at the verdict.
    Agentic,
}

struct Run {
    before: f64,
    after: f64,
    dropped_groups: usize,
    dropped_stale: usize,
    last: LossStats,
    max_tis_truncated: f64,
}

fn train(mode: Mode, step: StepConfig, steps: usize) -> Run {
    let model = tiny_model(11);
    let reference = tiny_model(11);
    let before = score(&model);
    let optim = OptimConfig {
        lr: 0.02,
        weight_decay: 0.01,
        warmup_steps: 3,
        total_steps: steps as u64,
        schedule: Schedule::Cosine,
        min_lr_ratio: 0.1,
        max_grad_norm: Some(1.0),
        ..Default::default()
    };
    let mut opt = AdamW::new(&model.vs, optim).expect("optimizer");
    tch::manual_seed(5);
    let mut run = Run {
        before,
        after: 0.0,
        dropped_groups: 0,
        dropped_stale: 0,
        last: LossStats::default(),
        max_tis_truncated: 0.0,
    };
    let mut pending: Option<Vec<Vec<Episode>>> = None;
    for _ in 0..steps {
        match mode {
            Mode::Outcome {
                advantage,
                dynamic_sampling,
                stale,
                kl,
            } => {
                let fresh = play(&model, G);
                // Stale: train on what the previous version played (TIS corrects for it).
                let groups = if stale {
                    match pending.replace(fresh) {
                        Some(old) => old,
                        None => continue,
                    }
                } else {
                    fresh
                };
                let rewards: Vec<Vec<f64>> = groups
                    .iter()
                    .map(|g| g.iter().map(|e| e.stage() + e.verdict()).collect())
                    .collect();
                let kept: Vec<usize> = if dynamic_sampling {
                    let f = filter_groups(&rewards, 1e-6);
                    run.dropped_groups += f.dropped;
                    f.kept
                } else {
                    (0..groups.len()).collect()
                };
                let mut rollouts = Vec::new();
                for g in kept {
                    let adv = group_advantages(&rewards[g], &advantage).expect("group");
                    for (e, a) in groups[g].iter().zip(adv) {
                        rollouts.push(e.rollout(a, a));
                    }
                }
                if normalizer(&rollouts).tokens == 0.0 {
                    continue;
                }
                let report = optimizer_step(
                    &model,
                    kl.then_some(&reference),
                    &mut opt,
                    &rollouts,
                    &step,
                    None,
                )
                .expect("step");
                run.max_tis_truncated = run
                    .max_tis_truncated
                    .max(report.stats.tis_truncated_fraction);
                run.last = report.stats;
            }
            Mode::Agentic => {
                let credit_config = CreditConfig {
                    horizon: 2,
                    scale: credit::Scale::None,
                    eps: 1e-6,
                    staleness_cap: 4,
                };
                // Turn 1 of every group, then the immediate update on it.
                let version = opt.steps();
                let starts: Vec<Vec<i64>> = (0..PROBLEMS)
                    .flat_map(|k| std::iter::repeat_n(vec![BOS, prompt(k)], G))
                    .collect();
                let xs = sample(&model, &starts);
                let mut credits: Vec<GroupCredit> = (0..PROBLEMS)
                    .map(|_| GroupCredit::new(G, credit_config).expect("group"))
                    .collect();
                let mut episodes: Vec<Episode> = Vec::new();
                for (i, x) in xs.iter().enumerate() {
                    let k = (i / G) as i64;
                    let e = Episode {
                        k,
                        x: *x,
                        y: (0, 0.0),
                    };
                    credits[k as usize]
                        .record_turn(i % G, e.stage(), version)
                        .expect("turn");
                    episodes.push(e);
                }
                let provisional: Vec<Vec<Option<f64>>> = credits
                    .iter_mut()
                    .map(|c| c.apply_provisional(0).expect("turn 0 played"))
                    .collect();
                let turn1: Vec<Rollout> = episodes
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let a = provisional[i / G][i % G].expect("played");
                        Rollout {
                            tokens: vec![BOS, prompt(e.k), e.x.0],
                            action: vec![false, false, true],
                            behaviour_logp: vec![0.0, 0.0, e.x.1],
                            advantage: vec![0.0, 0.0, a],
                            teacher_logp: None,
                        }
                    })
                    .collect();
                let n1 = normalizer(&turn1);
                if provisional
                    .iter()
                    .flatten()
                    .any(|a| a.unwrap_or(0.0) != 0.0)
                {
                    optimizer_step(&model, None, &mut opt, &turn1, &step, None).expect("step");
                }
                // Turn 2 by the updated policy, then the verdicts.
                let version2 = opt.steps();
                let seconds: Vec<Vec<i64>> = episodes
                    .iter()
                    .map(|e| vec![BOS, prompt(e.k), e.x.0, e.obs()])
                    .collect();
                let ys = sample(&model, &seconds);
                for (i, (e, y)) in episodes.iter_mut().zip(ys).enumerate() {
                    e.y = y;
                    let c = &mut credits[i / G];
                    c.record_turn(i % G, e.stage(), version2).expect("turn");
                    c.record_verdict(i % G, e.verdict()).expect("verdict");
                }
                // Corrections of turn 1 (same normaliser as its provisional update, TIS
                // against the policy that generated it), and turn 2 with its final advantage.
                let now = opt.steps();
                let mut corrections = Vec::new();
                let mut turn2 = Vec::new();
                for (k, c) in credits.iter().enumerate() {
                    let cs = c.corrections(now).expect("complete");
                    run.dropped_stale += cs.dropped_stale;
                    let finals = c.final_advantages().expect("complete");
                    for x in cs.apply.iter().filter(|x| x.turn == 0) {
                        let e = &episodes[k * G + x.episode];
                        let mut r = e.rollout(x.delta, 0.0);
                        r.action[4] = false;
                        corrections.push(r);
                    }
                    for (i, f) in finals.iter().enumerate() {
                        let e = &episodes[k * G + i];
                        let mut r = e.rollout(0.0, f[1]);
                        r.action[2] = false;
                        turn2.push(r);
                    }
                }
                if !corrections.is_empty() {
                    let report =
                        optimizer_step(&model, None, &mut opt, &corrections, &step, Some(n1))
                            .expect("correction");
                    run.max_tis_truncated = run
                        .max_tis_truncated
                        .max(report.stats.tis_truncated_fraction);
                    run.last = report.stats;
                }
                optimizer_step(&model, None, &mut opt, &turn2, &step, None).expect("step");
            }
        }
    }
    run.after = score(&model);
    run
}

fn outcome(advantage: AdvantageConfig) -> Mode {
    Mode::Outcome {
        advantage,
        dynamic_sampling: false,
        stale: false,
        kl: false,
    }
}

#[test]
fn a_tiny_policy_improves_on_the_two_stage_task_under_every_option() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let grpo_loss = LossConfig {
        clip_low: 0.2,
        clip_high: 0.2,
        ratio: RatioLevel::Token,
        kl_beta: 0.0,
        tis_cap: Some(2.0),
    };
    let base = StepConfig {
        loss: grpo_loss,
        aggregation: Aggregation::SequenceMean,
        micro_batch: 16,
        micro_batch_tokens: usize::MAX,
        ppo_epochs: 2,
        distill_weight: 0.0,
    };
    let dr = AdvantageConfig {
        baseline: Baseline::Mean,
        scale: Scale::None,
        eps: 1e-6,
    };
    let options: Vec<(&str, Mode, StepConfig)> = vec![
        ("grpo", outcome(AdvantageConfig::default()), base),
        (
            "dapo (clip-higher, token mean, dynamic sampling)",
            Mode::Outcome {
                advantage: AdvantageConfig::default(),
                dynamic_sampling: true,
                stale: false,
                kl: false,
            },
            StepConfig {
                loss: LossConfig {
                    clip_high: 0.28,
                    ..grpo_loss
                },
                aggregation: Aggregation::TokenMean,
                ..base
            },
        ),
        (
            "dr_grpo (no std, constant length)",
            outcome(dr),
            StepConfig {
                aggregation: Aggregation::ConstantLength { length: 2.0 },
                ..base
            },
        ),
        (
            "gspo (sequence ratio)",
            outcome(AdvantageConfig::default()),
            StepConfig {
                loss: LossConfig {
                    clip_low: 3e-4,
                    clip_high: 4e-4,
                    ratio: RatioLevel::Sequence,
                    ..grpo_loss
                },
                ..base
            },
        ),
        (
            "leave-one-out",
            outcome(AdvantageConfig {
                baseline: Baseline::LeaveOneOut,
                ..dr
            }),
            base,
        ),
        (
            "kl to reference (beta 0.04)",
            Mode::Outcome {
                advantage: AdvantageConfig::default(),
                dynamic_sampling: false,
                stale: false,
                kl: true,
            },
            StepConfig {
                loss: LossConfig {
                    kl_beta: 0.04,
                    ..grpo_loss
                },
                ..base
            },
        ),
        (
            "one-step-stale rollouts under TIS (cap 2)",
            Mode::Outcome {
                advantage: AdvantageConfig::default(),
                dynamic_sampling: false,
                stale: true,
                kl: false,
            },
            StepConfig {
                aggregation: Aggregation::TokenMean,
                ppo_epochs: 1,
                ..base
            },
        ),
        (
            "agentic (provisional + correction)",
            Mode::Agentic,
            StepConfig {
                aggregation: Aggregation::TokenMean,
                ppo_epochs: 1,
                ..base
            },
        ),
    ];
    let steps = 30;
    let mut failures = Vec::new();
    for (name, mode, config) in options {
        let run = train(mode, config, steps);
        let line = format!(
            "{name}: score {:.3} -> {:.3} ({:+.3}); dropped groups {}, stale corrections {}, \
             max TIS truncation {:.3}, last ratio [{:.3}, {:.3}], behaviour ratio [{:.3}, {:.3}]",
            run.before,
            run.after,
            run.after - run.before,
            run.dropped_groups,
            run.dropped_stale,
            run.max_tis_truncated,
            run.last.ratio_min,
            run.last.ratio_max,
            run.last.behaviour_ratio_min,
            run.last.behaviour_ratio_max,
        );
        eprintln!("{line}");
        if run.after < run.before + MARGIN {
            failures.push(line);
        }
    }
    assert!(
        failures.is_empty(),
        "no improvement of {MARGIN} in {steps} steps:\n{}",
        failures.join("\n")
    );
}

/// The least improvement of the expected reward (out of 1.5) each option must reach.
const MARGIN: f64 = 0.3;

#[test]
fn accumulating_micro_batches_equals_one_batch() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let model = tiny_model(3);
    tch::manual_seed(9);
    let groups = play(&model, G);
    let rollouts: Vec<Rollout> = groups
        .iter()
        .flatten()
        .enumerate()
        .map(|(i, e)| e.rollout(i as f64 * 0.1 - 1.0, 1.0 - i as f64 * 0.05))
        .collect();
    let norm = normalizer(&rollouts);
    let grads = |micro: usize, micro_tokens: usize| -> Vec<Tensor> {
        let vars = model.vs.trainable_variables();
        for v in &vars {
            let mut g = v.grad();
            if g.defined() {
                let _ = g.zero_();
            }
        }
        let config = StepConfig {
            micro_batch: micro,
            micro_batch_tokens: micro_tokens,
            aggregation: Aggregation::TokenMean,
            ..Default::default()
        };
        accumulate(&model, None, &rollouts, &config, norm, None).expect("accumulate");
        vars.iter().map(|v| v.grad().copy()).collect()
    };
    let whole = grads(rollouts.len(), usize::MAX);
    let size = whole
        .iter()
        .map(|a| a.abs().max().double_value(&[]))
        .fold(0.0, f64::max);
    assert!(size > 1e-4, "a real gradient: {size}");
    // Micro-batches of 3 rows, and of 2 rows' worth of padded tokens of the longest row.
    let longest = rollouts.iter().map(|r| r.tokens.len()).max().unwrap_or(1);
    for (micro, micro_tokens) in [(3, usize::MAX), (rollouts.len(), 2 * longest)] {
        let parts = grads(micro, micro_tokens);
        let diff = whole
            .iter()
            .zip(&parts)
            .map(|(a, b)| (a - b).abs().max().double_value(&[]))
            .fold(0.0, f64::max);
        assert!(
            diff < 1e-6 * size.max(1.0),
            "micro-batches of {micro} rows, {micro_tokens} tokens differ from one batch by {diff:.3e}"
        );
    }
}
