//! The rotary embedding's inverse frequencies, as transformers' `modeling_rope_utils`
//! computes them, in float32: `default` θ^(−2j/d), `linear` (divided by the factor) and
//! `llama3` (low frequencies divided by the factor, high ones kept, a smooth ramp
//! between). The angles, their cos and sin are taken in `crate::model`.

use tch::{Device, Kind, Tensor};

use crate::config::{Rope, RopeScaling};

/// `[head_dim / 2]` float32 inverse frequencies of `rope` for heads of `head_dim`.
pub fn inv_freq(rope: &Rope, head_dim: usize, device: Device) -> Tensor {
    let exponents = Tensor::arange_start_step(0, head_dim as i64, 2, (Kind::Int64, device))
        .to_kind(Kind::Float)
        / head_dim as f64;
    let base = Tensor::from(rope.theta as f32).to_device(device);
    let inv = base.pow(&exponents).reciprocal();
    match rope.scaling {
        RopeScaling::Default => inv,
        RopeScaling::Linear { factor } => inv / factor,
        RopeScaling::Llama3 {
            factor,
            low_freq_factor,
            high_freq_factor,
            original_max_position_embeddings: old,
        } => {
            let low_wavelen = old / low_freq_factor;
            let high_wavelen = old / high_freq_factor;
            let wavelen = inv.reciprocal() * (2.0 * std::f64::consts::PI);
            let divided = wavelen.gt(low_wavelen);
            let scaled = inv.where_self(&divided.logical_not(), &(&inv / factor));
            let smooth = ((wavelen.reciprocal() * old) - low_freq_factor)
                / (high_freq_factor - low_freq_factor);
            let smoothed: Tensor = (1.0 - &smooth) * &scaled / factor + &smooth * &scaled;
            let medium = wavelen
                .lt(high_wavelen)
                .logical_not()
                .logical_and(&divided.logical_not());
            smoothed.where_self(&medium, &scaled)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_keeps_high_frequencies_divides_low_ones_and_smooths_between() {
        // Llama-3.2-1B's rope: d 64, θ 5e5, factor 32, low 1, high 4, original 8192.
        let plain = Rope {
            theta: 500000.0,
            scaling: RopeScaling::Default,
        };
        let llama3 = Rope {
            scaling: RopeScaling::Llama3 {
                factor: 32.0,
                low_freq_factor: 1.0,
                high_freq_factor: 4.0,
                original_max_position_embeddings: 8192.0,
            },
            ..plain
        };
        let a: Vec<f64> =
            Vec::try_from(inv_freq(&plain, 64, Device::Cpu).to_kind(Kind::Double)).expect("values");
        let b: Vec<f64> = Vec::try_from(inv_freq(&llama3, 64, Device::Cpu).to_kind(Kind::Double))
            .expect("values");
        let ratios: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x / y).collect();
        for (j, r) in ratios.iter().enumerate() {
            match j {
                0..=14 => assert_eq!(*r, 1.0, "j {j} unchanged"),
                18..=31 => assert!((r - 32.0).abs() < 1e-4, "j {j} divided: {r}"),
                _ => {}
            }
        }
        // The smoothed band (ratios measured with transformers: 1.6513, 3.2923, 9.6667).
        for (j, want) in [(15, 1.6513), (16, 3.2923), (17, 9.6667)] {
            assert!((ratios[j] - want).abs() < 1e-3, "j {j}: {}", ratios[j]);
        }
        let linear = Rope {
            scaling: RopeScaling::Linear { factor: 4.0 },
            ..plain
        };
        let c: Vec<f64> = Vec::try_from(inv_freq(&linear, 64, Device::Cpu).to_kind(Kind::Double))
            .expect("values");
        assert!(a.iter().zip(&c).all(|(x, y)| (x / y - 4.0).abs() < 1e-5));
    }
}
