//! The decoder of every supported family in tch, built from the family-free knobs of
//! [`crate::config::Arch`] (`crate::family` maps each `config.json` to them): RMSNorm,
//! rotary embeddings (`crate::rope`), grouped-query attention with a KV cache and
//! optional per-head q/k norms, SwiGLU MLP, optional biases, tied or separate LM head.
//!
//! Variables live in a `tch::nn::VarStore` under the Hugging Face tensor names
//! (`model.layers.0.self_attn.q_proj.weight`, ...), so the trainer can differentiate
//! through them and checkpoints load by name ([`Model::load`]).
//!
//! The matrix products run in the model's compute format ([`Model::compute`]): float32,
//! or bf16/f16 by the mixed-precision rule of [`crate::precision`] (the residual stream,
//! norms, softmax and logits in float32; weights rounded to the compute format where
//! they are used). A float32 model computes exactly as before mixed precision existed.

use std::collections::HashMap;
use std::path::Path;

use tch::nn::{self, Module};
use tch::{Device, Kind, Tensor};

use crate::config::{Arch, Config};
use crate::lora::{Adapter, LoraConfig};
use crate::{Error, Result};

/// Root-mean-square layer norm with a learned scale.
#[derive(Debug)]
struct RmsNorm {
    weight: Tensor,
    eps: f64,
}

impl RmsNorm {
    fn new(vs: &nn::Path<'_>, size: usize, eps: f64) -> RmsNorm {
        RmsNorm {
            weight: vs.ones("weight", &[size as i64]),
            eps,
        }
    }

    /// The float32 residual `xs` normalised in float32, scaled by the weight at the
    /// compute format's precision, returned in the compute format `c`.
    fn forward(&self, xs: &Tensor, c: Kind) -> Tensor {
        let variance = xs.pow_tensor_scalar(2).mean_dim(-1, true, Kind::Float);
        let xs = xs * (variance + self.eps).rsqrt();
        if c == Kind::Float && self.weight.kind() == Kind::Float {
            return &self.weight * xs;
        }
        (self.weight.to_kind(c).to_kind(Kind::Float) * xs).to_kind(c)
    }
}

/// `xs` (in the compute format `c`) times the projection's weight: with float32 weights
/// and compute, `nn::Linear`'s own product; otherwise the weight (and bias) rounded to `c`
/// and the product taken in `c` (a float32 master weight gets its gradient through the
/// rounding).
fn project(lin: &nn::Linear, xs: &Tensor, c: Kind) -> Tensor {
    if c == Kind::Float && lin.ws.kind() == Kind::Float {
        return lin.forward(xs);
    }
    let out = xs.to_kind(c).matmul(&lin.ws.to_kind(c).tr());
    match &lin.bs {
        Some(bias) => out + bias.to_kind(c),
        None => out,
    }
}

/// A projection and, once [`Model::attach_lora`] put one there, its adapter.
#[derive(Debug)]
struct Proj {
    lin: nn::Linear,
    lora: Option<Adapter>,
}

impl Proj {
    fn forward(&self, xs: &Tensor, c: Kind) -> Tensor {
        let out = project(&self.lin, xs, c);
        match &self.lora {
            Some(adapter) => out + adapter.forward(xs, c),
            None => out,
        }
    }
}

#[derive(Debug)]
struct Attention {
    q_proj: Proj,
    k_proj: Proj,
    v_proj: Proj,
    o_proj: Proj,
    /// Qwen3's per-head norms of q and k (over `head_dim`, before the rotation).
    q_norm: Option<RmsNorm>,
    k_norm: Option<RmsNorm>,
    heads: i64,
    kv_heads: i64,
    head_dim: i64,
}

#[derive(Debug)]
struct Mlp {
    gate_proj: Proj,
    up_proj: Proj,
    down_proj: Proj,
}

#[derive(Debug)]
struct Layer {
    input_layernorm: RmsNorm,
    self_attn: Attention,
    post_attention_layernorm: RmsNorm,
    mlp: Mlp,
}

/// Keys and values of earlier positions, one entry per layer.
#[derive(Debug, Default)]
pub struct Cache {
    kv: Vec<Option<(Tensor, Tensor)>>,
}

impl Cache {
    /// Positions already in the cache.
    pub fn len(&self) -> i64 {
        self.kv
            .first()
            .and_then(|e| e.as_ref())
            .map(|(k, _)| k.size()[2])
            .unwrap_or(0)
    }

    /// Whether the cache holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn map(&self, f: impl Fn(&Tensor) -> Tensor) -> Cache {
        Cache {
            kv: self
                .kv
                .iter()
                .map(|e| e.as_ref().map(|(k, v)| (f(k), f(v))))
                .collect(),
        }
    }

    /// The rows `index` (a 1-D `Int64` tensor of batch rows, in the order wanted).
    pub fn select_rows(&self, index: &Tensor) -> Cache {
        self.map(|t| t.index_select(0, index))
    }

    /// Positions `start..start + len` of every row (dropping leading positions that are
    /// padding in every row).
    pub fn narrow_positions(&self, start: i64, len: i64) -> Cache {
        self.map(|t| t.narrow(2, start, len))
    }

    /// Every position moved right by `pad` zero positions on the left (left padding, to
    /// join a longer batch; the caller's attention mask hides them). Keys are stored
    /// with their rotary position applied, so padding leaves them valid.
    pub fn left_pad(&self, pad: i64) -> Cache {
        if pad == 0 {
            return self.map(Tensor::shallow_clone);
        }
        self.map(|t| t.constant_pad_nd([0, 0, pad, 0]))
    }

    /// The rows of `self` followed by those of `other`: both of the same length and
    /// layer count.
    pub fn cat_rows(&self, other: &Cache) -> Cache {
        Cache {
            kv: self
                .kv
                .iter()
                .zip(&other.kv)
                .map(|(a, b)| match (a, b) {
                    (Some((ka, va)), Some((kb, vb))) => {
                        Some((Tensor::cat(&[ka, kb], 0), Tensor::cat(&[va, vb], 0)))
                    }
                    _ => None,
                })
                .collect(),
        }
    }
}

