//! Optimization as users of transformers and PyTorch expect: AdamW with decoupled weight
//! decay, the global gradient norm clipped, a learning-rate schedule with linear warm-up,
//! and the device chosen by name.
//!
//! The AdamW is written here over the `VarStore`'s tensors (the formulas of
//! `torch.optim.AdamW`, decay skipped for one-dimensional tensors: norms and biases), so its
//! state (step, first and second moments) is plain tensors a checkpoint can save and load.
//!
//! Accumulation: an update's rows are split into micro-batches bounded by rows and by
//! padded tokens ([`crate::grpo::step::micro_batches`]); each micro-batch's loss is
//! aggregated with the update's global counts ([`crate::grpo::loss::Normalizer`]) and
//! [`AdamW::backward`] accumulates its gradient, then one [`AdamW::step`]. Which rows make
//! an update is the algorithm's choice (a group's turn, or a group), not a token count, so
//! that Agentic GRPO updates as soon as a turn is played.

use tch::{Device, Kind, Tensor, nn};

use crate::grpo::GrpoError;

/// The shape of the learning rate after warm-up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Schedule {
    /// The peak rate throughout.
    Constant,
    /// Linear from the peak to `min_lr_ratio` of it at `total_steps`.
    Linear,
    /// Half a cosine from the peak to `min_lr_ratio` of it at `total_steps`.
    Cosine,
}

/// The optimizer's settings.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OptimConfig {
    /// Peak learning rate.
    pub lr: f64,
    /// Decoupled weight decay (AdamW), on tensors of two or more dimensions.
    pub weight_decay: f64,
    /// First-moment decay.
    pub beta1: f64,
    /// Second-moment decay.
    pub beta2: f64,
    /// Added to the second moment's square root.
    pub eps: f64,
    /// Steps of linear warm-up from `lr / warmup_steps` to `lr`.
    pub warmup_steps: u64,
    /// Steps of the whole run (the end of the decay).
    pub total_steps: u64,
    /// The schedule after warm-up.
    pub schedule: Schedule,
    /// The final rate as a fraction of the peak.
    pub min_lr_ratio: f64,
    /// The global gradient norm is scaled down to this (`None`: no clipping).
    pub max_grad_norm: Option<f64>,
}

impl Default for OptimConfig {
    fn default() -> Self {
        OptimConfig {
            lr: 1e-6,
            weight_decay: 0.01,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            warmup_steps: 0,
            total_steps: 1000,
            schedule: Schedule::Constant,
            min_lr_ratio: 0.0,
            max_grad_norm: Some(1.0),
        }
    }
}

impl OptimConfig {
    /// Checks every field's range.
    pub fn validate(&self) -> Result<(), GrpoError> {
        let bad = |name: &'static str, message: String| Err(GrpoError::Setting { name, message });
        if !(self.lr.is_finite() && self.lr > 0.0) {
            return bad("lr", format!("must be positive, got {}", self.lr));
        }
        if !(0.0..1.0).contains(&self.beta1) || !(0.0..1.0).contains(&self.beta2) {
            return bad(
                "beta1/beta2",
                format!("must be in [0, 1), got {} and {}", self.beta1, self.beta2),
            );
        }
        if self.weight_decay.is_nan() || self.weight_decay < 0.0 {
            return bad(
                "weight_decay",
                format!("must be >= 0, got {}", self.weight_decay),
            );
        }
        if !(0.0..=1.0).contains(&self.min_lr_ratio) {
            return bad(
                "min_lr_ratio",
                format!("must be in [0, 1], got {}", self.min_lr_ratio),
            );
        }
        if let Some(max) = self.max_grad_norm
            && (max.is_nan() || max <= 0.0)
        {
            return bad("max_grad_norm", format!("must be positive, got {max}"));
        }
        Ok(())
    }

    /// The learning rate of step `step` (from 0).
    pub fn lr_at(&self, step: u64) -> f64 {
        if step < self.warmup_steps {
            return self.lr * (step + 1) as f64 / self.warmup_steps as f64;
        }
        let span = self.total_steps.saturating_sub(self.warmup_steps).max(1) as f64;
        let progress = ((step - self.warmup_steps) as f64 / span).min(1.0);
        let shape = match self.schedule {
            Schedule::Constant => return self.lr,
            Schedule::Linear => 1.0 - progress,
            Schedule::Cosine => 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()),
        };
        self.lr * (self.min_lr_ratio + (1.0 - self.min_lr_ratio) * shape)
    }
}

