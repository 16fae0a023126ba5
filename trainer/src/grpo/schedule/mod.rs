//! The update schedule: when a group's updates happen, on which turns, with which
//! advantage and under which normaliser, for every algorithm. One pure function,
//! [`plan`], that `trainer train` (`crate::train::run`) and the toy comparison
//! (`crate::toy::compare`) both call; each turns the picks into rows its own way and makes
//! the update with [`super::step::update`].
//!
//! # The contract
//!
//! The caller keeps, per group, the events so far ([`GroupEvents`]: each episode's turns
//! with their stage level, policy version and action-token count, and how it ended) and
//! what the earlier plans did ([`Done`], returned by each plan). After any event it calls
//! [`plan`] with the optimizer's current version, makes the plan's updates in order, keeps
//! the plan's [`Done`], and calls again until a plan brings no update: an update moves
//! the version that the staleness cap compares with, so a plan that makes updates never
//! also holds the corrections that follow them.
//!
//! # The rules
//!
//! - A group with fewer than 2 episodes left in it is dissolved: no more updates.
//! - [`Rule::Outcome`]: once every episode has ended, one update: every turn of each
//!   scored episode with its episode's group-relative verdict ([`group_advantages`]).
//! - [`Rule::Process`]: once every episode has ended, one update: every turn with its
//!   return-to-go advantage ([`GroupCredit::final_advantages`]: stage levels and verdict).
//! - [`Rule::Agentic`]: as soon as every episode still in the group has played turn `t`
//!   or stopped, the provisional update of turn `t` ([`GroupCredit::provisional`]); once
//!   every episode has ended, one correction update, each turn's rows under the normaliser
//!   of that turn's provisional update, corrections older than the staleness cap dropped
//!   and counted ([`GroupCredit::corrections`]).
//!
//! Everywhere: a turn without action tokens gets no pick (it has nothing to train); an
//! update's normaliser is its picks' counts (action tokens, turns with one) unless said
//! otherwise; and with `drop_uniform` an update whose every advantage is 0 is skipped and
//! counted (its provisional normaliser is still kept for the correction).

use std::collections::BTreeMap;

use super::GrpoError;
use super::advantage::{AdvantageConfig, group_advantages};
use super::credit::{CreditConfig, GroupCredit};
use super::loss::Normalizer;

/// Which algorithm's updates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// Outcome-only GRPO, with the verdicts' advantage settings.
    Outcome(AdvantageConfig),
    /// Process-reward GRPO: return-to-go advantages at the end.
    Process,
    /// Agentic GRPO: provisional updates per turn, corrections at the end.
    Agentic,
}

/// The schedule's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// The algorithm.
    pub rule: Rule,
    /// The credit assignment's settings (horizon, scaling, staleness cap).
    pub credit: CreditConfig,
    /// Skip (and count) an update whose every advantage is 0.
    pub drop_uniform: bool,
}

/// One turn an episode played.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TurnEvent {
    /// The stage level the episode had earned by the turn's end.
    pub level: f64,
    /// The policy version that generated the turn.
    pub version: u64,
    /// The turn's action (model) tokens.
    pub action_tokens: usize,
}

/// How an episode ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ending {
    /// With its final verdict (reward).
    Verdict(f64),
    /// It left the group (a judge error or a failure: no reward, never a 0).
    Left,
}

/// One episode's events so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EpisodeEvents {
    /// The turns played, in order.
    pub turns: Vec<TurnEvent>,
    /// How it ended, once it has.
    pub ending: Option<Ending>,
}

/// A group's events so far.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupEvents {
    /// One per episode of the group.
    pub episodes: Vec<EpisodeEvents>,
}

impl GroupEvents {
    /// A group of `size` episodes, nothing played.
    pub fn new(size: usize) -> GroupEvents {
        GroupEvents {
            episodes: vec![EpisodeEvents::default(); size],
        }
    }

    fn episode(&mut self, episode: usize) -> Result<&mut EpisodeEvents, GrpoError> {
        let size = self.episodes.len();
        match self.episodes.get_mut(episode) {
            Some(e) if e.ending.is_none() => Ok(e),
            Some(_) => Err(GrpoError::Setting {
                name: "episode",
                message: format!("episode {episode} has already ended"),
            }),
            None => Err(GrpoError::Setting {
                name: "episode",
                message: format!("episode {episode} of a group of {size}"),
            }),
        }
    }

    /// Episode `episode` played one more turn.
    pub fn turn(&mut self, episode: usize, turn: TurnEvent) -> Result<(), GrpoError> {
        self.episode(episode)?.turns.push(turn);
        Ok(())
    }

    /// Episode `episode` ended.
    pub fn end(&mut self, episode: usize, ending: Ending) -> Result<(), GrpoError> {
        self.episode(episode)?.ending = Some(ending);
        Ok(())
    }

    fn complete(&self) -> bool {
        self.episodes.iter().all(|e| e.ending.is_some())
    }

    fn members(&self) -> usize {
        self.episodes
            .iter()
            .filter(|e| e.ending != Some(Ending::Left))
            .count()
    }