/// The decoder.
#[derive(Debug)]
pub struct Model {
    /// Its configuration.
    pub config: Config,
    /// The knobs its family derived from the configuration.
    pub arch: Arch,
    /// Its variables.
    pub vs: nn::VarStore,
    embed_tokens: nn::Embedding,
    layers: Vec<Layer>,
    norm: RmsNorm,
    lm_head: Option<nn::Linear>,
    inv_freq: Tensor,
    /// The matrix products' format (see `crate::precision`); `Float` follows the weights'
    /// own kind, so a model whose weights were set to bf16 computes in bf16.
    compute: Kind,
    /// Whether the LM head's float32 weight already holds values rounded to `compute`
    /// ([`Model::hold_in`]), so the forward pass need not round it again.
    head_rounded: bool,
    /// The LoRA adapters' variables and settings, once attached ([`Model::attach_lora`]).
    lora: Option<(nn::VarStore, LoraConfig)>,
    /// Whether training passes recompute the layers instead of keeping their activations
    /// ([`Model::forward_checkpointed`]).
    checkpointing: bool,
    /// Token ids from here on are never sampled ([`Model::limit_sampling_vocab`]).
    sample_vocab: Option<i64>,
}

fn linear(vs: nn::Path<'_>, input: usize, output: usize, bias: bool) -> nn::Linear {
    nn::linear(
        vs,
        input as i64,
        output as i64,
        nn::LinearConfig {
            bias,
            ..Default::default()
        },
    )
}

fn proj(vs: nn::Path<'_>, input: usize, output: usize, bias: bool) -> Proj {
    Proj {
        lin: linear(vs, input, output, bias),
        lora: None,
    }
}

impl Model {
    /// A randomly initialised model (for tests and benchmarks), on `device`.
    ///
    /// # Panics
    /// When the family does not support `config` ([`Model::try_new`] returns the error).
    pub fn new(config: Config, device: Device) -> Model {
        Model::try_new(config, device).unwrap_or_else(|err| panic!("{err}"))
    }

    /// A randomly initialised model of `config`'s family, on `device`.
    pub fn try_new(config: Config, device: Device) -> Result<Model> {
        let arch = crate::family::arch(&config)?;
        let vs = nn::VarStore::new(device);
        let root = vs.root();
        let model = &root / "model";
        let a = &arch;
        let (hidden, head_dim) = (a.hidden, a.head_dim);
        let embed_tokens = nn::embedding(
            &model / "embed_tokens",
            a.vocab as i64,
            hidden as i64,
            Default::default(),
        );
        let layers = (0..a.layers)
            .map(|i| {
                let layer = &model / "layers" / i;
                let attn = &layer / "self_attn";
                let mlp = &layer / "mlp";
                let qk_norm = |name: &str| {
                    a.qk_norm
                        .then(|| RmsNorm::new(&(&attn / name), head_dim, a.eps))
                };
                Layer {
                    input_layernorm: RmsNorm::new(&(&layer / "input_layernorm"), hidden, a.eps),
                    self_attn: Attention {
                        q_proj: proj(&attn / "q_proj", hidden, a.heads * head_dim, a.qkv_bias),
                        k_proj: proj(&attn / "k_proj", hidden, a.kv_heads * head_dim, a.qkv_bias),
                        v_proj: proj(&attn / "v_proj", hidden, a.kv_heads * head_dim, a.qkv_bias),
                        o_proj: proj(&attn / "o_proj", a.heads * head_dim, hidden, a.o_bias),
                        q_norm: qk_norm("q_norm"),
                        k_norm: qk_norm("k_norm"),
                        heads: a.heads as i64,
                        kv_heads: a.kv_heads as i64,
                        head_dim: head_dim as i64,
                    },
                    post_attention_layernorm: RmsNorm::new(
                        &(&layer / "post_attention_layernorm"),
                        hidden,
                        a.eps,
                    ),
                    mlp: Mlp {
                        gate_proj: proj(&mlp / "gate_proj", hidden, a.intermediate, a.mlp_bias),
                        up_proj: proj(&mlp / "up_proj", hidden, a.intermediate, a.mlp_bias),
                        down_proj: proj(&mlp / "down_proj", a.intermediate, hidden, a.mlp_bias),
                    },
                }
            })
            .collect();
        let norm = RmsNorm::new(&(&model / "norm"), hidden, a.eps);
        let lm_head = (!a.tie).then(|| linear(&root / "lm_head", hidden, a.vocab, false));
        let inv_freq = crate::rope::inv_freq(&a.rope, head_dim, device);
        Ok(Model {
            config,
            arch,
            vs,
            embed_tokens,
            layers,
            norm,
            lm_head,
            inv_freq,
            compute: Kind::Float,
            head_rounded: false,
            lora: None,
            checkpointing: false,
            sample_vocab: None,
        })
    }

    /// The seven projections of every layer, each with its Hugging Face name without the
    /// `.weight` suffix (`model.layers.3.mlp.up_proj`); `merged_variables` walks the same
    /// list by shared reference.
    fn projections_mut(&mut self) -> Vec<(String, &mut Proj)> {
        let mut out = Vec::new();
        for (i, layer) in self.layers.iter_mut().enumerate() {
            let a = &mut layer.self_attn;
            let m = &mut layer.mlp;
            for (part, name, p) in [
                ("self_attn", "q_proj", &mut a.q_proj),
                ("self_attn", "k_proj", &mut a.k_proj),
                ("self_attn", "v_proj", &mut a.v_proj),
                ("self_attn", "o_proj", &mut a.o_proj),
                ("mlp", "gate_proj", &mut m.gate_proj),
                ("mlp", "up_proj", &mut m.up_proj),
                ("mlp", "down_proj", &mut m.down_proj),
            ] {
                out.push((format!("model.layers.{i}.{part}.{name}"), p));
            }
        }
        out
    }

