//! Which number format the model's matrix products use, and why.
//!
//! Mixed precision here means one rule, applied the same way by every path that runs the
//! model (the learner's update, the sampler's decoding, `serve`, `eval`, `bench`):
//! - every weight takes part at the compute format's precision (a float32 master weight
//!   is rounded to bf16 where it is used; a model held in bf16 is already rounded);
//! - the matrix products (the projections, attention's two products and the LM head)
//!   take bf16 inputs and give bf16 outputs (libtorch accumulates in float32 inside);
//! - the residual stream, the norms, the softmax, the log-probabilities and the loss are
//!   float32, and so are the learner's master weights, their gradients and AdamW's
//!   moments.
//!
//! Because the learner rounds its float32 weights exactly as the sampler's bf16 copy
//! holds them, both compute the same function; the importance ratio at equal policy
//! versions differs from 1 only by the order of the sums inside a kernel (batch shape,
//! KV cache against a whole-sequence pass), which the tests bound.
//!
//! `--dtype auto` chooses bf16 where the hardware multiplies it natively: a CUDA device,
//! or a CPU whose flags (read from `/proc/cpuinfo`) include `amx_bf16` or `avx512_bf16`.
//! Elsewhere bf16 is emulated and slower than float32, so `auto` falls back to float32.
//! The choice is made from the flags, not by a timing at start: a timing would cost
//! seconds per start and differ between runs on a shared machine; `trainer bench`
//! measures both paths side by side.

use tch::{Device, Kind};

/// The precision a command was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dtype {
    /// bf16 where the hardware has bf16 matrix units (AMX, AVX512-BF16, CUDA), else f32.
    Auto,
    /// float32 everywhere (the path before mixed precision).
    F32,
    /// bf16 matrix products (norms, softmax, log-probabilities and loss in float32).
    Bf16,
    /// float16 matrix products (for GPUs).
    F16,
}

/// The path taken: the matrix products' format and the reason it was chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Precision {
    /// `Kind::Float`, `Kind::BFloat16` or `Kind::Half`.
    pub compute: Kind,
    /// Why, in words (printed at start).
    pub reason: String,
}

impl Precision {
    /// float32 everywhere.
    pub fn f32(reason: impl Into<String>) -> Precision {
        Precision {
            compute: Kind::Float,
            reason: reason.into(),
        }
    }

    /// The short name: `f32`, `bf16` or `f16`.
    pub fn name(&self) -> &'static str {
        kind_name(self.compute)
    }

    /// The line a command prints at start.
    pub fn describe(&self) -> String {
        let what = match self.compute {
            Kind::Float => "float32",
            Kind::BFloat16 => {
                "bf16 matrix products (weights' masters, norms, softmax, log-probabilities and loss in float32)"
            }
            _ => {
                "f16 matrix products (weights' masters, norms, softmax, log-probabilities and loss in float32)"
            }
        };
        format!("precision: {what}: {}", self.reason)
    }
}

/// `f32`, `bf16` or `f16`.
pub fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::BFloat16 => "bf16",
        Kind::Half => "f16",
        _ => "f32",
    }
}

/// The CPU flags that give bf16 matrix products in hardware, as `/proc/cpuinfo` names
/// them, of those present in `cpuinfo` (its text).
pub fn bf16_flags(cpuinfo: &str) -> Vec<&'static str> {
    let flags: Vec<&str> = cpuinfo
        .lines()
        .find(|l| l.starts_with("flags"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.split_whitespace().collect())
        .unwrap_or_default();
    ["amx_bf16", "avx512_bf16"]
        .into_iter()
        .filter(|f| flags.contains(f))
        .collect()
}

