"""PyTorch reference of the GRPO-family formulas of trainer::grpo (advantages and losses).

Written from the formulas in trainer/src/grpo/{advantage,loss}.rs's documentation, not from
the Rust code. Usage:

    grpo_reference.py INPUTS.safetensors CASES.json OUT.safetensors

INPUTS holds logp, old_logp, behaviour_logp, ref_logp, advantages, mask ([B, T], float64)
and rewards ([groups, G]). CASES is a list of {"name", "loss": {...}, "aggregation": {...},
"use_old", "use_behaviour", "use_ref"} and {"name", "advantage": {...}}. OUT gets, per loss
case, NAME.loss (scalar), NAME.grad (d loss / d logp) and NAME.stats, and per advantage
case NAME.advantages.

    grpo_reference.py adamw INPUTS.safetensors CONFIG.json OUT.safetensors

runs torch.optim.AdamW with clip_grad_norm_ and the warm-up schedule on the gradients
INPUTS holds (w, b, gw [steps, ...], gb [steps, ...]) and writes the final w, b, the
learning rates and the gradient norms.

    grpo_reference.py credit GROUPS.json OUT.safetensors

computes Agentic GRPO's provisional and final advantages of each group ({levels (ragged,
per episode), verdicts, horizon, scale, eps}) as gI.provisional and gI.final [G, horizon]
(0 on turns an episode did not play).

    grpo_reference.py model JOBS.json

one GRPO step on each of several Hugging Face models (any family transformers loads):
the loss and the gradient norm of every parameter (see model_step).
"""

import json
import math
import sys

import torch
from safetensors.torch import load_file, save_file

MAX_LOG_RATIO = 20.0


def advantages(rewards, cfg):
    g = rewards.shape[1]
    mean = rewards.mean(dim=1, keepdim=True)
    if cfg["baseline"] == "mean":
        base = mean
    else:
        base = (rewards.sum(dim=1, keepdim=True) - rewards) / (g - 1)
    diff = rewards - base
    if cfg["scale"] == "group_std":
        diff = diff / (rewards.std(dim=1, unbiased=True, keepdim=True) + cfg["eps"])
    return diff


def loss_case(t, case):
    logp = t["logp"].clone().requires_grad_(True)
    loss, stats = loss_of(logp, t, case)
    loss.backward()
    return loss.detach(), logp.grad, stats


def loss_of(logp, t, case):
    """The loss (with its graph) of the log-probabilities `logp` and the statistics."""
    cfg = case["loss"]
    mask = t["mask"]
    on = mask > 0
    lp = torch.where(on, logp, torch.zeros_like(logp))
    old = torch.where(on, t["old_logp"], 0.0) if case["use_old"] else lp.detach()
    adv = torch.where(on, t["advantages"], 0.0)
    n_tok = mask.sum()
    if cfg["ratio"] == "token":
        log_u = (lp - old) * mask
    else:
        length = mask.sum(dim=1, keepdim=True).clamp(min=1.0)
        s = (((lp - old) * mask).sum(dim=1, keepdim=True) / length).detach()
        log_u = (lp - lp.detach() + s) * mask
    u = log_u.clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO).exp()
    clipped = u.clamp(1 - cfg["clip_low"], 1 + cfg["clip_high"])
    surrogate = torch.minimum(u * adv, clipped * adv)
    per_token = -surrogate
    stats = {}
    if case["use_behaviour"]:
        beh = torch.where(on, t["behaviour_logp"], 0.0)
        w = ((old - beh) * mask).clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO).exp().detach()
        stats["bmean"] = (w[on].sum() / n_tok).item()
        stats["bmin"] = w[on].min().item()
        stats["bmax"] = w[on].max().item()
        if cfg["tis_cap"] is not None:
            stats["tis"] = ((w > cfg["tis_cap"]).double() * mask).sum().item() / n_tok.item()
            per_token = -(w.clamp(max=cfg["tis_cap"]) * surrogate)
        else:
            stats["tis"] = 0.0
    else:
        stats.update(bmean=1.0, bmin=1.0, bmax=1.0, tis=0.0)
    if case["use_ref"]:
        ref = torch.where(on, t["ref_logp"], 0.0)
        d = ((ref - lp) * mask).clamp(-MAX_LOG_RATIO, MAX_LOG_RATIO)
        k3 = d.exp() - d - 1
        stats["kl"] = ((k3 * mask).sum() / n_tok).item()
        if cfg["kl_beta"] > 0:
            per_token = per_token + cfg["kl_beta"] * k3
    else:
        stats["kl"] = 0.0
    per_token = per_token * mask
    n_seq = (mask.sum(dim=1) > 0).double().sum()
    agg = case["aggregation"]
    if agg == "token_mean":
        weights = mask / n_tok
    elif agg == "sequence_mean":
        weights = mask / mask.sum(dim=1, keepdim=True).clamp(min=1.0) / n_seq
    else:
        weights = mask / (agg["constant_length"]["length"] * n_seq)
    loss = (per_token * weights).sum()
    ud = u.detach()
    stats["rmean"] = (ud[on].sum() / n_tok).item()
    stats["rmin"] = ud[on].min().item()
    stats["rmax"] = ud[on].max().item()
    stats["clip_high"] = (((ud > 1 + cfg["clip_high"]) & (adv > 0)).double() * mask).sum().item() / n_tok.item()
    stats["clip_low"] = (((ud < 1 - cfg["clip_low"]) & (adv < 0)).double() * mask).sum().item() / n_tok.item()
    order = ["rmean", "rmin", "rmax", "clip_low", "clip_high", "kl", "bmean", "bmin", "bmax", "tis"]
    return loss, torch.tensor([stats[k] for k in order], dtype=torch.float64)