    fn action_tokens(&self, pick: &Pick) -> usize {
        self.episodes
            .get(pick.episode)
            .and_then(|e| e.turns.get(pick.turn))
            .map_or(0, |t| t.action_tokens)
    }
}

/// The provisional update made for one turn.
#[derive(Debug, Clone, PartialEq)]
pub struct ProvisionalTurn {
    /// Each episode's provisional advantage (`None`: it did not play the turn, or left).
    pub advantages: Vec<Option<f64>>,
    /// The update's normaliser (the turn's correction reuses it).
    pub normalizer: Normalizer,
}

/// What the earlier plans of a group did; each plan returns the next.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Done {
    /// The provisional updates so far, by turn (Agentic only).
    pub provisional: Vec<ProvisionalTurn>,
    /// The final update (or the corrections) is planned: nothing more will come.
    pub finished: bool,
    /// Fewer than 2 episodes were left: nothing more will come.
    pub dissolved: bool,
}

impl Done {
    /// Whether no update will ever come for the group again.
    pub fn over(&self) -> bool {
        self.finished || self.dissolved
    }
}

/// One turn to train on, with its advantage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pick {
    /// The episode.
    pub episode: usize,
    /// The turn, from 0.
    pub turn: usize,
    /// The advantage of every action token of the turn.
    pub advantage: f64,
}

/// Picks aggregated under one normaliser.
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// The turns, in the order their rows go to the loss.
    pub picks: Vec<Pick>,
    /// The counts the loss divides by.
    pub normalizer: Normalizer,
}

/// Why an update is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Agentic: turn `turn`'s provisional update.
    Provisional {
        /// The turn, from 0.
        turn: usize,
    },
    /// Agentic: the corrections once every verdict is in.
    Correction,
    /// Outcome and process: the group's one update.
    Final,
}

/// One optimizer update: its parts are accumulated together and stepped once.
#[derive(Debug, Clone, PartialEq)]
pub struct Update {
    /// Why.
    pub purpose: Purpose,
    /// At least one, none empty.
    pub parts: Vec<Part>,
}

/// What to do now.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The updates, in order.
    pub updates: Vec<Update>,
    /// What the group's plans have done once these updates are made.
    pub done: Done,
    /// Corrections planned (turns, before dropping those without action tokens).
    pub corrections: usize,
    /// Corrections dropped as older than the staleness cap.
    pub stale: usize,
    /// Updates skipped because every advantage was 0.
    pub skipped_uniform: usize,
}

impl Plan {
    fn push(&mut self, purpose: Purpose, parts: Vec<Part>, drop_uniform: bool) {
        let parts: Vec<Part> = parts.into_iter().filter(|p| !p.picks.is_empty()).collect();
        if parts.is_empty() {
            return;
        }
        let uniform = parts
            .iter()
            .flat_map(|p| &p.picks)
            .all(|k| k.advantage == 0.0);
        if uniform && drop_uniform {
            self.skipped_uniform += 1;
            return;
        }
        self.updates.push(Update { purpose, parts });
    }
}

/// The picks with action tokens, under `normalizer` when given (and not empty), else under
/// their own counts.
fn part(events: &GroupEvents, picks: Vec<Pick>, normalizer: Option<Normalizer>) -> Part {
    let picks: Vec<Pick> = picks
        .into_iter()
        .filter(|k| events.action_tokens(k) > 0)
        .collect();
    let own = Normalizer {
        tokens: picks.iter().map(|k| events.action_tokens(k)).sum::<usize>() as f64,
        sequences: picks.len() as f64,
    };
    Part {
        picks,
        normalizer: normalizer.filter(|n| n.tokens > 0.0).unwrap_or(own),
    }
}

/// The credit state of `events`, with the provisional advantages `done` applied.
fn credit(
    events: &GroupEvents,
    done: &Done,
    settings: &Settings,
) -> Result<GroupCredit, GrpoError> {
    let mut credit = GroupCredit::new(events.episodes.len(), settings.credit)?;
    for (e, episode) in events.episodes.iter().enumerate() {
        for turn in &episode.turns {
            credit.record_turn(e, turn.level, turn.version)?;
        }
        match episode.ending {
            Some(Ending::Verdict(v)) => credit.record_verdict(e, v)?,
            Some(Ending::Left) => credit.leave(e)?,
            None => {}
        }
    }
    for (turn, p) in done.provisional.iter().enumerate() {
        credit.record_provisional(turn, &p.advantages)?;
    }
    Ok(credit)
}

/// Outcome GRPO's advantage of each episode (`None`: it left): the verdicts of the scored
/// episodes, group-relative as `config` says.
fn outcome_advantages(
    events: &GroupEvents,
    config: &AdvantageConfig,
) -> Result<Vec<Option<f64>>, GrpoError> {
    let scored: Vec<(usize, f64)> = events
        .episodes
        .iter()
        .enumerate()
        .filter_map(|(e, x)| match x.ending {
            Some(Ending::Verdict(v)) => Some((e, v)),
            _ => None,
        })
        .collect();
    let verdicts: Vec<f64> = scored.iter().map(|(_, v)| *v).collect();
    let advantages = group_advantages(&verdicts, config)?;
    let mut out = vec![None; events.episodes.len()];
    for ((e, _), a) in scored.iter().zip(advantages) {
        out[*e] = Some(a);
    }
    Ok(out)
}