/// The path for `dtype` on `device`, given the CPU's `/proc/cpuinfo` text (`None` when it
/// cannot be read).
pub fn choose_with(dtype: Dtype, device: Device, cpuinfo: Option<&str>) -> Precision {
    let cuda = matches!(device, Device::Cuda(_));
    match dtype {
        Dtype::F32 => Precision::f32("asked for (--dtype f32)"),
        Dtype::Bf16 => Precision {
            compute: Kind::BFloat16,
            reason: "asked for (--dtype bf16)".to_owned(),
        },
        Dtype::F16 => Precision {
            compute: Kind::Half,
            reason: "asked for (--dtype f16)".to_owned(),
        },
        // Measured (BENCHMARKS.md, "On CUDA"): on an H100 and an H200 this trainer's
        // update and generation are bound by dispatching operations, not by arithmetic,
        // and bf16's extra casts made the default update 0.72x to 0.97x as fast.
        Dtype::Auto if cuda => Precision::f32(
            "--dtype auto on a CUDA device: measured on an H100 and an H200, bf16 was not faster for this trainer (BENCHMARKS.md, \"On CUDA\"); --dtype bf16 asks for it",
        ),
        Dtype::Auto => match cpuinfo {
            None => Precision::f32(
                "--dtype auto: /proc/cpuinfo unreadable, so no bf16 units seen; bf16 would be emulated",
            ),
            Some(text) => {
                let seen = bf16_flags(text);
                if seen.is_empty() {
                    Precision::f32(
                        "--dtype auto: no amx_bf16 or avx512_bf16 in /proc/cpuinfo, so bf16 would be emulated and slower",
                    )
                } else {
                    Precision {
                        compute: Kind::BFloat16,
                        reason: format!(
                            "--dtype auto: the CPU has bf16 matrix units ({} in /proc/cpuinfo)",
                            seen.join(", ")
                        ),
                    }
                }
            }
        },
    }
}

/// [`choose_with`] reading this machine's `/proc/cpuinfo`.
pub fn choose(dtype: Dtype, device: Device) -> Precision {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok();
    choose_with(dtype, device, cpuinfo.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    const XEON: &str = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_bf16 amx_bf16 amx_tile\nbugs\t\t: none\n";
    const OLD: &str = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f\n";

    #[test]
    fn auto_takes_bf16_only_where_the_cpu_has_its_units() {
        let p = choose_with(Dtype::Auto, Device::Cpu, Some(XEON));
        assert_eq!(p.compute, Kind::BFloat16);
        assert!(p.reason.contains("amx_bf16, avx512_bf16"), "{}", p.reason);
        let p = choose_with(Dtype::Auto, Device::Cpu, Some(OLD));
        assert_eq!(p.compute, Kind::Float);
        assert!(
            p.reason.contains("no amx_bf16 or avx512_bf16"),
            "{}",
            p.reason
        );
        let p = choose_with(Dtype::Auto, Device::Cpu, None);
        assert_eq!(p.compute, Kind::Float);
        let p = choose_with(Dtype::Auto, Device::Cuda(0), Some(XEON));
        assert_eq!(
            p.compute,
            Kind::Float,
            "on CUDA auto keeps float32 (measured)"
        );
        assert!(p.reason.contains("not faster"), "{}", p.reason);
    }

    #[test]
    fn an_explicit_dtype_wins_over_the_flags() {
        assert_eq!(
            choose_with(Dtype::F32, Device::Cpu, Some(XEON)).compute,
            Kind::Float
        );
        assert_eq!(
            choose_with(Dtype::Bf16, Device::Cpu, Some(OLD)).compute,
            Kind::BFloat16
        );
        assert_eq!(
            choose_with(Dtype::F16, Device::Cpu, Some(OLD)).name(),
            "f16"
        );
    }

    #[test]
    fn flags_are_whole_words_of_the_flags_line() {
        assert_eq!(bf16_flags(XEON), vec!["amx_bf16", "avx512_bf16"]);
        // A flag named on another line, or as part of a longer word, does not count.
        let text = "model name\t: avx512_bf16 ready\nflags\t\t: xavx512_bf16\n";
        assert!(bf16_flags(text).is_empty());
    }
}