def model_step(jobs_path):
    """One GRPO step's loss and gradient norm on Hugging Face models. JOBS is a list of
    {"model", "rollouts", "out"}: for each, every rollout's token log-probabilities under
    the model (float32, eager attention, one row at a time), the loss of the rollouts'
    CASE on them, backward, and the global norm of every parameter's gradient, written
    as JSON {"loss", "grad_norm"} to "out". ROLLOUTS is {"case", "tokens", "action",
    "old_logp", "behaviour_logp", "advantage", and "ref_logp" with a KL case} (per row,
    lists as long as the row, entry k for token k)."""
    from transformers import AutoModelForCausalLM

    with open(jobs_path) as f:
        jobs = json.load(f)
    for job in jobs:
        model = AutoModelForCausalLM.from_pretrained(job["model"], dtype=torch.float32,
                                                     attn_implementation="eager")
        model.train()
        with open(job["rollouts"]) as f:
            spec = json.load(f)
        rows = spec["tokens"]
        width = max(len(r) for r in rows) - 1
        logp = []
        for r in rows:
            ids = torch.tensor([r])
            lp = torch.log_softmax(model(ids).logits[0, :-1].float(), -1)
            lp = lp.gather(1, ids[0, 1:, None])[:, 0]
            logp.append(torch.nn.functional.pad(lp, (0, width - lp.shape[0])))
        logp = torch.stack(logp).double()

        def shifted(key):
            return torch.tensor([(v[1:] + [0] * (width + 1 - len(v))) for v in spec[key]],
                                dtype=torch.float64)

        t = {"mask": shifted("action"), "old_logp": shifted("old_logp"),
             "behaviour_logp": shifted("behaviour_logp"), "advantages": shifted("advantage")}
        if "ref_logp" in spec:
            t["ref_logp"] = shifted("ref_logp")
        loss, _ = loss_of(logp, t, spec["case"])
        loss.backward()
        norm = torch.sqrt(sum((p.grad.double() ** 2).sum() for p in model.parameters()
                              if p.grad is not None))
        with open(job["out"], "w") as f:
            json.dump({"loss": loss.item(), "grad_norm": norm.item()}, f)


def lr_at(cfg, step):
    if step < cfg["warmup_steps"]:
        return cfg["lr"] * (step + 1) / cfg["warmup_steps"]
    if cfg["schedule"] == "constant":
        return cfg["lr"]
    span = max(cfg["total_steps"] - cfg["warmup_steps"], 1)
    progress = min((step - cfg["warmup_steps"]) / span, 1.0)
    if cfg["schedule"] == "linear":
        shape = 1.0 - progress
    else:
        shape = 0.5 * (1.0 + math.cos(math.pi * progress))
    return cfg["lr"] * (cfg["min_lr_ratio"] + (1.0 - cfg["min_lr_ratio"]) * shape)