    /// Freezes the model's own variables and puts a LoRA adapter (`crate::lora`) on each
    /// target projection of every layer, `A` drawn from torch's generator seeded with
    /// `seed`, `B` zeros (so the model computes as before). Adapters already there are
    /// replaced.
    pub fn attach_lora(&mut self, config: &LoraConfig, seed: u64) {
        let device = self.vs.device();
        self.vs.freeze();
        let lvs = nn::VarStore::new(device);
        tch::manual_seed(seed as i64);
        let scale = config.scale();
        let rank = config.rank;
        for (name, p) in self.projections_mut() {
            let short = name.rsplit('.').next().unwrap_or_default();
            if !config.targets.iter().any(|t| t == short) {
                p.lora = None;
                continue;
            }
            let (out, input) = p.lin.ws.size2().expect("invariant: a projection is 2-D");
            let mut path = lvs.root();
            for part in name.split('.') {
                path = &path / part;
            }
            let bound = 1.0 / (input as f64).sqrt();
            let a = path.var(
                "lora_A",
                &[rank, input],
                nn::Init::Uniform {
                    lo: -bound,
                    up: bound,
                },
            );
            let b = path.zeros("lora_B", &[out, rank]);
            p.lora = Some(Adapter { a, b, scale });
        }
        self.lora = Some((lvs, config.clone()));
    }

    /// The variables an optimizer trains: the adapters' with LoRA attached, else the
    /// model's own.
    pub fn trainable(&self) -> &nn::VarStore {
        self.lora.as_ref().map_or(&self.vs, |(lvs, _)| lvs)
    }

    /// The LoRA settings, when adapters are attached.
    pub fn lora(&self) -> Option<&LoraConfig> {
        self.lora.as_ref().map(|(_, c)| c)
    }

    /// The adapters' variables (`<projection>.lora_A`, `.lora_B`), detached, in name
    /// order; `None` without LoRA.
    pub fn lora_tensors(&self) -> Option<Vec<(String, Tensor)>> {
        let (lvs, _) = self.lora.as_ref()?;
        let mut vars: Vec<(String, Tensor)> = lvs
            .variables()
            .into_iter()
            .map(|(n, t)| (n, t.detach()))
            .collect();
        vars.sort_by(|a, b| a.0.cmp(&b.0));
        Some(vars)
    }

    /// Copies saved adapters ([`Model::lora_tensors`], `crate::lora::ADAPTER_FILE`) into
    /// the attached ones: every adapter must be in the file, with its shape.
    pub fn load_lora(&mut self, file: &Path) -> Result<()> {
        let Some((lvs, _)) = &self.lora else {
            return Err(Error::Config(format!(
                "{}: the model has no LoRA adapters to load into",
                file.display()
            )));
        };
        let tensors: HashMap<String, Tensor> =
            Tensor::read_safetensors(file)?.into_iter().collect();
        copy_into(lvs, &tensors, &[file.to_path_buf()])
    }

    /// The model's own variables in Hugging Face names, each with its adapter's update
    /// added (`W + (alpha / rank) B A`) when LoRA is attached; detached. A checkpoint's
    /// weights, which load as a plain model.
    pub fn merged_variables(&self) -> Vec<(String, Tensor)> {
        let mut deltas: HashMap<String, Tensor> = HashMap::new();
        for (i, layer) in self.layers.iter().enumerate() {
            let a = &layer.self_attn;
            let m = &layer.mlp;
            for (part, name, p) in [
                ("self_attn", "q_proj", &a.q_proj),
                ("self_attn", "k_proj", &a.k_proj),
                ("self_attn", "v_proj", &a.v_proj),
                ("self_attn", "o_proj", &a.o_proj),
                ("mlp", "gate_proj", &m.gate_proj),
                ("mlp", "up_proj", &m.up_proj),
                ("mlp", "down_proj", &m.down_proj),
            ] {
                if let Some(adapter) = &p.lora {
                    deltas.insert(
                        format!("model.layers.{i}.{part}.{name}.weight"),
                        adapter.delta(),
                    );
                }
            }
        }
        self.vs
            .variables()
            .into_iter()
            .map(|(n, t)| {
                let t = t.detach();
                let merged = match deltas.get(&n) {
                    Some(d) => (t.to_kind(Kind::Float) + d).to_kind(t.kind()),
                    None => t,
                };
                (n, merged)
            })
            .collect()
    }

    /// Never samples the ids from `tokens` on: the embedding's rows that the tokenizer has
    /// no token for (Qwen's 151,936 rows against 151,665 tokens), which an untrained row
    /// could still win. Nothing changes when `tokens` covers the vocabulary.
    pub fn limit_sampling_vocab(&mut self, tokens: usize) {
        self.sample_vocab = (tokens < self.arch.vocab).then_some(tokens as i64);
    }

    /// `logits` `[..., vocab]` with the ids that are never sampled at `-inf`
    /// ([`Model::limit_sampling_vocab`]); the logits themselves otherwise.
    pub fn mask_unsampled(&self, logits: &Tensor) -> Tensor {
        match self.sample_vocab {
            Some(n) => {
                let vocab = *logits
                    .size()
                    .last()
                    .expect("invariant: logits have a vocabulary");
                let ids = Tensor::arange(vocab, (Kind::Int64, logits.device()));
                logits.masked_fill(&ids.ge(n), f64::NEG_INFINITY)
            }
            None => logits.shallow_clone(),
        }
    }

    /// Whether the training passes use activation checkpointing (see
    /// [`Model::forward_checkpointed`]).
    pub fn checkpointing(&self) -> bool {
        self.checkpointing
    }

    /// Turns activation checkpointing of the training passes on or off.
    pub fn set_checkpointing(&mut self, on: bool) {
        self.checkpointing = on;
    }

