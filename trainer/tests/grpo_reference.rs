//! The GRPO-family losses and advantages against the team's PyTorch implementation of the
//! same formulas (`scripts/grpo_reference.py`, run with the project's venv, `ARENA_PYTHON`):
//! same float64 inputs, every option (GRPO, DAPO, Dr. GRPO, GSPO, KL, TIS); the loss, its
//! gradient with respect to the log-probabilities, the statistics and the advantages.
//! Under `CI=true` a missing python fails the test.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

use serde_json::json;
use tch::{Device, Kind, Tensor};
use trainer::grpo::advantage::{AdvantageConfig, Baseline, Scale, group_advantages};
use trainer::grpo::loss::{
    Aggregation, LossConfig, LossInputs, LossStats, Normalizer, RatioLevel, aggregation_weights,
    policy_loss,
};

struct Case {
    name: &'static str,
    loss: LossConfig,
    aggregation: Aggregation,
    use_old: bool,
    use_behaviour: bool,
    use_ref: bool,
}

fn cases() -> Vec<Case> {
    let base = LossConfig {
        clip_low: 0.2,
        clip_high: 0.2,
        ratio: RatioLevel::Token,
        kl_beta: 0.0,
        tis_cap: None,
    };
    vec![
        Case {
            name: "grpo",
            loss: LossConfig {
                kl_beta: 0.04,
                ..base
            },
            aggregation: Aggregation::SequenceMean,
            use_old: true,
            use_behaviour: false,
            use_ref: true,
        },
        Case {
            name: "dapo",
            loss: LossConfig {
                clip_high: 0.28,
                tis_cap: Some(2.0),
                ..base
            },
            aggregation: Aggregation::TokenMean,
            use_old: true,
            use_behaviour: true,
            use_ref: false,
        },
        Case {
            name: "dr_grpo",
            loss: base,
            aggregation: Aggregation::ConstantLength { length: 16.0 },
            use_old: true,
            use_behaviour: false,
            use_ref: false,
        },
        Case {
            name: "gspo",
            loss: LossConfig {
                clip_low: 3e-4,
                clip_high: 4e-4,
                ratio: RatioLevel::Sequence,
                ..base
            },
            aggregation: Aggregation::SequenceMean,
            use_old: true,
            use_behaviour: false,
            use_ref: false,
        },
        Case {
            name: "gspo_wide_tis",
            loss: LossConfig {
                clip_low: 0.5,
                clip_high: 0.5,
                ratio: RatioLevel::Sequence,
                tis_cap: Some(1.5),
                ..base
            },
            aggregation: Aggregation::TokenMean,
            use_old: true,
            use_behaviour: true,
            use_ref: false,
        },
        Case {
            name: "on_policy_tis_kl",
            loss: LossConfig {
                kl_beta: 0.1,
                tis_cap: Some(1.2),
                ..base
            },
            aggregation: Aggregation::TokenMean,
            use_old: false,
            use_behaviour: true,
            use_ref: true,
        },
    ]
}

fn advantage_cases() -> Vec<(&'static str, AdvantageConfig)> {
    vec![
        ("adv_grpo", AdvantageConfig::default()),
        (
            "adv_dr_grpo",
            AdvantageConfig {
                scale: Scale::None,
                ..Default::default()
            },
        ),
        (
            "adv_loo_std",
            AdvantageConfig {
                baseline: Baseline::LeaveOneOut,
                scale: Scale::GroupStd,
                eps: 1e-4,
            },
        ),
    ]
}

fn stats_vec(s: &LossStats) -> Vec<f64> {
    vec![
        s.ratio_mean,
        s.ratio_min,
        s.ratio_max,
        s.clip_low_fraction,
        s.clip_high_fraction,
        s.kl,
        s.behaviour_ratio_mean,
        s.behaviour_ratio_min,
        s.behaviour_ratio_max,
        s.tis_truncated_fraction,
    ]
}