/// The updates to make now for a group whose events so far are `events`, after the
/// earlier plans' `done`, at policy version `now` (the optimizer's steps).
pub fn plan(
    events: &GroupEvents,
    done: &Done,
    settings: &Settings,
    now: u64,
) -> Result<Plan, GrpoError> {
    let mut res = Plan {
        updates: Vec::new(),
        done: done.clone(),
        corrections: 0,
        stale: 0,
        skipped_uniform: 0,
    };
    if done.over() {
        return Ok(res);
    }
    if events.members() < 2 {
        res.done.dissolved = true;
        return Ok(res);
    }
    let mut credit = credit(events, done, settings)?;
    if settings.rule == Rule::Agentic {
        loop {
            let turn = res.done.provisional.len();
            let played = events.episodes.iter().any(|e| e.turns.len() > turn);
            if !played || !credit.turn_ready(turn) {
                break;
            }
            // `+ 0.0` writes a zero as 0, never -0, in the records.
            let advantages: Vec<Option<f64>> = credit
                .apply_provisional(turn)?
                .into_iter()
                .map(|v| v.map(|a| a + 0.0))
                .collect();
            let picks = advantages
                .iter()
                .enumerate()
                .filter_map(|(episode, a)| {
                    a.map(|advantage| Pick {
                        episode,
                        turn,
                        advantage,
                    })
                })
                .collect();
            let part = part(events, picks, None);
            res.done.provisional.push(ProvisionalTurn {
                advantages,
                normalizer: part.normalizer,
            });
            res.push(
                Purpose::Provisional { turn },
                vec![part],
                settings.drop_uniform,
            );
        }
        if !res.updates.is_empty() {
            // The corrections' staleness is measured after these updates: next plan.
            return Ok(res);
        }
    }
    if !events.complete() {
        return Ok(res);
    }
    res.done.finished = true;
    match settings.rule {
        Rule::Agentic => {
            let c = credit.corrections(now)?;
            res.stale += c.dropped_stale;
            res.corrections += c.apply.len();
            let mut by_turn: BTreeMap<usize, Vec<Pick>> = BTreeMap::new();
            for k in &c.apply {
                by_turn.entry(k.turn).or_default().push(Pick {
                    episode: k.episode,
                    turn: k.turn,
                    advantage: k.delta,
                });
            }
            let parts = by_turn
                .into_iter()
                .map(|(turn, picks)| {
                    let provisional = res.done.provisional.get(turn).map(|p| p.normalizer);
                    part(events, picks, provisional)
                })
                .collect();
            res.push(Purpose::Correction, parts, settings.drop_uniform);
        }
        Rule::Process => {
            let picks = credit
                .final_advantages()?
                .iter()
                .enumerate()
                .flat_map(|(episode, f)| {
                    f.iter().enumerate().map(move |(turn, a)| Pick {
                        episode,
                        turn,
                        advantage: *a,
                    })
                })
                .collect();
            let part = part(events, picks, None);
            res.push(Purpose::Final, vec![part], settings.drop_uniform);
        }
        Rule::Outcome(config) => {
            let picks = outcome_advantages(events, &config)?
                .iter()
                .enumerate()
                .flat_map(|(episode, a)| {
                    let turns = events.episodes[episode].turns.len();
                    (0..turns).filter_map(move |turn| {
                        a.map(|advantage| Pick {
                            episode,
                            turn,
                            advantage,
                        })
                    })
                })
                .collect();
            let part = part(events, picks, None);
            res.push(Purpose::Final, vec![part], settings.drop_uniform);
        }
    }
    Ok(res)
}

/// The final advantage of every turn of each episode (outer index: episode), for the
/// records: outcome, the episode's advantage on each turn (0 for one that left); process
/// and Agentic, the return-to-go advantages (none for one that left). An error until every
/// episode has ended, or when fewer than 2 are left.
pub fn final_advantages(
    events: &GroupEvents,
    settings: &Settings,
) -> Result<Vec<Vec<f64>>, GrpoError> {
    if !events.complete() {
        return Err(GrpoError::Setting {
            name: "final_advantages",
            message: "some episode has not ended yet".to_owned(),
        });
    }
    match settings.rule {
        Rule::Outcome(config) => Ok(outcome_advantages(events, &config)?
            .iter()
            .zip(&events.episodes)
            .map(|(a, e)| vec![a.unwrap_or(0.0); e.turns.len()])
            .collect()),
        Rule::Process | Rule::Agentic => {
            credit(events, &Done::default(), settings)?.final_advantages()
        }
    }
}

#[cfg(test)]
mod tests;