    /// The matrix products' format: the one set by [`Model::set_compute`], or else the
    /// weights' own kind.
    pub fn compute(&self) -> Kind {
        if self.compute == Kind::Float {
            self.embed_tokens.ws.kind()
        } else {
            self.compute
        }
    }

    /// Takes the matrix products in `kind` (`Float`, `BFloat16` or `Half`), the weights
    /// staying as they are held (float32 masters for training).
    pub fn set_compute(&mut self, kind: Kind) {
        self.compute = kind;
    }

    /// Holds the weights in `kind` and computes in it: a sampler's or a server's copy,
    /// whose weights are those a float32 master with [`Model::set_compute`]`(kind)` uses.
    /// The LM head's weight stays float32, holding values rounded to `kind` (the head
    /// multiplies in float32; see `forward`).
    pub fn hold_in(&mut self, kind: Kind) {
        let head = self.head_name();
        tch::no_grad(|| {
            for (name, mut var) in self.vs.variables() {
                let held = if name == head && kind != Kind::Float {
                    var.to_kind(kind).to_kind(Kind::Float)
                } else {
                    var.to_kind(kind)
                };
                var.set_data(&held);
            }
        });
        self.compute = kind;
        self.head_rounded = kind != Kind::Float;
    }

    /// The Hugging Face name of the LM head's weight (the embedding's when tied).
    pub fn head_name(&self) -> &'static str {
        if self.lm_head.is_some() {
            "lm_head.weight"
        } else {
            "model.embed_tokens.weight"
        }
    }

    /// `source` as this model holds a weight of kind `held`: rounded to the compute
    /// format, then stored in `held` (a float32 master handed to a bf16 sampler).
    pub fn as_held(&self, source: &Tensor, held: Kind) -> Tensor {
        source.to_kind(self.compute()).to_kind(held)
    }

    /// Loads `config.json` and `model.safetensors` (or the shards named by
    /// `model.safetensors.index.json`) from a Hugging Face folder.
    pub fn load(dir: &Path, device: Device) -> Result<Model> {
        Model::load_as(dir, device, Kind::Float)
    }

    /// [`Model::load`] with the weights held in `kind` (`Float`, or `BFloat16`/`Half`) and
    /// the matrix products taken in it ([`Model::hold_in`]); the residual stream,
    /// normalisation, softmax and logprobs are computed in float32.
    pub fn load_as(dir: &Path, device: Device, kind: Kind) -> Result<Model> {
        let (config, _) = crate::family::load(&dir.join("config.json"))?;
        let mut model = Model::try_new(config, device)?;
        let files = weight_files(dir)?;
        let mut tensors: HashMap<String, Tensor> = HashMap::new();
        for file in &files {
            for (name, tensor) in Tensor::read_safetensors(file)? {
                tensors.insert(name, tensor);
            }
        }
        model.check_unexpected(&tensors, &files)?;
        copy_into(&model.vs, &tensors, &files)?;
        model.hold_in(kind);
        Ok(model)
    }

    /// A tensor of the files that the model has no variable for is an error naming it (a
    /// stray bias or `q_norm` says the family was misread); a tied model's saved
    /// `lm_head.weight` and old checkpoints' `rotary_emb.inv_freq` are passed over.
    fn check_unexpected(
        &self,
        tensors: &HashMap<String, Tensor>,
        files: &[std::path::PathBuf],
    ) -> Result<()> {
        let vars = self.vs.variables();
        let mut names: Vec<&String> = tensors.keys().collect();
        names.sort();
        for name in names {
            let known = vars.contains_key(name)
                || name.ends_with("rotary_emb.inv_freq")
                || (self.arch.tie && name == "lm_head.weight");
            if !known {
                return Err(Error::Weight {
                    name: name.clone(),
                    message: format!(
                        "in {} but not in a {:?} model of this config.json",
                        files
                            .iter()
                            .map(|f| f.display().to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        self.arch.family
                    ),
                });
            }
        }
        Ok(())
    }

    /// Logits `[batch, seq, vocab]` for `ids` `[batch, seq]` at `positions` `[batch, seq]`,
    /// with an additive attention `mask` `[batch, 1, seq, cached + seq]` (0 allowed, a
    /// large negative number masked), appending keys and values to `cache`.
    pub fn forward(
        &self,
        ids: &Tensor,
        positions: &Tensor,
        mask: &Tensor,
        cache: &mut Cache,
    ) -> Tensor {
        if cache.kv.len() != self.layers.len() {
            cache.kv = (0..self.layers.len()).map(|_| None).collect();
        }
        let c = self.compute();
        let (cos, sin) = self.rope_tables(positions, c);
        let mut xs = self.embed(ids, c);
        for (layer, entry) in self.layers.iter().zip(cache.kv.iter_mut()) {
            xs = layer.forward(&xs, &cos, &sin, mask, entry, c);
        }
        self.head(&xs, c)
    }

    /// [`Model::forward`] without a cache, keeping for the backward pass only each
    /// layer's input (activation checkpointing): the layers run without gradient, the
    /// final norm and the LM head with it. After `backward` of a loss of the logits,
    /// [`Recompute::backward`] runs each layer again, last to first, and carries the
    /// gradient through it into the model's variables: one layer's activations are held
    /// at a time, for a second forward pass of the layers.
    pub fn forward_checkpointed<'a>(
        &'a self,
        ids: &Tensor,
        positions: &Tensor,
        mask: &Tensor,
    ) -> (Tensor, Recompute<'a>) {
        let c = self.compute();
        let (cos, sin) = self.rope_tables(positions, c);
        let mut inputs = Vec::with_capacity(self.layers.len());
        let last = tch::no_grad(|| {
            let mut xs = self.embed(ids, c);
            for layer in &self.layers {
                inputs.push(xs.shallow_clone());
                xs = layer.forward(&xs, &cos, &sin, mask, &mut None, c);
            }
            xs
        })
        .detach()
        .set_requires_grad(true);
        let logits = self.head(&last, c);
        let recompute = Recompute {
            model: self,
            ids: ids.shallow_clone(),
            cos,
            sin,
            mask: mask.shallow_clone(),
            inputs,
            last,
        };
        (logits, recompute)
    }

    /// The rotary tables `(cos, sin)` `[batch, 1, seq, head_dim]` of `positions`, built in
    /// float32 from the integer positions, in the compute format `c`.
    fn rope_tables(&self, positions: &Tensor, c: Kind) -> (Tensor, Tensor) {
        let freqs = positions.to_kind(Kind::Float).unsqueeze(-1) * &self.inv_freq;
        let emb = Tensor::cat(&[&freqs, &freqs], -1);
        (
            emb.cos().unsqueeze(1).to_kind(c),
            emb.sin().unsqueeze(1).to_kind(c),
        )
    }

    /// The float32 residual stream's start: the embedding rows at the weights' precision.
    fn embed(&self, ids: &Tensor, c: Kind) -> Tensor {
        let xs = self.embed_tokens.forward(ids);
        if c != Kind::Float {
            return xs.to_kind(c).to_kind(Kind::Float);
        }
        xs
    }

    /// The final norm and the LM head: float32 logits.
    fn head(&self, xs: &Tensor, c: Kind) -> Tensor {
        let xs = self.norm.forward(xs, c);
        let head = self
            .lm_head
            .as_ref()
            .map_or(&self.embed_tokens.ws, |h| &h.ws);
        if c == Kind::Float && head.kind() == Kind::Float {
            return match &self.lm_head {
                Some(h) => h.forward(&xs),
                None => xs.matmul(&self.embed_tokens.ws.tr()),
            };
        }
        // The LM head takes bf16-rounded inputs and weights but multiplies and returns in
        // float32: logits rounded to bf16 would move log-probabilities by up to a bf16 step
        // of the logit (0.125 for logits of 16 to 32), and this layer is where sampler
        // and learner drift apart most (MiniMax-M1 raised its head to float32 for that).
        let weight = if self.head_rounded {
            head.shallow_clone()
        } else {
            head.to_kind(c).to_kind(Kind::Float)
        };
        xs.to_kind(c).to_kind(Kind::Float).matmul(&weight.tr())
    }
}