/// What one optimizer step did.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct StepStats {
    /// The step just taken (from 0).
    pub step: u64,
    /// Its learning rate.
    pub lr: f64,
    /// The global gradient norm before clipping.
    pub grad_norm: f64,
    /// Whether it was clipped.
    pub clipped: bool,
}

/// AdamW over the trainable variables of a `VarStore`.
#[derive(Debug)]
pub struct AdamW {
    config: OptimConfig,
    params: Vec<(String, Tensor)>,
    m: Vec<Tensor>,
    v: Vec<Tensor>,
    step: u64,
}

impl AdamW {
    /// An optimizer for every trainable variable of `vs` (in name order).
    pub fn new(vs: &nn::VarStore, config: OptimConfig) -> Result<AdamW, GrpoError> {
        config.validate()?;
        let mut params: Vec<(String, Tensor)> = vs
            .variables()
            .into_iter()
            .filter(|(_, t)| t.requires_grad())
            .collect();
        params.sort_by(|a, b| a.0.cmp(&b.0));
        let zeros = |p: &Tensor| Tensor::zeros_like(p).to_kind(Kind::Float);
        Ok(AdamW {
            config,
            m: params.iter().map(|(_, p)| zeros(p)).collect(),
            v: params.iter().map(|(_, p)| zeros(p)).collect(),
            params,
            step: 0,
        })
    }

    /// Steps taken so far.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// The state to checkpoint: `m.NAME` and `v.NAME` for every variable, and `step`.
    pub fn state_tensors(&self) -> Vec<(String, Tensor)> {
        let mut out = vec![("step".to_owned(), Tensor::from_slice(&[self.step as i64]))];
        for (i, (name, _)) in self.params.iter().enumerate() {
            out.push((format!("m.{name}"), self.m[i].shallow_clone()));
            out.push((format!("v.{name}"), self.v[i].shallow_clone()));
        }
        out
    }

    /// Restores [`Self::state_tensors`]; every variable's moments must be there, with the
    /// variable's shape.
    pub fn load_state_tensors(&mut self, tensors: &[(String, Tensor)]) -> Result<(), GrpoError> {
        let find = |key: &str| {
            tensors
                .iter()
                .find(|(n, _)| n == key)
                .map(|(_, t)| t)
                .ok_or_else(|| GrpoError::Setting {
                    name: "optimizer state",
                    message: format!("{key} is missing"),
                })
        };
        let step = find("step")?.int64_value(&[0]);
        tch::no_grad(|| -> Result<(), GrpoError> {
            for (i, (name, p)) in self.params.iter().enumerate() {
                for (slot, key) in [
                    (&mut self.m[i], format!("m.{name}")),
                    (&mut self.v[i], format!("v.{name}")),
                ] {
                    let t = find(&key)?;
                    if t.size() != p.size() {
                        return Err(GrpoError::Setting {
                            name: "optimizer state",
                            message: format!(
                                "{key} has shape {:?}, {:?} expected",
                                t.size(),
                                p.size()
                            ),
                        });
                    }
                    slot.copy_(&t.to_kind(Kind::Float).to_device(slot.device()));
                }
            }
            Ok(())
        })?;
        self.step = u64::try_from(step).unwrap_or(0);
        Ok(())
    }

    /// Moves the end of the schedule's decay to `total` steps (at least one past the
    /// warm-up): a run whose length is known only as it goes (a time budget) anneals by
    /// its last step.
    pub fn set_total_steps(&mut self, total: u64) {
        self.config.total_steps = total.max(self.config.warmup_steps + 1);
    }

    /// The settings.
    pub fn config(&self) -> &OptimConfig {
        &self.config
    }

    /// Accumulates `loss`'s gradient into the variables (one micro-batch).
    pub fn backward(&self, loss: &Tensor) {
        loss.backward();
    }