def adamw(inputs, config_path, out_path):
    """torch.optim.AdamW (decay on matrices only) with clip_grad_norm_ and the schedule."""
    t = load_file(inputs)
    with open(config_path) as f:
        cfg = json.load(f)
    w = torch.nn.Parameter(t["w"].clone())
    b = torch.nn.Parameter(t["b"].clone())
    opt = torch.optim.AdamW(
        [{"params": [w], "weight_decay": cfg["weight_decay"]}, {"params": [b], "weight_decay": 0.0}],
        lr=cfg["lr"], betas=(cfg["beta1"], cfg["beta2"]), eps=cfg["eps"],
    )
    lrs, norms = [], []
    for step in range(t["gw"].shape[0]):
        lr = lr_at(cfg, step)
        for group in opt.param_groups:
            group["lr"] = lr
        opt.zero_grad()
        loss = (w * t["gw"][step]).sum() + (b * t["gb"][step]).sum()
        loss.backward()
        norms.append(torch.nn.utils.clip_grad_norm_([w, b], cfg["max_grad_norm"]).item())
        opt.step()
        lrs.append(lr)
    save_file({"w": w.detach(), "b": b.detach(), "lrs": torch.tensor(lrs, dtype=torch.float64),
               "norms": torch.tensor(norms, dtype=torch.float64)}, out_path)


def credit(case_path, out_path):
    """Agentic GRPO's credit from the objective in credit.rs's documentation: levels carried
    to the horizon after an episode stops, a leave-one-out term per turn (scaled by that
    turn's sample std + eps, or not), the verdict's term, provisional = the turn's term,
    final = the sum of the terms of this and every later turn plus the verdict's."""
    with open(case_path) as f:
        groups = json.load(f)
    out = {}
    for gi, g in enumerate(groups):
        levels, verdicts, horizon = g["levels"], g["verdicts"], g["horizon"]
        n = len(levels)
        carried = torch.zeros(n, horizon, dtype=torch.float64)
        for i, ls in enumerate(levels):
            for t in range(horizon):
                carried[i, t] = ls[min(t, len(ls) - 1)] if ls else 0.0

        def terms(values):
            loo = (values.sum() - values) / (n - 1)
            diff = values - loo
            if g["scale"] == "group_std":
                diff = diff / (values.std(unbiased=True) + g["eps"])
            return diff

        per_turn = torch.stack([terms(carried[:, t]) for t in range(horizon)], dim=1)
        verdict = terms(torch.tensor(verdicts, dtype=torch.float64))
        suffix = per_turn.flip(1).cumsum(1).flip(1) + verdict.unsqueeze(1)
        mask = torch.zeros(n, horizon, dtype=torch.float64)
        for i, ls in enumerate(levels):
            mask[i, : len(ls)] = 1.0
        out[f"g{gi}.provisional"] = (per_turn * mask).contiguous()
        out[f"g{gi}.final"] = (suffix * mask).contiguous()
    save_file(out, out_path)


def main():
    if sys.argv[1] == "model":
        model_step(sys.argv[2])
        return
    if sys.argv[1] == "adamw":
        adamw(*sys.argv[2:5])
        return
    if sys.argv[1] == "credit":
        credit(*sys.argv[2:4])
        return
    inputs, cases_path, out_path = sys.argv[1:4]
    t = load_file(inputs)
    with open(cases_path) as f:
        cases = json.load(f)
    out = {}
    for case in cases:
        name = case["name"]
        if "advantage" in case:
            out[name + ".advantages"] = advantages(t["rewards"], case["advantage"]).contiguous()
        else:
            loss, grad, stats = loss_case(t, case)
            out[name + ".loss"] = loss.reshape(1)
            out[name + ".grad"] = grad.contiguous()
            out[name + ".stats"] = stats
    save_file(out, out_path)


if __name__ == "__main__":
    main()