impl Layer {
    /// The pre-norm block: `xs + attn(norm(xs))`, then the same with the MLP; `xs` and the
    /// result are the float32 residual stream.
    fn forward(
        &self,
        xs: &Tensor,
        cos: &Tensor,
        sin: &Tensor,
        mask: &Tensor,
        entry: &mut Option<(Tensor, Tensor)>,
        c: Kind,
    ) -> Tensor {
        let h = self.self_attn.forward(
            &self.input_layernorm.forward(xs, c),
            cos,
            sin,
            mask,
            entry,
            c,
        );
        let xs1 = xs + h.to_kind(Kind::Float);
        let h = self
            .mlp
            .forward(&self.post_attention_layernorm.forward(&xs1, c), c);
        xs1 + h.to_kind(Kind::Float)
    }
}

/// What [`Model::forward_checkpointed`] kept: each layer's input, and the last layer's
/// output as the leaf the head's gradient reaches.
#[derive(Debug)]
pub struct Recompute<'a> {
    model: &'a Model,
    ids: Tensor,
    cos: Tensor,
    sin: Tensor,
    mask: Tensor,
    inputs: Vec<Tensor>,
    last: Tensor,
}

impl Recompute<'_> {
    /// Carries the gradient that a loss's `backward` left at the last layer's output
    /// through every layer and the embedding into the model's variables (accumulated, as
    /// `backward` accumulates): each layer is run again with gradient from its kept input,
    /// and the backward pass of `sum(output * gradient)` gives its variables' gradients
    /// and its input's. Nothing happens when the loss did not reach the layers.
    pub fn backward(self) {
        let mut grad = self.last.grad();
        if !grad.defined() {
            return;
        }
        let c = self.model.compute();
        for (layer, input) in self.model.layers.iter().zip(&self.inputs).rev() {
            let x = input.detach().set_requires_grad(true);
            let y = layer.forward(&x, &self.cos, &self.sin, &self.mask, &mut None, c);
            (y * &grad).sum(Kind::Float).backward();
            grad = x.grad();
        }
        let xs = self.model.embed(&self.ids, c);
        if xs.requires_grad() {
            (xs * &grad).sum(Kind::Float).backward();
        }
    }
}

fn rotate_half(xs: &Tensor) -> Tensor {
    let half = xs.size()[3] / 2;
    let x1 = xs.narrow(3, 0, half);
    let x2 = xs.narrow(3, half, half);
    Tensor::cat(&[&x2.neg(), &x1], 3)
}