    /// Clears the accumulated gradients.
    pub fn zero_grad(&mut self) {
        for (_, p) in &mut self.params {
            let mut g = p.grad();
            if g.defined() {
                let _ = g.zero_();
            }
        }
    }

    /// The global L2 norm of the accumulated gradients.
    pub fn grad_norm(&self) -> f64 {
        tch::no_grad(|| {
            self.params
                .iter()
                .map(|(_, p)| p.grad())
                .filter(Tensor::defined)
                .map(|g| {
                    g.to_kind(Kind::Double)
                        .pow_tensor_scalar(2)
                        .sum(Kind::Double)
                })
                .fold(0.0, |acc, s| acc + s.double_value(&[]))
                .sqrt()
        })
    }

    /// Clips the accumulated gradients, updates every variable with the scheduled rate and
    /// clears the gradients. Variables without a gradient are left alone.
    pub fn step(&mut self) -> StepStats {
        let lr = self.config.lr_at(self.step);
        let grad_norm = self.grad_norm();
        let clip = match self.config.max_grad_norm {
            Some(max) if grad_norm > max => max / (grad_norm + 1e-6),
            _ => 1.0,
        };
        let t = (self.step + 1) as i32;
        let (b1, b2) = (self.config.beta1, self.config.beta2);
        let correction1 = 1.0 - b1.powi(t);
        let correction2 = 1.0 - b2.powi(t);
        tch::no_grad(|| {
            for (i, (_, p)) in self.params.iter_mut().enumerate() {
                let g = p.grad();
                if !g.defined() {
                    continue;
                }
                let g = g.to_kind(Kind::Float) * clip;
                let _ = self.m[i].g_mul_scalar_(b1).g_add_(&(&g * (1.0 - b1)));
                let _ = self.v[i].g_mul_scalar_(b2).g_add_(&(&g * &g * (1.0 - b2)));
                let denom = (&self.v[i] / correction2).sqrt() + self.config.eps;
                let update = (&self.m[i] / correction1) / denom * lr;
                let kind = p.kind();
                if p.dim() >= 2 && self.config.weight_decay > 0.0 {
                    let _ = p.g_mul_scalar_(1.0 - lr * self.config.weight_decay);
                }
                let _ = p.g_sub_(&update.to_kind(kind));
            }
        });
        self.zero_grad();
        let stats = StepStats {
            step: self.step,
            lr,
            grad_norm,
            clipped: clip < 1.0,
        };
        self.step += 1;
        stats
    }
}