#[test]
fn losses_gradients_stats_and_advantages_match_pytorch() {
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    tch::manual_seed(17);
    let opts = (Kind::Double, Device::Cpu);
    let (b, t) = (8, 10);
    let logp = -Tensor::rand([b, t], opts) * 3.0;
    let old_logp = &logp + Tensor::randn([b, t], opts) * 0.6;
    let behaviour_logp = &old_logp + Tensor::randn([b, t], opts) * 0.5;
    let ref_logp = &logp + Tensor::randn([b, t], opts) * 0.2;
    let advantages = Tensor::randn([b, 1], opts)
        .expand([b, t], true)
        .contiguous();
    // Right padding of varying length and a few observation tokens; one empty row.
    let lengths = Tensor::from_slice(&[10i64, 7, 4, 9, 1, 0, 10, 6]).view([b, 1]);
    let positions = Tensor::arange(t, (Kind::Int64, Device::Cpu)).view([1, t]);
    let obs = Tensor::rand([b, t], opts).lt(0.2);
    let mask = positions
        .lt_tensor(&lengths)
        .logical_and(&obs.logical_not())
        .to_kind(Kind::Double);
    // NaN where the mask is 0 on the logprobs: must not leak.
    let logp = logp.masked_fill(&mask.le(0.0).logical_and(&positions.ge(8)), f64::NAN);
    let rewards = Tensor::from_slice(&[
        1.0, 0.0, 0.0, 1.0, 0.5, 0.0, 1.0, 1.0, 0.2, 0.7, 0.1, 0.9, 0.0, 0.0, 0.0, 1.0,
    ])
    .view([4, 4]);

    let dir = tempfile::tempdir().expect("tempdir");
    let inputs = dir.path().join("inputs.safetensors");
    Tensor::write_safetensors(
        &[
            ("logp", &logp),
            ("old_logp", &old_logp),
            ("behaviour_logp", &behaviour_logp),
            ("ref_logp", &ref_logp),
            ("advantages", &advantages),
            ("mask", &mask),
            ("rewards", &rewards),
        ],
        &inputs,
    )
    .expect("write inputs");
    let cases = cases();
    let mut spec: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| {
            json!({"name": c.name, "loss": c.loss, "aggregation": c.aggregation,
                   "use_old": c.use_old, "use_behaviour": c.use_behaviour, "use_ref": c.use_ref})
        })
        .collect();
    for (name, cfg) in advantage_cases() {
        spec.push(json!({"name": name, "advantage": cfg}));
    }
    let cases_path = dir.path().join("cases.json");
    std::fs::write(&cases_path, serde_json::to_string(&spec).expect("json")).expect("write");
    let out_path = dir.path().join("out.safetensors");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/grpo_reference.py");
    let status = Command::new(python)
        .arg(&script)
        .arg(&inputs)
        .arg(&cases_path)
        .arg(&out_path)
        .status()
        .expect("python runs");
    assert!(status.success(), "scripts/grpo_reference.py failed");
    let want: HashMap<String, Tensor> = Tensor::read_safetensors(&out_path)
        .expect("reference output")
        .into_iter()
        .collect();

    let mut worst: f64 = 0.0;
    let mut report = Vec::new();
    for c in &cases {
        let x = logp.detach().set_requires_grad(true);
        let inputs = LossInputs {
            logp: &x,
            old_logp: c.use_old.then_some(&old_logp),
            behaviour_logp: c.use_behaviour.then_some(&behaviour_logp),
            ref_logp: c.use_ref.then_some(&ref_logp),
            advantages: &advantages,
            mask: &mask,
        };
        let weights =
            aggregation_weights(&mask, c.aggregation, Normalizer::of(&mask)).expect("weights");
        let (loss, stats) = policy_loss(&inputs, &c.loss, &weights).expect("loss");
        loss.backward();
        let loss_diff =
            (loss.double_value(&[]) - want[&format!("{}.loss", c.name)].double_value(&[0])).abs();
        let grad_diff = (x.grad() - &want[&format!("{}.grad", c.name)])
            .abs()
            .max()
            .double_value(&[]);
        let want_stats: Vec<f64> =
            Vec::try_from(&want[&format!("{}.stats", c.name)]).expect("stats");
        let stats_diff = stats_vec(&stats)
            .iter()
            .zip(&want_stats)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(
            loss.double_value(&[]).is_finite() && x.grad().isfinite().all().int64_value(&[]) == 1,
            "{}: a NaN off the mask leaked",
            c.name
        );
        report.push(format!(
            "{}: loss {:.6} sum|grad| {:.4} stats {:.3?}; |dloss| {loss_diff:.1e} |dgrad| {grad_diff:.1e} |dstats| {stats_diff:.1e}",
            c.name,
            loss.double_value(&[]),
            x.grad().abs().sum(Kind::Double).double_value(&[]),
            stats_vec(&stats)
        ));
        worst = worst.max(loss_diff).max(grad_diff).max(stats_diff);
    }
    let groups: Vec<Vec<f64>> = (0..4)
        .map(|g| Vec::try_from(rewards.get(g)).expect("row"))
        .collect();
    for (name, cfg) in advantage_cases() {
        let ours: Vec<f64> = groups
            .iter()
            .flat_map(|g| group_advantages(g, &cfg).expect("valid group"))
            .collect();
        let theirs: Vec<f64> =
            Vec::try_from(want[&format!("{name}.advantages")].view([-1])).expect("advantages");
        let diff = ours
            .iter()
            .zip(&theirs)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        report.push(format!("{name}: |dadv| {diff:.1e}"));
        worst = worst.max(diff);
    }
    eprintln!("{}", report.join("\n"));
    eprintln!("max abs difference against PyTorch: {worst:.3e}");
    assert!(
        worst < 1e-12,
        "max abs difference against PyTorch {worst:.3e} (float64 inputs):\n{}",
        report.join("\n")
    );
}