impl Attention {
    fn forward(
        &self,
        xs: &Tensor,
        cos: &Tensor,
        sin: &Tensor,
        mask: &Tensor,
        entry: &mut Option<(Tensor, Tensor)>,
        c: Kind,
    ) -> Tensor {
        let (b, t, _) = xs
            .size3()
            .expect("invariant: hidden states are [batch, seq, hidden]");
        // [b, t, heads, d], each head normalised over d where the family says (before the
        // rotation), then [b, heads, t, d].
        let shape = |x: Tensor, heads: i64, norm: Option<&RmsNorm>| {
            let x = x.view([b, t, heads, self.head_dim]);
            let x = match norm {
                Some(n) => n.forward(&x.to_kind(Kind::Float), c),
                None => x,
            };
            x.transpose(1, 2)
        };
        let q = shape(self.q_proj.forward(xs, c), self.heads, self.q_norm.as_ref());
        let k = shape(
            self.k_proj.forward(xs, c),
            self.kv_heads,
            self.k_norm.as_ref(),
        );
        let v = shape(self.v_proj.forward(xs, c), self.kv_heads, None);
        let q = &q * cos + rotate_half(&q) * sin;
        let k = &k * cos + rotate_half(&k) * sin;
        let (k, v) = match entry.take() {
            Some((pk, pv)) => (Tensor::cat(&[&pk, &k], 2), Tensor::cat(&[&pv, &v], 2)),
            None => (k, v),
        };
        *entry = Some((k.shallow_clone(), v.shallow_clone()));
        let repeat = self.heads / self.kv_heads;
        let k = k.repeat_interleave_self_int(repeat, 1, None);
        let v = v.repeat_interleave_self_int(repeat, 1, None);
        let scores = q.matmul(&k.transpose(-2, -1)).to_kind(Kind::Float)
            / (self.head_dim as f64).sqrt()
            + mask;
        let probs = scores.softmax(-1, Kind::Float).to_kind(v.kind());
        let out =
            probs
                .matmul(&v)
                .transpose(1, 2)
                .contiguous()
                .view([b, t, self.heads * self.head_dim]);
        self.o_proj.forward(&out, c)
    }
}

impl Mlp {
    fn forward(&self, xs: &Tensor, c: Kind) -> Tensor {
        let inner = self.gate_proj.forward(xs, c).silu() * self.up_proj.forward(xs, c);
        self.down_proj.forward(&inner, c)
    }
}

/// Copies `tensors` into every variable of `vs` by name, each in the variable's kind;
/// a missing name or another shape is an error naming it (and `files`, where they came
/// from).
fn copy_into(
    vs: &nn::VarStore,
    tensors: &HashMap<String, Tensor>,
    files: &[std::path::PathBuf],
) -> Result<()> {
    tch::no_grad(|| -> Result<()> {
        // In name order, so that the first error named is the same on every run.
        for (name, mut var) in sorted_variables(vs) {
            let source = tensors.get(&name).ok_or_else(|| Error::Weight {
                name: name.clone(),
                message: format!(
                    "missing from {}",
                    files
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })?;
            if source.size() != var.size() {
                return Err(Error::Weight {
                    name,
                    message: format!(
                        "shape {:?} in the file, {:?} expected",
                        source.size(),
                        var.size()
                    ),
                });
            }
            var.f_copy_(&source.to_kind(var.kind()))?;
        }
        Ok(())
    })
}

/// The variables of `vs` in name order (a `VarStore` holds them in a hash map).
fn sorted_variables(vs: &nn::VarStore) -> Vec<(String, Tensor)> {
    let mut variables: Vec<(String, Tensor)> = vs.variables().into_iter().collect();
    variables.sort_by(|a, b| a.0.cmp(&b.0));
    variables
}

/// Overwrites every variable of `vs` in name order from a SplitMix generator seeded
/// `seed`: norms at 1, every other value uniform in ±0.1. A test's model made this way
/// does not depend on libtorch's global generator, which tests running in parallel share
/// (and reseed).
#[cfg(test)]
pub(crate) fn fill_seeded(vs: &nn::VarStore, seed: u64) {
    let mut rng = crate::rng::SplitMix::new(seed);
    tch::no_grad(|| {
        for (name, mut var) in sorted_variables(vs) {
            let n = var.numel();
            let values: Vec<f32> = if name.contains("norm") {
                vec![1.0; n]
            } else {
                (0..n)
                    .map(|_| (rng.next_open01() as f32 * 2.0 - 1.0) * 0.1)
                    .collect()
            };
            let source = Tensor::from_slice(&values)
                .view(var.size().as_slice())
                .to_kind(var.kind());
            var.copy_(&source);
        }
    });
}

/// The safetensors files of a Hugging Face folder.
fn weight_files(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let single = dir.join("model.safetensors");
    if single.is_file() {
        return Ok(vec![single]);
    }
    let index = dir.join("model.safetensors.index.json");
    let text = std::fs::read_to_string(&index).map_err(|_| Error::Weight {
        name: "model.safetensors".to_owned(),
        message: format!(
            "neither model.safetensors nor model.safetensors.index.json in {}",
            dir.display()
        ),
    })?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|err| Error::Config(format!("{}: {err}", index.display())))?;
    let mut files: Vec<String> = json["weight_map"]
        .as_object()
        .ok_or_else(|| Error::Config(format!("{}: no weight_map", index.display())))?
        .values()
        .filter_map(|v| v.as_str().map(str::to_owned))
        .collect();
    files.sort();
    files.dedup();
    Ok(files.into_iter().map(|f| dir.join(f)).collect())
}