/// The device named `cpu`, `cuda` or `cuda:N`; CUDA when none is available is an error.
pub fn parse_device(name: &str) -> Result<Device, GrpoError> {
    let bad = |message: String| GrpoError::Setting {
        name: "device",
        message,
    };
    match name {
        "cpu" => Ok(Device::Cpu),
        _ => {
            let index = match name.strip_prefix("cuda") {
                Some("") => 0,
                Some(rest) => rest
                    .strip_prefix(':')
                    .and_then(|n| n.parse::<usize>().ok())
                    .ok_or_else(|| bad(format!("`{name}`: expected cpu, cuda or cuda:N")))?,
                None => return Err(bad(format!("`{name}`: expected cpu, cuda or cuda:N"))),
            };
            let count = if tch::Cuda::is_available() {
                tch::Cuda::device_count() as usize
            } else {
                0
            };
            if index >= count {
                return Err(bad(format!(
                    "`{name}`: {count} CUDA device(s) available on this machine"
                )));
            }
            Ok(Device::Cuda(index))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() < tol, "{a} != {b}");
    }

    #[test]
    fn warm_up_then_linear_cosine_or_constant() {
        let c = OptimConfig {
            lr: 1.0,
            warmup_steps: 4,
            total_steps: 14,
            schedule: Schedule::Linear,
            min_lr_ratio: 0.1,
            ..Default::default()
        };
        close(c.lr_at(0), 0.25, 1e-12);
        close(c.lr_at(3), 1.0, 1e-12);
        close(c.lr_at(4), 1.0, 1e-12);
        close(c.lr_at(9), 0.1 + 0.9 * 0.5, 1e-12);
        close(c.lr_at(14), 0.1, 1e-12);
        close(c.lr_at(100), 0.1, 1e-12);
        let cos = OptimConfig {
            schedule: Schedule::Cosine,
            ..c
        };
        close(cos.lr_at(9), 0.1 + 0.9 * 0.5, 1e-12);
        close(
            cos.lr_at(4 + 10 / 4),
            0.1 + 0.9 * 0.5 * (1.0 + (0.2f64 * std::f64::consts::PI).cos()),
            1e-12,
        );
        let constant = OptimConfig {
            schedule: Schedule::Constant,
            ..c
        };
        close(constant.lr_at(13), 1.0, 1e-12);
    }

    #[test]
    fn moving_the_schedule_s_end_anneals_by_the_new_last_step() {
        let c = OptimConfig {
            lr: 1.0,
            warmup_steps: 4,
            total_steps: 90,
            schedule: Schedule::Cosine,
            min_lr_ratio: 0.1,
            ..OptimConfig::default()
        };
        let vs = nn::VarStore::new(tch::Device::Cpu);
        let mut opt = AdamW::new(&vs, c).expect("valid");
        assert!(opt.config().lr_at(40) > 0.6);
        opt.set_total_steps(40);
        close(opt.config().lr_at(40), 0.1, 1e-12);
        close(opt.config().lr_at(22), 0.1 + 0.9 * 0.5, 1e-12);
        // Never inside the warm-up.
        opt.set_total_steps(2);
        assert_eq!(opt.config().total_steps, 5);
    }

    #[test]
    fn adamw_first_steps_by_hand_with_decay_and_clipping() {
        let vs = nn::VarStore::new(Device::Cpu);
        let w = vs.root().var_copy(
            "w",
            &Tensor::from_slice(&[1.0f32, -2.0, 0.5, 3.0]).view([2, 2]),
        );
        let b = vs.root().var_copy("b", &Tensor::from_slice(&[1.0f32, 1.0]));
        let config = OptimConfig {
            lr: 0.1,
            weight_decay: 0.5,
            max_grad_norm: Some(1.0),
            ..Default::default()
        };
        let mut opt = AdamW::new(&vs, config).expect("optimizer");
        // loss = sum(w * (3, -4, 0, 0)) + sum(b * 0): gradient norm 5, clipped to 1.
        let coef = Tensor::from_slice(&[3.0f32, -4.0, 0.0, 0.0]).view([2, 2]);
        opt.backward(&((&w * &coef).sum(Kind::Float) + (&b * 0.0).sum(Kind::Float)));
        let stats = opt.step();
        close(stats.grad_norm, 5.0, 1e-5);
        assert!(stats.clipped);
        // First step: m_hat = g, v_hat = g^2, so the update is lr * sign(g) where g != 0
        // (eps aside); the matrix decays by lr * wd first, the bias does not.
        let w_now: Vec<f64> = Vec::try_from(w.to_kind(Kind::Double).view([-1])).expect("w");
        let decay = 1.0 - 0.1 * 0.5;
        close(w_now[0], 1.0 * decay - 0.1, 1e-5);
        close(w_now[1], -2.0 * decay + 0.1, 1e-5);
        close(w_now[2], 0.5 * decay, 1e-6);
        close(w_now[3], 3.0 * decay, 1e-6);
        let b_now: Vec<f64> = Vec::try_from(b.to_kind(Kind::Double)).expect("b");
        close(b_now[0], 1.0, 1e-9);
        assert_eq!(opt.steps(), 1);
        assert_eq!(opt.grad_norm(), 0.0, "gradients are cleared after a step");
    }

    #[test]
    fn bad_settings_are_named() {
        assert_eq!(parse_device("cpu").expect("cpu"), Device::Cpu);
        let err = parse_device("tpu").expect_err("no tpu");
        assert_eq!(
            err.to_string(),
            "device: `tpu`: expected cpu, cuda or cuda:N"
        );
        if !tch::Cuda::is_available() {
            let err = parse_device("cuda").expect_err("no cuda here");
            assert!(err.to_string().contains("0 CUDA device(s)"), "{err}");
        }
        let err = OptimConfig {
            lr: 0.0,
            ..Default::default()
        }
        .validate()
        .expect_err("lr 0");
        assert_eq!(err.to_string(), "lr: must be positive, got 0");
    }
}