#[test]
fn adamw_with_clipping_and_schedule_matches_torch_optim_adamw() {
    use trainer::optim::{AdamW, OptimConfig, Schedule};
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    tch::manual_seed(3);
    let opts = (Kind::Float, Device::Cpu);
    let steps = 12;
    let w0 = Tensor::randn([3, 4], opts);
    let b0 = Tensor::randn([4], opts);
    // Gradients of growing size, so clipping starts part-way.
    let scale = (Tensor::arange(steps, opts) * 0.5 + 0.1).view([steps, 1, 1]);
    let gw = Tensor::randn([steps, 3, 4], opts) * &scale;
    let gb = Tensor::randn([steps, 4], opts) * scale.view([steps, 1]);
    let config = OptimConfig {
        lr: 0.05,
        weight_decay: 0.1,
        beta1: 0.9,
        beta2: 0.95,
        eps: 1e-8,
        warmup_steps: 3,
        total_steps: 10,
        schedule: Schedule::Cosine,
        min_lr_ratio: 0.1,
        max_grad_norm: Some(2.0),
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let inputs = dir.path().join("adamw.safetensors");
    Tensor::write_safetensors(&[("w", &w0), ("b", &b0), ("gw", &gw), ("gb", &gb)], &inputs)
        .expect("write");
    let config_path = dir.path().join("adamw.json");
    std::fs::write(&config_path, serde_json::to_string(&config).expect("json")).expect("write");
    let out_path = dir.path().join("out.safetensors");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/grpo_reference.py");
    let status = Command::new(python)
        .arg(&script)
        .arg("adamw")
        .arg(&inputs)
        .arg(&config_path)
        .arg(&out_path)
        .status()
        .expect("python runs");
    assert!(status.success(), "scripts/grpo_reference.py adamw failed");
    let want: HashMap<String, Tensor> = Tensor::read_safetensors(&out_path)
        .expect("reference output")
        .into_iter()
        .collect();

    let vs = tch::nn::VarStore::new(Device::Cpu);
    let w = vs.root().var_copy("w", &w0);
    let b = vs.root().var_copy("b", &b0);
    let mut opt = AdamW::new(&vs, config).expect("optimizer");
    let mut worst: f64 = 0.0;
    let mut clipped = 0;
    for step in 0..steps {
        let loss = (&w * gw.get(step)).sum(Kind::Float) + (&b * gb.get(step)).sum(Kind::Float);
        opt.backward(&loss);
        let stats = opt.step();
        clipped += stats.clipped as usize;
        worst = worst
            .max((stats.lr - want["lrs"].double_value(&[step])).abs())
            .max({
                let norm = want["norms"].double_value(&[step]);
                (stats.grad_norm - norm).abs() / norm.max(1.0)
            });
    }
    let dw = (&w - &want["w"]).abs().max().double_value(&[]);
    let db = (&b - &want["b"]).abs().max().double_value(&[]);
    worst = worst.max(dw).max(db);
    eprintln!(
        "AdamW against torch.optim.AdamW, {steps} steps ({clipped} clipped): max |dw| {dw:.3e}, |db| {db:.3e}"
    );
    assert!(
        clipped > 0 && clipped < steps as usize,
        "{clipped} steps clipped"
    );
    assert!(
        worst < 1e-5,
        "AdamW differs from torch.optim.AdamW by {worst:.3e} (float32 parameters)"
    );
}

#[test]
fn agentic_credit_matches_pytorch() {
    use trainer::grpo::credit::{self, CreditConfig, GroupCredit};
    let Some(python) = ci::require::env_path("ARENA_PYTHON") else {
        return;
    };
    // Ragged groups: episodes stopping at different turns, flat turns, both scalings.
    let groups = [
        (
            vec![
                vec![0.1, 0.3, 0.5],
                vec![0.1],
                vec![0.0, 0.3],
                vec![0.2, 0.2, 0.9],
            ],
            vec![1.0, 0.0, 1.0, 0.0],
            4usize,
            credit::Scale::None,
        ),
        (
            vec![
                vec![0.3, 0.3],
                vec![0.3],
                vec![0.0, 0.5, 0.5, 0.7],
                vec![0.25],
            ],
            vec![0.5, 0.0, 1.0, 0.25],
            4,
            credit::Scale::GroupStd,
        ),
        (
            vec![vec![0.0], vec![0.0], vec![0.0]],
            vec![1.0, 0.0, 0.0],
            2,
            credit::Scale::GroupStd,
        ),
    ];
    let eps = 1e-4;
    let spec: Vec<serde_json::Value> = groups
        .iter()
        .map(|(levels, verdicts, horizon, scale)| {
            json!({"levels": levels, "verdicts": verdicts, "horizon": horizon,
                   "scale": scale, "eps": eps})
        })
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let spec_path = dir.path().join("credit.json");
    std::fs::write(&spec_path, serde_json::to_string(&spec).expect("json")).expect("write");
    let out_path = dir.path().join("credit.safetensors");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/grpo_reference.py");
    let status = Command::new(python)
        .arg(&script)
        .arg("credit")
        .arg(&spec_path)
        .arg(&out_path)
        .status()
        .expect("python runs");
    assert!(status.success(), "scripts/grpo_reference.py credit failed");
    let want: HashMap<String, Tensor> = Tensor::read_safetensors(&out_path)
        .expect("reference output")
        .into_iter()
        .collect();
    let mut worst: f64 = 0.0;
    for (g, (levels, verdicts, horizon, scale)) in groups.iter().enumerate() {
        let mut c = GroupCredit::new(
            levels.len(),
            CreditConfig {
                horizon: *horizon,
                scale: *scale,
                eps,
                staleness_cap: 100,
            },
        )
        .expect("group");
        for (i, ls) in levels.iter().enumerate() {
            for l in ls {
                c.record_turn(i, *l, 0).expect("turn");
            }
            c.record_verdict(i, verdicts[i]).expect("verdict");
        }
        let finals = c.final_advantages().expect("complete");
        for (i, f) in finals.iter().enumerate() {
            for (t, v) in f.iter().enumerate() {
                let p = c.provisional(t).expect("ready")[i].expect("played");
                let wf = want[&format!("g{g}.final")].double_value(&[i as i64, t as i64]);
                let wp = want[&format!("g{g}.provisional")].double_value(&[i as i64, t as i64]);
                worst = worst.max((v - wf).abs()).max((p - wp).abs());
            }
        }
    }
    eprintln!("Agentic GRPO credit against PyTorch: max abs difference {worst:.3e}");
    assert!(
        worst < 1e-9,
        "Agentic GRPO credit differs from PyTorch by {worst:.3e}"
    );
}