/// The additive causal mask `[batch, 1, seq, cached + seq]` for new tokens after `cached`
/// positions, with `attention` `[batch, cached + seq]` (1 for real tokens, 0 for padding).
pub fn causal_mask(attention: &Tensor, seq: i64) -> Tensor {
    let (b, total) = attention
        .size2()
        .expect("invariant: attention is [batch, total]");
    let device = attention.device();
    let cached = total - seq;
    let rows = Tensor::arange(seq, (Kind::Int64, device)).view([seq, 1]) + cached;
    let cols = Tensor::arange(total, (Kind::Int64, device)).view([1, total]);
    let causal = cols.le_tensor(&rows).view([1, 1, seq, total]);
    let keep = attention.to_kind(Kind::Bool).view([b, 1, 1, total]);
    let allowed = causal.logical_and(&keep);
    Tensor::zeros([b, 1, seq, total], (Kind::Float, device))
        .masked_fill(&allowed.logical_not(), -1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_config(model_type: &str) -> serde_json::Value {
        serde_json::json!({
            "model_type": model_type, "vocab_size": 32, "hidden_size": 16, "intermediate_size": 32,
            "num_hidden_layers": 1, "num_attention_heads": 2, "num_key_value_heads": 1,
            "rms_norm_eps": 1e-6, "rope_theta": 10000.0, "max_position_embeddings": 32,
            "tie_word_embeddings": true
        })
    }

    #[test]
    fn missing_weights_unsupported_configs_and_bad_shapes_are_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("config.json"),
            tiny_config("gpt2").to_string(),
        )
        .expect("write");
        let err = Model::load(dir.path(), Device::Cpu).expect_err("gpt2 is not supported");
        assert!(
            err.to_string()
                .contains("model_type `gpt2` is not supported"),
            "{err}"
        );

        std::fs::write(
            dir.path().join("config.json"),
            tiny_config("llama").to_string(),
        )
        .expect("write");
        let err = Model::load(dir.path(), Device::Cpu).expect_err("no weights");
        assert!(
            err.to_string()
                .contains("neither model.safetensors nor model.safetensors.index.json"),
            "{err}"
        );

        // Every weight of a random model but one, then one of the wrong shape.
        let config: Config = serde_json::from_value(tiny_config("llama")).expect("config");
        let model = Model::new(config, Device::Cpu);
        let mut named: Vec<(String, Tensor)> = model.vs.variables().into_iter().collect();
        named.sort_by(|a, b| a.0.cmp(&b.0));
        let dropped = named.remove(0).0;
        let path = dir.path().join("model.safetensors");
        Tensor::write_safetensors(&named, &path).expect("write weights");
        let err = Model::load(dir.path(), Device::Cpu).expect_err("a weight is missing");
        assert!(
            err.to_string()
                .starts_with(&format!("weight {dropped}: missing from")),
            "{err}"
        );
        named.push((
            dropped.clone(),
            Tensor::zeros([3], (Kind::Float, Device::Cpu)),
        ));
        Tensor::write_safetensors(&named, &path).expect("write weights");
        let err = Model::load(dir.path(), Device::Cpu).expect_err("a weight has the wrong shape");
        assert!(err.to_string().contains("shape [3] in the file"), "{err}");
    }

    fn logits(model: &Model, ids: &Tensor) -> Tensor {
        let (b, t) = ids.size2().expect("2-D");
        let positions = Tensor::arange(t, (Kind::Int64, Device::Cpu))
            .view([1, t])
            .expand([b, t], true);
        let mask = causal_mask(&Tensor::ones([b, t], (Kind::Int64, Device::Cpu)), t);
        tch::no_grad(|| model.forward(ids, &positions, &mask, &mut Cache::default()))
    }

    #[test]
    fn a_float32_master_computing_in_bf16_equals_its_copy_held_in_bf16() {
        for tied in [true, false] {
            let mut json = tiny_config("llama");
            json["tie_word_embeddings"] = serde_json::json!(tied);
            let config: Config = serde_json::from_value(json).expect("config");
            tch::manual_seed(3);
            let mut master = Model::new(config.clone(), Device::Cpu);
            let mut held = Model::new(config, Device::Cpu);
            held.vs.copy(&master.vs).expect("copy");
            held.hold_in(Kind::BFloat16);
            master.set_compute(Kind::BFloat16);
            let ids = Tensor::randint(32, [2, 7], (Kind::Int64, Device::Cpu));
            let (a, b) = (logits(&master, &ids), logits(&held, &ids));
            assert_eq!(a.kind(), Kind::Float, "logits are float32");
            assert_eq!(
                (&a - &b).abs().max().double_value(&[]),
                0.0,
                "tied {tied}: the same function, bit for bit"
            );
            // The head stays float32 holding rounded values; the rest is held in bf16.
            let vars = held.vs.variables();
            assert_eq!(vars[held.head_name()].kind(), Kind::Float);
            assert_eq!(
                vars["model.layers.0.mlp.up_proj.weight"].kind(),
                Kind::BFloat16
            );
            // float32 computes otherwise: bf16 moves the logits.
            master.set_compute(Kind::Float);
            assert!((logits(&master, &ids) - &a).abs().max().double_value(&[]) > 0.0);
        }
    }

    #[test]
    fn lora_adapters_start_as_no_change_train_alone_and_merge_into_plain_weights() {
        let config: Config = serde_json::from_value(tiny_config("llama")).expect("config");
        tch::manual_seed(5);
        let mut model = Model::new(config.clone(), Device::Cpu);
        let ids = Tensor::randint(32, [2, 6], (Kind::Int64, Device::Cpu));
        let before = logits(&model, &ids);
        let lora = LoraConfig {
            rank: 2,
            alpha: 4.0,
            targets: vec!["q_proj".into(), "down_proj".into()],
        };
        model.attach_lora(&lora, 9);
        assert_eq!(
            (logits(&model, &ids) - &before)
                .abs()
                .max()
                .double_value(&[]),
            0.0,
            "B starts at zero: the same function"
        );
        // Only the adapters train: two tensors per target per layer.
        let trainable = model.trainable().trainable_variables();
        assert_eq!(trainable.len(), 4);
        assert!(model.vs.variables().values().all(|t| !t.requires_grad()));
        let names: Vec<String> = model
            .lora_tensors()
            .expect("adapters")
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(
            names,
            [
                "model.layers.0.mlp.down_proj.lora_A",
                "model.layers.0.mlp.down_proj.lora_B",
                "model.layers.0.self_attn.q_proj.lora_A",
                "model.layers.0.self_attn.q_proj.lora_B",
            ]
        );
        // Move B: the output changes, and a plain model holding the merged weights
        // computes what the adapters do.
        tch::no_grad(|| {
            for (name, mut var) in model.trainable().variables() {
                if name.ends_with("lora_B") {
                    var.copy_(&(Tensor::randn(var.size(), (Kind::Float, Device::Cpu)) * 0.5));
                }
            }
        });
        let adapted = logits(&model, &ids);
        assert!((&adapted - &before).abs().max().double_value(&[]) > 1e-3);
        let merged: HashMap<String, Tensor> = model.merged_variables().into_iter().collect();
        assert_eq!(
            merged.len(),
            model.vs.variables().len(),
            "the model's own names only"
        );
        let plain = Model::new(config, Device::Cpu);
        copy_into(&plain.vs, &merged, &[]).expect("same names and shapes");
        let diff = (logits(&plain, &ids) - &adapted)
            .abs()
            .max()
            .double_value(&[]);
        assert!(
            diff < 1e-4,
            "merged weights compute as the adapters: {diff}"
        );
        // A checkpoint's adapters load back; a file without them is named.
        let dir = tempfile::tempdir().expect("tempdir");
        let file = dir.path().join(crate::lora::ADAPTER_FILE);
        Tensor::write_safetensors(&model.lora_tensors().expect("adapters"), &file).expect("write");
        let mut again = Model::new(plain.config.clone(), Device::Cpu);
        again.vs.copy(&model.vs).expect("copy");
        again.attach_lora(&lora, 1);
        again.load_lora(&file).expect("loads");
        assert_eq!(
            (logits(&again, &ids) - &adapted)
                .abs()
                .max()
                .double_value(&[]),
            0.0
        );
        // The same rank on every projection: the file lacks k_proj's adapter, among others.
        let mut wider = Model::new(plain.config.clone(), Device::Cpu);
        wider.attach_lora(
            &LoraConfig {
                targets: LoraConfig::default().targets,
                ..lora.clone()
            },
            1,
        );
        let err = wider
            .load_lora(&file)
            .expect_err("k_proj's adapter is not in the file");
        assert!(err.to_string().contains("missing from"), "{err}");
        let err = plain_model_error(&file);
        assert!(err.contains("no LoRA adapters"), "{err}");
    }

    #[test]
    fn ids_the_tokenizer_lacks_are_never_sampled() {
        let config: Config = serde_json::from_value(tiny_config("qwen2")).expect("config");
        let mut model = Model::new(config, Device::Cpu);
        fill_seeded(&model.vs, 4);
        let sampling = crate::generate::Sampling {
            temperature: 5.0,
            top_p: 1.0,
            top_k: 0,
            max_tokens: 28,
            stop: Vec::new(),
            seed: 3,
            pad_id: 0,
        };
        let drawn = |model: &Model| -> Vec<i64> {
            crate::generate::sample(model, &[vec![1, 2, 3], vec![4, 5]], &sampling)
                .expect("samples")
                .into_iter()
                .flat_map(|s| s.tokens)
                .collect()
        };
        assert!(
            drawn(&model).iter().any(|t| *t >= 20),
            "hot sampling reaches the top ids"
        );
        model.limit_sampling_vocab(20);
        assert!(drawn(&model).iter().all(|t| *t < 20));
        let logits = Tensor::zeros([1, 32], (Kind::Float, Device::Cpu));
        let masked = model.mask_unsampled(&logits);
        assert_eq!(masked.double_value(&[0, 19]), 0.0);
        assert_eq!(masked.double_value(&[0, 20]), f64::NEG_INFINITY);
        // A limit at or above the vocabulary changes nothing.
        model.limit_sampling_vocab(32);
        assert_eq!(model.mask_unsampled(&logits).double_value(&[0, 31]), 0.0);
    }

    fn grads(model: &Model) -> Vec<(String, Tensor)> {
        sorted_variables(&model.vs)
            .into_iter()
            .map(|(n, t)| (n, t.grad().copy()))
            .collect()
    }

    #[test]
    fn checkpointed_training_passes_give_the_plain_gradients() {
        for (family, tied) in [("llama", true), ("qwen2", false), ("qwen3", true)] {
            let mut json = tiny_config(family);
            json["tie_word_embeddings"] = serde_json::json!(tied);
            json["head_dim"] = serde_json::json!(12);
            json["num_hidden_layers"] = serde_json::json!(2);
            let config: Config = serde_json::from_value(json).expect("config");
            let mut model = Model::new(config, Device::Cpu);
            fill_seeded(&model.vs, 21);
            let (b, t) = (2, 7);
            let ids =
                Tensor::from_slice(&[3i64, 9, 1, 30, 7, 7, 2, 5, 11, 0, 31, 4, 8, 16]).view([b, t]);
            let positions = Tensor::arange(t, (Kind::Int64, Device::Cpu))
                .view([1, t])
                .expand([b, t], true);
            let mask = causal_mask(&Tensor::ones([b, t], (Kind::Int64, Device::Cpu)), t);
            let weights = Tensor::linspace(-1.0, 1.0, 32, (Kind::Float, Device::Cpu));
            let loss =
                |logits: Tensor| (logits.log_softmax(-1, Kind::Float) * &weights).sum(Kind::Float);
            let plain = loss(model.forward(&ids, &positions, &mask, &mut Cache::default()));
            plain.backward();
            let want = grads(&model);
            for (_, mut v) in model.vs.variables() {
                v.zero_grad();
            }
            model.set_checkpointing(true);
            let (logits, recompute) = model.forward_checkpointed(&ids, &positions, &mask);
            let checkpointed = loss(logits);
            checkpointed.backward();
            recompute.backward();
            assert_eq!(
                plain.double_value(&[]),
                checkpointed.double_value(&[]),
                "{family}: the same loss"
            );
            let got = grads(&model);
            assert_eq!(got.len(), want.len());
            for ((name, a), (_, b)) in got.iter().zip(&want) {
                let scale = b.abs().max().double_value(&[]).max(1e-6);
                let diff = (a - b).abs().max().double_value(&[]);
                assert!(
                    diff <= 1e-5 * scale.max(1.0),
                    "{family} {name}: {diff} of {scale}"
                );
            }
            assert!(model.checkpointing());
        }
    }

    fn plain_model_error(file: &Path) -> String {
        let config: Config = serde_json::from_value(tiny_config("llama")).expect("config");
        let mut m = Model::new(config, Device::Cpu);
        m.load_lora(file)
            .expect_err("no adapters attached")
            .to_string()
    }
}
